//! The task that builds the index and keeps it fresh. It reads only through the content service
//! (the cache, the CMS ceiling and cap, the shared tier), as the sitemap does:
//!
//! - **a walk**: every article the lists hold (`first_articles`, the sitemap's walk), newest
//!   first, up to `search.max_articles`; an article not in the index, or whose list entry
//!   changed, is read whole and indexed; one the lists no longer hold leaves it (only after a
//!   whole, non-empty walk: an empty CMS answer never empties the index). At start (in the
//!   background: nothing waits for it), after a purge of a list or of everything, and every
//!   sitemap TTL. Articles are read at most at half the CMS ceiling (`upstream_per_second`), so
//!   visitors' own misses keep the rest; a read refused by the ceiling waits and is tried again.
//! - **a purge** of an article (the webhook, a purge by tag, another replica's purge over the
//!   shared tier, the changes poll): that article is read again at once and indexed, or taken
//!   out when the CMS no longer has it (its lists' tags, which come with it, start no walk); a
//!   purge of lists, a category or the tree alone starts a walk.
//!
//! Each change ends in a commit, after which the index's answers are purged (tag
//! `search-index`) so no cached search or page shows the index as it was. With a shared tier
//! each replica keeps its own index from the same purges; the reads behind them are mostly the
//! shared tier's.

use std::{
    collections::{BTreeSet, HashMap},
    hash::{Hash, Hasher},
    sync::Arc,
    time::Duration,
};

use futures_util::{StreamExt, stream};
use tokio::{sync::broadcast::error::RecvError, time::Instant};

use super::{Engine, Gateway, SearchIndex, SearchSettings, Status, engine::Doc, text};
use portal_cache::{Heard, Kind, Purge, PurgeOrigin};
use portal_content::envelope::ApiError;
use portal_content::{ContentService, Query};
use portal_core::{
    endpoint::Endpoint,
    model::{Article, CategoryTree, Id, tags},
};

/// How soon after a purge the keeper acts: purges that come together (a webhook's tags, an
/// editor's burst) make one commit.
const GATHER: Duration = Duration::from_millis(50);
/// How often the keeper looks at the config while nothing happens (a reload may turn it on).
const LOOK_EVERY: Duration = Duration::from_secs(5);
/// The shortest time between two walks, whatever the sitemap's TTL.
const MIN_WALK_EVERY: Duration = Duration::from_secs(30);
/// How soon a walk that could not read some articles is made again.
const RETRY_FAILED: Duration = Duration::from_secs(10);
/// Articles written to the index at once.
const BATCH: usize = 64;
/// While the index is first built, how often what it has read is made searchable.
const COMMIT_WHILE_BUILDING: Duration = Duration::from_secs(1);

/// What the purges heard so far ask of the index.
#[derive(Default)]
struct Pending {
    ids: BTreeSet<Id>,
    walk: bool,
    /// Read every article again, not only the changed ones (a purge of everything).
    reread: bool,
}

impl Pending {
    fn hear(&mut self, purge: &Purge) {
        let own = purge.prefixes.is_empty()
            && purge.evict.is_empty()
            && purge.tags.iter().all(|t| t == tags::SEARCH_INDEX);
        if own {
            return;
        }
        let articles: Vec<Id> = purge
            .tags
            .iter()
            .filter_map(|tag| Id::parse(tag.strip_prefix("article:")?).ok())
            .collect();
        // An article's purge names its lists too (`articles`, `category:N`): reading the article
        // is enough. A purge of lists, a category or the tree alone may change what the lists hold.
        if articles.is_empty() {
            self.walk |= purge.tags.iter().any(|t| t != tags::SEARCH_INDEX);
        } else {
            self.ids.extend(articles);
            self.walk |= purge.tags.iter().any(|t| t == tags::CATEGORIES);
        }
        for prefix in &purge.prefixes {
            if prefix.is_empty() {
                self.walk = true;
                self.reread = true;
            } else if let Some(id) = detail_id(prefix) {
                self.ids.insert(id);
            } else if prefix.starts_with("article") || prefix.starts_with("category") {
                self.walk = true;
            }
        }
        // Another replica loaded these again into the shared tier.
        self.ids
            .extend(purge.evict.iter().filter_map(|key| detail_id(key)));
    }
}

/// The article of a detail's cache key (`article/detail?id=2101`).
fn detail_id(key: &str) -> Option<Id> {
    match Query::of_key(key, 1) {
        Ok(Query::Article { id }) => Some(id),
        _ => None,
    }
}

/// Starts the keeper (from `Application::run_until`). It listens to purges from now on.
pub fn spawn(state: impl Gateway) {
    // At 0 from the start: an alert on a full index has a series to watch before it happens.
    portal_core::metrics::search_size(0, false);
    let purges = state.cache().purges();
    // What came before is in the first walk.
    state
        .index()
        .followed_through(state.cache().purges_applied());
    tokio::spawn(keep(state, purges));
}

async fn keep(state: impl Gateway, mut purges: tokio::sync::broadcast::Receiver<Heard>) {
    let index = Arc::clone(state.index());
    // One past the number of the latest purge heard: once a turn has dealt with what was heard,
    // the index has followed every purge before it.
    let mut heard_through = 0;
    let mut held: HashMap<Id, u64> = HashMap::new();
    // Articles whose detail the gateway refused (`is_bad_cms_answer`), by the fingerprint of their
    // list item then: not asked for again until the CMS lists them changed.
    let mut refused: HashMap<Id, u64> = HashMap::new();
    let mut budget = Budget::default();
    let mut pending = Pending {
        walk: true,
        ..Pending::default()
    };
    let mut next_walk = Instant::now();
    let mut backoff = Duration::from_secs(1);
    let mut open_backoff = Duration::from_secs(1);
    loop {
        if index.is_closed() {
            return;
        }
        let settings = state.settings();
        let content = state.content();
        let wanted = settings.uses_index(content.has_search());
        drop(content);
        if !wanted {
            if index.engine.get().is_none() {
                index.set_status(Status::Off);
            }
            pending.walk = true;
            index.followed_through(heard_through);
            tokio::select! {
                heard = purges.recv() => match heard {
                    Ok(heard) => heard_through = heard.number + 1,
                    Err(RecvError::Closed) => return,
                    Err(RecvError::Lagged(_)) => {}
                },
                () = tokio::time::sleep(LOOK_EVERY) => {}
            }
            continue;
        }
        let engine = match opened(&index, &settings, &mut held).await {
            Ok(engine) => engine,
            Err(err) => {
                tracing::error!(error = %err, retry_in = ?open_backoff, "the search index could not be opened; searches go to the CMS, or answer 503");
                index.set_status(Status::Failed(err.to_string()));
                tokio::time::sleep(open_backoff).await;
                open_backoff = (open_backoff * 2).min(Duration::from_secs(60));
                continue;
            }
        };
        let mut changed = false;
        let mut walked = false;
        if pending.walk || Instant::now() >= next_walk {
            match walk(
                &state,
                &engine,
                &settings,
                (&mut held, &mut refused),
                &mut budget,
                pending.reread,
            )
            .await
            {
                Ok(done) => {
                    changed |= done.changed;
                    index.set_full(budget.fits.is_some());
                    walked = true;
                    pending.walk = false;
                    pending.reread = false;
                    backoff = Duration::from_secs(1);
                    // Articles that could not be read are tried again soon.
                    next_walk = Instant::now()
                        + if done.failed > 0 || done.full {
                            RETRY_FAILED
                        } else {
                            walk_every(&state)
                        };
                }
                Err(err) => {
                    tracing::warn!(error = %err, retry_in = ?backoff, "the search index could not walk the CMS's lists");
                    next_walk = Instant::now() + backoff;
                    backoff = (backoff * 2).min(Duration::from_secs(60));
                    pending.walk = false;
                }
            }
        }
        if !pending.ids.is_empty() && (walked || matches!(index.status(), Status::Ready { .. })) {
            let ids = std::mem::take(&mut pending.ids);
            changed |= reindex(&state, &engine, &settings, &mut held, ids).await;
        }
        if changed {
            commit(&state, &index, &engine).await;
        }
        // Ready once a walk is through and what it read is visible.
        if walked {
            index.set_status(Status::Ready {
                articles: engine.len(),
            });
        }
        // What was heard before this turn is in the index now (or could not be read, and the
        // next walk tries again); still pending only if the index is not ready to read it yet.
        if pending.ids.is_empty() {
            index.followed_through(heard_through);
        }
        // Wait for a purge, the next walk, or a look at the config.
        let until = next_walk.min(Instant::now() + LOOK_EVERY);
        tokio::select! {
            heard = purges.recv() => {
                match heard {
                    Ok(heard) => {
                        heard_through = heard.number + 1;
                        pending.hear(&heard.purge);
                    }
                    Err(RecvError::Lagged(_)) => pending.walk = true,
                    Err(RecvError::Closed) => return,
                }
                // What else comes with it.
                let gather = tokio::time::sleep(GATHER);
                tokio::pin!(gather);
                loop {
                    tokio::select! {
                        () = &mut gather => break,
                        heard = purges.recv() => match heard {
                            Ok(heard) => {
                                heard_through = heard.number + 1;
                                pending.hear(&heard.purge);
                            }
                            Err(RecvError::Lagged(_)) => pending.walk = true,
                            Err(RecvError::Closed) => return,
                        }
                    }
                }
            }
            () = tokio::time::sleep_until(until) => {}
        }
    }
}

/// The engine, opened at the first turn that wants it (the folder and the writer's memory are
/// fixed from then on), with what it holds.
async fn opened(
    index: &Arc<SearchIndex>,
    settings: &SearchSettings,
    held: &mut HashMap<Id, u64>,
) -> Result<Arc<Engine>, super::EngineError> {
    if let Some(engine) = index.engine.get() {
        return Ok(Arc::clone(engine));
    }
    index.set_status(Status::Building { read: 0, of: 0 });
    let (dir, bytes) = (settings.dir.clone(), settings.writer_memory);
    let engine = super::background::run(move || {
        text::warm_up();
        Engine::open(dir.as_deref(), bytes)
    })
    .await
    .ok_or_else(|| {
        super::EngineError::Folder("the task opening the index ended abnormally".into())
    })??;
    let engine = Arc::clone(index.engine.get_or_init(|| Arc::new(engine)));
    let engine_for_held = Arc::clone(&engine);
    *held = super::background::run(move || engine_for_held.held())
        .await
        .unwrap_or_default();
    if !held.is_empty() {
        // Read back from its folder: it answers at once, and the first walk brings it up to date.
        tracing::info!(
            articles = held.len(),
            "the search index is read back from its folder"
        );
        index.set_status(Status::Ready {
            articles: engine.len(),
        });
    } else {
        // Empty: it answers from what the first walk has read so far, a commit a second.
        index.set_status(Status::Building { read: 0, of: 0 });
    }
    Ok(engine)
}

/// How long between two walks: the sitemap's TTL (its walk is the same), at least 30 s.
fn walk_every(state: &impl Gateway) -> Duration {
    let content = state.content();
    content
        .policy(Kind::Crawl, Endpoint::ArticleList, "sitemap.xml")
        .ttl
        .max(MIN_WALK_EVERY)
}

/// What a list shows of an article, hashed: a change means reading the article again.
fn fingerprint(card: &Article) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (
        &card.id,
        &card.category_id,
        &card.title,
        &card.summary,
        &card.publish_time,
        &card.cover,
    )
        .hash(&mut h);
    h.finish()
}

/// An article as a list shows it: no body, no neighbours.
fn card_of(detail: &Article) -> Article {
    Article {
        content: None,
        prev: None,
        next: None,
        attachments: Vec::new(),
        video: None,
        captions: None,
        ..detail.clone()
    }
}

fn doc_of(
    mut card: Article,
    detail: &Article,
    tree: &CategoryTree,
    settings: &SearchSettings,
) -> Doc {
    // As the list shows it: the next walk compares the list's card with this.
    let fingerprint = fingerprint(&card);
    // A list whose items name no category (Wagtail's): the article's own answer does, and a hit
    // then names its section (it was 0 on every hit) and the section filter finds it.
    if card.category_id.is_top() && !detail.category_id.is_top() {
        card.category_id = detail.category_id.clone();
    }
    let indexed = settings.indexed();
    let body = match (&detail.content, indexed.body) {
        (Some(html), true) => text::html_text(html, settings.max_body_chars),
        _ => String::new(),
    };
    let sections = tree
        .trail_to_id(&card.category_id)
        .map(|trail| trail.iter().map(|c| c.id.clone()).collect())
        .unwrap_or_else(|| vec![card.category_id.clone()]);
    Doc {
        article: card,
        body,
        sections,
        fingerprint,
        summary_indexed: indexed.summary,
    }
}

/// How `read` treats the cache's copy of an article.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CachedCopy {
    /// Whatever the cache holds.
    Cached,
    /// Read again from the CMS: a walk found the article changed in its list.
    Reread,
    /// Read again unless the cache holds it loaded since the purge that named it (the webhook's
    /// own refresh): what a notice changed is read from the CMS once per replica, not once by
    /// the webhook and again here.
    Purged,
}

/// Reads an article whole, its cached copy as `copy` says.
async fn read(
    content: &ContentService<'_>,
    id: Id,
    copy: CachedCopy,
) -> Result<Option<Arc<Article>>, ApiError> {
    let key = Query::Article { id: id.clone() }.key();
    let again = match copy {
        CachedCopy::Cached => false,
        CachedCopy::Reread => true,
        CachedCopy::Purged => !content.keeps_unpurged(key.as_str()).await,
    };
    if again {
        content.refresh(key.as_str()).await?;
    }
    match content.article(id).await {
        Ok(got) => Ok(Some(got.value)),
        Err(err) if err.is_not_found() => Ok(None),
        Err(err) => Err(err),
    }
}

/// What a walk did: whether the index changed, and how many articles could not be read.
struct Walked {
    changed: bool,
    failed: usize,
    /// The index reached its memory budget: the next walk lets the oldest go.
    full: bool,
}

/// How many of the newest articles the index keeps while its memory is bounded: set when the
/// live articles reach `search.max_memory_bytes` (as many as fill nine tenths of it, so newer
/// articles find room), and the next walk lists only that many (the older ones leave as the lists' others
/// do). The red team's 3 000 ordinary articles took the process from 41 to 279 MiB, 2 000 of
/// 20 000 characters to 1.09 GiB, past the 256 MiB limit; unbounded, a CMS's size was the
/// gateway's.
#[derive(Debug, Default)]
struct Budget {
    fits: Option<usize>,
}

impl Budget {
    /// Articles a walk lists: `max_articles`, fewer while the budget bounds them. Room again (the
    /// budget raised by a reload, articles made shorter) ends the bound.
    fn most(&mut self, settings: &SearchSettings, engine: &Engine) -> usize {
        let budget = settings.max_memory_bytes as u64;
        if self.fits.is_some() && (!bounded(engine) || engine.bytes() < budget / 4 * 3) {
            self.fits = None;
        }
        self.fits
            .map_or(settings.max_articles, |f| f.min(settings.max_articles))
    }

    /// Whether the index is at its budget; if so, how many articles it keeps from now on.
    fn reached(&mut self, settings: &SearchSettings, engine: &Engine, held: usize) -> bool {
        let (bytes, budget) = (engine.bytes(), settings.max_memory_bytes as u64);
        if !bounded(engine) || bytes < budget {
            return false;
        }
        // As many as fill nine tenths of the budget, at the size of those held.
        let fits = u128::from(budget) * 9 * held as u128 / (10 * u128::from(bytes));
        self.fits = Some(usize::try_from(fits).unwrap_or(usize::MAX).max(1));
        true
    }
}

fn bounded(engine: &Engine) -> bool {
    engine.in_memory()
}

/// One walk.
async fn walk(
    state: &impl Gateway,
    engine: &Arc<Engine>,
    settings: &SearchSettings,
    (held, refused): (&mut HashMap<Id, u64>, &mut HashMap<Id, u64>),
    budget: &mut Budget,
    reread: bool,
) -> Result<Walked, ApiError> {
    let content = state.content();
    let tree = content.tree().await?;
    // Past the budget already (articles a webhook added one by one since): fewer are listed.
    let trims = budget.reached(settings, engine, held.len());
    let most = budget.most(settings, engine);
    let listed = content.first_articles(None, most).await?;
    if most == settings.max_articles && listed.value.len() >= settings.max_articles {
        tracing::warn!(
            max = settings.max_articles,
            "the CMS holds more articles than search.max_articles: the newest are indexed"
        );
    }
    let to_read: Vec<Article> = listed
        .value
        .iter()
        .filter(|card| {
            let print = fingerprint(card);
            reread || (held.get(&card.id) != Some(&print) && refused.get(&card.id) != Some(&print))
        })
        .cloned()
        .collect();
    let building = !matches!(state.index().status(), Status::Ready { .. });
    let of = to_read.len();
    if building {
        state.index().set_status(Status::Building { read: 0, of });
    }
    let mut changed = false;
    let to_read: Vec<(Article, bool)> = to_read
        .into_iter()
        .map(|card| {
            let fresh = held.contains_key(&card.id);
            (card, fresh)
        })
        .collect();
    // At most half the CMS ceiling: visitors' own misses keep the rest.
    let per_second = (content.cms_per_second() / 2).max(1);
    let pace = Duration::from_secs(1) / per_second;
    let started = Instant::now();
    let mut reads = stream::iter(to_read.into_iter().enumerate().map(|(i, (card, fresh))| {
        let content = &content;
        let at = started + pace * u32::try_from(i).unwrap_or(u32::MAX);
        async move {
            tokio::time::sleep_until(at).await;
            let copy = if fresh {
                CachedCopy::Reread
            } else {
                CachedCopy::Cached
            };
            let detail = read(content, card.id.clone(), copy).await;
            (card, detail)
        }
    }))
    .buffer_unordered(settings.concurrency.max(1));
    let mut batch = Vec::with_capacity(BATCH);
    let mut committed = Instant::now();
    let mut read = 0;
    let mut failed = 0;
    let mut full = false;
    let mut since_commit = 0;
    while let Some((card, detail)) = reads.next().await {
        read += 1;
        match detail {
            Ok(Some(detail)) => {
                refused.remove(&card.id);
                batch.push(doc_of(card, &detail, &tree.value, settings));
            }
            // Listed, yet gone: the next walk will not list it.
            Ok(None) => {}
            // The same answer would be refused again (and cost a CMS call and a sanitising):
            // remembered, not retried, until the CMS lists the article changed.
            Err(err) if err.is_bad_cms_answer() => {
                tracing::warn!(id = %card.id, error = %err, "an article the CMS answers cannot be shown: left out of the search index until it changes");
                refused.insert(card.id.clone(), fingerprint(&card));
            }
            Err(err) => {
                failed += 1;
                tracing::debug!(id = %card.id, error = %err, "an article could not be read for the search index");
            }
        }
        if batch.len() == BATCH {
            // Measured at each commit, so at most a second's reading past it.
            if budget.reached(settings, engine, held.len()) {
                full = true;
                break;
            }
            since_commit += batch.iter().map(Doc::text_bytes).sum::<usize>();
            changed |= put(engine, std::mem::take(&mut batch), held).await;
            if building {
                state.index().set_status(Status::Building { read, of });
            }
            // What is read so far answers searches while the rest is read (at most a commit a
            // second: each makes the cached searches stale), and is measured against the budget
            // before a sixteenth of it in text has gone in unmeasured (the index is a few times
            // its text: a batch or so past the budget at most).
            if committed.elapsed() >= COMMIT_WHILE_BUILDING
                || (bounded(engine) && since_commit >= settings.max_memory_bytes / 16)
            {
                commit(state, state.index(), engine).await;
                committed = Instant::now();
                since_commit = 0;
            }
        }
    }
    drop(reads);
    if full {
        changed = true;
    } else {
        changed |= put(engine, batch, held).await;
    }
    if full || trims {
        tracing::warn!(
            bytes = engine.bytes(),
            max = settings.max_memory_bytes,
            keeps = budget.fits,
            "the search index reached search.max_memory_bytes: it keeps the newest articles that fit (raise it, or set search.dir)"
        );
    }
    if failed > 0 {
        tracing::warn!(
            failed,
            "articles could not be read for the search index; the next walk tries them again"
        );
    }
    // Only a whole walk says what is gone.
    if listed.cacheable && !listed.value.is_empty() {
        let listed_ids: std::collections::HashSet<&Id> =
            listed.value.iter().map(|a| &a.id).collect();
        let gone: Vec<Id> = held
            .keys()
            .filter(|id| !listed_ids.contains(id))
            .cloned()
            .collect();
        if !gone.is_empty() {
            engine.remove(&gone);
            for id in &gone {
                held.remove(id);
            }
            changed = true;
        }
    }
    Ok(Walked {
        changed: changed || building,
        failed,
        full: full || trims,
    })
}

/// Writes `docs` (on the index's thread, `background.rs`) and notes what the index now holds.
async fn put(engine: &Arc<Engine>, docs: Vec<Doc>, held: &mut HashMap<Id, u64>) -> bool {
    if docs.is_empty() {
        return false;
    }
    let prints: Vec<(Id, u64)> = docs
        .iter()
        .map(|d| (d.article.id.clone(), d.fingerprint))
        .collect();
    let engine = Arc::clone(engine);
    match super::background::run(move || engine.put(docs)).await {
        Some(Ok(())) => {
            held.extend(prints);
            true
        }
        Some(Err(err)) => {
            tracing::error!(error = %err, "articles could not be written to the search index");
            false
        }
        None => false,
    }
}

/// Reads the purged articles again; whether the index changed.
async fn reindex(
    state: &impl Gateway,
    engine: &Arc<Engine>,
    settings: &SearchSettings,
    held: &mut HashMap<Id, u64>,
    ids: BTreeSet<Id>,
) -> bool {
    let content = state.content();
    let Ok(tree) = content.tree().await else {
        return false;
    };
    let mut docs = Vec::new();
    let mut gone = Vec::new();
    for id in ids {
        match read(&content, id.clone(), CachedCopy::Purged).await {
            Ok(Some(detail)) => {
                let card = card_of(&detail);
                docs.push(doc_of(card, &detail, &tree.value, settings));
            }
            Ok(None) => gone.push(id),
            Err(err) => {
                tracing::warn!(id = %id, error = %err, "a changed article could not be read for the search index; the next walk tries again");
            }
        }
    }
    let mut changed = put(engine, docs, held).await;
    if !gone.is_empty() {
        engine.remove(&gone);
        for id in &gone {
            held.remove(id);
        }
        changed = true;
    }
    changed
}

/// Makes the changes visible, then drops every answer made from the index as it was.
async fn commit(state: &impl Gateway, index: &Arc<SearchIndex>, engine: &Arc<Engine>) {
    let committing = Arc::clone(engine);
    match super::background::run(move || committing.commit()).await {
        Some(Ok(())) => {}
        Some(Err(err)) => {
            tracing::error!(error = %err, "the search index could not commit");
            return;
        }
        None => return,
    }
    if matches!(index.status(), Status::Ready { .. }) {
        index.set_status(Status::Ready {
            articles: engine.len(),
        });
    }
    portal_core::metrics::search_size(engine.bytes(), index.is_full());
    state
        .cache()
        .purge(
            &Purge {
                tags: vec![tags::SEARCH_INDEX.to_owned()],
                hard: true,
                ..Purge::default()
            },
            PurgeOrigin::Search,
        )
        .await;
    index.committed();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heard(purges: &[Purge]) -> Pending {
        let mut pending = Pending::default();
        for purge in purges {
            pending.hear(purge);
        }
        pending
    }

    fn tagged(tags: &[&str]) -> Purge {
        Purge {
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            ..Purge::default()
        }
    }

    #[test]
    fn an_articles_purge_reads_it_again_and_walks_nothing() {
        let p = heard(&[tagged(&["article:2101", "articles", "category:21"])]);
        assert_eq!(p.ids.iter().cloned().collect::<Vec<_>>(), [2101]);
        assert!(!p.walk);
    }

    #[test]
    fn lists_categories_and_everything_start_a_walk() {
        assert!(heard(&[tagged(&["category:21", "articles"])]).walk);
        assert!(heard(&[tagged(&["categories", "category:2", "articles"])]).walk);
        let everything = heard(&[Purge {
            prefixes: vec![String::new()],
            ..Purge::default()
        }]);
        assert!(everything.walk && everything.reread);
        let detail = heard(&[Purge {
            prefixes: vec!["article/detail?id=7".to_owned()],
            evict: vec!["article/detail?id=8".to_owned()],
            ..Purge::default()
        }]);
        assert_eq!(detail.ids.iter().cloned().collect::<Vec<_>>(), [7, 8]);
        assert!(!detail.walk);
    }

    #[test]
    fn the_indexs_own_purge_is_not_heard() {
        let own = heard(&[Purge {
            tags: vec![tags::SEARCH_INDEX.to_owned()],
            hard: true,
            ..Purge::default()
        }]);
        assert!(own.ids.is_empty() && !own.walk);
    }
}
