//! The soak (`make soak`; a 36-second version runs in `make test`): the gateway's release binary,
//! at its production log settings, under a steady mixed load while the CMS in front of it flaps —
//! down (connections refused), up, slow (answers start after up to twice the gateway's time-out) — in
//! turn. reference-cms runs in this process behind a TCP proxy that does the flapping and counts
//! what reaches it.
//!
//! It prints a table per phase and fails (exit 1) when any of these does not hold:
//! - no 5xx and no transport error on a key that was cached before the first outage;
//! - bad requests (a malformed id, an unknown path) answer 4xx in every phase;
//! - `/readyz` answers 200 throughout;
//! - RSS and open file descriptors do not grow over the last half (after a first warm-up cycle,
//!   the peak of the later cycles against the peak of the earlier ones, with a small allowance;
//!   from three cycles on);
//! - no arrival is shed for answers falling behind;
//! - after the last phase, with the CMS up, a key never fetched before is served fresh;
//! - no panic and no secret in the gateway's log.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use axum::{extract::Request, middleware::Next, response::Response};
use clap::Parser;

#[path = "../support/gateway_process.rs"]
mod gateway_process;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
    sync::watch,
    task::AbortHandle,
};

const CLIENT_SECRET: &str = "demo-secret-change-me";
const ADMIN_TOKEN: &str = "soak-admin-token-0123456789";
/// The gateway's time-out for one CMS call in the soak; the slow phase holds answers up to twice it.
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(1);

#[derive(Parser)]
#[command(about = "The gateway under mixed load while the CMS flaps (docs/operations.md)")]
struct Args {
    /// Length of the load, in seconds.
    #[arg(long, default_value_t = 300)]
    seconds: u64,
    /// Length of each CMS phase (down, up, slow, in turn), in seconds.
    #[arg(long, default_value_t = 20)]
    phase_seconds: u64,
    /// Requests a second, arriving whatever the answers take.
    #[arg(long, default_value_t = 400)]
    rate: u64,
    /// Requests awaiting their answer at once; arrivals over it are counted as shed, not sent.
    #[arg(long, default_value_t = 512)]
    max_in_flight: usize,
    /// The gateway binary (`cargo build --release`).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/portal-gateway"))]
    gateway: PathBuf,
    /// The built app (`make build`).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../frontend/dist"))]
    static_dir: PathBuf,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cms {
    Up,
    Down,
    Slow,
}

impl Cms {
    fn of_phase(phase: usize) -> Self {
        [Cms::Down, Cms::Up, Cms::Slow][phase % 3]
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Fetched before the first outage: must never fail.
    Cached,
    /// Never fetched before (or not cacheable): may fail while the CMS does, in the envelope.
    Uncached,
    /// Answered by the gateway without the CMS: must be 4xx.
    Invalid,
}

struct Target {
    path: String,
    kind: Kind,
}

#[derive(Default, Clone)]
struct PhaseStats {
    requests: u64,
    cached_ok: u64,
    cached_5xx: u64,
    uncached_ok: u64,
    uncached_4xx: u64,
    uncached_5xx: u64,
    invalid_4xx: u64,
    invalid_other: u64,
    transport_errors: u64,
    cached_latencies_us: Vec<u64>,
    shed: u64,
    cms_calls: u64,
    /// Calls the gateway made or tried (`portal_upstream_duration_seconds_count`), the refused ones
    /// of an outage included.
    attempts: u64,
    rss_kib: u64,
    fds: u64,
    not_ready: u64,
}

static CMS_CALLS: AtomicU64 = AtomicU64::new(0);

async fn count_cms_call(request: Request, next: Next) -> Response {
    CMS_CALLS.fetch_add(1, Ordering::Relaxed);
    next.run(request).await
}

#[tokio::main]
async fn main() {
    portal_core::tls::install();
    let args = Args::parse();
    let failures = soak(&args).await;
    if failures.is_empty() {
        println!("\nsoak passed");
    } else {
        println!("\nsoak FAILED:");
        for failure in &failures {
            println!("  - {failure}");
        }
        std::process::exit(1);
    }
}

async fn soak(args: &Args) -> Vec<String> {
    let work = std::env::temp_dir().join(format!("portal-soak-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("work directory");

    let cms = start_cms().await;
    let (mode_tx, mode_rx) = watch::channel(Cms::Up);
    let proxy = flapping_proxy(cms, mode_rx).await;
    let gateway_addr = free_port();
    let log_path = work.join("gateway.log");
    let mut gateway = start_gateway(args, &work, gateway_addr, proxy, &log_path);
    let pid = gateway.id().expect("gateway pid");
    let base = format!("http://{gateway_addr}");
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client");
    gateway_process::wait_ready(&client, &base).await;

    let (targets, never_fetched) = targets();
    // What a visitor saw before the outage: every key of the cached set, fetched once.
    // The CMS ceiling (50 calls a second by default) paces it.
    for target in targets.iter().filter(|t| t.kind == Kind::Cached) {
        let mut status = None;
        for _ in 0..50 {
            status = client
                .get(format!("{base}{}", target.path))
                .send()
                .await
                .map(|r| r.status().as_u16())
                .ok();
            if status != Some(429) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(status, Some(200), "warming {}", target.path);
    }
    let targets = Arc::new(targets);
    let phases = (args.seconds / args.phase_seconds.max(1)).max(1) as usize;
    let phase_len = Duration::from_secs(args.phase_seconds.max(1));
    let stats = Arc::new(Mutex::new(vec![PhaseStats::default(); phases]));
    println!(
        "soak: {} s, {phases} phases of {} s (down, up, slow in turn), {} requests/s",
        args.seconds, args.phase_seconds, args.rate
    );

    let start = Instant::now();
    let end = start + phase_len * phases as u32;
    let phase_of =
        move |at: Instant| ((at - start).as_secs_f64() / phase_len.as_secs_f64()) as usize;
    // Open loop: visitors arrive at a fixed rate whatever the answers take (a closed loop would
    // slow its own arrivals while the CMS is slow and hide what that does to cached keys).
    let in_flight = Arc::new(tokio::sync::Semaphore::new(args.max_in_flight));
    let arrivals = {
        let (client, base, targets, stats) =
            (client.clone(), base.clone(), targets.clone(), stats.clone());
        let period = Duration::from_secs_f64(1.0 / args.rate as f64);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(period);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            let mut requests = tokio::task::JoinSet::new();
            loop {
                tick.tick().await;
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let pick = rng.below(targets.len() as u64) as usize;
                let Ok(permit) = in_flight.clone().try_acquire_owned() else {
                    stats.lock().unwrap()[phase_of(sent).min(phases - 1)].shed += 1;
                    continue;
                };
                let (client, base, targets, stats) =
                    (client.clone(), base.clone(), targets.clone(), stats.clone());
                requests.spawn(async move {
                    let target = &targets[pick];
                    let outcome = match client.get(format!("{base}{}", target.path)).send().await {
                        // The whole body: a drop mid-answer is an error too.
                        Ok(response) => {
                            let status = response.status().as_u16();
                            response.bytes().await.map(|_| status)
                        }
                        Err(e) => Err(e),
                    };
                    drop(permit);
                    let took = sent.elapsed().as_micros() as u64;
                    let mut all = stats.lock().unwrap();
                    let s = &mut all[phase_of(sent).min(phases - 1)];
                    s.requests += 1;
                    if target.kind == Kind::Cached {
                        s.cached_latencies_us.push(took);
                    }
                    match (target.kind, outcome) {
                        (_, Err(_)) => s.transport_errors += 1,
                        (Kind::Cached, Ok(status)) if status >= 500 => s.cached_5xx += 1,
                        (Kind::Cached, Ok(_)) => s.cached_ok += 1,
                        (Kind::Uncached, Ok(status)) if status >= 500 => s.uncached_5xx += 1,
                        (Kind::Uncached, Ok(status)) if status >= 400 => s.uncached_4xx += 1,
                        (Kind::Uncached, Ok(_)) => s.uncached_ok += 1,
                        (Kind::Invalid, Ok(status)) if (400..500).contains(&status) => {
                            s.invalid_4xx += 1
                        }
                        (Kind::Invalid, Ok(_)) => s.invalid_other += 1,
                    }
                });
                while requests.try_join_next().is_some() {}
            }
            while requests.join_next().await.is_some() {}
        })
    };

    // The conductor: flips the CMS at each phase, samples the process and readiness every second.
    let mut calls_before = CMS_CALLS.load(Ordering::Relaxed);
    let mut attempts_before = upstream_attempts(&client, &base).await;
    for phase in 0..phases {
        mode_tx.send_replace(Cms::of_phase(phase));
        let phase_end = start + phase_len * (phase as u32 + 1);
        while Instant::now() < phase_end {
            tokio::time::sleep(Duration::from_secs(1).min(phase_end - Instant::now())).await;
            let (rss, fds) = (rss_kib(pid), open_fds(pid));
            let ready = client
                .get(format!("{base}/readyz"))
                .send()
                .await
                .is_ok_and(|r| r.status() == 200);
            let mut all = stats.lock().unwrap();
            let s = &mut all[phase];
            s.rss_kib = s.rss_kib.max(rss);
            s.fds = s.fds.max(fds);
            s.not_ready += u64::from(!ready);
        }
        let calls = CMS_CALLS.load(Ordering::Relaxed);
        let attempts = upstream_attempts(&client, &base).await;
        let mut all = stats.lock().unwrap();
        all[phase].cms_calls = calls - calls_before;
        all[phase].attempts = attempts.saturating_sub(attempts_before);
        (calls_before, attempts_before) = (calls, attempts);
    }
    arrivals.await.expect("load");

    // Recovery: with the CMS back, something never asked for before is served fresh.
    mode_tx.send_replace(Cms::Up);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let recovered = client
        .get(format!("{base}{never_fetched}"))
        .send()
        .await
        .map(|r| r.status().as_u16());

    let alive = matches!(gateway.try_wait(), Ok(None));
    let _ = gateway.kill().await;
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let stats = stats.lock().unwrap().clone();
    report(&stats, phase_len);
    let failures = judge(&stats, recovered.ok(), alive, &log);
    let _ = std::fs::remove_dir_all(&work);
    failures
}

fn report(stats: &[PhaseStats], phase_len: Duration) {
    println!(
        "\n{:>5} {:>4} {:>8} {:>13} {:>19} {:>7} {:>6} {:>12} {:>13} {:>9} {:>7} {:>4}",
        "phase",
        "cms",
        "requests",
        "cached ok/5xx",
        "uncached ok/4xx/5xx",
        "bad 4xx",
        "errors",
        "cached p50 ms",
        "cached p99 ms",
        "CMS tried/got",
        "RSS MiB",
        "fds"
    );
    for (i, s) in stats.iter().enumerate() {
        let mut l = s.cached_latencies_us.clone();
        l.sort_unstable();
        let pct = |p: f64| {
            l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
                .map_or(0.0, |&us| us as f64 / 1000.0)
        };
        println!(
            "{:>5} {:>4} {:>8} {:>13} {:>19} {:>7} {:>6} {:>12.1} {:>13.1} {:>9} {:>7.1} {:>4}",
            i + 1,
            format!("{:?}", Cms::of_phase(i)).to_lowercase(),
            s.requests,
            format!("{}/{}", s.cached_ok, s.cached_5xx),
            format!("{}/{}/{}", s.uncached_ok, s.uncached_4xx, s.uncached_5xx),
            s.invalid_4xx,
            s.transport_errors,
            pct(0.5),
            pct(0.99),
            format!("{}/{}", s.attempts, s.cms_calls),
            s.rss_kib as f64 / 1024.0,
            s.fds
        );
    }
    let requests: u64 = stats.iter().map(|s| s.requests).sum();
    let calls: u64 = stats.iter().map(|s| s.cms_calls).sum();
    let secs = phase_len.as_secs_f64() * stats.len() as f64;
    println!(
        "\n{requests} requests, {calls} CMS calls ({:.1} a second; {:.2} per 100 requests)",
        calls as f64 / secs,
        calls as f64 * 100.0 / requests.max(1) as f64
    );
}

/// One of a phase's counts.
type Count = fn(&PhaseStats) -> u64;

fn judge(stats: &[PhaseStats], recovered: Option<u16>, alive: bool, log: &str) -> Vec<String> {
    let mut failures = Vec::new();
    // Each count that must stay 0 over the whole soak, and what it means when it does not.
    let zero: [(Count, &str); 5] = [
        (
            |s| s.cached_5xx,
            "5xx answers on keys cached before the outage",
        ),
        (|s| s.transport_errors, "requests without an HTTP answer"),
        (|s| s.shed, "arrivals shed: answers fell behind the load"),
        (|s| s.invalid_other, "bad requests answered other than 4xx"),
        (|s| s.not_ready, "samples of /readyz that were not 200"),
    ];
    for (count, meaning) in zero {
        let n: u64 = stats.iter().map(count).sum();
        if n > 0 {
            failures.push(format!("{n} {meaning}"));
        }
    }
    // The first down-up-slow cycle warms up (the cache fills with the keys never fetched before,
    // each worker thread's allocator keeps its first encoder's tables); the rest is split into
    // halves of whole cycles, so that each holds every state of the CMS.
    let measured = stats.get(3..).unwrap_or_default();
    let cycles = measured.len() / 3;
    if cycles >= 2 {
        let (first, last) = measured.split_at(cycles / 2 * 3);
        let peak =
            |half: &[PhaseStats], f: fn(&PhaseStats) -> u64| half.iter().map(f).max().unwrap_or(0);
        let (rss_first, rss_last) = (peak(first, |s| s.rss_kib), peak(last, |s| s.rss_kib));
        // Allocator noise and a cache still filling with the uncached keys: 10 % and 4 MiB.
        if rss_last > rss_first + rss_first / 10 + 4096 {
            failures.push(format!(
                "RSS grew: peak {rss_first} KiB in the first half, {rss_last} KiB in the last"
            ));
        }
        let (fds_first, fds_last) = (peak(first, |s| s.fds), peak(last, |s| s.fds));
        if fds_last > fds_first + 16 {
            failures.push(format!(
                "open files grew: peak {fds_first} in the first half, {fds_last} in the last"
            ));
        }
    }
    if recovered != Some(200) {
        failures.push(format!(
            "with the CMS back, a new key answered {recovered:?}"
        ));
    }
    if !alive {
        failures.push("the gateway exited".to_owned());
    }
    if log.contains("panicked") {
        failures.push("a panic in the gateway's log".to_owned());
    }
    if log.contains(CLIENT_SECRET) || log.contains(ADMIN_TOKEN) {
        failures.push("a secret in the gateway's log".to_owned());
    }
    failures
}

/// What the visitors ask for, and one key kept back for the recovery check.
fn targets() -> (Vec<Target>, String) {
    let content = reference_cms::Content::load(&reference_cms::default_content_dir())
        .expect("reference-cms content");
    let mut targets = Vec::new();
    let mut add = |path: String, kind: Kind| targets.push(Target { path, kind });
    for path in ["/portal/api/category/list", "/portal/api/site", "/portal/"] {
        add(path.to_owned(), Kind::Cached);
    }
    let mut uncached_details = Vec::new();
    for category in content.categories() {
        let articles = content.articles_in(Some(category.id));
        add(
            format!("/portal/api/category/getParentCategory?id={}", category.id),
            Kind::Cached,
        );
        if articles.is_empty() {
            continue;
        }
        add(
            format!(
                "/portal/api/article/list?categoryId={}&page=1&size=10",
                category.id
            ),
            Kind::Cached,
        );
        for page in 1..=articles.len().div_ceil(3) {
            add(
                format!(
                    "/portal/api/article/list?categoryId={}&page={page}&size=3",
                    category.id
                ),
                Kind::Uncached,
            );
        }
        for (i, article) in articles.iter().enumerate() {
            let path = format!("/portal/api/article/detail?id={}", article.id);
            if i % 2 == 0 {
                add(path, Kind::Cached);
            } else {
                uncached_details.push(path);
            }
        }
    }
    // One detail is never asked for during the soak: the recovery check's.
    let never_fetched = uncached_details.pop().expect("articles to keep back");
    for path in uncached_details {
        add(path, Kind::Uncached);
    }
    add(
        "/portal/api/files/covers/train.svg".to_owned(),
        Kind::Uncached,
    );
    add(
        "/portal/api/article/detail?id=99999999".to_owned(),
        Kind::Uncached,
    );
    add(
        "/portal/api/article/detail?id=%E7%8F%AD".to_owned(),
        Kind::Invalid,
    );
    add(
        "/portal/api/article/list?categoryId=21&page=-1".to_owned(),
        Kind::Invalid,
    );
    add("/portal/api/nothing-here".to_owned(), Kind::Invalid);
    (targets, never_fetched)
}

async fn start_cms() -> SocketAddr {
    let mut settings = reference_cms::Settings::from_env();
    settings.content_dir = reference_cms::default_content_dir();
    settings.client_secret = CLIENT_SECRET.to_owned();
    settings.delay = Duration::ZERO;
    let content = reference_cms::Content::load(&settings.content_dir).expect("content");
    let app =
        reference_cms::router(&settings, content).layer(axum::middleware::from_fn(count_cms_call));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("cms port");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// A TCP proxy in front of the CMS, following `mode`: closed while down (new connections refused,
/// open ones cut), forwarding while up, and while slow holding the start of each answer for 0–2×
/// the gateway's time-out (so about half of the calls time out).
async fn flapping_proxy(cms: SocketAddr, mode: watch::Receiver<Cms>) -> SocketAddr {
    let addr = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("proxy port")
        .local_addr()
        .unwrap();
    tokio::spawn(async move {
        let mut mode = mode;
        let mut seed = 1u64;
        loop {
            while *mode.borrow_and_update() == Cms::Down {
                if mode.changed().await.is_err() {
                    return;
                }
            }
            let listener = loop {
                match TcpListener::bind(addr).await {
                    Ok(l) => break l,
                    Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                }
            };
            let mut open: Vec<AbortHandle> = Vec::new();
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        if let Ok((client, _)) = accepted {
                            seed += 1;
                            open.retain(|h| !h.is_finished());
                            open.push(tokio::spawn(forward(client, cms, mode.clone(), seed)).abort_handle());
                        }
                    }
                    changed = mode.changed() => {
                        if changed.is_err() {
                            return;
                        }
                        if *mode.borrow_and_update() == Cms::Down {
                            open.iter().for_each(AbortHandle::abort);
                            break;
                        }
                    }
                }
            }
        }
    });
    addr
}

async fn forward(
    client: TcpStream,
    cms: SocketAddr,
    mode: watch::Receiver<Cms>,
    seed: u64,
) -> std::io::Result<()> {
    let upstream = TcpStream::connect(cms).await?;
    let (mut client_read, mut client_write) = client.into_split();
    let (mut cms_read, mut cms_write) = upstream.into_split();
    // Set when a request went in: the next bytes out are the start of its answer, which is what a
    // slow CMS (a slow query) holds up; a body stalled midway is the hostile tests' case.
    let asked = std::sync::atomic::AtomicBool::new(false);
    let requests = async {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = client_read.read(&mut buf).await?;
            if n == 0 {
                return cms_write.shutdown().await;
            }
            asked.store(true, Ordering::Relaxed);
            cms_write.write_all(&buf[..n]).await?;
        }
    };
    let answers = async {
        let mut rng = Rng(seed);
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = cms_read.read(&mut buf).await?;
            if n == 0 {
                return client_write.shutdown().await;
            }
            if asked.swap(false, Ordering::Relaxed) && *mode.borrow() == Cms::Slow {
                let max = UPSTREAM_TIMEOUT.as_millis() as u64 * 2;
                tokio::time::sleep(Duration::from_millis(rng.below(max))).await;
            }
            client_write.write_all(&buf[..n]).await?;
        }
    };
    tokio::try_join!(requests, answers).map(|_| ())
}

fn start_gateway(
    args: &Args,
    work: &Path,
    listen: SocketAddr,
    cms: SocketAddr,
    log: &Path,
) -> tokio::process::Child {
    // Production settings: JSON access lines at info, to a file; cache times short, so that
    // refreshes fall inside the outages and the stale allowance is what carries the cached keys.
    let config = format!(
        r#"
[server]
listen = "{listen}"
static_dir = "{static_dir}"
log_format = "json"
log_level = "info"
watch_config = false

[upstream]
base_url = "http://{cms}/"
client_id = "portal-web"
client_secret = "{CLIENT_SECRET}"
timeout = "{timeout}ms"
connect_timeout = "500ms"

[site]
company_name = "云川陆港国际物流集团有限公司"

[cache]
default_ttl = "2s"
not_found_ttl = "2s"
stale_while_revalidate = "1s"
stale_if_error = "10m"

[limits]
per_client_per_second = 1000000
per_client_cms_per_second = 1000000
per_client_cms_burst = 1000000
per_client_burst = 1000000
per_client_renders = 1000000
per_client_files = 1000000
per_client_searches = 1000000

[admin]
token = "{ADMIN_TOKEN}"
"#,
        static_dir = args.static_dir.display(),
        timeout = UPSTREAM_TIMEOUT.as_millis(),
    );
    gateway_process::start(&args.gateway, work, &config, log)
}

/// The gateway's count of its CMS calls, from `/metrics`.
async fn upstream_attempts(client: &reqwest::Client, base: &str) -> u64 {
    let Ok(response) = client.get(format!("{base}/metrics")).send().await else {
        return 0;
    };
    let text = response.text().await.unwrap_or_default();
    text.lines()
        .filter(|l| l.starts_with("portal_upstream_duration_seconds_count"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

fn free_port() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
}

fn rss_kib(pid: u32) -> u64 {
    gateway_process::status_kib(pid, "VmRSS:")
}

fn open_fds(pid: u32) -> u64 {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count() as u64)
}

/// xorshift64: the visitors' picks and the slow phase's delays, reproducible run to run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}
