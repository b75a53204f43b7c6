//! Where the CMS keeps its files, and how a reference to one becomes a gateway path, so the
//! browser never needs the CMS's address. Lives beside the client because both read the CMS's
//! URL layout from the same config.

use url::Url;

use super::link_patterns::{ArticleRef, LinkPattern};
use crate::endpoint::Endpoint;

/// Where the browser fetches CMS files through the gateway.
pub const FILES_ROUTE: &str = Endpoint::Files.path();

/// The portal's own page of article `id`.
pub fn article_path(id: u64) -> String {
    format!("/portal/article/{id}")
}

/// Rewrites CMS file references so the browser fetches them through the gateway.
#[derive(Debug, Clone)]
pub struct FileLinks {
    base: Url,
    files_root: Url,
    /// The CMS's article page addresses (`dialect.links.article`).
    article_pages: Vec<LinkPattern>,
    /// The file-store path of an image by id (`dialect.links.image_file`), around `{id}`.
    image_file: Option<(String, String)>,
}

impl FileLinks {
    pub fn new(base: &Url, files_path: &str) -> Self {
        let mut base = base.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        let files_root = base
            .join(&format!("{}/", files_path.trim_matches('/')))
            .expect("validated relative path");
        Self {
            base,
            files_root,
            article_pages: Vec::new(),
            image_file: None,
        }
    }

    /// These links, with the CMS's article pages (`dialect.links.article`) led to the portal's.
    pub fn with_article_pages(mut self, patterns: Vec<LinkPattern>) -> Self {
        self.article_pages = patterns;
        self
    }

    /// These links, with images embedded by id found at this file-store path (`before{id}after`).
    pub fn with_image_file(mut self, template: Option<(String, String)>) -> Self {
        self.image_file = template;
        self
    }

    /// Whether some article pages are named by slug (`{slug}` patterns).
    pub fn has_slug_pages(&self) -> bool {
        self.article_pages.iter().any(LinkPattern::by_slug)
    }

    /// The article a link to one of the CMS's article pages names, written as a pattern says
    /// or resolved against the CMS's address.
    pub fn article_ref(&self, raw: &str) -> Option<ArticleRef> {
        if self.article_pages.is_empty() {
            return None;
        }
        let resolved = self.base.join(raw.trim()).ok().map(String::from);
        [Some(raw.trim().to_owned()), resolved]
            .into_iter()
            .flatten()
            .find_map(|text| self.article_pages.iter().find_map(|p| p.matches(&text)))
    }

    /// A link to one of the CMS's article pages by id, as the portal's real URL of that article
    /// (`/portal/article/{id}`, which the gateway renders and the app opens in place).
    pub fn article_page(&self, raw: &str) -> Option<String> {
        match self.article_ref(raw)? {
            ArticleRef::Id(id) => Some(article_path(id)),
            ArticleRef::Slug(_) => None,
        }
    }

    /// The gateway path of the image the CMS stores under `id`, when the config says where
    /// (`dialect.links.image_file`).
    pub fn image_by_id(&self, id: u64) -> Option<String> {
        let (before, after) = self.image_file.as_ref()?;
        Some(format!("{FILES_ROUTE}{before}{id}{after}"))
    }

    /// A file on the CMS becomes a gateway path; other http(s) links stay; anything else
    /// (scripts, data URLs, CMS pages the browser cannot reach) is dropped.
    pub fn rewrite(&self, raw: &str) -> Option<String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return None;
        }
        if raw.starts_with('#') {
            return Some(raw.to_owned());
        }
        // The portal's own addresses (its pages, its spec hash routes, its files) stay as they are.
        if raw.starts_with(FILES_ROUTE) || raw.starts_with("/portal/") {
            return Some(raw.to_owned());
        }
        // A bare word ("x", "undefined", "null": what an editor or a broken template leaves in a
        // `src`) names no file: linked to the file store it would be a broken image.
        if !raw.contains(['/', '.', ':']) {
            return None;
        }
        // A path relative to the CMS's file store, as many CMSs write them: "news/a.webp".
        let resolved = if raw.contains(':') || raw.starts_with('/') {
            self.base.join(raw).ok()?
        } else {
            self.files_root.join(raw).ok()?
        };
        if resolved.origin() == self.files_root.origin()
            && let Some(rest) = resolved.path().strip_prefix(self.files_root.path())
        {
            let mut out = format!("{FILES_ROUTE}{rest}");
            if let Some(query) = resolved.query() {
                out.push('?');
                out.push_str(query);
            }
            return Some(out);
        }
        let is_absolute = Url::parse(raw).is_ok();
        (is_absolute && matches!(resolved.scheme(), "http" | "https" | "mailto" | "tel"))
            .then(|| raw.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> FileLinks {
        FileLinks::new(
            &Url::parse("http://cms.internal:8081/api").unwrap(),
            "files",
        )
    }

    #[test]
    fn file_links_point_at_the_gateway() {
        let l = links();
        assert_eq!(
            l.rewrite("/api/files/news/a.webp").unwrap(),
            "/portal/api/files/news/a.webp"
        );
        assert_eq!(
            l.rewrite("news/a.webp").unwrap(),
            "/portal/api/files/news/a.webp"
        );
        assert_eq!(
            l.rewrite("http://cms.internal:8081/api/files/x.pdf?v=2")
                .unwrap(),
            "/portal/api/files/x.pdf?v=2"
        );
        assert_eq!(
            l.rewrite("https://www.example.org/a").unwrap(),
            "https://www.example.org/a"
        );
        assert_eq!(l.rewrite("javascript:alert(1)"), None);
        assert_eq!(l.rewrite("/api/admin/secret"), None);
        assert_eq!(l.rewrite("../../etc/passwd"), None);
        for broken in ["x", "undefined", "null", " img "] {
            assert_eq!(l.rewrite(broken), None, "{broken}");
        }
        assert_eq!(l.rewrite("a.png").unwrap(), "/portal/api/files/a.png");
    }
}
