//! The shapes the browser receives are declared once, here in the model: the app's TypeScript
//! types are generated from them (`frontend/src/lib/api-types.ts`, written by this test with
//! `UPDATE_API_TYPES=1`), and the OpenAPI document's schemas must name exactly their fields.
//! A field added on one side only fails one of these tests.

use std::collections::BTreeSet;

use serde_json::Value;
use ts_rs::{Config, TS};

use super::{
    Article, ArticlePage, Attachment, Category, CategoryTree, Highlight, Id, Link, Marked,
    SearchHit, SearchPage, SearchSource, SectionCount,
    site::{
        Contact, Department, Figure, Language, Mourning, Partner, Service, ServiceIcon, Site,
        SiteAnswer, Wechat, Whistleblowing,
    },
};

const TYPES_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../frontend/src/lib/api-types.ts"
);
const OPENAPI: &str = include_str!("../../../../docs/openapi.json");

/// The TypeScript the app imports: one declaration per shape, counts as plain numbers.
fn typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = [
        Id::decl(&cfg),
        Category::decl(&cfg),
        CategoryTree::decl(&cfg),
        Attachment::decl(&cfg),
        Link::decl(&cfg),
        Article::decl(&cfg),
        ArticlePage::decl(&cfg),
        Marked::decl(&cfg),
        Highlight::decl(&cfg),
        SearchHit::decl(&cfg),
        SectionCount::decl(&cfg),
        SearchSource::decl(&cfg),
        SearchPage::decl(&cfg),
        Mourning::decl(&cfg),
        Whistleblowing::decl(&cfg),
        Figure::decl(&cfg),
        Partner::decl(&cfg),
        ServiceIcon::decl(&cfg),
        Service::decl(&cfg),
        Wechat::decl(&cfg),
        Department::decl(&cfg),
        Contact::decl(&cfg),
        Language::decl(&cfg),
        SiteAnswer::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the gateway's model (crates/core/src/model) by the test\n\
         // `model::shapes::the_apps_types_are_generated_from_the_model`; do not edit.\n\
         // Regenerate: UPDATE_API_TYPES=1 cargo test -p portal-core --lib model::shapes\n",
    );
    for decl in decls {
        out.push('\n');
        out.push_str("export ");
        out.push_str(decl.trim());
        out.push('\n');
    }
    out
}

#[test]
fn the_apps_types_are_generated_from_the_model() {
    let wanted = typescript();
    if std::env::var_os("UPDATE_API_TYPES").is_some() {
        std::fs::write(TYPES_FILE, &wanted).unwrap();
    }
    let committed = std::fs::read_to_string(TYPES_FILE).unwrap_or_default();
    assert!(
        committed == wanted,
        "frontend/src/lib/api-types.ts is not what the model declares; run \
         `UPDATE_API_TYPES=1 cargo test -p portal-core --lib model::shapes` and commit it.\n\
         expected:\n{wanted}"
    );
}

/// The names a value serialises under (an object's keys).
fn keys(value: &impl serde::Serialize) -> BTreeSet<String> {
    serde_json::to_value(value)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

/// The properties an OpenAPI schema names, its `allOf` parts included.
fn properties(schemas: &Value, name: &str) -> BTreeSet<String> {
    let schema = &schemas[name];
    let own = |s: &Value| -> Vec<String> {
        s["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    };
    let mut out: BTreeSet<String> = own(schema).into_iter().collect();
    for part in schema["allOf"].as_array().into_iter().flatten() {
        match part["$ref"].as_str() {
            Some(reference) => {
                let inner = reference.rsplit('/').next().unwrap();
                out.extend(properties(schemas, inner));
            }
            None => out.extend(own(part)),
        }
    }
    out
}

/// Every field filled, so each serialises (a new field must be filled here: the compiler says so).
fn full_article() -> Article {
    Article {
        id: 1.into(),
        category_id: 2.into(),
        title: "t".into(),
        summary: Some("s".into()),
        cover: Some("c".into()),
        author: Some("a".into()),
        editor: Some("e".into()),
        source: Some("s".into()),
        publish_time: Some("2026-01-01 00:00:00".into()),
        views: Some(3),
        content: Some("<p>b</p>".into()),
        attachments: vec![full_attachment()],
        video: Some("v".into()),
        captions: Some("c".into()),
        lead: Some(true),
        prev: Some(Link {
            id: 4.into(),
            title: "p".into(),
        }),
        next: Some(Link {
            id: 5.into(),
            title: "n".into(),
        }),
        extra: serde_json::Map::new(),
    }
}

fn full_attachment() -> Attachment {
    Attachment {
        name: "n".into(),
        url: "u".into(),
        size: Some(1),
    }
}

fn full_category() -> Category {
    Category {
        id: 1.into(),
        parent_id: super::Id::top(),
        name: "n".into(),
        url: "/u".into(),
        sort: 1,
        kind: Some("list".into()),
        description: Some("d".into()),
        hidden: Some(false),
        icon: Some("i".into()),
        sub_category: Vec::new(),
        extra: serde_json::Map::new(),
    }
}

#[test]
fn the_openapi_schemas_name_exactly_the_models_fields() {
    let doc: Value = serde_json::from_str(OPENAPI).unwrap();
    let schemas = &doc["components"]["schemas"];
    let page = ArticlePage {
        content: vec![full_article()],
        total_elements: 1,
        total_pages: 1,
        page: 1,
        size: 10,
    };
    let site = Site {
        mourning: Mourning::Days(vec!["12-13".into()]),
        ..Site::default()
    };
    let answer = SiteAnswer {
        site: &site,
        search: true,
        lang: "en",
        languages: &[Language {
            code: "en".into(),
            name: "English".into(),
        }],
    };
    let cases: [(&str, BTreeSet<String>); 6] = [
        ("Category", keys(&full_category())),
        ("Article", keys(&full_article())),
        ("Attachment", keys(&full_attachment())),
        (
            "ArticleLink",
            keys(&Link {
                id: 1.into(),
                title: "t".into(),
            }),
        ),
        ("ArticlePage", keys(&page)),
        ("Site", keys(&answer)),
    ];
    for (schema, fields) in cases {
        assert_eq!(
            properties(schemas, schema),
            fields,
            "docs/openapi.json's {schema} schema and the model's fields differ"
        );
    }
    // A summary is an article without what only a detail carries.
    let detail_only: BTreeSet<String> = [
        "content",
        "attachments",
        "video",
        "captions",
        "prev",
        "next",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let summary: BTreeSet<String> = keys(&full_article())
        .difference(&detail_only)
        .cloned()
        .collect();
    assert_eq!(properties(schemas, "ArticleSummary"), summary);
    let tree = CategoryTree {
        content: vec![full_category()],
    };
    assert_eq!(keys(&tree), BTreeSet::from(["content".to_owned()]));
    // A search: its page, a hit (a summary and where it matched), the pieces, the counts.
    let marked = Marked::hit("班列");
    let highlight = Highlight {
        title: vec![marked.clone()],
        fragment: vec![marked.clone()],
    };
    let summary_only = Article {
        content: None,
        attachments: Vec::new(),
        video: None,
        captions: None,
        prev: None,
        next: None,
        ..full_article()
    };
    let hit = SearchHit {
        article: summary_only,
        highlight: Some(highlight.clone()),
    };
    let section = SectionCount {
        id: 21.into(),
        name: "公司要闻".into(),
        count: 3,
    };
    let search = SearchPage {
        content: vec![hit.clone()],
        total_elements: 1,
        total_pages: 1,
        page: 1,
        size: 10,
        source: SearchSource::Index,
        sections: vec![section.clone()],
        building: true,
    };
    for (schema, fields) in [
        ("SearchPage", keys(&search)),
        ("SearchHit", keys(&hit)),
        ("Highlight", keys(&highlight)),
        ("Marked", keys(&marked)),
        ("SectionCount", keys(&section)),
    ] {
        assert_eq!(
            properties(schemas, schema),
            fields,
            "docs/openapi.json's {schema} schema and the model's fields differ"
        );
    }
}
