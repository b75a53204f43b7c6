use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use portal_gateway::{Application, Config, check, startup::shutdown_signal, telemetry};

// Allocation is the largest user-space cost of a cache hit (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The exit code of a configuration that does not load (sysexits' EX_CONFIG).
const CONFIG_INVALID: u8 = 78;

/// The rail-freight portal's gateway: serves the app under /portal/ and answers /portal/api by
/// calling the CMS. Every config key can be overridden by PORTAL__SECTION__KEY, e.g.
/// PORTAL__SERVER__LISTEN=0.0.0.0:8080.
#[derive(Parser)]
#[command(version)]
struct Cli {
    /// The config file (TOML).
    #[arg(
        short,
        long,
        global = true,
        env = "PORTAL_CONFIG",
        default_value = "config/gateway.toml"
    )]
    config: PathBuf,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the portal (what the gateway does without a command).
    Serve,
    /// Load and validate the config, then exit: 0 when it is good, 78 when not (like `nginx -t`).
    CheckConfig,
    /// Call every endpoint of the configured CMS and say what does not fit the config, where in
    /// the CMS's answer, and which key to change. Exit 0 when nothing is an error (warnings say
    /// what the portal will lack), 1 when something is.
    CheckUpstream {
        /// Print the report as JSON (for CI).
        #[arg(long)]
        json: bool,
    },
}

fn load(path: &std::path::Path) -> Result<Config, ExitCode> {
    Config::load(path).map_err(|err| {
        eprintln!("portal-gateway: {}: {err}", path.display());
        ExitCode::from(CONFIG_INVALID)
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match load(&cli.config) {
        Ok(config) => config,
        Err(code) => return code,
    };
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config, cli.config).await,
        Command::CheckConfig => {
            println!(
                "portal-gateway: {}: the configuration is valid",
                cli.config.display()
            );
            ExitCode::SUCCESS
        }
        Command::CheckUpstream { json } => check_upstream(&config, json).await,
    }
}

async fn check_upstream(config: &Config, json: bool) -> ExitCode {
    let report = match tokio::time::timeout(check::DEADLINE, check::run(config)).await {
        Ok(Ok(report)) => report,
        Ok(Err(err)) => {
            eprintln!("portal-gateway: {err}");
            return ExitCode::FAILURE;
        }
        Err(_) => {
            eprintln!(
                "portal-gateway: the check took longer than {:?}",
                check::DEADLINE
            );
            return ExitCode::FAILURE;
        }
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("a report serialises")
        );
    } else {
        print!("{}", check::render(&report));
    }
    // 0 with warnings and infos only; 1 with any error.
    ExitCode::from(report.exit_code())
}

async fn serve(config: Config, path: PathBuf) -> ExitCode {
    // Held to the end: dropping it writes out the lines still queued.
    let _log_writer = telemetry::init(&config.server);
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
