//! Prometheus metrics: requests by route and code, cache outcomes, upstream latency, refusals.

use std::sync::OnceLock;

use axum::{extract::Request, middleware::Next, response::Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process-wide recorder (installed once; every app in a test process shares it).
pub fn handle() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("portal_upstream_duration_seconds".to_owned()),
                    &[
                        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 12.0,
                    ],
                )
                .expect("bucket list is not empty")
                .install_recorder()
                .expect("no other metrics recorder is installed")
        })
        .clone()
}

/// A bounded label for a request path: the API endpoint, or the area of the site.
fn route_label(path: &str) -> &'static str {
    match path {
        "/portal/api/category/list" => "category/list",
        "/portal/api/category/getParentCategory" => "category/getParentCategory",
        "/portal/api/article/list" => "article/list",
        "/portal/api/article/detail" => "article/detail",
        "/portal/api/site" => "site",
        "/healthz" => "healthz",
        "/readyz" => "readyz",
        "/metrics" => "metrics",
        p if p.starts_with("/portal/api/files/") => "files",
        p if p.starts_with("/portal/api") => "api-other",
        p if p.starts_with("/portal/admin") => "admin",
        p if p.starts_with("/portal") => "static",
        _ => "other",
    }
}

pub async fn track(request: Request, next: Next) -> Response {
    let route = route_label(request.uri().path());
    let response = next.run(request).await;
    let status = response.status();
    // A static label for the usual codes keeps the hot path free of allocation.
    let code: std::borrow::Cow<'static, str> = match status.as_u16() {
        200 => "200".into(),
        304 => "304".into(),
        400 => "400".into(),
        404 => "404".into(),
        429 => "429".into(),
        502 => "502".into(),
        other => other.to_string().into(),
    };
    metrics::counter!("portal_requests_total", "route" => route, "code" => code).increment(1);
    response
}

pub async fn render() -> String {
    handle().render()
}
