//! Request limits with governor: per client address on the API, and a ceiling on calls to the CMS.

use std::{
    net::{IpAddr, Ipv4Addr},
    num::NonZeroU32,
    task::{Context, Poll},
};

use axum::{
    extract::Request,
    http::HeaderMap,
    response::{IntoResponse, Response},
};
use futures_util::future::{Either, Ready, ready};
use governor::{
    Quota, RateLimiter,
    clock::{Clock, DefaultClock},
    state::keyed::DefaultKeyedStateStore,
};
use ipnet::IpNet;
use tower::{Layer, Service};

use crate::{config::LimitsConfig, envelope::ApiError, state::AppState};

type KeyedLimiter = RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock>;
type DirectLimiter = governor::DefaultDirectRateLimiter;

pub struct Limits {
    per_client: KeyedLimiter,
    upstream: DirectLimiter,
    trusted: Vec<IpNet>,
    clock: DefaultClock,
}

fn quota(per_second: u32, burst: u32) -> Quota {
    let rate = NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN);
    Quota::per_second(rate).allow_burst(NonZeroU32::new(burst).unwrap_or(rate))
}

impl Limits {
    pub fn new(config: &LimitsConfig) -> Self {
        Self {
            per_client: RateLimiter::keyed(quota(
                config.per_client_per_second,
                config.per_client_burst,
            )),
            upstream: RateLimiter::direct(quota(config.upstream_per_second, config.upstream_burst)),
            trusted: config.trusted_proxies.clone(),
            clock: DefaultClock::default(),
        }
    }

    fn is_trusted(&self, ip: IpAddr) -> bool {
        self.trusted.iter().any(|net| net.contains(&ip))
    }

    /// The visitor's address: the peer, unless the peer is a trusted proxy, in which case the
    /// nearest address in `X-Forwarded-For` that is not itself a trusted proxy.
    /// Addresses are compared in canonical form: an IPv4 client of a dual-stack listener arrives
    /// as `::ffff:a.b.c.d`, and must match IPv4 proxy ranges and share its IPv4 allowance.
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.is_trusted(peer) {
            return peer;
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .map(|ip| ip.to_canonical())
            .collect();
        forwarded
            .iter()
            .rev()
            .find(|ip| !self.is_trusted(**ip))
            .or(forwarded.first())
            .copied()
            .unwrap_or(peer)
    }

    pub fn check_client(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.per_client
            .check_key(&ip)
            .map_err(|not_until| ApiError::RateLimited {
                scope: "client",
                retry_after: not_until.wait_time_from(self.clock.now()),
            })
    }

    /// One call to the CMS may go out now, or the ceiling is reached.
    pub fn check_upstream(&self) -> Result<(), ApiError> {
        self.upstream
            .check()
            .map_err(|not_until| ApiError::RateLimited {
                scope: "upstream",
                retry_after: not_until.wait_time_from(self.clock.now()),
            })
    }

    /// Forgets clients whose allowance is full again, so the table does not grow without end.
    pub fn forget_idle_clients(&self) {
        self.per_client.retain_recent();
        self.per_client.shrink_to_fit();
    }
}

/// Whether a request counts against the per-client limit: the JSON API and the admin endpoints
/// (where it also slows token guessing) do; images and attachments are exempt, as static files
/// and health checks are, since one page view asks for many of them.
fn is_limited(path: &str) -> bool {
    let under = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    (under("/portal/api") && !path.starts_with("/portal/api/files/")) || under("/portal/admin")
}

/// The per-client limit on the JSON API and admin: over the rate → 429 envelope with
/// `Retry-After`.
/// A plain tower layer around the router (no boxing, no service clone) because it sees
/// every request. Each connection's copy is told its peer address once (`set_peer`), rather
/// than reading axum's `ConnectInfo` from every request's extensions.
#[derive(Clone)]
pub struct ClientLimitLayer {
    state: AppState,
}

impl ClientLimitLayer {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

impl<S> Layer<S> for ClientLimitLayer {
    type Service = ClientLimit<S>;

    fn layer(&self, inner: S) -> ClientLimit<S> {
        ClientLimit {
            state: self.state.clone(),
            // Until told otherwise (a service driven without a connection, as in tests).
            peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
            inner,
        }
    }
}

#[derive(Clone)]
pub struct ClientLimit<S> {
    state: AppState,
    peer: IpAddr,
    inner: S,
}

impl<S> ClientLimit<S> {
    /// This copy serves one connection from `peer`.
    pub fn set_peer(&mut self, peer: IpAddr) {
        self.peer = peer;
    }
}

impl<S> Service<Request> for ClientLimit<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Either<Ready<Result<Response, S::Error>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if !is_limited(request.uri().path()) {
            return Either::Right(self.inner.call(request));
        }
        let runtime = self.state.peek_runtime();
        let ip = runtime.limits.client_ip(self.peer, request.headers());
        match runtime.limits.check_client(ip) {
            Ok(()) => Either::Right(self.inner.call(request)),
            Err(refused) => {
                tracing::debug!(%ip, "client over its rate limit");
                Either::Left(ready(Ok(refused.into_response())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(trusted: &[&str]) -> Limits {
        Limits::new(&LimitsConfig {
            per_client_per_second: 1,
            per_client_burst: 2,
            upstream_per_second: 1,
            upstream_burst: 1,
            trusted_proxies: trusted.iter().map(|t| t.parse().unwrap()).collect(),
        })
    }

    fn xff(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", value.parse().unwrap());
        h
    }

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let l = limits(&["10.0.0.0/8"]);
        let peer: IpAddr = "10.1.2.3".parse().unwrap();
        assert_eq!(
            l.client_ip(peer, &xff("203.0.113.9")),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        // The client may forge the left part; the nearest untrusted hop counts.
        assert_eq!(
            l.client_ip(peer, &xff("1.1.1.1, 203.0.113.9, 10.0.0.7")),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        let outsider: IpAddr = "198.51.100.4".parse().unwrap();
        assert_eq!(l.client_ip(outsider, &xff("203.0.113.9")), outsider);
        assert_eq!(l.client_ip(peer, &HeaderMap::new()), peer);
        // A dual-stack listener's view of IPv4 addresses.
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(
            l.client_ip(mapped, &xff("::ffff:203.0.113.9")),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        let mapped_outsider: IpAddr = "::ffff:198.51.100.4".parse().unwrap();
        assert_eq!(l.client_ip(mapped_outsider, &xff("203.0.113.9")), outsider);
    }

    #[test]
    fn the_json_api_and_admin_are_limited_and_files_are_not() {
        for path in [
            "/portal/api/category/list",
            "/portal/api/site",
            "/portal/api/x",
            "/portal/api",
            "/portal/admin/cache/purge",
            "/portal/admin",
        ] {
            assert!(is_limited(path), "{path}");
        }
        for path in [
            "/portal/api/files/covers/a.jpg",
            "/portal/",
            "/portal/assets/app.js",
            "/healthz",
            "/portal/apix",
            "/portal/administration",
        ] {
            assert!(!is_limited(path), "{path}");
        }
    }

    #[test]
    fn limits_are_per_client_with_a_retry_time() {
        let l = limits(&[]);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        assert!(l.check_client(a).is_ok());
        assert!(l.check_client(a).is_ok());
        match l.check_client(a) {
            Err(ApiError::RateLimited { retry_after, .. }) => assert!(retry_after.as_millis() > 0),
            other => panic!("{other:?}"),
        }
        assert!(l.check_client(b).is_ok());
        assert!(l.check_upstream().is_ok());
        assert!(l.check_upstream().is_err());
    }
}
