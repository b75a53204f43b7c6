//! `[cache]` and `[cache.shared]`: how long answers stay fresh and stale, how much memory they
//! take, and the tier all replicas share. Read by the top crate from the config file and the
//! environment, handed down here.

use std::{collections::BTreeMap, time::Duration};

use portal_core::{endpoint::Endpoint, glob::glob_match};
use secrecy::SecretString;
use serde::Deserialize;

/// Response cache: how long answers stay fresh, and how long stale ones may still be served.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CacheConfig {
    pub enabled: bool,
    /// Upper bound on the bytes held (bodies and their gzip and brotli encodings).
    pub max_bytes: u64,
    /// Time to live of an endpoint not named in `ttl`.
    #[serde(with = "humantime_serde")]
    pub default_ttl: Duration,
    /// Time to live by endpoint cache name (`category/list`, `article/list`, …: the table in
    /// `endpoint.rs`).
    pub ttl: BTreeMap<String, humantime_serde::Serde<Duration>>,
    /// Time to live by key pattern, first match wins; `*` matches any run of characters.
    pub overrides: Vec<TtlOverride>,
    /// How long a 404 answer is kept; 0 keeps none.
    #[serde(with = "humantime_serde")]
    pub not_found_ttl: Duration,
    /// Past its TTL, an entry is still served at once for this long while one refresh runs.
    #[serde(with = "humantime_serde")]
    pub stale_while_revalidate: Duration,
    /// Past its TTL, an entry is served for this long when the CMS fails.
    #[serde(with = "humantime_serde")]
    pub stale_if_error: Duration,
    /// Largest CMS file (an image or captions) kept in the cache, in bytes; larger ones, and
    /// every other type, are streamed. 0 keeps no file.
    pub file_max_bytes: u64,
    /// Keep images and captions whose CMS answer says `private`, `no-cache` or `no-store` (as a
    /// CMS marks every asset fetched with a credential; Directus does): the gateway fetches them
    /// with its own, so one copy serves every visitor, and browsers get `public, max-age=86400`.
    /// On by default: a file the gateway serves to everyone is private to no one. Off, each view
    /// of such a file is a CMS call.
    pub file_keep_private: bool,
    /// The tier shared by every replica (Redis or Valkey); off unless `url` is set.
    pub shared: SharedCacheConfig,
}

/// `[cache.shared]`: a second tier behind each replica's memory, one for all replicas.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SharedCacheConfig {
    /// `redis://[:password@]host:port/db` (or `rediss://`); a secret, as it may hold a password.
    pub url: Option<SecretString>,
    /// Longest wait for one Redis command; past it the gateway goes on with its memory alone.
    #[serde(with = "humantime_serde")]
    pub timeout: Duration,
    /// Prefix of every key and channel, so several portals can share one Redis.
    pub prefix: String,
    /// A secret every replica signs its entries with and checks others' by (HMAC-SHA256): an
    /// entry anyone else wrote into Redis is never served. Unset: entries are checked for shape
    /// only, and whoever can write to Redis can put a page before every visitor.
    pub signing_key: Option<SecretString>,
}

impl Default for SharedCacheConfig {
    fn default() -> Self {
        Self {
            url: None,
            timeout: Duration::from_millis(100),
            prefix: "portal:".to_owned(),
            signing_key: None,
        }
    }
}

impl Default for CacheConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_bytes: 64 * 1024 * 1024,
            default_ttl: Duration::from_secs(60),
            ttl: BTreeMap::new(),
            overrides: Vec::new(),
            not_found_ttl: Duration::from_secs(10),
            stale_while_revalidate: Duration::from_secs(30),
            stale_if_error: Duration::from_secs(600),
            file_max_bytes: 1024 * 1024,
            file_keep_private: true,
            shared: SharedCacheConfig::default(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TtlOverride {
    pub pattern: String,
    #[serde(with = "humantime_serde")]
    pub ttl: Duration,
}

impl CacheConfig {
    /// The time to live of `key` (an endpoint name, `?`, its normalised query): an override,
    /// the endpoint's line of `ttl`, the table's own default for it (files: an hour), else
    /// `default_ttl`.
    pub fn ttl_for(&self, endpoint: &str, key: &str) -> Duration {
        self.overrides
            .iter()
            .find(|o| glob_match(&o.pattern, key))
            .map(|o| o.ttl)
            .or_else(|| self.ttl.get(endpoint).map(|t| **t))
            .or_else(|| Endpoint::of_cache_name(endpoint).and_then(|e| e.spec().ttl))
            .unwrap_or(self.default_ttl)
    }
}
