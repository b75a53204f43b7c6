//! Bad queries are refused with a 400 envelope naming the parameter, before any upstream call.

use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn bad_values_name_their_parameter() {
    let (app, fake) = spawn_with_fake(
        Reply::Json(200, json!({"code": 200, "result": null})),
        |_| {},
    )
    .await;
    for (query, param) in [
        ("article/list?page=abc", "page"),
        ("article/list?page=-1", "page"),
        ("article/list?page=0", "page"),
        ("article/list?size=51", "size"),
        ("article/list?size=0", "size"),
        ("article/list?size=1e3", "size"),
        ("article/list?categoryId=%E4%B8%80", "categoryId"),
        ("article/list?page=99999999999999999999999", "page"),
        ("article/detail", "id"),
        ("article/detail?id=a%2Fb", "id"),
        ("article/detail?id=-1", "id"),
        ("article/detail?id=%E4%B8%80", "id"),
        ("category/getParentCategory?id=", "id"),
    ] {
        let (status, body) = app.get_json(&format!("/portal/api/{query}")).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["code"], 400);
        let msg = body["msg"].as_str().unwrap();
        assert!(msg.contains(param), "{query}: {msg}");
        assert!(body.get("result").is_none());
    }
    assert!(fake.seen().is_empty(), "bad queries never reach the CMS");
    // An id of another shape than the CMS's (`dialect.ids = "numbers"`, the default): nothing
    // there, said without asking it.
    for query in ["article/detail?id=abc", "article/list?categoryId=news"] {
        let (status, body) = app.get_json(&format!("/portal/api/{query}")).await;
        assert_eq!(
            (status.as_u16(), &body["code"]),
            (404, &json!(404)),
            "{query}: {body}"
        );
    }
    assert!(
        fake.seen().is_empty(),
        "an id the CMS cannot hold never reaches it"
    );
}

#[tokio::test]
async fn size_defaults_to_ten_and_fifty_is_allowed() {
    let (app, fake) = spawn_with_fake(
        Reply::Json(200, json!({"code": 200, "result": null})),
        |_| {},
    )
    .await;
    let (_, body) = app.get_json("/portal/api/article/list?categoryId=2").await;
    assert_eq!(body["result"]["size"], 10);
    assert!(fake.last().query.ends_with("size=10"));
    let (status, _) = app
        .get_json("/portal/api/article/list?categoryId=2&size=50")
        .await;
    assert_eq!(status, 200);
}
