//! An article read whole, the CMS's search, the changes feed, an unknown id, and a file.

use super::*;

impl Checker {
    /// The CMS's search, when the dialect names one: a piece of an article's title must find it.
    /// With the gateway's index searching (`index`), the CMS's answers only while the index is
    /// built after a start: what it misses is said, not warned of.
    pub(super) async fn search(&mut self, id: &Id, title: &str, tree: &[Category], index: bool) {
        // Eight characters of the title: specific enough to list the article on the first page.
        let keyword: String = title.trim().chars().take(8).collect();
        let keyword = keyword.trim().to_owned();
        if keyword.is_empty() {
            return;
        }
        let endpoint = format!("article/search keyword={keyword}");
        let call = CmsCall::Search {
            keyword: keyword.as_str().into(),
            page: 1,
            size: 20,
        };
        let Some(answered) = self
            .call(&endpoint, call, "dialect.endpoints.article_search.path")
            .await
        else {
            return;
        };
        let (total, total_pages) = self.dialect().header_totals(&answered.headers);
        let context = PageContext {
            category: None,
            total,
            total_pages,
        };
        match self.dialect().page_of(&answered.payload, 1, 20, &context) {
            Err(problem) => {
                let fix = (problem.key == "dialect.lists.items")
                    .then(|| items_fix(self.dialect(), &answered.payload))
                    .flatten();
                self.last().problems.push(from_shape(problem).with_fix(fix));
            }
            Ok(found) => {
                self.last().summary = format!(
                    "{} items, total {}",
                    found.content.len(),
                    found.total_elements
                );
                let shown = found.content.len() as u64;
                if shown < 20 && found.total_elements > shown {
                    // A first page that is not full is the last: a larger total counts something
                    // else, and visitors would get pager links to empty pages.
                    self.last().problems.push(Problem::warning(
                        format!(
                            "the search's first page holds {shown} of a page of 20, yet its total \
                             is {}: the total counts something other than what was found (Directus's \
                             meta=total_count is the whole collection; meta=filter_count is the \
                             filter's)",
                            found.total_elements
                        ),
                        "payload",
                        "dialect.lists.total",
                    ));
                }
                // Hits in no section the portal has: a folder, the site's root, a page of
                // another kind (Plone's search finds them all), which lead visitors nowhere.
                let strays: Vec<String> = found
                    .content
                    .iter()
                    .filter(|a| !has(tree, &a.category_id))
                    .map(|a| {
                        let title: String = a.title.chars().take(20).collect();
                        format!("{} “{title}”", a.id)
                    })
                    .collect();
                if !strays.is_empty() {
                    let key = "dialect.endpoints.article_search.query";
                    self.last().problems.push(
                        Problem::warning(
                            format!(
                                "{} of the {} hits are in no category the portal has, so not \
                                 articles it can show (a folder, the site's root, another kind of \
                                 content): {}",
                                strays.len(),
                                found.content.len(),
                                strays
                                    .iter()
                                    .take(3)
                                    .cloned()
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                            "payload",
                            key,
                        )
                        .with_fix(Some(format!(
                            "{key} = {{ portal_type = \"News Item\" }}   # a filter to articles in \
                             the CMS's own terms (this is Plone's); or search.mode = \"index\""
                        ))),
                    );
                }
                if !found.content.iter().any(|a| a.id == *id) && index {
                    self.last().problems.push(Problem::info(
                        format!(
                            "searching for “{keyword}”, from the title of article {id}, did not \
                             list it; the gateway's index searches (search.mode), the CMS's search \
                             only while the index is built after a start"
                        ),
                        "dialect.endpoints.article_search (path or param)",
                    ));
                } else if !found.content.iter().any(|a| a.id == *id) {
                    self.last().problems.push(Problem::warning(
                        format!(
                            "searching for “{keyword}”, from the title of article {id}, did not \
                             list it: the portal's search will miss articles"
                        ),
                        "payload",
                        "dialect.endpoints.article_search (path or param)",
                    ).with_fix(Some(
                        "search.mode = \"index\"   # the gateway's own index, which segments Chinese"
                            .to_owned(),
                    )));
                }
            }
        }
    }

    /// The detail of the first of `ids`; when the CMS has none for it but has one for the
    /// second, the first is an article the list shows and the detail hides (a draft a token sees
    /// in lists, an article not yet published), not a mapping at fault: one warning says so.
    pub(super) async fn details(&mut self, ids: &[Id]) -> Option<(Id, String)> {
        let (first, rest) = ids.split_first()?;
        if let Some(title) = self.detail(first).await {
            return Some((first.clone(), title));
        }
        let first_check = self.checks.len() - 1;
        let missing = {
            let check = &self.checks[first_check];
            check.status == "404"
                || check.problems.iter().any(|p| {
                    p.key == "dialect.endpoints.article_detail.item"
                        || p.what.starts_with("the CMS answered nothing")
                        || p.what.contains("不存在")
                })
        };
        let second = rest.first()?;
        if !missing {
            return None;
        }
        let Some(title) = self.detail(second).await else {
            // Both missing: the detail itself is at fault, as the first check says; once.
            self.checks.pop();
            return None;
        };
        let key = "dialect.endpoints.article_list.query";
        self.checks[first_check].problems = vec![
            Problem::warning(
                format!(
                    "article {first} is in the list but its detail has none (article {second}'s \
                     has): a draft or unpublished article the list shows, which visitors would \
                     see listed and then not find"
                ),
                "payload",
                key,
            )
            .with_fix(Some(format!(
                "{key} = {{ status = \"publish\" }}   # a filter to published articles in the \
                 CMS's own terms; or a credential that sees published content only"
            ))),
        ];
        Some((second.clone(), title))
    }

    /// `[dialect.changes]`, when set: what changed in the last week, read as the poller reads it
    /// (else the poller only logs its failure, every interval).
    pub(super) async fn changes(&mut self) {
        if self.dialect().changes_every().is_none() {
            return;
        }
        let since: chrono::DateTime<chrono::Utc> =
            (std::time::SystemTime::now() - Duration::from_secs(7 * 24 * 3600)).into();
        let call = CmsCall::Changes {
            since: std::sync::Arc::from(self.dialect().changes_since(since)),
        };
        let endpoint = format!("changes since {}", self.dialect().changes_since(since));
        let Some(answered) = self.call(&endpoint, call, "dialect.changes.path").await else {
            return;
        };
        match self.dialect().changed_articles(&answered.payload) {
            Ok(changed) => {
                self.last().summary =
                    format!("{} articles changed in the last week", changed.len());
            }
            Err(problem) => self.last().problems.push(from_shape(problem)),
        }
    }

    /// The detail of an id the CMS surely does not have: its answer must read as "not found"
    /// (404 文章 N 不存在。 for visitors), not as a refusal or an error. Headless CMSs answer 403
    /// for an id they do not have; the fix is the endpoint's `not_found`.
    pub(super) async fn unknown_article(&mut self) {
        // An id of the CMS's kind that names nothing there.
        let none = Id::number(987_654_321);
        let none = if self.dialect().holds(&Id::parse("a").expect("an id")) {
            Id::parse("portal-check-none-987654321").expect("an id")
        } else {
            none
        };
        let call = CmsCall::Article { id: none.clone() };
        let endpoint = format!("article/detail id={none} (none)");
        let started = Instant::now();
        let Ok((raw, read)) = self.upstream.answer(call.clone()).await else {
            return;
        };
        let status = raw.status.as_u16();
        let key = "dialect.endpoints.article_detail.not_found";
        let mut problems = Vec::new();
        let summary = if self.dialect().is_not_found(&call, raw.status) {
            format!("not found (HTTP {status}, as not_found says)")
        } else {
            match read {
                Err(UpstreamError::Status {
                    code: 404 | 410, ..
                }) => "not found, as it should be".to_owned(),
                Ok(payload) if self.dialect().detail_item(&payload).is_none() => {
                    "nothing, read as not found".to_owned()
                }
                Ok(payload) => {
                    let answered = self
                        .dialect()
                        .detail_item(&payload)
                        .and_then(|item| self.dialect().article(item, "payload").ok())
                        .map(|a| a.id);
                    // A CMS that has it after all, or an answer the mapping cannot read (the
                    // detail of a real article is checked above): nothing to learn here.
                    let Some(answered) = answered.filter(|id| *id != none) else {
                        return;
                    };
                    let answered = format!("article {answered}");
                    problems.push(Problem::error(
                        format!(
                            "asked for article {none}, which the CMS does not have, it answered \
                             {answered}: the id is not sent where the CMS reads it"
                        ),
                        "payload",
                        "dialect.endpoints.article_detail (path or param)",
                    ));
                    String::new()
                }
                Err(_) => {
                    let what = if status == 403 || status == 401 {
                        "a refusal (visitors would read 无权访问)"
                    } else {
                        "an error (visitors would read that the page failed)"
                    };
                    problems.push(
                        Problem::warning(
                            format!(
                                "an article that does not exist answers HTTP {status}, read as \
                                 {what}, not 404 文章不存在"
                            ),
                            "",
                            key,
                        )
                        .with_fix(Some(format!("{key} = [{status}]"))),
                    );
                    String::new()
                }
            }
        };
        self.record(endpoint, started, status.to_string(), summary, problems);
    }

    /// The article's check; its title when it could be read (for the search check).
    pub(super) async fn detail(&mut self, id: &Id) -> Option<String> {
        let endpoint = format!("article/detail id={id}");
        let payload = self
            .call(
                &endpoint,
                CmsCall::Article { id: id.clone() },
                "dialect.endpoints.article_detail.path",
            )
            .await?
            .payload;
        if payload.is_null() {
            self.last().problems.push(Problem::error(
                "the CMS answered nothing for an article its list holds",
                "payload",
                "dialect.endpoints.article_detail",
            ));
            return None;
        }
        let Some(item) = self.dialect().detail_item(&payload) else {
            self.last().problems.push(Problem::error(
                "no article where the detail's item should be",
                "payload",
                "dialect.endpoints.article_detail.item",
            ));
            return None;
        };
        match self.dialect().article(item, "payload") {
            Err(problem) => {
                self.last().problems.push(from_shape(problem));
                None
            }
            Ok(article) => {
                if article.id != *id {
                    self.last().problems.push(Problem::error(
                        format!(
                            "asked for article {id}, the CMS answered article {}",
                            article.id
                        ),
                        "payload.id",
                        "dialect.endpoints.article_detail (path or param)",
                    ));
                }
                if article.content.as_deref().is_none_or(str::is_empty) {
                    let paths = self.dialect().article.content.describe();
                    self.last().problems.push(Problem::warning(
                        format!("the article has no body at {paths}"),
                        "payload",
                        "dialect.fields.article.content",
                    ));
                }
                let body = article.content.as_deref().unwrap_or("");
                if body.contains("embedtype=\"image\"") && !self.dialect().resolves_images() {
                    self.last().problems.push(
                        Problem::warning(
                            "the body embeds images by id (<embed embedtype=\"image\" id=…>), \
                             which the portal drops until it knows where to find them",
                            "payload",
                            "dialect.endpoints.image_detail",
                        )
                        .with_fix(Some(
                            "dialect.endpoints.image_detail = { path = \"api/v2/images/{id}/\" } \
                             (or dialect.links.image_file = \"{id}\" for a store serving files by id)"
                                .to_owned(),
                        )),
                    );
                }
                let slugs = self.dialect().looks_up_slugs();
                let root = self.dialect().id_root().map(str::to_owned);
                if let Some(problem) =
                    stray_links(self.upstream.links(), body, slugs, root.as_deref())
                {
                    self.last().problems.push(problem);
                }
                let full_title = article.title.clone();
                let title: String = full_title.chars().take(24).collect();
                let article = finish_article(article, self.upstream.links());
                self.last().summary = format!(
                    "“{title}”, body {} bytes",
                    article.content.map_or(0, |c| c.len())
                );
                Some(full_title)
            }
        }
    }

    pub(super) async fn file(&mut self, cover: &str) {
        let Some(rewritten) = self.upstream.links().file_field(cover) else {
            // Nothing the portal can fetch: no cover ever shows, and nothing else would say so.
            let shown: String = cover.chars().take(80).collect();
            let by_id = (1..=64).contains(&cover.trim().len())
                && cover
                    .trim()
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-');
            let (key, fix) = if by_id {
                (
                    "dialect.links.image_file",
                    "dialect.links.image_file = \"{id}\"   # a file by its id under \
                     dialect.endpoints.files (Directus's assets/<id>)"
                        .to_owned(),
                )
            } else {
                (
                    "dialect.fields.article.cover",
                    "dialect.fields.article.cover = \"<the field holding the image's address>\""
                        .to_owned(),
                )
            };
            self.checks.push(Check {
                endpoint: "files (a cover)".to_owned(),
                status: "-".to_owned(),
                latency_ms: 0,
                summary: String::new(),
                problems: vec![
                    Problem::warning(
                        format!(
                            "an article's cover is “{shown}”, which names no file the portal can \
                             fetch{}: no cover will show",
                            if by_id {
                                " (a file id, and the config does not say where ids are kept)"
                            } else {
                                ""
                            }
                        ),
                        "cover",
                        key,
                    )
                    .with_fix(Some(fix)),
                ],
            });
            return;
        };
        let Some(path) = rewritten.strip_prefix(portal_cms::FILES_ROUTE) else {
            return;
        };
        let path = path.split('?').next().unwrap_or(path).to_owned();
        let segments: Vec<&str> = path.split('/').collect();
        let started = Instant::now();
        let endpoint = format!("files {path}");
        match self
            .upstream
            .get_file(&segments, &[], &HeaderMap::new())
            .await
        {
            Ok(file) if file.status.is_success() => {
                let kind = file
                    .headers
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("?")
                    .to_owned();
                self.record(
                    endpoint,
                    started,
                    file.status.as_u16().to_string(),
                    kind,
                    Vec::new(),
                );
            }
            Ok(file) => {
                let problem = Problem::error(
                    format!(
                        "a cover the CMS names is not in its file store (HTTP {})",
                        file.status.as_u16()
                    ),
                    "",
                    "dialect.endpoints.files",
                );
                self.record(
                    endpoint,
                    started,
                    file.status.as_u16().to_string(),
                    String::new(),
                    vec![problem],
                );
            }
            Err(err) => {
                let (status, problem) =
                    from_error(&err, "dialect.endpoints.files", &Said::default());
                self.record(endpoint, started, status, String::new(), vec![problem]);
            }
        }
    }
}

/// The `href`s of a body's links, as written (a scan, not a parser: enough to name them).
fn hrefs(body: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find("href=") {
        rest = &rest[at + 5..];
        let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
            continue;
        };
        let inner = &rest[1..];
        if let Some(end) = inner.find(quote) {
            found.push(&inner[..end]);
            rest = &inner[end..];
        }
    }
    found
}

/// Links in an article's body to pages of the CMS's own site that are no article page the
/// config names: the portal sends a visitor to the file store (where such a page is not), to the
/// CMS's own address, or drops the link. The fix line is a `links.article` pattern made of the
/// first such address, its number as `{id}`, else its last segment as `{slug}` (only where the
/// dialect can look a slug up, `endpoints.article_by_slug`: a `{slug}` pattern without it is a
/// config that does not load, so the fix says what it needs instead). Where ids are paths below
/// `root` (`dialect.ids = "paths"`), the pattern is the root and `{path}`.
fn stray_links(
    links: &portal_cms::FileLinks,
    body: &str,
    slugs: bool,
    root: Option<&str>,
) -> Option<Problem> {
    let strays: Vec<portal_cms::StrayPage> = hrefs(body)
        .into_iter()
        .filter_map(|href| links.stray_page(&href.replace("&amp;", "&")))
        .collect();
    let first = strays.first()?;
    let named: Vec<String> = strays
        .iter()
        .take(3)
        .map(|s| match &s.becomes {
            Some(to) if to.starts_with(portal_cms::FILES_ROUTE) => {
                format!(
                    "{} (sent to {to}, which the file store does not have)",
                    s.path
                )
            }
            Some(_) => format!("{} (left pointing at the CMS's own address)", s.path),
            None => format!("{} (the link is dropped)", s.path),
        })
        .collect();
    Some(
        Problem::warning(
            format!(
                "the body links to {} page{} of the CMS's site that {} no article page the portal \
                 knows: {}",
                strays.len(),
                if strays.len() == 1 { "" } else { "s" },
                if strays.len() == 1 { "is" } else { "are" },
                named.join("; ")
            ),
            "payload.content",
            "dialect.links.article",
        )
        .with_fix(Some({
            let pattern = match root {
                Some(root) if first.path.starts_with(&format!("{root}/")) => {
                    format!("{root}/{{path}}")
                }
                _ => pattern_of(&first.path),
            };
            if pattern.contains("{slug}") && !slugs {
                format!(
                    "[dialect.endpoints.article_by_slug] (where the CMS finds an article by its \
                     slug), then dialect.links.article = [\"{pattern}\"]"
                )
            } else {
                format!(
                    "dialect.links.article = [\"{pattern}\"]   # the address of the CMS's article \
                     pages, so links to them open the portal's; a link to any other page of the \
                     CMS cannot be shown"
                )
            }
        })),
    )
}

/// An article page pattern made of one address: the last segment's number as `{id}`
/// (`/news/2101.html` → `/news/{id}.html`), else that segment as `{slug}`; the segments before it
/// that are numbers (a year, a month) as `*`, any one segment.
fn pattern_of(path: &str) -> String {
    let trailing = &path[path.trim_end_matches('/').len()..];
    let mut segments: Vec<String> = path
        .trim_end_matches('/')
        .split('/')
        .map(str::to_owned)
        .collect();
    let Some(last) = segments.pop() else {
        return "{slug}".to_owned();
    };
    for segment in &mut segments {
        if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
            *segment = "*".to_owned();
        }
    }
    let bytes = last.as_bytes();
    let last = match bytes.iter().rposition(u8::is_ascii_digit) {
        Some(end) => {
            let start = bytes[..end]
                .iter()
                .rposition(|b| !b.is_ascii_digit())
                .map_or(0, |i| i + 1);
            format!("{}{{id}}{}", &last[..start], &last[end + 1..])
        }
        None => "{slug}".to_owned(),
    };
    segments.push(last);
    segments.join("/") + trailing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_names_the_number_or_the_last_segment() {
        assert_eq!(pattern_of("/news/2101.html"), "/news/{id}.html");
        assert_eq!(pattern_of("/2024/05/a-post/"), "/*/*/{slug}/");
        assert_eq!(pattern_of("/column/about-us"), "/column/{slug}");
        assert_eq!(
            hrefs("<a href=\"/a\">x</a><a class=\"b\" href='c.html'>y</a> href=bare"),
            vec!["/a", "c.html"]
        );
    }
}
