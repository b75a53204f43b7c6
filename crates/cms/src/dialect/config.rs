//! `[dialect]`: how the configured CMS speaks, as an integrator writes it. Every key has the
//! native dialect's value (what reference-cms speaks by default) as its default, so a config
//! without `[dialect]` behaves as before. Compiled into `Dialect` when the config loads.

use std::collections::BTreeMap;

use portal_core::model::Id;
use serde::Deserialize;

/// One path into a JSON object (`meta.total_count`), or several tried in order.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Paths {
    One(String),
    Many(Vec<String>),
}

impl Paths {
    pub fn list(&self) -> Vec<&str> {
        match self {
            Self::One(p) => vec![p.as_str()],
            Self::Many(ps) => ps.iter().map(String::as_str).collect(),
        }
    }
}

fn paths(list: &[&str]) -> Paths {
    Paths::Many(list.iter().map(|p| (*p).to_owned()).collect())
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DialectConfig {
    /// The zone of times written without an offset: `Asia/Shanghai` (the default), `UTC`, or a
    /// fixed offset such as `+08:00`.
    pub time_zone: String,
    /// How article bodies are written: `html` (the default), `markdown` or `blocks` (Strapi's
    /// block tree). Each becomes sanitised HTML.
    pub content_format: ContentFormat,
    /// How titles, names and summaries are written: `plain` (the default) or `html` (entities
    /// such as `&#8220;` decoded, tags dropped). Summaries with tags become text either way.
    pub text_format: TextFormat,
    /// What the CMS's category and article ids are: `numbers` (the default: WordPress,
    /// Directus's serial keys, reference-cms) or `text` (Strapi 5's `documentId`, Plone's UID,
    /// UUIDs, hex ids, slugs). Either way the portal carries them as the CMS writes them; with
    /// `numbers` an address naming an article by a word answers "not found" without asking the
    /// CMS, which many answer with a 400 or a 500. `paths`: the CMS names its content by where
    /// it sits (Plone: `/Plone/news_center/notice`); see `id_root`.
    pub ids: IdKind,
    /// With `ids = "paths"`: the CMS path every id is written below (Plone's site, `/Plone`).
    /// An id is the path below it with `:` for `/` (`news_center:notice`), read from a path or
    /// a full address of the CMS (`@id`); a path is sent back where an endpoint says `{id}`,
    /// with `/` again. A category or an article whose parent or category is not given is in
    /// the folder above it.
    pub id_root: String,
    pub envelope: EnvelopeConfig,
    pub paging: PagingConfig,
    pub endpoints: EndpointsConfig,
    pub lists: ListsConfig,
    pub categories: CategoriesConfig,
    pub fields: FieldsConfig,
    pub links: LinksConfig,
    pub changes: ChangesConfig,
}

impl Default for DialectConfig {
    fn default() -> Self {
        Self {
            time_zone: "Asia/Shanghai".to_owned(),
            content_format: ContentFormat::default(),
            text_format: TextFormat::default(),
            ids: IdKind::default(),
            id_root: String::new(),
            envelope: EnvelopeConfig::default(),
            paging: PagingConfig::default(),
            endpoints: EndpointsConfig::default(),
            lists: ListsConfig::default(),
            categories: CategoriesConfig::default(),
            fields: FieldsConfig::default(),
            links: LinksConfig::default(),
            changes: ChangesConfig::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IdKind {
    #[default]
    Numbers,
    Text,
    Paths,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ContentFormat {
    #[default]
    Html,
    Markdown,
    Blocks,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextFormat {
    #[default]
    Plain,
    Html,
}

/// `[dialect.links]`: links in bodies to the CMS's own article pages and images embedded by id,
/// rewritten to the portal's.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinksConfig {
    /// Patterns of the CMS's article page addresses, each with one `{id}` or `{slug}` and any
    /// number of `*` (one path segment): `https://cms.example.com/news/{id}.html`,
    /// `/news_center/*/{slug}/`. Such links become the article's real URL on the portal
    /// (`/portal/article/{id}`, which the app opens in place); a slug is looked up with
    /// `endpoints.article_by_slug`.
    pub article: Vec<String>,
    /// The file-store path of an image embedded by id (`<embed embedtype="image" id="5">`,
    /// Wagtail's rich text), with `{id}`: `"{id}"` for a store that serves files by id
    /// (Directus's `assets/{id}`). Empty: looked up with `endpoints.image_detail`.
    pub image_file: String,
    /// Where `endpoints.image_detail`'s answer gives the image's address.
    pub image_url: Paths,
}

impl Default for LinksConfig {
    fn default() -> Self {
        Self {
            article: Vec::new(),
            image_file: String::new(),
            image_url: paths(&["meta.download_url", "url"]),
        }
    }
}

/// `[dialect.changes]`: for a CMS that cannot call the webhook, the list of articles changed
/// since a time, which the gateway asks every `every` and applies as the webhook's notices.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChangesConfig {
    /// The list's path (`api/articles`, `wp-json/wp/v2/posts`); empty: no polling.
    pub path: String,
    /// The parameter carrying the time (`modified_after`, `filters[updatedAt][$gt]`).
    pub param: String,
    /// Sent with every call (a sort, a page size, what to populate).
    pub query: BTreeMap<String, FixedValue>,
    /// How the time is written: `"rfc3339"` (`2026-11-26T08:00:00Z`) or `"unix"` (seconds).
    pub since: SinceFormat,
    /// How often to ask (at least 1 s; 10 s or more spares the CMS).
    #[serde(with = "humantime_serde")]
    pub every: std::time::Duration,
}

impl Default for ChangesConfig {
    fn default() -> Self {
        Self {
            path: String::new(),
            param: String::new(),
            query: BTreeMap::new(),
            since: SinceFormat::Rfc3339,
            every: std::time::Duration::from_secs(30),
        }
    }
}

/// A fixed parameter's value: one, or several, each sent as the same parameter again (Plone's
/// `portal_type=News Item&portal_type=Document`; a CMS reads a repeated parameter as a list).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum FixedValue {
    One(String),
    Many(Vec<String>),
}

impl FixedValue {
    pub fn values(&self) -> &[String] {
        match self {
            Self::One(value) => std::slice::from_ref(value),
            Self::Many(values) => values,
        }
    }
}

impl From<&str> for FixedValue {
    fn from(value: &str) -> Self {
        Self::One(value.to_owned())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SinceFormat {
    Rfc3339,
    Unix,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EnvelopeStyle {
    /// A code field says whether the call succeeded (`{code, msg, result}`).
    Code,
    /// No envelope: the HTTP status alone decides; the body is the payload.
    None,
}

/// A value of the code field that means success.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SuccessCode {
    Flag(bool),
    Number(i64),
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EnvelopeConfig {
    pub style: EnvelopeStyle,
    /// Path of the code field (style `code`).
    pub code: String,
    /// Codes that mean success: numbers, numeric strings, or `true` (for `success: true`).
    pub success: Vec<SuccessCode>,
    /// Paths of the CMS's message, in an envelope or an error body; the first non-empty wins.
    pub message: Paths,
    /// Paths of the payload in a success envelope, first present wins (style `code`); `""`
    /// is the whole body.
    pub payload: Paths,
}

impl Default for EnvelopeConfig {
    fn default() -> Self {
        Self {
            style: EnvelopeStyle::Code,
            code: "code".to_owned(),
            success: vec![SuccessCode::Number(0), SuccessCode::Number(200)],
            message: paths(&["msg", "message", "error_description"]),
            payload: paths(&["result", "data"]),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PagingStyle {
    /// A page number (from `page_base`) and a page size.
    Page,
    /// An offset (items to skip) and a limit, computed from the visitor's page and size.
    Offset,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PagingConfig {
    pub style: PagingStyle,
    /// The page-number parameter (style `page`).
    pub page: String,
    /// The page-size parameter (style `page`) or the limit parameter (style `offset`).
    pub size: String,
    /// The offset parameter (style `offset`).
    pub offset: String,
    /// The CMS's number of the first page: 0 (Spring Data) or 1 (MyBatis-Plus).
    pub page_base: u32,
    /// The largest page size the CMS accepts; the public `size` bound follows it (at most 50).
    pub max_size: u32,
}

impl Default for PagingConfig {
    fn default() -> Self {
        Self {
            style: PagingStyle::Page,
            page: "page".to_owned(),
            size: "size".to_owned(),
            offset: "offset".to_owned(),
            page_base: 0,
            max_size: 50,
        }
    }
}

/// One CMS endpoint: its path (a template: `articles/{id}`), fixed query parameters, and the
/// names of the parameters the gateway sends.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CmsEndpointConfig {
    pub path: String,
    /// Sent with every call (`type = "news.ArticlePage"`, `fields = "*"`; a list of values sends
    /// the parameter once for each: `portal_type = ["News Item", "Document"]`).
    pub query: BTreeMap<String, FixedValue>,
    /// Name of the parameter carrying the value (the category of a list, the id of a detail,
    /// the parent of a children call); unused when the path template holds it.
    pub param: String,
    /// Where the one object sits in the answer (a detail asked as a filtered list: `data.0`,
    /// `0`); `""` is the payload itself.
    pub item: String,
    /// HTTP statuses that mean "no such thing" here, besides 404 and 410 (`[403]` for a CMS
    /// that forbids what it does not have, as headless CMSs do for an unknown id).
    pub not_found: Vec<u16>,
}

impl CmsEndpointConfig {
    fn new(path: &str, param: &str) -> Self {
        Self {
            path: path.to_owned(),
            query: BTreeMap::new(),
            param: param.to_owned(),
            item: String::new(),
            not_found: Vec::new(),
        }
    }
}

impl Default for CmsEndpointConfig {
    fn default() -> Self {
        Self::new("", "")
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EndpointsConfig {
    pub category_list: CmsEndpointConfig,
    /// A category's children (category shape `children`): `{parentId}` in the path or `param`.
    pub category_children: CmsEndpointConfig,
    pub article_list: CmsEndpointConfig,
    pub article_detail: CmsEndpointConfig,
    /// Search over articles, the keyword in `param`, paged like the list; an empty path when the
    /// CMS has none (the portal then shows no search box).
    pub article_search: CmsEndpointConfig,
    /// An article found by its slug (`{slug}` in the path or `param`; `item` where it sits in
    /// the answer, `"items.0"`, `"0"`, `"data.0"`); for body links written by slug. No path:
    /// such links are not followed.
    pub article_by_slug: CmsEndpointConfig,
    /// An image's record by id (`{id}` in the path or `param`), its address at
    /// `links.image_url`; for images embedded by id. No path: such images are dropped unless
    /// `links.image_file` says where the file is.
    pub image_detail: CmsEndpointConfig,
    /// Prefix under which the CMS serves uploaded files (images, attachments).
    pub files: String,
    /// HTTP statuses of the file store that mean "no such file", besides 404 and 410 (`[403]`).
    pub files_not_found: Vec<u16>,
    /// Query parameters of a file's address sent on to the file store (an image's size or
    /// format, `?width=300`); any other is dropped.
    pub files_query: Vec<String>,
    /// Which addresses below `files` are files, as `*` patterns (`"*/@@images/*"`): a CMS whose
    /// files sit anywhere in its site among its pages (Plone's images are `<item>/@@images/…`).
    /// Empty: every address below `files`.
    pub files_match: Vec<String>,
}

impl Default for EndpointsConfig {
    fn default() -> Self {
        Self {
            category_list: CmsEndpointConfig::new("category/list", ""),
            category_children: CmsEndpointConfig::new("", "parentId"),
            article_list: CmsEndpointConfig::new("article/list", "categoryId"),
            article_detail: CmsEndpointConfig::new("article/detail", "id"),
            article_search: CmsEndpointConfig::new("article/search", "keyword"),
            article_by_slug: CmsEndpointConfig::new("", "slug"),
            image_detail: CmsEndpointConfig::new("", "id"),
            files: "files".to_owned(),
            files_not_found: Vec::new(),
            files_query: [
                "width", "height", "quality", "format", "fit", "w", "h", "q", "fm",
            ]
            .map(str::to_owned)
            .to_vec(),
            files_match: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ListsConfig {
    /// Paths of the items in an article list payload; `""` is the payload itself.
    pub items: Paths,
    /// Paths of the total count; absent → the items counted on a last page, else unknown.
    pub total: Paths,
    /// Paths of the page count; absent → derived from the total.
    pub total_pages: Paths,
    /// A response header with the total count (`X-Total-Count`, `X-WP-Total`), for CMSs that
    /// answer a bare array; read before `total`.
    pub total_header: String,
    /// A response header with the page count (`X-WP-TotalPages`).
    pub total_pages_header: String,
}

impl Default for ListsConfig {
    fn default() -> Self {
        Self {
            items: paths(&["content", "records", "items", "rows", "list"]),
            total: paths(&["totalElements", "total", "meta.total_count", "count"]),
            total_pages: paths(&["totalPages", "pages"]),
            total_header: String::new(),
            total_pages_header: String::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CategoryShape {
    /// A nested tree: each category carries its children.
    Tree,
    /// One flat list; each category names its parent.
    Flat,
    /// The CMS is asked for each category's children, from the root down.
    Children,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CategoriesConfig {
    pub shape: CategoryShape,
    /// Paths of the category list in the payload; `""` is the payload itself.
    pub items: Paths,
    /// Paths of a category's children (shape `tree`).
    pub children: Paths,
    /// The parent of the top level: a parent of 0 or null is the top when this is 0; another id
    /// (a whole number or a string: a Plone UID, a slug) names the category whose children are
    /// the top level (it is not shown itself).
    pub root: Id,
    /// Field to sort siblings by (`sort`); `""` keeps the CMS's order.
    pub sort: String,
    /// How deep shape `children` asks (levels below the root).
    pub max_depth: u32,
    /// Portal route by CMS category id or slug: overrides whatever else gives a route.
    pub routes: BTreeMap<String, String>,
    /// How a route is derived from what the CMS says of a category (`[dialect.categories.route]`).
    pub route: RouteRule,
    /// The page kind of a route (`"/news_center/notice" = "list"`), over what the CMS says (the
    /// feeds and the pager follow it).
    pub types: BTreeMap<String, String>,
    /// Portal routes the CMS has no section for: `check-upstream` says them once (an info) instead
    /// of a warning each, and warns of one listed here that the CMS has.
    pub absent: Vec<String>,
}

/// A route made from a category's own field: its address with the origin, `strip_prefix` and
/// the slashes taken off (`http://cms/cn/news_center/notice/` → `/news_center/notice`), then the
/// slug's `suffix`; or a `template` (`/{slug}`, `/c/{id}`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RouteRule {
    /// Paths of the field holding the CMS's address of the category's page.
    pub from: Vec<String>,
    pub strip_prefix: String,
    /// Added to the route of the category with this slug (`company_announcement = "/1"`).
    pub suffix: BTreeMap<String, String>,
    /// A route built from the slug and id instead; used when set.
    pub template: String,
}

impl Default for CategoriesConfig {
    fn default() -> Self {
        Self {
            shape: CategoryShape::Tree,
            items: paths(&["content", "records", "items", "list", ""]),
            children: paths(&["subCategory", "children", "sub_category"]),
            root: Id::top(),
            sort: "sort".to_owned(),
            max_depth: 4,
            routes: BTreeMap::new(),
            route: RouteRule::default(),
            types: BTreeMap::new(),
            absent: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FieldsConfig {
    pub category: CategoryFields,
    pub article: ArticleFields,
    pub attachment: AttachmentFields,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CategoryFields {
    pub id: Paths,
    pub parent_id: Paths,
    pub name: Paths,
    pub url: Paths,
    pub sort: Paths,
    /// Looked up in `categories.routes` when the CMS has no portal route.
    pub slug: Paths,
    /// The page kind the app shows: `group`, `page` or `list`.
    #[serde(rename = "type")]
    pub kind: Paths,
    pub description: Paths,
    pub hidden: Paths,
    pub icon: Paths,
    /// Other top-level keys of the CMS's object passed on under their own names; nothing else
    /// unmapped is.
    pub extra: Vec<String>,
}

impl Default for CategoryFields {
    fn default() -> Self {
        Self {
            id: paths(&["id"]),
            parent_id: paths(&["parentId", "parent_id", "pid", "parent"]),
            name: paths(&["name", "title", "categoryName"]),
            url: paths(&["url"]),
            sort: paths(&["sort", "orderNum"]),
            slug: paths(&["slug"]),
            kind: paths(&["type"]),
            description: paths(&["description"]),
            hidden: paths(&["hidden"]),
            icon: paths(&["icon"]),
            extra: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ArticleFields {
    pub id: Paths,
    pub category_id: Paths,
    pub title: Paths,
    pub summary: Paths,
    pub cover: Paths,
    pub author: Paths,
    /// 责任编辑, the article's responsible editor.
    pub editor: Paths,
    pub source: Paths,
    /// Epoch seconds or milliseconds, ISO 8601, or `yyyy-MM-dd HH:mm:ss` (China time); the
    /// public API always says `yyyy-MM-dd HH:mm:ss` in China time.
    pub publish_time: Paths,
    pub views: Paths,
    /// The HTML body (details only).
    pub content: Paths,
    pub attachments: Paths,
    pub video: Paths,
    /// The video's WebVTT captions (a file path or URL, like `video`).
    pub captions: Paths,
    /// The lead-story flag (true/false, 1/0, "true"/"false"): the home page's 头条.
    pub lead: Paths,
    /// The newer and the older neighbour in its category (`{id, title}` or null; details only).
    pub prev: Paths,
    pub next: Paths,
    /// Other top-level keys of the CMS's object passed on under their own names; nothing else
    /// unmapped is.
    pub extra: Vec<String>,
}

impl Default for ArticleFields {
    fn default() -> Self {
        Self {
            id: paths(&["id"]),
            category_id: paths(&["categoryId", "category_id"]),
            title: paths(&["title"]),
            summary: paths(&["summary", "description"]),
            cover: paths(&["cover", "coverImage", "thumbnail"]),
            author: paths(&["author"]),
            editor: paths(&["editor", "responsibleEditor"]),
            source: paths(&["source"]),
            publish_time: paths(&["publishTime", "publishDate", "createTime"]),
            views: paths(&["views", "viewCount", "hits"]),
            content: paths(&["content", "body"]),
            attachments: paths(&["attachments"]),
            video: paths(&["video", "videoUrl"]),
            captions: paths(&["captions", "subtitles"]),
            lead: paths(&["lead", "headline"]),
            prev: paths(&["prev"]),
            next: paths(&["next"]),
            extra: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AttachmentFields {
    pub name: Paths,
    pub url: Paths,
    pub size: Paths,
}

impl Default for AttachmentFields {
    fn default() -> Self {
        Self {
            name: paths(&["name", "fileName"]),
            url: paths(&["url", "fileUrl", "path"]),
            size: paths(&["size", "fileSize"]),
        }
    }
}
