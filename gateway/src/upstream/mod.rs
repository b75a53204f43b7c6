//! The only place that talks to the CMS: one pooled reqwest client, the credential, the
//! endpoint paths and the envelope decoding.

mod decode;
mod error;

use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue, header};
use base64::Engine;
use bytes::Bytes;
use secrecy::ExposeSecret;
use serde_json::Value;
use url::Url;

use crate::config::{UpstreamConfig, UpstreamPaths};
pub use decode::decode;
pub use error::UpstreamError;

/// Upper bound on one upstream body; a larger one is refused as a bad answer.
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// The endpoints the gateway knows; nothing else reaches the CMS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    CategoryList,
    ArticleList,
    ArticleDetail,
}

impl Endpoint {
    /// The endpoint's name in cache keys, TTL tables and metrics.
    pub fn name(self) -> &'static str {
        match self {
            Self::CategoryList => "category/list",
            Self::ArticleList => "article/list",
            Self::ArticleDetail => "article/detail",
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

pub struct Upstream {
    http: reqwest::Client,
    base: Url,
    paths: UpstreamPaths,
    basic: HeaderValue,
    page_base: u32,
    timeout: Duration,
}

/// A file fetched from the CMS's file store, streamed on to the visitor.
pub struct UpstreamFile {
    pub status: reqwest::StatusCode,
    pub headers: HeaderMap,
    pub body: reqwest::Response,
}

impl Upstream {
    pub fn new(config: &UpstreamConfig) -> Result<Self, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.connect_timeout)
            .pool_max_idle_per_host(config.pool_max_idle_per_host)
            .pool_idle_timeout(Duration::from_secs(60))
            .tcp_nodelay(true)
            // A redirect would carry the credential somewhere nobody configured.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("portal-gateway/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let mut base = config.base_url.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        let token = base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            config.client_id,
            config.client_secret.expose_secret()
        ));
        let mut basic = HeaderValue::from_str(&format!("Basic {token}"))
            .expect("base64 is always a valid header value");
        basic.set_sensitive(true);
        Ok(Self {
            http,
            base,
            paths: config.paths.clone(),
            basic,
            page_base: config.page_base,
            timeout: config.timeout,
        })
    }

    /// The CMS's number for the visitor's 1-based page.
    pub fn upstream_page(&self, page: u32) -> u32 {
        page - 1 + self.page_base
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    fn url(&self, path: &str) -> Url {
        self.base
            .join(path.trim_start_matches('/'))
            .expect("configured paths are validated relative paths")
    }

    fn endpoint_path(&self, endpoint: Endpoint) -> &str {
        match endpoint {
            Endpoint::CategoryList => &self.paths.category_list,
            Endpoint::ArticleList => &self.paths.article_list,
            Endpoint::ArticleDetail => &self.paths.article_detail,
        }
    }

    fn authorization(&self, credential: Credential<'_>) -> HeaderValue {
        match credential {
            Credential::Client => self.basic.clone(),
            Credential::Bearer(token) => {
                let mut token = token.clone();
                token.set_sensitive(true);
                token
            }
        }
    }

    /// GETs one endpoint with whitelisted query pairs and returns the envelope's `result`.
    pub async fn get_json(
        &self,
        endpoint: Endpoint,
        query: &[(&'static str, String)],
        credential: Credential<'_>,
        request_id: Option<&HeaderValue>,
    ) -> Result<Value, UpstreamError> {
        let mut request = self
            .http
            .get(self.url(self.endpoint_path(endpoint)))
            .query(query)
            .header(header::AUTHORIZATION, self.authorization(credential))
            .header(header::ACCEPT, "application/json");
        if let Some(id) = request_id {
            request = request.header("x-request-id", id.clone());
        }
        let started = std::time::Instant::now();
        let response = request
            .send()
            .await
            .map_err(|e| UpstreamError::from_reqwest(&e))?;
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = read_limited(response).await?;
        tracing::debug!(
            ?endpoint,
            %status,
            bytes = body.len(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "upstream answered"
        );
        decode(status, content_type.as_deref(), &body)
    }

    /// GETs a file below the CMS's file prefix; each segment is percent-encoded here, and the
    /// caller has already refused empty, dot and dot-dot segments.
    pub async fn get_file(
        &self,
        segments: &[&str],
        forward: &HeaderMap,
    ) -> Result<UpstreamFile, UpstreamError> {
        let mut url = self.url(&self.paths.files);
        url.path_segments_mut()
            .expect("http URLs have path segments")
            .pop_if_empty()
            .extend(segments);
        let mut request = self
            .http
            .get(url)
            .header(header::AUTHORIZATION, self.basic.clone());
        for name in [
            header::IF_NONE_MATCH,
            header::IF_MODIFIED_SINCE,
            header::RANGE,
        ] {
            if let Some(value) = forward.get(&name) {
                request = request.header(name, value.clone());
            }
        }
        let response = request
            .send()
            .await
            .map_err(|e| UpstreamError::from_reqwest(&e))?;
        Ok(UpstreamFile {
            status: response.status(),
            headers: response.headers().clone(),
            body: response,
        })
    }

    /// Whether the CMS answers the category list with the configured credential.
    pub async fn probe(&self) -> Result<(), UpstreamError> {
        self.get_json(Endpoint::CategoryList, &[], Credential::Client, None)
            .await
            .map(|_| ())
    }
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
        .map_err(|e| UpstreamError::from_reqwest(&e))?
    {
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(UpstreamError::BadResponse("body too large".to_owned()));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(body))
}
