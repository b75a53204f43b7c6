//! The operator's view into the cache (`GET /portal/admin/cache`) and the `portal-gateway cache`
//! commands, against a real gateway and reference-cms on loopback.

use std::time::Duration;

use portal_web::config::TtlOverride;
use serde_json::Value;
use tokio::process::Command;

use crate::helpers::*;

const TOKEN: &str = "view-token-0123456789";

/// A gateway in front of reference-cms, limits open, with `change`.
async fn gateway(change: impl FnOnce(&mut Config)) -> TestApp {
    let cms = spawn_reference_cms().await;
    spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        open_limits(c);
        change(c);
    }))
    .await
}

/// The admin token set.
fn with_token(config: &mut Config) {
    config.admin.token = Some(TOKEN.into());
}

async fn view(app: &TestApp, query: &str, auth: Option<&str>) -> (u16, Value) {
    let mut request = app
        .client
        .get(app.url(&format!("/portal/admin/cache{query}")));
    if let Some(auth) = auth {
        request = request.header("authorization", auth.to_owned());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.expect("an envelope"))
}

#[tokio::test]
async fn the_admin_cache_view_is_refused_without_the_token() {
    let off = gateway(|_| {}).await;
    let (status, body) = view(&off, "", Some(&format!("Bearer {TOKEN}"))).await;
    assert_eq!(
        (status, body["code"].as_i64()),
        (404, Some(404)),
        "off without a token"
    );
    let app = gateway(with_token).await;
    for (query, wrong) in [
        ("", None),
        ("", Some("Bearer wrong-token-0123456789")),
        ("?key=category/list", Some("Bearer view-token-012345678")),
        ("?key=category/list", Some(TOKEN)),
    ] {
        let (status, body) = view(&app, query, wrong).await;
        assert_eq!(
            (status, body["code"].as_i64()),
            (401, Some(401)),
            "{wrong:?}"
        );
        assert!(body["result"].is_null(), "nothing of the cache is said");
    }
    let (status, _) = view(&app, "", Some(&format!("Bearer {TOKEN}"))).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_cache_view_says_what_each_endpoint_holds_with_its_effective_ttl() {
    let app = gateway(|c| {
        with_token(c);
        set_ttl(c, "article/detail", Duration::from_secs(90));
        c.cache.overrides = vec![TtlOverride {
            pattern: "article/detail?id=21*".to_owned(),
            ttl: Duration::from_secs(7),
        }];
    })
    .await;
    let auth = format!("Bearer {TOKEN}");
    for _ in 0..2 {
        assert_eq!(app.get("/portal/api/category/list").await.status(), 200);
        assert_eq!(
            app.get("/portal/api/article/detail?id=2101").await.status(),
            200
        );
    }
    let (status, body) = view(&app, "", Some(&auth)).await;
    assert_eq!(status, 200);
    let result = &body["result"];
    let line = |name: &str| {
        result["endpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["endpoint"] == name)
            .unwrap_or_else(|| panic!("no line for {name}: {result}"))
            .clone()
    };
    let detail = line("article/detail");
    assert_eq!(detail["entries"], 1);
    assert!(detail["bytes"].as_u64().unwrap() > 100);
    assert!(detail["hits"].as_u64().unwrap() >= 1 && detail["misses"].as_u64().unwrap() >= 1);
    assert_eq!(
        detail["ttl"][0]["seconds"], 90,
        "the endpoint's TTL from [cache] ttl"
    );
    assert_eq!(detail["overrides"][0]["of"], "article/detail?id=21*");
    assert_eq!(line("category/list")["entries"], 1);
    for kind in ["crawl", "page", "article/list", "article/search"] {
        line(kind);
    }
    assert!(result["totals"]["entries"].as_u64().unwrap() >= 2);
    assert_eq!(result["shared"]["configured"], false);

    // One entry: the override's TTL, not the endpoint's. Its gzip is made on first demand: a
    // client that takes gzip alone has asked for it.
    let gzip_only = app
        .client
        .get(app.url("/portal/api/article/detail?id=2101"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(gzip_only.headers()["content-encoding"], "gzip");
    let (status, body) = view(&app, "?key=article/detail?id%3D2101", Some(&auth)).await;
    assert_eq!(status, 200, "{body}");
    let entry = &body["result"];
    assert_eq!(entry["ttlSeconds"], 7);
    assert!(entry["freshForSeconds"].as_f64().unwrap() <= 7.0);
    assert!(
        entry["tags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "article:2101"),
        "{entry}"
    );
    let encodings: Vec<&str> = entry["encodings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["encoding"].as_str().unwrap())
        .collect();
    assert_eq!(encodings, ["identity", "gzip", "br"]);
    assert_eq!(entry["loadedFrom"], "cms");
    assert_eq!(entry["inMemory"], true);

    let (status, body) = view(&app, "?key=article/detail?id%3D999", Some(&auth)).await;
    assert_eq!((status, body["code"].as_i64()), (404, Some(404)));
}

async fn cli(app: &TestApp, token_file: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_portal-gateway"))
        .args(["--config", "/nonexistent/gateway.toml", "cache"])
        .args(args)
        .args(["--url", &format!("http://{}", app.addr)])
        .arg("--token-file")
        .arg(token_file)
        .env_remove("PORTAL__ADMIN__TOKEN")
        .env_remove("PORTAL_ADMIN_TOKEN")
        .output()
        .await
        .expect("the gateway binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_cache_commands_read_and_purge_a_running_gateway() {
    let app = gateway(with_token).await;
    assert_eq!(app.get("/portal/api/category/list").await.status(), 200);
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("token");
    std::fs::write(&good, format!("{TOKEN}\n")).unwrap();
    let bad = dir.path().join("bad");
    std::fs::write(&bad, "wrong-token-0123456789\n").unwrap();

    let (code, out, err) = cli(&app, &good, &["stats"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("ENDPOINT") && out.contains("category/list"),
        "{out}"
    );
    assert!(out.contains("shared tier: not configured"), "{out}");
    assert!(
        !out.contains(TOKEN) && !err.contains(TOKEN),
        "the token is never printed"
    );

    let (code, out, _) = cli(&app, &good, &["show", "category/list", "--json"]).await;
    assert_eq!(code, 0);
    let envelope: Value = serde_json::from_str(&out).expect("--json prints the envelope");
    assert_eq!(envelope["result"]["key"], "category/list");
    let (code, out, _) = cli(&app, &good, &["show", "category/list"]).await;
    assert_eq!(code, 0);
    assert!(
        out.contains("loaded from") && out.contains("identity"),
        "{out}"
    );

    let (code, _, err) = cli(&app, &good, &["show", "article/detail?id=424242"]).await;
    assert_eq!(code, 1, "an unknown key: {err}");
    assert!(err.contains("404"), "{err}");

    let (code, _, err) = cli(&app, &bad, &["stats"]).await;
    assert_eq!(code, 77, "a refused token: {err}");
    assert!(
        err.contains("管理令牌被拒绝") && err.contains("refused"),
        "{err}"
    );

    let (code, out, err) = cli(&app, &good, &["purge", "--prefix", "category/", "--hard"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("purged 1 entries") && out.contains("hard"),
        "{out}"
    );
    let cache = app.get("/portal/api/category/list").await;
    assert_eq!(
        cache.headers()["x-cache"],
        "MISS",
        "the hard purge deleted it"
    );

    // Unreachable: a port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let out = Command::new(env!("CARGO_BIN_EXE_portal-gateway"))
        .args(["--config", "/nonexistent/gateway.toml", "cache", "stats"])
        .args(["--url", &format!("http://127.0.0.1:{port}")])
        // The command's old name for the token still works, with a word about the new one.
        .env_remove("PORTAL__ADMIN__TOKEN")
        .env("PORTAL_ADMIN_TOKEN", TOKEN)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("连接不上网关") && err.contains("unreachable"),
        "{err}"
    );
    assert!(err.contains("old name of PORTAL__ADMIN__TOKEN"), "{err}");

    // No --url and a config that cannot be read: an error naming both, never a guessed address.
    let out = Command::new(env!("CARGO_BIN_EXE_portal-gateway"))
        .args(["--config", "/nonexistent/gateway.toml", "cache", "purge"])
        .env("PORTAL__ADMIN__TOKEN", TOKEN)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(78));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("读不到配置")
            && err.contains("--url")
            && err.contains("/nonexistent/gateway.toml"),
        "{err}"
    );
}
