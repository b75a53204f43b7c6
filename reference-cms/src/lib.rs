//! reference-cms: a small CMS that serves the bundled demo content in one of three dialects:
//! `native`, the gateway's own contract (envelope code 200, Spring Data pages with a zero-based
//! `number`, HTTP Basic client credential); `mybatis`, a MyBatis-Plus / RuoYi-style CMS; and
//! `rest`, a headless CMS without an envelope. The default upstream of `make run` and of the
//! tests, and the integrators' reference for what the gateway can be configured to read.
#![forbid(unsafe_code)]

mod content;
mod editing;
mod mybatis;
mod rest;

use std::{
    collections::HashSet,
    net::SocketAddr,
    path::PathBuf,
    sync::{Arc, RwLock},
    time::Duration,
};

use axum::{
    Json, Router,
    extract::{Query, Request, State},
    http::{HeaderMap, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
};
use base64::Engine;
use serde::Deserialize;
use serde_json::{Value, json};
use tower_http::services::ServeDir;

pub use content::{Article, Category, Content, ContentError};
pub use editing::Webhook;

/// Which way the CMS speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Native,
    Mybatis,
    Rest,
}

impl std::str::FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "native" => Ok(Self::Native),
            "mybatis" => Ok(Self::Mybatis),
            "rest" => Ok(Self::Rest),
            other => Err(format!(
                "unknown dialect `{other}` (native, mybatis or rest)"
            )),
        }
    }
}

/// How the `rest` dialect gives its categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CategoryShape {
    /// One flat list, each category naming its parent.
    Flat,
    /// No list: each category's children are asked for (`categories/{id}/children`).
    Children,
}

/// How the CMS is started; every field has a demo default.
#[derive(Clone, Debug)]
pub struct Settings {
    pub dialect: Dialect,
    /// Used by the `rest` dialect.
    pub categories: CategoryShape,
    pub listen: SocketAddr,
    pub content_dir: PathBuf,
    pub client_id: String,
    pub client_secret: String,
    /// Visitor system tokens accepted as `Bearer` instead of the client credential.
    pub tokens: HashSet<String>,
    /// Artificial latency per API call, to stand in for a slow production CMS.
    pub delay: Duration,
    /// Where edits made through `/admin/articles` are announced (the gateway's webhook).
    pub webhook: Option<Webhook>,
}

impl Settings {
    /// Demo defaults, overridden by `REFERENCE_CMS_*` environment variables.
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(format!("REFERENCE_CMS_{name}")).ok();
        Self {
            dialect: var("DIALECT")
                .and_then(|v| v.parse().ok())
                .unwrap_or(Dialect::Native),
            categories: match var("CATEGORIES").as_deref() {
                Some("children") => CategoryShape::Children,
                _ => CategoryShape::Flat,
            },
            listen: var("LISTEN")
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8081))),
            content_dir: var("CONTENT_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(default_content_dir),
            client_id: var("CLIENT_ID").unwrap_or_else(|| "portal-web".to_owned()),
            client_secret: var("CLIENT_SECRET")
                .unwrap_or_else(|| "demo-secret-change-me".to_owned()),
            tokens: var("TOKENS")
                .map(|v| {
                    v.split(',')
                        .map(str::trim)
                        .filter(|t| !t.is_empty())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            delay: Duration::from_millis(var("DELAY_MS").and_then(|v| v.parse().ok()).unwrap_or(0)),
            webhook: var("WEBHOOK_URL").map(|url| Webhook {
                url,
                secret: var("WEBHOOK_SECRET").unwrap_or_default(),
            }),
        }
    }
}

/// The content bundled with the crate.
pub fn default_content_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("content")
}

#[derive(Clone)]
pub(crate) struct AppState {
    /// Replaced whole by an edit; readers hold the version they started with.
    content: Arc<RwLock<Arc<Content>>>,
    webhook: Option<Webhook>,
    pub(crate) categories: CategoryShape,
    basic: String,
    tokens: Arc<HashSet<String>>,
    delay: Duration,
}

impl AppState {
    pub(crate) fn content(&self) -> Arc<Content> {
        Arc::clone(&self.content.read().expect("content lock"))
    }

    /// The content in the language `locale` asks for (Strapi's `locale=en`): the site's own
    /// when absent or `zh`; a language it has no content in is refused, as Strapi refuses one.
    pub(crate) fn content_in(&self, locale: &Locale) -> Option<Arc<Content>> {
        let content = self.content();
        match locale.0.as_deref() {
            None | Some("zh") => Some(content),
            Some(code) => content.in_locale(code),
        }
    }

    /// Applies an edit to a copy of the content and puts the copy in place.
    pub(crate) fn edit<T>(&self, change: impl FnOnce(&mut Content) -> T) -> T {
        let mut slot = self.content.write().expect("content lock");
        let mut next = Content::clone(&slot);
        let result = change(&mut next);
        *slot = Arc::new(next);
        result
    }
}

/// The `locale` a request names (`?locale=en`), if any.
pub(crate) struct Locale(Option<String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Locale {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        let query: Option<Query<std::collections::HashMap<String, String>>> =
            Query::try_from_uri(&parts.uri).ok();
        Ok(Self(query.and_then(|Query(mut q)| q.remove("locale"))))
    }
}

/// The CMS's router; `settings.listen` is not used here.
pub fn router(settings: &Settings, content: Content) -> Router {
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", settings.client_id, settings.client_secret))
    );
    let files_dir = settings.content_dir.join("files");
    let state = AppState {
        content: Arc::new(RwLock::new(Arc::new(content))),
        webhook: settings.webhook.clone(),
        categories: settings.categories,
        basic,
        tokens: Arc::new(settings.tokens.clone()),
        delay: settings.delay,
    };
    let api = match settings.dialect {
        Dialect::Native => Router::new()
            .route("/category/list", get(category_list))
            .route("/category/getParentCategory", get(parent_category))
            .route("/article/list", get(article_list))
            .route("/article/detail", get(article_detail))
            // The list's answer, of the articles matching `keyword`.
            .route("/article/search", get(article_list))
            .fallback(|| async { envelope_error(StatusCode::NOT_FOUND, "接口不存在") }),
        Dialect::Mybatis => mybatis::router(),
        Dialect::Rest => rest::router(),
    };
    let refused: fn() -> Response = match settings.dialect {
        Dialect::Native => || envelope_error(StatusCode::UNAUTHORIZED, "客户端凭证无效"),
        Dialect::Mybatis => mybatis::refused,
        Dialect::Rest => rest::refused,
    };
    api.merge(editing::router())
        .nest_service("/files", ServeDir::new(files_dir))
        .layer(middleware::from_fn_with_state(
            (state.clone(), refused),
            require_credential,
        ))
        .with_state(state)
}

/// Loads the content and serves until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    settings: Settings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ContentError> {
    let content = Content::load(&settings.content_dir)?;
    let app = router(&settings, content);
    // A file answer is written as headers, then body: with Nagle's algorithm on, the body waited
    // for the gateway's delayed ACK, 40 ms a file (as no real CMS's web server would make it).
    let listener = axum::serve::ListenerExt::tap_io(listener, |stream| {
        let _ = stream.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(ContentError::Io)
}

/// A `locale` the content is not in.
fn unknown_locale() -> Response {
    envelope_error(StatusCode::BAD_REQUEST, "参数 locale 无效")
}

fn envelope_error(status: StatusCode, msg: &str) -> Response {
    (status, Json(json!({ "code": status.as_u16(), "msg": msg }))).into_response()
}

fn ok(result: Value) -> Response {
    Json(json!({ "code": 200, "msg": "success", "result": result })).into_response()
}

/// Refuses a wrong credential the dialect's way, and stands in for a slow CMS when asked to.
async fn require_credential(
    State((state, refused)): State<(AppState, fn() -> Response)>,
    request: Request,
    next: Next,
) -> Response {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let allowed = presented == state.basic
        || presented
            .strip_prefix("Bearer ")
            .is_some_and(|token| state.tokens.contains(token));
    if !allowed {
        return refused();
    }
    if !state.delay.is_zero() {
        tokio::time::sleep(state.delay).await;
    }
    next.run(request).await
}

async fn category_list(State(state): State<AppState>, locale: Locale) -> Response {
    let Some(cms) = state.content_in(&locale) else {
        return unknown_locale();
    };
    ok(json!({ "content": cms.tree() }))
}

#[derive(Deserialize)]
struct IdQuery {
    id: Option<String>,
}

pub(crate) fn parse_id(raw: Option<&str>) -> Option<u64> {
    raw?.trim().parse().ok()
}

async fn parent_category(
    State(state): State<AppState>,
    locale: Locale,
    Query(q): Query<IdQuery>,
) -> Response {
    let Some(cms) = state.content_in(&locale) else {
        return unknown_locale();
    };
    let Some(id) = parse_id(q.id.as_deref()) else {
        return envelope_error(StatusCode::BAD_REQUEST, "参数 id 无效");
    };
    match cms.category(id) {
        None => envelope_error(StatusCode::NOT_FOUND, "栏目不存在"),
        Some(c) => ok(cms
            .category(c.parent_id)
            .map(|p| p.summary())
            .unwrap_or(Value::Null)),
    }
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(rename = "categoryId")]
    category_id: Option<String>,
    page: Option<String>,
    size: Option<String>,
    keyword: Option<String>,
}

async fn article_list(
    State(state): State<AppState>,
    locale: Locale,
    Query(q): Query<ListQuery>,
) -> Response {
    let Some(cms) = state.content_in(&locale) else {
        return unknown_locale();
    };
    let category = match q.category_id.as_deref() {
        None => None,
        Some(raw) => match parse_id(Some(raw)) {
            Some(id) => Some(id),
            None => return envelope_error(StatusCode::BAD_REQUEST, "参数 categoryId 无效"),
        },
    };
    let page: usize = q.page.as_deref().and_then(|p| p.parse().ok()).unwrap_or(0);
    let size: usize = q
        .size
        .as_deref()
        .and_then(|s| s.parse().ok())
        .filter(|s| (1..=200).contains(s))
        .unwrap_or(10);
    let (total, articles) = cms.page_matching(
        category,
        q.keyword.as_deref(),
        page.saturating_mul(size),
        size,
    );
    let content: Vec<Value> = articles.into_iter().map(|a| a.summary()).collect();
    ok(json!({
        "content": content,
        "totalElements": total,
        "totalPages": total.div_ceil(size),
        "number": page,
        "size": size,
        "numberOfElements": content.len(),
        "first": page == 0,
        "last": (page + 1) * size >= total,
    }))
}

async fn article_detail(
    State(state): State<AppState>,
    locale: Locale,
    Query(q): Query<IdQuery>,
    _headers: HeaderMap,
) -> Response {
    let Some(cms) = state.content_in(&locale) else {
        return unknown_locale();
    };
    let Some(id) = parse_id(q.id.as_deref()) else {
        return envelope_error(StatusCode::BAD_REQUEST, "参数 id 无效");
    };
    match cms.detail(id) {
        Some(detail) => ok(detail),
        None => envelope_error(StatusCode::NOT_FOUND, "文章不存在"),
    }
}
