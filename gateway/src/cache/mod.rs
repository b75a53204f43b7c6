//! The response cache: finished API answers (bytes plus their gzip and brotli encodings) in moka,
//! each key with its own time to live, one upstream call per key however many visitors miss at
//! once, stale answers while one refresh runs or while the CMS is down.

mod entry;

use std::{
    collections::HashMap,
    future::Future,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use tokio::sync::OnceCell;

use crate::{config::CacheConfig, endpoint::CacheKey, envelope::ApiError};
pub(crate) use entry::{Encoding, matches_etag, negotiate};
pub use entry::{Entry, Outcome, Wants, X_CACHE, respond};

type Loaded = Result<Arc<Entry>, ApiError>;

/// What a look-up found and how the answer may be described to the browser.
pub struct Lookup {
    pub result: Loaded,
    pub outcome: Outcome,
    /// How long a browser may keep the answer (the entry's time left to live).
    pub fresh_for: Duration,
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
}

impl Policy {
    pub fn new(config: &CacheConfig, key: &CacheKey, upstream_timeout: Duration) -> Self {
        Self {
            ttl: config.ttl_for(key.cache_name(), key.as_str()),
            not_found_ttl: config.not_found_ttl,
            stale_while_revalidate: config.stale_while_revalidate,
            stale_if_error: config.stale_if_error,
            wait: upstream_timeout + Duration::from_millis(500),
        }
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

pub struct ResponseCache {
    entries: moka::future::Cache<String, Arc<Entry>>,
    inflight: Mutex<HashMap<String, Arc<OnceCell<Loaded>>>>,
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
    pub fn new(max_bytes: u64) -> Arc<Self> {
        let entries = moka::future::Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|key: &String, entry: &Arc<Entry>| {
                u32::try_from(key.len() + entry.weight()).unwrap_or(u32::MAX)
            })
            .expire_after(KeepForStale)
            .support_invalidation_closures()
            .build();
        Arc::new(Self {
            entries,
            inflight: Mutex::new(HashMap::new()),
        })
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
        let Some(entry) = self.entries.get(key).await else {
            // Boxed: the cold path's state stays out of every hit's future (docs/performance.md).
            let result = Box::pin(self.load_once(key.to_owned(), policy, Arc::new(load))).await;
            let fresh_for = result.as_ref().map_or(Duration::ZERO, |e| policy.ttl_of(e));
            return Lookup {
                result,
                outcome: Outcome::Miss,
                fresh_for,
            };
        };
        // The one clock read of a hit.
        let age = entry.stored.elapsed();
        let ttl = policy.ttl_of(&entry);
        if age < ttl {
            return Lookup {
                result: Ok(entry),
                outcome: Outcome::Hit,
                fresh_for: ttl - age,
            };
        }
        let stale = |entry| Lookup {
            result: Ok(entry),
            outcome: Outcome::Stale,
            fresh_for: Duration::ZERO,
        };
        let load = Arc::new(load);
        if age < ttl + policy.stale_while_revalidate {
            let cache = Arc::clone(self);
            let policy = policy.clone();
            let key = key.to_owned();
            tokio::spawn(async move {
                let _ = cache.load_once(key, &policy, load).await;
            });
            return stale(entry);
        }
        match Box::pin(self.load_once(key.to_owned(), policy, load)).await {
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
                    fresh_for,
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
    ) -> Loaded
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Loaded> + Send + 'static,
    {
        let cell = {
            let mut inflight = self.inflight.lock().expect("inflight map lock");
            Arc::clone(inflight.entry(key.clone()).or_default())
        };
        let cache = Arc::clone(self);
        let stale_budget = policy.stale_while_revalidate.max(policy.stale_if_error);
        let policy_for_load = policy.clone();
        let wait = policy.wait;
        let work = cell.get_or_init(|| async move {
            // The call runs in its own task: a visitor who goes away does not cancel it for others.
            let task_cache = Arc::clone(&cache);
            let task_key = key.clone();
            let result = tokio::spawn(async move {
                let loaded = load().await;
                if let Ok(entry) = &loaded {
                    let ttl = policy_for_load.ttl_of(entry);
                    if !ttl.is_zero() && entry.cacheable {
                        let mut stored = Entry::clone(entry);
                        stored.keep_for = ttl + stale_budget;
                        task_cache
                            .entries
                            .insert(task_key.clone(), Arc::new(stored))
                            .await;
                    }
                }
                task_cache
                    .inflight
                    .lock()
                    .expect("inflight map lock")
                    .remove(&task_key);
                loaded
            })
            .await;
            result.unwrap_or_else(|join| {
                tracing::error!(error = %join, "cache load task failed");
                Err(ApiError::Internal("the cache load task failed"))
            })
        });
        match tokio::time::timeout(wait, work).await {
            Ok(result) => result.clone(),
            Err(_) => Err(ApiError::Upstream(crate::upstream::UpstreamError::Timeout)),
        }
    }

    /// Drops every entry whose key starts with `prefix` (all of them for an empty prefix).
    pub fn purge(&self, prefix: &str) -> Result<(), moka::PredicateError> {
        if prefix.is_empty() {
            self.entries.invalidate_all();
            return Ok(());
        }
        let prefix = prefix.to_owned();
        self.entries
            .invalidate_entries_if(move |key, _| key.starts_with(&prefix))
            .map(|_| ())
    }

    pub fn entry_count(&self) -> u64 {
        self.entries.entry_count()
    }
}

#[cfg(test)]
mod tests;
