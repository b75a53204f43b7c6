use std::{path::PathBuf, process::ExitCode};

use portal_gateway::{Application, Config, startup::shutdown_signal, telemetry};

// Allocation is the largest user-space cost of a cache hit (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: portal-gateway [--config FILE]\n\
    Every key can be overridden by PORTAL__SECTION__KEY, e.g. PORTAL__SERVER__LISTEN=0.0.0.0:8080.";

fn config_path() -> Result<PathBuf, String> {
    let mut args = std::env::args().skip(1);
    let mut path = PathBuf::from("config/gateway.toml");
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--config" | "-c" => {
                path = args.next().ok_or("--config needs a file")?.into();
            }
            "--help" | "-h" => return Err(String::new()),
            other => match other.strip_prefix("--config=") {
                Some(file) => path = file.into(),
                None => return Err(format!("unknown argument {other}")),
            },
        }
    }
    Ok(path)
}

#[tokio::main]
async fn main() -> ExitCode {
    let path = match config_path() {
        Ok(path) => path,
        Err(err) => {
            if !err.is_empty() {
                eprintln!("portal-gateway: {err}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let config = match Config::load(&path) {
        Ok(config) => config,
        Err(err) => {
            eprintln!("portal-gateway: {}: {err}", path.display());
            return ExitCode::from(78);
        }
    };
    telemetry::init(&config.server);
    let app = match Application::build_with_file(config, Some(path)).await {
        Ok(app) => app,
        Err(err) => {
            tracing::error!(%err, "cannot start");
            eprintln!("portal-gateway: {err}");
            return ExitCode::FAILURE;
        }
    };
    match app.run_until(shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("portal-gateway: {err}");
            ExitCode::FAILURE
        }
    }
}
