//! The CMS's dialect, compiled once when the config loads: how to ask it (paths, parameter
//! names, paging), how to read its envelope, and where the portal's fields sit in its JSON.
//! Runs on a cache miss only; a hit never reaches it.

pub mod config;
mod dates;
mod map;
mod text;

use std::collections::BTreeMap;

use axum::http::StatusCode;
use portal_core::model::Id;
use serde_json::Value;

pub use config::{
    CategoryShape, ContentFormat, DialectConfig, EnvelopeStyle, PagingStyle, TextFormat,
};
use config::{CmsEndpointConfig, Paths, SuccessCode};
pub use dates::normalise_time;
pub use map::{MAX_CATEGORIES, PageContext, ShapeProblem, type_name};

use super::{error::UpstreamError, link_patterns::LinkPattern};

/// A configuration key and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialectError {
    pub key: String,
    pub reason: String,
}

fn invalid(key: impl Into<String>, reason: impl Into<String>) -> DialectError {
    DialectError {
        key: key.into(),
        reason: reason.into(),
    }
}

/// A dotted path into JSON (`meta.total_count`); a segment of digits indexes an array
/// (`categories.0.id`, `_embedded.media.0.source_url`); the empty path is the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonPath(Vec<String>);

/// Characters of other path syntaxes (`data[0]`, `$.a`, `a.*`) that a segment never holds here:
/// refused at load rather than silently reading nothing.
const NOT_IN_A_SEGMENT: &[char] = &['[', ']', '*', '(', ')', '"', '\'', '$', '/', '?'];

impl JsonPath {
    fn parse(key: &str, raw: &str) -> Result<Self, DialectError> {
        if raw.is_empty() {
            return Ok(Self(Vec::new()));
        }
        let segments: Vec<String> = raw.split('.').map(str::to_owned).collect();
        let bad = |s: &String| {
            s.is_empty() || s.contains(char::is_whitespace) || s.contains(NOT_IN_A_SEGMENT)
        };
        if segments.iter().any(bad) {
            let hint = if raw.contains('[') {
                format!(
                    " (write array indexes as segments: `{}`)",
                    raw.replace('[', ".").replace(']', "")
                )
            } else {
                String::new()
            };
            return Err(invalid(
                key,
                format!(
                    "`{raw}` is not a path (names or array indexes joined by dots, e.g. \
                     meta.total_count or data.0.title){hint}"
                ),
            ));
        }
        Ok(Self(segments))
    }

    /// One step: an object's key, or (for a segment of digits) an array's item.
    fn step<'a>(value: &'a Value, segment: &str) -> Option<&'a Value> {
        match value {
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?),
            other => other.get(segment),
        }
    }

    pub fn get<'a>(&self, value: &'a Value) -> Option<&'a Value> {
        self.0.iter().try_fold(value, |v, key| Self::step(v, key))
    }

    pub fn take(&self, value: &mut Value) -> Option<Value> {
        let Some((last, parents)) = self.0.split_last() else {
            return Some(value.take());
        };
        let mut at = value;
        for key in parents {
            at = match at {
                Value::Array(items) => items.get_mut(key.parse::<usize>().ok()?)?,
                other => other.get_mut(key.as_str())?,
            };
        }
        match at {
            Value::Array(items) => {
                let i = last.parse::<usize>().ok()?;
                (i < items.len()).then(|| items.remove(i))
            }
            other => other.as_object_mut()?.remove(last),
        }
    }

    /// Every value this path reads when its last array index (`categories.0`,
    /// `categories.0.id`) is any index instead: all the items of that array, each read the rest of
    /// the way. Empty for a path with no index.
    pub fn every_item<'a>(&self, value: &'a Value) -> Vec<&'a Value> {
        let Some(at) = self
            .0
            .iter()
            .rposition(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        else {
            return Vec::new();
        };
        let array = self.0[..at]
            .iter()
            .try_fold(value, |v, key| Self::step(v, key));
        let Some(Value::Array(items)) = array else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| {
                self.0[at + 1..]
                    .iter()
                    .try_fold(item, |v, key| Self::step(v, key))
            })
            .collect()
    }

    /// The top-level key this path starts with, if any.
    pub fn head(&self) -> Option<&str> {
        self.0.first().map(String::as_str)
    }
}

impl std::fmt::Display for JsonPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("."))
    }
}

/// Alternatives tried in order; the first present and non-null counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub paths: Vec<JsonPath>,
    /// The config key this field comes from, for messages.
    pub key: String,
}

impl Field {
    fn compile(key: &str, paths: &Paths) -> Result<Self, DialectError> {
        let list = paths.list();
        if list.is_empty() {
            return Err(invalid(key, "must name at least one path"));
        }
        Ok(Self {
            paths: list
                .into_iter()
                .map(|p| JsonPath::parse(key, p))
                .collect::<Result<_, _>>()?,
            key: key.to_owned(),
        })
    }

    pub fn get<'a>(&self, value: &'a Value) -> Option<&'a Value> {
        self.paths
            .iter()
            .filter_map(|p| p.get(value))
            .find(|v| !v.is_null())
    }

    /// The matching path, for messages.
    pub fn found_at(&self, value: &Value) -> Option<&JsonPath> {
        self.paths
            .iter()
            .find(|p| p.get(value).is_some_and(|v| !v.is_null()))
    }

    pub fn describe(&self) -> String {
        self.paths
            .iter()
            .map(|p| format!("`{p}`"))
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

/// One piece of a path template: text, or the value of the call (`{id}`, `{parentId}`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Value,
}

/// A compiled CMS endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CmsEndpoint {
    pieces: Vec<Piece>,
    query: Vec<(String, String)>,
    param: String,
    /// The value goes into the path rather than a parameter.
    in_path: bool,
    /// The value goes into fixed parameters that name it (`"path.query" = "/Plone/{id}"`):
    /// a list asked by a path rather than a parameter of its own. Without a value (every
    /// category's articles) those parameters are left out.
    in_query: bool,
    /// `{placeholder}` as written.
    marker: String,
    /// Statuses read as "not found" besides 404 and 410 (`not_found`).
    not_found: Vec<u16>,
}

impl CmsEndpoint {
    /// `default_param` names the parameter when the config names none and the path holds no
    /// placeholder (a table written `{ path = "…" }` leaves `param` empty).
    fn compile(
        key: &str,
        config: &CmsEndpointConfig,
        placeholder: &str,
        default_param: &str,
    ) -> Result<Self, DialectError> {
        let path = config.path.trim_start_matches('/');
        if path.contains("..") || path.contains('?') || path.contains("://") {
            return Err(invalid(
                format!("{key}.path"),
                "must be a path relative to upstream.base_url, without '..' or '?' (fixed parameters go in `query`)",
            ));
        }
        let mut pieces = Vec::new();
        let mut rest = path;
        let mut in_path = false;
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map(|c| open + c).ok_or_else(|| {
                invalid(format!("{key}.path"), format!("unclosed `{{` in `{path}`"))
            })?;
            let name = &rest[open + 1..close];
            if name != placeholder {
                return Err(invalid(
                    format!("{key}.path"),
                    format!(
                        "unknown placeholder `{{{name}}}` (this endpoint knows `{{{placeholder}}}`)"
                    ),
                ));
            }
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_owned()));
            }
            pieces.push(Piece::Value);
            in_path = true;
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_owned()));
        }
        let marker = format!("{{{placeholder}}}");
        let mut in_query = false;
        for (name, value) in config
            .query
            .iter()
            .flat_map(|(name, values)| values.values().iter().map(move |v| (name, v)))
        {
            if name.trim().is_empty() {
                return Err(invalid(format!("{key}.query"), "a parameter needs a name"));
            }
            let stripped = value.replace(&marker, "");
            if stripped.contains('{') {
                return Err(invalid(
                    format!("{key}.query.{name}"),
                    format!(
                        "unknown placeholder in `{value}` (this endpoint knows `{marker}`, for the value it sends)"
                    ),
                ));
            }
            in_query |= stripped.len() != value.len();
        }
        Ok(Self {
            pieces,
            query: config
                .query
                .iter()
                .flat_map(|(k, values)| values.values().iter().map(|v| (k.clone(), v.clone())))
                .collect(),
            in_query,
            marker,
            param: if config.param.is_empty() {
                default_param.to_owned()
            } else {
                config.param.clone()
            },
            in_path,
            not_found: config.not_found.clone(),
        })
    }

    pub fn is_configured(&self) -> bool {
        !self.pieces.is_empty()
    }

    /// The path (relative to the base URL) and query of a call with `value` (an id, a slug).
    fn build(&self, value: Option<&str>) -> (String, Vec<(String, String)>) {
        let mut path = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => path.push_str(text),
                Piece::Value => {
                    if let Some(value) = value {
                        path.push_str(value);
                    }
                }
            }
        }
        let mut query = self.query.clone();
        if self.in_query {
            query.retain_mut(|(_, fixed)| {
                if !fixed.contains(&self.marker) {
                    return true;
                }
                match value {
                    Some(value) => {
                        *fixed = fixed.replace(&self.marker, value);
                        true
                    }
                    None => false,
                }
            });
        }
        if let (false, false, Some(value), false) =
            (self.in_path, self.in_query, value, self.param.is_empty())
        {
            query.push((self.param.clone(), value.to_string()));
        }
        (path, query)
    }
}

/// A call the gateway makes to the CMS, in its own terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CmsCall {
    Categories,
    Children {
        parent: Id,
    },
    Articles {
        category: Option<Id>,
        page: u32,
        size: u32,
    },
    Article {
        id: Id,
    },
    /// Articles matching a keyword (trimmed, 1–50 characters), newest first.
    Search {
        keyword: std::sync::Arc<str>,
        page: u32,
        size: u32,
    },
    /// The article whose page a body links to by slug (`link_patterns::is_slug`).
    ArticleBySlug {
        slug: std::sync::Arc<str>,
    },
    /// The record of an image a body embeds by id.
    Image {
        id: u64,
    },
    /// The articles changed since a time (`[dialect.changes]`), the time written as it says.
    Changes {
        since: std::sync::Arc<str>,
    },
}

impl CmsCall {
    /// The endpoint of the table whose CMS call this is (its `cms`): the label it is timed
    /// and logged under.
    pub fn endpoint(&self) -> portal_core::endpoint::Endpoint {
        use portal_core::endpoint::Endpoint;
        match self {
            Self::Categories | Self::Children { .. } => Endpoint::CategoryList,
            Self::Articles { .. } => Endpoint::ArticleList,
            Self::Article { .. } | Self::ArticleBySlug { .. } => Endpoint::ArticleDetail,
            Self::Search { .. } => Endpoint::ArticleSearch,
            Self::Image { .. } => Endpoint::Files,
            Self::Changes { .. } => Endpoint::ArticleList,
        }
    }

    /// This list or search call for its first page.
    pub fn first_page(&self) -> Self {
        let mut first = self.clone();
        if let Self::Articles { page, .. } | Self::Search { page, .. } = &mut first {
            *page = 1;
        }
        first
    }

    /// The page (1-based) and size a list or a search asks for.
    pub fn page(&self) -> Option<(u32, u32)> {
        match self {
            Self::Articles { page, size, .. } | Self::Search { page, size, .. } => {
                Some((*page, *size))
            }
            _ => None,
        }
    }
}

/// The CMS's categories as they came: one list payload (shapes `tree` and `flat`), or the
/// answers of children calls, each with the parent asked for (shape `children`).
#[derive(Debug, Clone)]
pub enum CategorySource {
    List(Value),
    Levels(Vec<(Id, Vec<Value>)>),
}

/// What `Dialect::request` says to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CmsRequest {
    pub path: String,
    pub query: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq)]
enum Success {
    Flag(bool),
    Number(i64),
}

/// The compiled dialect.
#[derive(Debug, Clone)]
pub struct Dialect {
    envelope_style: EnvelopeStyle,
    code: JsonPath,
    success: Vec<Success>,
    message: Field,
    payload: Field,
    paging: config::PagingConfig,
    category_list: CmsEndpoint,
    category_children: CmsEndpoint,
    article_list: CmsEndpoint,
    article_search: CmsEndpoint,
    article_detail: CmsEndpoint,
    article_by_slug: CmsEndpoint,
    image_detail: CmsEndpoint,
    /// The "changed since" list (`[dialect.changes]`), how its time is written and how often.
    changes: CmsEndpoint,
    pub(crate) changes_since: config::SinceFormat,
    pub(crate) changes_every: std::time::Duration,
    /// Where an article found by slug, and an image's record, sit in their answers.
    slug_item: JsonPath,
    image_item: JsonPath,
    /// Where an image's record gives its address (`links.image_url`).
    image_url: Field,
    pub files: String,
    /// Statuses of the file store read as "no such file" besides 404 and 410.
    files_not_found: Vec<u16>,
    /// Query parameters of a file's address sent on (`files_query`).
    files_query: Vec<String>,
    /// Which addresses below `files` are files (`files_match`); empty: every one.
    files_match: Vec<String>,
    pub lists: map::ListFields,
    pub(crate) categories: map::CategoryRules,
    pub category: map::CategoryFields,
    pub article: map::ArticleFields,
    pub(crate) attachment: map::AttachmentFields,
    /// Times written without an offset are read in this zone.
    time_zone: chrono::FixedOffset,
    content_format: ContentFormat,
    text_format: TextFormat,
    ids: config::IdKind,
    /// With `ids = "paths"`, the path ids are below (`/Plone`; empty for the CMS's root).
    id_root: Option<String>,
    /// Response headers with a list's total and page count.
    total_header: Option<axum::http::HeaderName>,
    total_pages_header: Option<axum::http::HeaderName>,
    /// The CMS's article page addresses (`links.article`).
    pub(crate) article_links: Vec<LinkPattern>,
    /// The file-store path of an image by id, as the text before and after `{id}`.
    pub(crate) image_file: Option<(String, String)>,
    /// Where the article sits in a detail's payload.
    detail_item: JsonPath,
}

impl Default for Dialect {
    fn default() -> Self {
        Self::compile(&DialectConfig::default()).expect("the native dialect compiles")
    }
}

/// `dialect.<k>`: the key an error names.
fn key(k: &str) -> String {
    format!("dialect.{k}")
}

/// The envelope's success codes and the path of its code field.
fn envelope_rules(
    envelope: &config::EnvelopeConfig,
) -> Result<(Vec<Success>, JsonPath), DialectError> {
    let success = envelope
        .success
        .iter()
        .map(|code| match code {
            SuccessCode::Flag(flag) => Ok(Success::Flag(*flag)),
            SuccessCode::Number(n) => Ok(Success::Number(*n)),
            SuccessCode::Text(text) => text.trim().parse().map(Success::Number).map_err(|_| {
                invalid(
                    key("envelope.success"),
                    format!("`{text}` is not a number, a numeric string or true"),
                )
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if envelope.style == EnvelopeStyle::Code && success.is_empty() {
        return Err(invalid(
            key("envelope.success"),
            "must list at least one code",
        ));
    }
    let code = JsonPath::parse(&key("envelope.code"), &envelope.code)?;
    if envelope.style == EnvelopeStyle::Code && code.0.is_empty() {
        return Err(invalid(key("envelope.code"), "must name the code field"));
    }
    Ok((success, code))
}

/// The paging parameters, checked.
fn paging_rules(paging: &config::PagingConfig) -> Result<config::PagingConfig, DialectError> {
    if paging.page_base > 1 {
        return Err(invalid(key("paging.page_base"), "must be 0 or 1"));
    }
    if !(1..=portal_core::model::MAX_PAGE_SIZE).contains(&paging.max_size) {
        return Err(invalid(
            key("paging.max_size"),
            format!("must be from 1 to {}", portal_core::model::MAX_PAGE_SIZE),
        ));
    }
    for (name, value) in [
        ("page", &paging.page),
        ("size", &paging.size),
        ("offset", &paging.offset),
    ] {
        if value.trim().is_empty() {
            return Err(invalid(
                key(&format!("paging.{name}")),
                "must name a parameter",
            ));
        }
    }
    Ok(paging.clone())
}

/// The CMS's endpoints, compiled: the three every CMS needs, the others when configured.
struct Endpoints {
    category_list: CmsEndpoint,
    category_children: CmsEndpoint,
    article_list: CmsEndpoint,
    article_detail: CmsEndpoint,
    article_search: CmsEndpoint,
    article_by_slug: CmsEndpoint,
    image_detail: CmsEndpoint,
    changes: CmsEndpoint,
}

impl Endpoints {
    fn compile(config: &DialectConfig) -> Result<Self, DialectError> {
        let endpoints = &config.endpoints;
        let endpoint = |name: &str, c: &CmsEndpointConfig, param: &str, query: &str| {
            CmsEndpoint::compile(&key(&format!("endpoints.{name}")), c, param, query)
        };
        let changes_config = &config.changes;
        let compiled = Self {
            category_list: endpoint("category_list", &endpoints.category_list, "id", "")?,
            category_children: endpoint(
                "category_children",
                &endpoints.category_children,
                "parentId",
                "parentId",
            )?,
            article_list: endpoint("article_list", &endpoints.article_list, "id", "categoryId")?,
            article_detail: endpoint("article_detail", &endpoints.article_detail, "id", "id")?,
            article_search: endpoint(
                "article_search",
                &endpoints.article_search,
                "keyword",
                "keyword",
            )?,
            article_by_slug: endpoint(
                "article_by_slug",
                &endpoints.article_by_slug,
                "slug",
                "slug",
            )?,
            image_detail: endpoint("image_detail", &endpoints.image_detail, "id", "id")?,
            changes: CmsEndpoint::compile(
                &key("changes"),
                &CmsEndpointConfig {
                    path: changes_config.path.clone(),
                    query: changes_config.query.clone(),
                    param: changes_config.param.clone(),
                    ..CmsEndpointConfig::default()
                },
                "since",
                "",
            )?,
        };
        if compiled.changes.is_configured() {
            if changes_config.param.trim().is_empty() && !compiled.changes.in_path {
                return Err(invalid(
                    key("changes.param"),
                    "must name the parameter that carries the time (e.g. modified_after)",
                ));
            }
            if changes_config.every < std::time::Duration::from_secs(1) {
                return Err(invalid(key("changes.every"), "must be at least 1s"));
            }
        }
        for (name, endpoint) in [
            ("category_list", &compiled.category_list),
            ("article_list", &compiled.article_list),
            ("article_detail", &compiled.article_detail),
        ] {
            if !endpoint.is_configured() {
                return Err(invalid(
                    key(&format!("endpoints.{name}.path")),
                    "must not be empty",
                ));
            }
        }
        Ok(compiled)
    }
}

/// What the category settings ask of the rest: the children's endpoint for `children`, routes
/// and kinds that are the portal's.
fn check_categories(
    categories: &config::CategoriesConfig,
    endpoints: &Endpoints,
) -> Result<(), DialectError> {
    if categories.shape == CategoryShape::Children {
        if !endpoints.category_children.is_configured() {
            return Err(invalid(
                key("endpoints.category_children.path"),
                "category shape `children` needs the path that lists a category's children",
            ));
        }
        if !(1..=8).contains(&categories.max_depth) {
            return Err(invalid(key("categories.max_depth"), "must be from 1 to 8"));
        }
    }
    for route in categories.routes.values() {
        if !route.starts_with('/') {
            return Err(invalid(
                key("categories.routes"),
                format!("`{route}` is not a portal route (routes start with /)"),
            ));
        }
    }
    for (route, kind) in &categories.types {
        if !matches!(kind.as_str(), "group" | "page" | "list") || !route.starts_with('/') {
            return Err(invalid(
                key("categories.types"),
                format!(
                    "`{route}` = `{kind}`: routes start with / and kinds are group, page or list"
                ),
            ));
        }
    }
    if !categories.route.template.is_empty() && !categories.route.template.starts_with('/') {
        return Err(invalid(
            key("categories.route.template"),
            "must start with / (e.g. /{slug})",
        ));
    }
    Ok(())
}

/// `id_root`, checked: set only with `ids = "paths"`, a path without a trailing `/`.
fn id_root(config: &DialectConfig) -> Result<Option<String>, DialectError> {
    let root = config.id_root.trim();
    if config.ids != config::IdKind::Paths {
        return match root.is_empty() {
            true => Ok(None),
            false => Err(invalid(key("id_root"), "is read only with ids = \"paths\"")),
        };
    }
    if !root.is_empty()
        && (!root.starts_with('/') || root.contains("..") || root.contains(['?', '#', ' ']))
    {
        return Err(invalid(
            key("id_root"),
            "must be the CMS path the ids are below, starting with '/' (Plone's site: \"/Plone\")",
        ));
    }
    Ok(Some(root.trim_end_matches('/').to_owned()))
}

/// `files`, checked: a relative path, empty only where `files_match` says which addresses of
/// the CMS's site are files (an empty prefix alone would relay every page and API answer of it).
fn files_path<'a>(files: &'a str, files_match: &[String]) -> Result<&'a str, DialectError> {
    let files = files.trim_matches('/');
    if files.contains("..") || files.contains('?') {
        return Err(invalid(
            key("endpoints.files"),
            "must be a relative path without '..' or '?'",
        ));
    }
    if files.is_empty() && files_match.is_empty() {
        return Err(invalid(
            key("endpoints.files"),
            "must not be empty unless files_match says which addresses are files",
        ));
    }
    for pattern in files_match {
        if pattern.trim().is_empty() || pattern.contains("..") || pattern.contains('?') {
            return Err(invalid(
                key("endpoints.files_match"),
                format!(
                    "`{pattern}` must be an address below `files` with `*` for any run of characters (\"*/@@images/*\"), without '..' or '?'"
                ),
            ));
        }
    }
    Ok(files)
}

/// The zone the CMS's times without one are in.
fn time_zone(name: &str) -> Result<chrono::FixedOffset, DialectError> {
    dates::zone_named(name).ok_or_else(|| {
        invalid(
            key("time_zone"),
            format!(
                "`{name}` is not a zone this reads: write Asia/Shanghai, UTC or a fixed offset \
                 such as +08:00 (zones with daylight saving are not supported)"
            ),
        )
    })
}

/// A response header named in the config (none when empty).
fn header_named(k: &str, name: &str) -> Result<Option<axum::http::HeaderName>, DialectError> {
    (!name.is_empty())
        .then(|| {
            axum::http::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| invalid(key(k), format!("`{name}` is not a header name")))
        })
        .transpose()
}

/// How links inside bodies are recognised: the article patterns (a `{slug}` one needs the slug
/// endpoint) and the image-file template (`{id}` once, under `endpoints.files`).
struct LinkRules {
    article: Vec<LinkPattern>,
    /// The image-file template's text before and after `{id}`.
    image_file: Option<(String, String)>,
}

fn link_rules(
    links: &config::LinksConfig,
    endpoints: &Endpoints,
    ids: config::IdKind,
) -> Result<LinkRules, DialectError> {
    let article_links: Vec<LinkPattern> = links
        .article
        .iter()
        .map(|pattern| {
            LinkPattern::compile(pattern).map_err(|reason| invalid(key("links.article"), reason))
        })
        .collect::<Result<_, _>>()?;
    if ids != config::IdKind::Paths && article_links.iter().any(LinkPattern::by_path) {
        return Err(invalid(
            key("links.article"),
            "a {path} pattern reads ids that are paths (dialect.ids = \"paths\"); this CMS's ids \
             are not: use {id} (one segment) or {slug}",
        ));
    }
    if article_links.iter().any(LinkPattern::by_slug) && !endpoints.article_by_slug.is_configured()
    {
        return Err(invalid(
            key("endpoints.article_by_slug.path"),
            "links.article has a {slug} pattern: say where the CMS finds an article by its \
             slug (e.g. path = \"pages/\", param = \"slug\", item = \"items.0\")",
        ));
    }
    let image_file = match links.image_file.trim_matches('/') {
        "" => None,
        template => match template.split_once("{id}") {
            Some((before, after))
                if !after.contains("{id}")
                    && !template.contains("..")
                    && !template.contains('?') =>
            {
                Some((before.to_owned(), after.to_owned()))
            }
            _ => {
                return Err(invalid(
                    key("links.image_file"),
                    format!(
                        "`{template}` must be a path under endpoints.files holding `{{id}}` \
                         once, without '..' or '?' (e.g. \"{{id}}\")"
                    ),
                ));
            }
        },
    };
    Ok(LinkRules {
        article: article_links,
        image_file,
    })
}

impl Dialect {
    /// Checks and compiles a dialect; an error names the key (under `dialect.`).
    pub fn compile(config: &DialectConfig) -> Result<Self, DialectError> {
        let envelope = &config.envelope;
        let (success, code) = envelope_rules(envelope)?;
        let paging = paging_rules(&config.paging)?;
        let endpoints = Endpoints::compile(config)?;
        check_categories(&config.categories, &endpoints)?;
        let files = files_path(&config.endpoints.files, &config.endpoints.files_match)?;
        let time_zone = time_zone(&config.time_zone)?;
        let links = link_rules(&config.links, &endpoints, config.ids)?;
        let items = &config.endpoints;
        Ok(Self {
            time_zone,
            content_format: config.content_format,
            text_format: config.text_format,
            ids: config.ids,
            id_root: id_root(config)?,
            total_header: header_named("lists.total_header", &config.lists.total_header)?,
            total_pages_header: header_named(
                "lists.total_pages_header",
                &config.lists.total_pages_header,
            )?,
            article_links: links.article,
            image_file: links.image_file,
            slug_item: JsonPath::parse(
                &key("endpoints.article_by_slug.item"),
                &items.article_by_slug.item,
            )?,
            image_item: JsonPath::parse(
                &key("endpoints.image_detail.item"),
                &items.image_detail.item,
            )?,
            image_url: Field::compile(&key("links.image_url"), &config.links.image_url)?,
            detail_item: JsonPath::parse(
                &key("endpoints.article_detail.item"),
                &items.article_detail.item,
            )?,
            envelope_style: envelope.style,
            code,
            success,
            message: Field::compile(&key("envelope.message"), &envelope.message)?,
            payload: Field::compile(&key("envelope.payload"), &envelope.payload)?,
            paging,
            category_list: endpoints.category_list,
            category_children: endpoints.category_children,
            article_list: endpoints.article_list,
            article_search: endpoints.article_search,
            article_detail: endpoints.article_detail,
            article_by_slug: endpoints.article_by_slug,
            image_detail: endpoints.image_detail,
            changes: endpoints.changes,
            changes_since: config.changes.since,
            changes_every: config.changes.every,
            files: files.to_owned(),
            files_not_found: items.files_not_found.clone(),
            files_query: items.files_query.clone(),
            files_match: items
                .files_match
                .iter()
                .map(|p| p.trim().trim_start_matches('/').to_owned())
                .collect(),
            lists: map::ListFields::compile(&config.lists)?,
            categories: map::CategoryRules::compile(&config.categories)?,
            category: map::CategoryFields::compile(&config.fields.category)?,
            article: map::ArticleFields::compile(&config.fields.article)?,
            attachment: map::AttachmentFields::compile(&config.fields.attachment)?,
        })
    }

    /// The largest page size a visitor may ask for.
    pub fn max_page_size(&self) -> u32 {
        self.paging.max_size
    }

    pub fn category_shape(&self) -> CategoryShape {
        self.categories.shape
    }

    /// Whether `id` may name something in this CMS (`ids`: any id for `text`, a whole number
    /// for `numbers`).
    pub fn holds(&self, id: &Id) -> bool {
        match self.ids {
            config::IdKind::Numbers => id.as_number().is_some(),
            config::IdKind::Text => true,
            // A path of named segments: an empty one, `.` or `..` would send the call elsewhere
            // in the CMS (`news_center:..:..:acl_users`).
            config::IdKind::Paths => is_plain_path(id.as_str()),
        }
    }

    /// Whether the CMS's ids are text (`ids = "text"` or `"paths"`): a whole number found in
    /// its payloads is then some other key (Strapi's row `id` beside the `documentId` the
    /// portal goes by).
    pub fn ids_are_text(&self) -> bool {
        self.ids != config::IdKind::Numbers
    }

    /// With `ids = "paths"`, the path every id is written below (`/Plone`).
    pub fn id_root(&self) -> Option<&str> {
        self.id_root.as_deref()
    }

    /// An id as the CMS writes it: a whole number or a string that is an id; with
    /// `ids = "paths"`, a path or an address below `id_root` (the root itself is the top).
    pub fn id_of(&self, value: &Value) -> Option<Id> {
        match &self.id_root {
            None => map::as_id(value),
            Some(root) => path_id(root, value.as_str()?),
        }
    }

    /// What an id is in a call to the CMS (`{id}`): the id itself, or with `ids = "paths"` its
    /// path below `id_root`, `/` again for `:`.
    pub fn cms_value<'a>(&self, id: &'a Id) -> std::borrow::Cow<'a, str> {
        match &self.id_root {
            None => std::borrow::Cow::Borrowed(id.as_str()),
            Some(_) if id.is_top() => std::borrow::Cow::Borrowed(""),
            Some(_) => std::borrow::Cow::Owned(id.as_str().replace(':', "/")),
        }
    }

    /// With `ids = "paths"`, the folder `id` sits in: its parent category, or the top (`None`)
    /// for what sits at `id_root`. Nothing with other ids.
    pub fn folder_of(&self, id: &Id) -> Option<Id> {
        self.id_root.as_ref()?;
        id.as_str()
            .rsplit_once(':')
            .and_then(|(folder, _)| Id::parse(folder).ok())
    }

    pub fn category_root(&self) -> &Id {
        &self.categories.root
    }

    pub fn category_depth(&self) -> u32 {
        self.categories.max_depth
    }

    /// A title, name or author as the portal shows it: decoded when the CMS writes HTML
    /// (`text_format = "html"`).
    pub(crate) fn text(&self, text: String) -> String {
        match self.text_format {
            TextFormat::Plain => text,
            TextFormat::Html => text::html_to_text(&text),
        }
    }

    /// The list's total and page count from the response's headers, when the dialect names them.
    pub fn header_totals(&self, headers: &axum::http::HeaderMap) -> (Option<u64>, Option<u64>) {
        let read = |name: &Option<axum::http::HeaderName>| {
            headers
                .get(name.as_ref()?)?
                .to_str()
                .ok()?
                .trim()
                .parse()
                .ok()
        };
        (read(&self.total_header), read(&self.total_pages_header))
    }

    /// The article of a detail's payload (`endpoints.article_detail.item`); `None` when it is
    /// not there (an empty filtered list: no such article).
    pub fn detail_item<'a>(&self, payload: &'a Value) -> Option<&'a Value> {
        self.detail_item.get(payload).filter(|v| !v.is_null())
    }

    /// Whether bodies may name articles by slug and images by id that the gateway looks up.
    pub fn looks_up_slugs(&self) -> bool {
        self.article_by_slug.is_configured()
    }

    pub fn looks_up_images(&self) -> bool {
        self.image_file.is_none() && self.image_detail.is_configured()
    }

    /// Whether images embedded by id find their file, by a lookup or `links.image_file`.
    pub fn resolves_images(&self) -> bool {
        self.image_file.is_some() || self.image_detail.is_configured()
    }

    /// The id of the article an `article_by_slug` answer found.
    pub fn slug_answer(&self, payload: &Value) -> Option<Id> {
        let item = self.slug_item.get(payload).filter(|v| !v.is_null())?;
        self.id_of(self.article.id.get(item)?)
    }

    /// The address an `image_detail` answer gives its image.
    pub fn image_answer(&self, payload: &Value) -> Option<String> {
        let item = self.image_item.get(payload).filter(|v| !v.is_null())?;
        self.image_url.get(item)?.as_str().map(str::to_owned)
    }

    /// How often to ask the CMS what changed, when `[dialect.changes]` says how.
    pub fn changes_every(&self) -> Option<std::time::Duration> {
        self.changes.is_configured().then_some(self.changes_every)
    }

    /// `time` as `[dialect.changes] since` writes it.
    pub fn changes_since(&self, time: chrono::DateTime<chrono::Utc>) -> String {
        match self.changes_since {
            config::SinceFormat::Rfc3339 => time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            config::SinceFormat::Unix => time.timestamp().to_string(),
        }
    }

    /// The articles a "changed since" answer lists: each one's id, its category when the item
    /// says, and a fingerprint of the item (the same change seen by two polls is applied once).
    pub fn changed_articles(
        &self,
        payload: &Value,
    ) -> Result<Vec<(Id, Option<Id>, u64)>, ShapeProblem> {
        use std::hash::{Hash, Hasher};
        let items = map::list_in(payload, &self.lists.items, "article")?;
        Ok(items
            .iter()
            .filter_map(|item| {
                let id = self.id_of(self.article.id.get(item)?)?;
                let category = self
                    .article
                    .category_id
                    .get(item)
                    .and_then(|v| self.id_of(v))
                    .or_else(|| self.folder_of(&id));
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                item.to_string().hash(&mut hasher);
                Some((id, category, hasher.finish()))
            })
            .collect())
    }

    /// Portal routes the CMS declares it has no section for.
    pub fn absent_routes(&self) -> &[String] {
        &self.categories.absent
    }

    /// Whether `dialect.categories.types` gives the kind of `route`.
    pub fn types_route(&self, route: &str) -> bool {
        self.categories.types.contains_key(route)
    }

    /// Whether the CMS searches articles (`dialect.endpoints.article_search` has a path).
    pub fn has_search(&self) -> bool {
        self.article_search.is_configured()
    }

    /// Whether the CMS's HTTP `status` for `call` means "no such thing" (404, 410, or a status
    /// the endpoint's `not_found` lists).
    pub fn is_not_found(&self, call: &CmsCall, status: StatusCode) -> bool {
        let endpoint = match call {
            CmsCall::Categories => &self.category_list,
            CmsCall::Children { .. } => &self.category_children,
            CmsCall::Article { .. } => &self.article_detail,
            CmsCall::Articles { .. } => &self.article_list,
            CmsCall::Search { .. } => &self.article_search,
            CmsCall::ArticleBySlug { .. } => &self.article_by_slug,
            CmsCall::Image { .. } => &self.image_detail,
            CmsCall::Changes { .. } => &self.changes,
        };
        endpoint.not_found.contains(&status.as_u16())
    }

    /// Whether the file store's `status` means "no such file" beyond 404 and 410
    /// (`files_not_found`).
    pub fn is_file_not_found(&self, status: StatusCode) -> bool {
        self.files_not_found.contains(&status.as_u16())
    }

    /// The parameters of a file request's `raw` query sent on to the file store: those
    /// `files_query` names, each once, with a short value of letters, digits, `.`, `-` and `_`;
    /// sorted, so one image at one size is one cache entry.
    /// The query parameters a file's address keeps (`files_query`).
    pub fn files_query(&self) -> &[String] {
        &self.files_query
    }

    pub fn file_query(&self, raw: Option<&str>) -> Vec<(String, String)> {
        super::links::kept_file_query(&self.files_query, raw)
    }

    /// The patterns of the addresses below `files` that are files (`files_match`).
    pub fn files_match(&self) -> &[String] {
        &self.files_match
    }

    /// Whether `path` (below `files`, without a leading `/`) is a file's address: any, unless
    /// `files_match` says which.
    pub fn is_file_path(&self, path: &str) -> bool {
        super::links::is_file_path(&self.files_match, path)
    }

    /// What to send for `call`.
    pub fn request(&self, call: &CmsCall) -> CmsRequest {
        let (path, query) = match call {
            CmsCall::Categories => self.category_list.build(None),
            CmsCall::Children { parent } => {
                self.category_children.build(Some(&self.cms_value(parent)))
            }
            CmsCall::Article { id } => self.article_detail.build(Some(&self.cms_value(id))),
            CmsCall::ArticleBySlug { slug } => self.article_by_slug.build(Some(slug)),
            CmsCall::Image { id } => self.image_detail.build(Some(&id.to_string())),
            CmsCall::Changes { since } => self.changes.build(Some(since)),
            CmsCall::Articles {
                category,
                page,
                size,
            } => {
                let category = category.as_ref().map(|c| self.cms_value(c));
                let (path, query) = self.article_list.build(category.as_deref());
                self.paged(path, query, *page, *size)
            }
            CmsCall::Search {
                keyword,
                page,
                size,
            } => {
                let (path, mut query) = self.article_search.build(None);
                query.push((self.article_search.param.clone(), keyword.to_string()));
                self.paged(path, query, *page, *size)
            }
        };
        CmsRequest { path, query }
    }

    /// `path` and `query` with the paging parameters of page `page` (1-based) of `size`.
    fn paged(
        &self,
        path: String,
        mut query: Vec<(String, String)>,
        page: u32,
        size: u32,
    ) -> (String, Vec<(String, String)>) {
        match self.paging.style {
            PagingStyle::Page => {
                query.push((
                    self.paging.page.clone(),
                    (page - 1 + self.paging.page_base).to_string(),
                ));
                query.push((self.paging.size.clone(), size.to_string()));
            }
            PagingStyle::Offset => {
                let offset = u64::from(page - 1) * u64::from(size);
                query.push((self.paging.offset.clone(), offset.to_string()));
                query.push((self.paging.size.clone(), size.to_string()));
            }
        }
        (path, query)
    }

    fn is_success_code(&self, code: &Value) -> bool {
        let number = match code {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse().ok(),
            Value::Bool(flag) => return self.success.contains(&Success::Flag(*flag)),
            _ => None,
        };
        number.is_some_and(|n| self.success.contains(&Success::Number(n)))
    }

    fn message_of(&self, body: &Value) -> Option<String> {
        self.message
            .paths
            .iter()
            .filter_map(|p| p.get(body)?.as_str())
            .map(str::trim)
            .find(|m| !m.is_empty())
            // Secrets hidden before the cut (a cut secret would no longer be found), control
            // characters dropped (an escape sequence would reach a terminal through the logs and
            // `check-upstream`).
            .map(|m| {
                portal_core::redact::redact(m)
                    .chars()
                    .filter(|c| !c.is_control())
                    .take(200)
                    .collect()
            })
    }

    /// Turns one CMS answer into its payload, or the error it stands for.
    pub fn decode(
        &self,
        status: StatusCode,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Result<Value, UpstreamError> {
        let is_json = content_type.is_some_and(is_json_type);
        let parsed: Option<Value> = if is_json {
            super::bounded_json::from_slice(body).ok()
        } else {
            None
        };
        if status == StatusCode::UNAUTHORIZED {
            return Err(UpstreamError::Unauthorized {
                msg: parsed.as_ref().and_then(|b| self.message_of(b)),
            });
        }
        if body.iter().all(u8::is_ascii_whitespace) && status.is_success() {
            return Ok(Value::Null);
        }
        if !is_json {
            if status == StatusCode::SERVICE_UNAVAILABLE {
                return Err(UpstreamError::Unavailable);
            }
            return Err(UpstreamError::BadResponse(format!(
                "HTTP {status} with content type {:?}",
                content_type.unwrap_or("none")
            )));
        }
        let Some(mut body) = parsed else {
            return Err(UpstreamError::BadResponse(format!(
                "HTTP {status}: body is not JSON"
            )));
        };
        match self.envelope_style {
            EnvelopeStyle::None => {
                if status.is_success() {
                    return Ok(body);
                }
                if status == StatusCode::SERVICE_UNAVAILABLE && self.message_of(&body).is_none() {
                    return Err(UpstreamError::Unavailable);
                }
                Err(UpstreamError::Status {
                    code: i64::from(status.as_u16()),
                    msg: self.message_of(&body),
                })
            }
            EnvelopeStyle::Code => {
                if !body.is_object() {
                    return Err(UpstreamError::BadResponse(format!(
                        "HTTP {status}: body is not a JSON object"
                    )));
                }
                let Some(code) = self.code.get(&body).filter(|c| !c.is_null()).cloned() else {
                    if status == StatusCode::SERVICE_UNAVAILABLE {
                        return Err(UpstreamError::Unavailable);
                    }
                    return Err(UpstreamError::BadResponse(format!(
                        "HTTP {status}: envelope has no code at `{}`",
                        self.code
                    )));
                };
                if self.is_success_code(&code) {
                    if !status.is_success() {
                        return Err(UpstreamError::BadResponse(format!(
                            "HTTP {status} with a success envelope"
                        )));
                    }
                    return Ok(self
                        .payload
                        .paths
                        .iter()
                        .find_map(|p| p.get(&body).filter(|v| !v.is_null()).map(|_| p.clone()))
                        .and_then(|p| p.take(&mut body))
                        .unwrap_or(Value::Null));
                }
                let number = match &code {
                    Value::Number(n) => n.as_i64(),
                    Value::String(s) => s.trim().parse().ok(),
                    _ => None,
                };
                let msg = self.message_of(&body);
                match number {
                    Some(401) => Err(UpstreamError::Unauthorized { msg }),
                    Some(code) => Err(UpstreamError::Status { code, msg }),
                    // `success: false` and the like: a failure the CMS did not number.
                    None if status.is_success() => Err(UpstreamError::Status { code: 502, msg }),
                    None => Err(UpstreamError::Status {
                        code: i64::from(status.as_u16()),
                        msg,
                    }),
                }
            }
        }
    }
}

/// The id a CMS path or address names below `root` (`ids = "paths"`): the path's segments
/// joined by `:` (`/Plone/news_center/notice` → `news_center:notice`). An address is read for its
/// path; a path not below `root` is read as it is (a virtual host that hides the site's folder);
/// the root itself is the top.
fn path_id(root: &str, text: &str) -> Option<Id> {
    let text = text.trim();
    let path = match text.find("://") {
        Some(scheme) => {
            let rest = &text[scheme + 3..];
            &rest[rest.find('/').unwrap_or(rest.len())..]
        }
        None => text,
    };
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let below = path
        .strip_prefix(root)
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
        .unwrap_or(path)
        .trim_matches('/');
    if below.is_empty() {
        return Some(Id::top());
    }
    let id = below.replace('/', ":");
    is_plain_path(&id).then(|| Id::parse(&id).ok()).flatten()
}

/// Whether a path id's segments are all names: none empty, `.` or `..`.
fn is_plain_path(id: &str) -> bool {
    id.split(':')
        .all(|s| !s.is_empty() && s != "." && s != "..")
}

fn is_json_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

/// Routes by CMS id or slug, as configured.
pub(crate) type RouteTable = BTreeMap<String, String>;

#[cfg(test)]
mod tests;
