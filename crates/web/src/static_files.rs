//! The single-page app under `/portal/`, held in memory: every file of the build read once (at
//! start and on each reload) with the `.br` and `.gz` the build wrote beside it, so an answer is
//! a map lookup and a reference-counted copy of bytes, and nothing is compressed per request.
//! `index.html` answers app routes; content-hashed assets are cached for a year, everything else
//! revalidated. The build's `server/` folder is the gateway's, not the visitors': its server
//! bundle is read for `render/` and nothing in it is served.
//!
//! In memory rather than tower-http's `ServeDir`, which opens, stats and streams the file for each
//! request: the app's bundle was the gateway's slowest answer (docs/performance.md, scene 2), and a
//! lookup in a map of known paths cannot be walked out of by any encoding of `..`.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::Arc,
    time::SystemTime,
};

use axum::{
    body::Body,
    http::{HeaderMap, HeaderValue, Method, StatusCode, header, request::Parts},
    response::{Html, IntoResponse, Response},
};
use bytes::Bytes;

use portal_cache::{Encoding, Wants, matches_etag, negotiate};

/// Where the app is mounted; everything else outside the API answers 404.
pub const BASE: &str = "/portal";

const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");
const REVALIDATE: HeaderValue = HeaderValue::from_static("no-cache");

/// Bounds on what is read into memory, so a `static_dir` pointed at the wrong folder fails at
/// start with a message instead of filling the memory.
const MAX_FILES: usize = 5_000;
const MAX_BYTES: u64 = 256 * 1024 * 1024;
const MAX_DEPTH: usize = 16;

/// The build's folder for the server (`<static_dir>/server/`): read, never served. It holds code
/// the gateway runs (the server bundle), whose names and contents are no visitor's business.
const SERVER_DIR: &str = "/server/";
/// The server bundle the app build writes (`render/` runs it).
const RENDER_BUNDLE: &str = "/server/render.js";

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("reading {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{dir} holds more than {MAX_FILES} files or {} MiB: is server.static_dir the app's build folder?",
        MAX_BYTES / 1024 / 1024
    )]
    TooLarge { dir: PathBuf },
}

/// The app's files, by their path under `BASE` (`/assets/main.0c1cfb24daa2.js`).
#[derive(Default)]
pub struct AppFiles {
    files: HashMap<String, Asset>,
    /// Bytes held, all encodings together (for the log line and `/metrics`).
    bytes: u64,
    /// The fingerprint of `index.html`, which keys the pages rendered into it.
    index: u64,
    /// The server bundle (`server/render.js`), when the build has one.
    render_bundle: Option<Arc<str>>,
}

/// One file and the encodings of it the build wrote.
struct Asset {
    identity: Variant,
    gzip: Option<Variant>,
    br: Option<Variant>,
    not_modified: HeaderMap,
}

/// One encoding of a file: its bytes and every header of its answer, made once.
struct Variant {
    bytes: Bytes,
    headers: HeaderMap,
}

impl AppFiles {
    /// Reads `root` (a missing folder gives an empty app, which `/readyz` reports). Source maps
    /// are read only when they are served (`server.source_maps`).
    pub fn load(root: &Path, source_maps: bool) -> Result<Self, LoadError> {
        let mut found = Vec::new();
        if root.is_dir() {
            walk(root, root, 0, &mut found)?;
        }
        let total: u64 = found.iter().map(|(_, _, len)| len).sum();
        if found.len() > MAX_FILES || total > MAX_BYTES {
            return Err(LoadError::TooLarge {
                dir: root.to_owned(),
            });
        }
        let names: std::collections::HashSet<&str> =
            found.iter().map(|(name, _, _)| name.as_str()).collect();
        let is_variant = |name: &str| {
            [".br", ".gz"].iter().any(|ext| {
                name.strip_suffix(ext)
                    .is_some_and(|original| names.contains(original))
            })
        };
        let mut app = Self::default();
        for (name, path, _) in &found {
            if name == RENDER_BUNDLE {
                let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
                    path: path.clone(),
                    source,
                })?;
                // A broken bundle costs the server rendering, never the app: its pages fall
                // back to the shell, as without a bundle.
                match String::from_utf8(bytes) {
                    Ok(text) => app.render_bundle = Some(Arc::from(text)),
                    Err(_) => tracing::warn!(
                        path = %path.display(),
                        "the server bundle is not UTF-8 text and is not loaded: pages are not server-rendered"
                    ),
                }
            }
            if name.starts_with(SERVER_DIR)
                || is_variant(name)
                || (!source_maps && name.ends_with(".map"))
            {
                continue;
            }
            let read = |path: &Path| {
                std::fs::read(path).map_err(|source| LoadError::Io {
                    path: path.to_owned(),
                    source,
                })
            };
            let sibling = |ext: &str| {
                let variant = format!("{name}.{ext}");
                names
                    .contains(variant.as_str())
                    .then(|| read(&path.with_file_name(format!("{}.{ext}", file_name(path)))))
                    .transpose()
            };
            let identity = read(path)?;
            let gzip = sibling("gz")?;
            let br = sibling("br")?;
            let modified = std::fs::metadata(path)
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            if name == "/index.html" {
                app.index = fingerprint(&identity);
            }
            let asset = Asset::new(name, identity, gzip, br, modified);
            app.bytes += asset.weight();
            app.files.insert(name.clone(), asset);
        }
        Ok(app)
    }

    /// Whether the app can be served at all (`/readyz`).
    pub fn has_index(&self) -> bool {
        self.files.contains_key("/index.html")
    }

    /// The build's `index.html` (the page `pages` renders into) and its fingerprint.
    pub fn index_html(&self) -> Option<(&str, u64)> {
        let bytes = &self.files.get("/index.html")?.identity.bytes;
        Some((std::str::from_utf8(bytes).ok()?, self.index))
    }

    /// The server bundle (`<static_dir>/server/render.js`) for the render pool, when the build
    /// has one. Nothing under `server/` is served.
    pub fn render_bundle(&self) -> Option<Arc<str>> {
        self.render_bundle.clone()
    }

    /// Whether the build has the file at `path` (`/favicon.svg`).
    pub fn has(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether `path` is a page of the app (rendered by `pages`) rather than a file: `/portal/`,
    /// `/portal/index.html`, and any path under `/portal/` whose last segment has no extension
    /// and that is no file of the build.
    pub fn is_page(&self, path: &str) -> bool {
        let Some(rest) = path.strip_prefix(BASE) else {
            return false;
        };
        match rest {
            "/" | "/index.html" => true,
            rest => {
                rest.starts_with('/') && !looks_like_file(rest) && !self.files.contains_key(rest)
            }
        }
    }

    /// The answer to a request outside the API.
    pub fn serve(&self, request: &Parts) -> Response {
        let Some(rest) = request
            .uri
            .path()
            .strip_prefix(BASE)
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
        else {
            return not_found();
        };
        if request.method != Method::GET && request.method != Method::HEAD {
            return (
                StatusCode::METHOD_NOT_ALLOWED,
                [(header::ALLOW, "GET, HEAD")],
            )
                .into_response();
        }
        let Ok(decoded) = percent_encoding::percent_decode_str(rest).decode_utf8() else {
            return not_found();
        };
        let path = match decoded.as_ref() {
            "" | "/" => "/index.html",
            other => other,
        };
        let asset = match self.files.get(path) {
            Some(asset) => asset,
            // Pages are rendered before this (`pages`); without a build to render them with, an
            // address gets the portal's 404 page (with ways back in), a missing file (a chunk of
            // an older build) a plain 404 rather than HTML.
            None if !looks_like_file(path) => return page_not_found(),
            None => return not_found(),
        };
        asset.answer(request)
    }
}

impl Asset {
    fn new(
        name: &str,
        identity: Vec<u8>,
        gzip: Option<Vec<u8>>,
        br: Option<Vec<u8>>,
        modified: SystemTime,
    ) -> Self {
        let etag = HeaderValue::from_str(&format!(
            "\"{:016x}-{:x}\"",
            fingerprint(&identity),
            identity.len()
        ))
        .expect("hex is a valid header value");
        let mut common = HeaderMap::with_capacity(16);
        let content_type = content_type(name);
        portal_core::security::add_fixed(&mut common, content_type.to_str().unwrap_or(""));
        common.insert(header::ETAG, etag);
        common.insert(
            header::CACHE_CONTROL,
            if is_hashed_asset(name) {
                IMMUTABLE
            } else {
                REVALIDATE
            },
        );
        if let Ok(date) = HeaderValue::from_str(&httpdate::fmt_http_date(modified)) {
            common.insert(header::LAST_MODIFIED, date);
        }
        if gzip.is_some() || br.is_some() {
            common.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        let not_modified = common.clone();
        common.insert(header::CONTENT_TYPE, content_type);
        let variant = |bytes: Vec<u8>, encoding: Option<&'static str>| {
            let mut headers = common.clone();
            headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
            if let Some(encoding) = encoding {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            Variant {
                bytes: Bytes::from(bytes),
                headers,
            }
        };
        Self {
            identity: variant(identity, None),
            gzip: gzip.map(|b| variant(b, Some("gzip"))),
            br: br.map(|b| variant(b, Some("br"))),
            not_modified,
        }
    }

    fn weight(&self) -> u64 {
        let len = |v: &Option<Variant>| v.as_ref().map_or(0, |v| v.bytes.len());
        (self.identity.bytes.len() + len(&self.gzip) + len(&self.br)) as u64
    }

    fn answer(&self, request: &Parts) -> Response {
        // The API's negotiation and ETag match, so both answer alike.
        let wants = Wants {
            accept_encoding: request.headers.get(header::ACCEPT_ENCODING).cloned(),
            if_none_match: request.headers.get(header::IF_NONE_MATCH).cloned(),
        };
        if matches_etag(&wants, &self.not_modified[header::ETAG]) {
            let mut response = StatusCode::NOT_MODIFIED.into_response();
            *response.headers_mut() = self.not_modified.clone();
            return response;
        }
        let variant = match (negotiate(&wants), &self.br, &self.gzip) {
            (Encoding::Brotli, Some(br), _) => br,
            (Encoding::Brotli | Encoding::Gzip, _, Some(gzip)) => gzip,
            _ => &self.identity,
        };
        let body = if request.method == Method::HEAD {
            Body::empty()
        } else {
            Body::from(variant.bytes.clone())
        };
        let mut response = Response::new(body);
        *response.headers_mut() = variant.headers.clone();
        response
    }
}

/// Every regular file below `dir`, as (path under `BASE`, file path, length).
fn walk(
    root: &Path,
    dir: &Path,
    depth: usize,
    found: &mut Vec<(String, PathBuf, u64)>,
) -> Result<(), LoadError> {
    let io = |source| LoadError::Io {
        path: dir.to_owned(),
        source,
    };
    if depth > MAX_DEPTH || found.len() > MAX_FILES {
        return Err(LoadError::TooLarge {
            dir: root.to_owned(),
        });
    }
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let meta = std::fs::metadata(&path).map_err(|source| LoadError::Io {
            path: path.clone(),
            source,
        })?;
        if meta.is_dir() {
            walk(root, &path, depth + 1, found)?;
        } else if meta.is_file() {
            let Ok(relative) = path.strip_prefix(root) else {
                continue;
            };
            let Some(relative) = relative.to_str() else {
                continue; // not UTF-8: no URL reaches it
            };
            found.push((
                format!("/{}", relative.replace('\\', "/")),
                path.clone(),
                meta.len(),
            ));
        }
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn content_type(name: &str) -> HeaderValue {
    let mime = mime_guess::from_path(name).first_or_octet_stream();
    let text = mime.type_() == mime_guess::mime::TEXT
        || matches!(mime.subtype().as_str(), "javascript" | "json" | "svg");
    let value = if text {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

fn looks_like_file(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|name| name.contains('.'))
}

/// FNV-1a over the file: an ETag that changes with the content, the same in every replica and
/// across restarts (std's `DefaultHasher` is not promised to be).
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A path under `/portal/` that is no file while no page can be rendered: the portal's 404 page.
fn page_not_found() -> Response {
    (StatusCode::NOT_FOUND, Html(crate::not_found::PAGE)).into_response()
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
    use super::*;

    fn get(path: &str) -> Parts {
        axum::http::Request::get(path)
            .body(())
            .unwrap()
            .into_parts()
            .0
    }

    #[test]
    fn the_server_bundle_is_read_for_the_renderer_and_nothing_under_server_is_served() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("server")).unwrap();
        std::fs::write(dir.path().join("index.html"), "<div id=\"root\"></div>").unwrap();
        let bundle = "globalThis.render = () => '<p>门户</p>';";
        std::fs::write(dir.path().join("server/render.js"), bundle).unwrap();
        std::fs::write(dir.path().join("server/render.js.gz"), b"gz").unwrap();
        std::fs::write(dir.path().join("server/render.js.map"), "{}").unwrap();
        std::fs::write(dir.path().join("server/other.txt"), "x").unwrap();

        let app = AppFiles::load(dir.path(), true).unwrap();
        assert_eq!(app.render_bundle().as_deref(), Some(bundle));
        assert_eq!(app.len(), 1, "only index.html is served");
        for path in [
            "/portal/server/render.js",
            "/portal/server/render.js.gz",
            "/portal/server/render.js.map",
            "/portal/server/other.txt",
            "/portal/server/",
            "/portal/server",
            "/portal/%73erver/render.js",
        ] {
            assert_eq!(
                app.serve(&get(path)).status(),
                StatusCode::NOT_FOUND,
                "{path}"
            );
        }
        assert_eq!(app.serve(&get("/portal/")).status(), StatusCode::OK);

        let without = tempfile::tempdir().unwrap();
        assert!(
            AppFiles::load(without.path(), false)
                .unwrap()
                .render_bundle()
                .is_none()
        );
    }

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
