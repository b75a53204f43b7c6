//! Why a call to the CMS did not give a usable answer. What each becomes for the visitor is
//! decided in `envelope`.

#[derive(Debug, Clone, thiserror::Error)]
pub enum UpstreamError {
    #[error("upstream timed out")]
    Timeout,
    /// The CMS refused a visitor's own token.
    #[error("upstream refused the visitor's token{}", said(msg))]
    Unauthorized { msg: Option<String> },
    /// The CMS refused the gateway's own client credential: a configuration fault.
    #[error("upstream refused the gateway's client credential{}", said(msg))]
    CredentialRefused { msg: Option<String> },
    #[error("upstream unreachable: {0}")]
    Unreachable(String),
    #[error("upstream host name not resolved: {0}")]
    Unresolved(String),
    #[error("upstream unavailable (HTTP 503)")]
    Unavailable,
    #[error("upstream answered something unusable: {0}")]
    BadResponse(String),
    /// The CMS answered with a redirect, which is never followed (it would carry the credential
    /// somewhere nobody configured): usually a path written without the trailing slash the CMS
    /// wants, or with one it does not. `location` is without its query.
    #[error("upstream redirected (HTTP {status}) to {}", location.as_deref().unwrap_or("nowhere said"))]
    Redirect {
        status: u16,
        location: Option<String>,
    },
    #[error("upstream answered code {code}{}", said(msg))]
    Status { code: i64, msg: Option<String> },
    /// The gateway's own ceiling on calls a second to the CMS was reached.
    #[error("upstream call ceiling reached")]
    Ceiling { retry_after: std::time::Duration },
    /// `limits.upstream_concurrency` calls are already in flight.
    #[error("too many upstream calls in flight")]
    Busy,
}

impl UpstreamError {
    /// The CMS refused the call itself (a 4xx code other than a credential refused): a bad id,
    /// an unknown category, a page past the end.
    pub fn is_client_error(&self) -> bool {
        matches!(self, Self::Status { code, .. } if (400..500).contains(code) && *code != 401 && *code != 403)
    }

    /// The failure's kind as a fixed word, never its message (which may quote the CMS or an
    /// address): a span's `error.type` (`traces`).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Timeout => "timeout",
            Self::Unauthorized { .. } => "unauthorized",
            Self::CredentialRefused { .. } => "credential_refused",
            Self::Unreachable(_) => "unreachable",
            Self::Unresolved(_) => "unresolved",
            Self::Unavailable => "unavailable",
            Self::BadResponse(_) => "bad_response",
            Self::Redirect { .. } => "redirect",
            Self::Status { .. } => "status",
            Self::Ceiling { .. } => "ceiling",
            Self::Busy => "busy",
        }
    }

    /// What a reqwest failure says, without its URL: a query-string credential
    /// (`upstream.auth = "query"`) must never reach a log line or `check-upstream`.
    pub(crate) fn from_reqwest(err: reqwest::Error) -> Self {
        if err.is_timeout() {
            return Self::Timeout;
        }
        let err = err.without_url();
        let chain = error_chain(&err);
        if err.is_connect() {
            if chain.contains("dns error") || chain.contains("failed to lookup address") {
                return Self::Unresolved(chain);
            }
            return Self::Unreachable(chain);
        }
        Self::BadResponse(chain)
    }
}

/// The CMS's own words, for the log line and `check-upstream` (visitors get a Chinese message).
fn said(msg: &Option<String>) -> String {
    msg.as_deref()
        .filter(|m| !m.trim().is_empty())
        .map(|m| format!(": \"{}\"", m.chars().take(300).collect::<String>()))
        .unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A query-string credential sits in the URL reqwest's errors print: it must not reach the
    /// error's text (which the log and `check-upstream` show).
    #[tokio::test]
    async fn an_error_never_carries_the_url_it_was_for() {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = closed.local_addr().unwrap();
        drop(closed);
        portal_core::tls::install();
        let err = reqwest::Client::new()
            .get(format!("http://{addr}/cms/list?key=s3cret-in-the-url"))
            .send()
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("s3cret-in-the-url"),
            "reqwest prints it"
        );
        let ours = UpstreamError::from_reqwest(err);
        assert!(matches!(ours, UpstreamError::Unreachable(_)), "{ours}");
        assert!(!ours.to_string().contains("s3cret"), "{ours}");
    }
}
