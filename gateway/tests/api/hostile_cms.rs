//! A hostile CMS: answers built to crash, hang or bloat the gateway, from a scripted server on
//! loopback. For each, the process lives, `/healthz` answers meanwhile, and visitors get a clear
//! envelope or a bounded answer.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::*;

/// A flat category list whose items chain by `parentId`: item *i* the child of *i − 1*.
fn parent_chain(length: u64) -> Vec<u8> {
    let items: Vec<Value> = (1..=length)
        .map(|id| json!({"id": id, "parentId": id - 1, "name": format!("第{id}级"), "url": format!("/c{id}"), "sort": 0}))
        .collect();
    json!({"code": 200, "result": {"content": items}})
        .to_string()
        .into_bytes()
}

fn depth(list: &Value) -> usize {
    // Iteratively: the answer is what is being tested, it must not need a deep stack to read.
    let mut level: Vec<&Value> = list.as_array().unwrap().iter().collect();
    let mut depth = 0;
    while !level.is_empty() {
        depth += 1;
        level = level
            .iter()
            .flat_map(|c| c["subCategory"].as_array().into_iter().flatten())
            .collect();
    }
    depth
}

fn count(list: &Value) -> usize {
    let mut level: Vec<&Value> = list.as_array().unwrap().iter().collect();
    let mut count = 0;
    while !level.is_empty() {
        count += level.len();
        level = level
            .iter()
            .flat_map(|c| c["subCategory"].as_array().into_iter().flatten())
            .collect();
    }
    count
}

#[tokio::test]
async fn a_parent_chain_ten_thousand_long_is_cut_at_the_depth_the_portal_shows() {
    let (app, _cms) = spawn_with_fake(
        Reply::Bytes(200, "application/json", parent_chain(10_000)),
        |_| {},
    )
    .await;
    let (status, body) = app.get_json("/portal/api/category/list").await;
    assert_eq!(status, 200, "{body:.300}");
    let tree = &body["result"]["content"];
    assert_eq!(depth(tree), 4, "categories.max_depth's default");
    assert_eq!(tree[0]["subCategory"][0]["subCategory"][0]["id"], 3);
    assert_eq!(app.get("/healthz").await.status(), 200, "the process lives");
    // Twice: the next load of the tree is no crash either.
    let (status, _) = app.get_json("/portal/api/category/list?x=1").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_hundred_thousand_categories_are_cut_to_the_thousand_the_portal_shows() {
    let items: Vec<Value> = (1..=100_000u64)
        .map(|id| json!({"id": id, "parentId": if id <= 50 { 0 } else { id % 50 + 1 }, "name": format!("栏目{id}"), "url": "", "sort": id}))
        .collect();
    let body = json!({"code": 200, "result": {"content": items}})
        .to_string()
        .into_bytes();
    let (app, _cms) = spawn_with_fake(Reply::Bytes(200, "application/json", body), |_| {}).await;
    let response = app.get("/portal/api/category/list").await;
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(count(&body["result"]["content"]), 1_000);
    assert!(text.len() < 200_000, "{} bytes", text.len());
    assert_eq!(app.get("/healthz").await.status(), 200);
}

/// A news list whose one article's title and summary carry control characters.
fn control_characters(path: &str, _query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": [
                {"id": 2, "parentId": 0, "name": "新闻中心", "url": "/news_center", "type": "group"},
                {"id": 21, "parentId": 2, "name": "通知公告", "url": "/news_center/notice", "type": "list"},
            ]}),
        );
    }
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": [{
            "id": 7, "categoryId": 21, "title": "班列\u{1}\u{1b}[31m开行\u{7f}\u{fffe}",
            "summary": "首列\u{0}\u{8}发车", "publishTime": "2026-11-20 08:00:00",
        }], "totalElements": 1}}),
    )
}

#[tokio::test]
async fn control_characters_in_cms_text_never_reach_a_feed() {
    let (app, _cms) = spawn_with_fake(Reply::Route(control_characters), |_| {}).await;
    for path in ["/portal/feed/21.xml", "/portal/feed/news.xml"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let xml = response.text().await.unwrap();
        let bad: Vec<char> = xml
            .chars()
            .filter(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r') || *c == '\u{fffe}')
            .collect();
        assert!(bad.is_empty(), "{path}: {bad:?} in\n{xml}");
        assert!(xml.contains("<title>班列[31m开行</title>"), "{xml}");
        assert!(xml.contains("<description>首列发车</description>"), "{xml}");
    }
}

/// An article whose body is 50 000 nested `<div>`s (sanitising it took 5.3 s in a release build).
fn deeply_nested_article(path: &str, _query: &str) -> Reply {
    if path.ends_with("category/list") {
        return control_characters(path, "");
    }
    let depth = 50_000;
    let html = format!("{}深{}", "<div>".repeat(depth), "</div>".repeat(depth));
    Reply::Json(
        200,
        json!({"code": 200, "result": {"id": 7, "categoryId": 21, "title": "深", "content": html}}),
    )
}

#[tokio::test]
async fn deeply_nested_html_is_refused_within_its_budget_while_the_gateway_answers() {
    let (app, cms) = spawn_with_fake(Reply::Route(deeply_nested_article), |_| {}).await;
    let url = app.url("/portal/api/article/detail?id=7");
    let client = app.client.clone();
    let detail = tokio::spawn(async move {
        let response = client.get(url).send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json::<Value>().await.unwrap())
    });
    // Once the CMS has been asked (its body is then on its way to the sanitiser).
    assert!(
        until(Duration::from_secs(5), || async {
            cms.calls_to("article/detail") == 1
        })
        .await
    );
    // (The test's runtime is the gateway's, one thread: sanitising on it would stall this.)
    let health = tokio::time::timeout(std::time::Duration::from_secs(1), app.get("/healthz"))
        .await
        .expect("/healthz answers while the body is sanitised");
    assert_eq!(health.status(), 200);
    let (status, body) = tokio::time::timeout(std::time::Duration::from_secs(10), detail)
        .await
        .expect("the article is answered within its budget")
        .unwrap();
    // 502 once the budget is spent, or 504 when the visitor's wait (the CMS time-out and half a
    // second, 1.5 s here) ends first: an envelope either way.
    assert!(matches!(status, 502 | 504), "{status} {body}");
    assert!(body["code"].as_i64().is_some(), "{body}");
    assert!(
        body["msg"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
}

/// Articles 7 and 8 are 50 000 nested `<div>`s, every other one an ordinary article.
fn two_deep_articles_and_others(path: &str, query: &str) -> Reply {
    let id: u64 = query
        .split('&')
        .find_map(|p| p.strip_prefix("id="))
        .and_then(|id| id.parse().ok())
        .unwrap_or(0);
    if path.ends_with("article/detail") && !matches!(id, 7 | 8) {
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"id": id, "categoryId": 21, "title": "班列开行",
                "content": "<section><p>今晨发车。<p>满载百货。<ul><li>一<li>二</ul></section>"}}),
        );
    }
    deeply_nested_article(path, query)
}

/// Two hostile bodies at once no longer hold both sanitiser turns: they are refused at once, by
/// their depth, and every other article is answered (it was 502 for as long as they ran).
#[tokio::test]
async fn deep_bodies_are_refused_at_once_and_other_articles_are_answered() {
    let (app, _cms) = spawn_with_fake(Reply::Route(two_deep_articles_and_others), |c| {
        open_limits(c);
    })
    .await;
    let (seven, eight) = tokio::join!(
        app.get_json("/portal/api/article/detail?id=7"),
        app.get_json("/portal/api/article/detail?id=8")
    );
    for (status, body) in [seven, eight] {
        assert_eq!(status, 502, "{body}");
        assert!(
            body["msg"].as_str().is_some_and(|m| !m.is_empty()),
            "{body}"
        );
    }
    for id in 9..12 {
        let (status, body) = app
            .get_json(&format!("/portal/api/article/detail?id={id}"))
            .await;
        assert_eq!(status, 200, "{body}");
        assert!(
            body["result"]["content"]
                .as_str()
                .unwrap()
                .contains("满载百货")
        );
    }
}

/// A valid article of about 7 MiB: paragraphs of text in 2 000 characters in no repeating order
/// (cheap to sanitise, as dear to compress as real text of that size).
fn a_large_article(path: &str, _query: &str) -> Reply {
    if path.ends_with("category/list") {
        return control_characters(path, "");
    }
    let mut seed: u32 = 7;
    let mut body = String::with_capacity(7 * 1024 * 1024 + 1024);
    while body.len() < 7 * 1024 * 1024 {
        body.push_str("<p>");
        for _ in 0..300 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            body.push(char::from_u32(0x4e00 + (seed >> 16) % 2000).unwrap());
        }
        body.push_str("</p>");
    }
    Reply::Json(
        200,
        json!({"code": 200, "result": {"id": 7, "categoryId": 21, "title": "长文", "content": body,
            "publishTime": "2026-11-20 08:00:00"}}),
    )
}

/// Its answer is encoded (JSON and brotli of 7 MiB) off the async workers: `/healthz`, asked all
/// the while, never waits for it.
#[tokio::test]
async fn a_large_article_is_encoded_off_the_async_workers() {
    // The CMS's time-out of a site (the tests' 800 ms is for small answers): on a busy machine
    // reading and sanitising 7 MiB took longer, and the answer was a 504, not what is tested.
    let (app, cms) = spawn_with_fake(Reply::Route(a_large_article), |c| {
        open_limits(c);
        c.upstream.timeout = Duration::from_secs(10);
    })
    .await;
    let url = app.url("/portal/api/article/detail?id=7");
    let client = app.client.clone();
    let started = std::time::Instant::now();
    let detail = tokio::spawn(async move {
        let response = client.get(url).send().await.unwrap();
        let status = response.status();
        let took = started.elapsed();
        let _ = response.bytes().await.unwrap();
        (status, took)
    });
    assert!(
        until(Duration::from_secs(5), || async {
            cms.calls_to("article/detail") == 1
        })
        .await
    );
    // (The test's runtime is the gateway's, one thread: encoding there holds `/healthz` back.)
    let mut slowest = Duration::ZERO;
    while !detail.is_finished() {
        let asked = std::time::Instant::now();
        assert_eq!(app.get("/healthz").await.status(), 200);
        slowest = slowest.max(asked.elapsed());
    }
    let (status, took) = detail.await.unwrap();
    assert_eq!(status, 200);
    assert!(
        slowest * 3 < took,
        "/healthz took up to {slowest:?} while the article took {took:?}: it waited for the encoding"
    );
}

/// A news list of 20 000 items, about 6.5 MiB (the gateway reads 8 MiB at most).
fn a_large_list(path: &str, _query: &str) -> Reply {
    if path.ends_with("category/list") {
        return control_characters(path, "");
    }
    let items: Vec<Value> = (1..=20_000u64)
        .map(|id| {
            json!({"id": id, "categoryId": 21, "title": format!("第{id}列中欧班列自陆港发车"),
            "summary": "满载机电产品与日用百货的班列今晨从陆港站发出，预计十六天后抵达终点站。",
            "publishTime": "2026-11-20 08:00:00"})
        })
        .collect();
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": items, "totalElements": 20_000}}),
    )
}

#[tokio::test]
async fn a_large_answer_is_mapped_off_the_async_workers() {
    let (app, cms) = spawn_with_fake(Reply::Route(a_large_list), |c| {
        c.upstream.timeout = Duration::from_secs(10);
    })
    .await;
    let url = app.url("/portal/api/article/list?categoryId=21&page=1&size=10");
    let client = app.client.clone();
    let started = std::time::Instant::now();
    let list = tokio::spawn(async move {
        let response = client.get(url).send().await.unwrap();
        let status = response.status();
        let took = started.elapsed();
        let body: Value = response.json().await.unwrap();
        (status, took, body)
    });
    // (The test's runtime is the gateway's, one thread: decoding and mapping there would hold
    // `/healthz` back until the list is done.)
    assert!(
        until(Duration::from_secs(5), || async {
            cms.calls_to("article/list") == 1
        })
        .await
    );
    let asked = std::time::Instant::now();
    assert_eq!(app.get("/healthz").await.status(), 200);
    let health = asked.elapsed();
    let (status, list, body) = list.await.unwrap();
    assert_eq!(status, 200);
    // The CMS sent all 20 000 for a page of 10: the page is the size asked for.
    assert_eq!(body["result"]["content"].as_array().unwrap().len(), 10);
    assert_eq!(body["result"]["totalElements"], 20_000);
    assert!(
        health * 3 < list,
        "/healthz took {health:?} while the list took {list:?}: it waited for the mapping"
    );
}

/// A CMS whose article details fail (a proxy in front of it answering 502).
fn failing_details(path: &str, _query: &str) -> Reply {
    if path.ends_with("category/list") {
        return control_characters(path, "");
    }
    Reply::Raw(
        502,
        "text/html",
        "<html><body>502 Bad Gateway</body></html>",
    )
}

#[tokio::test]
async fn a_page_drawn_around_a_failed_answer_says_so_in_its_status_and_is_not_kept() {
    let cms = FakeUpstream::start(Reply::Route(failing_details)).await;
    let app = spawn_app(page_config(&cms.base_url(), open_limits)).await;
    for round in 1..=2 {
        let response = app.get("/portal/article/7").await;
        // Not a 200 a crawler would keep as the article's page.
        assert_eq!(response.status(), 502, "round {round}");
        let html = response.text().await.unwrap();
        assert!(html.contains("文章加载失败"), "{html:.2000}");
        assert_eq!(
            cms.calls_to("article/detail"),
            round,
            "the failed page is not kept"
        );
    }
}
