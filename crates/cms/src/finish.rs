//! The last step of reading the CMS: file links pointed at the gateway, summaries without a
//! body, and article HTML sanitised, so every value the adapter returns is safe to show.

use std::{
    sync::{Arc, LazyLock},
    time::Duration,
};

use tokio::sync::Semaphore;

use super::{
    UpstreamError,
    body_refs::{self, Resolved},
    links::FileLinks,
};
use portal_core::model::{Article, ArticlePage};

/// Points an article's cover, video, captions and attachments at the gateway; drops what cannot be.
fn rewrite_links(links: &FileLinks, article: &mut Article) {
    article.cover = article.cover.as_deref().and_then(|c| links.file_field(c));
    article.video = article.video.as_deref().and_then(|v| links.file_field(v));
    article.captions = article
        .captions
        .as_deref()
        .and_then(|c| links.file_field(c));
    article
        .attachments
        .retain_mut(|a| match links.file_field(&a.url) {
            Some(url) => {
                a.url = url;
                true
            }
            None => false,
        });
}

/// A page of summaries as the browser gets it: no bodies, file links through the gateway.
pub fn finish_page(mut page: ArticlePage, links: &FileLinks) -> ArticlePage {
    for article in &mut page.content {
        // Summaries never carry a body, whatever the CMS sends.
        article.content = None;
        rewrite_links(links, article);
    }
    page
}

/// Sanitisations running at once, at most (one core each).
const SANITISING_AT_ONCE: usize = 2;
/// Longest a body may take to be made safe, waiting for its turn included. An article of the
/// demo takes well under a millisecond; a CMS's 50 000 nested `<div>`s took 5.3 s and 150 000
/// over 12 s (ammonia's parse grows faster than the nesting).
pub const SANITISE_BUDGET: Duration = Duration::from_secs(2);

/// `finish_article` off the runtime's workers, within `SANITISE_BUDGET`: on a thread of its own,
/// at most `SANITISING_AT_ONCE` at a time, so a hostile body never stops the gateway answering
/// (`/healthz` included). Past the budget the article is a bad answer; its sanitising finishes in
/// the background, its turn held until then, so such bodies cannot take more than those cores.
pub async fn finish_article_in_budget(
    article: Article,
    links: &FileLinks,
    resolved: Resolved,
) -> Result<Article, UpstreamError> {
    static TURNS: LazyLock<Arc<Semaphore>> =
        LazyLock::new(|| Arc::new(Semaphore::new(SANITISING_AT_ONCE)));
    let id = article.id.clone();
    let over_budget = || {
        UpstreamError::BadResponse(format!(
            "article {id}'s HTML could not be made safe within {} s (nested too deep?)",
            SANITISE_BUDGET.as_secs()
        ))
    };
    // Refused before any turn is spent: the parse's cost grows faster than the nesting, and no
    // budget gives back a core a hostile body is already holding.
    if let Some(depth) = article.content.as_deref().and_then(too_deep) {
        return Err(UpstreamError::BadResponse(format!(
            "article {id}'s HTML nests {depth} elements deep (at most {MAX_DEPTH} are shown)"
        )));
    }
    let deadline = tokio::time::Instant::now() + SANITISE_BUDGET;
    let turn = tokio::time::timeout_at(deadline, Arc::clone(&TURNS).acquire_owned())
        .await
        .map_err(|_| over_budget())?
        .expect("the semaphore is never closed");
    let links = links.clone();
    let (done, result) = tokio::sync::oneshot::channel();
    // A thread of its own rather than the runtime's blocking pool: the process does not wait
    // for a sanitising past its budget when it shuts down.
    let started = std::thread::Builder::new()
        .name("sanitise".to_owned())
        .spawn(move || {
            let _turn = turn;
            let _ = done.send(finish_article_with(article, &links, &resolved));
        });
    if started.is_err() {
        return Err(UpstreamError::BadResponse(format!(
            "article {id}'s HTML could not be made safe (no thread)"
        )));
    }
    match tokio::time::timeout_at(deadline, result).await {
        Ok(Ok(article)) => Ok(article),
        Ok(Err(_)) => Err(UpstreamError::BadResponse(format!(
            "article {id}'s HTML could not be made safe"
        ))),
        Err(_) => Err(over_budget()),
    }
}

/// Elements open at once, at most, in a body the gateway will sanitise. Real articles nest a few
/// dozen deep (a table in a list in a section); 50 000 nested `<div>`s took ammonia 5.3 s of one
/// core (43 s a turn beside another such body, the red team of 2026-11-28), 1 000 take ~2 ms.
pub const MAX_DEPTH: usize = 1_000;

/// How deep `html` nests, when deeper than `MAX_DEPTH`: a scan of its tags (not a parse) counting
/// elements opened and not yet closed. Void elements (`<br>`, `<img>`), self-closed ones and those
/// whose end tag HTML lets a writer leave out (`<p>`, `<li>`, `<td>`…) are not counted, so a
/// well-formed or loosely written article is never taken for a deep one.
pub fn too_deep(html: &str) -> Option<usize> {
    const NOT_COUNTED: &[&str] = &[
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "colgroup",
        "thead", "tbody", "tfoot", "rb", "rt", "rp", "rtc",
    ];
    let bytes = html.as_bytes();
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut at = 0;
    while let Some(found) = memchr_lt(&bytes[at..]) {
        let start = at + found + 1;
        let closing = bytes.get(start) == Some(&b'/');
        let name_start = if closing { start + 1 } else { start };
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        at = name_start + name_len;
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            continue;
        }
        let name = &html[name_start..name_start + name_len];
        if NOT_COUNTED.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            continue;
        }
        let end = bytes[at..].iter().position(|b| *b == b'>').map(|i| at + i);
        let self_closed = end.is_some_and(|e| e > 0 && bytes[e - 1] == b'/');
        if closing {
            depth = depth.saturating_sub(1);
        } else if !self_closed {
            depth += 1;
            deepest = deepest.max(depth);
        }
        if let Some(end) = end {
            at = end + 1;
        }
    }
    (deepest > MAX_DEPTH).then_some(deepest)
}

fn memchr_lt(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|b| *b == b'<')
}

/// One article as the browser gets it: its body sanitised, its links through the gateway.
pub fn finish_article(article: Article, links: &FileLinks) -> Article {
    finish_article_with(article, links, &Resolved::default())
}

/// `finish_article`, with what the CMS answered for the slugs and image ids its body names.
fn finish_article_with(mut article: Article, links: &FileLinks, resolved: &Resolved) -> Article {
    rewrite_links(links, &mut article);
    article.content = article.content.as_deref().map(|html| {
        if body_refs::may_refer(html, links) {
            sanitize(&body_refs::rewrite(html, links, resolved), links)
        } else {
            sanitize(html, links)
        }
    });
    article
}

/// Article HTML as the CMS wrote it, minus anything that could run script or leave the page's
/// look; file references are rewritten to the gateway.
pub fn sanitize(html: &str, links: &FileLinks) -> String {
    let links = links.clone();
    let cleaned = ammonia::Builder::default()
        .add_tags(["figure", "figcaption", "video", "source", "section"])
        .add_tag_attributes("img", ["loading", "width", "height"])
        .add_tag_attributes(
            "video",
            ["src", "poster", "controls", "preload", "width", "height"],
        )
        .add_tag_attributes("source", ["src", "type"])
        .add_tag_attributes("td", ["colspan", "rowspan"])
        .add_tag_attributes("th", ["colspan", "rowspan", "scope"])
        .add_generic_attributes(["class"])
        .link_rel(Some("noopener noreferrer"))
        .attribute_filter(move |element, attribute, value| {
            if (element, attribute) == ("a", "href")
                && let Some(page) = links.article_page(value)
            {
                return Some(page.into());
            }
            let is_link = matches!(
                (element, attribute),
                ("img", "src") | ("a", "href") | ("video", "src" | "poster") | ("source", "src")
            );
            if !is_link {
                return Some(value.into());
            }
            links.rewrite(value).map(Into::into)
        })
        .clean(html)
        .to_string();
    without_empty_images(cleaned)
}

/// `html` (ammonia's output: every tag well formed, attributes quoted) without the `<img>`s
/// whose `src` was dropped above (`<img src=x>`, a script URL): an image with nothing to show
/// would be a broken-image icon.
fn without_empty_images(html: String) -> String {
    if !html.contains("<img") {
        return html;
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html.as_str();
    while let Some(start) = rest.find("<img") {
        out.push_str(&rest[..start]);
        let tag_end = rest[start..]
            .find('>')
            .map_or(rest.len(), |end| start + end + 1);
        let tag = &rest[start..tag_end];
        if tag.contains(" src=\"") {
            out.push_str(tag);
        }
        rest = &rest[tag_end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
