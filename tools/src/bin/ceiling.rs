//! The benchmark's ceiling: a bare axum route answering fixed bytes (the gateway's own answer,
//! and its gzip encoding when asked, with the same policy headers), with nothing else in the way.
//! Usage: ceiling ADDR BODY_FILE GZIP_FILE

use axum::{
    Router,
    http::{HeaderMap, HeaderValue, header},
    response::IntoResponse,
    routing::get,
};
use bytes::Bytes;

// The same allocator as the gateway binary, so the ratio measures the pipeline, not malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(addr), Some(body), Some(gzip)) = (args.next(), args.next(), args.next()) else {
        eprintln!("usage: ceiling ADDR BODY_FILE GZIP_FILE [PATH]");
        std::process::exit(2);
    };
    let body = Bytes::from(std::fs::read(body).expect("body file"));
    let gzip = Bytes::from(std::fs::read(gzip).expect("gzip file"));
    // The path measured (make bench-instructions' BENCH_PATH), routed as the gateway routes its
    // own: a fallback costs ~2k more instructions a request and would flatter the gateway.
    let path = args
        .next()
        .unwrap_or_else(|| "/portal/api/category/list".to_owned());
    let route = path.split('?').next().unwrap_or("/").to_owned();
    let app = Router::new().route(
        &route,
        get(move |headers: HeaderMap| {
            let wants_gzip = headers
                .get(header::ACCEPT_ENCODING)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.contains("gzip"));
            let (bytes, encoding) = if wants_gzip {
                (gzip.clone(), Some("gzip"))
            } else {
                (body.clone(), None)
            };
            async move {
                let mut response = bytes.into_response();
                let h = response.headers_mut();
                h.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                if let Some(e) = encoding {
                    h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(e));
                }
                // The browser's policy the gateway sends with a JSON answer: the same bytes out.
                portal_core::security::add_fixed(h, "application/json");
                response
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
    axum::serve(listener, app).await.expect("serve");
}
