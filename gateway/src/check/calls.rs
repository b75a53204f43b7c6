//! Asking the CMS as the gateway will, and saying why a call failed: the status, an excerpt of
//! what the CMS answered, and the key to change.

use super::*;

/// What the CMS itself said of a failed call: its HTTP status and a short excerpt of its body
/// (the secret is taken out of every report in `run`).
#[derive(Debug, Clone, Default)]
pub(super) struct Said {
    pub(super) http: Option<StatusCode>,
    pub(super) excerpt: String,
}

impl Said {
    /// What `raw` said, with the secret taken out of its whole body before it is cut.
    pub(super) fn of(raw: &RawAnswer, secrets: &Secrets) -> Self {
        let mut body = String::from_utf8_lossy(&raw.body).into_owned();
        secrets.hide(&mut body);
        Self {
            http: Some(raw.status),
            excerpt: excerpt(raw.content_type.as_deref(), body.as_bytes()),
        }
    }
}

/// The first words of a body, as a line: an HTML page's title (or its text), JSON as it came.
pub(super) fn excerpt(content_type: Option<&str>, body: &[u8]) -> String {
    const LONGEST: usize = 160;
    let text = String::from_utf8_lossy(body);
    let html =
        content_type.is_some_and(|t| t.contains("html")) || text.trim_start().starts_with('<');
    let text = if html {
        let lower = text.to_ascii_lowercase();
        let title = lower.find("<title>").and_then(|start| {
            let start = start + "<title>".len();
            lower[start..]
                .find("</title>")
                .map(|end| text[start..start + end].to_owned())
        });
        title.unwrap_or_else(|| {
            let mut out = String::new();
            let mut in_tag = false;
            for c in text.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => {
                        in_tag = false;
                        out.push(' ');
                    }
                    c if !in_tag => out.push(c),
                    _ => {}
                }
            }
            out
        })
    } else {
        text.into_owned()
    };
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > LONGEST {
        format!("{}…", line.chars().take(LONGEST).collect::<String>())
    } else {
        line
    }
}

/// `(“message”; HTTP 404; body: …)`: what the CMS said, as far as it said anything.
pub(super) fn reason(msg: Option<&String>, said: &Said) -> String {
    let mut parts = Vec::new();
    if let Some(msg) = msg {
        parts.push(format!("\"{msg}\""));
    }
    if let Some(http) = said.http {
        parts.push(format!("HTTP {}", http.as_u16()));
    }
    let quoted = msg.is_some_and(|m| {
        said.excerpt.contains(m.as_str()) && said.excerpt.len() < 2 * m.len() + 40
    });
    if !said.excerpt.is_empty() && !quoted {
        parts.push(format!("the CMS answered: {}", said.excerpt));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

/// The keys of the Basic credential, which a refused one names (`run` names another style's).
pub(super) const CREDENTIAL_KEY: &str = "upstream.client_id / upstream.client_secret";

/// The status and the problem an upstream failure stands for; `path_key` is the key of the
/// path of the call (`dialect.endpoints.article_list.path`).
pub(super) fn from_error(err: &UpstreamError, path_key: &str, said: &Said) -> (String, Problem) {
    let (status, what, key) = match err {
        UpstreamError::Unauthorized { msg } | UpstreamError::CredentialRefused { msg } => (
            "401".to_owned(),
            format!(
                "the CMS refused the gateway's credential{}",
                reason(msg.as_ref(), said)
            ),
            CREDENTIAL_KEY.to_owned(),
        ),
        UpstreamError::Status { code: 404, msg } => (
            "404".to_owned(),
            format!("the CMS has no such path{}", reason(msg.as_ref(), said)),
            path_key.to_owned(),
        ),
        UpstreamError::Status { code, msg } => (
            code.to_string(),
            format!("the CMS answered code {code}{}", reason(msg.as_ref(), said)),
            format!("{path_key} (and its parameters)"),
        ),
        UpstreamError::Redirect { status, location } => (
            status.to_string(),
            format!(
                "the CMS redirects to {}: write the path as it redirects to, e.g. with or without \
                 the trailing slash (the gateway never follows a redirect)",
                location.as_deref().unwrap_or("an address it does not say")
            ),
            path_key.to_owned(),
        ),
        UpstreamError::Timeout => (
            "timeout".to_owned(),
            "no answer within upstream.timeout".to_owned(),
            "upstream.timeout / upstream.base_url".to_owned(),
        ),
        UpstreamError::Unreachable(detail) | UpstreamError::Unresolved(detail) => (
            "unreachable".to_owned(),
            format!("cannot reach the CMS: {detail}"),
            "upstream.base_url".to_owned(),
        ),
        UpstreamError::Unavailable => (
            "503".to_owned(),
            format!("the CMS says it is unavailable{}", reason(None, said)),
            "upstream.base_url".to_owned(),
        ),
        // Not JSON at all: the path leads to a web page (or an error page), not to the API.
        UpstreamError::BadResponse(detail)
            if detail.contains("content type") || detail.contains("not JSON") =>
        {
            (
                said.http
                    .map_or_else(|| "200".to_owned(), |s| s.as_u16().to_string()),
                format!(
                    "the answer is not JSON: {detail}{}: the path leads to a page, not the API",
                    reason(None, said)
                ),
                format!("{path_key} / upstream.base_url"),
            )
        }
        UpstreamError::BadResponse(detail) => (
            said.http
                .map_or_else(|| "200".to_owned(), |s| s.as_u16().to_string()),
            format!(
                "the answer does not fit the dialect: {detail}{}",
                reason(None, said)
            ),
            "dialect.envelope".to_owned(),
        ),
        UpstreamError::Ceiling { .. } | UpstreamError::Busy => (
            "limited".to_owned(),
            "the checker's own limits refused the call".to_owned(),
            "limits.upstream_per_second".to_owned(),
        ),
    };
    (status, Problem::error(what, "", &key))
}

/// An answered call: the payload and the response's headers.
pub(super) struct Answered {
    pub(super) payload: Value,
    pub(super) headers: HeaderMap,
}

/// A failed call: what stood in its way and what the CMS said.
pub(super) struct Failed {
    pub(super) err: UpstreamError,
    pub(super) said: Said,
}

impl Checker {
    /// One call, not yet recorded.
    pub(super) async fn ask(&self, call: &CmsCall) -> Result<Answered, Failed> {
        match self.upstream.answer(call.clone()).await {
            Err(err) => Err(Failed {
                err,
                said: Said::default(),
            }),
            Ok((raw, Ok(payload))) => Ok(Answered {
                payload,
                headers: raw.headers,
            }),
            Ok((raw, Err(err))) => Err(Failed {
                said: Said::of(&raw, &self.secrets),
                err,
            }),
        }
    }

    /// The path as written for the key `dialect.endpoints.<call>.path`.
    pub(super) fn written_path(&self, path_key: &str) -> Option<&str> {
        let e = &self.written.endpoints;
        let name = path_key
            .strip_prefix("dialect.endpoints.")?
            .strip_suffix(".path")?;
        Some(match name {
            "category_list" => &e.category_list.path,
            "category_children" => &e.category_children.path,
            "article_list" => &e.article_list.path,
            "article_detail" => &e.article_detail.path,
            "article_search" => &e.article_search.path,
            _ => return None,
        })
    }

    /// The path the CMS redirects a call to, as the key's value (`"cms/list/"`), when it is the
    /// same path with or without the trailing slash, or a fixed path under the base URL.
    pub(super) fn redirect_fix(
        &self,
        call: &CmsCall,
        path_key: &str,
        location: &str,
    ) -> Option<String> {
        let written = self.written_path(path_key)?;
        let asked = self.dialect().request(call).path;
        let asked = asked.trim_start_matches('/');
        let target = match location.split_once("://") {
            Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
            None => location,
        };
        let base = self.upstream.base_path();
        let relative = target.strip_prefix(base.as_str()).or_else(|| {
            // A relative Location (`list/`) is relative to the call's own address.
            (!target.starts_with('/')).then_some(target)
        })?;
        let suggested = if relative == format!("{asked}/") {
            format!("{written}/")
        } else if asked.ends_with('/') && relative == asked.trim_end_matches('/') {
            written.trim_end_matches('/').to_owned()
        } else if !written.contains('{') {
            relative.to_owned()
        } else {
            return None;
        };
        Some(format!("{path_key} = \"{suggested}\""))
    }

    /// Records a failed call as an error naming the key at fault.
    pub(super) fn failed(
        &mut self,
        endpoint: String,
        started: Instant,
        call: &CmsCall,
        path_key: &str,
        failed: Failed,
    ) {
        let (status, mut problem) = from_error(&failed.err, path_key, &failed.said);
        // The first page refused while pages are counted from 0: most often a CMS that counts
        // from 1 and calls page 0 invalid, not a wrong path.
        if matches!(
            call,
            CmsCall::Articles { page: 1, .. } | CmsCall::Search { page: 1, .. }
        ) && matches!(
            failed.err,
            UpstreamError::Status {
                code: 400 | 422,
                ..
            }
        ) && self.written.paging.style == portal_cms::dialect::PagingStyle::Page
            && self.written.paging.page_base == 0
        {
            problem.what.push_str(
                ": the first page was asked as page 0, which a CMS counting pages from 1 refuses",
            );
            problem.key = "dialect.paging.page_base".to_owned();
            problem.fix = Some("dialect.paging.page_base = 1".to_owned());
        }
        if let UpstreamError::Redirect {
            location: Some(location),
            ..
        } = &failed.err
        {
            problem.fix = self.redirect_fix(call, path_key, location);
        }
        self.record(endpoint, started, status, String::new(), vec![problem]);
    }

    /// One call recorded: its payload, or `None` with the error recorded.
    pub(super) async fn call(
        &mut self,
        endpoint: &str,
        call: CmsCall,
        path_key: &str,
    ) -> Option<Answered> {
        let started = Instant::now();
        match self.ask(&call).await {
            Ok(answered) => {
                self.record(
                    endpoint.to_owned(),
                    started,
                    "200".to_owned(),
                    String::new(),
                    Vec::new(),
                );
                Some(answered)
            }
            Err(failed) => {
                self.failed(endpoint.to_owned(), started, &call, path_key, failed);
                None
            }
        }
    }
}
