//! The `{code, msg, result}` envelope every `/portal/api` answer travels in: the one serializer
//! for success, the one error type, and for every failure (the CMS's included) the HTTP status
//! and the Chinese message the visitor gets. Nothing else shapes an API answer.
//!
//! Errors are not logged here: `into_response` leaves the error in the response's extensions
//! and the observe layer writes it into the request's one log line.

use std::time::Duration;

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use serde::{Deserialize, Serialize};

use portal_cms::UpstreamError;

/// Success code of the envelope.
pub const OK: i64 = 200;

const JSON: HeaderValue = HeaderValue::from_static("application/json");

/// The success envelope's bytes; used for cached answers and for `Success`.
pub fn success_bytes<T: Serialize + ?Sized>(result: &T) -> Bytes {
    #[derive(Serialize)]
    struct Body<'a, T: ?Sized> {
        code: i64,
        msg: &'static str,
        result: &'a T,
    }
    Bytes::from(
        serde_json::to_vec(&Body {
            code: OK,
            msg: "成功",
            result,
        })
        .expect("content types always serialise"),
    )
}

fn error_bytes(code: i64, msg: &str) -> Bytes {
    #[derive(Serialize)]
    struct Body<'a> {
        code: i64,
        msg: &'a str,
    }
    Bytes::from(serde_json::to_vec(&Body { code, msg }).expect("an envelope serialises"))
}

/// A successful answer made on the spot (not from the cache); `result: null` is kept (the spec
/// allows nulls).
pub struct Success<T>(pub T);

impl<T: Serialize> IntoResponse for Success<T> {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, JSON)], success_bytes(&self.0)).into_response()
    }
}

/// The Chinese messages by status, the app's own table (`frontend/src/lib/request/messages.json`),
/// so a visitor reads the same words whether the gateway or the browser wrote the envelope.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Messages {
    by_status: std::collections::HashMap<u16, String>,
    unknown: String,
}

static MESSAGES: std::sync::LazyLock<Messages> = std::sync::LazyLock::new(|| {
    serde_json::from_str(include_str!(
        "../../../frontend/src/lib/request/messages.json"
    ))
    .expect("frontend/src/lib/request/messages.json is the message table")
});

/// The Chinese message the portal shows for an HTTP status when nobody said anything better.
pub fn default_message(status: u16) -> &'static str {
    MESSAGES
        .by_status
        .get(&status)
        .map_or(MESSAGES.unknown.as_str(), String::as_str)
}

/// Every way an API request can fail; each leaves as one envelope with a matching HTTP status.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    #[error("bad query parameter `{param}`: {msg}")]
    BadQuery { param: &'static str, msg: String },
    #[error("not found: {0}")]
    NotFound(String),
    #[error("method not allowed")]
    /// The method is not one the path takes; the methods it takes (`Allow`).
    MethodNotAllowed { allow: &'static str },
    #[error(transparent)]
    Upstream(#[from] UpstreamError),
    #[error("client over its rate limit")]
    RateLimited { retry_after: Duration },
    /// The client has spent its share of the CMS's calls (`limits.per_client_cms_*`): its
    /// uncached requests wait, so the others' still reach the CMS.
    #[error("the client's share of CMS calls is spent")]
    CmsShareSpent { retry_after: Duration },
    /// The client already has its `limits.per_client_*` of a kind of work under way (renders,
    /// files streamed, searches: `limits::Work`), named by its `portal_rate_limited_total` label.
    #[error("the client's share of work under way is taken ({0})")]
    ShareTaken(&'static str),
    #[error("admin token missing or wrong")]
    AdminRefused,
    /// A webhook notice without a valid signature, or signed too long ago.
    #[error("webhook refused: {0}")]
    WebhookRefused(&'static str),
    #[error("internal error: {0}")]
    Internal(&'static str),
    #[error("request headers over limits.max_header_bytes")]
    HeadersTooLarge,
    #[error("request target over limits.max_uri_bytes")]
    UriTooLong,
    /// A request body over what the endpoint takes (a webhook notice over its bound).
    #[error("request body too large")]
    BodyTooLarge,
    /// The process cannot serve yet (readiness).
    #[error("not ready: {0}")]
    NotReady(&'static str),
    /// The search index is being built and the CMS has no search to answer meanwhile.
    #[error("the search index is not built yet")]
    SearchBuilding,
    /// Every turn of the index's searches is taken and none came free in time (a flood of
    /// uncached searches): 503, ask again in a second.
    #[error("the search index is busy")]
    SearchBusy,
}

impl ApiError {
    /// The CMS (or its file store) answered something the gateway cannot pass on: a 502.
    pub fn bad_cms_answer(reason: String) -> Self {
        Self::Upstream(UpstreamError::BadResponse(reason))
    }

    pub fn bad_query(param: &'static str, msg: impl Into<String>) -> Self {
        Self::BadQuery {
            param,
            msg: msg.into(),
        }
    }

    /// A failure of the CMS (or of reaching it), during which a stale answer beats an error.
    pub fn is_upstream_failure(&self) -> bool {
        match self {
            Self::Upstream(UpstreamError::Status { code, .. }) => *code >= 500,
            // A visitor's token refused: theirs to fix. The gateway's own credential refused is
            // a fault of the gateway's set-up, during which cached pages still beat an error.
            Self::Upstream(UpstreamError::Unauthorized { .. }) => false,
            Self::Upstream(_) => true,
            _ => false,
        }
    }

    /// The CMS answered, and what it answered cannot be shown (a body nested too deep, a shape the
    /// dialect cannot read): asking again for the same answer gets the same refusal.
    pub fn is_bad_cms_answer(&self) -> bool {
        matches!(self, Self::Upstream(UpstreamError::BadResponse(_)))
    }

    /// The CMS has no such thing (an answer that may be cached briefly).
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            Self::NotFound(_) | Self::Upstream(UpstreamError::Status { code: 404, .. })
        )
    }

    /// Whether the message is one written for visitors: the gateway's own, or the CMS's when it
    /// is in Chinese (an English or empty CMS message is replaced by the portal's own).
    pub fn has_visitor_message(&self) -> bool {
        match self {
            Self::Upstream(UpstreamError::Status { msg, .. }) => {
                msg.as_deref().is_some_and(for_visitors)
            }
            _ => true,
        }
    }

    /// The HTTP status this error answers with.
    pub fn status(&self) -> StatusCode {
        self.parts().1
    }

    /// The error envelope as bytes, for a cached 404.
    pub fn envelope_bytes(&self) -> Bytes {
        let (code, _, msg) = self.parts();
        error_bytes(code, &msg)
    }

    /// How long the visitor should wait before asking again, when that is known.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::RateLimited { retry_after }
            | Self::CmsShareSpent { retry_after }
            | Self::Upstream(UpstreamError::Ceiling { retry_after }) => Some(*retry_after),
            Self::Upstream(UpstreamError::Busy) => Some(Duration::from_secs(1)),
            Self::SearchBuilding => Some(Duration::from_secs(5)),
            Self::SearchBusy | Self::ShareTaken(_) => Some(Duration::from_secs(1)),
            _ => None,
        }
    }

    /// The label of `portal_rate_limited_total` for a refusal by one of the gateway's limits.
    fn limit_label(&self) -> Option<&'static str> {
        match self {
            Self::RateLimited { .. } => Some("client"),
            Self::CmsShareSpent { .. } => Some("client_cms"),
            Self::ShareTaken(limit) => Some(limit),
            Self::Upstream(UpstreamError::Ceiling { .. }) => Some("upstream"),
            Self::Upstream(UpstreamError::Busy) => Some("upstream_concurrency"),
            Self::SearchBusy => Some("search_concurrency"),
            _ => None,
        }
    }

    /// The envelope code, the HTTP status and the visitor-facing message.
    fn parts(&self) -> (i64, StatusCode, String) {
        let plain = |status: StatusCode| {
            (
                i64::from(status.as_u16()),
                status,
                default_message(status.as_u16()).to_owned(),
            )
        };
        match self {
            Self::BadQuery { msg, .. } => (400, StatusCode::BAD_REQUEST, msg.clone()),
            Self::NotFound(msg) => (404, StatusCode::NOT_FOUND, msg.clone()),
            Self::MethodNotAllowed { allow } => (
                405,
                StatusCode::METHOD_NOT_ALLOWED,
                format!("此地址只支持 {} 请求。", allow.replace(", ", "、")),
            ),
            Self::Upstream(err) => upstream_parts(err),
            Self::RateLimited { .. } | Self::CmsShareSpent { .. } | Self::ShareTaken(_) => {
                plain(StatusCode::TOO_MANY_REQUESTS)
            }
            Self::AdminRefused => (
                401,
                StatusCode::UNAUTHORIZED,
                "管理令牌缺失或不正确。".to_owned(),
            ),
            Self::WebhookRefused(_) => (
                401,
                StatusCode::UNAUTHORIZED,
                "通知的签名无效或已过期。".to_owned(),
            ),
            Self::Internal(_) => plain(StatusCode::INTERNAL_SERVER_ERROR),
            Self::HeadersTooLarge => (
                431,
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "请求头过大，请清理浏览器中本站的 Cookie 后再试。".to_owned(),
            ),
            Self::UriTooLong => (414, StatusCode::URI_TOO_LONG, "请求地址过长。".to_owned()),
            Self::BodyTooLarge => (
                413,
                StatusCode::PAYLOAD_TOO_LARGE,
                "请求内容过长。".to_owned(),
            ),
            Self::NotReady(_) => (
                503,
                StatusCode::SERVICE_UNAVAILABLE,
                "门户正在启动或缺少页面文件，暂不可用。".to_owned(),
            ),
            Self::SearchBuilding => (
                503,
                StatusCode::SERVICE_UNAVAILABLE,
                "站内搜索正在建立索引，请稍后再试。".to_owned(),
            ),
            Self::SearchBusy => (
                503,
                StatusCode::SERVICE_UNAVAILABLE,
                "站内搜索繁忙，请稍后再试。".to_owned(),
            ),
        }
    }
}

/// What a CMS failure becomes for the visitor. Details of bad answers stay in the log: they
/// may describe the CMS's internals.
/// Whether a CMS's message may be shown to visitors as it is: Chinese text. Anything else (a
/// CMS's English or its error codes, `rest_post_invalid_page_number`) gives way to the Chinese
/// message of its status; the CMS's own reason stays in the error for the log line.
fn for_visitors(msg: &str) -> bool {
    !msg.trim().is_empty() && portal_core::model::site::has_han(msg)
}

fn upstream_parts(err: &UpstreamError) -> (i64, StatusCode, String) {
    let with_default = |status: StatusCode, msg: Option<&String>| {
        let msg = msg
            .filter(|m| for_visitors(m))
            .cloned()
            .unwrap_or_else(|| default_message(status.as_u16()).to_owned());
        (i64::from(status.as_u16()), status, msg)
    };
    match err {
        // Code 408 is what the app keys on (spec); 504 is what proxies and monitors key on.
        UpstreamError::Timeout => (
            408,
            StatusCode::GATEWAY_TIMEOUT,
            default_message(408).to_owned(),
        ),
        UpstreamError::Unauthorized { msg } => with_default(StatusCode::UNAUTHORIZED, msg.as_ref()),
        // Not the visitor's fault: a 401 would send them to the login page for nothing.
        UpstreamError::CredentialRefused { .. } => (
            502,
            StatusCode::BAD_GATEWAY,
            "门户暂时无法读取内容服务（网关凭证未被接受），请稍后再试。".to_owned(),
        ),
        UpstreamError::Unreachable(_) => (
            502,
            StatusCode::BAD_GATEWAY,
            "无法连接内容服务，请稍后再试。".to_owned(),
        ),
        UpstreamError::Unresolved(_) => (
            503,
            StatusCode::SERVICE_UNAVAILABLE,
            "内容服务地址无法解析，服务暂不可用。".to_owned(),
        ),
        UpstreamError::Unavailable => with_default(StatusCode::SERVICE_UNAVAILABLE, None),
        UpstreamError::Busy => (
            503,
            StatusCode::SERVICE_UNAVAILABLE,
            "访问人数较多，内容服务繁忙，请稍后再试。".to_owned(),
        ),
        UpstreamError::Ceiling { .. } => with_default(StatusCode::TOO_MANY_REQUESTS, None),
        // A redirect was read as a bad answer before it had a variant of its own: still 502.
        UpstreamError::BadResponse(_) | UpstreamError::Redirect { .. } => {
            with_default(StatusCode::BAD_GATEWAY, None)
        }
        UpstreamError::Status { code, msg } => {
            let status = status_for_code(*code);
            let msg = msg.clone().filter(|m| for_visitors(m)).unwrap_or_else(|| {
                let known = u16::try_from(*code).unwrap_or(0);
                default_message(if known == 0 { status.as_u16() } else { known }).to_owned()
            });
            (*code, status, msg)
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (code, status, msg) = self.parts();
        let mut response = (
            status,
            [
                (header::CONTENT_TYPE, JSON),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
            error_bytes(code, &msg),
        )
            .into_response();
        let headers = response.headers_mut();
        if let Self::MethodNotAllowed { allow } = &self {
            headers.insert(header::ALLOW, HeaderValue::from_static(allow));
        }
        if let Some(wait) = self.retry_after() {
            let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if let Some(limit) = self.limit_label() {
            metrics::counter!("portal_rate_limited_total", "limit" => limit).increment(1);
        }
        // For the observe layer's log line.
        response.extensions_mut().insert(self);
        response
    }
}

/// Maps an envelope code from the CMS to the HTTP status the visitor gets.
pub fn status_for_code(code: i64) -> StatusCode {
    u16::try_from(code)
        .ok()
        .filter(|c| (400..=599).contains(c))
        .and_then(|c| StatusCode::from_u16(c).ok())
        .unwrap_or(StatusCode::BAD_GATEWAY)
}

/// The answer of a handler that panicked (the observe layer catches it): a 500 envelope; the
/// panic's message goes to the log, never to the visitor.
pub fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    tracing::error!(panic = %detail, "a handler panicked");
    ApiError::Internal("a handler panicked").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_status_has_its_own_chinese_message() {
        let fallback = default_message(999);
        for status in [
            200, 201, 202, 204, 400, 401, 403, 404, 405, 406, 408, 410, 422, 500, 502, 503, 504,
        ] {
            let msg = default_message(status);
            assert_ne!(msg, fallback, "{status}");
            assert!(msg.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
        }
    }

    #[test]
    fn visitors_read_chinese_and_the_log_keeps_the_cmss_own_words() {
        let english = ApiError::Upstream(UpstreamError::Status {
            code: 400,
            msg: Some("rest_post_invalid_page_number".to_owned()),
        });
        let (_, status, msg) = english.parts();
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(msg, default_message(400));
        assert!(
            english
                .to_string()
                .contains("rest_post_invalid_page_number"),
            "{english}"
        );
        let chinese = ApiError::Upstream(UpstreamError::Status {
            code: 404,
            msg: Some("文章不存在".to_owned()),
        });
        assert_eq!(chinese.parts().2, "文章不存在");
        let refused = UpstreamError::CredentialRefused {
            msg: Some("Missing or invalid credentials".to_owned()),
        };
        assert!(
            refused
                .to_string()
                .contains("Missing or invalid credentials")
        );
    }

    #[test]
    fn business_codes_outside_http_errors_become_bad_gateway() {
        assert_eq!(status_for_code(404), StatusCode::NOT_FOUND);
        assert_eq!(status_for_code(503), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(status_for_code(1001), StatusCode::BAD_GATEWAY);
        assert_eq!(status_for_code(-1), StatusCode::BAD_GATEWAY);
        assert_eq!(status_for_code(302), StatusCode::BAD_GATEWAY);
    }

    #[test]
    fn success_and_error_envelopes_have_the_contract_shape() {
        let ok: serde_json::Value = serde_json::from_slice(&success_bytes(&[1, 2])).unwrap();
        assert_eq!(
            ok,
            serde_json::json!({"code": 200, "msg": "成功", "result": [1, 2]})
        );
        let null: serde_json::Value = serde_json::from_slice(&success_bytes(&())).unwrap();
        assert_eq!(
            null,
            serde_json::json!({"code": 200, "msg": "成功", "result": null})
        );
        let err: serde_json::Value =
            serde_json::from_slice(&ApiError::NotFound("无".into()).envelope_bytes()).unwrap();
        assert_eq!(err, serde_json::json!({"code": 404, "msg": "无"}));
    }

    #[test]
    fn limits_answer_with_a_retry_time_and_the_error_rides_along_for_the_log() {
        let busy = ApiError::Upstream(UpstreamError::Busy).into_response();
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(busy.headers()[header::RETRY_AFTER], "1");
        assert!(busy.extensions().get::<ApiError>().is_some());
        let ceiling = ApiError::Upstream(UpstreamError::Ceiling {
            retry_after: Duration::from_millis(1500),
        })
        .into_response();
        assert_eq!(ceiling.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(ceiling.headers()[header::RETRY_AFTER], "2");
        assert!(ApiError::Upstream(UpstreamError::Busy).is_upstream_failure());
    }
}
