//! Links and images a body names by the CMS's own ids and slugs rather than by address:
//! Wagtail's rich-text storage format (`<a linktype="page" id="33">`, `<embed embedtype="image"
//! id="5">`) and links to the CMS's article pages by slug (`/news/*/{slug}/`). They are found
//! before the body is sanitised, slugs and image ids are looked up on the CMS (`Upstream::article`),
//! and the body is rewritten to the portal's addresses, so that ammonia then sees ordinary
//! `<a href>` and `<img src>` (without this it drops them: an `<a>` with no address, an
//! `<embed>`).

use std::{
    cell::RefCell,
    collections::{BTreeSet, HashMap},
};

use lol_html::{Settings, element, html_content::Element, rewrite_str};
use portal_core::model::Id;

use super::{
    link_patterns::ArticleRef,
    links::{FileLinks, article_path},
};

/// Lookups one body may cause, at most; links past them stay unresolved (left as the CMS wrote
/// them, which the sanitiser then keeps or drops as any other link). A body of the demo names
/// none; a long article with a dozen related links stays within it.
pub const MAX_LOOKUPS: usize = 20;

/// What a body names that only the CMS can resolve.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    pub slugs: BTreeSet<String>,
    pub images: BTreeSet<u64>,
}

impl Wanted {
    pub fn is_empty(&self) -> bool {
        self.slugs.is_empty() && self.images.is_empty()
    }

    fn len(&self) -> usize {
        self.slugs.len() + self.images.len()
    }
}

/// What the lookups answered: an article id per slug, an address per image.
#[derive(Debug, Default, Clone)]
pub struct Resolved {
    pub slugs: HashMap<String, Id>,
    pub images: HashMap<u64, String>,
}

/// Whether `html` may hold anything `rewrite` changes (a cheap test, so most bodies skip the
/// parse).
pub fn may_refer(html: &str, links: &FileLinks) -> bool {
    html.contains("linktype") || html.contains("embedtype") || links.has_slug_pages()
}

fn id_of(el: &Element) -> Option<u64> {
    let id = el.get_attribute("id")?;
    let id = id.trim();
    (id.len() <= 19 && !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .then(|| id.parse().ok())
        .flatten()
}

/// The slugs and image ids `html` names that need a lookup: `slugs` when the CMS finds articles
/// by slug, `images` when it finds images by id only through their records.
pub fn wanted(html: &str, links: &FileLinks, slugs: bool, images: bool) -> Wanted {
    if !slugs && !images {
        return Wanted::default();
    }
    let found = RefCell::new(Wanted::default());
    let mut settings = Settings::new().with_strict(false);
    if images {
        settings =
            settings.append_element_content_handler(element!("embed[embedtype=image]", |el| {
                let mut found = found.borrow_mut();
                if found.len() < MAX_LOOKUPS
                    && let Some(id) = id_of(el)
                {
                    found.images.insert(id);
                }
                Ok(())
            }));
    }
    if slugs {
        settings = settings.append_element_content_handler(element!("a[href]", |el| {
            let mut found = found.borrow_mut();
            if found.len() < MAX_LOOKUPS
                && let Some(ArticleRef::Slug(slug)) =
                    el.get_attribute("href").and_then(|h| links.article_ref(&h))
            {
                found.slugs.insert(slug);
            }
            Ok(())
        }));
    }
    // Only what the handlers saw matters; a body lol_html cannot read names nothing.
    let _ = rewrite_str(html, settings);
    found.into_inner()
}

/// `html` with links and images named by id or slug written as the portal's addresses: a page
/// link by id becomes `/portal/article/{id}`, one by slug the same once `resolved` knows the
/// slug; an embedded image becomes an `<img>` of its file through the gateway, or goes when
/// nothing says where its file is. A body lol_html cannot read is returned as it came.
pub fn rewrite(html: &str, links: &FileLinks, resolved: &Resolved) -> String {
    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!("a[linktype]", |el| {
            if el.get_attribute("linktype").as_deref() == Some("page")
                && let Some(id) = el
                    .get_attribute("id")
                    .and_then(|id| Id::parse(id.trim()).ok())
            {
                el.set_attribute("href", &article_path(&id))?;
            }
            el.remove_attribute("linktype");
            el.remove_attribute("id");
            Ok(())
        }))
        .append_element_content_handler(element!("a[href]", |el| {
            if let Some(ArticleRef::Slug(slug)) =
                el.get_attribute("href").and_then(|h| links.article_ref(&h))
                && let Some(id) = resolved.slugs.get(&slug)
            {
                el.set_attribute("href", &article_path(id))?;
            }
            Ok(())
        }))
        .append_element_content_handler(element!("embed[embedtype]", |el| {
            let src = (el.get_attribute("embedtype").as_deref() == Some("image"))
                .then(|| id_of(el))
                .flatten()
                .and_then(|id| {
                    links.image_by_id(&id.to_string()).or_else(|| {
                        resolved
                            .images
                            .get(&id)
                            .and_then(|address| links.rewrite(address))
                    })
                });
            let Some(src) = src else {
                el.remove();
                return Ok(());
            };
            el.set_tag_name("img")?;
            for name in ["embedtype", "id", "format"] {
                el.remove_attribute(name);
            }
            el.set_attribute("src", &src.replace('&', "&amp;"))?;
            Ok(())
        }));
    rewrite_str(html, settings).unwrap_or_else(|_| html.to_owned())
}

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;
    use crate::link_patterns::LinkPattern;

    fn links() -> FileLinks {
        FileLinks::new(&Url::parse("http://cms.internal:8000/").unwrap(), "media")
            .with_article_pages(vec![
                LinkPattern::compile("/news_center/*/{slug}/").unwrap(),
            ])
    }

    const BODY: &str = r#"<p>见<a linktype="page" id="33">通知</a>与<a href="/news_center/company_announcement/news-003/">公告</a>。</p><embed embedtype="image" id="5" format="fullwidth" alt="站台"/><embed embedtype="image" id="6" alt="未知"/><embed embedtype="media" url="https://video.example/1"/>"#;

    #[test]
    fn slugs_and_images_wanted_are_found() {
        let wanted = wanted(BODY, &links(), true, true);
        assert_eq!(wanted.slugs, BTreeSet::from(["news-003".to_owned()]));
        assert_eq!(wanted.images, BTreeSet::from([5, 6]));
        assert!(super::wanted(BODY, &links(), false, false).is_empty());
    }

    #[test]
    fn ids_and_slugs_become_portal_addresses() {
        let resolved = Resolved {
            slugs: HashMap::from([("news-003".to_owned(), 41.into())]),
            images: HashMap::from([(5, "/media/original_images/zhan.jpg".to_owned())]),
        };
        let out = rewrite(BODY, &links(), &resolved);
        assert!(
            out.contains(r#"<a href="/portal/article/33">通知</a>"#),
            "{out}"
        );
        assert!(
            out.contains(r#"<a href="/portal/article/41">公告</a>"#),
            "{out}"
        );
        assert!(
            out.contains(r#"<img alt="站台" src="/portal/api/files/original_images/zhan.jpg""#),
            "{out}"
        );
        // An image nothing resolves, and an embed of another kind, go.
        assert!(!out.contains("未知") && !out.contains("embed"), "{out}");
    }

    #[test]
    fn a_store_serving_files_by_id_needs_no_lookup() {
        let links = FileLinks::new(&Url::parse("http://cms.internal:8055/").unwrap(), "assets")
            .with_image_file(Some((String::new(), String::new())));
        let out = rewrite(
            r#"<embed embedtype="image" id="9">"#,
            &links,
            &Resolved::default(),
        );
        assert_eq!(out, r#"<img src="/portal/api/files/9">"#);
    }
}
