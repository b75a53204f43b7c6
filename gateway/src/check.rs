//! `portal-gateway check-upstream`: calls every endpoint of the configured CMS the way the
//! gateway will, and says for each what is wrong, where in the CMS's JSON, and which
//! configuration key to change. Calls go through the upstream client like every other.
//!
//! Every finding has a level: an `error` is a call the gateway cannot read or map (the portal
//! cannot run until it is fixed), a `warning` is something the portal will lack or show oddly
//! (a section the CMS has not, a search that finds nothing, a field empty everywhere), an `info`
//! says what was found. Only errors fail the check (exit 1).

use std::{
    collections::{HashMap, HashSet},
    time::{Duration, Instant},
};

use axum::http::{HeaderMap, StatusCode};
use base64::Engine;
use secrecy::ExposeSecret;
use serde::Serialize;
use serde_json::Value;

use crate::{
    cms::{
        ClientError, RawAnswer, Upstream, UpstreamError,
        dialect::{
            CategoryShape, CategorySource, CmsCall, Dialect, DialectConfig, MAX_CATEGORIES,
            PageContext, ShapeProblem,
        },
        finish_article,
    },
    config::{AuthStyle, Config, LimitsConfig},
    model::{Article, ArticlePage, Category},
    portal_routes::{self, PORTAL_ROUTES},
};

/// How much a finding weighs.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A call that cannot be read or mapped: the portal cannot run on this config.
    Error,
    /// Something the portal will lack or show oddly; it runs.
    Warning,
    /// What was found.
    Info,
}

impl Level {
    fn word(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
        }
    }

    fn mark(self) -> &'static str {
        match self {
            Self::Error => "✗",
            Self::Warning => "!",
            Self::Info => "i",
        }
    }
}

/// One finding.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Problem {
    pub level: Level,
    pub what: String,
    /// Where in the CMS's answer (a path into its JSON), when it is about the answer.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub at: String,
    /// The configuration key to change.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// A config snippet that would fit what the CMS answered, when one can be inferred.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Problem {
    fn new(level: Level, what: impl Into<String>, at: &str, key: &str) -> Self {
        Self {
            level,
            what: what.into(),
            at: at.to_owned(),
            key: key.to_owned(),
            fix: None,
        }
    }

    fn error(what: impl Into<String>, at: &str, key: &str) -> Self {
        Self::new(Level::Error, what, at, key)
    }

    fn warning(what: impl Into<String>, at: &str, key: &str) -> Self {
        Self::new(Level::Warning, what, at, key)
    }

    fn info(what: impl Into<String>, key: &str) -> Self {
        Self::new(Level::Info, what, "", key)
    }

    fn with_fix(mut self, fix: Option<String>) -> Self {
        self.fix = fix;
        self
    }
}

/// One call and what came of it.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub endpoint: String,
    /// The HTTP status the CMS answered (as the gateway read it), or what stood in its way.
    pub status: String,
    pub latency_ms: u64,
    /// What was found.
    pub summary: String,
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub upstream: String,
    /// No finding is an error: the portal can run on this CMS.
    pub ok: bool,
    pub errors: usize,
    pub warnings: usize,
    pub checks: Vec<Check>,
}

impl Report {
    fn new(upstream: String, checks: Vec<Check>) -> Self {
        let count = |level| {
            checks
                .iter()
                .flat_map(|c| &c.problems)
                .filter(|p| p.level == level)
                .count()
        };
        let errors = count(Level::Error);
        Self {
            upstream,
            ok: errors == 0,
            errors,
            warnings: count(Level::Warning),
            checks,
        }
    }

    /// Every finding, with the call it is about.
    pub fn problems(&self) -> impl Iterator<Item = (&Check, &Problem)> {
        self.checks
            .iter()
            .flat_map(|c| c.problems.iter().map(move |p| (c, p)))
    }

    /// The findings of one level.
    pub fn at_level(&self, level: Level) -> impl Iterator<Item = (&Check, &Problem)> {
        self.problems().filter(move |(_, p)| p.level == level)
    }

    /// The process's exit code: 0 when nothing is an error (warnings and infos allowed), 1 when
    /// anything is.
    pub fn exit_code(&self) -> u8 {
        if self.ok { 0 } else { 1 }
    }
}

fn from_shape(problem: ShapeProblem) -> Problem {
    Problem::error(problem.what, &problem.at, &problem.key)
}

/// What the CMS itself said of a failed call: its HTTP status and a short excerpt of its body
/// (the secret is taken out of every report in `run`).
#[derive(Debug, Clone, Default)]
struct Said {
    http: Option<StatusCode>,
    excerpt: String,
}

impl Said {
    fn of(raw: &RawAnswer) -> Self {
        Self {
            http: Some(raw.status),
            excerpt: excerpt(raw.content_type.as_deref(), &raw.body),
        }
    }
}

/// The first words of a body, as a line: an HTML page's title (or its text), JSON as it came.
fn excerpt(content_type: Option<&str>, body: &[u8]) -> String {
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
fn reason(msg: Option<&String>, said: &Said) -> String {
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
const CREDENTIAL_KEY: &str = "upstream.client_id / upstream.client_secret";

/// The status and the problem an upstream failure stands for; `path_key` is the key of the
/// path of the call (`dialect.endpoints.article_list.path`).
fn from_error(err: &UpstreamError, path_key: &str, said: &Said) -> (String, Problem) {
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

/// A JSON path to the first array in `value`, breadth first, up to three levels down (`""` for
/// the value itself).
fn first_array(value: &Value) -> Option<String> {
    let mut level: Vec<(String, &Value)> = vec![(String::new(), value)];
    for _ in 0..4 {
        let mut next = Vec::new();
        for (path, value) in level {
            match value {
                Value::Array(_) => return Some(path),
                Value::Object(map) => {
                    for (key, child) in map {
                        let path = if path.is_empty() {
                            key.clone()
                        } else {
                            format!("{path}.{key}")
                        };
                        next.push((path, child));
                    }
                }
                _ => {}
            }
        }
        level = next;
    }
    None
}

/// A JSON path to the first number-valued key named like a total (`total`, `totalCount`,
/// `count`), breadth first, up to three levels down.
fn first_total(value: &Value) -> Option<String> {
    let mut level: Vec<(String, &Value)> = vec![(String::new(), value)];
    for _ in 0..3 {
        let mut next = Vec::new();
        for (path, value) in level {
            let Value::Object(map) = value else { continue };
            for (key, child) in map {
                let path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                let lower = key.to_ascii_lowercase();
                let numeric = child.is_u64()
                    || child
                        .as_str()
                        .is_some_and(|s| s.trim().parse::<u64>().is_ok());
                if numeric
                    && (lower.contains("total") || lower.contains("count"))
                    && !lower.contains("page")
                {
                    return Some(path);
                }
                next.push((path, child));
            }
        }
        level = next;
    }
    None
}

/// The suggestion for a list payload whose items the dialect does not find.
fn items_fix(dialect: &Dialect, payload: &Value) -> Option<String> {
    let items = first_array(payload)?;
    let mut fix = format!("dialect.lists.items = \"{items}\"");
    if dialect.lists.total.get(payload).is_none()
        && let Some(total) = first_total(payload)
    {
        fix.push_str(&format!("\ndialect.lists.total = \"{total}\""));
    }
    Some(fix)
}

/// The fields sampled on every list item, with the names a CMS may give them.
const SAMPLED: &[(&str, &str, &[&str])] = &[
    (
        "summary",
        "summary",
        &[
            "summary", "desc", "brief", "excerpt", "intro", "abstract", "digest",
        ],
    ),
    (
        "cover",
        "cover",
        &["cover", "thumb", "image", "img", "pic", "photo"],
    ),
    (
        "publishTime",
        "publish_time",
        &["publish", "time", "date", "created", "release"],
    ),
    (
        "author",
        "author",
        &["author", "byline", "writer", "creator"],
    ),
];

fn field_value(article: &Article, name: &str) -> Option<String> {
    match name {
        "summary" => article.summary.clone(),
        "cover" => article.cover.clone(),
        "publishTime" => article.publish_time.clone(),
        "author" => article.author.clone(),
        _ => None,
    }
    .filter(|v| !v.trim().is_empty())
}

fn is_filled(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => true,
    }
}

/// A key filled on every raw item whose name looks like `hints` (`cover.url` for an object with
/// a `url`).
fn filled_key_like(items: &[Value], hints: &[&str]) -> Option<String> {
    let first = items.first()?.as_object()?;
    first.keys().find_map(|key| {
        let lower = key.to_ascii_lowercase();
        if !hints.iter().any(|h| lower.contains(h)) {
            return None;
        }
        if !items
            .iter()
            .all(|item| item.get(key).is_some_and(is_filled))
        {
            return None;
        }
        match first.get(key) {
            Some(Value::Object(inner)) if inner.contains_key("url") => Some(format!("{key}.url")),
            Some(Value::Object(_) | Value::Array(_)) => None,
            _ => Some(key.clone()),
        }
    })
}

/// A key of the raw categories named like a parent (`parentId`, `pid`, `parent_code`), when one
/// holds an id on some category.
fn parent_key_like(items: &[Value]) -> Option<String> {
    let first = items.iter().find_map(Value::as_object)?;
    first.keys().find_map(|key| {
        let lower = key.to_ascii_lowercase().replace(['_', '-'], "");
        if !(lower.contains("parent") || matches!(lower.as_str(), "pid" | "fid" | "superid")) {
            return None;
        }
        let id = |v: &Value| {
            v.as_u64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                .is_some_and(|n: u64| n > 0)
        };
        items.iter().find_map(|item| match item.get(key)? {
            Value::Object(inner) if inner.get("id").is_some_and(id) => Some(format!("{key}.id")),
            value if id(value) => Some(key.clone()),
            _ => None,
        })
    })
}

/// An answered call: the payload and the response's headers.
struct Answered {
    payload: Value,
    headers: HeaderMap,
}

/// A failed call: what stood in its way and what the CMS said.
struct Failed {
    err: UpstreamError,
    said: Said,
}

struct Checker {
    upstream: Upstream,
    /// The dialect as written (for suggestions quoting its paths).
    written: DialectConfig,
    checks: Vec<Check>,
    /// The headers of the last list page answered (a total the CMS sends there).
    list_headers: HeaderMap,
}

impl Checker {
    fn dialect(&self) -> &Dialect {
        self.upstream.dialect()
    }

    fn record(
        &mut self,
        endpoint: String,
        started: Instant,
        status: String,
        summary: String,
        problems: Vec<Problem>,
    ) {
        self.checks.push(Check {
            endpoint,
            status,
            latency_ms: started.elapsed().as_millis() as u64,
            summary,
            problems,
        });
    }

    fn last(&mut self) -> &mut Check {
        self.checks.last_mut().expect("a check was recorded")
    }

    /// One call, not yet recorded.
    async fn ask(&self, call: &CmsCall) -> Result<Answered, Failed> {
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
                said: Said::of(&raw),
                err,
            }),
        }
    }

    /// The path as written for the key `dialect.endpoints.<call>.path`.
    fn written_path(&self, path_key: &str) -> Option<&str> {
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
    fn redirect_fix(&self, call: &CmsCall, path_key: &str, location: &str) -> Option<String> {
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
    fn failed(
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
        ) && self.written.paging.style == crate::cms::dialect::PagingStyle::Page
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
    async fn call(&mut self, endpoint: &str, call: CmsCall, path_key: &str) -> Option<Answered> {
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

    /// Shape `children`: the root's children, asked for on their own so that a wrong root is
    /// told from a wrong path. `false` when the tree cannot be asked for.
    async fn root_children(&mut self) -> bool {
        let root = self.dialect().category_root();
        let call = CmsCall::Children { parent: root };
        let endpoint = format!("category/children parentId={root}");
        let started = Instant::now();
        let answered = self.ask(&call).await;
        // What the CMS lists under 0, when the root is another id: tells a wrong root.
        let under_zero = if root != 0
            && answered
                .as_ref()
                .map_or(true, |a| self.count_items(&a.payload) == Some(0))
        {
            match self.ask(&CmsCall::Children { parent: 0 }).await {
                Ok(zero) => self.count_items(&zero.payload).filter(|n| *n > 0),
                Err(_) => None,
            }
        } else {
            None
        };
        let root_key = "dialect.categories.root";
        let root_fix = under_zero.map(|_| format!("{root_key} = 0"));
        match answered {
            Err(failed) => {
                let refused = matches!(
                    failed.err,
                    UpstreamError::Status { .. } | UpstreamError::BadResponse(_)
                );
                self.failed(
                    endpoint,
                    started,
                    &call,
                    "dialect.endpoints.category_children.path",
                    failed,
                );
                if refused && let Some(n) = under_zero {
                    let problem = &mut self.last().problems[0];
                    problem.what = format!(
                        "the CMS refuses the children of the root {root} but lists {n} under 0: \
                         {}",
                        problem.what
                    );
                    problem.key = root_key.to_owned();
                    problem.fix = root_fix;
                }
                false
            }
            Ok(answered) => match self.count_items(&answered.payload) {
                None => {
                    let problem = self
                        .dialect()
                        .category_items(&answered.payload)
                        .err()
                        .map(from_shape);
                    self.record(
                        endpoint,
                        started,
                        "200".to_owned(),
                        String::new(),
                        problem.into_iter().collect(),
                    );
                    false
                }
                Some(0) => {
                    let problem = Problem::error(
                        format!(
                            "the children call for the root ({root}) lists no category{}",
                            under_zero.map_or(String::new(), |n| format!(
                                ", while {n} are listed under 0"
                            ))
                        ),
                        "payload",
                        root_key,
                    )
                    .with_fix(root_fix);
                    self.record(
                        endpoint,
                        started,
                        "200".to_owned(),
                        "0 categories".to_owned(),
                        vec![problem],
                    );
                    false
                }
                Some(n) => {
                    self.record(
                        endpoint,
                        started,
                        "200".to_owned(),
                        format!("{n} categories at the top"),
                        Vec::new(),
                    );
                    true
                }
            },
        }
    }

    fn count_items(&self, payload: &Value) -> Option<usize> {
        self.dialect().category_items(payload).ok().map(<[_]>::len)
    }

    /// The category tree, with its integrity checked; `None` when it could not be read.
    async fn categories(&mut self) -> Option<Vec<Category>> {
        let shape = self.dialect().category_shape();
        if shape == CategoryShape::Children && !self.root_children().await {
            return None;
        }
        let started = Instant::now();
        let source = if shape == CategoryShape::Children {
            match self
                .upstream
                .category_source(crate::cms::Credential::Client, None)
                .await
            {
                Ok(source) => source,
                Err(err) => {
                    let (status, problem) = from_error(
                        &err,
                        "dialect.endpoints.category_children.path",
                        &Said::default(),
                    );
                    self.record(
                        "category/list".to_owned(),
                        started,
                        status,
                        String::new(),
                        vec![problem],
                    );
                    return None;
                }
            }
        } else {
            let answered = self
                .call(
                    "category/list",
                    CmsCall::Categories,
                    "dialect.endpoints.category_list.path",
                )
                .await?;
            // Recorded below, with what the categories say.
            self.checks.pop();
            CategorySource::List(answered.payload)
        };
        let nodes = match self.dialect().category_nodes(&source) {
            Ok(nodes) => nodes,
            Err(problem) => {
                self.record(
                    "category/list".to_owned(),
                    started,
                    "200".to_owned(),
                    String::new(),
                    vec![from_shape(problem)],
                );
                return None;
            }
        };
        let mut problems = integrity(self.dialect(), &nodes);
        let tree = self.dialect().assemble(nodes.clone());
        let mut urls = HashSet::new();
        let mut count = 0;
        walk(&tree, &mut |c| {
            count += 1;
            if !c.url.is_empty() {
                urls.insert(c.url.clone());
            }
        });
        let root = self.dialect().category_root();
        let ids: HashSet<u64> = nodes.iter().map(|(c, _)| c.id).collect();
        let wrong_root = root != 0
            && !nodes.is_empty()
            && !ids.contains(&root)
            && !nodes.iter().any(|(_, p)| *p == Some(root));
        if wrong_root {
            // The parent most categories name that is not itself listed: the CMS's real root.
            let mut named: HashMap<u64, usize> = HashMap::new();
            for (_, parent) in &nodes {
                let parent = parent.unwrap_or(0);
                if parent == 0 || !ids.contains(&parent) {
                    *named.entry(parent).or_default() += 1;
                }
            }
            let likely = named
                .into_iter()
                .max_by_key(|(id, n)| (*n, std::cmp::Reverse(*id)))
                .map(|(id, _)| id);
            problems.push(
                Problem::error(
                    format!(
                        "no category has the root's id {root}, and none names it as its parent: \
                         none of the {} categories is shown",
                        nodes.len()
                    ),
                    "",
                    "dialect.categories.root",
                )
                .with_fix(likely.map(|id| format!("dialect.categories.root = {id}"))),
            );
        } else if count < nodes.len() {
            let left: Vec<String> = nodes
                .iter()
                .filter(|(c, _)| !has(&tree, c.id))
                .map(|(c, _)| c.id.to_string())
                .take(10)
                .collect();
            let what = format!(
                "{} categories are not below the root and are not shown (ids {})",
                nodes.len() - count,
                left.join(", ")
            );
            // None shown is the root's fault; a few left out may be other sites' columns.
            problems.push(if count == 0 {
                Problem::error(what, "", "dialect.categories.root")
            } else {
                Problem::warning(what, "", "dialect.categories.root")
            });
        }
        // A flat list read without its parents: everything at the top.
        if nodes.len() > 5 && nodes.iter().all(|(_, p)| p.is_none()) && tree.len() == count {
            let items = match &source {
                CategorySource::List(payload) => self
                    .dialect()
                    .category_items(payload)
                    .map(<[_]>::to_vec)
                    .unwrap_or_default(),
                CategorySource::Levels(_) => Vec::new(),
            };
            let key = "dialect.fields.category.parent_id";
            problems.push(
                Problem::warning(
                    format!(
                        "all {count} categories are at the top: none has a parent at {} (the \
                         portal's menus will be one flat level)",
                        self.dialect().category.parent_id.describe()
                    ),
                    "items",
                    key,
                )
                .with_fix(parent_key_like(&items).map(|k| format!("{key} = \"{k}\""))),
            );
        }
        problems.extend(self.routes(&urls));
        problems.extend(unrouted(&tree));
        problems.extend(self.kinds(&tree));
        let summary = format!("{count} categories, {} at the top", tree.len());
        let calls = match &source {
            CategorySource::List(_) => String::new(),
            CategorySource::Levels(levels) => format!(" ({} children calls)", levels.len()),
        };
        self.record(
            "category/list".to_owned(),
            started,
            "200".to_owned(),
            summary + &calls,
            problems,
        );
        Some(tree)
    }

    /// Categories whose kind, as the CMS gives it, is not the one the portal's route table gives
    /// their route: a list shown as a single page (its pager, feed and site-map lines gone) or
    /// the reverse. A route whose kind `dialect.categories.types` sets is the integrator's choice.
    fn kinds(&self, tree: &[Category]) -> Vec<Problem> {
        let key = "dialect.categories.types";
        let mut problems = Vec::new();
        walk(tree, &mut |c| {
            let (Some(table), Some(kind)) = (portal_routes::kind_of(&c.url), c.kind.as_deref())
            else {
                return;
            };
            let shows = |k: &str| {
                if k == "list" {
                    "a list"
                } else {
                    "a single page"
                }
            };
            if table != "group"
                && (kind == "list") != (table == "list")
                && !self.dialect().types_route(&c.url)
            {
                problems.push(
                    Problem::warning(
                        format!(
                            "the CMS gives {} ({}) the kind \"{kind}\": the portal shows it as {} \
                             where its route is {}",
                            c.url,
                            c.name,
                            shows(kind),
                            shows(table)
                        ),
                        "items",
                        key,
                    )
                    .with_fix(Some(format!("[{key}] \"{}\" = \"{table}\"", c.url))),
                );
            }
        });
        problems
    }

    /// The portal routes the categories lead to, against those declared absent.
    fn routes(&self, urls: &HashSet<String>) -> Vec<Problem> {
        let absent = self.dialect().absent_routes();
        let absent_key = "dialect.categories.absent";
        let mut problems = Vec::new();
        let mut declared = Vec::new();
        for route in PORTAL_ROUTES {
            let listed = absent.iter().any(|a| a == route);
            match (urls.contains(*route), listed) {
                (true, true) => problems.push(
                    Problem::warning(
                        format!(
                            "{route} is listed as absent but the CMS has it: the portal shows it"
                        ),
                        "",
                        absent_key,
                    )
                    .with_fix(Some(format!("take \"{route}\" out of {absent_key}"))),
                ),
                (false, true) => declared.push(*route),
                (false, false) => problems.push(Problem::warning(
                    format!("no category leads to the portal route {route}"),
                    "",
                    "dialect.categories.routes (or dialect.fields.category.url), or \
                     dialect.categories.absent",
                )),
                (true, false) => {}
            }
        }
        // One snippet for them all, on the first: the sections the CMS has none of.
        let missing: Vec<String> = PORTAL_ROUTES
            .iter()
            .filter(|r| !urls.contains(**r) && !absent.iter().any(|a| a == *r))
            .map(|r| format!("\"{r}\""))
            .collect();
        if let Some(first) = problems
            .iter_mut()
            .find(|p| p.what.starts_with("no category leads"))
        {
            let listed = absent
                .iter()
                .filter(|a| !urls.contains(*a) && PORTAL_ROUTES.contains(&a.as_str()))
                .map(|a| format!("\"{a}\""));
            let all: Vec<String> = listed.chain(missing).collect();
            first.fix = Some(format!(
                "{absent_key} = [{}]   # when the CMS has none of these sections",
                all.join(", ")
            ));
        }
        for route in absent {
            if !PORTAL_ROUTES.contains(&route.as_str()) {
                problems.push(Problem::warning(
                    format!("{route} is listed as absent but is not a portal route"),
                    "",
                    absent_key,
                ));
            }
        }
        if !declared.is_empty() {
            problems.push(Problem::info(
                format!(
                    "declared absent, not looked for: {} (the portal has no content there)",
                    declared.join(", ")
                ),
                absent_key,
            ));
        }
        problems
    }

    /// One page of a category's articles, asked for and mapped the way the gateway does; its
    /// check records the summary or the problem. `None` when the page could not be read.
    async fn page(
        &mut self,
        category: u64,
        page: u32,
        size: u32,
    ) -> Option<(ArticlePage, Vec<Value>)> {
        let endpoint = format!("article/list categoryId={category} page={page}");
        let call = CmsCall::Articles {
            category: Some(category),
            page,
            size,
        };
        let path_key = "dialect.endpoints.article_list.path";
        let started = Instant::now();
        let answered = match self.ask(&call).await {
            Ok(answered) => answered,
            // Past the last page many CMSs answer 400 or 404: the gateway shows an empty page.
            Err(Failed {
                err:
                    UpstreamError::Status {
                        code: code @ (400 | 404),
                        ..
                    },
                ..
            }) if page > 1 => {
                let before = u64::from(page - 1) * u64::from(size);
                self.record(
                    endpoint,
                    started,
                    code.to_string(),
                    format!("no page {page} (read as an empty page)"),
                    Vec::new(),
                );
                return Some((
                    ArticlePage {
                        content: Vec::new(),
                        total_elements: before,
                        total_pages: u64::from(page - 1),
                        page,
                        size,
                    },
                    Vec::new(),
                ));
            }
            Err(failed) => {
                self.failed(endpoint, started, &call, path_key, failed);
                return None;
            }
        };
        self.record(
            endpoint,
            started,
            "200".to_owned(),
            String::new(),
            Vec::new(),
        );
        self.list_headers = answered.headers.clone();
        let (total, total_pages) = self.dialect().header_totals(&answered.headers);
        let context = PageContext {
            category: Some(category),
            total,
            total_pages,
        };
        match self
            .dialect()
            .page_of(&answered.payload, page, size, &context)
        {
            Ok(found) => {
                self.last().summary = format!(
                    "{} items, total {}",
                    found.content.len(),
                    found.total_elements
                );
                let raw = self
                    .dialect()
                    .lists
                    .items
                    .paths
                    .iter()
                    .find_map(|p| p.get(&answered.payload)?.as_array().cloned())
                    .unwrap_or_default();
                Some((found, raw))
            }
            Err(problem) => {
                let fix = (problem.key == "dialect.lists.items")
                    .then(|| items_fix(self.dialect(), &answered.payload))
                    .flatten();
                self.last().problems.push(from_shape(problem).with_fix(fix));
                None
            }
        }
    }

    /// Page 1 and page 2 of a list with enough articles; returns an article id and a file.
    /// The first two articles of the first list with any (the second in case the first is a
    /// draft the list shows but the detail does not), and the first's cover.
    async fn lists(&mut self, tree: &[Category]) -> Option<(Vec<u64>, Option<String>)> {
        let mut lists = Vec::new();
        walk(tree, &mut |c| {
            if c.kind.as_deref() == Some("list") || c.kind.is_none() {
                lists.push(c.id);
            }
        });
        const SIZE: u32 = 2;
        let mut first_article = None;
        // Every item read, for the fields empty on all; and the check of the first page with any.
        let mut sampled: Vec<Article> = Vec::new();
        let mut raw_sampled: Vec<Value> = Vec::new();
        let mut sample_check = None;
        for category in lists.into_iter().take(12) {
            let (one, raw) = self.page(category, 1, SIZE).await?;
            if first_article.is_none() {
                first_article = one.content.first().map(|a| {
                    (
                        one.content.iter().take(2).map(|a| a.id).collect(),
                        a.cover.clone(),
                    )
                });
            }
            if !one.content.is_empty() && sample_check.is_none() {
                sample_check = Some(self.checks.len() - 1);
            }
            sampled.extend(one.content.iter().cloned());
            raw_sampled.extend(raw);
            if one.content.len() as u32 > SIZE {
                self.last().problems.push(Problem::warning(
                    format!("asked for {SIZE} items, the CMS gave {}", one.content.len()),
                    "items",
                    "dialect.paging.size",
                ));
            }
            if one.total_elements < one.content.len() as u64 {
                self.last().problems.push(Problem::warning(
                    format!(
                        "the total ({}) is less than the items on the page ({})",
                        one.total_elements,
                        one.content.len()
                    ),
                    "payload",
                    "dialect.lists.total",
                ));
            }
            if one.total_elements <= u64::from(SIZE) {
                continue;
            }
            let page_one = self.checks.len() - 1;
            let (two, raw) = self.page(category, 2, SIZE).await?;
            sampled.extend(two.content.iter().cloned());
            raw_sampled.extend(raw);
            let ids = |p: &ArticlePage| p.content.iter().map(|a| a.id).collect::<Vec<_>>();
            if !two.content.is_empty() && ids(&two) == ids(&one) {
                self.last().problems.push(Problem::error(
                    "page 2 is the same as page 1: the CMS did not see the page number",
                    "items",
                    "dialect.paging.page / dialect.paging.page_base / dialect.paging.style",
                ));
            } else if two.content.is_empty() {
                self.last().problems.push(Problem::warning(
                    format!(
                        "page 2 is empty although the total is {}",
                        one.total_elements
                    ),
                    "items",
                    "dialect.paging.page_base / dialect.lists.total",
                ));
            }
            if two.total_elements != one.total_elements && !two.content.is_empty() {
                // Most often the body's "total" counts the page, and the true total is in a
                // header the dialect does not read yet.
                let header = ["X-Total-Count", "X-WP-Total", "X-Total", "Total-Count"]
                    .into_iter()
                    .find(|name| self.list_headers.contains_key(*name));
                let (key, fix) = match header {
                    Some(name) => (
                        "dialect.lists.total_header",
                        Some(format!("dialect.lists.total_header = \"{name}\"")),
                    ),
                    None => ("dialect.lists.total", None),
                };
                self.last().problems.push(
                    Problem::warning(
                        format!(
                            "the total changed between pages ({} then {})",
                            one.total_elements, two.total_elements
                        ),
                        "payload",
                        key,
                    )
                    .with_fix(fix),
                );
            }
            let times: Vec<&str> = one
                .content
                .iter()
                .chain(&two.content)
                .filter_map(|a| a.publish_time.as_deref())
                .collect();
            if let Some(problem) = order(&times) {
                self.checks[page_one].problems.push(problem);
            }
            break;
        }
        if let Some(at) = sample_check {
            let mut problems = self.empty_fields(&sampled, &raw_sampled);
            problems.extend(self.misread_fields(&sampled, &raw_sampled));
            problems.extend(drafts_listed(&raw_sampled));
            self.checks[at].problems.extend(problems);
        }
        if first_article.is_none() {
            self.checks.push(Check {
                endpoint: "article/list".to_owned(),
                status: "-".to_owned(),
                latency_ms: 0,
                summary: "no articles".to_owned(),
                problems: vec![Problem::warning(
                    "no list category has any article: nothing to check the list and detail with",
                    "",
                    "dialect.endpoints.article_list.param",
                )],
            });
        }
        first_article
    }

    /// Mapped fields empty on every item sampled: most often a path the CMS does not use.
    fn empty_fields(&self, sampled: &[Article], raw: &[Value]) -> Vec<Problem> {
        if sampled.len() < 2 {
            return Vec::new();
        }
        let fields = &self.dialect().article;
        SAMPLED
            .iter()
            .filter(|(name, _, _)| sampled.iter().all(|a| field_value(a, name).is_none()))
            .map(|(name, key, hints)| {
                let paths = match *key {
                    "summary" => fields.summary.describe(),
                    "cover" => fields.cover.describe(),
                    "publish_time" => fields.publish_time.describe(),
                    _ => fields.author.describe(),
                };
                let key = format!("dialect.fields.article.{key}");
                Problem::warning(
                    format!(
                        "{name} is empty on every one of the {} articles sampled (read at {paths})",
                        sampled.len()
                    ),
                    "items",
                    &key,
                )
                .with_fix(filled_key_like(raw, hints).map(|k| format!("{key} = \"{k}\"")))
            })
            .collect()
    }

    /// Fields that map but read wrong, each a blind spot an integrator met: titles still
    /// HTML-escaped (`&#8221;`) with `text_format = "plain"`, an author that is a user's number,
    /// covers left at the CMS's own address (the portal's policy blocks images from elsewhere).
    fn misread_fields(&self, sampled: &[Article], raw: &[Value]) -> Vec<Problem> {
        let mut problems = Vec::new();
        let escaped = |text: &str| {
            text.match_indices('&').any(|(i, _)| {
                let rest = &text[i + 1..];
                let entity = rest.split(';').next().unwrap_or("");
                rest.contains(';')
                    && entity.len() <= 8
                    && !entity.is_empty()
                    && (entity.starts_with('#') || entity.chars().all(|c| c.is_ascii_alphabetic()))
            })
        };
        if let Some(article) = sampled.iter().find(|a| escaped(&a.title)) {
            problems.push(
                Problem::warning(
                    format!(
                        "titles are still HTML-escaped (\"{}\"): the CMS writes its text as HTML",
                        article.title.chars().take(60).collect::<String>()
                    ),
                    "items",
                    "dialect.text_format",
                )
                .with_fix(Some("dialect.text_format = \"html\"".to_owned())),
            );
        }
        let authors: Vec<&str> = sampled.iter().filter_map(|a| a.author.as_deref()).collect();
        if !authors.is_empty()
            && authors
                .iter()
                .all(|a| a.chars().all(|c| c.is_ascii_digit()))
        {
            let key = "dialect.fields.article.author";
            problems.push(
                Problem::warning(
                    format!(
                        "the author reads as a number (\"{}\"): a user's id, not a name visitors can read",
                        authors[0]
                    ),
                    "items",
                    key,
                )
                .with_fix(
                    filled_key_like(raw, &["author_name", "authorName", "_embedded.author.0.name", "writer", "source"])
                        .map(|k| format!("{key} = \"{k}\"")),
                ),
            );
        }
        // As the portal will show it: a file below the file store becomes a gateway path.
        let links = self.upstream.links();
        if let Some(cover) = sampled.iter().filter_map(|a| a.cover.as_deref()).find(|c| {
            links
                .rewrite(c)
                .is_some_and(|shown| !shown.starts_with('/') || shown.starts_with("//"))
        }) {
            problems.push(Problem::warning(
                format!(
                    "covers stay at the CMS's own address ({}): browsers may load images from the \
                     portal only, so they will not show. Files are read below upstream.base_url at \
                     dialect.endpoints.files; a file store elsewhere needs a base_url above both",
                    cover.chars().take(80).collect::<String>()
                ),
                "items",
                "dialect.endpoints.files",
            ));
        }
        problems
    }

    /// The CMS's search, when the dialect names one: a piece of an article's title must find it.
    async fn search(&mut self, id: u64, title: &str) {
        // Eight characters of the title: specific enough to list the article on the first page.
        let keyword: String = title.trim().chars().take(8).collect();
        let keyword = keyword.trim().to_owned();
        if keyword.is_empty() {
            return;
        }
        let endpoint = format!("article/search keyword={keyword}");
        let call = CmsCall::Search {
            keyword: keyword.as_str().into(),
            page: 1,
            size: 20,
        };
        let Some(answered) = self
            .call(&endpoint, call, "dialect.endpoints.article_search.path")
            .await
        else {
            return;
        };
        let (total, total_pages) = self.dialect().header_totals(&answered.headers);
        let context = PageContext {
            category: None,
            total,
            total_pages,
        };
        match self.dialect().page_of(&answered.payload, 1, 20, &context) {
            Err(problem) => {
                let fix = (problem.key == "dialect.lists.items")
                    .then(|| items_fix(self.dialect(), &answered.payload))
                    .flatten();
                self.last().problems.push(from_shape(problem).with_fix(fix));
            }
            Ok(found) => {
                self.last().summary = format!(
                    "{} items, total {}",
                    found.content.len(),
                    found.total_elements
                );
                let shown = found.content.len() as u64;
                if shown < 20 && found.total_elements > shown {
                    // A first page that is not full is the last: a larger total counts something
                    // else, and visitors would get pager links to empty pages.
                    self.last().problems.push(Problem::warning(
                        format!(
                            "the search's first page holds {shown} of a page of 20, yet its total \
                             is {}: the total counts something other than what was found (Directus's \
                             meta=total_count is the whole collection; meta=filter_count is the \
                             filter's)",
                            found.total_elements
                        ),
                        "payload",
                        "dialect.lists.total",
                    ));
                }
                if !found.content.iter().any(|a| a.id == id) {
                    self.last().problems.push(Problem::warning(
                        format!(
                            "searching for “{keyword}”, from the title of article {id}, did not \
                             list it: the portal's search will miss articles"
                        ),
                        "payload",
                        "dialect.endpoints.article_search (path or param)",
                    ).with_fix(Some(
                        "search.mode = \"index\" (the gateway's own index, which segments Chinese)"
                            .to_owned(),
                    )));
                }
            }
        }
    }

    /// The detail of the first of `ids`; when the CMS has none for it but has one for the
    /// second, the first is an article the list shows and the detail hides (a draft a token sees
    /// in lists, an article not yet published), not a mapping at fault: one warning says so.
    async fn details(&mut self, ids: &[u64]) -> Option<(u64, String)> {
        let (&first, rest) = ids.split_first()?;
        if let Some(title) = self.detail(first).await {
            return Some((first, title));
        }
        let first_check = self.checks.len() - 1;
        let missing = {
            let check = &self.checks[first_check];
            check.status == "404"
                || check.problems.iter().any(|p| {
                    p.key == "dialect.endpoints.article_detail.item"
                        || p.what.starts_with("the CMS answered nothing")
                        || p.what.contains("不存在")
                })
        };
        let &second = rest.first()?;
        if !missing {
            return None;
        }
        let Some(title) = self.detail(second).await else {
            // Both missing: the detail itself is at fault, as the first check says; once.
            self.checks.pop();
            return None;
        };
        let key = "dialect.endpoints.article_list.query";
        self.checks[first_check].problems = vec![
            Problem::warning(
                format!(
                    "article {first} is in the list but its detail has none (article {second}'s \
                     has): a draft or unpublished article the list shows, which visitors would \
                     see listed and then not find"
                ),
                "payload",
                key,
            )
            .with_fix(Some(format!(
                "{key} = {{ status = \"publish\" }}   # a filter to published articles in the \
                 CMS's own terms; or a credential that sees published content only"
            ))),
        ];
        Some((second, title))
    }

    /// `[dialect.changes]`, when set: what changed in the last week, read as the poller reads it
    /// (else the poller only logs its failure, every interval).
    async fn changes(&mut self) {
        if self.dialect().changes_every().is_none() {
            return;
        }
        let since: chrono::DateTime<chrono::Utc> =
            (std::time::SystemTime::now() - Duration::from_secs(7 * 24 * 3600)).into();
        let call = CmsCall::Changes {
            since: std::sync::Arc::from(self.dialect().changes_since(since)),
        };
        let endpoint = format!("changes since {}", self.dialect().changes_since(since));
        let Some(answered) = self.call(&endpoint, call, "dialect.changes.path").await else {
            return;
        };
        match self.dialect().changed_articles(&answered.payload) {
            Ok(changed) => {
                self.last().summary =
                    format!("{} articles changed in the last week", changed.len());
            }
            Err(problem) => self.last().problems.push(from_shape(problem)),
        }
    }

    /// The detail of an id the CMS surely does not have: its answer must read as "not found"
    /// (404 文章 N 不存在。 for visitors), not as a refusal or an error. Headless CMSs answer 403
    /// for an id they do not have; the fix is the endpoint's `not_found`.
    async fn unknown_article(&mut self) {
        const NONE: u64 = 987_654_321;
        let call = CmsCall::Article { id: NONE };
        let endpoint = format!("article/detail id={NONE} (none)");
        let started = Instant::now();
        let Ok((raw, read)) = self.upstream.answer(call.clone()).await else {
            return;
        };
        let status = raw.status.as_u16();
        let key = "dialect.endpoints.article_detail.not_found";
        let mut problems = Vec::new();
        let summary = if self.dialect().is_not_found(&call, raw.status) {
            format!("not found (HTTP {status}, as not_found says)")
        } else {
            match read {
                Err(UpstreamError::Status {
                    code: 404 | 410, ..
                }) => "not found, as it should be".to_owned(),
                Ok(payload) if self.dialect().detail_item(&payload).is_none() => {
                    "nothing, read as not found".to_owned()
                }
                Ok(payload) => {
                    let answered = self
                        .dialect()
                        .detail_item(&payload)
                        .and_then(|item| self.dialect().article(item, "payload").ok())
                        .map(|a| a.id);
                    // A CMS that has it after all, or an answer the mapping cannot read (the
                    // detail of a real article is checked above): nothing to learn here.
                    let Some(answered) = answered.filter(|id| *id != NONE) else {
                        return;
                    };
                    let answered = format!("article {answered}");
                    problems.push(Problem::error(
                        format!(
                            "asked for article {NONE}, which the CMS does not have, it answered \
                             {answered}: the id is not sent where the CMS reads it"
                        ),
                        "payload",
                        "dialect.endpoints.article_detail (path or param)",
                    ));
                    String::new()
                }
                Err(_) => {
                    let what = if status == 403 || status == 401 {
                        "a refusal (visitors would read 无权访问)"
                    } else {
                        "an error (visitors would read that the page failed)"
                    };
                    problems.push(
                        Problem::warning(
                            format!(
                                "an article that does not exist answers HTTP {status}, read as \
                                 {what}, not 404 文章不存在"
                            ),
                            "",
                            key,
                        )
                        .with_fix(Some(format!("{key} = [{status}]"))),
                    );
                    String::new()
                }
            }
        };
        self.record(endpoint, started, status.to_string(), summary, problems);
    }

    /// The article's check; its title when it could be read (for the search check).
    async fn detail(&mut self, id: u64) -> Option<String> {
        let endpoint = format!("article/detail id={id}");
        let payload = self
            .call(
                &endpoint,
                CmsCall::Article { id },
                "dialect.endpoints.article_detail.path",
            )
            .await?
            .payload;
        if payload.is_null() {
            self.last().problems.push(Problem::error(
                "the CMS answered nothing for an article its list holds",
                "payload",
                "dialect.endpoints.article_detail",
            ));
            return None;
        }
        let Some(item) = self.dialect().detail_item(&payload) else {
            self.last().problems.push(Problem::error(
                "no article where the detail's item should be",
                "payload",
                "dialect.endpoints.article_detail.item",
            ));
            return None;
        };
        match self.dialect().article(item, "payload") {
            Err(problem) => {
                self.last().problems.push(from_shape(problem));
                None
            }
            Ok(article) => {
                if article.id != id {
                    self.last().problems.push(Problem::error(
                        format!(
                            "asked for article {id}, the CMS answered article {}",
                            article.id
                        ),
                        "payload.id",
                        "dialect.endpoints.article_detail (path or param)",
                    ));
                }
                if article.content.as_deref().is_none_or(str::is_empty) {
                    let paths = self.dialect().article.content.describe();
                    self.last().problems.push(Problem::warning(
                        format!("the article has no body at {paths}"),
                        "payload",
                        "dialect.fields.article.content",
                    ));
                }
                let body = article.content.as_deref().unwrap_or("");
                if body.contains("embedtype=\"image\"") && !self.dialect().resolves_images() {
                    self.last().problems.push(
                        Problem::warning(
                            "the body embeds images by id (<embed embedtype=\"image\" id=…>), \
                             which the portal drops until it knows where to find them",
                            "payload",
                            "dialect.endpoints.image_detail",
                        )
                        .with_fix(Some(
                            "dialect.endpoints.image_detail = { path = \"api/v2/images/{id}/\" } \
                             (or dialect.links.image_file = \"{id}\" for a store serving files by id)"
                                .to_owned(),
                        )),
                    );
                }
                let full_title = article.title.clone();
                let title: String = full_title.chars().take(24).collect();
                let article = finish_article(article, self.upstream.links());
                self.last().summary = format!(
                    "“{title}”, body {} bytes",
                    article.content.map_or(0, |c| c.len())
                );
                Some(full_title)
            }
        }
    }

    async fn file(&mut self, cover: &str) {
        let Some(rewritten) = self.upstream.links().file_field(cover) else {
            return;
        };
        let Some(path) = rewritten.strip_prefix(crate::cms::FILES_ROUTE) else {
            return;
        };
        let path = path.split('?').next().unwrap_or(path).to_owned();
        let segments: Vec<&str> = path.split('/').collect();
        let started = Instant::now();
        let endpoint = format!("files {path}");
        match self
            .upstream
            .get_file(&segments, &[], &HeaderMap::new())
            .await
        {
            Ok(file) if file.status.is_success() => {
                let kind = file
                    .headers
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("?")
                    .to_owned();
                self.record(
                    endpoint,
                    started,
                    file.status.as_u16().to_string(),
                    kind,
                    Vec::new(),
                );
            }
            Ok(file) => {
                let problem = Problem::error(
                    format!(
                        "a cover the CMS names is not in its file store (HTTP {})",
                        file.status.as_u16()
                    ),
                    "",
                    "dialect.endpoints.files",
                );
                self.record(
                    endpoint,
                    started,
                    file.status.as_u16().to_string(),
                    String::new(),
                    vec![problem],
                );
            }
            Err(err) => {
                let (status, problem) =
                    from_error(&err, "dialect.endpoints.files", &Said::default());
                self.record(endpoint, started, status, String::new(), vec![problem]);
            }
        }
    }
}

/// A list that does not come newest first: more pairs in ascending order than descending.
fn order(times: &[&str]) -> Option<Problem> {
    // `yyyy-MM-dd HH:mm:ss`, as every time is given: compared as text.
    let (mut older_first, mut newer_first) = (0, 0);
    for pair in times.windows(2) {
        match pair[0].cmp(pair[1]) {
            std::cmp::Ordering::Less => older_first += 1,
            std::cmp::Ordering::Greater => newer_first += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    (older_first > newer_first).then(|| {
        Problem::warning(
            format!(
                "the list comes oldest first ({} before {}): the portal shows the newest first",
                times[0],
                times[times.len() - 1]
            ),
            "items",
            "dialect.endpoints.article_list.query (the CMS's sort parameter, e.g. \
             query = { orderBy = \"publishTime\", order = \"desc\" })",
        )
    })
}

/// Top-level categories that lead to no portal route, themselves or below (WordPress's
/// 未分类 "Uncategorized", whose address is the site's root; another site's column): their
/// articles show in no section, no menu and no feed.
fn unrouted(tree: &[Category]) -> Option<Problem> {
    fn leads(c: &Category) -> bool {
        PORTAL_ROUTES.contains(&c.url.as_str()) || c.sub_category.iter().any(leads)
    }
    let lost: Vec<&Category> = tree.iter().filter(|c| !leads(c)).collect();
    let first = lost.first()?;
    let key = "dialect.categories.routes";
    let named: Vec<String> = lost
        .iter()
        .take(5)
        .map(|c| format!("{} {} (route \"{}\")", c.id, c.name, c.url))
        .collect();
    Some(
        Problem::warning(
            format!(
                "{} top-level categories lead to no portal route, so their articles show in no \
                 section: {}",
                lost.len(),
                named.join(", ")
            ),
            "items",
            key,
        )
        .with_fix(Some(format!(
            "[{key}] \"{}\" = \"/news_center/company_announcement/1\"   # its section on the \
             portal; none needed when it holds no articles",
            first.id
        ))),
    )
}

/// A list that shows unpublished articles: the credential sees drafts (an administrator's token),
/// and visitors would read them. Told by what such items commonly carry: a `status` that is not
/// published (Directus, WordPress, most CMSs), or Strapi's `publishedAt: null`.
fn drafts_listed(raw: &[Value]) -> Option<Problem> {
    const UNPUBLISHED: [&str; 6] = [
        "draft",
        "pending",
        "private",
        "future",
        "unpublished",
        "archived",
    ];
    let draft = raw.iter().find_map(|item| {
        let status = item.get("status").and_then(Value::as_str);
        if let Some(status) =
            status.filter(|s| UNPUBLISHED.contains(&s.to_ascii_lowercase().as_str()))
        {
            return Some(format!("status \"{status}\""));
        }
        (item.get("publishedAt") == Some(&Value::Null)).then(|| "publishedAt null".to_owned())
    })?;
    let key = "dialect.endpoints.article_list.query";
    Some(
        Problem::warning(
            format!(
                "the list shows an unpublished article ({draft}): the credential sees drafts, and \
                 visitors would read them"
            ),
            "items",
            key,
        )
        .with_fix(Some(format!(
            "a read-only credential that sees published content only; or {key} with the CMS's \
             published filter (Directus: \"filter[status][_eq]\" = \"published\"; WordPress: \
             status = \"publish\"; Strapi: status = \"published\")"
        ))),
    )
}

fn walk(tree: &[Category], f: &mut impl FnMut(&Category)) {
    for c in tree {
        f(c);
        walk(&c.sub_category, f);
    }
}

fn has(tree: &[Category], id: u64) -> bool {
    tree.iter().any(|c| c.id == id || has(&c.sub_category, id))
}

/// Parents that do not exist (a warning: the CMS's data, or the wrong field), and parents that
/// lead round in a circle (an error: the wrong field, surely).
fn integrity(dialect: &Dialect, nodes: &[(Category, Option<u64>)]) -> Vec<Problem> {
    let root = dialect.category_root();
    let parents: HashMap<u64, Option<u64>> = nodes.iter().map(|(c, p)| (c.id, *p)).collect();
    let is_top = |p: Option<u64>| matches!(p, None | Some(0)) || p == Some(root);
    let max_depth = dialect.category_depth() as usize;
    let mut problems = Vec::new();
    // Categories the portal leaves out for their depth: how many, and the first.
    let (mut too_deep, mut first_too_deep) = (0, None);
    for (i, (category, parent)) in nodes.iter().enumerate() {
        if let Some(parent) = parent.filter(|p| !is_top(Some(*p)))
            && !parents.contains_key(&parent)
        {
            problems.push(Problem::warning(
                format!(
                    "category {} names parent {parent}, which the CMS does not list",
                    category.id
                ),
                &format!("items[{i}]"),
                "dialect.fields.category.parent_id",
            ));
        }
        // Up the chain of parents, at most as far as the portal shows: a walk as long as the
        // chain would make a CMS's 10 000-long chain 50 million steps.
        let mut seen = HashSet::from([category.id]);
        let mut at = *parent;
        while let Some(p) = at.filter(|p| !is_top(Some(*p))) {
            if seen.len() >= max_depth {
                too_deep += 1;
                first_too_deep.get_or_insert((i, category.id));
                break;
            }
            if !seen.insert(p) {
                problems.push(Problem::error(
                    format!(
                        "category {} is its own ancestor (a cycle through {p})",
                        category.id
                    ),
                    &format!("items[{i}]"),
                    "dialect.fields.category.parent_id",
                ));
                break;
            }
            at = parents.get(&p).copied().flatten();
        }
    }
    if let Some((i, id)) = first_too_deep {
        problems.push(Problem::warning(
            format!(
                "{too_deep} categories lie more than {max_depth} levels below the top (the first: category {id}); the portal leaves them out"
            ),
            &format!("items[{i}]"),
            "dialect.categories.max_depth",
        ));
    }
    if nodes.len() > MAX_CATEGORIES {
        problems.push(Problem::warning(
            format!(
                "the CMS lists {} categories; the portal shows the first {MAX_CATEGORIES} reached from the top",
                nodes.len()
            ),
            "items",
            "dialect.categories.root",
        ));
    }
    problems
}

/// The base URL as it may be printed: without user information.
fn printable(config: &Config) -> String {
    let mut url = config.upstream.base_url.clone();
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.to_string()
}

/// Runs every check against the configured CMS.
pub async fn run(config: &Config) -> Result<Report, ClientError> {
    // The checker makes a few dozen calls at most; the serving limits are not its business.
    let limits = LimitsConfig {
        upstream_per_second: 1000,
        upstream_burst: 1000,
        ..config.limits.clone()
    };
    let upstream = Upstream::new(
        &config.upstream,
        &limits,
        config.compiled_dialect(),
        Default::default(),
    )?;
    let mut checker = Checker {
        upstream,
        written: config.dialect.clone(),
        checks: Vec::new(),
        list_headers: HeaderMap::new(),
    };
    if let Some(tree) = checker.categories().await
        && let Some((ids, cover)) = checker.lists(&tree).await
    {
        if let Some((id, title)) = checker.details(&ids).await {
            checker.unknown_article().await;
            checker.changes().await;
            if checker.dialect().has_search() {
                checker.search(id, &title).await;
            }
        }
        if let Some(cover) = cover {
            checker.file(&cover).await;
        }
    }
    // Which search the portal will run, and why (`[search] mode`): the row says it; a finding
    // only where the CMS's search is not what runs.
    let cms_searches = checker.dialect().has_search();
    let search = &config.search;
    let uses_index = search.uses_index(cms_searches);
    checker.checks.push(Check {
        endpoint: "search".to_owned(),
        status: "-".to_owned(),
        latency_ms: 0,
        summary: match (uses_index, cms_searches) {
            (true, _) => "the gateway's index".to_owned(),
            (false, true) => format!(
                "the CMS's search (search.mode = \"{}\")",
                if search.mode == crate::search::SearchMode::Cms {
                    "cms"
                } else {
                    "auto"
                }
            ),
            (false, false) => "none".to_owned(),
        },
        problems: if uses_index || !cms_searches {
            vec![Problem::info(search.explain(cms_searches), "search.mode")]
        } else {
            Vec::new()
        },
    });
    let mut checks = checker.checks;
    // Whatever a CMS echoes back (the secret, or the Basic header made of it), it is not printed.
    let secret = config.upstream.secret().expose_secret().to_owned();
    let basic = base64::engine::general_purpose::STANDARD
        .encode(format!("{}:{secret}", config.upstream.client_id));
    let hide = |text: &mut String| {
        if !secret.is_empty() && text.contains(&secret) {
            *text = text.replace(&secret, "***");
        }
        if text.contains(&basic) {
            *text = text.replace(&basic, "***");
        }
        // Every other secret of the config, in the forms it travels in.
        if let std::borrow::Cow::Owned(clean) = crate::redact::redact(text) {
            *text = clean;
        }
        // And nothing a terminal would act on (an escape sequence, a carriage return redrawing
        // a line): what the CMS said is printed as text. (Line breaks are the report's own, in
        // its suggestions; a CMS's message has none left: `Dialect::message_of`.)
        let acts = |c: char| c.is_control() && c != '\n';
        if text.chars().any(acts) {
            *text = text
                .chars()
                .map(|c| if acts(c) { ' ' } else { c })
                .collect();
        }
    };
    // A refused credential names the keys of the configured style (a token has no client id).
    let credential_key = match config.upstream.auth {
        AuthStyle::Basic => CREDENTIAL_KEY,
        AuthStyle::Bearer => {
            "upstream.client_secret (the bearer token; or upstream.client_secret_file)"
        }
        AuthStyle::Header | AuthStyle::Query => {
            "upstream.client_secret (or upstream.client_secret_file) / upstream.auth_name"
        }
    };
    for check in &mut checks {
        hide(&mut check.endpoint);
        hide(&mut check.summary);
        for problem in &mut check.problems {
            if problem.key == CREDENTIAL_KEY {
                problem.key = credential_key.to_owned();
            }
            hide(&mut problem.what);
            if let Some(fix) = &mut problem.fix {
                hide(fix);
            }
        }
    }
    Ok(Report::new(printable(config), checks))
}

fn plural(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// The report as a table for a terminal: each call with its status, latency and what was found,
/// its findings indented under it, and the count of errors and warnings last.
pub fn render(report: &Report) -> String {
    let mut out = format!("upstream {}\n\n", report.upstream);
    let width = report
        .checks
        .iter()
        .map(|c| c.endpoint.chars().count())
        .max()
        .unwrap_or(8)
        .max(8);
    out.push_str(&format!(
        "{:<width$}  {:<11}  {:>8}  {}\n",
        "ENDPOINT", "STATUS", "LATENCY", "RESULT"
    ));
    for check in &report.checks {
        let latency = if check.status == "-" {
            "-".to_owned()
        } else {
            format!("{} ms", check.latency_ms)
        };
        let result = if check.summary.is_empty() {
            "-"
        } else {
            check.summary.as_str()
        };
        out.push_str(
            format!(
                "{:<width$}  {:<11}  {latency:>8}  {result}\n",
                check.endpoint, check.status
            )
            .trim_end(),
        );
        out.push('\n');
        for problem in &check.problems {
            let head = format!("  {} {:<8} ", problem.level.mark(), problem.level.word());
            let pad = " ".repeat(head.chars().count());
            out.push_str(&format!("{head}{}\n", problem.what));
            if !problem.at.is_empty() {
                out.push_str(&format!("{pad}where:  {}\n", problem.at));
            }
            if !problem.key.is_empty() {
                out.push_str(&format!("{pad}change: {}\n", problem.key));
            }
            if let Some(fix) = &problem.fix {
                for (i, line) in fix.lines().enumerate() {
                    let label = if i == 0 { "fix:   " } else { "       " };
                    out.push_str(&format!("{pad}{label} {line}\n"));
                }
            }
        }
    }
    out.push('\n');
    out.push_str(match (report.errors, report.warnings) {
        (0, 0) => "Everything maps: the portal can run on this CMS.\n",
        (0, _) => "The portal can run on this CMS; the warnings say what it will lack.\n",
        _ => "The portal cannot run on this CMS until the errors are fixed.\n",
    });
    out.push_str(&format!(
        "{}, {}\n",
        plural(report.errors, "error"),
        plural(report.warnings, "warning")
    ));
    out
}

/// How long the whole check may take before it is given up.
pub const DEADLINE: Duration = Duration::from_secs(120);

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(problems: Vec<Problem>) -> Check {
        Check {
            endpoint: "category/list".to_owned(),
            status: "200".to_owned(),
            latency_ms: 3,
            summary: "9 categories, 3 at the top".to_owned(),
            problems,
        }
    }

    #[test]
    fn check_exit_code_fails_on_errors_only() {
        let warned = Report::new(
            "http://cms/".to_owned(),
            vec![check(vec![
                Problem::warning("w", "", "k"),
                Problem::info("i", "k"),
            ])],
        );
        assert!(warned.ok);
        assert_eq!((warned.errors, warned.warnings), (0, 1));
        assert_eq!(warned.exit_code(), 0);
        let failed = Report::new(
            "http://cms/".to_owned(),
            vec![check(vec![
                Problem::warning("w", "", "k"),
                Problem::error("e", "", "k"),
            ])],
        );
        assert!(!failed.ok);
        assert_eq!(failed.exit_code(), 1);
        let json = serde_json::to_value(&failed).unwrap();
        assert_eq!(json["ok"], false);
        assert_eq!(json["checks"][0]["problems"][1]["level"], "error");
        assert_eq!(json["checks"][0]["problems"][0]["level"], "warning");
    }

    #[test]
    fn check_render_shows_the_summary_beside_the_findings() {
        let report = Report::new(
            "http://cms/".to_owned(),
            vec![check(vec![
                Problem::warning("no category leads to the portal route /party", "", "k")
                    .with_fix(Some("a\nb".to_owned())),
                Problem::error("e", "items[0]", "dialect.fields.category.name"),
            ])],
        );
        let text = render(&report);
        assert!(
            text.contains("200") && text.contains("3 ms  9 categories, 3 at the top\n"),
            "{text}"
        );
        assert!(
            text.contains("  ! warning  no category leads to the portal route /party\n"),
            "{text}"
        );
        assert!(
            text.contains("             fix:    a\n                     b\n"),
            "{text}"
        );
        assert!(text.contains("  ✗ error    e\n             where:  items[0]\n             change: dialect.fields.category.name\n"), "{text}");
        assert!(text.ends_with("1 error, 1 warning\n"), "{text}");
    }

    #[test]
    fn check_suggests_where_items_and_total_are() {
        let payload = json!({"meta": {"page": 1, "totalCount": 31}, "data": {"list": [{"id": 1}]}});
        assert_eq!(first_array(&payload).as_deref(), Some("data.list"));
        assert_eq!(first_total(&payload).as_deref(), Some("meta.totalCount"));
        assert_eq!(first_array(&json!([1])).as_deref(), Some(""));
        assert_eq!(first_total(&json!({"pageCount": 3})), None);
    }

    #[test]
    fn check_excerpt_is_a_short_line() {
        assert_eq!(
            excerpt(
                Some("text/html"),
                b"<html><head><title>301 Moved\n Permanently</title></head></html>"
            ),
            "301 Moved Permanently"
        );
        assert_eq!(
            excerpt(Some("text/html"), b"<h1>Gone</h1>\n<p>away</p>"),
            "Gone away"
        );
        let long = "x".repeat(500);
        assert_eq!(excerpt(None, long.as_bytes()).chars().count(), 161);
    }

    #[test]
    fn check_order_warns_on_oldest_first_only() {
        assert!(
            order(&[
                "2024-01-01 00:00:00",
                "2024-02-01 00:00:00",
                "2024-03-01 00:00:00"
            ])
            .is_some()
        );
        assert!(order(&["2024-03-01 00:00:00", "2024-02-01 00:00:00"]).is_none());
        // A pinned older article first, then newest first.
        assert!(
            order(&[
                "2023-01-01 00:00:00",
                "2024-03-01 00:00:00",
                "2024-02-01 00:00:00",
                "2024-01-01 00:00:00"
            ])
            .is_none()
        );
    }

    #[test]
    fn check_finds_a_parent_field_under_another_name() {
        let items = [
            json!({"id": 1, "parent_code": 0}),
            json!({"id": 2, "parent_code": "1"}),
        ];
        assert_eq!(parent_key_like(&items).as_deref(), Some("parent_code"));
        let items = [json!({"id": 2, "up": {"id": 1}})];
        assert_eq!(parent_key_like(&items), None);
    }
}
