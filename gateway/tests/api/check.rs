//! `portal-gateway check-upstream` and `check-config`: against a good CMS and broken ones, in
//! process for the findings and through the binary for exit codes, JSON and secrets.

use std::process::Stdio;

use portal_gateway::{Config, check};
use reference_cms::{CategoryShape, Dialect};

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

async fn report(toml: &str) -> check::Report {
    check::run(&Config::from_toml_str(toml).unwrap())
        .await
        .unwrap()
}

#[tokio::test]
async fn a_good_upstream_maps_in_every_dialect() {
    let cms = spawn_reference_cms_speaking(Dialect::Mybatis, CategoryShape::Flat).await;
    let good = report(&mybatis(cms, &[])).await;
    assert!(good.ok, "{}", check::render(&good));
    let endpoints: Vec<&str> = good.checks.iter().map(|c| c.endpoint.as_str()).collect();
    assert!(
        endpoints.iter().any(|e| e.starts_with("article/list")),
        "{endpoints:?}"
    );
    assert!(
        endpoints.iter().any(|e| e.starts_with("article/detail")),
        "{endpoints:?}"
    );
    assert!(
        endpoints.iter().any(|e| e.starts_with("files ")),
        "{endpoints:?}"
    );
    assert!(
        endpoints.iter().any(|e| e.starts_with("article/search")),
        "{endpoints:?}"
    );

    let native = spawn_reference_cms().await;
    let toml = config_toml(&format!("http://{native}/"), &static_dir(), "");
    let good = report(&toml).await;
    assert!(good.ok, "{}", check::render(&good));
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
            says: "expected a whole number, found a string",
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
        let report = report(&mybatis(cms, &[(case.from, case.to)])).await;
        let rendered = check::render(&report);
        assert!(!report.ok, "{}: {rendered}", case.to);
        let found: Vec<_> = report.problems().collect();
        assert_eq!(found.len(), 1, "{}: one problem: {rendered}", case.to);
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
    let report = report(&forgetful).await;
    let problems: Vec<_> = report.problems().map(|(_, p)| p.what.clone()).collect();
    assert_eq!(
        problems,
        ["no category leads to the portal route /news_center/notice"]
    );

    // Parents read from the wrong field (the sort order): category 1 is its own parent, and
    // children name parents that do not exist.
    let wrong_parent = toml.replace("parent_id = \"parent\"", "parent_id = \"order\"");
    let report = self::report(&wrong_parent).await;
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

    // A flat list whose category names a parent that is not there.
    let fake = FakeUpstream::start(Reply::Json(
        200,
        serde_json::json!({"code": 200, "result": [
            {"id": 1, "parentId": 0, "name": "走进云川", "url": "/about"},
            {"id": 2, "parentId": 99, "name": "孤儿栏目", "url": "/liaison"},
        ]}),
    ))
    .await;
    let flat = config_toml(
        &fake.base_url(),
        &static_dir(),
        "[dialect.categories]\nshape = \"flat\"\n",
    );
    let report = self::report(&flat).await;
    let (_, orphan) = report
        .problems()
        .find(|(_, p)| p.what.contains("names parent 99"))
        .unwrap_or_else(|| panic!("{}", check::render(&report)));
    assert_eq!(
        (orphan.at.as_str(), orphan.key.as_str()),
        ("items[1]", "dialect.fields.category.parent_id")
    );
    assert!(
        report
            .problems()
            .any(|(_, p)| p.key == "dialect.categories.root"),
        "the orphan is not shown"
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
    let invalid = run(&["check-config", "--config", bad.to_str().unwrap()]).await;
    assert_eq!(invalid.status.code(), Some(78));
    assert!(
        text(&invalid).contains("dialect.paging.page_base"),
        "{}",
        text(&invalid)
    );

    let maps = run(&["check-upstream", "--config", good.to_str().unwrap()]).await;
    assert_eq!(maps.status.code(), Some(0), "{}", text(&maps));
    assert!(text(&maps).contains("Everything maps"));

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
                {"id": 21, "parentId": 0, "name": "公司新闻", "url": "/news_center/company_news", "sort": 1}
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
    Reply::Json(
        200,
        serde_json::json!({"code": 200, "result": {"id": 1, "categoryId": 21, "title": "标题", "publishTime": "2026-11-01 09:00:00", "content": "<p>正文</p>"}}),
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
        let report = report(&config_toml(&fake.base_url(), &static_dir(), "")).await;
        let rendered = check::render(&report);
        assert!(!report.ok, "{says}: {rendered}");
        let found: Vec<_> = report.problems().map(|(_, p)| p).collect();
        assert!(
            found
                .iter()
                .any(|p| p.what == says && p.key.contains("dialect.lists.total")),
            "{says}: {rendered}"
        );
    }
}
