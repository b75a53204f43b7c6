//! Request limits with governor: per client address on the API, and a ceiling on calls to the CMS.

use std::{
    net::{IpAddr, SocketAddr},
    num::NonZeroU32,
};

use axum::{
    extract::{ConnectInfo, Request, State},
    http::HeaderMap,
    middleware::Next,
    response::{IntoResponse, Response},
};
use governor::{
    Quota, RateLimiter,
    clock::{Clock, DefaultClock},
    state::keyed::DefaultKeyedStateStore,
};
use ipnet::IpNet;

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
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.is_trusted(peer) {
            return peer;
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse().ok())
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

/// Middleware on `/portal/api`: over the per-client rate → 429 envelope with `Retry-After`.
pub async fn limit_clients(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
        .unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let runtime = state.runtime();
    let ip = runtime.limits.client_ip(peer, request.headers());
    if let Err(refused) = runtime.limits.check_client(ip) {
        tracing::debug!(%ip, "client over its rate limit");
        return refused.into_response();
    }
    next.run(request).await
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
