//! Every row of the normalisation table: what the upstream answers, what the visitor gets.

use std::time::Duration;

use serde_json::json;
use tokio::net::TcpListener;

use crate::helpers::*;

async fn visitor_gets(reply: Reply) -> (u16, serde_json::Value) {
    let (app, _fake) = spawn_with_fake(reply, |_| {}).await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    (status.as_u16(), body)
}

fn msg(body: &serde_json::Value) -> &str {
    body["msg"].as_str().expect("every envelope has a message")
}

#[tokio::test]
async fn success_codes_zero_and_two_hundred() {
    for code in [0, 200] {
        let (status, body) = visitor_gets(Reply::Json(200, json!({"code": code, "msg": "ok", "result": {"content": [{"id": 1, "name": "甲", "parentId": 0}]}}))).await;
        assert_eq!(status, 200);
        assert_eq!(body["code"], 200);
        assert_eq!(body["result"]["content"][0]["name"], "甲");
    }
    // `data` instead of `result`, a bare list instead of a page.
    let (status, body) = visitor_gets(Reply::Json(
        200,
        json!({"code": 0, "data": [{"id": 3, "name": "乙"}]}),
    ))
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["content"][0]["id"], 3);
}

#[tokio::test]
async fn another_code_keeps_its_code_and_message() {
    let (status, body) =
        visitor_gets(Reply::Json(200, json!({"code": 1001, "msg": "栏目已停用"}))).await;
    assert_eq!((status, body["code"].as_i64()), (502, Some(1001)));
    assert_eq!(msg(&body), "栏目已停用");

    let (status, body) = visitor_gets(Reply::Json(
        200,
        json!({"code": 403, "message": "禁止访问该栏目"}),
    ))
    .await;
    assert_eq!((status, body["code"].as_i64()), (403, Some(403)));
    assert_eq!(msg(&body), "禁止访问该栏目");

    let (status, body) = visitor_gets(Reply::Json(
        500,
        json!({"code": 500, "error_description": "数据库连接失败"}),
    ))
    .await;
    assert_eq!((status, body["code"].as_i64()), (500, Some(500)));
    assert_eq!(msg(&body), "数据库连接失败");

    // No message at all: the spec's default for the status.
    let (status, body) = visitor_gets(Reply::Json(200, json!({"code": 404}))).await;
    assert_eq!(status, 404);
    assert!(msg(&body).contains("不存在"), "{body}");
}

#[tokio::test]
async fn the_gateways_own_credential_refused_is_a_502_not_the_visitors_401() {
    let (app, _fake) = spawn_with_fake(
        Reply::Json(
            401,
            json!({"error": "invalid_client", "error_description": "Bad client credentials"}),
        ),
        |_| {},
    )
    .await;
    for path in ["/portal/api/category/list", "/portal/api/files/a.png"] {
        let (status, body) = app.get_json(path).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_i64()),
            (502, Some(502)),
            "{path}: {body}"
        );
        assert!(msg(&body).contains("凭证"), "{body}");
        assert!(
            !msg(&body).contains("Bad client"),
            "the CMS's words stay in the log: {body}"
        );
    }
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("portal_upstream_credential_refused_total"),
        "{metrics}"
    );
    let (status, body) = app.get_json("/readyz").await;
    assert_eq!(status, 200, "ready all the same: {body}");
    assert_eq!(body["result"]["upstream"], "refused");

    // A visitor's own token refused is theirs: 401, and the app sends them to sign in.
    let response = app
        .get_as("/portal/api/category/list", "expired-token")
        .await;
    assert_eq!(response.status(), 401);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], 401);
    // In Chinese, as every visitor message (the CMS's English stays in the log line).
    assert_eq!(msg(&body), "没有访问权限（令牌、用户名或密码错误）。");
}

#[tokio::test]
async fn time_out_is_504_with_code_408() {
    // The test config allows 800 ms.
    let (status, body) = visitor_gets(Reply::Slow(Duration::from_secs(3))).await;
    assert_eq!((status, body["code"].as_i64()), (504, Some(408)));
    assert!(msg(&body).contains("超时"));
}

#[tokio::test]
async fn connection_refused_is_502() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let app = spawn_app(config_for(
        &format!("http://{addr}/"),
        &static_dir(),
        |_| {},
    ))
    .await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!((status.as_u16(), body["code"].as_i64()), (502, Some(502)));
    assert!(
        !msg(&body).contains("127.0.0.1"),
        "no internals in the message: {body}"
    );
}

#[tokio::test]
async fn unresolvable_name_is_503() {
    let app = spawn_app(config_for(
        "http://cms.portal-test.invalid/",
        &static_dir(),
        |_| {},
    ))
    .await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!((status.as_u16(), body["code"].as_i64()), (503, Some(503)));
}

#[tokio::test]
async fn unusable_answers_are_502() {
    for reply in [
        Reply::Raw(200, "application/json", "{\"code\": 200, \"result\": "),
        Reply::Raw(200, "text/plain", "{\"code\": 200, \"result\": []}"),
        Reply::Raw(
            500,
            "text/html",
            "<html><body><h1>500 Internal Server Error</h1></body></html>",
        ),
        Reply::Raw(404, "text/html", "<html><body>Not Found</body></html>"),
        Reply::Raw(200, "application/json", "[1, 2, 3]"),
        Reply::Json(
            200,
            json!({"code": 200, "result": {"content": "not a list"}}),
        ),
    ] {
        let (status, body) = visitor_gets(reply).await;
        assert_eq!((status, body["code"].as_i64()), (502, Some(502)), "{body}");
        assert!(!msg(&body).contains("html"), "{body}");
    }
}

#[tokio::test]
async fn empty_body_is_a_null_result() {
    let (app, _fake) = spawn_with_fake(Reply::Empty(200), |_| {}).await;
    let (status, body) = app.get_json("/portal/api/article/list?categoryId=1").await;
    assert_eq!(status, 200);
    assert_eq!(body["code"], 200);
    assert_eq!(body["result"]["content"], json!([]));
    let (status, body) = visitor_gets(Reply::Empty(200)).await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["content"], json!([]));
    let (app, _fake) = spawn_with_fake(Reply::Empty(200), |_| {}).await;
    let (status, body) = app.get_json("/portal/api/article/detail?id=1").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_i64()),
        (404, Some(404)),
        "nothing to show: {body}"
    );
}

#[tokio::test]
async fn article_html_from_a_hostile_cms_is_sanitised() {
    let (app, _fake) = spawn_with_fake(
        Reply::Json(200, json!({"code": 200, "result": {"id": 9, "title": "标题", "content":
            "<p>正文</p><script>document.cookie</script><img src=x onerror=alert(1)><a href=\"javascript:alert(1)\">x</a>"}})),
        |_| {},
    )
    .await;
    let (status, body) = app.get_json("/portal/api/article/detail?id=9").await;
    assert_eq!(status, 200);
    let html = body["result"]["content"].as_str().unwrap();
    assert!(html.contains("<p>正文</p>"));
    for bad in ["<script", "onerror", "javascript:"] {
        assert!(!html.contains(bad), "{bad} survived: {html}");
    }
}

#[tokio::test]
async fn unknown_api_paths_are_404_envelopes() {
    let (app, fake) = spawn_with_fake(Reply::Empty(200), |_| {}).await;
    for path in [
        "/portal/api/nothing",
        "/portal/api/category",
        "/portal/api/admin/users",
        "/portal/api",
        "/portal/api/",
        "/portal/api/files",
        "/portal/admin",
        "/portal/admin/users",
    ] {
        let (status, body) = app.get_json(path).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_i64()),
            (404, Some(404)),
            "{path}"
        );
    }
    assert!(fake.seen().is_empty());
}

#[tokio::test]
async fn a_failure_is_not_remembered_once_the_upstream_recovers() {
    let (app, fake) =
        spawn_with_fake(Reply::Raw(503, "text/html", "<h1>维护中</h1>"), |_| {}).await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!((status.as_u16(), body["code"].as_i64()), (503, Some(503)));
    fake.set(Reply::Json(
        200,
        json!({"code": 200, "result": {"content": [{"id": 1, "name": "恢复"}]}}),
    ));
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["content"][0]["name"], "恢复");
}
