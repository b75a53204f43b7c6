//! The response cache: finished API answers (bytes plus their gzip and brotli encodings) in moka,
//! each key with its own time to live, one upstream call per key however many visitors miss at
//! once, stale answers while one refresh runs or while the CMS is down.

mod clock;
mod entry;
pub mod inspect;
mod resp_bounds;
mod settings;
mod shared;
pub mod stats;

use std::{
    collections::{HashMap, VecDeque},
    future::Future,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use futures_util::future::{BoxFuture, FutureExt, Shared};

pub use clock::Clock;
pub use entry::{
    CACHE_STATUS, Entry, MediaType, Outcome, Timing, Wants, X_CACHE, cache_status, respond,
};
pub use entry::{Class, Source};
pub use entry::{Encoding, matches_etag, matches_etag_value, negotiate};
use portal_core::endpoint::CacheKey;
pub use portal_core::glob::glob_match;
pub use settings::{CacheConfig, SharedCacheConfig, TtlOverride};
pub use shared::{Coordinated, Purge, SharedTier};
pub use stats::Kind;

/// What a load gives: the entry, or the error of whoever loads (the content service's
/// `ApiError`); the cache itself only ever makes the few `LoadError` names.
pub type Loaded<E> = Result<Arc<Entry>, E>;

/// The errors the cache makes itself, and the charge it asks of a visitor who starts a load.
/// The loader's error type implements it, so the cache stays apart from the envelope and the
/// limits (as Souin keeps its storage apart from the handler's errors).
pub trait LoadError: Clone + std::fmt::Display + Send + Sync + 'static {
    /// A visitor's wait for a load (the upstream time-out) ran out.
    fn timed_out() -> Self;
    /// A load's task ended without an answer (it panicked).
    fn task_failed() -> Self;
    /// Charged when a visitor's request starts a new load from the CMS (not when it waits on
    /// one under way, nor for a webhook's refresh); `Err` refuses the load.
    fn charge_new_load() -> Result<(), Self>;
    /// The CMS failed (down, slow, a 5xx): a stale answer within `stale_if_error` beats it.
    fn is_upstream_failure(&self) -> bool;
    /// The load was refused before it began: the visitor's share (of CMS calls, of the render
    /// pool) is taken. An older copy within `stale_if_error` beats the refusal, as it beats a
    /// failing CMS; nothing failed, so nothing is logged.
    fn is_share_refusal(&self) -> bool {
        false
    }
}

/// What a look-up found and how the answer may be described to the browser.
pub struct Lookup<E> {
    pub result: Loaded<E>,
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
    /// Past `stale_while_revalidate`, how long a visitor waits for the new answer while an older
    /// copy is kept (within `stale_if_error`) before that copy is served; the load goes on in its
    /// own task and keeps its answer for the next visitor. `None`: the visitor waits for the load
    /// (an API answer, whose client would rather have it new). A page sets it
    /// (`render.older_copy_after`): a render over its budget is no reason to keep a visitor.
    pub older_copy_after: Option<Duration>,
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
            older_copy_after: None,
        }
    }

    /// This policy, serving a kept older copy once a new answer takes longer than `after`.
    pub fn with_older_copy_after(mut self, after: Duration) -> Self {
        self.older_copy_after = Some(after);
        self
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
type Inflight<E> = Shared<BoxFuture<'static, Loaded<E>>>;

/// A look in the shared tier under way, for every visitor who missed the key meanwhile.
type Look = Shared<BoxFuture<'static, Option<Arc<Entry>>>>;

/// A load under way and when it began.
#[derive(Clone)]
struct Flight<E> {
    /// Which load this is: only its own task forgets it (a refresh may have replaced it).
    id: u64,
    /// The purge count when it began (`PurgeLog`).
    since: u64,
    work: Inflight<E>,
}

/// The purges applied to this replica's memory, numbered, so that a load can tell whether one
/// that reaches its answer came while its CMS call was under way: that answer may be from before
/// the edit the purge announced, and is given to those who asked but never kept (before this, a
/// webhook's edit could be hidden for a whole TTL by a load that began just before it).
#[derive(Default)]
struct PurgeLog {
    /// How many purges were applied: the number the next one gets.
    count: u64,
    /// The latest `PURGES_KEPT` of them with their numbers, oldest first.
    recent: VecDeque<(u64, Arc<Purge>)>,
}

/// Purges remembered for loads under way; a load that saw more pass keeps nothing.
const PURGES_KEPT: usize = 256;

impl PurgeLog {
    /// Records `purge`; its number.
    fn record(&mut self, purge: Arc<Purge>) -> u64 {
        if self.recent.len() == PURGES_KEPT {
            self.recent.pop_front();
        }
        let number = self.count;
        self.recent.push_back((number, purge));
        self.count += 1;
        number
    }

    /// Whether a purge numbered `since` or later reaches `key`'s `entry`, and if so whether any
    /// of those deletes it (`Some(true)`) rather than marking it stale.
    fn reached_since(&self, since: u64, key: &str, entry: &Entry) -> Option<bool> {
        if since >= self.count {
            return None;
        }
        // Some of them are forgotten: assume the worst.
        if self.recent.front().is_none_or(|(first, _)| *first > since) {
            return Some(true);
        }
        self.recent
            .iter()
            .filter(|(n, purge)| {
                *n >= since && (purge.reaches(key, entry) || purge.evict.iter().any(|k| k == key))
            })
            .map(|(_, purge)| purge.hard || purge.evict.iter().any(|k| k == key))
            .reduce(|a, b| a || b)
    }
}

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

pub struct ResponseCache<E> {
    entries: moka::future::Cache<String, Arc<Entry>>,
    /// The loads under way, by key. Each runs in its own task; every visitor waiting for the key
    /// waits on this one handle, so one who gives up (their wait over) neither cancels it nor
    /// makes the next visitor start a second load of a slow key.
    inflight: Mutex<HashMap<String, Flight<E>>>,
    /// The looks in the shared tier under way, by key: visitors who miss the same key at once
    /// share one Redis command (300 at once took the tier past its time-out, and off, on a busy
    /// machine: each replica then called the CMS on its own).
    looks: Mutex<HashMap<String, Look>>,
    /// Numbers the loads (`Flight::id`).
    loads: AtomicU64,
    /// The purges applied here lately, for the loads under way.
    purge_log: Mutex<PurgeLog>,
    /// The tier all replicas share, when `[cache.shared]` names one.
    shared: Option<SharedTier>,
    /// Every purge applied to this replica's memory, whatever its origin, for those who keep
    /// something of their own in step with the cache (the search index).
    purges: tokio::sync::broadcast::Sender<Heard>,
    /// What ages are read on (`clock.rs`).
    clock: Clock,
}

/// A purge applied to this replica's memory, with its number (the first is 0): a listener that
/// has dealt with number `n` has followed every purge until `purges_applied()` is `n + 1`.
#[derive(Debug, Clone)]
pub struct Heard {
    pub number: u64,
    pub purge: Arc<Purge>,
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

impl<E: LoadError> ResponseCache<E> {
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
        let clock = Clock::default();
        let cache = Arc::new(Self {
            entries,
            inflight: Mutex::new(HashMap::new()),
            looks: Mutex::new(HashMap::new()),
            loads: AtomicU64::new(0),
            purge_log: Mutex::new(PurgeLog::default()),
            shared: shared.map(|tier| tier.on(clock.clone())),
            purges: tokio::sync::broadcast::channel(PURGES_HEARD).0,
            clock,
        });
        if cache.shared.is_some() {
            SharedTier::start(&cache);
        }
        cache
    }

    /// The clock its ages are read on: a test moves it forward (`Clock::advance`).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn shared(&self) -> Option<&SharedTier> {
        self.shared.as_ref()
    }

    /// The purges applied here from now on (this replica's own and every other's). A listener
    /// that falls more than `PURGES_HEARD` behind is told it lagged, and must assume anything.
    pub fn purges(&self) -> tokio::sync::broadcast::Receiver<Heard> {
        self.purges.subscribe()
    }

    /// How many purges were applied to this replica's memory so far.
    pub fn purges_applied(&self) -> u64 {
        self.purge_count()
    }

    /// The answer for `key`: fresh from the cache, stale while one refresh runs, or loaded once
    /// for every visitor waiting on it. `load` makes the upstream call and builds the entry.
    pub async fn get_or_load<F, Fut>(
        self: &Arc<Self>,
        key: &str,
        policy: &Policy,
        load: F,
    ) -> Lookup<E>
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded<E>> + Send + 'static,
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
        let age = self.clock.since(entry.stored);
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
            tokio::spawn(portal_core::traces::carry(async move {
                let _ = cache.load_once(key, &policy, load, Why::Revalidate).await;
            }));
            return stale(entry);
        }
        let loading = Box::pin(self.load_once(key.to_owned(), policy, load, Why::Revalidate));
        let loaded = match policy.older_copy_after {
            Some(after) if age < ttl + policy.stale_if_error => {
                match tokio::time::timeout(after, loading).await {
                    Ok(loaded) => loaded,
                    // The load runs in its own task (`start_load`): dropping this wait leaves it
                    // to finish and keep the new answer.
                    Err(_) => return stale(entry),
                }
            }
            _ => loading.await,
        };
        match loaded {
            Err(err) if err.is_upstream_failure() && age < ttl + policy.stale_if_error => {
                tracing::warn!(error = %err, age_s = age.as_secs(), "serving a stale answer while the CMS fails");
                stale(entry)
            }
            Err(err) if err.is_share_refusal() && age < ttl + policy.stale_if_error => stale(entry),
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
    ) -> Loaded<E>
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded<E>> + Send + 'static,
    {
        let wait = policy.wait;
        let work = {
            let mut inflight = self.inflight.lock().expect("inflight map lock");
            // A refresh follows a purge: a load that began before it may carry the answer from
            // before the edit, so the refresh makes its own.
            let joinable = inflight
                .get(&key)
                .filter(|flight| why != Why::Refresh || flight.since >= self.purge_count());
            match joinable {
                Some(flight) => flight.work.clone(),
                None => {
                    // A new load calls the CMS: charged to the share of the visitor whose request
                    // starts it (not to those who then wait on it, nor to a webhook's refresh).
                    if why != Why::Refresh {
                        E::charge_new_load()?;
                    }
                    let flight = self.start_load(key.clone(), policy, load, why);
                    let work = flight.work.clone();
                    inflight.insert(key, flight);
                    work
                }
            }
        };
        match tokio::time::timeout(wait, work).await {
            Ok(result) => result,
            Err(_) => Err(E::timed_out()),
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
    ) -> Flight<E>
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded<E>> + Send + 'static,
    {
        let stale_budget = policy.stale_while_revalidate.max(policy.stale_if_error);
        let policy_for_load = policy.clone();
        let task_cache = Arc::clone(self);
        let (cache, task_key) = (Arc::clone(self), key.clone());
        let id = self.loads.fetch_add(1, Ordering::Relaxed);
        let since = self.purge_count();
        {
            // With traces on, the request's context goes along: its CMS calls are its children.
            let task = tokio::spawn(portal_core::traces::carry(async move {
                // A visitor who missed just as the load before this one ended: its answer is here.
                if why == Why::Miss
                    && let Some(entry) = task_cache.entries.get(&task_key).await
                    && !entry.is_purged()
                    && task_cache.clock.since(entry.stored) < policy_for_load.ttl_of(&entry)
                {
                    task_cache.forget_inflight(&task_key, id);
                    return Ok(entry);
                }
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
                                    .saturating_sub(task_cache.clock.since(found.stored));
                                found.class = Some(policy_for_load.class);
                                let found = Arc::new(*found);
                                task_cache
                                    .keep_unless_purged(&task_key, since, Arc::clone(&found))
                                    .await;
                                task_cache.forget_inflight(&task_key, id);
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
                        // Stamped on the cache's clock, which its age is read on.
                        stored.stored = task_cache.clock.now();
                        stored.stored_at = task_cache.clock.wall();
                        stored.keep_for = ttl + stale_budget;
                        stored.class = Some(policy_for_load.class);
                        let stored = Arc::new(stored);
                        if task_cache
                            .keep_unless_purged(&task_key, since, Arc::clone(&stored))
                            .await
                        {
                            share = Some(stored);
                        }
                    }
                }
                task_cache.forget_inflight(&task_key, id);
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
            let work = async move {
                task.await.unwrap_or_else(|join| {
                    tracing::error!(error = %join, "cache load task failed");
                    // The next visitor loads afresh rather than meet this failure for good.
                    cache.forget_inflight(&key, id);
                    Err(E::task_failed())
                })
            }
            .boxed()
            .shared();
            Flight { id, since, work }
        }
    }

    /// Forgets the load `id` of `key`, unless another has taken its place.
    fn forget_inflight(&self, key: &str, id: u64) {
        let mut inflight = self.inflight.lock().expect("inflight map lock");
        if inflight.get(key).is_some_and(|flight| flight.id == id) {
            inflight.remove(key);
        }
    }

    /// How many purges were applied here so far.
    fn purge_count(&self) -> u64 {
        self.purge_log.lock().expect("purge log lock").count
    }

    /// Keeps `entry` under `key`, unless a purge applied since purge number `since` reaches it:
    /// it may be older than what that purge announced. Whether it was kept.
    async fn keep_unless_purged(&self, key: &str, since: u64, entry: Arc<Entry>) -> bool {
        let reached = |cache: &Self| {
            cache
                .purge_log
                .lock()
                .expect("purge log lock")
                .reached_since(since, key, &entry)
        };
        if reached(self).is_some() {
            return false;
        }
        self.entries
            .insert(key.to_owned(), Arc::clone(&entry))
            .await;
        // A purge recorded between the look above and the insert walked the entries before this
        // one was among them (a purge is recorded before its walk, so one recorded later finds it).
        if let Some(hard) = reached(self) {
            entry.mark_purged();
            if hard {
                self.entries.invalidate(key).await;
            }
            return false;
        }
        true
    }

    /// The shared tier's entry for `key`, put in memory, when it may still be served: one look
    /// at a time per key, shared by every visitor who misses it meanwhile.
    async fn look_in_shared(self: &Arc<Self>, key: &str, policy: &Policy) -> Option<Arc<Entry>> {
        self.shared.as_ref().filter(|_| !policy.memory_only)?;
        let look = {
            let mut looks = self.looks.lock().expect("looks map lock");
            if let Some(look) = looks.get(key) {
                look.clone()
            } else {
                let (cache, owned, policy) = (Arc::clone(self), key.to_owned(), policy.clone());
                let look = async move {
                    let found = cache.look_once(&owned, &policy).await;
                    cache.looks.lock().expect("looks map lock").remove(&owned);
                    found
                }
                .boxed()
                .shared();
                looks.insert(key.to_owned(), look.clone());
                look
            }
        };
        look.await
    }

    async fn look_once(&self, key: &str, policy: &Policy) -> Option<Arc<Entry>> {
        let tier = self.shared.as_ref()?;
        let since = self.purge_count();
        let span = portal_core::traces::ChildSpan::shared_lookup();
        let found = tier.get(key).await;
        if let Some(span) = &span {
            span.set(
                portal_core::traces::CACHE_RESULT,
                if found.is_some() { "hit" } else { "miss" },
            );
        }
        drop(span);
        portal_core::metrics::shared_cache_lookup(found.is_some());
        let mut entry = found?;
        entry.class = Some(policy.class);
        let keep = policy.ttl_of(&entry) + policy.stale_while_revalidate.max(policy.stale_if_error);
        entry.keep_for = keep.checked_sub(self.clock.since(entry.stored))?;
        let entry = Arc::new(entry);
        // A purge heard while the look was under way may be newer than what it found.
        self.keep_unless_purged(key, since, Arc::clone(&entry))
            .await
            .then_some(entry)
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
        let purge = Arc::new(purge.clone());
        // Recorded before the walk: a load that stores its answer after this sees it, one that
        // stored it before is in the walk (`keep_unless_purged`).
        let number = self
            .purge_log
            .lock()
            .expect("purge log lock")
            .record(Arc::clone(&purge));
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
        portal_core::metrics::purged(origin.label(), reached.len() + purge.evict.len());
        // Nobody listening is no error.
        let _ = self.purges.send(Heard { number, purge });
        reached
    }

    /// Loads `key` again now (a webhook's refresh), whatever the cache holds.
    pub async fn refresh<F, Fut>(self: &Arc<Self>, key: &str, policy: &Policy, load: F) -> Loaded<E>
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded<E>> + Send + 'static,
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
