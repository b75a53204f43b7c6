//! The tracing subscriber: human-readable by default, JSON lines when configured, written through
//! a non-blocking writer (tracing-appender), which the access log (`access_log`) shares: lines are
//! handed to a writer thread rather than written to stdout by a request's own thread, so a slow terminal or log collector
//! never holds a request up. When the writer's queue is full, lines are dropped, not waited for,
//! and counted (`portal_log_lines_dropped_total`).

use std::{io::IsTerminal, sync::OnceLock};

use tracing_appender::non_blocking::{ErrorCounter, NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::{EnvFilter, fmt, prelude::*};

use crate::config::{LogFormat, ServerConfig};

/// Messages queued for the writer thread before new ones are dropped: single lines, or blocks of
/// up to 32 KiB of access lines (`access_log`), so at most ~16 MiB waits for a stalled stdout.
/// (tracing-appender's default, 128 000, allocates its queue up front: 4 MiB of RSS for nothing.)
const QUEUED_LINES: usize = 512;

static DROPPED: OnceLock<ErrorCounter> = OnceLock::new();

/// Log lines dropped because the writer fell behind, since start.
pub fn dropped_lines() -> u64 {
    DROPPED.get().map_or(0, |c| c.dropped_lines() as u64)
}

/// Installs the global subscriber. Keep the guard until the process ends: dropping it writes out
/// what is queued. A second call (tests) is a no-op and gives no guard.
pub fn init(server: &ServerConfig) -> Option<WorkerGuard> {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&server.log_level))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let (writer, guard) = NonBlockingBuilder::default()
        .buffered_lines_limit(QUEUED_LINES)
        .lossy(true)
        .thread_name("portal-log")
        // Whole blocks rather than a write per line (stdout alone flushes at every newline): the
        // writer thread drains the queue into this buffer and flushes when the queue runs dry.
        .finish(std::io::BufWriter::with_capacity(
            64 * 1024,
            std::io::stdout(),
        ));
    let dropped = writer.error_counter();
    let access_lines = writer.clone();
    // Every event's line through the redaction (the access lines redact their error field).
    let writer = portal_core::redact::MakeRedacting(writer);
    let registry = tracing_subscriber::registry().with(filter);
    let installed = match server.log_format {
        LogFormat::Human => registry
            .with(
                fmt::layer()
                    .with_writer(writer)
                    .with_target(false)
                    .with_ansi(std::io::stdout().is_terminal()),
            )
            .try_init(),
        LogFormat::Json => registry
            .with(
                fmt::layer()
                    .json()
                    .with_writer(writer)
                    .flatten_event(true)
                    .with_current_span(true),
            )
            .try_init(),
    };
    installed.ok()?;
    let _ = DROPPED.set(dropped);
    crate::access_log::install(server.log_format, access_lines);
    Some(guard)
}
