//! The per-client limit's policy (governor, keyed by client address, with trusted-proxy
//! `X-Forwarded-For`) and the handle the layer and the reload path share. The layer is in
//! `layer.rs`; the ceiling and the cap on CMS calls belong to the upstream client.

mod layer;
mod settings;
mod shares;

use std::{net::IpAddr, num::NonZeroU32, sync::Arc};

use arc_swap::ArcSwap;
use axum::http::HeaderMap;
use governor::{
    Quota, RateLimiter,
    clock::{Clock, DefaultClock},
    state::keyed::DefaultKeyedStateStore,
};
use ipnet::IpNet;

use crate::envelope::ApiError;
pub use layer::{ADMIN_PREFIX, ClientLimit, ClientLimitLayer, is_limited};
pub use settings::LimitsConfig;
pub use shares::{Held, Shares, Work};

type KeyedLimiter = RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock>;

tokio::task_local! {
    /// The client a request is served for, and its policy: set by the layer around every
    /// request, read where a request would start a load from the CMS (`charge_cms_share`).
    static CLIENT: (IpAddr, ClientLimits);
}

/// The key a client's allowances are counted under: its address, or for IPv6 the /64 it is in.
/// An IPv6 visitor is given a /64 (a home, a phone, a host) and picks any address in it at will, so
/// keyed by whole address one of them is 2^64 clients, each with a fresh allowance.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(std::net::Ipv6Addr::from(
            u128::from(v6) & !(u128::from(u64::MAX)),
        )),
        v4 => v4,
    }
}

/// Charges the client of the request being served one load from the CMS, against its share
/// (`limits.per_client_cms_*`); `Err` when that share is spent. Outside a request (a webhook's
/// refresh runs in its own task, a page's answers in its load's) nothing is charged.
pub fn charge_cms_share() -> Result<(), ApiError> {
    CLIENT
        .try_with(|(ip, limits)| {
            let policy = limits.policy();
            policy
                .cms_share
                .check_key(&client_key(*ip))
                .map_err(|not_until| ApiError::CmsShareSpent {
                    retry_after: not_until.wait_time_from(policy.clock.now()),
                })
        })
        .unwrap_or(Ok(()))
}

/// A place for `work` for the client of the request being served, held while the value lives
/// (`shares.rs`); `Err` when the client has its `limits.per_client_*` of it under way. Outside a
/// request nothing is counted (`None`).
pub fn take_share(work: Work) -> Result<Option<Held>, ApiError> {
    CLIENT
        .try_with(|(ip, limits)| limits.take_share(work, client_key(*ip)).map(Some))
        .unwrap_or(Ok(None))
}

/// Whether the client of the request being served has room for one more `work` now (outside a
/// request, always): a look, not a place held.
pub fn has_share_left(work: Work) -> bool {
    CLIENT
        .try_with(|(ip, limits)| limits.has_share_left(work, client_key(*ip)))
        .unwrap_or(true)
}

/// The client of the request being served, as its allowances key it (`client_key`); `None`
/// outside a request.
pub fn current_client() -> Option<IpAddr> {
    CLIENT.try_with(|(ip, _)| client_key(*ip)).ok()
}

/// `future` (a request's answer) served for the client `ip`: its loads from the CMS are charged to
/// that client's share under `policy`.
fn serve_for<F: std::future::Future>(
    ip: IpAddr,
    limits: ClientLimits,
    future: F,
) -> tokio::task::futures::TaskLocalFuture<(IpAddr, ClientLimits), F> {
    CLIENT.scope((ip, limits), future)
}

/// One version of the per-client policy, built from `[limits]`.
pub struct ClientPolicy {
    config: LimitsConfig,
    per_client: KeyedLimiter,
    cms_share: KeyedLimiter,
    trusted: Vec<IpNet>,
    clock: DefaultClock,
}

impl ClientPolicy {
    pub fn new(config: &LimitsConfig) -> Self {
        let rate = NonZeroU32::new(config.per_client_per_second).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(config.per_client_burst).unwrap_or(rate);
        let cms_rate = NonZeroU32::new(config.per_client_cms_per_second).unwrap_or(NonZeroU32::MIN);
        let cms_burst = NonZeroU32::new(config.per_client_cms_burst).unwrap_or(cms_rate);
        Self {
            config: config.clone(),
            per_client: RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)),
            cms_share: RateLimiter::keyed(Quota::per_second(cms_rate).allow_burst(cms_burst)),
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

    /// Refuses a request whose target or headers are larger than `[limits]` allows. Runs for
    /// every request: a length and a sum over the few headers it has.
    pub fn check_size(&self, request: &axum::extract::Request) -> Result<(), ApiError> {
        let target = request
            .uri()
            .path_and_query()
            .map_or(0, |pq| pq.as_str().len());
        if target > self.config.max_uri_bytes {
            return Err(ApiError::UriTooLong);
        }
        let headers: usize = request
            .headers()
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len())
            .sum();
        if headers > self.config.max_header_bytes {
            return Err(ApiError::HeadersTooLarge);
        }
        Ok(())
    }

    pub fn check_client(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.per_client
            .check_key(&client_key(ip))
            .map_err(|not_until| ApiError::RateLimited {
                retry_after: not_until.wait_time_from(self.clock.now()),
            })
    }
}

/// The per-client limiter as the layer and the reload path share it, and each client's work
/// under way. A reload swaps the policy only when `[limits]` changed, so visitors' allowances
/// survive unrelated reloads; the work under way is counted across reloads.
#[derive(Clone)]
pub struct ClientLimits(Arc<Limits>);

struct Limits {
    policy: ArcSwap<ClientPolicy>,
    under_way: shares::WorkShares,
}

impl ClientLimits {
    pub fn new(config: &LimitsConfig) -> Self {
        Self(Arc::new(Limits {
            policy: ArcSwap::from_pointee(ClientPolicy::new(config)),
            under_way: shares::WorkShares::default(),
        }))
    }

    /// Takes a reloaded `[limits]`.
    pub fn apply(&self, config: &LimitsConfig) {
        if self.0.policy.load().config != *config {
            self.0.policy.store(Arc::new(ClientPolicy::new(config)));
        }
    }

    /// A place for `work` for `client` (its key: `client_key`), held while the value lives;
    /// `Err` past its `limits.per_client_*`.
    pub fn take_share(&self, work: Work, client: IpAddr) -> Result<Held, ApiError> {
        self.0
            .under_way
            .enter(work, client, self.max(work))
            .ok_or(ApiError::ShareTaken(work.limit_label()))
    }

    /// Whether `client` has fewer than its `limits.per_client_*` of `work` under way.
    pub fn has_share_left(&self, work: Work, client: IpAddr) -> bool {
        self.0.under_way.count(work, client) < self.max(work)
    }

    fn max(&self, work: Work) -> usize {
        let config = &self.0.policy.load().config;
        match work {
            Work::Render => config.per_client_renders,
            Work::File => config.per_client_files,
            Work::Search => config.per_client_searches,
        }
    }

    pub fn forget_idle_clients(&self) {
        let policy = self.0.policy.load();
        for limiter in [&policy.per_client, &policy.cms_share] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    /// The policy in force, for one request (one load: see `layer.rs`).
    fn policy(&self) -> arc_swap::Guard<Arc<ClientPolicy>> {
        self.0.policy.load()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(trusted: &[&str]) -> LimitsConfig {
        LimitsConfig {
            per_client_per_second: 1,
            per_client_burst: 2,
            trusted_proxies: trusted.iter().map(|t| t.parse().unwrap()).collect(),
            ..LimitsConfig::default()
        }
    }

    fn limits(trusted: &[&str]) -> ClientPolicy {
        ClientPolicy::new(&config(trusted))
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
    fn an_ipv6_client_is_its_64_not_each_address_in_it() {
        let l = limits(&[]);
        let first: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        assert!(l.check_client(first).is_ok());
        assert!(l.check_client(first).is_ok());
        // Another address of the same /64 shares the spent allowance; another /64 does not.
        let same_64: IpAddr = "2001:db8:1:2:ffff:eeee:dddd:cccc".parse().unwrap();
        assert!(matches!(
            l.check_client(same_64),
            Err(ApiError::RateLimited { .. })
        ));
        let other_64: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert!(l.check_client(other_64).is_ok());
        assert_eq!(
            client_key("::ffff:203.0.113.9".parse().unwrap()),
            "203.0.113.9".parse::<IpAddr>().unwrap(),
            "IPv4, as a dual-stack listener sees it, by its address"
        );
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
    }

    #[test]
    fn a_reload_keeps_allowances_unless_the_limits_changed() {
        let limits = ClientLimits::new(&config(&[]));
        let peer: IpAddr = "192.0.2.1".parse().unwrap();
        let check = |limits: &ClientLimits| limits.policy().check_client(peer);
        assert!(check(&limits).is_ok());
        assert!(check(&limits).is_ok());
        assert!(check(&limits).is_err());
        limits.apply(&config(&[]));
        assert!(check(&limits).is_err(), "same limits: spent stays spent");
        limits.apply(&LimitsConfig {
            per_client_burst: 3,
            ..config(&[])
        });
        assert!(check(&limits).is_ok(), "new limits start afresh");
    }
}
