use axum::http::StatusCode;

use crate::envelope::{default_message, status_for_code};

/// Why a call to the CMS did not give a usable answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum UpstreamError {
    #[error("upstream timed out")]
    Timeout,
    #[error("upstream refused the credential")]
    Unauthorized { msg: Option<String> },
    #[error("upstream unreachable: {0}")]
    Unreachable(String),
    #[error("upstream host name not resolved: {0}")]
    Unresolved(String),
    #[error("upstream unavailable (HTTP 503)")]
    Unavailable,
    #[error("upstream answered something unusable: {0}")]
    BadResponse(String),
    #[error("upstream answered code {code}")]
    Status { code: i64, msg: Option<String> },
}

impl UpstreamError {
    /// Envelope code, HTTP status and message. Details of bad answers stay in the log: they may
    /// describe the CMS's internals.
    pub(crate) fn parts(&self) -> (i64, StatusCode, String) {
        let with_default = |status: StatusCode, msg: &Option<String>| {
            let msg = msg
                .clone()
                .filter(|m| !m.trim().is_empty())
                .unwrap_or_else(|| default_message(status.as_u16()).to_owned());
            (i64::from(status.as_u16()), status, msg)
        };
        match self {
            Self::Timeout => with_default(StatusCode::REQUEST_TIMEOUT, &None),
            Self::Unauthorized { msg } => with_default(StatusCode::UNAUTHORIZED, msg),
            Self::Unreachable(_) => (
                502,
                StatusCode::BAD_GATEWAY,
                "无法连接内容服务，请稍后再试。".to_owned(),
            ),
            Self::Unresolved(_) => (
                503,
                StatusCode::SERVICE_UNAVAILABLE,
                "内容服务地址无法解析，服务暂不可用。".to_owned(),
            ),
            Self::Unavailable => with_default(StatusCode::SERVICE_UNAVAILABLE, &None),
            Self::BadResponse(_) => with_default(StatusCode::BAD_GATEWAY, &None),
            Self::Status { code, msg } => {
                let status = status_for_code(*code);
                let msg = msg
                    .clone()
                    .filter(|m| !m.trim().is_empty())
                    .unwrap_or_else(|| {
                        let known = u16::try_from(*code).unwrap_or(0);
                        default_message(if known == 0 { status.as_u16() } else { known }).to_owned()
                    });
                (*code, status, msg)
            }
        }
    }

    pub(crate) fn from_reqwest(err: &reqwest::Error) -> Self {
        if err.is_timeout() {
            return Self::Timeout;
        }
        let chain = error_chain(err);
        if err.is_connect() {
            if chain.contains("dns error") || chain.contains("failed to lookup address") {
                return Self::Unresolved(chain);
            }
            return Self::Unreachable(chain);
        }
        Self::BadResponse(chain)
    }
}

fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}
