//! OpenTelemetry traces, off unless `[telemetry]` or the standard `OTEL_*` variables turn them
//! on: one server span per request (`observe`), a client span per CMS call (`cms`) and per
//! shared-tier look-up (`cache`), exported over OTLP/HTTP (protobuf) by the SDK's batch thread.
//! The caller's W3C `traceparent`/`tracestate` is honoured and every CMS call carries ours, so
//! the CMS's own traces join the gateway's.
//!
//! Off, nothing here runs on a request: `observe` holds an `Option<Traces>` and does no span
//! work when it is `None` (the reason tower-http's `TraceLayer` is not used, `observe`).
//! `make bench-instructions`, cached hit: off 24.8k instructions, as before traces existed; on at
//! 1 % sampling 27.2k (an unsampled request gets no name, attributes or child spans: 31.1k
//! when it did); at 100 % 42.5k, most of the difference the export (docs/performance.md).
//!
//! The OpenTelemetry API is used directly rather than through `tracing-opentelemetry`: every
//! `tracing` span would then pass the fmt layer too (the JSON log formats a span's fields for
//! every line), the `debug`-only `request` span would have to be made for every request, and
//! the layer would sit in the process-wide subscriber, which tests share and install once. Here
//! the tracer belongs to the app (`AppState`): each test's app exports to its own receiver, and
//! nothing global is touched but the W3C propagator, which is the same for every app.
//!
//! The request's span travels in the OpenTelemetry `Context`, with this app's `Traces` beside it
//! (`Context::with_value`): `observe` attaches it while the request's future is polled, `carry`
//! takes it into the cache's load tasks, and `cms`/`cache` start their child spans from it, so
//! no signature below the observe layer names a span or a tracer. With traces off the context
//! holds no `Traces` and those calls return `None` at once (and run on misses only).

use std::{borrow::Cow, time::Duration};

use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use opentelemetry::{
    KeyValue, global,
    propagation::{Extractor, Injector},
    trace::{Span as _, SpanKind, Status, TraceContextExt, Tracer as _},
};
use opentelemetry_otlp::{SpanExporter, WithExportConfig};
use opentelemetry_sdk::{
    Resource,
    propagation::TraceContextPropagator,
    trace::{Sampler, SdkTracer, SdkTracerProvider},
};
use serde::Deserialize;
use url::Url;

/// `[telemetry]`: traces over OTLP (HTTP/protobuf). The standard `OTEL_*` variables, when set,
/// win over these keys, as the OpenTelemetry SDKs have it (`traces::Settings::resolve`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetryConfig {
    /// The collector's OTLP/HTTP base URL (`http://127.0.0.1:4318`); spans go to its
    /// `/v1/traces`. Unset (and no `OTEL_EXPORTER_OTLP_*ENDPOINT`): no traces, no cost.
    pub otlp_endpoint: Option<Url>,
    /// The share of traces started here that are kept (0 to 1); a caller's sampled flag is
    /// followed either way (parent-based).
    pub sample_ratio: f64,
    /// `service.name` of the spans (`OTEL_SERVICE_NAME` wins).
    pub service_name: String,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        Self {
            otlp_endpoint: None,
            sample_ratio: 1.0,
            service_name: "portal-gateway".to_owned(),
        }
    }
}

/// The context a request's span travels in (`observe` attaches it while the request is polled).
pub use opentelemetry::Context;

/// The cache outcome attribute of a request span (`X-Cache`: HIT, MISS, STALE, …).
pub const CACHE_RESULT: &str = "portal.cache.result";

/// What turns traces on and how, from `[telemetry]` under the standard variables.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The `/v1/traces` URL from `telemetry.otlp_endpoint`; `None` when an `OTEL_EXPORTER_OTLP_*`
    /// variable names it (the exporter reads those itself).
    pub endpoint: Option<String>,
    /// Parent-based, trace-id ratio; `None` when `OTEL_TRACES_SAMPLER` chooses (the SDK reads it).
    pub sample_ratio: Option<f64>,
    /// `service.name`; `None` when `OTEL_SERVICE_NAME` names it (the SDK reads it).
    pub service_name: Option<String>,
}

impl Settings {
    /// `None` (off) unless an endpoint is configured or an OTLP endpoint variable is set, and
    /// always off with `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. The variables
    /// win over the file, as in every OpenTelemetry SDK. `env` reads a variable (tests pass
    /// their own).
    pub fn resolve(config: &TelemetryConfig, env: impl Fn(&str) -> Option<String>) -> Option<Self> {
        let var = |name: &str| {
            env(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        if var("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
            || var("OTEL_TRACES_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none"))
        {
            return None;
        }
        let from_env = var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_some()
            || var("OTEL_EXPORTER_OTLP_ENDPOINT").is_some();
        let endpoint = match (&config.otlp_endpoint, from_env) {
            (_, true) => None,
            (Some(base), false) => Some(traces_url(base)),
            (None, false) => return None,
        };
        Some(Self {
            endpoint,
            sample_ratio: var("OTEL_TRACES_SAMPLER")
                .is_none()
                .then_some(config.sample_ratio),
            service_name: var("OTEL_SERVICE_NAME")
                .is_none()
                .then(|| config.service_name.clone()),
        })
    }
}

/// `base` + `v1/traces`, as OTLP/HTTP derives a signal's URL from `OTEL_EXPORTER_OTLP_ENDPOINT`.
fn traces_url(base: &Url) -> String {
    let base = base.as_str();
    format!("{}/v1/traces", base.trim_end_matches('/'))
}

/// Traces could not be set up (a bad `OTEL_EXPORTER_OTLP_*` value, a client that failed).
#[derive(Debug, thiserror::Error)]
#[error("traces (telemetry, OTEL_*): {0}")]
pub struct TracesError(String);

/// This app's tracer and its provider (which owns the export thread). Cloned into each
/// request's context; one reference count.
#[derive(Clone, Debug)]
pub struct Traces {
    tracer: SdkTracer,
    provider: SdkTracerProvider,
}

impl Traces {
    /// The app's traces, or `None` when they are off (`Settings::resolve` over the process's
    /// environment).
    pub fn from_config(config: &TelemetryConfig) -> Result<Option<Self>, TracesError> {
        Settings::resolve(config, |name| std::env::var(name).ok())
            .map(|settings| Self::new(&settings))
            .transpose()
    }

    pub fn new(settings: &Settings) -> Result<Self, TracesError> {
        // The exporter builds its own HTTP client.
        crate::tls::install();
        let mut exporter = SpanExporter::builder()
            .with_http()
            .with_protocol(opentelemetry_otlp::Protocol::HttpBinary);
        if let Some(endpoint) = &settings.endpoint {
            exporter = exporter.with_endpoint(endpoint);
        }
        let exporter = exporter.build().map_err(|e| TracesError(e.to_string()))?;
        let mut resource = Resource::builder();
        if let Some(name) = &settings.service_name {
            resource = resource.with_service_name(name.clone());
        }
        let mut provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource.build());
        if let Some(ratio) = settings.sample_ratio {
            provider = provider.with_sampler(Sampler::ParentBased(Box::new(
                Sampler::TraceIdRatioBased(ratio),
            )));
        }
        let provider = provider.build();
        // Not the endpoint: its URL may carry a collector's credential.
        match settings.sample_ratio {
            Some(ratio) => tracing::info!(sample_ratio = ratio, "traces are on (OTLP over HTTP)"),
            None => tracing::info!(
                sampler = "OTEL_TRACES_SAMPLER",
                "traces are on (OTLP over HTTP)"
            ),
        }
        // W3C trace context (`traceparent`, `tracestate`) in and out; the same for every app of
        // the process, so setting it again (tests) changes nothing.
        global::set_text_map_propagator(TraceContextPropagator::new());
        Ok(Self {
            tracer: opentelemetry::trace::TracerProvider::tracer(&provider, "portal-gateway"),
            provider,
        })
    }

    /// Exports what has ended and waits for it: blocks, so call it off the async workers
    /// (`spawn_blocking`). Tests use it to make the export deterministic.
    pub fn force_flush(&self) {
        if let Err(err) = self.provider.force_flush() {
            tracing::warn!(error = %err, "traces: flushing spans failed");
        }
    }

    /// Exports what is left and stops the export thread (graceful shutdown). Blocks.
    pub fn shutdown(&self) {
        if let Err(err) = self.provider.shutdown_with_timeout(Duration::from_secs(5)) {
            tracing::warn!(error = %err, "traces: the last spans could not be exported");
        }
    }

    /// The request's server span, child of the caller's `traceparent` when it sent one. When
    /// it is sampled, its context also holds this app's `Traces`, from which the spans below it
    /// start; when it is not, only its ids travel (to the CMS, marked not sampled).
    ///
    /// The name, attributes and `Traces` are added only to a sampled span: at a 1 % ratio most
    /// requests pay for the sampling decision and the ids alone (docs/performance.md).
    pub fn start_request(
        &self,
        method: &Method,
        path: &str,
        route: &'static str,
        headers: &HeaderMap,
        request_id: Option<&HeaderValue>,
    ) -> Context {
        // Most requests come without a caller's trace: no propagator to ask then.
        let parent = if headers.contains_key(TRACEPARENT) {
            global::get_text_map_propagator(|p| p.extract(&Headers(headers)))
        } else {
            Context::new()
        };
        let mut span = self
            .tracer
            .span_builder(route)
            .with_kind(SpanKind::Server)
            .start_with_context(&self.tracer, &parent);
        if !span.is_recording() {
            return parent.with_span(span);
        }
        span.update_name(format!("{} {route}", method.as_str()));
        span.set_attributes([
            KeyValue::new("http.request.method", method.as_str().to_owned()),
            KeyValue::new("http.route", route),
            KeyValue::new("url.path", path.to_owned()),
        ]);
        if let Some(id) = request_id.and_then(|v| v.to_str().ok()) {
            span.set_attribute(KeyValue::new("portal.request_id", id.to_owned()));
        }
        parent.with_span(span).with_value(self.clone())
    }
}

/// Ends the request's span with its status and cache outcome (the `X-Cache` header).
pub fn finish_request(cx: &Context, status: StatusCode, cache: Option<&str>) {
    let span = cx.span();
    if !span.is_recording() {
        return;
    }
    span.set_attribute(KeyValue::new(
        "http.response.status_code",
        i64::from(status.as_u16()),
    ));
    if let Some(cache) = cache {
        span.set_attribute(KeyValue::new(CACHE_RESULT, cache.to_owned()));
    }
    if status.is_server_error() {
        span.set_attribute(KeyValue::new("error.type", status.as_str().to_owned()));
        span.set_status(Status::error(""));
    }
    span.end();
}

/// A trace id as 32 hex digits, written without the formatting machinery (access lines).
pub struct TraceIdText([u8; 32]);

impl TraceIdText {
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or("")
    }
}

/// The request span's trace id, for the access line (sampled or not: the CMS got it either way).
pub fn trace_id(cx: &Context) -> Option<TraceIdText> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let span = cx.span();
    let context = span.span_context();
    if !context.is_valid() {
        return None;
    }
    let mut text = [b'0'; 32];
    for (i, byte) in context.trace_id().to_bytes().iter().enumerate() {
        text[2 * i] = HEX[usize::from(byte >> 4)];
        text[2 * i + 1] = HEX[usize::from(byte & 0xf)];
    }
    Some(TraceIdText(text))
}

/// A span below the current request's, ended when dropped; `None` with traces off. Below a
/// request that is not sampled it is that request's context alone (nothing recorded, nothing
/// ended), which still tells the CMS the trace and that it is not sampled.
pub struct ChildSpan {
    cx: Context,
    /// Whether this is a span of its own, which ends with it.
    own: bool,
}

impl ChildSpan {
    fn start(name: &'static str, attributes: Vec<KeyValue>) -> Option<Self> {
        let current = Context::current();
        let Some(traces) = current.get::<Traces>() else {
            return current.has_active_span().then_some(Self {
                cx: current,
                own: false,
            });
        };
        let span = traces
            .tracer
            .span_builder(name)
            .with_kind(SpanKind::Client)
            .with_attributes(attributes)
            .start_with_context(&traces.tracer, &current);
        Some(Self {
            cx: current.with_span(span),
            own: true,
        })
    }

    /// A CMS call: method, server, and the dialect's path on it. Only the path: the query may
    /// hold the credential (`upstream.auth = "query"`), and the credential's header is never
    /// read here.
    pub fn cms_call(url: &Url, endpoint: &'static str) -> Option<Self> {
        let mut attributes = vec![
            KeyValue::new("http.request.method", "GET"),
            KeyValue::new("server.address", url.host_str().unwrap_or("").to_owned()),
            KeyValue::new("url.path", url.path().to_owned()),
            KeyValue::new("portal.cms.endpoint", endpoint),
        ];
        if let Some(port) = url.port_or_known_default() {
            attributes.push(KeyValue::new("server.port", i64::from(port)));
        }
        Self::start("GET", attributes)
    }

    /// A look-up in the shared tier (Redis).
    pub fn shared_lookup() -> Option<Self> {
        Self::start(
            "cache.shared lookup",
            vec![
                KeyValue::new("db.system.name", "redis"),
                KeyValue::new("db.operation.name", "HGETALL"),
            ],
        )
    }

    /// The W3C headers that make the callee's spans children of this one.
    pub fn propagation_headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        global::get_text_map_propagator(|p| {
            p.inject_context(&self.cx, &mut HeadersMut(&mut headers))
        });
        headers
    }

    pub fn set(&self, key: &'static str, value: impl Into<opentelemetry::Value>) {
        if self.own {
            self.cx.span().set_attribute(KeyValue::new(key, value));
        }
    }

    /// The callee's answer status; a 5xx marks the span failed.
    pub fn answered(&self, status: StatusCode) {
        self.set("http.response.status_code", i64::from(status.as_u16()));
        if status.is_server_error() {
            self.failed(Cow::Owned(status.as_str().to_owned()));
        }
    }

    /// What went wrong, as a fixed kind (never a message, which may quote a URL).
    pub fn failed(&self, kind: Cow<'static, str>) {
        if !self.own {
            return;
        }
        let span = self.cx.span();
        span.set_attribute(KeyValue::new("error.type", kind));
        span.set_status(Status::error(""));
    }
}

impl Drop for ChildSpan {
    fn drop(&mut self) {
        if self.own {
            self.cx.span().end();
        }
    }
}

/// `future`, run with the current request's context when there is one: for the tasks a request
/// spawns (the cache's loads), whose CMS calls belong to its trace. With traces off, `future`.
pub fn carry<F: Future>(
    future: F,
) -> futures_util::future::Either<opentelemetry::context::WithContext<F>, F> {
    use opentelemetry::context::FutureExt;
    let current = Context::current();
    if current.has_active_span() {
        futures_util::future::Either::Left(future.with_context(current))
    } else {
        futures_util::future::Either::Right(future)
    }
}

const TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");
const TRACESTATE: HeaderName = HeaderName::from_static("tracestate");

struct Headers<'a>(&'a HeaderMap);

impl Extractor for Headers<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        // The propagator's two names as constants: a `&str` key is parsed into a header name
        // at every look-up.
        match key {
            "traceparent" => self.0.get(TRACEPARENT),
            "tracestate" => self.0.get(TRACESTATE),
            other => self.0.get(other),
        }
        .and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(HeaderName::as_str).collect()
    }
}

struct HeadersMut<'a>(&'a mut HeaderMap);

impl Injector for HeadersMut<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(key.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            self.0.insert(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&str, &str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    fn configured(endpoint: Option<&str>) -> TelemetryConfig {
        TelemetryConfig {
            otlp_endpoint: endpoint.map(|e| e.parse().expect("a test URL")),
            sample_ratio: 0.25,
            ..TelemetryConfig::default()
        }
    }

    #[test]
    fn off_unless_an_endpoint_is_named_in_the_file_or_the_environment() {
        assert_eq!(Settings::resolve(&configured(None), env(&[])), None);
        let on = Settings::resolve(&configured(Some("http://otel:4318/")), env(&[]))
            .expect("on by the file");
        assert_eq!(on.endpoint.as_deref(), Some("http://otel:4318/v1/traces"));
        assert_eq!(on.sample_ratio, Some(0.25));
        assert_eq!(on.service_name.as_deref(), Some("portal-gateway"));
        for var in [
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        ] {
            let on = Settings::resolve(&configured(None), env(&[(var, "http://c:4318")]))
                .expect("on by the variable alone");
            // The exporter reads the variable itself (and it wins over the file).
            assert_eq!(on.endpoint, None);
        }
        assert_eq!(
            Settings::resolve(
                &configured(None),
                env(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "  ")])
            ),
            None
        );
    }

    #[test]
    fn the_standard_variables_win_and_can_turn_traces_off() {
        let file = configured(Some("http://otel:4318"));
        for off in [
            ("OTEL_SDK_DISABLED", "true"),
            ("OTEL_TRACES_EXPORTER", "none"),
        ] {
            assert_eq!(Settings::resolve(&file, env(&[off])), None);
        }
        let on = Settings::resolve(
            &file,
            env(&[
                ("OTEL_TRACES_SAMPLER", "always_on"),
                ("OTEL_SERVICE_NAME", "edge"),
                ("OTEL_SDK_DISABLED", "false"),
            ]),
        )
        .expect("on");
        assert_eq!(on.sample_ratio, None, "the SDK reads OTEL_TRACES_SAMPLER");
        assert_eq!(on.service_name, None, "the SDK reads OTEL_SERVICE_NAME");
    }
}
