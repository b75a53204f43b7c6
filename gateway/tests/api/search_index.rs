//! The gateway's own search index (`[search] mode = "index"`, or `"auto"` before a CMS without
//! search): built in the background from reference-cms's demo (about 400 articles of real
//! length), matching words inside longer words, phrases, folded forms, ranking titles first,
//! filtering by section and date, paging, marking matches as text, following the CMS's webhook,
//! and starting with the CMS down.

use std::time::{Duration, Instant};

use portal_search::SearchMode;
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::helpers::*;

const SEARCH: &str = "/portal/api/article/search";
const ADMIN_TOKEN: &str = "search-admin-token-0123";
const WEBHOOK_SECRET: &str = "search-webhook-secret-0123";

fn hits(body: &Value) -> Vec<Value> {
    body["result"]["content"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn ids(body: &Value) -> Vec<u64> {
    hits(body)
        .iter()
        .map(|a| a["id"].as_u64().unwrap())
        .collect()
}

fn text_of(parts: &Value) -> String {
    parts
        .as_array()
        .map(|p| p.iter().map(|m| m["text"].as_str().unwrap()).collect())
        .unwrap_or_default()
}

fn marked(parts: &Value) -> Vec<String> {
    parts
        .as_array()
        .map(|p| {
            p.iter()
                .filter(|m| m["match"] == true)
                .map(|m| m["text"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

async fn search(app: &TestApp, query: &str) -> Value {
    let (status, body) = app.get_json(&format!("{SEARCH}?{query}")).await;
    assert_eq!(status, 200, "{query}: {body}");
    body
}

/// Waits for the index's own word that it is built and has followed every purge the cache
/// applied so far (`/readyz`: `search.state`, `search.behind`). The bound only turns a broken
/// index into a failure rather than a hang.
pub(crate) async fn index_settled(app: &TestApp) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, body) = app.get_json("/readyz").await;
        let search = &body["result"]["search"];
        if search["state"] == "ready" && search["behind"] == 0 {
            return search.clone();
        }
        assert!(Instant::now() < deadline, "the index never settled: {body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the index answers (it is built in the background).
async fn ready(app: &TestApp) {
    index_settled(app).await;
    let body = search(app, "keyword=%E7%8F%AD%E5%88%97").await;
    assert_eq!(body["result"]["source"], "index", "{body}");
}

/// The gateway with `[search] mode = "index"` in front of reference-cms, which calls its webhook.
async fn spawn_indexed() -> (TestApp, std::net::SocketAddr) {
    let (app, cms) = spawn_with_notifying_cms(WEBHOOK_SECRET, |upstream| {
        config_for(upstream, &static_dir(), |c| {
            open_limits(c);
            c.admin.token = Some(ADMIN_TOKEN.into());
            c.admin.webhook_secret = Some(WEBHOOK_SECRET.into());
            c.search.mode = SearchMode::Index;
        })
    })
    .await;
    ready(&app).await;
    (app, cms)
}

/// What an article says: its title, summary and body text.
async fn words_of(app: &TestApp, id: u64) -> String {
    let (_, detail) = app
        .get_json(&format!("/portal/api/article/detail?id={id}"))
        .await;
    format!(
        "{} {} {}",
        detail["result"]["title"], detail["result"]["summary"], detail["result"]["content"]
    )
}

#[tokio::test]
async fn the_index_matches_words_inside_words_phrases_and_folded_forms() {
    let (app, _) = spawn_indexed().await;

    // 班列 inside 中欧班列, 回程班列 …: every hit holds it, titles holding it come first.
    let body = search(&app, "keyword=%E7%8F%AD%E5%88%97&size=50").await;
    let found = hits(&body);
    assert!(found.len() >= 20, "{} hits for 班列", found.len());
    let in_title: Vec<bool> = found
        .iter()
        .map(|h| h["title"].as_str().unwrap().contains("班列"))
        .collect();
    assert!(in_title[0], "the first hit has 班列 in its title");
    assert!(
        in_title.windows(2).all(|w| w[0] || !w[1]),
        "no title match after a hit without one: {in_title:?}"
    );
    for hit in found.iter().take(10) {
        let id = hit["id"].as_u64().unwrap();
        assert!(words_of(&app, id).await.contains("班列"), "{id}");
        let highlight = &hit["highlight"];
        let marks: Vec<String> = marked(&highlight["title"])
            .into_iter()
            .chain(marked(&highlight["fragment"]))
            .collect();
        assert!(
            marks.iter().any(|m| m.contains("班列")),
            "{id}: 班列 marked in {highlight}"
        );
        assert_eq!(text_of(&highlight["title"]), hit["title"].as_str().unwrap());
    }

    // Two characters across a dictionary's words (中欧|班列): still found where written.
    let body = search(&app, &format!("keyword={}", encode("欧班"))).await;
    assert!(!hits(&body).is_empty());
    for id in ids(&body) {
        assert!(words_of(&app, id).await.contains("欧班"), "{id}");
    }

    // Traditional and full-width forms find what the simplified, half-width ones find.
    let simplified = search(&app, &format!("keyword={}&size=50", encode("中欧班列"))).await;
    let traditional = search(&app, &format!("keyword={}&size=50", encode("中歐班列"))).await;
    assert!(!ids(&simplified).is_empty());
    assert_eq!(ids(&traditional), ids(&simplified));
    let half = search(&app, "keyword=2025&size=50").await;
    let full = search(&app, &format!("keyword={}&size=50", encode("２０２５"))).await;
    assert!(!ids(&half).is_empty());
    assert_eq!(ids(&full), ids(&half));

    // A quoted phrase finds only where its words stand together; apart, both must be there.
    let apart = search(&app, &format!("keyword={}&size=50", encode("班列 冷链"))).await;
    for id in ids(&apart) {
        let words = words_of(&app, id).await;
        assert!(words.contains("班列") && words.contains("冷链"), "{id}");
    }
    let phrase = search(&app, &format!("keyword={}&size=50", encode("\"冷链班列\""))).await;
    for id in ids(&phrase) {
        assert!(words_of(&app, id).await.contains("冷链班列"), "{id}");
    }
    assert!(ids(&phrase).len() <= ids(&apart).len());
}

#[tokio::test]
async fn sections_dates_and_pages_of_the_index() {
    let (app, _) = spawn_indexed().await;
    let all = search(&app, "keyword=%E7%8F%AD%E5%88%97&size=50").await;
    let total = all["result"]["totalElements"].as_u64().unwrap();
    let sections = all["result"]["sections"].as_array().unwrap().clone();
    // The counts name categories and add up to the hits.
    assert!(sections.len() > 1, "{sections:?}");
    let counted: u64 = sections.iter().map(|s| s["count"].as_u64().unwrap()).sum();
    assert_eq!(counted, total);
    assert!(
        sections
            .iter()
            .all(|s| !s["name"].as_str().unwrap().is_empty())
    );

    // A section's hits: that many, all of it, and the counts unchanged.
    let first = &sections[0];
    let id = first["id"].as_u64().unwrap();
    let body = search(
        &app,
        &format!("keyword=%E7%8F%AD%E5%88%97&size=50&categoryId={id}"),
    )
    .await;
    assert_eq!(body["result"]["totalElements"], first["count"]);
    assert!(hits(&body).iter().all(|h| h["categoryId"] == id));
    assert_eq!(body["result"]["sections"], all["result"]["sections"]);
    // A group (新闻中心, 2) holds what its lists (21–23) hold.
    let news = search(&app, "keyword=%E7%8F%AD%E5%88%97&size=50&categoryId=2").await;
    let in_news: u64 = sections
        .iter()
        .filter(|s| (21..30).contains(&s["id"].as_u64().unwrap()))
        .map(|s| s["count"].as_u64().unwrap())
        .sum();
    assert_eq!(news["result"]["totalElements"].as_u64().unwrap(), in_news);

    // Dates: only what was published between them.
    let body = search(
        &app,
        "keyword=%E7%8F%AD%E5%88%97&size=50&from=2025-01-01&to=2025-12-31",
    )
    .await;
    assert!(!hits(&body).is_empty());
    for hit in hits(&body) {
        let day = &hit["publishTime"].as_str().unwrap()[..10];
        assert!(("2025-01-01"..="2025-12-31").contains(&day), "{day}");
    }
    let none = search(
        &app,
        "keyword=%E7%8F%AD%E5%88%97&from=2025-02-01&to=2025-01-01",
    )
    .await;
    assert_eq!(none["result"]["totalElements"], 0, "a range of no day");
    for bad in ["from=2025-13-01", "to=yesterday", "from=2025-1-1"] {
        let (status, body) = app
            .get_json(&format!("{SEARCH}?keyword=%E7%8F%AD%E5%88%97&{bad}"))
            .await;
        assert_eq!(status, 400, "{bad}: {body}");
    }

    // Pages of 7 walk the same hits in the same order, once each.
    let mut paged = Vec::new();
    for page in 1..=total.div_ceil(7) {
        let body = search(
            &app,
            &format!("keyword=%E7%8F%AD%E5%88%97&size=7&page={page}"),
        )
        .await;
        assert_eq!(body["result"]["totalPages"], total.div_ceil(7));
        paged.extend(ids(&body));
    }
    let mut everything = Vec::new();
    for page in 1..=total.div_ceil(50) {
        everything.extend(ids(&search(
            &app,
            &format!("keyword=%E7%8F%AD%E5%88%97&size=50&page={page}"),
        )
        .await));
    }
    assert_eq!(paged, everything);
    let unique: std::collections::HashSet<_> = paged.iter().collect();
    assert_eq!(unique.len() as u64, total);
}

#[tokio::test]
async fn the_index_follows_the_cms_webhook_and_marks_a_hostile_body_as_text() {
    let (app, cms) = spawn_indexed().await;
    let editor = crate::helpers::client();

    // Published with a body full of markup: found at once, its fragment plain text.
    let published: Value = editor
        .post(format!("http://{cms}/admin/articles"))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .json(&json!({
            "categoryId": 21,
            "title": "雪域快线首发",
            "content": "<p>雪域快线&lt;script&gt;alert(1)&lt;/script&gt;今日开行<img src=x onerror=alert(2)></p><script>alert(3)</script><p onclick=\"x()\">雪域<b>快线</b>载货</p>"
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(published["webhook"], 200, "{published}");
    let id = published["id"].as_u64().unwrap();
    let keyword = format!("keyword={}", encode("雪域快线"));
    let started = Instant::now();
    let body = until(&app, &keyword, |b| ids(b) == [id]).await;
    eprintln!("published → found: {:?}", started.elapsed());
    let hit = &hits(&body)[0];
    let fragment = text_of(&hit["highlight"]["fragment"]);
    // The CMS's escaped text stays text; what was markup is gone (sanitised, then read as text).
    assert!(fragment.contains("<script>alert(1)</script>"), "{fragment}");
    assert!(
        !fragment.contains("onerror") && !fragment.contains("alert(3)"),
        "{fragment}"
    );
    for part in hit["highlight"]["fragment"].as_array().unwrap() {
        assert_eq!(
            part.as_object().unwrap().len(),
            2,
            "text and match only: {part}"
        );
    }

    // Retitled: found under the new words, no longer under the old.
    let changed: Value = editor
        .put(format!("http://{cms}/admin/articles/{id}"))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .json(&json!({"title": "高原冷链专列开行"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(changed["webhook"], 200, "{changed}");
    let started = Instant::now();
    until(
        &app,
        &format!("keyword={}", encode("高原冷链专列")),
        |b| ids(b) == [id],
    )
    .await;
    eprintln!("retitled → found: {:?}", started.elapsed());
    let old = search(&app, &format!("keyword={}", encode("雪域快线首发"))).await;
    assert!(
        !ids(&old).contains(&id) || text_of(&hits(&old)[0]["highlight"]["title"]) != "雪域快线首发"
    );

    // Taken down: gone.
    let down = editor
        .delete(format!("http://{cms}/admin/articles/{id}"))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .send()
        .await
        .unwrap();
    assert_eq!(down.status(), 200);
    until(
        &app,
        &format!("keyword={}", encode("高原冷链专列")),
        |b| ids(b).is_empty(),
    )
    .await;
}

/// Asks `query` once the index has followed what the CMS's webhook announced (it changes in the
/// background), and checks `done` of the answer.
async fn until(app: &TestApp, query: &str, done: impl Fn(&Value) -> bool) -> Value {
    let settled = index_settled(app).await;
    let body = search(app, query).await;
    assert!(
        done(&body),
        "{query}: not so once the index followed ({settled}): {body}"
    );
    body
}

#[tokio::test]
async fn a_cms_without_search_gets_the_index_and_the_search_box() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        open_limits(c);
        c.search.mode = SearchMode::Auto;
        without_cms_search(c);
    }))
    .await;
    let (_, site) = app.get_json("/portal/api/site").await;
    assert_eq!(site["result"]["search"], true, "auto: the index searches");
    ready(&app).await;
    let body = search(&app, &format!("keyword={}", encode("罗兹"))).await;
    assert!(body["result"]["totalElements"].as_u64().unwrap() >= 5);
    // With the CMS's search (`cms` mode), filters are the index's alone: refused by name.
    let app = spawn_with_reference_cms().await;
    let (status, body) = app
        .get_json(&format!(
            "{SEARCH}?keyword=%E7%8F%AD%E5%88%97&categoryId=21"
        ))
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["msg"].as_str().unwrap().contains("筛选"), "{body}");
    let body = search(&app, "keyword=%E7%8F%AD%E5%88%97").await;
    assert_eq!(body["result"]["source"], "cms");
}

/// While the index is first built (the CMS down at start, here: nothing read yet), a search
/// answers 200 from what the index holds so far, and says so (`building`).
#[tokio::test]
async fn with_the_cms_down_at_start_search_answers_from_what_is_indexed_then_answers_whole() {
    // A port with nothing behind it yet.
    let reserved = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cms = reserved.local_addr().unwrap();
    drop(reserved);
    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        open_limits(c);
        c.search.mode = SearchMode::Index;
        without_cms_search(c);
    }))
    .await;
    assert_eq!(app.get("/healthz").await.status(), 200);
    assert_eq!(app.get("/readyz").await.status(), 200);
    // At once, whether the index is open yet or not (its thread at nice +10 can be held back for
    // seconds on a busy host): 200, nothing found yet, building.
    let answer = app
        .get(&format!("{SEARCH}?keyword=%E7%8F%AD%E5%88%97"))
        .await;
    assert_eq!(answer.status(), 200);
    let body = answer.json::<Value>().await.unwrap();
    assert_eq!(body["result"]["building"], true, "{body}");
    assert_eq!(body["result"]["totalElements"], 0, "{body}");
    // The CMS comes up: the index is built and answers.
    let listener = TcpListener::bind(cms).await.unwrap();
    serve_reference_cms(
        listener,
        reference_cms_settings(
            reference_cms::Dialect::Native,
            reference_cms::CategoryShape::Flat,
        ),
    );
    ready(&app).await;
    let whole = search(&app, "keyword=%E7%8F%AD%E5%88%97").await;
    assert!(whole["result"].get("building").is_none(), "{whole}");
    assert!(
        whole["result"]["totalElements"].as_u64().unwrap() > 0,
        "{whole}"
    );
}

#[tokio::test]
async fn an_index_on_disk_answers_after_a_restart_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let cms = spawn_reference_cms().await;
    let on_disk = |c: &mut Config| {
        open_limits(c);
        c.search.mode = SearchMode::Index;
        c.search.dir = Some(dir.path().to_owned());
    };
    let first = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        on_disk,
    ))
    .await;
    ready(&first).await;
    let before = search(&first, "keyword=%E7%8F%AD%E5%88%97&size=50").await;
    // Its shutdown frees the folder.
    first.stop().await;
    // The same folder, the CMS gone: the index answers from disk.
    let reserved = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let nowhere = reserved.local_addr().unwrap();
    drop(reserved);
    let second = spawn_app(config_for(
        &format!("http://{nowhere}/"),
        &static_dir(),
        on_disk,
    ))
    .await;
    ready(&second).await;
    let after = search(&second, "keyword=%E7%8F%AD%E5%88%97&size=50").await;
    assert_eq!(ids(&after), ids(&before));
}

/// What a notice changed is read from the CMS once by this replica: the webhook's refresh loads
/// the edited article, and the index, which follows the same purge, takes that copy rather than
/// asking the CMS a second time (issue 45).
#[tokio::test]
async fn an_edit_is_read_from_the_cms_once_for_the_cache_and_the_index() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static EDITED: AtomicBool = AtomicBool::new(false);
    fn cms(path: &str, query: &str) -> Reply {
        let title = if EDITED.load(Ordering::SeqCst) {
            "云川陆港开行至杜伊斯堡的班列（续签）"
        } else {
            "云川陆港开行至杜伊斯堡的班列"
        };
        let article = json!({"id": 7, "categoryId": 21, "title": title,
            "publishTime": "2026-11-01 08:00:00", "content": "<p>班列每周三班。</p>"});
        Reply::Json(
            200,
            if path.ends_with("category/list") {
                json!({"code": 200, "result": {"content": [{"id": 21, "parentId": 0,
                    "name": "公司要闻", "url": "/news_center/company_announcement/1",
                    "sort": 1, "type": "list", "subCategory": []}]}})
            } else if path.ends_with("article/detail") {
                json!({"code": 200, "result": article})
            } else if query.contains("page=1") || !query.contains("page=") {
                json!({"code": 200, "result": {"content": [article], "totalElements": 1}})
            } else {
                json!({"code": 200, "result": {"content": [], "totalElements": 1}})
            },
        )
    }
    let fake = FakeUpstream::start(Reply::Route(cms)).await;
    let app = spawn_app(config_for(&fake.base_url(), &static_dir(), |c| {
        open_limits(c);
        c.admin.webhook_secret = Some(WEBHOOK_SECRET.into());
        c.admin.webhook_header = "x-portal-webhook-secret".to_owned();
        c.search.mode = SearchMode::Index;
    }))
    .await;
    index_settled(&app).await;
    let reads = |fake: &FakeUpstream| {
        fake.seen()
            .iter()
            .filter(|s| s.path.ends_with("article/detail") && s.query.contains("id=7"))
            .count()
    };
    let before = reads(&fake);
    EDITED.store(true, Ordering::SeqCst);
    let notice = app
        .client
        .post(app.url("/portal/admin/webhook"))
        .header("x-portal-webhook-secret", WEBHOOK_SECRET)
        .json(
            &json!({"event": "update", "type": "article", "id": 7, "categoryId": 21,
            "time": std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs()}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(notice.status(), 200);
    let keyword = format!("keyword={}", encode("续签"));
    until(&app, &keyword, |b| ids(b) == [7]).await;
    assert_eq!(reads(&fake) - before, 1, "the edited article was read once");
}

/// Three articles, the second a body nested 50 000 deep, which the gateway refuses.
/// A tree of one list, 公司新闻 (21), as the scripted CMSes below answer it.
fn one_news_category() -> Reply {
    Reply::Json(
        200,
        json!({"code": 200, "result": [{"id": 21, "parentId": 0, "name": "公司新闻",
            "url": "/news_center/company_announcement/1", "type": "list"}]}),
    )
}

fn a_list_with_one_deep_body(path: &str, query: &str) -> Reply {
    let article = |id: u64| {
        json!({"id": id, "categoryId": 21, "title": format!("班列新闻{id}"),
            "publishTime": format!("2026-11-0{id} 09:00:00")})
    };
    if path.ends_with("category/list") {
        return one_news_category();
    }
    if path.ends_with("article/detail") {
        let id: u64 = query
            .split('&')
            .find_map(|p| p.strip_prefix("id="))
            .and_then(|id| id.parse().ok())
            .unwrap_or(0);
        let mut one = article(id);
        one["content"] = if id == 2 {
            json!(format!(
                "{}深{}",
                "<div>".repeat(50_000),
                "</div>".repeat(50_000)
            ))
        } else {
            json!("<p>陆港开行班列。</p>")
        };
        return Reply::Json(200, json!({"code": 200, "result": one}));
    }
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": [article(3), article(2), article(1)], "totalElements": 3}}),
    )
}

/// An article the gateway cannot show is left out of the index and remembered: a later walk
/// does not ask the CMS for it again (it did, every 10 s, each time a sanitising of 5–43 s),
/// and the index is ready with the others.
#[tokio::test]
async fn an_article_that_cannot_be_shown_is_not_read_again_by_each_walk() {
    let token = "index-token-0123456789";
    let (app, cms) = spawn_with_fake(Reply::Route(a_list_with_one_deep_body), |c| {
        open_limits(c);
        c.admin.token = Some(token.into());
        c.search.mode = SearchMode::Index;
    })
    .await;
    let settled = index_settled(&app).await;
    assert_eq!(settled["articles"], 2, "{settled}");
    let asked = |cms: &FakeUpstream| {
        cms.seen()
            .iter()
            .filter(|s| s.path.ends_with("article/detail") && s.query.contains("id=2"))
            .count()
    };
    assert_eq!(asked(&cms), 1);
    walk_again(&app, &cms, token).await;
    assert_eq!(asked(&cms), 1, "the refused article was asked for again");
}

/// A CMS whose list items name no category (Wagtail's pages API): each article's own answer does.
fn lists_naming_no_category(path: &str, query: &str) -> Reply {
    let article = |id: u64| {
        json!({"id": id, "title": format!("冷链班列{id}"),
            "publishTime": format!("2026-11-0{id} 09:00:00")})
    };
    if path.ends_with("category/list") {
        return one_news_category();
    }
    if path.ends_with("article/detail") {
        let id: u64 = query
            .split('&')
            .find_map(|p| p.strip_prefix("id="))
            .and_then(|id| id.parse().ok())
            .unwrap_or(0);
        let mut one = article(id);
        one["categoryId"] = json!(21);
        one["content"] = json!("<p>冷链班列开行。</p>");
        return Reply::Json(200, json!({"code": 200, "result": one}));
    }
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": [article(2), article(1)], "totalElements": 2}}),
    )
}

/// Issue 46: on a CMS whose lists name no category, every hit said `categoryId` 0 and the
/// section filter found nothing. The index takes the category the article's own answer names;
/// and a walk after that does not read the articles again (the list's card is what it compares).
#[tokio::test]
async fn hits_name_the_section_an_article_names_when_its_list_does_not() {
    let token = "index-token-0123456789";
    let (app, cms) = spawn_with_fake(Reply::Route(lists_naming_no_category), |c| {
        open_limits(c);
        c.admin.token = Some(token.into());
        c.search.mode = SearchMode::Index;
    })
    .await;
    let settled = index_settled(&app).await;
    assert_eq!(settled["articles"], 2, "{settled}");
    let body = search(&app, &format!("keyword={}", encode("冷链"))).await;
    let found = hits(&body);
    assert_eq!(found.len(), 2, "{body}");
    assert!(found.iter().all(|h| h["categoryId"] == 21), "{body}");
    let filtered = search(&app, &format!("keyword={}&section=21", encode("冷链"))).await;
    assert_eq!(hits(&filtered).len(), 2, "{filtered}");
    // Another walk (a purge of the lists) reads no article again: nothing changed.
    let details = || cms.calls_to("article/detail");
    let details_before = details();
    walk_again(&app, &cms, token).await;
    assert_eq!(
        details(),
        details_before,
        "the walk read the articles again"
    );
}

/// A purge of the lists (`tag=articles`, with the admin `token`): waits until the keeper has walked
/// them again and the index has settled.
async fn walk_again(app: &TestApp, cms: &FakeUpstream, token: &str) {
    let lists_before = cms.calls_to("article/list");
    let response = app
        .client
        .post(app.url("/portal/admin/cache/purge?tag=articles"))
        .header("authorization", format!("Bearer {token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        until_true(Duration::from_secs(30), || cms.calls_to("article/list")
            > lists_before)
        .await,
        "the keeper walked again"
    );
    index_settled(app).await;
}

async fn until_true(within: Duration, done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

/// 600 articles, newest first, each a body of 1 200 characters in which its own word (`词N`,
/// written out as `第N号`) stands once: more than an index of 1 MiB holds.
fn many_articles(path: &str, query: &str) -> Reply {
    const ARTICLES: u64 = 600;
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let card = |id: u64| {
        let day = 1 + (ARTICLES - id) / 24;
        json!({"id": id, "categoryId": 21, "title": format!("班列动态第{id}号"),
            "publishTime": format!("2026-{:02}-{:02} {:02}:00:00", 1 + day / 28, 1 + day % 28, id % 24)})
    };
    if path.ends_with("category/list") {
        return one_news_category();
    }
    if path.ends_with("article/detail") {
        let id = param("id").unwrap_or(0);
        let mut one = card(id);
        // Characters that vary with the article, so its grams are its own as a real text's are.
        let text: String = (0..1_200u64)
            .map(|i| char::from_u32(0x4e00 + ((id * 7_919 + i * 104_729) % 20_000) as u32).unwrap())
            .collect();
        one["content"] = json!(format!("<p>{text}</p><p>编号第{id}号。</p>"));
        return Reply::Json(200, json!({"code": 200, "result": one}));
    }
    // Pages from 0, as the native dialect asks.
    let (page, size) = (
        param("page").unwrap_or(0),
        param("size").unwrap_or(10).max(1),
    );
    // Newest first: the highest id is the newest.
    let ids: Vec<Value> = (1..=ARTICLES)
        .rev()
        .skip((page * size) as usize)
        .take(size as usize)
        .map(card)
        .collect();
    Reply::Json(
        200,
        json!({"code": 200, "result": {"content": ids, "totalElements": ARTICLES}}),
    )
}

/// Red team round three, row 6: the index in memory was outside the memory budget (3 000
/// ordinary articles took the process from 41 to 279 MiB). Now it holds what
/// `search.max_memory_bytes` allows, the newest articles, and says so in `/readyz`.
#[tokio::test]
async fn an_index_in_memory_keeps_the_newest_articles_within_its_budget() {
    let budget = 1024 * 1024;
    let (app, _cms) = spawn_with_fake(Reply::Route(many_articles), |c| {
        open_limits(c);
        c.search.mode = SearchMode::Index;
        c.search.max_memory_bytes = budget;
    })
    .await;
    let settled = index_settled(&app).await;
    assert_eq!(settled["full"], true, "{settled}");
    let articles = settled["articles"].as_u64().unwrap();
    assert!(articles > 10 && articles < 600, "{settled}");
    // At most a batch or so past its budget.
    let bytes = settled["bytes"].as_u64().unwrap();
    assert!(bytes < 2 * budget as u64, "{settled}");
    // The newest are those kept.
    let found = |body: &Value| ids(body);
    let newest = search(&app, &format!("keyword={}", encode("第600号"))).await;
    assert!(found(&newest).contains(&600), "{newest}");
    let oldest = search(&app, &format!("keyword={}", encode("第1号"))).await;
    assert!(!found(&oldest).contains(&1), "{oldest}");
    // The next walk lists only as many as fill nine tenths of the budget: the oldest of those
    // read leave.
    let deadline = Instant::now() + Duration::from_secs(60);
    let trimmed = loop {
        let (_, body) = app.get_json("/readyz").await;
        let search = body["result"]["search"].clone();
        if search["articles"].as_u64().unwrap_or(articles) < articles {
            break search;
        }
        assert!(Instant::now() < deadline, "never trimmed: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        trimmed["bytes"].as_u64().unwrap() < budget as u64,
        "back within its budget: {trimmed}"
    );
    let newest = search(&app, &format!("keyword={}", encode("第600号"))).await;
    assert!(found(&newest).contains(&600), "{newest}");
}
