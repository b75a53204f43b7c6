//! Links in a body to one of the CMS's folders, for a CMS whose ids are paths
//! (`dialect.ids = "paths"`, Plone): a `{path}` pattern in `dialect.links.article` reads every
//! link below the site as an article's (`/portal/article/news_center:notice`), since a path names
//! a folder and an item alike. Where the path is a folder the tree has, the link is to that
//! section's page (`/portal/news_center/notice`) rather than to an article that is not there.
//!
//! Only for ids that are paths: there an id names one thing, so an id the tree holds is a
//! folder; with numbered ids a category and an article may share a number.

use portal_core::model::{CategoryTree, Id};

const ARTICLE_LINK: &str = "href=\"/portal/article/";

/// `html` with each link to an article page whose id is a section of `tree` made a link to the
/// section's page; `None` when there is none (the body as it is).
pub fn to_sections(html: &str, tree: &CategoryTree) -> Option<String> {
    if !html.contains(ARTICLE_LINK) {
        return None;
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut changed = false;
    while let Some(at) = rest.find(ARTICLE_LINK) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let value = &from[ARTICLE_LINK.len()..];
        let Some(end) = value.find('"') else {
            rest = from;
            break;
        };
        let section = Id::parse(&value[..end])
            .ok()
            .and_then(|id| tree.trail_to_id(&id)?.last().map(|c| c.url.clone()))
            .filter(|url| url.starts_with('/') && !url.starts_with("//"));
        match section {
            Some(url) => {
                out.push_str("href=\"/portal");
                out.push_str(&url);
                out.push('"');
                changed = true;
            }
            None => out.push_str(&from[..ARTICLE_LINK.len() + end + 1]),
        }
        rest = &value[end + 1..];
    }
    out.push_str(rest);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use portal_core::model::Category;

    fn folder(id: &str, url: &str, sub: Vec<Category>) -> Category {
        serde_json::from_value(serde_json::json!({
            "id": id, "parentId": 0, "name": id, "url": url, "sort": 0, "type": "list",
            "subCategory": sub,
        }))
        .unwrap()
    }

    #[test]
    fn a_link_to_a_folder_is_to_its_section_and_one_to_an_item_stays() {
        let tree = CategoryTree {
            content: vec![folder(
                "news_center",
                "/news_center",
                vec![folder("news_center:notice", "/news_center/notice", vec![])],
            )],
        };
        let body = "<p><a href=\"/portal/article/news_center:notice\">通知公告</a>、\
                    <a href=\"/portal/article/news_center:notice:spring\">春运</a>、\
                    <a href=\"/portal/article/news_center\">新闻中心</a></p>";
        assert_eq!(
            to_sections(body, &tree).as_deref(),
            Some(
                "<p><a href=\"/portal/news_center/notice\">通知公告</a>、\
                 <a href=\"/portal/article/news_center:notice:spring\">春运</a>、\
                 <a href=\"/portal/news_center\">新闻中心</a></p>"
            )
        );
        assert_eq!(
            to_sections(
                "<a href=\"/portal/article/news_center:notice:spring\">",
                &tree
            ),
            None
        );
        assert_eq!(to_sections("<a href=\"/portal/article/x", &tree), None);
    }
}
