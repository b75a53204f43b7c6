//! A CMS that cannot call the webhook, asked what changed (`[dialect.changes]`): an edit reaches
//! the portal within the interval, loaded again by the gateway before any visitor asks.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use serde_json::json;

use crate::helpers::*;

static EDITED: AtomicBool = AtomicBool::new(false);

fn article(title: &str) -> serde_json::Value {
    json!({"id": 7, "categoryId": 21, "title": title, "publishTime": "2026-11-20 10:00:00", "content": "<p>班列运行正常。</p>"})
}

/// A native CMS whose article 7 is retitled once `EDITED` is set, and which then lists it as
/// changed (with its category) to any question about a time before now.
fn editable(path: &str, query: &str) -> Reply {
    let edited = EDITED.load(Ordering::SeqCst);
    let title = if edited {
        "中欧班列开行安排（已更新）"
    } else {
        "中欧班列开行安排"
    };
    match path {
        "/cms/article/detail" => Reply::Json(200, json!({"code": 200, "result": article(title)})),
        "/cms/article/changes" => {
            assert!(query.contains("updatedAfter=20"), "{query}");
            let content = if edited {
                vec![article(title)]
            } else {
                Vec::new()
            };
            Reply::Json(200, json!({"code": 200, "result": {"content": content}}))
        }
        _ => Reply::Json(404, json!({"code": 404, "msg": "Not Found"})),
    }
}

#[tokio::test]
async fn an_edit_reaches_the_portal_by_asking_the_cms_what_changed() {
    let fake = FakeUpstream::start(Reply::Route(editable)).await;
    let app = spawn_app(config_for(&fake.base_url(), &static_dir(), |c| {
        let changes = &mut c.dialect.changes;
        changes.path = "article/changes".to_owned();
        changes.param = "updatedAfter".to_owned();
        changes.every = Duration::from_secs(1);
    }))
    .await;
    let detail = "/portal/api/article/detail?id=7";
    let (_, before) = app.get_json(detail).await;
    assert_eq!(before["result"]["title"], "中欧班列开行安排");
    assert_eq!(app.get(detail).await.headers()["x-cache"], "HIT");

    EDITED.store(true, Ordering::SeqCst);
    let started = std::time::Instant::now();
    let mut shown = None;
    while started.elapsed() < std::time::Duration::from_secs(10) {
        let response = app.get(detail).await;
        let cache = response.headers()["x-cache"].to_str().unwrap().to_owned();
        let body: serde_json::Value = response.json().await.unwrap();
        if body["result"]["title"] == "中欧班列开行安排（已更新）" {
            shown = Some(cache);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Loaded again by the gateway after it asked, not by this visitor: a hit.
    assert_eq!(shown.as_deref(), Some("HIT"), "the edit never showed");
    println!("the edit showed after {:?}", started.elapsed());
    // The question carries the time as RFC 3339, and is asked again and again; the same change
    // is applied once (the detail was loaded twice: the visitor's miss, the one refresh).
    // Two more questions after the one that found it, each answered with the same change.
    let asked = || fake.calls_to("/cms/article/changes");
    let found_by = asked();
    assert!(
        until(Duration::from_secs(10), || async {
            asked() >= found_by + 2
        })
        .await,
        "the CMS is asked again and again"
    );
    let questions: Vec<String> = fake
        .seen()
        .iter()
        .filter(|s| s.path == "/cms/article/changes")
        .map(|s| s.query.clone())
        .collect();
    assert!(questions.len() >= 3, "{questions:?}");
    assert!(
        questions.iter().all(|q| q.contains("T") && q.contains("Z")),
        "{questions:?}"
    );
    assert_eq!(fake.calls_to("/cms/article/detail"), 2);
}
