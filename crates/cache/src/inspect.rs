//! What the cache holds, said for an operator (`GET /portal/admin/cache`, `portal-gateway cache
//! stats|show`): per kind of answer its entries, bytes, outcomes and time to live; per key its
//! age, what is left of its fresh and stale windows, tags, encodings and where it came from.
//! Time to live is `Policy::named`'s, the function every lookup judges with, under the current
//! config. Walks the whole cache: an operator's request, never a visitor's.

use std::{collections::HashMap, sync::Arc, time::Duration};

use serde::Serialize;

use super::CacheConfig;
use super::{Class, Entry, Kind, Outcome, Policy, ResponseCache, Source, stats};
use portal_core::endpoint::Endpoint;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub totals: Counts,
    /// One line per kind of answer: the table's cached endpoints, `crawl`, `app`.
    pub endpoints: Vec<KindCounts>,
    pub shared: SharedState,
    pub max_bytes: u64,
    pub enabled: bool,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub entries: u64,
    pub bytes: u64,
    pub hits: u64,
    pub misses: u64,
    pub stale: u64,
    pub bypass: u64,
    /// (hits + stale) / (hits + misses + stale); `None` before any cacheable answer.
    pub hit_ratio: Option<f64>,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.entries += other.entries;
        self.bytes += other.bytes;
        self.hits += other.hits;
        self.misses += other.misses;
        self.stale += other.stale;
        self.bypass += other.bypass;
        self.hit_ratio = ratio(self.hits, self.misses, self.stale);
    }
}

fn ratio(hits: u64, misses: u64, stale: u64) -> Option<f64> {
    let all = hits + misses + stale;
    (all > 0).then(|| (hits + stale) as f64 / all as f64)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindCounts {
    pub endpoint: &'static str,
    #[serde(flatten)]
    pub counts: Counts,
    /// The effective time to live of each endpoint whose TTL this kind's entries take (for an
    /// API endpoint its own; for the sitemap, feeds and rendered pages, those of the entries held).
    pub ttl: Vec<Ttl>,
    /// `cache.overrides` patterns that may match this kind's keys, first match wins.
    pub overrides: Vec<Ttl>,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Ttl {
    /// A cache name (`article/list`) or an override's pattern.
    pub of: String,
    pub seconds: u64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SharedState {
    pub configured: bool,
    pub up: bool,
    /// This replica's name as the shared entries it stores record it.
    pub replica: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryView {
    pub key: String,
    /// The kind's label (`article/list`, `crawl`, `app`); `None` for a key found only in the
    /// shared tier that is no API key.
    pub endpoint: Option<&'static str>,
    pub status: u16,
    /// Its `Content-Type` (a file's own).
    pub media_type: String,
    pub in_memory: bool,
    pub age_seconds: f64,
    /// The effective TTL (a 404's is `not_found_ttl`); `None` when the kind is not known.
    pub ttl_seconds: Option<u64>,
    /// What is left of each window: fresh, then served stale while one refresh runs, then
    /// served stale while the CMS fails.
    pub fresh_for_seconds: Option<f64>,
    pub stale_while_revalidate_for_seconds: Option<f64>,
    pub stale_if_error_for_seconds: Option<f64>,
    pub purged: bool,
    pub tags: Vec<String>,
    pub encodings: Vec<EncodingView>,
    pub bytes: usize,
    pub etag: String,
    /// `cms` (loaded by this replica) or `shared` (read from the shared tier).
    pub loaded_from: &'static str,
    /// The replica that stored it in the shared tier, when it says.
    pub stored_by: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct EncodingView {
    pub encoding: &'static str,
    pub bytes: usize,
}

impl<E: super::LoadError> ResponseCache<E> {
    /// Entries in memory and their weight, as moka counts them (keys included).
    pub fn size(&self) -> (u64, u64) {
        (self.entries.entry_count(), self.entries.weighted_size())
    }

    /// Every kind's counts, the totals and the shared tier's state under `config`.
    pub async fn overview(&self, config: &CacheConfig, upstream_timeout: Duration) -> Overview {
        self.entries.run_pending_tasks().await;
        let mut held: HashMap<Kind, (u64, u64, Vec<&'static str>)> = HashMap::new();
        for (key, entry) in &self.entries {
            let Some(class) = entry.class else { continue };
            let line = held.entry(class.kind).or_default();
            line.0 += 1;
            line.1 += (key.len() + entry.weight()) as u64;
            if !line.2.contains(&class.cache_name) {
                line.2.push(class.cache_name);
            }
        }
        let mut totals = Counts::default();
        let endpoints = Kind::all()
            .map(|kind| {
                let (entries, bytes, mut names) = held.remove(&kind).unwrap_or_default();
                if let Kind::Api(endpoint) = kind {
                    names = vec![endpoint.cache_name()];
                }
                names.sort_unstable();
                let ttl = names
                    .iter()
                    .map(|&cache_name| {
                        let class = Class { kind, cache_name };
                        let policy = Policy::named(config, class, cache_name, upstream_timeout);
                        Ttl {
                            of: cache_name.to_owned(),
                            seconds: policy.ttl.as_secs(),
                        }
                    })
                    .collect();
                let [hits, misses, stale, bypass] =
                    [Outcome::Hit, Outcome::Miss, Outcome::Stale, Outcome::Bypass]
                        .map(|o| stats::count(kind, o));
                let counts = Counts {
                    entries,
                    bytes,
                    hits,
                    misses,
                    stale,
                    bypass,
                    hit_ratio: ratio(hits, misses, stale),
                };
                totals.add(&counts);
                KindCounts {
                    endpoint: kind.label(),
                    counts,
                    ttl,
                    overrides: overrides_for(config, kind),
                }
            })
            .collect();
        Overview {
            totals,
            endpoints,
            shared: SharedState {
                configured: self.shared.is_some(),
                up: self.shared.as_ref().is_some_and(|t| t.is_up()),
                replica: self.shared.as_ref().map(|t| t.replica().to_owned()),
            },
            max_bytes: config.max_bytes,
            enabled: config.enabled,
        }
    }

    /// `key`'s entry: this replica's copy, else the shared tier's; `None` when neither holds it.
    pub async fn inspect(
        &self,
        key: &str,
        config: &CacheConfig,
        upstream_timeout: Duration,
    ) -> Option<EntryView> {
        let (entry, in_memory) = match self.entries.get(key).await {
            Some(entry) => (entry, true),
            None => (Arc::new(self.shared.as_ref()?.get(key).await?), false),
        };
        // A copy read from the shared tier alone has no class yet: an API key says its own.
        let class = entry.class.or_else(|| {
            let endpoint = Endpoint::of_cache_name(key.split('?').next().unwrap_or_default())?;
            Some(Class {
                kind: Kind::Api(endpoint),
                cache_name: endpoint.cache_name(),
            })
        });
        let policy = class.map(|class| Policy::named(config, class, key, upstream_timeout));
        let age = self.clock.since(entry.stored);
        Some(view(key, &entry, age, in_memory, policy.as_ref()))
    }
}

fn view(
    key: &str,
    entry: &Entry,
    age: Duration,
    in_memory: bool,
    policy: Option<&Policy>,
) -> EntryView {
    let left = |window: Duration| window.saturating_sub(age).as_secs_f64();
    let windows = policy.map(|policy| {
        let ttl = policy.ttl_of(entry);
        let fresh = if entry.is_purged() { 0.0 } else { left(ttl) };
        (
            ttl,
            fresh,
            left(ttl + policy.stale_while_revalidate),
            left(ttl + policy.stale_if_error),
        )
    });
    let (loaded_from, stored_by) = match &entry.source {
        Source::Loaded => ("cms", None),
        Source::Shared { replica } => ("shared", replica.as_deref().map(str::to_owned)),
    };
    EntryView {
        key: key.to_owned(),
        endpoint: entry
            .class
            .map(|c| c.kind)
            .or_else(|| policy.map(|p| p.class.kind))
            .map(Kind::label),
        status: entry.status.as_u16(),
        media_type: entry
            .header(&axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or(entry.media_type.as_str())
            .to_owned(),
        in_memory,
        age_seconds: round_ms(age.as_secs_f64()),
        ttl_seconds: windows.map(|w| w.0.as_secs()),
        fresh_for_seconds: windows.map(|w| round_ms(w.1)),
        stale_while_revalidate_for_seconds: windows.map(|w| round_ms(w.2)),
        stale_if_error_for_seconds: windows.map(|w| round_ms(w.3)),
        purged: entry.is_purged(),
        tags: entry.tags.to_vec(),
        encodings: entry
            .encodings()
            .into_iter()
            .map(|(encoding, bytes)| EncodingView { encoding, bytes })
            .collect(),
        bytes: entry.weight(),
        etag: entry.etag.to_str().unwrap_or_default().to_owned(),
        loaded_from,
        stored_by,
    }
}

fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// The overrides whose pattern may match a key of `kind`: its literal start (up to the first
/// `*`) and the kind's key start agree. The data faces' keys start `feed/`/`sitemap`/`robots`,
/// a rendered page's `page/`, a file's `files/` (its cache name).
fn overrides_for(config: &CacheConfig, kind: Kind) -> Vec<Ttl> {
    let starts: &[&str] = match kind {
        Kind::Api(endpoint) => &[endpoint.cache_name()][..],
        Kind::Crawl => &["feed/", "sitemap", "robots"],
        Kind::Page => &["page/"],
    };
    config
        .overrides
        .iter()
        .filter(|o| {
            let literal = o.pattern.split('*').next().unwrap_or_default();
            starts
                .iter()
                .any(|s| literal.starts_with(s) || s.starts_with(literal))
        })
        .map(|o| Ttl {
            of: o.pattern.clone(),
            seconds: o.ttl.as_secs(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use bytes::Bytes;

    #[tokio::test]
    async fn an_entry_is_judged_with_the_configs_overrides() {
        let config = CacheConfig {
            default_ttl: Duration::from_secs(60),
            overrides: vec![crate::TtlOverride {
                pattern: "article/list?categoryId=21*".into(),
                ttl: Duration::from_secs(7),
            }],
            ..CacheConfig::default()
        };
        let cache = ResponseCache::<crate::tests::TestError>::new(1 << 20, None);
        let key = "article/list?categoryId=21&page=1&size=10";
        let class = Class {
            kind: Kind::Api(Endpoint::ArticleList),
            cache_name: "article/list",
        };
        let policy = Policy::named(&config, class, key, Duration::from_secs(1));
        let lookup = cache
            .get_or_load(key, &policy, || async {
                Ok(Arc::new(
                    Entry::new(StatusCode::OK, Bytes::from("x".repeat(300)))
                        .tagged(vec!["category:21".into()]),
                ))
            })
            .await;
        let loaded = lookup.result.unwrap();
        let view = cache
            .inspect(key, &config, Duration::from_secs(1))
            .await
            .expect("the entry is held");
        let encodings: Vec<_> = view.encodings.iter().map(|e| e.encoding).collect();
        assert_eq!(
            encodings,
            ["identity", "br"],
            "gzip is made on first demand"
        );
        loaded.gzip();
        let view = cache
            .inspect(key, &config, Duration::from_secs(1))
            .await
            .expect("the entry is held");
        assert_eq!(view.ttl_seconds, Some(7), "the override, not default_ttl");
        assert!(view.fresh_for_seconds.unwrap() <= 7.0);
        assert_eq!(view.endpoint, Some("article/list"));
        assert_eq!(view.tags, ["category:21"]);
        let encodings: Vec<_> = view.encodings.iter().map(|e| e.encoding).collect();
        assert_eq!(encodings, ["identity", "gzip", "br"]);
        assert_eq!(view.loaded_from, "cms");
        assert!(
            cache
                .inspect("article/list?nothing", &config, Duration::from_secs(1))
                .await
                .is_none()
        );
        let overview = cache.overview(&config, Duration::from_secs(1)).await;
        let list = overview
            .endpoints
            .iter()
            .find(|e| e.endpoint == "article/list")
            .unwrap();
        assert_eq!(list.counts.entries, 1);
        assert_eq!(
            list.ttl,
            [Ttl {
                of: "article/list".into(),
                seconds: 60
            }]
        );
        assert_eq!(list.overrides.len(), 1);
        assert!(
            overview
                .endpoints
                .iter()
                .find(|e| e.endpoint == "category/list")
                .unwrap()
                .overrides
                .is_empty()
        );
    }
}
