//! Where the CMS keeps its files, and how a reference to one becomes a gateway path, so the
//! browser never needs the CMS's address. Lives beside the client because both read the CMS's
//! URL layout from the same config.

use url::Url;

use super::link_patterns::{ArticleRef, LinkPattern};
use portal_core::endpoint::Endpoint;

/// Where the browser fetches CMS files through the gateway.
pub const FILES_ROUTE: &str = Endpoint::Files.path();

/// The parameters of a file address's `raw` query sent on to the file store: those `allowed`
/// (`dialect.endpoints.files_query`) names, each once, with a short value of letters, digits, `.`,
/// `-` and `_`; sorted, so one image at one size is one cache entry. Any other (an
/// `access_token` an editor's tool wrote into an image's address) is dropped, from the request to
/// the CMS and from the link the browser is given alike.
pub fn kept_file_query(allowed: &[String], raw: Option<&str>) -> Vec<(String, String)> {
    let Some(raw) = raw.filter(|r| !r.is_empty() && !allowed.is_empty()) else {
        return Vec::new();
    };
    let mut kept: Vec<(String, String)> = url::form_urlencoded::parse(raw.as_bytes())
        .filter(|(name, value)| {
            allowed.iter().any(|a| a == name)
                && !value.is_empty()
                && value.len() <= 32
                && value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        })
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .take(8)
        .collect();
    kept.sort();
    kept.dedup_by(|a, b| a.0 == b.0);
    kept
}

/// Whether `path` (below the file store's prefix, no leading `/`) is a file's: any path when
/// `patterns` (`dialect.endpoints.files_match`) are none, else one they match.
pub fn is_file_path(patterns: &[String], path: &str) -> bool {
    patterns.is_empty()
        || patterns
            .iter()
            .any(|p| portal_core::glob::glob_match(p, path))
}

/// The portal's own page of article `id`.
pub fn article_path(id: &portal_core::model::Id) -> String {
    format!("/portal/article/{id}")
}

/// A link in a body to a page of the CMS's own site that is no article page (`FileLinks::stray_page`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrayPage {
    /// Its path on the CMS's site.
    pub path: String,
    /// What the portal links to instead: the file store's address for it (where it is not), the
    /// CMS's own address (which a visitor may not reach), or nothing (the link is dropped).
    pub becomes: Option<String>,
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
    /// The query parameters a file's address keeps (`dialect.endpoints.files_query`).
    files_query: Vec<String>,
    /// Which addresses below the file store's prefix are files (`dialect.endpoints.files_match`).
    files_match: Vec<String>,
}

impl FileLinks {
    pub fn new(base: &Url, files_path: &str) -> Self {
        let mut base = base.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        // No prefix (`files_match` then says which addresses are files): the base itself.
        let files = files_path.trim_matches('/');
        let files_root = match files {
            "" => base.clone(),
            files => base
                .join(&format!("{files}/"))
                .expect("validated relative path"),
        };
        Self {
            base,
            files_root,
            article_pages: Vec::new(),
            image_file: None,
            files_query: Vec::new(),
            files_match: Vec::new(),
        }
    }

    /// These links, with only the addresses these patterns match taken for files.
    pub fn with_files_match(mut self, patterns: Vec<String>) -> Self {
        self.files_match = patterns;
        self
    }

    /// These links, keeping only these parameters of a file's address.
    pub fn with_files_query(mut self, allowed: Vec<String>) -> Self {
        self.files_query = allowed;
        self
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
        let resolved = self.base.join(raw.trim()).ok();
        // A link to the CMS's own site written whole (`https://cms.example/news/7.html`) is the
        // page a pattern written as a path (`/news/{id}.html`) names.
        let own_path = resolved
            .as_ref()
            .filter(|url| url.origin() == self.base.origin())
            .map(|url| match url.query() {
                Some(query) => format!("{}?{query}", url.path()),
                None => url.path().to_owned(),
            });
        [
            Some(raw.trim().to_owned()),
            resolved.map(String::from),
            own_path,
        ]
        .into_iter()
        .flatten()
        .find_map(|text| self.article_pages.iter().find_map(|p| p.matches(&text)))
    }

    /// A link to one of the CMS's article pages by id, as the portal's real URL of that article
    /// (`/portal/article/{id}`, which the gateway renders and the app opens in place).
    pub fn article_page(&self, raw: &str) -> Option<String> {
        match self.article_ref(raw)? {
            ArticleRef::Id(id) => Some(article_path(&id)),
            ArticleRef::Slug(_) => None,
        }
    }

    /// The gateway path of the image the CMS stores under `id`, when the config says where
    /// (`dialect.links.image_file`).
    pub fn image_by_id(&self, id: &str) -> Option<String> {
        let (before, after) = self.image_file.as_ref()?;
        let is_id = (1..=64).contains(&id.len())
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        is_id.then(|| format!("{FILES_ROUTE}{before}{id}{after}"))
    }

    /// A file field's value (a cover, an attachment) as a gateway path: an address as `rewrite`
    /// reads it, or a bare file id (Directus's image fields hold a UUID) where
    /// `dialect.links.image_file` says how ids name files.
    pub fn file_field(&self, raw: &str) -> Option<String> {
        self.rewrite(raw).or_else(|| self.image_by_id(raw.trim()))
    }

    /// What the portal makes of `raw`, a link in a body, when it points into the CMS's own site
    /// at something that is neither an article page `dialect.links.article` names nor a file:
    /// `None` for any other link (another site's, an article's, a file's, an anchor).
    /// `check-upstream` warns of these: a visitor following one finds nothing.
    pub fn stray_page(&self, raw: &str) -> Option<StrayPage> {
        let raw = raw.trim();
        let scheme = raw.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
        if raw.is_empty()
            || raw.starts_with('#')
            || raw.starts_with("/portal/")
            || scheme
                .as_deref()
                .is_some_and(|s| !matches!(s, "http" | "https"))
            || self.article_ref(raw).is_some()
        {
            return None;
        }
        let resolved = if raw.contains(':') || raw.starts_with('/') {
            self.base.join(raw).ok()?
        } else {
            self.files_root.join(raw).ok()?
        };
        if resolved.origin() != self.base.origin() {
            return None;
        }
        let path = resolved.path().to_owned();
        match self.rewrite(raw) {
            Some(gateway) if gateway.starts_with(FILES_ROUTE) => {
                let last = path.rsplit('/').next().unwrap_or("");
                let extension = last.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
                let page = match extension.as_deref() {
                    None => true,
                    Some(e) => {
                        matches!(e, "html" | "htm" | "shtml" | "php" | "asp" | "aspx" | "jsp")
                    }
                };
                page.then_some(StrayPage {
                    path,
                    becomes: Some(gateway),
                })
            }
            Some(_) => Some(StrayPage {
                path,
                becomes: Some(raw.to_owned()),
            }),
            None => Some(StrayPage {
                path,
                becomes: None,
            }),
        }
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
            && is_file_path(&self.files_match, rest)
        {
            let mut out = format!("{FILES_ROUTE}{rest}");
            let kept = kept_file_query(&self.files_query, resolved.query());
            if !kept.is_empty() {
                out.push('?');
                out.push_str(
                    &url::form_urlencoded::Serializer::new(String::new())
                        .extend_pairs(kept)
                        .finish(),
                );
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
            "/portal/api/files/x.pdf",
            "a parameter files_query does not name"
        );
        // A token an editor's tool wrote into an image's address never reaches the browser; the
        // parameters the file store is sent stay, sorted as their cache key is.
        let sized = links().with_files_query(vec!["width".to_owned(), "format".to_owned()]);
        assert_eq!(
            sized
                .rewrite("/api/files/a.png?access_token=SECRET-TOKEN&width=300&format=webp")
                .unwrap(),
            "/portal/api/files/a.png?format=webp&width=300"
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

    #[test]
    fn a_link_to_a_page_of_the_cms_that_is_no_article_is_a_stray() {
        let l = links();
        let stray = l.stray_page("news/other-page.html").unwrap();
        assert_eq!(stray.path, "/api/files/news/other-page.html");
        assert_eq!(
            stray.becomes.as_deref(),
            Some("/portal/api/files/news/other-page.html")
        );
        assert_eq!(l.stray_page("/about-us").unwrap().becomes, None, "dropped");
        assert_eq!(
            l.stray_page("http://cms.internal:8081/column/5")
                .unwrap()
                .becomes
                .as_deref(),
            Some("http://cms.internal:8081/column/5"),
            "left pointing at the CMS"
        );
        for not_stray in [
            "covers/a.webp",
            "/api/files/report.pdf",
            "https://www.example.org/page",
            "#top",
            "mailto:office@example.org",
            "/portal/article/5",
        ] {
            assert_eq!(l.stray_page(not_stray), None, "{not_stray}");
        }
        let with_articles =
            links().with_article_pages(vec![LinkPattern::compile("/news/{id}.html").unwrap()]);
        assert_eq!(
            with_articles.stray_page("/news/2101.html"),
            None,
            "an article page"
        );
    }

    #[test]
    fn where_files_sit_among_pages_only_the_addresses_files_match_names_are_files() {
        // Plone: images at `<item>/@@images/…`, downloads at `<item>/@@download/file`.
        let plone = FileLinks::new(&Url::parse("http://cms.internal:8080/Plone/").unwrap(), "")
            .with_files_match(vec!["*/@@images/*".to_owned(), "*/@@download/*".to_owned()]);
        assert_eq!(
            plone
                .rewrite("http://cms.internal:8080/Plone/news_center/a/@@images/image-800-f1.png")
                .unwrap(),
            "/portal/api/files/news_center/a/@@images/image-800-f1.png"
        );
        assert_eq!(
            plone
                .rewrite("/Plone/reports/q3.pdf/@@download/file")
                .unwrap(),
            "/portal/api/files/reports/q3.pdf/@@download/file"
        );
        // A page of the site is no file: a link to it is left at the CMS's address (and named
        // by check-upstream), never relayed through the file store.
        let page = "http://cms.internal:8080/Plone/news_center/notice/spring";
        assert_eq!(plone.rewrite(page).unwrap(), page);
        assert_eq!(
            plone.stray_page(page).unwrap().becomes.as_deref(),
            Some(page)
        );
        assert!(!is_file_path(&plone.files_match, "@search"));
        assert!(is_file_path(&[], "anything/at/all.png"), "no patterns: any");
    }

    #[test]
    fn a_file_field_holding_an_id_names_its_file_where_the_config_says() {
        let id = "d89e1bfe-f88c-4bdf-8204-09becbe2f20a";
        assert_eq!(
            links().file_field(id),
            None,
            "a bare word, with no image_file"
        );
        let by_id = links().with_image_file(Some((String::new(), String::new())));
        assert_eq!(
            by_id.file_field(id).unwrap(),
            format!("/portal/api/files/{id}")
        );
        assert_eq!(by_id.file_field("../etc"), None);
        assert_eq!(
            by_id.file_field("covers/a.webp").unwrap(),
            "/portal/api/files/covers/a.webp"
        );
    }
}
