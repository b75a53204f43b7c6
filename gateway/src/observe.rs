//! What every request leaves behind: a `request` span (method, path, request id) around its
//! handling, its request id echoed on the answer, one log line with its status and latency (and
//! the error, when the answer is an `ApiError`: the one place errors are logged), and a
//! `portal_requests_total` count. A panic in the service it wraps becomes a 500 envelope here
//! (`envelope::panic_response`) and the process serves on.
//!
//! Written here rather than taken from tower-http's `TraceLayer`, which reads the clock about
//! seven times per request and wraps every response body even when nothing is logged: on a
//! cache hit that was a tenth of the gateway's own work (docs/performance.md). This layer reads
//! the clock only when the log line is wanted and leaves bodies alone. Panics are caught here
//! rather than by tower-http's `CatchPanicLayer` for the same reason: it boxes every response
//! body (and axum's server then boxes it again into its own `Body`), which made a cached hit
//! 5 % dearer (21.2k against 20.2k instructions, `make bench-instructions`); `catch_unwind`
//! costs nothing until something panics.

use std::{
    future::Future,
    panic::{AssertUnwindSafe, catch_unwind},
    pin::Pin,
    task::{Context, Poll},
    time::Instant,
};

use axum::{
    extract::Request,
    http::{self, HeaderName, HeaderValue},
    response::Response,
};
use tower::{Layer, Service};
use tracing::{Level, Span};

use crate::{
    envelope::{ApiError, panic_response},
    metrics,
    security::{self, Hsts},
};

#[derive(Clone, Default)]
pub struct ObserveLayer {
    hsts: Hsts,
}

impl ObserveLayer {
    /// `hsts` is the HSTS setting the layer adds to every response (see `security`).
    pub fn new(hsts: Hsts) -> Self {
        Self { hsts }
    }
}

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe {
            inner,
            hsts: self.hsts.clone(),
        }
    }
}

#[derive(Clone)]
pub struct Observe<S> {
    inner: S,
    hsts: Hsts,
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
        let called = {
            let _entered = span.enter();
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
            request_id,
            started,
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
            if let Some(id) = this.request_id.take() {
                response.headers_mut().entry(REQUEST_ID).or_insert(id);
            }
            security::complete(response.headers_mut(), this.hsts);
            let status = response.status();
            metrics::requests_counter(this.route, status.as_u16()).increment(1);
            let latency_ms = this.started.map(|t| t.elapsed().as_secs_f64() * 1000.0);
            let error = response.extensions().get::<ApiError>();
            if status.is_server_error() || status == http::StatusCode::REQUEST_TIMEOUT {
                tracing::warn!(
                    status = status.as_u16(),
                    latency_ms,
                    error = error.map(tracing::field::display),
                    "answered with a server error"
                );
            } else if let Some(latency_ms) = latency_ms {
                tracing::info!(
                    status = status.as_u16(),
                    latency_ms,
                    error = error.map(tracing::field::display),
                    "answered"
                );
            }
        }
        Poll::Ready(result)
    }
}
