//! The gateway's map kept true: every endpoint of the table is routed and documented, every CMS
//! call passes the upstream limits, a panic answers in the envelope, and the invariants of
//! docs/ARCHITECTURE.md that a grep can check.

use std::{path::Path, time::Duration};

use axum::{Router, routing::get};
use portal_content::limits::ClientLimits;
use portal_core::endpoint::Endpoint;
use portal_gateway::{config::LimitsConfig, startup};
use serde_json::{Value, json};

use crate::helpers::*;

fn src_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))
}

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
        "[limits]\nupstream_concurrency = 2\n",
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
    let (app, fake) = spawn_with_fake(
        Reply::Raw(200, "image/png", "PNG 图像字节"),
        "[limits]\nupstream_per_second = 1\nupstream_burst = 1\n",
    )
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
    tokio::spawn(portal_gateway::serve::serve(
        listener,
        app,
        std::time::Duration::from_secs(5),
        Default::default(),
        std::time::Duration::from_secs(5),
        std::future::pending(),
    ));
    let client = reqwest::Client::new();
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

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Architecture invariants that a look at the source can check.
#[test]
fn only_upstream_talks_to_the_cms_and_only_envelope_shapes_answers() {
    let mut files = Vec::new();
    rust_files(src_dir(), &mut files);
    assert!(files.len() > 10);
    for file in files {
        let relative = file
            .strip_prefix(src_dir())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        // cli/ is the operator's client of a gateway's admin API: it names reqwest, and nothing
        // that reaches the CMS (no upstream config, no CMS adapter).
        if relative.starts_with("cli/") {
            for word in ["crate::cms", "upstream", "base_url"] {
                assert!(
                    !text.contains(word),
                    "{relative} names {word}: cli/ talks to a gateway only"
                );
            }
        } else if !relative.starts_with("cms/") {
            assert!(
                !text.contains("reqwest"),
                "{relative} names reqwest: only cms/ talks to the CMS"
            );
        }
        // cms/ reads the CMS's envelopes (and its tests write some); it shapes none.
        if relative != "envelope.rs" && !relative.starts_with("cms/") {
            assert!(
                !text.contains("\"成功\"") && !text.contains("\"code\":"),
                "{relative} shapes an envelope: only envelope.rs does"
            );
        }
    }
}

/// The source of each file under `src/` (tests and their fixtures left out: they may build
/// whatever they check), by its path relative to `src/`.
fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(src_dir(), &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file
                .strip_prefix(src_dir())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (relative, std::fs::read_to_string(&file).unwrap())
        })
        .filter(|(relative, _)| {
            !relative.ends_with("tests.rs")
                && !relative.contains("/tests/")
                && !relative.ends_with("shapes.rs")
        })
        .collect()
}

/// JavaScript runs in `render/` only, on its own threads: no other module names the engine, and
/// `render/` hands no work to tokio's threads and knows nothing of HTTP or content
/// (docs/ARCHITECTURE.md, `render/`).
#[test]
fn only_render_runs_javascript_and_it_knows_nothing_of_requests() {
    let mut checked = 0;
    for (relative, text) in sources() {
        if !relative.starts_with("render/") {
            assert!(
                !text.contains("rquickjs"),
                "{relative} names rquickjs: only render/ runs JavaScript"
            );
            continue;
        }
        checked += 1;
        for word in [
            "spawn_blocking",
            "block_in_place",
            "block_on",
            "axum",
            "hyper",
            "crate::content",
            "crate::cms",
            "crate::cache",
            "crate::state",
        ] {
            assert!(
                !text.contains(word),
                "{relative} names {word}: render/ runs scripts on its own threads and answers values"
            );
        }
    }
    assert!(checked >= 3, "render/ was not found");
}

/// The layers of content, each kept to what it may know (docs/ARCHITECTURE.md): the model knows
/// nothing else of the crate; the CMS adapter knows nothing of the envelope, the cache or the
/// faces; a face never calls the CMS adapter; nothing reads back a body the gateway made.
#[test]
fn each_content_layer_knows_only_what_is_below_it() {
    let faces = [
        "api/",
        "crawl/",
        "pages/",
        "admin/",
        "webhook.rs",
        "cli/",
        "search/",
    ];
    let mut checked = 0;
    for (relative, text) in sources() {
        if relative.starts_with("model/") {
            checked += 1;
            assert!(
                !text.contains("crate::") && !text.contains("super::super"),
                "{relative}: the model imports nothing else of the crate"
            );
        }
        if relative.starts_with("cms/") {
            checked += 1;
            for word in [
                "crate::envelope",
                "ApiError",
                "success_bytes",
                "crate::api",
                "crate::content",
                "crate::crawl",
                "crate::pages",
                "crate::render",
                "crate::cache",
                "crate::state",
            ] {
                assert!(
                    !text.contains(word),
                    "{relative} names {word}: the CMS adapter knows nothing of the envelope, the cache or the faces"
                );
            }
        }
        if faces.iter().any(|f| relative.starts_with(f)) {
            checked += 1;
            for word in ["crate::cms", ".upstream", "dialect()", "get_json"] {
                assert!(
                    !text.contains(word),
                    "{relative} names {word}: a face asks the content service, never the CMS adapter"
                );
            }
        }
        assert!(
            !text.contains("body::to_bytes") && !text.contains("result_of"),
            "{relative} reads a response body back: faces render typed values (content::ContentService)"
        );
    }
    assert!(checked > 15, "the layers were found ({checked} files)");
}
