//! What reaches the upstream: the credential, the token pass-through, the whitelist.

use base64::Engine;
use portal_web::config::AuthStyle;
use serde_json::json;

use crate::helpers::*;

/// The secret sent as the query parameter `key` (Ghost's `?key=`).
fn in_the_query(config: &mut Config) {
    config.upstream.auth = AuthStyle::Query;
    config.upstream.auth_name = "key".to_owned();
}

fn ok_page() -> Reply {
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": [], "totalElements": 0, "totalPages": 0, "number": 0, "size": 10}}),
    )
}

#[tokio::test]
async fn every_call_carries_the_client_credential() {
    let (app, fake) = spawn_with_fake(ok_page(), |_| {}).await;
    app.get("/portal/api/category/list").await;
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    let seen = fake.last();
    assert_eq!(seen.authorization.as_deref(), Some(expected.as_str()));
    assert_eq!(seen.path, "/cms/category/list");
    assert!(seen.request_id.is_some(), "the request id travels upstream");
}

#[tokio::test]
async fn a_visitor_bearer_token_replaces_the_client_credential() {
    let (app, fake) = spawn_with_fake(ok_page(), |_| {}).await;
    app.get_as("/portal/api/article/list?categoryId=1", "visitor.token-42")
        .await;
    assert_eq!(
        fake.last().authorization.as_deref(),
        Some("Bearer visitor.token-42")
    );

    // A visitor's own Basic credential is never passed on.
    app.client
        .get(app.url("/portal/api/article/list?categoryId=1"))
        .header("authorization", "Basic Z3Vlc3M6Z3Vlc3M=")
        .send()
        .await
        .unwrap();
    assert!(fake.last().authorization.unwrap().contains(
        &base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    ));
}

#[tokio::test]
async fn reference_cms_accepts_a_passed_through_token() {
    let app = spawn_with_reference_cms().await;
    let response = app
        .get_as("/portal/api/category/list", "visitor-token-1")
        .await;
    assert_eq!(response.status(), 200);
    let response = app
        .get_as("/portal/api/category/list", "expired-token")
        .await;
    assert_eq!(response.status(), 401);
}

#[tokio::test]
async fn only_whitelisted_parameters_reach_the_upstream() {
    let (app, fake) = spawn_with_fake(ok_page(), |_| {}).await;
    let (status, _) = app
        .get_json("/portal/api/article/list?categoryId=7&page=3&size=20&_t=123&admin=1&sort=x")
        .await;
    assert_eq!(status, 200);
    let seen = fake.last();
    assert_eq!(seen.path, "/cms/article/list");
    assert_eq!(
        seen.query, "categoryId=7&page=2&size=20",
        "native pages count from 0"
    );
    app.get_json("/portal/api/article/detail?id=5&fields=password")
        .await;
    assert_eq!(fake.last().query, "id=5");
}

#[tokio::test]
async fn page_base_one_is_honoured() {
    let (app, fake) = spawn_with_fake(ok_page(), |c| c.dialect.paging.page_base = 1).await;
    app.get_json("/portal/api/article/list?categoryId=7&page=3")
        .await;
    assert_eq!(fake.last().query, "categoryId=7&page=3&size=10");
}

#[tokio::test]
async fn non_get_methods_never_reach_the_upstream() {
    let (app, fake) = spawn_with_fake(ok_page(), |_| {}).await;
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let response = app
            .client
            .request(method.parse().unwrap(), app.url("/portal/api/article/list"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 405, "{method}");
        assert_eq!(response.headers()["allow"], "GET, HEAD");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["code"], 405);
        assert_eq!(body["msg"], "此地址只支持 GET、HEAD 请求。");
    }
    assert!(fake.seen().is_empty());
}

/// Each credential style of `upstream.auth` reaches the CMS where it says, and a visitor's own
/// token still takes the gateway credential's place.
#[tokio::test]
async fn each_credential_style_reaches_the_cms_as_configured() {
    let (app, fake) = spawn_with_fake(ok_page(), |c| c.upstream.auth = AuthStyle::Bearer).await;
    app.get("/portal/api/category/list").await;
    assert_eq!(
        fake.last().authorization.as_deref(),
        Some(format!("Bearer {CLIENT_SECRET}").as_str())
    );
    app.get_as("/portal/api/article/list?categoryId=1", "visitor.token-42")
        .await;
    assert_eq!(
        fake.last().authorization.as_deref(),
        Some("Bearer visitor.token-42")
    );

    let (app, fake) = spawn_with_fake(ok_page(), |c| {
        c.upstream.auth = AuthStyle::Header;
        c.upstream.auth_name = "X-API-Key".to_owned();
    })
    .await;
    app.get("/portal/api/category/list").await;
    let seen = fake.last();
    assert_eq!(seen.headers["x-api-key"], CLIENT_SECRET);
    assert!(
        seen.authorization.is_none(),
        "no Basic credential besides it"
    );

    let (app, fake) = spawn_with_fake(ok_page(), in_the_query).await;
    app.get("/portal/api/article/list?categoryId=7&page=2")
        .await;
    let seen = fake.last();
    assert!(
        seen.query
            .split('&')
            .any(|p| p == format!("key={CLIENT_SECRET}")),
        "{}",
        seen.query
    );
    assert!(seen.query.contains("categoryId=7"), "{}", seen.query);
    assert!(seen.authorization.is_none());
    // A visitor's token replaces the key too: the CMS answers for that visitor alone.
    app.get_as("/portal/api/article/list?categoryId=7", "visitor.token-42")
        .await;
    let seen = fake.last();
    assert!(!seen.query.contains("key="), "{}", seen.query);
    assert_eq!(
        seen.authorization.as_deref(),
        Some("Bearer visitor.token-42")
    );
}

/// A secret read from a file (a Kubernetes secret mount), its newline dropped; reloaded with the
/// file.
#[tokio::test]
async fn the_secret_comes_from_a_file() {
    let fake = FakeUpstream::start(ok_page()).await;
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("cms-token");
    std::fs::write(&secret, "from-the-file-0123\n").unwrap();
    let toml = config_toml(&fake.base_url(), &static_dir(), "").replace(
        &format!("client_secret = \"{CLIENT_SECRET}\""),
        &format!(
            "auth = \"bearer\"\nclient_secret_file = \"{}\"",
            secret.display()
        ),
    );
    let app = spawn_app(portal_web::Config::from_toml_str(&toml).unwrap()).await;
    app.get("/portal/api/category/list").await;
    assert_eq!(
        fake.last().authorization.as_deref(),
        Some("Bearer from-the-file-0123")
    );
}

/// With the secret in the query string, an unreachable CMS's error (what visitors get, what the
/// log and `check-upstream` say) never carries it.
#[tokio::test]
async fn a_query_credential_never_reaches_an_answer_or_a_report() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/cms/", closed.local_addr().unwrap());
    drop(closed);
    let config = config_for(&base, &static_dir(), in_the_query);
    let report = portal_gateway::check::run(&config).await.unwrap();
    let text = portal_gateway::check::render(&report);
    assert!(!text.contains(CLIENT_SECRET), "{text}");
    assert!(
        !serde_json::to_string(&report)
            .unwrap()
            .contains(CLIENT_SECRET),
        "the JSON report"
    );
    let app = spawn_app(config).await;
    let response = app.get("/portal/api/category/list").await;
    assert_eq!(response.status(), 502);
    assert!(!response.text().await.unwrap().contains(CLIENT_SECRET));
}

/// `check-upstream` names the keys of the configured credential style when the CMS refuses it.
#[tokio::test]
async fn a_refused_token_names_the_token_keys() {
    let fake = FakeUpstream::start(Reply::Json(
        401,
        json!({"message": "Missing or invalid credentials"}),
    ))
    .await;
    let config = config_for(&fake.base_url(), &static_dir(), |c| {
        c.upstream.auth = AuthStyle::Bearer;
    });
    let report = portal_gateway::check::run(&config).await.unwrap();
    let text = portal_gateway::check::render(&report);
    assert!(!report.ok, "{text}");
    assert!(
        text.contains("upstream.client_secret (the bearer token"),
        "{text}"
    );
    assert!(
        !text.contains("upstream.client_id"),
        "a token has no client id: {text}"
    );
}
