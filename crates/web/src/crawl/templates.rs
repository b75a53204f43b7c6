//! The sitemap's and the feeds' templates (askama, compiled with the binary;
//! `gateway/templates/crawl/`), XML-escaped.

use askama::Template;

#[derive(Template)]
#[template(path = "crawl/sitemap.xml")]
pub struct Sitemap {
    /// (absolute URL, lastmod `yyyy-MM-dd`)
    pub urls: Vec<(String, Option<String>)>,
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
