//! Site search: the gateway's `/portal/api/article/search` through each CMS dialect's own search
//! (reference-cms: substring matching over titles, summaries and bodies without markup).

use reference_cms::{CategoryShape, Dialect};
use serde_json::Value;

use crate::helpers::*;

const SEARCH: &str = "/portal/api/article/search";

fn ids(body: &Value) -> Vec<u64> {
    body["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_two_character_word_finds_the_articles_that_hold_it_newest_first_and_pages() {
    let app = spawn_with_reference_cms().await;
    let (status, body) = app
        .get_json(&format!("{SEARCH}?keyword=罗兹&size=50"))
        .await;
    assert_eq!(status, 200, "{body}");
    let total = body["result"]["totalElements"].as_u64().unwrap();
    assert!(total >= 5, "{total} articles mention 罗兹");
    // Every hit, in pages of the largest size.
    let mut found = body["result"]["content"].as_array().unwrap().clone();
    for page in 2..=total.div_ceil(50) {
        let (_, more) = app
            .get_json(&format!("{SEARCH}?keyword=罗兹&page={page}&size=50"))
            .await;
        found.extend(
            more["result"]["content"]
                .as_array()
                .unwrap()
                .iter()
                .cloned(),
        );
    }
    assert_eq!(found.len() as u64, total);
    let times: Vec<&str> = found
        .iter()
        .map(|a| a["publishTime"].as_str().unwrap_or(""))
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {times:?}"
    );
    for article in &found {
        let id = article["id"].as_u64().unwrap();
        let (_, detail) = app
            .get_json(&format!("/portal/api/article/detail?id={id}"))
            .await;
        let text = format!(
            "{} {} {}",
            detail["result"]["title"], detail["result"]["summary"], detail["result"]["content"]
        );
        assert!(text.contains("罗兹"), "{id} does not hold 罗兹");
    }
    // Pages of 2 cover the same articles in the same order.
    let mut paged = Vec::new();
    for page in 1..=total.div_ceil(2) {
        let (_, body) = app
            .get_json(&format!("{SEARCH}?keyword=罗兹&page={page}&size=2"))
            .await;
        paged.extend(ids(&body));
    }
    let all: Vec<u64> = found.iter().map(|a| a["id"].as_u64().unwrap()).collect();
    assert_eq!(paged, all);
    // A word no article has: an empty page, not an error.
    let (status, body) = app.get_json(&format!("{SEARCH}?keyword=火星基地")).await;
    assert_eq!(status, 200);
    assert_eq!(body["result"]["totalElements"], 0);
    // Trimmed: the same key, answered from the cache.
    let again = app
        .get(&format!("{SEARCH}?keyword=%20罗兹%20&size=50"))
        .await;
    assert_eq!(again.headers()["x-cache"], "HIT");
}

#[tokio::test]
async fn a_keyword_out_of_bounds_is_a_400_naming_it() {
    let app = spawn_with_reference_cms().await;
    let long = "班".repeat(51);
    for query in [
        "".to_owned(),
        "?keyword=".to_owned(),
        "?keyword=%20%20".to_owned(),
        format!("?keyword={long}"),
        "?keyword=a&keyword=b".to_owned(),
        "?keyword=%01x".to_owned(),
        "?keyword=班列&page=0".to_owned(),
    ] {
        let (status, body) = app.get_json(&format!("{SEARCH}{query}")).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["code"], 400);
    }
    let fifty = "班".repeat(50);
    assert_eq!(
        app.get_json(&format!("{SEARCH}?keyword={fifty}")).await.0,
        200
    );
}

#[tokio::test]
async fn site_says_whether_the_cms_searches_and_a_cms_without_search_answers_404_in_cms_mode() {
    let app = spawn_with_reference_cms().await;
    let (_, site) = app.get_json("/portal/api/site").await;
    assert_eq!(site["result"]["search"], true);
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        without_cms_search,
    ))
    .await;
    let (_, site) = app.get_json("/portal/api/site").await;
    assert_eq!(site["result"]["search"], false);
    let (status, body) = app.get_json(&format!("{SEARCH}?keyword=班列")).await;
    assert_eq!(status, 404);
    assert_eq!(body["msg"], "站内搜索未启用。");
}

#[tokio::test]
async fn every_dialect_searches_alike() {
    let native = spawn_with_reference_cms().await;
    let (_, expected) = native
        .get_json(&format!("{SEARCH}?keyword=班列&page=1&size=10"))
        .await;
    for (name, dialect) in [("mybatis", Dialect::Mybatis), ("rest", Dialect::Rest)] {
        let cms = spawn_reference_cms_speaking(dialect, CategoryShape::Flat).await;
        let config = portal_web::Config::from_toml_str(&example_toml(name, cms)).unwrap();
        let app = spawn_app(config).await;
        let (status, body) = app
            .get_json(&format!("{SEARCH}?keyword=班列&page=1&size=10"))
            .await;
        assert_eq!(status, 200, "{name}: {body}");
        assert_eq!(ids(&body), ids(&expected), "{name}");
        assert_eq!(
            body["result"]["totalElements"], expected["result"]["totalElements"],
            "{name}"
        );
    }
}

/// The `limits.per_client_searches` share: a client with its searches under way (here, a CMS
/// slow to answer them) has its next refused at once (429, `Retry-After: 1`, no CMS call), while
/// a visitor from another address searches.
#[tokio::test]
async fn a_client_with_its_searches_under_way_is_refused_the_next_at_once() {
    use std::time::Duration;
    let (app, fake) = spawn_with_fake(
        Reply::Delayed(
            Duration::from_secs(3),
            serde_json::json!({"code": 200, "data": {"records": [], "total": 0}}),
        ),
        |c| {
            open_limits(c);
            c.limits.per_client_searches = 2;
            c.upstream.timeout = Duration::from_secs(10);
        },
    )
    .await;
    let (hog, visitor) = (client_at("127.0.0.2"), client_at("127.0.0.3"));
    let search = |words: &str| app.url(&format!("/portal/api/article/search?keyword={words}"));
    let under_way: Vec<_> = ["铁路", "物流"]
        .into_iter()
        .map(|words| tokio::spawn(hog.get(search(words)).send()))
        .collect();
    assert!(
        until(Duration::from_secs(5), || {
            let fake = fake.clone();
            async move { fake.calls_to("/search") >= 2 }
        })
        .await,
        "both searches reach the CMS: {:?}",
        fake.seen()
    );
    let refused = hog.get(search("港口")).send().await.unwrap();
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.headers()["retry-after"], "1");
    assert_eq!(
        fake.calls_to("/search"),
        2,
        "a refused search asks the CMS nothing"
    );
    let visitors = tokio::spawn(visitor.get(search("班列")).send());
    assert!(
        until(Duration::from_secs(5), || {
            let fake = fake.clone();
            async move { fake.calls_to("/search") >= 3 }
        })
        .await,
        "another address searches"
    );
    for search in under_way {
        assert_ne!(search.await.unwrap().unwrap().status(), 429);
    }
    assert_ne!(visitors.await.unwrap().unwrap().status(), 429);
    // Its searches answered, the client searches again.
    let after = hog.get(search("港口")).send().await.unwrap();
    assert_ne!(after.status(), 429);
}
