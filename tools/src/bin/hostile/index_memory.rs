//! Red team round three, row 6: the search index in memory was outside the memory budget (2 000
//! articles of 20 000 characters took the process to 1.09 GiB, against the manifests' 256 MiB,
//! which did not count the index at all).
//!
//! A gateway at the production settings (the cache at 64 MiB), its index in memory at the default
//! budget (`search.max_memory_bytes`, 64 MiB), in front of a CMS of 2 000 such articles, each its
//! own text: while the index is built, `/healthz` answers within its bound and a visitor's
//! searches are answered from the first second (what is indexed so far); the index stops at its
//! budget (`/readyz` says `full`), and peak RSS stays under the manifests' limit, which counts the
//! index (`scripts/check_deploy.py`). The walk fills the cache too: measured here, the process
//! peaked at 359–368 MiB, of which ~100 MiB the cache full of these articles.
//! The CMS's pace is opened (`limits.upstream_per_second`): what is tested is memory, not how
//! gently the walk reads the CMS.

use std::{
    collections::HashMap,
    net::SocketAddr,
    path::Path,
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant},
};

use axum::{
    Router,
    extract::Query,
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use serde_json::{Value, json};

use crate::{
    CLIENT_SECRET, Extra, Prober, envelope, gateway_process, judged, production_config, tally,
};

/// Articles the CMS holds: past what the budget keeps at their size.
const ARTICLES: u64 = 2_000;
/// Characters of each body: `search.max_body_chars`'s default, all of it indexed.
const BODY_CHARS: u64 = 20_000;
/// How long the index may take to reach its budget.
const DEADLINE: Duration = Duration::from_secs(120);
const NAME: &str = "CMS: 2 000 articles of 20 000 characters";
/// The visitor's address.
const VISITOR: &str = "127.0.5.3";

fn card(id: u64) -> Value {
    json!({"id": id, "categoryId": 21, "title": format!("陆港第{id}号调度日志"),
        "summary": "当日到发列车、装卸作业与线路检修的记录。",
        "publishTime": format!("2026-{:02}-{:02} 08:00:00", 1 + id % 12, 1 + id % 28)})
}

/// The native dialect's three calls: one news category, the list newest first (pages from 0),
/// and each article's body: characters that vary with the article, so its terms are its own as
/// a real text's are (jieba and the index see 20 000 characters of distinct words).
async fn cms(
    axum::extract::Path(call): axum::extract::Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let param = |name: &str| query.get(name).and_then(|v| v.parse::<u64>().ok());
    match call.as_str() {
        "category/list" => envelope(json!([
            {"id": 2, "parentId": 0, "name": "新闻中心", "url": "/news_center", "type": "group", "sort": 1},
            {"id": 21, "parentId": 2, "name": "公司要闻", "url": "/news_center/company_news", "type": "list", "sort": 1},
        ])),
        "article/detail" => {
            let id = param("id").unwrap_or(0);
            if !(1..=ARTICLES).contains(&id) {
                return (
                    [(header::CONTENT_TYPE, "application/json")],
                    json!({"code": 404, "msg": "文章不存在"}).to_string(),
                )
                    .into_response();
            }
            let text: String = (0..BODY_CHARS)
                .map(|i| {
                    char::from_u32(0x4e00 + ((id * 7_919 + i * 104_729) % 20_000) as u32)
                        .unwrap_or('铁')
                })
                .collect();
            let mut one = card(id);
            one["content"] = json!(format!("<p>{text}</p><p>编号第{id}号。</p>"));
            envelope(one)
        }
        _ => {
            let (page, size) = (
                param("page").unwrap_or(0),
                param("size").unwrap_or(10).max(1),
            );
            let items: Vec<Value> = (1..=ARTICLES)
                .rev()
                .skip((page * size) as usize)
                .take(size as usize)
                .map(card)
                .collect();
            envelope(json!({"content": items, "totalElements": ARTICLES}))
        }
    }
}

async fn start_cms() -> SocketAddr {
    let app = Router::new().route("/cms/{*call}", get(cms));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// The visitor while the index is built: a search every 300 ms from an address of its own, each
/// to be answered 200 (a search of what is indexed so far; none refused for want of an index).
async fn visitor(base: String, stop: &AtomicBool, until: Instant) -> (usize, usize, String) {
    let client = reqwest::Client::builder()
        .local_address(Some(VISITOR.parse().expect("a loopback address")))
        .timeout(Duration::from_secs(10))
        .build()
        .expect("a client");
    let (mut ok, mut asked) = (0, 0);
    let mut failed: std::collections::BTreeMap<String, usize> = Default::default();
    let mut n = 0u64;
    while Instant::now() < until && !stop.load(Ordering::SeqCst) {
        n += 1;
        asked += 1;
        // A keyword of its own each time (uncached): the index asked, not the cache.
        let url = format!(
            "{base}/portal/api/article/search?keyword=%E8%B0%83%E5%BA%A6%20{n}&page=1&size=10"
        );
        match client.get(url).send().await {
            Ok(r) if r.status() == 200 => ok += 1,
            Ok(r) => {
                *failed
                    .entry(format!("search {}", r.status().as_u16()))
                    .or_default() += 1
            }
            Err(_) => *failed.entry("search no answer".to_owned()).or_default() += 1,
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    (ok, asked, tally(&failed))
}

/// `/readyz`'s report of the index (`result.search`).
async fn index_report(client: &reqwest::Client, base: &str) -> Value {
    match client.get(format!("{base}/readyz")).send().await {
        Ok(r) => r
            .json::<Value>()
            .await
            .map(|body| body["result"]["search"].clone())
            .unwrap_or(Value::Null),
        Err(_) => Value::Null,
    }
}

/// Runs the case against a gateway of its own, as its `tries`th try: its failures, and whether
/// `judged` asks for another try (a first one short only of `/healthz`'s bound or the visitor's
/// share, with nothing else failed: these machines are shared).
pub async fn case(
    gateway: &Path,
    static_dir: &Path,
    work: &Path,
    limit_mib: u64,
    tries: usize,
) -> (Vec<String>, bool) {
    let cms = start_cms().await;
    let listen = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    // The index in memory at its defaults; the CMS's pace opened (memory is what is tested).
    let config = production_config(
        listen,
        static_dir,
        &format!("http://{cms}/cms/"),
        ("portal-web", CLIENT_SECRET),
        Extra {
            tables: "[search]\nmode = \"index\"\n\n[limits]\nupstream_per_second = 100000\nupstream_burst = 100000\n",
            ..Extra::default()
        },
    );
    let work = work.join("index-memory");
    std::fs::create_dir_all(&work).expect("work directory");
    let mut process = gateway_process::start(gateway, &work, &config, &work.join("gateway.log"));
    let pid = process.id().expect("the gateway's pid");
    let base = format!("http://{listen}");
    let client = reqwest::Client::new();
    gateway_process::wait_ready(&client, &base).await;
    let prober = Prober::start(base.clone());
    let from = Instant::now();
    let until = from + DEADLINE;
    let watch = async {
        loop {
            let report = index_report(&client, &base).await;
            if report["full"] == true || Instant::now() >= until {
                return report;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    };
    // The visitor searches until the index is at its budget (a second more, for the searches
    // that meet the full index).
    let stop = AtomicBool::new(false);
    let (report, seen) = tokio::join!(
        async {
            let report = watch.await;
            tokio::time::sleep(Duration::from_secs(1)).await;
            stop.store(true, Ordering::SeqCst);
            report
        },
        visitor(base.clone(), &stop, until)
    );
    let took = from.elapsed();
    let alive = process.try_wait().ok().flatten().is_none();
    let probes = prober.worst_between(from, Instant::now());
    drop(prober);
    let rss = gateway_process::status_kib(pid, "VmRSS:") / 1024;
    let peak_mib = gateway_process::status_kib(pid, "VmHWM:") / 1024;
    let mut failures = Vec::new();
    let again = match judged(NAME, tries, alive, probes, rss, seen) {
        Ok(again) => again,
        Err(failure) => {
            failures.push(failure);
            false
        }
    };
    println!(
        "  the index: {} articles, {} MiB, full {} after {:.0} s; peak RSS {peak_mib} MiB (limit {limit_mib} MiB)",
        report["articles"],
        report["bytes"].as_u64().unwrap_or(0) >> 20,
        report["full"],
        took.as_secs_f64()
    );
    if report["full"] != true {
        failures.push(format!(
            "{NAME}: the index did not reach its budget in {} s: {report}",
            DEADLINE.as_secs()
        ));
    }
    if peak_mib >= limit_mib {
        failures.push(format!(
            "{NAME}: peak RSS {peak_mib} MiB, limit {limit_mib} MiB"
        ));
    }
    let _ = process.start_kill();
    let _ = process.wait().await;
    let again = again && failures.is_empty();
    (failures, again)
}
