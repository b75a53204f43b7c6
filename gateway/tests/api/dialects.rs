//! The same demo content through three CMS dialects (and the third category shape), each read
//! by the gateway with its example config from `config/examples/`: the browser sees the same API.

use reference_cms::{CategoryShape, Dialect};
use serde_json::Value;

use crate::helpers::*;

/// An example config pointed at `cms`, with the test credential and a free port.
fn example(name: &str, cms: std::net::SocketAddr) -> portal_web::Config {
    portal_web::Config::from_toml_str(&example_toml(name, cms))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

async fn gateway(name: &str, dialect: Dialect, shape: CategoryShape) -> TestApp {
    let cms = spawn_reference_cms_speaking(dialect, shape).await;
    let mut config = example(name, cms);
    // The comparison asks for every notice's detail and more from one address: no client limit
    // and no CMS ceiling (on a loaded machine the tree asked parent by parent met it).
    config.limits.per_client_per_second = 100_000;
    config.limits.per_client_cms_per_second = 100_000;
    config.limits.per_client_cms_burst = 100_000;
    config.limits.per_client_burst = 100_000;
    config.limits.upstream_per_second = 100_000;
    config.limits.upstream_burst = 100_000;
    if shape == CategoryShape::Children {
        // The switch the example's comment tells an integrator to make; with a tight cap on
        // calls in flight, the tree is still asked for without being refused by it.
        config.dialect.categories.shape = portal_cms::dialect::CategoryShape::Children;
        config.limits.upstream_concurrency = 2;
    }
    spawn_app(config).await
}

async fn native() -> TestApp {
    spawn_with_reference_cms().await
}

/// The parts of a category the app reads, recursively.
fn tree_view(list: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for c in list.as_array().unwrap() {
        out.push(format!(
            "{} parent={} {} {} sort={} type={} hidden={} {}",
            c["id"],
            c["parentId"],
            c["name"],
            c["url"],
            c["sort"],
            c["type"],
            c["hidden"],
            c["description"]
        ));
        for line in tree_view(&c["subCategory"]) {
            out.push(format!("  {line}"));
        }
    }
    out
}

/// The parts of an article the app reads.
fn article_view(a: &Value) -> Value {
    let mut a = a.clone();
    // A CMS's own extra fields (the rest dialect's slug) pass on; the rest must match.
    a.as_object_mut().unwrap().remove("slug");
    a
}

async fn same_as_native(app: &TestApp, reference: &TestApp, path: &str) -> Value {
    let (status, got) = app.get_json(path).await;
    let (_, want) = reference.get_json(path).await;
    assert_eq!(status, 200, "{path}: {got}");
    let project = |v: &Value| match path {
        p if p.starts_with("/portal/api/category/list") => {
            Value::from(tree_view(&v["result"]["content"]))
        }
        p if p.starts_with("/portal/api/article/list") => {
            let r = &v["result"];
            let items: Vec<Value> = r["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(article_view)
                .collect();
            serde_json::json!({"items": items, "total": r["totalElements"], "pages": r["totalPages"], "page": r["page"], "size": r["size"]})
        }
        _ => article_view(&v["result"]),
    };
    assert_eq!(project(&got), project(&want), "{path}");
    got
}

async fn check_dialect(name: &str, dialect: Dialect, shape: CategoryShape) {
    let app = gateway(name, dialect, shape).await;
    let reference = native().await;
    let tree = same_as_native(&app, &reference, "/portal/api/category/list").await;
    assert!(
        tree_view(&tree["result"]["content"]).len() > 30,
        "{name}: the whole tree"
    );

    // The news list: the first page, and the last one, which is partial.
    let first = same_as_native(
        &app,
        &reference,
        "/portal/api/article/list?categoryId=21&page=1&size=10",
    )
    .await;
    let total = first["result"]["totalElements"].as_u64().unwrap();
    assert!(
        total > 10 && total % 10 != 0,
        "{name}: the demo's news list ends on a partial page"
    );
    let last = total.div_ceil(10);
    let tail = same_as_native(
        &app,
        &reference,
        &format!("/portal/api/article/list?categoryId=21&page={last}&size=10"),
    )
    .await;
    assert_eq!(
        tail["result"]["content"].as_array().unwrap().len() as u64,
        total % 10
    );

    // A detail with a cover: sanitised body, file links through the gateway, neighbours, China
    // time.
    let id = first["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["cover"].is_string())
        .and_then(|a| a["id"].as_u64())
        .unwrap();
    let detail = same_as_native(
        &app,
        &reference,
        &format!("/portal/api/article/detail?id={id}"),
    )
    .await;
    let body = detail["result"]["content"].as_str().unwrap();
    assert!(!body.contains("<script"), "{name}");
    assert!(
        detail["result"]["cover"]
            .as_str()
            .unwrap()
            .starts_with("/portal/api/files/")
    );
    let time = detail["result"]["publishTime"].as_str().unwrap();
    assert_eq!(time.len(), 19, "{name}: yyyy-MM-dd HH:mm:ss, got {time}");
    // An article with attachments keeps them, links rewritten.
    let notices = same_as_native(
        &app,
        &reference,
        "/portal/api/article/list?categoryId=23&page=1&size=20",
    )
    .await;
    for article in notices["result"]["content"].as_array().unwrap() {
        let id = article["id"].as_u64().unwrap();
        same_as_native(
            &app,
            &reference,
            &format!("/portal/api/article/detail?id={id}"),
        )
        .await;
    }

    // The lead flag (the home page's 头条) and the video's captions come through the dialect.
    assert!(
        first["result"]["content"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["lead"] == true),
        "{name}: a lead story among the newest news"
    );
    let video = same_as_native(&app, &reference, "/portal/api/article/detail?id=1015").await;
    let captions = video["result"]["captions"].as_str().unwrap_or_default();
    assert!(
        captions.starts_with("/portal/api/files/") && captions.ends_with(".vtt"),
        "{name}: captions {captions}"
    );
    let track = app.get(captions).await;
    assert_eq!(track.status(), 200, "{name}: {captions}");
    assert!(
        track.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/vtt")
    );
    assert!(track.text().await.unwrap().starts_with("WEBVTT"));

    // Errors in the envelope.
    let (status, body) = app.get_json("/portal/api/article/detail?id=999999").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_i64()),
        (404, Some(404)),
        "{name}: {body}"
    );
    let (status, _) = app
        .get_json("/portal/api/category/getParentCategory?id=21")
        .await;
    assert_eq!(status, 200, "{name}");
}

#[tokio::test]
async fn the_mybatis_dialect_gives_the_same_portal() {
    check_dialect("mybatis", Dialect::Mybatis, CategoryShape::Flat).await;
}

#[tokio::test]
async fn the_rest_dialect_gives_the_same_portal() {
    check_dialect("rest", Dialect::Rest, CategoryShape::Flat).await;
}

#[tokio::test]
async fn categories_asked_for_parent_by_parent_give_the_same_tree() {
    check_dialect("rest", Dialect::Rest, CategoryShape::Children).await;
}

#[tokio::test]
async fn the_public_size_bound_follows_the_cms_and_a_refused_credential_is_said() {
    let cms = spawn_reference_cms_speaking(Dialect::Rest, CategoryShape::Flat).await;
    let app = spawn_app(example("rest", cms)).await;
    let (status, body) = app
        .get_json("/portal/api/article/list?categoryId=21&size=21")
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["msg"].as_str().unwrap().contains("20"), "{body}");
    assert_eq!(
        app.get_json("/portal/api/article/list?categoryId=21&size=20")
            .await
            .0,
        200
    );

    for (name, dialect) in [("rest", Dialect::Rest), ("mybatis", Dialect::Mybatis)] {
        let cms = spawn_reference_cms_speaking(dialect, CategoryShape::Flat).await;
        let mut config = example(name, cms);
        config.upstream.client_secret = Some("wrong".into());
        let app = spawn_app(config).await;
        let (status, body) = app.get_json("/portal/api/category/list").await;
        // The gateway's own credential refused: a fault of its set-up, not the visitor's.
        assert_eq!(
            (status.as_u16(), body["code"].as_i64()),
            (502, Some(502)),
            "{name}: {body}"
        );
    }
}
