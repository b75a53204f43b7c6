//! The portal for search engines and for visitors without JavaScript: every menu page, list page
//! and article as complete HTML at a real URL (`/portal/site/…`; the app's own links stay hash
//! routes, per the spec), `/portal/sitemap.xml`, `/robots.txt` and RSS feeds (`/portal/feed/…`).
//!
//! Made from the content service's typed values (`content`: the same cache entries the API
//! answers from) with compiled templates (`pages.rs`), and cached like them: each page is an
//! `Entry` with its encodings and tags, kept as long as the endpoint whose data it shows says
//! (`Endpoint`'s cache name, so a rename reaches it), so a hit costs what an API hit costs and
//! purges and the CMS webhook reach it. A page made from an empty CMS answer is shown, never
//! kept. The CMS is asked in pages of at most `dialect.paging.max_size`. Absolute links use
//! `site.public_url`, never the request's `Host`.
//!
//! URLs: `/portal/site/index.html` (home), `/portal/site/<route>.html[?page=N]` for each route of
//! `portal_routes.rs` (`/portal/site/news_center/notice.html`), `/portal/site/article/<id>.html`,
//! `/portal/feed/<categoryId>.xml` for each list category and `/portal/feed/news.xml` for all news.

mod assets;
mod pages;

use std::{collections::HashMap, future::Future, time::Duration};

use askama::Template;
use axum::{
    Router,
    extract::{Path, State},
    http::StatusCode,
    response::{Html, IntoResponse, Redirect, Response},
    routing::get,
};
use bytes::Bytes;
use serde_json::json;

use crate::{
    cache::{Entry, Kind, MediaType, Outcome, Timing, respond},
    content::ContentService,
    endpoint::Endpoint,
    envelope::ApiError,
    model::{Article, Category, CategoryTree, Link, MAX_PAGE_SIZE, flatten, site::Site, tags},
    portal_routes::PORTAL_ROUTES,
    request::{RequestInfo, query::RawQuery},
    state::AppState,
};
use assets::Assets;
use pages::{ArticleView, AttachmentView, Child, FeedItem, Item, MenuItem, Pager};

/// The route of the group whose list categories make the all-news feed.
const NEWS_GROUP: &str = "/news_center";
/// 清正廉洁, the page that carries the 信访举报 channel (as the app's does).
const INTEGRITY_ROUTE: &str = "/party-construction/clean-honest";
/// Articles on a crawlable list page: the app's list page holds as many (spec §3, the frontend's
/// `LIST_PAGE_SIZE`), so page N here is page N there — the app shares this page's address for
/// its own list page (fewer when the CMS's pages are smaller: one CMS page each). The app's drawn
/// deep-link lists (`first_paint::deep_link`) hold as many.
pub(crate) const LIST_SIZE: u32 = 10;
/// Articles on the home page's latest list and in a feed.
const FEED_SIZE: usize = 20;
/// Highest list page served (beyond it no portal has content).
const MAX_PAGE: u32 = 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/portal/site",
            get(|| async { Redirect::permanent("/portal/site/") }),
        )
        .route("/portal/site/", get(site_index))
        .route("/portal/site/{*path}", get(site_page))
        .route("/portal/sitemap.xml", get(sitemap))
        .route("/portal/feed/{name}", get(feed))
        .route("/robots.txt", get(robots))
}

/// What a crawlable answer is made of: its body and type, the tags purges find it by, and
/// whether it may be kept (not when any value it shows came from an empty CMS answer).
pub(crate) struct Made {
    pub status: StatusCode,
    pub media_type: MediaType,
    pub body: String,
    pub tags: Vec<String>,
    pub cacheable: bool,
}

impl Made {
    /// The "not found" page of something the category tree lacks while the tree came from an
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
/// answers (its TTL, or an override matching `key`); counted in the cache statistics as `kind`
/// (`Crawl` here, `App` for the app's drawn deep-link pages).
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
    let content = ContentService::new(state);
    let policy = content.policy(kind, shows, &key);
    let cache_enabled = content.runtime().config.cache.enabled;
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
    crate::cache::stats::record(kind, lookup.outcome);
    match lookup.result {
        Ok(entry) => respond(&entry, lookup.outcome, &info.into_wants(), lookup.timing),
        Err(err) => unavailable(&err),
    }
}

const NOT_FOUND: &str = crate::not_found::PAGE;

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, Html(NOT_FOUND)).into_response()
}

/// A page that could not be made (the CMS failing with nothing cached): its status, in HTML.
fn unavailable(err: &ApiError) -> Response {
    if err.is_not_found() {
        return not_found();
    }
    let status = err.clone().into_response().status();
    let mut response = (
        status,
        Html("<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>页面暂不可用</title></head><body><h1>页面暂不可用</h1><p>内容服务暂时无法访问，请稍后再试。</p></body></html>"),
    )
        .into_response();
    response.extensions_mut().insert(err.clone());
    response
}

/// `/portal/site/` and `/portal/site/index.html`: the crawlable home page (one cache entry; its
/// canonical link names `index.html`).
async fn site_index(State(state): State<AppState>, info: RequestInfo) -> Response {
    let key = format!("site/index.html?v={:x}", Assets::version(&state.runtime()));
    cached(Kind::Crawl, &state, info, key, Endpoint::ArticleList, home).await
}

/// `/portal/site/…`: the stylesheets the pages use, the home page, an article, a menu route.
async fn site_page(
    State(state): State<AppState>,
    Path(path): Path<String>,
    info: RequestInfo,
    query: RawQuery,
) -> Response {
    if let Some(sheet) = assets::sheet(&path) {
        return sheet.serve(info);
    }
    if path == "index.html" {
        return site_index(State(state), info).await;
    }
    let Some(stem) = path.strip_suffix(".html") else {
        return not_found();
    };
    if let Some(id) = stem.strip_prefix("article/") {
        let Some(id) = id_of(id) else {
            return not_found();
        };
        let key = format!(
            "site/article/{id}.html?v={:x}",
            Assets::version(&state.runtime())
        );
        return cached(
            Kind::Crawl,
            &state,
            info,
            key,
            Endpoint::ArticleDetail,
            move |state| article_page(state, id),
        )
        .await;
    }
    let route = format!("/{stem}");
    if !PORTAL_ROUTES.contains(&route.as_str()) {
        return not_found();
    }
    let Some(page) = page_of(&query) else {
        return not_found();
    };
    let key = format!(
        "site{route}.html?page={page}&v={:x}",
        Assets::version(&state.runtime())
    );
    cached(
        Kind::Crawl,
        &state,
        info,
        key,
        Endpoint::ArticleList,
        move |state| category_page(state, route.clone(), page),
    )
    .await
}

/// An id in a path: digits only, above 0 (the drawn deep-link pages read theirs with it too).
pub(crate) fn id_of(text: &str) -> Option<u64> {
    (!text.is_empty() && text.len() <= 19 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
        .filter(|&id| id > 0)
}

/// A list page's number from `?page=`: 1 without it, `None` unless it is 1 to `MAX_PAGE`.
pub(crate) fn page_of(query: &RawQuery) -> Option<u32> {
    match query.text("page") {
        None => Some(1),
        Some(raw) => raw.parse().ok().filter(|n| (1..=MAX_PAGE).contains(n)),
    }
}

/// Links of the crawlable pages, in one place.
mod links {
    pub fn home() -> String {
        "/portal/site/index.html".to_owned()
    }

    pub fn route(route: &str) -> String {
        format!("/portal/site{route}.html")
    }

    pub fn route_page(path: &str, page: u32) -> String {
        if page <= 1 {
            route(path)
        } else {
            format!("/portal/site{path}.html?page={page}")
        }
    }

    pub fn article(id: u64) -> String {
        format!("/portal/site/article/{id}.html")
    }

    pub fn feed(category: u64) -> String {
        format!("/portal/feed/{category}.xml")
    }

    pub const NEWS_FEED: &str = "/portal/feed/news.xml";
}

/// The menu every page carries, by the app's rule (`categoriesToMenu`): each category the CMS
/// does not hide, and its children it does not hide, so both faces show one section structure.
/// Hidden categories are reached from their group's page and the sitemap.
fn menu(tree: &CategoryTree) -> Vec<MenuItem> {
    let shown = |c: &&Category| c.is_routed() && c.hidden != Some(true);
    tree.content
        .iter()
        .filter(shown)
        .map(|c| MenuItem {
            name: c.name.clone(),
            href: links::route(&c.url),
            children: c
                .sub_category
                .iter()
                .filter(shown)
                .map(|s| (s.name.clone(), links::route(&s.url)))
                .collect(),
        })
        .collect()
}

/// An article's body and attachments, with its date, source and author when `meta` (a page
/// category shows its text alone); no previous/next links.
fn article_view(article: &Article, meta: bool) -> ArticleView {
    let present = |s: &Option<String>| s.clone().filter(|s| meta && !s.is_empty());
    ArticleView {
        date: if meta {
            article.date().to_owned()
        } else {
            String::new()
        },
        source: present(&article.source),
        author: present(&article.author),
        html: article.content.clone().unwrap_or_default(),
        attachments: article
            .attachments
            .iter()
            .map(|a| AttachmentView {
                name: a.name.clone(),
                url: a.url.clone(),
            })
            .collect(),
        prev: None,
        next: None,
    }
}

fn item(article: &Article) -> Item {
    Item {
        title: article.title.clone(),
        href: links::article(article.id),
        date: article.date().to_owned(),
        summary: article.summary.clone().filter(|s| !s.is_empty()),
    }
}

/// The page's description: the text given, or the body's first sentences without markup.
fn describe(summary: Option<&str>, html: Option<&str>, fallback: &str) -> String {
    if let Some(summary) = summary.filter(|s| !s.trim().is_empty()) {
        return summary.trim().to_owned();
    }
    let text: String = html
        .map(|h| ammonia::Builder::empty().clean(h).to_string())
        .unwrap_or_default();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let short: String = text.chars().take(120).collect();
    if short.is_empty() {
        fallback.to_owned()
    } else {
        short
    }
}

/// The company as JSON-LD: what `[site]` gives, nothing it leaves out.
fn organization(site: &Site) -> serde_json::Value {
    let mut org = json!({
        "@type": "Organization",
        "name": site.company_name,
        "url": format!("{}/portal/", site.public_url.trim_end_matches('/')),
    });
    for (key, value) in [
        ("address", &site.address),
        ("telephone", &site.phone),
        ("email", &site.email),
    ] {
        if !value.trim().is_empty() {
            org[key] = json!(value);
        }
    }
    org
}

fn absolute(site: &Site, path: &str) -> String {
    format!("{}{path}", site.public_url.trim_end_matches('/'))
}

fn render<T: Template>(template: &T) -> Result<String, ApiError> {
    template
        .render()
        .map_err(|_| ApiError::Internal("a crawlable page failed to render"))
}

/// Tags of a page that shows the menu (every page): the tree changes it.
fn with_tree_tag(mut tags_: Vec<String>) -> Vec<String> {
    tags_.push(tags::CATEGORIES.to_owned());
    tags_
}

async fn home(state: AppState) -> Result<Made, ApiError> {
    let content = ContentService::new(&state);
    let runtime = content.runtime();
    let site = &runtime.config.site;
    let tree = content.tree().await?;
    let latest = content.first_articles(None, FEED_SIZE).await?;
    let menu = menu(&tree.value);
    let assets = Assets::of(runtime);
    let page = pages::Page {
        site,
        title: site.company_name.clone(),
        heading: site.company_name.clone(),
        description: format!(
            "{}：公司简介、新闻中心、业务板块、党建工会、联络合作、信息公开与社会责任。",
            site.company_name
        ),
        canonical: absolute(site, &links::home()),
        assets: &assets,
        search: content.searches(),
        article_tools: false,
        og_type: "website",
        og_image: None,
        json_ld: pages::json_ld(&json!({
            "@context": "https://schema.org",
            "@graph": [organization(site), {
                "@type": "WebSite",
                "name": site.company_name,
                "url": absolute(site, &links::home()),
            }],
        })),
        feeds: vec![("新闻中心".to_owned(), links::NEWS_FEED.to_owned())],
        menu: &menu,
        breadcrumb: Vec::new(),
        intro: None,
        article: None,
        children: tree
            .value
            .content
            .iter()
            .filter(|c| c.is_routed())
            .map(child)
            .collect(),
        items_heading: Some("最新动态".to_owned()),
        items: latest.value.iter().map(item).collect(),
        pager: None,
        whistleblowing: Vec::new(),
    };
    let mut found_tags: Vec<String> = latest.value.iter().map(|a| tags::article(a.id)).collect();
    found_tags.push(tags::ALL_ARTICLES.to_owned());
    Ok(Made {
        status: StatusCode::OK,
        media_type: MediaType::Html,
        body: render(&page)?,
        tags: with_tree_tag(found_tags),
        cacheable: tree.cacheable && latest.cacheable,
    })
}

/// The 信访举报 lines `[site.whistleblowing]` sets; none unless a way to reach the office is set.
fn whistleblowing(site: &Site) -> Vec<(&'static str, String)> {
    let w = &site.whistleblowing;
    if !w.is_set() {
        return Vec::new();
    }
    [
        ("举报电话", &w.phone),
        ("举报邮箱", &w.email),
        ("来信地址", &w.address),
        ("接待时间", &w.hours),
    ]
    .into_iter()
    .filter(|(_, value)| !value.trim().is_empty())
    .map(|(label, value)| (label, value.clone()))
    .collect()
}

fn child(c: &Category) -> Child {
    Child {
        name: c.name.clone(),
        href: links::route(&c.url),
        description: c.description.clone(),
    }
}

async fn article_page(state: AppState, id: u64) -> Result<Made, ApiError> {
    let content = ContentService::new(&state);
    let runtime = content.runtime();
    let site = &runtime.config.site;
    let tree = content.tree().await?;
    let got = content.article(id).await?;
    let article = &got.value;
    let trail = tree
        .value
        .trail_to_id(article.category_id)
        .unwrap_or_default();
    let category = trail.last();
    let menu = menu(&tree.value);
    let assets = Assets::of(runtime);
    let description = describe(
        article.summary.as_deref(),
        article.content.as_deref(),
        &article.title,
    );
    let canonical = absolute(site, &links::article(id));
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": article.title,
        "description": description,
        "mainEntityOfPage": canonical,
        "inLanguage": "zh-CN",
        "publisher": organization(site),
    });
    if let Some(time) = article.iso_time() {
        ld["datePublished"] = json!(time);
    }
    if let Some(cover) = &article.cover {
        ld["image"] = json!(absolute(site, cover));
    }
    if let Some(author) = &article.author {
        ld["author"] = json!({ "@type": "Person", "name": author });
    }
    let mut found_tags = vec![tags::article(id)];
    found_tags.extend(article.neighbour_ids().map(tags::article));
    let link = |l: &Link| (l.title.clone(), links::article(l.id));
    let page = pages::Page {
        site,
        title: format!("{} – {}", article.title, site.company_name),
        heading: article.title.clone(),
        description,
        canonical,
        assets: &assets,
        search: content.searches(),
        article_tools: true,
        og_type: "article",
        og_image: article.cover.as_deref().map(|c| absolute(site, c)),
        json_ld: pages::json_ld(&ld),
        feeds: category
            .filter(|c| c.is_list())
            .map(|c| vec![(c.name.clone(), links::feed(c.id))])
            .unwrap_or_default(),
        menu: &menu,
        breadcrumb: trail
            .iter()
            .map(|c| (c.name.clone(), links::route(&c.url)))
            .collect(),
        intro: None,
        article: Some(ArticleView {
            prev: article.prev.as_ref().map(link),
            next: article.next.as_ref().map(link),
            ..article_view(article, true)
        }),
        children: Vec::new(),
        items_heading: None,
        items: Vec::new(),
        pager: None,
        whistleblowing: Vec::new(),
    };
    Ok(Made {
        status: StatusCode::OK,
        media_type: MediaType::Html,
        body: render(&page)?,
        tags: with_tree_tag(found_tags),
        cacheable: tree.cacheable && got.cacheable,
    })
}

/// A menu route: a group lists its children; a list category pages through its articles (as
/// many on a page as one CMS page holds, at most `LIST_SIZE`); a page category shows its (first)
/// article, and links to each of its articles.
async fn category_page(state: AppState, route: String, page_no: u32) -> Result<Made, ApiError> {
    let content = ContentService::new(&state);
    let runtime = content.runtime();
    let site = &runtime.config.site;
    let tree = content.tree().await?;
    let mut cacheable = tree.cacheable;
    let Some(trail) = tree.value.trail_to_url(&route) else {
        if !tree.cacheable {
            return Ok(Made::missing_from_empty_tree());
        }
        return Err(ApiError::NotFound(format!("栏目 {route} 不存在。")));
    };
    let category = *trail.last().expect("a trail ends with its category");
    let menu = menu(&tree.value);
    let assets = Assets::of(runtime);
    let mut found_tags = vec![tags::category(category.id)];
    let mut view = pages::Page {
        site,
        title: format!("{} – {}", category.name, site.company_name),
        heading: category.name.clone(),
        description: category
            .description
            .clone()
            .unwrap_or_else(|| format!("{}：{}", site.company_name, category.name)),
        canonical: absolute(site, &links::route_page(&route, page_no)),
        assets: &assets,
        search: content.searches(),
        article_tools: false,
        og_type: "website",
        og_image: None,
        json_ld: String::new(),
        feeds: Vec::new(),
        menu: &menu,
        breadcrumb: trail
            .iter()
            .map(|c| (c.name.clone(), links::route(&c.url)))
            .collect(),
        intro: category.description.clone(),
        article: None,
        children: Vec::new(),
        items_heading: None,
        items: Vec::new(),
        pager: None,
        whistleblowing: Vec::new(),
    };
    if category.is_group() {
        view.children = category
            .sub_category
            .iter()
            .filter(|c| c.is_routed())
            .map(child)
            .collect();
        if route == NEWS_GROUP {
            view.feeds
                .push(("新闻中心".to_owned(), links::NEWS_FEED.to_owned()));
        }
    } else if category.is_list() {
        let size = LIST_SIZE.min(content.max_page_size());
        let list = content.articles(Some(category.id), page_no, size).await?;
        cacheable &= list.cacheable;
        if list.value.content.is_empty() && page_no > 1 {
            return Err(ApiError::NotFound(format!("{route} 没有第 {page_no} 页。")));
        }
        found_tags.extend(list.value.content.iter().map(|a| tags::article(a.id)));
        view.items = list.value.content.iter().map(item).collect();
        view.feeds
            .push((category.name.clone(), links::feed(category.id)));
        if route == INTEGRITY_ROUTE {
            view.whistleblowing = whistleblowing(site);
        }
        let pages = list.value.total_pages.max(1);
        view.pager = Some(Pager {
            total: list.value.total_elements,
            page: page_no,
            pages,
            prev: (page_no > 1).then(|| links::route_page(&route, page_no - 1)),
            next: (u64::from(page_no) < pages).then(|| links::route_page(&route, page_no + 1)),
        });
    } else {
        if page_no > 1 {
            return Err(ApiError::NotFound(format!("{route} 没有第 {page_no} 页。")));
        }
        let list = content
            .first_articles(Some(category.id), MAX_PAGE_SIZE as usize)
            .await?;
        cacheable &= list.cacheable;
        found_tags.extend(list.value.iter().map(|a| tags::article(a.id)));
        if let Some(first) = list.value.first() {
            let got = content.article(first.id).await?;
            cacheable &= got.cacheable;
            let article = &got.value;
            view.description = describe(
                article.summary.as_deref(),
                article.content.as_deref(),
                &view.description,
            );
            view.article = Some(article_view(article, false));
            // Each at its own address too (the sitemap lists them), so a crawl reaches them.
            view.items_heading = Some("本栏目内容".to_owned());
            view.items = list.value.iter().map(item).collect();
        }
    }
    view.json_ld = pages::json_ld(&json!({
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": trail.iter().enumerate().map(|(i, c)| json!({
            "@type": "ListItem",
            "position": i + 1,
            "name": c.name,
            "item": absolute(site, &links::route(&c.url)),
        })).collect::<Vec<_>>(),
    }));
    Ok(Made {
        status: StatusCode::OK,
        media_type: MediaType::Html,
        body: render(&view)?,
        tags: with_tree_tag(found_tags),
        cacheable,
    })
}

/// Every page and article, each once. Asks the CMS for every article in pages of `max_size`:
/// a sitemap of N articles costs ⌈N / max_size⌉ list calls on a miss (docs/operations.md).
async fn sitemap(State(state): State<AppState>, info: RequestInfo) -> Response {
    cached(
        Kind::Crawl,
        &state,
        info,
        "sitemap.xml".to_owned(),
        Endpoint::ArticleList,
        |state| async move {
            let content = ContentService::new(&state);
            let runtime = content.runtime();
            let site = &runtime.config.site;
            let tree = content.tree().await?;
            let articles = content.first_articles(None, usize::MAX).await?;
            // A page changes when its newest article does: that date is its lastmod (a group's,
            // its children's newest; the home page's, the newest of all).
            let mut newest: HashMap<u64, &str> = HashMap::new();
            for a in articles.value.iter() {
                let slot = newest.entry(a.category_id).or_default();
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
            let mut urls = vec![(absolute(site, &links::home()), overall)];
            urls.extend(
                tree.value
                    .flatten()
                    .into_iter()
                    .filter(|c| PORTAL_ROUTES.contains(&c.url.as_str()))
                    .map(|c| (absolute(site, &links::route(&c.url)), lastmod(c))),
            );
            urls.extend(articles.value.iter().map(|a| {
                let date = a.date();
                (
                    absolute(site, &links::article(a.id)),
                    (!date.is_empty()).then(|| date.to_owned()),
                )
            }));
            Ok(Made {
                status: StatusCode::OK,
                media_type: MediaType::Xml,
                body: render(&pages::Sitemap { urls })?,
                tags: vec![tags::CATEGORIES.to_owned(), tags::ALL_ARTICLES.to_owned()],
                cacheable: tree.cacheable && articles.cacheable,
            })
        },
    )
    .await
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
        move |state| make_feed(state, which),
    )
    .await
}

async fn make_feed(state: AppState, which: Option<u64>) -> Result<Made, ApiError> {
    let content = ContentService::new(&state);
    let runtime = content.runtime();
    let site = &runtime.config.site;
    let tree = content.tree().await?;
    let mut cacheable = tree.cacheable;
    let (title, link, categories): (String, String, Vec<&Category>) = match which {
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
        found_tags.push(tags::category(category.id));
        let latest = content.first_articles(Some(category.id), FEED_SIZE).await?;
        cacheable &= latest.cacheable;
        articles.extend(latest.value.iter().cloned());
    }
    articles.sort_by(|a, b| b.publish_time.cmp(&a.publish_time).then(b.id.cmp(&a.id)));
    articles.truncate(FEED_SIZE);
    found_tags.extend(articles.iter().map(|a| tags::article(a.id)));
    let self_href = match which {
        Some(id) => links::feed(id),
        None => links::NEWS_FEED.to_owned(),
    };
    let feed = pages::Feed {
        title,
        link: absolute(site, &link),
        description: format!("{}发布的最新文章", site.company_name),
        self_href: absolute(site, &self_href),
        last_build: articles.first().and_then(Article::rfc2822),
        items: articles
            .iter()
            .map(|a| FeedItem {
                title: a.title.clone(),
                link: absolute(site, &links::article(a.id)),
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

#[cfg(test)]
mod tests {
    /// The app shares a list's crawlable address (frontend `app/crawlable-url.ts`): both faces
    /// must cut the list into the same pages.
    #[test]
    fn a_crawlable_list_page_holds_as_many_articles_as_the_apps() {
        let slice = include_str!("../../../frontend/src/features/articles/list-page-slice.ts");
        let declared = slice
            .lines()
            .find_map(|l| l.strip_prefix("export const LIST_PAGE_SIZE = "))
            .and_then(|rest| rest.trim_end_matches(';').trim().parse::<u32>().ok())
            .expect("list-page-slice.ts declares LIST_PAGE_SIZE");
        assert_eq!(super::LIST_SIZE, declared);
    }
}
