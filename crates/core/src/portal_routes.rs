//! The portal's routes that show CMS content (spec §2): the app finds each one's category by the
//! category's `url`. `check-upstream` reports a route no category leads to, the sitemap
//! lists these routes only.
//!
//! The routes are not written here: they are read, at build time, from the app's route table
//! `frontend/src/app/route-table.json`, the one place the portal's routes are declared. A route is
//! a content route when its `page` kind is one of the table's `contentPages`; the others (the home
//! entry, login, the party-style detail found by its article id, sitemap, contact) have no
//! category. Adding a route to the table adds it here; the tests below keep the table in step
//! with the demo CMS's categories.

use std::ops::Deref;
use std::sync::LazyLock;

use serde::Deserialize;

/// The app's route table, built into the binary.
const ROUTE_TABLE: &str = include_str!("../../../frontend/src/app/route-table.json");

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Table {
    content_pages: Vec<String>,
    #[serde(default)]
    list_pages: Vec<String>,
    routes: Vec<Route>,
}

/// One route of the table: only what decides whether it shows CMS content.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Route {
    path: Option<String>,
    /// The menu's name of the page (`中欧班列`).
    name: Option<String>,
    page: Option<String>,
    /// A spec route whose page another route shows: no category of its own, no sitemap entry.
    same_as: Option<String>,
    /// A page reached otherwise (a form, a link inside a page): in no sitemap.
    #[serde(default)]
    unlisted: bool,
    #[serde(default)]
    routes: Vec<Route>,
}

/// Every route of `routes` and below, parents before children, in table order.
fn flattened(routes: Vec<Route>, out: &mut Vec<Route>) {
    for mut route in routes {
        let below = std::mem::take(&mut route.routes);
        out.push(route);
        flattened(below, out);
    }
}

/// The content routes of `table`, parents before children, in table order.
fn content_routes(table: &str) -> Vec<String> {
    let table: Table =
        serde_json::from_str(table).expect("frontend/src/app/route-table.json is a route table");
    let mut all = Vec::new();
    flattened(table.routes, &mut all);
    all.into_iter()
        .filter_map(|route| match (route.path, route.page, route.same_as) {
            (Some(path), Some(page), None) if table.content_pages.contains(&page) => Some(path),
            _ => None,
        })
        .collect()
}

/// Read once; the strings live as long as the process (a few dozen short paths).
static ROUTES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    content_routes(ROUTE_TABLE)
        .into_iter()
        .map(|path| &*path.leak())
        .collect()
});

/// The app's own pages a sitemap lists (联系我们, 信访举报, 无障碍声明, 法律声明, 隐私政策): routes
/// whose page shows no CMS category, less the home page (listed on its own) and those `unlisted`
/// (网站地图 itself, 登录, a detail reached from a list), in table order.
pub fn own_pages() -> &'static [&'static str] {
    static OWN: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let table: Table = serde_json::from_str(ROUTE_TABLE)
            .expect("frontend/src/app/route-table.json is a route table");
        let mut all = Vec::new();
        flattened(table.routes, &mut all);
        all.into_iter()
            .filter(|r| {
                r.same_as.is_none()
                    && !r.unlisted
                    && r.page
                        .as_ref()
                        .is_some_and(|p| p != "home" && !table.content_pages.contains(p))
            })
            .filter_map(|r| r.path)
            .map(|path| &*path.leak())
            .collect()
    });
    &OWN
}

/// The kind of category the app shows at the content route `path` when nothing else says:
/// `"list"` for the table's `listPages`, `"group"` for a group, `"page"` for any other content
/// route; `None` for a path that is no content route. The gateway gives a category this kind when
/// the CMS gives none (`cms/dialect/map.rs`), so a CMS without a kind field needs no
/// `dialect.categories.types` for the demo's routes.
pub fn kind_of(path: &str) -> Option<&'static str> {
    static KINDS: LazyLock<Vec<(String, &'static str)>> = LazyLock::new(|| {
        fn walk(routes: Vec<Route>, table: &Table, out: &mut Vec<(String, &'static str)>) {
            for route in routes {
                if let (Some(path), Some(page), None) = (route.path, &route.page, &route.same_as)
                    && table.content_pages.contains(page)
                {
                    let kind = if table.list_pages.contains(page) {
                        "list"
                    } else if page == "group" {
                        "group"
                    } else {
                        "page"
                    };
                    out.push((path, kind));
                }
                walk(route.routes, table, out);
            }
        }
        let mut table: Table = serde_json::from_str(ROUTE_TABLE)
            .expect("frontend/src/app/route-table.json is a route table");
        let routes = std::mem::take(&mut table.routes);
        let mut out = Vec::new();
        walk(routes, &table, &mut out);
        out
    });
    KINDS
        .iter()
        .find_map(|(route, kind)| (route == path).then_some(*kind))
}

/// The spec's duplicate routes (`sameAs`) and the route each one's page is at: the gateway sends
/// a request for one there for good (the app redirects the same way when it navigates).
pub fn same_as(path: &str) -> Option<&'static str> {
    static SAME_AS: LazyLock<Vec<(String, &'static str)>> = LazyLock::new(|| {
        fn walk(routes: Vec<Route>, out: &mut Vec<(String, &'static str)>) {
            for route in routes {
                if let (Some(path), Some(to)) = (route.path, route.same_as) {
                    out.push((path, &*to.leak()));
                }
                walk(route.routes, out);
            }
        }
        let table: Table = serde_json::from_str(ROUTE_TABLE)
            .expect("frontend/src/app/route-table.json is a route table");
        let mut out = Vec::new();
        walk(table.routes, &mut out);
        out
    });
    SAME_AS
        .iter()
        .find_map(|(from, to)| (from == path).then_some(*to))
}

/// The app's routes outside the table (`frontend/src/app/router.tsx`): an article by its id, the
/// search.
const APP_ROUTES: [&str; 2] = ["/article/:id", "/search"];

/// Every path the app's router shows a page at: the table's routes, any kind, and `APP_ROUTES`.
static PATHS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    fn walk(routes: Vec<Route>, out: &mut Vec<&'static str>) {
        for route in routes {
            if let Some(path) = route.path {
                out.push(path.leak());
            }
            walk(route.routes, out);
        }
    }
    let table: Table = serde_json::from_str(ROUTE_TABLE)
        .expect("frontend/src/app/route-table.json is a route table");
    let mut out = Vec::new();
    walk(table.routes, &mut out);
    out.extend(APP_ROUTES);
    out
});

/// The address of the page at `path` (below `/portal`) as the app writes it, when `path` is that
/// page's address written another way. The app's router matches a route whatever its letter case
/// and with a trailing slash (`/News_Center/notice/` shows the notice list); the gateway sends such
/// a request to the one address (`/news_center/notice`) for good, so a page has one cache entry,
/// one canonical URL and one place in a crawler's index. `None` for the address itself and for
/// what is no route (the app's 404 page).
pub fn spelled(path: &str) -> Option<String> {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return None;
    }
    let lower = trimmed.to_ascii_lowercase();
    let canonical = PATHS
        .iter()
        .find_map(|route| match route.strip_suffix(":id") {
            // `/article/:id`: the prefix's spelling, the id as written (one segment).
            Some(prefix) => lower
                .strip_prefix(prefix)
                .filter(|id| !id.is_empty() && !id.contains('/'))
                .map(|_| format!("{prefix}{}", &trimmed[prefix.len()..])),
            None => (lower == route.to_ascii_lowercase()).then(|| (*route).to_owned()),
        })?;
    (canonical != path).then_some(canonical)
}

/// The name the route table gives the content route `path` (`中欧班列` for
/// `/business/China-Europe_train`): what a CMS's category of that section is most likely called,
/// whatever its slug (`check-upstream` matches categories to routes by it).
pub fn name_of(path: &str) -> Option<&'static str> {
    static NAMES: LazyLock<Vec<(&'static str, &'static str)>> = LazyLock::new(|| {
        let table: Table = serde_json::from_str(ROUTE_TABLE)
            .expect("frontend/src/app/route-table.json is a route table");
        let mut all = Vec::new();
        flattened(table.routes, &mut all);
        all.into_iter()
            .filter_map(|route| Some((&*route.path?.leak(), &*route.name?.leak())))
            .collect()
    });
    NAMES
        .iter()
        .find_map(|(p, name)| (*p == path && PORTAL_ROUTES.contains(&path)).then_some(*name))
}

/// What the table says of a page's query (`query` in `route-table.json`): the parameters the page
/// reads, in the order its address writes them. (The table's `shares`, those of them a shared
/// address and the canonical link keep, are the app's: `app/share-url.ts`.)
#[derive(Deserialize)]
struct QueryRule {
    reads: Vec<String>,
}

#[derive(Deserialize)]
struct QueryTable {
    query: Query,
}

#[derive(Deserialize)]
struct Query {
    /// Pages by path (`/article/:id` matches any one segment after `/article/`).
    routes: Vec<PathRule>,
    /// Every other page's.
    otherwise: QueryRule,
}

#[derive(Deserialize)]
struct PathRule {
    path: String,
    #[serde(flatten)]
    rule: QueryRule,
}

/// Whether `path` is the page a query rule's `pattern` names.
fn matches(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix(":id") {
        Some(prefix) => path
            .strip_prefix(prefix)
            .is_some_and(|id| !id.is_empty() && !id.contains('/')),
        None => pattern == path,
    }
}

/// The query parameters the page at `path` (below `/portal`) reads, as the route table's `query`
/// says (the app's `app/page-query.ts` reads the same entries): an article the list page it was
/// opened from (`listPage`), 党建风采详情 its article (`id`), the search its keyword, the index's
/// filters and its page, every other route the page of its list (`page`; a category's kind
/// decides at run time whether a route shows a list).
pub fn reads(path: &str) -> &'static [&'static str] {
    /// The table's rules by path pattern, then every other page's.
    type Rules = (Vec<(String, Vec<&'static str>)>, Vec<&'static str>);
    static RULES: LazyLock<Rules> = LazyLock::new(|| {
        let leak = |names: Vec<String>| -> Vec<&'static str> {
            names.into_iter().map(|name| &*name.leak()).collect()
        };
        let table: QueryTable = serde_json::from_str(ROUTE_TABLE)
            .expect("frontend/src/app/route-table.json has a query table");
        let routes = table
            .query
            .routes
            .into_iter()
            .map(|rule| (rule.path, leak(rule.rule.reads)))
            .collect();
        (routes, leak(table.query.otherwise.reads))
    });
    let (routes, otherwise) = &*RULES;
    routes
        .iter()
        .find_map(|(pattern, reads)| matches(pattern, path).then_some(reads.as_slice()))
        .unwrap_or(otherwise)
}

/// The content routes as a slice: `PORTAL_ROUTES.contains(&route)`, `PORTAL_ROUTES.iter()` and
/// `for route in PORTAL_ROUTES` work as they did on the `&[&str]` this replaces.
#[derive(Clone, Copy, Debug)]
pub struct PortalRoutes;

impl Deref for PortalRoutes {
    type Target = [&'static str];

    fn deref(&self) -> &[&'static str] {
        &ROUTES
    }
}

impl IntoIterator for PortalRoutes {
    type Item = &'static &'static str;
    type IntoIter = std::slice::Iter<'static, &'static str>;

    fn into_iter(self) -> Self::IntoIter {
        ROUTES.iter()
    }
}

/// The portal's content routes, read from the app's route table (see the module's comment).
pub const PORTAL_ROUTES: PortalRoutes = PortalRoutes;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{PORTAL_ROUTES, ROUTE_TABLE, content_routes, kind_of, name_of, same_as, spelled};

    #[test]
    fn the_apps_own_pages_are_those_with_no_category_and_listed() {
        assert_eq!(
            super::own_pages(),
            [
                "/contact",
                "/whistleblowing",
                "/accessibility",
                "/legal",
                "/privacy"
            ]
        );
    }

    #[test]
    fn a_content_route_has_its_menus_name() {
        assert_eq!(name_of("/business/China-Europe_train"), Some("中欧班列"));
        assert_eq!(name_of("/about"), Some("走进我们"));
        assert_eq!(name_of("/"), None, "the home page is no content route");
        assert_eq!(
            name_of("/business/china-europe_train"),
            None,
            "as the table writes it"
        );
        assert!(PORTAL_ROUTES.iter().all(|r| name_of(r).is_some()));
    }

    #[test]
    fn a_page_written_another_way_is_sent_to_its_one_address() {
        for (written, page) in [
            ("/News_Center/notice", "/news_center/notice"),
            ("/news_center/notice/", "/news_center/notice"),
            ("/ABOUT/company_profile//", "/about/company_profile"),
            ("/Article/2101", "/article/2101"),
            ("/article/2101/", "/article/2101"),
            ("/SEARCH", "/search"),
            ("/contact/", "/contact"),
        ] {
            assert_eq!(spelled(written).as_deref(), Some(page), "{written}");
        }
        for (path, why) in [
            ("/news_center/notice", "the address itself"),
            ("/article/2101", "the address itself"),
            ("/", "the home page"),
            ("/nowhere", "no route: the 404 page"),
            ("/article/", "no article"),
            ("/article/1/2", "no route"),
        ] {
            assert_eq!(spelled(path), None, "{path}: {why}");
        }
    }

    #[test]
    fn a_duplicate_route_leads_to_its_pages_route_and_no_other_route_does() {
        assert_eq!(
            same_as("/development_history"),
            Some("/about/development_history")
        );
        assert_eq!(
            same_as("/party"),
            Some("/party-construction/party-building-activities")
        );
        assert_eq!(same_as("/about/development_history"), None);
        assert_eq!(same_as("/news_center/notice"), None);
    }

    /// Category urls of the demo content that are not portal routes, with why. None today.
    const CATEGORIES_WITHOUT_ROUTE: &[(&str, &str)] = &[];
    /// Content routes of the table that the demo content has no category for, with why. None today.
    const ROUTES_WITHOUT_CATEGORY: &[(&str, &str)] = &[];

    /// The `url` of every category of the demo CMS (`reference-cms/content/categories.json`, a
    /// flat list).
    fn demo_category_urls() -> BTreeSet<String> {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../reference-cms/content/categories.json"
        ))
        .unwrap();
        let categories: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
        categories
            .iter()
            .map(|c| {
                c["url"]
                    .as_str()
                    .unwrap_or_else(|| panic!("a demo category without a url: {c}"))
                    .to_owned()
            })
            .collect()
    }

    /// Where a route of the table and a category of the demo CMS disagree, each side named.
    fn disagreements(routes: &[String], urls: &BTreeSet<String>) -> Vec<String> {
        let routes: BTreeSet<&str> = routes.iter().map(String::as_str).collect();
        let mut out = Vec::new();
        for route in &routes {
            let excused = ROUTES_WITHOUT_CATEGORY.iter().any(|(r, _)| r == route);
            if !urls.contains(*route) && !excused {
                out.push(format!(
                    "content route {route} of route-table.json has no category in reference-cms/content/categories.json"
                ));
            }
        }
        for url in urls {
            let excused = CATEGORIES_WITHOUT_ROUTE.iter().any(|(u, _)| u == url);
            if !routes.contains(url.as_str()) && !excused {
                out.push(format!(
                    "category url {url} of reference-cms/content/categories.json is no content route of route-table.json"
                ));
            }
        }
        out
    }

    #[test]
    fn the_content_routes_are_the_demo_categories_urls() {
        let routes = content_routes(ROUTE_TABLE);
        let problems = disagreements(&routes, &demo_category_urls());
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_list_is_the_tables_content_routes_in_order_once_each() {
        let routes = content_routes(ROUTE_TABLE);
        assert_eq!(PORTAL_ROUTES.to_vec(), routes);
        let unique: BTreeSet<&str> = PORTAL_ROUTES.iter().copied().collect();
        assert_eq!(unique.len(), PORTAL_ROUTES.len(), "a route twice");
        // Parents before children: a group's path comes before every path below it.
        for (i, route) in PORTAL_ROUTES.iter().enumerate() {
            for parent in &PORTAL_ROUTES[i + 1..] {
                assert!(
                    !route.starts_with(&format!("{parent}/")),
                    "{parent} comes after its child {route}"
                );
            }
        }
        // Through the slice as callers use it.
        assert!(PORTAL_ROUTES.contains(&"/news_center/notice"));
        assert!(!PORTAL_ROUTES.contains(&"/login"));
        assert_eq!((PORTAL_ROUTES).into_iter().count(), PORTAL_ROUTES.len());
    }

    #[test]
    fn only_content_page_kinds_count() {
        let table = r#"{"contentPages": ["single"], "routes": [
            {"path": "/", "name": "首页", "page": "home"},
            {"name": "无路径", "routes": [{"path": "/a/b", "name": "乙", "page": "single"}]},
            {"path": "/a", "name": "甲", "page": "group", "routes": [
                {"path": "/a/c", "name": "丙", "page": "single", "hideInMenu": true}
            ]}
        ]}"#;
        assert_eq!(content_routes(table), ["/a/b", "/a/c"]);
    }

    /// The integrators' guide lists every route a CMS may fill, and no other.
    #[test]
    fn the_integrators_guide_lists_every_content_route() {
        let guide = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/integrators.md"
        ))
        .unwrap();
        let section = guide
            .split("### The portal routes a CMS may fill")
            .nth(1)
            .expect("the guide has the section")
            .split("\n## ")
            .next()
            .unwrap();
        // The first cell of each table row: `/route`.
        let listed: BTreeSet<&str> = section
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|rest| rest.split('`').next())
            .collect();
        let table: BTreeSet<&str> = PORTAL_ROUTES.iter().copied().collect();
        assert_eq!(
            listed, table,
            "docs/integrators.md lists other routes than route-table.json's content routes"
        );
        // The kind the guide says each page expects is the kind the gateway gives it.
        for line in section.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let route = cells[1].trim_matches('`');
            let said = cells[3].split_whitespace().next().unwrap_or("");
            assert_eq!(Some(said), kind_of(route), "the guide's kind of {route}");
        }
    }

    #[test]
    fn a_routes_kind_is_the_tables() {
        assert_eq!(kind_of("/news_center/notice"), Some("list"));
        assert_eq!(kind_of("/news_center"), Some("group"));
        assert_eq!(kind_of("/about/company_profile"), Some("page"));
        assert_eq!(kind_of("/login"), None);
        assert_eq!(kind_of("/nowhere"), None);
    }
}
