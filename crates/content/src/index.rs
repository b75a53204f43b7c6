//! What the service asks of the gateway's own search index: the `Index` trait, which
//! `portal-search` implements, and the values that cross it. The service stays below the index
//! (it never names tantivy or the keeper); the index reads articles through the service.

use std::{future::Future, pin::Pin};

use portal_core::model::{Article, Id, Marked};

/// A visitor's search, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub keyword: String,
    pub section: Option<Id>,
    /// `yyyymmdd`, both ends included.
    pub from: Option<u32>,
    pub to: Option<u32>,
    pub page: u32,
    pub size: u32,
    pub fragment_chars: usize,
}

/// A hit: the article as a list shows it, and its title and a fragment with the matches marked.
pub struct Hit {
    pub article: Article,
    pub title: Vec<Marked>,
    pub fragment: Vec<Marked>,
}

pub struct Found {
    pub hits: Vec<Hit>,
    pub total: u64,
    /// Hits per category, whatever section was asked for (the filter's choices).
    pub per_category: Vec<(Id, u64)>,
    /// Found among what the index holds so far, while it is built.
    pub building: bool,
}

/// Why the index gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// Not built yet (or not opened): the CMS's own search may answer meanwhile.
    #[error("the search index is not built yet")]
    NotReady,
    /// Every turn is taken (`SearchIndex`'s bound on searches at once): a 503 to the visitor.
    #[error("the search index is busy")]
    Busy,
    /// It failed the search (its engine, its task); said in the log, a 500 to the visitor.
    #[error("{0}")]
    Failed(String),
}

/// A search the index answers, boxed so the service can hold any index as `dyn Index`.
pub type Searching<'a> = Pin<Box<dyn Future<Output = Result<Found, IndexError>> + Send + 'a>>;

/// The gateway's own search index, as the service asks it.
pub trait Index: Send + Sync {
    /// `ask`'s page. While the index is built it answers from what it holds so far (`Found::
    /// building`), unless `whole_only` (the CMS's own search can answer meanwhile): then
    /// `NotReady`.
    fn search(&self, ask: Ask, whole_only: bool) -> Searching<'_>;
}
