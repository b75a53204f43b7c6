//! What a request asks, read once for whichever face answers it: the few headers an answer
//! depends on (`RequestInfo`) and the query string (`query.rs`, validated per endpoint).

pub mod query;

use axum::{
    extract::FromRequestParts,
    http::{HeaderName, HeaderValue, header, request::Parts},
};

use portal_cache::Wants;

/// The request id header: set (or kept) on the way in, echoed on the way out, sent to the CMS.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// What an answer depends on in the request, copied out of it rather than cloning its header
/// map (this runs on every cache hit).
pub struct RequestInfo {
    /// The visitor's own well-formed `Bearer` token, if any: passed to the CMS, never cached.
    pub bearer: Option<HeaderValue>,
    pub request_id: Option<HeaderValue>,
    pub wants: Wants,
}

impl<S: Send + Sync> FromRequestParts<S> for RequestInfo {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        // One pass over the few headers a request has, rather than four hashed look-ups: this
        // runs on every cache hit. The first value of a repeated header counts, as with `get`.
        let (mut authorization, mut request_id) = (None, None);
        let (mut accept_encoding, mut if_none_match) = (None, None);
        for (name, value) in &parts.headers {
            let slot = if name == header::AUTHORIZATION {
                &mut authorization
            } else if name == REQUEST_ID {
                &mut request_id
            } else if name == header::ACCEPT_ENCODING {
                &mut accept_encoding
            } else if name == header::IF_NONE_MATCH {
                &mut if_none_match
            } else {
                continue;
            };
            slot.get_or_insert(value);
        }
        Ok(Self {
            bearer: authorization.filter(|v| is_bearer_token(v)).cloned(),
            request_id: request_id.cloned(),
            wants: Wants {
                accept_encoding: accept_encoding.cloned(),
                if_none_match: if_none_match.cloned(),
            },
        })
    }
}

impl RequestInfo {
    /// What the browser takes: the encodings and the version it holds.
    pub fn into_wants(self) -> Wants {
        self.wants
    }
}

/// Longest visitor token passed on; anything longer is not a token this CMS issued.
const MAX_TOKEN_LEN: usize = 4096;

/// Whether an `Authorization` value is a well-formed `Bearer` token (the visitor's own system
/// token, passed to the CMS).
fn is_bearer_token(value: &HeaderValue) -> bool {
    let Some((scheme, token)) = value.to_str().ok().and_then(|v| v.split_once(' ')) else {
        return false;
    };
    let token68 = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
    scheme.eq_ignore_ascii_case("bearer")
        && !token.is_empty()
        && token.len() <= MAX_TOKEN_LEN
        && token.chars().all(token68)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(headers: &[(&str, &str)]) -> RequestInfo {
        let mut request = axum::http::Request::builder();
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        let info = RequestInfo::from_request_parts(&mut parts, &());
        futures_util::FutureExt::now_or_never(info)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn only_well_formed_bearer_tokens_pass_through() {
        let bearer = |value: &str| info(&[("authorization", value)]).bearer;
        assert!(info(&[]).bearer.is_none());
        assert_eq!(bearer("Bearer abc.DEF-123").unwrap(), "Bearer abc.DEF-123");
        assert!(bearer("bearer abc").is_some());
        assert!(bearer("Basic dXNlcjpwYXNz").is_none());
        assert!(bearer("Bearer ").is_none());
        assert!(bearer("Bearer a b").is_none());
        let long = format!("Bearer {}", "a".repeat(MAX_TOKEN_LEN + 1));
        assert!(bearer(&long).is_none());
    }

    #[test]
    fn request_info_reads_the_first_value_of_each_header_it_needs() {
        let got = info(&[
            ("host", "example.test"),
            ("if-none-match", "\"a\""),
            ("x-request-id", "first"),
            ("accept-encoding", "gzip, br"),
            ("x-request-id", "second"),
            ("authorization", "Bearer t0ken"),
            ("if-none-match", "\"b\""),
        ]);
        assert_eq!(got.request_id.unwrap(), "first");
        assert_eq!(got.bearer.unwrap(), "Bearer t0ken");
        assert_eq!(got.wants.accept_encoding.unwrap(), "gzip, br");
        assert_eq!(got.wants.if_none_match.unwrap(), "\"a\"");
        let none = info(&[("accept", "application/json")]);
        assert!(none.request_id.is_none() && none.bearer.is_none());
        assert!(none.wants.accept_encoding.is_none() && none.wants.if_none_match.is_none());
    }
}
