//! A shared tier that fails or turns hostile (red team round three, rows 4, 9, 13 and 16): a
//! gateway whose `[cache.shared]` is signed (`signing_key`) and reached through a relay the suite
//! switches, in front of a real `redis-server`:
//! - refused at the start: `portal_shared_cache_up 0` is in `/metrics` from the first scrape (row
//!   13: it never appeared, so the alert on it never fired), and the tier comes up once Redis does;
//! - silent (every packet lost, no reset): the tier goes off, visitors are served, and it is up
//!   again within `BACK_WITHIN` of Redis answering (row 9: it stayed off for good);
//! - a spoofed Redis sending an endless line, then a number of endless digits (row 4: RSS 2.2 GiB
//!   in 20 s, every request ~16 s);
//! - an entry written into Redis by someone else, a real entry's fields with a body of their own
//!   (row 16: a fake 紧急通知 served by every replica): never served.
//!
//! Each case runs beside the visitor and the prober, judged as the client attacks are.

use std::{
    net::SocketAddr,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU8, Ordering},
    },
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

use crate::{DemoCms, Prober, gateway_process, judged, visitor};

/// How long each case runs.
const CASE: Duration = Duration::from_secs(5);
/// How soon after Redis answers again the tier must be up.
const BACK_WITHIN: Duration = Duration::from_secs(15);
/// The tier's key prefix in this suite.
const PREFIX: &str = "hostile:";
/// The tier's signing key in this suite: a secret, looked for in the logs as the others are.
pub const SIGNING_KEY: &str = "hostile-suite-signing-key-41c7e9b2";
/// What the relay sends a spoofed connection at most (the gateway must hang up long before).
const SPOOF_BOUND: usize = 512 * 1024 * 1024;

/// What the relay does with a connection opened while it is set so; a connection relayed through
/// goes silent when the relay is switched away from `Through`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum RelayMode {
    Refused,
    Through,
    Silent,
    EndlessLine,
    EndlessNumber,
}

impl RelayMode {
    const ALL: [RelayMode; 5] = [
        RelayMode::Refused,
        RelayMode::Through,
        RelayMode::Silent,
        RelayMode::EndlessLine,
        RelayMode::EndlessNumber,
    ];

    fn from_u8(n: u8) -> RelayMode {
        RelayMode::ALL[usize::from(n)]
    }
}

struct Relay {
    addr: SocketAddr,
    mode: Arc<AtomicU8>,
}

impl Relay {
    async fn start(redis: u16, mode: RelayMode) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a relay port");
        let addr = listener.local_addr().expect("the relay's address");
        let shared = Arc::new(AtomicU8::new(mode as u8));
        let switch = Arc::clone(&shared);
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                tokio::spawn(relay_one(inbound, redis, Arc::clone(&switch)));
            }
        });
        Relay { addr, mode: shared }
    }

    fn set(&self, mode: RelayMode) {
        self.mode.store(mode as u8, Ordering::SeqCst);
    }
}

/// Reads and drops what the gateway sends until it hangs up: a Redis that never answers.
async fn swallow(mut inbound: TcpStream) {
    let mut buf = [0u8; 8192];
    while matches!(inbound.read(&mut buf).await, Ok(n) if n > 0) {}
}

/// A spoofed Redis: whatever the gateway asks, `opening` and then `filler` for as long as it reads.
async fn spoof(mut inbound: TcpStream, opening: &'static [u8], filler: u8) {
    let mut asked = [0u8; 4096];
    let _ = inbound.read(&mut asked).await;
    if inbound.write_all(opening).await.is_err() {
        return;
    }
    let chunk = vec![filler; 64 * 1024];
    let mut sent = 0;
    while sent < SPOOF_BOUND && inbound.write_all(&chunk).await.is_ok() {
        sent += chunk.len();
    }
}

async fn relay_one(mut inbound: TcpStream, redis: u16, mode: Arc<AtomicU8>) {
    match RelayMode::from_u8(mode.load(Ordering::SeqCst)) {
        RelayMode::Refused => {}
        RelayMode::Silent => swallow(inbound).await,
        RelayMode::EndlessLine => spoof(inbound, b"+", b'a').await,
        RelayMode::EndlessNumber => spoof(inbound, b"(", b'7').await,
        RelayMode::Through => {
            let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", redis)).await else {
                return;
            };
            let (mut a, mut b) = ([0u8; 8192], [0u8; 8192]);
            loop {
                let (n, from_gateway) = tokio::select! {
                    n = inbound.read(&mut a) => (n, true),
                    n = outbound.read(&mut b) => (n, false),
                };
                let Ok(n) = n else { return };
                if n == 0 {
                    return;
                }
                if RelayMode::from_u8(mode.load(Ordering::SeqCst)) != RelayMode::Through {
                    // Cut off: no reset, no close, nothing relayed any more.
                    drop(outbound);
                    return swallow(inbound).await;
                }
                let written = if from_gateway {
                    outbound.write_all(&a[..n]).await
                } else {
                    inbound.write_all(&b[..n]).await
                };
                if written.is_err() {
                    return;
                }
            }
        }
    }
}

/// A free loopback port (taken, then let go).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// The tier's state as `/readyz` says it ("up", "down").
async fn tier(client: &reqwest::Client, base: &str) -> String {
    let Ok(answer) = client.get(format!("{base}/readyz")).send().await else {
        return "no answer".to_owned();
    };
    let body: serde_json::Value = answer.json().await.unwrap_or_default();
    body["result"]["sharedCache"]
        .as_str()
        .unwrap_or("absent")
        .to_owned()
}

async fn tier_up_within(client: &reqwest::Client, base: &str, within: Duration) -> bool {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if tier(client, base).await == "up" {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// `portal_shared_cache_up`'s value in `/metrics`, if it is there.
async fn up_metric(client: &reqwest::Client, base: &str) -> Option<String> {
    let text = client
        .get(format!("{base}/metrics"))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("portal_shared_cache_up "))
        .map(str::to_owned)
}

/// Writes, as someone with write access to Redis would, a copy of the entry the gateway stored
/// for `real`'s detail under the key of `target`'s detail, with a body of one's own; the entry's
/// key.
async fn forge(redis: u16, real: &str, target: &str) -> Result<String, String> {
    let client = redis::Client::open(format!("redis://127.0.0.1:{redis}/"))
        .map_err(|e| format!("redis: {e}"))?;
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .map_err(|e| format!("redis: {e}"))?;
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{PREFIX}*"))
        .query_async(&mut conn)
        .await
        .map_err(|e| format!("redis: {e}"))?;
    let suffix = format!("id={real}");
    let stored = keys
        .iter()
        .find(|k| k.contains("article/detail") && k.ends_with(&suffix))
        .ok_or_else(|| format!("no stored entry for article {real} among {keys:?}"))?;
    let fields: Vec<(String, Vec<u8>)> = redis::cmd("HGETALL")
        .arg(stored)
        .query_async(&mut conn)
        .await
        .map_err(|e| format!("redis: {e}"))?;
    let forged_body =
        format!(r#"{{"code":200,"result":{{"id":{target},"title":"伪造的紧急通知"}}}}"#);
    // The body and its tags of one's own; its compressed copies and typed value left out (they
    // would not match the body), everything else as the gateway wrote it.
    let fields: Vec<(String, Vec<u8>)> = fields
        .into_iter()
        .filter(|(name, _)| !matches!(name.as_str(), "g" | "r" | "v"))
        .map(|(name, value)| match name.as_str() {
            "b" => (name, forged_body.clone().into_bytes()),
            "tags" => (name, format!("article:{target}").into_bytes()),
            _ => (name, value),
        })
        .collect();
    let key = format!("{}id={target}", stored.trim_end_matches(&suffix));
    let mut set = redis::cmd("HSET");
    set.arg(&key);
    for (name, value) in &fields {
        set.arg(name).arg(value.as_slice());
    }
    let _: () = set
        .query_async(&mut conn)
        .await
        .map_err(|e| format!("redis: {e}"))?;
    Ok(key)
}

/// Two articles of category 21, by id.
async fn two_articles(client: &reqwest::Client, base: &str) -> Result<(String, String), String> {
    let list: serde_json::Value = client
        .get(format!(
            "{base}/portal/api/article/list?categoryId=21&page=1&size=2"
        ))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let id = |i: usize| list["result"]["content"][i]["id"].to_string();
    match (id(0), id(1)) {
        (a, b) if a != "null" && b != "null" => Ok((a, b)),
        _ => Err(format!("no two articles in {list}")),
    }
}

/// Runs the shared-tier cases against a gateway of their own in front of `demo`; the failures.
pub async fn cases(
    gateway_bin: &Path,
    static_dir: &Path,
    work: &Path,
    demo: &DemoCms,
    limit_mib: u64,
) -> Vec<String> {
    let redis_port = free_port();
    let mut redis_server = match tokio::process::Command::new("redis-server")
        .args(["--port", &redis_port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no"])
        .stdout(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return vec![format!("shared tier: starting redis-server: {e}")],
    };
    let relay = Relay::start(redis_port, RelayMode::Refused).await;
    let listen = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let config = demo.config(
        listen,
        static_dir,
        &format!(
            "[cache.shared]\nurl = \"redis://{relay}/\"\nprefix = \"{PREFIX}\"\nsigning_key = \"{SIGNING_KEY}\"\n",
            relay = relay.addr
        ),
    );
    let work = work.join("shared-tier");
    std::fs::create_dir_all(&work).expect("work directory");
    let mut gateway =
        gateway_process::start(gateway_bin, &work, &config, &work.join("gateway.log"));
    let pid = gateway.id().expect("the gateway's pid");
    let base = format!("http://{listen}");
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("a client");
    gateway_process::wait_ready(&client, &base).await;
    let mut failures = Vec::new();

    // Row 13: down from the start, and said so.
    match up_metric(&client, &base).await.as_deref() {
        Some("0") => println!(
            "{:<46} portal_shared_cache_up 0 from the start",
            "redis: refused at the start"
        ),
        other => failures.push(format!(
            "redis refused at the start: portal_shared_cache_up is {other:?} in /metrics, not 0"
        )),
    }
    relay.set(RelayMode::Through);
    if !tier_up_within(&client, &base, BACK_WITHIN).await {
        failures.push(format!(
            "redis answering after the start: the tier not up within {} s",
            BACK_WITHIN.as_secs()
        ));
        let _ = redis_server.start_kill();
        return failures;
    }
    if up_metric(&client, &base).await.as_deref() != Some("1") {
        failures.push("redis up: portal_shared_cache_up is not 1".to_owned());
    }

    let prober = Prober::start(base.clone());
    let cut_offs = [
        ("redis: cut off silently (no reset)", RelayMode::Silent),
        ("redis: spoofed, an endless line", RelayMode::EndlessLine),
        (
            "redis: spoofed, a number of endless digits",
            RelayMode::EndlessNumber,
        ),
    ];
    for (round, (name, path)) in cut_offs.into_iter().enumerate() {
        for tries in 1..=2 {
            relay.set(path);
            let from = Instant::now();
            let seen = visitor(base.clone(), 40 + round * 2 + tries, from + CASE).await;
            // The case did what it says: the tier noticed and went off.
            let during = tier(&client, &base).await;
            relay.set(RelayMode::Through);
            if during != "down" {
                failures.push(format!(
                    "{name}: the tier was {during} at the end, not down"
                ));
            }
            let (worst, probes) = prober.worst_between(from, Instant::now());
            let alive = gateway.try_wait().ok().flatten().is_none();
            let rss = gateway_process::status_kib(pid, "VmRSS:") / 1024;
            match judged(name, tries, alive, (worst, probes), rss, seen) {
                Ok(true) => continue,
                Ok(false) => {}
                Err(failure) => {
                    failures.push(failure);
                    if !alive {
                        return failures;
                    }
                }
            }
            if !tier_up_within(&client, &base, BACK_WITHIN).await {
                failures.push(format!(
                    "{name}: the tier not up again within {} s of Redis answering",
                    BACK_WITHIN.as_secs()
                ));
            }
            break;
        }
    }

    // Row 16: an entry of someone else's making.
    let name = "redis: an entry forged by someone else";
    let from = Instant::now();
    let forged = async {
        let (real, target) = two_articles(&client, &base).await?;
        client
            .get(format!("{base}/portal/api/article/detail?id={real}"))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        // Stored in Redis off the request's path.
        tokio::time::sleep(Duration::from_millis(300)).await;
        forge(redis_port, &real, &target).await?;
        let answer = client
            .get(format!("{base}/portal/api/article/detail?id={target}"))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = answer.status();
        let body = answer.text().await.map_err(|e| e.to_string())?;
        if status != 200 || body.contains("伪造的紧急通知") {
            return Err(format!("article {target}: {status} {body}"));
        }
        // Read, and refused for its signature (not missed, not refused for its shape).
        let metrics = client
            .get(format!("{base}/metrics"))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .text()
            .await
            .map_err(|e| e.to_string())?;
        let refused = metrics
            .lines()
            .find_map(|l| {
                l.strip_prefix("portal_shared_cache_rejected_total{reason=\"signature\"} ")
            })
            .and_then(|n| n.trim().parse::<f64>().ok())
            .unwrap_or(0.0);
        if refused < 1.0 {
            return Err(format!(
                "article {target} loaded from the CMS, but no entry was refused for its signature"
            ));
        }
        Ok(format!(
            "article {target} from the CMS, the forged entry refused for its signature"
        ))
    }
    .await;
    let (worst, probes) = prober.worst_between(from, Instant::now());
    let rss = gateway_process::status_kib(pid, "VmRSS:") / 1024;
    println!(
        "{name:<46} {:>7}ms {probes:>7} {rss:>9}  {}",
        worst.as_millis(),
        forged.as_ref().unwrap_or_else(|e| e)
    );
    if let Err(e) = forged {
        failures.push(format!("{name}: {e}"));
    }
    drop(prober);
    let peak_mib = gateway_process::status_kib(pid, "VmHWM:") / 1024;
    println!(
        "peak RSS beside the shared tier {peak_mib} MiB (the manifests' limit: {limit_mib} MiB)"
    );
    if peak_mib >= limit_mib {
        failures.push(format!(
            "shared tier: peak RSS {peak_mib} MiB, limit {limit_mib} MiB"
        ));
    }
    let _ = gateway.start_kill();
    let _ = gateway.wait().await;
    let _ = redis_server.start_kill();
    failures
}
