//! Hostile clients: oversized headers and targets, bodies on GET, fuzzed query strings, encoded
//! traversal. None gets a 5xx made by the gateway, none hangs, and the gateway serves on.

use serde_json::Value;

use crate::helpers::*;

async fn status_and_body(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request
        .send()
        .await
        .expect("an answer, not a dropped connection");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn oversized_headers_and_targets_are_refused_in_the_envelope() {
    let app = spawn_with_reference_cms().await;
    let big = "a".repeat(20 * 1024);
    let (status, body) = status_and_body(
        app.client
            .get(app.url("/portal/api/category/list"))
            .header("cookie", format!("tracking={big}")),
    )
    .await;
    assert_eq!((status, body["code"].as_i64()), (431, Some(431)), "{body}");

    let long = format!("/portal/api/article/detail?id=1&pad={}", "x".repeat(5000));
    let (status, body) = status_and_body(app.client.get(app.url(&long))).await;
    assert_eq!((status, body["code"].as_i64()), (414, Some(414)), "{body}");
    // The static app too.
    let (status, _) = status_and_body(
        app.client
            .get(app.url(&format!("/portal/{}", "y".repeat(5000)))),
    )
    .await;
    assert_eq!(status, 414);

    // Serving goes on.
    assert_eq!(app.get_json("/portal/api/category/list").await.0, 200);
}

#[tokio::test]
async fn a_body_on_a_get_changes_nothing() {
    let app = spawn_with_reference_cms().await;
    let (status, body) = status_and_body(
        app.client
            .get(app.url("/portal/api/article/detail?id=2101"))
            .header("content-type", "application/json")
            .body("{\"id\": 1, \"title\": \"<script>\"}".repeat(100)),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["id"], 2101);
}

#[tokio::test]
async fn fuzzed_query_strings_get_a_400_naming_the_parameter() {
    let app = spawn_with_reference_cms().await;
    let long_id = "9".repeat(3000);
    let cases: Vec<(String, &str)> = vec![
        ("/portal/api/article/detail?id=%00".to_owned(), "id"),
        ("/portal/api/article/detail?id=1%002".to_owned(), "id"),
        (format!("/portal/api/article/detail?id={long_id}"), "id"),
        (
            "/portal/api/article/detail?id=%F0%9F%9A%82".to_owned(),
            "id",
        ),
        ("/portal/api/article/detail?id=-1".to_owned(), "id"),
        ("/portal/api/article/detail?id=1&id=2".to_owned(), "id"),
        (
            "/portal/api/article/list?page=%E2%80%8B1".to_owned(),
            "page",
        ),
        ("/portal/api/article/list?size=1e3".to_owned(), "size"),
        (
            "/portal/api/article/list?categoryId=21&categoryId=22".to_owned(),
            "categoryId",
        ),
        (
            "/portal/api/category/getParentCategory?id=%ff%fe".to_owned(),
            "id",
        ),
    ];
    // Digits past any number the CMS holds: an id of another shape than its own (`dialect.ids`
    // numbers), so nothing there.
    let (status, body) = app
        .get_json("/portal/api/article/detail?id=99999999999999999999999999")
        .await;
    assert_eq!(status, 404, "{body}");
    for (path, param) in cases {
        let (status, body) = app.get_json(&path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(
            body["msg"].as_str().unwrap().contains(param),
            "{path}: {body}"
        );
    }
    // Unknown parameters, repeated and odd, are dropped rather than refused.
    let (status, _) = app
        .get_json("/portal/api/category/list?_t=%00&_t=%F0%9F%9A%82&=&&&x")
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn encoded_traversal_in_static_and_file_paths_finds_nothing() {
    let app = spawn_with_reference_cms().await;
    for path in [
        "/portal/%2e%2e/%2e%2e/etc/passwd",
        "/portal/assets/%2e%2e%2f%2e%2e%2fCargo.toml",
        "/portal/..%2f..%2fCargo.toml",
        "/portal/assets/%252e%252e/Cargo.toml",
        "/portal/api/files/%2e%2e/%2e%2e/categories.json",
        "/portal/api/files/covers%2f..%2f..%2fcategories.json",
        "/portal/api/files/covers/%00.svg",
    ] {
        let response = app.get(path).await;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        assert!(status == 404 || status == 400, "{path}: {status}");
        assert!(
            !text.contains("[package]") && !text.contains("\"parentId\""),
            "{path}: {text}"
        );
    }
}

#[tokio::test]
async fn a_client_sending_its_headers_slowly_is_dropped() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        c.server.header_read_timeout = std::time::Duration::from_secs(1);
    }))
    .await;
    let mut slow = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: portal\r\n")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    // A byte of header every 200 ms: it never finishes the head.
    let dropped = async {
        let mut buf = [0u8; 256];
        loop {
            tokio::select! {
                read = slow.read(&mut buf) => match read {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                },
                () = tokio::time::sleep(std::time::Duration::from_millis(200)) => {
                    if slow.write_all(b"X").await.is_err() {
                        return;
                    }
                }
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(5), dropped)
        .await
        .expect("the slow client was dropped");
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(800),
        "not before the deadline"
    );
    // Others are served meanwhile and after.
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn an_undecodable_file_path_and_an_oversized_notice_answer_in_the_envelope() {
    let app = spawn_with_reference_cms().await;
    for path in [
        "/portal/api/files/%ff.png",
        "/portal/api/files/a/%c3%28.jpg",
    ] {
        let (status, body) = status_and_body(app.client.get(app.url(path))).await;
        assert_eq!(
            (status, body["code"].as_i64()),
            (404, Some(404)),
            "{path}: {body}"
        );
    }
    let (status, body) = status_and_body(
        app.client
            .post(app.url("/portal/admin/webhook"))
            .body(vec![b'x'; 3 << 20]),
    )
    .await;
    assert_eq!((status, body["code"].as_i64()), (413, Some(413)), "{body}");
}

/// The app in front of reference-cms with a CMS ceiling of 30 calls (then 1 a second) and a
/// share of 5 (then 1 a second) per client, visitors named by `X-Forwarded-For` from loopback.
async fn app_with_a_small_cms_budget() -> TestApp {
    let cms = spawn_reference_cms().await;
    spawn_app(page_config(&format!("http://{cms}/"), |c| {
        let limits = &mut c.limits;
        limits.per_client_per_second = 100_000;
        limits.per_client_burst = 100_000;
        limits.per_client_cms_per_second = 1;
        limits.per_client_cms_burst = 5;
        limits.upstream_per_second = 1;
        limits.upstream_burst = 30;
        limits.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    }))
    .await
}

/// One client (behind the trusted proxy, named in `X-Forwarded-For`) flooding uncached requests
/// of every face — API details, pages, feeds — spends its own share of the CMS, not everyone's:
/// another client's uncached requests are all answered.
#[tokio::test]
async fn a_client_flooding_uncached_routes_cannot_spend_the_cms_budget_of_another() {
    let app = app_with_a_small_cms_budget().await;
    let from = |client: &'static str, path: String| {
        app.client
            .get(app.url(&path))
            .header("x-forwarded-for", client)
            .send()
    };
    let mut flood = Vec::new();
    for id in 0..40u64 {
        flood.push(format!("/portal/api/article/detail?id={}", 900_000 + id));
        flood.push(format!("/portal/article/{}", 800_000 + id));
        flood.push(format!("/portal/news_center/notice?page={}", 2 + id));
    }
    flood.push("/portal/feed/news.xml".to_owned());
    let mut refused = 0;
    for path in flood {
        let response = from("203.0.113.66", path.clone()).await.unwrap();
        if response.status() == 429 {
            assert!(response.headers().contains_key("retry-after"), "{path}");
            refused += 1;
        }
    }
    assert!(
        refused > 100,
        "the flood is held to its share: {refused} refused"
    );
    // Another visitor's uncached requests, of each face, all answered.
    for path in [
        "/portal/api/article/detail?id=2101",
        "/portal/api/article/list?categoryId=22&page=1&size=10",
        "/portal/article/2102",
        "/portal/news_center/company_announcement/1",
    ] {
        let response = from("198.51.100.7", path.to_owned()).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
    }
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("portal_rate_limited_total{limit=\"client_cms\"}"),
        "{metrics}"
    );
}

/// The side doors of the round-three red team: a `Range` on a file (streamed, never kept), any
/// `Bearer` token (answered by the CMS, never cached) and `/readyz?upstream=1` (a probe of the
/// CMS) were each a CMS call no share charged; one client spending them left another visitor's
/// uncached requests refused at the CMS ceiling. Now each is charged (the probe asked at most once
/// a second), and the other visitor is answered.
#[tokio::test]
async fn side_doors_to_the_cms_are_charged_to_the_client_that_uses_them() {
    let app = app_with_a_small_cms_budget().await;
    let (_, detail) = app.get_json("/portal/api/article/detail?id=2101").await;
    let cover = detail["result"]["cover"]
        .as_str()
        .unwrap_or_else(|| panic!("{detail}"))
        .to_owned();
    let from = |client: &'static str, path: &str| {
        app.client
            .get(app.url(path))
            .header("x-forwarded-for", client)
    };
    let mut refused = 0;
    for n in 0..30u64 {
        for request in [
            from("203.0.113.66", &cover).header("range", format!("bytes={n}-{}", n + 10)),
            from("203.0.113.66", "/portal/api/article/detail?id=2102")
                .header("authorization", format!("Bearer not-a-token-{n}")),
            from("203.0.113.66", "/readyz?upstream=1"),
        ] {
            let status = request.send().await.unwrap().status();
            refused += usize::from(status == 429);
        }
    }
    assert!(
        refused > 30,
        "the side doors are held to the client's share: {refused} refused"
    );
    for path in [
        "/portal/api/article/detail?id=2103",
        "/portal/api/article/list?categoryId=22&page=1&size=10",
        "/portal/article/2104",
    ] {
        let response = from("198.51.100.7", path).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
    }
}

/// Red team round three, row 2: an HTTP/2 client that opens a streamed file and never opens its
/// window, PINGing now and then, held the CMS's connection (4 057 of them in 90 s) and its own for
/// as long as it liked. Now the relay lets the CMS go after `server.stall_timeout` (the fake's
/// body is dropped while the client's connection is still open), and PINGs answered are no
/// progress: the connection is closed as idle.
#[tokio::test]
async fn an_h2_client_that_never_reads_lets_the_cms_go_and_its_pings_keep_no_connection() {
    use http_body_util::Empty;
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use std::time::Duration;
    let (app, fake) = spawn_with_fake(
        // 4 MiB, sent as fast as it is taken.
        Reply::Trickle {
            chunks: 4096,
            gap: Duration::ZERO,
        },
        |c| {
            c.server.stall_timeout = Duration::from_secs(1);
            c.server.idle_timeout = Duration::from_secs(5);
        },
    )
    .await;
    let stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
        .timer(TokioTimer::new())
        .keep_alive_interval(Duration::from_millis(300))
        .keep_alive_while_idle(true)
        .handshake(TokioIo::new(stream))
        .await
        .unwrap();
    let connection = tokio::spawn(connection);
    let request = hyper::Request::get("/portal/api/files/videos/long.webm")
        .header("host", app.addr.to_string())
        .body(Empty::<bytes::Bytes>::new())
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    // Never read: the stream's window fills, the gateway's send buffer behind it.
    assert_eq!(fake.trickling(), 1);
    for _ in 0..40 {
        if fake.trickling() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(fake.trickling(), 0, "the CMS's body is let go");
    assert!(
        !connection.is_finished(),
        "by the relay's deadline, not by the connection's end"
    );
    // Only PINGs from here: closed as idle (without the change, never).
    let ended = tokio::time::timeout(Duration::from_secs(20), connection).await;
    assert!(ended.is_ok(), "the connection is closed as idle");
    drop(response);
    // The gateway serves on.
    let health = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
}

/// The `limits.per_client_files` share: a client that opens streams of a video and reads none
/// holds a CMS connection with each until the stall deadline. It has its share of them at once;
/// its next is refused at once (429, `Retry-After: 1`, no CMS call), a visitor from another
/// address is served, and a stream the client lets go gives its place back.
#[tokio::test]
async fn a_client_streaming_files_holds_at_most_its_share_of_cms_connections() {
    use std::time::Duration;
    let (app, fake) = spawn_with_fake(
        // 4 MiB a piece every 50 ms: minutes, unless let go.
        Reply::Trickle {
            chunks: 4096,
            gap: Duration::from_millis(50),
        },
        |c| {
            open_limits(c);
            c.limits.per_client_files = 3;
        },
    )
    .await;
    let (hog, visitor) = (client_at("127.0.0.2"), client_at("127.0.0.3"));
    let video = app.url("/portal/api/files/videos/long.webm");
    let mut held = Vec::new();
    for _ in 0..3 {
        let streaming = hog.get(&video).send().await.unwrap();
        assert_eq!(streaming.status(), 200);
        held.push(streaming);
    }
    assert_eq!(fake.trickling(), 3);
    let calls = fake.seen().len();
    let refused = hog.get(&video).send().await.unwrap();
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.headers()["retry-after"], "1");
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["code"], 429);
    assert_eq!(
        fake.seen().len(),
        calls,
        "a refused stream asks the CMS nothing"
    );
    let served = visitor.get(&video).send().await.unwrap();
    assert_eq!(served.status(), 200, "another address has its own share");
    // One stream let go: its place comes back once the relay has let the CMS go.
    drop(held.pop());
    let mut again = None;
    for _ in 0..200 {
        let answer = hog.get(&video).send().await.unwrap();
        if answer.status() == 200 {
            again = Some(answer);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        again.is_some(),
        "a place given back serves the client's next stream"
    );
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("limit=\"client_files\""),
        "the refusal is counted"
    );
    drop((held, served, again));
}
