//! The editor's side, small: publish, change and take down articles through `/admin/articles`
//! (same client credential as the API), each followed by a signed webhook notice to the gateway
//! (`REFERENCE_CMS_WEBHOOK_URL`, `REFERENCE_CMS_WEBHOOK_SECRET`), as a production CMS would send on
//! publishing. The change lives in memory until the CMS stops.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::{
    Json, Router,
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{post, put},
};
use hmac::{Hmac, KeyInit, Mac};
use serde::Deserialize;
use serde_json::{Map, json};
use sha2::Sha256;

use crate::{
    AppState,
    content::{Article, ArticleEdit},
};

/// Notices sent by this process: each one's nonce.
static NOTICES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Where and how to tell the gateway of a change.
#[derive(Clone, Debug)]
pub struct Webhook {
    pub url: String,
    pub secret: String,
}

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/articles", post(publish))
        .route("/admin/articles/{id}", put(update).delete(take_down))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewArticle {
    category_id: u64,
    title: String,
    #[serde(default)]
    summary: Option<String>,
    #[serde(default)]
    content: String,
    /// `yyyy-MM-dd HH:mm:ss`; now when absent.
    #[serde(default)]
    publish_time: Option<String>,
}

async fn publish(State(state): State<AppState>, Json(new): Json<NewArticle>) -> Response {
    let result = state.edit(|content| {
        let id = content.next_article_id();
        let mut extra = Map::new();
        if let Some(summary) = new.summary {
            extra.insert("summary".to_owned(), json!(summary));
        }
        let article = Article {
            id,
            category_id: new.category_id,
            title: new.title,
            publish_time: new.publish_time.unwrap_or_else(now_text),
            content: new.content,
            extra,
        };
        content.add_article(article).map(|()| (id, new.category_id))
    });
    match result {
        Ok((id, category)) => notify(&state, "publish", id, category, StatusCode::CREATED).await,
        Err(err) => (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": err.to_string() })),
        )
            .into_response(),
    }
}

async fn update(
    State(state): State<AppState>,
    Path(id): Path<u64>,
    Json(edit): Json<ArticleEdit>,
) -> Response {
    match state.edit(|content| content.update_article(id, &edit)) {
        Some(category) => notify(&state, "update", id, category, StatusCode::OK).await,
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn take_down(State(state): State<AppState>, Path(id): Path<u64>) -> Response {
    match state.edit(|content| content.remove_article(id)) {
        Some(category) => notify(&state, "delete", id, category, StatusCode::OK).await,
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Sends the signed notice (when a webhook is configured) and answers the editor with what the
/// gateway said: `{"id", "webhook": <status or null>}`.
async fn notify(
    state: &AppState,
    event: &str,
    id: u64,
    category: u64,
    status: StatusCode,
) -> Response {
    let webhook_status = match &state.webhook {
        None => None,
        Some(webhook) => {
            let body = json!({
                "event": event,
                "type": "article",
                "id": id,
                "categoryId": category,
                "time": SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs(),
                // Two edits within a second are two notices (the gateway refuses a replay).
                "nonce": format!("{}-{}", std::process::id(), NOTICES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)),
            })
            .to_string();
            // reqwest has no TLS provider of its own in this workspace (its `Cargo.toml`).
            if rustls::crypto::CryptoProvider::get_default().is_none() {
                let _ = rustls::crypto::ring::default_provider().install_default();
            }
            let sent = reqwest::Client::new()
                .post(&webhook.url)
                .header("content-type", "application/json")
                .header(
                    "x-portal-signature",
                    sign(webhook.secret.as_bytes(), body.as_bytes()),
                )
                .body(body)
                .send()
                .await;
            match sent {
                Ok(answer) => Some(answer.status().as_u16()),
                Err(err) => {
                    tracing::warn!(error = %err, "webhook not delivered");
                    Some(0)
                }
            }
        }
    };
    (status, Json(json!({ "id": id, "webhook": webhook_status }))).into_response()
}

/// `sha256=<hex>` of HMAC-SHA256 over the body: the gateway's contract (docs/operations.md).
fn sign(secret: &[u8], body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Now in China time, as the CMS writes publish times.
fn now_text() -> String {
    let china = chrono::FixedOffset::east_opt(8 * 3600).expect("a valid offset");
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    chrono::DateTime::from_timestamp(i64::try_from(secs).unwrap_or(0), 0)
        .unwrap_or_default()
        .with_timezone(&china)
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}
