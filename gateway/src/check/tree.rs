//! The category tree: the call that finds it, its shape, kinds, routes and integrity (every
//! parent present, no circle).

use super::*;

/// Top-level categories that lead to no portal route, themselves or below (WordPress's
/// 未分类 "Uncategorized", whose address is the site's root; another site's column): their
/// articles show in no section, no menu and no feed.
pub(super) fn unrouted(tree: &[Category]) -> Option<Problem> {
    pub(super) fn leads(c: &Category) -> bool {
        PORTAL_ROUTES.contains(&c.url.as_str()) || c.sub_category.iter().any(leads)
    }
    let lost: Vec<&Category> = tree.iter().filter(|c| !leads(c)).collect();
    let first = lost.first()?;
    let key = "dialect.categories.routes";
    let named: Vec<String> = lost
        .iter()
        .take(5)
        .map(|c| format!("{} {} (route \"{}\")", c.id, c.name, c.url))
        .collect();
    Some(
        Problem::warning(
            format!(
                "{} top-level categories lead to no portal route, so their articles show in no \
                 section: {}",
                lost.len(),
                named.join(", ")
            ),
            "items",
            key,
        )
        .with_fix(Some(
            match PORTAL_ROUTES.iter().find(|r| stands_for(first, r)) {
                Some(route) => format!(
                    "[{key}] {} = \"{route}\"   # {}",
                    toml_key(&first.id),
                    first.name
                ),
                None => format!(
                    "[{key}] {} = \"/news_center/company_announcement/1\"   # its section on the \
                     portal; none needed when it holds no articles",
                    toml_key(&first.id)
                ),
            },
        )),
    )
}

/// Whether category `c`, which leads to no portal route, is the CMS's column for `route`: it
/// bears the route's name (`中欧班列`), or its address ends in the route's last segment written
/// another way (`china-europe-train` for `China-Europe_train`), wherever it sits in the tree (a
/// section one level deeper or higher than the portal's). What `check-upstream` then proposes is a
/// `dialect.categories.routes` line that keeps the section, not a line declaring it absent.
pub(super) fn stands_for(c: &Category, route: &str) -> bool {
    if PORTAL_ROUTES.contains(&c.url.as_str()) {
        return false;
    }
    let fold = |text: &str| -> String {
        text.chars()
            .filter(|ch| !matches!(ch, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let last = |path: &str| -> String {
        fold(path.trim_end_matches('/').rsplit('/').next().unwrap_or(""))
    };
    portal_routes::name_of(route).is_some_and(|name| c.name.trim() == name)
        || (!last(&c.url).is_empty() && last(&c.url) == last(route))
}

/// The category in `tree` that stands for `route` (`stands_for`), when exactly one does.
pub(super) fn stand_in<'a>(tree: &'a [Category], route: &str) -> Option<&'a Category> {
    fn collect<'a>(tree: &'a [Category], route: &str, out: &mut Vec<&'a Category>) {
        for c in tree {
            if stands_for(c, route) {
                out.push(c);
            }
            collect(&c.sub_category, route, out);
        }
    }
    let mut found = Vec::new();
    collect(tree, route, &mut found);
    match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// An id as a key of a TOML table line: always quoted (a table's keys are strings).
pub(super) fn toml_key(id: &Id) -> String {
    format!("\"{id}\"")
}

pub(super) fn walk(tree: &[Category], f: &mut impl FnMut(&Category)) {
    for c in tree {
        f(c);
        walk(&c.sub_category, f);
    }
}

pub(super) fn has(tree: &[Category], id: &Id) -> bool {
    tree.iter().any(|c| c.id == *id || has(&c.sub_category, id))
}

/// An id as TOML writes it in a fix line: a whole number bare, any other id quoted.
pub(super) fn toml_id(id: &Id) -> String {
    match id.as_number() {
        Some(n) => n.to_string(),
        None => format!("\"{id}\""),
    }
}

/// Parents that do not exist (a warning: the CMS's data, or the wrong field), and parents that
/// lead round in a circle (an error: the wrong field, surely).
pub(super) fn integrity(dialect: &Dialect, nodes: &[(Category, Option<Id>)]) -> Vec<Problem> {
    let root = dialect.category_root();
    let parents: HashMap<&Id, Option<&Id>> =
        nodes.iter().map(|(c, p)| (&c.id, p.as_ref())).collect();
    let is_top = |p: Option<&Id>| p.is_none_or(|p| p.is_top() || p == root);
    let max_depth = dialect.category_depth() as usize;
    let mut problems = Vec::new();
    // Categories the portal leaves out for their depth: how many, and the first.
    let (mut too_deep, mut first_too_deep) = (0, None);
    for (i, (category, parent)) in nodes.iter().enumerate() {
        if let Some(parent) = parent.as_ref().filter(|p| !is_top(Some(p)))
            && !parents.contains_key(parent)
        {
            problems.push(Problem::warning(
                format!(
                    "category {} names parent {parent}, which the CMS does not list",
                    category.id
                ),
                &format!("items[{i}]"),
                "dialect.fields.category.parent_id",
            ));
        }
        // Up the chain of parents, at most as far as the portal shows: a walk as long as the
        // chain would make a CMS's 10 000-long chain 50 million steps.
        let mut seen = HashSet::from([&category.id]);
        let mut at = parent.as_ref();
        while let Some(p) = at.filter(|p| !is_top(Some(p))) {
            if seen.len() >= max_depth {
                too_deep += 1;
                first_too_deep.get_or_insert((i, &category.id));
                break;
            }
            if !seen.insert(p) {
                problems.push(Problem::error(
                    format!(
                        "category {} is its own ancestor (a cycle through {p})",
                        category.id
                    ),
                    &format!("items[{i}]"),
                    "dialect.fields.category.parent_id",
                ));
                break;
            }
            at = parents.get(p).copied().flatten();
        }
    }
    if let Some((i, id)) = first_too_deep {
        problems.push(Problem::warning(
            format!(
                "{too_deep} categories lie more than {max_depth} levels below the top (the first: category {id}); the portal leaves them out"
            ),
            &format!("items[{i}]"),
            "dialect.categories.max_depth",
        ));
    }
    if nodes.len() > MAX_CATEGORIES {
        problems.push(Problem::warning(
            format!(
                "the CMS lists {} categories; the portal shows the first {MAX_CATEGORIES} reached from the top",
                nodes.len()
            ),
            "items",
            "dialect.categories.root",
        ));
    }
    problems
}

impl Checker {
    /// Shape `children`: the root's children, asked for on their own so that a wrong root is
    /// told from a wrong path. `false` when the tree cannot be asked for.
    pub(super) async fn root_children(&mut self) -> bool {
        let root = self.dialect().category_root().clone();
        let call = CmsCall::Children {
            parent: root.clone(),
        };
        let endpoint = format!("category/children parentId={root}");
        let started = Instant::now();
        let answered = self.ask(&call).await;
        // What the CMS lists under 0, when the root is another id: tells a wrong root.
        let under_zero = if !root.is_top()
            && answered
                .as_ref()
                .map_or(true, |a| self.count_items(&a.payload) == Some(0))
        {
            match self.ask(&CmsCall::Children { parent: Id::top() }).await {
                Ok(zero) => self.count_items(&zero.payload).filter(|n| *n > 0),
                Err(_) => None,
            }
        } else {
            None
        };
        let root_key = "dialect.categories.root";
        let root_fix = under_zero.map(|_| format!("{root_key} = 0"));
        match answered {
            Err(failed) => {
                let refused = matches!(
                    failed.err,
                    UpstreamError::Status { .. } | UpstreamError::BadResponse(_)
                );
                self.failed(
                    endpoint,
                    started,
                    &call,
                    "dialect.endpoints.category_children.path",
                    failed,
                );
                if refused && let Some(n) = under_zero {
                    let problem = &mut self.last().problems[0];
                    problem.what = format!(
                        "the CMS refuses the children of the root {root} but lists {n} under 0: \
                         {}",
                        problem.what
                    );
                    problem.key = root_key.to_owned();
                    problem.fix = root_fix;
                }
                false
            }
            Ok(answered) => match self.count_items(&answered.payload) {
                None => {
                    let problem = self
                        .dialect()
                        .category_items(&answered.payload)
                        .err()
                        .map(from_shape);
                    self.record(
                        endpoint,
                        started,
                        "200".to_owned(),
                        String::new(),
                        problem.into_iter().collect(),
                    );
                    false
                }
                Some(0) => {
                    let problem = Problem::error(
                        format!(
                            "the children call for the root ({root}) lists no category{}",
                            under_zero.map_or(String::new(), |n| format!(
                                ", while {n} are listed under 0"
                            ))
                        ),
                        "payload",
                        root_key,
                    )
                    .with_fix(root_fix);
                    self.record(
                        endpoint,
                        started,
                        "200".to_owned(),
                        "0 categories".to_owned(),
                        vec![problem],
                    );
                    false
                }
                Some(n) => {
                    self.record(
                        endpoint,
                        started,
                        "200".to_owned(),
                        format!("{n} categories at the top"),
                        Vec::new(),
                    );
                    true
                }
            },
        }
    }

    pub(super) fn count_items(&self, payload: &Value) -> Option<usize> {
        self.dialect().category_items(payload).ok().map(<[_]>::len)
    }

    /// The category tree, with its integrity checked; `None` when it could not be read.
    pub(super) async fn categories(&mut self) -> Option<Vec<Category>> {
        let shape = self.dialect().category_shape();
        if shape == CategoryShape::Children && !self.root_children().await {
            return None;
        }
        let started = Instant::now();
        let source = if shape == CategoryShape::Children {
            match self
                .upstream
                .category_source(portal_cms::Credential::Client, None)
                .await
            {
                Ok(source) => source,
                Err(err) => {
                    let (status, problem) = from_error(
                        &err,
                        "dialect.endpoints.category_children.path",
                        &Said::default(),
                    );
                    self.record(
                        "category/list".to_owned(),
                        started,
                        status,
                        String::new(),
                        vec![problem],
                    );
                    return None;
                }
            }
        } else {
            let answered = self
                .call(
                    "category/list",
                    CmsCall::Categories,
                    "dialect.endpoints.category_list.path",
                )
                .await?;
            // Recorded below, with what the categories say.
            self.checks.pop();
            CategorySource::List(answered.payload)
        };
        let nodes = match self.dialect().category_nodes(&source) {
            Ok(nodes) => nodes,
            Err(problem) => {
                self.record(
                    "category/list".to_owned(),
                    started,
                    "200".to_owned(),
                    String::new(),
                    vec![from_shape(problem)],
                );
                return None;
            }
        };
        let mut problems = integrity(self.dialect(), &nodes);
        let tree = self.dialect().assemble(nodes.clone());
        let mut urls = HashSet::new();
        let mut count = 0;
        walk(&tree, &mut |c| {
            count += 1;
            if !c.url.is_empty() {
                urls.insert(c.url.clone());
            }
        });
        let root = self.dialect().category_root().clone();
        let ids: HashSet<&Id> = nodes.iter().map(|(c, _)| &c.id).collect();
        let wrong_root = !root.is_top()
            && !nodes.is_empty()
            && !ids.contains(&root)
            && !nodes.iter().any(|(_, p)| p.as_ref() == Some(&root));
        if wrong_root {
            // The parent most categories name that is not itself listed: the CMS's real root.
            let mut named: HashMap<Id, usize> = HashMap::new();
            for (_, parent) in &nodes {
                let parent = parent.clone().unwrap_or_else(Id::top);
                if parent.is_top() || !ids.contains(&parent) {
                    *named.entry(parent).or_default() += 1;
                }
            }
            let likely = named
                .into_iter()
                .max_by(|(a, n), (b, m)| n.cmp(m).then_with(|| b.cmp(a)))
                .map(|(id, _)| id);
            problems.push(
                Problem::error(
                    format!(
                        "no category has the root's id {root}, and none names it as its parent: \
                         none of the {} categories is shown",
                        nodes.len()
                    ),
                    "",
                    "dialect.categories.root",
                )
                .with_fix(likely.map(|id| format!("dialect.categories.root = {}", toml_id(&id)))),
            );
        } else if count < nodes.len() {
            let left: Vec<String> = nodes
                .iter()
                .filter(|(c, _)| !has(&tree, &c.id))
                .map(|(c, _)| c.id.to_string())
                .take(10)
                .collect();
            let what = format!(
                "{} categories are not below the root and are not shown (ids {})",
                nodes.len() - count,
                left.join(", ")
            );
            // None shown is the root's fault; a few left out may be other sites' columns.
            problems.push(if count == 0 {
                Problem::error(what, "", "dialect.categories.root")
            } else {
                Problem::warning(what, "", "dialect.categories.root")
            });
        }
        // A flat list read without its parents: everything at the top.
        if nodes.len() > 5 && nodes.iter().all(|(_, p)| p.is_none()) && tree.len() == count {
            let items = match &source {
                CategorySource::List(payload) => self
                    .dialect()
                    .category_items(payload)
                    .map(<[_]>::to_vec)
                    .unwrap_or_default(),
                CategorySource::Levels(_) => Vec::new(),
            };
            let key = "dialect.fields.category.parent_id";
            problems.push(
                Problem::warning(
                    format!(
                        "all {count} categories are at the top: none has a parent at {} (the \
                         portal's menus will be one flat level)",
                        self.dialect().category.parent_id.describe()
                    ),
                    "items",
                    key,
                )
                .with_fix(parent_key_like(&items).map(|k| format!("{key} = \"{k}\""))),
            );
        }
        problems.extend(self.routes(&tree, &urls));
        problems.extend(unrouted(&tree));
        problems.extend(self.kinds(&tree));
        let summary = format!("{count} categories, {} at the top", tree.len());
        let calls = match &source {
            CategorySource::List(_) => String::new(),
            CategorySource::Levels(levels) => format!(" ({} children calls)", levels.len()),
        };
        self.record(
            "category/list".to_owned(),
            started,
            "200".to_owned(),
            summary + &calls,
            problems,
        );
        Some(tree)
    }

    /// Categories whose kind, as the CMS gives it, is not the one the portal's route table gives
    /// their route: a list shown as a single page (its pager, feed and site-map lines gone) or
    /// the reverse. A route whose kind `dialect.categories.types` sets is the integrator's choice.
    pub(super) fn kinds(&self, tree: &[Category]) -> Vec<Problem> {
        let key = "dialect.categories.types";
        let mut problems = Vec::new();
        walk(tree, &mut |c| {
            let (Some(table), Some(kind)) = (portal_routes::kind_of(&c.url), c.kind.as_deref())
            else {
                return;
            };
            let shows = |k: &str| {
                if k == "list" {
                    "a list"
                } else {
                    "a single page"
                }
            };
            if table != "group"
                && (kind == "list") != (table == "list")
                && !self.dialect().types_route(&c.url)
            {
                problems.push(
                    Problem::warning(
                        format!(
                            "the CMS gives {} ({}) the kind \"{kind}\": the portal shows it as {} \
                             where its route is {}",
                            c.url,
                            c.name,
                            shows(kind),
                            shows(table)
                        ),
                        "items",
                        key,
                    )
                    .with_fix(Some(format!("[{key}] \"{}\" = \"{table}\"", c.url))),
                );
            }
        });
        problems
    }

    /// The portal routes the categories lead to, against those declared absent.
    pub(super) fn routes(&self, tree: &[Category], urls: &HashSet<String>) -> Vec<Problem> {
        let absent = self.dialect().absent_routes();
        let absent_key = "dialect.categories.absent";
        let mut problems = Vec::new();
        let mut declared = Vec::new();
        for route in PORTAL_ROUTES {
            let listed = absent.iter().any(|a| a == route);
            match (urls.contains(*route), listed) {
                (true, true) => problems.push(
                    Problem::warning(
                        format!(
                            "{route} is listed as absent but the CMS has it: the portal shows it"
                        ),
                        "",
                        absent_key,
                    )
                    .with_fix(Some(format!("take \"{route}\" out of {absent_key}"))),
                ),
                (false, true) => declared.push(*route),
                (false, false) => problems.push(
                    Problem::warning(
                        format!("no category leads to the portal route {route}"),
                        "",
                        "dialect.categories.routes (or dialect.fields.category.url), or \
                         dialect.categories.absent",
                    )
                    // The CMS's column for it under another address or at another level: the
                    // line that keeps the section, never one that declares it absent.
                    .with_fix(stand_in(tree, route).map(|c| {
                        format!(
                            "[dialect.categories.routes] {} = \"{route}\"   # {}, at {}",
                            toml_key(&c.id),
                            c.name,
                            if c.url.is_empty() {
                                "no address"
                            } else {
                                &c.url
                            }
                        )
                    })),
                ),
                (true, false) => {}
            }
        }
        // One snippet for them all, on the first: the sections the CMS has none of.
        let missing: Vec<String> = PORTAL_ROUTES
            .iter()
            .filter(|r| !urls.contains(**r) && !absent.iter().any(|a| a == *r))
            .filter(|r| stand_in(tree, r).is_none())
            .map(|r| format!("\"{r}\""))
            .collect();
        if let Some(first) = problems
            .iter_mut()
            .find(|p| p.what.starts_with("no category leads") && p.fix.is_none())
        {
            let listed = absent
                .iter()
                .filter(|a| !urls.contains(*a) && PORTAL_ROUTES.contains(&a.as_str()))
                .map(|a| format!("\"{a}\""));
            let all: Vec<String> = listed.chain(missing).collect();
            first.fix = Some(format!(
                "{absent_key} = [{}]   # when the CMS has none of these sections",
                all.join(", ")
            ));
        }
        for route in absent {
            if !PORTAL_ROUTES.contains(&route.as_str()) {
                problems.push(Problem::warning(
                    format!("{route} is listed as absent but is not a portal route"),
                    "",
                    absent_key,
                ));
            }
        }
        if !declared.is_empty() {
            problems.push(Problem::info(
                format!(
                    "declared absent, not looked for: {} (the portal has no content there)",
                    declared.join(", ")
                ),
                absent_key,
            ));
        }
        problems
    }
}

/// What a language's tree (`theirs`, asked with `[languages.<code>]`'s parameters) says of its
/// configuration beside the site's own (`ours`): the same sections under the same names is a CMS
/// that did not read the parameters (WordPress without Polylang Pro or WPML ignores `lang`; its
/// English pages would show the Chinese content); a name in Chinese, content not in that language.
pub(super) fn language_problems(
    code: &str,
    ours: &[Category],
    theirs: &[Category],
) -> Vec<Problem> {
    fn names(tree: &[Category]) -> Vec<String> {
        let mut out = Vec::new();
        walk(tree, &mut |c| out.push(c.name.clone()));
        out
    }
    let key = format!("languages.{code}.query");
    let (ours, theirs) = (names(ours), names(theirs));
    if theirs.is_empty() {
        return vec![Problem::warning(
            format!(
                "the CMS gives no category in `{code}`: the portal has no page in that language"
            ),
            "category/list",
            &key,
        )];
    }
    if ours == theirs {
        return vec![Problem::warning(
            format!(
                "the CMS gives the same {} categories, named the same, in `{code}` as in the site's own language: it does not read [languages.{code}]'s parameters or dialect keys, and the `{code}` pages would show the site's own content",
                theirs.len()
            ),
            "category/list",
            &key,
        )];
    }
    let chinese: Vec<&String> = if code == "en" {
        theirs
            .iter()
            .filter(|n| portal_core::model::site::has_han(n))
            .collect()
    } else {
        Vec::new()
    };
    if chinese.is_empty() {
        return Vec::new();
    }
    vec![Problem::warning(
        format!(
            "{} of the {} categories in `{code}` are named in Chinese ({}): the CMS's content in that language is not all translated",
            chinese.len(),
            theirs.len(),
            chinese
                .iter()
                .take(3)
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join("、")
        ),
        "category/list",
        &key,
    )]
}
