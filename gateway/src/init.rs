//! `portal-gateway init`: writes the config for the CMS at an address. It recognises the CMS from
//! one or two requests each (WordPress's `/wp-json/` and its `api.w.org` link, Directus's
//! `/server/info`, Strapi's `/_health`, Plone's `/++api++`, Wagtail's `/api/v2/pages/`), or,
//! failing those, by trying the mappings it ships (`config/examples/`: reference-cms's native,
//! MyBatis and REST forms) until one reads the CMS's category tree. From the matching example it
//! writes a config with the CMS's address and the chosen credential style (the credential itself
//! stays in `PORTAL__UPSTREAM__CLIENT_ID` / `PORTAL__UPSTREAM__CLIENT_SECRET`), the company's
//! name and time zone where the CMS says them, then runs `check-upstream` against it and applies
//! the fix lines it offers (sections the CMS lacks, a root, a parent field) until nothing is left
//! to fix. What it cannot know it writes as a commented question, never a guess: no value of the
//! demo company's reaches the file.

use std::time::Duration;

use reqwest::Url;
use reqwest::{Client, header};
use serde_json::Value;

use crate::check::{self, Level, Report};
use portal_web::Config;

/// A mapping the gateway ships, by the CMS it is for.
struct Example {
    /// What the CMS is called in what `init` says.
    name: &'static str,
    /// `config/examples/<file>.toml`: its name, and its text.
    file: &'static str,
    text: &'static str,
}

const NATIVE: Example = Example {
    name: "reference-cms (native form)",
    file: "native",
    text: include_str!("../../config/examples/native.toml"),
};
const MYBATIS: Example = Example {
    name: "a MyBatis-style CMS (code/message/data envelope; reference-cms's mybatis form)",
    file: "mybatis",
    text: include_str!("../../config/examples/mybatis.toml"),
};
const REST: Example = Example {
    name: "a REST CMS without an envelope (reference-cms's rest form)",
    file: "rest",
    text: include_str!("../../config/examples/rest.toml"),
};
const STRAPI: Example = Example {
    name: "Strapi 5",
    file: "strapi",
    text: include_str!("../../config/examples/strapi.toml"),
};
const WORDPRESS: Example = Example {
    name: "WordPress (REST API)",
    file: "wordpress",
    text: include_str!("../../config/examples/wordpress.toml"),
};
const DIRECTUS: Example = Example {
    name: "Directus",
    file: "directus",
    text: include_str!("../../config/examples/directus.toml"),
};
const PLONE: Example = Example {
    name: "Plone 6 (plone.restapi)",
    file: "plone",
    text: include_str!("../../config/examples/plone.toml"),
};

/// How the gateway presents its credential (`upstream.auth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Auth {
    Basic,
    Bearer,
    Header,
    Query,
}

impl Auth {
    fn as_str(self) -> &'static str {
        match self {
            Self::Basic => "basic",
            Self::Bearer => "bearer",
            Self::Header => "header",
            Self::Query => "query",
        }
    }
}

/// What `init` was asked.
pub struct Request {
    pub base_url: Url,
    pub auth: Option<Auth>,
    /// `PORTAL__UPSTREAM__CLIENT_ID` / `…_SECRET`, as the environment gives them.
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
}

/// What `init` wrote, and the check of it.
pub struct Written {
    /// The CMS as recognised.
    pub cms: &'static str,
    pub config: String,
    pub report: Report,
}

/// Why `init` wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    #[error(
        "{0}: no CMS the gateway knows answers there (tried WordPress, Directus, Strapi 5, Plone, \
         Wagtail and reference-cms's forms). Describe it by hand: docs/integrators.md, section 2, \
         starting from config/examples/native.toml"
    )]
    Unknown(String),
    #[error(
        "{base}: this is {cms}, which the gateway has no ready mapping for yet. Describe it by hand \
         (docs/integrators.md, section 2); {hint}"
    )]
    NoMapping {
        base: String,
        cms: &'static str,
        hint: &'static str,
    },
    /// The CMS was recognised, but the mapping shipped for it did not read its sections: not the
    /// `Unknown` above, which would send the integrator looking for a CMS that did answer.
    #[error(
        "{base}: this is {cms}, but the mapping the gateway ships for it did not read its \
         sections: {reason}. Try `portal-gateway check-upstream` with config/examples/{file}.toml \
         and this base_url; docs/integrators.md has its walk-through"
    )]
    Unread {
        base: String,
        cms: &'static str,
        file: &'static str,
        reason: String,
    },
    #[error("{0}")]
    Client(String),
}

/// Recognises the CMS at `request.base_url` and writes its config (see the module's doc).
pub async fn init(request: &Request) -> Result<Written, InitError> {
    portal_core::tls::install();
    let client = Client::builder()
        .timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|err| InitError::Client(err.to_string()))?;
    let base = with_slash(&request.base_url);
    let mut facts = Facts::default();
    let recognised = match fingerprint(&client, &base, &mut facts).await {
        Some(Known::Mapped(example)) => Some(example),
        Some(Known::Unmapped { cms, hint }) => {
            return Err(InitError::NoMapping {
                base: base.to_string(),
                cms,
                hint,
            });
        }
        None => None,
    };
    let candidates: Vec<&Example> = match recognised {
        Some(example) => vec![example],
        None => vec![&NATIVE, &MYBATIS, &REST],
    };
    for example in candidates {
        let text = draft(example, request, &facts);
        let read = match Config::from_toml_str(&checkable(&text, request)) {
            Ok(config) => check::run(&config).await.map_err(|err| err.to_string()),
            // Not its error's text: the checked text carries the credential, and a TOML error
            // quotes the line it is about.
            Err(_) => Err("the config written for it does not load".to_owned()),
        };
        match read {
            Ok(report) if reads_the_tree(&report) => {
                return finish(example, text, report, request).await;
            }
            // Guessing among reference-cms's forms: the next one may read it.
            _ if recognised.is_none() => {}
            outcome => {
                return Err(InitError::Unread {
                    base: base.to_string(),
                    cms: example.name,
                    file: example.file,
                    reason: outcome.map_or_else(|err| err, |report| tree_failure(&report)),
                });
            }
        }
    }
    Err(InitError::Unknown(base.to_string()))
}

/// Why a check did not read the category tree: its first error there, or its answer's status.
fn tree_failure(report: &Report) -> String {
    let tree = report
        .checks
        .iter()
        .find(|c| c.endpoint.starts_with("category/"));
    match tree {
        Some(check) => match check.problems.iter().find(|p| p.level == Level::Error) {
            Some(problem) => format!(
                "{} answered {}: {}",
                check.endpoint, check.status, problem.what
            ),
            None => format!("{} answered {}", check.endpoint, check.status),
        },
        None => "the check did not reach the category tree".to_owned(),
    }
}

/// Applies the checker's fix lines (a few rounds: a fix may let it read further), then checks
/// the result once more.
async fn finish(
    example: &Example,
    mut text: String,
    mut report: Report,
    request: &Request,
) -> Result<Written, InitError> {
    for _ in 0..3 {
        let fixes: Vec<String> = report
            .at_level(Level::Error)
            .chain(report.at_level(Level::Warning))
            .filter_map(|(_, problem)| problem.fix.clone())
            .collect();
        let before = text.clone();
        for fix in &fixes {
            text = apply_fix(&text, fix);
        }
        if text == before {
            break;
        }
        let config = Config::from_toml_str(&checkable(&text, request))
            .map_err(|err| InitError::Client(format!("the written config does not load: {err}")))?;
        report = check::run(&config)
            .await
            .map_err(|err| InitError::Client(err.to_string()))?;
    }
    Ok(Written {
        cms: example.name,
        config: text,
        report,
    })
}

/// Whether the check got as far as the category tree (the mapping reads this CMS).
fn reads_the_tree(report: &Report) -> bool {
    report.checks.iter().any(|c| {
        c.endpoint.starts_with("category/")
            && c.status == "200"
            && c.problems.iter().all(|p| p.level != Level::Error)
    })
}

/// What the CMS says of itself, for `[site]` and `[dialect]`.
#[derive(Default)]
struct Facts {
    company_name: Option<String>,
    time_zone: Option<String>,
    /// Where the CMS's API is, when not at the address given (Plone's site for its `++api++/`).
    api_base: Option<Url>,
    /// The path the CMS's content is below (Plone's site, `/Plone`): its ids' root.
    site_path: Option<String>,
}

enum Known {
    Mapped(&'static Example),
    Unmapped {
        cms: &'static str,
        hint: &'static str,
    },
}

/// The CMS by what a few unauthenticated requests answer, `None` when none of them tells.
async fn fingerprint(client: &Client, base: &Url, facts: &mut Facts) -> Option<Known> {
    // WordPress: its REST index, whose `Link` header names api.w.org even when it refuses (401).
    if let Some((headers, body)) = get(client, base, "wp-json/").await {
        let linked = headers
            .get_all(header::LINK)
            .iter()
            .any(|v| v.to_str().is_ok_and(|v| v.contains("api.w.org")));
        let namespaces = body["namespaces"]
            .as_array()
            .is_some_and(|n| n.iter().any(|n| n == "wp/v2"));
        if linked || namespaces {
            facts.company_name = text(&body["name"]);
            facts.time_zone =
                text(&body["timezone_string"]).filter(|z| z == "Asia/Shanghai" || z == "UTC");
            return Some(Known::Mapped(&WORDPRESS));
        }
    }
    // Directus: its server info, and its `X-Powered-By`.
    if let Some((headers, body)) = get(client, base, "server/info").await
        && (powered_by(&headers, "directus") || body["data"]["project"].is_object())
    {
        facts.company_name = text(&body["data"]["project"]["project_name"]);
        return Some(Known::Mapped(&DIRECTUS));
    }
    // Strapi: its health check (204 with a `strapi` header), or its `X-Powered-By`.
    if let Some((headers, _)) = get(client, base, "_health").await
        && (headers.contains_key("strapi") || powered_by(&headers, "strapi"))
    {
        // Strapi stores times in UTC; it names no company.
        return Some(Known::Mapped(&STRAPI));
    }
    // Plone (plone.restapi): the site root's `@type`, or Zope's `X-Powered-By`.
    // Given the site's address or its API's (`…/Plone/++api++/`).
    let api = if base.path().ends_with("/++api++/") {
        ""
    } else {
        "++api++/"
    };
    if let Some((headers, body)) = get(client, base, api).await
        && (body["@type"] == "Plone Site" || powered_by(&headers, "zope"))
    {
        // Its title may be short of the company's full name: `[site]` asks to check it.
        facts.company_name = text(&body["title"]);
        // plone.restapi answers at the site's own addresses (asked for JSON), where its files
        // are too: the config names the site, not `++api++`.
        facts.api_base = match api {
            "" => base.join("..").ok(),
            _ => Some(base.clone()),
        };
        // Ids are paths below the site, whose own path (`/Plone`) its `@id` says.
        facts.site_path = body["@id"]
            .as_str()
            .and_then(|id| Url::parse(id).ok())
            .map(|site| site.path().trim_end_matches('/').to_owned());
        return Some(Known::Mapped(&PLONE));
    }
    // Wagtail: its pages API.
    if let Some((_, body)) = get(client, base, "api/v2/pages/").await
        && body["meta"]["total_count"].is_u64()
        && body["items"].is_array()
    {
        return Some(Known::Unmapped {
            cms: "Wagtail (its API v2)",
            hint: "config/examples/rest.toml is the nearest form (no envelope, `items`, \
                   `meta.total_count`)",
        });
    }
    None
}

/// A GET of `path` under `base`: its headers and its JSON (null when it is not JSON), or `None`
/// when nothing answers there.
async fn get(client: &Client, base: &Url, path: &str) -> Option<(header::HeaderMap, Value)> {
    let url = base.join(path).ok()?;
    let mut response = client.get(url).send().await.ok()?;
    let headers = response.headers().clone();
    // At most PROBE_BYTES read, whatever the answer says or sends: a probe's JSON is small, and a
    // hostile or mistaken address may stream without end (the client's time-out bounds the time).
    let mut bytes = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        if bytes.len() + chunk.len() > PROBE_BYTES {
            // Cut off: not read as JSON; the headers alone still tell.
            return Some((headers, Value::Null));
        }
        bytes.extend_from_slice(&chunk);
    }
    Some((
        headers,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    ))
}

/// The most of one probe's answer `init` reads (WordPress's `/wp-json/` index is ~100–400 KB).
const PROBE_BYTES: usize = 2 << 20;

fn powered_by(headers: &header::HeaderMap, name: &str) -> bool {
    headers
        .get("x-powered-by")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains(name))
}

/// A short line of text the CMS gives, if it gives one.
fn text(value: &Value) -> Option<String> {
    value
        .as_str()
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.chars().count() <= 100 && !t.chars().any(char::is_control))
        .map(str::to_owned)
}

fn with_slash(url: &Url) -> Url {
    let mut url = url.clone();
    if !url.path().ends_with('/') {
        url.set_path(&format!("{}/", url.path()));
    }
    url
}

/// The example with this CMS's address and credential style, its `[site]` the CMS's own facts or
/// questions, and nothing of the demo's.
fn draft(example: &Example, request: &Request, facts: &Facts) -> String {
    let mut text = header_comment(example, request);
    let mut table = String::new();
    for line in example.text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            table = trimmed.to_owned();
            if table == "[site]" {
                continue;
            }
        }
        if table == "[site]" {
            continue;
        }
        let key = trimmed.split('=').next().unwrap_or("").trim();
        // Where the gateway listens is the operator's (the default, or PORTAL__SERVER__LISTEN).
        if table == "[server]" && key == "listen" {
            continue;
        }
        if table == "[upstream]" {
            match key {
                "base_url" => {
                    text.push_str(&format!("base_url = \"{}\"\n", api_base(request, facts)));
                    continue;
                }
                // The credential is the environment's (PORTAL__UPSTREAM__CLIENT_ID / _SECRET),
                // never written here; the examples' are the demo's.
                "client_id" | "client_secret" | "client_secret_file" => continue,
                "auth" if request.auth.is_some() => continue,
                _ => {}
            }
        }
        // The examples' own how-to-try lines name the demo's addresses.
        if trimmed.starts_with('#')
            && (trimmed.contains("127.0.0.1")
                || trimmed.starts_with("#   scripts/")
                || trimmed.starts_with("#   portal-gateway"))
        {
            continue;
        }
        text.push_str(line);
        text.push('\n');
        if trimmed == "[upstream]"
            && let Some(auth) = request.auth
        {
            text.push_str(&format!("auth = \"{}\"\n", auth.as_str()));
        }
    }
    // The example's CMS address elsewhere (WordPress's article pages, `[dialect.links]`) is this
    // CMS's.
    if let Some(old) = example_base(example) {
        text = text.replace(&old, api_base(request, facts).as_str());
    }
    // The example's site path (Plone's `/Plone`) where the ids, lists and routes name it.
    if let Some(path) = &facts.site_path {
        for (written, own) in [
            (
                "id_root = \"/Plone\"",
                format!("id_root = {}", toml_string(path)),
            ),
            ("\"/Plone/{id}\"", toml_string(&format!("{path}/{{id}}"))),
            (
                "\"/Plone/{path}\"",
                toml_string(&format!("{path}/{{path}}")),
            ),
            (
                "strip_prefix = \"/Plone\"",
                format!("strip_prefix = {}", toml_string(path)),
            ),
        ] {
            text = text.replace(written, &own);
        }
    }
    text.push_str(&site_table(facts));
    if let Some(zone) = &facts.time_zone {
        text = apply_fix(&text, &format!("dialect.time_zone = \"{zone}\""));
    }
    text
}

/// The CMS's API address: where its fingerprint found it, else the address given.
fn api_base(request: &Request, facts: &Facts) -> Url {
    facts
        .api_base
        .clone()
        .unwrap_or_else(|| with_slash(&request.base_url))
}

/// The `base_url` the example is written for.
fn example_base(example: &Example) -> Option<String> {
    example.text.lines().find_map(|line| {
        let value = line
            .trim()
            .strip_prefix("base_url")?
            .trim()
            .strip_prefix('=')?;
        Some(value.trim().trim_matches('"').to_owned())
    })
}

fn header_comment(example: &Example, request: &Request) -> String {
    let credential = match (&request.client_id, &request.client_secret) {
        (_, None) => "No credential was given: set PORTAL__UPSTREAM__CLIENT_SECRET (and \
                      PORTAL__UPSTREAM__CLIENT_ID for Basic) where the gateway runs"
            .to_owned(),
        (Some(_), Some(_)) => "The credential is read from PORTAL__UPSTREAM__CLIENT_ID and \
                               PORTAL__UPSTREAM__CLIENT_SECRET where the gateway runs"
            .to_owned(),
        (None, Some(_)) => "The credential is read from PORTAL__UPSTREAM__CLIENT_SECRET where the \
                            gateway runs"
            .to_owned(),
    };
    format!(
        "# Written by `portal-gateway init` for {} at {}, from the gateway's mapping for it\n\
         # (config/examples/). {credential}. Lines marked 问 are questions only you can answer.\n\
         # Check it again at any time: portal-gateway check-upstream --config <this file>\n\n",
        example.name,
        with_slash(&request.base_url)
    )
}

/// `[site]`: the company's name when the CMS says it, else a question; the public address is
/// always a question (no CMS knows where its portal will be reached).
fn site_table(facts: &Facts) -> String {
    let company = match &facts.company_name {
        Some(name) => format!(
            "# The company's full name, as the CMS calls its site: check it is the full name.\n\
             company_name = {}\n",
            toml_string(name)
        ),
        None => "# 问: your company's full name (every page's title, the header and footer, the feeds).\n\
                 # The gateway does not start without it: write it here or set PORTAL__SITE__COMPANY_NAME.\n\
                 # company_name = \"\"\n"
            .to_owned(),
    };
    format!(
        "\n[site]\n{company}\
         # 问: where visitors reach the portal (scheme and host): the canonical links, the sitemap and\n\
         # the feeds. Left out, pages link by paths and there is no sitemap or feed.\n\
         # public_url = \"https://www.example.com\"\n\
         pagination_locale = \"zh-CN\"\n"
    )
}

fn toml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// The written text as the checker loads it: with the credential `init` was given (never
/// written to the file), and a company name it needs to load when the file asks the question
/// instead (the environment's, as the gateway would read it, else a stand-in only the check sees).
fn checkable(text: &str, request: &Request) -> String {
    let mut text = text.to_owned();
    if let Some(id) = &request.client_id {
        text = apply_fix(&text, &format!("upstream.client_id = {}", toml_string(id)));
    }
    if let Some(secret) = &request.client_secret {
        text = apply_fix(
            &text,
            &format!("upstream.client_secret = {}", toml_string(secret)),
        );
    }
    if text
        .lines()
        .any(|l| l.trim_start().starts_with("company_name"))
    {
        return text;
    }
    let name =
        std::env::var("PORTAL__SITE__COMPANY_NAME").unwrap_or_else(|_| "（检查用）".to_owned());
    apply_fix(
        &text,
        &format!("site.company_name = {}", toml_string(&name)),
    )
}

/// Writes a fix line (`dialect.categories.absent = [...]`, `dialect.fields.category.parent_id =
/// "pid"`) into `text`: the key's line in its table replaced, or added to the table, or the
/// table added at the end.
pub fn apply_fix(text: &str, fix: &str) -> String {
    let Some((path, value)) = fix.split_once('=') else {
        return text.to_owned();
    };
    let (path, value) = (path.trim(), value.trim());
    // Only `a.b.c = value`: a fix the checker words otherwise (`[table] "key" = …`, `take … out
    // of …`) is for a person to read.
    if !path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    {
        return text.to_owned();
    }
    let Some((table, key)) = path.rsplit_once('.') else {
        return text.to_owned();
    };
    let header = format!("[{table}]");
    let line = format!("{key} = {value}");
    let mut out: Vec<String> = Vec::new();
    let (mut in_table, mut found_table, mut done) = (false, false, false);
    for raw in text.lines() {
        let trimmed = raw.trim();
        if trimmed.starts_with('[') {
            if in_table && !done {
                // The table ends: the key was not in it.
                insert_before_blank_tail(&mut out, &line);
                done = true;
            }
            in_table = trimmed == header;
            found_table |= in_table;
        } else if in_table && !done {
            let name = trimmed.split('=').next().unwrap_or("").trim();
            if name == key {
                out.push(line.clone());
                done = true;
                continue;
            }
        }
        out.push(raw.to_owned());
    }
    if in_table && !done {
        insert_before_blank_tail(&mut out, &line);
        done = true;
    }
    if !found_table && !done {
        out.push(String::new());
        out.push(header);
        out.push(line);
    }
    let mut joined = out.join("\n");
    joined.push('\n');
    joined
}

/// Adds `line` at the end of the table being written, before the blank lines that end it.
fn insert_before_blank_tail(out: &mut Vec<String>, line: &str) {
    let at = out
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(out.len(), |i| i + 1);
    out.insert(at, line.to_owned());
}

/// What `init` prints after it wrote the file: the CMS, the check's outcome, and what is left
/// for the integrator.
pub fn summary(written: &Written, out: &str) -> String {
    let errors = written.report.at_level(Level::Error).count();
    let warnings = written.report.at_level(Level::Warning).count();
    let questions = match written.config.matches("# 问").count() {
        1 => "1 question".to_owned(),
        n => format!("{n} questions"),
    };
    format!(
        "portal-gateway init: {} recognised; wrote {out}\n\
         check-upstream against it: {errors} errors, {warnings} warnings\n\
         {questions} in it (lines marked 问) yours to answer; then: portal-gateway --config {out}\n",
        written.cms
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fix_line_replaces_its_key_or_joins_its_table() {
        let text =
            "[dialect.categories]\nshape = \"flat\"\n\n[dialect.fields.category]\nname = \"n\"\n";
        let replaced = apply_fix(text, "dialect.categories.shape = \"tree\"");
        assert!(
            replaced.contains("shape = \"tree\"") && !replaced.contains("\"flat\""),
            "{replaced}"
        );
        let added = apply_fix(text, "dialect.categories.absent = [\"/a\"]");
        assert!(
            added.contains("shape = \"flat\"\nabsent = [\"/a\"]\n\n[dialect.fields.category]"),
            "{added}"
        );
        let new_table = apply_fix(text, "dialect.categories.route.from = [\"path\"]");
        assert!(
            new_table.ends_with("[dialect.categories.route]\nfrom = [\"path\"]\n"),
            "{new_table}"
        );
        for prose in [
            "[dialect.categories.types] \"/about\" = \"group\"",
            "take \"/about\" out of dialect.categories.absent",
        ] {
            assert_eq!(apply_fix(text, prose), text, "{prose}");
        }
        let last = apply_fix(text, "dialect.fields.category.parent_id = \"pid\"");
        assert!(
            last.ends_with("name = \"n\"\nparent_id = \"pid\"\n"),
            "{last}"
        );
    }

    #[test]
    fn nothing_of_the_demo_is_written() {
        let request = Request {
            base_url: Url::parse("https://cms.example.com/api").unwrap(),
            auth: Some(Auth::Bearer),
            client_id: None,
            client_secret: Some("s".to_owned()),
        };
        for example in [&NATIVE, &MYBATIS, &REST, &STRAPI, &WORDPRESS, &DIRECTUS] {
            let text = draft(example, &request, &Facts::default());
            for demo in ["云川", "demo-secret", "127.0.0.1", "\"portal-web\""] {
                assert!(!text.contains(demo), "{}: {demo} in\n{text}", example.name);
            }
            // No credential is written, whatever the example holds.
            assert!(
                !text.lines().any(|l| l.starts_with("client_")),
                "{}: a credential line in\n{text}",
                example.name
            );
            assert!(
                text.contains("base_url = \"https://cms.example.com/api/\""),
                "{text}"
            );
            assert!(text.contains("auth = \"bearer\""), "{text}");
            assert_eq!(text.matches("[site]").count(), 1, "{text}");
            assert!(text.contains("# company_name"), "{text}");
        }
    }
}
