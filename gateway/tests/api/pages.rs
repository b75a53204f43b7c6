//! The visitor's pages at their real URLs, rendered on the server by the app's own components
//! (`pages`, with the real build's server bundle, `frontend/dist`): the content of each page in
//! the first document, the store state the browser hydrates from, 404s, caching, purges and the
//! CMS webhook, the app shell when a render fails, and the old crawlable addresses, the sitemap and
//! the feeds leading to the real URLs.

use std::{
    collections::{BTreeSet, HashSet, VecDeque},
    path::PathBuf,
    time::{Duration, Instant},
};

use portal_core::portal_routes::PORTAL_ROUTES;
use serde_json::{Value, json};

use crate::helpers::*;

/// Where a test gateway says it is (`site.public_url` left out).
const PUBLIC: &str = "http://127.0.0.1:8080";
const ADMIN_TOKEN: &str = "pages-admin-token-0123";
const WEBHOOK_SECRET: &str = "pages-webhook-secret-0123";

// ---------------------------------------------------------------------------------------------
// Reading pages.

/// A GET: status, `Content-Type`, `X-Cache` and body.
async fn fetch(app: &TestApp, path: &str) -> (u16, String, String, String) {
    let response = app.get(path).await;
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    let (kind, cache) = (header("content-type"), header("x-cache"));
    let status = response.status().as_u16();
    (status, kind, cache, response.text().await.unwrap())
}

/// Whether the page shows an article's body: every run of its text, as the CMS's HTML has it, is in
/// the page's markup. Not the body's HTML whole: the app wraps its tables and charts in scroll boxes
/// with their cues (`enhanceBody`, issue 34), so the markup around the text is the app's.
fn shows_body(markup: &str, body: &str) -> bool {
    let runs: Vec<&str> = body
        .split('<')
        .filter_map(|part| part.split_once('>').map(|(_, text)| text.trim()))
        .filter(|text| !text.is_empty())
        .collect();
    !runs.is_empty() && runs.iter().all(|run| markup.contains(run))
}

/// `text` as React writes it in an element's content or an attribute's value.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

fn title_of(html: &str) -> Option<&str> {
    between(html, "<title>", "</title>")
}

fn canonical_of(html: &str) -> Option<&str> {
    between(html, "<link rel=\"canonical\" href=\"", "\"")
}

/// Every `<script …>…</script>` of a page: the rest of its opening tag, and its text.
fn scripts(html: &str) -> Vec<(&str, &str)> {
    html.split("<script")
        .skip(1)
        .map(|rest| {
            let (tag, after) = rest.split_once('>').expect("a script tag ends");
            let text = after.split("</script>").next().unwrap_or_default();
            (tag, text)
        })
        .collect()
}

/// What is wrong with the links of the page at `path`: any that does not lead to a real URL of
/// the portal (the app's old `#/` routes, the old crawlable pages), another site or a place on the
/// same page.
fn link_faults(path: &str, html: &str) -> Vec<String> {
    hrefs(html)
        .into_iter()
        .filter(|href| {
            href.contains("#/")
                || href.contains("/portal/site/")
                || !(href.starts_with("/portal/")
                    || href.starts_with("http://")
                    || href.starts_with("https://")
                    || (href.starts_with('#') && href.len() > 1))
        })
        .map(|href| format!("{path} links {href}"))
        .collect()
}

/// The categories of the API's tree, depth first.
fn flatten(list: &Value, out: &mut Vec<Value>) {
    for category in list.as_array().unwrap() {
        out.push(category.clone());
        flatten(&category["subCategory"], out);
    }
}

/// Every article id the API lists, all categories together.
async fn every_article(app: &TestApp) -> BTreeSet<u64> {
    let mut ids = BTreeSet::new();
    for page in 1.. {
        let (_, body) = app
            .get_json(&format!("/portal/api/article/list?page={page}&size=50"))
            .await;
        let content = body["result"]["content"].as_array().unwrap();
        ids.extend(content.iter().map(|a| a["id"].as_u64().unwrap()));
        if page >= body["result"]["totalPages"].as_u64().unwrap() {
            break;
        }
    }
    ids
}

/// The titles of a category's first `size` articles, newest first, as the API gives them.
async fn titles(app: &TestApp, category: u64, size: u64) -> Vec<String> {
    let (status, body) = app
        .get_json(&format!(
            "/portal/api/article/list?categoryId={category}&page=1&size={size}"
        ))
        .await;
    assert_eq!(status, 200, "{body}");
    body["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap().to_owned())
        .collect()
}

async fn purge(app: &TestApp, query: &str) {
    let purged = app
        .client
        .post(app.url(&format!("/portal/admin/cache/purge?{query}")))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(purged.status(), 200, "purge ?{query}");
}

// ---------------------------------------------------------------------------------------------
// Each page's content in the first document.

/// Every content route of the route table and the home page answer 200 with their content in the
/// server's HTML: the category's name as the `<h1>`, a list's latest titles, a single page's text,
/// a group's sections; each with a `<title>`, its canonical real URL, links to real URLs only and
/// the state it was rendered from.
#[tokio::test]
async fn every_content_route_and_the_home_page_are_rendered_with_their_content() {
    let app = spawn_pages_with_reference_cms().await;
    let (_, tree) = app.get_json("/portal/api/category/list").await;
    let mut categories = Vec::new();
    flatten(&tree["result"]["content"], &mut categories);
    assert!(PORTAL_ROUTES.len() > 30, "the route table was read");

    let mut wrong = Vec::new();
    let mut pages = vec![("/portal/".to_owned(), None)];
    for route in PORTAL_ROUTES {
        let category = categories
            .iter()
            .find(|c| c["url"] == *route)
            .unwrap_or_else(|| panic!("reference-cms has a category for {route}"));
        pages.push((format!("/portal{route}"), Some(category.clone())));
    }
    for (path, category) in pages {
        let (status, kind, _, html) = fetch(&app, &path).await;
        if status != 200 || kind != "text/html; charset=utf-8" {
            wrong.push(format!("{path}: {status} {kind}"));
            continue;
        }
        let title = title_of(&html).unwrap_or_default();
        if !title.ends_with(COMPANY) {
            wrong.push(format!("{path}: <title>{title}</title>"));
        }
        if canonical_of(&html) != Some(&format!("{PUBLIC}{path}")) {
            wrong.push(format!("{path}: canonical {:?}", canonical_of(&html)));
        }
        wrong.extend(link_faults(&path, &html));
        if answers_in(&state_of(&html)).is_empty() {
            wrong.push(format!("{path}: no answers in its state"));
        }
        // The page's own content, before the state block (the markup, not the data).
        let markup = html.split(STATE_OPEN).next().unwrap();
        let Some(category) = category else {
            // The home page: the company as its heading, the latest news and notices.
            if !markup.contains(&format!(">{COMPANY}</h1>")) {
                wrong.push(format!("{path}: no <h1> naming the company"));
            }
            for (list, size) in [(21, 5), (23, 5)] {
                for t in titles(&app, list, size).await {
                    if !markup.contains(&escaped(&t)) {
                        wrong.push(format!("{path}: the latest of {list}, {t}, is missing"));
                    }
                }
            }
            continue;
        };
        let (id, name) = (
            category["id"].as_u64().unwrap(),
            category["name"].as_str().unwrap(),
        );
        if !markup.contains(&format!("<h1>{}</h1>", escaped(name))) {
            wrong.push(format!("{path}: no <h1>{name}</h1>"));
        }
        if !title.starts_with(&escaped(name)) {
            wrong.push(format!(
                "{path}: <title>{title}</title> does not name {name}"
            ));
        }
        match category["type"].as_str().unwrap() {
            "list" => {
                let latest = titles(&app, id, 10).await;
                if latest.is_empty() {
                    wrong.push(format!("{path}: the demo list {id} is empty"));
                }
                for t in latest {
                    if !markup.contains(&format!(">{}</a>", escaped(&t))) {
                        wrong.push(format!("{path}: {t} is not linked"));
                    }
                }
                // A longer list links its next page at its real URL.
                let (_, list) = app
                    .get_json(&format!("/portal/api/article/list?categoryId={id}&size=10"))
                    .await;
                let next = format!("href=\"{path}?page=2\"");
                if list["result"]["totalElements"].as_u64().unwrap() > 10 && !markup.contains(&next)
                {
                    wrong.push(format!("{path}: no link to its page 2"));
                }
            }
            "page" => {
                let (_, first) = app
                    .get_json(&format!(
                        "/portal/api/article/list?categoryId={id}&page=1&size=1"
                    ))
                    .await;
                let article = first["result"]["content"][0]["id"].as_u64().unwrap();
                let (_, detail) = app
                    .get_json(&format!("/portal/api/article/detail?id={article}"))
                    .await;
                let text = detail["result"]["content"].as_str().unwrap();
                if text.len() < 100 || !shows_body(markup, text) {
                    wrong.push(format!("{path}: the text of article {article} is missing"));
                }
            }
            "group" => {
                for child in category["subCategory"].as_array().unwrap() {
                    let href = format!("href=\"/portal{}\"", child["url"].as_str().unwrap());
                    if !markup.contains(&href) {
                        wrong.push(format!(
                            "{path}: its section {} is not linked",
                            child["name"]
                        ));
                    }
                }
            }
            other => wrong.push(format!("{path}: a category of type {other}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// An article at its real URL: its title, its whole body (sanitised by the gateway), the way back
/// to its list and on to the next article, the page's head; the state holds the API's own answer,
/// which the browser hydrates from instead of asking again.
#[tokio::test]
async fn an_article_page_carries_its_text_and_the_apis_answer() {
    let app = spawn_pages_with_reference_cms().await;
    let (_, detail) = app.get_json("/portal/api/article/detail?id=2101").await;
    let article = &detail["result"];
    let title = article["title"].as_str().unwrap();
    let response = app.get("/portal/article/2101").await;
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    assert_eq!(
        headers["cache-control"], "no-cache",
        "it names the build's scripts"
    );
    assert!(headers.contains_key("content-security-policy"));
    let policy = headers["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let html = response.text().await.unwrap();
    let markup = html.split(STATE_OPEN).next().unwrap();

    // Its inline scripts (the build's head script) are allowed by hash by the policy it is sent
    // with, and by nothing looser; its data blocks are not scripts the browser runs.
    let mut inline = 0;
    for (tag, text) in scripts(&html) {
        if tag.contains("src=") || tag.contains("type=\"application/") {
            continue;
        }
        let hash = {
            use base64::Engine;
            use sha2::Digest;
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text))
        };
        assert!(
            policy.contains(&format!("'sha256-{hash}'")),
            "<script{tag}>{text:.100}… is not allowed by {policy}"
        );
        inline += 1;
    }
    assert!(inline >= 1, "the head script");
    assert!(!policy.contains("unsafe-inline"), "{policy}");

    assert!(
        markup.contains(&format!("<h1>{}</h1>", escaped(title))),
        "{markup}"
    );
    assert!(
        markup.contains(article["content"].as_str().unwrap()),
        "the body as the API gives it, whole"
    );
    assert!(
        title_of(&html).unwrap().starts_with(&escaped(title)),
        "{:?}",
        title_of(&html)
    );
    assert_eq!(
        canonical_of(&html),
        Some(format!("{PUBLIC}/portal/article/2101").as_str())
    );
    let links = hrefs(markup);
    for href in [
        "/portal/",
        "/portal/news_center",
        "/portal/news_center/company_announcement/1",
        &format!("/portal/article/{}", article["next"]["id"]),
    ] {
        assert!(links.iter().any(|l| l == href), "{href} is not linked");
    }
    let faults = link_faults("/portal/article/2101", &html);
    assert!(faults.is_empty(), "{}", faults.join("\n"));

    let state = state_of(&html);
    let answers = answers_in(&state);
    assert!(
        answers.iter().any(|data| **data == *article),
        "the state holds the API's answer for the article as it is"
    );
    let (_, tree) = app.get_json("/portal/api/category/list").await;
    assert!(
        answers
            .iter()
            .any(|data| **data == tree["result"]["content"]),
        "and the category tree"
    );
}

/// The `content` of a page's `<meta {attribute}="{name}">`.
fn meta<'a>(html: &'a str, attribute: &str, name: &str) -> Option<&'a str> {
    between(
        html,
        &format!("<meta {attribute}=\"{name}\" content=\""),
        "\"",
    )
}

/// What a link in a chat, a share card or a search result is made of: the article's title, its
/// summary and its cover at an absolute address, and its structured data (a `NewsArticle`).
#[tokio::test]
async fn an_article_page_carries_what_share_cards_and_search_engines_read() {
    let app = spawn_pages_with_reference_cms().await;
    let (_, detail) = app.get_json("/portal/api/article/detail?id=2101").await;
    let article = &detail["result"];
    let (title, summary) = (
        article["title"].as_str().unwrap(),
        article["summary"].as_str().unwrap(),
    );
    let cover = article["cover"].as_str().unwrap();
    assert!(cover.starts_with("/portal/"), "{cover}");
    let (_, _, _, html) = fetch(&app, "/portal/article/2101").await;
    let head = between(&html, "<head>", "</head>").unwrap();
    let url = format!("{PUBLIC}/portal/article/2101");
    let image = format!("{PUBLIC}{cover}");
    for (attribute, name, expected) in [
        ("property", "og:type", "article"),
        ("property", "og:url", url.as_str()),
        ("property", "og:title", &escaped(title)),
        ("name", "description", &escaped(summary)),
        ("property", "og:description", &escaped(summary)),
        ("property", "og:image", &image),
        ("property", "og:site_name", COMPANY),
    ] {
        assert_eq!(meta(head, attribute, name), Some(expected), "{name}");
    }
    let ld: Vec<Value> = scripts(&html)
        .into_iter()
        .filter(|(tag, _)| tag.contains("type=\"application/ld+json\""))
        .map(|(_, text)| serde_json::from_str(text).unwrap())
        .collect();
    let news = ld
        .iter()
        .find(|ld| ld["@type"] == "NewsArticle")
        .expect("the article's structured data");
    assert_eq!(news["headline"], title);
    assert_eq!(news["mainEntityOfPage"], url);
    assert_eq!(news["image"][0], image);
    assert!(
        news["datePublished"].as_str().unwrap().ends_with("+08:00"),
        "{news}"
    );
    // A page without a picture names none.
    let (_, _, _, html) = fetch(&app, "/portal/news_center/notice").await;
    let head = between(&html, "<head>", "</head>").unwrap();
    assert_eq!(meta(head, "property", "og:type"), Some("website"));
    assert_eq!(meta(head, "property", "og:title"), Some("通知公告"));
    assert_eq!(meta(head, "property", "og:image"), None);
}

/// CMS text that looks like markup stays text: in the page it is escaped, and in the state block
/// no `</script` can end the block early (a title made to, read back whole from it).
#[tokio::test]
async fn cms_text_cannot_end_the_state_block_or_become_markup() {
    const TITLE: &str = "</script><script>alert(1)</script>\"><b>粗</b>";
    fn hostile(path: &str, _query: &str) -> Reply {
        let summary = json!({"id": 9, "categoryId": 21, "title": TITLE,
            "summary": "\"><img src=x onerror=alert(1)>", "publishTime": "2026-11-01 08:00:00"});
        if path.ends_with("category/list") {
            Reply::Json(
                200,
                json!({"code": 200, "result": {"content": [{"id": 2, "parentId": 0,
                    "name": "新闻中心", "url": "/news_center", "sort": 1, "type": "group",
                    "subCategory": [{"id": 21, "parentId": 2, "name": "公司要闻",
                        "url": "/news_center/company_announcement/1", "sort": 1, "type": "list",
                        "subCategory": []}]}]}}),
            )
        } else if path.ends_with("article/list") {
            Reply::Json(
                200,
                json!({"code": 200, "result": {"content": [summary], "totalElements": 1,
                    "totalPages": 1, "number": 0, "size": 10}}),
            )
        } else {
            let mut detail = summary;
            detail["content"] = json!("<p>正文</p><script>alert(2)</script>");
            Reply::Json(200, json!({"code": 200, "result": detail}))
        }
    }
    let fake = FakeUpstream::start(Reply::Route(hostile)).await;
    let app = spawn_app(page_config(&fake.base_url(), |_| {})).await;
    let build = std::fs::read_to_string(app_build_dir().join("index.html")).unwrap();
    let build_scripts: Vec<(&str, &str)> = scripts(&build);

    for path in [
        "/portal/article/9",
        "/portal/news_center/company_announcement/1",
    ] {
        let (status, _, _, html) = fetch(&app, path).await;
        assert_eq!(status, 200, "{path}");
        // Each script is the build's own or a data block that reads whole as JSON: none was
        // ended early or added by the CMS's text.
        let mut data_blocks = 0;
        for (tag, text) in scripts(&html) {
            if build_scripts.contains(&(tag, text)) {
                continue;
            }
            assert!(
                tag.contains("type=\"application/json\"")
                    || tag.contains("type=\"application/ld+json\""),
                "{path}: a script the build does not have: <script{tag}>{text:.200}"
            );
            assert!(
                !text.to_ascii_lowercase().contains("</script"),
                "{path}: {text:.300}"
            );
            serde_json::from_str::<Value>(text).unwrap_or_else(|err| {
                panic!("{path}: <script{tag}> is not JSON ({err}): {text:.300}")
            });
            data_blocks += 1;
        }
        assert!(data_blocks >= 1, "{path}: the state block");
        let state = state_of(&html);
        let found = answers_in(&state).iter().any(|data| {
            data["title"] == TITLE
                || data["content"]
                    .as_array()
                    .is_some_and(|items| items.iter().any(|a| a["title"] == TITLE))
        });
        assert!(found, "{path}: the title, whole, in the state");
        assert!(!html.contains("<b>粗</b>"), "{path}");
        assert!(
            !html.contains("<img src=x"),
            "{path}: the summary stays text"
        );
        assert!(!html.contains("alert(2)"), "{path}: the body is sanitised");
    }
    let (_, _, _, html) = fetch(&app, "/portal/article/9").await;
    assert!(
        html.contains(&format!("<h1>{}</h1>", escaped(TITLE))),
        "the title, escaped: {html:.3000}"
    );
}

/// An address no route has, and an article the CMS does not have, answer 404 with the app's own
/// page saying so (rendered, with the menu to go on from), not the app shell nor a bare 404.
#[tokio::test]
async fn unknown_routes_and_missing_articles_answer_404_with_their_rendered_page() {
    let app = spawn_pages_with_reference_cms().await;
    for (path, heading) in [
        ("/portal/nope", "页面不存在"),
        ("/portal/news_center/nope", "页面不存在"),
        ("/portal/article/999999", "文章不存在"),
        ("/portal/article/abc", "文章不存在"),
        // Ids the API takes none of: no article, rather than a load failure.
        ("/portal/article/0", "文章不存在"),
        ("/portal/article/0021", "文章不存在"),
        ("/portal/article/123456789012345678901", "文章不存在"),
        ("/portal/party/detail?id=0", "文章不存在"),
        // A list's page past its last.
        ("/portal/news_center/notice?page=999", "通知公告"),
    ] {
        let (status, kind, _, html) = fetch(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(kind, "text/html; charset=utf-8", "{path}");
        assert!(
            html.contains(&format!("<h1>{heading}</h1>")),
            "{path}: {html:.2000}"
        );
        assert!(
            title_of(&html).is_some_and(|t| t.starts_with(heading)),
            "{path}: {:?}",
            title_of(&html)
        );
        assert!(!html.contains("加载失败"), "{path}: {html:.3000}");
        assert!(
            html.contains("href=\"/portal/\"")
                && html.contains("href=\"/portal/news_center/notice\""),
            "{path}: the ways back in"
        );
        state_of(&html);
    }
    // The spec's duplicate routes (`sameAs` in the route table) are their page's, for good.
    for (path, to) in [
        (
            "/portal/development_history",
            "/portal/about/development_history",
        ),
        (
            "/portal/party",
            "/portal/party-construction/party-building-activities",
        ),
        (
            "/portal/business_overview/fuse",
            "/portal/business/industrial_park",
        ),
        (
            "/portal/social_responsibility/friend_cooperation",
            "/portal/liaison/friendly-cooperation",
        ),
        // A page's address in other letters or with a trailing slash (the app's router shows the
        // page there too): its one address, the query kept.
        (
            "/portal/News_Center/Notice/?page=2",
            "/portal/news_center/notice?page=2",
        ),
        ("/portal/article/2101/", "/portal/article/2101"),
        (
            "/portal/ARTICLE/2101?listPage=2",
            "/portal/article/2101?listPage=2",
        ),
        (
            "/portal/search/?q=%E7%8F%AD%E5%88%97",
            "/portal/search?q=%E7%8F%AD%E5%88%97",
        ),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 301, "{path}");
        assert_eq!(response.headers()["location"], to, "{path}");
    }
}

// ---------------------------------------------------------------------------------------------
// Caching, purges, the webhook.

/// A gateway with an admin token in front of reference-cms (whose admin edits its articles).
async fn spawn_purgeable() -> (TestApp, std::net::SocketAddr) {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        open_limits(c);
        c.admin.token = Some(ADMIN_TOKEN.into());
    }))
    .await;
    (app, cms)
}

/// A page is kept: the second request is a hit with the same ETag (and a 304 for a browser that
/// holds it). Nothing tells it of a change made in the CMS; a hard purge by the article's tag
/// does: the next request renders the changed article. Pages that do not show it stay.
#[tokio::test]
async fn a_page_is_cached_and_a_hard_purge_by_a_tag_it_shows_renews_it() {
    let (app, cms) = spawn_purgeable().await;
    let article = "/portal/article/2101";
    let other = "/portal/news_center/notice";
    let (_, _, cache, html) = fetch(&app, article).await;
    assert_eq!(cache, "MISS");
    let old = title_of(&html).unwrap().to_owned();
    let first = app.get(article).await;
    assert_eq!(first.headers()["x-cache"], "HIT");
    let etag = first.headers()["etag"].clone();
    let revalidated = app
        .client
        .get(app.url(article))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    assert_eq!(fetch(&app, other).await.2, "MISS");
    assert_eq!(fetch(&app, other).await.2, "HIT");

    // Changed in the CMS, nothing told: the kept page.
    edit_article(
        cms,
        2101,
        json!({"title": "云川—汉堡班列开行三千列（更正）"}),
    )
    .await;
    let (_, _, cache, html) = fetch(&app, article).await;
    assert_eq!(
        (cache.as_str(), title_of(&html).unwrap()),
        ("HIT", old.as_str())
    );

    purge(&app, "tag=article:2101&hard=true").await;
    let (status, _, cache, html) = fetch(&app, article).await;
    assert_eq!((status, cache.as_str()), (200, "MISS"), "hard: gone");
    assert!(html.contains("<h1>云川—汉堡班列开行三千列（更正）</h1>"));
    assert_eq!(fetch(&app, article).await.2, "HIT");
    assert_eq!(
        fetch(&app, other).await.2,
        "HIT",
        "a page not showing it stays"
    );
}

/// A soft purge by the article's tag (the default, and what the CMS webhook does with the pages
/// it does not load again itself): the old page once more while it renders again, then the
/// changed one, not a page rendered again from the API answers the same purge made stale (shown,
/// not kept).
#[tokio::test]
async fn a_soft_purge_by_a_tag_a_page_shows_renews_it_after_one_stale_answer() {
    let (app, cms) = spawn_purgeable().await;
    let article = "/portal/article/2101";
    let (_, _, _, html) = fetch(&app, article).await;
    let old = title_of(&html).unwrap().to_owned();
    assert_eq!(fetch(&app, article).await.2, "HIT");
    edit_article(
        cms,
        2101,
        json!({"title": "云川—汉堡班列开行三千列（更正）"}),
    )
    .await;
    purge(&app, "tag=article:2101").await;
    let (status, _, cache, html) = fetch(&app, article).await;
    assert_eq!(status, 200);
    assert_eq!(
        (cache.as_str(), title_of(&html).unwrap()),
        ("STALE", old.as_str()),
        "soft: the old page while it renders again"
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (_, _, _, html) = fetch(&app, article).await;
        if html.contains("<h1>云川—汉堡班列开行三千列（更正）</h1>") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the soft-purged page never showed the change"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Query parameters the app does not read (a campaign's, a share's) are not part of the page's
/// key: the same entry answers, so they cannot fill the cache with copies of one page. Those it
/// reads (a list's `page`) are.
#[tokio::test]
async fn parameters_the_app_does_not_read_make_no_new_entries() {
    let app = spawn_pages_with_reference_cms().await;
    let list = "/portal/news_center/company_announcement/1";
    let first = app.get(list).await;
    assert_eq!(first.headers()["x-cache"], "MISS");
    let etag = first.headers()["etag"].clone();
    for path in [
        format!("{list}?utm=1"),
        format!("{list}?utm_source=wechat&from=timeline&isappinstalled=0"),
    ] {
        let response = app.get(&path).await;
        assert_eq!(response.headers()["x-cache"], "HIT", "{path}");
        assert_eq!(response.headers()["etag"], etag, "{path}");
    }
    let second = app.get(&format!("{list}?page=2")).await;
    assert_eq!(second.headers()["x-cache"], "MISS", "a page the app reads");
    assert_ne!(second.headers()["etag"], etag);
    for path in [
        format!("{list}?utm=1&page=2"),
        format!("{list}?page=02"),
        // Parameters other pages read.
        format!("{list}?page=2&q=%E7%8F%AD%E5%88%97&id=3&listPage=4"),
    ] {
        let again = app.get(&path).await;
        assert_eq!(again.headers()["x-cache"], "HIT", "{path}");
        assert_eq!(again.headers()["etag"], second.headers()["etag"], "{path}");
    }
    // A page number the app takes none from is the first page.
    let first_again = app.get(&format!("{list}?page=0x2")).await;
    assert_eq!(first_again.headers()["x-cache"], "HIT");
    assert_eq!(first_again.headers()["etag"], etag);
}

/// The CMS's webhook for an edited article reaches the pages that show it (the article's and its
/// list's): none is served as fresh with the old title after the notice, and both show the new
/// one within moments. A new article heads its list's page.
#[tokio::test]
async fn the_cms_webhook_renews_the_pages_that_show_the_article() {
    let (app, cms) = spawn_with_notifying_cms(WEBHOOK_SECRET, |upstream| {
        page_config(upstream, |c| {
            open_limits(c);
            c.admin.token = Some(ADMIN_TOKEN.into());
            c.admin.webhook_secret = Some(WEBHOOK_SECRET.into());
        })
    })
    .await;

    let pages = [
        "/portal/article/2102",
        "/portal/news_center/company_announcement/1",
    ];
    for path in pages {
        let (status, _, _, html) = fetch(&app, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(
            html.contains("集团与阿拉木图陆港签署战略合作协议"),
            "{path}"
        );
        assert_eq!(fetch(&app, path).await.2, "HIT", "{path}");
    }
    const NEW: &str = "集团与阿拉木图陆港签署战略合作协议（修订）";
    let answer = edit_article(cms, 2102, json!({"title": NEW})).await;
    assert_eq!(answer["webhook"], 200, "{answer}");
    // The notice's answer came once its pages were rendered again: the first visitor after it
    // meets each page kept, showing the change, and no render.
    for path in pages {
        let (status, _, cache, html) = fetch(&app, path).await;
        assert_eq!((status, cache.as_str()), (200, "HIT"), "{path}");
        assert!(html.contains(NEW), "{path} shows the change");
    }

    let published: Value = crate::helpers::client()
        .post(format!("http://{cms}/admin/articles"))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .json(
            &json!({"categoryId": 21, "title": "陆港集团开通云川—布达佩斯班列",
            "content": "<p>首列于今晨发车。</p>"}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(published["webhook"], 200, "{published}");
    let list = pages[1];
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, _, _, html) = fetch(&app, list).await;
        let first = between(&html, "article-item__title\"><a href=\"", "<");
        if first.is_some_and(|a| a.ends_with("\">陆港集团开通云川—布达佩斯班列")) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the new article never headed {list}: {first:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A webhook arrives while a load of the same answers is under way: the CMS began that load's
/// answer before the edit and sends it after. Neither the API's answer nor the page rendered from
/// it is kept as fresh: the next visitor sees the edit on both (issue 45: an edit was lost for a
/// TTL when the notice's refresh joined the older load).
#[tokio::test]
async fn a_notice_during_a_load_of_the_same_answers_loses_no_edit() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static EDITED: AtomicBool = AtomicBool::new(false);
    const OLD: &str = "陆港开行第一千列中欧班列";
    const NEW: &str = "陆港开行第一千列中欧班列（更正）";
    fn cms(path: &str, query: &str) -> Reply {
        let edited = EDITED.load(Ordering::SeqCst);
        let title = if edited { NEW } else { OLD };
        let article = json!({"id": 7, "categoryId": 21, "title": title,
            "publishTime": "2026-11-01 08:00:00", "content": format!("<p>{title}。</p>")});
        let answer = if path.ends_with("category/list") {
            json!({"code": 200, "result": {"content": [{"id": 2, "parentId": 0,
                "name": "新闻中心", "url": "/news_center", "sort": 1, "type": "group",
                "subCategory": [{"id": 21, "parentId": 2, "name": "公司要闻", "sort": 1,
                    "type": "list", "url": "/news_center/company_announcement/1",
                    "subCategory": []}]}]}})
        } else if path.ends_with("article/detail") && query.contains("id=7") {
            json!({"code": 200, "result": article})
        } else if path.ends_with("article/list") {
            json!({"code": 200, "result": {"content": [article], "totalElements": 1,
                "totalPages": 1, "number": 0, "size": 10}})
        } else {
            return Reply::Json(404, json!({"code": 404, "msg": "不存在"}));
        };
        // Made now, sent later: an answer begun before the edit arrives after its notice.
        if edited {
            Reply::Json(200, answer)
        } else {
            Reply::Delayed(Duration::from_millis(900), answer)
        }
    }
    let fake = FakeUpstream::start(Reply::Route(cms)).await;
    let app = spawn_app(page_config(&fake.base_url(), |c| {
        open_limits(c);
        c.admin.webhook_secret = Some(WEBHOOK_SECRET.into());
        c.admin.webhook_header = "x-portal-webhook-secret".to_owned();
    }))
    .await;
    let (api, page) = ("/portal/api/article/detail?id=7", "/portal/article/7");
    // Two visitors, each starting a load that reads the pre-edit answer; the edit's notice
    // while they wait.
    let edit = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        EDITED.store(true, Ordering::SeqCst);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let notice = crate::helpers::client()
            .post(app.url("/portal/admin/webhook"))
            .header("x-portal-webhook-secret", WEBHOOK_SECRET)
            .json(
                &json!({"event": "update", "type": "article", "id": 7, "categoryId": 21,
                "time": now}),
            )
            .send()
            .await
            .unwrap();
        (notice.status().as_u16(), notice.text().await.unwrap())
    };
    let ((api_status, _, _, old_api), (page_status, _, _, old_page), notice) =
        tokio::join!(fetch(&app, api), fetch(&app, page), edit);
    assert_eq!(notice.0, 200, "{}", notice.1);
    // What they asked began before the edit: they may have the old title.
    assert_eq!(
        (api_status, page_status),
        (200, 200),
        "{old_api} {old_page}"
    );
    for path in [api, page] {
        let (status, _, cache, body) = fetch(&app, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(
            body.contains(NEW),
            "{path} ({cache}) lost the edit: {}",
            body.chars().take(300).collect::<String>()
        );
    }
}

/// A CMS slow enough that a page's load (renders, each after a round of CMS calls, each call
/// within the CMS time-out) outlasts what the cache waits for a load (`upstream.timeout` +
/// 500 ms): the visitor gets the app shell at once (counted), never the build's `index.html` as it
/// is nor the 404 page; the load goes on and keeps the page for the next visitor.
#[tokio::test]
async fn a_page_whose_load_outlasts_the_caches_wait_still_answers_the_page() {
    fn slow(path: &str, query: &str) -> Reply {
        let delay = Duration::from_millis(700);
        if path.ends_with("category/list") {
            return Reply::Delayed(
                delay,
                json!({"code": 200, "result": {"content": [{"id": 2, "parentId": 0,
                    "name": "新闻中心", "url": "/news_center", "sort": 1, "type": "group",
                    "subCategory": [
                        {"id": 21, "parentId": 2, "name": "公司要闻", "sort": 1, "type": "list",
                            "url": "/news_center/company_announcement/1", "subCategory": []},
                        {"id": 23, "parentId": 2, "name": "通知公告", "sort": 2, "type": "list",
                            "url": "/news_center/notice", "subCategory": []}]}]}}),
            );
        }
        let category: u64 = query
            .split('&')
            .find_map(|p| p.strip_prefix("categoryId="))
            .and_then(|id| id.parse().ok())
            .unwrap_or(21);
        let article = json!({"id": category * 100 + 1, "categoryId": category,
            "title": format!("栏目{category}的文章"), "publishTime": "2026-11-01 08:00:00"});
        Reply::Delayed(
            delay,
            json!({"code": 200, "result": {"content": [article], "totalElements": 1,
                "totalPages": 1, "number": 0, "size": 10}}),
        )
    }
    let fake = FakeUpstream::start(Reply::Route(slow)).await;
    // Each CMS call within its 800 ms; a page's, one round after another, not.
    let app = spawn_app(config_for(&fake.base_url(), &app_build_dir(), |c| {
        open_limits(c);
        render_slack(c);
    }))
    .await;
    let before = fallbacks(&app, "wait").await;
    // At once, so that neither finds the other's answers in the cache.
    let pages = ["/portal/", "/portal/news_center/notice"];
    let (home, list) = tokio::join!(fetch(&app, pages[0]), fetch(&app, pages[1]));
    for (path, (status, _, _, html)) in [(pages[0], home), (pages[1], list)] {
        assert_shell(path, status, &html);
    }
    assert!(fallbacks(&app, "wait").await >= before + 2);
    for path in pages {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (status, _, cache, html) = fetch(&app, path).await;
            if cache == "HIT" {
                assert_eq!(status, 200, "{path}");
                assert!(html.contains(STATE_OPEN), "{path}: rendered");
                break;
            }
            assert!(Instant::now() < deadline, "{path} was never kept");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A render that fails answers the app shell.

/// A build whose server bundle is `script` (its `index.html` the real build's), in a folder of
/// its own under `target/`.
fn build_with_bundle(name: &str, script: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bundle-{name}"));
    std::fs::create_dir_all(dir.join("server")).unwrap();
    std::fs::copy(app_build_dir().join("index.html"), dir.join("index.html")).unwrap();
    std::fs::write(dir.join("server/render.js"), script).unwrap();
    dir
}

/// A gateway in front of reference-cms rendering with `script` as its server bundle, each call
/// within 300 ms.
async fn spawn_with_bundle(name: &str, script: &str) -> TestApp {
    let cms = spawn_reference_cms().await;
    spawn_app(page_config_of(
        &format!("http://{cms}/"),
        &build_with_bundle(name, script),
        |c| {
            open_limits(c);
            c.render.timeout = Duration::from_millis(300);
        },
    ))
    .await
}

/// `portal_page_fallbacks_total{reason}` as `/metrics` says it now. The metrics are the
/// process's, shared by every test's gateway: compare before and after.
async fn fallbacks(app: &TestApp, reason: &str) -> u64 {
    let text = app.get("/metrics").await.text().await.unwrap();
    let line = format!("portal_page_fallbacks_total{{reason=\"{reason}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&line))
        .map_or(0, |value| value.trim().parse::<f64>().unwrap() as u64)
}

/// The app shell: the build's page with the company's name as its title, an empty root and no
/// state, which the browser's scripts render.
fn assert_shell(path: &str, status: u16, html: &str) {
    assert_eq!(status, 200, "{path}");
    assert!(
        html.contains(&format!("<title>{COMPANY}</title>")),
        "{path}: {html:.2000}"
    );
    assert!(
        html.contains("<div id=\"root\"></div>"),
        "{path}: {html:.2000}"
    );
    assert!(!html.contains(STATE_OPEN), "{path}");
    assert!(
        html.contains("src=\"/portal/assets/main."),
        "{path}: the app's scripts"
    );
}

/// `/readyz` says not ready while the render engines are being built from the app's server
/// bundle (here one whose top level takes 2 s), and ready once one is; the page asked for in
/// between is rendered, not the app shell.
#[tokio::test]
async fn readiness_waits_for_a_render_engine() {
    let slow = "const until = Date.now() + 2000; while (Date.now() < until) {}\n\
                globalThis.portalRender = () => JSON.stringify({status: 200, head: '<title>慢</title>', html: '<p>已渲染</p>', state: {}, renders: 1});";
    let app = spawn_with_bundle("slow-start", slow).await;
    let (status, body) = app.get_json("/readyz").await;
    assert_eq!(status, 503, "not ready while the engine is built: {body}");
    let (status, _, _, html) = fetch(&app, "/portal/").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("<p>已渲染</p>"),
        "rendered, not the shell: {html:.800}"
    );
    let (status, body) = app.get_json("/readyz").await;
    assert_eq!(status, 200, "ready once an engine is built: {body}");
}

/// A page whose component throws on the server answers 200 with the app shell (the browser
/// renders it itself), never kept, counted; the other pages render as before.
#[tokio::test]
async fn a_render_that_throws_answers_the_app_shell() {
    // The real bundle, with one page's render throwing as a component would.
    let real = std::fs::read_to_string(app_build_dir().join("server/render.js")).unwrap();
    let script = format!(
        "{real}\n;(function () {{\n  var render = globalThis.portalRender;\n  \
         globalThis.portalRender = function (input) {{\n    \
         if (JSON.parse(input).url.indexOf('/portal/about/') === 0) {{\n      \
         throw new TypeError(\"Cannot read properties of undefined (reading 'title')\");\n    }}\n    \
         return render(input);\n  }};\n}})();\n"
    );
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config_of(
        &format!("http://{cms}/"),
        &build_with_bundle("throws", &script),
        open_limits,
    ))
    .await;
    let before = fallbacks(&app, "script").await;
    let path = "/portal/about/company_profile";
    for _ in 0..2 {
        let (status, _, cache, html) = fetch(&app, path).await;
        assert_shell(path, status, &html);
        assert_ne!(cache, "HIT", "a shell is never kept");
    }
    assert!(fallbacks(&app, "script").await >= before + 2);
    let (status, _, _, html) = fetch(&app, "/portal/news_center/notice").await;
    assert_eq!(status, 200);
    assert!(html.contains("<h1>通知公告</h1>"), "other pages render");
}

/// A render that never ends is stopped at its budget and the page answers the app shell within
/// it, while `/healthz` answers at once throughout: the renders run on their own threads.
#[tokio::test]
async fn a_render_that_never_ends_answers_the_app_shell_within_its_budget() {
    let app = spawn_with_bundle(
        "endless",
        "globalThis.portalRender = function () { while (true) {} };",
    )
    .await;
    let before = fallbacks(&app, "timed_out").await;
    let app = std::sync::Arc::new(app);
    // As many as the pool has threads: both spin at once.
    let renders: Vec<_> = ["/portal/news_center/notice", "/portal/article/2101"]
        .into_iter()
        .map(|path| {
            let app = app.clone();
            tokio::spawn(async move {
                let started = Instant::now();
                let (status, _, _, html) = fetch(&app, path).await;
                (path, status, html, started.elapsed())
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    for _ in 0..5 {
        let started = Instant::now();
        assert_eq!(app.get("/healthz").await.status(), 200);
        let took = started.elapsed();
        assert!(took < Duration::from_millis(100), "/healthz took {took:?}");
    }
    assert!(
        renders.iter().all(|r| !r.is_finished()),
        "the renders were still spinning while /healthz answered"
    );
    for render in renders {
        let (path, status, html, took) = render.await.unwrap();
        assert_shell(path, status, &html);
        assert!(
            took < Duration::from_millis(1500),
            "{path} took {took:?}, the budget 300 ms"
        );
    }
    assert!(fallbacks(&app, "timed_out").await >= before + 2);
    let (status, _, _, html) = fetch(&app, "/portal/").await;
    assert_shell("/portal/ after the time-outs", status, &html);
}

/// A bundle whose answer the gateway cannot use (not JSON; a page that keeps asking for the same
/// answer) answers the app shell too, each counted under its reason.
#[tokio::test]
async fn a_render_whose_answer_cannot_be_used_answers_the_app_shell() {
    for (name, script, reason) in [
        (
            "not-json",
            "globalThis.portalRender = function () { return '<main>页面</main>'; };",
            "output",
        ),
        (
            "asks-again",
            "globalThis.portalRender = function () { return JSON.stringify({ needs: ['/portal/api/site'] }); };",
            "rounds",
        ),
    ] {
        let app = spawn_with_bundle(name, script).await;
        let before = fallbacks(&app, reason).await;
        let (status, _, _, html) = fetch(&app, "/portal/news_center/notice").await;
        assert_shell(name, status, &html);
        assert!(
            fallbacks(&app, reason).await > before,
            "{name}: counted as {reason}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Crawlers: the old addresses, the sitemap, the feeds, a crawl.

/// The crawlable pages of earlier versions (in sitemaps, shares and bookmarks already out there)
/// lead to the same page's real URL for good, a list's page carried over; what never was a page
/// there is not found.
#[tokio::test]
async fn the_old_crawlable_addresses_lead_to_the_real_urls_for_good() {
    let app = spawn_pages_with_reference_cms().await;
    for (old, new) in [
        ("/portal/site/index.html", "/portal/"),
        ("/portal/site/article/2101.html", "/portal/article/2101"),
        ("/portal/site/news_center.html", "/portal/news_center"),
        (
            "/portal/site/news_center/notice.html",
            "/portal/news_center/notice",
        ),
        (
            "/portal/site/news_center/company_announcement/1.html?page=2",
            "/portal/news_center/company_announcement/1?page=2",
        ),
        (
            "/portal/site/about/company_profile.html",
            "/portal/about/company_profile",
        ),
    ] {
        let response = app.get(old).await;
        assert_eq!(response.status(), 301, "{old}");
        assert_eq!(response.headers()["location"], new, "{old}");
        assert_eq!(app.get(new).await.status(), 200, "{new}");
    }
    for old in ["/portal/site/", "/portal/site"] {
        let response = app.get(old).await;
        assert!(
            matches!(response.status().as_u16(), 301 | 308),
            "{old}: {} (a permanent redirect)",
            response.status()
        );
        assert_eq!(response.headers()["location"], "/portal/", "{old}");
    }
    for gone in [
        "/portal/site/nothing.html",
        "/portal/site/article/0.html",
        "/portal/site/article/-1.html",
        "/portal/site/article/a%2Fb.html",
        "/portal/site/news_center/notice.html?page=0",
        "/portal/site/news_center/notice.html?page=x",
        "/portal/site/news_center/notice",
        "/portal/site/page.css",
    ] {
        let (status, kind, _, html) = fetch(&app, gone).await;
        assert_eq!(status, 404, "{gone}");
        assert!(kind.starts_with("text/html"), "{gone}: {kind}");
        assert!(html.contains("页面不存在"), "{gone}");
    }
}

#[tokio::test]
async fn the_sitemap_lists_every_page_and_article_once_at_its_real_url() {
    let app = spawn_pages_with_reference_cms().await;
    let expected = every_article(&app).await;
    let (status, kind, _, xml) = fetch(&app, "/portal/sitemap.xml").await;
    assert_eq!(
        (status, kind.as_str()),
        (200, "application/xml; charset=utf-8")
    );
    let locs: Vec<&str> = xml
        .split("<loc>")
        .skip(1)
        .map(|rest| rest.split("</loc>").next().unwrap())
        .collect();
    let articles: Vec<u64> = locs
        .iter()
        .filter_map(|l| l.strip_prefix(&format!("{PUBLIC}/portal/article/")))
        .map(|id| id.parse().unwrap())
        .collect();
    assert_eq!(articles.len(), expected.len(), "each article once");
    assert_eq!(articles.iter().copied().collect::<BTreeSet<_>>(), expected);
    let mut pages = vec![format!("{PUBLIC}/portal/")];
    pages.extend(
        PORTAL_ROUTES
            .iter()
            .map(|route| format!("{PUBLIC}/portal{route}")),
    );
    let dated = pages.len();
    // The app's own pages (联系我们, 无障碍声明, 法律声明, 隐私政策), undated: no article dates
    // them. 信访举报 only where the site has a channel, which this one has not: its page is 404.
    let (channel, _, _, _) = fetch(&app, "/portal/whistleblowing").await;
    assert_eq!(channel, 404, "no 信访举报 channel in this config");
    for own in ["/contact", "/accessibility", "/legal", "/privacy"] {
        pages.push(format!("{PUBLIC}/portal{own}"));
    }
    for page in &pages {
        assert_eq!(
            locs.iter().filter(|l| **l == page.as_str()).count(),
            1,
            "{page} once"
        );
    }
    assert_eq!(
        locs.len(),
        pages.len() + articles.len(),
        "nothing else: {locs:?}"
    );
    assert_eq!(
        xml.matches("<lastmod>").count(),
        dated + articles.len(),
        "every section and article has its date"
    );
    let (status, kind, _, robots) = fetch(&app, "/robots.txt").await;
    assert_eq!((status, kind.as_str()), (200, "text/plain; charset=utf-8"));
    assert!(robots.contains(&format!("Sitemap: {PUBLIC}/portal/sitemap.xml")));
    assert!(robots.contains("Disallow: /portal/api/"));
    assert!(!robots.contains("/portal/site/") && !robots.contains("/portal/drawn/"));
}

/// Takes down, through reference-cms's admin API, every article category `id` holds (at least one).
async fn take_down_every_article_of(cms: std::net::SocketAddr, id: u64) {
    let list: serde_json::Value = client()
        .get(format!(
            "http://{cms}/article/list?categoryId={id}&page=0&size=100"
        ))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<u64> = list["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_u64().unwrap())
        .collect();
    assert!(!ids.is_empty(), "{list}");
    for id in ids {
        let status = client()
            .delete(format!("http://{cms}/admin/articles/{id}"))
            .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 200);
    }
}

/// A list section whose articles are all taken down is no longer offered to crawlers; the
/// sections that hold articles still are.
#[tokio::test]
async fn the_sitemap_leaves_out_a_list_section_with_no_article() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), open_limits)).await;
    // 媒体报道 (22): every one of its articles taken down in the CMS before the portal reads it.
    take_down_every_article_of(cms, 22).await;
    let (status, _, _, xml) = fetch(&app, "/portal/sitemap.xml").await;
    assert_eq!(status, 200);
    assert!(
        !xml.contains(&format!(
            "<loc>{PUBLIC}/portal/news_center/media_coverage/2</loc>"
        )),
        "{xml}"
    );
    for kept in [
        "/news_center/company_announcement/1",
        "/news_center/notice",
        "/about/company_profile",
    ] {
        assert!(
            xml.contains(&format!("<loc>{PUBLIC}/portal{kept}</loc>")),
            "{kept}: {xml}"
        );
    }
}

/// 业务板块 on the server-rendered home page: a business section whose article the CMS took down
/// gets no tile (the page's loader asked each section for its newest article before the render);
/// the sections that hold one keep theirs.
#[tokio::test]
async fn the_home_page_offers_no_tile_for_a_business_section_with_no_article() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), open_limits)).await;
    // 海外仓 (34): its page's article taken down in the CMS before the portal reads it.
    take_down_every_article_of(cms, 34).await;
    let (status, _, _, html) = fetch(&app, "/portal/").await;
    assert_eq!(status, 200);
    let start = html
        .find("class=\"container home-business\"")
        .unwrap_or_else(|| panic!("no 业务板块 in the server HTML: {html}"));
    let block = &html[start..start + html[start..].find("</section>").unwrap()];
    assert!(
        !block.contains("/business/oversea_location"),
        "海外仓 still has a tile: {block}"
    );
    for kept in ["China-Europe_train", "industrial_park", "card_platform"] {
        assert!(
            block.contains(&format!("href=\"/portal/business/{kept}\"")),
            "{kept}: {block}"
        );
    }
}

/// A CMS whose list items name no category (Wagtail's): every section stays in the sitemap, as
/// none can be known to be empty.
fn lists_without_categories(path: &str, _query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            serde_json::json!({"code": 200, "result": [
                {"id": 21, "parentId": 0, "name": "公司要闻", "url": "/news_center/company_announcement/1", "type": "list"},
                {"id": 22, "parentId": 0, "name": "通知公告", "url": "/news_center/notice", "type": "list"}
            ]}),
        );
    }
    Reply::Json(
        200,
        serde_json::json!({"code": 200, "result": {"content": [
            {"id": 5, "title": "班列开行", "publishTime": "2026-11-05 09:00:00"}
        ], "totalElements": 1}}),
    )
}

#[tokio::test]
async fn without_categories_in_lists_the_sitemap_keeps_every_section() {
    let fake = FakeUpstream::start(Reply::Route(lists_without_categories)).await;
    let app = spawn_app(page_config(&fake.base_url(), open_limits)).await;
    let (status, _, _, xml) = fetch(&app, "/portal/sitemap.xml").await;
    assert_eq!(status, 200, "{xml}");
    for route in ["/news_center/company_announcement/1", "/news_center/notice"] {
        assert!(
            xml.contains(&format!("<loc>{PUBLIC}/portal{route}</loc>")),
            "{route}: {xml}"
        );
    }
}

/// A list's feed and the news feed link the list's page and its articles at their real URLs.
#[tokio::test]
async fn the_feeds_link_the_real_urls() {
    let app = spawn_pages_with_reference_cms().await;
    let (_, list) = app
        .get_json("/portal/api/article/list?categoryId=21&page=1&size=20")
        .await;
    let latest: Vec<String> = list["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| format!("{PUBLIC}/portal/article/{}", a["id"]))
        .collect();
    let (status, kind, _, xml) = fetch(&app, "/portal/feed/21.xml").await;
    assert_eq!(
        (status, kind.as_str()),
        (200, "application/rss+xml; charset=utf-8")
    );
    let links: Vec<&str> = xml
        .split("<link>")
        .skip(1)
        .map(|rest| rest.split("</link>").next().unwrap())
        .collect();
    assert_eq!(
        links[0],
        format!("{PUBLIC}/portal/news_center/company_announcement/1")
    );
    assert_eq!(
        links[1..],
        latest[..latest.len().min(20)],
        "its latest, newest first"
    );
    let (status, _, _, news) = fetch(&app, "/portal/feed/news.xml").await;
    assert_eq!(status, 200);
    assert!(news.contains(&format!("<link>{PUBLIC}/portal/news_center</link>")));
    assert!(news.contains(&format!("<link>{}</link>", latest[0])));
    for body in [&xml, &news] {
        assert!(
            !body.contains("/portal/site/") && !body.contains("#/"),
            "{body}"
        );
    }
    for gone in [
        "/portal/feed/11.xml",
        "/portal/feed/x.xml",
        "/portal/feed/21",
    ] {
        assert_eq!(fetch(&app, gone).await.0, 404, "{gone}");
    }
}

/// A crawler that starts at the home page and follows the links of each page it gets reaches the
/// whole text of every article (at its own URL, or on its section's page for a single page); every
/// page answers 200 with its `<title>`, its canonical URL and only links to real URLs, and was
/// rendered from successful answers only.
#[tokio::test]
async fn a_crawl_from_the_home_page_reaches_every_article() {
    let app = spawn_pages_with_reference_cms().await;
    let expected = every_article(&app).await;
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from(["/portal/".to_owned()]);
    let mut reached = BTreeSet::new();
    let mut wrong = Vec::new();
    // A few pages at a time, as a crawler asks: one at a time, the renders of 300-odd pages took
    // one core for 97 s, the longest test of the suite by far.
    const AT_ONCE: usize = 4;
    while !queue.is_empty() {
        let batch: Vec<String> = std::iter::from_fn(|| queue.pop_front())
            .filter(|path| seen.insert(path.clone()))
            .take(AT_ONCE)
            .collect();
        let pages =
            futures_util::future::join_all(batch.iter().map(|path| fetch(&app, path))).await;
        for (path, (status, kind, _, html)) in batch.into_iter().zip(pages) {
            if status != 200 || !kind.starts_with("text/html") {
                wrong.push(format!("{path}: {status} {kind}"));
                continue;
            }
            if title_of(&html).is_none_or(str::is_empty) || canonical_of(&html).is_none() {
                wrong.push(format!("{path}: no <title> or no canonical URL"));
            }
            wrong.extend(link_faults(&path, &html));
            wrong.extend(
                failed_answers(&html)
                    .into_iter()
                    .map(|f| format!("{path}: {f}")),
            );
            // The articles whose whole text the page shows.
            let markup = html.split(STATE_OPEN).next().unwrap();
            let state = state_of(&html);
            for answer in answers_in(&state) {
                if let (Some(id), Some(text)) = (answer["id"].as_u64(), answer["content"].as_str())
                    && !text.is_empty()
                    && shows_body(markup, text)
                {
                    reached.insert(id);
                }
            }
            for href in hrefs(&html) {
                let page = href.split(['?', '#']).next().unwrap_or_default();
                let is_page = page.starts_with("/portal/")
                    && !page.starts_with("/portal/api/")
                    && !page.rsplit('/').next().unwrap_or_default().contains('.');
                if is_page && !seen.contains(&href) {
                    queue.push_back(href);
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        seen.contains("/portal/news_center/media_coverage/2?page=2"),
        "a list's next page is linked"
    );
    let missed: Vec<&u64> = expected.difference(&reached).collect();
    assert!(
        missed.is_empty(),
        "the crawl did not reach the text of {missed:?}"
    );
    assert!(seen.len() > 100, "{} pages", seen.len());
}

// ---------------------------------------------------------------------------------------------
// What `[site]` says, in the rendered pages.

/// A customer's config that names only its company shows nothing of the demo company's facts:
/// not in `/site`, not in the pages' head, header or footer, nor in the site answer they carry
/// (the demo's facts live in the shipped `config/gateway.toml` only).
#[tokio::test]
async fn a_site_that_names_only_its_company_shows_no_demo_facts() {
    const DEMO_FACTS: &[&str] = &[
        "云川陆港国际物流集团有限公司",
        "枢纽大道",
        "0874-6288",
        "yclandport",
        "655000",
        "400-687-5200",
        "4900+",
        "阿拉木图陆港运营公司",
        "12388",
        "国务院国有资产监督管理委员会",
        "wechat-qr",
        "hq-map",
        "客户服务中心",
        "云ICP备",
        "公网安备",
    ];
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        c.site.company_name = "蓝海联运物流有限公司".to_owned();
    }))
    .await;
    let (_, site) = app.get_json("/portal/api/site").await;
    let site = &site["result"];
    assert_eq!(site["companyName"], "蓝海联运物流有限公司");
    for fact in DEMO_FACTS {
        assert!(
            !site.to_string().contains(fact),
            "/site shows {fact}: {site}"
        );
    }
    for page in [
        "/portal/",
        "/portal/article/2101",
        "/portal/news_center/notice",
        "/portal/contact",
    ] {
        let (status, _, _, html) = fetch(&app, page).await;
        assert_eq!(status, 200, "{page}");
        let title = title_of(&html).unwrap_or_else(|| panic!("{page}: no <title>: {html:.3000}"));
        assert!(title.ends_with("蓝海联运物流有限公司"), "{page}: {title}");
        let header = between(&html, "<header class=\"site-header\"", "</header>").unwrap();
        let footer = between(&html, "<footer", "</footer>").expect("a footer");
        assert!(
            footer.contains("蓝海联运物流有限公司 版权所有"),
            "{page}: {footer}"
        );
        for fact in DEMO_FACTS {
            for (part, text) in [("<title>", title), ("header", header), ("footer", footer)] {
                assert!(!text.contains(fact), "{page}'s {part} shows {fact}");
            }
        }
        assert!(
            answers_in(&state_of(&html)).contains(&site),
            "{page}: the state holds /site's answer"
        );
    }
}

/// The footer carries the filing numbers `[site]` sets, each only when set.
#[tokio::test]
async fn the_footer_carries_the_filing_numbers_only_when_set() {
    let cms = spawn_reference_cms().await;
    let plain = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        c.site.icp_number = "云ICP备20260001号-1".to_owned();
    }))
    .await;
    let (_, _, _, html) = fetch(&plain, "/portal/").await;
    let footer = between(&html, "<footer", "</footer>").unwrap();
    assert!(footer.contains("云ICP备20260001号-1"), "{footer}");
    assert!(
        !footer.contains("公网安备"),
        "no 公安备案 line while the key is unset"
    );

    let app = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        c.site.police_filing_number = "云公网安备60010002000088号".to_owned();
        c.site.police_filing_url =
            "https://beian.mps.gov.cn/#/query/webSearch?code=60010002000088".to_owned();
    }))
    .await;
    let (_, _, _, html) = fetch(&app, "/portal/").await;
    let footer = between(&html, "<footer", "</footer>").unwrap();
    assert!(
        footer.contains(
            "href=\"https://beian.mps.gov.cn/#/query/webSearch?code=60010002000088\" target=\"_blank\" rel=\"noopener noreferrer\">云公网安备60010002000088号</a>"
        ),
        "{footer}"
    );
    assert!(!footer.contains("云ICP备"));
}

/// The header's search box is there only when the CMS searches (`/site`'s `search`).
#[tokio::test]
async fn the_search_box_is_there_only_when_the_cms_searches() {
    let app = spawn_pages_with_reference_cms().await;
    let (_, _, _, html) = fetch(&app, "/portal/news_center/notice").await;
    assert!(html.contains("<form role=\"search\""), "a search box");
    let cms = spawn_reference_cms().await;
    let without = spawn_app(page_config(&format!("http://{cms}/"), without_cms_search)).await;
    assert_eq!(
        without.get_json("/portal/api/site").await.1["result"]["search"],
        false
    );
    let (status, _, _, html) = fetch(&without, "/portal/news_center/notice").await;
    assert_eq!(status, 200);
    assert!(!html.contains("role=\"search\""), "no search box");
    assert!(html.contains("<h1>通知公告</h1>"), "the page itself stays");
}

/// 清正廉洁 carries the 信访举报 channel `[site.whistleblowing]` sets, each line only when set, and
/// none at all when no way to reach the office is; no other page carries it.
#[tokio::test]
async fn the_integrity_page_carries_the_whistleblowing_channel_only_when_set() {
    const PAGE: &str = "/portal/party-construction/clean-honest";
    let cms = spawn_reference_cms().await;
    let set = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        c.site.whistleblowing.phone = "0874-6288 5312".to_owned();
        c.site.whistleblowing.hours = "工作日 8:30—17:30".to_owned();
    }))
    .await;
    let (status, _, _, html) = fetch(&set, PAGE).await;
    assert_eq!(status, 200);
    let markup = html.split(STATE_OPEN).next().unwrap();
    for text in ["信访举报", "0874-6288 5312", "工作日 8:30—17:30"] {
        assert!(markup.contains(text), "{text}: {markup}");
    }
    assert!(!markup.contains("举报邮箱") && !markup.contains("来信地址"));
    assert!(markup.contains(r#"class="whistleblowing""#));
    // With a channel, its page is a page crawlers are offered.
    let (status, _, _, xml) = fetch(&set, "/portal/sitemap.xml").await;
    assert_eq!(status, 200);
    assert!(xml.contains("/portal/whistleblowing</loc>"), "{xml:.400}");
    // Other pages link to the channel's page from the footer only; the block is 清正廉洁's.
    let (_, _, _, other) = fetch(&set, "/portal/party-construction/trade-union-activities").await;
    assert!(
        !other
            .split(STATE_OPEN)
            .next()
            .unwrap()
            .contains(r#"class="whistleblowing""#)
    );

    // Hours alone are no way to reach anyone: no block.
    let unset = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        c.site.whistleblowing.hours = "工作日 8:30—17:30".to_owned();
    }))
    .await;
    let (_, _, _, html) = fetch(&unset, PAGE).await;
    assert!(!html.split(STATE_OPEN).next().unwrap().contains("信访举报"));
}

/// The menu shows every section the CMS does not hide; a hidden one is reached from its group's
/// page.
#[tokio::test]
async fn the_menu_shows_what_the_cms_does_not_hide_and_hidden_sections_are_reached_from_their_group()
 {
    let app = spawn_pages_with_reference_cms().await;
    let (_, tree) = app.get_json("/portal/api/category/list").await;
    fn walk(list: &Value, hidden_above: bool, shown: &mut Vec<Value>, hidden: &mut Vec<Value>) {
        for c in list.as_array().unwrap() {
            let hide = hidden_above || c["hidden"] == json!(true);
            if hide {
                hidden.push(c.clone())
            } else {
                shown.push(c.clone())
            }
            walk(&c["subCategory"], hide, shown, hidden);
        }
    }
    let (mut shown, mut hidden) = (Vec::new(), Vec::new());
    walk(&tree["result"]["content"], false, &mut shown, &mut hidden);
    assert!(hidden.iter().any(|c| c["name"] == "社会影响"), "{hidden:?}");

    let (_, _, _, home) = fetch(&app, "/portal/").await;
    let menu = between(&home, "aria-label=\"主导航\">", "</nav>").expect("the menu");
    for c in &shown {
        assert!(
            menu.contains(&format!(">{}<", c["name"].as_str().unwrap())),
            "{} missing",
            c["name"]
        );
    }
    for c in &hidden {
        let url = c["url"].as_str().unwrap();
        assert!(
            !menu.contains(&format!("\"/portal{url}\"")),
            "{url} in the menu"
        );
    }
    let (status, _, _, group) = fetch(&app, "/portal/social_responsibility").await;
    assert_eq!(status, 200);
    assert!(group.contains("href=\"/portal/social_responsibility/social_influence\""));
    assert_eq!(
        fetch(&app, "/portal/social_responsibility/social_influence")
            .await
            .0,
        200
    );
}

/// A customer's CMS with five sections: 新闻中心 (公司要闻, 通知公告) and 业务板块 (中欧班列, 海外仓).
fn five_sections(path: &str, _query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": [
                {"id": 2, "parentId": 0, "name": "新闻中心", "url": "/news_center", "type": "group", "sort": 1},
                {"id": 21, "parentId": 2, "name": "公司要闻", "url": "/news_center/company_announcement/1", "type": "list", "sort": 1},
                {"id": 22, "parentId": 2, "name": "通知公告", "url": "/news_center/notice", "type": "list", "sort": 2},
                {"id": 3, "parentId": 0, "name": "业务板块", "url": "/business", "type": "group", "sort": 2},
                {"id": 31, "parentId": 3, "name": "中欧班列", "url": "/business/China-Europe_train", "type": "page", "sort": 1, "description": "每周开行的国际班列"},
                {"id": 32, "parentId": 3, "name": "海外仓", "url": "/business/oversea_location", "type": "page", "sort": 2},
            ]}),
        );
    }
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": [{"id": 9, "categoryId": 21, "title": "陆港站年度检修完成",
            "publishTime": "2026-11-20 08:00:00"}], "totalElements": 1}}),
    )
}

#[tokio::test]
async fn a_customer_with_five_sections_gets_a_portal_of_five_sections() {
    let cms = FakeUpstream::start(Reply::Route(five_sections)).await;
    let app = spawn_app(page_config(&cms.base_url(), open_limits)).await;
    // Sections of the demo the customer's CMS does not have, and their pages' names.
    let absent = [
        "融合创新产业园",
        "跨境电商集货中心",
        "集卡平台",
        "联络合作",
        "党建工会",
        "信息公开",
        "社会责任",
        "公司简介",
    ];
    assert_pages_without(&app, &absent, &[]).await;
    let home = app.get("/portal/").await.text().await.unwrap();
    assert!(
        home.contains("中欧班列") && home.contains("每周开行的国际班列"),
        "the tiles the CMS has"
    );
    let sitemap = app.get("/portal/sitemap").await.text().await.unwrap();
    assert!(
        sitemap.contains("海外仓") && sitemap.contains("联系我们"),
        "its sections and the portal's own pages"
    );
    // A section it lacks, asked for by its address (an old link, a guess): not found, not the
    // spec's placeholder; a section it has, as ever.
    for (path, status) in [
        ("/portal/liaison", 404),
        ("/portal/business/industrial_park", 404),
        ("/portal/party-construction/clean-honest", 404),
        ("/portal/business", 200),
        ("/portal/news_center", 200),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), status, "{path}");
        let html = response.text().await.unwrap();
        assert!(
            !html.contains("正在建设中") && !html.contains("正在整理中"),
            "{path}: a placeholder"
        );
    }
}

/// A site that names no public address (`site.public_url` left out, as the examples leave it for
/// the integrator): its pages link by paths, and it offers no sitemap or feed, whose links must be
/// absolute — never the demo's `http://127.0.0.1:8080`, never the request's `Host`.
#[tokio::test]
async fn without_a_public_address_pages_use_paths_and_offer_no_sitemap_or_feed() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        open_limits(c);
        c.site.public_url = String::new();
    }))
    .await;
    for path in [
        "/portal/sitemap.xml",
        "/portal/feed/21.xml",
        "/portal/feed/news.xml",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
    let robots = app.get("/robots.txt").await.text().await.unwrap();
    assert!(
        robots.contains("Disallow: /portal/api/") && !robots.contains("Sitemap"),
        "{robots}"
    );
    for path in [
        "/portal/news_center/company_announcement/1",
        "/portal/article/2101",
    ] {
        let response = app
            .client
            .get(app.url(path))
            .header("host", "evil.example")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let html = response.text().await.unwrap();
        assert!(
            html.contains(&format!("<link rel=\"canonical\" href=\"{path}\"")),
            "{path}: a canonical path"
        );
        for absent in ["127.0.0.1:8080", "evil.example", "application/rss+xml"] {
            assert!(!html.contains(absent), "{path} names {absent}");
        }
    }
}

/// Spellings a client could vary without end are one page: escaped letters in the address are
/// sent to the address written plainly, and a search's keyword in capitals, in full-width letters
/// or with doubled spaces is the same keyword, the same cache entry (the red team kept a new page
/// render, and a render turn, per spelling).
#[tokio::test]
async fn one_page_is_one_key_however_its_address_is_spelled() {
    let app = spawn_pages_with_reference_cms().await;
    let moved = app.get("/portal/%61bout/company%5Fprofile").await;
    assert_eq!(moved.status(), 301);
    assert_eq!(moved.headers()["location"], "/portal/about/company_profile");
    let (status, _, cache, first) = fetch(&app, "/portal/search?q=CR%20Express").await;
    assert_eq!((status, cache.as_str()), (200, "MISS"));
    for spelling in [
        "/portal/search?q=cr%20express",
        "/portal/search?q=%EF%BC%A3%EF%BC%B2%E3%80%80%E3%80%80Express",
        "/portal/search?q=+Cr++EXPRESS+&utm_source=wechat",
    ] {
        let (status, _, cache, page) = fetch(&app, spelling).await;
        assert_eq!((status, cache.as_str()), (200, "HIT"), "{spelling}");
        assert_eq!(page, first, "{spelling}");
    }
    // The API's search likewise.
    let api = "/portal/api/article/search?keyword=CR%20Express&page=1&size=10";
    assert_eq!(app.get_json(api).await.0, 200);
    let again = app
        .get("/portal/api/article/search?keyword=%EF%BD%83%EF%BD%92+express&page=1&size=10")
        .await;
    assert_eq!(again.headers()["x-cache"], "HIT");
}

/// A page asked for over a connection from the loopback address `source`: its status and body.
async fn page_from(source: &str, addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    let (status, _, html) = page_answer_from(source, addr, path).await;
    (status, html)
}

/// `page_from`, with the answer's headers.
async fn page_answer_from(
    source: &str,
    addr: std::net::SocketAddr,
    path: &str,
) -> (u16, hyper::HeaderMap, String) {
    use http_body_util::{BodyExt, Empty};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(connection);
    let request = hyper::Request::get(path)
        .header("host", addr.to_string())
        .body(Empty::<bytes::Bytes>::new())
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// Red team round three, row 7: the render pool is everyone's. Forty addresses each asking for
/// a cold page a second filled its queue, and 10 of a new visitor's 11 pages were the app shell.
/// Here one pool thread, a queue of four, renders of 150 ms: one address asks for twenty cold
/// pages at once. It has two rendered (its share); the rest are the shell at once, without a
/// place in the queue, and a visitor from another address, asking after them, gets its page
/// rendered (without the share, the queue is full and it gets the shell).
#[tokio::test]
async fn a_client_flooding_cold_pages_leaves_room_in_the_render_pool() {
    let slow = "globalThis.portalRender = (input) => { const until = Date.now() + 150; while (Date.now() < until) {}\n\
                const url = JSON.parse(input).url;\n\
                return JSON.stringify({status: 200, head: '<title>页</title>', html: '<p>已渲染 ' + url + '</p>', state: {}, renders: 1}); };";
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config_of(
        &format!("http://{cms}/"),
        &build_with_bundle("render-share", slow),
        |c| {
            open_limits(c);
            c.limits.per_client_renders = 2;
            c.render.threads = 1;
            c.render.queue = 4;
            c.render.timeout = Duration::from_secs(5);
        },
    ))
    .await;
    // Warm: the engine built, the site and the tree cached.
    let (status, _) = page_from("127.0.0.1", app.addr, "/portal/about").await;
    assert_eq!(status, 200);
    let flood: Vec<_> = (0..20)
        .map(|i| {
            let addr = app.addr;
            tokio::spawn(async move {
                page_from("127.0.0.2", addr, &format!("/portal/search?q=flood{i}")).await
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, html) = page_from("127.0.0.3", app.addr, "/portal/search?q=visitor").await;
    assert_eq!(status, 200);
    assert!(
        html.contains("已渲染 /portal/search?q=visitor"),
        "the visitor's page is rendered: {}",
        html.split("<body")
            .nth(1)
            .unwrap_or(&html)
            .chars()
            .take(700)
            .collect::<String>()
    );
    // The rest of the flood: the shell, 429, so a crawler asks again rather than keep it.
    let mut rendered = 0;
    for page in flood {
        let (status, html) = page.await.unwrap();
        if html.contains("已渲染") {
            assert_eq!(status, 200);
            rendered += 1;
        } else {
            assert_eq!(status, 429, "{html:.300}");
        }
    }
    assert!(rendered <= 4, "the flood had {rendered} pages rendered");
}

/// A page past its TTL and stale-while-revalidate window, still within `stale_if_error`, asked by
/// a client whose render share is taken: the older copy (STALE), not the shell's 429. The share
/// protects the pool; a copy already made costs it nothing.
#[tokio::test]
async fn a_client_whose_render_share_is_taken_gets_an_older_copy_where_there_is_one() {
    let bundle = "globalThis.portalRender = (input) => { const url = JSON.parse(input).url;\n\
                  if (url.includes('hold')) { const until = Date.now() + 800; while (Date.now() < until) {} }\n\
                  return JSON.stringify({status: 200, head: '<title>页</title>', html: '<p>已渲染 ' + url + '</p>', state: {}, renders: 1}); };";
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config_of(
        &format!("http://{cms}/"),
        &build_with_bundle("render-share-stale", bundle),
        |c| {
            open_limits(c);
            c.limits.per_client_renders = 2;
            c.render.threads = 2;
            c.render.timeout = Duration::from_secs(5);
            c.cache.overrides.insert(
                0,
                portal_cache::TtlOverride {
                    pattern: "page/*".to_owned(),
                    ttl: Duration::from_secs(1),
                },
            );
            c.cache.stale_while_revalidate = Duration::ZERO;
            c.cache.stale_if_error = Duration::from_secs(600);
        },
    ))
    .await;
    let page = "/portal/search?q=old";
    let (status, headers, html) = page_answer_from("127.0.0.2", app.addr, page).await;
    assert_eq!(status, 200, "{html:.300}");
    assert_eq!(headers["x-cache"], "MISS");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    // Two slow pages of the same client's hold its share of the pool.
    let holding: Vec<_> = ["hold1", "hold2"]
        .into_iter()
        .map(|q| {
            let addr = app.addr;
            tokio::spawn(async move {
                page_from("127.0.0.2", addr, &format!("/portal/search?q={q}")).await
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, headers, html) = page_answer_from("127.0.0.2", app.addr, page).await;
    assert_eq!(status, 200, "{html:.300}");
    assert_eq!(headers["x-cache"], "STALE");
    assert!(html.contains("已渲染 /portal/search?q=old"), "{html:.300}");
    for held in holding {
        assert_eq!(held.await.unwrap().0, 200);
    }
}
