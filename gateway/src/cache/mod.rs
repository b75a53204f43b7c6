//! The response cache: finished API answers (bytes plus their gzip and brotli encodings) in moka,
//! each key with its own time to live, one upstream call per key however many visitors miss at
//! once, stale answers while one refresh runs or while the CMS is down.

mod entry;
pub mod inspect;
mod shared;
pub mod stats;

use std::{
    collections::HashMap,
    future::Future,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures_util::future::{BoxFuture, FutureExt, Shared};

use crate::{config::CacheConfig, endpoint::CacheKey, envelope::ApiError};
pub use entry::{
    CACHE_STATUS, Entry, MediaType, Outcome, Timing, Wants, X_CACHE, cache_status, respond,
};
pub use entry::{Class, Source};
pub(crate) use entry::{Encoding, matches_etag, matches_etag_value, negotiate};
use shared::Coordinated;
pub use shared::{Purge, SharedTier};
pub use stats::Kind;

type Loaded = Result<Arc<Entry>, ApiError>;

/// What a look-up found and how the answer may be described to the browser.
pub struct Lookup {
    pub result: Loaded,
    pub outcome: Outcome,
    /// Its age and time left to live (how long a browser may keep it).
    pub timing: Timing,
}

/// How long entries live, read from the current config on every lookup so a reload applies at once.
#[derive(Debug, Clone)]
pub struct Policy {
    pub ttl: Duration,
    pub not_found_ttl: Duration,
    pub stale_while_revalidate: Duration,
    pub stale_if_error: Duration,
    /// How long a visitor waits for someone else's upstream call before giving up (408).
    pub wait: Duration,
    /// What the key answers and whose TTL it takes; stored with the entry, so the admin view
    /// judges it with this same function.
    pub class: Class,
    /// Kept in this replica's memory only, never looked up in or written to the shared tier
    /// (files: their bytes would cross to Redis and back for what the CMS serves cheaply, and
    /// their own headers are not among what the shared tier stores). Purges still reach them
    /// on every replica through the purge channel.
    pub memory_only: bool,
}

impl Policy {
    pub fn new(config: &CacheConfig, key: &CacheKey, upstream_timeout: Duration) -> Self {
        Self::named(
            config,
            Class {
                kind: Kind::Api(key.endpoint()),
                cache_name: key.cache_name(),
            },
            key.as_str(),
            upstream_timeout,
        )
    }

    /// For a key that is not an endpoint's (a page, the sitemap, a feed): the TTL of
    /// the endpoint `class.cache_name` whose data it shows, or an override matching `key`.
    pub fn named(
        config: &CacheConfig,
        class: Class,
        key: &str,
        upstream_timeout: Duration,
    ) -> Self {
        Self {
            ttl: config.ttl_for(class.cache_name, key),
            not_found_ttl: config.not_found_ttl,
            stale_while_revalidate: config.stale_while_revalidate,
            stale_if_error: config.stale_if_error,
            wait: upstream_timeout + Duration::from_millis(500),
            class,
            memory_only: false,
        }
    }

    /// This policy, for entries this replica keeps to itself (`memory_only`).
    pub fn in_memory_only(mut self) -> Self {
        self.memory_only = true;
        self
    }

    /// The TTL that applies to `entry` (a 404 lives `not_found_ttl`).
    pub fn ttl_of(&self, entry: &Entry) -> Duration {
        if entry.is_success() {
            self.ttl
        } else {
            self.not_found_ttl
        }
    }
}

/// A load under way: the result of its task, for every visitor waiting.
type Inflight = Shared<BoxFuture<'static, Loaded>>;

/// Why a key is loaded, which decides how it meets the shared tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// Nothing in memory, and the shared tier was just asked (its first look is skipped).
    Miss,
    /// A stale entry is replaced (another replica may have done it already).
    Revalidate,
    /// A webhook's refresh: stored in the shared tier before the call returns.
    Refresh,
}

pub struct ResponseCache {
    entries: moka::future::Cache<String, Arc<Entry>>,
    /// The loads under way, by key. Each runs in its own task; every visitor waiting for the key
    /// waits on this one handle, so one who gives up (their wait over) neither cancels it nor
    /// makes the next visitor start a second load of a slow key.
    inflight: Mutex<HashMap<String, Inflight>>,
    /// The tier all replicas share, when `[cache.shared]` names one.
    shared: Option<SharedTier>,
    /// Every purge applied to this replica's memory, whatever its origin, for those who keep
    /// something of their own in step with the cache (the search index).
    purges: tokio::sync::broadcast::Sender<Arc<Purge>>,
}

/// Keeps an entry long enough to be served stale; freshness itself is judged at lookup.
struct KeepForStale;

impl moka::Expiry<String, Arc<Entry>> for KeepForStale {
    fn expire_after_create(&self, _: &String, entry: &Arc<Entry>, _: Instant) -> Option<Duration> {
        Some(entry.keep_for)
    }
    fn expire_after_update(
        &self,
        _: &String,
        entry: &Arc<Entry>,
        _: Instant,
        _: Option<Duration>,
    ) -> Option<Duration> {
        Some(entry.keep_for)
    }
}

impl ResponseCache {
    /// A cache of at most `max_bytes`; with `shared`, its background tasks start here (so this
    /// runs inside the runtime).
    pub fn new(max_bytes: u64, shared: Option<SharedTier>) -> Arc<Self> {
        let entries = moka::future::Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|key: &String, entry: &Arc<Entry>| {
                u32::try_from(key.len() + entry.weight()).unwrap_or(u32::MAX)
            })
            .expire_after(KeepForStale)
            .support_invalidation_closures()
            .build();
        let cache = Arc::new(Self {
            entries,
            inflight: Mutex::new(HashMap::new()),
            shared,
            purges: tokio::sync::broadcast::channel(PURGES_HEARD).0,
        });
        if cache.shared.is_some() {
            SharedTier::start(&cache);
        }
        cache
    }

    pub fn shared(&self) -> Option<&SharedTier> {
        self.shared.as_ref()
    }

    /// The purges applied here from now on (this replica's own and every other's). A listener
    /// that falls more than `PURGES_HEARD` behind is told it lagged, and must assume anything.
    pub fn purges(&self) -> tokio::sync::broadcast::Receiver<Arc<Purge>> {
        self.purges.subscribe()
    }

    /// The answer for `key`: fresh from the cache, stale while one refresh runs, or loaded once
    /// for every visitor waiting on it. `load` makes the upstream call and builds the entry.
    pub async fn get_or_load<F, Fut>(
        self: &Arc<Self>,
        key: &str,
        policy: &Policy,
        load: F,
    ) -> Lookup
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded> + Send + 'static,
    {
        let entry = match self.entries.get(key).await {
            Some(entry) => entry,
            None => match Box::pin(self.look_in_shared(key, policy)).await {
                Some(entry) => entry,
                None => {
                    // Boxed: the cold path's state stays out of every hit's future
                    // (docs/performance.md).
                    let result =
                        Box::pin(self.load_once(key.to_owned(), policy, Arc::new(load), Why::Miss))
                            .await;
                    let fresh_for = result.as_ref().map_or(Duration::ZERO, |e| policy.ttl_of(e));
                    return Lookup {
                        result,
                        outcome: Outcome::Miss,
                        timing: Timing::fresh(fresh_for),
                    };
                }
            },
        };
        // The one clock read of a hit.
        let age = entry.stored.elapsed();
        let ttl = policy.ttl_of(&entry);
        // A soft-purged entry is stale whatever its age: served while one refresh runs.
        if age < ttl && !entry.is_purged() {
            return Lookup {
                result: Ok(entry),
                outcome: Outcome::Hit,
                timing: Timing {
                    fresh_for: ttl - age,
                    age,
                    stale_by: Duration::ZERO,
                },
            };
        }
        let stale = |entry| Lookup {
            result: Ok(entry),
            outcome: Outcome::Stale,
            timing: Timing {
                fresh_for: Duration::ZERO,
                age,
                stale_by: age.saturating_sub(ttl),
            },
        };
        let load = Arc::new(load);
        if age < ttl + policy.stale_while_revalidate {
            let cache = Arc::clone(self);
            let policy = policy.clone();
            let key = key.to_owned();
            // The refresh's CMS call belongs to this request's trace (traces on).
            tokio::spawn(crate::traces::carry(async move {
                let _ = cache.load_once(key, &policy, load, Why::Revalidate).await;
            }));
            return stale(entry);
        }
        match Box::pin(self.load_once(key.to_owned(), policy, load, Why::Revalidate)).await {
            Err(err) if err.is_upstream_failure() && age < ttl + policy.stale_if_error => {
                tracing::warn!(error = %err, age_s = age.as_secs(), "serving a stale answer while the CMS fails");
                stale(entry)
            }
            // An empty answer does not replace a good one.
            Ok(fresh) if !fresh.cacheable && age < ttl + policy.stale_if_error => {
                tracing::warn!(
                    age_s = age.as_secs(),
                    "the CMS answered empty; serving the last good answer"
                );
                stale(entry)
            }
            result => {
                let fresh_for = result.as_ref().map_or(Duration::ZERO, |e| policy.ttl_of(e));
                Lookup {
                    result,
                    outcome: Outcome::Miss,
                    timing: Timing::fresh(fresh_for),
                }
            }
        }
    }

    /// One upstream call per key at a time; everyone else waits for its result.
    async fn load_once<F, Fut>(
        self: &Arc<Self>,
        key: String,
        policy: &Policy,
        load: Arc<F>,
        why: Why,
    ) -> Loaded
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded> + Send + 'static,
    {
        let wait = policy.wait;
        let work = {
            let mut inflight = self.inflight.lock().expect("inflight map lock");
            match inflight.get(&key) {
                Some(work) => work.clone(),
                None => {
                    // A new load calls the CMS: charged to the share of the visitor whose request
                    // starts it (not to those who then wait on it, nor to a webhook's refresh).
                    if why != Why::Refresh {
                        crate::limits::charge_cms_share()?;
                    }
                    let work = self.start_load(key.clone(), policy, load, why);
                    inflight.insert(key, work.clone());
                    work
                }
            }
        };
        match tokio::time::timeout(wait, work).await {
            Ok(result) => result,
            Err(_) => Err(ApiError::Upstream(crate::cms::UpstreamError::Timeout)),
        }
    }

    /// Starts the load of `key` in its own task: a visitor who goes away does not cancel it for
    /// the others, nor for the next one.
    fn start_load<F, Fut>(
        self: &Arc<Self>,
        key: String,
        policy: &Policy,
        load: Arc<F>,
        why: Why,
    ) -> Inflight
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded> + Send + 'static,
    {
        let stale_budget = policy.stale_while_revalidate.max(policy.stale_if_error);
        let policy_for_load = policy.clone();
        let task_cache = Arc::clone(self);
        let (cache, task_key) = (Arc::clone(self), key.clone());
        {
            // With traces on, the request's context goes along: its CMS calls are its children.
            let task = tokio::spawn(crate::traces::carry(async move {
                let shared = task_cache
                    .shared
                    .as_ref()
                    .filter(|_| !policy_for_load.memory_only);
                // Another replica may be loading it, or have just done so.
                let locked = match shared {
                    Some(tier) => {
                        match tier
                            .coordinate(&task_key, &policy_for_load, why == Why::Miss)
                            .await
                        {
                            Coordinated::Found(mut found) => {
                                found.keep_for = (policy_for_load.ttl_of(&found) + stale_budget)
                                    .saturating_sub(found.stored.elapsed());
                                found.class = Some(policy_for_load.class);
                                let found = Arc::new(*found);
                                task_cache
                                    .entries
                                    .insert(task_key.clone(), Arc::clone(&found))
                                    .await;
                                task_cache.forget_inflight(&task_key);
                                return Ok(found);
                            }
                            Coordinated::Load => true,
                            Coordinated::Alone => false,
                        }
                    }
                    None => false,
                };
                let loaded = load().await;
                let mut share = None;
                if let Ok(entry) = &loaded {
                    let ttl = policy_for_load.ttl_of(entry);
                    if !ttl.is_zero() && entry.cacheable {
                        let mut stored = Entry::clone(entry);
                        stored.keep_for = ttl + stale_budget;
                        stored.class = Some(policy_for_load.class);
                        let stored = Arc::new(stored);
                        share = Some(Arc::clone(&stored));
                        task_cache.entries.insert(task_key.clone(), stored).await;
                    }
                }
                task_cache.forget_inflight(&task_key);
                // The other replicas' copy, then the lock: after this replica's visitors have
                // their answer (two round trips off every miss: `make bench-shared`), except for a
                // refresh, whose caller then tells the other replicas to read it.
                if shared.is_some() && (share.is_some() || locked) {
                    let (cache, key) = (Arc::clone(&task_cache), task_key.clone());
                    let write = async move {
                        let Some(tier) = cache.shared.as_ref() else {
                            return;
                        };
                        if let Some(entry) = share {
                            tier.put(&key, &entry, entry.keep_for).await;
                        }
                        if locked {
                            tier.unlock(&key).await;
                        }
                    };
                    if why == Why::Refresh {
                        write.await;
                    } else {
                        tokio::spawn(write);
                    }
                }
                loaded
            }));
            async move {
                task.await.unwrap_or_else(|join| {
                    tracing::error!(error = %join, "cache load task failed");
                    // The next visitor loads afresh rather than meet this failure for good.
                    cache.forget_inflight(&key);
                    Err(ApiError::Internal("the cache load task failed"))
                })
            }
            .boxed()
            .shared()
        }
    }

    fn forget_inflight(&self, key: &str) {
        self.inflight.lock().expect("inflight map lock").remove(key);
    }

    /// The shared tier's entry for `key`, put in memory, when it may still be served.
    async fn look_in_shared(&self, key: &str, policy: &Policy) -> Option<Arc<Entry>> {
        let tier = self.shared.as_ref().filter(|_| !policy.memory_only)?;
        let span = crate::traces::ChildSpan::shared_lookup();
        let found = tier.get(key).await;
        if let Some(span) = &span {
            span.set(
                crate::traces::CACHE_RESULT,
                if found.is_some() { "hit" } else { "miss" },
            );
        }
        drop(span);
        crate::metrics::shared_cache_lookup(found.is_some());
        let mut entry = found?;
        entry.class = Some(policy.class);
        let keep = policy.ttl_of(&entry) + policy.stale_while_revalidate.max(policy.stale_if_error);
        entry.keep_for = keep.checked_sub(entry.stored.elapsed())?;
        let entry = Arc::new(entry);
        self.entries
            .insert(key.to_owned(), Arc::clone(&entry))
            .await;
        Some(entry)
    }

    /// Applies `purge` here, in the shared tier and (through its channel) on every other
    /// replica. Returns the keys it reached, for a refresh.
    pub async fn purge(&self, purge: &Purge, origin: PurgeOrigin) -> Vec<String> {
        let mut reached = self.purge_memory(purge, origin).await;
        if let Some(tier) = &self.shared {
            reached.extend(tier.purge(purge).await);
            reached.sort_unstable();
            reached.dedup();
        }
        reached
    }

    /// Applies `purge` to this replica's memory only: marks the entries it reaches stale (or
    /// deletes them when hard) and drops its evicted keys.
    pub async fn purge_memory(&self, purge: &Purge, origin: PurgeOrigin) -> Vec<String> {
        // Pending inserts become visible to the walk below.
        self.entries.run_pending_tasks().await;
        let mut reached = Vec::new();
        for (key, entry) in &self.entries {
            if purge.reaches(&key, &entry) {
                if !purge.hard {
                    entry.mark_purged();
                }
                reached.push(key.as_str().to_owned());
            }
        }
        if purge.hard {
            for key in &reached {
                self.entries.invalidate(key).await;
            }
        }
        for key in &purge.evict {
            self.entries.invalidate(key).await;
        }
        crate::metrics::purged(origin, reached.len() + purge.evict.len());
        // Nobody listening is no error.
        let _ = self.purges.send(Arc::new(purge.clone()));
        reached
    }

    /// Loads `key` again now (a webhook's refresh), whatever the cache holds.
    pub async fn refresh<F, Fut>(self: &Arc<Self>, key: &str, policy: &Policy, load: F) -> Loaded
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded> + Send + 'static,
    {
        self.load_once(key.to_owned(), policy, Arc::new(load), Why::Refresh)
            .await
    }

    /// What this replica's memory holds for `key`, fresh or not, without loading anything.
    pub async fn peek(&self, key: &str) -> Option<Arc<Entry>> {
        self.entries.get(key).await
    }

    pub fn entry_count(&self) -> u64 {
        self.entries.entry_count()
    }
}

/// Purges a listener may fall behind by before it is told it lagged.
const PURGES_HEARD: usize = 1024;

/// Who asked for a purge, for `portal_cache_purges_total{origin}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PurgeOrigin {
    /// The operator (`POST /portal/admin/cache/purge`).
    Admin,
    /// The CMS's webhook.
    Webhook,
    /// Another replica, through the shared tier's purge channel.
    Pubsub,
    /// The purge channel came back after a break: everything marked stale.
    Reconnect,
    /// The search index changed: the answers it gave are dropped.
    Search,
}

impl PurgeOrigin {
    pub fn label(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::Webhook => "webhook",
            Self::Pubsub => "pubsub",
            Self::Reconnect => "reconnect",
            Self::Search => "search",
        }
    }
}

#[cfg(test)]
mod tests;
