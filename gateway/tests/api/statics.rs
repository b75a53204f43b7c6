//! The app under /portal/: caching rules, addresses as pages, the build's encodings, traversal.

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

/// Any address under `/portal/` that is no file is a page of the app (rendered by the server
/// bundle; without one, the app shell, which the browser renders); a missing file is a plain 404,
/// never HTML; with no build at all, an address is the portal's 404 page with the ways back in.
#[tokio::test]
async fn addresses_are_pages_and_missing_files_a_plain_404() {
    let app = spawn_with_reference_cms().await;
    for page in [
        "/portal/",
        "/portal/index.html",
        "/portal/news_center/notice",
        "/portal/foo",
    ] {
        let response = app.get(page).await;
        assert_eq!(
            response.status(),
            200,
            "{page}: the shell (the fixture has no server bundle)"
        );
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert!(
            response.text().await.unwrap().contains("id=\"root\""),
            "{page}"
        );
    }

    let missing = app.get("/portal/assets/412.deadbeef99.chunk.js").await;
    assert_eq!(
        missing.status(),
        404,
        "a missing chunk must fail, not load HTML"
    );
    assert!(!missing.text().await.unwrap().contains("<html"));

    let empty = tempfile::tempdir().unwrap();
    let unbuilt = spawn_app(config_for("http://127.0.0.1:9/", empty.path(), |_| {})).await;
    let unknown = unbuilt.get("/portal/foo").await;
    assert_eq!(unknown.status(), 404);
    assert!(
        unknown.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = unknown.text().await.unwrap();
    assert!(html.contains("页面不存在"), "{html}");
    assert!(html.contains("href=\"/portal/\""), "{html}");
    assert!(!html.contains("id=\"root\""), "{html}");
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
async fn the_builds_encodings_are_served_as_written_and_nothing_is_compressed_per_request() {
    let app = spawn_with_reference_cms().await;
    let get = |path: &'static str, encoding: &'static str| {
        app.client
            .get(app.url(path))
            .header("accept-encoding", encoding)
            .send()
    };
    let js = "/portal/assets/main.0123456789abcdef.js";
    let br = get(js, "gzip, deflate, br").await.unwrap();
    assert_eq!(br.headers()["content-encoding"], "br");
    assert_eq!(br.headers()["vary"], "accept-encoding");
    assert_eq!(br.bytes().await.unwrap(), BUILT_BR, "the build's own .br");
    let gzip = get(js, "gzip").await.unwrap();
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
    let plain = get(js, "identity").await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert!(plain.text().await.unwrap().starts_with("console.log"));

    // A file the build wrote no encodings for is sent as it is, even to a client asking for gzip.
    let raw = get("/portal/assets/plain.txt", "gzip, br").await.unwrap();
    assert_eq!(raw.status(), 200);
    assert!(raw.headers().get("content-encoding").is_none());
    assert!(
        raw.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    // The encodings themselves are not files of the app.
    assert_eq!(
        app.get("/portal/assets/main.0123456789abcdef.js.br")
            .await
            .status(),
        404
    );

    // The API's answers come encoded from the cache, `/site` and the OpenAPI document encoded once.
    for path in [
        "/portal/api/category/list",
        "/portal/api/site",
        "/portal/api/openapi.json",
    ] {
        let response = get(path, "br").await.unwrap();
        assert_eq!(response.headers()["content-encoding"], "br", "{path}");
    }

    // A rendered page is a cache entry like the API's answers: encoded once, when it is made.
    let pages = spawn_pages_with_reference_cms().await;
    let page = |encoding: &'static str| {
        pages
            .client
            .get(pages.url("/portal/news_center/notice"))
            .header("accept-encoding", encoding)
            .send()
    };
    let identity = page("identity").await.unwrap();
    assert!(identity.headers().get("content-encoding").is_none());
    let html = identity.text().await.unwrap();
    let br = page("gzip, br").await.unwrap();
    assert_eq!(br.headers()["content-encoding"], "br");
    assert_eq!(br.headers()["x-cache"], "HIT");
    let mut decoded = Vec::new();
    brotli::BrotliDecompress(&mut &br.bytes().await.unwrap()[..], &mut decoded).unwrap();
    assert_eq!(String::from_utf8(decoded).unwrap(), html, "the same page");
    let gzip = page("gzip").await.unwrap();
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
}

#[tokio::test]
async fn app_files_revalidate_with_their_etag_and_answer_head() {
    let app = spawn_with_reference_cms().await;
    let first = app.get("/portal/favicon.svg").await;
    let etag = first.headers()["etag"].clone();
    assert!(first.headers().contains_key("last-modified"));
    let again = app
        .client
        .get(app.url("/portal/favicon.svg"))
        .header("if-none-match", etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"], etag);
    assert_eq!(again.headers()["cache-control"], "no-cache");

    let head = app
        .client
        .head(app.url("/portal/assets/main.0123456789abcdef.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert!(head.headers().contains_key("content-length"));
    let post = app
        .client
        .post(app.url("/portal/favicon.svg"))
        .send()
        .await
        .unwrap();
    assert_eq!(post.status(), 405);
}

#[tokio::test]
async fn a_new_build_is_served_after_a_reload_without_a_restart() {
    let dist = tempfile::tempdir().unwrap();
    let config_dir = tempfile::tempdir().unwrap();
    let file = config_dir.path().join("gateway.toml");
    std::fs::write(&file, config_toml("http://127.0.0.1:9/", dist.path(), "")).unwrap();
    let config = portal_web::config::Config::load(&file).unwrap();
    let application = portal_web::startup::Application::build_with_file(config, Some(file))
        .await
        .unwrap();
    let addr = application.local_addr();
    let state = application.state();
    let (_stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(application.run_until(async {
        let _ = stopped.await;
    }));
    let get = |path: &'static str| async move {
        crate::helpers::client()
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap()
    };
    assert_eq!(get("/readyz").await.status(), 503, "no build yet");
    assert_eq!(get("/portal/").await.status(), 404);

    std::fs::write(
        dist.path().join("index.html"),
        "<div id=\"root\">新版</div>",
    )
    .unwrap();
    state.reload().unwrap();
    assert_eq!(get("/readyz").await.status(), 200);
    assert!(get("/portal/").await.text().await.unwrap().contains("新版"));
}

#[tokio::test]
async fn the_builds_server_bundle_reaches_the_render_pool_and_is_never_served() {
    let dist = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dist.path().join("server")).unwrap();
    std::fs::write(dist.path().join("index.html"), "<div id=\"root\"></div>").unwrap();
    let bundle = |html: &str| format!("globalThis.render = (input) => '{html}:' + input;");
    std::fs::write(dist.path().join("server/render.js"), bundle("旧版")).unwrap();
    let config_dir = tempfile::tempdir().unwrap();
    let file = config_dir.path().join("gateway.toml");
    let write_config = |render: &str| {
        let toml = config_toml("http://127.0.0.1:9/", dist.path(), "");
        std::fs::write(&file, format!("{toml}\n[render]\n{render}\n")).unwrap();
    };
    write_config("threads = 2");
    let config = portal_web::config::Config::load(&file).unwrap();
    let application = portal_web::startup::Application::build_with_file(config, Some(file.clone()))
        .await
        .unwrap();
    let addr = application.local_addr();
    let state = application.state();
    let (_stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(application.run_until(async {
        let _ = stopped.await;
    }));
    let render = || async { state.runtime().render.call("render", "页".to_owned()).await };
    assert_eq!(render().await.unwrap(), "旧版:页");

    for path in ["/portal/server/render.js", "/portal/server/render.js.gz"] {
        let answer = crate::helpers::client()
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 404, "{path}");
        assert!(
            !answer.text().await.unwrap().contains("globalThis"),
            "{path}"
        );
    }
    // The folder's address is an address like any other (a page), which lists nothing.
    let folder = crate::helpers::client()
        .get(format!("http://{addr}/portal/server/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !folder.contains("globalThis") && !folder.contains("render.js"),
        "{folder}"
    );

    // A new build: the same pool evaluates its bundle.
    std::fs::write(dist.path().join("server/render.js"), bundle("新版")).unwrap();
    state.reload().unwrap();
    assert_eq!(render().await.unwrap(), "新版:页");
    // `[render]` changed: a new pool, with the build's bundle.
    write_config("threads = 1");
    state.reload().unwrap();
    assert_eq!(state.runtime().render.settings().threads, 1);
    assert_eq!(render().await.unwrap(), "新版:页");
    // A build without one: no bundle.
    std::fs::remove_file(dist.path().join("server/render.js")).unwrap();
    state.reload().unwrap();
    assert_eq!(render().await, Err(portal_render::RenderError::NoBundle));
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
