//! One cached answer, encoded once, and turning it into a response without further work.

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    io::Write,
    time::{Duration, Instant},
};

use axum::{
    body::Body,
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header},
    response::Response,
};
use bytes::Bytes;

pub const X_CACHE: HeaderName = HeaderName::from_static("x-cache");

/// Bodies smaller than this are not worth compressing.
const COMPRESS_FROM: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Hit,
    Miss,
    Stale,
    Bypass,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hit => "HIT",
            Self::Miss => "MISS",
            Self::Stale => "STALE",
            Self::Bypass => "BYPASS",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub status: StatusCode,
    pub body: Bytes,
    pub gzip: Option<Bytes>,
    pub br: Option<Bytes>,
    pub etag: HeaderValue,
    /// The response headers that never change for this entry, one map per encoding, so a hit
    /// copies a map instead of hashing each header in again.
    headers: Templates,
    pub stored: Instant,
    /// How long moka keeps it: its TTL plus the longest stale allowance.
    pub keep_for: Duration,
}

impl Entry {
    /// Encodes `body` (a JSON envelope) once: gzip, brotli and its ETag.
    pub fn new(status: StatusCode, body: Bytes) -> Self {
        let compress = body.len() >= COMPRESS_FROM;
        let gzip = compress.then(|| {
            let mut encoder = flate2::write::GzEncoder::new(
                Vec::with_capacity(body.len() / 3),
                flate2::Compression::new(6),
            );
            encoder.write_all(&body).expect("writing to memory");
            Bytes::from(encoder.finish().expect("writing to memory"))
        });
        let br = compress.then(|| {
            let mut out = Vec::with_capacity(body.len() / 3);
            let params = brotli::enc::BrotliEncoderParams {
                quality: 6,
                ..Default::default()
            };
            brotli::BrotliCompress(&mut &body[..], &mut out, &params).expect("writing to memory");
            Bytes::from(out)
        });
        let mut hasher = DefaultHasher::new();
        body.hash(&mut hasher);
        let etag = HeaderValue::from_str(&format!("\"{:016x}-{:x}\"", hasher.finish(), body.len()))
            .expect("hex is a valid header value");
        let headers = Templates::new(&etag);
        Self {
            status,
            body,
            gzip,
            br,
            etag,
            headers,
            stored: Instant::now(),
            keep_for: Duration::ZERO,
        }
    }

    pub fn is_success(&self) -> bool {
        self.status.is_success()
    }

    pub fn weight(&self) -> usize {
        self.body.len()
            + self.gzip.as_ref().map_or(0, Bytes::len)
            + self.br.as_ref().map_or(0, Bytes::len)
            + 128
    }
}

#[derive(Debug, Clone)]
struct Templates {
    identity: HeaderMap,
    gzip: HeaderMap,
    br: HeaderMap,
    not_modified: HeaderMap,
}

impl Templates {
    fn new(etag: &HeaderValue) -> Self {
        let template = |encoding: Option<&'static str>, body: bool| {
            let mut headers = HeaderMap::with_capacity(8);
            if body {
                headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
            }
            if let Some(encoding) = encoding {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
            headers.insert(header::ETAG, etag.clone());
            // Slots for the per-answer values: `respond` replaces them in place, which does not
            // grow the map (a clone keeps no spare room, so a new name would reallocate).
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            headers.insert(X_CACHE, HeaderValue::from_static(Outcome::Miss.as_str()));
            headers
        };
        Self {
            identity: template(None, true),
            gzip: template(Some("gzip"), true),
            br: template(Some("br"), true),
            not_modified: template(None, false),
        }
    }
}

/// What the browser said about an answer it wants: the encodings it takes and the version it
/// already holds. Copied out of the request (two header values, no map).
#[derive(Debug, Default, Clone)]
pub struct Wants {
    pub accept_encoding: Option<HeaderValue>,
    pub if_none_match: Option<HeaderValue>,
}

impl Wants {
    /// The API reads these in its one pass over a request's headers (`api::RequestInfo`).
    #[cfg(test)]
    pub fn of(headers: &HeaderMap) -> Self {
        Self {
            accept_encoding: headers.get(header::ACCEPT_ENCODING).cloned(),
            if_none_match: headers.get(header::IF_NONE_MATCH).cloned(),
        }
    }
}

enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// The best encoding the request accepts: brotli, then gzip (a `q=0` refuses one).
fn negotiate(wants: &Wants) -> Encoding {
    let Some(accept) = wants.accept_encoding.as_ref().and_then(|v| v.to_str().ok()) else {
        return Encoding::Identity;
    };
    let accepts = |name: &str| {
        accept.split(',').any(|part| {
            let mut pieces = part.split(';');
            let coding = pieces.next().unwrap_or("").trim();
            let refused = pieces.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            coding.eq_ignore_ascii_case(name) && !refused
        })
    };
    if accepts("br") {
        Encoding::Brotli
    } else if accepts("gzip") {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

fn matches_etag(wants: &Wants, etag: &HeaderValue) -> bool {
    let Some(value) = wants.if_none_match.as_ref().and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let ours = etag.to_str().unwrap_or("");
    value
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag == ours || tag.strip_prefix("W/") == Some(ours))
}

/// The response for a cached entry: 304 when the browser has it, else the best encoding it
/// accepts, with `X-Cache`, `ETag` and a browser `Cache-Control` from the time left to live.
pub fn respond(entry: &Entry, outcome: Outcome, wants: &Wants, fresh_for: Duration) -> Response {
    let cache_control = max_age(fresh_for);
    let (status, body, template) = if matches_etag(wants, &entry.etag) {
        (
            StatusCode::NOT_MODIFIED,
            Body::empty(),
            &entry.headers.not_modified,
        )
    } else {
        let (bytes, template) = match (negotiate(wants), &entry.br, &entry.gzip) {
            (Encoding::Brotli, Some(br), _) => (br, &entry.headers.br),
            (Encoding::Brotli | Encoding::Gzip, _, Some(gz)) => (gz, &entry.headers.gzip),
            _ => (&entry.body, &entry.headers.identity),
        };
        (entry.status, Body::from(bytes.clone()), template)
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let mut headers = template.clone();
    headers.insert(header::CACHE_CONTROL, cache_control);
    headers.insert(X_CACHE, HeaderValue::from_static(outcome.as_str()));
    *response.headers_mut() = headers;
    response
}

/// `public, max-age=N`, written without the formatting machinery (this runs on every hit).
fn max_age(fresh_for: Duration) -> HeaderValue {
    const PREFIX: &str = "public, max-age=";
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(fresh_for.as_secs());
    let mut value = [0u8; PREFIX.len() + 20];
    value[..PREFIX.len()].copy_from_slice(PREFIX.as_bytes());
    value[PREFIX.len()..][..digits.len()].copy_from_slice(digits.as_bytes());
    HeaderValue::from_bytes(&value[..PREFIX.len() + digits.len()])
        .expect("digits are a valid header value")
}
