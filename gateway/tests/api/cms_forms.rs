//! The forms a CMS nobody here wrote answers in, each through the real gateway against a real
//! HTTP upstream: a bare array with its total in a header, items without their category, a
//! detail asked as a filtered list (`data.0`), covers in arrays, times in UTC, HTML-escaped
//! titles, summaries in HTML, Markdown and block-tree bodies, routes derived from the CMS's page
//! addresses, a page past the end answered with an error, links to the CMS's own pages, and
//! categories the tree does not have.

use portal_cms::dialect::ContentFormat;
use serde_json::{Value, json};

use crate::helpers::*;

/// A WordPress-like CMS: categories with absolute page addresses, posts as a bare array with
/// `X-Total-Count`, a post asked by `include=` answered as a one-item array, 400 past the end.
fn headless(path: &str, query: &str) -> Reply {
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|p| p.strip_prefix(&format!("{name}=")))
            .map(str::to_owned)
    };
    match path {
        "/cms/categories" => Reply::Json(
            200,
            json!([
                {"id": 2, "parent": 0, "name": "新闻中心", "slug": "news_center", "link": "http://cms.test/cn/news_center/"},
                {"id": 21, "parent": 2, "name": "公司&#8220;要闻&#8221;", "slug": "company_announcement", "link": "http://cms.test/cn/news_center/company_announcement/"},
                {"id": 23, "parent": 2, "name": "通知公告", "slug": "notice", "link": "/cn/news_center/notice/"},
                {"id": 3, "parent": 0, "name": "业务板块", "slug": "business", "link": "http://cms.test/cn/business/"}
            ]),
        ),
        "/cms/posts" => {
            if let Some(id) = param("include") {
                let id: u64 = id.parse().unwrap();
                if id > 1023 {
                    return Reply::Json(200, json!([]));
                }
                return Reply::Json(200, json!([post(id, true)]));
            }
            match param("categories").as_deref() {
                Some("999") => {
                    return Reply::Json(
                        400,
                        json!({"code": "rest_invalid_param", "message": "无效的参数：categories"}),
                    );
                }
                Some("998") => {
                    return Reply::Headed(200, vec![("X-Total-Count", "0".to_owned())], json!([]));
                }
                _ => {}
            }
            let page: u64 = param("page").and_then(|p| p.parse().ok()).unwrap_or(1);
            let size: u64 = param("per_page").and_then(|p| p.parse().ok()).unwrap_or(10);
            if size > 20 {
                return Reply::Json(
                    400,
                    json!({"code": "rest_invalid_param", "message": "per_page 最大为 20"}),
                );
            }
            let total = 23u64;
            let first = (page - 1) * size;
            if first >= total {
                return Reply::Json(
                    400,
                    json!({"code": "rest_post_invalid_page_number", "message": "页码超出范围"}),
                );
            }
            let items: Vec<Value> = (first..(first + size).min(total))
                .map(|i| post(1000 + i, false))
                .collect();
            Reply::Headed(
                200,
                vec![
                    ("X-Total-Count", total.to_string()),
                    ("X-WP-TotalPages", total.div_ceil(size).to_string()),
                ],
                Value::Array(items),
            )
        }
        _ => Reply::Json(404, json!({"message": "no route"})),
    }
}

/// A post as the CMS writes it: no category field, the title escaped, the summary in HTML, the
/// time in UTC without an offset, the cover in an embedded array, the body in Markdown.
fn post(id: u64, detail: bool) -> Value {
    let mut post = json!({
        "id": id,
        "title": {"rendered": format!("班列&#8220;{id}&#8221;开行 &amp; 回程")},
        "excerpt": {"rendered": format!("<p>第 {id} 篇的<strong>摘要</strong>。</p>\n")},
        "date": "2026-11-12T01:30:00",
        "_embedded": {"media": [{"source_url": format!("/cms/wp/files/covers/{id}.webp")}]},
        "meta": {"seo_title": "不该外泄"}
    });
    if detail {
        post["content"] = json!({"rendered": format!(
            "## 开行情况\n\n第 {id} 列**满载**发车。<script>alert(1)</script>\n\n\
             详见[上一篇](http://cms.test/cn/news/{prev}.html)与[外部](https://example.com/x)。\n\n\
             <img src=x onerror=alert(1)>[脚本](javascript:alert(1))\n",
            prev = id - 1
        )});
    }
    post
}

const HEADLESS: &str = r#"
[dialect]
time_zone = "UTC"
content_format = "markdown"
text_format = "html"

[dialect.envelope]
style = "none"
message = ["message"]

[dialect.paging]
page = "page"
size = "per_page"
page_base = 1
max_size = 20

[dialect.endpoints]
files = "wp/files"
category_list = { path = "categories" }
article_list = { path = "posts", param = "categories" }
article_detail = { path = "posts", param = "include", item = "0" }
article_search = { path = "" }

[dialect.lists]
items = ""
total_header = "X-Total-Count"
total_pages_header = "X-WP-TotalPages"

[dialect.categories]
shape = "flat"
items = ""
absent = ["/about", "/party-construction"]

[dialect.categories.route]
from = ["link"]
strip_prefix = "/cn"
suffix = { company_announcement = "/1" }

[dialect.categories.types]
"/news_center/company_announcement/1" = "list"
"/news_center/notice" = "list"

[dialect.fields.category]
parent_id = "parent"
slug = "slug"

[dialect.fields.article]
title = "title.rendered"
summary = "excerpt.rendered"
content = "content.rendered"
publish_time = "date"
cover = "_embedded.media.0.source_url"

[dialect.links]
article = ["http://cms.test/cn/news/{id}.html"]
"#;

/// The same, serving the app's build: its pages rendered from what the CMS gives.
async fn headless_pages_app() -> (TestApp, FakeUpstream) {
    let fake = FakeUpstream::start(Reply::Route(headless)).await;
    let app = spawn_app(page_config(&fake.base_url(), |c| with_toml(c, HEADLESS))).await;
    (app, fake)
}

async fn headless_app() -> (TestApp, FakeUpstream) {
    let fake = FakeUpstream::start(Reply::Route(headless)).await;
    // The CMS's own address is cms.test in its links; the gateway reaches it on loopback.
    let app = spawn_app(config_for(&fake.base_url(), &static_dir(), |c| {
        with_toml(c, HEADLESS)
    }))
    .await;
    (app, fake)
}

#[tokio::test]
async fn a_headless_cms_is_read_by_configuration_alone() {
    let (app, _fake) = headless_app().await;
    let (status, tree) = app.get_json("/portal/api/category/list").await;
    assert_eq!(status, 200, "{tree}");
    let news = &tree["result"]["content"][0];
    assert_eq!(
        news["url"], "/news_center",
        "origin, prefix and slashes off"
    );
    let company = &news["subCategory"][0];
    assert_eq!(
        company["url"], "/news_center/company_announcement/1",
        "the slug's suffix"
    );
    assert_eq!(company["name"], "公司“要闻”", "decoded");
    assert_eq!(company["type"], "list", "the route's type from config");
    assert_eq!(
        news["subCategory"][1]["url"], "/news_center/notice",
        "a path alone"
    );
    assert!(
        company.get("link").is_none() && company.get("slug").is_none(),
        "{company}"
    );

    // Page 3 of 23 in pages of 10 holds 3; the total came from a header, the category from the
    // request.
    let (status, page) = app
        .get_json("/portal/api/article/list?categoryId=21&page=3&size=10")
        .await;
    assert_eq!(status, 200, "{page}");
    let result = &page["result"];
    assert_eq!(result["totalElements"], 23);
    assert_eq!(result["totalPages"], 3);
    assert_eq!(result["content"].as_array().unwrap().len(), 3);
    let item = &result["content"][0];
    assert_eq!(item["categoryId"], 21, "filled from the request");
    assert_eq!(item["title"], "班列“1020”开行 & 回程");
    assert_eq!(item["summary"], "第 1020 篇的摘要。");
    assert_eq!(
        item["publishTime"], "2026-11-12 09:30:00",
        "UTC read, China time given"
    );
    assert_eq!(
        item["cover"], "/portal/api/files/covers/1020.webp",
        "from an array"
    );
    assert!(
        item.get("meta").is_none(),
        "unmapped fields stay behind: {item}"
    );

    // Past the end the CMS answers 400: an empty page for the API.
    let (status, past) = app
        .get_json("/portal/api/article/list?categoryId=21&page=4&size=10")
        .await;
    assert_eq!(status, 200, "{past}");
    assert_eq!(past["result"]["content"], json!([]));
    // With the list's true totals, read from its first page (not "40 in all" for page 5).
    for page in [4, 5] {
        let (_, past) = app
            .get_json(&format!(
                "/portal/api/article/list?categoryId=21&page={page}&size=10"
            ))
            .await;
        assert_eq!(
            (
                past["result"]["totalElements"].as_u64(),
                past["result"]["totalPages"].as_u64()
            ),
            (Some(23), Some(3)),
            "page {page}: {past}"
        );
    }

    // Every page of the list at its real URL (23 articles, 10 a page as in the app) is rendered
    // from answers the CMS gave within its 20, with its articles; past the end, none (404).
    let (app, _fake) = headless_pages_app().await;
    for (page, first, count) in [(1, 1000, 10), (2, 1010, 10), (3, 1020, 3), (4, 0, 0)] {
        let path = format!("/portal/news_center/company_announcement/1?page={page}");
        let response = app.get(&path).await;
        let status = if count > 0 { 200 } else { 404 };
        assert_eq!(response.status(), status, "{path}");
        let html = response.text().await.unwrap();
        let failed = failed_answers(&html);
        assert!(failed.is_empty(), "{path}: {failed:?}");
        let listed = articles_linked(&html);
        assert_eq!(listed.len(), count, "{path}: {listed:?}");
        if count > 0 {
            assert_eq!(listed[0], first, "{path}");
            assert!(
                html.contains(&format!(">班列“{first}”开行 &amp; 回程</a>")),
                "{path}: the title decoded, then escaped once"
            );
        }
    }
}

/// The article ids a rendered page's markup links (`/portal/article/<id>`, whatever its query).
fn articles_linked(html: &str) -> Vec<u64> {
    hrefs(html.split(STATE_OPEN).next().unwrap())
        .iter()
        .filter_map(|h| h.strip_prefix("/portal/article/"))
        .filter_map(|rest| rest.split('?').next()?.parse().ok())
        .collect()
}

#[tokio::test]
async fn a_markdown_body_becomes_sanitised_html_with_the_cmss_links_led_home() {
    let (app, fake) = headless_app().await;
    let (status, detail) = app.get_json("/portal/api/article/detail?id=1005").await;
    assert_eq!(status, 200, "{detail}");
    assert!(
        fake.last().query.contains("include=1005"),
        "{}",
        fake.last().query
    );
    let article = &detail["result"];
    assert_eq!(article["id"], 1005);
    let html = article["content"].as_str().unwrap();
    assert!(html.contains("<h2>开行情况</h2>"), "{html}");
    assert!(html.contains("<strong>满载</strong>"), "{html}");
    assert!(
        html.contains("href=\"/portal/article/1004\""),
        "a link to the CMS's article page leads to the portal's: {html}"
    );
    assert!(html.contains("https://example.com/x"), "{html}");
    for hostile in ["<script", "onerror", "javascript:"] {
        assert!(!html.contains(hostile), "{hostile} in {html}");
    }
    // An id the CMS's filtered list does not hold is not found.
    let (status, missing) = app.get_json("/portal/api/article/detail?id=5000").await;
    assert_eq!(status, 404, "{missing}");
    assert_eq!(missing["msg"], "文章 5000 不存在。");
    // The article's page shows the same body, its link to the portal's page of the other.
    let (app, _fake) = headless_pages_app().await;
    let response = app.get("/portal/article/1005").await;
    assert_eq!(response.status(), 200);
    let page = response.text().await.unwrap();
    assert!(
        page.split(STATE_OPEN).next().unwrap().contains(html),
        "the body as the API gives it"
    );
}

#[tokio::test]
async fn a_category_the_tree_lacks_is_not_found_whatever_the_cms_says() {
    let (app, _fake) = headless_app().await;
    let (status, _) = app
        .get_json("/portal/api/article/list?categoryId=999&size=30")
        .await;
    assert_eq!(
        status, 400,
        "a size past the CMS's is still the visitor's 400"
    );
    // The CMS answers 400 for a category it does not have: the gateway asks its tree.
    let (status, body) = app
        .get_json("/portal/api/article/list?categoryId=999")
        .await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (reqwest::StatusCode::NOT_FOUND, Some("栏目 999 不存在。")),
        "{body}"
    );
    // Or an empty first page: the tree it holds decides.
    let (status, body) = app
        .get_json("/portal/api/article/list?categoryId=998")
        .await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (reqwest::StatusCode::NOT_FOUND, Some("栏目 998 不存在。")),
        "{body}"
    );
    // On every dialect of reference-cms too.
    for (dialect, name) in [
        (reference_cms::Dialect::Native, "native"),
        (reference_cms::Dialect::Mybatis, "mybatis"),
        (reference_cms::Dialect::Rest, "rest"),
    ] {
        let cms = spawn_reference_cms_speaking(dialect, reference_cms::CategoryShape::Flat).await;
        let config = portal_web::Config::from_toml_str(&example_toml(name, cms)).unwrap();
        let app = spawn_app(config).await;
        // The tree first (as the app loads it), then an unknown category.
        assert_eq!(app.get("/portal/api/category/list").await.status(), 200);
        let (status, body) = app
            .get_json("/portal/api/article/list?categoryId=999")
            .await;
        assert_eq!(status, 404, "{name}: {body}");
        assert_eq!(body["msg"], "栏目 999 不存在。", "{name}");
        let (status, _) = app.get_json("/portal/api/article/list?categoryId=21").await;
        assert_eq!(status, 200, "{name}: a known one still answers");
    }
}

#[tokio::test]
async fn block_tree_bodies_are_rendered_and_sanitised() {
    fn cms(path: &str, _query: &str) -> Reply {
        match path {
            "/cms/article/detail" => Reply::Json(
                200,
                json!({"code": 200, "result": {"id": 7, "categoryId": 21, "title": "块", "content": [
                    {"type": "heading", "level": 2, "children": [{"type": "text", "text": "标题<script>"}]},
                    {"type": "paragraph", "children": [
                        {"type": "text", "text": "正文", "bold": true},
                        {"type": "link", "url": "javascript:alert(1)", "children": [{"type": "text", "text": "坏链接"}]}
                    ]},
                    {"type": "image", "image": {"url": "covers/a.svg", "alternativeText": "图"}}
                ]}}),
            ),
            _ => Reply::Json(200, json!({"code": 200, "result": {"content": []}})),
        }
    }
    let (app, _fake) = spawn_with_fake(Reply::Route(cms), |c| {
        c.dialect.content_format = ContentFormat::Blocks;
    })
    .await;
    let (status, detail) = app.get_json("/portal/api/article/detail?id=7").await;
    assert_eq!(status, 200, "{detail}");
    let html = detail["result"]["content"].as_str().unwrap();
    assert!(html.contains("<h2>标题&lt;script&gt;</h2>"), "{html}");
    assert!(html.contains("<strong>正文</strong>"), "{html}");
    assert!(!html.contains("javascript:"), "{html}");
    assert!(
        html.contains("src=\"/portal/api/files/covers/a.svg\""),
        "{html}"
    );
}

#[test]
fn path_syntax_that_can_never_match_is_refused_naming_the_key() {
    let base = config_toml("http://127.0.0.1:9/", &static_dir(), "");
    for (extra, key) in [
        (
            "[dialect.fields.article]\ncover = \"images[0].url\"\n",
            "dialect.fields.article.cover",
        ),
        (
            "[dialect.lists]\ntotal = \"$.meta.total\"\n",
            "dialect.lists.total",
        ),
        (
            "[dialect.fields.category]\nname = \"names.*\"\n",
            "dialect.fields.category.name",
        ),
        (
            "[dialect]\ntime_zone = \"Europe/Berlin\"\n",
            "dialect.time_zone",
        ),
        (
            "[dialect.links]\narticle = [\"https://cms/news/\"]\n",
            "dialect.links.article",
        ),
        (
            "[dialect.categories.types]\n\"/a\" = \"feed\"\n",
            "dialect.categories.types",
        ),
        (
            "[dialect.lists]\ntotal_header = \"X Total\"\n",
            "dialect.lists.total_header",
        ),
    ] {
        let err = portal_web::Config::from_toml_str(&format!("{base}{extra}"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(key), "{extra}: {err}");
    }
    let err = portal_web::Config::from_toml_str(&format!(
        "{base}[dialect.fields.article]\ncover = \"images[0].url\"\n"
    ))
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("images.0.url"),
        "a hint of the form that works: {err}"
    );
}

/// A CMS whose categories say nothing of their kind: 新闻中心 with 通知公告 below it, 25 notices.
fn without_kinds(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": [
                {"id": 2, "parentId": 0, "name": "新闻中心", "url": "/news_center"},
                {"id": 21, "parentId": 2, "name": "通知公告", "url": "/news_center/notice"},
            ]}),
        );
    }
    let page: u64 = query
        .split('&')
        .find_map(|p| p.strip_prefix("page="))
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    // Pages counted from 0, as the native dialect asks.
    let items: Vec<Value> = (1..=25u64)
        .rev()
        .skip((page * 10) as usize)
        .take(10)
        .map(|id| {
            json!({"id": id, "categoryId": 21, "title": format!("关于陆港站第{id}号调度的通知"),
            "publishTime": format!("2026-11-{id:02} 09:00:00"), "content": "<p>通知正文</p>"})
        })
        .collect();
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": items, "totalElements": 25}}),
    )
}

#[tokio::test]
async fn a_cms_without_kinds_gets_the_route_tables_lists_pages_and_feeds() {
    let cms = FakeUpstream::start(Reply::Route(without_kinds)).await;
    let app = spawn_app(page_config(&cms.base_url(), open_limits)).await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!(status, 200);
    let top = &body["result"]["content"][0];
    assert_eq!(top["type"], "group", "{body}");
    assert_eq!(top["subCategory"][0]["type"], "list", "{body}");
    // The news feed lists the notices; the list's second page is a page.
    let feed = app.get("/portal/feed/news.xml").await.text().await.unwrap();
    assert!(feed.contains("关于陆港站第25号调度的通知"), "{feed:.1500}");
    let second = app.get("/portal/news_center/notice?page=2").await;
    assert_eq!(second.status(), 200);
    let html = second.text().await.unwrap();
    let seen: Vec<String> = cms
        .seen()
        .iter()
        .map(|s| format!("{}?{}", s.path, s.query))
        .collect();
    assert!(html.contains("关于陆港站第15号调度的通知"), "{seen:?}");
}

#[tokio::test]
async fn a_cms_that_forbids_unknown_ids_is_read_as_not_found_where_the_config_says_so() {
    let forbidden = Reply::Json(
        403,
        json!({"errors": [{"message": "You don't have permission to access this."}]}),
    );
    let (app, _cms) = spawn_with_fake(forbidden.clone(), open_limits).await;
    let (status, _) = app.get_json("/portal/api/article/detail?id=77").await;
    assert_eq!(
        status, 502,
        "by default a 403 without the native envelope is no answer"
    );
    let (app, _cms) = spawn_with_fake(forbidden, |c| {
        open_limits(c);
        c.dialect.endpoints.article_detail.not_found = vec![403];
    })
    .await;
    let (status, body) = app.get_json("/portal/api/article/detail?id=77").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["msg"], "文章 77 不存在。");
}

const HOOK_SECRET: &str = "cms-hook-secret-4f9a2c";

fn detail_titled(title: &str) -> Reply {
    Reply::Json(
        200,
        json!({"code": 200, "result": {"id": 7, "categoryId": 21, "title": title,
            "content": "<p>正文</p>", "publishTime": "2026-11-20 08:00:00"}}),
    )
}

async fn notify(app: &TestApp, header: Option<(&str, &str)>, body: Value) -> (u16, Value) {
    let mut request = app
        .client
        .post(app.url("/portal/admin/webhook"))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some((name, value)) = header {
        request = request.header(name, value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn a_cms_built_in_webhook_with_a_secret_header_renews_what_it_names() {
    let (app, cms) = spawn_with_fake(detail_titled("旧标题"), |c| {
        open_limits(c);
        c.admin.webhook_secret = Some(HOOK_SECRET.into());
        c.admin.webhook_header = "x-portal-webhook-secret".to_owned();
    })
    .await;
    let (_, body) = app.get_json("/portal/api/article/detail?id=7").await;
    assert_eq!(body["result"]["title"], "旧标题");
    cms.set(detail_titled("新标题"));

    // Strapi's payload, its webhook sending the header as configured in its admin panel.
    let strapi = json!({"event": "entry.update", "createdAt": "2026-11-26T08:00:00.000Z",
        "model": "article", "uid": "api::article.article",
        "entry": {"id": 7, "documentId": "k3j2h1", "title": "新标题", "category": {"id": 21}}});
    let (status, _) = notify(
        &app,
        Some(("x-portal-webhook-secret", "wrong-secret-123456")),
        strapi.clone(),
    )
    .await;
    assert_eq!(status, 401, "a wrong secret");
    let (status, _) = notify(&app, None, strapi.clone()).await;
    assert_eq!(status, 401, "no secret");
    let (status, answer) =
        notify(&app, Some(("x-portal-webhook-secret", HOOK_SECRET)), strapi).await;
    assert_eq!(status, 200, "{answer}");
    let tags = answer["result"]["tags"].to_string();
    assert!(
        tags.contains("article:7") && tags.contains("category:21"),
        "{answer}"
    );
    assert!(
        answer["result"]["refreshed"]
            .to_string()
            .contains("article/detail?id=7"),
        "{answer}"
    );
    let response = app.get("/portal/api/article/detail?id=7").await;
    assert_eq!(
        response.headers()["x-cache"],
        "HIT",
        "renewed by the notice"
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["result"]["title"], "新标题");

    // Directus's payload (keys as strings), the secret as a bearer token.
    let directus = json!({"event": "items.update", "collection": "articles", "keys": ["7", "8"]});
    let (status, answer) = notify(
        &app,
        Some(("x-portal-webhook-secret", &format!("Bearer {HOOK_SECRET}"))),
        directus,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let tags = answer["result"]["tags"].to_string();
    assert!(
        tags.contains("article:7") && tags.contains("article:8"),
        "{answer}"
    );

    // A Directus Flow's `$trigger`: the event names the collection first, a create its one key.
    let flow = json!({"event": "articles.items.create", "collection": "articles", "key": "9",
        "payload": {"title": "新文章"}});
    let (status, answer) = notify(&app, Some(("x-portal-webhook-secret", HOOK_SECRET)), flow).await;
    assert_eq!(status, 200, "{answer}");
    assert!(
        answer["result"]["tags"].to_string().contains("article:9"),
        "{answer}"
    );

    // A content type the portal does not show: taken, nothing purged.
    let upload = json!({"event": "entry.create", "model": "upload", "entry": {"id": 3}});
    let (status, answer) =
        notify(&app, Some(("x-portal-webhook-secret", HOOK_SECRET)), upload).await;
    assert_eq!(
        (status, answer["result"]["entries"].as_u64()),
        (200, Some(0)),
        "{answer}"
    );
    // Another event of the CMS (its media library): taken, nothing purged.
    let media = json!({"event": "media.create", "media": {"id": 4, "name": "a.png"}});
    let (status, answer) =
        notify(&app, Some(("x-portal-webhook-secret", HOOK_SECRET)), media).await;
    assert_eq!(
        (status, answer["result"]["entries"].as_u64()),
        (200, Some(0)),
        "{answer}"
    );

    // A signed notice without the header is still taken (reference-cms signs).
    let signed =
        json!({"event": "update", "type": "article", "id": 7, "time": now(), "nonce": "n-1"})
            .to_string();
    let response = app
        .client
        .post(app.url("/portal/admin/webhook"))
        .header("content-type", "application/json")
        .header(
            "x-portal-signature",
            portal_web::webhook::sign(HOOK_SECRET.as_bytes(), signed.as_bytes()),
        )
        .body(signed)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Strapi addressed by `documentId` (`ids = "text"`): its payload's row `id`, and a relation's,
/// name nothing the portal knows and are never taken for an article's or a category's id.
#[tokio::test]
async fn under_text_ids_a_strapi_row_id_is_never_taken_for_the_portals_id() {
    let (app, _cms) = spawn_with_fake(
        Reply::Json(
            200,
            json!({"code": 200, "result": {"documentId": "k3j2h1", "category": {"documentId": "news01"},
                "title": "新标题", "content": "<p>正文</p>", "publishTime": "2026-11-20 08:00:00"}}),
        ),
        |c| {
            open_limits(c);
            c.admin.webhook_secret = Some(HOOK_SECRET.into());
            c.admin.webhook_header = "x-portal-webhook-secret".to_owned();
            with_toml(
                c,
                "[dialect]\nids = \"text\"\n[dialect.fields.article]\nid = \"documentId\"\n\
                 category_id = \"category.documentId\"\n",
            );
        },
    )
    .await;
    let header = Some(("x-portal-webhook-secret", HOOK_SECRET));
    // The relation as Strapi sends it when not populated with its documentId: its row id only.
    let strapi = json!({"event": "entry.update", "model": "article",
        "entry": {"id": 7, "documentId": "k3j2h1", "title": "新标题", "category": {"id": 21}}});
    let (status, answer) = notify(&app, header, strapi).await;
    assert_eq!(status, 200, "{answer}");
    let tags = answer["result"]["tags"].to_string();
    assert!(tags.contains("article:k3j2h1"), "{answer}");
    assert!(
        !tags.contains("article:7") && !tags.contains("category:21"),
        "a row id taken for the portal's: {answer}"
    );
    assert!(
        tags.contains("category:news01"),
        "read from the article's detail: {answer}"
    );
    // An entry without its documentId names no article the portal knows: refused, said.
    let rows_only = json!({"event": "entry.update", "model": "article", "entry": {"id": 7}});
    let (status, answer) = notify(&app, header, rows_only).await;
    assert_eq!(status, 400, "{answer}");
}

#[tokio::test]
async fn without_a_webhook_header_a_cms_payload_must_be_signed() {
    let (app, _cms) = spawn_with_fake(detail_titled("标题"), |c| {
        open_limits(c);
        c.admin.webhook_secret = Some(HOOK_SECRET.into());
    })
    .await;
    let strapi = json!({"event": "entry.update", "model": "article", "entry": {"id": 7}});
    let (status, _) = notify(&app, Some(("x-portal-webhook-secret", HOOK_SECRET)), strapi).await;
    assert_eq!(status, 401);
}

/// A notice that names an article but not its category (Directus's keys, a Strapi entry without
/// its relation): the article's category is read from its fresh detail, and that category's lists
/// are renewed too, so a new article enters them at once rather than after their TTL (issue 45:
/// a new Directus article never entered its lists through the Flow the guide describes).
#[tokio::test]
async fn a_notice_without_the_category_still_renews_the_articles_lists() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cms = listener.local_addr().unwrap();
    serve_reference_cms(
        listener,
        reference_cms_settings(
            reference_cms::Dialect::Native,
            reference_cms::CategoryShape::Flat,
        ),
    );
    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        open_limits(c);
        c.admin.webhook_secret = Some(HOOK_SECRET.into());
        c.admin.webhook_header = "x-portal-webhook-secret".to_owned();
    }))
    .await;
    let list = "/portal/api/article/list?categoryId=21&page=1&size=10";
    assert_eq!(app.get_json(list).await.0, 200);
    assert_eq!(app.get(list).await.headers()["x-cache"], "HIT");
    // Published in the CMS, its own webhook off: only the notice below tells the gateway.
    const TITLE: &str = "云川—塔什干班列今日首发";
    let published = publish(
        cms,
        json!({"categoryId": 21, "title": TITLE, "content": "<p>首发。</p>"}),
    )
    .await;
    let id = published["id"]
        .as_u64()
        .unwrap_or_else(|| panic!("{published}"));
    let flow = json!({"event": "articles.items.create", "collection": "articles",
        "key": id.to_string(), "payload": {"title": TITLE}});
    let (status, answer) = notify(&app, Some(("x-portal-webhook-secret", HOOK_SECRET)), flow).await;
    assert_eq!(status, 200, "{answer}");
    assert!(
        answer["result"]["tags"].to_string().contains("category:21"),
        "the category read from the article: {answer}"
    );
    let response = app.get(list).await;
    assert_eq!(
        response.headers()["x-cache"],
        "HIT",
        "renewed by the notice"
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["result"]["content"][0]["title"], TITLE, "{body}");
}

/// An article filed under several categories (a WordPress post in two): the notice names them all
/// (`categoryIds` besides `categoryId`, as deploy/wordpress/portal-webhook.php sends it) and every
/// one's lists are purged, so a new post enters each.
#[tokio::test]
async fn a_notice_naming_several_categories_reaches_each_ones_lists() {
    let (app, _cms) = spawn_with_fake(detail_titled("标题"), |c| {
        open_limits(c);
        c.admin.webhook_secret = Some(HOOK_SECRET.into());
        c.admin.webhook_header = "x-portal-webhook-secret".to_owned();
        c.admin.webhook_refresh = false;
    })
    .await;
    let notice = json!({"event": "publish", "type": "article", "id": 7, "categoryId": 21,
        "categoryIds": [41, 23], "time": now()});
    let (status, answer) =
        notify(&app, Some(("x-portal-webhook-secret", HOOK_SECRET)), notice).await;
    assert_eq!(status, 200, "{answer}");
    let tags = answer["result"]["tags"].to_string();
    for tag in ["article:7", "category:21", "category:41", "category:23"] {
        assert!(tags.contains(tag), "{tag}: {answer}");
    }
}
