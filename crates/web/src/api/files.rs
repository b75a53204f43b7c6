//! `/portal/api/files/*`: images and attachments from the CMS's file store, through the
//! gateway so the browser never needs the CMS's address or credential. Images and captions
//! within `cache.file_max_bytes` are answered from the cache (`content/file.rs`); everything
//! else is streamed.

use axum::{
    extract::{Path, RawQuery, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::state::AppState;
use portal_cache::{Wants, respond};
use portal_content::envelope::ApiError;
use portal_content::{File, FileAnswer, PASSED_HEADERS, file_cache_control, not_modified};

/// Kinds of file a portal page links to; anything else from the file store is refused.
const ALLOWED_TYPES: &[&str] = &[
    "image/",
    "video/",
    "audio/",
    "application/pdf",
    "application/zip",
    "application/msword",
    "application/vnd.openxmlformats-officedocument.",
    "application/vnd.ms-excel",
    "application/vnd.ms-powerpoint",
    "text/plain",
    "text/csv",
    // A video's captions (WebVTT), read by the browser's <track>.
    "text/vtt",
];

fn not_found() -> ApiError {
    ApiError::NotFound("文件不存在。".to_owned())
}

pub async fn file(
    State(state): State<AppState>,
    path: Result<Path<String>, axum::extract::rejection::PathRejection>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    // A path that is no UTF-8 once decoded (`%ff.png`) names no file.
    let Ok(Path(path)) = path else {
        return Err(not_found());
    };
    let segments: Vec<&str> = path.split('/').collect();
    let safe = |s: &&str| {
        !s.is_empty()
            && !s.starts_with('.')
            && s.len() <= 255
            && !s.chars().any(|c| c.is_control() || c == '\\')
    };
    if segments.len() > 16 || !segments.iter().all(safe) {
        return Err(not_found());
    }
    let (upstream, share) = match state
        .content()
        .file(&segments, query.as_deref(), &headers)
        .await?
    {
        FileAnswer::Streamed { file, share } => (file, share),
        FileAnswer::Kept(lookup) => {
            let entry = lookup.result?;
            let mut wants = Wants::of(&headers);
            // `If-Modified-Since` (without `If-None-Match`) against the file's Last-Modified:
            // answered as its ETag would be.
            if wants.if_none_match.is_none() {
                let modified = entry
                    .header(&header::LAST_MODIFIED)
                    .map(|m| HeaderMap::from_iter([(header::LAST_MODIFIED, m.clone())]))
                    .unwrap_or_default();
                if not_modified(&headers, &modified) {
                    wants.if_none_match = Some(entry.etag.clone());
                }
            }
            let mut response = respond(&entry, lookup.outcome, &wants, lookup.timing);
            protect(response.headers_mut());
            return Ok(response);
        }
    };
    streamed(upstream, share, state.runtime().config.server.stall_timeout)
}

/// The CMS's answer, streamed on with the headers the route passes; let go when the client takes
/// none of it for `stall` (`relay.rs`). The client's `share` is held until then.
fn streamed(
    upstream: File,
    share: Option<portal_content::limits::Held>,
    stall: std::time::Duration,
) -> Result<Response, ApiError> {
    if upstream.status == StatusCode::NOT_MODIFIED {
        let mut response = StatusCode::NOT_MODIFIED.into_response();
        copy_headers(&upstream.headers, response.headers_mut());
        return Ok(response);
    }
    let content_type = upstream
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if !ALLOWED_TYPES.iter().any(|t| content_type.starts_with(t)) {
        tracing::warn!(%content_type, "file store answered a type the portal does not serve");
        return Err(not_found());
    }
    let encoding = relayed_encoding(&upstream.headers)?;
    let mut response = Response::new(crate::relay::relayed(upstream.body, stall, share));
    *response.status_mut() = upstream.status;
    copy_headers(&upstream.headers, response.headers_mut());
    let out = response.headers_mut();
    if let Some(encoding) = encoding {
        out.insert(header::CONTENT_ENCODING, encoding);
    }
    out.insert(header::CACHE_CONTROL, file_cache_control(&upstream.headers));
    protect(out);
    Ok(response)
}

/// Encodings every browser decodes. The gateway asks the file store for files as they are
/// (`Accept-Encoding: identity`), but a store may compress anyway; its bytes are then only an
/// image with the encoding that names them, so that travels with them. (Such a file is never kept:
/// `content/file.rs` keeps only unencoded ones.)
const RELAYED_ENCODINGS: &[&str] = &["gzip", "deflate", "br", "zstd"];

/// The `Content-Encoding` to relay with a streamed file: none for the bytes as they are, the
/// store's for one a browser decodes, a bad answer for any other (bytes nobody can read).
fn relayed_encoding(upstream: &HeaderMap) -> Result<Option<HeaderValue>, ApiError> {
    let Some(value) = upstream.get(header::CONTENT_ENCODING) else {
        return Ok(None);
    };
    let named = value.to_str().unwrap_or("").trim().to_ascii_lowercase();
    if named.is_empty() || named == "identity" {
        return Ok(None);
    }
    if RELAYED_ENCODINGS.contains(&named.as_str()) {
        return Ok(Some(value.clone()));
    }
    Err(ApiError::bad_cms_answer(format!(
        "file store sent an encoding browsers cannot read: {named:.40}"
    )))
}

/// What every file answer carries, kept or streamed.
fn protect(out: &mut HeaderMap) {
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // An SVG opened on its own must not run script in the portal's origin.
    out.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; img-src 'self' data:; media-src 'self'; sandbox",
        ),
    );
}

fn copy_headers(from: &HeaderMap, to: &mut HeaderMap) {
    for name in PASSED_HEADERS {
        if let Some(value) = from.get(name) {
            to.insert(name.clone(), value.clone());
        }
    }
}
