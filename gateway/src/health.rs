//! `/healthz` says the process is up; `/readyz` says the CMS answers with our credential.

use axum::{extract::State, response::IntoResponse};
use serde_json::json;

use crate::{
    envelope::{ApiError, Success},
    state::AppState,
};

pub async fn healthz() -> impl IntoResponse {
    Success(json!({ "status": "up" }))
}

pub async fn readyz(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    state.runtime().upstream.probe().await?;
    Ok(Success(json!({ "status": "ready", "upstream": "ok" })))
}
