//! `GET /metrics`: the figures read at scrape time (readiness, the cache's size, the process),
//! then every family the recorder (`portal_core::metrics`) holds.

use axum::extract::State;

use crate::state::AppState;

/// `GET /metrics`: the figures read at scrape time (readiness, the cache's size, the process),
/// then every family.
pub async fn render(State(state): State<AppState>) -> String {
    metrics::counter!("portal_log_lines_dropped_total").absolute(crate::telemetry::dropped_lines());
    metrics::gauge!("portal_ready").set(if crate::health::not_ready(&state).is_none() {
        1.0
    } else {
        0.0
    });
    let (entries, bytes) = state.cache.size();
    metrics::gauge!("portal_cache_entries").set(entries as f64);
    metrics::gauge!("portal_cache_bytes").set(bytes as f64);
    portal_core::process::record();
    let handle = portal_core::metrics::handle();
    // Histograms keep their samples until drained; a scrape drains them.
    handle.run_upkeep();
    handle.render()
}
