//! The portal's own content, whatever CMS it came from: the category tree, articles, pages of
//! articles, and the tags that name what a cached answer shows. The ground floor of the crate:
//! it imports nothing else of it. The CMS adapter (`cms`) builds these values, the content
//! service (`content`) caches them, and each face renders them: their serde form is the API's
//! `result` (and the shared cache tier's stored value); the sitemap and the feeds read the fields.

mod id;
pub mod site;
pub mod tags;

pub use id::{Id, IdError, MAX_LEN as MAX_ID_LEN, is_id_byte};

use std::{collections::HashSet, sync::Arc};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Most articles one page may hold, whatever the dialect allows (the API's bound).
pub const MAX_PAGE_SIZE: u32 = 50;

/// A category of the portal's menu, whatever the CMS called its fields.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub id: Id,
    /// 0 at the top level, whatever the CMS calls its root.
    pub parent_id: Id,
    pub name: String,
    /// The portal route it belongs to (`/news_center/notice`); empty when it has none.
    pub url: String,
    pub sort: i64,
    /// The page the app shows: `group`, `page` or `list`.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    #[serde(default)]
    pub sub_category: Vec<Category>,
    /// Whatever else the CMS says of a category, passed on (not part of the declared shape).
    #[serde(flatten)]
    #[cfg_attr(test, ts(skip))]
    pub extra: Map<String, Value>,
}

impl Category {
    /// A list category: pages of dated articles (its feed, its pager).
    pub fn is_list(&self) -> bool {
        self.kind.as_deref() == Some("list")
    }

    /// A group: its children are its content.
    pub fn is_group(&self) -> bool {
        self.kind.as_deref() == Some("group") || !self.sub_category.is_empty()
    }
}

/// The whole category tree, top level first (`result` of `/category/list`).
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryTree {
    pub content: Vec<Category>,
}

impl CategoryTree {
    /// Every category, parents before children.
    pub fn flatten(&self) -> Vec<&Category> {
        flatten(&self.content)
    }

    /// The category whose route is `url`, with its ancestors (outermost first).
    pub fn trail_to_url(&self, url: &str) -> Option<Vec<&Category>> {
        trail(&self.content, &|c| c.url == url)
    }

    /// The category `id`, with its ancestors (outermost first).
    pub fn trail_to_id(&self, id: &Id) -> Option<Vec<&Category>> {
        trail(&self.content, &|c| c.id == *id)
    }

    /// The parent of category `id` (`None` at the top level), looked up by `parentId` anywhere
    /// in the tree, so a CMS that sends a flat list works as well as a nested one. `None` when
    /// there is no category `id`.
    pub fn parent_of(&self, id: &Id) -> Option<Option<Category>> {
        let (category, nested_parent) = find_with_parent(&self.content, id)?;
        if category.parent_id.is_top() {
            return Some(None);
        }
        let parent = nested_parent
            .filter(|p| p.id == category.parent_id)
            .or_else(|| find_with_parent(&self.content, &category.parent_id).map(|(p, _)| p))?;
        let mut parent = parent.clone();
        // The parent alone: its subtree is the caller's to fetch from the list.
        parent.sub_category.clear();
        Some(Some(parent))
    }
}

/// Every category of `list` and below, parents before children.
pub fn flatten(list: &[Category]) -> Vec<&Category> {
    fn walk<'a>(list: &'a [Category], out: &mut Vec<&'a Category>) {
        for c in list {
            out.push(c);
            walk(&c.sub_category, out);
        }
    }
    let mut out = Vec::new();
    walk(list, &mut out);
    out
}

fn trail<'a>(list: &'a [Category], hit: &dyn Fn(&Category) -> bool) -> Option<Vec<&'a Category>> {
    for c in list {
        if hit(c) {
            return Some(vec![c]);
        }
        if let Some(mut found) = trail(&c.sub_category, hit) {
            found.insert(0, c);
            return Some(found);
        }
    }
    None
}

/// Finds `id` in the tree, with its parent when it has one (a category seen twice counts once).
fn find_with_parent<'a>(
    tree: &'a [Category],
    id: &Id,
) -> Option<(&'a Category, Option<&'a Category>)> {
    fn walk<'a>(
        list: &'a [Category],
        parent: Option<&'a Category>,
        id: &Id,
        seen: &mut HashSet<&'a Id>,
    ) -> Option<(&'a Category, Option<&'a Category>)> {
        for category in list {
            if !seen.insert(&category.id) {
                continue;
            }
            if category.id == *id {
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

#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    pub name: String,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// An article's previous or next neighbour in its category, as its links show it.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Link {
    pub id: Id,
    pub title: String,
}

/// An article: a summary in a list (no body), or a detail with its body and neighbours.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Article {
    pub id: Id,
    pub category_id: Id,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// 责任编辑: the editor who answers for the article (shown on its page, under its title).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// `yyyy-MM-dd HH:mm:ss`, China time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<u64>,
    /// The HTML body; only on a detail, always sanitised (by the CMS adapter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<Attachment>>"))]
    pub attachments: Vec<Attachment>,
    /// A video the page plays (the promotional video), from the CMS file store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video: Option<String>,
    /// The video's captions (WebVTT), from the CMS file store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captions: Option<String>,
    /// 头条: the CMS marks this article as the lead story (the home page shows the newest one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<bool>,
    /// The newer neighbour in its category (a detail only; `null` for the newest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev: Option<Link>,
    /// The older neighbour in its category (a detail only; `null` for the oldest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<Link>,
    /// Whatever else the CMS says of an article, passed on (not part of the declared shape).
    #[serde(flatten)]
    #[cfg_attr(test, ts(skip))]
    pub extra: Map<String, Value>,
}

impl Article {
    /// `yyyy-MM-dd`, or empty without a time.
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

    /// The ids of its previous and next articles, whose titles its links show.
    pub fn neighbour_ids(&self) -> impl Iterator<Item = &Id> + '_ {
        [&self.prev, &self.next]
            .into_iter()
            .flatten()
            .map(|link| &link.id)
    }
}

/// One page of articles (a list or a search); `page` is 1-based whatever the CMS counts from.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArticlePage {
    pub content: Vec<Article>,
    pub total_elements: u64,
    pub total_pages: u64,
    pub page: u32,
    pub size: u32,
}

impl ArticlePage {
    /// Whether pages come after this one.
    pub fn has_more(&self) -> bool {
        u64::from(self.page) < self.total_pages && !self.content.is_empty()
    }
}

/// A piece of a text a search shows: plain, or where the visitor's words matched (`match`).
/// Text only: the app draws each as a text node, marked or not, so nothing in it becomes markup.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marked {
    pub text: String,
    #[serde(rename = "match")]
    pub hit: bool,
}

impl Marked {
    pub fn text(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            hit: false,
        }
    }

    pub fn hit(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            hit: true,
        }
    }
}

/// Where a search hit matched: its title whole and a fragment of its text (body, else summary),
/// each cut into marked and plain pieces.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Highlight {
    pub title: Vec<Marked>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<Marked>>"))]
    pub fragment: Vec<Marked>,
}

/// One result of a search: the article as a list shows it, and where it matched (the built-in
/// index only; a CMS's search says nothing of it).
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    #[serde(flatten)]
    pub article: Article,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub highlight: Option<Highlight>,
}

/// How many hits a section holds, a choice of the search's section filter.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionCount {
    pub id: Id,
    pub name: String,
    pub count: u64,
}

/// Who answered a search: the gateway's own index, or the CMS's search.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchSource {
    Index,
    Cms,
}

/// One page of a search; `page` is 1-based. `sections` (the index only) counts the hits of
/// each section, whatever section the page was filtered to.
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchPage {
    pub content: Vec<SearchHit>,
    pub total_elements: u64,
    pub total_pages: u64,
    pub page: u32,
    pub size: u32,
    pub source: SearchSource,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<SectionCount>>"))]
    pub sections: Vec<SectionCount>,
    /// The index is still being built (after a start, without `search.dir`): these are the hits
    /// among what it holds so far, which the page says. Absent once it is whole.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<bool>"))]
    pub building: bool,
}

impl SearchPage {
    /// A page of the CMS's search, as the portal shows one.
    pub fn of_cms(page: ArticlePage) -> Self {
        Self {
            content: page
                .content
                .into_iter()
                .map(|article| SearchHit {
                    article,
                    highlight: None,
                })
                .collect(),
            total_elements: page.total_elements,
            total_pages: page.total_pages,
            page: page.page,
            size: page.size,
            source: SearchSource::Cms,
            sections: Vec::new(),
            building: false,
        }
    }
}

/// What one content query found: the value a cache entry holds beside its encodings, so every
/// face reads the same typed value and none parses another's bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum Content {
    Categories(Arc<CategoryTree>),
    /// The parent of a category (`None` at the top level).
    Parent(Option<Arc<Category>>),
    /// A page of a list.
    Articles(Arc<ArticlePage>),
    Article(Arc<Article>),
    /// A page of a search.
    Search(Arc<SearchPage>),
}

#[cfg(test)]
mod shapes;
#[cfg(test)]
mod tests;
