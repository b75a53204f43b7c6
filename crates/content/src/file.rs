//! Files of the CMS's file store (`/portal/api/files/*`): which are kept in the cache and how.
//!
//! A full `200` answer to a GET without `Range`, of an image (`image/*`) or captions
//! (`text/vtt`), at most `cache.file_max_bytes` long (its `Content-Length`, and the bytes read:
//! never more than the bound plus one piece is held, whatever the CMS says of its length), is
//! kept as `files/<path>` in this replica's memory (`Policy::memory_only`) for the `files` TTL
//! (an hour unless `cache.ttl` says otherwise). Anything else (attachments, videos, larger
//! files, a `Range`, a CMS answer marked `no-store`/`private`/`no-cache`) streams as it always
//! did, one CMS call each.

use std::sync::{Arc, Mutex};

use axum::{
    body::Body,
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header},
};
use bytes::Bytes;
use futures_util::{StreamExt, stream};

use super::File;
use crate::envelope::ApiError;
use portal_cache::Entry;
use portal_cms::{Upstream, UpstreamError};

/// The CMS's headers the files route passes on.
pub const PASSED_HEADERS: &[HeaderName] = &[
    header::CONTENT_TYPE,
    header::CONTENT_LENGTH,
    header::CONTENT_RANGE,
    header::ACCEPT_RANGES,
    header::ETAG,
    header::LAST_MODIFIED,
    header::CONTENT_DISPOSITION,
];

/// The browser's `Cache-Control` for a file: the CMS's own, else a day.
pub fn cache_control(upstream: &HeaderMap) -> HeaderValue {
    upstream
        .get(header::CACHE_CONTROL)
        .cloned()
        .unwrap_or(HeaderValue::from_static("public, max-age=86400"))
}

/// Whether a file answer with `headers` may be kept, judged before its body is read; and
/// whether it is worth compressing (SVG, captions). `keep_private`: the CMS's `private`,
/// `no-cache` and `no-store` do not stop it (`cache.file_keep_private`).
fn keepable(
    status: StatusCode,
    headers: &HeaderMap,
    max_bytes: u64,
    keep_private: bool,
) -> Option<bool> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase()
    };
    let content_type = text(header::CONTENT_TYPE);
    let image = content_type.starts_with("image/");
    let captions = content_type.starts_with("text/vtt");
    let cache_control = text(header::CACHE_CONTROL);
    let forbidden = !keep_private
        && ["no-store", "private", "no-cache"]
            .iter()
            .any(|d| cache_control.contains(d));
    let encoded = !matches!(text(header::CONTENT_ENCODING).as_str(), "" | "identity");
    let too_long = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        .is_some_and(|length| length > max_bytes);
    let keep =
        status == StatusCode::OK && (image || captions) && !forbidden && !encoded && !too_long;
    keep.then(|| captions || content_type.starts_with("image/svg+xml"))
}

/// What a load of a file made: its entry, or the CMS's answer to stream on.
pub enum Loaded {
    Kept(Box<Entry>),
    Streamed(File),
}

/// Fetches a file with the gateway's credential and no condition of the visitor's (a full
/// answer, to keep), and keeps it when it may be kept.
pub async fn load(
    cms: &Upstream,
    segments: &[String],
    query: &[(String, String)],
    max_bytes: u64,
    keep_private: bool,
) -> Result<Loaded, ApiError> {
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let file = fetch(cms, &segments, query, &HeaderMap::new()).await?;
    let Some(compress) = keepable(file.status, &file.headers, max_bytes, keep_private) else {
        return Ok(Loaded::Streamed(file));
    };
    let File {
        status,
        headers,
        body,
    } = file;
    let mut pieces = body.into_data_stream();
    let mut read: Vec<Bytes> = Vec::new();
    let mut length = 0u64;
    while let Some(piece) = pieces.next().await {
        let piece = piece
            .map_err(|err| UpstreamError::BadResponse(format!("a file's body was cut: {err}")))?;
        length += piece.len() as u64;
        read.push(piece);
        if length > max_bytes {
            // Longer than its length said (or it said none): streamed on from what was read.
            let body = Body::from_stream(stream::iter(read.into_iter().map(Ok)).chain(pieces));
            return Ok(Loaded::Streamed(File {
                status,
                headers,
                body,
            }));
        }
    }
    let body = match read.len() {
        1 => read.pop().expect("one piece"),
        _ => Bytes::from(read.concat()),
    };
    let mut passed = HeaderMap::new();
    for name in PASSED_HEADERS {
        if let Some(value) = headers.get(name) {
            passed.insert(name.clone(), value.clone());
        }
    }
    Ok(Loaded::Kept(Box::new(Entry::file(
        body,
        &passed,
        compress,
        if keep_private {
            // Kept for every visitor: what the CMS said of its own copy does not apply.
            HeaderValue::from_static("public, max-age=86400")
        } else {
            cache_control(&headers)
        },
    ))))
}

/// A file of the CMS's file store, streamed: its answer when the store has it (200, 206, or
/// 304 to a conditional request), "not found" for 404 and 410, a bad answer otherwise.
pub async fn fetch(
    cms: &Upstream,
    segments: &[&str],
    query: &[(String, String)],
    forward: &HeaderMap,
) -> Result<File, ApiError> {
    let file = cms.get_file(segments, query, forward).await?;
    match file.status {
        StatusCode::OK | StatusCode::PARTIAL_CONTENT | StatusCode::NOT_MODIFIED => Ok(file),
        StatusCode::NOT_FOUND | StatusCode::GONE => {
            Err(ApiError::NotFound("文件不存在。".to_owned()))
        }
        status => Err(UpstreamError::BadResponse(format!("file answered HTTP {status}")).into()),
    }
}

/// Where a load hands the CMS's answer to stream back to the request that made it (the
/// cache's coalesced waiters, whose own load never ran, fetch theirs).
pub type Handoff = Arc<Mutex<Option<File>>>;

/// Whether a visitor's conditional request (`If-None-Match`, else `If-Modified-Since`) is
/// answered by a file with `headers` (RFC 9110 §13.2.2).
pub fn not_modified(request: &HeaderMap, headers: &HeaderMap) -> bool {
    if let Some(wanted) = request.get(header::IF_NONE_MATCH) {
        return headers
            .get(header::ETAG)
            .is_some_and(|etag| portal_cache::matches_etag_value(wanted, etag));
    }
    let date = |map: &HeaderMap, name| {
        map.get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
            .and_then(|v| httpdate::parse_http_date(v).ok())
    };
    match (
        date(request, header::IF_MODIFIED_SINCE),
        date(headers, header::LAST_MODIFIED),
    ) {
        (Some(since), Some(modified)) => modified <= since,
        _ => false,
    }
}

/// A 304 for a file the visitor holds, with the headers the route passes on.
pub fn unchanged(headers: HeaderMap) -> File {
    File {
        status: StatusCode::NOT_MODIFIED,
        headers,
        body: Body::empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(HeaderName, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(n, v)| (n.clone(), HeaderValue::from_str(v).unwrap()))
            .collect()
    }

    #[test]
    fn only_whole_small_images_and_captions_are_kept() {
        let ok = StatusCode::OK;
        let of = |ct: &str| headers(&[(header::CONTENT_TYPE, ct)]);
        assert_eq!(keepable(ok, &of("image/jpeg"), 10, false), Some(false));
        assert_eq!(keepable(ok, &of("image/svg+xml"), 10, false), Some(true));
        assert_eq!(
            keepable(ok, &of("text/vtt; charset=utf-8"), 10, false),
            Some(true)
        );
        for other in ["application/pdf", "video/webm", "text/plain", ""] {
            assert_eq!(keepable(ok, &of(other), 10, false), None, "{other}");
        }
        assert_eq!(
            keepable(StatusCode::PARTIAL_CONTENT, &of("image/png"), 10, false),
            None
        );
        let long = headers(&[
            (header::CONTENT_TYPE, "image/png"),
            (header::CONTENT_LENGTH, "11"),
        ]);
        assert_eq!(keepable(ok, &long, 10, false), None);
        assert_eq!(keepable(ok, &long, 11, false), Some(false));
        let private = headers(&[
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "private, max-age=60"),
        ]);
        assert_eq!(keepable(ok, &private, 10, false), None);
        assert_eq!(
            keepable(ok, &private, 10, true),
            Some(false),
            "file_keep_private"
        );
    }

    #[test]
    fn conditions_are_judged_by_etag_then_date() {
        let file = headers(&[
            (header::ETAG, "\"v1\""),
            (header::LAST_MODIFIED, "Tue, 01 Jul 2025 08:00:00 GMT"),
        ]);
        let asks = |name, value| headers(&[(name, value)]);
        assert!(not_modified(&asks(header::IF_NONE_MATCH, "\"v1\""), &file));
        assert!(!not_modified(&asks(header::IF_NONE_MATCH, "\"v0\""), &file));
        assert!(not_modified(
            &asks(header::IF_MODIFIED_SINCE, "Tue, 01 Jul 2025 08:00:00 GMT"),
            &file
        ));
        assert!(!not_modified(
            &asks(header::IF_MODIFIED_SINCE, "Mon, 30 Jun 2025 08:00:00 GMT"),
            &file
        ));
        assert!(!not_modified(&HeaderMap::new(), &file));
    }
}
