//! The browser's policy on every response, HSTS when configured, and source maps kept from the
//! public unless configured.

use crate::helpers::*;

/// What every answer carries.
const FIXED: [&str; 2] = ["content-security-policy", "x-content-type-options"];
/// What a document (an HTML page) carries besides: policies that act only on a document, left
/// off every other answer.
const DOCUMENT_ONLY: [&str; 3] = [
    "referrer-policy",
    "permissions-policy",
    "cross-origin-opener-policy",
];

#[tokio::test]
async fn every_kind_of_response_carries_the_policy() {
    let app = spawn_with_reference_cms().await;
    // A miss, then the same answer from the cache, its 304, an error envelope, the app, an
    // asset, a CMS file, health and metrics.
    let paths = [
        "/portal/api/category/list",
        "/portal/api/category/list",
        "/portal/api/nothing-here",
        "/portal/api/article/list?page=0",
        "/portal/",
        "/portal/assets/main.0123456789abcdef.js",
        "/portal/api/files/covers/train.svg",
        "/portal/api/site",
        "/healthz",
        "/metrics",
        "/portal/no-such-route",
    ];
    for path in paths {
        let response = app.get(path).await;
        for name in FIXED {
            assert!(response.headers().contains_key(name), "{path}: no {name}");
        }
        let document = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html");
        for name in DOCUMENT_ONLY {
            assert_eq!(
                response.headers().contains_key(name),
                document,
                "{path}: {name} (a document: {document})"
            );
        }
        let csp = response.headers()["content-security-policy"]
            .to_str()
            .unwrap();
        // Not a document: it loads, runs and frames nothing (a CMS file is sandboxed besides).
        assert!(
            document || csp.starts_with("default-src 'none'"),
            "{path}: {csp}"
        );
        assert!(
            !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
            "{path}: {csp}"
        );
        assert!(
            !response.headers().contains_key("strict-transport-security"),
            "{path}"
        );
    }
    let cached = app.get("/portal/api/category/list").await;
    let etag = cached.headers()["etag"].clone();
    let revalidated = app
        .client
        .get(app.url("/portal/api/category/list"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    assert_eq!(
        revalidated.headers()["content-security-policy"],
        cached.headers()["content-security-policy"]
    );
    // A page's 304 keeps the document's policy.
    let page = app.get("/portal/").await;
    let page_again = app
        .client
        .get(app.url("/portal/"))
        .header("if-none-match", page.headers()["etag"].clone())
        .send()
        .await
        .unwrap();
    assert_eq!(page_again.status(), 304);
    for name in DOCUMENT_ONLY {
        assert!(
            page_again.headers().contains_key(name),
            "304 of a page: no {name}"
        );
    }
    // The app's own policy is the strict one; a CMS file keeps its sandbox.
    let page = app.get("/portal/").await;
    let csp = page.headers()["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert!(
        csp.contains("object-src 'none'") && csp.contains("base-uri 'self'"),
        "{csp}"
    );
    let file = app.get("/portal/api/files/covers/train.svg").await;
    assert!(
        file.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
}

#[tokio::test]
async fn hsts_when_configured_and_source_maps_only_when_asked_for() {
    let cms = spawn_reference_cms().await;
    let plain = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |_| {})).await;
    assert_eq!(
        plain
            .get("/portal/assets/main.0123456789abcdef.js.map")
            .await
            .status(),
        404
    );
    assert_eq!(
        plain
            .get("/portal/assets/main.0123456789abcdef.js")
            .await
            .status(),
        200
    );

    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        c.server.hsts_max_age = Some(std::time::Duration::from_secs(365 * 24 * 60 * 60));
        c.server.source_maps = true;
    }))
    .await;
    let response = app.get("/portal/api/category/list").await;
    assert_eq!(
        response.headers()["strict-transport-security"],
        "max-age=31536000; includeSubDomains"
    );
    assert_eq!(
        app.get("/portal/assets/main.0123456789abcdef.js.map")
            .await
            .status(),
        200
    );
}
