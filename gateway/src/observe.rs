//! What every request leaves behind: a `request` span (method, path, request id) around its
//! handling, its request id echoed on the answer, one log line with its status and latency, and
//! a `portal_requests_total` count.
//!
//! Written here rather than taken from tower-http's `TraceLayer`, which reads the clock about
//! seven times per request and wraps every response body even when nothing is logged: on a
//! cache hit that was a tenth of the gateway's own work (docs/performance.md). This layer reads
//! the clock only when the log line is wanted and leaves bodies alone.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
    time::Instant,
};

use axum::{
    extract::Request,
    http::{HeaderName, HeaderValue},
    response::Response,
};
use tower::{Layer, Service};
use tracing::{Level, Span};

use crate::metrics;

#[derive(Clone, Copy, Default)]
pub struct ObserveLayer;

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe { inner }
    }
}

#[derive(Clone)]
pub struct Observe<S> {
    inner: S,
}

impl<S> Observe<S> {
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.inner
    }
}

/// The request id header: set (or kept) on the way in, echoed on the way out, sent to the CMS.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

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
        let span = tracing::info_span!(
            "request",
            method = %request.method(),
            path = %request.uri().path(),
            request_id = request_id
                .as_ref()
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-"),
        );
        let started = tracing::enabled!(Level::INFO).then(Instant::now);
        let inner = {
            let _entered = span.enter();
            self.inner.call(request)
        };
        ObserveFuture {
            inner,
            span,
            route,
            request_id,
            started,
        }
    }
}

pin_project_lite::pin_project! {
    pub struct ObserveFuture<F> {
        #[pin]
        inner: F,
        span: Span,
        route: &'static str,
        request_id: Option<HeaderValue>,
        started: Option<Instant>,
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
        let mut result = std::task::ready!(this.inner.poll(cx));
        if let Ok(response) = &mut result {
            // Echoed here rather than by tower-http's `PropagateRequestId`, which also stores it
            // in every response's extensions: a visible share of a cache hit (performance.md).
            if let Some(id) = this.request_id.take() {
                response.headers_mut().entry(REQUEST_ID).or_insert(id);
            }
            let status = response.status();
            metrics::requests_counter(this.route, status.as_u16()).increment(1);
            let latency_ms = this.started.map(|t| t.elapsed().as_secs_f64() * 1000.0);
            if status.is_server_error() {
                tracing::warn!(
                    status = status.as_u16(),
                    latency_ms,
                    "answered with a server error"
                );
            } else if let Some(latency_ms) = latency_ms {
                tracing::info!(status = status.as_u16(), latency_ms, "answered");
            }
        }
        Poll::Ready(result)
    }
}
