//! The browser's policy, on every response. A document (an HTML page) gets the app's
//! Content-Security-Policy without `unsafe-inline` or `unsafe-eval` (the app is files from
//! `'self'` only) and the referrer, permissions, sniffing and opener policies; every other answer
//! (the API's JSON, the sitemap, feeds, the app's scripts and styles) the policy of a resource:
//! no sniffing, and a CSP under which it loads, runs and frames nothing (`default-src 'none'`,
//! as OWASP's REST cheat sheet gives an API). The referrer, permissions and opener policies act
//! only on a document, so a resource does without their bytes: 3 headers and ~300 bytes off
//! every API answer, ~1.1k instructions of a cached hit (`make bench-instructions`,
//! docs/performance.md). HSTS is added to everything when `server.hsts_max_age` is set.
//!
//! Cached answers carry these in their header templates (`cache::entry`), so a hit pays nothing
//! for them; `ObserveLayer` adds them to every other response, after one look-up that finds a
//! cached answer already has them.

use std::sync::Arc;

use arc_swap::ArcSwapOption;
use http::{HeaderMap, HeaderName, HeaderValue, header};

/// The one inline script allowed: the app's index.html (every page the gateway renders) sends a
/// spec hash route to its real URL and applies the visitor's stored reading choices (text size,
/// contrast, spacing) and the site's last known mourning setting before the first paint, which a
/// file would delay by a round trip. A test keeps this hash equal to the script in
/// `frontend/public/index.html`.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' 'sha256-8uMYFSeR+5Utd04hb7kE7PjTL0VwmirCU883wfoZrL0='; \
    style-src 'self'; img-src 'self'; media-src 'self'; font-src 'self'; connect-src 'self'; \
    object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

const PERMISSIONS_POLICY: &str = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), \
    interest-cohort=()";

/// The policy of an answer that is not a document: if a browser is sent one as a page, nothing
/// in it loads, runs or is framed. A CMS file tightens it further (`sandbox`, `api/files.rs`).
pub const RESOURCE_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

/// The fixed headers of a document, in the order they are written.
pub static HEADERS: [(HeaderName, HeaderValue); 5] = [
    (
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    ),
    (
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    ),
    (
        HeaderName::from_static("permissions-policy"),
        HeaderValue::from_static(PERMISSIONS_POLICY),
    ),
    (
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    ),
    (
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    ),
];

/// The fixed headers of every other answer.
pub static RESOURCE_HEADERS: [(HeaderName, HeaderValue); 2] = [
    (
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(RESOURCE_POLICY),
    ),
    (
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    ),
];

/// The fixed headers for an answer of `content_type`: a document's for HTML, a resource's for
/// anything else (or none).
pub fn fixed_for(content_type: Option<&[u8]>) -> &'static [(HeaderName, HeaderValue)] {
    let document =
        content_type.is_some_and(|t| t.len() >= 9 && t[..9].eq_ignore_ascii_case(b"text/html"));
    if document {
        &HEADERS
    } else {
        &RESOURCE_HEADERS
    }
}

/// `Strict-Transport-Security` when configured: set at start and on every reload, read by the
/// observe layer (which holds this handle and nothing else of the state).
#[derive(Clone, Default)]
pub struct Hsts(Arc<ArcSwapOption<HeaderValue>>);

impl Hsts {
    /// Takes the HSTS setting of a (re)loaded config (`server.hsts_max_age`).
    pub fn configure(&self, max_age: Option<std::time::Duration>) {
        self.0.store(max_age.map(|age| {
            Arc::new(
                HeaderValue::from_str(&format!("max-age={}; includeSubDomains", age.as_secs()))
                    .expect("digits make a header value"),
            )
        }));
    }
}

/// Writes the fixed headers for an answer of `content_type` into a header template (a cached
/// answer's, a static file's).
pub fn add_fixed(headers: &mut HeaderMap, content_type: &str) {
    for (name, value) in fixed_for(Some(content_type.as_bytes())) {
        headers.insert(name, value.clone());
    }
}

/// Completes a response's headers: the fixed ones for its type unless it has a policy (a cached
/// answer, a CMS file with its stricter one), and HSTS when configured.
pub fn complete(headers: &mut HeaderMap, hsts: &Hsts) {
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        let fixed = fixed_for(headers.get(header::CONTENT_TYPE).map(HeaderValue::as_bytes));
        for (name, value) in fixed {
            headers.entry(name).or_insert_with(|| value.clone());
        }
    }
    if let Some(hsts) = hsts.0.load().as_deref() {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, hsts.clone());
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use sha2::Digest;

    /// The hashes of the inline scripts (`<script>` without attributes: not the JSON-LD block,
    /// which is data) of a template.
    fn inline_script_hashes(path: &str) -> Vec<String> {
        let html =
            std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        html.split("<script>")
            .skip(1)
            .map(|part| {
                let script = part.split("</script>").next().unwrap();
                let digest = sha2::Sha256::digest(script.as_bytes());
                format!(
                    "'sha256-{}'",
                    base64::engine::general_purpose::STANDARD.encode(digest)
                )
            })
            .collect()
    }

    fn policy_hashes() -> Vec<&'static str> {
        super::CONTENT_SECURITY_POLICY
            .split([' ', ';'])
            .filter(|t| t.starts_with("'sha256-"))
            .collect()
    }

    /// Every inline script of the app's page template is allowed by its hash, and nothing else
    /// inline is: editing the script without the policy (or the reverse) fails here, not in a
    /// visitor's console.
    #[test]
    fn the_policy_allows_exactly_the_inline_scripts_of_index_html() {
        let hashes = inline_script_hashes("../../frontend/public/index.html");
        assert_eq!(hashes.len(), 1, "one inline script expected");
        assert_eq!(policy_hashes(), hashes);
    }
}
