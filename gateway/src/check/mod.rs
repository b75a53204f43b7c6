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

use portal_cms::{
    ClientError, RawAnswer, Upstream, UpstreamError,
    dialect::{
        CategoryShape, CategorySource, CmsCall, Dialect, DialectConfig, MAX_CATEGORIES,
        PageContext, ShapeProblem,
    },
    finish_article,
};
use portal_core::{
    model::{Article, ArticlePage, Category, Id},
    portal_routes::{self, PORTAL_ROUTES},
};
use portal_web::config::{AuthStyle, Config, LimitsConfig};

mod calls;
mod details;
mod lists;
mod render;
mod tree;

use calls::*;
use lists::*;
pub use render::render;
use tree::*;

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

/// The credential in every form a CMS may echo it in: as configured, as the Basic header carries
/// it, percent-encoded, JSON- and HTML-escaped. Taken out of a CMS's body before any of it is cut
/// to an excerpt (a cut secret is no longer found whole), and out of every line of the report.
struct Secrets {
    forms: Vec<String>,
}

impl Secrets {
    /// Shorter runs of a form than this are left (too common to mean the secret); longer ones are
    /// hidden wherever they stand, so a CMS that echoes a piece of the secret prints none of it.
    const RUN: usize = 12;

    fn of(config: &Config) -> Self {
        let secret = config.upstream.secret().expose_secret().to_owned();
        let mut forms = Vec::new();
        if !secret.is_empty() {
            let basic = base64::engine::general_purpose::STANDARD
                .encode(format!("{}:{secret}", config.upstream.client_id));
            let json = serde_json::to_string(&secret).unwrap_or_default();
            let json = json.trim_matches('"').to_owned();
            let percent: String = url::form_urlencoded::byte_serialize(secret.as_bytes()).collect();
            let html = secret
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
                .replace('\'', "&#39;");
            forms = vec![
                secret,
                basic,
                json,
                percent.replace('+', "%20"),
                percent,
                html,
            ];
            forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
            forms.dedup();
        }
        Self { forms }
    }

    fn hide(&self, text: &mut String) {
        // Every whole form first (a run of one form may be part of another, whole).
        for form in &self.forms {
            if text.contains(form.as_str()) {
                *text = text.replace(form.as_str(), "***");
            }
        }
        for form in &self.forms {
            // Any run of RUN characters of it (a CMS that cut what it echoed).
            let chars: Vec<char> = form.chars().collect();
            if chars.len() > Self::RUN {
                for window in chars.windows(Self::RUN) {
                    let run: String = window.iter().collect();
                    if text.contains(&run) {
                        *text = text.replace(&run, "***");
                    }
                }
            }
        }
    }
}

struct Checker {
    upstream: Upstream,
    secrets: Secrets,
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
        limits.cms_ceiling(),
        config.compiled_dialect(),
        Default::default(),
    )?;
    let mut checker = Checker {
        upstream,
        secrets: Secrets::of(config),
        written: config.dialect.clone(),
        checks: Vec::new(),
        list_headers: HeaderMap::new(),
    };
    let own_tree = checker.categories().await;
    if let Some(tree) = &own_tree
        && let Some((ids, cover)) = checker.lists(tree).await
    {
        if let Some((id, title)) = checker.details(&ids).await {
            checker.unknown_article().await;
            checker.changes().await;
            if checker.dialect().has_search() {
                let index = config.search.uses_index(true);
                checker.search(&id, &title, tree, index).await;
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
                if search.mode == portal_search::SearchMode::Cms {
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
    // Each other language's sections, as its pages will ask for them.
    for (code, language) in &config.languages {
        let resolved = language.resolved();
        let mut other = Checker {
            upstream: checker
                .upstream
                .in_language(resolved.dialect.clone(), language.query_pairs()),
            secrets: Secrets::of(config),
            written: config.dialect.clone(),
            checks: Vec::new(),
            list_headers: HeaderMap::new(),
        };
        let theirs = other.categories().await;
        if let (Some(ours), Some(theirs), Some(row)) = (&own_tree, &theirs, other.checks.last_mut())
        {
            // A section the other language lacks is no fault: that language has no such page
            // (its switch leads to its home). Said once, not a warning a route.
            let lacks = |p: &Problem| p.what.starts_with("no category leads to the portal route");
            let missing = row.problems.iter().filter(|p| lacks(p)).count();
            row.problems.retain(|p| !lacks(p));
            row.problems
                .extend(tree::language_problems(code, ours, theirs));
            if missing > 0 {
                row.problems.push(Problem::info(
                    format!("{missing} of the portal's routes have no section in `{code}`: no page there, and the switch on their pages leads to the `{code}` home"),
                    &format!("languages.{code}"),
                ));
            }
        }
        for row in &mut other.checks {
            row.endpoint = format!("{} ({code})", row.endpoint);
        }
        checker.checks.extend(other.checks);
    }
    let mut checks = checker.checks;
    // Whatever a CMS echoes back (the secret, or the Basic header made of it), it is not printed.
    let secrets = Secrets::of(config);
    let hide = |text: &mut String| {
        secrets.hide(text);
        // Every other secret of the config, in the forms it travels in.
        if let std::borrow::Cow::Owned(clean) = portal_core::redact::redact(text) {
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
