//! The content service: each content operation of the portal (the category tree, a category's
//! parent, a page of a list, an article, a page of a search) declared once as a `Query`, with
//! its cache key, tags, loader, "not found" and empty-answer rule. Both faces ask it: the JSON API
//! sends the encoded answer a lookup finds, the sitemap and the feeds read
//! the typed value the same entry holds. Neither face calls the CMS adapter, runs the other's
//! handlers or parses a body the gateway made.
//!
//! An entry holds the value and its API encoding (the envelope, gzip, brotli, made once on a
//! miss), so an API hit stays a byte copy (docs/performance.md) whichever face missed first.
//!
//! With the service live what every face shares below it: the envelope (`envelope`, the only
//! shape of an API answer), the per-client limits and their layer (`limits`), and what a
//! request asks (`request`: its headers and its validated query).

pub mod envelope;
mod file;
pub mod index;
pub mod limits;
mod query;
pub mod request;
mod section_links;

use std::{future::Future, pin::Pin, sync::Arc};

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};

use crate::envelope::{ApiError, success_bytes};
use crate::limits::Work;
pub use file::{PASSED_HEADERS, cache_control as file_cache_control, not_modified};
pub use index::{Ask, Index, IndexError};
use portal_cache::{CacheConfig, Class, Entry, Kind, Outcome, Policy, Timing, stats};
pub use portal_cms::UpstreamFile as File;
use portal_cms::{Credential, Fetched, Upstream};
use portal_core::{
    endpoint::Endpoint,
    model::{
        Article, ArticlePage, CategoryTree, Content, Highlight, Id, SearchHit, SearchPage,
        SearchSource, SectionCount,
    },
};
pub use query::Query;

/// The response cache as the service keeps it: its loads fail with the envelope's errors.
pub type Cache = portal_cache::ResponseCache<ApiError>;
/// What a look-up of the service's cache found.
pub type Lookup = portal_cache::Lookup<ApiError>;

/// The service's cache fails with the envelope's errors; a load a visitor starts is charged to
/// their share of the CMS.
impl portal_cache::LoadError for ApiError {
    fn timed_out() -> Self {
        Self::Upstream(portal_cms::UpstreamError::Timeout)
    }

    fn task_failed() -> Self {
        Self::Internal("the cache load task failed")
    }

    fn charge_new_load() -> Result<(), Self> {
        limits::charge_cms_share()
    }

    fn is_upstream_failure(&self) -> bool {
        ApiError::is_upstream_failure(self)
    }

    fn is_share_refusal(&self) -> bool {
        matches!(self, Self::CmsShareSpent { .. } | Self::ShareTaken(_))
    }
}

/// A file as the service gives it: the cache's answer (kept, or just loaded and kept), or the
/// CMS's answer streamed on, with the client's place among its files streamed at once (to be held
/// until the CMS's body is let go: `limits/shares.rs`).
pub enum FileAnswer {
    Kept(Lookup),
    Streamed {
        file: File,
        share: Option<limits::Held>,
    },
}

/// A load under way, as the cache runs it.
type Loading = Pin<Box<dyn Future<Output = Result<Arc<Entry>, ApiError>> + Send>>;

/// Who a lookup is for: the gateway itself (cached), or a visitor with their own token (passed
/// to the CMS, never cached).
#[derive(Clone, Default)]
pub struct Caller {
    pub bearer: Option<HeaderValue>,
    pub request_id: Option<HeaderValue>,
}

impl Caller {
    fn credential(&self) -> Credential<'_> {
        match &self.bearer {
            Some(token) => Credential::Bearer(token),
            None => Credential::Client,
        }
    }
}

/// A typed value a face renders, and whether it may be kept: `false` when it was made from an
/// empty CMS answer, so nothing built from it is cached either.
pub struct Got<T> {
    pub value: Arc<T>,
    pub cacheable: bool,
}

/// The service over one runtime's `Source` (the CMS client and the settings it applies) and the
/// cache, for one request: a request keeps the runtime it started with.
pub struct ContentService<'a> {
    source: Arc<Source>,
    cache: &'a Arc<Cache>,
    index: Arc<dyn Index>,
}

/// What the service reads of one version of the config: the CMS client and the few settings it
/// applies. Built with each runtime and swapped with it on a reload.
pub struct Source {
    pub upstream: Upstream,
    /// `[cache]`: the TTLs of what the service keeps, and whether it keeps anything.
    pub cache: CacheConfig,
    /// The CMS ceiling: calls a second all visitors together may make (`limits.upstream_per_second`).
    pub cms_per_second: u32,
    /// Whether searches are the gateway's own index's (`[search] mode`, and whether the CMS
    /// searches).
    pub search_by_index: bool,
    /// How long a hit's fragment is (`search.fragment_chars`).
    pub fragment_chars: usize,
    /// The language this source answers in (`[languages.en]`), `None` for the site's own: its
    /// answers are kept under keys of their own (`CacheKey::in_language`).
    pub lang: Option<Arc<str>>,
}

impl<'a> ContentService<'a> {
    /// The service over `source` (a request's runtime), the cache and the search index.
    pub fn new(source: Arc<Source>, cache: &'a Arc<Cache>, index: Arc<dyn Index>) -> Self {
        Self {
            source,
            cache,
            index,
        }
    }

    /// `query`'s cache key in this service's language.
    pub fn key(&self, query: &Query) -> portal_core::endpoint::CacheKey {
        query.key().in_language(self.source.lang.as_deref())
    }

    /// The language this service answers in; `None` for the site's own.
    pub fn lang(&self) -> Option<&str> {
        self.source.lang.as_deref()
    }

    /// What this service reads of the config.
    pub fn source(&self) -> &Arc<Source> {
        &self.source
    }

    /// How long an answer that shows `shows`'s data lives (a page, the sitemap, a
    /// feed: the endpoint's TTL, or an override matching `key`).
    pub fn policy(&self, kind: Kind, shows: Endpoint, key: &str) -> Policy {
        Policy::named(
            &self.source.cache,
            Class {
                kind,
                cache_name: shows.cache_name(),
            },
            key,
            self.source.upstream.timeout(),
        )
    }

    /// How long a CMS call may take (a cache policy's wait is built from it).
    pub fn cms_timeout(&self) -> std::time::Duration {
        self.source.upstream.timeout()
    }

    /// Whether the CMS searches (`dialect.endpoints.article_search` set).
    pub fn has_search(&self) -> bool {
        self.source.upstream.dialect().has_search()
    }

    /// The CMS ceiling: calls a second all visitors together may make (`limits.upstream_per_second`).
    pub fn cms_per_second(&self) -> u32 {
        self.source.cms_per_second
    }

    /// Whether searches are the gateway's own index's (`[search] mode`).
    pub fn search_by_index(&self) -> bool {
        self.source.search_by_index
    }

    /// A file of the CMS's file store (`segments` already checked by the caller): from the
    /// cache when it is an image or captions within `cache.file_max_bytes` (`file.rs`), loaded
    /// once on a miss; streamed from the CMS otherwise (a `Range`, another type, a larger file,
    /// the cache off), as its answer (200, 206, or 304 to a conditional request). "Not found"
    /// for 404 and 410, a bad answer for any other status.
    pub async fn file(
        &self,
        segments: &[&str],
        raw_query: Option<&str>,
        forward: &HeaderMap,
    ) -> Result<FileAnswer, ApiError> {
        let kind = Kind::Api(Endpoint::Files);
        // Where files sit among the CMS's pages (`files_match`), any other address is none: the
        // CMS is not asked for it.
        let dialect = self.source.upstream.dialect();
        if !dialect.files_match().is_empty() && !dialect.is_file_path(&segments.join("/")) {
            return Err(ApiError::NotFound("文件不存在。".to_owned()));
        }
        // The image parameters the CMS reads (`?width=300`), as the dialect allows them: sent
        // on, and part of the key (each size its own entry).
        let query = self.source.upstream.dialect().file_query(raw_query);
        let config = &self.source.cache;
        let max_bytes = config.file_max_bytes;
        let keep_private = config.file_keep_private;
        if !config.enabled || max_bytes == 0 || forward.contains_key(header::RANGE) {
            stats::record(kind, Outcome::Bypass);
            // Each streamed answer holds a CMS connection while it lasts: the client has a
            // share of those at once. And it is a call to the CMS: charged to the client's
            // share, as a load is (a `Range` on a file was a side door to everyone's CMS calls).
            let share = limits::take_share(Work::File)?;
            limits::charge_cms_share()?;
            let file = file::fetch(&self.source.upstream, segments, &query, forward).await?;
            return Ok(FileAnswer::Streamed { file, share });
        }
        let mut key = format!("files/{}", segments.join("/"));
        if !query.is_empty() {
            let pairs: Vec<String> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
            key = format!("{key}?{}", pairs.join("&"));
        }
        // A client with all its streams under way is still served a file that is kept; any other
        // would be one more stream (and a CMS call to find out), refused before that call. A kept
        // file holds no place: a page's images come at once, beside its video.
        if !limits::has_share_left(Work::File)
            && !matches!(self.cache.peek(&key).await, Some(kept) if kept.cacheable)
        {
            return Err(ApiError::ShareTaken(Work::File.limit_label()));
        }
        let query: Arc<[(String, String)]> = query.into();
        let policy = self.policy(kind, Endpoint::Files, &key).in_memory_only();
        let handoff = file::Handoff::default();
        let load = {
            let source = Arc::clone(&self.source);
            let owned: Arc<[String]> = segments.iter().map(|s| (*s).to_owned()).collect();
            let handoff = Arc::clone(&handoff);
            let query = Arc::clone(&query);
            move || {
                let (source, owned, handoff, query) = (
                    Arc::clone(&source),
                    Arc::clone(&owned),
                    Arc::clone(&handoff),
                    Arc::clone(&query),
                );
                Box::pin(async move {
                    match file::load(&source.upstream, &owned, &query, max_bytes, keep_private)
                        .await?
                    {
                        file::Loaded::Kept(entry) => Ok(Arc::new(*entry)),
                        file::Loaded::Streamed(streamed) => {
                            *handoff.lock().expect("file handoff lock") = Some(streamed);
                            // Not stored: it tells the requests waiting on this load to stream.
                            Ok(Arc::new(Entry::file_not_kept()))
                        }
                    }
                }) as Loading
            }
        };
        let lookup = self.cache.get_or_load(&key, &policy, load).await;
        if matches!(&lookup.result, Ok(entry) if !entry.cacheable) {
            stats::record(kind, Outcome::Bypass);
            let handed = handoff.lock().expect("file handoff lock").take();
            let share = limits::take_share(Work::File)?;
            let file = match handed {
                // This request's own load: the full answer, which may answer its condition.
                Some(full) if file::not_modified(forward, &full.headers) => {
                    file::unchanged(full.headers)
                }
                Some(full) => full,
                // Another request's load found a file not to keep: this one streams its own,
                // another CMS call, charged as one.
                None => {
                    limits::charge_cms_share()?;
                    file::fetch(&self.source.upstream, segments, &query, forward).await?
                }
            };
            return Ok(FileAnswer::Streamed { file, share });
        }
        stats::record(kind, lookup.outcome);
        Ok(FileAnswer::Kept(lookup))
    }

    /// The largest page the CMS gives (`dialect.paging.max_size`).
    pub fn max_page_size(&self) -> u32 {
        self.source.upstream.dialect().max_page_size()
    }

    /// Whether the portal searches: the CMS, or the gateway's index (the pages show a search
    /// box only then).
    pub fn searches(&self) -> bool {
        self.has_search() || self.search_by_index()
    }

    /// The answer to `query`: from the cache (loaded once on a miss) for the gateway's own
    /// credential, straight from the CMS for a visitor's token or with the cache off
    /// (`Outcome::Bypass`).
    pub async fn lookup(&self, query: Query, caller: Caller) -> Lookup {
        if caller.bearer.is_some() || !self.source.cache.enabled {
            stats::record(Kind::Api(query.endpoint()), Outcome::Bypass);
            // Every such answer is a CMS call: charged to the client's share (any `Bearer` token,
            // valid or not, was a side door to everyone's CMS calls).
            let result = match limits::charge_cms_share() {
                Err(spent) => Err(spent),
                Ok(()) => Box::pin(query.entry(self, &caller, false))
                    .await
                    .map(|entry| Arc::new(entry.not_cacheable())),
            };
            return Lookup {
                result,
                outcome: Outcome::Bypass,
                timing: Timing::default(),
            };
        }
        let key = self.key(&query);
        let policy = Policy::new(&self.source.cache, &key, self.source.upstream.timeout());
        let lookup = self
            .cache
            .get_or_load(key.as_str(), &policy, self.loader(query, caller, &policy))
            .await;
        stats::record(policy.class.kind, lookup.outcome);
        lookup
    }

    /// The id of an article as a CMS's own webhook payload writes it (Strapi's `entry`), read as
    /// the dialect reads an article (`fields.article.id`).
    pub fn article_id_in(&self, entry: &serde_json::Value) -> Option<Id> {
        self.source.upstream.dialect().article_id_of(entry)
    }

    /// The category such an entry names (`fields.article.category_id`).
    pub fn article_category_in(&self, entry: &serde_json::Value) -> Option<Id> {
        self.source.upstream.dialect().article_category_of(entry)
    }

    /// Whether the CMS's ids are text (`dialect.ids = "text"`; `Dialect::ids_are_text`).
    pub fn ids_are_text(&self) -> bool {
        self.source.upstream.dialect().ids_are_text()
    }

    /// The id of a category as such a payload writes it (`fields.category.id`).
    pub fn category_id_in(&self, entry: &serde_json::Value) -> Option<Id> {
        self.source.upstream.dialect().category_id_of(entry)
    }

    /// Whether this replica keeps an answer under `key` that no purge has reached since it was
    /// stored (a webhook's refresh stores one): reading it again from the CMS would learn nothing.
    pub async fn keeps_unpurged(&self, key: &str) -> bool {
        self.cache
            .peek(key)
            .await
            .is_some_and(|entry| !entry.is_purged())
    }

    /// Loads `key` (a `CacheKey`'s text) again now, whatever the cache holds (a webhook's
    /// refresh). A key of no content query, or whose load fails, is an error; a "not found" is
    /// not.
    pub async fn refresh(&self, key: &str) -> Result<(), ApiError> {
        let query = Query::of_key(key, self.max_page_size())?;
        let policy = Policy::new(
            &self.source.cache,
            &self.key(&query),
            self.source.upstream.timeout(),
        );
        let load = self.loader(query, Caller::default(), &policy);
        match self.cache.refresh(key, &policy, load).await {
            Err(err) if !err.is_not_found() => Err(err),
            _ => Ok(()),
        }
    }

    /// What the cache calls on a miss or a refresh (a hit runs none of it): the CMS call, the
    /// entry with its value and encodings, or a cached "not found" while `not_found_ttl` allows.
    fn loader(
        &self,
        query: Query,
        caller: Caller,
        policy: &Policy,
    ) -> impl Fn() -> Loading + Send + Sync + 'static {
        let source = Arc::clone(&self.source);
        let cache = Arc::clone(self.cache);
        let index = Arc::clone(&self.index);
        let keep_not_found = !policy.not_found_ttl.is_zero();
        move || {
            let (source, cache, index) =
                (Arc::clone(&source), Arc::clone(&cache), Arc::clone(&index));
            let (caller, query) = (caller.clone(), query.clone());
            Box::pin(async move {
                let service = ContentService {
                    source,
                    cache: &cache,
                    index,
                };
                query
                    .entry(&service, &caller, keep_not_found)
                    .await
                    .map(Arc::new)
            })
        }
    }

    /// The typed value of `query`, as the cache holds it (or loads it).
    async fn value(&self, query: Query) -> Result<(Content, bool), ApiError> {
        let lookup = self.lookup(query.clone(), Caller::default()).await;
        let entry = lookup.result?;
        if entry.status == StatusCode::NOT_FOUND {
            return Err(query.not_found());
        }
        match &entry.content {
            Some(content) => Ok((content.clone(), entry.cacheable)),
            // An entry without its value (written to the shared tier by an older version):
            // asked for again rather than read back from its bytes.
            None => {
                let loaded = query.entry(self, &Caller::default(), false).await?;
                let content = loaded
                    .content
                    .clone()
                    .ok_or(ApiError::Internal("a content load without its value"))?;
                Ok((content, loaded.cacheable))
            }
        }
    }

    /// Whether the category tree is whole and has no category `id`: the tree as this replica
    /// holds it, or (`load`) as the cache gives it, loading it if need be. A tree that cannot be
    /// had, or came from an empty answer, decides nothing.
    async fn lacks_category(&self, id: &Id, load: bool) -> bool {
        let tree = if load {
            match self.tree().await {
                Ok(tree) if tree.cacheable => tree.value,
                _ => return false,
            }
        } else {
            match self
                .cache
                .peek(self.key(&Query::Categories).as_str())
                .await
                .and_then(|entry| entry.content.clone())
            {
                Some(Content::Categories(tree)) => tree,
                _ => return false,
            }
        };
        !tree.content.is_empty() && tree.trail_to_id(id).is_none()
    }

    pub async fn tree(&self) -> Result<Got<CategoryTree>, ApiError> {
        match self.value(Query::Categories).await? {
            (Content::Categories(value), cacheable) => Ok(Got { value, cacheable }),
            _ => Err(ApiError::Internal("the category list held another value")),
        }
    }

    /// One page (1-based) of a category's articles, or of every category's (`None`); `size`
    /// at most the dialect's `max_size`.
    pub async fn articles(
        &self,
        category: Option<Id>,
        page: u32,
        size: u32,
    ) -> Result<Got<ArticlePage>, ApiError> {
        let query = Query::Articles {
            category,
            page,
            size: size.clamp(1, self.max_page_size()),
        };
        match self.value(query).await? {
            (Content::Articles(value), cacheable) => Ok(Got { value, cacheable }),
            _ => Err(ApiError::Internal("an article list held another value")),
        }
    }

    /// The first `count` articles of a category (or of all), newest first, asked for in pages
    /// the CMS gives (`max_size`): as many calls as that takes, each cached as the API's own.
    pub async fn first_articles(
        &self,
        category: Option<Id>,
        count: usize,
    ) -> Result<Got<Vec<Article>>, ApiError> {
        let size = self.max_page_size();
        let mut found = Vec::new();
        let mut cacheable = true;
        let mut page = 1;
        loop {
            let got = self.articles(category.clone(), page, size).await?;
            cacheable &= got.cacheable;
            found.extend(got.value.content.iter().take(count - found.len()).cloned());
            if found.len() >= count || !got.value.has_more() || page >= MAX_PAGES_WALKED {
                return Ok(Got {
                    value: Arc::new(found),
                    cacheable,
                });
            }
            page += 1;
        }
    }

    pub async fn article(&self, id: Id) -> Result<Got<Article>, ApiError> {
        match self.value(Query::Article { id }).await? {
            (Content::Article(value), cacheable) => Ok(Got { value, cacheable }),
            _ => Err(ApiError::Internal("an article held another value")),
        }
    }
}

impl ContentService<'_> {
    /// A page of the CMS's own search, as the portal shows one.
    async fn cms_search(
        &self,
        query: &Query,
        who: Credential<'_>,
        id: Option<&HeaderValue>,
    ) -> Result<Fetched<Content>, ApiError> {
        let call = query.cms_call().expect("searches call the CMS");
        let page = self.source.upstream.article_page(call, who, id).await?;
        Ok(fetched(
            Content::Search(Arc::new(SearchPage::of_cms(page.value))),
            page.empty,
        ))
    }

    /// A page of the gateway's index: the hits with their marked title and fragment, and the
    /// hits per section named from the category tree.
    async fn index_search(
        &self,
        query: &Query,
        whole_only: bool,
    ) -> Result<SearchPage, IndexError> {
        let Query::Search {
            keyword,
            section,
            from,
            to,
            page,
            size,
        } = query
        else {
            unreachable!("only a search asks the index");
        };
        let ask = Ask {
            keyword: keyword.to_string(),
            section: section.clone(),
            from: *from,
            to: *to,
            page: *page,
            size: *size,
            fragment_chars: self.source.fragment_chars,
        };
        let found = self.index.search(ask, whole_only).await?;
        let building = found.building;
        // Boxed: the tree's own load runs through `Query::load`, which called this.
        let tree = Box::pin(self.tree()).await.ok();
        let name_of = |id: &Id| {
            tree.as_ref()
                .and_then(|t| t.value.trail_to_id(id))
                .and_then(|trail| trail.last().map(|c| c.name.clone()))
        };
        let sections = found
            .per_category
            .iter()
            .filter_map(|(id, count)| {
                name_of(id).map(|name| SectionCount {
                    id: id.clone(),
                    name,
                    count: *count,
                })
            })
            .collect();
        let size_u64 = u64::from((*size).max(1));
        Ok(SearchPage {
            content: found
                .hits
                .into_iter()
                .map(|hit| SearchHit {
                    article: hit.article,
                    highlight: Some(Highlight {
                        title: hit.title,
                        fragment: hit.fragment,
                    }),
                })
                .collect(),
            total_elements: found.total,
            total_pages: found.total.div_ceil(size_u64),
            page: *page,
            size: *size,
            source: SearchSource::Index,
            sections,
            building,
        })
    }
}

/// Most CMS pages one walk asks for (the sitemap's: 1000 pages of `max_size` articles).
pub const MAX_PAGES_WALKED: u32 = 1000;

impl Query {
    /// Whether this is a list of a category the (whole) tree does not have (`load`: the tree
    /// may be asked for; else only as this replica holds it).
    async fn unknown_category(&self, service: &ContentService<'_>, load: bool) -> bool {
        match self {
            Self::Articles {
                category: Some(id), ..
            } => Box::pin(service.lacks_category(id, load)).await,
            _ => false,
        }
    }
}

/// What a load found: an answer, or nothing to show (`empty`: the CMS answered nothing at all,
/// so not even the "not found" is kept).
enum Loaded {
    Found(Box<Entry>),
    Missing { empty: bool },
}

impl Query {
    /// Calls the CMS for this query and builds its entry: the value, its API encoding, its
    /// tags, and not cacheable when the CMS answered nothing.
    async fn load(
        &self,
        service: &ContentService<'_>,
        caller: &Caller,
    ) -> Result<Loaded, ApiError> {
        let cms = &service.source.upstream;
        // An id the CMS cannot hold (a word, for a CMS whose ids are numbers) names nothing
        // there: not found, without asking it (many answer such a call with a 400 or a 500).
        if !self.ids().all(|id| cms.dialect().holds(id)) {
            return Ok(Loaded::Missing { empty: false });
        }
        let (who, id) = (caller.credential(), caller.request_id.as_ref());
        let Fetched { value, empty } = match self {
            Self::Categories => {
                let tree = cms.category_tree(who, id).await?;
                fetched(Content::Categories(Arc::new(tree.value)), tree.empty)
            }
            Self::Parent { id: child } => {
                let tree = cms.category_tree(who, id).await?;
                match tree.value.parent_of(child) {
                    Some(parent) => fetched(Content::Parent(parent.map(Arc::new)), tree.empty),
                    None => return Ok(Loaded::Missing { empty: tree.empty }),
                }
            }
            Self::Search { .. } => {
                if service.search_by_index() {
                    // While the index is built, the CMS's own search answers when it has one and
                    // the visitor asked for nothing only the index does; else what the index
                    // holds so far.
                    let whole_only = service.has_search() && !self.is_filtered();
                    match service.index_search(self, whole_only).await {
                        Ok(page) => fetched(Content::Search(Arc::new(page)), false),
                        // Building: the CMS's own search answers meanwhile, when it has one and
                        // the visitor asked for nothing only the index does.
                        Err(IndexError::NotReady)
                            if service.has_search() && !self.is_filtered() =>
                        {
                            service.cms_search(self, who, id).await?
                        }
                        Err(IndexError::NotReady) => return Err(ApiError::SearchBuilding),
                        Err(IndexError::Busy) => return Err(ApiError::SearchBusy),
                        Err(err) => {
                            tracing::error!(error = %err, "the search index failed a search");
                            return Err(ApiError::Internal("the search index failed"));
                        }
                    }
                } else if self.is_filtered() {
                    return Err(ApiError::bad_query(
                        self.first_filter(),
                        "本站的搜索由内容管理系统提供，不支持按栏目或日期筛选。",
                    ));
                } else {
                    service.cms_search(self, who, id).await?
                }
            }
            Self::Articles { .. } => {
                let call = self.cms_call().expect("lists call the CMS");
                let page = match cms.article_page(call, who, id).await {
                    // The CMS refused the call, or has nothing on a first page: a category the
                    // tree does not have is "not found", whatever the CMS said of it (many
                    // answer 400, or an empty page). Only then is the tree consulted.
                    Err(err)
                        if err.is_client_error() && self.unknown_category(service, true).await =>
                    {
                        return Ok(Loaded::Missing { empty: false });
                    }
                    Ok(page)
                        if !page.empty
                            && page.value.page == 1
                            && page.value.content.is_empty()
                            && self.unknown_category(service, false).await =>
                    {
                        return Ok(Loaded::Missing { empty: false });
                    }
                    other => other?,
                };
                fetched(Content::Articles(Arc::new(page.value)), page.empty)
            }
            Self::Article { id: article } => {
                let found = cms.article(article.clone(), who, id).await?;
                match found.value {
                    Some(mut value) => {
                        // Ids that are paths: a body's link to a folder is to its section.
                        if cms.dialect().id_root().is_some()
                            && let Some(body) = value.content.as_deref()
                            && body.contains("/portal/article/")
                            && let Ok(tree) = Box::pin(service.tree()).await
                            && let Some(linked) = section_links::to_sections(body, &tree.value)
                        {
                            value.content = Some(linked);
                        }
                        fetched(Content::Article(Arc::new(value)), found.empty)
                    }
                    None => return Ok(Loaded::Missing { empty: found.empty }),
                }
            }
        };
        let tags = self.tags(Some(&value));
        let large = is_large(&value);
        let make = move || {
            Entry::new(StatusCode::OK, encode(&value))
                .tagged(tags)
                .holding(value)
        };
        // Encoding an answer is JSON and brotli of all of it: a valid 7 MiB article took 244–439
        // ms of a runtime worker, `/healthz` waiting behind it (the red team of 2026-11-28). A
        // large one is made on a blocking thread.
        let entry = if large {
            tokio::task::spawn_blocking(make)
                .await
                .map_err(|_| ApiError::Internal("encoding an answer failed"))?
        } else {
            make()
        };
        Ok(Loaded::Found(Box::new(if empty {
            entry.not_cacheable()
        } else {
            entry
        })))
    }

    /// The entry of a load, or its "not found" as an error; `keep_not_found` makes the latter an
    /// entry of its own (cached `not_found_ttl`, unless the CMS answered nothing).
    async fn entry(
        &self,
        service: &ContentService<'_>,
        caller: &Caller,
        keep_not_found: bool,
    ) -> Result<Entry, ApiError> {
        let missing = |err: ApiError, empty: bool| {
            let entry =
                Entry::new(StatusCode::NOT_FOUND, err.envelope_bytes()).tagged(self.tags(None));
            if empty { entry.not_cacheable() } else { entry }
        };
        match self.load(service, caller).await {
            Ok(Loaded::Found(entry)) => Ok(*entry),
            Ok(Loaded::Missing { empty }) if keep_not_found => Ok(missing(self.not_found(), empty)),
            Ok(Loaded::Missing { .. }) => Err(self.not_found()),
            // The CMS's own "not found": its message when it wrote one for visitors (in Chinese),
            // else the portal's own (文章 N 不存在。), never the CMS's "Not Found".
            Err(err) if err.is_not_found() => {
                let err = if err.has_visitor_message() {
                    err
                } else {
                    self.not_found()
                };
                if keep_not_found {
                    Ok(missing(err, false))
                } else {
                    Err(err)
                }
            }
            Err(err) => Err(err),
        }
    }
}

fn fetched(value: Content, empty: bool) -> Fetched<Content> {
    Fetched { value, empty }
}

/// An answer whose encoding is worth a blocking thread: an article whose body (with its
/// summary) is over 256 KiB. Lists, trees and searches are bounded by their page sizes.
fn is_large(content: &Content) -> bool {
    const LARGE: usize = 256 * 1024;
    match content {
        Content::Article(article) => {
            article.content.as_ref().map_or(0, String::len)
                + article.summary.as_ref().map_or(0, String::len)
                > LARGE
        }
        _ => false,
    }
}

/// The API's encoding of a value: the envelope with the value as its `result`.
fn encode(content: &Content) -> bytes::Bytes {
    match content {
        Content::Categories(tree) => success_bytes(tree.as_ref()),
        Content::Parent(parent) => success_bytes(parent),
        Content::Articles(page) => success_bytes(page.as_ref()),
        Content::Article(article) => success_bytes(article.as_ref()),
        Content::Search(page) => success_bytes(page.as_ref()),
    }
}

#[cfg(test)]
mod tests;
