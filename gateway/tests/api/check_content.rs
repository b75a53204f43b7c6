//! `check-upstream` on what the CMS's content says, beyond the mapping: a section kept under
//! another address or level, sections with no article, covers that name no file, links in bodies
//! to pages of the CMS that are no articles, search hits that are no articles. Each against the
//! scripted site of `check`, changed in one answer; each finding's fix line, applied, silences it.

use portal_gateway::check::{self, Level};
use serde_json::{Value, json};

use crate::check::{article, finding, param, scripted, site};
use crate::helpers::*;

/// The category list of `site` and more.
fn categories(more: Value) -> Reply {
    let mut all = vec![json!(
        {"id": 21, "parentId": 0, "name": "公司新闻", "url": "/news_center/company_announcement/1", "type": "list"}
    )];
    all.extend(more.as_array().cloned().unwrap_or_default());
    Reply::Json(200, json!({"code": 200, "result": all}))
}

/// `site` with 中欧班列 one level up and under another address than the portal's route.
fn section_elsewhere(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        return categories(json!([
            {"id": 31, "parentId": 0, "name": "中欧班列", "url": "/china_europe/train", "type": "page"}
        ]));
    }
    site(path, query)
}

#[tokio::test]
async fn a_section_under_another_address_is_kept_by_its_fix_line_not_declared_absent() {
    let route = "/business/China-Europe_train";
    let report = scripted(section_elsewhere, "").await;
    let rendered = check::render(&report);
    let said = format!("no category leads to the portal route {route}");
    let (_, found) = report
        .problems()
        .find(|(_, p)| p.what == said)
        .unwrap_or_else(|| panic!("{rendered}"));
    assert_eq!(
        found.fix.as_deref(),
        Some(
            "[dialect.categories.routes] \"31\" = \"/business/China-Europe_train\"   # 中欧班列, \
             at /china_europe/train"
        ),
        "{rendered}"
    );
    // No line offers to declare it absent, and the category that leads nowhere is offered the
    // same route.
    assert!(
        report
            .problems()
            .filter_map(|(_, p)| p.fix.as_deref())
            .all(|fix| !fix.contains(&format!("\"{route}\"")) || fix.contains("\"31\"")),
        "{rendered}"
    );
    let (_, lost) = report
        .problems()
        .find(|(_, p)| p.what.contains("lead to no portal route"))
        .unwrap_or_else(|| panic!("{rendered}"));
    assert!(
        lost.fix
            .as_deref()
            .unwrap()
            .contains(&format!("\"31\" = \"{route}\"")),
        "{rendered}"
    );

    let fixed = scripted(
        section_elsewhere,
        &format!("[dialect.categories.routes]\n\"31\" = \"{route}\"\n"),
    )
    .await;
    let rendered = check::render(&fixed);
    assert!(
        !fixed
            .problems()
            .any(|(_, p)| p.what.contains(route) || p.what.contains("lead to no portal route")),
        "{rendered}"
    );
    assert_eq!(fixed.errors, 0, "{rendered}");
}

/// `site` with a second list section, 通知公告, that holds no article.
fn an_empty_section(path: &str, query: &str) -> Reply {
    if path.ends_with("category/list") {
        return categories(json!([
            {"id": 22, "parentId": 0, "name": "通知公告", "url": "/news_center/notice", "type": "list"}
        ]));
    }
    if path.ends_with("article/list") && param(query, "categoryId") == Some("22") {
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": [], "totalElements": 0}}),
        );
    }
    site(path, query)
}

#[tokio::test]
async fn a_section_without_articles_is_named() {
    let report = scripted(an_empty_section, "").await;
    let rendered = check::render(&report);
    let (check, found) = finding(&report, "dialect.endpoints.article_list.param");
    assert_eq!(check.endpoint, "sections", "{rendered}");
    assert_eq!(found.level, Level::Warning);
    assert!(
        found.what.starts_with(
            "1 of the 2 sections the portal shows hold no article: 22 通知公告 \
                          (/news_center/notice)"
        ),
        "{rendered}"
    );
    let good = scripted(site, "").await;
    assert!(
        !good
            .problems()
            .any(|(_, p)| p.what.contains("hold no article")),
        "{}",
        check::render(&good)
    );
}

const FILE_ID: &str = "d89e1bfe-f88c-4bdf-8204-09becbe2f20a";

/// `site` whose covers are file ids (Directus's image fields), not addresses.
fn covers_by_id(path: &str, query: &str) -> Reply {
    match site(path, query) {
        Reply::Json(status, mut body) if path.contains("article/") => {
            let result = &mut body["result"];
            if let Some(Value::Array(list)) = result.get_mut("content") {
                list.iter_mut()
                    .for_each(|item| item["cover"] = json!(FILE_ID));
            } else {
                result["cover"] = json!(FILE_ID);
            }
            Reply::Json(status, body)
        }
        other => other,
    }
}

#[tokio::test]
async fn a_cover_that_names_no_file_is_named_with_where_ids_are_kept() {
    let report = scripted(covers_by_id, "").await;
    let rendered = check::render(&report);
    let (_, found) = finding(&report, "dialect.links.image_file");
    assert!(found.what.contains(FILE_ID), "{rendered}");
    assert!(found.what.ends_with("no cover will show"), "{rendered}");
    let fix = found.fix.as_deref().unwrap();
    assert!(
        fix.starts_with("dialect.links.image_file = \"{id}\""),
        "{rendered}"
    );

    let fixed = scripted(covers_by_id, "[dialect.links]\nimage_file = \"{id}\"\n").await;
    let rendered = check::render(&fixed);
    assert!(
        !fixed
            .problems()
            .any(|(_, p)| p.key == "dialect.links.image_file"),
        "{rendered}"
    );
    assert!(
        fixed
            .checks
            .iter()
            .any(|c| c.endpoint == format!("files {FILE_ID}") && c.status == "200"),
        "the cover is fetched from the file store: {rendered}"
    );
}

/// `site` whose bodies link to two pages of the CMS's own site (not articles) and to a file.
fn links_to_cms_pages(path: &str, query: &str) -> Reply {
    if path.ends_with("article/detail") {
        let id = param(query, "id").and_then(|i| i.parse().ok()).unwrap_or(0);
        let mut one = article(id);
        one["content"] = json!(
            "<p>详见<a href=\"/column/about-us\">公司简介</a>与\
             <a href=\"news/notice-2024.html\">通知</a>，附<a href=\"covers/a.svg\">图</a>。</p>"
        );
        return Reply::Json(200, json!({"code": 200, "result": one}));
    }
    site(path, query)
}

#[tokio::test]
async fn links_to_pages_of_the_cms_that_are_no_articles_are_named() {
    let report = scripted(links_to_cms_pages, "").await;
    let rendered = check::render(&report);
    let (check, found) = finding(&report, "dialect.links.article");
    assert!(check.endpoint.starts_with("article/detail"), "{rendered}");
    assert!(
        found.what.contains("links to 2 pages of the CMS's site"),
        "{rendered}"
    );
    assert!(
        found
            .what
            .contains("/column/about-us (the link is dropped)"),
        "{rendered}"
    );
    assert!(
        found
            .what
            .contains("(sent to /portal/api/files/news/notice-2024.html, which the file store"),
        "{rendered}"
    );
    // This CMS's dialect has no `article_by_slug`: a `{slug}` pattern alone would be a config
    // that does not load (and `init` pastes `a.b = …` lines), so the fix names what it needs.
    assert!(
        found.fix.as_deref().unwrap().starts_with(
            "[dialect.endpoints.article_by_slug] (where the CMS finds an article by its slug), \
             then dialect.links.article = [\"/column/{slug}\"]"
        ),
        "{rendered}"
    );
    let good = scripted(site, "").await;
    assert!(
        !good
            .problems()
            .any(|(_, p)| p.key == "dialect.links.article")
    );
}

/// `site` whose search also finds the site's root, which is in no category.
fn search_finds_the_root(path: &str, query: &str) -> Reply {
    if path.ends_with("article/search") {
        let mut root = article(9);
        root["id"] = json!(900);
        root["categoryId"] = json!(0);
        root["title"] = json!("中欧陆港集团门户");
        return Reply::Json(
            200,
            json!({"code": 200, "result": {"content": [article(5), root, article(4)], "totalElements": 3}}),
        );
    }
    site(path, query)
}

#[tokio::test]
async fn search_hits_that_are_no_articles_are_named() {
    let report = scripted(search_finds_the_root, "").await;
    let rendered = check::render(&report);
    let (check, found) = finding(&report, "dialect.endpoints.article_search.query");
    assert!(check.endpoint.starts_with("article/search"), "{rendered}");
    assert!(
        found
            .what
            .starts_with("1 of the 3 hits are in no category the portal has"),
        "{rendered}"
    );
    assert!(found.what.contains("900 “中欧陆港集团门户”"), "{rendered}");
    let good = scripted(site, "").await;
    assert!(
        !good
            .problems()
            .any(|(_, p)| p.key == "dialect.endpoints.article_search.query")
    );
}
