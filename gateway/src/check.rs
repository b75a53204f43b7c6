//! `portal-gateway check-upstream`: calls every endpoint of the configured CMS the way the
//! gateway will, and says for each what is wrong, where in the CMS's JSON, and which
//! configuration key to change. Calls go through the upstream client like every other.

use std::{
    collections::{HashMap, HashSet},
    time::{Duration, Instant},
};

use axum::http::HeaderMap;
use secrecy::ExposeSecret;
use serde::Serialize;
use serde_json::Value;

use crate::{
    cms::{
        ClientError, Credential, Upstream, UpstreamError,
        dialect::{CategorySource, CmsCall, Dialect, ShapeProblem},
        finish_article,
    },
    config::{Config, LimitsConfig},
    model::{ArticlePage, Category},
    portal_routes::PORTAL_ROUTES,
};

/// One thing that does not fit.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Problem {
    pub what: String,
    /// Where in the CMS's answer (a path into its JSON), when it is about the answer.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub at: String,
    /// The configuration key to change.
    pub key: String,
}

/// One call and what came of it.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub endpoint: String,
    /// The HTTP status the CMS answered (as the gateway read it), or what stood in its way.
    pub status: String,
    pub latency_ms: u64,
    /// What was found, when all is well.
    pub summary: String,
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub upstream: String,
    pub ok: bool,
    pub checks: Vec<Check>,
}

impl Report {
    pub fn problems(&self) -> impl Iterator<Item = (&Check, &Problem)> {
        self.checks
            .iter()
            .flat_map(|c| c.problems.iter().map(move |p| (c, p)))
    }
}

fn from_shape(problem: ShapeProblem) -> Problem {
    Problem {
        what: problem.what,
        at: problem.at,
        key: problem.key,
    }
}

/// The status and the problem an upstream failure stands for.
fn from_error(err: &UpstreamError, path_key: &str) -> (String, Problem) {
    let (status, what, key) = match err {
        UpstreamError::Unauthorized { msg } | UpstreamError::CredentialRefused { msg } => (
            "401".to_owned(),
            format!(
                "the CMS refused the gateway's credential{}",
                msg.as_ref()
                    .map(|m| format!(" (\"{m}\")"))
                    .unwrap_or_default()
            ),
            "upstream.client_id / upstream.client_secret".to_owned(),
        ),
        UpstreamError::Status { code: 404, msg } => (
            "404".to_owned(),
            format!(
                "the CMS has no such path{}",
                msg.as_ref()
                    .map(|m| format!(" (\"{m}\")"))
                    .unwrap_or_default()
            ),
            path_key.to_owned(),
        ),
        UpstreamError::Status { code, msg } => (
            code.to_string(),
            format!(
                "the CMS answered code {code}{}",
                msg.as_ref()
                    .map(|m| format!(": \"{m}\""))
                    .unwrap_or_default()
            ),
            format!("{path_key} (and its parameters)"),
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
            "the CMS says it is unavailable".to_owned(),
            "upstream.base_url".to_owned(),
        ),
        UpstreamError::BadResponse(detail) => (
            "200".to_owned(),
            format!("the answer does not fit the dialect: {detail}"),
            "dialect.envelope".to_owned(),
        ),
        UpstreamError::Ceiling { .. } | UpstreamError::Busy => (
            "limited".to_owned(),
            "the checker's own limits refused the call".to_owned(),
            "limits.upstream_per_second".to_owned(),
        ),
    };
    (
        status,
        Problem {
            what,
            at: String::new(),
            key,
        },
    )
}

struct Checker {
    upstream: Upstream,
    checks: Vec<Check>,
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

    async fn call(&mut self, endpoint: &str, call: CmsCall, path_key: &str) -> Option<Value> {
        let started = Instant::now();
        match self.upstream.get_json(call, Credential::Client, None).await {
            Ok(payload) => {
                // Recorded by the caller, once it has looked at the payload.
                self.checks.push(Check {
                    endpoint: endpoint.to_owned(),
                    status: "200".to_owned(),
                    latency_ms: started.elapsed().as_millis() as u64,
                    summary: String::new(),
                    problems: Vec::new(),
                });
                Some(payload)
            }
            Err(err) => {
                let (status, problem) = from_error(&err, path_key);
                self.record(
                    endpoint.to_owned(),
                    started,
                    status,
                    String::new(),
                    vec![problem],
                );
                None
            }
        }
    }

    fn last(&mut self) -> &mut Check {
        self.checks.last_mut().expect("a check was recorded")
    }

    /// The category tree, with its integrity checked; `None` when it could not be read.
    async fn categories(&mut self) -> Option<Vec<Category>> {
        let started = Instant::now();
        let source = match self
            .upstream
            .category_source(Credential::Client, None)
            .await
        {
            Ok(source) => source,
            Err(err) => {
                let key = match self.dialect().category_shape() {
                    crate::cms::dialect::CategoryShape::Children => {
                        "dialect.endpoints.category_children.path"
                    }
                    _ => "dialect.endpoints.category_list.path",
                };
                let (status, problem) = from_error(&err, key);
                self.record(
                    "category/list".to_owned(),
                    started,
                    status,
                    String::new(),
                    vec![problem],
                );
                return None;
            }
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
        if count < nodes.len() {
            let reached: HashSet<u64> = {
                let mut ids = HashSet::new();
                walk(&tree, &mut |c| {
                    ids.insert(c.id);
                });
                ids
            };
            let left: Vec<String> = nodes
                .iter()
                .filter(|(c, _)| !reached.contains(&c.id))
                .map(|(c, _)| c.id.to_string())
                .take(10)
                .collect();
            problems.push(Problem {
                what: format!(
                    "{} categories are not below the root and are not shown (ids {})",
                    nodes.len() - count,
                    left.join(", ")
                ),
                at: String::new(),
                key: "dialect.categories.root".to_owned(),
            });
        }
        for route in PORTAL_ROUTES {
            if !urls.contains(*route) {
                problems.push(Problem {
                    what: format!("no category leads to the portal route {route}"),
                    at: String::new(),
                    key: "dialect.categories.routes (or dialect.fields.category.url)".to_owned(),
                });
            }
        }
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

    /// One page of a category's articles, asked for and mapped; its check records the summary or
    /// the problem. `None` when the page could not be read.
    async fn page(&mut self, category: u64, page: u32, size: u32) -> Option<ArticlePage> {
        let endpoint = format!("article/list categoryId={category} page={page}");
        let call = CmsCall::Articles {
            category: Some(category),
            page,
            size,
        };
        let payload = self
            .call(&endpoint, call, "dialect.endpoints.article_list.path")
            .await?;
        match self.dialect().article_page(&payload, page, size) {
            Ok(found) => {
                self.last().summary = format!(
                    "{} items, total {}",
                    found.content.len(),
                    found.total_elements
                );
                Some(found)
            }
            Err(problem) => {
                self.last().problems.push(from_shape(problem));
                None
            }
        }
    }

    /// Page 1 and page 2 of a list with enough articles; returns an article id and a file.
    async fn lists(&mut self, tree: &[Category]) -> Option<(u64, Option<String>)> {
        let mut lists = Vec::new();
        walk(tree, &mut |c| {
            if c.kind.as_deref() == Some("list") || c.kind.is_none() {
                lists.push(c.id);
            }
        });
        const SIZE: u32 = 2;
        let mut first_article = None;
        for category in lists.into_iter().take(12) {
            let one = self.page(category, 1, SIZE).await?;
            if first_article.is_none() {
                first_article = one.content.first().map(|a| (a.id, a.cover.clone()));
            }
            if one.content.len() as u32 > SIZE {
                self.last().problems.push(Problem {
                    what: format!("asked for {SIZE} items, the CMS gave {}", one.content.len()),
                    at: "items".to_owned(),
                    key: "dialect.paging.size".to_owned(),
                });
            }
            if one.total_elements < one.content.len() as u64 {
                self.last().problems.push(Problem {
                    what: format!(
                        "the total ({}) is less than the items on the page ({})",
                        one.total_elements,
                        one.content.len()
                    ),
                    at: "payload".to_owned(),
                    key: "dialect.lists.total".to_owned(),
                });
            }
            if one.total_elements <= u64::from(SIZE) {
                continue;
            }
            let two = self.page(category, 2, SIZE).await?;
            let ids = |p: &ArticlePage| p.content.iter().map(|a| a.id).collect::<Vec<_>>();
            if !two.content.is_empty() && ids(&two) == ids(&one) {
                self.last().problems.push(Problem {
                    what: "page 2 is the same as page 1: the CMS did not see the page number"
                        .to_owned(),
                    at: "items".to_owned(),
                    key: "dialect.paging.page / dialect.paging.page_base / dialect.paging.style"
                        .to_owned(),
                });
            } else if two.content.is_empty() {
                self.last().problems.push(Problem {
                    what: format!(
                        "page 2 is empty although the total is {}",
                        one.total_elements
                    ),
                    at: "items".to_owned(),
                    key: "dialect.paging.page_base / dialect.lists.total".to_owned(),
                });
            }
            if two.total_elements != one.total_elements {
                self.last().problems.push(Problem {
                    what: format!(
                        "the total changed between pages ({} then {})",
                        one.total_elements, two.total_elements
                    ),
                    at: "payload".to_owned(),
                    key: "dialect.lists.total".to_owned(),
                });
            }
            return first_article;
        }
        if first_article.is_none() {
            self.checks.push(Check {
                endpoint: "article/list".to_owned(),
                status: "-".to_owned(),
                latency_ms: 0,
                summary: String::new(),
                problems: vec![Problem {
                    what: "no list category has any article: nothing to check the list and detail with".to_owned(),
                    at: String::new(),
                    key: "dialect.endpoints.article_list.param".to_owned(),
                }],
            });
        }
        first_article
    }

    /// The CMS's search, when the dialect names one: a piece of an article's title must find it.
    async fn search(&mut self, id: u64, title: &str) {
        if !self.dialect().has_search() {
            return;
        }
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
        let Some(payload) = self
            .call(&endpoint, call, "dialect.endpoints.article_search.path")
            .await
        else {
            return;
        };
        match self.dialect().article_page(&payload, 1, 20) {
            Err(problem) => self.last().problems.push(from_shape(problem)),
            Ok(found) => {
                self.last().summary = format!(
                    "{} items, total {}",
                    found.content.len(),
                    found.total_elements
                );
                if !found.content.iter().any(|a| a.id == id) {
                    self.last().problems.push(Problem {
                        what: format!(
                            "searching for “{keyword}”, from the title of article {id}, did not list it"
                        ),
                        at: "payload".to_owned(),
                        key: "dialect.endpoints.article_search (path or param)".to_owned(),
                    });
                }
            }
        }
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
            .await?;
        if payload.is_null() {
            self.last().problems.push(Problem {
                what: "the CMS answered nothing for an article its list holds".to_owned(),
                at: "payload".to_owned(),
                key: "dialect.endpoints.article_detail".to_owned(),
            });
            return None;
        }
        let Some(item) = self.dialect().detail_item(&payload) else {
            self.last().problems.push(Problem {
                what: "no article where the detail's item should be".to_owned(),
                at: "payload".to_owned(),
                key: "dialect.endpoints.article_detail.item".to_owned(),
            });
            return None;
        };
        match self.dialect().article(item, "payload") {
            Err(problem) => {
                self.last().problems.push(from_shape(problem));
                None
            }
            Ok(article) => {
                if article.id != id {
                    self.last().problems.push(Problem {
                        what: format!(
                            "asked for article {id}, the CMS answered article {}",
                            article.id
                        ),
                        at: "payload.id".to_owned(),
                        key: "dialect.endpoints.article_detail (path or param)".to_owned(),
                    });
                }
                if article.content.as_deref().is_none_or(str::is_empty) {
                    self.last().problems.push(Problem {
                        what: "the article has no body".to_owned(),
                        at: "payload".to_owned(),
                        key: "dialect.fields.article.content".to_owned(),
                    });
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
        let Some(rewritten) = self.upstream.links().rewrite(cover) else {
            return;
        };
        let Some(path) = rewritten.strip_prefix(crate::cms::FILES_ROUTE) else {
            return;
        };
        let path = path.split('?').next().unwrap_or(path).to_owned();
        let segments: Vec<&str> = path.split('/').collect();
        let started = Instant::now();
        let endpoint = format!("files {path}");
        match self.upstream.get_file(&segments, &HeaderMap::new()).await {
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
                let problem = Problem {
                    what: format!(
                        "a cover the CMS names is not in its file store (HTTP {})",
                        file.status.as_u16()
                    ),
                    at: String::new(),
                    key: "dialect.endpoints.files".to_owned(),
                };
                self.record(
                    endpoint,
                    started,
                    file.status.as_u16().to_string(),
                    String::new(),
                    vec![problem],
                );
            }
            Err(err) => {
                let (status, problem) = from_error(&err, "dialect.endpoints.files");
                self.record(endpoint, started, status, String::new(), vec![problem]);
            }
        }
    }
}

fn walk(tree: &[Category], f: &mut impl FnMut(&Category)) {
    for c in tree {
        f(c);
        walk(&c.sub_category, f);
    }
}

/// Parents that do not exist, and parents that lead round in a circle.
fn integrity(dialect: &Dialect, nodes: &[(Category, Option<u64>)]) -> Vec<Problem> {
    let root = dialect.category_root();
    let parents: HashMap<u64, Option<u64>> = nodes.iter().map(|(c, p)| (c.id, *p)).collect();
    let is_top = |p: Option<u64>| matches!(p, None | Some(0)) || p == Some(root);
    let mut problems = Vec::new();
    for (i, (category, parent)) in nodes.iter().enumerate() {
        if let Some(parent) = parent.filter(|p| !is_top(Some(*p)))
            && !parents.contains_key(&parent)
        {
            problems.push(Problem {
                what: format!(
                    "category {} names parent {parent}, which the CMS does not list",
                    category.id
                ),
                at: format!("items[{i}]"),
                key: "dialect.fields.category.parent_id".to_owned(),
            });
        }
        let mut seen = HashSet::from([category.id]);
        let mut at = *parent;
        while let Some(p) = at.filter(|p| !is_top(Some(*p))) {
            if !seen.insert(p) {
                problems.push(Problem {
                    what: format!(
                        "category {} is its own ancestor (a cycle through {p})",
                        category.id
                    ),
                    at: format!("items[{i}]"),
                    key: "dialect.fields.category.parent_id".to_owned(),
                });
                break;
            }
            at = parents.get(&p).copied().flatten();
        }
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
        checks: Vec::new(),
    };
    if let Some(tree) = checker.categories().await
        && let Some((id, cover)) = checker.lists(&tree).await
    {
        if let Some(title) = checker.detail(id).await {
            checker.search(id, &title).await;
        }
        if let Some(cover) = cover {
            checker.file(&cover).await;
        }
    }
    let secret = config.upstream.secret().expose_secret().to_owned();
    let mut checks = checker.checks;
    // Whatever a CMS echoes back, the secret is not printed.
    for check in &mut checks {
        for problem in &mut check.problems {
            problem.what = problem.what.replace(&secret, "***");
        }
    }
    Ok(Report {
        upstream: printable(config),
        ok: checks.iter().all(|c| c.problems.is_empty()),
        checks,
    })
}

/// The report as a table for a terminal.
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
        let result = if check.problems.is_empty() {
            format!(
                "ok{}",
                if check.summary.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", check.summary)
                }
            )
        } else {
            format!(
                "{} problem{}",
                check.problems.len(),
                if check.problems.len() == 1 { "" } else { "s" }
            )
        };
        out.push_str(&format!(
            "{:<width$}  {:<11}  {:>5} ms  {result}\n",
            check.endpoint, check.status, check.latency_ms
        ));
    }
    let problems: Vec<_> = report.problems().collect();
    if problems.is_empty() {
        out.push_str("\nEverything maps: the portal can run on this CMS.\n");
        return out;
    }
    out.push_str(&format!(
        "\n{} problem{}:\n",
        problems.len(),
        if problems.len() == 1 { "" } else { "s" }
    ));
    for (check, problem) in problems {
        out.push_str(&format!("\n✗ {}: {}\n", check.endpoint, problem.what));
        if !problem.at.is_empty() {
            out.push_str(&format!("    where:  {}\n", problem.at));
        }
        out.push_str(&format!("    change: {}\n", problem.key));
    }
    out
}

/// How long the whole check may take before it is given up.
pub const DEADLINE: Duration = Duration::from_secs(120);
