//! The whole path against the bundled reference-cms.

use crate::helpers::*;

use portal_core::portal_routes::PORTAL_ROUTES as SPEC_ROUTES;

fn urls(list: &serde_json::Value, out: &mut Vec<String>) {
    for c in list.as_array().unwrap() {
        out.push(c["url"].as_str().unwrap().to_owned());
        urls(&c["subCategory"], out);
    }
}

#[tokio::test]
async fn category_tree_has_a_category_for_every_spec_route() {
    let app = spawn_with_reference_cms().await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!(status, 200);
    assert_eq!(body["code"], 200);
    let mut found = Vec::new();
    urls(&body["result"]["content"], &mut found);
    for route in SPEC_ROUTES {
        assert!(found.iter().any(|u| u == route), "no category for {route}");
    }
    let top = body["result"]["content"].as_array().unwrap();
    assert!(top.iter().all(|c| c["parentId"] == 0));
}

#[tokio::test]
async fn news_lists_page_from_one() {
    let app = spawn_with_reference_cms().await;
    for category in [21, 22, 23] {
        let (_, first) = app
            .get_json(&format!(
                "/portal/api/article/list?categoryId={category}&page=1&size=10"
            ))
            .await;
        let (_, second) = app
            .get_json(&format!(
                "/portal/api/article/list?categoryId={category}&page=2&size=10"
            ))
            .await;
        let first = &first["result"];
        let total = first["totalElements"].as_u64().unwrap();
        assert!(total > 20, "{category}: {total}");
        assert_eq!(first["totalPages"].as_u64().unwrap(), total.div_ceil(10));
        assert_eq!(first["page"], 1);
        assert_eq!(first["content"].as_array().unwrap().len(), 10);
        assert_eq!(second["result"]["page"], 2);
        let second_ids: Vec<_> = second["result"]["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["id"].clone())
            .collect();
        assert!(!second_ids.is_empty());
        for a in first["content"].as_array().unwrap() {
            assert!(!second_ids.contains(&a["id"]), "page 2 repeats page 1");
            assert!(a.get("content").is_none(), "summaries carry no body");
            assert_eq!(a["categoryId"], category);
        }
    }
}

#[tokio::test]
async fn detail_has_a_sanitised_body_and_gateway_file_links() {
    let app = spawn_with_reference_cms().await;
    let (status, body) = app.get_json("/portal/api/article/detail?id=2101").await;
    assert_eq!(status, 200);
    let article = &body["result"];
    assert_eq!(article["id"], 2101);
    assert!(article["content"].as_str().unwrap().contains("<p>"));
    let cover = article["cover"].as_str().unwrap();
    assert!(cover.starts_with("/portal/api/files/"), "{cover}");
    let image = app.get(cover).await;
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/svg+xml");
    assert!(
        image.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
    // The next older of 公司要闻 (2148, 4 November).
    assert_eq!(article["next"]["id"], 2148);
}

#[tokio::test]
async fn unknown_article_is_a_404_envelope() {
    let app = spawn_with_reference_cms().await;
    let (status, body) = app.get_json("/portal/api/article/detail?id=999999").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], 404);
    assert!(!body["msg"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn parent_category_works() {
    let app = spawn_with_reference_cms().await;
    let (status, body) = app
        .get_json("/portal/api/category/getParentCategory?id=21")
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["id"], 2);
    assert_eq!(body["result"]["url"], "/news_center");
    let (status, body) = app
        .get_json("/portal/api/category/getParentCategory?id=2")
        .await;
    assert_eq!(status, 200);
    assert!(body["result"].is_null(), "top level has no parent: {body}");
    assert_eq!(body["code"], 200);
    let (status, body) = app
        .get_json("/portal/api/category/getParentCategory?id=4242")
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], 404);
}

#[tokio::test]
async fn site_settings_come_from_config_without_the_secret() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        c.site.login_url = "https://sso.example.com/login".to_owned();
        c.site.icp_number = "云ICP备20260001号-1".to_owned();
    }))
    .await;
    let response = app.get("/portal/api/site").await;
    let text = response.text().await.unwrap();
    assert!(!text.contains(CLIENT_SECRET));
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        body["result"]["companyName"],
        "云川陆港国际物流集团有限公司"
    );
    assert!(
        body["result"]["loginUrl"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    assert!(
        body["result"]["icpNumber"]
            .as_str()
            .unwrap()
            .contains("ICP")
    );
}

#[tokio::test]
async fn file_paths_cannot_escape_the_file_store() {
    let app = spawn_with_reference_cms().await;
    for path in [
        "/portal/api/files/../categories.json",
        "/portal/api/files/%2e%2e/categories.json",
        "/portal/api/files/covers/%2e%2e/%2e%2e/categories.json",
        "/portal/api/files/.hidden",
    ] {
        let response = app.get(path).await;
        assert_ne!(response.status(), 200, "{path}");
        let text = response.text().await.unwrap();
        assert!(!text.contains("parentId"), "{path} leaked content: {text}");
    }
}
