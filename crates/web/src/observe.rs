//! What every request leaves behind: its request id echoed on the answer, one access line
//! (method, path, query, status, bytes, latency, cache outcome, client address, user agent,
//! request id, and the error when the answer is an `ApiError`: the one place errors are logged),
//! and a `portal_requests_total` count. A panic in the service it wraps becomes a 500 envelope
//! here (`envelope::panic_response`) and the process serves on.
//!
//! Written here rather than taken from tower-http's `TraceLayer`, which reads the clock about
//! seven times per request and wraps every response body even when nothing is logged: on a
//! cache hit that was a tenth of the gateway's own work (docs/performance.md). This layer reads
//! the clock only when the line is wanted and leaves bodies alone. Panics are caught here
//! rather than by tower-http's `CatchPanicLayer` for the same reason: it boxes every response
//! body (and axum's server then boxes it again into its own `Body`), which made a cached hit
//! 5 % dearer (21.2k against 20.2k instructions, `make bench-instructions`); `catch_unwind`
//! costs nothing until something panics.
//!
//! Nothing else on the way formats for the log: the `request` span (method, path, request id),
//! whose fields the subscriber would format into a string for every request, is made only when
//! debug lines are on, which are the only ones written inside a request's handling. The line
//! itself is added to the access log's block (`access_log`), which goes to a non-blocking
//! writer (`telemetry`), so no request waits on the terminal or the log collector.
//!
//! With traces on (`traces`), the request's server span starts here and its context is attached
//! while the request's future is polled; with them off the layer holds `None` and does no span
//! work at all (one branch per request).

use std::{
    future::Future,
    net::{IpAddr, Ipv4Addr},
    panic::{AssertUnwindSafe, catch_unwind},
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
    time::Instant,
};

use axum::{
    extract::Request,
    http::{self, HeaderValue, Method, Uri, header},
    response::Response,
};
use tower::{Layer, Service};
use tracing::{Level, Span};

use crate::{access_log, config::ServerConfig};
use portal_cache::X_CACHE;
use portal_content::envelope::{ApiError, panic_response};
use portal_core::{
    metrics,
    security::{self, Hsts},
    traces::{self, Traces},
};

/// Whether access lines are written (`server.access_log`); shared with the reload path.
#[derive(Clone, Debug)]
pub struct AccessLog(Arc<AtomicBool>);

impl Default for AccessLog {
    fn default() -> Self {
        Self(Arc::new(AtomicBool::new(true)))
    }
}

impl AccessLog {
    /// Takes the setting of a (re)loaded config.
    pub fn configure(&self, server: &ServerConfig) {
        self.0.store(server.access_log, Ordering::Relaxed);
    }

    /// On in the config, the writer installed, and info lines let through by the log filter.
    fn wanted(&self) -> bool {
        self.0.load(Ordering::Relaxed)
            && access_log::installed()
            && tracing::enabled!(target: ACCESS, Level::INFO)
    }
}

/// The target of access lines, so a filter can treat them apart (`portal_gateway::access=off`).
const ACCESS: &str = "portal_gateway::access";

#[derive(Clone, Default)]
pub struct ObserveLayer {
    hsts: Hsts,
    access_log: AccessLog,
    traces: Option<Traces>,
}

impl ObserveLayer {
    /// `hsts` is the HSTS setting the layer adds to every response (see `security`);
    /// `access_log` whether it writes a line per request; `traces` the app's tracer, when on.
    pub fn new(hsts: Hsts, access_log: AccessLog, traces: Option<Traces>) -> Self {
        Self {
            hsts,
            access_log,
            traces,
        }
    }
}

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe {
            inner,
            hsts: self.hsts.clone(),
            access_log: self.access_log.clone(),
            traces: self.traces.clone(),
            peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
        }
    }
}

#[derive(Clone)]
pub struct Observe<S> {
    inner: S,
    hsts: Hsts,
    access_log: AccessLog,
    traces: Option<Traces>,
    /// The connection's peer, for the access line.
    peer: IpAddr,
}

impl<S> Observe<S> {
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// This copy serves one connection from `peer`.
    pub fn set_peer(&mut self, peer: IpAddr) {
        self.peer = peer;
    }
}

/// What the access line needs of the request, copied out before the request moves on (reference
/// counted copies, no formatting).
struct Access {
    started: Instant,
    method: Method,
    uri: Uri,
    user_agent: Option<HeaderValue>,
    forwarded_for: Option<HeaderValue>,
    peer: IpAddr,
}

pub use portal_content::request::REQUEST_ID;

impl<S> Service<Request> for Observe<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = ObserveFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let route = metrics::route_label(request.uri().path());
        // Set by tower-http's `SetRequestId` outside this layer (kept when the client sent one).
        let request_id = request.headers().get(REQUEST_ID).cloned();
        let span = if tracing::enabled!(Level::DEBUG) {
            tracing::info_span!(
                "request",
                method = %request.method(),
                path = %request.uri().path(),
                request_id = request_id
                    .as_ref()
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-"),
            )
        } else {
            Span::none()
        };
        // The one clock read on the way in, for `portal_request_duration_seconds` and the line.
        let started = Instant::now();
        let access = self.access_log.wanted().then(|| Access {
            started,
            method: request.method().clone(),
            uri: request.uri().clone(),
            user_agent: request.headers().get(header::USER_AGENT).cloned(),
            forwarded_for: request.headers().get("x-forwarded-for").cloned(),
            peer: self.peer,
        });
        let failure_path = access.is_none().then(|| request.uri().clone());
        let trace = self.traces.as_ref().map(|traces| {
            traces.start_request(
                request.method(),
                request.uri().path(),
                route,
                request.headers(),
                request_id.as_ref(),
            )
        });
        let called = {
            let _entered = span.enter();
            let _attached = trace.clone().map(portal_core::traces::Context::attach);
            catch_unwind(AssertUnwindSafe(|| self.inner.call(request)))
        };
        let (inner, panicked) = match called {
            Ok(inner) => (Some(inner), None),
            Err(panic) => (None, Some(panic_response(panic))),
        };
        ObserveFuture {
            inner,
            panicked,
            hsts: self.hsts.clone(),
            span,
            route,
            started,
            request_id,
            access,
            failure_path,
            trace,
        }
    }
}

pin_project_lite::pin_project! {
    pub struct ObserveFuture<F> {
        #[pin]
        inner: Option<F>,
        // The answer when calling the service panicked (then `inner` is `None`).
        panicked: Option<Response>,
        hsts: Hsts,
        span: Span,
        route: &'static str,
        started: Instant,
        request_id: Option<HeaderValue>,
        // Set when access lines are wanted.
        access: Option<Access>,
        // The target, kept for the warning of a server error when no access line is written.
        failure_path: Option<Uri>,
        // The request span's context, with traces on.
        trace: Option<portal_core::traces::Context>,
    }
}

impl<F, E> Future for ObserveFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let _entered = this.span.enter();
        // The request's trace is current while its handler runs (the CMS calls' spans below it).
        let _attached = this.trace.clone().map(portal_core::traces::Context::attach);
        let mut result = match this.inner.as_pin_mut() {
            // Not polled again once it has panicked: this poll answers.
            Some(inner) => match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
                Ok(Poll::Pending) => return Poll::Pending,
                Ok(Poll::Ready(result)) => result,
                Err(panic) => Ok(panic_response(panic)),
            },
            None => Ok(this
                .panicked
                .take()
                .expect("an ObserveFuture without a service future holds its answer")),
        };
        if let Ok(response) = &mut result {
            // Echoed here rather than by tower-http's `PropagateRequestId`, which also stores it
            // in every response's extensions: a visible share of a cache hit (performance.md).
            let request_id = this.request_id.take();
            if let Some(id) = &request_id {
                response
                    .headers_mut()
                    .entry(REQUEST_ID)
                    .or_insert(id.clone());
            }
            security::complete(response.headers_mut(), this.hsts);
            let status = response.status();
            metrics::requests_counter(this.route, status.as_u16()).increment(1);
            metrics::request_duration(this.route).record(this.started.elapsed().as_secs_f64());
            let error = response.extensions().get::<ApiError>();
            let failed = status.is_server_error() || status == http::StatusCode::REQUEST_TIMEOUT;
            let trace_id = this.trace.take().and_then(|cx| {
                traces::finish_request(&cx, status, text(response.headers().get(X_CACHE)));
                traces::trace_id(&cx)
            });
            if let Some(access) = this.access.take() {
                log_access(
                    &access,
                    response,
                    request_id.as_ref(),
                    trace_id.as_ref().map(traces::TraceIdText::as_str),
                    error,
                    failed,
                );
            } else if failed {
                tracing::warn!(
                    target: ACCESS,
                    status = status.as_u16(),
                    path = this.failure_path.as_ref().map(Uri::path),
                    request_id = request_id.as_ref().and_then(|v| v.to_str().ok()),
                    trace_id = trace_id.as_ref().map(traces::TraceIdText::as_str),
                    error = error.map(tracing::field::display),
                    "answered with a server error"
                );
            }
        }
        Poll::Ready(result)
    }
}

fn text(value: Option<&HeaderValue>) -> Option<&str> {
    value.and_then(|v| v.to_str().ok())
}

/// The access line: to the access log, or for a server error (and a time-out), which monitors
/// alert on, a WARN event with the same fields.
fn log_access(
    access: &Access,
    response: &Response,
    request_id: Option<&HeaderValue>,
    trace_id: Option<&str>,
    error: Option<&ApiError>,
    failed: bool,
) {
    let headers = response.headers();
    let line = access_log::Line {
        method: access.method.as_str(),
        path: access.uri.path(),
        query: access.uri.query(),
        status: response.status().as_u16(),
        bytes: text(headers.get(header::CONTENT_LENGTH)).and_then(|v| v.parse().ok()),
        latency: access.started.elapsed(),
        cache: text(headers.get(X_CACHE)),
        client: access.peer,
        forwarded_for: text(access.forwarded_for.as_ref()),
        user_agent: text(access.user_agent.as_ref()),
        request_id: text(request_id),
        trace_id,
        error: error.map(|e| e as &dyn std::fmt::Display),
    };
    if !failed {
        access_log::write(&line);
        return;
    }
    tracing::warn!(
        target: ACCESS,
        method = line.method,
        path = line.path,
        query = line.query,
        status = line.status,
        bytes = line.bytes,
        latency_ms = line.latency.as_secs_f64() * 1000.0,
        cache = line.cache,
        client = %line.client,
        forwarded_for = line.forwarded_for,
        user_agent = line.user_agent,
        request_id = line.request_id,
        trace_id = line.trace_id,
        error = line.error.map(tracing::field::display),
        "answered with a server error"
    );
}
