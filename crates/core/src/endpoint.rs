//! The public API's endpoints, each declared once: its public path, its cache name (the key
//! prefix used for TTLs, overrides and purge), the CMS call it makes, its metrics label and the
//! query parameters it accepts. Routes, config validation, upstream calls, metrics, the client
//! limit and the OpenAPI check all read this table; `tests` fails when one of them misses an
//! endpoint.

use std::{borrow::Cow, fmt::Write, time::Duration};

/// The parameter every content endpoint and `/site` take besides the table's: the language
/// of the answer (`lang=en`, one of `[languages]`; absent or `zh`, the site's own). Not in a
/// `Spec`'s `params`: it picks the content service, and its keys carry it
/// (`CacheKey::in_language`).
pub const LANGUAGE_PARAM: &str = "lang";

/// Where every API path starts.
pub const API_PREFIX: &str = "/portal/api";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    CategoryList,
    ParentCategory,
    ArticleList,
    ArticleDetail,
    ArticleSearch,
    Site,
    Files,
    OpenApi,
}

/// How long a kept file lives unless `cache.ttl` names `files`.
const FILES_TTL: Duration = Duration::from_secs(3600);

/// What the table says of one endpoint.
#[derive(Debug)]
pub struct Spec {
    /// The public path; for `Files`, the prefix of every file path.
    pub path: &'static str,
    /// The name cache keys, TTL tables and purges use; `None` for answers not cached. (Files:
    /// only images and captions within `cache.file_max_bytes` are kept, as `files/<path>`.)
    pub cache: Option<&'static str>,
    /// Its time to live when `cache.ttl` does not name it; `None`: `cache.default_ttl`.
    pub ttl: Option<Duration>,
    /// The endpoint whose CMS path this one calls (`ParentCategory` reads the category list);
    /// `None` when it makes no CMS call.
    pub cms: Option<Endpoint>,
    /// The `route` label of `portal_requests_total` and the `endpoint` label of the upstream
    /// latency histogram.
    pub metrics: &'static str,
    /// Query parameters passed to the handler; any other is dropped before it runs.
    pub params: &'static [&'static str],
    /// Whether the per-client limit applies (files are exempt: one page view asks for many).
    pub client_limited: bool,
}

impl Endpoint {
    pub const ALL: [Self; 8] = [
        Self::CategoryList,
        Self::ParentCategory,
        Self::ArticleList,
        Self::ArticleDetail,
        Self::ArticleSearch,
        Self::Site,
        Self::Files,
        Self::OpenApi,
    ];

    pub const fn spec(self) -> &'static Spec {
        match self {
            Self::CategoryList => &Spec {
                path: "/portal/api/category/list",
                cache: Some("category/list"),
                ttl: None,
                cms: Some(Self::CategoryList),
                metrics: "category/list",
                params: &[],
                client_limited: true,
            },
            Self::ParentCategory => &Spec {
                path: "/portal/api/category/getParentCategory",
                cache: Some("category/getParentCategory"),
                ttl: None,
                cms: Some(Self::CategoryList),
                metrics: "category/getParentCategory",
                params: &["id"],
                client_limited: true,
            },
            Self::ArticleList => &Spec {
                path: "/portal/api/article/list",
                cache: Some("article/list"),
                ttl: None,
                cms: Some(Self::ArticleList),
                metrics: "article/list",
                params: &["categoryId", "page", "size"],
                client_limited: true,
            },
            Self::ArticleDetail => &Spec {
                path: "/portal/api/article/detail",
                cache: Some("article/detail"),
                ttl: None,
                cms: Some(Self::ArticleDetail),
                metrics: "article/detail",
                params: &["id"],
                client_limited: true,
            },
            Self::ArticleSearch => &Spec {
                path: "/portal/api/article/search",
                cache: Some("article/search"),
                ttl: None,
                cms: Some(Self::ArticleSearch),
                metrics: "article/search",
                // `categoryId` (a section, with the categories under it), `from` and `to`
                // (days, `yyyy-MM-dd`): filters of the gateway's own index.
                params: &["keyword", "categoryId", "from", "to", "page", "size"],
                client_limited: true,
            },
            Self::Site => &Spec {
                path: "/portal/api/site",
                cache: None,
                ttl: None,
                cms: None,
                metrics: "site",
                params: &[],
                client_limited: true,
            },
            Self::Files => &Spec {
                path: "/portal/api/files/",
                // An image is not edited in place (a new one gets a new name): an hour.
                cache: Some("files"),
                ttl: Some(FILES_TTL),
                cms: Some(Self::Files),
                metrics: "files",
                params: &[],
                client_limited: false,
            },
            Self::OpenApi => &Spec {
                path: "/portal/api/openapi.json",
                cache: None,
                ttl: None,
                cms: None,
                metrics: "openapi",
                params: &[],
                client_limited: true,
            },
        }
    }

    pub const fn path(self) -> &'static str {
        self.spec().path
    }

    /// The cache name of an endpoint whose answers are cached (what TTLs and overrides are keyed
    /// by; the pages, the sitemap and the feeds live as long as the endpoint whose data they show).
    pub fn cache_name(self) -> &'static str {
        self.spec()
            .cache
            .expect("only cached endpoints have a cache name")
    }

    pub const fn metrics_label(self) -> &'static str {
        self.spec().metrics
    }

    /// The router's path pattern for this endpoint.
    pub fn route(self) -> &'static str {
        match self {
            Self::Files => "/portal/api/files/{*path}",
            other => other.path(),
        }
    }

    /// A path this endpoint answers, for tests and tools: its public path, or for files a file
    /// under the prefix.
    pub fn sample_path(self) -> String {
        match self {
            Self::Files => format!("{}covers/sample.webp", self.path()),
            other => other.path().to_owned(),
        }
    }

    /// The endpoint a request path belongs to. Runs for every request (metrics and the client
    /// limit): a handful of string comparisons.
    pub fn of_path(path: &str) -> Option<Self> {
        let rest = path.strip_prefix(API_PREFIX)?;
        if rest.starts_with("/files/") {
            return Some(Self::Files);
        }
        Self::ALL
            .into_iter()
            .find(|e| e.path().len() == path.len() && e.path() == path)
    }

    /// The endpoint whose cache name is `name` (TTL tables, purges).
    pub fn of_cache_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.spec().cache == Some(name))
    }

    /// Every cache name, for messages naming what is known.
    pub fn cache_names() -> impl Iterator<Item = &'static str> {
        Self::ALL.into_iter().filter_map(|e| e.spec().cache)
    }
}

/// What a search's key is made of.
pub struct SearchKey<'a> {
    pub keyword: &'a str,
    pub section: Option<&'a crate::model::Id>,
    /// Days, `yyyymmdd`.
    pub from: Option<u32>,
    pub to: Option<u32>,
    pub page: u32,
    pub size: u32,
}

/// A cache key: an endpoint's cache name and its normalised query (defaults filled, parameters
/// in the table's order), so equal requests always share one entry. Built only from an
/// endpoint of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheKey {
    endpoint: Endpoint,
    /// Borrowed for an endpoint without parameters: the category list, the hottest key, costs
    /// no allocation (an allocation is a visible share of a cached hit: docs/performance.md).
    text: Cow<'static, str>,
}

impl CacheKey {
    /// The key of `endpoint` with `values` for its parameters in the table's order (`None`
    /// writes an empty value). Panics if the endpoint is not cached or the values do not match
    /// its parameters: both are programming errors, caught by the tests.
    pub fn new(endpoint: Endpoint, values: &[Option<&dyn std::fmt::Display>]) -> Self {
        let spec = endpoint.spec();
        let name = spec.cache.expect("only cached endpoints have cache keys");
        assert_eq!(values.len(), spec.params.len(), "one value per parameter");
        if values.is_empty() {
            return Self {
                endpoint,
                text: Cow::Borrowed(name),
            };
        }
        let mut text = String::with_capacity(name.len() + 16 * values.len());
        text.push_str(name);
        for (i, (param, value)) in spec.params.iter().zip(values).enumerate() {
            text.push(if i == 0 { '?' } else { '&' });
            text.push_str(param);
            text.push('=');
            if let Some(value) = value {
                let _ = write!(text, "{value}");
            }
        }
        Self {
            endpoint,
            text: Cow::Owned(text),
        }
    }

    /// The key of the same query in another language (`lang=en` last; the site's own language,
    /// `None`, keeps today's keys): one entry a language, purged by the same tags.
    #[must_use]
    pub fn in_language(self, lang: Option<&str>) -> Self {
        let Some(lang) = lang else { return self };
        let sep = if self.text.contains('?') { '&' } else { '?' };
        Self {
            endpoint: self.endpoint,
            text: Cow::Owned(format!("{}{sep}lang={lang}", self.text)),
        }
    }

    /// The language a key's answer is in (`lang=en`), `None` for the site's own.
    pub fn language_of(key: &str) -> Option<&str> {
        let (_, query) = key.split_once('?')?;
        query.split('&').find_map(|pair| pair.strip_prefix("lang="))
    }

    /// The key of a search: the keyword percent-encoded, the filters (empty when absent), then
    /// the page and size.
    pub fn search(search: &SearchKey<'_>) -> Self {
        let name = Endpoint::ArticleSearch
            .spec()
            .cache
            .expect("search answers are cached");
        let keyword: String =
            url::form_urlencoded::byte_serialize(search.keyword.as_bytes()).collect();
        let day = |d: Option<u32>| {
            d.map_or_else(String::new, |d| {
                format!("{:04}-{:02}-{:02}", d / 10000, d / 100 % 100, d % 100)
            })
        };
        let section = search.section.map_or("", crate::model::Id::as_str);
        Self {
            endpoint: Endpoint::ArticleSearch,
            text: Cow::Owned(format!(
                "{name}?keyword={keyword}&categoryId={section}&from={}&to={}&page={}&size={}",
                day(search.from),
                day(search.to),
                search.page,
                search.size
            )),
        }
    }

    pub fn endpoint(&self) -> Endpoint {
        self.endpoint
    }

    /// The cache name of the key's endpoint (what TTL tables are keyed by).
    pub fn cache_name(&self) -> &'static str {
        self.endpoint.spec().cache.unwrap_or_default()
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for CacheKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_back_to_their_endpoint() {
        for endpoint in Endpoint::ALL {
            let probe = endpoint.sample_path();
            assert_eq!(Endpoint::of_path(&probe), Some(endpoint), "{probe}");
        }
        for path in [
            "/portal/api",
            "/portal/api/",
            "/portal/api/files",
            "/portal/api/category/listx",
            "/portal/apix/site",
            "/portal/",
        ] {
            assert_eq!(Endpoint::of_path(path), None, "{path}");
        }
    }

    #[test]
    fn names_and_labels_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for endpoint in Endpoint::ALL {
            let spec = endpoint.spec();
            assert!(seen.insert(spec.path), "{endpoint:?}");
            assert!(seen.insert(spec.metrics) || spec.cache == Some(spec.metrics));
            assert!(spec.path.starts_with(API_PREFIX), "{endpoint:?}");
            if let Some(name) = spec.cache {
                assert_eq!(Endpoint::of_cache_name(name), Some(endpoint));
            }
            // A CMS call is always made through an endpoint that calls the CMS itself.
            if let Some(cms) = spec.cms {
                assert_eq!(cms.spec().cms, Some(cms), "{endpoint:?}");
            }
        }
    }

    #[test]
    fn cache_keys_are_normalised_in_table_order() {
        let key = CacheKey::new(Endpoint::ArticleList, &[Some(&3), Some(&1), Some(&10)]);
        assert_eq!(key.as_str(), "article/list?categoryId=3&page=1&size=10");
        assert_eq!(key.cache_name(), "article/list");
        let key = CacheKey::new(Endpoint::ArticleList, &[None, Some(&2), Some(&10)]);
        assert_eq!(key.as_str(), "article/list?categoryId=&page=2&size=10");
        assert_eq!(
            CacheKey::new(Endpoint::CategoryList, &[]).as_str(),
            "category/list"
        );
        assert_eq!(
            CacheKey::new(Endpoint::ArticleDetail, &[Some(&2101)]).as_str(),
            "article/detail?id=2101"
        );
    }

    #[test]
    #[should_panic(expected = "only cached endpoints")]
    fn uncached_endpoints_have_no_keys() {
        let _ = CacheKey::new(Endpoint::Site, &[]);
    }
}
