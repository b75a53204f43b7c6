//! From the CMS's JSON to the portal's types: field paths with coercions (numbers written as
//! strings, times in any of the usual forms), category trees in three shapes, article pages
//! with or without totals. Every failure names where in the CMS's JSON it is and which
//! configuration key to change.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{
    CategorySource, Dialect, DialectError, Field, JsonPath, RouteTable,
    config::{self, CategoryShape, ContentFormat, Paths},
    dates::normalise_time_in,
    text,
};
use portal_core::model::{Article, ArticlePage, Attachment, Category, Id, Link};

/// What does not fit the dialect: where in the CMS's JSON, which key, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} (at `{at}`; config key `{key}`)")]
pub struct ShapeProblem {
    pub at: String,
    pub key: String,
    pub what: String,
}

/// What a list call itself says beside its payload.
#[derive(Debug, Clone, Default)]
pub struct PageContext {
    /// The category the list was asked for: an item without a category of its own is in it.
    pub category: Option<Id>,
    /// Totals from the response's headers (`lists.total_header`, `lists.total_pages_header`).
    pub total: Option<u64>,
    pub total_pages: Option<u64>,
}

/// An address without its scheme and host (`http://cms:8080/a/b/` → `/a/b/`); a path as it is.
fn strip_origin(address: &str) -> &str {
    match address.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => address,
    }
}

fn problem(at: impl Into<String>, key: &str, what: impl Into<String>) -> ShapeProblem {
    ShapeProblem {
        at: at.into(),
        key: key.to_owned(),
        what: what.into(),
    }
}

impl From<ShapeProblem> for super::super::error::UpstreamError {
    fn from(problem: ShapeProblem) -> Self {
        Self::BadResponse(problem.to_string())
    }
}

fn field(key: &str, paths: &Paths) -> Result<Field, DialectError> {
    Field::compile(&format!("dialect.{key}"), paths)
}

#[derive(Debug, Clone)]
pub struct ListFields {
    pub items: Field,
    pub total: Field,
    pub total_pages: Field,
}

impl ListFields {
    pub fn compile(c: &config::ListsConfig) -> Result<Self, DialectError> {
        Ok(Self {
            items: field("lists.items", &c.items)?,
            total: field("lists.total", &c.total)?,
            total_pages: field("lists.total_pages", &c.total_pages)?,
        })
    }
}

#[derive(Debug, Clone)]
pub struct CategoryRules {
    pub shape: CategoryShape,
    pub items: Field,
    pub children: Field,
    pub root: Id,
    pub sort: Option<JsonPath>,
    pub max_depth: u32,
    pub routes: RouteTable,
    /// Where a route is derived from (`categories.route.from`), when set.
    pub route_from: Option<Field>,
    pub route: config::RouteRule,
    pub types: RouteTable,
    pub absent: Vec<String>,
}

impl CategoryRules {
    pub fn compile(c: &config::CategoriesConfig) -> Result<Self, DialectError> {
        let sort = (!c.sort.is_empty())
            .then(|| JsonPath::parse("dialect.categories.sort", &c.sort))
            .transpose()?;
        let route_from = (!c.route.from.is_empty())
            .then(|| {
                field(
                    "categories.route.from",
                    &config::Paths::Many(c.route.from.clone()),
                )
            })
            .transpose()?;
        Ok(Self {
            shape: c.shape,
            items: field("categories.items", &c.items)?,
            children: field("categories.children", &c.children)?,
            root: c.root.clone(),
            sort,
            max_depth: c.max_depth,
            routes: c.routes.clone(),
            route_from,
            route: c.route.clone(),
            types: c.types.clone(),
            absent: c.absent.clone(),
        })
    }

    /// The portal route of a category (`route_as_written`), in the portal's spelling when it is
    /// one of its routes written in another letter case or with a trailing slash: WordPress
    /// lower-cases slugs (`china-europe_train` for `/business/China-Europe_train`), and a section
    /// whose route differed only so was shown nowhere (the checker then listed it as absent).
    fn route_of(
        &self,
        id: &Id,
        slug: Option<&str>,
        derived_from: Option<&str>,
        url: Option<String>,
    ) -> String {
        let route = self.route_as_written(id, slug, derived_from, url);
        let is_article = route.to_ascii_lowercase().starts_with("/article/");
        match portal_core::portal_routes::spelled(&route) {
            Some(spelled) if !is_article => spelled,
            _ => route,
        }
    }

    /// The portal route of a category: the routes table (by id, then slug), else the template
    /// or the CMS's own address transformed (`route`), else the `url` field as the CMS wrote it.
    fn route_as_written(
        &self,
        id: &Id,
        slug: Option<&str>,
        derived_from: Option<&str>,
        url: Option<String>,
    ) -> String {
        if let Some(route) = self
            .routes
            .get(id.as_str())
            .or_else(|| slug.and_then(|s| self.routes.get(s)))
        {
            return route.clone();
        }
        let suffix = slug
            .and_then(|s| self.route.suffix.get(s))
            .map_or("", String::as_str);
        if !self.route.template.is_empty() {
            let Some(slug) = slug.or(self.route.template.contains("{slug}").then_some("")) else {
                return String::new();
            };
            if self.route.template.contains("{slug}") && slug.is_empty() {
                return String::new();
            }
            return format!(
                "{}{suffix}",
                self.route
                    .template
                    .replace("{slug}", slug)
                    .replace("{id}", &id.to_string())
            );
        }
        if let Some(address) = derived_from {
            let path = strip_origin(address.trim());
            let path = path
                .strip_prefix(self.route.strip_prefix.as_str())
                .unwrap_or(path);
            let path = path
                .split(['?', '#'])
                .next()
                .unwrap_or("")
                .trim_matches('/');
            return if path.is_empty() {
                String::new()
            } else {
                format!("/{path}{suffix}")
            };
        }
        url.filter(|u| !u.is_empty()).unwrap_or_default()
    }
}

/// What a field table passes on besides its fields (`dialect.fields.*.extra`).
trait Extras {
    fn extras(&self) -> Vec<String> {
        Vec::new()
    }
}

impl Extras for config::CategoryFields {
    fn extras(&self) -> Vec<String> {
        self.extra.clone()
    }
}

impl Extras for config::ArticleFields {
    fn extras(&self) -> Vec<String> {
        self.extra.clone()
    }
}

impl Extras for config::AttachmentFields {}

macro_rules! fields {
    ($name:ident, $config:ty, $prefix:literal, [$($f:ident),*]) => {
        #[derive(Debug, Clone)]
        pub struct $name {
            $(pub $f: Field,)*
            /// Other keys passed on under their own names.
            #[allow(dead_code, reason = "attachments pass no other fields on")]
            pub extra: Vec<String>,
        }

        impl $name {
            pub fn compile(c: &$config) -> Result<Self, DialectError> {
                Ok(Self {
                    $($f: field(concat!($prefix, stringify!($f)), &c.$f)?,)*
                    extra: c.extras(),
                })
            }
        }
    };
}

fields!(
    CategoryFields,
    config::CategoryFields,
    "fields.category.",
    [
        id,
        parent_id,
        name,
        url,
        sort,
        slug,
        kind,
        description,
        hidden,
        icon
    ]
);
fields!(
    ArticleFields,
    config::ArticleFields,
    "fields.article.",
    [
        id,
        category_id,
        title,
        summary,
        cover,
        author,
        editor,
        source,
        publish_time,
        views,
        content,
        attachments,
        video,
        captions,
        lead,
        prev,
        next
    ]
);
fields!(
    AttachmentFields,
    config::AttachmentFields,
    "fields.attachment.",
    [name, url, size]
);

/// Categories the portal shows, the first reached from the top (and shape `children` asks for).
/// Every page carries the tree (100 000 categories made each page 19 MB and the process 206 MB);
/// a portal's menu has dozens.
pub const MAX_CATEGORIES: usize = 1_000;

/// The public names of a category and an article: never passed on twice through `extra`.
const CATEGORY_NAMES: &[&str] = &[
    "id",
    "parentId",
    "name",
    "url",
    "sort",
    "subCategory",
    "type",
    "description",
    "hidden",
    "icon",
];
const ARTICLE_NAMES: &[&str] = &[
    "id",
    "categoryId",
    "title",
    "summary",
    "cover",
    "author",
    "editor",
    "source",
    "publishTime",
    "views",
    "content",
    "attachments",
    "video",
    "captions",
    "lead",
    "prev",
    "next",
];

/// An id as the CMS writes it: a whole number, or a string that is an id (`Id`).
pub(super) fn as_id(value: &Value) -> Option<Id> {
    match value {
        Value::Number(n) => n.as_u64().map(Id::number),
        Value::String(s) => Id::parse(s.trim()).ok(),
        _ => None,
    }
}

/// What `as_id` takes, for a problem's message.
const AN_ID: &str = "an id (a whole number, or a string of letters, digits and -._~:@ starting with a letter or digit)";

pub(super) fn as_u64(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn as_i64(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn as_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_i64().map(|n| n != 0),
        Value::String(s) => match s.trim() {
            "true" | "1" | "Y" | "y" | "yes" => Some(true),
            "false" | "0" | "N" | "n" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// Reads `field` from `object` with `coerce`; absent is `None`, present but of the wrong type
/// is a problem naming where (`at` is the object's place, e.g. `items[3]`).
fn read<T>(
    object: &Value,
    field: &Field,
    at: &str,
    kind: &str,
    coerce: impl Fn(&Value) -> Option<T>,
) -> Result<Option<T>, ShapeProblem> {
    let Some(value) = field.get(object) else {
        return Ok(None);
    };
    match coerce(value) {
        Some(v) => Ok(Some(v)),
        None => {
            let path = field
                .found_at(object)
                .map(ToString::to_string)
                .unwrap_or_default();
            Err(problem(
                format!("{at}.{path}"),
                &field.key,
                format!("expected {kind}, found {}", type_name(value)),
            ))
        }
    }
}

fn required<T>(
    object: &Value,
    field: &Field,
    at: &str,
    kind: &str,
    coerce: impl Fn(&Value) -> Option<T>,
) -> Result<T, ShapeProblem> {
    read(object, field, at, kind, coerce)?.ok_or_else(|| {
        let has = object
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect::<Vec<_>>().join(", "))
            .unwrap_or_default();
        problem(
            at,
            &field.key,
            format!(
                "nothing at {} (expected {kind}; the object has: {has})",
                field.describe()
            ),
        )
    })
}

pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The keys of `object` the config lists as extras (`dialect.fields.*.extra`), passed on under
/// their own names; nothing else unmapped is, and never one of the public names.
fn extra(object: &Value, listed: &[String], names: &[&str]) -> Map<String, Value> {
    let Some(map) = object.as_object() else {
        return Map::new();
    };
    listed
        .iter()
        .filter(|k| !names.contains(&k.as_str()))
        .filter_map(|k| Some((k.clone(), map.get(k)?.clone())))
        .collect()
}

/// Where a list sits in a payload: the first of `field`'s paths holding an array.
pub(super) fn list_in<'a>(
    payload: &'a Value,
    field: &Field,
    what: &str,
) -> Result<&'a [Value], ShapeProblem> {
    if payload.is_null() {
        return Ok(&[]);
    }
    for path in &field.paths {
        if let Some(Value::Array(items)) = path.get(payload) {
            return Ok(items);
        }
    }
    let keys = payload
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect::<Vec<_>>().join(", "))
        .unwrap_or_else(|| type_name(payload).to_owned());
    Err(problem(
        "payload",
        &field.key,
        format!(
            "no {what} list at {} (the payload has: {keys})",
            field.describe()
        ),
    ))
}

impl Dialect {
    /// One category without its children, and the parent its JSON names (if any).
    fn category(&self, object: &Value, at: &str) -> Result<(Category, Option<Id>), ShapeProblem> {
        let f = &self.category;
        if !object.is_object() {
            return Err(problem(
                at,
                &self.categories.items.key,
                format!("a category must be an object, found {}", type_name(object)),
            ));
        }
        let id = required(object, &f.id, at, AN_ID, |v| self.id_of(v))?;
        // A CMS that names content by path (`ids = "paths"`) has a category's parent in its path.
        let parent = read(object, &f.parent_id, at, &format!("{AN_ID} or null"), |v| {
            self.id_of(v)
        })?
        .or_else(|| self.folder_of(&id));
        let name = required(object, &f.name, at, "a name (string)", as_text)?;
        let slug = read(object, &f.slug, at, "a string", as_text)?;
        let derived_from = match &self.categories.route_from {
            Some(from) => read(object, from, at, "an address (string)", as_text)?,
            None => None,
        };
        let url = self.categories.route_of(
            &id,
            slug.as_deref(),
            derived_from.as_deref(),
            read(object, &f.url, at, "a string", as_text)?,
        );
        // The kind the config gives this route, over what the CMS says, over the kind the
        // portal's route table gives it (a CMS without kinds: lists page, feed and show as lists).
        let kind = match self.categories.types.get(&url) {
            Some(kind) => Some(kind.clone()),
            None => read(object, &f.kind, at, "a string", as_text)?
                .or_else(|| portal_core::portal_routes::kind_of(&url).map(str::to_owned)),
        };
        let category = Category {
            id,
            parent_id: parent.clone().unwrap_or_else(Id::top),
            name: self.text(name),
            url,
            sort: read(object, &f.sort, at, "a number", as_i64)?.unwrap_or(0),
            kind,
            description: read(object, &f.description, at, "a string", as_text)?
                .map(|d| self.text(d)),
            hidden: read(object, &f.hidden, at, "true or false", as_bool)?,
            icon: read(object, &f.icon, at, "a string", as_text)?,
            sub_category: Vec::new(),
            extra: extra(object, &f.extra, CATEGORY_NAMES),
        };
        Ok((category, parent))
    }

    /// The id of a raw category, if it has a readable one.
    /// Whether an article's item names `category` among its categories: where its category
    /// field reads one item of an array (`categories.0`), any item of that array.
    fn holds_category(&self, item: &Value, category: &Id) -> bool {
        self.article
            .category_id
            .paths
            .iter()
            .flat_map(|path| path.every_item(item))
            .any(|value| self.id_of(value).as_ref() == Some(category))
    }

    pub fn category_id_of(&self, object: &Value) -> Option<Id> {
        self.category.id.get(object).and_then(|v| self.id_of(v))
    }

    /// The id of a raw article (a webhook's entry), if it has a readable one.
    pub fn article_id_of(&self, object: &Value) -> Option<Id> {
        self.article.id.get(object).and_then(|v| self.id_of(v))
    }

    /// The category a raw article names, if it names one readably.
    pub fn article_category_of(&self, object: &Value) -> Option<Id> {
        self.article
            .category_id
            .get(object)
            .and_then(|v| self.id_of(v))
            .or_else(|| {
                self.article_id_of(object)
                    .and_then(|id| self.folder_of(&id))
            })
    }

    /// The raw category objects of a category-list payload.
    pub fn category_items<'a>(&self, payload: &'a Value) -> Result<&'a [Value], ShapeProblem> {
        list_in(payload, &self.categories.items, "category")
    }

    /// The category tree, whatever the shape the CMS gave it in.
    pub fn category_tree(&self, source: &CategorySource) -> Result<Vec<Category>, ShapeProblem> {
        Ok(self.assemble(self.category_nodes(source)?))
    }

    /// Every category the CMS gave, without children, each with the parent it names (or
    /// nests it under, or was asked for).
    pub fn category_nodes(
        &self,
        source: &CategorySource,
    ) -> Result<Vec<(Category, Option<Id>)>, ShapeProblem> {
        let mut nodes = Vec::new();
        match source {
            CategorySource::List(payload) => {
                let items = self.category_items(payload)?;
                self.flatten(items, None, "items", &mut nodes, 0)?;
            }
            CategorySource::Levels(levels) => {
                for (parent, items) in levels {
                    for (i, object) in items.iter().enumerate() {
                        let (category, _) =
                            self.category(object, &format!("children of {parent}[{i}]"))?;
                        nodes.push((category, Some(parent.clone())));
                    }
                }
            }
        }
        Ok(nodes)
    }

    fn flatten(
        &self,
        items: &[Value],
        nesting_parent: Option<&Id>,
        at: &str,
        out: &mut Vec<(Category, Option<Id>)>,
        depth: usize,
    ) -> Result<(), ShapeProblem> {
        if depth > 32 {
            return Err(problem(
                at,
                &self.categories.children.key,
                "categories nested more than 32 deep",
            ));
        }
        for (i, object) in items.iter().enumerate() {
            let here = format!("{at}[{i}]");
            let (category, parent) = self.category(object, &here)?;
            let id = category.id.clone();
            out.push((category, parent.or_else(|| nesting_parent.cloned())));
            if self.categories.shape == CategoryShape::Tree
                && let Some(children) = self.categories.children.get(object)
            {
                let Value::Array(children) = children else {
                    return Err(problem(
                        format!(
                            "{here}.{}",
                            self.categories
                                .children
                                .found_at(object)
                                .map(ToString::to_string)
                                .unwrap_or_default()
                        ),
                        &self.categories.children.key,
                        format!("children must be an array, found {}", type_name(children)),
                    ));
                };
                let path = self
                    .categories
                    .children
                    .found_at(object)
                    .map(ToString::to_string)
                    .unwrap_or_default();
                self.flatten(
                    children,
                    Some(&id),
                    &format!("{here}.{path}"),
                    out,
                    depth + 1,
                )?;
            }
        }
        Ok(())
    }

    /// Builds the tree from the root down, level by level and without recursion (a CMS's parent
    /// chain 10 000 long overflowed the stack when each level was a call). Categories the root
    /// does not reach (other sites' columns, orphans, cycles), those more than
    /// `categories.max_depth` levels below it and those past the first `MAX_CATEGORIES` reached
    /// are left out — `check-upstream` reports them. So every later walk of the tree (its JSON,
    /// the app's menu, a page's state) is shallow and small whatever a CMS sends.
    pub fn assemble(&self, nodes: Vec<(Category, Option<Id>)>) -> Vec<Category> {
        let root = &self.categories.root;
        let top = |parent: &Option<Id>| match parent {
            None => root.is_top(),
            Some(p) if p.is_top() => root.is_top(),
            Some(p) => p == root,
        };
        let mut children: HashMap<Option<Id>, Vec<Category>> = HashMap::new();
        for (category, parent) in nodes {
            let key = if top(&parent) { None } else { parent };
            children.entry(key).or_default().push(category);
        }
        // Breadth first: every category after its parent, with its parent's index.
        let mut reached: Vec<(Category, Option<usize>)> = Vec::new();
        let mut seen = HashSet::new();
        let mut level: Vec<(Option<Id>, Option<usize>)> = vec![(None, None)];
        for _ in 0..self.categories.max_depth {
            let mut next = Vec::new();
            for (parent, parent_index) in level {
                for mut category in children.remove(&parent).unwrap_or_default() {
                    if reached.len() == MAX_CATEGORIES || !seen.insert(category.id.clone()) {
                        continue;
                    }
                    category.parent_id = parent.clone().unwrap_or_else(Id::top);
                    next.push((Some(category.id.clone()), Some(reached.len())));
                    reached.push((category, parent_index));
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        // From the deepest up: each category's children are complete when its turn comes.
        let mut kids: Vec<Vec<Category>> = vec![Vec::new(); reached.len()];
        let mut top_level = Vec::new();
        for (index, (mut category, parent)) in reached.into_iter().enumerate().rev() {
            let mut sub = std::mem::take(&mut kids[index]);
            sub.reverse();
            if self.categories.sort.is_some() {
                sub.sort_by(|a, b| (a.sort, &a.id).cmp(&(b.sort, &b.id)));
            }
            category.sub_category = sub;
            match parent {
                Some(parent) => kids[parent].push(category),
                None => top_level.push(category),
            }
        }
        top_level.reverse();
        if self.categories.sort.is_some() {
            top_level.sort_by(|a, b| (a.sort, &a.id).cmp(&(b.sort, &b.id)));
        }
        top_level
    }

    fn attachment(&self, object: &Value, at: &str) -> Result<Attachment, ShapeProblem> {
        let f = &self.attachment;
        Ok(Attachment {
            name: required(object, &f.name, at, "a file name (string)", as_text)?,
            url: required(object, &f.url, at, "a file address (string)", as_text)?,
            size: read(object, &f.size, at, "a whole number", as_u64)?,
        })
    }

    /// A neighbour's link (`{id, title}`), or `None` for null or nothing.
    fn link(&self, object: &Value, field: &Field, at: &str) -> Result<Option<Link>, ShapeProblem> {
        let Some(value) = field.get(object).filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        let at = format!(
            "{at}.{}",
            field
                .found_at(object)
                .map(ToString::to_string)
                .unwrap_or_default()
        );
        // A neighbour without its id or title is left out rather than failing the article.
        let f = &self.article;
        let id = read(value, &f.id, &at, AN_ID, |v| self.id_of(v))?;
        let title = read(value, &f.title, &at, "a title (string)", as_text)?;
        Ok(id.zip(title).map(|(id, title)| Link { id, title }))
    }

    /// The body as HTML, whatever form the CMS writes it in (`content_format`); a block tree (an
    /// array) is read as one whatever the format, so a CMS that keeps some bodies as Markdown and
    /// some as blocks (`content = ["body", "bodyBlocks"]`) reads both.
    fn body(&self, object: &Value, at: &str) -> Result<Option<String>, ShapeProblem> {
        let f = &self.article;
        if let Some(tree @ Value::Array(_)) = f.content.get(object) {
            return Ok(text::blocks_to_html(tree));
        }
        match self.content_format {
            ContentFormat::Html => read(object, &f.content, at, "a string (HTML)", as_text),
            ContentFormat::Markdown => {
                Ok(
                    read(object, &f.content, at, "a string (Markdown)", as_text)?
                        .map(|md| text::markdown_to_html(&md)),
                )
            }
            ContentFormat::Blocks => match f.content.get(object) {
                None => Ok(None),
                Some(value) => text::blocks_to_html(value).map(Some).ok_or_else(|| {
                    problem(
                        format!(
                            "{at}.{}",
                            f.content
                                .found_at(object)
                                .map(ToString::to_string)
                                .unwrap_or_default()
                        ),
                        &f.content.key,
                        format!(
                            "expected a block tree (an array of blocks), found {}",
                            type_name(value)
                        ),
                    )
                }),
            },
        }
    }

    /// One article (a summary in a list, or a detail with its body).
    pub fn article(&self, object: &Value, at: &str) -> Result<Article, ShapeProblem> {
        let f = &self.article;
        if !object.is_object() {
            return Err(problem(
                at,
                &self.lists.items.key,
                format!("an article must be an object, found {}", type_name(object)),
            ));
        }
        let publish_time = match f.publish_time.get(object) {
            None => None,
            Some(raw) => Some(normalise_time_in(raw, self.time_zone).ok_or_else(|| {
                problem(
                    format!("{at}.{}", f.publish_time.found_at(object).map(ToString::to_string).unwrap_or_default()),
                    &f.publish_time.key,
                    format!("`{raw}` is not a time (epoch seconds or milliseconds, ISO 8601, or yyyy-MM-dd HH:mm:ss)"),
                )
            })?),
        };
        let attachments = match f.attachments.get(object) {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, a)| self.attachment(a, &format!("{at}.attachments[{i}]")))
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(problem(
                    format!("{at}.attachments"),
                    &f.attachments.key,
                    format!("expected an array, found {}", type_name(other)),
                ));
            }
        };
        let id = required(object, &f.id, at, AN_ID, |v| self.id_of(v))?;
        Ok(Article {
            category_id: read(object, &f.category_id, at, AN_ID, |v| self.id_of(v))?
                .or_else(|| self.folder_of(&id))
                .unwrap_or_else(Id::top),
            id,
            title: self.text(required(object, &f.title, at, "a title (string)", as_text)?),
            // A summary is text, whatever markup the CMS wrapped it in.
            summary: read(object, &f.summary, at, "a string", as_text)?.map(|s| {
                if s.contains('<') || s.contains('&') {
                    text::html_to_text(&s)
                } else {
                    s
                }
            }),
            cover: read(object, &f.cover, at, "a string", as_text)?,
            author: read(object, &f.author, at, "a string", as_text)?.map(|a| self.text(a)),
            editor: read(object, &f.editor, at, "a string", as_text)?.map(|e| self.text(e)),
            source: read(object, &f.source, at, "a string", as_text)?.map(|s| self.text(s)),
            publish_time,
            views: read(object, &f.views, at, "a whole number", as_u64)?,
            content: self.body(object, at)?,
            attachments,
            video: read(object, &f.video, at, "a string", as_text)?,
            captions: read(object, &f.captions, at, "a string", as_text)?,
            // Only a lead is worth saying: a CMS that writes `false` on every item says what
            // one that writes nothing says.
            lead: read(object, &f.lead, at, "true or false", as_bool)?.filter(|&lead| lead),
            prev: self.link(object, &f.prev, at)?,
            next: self.link(object, &f.next, at)?,
            extra: extra(object, &f.extra, ARTICLE_NAMES),
        })
    }

    /// One page of articles; `page` is 1-based whatever the CMS counts from.
    pub fn article_page(
        &self,
        payload: &Value,
        page: u32,
        size: u32,
    ) -> Result<ArticlePage, ShapeProblem> {
        self.page_of(payload, page, size, &PageContext::default())
    }

    /// One page of articles, with what the call itself says: the category asked for (filled in
    /// where an item lacks its own) and the totals from the response's headers.
    pub fn page_of(
        &self,
        payload: &Value,
        page: u32,
        size: u32,
        context: &PageContext,
    ) -> Result<ArticlePage, ShapeProblem> {
        let items = list_in(payload, &self.lists.items, "article")?;
        let content = items
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut article = self.article(a, &format!("items[{i}]"))?;
                // A list asked for one category shows its items under it: an item with no
                // category of its own, or one in several (a WordPress post in 中欧班列 and in
                // 公司要闻: `categories.0` names either) that holds the one asked for.
                if let Some(asked) = &context.category
                    && (article.category_id.is_top()
                        || (article.category_id != *asked && self.holds_category(a, asked)))
                {
                    article.category_id = asked.clone();
                }
                Ok(article)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let seen = u64::from(page - 1) * u64::from(size) + content.len() as u64;
        let total = match context.total {
            Some(total) => Some(total),
            None => read(
                payload,
                &self.lists.total,
                "payload",
                "a whole number",
                as_u64,
            )?,
        };
        let total_elements = match total {
            Some(total) => total,
            // No total: what this page shows, and one more page while pages come full.
            None => seen + u64::from(content.len() as u64 == u64::from(size)),
        };
        let total_pages = match context.total_pages {
            Some(pages) => Some(pages),
            None => read(
                payload,
                &self.lists.total_pages,
                "payload",
                "a whole number",
                as_u64,
            )?,
        }
        .unwrap_or_else(|| total_elements.div_ceil(u64::from(size.max(1))));
        Ok(ArticlePage {
            content,
            total_elements,
            total_pages,
            page,
            size,
        })
    }
}
