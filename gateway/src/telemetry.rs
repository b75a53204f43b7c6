//! The tracing subscriber: human-readable by default, JSON lines when configured.

use std::io::IsTerminal;

use tracing_subscriber::{EnvFilter, fmt, prelude::*};

use crate::config::{LogFormat, ServerConfig};

/// Installs the global subscriber; a second call (tests) is a no-op.
pub fn init(server: &ServerConfig) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&server.log_level))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let registry = tracing_subscriber::registry().with(filter);
    let _ = match server.log_format {
        LogFormat::Human => registry
            .with(
                fmt::layer()
                    .with_target(false)
                    .with_ansi(std::io::stdout().is_terminal()),
            )
            .try_init(),
        LogFormat::Json => registry
            .with(
                fmt::layer()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true),
            )
            .try_init(),
    };
}
