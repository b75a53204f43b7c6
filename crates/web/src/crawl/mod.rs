//! The portal as data for machines: `/portal/sitemap.xml`, `/robots.txt` and RSS feeds
//! (`/portal/feed/…`), made from the content service's typed values (`content`: the same cache
//! entries the API answers from) with compiled templates (`templates.rs`), and cached like them:
//! each answer is an `Entry` with its encodings and tags, kept as long as the endpoint whose data
//! it shows says (`Endpoint`'s cache name, so a rename reaches it), so purges and the CMS webhook
//! reach it. One made from an empty CMS answer is shown, never kept. The CMS is asked in pages of
//! at most `dialect.paging.max_size`. Absolute links use `site.public_url`, never the request's
//! `Host`. Every link names a page's real URL, which `pages` renders.
//!
//! The crawlable pages of earlier versions (`/portal/site/…html`, in sitemaps and shares already
//! published) answer with a permanent redirect to the same page's real URL.
//!
//! Feeds: `/portal/feed/<categoryId>.xml` for each list category and `/portal/feed/news.xml` for
//! all news.

mod templates;

use std::{collections::HashMap, future::Future, time::Duration};

use askama::Template;
use axum::{
    Router,
    extract::{Path, State},
    http::{StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
    routing::get,
};
use bytes::Bytes;

use crate::state::AppState;
use portal_cache::{Entry, Kind, MediaType, Outcome, Timing, respond};
use portal_content::{
    envelope::ApiError,
    request::{RequestInfo, query::RawQuery},
};
use portal_core::{
    endpoint::Endpoint,
    model::{Article, Category, Id, flatten, site::Site, tags},
    portal_routes::PORTAL_ROUTES,
};
use templates::FeedItem;

/// The route of the group whose list categories make the all-news feed.
const NEWS_GROUP: &str = "/news_center";
/// Articles in a feed.
const FEED_SIZE: usize = 20;
/// Highest list page a redirect carries (beyond it no portal has content).
const MAX_PAGE: u32 = 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/portal/site",
            get(|| async { Redirect::permanent("/portal/") }),
        )
        .route(
            "/portal/site/",
            get(|| async { Redirect::permanent("/portal/") }),
        )
        .route("/portal/site/{*path}", get(moved))
        .route("/portal/sitemap.xml", get(sitemap))
        .route("/portal/feed/{name}", get(feed))
        .route("/robots.txt", get(robots))
}

/// What a data answer is made of: its body and type, the tags purges find it by, and whether it
/// may be kept (not when any value it shows came from an empty CMS answer).
pub(crate) struct Made {
    pub status: StatusCode,
    pub media_type: MediaType,
    pub body: String,
    pub tags: Vec<String>,
    pub cacheable: bool,
}

impl Made {
    /// The "not found" answer of something the category tree lacks while the tree came from an
    /// empty CMS answer: shown, never kept (the tree is the CMS's to fill again).
    fn missing_from_empty_tree() -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            media_type: MediaType::Html,
            body: NOT_FOUND.to_owned(),
            tags: vec![tags::CATEGORIES.to_owned()],
            cacheable: false,
        }
    }
}

/// Answers `key` from the cache, making it with `make` on a miss; kept as long as `shows`'s
/// answers (its TTL, or an override matching `key`); counted in the cache statistics as `kind`.
pub(crate) async fn cached<F, Fut>(
    kind: Kind,
    state: &AppState,
    info: RequestInfo,
    key: String,
    shows: Endpoint,
    make: F,
) -> Response
where
    F: Fn(AppState) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Made, ApiError>> + Send + 'static,
{
    let content = state.content();
    let policy = content.policy(kind, shows, &key);
    let cache_enabled = content.source().cache.enabled;
    let for_load = state.clone();
    let keep_not_found = !policy.not_found_ttl.is_zero();
    let load = move || {
        let made = make(for_load.clone());
        async move {
            match made.await {
                Ok(made) => {
                    let entry = Entry::of(made.media_type, made.status, Bytes::from(made.body))
                        .tagged(made.tags);
                    Ok(std::sync::Arc::new(if made.cacheable {
                        entry
                    } else {
                        entry.not_cacheable()
                    }))
                }
                Err(err) if keep_not_found && err.is_not_found() => Ok(std::sync::Arc::new(
                    Entry::of(
                        MediaType::Html,
                        StatusCode::NOT_FOUND,
                        Bytes::from_static(NOT_FOUND.as_bytes()),
                    )
                    .tagged(vec![tags::CATEGORIES.to_owned()]),
                )),
                Err(err) => Err(err),
            }
        }
    };
    if !cache_enabled {
        return match load().await {
            Ok(entry) => respond(
                &entry,
                Outcome::Bypass,
                &info.into_wants(),
                Timing::default(),
            ),
            Err(err) => unavailable(&err),
        };
    }
    let lookup = state.cache.get_or_load(&key, &policy, load).await;
    portal_cache::stats::record(kind, lookup.outcome);
    match lookup.result {
        Ok(entry) => respond(&entry, lookup.outcome, &info.into_wants(), lookup.timing),
        Err(err) => unavailable(&err),
    }
}

const NOT_FOUND: &str = crate::not_found::PAGE;

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, Html(NOT_FOUND)).into_response()
}

/// An answer that could not be made (the CMS failing with nothing cached): its status, in HTML.
fn unavailable(err: &ApiError) -> Response {
    if err.is_not_found() {
        return not_found();
    }
    let status = err.status();
    let mut response = (
        status,
        Html("<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>页面暂不可用</title></head><body><h1>页面暂不可用</h1><p>内容服务暂时无法访问，请稍后再试。</p></body></html>"),
    )
        .into_response();
    if let Some(wait) = err.retry_after() {
        response.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from(wait.as_secs().max(1)),
        );
    }
    response.extensions_mut().insert(err.clone());
    response
}

/// `/portal/site/…html`, a crawlable page of earlier versions: the same page at its real URL,
/// for good (a list's `?page=N` carried over). Anything else there is gone.
async fn moved(Path(path): Path<String>, query: RawQuery) -> Response {
    let Some(stem) = path.strip_suffix(".html") else {
        return not_found();
    };
    let target = if stem == "index" {
        "/portal/".to_owned()
    } else if let Some(id) = stem.strip_prefix("article/") {
        let Some(id) = id_of(id) else {
            return not_found();
        };
        links::article(&id)
    } else {
        let route = format!("/{stem}");
        if !PORTAL_ROUTES.contains(&route.as_str()) {
            return not_found();
        }
        match query.text("page").map(|raw| raw.parse::<u32>()) {
            None => links::route(&route),
            Some(Ok(page)) if (1..=MAX_PAGE).contains(&page) => links::route_page(&route, page),
            Some(_) => return not_found(),
        }
    };
    (StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, target)]).into_response()
}

/// An id in a path: the CMS's own (`Id`), not the top level's `0`.
fn id_of(text: &str) -> Option<Id> {
    Id::parse(text).ok().filter(|id| !id.is_top())
}

/// The pages' real URLs (the app's routes under `/portal`, `frontend/src/lib/page-href.ts`).
mod links {
    pub fn route(route: &str) -> String {
        format!("/portal{route}")
    }

    pub fn route_page(path: &str, page: u32) -> String {
        if page <= 1 {
            route(path)
        } else {
            format!("/portal{path}?page={page}")
        }
    }

    /// An app path (`/about`, `/`) in a language's pages (`/portal`, `/portal/en`).
    pub fn in_language(prefix: &str, path: &str) -> String {
        if path == "/" {
            format!("{prefix}/")
        } else {
            format!("{prefix}{path}")
        }
    }

    pub fn article(id: &portal_core::model::Id) -> String {
        format!("/portal/article/{id}")
    }

    pub fn feed(category: &portal_core::model::Id) -> String {
        format!("/portal/feed/{category}.xml")
    }

    pub const NEWS_FEED: &str = "/portal/feed/news.xml";
}

fn absolute(site: &Site, path: &str) -> String {
    format!("{}{path}", site.public_url.trim_end_matches('/'))
}

fn render<T: Template>(template: &T) -> Result<String, ApiError> {
    let mut xml = template
        .render()
        .map_err(|_| ApiError::Internal("a sitemap or feed failed to render"))?;
    // A control character in CMS text (a title, a summary) is no character XML 1.0 has: escaping
    // cannot write it, and one makes every feed reader refuse the whole feed. It is dropped.
    if xml.chars().any(|c| !xml_char(c)) {
        xml.retain(xml_char);
    }
    Ok(xml)
}

/// A character XML 1.0 allows (its `Char` production: tab, line feed, carriage return, and
/// everything from the space up but U+FFFE and U+FFFF), less the control characters it only
/// discourages (DEL and U+0080–U+009F), which are no text either.
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Tags of an answer that follows the category tree.
fn with_tree_tag(mut tags_: Vec<String>) -> Vec<String> {
    tags_.push(tags::CATEGORIES.to_owned());
    tags_
}

/// Every page and article, each once. Asks the CMS for every article in pages of `max_size`:
/// a sitemap of N articles costs ⌈N / max_size⌉ list calls on a miss (docs/operations.md).
async fn sitemap(State(state): State<AppState>, info: RequestInfo) -> Response {
    // Its addresses are absolute (the protocol's rule): none without `site.public_url`.
    if state.runtime().config.site.public_url.is_empty() {
        return not_found();
    }
    cached(
        Kind::Crawl,
        &state,
        info,
        // Keyed by the languages it lists: a reload that adds or drops one is another sitemap.
        sitemap_key(&state.runtime()),
        Endpoint::ArticleList,
        |state| async move {
            let runtime = state.runtime();
            let site = &runtime.config.site;
            // Each language's pages, by their address in the app (`/about`, `/article/2101`).
            let (own, mut cacheable) = pages_in(&state.content_of(&runtime), site).await?;
            let mut languages = vec![(SITE_HREFLANG, "/portal".to_owned(), own)];
            for language in &runtime.languages {
                let (pages, kept) =
                    pages_in(&state.content_in(&runtime, Some(language)), &language.facts).await?;
                cacheable &= kept;
                let prefix = format!("/portal/{}", language.code);
                languages.push((&*language.code, prefix, pages));
            }
            // A page in more than one language names each of them (`hreflang`), itself too.
            let mut urls = Vec::new();
            for (_, prefix, pages) in &languages {
                for (path, lastmod) in pages {
                    let alternates: Vec<(String, String)> = if languages.len() < 2 {
                        Vec::new()
                    } else {
                        languages
                            .iter()
                            .filter(|(_, _, theirs)| theirs.iter().any(|(p, _)| p == path))
                            .map(|(code, prefix, _)| {
                                (
                                    (*code).to_owned(),
                                    absolute(site, &links::in_language(prefix, path)),
                                )
                            })
                            .collect()
                    };
                    let alternates = if alternates.len() < 2 {
                        Vec::new()
                    } else {
                        alternates
                    };
                    urls.push((
                        absolute(site, &links::in_language(prefix, path)),
                        lastmod.clone(),
                        alternates,
                    ));
                }
            }
            Ok(Made {
                status: StatusCode::OK,
                media_type: MediaType::Xml,
                body: render(&templates::Sitemap { urls })?,
                tags: vec![tags::CATEGORIES.to_owned(), tags::ALL_ARTICLES.to_owned()],
                cacheable,
            })
        },
    )
    .await
}

/// The sitemap's cache key: `sitemap.xml`, and the other languages it lists (`?languages=en`).
fn sitemap_key(runtime: &crate::state::Runtime) -> String {
    let codes: Vec<&str> = runtime.languages.iter().map(|l| &*l.code).collect();
    if codes.is_empty() {
        "sitemap.xml".to_owned()
    } else {
        format!("sitemap.xml?languages={}", codes.join(","))
    }
}

/// The `hreflang` of the site's own language's pages.
const SITE_HREFLANG: &str = "zh-CN";

/// A language's pages for the sitemap, each with the date it last changed: the home page, the
/// sections the CMS has (less those without an article), the app's own pages, every article.
async fn pages_in(
    content: &portal_content::ContentService<'_>,
    site: &Site,
) -> Result<(Vec<(String, Option<String>)>, bool), ApiError> {
    let tree = content.tree().await?;
    let articles = content.first_articles(None, usize::MAX).await?;
    // A page changes when its newest article does: that date is its lastmod (a group's,
    // its children's newest; the home page's, the newest of all).
    let mut newest: HashMap<&Id, &str> = HashMap::new();
    for a in articles.value.iter() {
        let slot = newest.entry(&a.category_id).or_default();
        if a.date() > *slot {
            *slot = a.date();
        }
    }
    let lastmod = |c: &Category| {
        flatten(std::slice::from_ref(c))
            .iter()
            .filter_map(|c| newest.get(&c.id).copied())
            .max()
            .map(str::to_owned)
    };
    let overall = newest.values().max().map(|d| (*d).to_owned());
    // A section with no article (a list or a single page; a group shows its children) is
    // no page worth a crawler's visit; said only when the walk above read every article,
    // not when it stopped short.
    let read_all = (articles.value.len() as u64)
        < u64::from(content.max_page_size()) * u64::from(portal_content::MAX_PAGES_WALKED);
    // And only when the CMS names each listed article's category (Wagtail's list items
    // name none: every section would look empty).
    let categorised = articles.value.iter().any(|a| !a.category_id.is_top());
    let empty_section = |c: &Category| {
        read_all && categorised && c.kind.as_deref() != Some("group") && lastmod(c).is_none()
    };
    let mut pages = vec![("/".to_owned(), overall)];
    pages.extend(
        tree.value
            .flatten()
            .into_iter()
            .filter(|c| PORTAL_ROUTES.contains(&c.url.as_str()) && !empty_section(c))
            .map(|c| (c.url.clone(), lastmod(c))),
    );
    // The app's own pages (联系我们, the statements; 信访举报 where there is a channel):
    // no date of their own.
    pages.extend(
        portal_core::portal_routes::own_pages()
            .iter()
            .filter(|p| **p != "/whistleblowing" || site.whistleblowing.has_channel())
            .map(|p| ((*p).to_owned(), None)),
    );
    pages.extend(articles.value.iter().map(|a| {
        let date = a.date();
        (
            format!("/article/{}", a.id),
            (!date.is_empty()).then(|| date.to_owned()),
        )
    }));
    Ok((pages, tree.cacheable && articles.cacheable))
}

/// `/portal/feed/<categoryId>.xml` (a list category) or `/portal/feed/news.xml` (every list
/// category of the news group): the latest 20 articles.
async fn feed(
    State(state): State<AppState>,
    Path(name): Path<String>,
    info: RequestInfo,
) -> Response {
    let Some(stem) = name.strip_suffix(".xml") else {
        return not_found();
    };
    // A feed's links are absolute (RSS's rule): none without `site.public_url`.
    if state.runtime().config.site.public_url.is_empty() {
        return not_found();
    }
    let which = if stem == "news" {
        None
    } else if let Some(id) = id_of(stem) {
        Some(id)
    } else {
        return not_found();
    };
    let key = format!("feed/{stem}.xml");
    cached(
        Kind::Crawl,
        &state,
        info,
        key,
        Endpoint::ArticleList,
        move |state| make_feed(state, which.clone()),
    )
    .await
}

async fn make_feed(state: AppState, which: Option<Id>) -> Result<Made, ApiError> {
    let runtime = state.runtime();
    let content = state.content_of(&runtime);
    let site = &runtime.config.site;
    let tree = content.tree().await?;
    let mut cacheable = tree.cacheable;
    let (title, link, categories): (String, String, Vec<&Category>) = match &which {
        Some(id) => {
            let Some(trail) = tree
                .value
                .trail_to_id(id)
                .filter(|t| t.last().is_some_and(|c| c.is_list()))
            else {
                if !tree.cacheable {
                    return Ok(Made::missing_from_empty_tree());
                }
                return Err(ApiError::NotFound(format!("栏目 {id} 没有订阅源。")));
            };
            let category = *trail.last().expect("a trail ends with its category");
            (
                format!("{} – {}", category.name, site.company_name),
                links::route(&category.url),
                vec![category],
            )
        }
        None => {
            let Some(trail) = tree.value.trail_to_url(NEWS_GROUP) else {
                if !tree.cacheable {
                    return Ok(Made::missing_from_empty_tree());
                }
                return Err(ApiError::NotFound("新闻中心不存在。".to_owned()));
            };
            let group = *trail.last().expect("a trail ends with its category");
            (
                format!("{} – {}", group.name, site.company_name),
                links::route(NEWS_GROUP),
                flatten(std::slice::from_ref(group))
                    .into_iter()
                    .filter(|c| c.is_list())
                    .collect(),
            )
        }
    };
    let mut articles = Vec::new();
    let mut found_tags = Vec::new();
    for category in &categories {
        found_tags.push(tags::category(&category.id));
        let latest = content
            .first_articles(Some(category.id.clone()), FEED_SIZE)
            .await?;
        cacheable &= latest.cacheable;
        articles.extend(latest.value.iter().cloned());
    }
    articles.sort_by(|a, b| b.publish_time.cmp(&a.publish_time).then(b.id.cmp(&a.id)));
    articles.truncate(FEED_SIZE);
    found_tags.extend(articles.iter().map(|a| tags::article(&a.id)));
    let self_href = match &which {
        Some(id) => links::feed(id),
        None => links::NEWS_FEED.to_owned(),
    };
    let feed = templates::Feed {
        title,
        link: absolute(site, &link),
        description: format!("{}发布的最新文章", site.company_name),
        self_href: absolute(site, &self_href),
        last_build: articles.first().and_then(Article::rfc2822),
        items: articles
            .iter()
            .map(|a| FeedItem {
                title: a.title.clone(),
                link: absolute(site, &links::article(&a.id)),
                pub_date: a.rfc2822(),
                summary: a.summary.clone().filter(|s| !s.is_empty()),
            })
            .collect(),
    };
    Ok(Made {
        status: StatusCode::OK,
        media_type: MediaType::Rss,
        body: render(&feed)?,
        tags: with_tree_tag(found_tags),
        cacheable,
    })
}

/// `/robots.txt`: everything but the API and the operators' paths, and where the sitemap is.
/// Made per config (it names `site.public_url`).
async fn robots(State(state): State<AppState>, info: RequestInfo) -> Response {
    respond(
        &state.runtime().robots,
        Outcome::Hit,
        &info.into_wants(),
        Timing::fresh(Duration::from_secs(3600)),
    )
}
