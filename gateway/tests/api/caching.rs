//! The cache, the limits, purge, reload and metrics, against a counting upstream.

use std::time::Duration;

use portal_web::{Application, Config, config::TtlOverride};
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::helpers::*;

fn tree(name: &str) -> Value {
    json!({"code": 200, "result": {"content": [{"id": 1, "parentId": 0, "name": name, "url": "/about", "sort": 1}]}})
}

fn page(title: &str) -> Value {
    json!({"code": 200, "result": {"content": [{"id": 7, "title": title}], "totalElements": 1, "totalPages": 1, "number": 0, "size": 10}})
}

async fn get(app: &TestApp, path: &str) -> (u16, String, Value, reqwest::header::HeaderMap) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let cache = headers
        .get("x-cache")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, cache, body, headers)
}

fn upstream_calls(fake: &FakeUpstream, path: &str) -> usize {
    fake.seen().iter().filter(|s| s.path == path).count()
}

#[tokio::test]
async fn five_hundred_concurrent_misses_make_one_upstream_call() {
    let (app, fake) = spawn_with_fake(
        Reply::Delayed(Duration::from_millis(300), tree("甲")),
        open_limits,
    )
    .await;
    let app = std::sync::Arc::new(app);
    let mut tasks = Vec::new();
    for _ in 0..500 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            get(&app, "/portal/api/category/list").await
        }));
    }
    let mut outcomes = std::collections::HashMap::<String, usize>::new();
    for task in tasks {
        let (status, cache, body, _) = task.await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(body["result"]["content"][0]["name"], "甲");
        *outcomes.entry(cache).or_default() += 1;
    }
    assert_eq!(
        upstream_calls(&fake, "/cms/category/list"),
        1,
        "{outcomes:?}"
    );
    let (_, cache, _, _) = get(&app, "/portal/api/category/list").await;
    assert_eq!(cache, "HIT");
    assert_eq!(upstream_calls(&fake, "/cms/category/list"), 1);
}

#[tokio::test]
async fn visitors_waiting_on_a_hung_upstream_get_a_time_out_not_a_hang() {
    // The CMS takes 10 s; the test config allows it 800 ms.
    let (app, fake) = spawn_with_fake(Reply::Slow(Duration::from_secs(10)), open_limits).await;
    let app = std::sync::Arc::new(app);
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            get(&app, "/portal/api/category/list").await
        }));
    }
    // Far below the CMS's 10 s: every waiter gives up with the caller that made the call.
    let all = tokio::time::timeout(Duration::from_secs(5), futures_join(tasks))
        .await
        .expect("waiters gave up instead of hanging on the CMS");
    for (status, _, body, _) in all {
        assert_eq!((status, body["code"].as_i64()), (504, Some(408)));
    }
    assert_eq!(upstream_calls(&fake, "/cms/category/list"), 1);
    // The time-out was not cached: the next visitor tries the CMS again.
    fake.set(Reply::Json(200, tree("恢复")));
    let (status, cache, body, _) = get(&app, "/portal/api/category/list").await;
    assert_eq!((status, cache.as_str()), (200, "MISS"));
    assert_eq!(body["result"]["content"][0]["name"], "恢复");
}

async fn futures_join<T>(tasks: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::with_capacity(tasks.len());
    for task in tasks {
        out.push(task.await.unwrap());
    }
    out
}

#[tokio::test]
async fn stale_is_served_while_the_upstream_is_down_and_replaced_after() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, tree("旧")), |c| {
        open_limits(c);
        c.cache.default_ttl = Duration::from_millis(200);
        c.cache.stale_while_revalidate = Duration::ZERO;
        c.cache.stale_if_error = Duration::from_secs(60);
    })
    .await;
    let (_, cache, body, _) = get(&app, "/portal/api/category/list").await;
    assert_eq!(
        (
            cache.as_str(),
            body["result"]["content"][0]["name"].as_str()
        ),
        ("MISS", Some("旧"))
    );

    app.clock.advance(Duration::from_millis(300));
    fake.set(Reply::Raw(500, "text/html", "<h1>down</h1>"));
    let (status, cache, body, _) = get(&app, "/portal/api/category/list").await;
    assert_eq!((status, cache.as_str()), (200, "STALE"));
    assert_eq!(body["result"]["content"][0]["name"], "旧");

    fake.set(Reply::Json(200, tree("新")));
    let (status, cache, body, _) = get(&app, "/portal/api/category/list").await;
    assert_eq!((status, cache.as_str()), (200, "MISS"));
    assert_eq!(body["result"]["content"][0]["name"], "新");
    let (_, cache, _, _) = get(&app, "/portal/api/category/list").await;
    assert_eq!(cache, "HIT");
}

#[tokio::test]
async fn errors_are_never_cached_as_successes() {
    let (app, fake) =
        spawn_with_fake(Reply::Raw(502, "text/html", "<h1>bad</h1>"), open_limits).await;
    let (status, cache, _, headers) = get(&app, "/portal/api/article/list?categoryId=1").await;
    assert_eq!((status, cache.as_str()), (502, "MISS"));
    assert_eq!(headers["cache-control"], "no-store");
    let (status, _, _, _) = get(&app, "/portal/api/article/list?categoryId=1").await;
    assert_eq!(status, 502);
    assert_eq!(
        upstream_calls(&fake, "/cms/article/list"),
        2,
        "a failure is asked again"
    );
    fake.set(Reply::Json(200, page("恢复")));
    let (status, _, body, _) = get(&app, "/portal/api/article/list?categoryId=1").await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["content"][0]["title"], "恢复");
}

#[tokio::test]
async fn stale_while_revalidate_answers_at_once_and_refreshes_once() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, page("第一版")), |c| {
        open_limits(c);
        c.cache.default_ttl = Duration::from_secs(1);
        c.cache.stale_while_revalidate = Duration::from_secs(60);
    })
    .await;
    get(&app, "/portal/api/article/list?categoryId=2").await;
    app.clock.advance(Duration::from_millis(1100));
    fake.set(Reply::Delayed(Duration::from_millis(200), page("第二版")));
    for _ in 0..5 {
        let (_, cache, body, _) = get(&app, "/portal/api/article/list?categoryId=2").await;
        assert_eq!(cache, "STALE");
        assert_eq!(body["result"]["content"][0]["title"], "第一版");
    }
    // The one refresh lands in the background.
    let refreshed = until(Duration::from_secs(5), || async {
        get(&app, "/portal/api/article/list?categoryId=2").await.1 == "HIT"
    })
    .await;
    assert!(refreshed, "the refresh never landed");
    let (_, cache, body, _) = get(&app, "/portal/api/article/list?categoryId=2").await;
    assert_eq!(cache, "HIT");
    assert_eq!(body["result"]["content"][0]["title"], "第二版");
    assert_eq!(
        upstream_calls(&fake, "/cms/article/list"),
        2,
        "one background refresh"
    );
}

#[tokio::test]
async fn per_key_ttl_overrides_are_honoured() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, page("条目")), |c| {
        open_limits(c);
        c.cache.stale_while_revalidate = Duration::ZERO;
        set_ttl(c, "article/list", Duration::from_secs(3600));
        c.cache.overrides = vec![TtlOverride {
            pattern: "article/list?categoryId=23&*".to_owned(),
            ttl: Duration::from_millis(200),
        }];
    })
    .await;
    get(&app, "/portal/api/article/list?categoryId=21").await;
    get(&app, "/portal/api/article/list?categoryId=23").await;
    app.clock.advance(Duration::from_millis(300));
    let (_, busy, _, _) = get(&app, "/portal/api/article/list?categoryId=23").await;
    let (_, calm, _, headers) = get(&app, "/portal/api/article/list?categoryId=21").await;
    assert_eq!((busy.as_str(), calm.as_str()), ("MISS", "HIT"));
    let max_age: u64 = headers["cache-control"]
        .to_str()
        .unwrap()
        .trim_start_matches("public, max-age=")
        .parse()
        .unwrap();
    assert!(
        (3590..=3600).contains(&max_age),
        "browser max-age from the TTL: {max_age}"
    );
    assert_eq!(upstream_calls(&fake, "/cms/article/list"), 3);
}

#[tokio::test]
async fn equivalent_queries_share_one_key() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, page("同一页")), open_limits).await;
    for query in [
        "categoryId=5",
        "categoryId=5&page=1",
        "page=1&size=10&categoryId=5",
        "categoryId=5&categoryId=5&_t=123",
    ] {
        get(&app, &format!("/portal/api/article/list?{query}")).await;
    }
    assert_eq!(upstream_calls(&fake, "/cms/article/list"), 1);
}

#[tokio::test]
async fn etag_revalidation_and_encodings_come_from_the_entry() {
    let (app, _fake) =
        spawn_with_fake(Reply::Json(200, tree(&"栏目".repeat(100))), open_limits).await;
    let (_, _, body, headers) = get(&app, "/portal/api/category/list").await;
    let etag = headers["etag"].clone();
    let response = app
        .client
        .get(app.url("/portal/api/category/list"))
        .header("if-none-match", etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 304);
    assert_eq!(response.headers()["x-cache"], "HIT");
    for encoding in ["br", "gzip"] {
        let response = app
            .client
            .get(app.url("/portal/api/category/list"))
            .header("accept-encoding", encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(response.headers()["content-encoding"], encoding);
        // Each encoding its own strong validator, revalidating the same content.
        let variant = response.headers()["etag"].clone();
        assert_ne!(variant, etag);
        assert_eq!(
            variant.to_str().unwrap(),
            format!(
                "{}-{encoding}\"",
                etag.to_str().unwrap().trim_end_matches('"')
            )
        );
        let raw = response.bytes().await.unwrap();
        let decoded = match encoding {
            "gzip" => {
                let mut out = String::new();
                std::io::Read::read_to_string(
                    &mut flate2::read::GzDecoder::new(&raw[..]),
                    &mut out,
                )
                .unwrap();
                out
            }
            _ => {
                let mut out = Vec::new();
                brotli::BrotliDecompress(&mut &raw[..], &mut out).unwrap();
                String::from_utf8(out).unwrap()
            }
        };
        assert_eq!(serde_json::from_str::<Value>(&decoded).unwrap(), body);
    }
}

#[tokio::test]
async fn not_found_is_cached_briefly_and_tokens_bypass_the_cache() {
    let (app, fake) = spawn_with_fake(
        Reply::Json(200, json!({"code": 404, "msg": "文章不存在"})),
        open_limits,
    )
    .await;
    for expected in ["MISS", "HIT"] {
        let (status, cache, body, _) = get(&app, "/portal/api/article/detail?id=404").await;
        assert_eq!((status, cache.as_str()), (404, expected));
        assert_eq!(body["msg"], "文章不存在");
    }
    assert_eq!(upstream_calls(&fake, "/cms/article/detail"), 1);
    // A CMS whose "not found" is in English: visitors read the portal's own words.
    fake.set(Reply::Json(404, json!({"code": 404, "msg": "Not Found"})));
    let (status, _, body, _) = get(&app, "/portal/api/article/detail?id=405").await;
    assert_eq!(status, 404);
    assert_eq!(body["msg"], "文章 405 不存在。");

    fake.set(Reply::Json(200, page("私人")));
    for _ in 0..2 {
        let response = app
            .get_as("/portal/api/article/list?categoryId=9", "visitor-token")
            .await;
        assert_eq!(response.headers()["x-cache"], "BYPASS");
        assert_eq!(response.headers()["cache-control"], "private, no-store");
    }
    assert_eq!(upstream_calls(&fake, "/cms/article/list"), 2);
}

#[tokio::test]
async fn guessing_the_admin_token_meets_the_client_limit() {
    let (app, _fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        c.limits.per_client_per_second = 1;
        c.limits.per_client_burst = 2;
        c.admin.token = Some("purge-token-0123456789".into());
    })
    .await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let response = app
            .client
            .post(app.url("/portal/admin/cache/purge"))
            .header("authorization", "Bearer guess-0123456789abcdef")
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses, [401, 401, 429]);
}

#[tokio::test]
async fn purge_needs_the_admin_token() {
    let token = "purge-token-0123456789";
    let (app, fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        open_limits(c);
        c.admin.token = Some(token.into());
    })
    .await;
    get(&app, "/portal/api/category/list").await;
    let purge = |auth: Option<&str>, query: &str| {
        let mut request = app
            .client
            .post(app.url(&format!("/portal/admin/cache/purge{query}")));
        if let Some(auth) = auth {
            request = request.header("authorization", auth.to_owned());
        }
        request.send()
    };
    for wrong in [
        None,
        Some("Bearer wrong-token-0123456789"),
        Some("Bearer purge-token-012345678"),
    ] {
        let response = purge(wrong, "").await.unwrap();
        assert_eq!(response.status(), 401);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], 401);
    }
    assert_eq!(get(&app, "/portal/api/category/list").await.1, "HIT");
    let response = purge(Some(&format!("Bearer {token}")), "?prefix=article/")
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        get(&app, "/portal/api/category/list").await.1,
        "HIT",
        "another prefix stays"
    );
    // Soft by default: served stale while one refresh runs.
    let response = purge(Some(&format!("Bearer {token}")), "").await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(get(&app, "/portal/api/category/list").await.1, "STALE");
    let refreshed = until(Duration::from_secs(5), || async {
        get(&app, "/portal/api/category/list").await.1 == "HIT"
    })
    .await;
    assert!(refreshed, "the refresh after a soft purge never landed");
    assert_eq!(upstream_calls(&fake, "/cms/category/list"), 2);
    // Hard: deleted, the next request a miss.
    let response = purge(Some(&format!("Bearer {token}")), "?hard=true")
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(get(&app, "/portal/api/category/list").await.1, "MISS");
    assert_eq!(upstream_calls(&fake, "/cms/category/list"), 3);
    for bad in ["?tag=user:1", "?hard=maybe"] {
        let response = purge(Some(&format!("Bearer {token}")), bad).await.unwrap();
        assert_eq!(response.status(), 400, "{bad}");
    }
    // A GET says what the purge takes.
    let wrong = app
        .client
        .get(app.url("/portal/admin/cache/purge"))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 405);
    assert_eq!(wrong.headers()["allow"], "POST");
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(body["msg"], "此地址只支持 POST 请求。");
}

#[tokio::test]
async fn purge_is_off_without_a_token() {
    let (app, _fake) = spawn_with_fake(Reply::Json(200, tree("甲")), open_limits).await;
    let response = app
        .client
        .post(app.url("/portal/admin/cache/purge"))
        .header("authorization", "Bearer anything-at-all-here")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
}

#[tokio::test]
async fn a_reload_changes_a_ttl_and_an_invalid_file_is_refused() {
    let fake = FakeUpstream::start(Reply::Json(200, tree("甲"))).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    let write = |ttl: &str, company: &str| {
        let extra = format!(
            "{OPEN_LIMITS_TOML}[cache]\nstale_while_revalidate = \"0s\"\nttl = {{ \"category/list\" = \"{ttl}\" }}\n[site]\ncompany_name = \"{company}\"\n"
        );
        std::fs::write(&file, config_toml(&fake.base_url(), &static_dir(), &extra)).unwrap();
    };
    write("1h", "甲公司");
    let config = Config::load(&file).unwrap();
    let app = Application::build_with_file(config, Some(file.clone()))
        .await
        .unwrap();
    let addr = app.local_addr();
    let state = app.state();
    let (_stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    let client = crate::helpers::client();
    let fetch = |path: &'static str| {
        let client = client.clone();
        async move {
            let r = client
                .get(format!("http://{addr}{path}"))
                .send()
                .await
                .unwrap();
            let cache = r
                .headers()
                .get("x-cache")
                .map(|v| v.to_str().unwrap().to_owned());
            (cache, r.json::<Value>().await.unwrap())
        }
    };
    assert_eq!(
        fetch("/portal/api/category/list").await.0.as_deref(),
        Some("MISS")
    );
    assert_eq!(
        fetch("/portal/api/category/list").await.0.as_deref(),
        Some("HIT")
    );

    write("100ms", "乙公司");
    let mut reloaded = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if fetch("/portal/api/site").await.1["result"]["companyName"] == "乙公司" {
            reloaded = true;
            break;
        }
    }
    assert!(reloaded, "the edited file was picked up");
    state.cache.clock().advance(Duration::from_millis(150));
    assert_eq!(
        fetch("/portal/api/category/list").await.0.as_deref(),
        Some("MISS"),
        "the new, shorter TTL applies"
    );

    // Refused, whoever reads it (the watcher reads it too, with the same outcome).
    std::fs::write(&file, "[upstream]\nbase_url = 'not a url'\n").unwrap();
    assert!(state.reload().is_err(), "an invalid file is refused");
    assert_eq!(
        fetch("/portal/api/site").await.1["result"]["companyName"],
        "乙公司",
        "the old config stays"
    );

    // A valid file whose static_dir holds no app (a wrong path in a ConfigMap): refused too, so
    // the pages go on rather than every replica answering 404 and leaving service.
    let extra = format!("{OPEN_LIMITS_TOML}[site]\ncompany_name = \"丙公司\"\n");
    std::fs::write(
        &file,
        config_toml(&fake.base_url(), &dir.path().join("no-such-build"), &extra),
    )
    .unwrap();
    assert!(
        state.reload().is_err(),
        "a build-less static_dir is refused"
    );
    assert_eq!(
        fetch("/portal/api/site").await.1["result"]["companyName"],
        "乙公司",
        "the old config stays"
    );
    let page = client
        .get(format!("http://{addr}/portal/"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200, "the app is still served");
}

#[tokio::test]
async fn one_address_is_limited_while_another_is_served() {
    let (app, _fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        c.limits.per_client_per_second = 1;
        c.limits.per_client_burst = 2;
        c.limits.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    })
    .await;
    let from = |ip: &'static str| {
        app.client
            .get(app.url("/portal/api/category/list"))
            .header("x-forwarded-for", ip)
            .send()
    };
    assert_eq!(from("203.0.113.1").await.unwrap().status(), 200);
    assert_eq!(from("203.0.113.1").await.unwrap().status(), 200);
    let refused = from("203.0.113.1").await.unwrap();
    assert_eq!(refused.status(), 429);
    let retry: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], 429);
    assert_eq!(
        from("203.0.113.2").await.unwrap().status(),
        200,
        "another client is served"
    );
    // Files are exempt from the per-client limit.
    assert_ne!(
        app.client
            .get(app.url("/portal/api/files/a.svg"))
            .header("x-forwarded-for", "203.0.113.1")
            .send()
            .await
            .unwrap()
            .status(),
        429
    );
}

#[tokio::test]
async fn each_connection_counts_against_its_own_peer_address() {
    // No trusted proxies: the connection's own address is the client, whatever it forwards.
    let (app, _fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        c.limits.per_client_per_second = 1;
        c.limits.per_client_burst = 2;
    })
    .await;
    // Loopback answers on every 127.x address, so two clients can have two peer addresses.
    let client_from = |last: u8| {
        crate::helpers::client_builder()
            .local_address(std::net::IpAddr::from([127, 0, 0, last]))
            .build()
            .unwrap()
    };
    let (a, b) = (client_from(2), client_from(3));
    let url = app.url("/portal/api/category/list");
    let status = |client: &reqwest::Client, forwarded: &'static str| {
        let request = client.get(&url).header("x-forwarded-for", forwarded);
        async move { request.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(status(&a, "203.0.113.1").await, 200);
    assert_eq!(status(&a, "203.0.113.2").await, 200);
    assert_eq!(
        status(&a, "203.0.113.3").await,
        429,
        "a forged X-Forwarded-For from an untrusted peer changes nothing"
    );
    assert_eq!(
        status(&b, "203.0.113.1").await,
        200,
        "another peer address is served"
    );
}

#[tokio::test]
async fn the_upstream_ceiling_protects_the_cms() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, page("甲")), |c| {
        c.limits.upstream_per_second = 1;
        c.limits.upstream_burst = 1;
    })
    .await;
    assert_eq!(
        get(&app, "/portal/api/article/list?categoryId=1").await.0,
        200
    );
    let (status, _, body, headers) = get(&app, "/portal/api/article/list?categoryId=2").await;
    assert_eq!((status, body["code"].as_i64()), (429, Some(429)));
    assert!(headers.contains_key("retry-after"));
    assert_eq!(
        get(&app, "/portal/api/article/list?categoryId=1").await.1,
        "HIT",
        "cached answers still flow"
    );
    assert_eq!(upstream_calls(&fake, "/cms/article/list"), 1);
}

#[tokio::test]
async fn metrics_are_exposed_for_prometheus() {
    let (app, _fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        c.limits.per_client_per_second = 1;
        c.limits.per_client_burst = 2;
    })
    .await;
    for _ in 0..3 {
        get(&app, "/portal/api/category/list").await;
    }
    let text = app.get("/metrics").await.text().await.unwrap();
    for needle in [
        "portal_requests_total{route=\"category/list\",code=\"200\"}",
        "portal_requests_total{route=\"category/list\",code=\"429\"}",
        "portal_cache_total{endpoint=\"category/list\",result=\"hit\"}",
        "portal_cache_total{endpoint=\"category/list\",result=\"miss\"}",
        "portal_request_duration_seconds_bucket{route=\"category/list\",le=",
        "# HELP portal_cache_total ",
        "# HELP portal_requests_total ",
        "# TYPE portal_ready gauge",
        "process_resident_memory_bytes ",
        "process_open_fds ",
        "process_start_time_seconds ",
        "portal_upstream_duration_seconds_bucket{endpoint=\"category/list\",outcome=\"ok\"",
        "portal_rate_limited_total{limit=\"client\"}",
    ] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
    // Label values are lowercase (the X-Cache header keeps HIT/MISS/STALE/BYPASS).
    assert!(!text.contains("result=\"HIT\""), "{text}");
    // Every family says what it is.
    for line in text.lines().filter(|l| l.starts_with("# TYPE ")) {
        let family = line.split_whitespace().nth(2).unwrap();
        assert!(
            text.contains(&format!("# HELP {family} ")),
            "no # HELP for {family}"
        );
    }
}

#[tokio::test]
async fn answers_say_what_the_cache_did_in_cache_status_and_age() {
    let (app, fake) = spawn_with_fake(Reply::Json(200, tree("甲")), |c| {
        open_limits(c);
        set_ttl(c, "category/list", Duration::from_secs(3));
        c.cache.stale_while_revalidate = Duration::from_secs(30);
    })
    .await;
    let path = "/portal/api/category/list";
    let header = |h: &reqwest::header::HeaderMap, name: &str| {
        h.get(name).map(|v| v.to_str().unwrap().to_owned())
    };
    let (_, _, _, miss) = get(&app, path).await;
    assert_eq!(
        header(&miss, "cache-status").as_deref(),
        Some("portal-gateway; fwd=uri-miss")
    );
    assert_eq!(header(&miss, "age").as_deref(), Some("0"));
    app.clock.advance(Duration::from_millis(1100));
    let (_, _, _, hit) = get(&app, path).await;
    let status = header(&hit, "cache-status").unwrap();
    assert!(
        status == "portal-gateway; hit; ttl=1" || status == "portal-gateway; hit; ttl=2",
        "{status}"
    );
    assert_eq!(header(&hit, "age").as_deref(), Some("1"));
    app.clock.advance(Duration::from_millis(3000));
    let (_, cache, _, stale) = get(&app, path).await;
    assert_eq!(cache, "STALE");
    assert!(
        header(&stale, "cache-status")
            .unwrap()
            .starts_with("portal-gateway; fwd=stale; ttl=-"),
        "{stale:?}"
    );
    let age: u64 = header(&stale, "age").unwrap().parse().unwrap();
    assert!((4..=5).contains(&age), "{age}");
    let _ = fake;
    let (_, _, _, bypass) = {
        let response = app.get_as(path, "visitor-token-1").await;
        let headers = response.headers().clone();
        (0, String::new(), Value::Null, headers)
    };
    assert_eq!(
        header(&bypass, "cache-status").as_deref(),
        Some("portal-gateway; fwd=bypass")
    );
}
