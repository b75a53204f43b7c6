//! The crawlable portal: pages at real URLs read without JavaScript, a crawl from the home page
//! that reaches every article, the sitemap, robots.txt, caching and purges, and escaping.

use std::collections::{BTreeSet, HashSet, VecDeque};

use serde_json::{Value, json};

use crate::helpers::*;

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

/// The `href`s of a page, as written.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|h| h.replace("&amp;", "&"))
        .collect()
}

async fn text(app: &TestApp, path: &str) -> (u16, String, String) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, kind, response.text().await.unwrap())
}

#[tokio::test]
async fn an_article_reads_whole_without_javascript_at_its_real_url() {
    let app = spawn_with_reference_cms().await;
    let (_, detail) = app.get_json("/portal/api/article/detail?id=2101").await;
    let article = &detail["result"];
    let title = article["title"].as_str().unwrap();
    let (status, kind, html) = text(&app, "/portal/site/article/2101.html").await;
    assert_eq!(status, 200);
    assert_eq!(kind, "text/html; charset=utf-8");
    assert!(html.contains(&format!(
        "<title>{title} – 云川陆港国际物流集团有限公司</title>"
    )));
    assert!(html.contains(&format!("<h1>{title}</h1>")));
    // The body as the API gives it (sanitised there), whole.
    assert!(html.contains(article["content"].as_str().unwrap()));
    let summary = article["summary"].as_str().unwrap();
    assert!(html.contains(&format!(
        "<meta name=\"description\" content=\"{summary}\">"
    )));
    for needle in [
        "<meta name=\"renderer\" content=\"webkit\">",
        "<link rel=\"canonical\" href=\"http://127.0.0.1:8080/portal/site/article/2101.html\">",
        "<meta property=\"og:type\" content=\"article\">",
        "首页</a> › <a href=\"/portal/site/news_center.html\">新闻中心</a>",
    ] {
        assert!(html.contains(needle), "{needle} missing");
    }
    let ld = html
        .split("<script type=\"application/ld+json\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    let ld: Value = serde_json::from_str(ld).unwrap();
    assert_eq!(ld["@type"], "NewsArticle");
    assert_eq!(ld["headline"], title);
    assert!(ld["datePublished"].as_str().unwrap().ends_with("+08:00"));
    assert_eq!(ld["publisher"]["name"], "云川陆港国际物流集团有限公司");
    // Cached like an API answer.
    let response = app.get("/portal/site/article/2101.html").await;
    assert_eq!(response.headers()["x-cache"], "HIT");
    assert!(response.headers().contains_key("content-security-policy"));
}

/// The `content` of a page's `<meta {attribute}="{name}">`.
fn meta<'a>(html: &'a str, attribute: &str, name: &str) -> Option<&'a str> {
    html.split(&format!("<meta {attribute}=\"{name}\" content=\""))
        .nth(1)
        .and_then(|rest| rest.split('"').next())
}

/// What a link in a chat or a share card is made of (WeChat reads `itemprop`, others Open Graph
/// and Twitter's card): the article's title, its summary and its cover at an absolute address.
#[tokio::test]
async fn an_article_page_carries_what_share_cards_read() {
    let app = spawn_with_reference_cms().await;
    let (_, detail) = app.get_json("/portal/api/article/detail?id=2101").await;
    let article = &detail["result"];
    let (title, summary) = (
        article["title"].as_str().unwrap(),
        article["summary"].as_str().unwrap(),
    );
    let cover = article["cover"].as_str().unwrap();
    assert!(cover.starts_with("/portal/"), "{cover}");
    let (_, _, html) = text(&app, "/portal/site/article/2101.html").await;
    assert!(
        html.contains("<html lang=\"zh-CN\" itemscope itemtype=\"https://schema.org/WebPage\">")
    );
    let image = format!("http://127.0.0.1:8080{cover}");
    for (attribute, name, expected) in [
        ("property", "og:title", title),
        ("property", "og:description", summary),
        ("property", "og:image", &image),
        ("name", "twitter:card", "summary_large_image"),
        ("itemprop", "name", title),
        ("itemprop", "description", summary),
        ("itemprop", "image", &image),
    ] {
        assert_eq!(meta(&html, attribute, name), Some(expected), "{name}");
    }
    // A page without a picture asks for the small card and names no image.
    let (_, _, html) = text(&app, "/portal/site/news_center/notice.html").await;
    assert_eq!(meta(&html, "name", "twitter:card"), Some("summary"));
    assert_eq!(meta(&html, "itemprop", "image"), None);
    assert_eq!(meta(&html, "property", "og:image"), None);
}

/// The crawlable page stays where the link points: no script sends a visitor with JavaScript to
/// the app. What it loads: its versioned stylesheets, and the build's enhancement script when the
/// app is built (none when it is not: the page is whole without it). Its one inline script, which
/// applies the reading choices before the first paint, is allowed by the policy it is sent with.
#[tokio::test]
async fn a_page_is_enhanced_in_place_by_the_builds_site_script_and_never_redirected() {
    let cms = spawn_reference_cms().await;
    // A build with the site entry beside the app's.
    let build = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("static-with-site");
    std::fs::create_dir_all(build.join("assets")).unwrap();
    std::fs::write(
        build.join("index.html"),
        "<!doctype html><title>门户</title>",
    )
    .unwrap();
    std::fs::write(build.join("assets/site.0123456789ab.js"), "void 0;").unwrap();
    std::fs::write(
        build.join("favicon.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .unwrap();
    std::fs::write(
        build.join("assets/site-qr.0123456789ab.chunk.js"),
        "void 0;",
    )
    .unwrap();
    let built = spawn_app(config_for(&format!("http://{cms}/"), &build, "")).await;
    let bare = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), "")).await;

    for path in [
        "/portal/site/article/2101.html",
        "/portal/site/news_center/notice.html",
        "/portal/site/",
    ] {
        let response = built.get(path).await;
        let policy = response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        let html = response.text().await.unwrap();
        assert!(
            html.contains("<script src=\"/portal/assets/site.0123456789ab.js\" defer></script>"),
            "{path}: the build's site script"
        );
        assert!(
            html.contains(
                "<link rel=\"icon\" type=\"image/svg+xml\" href=\"/portal/favicon.svg\">"
            ),
            "{path}: the build's icon (the browser would ask for a /favicon.ico nothing answers)"
        );
        for redirect in [
            "app-route",
            "data-app-route",
            "location.replace",
            "/portal/#",
        ] {
            assert!(!html.contains(redirect), "{path} carries {redirect}");
        }
        // The head script, allowed by its hash and by nothing looser.
        let script = html
            .split("<script>")
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .expect("the reading choices' head script");
        assert!(script.contains("readingPrefs") && script.contains("data-text-size"));
        let hash = {
            use base64::Engine;
            use sha2::Digest;
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script))
        };
        assert!(
            policy.contains(&format!("'sha256-{hash}'")),
            "{path}: {policy}"
        );
        assert!(!policy.contains("unsafe-inline"), "{policy}");

        let html = text(&bare, path).await.2;
        assert!(
            !html.contains("/portal/assets/site."),
            "{path}: no build, no script"
        );
        assert_eq!(html.matches("<script").count(), 2, "{path}");
    }

    // The stylesheets: linked with their fingerprint, served from the binary.
    let html = text(&bare, "/portal/site/article/2101.html").await.2;
    for name in ["page.css", "noscript.css"] {
        let href = html
            .split(&format!("href=\"/portal/site/{name}?v="))
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(|v| format!("/portal/site/{name}?v={v}"))
            .unwrap_or_else(|| panic!("{name} is linked with its version"));
        let (status, kind, css) = text(&bare, &href).await;
        assert_eq!(
            (status, kind.as_str()),
            (200, "text/css; charset=utf-8"),
            "{href}"
        );
        assert!(css.contains(".site-nav"), "{href}");
    }
    assert!(
        html.contains("<noscript><link rel=\"stylesheet\" href=\"/portal/site/noscript.css?v=")
    );
    assert_eq!(text(&bare, "/portal/site/app-route.js").await.0, 404);
}

/// The header's search box sends a visitor to the app's results: only when the CMS searches, as
/// the app shows its own (`/site`'s `search`).
#[tokio::test]
async fn the_search_box_is_there_only_when_the_cms_searches() {
    let app = spawn_with_reference_cms().await;
    let (_, _, html) = text(&app, "/portal/site/news_center/notice.html").await;
    assert!(html.contains("<form class=\"search-box\" role=\"search\""));
    let cms = spawn_reference_cms().await;
    let without = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        "[dialect.endpoints]\narticle_search = { path = \"\" }\n",
    ))
    .await;
    assert_eq!(
        without.get_json("/portal/api/site").await.1["result"]["search"],
        false
    );
    let (_, _, html) = text(&without, "/portal/site/news_center/notice.html").await;
    assert!(!html.contains("role=\"search\""), "no search box");
    assert!(html.contains("data-reading"), "the other tools stay");
}

#[tokio::test]
async fn a_crawl_from_the_home_page_resolves_every_link_and_reaches_every_article() {
    let app = spawn_with_reference_cms().await;
    let expected = every_article(&app).await;
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from(["/portal/site/index.html".to_owned()]);
    let mut reached = BTreeSet::new();
    while let Some(path) = queue.pop_front() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let (status, _, html) = text(&app, &path).await;
        assert_eq!(status, 200, "{path}");
        if let Some(id) = path
            .strip_prefix("/portal/site/article/")
            .and_then(|rest| rest.strip_suffix(".html"))
        {
            reached.insert(id.parse::<u64>().unwrap());
        }
        if !path.starts_with("/portal/site/") || !path.contains(".html") {
            continue;
        }
        for href in hrefs(&html) {
            if href.starts_with("/portal/") {
                queue.push_back(href);
            } else if href.starts_with('#') {
                // A place on the same page (跳到正文, the menu the 菜单 link opens).
            } else {
                assert!(
                    href.starts_with("http"),
                    "{path} links {href}, neither a page of the portal nor another site"
                );
            }
        }
    }
    assert_eq!(reached, expected, "the crawl reaches every article");
    assert!(seen.len() > 100, "{} pages", seen.len());
}

#[tokio::test]
async fn the_sitemap_lists_every_article_once_and_robots_points_at_it() {
    let app = spawn_with_reference_cms().await;
    let expected = every_article(&app).await;
    let (status, kind, xml) = text(&app, "/portal/sitemap.xml").await;
    assert_eq!(status, 200);
    assert_eq!(kind, "application/xml; charset=utf-8");
    let locs: Vec<&str> = xml
        .split("<loc>")
        .skip(1)
        .map(|rest| rest.split("</loc>").next().unwrap())
        .collect();
    let articles: Vec<u64> = locs
        .iter()
        .filter_map(|l| l.strip_prefix("http://127.0.0.1:8080/portal/site/article/"))
        .map(|rest| rest.strip_suffix(".html").unwrap().parse().unwrap())
        .collect();
    assert_eq!(articles.len(), expected.len(), "each article once");
    assert_eq!(articles.iter().copied().collect::<BTreeSet<_>>(), expected);
    assert_eq!(
        xml.matches("<lastmod>").count(),
        locs.len(),
        "every page and article has its date"
    );
    assert!(locs.contains(&"http://127.0.0.1:8080/portal/site/news_center/notice.html"));
    let (status, kind, robots) = text(&app, "/robots.txt").await;
    assert_eq!((status, kind.as_str()), (200, "text/plain; charset=utf-8"));
    assert!(robots.contains("Sitemap: http://127.0.0.1:8080/portal/sitemap.xml"));
    assert!(robots.contains("Disallow: /portal/api/"));
    assert!(
        robots.contains("Disallow: /portal/drawn/"),
        "a deep link's drawn piece is no page"
    );
}

#[tokio::test]
async fn list_pages_page_and_link_their_feed() {
    let app = spawn_with_reference_cms().await;
    let (status, _, html) =
        text(&app, "/portal/site/news_center/company_announcement/1.html").await;
    assert_eq!(status, 200);
    assert!(html.contains(
        "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"公司要闻\" href=\"/portal/feed/21.xml\">"
    ));
    assert!(html.contains("共 "), "the pager");
    for path in [
        "/portal/site/nothing.html",
        "/portal/site/article/0.html",
        "/portal/site/article/abc.html",
        "/portal/site/news_center/notice.html?page=0",
        "/portal/site/news_center/notice.html?page=999",
        "/portal/feed/11.xml",
        "/portal/feed/x.xml",
    ] {
        let (status, kind, _) = text(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(kind.starts_with("text/html"), "{path}: {kind}");
    }
}

#[tokio::test]
async fn markup_in_the_cms_text_is_escaped_and_cannot_end_the_json_ld() {
    fn hostile(path: &str, _query: &str) -> Reply {
        if path.ends_with("category/list") {
            Reply::Json(
                200,
                json!({"code": 200, "result": {"content": [{"id": 21, "parentId": 0,
                    "name": "公司要闻", "url": "/news_center/company_announcement/1", "sort": 1,
                    "type": "list", "subCategory": []}]}}),
            )
        } else {
            Reply::Json(
                200,
                json!({"code": 200, "result": {"id": 9, "categoryId": 21,
                    "title": "</script><script>alert(1)</script>\"><b>粗</b>",
                    "summary": "\"><img src=x onerror=alert(1)>",
                    "publishTime": "2026-11-01 08:00:00",
                    "content": "<p>正文</p><script>alert(2)</script>"}}),
            )
        }
    }
    let (app, _fake) = spawn_with_fake(Reply::Route(hostile), "").await;
    let (status, _, html) = text(&app, "/portal/site/article/9.html").await;
    assert_eq!(status, 200);
    assert!(
        html.contains(
            "<h1>&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#62;&#60;b&#62;粗&#60;/b&#62;</h1>"
        ),
        "{html}"
    );
    assert_eq!(
        html.matches("<script").count(),
        2,
        "only the JSON-LD block and the reading choices' head script (no build, no site script)"
    );
    assert!(
        !html.contains("<img src=x"),
        "markup in the summary stays text: {html}"
    );
    assert!(!html.contains("alert(2)"), "the body is sanitised");
}

#[tokio::test]
async fn pages_and_the_sitemap_are_purged_by_the_tags_of_what_they_show() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        "[admin]\ntoken = \"crawl-admin-token-0123\"\n",
    ))
    .await;
    for path in [
        "/portal/site/article/2101.html",
        "/portal/sitemap.xml",
        "/portal/site/article/2301.html",
    ] {
        assert_eq!(text(&app, path).await.0, 200);
        assert_eq!(app.get(path).await.headers()["x-cache"], "HIT", "{path}");
    }
    let purged = app
        .client
        .post(app.url("/portal/admin/cache/purge?tag=article:2101&tag=articles"))
        .bearer_auth("crawl-admin-token-0123")
        .send()
        .await
        .unwrap();
    assert_eq!(purged.status(), 200);
    assert_eq!(
        app.get("/portal/site/article/2101.html").await.headers()["x-cache"],
        "STALE"
    );
    assert_eq!(
        app.get("/portal/sitemap.xml").await.headers()["x-cache"],
        "STALE"
    );
    assert_eq!(
        app.get("/portal/site/article/2301.html").await.headers()["x-cache"],
        "HIT",
        "another article's page is untouched"
    );
}

#[tokio::test]
async fn the_footer_carries_the_filing_numbers_only_when_set() {
    let cms = spawn_reference_cms().await;
    let plain = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        "[site]\nicp_number = \"云ICP备20260001号-1\"\n",
    ))
    .await;
    let (_, _, html) = text(&plain, "/portal/site/index.html").await;
    assert!(html.contains("云ICP备20260001号-1"));
    assert!(
        !html.contains("公网安备"),
        "no 公安备案 line while the key is unset"
    );
    let (_, site) = plain.get_json("/portal/api/site").await;
    assert_eq!(site["result"]["policeFilingNumber"], "");
    assert_eq!(site["result"]["mourning"], false);

    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        "[site]\npolice_filing_number = \"云公网安备60010002000088号\"\n\
         police_filing_url = \"https://beian.mps.gov.cn/#/query/webSearch?code=60010002000088\"\n\
         mourning = [\"12-13\"]\n",
    ))
    .await;
    let (_, _, html) = text(&app, "/portal/site/index.html").await;
    assert!(html.contains(
        "<a href=\"https://beian.mps.gov.cn/#/query/webSearch?code=60010002000088\" rel=\"nofollow\">云公网安备60010002000088号</a>"
    ));
    let (_, site) = app.get_json("/portal/api/site").await;
    assert_eq!(
        site["result"]["policeFilingNumber"],
        "云公网安备60010002000088号"
    );
    assert_eq!(site["result"]["mourning"], json!(["12-13"]));
}

/// A customer's config that names only its company shows nothing of the demo company's facts:
/// not in `/site`, not on the crawlable pages, not in their JSON-LD (the demo's facts live in the
/// shipped `config/gateway.toml` only).
#[tokio::test]
async fn a_site_that_names_only_its_company_shows_no_demo_facts() {
    const DEMO_FACTS: &[&str] = &[
        "云川陆港国际物流集团有限公司",
        "枢纽大道",
        "0874-6288",
        "yclandport",
        "655000",
        "400-687-5200",
        "5200+",
        "阿拉木图陆港运营公司",
        "云ICP备",
        "公网安备",
    ];
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        "[site]\ncompany_name = \"蓝海联运物流有限公司\"\n",
    ))
    .await;
    let (_, site) = app.get_json("/portal/api/site").await;
    let site = site["result"].to_string();
    assert!(site.contains("蓝海联运物流有限公司"), "{site}");
    for fact in DEMO_FACTS {
        assert!(!site.contains(fact), "/site shows {fact}: {site}");
    }
    for page in [
        "/portal/site/index.html",
        "/portal/site/article/2101.html",
        "/portal/site/news_center/notice.html",
    ] {
        let (status, _, html) = text(&app, page).await;
        assert_eq!(status, 200, "{page}");
        let footer = &html[html.find("<footer").expect("a footer")..];
        assert!(
            footer.contains("蓝海联运物流有限公司 版权所有"),
            "{page}: {footer}"
        );
        assert!(
            !footer.contains("地址："),
            "{page}: no address line: {footer}"
        );
        for fact in DEMO_FACTS {
            assert!(!footer.contains(fact), "{page}'s footer shows {fact}");
        }
        let title = &html[html.find("<title>").unwrap()..html.find("</title>").unwrap()];
        assert!(title.ends_with("蓝海联运物流有限公司"), "{page}: {title}");
        for ld in json_ld(&html) {
            let text = ld.to_string();
            for fact in DEMO_FACTS {
                assert!(
                    !text.contains(fact),
                    "{page}'s JSON-LD shows {fact}: {text}"
                );
            }
            if let Some(org) = ld.get("publisher") {
                assert_eq!(org["name"], "蓝海联运物流有限公司");
                assert!(org.get("telephone").is_none() && org.get("address").is_none());
            }
        }
    }
}

/// Every JSON-LD block of a page.
fn json_ld(html: &str) -> Vec<Value> {
    html.split("<script type=\"application/ld+json\">")
        .skip(1)
        .filter_map(|rest| rest.split("</script>").next())
        .map(|text| serde_json::from_str(text).unwrap())
        .collect()
}

/// The names of the crawlable menu's entries (`<nav aria-label="栏目导航">`), in order.
fn menu_names(html: &str) -> Vec<String> {
    let nav = html
        .split("aria-label=\"栏目导航\">")
        .nth(1)
        .and_then(|rest| rest.split("</nav>").next())
        .expect("every page carries the menu");
    nav.split("</a>")
        .filter_map(|rest| rest.rsplit_once('>').map(|(_, name)| name))
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

/// One section structure for both faces: the crawlable menu shows what the app's menu shows
/// (`categoriesToMenu`: every category the CMS does not hide), hidden sections are reached from
/// their group's page, the spec's duplicate routes have no page, and `/portal/site/` is the home.
#[tokio::test]
async fn the_crawlable_menu_is_the_apps_and_hidden_sections_are_reached_from_their_group() {
    let app = spawn_with_reference_cms().await;
    let (_, tree) = app.get_json("/portal/api/category/list").await;
    // The app's rule, applied to the tree the app loads.
    fn shown(list: &Value, out: &mut Vec<String>) {
        for c in list.as_array().unwrap() {
            if c["hidden"] != json!(true) {
                out.push(c["name"].as_str().unwrap().to_owned());
                shown(&c["subCategory"], out);
            }
        }
    }
    let mut expected = Vec::new();
    shown(&tree["result"]["content"], &mut expected);

    let (status, _, home) = text(&app, "/portal/site/index.html").await;
    assert_eq!(status, 200);
    assert_eq!(menu_names(&home), expected);
    for hidden in ["业务概览", "社会影响", "专题专栏"] {
        assert!(!expected.contains(&hidden.to_owned()), "{hidden}");
    }
    assert!(expected.contains(&"信息公开".to_owned()));

    // A hidden child is listed on its group's page, beside the shown ones.
    let (status, _, group) = text(&app, "/portal/site/social_responsibility.html").await;
    assert_eq!(status, 200);
    for child in ["社会责任报告", "员工关爱", "社会影响"] {
        assert!(group.contains(&format!(">{child}</a>")), "{child}: {group}");
    }
    // The spec's duplicates (`sameAs` in the route table) have no crawlable page of their own.
    for gone in [
        "/portal/site/development_history.html",
        "/portal/site/party.html",
        "/portal/site/business_overview/fuse.html",
        "/portal/site/social_responsibility/friend_cooperation.html",
    ] {
        let (status, _, html) = text(&app, gone).await;
        assert_eq!(status, 404, "{gone}");
        assert!(html.contains("页面不存在"), "{gone}");
    }

    // `/portal/site/` is the crawlable home, not the app's shell.
    let (status, kind, index) = text(&app, "/portal/site/").await;
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert!(index.contains("aria-label=\"栏目导航\">"), "{index}");
    assert!(!index.contains("id=\"root\""));
    let bare = app.get("/portal/site").await;
    assert_eq!(bare.status(), 308);
    assert_eq!(bare.headers()["location"], "/portal/site/");
}

/// 清正廉洁 carries the 信访举报 channel `[site.whistleblowing]` sets, each line only when set, and
/// none at all when no way to reach the office is.
#[tokio::test]
async fn the_integrity_page_carries_the_whistleblowing_channel_only_when_set() {
    const PAGE: &str = "/portal/site/party-construction/clean-honest.html";
    let cms = spawn_reference_cms().await;
    let set = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        "[site.whistleblowing]\nphone = \"0874-6288 5312\"\nhours = \"工作日 8:30—17:30\"\n",
    ))
    .await;
    let (status, _, html) = text(&set, PAGE).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("<h2 id=\"whistleblowing-title\">信访举报</h2>"),
        "{html}"
    );
    assert!(
        html.contains("<dt>举报电话</dt><dd>0874-6288 5312</dd>"),
        "{html}"
    );
    assert!(
        html.contains("<dt>接待时间</dt><dd>工作日 8:30—17:30</dd>"),
        "{html}"
    );
    assert!(
        !html.contains("举报邮箱") && !html.contains("来信地址"),
        "{html}"
    );
    // Only on 清正廉洁.
    let (_, _, other) = text(
        &set,
        "/portal/site/party-construction/trade-union-activities.html",
    )
    .await;
    assert!(!other.contains("信访举报"));

    // Hours alone are no way to reach anyone: no block.
    let unset = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        "[site.whistleblowing]\nhours = \"工作日 8:30—17:30\"\n",
    ))
    .await;
    let (_, _, html) = text(&unset, PAGE).await;
    assert!(!html.contains("信访举报"), "{html}");
}
