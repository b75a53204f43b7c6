//! Builds the whole app from a config, binds it, and runs it until a shutdown signal.

use std::{
    convert::Infallible,
    future::Future,
    io,
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    task::{Context, Poll},
};

use axum::{
    Router,
    extract::Request,
    http::{HeaderValue, Request as HttpRequest},
    response::{Redirect, Response},
    routing::get,
};
use tokio::net::TcpListener;
use tower::{Service, ServiceBuilder};
use tower_http::request_id::{MakeRequestId, RequestId, SetRequestId, SetRequestIdLayer};

use crate::{
    access_log, admin, api,
    config::Config,
    health,
    limits::{ClientLimit, ClientLimitLayer, ClientLimits},
    metrics,
    observe::{AccessLog, Observe, ObserveLayer, REQUEST_ID},
    reload,
    security::Hsts,
    state::{AppState, RuntimeError},
};

/// Request ids: a random per-process prefix and a counter. Unique enough to join log lines and
/// CMS logs, and free of a random-number call per request.
#[derive(Clone)]
pub struct SequentialRequestId {
    prefix: u32,
    next: Arc<AtomicU64>,
}

impl SequentialRequestId {
    fn new() -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos() ^ (d.as_secs() as u32))
            .unwrap_or(0)
            ^ std::process::id().rotate_left(16);
        Self {
            prefix: seed,
            next: Arc::new(AtomicU64::new(1)),
        }
    }
}

impl MakeRequestId for SequentialRequestId {
    fn make_request_id<B>(&mut self, _: &HttpRequest<B>) -> Option<RequestId> {
        // `{prefix:08x}-{n:016x}`, written by hand: the formatting machinery was a visible part
        // of a cache hit's cost.
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let mut id = [b'-'; 25];
        for (i, slot) in id[..8].iter_mut().enumerate() {
            *slot = HEX[(self.prefix >> (28 - 4 * i) & 0xf) as usize];
        }
        for (i, slot) in id[9..].iter_mut().enumerate() {
            *slot = HEX[(n >> (60 - 4 * i) & 0xf) as usize];
        }
        HeaderValue::from_bytes(&id).ok().map(RequestId::new)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: io::Error },
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
}

/// The middleware stack, outermost first: request id, observe (span, log line, count, panic to
/// 500 envelope), per-client limit, then the router. Named once, here.
type Stack = SetRequestId<Observe<ClientLimit<Router>>, SequentialRequestId>;

/// The whole app as one service; `set_peer` tells its client limit and its access line whom a
/// connection is from.
#[derive(Clone)]
pub struct App(Stack);

impl App {
    /// This copy serves one connection from `peer`.
    pub fn set_peer(&mut self, peer: std::net::IpAddr) {
        let observe = self.0.get_mut();
        observe.set_peer(peer);
        observe.get_mut().set_peer(peer);
    }
}

impl Service<Request> for App {
    type Response = Response;
    type Error = Infallible;
    type Future = <Stack as Service<Request>>::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        self.0.call(request)
    }
}

/// Wraps `router` in the stack. The layers wrap the router once rather than being added with
/// `Router::layer`, which would wrap (and box, and clone on every request) each route.
pub fn layers(
    router: Router,
    client_limits: ClientLimits,
    hsts: Hsts,
    access_log: AccessLog,
) -> App {
    App(ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(
            REQUEST_ID,
            SequentialRequestId::new(),
        ))
        .layer(ObserveLayer::new(hsts, access_log))
        .layer(ClientLimitLayer::new(client_limits))
        .service(router))
}

/// Anything outside the API: the app's files, from the runtime's copy in memory.
async fn app_file(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: Request,
) -> Response {
    let (parts, _body) = request.into_parts();
    state.runtime().app_files.serve(&parts)
}

/// The app for a given state.
pub fn app(state: AppState) -> App {
    // Installed before the first request so every counter lands in it.
    let _ = metrics::handle();
    let router = Router::new()
        .route("/", get(|| async { Redirect::permanent("/portal/") }))
        .route("/portal", get(|| async { Redirect::permanent("/portal/") }))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::render))
        .merge(api::router())
        .merge(admin::router())
        .merge(crate::crawl::router())
        .method_not_allowed_fallback(api::method_not_allowed)
        // The app's files, from memory, as the build encoded them.
        .fallback(app_file)
        .with_state(state.clone());
    layers(
        router,
        state.client_limits.clone(),
        state.hsts.clone(),
        state.access_log.clone(),
    )
}

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
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()> {
        let addr = self.local_addr();
        tracing::info!(%addr, upstream = %self.state.runtime().config.upstream.base_url, "portal gateway listening");
        reload::spawn(self.state.clone());
        let idle = self.state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                every.tick().await;
                idle.client_limits.forget_idle_clients();
            }
        });
        tokio::spawn(async {
            let mut every = tokio::time::interval(access_log::FLUSH_EVERY);
            loop {
                every.tick().await;
                access_log::flush();
            }
        });
        let server = self.state.runtime().config.server.clone();
        let served = crate::serve::serve(
            self.listener,
            self.app,
            server.header_read_timeout,
            server.shutdown_timeout,
            shutdown,
        )
        .await;
        // The last requests' lines, before the process ends.
        access_log::flush();
        served
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
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
