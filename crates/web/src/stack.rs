//! The middleware stack every request passes, named once: request id, observe (span, log line,
//! count, panic to 500 envelope), per-client limit, then the router. `startup` builds it around
//! the router; `serve` gives each connection its copy.

use std::{
    convert::Infallible,
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
    response::Response,
};
use tower::{Service, ServiceBuilder};
use tower_http::request_id::{MakeRequestId, RequestId, SetRequestId, SetRequestIdLayer};

use crate::observe::{AccessLog, Observe, ObserveLayer, REQUEST_ID};
use portal_content::limits::{ClientLimit, ClientLimitLayer, ClientLimits};
use portal_core::{security::Hsts, traces::Traces};

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
    traces: Option<Traces>,
) -> App {
    App(ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(
            REQUEST_ID,
            SequentialRequestId::new(),
        ))
        .layer(ObserveLayer::new(hsts, access_log, traces))
        .layer(ClientLimitLayer::new(client_limits))
        .service(router))
}
