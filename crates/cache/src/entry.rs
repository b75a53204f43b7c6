//! One cached answer, encoded once, and turning it into a response without further work.

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    io::Write,
    sync::{
        Arc, OnceLock,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant, SystemTime},
};

use axum::{
    body::Body,
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header},
    response::Response,
};
use bytes::Bytes;

use portal_core::model::Content;

pub const X_CACHE: HeaderName = HeaderName::from_static("x-cache");
/// RFC 9211: what this cache did with the request, with the answer's time to live left.
pub const CACHE_STATUS: HeaderName = HeaderName::from_static("cache-status");

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
    /// The `result` label of `portal_cache_total` (Prometheus label values are lowercase; the
    /// `X-Cache` header keeps `as_str`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Hit => "hit",
            Self::Miss => "miss",
            Self::Stale => "stale",
            Self::Bypass => "bypass",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hit => "HIT",
            Self::Miss => "MISS",
            Self::Stale => "STALE",
            Self::Bypass => "BYPASS",
        }
    }
}

/// What an entry's body is; the API's answers are JSON, the pages HTML, the sitemap XML,
/// the feeds RSS, `robots.txt` text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    Json,
    Html,
    Xml,
    Rss,
    Text,
    Css,
    Js,
    /// A file of the CMS's file store: its own type is in the entry's headers (`Entry::file`).
    File,
}

impl MediaType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Json => "application/json",
            Self::Html => "text/html; charset=utf-8",
            Self::Xml => "application/xml; charset=utf-8",
            Self::Rss => "application/rss+xml; charset=utf-8",
            Self::Text => "text/plain; charset=utf-8",
            Self::Css => "text/css; charset=utf-8",
            Self::Js => "text/javascript; charset=utf-8",
            Self::File => "application/octet-stream",
        }
    }

    /// The one of `as_str`'s values `text` is (the shared tier stores it).
    pub fn parse(text: &str) -> Option<Self> {
        [
            Self::Json,
            Self::Html,
            Self::Xml,
            Self::Rss,
            Self::Text,
            Self::Css,
            Self::Js,
            Self::File,
        ]
        .into_iter()
        .find(|m| m.as_str() == text)
    }
}

/// What an entry answers and whose TTL it takes (`Policy::named` judges it with these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Class {
    pub kind: super::Kind,
    /// The cache name of the endpoint whose TTL applies (a page's, the sitemap's or a feed's: the
    /// endpoint whose data it shows).
    pub cache_name: &'static str,
}

/// Where this replica's copy of an entry came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Source {
    /// Made here (a load by this replica).
    #[default]
    Loaded,
    /// Read from the shared tier; `replica` is who stored it there (`None`: written by a
    /// version that did not record it).
    Shared { replica: Option<Arc<str>> },
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub status: StatusCode,
    pub media_type: MediaType,
    pub body: Encoded,
    /// gzip, for a body that has brotli (one worth compressing): made on first demand
    /// (`gzip()`), since nearly every visitor's browser takes brotli and a page made both at its
    /// render, ~5 % of a page render's CPU (a `perf` profile of `make bench` scene 6,
    /// 2026-12-06). Shared by the entry's clones, so it is made once.
    gzip: Arc<OnceLock<Encoded>>,
    pub br: Option<Encoded>,
    pub etag: HeaderValue,
    /// The headers of a 304 for this entry.
    not_modified: HeaderMap,
    pub stored: Instant,
    /// `stored` on the wall clock, for the shared tier (another replica's clock reads it).
    pub stored_at: SystemTime,
    /// What the answer contains (`article:2101`, `category:21`, `categories`): a purge by tag
    /// reaches it (see `tags.rs`).
    pub tags: Arc<[String]>,
    /// Set by a soft purge: served while one refresh runs (and while the CMS fails), never as fresh.
    purged: Flag,
    /// How long moka keeps it: its TTL plus the longest stale allowance.
    pub keep_for: Duration,
    /// False for an answer made from an empty CMS answer: passed on to the visitor who asked,
    /// never stored, never put in place of a good entry.
    pub cacheable: bool,
    /// The typed value a content answer was encoded from, for the faces that render it rather
    /// than send its bytes (the sitemap, the feeds). `None` for answers that
    /// are not content (pages, files, a "not found").
    pub content: Option<Content>,
    /// Set when the cache stores it (`Policy::class`): what it answers, for the admin view.
    pub class: Option<Class>,
    pub source: Source,
    /// The browser's `Cache-Control` whatever the time left to live (a file's: the CMS's own,
    /// as the files route has always passed it on); `None`: from the time left (`respond`).
    pub cache_control: Option<HeaderValue>,
}

impl Entry {
    /// Encodes `body` (a JSON envelope) once: brotli and its ETag (gzip on first demand).
    pub fn new(status: StatusCode, body: Bytes) -> Self {
        Self::of(MediaType::Json, status, body)
    }

    /// Encodes `body` of `media_type` once: brotli and its ETag (gzip on first demand), for a
    /// body worth compressing.
    pub fn of(media_type: MediaType, status: StatusCode, body: Bytes) -> Self {
        let br = (body.len() >= COMPRESS_FROM).then(|| brotli(&body));
        Self::from_parts(media_type, status, body, None, br, SystemTime::now())
    }

    /// An entry from encodings made elsewhere (the shared tier): nothing is compressed again
    /// (gzip, when not given, is made on first demand for a body that has brotli).
    /// The ETag is the body's hash, so every replica gives the same one.
    pub fn from_parts(
        media_type: MediaType,
        status: StatusCode,
        body: Bytes,
        gzip: Option<Bytes>,
        br: Option<Bytes>,
        stored_at: SystemTime,
    ) -> Self {
        let mut hasher = DefaultHasher::new();
        body.hash(&mut hasher);
        let etag = HeaderValue::from_str(&format!("\"{:016x}-{:x}\"", hasher.finish(), body.len()))
            .expect("hex is a valid header value");
        // Each encoding its own ETag (RFC 9110 §8.8.3: a strong validator names one
        // representation's bytes); a conditional request for any of them is the same content.
        let encoded = |bytes: Bytes, encoding: Option<&'static str>| Encoded {
            headers: headers_for(
                media_type,
                &encoding.map_or_else(|| etag.clone(), |e| variant_etag(&etag, e)),
                encoding,
                Some(bytes.len()),
            ),
            bytes,
        };
        let made = OnceLock::new();
        if let Some(gz) = gzip {
            let _ = made.set(encoded(gz, Some("gzip")));
        }
        Self {
            status,
            media_type,
            body: encoded(body, None),
            gzip: Arc::new(made),
            br: br.map(|br| encoded(br, Some("br"))),
            not_modified: headers_for(media_type, &etag, None, None),
            etag,
            // The same moment on the monotonic clock (the cache stamps what it keeps again, on
            // its own clock).
            stored: crate::Clock::default().stamp_of(stored_at),
            stored_at,
            tags: Arc::from(Vec::new()),
            purged: Flag::default(),
            keep_for: Duration::ZERO,
            cacheable: true,
            content: None,
            class: None,
            source: Source::Loaded,
            cache_control: None,
        }
    }

    /// A file of the CMS's file store, kept as it came: `passed` (its type, ETag, Last-Modified,
    /// Content-Disposition…) on every answer, the CMS's ETag (when it gave one) the one a
    /// conditional request is judged by, `cache_control` the browser's whatever the time to
    /// live, and gzip and brotli only when `compress` (SVG, captions: JPEG, PNG and WebP are
    /// compressed already and gain nothing).
    pub fn file(
        body: Bytes,
        passed: &HeaderMap,
        compress: bool,
        cache_control: HeaderValue,
    ) -> Self {
        let mut entry = if compress {
            let entry = Self::of(MediaType::File, StatusCode::OK, body);
            // Made now: its headers take the file's own below, as the other encodings' do.
            entry.gzip();
            entry
        } else {
            Self::from_parts(
                MediaType::File,
                StatusCode::OK,
                body,
                None,
                None,
                SystemTime::now(),
            )
        };
        if let Some(etag) = passed.get(header::ETAG) {
            entry.etag = etag.clone();
        }
        let etag = entry.etag.clone();
        let gzip = Arc::get_mut(&mut entry.gzip).and_then(OnceLock::get_mut);
        for encoded in [Some(&mut entry.body), gzip, entry.br.as_mut()]
            .into_iter()
            .flatten()
        {
            for (name, value) in passed {
                // Each encoding's length is its own.
                if name != header::CONTENT_LENGTH && name != header::CONTENT_RANGE {
                    encoded.headers.insert(name.clone(), value.clone());
                }
            }
            encoded.headers.insert(header::ETAG, etag.clone());
        }
        entry.not_modified.insert(header::ETAG, etag);
        if let Some(modified) = passed.get(header::LAST_MODIFIED) {
            entry
                .not_modified
                .insert(header::LAST_MODIFIED, modified.clone());
        }
        entry.cache_control = Some(cache_control);
        entry
    }

    /// The answer of a file load that found a file not to keep (`content::file`): never stored;
    /// it sends the requests that waited on that load to stream the file.
    pub fn file_not_kept() -> Self {
        Self::from_parts(
            MediaType::File,
            StatusCode::OK,
            Bytes::new(),
            None,
            None,
            SystemTime::now(),
        )
        .not_cacheable()
    }

    /// A header every full answer of this entry carries (`Content-Type`, a file's
    /// `Last-Modified`).
    pub fn header(&self, name: &HeaderName) -> Option<&HeaderValue> {
        self.body.headers.get(name)
    }

    /// This answer, carrying `tags` for purges.
    pub fn tagged(mut self, tags: Vec<String>) -> Self {
        self.tags = Arc::from(tags);
        self
    }

    /// This answer, holding the value it was encoded from.
    pub fn holding(mut self, content: Content) -> Self {
        self.content = Some(content);
        self
    }

    /// Marks it stale for every holder (a soft purge); a refresh replaces it.
    pub fn mark_purged(&self) {
        self.purged.0.store(true, Ordering::Relaxed);
    }

    pub fn is_purged(&self) -> bool {
        self.purged.0.load(Ordering::Relaxed)
    }

    /// This answer, not to be stored (see `cacheable`).
    pub fn not_cacheable(mut self) -> Self {
        self.cacheable = false;
        self
    }

    pub fn is_success(&self) -> bool {
        self.status.is_success()
    }

    /// The gzip encoding, made now if it was not yet: for a body worth compressing (one that
    /// has brotli), `None` otherwise.
    pub fn gzip(&self) -> Option<&Encoded> {
        self.br.as_ref()?;
        Some(self.gzip.get_or_init(|| {
            let bytes = gzip(&self.body.bytes);
            Encoded {
                headers: headers_for(
                    self.media_type,
                    &variant_etag(&self.etag, "gzip"),
                    Some("gzip"),
                    Some(bytes.len()),
                ),
                bytes,
            }
        }))
    }

    /// The gzip encoding if it has been made (the shared tier stores what there is).
    pub fn gzip_made(&self) -> Option<&Encoded> {
        self.gzip.get()
    }

    /// The encodings held, with their sizes: identity always, gzip (once made) and brotli for
    /// bodies worth compressing.
    pub fn encodings(&self) -> Vec<(&'static str, usize)> {
        let mut out = vec![("identity", self.body.bytes.len())];
        if let Some(gzip) = self.gzip_made() {
            out.push(("gzip", gzip.bytes.len()));
        }
        if let Some(br) = &self.br {
            out.push(("br", br.bytes.len()));
        }
        out
    }

    /// Bytes held, for the cache's bound: gzip counted as brotli's size until it is made (it
    /// is a little larger; an entry is weighed once, when stored).
    pub fn weight(&self) -> usize {
        let br = self.br.as_ref().map_or(0, |e| e.bytes.len());
        let gzip = self.gzip_made().map_or(br, |e| e.bytes.len());
        self.body.bytes.len() + gzip + br + 128
    }
}

fn gzip(body: &[u8]) -> Bytes {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 3),
        flate2::Compression::new(6),
    );
    encoder.write_all(body).expect("writing to memory");
    Bytes::from(encoder.finish().expect("writing to memory"))
}

fn brotli(body: &[u8]) -> Bytes {
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
}

/// The soft-purge mark; a copy of an entry (moka's stored copy) starts with the same value.
#[derive(Debug, Default)]
struct Flag(AtomicBool);

impl Clone for Flag {
    fn clone(&self) -> Self {
        Self(AtomicBool::new(self.0.load(Ordering::Relaxed)))
    }
}

/// One encoding of an answer: its bytes and the response headers that never change for them,
/// so a hit copies a map instead of hashing each header in again.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub bytes: Bytes,
    headers: HeaderMap,
}

/// The fixed headers of an answer of `media_type` in `encoding` with a body of `length` bytes
/// (None: a 304, which carries the same policy but no type).
fn headers_for(
    media_type: MediaType,
    etag: &HeaderValue,
    encoding: Option<&'static str>,
    length: Option<usize>,
) -> HeaderMap {
    let mut headers = HeaderMap::with_capacity(16);
    portal_core::security::add_fixed(&mut headers, media_type.as_str());
    if let Some(length) = length {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(media_type.as_str()),
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
    headers.insert(
        CACHE_STATUS,
        HeaderValue::from_static("portal-gateway; fwd=uri-miss"),
    );
    headers.insert(header::AGE, HeaderValue::from_static("0"));
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
    /// From a request's headers (the API reads these in its one pass over them instead:
    /// `request::RequestInfo`).
    pub fn of(headers: &HeaderMap) -> Self {
        Self {
            accept_encoding: headers.get(header::ACCEPT_ENCODING).cloned(),
            if_none_match: headers.get(header::IF_NONE_MATCH).cloned(),
        }
    }
}

pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// The best encoding the request accepts: brotli, then gzip (a `q=0` refuses one). One pass over
/// the list; parameters are read only for the two codings we have.
pub fn negotiate(wants: &Wants) -> Encoding {
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

/// The ETag of `etag`'s content in `encoding` (`"…-gzip"`, `"…-br"`).
fn variant_etag(etag: &HeaderValue, encoding: &str) -> HeaderValue {
    let base = etag.to_str().unwrap_or("\"\"").trim_end_matches('"');
    HeaderValue::from_str(&format!("{base}-{encoding}\"")).unwrap_or_else(|_| etag.clone())
}

pub fn matches_etag(wants: &Wants, etag: &HeaderValue) -> bool {
    wants
        .if_none_match
        .as_ref()
        .is_some_and(|wanted| matches_etag_value(wanted, etag))
}

/// Whether an `If-None-Match` value names `etag` (weakly: `W/` ignored), or is `*`.
pub fn matches_etag_value(wanted: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(value) = wanted.to_str() else {
        return false;
    };
    let ours = etag.to_str().unwrap_or("");
    // Our tag, or one of its encodings' (`"…-gzip"`): the same content either way.
    let ours_open = ours.strip_suffix('"').unwrap_or(ours);
    let same = |tag: &str| {
        tag == ours
            || ["-gzip\"", "-br\""]
                .iter()
                .any(|suffix| tag.strip_suffix(suffix) == Some(ours_open))
    };
    value
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || same(tag.strip_prefix("W/").unwrap_or(tag)))
}

/// How old an answer is and how long it stays fresh, as the response reports them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timing {
    /// Time left to live (zero once stale).
    pub fresh_for: Duration,
    /// Time since the CMS gave it (`Age`).
    pub age: Duration,
    /// How far past its TTL a stale answer is (`Cache-Status: …; ttl=-N`).
    pub stale_by: Duration,
}

impl Timing {
    /// A fresh answer, just made.
    pub fn fresh(fresh_for: Duration) -> Self {
        Self {
            fresh_for,
            ..Self::default()
        }
    }
}

/// The response for a cached entry: 304 when the browser has it, else the best encoding it
/// accepts, with `X-Cache`, `Cache-Status`, `Age`, `ETag` and a browser `Cache-Control` from
/// the time left to live.
pub fn respond(entry: &Entry, outcome: Outcome, wants: &Wants, timing: Timing) -> Response {
    let cache_control = match &entry.cache_control {
        Some(kept) => kept.clone(),
        None => max_age(timing.fresh_for),
    };
    let encoded = match (negotiate(wants), &entry.br) {
        (Encoding::Brotli, Some(br)) => br,
        (Encoding::Gzip, Some(_)) => entry.gzip().unwrap_or(&entry.body),
        _ => &entry.body,
    };
    let not_modified = matches_etag(wants, &entry.etag);
    let (status, body, template) = if not_modified {
        (StatusCode::NOT_MODIFIED, Body::empty(), &entry.not_modified)
    } else {
        (
            entry.status,
            Body::from(encoded.bytes.clone()),
            &encoded.headers,
        )
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let mut headers = template.clone();
    if not_modified && let Some(etag) = encoded.headers.get(header::ETAG) {
        // The 304 names the representation this request would have been sent.
        headers.insert(header::ETAG, etag.clone());
    }
    // The four per-answer values go into the template's slots in one pass over its few entries:
    // cheaper than four hashed inserts (callgrind, `make bench-instructions`).
    let (mut cache_control, mut age) = (Some(cache_control), Some(AGE.value(timing.age.as_secs())));
    let mut status = Some(cache_status(outcome, &timing));
    for (name, value) in &mut headers {
        let slot = if name == header::CACHE_CONTROL {
            cache_control.take()
        } else if name == header::AGE {
            age.take()
        } else if name == X_CACHE {
            Some(HeaderValue::from_static(outcome.as_str()))
        } else if name == CACHE_STATUS {
            status.take()
        } else {
            None
        };
        if let Some(slot) = slot {
            *value = slot;
        }
    }
    *response.headers_mut() = headers;
    response
}

/// `Cache-Status` (RFC 9211) for an outcome: `portal-gateway; hit; ttl=42`,
/// `portal-gateway; fwd=stale; ttl=-5`, `portal-gateway; fwd=uri-miss`, `portal-gateway; fwd=bypass`.
pub fn cache_status(outcome: Outcome, timing: &Timing) -> HeaderValue {
    match outcome {
        Outcome::Hit => HIT_TTL.value(timing.fresh_for.as_secs()),
        Outcome::Stale => seconds(
            b"portal-gateway; fwd=stale; ttl=-",
            timing.stale_by.as_secs(),
        ),
        Outcome::Miss => HeaderValue::from_static("portal-gateway; fwd=uri-miss"),
        Outcome::Bypass => HeaderValue::from_static("portal-gateway; fwd=bypass"),
    }
}

/// Header values of the form `prefix` + a number of seconds, made once for 0 to `TABLE_SECONDS`: a
/// hit clones one (a reference count) instead of formatting and allocating it, three times per
/// answer (`Cache-Control`, `Cache-Status`, `Age`). `make bench-instructions`: see
/// docs/performance.md.
struct SecondsTable {
    prefix: &'static [u8],
    values: std::sync::OnceLock<Vec<HeaderValue>>,
}

/// Ten minutes: the default TTLs and ages of almost every answer; beyond, values are formatted.
const TABLE_SECONDS: u64 = 600;

impl SecondsTable {
    const fn new(prefix: &'static [u8]) -> Self {
        Self {
            prefix,
            values: std::sync::OnceLock::new(),
        }
    }

    fn value(&self, n: u64) -> HeaderValue {
        if n > TABLE_SECONDS {
            return seconds(self.prefix, n);
        }
        let values = self.values.get_or_init(|| {
            (0..=TABLE_SECONDS)
                .map(|n| seconds(self.prefix, n))
                .collect()
        });
        values[n as usize].clone()
    }
}

static HIT_TTL: SecondsTable = SecondsTable::new(b"portal-gateway; hit; ttl=");
static AGE: SecondsTable = SecondsTable::new(b"");
static MAX_AGE: SecondsTable = SecondsTable::new(b"public, max-age=");

/// `prefix` followed by `n` in decimal, written without the formatting machinery.
fn seconds(prefix: &[u8], n: u64) -> HeaderValue {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(n);
    let mut value = [0u8; 64];
    value[..prefix.len()].copy_from_slice(prefix);
    value[prefix.len()..][..digits.len()].copy_from_slice(digits.as_bytes());
    HeaderValue::from_bytes(&value[..prefix.len() + digits.len()])
        .expect("digits are a valid header value")
}

/// `public, max-age=N`.
fn max_age(fresh_for: Duration) -> HeaderValue {
    MAX_AGE.value(fresh_for.as_secs())
}
