//! What the dialect mapping costs on a cache miss: reference-cms's real answers (asked in
//! process, no network) decoded and mapped by the native dialect and by `config/examples/rest.toml`
//! and `mybatis.toml`, against parsing the same bytes as JSON alone. A cache hit never runs this.
//! Usage: target/release/mapping [ITERATIONS]  (`make bench-mapping`)

use std::time::Instant;

use axum::{body::Body, http::Request};
use portal_cms::dialect::{CategorySource, ContentFormat, Dialect, DialectConfig, TextFormat};
use portal_web::Config;
use tower::ServiceExt;

async fn fetch(dialect: reference_cms::Dialect, uri: &str) -> (axum::http::StatusCode, Vec<u8>) {
    let mut settings = reference_cms::Settings::from_env();
    settings.dialect = dialect;
    let content =
        reference_cms::Content::load(&reference_cms::default_content_dir()).expect("content");
    let basic = format!(
        "Basic {}",
        base64::Engine::encode(
            &base64::engine::general_purpose::STANDARD,
            format!("{}:{}", settings.client_id, settings.client_secret)
        )
    );
    let response = reference_cms::router(&settings, content)
        .oneshot(
            Request::get(uri)
                .header("authorization", basic)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, bytes.to_vec())
}

fn dialect_of(example: &str) -> Dialect {
    let path = format!(
        "{}/../config/examples/{example}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    Config::load(std::path::Path::new(&path))
        .expect("the example config loads")
        .compiled_dialect()
}

/// Nanoseconds per run of `f`, the median of five batches.
fn time(iterations: u32, mut f: impl FnMut()) -> f64 {
    let mut batches: Vec<f64> = (0..5)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..iterations {
                f();
            }
            started.elapsed().as_nanos() as f64 / f64::from(iterations)
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[2]
}

#[tokio::main]
async fn main() {
    let iterations: u32 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    let json = Some("application/json");
    let cases = [
        (
            "native",
            Dialect::default(),
            reference_cms::Dialect::Native,
            [
                "/category/list",
                "/article/list?categoryId=21&page=0&size=10",
                "/article/detail?id=2101",
            ],
        ),
        (
            "mybatis",
            dialect_of("mybatis"),
            reference_cms::Dialect::Mybatis,
            [
                "/cms/column/tree",
                "/cms/article/page?columnId=21&pageNum=1&pageSize=10",
                "/cms/article/2101",
            ],
        ),
        (
            "rest",
            dialect_of("rest"),
            reference_cms::Dialect::Rest,
            [
                "/v2/categories",
                "/v2/articles?category=21&offset=0&limit=10",
                "/v2/articles/2101",
            ],
        ),
    ];
    println!(
        "µs per CMS answer (median of 5 batches of {iterations}); JSON parse alone, then decode + map"
    );
    println!(
        "{:<8} {:>10} {:>10} {:>12} {:>12} {:>12} {:>12}",
        "dialect", "tree parse", "tree map", "list parse", "list map", "detail parse", "detail map"
    );
    for (name, dialect, speaks, [tree_uri, list_uri, detail_uri]) in cases {
        let (s1, tree) = fetch(speaks, tree_uri).await;
        let (s2, list) = fetch(speaks, list_uri).await;
        let (s3, detail) = fetch(speaks, detail_uri).await;
        let parse = |body: &[u8]| {
            std::hint::black_box(serde_json::from_slice::<serde_json::Value>(body).unwrap());
        };
        let tree_parse = time(iterations, || parse(&tree));
        let tree_map = time(iterations, || {
            let payload = dialect.decode(s1, json, &tree).unwrap();
            std::hint::black_box(
                dialect
                    .category_tree(&CategorySource::List(payload))
                    .unwrap(),
            );
        });
        let list_parse = time(iterations, || parse(&list));
        let list_map = time(iterations, || {
            let payload = dialect.decode(s2, json, &list).unwrap();
            std::hint::black_box(dialect.article_page(&payload, 1, 10).unwrap());
        });
        let detail_parse = time(iterations, || parse(&detail));
        let detail_map = time(iterations, || {
            let payload = dialect.decode(s3, json, &detail).unwrap();
            std::hint::black_box(dialect.article(&payload, "payload").unwrap());
        });
        let us = |ns: f64| ns / 1000.0;
        println!(
            "{name:<8} {:>10.1} {:>10.1} {:>12.1} {:>12.1} {:>12.1} {:>12.1}",
            us(tree_parse),
            us(tree_map),
            us(list_parse),
            us(list_map),
            us(detail_parse),
            us(detail_map)
        );
    }

    // The body and text forms of a CMS nobody here wrote, on the native detail of 2101: its HTML
    // body mapped as HTML, the same text read as Markdown, a block tree of its paragraphs, and
    // titles decoded (`text_format = "html"`).
    let (status, detail) = fetch(reference_cms::Dialect::Native, "/article/detail?id=2101").await;
    let payload = Dialect::default().decode(status, json, &detail).unwrap();
    let body = payload["content"].as_str().unwrap().to_owned();
    let blocks: Vec<serde_json::Value> = body
        .split("</p>")
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let text = p.replace("<p>", "");
            serde_json::json!({"type": "paragraph", "children": [{"type": "text", "text": text}]})
        })
        .collect();
    let mut as_blocks = payload.clone();
    as_blocks["content"] = serde_json::Value::Array(blocks);
    let mut escaped = payload.clone();
    escaped["title"] = serde_json::json!(format!(
        "&#8220;{}&#8221;",
        payload["title"].as_str().unwrap()
    ));
    let with = |format: ContentFormat, text: TextFormat| {
        Dialect::compile(&DialectConfig {
            content_format: format,
            text_format: text,
            ..DialectConfig::default()
        })
        .unwrap()
    };
    let html = with(ContentFormat::Html, TextFormat::Plain);
    let markdown = with(ContentFormat::Markdown, TextFormat::Plain);
    let block_tree = with(ContentFormat::Blocks, TextFormat::Plain);
    let decoding = with(ContentFormat::Html, TextFormat::Html);
    let map = |dialect: &Dialect, value: &serde_json::Value| {
        std::hint::black_box(dialect.article(value, "payload").unwrap());
    };
    let us = |ns: f64| ns / 1000.0;
    println!();
    println!(
        "µs to map one detail ({} bytes of body), by the form it is written in",
        body.len()
    );
    println!(
        "{:>10} {:>10} {:>10} {:>14}",
        "html", "markdown", "blocks", "html + titles"
    );
    println!(
        "{:>10.1} {:>10.1} {:>10.1} {:>14.1}",
        us(time(iterations, || map(&html, &payload))),
        us(time(iterations, || map(&markdown, &payload))),
        us(time(iterations, || map(&block_tree, &as_blocks))),
        us(time(iterations, || map(&decoding, &escaped))),
    );
}
