//! Why a call to the CMS did not give a usable answer. What each becomes for the visitor is
//! decided in `envelope`.

#[derive(Debug, Clone, thiserror::Error)]
pub enum UpstreamError {
    #[error("upstream timed out")]
    Timeout,
    /// The CMS refused a visitor's own token.
    #[error("upstream refused the visitor's token")]
    Unauthorized { msg: Option<String> },
    /// The CMS refused the gateway's own client credential: a configuration fault.
    #[error("upstream refused the gateway's client credential")]
    CredentialRefused { msg: Option<String> },
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
    /// The gateway's own ceiling on calls a second to the CMS was reached.
    #[error("upstream call ceiling reached")]
    Ceiling { retry_after: std::time::Duration },
    /// `limits.upstream_concurrency` calls are already in flight.
    #[error("too many upstream calls in flight")]
    Busy,
}

impl UpstreamError {
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
