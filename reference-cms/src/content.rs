//! The demo content: `categories.json` (a flat list, nested at load) and `articles/*.json`.

use std::{collections::HashMap, io, path::Path};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("reading content: {0}")]
    Io(io::Error),
    #[error("{file}: {error}")]
    Parse {
        file: String,
        error: serde_json::Error,
    },
    #[error("content: {0}")]
    Invalid(String),
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub id: u64,
    pub parent_id: u64,
    pub name: String,
    pub url: String,
    pub sort: i64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Category {
    /// A slug for CMSs that address categories by one: the route's segments joined by `-`.
    pub fn slug(&self) -> String {
        self.url.trim_matches('/').replace('/', "-").to_lowercase()
    }

    pub fn summary(&self) -> Value {
        serde_json::to_value(self).expect("categories serialise")
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Article {
    pub id: u64,
    pub category_id: u64,
    pub title: String,
    pub publish_time: String,
    #[serde(default)]
    pub content: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An editor's change to an article: the fields given replace the article's.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArticleEdit {
    pub title: Option<String>,
    pub summary: Option<String>,
    pub content: Option<String>,
}

impl Article {
    /// Whether the title, the summary or the body's text (markup removed) contains `needle`
    /// (lower-cased): plain substring matching, which is what Chinese needs (no word breaks;
    /// two characters such as 班列 are a whole word).
    pub fn matches(&self, needle: &str) -> bool {
        if needle.is_empty() {
            return false;
        }
        let summary = self
            .extra
            .get("summary")
            .and_then(Value::as_str)
            .unwrap_or("");
        [self.title.as_str(), summary]
            .iter()
            .any(|text| text.to_lowercase().contains(needle))
            || text_of(&self.content).to_lowercase().contains(needle)
    }

    /// The list form: everything but the body.
    pub fn summary(&self) -> Value {
        let mut value = serde_json::to_value(self).expect("articles serialise");
        if let Value::Object(map) = &mut value {
            map.remove("content");
        }
        value
    }
}

#[derive(Clone)]
pub struct Content {
    categories: Vec<Category>,
    by_id: HashMap<u64, usize>,
    /// Newest first.
    articles: Vec<Article>,
    /// The content in other languages (`content/en/`: its own categories and articles, the
    /// same ids where an item is translated), asked for by `locale=en`. Read-only: editors
    /// change the site's own language.
    translations: std::sync::Arc<HashMap<String, std::sync::Arc<Content>>>,
}

/// The languages whose folder (`content/en/`) is read beside the site's own content.
const TRANSLATIONS: &[&str] = &["en"];

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, ContentError> {
    let text = std::fs::read_to_string(path).map_err(ContentError::Io)?;
    serde_json::from_str(&text).map_err(|error| ContentError::Parse {
        file: path.display().to_string(),
        error,
    })
}

impl Content {
    pub fn load(dir: &Path) -> Result<Self, ContentError> {
        let categories: Vec<Category> = read_json(&dir.join("categories.json"))?;
        let mut articles = Vec::new();
        let mut files: Vec<_> = std::fs::read_dir(dir.join("articles"))
            .map_err(ContentError::Io)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for file in files {
            let mut batch: Vec<Article> = read_json(&file)?;
            articles.append(&mut batch);
        }
        let mut content = Self::new(categories, articles)?;
        let mut translations = HashMap::new();
        for code in TRANSLATIONS {
            let below = dir.join(code);
            if below.join("categories.json").is_file() {
                translations.insert((*code).to_owned(), std::sync::Arc::new(Self::load(&below)?));
            }
        }
        content.translations = std::sync::Arc::new(translations);
        Ok(content)
    }

    /// The content in `locale` (`en`); `None` when there is none in that language.
    pub fn in_locale(&self, locale: &str) -> Option<std::sync::Arc<Content>> {
        self.translations.get(locale).cloned()
    }

    pub fn new(
        categories: Vec<Category>,
        mut articles: Vec<Article>,
    ) -> Result<Self, ContentError> {
        let mut by_id = HashMap::new();
        for (i, c) in categories.iter().enumerate() {
            if by_id.insert(c.id, i).is_some() {
                return Err(ContentError::Invalid(format!("category id {} twice", c.id)));
            }
        }
        for c in &categories {
            if c.parent_id != 0 && !by_id.contains_key(&c.parent_id) {
                return Err(ContentError::Invalid(format!(
                    "category {} names unknown parent {}",
                    c.id, c.parent_id
                )));
            }
        }
        let mut seen = HashMap::new();
        for a in &articles {
            if seen.insert(a.id, ()).is_some() {
                return Err(ContentError::Invalid(format!("article id {} twice", a.id)));
            }
            if !by_id.contains_key(&a.category_id) {
                return Err(ContentError::Invalid(format!(
                    "article {} names unknown category {}",
                    a.id, a.category_id
                )));
            }
        }
        articles.sort_by(|a, b| b.publish_time.cmp(&a.publish_time).then(b.id.cmp(&a.id)));
        Ok(Self {
            categories,
            by_id,
            articles,
            translations: std::sync::Arc::default(),
        })
    }

    /// Every category, in the file's order.
    /// Applies an editor's change to an article (the fields given), returning its category.
    pub fn update_article(&mut self, id: u64, edit: &ArticleEdit) -> Option<u64> {
        let article = self.articles.iter_mut().find(|a| a.id == id)?;
        if let Some(title) = &edit.title {
            article.title.clone_from(title);
        }
        if let Some(content) = &edit.content {
            article.content.clone_from(content);
        }
        if let Some(summary) = &edit.summary {
            article.extra.insert("summary".to_owned(), json!(summary));
        }
        Some(article.category_id)
    }

    /// Publishes a new article (newest first, as loaded ones), refusing an unknown category.
    pub fn add_article(&mut self, article: Article) -> Result<(), ContentError> {
        if self.category(article.category_id).is_none() {
            return Err(ContentError::Invalid(format!(
                "unknown category {}",
                article.category_id
            )));
        }
        if self.article(article.id).is_some() {
            return Err(ContentError::Invalid(format!(
                "article id {} taken",
                article.id
            )));
        }
        self.articles.push(article);
        self.articles
            .sort_by(|a, b| b.publish_time.cmp(&a.publish_time).then(b.id.cmp(&a.id)));
        Ok(())
    }

    /// Takes an article down, returning its category.
    pub fn remove_article(&mut self, id: u64) -> Option<u64> {
        let at = self.articles.iter().position(|a| a.id == id)?;
        Some(self.articles.remove(at).category_id)
    }

    /// The next free article id.
    pub fn next_article_id(&self) -> u64 {
        self.articles.iter().map(|a| a.id).max().unwrap_or(0) + 1
    }

    pub fn categories(&self) -> &[Category] {
        &self.categories
    }

    pub fn article(&self, id: u64) -> Option<&Article> {
        self.articles.iter().find(|a| a.id == id)
    }

    /// The newer and the older article of the same category.
    pub fn neighbours(&self, id: u64) -> (Option<&Article>, Option<&Article>) {
        let Some(article) = self.article(id) else {
            return (None, None);
        };
        let siblings = self.articles_in(Some(article.category_id));
        let Some(at) = siblings.iter().position(|a| a.id == id) else {
            return (None, None);
        };
        (
            at.checked_sub(1).and_then(|i| siblings.get(i)).copied(),
            siblings.get(at + 1).copied(),
        )
    }

    pub fn category(&self, id: u64) -> Option<&Category> {
        self.by_id.get(&id).map(|&i| &self.categories[i])
    }

    /// The nested tree, children under `subCategory`, ordered by `sort`.
    pub fn tree(&self) -> Vec<Value> {
        fn children(all: &[Category], parent: u64) -> Vec<Value> {
            let mut list: Vec<&Category> = all.iter().filter(|c| c.parent_id == parent).collect();
            list.sort_by_key(|c| (c.sort, c.id));
            list.into_iter()
                .map(|c| {
                    let mut v = c.summary();
                    v["subCategory"] = Value::Array(children(all, c.id));
                    v
                })
                .collect()
        }
        children(&self.categories, 0)
    }

    pub fn articles_in(&self, category: Option<u64>) -> Vec<&Article> {
        self.articles
            .iter()
            .filter(|a| category.is_none_or(|c| a.category_id == c))
            .collect()
    }

    /// One article with its neighbours in the same category (`prev` newer, `next` older).
    pub fn detail(&self, id: u64) -> Option<Value> {
        let article = self.article(id)?;
        let mut value = serde_json::to_value(article).expect("articles serialise");
        self.link_neighbours(id, &mut value);
        Some(value)
    }

    /// Sets `prev` and `next` (`{id, title}`, or null) on an article's JSON; every dialect names
    /// them so.
    pub fn link_neighbours(&self, id: u64, value: &mut Value) {
        let (prev, next) = self.neighbours(id);
        let link = |a: Option<&Article>| {
            a.map(|a| json!({ "id": a.id, "title": a.title }))
                .unwrap_or(Value::Null)
        };
        value["prev"] = link(prev);
        value["next"] = link(next);
    }

    /// The articles of a category (all when `None`) from `offset`, at most `limit`, with the
    /// category's total.
    pub fn page(
        &self,
        category: Option<u64>,
        offset: usize,
        limit: usize,
    ) -> (usize, Vec<&Article>) {
        self.page_matching(category, None, offset, limit)
    }

    /// `page`, keeping only the articles that match `keyword` (see `matches`) when one is given.
    pub fn page_matching(
        &self,
        category: Option<u64>,
        keyword: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> (usize, Vec<&Article>) {
        let mut matching = self.articles_in(category);
        if let Some(keyword) = keyword {
            let needle = keyword.trim().to_lowercase();
            matching.retain(|a| a.matches(&needle));
        }
        let total = matching.len();
        (
            total,
            matching.into_iter().skip(offset).take(limit).collect(),
        )
    }
}

/// The text of an HTML fragment: tags dropped, the common entities read.
fn text_of(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match (in_tag, c) {
            (false, '<') => in_tag = true,
            (true, '>') => in_tag = false,
            (false, c) => text.push(c),
            (true, _) => {}
        }
    }
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

impl Article {
    /// The attachments under the field names a dialect uses for name, address and size.
    pub fn attachments_as(&self, name: &str, url: &str, size: &str) -> Vec<Value> {
        self.extra
            .get("attachments")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .map(|f| json!({ name: f["name"], url: f["url"], size: f["size"] }))
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
