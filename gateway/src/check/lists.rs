//! The article lists: a page of each, the fields sampled on their items, their order, drafts, and
//! the keys a CMS's own names suggest.

use super::*;

/// A JSON path to the first array in `value`, breadth first, up to three levels down (`""` for
/// the value itself).
pub(super) fn first_array(value: &Value) -> Option<String> {
    let mut level: Vec<(String, &Value)> = vec![(String::new(), value)];
    for _ in 0..4 {
        let mut next = Vec::new();
        for (path, value) in level {
            match value {
                Value::Array(_) => return Some(path),
                Value::Object(map) => {
                    for (key, child) in map {
                        let path = if path.is_empty() {
                            key.clone()
                        } else {
                            format!("{path}.{key}")
                        };
                        next.push((path, child));
                    }
                }
                _ => {}
            }
        }
        level = next;
    }
    None
}

/// A JSON path to the first number-valued key named like a total (`total`, `totalCount`,
/// `count`), breadth first, up to three levels down.
pub(super) fn first_total(value: &Value) -> Option<String> {
    let mut level: Vec<(String, &Value)> = vec![(String::new(), value)];
    for _ in 0..3 {
        let mut next = Vec::new();
        for (path, value) in level {
            let Value::Object(map) = value else { continue };
            for (key, child) in map {
                let path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                let lower = key.to_ascii_lowercase();
                let numeric = child.is_u64()
                    || child
                        .as_str()
                        .is_some_and(|s| s.trim().parse::<u64>().is_ok());
                if numeric
                    && (lower.contains("total") || lower.contains("count"))
                    && !lower.contains("page")
                {
                    return Some(path);
                }
                next.push((path, child));
            }
        }
        level = next;
    }
    None
}

/// The suggestion for a list payload whose items the dialect does not find.
pub(super) fn items_fix(dialect: &Dialect, payload: &Value) -> Option<String> {
    let items = first_array(payload)?;
    let mut fix = format!("dialect.lists.items = \"{items}\"");
    if dialect.lists.total.get(payload).is_none()
        && let Some(total) = first_total(payload)
    {
        fix.push_str(&format!("\ndialect.lists.total = \"{total}\""));
    }
    Some(fix)
}

/// The fields sampled on every list item, with the names a CMS may give them.
pub(super) const SAMPLED: &[(&str, &str, &[&str])] = &[
    (
        "summary",
        "summary",
        &[
            "summary", "desc", "brief", "excerpt", "intro", "abstract", "digest",
        ],
    ),
    (
        "cover",
        "cover",
        &["cover", "thumb", "image", "img", "pic", "photo"],
    ),
    (
        "publishTime",
        "publish_time",
        &["publish", "time", "date", "created", "release"],
    ),
    (
        "author",
        "author",
        &["author", "byline", "writer", "creator"],
    ),
];

pub(super) fn field_value(article: &Article, name: &str) -> Option<String> {
    match name {
        "summary" => article.summary.clone(),
        "cover" => article.cover.clone(),
        "publishTime" => article.publish_time.clone(),
        "author" => article.author.clone(),
        _ => None,
    }
    .filter(|v| !v.trim().is_empty())
}

pub(super) fn is_filled(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => true,
    }
}

/// A key filled on every raw item whose name looks like `hints` (`cover.url` for an object with
/// a `url`).
pub(super) fn filled_key_like(items: &[Value], hints: &[&str]) -> Option<String> {
    let first = items.first()?.as_object()?;
    first.keys().find_map(|key| {
        let lower = key.to_ascii_lowercase();
        if !hints.iter().any(|h| lower.contains(h)) {
            return None;
        }
        if !items
            .iter()
            .all(|item| item.get(key).is_some_and(is_filled))
        {
            return None;
        }
        match first.get(key) {
            Some(Value::Object(inner)) if inner.contains_key("url") => Some(format!("{key}.url")),
            Some(Value::Object(_) | Value::Array(_)) => None,
            _ => Some(key.clone()),
        }
    })
}

/// A key of the raw categories named like a parent (`parentId`, `pid`, `parent_code`), when one
/// holds an id on some category.
pub(super) fn parent_key_like(items: &[Value]) -> Option<String> {
    let first = items.iter().find_map(Value::as_object)?;
    first.keys().find_map(|key| {
        let lower = key.to_ascii_lowercase().replace(['_', '-'], "");
        if !(lower.contains("parent") || matches!(lower.as_str(), "pid" | "fid" | "superid")) {
            return None;
        }
        let id = |v: &Value| {
            v.as_u64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                .is_some_and(|n: u64| n > 0)
        };
        items.iter().find_map(|item| match item.get(key)? {
            Value::Object(inner) if inner.get("id").is_some_and(id) => Some(format!("{key}.id")),
            value if id(value) => Some(key.clone()),
            _ => None,
        })
    })
}

/// A list that does not come newest first: more pairs in ascending order than descending.
pub(super) fn order(times: &[&str]) -> Option<Problem> {
    // `yyyy-MM-dd HH:mm:ss`, as every time is given: compared as text.
    let (mut older_first, mut newer_first) = (0, 0);
    for pair in times.windows(2) {
        match pair[0].cmp(pair[1]) {
            std::cmp::Ordering::Less => older_first += 1,
            std::cmp::Ordering::Greater => newer_first += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    (older_first > newer_first).then(|| {
        Problem::warning(
            format!(
                "the list comes oldest first ({} before {}): the portal shows the newest first",
                times[0],
                times[times.len() - 1]
            ),
            "items",
            "dialect.endpoints.article_list.query (the CMS's sort parameter, e.g. \
             query = { orderBy = \"publishTime\", order = \"desc\" })",
        )
    })
}

/// A list that shows unpublished articles: the credential sees drafts (an administrator's token),
/// and visitors would read them. Told by what such items commonly carry: a `status` that is not
/// published (Directus, WordPress, most CMSs), or Strapi's `publishedAt: null`.
pub(super) fn drafts_listed(raw: &[Value]) -> Option<Problem> {
    const UNPUBLISHED: [&str; 6] = [
        "draft",
        "pending",
        "private",
        "future",
        "unpublished",
        "archived",
    ];
    let draft = raw.iter().find_map(|item| {
        let status = item.get("status").and_then(Value::as_str);
        if let Some(status) =
            status.filter(|s| UNPUBLISHED.contains(&s.to_ascii_lowercase().as_str()))
        {
            return Some(format!("status \"{status}\""));
        }
        (item.get("publishedAt") == Some(&Value::Null)).then(|| "publishedAt null".to_owned())
    })?;
    let key = "dialect.endpoints.article_list.query";
    Some(
        Problem::warning(
            format!(
                "the list shows an unpublished article ({draft}): the credential sees drafts, and \
                 visitors would read them"
            ),
            "items",
            key,
        )
        .with_fix(Some(format!(
            "a read-only credential that sees published content only; or {key} with the CMS's \
             published filter (Directus: \"filter[status][_eq]\" = \"published\"; WordPress: \
             status = \"publish\"; Strapi: status = \"published\")"
        ))),
    )
}

impl Checker {
    /// One page of a category's articles, asked for and mapped the way the gateway does; its
    /// check records the summary or the problem. `None` when the page could not be read.
    pub(super) async fn page(
        &mut self,
        category: &Id,
        page: u32,
        size: u32,
    ) -> Option<(ArticlePage, Vec<Value>)> {
        let endpoint = format!("article/list categoryId={category} page={page}");
        let call = CmsCall::Articles {
            category: Some(category.clone()),
            page,
            size,
        };
        let path_key = "dialect.endpoints.article_list.path";
        let started = Instant::now();
        let answered = match self.ask(&call).await {
            Ok(answered) => answered,
            // Past the last page many CMSs answer 400 or 404: the gateway shows an empty page.
            Err(Failed {
                err:
                    UpstreamError::Status {
                        code: code @ (400 | 404),
                        ..
                    },
                ..
            }) if page > 1 => {
                let before = u64::from(page - 1) * u64::from(size);
                self.record(
                    endpoint,
                    started,
                    code.to_string(),
                    format!("no page {page} (read as an empty page)"),
                    Vec::new(),
                );
                return Some((
                    ArticlePage {
                        content: Vec::new(),
                        total_elements: before,
                        total_pages: u64::from(page - 1),
                        page,
                        size,
                    },
                    Vec::new(),
                ));
            }
            Err(failed) => {
                self.failed(endpoint, started, &call, path_key, failed);
                return None;
            }
        };
        self.record(
            endpoint,
            started,
            "200".to_owned(),
            String::new(),
            Vec::new(),
        );
        self.list_headers = answered.headers.clone();
        let (total, total_pages) = self.dialect().header_totals(&answered.headers);
        let context = PageContext {
            category: Some(category.clone()),
            total,
            total_pages,
        };
        match self
            .dialect()
            .page_of(&answered.payload, page, size, &context)
        {
            Ok(found) => {
                self.last().summary = format!(
                    "{} items, total {}",
                    found.content.len(),
                    found.total_elements
                );
                let raw = self
                    .dialect()
                    .lists
                    .items
                    .paths
                    .iter()
                    .find_map(|p| p.get(&answered.payload)?.as_array().cloned())
                    .unwrap_or_default();
                Some((found, raw))
            }
            Err(problem) => {
                let fix = (problem.key == "dialect.lists.items")
                    .then(|| items_fix(self.dialect(), &answered.payload))
                    .flatten();
                self.last().problems.push(from_shape(problem).with_fix(fix));
                None
            }
        }
    }

    /// Page 1 and page 2 of a list with enough articles; returns an article id and a file.
    /// The first two articles of the first list with any (the second in case the first is a
    /// draft the list shows but the detail does not), and the first cover of the items read (the
    /// newest article often has none, and the file store would then go unchecked).
    pub(super) async fn lists(&mut self, tree: &[Category]) -> Option<(Vec<Id>, Option<String>)> {
        let mut lists = Vec::new();
        walk(tree, &mut |c| {
            if c.kind.as_deref() == Some("list") || c.kind.is_none() {
                lists.push(c.id.clone());
            }
        });
        const SIZE: u32 = 2;
        let mut first_article = None;
        // Every item read, for the fields empty on all; and the check of the first page with any.
        let mut sampled: Vec<Article> = Vec::new();
        let mut raw_sampled: Vec<Value> = Vec::new();
        let mut sample_check = None;
        // Whether each list read holds any article, for the sections that hold none.
        let mut holds: HashMap<Id, bool> = HashMap::new();
        for category in lists.into_iter().take(12) {
            let (one, raw) = self.page(&category, 1, SIZE).await?;
            holds.insert(
                category.clone(),
                !one.content.is_empty() || one.total_elements > 0,
            );
            if first_article.is_none() {
                first_article = one.content.first().map(|_| {
                    one.content
                        .iter()
                        .take(2)
                        .map(|a| a.id.clone())
                        .collect::<Vec<_>>()
                });
            }
            if !one.content.is_empty() && sample_check.is_none() {
                sample_check = Some(self.checks.len() - 1);
            }
            sampled.extend(one.content.iter().cloned());
            raw_sampled.extend(raw);
            if one.content.len() as u32 > SIZE {
                self.last().problems.push(Problem::warning(
                    format!("asked for {SIZE} items, the CMS gave {}", one.content.len()),
                    "items",
                    "dialect.paging.size",
                ));
            }
            if one.total_elements < one.content.len() as u64 {
                self.last().problems.push(Problem::warning(
                    format!(
                        "the total ({}) is less than the items on the page ({})",
                        one.total_elements,
                        one.content.len()
                    ),
                    "payload",
                    "dialect.lists.total",
                ));
            }
            if one.total_elements <= u64::from(SIZE) {
                continue;
            }
            let page_one = self.checks.len() - 1;
            let (two, raw) = self.page(&category, 2, SIZE).await?;
            sampled.extend(two.content.iter().cloned());
            raw_sampled.extend(raw);
            let ids = |p: &ArticlePage| p.content.iter().map(|a| a.id.clone()).collect::<Vec<_>>();
            if !two.content.is_empty() && ids(&two) == ids(&one) {
                self.last().problems.push(Problem::error(
                    "page 2 is the same as page 1: the CMS did not see the page number",
                    "items",
                    "dialect.paging.page / dialect.paging.page_base / dialect.paging.style",
                ));
            } else if two.content.is_empty() {
                self.last().problems.push(Problem::warning(
                    format!(
                        "page 2 is empty although the total is {}",
                        one.total_elements
                    ),
                    "items",
                    "dialect.paging.page_base / dialect.lists.total",
                ));
            }
            if two.total_elements != one.total_elements && !two.content.is_empty() {
                // Most often the body's "total" counts the page, and the true total is in a
                // header the dialect does not read yet.
                let header = ["X-Total-Count", "X-WP-Total", "X-Total", "Total-Count"]
                    .into_iter()
                    .find(|name| self.list_headers.contains_key(*name));
                let (key, fix) = match header {
                    Some(name) => (
                        "dialect.lists.total_header",
                        Some(format!("dialect.lists.total_header = \"{name}\"")),
                    ),
                    None => ("dialect.lists.total", None),
                };
                self.last().problems.push(
                    Problem::warning(
                        format!(
                            "the total changed between pages ({} then {})",
                            one.total_elements, two.total_elements
                        ),
                        "payload",
                        key,
                    )
                    .with_fix(fix),
                );
            }
            let times: Vec<&str> = one
                .content
                .iter()
                .chain(&two.content)
                .filter_map(|a| a.publish_time.as_deref())
                .collect();
            if let Some(problem) = order(&times) {
                self.checks[page_one].problems.push(problem);
            }
            break;
        }
        if first_article.is_some() {
            self.empty_sections(tree, &holds).await;
        }
        if let Some(at) = sample_check {
            let mut problems = self.empty_fields(&sampled, &raw_sampled);
            problems.extend(self.misread_fields(&sampled, &raw_sampled));
            problems.extend(drafts_listed(&raw_sampled));
            self.checks[at].problems.extend(problems);
        }
        if first_article.is_none() {
            self.checks.push(Check {
                endpoint: "article/list".to_owned(),
                status: "-".to_owned(),
                latency_ms: 0,
                summary: "no articles".to_owned(),
                problems: vec![Problem::warning(
                    "no list category has any article: nothing to check the list and detail with",
                    "",
                    "dialect.endpoints.article_list.param",
                )],
            });
        }
        let cover = sampled.iter().find_map(|a| a.cover.clone());
        first_article.map(|ids| (ids, cover))
    }

    /// Mapped fields empty on every item sampled: most often a path the CMS does not use.
    /// The sections the portal shows (a category at a list or single-page route) that hold no
    /// article: their page is an empty list or an empty page, and a visitor sent there from the
    /// menu or the home page finds nothing. Each is asked for one item (the lists read above are not asked again); their rows
    /// are folded into one, `sections`, unless a call went wrong.
    pub(super) async fn empty_sections(&mut self, tree: &[Category], holds: &HashMap<Id, bool>) {
        /// Enough for any portal's sections (the demo has 17), few enough to stay a quick check.
        const MAX_SECTIONS: usize = 60;
        let mut sections = Vec::new();
        walk(tree, &mut |c| {
            // A list, or a single page (which shows its category's first article); a group
            // shows its children.
            let kind = c.kind.as_deref().or_else(|| portal_routes::kind_of(&c.url));
            if kind != Some("group") && PORTAL_ROUTES.contains(&c.url.as_str()) {
                sections.push(c.clone());
            }
        });
        let started = Instant::now();
        let mut empty = Vec::new();
        let mut asked = 0;
        for c in sections.iter().take(MAX_SECTIONS) {
            let any = match holds.get(&c.id) {
                Some(any) => *any,
                None => {
                    let rows = self.checks.len();
                    let Some((one, _)) = self.page(&c.id, 1, 1).await else {
                        return;
                    };
                    asked += 1;
                    if self.checks.len() > rows && self.last().problems.is_empty() {
                        self.checks.pop();
                    }
                    !one.content.is_empty() || one.total_elements > 0
                }
            };
            if !any {
                empty.push(c);
            }
        }
        let mut problems = Vec::new();
        if !empty.is_empty() {
            let named: Vec<String> = empty
                .iter()
                .map(|c| format!("{} {} ({})", c.id, c.name, c.url))
                .collect();
            problems.push(Problem::warning(
                format!(
                    "{} of the {} sections the portal shows hold no article: {}. Visitors the \
                     menu sends there find an empty page (the home page's 业务板块 shows no tile \
                     for it, the sitemap leaves it out). Publish \
                     its first article, or hide the column in the CMS; if the CMS shows articles \
                     there, the list's category filter misses them",
                    empty.len(),
                    sections.len().min(MAX_SECTIONS),
                    named.join(", ")
                ),
                "",
                "dialect.endpoints.article_list.param",
            ));
        }
        self.record(
            "sections".to_owned(),
            started,
            "-".to_owned(),
            format!(
                "{} sections, {} empty ({asked} more lists asked for one item)",
                sections.len().min(MAX_SECTIONS),
                empty.len()
            ),
            problems,
        );
    }

    pub(super) fn empty_fields(&self, sampled: &[Article], raw: &[Value]) -> Vec<Problem> {
        if sampled.len() < 2 {
            return Vec::new();
        }
        let fields = &self.dialect().article;
        SAMPLED
            .iter()
            .filter(|(name, _, _)| sampled.iter().all(|a| field_value(a, name).is_none()))
            .map(|(name, key, hints)| {
                let paths = match *key {
                    "summary" => fields.summary.describe(),
                    "cover" => fields.cover.describe(),
                    "publish_time" => fields.publish_time.describe(),
                    _ => fields.author.describe(),
                };
                let key = format!("dialect.fields.article.{key}");
                Problem::warning(
                    format!(
                        "{name} is empty on every one of the {} articles sampled (read at {paths})",
                        sampled.len()
                    ),
                    "items",
                    &key,
                )
                .with_fix(filled_key_like(raw, hints).map(|k| format!("{key} = \"{k}\"")))
            })
            .collect()
    }

    /// Fields that map but read wrong, each a blind spot an integrator met: titles still
    /// HTML-escaped (`&#8221;`) with `text_format = "plain"`, an author that is a user's number,
    /// covers left at the CMS's own address (the portal's policy blocks images from elsewhere).
    pub(super) fn misread_fields(&self, sampled: &[Article], raw: &[Value]) -> Vec<Problem> {
        let mut problems = Vec::new();
        let escaped = |text: &str| {
            text.match_indices('&').any(|(i, _)| {
                let rest = &text[i + 1..];
                let entity = rest.split(';').next().unwrap_or("");
                rest.contains(';')
                    && entity.len() <= 8
                    && !entity.is_empty()
                    && (entity.starts_with('#') || entity.chars().all(|c| c.is_ascii_alphabetic()))
            })
        };
        if let Some(article) = sampled.iter().find(|a| escaped(&a.title)) {
            problems.push(
                Problem::warning(
                    format!(
                        "titles are still HTML-escaped (\"{}\"): the CMS writes its text as HTML",
                        article.title.chars().take(60).collect::<String>()
                    ),
                    "items",
                    "dialect.text_format",
                )
                .with_fix(Some("dialect.text_format = \"html\"".to_owned())),
            );
        }
        let authors: Vec<&str> = sampled.iter().filter_map(|a| a.author.as_deref()).collect();
        if !authors.is_empty()
            && authors
                .iter()
                .all(|a| a.chars().all(|c| c.is_ascii_digit()))
        {
            let key = "dialect.fields.article.author";
            problems.push(
                Problem::warning(
                    format!(
                        "the author reads as a number (\"{}\"): a user's id, not a name visitors can read",
                        authors[0]
                    ),
                    "items",
                    key,
                )
                .with_fix(
                    filled_key_like(raw, &["author_name", "authorName", "_embedded.author.0.name", "writer", "source"])
                        .map(|k| format!("{key} = \"{k}\"")),
                ),
            );
        }
        // As the portal will show it: a file below the file store becomes a gateway path.
        let links = self.upstream.links();
        if let Some(cover) = sampled.iter().filter_map(|a| a.cover.as_deref()).find(|c| {
            links
                .rewrite(c)
                .is_some_and(|shown| !shown.starts_with('/') || shown.starts_with("//"))
        }) {
            problems.push(Problem::warning(
                format!(
                    "covers stay at the CMS's own address ({}): browsers may load images from the \
                     portal only, so they will not show. Files are read below upstream.base_url at \
                     dialect.endpoints.files; a file store elsewhere needs a base_url above both",
                    cover.chars().take(80).collect::<String>()
                ),
                "items",
                "dialect.endpoints.files",
            ));
        }
        problems
    }
}
