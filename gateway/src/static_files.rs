//! The single-page app under `/portal/`: files from the build, `index.html` for app routes,
//! long caching for content-hashed assets and revalidation for everything else.

use std::{convert::Infallible, path::Path, sync::Arc};

use axum::{
    body::Body,
    extract::Request,
    http::{HeaderValue, StatusCode, Uri, header},
    response::{IntoResponse, Response},
};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// Where the app is mounted; everything else outside the API answers 404.
pub const BASE: &str = "/portal";

const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");
const REVALIDATE: HeaderValue = HeaderValue::from_static("no-cache");

#[derive(Clone)]
pub struct StaticFiles {
    dir: ServeDir,
    index: ServeFile,
    /// Whether `*.map` files are served (`server.source_maps`); they show the app's source.
    source_maps: bool,
}

impl StaticFiles {
    pub fn new(root: &Path, source_maps: bool) -> Arc<Self> {
        Arc::new(Self {
            dir: ServeDir::new(root).precompressed_br().precompressed_gzip(),
            index: ServeFile::new(root.join("index.html")),
            source_maps,
        })
    }

    pub async fn serve(self: Arc<Self>, request: Request) -> Result<Response, Infallible> {
        let Some(rest) = request.uri().path().strip_prefix(BASE).map(str::to_owned) else {
            return Ok(not_found());
        };
        let rest = if rest.is_empty() {
            "/".to_owned()
        } else {
            rest
        };
        if !self.source_maps && rest.ends_with(".map") {
            return Ok(not_found());
        }
        let hashed = is_hashed_asset(&rest);
        let looks_like_file = rest
            .rsplit('/')
            .next()
            .is_some_and(|name| name.contains('.'));
        let (mut parts, body) = request.into_parts();
        let mut uri = rest;
        if let Some(query) = parts.uri.query() {
            uri.push('?');
            uri.push_str(query);
        }
        parts.uri = match uri.parse::<Uri>() {
            Ok(uri) => uri,
            Err(_) => return Ok(not_found()),
        };
        let request = Request::from_parts(parts, body);
        let fallback_request = (!looks_like_file).then(|| {
            let mut r = Request::new(Body::empty());
            *r.method_mut() = request.method().clone();
            *r.headers_mut() = request.headers().clone();
            r
        });
        let response = self.dir.clone().oneshot(request).await?;
        let (mut response, cache) = match (response.status(), fallback_request) {
            // App routes (and a stale bookmark) get the app, which shows its own not-found page.
            (StatusCode::NOT_FOUND, Some(r)) => (
                self.index.clone().oneshot(r).await?.map(Body::new),
                REVALIDATE,
            ),
            (StatusCode::NOT_FOUND, None) => return Ok(not_found()),
            (_, _) if hashed => (response.map(Body::new), IMMUTABLE),
            _ => (response.map(Body::new), REVALIDATE),
        };
        if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
            response.headers_mut().insert(header::CACHE_CONTROL, cache);
        }
        response.headers_mut().insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        Ok(response)
    }
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "404 页面不存在",
    )
        .into_response()
}

/// Whether a file name carries a content hash (`main.3f9a0c1d2b.js`): such a file never changes.
fn is_hashed_asset(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    let mut parts: Vec<&str> = name.split('.').collect();
    parts.pop(); // the extension
    parts
        .iter()
        .skip(1)
        .any(|p| p.len() >= 8 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::is_hashed_asset;

    #[test]
    fn only_content_hashed_names_are_immutable() {
        assert!(is_hashed_asset("/assets/main.3f9a0c1d2b4e.js"));
        assert!(is_hashed_asset("/assets/412.0123abcd.chunk.css"));
        assert!(!is_hashed_asset("/index.html"));
        assert!(!is_hashed_asset("/favicon.svg"));
        assert!(!is_hashed_asset("/assets/deadbeef12.js"));
        assert!(!is_hashed_asset("/"));
    }
}
