use std::{net::SocketAddr, path::PathBuf, process::ExitCode};

use clap::{Parser, ValueEnum};
use reference_cms::{CategoryShape, Dialect, Settings};

/// A small CMS serving the portal's demo content, in the dialect of your choice: the
/// gateway's native contract, a MyBatis-Plus / RuoYi-style CMS, or a REST headless CMS.
/// Unset options fall back to REFERENCE_CMS_* environment variables, then to the demo defaults
/// (127.0.0.1:8081, the bundled content, client portal-web / demo-secret-change-me).
#[derive(Parser)]
#[command(
    version,
    after_help = "Environment: REFERENCE_CMS_LISTEN, _CONTENT_DIR, _DIALECT, _CATEGORIES, \
_CLIENT_ID, _CLIENT_SECRET, _TOKENS (visitor Bearer tokens, comma-separated), _DELAY_MS"
)]
struct Cli {
    /// Address to listen on.
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// Content directory (categories.json, articles/, files/).
    #[arg(long)]
    content: Option<PathBuf>,
    /// How the CMS speaks; config/examples/ has a gateway config for each.
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// How the rest dialect gives its categories: one flat list, or children asked per parent.
    #[arg(long, value_enum)]
    categories: Option<ShapeArg>,
}

#[derive(Clone, Copy, ValueEnum)]
enum DialectArg {
    Native,
    Mybatis,
    Rest,
}

#[derive(Clone, Copy, ValueEnum)]
enum ShapeArg {
    Flat,
    Children,
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt().with_target(false).init();
    let mut settings = Settings::from_env();
    if let Some(listen) = cli.listen {
        settings.listen = listen;
    }
    if let Some(content) = cli.content {
        settings.content_dir = content;
    }
    if let Some(dialect) = cli.dialect {
        settings.dialect = match dialect {
            DialectArg::Native => Dialect::Native,
            DialectArg::Mybatis => Dialect::Mybatis,
            DialectArg::Rest => Dialect::Rest,
        };
    }
    if let Some(shape) = cli.categories {
        settings.categories = match shape {
            ShapeArg::Flat => CategoryShape::Flat,
            ShapeArg::Children => CategoryShape::Children,
        };
    }
    let listener = match tokio::net::TcpListener::bind(settings.listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("reference-cms: cannot listen on {}: {e}", settings.listen);
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(
        addr = %settings.listen,
        dialect = ?settings.dialect,
        content = %settings.content_dir.display(),
        "reference-cms listening"
    );
    let shutdown = async {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {},
            _ = term.recv() => {},
        }
    };
    match reference_cms::serve(listener, settings, shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reference-cms: {e}");
            ExitCode::FAILURE
        }
    }
}
