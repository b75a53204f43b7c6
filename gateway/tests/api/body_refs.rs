//! Bodies that name other pages and images by the CMS's ids and slugs (Wagtail's rich-text
//! storage format, links to the CMS's article pages by slug), through the real gateway against
//! a real HTTP upstream that answers the lookups as Wagtail's API v2 does.

use serde_json::json;

use crate::helpers::*;

const BODY: &str = r#"<p>详见<a linktype="page" id="33">冷链专线开通</a>，另见<a href="/news_center/company_announcement/news-003/">年度安全公告</a>与<a href="/news_center/notice/no-such-page/">已删除的页面</a>。</p><embed embedtype="image" id="5" format="fullwidth" alt="集装箱堆场"/><embed embedtype="image" id="404" alt="缺失的图片"/><embed embedtype="image" id="500" alt="出错的图片"/>"#;

/// A Wagtail-like CMS: pages at `api/v2/pages/{id}/`, a page by slug at `api/v2/pages/?slug=`,
/// images' records at `api/v2/images/{id}/` with their file under `/media/`.
fn wagtail(path: &str, query: &str) -> Reply {
    match path {
        "/cms/api/v2/pages/" if query.contains("slug=news-003") => Reply::Json(
            200,
            json!({"meta": {"total_count": 1}, "items": [{"id": 41, "meta": {"slug": "news-003"}}]}),
        ),
        "/cms/api/v2/pages/" if query.contains("slug=") => {
            Reply::Json(200, json!({"meta": {"total_count": 0}, "items": []}))
        }
        "/cms/api/v2/pages/" => Reply::Json(200, json!({"meta": {"total_count": 0}, "items": []})),
        "/cms/api/v2/pages/40/" => Reply::Json(
            200,
            json!({"id": 40, "title": "多式联运周报", "body": BODY, "last_published_at": "2026-11-20T02:00:00Z"}),
        ),
        "/cms/api/v2/images/5/" => Reply::Json(
            200,
            json!({"id": 5, "meta": {"download_url": "/cms/media/original_images/yard.jpg"}}),
        ),
        "/cms/api/v2/images/500/" => Reply::Json(500, json!({"message": "Server Error"})),
        _ => Reply::Json(404, json!({"message": "Not found."})),
    }
}

const WAGTAIL: &str = r#"
[dialect]
text_format = "html"

[dialect.envelope]
style = "none"

[dialect.endpoints]
files = "media"
category_list = { path = "api/v2/pages/", query = { type = "news.Category" } }
article_list = { path = "api/v2/pages/", param = "child_of" }
article_detail = { path = "api/v2/pages/{id}/" }
article_search = { path = "" }
article_by_slug = { path = "api/v2/pages/", param = "slug", item = "items.0" }
image_detail = { path = "api/v2/images/{id}/" }

[dialect.fields.article]
title = "title"
content = "body"
publish_time = "last_published_at"

[dialect.links]
article = ["/news_center/*/{slug}/"]
"#;

#[tokio::test]
async fn links_and_images_by_id_or_slug_reach_the_portal() {
    let fake = FakeUpstream::start(Reply::Route(wagtail)).await;
    let app = spawn_app(config_for(&fake.base_url(), &static_dir(), |c| {
        with_toml(c, WAGTAIL)
    }))
    .await;
    let (status, article) = app.get_json("/portal/api/article/detail?id=40").await;
    assert_eq!(status, 200, "{article}");
    let body = article["result"]["content"].as_str().unwrap();
    // A page link by id, with no lookup; one by slug, looked up once.
    assert!(
        body.contains(r#"<a href="/portal/article/33" rel="noopener noreferrer">冷链专线开通</a>"#),
        "{body}"
    );
    assert!(
        body.contains(r#"<a href="/portal/article/41" rel="noopener noreferrer">年度安全公告</a>"#),
        "{body}"
    );
    // A slug the CMS does not have: the words stay, with no link to the CMS's own site.
    assert!(
        body.contains("<a rel=\"noopener noreferrer\">已删除的页面</a>"),
        "{body}"
    );
    // The image by id, through the files route; the missing one is gone, not a broken icon.
    assert!(
        body.contains(r#"<img alt="集装箱堆场" src="/portal/api/files/original_images/yard.jpg">"#),
        "{body}"
    );
    assert!(
        !body.contains("缺失的图片") && !body.contains("embed"),
        "{body}"
    );
    assert_eq!(fake.calls_to("/cms/api/v2/images/5/"), 1);

    // The image whose lookup failed (a 500, not a "not found") leaves the article uncached,
    // so the next visitor's request asks again rather than keep it without its image.
    let _ = app.get_json("/portal/api/article/detail?id=40").await;
    assert_eq!(fake.calls_to("/cms/api/v2/pages/40/"), 2);
}

#[tokio::test]
async fn a_whole_article_is_cached_with_its_lookups_done() {
    fn healthy(path: &str, query: &str) -> Reply {
        match path {
            "/cms/api/v2/images/500/" => Reply::Json(404, json!({"message": "Not found."})),
            _ => wagtail(path, query),
        }
    }
    let fake = FakeUpstream::start(Reply::Route(healthy)).await;
    let app = spawn_app(config_for(&fake.base_url(), &static_dir(), |c| {
        with_toml(c, WAGTAIL)
    }))
    .await;
    for _ in 0..3 {
        let (status, _) = app.get_json("/portal/api/article/detail?id=40").await;
        assert_eq!(status, 200);
    }
    assert_eq!(fake.calls_to("/cms/api/v2/pages/40/"), 1);
    assert_eq!(fake.calls_to("/cms/api/v2/images/5/"), 1);
    assert_eq!(
        fake.seen()
            .iter()
            .filter(|s| s.query.contains("slug="))
            .count(),
        2,
        "one lookup per slug"
    );
}

#[tokio::test]
async fn a_slug_pattern_without_a_lookup_is_refused_with_its_key() {
    let toml = config_toml(
        "http://127.0.0.1:9/",
        &static_dir(),
        &WAGTAIL.replace(
            r#"article_by_slug = { path = "api/v2/pages/", param = "slug", item = "items.0" }"#,
            "",
        ),
    );
    let err = portal_web::config::Config::from_toml_str(&toml).unwrap_err();
    assert!(
        err.to_string()
            .contains("dialect.endpoints.article_by_slug.path"),
        "{err}"
    );
}
