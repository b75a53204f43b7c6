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
    pub body: Encoded,
    pub gzip: Option<Encoded>,
    pub br: Option<Encoded>,
    pub etag: HeaderValue,
    /// The headers of a 304 for this entry.
    not_modified: HeaderMap,
    pub stored: Instant,
    /// How long moka keeps it: its TTL plus the longest stale allowance.
    pub keep_for: Duration,
    /// False for an answer made from an empty CMS answer: passed on to the visitor who asked,
    /// never stored, never put in place of a good entry.
    pub cacheable: bool,
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
            // A 256 KiB window rather than brotli's default 4 MiB: the same bytes out for any
            // body under it (almost all of them), and the encoder's tables the allocator keeps
            // per thread after an encoding shrink from ~10.7 to ~6.5 MiB (brotli 9.1.1 under
            // mimalloc, q6, 7 KB body; a window under 64 KiB picks a hasher that takes 31 MiB).
            // The gateway after one miss and under load: 40.2 MiB against 41.7 MiB.
            let params = brotli::enc::BrotliEncoderParams {
                quality: 6,
                lgwin: 18,
                ..Default::default()
            };
            brotli::BrotliCompress(&mut &body[..], &mut out, &params).expect("writing to memory");
            Bytes::from(out)
        });
        let mut hasher = DefaultHasher::new();
        body.hash(&mut hasher);
        let etag = HeaderValue::from_str(&format!("\"{:016x}-{:x}\"", hasher.finish(), body.len()))
            .expect("hex is a valid header value");
        let encoded = |bytes: Bytes, encoding| Encoded {
            headers: headers_for(&etag, encoding, Some(bytes.len())),
            bytes,
        };
        Self {
            status,
            body: encoded(body, None),
            gzip: gzip.map(|gz| encoded(gz, Some("gzip"))),
            br: br.map(|br| encoded(br, Some("br"))),
            not_modified: headers_for(&etag, None, None),
            etag,
            stored: Instant::now(),
            keep_for: Duration::ZERO,
            cacheable: true,
        }
    }

    /// This answer, not to be stored (see `cacheable`).
    pub fn not_cacheable(mut self) -> Self {
        self.cacheable = false;
        self
    }

    pub fn is_success(&self) -> bool {
        self.status.is_success()
    }

    pub fn weight(&self) -> usize {
        let len = |e: &Option<Encoded>| e.as_ref().map_or(0, |e| e.bytes.len());
        self.body.bytes.len() + len(&self.gzip) + len(&self.br) + 128
    }
}

/// One encoding of an answer: its bytes and the response headers that never change for them,
/// so a hit copies a map instead of hashing each header in again.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub bytes: Bytes,
    headers: HeaderMap,
}

/// The fixed headers of an answer in `encoding` with a body of `length` bytes (None: a 304).
fn headers_for(
    etag: &HeaderValue,
    encoding: Option<&'static str>,
    length: Option<usize>,
) -> HeaderMap {
    let mut headers = HeaderMap::with_capacity(16);
    crate::security::add_fixed(&mut headers);
    if let Some(length) = length {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        // Known here, so the router need not size the body and insert it on every hit.
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    }
    if let Some(encoding) = encoding {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(header::ETAG, etag.clone());
    // Slots for the per-answer values: `respond` replaces them in place, which does not grow the
    // map (a clone keeps no spare room, so a new name would reallocate).
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(X_CACHE, HeaderValue::from_static(Outcome::Miss.as_str()));
    headers
}

/// What the browser said about an answer it wants: the encodings it takes and the version it
/// already holds. Copied out of the request (two header values, no map).
#[derive(Debug, Default, Clone)]
pub struct Wants {
    pub accept_encoding: Option<HeaderValue>,
    pub if_none_match: Option<HeaderValue>,
}

impl Wants {
    /// For tests: the API reads these in its one pass over a request's headers
    /// (`api::RequestInfo`).
    #[cfg(test)]
    pub fn of(headers: &HeaderMap) -> Self {
        Self {
            accept_encoding: headers.get(header::ACCEPT_ENCODING).cloned(),
            if_none_match: headers.get(header::IF_NONE_MATCH).cloned(),
        }
    }
}

pub(crate) enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// The best encoding the request accepts: brotli, then gzip (a `q=0` refuses one). One pass over
/// the list; parameters are read only for the two codings we have.
pub(crate) fn negotiate(wants: &Wants) -> Encoding {
    let Some(accept) = wants.accept_encoding.as_ref().and_then(|v| v.to_str().ok()) else {
        return Encoding::Identity;
    };
    let (mut br, mut gzip) = (false, false);
    for part in accept.split(',') {
        let (coding, params) = part.split_once(';').unwrap_or((part, ""));
        let slot = match coding.trim() {
            c if c.eq_ignore_ascii_case("br") => &mut br,
            c if c.eq_ignore_ascii_case("gzip") => &mut gzip,
            _ => continue,
        };
        let refused = params.split(';').any(|p| {
            p.trim()
                .strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f32>().ok())
                .is_some_and(|q| q == 0.0)
        });
        *slot |= !refused;
    }
    if br {
        Encoding::Brotli
    } else if gzip {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

pub(crate) fn matches_etag(wants: &Wants, etag: &HeaderValue) -> bool {
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
        (StatusCode::NOT_MODIFIED, Body::empty(), &entry.not_modified)
    } else {
        let encoded = match (negotiate(wants), &entry.br, &entry.gzip) {
            (Encoding::Brotli, Some(br), _) => br,
            (Encoding::Brotli | Encoding::Gzip, _, Some(gz)) => gz,
            _ => &entry.body,
        };
        (
            entry.status,
            Body::from(encoded.bytes.clone()),
            &encoded.headers,
        )
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
