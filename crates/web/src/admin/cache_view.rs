//! `GET /portal/admin/cache`: what this replica's cache holds, per kind of answer, with the
//! effective TTLs under the current config and the shared tier's state; `?key=<cache key>`: one
//! entry (age, what is left of its windows, tags, encodings, where it came from). Behind the
//! admin token like the purge; read by `portal-gateway cache stats|show`.

use axum::{extract::State, http::HeaderMap};
use serde_json::Value;

use super::authorise;
use crate::state::AppState;
use portal_content::{
    envelope::{ApiError, Success},
    request::query::RawQuery,
};

/// The longest key asked for: longer than any key the gateway makes (a search's keyword is
/// bounded well below it).
const KEY_MAX: usize = 1024;

pub async fn view(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Success<Value>, ApiError> {
    authorise(&state, &headers)?;
    let content = state.content();
    let config = &content.source().cache;
    let timeout = content.cms_timeout();
    let Some(key) = query.text("key") else {
        let overview = state.cache.overview(config, timeout).await;
        return Ok(Success(serde_json::to_value(overview).map_err(|_| {
            ApiError::Internal("the cache overview does not serialise")
        })?));
    };
    if key.is_empty() || key.len() > KEY_MAX {
        return Err(ApiError::bad_query(
            "key",
            "参数 key 应为缓存键，如 article/list?categoryId=21&page=1&size=10。",
        ));
    }
    let Some(entry) = state.cache.inspect(&key, config, timeout).await else {
        return Err(ApiError::NotFound("缓存中没有这个键。".to_owned()));
    };
    serde_json::to_value(entry)
        .map(Success)
        .map_err(|_| ApiError::Internal("the cache entry does not serialise"))
}
