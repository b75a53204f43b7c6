//! `/portal/admin`: the operator's cache purge and cache view (`cache_view.rs`), behind the admin
//! token from config, and the CMS's webhook (`webhook.rs`), behind its HMAC signature.

mod cache_view;

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, header},
    routing::{any, get, post},
};
use secrecy::ExposeSecret;
use serde_json::json;
use subtle::ConstantTimeEq;

use crate::state::AppState;
use portal_cache::{Purge, PurgeOrigin};
use portal_content::{
    envelope::{ApiError, Success},
    limits::ADMIN_PREFIX,
    request::query::RawQuery,
};
use portal_core::model::tags;

/// Admin routes on their full paths; unknown ones answer 404 in the envelope.
pub fn router() -> Router<AppState> {
    use crate::api::not_found;
    Router::new()
        .route(&format!("{ADMIN_PREFIX}/cache"), get(cache_view::view))
        .route(&format!("{ADMIN_PREFIX}/cache/purge"), post(purge))
        .route(
            &format!("{ADMIN_PREFIX}/webhook"),
            post(crate::webhook::receive),
        )
        .route(ADMIN_PREFIX, any(not_found))
        .route(&format!("{ADMIN_PREFIX}/"), any(not_found))
        .route(&format!("{ADMIN_PREFIX}/{{*rest}}"), any(not_found))
}

/// The token a request presents: `Authorization: Bearer …` or `X-Admin-Token`.
fn presented(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .or_else(|| headers.get("x-admin-token").and_then(|v| v.to_str().ok()))
}

/// Lets the operator's request through: 404 while no admin token is configured (the admin API
/// is off), 401 unless the request presents it (compared in constant time).
fn authorise(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let runtime = state.runtime();
    let Some(token) = runtime.config.admin.token.as_ref() else {
        return Err(ApiError::NotFound("管理接口未启用。".to_owned()));
    };
    let allowed = presented(headers)
        .is_some_and(|p| bool::from(p.as_bytes().ct_eq(token.expose_secret().as_bytes())));
    if allowed {
        Ok(())
    } else {
        Err(ApiError::AdminRefused)
    }
}

/// `POST /portal/admin/cache/purge[?prefix=article/list][&tag=article:2101…][&hard=true]`: the
/// entries whose key starts with a prefix or that carry a tag, or every entry when neither is
/// given, on every replica. Soft by default: they are served stale while one refresh runs (and
/// while the CMS fails); `hard=true` deletes them. Off (404) while no admin token is configured.
async fn purge(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Success<serde_json::Value>, ApiError> {
    authorise(&state, &headers)?;
    let mut purge = Purge {
        prefixes: query.all("prefix").map(str::to_owned).collect(),
        tags: Vec::new(),
        hard: match query.text("hard").as_deref() {
            None | Some("false" | "0") => false,
            Some("true" | "1") => true,
            Some(_) => {
                return Err(ApiError::bad_query(
                    "hard",
                    "参数 hard 只能是 true 或 false。",
                ));
            }
        },
        evict: Vec::new(),
    };
    for tag in query.all("tag") {
        if !tags::is_valid(tag) {
            return Err(ApiError::bad_query(
                "tag",
                "参数 tag 应为 article:<编号>、category:<编号>、categories 或 articles。",
            ));
        }
        purge.tags.push(tag.to_owned());
    }
    let everything = purge.tags.is_empty() && purge.prefixes.iter().all(String::is_empty);
    if everything {
        purge.prefixes = vec![String::new()];
    }
    let reached = state.cache.purge(&purge, PurgeOrigin::Admin).await;
    tracing::info!(
        prefixes = ?purge.prefixes,
        tags = ?purge.tags,
        hard = purge.hard,
        entries = reached.len(),
        "cache purged"
    );
    let purged = if everything {
        "all".to_owned()
    } else {
        purge.prefixes.join(",")
    };
    Ok(Success(json!({
        "purged": purged,
        "tags": purge.tags,
        "hard": purge.hard,
        "entries": reached.len(),
    })))
}
