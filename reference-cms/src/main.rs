use std::process::ExitCode;

use reference_cms::Settings;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt().with_target(false).init();
    let mut settings = Settings::from_env();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        match (arg.as_str(), value) {
            ("--listen", Some(v)) => match v.parse() {
                Ok(addr) => settings.listen = addr,
                Err(_) => return usage(&format!("--listen: not an address: {v}")),
            },
            ("--content", Some(v)) => settings.content_dir = v.into(),
            _ => return usage(&format!("unknown argument {arg}")),
        }
    }
    let listener = match tokio::net::TcpListener::bind(settings.listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("reference-cms: cannot listen on {}: {e}", settings.listen);
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(addr = %settings.listen, content = %settings.content_dir.display(), "reference-cms listening");
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

fn usage(err: &str) -> ExitCode {
    eprintln!(
        "reference-cms: {err}\nusage: reference-cms [--listen ADDR] [--content DIR]\n\
        Environment: REFERENCE_CMS_LISTEN, _CONTENT_DIR, _CLIENT_ID, _CLIENT_SECRET, _TOKENS, _DELAY_MS"
    );
    ExitCode::from(2)
}
