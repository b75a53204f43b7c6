//! The templates (askama, compiled with the binary; `gateway/templates/crawl/`) and what each
//! shows. HTML escaping is the templates' default; only the article body, sanitised by the API,
//! and the JSON-LD block, escaped here, are written as they are.

use askama::Template;

use super::assets::Assets;
use crate::model::site::Site;

pub struct MenuItem {
    pub name: String,
    pub href: String,
    /// (name, href)
    pub children: Vec<(String, String)>,
}

pub struct Item {
    pub title: String,
    pub href: String,
    pub date: String,
    pub summary: Option<String>,
}

pub struct Child {
    pub name: String,
    pub href: String,
    pub description: Option<String>,
}

pub struct ArticleView {
    pub date: String,
    pub source: Option<String>,
    pub author: Option<String>,
    /// Sanitised by the API (`api::content`).
    pub html: String,
    /// Names and gateway links.
    pub attachments: Vec<AttachmentView>,
    /// (title, href)
    pub prev: Option<(String, String)>,
    pub next: Option<(String, String)>,
}

pub struct AttachmentView {
    pub name: String,
    pub url: String,
}

pub struct Pager {
    pub total: u64,
    pub page: u32,
    pub pages: u64,
    pub prev: Option<String>,
    pub next: Option<String>,
}

#[derive(Template)]
#[template(path = "crawl/page.html")]
pub struct Page<'a> {
    pub site: &'a Site,
    /// The `<title>`: `heading – company`.
    pub title: String,
    pub heading: String,
    pub description: String,
    pub canonical: String,
    /// The stylesheets and the enhancement script it links.
    pub assets: &'a Assets,
    /// The header's search box (sent to the app's results), when the CMS searches.
    pub search: bool,
    /// 复制链接, 二维码 and 打印 under an article (an article page, not a section's text).
    pub article_tools: bool,
    pub og_type: &'static str,
    pub og_image: Option<String>,
    /// Written as it is: made by `json_ld`.
    pub json_ld: String,
    /// (title, href) of the RSS feeds of what the page lists.
    pub feeds: Vec<(String, String)>,
    pub menu: &'a [MenuItem],
    /// (name, href), after 首页.
    pub breadcrumb: Vec<(String, String)>,
    pub intro: Option<String>,
    pub article: Option<ArticleView>,
    pub children: Vec<Child>,
    pub items_heading: Option<String>,
    pub items: Vec<Item>,
    pub pager: Option<Pager>,
    /// 信访举报 on 清正廉洁: (label, value) of each line `[site.whistleblowing]` sets.
    pub whistleblowing: Vec<(&'static str, String)>,
}

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

/// A JSON-LD block's text: `value` serialised with `<` escaped, so no `</script>` can end the block
/// early whatever the CMS wrote.
pub fn json_ld(value: &serde_json::Value) -> String {
    serde_json::to_string(value)
        .expect("JSON serialises")
        .replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_ld_cannot_close_its_script_block() {
        let text = super::json_ld(
            &serde_json::json!({ "headline": "</script><script>alert(1)</script>" }),
        );
        assert!(!text.contains("</script>"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["headline"], "</script><script>alert(1)</script>");
    }
}
