//! `/portal/api`: one handler per endpoint of the table (`endpoint.rs`), each validating its
//! query, answering from the cache or calling the CMS through `upstream`, and normalising into
//! the envelope. Handlers never build upstream URLs or credentials themselves.

pub mod content;
mod files;
pub mod query;

use std::{
    future::Future,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use axum::{
    Router,
    extract::{FromRequestParts, State},
    http::{HeaderValue, StatusCode, header, request::Parts},
    response::{IntoResponse, Response},
    routing::{MethodRouter, any, get},
};
use serde::Serialize;
use serde_json::Value;

use crate::{
    cache::{Entry, Outcome, Policy, Timing, Wants, X_CACHE, respond, tags},
    dialect::{CategorySource, CmsCall, Dialect},
    endpoint::{CacheKey, Endpoint},
    envelope::{ApiError, success_bytes},
    observe::REQUEST_ID,
    state::{AppState, Runtime},
    upstream::{Credential, UpstreamError},
};
use query::{ListQuery, RawQuery};

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
const OPENAPI: &str = include_str!("../../../docs/openapi.json");

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

pub async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// What an API answer depends on in the request, copied out of it rather than cloning its
/// header map (this runs on every cache hit).
pub struct RequestInfo {
    /// The visitor's own well-formed `Bearer` token, if any: passed to the CMS, never cached.
    bearer: Option<HeaderValue>,
    request_id: Option<HeaderValue>,
    wants: Wants,
}

impl<S: Send + Sync> FromRequestParts<S> for RequestInfo {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        // One pass over the few headers a request has, rather than four hashed look-ups: this
        // runs on every cache hit. The first value of a repeated header counts, as with `get`.
        let (mut authorization, mut request_id) = (None, None);
        let (mut accept_encoding, mut if_none_match) = (None, None);
        for (name, value) in &parts.headers {
            let slot = if name == header::AUTHORIZATION {
                &mut authorization
            } else if name == REQUEST_ID {
                &mut request_id
            } else if name == header::ACCEPT_ENCODING {
                &mut accept_encoding
            } else if name == header::IF_NONE_MATCH {
                &mut if_none_match
            } else {
                continue;
            };
            slot.get_or_insert(value);
        }
        Ok(Self {
            bearer: authorization.filter(|v| is_bearer_token(v)).cloned(),
            request_id: request_id.cloned(),
            wants: Wants {
                accept_encoding: accept_encoding.cloned(),
                if_none_match: if_none_match.cloned(),
            },
        })
    }
}

/// Who an answer is for: a visitor's request, or a refresh the gateway makes itself (after a
/// webhook's purge), which loads the key again whatever the cache holds.
pub enum Mode {
    Serve(RequestInfo),
    Refresh,
}

impl<S: Send + Sync> FromRequestParts<S> for Mode {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self::Serve(
            RequestInfo::from_request_parts(parts, state).await?,
        ))
    }
}

/// The `result` of an API answer as a browser would get it (from the cache, loaded on a miss): the
/// crawlable pages, the sitemap and the feeds show the same data. A "not found" is
/// `ApiError::NotFound`.
pub async fn result_of(
    state: &AppState,
    endpoint: Endpoint,
    query: &str,
) -> Result<Value, ApiError> {
    let mode = Mode::Serve(RequestInfo {
        bearer: None,
        request_id: None,
        wants: Wants::default(),
    });
    let query = RawQuery::parse(query);
    let state = State(state.clone());
    let response = match endpoint {
        Endpoint::CategoryList => category_list(state, mode).await,
        Endpoint::ParentCategory => parent_category(state, mode, query).await?,
        Endpoint::ArticleList => article_list(state, mode, query).await?,
        Endpoint::ArticleDetail => article_detail(state, mode, query).await?,
        Endpoint::ArticleSearch => article_search(state, mode, query).await?,
        Endpoint::Site | Endpoint::Files | Endpoint::OpenApi => {
            return Err(ApiError::Internal("not a content endpoint"));
        }
    };
    if let Some(err) = response.extensions().get::<ApiError>() {
        return Err(err.clone());
    }
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 32 << 20)
        .await
        .map_err(|_| ApiError::Internal("reading a cached answer"))?;
    let mut envelope: Value = serde_json::from_slice(&body)
        .map_err(|_| ApiError::Internal("a cached answer is not JSON"))?;
    if status == StatusCode::NOT_FOUND {
        let msg = envelope["msg"]
            .as_str()
            .unwrap_or("内容不存在。")
            .to_owned();
        return Err(ApiError::NotFound(msg));
    }
    Ok(envelope["result"].take())
}

/// Loads a cache key again now, as its endpoint's handler would (a webhook's refresh). `key` is
/// a `CacheKey`'s text; a key of no cached endpoint, or one whose load fails, is an error.
pub async fn refresh(state: &AppState, key: &str) -> Result<(), ApiError> {
    let (name, query) = key.split_once('?').unwrap_or((key, ""));
    let endpoint = Endpoint::of_cache_name(name)
        .ok_or_else(|| ApiError::NotFound(format!("{name} 不是缓存的接口。")))?;
    let query = RawQuery::of_key(query);
    let state = State(state.clone());
    let response = match endpoint {
        Endpoint::CategoryList => category_list(state, Mode::Refresh).await,
        Endpoint::ParentCategory => parent_category(state, Mode::Refresh, query).await?,
        Endpoint::ArticleList => article_list(state, Mode::Refresh, query).await?,
        Endpoint::ArticleDetail => article_detail(state, Mode::Refresh, query).await?,
        Endpoint::ArticleSearch => article_search(state, Mode::Refresh, query).await?,
        Endpoint::Site | Endpoint::Files | Endpoint::OpenApi => return Ok(()),
    };
    match response.extensions().get::<ApiError>() {
        Some(err) if !err.is_not_found() => Err(err.clone()),
        _ => Ok(()),
    }
}

impl RequestInfo {
    /// What the browser takes: the encodings and the version it holds.
    pub fn into_wants(self) -> Wants {
        self.wants
    }
}

/// Longest visitor token passed on; anything longer is not a token this CMS issued.
const MAX_TOKEN_LEN: usize = 4096;

/// Whether an `Authorization` value is a well-formed `Bearer` token (the visitor's own system
/// token, passed to the CMS).
fn is_bearer_token(value: &HeaderValue) -> bool {
    let Some((scheme, token)) = value.to_str().ok().and_then(|v| v.split_once(' ')) else {
        return false;
    };
    let token68 = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
    scheme.eq_ignore_ascii_case("bearer")
        && !token.is_empty()
        && token.len() <= MAX_TOKEN_LEN
        && token.chars().all(token68)
}

/// One request's way to the CMS: whose credential, which request id, which runtime.
#[derive(Clone)]
struct Call {
    runtime: Arc<Runtime>,
    bearer: Option<HeaderValue>,
    request_id: Option<HeaderValue>,
    /// Set when a CMS call of this load answered nothing (an empty body or a null payload):
    /// the answer is passed on but not cached. `None` until a load needs it (a hit builds a
    /// `Call` too, and must not pay an allocation for it).
    empty: Option<Arc<AtomicBool>>,
}

impl Call {
    /// The visitor's token when they sent one, else the gateway's own credential.
    fn credential(&self) -> Credential<'_> {
        match &self.bearer {
            Some(token) => Credential::Bearer(token),
            None => Credential::Client,
        }
    }

    async fn get(&self, call: CmsCall) -> Result<Value, ApiError> {
        let payload = self
            .runtime
            .upstream
            .get_json(call, self.credential(), self.request_id.as_ref())
            .await?;
        if payload.is_null() {
            self.mark_empty();
        }
        Ok(payload)
    }

    fn mark_empty(&self) {
        if let Some(empty) = &self.empty {
            empty.store(true, Ordering::Relaxed);
        }
    }

    /// A copy for one load, with its own `empty` mark.
    fn fresh(&self) -> Self {
        Self {
            empty: Some(Arc::default()),
            ..self.clone()
        }
    }

    fn dialect(&self) -> &Dialect {
        self.runtime.upstream.dialect()
    }

    /// A page of articles (a list or a search), mapped and with its links finished.
    async fn page(
        &self,
        call: CmsCall,
        list: &ListQuery,
    ) -> Result<content::ArticlePage, ApiError> {
        let payload = self.get(call).await?;
        let page = self
            .dialect()
            .article_page(&payload, list.page, list.size)
            .map_err(UpstreamError::from)?;
        Ok(content::finish_page(page, self.runtime.upstream.links()))
    }

    /// The category tree, in whichever shape the CMS gives it.
    async fn categories(&self) -> Result<content::CategoryList, ApiError> {
        let source = self
            .runtime
            .upstream
            .category_source(self.credential(), self.request_id.as_ref())
            .await?;
        let nothing = match &source {
            CategorySource::List(payload) => payload.is_null(),
            CategorySource::Levels(levels) => levels.iter().all(|(_, items)| items.is_empty()),
        };
        if nothing {
            self.mark_empty();
        }
        Ok(content::CategoryList {
            content: self
                .dialect()
                .category_tree(&source)
                .map_err(UpstreamError::from)?,
        })
    }
}

/// Answers a cacheable endpoint: from the cache for the gateway's own credential, straight from
/// the CMS (`X-Cache: BYPASS`) for a visitor's token or when the cache is off. `tag` names what
/// an answer shows (`None`: the endpoint's "not found"), for purges by tag.
async fn answer<T, F, Fut, G>(
    state: &AppState,
    mode: Mode,
    key: CacheKey,
    tag: G,
    produce: F,
) -> Response
where
    T: Serialize + Send + 'static,
    F: Fn(Call) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T, ApiError>> + Send + 'static,
    G: Fn(Option<&T>) -> Vec<String> + Send + Sync + 'static,
{
    let (bearer, request_id, wants) = match mode {
        Mode::Serve(RequestInfo {
            bearer,
            request_id,
            wants,
        }) => (bearer, request_id, Some(wants)),
        Mode::Refresh => (None, None, None),
    };
    let call = Call {
        runtime: state.runtime(),
        bearer,
        request_id,
        empty: None,
    };
    if call.bearer.is_some() || !call.runtime.config.cache.enabled {
        crate::metrics::cache_outcome(Outcome::Bypass.as_str()).increment(1);
        // Encoded here like a cache entry, so API answers never need the compression layer.
        let mut response = match Box::pin(produce(call)).await {
            Ok(result) => {
                let entry = Entry::new(StatusCode::OK, success_bytes(&result));
                respond(
                    &entry,
                    Outcome::Bypass,
                    &wants.unwrap_or_default(),
                    Timing::default(),
                )
            }
            Err(err) => err.into_response(),
        };
        // Set here too so error answers carry them.
        let out = response.headers_mut();
        out.insert(X_CACHE, HeaderValue::from_static(Outcome::Bypass.as_str()));
        out.insert(
            crate::cache::CACHE_STATUS,
            crate::cache::cache_status(Outcome::Bypass, &Timing::default()),
        );
        out.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
        return response;
    }

    let policy = Policy::new(
        &call.runtime.config.cache,
        &key,
        call.runtime.upstream.timeout(),
    );
    let keep_not_found = !policy.not_found_ttl.is_zero();
    let tag = Arc::new(tag);
    // Only called on a miss or a refresh: a hit costs no upstream call and no serialisation.
    let load = move || {
        let call = call.fresh();
        let empty = call.empty.clone().expect("a fresh call has its mark");
        let produced = produce(call);
        let tag = Arc::clone(&tag);
        async move {
            let entry = match produced.await {
                Ok(result) => {
                    Entry::new(StatusCode::OK, success_bytes(&result)).tagged(tag(Some(&result)))
                }
                Err(err) if keep_not_found && err.is_not_found() => {
                    Entry::new(StatusCode::NOT_FOUND, err.envelope_bytes()).tagged(tag(None))
                }
                Err(err) => return Err(err),
            };
            Ok(Arc::new(if empty.load(Ordering::Relaxed) {
                entry.not_cacheable()
            } else {
                entry
            }))
        }
    };
    let Some(wants) = wants else {
        // A refresh: the answer goes to the cache (and the shared tier), not to a visitor.
        return match state.cache.refresh(key.as_str(), &policy, load).await {
            Ok(entry) => entry.status.into_response(),
            Err(err) => err.into_response(),
        };
    };
    let lookup = state.cache.get_or_load(key.as_str(), &policy, load).await;
    crate::metrics::cache_outcome(lookup.outcome.as_str()).increment(1);
    match lookup.result {
        Ok(entry) => respond(&entry, lookup.outcome, &wants, lookup.timing),
        Err(err) => {
            let mut response = err.into_response();
            response
                .headers_mut()
                .insert(X_CACHE, HeaderValue::from_static(lookup.outcome.as_str()));
            response.headers_mut().insert(
                crate::cache::CACHE_STATUS,
                crate::cache::cache_status(lookup.outcome, &lookup.timing),
            );
            response
        }
    }
}

async fn category_list(State(state): State<AppState>, mode: Mode) -> Response {
    let key = CacheKey::new(Endpoint::CategoryList, &[]);
    let tag = |_: Option<&content::CategoryList>| vec![tags::CATEGORIES.to_owned()];
    answer(&state, mode, key, tag, |call| async move {
        call.categories().await
    })
    .await
}

/// Answered from the category tree rather than the CMS's own endpoint, which the replaced
/// portal found broken and many CMSs lack.
async fn parent_category(
    State(state): State<AppState>,
    mode: Mode,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let id = query.only(Endpoint::ParentCategory).required_id("id")?;
    let key = CacheKey::new(Endpoint::ParentCategory, &[Some(id)]);
    let tag = |_: Option<&Option<content::Category>>| vec![tags::CATEGORIES.to_owned()];
    Ok(answer(&state, mode, key, tag, move |call| async move {
        let tree = call.categories().await?;
        content::parent_of(&tree.content, id)
            .ok_or_else(|| ApiError::NotFound(format!("栏目 {id} 不存在。")))
    })
    .await)
}

async fn article_list(
    State(state): State<AppState>,
    mode: Mode,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let max_size = state.runtime().upstream.dialect().max_page_size();
    let list = ListQuery::parse(&query.only(Endpoint::ArticleList), max_size)?;
    // Defaults filled and a fixed order: the same list is always the same key.
    let key = CacheKey::new(
        Endpoint::ArticleList,
        &[
            list.category_id,
            Some(u64::from(list.page)),
            Some(u64::from(list.size)),
        ],
    );
    let category = list.category_id;
    // The list's own category (or every category), and each article on it.
    let tag = move |page: Option<&content::ArticlePage>| {
        let mut tags = vec![category.map_or_else(|| tags::ALL_ARTICLES.to_owned(), tags::category)];
        if let Some(page) = page {
            tags.extend(page.content.iter().map(|a| tags::article(a.id)));
        }
        tags
    };
    Ok(answer(&state, mode, key, tag, move |call| {
        let list = list.clone();
        async move {
            call.page(
                CmsCall::Articles {
                    category: list.category_id,
                    page: list.page,
                    size: list.size,
                },
                &list,
            )
            .await
        }
    })
    .await)
}

async fn article_detail(
    State(state): State<AppState>,
    mode: Mode,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let id = query.only(Endpoint::ArticleDetail).required_id("id")?;
    let key = CacheKey::new(Endpoint::ArticleDetail, &[Some(id)]);
    // The article (a "not found" included: publishing it must reach that too) and its
    // neighbours, whose titles its previous/next links show.
    let tag = move |article: Option<&content::Article>| {
        let mut tags = vec![tags::article(id)];
        if let Some(article) = article {
            tags.extend(content::neighbour_ids(article).map(tags::article));
        }
        tags
    };
    Ok(answer(&state, mode, key, tag, move |call| async move {
        let payload = call.get(CmsCall::Article { id }).await?;
        if payload.is_null() {
            return Err(ApiError::NotFound(format!("文章 {id} 不存在。")));
        }
        let article = call
            .dialect()
            .article(&payload, "payload")
            .map_err(UpstreamError::from)?;
        Ok(content::finish_article(
            article,
            call.runtime.upstream.links(),
        ))
    })
    .await)
}

/// Articles matching a keyword, through the CMS's own search (`dialect.endpoints.article_search`);
/// 404 when the CMS has none (`/site` says `search: false` and the app shows no search box).
async fn article_search(
    State(state): State<AppState>,
    mode: Mode,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let runtime = state.runtime();
    if !runtime.upstream.dialect().has_search() {
        return Err(ApiError::NotFound("站内搜索未启用。".to_owned()));
    }
    let query = query.only(Endpoint::ArticleSearch);
    let keyword = query.keyword("keyword")?;
    let list = ListQuery::parse(&query, runtime.upstream.dialect().max_page_size())?;
    let key = CacheKey::search(&keyword, list.page, list.size);
    let keyword: Arc<str> = keyword.into();
    // Any article may start to match: every article event purges searches.
    let tag = |page: Option<&content::ArticlePage>| {
        let mut tags = vec![tags::ALL_ARTICLES.to_owned()];
        if let Some(page) = page {
            tags.extend(page.content.iter().map(|a| tags::article(a.id)));
        }
        tags
    };
    Ok(answer(&state, mode, key, tag, move |call| {
        let (keyword, list) = (Arc::clone(&keyword), list.clone());
        async move {
            let search = CmsCall::Search {
                keyword,
                page: list.page,
                size: list.size,
            };
            call.page(search, &list).await
        }
    })
    .await)
}

async fn site(State(state): State<AppState>, info: RequestInfo) -> Response {
    // Revalidated on every use (its ETag makes that a 304): a reload changes it at once.
    respond(
        &state.runtime().site,
        Outcome::Hit,
        &info.wants,
        Timing::default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(headers: &[(&str, &str)]) -> RequestInfo {
        let mut request = axum::http::Request::builder();
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        let info = RequestInfo::from_request_parts(&mut parts, &());
        futures_util::FutureExt::now_or_never(info)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn only_well_formed_bearer_tokens_pass_through() {
        let bearer = |value: &str| info(&[("authorization", value)]).bearer;
        assert!(info(&[]).bearer.is_none());
        assert_eq!(bearer("Bearer abc.DEF-123").unwrap(), "Bearer abc.DEF-123");
        assert!(bearer("bearer abc").is_some());
        assert!(bearer("Basic dXNlcjpwYXNz").is_none());
        assert!(bearer("Bearer ").is_none());
        assert!(bearer("Bearer a b").is_none());
        let long = format!("Bearer {}", "a".repeat(MAX_TOKEN_LEN + 1));
        assert!(bearer(&long).is_none());
    }

    #[test]
    fn request_info_reads_the_first_value_of_each_header_it_needs() {
        let got = info(&[
            ("host", "example.test"),
            ("if-none-match", "\"a\""),
            ("x-request-id", "first"),
            ("accept-encoding", "gzip, br"),
            ("x-request-id", "second"),
            ("authorization", "Bearer t0ken"),
            ("if-none-match", "\"b\""),
        ]);
        assert_eq!(got.request_id.unwrap(), "first");
        assert_eq!(got.bearer.unwrap(), "Bearer t0ken");
        assert_eq!(got.wants.accept_encoding.unwrap(), "gzip, br");
        assert_eq!(got.wants.if_none_match.unwrap(), "\"a\"");
        let none = info(&[("accept", "application/json")]);
        assert!(none.request_id.is_none() && none.bearer.is_none());
        assert!(none.wants.accept_encoding.is_none() && none.wants.if_none_match.is_none());
    }
}
