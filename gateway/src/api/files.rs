//! `/portal/api/files/*`: images and attachments from the CMS's file store, streamed through
//! the gateway so the browser never needs the CMS's address or credential.

use axum::{
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::{content::ContentService, envelope::ApiError, state::AppState};

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

const PASSED_HEADERS: &[header::HeaderName] = &[
    header::CONTENT_TYPE,
    header::CONTENT_LENGTH,
    header::CONTENT_RANGE,
    header::ACCEPT_RANGES,
    header::ETAG,
    header::LAST_MODIFIED,
    header::CONTENT_DISPOSITION,
];

fn not_found() -> ApiError {
    ApiError::NotFound("文件不存在。".to_owned())
}

pub async fn file(
    State(state): State<AppState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
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
    let upstream = ContentService::new(&state)
        .file(&segments, &headers)
        .await?;
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
    let mut response = Response::new(upstream.body);
    *response.status_mut() = upstream.status;
    copy_headers(&upstream.headers, response.headers_mut());
    let out = response.headers_mut();
    out.insert(
        header::CACHE_CONTROL,
        upstream
            .headers
            .get(header::CACHE_CONTROL)
            .cloned()
            .unwrap_or(HeaderValue::from_static("public, max-age=86400")),
    );
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
    Ok(response)
}

fn copy_headers(from: &HeaderMap, to: &mut HeaderMap) {
    for name in PASSED_HEADERS {
        if let Some(value) = from.get(name) {
            to.insert(name.clone(), value.clone());
        }
    }
}
