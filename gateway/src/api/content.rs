//! The portal's content types, as the browser sees them whatever the CMS's dialect: categories,
//! article pages and articles, with file links pointed at the gateway and article HTML sanitised.

use std::collections::HashSet;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::upstream::{FileLinks, UpstreamError};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub id: u64,
    #[serde(
        default,
        alias = "parent_id",
        alias = "pid",
        deserialize_with = "null_default"
    )]
    pub parent_id: u64,
    #[serde(alias = "title", alias = "categoryName")]
    pub name: String,
    #[serde(default, deserialize_with = "null_default")]
    pub url: String,
    #[serde(default, alias = "orderNum", deserialize_with = "null_default")]
    pub sort: i64,
    #[serde(
        default,
        alias = "children",
        alias = "sub_category",
        deserialize_with = "null_default"
    )]
    pub sub_category: Vec<Category>,
    /// Whatever else the CMS says of a category (type, description, icon…), passed on.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CategoryList {
    pub content: Vec<Category>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    #[serde(alias = "fileName")]
    pub name: String,
    #[serde(alias = "fileUrl", alias = "path")]
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Article {
    pub id: u64,
    #[serde(default, alias = "category_id", deserialize_with = "null_default")]
    pub category_id: u64,
    pub title: String,
    #[serde(
        default,
        alias = "description",
        skip_serializing_if = "Option::is_none"
    )]
    pub summary: Option<String>,
    #[serde(
        default,
        alias = "coverImage",
        alias = "thumbnail",
        skip_serializing_if = "Option::is_none"
    )]
    pub cover: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(
        default,
        alias = "publishDate",
        alias = "createTime",
        skip_serializing_if = "Option::is_none"
    )]
    pub publish_time: Option<String>,
    #[serde(
        default,
        alias = "viewCount",
        alias = "hits",
        skip_serializing_if = "Option::is_none"
    )]
    pub views: Option<u64>,
    /// The HTML body; only on the detail, always sanitised before it leaves.
    #[serde(default, alias = "body", skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(
        default,
        deserialize_with = "null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub attachments: Vec<Attachment>,
    /// A video the page plays (the promotional video), from the CMS file store.
    #[serde(default, alias = "videoUrl", skip_serializing_if = "Option::is_none")]
    pub video: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArticlePage {
    pub content: Vec<Article>,
    pub total_elements: u64,
    pub total_pages: u64,
    /// 1-based, whatever the CMS counts from.
    pub page: u32,
    pub size: u32,
}

fn null_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

fn bad(what: &str, err: impl std::fmt::Display) -> UpstreamError {
    UpstreamError::BadResponse(format!("{what}: {err}"))
}

/// The category tree from `result.content`, a bare list, or MyBatis `records`.
pub fn category_list(result: Value) -> Result<CategoryList, UpstreamError> {
    let list = match result {
        Value::Null => Value::Array(Vec::new()),
        Value::Array(_) => result,
        Value::Object(mut map) => map
            .remove("content")
            .or_else(|| map.remove("records"))
            .ok_or_else(|| bad("category list", "no content"))?,
        _ => return Err(bad("category list", "not a list")),
    };
    let mut content: Vec<Category> =
        serde_json::from_value(list).map_err(|e| bad("category list", e))?;
    sort_tree(&mut content);
    Ok(CategoryList { content })
}

fn sort_tree(list: &mut [Category]) {
    list.sort_by_key(|c| (c.sort, c.id));
    for category in list {
        sort_tree(&mut category.sub_category);
    }
}

/// Finds `id` in the tree, with its parent when it has one.
pub fn find_with_parent(tree: &[Category], id: u64) -> Option<(&Category, Option<&Category>)> {
    fn walk<'a>(
        list: &'a [Category],
        parent: Option<&'a Category>,
        id: u64,
        seen: &mut HashSet<u64>,
    ) -> Option<(&'a Category, Option<&'a Category>)> {
        for category in list {
            if !seen.insert(category.id) {
                continue;
            }
            if category.id == id {
                return Some((category, parent));
            }
            if let Some(hit) = walk(&category.sub_category, Some(category), id, seen) {
                return Some(hit);
            }
        }
        None
    }
    walk(tree, None, id, &mut HashSet::new())
}

/// The parent of category `id` (None at the top level), looked up by `parentId` anywhere in the
/// tree, so a CMS that sends a flat list works as well as a nested one.
pub fn parent_of(tree: &[Category], id: u64) -> Option<Option<Category>> {
    let (category, nested_parent) = find_with_parent(tree, id)?;
    if category.parent_id == 0 {
        return Some(None);
    }
    let parent = nested_parent
        .filter(|p| p.id == category.parent_id)
        .or_else(|| find_with_parent(tree, category.parent_id).map(|(p, _)| p))?;
    let mut parent = parent.clone();
    // The parent alone: its subtree is the caller's to fetch from the list.
    parent.sub_category.clear();
    Some(Some(parent))
}

/// Points an article's cover, video and attachments at the gateway; drops what cannot be.
fn rewrite_links(links: &FileLinks, article: &mut Article) {
    article.cover = article.cover.as_deref().and_then(|c| links.rewrite(c));
    article.video = article.video.as_deref().and_then(|v| links.rewrite(v));
    article
        .attachments
        .retain_mut(|a| match links.rewrite(&a.url) {
            Some(url) => {
                a.url = url;
                true
            }
            None => false,
        });
}

/// An article page from a Spring Data page or a MyBatis-Plus page.
pub fn article_page(
    result: Value,
    links: &FileLinks,
    page: u32,
    size: u32,
) -> Result<ArticlePage, UpstreamError> {
    let mut map = match result {
        Value::Null => Map::new(),
        Value::Object(map) => map,
        _ => return Err(bad("article page", "not an object")),
    };
    let list = map
        .remove("content")
        .or_else(|| map.remove("records"))
        .unwrap_or(Value::Array(Vec::new()));
    let mut content: Vec<Article> =
        serde_json::from_value(list).map_err(|e| bad("article page", e))?;
    for article in &mut content {
        // Summaries never carry a body, whatever the CMS sends.
        article.content = None;
        rewrite_links(links, article);
    }
    let number = |key: &str| map.get(key).and_then(Value::as_u64);
    let total_elements = number("totalElements")
        .or_else(|| number("total"))
        .unwrap_or(content.len() as u64);
    let total_pages = number("totalPages")
        .or_else(|| number("pages"))
        .unwrap_or_else(|| total_elements.div_ceil(u64::from(size.max(1))));
    Ok(ArticlePage {
        content,
        total_elements,
        total_pages,
        page,
        size,
    })
}

/// One article with its body sanitised and its links pointed at the gateway.
pub fn article_detail(result: Value, links: &FileLinks) -> Result<Option<Article>, UpstreamError> {
    if result.is_null() {
        return Ok(None);
    }
    let mut article: Article = serde_json::from_value(result).map_err(|e| bad("article", e))?;
    rewrite_links(links, &mut article);
    article.content = article.content.as_deref().map(|html| sanitize(html, links));
    Ok(Some(article))
}

/// Article HTML as the CMS wrote it, minus anything that could run script or leave the page's
/// look; file references are rewritten to the gateway.
pub fn sanitize(html: &str, links: &FileLinks) -> String {
    let links = links.clone();
    ammonia::Builder::default()
        .add_tags(["figure", "figcaption", "video", "source", "section"])
        .add_tag_attributes("img", ["loading", "width", "height"])
        .add_tag_attributes(
            "video",
            ["src", "poster", "controls", "preload", "width", "height"],
        )
        .add_tag_attributes("source", ["src", "type"])
        .add_tag_attributes("td", ["colspan", "rowspan"])
        .add_tag_attributes("th", ["colspan", "rowspan", "scope"])
        .add_generic_attributes(["class"])
        .link_rel(Some("noopener noreferrer"))
        .attribute_filter(move |element, attribute, value| {
            let is_link = matches!(
                (element, attribute),
                ("img", "src") | ("a", "href") | ("video", "src" | "poster") | ("source", "src")
            );
            if !is_link {
                return Some(value.into());
            }
            links.rewrite(value).map(Into::into)
        })
        .clean(html)
        .to_string()
}

#[cfg(test)]
mod tests;
