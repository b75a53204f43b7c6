//! `/portal/api`, the JSON face: one handler per endpoint of the table (`endpoint.rs`), each
//! validating its query and asking the content service (`content`), whose entries carry the
//! envelope ready to send. Handlers never call the CMS adapter, build upstream URLs or hold a
//! credential.

mod files;

use std::time::Duration;

use axum::{
    Router,
    extract::State,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{MethodRouter, any, get},
};

use crate::state::{AppState, Language, Runtime};
use portal_cache::{CACHE_STATUS, Entry, Outcome, Timing, X_CACHE, cache_status, respond};
use portal_content::{Caller, ContentService, Query};
use portal_content::{
    envelope::ApiError,
    request::{RequestInfo, query::RawQuery},
};
use portal_core::endpoint::Endpoint;

/// The API's routes on their full paths, one per endpoint of the table (merged, not nested:
/// nesting rewrites every request's URI on the way in).
pub fn router() -> Router<AppState> {
    let router = Endpoint::ALL
        .into_iter()
        .fold(Router::new(), |router, endpoint| {
            router.route(endpoint.route(), handler(endpoint))
        });
    // Unknown API paths answer in the envelope instead of falling through to the app.
    router
        .route("/portal/api", any(not_found))
        .route("/portal/api/", any(not_found))
        .route("/portal/api/{*rest}", any(not_found))
}

/// The handler of each endpoint; the match is what makes a new endpoint need one.
fn handler(endpoint: Endpoint) -> MethodRouter<AppState> {
    match endpoint {
        Endpoint::CategoryList => get(category_list),
        Endpoint::ParentCategory => get(parent_category),
        Endpoint::ArticleList => get(article_list),
        Endpoint::ArticleDetail => get(article_detail),
        Endpoint::ArticleSearch => get(article_search),
        // Encoded once (per config, per binary), answered like a cache hit.
        Endpoint::Site => get(site),
        Endpoint::Files => get(files::file),
        Endpoint::OpenApi => get(openapi),
    }
}

/// The public API's OpenAPI document (`docs/openapi.json`), built into the binary.
const OPENAPI: &str = include_str!("../../../../docs/openapi.json");

async fn openapi(info: RequestInfo) -> Response {
    static ENTRY: std::sync::OnceLock<Entry> = std::sync::OnceLock::new();
    let entry = ENTRY.get_or_init(|| {
        Entry::new(
            axum::http::StatusCode::OK,
            bytes::Bytes::from_static(OPENAPI.as_bytes()),
        )
    });
    respond(
        entry,
        Outcome::Hit,
        &info.wants,
        Timing::fresh(Duration::from_secs(300)),
    )
}

/// The answer for an unknown path under an API prefix (the admin routes use it too).
pub async fn not_found() -> ApiError {
    ApiError::NotFound("请求的接口不存在。".to_owned())
}

/// The answer for a method a path does not take: the operator's purge and the CMS's webhook take
/// POST, everything else GET and HEAD.
pub async fn method_not_allowed(uri: axum::http::Uri) -> ApiError {
    let path = uri.path();
    let posted = [
        portal_content::limits::ADMIN_PREFIX.to_owned() + "/cache/purge",
        portal_content::limits::ADMIN_PREFIX.to_owned() + "/webhook",
    ];
    ApiError::MethodNotAllowed {
        allow: if posted.iter().any(|p| p == path) {
            "POST"
        } else {
            "GET, HEAD"
        },
    }
}

/// Answers a content query through the content service: the cached (or just loaded) entry's
/// bytes, with `X-Cache`/`Cache-Status` on errors too, and `private, no-store` on answers made
/// for a visitor's own token or with the cache off.
async fn answer(content: &ContentService<'_>, info: RequestInfo, query: Query) -> Response {
    let RequestInfo {
        bearer,
        request_id,
        wants,
    } = info;
    let lookup = content.lookup(query, Caller { bearer, request_id }).await;
    let mut response = match lookup.result {
        Ok(entry) => {
            return private_if_bypassed(
                respond(&entry, lookup.outcome, &wants, lookup.timing),
                lookup.outcome,
            );
        }
        Err(err) => err.into_response(),
    };
    let out = response.headers_mut();
    out.insert(X_CACHE, HeaderValue::from_static(lookup.outcome.as_str()));
    out.insert(CACHE_STATUS, cache_status(lookup.outcome, &lookup.timing));
    private_if_bypassed(response, lookup.outcome)
}

/// An answer nobody may keep when it was made for one visitor (or with the cache off).
fn private_if_bypassed(mut response: Response, outcome: Outcome) -> Response {
    if outcome == Outcome::Bypass {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
    }
    response
}

async fn category_list(
    State(state): State<AppState>,
    info: RequestInfo,
    query: RawQuery,
) -> Result<Response, ApiError> {
    content_answer(&state, info, Endpoint::CategoryList, query).await
}

async fn parent_category(
    State(state): State<AppState>,
    info: RequestInfo,
    query: RawQuery,
) -> Result<Response, ApiError> {
    content_answer(&state, info, Endpoint::ParentCategory, query).await
}

async fn article_list(
    State(state): State<AppState>,
    info: RequestInfo,
    query: RawQuery,
) -> Result<Response, ApiError> {
    content_answer(&state, info, Endpoint::ArticleList, query).await
}

async fn article_detail(
    State(state): State<AppState>,
    info: RequestInfo,
    query: RawQuery,
) -> Result<Response, ApiError> {
    content_answer(&state, info, Endpoint::ArticleDetail, query).await
}

async fn article_search(
    State(state): State<AppState>,
    info: RequestInfo,
    query: RawQuery,
) -> Result<Response, ApiError> {
    // A search not in the cache holds a turn of the index, or a CMS call, until answered: the
    // client has a share of those at once (`limits/shares.rs`), a cached one holds it a moment.
    let _share = portal_content::limits::take_share(portal_content::limits::Work::Search)?;
    content_answer(&state, info, Endpoint::ArticleSearch, query).await
}

async fn content_answer(
    state: &AppState,
    info: RequestInfo,
    endpoint: Endpoint,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let runtime = state.runtime();
    let lang = language(&runtime, &query)?;
    let content = state.content_in(&runtime, lang);
    let query = content_query(&content, endpoint, query)?;
    Ok(answer(&content, info, query).await)
}

/// The language `query` asks for (`lang=en`): `None` for the site's own (absent, or `zh`), one
/// of `[languages]`, else a 400 that names those there are.
pub fn language<'r>(
    runtime: &'r Runtime,
    query: &RawQuery,
) -> Result<Option<&'r Language>, ApiError> {
    let Some(code) = query.language()? else {
        return Ok(None);
    };
    runtime.language(code).map(Some).ok_or_else(|| {
        let mut known = vec![portal_core::model::site::SITE_LANGUAGE];
        known.extend(runtime.languages.iter().map(|l| &*l.code));
        ApiError::bad_query(
            portal_core::endpoint::LANGUAGE_PARAM,
            format!("参数 lang 只能是 {}。", known.join("、")),
        )
    })
}

/// The content query an API request asks, its parameters checked (`Query::of_request`), for the
/// handlers and for the pages the gateway renders (`pages`), which ask the API's URLs the app
/// asks. A search is "not found" when neither the CMS nor the gateway's index searches (`/site`
/// says `search: false` and the app shows no search box).
pub fn content_query(
    content: &ContentService<'_>,
    endpoint: Endpoint,
    query: RawQuery,
) -> Result<Query, ApiError> {
    if endpoint == Endpoint::ArticleSearch && !content.searches() {
        return Err(ApiError::NotFound("站内搜索未启用。".to_owned()));
    }
    Query::of_request(endpoint, query, content.max_page_size())
}

async fn site(
    State(state): State<AppState>,
    info: RequestInfo,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let runtime = state.runtime();
    let lang = language(&runtime, &query)?;
    // Revalidated on every use (its ETag makes that a 304): a reload changes it at once.
    Ok(respond(
        runtime.site_in(lang),
        Outcome::Hit,
        &info.wants,
        Timing::default(),
    ))
}
