//! `/healthz`: the process lives. `/readyz`: this process can serve — its config loaded, its
//! listener bound (it answers), the app's files present, a render engine built with them. It does not fail because the CMS is
//! down: the cache carries the site through an outage, and a probe that followed the CMS would
//! take every replica out of service at once. The CMS's state is reported in the body (and in
//! `portal_upstream_up`); `/readyz?upstream=1` asks the CMS now, for operators who want that.

use axum::{
    extract::State,
    response::{IntoResponse, Response},
};
use serde_json::json;

use crate::state::AppState;
use portal_cms::UpstreamState;
use portal_content::{
    envelope::{ApiError, Success},
    request::query::RawQuery,
};

/// Why this replica is not ready, or `None` when it is (`/readyz` and `portal_ready` ask).
pub fn not_ready(state: &AppState) -> Option<&'static str> {
    let runtime = state.runtime();
    if !runtime.app_files.has_index() {
        return Some("the app's files are missing: run `make frontend`");
    }
    // A page asked for now would wait for the engine being built, and could run out of time:
    // traffic comes once one is there (a few hundred milliseconds after a start).
    runtime
        .render
        .warming()
        .then_some("the page renderer is loading the app's server bundle")
}

pub async fn healthz() -> impl IntoResponse {
    Success(json!({ "status": "up" }))
}

pub async fn readyz(State(state): State<AppState>, query: RawQuery) -> Response {
    let runtime = state.runtime();
    if query.text("upstream").is_some_and(|v| v != "0") {
        return match runtime.content.upstream.probe().await {
            Ok(()) => {
                Success(json!({ "status": "ready", "upstream": UpstreamState::Up })).into_response()
            }
            Err(err) => ApiError::Upstream(err).into_response(),
        };
    }
    if let Some(why) = not_ready(&state) {
        return ApiError::NotReady(why).into_response();
    }
    let health = &state.upstream_health;
    Success(json!({
        "status": "ready",
        "upstream": health.state(),
        "upstreamSinceSeconds": health.for_how_long().as_secs(),
        // Readiness never waits for it: a replica serves from its memory while Redis is down.
        "sharedCache": match state.cache.shared() {
            None => "off",
            Some(tier) if tier.is_up() => "up",
            Some(_) => "down",
        },
        "search": state.search.report(state.cache.purges_applied()),
    }))
    .into_response()
}
