//! The sitemap's and the feeds' templates (askama, compiled with the binary;
//! `gateway/templates/crawl/`), XML-escaped.

use askama::Template;

/// A sitemap entry: its absolute URL, lastmod `yyyy-MM-dd`, and the page in each language
/// (`hreflang`, URL; none when it is in one).
pub type SitemapUrl = (String, Option<String>, Vec<(String, String)>);

#[derive(Template)]
#[template(path = "crawl/sitemap.xml")]
pub struct Sitemap {
    pub urls: Vec<SitemapUrl>,
}

pub struct FeedItem {
    pub title: String,
    pub link: String,
    pub pub_date: Option<String>,
    pub summary: Option<String>,
}

#[derive(Template)]
#[template(path = "crawl/feed.xml")]
pub struct Feed {
    pub title: String,
    pub link: String,
    pub description: String,
    pub self_href: String,
    pub last_build: Option<String>,
    pub items: Vec<FeedItem>,
}
