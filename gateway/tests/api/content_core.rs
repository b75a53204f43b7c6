//! The faces over the content the API serves (the rendered pages, the sitemap, the feeds): they
//! page within the CMS's largest page (`dialect.paging.max_size`) and, like the API, never cache
//! a page, sitemap or feed made from an empty CMS answer (an empty body or a null payload).

use std::{
    collections::{BTreeSet, HashSet},
    time::Duration,
};

use serde_json::{Value, json};

use crate::helpers::*;

// ---------------------------------------------------------------------------------------------
// A scripted CMS (native dialect) with a known catalogue.

/// The catalogue: (category, number of articles, publish second of article `i` as `a·i + b`).
/// Ids are `category·1000 + i`. Times are distinct, and the two big categories interleave, so
/// the all-news feed mixes them.
const CATALOGUE: &[(u64, u64, u64, u64)] = &[
    (21, 23, 300, 90), // 公司要闻 (list): 23 articles, one page more than 20
    (22, 120, 60, 0),  // 媒体报道 (list): 120 articles, six pages of 20
    (23, 2, 420, 15),  // 通知公告 (list): two
    (11, 2, 180, 45),  // 公司简介 (page): two
];

/// The newest article of category 21, and the newest of all (a 媒体报道 one).
const NEWEST_21: u64 = 21_023;
const NEWEST: u64 = 22_120;

fn publish_time(second: u64) -> String {
    format!(
        "2026-03-01 {:02}:{:02}:{:02}",
        second / 3600,
        second / 60 % 60,
        second % 60
    )
}

/// (id, category, publish second) of every article, newest first (ties: the larger id).
fn articles_of(category: Option<u64>) -> Vec<(u64, u64, u64)> {
    let mut all: Vec<(u64, u64, u64)> = CATALOGUE
        .iter()
        .filter(|(c, ..)| category.is_none_or(|want| want == *c))
        .flat_map(|&(c, n, a, b)| (1..=n).map(move |i| (c * 1000 + i, c, a * i + b)))
        .collect();
    all.sort_by(|x, y| y.2.cmp(&x.2).then(y.0.cmp(&x.0)));
    all
}

fn ids_of(category: Option<u64>) -> Vec<u64> {
    articles_of(category).into_iter().map(|a| a.0).collect()
}

fn summary_json(&(id, category, second): &(u64, u64, u64)) -> Value {
    json!({"id": id, "categoryId": category, "title": format!("文章{id}"),
        "summary": format!("摘要{id}"), "publishTime": publish_time(second)})
}

fn category_tree() -> Value {
    let leaf = |id: u64, parent: u64, name: &str, url: &str, sort: u64, kind: &str| {
        json!({"id": id, "parentId": parent, "name": name, "url": url, "sort": sort,
            "type": kind, "subCategory": []})
    };
    json!([
        {"id": 1, "parentId": 0, "name": "走进云川", "url": "/about", "sort": 1, "type": "group",
            "subCategory": [leaf(11, 1, "公司简介", "/about/company_profile", 1, "page")]},
        {"id": 2, "parentId": 0, "name": "新闻中心", "url": "/news_center", "sort": 2, "type": "group",
            "subCategory": [
                leaf(21, 2, "公司要闻", "/news_center/company_announcement/1", 1, "list"),
                leaf(22, 2, "媒体报道", "/news_center/media_coverage/2", 2, "list"),
                leaf(23, 2, "通知公告", "/news_center/notice", 3, "list"),
            ]},
    ])
}

fn param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The catalogue's CMS, which, like a real one, refuses (400, in its envelope) a page larger
/// than `max`. Pages count from 0 (Spring Data, the native dialect).
fn catalogue_cms(path: &str, query: &str, max: u64) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": category_tree()}}),
        );
    }
    if path.ends_with("article/list") {
        let size: u64 = param(query, "size")
            .and_then(|s| s.parse().ok())
            .unwrap_or(10);
        if size == 0 || size > max {
            return Reply::Json(
                400,
                json!({"code": 400, "msg": format!("每页最多 {max} 条，收到 size={size}")}),
            );
        }
        let page: u64 = param(query, "page")
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let category = param(query, "categoryId").and_then(|s| s.parse().ok());
        let all = articles_of(category);
        let total = all.len() as u64;
        let content: Vec<Value> = all
            .iter()
            .skip((page * size) as usize)
            .take(size as usize)
            .map(summary_json)
            .collect();
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": content, "totalElements": total,
                "totalPages": total.div_ceil(size), "number": page, "size": size}}),
        );
    }
    if path.ends_with("article/detail") {
        let id: u64 = param(query, "id").and_then(|s| s.parse().ok()).unwrap_or(0);
        return match articles_of(None).iter().find(|a| a.0 == id) {
            Some(found) => {
                let mut article = summary_json(found);
                article["content"] = json!(format!("<p>正文{id}</p>"));
                Reply::Json(200, json!({"code": 200, "result": article}))
            }
            None => Reply::Json(404, json!({"code": 404, "msg": "文章不存在"})),
        };
    }
    Reply::Json(404, json!({"code": 404, "msg": "没有这个接口"}))
}

/// A CMS whose largest page is 20 (as `reference-cms --dialect rest` is).
fn cms_max_20(path: &str, query: &str) -> Reply {
    catalogue_cms(path, query, 20)
}

/// The same CMS taking pages up to 50 (the gateway's default `max_size`).
fn cms_max_50(path: &str, query: &str) -> Reply {
    catalogue_cms(path, query, 50)
}

/// The article list answered with an empty body; the rest as `cms_max_50`.
fn articles_empty_body(path: &str, query: &str) -> Reply {
    if path.ends_with("article/list") {
        return Reply::Empty(200);
    }
    cms_max_50(path, query)
}

/// The article list answered with a null payload; the rest as `cms_max_50`.
fn articles_null(path: &str, query: &str) -> Reply {
    if path.ends_with("article/list") {
        return Reply::Json(200, json!({"code": 200, "result": null}));
    }
    cms_max_50(path, query)
}

/// The category list answered with an empty body; the rest as `cms_max_50`.
fn categories_empty_body(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Empty(200);
    }
    cms_max_50(path, query)
}

/// The category list answered with a null payload; the rest as `cms_max_50`.
fn categories_null(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(200, json!({"code": 200, "result": null}));
    }
    cms_max_50(path, query)
}

/// A CMS that pages at most 20 items.
fn max_20(config: &mut Config) {
    config.dialect.paging.max_size = 20;
}

// ---------------------------------------------------------------------------------------------
// Reading the pages and the feeds.

async fn text(app: &TestApp, path: &str) -> (u16, String) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// The article ids a page links (`/portal/article/<id>`, whatever its query), in order, in its
/// markup (not its state).
fn linked_articles(html: &str) -> Vec<u64> {
    hrefs(html.split(STATE_OPEN).next().unwrap())
        .iter()
        .filter_map(|h| h.strip_prefix("/portal/article/"))
        .filter_map(|rest| rest.split('?').next())
        .filter_map(|id| id.parse().ok())
        .collect()
}

/// The id of an article's real URL (`…/portal/article/<id>`).
fn article_id(link: &str) -> Option<u64> {
    link.split("/portal/article/").nth(1)?.parse().ok()
}

/// The article ids of the `<loc>`s (sitemap) or `<link>`s (feed items) of an XML answer.
fn xml_articles(xml: &str, open: &str, close: &str) -> Vec<u64> {
    xml.split(open)
        .skip(1)
        .filter_map(|rest| rest.split(close).next())
        .filter_map(article_id)
        .collect()
}

/// The article id of each `<item>`'s `<link>`, in order.
fn item_links(xml: &str) -> Vec<u64> {
    xml.split("<item>")
        .skip(1)
        .map(|item| {
            let link = item
                .split("<link>")
                .nth(1)
                .and_then(|rest| rest.split("</link>").next())
                .expect("each item has a link");
            article_id(link).unwrap_or_else(|| panic!("an item links an article: {link}"))
        })
        .collect()
}

/// The `<pubDate>` of each `<item>`, parsed.
fn item_dates(xml: &str) -> Vec<chrono::DateTime<chrono::FixedOffset>> {
    xml.split("<item>")
        .skip(1)
        .map(|item| {
            let date = item
                .split("<pubDate>")
                .nth(1)
                .and_then(|rest| rest.split("</pubDate>").next())
                .expect("each item has its date");
            chrono::DateTime::parse_from_rfc2822(date).unwrap()
        })
        .collect()
}

/// Every page of a list at its real URL (`?page=N`, 10 articles a page as in the app), each 200
/// and rendered from successful answers only, until one lists nothing (the page past the last:
/// 404). Returns the article ids listed, page by page.
async fn walk_list(app: &TestApp, route: &str) -> Vec<Vec<u64>> {
    let mut pages = Vec::new();
    for page in 1.. {
        let path = format!("/portal{route}?page={page}");
        let (status, html) = text(app, &path).await;
        let failed = failed_answers(&html);
        assert!(failed.is_empty(), "{path}: {failed:?}");
        let listed = linked_articles(&html);
        if listed.is_empty() {
            // An empty list's first page is that list, empty; a page past the last is none.
            assert_eq!(status, if page == 1 { 200 } else { 404 }, "{path}");
            break;
        }
        assert_eq!(status, 200, "{path}: {html:.300}");
        pages.push(listed);
        assert!(pages.len() <= 50, "{route}: the list never ends");
    }
    pages
}

// ---------------------------------------------------------------------------------------------
// 1. Paging within the dialect's `max_size`.

/// A CMS whose largest page is 20, with a category of 23 articles and one of 120: every page of
/// every list, the page category, the groups, the home page, the sitemap and the feeds answer 200
/// from successful answers, and together list every article; the CMS is never asked for a page
/// larger than 20.
#[tokio::test]
async fn a_cms_paging_at_most_20_is_read_whole_through_pages_sitemap_and_feeds() {
    let fake = FakeUpstream::start(Reply::Route(cms_max_20)).await;
    let app = spawn_app(page_config(&fake.base_url(), max_20)).await;

    // The API pages within the bound.
    let (status, body) = app
        .get_json("/portal/api/article/list?categoryId=22&page=6&size=20")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["totalElements"], 120);

    // Every answer, all of them before any is judged further: 200, from successful answers.
    let mut failing = Vec::new();
    for path in [
        "/portal/",
        "/portal/news_center",
        "/portal/news_center/company_announcement/1",
        "/portal/news_center/company_announcement/1?page=3",
        "/portal/news_center/media_coverage/2",
        "/portal/news_center/media_coverage/2?page=12",
        "/portal/news_center/notice",
        "/portal/about",
        "/portal/about/company_profile",
        "/portal/article/22001",
        "/portal/sitemap.xml",
        "/portal/feed/21.xml",
        "/portal/feed/22.xml",
        "/portal/feed/23.xml",
        "/portal/feed/news.xml",
    ] {
        let (status, body) = text(&app, path).await;
        let failed = if path.ends_with(".xml") {
            Vec::new()
        } else {
            failed_answers(&body)
        };
        if status != 200 || !failed.is_empty() {
            failing.push(format!(
                "{path}: {status} {failed:?} {:.100}",
                body.replace('\n', " ")
            ));
        }
    }
    assert!(failing.is_empty(), "{}", failing.join("\n"));

    // Each list category, every one of its pages: 10 a page as in the app, newest first, nothing
    // missing.
    for (category, route) in [
        (21, "/news_center/company_announcement/1"),
        (22, "/news_center/media_coverage/2"),
        (23, "/news_center/notice"),
    ] {
        let pages = walk_list(&app, route).await;
        let want = ids_of(Some(category));
        assert_eq!(
            pages.len(),
            want.len().div_ceil(10),
            "{route}: one page per 10 articles"
        );
        assert_eq!(pages.concat(), want, "{route}: every article, newest first");
    }

    // A page category shows its first article.
    let (status, html) = text(&app, "/portal/about/company_profile").await;
    assert_eq!(status, 200, "the page category: {html}");
    assert!(
        html.split(STATE_OPEN)
            .next()
            .unwrap()
            .contains("<p>正文11002</p>"),
        "its first article's body"
    );

    // The home page: the latest news first.
    let (_, home) = text(&app, "/portal/").await;
    assert!(
        linked_articles(&home).contains(&NEWEST_21),
        "the home page links the latest news"
    );

    // The sitemap: every article once.
    let (status, xml) = text(&app, "/portal/sitemap.xml").await;
    assert_eq!(status, 200, "the sitemap: {xml}");
    let listed = xml_articles(&xml, "<loc>", "</loc>");
    let all = ids_of(None);
    assert_eq!(listed.len(), all.len(), "each article once");
    assert_eq!(
        listed.into_iter().collect::<BTreeSet<_>>(),
        all.iter().copied().collect(),
        "every article"
    );

    // The feeds: the latest 20 (or fewer) of their categories, newest first.
    let news: Vec<u64> = articles_of(None)
        .into_iter()
        .filter(|a| [21, 22, 23].contains(&a.1))
        .map(|a| a.0)
        .collect();
    for (path, want) in [
        ("/portal/feed/21.xml", ids_of(Some(21))),
        ("/portal/feed/22.xml", ids_of(Some(22))),
        ("/portal/feed/23.xml", ids_of(Some(23))),
        ("/portal/feed/news.xml", news),
    ] {
        let (status, xml) = text(&app, path).await;
        assert_eq!(status, 200, "{path}: {xml}");
        let want = want[..want.len().min(20)].to_vec();
        assert_eq!(item_links(&xml), want, "{path}: the latest, newest first");
        let dates = item_dates(&xml);
        assert!(
            dates.windows(2).all(|w| w[0] > w[1]),
            "{path}: newest first"
        );
    }

    let too_large: Vec<Seen> = fake
        .seen()
        .into_iter()
        .filter(|s| {
            param(&s.query, "size")
                .and_then(|v| v.parse::<u64>().ok())
                .is_some_and(|size| size > 20)
        })
        .collect();
    assert!(
        too_large.is_empty(),
        "the CMS was asked for pages larger than it serves: {too_large:?}"
    );
}

/// Every article id the API lists, all categories together, in pages of 20.
async fn every_article(app: &TestApp) -> BTreeSet<u64> {
    let mut ids = BTreeSet::new();
    for page in 1.. {
        let (status, body) = app
            .get_json(&format!("/portal/api/article/list?page={page}&size=20"))
            .await;
        assert_eq!(status, 200, "{body}");
        let content = body["result"]["content"].as_array().unwrap();
        ids.extend(content.iter().map(|a| a["id"].as_u64().unwrap()));
        if page >= body["result"]["totalPages"].as_u64().unwrap() {
            break;
        }
    }
    ids
}

/// A category's articles through the API, newest first: (id, publishTime).
async fn category_articles(app: &TestApp, category: u64) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    for page in 1.. {
        let (status, body) = app
            .get_json(&format!(
                "/portal/api/article/list?categoryId={category}&page={page}&size=20"
            ))
            .await;
        assert_eq!(status, 200, "{body}");
        out.extend(
            body["result"]["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    (
                        a["id"].as_u64().unwrap(),
                        a["publishTime"].as_str().unwrap().to_owned(),
                    )
                }),
        );
        if page >= body["result"]["totalPages"].as_u64().unwrap().max(1) {
            break;
        }
    }
    out
}

/// (id, url) of every category of the API's tree.
fn flat_urls(tree: &Value, out: &mut Vec<(u64, String)>) {
    for c in tree.as_array().unwrap() {
        out.push((
            c["id"].as_u64().unwrap(),
            c["url"].as_str().unwrap_or("").to_owned(),
        ));
        flat_urls(&c["subCategory"], out);
    }
}

/// The list categories of the API's tree, each with its parent's route ("" at the top).
fn list_categories(tree: &Value, parent_url: &str, out: &mut Vec<(u64, String)>) {
    for c in tree.as_array().unwrap() {
        if c["type"] == "list" {
            out.push((c["id"].as_u64().unwrap(), parent_url.to_owned()));
        }
        list_categories(&c["subCategory"], c["url"].as_str().unwrap_or(""), out);
    }
}

/// The demo content through reference-cms with the gateway's `max_size` at 20: natively (the
/// gateway's own bound) and in the rest dialect (a CMS that itself answers 400 above 20). The home
/// page, the last page of every list and an article of each answer 200 from successful answers; the sitemap lists every article; every feed answers with its latest 20 (or
/// fewer), newest first.
#[tokio::test]
async fn reference_cms_at_20_a_page_is_read_whole_and_its_sitemap_and_feeds_answer() {
    let native = {
        let cms = spawn_reference_cms().await;
        let mut config = page_config(&format!("http://{cms}/"), max_20);
        open_limits(&mut config);
        spawn_app(config).await
    };
    let rest = {
        let cms = spawn_reference_cms_speaking(
            reference_cms::Dialect::Rest,
            reference_cms::CategoryShape::Flat,
        )
        .await;
        let mut config = portal_web::Config::from_toml_str(&example_toml("rest", cms)).unwrap();
        config.server.static_dir = app_build_dir();
        config.render.timeout = Duration::from_secs(5);
        // The sitemap's and the feeds' absolute links.
        config.site.public_url = "http://127.0.0.1:8080".to_owned();
        open_limits(&mut config);
        spawn_app(config).await
    };
    // First every page of both, so that all that fail are named together.
    let mut failing = Vec::new();
    let mut surveyed = Vec::new();
    for (name, app) in [("native, max_size 20", native), ("rest", rest)] {
        let expected = every_article(&app).await;
        assert!(expected.len() > 20, "{name}: more articles than one page");
        let (_, tree) = app.get_json("/portal/api/category/list").await;
        let mut lists = Vec::new();
        list_categories(&tree["result"]["content"], "", &mut lists);
        // The pages that ask for lists (the route of every page is `pages::`'s).
        let mut paths = vec!["/portal/".to_owned()];
        let mut urls = Vec::new();
        flat_urls(&tree["result"]["content"], &mut urls);
        for (id, _) in &lists {
            let articles = category_articles(&app, *id).await;
            let route = urls
                .iter()
                .find(|(c, _)| c == id)
                .map(|(_, url)| url)
                .unwrap();
            paths.push(format!(
                "/portal{route}?page={}",
                articles.len().div_ceil(10)
            ));
            paths.push(format!("/portal/article/{}", articles[0].0));
        }
        for path in paths {
            let (status, html) = text(&app, &path).await;
            let failed = if status == 200 {
                failed_answers(&html)
            } else {
                Vec::new()
            };
            if status != 200 || !failed.is_empty() {
                failing.push(format!("{name}: {path}: {status} {failed:?}"));
            }
        }
        let (status, xml) = text(&app, "/portal/sitemap.xml").await;
        if status != 200 {
            failing.push(format!(
                "{name}: /portal/sitemap.xml: {status} {:.100}",
                xml.replace('\n', " ")
            ));
        }
        surveyed.push((name, app, expected, xml));
    }
    assert!(failing.is_empty(), "{}", failing.join("\n"));
    for (name, app, expected, xml) in surveyed {
        // The sitemap.
        let listed = xml_articles(&xml, "<loc>", "</loc>");
        assert_eq!(listed.len(), expected.len(), "{name}: each article once");
        assert_eq!(
            listed.into_iter().collect::<BTreeSet<_>>(),
            expected,
            "{name}: the sitemap lists every article"
        );

        // The feeds: each list category's, and the news group's.
        let (_, tree) = app.get_json("/portal/api/category/list").await;
        let mut lists = Vec::new();
        list_categories(&tree["result"]["content"], "", &mut lists);
        assert!(lists.len() >= 3, "{name}: {lists:?}");
        let mut news = Vec::new();
        for (id, parent) in &lists {
            let articles = category_articles(&app, *id).await;
            if parent == "/news_center" {
                news.extend(articles.clone());
            }
            let path = format!("/portal/feed/{id}.xml");
            let (status, xml) = text(&app, &path).await;
            assert_eq!(status, 200, "{name}: {path}: {xml}");
            let items = item_links(&xml);
            assert_eq!(items.len(), articles.len().min(20), "{name}: {path}");
            let dates = item_dates(&xml);
            assert!(
                dates.windows(2).all(|w| w[0] >= w[1]),
                "{name}: {path}: newest first"
            );
            let of_category: HashSet<u64> = articles.iter().map(|a| a.0).collect();
            assert!(
                items.iter().all(|i| of_category.contains(i)),
                "{name}: {path}: its own articles"
            );
        }
        assert!(news.len() > 20, "{name}: the news group has more than 20");
        let (status, xml) = text(&app, "/portal/feed/news.xml").await;
        assert_eq!(status, 200, "{name}: news.xml: {xml}");
        let items = item_links(&xml);
        let dates = item_dates(&xml);
        assert_eq!(items.len(), 20, "{name}: news.xml");
        assert!(
            dates.windows(2).all(|w| w[0] >= w[1]),
            "{name}: news.xml newest first"
        );
        // None left out is newer than the oldest listed.
        let oldest = news
            .iter()
            .filter(|a| items.contains(&a.0))
            .map(|a| a.1.clone())
            .min()
            .unwrap();
        assert!(
            news.iter()
                .filter(|a| !items.contains(&a.0))
                .all(|a| a.1 <= oldest),
            "{name}: news.xml holds the latest 20"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. No face caches an empty CMS answer.

/// The answers made from the article list (rendered pages, the sitemap, the feeds), and the
/// article each shows once the CMS has content again.
const FACES: &[(&str, u64)] = &[
    ("/portal/news_center/company_announcement/1", NEWEST_21),
    ("/portal/", NEWEST_21),
    ("/portal/sitemap.xml", NEWEST),
    ("/portal/feed/21.xml", NEWEST_21),
    ("/portal/feed/news.xml", NEWEST),
];

fn article_link(id: u64) -> String {
    format!("/portal/article/{id}")
}

/// Whether a face was made from the CMS's content: it links `newest` (the article list) and a
/// route of the news group (the category tree: the menu, a sitemap entry or a feed's link).
fn shows_content(body: &str, newest: u64) -> bool {
    let markup = body.split(STATE_OPEN).next().unwrap();
    markup.contains(&article_link(newest)) && markup.contains("/portal/news_center")
}

/// With `empty` answering nothing for `endpoint`, each face asked twice calls the CMS for
/// `endpoint` twice (nothing was cached); once the CMS has content, the next request shows it.
/// Returns what went wrong, face by face (all of them, not only the first).
async fn empty_is_not_cached(
    what: &str,
    empty: fn(&str, &str) -> Reply,
    endpoint: &str,
) -> Vec<String> {
    let fake = FakeUpstream::start(Reply::Route(empty)).await;
    let app = spawn_app(page_config(&fake.base_url(), |_| {})).await;
    let mut wrong = Vec::new();
    for (path, _) in FACES {
        let before = fake.calls_to(endpoint);
        let (first_status, first) = text(&app, path).await;
        let first_calls = fake.calls_to(endpoint) - before;
        assert!(
            first_calls > 0,
            "{what}: {path} asks the CMS's {endpoint} ({first_status})"
        );
        let (second_status, _) = text(&app, path).await;
        let second_calls = fake.calls_to(endpoint) - before - first_calls;
        if second_calls != first_calls {
            wrong.push(format!(
                "{what}: {path} made from an empty {endpoint} was cached: asked again, the CMS \
                 was asked {second_calls} times, not {first_calls} (first answer {first_status}, \
                 second {second_status}: {:.120})",
                first.replace('\n', " ")
            ));
        }
    }
    fake.set(Reply::Route(cms_max_50));
    for (path, newest) in FACES {
        let response = app.get(path).await;
        let status = response.status().as_u16();
        let cache = response
            .headers()
            .get("x-cache")
            .map(|v| v.to_str().unwrap().to_owned());
        let body = response.text().await.unwrap();
        if status != 200 || !shows_content(&body, *newest) {
            wrong.push(format!(
                "{what}: {path} once the CMS has content: {status}, X-Cache {cache:?}, content (article {newest}, the news \
                 group's route) not shown: {:.120}",
                body.replace('\n', " ")
            ));
        }
    }
    wrong
}

#[tokio::test]
async fn answers_made_from_an_empty_article_list_are_not_cached() {
    let mut wrong = empty_is_not_cached("empty body", articles_empty_body, "article/list").await;
    wrong.extend(empty_is_not_cached("null payload", articles_null, "article/list").await);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[tokio::test]
async fn answers_made_from_an_empty_category_list_are_not_cached() {
    let mut wrong = empty_is_not_cached("empty body", categories_empty_body, "category/list").await;
    wrong.extend(empty_is_not_cached("null payload", categories_null, "category/list").await);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A good page past its TTL, whose refresh meets an empty article list (the API's own cached lists
/// hard-purged by their cache name `article/list`, so no good list lies beneath to shield it):
/// the good page stays and is served stale, as the API does for its own answers.
#[tokio::test]
async fn a_good_answer_is_not_replaced_by_one_made_from_an_empty_answer() {
    let fake = FakeUpstream::start(Reply::Route(cms_max_50)).await;
    let app = spawn_app(page_config(&fake.base_url(), |c| {
        c.cache.default_ttl = Duration::from_millis(200);
        c.cache.stale_while_revalidate = Duration::ZERO;
        c.admin.token = Some("core-admin-token-0123".into());
    }))
    .await;
    for (path, newest) in FACES {
        let (status, body) = text(&app, path).await;
        assert_eq!(status, 200, "{path}: {body:.300}");
        assert!(shows_content(&body, *newest), "{path}: {body:.300}");
    }
    fake.set(Reply::Route(articles_empty_body));
    app.clock.advance(Duration::from_millis(300));
    // The API's article lists go (a hard purge); the pages, sitemap and feeds are past their TTL.
    let purged = app
        .client
        .post(app.url("/portal/admin/cache/purge?prefix=article/list&hard=true"))
        .bearer_auth("core-admin-token-0123")
        .send()
        .await
        .unwrap();
    assert_eq!(purged.status(), 200);
    let mut wrong = Vec::new();
    for (path, newest) in FACES {
        let before = fake.calls_to("article/list");
        let response = app.get(path).await;
        let status = response.status().as_u16();
        let cache = response.headers()["x-cache"].to_str().unwrap().to_owned();
        let body = response.text().await.unwrap();
        assert!(
            fake.calls_to("article/list") > before,
            "{path}: the refresh reached the CMS"
        );
        if status != 200 || !shows_content(&body, *newest) || cache != "STALE" {
            wrong.push(format!(
                "{path}: {status}, X-Cache {cache} (want 200, STALE, the last good answer \
                 showing article {newest}): {:.120}",
                body.replace('\n', " ")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
