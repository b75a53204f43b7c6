//! `/portal/api/files/*` in the cache: small images and captions are kept (one CMS call, then
//! hits, 304s from the gateway, served past the CMS ceiling), everything else is streamed.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Router,
    body::Body,
    extract::{Request, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use tokio::net::TcpListener;

use crate::helpers::*;

const TOKEN: &str = "files-token-0123456789";
const ETAG: &str = "\"cover-a-1\"";
const MODIFIED: &str = "Tue, 01 Jul 2025 08:00:00 GMT";

/// The bound in these tests: files of at most 4096 bytes are kept.
fn bound(config: &mut Config) {
    config.cache.file_max_bytes = 4096;
}

/// `bound`, with the admin token set.
fn bound_with_token(config: &mut Config) {
    bound(config);
    config.admin.token = Some(TOKEN.into());
}

fn jpeg() -> Vec<u8> {
    (0..1500u32).map(|i| (i * 7 % 251) as u8).collect()
}

fn svg() -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\">{}</svg>",
        "<rect width=\"10\" height=\"10\"/>".repeat(30)
    )
}

fn gzipped(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A file store that counts the requests for each path.
#[derive(Clone, Default)]
struct Store {
    calls: Arc<Mutex<HashMap<String, usize>>>,
    /// The query of every request, in order.
    queries: Arc<Mutex<Vec<String>>>,
}

impl Store {
    fn calls(&self, path: &str) -> usize {
        self.calls
            .lock()
            .unwrap()
            .get(&format!("/cms/files/{path}"))
            .copied()
            .unwrap_or(0)
    }
}

async fn serve_file(State(store): State<Store>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    *store.calls.lock().unwrap().entry(path.clone()).or_default() += 1;
    let query = request.uri().query().unwrap_or("").to_owned();
    store.queries.lock().unwrap().push(query.clone());
    let range = request.headers().get(header::RANGE).is_some();
    match path.trim_start_matches("/cms/files/") {
        "covers/a.jpg" if range => (
            StatusCode::PARTIAL_CONTENT,
            [
                (header::CONTENT_TYPE, "image/jpeg".to_owned()),
                (header::CONTENT_RANGE, format!("bytes 0-9/{}", jpeg().len())),
            ],
            jpeg()[..10].to_vec(),
        )
            .into_response(),
        "covers/a.jpg" => (
            [
                (header::CONTENT_TYPE, "image/jpeg"),
                (header::ETAG, ETAG),
                (header::LAST_MODIFIED, MODIFIED),
                (header::CONTENT_DISPOSITION, "inline; filename=\"a.jpg\""),
                (header::ACCEPT_RANGES, "bytes"),
            ],
            jpeg(),
        )
            .into_response(),
        "covers/b.svg" => ([(header::CONTENT_TYPE, "image/svg+xml")], svg()).into_response(),
        "covers/big.png" => {
            ([(header::CONTENT_TYPE, "image/png")], vec![7u8; 8000]).into_response()
        }
        // No length said: read up to the bound, then streamed on whole.
        "covers/unsized.png" => {
            let pieces =
                (0..8).map(|_| Ok::<_, std::io::Error>(bytes::Bytes::from(vec![9u8; 1000])));
            Response::builder()
                .header(header::CONTENT_TYPE, "image/png")
                .body(Body::from_stream(futures_util::stream::iter(pieces)))
                .unwrap()
        }
        // A store that compresses whatever it sends, asked or not (an nginx with `gzip_types
        // image/svg+xml` and no regard for the request's Accept-Encoding).
        "covers/gz.svg" => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::CONTENT_ENCODING, "gzip"),
            ],
            gzipped(svg().as_bytes()),
        )
            .into_response(),
        "covers/odd.svg" => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (header::CONTENT_ENCODING, "x-private"),
            ],
            svg(),
        )
            .into_response(),
        // A store that forbids what it does not have (Directus, S3 buckets).
        "covers/forbidden.png" => StatusCode::FORBIDDEN.into_response(),
        // An image the store resizes by its `width`.
        "covers/sized.png" => {
            let width: u8 = query
                .split('&')
                .find_map(|p| p.strip_prefix("width="))
                .and_then(|w| w.parse::<u32>().ok())
                .map_or(0, |w| (w / 100) as u8);
            ([(header::CONTENT_TYPE, "image/png")], vec![width; 100]).into_response()
        }
        // What a CMS answers for an asset fetched with a credential.
        "covers/private.png" => (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, "private, max-age=60"),
            ],
            vec![5u8; 600],
        )
            .into_response(),
        "docs/a.pdf" => (
            [(header::CONTENT_TYPE, "application/pdf")],
            b"%PDF-1.4 small".to_vec(),
        )
            .into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn file_store() -> (SocketAddr, Store) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let store = Store::default();
    let app = Router::new().fallback(serve_file).with_state(store.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (addr, store)
}

async fn gateway(change: impl FnOnce(&mut Config)) -> (TestApp, Store) {
    let (addr, store) = file_store().await;
    let app = spawn_app(config_for(
        &format!("http://{addr}/cms/"),
        &static_dir(),
        change,
    ))
    .await;
    (app, store)
}

async fn get_with(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = app.client.get(app.url(path));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

fn header_of(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_cover_asked_twice_is_one_cms_call_and_the_same_answer() {
    let (app, store) = gateway(bound_with_token).await;
    let path = "/portal/api/files/covers/a.jpg";
    let encodings = [("accept-encoding", "br, gzip")];
    let first = get_with(&app, path, &encodings).await;
    let second = get_with(&app, path, &encodings).await;
    assert_eq!(
        store.calls("covers/a.jpg"),
        1,
        "the second came from the cache"
    );
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (200, 200)
    );
    assert_eq!(header_of(&first, "x-cache").as_deref(), Some("MISS"));
    assert_eq!(header_of(&second, "x-cache").as_deref(), Some("HIT"));
    for name in [
        "content-type",
        "etag",
        "last-modified",
        "content-disposition",
        "cache-control",
        "content-security-policy",
        "x-content-type-options",
        "content-length",
    ] {
        assert!(header_of(&second, name).is_some(), "{name}");
        assert_eq!(header_of(&first, name), header_of(&second, name), "{name}");
    }
    assert_eq!(header_of(&second, "content-type").unwrap(), "image/jpeg");
    assert_eq!(
        header_of(&second, "etag").unwrap(),
        ETAG,
        "the CMS's own ETag"
    );
    assert_eq!(
        header_of(&second, "cache-control").unwrap(),
        "public, max-age=86400"
    );
    assert!(
        header_of(&second, "content-security-policy")
            .unwrap()
            .contains("sandbox")
    );
    assert_eq!(
        header_of(&second, "content-encoding"),
        None,
        "a JPEG is never compressed again"
    );
    assert_eq!(first.bytes().await.unwrap(), jpeg());
    assert_eq!(second.bytes().await.unwrap(), jpeg());

    // An SVG is text: kept with its brotli, and the sandbox still on it.
    let svg_path = "/portal/api/files/covers/b.svg";
    get_with(&app, svg_path, &encodings).await;
    let svg_hit = get_with(&app, svg_path, &encodings).await;
    assert_eq!(store.calls("covers/b.svg"), 1);
    assert_eq!(
        header_of(&svg_hit, "content-encoding").as_deref(),
        Some("br")
    );
    assert_eq!(
        header_of(&svg_hit, "content-type").unwrap(),
        "image/svg+xml"
    );
    assert!(
        header_of(&svg_hit, "content-security-policy")
            .unwrap()
            .contains("sandbox")
    );
    let plain = get_with(&app, svg_path, &[]).await;
    assert_eq!(plain.text().await.unwrap(), svg());

    // The admin view has a `files` line and says the entry's own type.
    let auth = format!("Bearer {TOKEN}");
    let view = |query: &'static str| {
        app.client
            .get(app.url(&format!("/portal/admin/cache{query}")))
            .header("authorization", auth.clone())
            .send()
    };
    let overview: serde_json::Value = view("").await.unwrap().json().await.unwrap();
    let files = overview["result"]["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["endpoint"] == "files")
        .cloned()
        .unwrap_or_else(|| panic!("no files line: {overview}"));
    assert_eq!(files["entries"], 2);
    assert!(files["hits"].as_u64().unwrap() >= 2, "{files}");
    assert_eq!(files["ttl"][0]["seconds"], 3600, "files live an hour");
    let entry: serde_json::Value = view("?key=files/covers/a.jpg")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(entry["result"]["mediaType"], "image/jpeg", "{entry}");
    assert_eq!(entry["result"]["endpoint"], "files");
}

#[tokio::test]
async fn a_conditional_request_for_a_kept_file_is_answered_by_the_gateway() {
    let (app, store) = gateway(bound).await;
    let path = "/portal/api/files/covers/a.jpg";
    assert_eq!(app.get(path).await.status(), 200);
    let by_etag = get_with(&app, path, &[("if-none-match", ETAG)]).await;
    assert_eq!(by_etag.status(), 304);
    assert_eq!(header_of(&by_etag, "etag").as_deref(), Some(ETAG));
    assert!(
        header_of(&by_etag, "content-security-policy")
            .unwrap()
            .contains("sandbox")
    );
    let by_date = get_with(&app, path, &[("if-modified-since", MODIFIED)]).await;
    assert_eq!(by_date.status(), 304);
    let changed = get_with(&app, path, &[("if-none-match", "\"older\"")]).await;
    assert_eq!(changed.status(), 200);
    assert_eq!(changed.bytes().await.unwrap(), jpeg());
    assert_eq!(
        store.calls("covers/a.jpg"),
        1,
        "no condition reached the CMS"
    );
}

#[tokio::test]
async fn larger_files_and_ranges_are_streamed_each_time() {
    let (app, store) = gateway(bound).await;
    for _ in 0..2 {
        let big = app.get("/portal/api/files/covers/big.png").await;
        assert_eq!(big.status(), 200);
        assert_eq!(header_of(&big, "x-cache"), None);
        assert_eq!(big.bytes().await.unwrap().len(), 8000);
        let no_length = app.get("/portal/api/files/covers/unsized.png").await;
        assert_eq!(no_length.status(), 200);
        assert_eq!(
            no_length.bytes().await.unwrap(),
            vec![9u8; 8000],
            "what was read before the bound, and the rest"
        );
        let part = get_with(
            &app,
            "/portal/api/files/covers/a.jpg",
            &[("range", "bytes=0-9")],
        )
        .await;
        assert_eq!(part.status(), 206);
        assert_eq!(part.bytes().await.unwrap(), jpeg()[..10]);
    }
    assert_eq!(store.calls("covers/big.png"), 2);
    assert_eq!(store.calls("covers/unsized.png"), 2);
    assert_eq!(store.calls("covers/a.jpg"), 2, "each Range went to the CMS");
}

#[tokio::test]
async fn an_attachment_is_not_kept() {
    let (app, store) = gateway(bound).await;
    for _ in 0..2 {
        let pdf = app.get("/portal/api/files/docs/a.pdf").await;
        assert_eq!(pdf.status(), 200);
        assert_eq!(header_of(&pdf, "x-cache"), None);
        assert_eq!(pdf.bytes().await.unwrap().as_ref(), b"%PDF-1.4 small");
    }
    assert_eq!(store.calls("docs/a.pdf"), 2);
}

#[tokio::test]
async fn file_max_bytes_zero_keeps_no_file() {
    let (app, store) = gateway(|c| c.cache.file_max_bytes = 0).await;
    for _ in 0..2 {
        assert_eq!(
            app.get("/portal/api/files/covers/a.jpg").await.status(),
            200
        );
    }
    assert_eq!(store.calls("covers/a.jpg"), 2);
}

#[tokio::test]
async fn a_purge_of_files_makes_the_next_request_ask_the_cms() {
    let (app, store) = gateway(bound_with_token).await;
    let path = "/portal/api/files/covers/a.jpg";
    app.get(path).await;
    assert_eq!(
        header_of(&app.get(path).await, "x-cache").as_deref(),
        Some("HIT")
    );
    let purged = app
        .client
        .post(app.url("/portal/admin/cache/purge?prefix=files/"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(purged.status(), 200);
    let next = app.get(path).await;
    assert_eq!(next.status(), 200);
    assert_eq!(
        next.bytes().await.unwrap(),
        jpeg(),
        "served while it is asked again"
    );
    for _ in 0..40 {
        if store.calls("covers/a.jpg") == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        store.calls("covers/a.jpg"),
        2,
        "the purge sent it to the CMS"
    );
}

#[tokio::test]
async fn a_kept_image_is_served_past_the_cms_ceiling() {
    let (app, store) = gateway(|c| {
        bound(c);
        c.limits.upstream_per_second = 1;
        c.limits.upstream_burst = 1;
    })
    .await;
    let kept = "/portal/api/files/covers/a.jpg";
    assert_eq!(app.get(kept).await.status(), 200, "the ceiling's one call");
    for _ in 0..3 {
        let hit = app.get(kept).await;
        assert_eq!(hit.status(), 200);
        assert_eq!(header_of(&hit, "x-cache").as_deref(), Some("HIT"));
    }
    let (status, body) = app.get_json("/portal/api/files/covers/b.svg").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_i64()),
        (429, Some(429)),
        "{body}"
    );
    assert_eq!(store.calls("covers/a.jpg"), 1);
    assert_eq!(store.calls("covers/b.svg"), 0);
}

#[tokio::test]
async fn a_file_the_store_sends_compressed_keeps_its_encoding_and_an_unknown_one_is_refused() {
    let (app, store) = gateway(bound).await;
    // reqwest decodes nothing itself here: `gzip` is off, so the test sees the bytes relayed.
    let response = get_with(&app, "/portal/api/files/covers/gz.svg", &[]).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        header_of(&response, "content-encoding").as_deref(),
        Some("gzip")
    );
    let body = response.bytes().await.unwrap();
    let mut decoded = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&body[..]), &mut decoded)
        .expect("the bytes are the gzip the header names");
    assert_eq!(decoded, svg());
    // The gateway asks for the file as it is (`Accept-Encoding: identity`); a store that
    // compresses anyway has its encoding relayed, which every browser decodes.
    assert_eq!(
        app.get("/portal/api/files/covers/gz.svg").await.status(),
        200
    );
    assert_eq!(
        store.calls("covers/gz.svg"),
        2,
        "an encoded file is streamed, not kept"
    );

    let (status, body) = app.get_json("/portal/api/files/covers/odd.svg").await;
    assert_eq!(status, 502, "{body}");
    assert!(
        body["msg"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
}

#[tokio::test]
async fn a_file_the_store_does_not_have_is_a_404_envelope() {
    let (app, _store) = gateway(bound).await;
    for path in ["covers/none.png", "docs/none.pdf"] {
        let (status, body) = app.get_json(&format!("/portal/api/files/{path}")).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["msg"], "文件不存在。", "{path}");
    }
}

#[tokio::test]
async fn a_store_that_forbids_what_it_lacks_is_read_as_not_found_when_the_config_says_so() {
    let (app, _store) = gateway(bound).await;
    let (status, _) = app.get_json("/portal/api/files/covers/forbidden.png").await;
    assert_eq!(
        status, 502,
        "by default a 403 from the store is no answer to pass on"
    );
    let (app, _store) = gateway(|c| {
        bound(c);
        c.dialect.endpoints.files_not_found = vec![403];
    })
    .await;
    let (status, body) = app.get_json("/portal/api/files/covers/forbidden.png").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["msg"], "文件不存在。");
}

#[tokio::test]
async fn a_private_asset_is_kept_for_everyone_unless_the_config_says_not() {
    let (app, store) = gateway(|c| {
        bound(c);
        c.cache.file_keep_private = false;
    })
    .await;
    for _ in 0..2 {
        let response = app.get("/portal/api/files/covers/private.png").await;
        assert_eq!(response.status(), 200);
    }
    assert_eq!(
        store.calls("covers/private.png"),
        2,
        "file_keep_private = false: a private file is not kept"
    );

    // The default: a file fetched with the gateway's own credential is private to no one.
    let (app, store) = gateway(bound).await;
    for _ in 0..3 {
        let response = app.get("/portal/api/files/covers/private.png").await;
        assert_eq!(response.status(), 200);
        assert_eq!(
            header_of(&response, "cache-control").as_deref(),
            Some("public, max-age=86400")
        );
        assert_eq!(response.bytes().await.unwrap().len(), 600);
    }
    assert_eq!(
        store.calls("covers/private.png"),
        1,
        "one copy serves every visitor"
    );
}

#[tokio::test]
async fn an_images_size_parameters_reach_the_store_and_each_size_is_kept_apart() {
    let (app, store) = gateway(bound).await;
    let get = |query: &'static str| {
        let url = app.url(&format!("/portal/api/files/covers/sized.png?{query}"));
        let client = app.client.clone();
        async move { client.get(url).send().await.unwrap().bytes().await.unwrap() }
    };
    // Only the parameters an image store reads are sent on, each once, in one order.
    assert_eq!(get("width=300&token=abc&callback=x").await[0], 3);
    assert_eq!(store.queries.lock().unwrap().last().unwrap(), "width=300");
    assert_eq!(get("format=webp&width=300").await[0], 3);
    assert_eq!(
        store.queries.lock().unwrap().last().unwrap(),
        "format=webp&width=300"
    );
    // The same size again is a hit; another size is its own entry.
    let calls = store.calls("covers/sized.png");
    assert_eq!(get("width=300").await[0], 3);
    assert_eq!(store.calls("covers/sized.png"), calls, "kept");
    assert_eq!(get("width=600").await[0], 6);
    assert_eq!(store.calls("covers/sized.png"), calls + 1);
    // A value that is not a plain word is dropped.
    get("width=300%3Bdrop").await;
    assert_eq!(
        store.queries.lock().unwrap().last().unwrap(),
        "",
        "{:?}",
        store.queries
    );
}

/// A CMS whose files sit among its pages (Plone's `<item>/@@images/…`): only the addresses
/// `files_match` names are files; any other is "not found" without a call to the CMS, whatever
/// the CMS would have answered there (this store has a PDF at `docs/a.pdf`).
#[tokio::test]
async fn only_addresses_files_match_names_are_asked_of_the_cms() {
    let (app, store) = gateway(|c| {
        bound(c);
        c.dialect.endpoints.files_match = vec!["covers/*.jpg".to_owned()];
    })
    .await;
    assert_eq!(
        app.get("/portal/api/files/covers/a.jpg").await.status(),
        200
    );
    for (path, file) in [
        ("/portal/api/files/docs/a.pdf", "docs/a.pdf"),
        ("/portal/api/files/covers/b.svg", "covers/b.svg"),
    ] {
        let answer = app.get(path).await;
        assert_eq!(answer.status(), 404, "{path}");
        let body: serde_json::Value = answer.json().await.unwrap();
        assert_eq!(body["msg"], "文件不存在。", "{body}");
        assert_eq!(store.calls(file), 0, "{path} was asked of the CMS");
    }
}
