//! The app under /portal/: caching rules, SPA fallback, compression, traversal.

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::*;

/// Sends `path` byte for byte (no client-side normalisation) and returns the raw answer.
async fn raw_get(app: &TestApp, path: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn index_is_revalidated_and_hashed_assets_are_immutable() {
    let app = spawn_with_reference_cms().await;
    let index = app.get("/portal/").await;
    assert_eq!(index.status(), 200);
    assert_eq!(index.headers()["cache-control"], "no-cache");
    assert!(
        index.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(index.text().await.unwrap().contains("id=\"root\""));

    let asset = app.get("/portal/assets/main.0123456789abcdef.js").await;
    assert_eq!(asset.status(), 200);
    assert_eq!(
        asset.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );

    let plain = app.get("/portal/favicon.svg").await;
    assert_eq!(plain.headers()["cache-control"], "no-cache");
}

#[tokio::test]
async fn app_routes_fall_back_to_index_but_missing_files_are_404() {
    let app = spawn_with_reference_cms().await;
    let route = app.get("/portal/news_center/notice").await;
    assert_eq!(route.status(), 200);
    assert_eq!(route.headers()["cache-control"], "no-cache");
    assert!(route.text().await.unwrap().contains("id=\"root\""));

    let missing = app.get("/portal/assets/412.deadbeef99.chunk.js").await;
    assert_eq!(
        missing.status(),
        404,
        "a missing chunk must fail, not load HTML"
    );
}

#[tokio::test]
async fn root_redirects_to_the_portal() {
    let app = spawn_with_reference_cms().await;
    for path in ["/", "/portal"] {
        let response = app.get(path).await;
        assert!(response.status().is_redirection(), "{path}");
        assert_eq!(response.headers()["location"], "/portal/");
    }
}

#[tokio::test]
async fn gzip_and_brotli_are_offered() {
    let app = spawn_with_reference_cms().await;
    for encoding in ["gzip", "br"] {
        for path in [
            "/portal/assets/main.0123456789abcdef.js",
            "/portal/api/category/list",
        ] {
            let response = app
                .client
                .get(app.url(path))
                .header("accept-encoding", encoding)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            assert_eq!(response.headers()["content-encoding"], encoding, "{path}");
        }
    }
}

#[tokio::test]
async fn path_traversal_is_impossible() {
    let app = spawn_with_reference_cms().await;
    // A secret beside the static dir that traversal would reach.
    let secret = static_dir().parent().unwrap().join("outside-secret.txt");
    std::fs::write(&secret, "TRAVERSAL-MARKER").unwrap();
    for path in [
        "/portal/../outside-secret.txt",
        "/portal/%2e%2e/outside-secret.txt",
        "/portal/assets/..%2f..%2foutside-secret.txt",
        "/portal/..%5coutside-secret.txt",
        "/portal/%2e%2e%2f%2e%2e%2fetc/passwd",
        "/portal//etc/passwd",
        "/portal/assets/../../outside-secret.txt",
    ] {
        let answer = raw_get(&app, path).await;
        assert!(!answer.contains("TRAVERSAL-MARKER"), "{path}: {answer}");
        assert!(!answer.contains("root:x:0"), "{path}: {answer}");
    }
}

#[tokio::test]
async fn outside_the_portal_is_404() {
    let app = spawn_with_reference_cms().await;
    assert_eq!(app.get("/index.html").await.status(), 404);
    assert_eq!(app.get("/portalx/").await.status(), 404);
}
