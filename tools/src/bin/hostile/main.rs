//! The hostile-CMS suite (`make test-hostile`, part of `make test`): the gateway's release binary,
//! at its production log settings, in front of a scripted CMS on loopback that answers what a
//! broken or hostile CMS sends — bodies of 20 MB (with and without a length), endless, dripping a
//! byte at a time, a gzip bomb, invalid UTF-8, JSON and HTML nested hundreds of thousands deep,
//! 10⁵ categories, a 10 000-long parent chain, a cycle, redirect loops, wrong content types, no
//! answer at all, an answer of 6.5 MiB that is valid.
//!
//! For every case, while its visitors wait (three at once, on the API and on the drawn page):
//! - the process lives;
//! - `/healthz` answers within 100 ms (asked every 25 ms from a thread of its own);
//! - visitors get a clear envelope (a JSON `code` and a Chinese `msg`), a bounded answer, or the
//!   last good answer;
//!
//! and at the end the process's peak RSS (`VmHWM`) is under the memory limit of the Kubernetes
//! manifests (`deploy/kubernetes/base/deployment.yaml`), and its log has no panic and no secret.
//!
//! Then clients attack a second gateway at the production limits in front of reference-cms (the
//! red team's round three): HTTP/2 streams of a relayed file never read, `Range` requests on it
//! flooded, cold pages from forty addresses, searches from forty addresses, made-up `Bearer`
//! tokens, `/readyz?upstream=1` flooded, one page spelled many ways from forty addresses,
//! connections never silent past the process's cap, reloads ten a second, forwarded addresses
//! spoofed through a trusted proxy. Beside each, a visitor at another address asks for
//! what is not cached; nine in ten of its requests must succeed (a page rendered, not the shell),
//! with the same bounds on `/healthz`, the process and its RSS. Last, a gateway whose shared tier's
//! Redis is refused, cut off, spoofed and written by someone else (`shared_tier.rs`), and one whose
//! index in memory is built from 2 000 articles of 20 000 characters (`index_memory.rs`).
//! A case that fails only on `/healthz`'s time is run once more (these machines are shared); the
//! report says so. Exit 1 on any failure.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{
    Router,
    body::Body,
    extract::{Query, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use clap::Parser;

#[path = "../../support/gateway_process.rs"]
mod gateway_process;
mod index_memory;
mod shared_tier;
use serde_json::{Value, json};

const CLIENT_SECRET: &str = "hostile-suite-secret-7Q2x";
const ADMIN_TOKEN: &str = "hostile-suite-admin-9Kd3w";
/// The gateway's time-out for one CMS call here (production: 12 s); the slow cases outlast it.
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(2);
/// What `/healthz` may take while a case runs.
const HEALTH_BOUND: Duration = Duration::from_millis(100);

#[derive(Parser)]
#[command(about = "The gateway in front of a hostile CMS (docs/operations.md)")]
struct Args {
    /// The gateway binary (`cargo build --release`).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/portal-gateway"))]
    gateway: PathBuf,
    /// The built app (`make build`).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../frontend/dist"))]
    static_dir: PathBuf,
    /// The manifest whose memory limit peak RSS must stay under.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/kubernetes/base/deployment.yaml"))]
    deployment: PathBuf,
    /// Run these parts only (all when none is named).
    #[arg(long, value_enum)]
    only: Vec<Part>,
}

/// The suite's parts, each against a gateway of its own.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum Part {
    /// The hostile CMS's answers, and `check-upstream` against a CMS echoing the secret.
    Cms,
    /// Clients that attack, in front of the demo's content.
    Clients,
    /// The shared tier's Redis refused, cut off, spoofed and written by someone else.
    SharedTier,
    /// The index in memory built from large articles.
    Index,
}

// ---------------------------------------------------------------------------------------------
// The scripted CMS

/// What the category list answers; switched between cases.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tree {
    Good,
    /// Item *i* the child of *i − 1*, 10 000 long.
    Chain,
    /// 10⁵ categories.
    Huge,
    /// Two categories each the other's parent, beside the good tree.
    Cycle,
    /// 100 000 levels of nested `subCategory`.
    DeepJson,
    /// A 502 whose long body echoes the gateway's client secret, whole, JSON-escaped,
    /// percent-encoded and cut (red team row 10: `check-upstream` printed 54 of its 64 characters).
    EchoSecret,
}

/// What the news list answers; switched between cases.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum List {
    Good,
    /// 20 000 items, about 6.5 MiB: valid, and large.
    Large,
    /// A body that never ends.
    Endless,
}

struct Script {
    tree: Mutex<Tree>,
    list: Mutex<List>,
    bomb: Vec<u8>,
}

fn envelope(result: Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        json!({"code": 200, "msg": "ok", "result": result}).to_string(),
    )
        .into_response()
}

fn good_categories() -> Vec<Value> {
    vec![
        json!({"id": 2, "parentId": 0, "name": "新闻中心", "url": "/news_center", "type": "group", "sort": 1}),
        json!({"id": 21, "parentId": 2, "name": "通知公告", "url": "/news_center/notice", "type": "list", "sort": 1}),
        json!({"id": 22, "parentId": 2, "name": "公司要闻", "url": "/news_center/company_news", "type": "list", "sort": 2}),
    ]
}

fn summary(id: u64) -> Value {
    json!({"id": id, "categoryId": 21, "title": format!("第{id}列中欧班列自陆港发车"),
        "summary": "满载机电产品与日用百货的班列今晨从陆港站发出，预计十六天后抵达终点站。",
        "publishTime": "2026-11-20 08:00:00"})
}

async fn categories(State(script): State<Arc<Script>>) -> Response {
    let tree = *script.tree.lock().unwrap();
    match tree {
        Tree::Good => envelope(json!(good_categories())),
        Tree::Chain => envelope(json!(
            (1..=10_000u64)
                .map(|id| json!({"id": 1000 + id, "parentId": if id == 1 { 0 } else { 999 + id },
                    "name": format!("第{id}级"), "url": format!("/c{id}"), "sort": 0}))
                .collect::<Vec<_>>()
        )),
        Tree::Huge => envelope(json!(
            (1..=100_000u64)
                .map(|id| json!({"id": 1000 + id, "parentId": if id <= 50 { 0 } else { 1000 + id % 50 + 1 },
                    "name": format!("栏目{id}"), "url": "", "sort": id}))
                .collect::<Vec<_>>()
        )),
        Tree::Cycle => {
            let mut items = good_categories();
            items.push(json!({"id": 31, "parentId": 32, "name": "甲", "url": "/a", "sort": 3}));
            items.push(json!({"id": 32, "parentId": 31, "name": "乙", "url": "/b", "sort": 4}));
            envelope(json!(items))
        }
        Tree::DeepJson => {
            let depth = 100_000;
            let open = r#"{"id":9,"parentId":0,"name":"深","url":"/d","subCategory":["#.repeat(depth);
            let body = format!(
                r#"{{"code":200,"result":[{open}{}]}}"#,
                "]}".repeat(depth)
            );
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Tree::EchoSecret => {
            let body = format!(
                "{} credential {CLIENT_SECRET} refused; json {}; form {}; cut {}",
                "x".repeat(120),
                serde_json::to_string(CLIENT_SECRET).unwrap_or_default(),
                url::form_urlencoded::byte_serialize(CLIENT_SECRET.as_bytes()).collect::<String>(),
                &CLIENT_SECRET[..16],
            );
            (StatusCode::BAD_GATEWAY, body).into_response()
        }
    }
}

async fn articles(State(script): State<Arc<Script>>) -> Response {
    let list = *script.list.lock().unwrap();
    match list {
        List::Good => envelope(
            json!({"content": (1..=10).map(summary).collect::<Vec<_>>(), "totalElements": 10}),
        ),
        List::Large => envelope(
            json!({"content": (1..=20_000).map(summary).collect::<Vec<_>>(), "totalElements": 20_000}),
        ),
        List::Endless => endless(),
    }
}

fn endless() -> Response {
    let piece = bytes::Bytes::from(vec![b' '; 64 * 1024]);
    let stream = futures_util::stream::unfold((), move |()| {
        let piece = piece.clone();
        async move { Some((Ok::<_, std::io::Error>(piece), ())) }
    });
    let head = futures_util::stream::once(async {
        Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"{\"code\":200,\"result\":"))
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from_stream(futures_util::StreamExt::chain(
            head, stream,
        )))
        .unwrap()
}

/// The detail of article `id`: one hostile answer per id (the cases below).
async fn detail(
    State(script): State<Arc<Script>>,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let id: u64 = query.get("id").and_then(|i| i.parse().ok()).unwrap_or(0);
    let twenty_mb = || {
        format!(
            "{{\"code\":200,\"result\":{{\"id\":{id},\"title\":\"大\",\"content\":\"{}\"}}}}",
            "x".repeat(20 << 20)
        )
    };
    match id {
        101 => ([(header::CONTENT_TYPE, "application/json")], twenty_mb()).into_response(),
        102 => {
            let body = twenty_mb().into_bytes();
            let pieces: Vec<Result<bytes::Bytes, std::io::Error>> = body
                .chunks(256 * 1024)
                .map(|c| Ok(bytes::Bytes::copy_from_slice(c)))
                .collect();
            Response::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from_stream(futures_util::stream::iter(pieces)))
                .unwrap()
        }
        103 => endless(),
        104 => {
            // A byte every 200 ms, for a minute: never a pause as long as the time-out.
            let stream = futures_util::stream::unfold(0u32, |n| async move {
                if n > 300 {
                    return None;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
                Some((
                    Ok::<_, std::io::Error>(bytes::Bytes::from_static(b" ")),
                    n + 1,
                ))
            });
            Response::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from_stream(stream))
                .unwrap()
        }
        105 => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CONTENT_ENCODING, "gzip"),
            ],
            script.bomb.clone(),
        )
            .into_response(),
        106 => {
            let mut body = br#"{"code":200,"result":{"id":106,"title":""#.to_vec();
            body.extend_from_slice(&[0xff, 0xfe, 0xc3, 0x28]);
            body.extend_from_slice(br#"","content":"<p>x</p>"}}"#);
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        107 => {
            let depth = 200_000;
            let body = format!(
                r#"{{"code":200,"result":{{"id":107,"title":"深","extra":{}{}}}}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            );
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        108 => {
            let depth = 300_000;
            let html = format!("{}深{}", "<div>".repeat(depth), "</div>".repeat(depth));
            envelope(json!({"id": 108, "categoryId": 21, "title": "深", "content": html}))
        }
        109 => (
            StatusCode::FOUND,
            [(header::LOCATION, "/cms/article/detail?id=109")],
        )
            .into_response(),
        110 => (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            "<html><body><h1>维护中</h1><script>alert(1)</script></body></html>",
        )
            .into_response(),
        111 => {
            // No answer at all, for longer than the time-out.
            tokio::time::sleep(Duration::from_secs(30)).await;
            StatusCode::NO_CONTENT.into_response()
        }
        113 => {
            // Four million zeros beside a good article: 8 MiB of the smallest values.
            let body = format!(
                r#"{{"code":200,"result":{{"id":113,"categoryId":21,"title":"零","content":"<p>零</p>","extra":[{}0]}}}}"#,
                "0,".repeat(4_000_000 - 1)
            );
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        114 => {
            // Forty rows of 10 000 zeros: no array too long, too many values in all.
            let row = format!("[{}0]", "0,".repeat(9_999));
            let body = format!(
                r#"{{"code":200,"result":{{"id":114,"title":"零","extra":[{}{row}]}}}}"#,
                format!("{row},").repeat(39)
            );
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        112 => (
            [(header::CONTENT_TYPE, "application/json")],
            "{\"code\":200,\"result\":{\"id\":112,\"title\":\"断\",\"content\":\"<p>",
        )
            .into_response(),
        _ => envelope(
            json!({"id": id, "categoryId": 21, "title": "陆港站完成年度检修",
            "content": "<p>陆港站于十一月完成年度检修，装卸线全部恢复作业。</p>",
            "publishTime": "2026-11-20 08:00:00"}),
        ),
    }
}

async fn start_cms(script: Arc<Script>) -> SocketAddr {
    let app = Router::new()
        .route("/cms/category/list", get(categories))
        .route("/cms/article/list", get(articles))
        .route("/cms/article/detail", get(detail))
        .with_state(script);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// A gzip body that inflates to 1 GiB of spaces (about 1 MB on the wire).
fn gzip_bomb() -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let block = vec![b' '; 1 << 20];
    for _ in 0..1024 {
        encoder.write_all(&block).unwrap();
    }
    encoder.finish().unwrap()
}

// ---------------------------------------------------------------------------------------------
// The gateway, and what is watched while it runs

fn start_gateway(
    args: &Args,
    work: &Path,
    listen: SocketAddr,
    cms: SocketAddr,
) -> tokio::process::Child {
    // Production settings (deploy/kubernetes/base/gateway.toml): JSON access lines at info, its
    // cache size; the per-client limits opened, as one client plays every visitor here.
    let config = production_config(
        listen,
        &args.static_dir,
        &format!("http://{cms}/cms/"),
        ("portal-web", CLIENT_SECRET),
        Extra {
            // As at systemd's default of 1 024 descriptors (the gateway's own reserve beside it).
            server: "max_connections = 1000\n",
            upstream: &format!(
                "timeout = \"{}ms\"\nconnect_timeout = \"500ms\"\n",
                UPSTREAM_TIMEOUT.as_millis()
            ),
            tables: &format!(
                r#"[cache]
max_bytes = 67108864
default_ttl = "60s"
stale_while_revalidate = "30s"
stale_if_error = "10m"

[limits]
per_client_per_second = 1000000
per_client_burst = 1000000
per_client_cms_per_second = 1000000
per_client_cms_burst = 1000000
per_client_renders = 1000000
per_client_files = 1000000
per_client_searches = 1000000

[admin]
token = "{ADMIN_TOKEN}"
"#
            ),
        },
    );
    gateway_process::start(&args.gateway, work, &config, &work.join("gateway.log"))
}

/// When each probe was asked, and what it took (`None`: no answer in a second).
type Probes = Arc<Mutex<Vec<(Instant, Option<Duration>)>>>;

/// `/healthz` asked every 25 ms from a thread and runtime of its own, so that the suite's own
/// work never delays the asking.
struct Prober {
    seen: Probes,
    stop: Arc<AtomicBool>,
}

impl Prober {
    fn start(base: String) -> Self {
        let seen: Probes = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (Arc::clone(&seen), Arc::clone(&stop));
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let client = reqwest::Client::builder()
                    .timeout(Duration::from_secs(1))
                    .build()
                    .unwrap();
                while !st.load(Ordering::Relaxed) {
                    let asked = Instant::now();
                    let answered = client
                        .get(format!("{base}/healthz"))
                        .send()
                        .await
                        .is_ok_and(|r| r.status() == 200);
                    let took = asked.elapsed();
                    s.lock().unwrap().push((asked, answered.then_some(took)));
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
            });
        });
        Self { seen, stop }
    }

    /// The slowest answer asked between `from` and `to`, and how many were asked (a missing
    /// answer counts as a second).
    fn worst_between(&self, from: Instant, to: Instant) -> (Duration, usize) {
        let seen = self.seen.lock().unwrap();
        let within: Vec<Duration> = seen
            .iter()
            .filter(|(at, _)| *at >= from && *at <= to)
            .map(|(_, took)| took.unwrap_or(Duration::from_secs(1)))
            .collect();
        (
            within.iter().max().copied().unwrap_or_default(),
            within.len(),
        )
    }
}

impl Drop for Prober {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The memory limit of the gateway's container, in MiB, from the manifest.
fn memory_limit_mib(deployment: &Path) -> u64 {
    let text = std::fs::read_to_string(deployment).expect("the deployment manifest");
    text.lines()
        .filter(|l| l.contains("limits:"))
        .find_map(|l| {
            let after = l.split("memory:").nth(1)?;
            after
                .trim()
                .trim_end_matches('}')
                .trim()
                .strip_suffix("Mi")?
                .parse()
                .ok()
        })
        .expect("a memory limit in Mi under limits:")
}

// ---------------------------------------------------------------------------------------------
// The cases

struct Suite {
    client: reqwest::Client,
    base: String,
    script: Arc<Script>,
}

/// An answer as a visitor sees it.
struct Seen {
    status: u16,
    content_type: String,
    body: bytes::Bytes,
}

impl Suite {
    async fn get(&self, path: &str) -> Result<Seen, String> {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .header("accept-encoding", "gzip, br")
            .send()
            .await
            .map_err(|e| format!("{path}: no answer ({e})"))?;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let encoded = response.headers().get(header::CONTENT_ENCODING).is_some();
        let body = response
            .bytes()
            .await
            .map_err(|e| format!("{path}: body cut ({e})"))?;
        // The suite's client asks for what a browser asks for and reads it as one would.
        let body = if encoded { decode(&body) } else { body };
        Ok(Seen {
            status,
            content_type,
            body,
        })
    }

    /// Three visitors at once.
    async fn three(&self, path: &str) -> Result<Vec<Seen>, String> {
        let (a, b, c) = tokio::join!(self.get(path), self.get(path), self.get(path));
        Ok(vec![a?, b?, c?])
    }

    async fn purge(&self, hard: bool) -> Result<(), String> {
        let response = self
            .client
            .post(format!(
                "{}/portal/admin/cache/purge?hard={hard}",
                self.base
            ))
            .bearer_auth(ADMIN_TOKEN)
            .send()
            .await
            .map_err(|e| format!("purge: {e}"))?;
        (response.status() == 200)
            .then_some(())
            .ok_or_else(|| format!("purge answered {}", response.status()))
    }
}

fn decode(body: &[u8]) -> bytes::Bytes {
    let mut out = Vec::new();
    let mut gz = flate2::read::GzDecoder::new(body);
    if std::io::Read::read_to_end(&mut gz, &mut out).is_ok() {
        return out.into();
    }
    out.clear();
    let _ = brotli::BrotliDecompress(&mut &body[..], &mut out);
    out.into()
}

/// A clear failure in the envelope: 5xx, JSON, a numeric `code` and a Chinese `msg`.
fn clear_failure(path: &str, seen: &Seen) -> Result<String, String> {
    if !(500..600).contains(&seen.status) || !seen.content_type.starts_with("application/json") {
        return Err(format!(
            "{path}: {} {} (expected a 5xx envelope)",
            seen.status, seen.content_type
        ));
    }
    let body: Value = serde_json::from_slice(&seen.body).map_err(|e| format!("{path}: {e}"))?;
    let msg = body["msg"].as_str().unwrap_or("");
    if body["code"].as_i64().is_none()
        || !msg.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    {
        return Err(format!("{path}: not a clear envelope: {body:.200}"));
    }
    Ok(format!("{} {msg}", seen.status))
}

/// A drawn page: HTML, any status a page may have (the shell with 5xx when its answers failed),
/// and bounded.
fn bounded_page(path: &str, seen: &Seen) -> Result<String, String> {
    if !seen.content_type.starts_with("text/html") || seen.body.len() > 1 << 20 {
        return Err(format!(
            "{path}: {} {} of {} bytes (expected an HTML page under 1 MiB)",
            seen.status,
            seen.content_type,
            seen.body.len()
        ));
    }
    Ok(format!(
        "page {} ({} KB)",
        seen.status,
        seen.body.len() / 1024
    ))
}

/// The article, bounded.
fn article(path: &str, seen: &Seen) -> Result<String, String> {
    let body: Value = serde_json::from_slice(&seen.body).map_err(|e| format!("{path}: {e}"))?;
    if seen.status != 200
        || body["result"]["title"].as_str().is_none()
        || seen.body.len() > 64 * 1024
    {
        return Err(format!(
            "{path}: {} of {} bytes: {body:.200}",
            seen.status,
            seen.body.len()
        ));
    }
    Ok(format!(
        "200, {} ({} bytes)",
        body["result"]["title"],
        seen.body.len()
    ))
}

fn tree_of(seen: &Seen) -> Result<(usize, usize), String> {
    if seen.status != 200 {
        return Err(format!("category list answered {}", seen.status));
    }
    let body: Value = serde_json::from_slice(&seen.body).map_err(|e| e.to_string())?;
    let mut level: Vec<&Value> = body["result"]["content"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    let (mut depth, mut count) = (0, 0);
    while !level.is_empty() {
        depth += 1;
        count += level.len();
        level = level
            .iter()
            .flat_map(|c| c["subCategory"].as_array().into_iter().flatten())
            .collect();
    }
    Ok((depth, count))
}

/// What the visitors of an article are to get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A clear failure (the API's envelope; a page, bounded).
    Failure,
    /// The article (what is too much of it left out).
    Article,
}

#[derive(Clone, Copy, Debug)]
enum Case {
    Body(u64, Expect, &'static str),
    Tree(Tree, &'static str),
    LargeList,
    LastGood,
}

const CASES: &[Case] = &[
    Case::Body(101, Expect::Failure, "20 MB body with its length"),
    Case::Body(102, Expect::Failure, "20 MB body without a length"),
    Case::Body(103, Expect::Failure, "endless body"),
    Case::Body(104, Expect::Failure, "slow drip (a byte every 200 ms)"),
    Case::Body(105, Expect::Failure, "gzip bomb (1 GiB inflated)"),
    Case::Body(106, Expect::Failure, "invalid UTF-8"),
    Case::Body(107, Expect::Failure, "JSON nested 200 000 deep"),
    Case::Body(108, Expect::Failure, "HTML nested 300 000 deep"),
    Case::Body(109, Expect::Failure, "redirect loop"),
    Case::Body(110, Expect::Failure, "wrong content type (an HTML page)"),
    Case::Body(111, Expect::Failure, "no answer"),
    Case::Body(112, Expect::Failure, "body cut short"),
    Case::Body(113, Expect::Article, "four million zeros (8 MiB)"),
    Case::Body(114, Expect::Failure, "400 000 values in rows"),
    Case::Tree(Tree::Chain, "parent chain 10 000 long"),
    Case::Tree(Tree::Huge, "10⁵ categories"),
    Case::Tree(Tree::Cycle, "category cycle"),
    Case::Tree(Tree::DeepJson, "category tree nested 100 000 deep"),
    Case::LargeList,
    Case::LastGood,
];

impl Case {
    fn name(self) -> String {
        match self {
            Case::Body(id, _, what) => format!("article {id}: {what}"),
            Case::Tree(_, what) => what.to_owned(),
            Case::LargeList => "a valid list of 6.5 MiB".to_owned(),
            Case::LastGood => "the CMS turns hostile after a good answer".to_owned(),
        }
    }

    /// Runs the case; what the visitors saw, or what went wrong.
    async fn run(self, suite: &Suite) -> Result<String, String> {
        match self {
            Case::Body(id, expect, _) => {
                let api = format!("/portal/api/article/detail?id={id}");
                let page = format!("/portal/article/{id}");
                let (answers, pages) = tokio::join!(suite.three(&api), suite.three(&page));
                let mut saw = Vec::new();
                for seen in answers? {
                    saw.push(match expect {
                        Expect::Failure => clear_failure(&api, &seen)?,
                        Expect::Article => article(&api, &seen)?,
                    });
                }
                for seen in pages? {
                    saw.push(bounded_page(&page, &seen)?);
                }
                saw.dedup();
                Ok(saw.join("; "))
            }
            Case::Tree(tree, _) => {
                *suite.script.tree.lock().unwrap() = tree;
                suite.purge(true).await?;
                let outcome = async {
                    let (answers, pages) = tokio::join!(
                        suite.three("/portal/api/category/list"),
                        suite.three("/portal/")
                    );
                    let answers = answers?;
                    let saw = match tree {
                        Tree::DeepJson => clear_failure("/portal/api/category/list", &answers[0])?,
                        _ => {
                            let (depth, count) = tree_of(&answers[0])?;
                            if depth > 4 || count > 1_000 || answers[0].body.len() > 200_000 {
                                return Err(format!(
                                    "tree of depth {depth}, {count} categories, {} bytes",
                                    answers[0].body.len()
                                ));
                            }
                            format!(
                                "200, depth {depth}, {count} categories, {} KB",
                                answers[0].body.len() / 1024
                            )
                        }
                    };
                    let page = bounded_page("/portal/", &pages?[0])?;
                    Ok(format!("{saw}; {page}"))
                }
                .await;
                *suite.script.tree.lock().unwrap() = Tree::Good;
                suite.purge(true).await?;
                outcome
            }
            Case::LargeList => {
                *suite.script.list.lock().unwrap() = List::Large;
                suite.purge(true).await?;
                let path = "/portal/api/article/list?categoryId=21&page=1&size=10";
                let answers = suite.three(path).await;
                *suite.script.list.lock().unwrap() = List::Good;
                suite.purge(true).await?;
                let answers = answers?;
                let body: Value =
                    serde_json::from_slice(&answers[0].body).map_err(|e| e.to_string())?;
                let shown = body["result"]["content"].as_array().map_or(0, Vec::len);
                if answers[0].status != 200 || shown != 10 {
                    return Err(format!("{path}: {} with {shown} items", answers[0].status));
                }
                Ok(format!(
                    "200, 10 of {} items",
                    body["result"]["totalElements"]
                ))
            }
            Case::LastGood => {
                let path = "/portal/api/article/list?categoryId=21&page=1&size=5";
                let good = suite.get(path).await?;
                if good.status != 200 {
                    return Err(format!("{path}: {} before the CMS turned", good.status));
                }
                *suite.script.list.lock().unwrap() = List::Endless;
                // Soft: the entries stale, kept for stale_if_error.
                suite.purge(false).await?;
                let answers = suite.three(path).await;
                *suite.script.list.lock().unwrap() = List::Good;
                let answers = answers?;
                if answers
                    .iter()
                    .any(|a| a.status != 200 || a.body != good.body)
                {
                    return Err(format!(
                        "{path}: {} instead of the last good answer",
                        answers[0].status
                    ));
                }
                Ok("200, the last good answer".to_owned())
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------

#[tokio::main]
async fn main() {
    portal_core::tls::install();
    let args = Args::parse();
    let work = std::env::temp_dir().join(format!("portal-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("work directory");
    let limit_mib = memory_limit_mib(&args.deployment);
    let runs = |part: Part| args.only.is_empty() || args.only.contains(&part);
    let mut failures = Vec::new();
    if runs(Part::Cms) {
        failures.extend(cms_cases(&args, &work, limit_mib).await);
        println!();
    }
    if runs(Part::Clients) || runs(Part::SharedTier) {
        let demo = DemoCms::start().await;
        if runs(Part::Clients) {
            failures.extend(client_attacks(&args, &work, &demo, limit_mib).await);
            println!();
        }
        if runs(Part::SharedTier) {
            failures.extend(
                shared_tier::cases(&args.gateway, &args.static_dir, &work, &demo, limit_mib).await,
            );
            println!();
        }
    }
    if runs(Part::Index) {
        // As for every case: one that fails only on `/healthz`'s time or the visitor's share is
        // run once more (`judged`, which fails a second such try).
        for tries in 1..=2 {
            let (failed, again) =
                index_memory::case(&args.gateway, &args.static_dir, &work, limit_mib, tries).await;
            failures.extend(failed);
            if !again {
                break;
            }
        }
    }
    let log = [
        "gateway.log",
        "clients/gateway.log",
        "shared-tier/gateway.log",
        "index-memory/gateway.log",
    ]
    .iter()
    .map(|log| std::fs::read_to_string(work.join(log)).unwrap_or_default())
    .collect::<String>();
    if log.contains("panicked") {
        failures.push("a panic in the gateway's log".to_owned());
    }
    for secret in [CLIENT_SECRET, ADMIN_TOKEN, shared_tier::SIGNING_KEY] {
        if log.contains(secret) {
            failures.push("a secret in the gateway's log".to_owned());
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    if failures.is_empty() {
        println!("hostile CMS suite passed");
    } else {
        println!("\nhostile CMS suite FAILED:");
        for failure in &failures {
            println!("  - {failure}");
        }
        std::process::exit(1);
    }
}

/// The hostile CMS's cases against a gateway of their own, then `check-upstream` against a CMS
/// echoing the secret; the failures.
async fn cms_cases(args: &Args, work: &Path, limit_mib: u64) -> Vec<String> {
    let script = Arc::new(Script {
        tree: Mutex::new(Tree::Good),
        list: Mutex::new(List::Good),
        bomb: gzip_bomb(),
    });
    let cms = start_cms(Arc::clone(&script)).await;
    let listen = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let mut gateway = start_gateway(args, work, listen, cms);
    let pid = gateway.id().expect("the gateway's pid");
    let base = format!("http://{listen}");
    let suite = Suite {
        client: reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap(),
        base: base.clone(),
        script,
    };
    gateway_process::wait_ready(&suite.client, &base).await;
    // Warm: the render engines started and the good tree cached, as on a serving replica.
    let _ = suite.get("/portal/").await;
    let prober = Prober::start(base.clone());
    tokio::time::sleep(Duration::from_millis(100)).await;

    let mut failures = Vec::new();
    println!(
        "{:<46} {:>9} {:>7} {:>9}  what visitors saw",
        "case", "healthz", "asked", "RSS MiB"
    );
    for case in CASES {
        let mut tries = 0;
        loop {
            tries += 1;
            let from = Instant::now();
            let outcome = case.run(&suite).await;
            let to = Instant::now();
            let (worst, asked) = prober.worst_between(from, to);
            let alive = gateway.try_wait().ok().flatten().is_none();
            let rss = gateway_process::status_kib(pid, "VmRSS:") / 1024;
            let again = if tries > 1 { " (second try)" } else { "" };
            println!(
                "{:<46} {:>7}ms {:>7} {:>9}  {}{again}",
                case.name(),
                worst.as_millis(),
                asked,
                rss,
                outcome.as_ref().unwrap_or_else(|e| e)
            );
            if !alive {
                failures.push(format!("{}: the gateway exited", case.name()));
                break;
            }
            if let Err(e) = outcome {
                failures.push(format!("{}: {e}", case.name()));
                break;
            }
            if worst > HEALTH_BOUND {
                if tries < 2 {
                    continue;
                }
                failures.push(format!(
                    "{}: /healthz took {} ms (bound {} ms)",
                    case.name(),
                    worst.as_millis(),
                    HEALTH_BOUND.as_millis()
                ));
            }
            break;
        }
    }
    drop(prober);
    let peak_mib = gateway_process::status_kib(pid, "VmHWM:") / 1024;
    println!("\npeak RSS {peak_mib} MiB (the manifests' limit: {limit_mib} MiB)");
    if peak_mib >= limit_mib {
        failures.push(format!("peak RSS {peak_mib} MiB, limit {limit_mib} MiB"));
    }
    let _ = gateway.start_kill();
    let _ = gateway.wait().await;
    failures.extend(echoed_secret(args, work, &suite).await);
    failures
}

// ---------------------------------------------------------------------------------------------
// Clients that attack (red team round three): a second gateway at the production limits, in
// front of reference-cms, the demo's content. Each attack runs for a few seconds from addresses
// of its own on loopback while a visitor at another address asks for what is not cached, and
// the prober asks `/healthz`; a case holds when the visitor's requests succeed (nine in ten at
// least), `/healthz` stays within its bound and the process lives. Peak RSS is checked at the
// end against the manifests' limit, as for the CMS cases.

/// How long each attack runs.
const ATTACK: Duration = Duration::from_secs(6);

/// A client from the loopback address `source`.
fn client_from(source: &str, h2: bool) -> reqwest::Client {
    let builder = reqwest::Client::builder()
        .local_address(Some(source.parse().expect("a loopback address")))
        .timeout(Duration::from_secs(10));
    let builder = if h2 {
        builder
            .http2_prior_knowledge()
            .http2_keep_alive_interval(Duration::from_secs(1))
            .http2_keep_alive_while_idle(true)
    } else {
        builder
    };
    builder.build().expect("a client")
}

#[derive(Clone, Copy, Debug)]
enum Attack {
    /// Row 2: HTTP/2 streams asking for a file relayed from the CMS, never read, PINGing.
    UnreadH2Files,
    /// Row 1: `Range` requests on a relayed file, as fast as they are answered.
    RangeFlood,
    /// Row 7: cold pages (distinct searches) from forty addresses, four at a time each: 160 at
    /// once, past the render queue's 128 places.
    ColdPages,
    /// Row 7: one search page spelled many ways (letters escaped in the path, the keyword's case,
    /// width and spaces, parameters the page does not read) from forty addresses, two at a time
    /// each (their render share): one cache entry, not a render each.
    KeySpellings,
    /// Row 8: uncached searches from forty addresses, each within its own allowance.
    SearchFlood,
    /// Row 1: API requests with a made-up `Bearer` token (never cached: each a CMS call), flooded
    /// from one address.
    BearerFlood,
    /// Row 1: `/readyz?upstream=1` (which asks the CMS) flooded from one address: health checks
    /// pass the request limits, so only the probe's own bound keeps it off the CMS.
    ReadinessFlood,
    /// Row 5: connections that are never silent (a keep-alive request every two seconds), past
    /// the process's cap (`server.max_connections`, as at systemd's 1 024 descriptors).
    BusyConnections,
    /// Row 15: the config reloaded (SIGHUP) ten times a second under the visitor's requests.
    Reloads,
    /// Rows 11, 14 and 17: through a proxy the gateway trusts (a bare address in
    /// `trusted_proxies`, which refused to start before), uncached API requests that claim to come
    /// from the visitor (the leftmost `X-Forwarded-For`) while the proxy appends the real client: a
    /// new address of one IPv6 /64 each time. Charged to the leftmost address, they spent the
    /// visitor's share; to each whole IPv6 address apart, the CMS ceiling.
    SpoofedThroughProxy,
}

/// The visitor's address beside every attack.
const VISITOR: &str = "127.0.0.3";
/// The proxy in front of the client attacks' gateway (its `limits.trusted_proxies`).
const PROXY: &str = "127.0.4.1";

impl Attack {
    const ALL: [Attack; 10] = [
        Attack::UnreadH2Files,
        Attack::RangeFlood,
        Attack::ColdPages,
        Attack::KeySpellings,
        Attack::SearchFlood,
        Attack::BearerFlood,
        Attack::ReadinessFlood,
        Attack::BusyConnections,
        Attack::Reloads,
        Attack::SpoofedThroughProxy,
    ];

    fn name(self) -> &'static str {
        match self {
            Attack::UnreadH2Files => "client: h2 streams of a file never read",
            Attack::RangeFlood => "client: Range requests on a file, flooded",
            Attack::ColdPages => "client: cold pages from forty addresses",
            Attack::KeySpellings => "client: one page spelled many ways",
            Attack::SearchFlood => "client: searches from forty addresses",
            Attack::BearerFlood => "client: made-up Bearer tokens, flooded",
            Attack::ReadinessFlood => "client: /readyz?upstream=1 flooded",
            Attack::BusyConnections => "client: 1 200 connections never silent",
            Attack::Reloads => "operator: SIGHUP ten times a second",
            Attack::SpoofedThroughProxy => "client: spoofed X-Forwarded-For, one IPv6 /64",
        }
    }

    /// Runs the attack on the gateway at `base` (its process `pid`) until `until`.
    async fn run(self, base: String, pid: u32, until: Instant) {
        const FILE: &str = "/portal/api/files/videos/tongda-ouya.webm";
        let mut tasks = Vec::new();
        match self {
            Attack::UnreadH2Files => {
                for _ in 0..4 {
                    let client = client_from("127.0.0.2", true);
                    for _ in 0..50 {
                        let (client, url) = (client.clone(), format!("{base}{FILE}"));
                        tasks.push(tokio::spawn(async move {
                            // Held, never read, until the attack ends.
                            let held = client.get(url).send().await;
                            tokio::time::sleep_until(until.into()).await;
                            drop(held);
                        }));
                    }
                }
            }
            Attack::RangeFlood => {
                let client = client_from("127.0.0.2", false);
                for _ in 0..16 {
                    let (client, url) = (client.clone(), format!("{base}{FILE}"));
                    tasks.push(lane(until, Duration::ZERO, move |n| {
                        let range = format!("bytes={}-{}", n % 1000, n % 1000 + 4095);
                        client.get(&url).header("range", range)
                    }));
                }
            }
            Attack::ColdPages => {
                for address in 1..=40 {
                    let client = client_from(&format!("127.0.1.{address}"), false);
                    for lane_no in 0..4 {
                        let (client, base) = (client.clone(), base.clone());
                        tasks.push(lane(until, Duration::ZERO, move |n| {
                            client.get(format!(
                                "{base}/portal/search?q=%E7%8F%AD%E5%88%97{address}x{lane_no}x{n}"
                            ))
                        }));
                    }
                }
            }
            Attack::KeySpellings => {
                // 调度 and "Tongda", as a reader might type them: each the same page.
                const PATHS: [&str; 3] = ["/portal/search", "/portal/%73earch", "/portal/se%61rch"];
                const KEYWORDS: [&str; 6] = [
                    "%E8%B0%83%E5%BA%A6%20Tongda",
                    "%E8%B0%83%E5%BA%A6%20TONGDA",
                    "%E8%B0%83%E5%BA%A6%E3%80%80%EF%BD%94%EF%BD%8F%EF%BD%8E%EF%BD%87%EF%BD%84%EF%BD%81",
                    "%20%E8%B0%83%E5%BA%A6%20%20tongda%20",
                    "%E8%B0%83%E5%BA%A6+Tong%64a",
                    "%E8%B0%83%E5%BA%A6%20tongda",
                ];
                for address in 1..=40 {
                    let client = client_from(&format!("127.0.6.{address}"), false);
                    for lane_no in 0..2 {
                        let (client, base) = (client.clone(), base.clone());
                        tasks.push(lane(until, Duration::ZERO, move |n| {
                            let (path, keyword) = (
                                PATHS[(n as usize + lane_no) % PATHS.len()],
                                KEYWORDS[n as usize % KEYWORDS.len()],
                            );
                            client.get(format!(
                                "{base}{path}?q={keyword}&utm_source=a{address}x{n}"
                            ))
                        }));
                    }
                }
            }
            Attack::ReadinessFlood => {
                let client = client_from("127.0.0.2", false);
                for _ in 0..16 {
                    let (client, url) = (client.clone(), format!("{base}/readyz?upstream=1"));
                    tasks.push(lane(until, Duration::ZERO, move |_| client.get(&url)));
                }
            }
            Attack::SearchFlood => {
                for address in 1..=40 {
                    let client = client_from(&format!("127.0.2.{address}"), false);
                    let base = base.clone();
                    // Within one address's allowance (20 a second).
                    tasks.push(lane(until, Duration::from_millis(60), move |n| {
                        client.get(format!(
                            "{base}/portal/api/article/search?keyword=%E7%8F%AD%E5%88%97%20{address}x{n}"
                        ))
                    }));
                }
            }
            Attack::BearerFlood => {
                let client = client_from("127.0.0.2", false);
                for lane_no in 0..16 {
                    let (client, base) = (client.clone(), base.clone());
                    tasks.push(lane(until, Duration::ZERO, move |n| {
                        client
                            .get(format!(
                                "{base}/portal/api/article/list?categoryId=21&page=1&size=5"
                            ))
                            .bearer_auth(format!("made-up-{lane_no}-{n}"))
                    }));
                }
            }
            Attack::BusyConnections => {
                let address: SocketAddr = base
                    .trim_start_matches("http://")
                    .parse()
                    .expect("the gateway's address");
                for source in 1..=8 {
                    for _ in 0..150 {
                        tasks.push(tokio::spawn(busy_connection(
                            address,
                            format!("127.0.3.{source}"),
                            until,
                        )));
                    }
                }
            }
            Attack::SpoofedThroughProxy => {
                let client = client_from(PROXY, false);
                for lane_no in 0..16u64 {
                    let (client, base) = (client.clone(), base.clone());
                    tasks.push(lane(until, Duration::ZERO, move |n| {
                        client
                            .get(format!(
                                "{base}/portal/api/article/list?categoryId=21&page={n}&size={}",
                                lane_no + 2
                            ))
                            .header(
                                "x-forwarded-for",
                                format!("{VISITOR}, 2001:db8:7::{lane_no:x}:{:x}", n & 0xffff),
                            )
                    }));
                }
            }
            Attack::Reloads => {
                while Instant::now() < until {
                    let _ = tokio::process::Command::new("kill")
                        .args(["-HUP", &pid.to_string()])
                        .status()
                        .await;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
        for task in tasks {
            let _ = task.await;
        }
    }
}

impl Attack {
    /// Row 7's own check: the attack's spellings are one page, so the renders while it ran are
    /// the visitor's pages (each one render, a few more for a page whose first answer was not
    /// cached yet) and the attack's first; a render per spelling was hundreds in its six
    /// seconds.
    fn renders_within(self, renders: u64, asked: usize) -> Result<(), String> {
        if !matches!(self, Attack::KeySpellings) {
            return Ok(());
        }
        // The visitor asks a page and an API list in turn.
        let most = 3 * (asked as u64 / 2 + 1) + 10;
        println!("  renders while it ran: {renders} (at most {most})");
        if renders > most {
            return Err(format!(
                "{}: {renders} renders while it ran (at most {most}): spellings of one page rendered apart",
                self.name()
            ));
        }
        Ok(())
    }
}

/// A counter's value in the gateway's `/metrics` (its line without labels); 0 when absent.
async fn counter(client: &reqwest::Client, base: &str, name: &str) -> u64 {
    let Ok(answer) = client.get(format!("{base}/metrics")).send().await else {
        return 0;
    };
    let text = answer.text().await.unwrap_or_default();
    text.lines()
        .find_map(|line| {
            line.strip_prefix(name)?
                .strip_prefix(' ')?
                .trim()
                .parse::<f64>()
                .ok()
        })
        .map_or(0, |value| value as u64)
}

/// One lane of an attack: the request `ask(n)` makes for n = 1, 2, … until `until`, each answer
/// read whole, `pause` between them.
fn lane<F>(until: Instant, pause: Duration, ask: F) -> tokio::task::JoinHandle<()>
where
    F: Fn(u64) -> reqwest::RequestBuilder + Send + 'static,
{
    tokio::spawn(async move {
        let mut n = 0u64;
        while Instant::now() < until {
            n += 1;
            if let Ok(answer) = ask(n).send().await {
                let _ = answer.bytes().await;
            }
            if !pause.is_zero() {
                tokio::time::sleep(pause).await;
            }
        }
    })
}

/// A connection from `source` that is never silent: a keep-alive request every two seconds,
/// another connection when the gateway closes it, until `until`.
async fn busy_connection(to: SocketAddr, source: String, until: Instant) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = b"GET /robots.txt HTTP/1.1\r\nHost: portal\r\n\r\n";
    let mut answer = vec![0u8; 16 * 1024];
    while Instant::now() < until {
        let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
            return;
        };
        if socket
            .bind(SocketAddr::new(
                source.parse().expect("a loopback address"),
                0,
            ))
            .is_err()
        {
            return;
        }
        let Ok(mut stream) = socket.connect(to).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        while Instant::now() < until {
            if stream.write_all(request).await.is_err() {
                break;
            }
            match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut answer)).await {
                Ok(Ok(read)) if read > 0 => {}
                _ => break,
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
}

/// The visitor beside an attack: uncached list pages and cold pages, from `VISITOR`, one after
/// another until `until`; how many of how many succeeded (a page counts when it is rendered, not
/// the shell), and what the others were.
async fn visitor(base: String, round: usize, until: Instant) -> (usize, usize, String) {
    let client = client_from(VISITOR, false);
    let (mut ok, mut asked) = (0, 0);
    // What failed, by kind and status ("page 429", "api 503", "page shell").
    let mut failed: std::collections::BTreeMap<String, usize> = Default::default();
    let mut n = round * 1_000;
    while Instant::now() < until {
        n += 1;
        // A page of a list no one asked for yet (past its end: an empty page, still a load
        // from the CMS), and a search page not rendered yet.
        let api = format!("{base}/portal/api/article/list?categoryId=21&page={n}&size=1");
        let page = format!("{base}/portal/search?q=%E8%AE%BF%E5%AE%A2{n}");
        for (url, kind) in [(api, "api"), (page, "page")] {
            asked += 1;
            let outcome = match client.get(url).send().await {
                Ok(r) => {
                    let status = r.status().as_u16();
                    match r.bytes().await {
                        Ok(body) if status == 200 => {
                            if kind == "api" || body.windows(12).any(|w| w == b"portal-state") {
                                None
                            } else {
                                Some("shell".to_owned())
                            }
                        }
                        _ => Some(status.to_string()),
                    }
                }
                Err(_) => Some("no answer".to_owned()),
            };
            match outcome {
                None => ok += 1,
                Some(why) => *failed.entry(format!("{kind} {why}")).or_default() += 1,
            }
        }
        // A reader's pace: within the CMS share of one address (10 uncached loads a second),
        // which the visitor would otherwise spend itself.
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    (ok, asked, tally(&failed))
}

/// What a visitor's failed requests were, by kind and outcome: "page shell ×1, api 429 ×2".
fn tally(failed: &std::collections::BTreeMap<String, usize>) -> String {
    failed
        .iter()
        .map(|(why, n)| format!("{why} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Prints one case run beside the visitor (`seen`: how many of its requests succeeded, of how
/// many, and what the others were) and judges it: `Err` a failure; `Ok(true)` when its first try
/// failed on `/healthz`'s time or the visitor's share, to be run once more (these machines are
/// shared); a dead gateway is never tried again.
fn judged(
    name: &str,
    tries: usize,
    alive: bool,
    (worst, probes): (Duration, usize),
    rss_mib: u64,
    (ok, asked, failed): (usize, usize, String),
) -> Result<bool, String> {
    let again = if tries > 1 { " (second try)" } else { "" };
    println!(
        "{name:<46} {:>7}ms {probes:>7} {rss_mib:>9}  the visitor: {ok} of {asked} answered {failed}{again}",
        worst.as_millis(),
    );
    if !alive {
        return Err(format!("{name}: the gateway exited"));
    }
    if ok * 10 < asked * 9 {
        // The cold-pages case leaves the visitor a handful of pages in its seconds (each waits
        // behind the attack's 160): one shell among two fails it on a busy machine, so a first
        // such try is run once more, as a slow `/healthz` is.
        if tries < 2 {
            return Ok(true);
        }
        return Err(format!("{name}: the visitor got {ok} of {asked}"));
    }
    if worst > HEALTH_BOUND {
        if tries < 2 {
            return Ok(true);
        }
        return Err(format!(
            "{name}: /healthz took {} ms (bound {} ms)",
            worst.as_millis(),
            HEALTH_BOUND.as_millis()
        ));
    }
    Ok(false)
}

/// Red team row 10: `check-upstream` (the operator's command, its report often pasted into a
/// ticket) against a CMS whose error body echoes the client secret in four forms: no piece of the
/// secret in what it prints. Run on the CMS cases' config; the failures.
async fn echoed_secret(args: &Args, work: &Path, suite: &Suite) -> Vec<String> {
    const NAME: &str = "check-upstream: a CMS echoing the secret";
    *suite.script.tree.lock().unwrap() = Tree::EchoSecret;
    let ran = tokio::process::Command::new(&args.gateway)
        .arg("check-upstream")
        .arg("--config")
        .arg(work.join("gateway.toml"))
        .env_remove("RUST_LOG")
        .output()
        .await;
    *suite.script.tree.lock().unwrap() = Tree::Good;
    let Ok(ran) = ran else {
        return vec![format!("{NAME}: check-upstream did not run")];
    };
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    );
    // Every ten characters of it (the secret is ASCII).
    let pieces: Vec<&str> = (0..=CLIENT_SECRET.len() - 10)
        .map(|at| &CLIENT_SECRET[at..at + 10])
        .filter(|piece| printed.contains(piece))
        .collect();
    let saw_echo = printed.contains("credential");
    println!(
        "{NAME:<46} {}",
        match (pieces.is_empty(), saw_echo) {
            (true, true) => "the CMS's body printed, the secret hidden".to_owned(),
            (true, false) => "the CMS's body not printed at all".to_owned(),
            (false, _) => format!("printed pieces of the secret: {pieces:?}"),
        }
    );
    let mut failures = Vec::new();
    if !pieces.is_empty() {
        failures.push(format!("{NAME}: pieces of the secret printed: {pieces:?}"));
    }
    if !saw_echo {
        // The case proves nothing when the body it hides is not shown at all.
        failures.push(format!(
            "{NAME}: the CMS's error body was not in the report: {printed}"
        ));
    }
    failures
}

/// What a case sets beside the production settings: lines of `[server]` and of `[upstream]`, and
/// tables of its own after them.
#[derive(Default)]
struct Extra<'a> {
    server: &'a str,
    upstream: &'a str,
    tables: &'a str,
}

/// A gateway's config at the production settings (JSON access lines at info), listening on
/// `listen`, serving the app in `static_dir`, in front of the CMS at `base_url` with the client
/// credential `(id, secret)`, with what the case sets itself (`extra`).
fn production_config(
    listen: SocketAddr,
    static_dir: &Path,
    base_url: &str,
    (client_id, client_secret): (&str, &str),
    extra: Extra,
) -> String {
    let Extra {
        server,
        upstream,
        tables,
    } = extra;
    format!(
        r#"
[server]
listen = "{listen}"
static_dir = "{static_dir}"
log_format = "json"
log_level = "info"
access_log = true
watch_config = false
{server}
[upstream]
base_url = "{base_url}"
client_id = "{client_id}"
client_secret = "{client_secret}"
{upstream}
[site]
company_name = "陆港测试集团"

{tables}"#,
        static_dir = static_dir.display(),
    )
}

/// reference-cms with the demo's content, on loopback: what the client attacks' and the shared
/// tier's gateways are in front of.
struct DemoCms {
    addr: SocketAddr,
    client_id: String,
    client_secret: String,
}

impl DemoCms {
    /// A gateway's config in front of it at the production settings, listening on `listen`,
    /// serving the app in `static_dir`, with `more` (TOML tables) after.
    fn config(&self, listen: SocketAddr, static_dir: &Path, more: &str) -> String {
        production_config(
            listen,
            static_dir,
            &format!("http://{}/", self.addr),
            (&self.client_id, &self.client_secret),
            Extra {
                tables: more,
                ..Extra::default()
            },
        )
    }

    async fn start() -> DemoCms {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let settings = reference_cms::Settings::from_env();
        let (client_id, client_secret) =
            (settings.client_id.clone(), settings.client_secret.clone());
        tokio::spawn(reference_cms::serve(
            listener,
            settings,
            std::future::pending(),
        ));
        DemoCms {
            addr,
            client_id,
            client_secret,
        }
    }
}

/// Runs every client attack against a gateway of its own; the failures.
async fn client_attacks(args: &Args, work: &Path, demo: &DemoCms, limit_mib: u64) -> Vec<String> {
    let listen = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    // The production limits (config/gateway.toml's), the demo's own index.
    let config = demo.config(
        listen,
        &args.static_dir,
        &format!("[search]\nmode = \"index\"\n\n[limits]\ntrusted_proxies = [\"{PROXY}\"]\n"),
    );
    let work = work.join("clients");
    std::fs::create_dir_all(&work).expect("work directory");
    let mut gateway =
        gateway_process::start(&args.gateway, &work, &config, &work.join("gateway.log"));
    let pid = gateway.id().expect("the gateway's pid");
    let base = format!("http://{listen}");
    let client = reqwest::Client::new();
    gateway_process::wait_ready(&client, &base).await;
    let prober = Prober::start(base.clone());
    let mut failures = Vec::new();
    for (round, attack) in Attack::ALL.into_iter().enumerate() {
        // As for the CMS cases: one that fails only on `/healthz`'s time is run once more (these
        // machines are shared).
        for tries in 1..=2 {
            let renders_before = counter(&client, &base, "portal_page_renders_total").await;
            let from = Instant::now();
            let until = from + ATTACK;
            let (_, (ok, asked, failed)) = tokio::join!(
                attack.run(base.clone(), pid, until),
                visitor(base.clone(), round * 2 + tries, until)
            );
            let (worst, probes) = prober.worst_between(from, Instant::now());
            let alive = gateway.try_wait().ok().flatten().is_none();
            let rss = gateway_process::status_kib(pid, "VmRSS:") / 1024;
            let renders = counter(&client, &base, "portal_page_renders_total")
                .await
                .saturating_sub(renders_before);
            let verdict = judged(
                attack.name(),
                tries,
                alive,
                (worst, probes),
                rss,
                (ok, asked, failed),
            )
            .and_then(|again| attack.renders_within(renders, asked).map(|()| again));
            // Let the attack's connections close before the next.
            tokio::time::sleep(Duration::from_secs(1)).await;
            match verdict {
                Ok(true) => continue,
                Ok(false) => {}
                Err(failure) => {
                    failures.push(failure);
                    if !alive {
                        return failures;
                    }
                }
            }
            break;
        }
    }
    drop(prober);
    let peak_mib = gateway_process::status_kib(pid, "VmHWM:") / 1024;
    println!(
        "peak RSS under the client attacks {peak_mib} MiB (the manifests' limit: {limit_mib} MiB)"
    );
    if peak_mib >= limit_mib {
        failures.push(format!(
            "client attacks: peak RSS {peak_mib} MiB, limit {limit_mib} MiB"
        ));
    }
    let _ = gateway.start_kill();
    let _ = gateway.wait().await;
    failures
}
