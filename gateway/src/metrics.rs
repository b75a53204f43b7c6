//! Prometheus metrics: requests by route and code, cache outcomes, upstream latency, refusals.

use std::sync::{LazyLock, OnceLock, RwLock};

use metrics::Counter;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::endpoint::Endpoint;

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process-wide recorder (installed once; every app in a test process shares it).
pub fn handle() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("portal_upstream_duration_seconds".to_owned()),
                    &[
                        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 12.0,
                    ],
                )
                .expect("bucket list is not empty")
                .install_recorder()
                .expect("no other metrics recorder is installed")
        })
        .clone()
}

/// A bounded label for a request path: the API endpoint's label from the table, or the area of
/// the site.
pub fn route_label(path: &str) -> &'static str {
    if let Some(endpoint) = Endpoint::of_path(path) {
        return endpoint.metrics_label();
    }
    match path {
        "/healthz" => "healthz",
        "/readyz" => "readyz",
        "/metrics" => "metrics",
        p if p.starts_with("/portal/api") => "api-other",
        p if p.starts_with("/portal/admin") => "admin",
        p if p.starts_with("/portal") => "static",
        _ => "other",
    }
}

/// Counter handles by label set, so a request costs a short scan under a read lock, not a
/// registry search (there are a few dozen route and code pairs at most).
static REQUESTS: LazyLock<RwLock<Vec<RequestCounter>>> = LazyLock::new(Default::default);

/// One `portal_requests_total` series: route label, status code, handle.
type RequestCounter = (&'static str, u16, Counter);

pub fn requests_counter(route: &'static str, code: u16) -> Counter {
    let find = |known: &[RequestCounter]| {
        known
            .iter()
            .find(|(r, c, _)| *c == code && *r == route)
            .map(|(_, _, counter)| counter.clone())
    };
    if let Some(counter) = find(&REQUESTS.read().expect("metrics lock")) {
        return counter;
    }
    let mut known = REQUESTS.write().expect("metrics lock");
    if let Some(counter) = find(&known) {
        return counter;
    }
    let counter =
        metrics::counter!("portal_requests_total", "route" => route, "code" => code.to_string());
    known.push((route, code, counter.clone()));
    counter
}

/// `portal_cache_total{result}` by outcome, resolved once.
pub fn cache_outcome(outcome: &'static str) -> &'static Counter {
    static COUNTERS: LazyLock<[(&'static str, Counter); 4]> = LazyLock::new(|| {
        ["HIT", "MISS", "STALE", "BYPASS"]
            .map(|r| (r, metrics::counter!("portal_cache_total", "result" => r)))
    });
    let counters = &*COUNTERS;
    &counters
        .iter()
        .find(|(r, _)| *r == outcome)
        .unwrap_or(&counters[1])
        .1
}

/// `portal_shared_cache_up`: 1 while the shared tier (Redis) answers, 0 while the replica goes on
/// alone.
pub fn shared_cache_up(up: bool) {
    metrics::gauge!("portal_shared_cache_up").set(if up { 1.0 } else { 0.0 });
}

/// `portal_shared_cache_errors_total`: failed or timed-out commands to the shared tier.
pub fn shared_cache_error() {
    metrics::counter!("portal_shared_cache_errors_total").increment(1);
}

/// `portal_shared_cache_lookups_total{result}`: memory misses looked up in the shared tier.
pub fn shared_cache_lookup(found: bool) {
    static COUNTERS: LazyLock<[Counter; 2]> = LazyLock::new(|| {
        ["found", "absent"]
            .map(|r| metrics::counter!("portal_shared_cache_lookups_total", "result" => r))
    });
    COUNTERS[usize::from(!found)].increment(1);
}

pub async fn render() -> String {
    metrics::counter!("portal_log_lines_dropped_total").absolute(crate::telemetry::dropped_lines());
    handle().render()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_endpoint_is_counted_under_its_own_label() {
        for endpoint in Endpoint::ALL {
            let path = endpoint.sample_path();
            assert_eq!(route_label(&path), endpoint.metrics_label(), "{endpoint:?}");
        }
        assert_eq!(route_label("/portal/api/nothing"), "api-other");
        assert_eq!(route_label("/portal/admin/cache/purge"), "admin");
        assert_eq!(route_label("/portal/assets/main.js"), "static");
    }
}
