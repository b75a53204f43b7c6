//! The `{code, msg, result}` envelope every `/portal/api` answer travels in, and the one error
//! type that turns any failure into it.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;

use crate::upstream::UpstreamError;

/// Success code of the envelope.
pub const OK: i64 = 200;

#[derive(Debug, Serialize)]
pub struct Envelope<T: Serialize> {
    pub code: i64,
    pub msg: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<T>,
}

/// A successful answer; `result: null` is kept (the spec allows nulls).
pub struct Success<T>(pub T);

impl<T: Serialize> IntoResponse for Success<T> {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Ok<'a, T> {
            code: i64,
            msg: &'a str,
            result: T,
        }
        Json(Ok {
            code: OK,
            msg: "成功",
            result: self.0,
        })
        .into_response()
    }
}

/// The Chinese message the portal shows for an HTTP status when nobody said anything better.
pub fn default_message(status: u16) -> &'static str {
    match status {
        200 => "服务器已成功返回请求的数据。",
        201 => "数据已成功新建或修改。",
        202 => "请求已进入后台排队，等待异步处理。",
        204 => "数据已成功删除。",
        400 => "请求有误，服务器未做任何新建或修改。",
        401 => "没有访问权限（令牌、用户名或密码错误）。",
        403 => "已通过身份验证，但无权访问该资源。",
        404 => "请求的记录不存在，服务器未做任何操作。",
        405 => "不支持该请求方法。",
        406 => "无法提供请求所要求的格式。",
        408 => "请求超时，内容服务未能及时响应。",
        410 => "请求的资源已被永久删除，不会再提供。",
        422 => "提交的数据未通过校验。",
        429 => "请求过于频繁，请稍后再试。",
        500 => "服务器内部错误，请稍后再试。",
        502 => "网关错误，内容服务返回了无法识别的响应。",
        503 => "服务暂不可用，内容服务过载或正在维护。",
        504 => "网关超时。",
        _ => "请求失败，请稍后再试。",
    }
}

/// Every way an API request can fail; each leaves as one envelope with a matching HTTP status.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    #[error("bad query parameter `{param}`: {msg}")]
    BadQuery { param: &'static str, msg: String },
    #[error("not found: {0}")]
    NotFound(String),
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error(transparent)]
    Upstream(#[from] UpstreamError),
    #[error("rate limited ({scope})")]
    RateLimited {
        scope: &'static str,
        retry_after: std::time::Duration,
    },
    #[error("admin token missing or wrong")]
    AdminRefused,
    #[error("internal error")]
    Internal,
}

impl ApiError {
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
            Self::Upstream(UpstreamError::Unauthorized { .. }) => false,
            Self::Upstream(_) => true,
            Self::RateLimited { scope, .. } => *scope == "upstream",
            _ => false,
        }
    }

    /// The CMS has no such thing (an answer that may be cached briefly).
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            Self::NotFound(_) | Self::Upstream(UpstreamError::Status { code: 404, .. })
        )
    }

    /// The error envelope as bytes, for a cached 404.
    pub fn envelope_bytes(&self) -> bytes::Bytes {
        let (code, _, msg) = self.parts();
        bytes::Bytes::from(
            serde_json::to_vec(&Envelope::<()> {
                code,
                msg,
                result: None,
            })
            .expect("an envelope serialises"),
        )
    }

    /// The envelope code, the HTTP status and the visitor-facing message.
    fn parts(&self) -> (i64, StatusCode, String) {
        match self {
            Self::BadQuery { msg, .. } => (400, StatusCode::BAD_REQUEST, msg.clone()),
            Self::NotFound(msg) => (404, StatusCode::NOT_FOUND, msg.clone()),
            Self::MethodNotAllowed => (
                405,
                StatusCode::METHOD_NOT_ALLOWED,
                "只支持 GET 请求。".to_owned(),
            ),
            Self::Upstream(err) => err.parts(),
            Self::RateLimited { .. } => (
                429,
                StatusCode::TOO_MANY_REQUESTS,
                default_message(429).to_owned(),
            ),
            Self::AdminRefused => (
                401,
                StatusCode::UNAUTHORIZED,
                "管理令牌缺失或不正确。".to_owned(),
            ),
            Self::Internal => (
                500,
                StatusCode::INTERNAL_SERVER_ERROR,
                default_message(500).to_owned(),
            ),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (code, status, msg) = self.parts();
        if status.is_server_error() || status == StatusCode::REQUEST_TIMEOUT {
            tracing::warn!(error = %self, code, "api request failed");
        } else {
            tracing::debug!(error = %self, code, "api request refused");
        }
        let mut response = (
            status,
            Json(Envelope::<()> {
                code,
                msg,
                result: None,
            }),
        )
            .into_response();
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if status == StatusCode::METHOD_NOT_ALLOWED {
            headers.insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        if let Self::RateLimited { retry_after, scope } = &self {
            let seconds = retry_after.as_secs_f64().ceil().max(1.0) as u64;
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            metrics::counter!("portal_rate_limited_total", "limit" => *scope).increment(1);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_status_has_its_own_chinese_message() {
        let fallback = default_message(999);
        for status in [
            200, 201, 202, 204, 400, 401, 403, 404, 406, 408, 410, 422, 500, 502, 503, 504,
        ] {
            let msg = default_message(status);
            assert_ne!(msg, fallback, "{status}");
            assert!(msg.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
        }
    }

    #[test]
    fn business_codes_outside_http_errors_become_bad_gateway() {
        assert_eq!(status_for_code(404), StatusCode::NOT_FOUND);
        assert_eq!(status_for_code(503), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(status_for_code(1001), StatusCode::BAD_GATEWAY);
        assert_eq!(status_for_code(-1), StatusCode::BAD_GATEWAY);
        assert_eq!(status_for_code(302), StatusCode::BAD_GATEWAY);
    }
}
