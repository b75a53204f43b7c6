use super::*;
use crate::dialect::{CategorySource, Dialect};
use serde_json::json;
use url::Url;

fn links() -> FileLinks {
    FileLinks::new(
        &Url::parse("http://cms.internal:8081/api").unwrap(),
        "files",
    )
}

#[test]
fn article_html_is_sanitised() {
    let html = r#"<p onclick="x()">正文<script>alert(1)</script></p><img src="/api/files/a.svg" alt="图"><a href="javascript:x()">链接</a><iframe src="https://evil"></iframe>"#;
    let clean = sanitize(html, &links());
    assert!(!clean.contains("script"), "{clean}");
    assert!(!clean.contains("onclick"), "{clean}");
    assert!(!clean.contains("iframe"), "{clean}");
    assert!(!clean.contains("javascript"), "{clean}");
    assert!(
        clean.contains(r#"src="/portal/api/files/a.svg""#),
        "{clean}"
    );
    assert!(clean.contains("正文"));
}

#[test]
fn an_image_whose_source_names_no_file_is_dropped_whole() {
    let html = r#"<p>前<img src=x alt="坏">中<img src="javascript:alert(1)">后<img alt="好" src="news/a.png"></p>"#;
    let clean = sanitize(html, &links());
    assert_eq!(
        clean,
        r#"<p>前中后<img alt="好" src="/portal/api/files/news/a.png"></p>"#
    );
}

#[test]
fn pages_of_either_dialect() {
    let spring = json!({"content": [{"id": 1, "title": "t", "content": "<p>body</p>", "cover": "c.webp", "video": "/api/files/v.mp4"}],
        "totalElements": 13, "totalPages": 2, "number": 0, "size": 10});
    let page = finish_page(
        Dialect::default().article_page(&spring, 1, 10).unwrap(),
        &links(),
    );
    assert_eq!(
        (page.total_elements, page.total_pages, page.page),
        (13, 2, 1)
    );
    assert!(page.content[0].content.is_none(), "summaries carry no body");
    assert_eq!(
        page.content[0].cover.as_deref(),
        Some("/portal/api/files/c.webp")
    );

    let mybatis =
        json!({"records": [{"id": 1, "title": "t"}], "total": 21, "current": 3, "size": 10});
    let page = Dialect::default().article_page(&mybatis, 3, 10).unwrap();
    assert_eq!((page.total_elements, page.total_pages), (21, 3));
}

#[test]
fn tree_is_sorted_and_drops_unlisted_fields() {
    let list = Dialect::default()
        .category_tree(&CategorySource::List(json!([{"id": 5, "name": "a", "sort": 2, "icon": "train", "color": "red", "meta": {"seo": "x"}}, {"id": 4, "name": "b", "sort": 1}])))
        .unwrap();
    assert_eq!(list[0].id, 4);
    assert_eq!(list[1].icon.as_deref(), Some("train"));
    assert!(list[1].extra.is_empty(), "{:?}", list[1].extra);
}

#[test]
fn depth_counts_open_elements_not_loosely_closed_ones() {
    let deep = format!(
        "{}x{}",
        "<div>".repeat(MAX_DEPTH + 1),
        "</div>".repeat(MAX_DEPTH + 1)
    );
    assert_eq!(too_deep(&deep), Some(MAX_DEPTH + 1));
    let unclosed = "<div>".repeat(MAX_DEPTH + 5);
    assert_eq!(too_deep(&unclosed), Some(MAX_DEPTH + 5));
    // A long article written loosely: thousands of unclosed <p> and <li>, breaks and images.
    let loose = format!(
        "<section>{}</section>",
        "<p>段落<br><img src=\"a.png\"><ul><li>一<li>二</ul><span/>".repeat(5_000)
    );
    assert_eq!(too_deep(&loose), None);
    let nested_tables =
        "<table><tbody><tr><td><div>".repeat(200) + &"</div></td></tr></tbody></table>".repeat(200);
    assert_eq!(too_deep(&nested_tables), None, "200 deep");
    assert_eq!(too_deep("a < b and c <= d, <3 <!-- <div> -->"), None);
}
