//! **The visitor's pages** at their real URLs (`/portal/`, `/portal/news_center/notice?page=2`,
//! `/portal/article/2101`), rendered by the app's own React components: the build's server bundle
//! (`frontend/src/server.tsx`) run by the render pool (`render`). The browser hydrates the same
//! markup from the store state the page carries, so a page is drawn once, in one place.
//!
//! A render asks for what the page reads by the API's own URLs, as the app in a browser would
//! (`/portal/api/category/list`, then the list of the category found in it): the bundle runs the
//! page's loader (`frontend/src/app/page-loads.ts`) and answers `{needs}` for the answers it was
//! not given, without rendering; this module asks the content service for those (the same cache
//! entries `/portal/api` answers from) and calls again with them, a few rounds at most. Once the
//! loader has all it names, React renders the page once (`portal_page_renders_total`). A page
//! rendered before is given what it read then at once (`reads.rs`): one call, no round. The page
//! is then cached like any answer: one entry per address (its query cut to what the app reads),
//! build and `/site`, tagged with the tags of every answer it shows (so purges and the CMS webhook
//! reach it), as long as the article lists live, and not kept when an answer it shows may not be.
//!
//! A render that fails (a component that throws, a runaway script, a busy pool, no server bundle)
//! answers the app shell instead: `index.html` with the company's title and an empty root, which
//! the browser renders itself. Counted (`portal_page_fallbacks_total`) and logged, never a 5xx,
//! never kept.

pub(crate) mod reads;

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt::Write as _,
};

use axum::{
    http::{HeaderValue, StatusCode, header, request::Parts},
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::{
    api::content_query,
    state::{AppState, Language},
};
use portal_cache::{Entry, Kind, MediaType, Outcome, Timing, Wants, respond};
use portal_content::Caller;
use portal_content::{
    envelope::ApiError,
    limits::Work,
    request::query::{MAX_KEYWORD, MAX_PAGE, RawQuery},
};
use portal_core::{
    endpoint::Endpoint,
    model::{
        site::{SITE_LANGUAGE, page_language},
        tags,
    },
};

/// Rounds of asking per page: the deepest page needs three (settings and tree, a list, the
/// article the list names), each a call of the loader alone.
const MAX_ROUNDS: usize = 6;
/// Answers one round may ask for.
const MAX_NEEDS: usize = 16;

/// Where the page's markup, head and state go in the build's `index.html`.
const HEAD_SLOT: &str = "<!--portal-head-->";
const ROOT_SLOT: &str = "<!--portal-root-->";
const STATE_SLOT: &str = "<!--portal-state-->";

/// The page at `request`'s address, rendered or from the cache; `None` when the build has no
/// `index.html` (the static files answer then: 404).
pub async fn page(state: &AppState, request: &Parts) -> Option<Response> {
    let runtime = state.runtime();
    let (_, build) = runtime.app_files.index_html()?;
    // `/portal/en/…`: the page in English, when the portal is in it (else an unknown route).
    let (code, own_path) = page_language(request.uri.path());
    let lang = code.and_then(|code| runtime.language(code));
    let prefix = lang.map_or_else(|| "/portal".to_owned(), |l| format!("/portal/{}", l.code));
    // A duplicate route of the spec is its page's route (the route table's `sameAs`); a page's
    // address written in other letters or with a trailing slash is its one address.
    let own_path = if lang.is_some() {
        own_path
    } else {
        request.uri.path().into()
    };
    if let Some(below) = own_path.strip_prefix("/portal") {
        let moved = unreserved_decoded(below)
            .or_else(|| portal_core::portal_routes::same_as(below).map(str::to_owned))
            .or_else(|| portal_core::portal_routes::spelled(below));
        if let Some(to) = moved {
            let query = request
                .uri
                .query()
                .map(|q| format!("?{q}"))
                .unwrap_or_default();
            let to = if lang.is_some() && to == "/" { "" } else { &to };
            return Some(
                (
                    StatusCode::MOVED_PERMANENTLY,
                    [(header::LOCATION, format!("{prefix}{to}{query}"))],
                )
                    .into_response(),
            );
        }
    }
    let url = page_url(request.uri.path(), request.uri.query());
    let key = format!("{}{url}", key_prefix(&runtime, lang, build));
    let content = state.content_in(&runtime, lang);
    // A render over its budget is no reason to keep a visitor from a page already made.
    let policy = content
        .policy(Kind::Page, Endpoint::ArticleList, &key)
        .with_older_copy_after(runtime.config.render.older_copy_after);
    let wants = Wants::of(&request.headers);
    let load = loader(state, url.clone(), portal_content::limits::current_client());
    let mut response = if runtime.config.cache.enabled {
        let lookup = state.cache.get_or_load(&key, &policy, load).await;
        portal_cache::stats::record(Kind::Page, lookup.outcome);
        match lookup.result {
            Ok(entry) => respond(&entry, lookup.outcome, &wants, lookup.timing),
            // This client has spent its share of the CMS: the app shell (no CMS call), as 429
            // with when to come back, so a crawler retries rather than index an empty page.
            // Or of the render pool (`limits/shares.rs`): the same, for a second.
            Err(err @ (ApiError::CmsShareSpent { .. } | ApiError::ShareTaken(_))) => {
                let reason = match err {
                    ApiError::ShareTaken(_) => "render_share",
                    _ => "cms_share",
                };
                let retry_after = err
                    .retry_after()
                    .unwrap_or(std::time::Duration::from_secs(1));
                metrics::counter!("portal_page_fallbacks_total", "reason" => reason).increment(1);
                let mut shell = respond(
                    &shell(state, &url),
                    Outcome::Miss,
                    &wants,
                    Timing::default(),
                );
                *shell.status_mut() = StatusCode::TOO_MANY_REQUESTS;
                shell.headers_mut().insert(
                    header::RETRY_AFTER,
                    HeaderValue::from(retry_after.as_secs().max(1)),
                );
                shell
            }
            // The page's load outlasted the cache's wait (a slow CMS): this visitor gets the app
            // shell now; the load goes on and keeps the page for the next one.
            Err(_) => {
                metrics::counter!("portal_page_fallbacks_total", "reason" => "wait").increment(1);
                respond(
                    &shell(state, &url),
                    Outcome::Miss,
                    &wants,
                    Timing::default(),
                )
            }
        }
    } else {
        let entry = load().await.ok()?;
        respond(&entry, Outcome::Bypass, &wants, Timing::default())
    };
    if request.method == axum::http::Method::HEAD {
        *response.body_mut() = axum::body::Body::empty();
    }
    // The page names the build's hashed files: a browser asks again each time (a 304 while the
    // ETag holds) rather than keep a page whose scripts a new build removed.
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Some(response)
}

/// What a page's cache key starts with: the build's `index.html` and `/site`'s answer, which the
/// page holds (a new build, or a reload that changes the site facts, is a new page).
fn key_prefix(runtime: &crate::state::Runtime, lang: Option<&Language>, build: u64) -> String {
    let site = runtime
        .site_in(lang)
        .etag
        .to_str()
        .unwrap_or_default()
        .trim_matches('"');
    format!("page/{build:016x}/{site}")
}

/// How the page at `url` is made, for the cache to call; a render `client` starts is charged to
/// its share (`limits/shares.rs`).
fn loader(
    state: &AppState,
    url: String,
    client: Option<std::net::IpAddr>,
) -> impl Fn() -> futures_util::future::BoxFuture<'static, Result<std::sync::Arc<Entry>, ApiError>>
+ Send
+ Sync
+ 'static {
    let state = state.clone();
    move || {
        let state = state.clone();
        let url = url.clone();
        Box::pin(async move {
            let _share = client
                .map(|client| state.client_limits.take_share(Work::Render, client))
                .transpose()?;
            Ok::<_, ApiError>(std::sync::Arc::new(make(&state, &url).await))
        })
    }
}

/// Renders the page cached at `key` again now and keeps it (the webhook's refresh: a visitor then
/// meets the page showing the change, not its render). False for a key of no page of this build
/// and site (an older one's, left to expire) and for a render that fell back to the app shell.
pub(crate) async fn render_again(state: &AppState, key: &str) -> bool {
    let runtime = state.runtime();
    let Some((_, build)) = runtime.app_files.index_html() else {
        return false;
    };
    let Some(lang) = page_language_configured(&runtime, key) else {
        return false;
    };
    let Some(url) = key.strip_prefix(key_prefix(&runtime, lang, build).as_str()) else {
        return false;
    };
    let content = state.content_in(&runtime, lang);
    let policy = content.policy(Kind::Page, Endpoint::ArticleList, key);
    state
        .cache
        .refresh(key, &policy, loader(state, url.to_owned(), None))
        .await
        .is_ok_and(|entry| entry.cacheable)
}

/// The language of a page's address or key (`…/portal/en/…`) when the portal is in it:
/// `Some(None)` for the site's own, `None` for a language no longer configured.
fn page_language_configured<'r>(
    runtime: &'r crate::state::Runtime,
    address: &str,
) -> Option<Option<&'r Language>> {
    let path = address.find("/portal").map_or(address, |at| &address[at..]);
    match page_language(path).0 {
        None => Some(None),
        Some(code) => runtime.language(code).map(Some),
    }
}

/// The build's `index.html` in `lang`: its `<html lang="zh-CN">` says the page's language.
fn in_html_language<'a>(template: &'a str, lang: Option<&Language>) -> std::borrow::Cow<'a, str> {
    match lang {
        None => template.into(),
        Some(l) => template
            .replacen(
                r#"<html lang="zh-CN">"#,
                &format!(r#"<html lang="{}">"#, l.code),
                1,
            )
            .into(),
    }
}

/// An app address that no route has: the app draws its 页面不存在 page there, in the site's layout.
const NOT_FOUND_URL: &str = "/portal/__not_found__";

/// Middleware for the addresses outside the app (a feed, an old crawlable address): their "not
/// found" is the app's own 页面不存在 page, with the site's header, menu and footer, rather than the
/// bare page, whenever the build can render it (else the bare one stays).
pub async fn not_found_in_layout(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let method = request.method().clone();
    let headers = request.headers().clone();
    let response = next.run(request).await;
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if response.status() != StatusCode::NOT_FOUND || !html {
        return response;
    }
    let Ok(synthetic) = axum::http::Request::builder()
        .method(method)
        .uri(NOT_FOUND_URL)
        .body(())
    else {
        return response;
    };
    let (mut parts, ()) = synthetic.into_parts();
    parts.headers = headers;
    match page(&state, &parts).await {
        // A render that fell back to the shell (200) is no 404 page: the bare one says more.
        Some(page) if page.status() == StatusCode::NOT_FOUND => page,
        _ => response,
    }
}

/// The address as the app reads it: the path, and of the query only the parameters the page
/// reads (`portal_routes::reads`), in that order, each as the app reads it (`frontend/src/lib/
/// page-href.ts`, `features/search/keyword.ts`): a page number in decimal, an article id, a
/// trimmed keyword; a value the app would not take is left out, as the app leaves it. So any
/// other parameter, or a value written another way, is the same page and the same cache entry,
/// and the page rendered is the page the browser hydrates.
/// `path` with its escaped letters, digits and `-_~` written plainly (`/%61bout` → `/about`),
/// when it has any: RFC 3986 makes them the same address, and as escapes they were as many cache
/// keys (and renders) as a client could spell. `None` when there is none.
fn unreserved_decoded(path: &str) -> Option<String> {
    if !path.contains('%') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = String::with_capacity(path.len());
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| path.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            // Not `.`: a decoded `%2E%2E` would be a `..` segment.
            .filter(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'~'));
        match escaped {
            Some(b) => {
                out.push(char::from(b));
                changed = true;
                i += 3;
            }
            None => {
                let c = path[i..].chars().next().expect("within the path");
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    changed.then_some(out)
}

fn page_url(path: &str, query: Option<&str>) -> String {
    let path = if path == "/portal/index.html" {
        "/portal/"
    } else {
        path
    };
    let raw = RawQuery::parse(query.unwrap_or(""));
    let mut url = path.to_owned();
    let mut first = true;
    let (_, own) = page_language(path);
    for &name in portal_core::portal_routes::reads(own.strip_prefix("/portal").unwrap_or(&own)) {
        let Some(value) = raw
            .all(name)
            .next()
            .and_then(|value| read_as_app(name, value))
        else {
            continue;
        };
        url.push(if first { '?' } else { '&' });
        first = false;
        url.push_str(name);
        url.push('=');
        url.extend(percent_encoding::utf8_percent_encode(
            &value,
            percent_encoding::NON_ALPHANUMERIC,
        ));
    }
    url
}

/// `dayOf` (features/search/keyword.ts): a real day as people write it (`2026-01-31`, `2026-1-31`,
/// `2026/1/31`, `2026.1.31`, `2026年1月31日`, spaces around the parts), as `yyyy-MM-dd`.
fn day_of(value: &str) -> Option<String> {
    /// `min` to `max` ASCII digits at the start of `text` (after spaces), and what follows them.
    fn digits(text: &str, min: usize, max: usize) -> Option<(u32, &str)> {
        let text = text.trim_start_matches(' ');
        let len = text.bytes().take_while(u8::is_ascii_digit).count();
        if !(min..=max).contains(&len) {
            return None;
        }
        Some((text[..len].parse().ok()?, &text[len..]))
    }
    /// `text` after spaces and one of `seps`.
    fn sep<'a>(text: &'a str, seps: &[char]) -> Option<&'a str> {
        text.trim_start_matches(' ').strip_prefix(seps)
    }
    let (year, rest) = digits(value, 4, 4)?;
    let (month, rest) = digits(sep(rest, &['-', '/', '.', '年'])?, 1, 2)?;
    let (day, rest) = digits(sep(rest, &['-', '/', '.', '月'])?, 1, 2)?;
    let rest = rest.trim_start_matches(' ');
    let rest = rest.strip_prefix('日').unwrap_or(rest);
    if !rest.trim_start_matches(' ').is_empty() {
        return None;
    }
    let year = i32::try_from(year).ok()?;
    chrono::NaiveDate::from_ymd_opt(year, month, day).map(|d| d.format("%Y-%m-%d").to_string())
}

/// `value` of the parameter `name` as the app reads it, `None` where the app takes none.
fn read_as_app(name: &str, value: &str) -> Option<String> {
    let digits = |max_len: usize| {
        (!value.is_empty() && value.len() <= max_len && value.bytes().all(|b| b.is_ascii_digit()))
            .then(|| value.parse::<u64>().ok())
            .flatten()
    };
    match name {
        // `pageNumberOf`: one to six digits, 1 to the highest page.
        "page" | "listPage" => digits(6)
            .filter(|page| (1..=u64::from(MAX_PAGE)).contains(page))
            .map(|page| page.to_string()),
        // `idOf` (lib/id.ts): the CMS's own id as it is written, not the top level's `0` (a
        // search's section likewise).
        "id" | "section" => portal_core::model::Id::parse(value)
            .ok()
            .filter(|id| !id.is_top())
            .map(|id| id.to_string()),
        "from" | "to" => day_of(value),
        // `normalizeKeyword`.
        "q" => {
            let keyword = portal_content::request::query::canonical_keyword(value);
            let count = keyword.chars().count();
            ((1..=MAX_KEYWORD).contains(&count) && !keyword.chars().any(char::is_control))
                .then_some(keyword)
        }
        _ => None,
    }
}

/// What the server bundle's `portalRender` answers: either the API URLs the page asks for that
/// it was not given (`needs`), or the page — its HTTP status, the `<title>`/`<meta>`/`<link>` for
/// the head, the markup of `#root` and the store state the browser hydrates from. (One struct
/// rather than an untagged enum: `RawValue` cannot be read through serde's buffered variants.)
#[derive(Deserialize)]
struct Rendered {
    needs: Option<Vec<String>>,
    /// React renders this call made (none when the loader still needed answers).
    #[serde(default)]
    renders: u64,
    status: Option<u16>,
    #[serde(default)]
    head: String,
    #[serde(default)]
    html: String,
    state: Option<Box<RawValue>>,
    /// Every API URL the page read (`reads.rs`); absent from a bundle older than it.
    reads: Option<Vec<String>>,
}

/// Why a page was answered with the app shell (the `reason` label of
/// `portal_page_fallbacks_total`).
#[derive(Debug, thiserror::Error)]
enum Fallback {
    #[error("the render failed: {0}")]
    Render(#[from] portal_render::RenderError),
    #[error("the render's answer is not what the gateway reads: {0}")]
    Output(#[from] serde_json::Error),
    #[error("the page kept asking for answers ({0} rounds)")]
    Rounds(usize),
    #[error("the page asked for {0} answers at once")]
    TooMany(usize),
}

impl Fallback {
    fn reason(&self) -> &'static str {
        match self {
            Self::Render(err) => err.reason(),
            Self::Output(_) => "output",
            Self::Rounds(_) | Self::TooMany(_) => "rounds",
        }
    }
}

/// The answers a render has been given so far, written as the JSON object `portalRender` reads
/// (`{"<url>":{"status":200,"body":<the API's own bytes>}}` without the braces), and what each
/// means for the page.
#[derive(Default)]
struct Answers {
    json: String,
    given: BTreeMap<String, Given>,
}

/// What one answer given to a render means for the page that reads it.
struct Given {
    tags: Vec<String>,
    cacheable: bool,
    /// 5xx: the answer failed for want of the CMS.
    status: StatusCode,
}

/// What the answers a page read make of it: its tags, whether it may be kept, and the status of
/// the first answer that failed for want of the CMS (the page's own, unless it says another).
struct Shown {
    tags: BTreeSet<String>,
    cacheable: bool,
    failed: Option<StatusCode>,
}

impl Answers {
    /// What the answers at `reads` make of the page: all given, when the bundle does not say
    /// what it read. An answer given but not read (a remembered read the page no longer makes)
    /// counts for nothing.
    fn of(&self, reads: Option<&[String]>) -> Shown {
        let mut shown = Shown {
            tags: BTreeSet::from([tags::CATEGORIES.to_owned()]),
            cacheable: true,
            failed: None,
        };
        let read: Box<dyn Iterator<Item = &Given>> = match reads {
            Some(reads) => Box::new(reads.iter().filter_map(|url| self.given.get(url))),
            None => Box::new(self.given.values()),
        };
        for given in read {
            shown.tags.extend(given.tags.iter().cloned());
            shown.cacheable &= given.cacheable;
            if given.status.is_server_error() {
                shown.failed.get_or_insert(given.status);
            }
        }
        shown
    }
}

/// The page as a cache entry: rendered, or the app shell when the render failed.
async fn make(state: &AppState, url: &str) -> Entry {
    match render(state, url).await {
        Ok(entry) => entry,
        Err(fallback) => {
            metrics::counter!("portal_page_fallbacks_total", "reason" => fallback.reason())
                .increment(1);
            tracing::warn!(page = url, error = %fallback, "the page is answered with the app shell");
            shell(state, url)
        }
    }
}

async fn render(state: &AppState, url: &str) -> Result<Entry, Fallback> {
    let runtime = state.runtime();
    let (code, _) = page_language(url);
    let lang = code.and_then(|code| runtime.language(code));
    let build = runtime.app_files.index_html().map_or(0, |(_, build)| build);
    let mut answers = Answers::default();
    // Every page starts from the site settings and the category tree (the header, the menu), and
    // what it read when last rendered (`reads.rs`): given at once, they spare the render its
    // rounds of asking. In another language, as the app asks them there (`lang=en`).
    let known = state.page_reads.of(build, url);
    let in_language = |path: &str| match lang {
        Some(l) => format!("{path}?lang={}", l.code),
        None => path.to_owned(),
    };
    let starts = [
        in_language(Endpoint::Site.path()),
        in_language(Endpoint::CategoryList.path()),
    ];
    let mut first: Vec<&str> = starts.iter().map(String::as_str).collect();
    for read in known.iter().flat_map(|reads| reads.iter()) {
        if !first.contains(&read.as_str()) {
            first.push(read);
        }
    }
    add_answers(&mut answers, state, &first).await?;
    let lang_code = lang.map_or(SITE_LANGUAGE, |l| &*l.code);
    for _ in 0..MAX_ROUNDS {
        let input = format!(
            r#"{{"url":{},"lang":"{lang_code}","answers":{{{}}}}}"#,
            serde_json::to_string(url)?,
            answers.json
        );
        let output = runtime.render.call("portalRender", input).await?;
        let rendered: Rendered = serde_json::from_str(&output)?;
        metrics::counter!("portal_page_renders_total").increment(rendered.renders);
        if let Some(needs) = rendered.needs {
            if needs.len() > MAX_NEEDS {
                return Err(Fallback::TooMany(needs.len()));
            }
            if needs
                .iter()
                .any(|need| answers.given.contains_key(need.as_str()))
            {
                // Asked again after its answer was given: the page cannot settle.
                return Err(Fallback::Rounds(MAX_ROUNDS));
            }
            let needs: Vec<&str> = needs.iter().map(String::as_str).collect();
            add_answers(&mut answers, state, &needs).await?;
            continue;
        }
        let store = rendered.state.as_deref().map_or("{}", RawValue::get);
        let template =
            in_html_language(runtime.app_files.index_html().map_or("", |(t, _)| t), lang);
        let document = fill_slots(
            &template,
            [
                (HEAD_SLOT, &rendered.head),
                (ROOT_SLOT, &rendered.html),
                (STATE_SLOT, &state_block(store)),
            ],
        );
        let shown = answers.of(rendered.reads.as_deref());
        if let Some(reads) = &rendered.reads {
            state.page_reads.remember(build, url, reads);
        }
        // A page drawn around an answer the CMS failed to give ("加载失败") says so, so that no
        // crawler keeps it as the page; the app in it asks again in the browser.
        // (The app says 200 for any page it found; a status it says otherwise, 404, stands.)
        let status = match rendered.status.and_then(|s| StatusCode::from_u16(s).ok()) {
            Some(said) if said != StatusCode::OK => said,
            _ => shown.failed.unwrap_or(StatusCode::OK),
        };
        let entry = Entry::of(MediaType::Html, status, document.into())
            .tagged(shown.tags.into_iter().collect());
        return Ok(if shown.cacheable {
            entry
        } else {
            entry.not_cacheable()
        });
    }
    Err(Fallback::Rounds(MAX_ROUNDS))
}

/// Asks the content service for the API answers at `urls`, all at once (a page's list and the
/// tree it needs load side by side, not one after the other), and adds them to what the render is
/// given, in the order asked.
async fn add_answers(
    answers: &mut Answers,
    state: &AppState,
    urls: &[&str],
) -> Result<(), Fallback> {
    let loaded =
        futures_util::future::join_all(urls.iter().map(|url| api_answer(state, url))).await;
    for (url, answer) in urls.iter().zip(loaded) {
        if !answers.json.is_empty() {
            answers.json.push(',');
        }
        let _ = write!(
            answers.json,
            r#"{}:{{"status":{},"body":"#,
            serde_json::to_string(url)?,
            answer.status.as_u16()
        );
        answers
            .json
            .push_str(&String::from_utf8_lossy(&answer.body));
        answers.json.push('}');
        answers.given.insert(
            (*url).to_owned(),
            Given {
                tags: answer.tags,
                cacheable: answer.cacheable,
                status: answer.status,
            },
        );
    }
    Ok(())
}

/// `template` with each slot, in the order they stand in it, replaced by its text. The template
/// is cut at the slots first, so a slot's name inside an earlier slot's text (CMS text in a
/// title) is never filled.
fn fill_slots(template: &str, slots: [(&str, &str); 3]) -> String {
    let mut out = String::with_capacity(
        template.len() + slots.iter().map(|(_, text)| text.len()).sum::<usize>(),
    );
    let mut rest = template;
    for (slot, text) in slots {
        match rest.split_once(slot) {
            Some((before, after)) => {
                out.push_str(before);
                out.push_str(text);
                rest = after;
            }
            // A template without this slot (a build from before it): the text has no place.
            None => tracing::warn!(slot, "the build's index.html has no such slot"),
        }
    }
    out.push_str(rest);
    out
}

/// One API answer a page asked for: what `/portal/api` answers at that URL, from the same
/// content service and cache.
struct ApiAnswer {
    status: StatusCode,
    body: bytes::Bytes,
    tags: Vec<String>,
    cacheable: bool,
}

async fn api_answer(state: &AppState, url: &str) -> ApiAnswer {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let failed = |err: ApiError, cacheable: bool| ApiAnswer {
        status: err.status(),
        body: err.envelope_bytes(),
        tags: Vec::new(),
        cacheable,
    };
    let Some(endpoint) = Endpoint::of_path(path) else {
        return failed(ApiError::NotFound("请求的接口不存在。".to_owned()), true);
    };
    // In the language the URL asks for (`lang=en`), as `/portal/api` answers it.
    let runtime = state.runtime();
    let raw = RawQuery::parse(query);
    let lang = match crate::api::language(&runtime, &raw) {
        Ok(lang) => lang,
        Err(err) => return failed(err, true),
    };
    let content = state.content_in(&runtime, lang);
    if endpoint == Endpoint::Site {
        let site = runtime.site_in(lang);
        return ApiAnswer {
            status: site.status,
            body: site.body.bytes.clone(),
            tags: Vec::new(),
            cacheable: true,
        };
    }
    let query = match content_query(&content, endpoint, raw) {
        Ok(query) => query,
        Err(err) => return failed(err, true),
    };
    let lookup = content.lookup(query, Caller::default()).await;
    match lookup.result {
        // A stale answer (purged, or past its TTL while its refresh runs): the page shows it but
        // is not kept, so the next visitor's page is rendered from the refreshed answer.
        Ok(entry) => ApiAnswer {
            status: entry.status,
            body: entry.body.bytes.clone(),
            tags: entry.tags.to_vec(),
            cacheable: entry.cacheable && lookup.outcome != Outcome::Stale,
        },
        // The CMS failing: the page shows what the app shows then, and is not kept.
        Err(err) => failed(err, false),
    }
}

/// The store state as a data block: `<` written `\u003c`, so no text of the CMS can end it (the
/// JSON's `<` are all inside strings, where the escape reads back the same).
fn state_block(state: &str) -> String {
    format!(
        r#"<script type="application/json" id="portal-state">{}</script>"#,
        state.replace('<', "\\u003c")
    )
}

/// The app shell: the build's page with the company's name as its title and nothing rendered;
/// the browser renders the page itself.
fn shell(state: &AppState, url: &str) -> Entry {
    let runtime = state.runtime();
    let lang = page_language_configured(&runtime, url).flatten();
    let template = in_html_language(runtime.app_files.index_html().map_or("", |(t, _)| t), lang);
    let company = lang.map_or(&runtime.config.site.company_name, |l| &l.facts.company_name);
    let title = format!("<title>{}</title>", html_escape::encode_text(company));
    let document = template
        .replacen(HEAD_SLOT, &title, 1)
        .replacen(ROOT_SLOT, "", 1)
        .replacen(STATE_SLOT, "", 1);
    Entry::of(MediaType::Html, StatusCode::OK, document.into()).not_cacheable()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `frontend/src/lib/address-cases.json`: single values and whole addresses, with the answer
    /// the app's readers and the gateway's page key must both give (`frontend/src/address.test.ts`
    /// feeds the app the same).
    #[derive(serde::Deserialize)]
    struct AddressCases {
        cases: Vec<ValueCase>,
        pages: Vec<PageCase>,
    }

    #[derive(serde::Deserialize)]
    struct ValueCase {
        name: String,
        raw: String,
        read: Option<String>,
    }

    #[derive(serde::Deserialize)]
    struct PageCase {
        path: String,
        query: String,
        read: Vec<(String, String)>,
    }

    fn address_cases() -> AddressCases {
        serde_json::from_str(include_str!(
            "../../../../frontend/src/lib/address-cases.json"
        ))
        .unwrap()
    }

    /// The same hostile values the app's readers are fed, with the answer both must give.
    #[test]
    fn an_address_with_escaped_letters_is_the_address_written_plainly() {
        assert_eq!(unreserved_decoded("/%61bout").as_deref(), Some("/about"));
        assert_eq!(
            unreserved_decoded("/news_center/%4Eotice%5F").as_deref(),
            Some("/news_center/Notice_")
        );
        // What an escape must stay: other bytes (a Chinese slug), `.`, `/`; and no escape at all.
        assert_eq!(unreserved_decoded("/%E4%B8%AD/%2E%2E/%2F"), None);
        assert_eq!(unreserved_decoded("/about"), None);
        assert_eq!(unreserved_decoded("/a%6"), None);
    }

    #[test]
    fn an_address_value_is_read_as_the_app_reads_it() {
        let cases = address_cases().cases;
        assert!(cases.len() > 40);
        for case in cases {
            assert_eq!(
                read_as_app(&case.name, &case.raw),
                case.read,
                "{}={:?}",
                case.name,
                case.raw
            );
        }
    }

    /// Whole addresses with hostile values (`?page=02`, `%C2%85`, U+FEFF, twenty digits), the same
    /// the app's `readPage`, its pages' readers and its shared address are fed: the page key keeps
    /// what they read, in the table's order.
    #[test]
    fn a_pages_address_is_read_as_the_app_reads_it() {
        let pages = address_cases().pages;
        assert!(pages.len() > 10);
        for case in pages {
            let url = page_url(&format!("/portal{}", case.path), Some(&case.query));
            let (path, query) = url.split_once('?').unwrap_or((&url, ""));
            assert_eq!(path, format!("/portal{}", case.path));
            let read: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
                .map(|(name, value)| (name.into_owned(), value.into_owned()))
                .collect();
            assert_eq!(read, case.read, "{}?{}", case.path, case.query);
        }
    }

    #[test]
    fn a_pages_address_keeps_only_what_the_app_reads() {
        let cases = [
            // Other parameters are the same page.
            (
                "/portal/news_center/notice",
                "utm=1&page=2&x=y",
                "/portal/news_center/notice?page=2",
            ),
            // A value written another way is the same page; one the app takes no page from, none.
            (
                "/portal/news_center/notice",
                "page=007",
                "/portal/news_center/notice?page=7",
            ),
            (
                "/portal/news_center/notice",
                "page=0",
                "/portal/news_center/notice",
            ),
            (
                "/portal/news_center/notice",
                "page=1e2",
                "/portal/news_center/notice",
            ),
            (
                "/portal/news_center/notice",
                "page=100001",
                "/portal/news_center/notice",
            ),
            (
                "/portal/news_center/notice",
                "q=x&id=3&listPage=2",
                "/portal/news_center/notice",
            ),
            // The search reads its keyword (the first, trimmed) and page, in that order.
            (
                "/portal/search",
                "page=2&q=+%E7%8F%AD%E5%88%97+&q=other",
                "/portal/search?q=%E7%8F%AD%E5%88%97&page=2",
            ),
            ("/portal/search", "q=%01x", "/portal/search"),
            // The index's filters, each as the app reads it (`articleIdOf`, `dayOf`).
            (
                "/portal/search",
                "to=2025-12-31&page=2&section=21&q=a&from=2025-01-01",
                "/portal/search?q=a&section=21&from=2025%2D01%2D01&to=2025%2D12%2D31&page=2",
            ),
            (
                "/portal/search",
                "q=a&section=a%2Fb&from=2025-02-30&to=2025-1-x",
                "/portal/search?q=a",
            ),
            // A day as people write it is the day it is (a form sent without the app).
            (
                "/portal/search",
                "q=a&to=2025-1-1",
                "/portal/search?q=a&to=2025%2D01%2D01",
            ),
            // An article the list page it was opened from; 党建风采详情 its id.
            (
                "/portal/article/2101",
                "listPage=03&page=4",
                "/portal/article/2101?listPage=3",
            ),
            (
                "/portal/party/detail",
                "id=9&page=2",
                "/portal/party/detail?id=9",
            ),
            // The CMS's own ids as they are written: one page per id text.
            (
                "/portal/party/detail",
                "id=09",
                "/portal/party/detail?id=09",
            ),
            ("/portal/party/detail", "id=0", "/portal/party/detail"),
            ("/portal/party/detail", "id=-9", "/portal/party/detail"),
            (
                "/portal/party/detail",
                "id=zx8k2m9q4w7e1r5t3y6u0i2o",
                "/portal/party/detail?id=zx8k2m9q4w7e1r5t3y6u0i2o",
            ),
            ("/portal/index.html", "", "/portal/"),
        ];
        for (path, query, url) in cases {
            assert_eq!(page_url(path, Some(query)), url, "{path}?{query}");
        }
        let long = format!("q={}", "a".repeat(5000));
        assert_eq!(page_url("/portal/search", Some(&long)), "/portal/search");
    }

    #[test]
    fn a_slots_name_in_an_earlier_slots_text_is_left_alone() {
        let template = "<head><!--portal-head--></head><div id=root><!--portal-root--></div><!--portal-state-->";
        let page = fill_slots(
            template,
            [
                (HEAD_SLOT, "<title>x <!--portal-root--> y</title>"),
                (ROOT_SLOT, "<p><!--portal-state--></p>"),
                (STATE_SLOT, "<script>{}</script>"),
            ],
        );
        assert_eq!(
            page,
            "<head><title>x <!--portal-root--> y</title></head><div id=root><p><!--portal-state--></p></div><script>{}</script>"
        );
    }

    #[test]
    fn the_state_block_cannot_be_ended_by_cms_text() {
        let block = state_block(r#"{"t":"</script><script>alert(1)</script>"}"#);
        assert_eq!(block.matches("</script>").count(), 1);
        assert!(block.contains(r"\u003c/script>"));
    }
}
