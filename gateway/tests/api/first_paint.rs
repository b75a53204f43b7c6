//! The app's page as the gateway draws it (`first_paint`): the boot answers are the API's own,
//! the home page's top is in `#root`, the company is the configured one, and the page follows
//! the CMS (purges reach it) without ever failing because of it.

use serde_json::Value;

use crate::helpers::*;

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
