//! What the cache did, by kind of answer: the outcomes `portal_cache_total{endpoint,result}`
//! counts, kept here as well so the admin cache view can say them (a Prometheus counter cannot
//! be read back). Bounded: the table's cached endpoints, the sitemap and feeds, the rendered pages.

use std::sync::{
    LazyLock,
    atomic::{AtomicU64, Ordering},
};

use metrics::Counter;

use super::Outcome;
use portal_core::endpoint::Endpoint;

/// What a cache entry answers: an API endpoint of the table, the sitemap and the feeds
/// (`crawl`), or a page the gateway renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Api(Endpoint),
    /// The sitemap, the feeds and robots.txt (`crawl`).
    Crawl,
    /// The pages the gateway renders (`pages`).
    Page,
}

/// How many kinds there are: one per endpoint of the table (the uncached ones never count),
/// then `Crawl` and `Page`.
const KINDS: usize = Endpoint::ALL.len() + 2;
const OUTCOMES: [Outcome; 4] = [Outcome::Hit, Outcome::Miss, Outcome::Stale, Outcome::Bypass];

impl Kind {
    /// Every kind whose answers are cached, in the table's order.
    pub fn all() -> impl Iterator<Item = Self> {
        Endpoint::ALL
            .into_iter()
            .filter(|e| e.spec().cache.is_some())
            .map(Self::Api)
            .chain([Self::Crawl, Self::Page])
    }

    /// The `endpoint` label: the table's metrics label, `crawl` or `page`.
    pub fn label(self) -> &'static str {
        match self {
            Self::Api(endpoint) => endpoint.metrics_label(),
            Self::Crawl => "crawl",
            Self::Page => "page",
        }
    }

    fn index(self) -> usize {
        match self {
            Self::Api(endpoint) => Endpoint::ALL
                .iter()
                .position(|e| *e == endpoint)
                .unwrap_or_default(),
            Self::Crawl => KINDS - 2,
            Self::Page => KINDS - 1,
        }
    }
}

fn outcome_index(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Hit => 0,
        Outcome::Miss => 1,
        Outcome::Stale => 2,
        Outcome::Bypass => 3,
    }
}

struct Slot {
    count: AtomicU64,
    counter: Counter,
}

/// Resolved once: a count is two array indexes, an atomic add and the counter's (no registry
/// search, no string compared on a hit).
static SLOTS: LazyLock<Vec<Slot>> = LazyLock::new(|| {
    let mut kinds: Vec<Kind> = Endpoint::ALL.into_iter().map(Kind::Api).collect();
    kinds.extend([Kind::Crawl, Kind::Page]);
    kinds
        .into_iter()
        .flat_map(|kind| {
            OUTCOMES.map(|outcome| Slot {
                count: AtomicU64::new(0),
                counter: metrics::counter!(
                    "portal_cache_total",
                    "endpoint" => kind.label(),
                    "result" => outcome.label(),
                ),
            })
        })
        .collect()
});

fn slot(kind: Kind, outcome: Outcome) -> &'static Slot {
    &SLOTS[kind.index() * OUTCOMES.len() + outcome_index(outcome)]
}

/// Counts one answer of `kind` with `outcome`.
pub fn record(kind: Kind, outcome: Outcome) {
    let slot = slot(kind, outcome);
    slot.count.fetch_add(1, Ordering::Relaxed);
    slot.counter.increment(1);
}

/// The answers of `kind` with `outcome` since the process started.
pub fn count(kind: Kind, outcome: Outcome) -> u64 {
    slot(kind, outcome).count.load(Ordering::Relaxed)
}

/// Makes every series exist at 0, so a rate has a start and the dashboard a line from the first
/// scrape.
pub fn register() {
    LazyLock::force(&SLOTS);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_slots() {
        let mut seen = std::collections::HashSet::new();
        for kind in Kind::all() {
            for outcome in OUTCOMES {
                let slot: *const Slot = slot(kind, outcome);
                assert!(seen.insert(slot as usize), "{kind:?} {outcome:?}");
            }
        }
        let labels: std::collections::HashSet<_> = Kind::all().map(Kind::label).collect();
        assert_eq!(labels.len(), Kind::all().count(), "labels are unique");
        // Enumerated values are lowercase; an endpoint's label is its path's (table) spelling.
        assert!(
            OUTCOMES
                .iter()
                .all(|o| o.label() == o.label().to_lowercase())
        );
        assert!(["crawl", "page"].iter().all(|l| labels.contains(l)));
    }
}
