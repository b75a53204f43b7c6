//! Traces against a real OTLP receiver on loopback: what the gateway exports over OTLP/HTTP
//! (protobuf), decoded with `opentelemetry-proto`, and the `traceparent` the CMS receives.
//!
//! Each app holds its own tracer (`traces.rs`), so these tests run beside the others without a
//! process-wide subscriber; the export is made deterministic by flushing the app's provider
//! (`Traces::force_flush`, off the runtime's thread, which the receiver needs to answer).

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{Router, body::Bytes, extract::State, http::StatusCode, routing::post};
use opentelemetry_proto::tonic::{
    collector::trace::v1::ExportTraceServiceRequest,
    common::v1::{AnyValue, KeyValue, any_value::Value as Any},
    trace::v1::{Span, span::SpanKind},
};
use portal_web::state::AppState;
use prost::Message;
use serde_json::json;
use tokio::net::TcpListener;

use crate::helpers::{
    CLIENT_SECRET, Config, FakeUpstream, Reply, TestApp, config_for, spawn_app_with_state,
    spawn_with_fake, static_dir,
};

/// Every span the receiver was sent, with its resource's `service.name`.
#[derive(Clone, Default)]
struct Receiver {
    spans: Arc<Mutex<Vec<(String, Span)>>>,
}

impl Receiver {
    async fn start() -> (Self, SocketAddr) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let receiver = Self::default();
        let app = Router::new()
            .route("/v1/traces", post(export))
            .with_state(receiver.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        (receiver, addr)
    }

    fn spans(&self) -> Vec<(String, Span)> {
        self.spans.lock().unwrap().clone()
    }
}

async fn export(State(receiver): State<Receiver>, body: Bytes) -> (StatusCode, Vec<u8>) {
    let Ok(request) = ExportTraceServiceRequest::decode(body) else {
        return (StatusCode::BAD_REQUEST, Vec::new());
    };
    let mut spans = receiver.spans.lock().unwrap();
    for resource in request.resource_spans {
        let service = resource
            .resource
            .as_ref()
            .and_then(|r| string(&r.attributes, "service.name"))
            .unwrap_or_default();
        for scope in resource.scope_spans {
            spans.extend(scope.spans.into_iter().map(|s| (service.clone(), s)));
        }
    }
    // An empty ExportTraceServiceResponse: full success.
    (StatusCode::OK, Vec::new())
}

fn value<'a>(attributes: &'a [KeyValue], key: &str) -> Option<&'a Any> {
    attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| kv.value.as_ref())
        .and_then(|AnyValue { value }| value.as_ref())
}

fn string(attributes: &[KeyValue], key: &str) -> Option<String> {
    match value(attributes, key) {
        Some(Any::StringValue(s)) => Some(s.clone()),
        _ => None,
    }
}

fn int(attributes: &[KeyValue], key: &str) -> Option<i64> {
    match value(attributes, key) {
        Some(Any::IntValue(n)) => Some(*n),
        _ => None,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn tree() -> serde_json::Value {
    json!({"code": 200, "result": {"content": [{"id": 1, "parentId": 0, "name": "关于我们", "url": "/about", "sort": 1}]}})
}

/// A gateway with traces on, exporting to `collector`, in front of a fake CMS.
async fn traced(
    collector: SocketAddr,
    change: impl FnOnce(&mut Config),
) -> (TestApp, AppState, FakeUpstream) {
    let fake = FakeUpstream::start(Reply::Json(200, tree())).await;
    let config = config_for(&fake.base_url(), &static_dir(), |c| {
        change(c);
        c.telemetry.otlp_endpoint = Some(format!("http://{collector}").parse().unwrap());
        c.telemetry.service_name = "portal-gateway-test".to_owned();
    });
    let (app, state) = spawn_app_with_state(config).await;
    assert!(state.traces.is_some(), "[telemetry] turns traces on");
    (app, state, fake)
}

/// Exports every ended span now and waits for the receiver's answer.
async fn flush(state: &AppState) {
    let traces = state.traces.clone().expect("traces are on");
    tokio::task::spawn_blocking(move || traces.force_flush())
        .await
        .unwrap();
}

fn server_spans(spans: &[(String, Span)]) -> Vec<&Span> {
    spans
        .iter()
        .map(|(_, s)| s)
        .filter(|s| s.kind == SpanKind::Server as i32)
        .collect()
}

fn client_spans(spans: &[(String, Span)]) -> Vec<&Span> {
    spans
        .iter()
        .map(|(_, s)| s)
        .filter(|s| s.kind == SpanKind::Client as i32)
        .collect()
}

#[tokio::test]
async fn a_request_and_its_cms_call_are_one_trace_which_the_cms_joins() {
    let (receiver, collector) = Receiver::start().await;
    let (app, state, fake) = traced(collector, |_| {}).await;

    let miss = app.get("/portal/api/category/list").await;
    assert_eq!(miss.status(), 200);
    assert_eq!(miss.headers()["x-cache"], "MISS");
    let hit = app.get("/portal/api/category/list").await;
    assert_eq!(hit.headers()["x-cache"], "HIT");
    flush(&state).await;

    let spans = receiver.spans();
    assert!(
        spans
            .iter()
            .all(|(service, _)| service == "portal-gateway-test"),
        "service.name from [telemetry]"
    );
    let servers = server_spans(&spans);
    assert_eq!(servers.len(), 2, "one server span per request: {spans:#?}");
    let request = servers
        .iter()
        .find(|s| string(&s.attributes, "portal.cache.result").as_deref() == Some("MISS"))
        .expect("the miss's span");
    assert_eq!(
        string(&request.attributes, "http.request.method").as_deref(),
        Some("GET")
    );
    assert_eq!(
        string(&request.attributes, "url.path").as_deref(),
        Some("/portal/api/category/list")
    );
    assert!(string(&request.attributes, "http.route").is_some());
    assert_eq!(
        int(&request.attributes, "http.response.status_code"),
        Some(200)
    );
    assert!(
        request.parent_span_id.is_empty(),
        "a root: no traceparent came"
    );

    // The CMS call: a child of the request's span, in its trace.
    let calls = client_spans(&spans);
    assert_eq!(
        calls.len(),
        1,
        "one CMS call, for the miss only: {calls:#?}"
    );
    let call = calls[0];
    assert_eq!(call.trace_id, request.trace_id);
    assert_eq!(call.parent_span_id, request.span_id);
    assert_eq!(
        string(&call.attributes, "http.request.method").as_deref(),
        Some("GET")
    );
    assert_eq!(
        string(&call.attributes, "server.address").as_deref(),
        Some("127.0.0.1")
    );
    let upstream_path = string(&call.attributes, "url.path").expect("the CMS path");
    assert!(
        upstream_path.starts_with("/cms/") && !upstream_path.contains('?'),
        "{upstream_path}"
    );
    assert_eq!(
        int(&call.attributes, "http.response.status_code"),
        Some(200)
    );

    // The CMS received the call's own context, so its spans join this trace under the call.
    let sent = fake.last();
    let traceparent = sent.headers["traceparent"].to_str().unwrap();
    assert_eq!(
        traceparent,
        format!("00-{}-{}-01", hex(&call.trace_id), hex(&call.span_id))
    );

    // No credential in any span.
    let exported = format!("{spans:?}");
    assert!(!exported.contains(CLIENT_SECRET));
    assert!(!exported.contains("Basic "));
    assert!(!exported.to_lowercase().contains("authorization"));
}

#[tokio::test]
async fn an_incoming_traceparent_makes_the_request_its_child_and_reaches_the_cms() {
    let (receiver, collector) = Receiver::start().await;
    let (app, state, fake) = traced(collector, |_| {}).await;
    let caller_trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let caller_span = "00f067aa0ba902b7";
    let answer = app
        .client
        .get(app.url("/portal/api/category/list"))
        .header("traceparent", format!("00-{caller_trace}-{caller_span}-01"))
        .header("tracestate", "vendor=abc")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    flush(&state).await;

    let spans = receiver.spans();
    let servers = server_spans(&spans);
    assert_eq!(servers.len(), 1);
    assert_eq!(hex(&servers[0].trace_id), caller_trace);
    assert_eq!(hex(&servers[0].parent_span_id), caller_span);
    let sent = fake.last();
    let traceparent = sent.headers["traceparent"].to_str().unwrap();
    assert!(
        traceparent.starts_with(&format!("00-{caller_trace}-")),
        "{traceparent}"
    );
    assert_eq!(sent.headers["tracestate"], "vendor=abc");
}

#[tokio::test]
async fn the_sample_ratio_drops_what_starts_here_and_the_cms_is_told_so() {
    let (receiver, collector) = Receiver::start().await;
    let fake = FakeUpstream::start(Reply::Json(200, tree())).await;
    let config = config_for(&fake.base_url(), &static_dir(), |c| {
        c.telemetry.otlp_endpoint = Some(format!("http://{collector}").parse().unwrap());
        c.telemetry.sample_ratio = 0.0;
    });
    let (app, state) = spawn_app_with_state(config).await;
    assert_eq!(app.get("/portal/api/category/list").await.status(), 200);
    flush(&state).await;
    assert!(receiver.spans().is_empty(), "nothing sampled");
    // Still propagated, marked not sampled, so the CMS keeps nothing of it either.
    let traceparent = fake.last().headers["traceparent"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(traceparent.ends_with("-00"), "{traceparent}");
}

#[tokio::test]
async fn with_traces_off_the_cms_receives_no_traceparent() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, tree()), |_| {}).await;
    let answer = app
        .client
        .get(app.url("/portal/api/category/list"))
        .header(
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let sent = fake.last();
    assert!(sent.headers.get("traceparent").is_none());
    assert!(sent.headers.get("tracestate").is_none());
}

/// The hit path's promise, as far as a test can see it (the instructions are counted by `make
/// bench-instructions`): with traces off the observe layer makes no span and attaches no
/// context, so nothing below it (the cache, the CMS adapter) finds a trace to work for.
#[tokio::test]
async fn with_traces_off_a_request_is_handled_without_a_trace_context() {
    use axum::routing::get;
    use opentelemetry::trace::TraceContextExt;
    use portal_content::limits::ClientLimits;
    use portal_web::{config::LimitsConfig, startup};

    let router = Router::new().route(
        "/portal/api/probe",
        get(|| async {
            if opentelemetry::Context::current().has_active_span() {
                "traced"
            } else {
                "untraced"
            }
        }),
    );
    let app = startup::layers(
        router,
        ClientLimits::new(&LimitsConfig::default()),
        Default::default(),
        Default::default(),
        None,
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(portal_web::serve::serve(
        listener,
        app,
        std::time::Duration::from_secs(5),
        Default::default(),
        std::time::Duration::from_secs(5),
        std::future::pending(),
    ));
    let answer = crate::helpers::client()
        .get(format!("http://{addr}/portal/api/probe"))
        .header(
            "traceparent",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(answer.text().await.unwrap(), "untraced");
}

#[tokio::test]
async fn a_shared_tier_look_up_is_a_span_of_the_request() {
    let redis = crate::replicas::Redis::start();
    let (receiver, collector) = Receiver::start().await;
    let (app, state, _fake) = traced(collector, |c| {
        let shared = &mut c.cache.shared;
        shared.url = Some(redis.url().into());
        shared.timeout = Duration::from_millis(200);
        shared.prefix = "traces:".to_owned();
    })
    .await;
    crate::replicas::wait_for_shared(&app, "up").await;
    assert_eq!(app.get("/portal/api/category/list").await.status(), 200);
    flush(&state).await;

    let spans = receiver.spans();
    let request = server_spans(&spans)
        .into_iter()
        .find(|s| string(&s.attributes, "url.path").as_deref() == Some("/portal/api/category/list"))
        .expect("the request's span");
    let lookup = spans
        .iter()
        .map(|(_, s)| s)
        .find(|s| s.name == "cache.shared lookup")
        .expect("the shared tier's span");
    assert_eq!(lookup.parent_span_id, request.span_id);
    assert_eq!(
        string(&lookup.attributes, "db.system.name").as_deref(),
        Some("redis")
    );
    assert_eq!(
        string(&lookup.attributes, "portal.cache.result").as_deref(),
        Some("miss")
    );
    assert!(
        !format!("{spans:?}").contains(&redis.url()),
        "no Redis URL in a span"
    );
}
