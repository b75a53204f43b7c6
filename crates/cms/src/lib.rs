//! The CMS adapter, the only code that talks to the CMS: one pooled reqwest client, the
//! credential, the limits every call passes — a ceiling on calls a second and a cap on calls in
//! flight — with the CMS latency histogram, and the dialect (`dialect/`) that says what to ask and
//! how to read the answer. Its content calls return the portal's model (`portal_core::model`), finished
//! (`finish.rs`: file links through the gateway, HTML sanitised), and `UpstreamError`: never the
//! browser's envelope or JSON. Lists, details, files, the readiness probe and `check-upstream`
//! all go through here.

mod body_refs;
pub mod bounded_json;
pub mod dialect;
mod error;
mod finish;
mod health;
mod link_patterns;
pub(crate) mod links;
mod settings;

use std::{
    num::NonZeroU32,
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    body::Body,
    http::{HeaderMap, HeaderValue, StatusCode, header},
};
use base64::Engine;
use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt, stream};
use governor::{Quota, RateLimiter, clock::Clock};
use secrecy::ExposeSecret;
use serde_json::Value;
use tokio::sync::{Semaphore, SemaphorePermit};
use url::Url;

use dialect::{CategoryShape, CategorySource, CmsCall, Dialect, MAX_CATEGORIES};
pub use error::UpstreamError;
pub use finish::{finish_article, sanitize};
pub use health::{UpstreamHealth, UpstreamState};
pub use links::{FILES_ROUTE, FileLinks, StrayPage};
use portal_core::{
    endpoint::Endpoint,
    model::{Article, ArticlePage, CategoryTree, Id},
    traces::ChildSpan,
};
pub use settings::{AuthStyle, UpstreamConfig};

/// Most children calls made at once while asking for a category tree level by level.
const CHILDREN_AT_ONCE: usize = 8;

/// Upper bound on one upstream body; a larger one is refused as a bad answer.
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// A content call's value, and whether the CMS answered nothing at all (an empty body or a null
/// payload): such a value is passed on to whoever asked but never cached, nor put in place of a
/// good one (a CMS mid-deploy often answers so).
#[derive(Debug)]
pub struct Fetched<T> {
    pub value: T,
    pub empty: bool,
}

/// The gateway's own credential, made once per config: a header (Basic, Bearer or a named
/// one, marked sensitive so it is never logged) or a query parameter.
#[derive(Clone)]
enum Auth {
    Header(header::HeaderName, HeaderValue),
    Query(String, secrecy::SecretString),
}

impl Auth {
    fn of(config: &UpstreamConfig) -> Self {
        let secret = config.secret().expose_secret();
        let sensitive = |text: &str| {
            let mut value =
                HeaderValue::from_str(text).expect("validated secrets are valid header values");
            value.set_sensitive(true);
            value
        };
        match config.auth {
            AuthStyle::Basic => {
                let token = base64::engine::general_purpose::STANDARD
                    .encode(format!("{}:{secret}", config.client_id));
                Self::Header(header::AUTHORIZATION, sensitive(&format!("Basic {token}")))
            }
            AuthStyle::Bearer => Self::Header(
                header::AUTHORIZATION,
                sensitive(&format!("Bearer {secret}")),
            ),
            AuthStyle::Header => Self::Header(
                header::HeaderName::from_bytes(config.auth_name.as_bytes())
                    .expect("validated header names parse"),
                sensitive(secret),
            ),
            AuthStyle::Query => Self::Query(config.auth_name.clone(), secret.into()),
        }
    }
}

/// Who the call is made as.
#[derive(Debug, Clone, Copy)]
pub enum Credential<'a> {
    /// The gateway's own client credential (HTTP Basic).
    Client,
    /// A visitor's system token, passed through instead of the client credential.
    Bearer(&'a HeaderValue),
}

/// The upstream client could not be built (a TLS backend that failed to start).
#[derive(Debug, thiserror::Error)]
#[error("cannot build the upstream client: {0}")]
pub struct ClientError(#[from] reqwest::Error);

pub struct Upstream {
    http: reqwest::Client,
    base: Url,
    /// Shared with the work done on a large answer off the async workers (`off_workers`).
    dialect: Arc<Dialect>,
    /// The gateway's own credential, as the config's `upstream.auth` says to send it.
    auth: Auth,
    timeout: Duration,
    links: Arc<FileLinks>,
    /// Calls a second to the CMS, all visitors together (and every language: `in_language`
    /// shares it).
    ceiling: Arc<governor::DefaultDirectRateLimiter>,
    /// Calls waiting for the CMS's answer (for files: until its headers arrive).
    in_flight: Arc<Semaphore>,
    /// Parameters every call of this language adds (`[languages.en] query`: Strapi's
    /// `locale=en`, Polylang's `lang=en`); none for the site's own language.
    language_query: Arc<[(String, String)]>,
    /// The size of `in_flight`.
    concurrency: usize,
    /// What the calls say of the CMS; shared across reloads.
    health: Arc<UpstreamHealth>,
    /// The last probe's answer and when (`probe`).
    probed: tokio::sync::Mutex<Option<(std::time::Instant, Result<(), UpstreamError>)>>,
    /// What `http` was built with (a reload with the same keeps it: `new_sharing`).
    client_settings: ClientSettings,
}

/// The settings of `[upstream]` the HTTP client is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ClientSettings {
    timeout: Duration,
    connect_timeout: Duration,
    pool_max_idle_per_host: usize,
    pool_idle_timeout: Duration,
}

impl ClientSettings {
    fn of(config: &UpstreamConfig) -> Self {
        Self {
            timeout: config.timeout,
            connect_timeout: config.connect_timeout,
            pool_max_idle_per_host: config.pool_max_idle_per_host,
            pool_idle_timeout: config.pool_idle_timeout,
        }
    }
}

/// A file fetched from the CMS's file store, its body streamed on to the visitor.
pub struct UpstreamFile {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Body,
}

/// What the CMS may be asked, all visitors together (`limits.upstream_*`): calls a second, the
/// burst above that, and calls in flight at once.
#[derive(Debug, Clone, Copy)]
pub struct Ceiling {
    pub per_second: u32,
    pub burst: u32,
    pub concurrency: usize,
}

/// A CMS answer as it came, before the dialect reads it.
#[derive(Debug, Clone)]
pub struct RawAnswer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub content_type: Option<String>,
    pub body: Bytes,
}

impl Upstream {
    pub fn new(
        config: &UpstreamConfig,
        limits: Ceiling,
        dialect: Dialect,
        health: Arc<UpstreamHealth>,
    ) -> Result<Self, ClientError> {
        Self::new_sharing(config, limits, dialect, health, None)
    }

    /// `new`, keeping `previous`'s HTTP client (and its warm connections to the CMS) when it was
    /// built with these settings: a reload that leaves them as they were opens no new connections
    /// and builds no TLS configuration. The ceiling and the calls in flight are new, as ever.
    pub fn new_sharing(
        config: &UpstreamConfig,
        limits: Ceiling,
        dialect: Dialect,
        health: Arc<UpstreamHealth>,
        previous: Option<&Upstream>,
    ) -> Result<Self, ClientError> {
        let client_settings = ClientSettings::of(config);
        let http = match previous {
            Some(previous) if previous.client_settings == client_settings => previous.http.clone(),
            // `timeout` bounds a whole API call (per request, in `call_json`); for a file it
            // bounds the wait for its headers and each pause in its body, never the whole
            // download, which a video on a slow phone may take minutes over (the soak found it
            // cut at 12 s).
            _ => {
                portal_core::tls::install();
                reqwest::Client::builder()
                    .read_timeout(config.timeout)
                    .connect_timeout(config.connect_timeout)
                    .pool_max_idle_per_host(config.pool_max_idle_per_host)
                    .pool_idle_timeout(config.pool_idle_timeout)
                    .tcp_nodelay(true)
                    // A redirect would carry the credential somewhere nobody configured.
                    .redirect(reqwest::redirect::Policy::none())
                    .user_agent(concat!("portal-gateway/", env!("CARGO_PKG_VERSION")))
                    .build()?
            }
        };
        let mut base = config.base_url.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        let auth = Auth::of(config);
        let rate = NonZeroU32::new(limits.per_second).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(limits.burst).unwrap_or(rate);
        Ok(Self {
            http,
            links: Arc::new(
                FileLinks::new(&base, &dialect.files)
                    .with_article_pages(dialect.article_links.clone())
                    .with_image_file(dialect.image_file.clone())
                    .with_files_query(dialect.files_query().to_vec())
                    .with_files_match(dialect.files_match().to_vec()),
            ),
            base,
            dialect: Arc::new(dialect),
            auth,
            timeout: config.timeout,
            ceiling: Arc::new(RateLimiter::direct(
                Quota::per_second(rate).allow_burst(burst),
            )),
            in_flight: Arc::new(Semaphore::new(limits.concurrency)),
            language_query: Arc::new([]),
            concurrency: limits.concurrency,
            health,
            probed: tokio::sync::Mutex::new(None),
            client_settings,
        })
    }

    /// This CMS in another language: `dialect` (the site's, with the language's own settings
    /// over it) and `query` added to every call. The same client, credential, ceiling and
    /// calls in flight: a language is more of the same CMS's calls, not a second share of it.
    pub fn in_language(&self, dialect: Dialect, query: Vec<(String, String)>) -> Self {
        Self {
            http: self.http.clone(),
            links: Arc::new(
                FileLinks::new(&self.base, &dialect.files)
                    .with_article_pages(dialect.article_links.clone())
                    .with_image_file(dialect.image_file.clone())
                    .with_files_query(dialect.files_query().to_vec())
                    .with_files_match(dialect.files_match().to_vec()),
            ),
            base: self.base.clone(),
            dialect: Arc::new(dialect),
            auth: self.auth.clone(),
            timeout: self.timeout,
            ceiling: Arc::clone(&self.ceiling),
            in_flight: Arc::clone(&self.in_flight),
            language_query: query.into(),
            concurrency: self.concurrency,
            health: Arc::clone(&self.health),
            probed: tokio::sync::Mutex::new(None),
            client_settings: self.client_settings,
        }
    }

    /// How CMS file references become gateway paths.
    pub fn links(&self) -> &FileLinks {
        &self.links
    }

    /// One call may go out now: a place among the calls in flight, then a token of the
    /// ceiling (taken second, so a call refused for lack of a place spends no token).
    fn admit(&self) -> Result<SemaphorePermit<'_>, UpstreamError> {
        let permit = self
            .in_flight
            .try_acquire()
            .map_err(|_| UpstreamError::Busy)?;
        self.ceiling
            .check()
            .map_err(|not_until| UpstreamError::Ceiling {
                retry_after: not_until
                    .wait_time_from(governor::clock::DefaultClock::default().now()),
            })?;
        Ok(permit)
    }

    /// What the calls have said of the CMS.
    pub fn health(&self) -> &UpstreamHealth {
        &self.health
    }

    /// How the CMS speaks.
    pub fn dialect(&self) -> &Dialect {
        &self.dialect
    }

    /// The path of `upstream.base_url`, with its trailing slash (`/prod-api/`).
    pub fn base_path(&self) -> String {
        self.base.path().to_owned()
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    fn url(&self, path: &str) -> Url {
        self.base
            .join(path.trim_start_matches('/'))
            .expect("configured paths are validated relative paths")
    }

    /// Adds who the call is made as: the visitor's own token in place of the gateway's
    /// credential, or the gateway's credential in its configured place.
    fn authenticate(
        &self,
        request: reqwest::RequestBuilder,
        credential: Credential<'_>,
    ) -> reqwest::RequestBuilder {
        match (credential, &self.auth) {
            (Credential::Bearer(token), _) => {
                let mut token = token.clone();
                token.set_sensitive(true);
                request.header(header::AUTHORIZATION, token)
            }
            (Credential::Client, Auth::Header(name, value)) => {
                request.header(name.clone(), value.clone())
            }
            (Credential::Client, Auth::Query(name, secret)) => {
                request.query(&[(name.as_str(), secret.expose_secret())])
            }
        }
    }

    /// Makes one CMS call as the dialect says to, and returns its payload (the envelope's
    /// `result`, or the whole body for a CMS without an envelope).
    pub async fn get_json(
        &self,
        call: CmsCall,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<Value, UpstreamError> {
        Ok(self.get_answer(call, credential, request_id).await?.payload)
    }

    /// `get_json`, with the response's headers (a list's totals may be there) and size.
    async fn get_answer(
        &self,
        call: CmsCall,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<Answer, UpstreamError> {
        let endpoint = call.endpoint();
        self.admitted(
            endpoint,
            self.call_json(endpoint, call, credential, request_id),
        )
        .await
    }

    /// Runs one CMS call once `admit` lets it, and times it in
    /// `portal_upstream_duration_seconds{endpoint, outcome}`.
    async fn admitted<T>(
        &self,
        cms: Endpoint,
        call: impl Future<Output = Result<T, UpstreamError>>,
    ) -> Result<T, UpstreamError> {
        let _permit = self.admit()?;
        let started = Instant::now();
        let result = call.await;
        self.health.observe(&result);
        metrics::histogram!(
            "portal_upstream_duration_seconds",
            "endpoint" => cms.metrics_label(),
            "outcome" => if result.is_ok() { "ok" } else { "error" },
        )
        .record(started.elapsed().as_secs_f64());
        result
    }

    async fn call_json(
        &self,
        cms: Endpoint,
        call: CmsCall,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<Answer, UpstreamError> {
        let raw = self.fetch(cms, &call, credential, request_id).await?;
        // A status this endpoint's `not_found` lists (a headless CMS's 403 for an unknown id):
        // no such thing, as a 404 is, whatever the body says.
        if self.dialect.is_not_found(&call, raw.status) {
            return Err(UpstreamError::Status {
                code: 404,
                msg: None,
            });
        }
        let bytes = raw.body.len();
        let own = matches!(credential, Credential::Client);
        let dialect = Arc::clone(&self.dialect);
        let (payload, raw) = off_workers(bytes, move || {
            read_answer(&dialect, &raw, own).map(|payload| (payload, raw))
        })
        .await?;
        Ok(Answer {
            payload,
            headers: raw.headers,
            bytes,
        })
    }

    /// Sends one CMS call and reads its whole answer, before the dialect looks at it.
    async fn fetch(
        &self,
        cms: Endpoint,
        call: &CmsCall,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<RawAnswer, UpstreamError> {
        let wanted = self.dialect.request(call);
        let url = self.url(&wanted.path);
        // With traces on, a span for the call (the URL's path only: the query may hold the
        // credential) and its `traceparent` on the request, so the CMS's spans join the trace.
        let span = ChildSpan::cms_call(&url, cms.metrics_label());
        let request = self
            .http
            .get(url)
            .timeout(self.timeout)
            .query(&wanted.query)
            .query(&*self.language_query)
            .header(header::ACCEPT, "application/json");
        let mut request = self.authenticate(request, credential);
        if let Some(id) = request_id {
            request = request.header("x-request-id", id.clone());
        }
        if let Some(span) = &span {
            request = request.headers(span.propagation_headers());
        }
        let started = Instant::now();
        let response = request.send().await.map_err(|err| {
            let err = UpstreamError::from_reqwest(err);
            if let Some(span) = &span {
                span.failed(err.kind().into());
            }
            err
        })?;
        let status = response.status();
        if let Some(span) = &span {
            span.answered(status);
        }
        let headers = response.headers().clone();
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = read_limited(response).await?;
        tracing::debug!(
            endpoint = cms.metrics_label(),
            %status,
            bytes = body.len(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "upstream answered"
        );
        Ok(RawAnswer {
            status,
            headers,
            content_type,
            body,
        })
    }

    /// One call with the gateway's credential, for `check-upstream`: the answer as it came
    /// beside what the gateway reads in it, so the checker can quote the CMS's own words.
    /// `Err` only when no answer came (or the limits refused the call).
    pub async fn answer(
        &self,
        call: CmsCall,
    ) -> Result<(RawAnswer, Result<Value, UpstreamError>), UpstreamError> {
        let endpoint = call.endpoint();
        self.admitted(endpoint, async {
            let raw = self
                .fetch(endpoint, &call, Credential::Client, None)
                .await?;
            let read = read_answer(&self.dialect, &raw, true);
            Ok((raw, read))
        })
        .await
    }

    /// GETs a file below the CMS's file prefix; each segment is percent-encoded here, and the
    /// caller has already refused empty, dot and dot-dot segments.
    pub async fn get_file(
        &self,
        segments: &[&str],
        query: &[(String, String)],
        forward: &HeaderMap,
    ) -> Result<UpstreamFile, UpstreamError> {
        // The place is held until the headers arrive, not while the body streams to a slow
        // visitor: the cap protects the CMS's capacity to answer, and a long download must not
        // starve the API.
        self.admitted(Endpoint::Files, self.call_file(segments, query, forward))
            .await
    }

    async fn call_file(
        &self,
        segments: &[&str],
        query: &[(String, String)],
        forward: &HeaderMap,
    ) -> Result<UpstreamFile, UpstreamError> {
        let mut url = self.url(&self.dialect.files);
        url.path_segments_mut()
            .expect("http URLs have path segments")
            .pop_if_empty()
            .extend(segments);
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        let span = ChildSpan::cms_call(&url, Endpoint::Files.metrics_label());
        // The bytes as they are: they are streamed on or kept as the file, never decoded here.
        let mut request = self
            .authenticate(self.http.get(url), Credential::Client)
            .header(header::ACCEPT_ENCODING, "identity");
        if let Some(span) = &span {
            request = request.headers(span.propagation_headers());
        }
        for name in [
            header::IF_NONE_MATCH,
            header::IF_MODIFIED_SINCE,
            header::RANGE,
        ] {
            if let Some(value) = forward.get(&name) {
                request = request.header(name, value.clone());
            }
        }
        let response = tokio::time::timeout(self.timeout, request.send())
            .await
            .map_err(|_| UpstreamError::Timeout)
            .and_then(|sent| sent.map_err(UpstreamError::from_reqwest))
            .inspect_err(|err| {
                if let Some(span) = &span {
                    span.failed(err.kind().into());
                }
            })?;
        let status = response.status();
        if let Some(span) = &span {
            span.answered(status);
        }
        if status == StatusCode::UNAUTHORIZED {
            return Err(UpstreamError::CredentialRefused { msg: None });
        }
        // `files_not_found` (a store that forbids what it does not have): no such file.
        let status = if self.dialect.is_file_not_found(status) {
            StatusCode::NOT_FOUND
        } else {
            status
        };
        if status.is_server_error() {
            return Err(UpstreamError::Status {
                code: i64::from(status.as_u16()),
                msg: None,
            });
        }
        Ok(UpstreamFile {
            status,
            headers: response.headers().clone(),
            body: Body::from_stream(response.bytes_stream()),
        })
    }

    /// The CMS's categories as they come: one call, or (shape `children`) one call per
    /// category, level by level from the root, the calls of a level at once, at most
    /// `MAX_CATEGORIES` categories and `categories.max_depth` levels.
    pub async fn category_source(
        &self,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<CategorySource, UpstreamError> {
        Ok(self.category_answers(credential, request_id).await?.0)
    }

    /// `category_source`, with the bytes its answers came in.
    async fn category_answers(
        &self,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<(CategorySource, usize), UpstreamError> {
        if self.dialect.category_shape() != CategoryShape::Children {
            let answer = self
                .get_answer(CmsCall::Categories, credential, request_id)
                .await?;
            return Ok((CategorySource::List(answer.payload), answer.bytes));
        }
        let mut bytes = 0;
        let mut levels = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut parents = vec![self.dialect.category_root().clone()];
        for _ in 0..self.dialect.category_depth() {
            // A few at a time, at most a quarter of the places among the calls in flight
            // (`limits.upstream_concurrency`): a wide level must not be refused by its own cap.
            let at_once = (self.concurrency / 4).clamp(1, CHILDREN_AT_ONCE);
            let calls: Vec<_> = parents
                .iter()
                .map(|parent| {
                    let parent = parent.clone();
                    self.get_answer(CmsCall::Children { parent }, credential, request_id)
                })
                .collect();
            let answers: Vec<Answer> = stream::iter(calls).buffered(at_once).try_collect().await?;
            let mut next = Vec::new();
            for (parent, answer) in parents.iter().zip(answers) {
                bytes += answer.bytes;
                let items = self.dialect.category_items(&answer.payload)?.to_vec();
                next.extend(
                    items
                        .iter()
                        .filter_map(|item| self.dialect.category_id_of(item))
                        .filter(|id| seen.insert(id.clone())),
                );
                levels.push((parent.clone(), items));
            }
            if next.is_empty() || seen.len() > MAX_CATEGORIES {
                break;
            }
            parents = next;
        }
        Ok((CategorySource::Levels(levels), bytes))
    }

    /// The category tree, in whichever shape the CMS gives it.
    pub async fn category_tree(
        &self,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<Fetched<CategoryTree>, UpstreamError> {
        let (source, bytes) = self.category_answers(credential, request_id).await?;
        let dialect = Arc::clone(&self.dialect);
        off_workers(bytes, move || {
            let empty = match &source {
                CategorySource::List(payload) => payload.is_null(),
                CategorySource::Levels(levels) => levels.iter().all(|(_, items)| items.is_empty()),
            };
            Ok(Fetched {
                value: CategoryTree {
                    content: dialect.category_tree(&source)?,
                },
                empty,
            })
        })
        .await
    }

    /// A page of articles (`call` is a list or a search page), summaries only, its links
    /// through the gateway.
    pub async fn article_page(
        &self,
        call: CmsCall,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<Fetched<ArticlePage>, UpstreamError> {
        let (page, size) = call.page().expect("a page call");
        let category = match &call {
            CmsCall::Articles { category, .. } => category.clone(),
            _ => None,
        };
        let first_page = call.first_page();
        let answer = match self.get_answer(call, credential, request_id).await {
            Ok(answer) => answer,
            // Past the last page many CMSs answer 400 or 404 (WordPress: "invalid page
            // number"): that is an empty page, not a failure. Its totals are the list's, read
            // from the first page (one more call, only here); a guess from the page asked for
            // (page 5 of 3 "40 in all") only when that fails too.
            Err(UpstreamError::Status {
                code: 400 | 404, ..
            }) if page > 1 => {
                let (total_elements, total_pages) =
                    match Box::pin(self.article_page(first_page, credential, request_id)).await {
                        Ok(first) => (first.value.total_elements, first.value.total_pages),
                        Err(_) => (u64::from(page - 1) * u64::from(size), u64::from(page - 1)),
                    };
                return Ok(Fetched {
                    value: ArticlePage {
                        content: Vec::new(),
                        total_elements,
                        total_pages,
                        page,
                        size,
                    },
                    empty: false,
                });
            }
            Err(err) => return Err(err),
        };
        let (dialect, links) = (Arc::clone(&self.dialect), Arc::clone(&self.links));
        off_workers(answer.bytes, move || {
            let (total, total_pages) = dialect.header_totals(&answer.headers);
            let context = dialect::PageContext {
                category,
                total,
                total_pages,
            };
            let mut mapped = dialect.page_of(&answer.payload, page, size, &context)?;
            // A CMS that ignores the page size (or answers the whole list) is cut to it: the
            // answer, its cache entry and the page drawn from it stay the size asked for.
            mapped
                .content
                .truncate(usize::try_from(size).unwrap_or(usize::MAX));
            Ok(Fetched {
                value: finish::finish_page(mapped, &links),
                empty: answer.payload.is_null(),
            })
        })
        .await
    }

    /// One article with its body sanitised; `None` when the CMS answered nothing for it.
    pub async fn article(
        &self,
        id: Id,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<Fetched<Option<Article>>, UpstreamError> {
        let answer = self
            .get_answer(CmsCall::Article { id }, credential, request_id)
            .await?;
        if answer.payload.is_null() {
            return Ok(Fetched {
                value: None,
                empty: true,
            });
        }
        let dialect = Arc::clone(&self.dialect);
        let article = off_workers(answer.bytes, move || {
            // Asked as a filtered list, the CMS answers an empty one for an unknown id.
            dialect
                .detail_item(&answer.payload)
                .map(|item| dialect.article(item, "payload"))
                .transpose()
                .map_err(UpstreamError::from)
        })
        .await?;
        let Some(article) = article else {
            return Ok(Fetched {
                value: None,
                empty: false,
            });
        };
        let (resolved, complete) = self.resolve_refs(&article, credential, request_id).await;
        Ok(Fetched {
            value: Some(finish::finish_article_in_budget(article, &self.links, resolved).await?),
            // An article whose lookups failed for a reason other than "no such thing" (the
            // CMS busy, a timeout) is shown, but not cached in place of a whole one.
            empty: !complete,
        })
    }

    /// What the CMS says of the slugs and image ids `article`'s body names
    /// (`body_refs::wanted`), looked up at once, at most `body_refs::MAX_LOOKUPS`; and whether
    /// each lookup was answered (found or not found).
    async fn resolve_refs(
        &self,
        article: &Article,
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> (body_refs::Resolved, bool) {
        let mut resolved = body_refs::Resolved::default();
        let Some(html) = article.content.as_deref() else {
            return (resolved, true);
        };
        let (slugs, images) = (
            self.dialect.looks_up_slugs() && self.links.has_slug_pages(),
            self.dialect.looks_up_images(),
        );
        if !(slugs || images) || !body_refs::may_refer(html, &self.links) {
            return (resolved, true);
        }
        let wanted = body_refs::wanted(html, &self.links, slugs, images);
        if wanted.is_empty() {
            return (resolved, true);
        }
        let answered = |result: &Result<Answer, UpstreamError>| match result {
            Ok(_)
            | Err(UpstreamError::Status {
                code: 404 | 410, ..
            }) => true,
            Err(_) => false,
        };
        let slug_calls = wanted.slugs.iter().map(|slug| async move {
            let call = CmsCall::ArticleBySlug {
                slug: Arc::from(slug.as_str()),
            };
            (slug, self.get_answer(call, credential, request_id).await)
        });
        let image_calls = wanted.images.iter().map(|&id| async move {
            (
                id,
                self.get_answer(CmsCall::Image { id }, credential, request_id)
                    .await,
            )
        });
        let (slug_answers, image_answers) = futures_util::future::join(
            futures_util::future::join_all(slug_calls),
            futures_util::future::join_all(image_calls),
        )
        .await;
        let mut complete = true;
        for (slug, result) in slug_answers {
            complete &= answered(&result);
            match result
                .as_ref()
                .map(|a| self.dialect.slug_answer(&a.payload))
            {
                Ok(Some(id)) => {
                    resolved.slugs.insert(slug.clone(), id);
                }
                _ => {
                    tracing::warn!(slug = %slug, "a body links to an article the CMS did not find by slug")
                }
            }
        }
        for (id, result) in image_answers {
            complete &= answered(&result);
            match result
                .as_ref()
                .map(|a| self.dialect.image_answer(&a.payload))
            {
                Ok(Some(address)) => {
                    resolved.images.insert(id, address);
                }
                _ => tracing::warn!(
                    image = id,
                    "a body embeds an image the CMS did not find by id"
                ),
            }
        }
        (resolved, complete)
    }

    /// The articles the CMS lists as changed since `since` (`[dialect.changes]`): each one's id,
    /// its category when the item names it, and a fingerprint of the item.
    pub async fn changes(
        &self,
        since: chrono::DateTime<chrono::Utc>,
    ) -> Result<Vec<(Id, Option<Id>, u64)>, UpstreamError> {
        let call = CmsCall::Changes {
            since: Arc::from(self.dialect.changes_since(since)),
        };
        let answer = self.get_answer(call, Credential::Client, None).await?;
        let dialect = Arc::clone(&self.dialect);
        off_workers(answer.bytes, move || {
            dialect
                .changed_articles(&answer.payload)
                .map_err(UpstreamError::from)
        })
        .await
    }

    /// Whether the CMS answers the category list with the configured credential.
    pub async fn probe(&self) -> Result<(), UpstreamError> {
        // Asked at most once a second, whoever asks and however often: probes waiting meanwhile
        // share the answer (`/readyz?upstream=1` was a side door to everyone's CMS calls).
        const FRESH_FOR: Duration = Duration::from_secs(1);
        let mut last = self.probed.lock().await;
        if let Some((at, answer)) = &*last
            && at.elapsed() < FRESH_FOR
        {
            return answer.clone();
        }
        let answer = self.probe_now().await;
        *last = Some((std::time::Instant::now(), answer.clone()));
        answer
    }

    async fn probe_now(&self) -> Result<(), UpstreamError> {
        let call = match self.dialect.category_shape() {
            CategoryShape::Children => CmsCall::Children {
                parent: self.dialect.category_root().clone(),
            },
            _ => CmsCall::Categories,
        };
        self.get_json(call, Credential::Client, None)
            .await
            .map(|_| ())
    }
}

/// The payload of an answer, or the error it stands for: a redirect (never followed), or what
/// the dialect reads in it. `own` when the call carried the gateway's own credential.
fn read_answer(dialect: &Dialect, raw: &RawAnswer, own: bool) -> Result<Value, UpstreamError> {
    if raw.status.is_redirection() && raw.status != StatusCode::NOT_MODIFIED {
        return Err(UpstreamError::Redirect {
            status: raw.status.as_u16(),
            location: raw
                .headers
                .get(header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(redirect_target),
        });
    }
    match dialect.decode(raw.status, raw.content_type.as_deref(), &raw.body) {
        // The gateway's own credential refused: its operator's fault, not the visitor's.
        Err(UpstreamError::Unauthorized { msg }) if own => {
            Err(UpstreamError::CredentialRefused { msg })
        }
        result => result,
    }
}

/// A CMS answer of this many bytes or more is decoded and mapped on the blocking pool rather
/// than on an async worker. Decoding and mapping cost about 16 µs a kilobyte
/// (`make bench-mapping`: 82–117 µs for the demo's 6 KB category tree), so an answer under
/// this costs a worker about a millisecond at most, less than the hop is worth; one of the
/// 8 MiB the gateway reads at most would stall a worker (and `/healthz`) for over 100 ms.
const LARGE_ANSWER_BYTES: usize = 64 * 1024;

/// Runs `work` on an answer of `bytes` bytes: here when it is small, else on the blocking pool
/// (bounded work: the answer is at most `MAX_BODY_BYTES`, so a runtime's shutdown that waits
/// for it waits briefly).
async fn off_workers<T: Send + 'static>(
    bytes: usize,
    work: impl FnOnce() -> Result<T, UpstreamError> + Send + 'static,
) -> Result<T, UpstreamError> {
    if bytes < LARGE_ANSWER_BYTES {
        return work();
    }
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(UpstreamError::BadResponse(
            "mapping the answer failed".to_owned(),
        ))
    })
}

/// A CMS answer read: its payload, the response's headers, and the body's size.
struct Answer {
    payload: Value,
    headers: HeaderMap,
    bytes: usize,
}

/// A redirect's target as it may be shown: without its query or fragment (a query-string
/// credential may be sent back in it), and not overly long.
fn redirect_target(location: &str) -> String {
    let target = location.split(['?', '#']).next().unwrap_or("");
    target.chars().take(300).collect()
}

async fn read_limited(mut response: reqwest::Response) -> Result<Bytes, UpstreamError> {
    if response
        .content_length()
        .is_some_and(|len| len > MAX_BODY_BYTES as u64)
    {
        return Err(UpstreamError::BadResponse("body too large".to_owned()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(UpstreamError::from_reqwest)?
    {
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(UpstreamError::BadResponse("body too large".to_owned()));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(body))
}
