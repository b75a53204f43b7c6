//! The portal's content types, as the browser sees them whatever the CMS's dialect: categories,
//! article pages and articles, with file links pointed at the gateway and article HTML sanitised.

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::upstream::FileLinks;

/// A category of the portal's menu, whatever the CMS called its fields (see `dialect`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub id: u64,
    /// 0 at the top level.
    pub parent_id: u64,
    pub name: String,
    /// The portal route it belongs to (`/news_center/notice`); empty when it has none.
    pub url: String,
    pub sort: i64,
    /// The page the app shows: `group`, `page` or `list`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    pub sub_category: Vec<Category>,
    /// Whatever else the CMS says of a category, passed on.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CategoryList {
    pub content: Vec<Category>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    pub name: String,
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Article {
    pub id: u64,
    pub category_id: u64,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cover: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// `yyyy-MM-dd HH:mm:ss`, China time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publish_time: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub views: Option<u64>,
    /// The HTML body; only on the detail, always sanitised before it leaves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    /// A video the page plays (the promotional video), from the CMS file store.
    #[serde(skip_serializing_if = "Option::is_none")]
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

/// The ids of the articles an article's previous/next links name (`prev`/`next` in what the CMS
/// sent, when it sends them).
pub fn neighbour_ids(article: &Article) -> impl Iterator<Item = u64> + '_ {
    ["prev", "next"]
        .into_iter()
        .filter_map(|side| article.extra.get(side)?.get("id")?.as_u64())
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

/// A page of summaries as the browser gets it: no bodies, file links through the gateway.
pub fn finish_page(mut page: ArticlePage, links: &FileLinks) -> ArticlePage {
    for article in &mut page.content {
        // Summaries never carry a body, whatever the CMS sends.
        article.content = None;
        rewrite_links(links, article);
    }
    page
}

/// One article as the browser gets it: its body sanitised, its links through the gateway.
pub fn finish_article(mut article: Article, links: &FileLinks) -> Article {
    rewrite_links(links, &mut article);
    article.content = article.content.as_deref().map(|html| sanitize(html, links));
    article
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
