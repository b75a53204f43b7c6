//! What the crawlable pages, the sitemap and the feeds show, read from the API's own answers
//! (`api::result_of`: the same cache, loaded on a miss) into typed views.

use serde::Deserialize;

use crate::{api, endpoint::Endpoint, envelope::ApiError, state::AppState};

/// Largest page the sitemap and feeds ask for (the API's own bound).
pub const PAGE: u32 = crate::config::MAX_PAGE_SIZE;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub url: String,
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub sub_category: Vec<Category>,
}

impl Category {
    pub fn is_list(&self) -> bool {
        self.kind.as_deref() == Some("list")
    }

    pub fn is_group(&self) -> bool {
        self.kind.as_deref() == Some("group") || !self.sub_category.is_empty()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    pub id: u64,
    pub title: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    pub name: String,
    pub url: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Article {
    pub id: u64,
    pub category_id: u64,
    pub title: String,
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub cover: Option<String>,
    #[serde(default)]
    pub author: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    /// `yyyy-MM-dd HH:mm:ss`, China time.
    #[serde(default)]
    pub publish_time: Option<String>,
    /// Sanitised HTML (the API's `article::content`), only on a detail.
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub attachments: Vec<Attachment>,
    #[serde(default)]
    pub prev: Option<Link>,
    #[serde(default)]
    pub next: Option<Link>,
}

impl Article {
    /// `yyyy-MM-dd`.
    pub fn date(&self) -> &str {
        self.publish_time
            .as_deref()
            .map_or("", |t| t.get(..10).unwrap_or(t))
    }

    /// ISO 8601 with China's offset, for JSON-LD and the sitemap.
    pub fn iso_time(&self) -> Option<String> {
        let t = self.publish_time.as_deref()?;
        let (date, time) = t.split_once(' ').unwrap_or((t, "00:00:00"));
        Some(format!("{date}T{time}+08:00"))
    }

    /// RFC 2822, for RSS.
    pub fn rfc2822(&self) -> Option<String> {
        let iso = self.iso_time()?;
        chrono::DateTime::parse_from_rfc3339(&iso)
            .ok()
            .map(|t| t.to_rfc2822())
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArticlePage {
    pub content: Vec<Article>,
    pub total_elements: u64,
    pub total_pages: u64,
}

fn decode<T: for<'de> Deserialize<'de>>(value: serde_json::Value) -> Result<T, ApiError> {
    serde_json::from_value(value).map_err(|_| ApiError::Internal("an API answer of another shape"))
}

pub async fn tree(state: &AppState) -> Result<Vec<Category>, ApiError> {
    let mut value = api::result_of(state, Endpoint::CategoryList, "").await?;
    decode(value["content"].take())
}

/// One page (1-based) of a category's articles, or of every category's (`None`).
pub async fn list(
    state: &AppState,
    category: Option<u64>,
    page: u32,
    size: u32,
) -> Result<ArticlePage, ApiError> {
    let query = match category {
        Some(id) => format!("categoryId={id}&page={page}&size={size}"),
        None => format!("page={page}&size={size}"),
    };
    decode(api::result_of(state, Endpoint::ArticleList, &query).await?)
}

pub async fn article(state: &AppState, id: u64) -> Result<Article, ApiError> {
    decode(api::result_of(state, Endpoint::ArticleDetail, &format!("id={id}")).await?)
}

/// Every article of every category, newest first (the sitemap's), page by page.
pub async fn all_articles(state: &AppState) -> Result<Vec<Article>, ApiError> {
    let mut all = Vec::new();
    let mut page = 1;
    loop {
        let found = list(state, None, page, PAGE).await?;
        let last = u64::from(page) >= found.total_pages || found.content.is_empty();
        all.extend(found.content);
        if last || page >= 1000 {
            return Ok(all);
        }
        page += 1;
    }
}

/// Every category of the tree, parents before children.
pub fn flatten(tree: &[Category]) -> Vec<&Category> {
    fn walk<'a>(list: &'a [Category], out: &mut Vec<&'a Category>) {
        for c in list {
            out.push(c);
            walk(&c.sub_category, out);
        }
    }
    let mut out = Vec::new();
    walk(tree, &mut out);
    out
}

/// The category whose route is `url`, with its ancestors (outermost first).
pub fn find_by_url<'a>(tree: &'a [Category], url: &str) -> Option<Vec<&'a Category>> {
    for c in tree {
        if c.url == url {
            return Some(vec![c]);
        }
        if let Some(mut trail) = find_by_url(&c.sub_category, url) {
            trail.insert(0, c);
            return Some(trail);
        }
    }
    None
}

/// The category `id`, with its ancestors (outermost first).
pub fn find_by_id(tree: &[Category], id: u64) -> Option<Vec<&Category>> {
    for c in tree {
        if c.id == id {
            return Some(vec![c]);
        }
        if let Some(mut trail) = find_by_id(&c.sub_category, id) {
            trail.insert(0, c);
            return Some(trail);
        }
    }
    None
}
