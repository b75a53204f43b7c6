//! The app's page as the gateway draws it (`first_paint`): the boot answers are the API's own,
//! the home page's top is in `#root`, the company is the configured one, and the page follows
//! the CMS (purges reach it) without ever failing because of it.

use serde_json::Value;

use crate::helpers::*;

/// The category at `url` among the second level of `/category/list`'s answer.
fn category_at<'a>(tree: &'a Value, url: &str) -> &'a Value {
    tree["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["subCategory"].as_array().unwrap())
        .find(|c| c["url"] == url)
        .unwrap_or_else(|| panic!("no category {url}"))
}

/// The boot block of a drawn page, parsed.
fn boot_of(page: &str) -> Value {
    let start = page
        .find(r#"<script type="application/json" id="portal-boot">"#)
        .unwrap_or_else(|| panic!("no boot block in {page}"));
    let rest = &page[start..];
    let json = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    assert!(!json.contains('<'), "an unescaped < in the boot block");
    serde_json::from_str(json).unwrap()
}

#[tokio::test]
async fn the_page_holds_the_apis_own_first_answers_and_the_home_pages_top() {
    let app = spawn_with_reference_cms().await;
    let page = app.get("/portal/").await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["cache-control"], "no-cache");
    let page = page.text().await.unwrap();
    let boot = boot_of(&page);

    // Each answer is byte for byte what the API answers at that URL.
    let urls: Vec<&String> = boot.as_object().unwrap().keys().collect();
    assert!(urls.iter().any(|u| *u == "/portal/api/site"), "{urls:?}");
    assert!(
        urls.iter().any(|u| *u == "/portal/api/category/list"),
        "{urls:?}"
    );
    let lists: Vec<&&String> = urls
        .iter()
        .filter(|u| u.starts_with("/portal/api/article/list?"))
        .collect();
    assert_eq!(lists.len(), 2, "公司要闻 and 通知公告: {urls:?}");
    for url in &urls {
        let (status, api) = app.get_json(url).await;
        assert_eq!(status, 200, "{url}");
        assert_eq!(boot[url.as_str()], api, "{url}");
    }

    // The top of the home page: the menu from the tree, 头条, the first cover preloaded.
    let tree = &boot["/portal/api/category/list"]["result"]["content"];
    let first = tree[0]["name"].as_str().unwrap();
    assert!(
        page.contains(&format!(">{first}<")),
        "the menu's first entry"
    );
    assert!(page.contains(r#"class="home-lead""#), "头条");
    let news = boot[lists[0].as_str()]["result"]["content"]
        .as_array()
        .unwrap();
    let lead = news.iter().find(|a| a["lead"] == true).unwrap_or(&news[0]);
    assert!(
        page.contains(&format!(
            r##"<a href="#/article/{}">{}</a>"##,
            lead["id"],
            lead["title"].as_str().unwrap()
        )),
        "the lead story is the one the CMS flags"
    );
    let cover = news
        .iter()
        .find(|a| a["cover"].is_string() && a["id"] != lead["id"])
        .unwrap()["cover"]
        .as_str()
        .unwrap();
    assert!(page.contains(&format!(
        r#"<link rel="preload" as="image" href="{cover}" fetchpriority="high">"#
    )));
    assert!(page.contains(&format!(
        r#"fetchpriority="high" loading="eager" src="{cover}""#
    )));
    // The page is the configured company's (the fixture's template says 门户).
    let name = boot["/portal/api/site"]["result"]["companyName"]
        .as_str()
        .unwrap();
    assert!(page.contains(&format!("<title>{name}</title>")), "{page}");
    // Nothing secret in it.
    assert!(!page.contains(CLIENT_SECRET));
}

#[tokio::test]
async fn the_page_is_kept_encoded_and_a_purge_of_what_it_shows_reaches_it() {
    const TOKEN: &str = "purge-token-0123456789";
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        &format!("{OPEN_LIMITS}[admin]\ntoken = \"{TOKEN}\"\n"),
    ))
    .await;
    let first = app
        .client
        .get(app.url("/portal/"))
        .header("accept-encoding", "br")
        .send()
        .await
        .unwrap();
    assert_eq!(first.headers()["content-encoding"], "br");
    let again = app.get("/portal/index.html").await;
    assert_eq!(again.headers()["x-cache"], "HIT");
    let etag = again.headers()["etag"].clone();
    let not_modified = app
        .client
        .get(app.url("/portal/"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(not_modified.status(), 304);

    // The tree changes the menu: a purge of its tag makes the page anew.
    let purge = app
        .client
        .post(app.url("/portal/admin/cache/purge?tag=categories"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert!(
        purge.status().is_success(),
        "{}",
        purge.text().await.unwrap()
    );
    let after = app.get("/portal/").await;
    assert_ne!(after.headers()["x-cache"], "HIT");

    let head = app.client.head(app.url("/portal/")).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert!(head.bytes().await.unwrap().is_empty());
}

#[tokio::test]
async fn without_the_cms_the_app_still_loads_and_nothing_of_it_is_kept() {
    // Nothing listens on port 9: the tree and the lists cannot be had.
    let app = spawn_app(config_for(
        "http://127.0.0.1:9/",
        &static_dir(),
        OPEN_LIMITS,
    ))
    .await;
    for _ in 0..2 {
        let page = app.get("/portal/").await;
        assert_eq!(page.status(), 200);
        assert_ne!(
            page.headers()["x-cache"],
            "HIT",
            "a page without the CMS is not kept"
        );
        let page = page.text().await.unwrap();
        assert!(
            page.contains(r#"<div id="root"></div>"#),
            "no drawn markup: {page}"
        );
        // /site comes from the config, so the app still starts from it.
        let boot = boot_of(&page);
        assert!(boot.get("/portal/api/site").is_some());
        assert!(boot.get("/portal/api/category/list").is_none());
    }
}

/// A deep link's page as drawn (`/portal/drawn/…`): the article's and the list's `<main>` in
/// the app's classes, with the same texts as the API's answer, the CMS's markup kept only as
/// the API sanitised it; what the app would draw otherwise is not drawn.
#[tokio::test]
async fn a_deep_links_page_is_drawn_from_the_same_answers_the_app_reads() {
    let app = spawn_with_reference_cms().await;

    let (_, detail) = app.get_json("/portal/api/article/detail?id=2101").await;
    let article = &detail["result"];
    let drawn = app.get("/portal/drawn/article/2101").await;
    assert_eq!(drawn.status(), 200);
    assert!(
        drawn.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert_eq!(drawn.headers()["x-robots-tag"], "noindex");
    let drawn = drawn.text().await.unwrap();
    assert!(
        drawn.starts_with(
            r#"<main id="main-content" tabindex="-1" class="container site-main" data-drawn="">"#
        ),
        "{drawn}"
    );
    assert!(drawn.ends_with("</main>"), "{drawn}");
    let title = article["title"].as_str().unwrap();
    assert!(drawn.contains(&format!("<h1>{title}</h1>")), "{drawn}");
    assert!(
        drawn.contains(article["content"].as_str().unwrap()),
        "the body is the API's, byte for byte"
    );
    let time = article["publishTime"].as_str().unwrap();
    assert!(drawn.contains(&format!(
        r#"<time datetime="{}">{time}</time>"#,
        time.replacen(' ', "T", 1)
    )));
    assert!(
        drawn.contains(r#"aria-current="true">"#),
        "its list is marked in 栏目导航"
    );
    assert!(drawn.contains(r#"<span aria-current="page">正文</span>"#));
    assert!(
        !drawn.contains("> <") && !drawn.contains(">\n"),
        "no space between tags: the app writes none"
    );

    // The list: the page the app asks for (10 a page), its articles linked with the page number.
    let (_, tree) = app.get_json("/portal/api/category/list").await;
    let notice = category_at(&tree, "/news_center/notice");
    let (_, page2) = app
        .get_json(&format!(
            "/portal/api/article/list?categoryId={}&page=2&size=10",
            notice["id"]
        ))
        .await;
    let drawn = app
        .get("/portal/drawn/news/news_center/notice?page=2")
        .await
        .text()
        .await
        .unwrap();
    let items = page2["result"]["content"].as_array().unwrap();
    assert!(!items.is_empty());
    assert_eq!(
        drawn.matches(r#"<li class="article-item"#).count(),
        items.len()
    );
    for item in items {
        assert!(
            drawn.contains(&format!(
                r##"<a href="#/article/{}?listPage=2">{}</a>"##,
                item["id"],
                item["title"].as_str().unwrap()
            )),
            "{drawn}"
        );
    }
    assert!(drawn.contains(&format!("<h1>{}</h1>", notice["name"].as_str().unwrap())));
    assert!(drawn.contains(r##"<a href="#/news_center/notice" aria-current="page">"##));

    // A single page: the category's name over its first article's text, its summary the lead.
    let profile = category_at(&tree, "/about/company_profile");
    let (_, first) = app
        .get_json(&format!(
            "/portal/api/article/list?categoryId={}&page=1&size=1",
            profile["id"]
        ))
        .await;
    let (_, text) = app
        .get_json(&format!(
            "/portal/api/article/detail?id={}",
            first["result"]["content"][0]["id"]
        ))
        .await;
    let drawn = app
        .get("/portal/drawn/single/about/company_profile")
        .await
        .text()
        .await
        .unwrap();
    assert!(drawn.contains(&format!("<h1>{}</h1>", profile["name"].as_str().unwrap())));
    assert!(drawn.contains(text["result"]["content"].as_str().unwrap()));
    assert!(drawn.contains(r#"<article class="content-page"><nav class="breadcrumb""#));
    assert!(
        !drawn.contains("article__header"),
        "no article heading on a single page"
    );

    // Not drawn (the app's own first render shows these): an article or a single page with a video,
    // one that does not exist, a list page past the last, an unknown route, a kind the app draws otherwise.
    for url in [
        "/portal/drawn/article/1015",
        "/portal/drawn/article/999999",
        "/portal/drawn/article/0",
        "/portal/drawn/article/x",
        "/portal/drawn/news/news_center/notice?page=999",
        "/portal/drawn/news/news_center/notice?page=0",
        "/portal/drawn/news/no/such/route",
        "/portal/drawn/single/about/promotional-video",
        "/portal/drawn/page/about/company_profile",
    ] {
        let answer = app.get(url).await;
        assert_eq!(answer.status(), 204, "{url}");
        assert!(answer.bytes().await.unwrap().is_empty(), "{url}");
    }
}

/// A drawn article is kept as the API's detail is, and the CMS's webhook for that article (its
/// tag) makes it anew: a drawn page never shows an edit older than the answer the app reads.
#[tokio::test]
async fn a_drawn_article_is_kept_and_a_purge_of_the_article_reaches_it() {
    const TOKEN: &str = "purge-token-0123456789";
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        &format!("{OPEN_LIMITS}[admin]\ntoken = \"{TOKEN}\"\n"),
    ))
    .await;
    let first = app.get("/portal/drawn/article/2101").await;
    assert_eq!(first.status(), 200);
    assert_eq!(
        app.get("/portal/drawn/article/2101").await.headers()["x-cache"],
        "HIT"
    );
    let purge = app
        .client
        .post(app.url("/portal/admin/cache/purge?tag=article:2101"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert!(purge.status().is_success());
    assert_ne!(
        app.get("/portal/drawn/article/2101").await.headers()["x-cache"],
        "HIT"
    );
}
