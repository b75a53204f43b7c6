//! `portal-gateway check-upstream` and `check-config`: against a good CMS and broken ones, in
//! process for the findings and through the binary for exit codes, JSON and secrets.

use std::process::Stdio;

use portal_gateway::check::{self, Level};
use portal_web::Config;
use reference_cms::{CategoryShape, Dialect};
use serde_json::{Value, json};

use crate::helpers::*;

/// The mybatis example pointed at `cms`, edited by `edit` (line replacements).
fn mybatis(cms: std::net::SocketAddr, edits: &[(&str, &str)]) -> String {
    let mut text = example_toml("mybatis", cms);
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replacen(from, to, 1);
    }
    text
}

async fn report(config: &Config) -> check::Report {
    check::run(config).await.unwrap()
}

/// The report on a config as written in a file (an example, edited).
async fn report_toml(toml: &str) -> check::Report {
    report(&Config::from_toml_str(toml).unwrap()).await
}

#[tokio::test]
async fn a_good_upstream_maps_in_every_dialect() {
    // reference-cms in each of its dialects, read with the example written for it: no error
    // (warnings are allowed: a real CMS may lack a section).
    for (dialect, example, shape, edit) in [
        (Dialect::Native, "native", CategoryShape::Flat, None),
        (Dialect::Mybatis, "mybatis", CategoryShape::Flat, None),
        (Dialect::Rest, "rest", CategoryShape::Flat, None),
        (
            Dialect::Rest,
            "rest",
            CategoryShape::Children,
            Some(("shape = \"flat\"", "shape = \"children\"")),
        ),
    ] {
        let cms = spawn_reference_cms_speaking(dialect, shape).await;
        let mut toml = example_toml(example, cms);
        if let Some((from, to)) = edit {
            assert!(toml.contains(from));
            toml = toml.replacen(from, to, 1);
        }
        let good = report_toml(&toml).await;
        let rendered = check::render(&good);
        assert!(good.ok, "{example}: {rendered}");
        assert_eq!(good.errors, 0, "{example}: {rendered}");
        assert!(
            rendered.ends_with(&format!("0 errors, {}\n", plural(good.warnings))),
            "{example}: {rendered}"
        );
        let endpoints: Vec<&str> = good.checks.iter().map(|c| c.endpoint.as_str()).collect();
        for call in [
            "category/list",
            "article/list",
            "article/detail",
            "article/search",
            "files ",
        ] {
            assert!(
                endpoints.iter().any(|e| e.starts_with(call)),
                "{example}: {call} in {endpoints:?}"
            );
        }
        // Nothing said of the routes: the demo CMS has every section.
        assert!(
            !good
                .problems()
                .any(|(_, p)| p.what.contains("portal route")),
            "{example}: {rendered}"
        );
    }

    // The native CMS with the default dialect (no [dialect] at all).
    let native = spawn_reference_cms().await;
    let config = config_for(&format!("http://{native}/"), &static_dir(), |_| {});
    let good = report(&config).await;
    assert!(good.ok, "{}", check::render(&good));
}

fn plural(warnings: usize) -> String {
    format!("{warnings} warning{}", if warnings == 1 { "" } else { "s" })
}

/// One broken setting of the mybatis example and what the checker must say of it.
struct Broken {
    from: &'static str,
    to: &'static str,
    status: &'static str,
    key: &'static str,
    at: &'static str,
    says: &'static str,
}

#[tokio::test]
async fn each_broken_setting_is_named_with_its_key() {
    let cms = spawn_reference_cms_speaking(Dialect::Mybatis, CategoryShape::Flat).await;
    let cases = [
        Broken {
            from: CLIENT_SECRET,
            to: "wrong-secret-value",
            status: "401",
            key: "upstream.client_id / upstream.client_secret",
            at: "",
            says: "refused the gateway's credential",
        },
        Broken {
            from: "path = \"cms/column/tree\"",
            to: "path = \"cms/columns/tree\"",
            status: "404",
            key: "dialect.endpoints.category_list.path",
            at: "",
            says: "no such path",
        },
        Broken {
            from: "name = \"columnName\"",
            to: "name = \"title\"",
            status: "200",
            key: "dialect.fields.category.name",
            at: "items[0]",
            // It says what the object has instead.
            says: "columnName",
        },
        Broken {
            from: "category_id = \"columnId\"",
            to: "category_id = \"title\"",
            status: "200",
            key: "dialect.fields.article.category_id",
            at: "items[0].title",
            says: "expected an id (a whole number, or a string",
        },
        Broken {
            from: "page_base = 1",
            to: "page_base = 0",
            status: "200",
            key: "dialect.paging.page / dialect.paging.page_base / dialect.paging.style",
            at: "items",
            says: "page 2 is the same as page 1",
        },
        Broken {
            from: "items = \"records\"",
            to: "items = \"rows\"",
            status: "200",
            key: "dialect.lists.items",
            at: "payload",
            says: "records",
        },
        Broken {
            from: "path = \"cms/article/search\"",
            to: "path = \"cms/find/article\"",
            status: "404",
            key: "dialect.endpoints.article_search.path",
            at: "",
            says: "no such path",
        },
        Broken {
            from: "path = \"cms/article/{id}\"",
            to: "path = \"cms/articles/{id}\"",
            status: "404",
            key: "dialect.endpoints.article_detail.path",
            at: "",
            says: "no such path",
        },
    ];
    for case in cases {
        let report = report_toml(&mybatis(cms, &[(case.from, case.to)])).await;
        let rendered = check::render(&report);
        assert!(!report.ok, "{}: {rendered}", case.to);
        assert_eq!(report.exit_code(), 1, "{}", case.to);
        let found: Vec<_> = report.at_level(Level::Error).collect();
        assert_eq!(found.len(), 1, "{}: one error: {rendered}", case.to);
        let (check, problem) = found[0];
        assert_eq!(check.status, case.status, "{}: {rendered}", case.to);
        assert_eq!(
            (problem.key.as_str(), problem.at.as_str()),
            (case.key, case.at),
            "{}",
            case.to
        );
        assert!(
            problem.what.contains(case.says),
            "{}: {}",
            case.to,
            problem.what
        );
    }
}

#[tokio::test]
async fn routes_without_a_category_and_broken_parents_are_found() {
    let cms = spawn_reference_cms_speaking(Dialect::Rest, CategoryShape::Flat).await;
    let toml = example_toml("rest", cms);
    // Forget one route of the table.
    let forgetful = toml.replace("\"news_center-notice\" = \"/news_center/notice\"\n", "");
    let report = report_toml(&forgetful).await;
    let problems: Vec<_> = report
        .problems()
        .map(|(_, p)| (p.level, p.what.clone()))
        .collect();
    assert_eq!(
        problems,
        [(
            Level::Warning,
            "no category leads to the portal route /news_center/notice".to_owned()
        )]
    );
    // A section the CMS lacks is a warning: the portal runs without it.
    assert!(report.ok, "{}", check::render(&report));

    // Parents read from the wrong field (the sort order): category 1 is its own parent, and
    // children name parents that do not exist.
    let wrong_parent = toml.replace("parent_id = \"parent\"", "parent_id = \"order\"");
    let report = report_toml(&wrong_parent).await;
    let about = |what: &str| {
        report
            .problems()
            .any(|(_, p)| p.key == "dialect.fields.category.parent_id" && p.what.contains(what))
    };
    assert!(
        about("category 1 is its own ancestor"),
        "{}",
        check::render(&report)
    );
    assert!(!report.ok, "a cycle is an error");

    // A flat list whose category names a parent that is not there.
    let fake = FakeUpstream::start(Reply::Json(
        200,
        serde_json::json!({"code": 200, "result": [
            {"id": 1, "parentId": 0, "name": "走进云川", "url": "/about"},
            {"id": 2, "parentId": 99, "name": "孤儿栏目", "url": "/liaison"},
        ]}),
    ))
    .await;
    let flat = config_for(&fake.base_url(), &static_dir(), |c| {
        with_toml(c, "[dialect.categories]\nshape = \"flat\"\n")
    });
    let report = self::report(&flat).await;
    let (_, orphan) = report
        .problems()
        .find(|(_, p)| p.what.contains("names parent 99"))
        .unwrap_or_else(|| panic!("{}", check::render(&report)));
    assert_eq!(
        (orphan.level, orphan.at.as_str(), orphan.key.as_str()),
        (
            Level::Warning,
            "items[1]",
            "dialect.fields.category.parent_id"
        )
    );
    assert!(
        report
            .problems()
            .any(|(_, p)| p.key == "dialect.categories.root"),
        "the orphan is not shown"
    );

    // A parent chain 10 000 long: reported, in bounded time, with how many the portal leaves out.
    let items: Vec<serde_json::Value> = (1..=10_000u64)
        .map(|id| serde_json::json!({"id": id, "parentId": id - 1, "name": format!("第{id}级"), "url": ""}))
        .collect();
    fake.set(Reply::Json(
        200,
        serde_json::json!({"code": 200, "result": items}),
    ));
    let report = self::report(&flat).await;
    let (_, deep) = report
        .problems()
        .find(|(_, p)| p.key == "dialect.categories.max_depth")
        .unwrap_or_else(|| panic!("{}", check::render(&report)));
    assert!(
        deep.what.starts_with(
            "9996 categories lie more than 4 levels below the top (the first: category 5)"
        ),
        "{}",
        deep.what
    );
    assert!(
        report.problems().any(|(_, p)| p
            .what
            .contains("lists 10000 categories; the portal shows the first 1000")),
        "{}",
        check::render(&report)
    );
}

fn binary() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_portal-gateway"));
    command.env_remove("PORTAL_CONFIG").stdin(Stdio::null());
    command
}

#[tokio::test]
async fn the_command_line_exits_as_documented_and_prints_no_secret() {
    let cms = spawn_reference_cms_speaking(Dialect::Mybatis, CategoryShape::Flat).await;
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.toml");
    std::fs::write(&good, mybatis(cms, &[])).unwrap();
    let refused = dir.path().join("refused.toml");
    // The secret the CMS refuses; it must not be printed either.
    std::fs::write(
        &refused,
        mybatis(cms, &[(CLIENT_SECRET, "leaky-wrong-secret-4711")]),
    )
    .unwrap();
    // Only a warning: a section listed as absent that the CMS has.
    let warned = dir.path().join("warned.toml");
    std::fs::write(
        &warned,
        mybatis(
            cms,
            &[(
                "root = 0\n",
                "root = 0\nabsent = [\"/news_center/notice\"]\n",
            )],
        ),
    )
    .unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, mybatis(cms, &[("page_base = 1", "page_base = 7")])).unwrap();

    let run = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        let mut command = binary();
        command.args(&args);
        async move {
            tokio::task::spawn_blocking(move || command.output().unwrap())
                .await
                .unwrap()
        }
    };
    let text = |o: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    };

    let help = run(&["--help"]).await;
    assert_eq!(help.status.code(), Some(0));
    let help_text = String::from_utf8_lossy(&help.stdout);
    for word in ["check-config", "check-upstream", "PORTAL_CONFIG"] {
        assert!(help_text.contains(word), "{help_text}");
    }
    let version = run(&["--version"]).await;
    assert_eq!(version.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&version.stdout).contains(env!("CARGO_PKG_VERSION")));

    let ok = run(&["check-config", "--config", good.to_str().unwrap()]).await;
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));
    assert!(!text(&ok).contains("no built app"), "{}", text(&ok));
    // `static_dir = "frontend/dist"` as the examples write it, read from where the command runs
    // (the crate's folder, which has no app): said, with the folder it read, and still valid.
    let homeless = dir.path().join("homeless.toml");
    let fixture = format!("static_dir = \"{}\"", static_dir().display());
    std::fs::write(
        &homeless,
        mybatis(cms, &[(fixture.as_str(), "static_dir = \"frontend/dist\"")]),
    )
    .unwrap();
    let said = run(&["check-config", "--config", homeless.to_str().unwrap()]).await;
    assert_eq!(said.status.code(), Some(0), "{}", text(&said));
    let beside = std::path::absolute("frontend/dist").unwrap();
    assert!(
        text(&said).contains("holds no built app (index.html)")
            && text(&said).contains(&beside.display().to_string()),
        "{}",
        text(&said)
    );
    let invalid = run(&["check-config", "--config", bad.to_str().unwrap()]).await;
    assert_eq!(invalid.status.code(), Some(78));
    assert!(
        text(&invalid).contains("dialect.paging.page_base"),
        "{}",
        text(&invalid)
    );

    let maps = run(&["check-upstream", "--config", good.to_str().unwrap()]).await;
    assert_eq!(maps.status.code(), Some(0), "{}", text(&maps));
    assert!(text(&maps).contains("\n0 errors, "), "{}", text(&maps));

    // Warnings alone exit 0, in text and in JSON.
    let warns = run(&["check-upstream", "--config", warned.to_str().unwrap()]).await;
    assert_eq!(warns.status.code(), Some(0), "{}", text(&warns));
    assert!(
        text(&warns)
            .contains("! warning  /news_center/notice is listed as absent but the CMS has it"),
        "{}",
        text(&warns)
    );
    assert!(
        text(&warns).contains("\n0 errors, 1 warning\n"),
        "{}",
        text(&warns)
    );
    let warns = run(&[
        "check-upstream",
        "--json",
        "--config",
        warned.to_str().unwrap(),
    ])
    .await;
    assert_eq!(warns.status.code(), Some(0), "{}", text(&warns));
    let json: serde_json::Value = serde_json::from_slice(&warns.stdout).unwrap();
    assert_eq!(json["ok"], true);
    assert_eq!(
        (json["errors"].as_u64(), json["warnings"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        json["checks"][0]["problems"][0]["level"], "warning",
        "{json}"
    );

    let no = run(&[
        "check-upstream",
        "--json",
        "--config",
        refused.to_str().unwrap(),
    ])
    .await;
    assert_eq!(no.status.code(), Some(1), "{}", text(&no));
    let json: serde_json::Value = serde_json::from_slice(&no.stdout).unwrap();
    assert_eq!(json["ok"], false);
    assert_eq!(json["checks"][0]["status"], "401");
    assert_eq!(json["checks"][0]["problems"][0]["level"], "error");
    assert!(
        !text(&no).contains("leaky-wrong-secret-4711"),
        "{}",
        text(&no)
    );

    // PORTAL_CONFIG stands in for --config.
    let mut by_env = binary();
    by_env.arg("check-config").env("PORTAL_CONFIG", &good);
    let by_env = tokio::task::spawn_blocking(move || by_env.output().unwrap())
        .await
        .unwrap();
    assert_eq!(by_env.status.code(), Some(0), "{}", text(&by_env));
}

/// A native CMS with one list category, whose two list pages `pages` answers by page index
/// (page_base 0): (items, total).
fn paging_cms(path: &str, query: &str, pages: fn(u32) -> (Vec<u64>, u64)) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            serde_json::json!({"code": 200, "result": {"content": [
                {"id": 21, "parentId": 0, "name": "公司新闻", "url": "/news_center/company_announcement/1", "sort": 1}
            ]}}),
        );
    }
    if path.ends_with("article/list") {
        let page = query
            .split('&')
            .find_map(|p| p.strip_prefix("page="))
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let (ids, total) = pages(page);
        let content: Vec<_> = ids
            .iter()
            .map(|id| serde_json::json!({"id": id, "categoryId": 21, "title": "标题", "publishTime": "2026-11-01 09:00:00"}))
            .collect();
        return Reply::Json(
            200,
            serde_json::json!({"code": 200, "result": {"content": content, "totalElements": total}}),
        );
    }
    if path.ends_with("article/search") {
        return Reply::Json(
            200,
            serde_json::json!({"code": 200, "result": {"content": [
                {"id": 1, "categoryId": 21, "title": "标题", "publishTime": "2026-11-01 09:00:00"}
            ], "totalElements": 1}}),
        );
    }
    let id: u64 = param(query, "id").and_then(|i| i.parse().ok()).unwrap_or(1);
    if id > 1000 {
        return Reply::Json(404, serde_json::json!({"code": 404, "msg": "文章不存在"}));
    }
    Reply::Json(
        200,
        serde_json::json!({"code": 200, "result": {"id": id, "categoryId": 21, "title": "标题", "publishTime": "2026-11-01 09:00:00", "content": "<p>正文</p>"}}),
    )
}

#[tokio::test]
async fn inconsistent_paging_is_found_and_named() {
    let cases: [(Reply, &str); 3] = [
        (
            Reply::Route(|path, query| paging_cms(path, query, |_| (vec![1, 2], 1))),
            "the total (1) is less than the items on the page (2)",
        ),
        (
            Reply::Route(|path, query| {
                paging_cms(path, query, |page| match page {
                    0 => (vec![1, 2], 5),
                    _ => (vec![], 5),
                })
            }),
            "page 2 is empty although the total is 5",
        ),
        (
            Reply::Route(|path, query| {
                paging_cms(path, query, |page| match page {
                    0 => (vec![1, 2], 5),
                    _ => (vec![3, 4], 7),
                })
            }),
            "the total changed between pages (5 then 7)",
        ),
    ];
    for (reply, says) in cases {
        let fake = FakeUpstream::start(reply).await;
        let report = report(&config_for(&fake.base_url(), &static_dir(), |_| {})).await;
        let rendered = check::render(&report);
        // Paging oddities are warnings: the portal runs, its pager may be off.
        assert!(report.ok, "{says}: {rendered}");
        let found: Vec<_> = report.problems().map(|(_, p)| p).collect();
        assert!(
            found.iter().any(|p| p.what == says
                && p.level == Level::Warning
                && p.key.contains("dialect.lists.total")),
            "{says}: {rendered}"
        );
    }
}

/// The value of `name` in a query string.
pub(crate) fn param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
}

/// One article of the scripted site: published on day `id` of November, so a larger id is newer.
pub(crate) fn article(id: u64) -> Value {
    json!({
        "id": id, "categoryId": 21, "title": format!("班列新闻第{id}号"),
        "summary": "摘要", "cover": "covers/a.svg", "author": "宣传部",
        "publishTime": format!("2026-11-{id:02} 09:00:00"),
        "content": "<p>正文</p>",
    })
}

/// A native CMS with one list category (21, `/news_center/company_announcement/1`) of five articles,
/// newest first, two to a page; searching lists every article. Each test changes one answer.
pub(crate) fn site(path: &str, query: &str) -> Reply {
    let page = |items: Vec<Value>, total: u64| {
        Reply::Json(
            200,
            json!({"code": 200, "result": {"content": items, "totalElements": total}}),
        )
    };
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": [
                {"id": 21, "parentId": 0, "name": "公司新闻", "url": "/news_center/company_announcement/1", "type": "list"}
            ]}),
        );
    }
    if path.ends_with("article/list") {
        let from = param(query, "page")
            .and_then(|p| p.parse().ok())
            .unwrap_or(0u64)
            * 2;
        let ids = [5u64, 4, 3, 2, 1];
        let items = ids
            .iter()
            .skip(from as usize)
            .take(2)
            .map(|id| article(*id));
        return page(items.collect(), 5);
    }
    if path.ends_with("article/search") {
        return page(vec![article(5), article(4)], 2);
    }
    if path.ends_with("article/detail") {
        let id = param(query, "id").and_then(|i| i.parse().ok()).unwrap_or(0);
        return Reply::Json(200, json!({"code": 200, "result": article(id)}));
    }
    if path.contains("/files/") {
        return Reply::Raw(
            200,
            "image/svg+xml",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        );
    }
    Reply::Json(404, json!({"code": 404, "msg": "Not Found"}))
}

/// The report on a scripted CMS, with `toml` (the dialect as an integrator writes it, as the
/// checker's fixes are written) set on the test config.
pub(crate) async fn scripted(route: fn(&str, &str) -> Reply, toml: &str) -> check::Report {
    let fake = FakeUpstream::start(Reply::Route(route)).await;
    let config = config_for(&fake.base_url(), &static_dir(), |c| with_toml(c, toml));
    let report = report(&config).await;
    // The fake is dropped with its task still serving: harmless in a test.
    report
}

/// The one finding whose key is `key`, or a failure showing the report.
pub(crate) fn finding<'a>(
    report: &'a check::Report,
    key: &str,
) -> (&'a check::Check, &'a check::Problem) {
    let found: Vec<_> = report.problems().filter(|(_, p)| p.key == key).collect();
    assert_eq!(
        found.len(),
        1,
        "one finding of {key}: {}",
        check::render(report)
    );
    found[0]
}

#[tokio::test]
async fn the_scripted_site_maps_with_warnings_for_the_sections_it_lacks() {
    let report = scripted(site, "").await;
    let rendered = check::render(&report);
    assert!(report.ok, "{rendered}");
    assert_eq!(report.exit_code(), 0);
    // Every other portal route is a warning, each once; nothing else is said.
    let routes = portal_core::portal_routes::PORTAL_ROUTES
        .iter()
        .filter(|r| **r != "/news_center/company_announcement/1")
        .count();
    assert_eq!(report.warnings, routes, "{rendered}");
    assert!(
        report.problems().all(|(_, p)| p.level == Level::Warning
            && p.what.starts_with("no category leads to the portal route")),
        "{rendered}"
    );
}

#[tokio::test]
async fn levels_error_warning_and_info_decide_the_exit_code() {
    // Info: which search runs, and why. Without the CMS's, `cms` mode shows no search box…
    let report = scripted(
        site,
        "[dialect.endpoints]\narticle_search = { path = \"\" }\n",
    )
    .await;
    let (check, info) = finding(&report, "search.mode");
    assert_eq!(info.level, Level::Info);
    assert_eq!(
        info.what,
        "search.mode = \"cms\" and the CMS has no search: the portal shows no search box"
    );
    assert_eq!(
        (
            check.endpoint.as_str(),
            check.status.as_str(),
            check.summary.as_str()
        ),
        ("search", "-", "none")
    );
    // … and `auto` (the default) runs the gateway's index.
    let auto = scripted(
        site,
        "[search]\nmode = \"auto\"\n[dialect.endpoints]\narticle_search = { path = \"\" }\n",
    )
    .await;
    let (check, info) = finding(&auto, "search.mode");
    assert_eq!(
        info.what,
        "search.mode = \"auto\" and the CMS has no search: the gateway's own index answers"
    );
    assert_eq!(check.summary, "the gateway's index");
    assert!(
        report.ok && report.exit_code() == 0,
        "{}",
        check::render(&report)
    );
    assert!(report.warnings > 0);

    // Warning: a search that does not find an article by its title.
    fn deaf(path: &str, query: &str) -> Reply {
        if path.ends_with("article/search") {
            return Reply::Json(
                200,
                json!({"code": 200, "result": {"content": [], "totalElements": 0}}),
            );
        }
        site(path, query)
    }
    let report = scripted(deaf, "").await;
    let (check, deafness) = finding(&report, "dialect.endpoints.article_search (path or param)");
    assert_eq!(deafness.level, Level::Warning);
    assert!(
        check
            .endpoint
            .starts_with("article/search keyword=班列新闻第5号"),
        "{}",
        check.endpoint
    );
    assert!(
        deafness.what.contains("did not list it"),
        "{}",
        deafness.what
    );
    assert!(report.ok && report.exit_code() == 0);
    // With the gateway's index searching, the CMS's search answers only while the index is
    // built: said, not warned of, and no fix that names what is already set.
    let report = scripted(deaf, "[search]\nmode = \"index\"\n").await;
    let (_, deafness) = finding(&report, "dialect.endpoints.article_search (path or param)");
    assert_eq!(deafness.level, Level::Info, "{}", deafness.what);
    assert!(deafness.fix.is_none(), "{:?}", deafness.fix);

    // Error: a detail path the CMS does not have.
    let report = scripted(
        site,
        "[dialect.endpoints]\narticle_detail = { path = \"article/view\", param = \"id\" }\n",
    )
    .await;
    let (check, missing) = finding(&report, "dialect.endpoints.article_detail.path");
    assert_eq!(
        (missing.level, check.status.as_str()),
        (Level::Error, "404")
    );
    assert!(!report.ok);
    assert_eq!((report.errors, report.exit_code()), (1, 1));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["ok"], false);
    let levels: Vec<&str> = json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["problems"].as_array().unwrap())
        .map(|p| p["level"].as_str().unwrap())
        .collect();
    assert!(
        levels.contains(&"error") && levels.contains(&"warning"),
        "{levels:?}"
    );
}

#[tokio::test]
async fn absent_routes_silence_their_warnings_and_are_said_once() {
    let cms = spawn_reference_cms_speaking(Dialect::Rest, CategoryShape::Flat).await;
    let toml = example_toml("rest", cms)
        .replace("\"news_center-notice\" = \"/news_center/notice\"\n", "")
        .replacen(
            "root = 0\n",
            "root = 0\nabsent = [\"/news_center/notice\"]\n",
            1,
        );
    let report = report_toml(&toml).await;
    let rendered = check::render(&report);
    assert_eq!((report.errors, report.warnings), (0, 0), "{rendered}");
    let (check, info) = finding(&report, "dialect.categories.absent");
    assert_eq!(check.endpoint, "category/list");
    assert_eq!(info.level, Level::Info);
    assert!(info.what.contains("/news_center/notice"), "{}", info.what);
    assert!(rendered.contains("Everything maps"), "{rendered}");

    // Listed as absent, but the CMS has it: a warning.
    let toml = example_toml("rest", cms).replacen(
        "root = 0\n",
        "root = 0\nabsent = [\"/news_center/notice\"]\n",
        1,
    );
    let report = report_toml(&toml).await;
    let (_, listed) = finding(&report, "dialect.categories.absent");
    assert_eq!(listed.level, Level::Warning);
    assert_eq!(
        listed.what,
        "/news_center/notice is listed as absent but the CMS has it: the portal shows it"
    );
    assert!(report.ok);
}

#[tokio::test]
async fn a_redirect_names_the_path_key_and_the_path_it_redirects_to() {
    // nginx in front of the CMS: `article/list` is a directory, asked for without its slash.
    fn slashed(path: &str, query: &str) -> Reply {
        if path.ends_with("article/list") {
            return Reply::Moved("http://cms.internal/cms/article/list/");
        }
        site(path.trim_end_matches('/'), query)
    }
    let report = scripted(slashed, "").await;
    let rendered = check::render(&report);
    let (check, moved) = finding(&report, "dialect.endpoints.article_list.path");
    assert_eq!(
        (moved.level, check.status.as_str()),
        (Level::Error, "301"),
        "{rendered}"
    );
    assert!(
        moved
            .what
            .contains("redirects to http://cms.internal/cms/article/list/")
            && moved.what.contains("trailing slash"),
        "{}",
        moved.what
    );
    assert_eq!(
        moved.fix.as_deref(),
        Some("dialect.endpoints.article_list.path = \"article/list/\"")
    );
    assert!(!rendered.contains("dialect.envelope"), "{rendered}");

    // The suggestion applied, the check passes.
    let fixed = scripted(
        slashed,
        "[dialect.endpoints]\narticle_list = { path = \"article/list/\", param = \"categoryId\" }\n",
    )
    .await;
    assert!(fixed.ok, "{}", check::render(&fixed));
}

#[tokio::test]
async fn a_wrong_root_names_dialect_categories_root() {
    // A flat list whose top is 0; the config says 7, which no category has.
    let report = scripted(site, "[dialect.categories]\nroot = 7\n").await;
    let (check, root) = finding(&report, "dialect.categories.root");
    assert_eq!(check.endpoint, "category/list");
    assert_eq!(root.level, Level::Error);
    assert!(
        root.what.contains("no category has the root's id 7"),
        "{}",
        root.what
    );
    assert_eq!(root.fix.as_deref(), Some("dialect.categories.root = 0"));

    // Asked parent by parent: the root's children call lists nothing, while 0 has children.
    fn tree(path: &str, query: &str) -> Reply {
        if path.ends_with("category/children") {
            let items = match param(query, "parentId") {
                Some("0") => {
                    json!([{"id": 21, "name": "公司新闻", "url": "/news_center/company_announcement/1", "type": "list"}])
                }
                _ => json!([]),
            };
            return Reply::Json(200, json!({"code": 200, "result": items}));
        }
        site(path, query)
    }
    let report = scripted(
        tree,
        "[dialect.endpoints]\ncategory_children = { path = \"category/children\" }\n\
         [dialect.categories]\nshape = \"children\"\nroot = 99\n",
    )
    .await;
    let rendered = check::render(&report);
    let (check, root) = finding(&report, "dialect.categories.root");
    assert_eq!(check.endpoint, "category/children parentId=99");
    assert_eq!(root.level, Level::Error);
    assert!(root.what.contains("lists no category"), "{}", root.what);
    assert_eq!(root.fix.as_deref(), Some("dialect.categories.root = 0"));
    assert!(!rendered.contains("category_children.path"), "{rendered}");
}

/// Nine categories in a flat list whose parents sit in `parent_code`, which no default path
/// names.
fn flat_site(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        let mut items =
            vec![json!({"id": 1, "parent_code": 0, "name": "新闻中心", "url": "/news_center"})];
        for id in 2..=9u64 {
            items.push(
                json!({"id": id, "parent_code": 1, "name": format!("栏目{id}"), "type": "group"}),
            );
        }
        return Reply::Json(200, json!({"code": 200, "result": items}));
    }
    site(path, query)
}

#[tokio::test]
async fn a_flat_list_without_parents_warns_and_suggests_the_parent_field() {
    let report = scripted(flat_site, "[dialect.categories]\nshape = \"flat\"\n").await;
    let (check, flat) = finding(&report, "dialect.fields.category.parent_id");
    assert_eq!(flat.level, Level::Warning);
    assert!(
        flat.what.contains("all 9 categories are at the top"),
        "{}",
        flat.what
    );
    assert_eq!(
        flat.fix.as_deref(),
        Some("dialect.fields.category.parent_id = \"parent_code\"")
    );
    assert_eq!(check.summary, "9 categories, 9 at the top");
}

#[tokio::test]
async fn the_summary_is_shown_beside_its_problems() {
    let report = scripted(flat_site, "[dialect.categories]\nshape = \"flat\"\n").await;
    let rendered = check::render(&report);
    let line = rendered
        .lines()
        .find(|l| l.starts_with("category/list"))
        .unwrap();
    assert!(line.ends_with("9 categories, 9 at the top"), "{rendered}");
    assert!(!rendered.contains(" problems"), "{rendered}");
    // Its findings follow it, indented, each with its level and key.
    let after: Vec<&str> = rendered
        .lines()
        .skip_while(|l| !l.starts_with("category/list"))
        .skip(1)
        .take(3)
        .collect();
    assert!(after[0].starts_with("  ! warning  "), "{rendered}");
    assert!(
        after.iter().any(|l| l.trim_start().starts_with("change: ")),
        "{rendered}"
    );
    assert!(
        rendered.ends_with(&format!("0 errors, {} warnings\n", report.warnings)),
        "{rendered}"
    );
}

#[tokio::test]
async fn a_list_oldest_first_warns() {
    fn oldest_first(path: &str, query: &str) -> Reply {
        if path.ends_with("article/list") {
            let from = param(query, "page")
                .and_then(|p| p.parse().ok())
                .unwrap_or(0u64)
                * 2;
            let items: Vec<Value> = (1..=5u64)
                .skip(from as usize)
                .take(2)
                .map(article)
                .collect();
            return Reply::Json(
                200,
                json!({"code": 200, "result": {"content": items, "totalElements": 5}}),
            );
        }
        if path.ends_with("article/search") {
            return Reply::Json(
                200,
                json!({"code": 200, "result": {"content": [article(1)], "totalElements": 1}}),
            );
        }
        site(path, query)
    }
    let report = scripted(oldest_first, "").await;
    let (check, order) = report
        .problems()
        .find(|(_, p)| p.what.contains("oldest first"))
        .unwrap_or_else(|| panic!("{}", check::render(&report)));
    assert_eq!(check.endpoint, "article/list categoryId=21 page=1");
    assert_eq!(order.level, Level::Warning);
    assert!(
        order
            .what
            .contains("2026-11-01 09:00:00 before 2026-11-04 09:00:00"),
        "{}",
        order.what
    );
    assert!(
        order
            .key
            .starts_with("dialect.endpoints.article_list.query")
    );
    assert!(report.ok);
    // Newest first (the site as scripted) says nothing of the order.
    let report = scripted(site, "").await;
    assert!(
        !report
            .problems()
            .any(|(_, p)| p.what.contains("oldest first"))
    );
}

#[tokio::test]
async fn a_field_empty_on_every_item_warns() {
    // No summary where the dialect looks (`summary`, `description`); it is under `intro`.
    fn introduced(path: &str, query: &str) -> Reply {
        let strip = |mut v: Value| {
            let object = v.as_object_mut().unwrap();
            let summary = object.remove("summary").unwrap();
            object.insert("intro".to_owned(), summary);
            object.remove("author");
            v
        };
        if path.ends_with("article/list") {
            let from = param(query, "page")
                .and_then(|p| p.parse().ok())
                .unwrap_or(0u64)
                * 2;
            let items: Vec<Value> = [5u64, 4, 3, 2, 1]
                .into_iter()
                .skip(from as usize)
                .take(2)
                .map(|id| strip(article(id)))
                .collect();
            return Reply::Json(
                200,
                json!({"code": 200, "result": {"content": items, "totalElements": 5}}),
            );
        }
        site(path, query)
    }
    let report = scripted(introduced, "").await;
    let (check, summary) = finding(&report, "dialect.fields.article.summary");
    assert_eq!(check.endpoint, "article/list categoryId=21 page=1");
    assert_eq!(summary.level, Level::Warning);
    assert!(
        summary
            .what
            .contains("summary is empty on every one of the 4 articles sampled"),
        "{}",
        summary.what
    );
    assert_eq!(
        summary.fix.as_deref(),
        Some("dialect.fields.article.summary = \"intro\"")
    );
    let (_, author) = finding(&report, "dialect.fields.article.author");
    assert_eq!(
        (author.level, author.fix.as_deref()),
        (Level::Warning, None)
    );
    // Fields that are there say nothing.
    assert!(
        !report
            .problems()
            .any(|(_, p)| p.key == "dialect.fields.article.cover")
    );
    assert!(report.ok);
}

#[tokio::test]
async fn the_cms_own_reason_is_kept_without_the_secret() {
    // The visitor's message is read from `detail`; the CMS says why in `msg`, echoing the key.
    fn failing(path: &str, query: &str) -> Reply {
        if path.ends_with("category/list") {
            return Reply::Bytes(
                500,
                "application/json",
                json!({"code": 500, "msg": format!("数据库连接失败 (client_secret={CLIENT_SECRET})")})
                    .to_string()
                    .into_bytes(),
            );
        }
        site(path, query)
    }
    let report = scripted(failing, "[dialect.envelope]\nmessage = [\"detail\"]\n").await;
    let rendered = check::render(&report);
    let json = serde_json::to_string(&report).unwrap();
    let (check, problem) = report.problems().next().unwrap();
    assert_eq!(
        (check.status.as_str(), problem.level),
        ("500", Level::Error)
    );
    assert!(problem.what.contains("HTTP 500"), "{}", problem.what);
    assert!(problem.what.contains("数据库连接失败"), "{}", problem.what);
    for out in [&rendered, &json] {
        assert!(!out.contains(CLIENT_SECRET), "{out}");
    }
    assert!(
        problem.what.contains("client_secret=***"),
        "{}",
        problem.what
    );
}

#[tokio::test]
async fn a_suggestion_for_the_items_path() {
    // The articles under `data`, the total under `totalNum`: neither where the dialect looks.
    fn elsewhere(path: &str, query: &str) -> Reply {
        if path.ends_with("article/list") || path.ends_with("article/search") {
            return Reply::Json(
                200,
                json!({"code": 200, "result": {"pageNo": 1, "data": [article(5), article(4)], "totalNum": 2}}),
            );
        }
        site(path, query)
    }
    let report = scripted(elsewhere, "").await;
    let (check, items) = finding(&report, "dialect.lists.items");
    assert_eq!(check.endpoint, "article/list categoryId=21 page=1");
    assert_eq!((items.level, items.at.as_str()), (Level::Error, "payload"));
    assert_eq!(
        items.fix.as_deref(),
        Some("dialect.lists.items = \"data\"\ndialect.lists.total = \"totalNum\"")
    );
    let rendered = check::render(&report);
    assert!(
        rendered.contains("fix:    dialect.lists.items = \"data\"\n"),
        "{rendered}"
    );

    // The suggestion applied, the check passes.
    let fixed = scripted(
        elsewhere,
        "[dialect.lists]\nitems = \"data\"\ntotal = \"totalNum\"\n",
    )
    .await;
    assert!(fixed.ok, "{}", check::render(&fixed));
}

/// What a CMS says reaches the integrator's terminal as text: no escape sequence (a title change,
/// colours), no carriage return redrawing a line, in the text report and the JSON one.
#[tokio::test]
async fn a_cms_message_cannot_act_on_the_integrators_terminal() {
    let fake = FakeUpstream::start(Reply::Json(
        500,
        serde_json::json!({"code": 500, "msg": "数据库异常\u{1b}]0;pwned\u{7}\r\u{1b}[32m✔ all checks passed\u{1b}[0m"}),
    ))
    .await;
    let report = report(&config_for(&fake.base_url(), &static_dir(), |_| {})).await;
    let text = check::render(&report);
    let json = serde_json::to_string(&report).unwrap();
    for printed in [&text, &json] {
        assert!(printed.contains("数据库异常"), "{printed}");
        assert!(
            !printed.chars().any(|c| c.is_control() && c != '\n'),
            "{printed:?}"
        );
    }
}

/// `site`, its one list category given the kind "page" by the CMS.
fn site_calling_its_list_a_page(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": [
                {"id": 21, "parentId": 0, "name": "公司新闻", "url": "/news_center/company_announcement/1", "type": "page"}
            ]}),
        );
    }
    site(path, query)
}

/// `site`, its category without a kind.
fn site_without_kinds(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": [
                {"id": 21, "parentId": 0, "name": "公司新闻", "url": "/news_center/company_announcement/1"}
            ]}),
        );
    }
    site(path, query)
}

#[tokio::test]
async fn a_list_route_the_cms_calls_a_page_is_named_with_the_types_line_that_fixes_it() {
    let report = scripted(site_calling_its_list_a_page, "").await;
    let (_, problem) = finding(&report, "dialect.categories.types");
    assert_eq!(problem.level, Level::Warning);
    assert!(
        problem.what.contains("/news_center/company_announcement/1"),
        "{}",
        problem.what
    );
    assert_eq!(
        problem.fix.as_deref(),
        Some("[dialect.categories.types] \"/news_center/company_announcement/1\" = \"list\"")
    );
    // With that line written, nothing is said: the kind is the integrator's.
    let fixed = scripted(
        site_calling_its_list_a_page,
        "[dialect.categories.types]\n\"/news_center/company_announcement/1\" = \"list\"\n",
    )
    .await;
    assert!(
        !fixed
            .problems()
            .any(|(_, p)| p.key == "dialect.categories.types"),
        "{}",
        check::render(&fixed)
    );
    // A CMS without kinds: the route table's kind, nothing to say.
    let without = scripted(site_without_kinds, "").await;
    assert!(
        !without
            .problems()
            .any(|(_, p)| p.key == "dialect.categories.types"),
        "{}",
        check::render(&without)
    );
}

/// `site`, its list items as a WordPress-like CMS gives them: titles HTML-escaped, the author a
/// user's number beside its name, covers at another host's address.
fn site_misread(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        // WordPress's default category, at the top, its address the site's root.
        return Reply::Json(
            200,
            json!({"code": 200, "result": [
                {"id": 1, "parentId": 0, "name": "未分类", "url": "", "type": "list"},
                {"id": 21, "parentId": 0, "name": "公司新闻", "url": "/news_center/company_announcement/1", "type": "list"}
            ]}),
        );
    }
    if path.ends_with("article/list") {
        let items: Vec<Value> = [5u64, 4]
            .iter()
            .map(|id| {
                let mut item = article(*id);
                item["title"] = json!(format!("&#8220;班列&#8221;新闻第{id}号"));
                item["author"] = json!("2");
                item["author_name"] = json!("宣传部");
                item["cover"] = json!(format!("https://cdn.example.net/uploads/{id}.jpg"));
                item
            })
            .collect();
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": items, "totalElements": 5}}),
        );
    }
    match site(path, query) {
        // A body in Wagtail's storage format embeds its image by id.
        Reply::Json(200, mut body) if path.ends_with("article/detail") => {
            body["result"]["content"] =
                json!("<p>堆场</p><embed embedtype=\"image\" id=\"5\" alt=\"堆场\"/>");
            Reply::Json(200, body)
        }
        other => other,
    }
}

#[tokio::test]
async fn fields_that_map_but_read_wrong_are_named_with_their_fix() {
    let report = scripted(site_misread, "").await;
    let (_, escaped) = finding(&report, "dialect.text_format");
    assert_eq!(
        escaped.fix.as_deref(),
        Some("dialect.text_format = \"html\"")
    );
    let (_, author) = finding(&report, "dialect.fields.article.author");
    assert!(author.what.contains("\"2\""), "{}", author.what);
    assert_eq!(
        author.fix.as_deref(),
        Some("dialect.fields.article.author = \"author_name\"")
    );
    let (_, unrouted) = finding(&report, "dialect.categories.routes");
    assert!(
        unrouted.what.contains("1 未分类 (route \"\")"),
        "{}",
        unrouted.what
    );
    assert!(
        unrouted
            .fix
            .as_deref()
            .unwrap()
            .starts_with("[dialect.categories.routes] \"1\" = "),
        "{:?}",
        unrouted.fix
    );
    let (_, embedded) = finding(&report, "dialect.endpoints.image_detail");
    assert!(
        embedded
            .fix
            .as_deref()
            .unwrap()
            .starts_with("dialect.endpoints.image_detail = "),
        "{:?}",
        embedded.fix
    );
    let (_, cover) = finding(&report, "dialect.endpoints.files");
    assert!(
        cover.what.contains("https://cdn.example.net/uploads/"),
        "{}",
        cover.what
    );
    // The good site says none of these.
    let good = scripted(site, "").await;
    for key in [
        "dialect.text_format",
        "dialect.fields.article.author",
        "dialect.endpoints.files",
        "dialect.endpoints.image_detail",
        "dialect.categories.routes",
    ] {
        assert!(
            !good.problems().any(|(_, p)| p.key == key),
            "{key}: {}",
            check::render(&good)
        );
    }
}

/// `paging_cms` whose body's total counts something else (5 on page 1, 7 on page 2), the true
/// total in a WordPress-style header.
fn total_in_a_header(path: &str, query: &str) -> Reply {
    let reply = paging_cms(path, query, |page| match page {
        0 => (vec![1, 2], 5),
        _ => (vec![3, 4], 7),
    });
    match reply {
        Reply::Json(status, body) if path.ends_with("article/list") => {
            Reply::Headed(status, vec![("X-WP-Total", "9".to_owned())], body)
        }
        other => other,
    }
}

#[tokio::test]
async fn a_total_that_changes_between_pages_points_at_the_header_that_holds_the_true_one() {
    let report = scripted(total_in_a_header, "").await;
    let (_, problem) = finding(&report, "dialect.lists.total_header");
    assert!(problem.what.contains("5 then 7"), "{}", problem.what);
    assert_eq!(
        problem.fix.as_deref(),
        Some("dialect.lists.total_header = \"X-WP-Total\"")
    );
}

/// `site`, counting its pages from 1: page 0 is a bad request.
fn site_counting_from_one(path: &str, query: &str) -> Reply {
    if path.ends_with("article/list") && param(query, "page") == Some("0") {
        return Reply::Json(400, json!({"code": 400, "msg": "页码必须从 1 开始"}));
    }
    site(path, query)
}

#[tokio::test]
async fn a_first_page_refused_as_page_zero_names_page_base() {
    let report = scripted(site_counting_from_one, "").await;
    let (_, problem) = finding(&report, "dialect.paging.page_base");
    assert!(problem.what.contains("page 0"), "{}", problem.what);
    assert_eq!(problem.fix.as_deref(), Some("dialect.paging.page_base = 1"));
}

/// `site` whose list leads with a draft (article 6): listed, but its detail is empty, as a CMS
/// answers a token that sees drafts in lists.
fn draft_first(path: &str, query: &str) -> Reply {
    if path.ends_with("article/list") && param(query, "page").is_none_or(|p| p == "0") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": [article(6), article(5)], "totalElements": 6}}),
        );
    }
    if path.ends_with("article/detail") && param(query, "id") == Some("6") {
        return Reply::Json(404, json!({"code": 404, "msg": "文章不存在"}));
    }
    site(path, query)
}

#[tokio::test]
async fn a_draft_at_the_top_of_the_list_is_named_as_such_not_as_the_detail_mapping() {
    let report = scripted(draft_first, "").await;
    let rendered = check::render(&report);
    let (check, draft) = finding(&report, "dialect.endpoints.article_list.query");
    assert_eq!(draft.level, Level::Warning, "{rendered}");
    assert!(
        draft.what.starts_with("article 6 is in the list"),
        "{rendered}"
    );
    assert!(
        draft.fix.as_deref().unwrap().contains("status"),
        "{rendered}"
    );
    assert_eq!(check.endpoint, "article/detail id=6");
    // The second article's detail is read and maps: nothing blames the detail's mapping.
    assert!(
        !report
            .problems()
            .any(|(_, p)| p.key.starts_with("dialect.endpoints.article_detail")),
        "{rendered}"
    );
    assert!(report.ok, "{rendered}");
}

/// `site` as a headless CMS answers an id it does not have: 403.
fn forbids_the_unknown(path: &str, query: &str) -> Reply {
    if path.ends_with("article/detail")
        && param(query, "id").and_then(|i| i.parse::<u64>().ok()) > Some(1000)
    {
        return Reply::Json(
            403,
            json!({"code": 403, "msg": "You don't have permission to access this."}),
        );
    }
    site(path, query)
}

#[tokio::test]
async fn an_unknown_article_answered_403_is_named_with_its_not_found_fix() {
    let key = "dialect.endpoints.article_detail.not_found";
    let report = scripted(forbids_the_unknown, "").await;
    let rendered = check::render(&report);
    let (check, found) = finding(&report, key);
    assert_eq!(found.level, Level::Warning, "{rendered}");
    assert!(
        found.what.contains("HTTP 403") && found.what.contains("无权访问"),
        "{rendered}"
    );
    assert_eq!(
        found.fix.as_deref(),
        Some("dialect.endpoints.article_detail.not_found = [403]")
    );
    assert_eq!(check.status, "403");
    // Written as it says, the same CMS reads as "not found"; a CMS answering 404 needs nothing.
    let fixed = scripted(
        forbids_the_unknown,
        "[dialect.endpoints]\narticle_detail = { path = \"article/detail\", param = \"id\", not_found = [403] }\n",
    )
    .await;
    assert!(
        !fixed.problems().any(|(_, p)| p.key == key),
        "{}",
        check::render(&fixed)
    );
    let good = scripted(site, "").await;
    assert!(
        !good.problems().any(|(_, p)| p.key == key),
        "{}",
        check::render(&good)
    );
}

/// `site` with a "changed since" list at `article/changes?updatedAfter=`.
fn with_changes(path: &str, query: &str) -> Reply {
    if path.ends_with("article/changes") && query.contains("updatedAfter=") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": [article(5), article(4)]}}),
        );
    }
    site(path, query)
}

#[tokio::test]
async fn the_changes_list_is_asked_as_the_poller_asks_it() {
    let changes = |param: &str| {
        format!(
            "[dialect.changes]\npath = \"article/changes\"\nparam = \"{param}\"\nevery = \"10s\"\n"
        )
    };
    let report = scripted(with_changes, &changes("updatedAfter")).await;
    let rendered = check::render(&report);
    let check = report
        .checks
        .iter()
        .find(|c| c.endpoint.starts_with("changes since "))
        .unwrap_or_else(|| panic!("{rendered}"));
    assert_eq!(
        check.summary, "2 articles changed in the last week",
        "{rendered}"
    );
    assert!(check.problems.is_empty(), "{rendered}");
    // A parameter the CMS does not read (here: it answers 404 without its own) is an error on
    // the changes' key, not a log line every interval.
    let report = scripted(with_changes, &changes("modifiedSince")).await;
    let rendered = check::render(&report);
    assert!(
        report
            .problems()
            .any(|(c, p)| c.endpoint.starts_with("changes since ")
                && p.level == Level::Error
                && p.key.starts_with("dialect.changes")),
        "{rendered}"
    );
}

/// `site` whose search counts the whole collection: one found, "13 in all".
fn search_totals_the_collection(path: &str, query: &str) -> Reply {
    if path.ends_with("article/search") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": [article(5)], "totalElements": 13}}),
        );
    }
    site(path, query)
}

#[tokio::test]
async fn a_search_total_larger_than_its_short_page_is_named() {
    let report = scripted(search_totals_the_collection, "").await;
    let rendered = check::render(&report);
    let (check, found) = finding(&report, "dialect.lists.total");
    assert!(check.endpoint.starts_with("article/search"), "{rendered}");
    assert!(
        found
            .what
            .contains("holds 1 of a page of 20, yet its total is 13"),
        "{rendered}"
    );
    let good = scripted(site, "").await;
    assert!(!good.problems().any(|(_, p)| p.key == "dialect.lists.total"));
}

/// `site` read with a token that sees drafts: the list's second item is one.
fn drafts_in_the_list(path: &str, query: &str) -> Reply {
    if path.ends_with("article/list") {
        let mut draft = article(4);
        draft["status"] = json!("draft");
        let mut published = article(5);
        published["status"] = json!("published");
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": [published, draft], "totalElements": 2}}),
        );
    }
    site(path, query)
}

#[tokio::test]
async fn a_list_that_shows_drafts_is_named() {
    let key = "dialect.endpoints.article_list.query";
    let report = scripted(drafts_in_the_list, "").await;
    let rendered = check::render(&report);
    let (_, found) = finding(&report, key);
    assert!(found.what.contains("status \"draft\""), "{rendered}");
    assert!(
        found
            .fix
            .as_deref()
            .unwrap()
            .contains("filter[status][_eq]"),
        "{rendered}"
    );
    let good = scripted(site, "").await;
    assert!(
        !good.problems().any(|(_, p)| p.key == key),
        "{}",
        check::render(&good)
    );
}

/// A CMS that echoes the credential in a long error body, escaped, percent-encoded and cut short:
/// none of it, not even the part before the excerpt's cut, is printed.
#[tokio::test]
async fn an_echoed_secret_is_hidden_before_the_cms_body_is_cut_in_every_form() {
    const SECRET: &str = "k9/Qz+7wLm2Rt8Yx4Vb6Nc1Hd3Jf5Gs0Pa/Ue+Wi9Oo7Ly2Kr4Tq6Mz8Xn1Bv3C";
    fn echoing(path: &str, query: &str) -> Reply {
        if path.ends_with("category/list") {
            // The whole secret just before the excerpt's cut (160 characters), then its escaped
            // and percent-encoded forms, then a piece of it as a CMS that cuts its own echo.
            let body = format!(
                "{} credential {SECRET} refused; json {}; form {}; cut {}",
                "x".repeat(120),
                serde_json::to_string(SECRET).unwrap().replace('/', "\\/"),
                url::form_urlencoded::byte_serialize(SECRET.as_bytes()).collect::<String>(),
                &SECRET[..30],
            );
            return Reply::Raw(502, "text/plain", Box::leak(body.into_boxed_str()));
        }
        site(path, query)
    }
    let fake = FakeUpstream::start(Reply::Route(echoing)).await;
    let config = config_for(&fake.base_url(), &static_dir(), |c| {
        c.upstream.client_secret = Some(SECRET.to_owned().into());
    });
    let report = check::run(&config).await.unwrap();
    let rendered = check::render(&report);
    let json = serde_json::to_string(&report).unwrap();
    assert!(rendered.contains("credential *"), "{rendered}");
    for out in [&rendered, &json] {
        for piece in SECRET.as_bytes().chunks(12) {
            let piece = std::str::from_utf8(piece).unwrap();
            assert!(!out.contains(piece), "{piece} of the secret in: {out}");
        }
        let percent: String = url::form_urlencoded::byte_serialize(SECRET.as_bytes()).collect();
        assert!(!out.contains(&percent[..20]), "{out}");
    }
}
