//! Builds the whole app from a config, binds it, and runs it until a shutdown signal.

use std::{future::Future, io, net::SocketAddr, pin::Pin};

use axum::{
    Router,
    extract::Request,
    http::Method,
    response::{Redirect, Response},
    routing::get,
};
use tokio::net::TcpListener;

pub use crate::stack::{App, SequentialRequestId, layers};
use crate::{
    access_log, admin, api,
    config::Config,
    health, metrics, reload,
    state::{AppState, RuntimeError},
};

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
}

/// Anything outside the API: a page of the app (server-rendered, `pages`), or one of the app's
/// files from the runtime's copy in memory.
async fn app_file(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: Request,
) -> Response {
    let (parts, _body) = request.into_parts();
    if matches!(parts.method, Method::GET | Method::HEAD)
        && state.runtime().app_files.is_page(parts.uri.path())
        && let Some(page) = crate::pages::page(&state, &parts).await
    {
        return page;
    }
    state.runtime().app_files.serve(&parts)
}

/// The app for a given state.
pub fn app(state: AppState) -> App {
    // Installed before the first request so every counter lands in it.
    let _ = portal_core::metrics::handle();
    portal_cache::stats::register();
    let router = Router::new()
        .route("/", get(|| async { Redirect::permanent("/portal/") }))
        .route("/portal", get(|| async { Redirect::permanent("/portal/") }))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::render))
        .merge(api::router())
        .merge(admin::router())
        .merge(
            crate::crawl::router().route_layer(axum::middleware::from_fn_with_state(
                state.clone(),
                crate::pages::not_found_in_layout,
            )),
        )
        .method_not_allowed_fallback(api::method_not_allowed)
        // The app's files, from memory, as the build encoded them.
        .fallback(app_file)
        .with_state(state.clone());
    layers(
        router,
        state.client_limits.clone(),
        state.hsts.clone(),
        state.access_log.clone(),
        state.traces.clone(),
    )
}

/// A server running (`Application::run_until`), boxed: the future of the accept loop and every
/// connection's service is compiled once, in this crate, instead of again in each crate that
/// awaits it (the binary, the search bench, every test crate). The binary's own rebuild fell from
/// 18.5 s to 1.1 s; this crate's incremental rebuild after a page handler's change rose from 35 s
/// to ~51 s, inside the 60 s asked (docs/performance.md, "Builds").
pub type Running = Pin<Box<dyn Future<Output = io::Result<()>> + Send>>;

pub struct Application {
    listener: TcpListener,
    app: App,
    state: AppState,
}

impl Application {
    pub async fn build(config: Config) -> Result<Self, StartupError> {
        Self::build_with_file(config, None).await
    }

    /// As `build`, remembering the file the config came from so SIGHUP and edits reload it.
    pub async fn build_with_file(
        config: Config,
        file: Option<std::path::PathBuf>,
    ) -> Result<Self, StartupError> {
        let addr = config.server.listen;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| StartupError::Bind { addr, source })?;
        let state = AppState::new(config, file)?;
        Ok(Self {
            listener,
            app: app(state.clone()),
            state,
        })
    }

    /// The state the app serves from (tests reload it directly).
    pub fn state(&self) -> AppState {
        self.state.clone()
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until `shutdown` resolves, then lets requests in flight finish.
    pub fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Running {
        self.run(Box::pin(shutdown))
    }

    fn run(self, shutdown: Pin<Box<dyn Future<Output = ()> + Send>>) -> Running {
        Box::pin(self.serve_until(shutdown))
    }

    async fn serve_until(
        self,
        shutdown: Pin<Box<dyn Future<Output = ()> + Send>>,
    ) -> io::Result<()> {
        let addr = self.local_addr();
        tracing::info!(%addr, upstream = %self.state.runtime().config.upstream.base_url, "portal gateway listening");
        if self.state.runtime().config.site.public_url.is_empty() {
            tracing::warn!(
                "site.public_url is not set: pages link by paths, and there is no sitemap or feed \
                 (both need the address visitors reach the portal at, e.g. https://www.example.com)"
            );
        }
        reload::spawn(self.state.clone());
        crate::changes_poll::spawn(self.state.clone());
        portal_search::spawn(self.state.clone());
        let idle = self.state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                every.tick().await;
                idle.client_limits.forget_idle_clients();
            }
        });
        tokio::spawn(async {
            let mut every = tokio::time::interval(portal_core::metrics::UPKEEP_EVERY);
            loop {
                every.tick().await;
                portal_core::metrics::upkeep();
            }
        });
        tokio::spawn(async {
            let mut every = tokio::time::interval(access_log::FLUSH_EVERY);
            loop {
                every.tick().await;
                access_log::flush();
            }
        });
        let config = self.state.runtime().config.clone();
        let server = &config.server;
        let served = crate::serve::serve(
            self.listener,
            self.app,
            server.header_read_timeout,
            crate::connections::ConnectionLimits::of(server, &config.limits),
            server.shutdown_timeout,
            shutdown,
        )
        .await;
        // The search index's folder is free for the next process.
        self.state.search.close().await;
        // The last requests' lines, before the process ends.
        access_log::flush();
        // And their spans: the provider's shutdown exports what is queued and waits for it
        // (blocking, so off the async workers).
        if let Some(traces) = self.state.traces.clone() {
            let _ = tokio::task::spawn_blocking(move || traces.shutdown()).await;
        }
        served
    }
}

/// Resolves on Ctrl-C or SIGTERM. SIGTERM's handler is installed when this is called (before
/// the accept loop starts), not when the future is first polled: the loop's `select!` may take
/// a waiting connection first, and a SIGTERM sent after that connection's answer but before the
/// next turn of the loop would otherwise kill the process unhandled (the full test suite's load
/// made `operations::sigterm_cuts_a_download_still_running_after_the_shutdown_time_out` die by
/// signal 15 so).
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate());
    async move {
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        #[cfg(unix)]
        let terminate = async {
            match terminate {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            () = ctrl_c => {},
            () = terminate => {},
        }
        tracing::info!("shutdown signal received; finishing requests in flight");
    }
}
