//! **The built-in search index**: every article the gateway can read, indexed in the gateway
//! itself, so site search understands Chinese whatever the CMS (and works with a CMS that has
//! no search at all).
//!
//! - `text.rs`: how text becomes terms (folding; character pairs for exact matching inside
//!   words; jieba's words for ranking).
//! - `engine.rs`: the tantivy index (schema, writes, queries, highlighted fragments, counts per
//!   section); blocking work, run off the async workers.
//! - `keeper.rs`: the task that builds the index in the background from the content service
//!   (the same walk the sitemap makes) and keeps it fresh from the cache's purges (the
//!   webhook, purges by tag, other replicas' purges over the shared tier) and a walk every
//!   sitemap TTL.
//!
//! The content service answers `/article/search` from here when `[search] mode` says so
//! (`SearchSettings::uses_index`); until the index is ready it answers from the CMS's own search,
//! or, without one, says the index is being built (503, `Retry-After`). Never calls the CMS
//! adapter: the keeper reads through the content service, like any face.

mod background;
pub mod engine;
mod keeper;
pub mod text;

use std::{
    path::PathBuf,
    sync::{Arc, Mutex, OnceLock},
    time::Instant,
};

use serde::{Deserialize, Serialize};

pub use engine::{Engine, EngineError, Indexed};
pub use keeper::spawn;

/// What the keeper reads of the gateway: the content service over the current config, that
/// config's `[search]`, the cache whose purges it follows and the index it keeps. The gateway's
/// state implements it, so the index stays below the faces and knows nothing of them.
pub trait Gateway: Send + Sync + 'static {
    fn content(&self) -> ContentService<'_>;
    fn settings(&self) -> SearchSettings;
    fn cache(&self) -> &Arc<Cache>;
    fn index(&self) -> &Arc<SearchIndex>;
}
use portal_content::{
    Cache, ContentService,
    index::{Ask, Found, Index, IndexError, Searching},
};

/// `[search] mode`: who answers a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    /// The CMS's own search (`dialect.endpoints.article_search`), or no search without one.
    Cms,
    /// The gateway's index, always.
    Index,
    /// The index when the CMS has no search; the CMS's otherwise.
    Auto,
}

/// A text of an article the index may hold (`[search] fields`); the title always is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchField {
    Title,
    Summary,
    Body,
}

/// `[search]` (validated in `config.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    pub mode: SearchMode,
    /// A folder for the index, so a restart reads it back rather than every article again.
    /// Unset: the index lives in memory and is built at each start.
    pub dir: Option<PathBuf>,
    /// Most articles indexed (the newest, when the CMS holds more).
    pub max_articles: usize,
    /// Most characters of one article's body indexed.
    pub max_body_chars: usize,
    /// Most bytes the index may hold in memory (without `dir`): past it, only the newest articles
    /// that fit are indexed (`keeper.rs`). On disk (`dir`) the kernel pages the index in and out
    /// and this does not apply.
    pub max_memory_bytes: usize,
    /// Bytes the index writer may buffer before it writes a segment (at least 15 MB).
    pub writer_memory: usize,
    pub fields: Vec<SearchField>,
    /// Longest fragment a hit shows, in characters.
    pub fragment_chars: usize,
    /// Articles read from the content service at once while building.
    pub concurrency: usize,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            mode: SearchMode::Auto,
            dir: None,
            max_articles: 50_000,
            max_body_chars: 20_000,
            max_memory_bytes: 64 * 1024 * 1024,
            writer_memory: 32 * 1024 * 1024,
            fields: vec![SearchField::Title, SearchField::Summary, SearchField::Body],
            fragment_chars: 120,
            concurrency: 4,
        }
    }
}

impl SearchSettings {
    /// Whether searches are the index's, given whether the CMS searches.
    pub fn uses_index(&self, cms_searches: bool) -> bool {
        match self.mode {
            SearchMode::Cms => false,
            SearchMode::Index => true,
            SearchMode::Auto => !cms_searches,
        }
    }

    /// Why searches go where they go, in a sentence (`check-upstream`, the start-up log).
    pub fn explain(&self, cms_searches: bool) -> &'static str {
        match (self.mode, cms_searches) {
            (SearchMode::Cms, true) => "search.mode = \"cms\": the CMS's own search answers",
            (SearchMode::Cms, false) => {
                "search.mode = \"cms\" and the CMS has no search: the portal shows no search box"
            }
            (SearchMode::Index, _) => "search.mode = \"index\": the gateway's own index answers",
            (SearchMode::Auto, true) => {
                "search.mode = \"auto\" and the CMS searches: the CMS's own search answers (\"index\" would use the gateway's)"
            }
            (SearchMode::Auto, false) => {
                "search.mode = \"auto\" and the CMS has no search: the gateway's own index answers"
            }
        }
    }

    fn indexed(&self) -> Indexed {
        Indexed {
            summary: self.fields.contains(&SearchField::Summary),
            body: self.fields.contains(&SearchField::Body),
        }
    }
}

/// Where the index stands: whether a search may ask it, and `portal_search_ready`/`_articles`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Not asked for (the mode says the CMS answers).
    Off,
    /// Being built: `read` articles of `of` so far (`of` is 0 until the lists are walked).
    Building {
        read: usize,
        of: usize,
    },
    Ready {
        articles: u64,
    },
    /// Could not be opened (its folder, say): searches go to the CMS, or answer 503.
    Failed(String),
}

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("the search index is not built yet")]
    NotReady,
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("a search task ended abnormally")]
    Task,
    #[error("every search turn is taken")]
    Busy,
}

/// Index searches at once beside the cores' count, and how long a search waits for a turn. Each
/// runs on a blocking thread: unbounded, a flood of uncached searches from 40 addresses (each
/// within its own allowance) took 503 MiB and `/healthz` 1.56 s, 1.55 GiB on large bodies (the
/// red team of 2026-11-28). A search of the demo's index takes 0.1–2 ms, so a turn comes free
/// long before the wait ends unless the index is flooded.
const SEARCHES_PER_CORE: usize = 2;
const SEARCH_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The gateway's index and what is known of it; one per process, outliving reloads.
pub struct SearchIndex {
    engine: OnceLock<Arc<Engine>>,
    status: Mutex<Status>,
    /// Commits made so far, and when the last one was (`/readyz`).
    commits: std::sync::atomic::AtomicU64,
    committed: Mutex<Option<Instant>>,
    /// How many of the cache's purges the keeper has followed (`ResponseCache::purges_applied`
    /// when it is up to date): what `/readyz` reports as `behind`, and what the tests wait on
    /// rather than guessing how long an edit takes to reach the index.
    followed: std::sync::atomic::AtomicU64,
    /// The gateway is stopping: the keeper ends.
    closed: std::sync::atomic::AtomicBool,
    /// At `search.max_memory_bytes`, holding only the newest articles that fit (`keeper.rs`).
    full: std::sync::atomic::AtomicBool,
    /// Turns for visitors' searches (`SEARCHES_PER_CORE`).
    turns: Arc<tokio::sync::Semaphore>,
}

impl Default for SearchIndex {
    fn default() -> Self {
        Self {
            engine: OnceLock::new(),
            status: Mutex::new(Status::Off),
            commits: std::sync::atomic::AtomicU64::new(0),
            committed: Mutex::new(None),
            followed: std::sync::atomic::AtomicU64::new(0),
            closed: std::sync::atomic::AtomicBool::new(false),
            full: std::sync::atomic::AtomicBool::new(false),
            turns: Arc::new(tokio::sync::Semaphore::new(
                SEARCHES_PER_CORE
                    * std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
            )),
        }
    }
}

impl SearchIndex {
    pub fn status(&self) -> Status {
        self.status.lock().expect("search status lock").clone()
    }

    fn set_status(&self, status: Status) {
        let mut current = self.status.lock().expect("search status lock");
        if *current != status {
            let (ready, articles) = match &status {
                Status::Ready { articles } => (true, *articles as usize),
                Status::Building { read, .. } => (false, *read),
                Status::Off | Status::Failed(_) => (false, 0),
            };
            portal_core::metrics::search_status(ready, articles);
            *current = status;
        }
    }

    fn is_closed(&self) -> bool {
        self.closed.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Whether the index is at its memory budget, holding only the newest articles that fit.
    pub fn is_full(&self) -> bool {
        self.full.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn set_full(&self, full: bool) {
        self.full.store(full, std::sync::atomic::Ordering::Relaxed);
    }

    /// Bytes the index's live articles held at its last commit (0 before it is opened).
    pub fn bytes(&self) -> u64 {
        self.engine.get().map_or(0, |engine| engine.bytes())
    }

    fn committed(&self) {
        *self.committed.lock().expect("search commit lock") = Some(Instant::now());
        self.commits
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    fn followed_through(&self, purges: u64) {
        self.followed
            .fetch_max(purges, std::sync::atomic::Ordering::SeqCst);
    }

    /// What `/readyz` says of the index: its state, the articles it holds, its commits and how
    /// long ago the last was, and how many purges applied to the cache it has yet to follow
    /// (`applied`: `ResponseCache::purges_applied`).
    pub fn report(&self, applied: u64) -> serde_json::Value {
        let status = self.status();
        let (state, articles) = match &status {
            Status::Off => ("off", None),
            Status::Building { read, .. } => ("building", Some(*read as u64)),
            Status::Ready { articles } => ("ready", Some(*articles)),
            Status::Failed(_) => ("failed", None),
        };
        let followed = self.followed.load(std::sync::atomic::Ordering::SeqCst);
        serde_json::json!({
            "state": state,
            "articles": articles,
            "commits": self.commits.load(std::sync::atomic::Ordering::SeqCst),
            "lastCommitSecondsAgo": self
                .committed
                .lock()
                .expect("search commit lock")
                .map(|at| at.elapsed().as_secs()),
            "behind": applied.saturating_sub(followed),
            // What its live articles hold, and whether it is at `search.max_memory_bytes`.
            "bytes": self.bytes(),
            "full": self.is_full(),
        })
    }

    /// Ends the index's writer at shutdown, freeing its folder (off the async workers).
    pub async fn close(&self) {
        self.closed.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(engine) = self.engine.get() {
            let engine = Arc::clone(engine);
            let _ = tokio::task::spawn_blocking(move || engine.close()).await;
        }
    }

    /// Searches the index, off the async workers.
    /// A visitor's search, off the async workers.
    pub async fn search(&self, ask: Ask, whole_only: bool) -> Result<Found, SearchError> {
        // While it is built, what it holds so far (committed a batch at a time) answers, unless
        // the caller has a whole search to ask instead.
        let building = match self.status() {
            Status::Ready { .. } => false,
            // Off while a search asks it: the keeper has not taken its first turn since the
            // start (or since a reload asked for the index).
            Status::Building { .. } | Status::Off if !whole_only => true,
            _ => return Err(SearchError::NotReady),
        };
        // Still opening (jieba's dictionary and the folder, on the index's own thread at nice
        // +10, which a busy host can hold back for seconds): it holds nothing so far, and says
        // so, as it does after its first commits. A 503 here was a search the CMS cannot answer
        // (filtered by section or date) refused in the first seconds after a start
        // (schemathesis in a clean clone's CI, 2026-12-07).
        let Some(engine) = self.engine.get().map(Arc::clone) else {
            return Ok(Found {
                hits: Vec::new(),
                total: 0,
                per_category: Vec::new(),
                building: true,
            });
        };
        let turn = tokio::time::timeout(SEARCH_WAIT, Arc::clone(&self.turns).acquire_owned())
            .await
            .map_err(|_| SearchError::Busy)?
            .expect("the search turns are never closed");
        let started = Instant::now();
        let mut found = tokio::task::spawn_blocking(move || {
            let _turn = turn;
            engine.search(&ask)
        })
        .await
        .map_err(|_| SearchError::Task)??;
        portal_core::metrics::search_query(started.elapsed());
        found.building = building;
        Ok(found)
    }
}

impl Index for SearchIndex {
    fn search(&self, ask: Ask, whole_only: bool) -> Searching<'_> {
        Box::pin(async move {
            SearchIndex::search(self, ask, whole_only)
                .await
                .map_err(|err| match err {
                    SearchError::NotReady => IndexError::NotReady,
                    SearchError::Busy => IndexError::Busy,
                    err => IndexError::Failed(err.to_string()),
                })
        })
    }
}

#[cfg(test)]
mod turn_tests {
    use super::*;
    use crate::engine::tests::ask;

    /// With every turn taken, a search is refused as busy once its wait is over, rather than
    /// starting another blocking thread; a turn given back serves the next.
    #[tokio::test]
    async fn a_search_past_every_turn_is_refused_as_busy() {
        let index = SearchIndex::default();
        let engine = Engine::open(None, 15_000_000).unwrap();
        assert!(index.engine.set(Arc::new(engine)).is_ok());
        index.set_status(Status::Ready { articles: 0 });
        let all = u32::try_from(index.turns.available_permits()).unwrap();
        let held = Arc::clone(&index.turns)
            .acquire_many_owned(all)
            .await
            .unwrap();
        assert!(matches!(
            index.search(ask("班列"), false).await,
            Err(SearchError::Busy)
        ));
        drop(held);
        assert!(index.search(ask("班列"), false).await.is_ok());
    }

    /// Before its engine is open, a search the CMS cannot answer is an empty page marked as
    /// found while the index is built, not a refusal; one the CMS can answer goes there.
    #[tokio::test]
    async fn a_search_before_the_index_is_open_finds_nothing_yet() {
        let index = SearchIndex::default();
        for status in [Status::Off, Status::Building { read: 0, of: 0 }] {
            index.set_status(status);
            let found = index.search(ask("班列"), false).await.unwrap();
            assert!(found.building);
            assert_eq!((found.hits.len(), found.total), (0, 0));
            assert!(matches!(
                index.search(ask("班列"), true).await,
                Err(SearchError::NotReady)
            ));
        }
    }
}
