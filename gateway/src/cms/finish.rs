//! The last step of reading the CMS: file links pointed at the gateway, summaries without a
//! body, and article HTML sanitised, so every value the adapter returns is safe to show.

use super::links::FileLinks;
use crate::model::{Article, ArticlePage};

/// Points an article's cover, video, captions and attachments at the gateway; drops what cannot be.
fn rewrite_links(links: &FileLinks, article: &mut Article) {
    article.cover = article.cover.as_deref().and_then(|c| links.rewrite(c));
    article.video = article.video.as_deref().and_then(|v| links.rewrite(v));
    article.captions = article.captions.as_deref().and_then(|c| links.rewrite(c));
    article
        .attachments
        .retain_mut(|a| match links.rewrite(&a.url) {
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

/// One article as the browser gets it: its body sanitised, its links through the gateway.
pub fn finish_article(mut article: Article, links: &FileLinks) -> Article {
    rewrite_links(links, &mut article);
    article.content = article.content.as_deref().map(|html| sanitize(html, links));
    article
}

/// Article HTML as the CMS wrote it, minus anything that could run script or leave the page's
/// look; file references are rewritten to the gateway.
pub fn sanitize(html: &str, links: &FileLinks) -> String {
    let links = links.clone();
    ammonia::Builder::default()
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
        .to_string()
}

#[cfg(test)]
mod tests;
