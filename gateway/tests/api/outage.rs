//! The portal stays up when the CMS does not: readiness holds, cached pages are served, the
//! rest answer in the envelope; empty answers never push out good ones.

use std::time::Duration;

use reference_cms::Settings;
use serde_json::json;
use tokio::sync::oneshot;

use crate::helpers::*;

/// reference-cms on port 0 that stops when the sender is used.
async fn stoppable_cms() -> (std::net::SocketAddr, oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut settings = Settings::from_env();
    settings.content_dir = reference_cms::default_content_dir();
    settings.client_id = CLIENT_ID.to_owned();
    settings.client_secret = CLIENT_SECRET.to_owned();
    settings.delay = Duration::ZERO;
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(reference_cms::serve(listener, settings, async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

#[tokio::test]
async fn with_the_cms_stopped_the_gateway_stays_ready_and_serves_what_it_cached() {
    let (cms, stop) = stoppable_cms().await;
    // Short TTLs, so the outage is met past them; the stale allowance carries the cached keys.
    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        c.cache.default_ttl = Duration::from_millis(200);
        c.cache.stale_while_revalidate = Duration::ZERO;
        c.cache.stale_if_error = Duration::from_secs(600);
    }))
    .await;
    let cached = [
        "/portal/api/category/list",
        "/portal/api/article/list?categoryId=21&page=1&size=10",
        "/portal/api/article/detail?id=2101",
    ];
    for path in cached {
        assert_eq!(app.get_json(path).await.0, 200, "{path}");
    }
    assert_eq!(app.get_json("/readyz").await.1["result"]["upstream"], "up");

    stop.send(()).unwrap();
    // Past the TTLs, and the CMS gone: its port refuses connections.
    app.clock.advance(Duration::from_millis(400));
    assert!(
        until(Duration::from_secs(5), || async {
            tokio::net::TcpStream::connect(cms).await.is_err()
        })
        .await,
        "the CMS stopped listening"
    );

    for path in cached {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["x-cache"], "STALE", "{path}");
    }
    let (status, body) = app.get_json("/portal/api/article/detail?id=2102").await;
    assert!(
        matches!(status.as_u16(), 502 | 504),
        "an uncached page: {status} {body}"
    );
    assert!(
        body["code"].as_i64().is_some() && body["msg"].as_str().is_some(),
        "{body}"
    );

    let (status, body) = app.get_json("/readyz").await;
    assert_eq!(status, 200, "ready through the outage: {body}");
    assert_eq!(body["result"]["upstream"], "down");
    // (`portal_upstream_up` is one gauge for the whole test process, which other tests set
    // meanwhile: it is checked where a gateway has a process of its own, in
    // `operations::a_cms_echoing_its_query_credential_puts_it_in_no_log_answer_or_metric`.)
}

fn tree(name: &str) -> serde_json::Value {
    json!({"code": 200, "result": {"content": [{"id": 1, "parentId": 0, "name": name, "url": "/about", "sort": 1}]}})
}

#[tokio::test]
async fn empty_answers_are_passed_on_but_never_cached_nor_put_in_place_of_good_ones() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        c.cache.default_ttl = Duration::from_millis(200);
        c.cache.stale_while_revalidate = Duration::ZERO;
    })
    .await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!(
        (status.as_u16(), &body["result"]["content"][0]["name"]),
        (200, &json!("甲"))
    );

    fake.set(Reply::Empty(200));
    app.clock.advance(Duration::from_millis(300));
    // Past its TTL the refresh gets nothing: the good answer stays.
    let response = app.get("/portal/api/category/list").await;
    assert_eq!(response.headers()["x-cache"], "STALE");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["result"]["content"][0]["name"], "甲");

    // A key with nothing cached: the empty answer is passed on, and asked again next time.
    let calls = || {
        fake.seen()
            .iter()
            .filter(|s| s.path.ends_with("article/list"))
            .count()
    };
    for round in 1..=2 {
        let response = app.get("/portal/api/article/list?categoryId=9").await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["x-cache"], "MISS", "round {round}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["result"]["content"], json!([]), "{body}");
        assert_eq!(calls(), round, "never cached");
    }
    // A null payload counts as empty too.
    fake.set(Reply::Json(200, json!({"code": 200, "result": null})));
    app.get("/portal/api/article/list?categoryId=9").await;
    app.get("/portal/api/article/list?categoryId=9").await;
    assert_eq!(calls(), 4);
}

/// Each hostile CMS answer in turn: the gateway answers in the envelope (or serves the good
/// cached answer), does not hang, stays healthy, and follows no redirect.
#[tokio::test]
async fn after_each_hostile_cms_answer_the_gateway_is_healthy_and_serves_the_good_entry() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        c.cache.default_ttl = Duration::from_millis(100);
        c.cache.stale_while_revalidate = Duration::ZERO;
    })
    .await;
    assert_eq!(app.get_json("/portal/api/category/list").await.0, 200);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let wrong_types = json!({"code": 200, "result": {"content": [{"id": "seven", "name": ["x"], "subCategory": "no"}]}});
    let hostile = [
        (
            "stalls past the time-out",
            Reply::Slow(Duration::from_secs(3)),
        ),
        ("drops mid-body", Reply::Truncated),
        (
            "a 10 MB body",
            Reply::Bytes(200, "application/json", vec![b' '; 10 * 1024 * 1024]),
        ),
        (
            "malformed JSON",
            Reply::Raw(200, "application/json", "{\"code\":200,\"result\":"),
        ),
        (
            "JSON nested 100 000 deep",
            Reply::Bytes(200, "application/json", deep.into_bytes()),
        ),
        ("wrong types in every field", Reply::Json(200, wrong_types)),
        (
            "a 500 with an HTML body",
            Reply::Raw(500, "text/html", "<h1>Internal Server Error</h1>"),
        ),
        ("a redirect", Reply::Redirect("/cms/elsewhere")),
        (
            "a 200 with an error envelope",
            Reply::Json(200, json!({"code": 500, "msg": "数据库异常"})),
        ),
    ];
    for (what, reply) in hostile {
        fake.set(reply);
        tokio::time::sleep(Duration::from_millis(150)).await;
        let started = std::time::Instant::now();
        let response = app.get("/portal/api/category/list").await;
        assert_eq!(response.status(), 200, "{what}");
        assert_eq!(response.headers()["x-cache"], "STALE", "{what}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["result"]["content"][0]["name"], "甲", "{what}");
        let (status, body) = app.get_json("/portal/api/article/list?categoryId=3").await;
        assert!(
            matches!(status.as_u16(), 500 | 502 | 503 | 504),
            "{what}: {status} {body}"
        );
        assert!(
            body["msg"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}: {body}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{what}: no hang"
        );
        assert_eq!(app.get("/healthz").await.status(), 200, "{what}");
    }
    assert!(
        fake.seen().iter().all(|s| !s.path.contains("elsewhere")),
        "the redirect was not followed"
    );
}

/// The upstream time-out bounds the wait for a file's headers and any pause in its body, not the
/// whole download: a video that takes longer than the time-out to stream, but keeps moving,
/// arrives whole.
#[tokio::test]
async fn a_long_download_that_keeps_moving_outlives_the_time_out() {
    // 800 ms time-out (helpers); 8 pieces 250 ms apart: 1.75 s in all.
    let (app, _fake) = spawn_with_fake(
        Reply::Trickle {
            chunks: 8,
            gap: Duration::from_millis(250),
        },
        |_| {},
    )
    .await;
    let response = app.get("/portal/api/files/videos/long.webm").await;
    assert_eq!(response.status(), 200);
    let body = response.bytes().await.expect("the whole file");
    assert_eq!(body.len(), 8 * 1024);
}

#[tokio::test]
async fn a_download_stalled_past_the_time_out_is_cut_not_left_hanging() {
    let (app, _fake) = spawn_with_fake(
        Reply::Trickle {
            chunks: 2,
            gap: Duration::from_secs(3),
        },
        |_| {},
    )
    .await;
    let response = app.get("/portal/api/files/videos/stalled.webm").await;
    assert_eq!(response.status(), 200, "the headers came in time");
    let body = tokio::time::timeout(Duration::from_secs(2), response.bytes())
        .await
        .expect("cut within the time-out, not after the CMS's 3 s stall");
    assert!(body.is_err(), "a cut body is an error, never a short file");
    // Serving goes on.
    assert_eq!(app.get_json("/readyz").await.0, 200);
}

/// A CMS that answers every request on a keep-alive connection and counts the connections it
/// accepted.
async fn counting_cms() -> (
    std::net::SocketAddr,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    use std::sync::{Arc, atomic::AtomicUsize, atomic::Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let body = r#"{"code":200,"msg":"ok","result":{"content":[{"id":2,"parentId":0,"name":"新闻中心","url":"/news_center","sort":1,"subCategory":[]}]}}"#;
                let mut seen = Vec::new();
                let mut buf = [0u8; 4096];
                loop {
                    let Ok(n) = socket.read(&mut buf).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    seen.extend_from_slice(&buf[..n]);
                    while let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
                        seen.drain(..end + 4);
                        let answer = format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        if socket.write_all(answer.as_bytes()).await.is_err() {
                            return;
                        }
                    }
                }
            });
        }
    });
    (addr, accepted)
}

/// The gateway lets an idle connection to the CMS go after `upstream.pool_idle_timeout` (4 s by
/// default, under Node.js's 5 s keep-alive: a connection the CMS is closing is never reused), and
/// reuses one that is fresher.
#[tokio::test]
async fn an_idle_connection_to_the_cms_is_let_go_after_the_pool_idle_timeout() {
    use std::sync::atomic::Ordering;
    assert_eq!(
        portal_web::Config::from_toml_str(&config_toml("http://127.0.0.1:1/", &static_dir(), ""))
            .unwrap()
            .upstream
            .pool_idle_timeout,
        Duration::from_secs(4)
    );
    for (idle, wait, connections) in [(300, 900, 2), (30_000, 900, 1)] {
        let (cms, accepted) = counting_cms().await;
        let mut config = config_for(&format!("http://{cms}/"), &static_dir(), |c| {
            c.cache.enabled = false;
        });
        config.upstream.pool_idle_timeout = Duration::from_millis(idle);
        let app = spawn_app(config).await;
        for _ in 0..2 {
            let (status, body) = app.get_json("/portal/api/category/list").await;
            assert_eq!(status, 200, "{body}");
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
        assert_eq!(
            accepted.load(Ordering::SeqCst),
            connections,
            "pool_idle_timeout = {idle} ms"
        );
    }
}
