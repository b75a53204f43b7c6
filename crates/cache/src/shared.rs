//! The tier every replica shares (Redis or Valkey, `[cache.shared]`): finished answers with their
//! encodings, a short lock per key so replicas that miss together make one CMS call, tag sets for
//! purges, and a channel that carries purges to every replica's memory.
//!
//! Optional and never in a visitor's way: every command is bounded by `cache.shared.timeout`;
//! the first failure switches the tier off (one log line, `portal_shared_cache_up` 0) and a
//! background probe switches it on again once Redis answers, so a replica goes on with its own
//! memory while Redis is down or slow.
//!
//! Keys, under the configured prefix `P`: `P e:<cache key>` a hash (`s` status, `t` stored, Unix
//! ms, `c` media type, `b`/`g`/`r` identity, gzip and brotli bodies, `v` the typed content value (JSON of
//! `model::Content`, content answers only), `tags`, `p` when soft-purged, `o` the replica that
//! stored it: its host name and process id, for the admin cache view) expiring with
//! the entry's TTL plus its stale allowance; `P t:<tag>` the set of cache keys carrying a tag;
//! `P l:<cache key>` the lock of the replica loading it; `P purge` the purge channel.

use std::{
    collections::HashMap,
    sync::{
        Arc, Weak,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use arc_swap::ArcSwapOption;
use axum::http::StatusCode;
use bytes::Bytes;
use futures_util::StreamExt;
use hmac::{Hmac, KeyInit, Mac};
use redis::{
    AsyncConnectionConfig, ConnectionAddr,
    aio::{MultiplexedConnection, PubSub},
};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use super::{Clock, SharedCacheConfig};
use super::{Entry, MediaType, Policy, PurgeOrigin, ResponseCache, Source};

/// How long a tag set outlives its last write, at least: longer than any entry it names.
const TAG_SET_FLOOR: Duration = Duration::from_secs(24 * 3600);
/// How often a replica waiting on another's load looks for the entry.
const POLL: Duration = Duration::from_millis(20);
/// How often the tier is probed while off, and the pause between two subscriber connections.
const PROBE: Duration = Duration::from_secs(1);

/// What a purge reaches. Sent to every replica as it is (JSON on the purge channel).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Purge {
    /// Entries carrying any of these tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Entries whose key starts with any of these (`""` is every entry).
    #[serde(default)]
    pub prefixes: Vec<String>,
    /// Delete rather than mark stale.
    #[serde(default)]
    pub hard: bool,
    /// Keys to drop from memory only: a replica loaded them again into the shared tier, which
    /// the next request reads.
    #[serde(default)]
    pub evict: Vec<String>,
}

impl Purge {
    /// Whether `key` with `entry`'s tags is reached (evictions aside).
    pub fn reaches(&self, key: &str, entry: &Entry) -> bool {
        self.prefixes.iter().any(|p| key.starts_with(p.as_str()))
            || entry.tags.iter().any(|t| self.tags.contains(t))
    }
}

#[derive(Serialize, Deserialize)]
struct Notice {
    /// The replica that sent it, which has applied it already.
    origin: String,
    /// When it was sent (Unix ms), for `portal_cache_purge_lag_seconds`; absent from a notice
    /// of a version before it, which is applied all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sent_ms: Option<u64>,
    #[serde(flatten)]
    purge: Purge,
}

fn unix_ms(at: SystemTime) -> u64 {
    u64::try_from(
        at.duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis(),
    )
    .unwrap_or(u64::MAX)
}

/// What a replica about to call the CMS for a key learned from the others.
pub enum Coordinated {
    /// Another replica has just stored a fresh answer.
    Found(Box<Entry>),
    /// This replica holds the key's lock: it calls the CMS and stores the answer.
    Load,
    /// The tier is off: this replica is on its own.
    Alone,
}

pub struct SharedTier {
    client: redis::Client,
    connection: ArcSwapOption<MultiplexedConnection>,
    up: AtomicBool,
    timeout: Duration,
    prefix: String,
    /// This replica's name on the channel and in the locks it holds.
    id: String,
    /// This replica's name for people (host name and process id), written with what it stores.
    replica: Arc<str>,
    purge_script: redis::Script,
    unlock_script: redis::Script,
    get_script: redis::Script,
    lock_script: redis::Script,
    /// The cache's clock (`ResponseCache::new` hands it over): the ages read here are its.
    clock: Clock,
    /// Told when the tier answers again after it was down: the purge channel's subscriber
    /// connects afresh (its connection may be as dead as the one that failed, yet never say so).
    back: Arc<tokio::sync::Notify>,
    /// Whether the tier has answered since the start (its first answer is no coming back).
    answered_before: AtomicBool,
    /// Signs what this replica stores and checks what it reads (`cache.shared.signing_key`).
    signer: Option<Signer>,
}

/// The field that holds an entry's signature.
const SIGNATURE: &str = "h";

/// HMAC-SHA256 under `cache.shared.signing_key`, over an entry's Redis key and its fields (each
/// name, length and bytes, in the order of their names), all but the signature and the purge
/// mark (`p`, which the purge script sets; a forged one only makes a replica load the key again).
/// With write access to Redis, one could otherwise store a page of one's own (a fake 紧急通知)
/// that every replica served; what it can still do is put back an entry the gateway once wrote
/// for the same key, or delete entries.
struct Signer {
    mac: Hmac<Sha256>,
}

impl Signer {
    fn new(key: &str) -> Self {
        Self {
            mac: Hmac::<Sha256>::new_from_slice(key.as_bytes())
                .expect("HMAC takes keys of any length"),
        }
    }

    fn mac<'a>(
        &self,
        redis_key: &str,
        fields: impl Iterator<Item = (&'a str, &'a [u8])>,
    ) -> Hmac<Sha256> {
        let mut fields: Vec<_> = fields
            .filter(|(name, _)| *name != SIGNATURE && *name != "p")
            .collect();
        fields.sort_unstable_by_key(|(name, _)| *name);
        let mut mac = self.mac.clone();
        for part in std::iter::once(("", redis_key.as_bytes())).chain(fields) {
            for bytes in [part.0.as_bytes(), part.1] {
                mac.update(&(bytes.len() as u64).to_le_bytes());
                mac.update(bytes);
            }
        }
        mac
    }

    fn sign<'a>(
        &self,
        redis_key: &str,
        fields: impl Iterator<Item = (&'a str, &'a [u8])>,
    ) -> Vec<u8> {
        self.mac(redis_key, fields).finalize().into_bytes().to_vec()
    }

    /// Whether `fields` carry the signature this key makes of them.
    fn check(&self, redis_key: &str, fields: &HashMap<String, Vec<u8>>) -> bool {
        let Some(signature) = fields.get(SIGNATURE) else {
            return false;
        };
        self.mac(
            redis_key,
            fields.iter().map(|(n, v)| (n.as_str(), v.as_slice())),
        )
        .verify_slice(signature)
        .is_ok()
    }
}

impl SharedTier {
    /// The tier for `config`, off until the background task connects (`start`). `None` without
    /// a URL; an error for a URL the client does not accept (its text is not repeated: it may
    /// hold a password).
    pub fn new(config: &SharedCacheConfig) -> Result<Option<Self>, redis::RedisError> {
        let Some(url) = &config.url else {
            return Ok(None);
        };
        let client = redis::Client::open(url.expose_secret())?;
        let id = format!(
            "{}-{}",
            std::process::id(),
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos()
        );
        Ok(Some(Self {
            client,
            connection: ArcSwapOption::empty(),
            up: AtomicBool::new(false),
            timeout: config.timeout,
            prefix: config.prefix.clone(),
            id,
            replica: Arc::from(replica_name()),
            purge_script: redis::Script::new(PURGE_LUA),
            unlock_script: redis::Script::new(UNLOCK_LUA),
            get_script: redis::Script::new(GET_LUA),
            lock_script: redis::Script::new(LOCK_LUA),
            clock: Clock::default(),
            back: Arc::new(tokio::sync::Notify::new()),
            answered_before: AtomicBool::new(false),
            signer: config
                .signing_key
                .as_ref()
                .map(|key| Signer::new(key.expose_secret())),
        }))
    }

    /// This tier, reading ages on `clock` (the cache's).
    pub(super) fn on(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Connects in the background, probes while off, and applies other replicas' purges to
    /// `cache`'s memory.
    pub(super) fn start<E: super::LoadError>(cache: &Arc<ResponseCache<E>>) {
        let weak = Arc::downgrade(cache);
        tokio::spawn(keep_connected(weak.clone()));
        tokio::spawn(subscribe(weak));
        portal_core::metrics::shared_cache_up(false);
    }

    /// This replica's name as the shared entries it stores record it.
    pub fn replica(&self) -> &str {
        &self.replica
    }

    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Relaxed)
    }

    fn entry_key(&self, key: &str) -> String {
        format!("{}e:{key}", self.prefix)
    }

    fn channel(&self) -> String {
        format!("{}purge", self.prefix)
    }

    /// One command or pipeline, bounded by the time-out; a failure switches the tier off.
    async fn run<T, F>(
        &self,
        what: &'static str,
        command: impl FnOnce(MultiplexedConnection) -> F,
    ) -> Option<T>
    where
        F: Future<Output = redis::RedisResult<T>>,
    {
        if !self.is_up() {
            return None;
        }
        let connection = self.connection.load_full()?;
        match tokio::time::timeout(
            self.timeout,
            command(MultiplexedConnection::clone(&connection)),
        )
        .await
        {
            Ok(Ok(value)) => Some(value),
            Ok(Err(err)) => {
                self.went_down(what, &err.to_string());
                None
            }
            Err(_) => {
                self.went_down(what, "timed out");
                None
            }
        }
    }

    fn went_down(&self, what: &str, error: &str) {
        portal_core::metrics::shared_cache_error();
        if self.up.swap(false, Ordering::Relaxed) {
            portal_core::metrics::shared_cache_up(false);
            tracing::warn!(
                command = what,
                error,
                "the shared cache (Redis) failed: going on with this replica's memory alone until it answers again"
            );
        }
    }

    /// The entry stored under `key`, if any (fresh or not: the caller judges). The tier is
    /// shared, not trusted: an entry is read only within `MAX_ENTRY_BYTES`, and only if it is
    /// one this gateway could have written for `key` (`decode`); any other is counted in
    /// `portal_shared_cache_rejected_total{reason}` and is no entry, so the key is loaded afresh.
    pub async fn get(&self, key: &str) -> Option<Entry> {
        let mut invocation = self.get_script.key(self.entry_key(key));
        invocation.arg(MAX_ENTRY_BYTES);
        let value: redis::Value = self
            .run("get", move |mut c| async move {
                invocation.invoke_async(&mut c).await
            })
            .await?;
        let fields = match value {
            redis::Value::SimpleString(refused) => {
                portal_core::metrics::shared_cache_rejected(if refused == "too_large" {
                    "too_large"
                } else {
                    "damaged"
                });
                return None;
            }
            redis::Value::Array(items) => {
                // HGETALL's flat list of names and values, as the script returns it.
                let mut fields = HashMap::new();
                for pair in items.chunks(2) {
                    let [name, value] = pair else { break };
                    let name: String = redis::from_redis_value(name).ok()?;
                    let value: Vec<u8> = redis::from_redis_value(value).ok()?;
                    fields.insert(name, value);
                }
                fields
            }
            value => redis::from_redis_value::<HashMap<String, Vec<u8>>>(&value).ok()?,
        };
        if fields.is_empty() {
            return None;
        }
        let signed = match &self.signer {
            Some(signer) => signer.check(&self.entry_key(key), &fields),
            None => true,
        };
        let decoded = if signed {
            decode(key, fields, self.clock.wall())
        } else {
            Err("signature")
        };
        match decoded {
            Ok(mut entry) => {
                entry.stored = self.clock.stamp_of(entry.stored_at);
                Some(entry)
            }
            Err(reason) => {
                portal_core::metrics::shared_cache_rejected(reason);
                tracing::warn!(
                    key,
                    reason,
                    "an entry of the shared cache is not one the gateway writes: ignored"
                );
                None
            }
        }
    }

    /// Stores `entry` (its encodings, tags and stored time) for `keep_for`, and names it in its
    /// tags' sets.
    pub async fn put(&self, key: &str, entry: &Entry, keep_for: Duration) {
        let redis_key = self.entry_key(key);
        let keep_ms = u64::try_from(keep_for.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let stored_ms = entry
            .stored_at
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis()
            .to_string();
        let mut pipe = redis::pipe();
        pipe.atomic().del(&redis_key).ignore();
        let status = entry.status.as_u16().to_string();
        let tags = entry.tags.join("\n");
        let gzip = entry.gzip_made();
        // The typed value beside its encodings: another replica's sitemap and feeds read it
        // without parsing the API's bytes.
        let value = entry
            .content
            .as_ref()
            .and_then(|c| serde_json::to_vec(c).ok());
        let mut fields: Vec<(&str, &[u8])> = vec![
            ("s", status.as_bytes()),
            ("c", entry.media_type.as_str().as_bytes()),
            ("t", stored_ms.as_bytes()),
            ("b", entry.body.bytes.as_ref()),
            ("tags", tags.as_bytes()),
            ("o", self.replica.as_bytes()),
        ];
        if let Some(gzip) = &gzip {
            fields.push(("g", gzip.bytes.as_ref()));
        }
        if let Some(br) = &entry.br {
            fields.push(("r", br.bytes.as_ref()));
        }
        if let Some(value) = &value {
            fields.push(("v", value));
        }
        let signature = self
            .signer
            .as_ref()
            .map(|signer| signer.sign(&redis_key, fields.iter().copied()));
        if let Some(signature) = &signature {
            fields.push((SIGNATURE, signature));
        }
        let mut hset = redis::cmd("HSET");
        hset.arg(&redis_key);
        for (name, value) in &fields {
            hset.arg(*name).arg(*value);
        }
        pipe.add_command(hset).ignore();
        pipe.cmd("PEXPIRE").arg(&redis_key).arg(keep_ms).ignore();
        let tag_ms = keep_ms.max(TAG_SET_FLOOR.as_millis() as u64);
        for tag in entry.tags.iter() {
            let set = format!("{}t:{tag}", self.prefix);
            pipe.cmd("SADD").arg(&set).arg(key).ignore();
            pipe.cmd("PEXPIRE").arg(&set).arg(tag_ms).ignore();
        }
        let _: Option<()> = self
            .run("HSET", move |mut c| async move {
                pipe.query_async(&mut c).await
            })
            .await;
    }

    /// Waits for whichever replica loads `key`, or takes the load: the lock is held at most the
    /// upstream time-out (`policy.wait`), so a replica that dies holding it delays the others by
    /// that much, not forever. `looked`: the caller has just found no entry (one round trip less
    /// on every miss).
    ///
    /// The lock is taken and the entry's state read in one script: between a replica's look and
    /// its lock, the holder may store its answer and let the lock go, and a lock taken then would
    /// call the CMS a second time for what is already stored (two to four calls for one key
    /// across three replicas under 300 concurrent requests, before this).
    pub async fn coordinate(&self, key: &str, policy: &Policy, looked: bool) -> Coordinated {
        let lock_key = format!("{}l:{key}", self.prefix);
        let lock_ms = u64::try_from(policy.wait.as_millis()).unwrap_or(u64::MAX);
        let deadline = tokio::time::Instant::now() + policy.wait;
        let mut look = !looked;
        let mut waited = false;
        loop {
            if look
                && let Some(entry) = self.get(key).await
                && !entry.is_purged()
                && self.clock.since(entry.stored) < policy.ttl_of(&entry)
            {
                if waited {
                    portal_core::metrics::shared_cache_lock_wait(true);
                }
                return Coordinated::Found(Box::new(entry));
            }
            let mut invocation = self.lock_script.key(&lock_key);
            invocation
                .key(self.entry_key(key))
                .arg(&self.id)
                .arg(lock_ms);
            let taken: Option<redis::Value> = self
                .run("lock", move |mut c| async move {
                    invocation.invoke_async(&mut c).await
                })
                .await;
            match taken {
                None => return Coordinated::Alone,
                Some(redis::Value::Array(fields)) => {
                    if stored_fresh(&fields, policy, self.clock.wall())
                        && let Some(entry) = self.get(key).await
                        && !entry.is_purged()
                        && self.clock.since(entry.stored) < policy.ttl_of(&entry)
                    {
                        // Stored by the replica whose lock this one followed.
                        self.unlock(key).await;
                        if waited {
                            portal_core::metrics::shared_cache_lock_wait(true);
                        }
                        return Coordinated::Found(Box::new(entry));
                    }
                    return Coordinated::Load;
                }
                Some(_) if tokio::time::Instant::now() >= deadline => {
                    portal_core::metrics::shared_cache_lock_wait(false);
                    tracing::warn!(
                        key,
                        waited_ms = lock_ms,
                        "gave up waiting for another replica's load of this key: calling the CMS"
                    );
                    return Coordinated::Alone;
                }
                Some(_) => {
                    look = true;
                    waited = true;
                    tokio::time::sleep(POLL).await;
                }
            }
        }
    }

    /// Records `token` for `keep_for` unless it is already recorded: `Some(true)` the first time
    /// any replica records it, `Some(false)` after, `None` while the tier does not answer.
    pub async fn first_sighting(&self, token: &str, keep_for: Duration) -> Option<bool> {
        let key = format!("{}s:{token}", self.prefix);
        let keep_ms = u64::try_from(keep_for.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let set: Option<String> = self
            .run("SET NX", move |mut c| async move {
                redis::cmd("SET")
                    .arg(key)
                    .arg("1")
                    .arg("NX")
                    .arg("PX")
                    .arg(keep_ms)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Some(set.is_some())
    }

    /// Gives up this replica's lock on `key` (not another's that took it after ours expired).
    pub async fn unlock(&self, key: &str) {
        let lock_key = format!("{}l:{key}", self.prefix);
        let mut invocation = self.unlock_script.key(lock_key);
        invocation.arg(&self.id);
        let _: Option<i64> = self
            .run("unlock", move |mut c| async move {
                invocation.invoke_async(&mut c).await
            })
            .await;
    }

    /// Applies `purge` to the stored entries and tells every other replica. Returns the keys it
    /// reached here.
    pub async fn purge(&self, purge: &Purge) -> Vec<String> {
        let mut invocation = self.purge_script.prepare_invoke();
        invocation
            .arg(&self.prefix)
            .arg(glob_escape(&self.prefix))
            .arg(if purge.hard { "1" } else { "0" })
            .arg(purge.tags.len());
        for tag in &purge.tags {
            invocation.arg(tag);
        }
        for prefix in &purge.prefixes {
            invocation.arg(glob_escape(prefix));
        }
        let reached: Vec<String> = if purge.tags.is_empty() && purge.prefixes.is_empty() {
            Vec::new()
        } else {
            self.run("purge", move |mut c| async move {
                invocation.invoke_async(&mut c).await
            })
            .await
            .unwrap_or_default()
        };
        self.publish(purge).await;
        reached
    }

    /// Tells the other replicas (they apply it to their memory).
    pub async fn publish(&self, purge: &Purge) {
        let notice = Notice {
            origin: self.id.clone(),
            sent_ms: Some(unix_ms(SystemTime::now())),
            purge: purge.clone(),
        };
        let payload = serde_json::to_string(&notice).expect("a notice serialises");
        let channel = self.channel();
        let _: Option<i64> = self
            .run("PUBLISH", move |mut c| async move {
                redis::cmd("PUBLISH")
                    .arg(channel)
                    .arg(payload)
                    .query_async(&mut c)
                    .await
            })
            .await;
    }
}

/// Largest entry read back from the tier, its fields together: well above the largest answer
/// the gateway stores (a sitemap of thousands of articles, in three encodings), far below what
/// one value may hold (a 300 MB value took a replica to 930 MB before its read timed out).
const MAX_ENTRY_BYTES: u64 = 16 << 20;
/// How far ahead of this replica's clock an entry's stored time may be (clocks of replicas differ
/// by seconds); later, it would count as fresh for longer than its TTL.
const MAX_AHEAD: Duration = Duration::from_secs(60);

/// The media type the gateway stores under `key`: pages are HTML, feeds RSS, the sitemap XML,
/// every other key an API answer.
fn media_type_of(key: &str) -> MediaType {
    if key.starts_with("page/") {
        MediaType::Html
    } else if key.starts_with("feed/") {
        MediaType::Rss
    } else if key.starts_with("sitemap") {
        MediaType::Xml
    } else {
        MediaType::Json
    }
}

/// Whether `encoded`, decompressed by `decoder`, is `body` exactly (reading at most one byte
/// more than `body`, so a bomb costs nothing).
fn encodes(body: &[u8], decoder: impl std::io::Read) -> bool {
    use std::io::Read as _;
    let mut out = Vec::with_capacity(body.len());
    decoder
        .take(body.len() as u64 + 1)
        .read_to_end(&mut out)
        .is_ok()
        && out == body
}

/// An entry from its stored fields, if it is one this gateway could have written for `key`;
/// else why not (the `reason` of `portal_shared_cache_rejected_total`).
fn decode(
    key: &str,
    mut fields: HashMap<String, Vec<u8>>,
    now: SystemTime,
) -> Result<Entry, &'static str> {
    let text = |v: Vec<u8>| String::from_utf8(v).ok();
    let mut field = |name: &str| fields.remove(name).ok_or("damaged");
    let status = text(field("s")?)
        .and_then(|s| s.parse::<u16>().ok())
        .and_then(|s| StatusCode::from_u16(s).ok())
        .ok_or("damaged")?;
    // What the gateway keeps: an answer, or the not-found it keeps briefly. Never a status
    // without a body or one that changes the connection (101).
    if !matches!(status.as_u16(), 200 | 404 | 410) {
        return Err("status");
    }
    let media_type = text(field("c")?)
        .and_then(|c| MediaType::parse(&c))
        .ok_or("damaged")?;
    // (A feed or the sitemap that is not there is kept as the plain HTML 404 page.)
    let expected = media_type_of(key);
    let not_found_page = status == StatusCode::NOT_FOUND && media_type == MediaType::Html;
    if media_type != expected && !(not_found_page && expected != MediaType::Json) {
        return Err("type");
    }
    let stored_ms: u64 = text(field("t")?)
        .and_then(|t| t.parse().ok())
        .ok_or("damaged")?;
    let stored_at = UNIX_EPOCH + Duration::from_millis(stored_ms);
    if stored_at > now + MAX_AHEAD {
        return Err("future");
    }
    let body = Bytes::from(field("b")?);
    let gzip = fields.remove("g").map(Bytes::from);
    let br = fields.remove("r").map(Bytes::from);
    if gzip
        .as_ref()
        .is_some_and(|gz| !encodes(&body, flate2::read::GzDecoder::new(gz.as_ref())))
        || br
            .as_ref()
            .is_some_and(|br| !encodes(&body, brotli::Decompressor::new(br.as_ref(), 4096)))
    {
        return Err("encoding");
    }
    let tags = text(fields.remove("tags").unwrap_or_default()).ok_or("damaged")?;
    let entry = Entry::from_parts(media_type, status, body, gzip, br, stored_at).tagged(
        tags.split('\n')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
    );
    let entry = match fields.remove("v") {
        // A value that no longer reads (written by another version) is a missing entry.
        Some(value) => entry.holding(serde_json::from_slice(&value).map_err(|_| "damaged")?),
        None => entry,
    };
    if fields.contains_key("p") {
        entry.mark_purged();
    }
    let mut entry = entry;
    entry.source = Source::Shared {
        replica: fields.remove("o").and_then(text).map(Arc::from),
    };
    Ok(entry)
}

/// The name a person reads for this replica: the host's (a pod's name in Kubernetes) and the
/// process id, since one host may run several.
fn replica_name() -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| {
            std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .map(|h| h.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    format!("{host}/{}", std::process::id())
}

/// `text` matched literally by a Redis glob.
fn glob_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A connection to the server `client` names, whose replies are bounded (`resp_bounds.rs`): the
/// client's own connections buffer whatever a server sends.
async fn connect(
    client: &redis::Client,
) -> redis::RedisResult<crate::resp_bounds::Bounded<Box<dyn Stream>>> {
    let stream: Box<dyn Stream> = match &client.get_connection_info().addr {
        ConnectionAddr::Tcp(host, port) => {
            let stream = tokio::net::TcpStream::connect((host.as_str(), *port)).await?;
            stream.set_nodelay(true)?;
            Box::new(stream)
        }
        ConnectionAddr::Unix(path) => Box::new(tokio::net::UnixStream::connect(path).await?),
        _ => {
            return Err(redis::RedisError::from((
                redis::ErrorKind::InvalidClientConfig,
                "cache.shared.url: rediss:// is not built in; reach Redis over a private network or a TLS sidecar",
            )));
        }
    };
    Ok(crate::resp_bounds::Bounded::new(stream))
}

/// A connection to Redis, whichever kind.
trait Stream: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send {}
impl<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send> Stream for S {}

/// Connects, and while the tier is off probes it every second until it answers.
async fn keep_connected<E: super::LoadError>(cache: Weak<ResponseCache<E>>) {
    loop {
        let Some(cache) = cache.upgrade() else { return };
        let Some(tier) = cache.shared.as_ref() else {
            return;
        };
        if !tier.is_up() {
            probe(tier).await;
        }
        drop(cache);
        tokio::time::sleep(PROBE).await;
    }
}

async fn probe(tier: &SharedTier) {
    if tier.connection.load().is_none() {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(PROBE)
            .set_response_timeout(tier.timeout);
        let connected = tokio::time::timeout(PROBE * 2, async {
            let stream = connect(&tier.client).await?;
            let info = &tier.client.get_connection_info().redis;
            MultiplexedConnection::new_with_config(info, stream, config).await
        })
        .await;
        match connected {
            Ok(Ok((connection, driver))) => {
                // Reads the replies, and ends with the connection (dropped, or broken).
                tokio::spawn(driver);
                tier.connection.store(Some(Arc::new(connection)));
            }
            _ => return,
        }
    }
    let Some(connection) = tier.connection.load_full() else {
        return;
    };
    let mut connection = MultiplexedConnection::clone(&connection);
    let ping = redis::cmd("PING");
    match tokio::time::timeout(PROBE, ping.query_async::<String>(&mut connection)).await {
        Ok(Ok(_)) => {
            if !tier.up.swap(true, Ordering::Relaxed) {
                portal_core::metrics::shared_cache_up(true);
                if tier.answered_before.swap(true, Ordering::Relaxed) {
                    tier.back.notify_one();
                }
                tracing::info!(
                    "the shared cache (Redis) answers: replicas share answers, locks and purges"
                );
            }
        }
        // No answer on this connection: the next probe makes a new one. The connection manager
        // reconnects only when its connection says it broke; one whose path was dropped
        // silently (a firewall's idle timeout, a failed-over address) never says so, and a
        // probe on it kept the tier off for good after Redis answered again.
        _ => tier.connection.store(None),
    }
}

/// Listens on the purge channel for the life of the cache, reconnecting after a second. After a
/// reconnection every entry in memory is marked stale: a purge sent meanwhile was not heard.
async fn subscribe<E: super::LoadError>(cache: Weak<ResponseCache<E>>) {
    let mut heard_before = false;
    loop {
        let (client, channel, back) = {
            let Some(cache) = cache.upgrade() else { return };
            let Some(tier) = cache.shared.as_ref() else {
                return;
            };
            (tier.client.clone(), tier.channel(), Arc::clone(&tier.back))
        };
        let connected = tokio::time::timeout(PROBE, async {
            let stream = connect(&client).await?;
            let mut pubsub = PubSub::new(&client.get_connection_info().redis, stream).await?;
            pubsub.subscribe(&channel).await?;
            redis::RedisResult::Ok(pubsub)
        })
        .await;
        if let Ok(Ok(pubsub)) = connected {
            if heard_before && let Some(cache) = cache.upgrade() {
                let reached = cache
                    .purge_memory(
                        &Purge {
                            prefixes: vec![String::new()],
                            ..Purge::default()
                        },
                        PurgeOrigin::Reconnect,
                    )
                    .await;
                tracing::info!(
                    entries = reached.len(),
                    "the purge channel is back: entries in memory marked stale, as purges may have been missed"
                );
            }
            heard_before = true;
            let mut messages = pubsub.into_on_message();
            loop {
                // A subscription hears nothing whether no purge is sent or its connection died
                // silently: when the tier comes back after being down, it subscribes afresh.
                let message = tokio::select! {
                    message = messages.next() => message,
                    () = back.notified() => None,
                };
                let Some(message) = message else { break };
                let Ok(notice) = serde_json::from_slice::<Notice>(message.get_payload_bytes())
                else {
                    tracing::warn!("a message on the purge channel was not a purge notice");
                    continue;
                };
                let Some(cache) = cache.upgrade() else { return };
                let ours = cache.shared.as_ref().is_some_and(|t| t.id == notice.origin);
                if !ours {
                    cache.purge_memory(&notice.purge, PurgeOrigin::Pubsub).await;
                    // Clocks of two replicas differ: a lag "before" it was sent counts as none.
                    if let Some(sent) = notice.sent_ms {
                        let lag = unix_ms(SystemTime::now()).saturating_sub(sent);
                        portal_core::metrics::purge_lag(Duration::from_millis(lag));
                    }
                }
            }
        }
        tokio::time::sleep(PROBE).await;
    }
}

/// Marks (or deletes) the entries a purge reaches, server-side in one step, and returns their
/// cache keys. ARGV: prefix, prefix escaped for SCAN, hard ("1"), number of tags, the tags, then
/// the key prefixes escaped for SCAN.
const PURGE_LUA: &str = r"
local P, PE, hard, n = ARGV[1], ARGV[2], ARGV[3] == '1', tonumber(ARGV[4])
local seen, out = {}, {}
local function reach(k)
  if seen[k] then return end
  seen[k] = true
  local rk = P .. 'e:' .. k
  if hard then
    if redis.call('DEL', rk) == 1 then out[#out + 1] = k end
  elseif redis.call('EXISTS', rk) == 1 then
    redis.call('HSET', rk, 'p', '1')
    out[#out + 1] = k
  end
end
for i = 5, 4 + n do
  local set = P .. 't:' .. ARGV[i]
  for _, k in ipairs(redis.call('SMEMBERS', set)) do reach(k) end
  if hard then redis.call('DEL', set) end
end
for i = 5 + n, #ARGV do
  local cursor = '0'
  repeat
    local r = redis.call('SCAN', cursor, 'MATCH', PE .. 'e:' .. ARGV[i] .. '*', 'COUNT', 500)
    cursor = r[1]
    for _, rk in ipairs(r[2]) do reach(string.sub(rk, #P + 3)) end
  until cursor == '0'
end
return out
";

/// An entry's fields (`HGETALL`), unless it has more fields or bytes than the gateway writes:
/// then `too_large` instead, without a byte of it crossing the network. ARGV: the byte bound.
const GET_LUA: &str = r"
if redis.call('HLEN', KEYS[1]) > 16 then return {ok = 'too_large'} end
local total = 0
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  total = total + redis.call('HSTRLEN', KEYS[1], f)
end
if total > tonumber(ARGV[1]) then return {ok = 'too_large'} end
return redis.call('HGETALL', KEYS[1])
";

/// Takes the lock `KEYS[1]` for replica `ARGV[1]` for `ARGV[2]` ms: 0 when another holds it, else
/// the status, stored time and purge mark of the entry `KEYS[2]` (nils when there is none).
const LOCK_LUA: &str = r"
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
return redis.call('HMGET', KEYS[2], 's', 't', 'p')
";

/// Whether the fields `LOCK_LUA` read (`s`, `t`, `p`) are those of an entry still fresh under
/// `policy`, unpurged: one stored by another replica since this one looked.
fn stored_fresh(fields: &[redis::Value], policy: &Policy, now: SystemTime) -> bool {
    let text = |v: &redis::Value| redis::from_redis_value::<String>(v).ok();
    let [status, stored, purged] = fields else {
        return false;
    };
    if !matches!(purged, redis::Value::Nil) {
        return false;
    }
    let (Some(status), Some(stored)) = (
        text(status).and_then(|s| s.parse::<u16>().ok()),
        text(stored).and_then(|t| t.parse::<u64>().ok()),
    ) else {
        return false;
    };
    let ttl = if (200..300).contains(&status) {
        policy.ttl
    } else {
        policy.not_found_ttl
    };
    let age = now
        .duration_since(UNIX_EPOCH + Duration::from_millis(stored))
        .unwrap_or_default();
    age < ttl
}

const UNLOCK_LUA: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_of_either_version_are_read() {
        let old: Notice =
            serde_json::from_str(r#"{"origin":"1-2","tags":["articles"],"hard":false}"#).unwrap();
        assert_eq!(old.sent_ms, None);
        assert_eq!(old.purge.tags, ["articles"]);
        let new = serde_json::to_string(&Notice {
            origin: "1-2".into(),
            sent_ms: Some(5),
            purge: Purge::default(),
        })
        .unwrap();
        assert!(new.contains(r#""sent_ms":5"#), "{new}");
    }

    #[test]
    fn globs_match_keys_literally() {
        assert_eq!(
            glob_escape("article/list?categoryId=2*"),
            "article/list\\?categoryId=2\\*"
        );
        assert_eq!(glob_escape("a[b]\\"), "a\\[b\\]\\\\");
    }

    #[test]
    fn a_stored_entry_comes_back_whole() {
        let original = Entry::new(StatusCode::OK, Bytes::from("x".repeat(400)))
            .tagged(vec!["article:1".into(), "category:2".into()]);
        let mut fields = HashMap::new();
        fields.insert("s".to_owned(), b"200".to_vec());
        fields.insert("c".to_owned(), b"application/json".to_vec());
        let ms = original
            .stored_at
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis();
        fields.insert("t".to_owned(), ms.to_string().into_bytes());
        fields.insert("b".to_owned(), original.body.bytes.to_vec());
        fields.insert("g".to_owned(), original.gzip().unwrap().bytes.to_vec());
        fields.insert("r".to_owned(), original.br.as_ref().unwrap().bytes.to_vec());
        fields.insert("tags".to_owned(), b"article:1\ncategory:2".to_vec());
        let back = decode("category/list", fields.clone(), SystemTime::now()).unwrap();
        assert_eq!(
            back.etag, original.etag,
            "every replica gives the same ETag"
        );
        assert_eq!(
            back.br.as_ref().unwrap().bytes,
            original.br.as_ref().unwrap().bytes
        );
        assert_eq!(&*back.tags, &*original.tags);
        assert!(!back.is_purged());
        assert_eq!(back.source, Source::Shared { replica: None });
        let mut named = fields.clone();
        named.insert("o".to_owned(), b"web-1/42".to_vec());
        assert_eq!(
            decode("category/list", named, SystemTime::now())
                .unwrap()
                .source,
            Source::Shared {
                replica: Some(Arc::from("web-1/42"))
            },
            "the replica that stored it is read back"
        );
        // What each key holds: an API answer under an API key, HTML under a page's, and the
        // HTML 404 page under a missing feed's; nothing else.
        let mut page = fields.clone();
        page.insert("c".to_owned(), b"text/html; charset=utf-8".to_vec());
        assert_eq!(
            decode("category/list", page.clone(), SystemTime::now()).err(),
            Some("type")
        );
        assert!(decode("page/00ff/abc/portal/", page.clone(), SystemTime::now()).is_ok());
        page.insert("s".to_owned(), b"404".to_vec());
        page.remove("g");
        page.remove("r");
        assert!(decode("feed/21.xml", page.clone(), SystemTime::now()).is_ok());
        page.insert("s".to_owned(), b"200".to_vec());
        assert_eq!(
            decode("feed/21.xml", page, SystemTime::now()).err(),
            Some("type")
        );
        fields.insert("p".to_owned(), b"1".to_vec());
        assert!(
            decode("category/list", fields.clone(), SystemTime::now())
                .unwrap()
                .is_purged()
        );
        fields.remove("b");
        assert_eq!(
            decode("category/list", fields, SystemTime::now()).err(),
            Some("damaged"),
            "a damaged entry is no entry"
        );
    }
}
