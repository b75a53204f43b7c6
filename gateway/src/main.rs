use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use portal_gateway::{
    check,
    cli::cache::{self as cache_cli, Action},
};
use portal_web::{Application, Config, startup::shutdown_signal, telemetry};

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
    /// Recognise the CMS at --base-url and write the config for it: the CMS's mapping, its
    /// address, the company's name and time zone where the CMS says them, its sections mapped
    /// onto the portal's routes (check-upstream's fix lines applied); what it cannot know is a
    /// commented question. The credential comes from PORTAL__UPSTREAM__CLIENT_ID and
    /// PORTAL__UPSTREAM__CLIENT_SECRET. Exit 0 when check-upstream finds no error in what it
    /// wrote, 1 when it does, 2 when the CMS is not one it knows (nothing is written then).
    Init {
        /// The CMS's API address, e.g. https://cms.example.com/ or https://www.example.com/ for
        /// WordPress.
        #[arg(long)]
        base_url: String,
        /// How the gateway presents its credential (the CMS's mapping says otherwise).
        #[arg(long, value_enum)]
        auth: Option<portal_gateway::init::Auth>,
        /// Where to write the config.
        #[arg(long, default_value = "portal-gateway.toml")]
        out: PathBuf,
        /// Write over a file that exists.
        #[arg(long)]
        force: bool,
    },
    /// Look into and purge the cache of a running gateway, through its admin API. The admin token
    /// is read from --token-file, PORTAL__ADMIN__TOKEN or the config's admin.token; it is never
    /// printed. Exit 0 when the gateway answered, 77 when it refused the token, 69 when it is
    /// unreachable, 78 without a token, 1 for any other answer (an unknown key: 404).
    Cache {
        #[command(subcommand)]
        action: CacheCommand,
        /// The gateway's base URL (default: the config's server.listen, on loopback when it is a
        /// wildcard address; without --url, a config that cannot be read is an error).
        #[arg(long, global = true)]
        url: Option<String>,
        /// A file whose first line is the admin token.
        #[arg(long, global = true)]
        token_file: Option<PathBuf>,
        /// Print the gateway's envelope as it answered, rather than a table.
        #[arg(long, global = true)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum CacheCommand {
    /// Entries, bytes, hits, misses, stale answers, hit ratio and effective TTL per endpoint, and
    /// the shared tier's state.
    Stats,
    /// One entry: its age, what is left of its fresh and stale windows, tags, encodings and
    /// where it came from (KEY as the cache names it: article/list?categoryId=21&page=1&size=10).
    Show { key: String },
    /// Purge entries on every replica: by key prefix, by tag, or everything when neither is
    /// given. Soft (served stale while one refresh runs) unless --hard.
    Purge {
        /// A key prefix (article/list); may be repeated.
        #[arg(long = "prefix")]
        prefixes: Vec<String>,
        /// A tag (article:2101, category:21, articles, categories); may be repeated.
        #[arg(long = "tag")]
        tags: Vec<String>,
        /// Delete the entries rather than mark them stale.
        #[arg(long)]
        hard: bool,
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
    if let Some(Command::Cache {
        action,
        url,
        token_file,
        json,
    }) = &cli.command
    {
        return cache(
            &cli.config,
            action,
            url.as_deref(),
            token_file.as_deref(),
            *json,
        )
        .await;
    }
    if let Some(Command::Init {
        base_url,
        auth,
        out,
        force,
    }) = &cli.command
    {
        return init(base_url, *auth, out, *force).await;
    }
    let config = match load(&cli.config) {
        Ok(config) => config,
        Err(code) => return code,
    };
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config, cli.config).await,
        Command::CheckConfig => {
            for gap in config.language_gaps() {
                println!("warning: {gap}");
            }
            if let Some(gap) = config.app_files_gap() {
                println!("warning: {gap}");
            }
            println!(
                "portal-gateway: {}: the configuration is valid",
                cli.config.display()
            );
            ExitCode::SUCCESS
        }
        Command::CheckUpstream { json } => check_upstream(&config, json).await,
        Command::Cache { .. } | Command::Init { .. } => unreachable!("answered above"),
    }
}

/// `init`: recognises the CMS and writes its config (`portal_gateway::init`).
async fn init(
    base_url: &str,
    auth: Option<portal_gateway::init::Auth>,
    out: &std::path::Path,
    force: bool,
) -> ExitCode {
    use portal_gateway::init;
    if out.exists() && !force {
        eprintln!(
            "portal-gateway init: {} exists; choose another --out, or --force to write over it",
            out.display()
        );
        return ExitCode::from(2);
    }
    let variable = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let Ok(base_url) = base_url.parse() else {
        eprintln!(
            "portal-gateway init: --base-url {base_url} is not an address (http://… or https://…)"
        );
        return ExitCode::from(2);
    };
    let request = init::Request {
        base_url,
        auth,
        client_id: variable("PORTAL__UPSTREAM__CLIENT_ID"),
        client_secret: variable("PORTAL__UPSTREAM__CLIENT_SECRET"),
    };
    let written = match init::init(&request).await {
        Ok(written) => written,
        Err(err) => {
            eprintln!("portal-gateway init: {err}");
            return ExitCode::from(2);
        }
    };
    if let Err(err) = std::fs::write(out, &written.config) {
        eprintln!("portal-gateway init: {}: {err}", out.display());
        return ExitCode::from(2);
    }
    print!("{}", check::render(&written.report));
    print!("{}", init::summary(&written, &out.display().to_string()));
    ExitCode::from(written.report.exit_code())
}

/// `cache …`: the config is read only for the gateway's address and the admin token, so a
/// command run from elsewhere (a token file, --url) needs none.
async fn cache(
    path: &std::path::Path,
    command: &CacheCommand,
    url: Option<&str>,
    token_file: Option<&std::path::Path>,
    json: bool,
) -> ExitCode {
    let loaded = Config::load(path);
    // Without `--url` the gateway's address is the config's: a config that cannot be read is an
    // error then, never a guess (a guessed 127.0.0.1:8080 once purged another gateway).
    if url.is_none()
        && let Err(err) = &loaded
    {
        let err = cache_cli::CliError::NoConfig(path.display().to_string(), err.to_string());
        eprintln!("portal-gateway: {err}");
        return ExitCode::from(err.exit_code());
    }
    let config = loaded.ok();
    let token = match cache_cli::token(
        token_file,
        std::env::var(cache_cli::TOKEN_VARIABLE).ok().or_else(|| {
            let old = std::env::var(cache_cli::OLD_TOKEN_VARIABLE).ok()?;
            eprintln!(
                "portal-gateway: {} is the old name of {}; read it by the new one",
                cache_cli::OLD_TOKEN_VARIABLE,
                cache_cli::TOKEN_VARIABLE
            );
            Some(old)
        }),
        config.as_ref().and_then(|c| c.admin.token.as_ref()),
    ) {
        Ok(token) => token,
        Err(err) => {
            eprintln!("portal-gateway: {err}");
            return ExitCode::from(err.exit_code());
        }
    };
    let url = match (url, &config) {
        (Some(url), _) => url.to_owned(),
        (None, Some(config)) => cache_cli::url_for(config.server.listen),
        (None, None) => unreachable!("refused above"),
    };
    let action = match command {
        CacheCommand::Stats => Action::Stats,
        CacheCommand::Show { key } => Action::Show { key: key.clone() },
        CacheCommand::Purge {
            prefixes,
            tags,
            hard,
        } => Action::Purge {
            prefixes: prefixes.clone(),
            tags: tags.clone(),
            hard: *hard,
        },
    };
    match cache_cli::run(&action, &url, &token, json).await {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("portal-gateway: {err}");
            ExitCode::from(err.exit_code())
        }
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
