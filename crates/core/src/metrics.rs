//! Prometheus metrics: requests by route and code and their duration, cache outcomes by endpoint,
//! purges and their lag, upstream latency, refusals, server renders, readiness and the process's
//! own figures: the recorder, every family's description and the recording functions the layers
//! call. The scrape (`GET /metrics`) is the gateway's (`portal-gateway`'s `metrics.rs`).
//! Names follow Prometheus's conventions: base units (`_seconds`, `_bytes`), `_total` on counters,
//! lowercase label values, a `# HELP` line for every family (`describe`); docs/operations.md
//! ("Metrics") lists them.

use std::{
    sync::{LazyLock, OnceLock, RwLock},
    time::Duration,
};

use metrics::{Counter, Histogram, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::endpoint::Endpoint;

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// How often the histograms' samples are folded into their buckets without a scrape: the
/// recorder keeps every sample until then, and `install_recorder` starts no task that does it
/// (`make bench`: 135 MB of RSS after ~9 M requests unscraped, 41 MB before the per-request
/// histogram; a gateway nobody scrapes would grow without end).
pub const UPKEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Folds the histograms' pending samples into their buckets (`UPKEEP_EVERY`, and each scrape).
pub fn upkeep() {
    handle().run_upkeep();
}

/// The process-wide recorder (installed once; every app in a test process shares it).
pub fn handle() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("portal_upstream_duration_seconds".to_owned()),
                    &[
                        0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 12.0,
                    ],
                )
                .expect("bucket list is not empty")
                .set_buckets_for_metric(
                    Matcher::Full("portal_request_duration_seconds".to_owned()),
                    &[
                        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                        5.0, 12.0,
                    ],
                )
                .expect("bucket list is not empty")
                .set_buckets_for_metric(
                    Matcher::Full("portal_cache_purge_lag_seconds".to_owned()),
                    &[
                        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                        10.0,
                    ],
                )
                .expect("bucket list is not empty")
                .set_buckets_for_metric(
                    Matcher::Full("portal_render_duration_seconds".to_owned()),
                    &[
                        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                        10.0,
                    ],
                )
                .expect("bucket list is not empty")
                .set_buckets_for_metric(
                    Matcher::Full("portal_search_duration_seconds".to_owned()),
                    &[
                        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                    ],
                )
                .expect("bucket list is not empty")
                .install_recorder()
                .expect("no other metrics recorder is installed");
            describe();
            handle
        })
        .clone()
}

/// The `# HELP` and `# TYPE` of every family, once.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        "portal_requests_total",
        "Answers by route (an API endpoint's label or the area) and status code."
    );
    describe_histogram!(
        "portal_request_duration_seconds",
        Unit::Seconds,
        "Time from a request's head to its answer's head, by route (file bodies stream after it)."
    );
    describe_counter!(
        "portal_cache_total",
        "Cache outcomes (hit, miss, stale, bypass) by endpoint (the table's, crawl, page)."
    );
    describe_counter!(
        "portal_page_renders_total",
        "React renders of pages on the server: one a page, unless a page asks for what its loader did not name."
    );
    describe_counter!(
        "portal_page_fallbacks_total",
        "Pages answered with the app shell because their render failed, by reason."
    );
    describe_counter!(
        "portal_shared_cache_rejected_total",
        "Entries of the shared cache ignored as none the gateway writes, by reason."
    );
    describe_counter!(
        "portal_connections_closed_total",
        "Connections the gateway closed, by reason (silent: no first byte; idle; per_client: over the address's share; evicted: idle longest when server.max_connections were open and another came)."
    );
    describe_counter!(
        "portal_cache_purges_total",
        "Purges applied to this replica's memory, by origin (admin, webhook, pubsub, reconnect)."
    );
    describe_counter!(
        "portal_cache_purged_entries_total",
        "Entries of this replica's memory a purge reached, by origin."
    );
    describe_histogram!(
        "portal_cache_purge_lag_seconds",
        Unit::Seconds,
        "Time from a purge published by another replica to its application here (wall clocks)."
    );
    describe_gauge!(
        "portal_cache_entries",
        "Entries in this replica's memory (read at scrape)."
    );
    describe_gauge!(
        "portal_cache_bytes",
        Unit::Bytes,
        "Weight of this replica's memory cache: bodies, their encodings and keys (read at scrape)."
    );
    describe_histogram!(
        "portal_upstream_duration_seconds",
        Unit::Seconds,
        "CMS calls' time by endpoint and outcome (ok, error)."
    );
    describe_counter!(
        "portal_rate_limited_total",
        "Refusals by limit (client, upstream, upstream_concurrency)."
    );
    describe_gauge!(
        "portal_upstream_up",
        "1 while the CMS's last calls succeeded, 0 while they fail."
    );
    describe_counter!(
        "portal_upstream_credential_refused_total",
        "CMS calls that refused the gateway's own credential."
    );
    describe_gauge!(
        "portal_shared_cache_up",
        "1 while the shared tier (Redis) answers, 0 while this replica goes on alone."
    );
    describe_counter!(
        "portal_shared_cache_errors_total",
        "Failed or timed-out commands to the shared tier."
    );
    describe_counter!(
        "portal_shared_cache_lock_waits_total",
        "Waits for another replica's load of a key, by outcome (answered: its answer came; gave_up: the wait ran out and this replica called the CMS)."
    );
    describe_counter!(
        "portal_shared_cache_lookups_total",
        "Memory misses looked up in the shared tier, by result (found, absent)."
    );
    describe_histogram!(
        "portal_render_duration_seconds",
        Unit::Seconds,
        "Server renders that answered HTML: from the call to its answer, the wait in the queue included."
    );
    describe_counter!(
        "portal_render_failures_total",
        "Server renders that gave no HTML, by reason (no_bundle, busy, timed_out, out_of_memory, script, unavailable)."
    );
    describe_counter!(
        "portal_render_engine_restarts_total",
        "Render engines dropped and built afresh after a time-out, running out of memory or another failure that may have left them unsound."
    );
    describe_histogram!(
        "portal_search_duration_seconds",
        Unit::Seconds,
        "Searches answered by the gateway's own index: the query, its fragments and section counts."
    );
    describe_gauge!(
        "portal_search_ready",
        "1 while the gateway's search index answers, 0 while it is off, being built or failed."
    );
    describe_gauge!(
        "portal_search_articles",
        "Articles the gateway's search index holds (or has read so far, while it is built)."
    );
    describe_gauge!(
        "portal_search_index_bytes",
        "Bytes the gateway's search index holds (its segments), at its last commit."
    );
    describe_gauge!(
        "portal_search_index_full",
        "1 while the search index in memory is at search.max_memory_bytes and holds only the newest articles that fit."
    );
    describe_counter!(
        "portal_log_lines_dropped_total",
        "Log lines dropped because the writer fell behind."
    );
    describe_gauge!(
        "portal_ready",
        "1 while /readyz answers ready, 0 while not (read at scrape)."
    );
    describe_gauge!(
        "process_resident_memory_bytes",
        Unit::Bytes,
        "Resident memory size (read from /proc at scrape)."
    );
    describe_gauge!(
        "process_virtual_memory_bytes",
        Unit::Bytes,
        "Virtual memory size (read from /proc at scrape)."
    );
    describe_counter!(
        "process_cpu_seconds_total",
        Unit::Seconds,
        "User and system CPU time spent (read from /proc at scrape)."
    );
    describe_gauge!(
        "process_open_fds",
        "Open file descriptors (read from /proc at scrape)."
    );
    describe_gauge!(
        "process_max_fds",
        "The limit on open file descriptors (read from /proc at scrape)."
    );
    describe_gauge!(
        "process_start_time_seconds",
        Unit::Seconds,
        "Start time of the process since the Unix epoch."
    );
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

/// `portal_request_duration_seconds{route}` handles, found as `requests_counter`'s are.
static DURATIONS: LazyLock<RwLock<Vec<(&'static str, Histogram)>>> =
    LazyLock::new(Default::default);

pub fn request_duration(route: &'static str) -> Histogram {
    let find = |known: &[(&'static str, Histogram)]| {
        known
            .iter()
            .find(|(r, _)| *r == route)
            .map(|(_, h)| h.clone())
    };
    if let Some(histogram) = find(&DURATIONS.read().expect("metrics lock")) {
        return histogram;
    }
    let mut known = DURATIONS.write().expect("metrics lock");
    if let Some(histogram) = find(&known) {
        return histogram;
    }
    let histogram = metrics::histogram!("portal_request_duration_seconds", "route" => route);
    known.push((route, histogram.clone()));
    histogram
}

/// A purge applied to this replica's memory, and how many entries it reached.
pub fn purged(origin: &'static str, entries: usize) {
    metrics::counter!("portal_cache_purges_total", "origin" => origin).increment(1);
    metrics::counter!("portal_cache_purged_entries_total", "origin" => origin)
        .increment(entries as u64);
}

/// How long another replica's purge took to arrive here.
pub fn purge_lag(lag: Duration) {
    metrics::histogram!("portal_cache_purge_lag_seconds").record(lag.as_secs_f64());
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

/// `portal_shared_cache_lock_waits_total{outcome}`: a replica found another loading a key and
/// waited; `answered` when that replica's answer came, `gave_up` when the wait (the upstream
/// time-out) ran out and this replica called the CMS itself: a second call for one key.
pub fn shared_cache_lock_wait(answered: bool) {
    let outcome = if answered { "answered" } else { "gave_up" };
    metrics::counter!("portal_shared_cache_lock_waits_total", "outcome" => outcome).increment(1);
}

/// `portal_shared_cache_rejected_total{reason}`: an entry of the shared tier the gateway could
/// not have written (`too_large`, `damaged`, `status`, `type`, `future`, `encoding`), ignored.
pub fn shared_cache_rejected(reason: &'static str) {
    metrics::counter!("portal_shared_cache_rejected_total", "reason" => reason).increment(1);
}

/// `portal_render_duration_seconds`: a server render that answered HTML.
pub fn render_succeeded(took: Duration) {
    metrics::histogram!("portal_render_duration_seconds").record(took.as_secs_f64());
}

/// `portal_render_failures_total{reason}`: a server render that gave no HTML
/// (`render::RenderError::reason`).
pub fn render_failed(reason: &'static str) {
    metrics::counter!("portal_render_failures_total", "reason" => reason).increment(1);
}

/// `portal_render_engine_restarts_total`: an engine dropped after a failure and built afresh.
pub fn render_engine_restarted() {
    metrics::counter!("portal_render_engine_restarts_total").increment(1);
}

/// `portal_search_duration_seconds`: a search the index answered.
pub fn search_query(took: Duration) {
    metrics::histogram!("portal_search_duration_seconds").record(took.as_secs_f64());
}

/// `portal_search_ready` and `portal_search_articles`: whether the index answers, and how many
/// articles it holds (or has read, while it builds).
pub fn search_status(ready: bool, articles: usize) {
    metrics::gauge!("portal_search_ready").set(if ready { 1.0 } else { 0.0 });
    metrics::gauge!("portal_search_articles").set(articles as f64);
}

/// `portal_search_index_bytes` and `portal_search_index_full`: what the index holds, and whether
/// it is at its memory budget.
pub fn search_size(bytes: u64, full: bool) {
    metrics::gauge!("portal_search_index_bytes").set(bytes as f64);
    metrics::gauge!("portal_search_index_full").set(if full { 1.0 } else { 0.0 });
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
