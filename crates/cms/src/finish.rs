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
