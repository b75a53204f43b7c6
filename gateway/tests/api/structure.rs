//! The gateway's map kept true: every endpoint of the table is routed and documented, every CMS
//! call passes the upstream limits, and a panic answers in the envelope. What each layer may
//! know is kept by the crates themselves and `scripts/check_layers.py` (`make lint`).

use std::time::Duration;

use axum::{Router, routing::get};
use portal_content::limits::ClientLimits;
use portal_core::endpoint::Endpoint;
use portal_web::{config::LimitsConfig, startup};
use serde_json::{Value, json};

use crate::helpers::*;

/// A request that reaches `endpoint`'s handler (required parameters filled).
fn probe_path(endpoint: Endpoint) -> String {
    if endpoint.spec().params.contains(&"id") {
        format!("{}?id=1", endpoint.sample_path())
    } else {
        endpoint.sample_path()
    }
}

#[tokio::test]
async fn every_endpoint_of_the_table_is_routed_to_its_handler() {
    let app = spawn_with_reference_cms().await;
    for endpoint in Endpoint::ALL {
        let (status, body) = app.get_json(&probe_path(endpoint)).await;
        assert_ne!(
            body["msg"], "请求的接口不存在。",
            "{endpoint:?} has no route ({status})"
        );
        assert!(
            status.as_u16() < 500,
            "{endpoint:?} answered {status}: {body}"
        );
    }
}

#[tokio::test]
async fn the_openapi_document_is_served_and_describes_every_endpoint() {
    let app = spawn_with_reference_cms().await;
    let (status, doc) = app.get_json("/portal/api/openapi.json").await;
    assert_eq!(status, 200);
    let paths = doc["paths"].as_object().unwrap();
    let mut operations = std::collections::HashSet::new();
    for endpoint in Endpoint::ALL {
        let relative = endpoint
            .path()
            .strip_prefix(portal_core::endpoint::API_PREFIX)
            .unwrap();
        let key = match endpoint {
            Endpoint::Files => format!("{relative}{{path}}"),
            _ => relative.to_owned(),
        };
        let get = &paths
            .get(&key)
            .unwrap_or_else(|| panic!("no path {key} for {endpoint:?}"))["get"];
        let operation = get["operationId"].as_str().expect("an operationId");
        assert!(operations.insert(operation.to_owned()), "{operation} twice");
        for param in endpoint.spec().params {
            let described = get["parameters"].as_array().is_some_and(|list| {
                list.iter().any(|p| {
                    p["name"] == *param
                        || p["$ref"]
                            .as_str()
                            .is_some_and(|r| r.ends_with(&format!("/{}", capitalised(param))))
                })
            });
            assert!(described, "{endpoint:?}: parameter {param} not described");
        }
        assert!(get["responses"]["200"].is_object(), "{endpoint:?}");
    }
    assert_eq!(
        paths.len(),
        Endpoint::ALL.len(),
        "a path that no endpoint serves"
    );
    // The headers the gateway sets on cached answers are described.
    let headers = doc["components"]["headers"].as_object().unwrap();
    for header in ["X-Cache", "ETag", "Retry-After", "X-Request-Id"] {
        assert!(headers.contains_key(header), "{header}");
    }
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn article(id: u64) -> Value {
    json!({"code": 200, "result": {"id": id, "title": "标题", "content": "<p>正文</p>"}})
}

#[tokio::test]
async fn calls_in_flight_are_capped_and_the_visitor_past_the_cap_is_told_to_retry() {
    let (app, fake) = spawn_with_fake(
        Reply::Delayed(Duration::from_millis(400), article(1)),
        |c| c.limits.upstream_concurrency = 2,
    )
    .await;
    let app = std::sync::Arc::new(app);
    let slow: Vec<_> = [1, 2]
        .into_iter()
        .map(|id| {
            let app = app.clone();
            tokio::spawn(async move {
                app.get_json(&format!("/portal/api/article/detail?id={id}"))
                    .await
            })
        })
        .collect();
    // Both slow calls are at the CMS before the third asks.
    for _ in 0..100 {
        if fake.seen().len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let refused = app.get("/portal/api/article/detail?id=3").await;
    assert_eq!(refused.status(), 503);
    assert_eq!(refused.headers()["retry-after"], "1");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], 503);
    for task in slow {
        assert_eq!(task.await.unwrap().0, 200);
    }
    assert_eq!(
        fake.seen().len(),
        2,
        "the refused call never reached the CMS"
    );
    // The places are free again.
    assert_eq!(app.get_json("/portal/api/article/detail?id=3").await.0, 200);
}

#[tokio::test]
async fn file_downloads_pass_the_ceiling_and_are_timed() {
    let (app, fake) = spawn_with_fake(Reply::Raw(200, "image/png", "PNG 图像字节"), |c| {
        c.limits.upstream_per_second = 1;
        c.limits.upstream_burst = 1;
    })
    .await;
    let first = app.get("/portal/api/files/a.png").await;
    assert_eq!(first.status(), 200);
    assert_eq!(
        first.bytes().await.unwrap().as_ref(),
        "PNG 图像字节".as_bytes()
    );
    let (status, body) = app.get_json("/portal/api/files/b.png").await;
    assert_eq!((status.as_u16(), body["code"].as_i64()), (429, Some(429)));
    assert_eq!(fake.seen().len(), 1);
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics
            .contains("portal_upstream_duration_seconds_bucket{endpoint=\"files\",outcome=\"ok\""),
        "{metrics}"
    );
}

#[tokio::test]
async fn a_panicking_handler_answers_a_500_envelope_and_serving_goes_on() {
    let router = Router::new()
        .route(
            "/portal/api/boom",
            get(|| async {
                panic!("deliberate");
                #[allow(unreachable_code)]
                ""
            }),
        )
        .route("/portal/api/fine", get(|| async { "好" }));
    let app = startup::layers(
        router,
        ClientLimits::new(&LimitsConfig::default()),
        Default::default(),
        Default::default(),
        None,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(portal_web::serve::serve(
        listener,
        app,
        std::time::Duration::from_secs(5),
        Default::default(),
        std::time::Duration::from_secs(5),
        std::future::pending(),
    ));
    let client = crate::helpers::client();
    for _ in 0..2 {
        let boom = client
            .get(format!("http://{addr}/portal/api/boom"))
            .send()
            .await
            .unwrap();
        assert_eq!(boom.status(), 500);
        assert!(boom.headers().contains_key("x-request-id"));
        let body: Value = boom.json().await.unwrap();
        assert_eq!(body["code"], 500);
        assert!(!body.to_string().contains("deliberate"), "{body}");
        let fine = client
            .get(format!("http://{addr}/portal/api/fine"))
            .send()
            .await
            .unwrap();
        assert_eq!(fine.text().await.unwrap(), "好");
    }
}
