//! The app's page (`/portal/`, `/portal/index.html`) as the gateway draws it: the build's
//! `index.html` with what the first paint needs already in it, so a phone paints the home page
//! without waiting for the app's script, and the app starts without a round trip.
//!
//! - **Boot answers**: the exact API answers the app asks for first (`/site`, `/category/list`
//!   and the home page's two lists), in a `<script type="application/json" id="portal-boot">`
//!   the request layer reads instead of the network (`frontend/src/lib/request/boot.ts`). A data
//!   block runs nothing, so the strict CSP needs no change; `<` is written `\u003c`, so no text of
//!   the CMS can end the block.
//! - **Above-the-fold markup** in `#root` (`templates/app/first_paint.html`): the header with the
//!   menu, the 头条 and the 图片新闻 carousel with its first cover, the 要闻 and 通知公告 columns, in the
//!   app's own classes, so the app's first render (from the same answers) draws the same boxes.
//!   The page's inline head script marks a deep link (`#/article/…`) and the stylesheet then
//!   hides the home part: the server cannot see the hash.
//! - The first cover is preloaded; the `<title>` and description are the configured company's
//!   (the build's are the demo company's).
//!
//! Kept in the cache like a crawlable page (tags of the tree and of both lists, so purges and the
//! CMS webhook reach it; the article list's TTL), keyed by the build's and `/site`'s fingerprints. When the CMS
//! cannot give the tree or a list, the page is drawn with what there is and not kept: the app
//! asks for the rest itself.

mod deep_link;

use std::sync::Arc;

use askama::Template;
use axum::{
    http::{HeaderValue, StatusCode, header, request::Parts},
    response::Response,
};
use bytes::Bytes;

pub use deep_link::router;

use crate::{
    cache::{Entry, Kind, MediaType, Outcome, Timing, Wants, respond},
    content::{Caller, ContentService, Query},
    endpoint::Endpoint,
    model::{Article, Category, CategoryTree, site::Site, tags},
    state::AppState,
};

/// The home page's sources, as `frontend/src/app/pages/home-page.tsx` names them: the route of
/// each list and the page size the app asks for (the boot answer's URL must be the app's).
const NEWS: (&str, u32) = ("/news_center/company_announcement/1", 12);
const NOTICES: (&str, u32) = ("/news_center/notice", 8);
/// Photo-news slides (`SLIDES` in the home page) and lines per column (`lines`).
const SLIDES: usize = 5;
const LINES: usize = 7;
/// Where the app renders (the build's template has it empty).
const ROOT: &str = r#"<div id="root"></div>"#;

/// `/portal/` or `/portal/index.html`: the drawn page, or `None` when the build has no
/// `index.html` (the static files answer then, as for any missing file).
pub async fn document(state: &AppState, request: &Parts) -> Option<Response> {
    let runtime = state.runtime();
    let (_, build) = runtime.app_files.index_html()?;
    // The page holds `/site`'s answer: a reload that changes the site facts is a new page.
    let site = runtime
        .site
        .etag
        .to_str()
        .unwrap_or_default()
        .trim_matches('"');
    let key = format!("app/index.html?build={build:016x}&site={site}");
    let policy = ContentService::new(state).policy(Kind::App, Endpoint::ArticleList, &key);
    let for_load = state.clone();
    let load = move || {
        let state = for_load.clone();
        async move {
            let runtime = state.runtime();
            let template = runtime.app_files.index_html().map_or("", |(t, _)| t);
            Ok(Arc::new(draw(&state, template).await))
        }
    };
    let wants = Wants::of(&request.headers);
    let mut response = if runtime.config.cache.enabled {
        let lookup = state.cache.get_or_load(&key, &policy, load).await;
        crate::cache::stats::record(Kind::App, lookup.outcome);
        match lookup.result {
            Ok(entry) => respond(&entry, lookup.outcome, &wants, lookup.timing),
            Err(_) => return None,
        }
    } else {
        let entry = draw(state, runtime.app_files.index_html()?.0).await;
        respond(&entry, Outcome::Bypass, &wants, Timing::default())
    };
    if request.method == axum::http::Method::HEAD {
        *response.body_mut() = axum::body::Body::empty();
    }
    // The page names the build's hashed files: a browser asks again each time (a 304 while the
    // ETag holds) rather than keep a page whose scripts a new build removed.
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Some(response)
}

/// The page, with everything the CMS could give now; kept only when it gave all of it.
async fn draw(state: &AppState, template: &str) -> Entry {
    let content = ContentService::new(state);
    let runtime = content.runtime();
    let site = &runtime.config.site;
    let mut boot = Boot::default();
    boot.add("/portal/api/site", &runtime.site.body.bytes);
    let mut complete = true;
    let mut found_tags = vec![tags::CATEGORIES.to_owned()];

    let tree = match content
        .lookup(Query::Categories, Caller::default())
        .await
        .result
    {
        Ok(entry) if entry.is_success() && entry.cacheable => {
            boot.add("/portal/api/category/list", &entry.body.bytes);
            content.tree().await.ok().map(|tree| tree.value)
        }
        _ => None,
    };
    complete &= tree.is_some();

    let mut lists: Vec<Vec<Article>> = Vec::new();
    for (route, size) in [NEWS, NOTICES] {
        let category = tree.as_deref().and_then(|tree| find_by_url(tree, route));
        let Some(category) = category else {
            lists.push(Vec::new());
            continue;
        };
        let query = Query::Articles {
            category: Some(category.id),
            page: 1,
            size: size.min(content.max_page_size()),
        };
        let page = match content.articles(Some(category.id), 1, size).await {
            Ok(page) if page.cacheable => page.value,
            _ => {
                complete = false;
                lists.push(Vec::new());
                continue;
            }
        };
        if let Ok(entry) = content
            .lookup(query.clone(), Caller::default())
            .await
            .result
            && entry.is_success()
        {
            let url = format!(
                "/portal/api/article/list?categoryId={}&page=1&size={size}",
                category.id
            );
            boot.add(&url, &entry.body.bytes);
            found_tags.extend(query.tags(entry.content.as_ref()));
        }
        lists.push(page.content.clone());
    }

    let markup = tree.as_deref().map(|tree| {
        let home = Home::new(site, content.has_search(), tree, &lists[0], &lists[1]);
        home.render().unwrap_or_default()
    });
    let body = compose(template, site, &boot.finish(), markup.as_deref(), &lists[0]);
    let entry = Entry::of(MediaType::Html, StatusCode::OK, Bytes::from(body)).tagged(found_tags);
    if complete {
        entry
    } else {
        entry.not_cacheable()
    }
}

/// The category at a portal route, as the app finds it (`findByUrl`).
fn find_by_url<'a>(tree: &'a CategoryTree, url: &str) -> Option<&'a Category> {
    tree.trail_to_url(url)
        .and_then(|trail| trail.last().copied())
}

/// The boot answers: `{"<API URL>": <its answer>, …}`, each answer the API's own bytes.
#[derive(Default)]
struct Boot {
    json: String,
}

impl Boot {
    fn add(&mut self, url: &str, answer: &Bytes) {
        let Ok(answer) = std::str::from_utf8(answer) else {
            return;
        };
        self.json.push(if self.json.is_empty() { '{' } else { ',' });
        self.json
            .push_str(&serde_json::to_string(url).expect("a string serialises"));
        self.json.push(':');
        self.json.push_str(answer);
    }

    /// The block's text: `<` escaped (valid JSON either way: it can only be inside a string).
    fn finish(mut self) -> String {
        if self.json.is_empty() {
            return String::new();
        }
        self.json.push('}');
        self.json.replace('<', "\\u003c")
    }
}

/// The build's `index.html` with the company's title, the boot block, the preloaded cover and
/// the markup.
fn compose(
    template: &str,
    site: &Site,
    boot: &str,
    markup: Option<&str>,
    news: &[Article],
) -> String {
    let name = if site.company_name.is_empty() {
        "门户网站"
    } else {
        site.company_name.as_str()
    };
    let mut head = String::new();
    if !boot.is_empty() {
        head.push_str(r#"<script type="application/json" id="portal-boot">"#);
        head.push_str(boot);
        head.push_str("</script>");
    }
    if markup.is_some()
        && let Some(cover) = slides(news).first().and_then(|a| a.cover.as_deref())
    {
        head.push_str(&format!(
            r#"<link rel="preload" as="image" href="{}" fetchpriority="high">"#,
            escape(cover)
        ));
    }
    let description = format!(
        "{name}官方门户：公司介绍、新闻中心、业务板块、党建工会、联络合作、信息公开与社会责任。"
    );
    let mut page = replace_between(template, "<title>", "</title>", &escape(name));
    page = replace_between(
        &page,
        r#"<meta name="description" content=""#,
        r#"""#,
        &escape(&description),
    );
    if let Some(at) = page.find("</head>") {
        page.insert_str(at, &head);
    }
    if let Some(markup) = markup {
        page = page.replacen(ROOT, &format!(r#"<div id="root">{markup}</div>"#), 1);
    }
    page
}

/// `text` with what lies between the first `start` and the next `end` replaced by `with`.
fn replace_between(text: &str, start: &str, end: &str, with: &str) -> String {
    let Some(from) = text.find(start).map(|i| i + start.len()) else {
        return text.to_owned();
    };
    let Some(to) = text[from..].find(end).map(|i| from + i) else {
        return text.to_owned();
    };
    format!("{}{with}{}", &text[..from], &text[to..])
}

fn escape(text: &str) -> String {
    askama::filters::escape(text, askama::filters::Html)
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// 头条: the newest story the CMS flags as the lead, else the newest (`pickLead`).
fn lead(news: &[Article]) -> Option<&Article> {
    news.iter().find(|a| a.lead == Some(true)).or(news.first())
}

/// 图片新闻: the covered stories other than the lead, at most `SLIDES`.
fn slides(news: &[Article]) -> Vec<&Article> {
    let lead = lead(news).map(|a| a.id);
    news.iter()
        .filter(|a| a.cover.is_some() && Some(a.id) != lead)
        .take(SLIDES)
        .collect()
}

pub struct MenuEntry<'a> {
    pub category: &'a Category,
    pub children: Vec<&'a Category>,
}

pub struct Column<'a> {
    pub id: &'static str,
    pub title: &'a str,
    pub route: &'static str,
    pub lines: Vec<&'a Article>,
}

/// The markup of the home page's top, in the app's classes.
#[derive(Template)]
#[template(path = "app/first_paint.html")]
pub struct Home<'a> {
    pub name: &'a str,
    pub search: bool,
    pub menu: Vec<MenuEntry<'a>>,
    pub lead: Option<&'a Article>,
    pub slides: Vec<&'a Article>,
    pub columns: Vec<Column<'a>>,
}

impl<'a> Home<'a> {
    fn new(
        site: &'a Site,
        search: bool,
        tree: &'a CategoryTree,
        news: &'a [Article],
        notices: &'a [Article],
    ) -> Self {
        let shown = |c: &&Category| c.hidden != Some(true);
        let menu = tree
            .content
            .iter()
            .filter(shown)
            .map(|category| MenuEntry {
                category,
                children: category.sub_category.iter().filter(shown).collect(),
            })
            .collect();
        let lead_id = lead(news).map(|a| a.id);
        let mut columns = Vec::new();
        for (id, route, list, fallback, skip) in [
            ("home-news-title", NEWS.0, news, "公司要闻", lead_id),
            ("home-notices-title", NOTICES.0, notices, "通知公告", None),
        ] {
            if let Some(category) = find_by_url(tree, route) {
                columns.push(Column {
                    id,
                    title: if category.name.is_empty() {
                        fallback
                    } else {
                        &category.name
                    },
                    route,
                    lines: list
                        .iter()
                        .filter(|a| Some(a.id) != skip)
                        .take(LINES)
                        .collect(),
                });
            }
        }
        Self {
            name: if site.company_name.is_empty() {
                "门户网站"
            } else {
                &site.company_name
            },
            search,
            menu,
            lead: lead(news),
            slides: slides(news),
            columns,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boot answers must be the URLs the app asks (else it asks again), and the drawn top the
    /// boxes it draws: its sources are declared in the home page and read here.
    #[test]
    fn the_home_pages_sources_are_the_apps() {
        let page = include_str!("../../../frontend/src/app/pages/home-page.tsx");
        for declared in [
            format!("const NEWS = '{}';", NEWS.0),
            format!("const NEWS_PAGE = {};", NEWS.1),
            format!("const NOTICES = '{}';", NOTICES.0),
            format!("useCategoryArticles(NOTICES, {})", NOTICES.1),
            format!("const SLIDES = {SLIDES};"),
        ] {
            assert!(
                page.contains(&declared),
                "home-page.tsx no longer says {declared}"
            );
        }
        assert_eq!(
            page.matches(&format!("lines={{{LINES}}}")).count(),
            2,
            "both columns of the home page's top show {LINES} lines"
        );
    }

    #[test]
    fn the_boot_block_cannot_be_closed_by_the_cms() {
        let mut boot = Boot::default();
        boot.add(
            "/portal/api/site",
            &Bytes::from_static(br#"{"result":{"title":"</script><script>alert(1)</script>"}}"#),
        );
        let text = boot.finish();
        assert!(!text.contains('<'), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back["/portal/api/site"]["result"]["title"],
            "</script><script>alert(1)</script>"
        );
    }

    #[test]
    fn only_the_first_title_and_description_change() {
        let page = replace_between(
            "<title>演示</title><title>x</title>",
            "<title>",
            "</title>",
            "甲公司",
        );
        assert_eq!(page, "<title>甲公司</title><title>x</title>");
    }
}
