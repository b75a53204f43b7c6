//! `/portal/admin`: the operator's cache purge, behind the admin token from config.

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, header},
    routing::{any, post},
};
use secrecy::ExposeSecret;
use serde_json::json;
use subtle::ConstantTimeEq;

use crate::{
    api::query::RawQuery,
    envelope::{ApiError, Success},
    limits::ADMIN_PREFIX,
    state::AppState,
};

/// Admin routes on their full paths; unknown ones answer 404 in the envelope.
pub fn router() -> Router<AppState> {
    use crate::api::not_found;
    Router::new()
        .route(&format!("{ADMIN_PREFIX}/cache/purge"), post(purge))
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

/// `POST /portal/admin/cache/purge[?prefix=article/list]`: drops all entries, or those whose key
/// starts with the prefix. Off (404) while no admin token is configured.
async fn purge(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Success<serde_json::Value>, ApiError> {
    let runtime = state.runtime();
    let Some(token) = runtime.config.admin.token.as_ref() else {
        return Err(ApiError::NotFound("管理接口未启用。".to_owned()));
    };
    let allowed = presented(&headers)
        .is_some_and(|p| bool::from(p.as_bytes().ct_eq(token.expose_secret().as_bytes())));
    if !allowed {
        return Err(ApiError::AdminRefused);
    }
    let prefix = query.text("prefix").unwrap_or_default();
    state
        .cache
        .purge(&prefix)
        .map_err(|_| ApiError::Internal("cache purge failed"))?;
    tracing::info!(prefix = %prefix, "cache purged");
    Ok(Success(
        json!({ "purged": if prefix.is_empty() { "all".to_owned() } else { prefix } }),
    ))
}
