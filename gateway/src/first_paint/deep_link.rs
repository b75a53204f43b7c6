//! A deep link's page as the gateway draws it: `/portal/drawn/article/<id>`,
//! `/portal/drawn/news/<route>[?page=N]` and `/portal/drawn/single/<route>[?page=N]`, the
//! `<main>` the app shows at `#/article/<id>`, at a list route and at a single page's route (the
//! route table's `page` kinds), in the app's own classes, for `index.html`'s head script to put in
//! place of the drawn home page before the app's script has arrived.
//!
//! The server never sees a URL's hash, so `/portal/#/article/2101` is answered with the home
//! page; its largest paint then waited for the app's whole script (Lighthouse mobile: 1.7–1.8 s on
//! an article, a list and a single page). The head script knows the route at once and asks for
//! this piece beside the route's chunks; the app's first render then draws the same boxes over it
//! (no layout shift), once the route's chunk and data are in (`frontend/src/app/drawn-route.ts`).
//!
//! Drawn: the 栏目导航, breadcrumb, heading and what the visitor reads first (an article's meta,
//! tools and body; a list's articles; a single page's text). What comes after them (an article's
//! neighbours and related articles, a list's pagination) is left to the app: added below, it
//! moves nothing. A page whose boxes would not match the app's is not drawn (204, and the head
//! script draws nothing): an article with a video, a route the tree lacks, a category without a
//! parent in the tree, an empty list or page.

use askama::Template;
use axum::{
    Router,
    extract::{Path, State},
    http::{HeaderName, HeaderValue, StatusCode, header},
    response::Response,
    routing::get,
};

use crate::{
    cache::{Kind, MediaType},
    content::ContentService,
    crawl::{LIST_SIZE, Made, cached, id_of, page_of},
    endpoint::Endpoint,
    envelope::ApiError,
    model::{Article, Category, CategoryTree, tags},
    portal_routes::PORTAL_ROUTES,
    request::{RequestInfo, query::RawQuery},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/portal/drawn/{*path}", get(drawn))
}

/// The drawn page, or `204 No Content` when there is none to draw (an unknown page, one the app
/// draws otherwise, the CMS failing with nothing kept): the head script then draws nothing, and
/// the browser logs no failed request on a page that works.
async fn drawn(
    State(state): State<AppState>,
    Path(path): Path<String>,
    info: RequestInfo,
    query: RawQuery,
) -> Response {
    let mut response = draw(state, path, info, query).await;
    if response.status() != StatusCode::OK && response.status() != StatusCode::NOT_MODIFIED {
        response = not_drawn();
    }
    // A piece of a page, for the head script: no search engine's result (robots.txt says so too).
    response.headers_mut().insert(
        HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    );
    response
}

async fn draw(state: AppState, path: String, info: RequestInfo, query: RawQuery) -> Response {
    if let Some(id) = path.strip_prefix("article/") {
        let Some(id) = id_of(id) else {
            return not_drawn();
        };
        let key = format!("drawn/article/{id}");
        return cached(
            Kind::App,
            &state,
            info,
            key,
            Endpoint::ArticleDetail,
            move |state| article(state, id),
        )
        .await;
    }
    let (single, route) = match (path.strip_prefix("news/"), path.strip_prefix("single/")) {
        (Some(route), _) => (false, format!("/{route}")),
        (_, Some(route)) => (true, format!("/{route}")),
        _ => return not_drawn(),
    };
    if !PORTAL_ROUTES.contains(&route.as_str()) {
        return not_drawn();
    }
    let Some(page) = page_of(&query) else {
        return not_drawn();
    };
    let kind = if single { "single" } else { "news" };
    let key = format!("drawn/{kind}{route}?page={page}");
    cached(
        Kind::App,
        &state,
        info,
        key,
        Endpoint::ArticleList,
        move |state| category_page(state, route.clone(), page, single),
    )
    .await
}

fn not_drawn() -> Response {
    axum::response::IntoResponse::into_response((
        StatusCode::NO_CONTENT,
        [(header::CACHE_CONTROL, "no-cache")],
    ))
}

/// What the app would show differently: the head script then draws nothing.
fn unlike_the_app(what: &str) -> ApiError {
    ApiError::NotFound(format!("{what}：不预先绘制。"))
}

/// 栏目导航 (`SectionNav`, `app/sections.ts` `fromTree`): the parent's routed children, the hidden
/// ones only on a hidden page; none when it has none. A category without a parent in the tree is
/// not drawn: the app then takes the section from its route table, which the gateway does not
/// hold.
struct SectionNav {
    name: String,
    url: String,
    items: Vec<(String, String)>,
    current: String,
    /// `aria-current`: `page` on the list itself, `true` on an article of it.
    current_kind: &'static str,
}

fn section(
    tree: &CategoryTree,
    category: &Category,
    current_kind: &'static str,
) -> Result<Option<SectionNav>, ApiError> {
    let parent = (category.parent_id > 0)
        .then(|| tree.trail_to_id(category.parent_id))
        .flatten()
        .and_then(|t| t.last().copied())
        .ok_or_else(|| unlike_the_app("栏目树中没有上级栏目的栏目"))?;
    let hidden = category.hidden == Some(true);
    let items: Vec<_> = parent
        .sub_category
        .iter()
        .filter(|c| !c.url.is_empty() && (c.hidden != Some(true) || hidden))
        .map(|c| (c.name.clone(), c.url.clone()))
        .collect();
    Ok((!items.is_empty()).then(|| SectionNav {
        name: parent.name.clone(),
        url: parent.url.clone(),
        items,
        current: category.url.clone(),
        current_kind,
    }))
}

/// 当前位置 (`crumbsOf` in `app/router.tsx`): the category's parent and the category, then `last`
/// (the article's 正文), each but the last linked.
fn crumbs(tree: &CategoryTree, category: &Category, last: Option<&str>) -> Vec<(String, String)> {
    let mut items = Vec::new();
    if let Some(parent) = tree
        .trail_to_id(category.parent_id)
        .and_then(|t| t.last().copied())
    {
        items.push((parent.name.clone(), parent.url.clone()));
    }
    items.push((category.name.clone(), category.url.clone()));
    if let Some(last) = last {
        items.push((last.to_owned(), String::new()));
    }
    items
}

/// A list's line (`ArticleList`).
struct Line {
    href: String,
    title: String,
    summary: Option<String>,
    date: String,
    source: Option<String>,
    cover: Option<String>,
}

#[derive(Template)]
#[template(path = "app/deep_link.html")]
struct Drawn<'a> {
    /// An article's page keeps its two columns even without a 栏目导航 (`reserve`).
    columns: bool,
    section: Option<SectionNav>,
    crumbs: Vec<(String, String)>,
    article: Option<&'a Article>,
    /// The article is a single page's text, under the category's heading (`SinglePage`).
    single: bool,
    /// An article's time: `datetime` (`T` for the space) and as written.
    published: Option<(String, String)>,
    heading: String,
    lead: Option<String>,
    lines: Vec<Line>,
}

impl Drawn<'_> {
    fn render_made(&self, tags: Vec<String>, cacheable: bool) -> Result<Made, ApiError> {
        let body = self
            .render()
            .map_err(|_| ApiError::Internal("a drawn page failed to render"))?;
        Ok(Made {
            status: StatusCode::OK,
            media_type: MediaType::Html,
            body,
            tags,
            cacheable,
        })
    }
}

async fn article(state: AppState, id: u64) -> Result<Made, ApiError> {
    let content = ContentService::new(&state);
    let tree = content.tree().await?;
    let got = content.article(id).await?;
    let article = &got.value;
    if article.video.is_some() {
        return Err(unlike_the_app("带视频的文章"));
    }
    let category = tree
        .value
        .trail_to_id(article.category_id)
        .and_then(|t| t.last().copied())
        .filter(|c| !c.url.is_empty())
        .ok_or_else(|| unlike_the_app("栏目不在栏目树中的文章"))?;
    let page = Drawn {
        columns: true,
        section: section(&tree.value, category, "true")?,
        crumbs: crumbs(&tree.value, category, Some("正文")),
        article: Some(article),
        single: false,
        published: article
            .publish_time
            .as_deref()
            .filter(|t| !t.is_empty())
            .map(|t| (t.replacen(' ', "T", 1), t.to_owned())),
        heading: article.title.clone(),
        lead: None,
        lines: Vec::new(),
    };
    let mut found = vec![tags::article(id), tags::CATEGORIES.to_owned()];
    found.extend(article.neighbour_ids().map(tags::article));
    page.render_made(found, tree.cacheable && got.cacheable)
}

/// A list route, or a single page's (its text; its list when the CMS makes the category a list,
/// as `SinglePage` does).
async fn category_page(
    state: AppState,
    route: String,
    page_no: u32,
    single: bool,
) -> Result<Made, ApiError> {
    let content = ContentService::new(&state);
    let tree = content.tree().await?;
    let category = tree
        .value
        .trail_to_url(&route)
        .and_then(|t| t.last().copied())
        .ok_or_else(|| unlike_the_app("栏目树中没有的栏目"))?;
    if single && !category.is_list() {
        return single_page(&content, &tree.value, category, tree.cacheable).await;
    }
    let got = content
        .articles(Some(category.id), page_no, LIST_SIZE)
        .await?;
    // A page past the last: the app goes to the last page itself.
    if got.value.content.is_empty() {
        return Err(unlike_the_app("没有文章的列表页"));
    }
    let list_page = |href: String| {
        if page_no > 1 {
            format!("{href}?listPage={page_no}")
        } else {
            href
        }
    };
    let lines = got
        .value
        .content
        .iter()
        .map(|a| Line {
            href: list_page(format!("#/article/{}", a.id)),
            title: a.title.clone(),
            summary: a.summary.clone().filter(|s| !s.is_empty()),
            // `dateOf` in `frontend/src/features/articles/format.ts`: the first ten characters.
            date: a.date().to_owned(),
            source: a.source.clone().filter(|s| !s.is_empty()),
            cover: a.cover.clone().filter(|s| !s.is_empty()),
        })
        .collect();
    let page = Drawn {
        columns: false,
        section: section(&tree.value, category, "page")?,
        crumbs: crumbs(&tree.value, category, None),
        article: None,
        single: false,
        published: None,
        heading: category.name.clone(),
        lead: category.description.clone().filter(|d| !d.is_empty()),
        lines,
    };
    let mut found = vec![tags::category(category.id), tags::CATEGORIES.to_owned()];
    found.extend(got.value.content.iter().map(|a| tags::article(a.id)));
    page.render_made(found, tree.cacheable && got.cacheable)
}

/// A single page: the category's first article under the category's name, its summary the lead.
async fn single_page(
    content: &ContentService<'_>,
    tree: &CategoryTree,
    category: &Category,
    tree_cacheable: bool,
) -> Result<Made, ApiError> {
    let first = content.articles(Some(category.id), 1, 1).await?;
    let id = first
        .value
        .content
        .first()
        .map(|a| a.id)
        .ok_or_else(|| unlike_the_app("没有内容的单页"))?;
    let got = content.article(id).await?;
    let article = &got.value;
    if article.video.is_some() {
        return Err(unlike_the_app("带视频的单页"));
    }
    let page = Drawn {
        columns: false,
        section: section(tree, category, "page")?,
        crumbs: crumbs(tree, category, None),
        article: Some(article),
        single: true,
        published: None,
        heading: category.name.clone(),
        lead: article.summary.clone().filter(|s| !s.is_empty()),
        lines: Vec::new(),
    };
    let found = vec![
        tags::category(category.id),
        tags::article(id),
        tags::CATEGORIES.to_owned(),
    ];
    page.render_made(found, tree_cacheable && first.cacheable && got.cacheable)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> CategoryTree {
        let c = |id: u64, parent: u64, url: &str, hidden: bool, subs: Vec<serde_json::Value>| {
            serde_json::json!({"id": id, "parentId": parent, "name": format!("栏目{id}"), "url": url,
                "sort": 0, "hidden": hidden, "subCategory": subs})
        };
        serde_json::from_value(serde_json::json!({"content": [
            c(1, 0, "/about", false, vec![
                c(11, 1, "/about/profile", false, vec![]),
                c(12, 1, "/about/hidden", true, vec![]),
                c(13, 1, "", false, vec![]),
            ]),
            c(2, 0, "/alone", false, vec![]),
        ]}))
        .unwrap()
    }

    #[test]
    fn the_section_is_the_parents_routed_children_as_the_app_lists_them() {
        let tree = tree();
        let find = |id| tree.trail_to_id(id).unwrap().last().copied().unwrap();
        let shown = section(&tree, find(11), "page").unwrap().unwrap();
        assert_eq!(shown.name, "栏目1");
        assert_eq!(shown.url, "/about");
        assert_eq!(
            shown.items,
            vec![("栏目11".to_owned(), "/about/profile".to_owned())],
            "a visible page lists no hidden sibling, and nothing without a route"
        );
        let hidden = section(&tree, find(12), "page").unwrap().unwrap();
        assert_eq!(
            hidden.items.len(),
            2,
            "a hidden page lists its hidden siblings too"
        );
        // Without a parent in the tree the app takes its route table's section: not drawn.
        assert!(section(&tree, find(2), "page").is_err());
        assert_eq!(
            crumbs(&tree, find(11), Some("正文")),
            vec![
                ("栏目1".to_owned(), "/about".to_owned()),
                ("栏目11".to_owned(), "/about/profile".to_owned()),
                ("正文".to_owned(), String::new()),
            ]
        );
    }
}
