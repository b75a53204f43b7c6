//! `[limits]`: per visitor address, the CMS's ceiling, and the bounds on a request and on a
//! peer's connections. Read by the top crate from the config file and the environment.

use serde::Deserialize;

/// Request limits: per visitor address, and a ceiling on calls to the CMS.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// API requests a second one client address may make (steady rate).
    pub per_client_per_second: u32,
    /// Requests a client may make at once above the steady rate.
    pub per_client_burst: u32,
    /// Uncached requests (each a load from the CMS) a second one client address may start, and
    /// its burst: its fair share of the CMS's calls, so one client cannot spend everyone's.
    pub per_client_cms_per_second: u32,
    pub per_client_cms_burst: u32,
    /// Calls a second the gateway makes to the CMS, all visitors together.
    pub upstream_per_second: u32,
    pub upstream_burst: u32,
    /// Calls to the CMS waiting for its answer at once; past it a visitor gets a stale answer
    /// or 503 with `Retry-After` instead of queueing on a CMS that is already struggling.
    pub upstream_concurrency: usize,
    /// Proxies whose `X-Forwarded-For` is believed: addresses (`127.0.0.1`, one address) or CIDR
    /// ranges (`10.42.0.0/16`).
    #[serde(deserialize_with = "addresses_or_ranges")]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Largest request header block (names and values together); larger → 431.
    pub max_header_bytes: usize,
    /// Longest request target (path and query); longer → 414.
    pub max_uri_bytes: usize,
    /// Connections one peer address may hold open at once; past it a new one is closed at once.
    /// Trusted proxies are not counted (every visitor behind one shares its address).
    pub max_connections_per_client: usize,
    /// Pages one client may have being rendered at once (those it started; not in the cache);
    /// past it, its next is the app shell at once (`limits/shares.rs`).
    pub per_client_renders: usize,
    /// Files one client may have streamed from the CMS at once (a `Range`, a file not kept: each
    /// holds a CMS connection while it lasts); past it, 429 at once.
    pub per_client_files: usize,
    /// Searches one client may have under way at once; past it, 429 at once.
    pub per_client_searches: usize,
}

impl LimitsConfig {
    /// The CMS's ceiling as the adapter takes it.
    pub fn cms_ceiling(&self) -> portal_cms::Ceiling {
        portal_cms::Ceiling {
            per_second: self.upstream_per_second,
            burst: self.upstream_burst,
            concurrency: self.upstream_concurrency,
        }
    }
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            per_client_per_second: 20,
            per_client_burst: 60,
            per_client_cms_per_second: 10,
            per_client_cms_burst: 60,
            upstream_per_second: 50,
            upstream_burst: 100,
            upstream_concurrency: 64,
            trusted_proxies: Vec::new(),
            max_header_bytes: 16 * 1024,
            max_uri_bytes: 4096,
            max_connections_per_client: 256,
            per_client_renders: 2,
            per_client_files: 8,
            per_client_searches: 2,
        }
    }
}

/// `trusted_proxies` as written: each an address or a CIDR range (an address is its own /32 or
/// /128), so `["127.0.0.1"]`, as nginx's example config says, is what it looks like.
fn addresses_or_ranges<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<ipnet::IpNet>, D::Error> {
    let written = Vec::<String>::deserialize(deserializer)?;
    written
        .iter()
        .map(|text| {
            let text = text.trim();
            text.parse::<ipnet::IpNet>()
                .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| {
                    serde::de::Error::custom(format!(
                        "`{text}` is neither an address (127.0.0.1, ::1) nor a CIDR range \
                         (10.42.0.0/16)"
                    ))
                })
        })
        .collect()
}
