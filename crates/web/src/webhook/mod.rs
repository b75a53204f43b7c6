//! `POST /portal/admin/webhook`: the CMS says what changed, the gateway purges the answers that
//! show it (by tag, on every replica) and loads the changed article and the first pages of its
//! lists again at once, so an edit is live within a second of publishing rather than a TTL later.
//!
//! The notice (JSON) is signed by the CMS with HMAC-SHA256 over the raw body, keyed with
//! `admin.webhook_secret`, and sent as `X-Portal-Signature: sha256=<hex>`; its `time` (Unix
//! seconds) must be within `admin.webhook_max_age`, so a captured notice cannot be replayed later.
//!
//! A CMS whose built-in webhooks cannot sign sends the secret itself in `admin.webhook_header`
//! instead, and its own payload, which is recognised: Strapi's (`{event: "entry.update", model,
//! entry: {id, category}}`) and Directus's (`{event: "items.update", collection, keys}`). Such a
//! notice has no time and no signature, so it cannot be refused as a replay; a replay only purges
//! and reloads what the CMS already has, within the admin endpoints' per-client limit.
//! docs/operations.md has the contract for CMS owners.

pub mod seen;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::{body::Bytes, extract::State, http::HeaderMap};
use futures_util::StreamExt;
use hmac::{Hmac, KeyInit, Mac};
use secrecy::ExposeSecret;
use serde::Deserialize;
use serde_json::json;
use sha2::Sha256;

use crate::state::AppState;
use portal_cache::Purge;
use portal_content::envelope::{ApiError, Success};
use portal_core::{
    endpoint::{CacheKey, Endpoint},
    model::{Id, tags},
};

pub const SIGNATURE_HEADER: &str = "x-portal-signature";
/// Largest notice accepted (a notice is a few dozen bytes).
const MAX_BODY: usize = 16 * 1024;
/// Refreshes run together, at most this many (each is one CMS call at most).
const MAX_REFRESHES: usize = 16;
/// Pages a notice renders again at most (the home page, the article's, its lists'; a change to
/// the tree reaches every page, and the rest render on their next visit, as after any purge).
const MAX_PAGE_RENDERS: usize = 32;
/// The cache keys of rendered pages (`pages`).
const PAGE_PREFIX: &str = "page/";
/// How far ahead of this replica's clock a notice may be dated: the CMS's clock and ours differ
/// by seconds, not minutes (a notice dated minutes ahead would outlive the replay window).
const FUTURE_SKEW: Duration = Duration::from_secs(30);
/// What changed in the CMS.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Notice {
    pub event: Event,
    #[serde(rename = "type")]
    pub kind: Kind,
    /// The CMS's id of what changed: a whole number or a string (`Id`).
    pub id: Id,
    /// An article's category (its lists change too).
    #[serde(default)]
    pub category_id: Option<Id>,
    /// Every category of an article filed under several (WordPress): each one's lists change.
    #[serde(default)]
    pub category_ids: Vec<Id>,
    /// When the CMS signed it, Unix seconds.
    pub time: u64,
    /// Anything unique to this notice (a counter, a UUID): two edits of one article within the
    /// same second are two notices, not one notice and its replay. Unused otherwise.
    #[serde(default)]
    pub nonce: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    Publish,
    Update,
    Unpublish,
    Delete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Article,
    Category,
}

/// What a notice says changed, whatever form it came in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub event: Event,
    pub kind: Kind,
    pub id: Id,
    /// The article's categories, when the notice names them (none: read from the article).
    pub categories: Vec<Id>,
}

impl From<&Notice> for Change {
    fn from(notice: &Notice) -> Self {
        Self {
            event: notice.event,
            kind: notice.kind,
            id: notice.id.clone(),
            categories: {
                let mut all: Vec<Id> = notice.category_id.iter().cloned().collect();
                all.extend(notice.category_ids.iter().take(MAX_REFRESHES).cloned());
                all.dedup();
                all
            },
        }
    }
}

/// An id as a CMS's payload writes it: a number, or a string (Directus sends keys as strings).
fn id_of(value: &serde_json::Value) -> Option<Id> {
    match value {
        serde_json::Value::Number(n) => n.as_u64().map(Id::number),
        serde_json::Value::String(s) => Id::parse(s.trim()).ok(),
        _ => None,
    }
}

/// The changes a CMS's own webhook payload names: Strapi's `{event: "entry.<what>", model, entry}`
/// or Directus's `{event: "items.<what>", collection, keys | key}`. `None` when `body` is neither;
/// an empty list when it is about a content type the portal does not show. Strapi's entry is
/// read as the dialect reads an article (its id where `fields.article.id` says: `documentId`
/// for a portal addressed by it; its category where `fields.article.category_id` says).
fn changes_in_cms_payload(
    body: &serde_json::Value,
    admin: &crate::config::AdminConfig,
    content: &portal_content::ContentService<'_>,
) -> Option<Vec<Change>> {
    let event = body.get("event")?.as_str()?;
    let (what, type_name, ids, category_id) = if let Some(what) = event.strip_prefix("entry.") {
        let entry = body.get("entry")?;
        let model = body.get("model")?.as_str()?;
        let article = admin
            .webhook_article_types
            .iter()
            .any(|t| t.eq_ignore_ascii_case(model));
        let (id, category_id) = if article {
            (
                content.article_id_in(entry),
                content.article_category_in(entry),
            )
        } else {
            (content.category_id_in(entry), None)
        };
        // A field the dialect does not read (an older payload): Strapi's own key, `documentId`
        // where the portal goes by text ids, its row `id` where by numbers. Under text ids a row
        // `id` names nothing the portal knows: a category not read is then left to the article's
        // fresh detail (`place`), and an article not read makes the payload unreadable (400).
        let own = if content.ids_are_text() {
            "documentId"
        } else {
            "id"
        };
        let id = id.or_else(|| id_of(entry.get(own)?))?;
        let category_id = category_id.or_else(|| {
            let category = entry.get("category")?;
            category.get(own).and_then(id_of).or_else(|| {
                (!content.ids_are_text() || category.is_string())
                    .then(|| id_of(category))
                    .flatten()
            })
        });
        (what, model, vec![id], category_id)
    } else if let Some(what) = event
        .strip_prefix("items.")
        // A Directus Flow's event hook names the collection first: `articles.items.update`.
        .or_else(|| event.split_once(".items.").map(|(_, what)| what))
    {
        let ids: Vec<Id> = match (body.get("keys"), body.get("key")) {
            (Some(keys), _) => keys.as_array()?.iter().filter_map(id_of).collect(),
            (None, Some(key)) => vec![id_of(key)?],
            (None, None) => return None,
        };
        (what, body.get("collection")?.as_str()?, ids, None)
    } else if event.contains('.') {
        // Another event of such a CMS (Strapi's `media.create`, `review-workflows.…`): taken,
        // nothing the portal shows changed. (The gateway's own events have no dot.)
        return Some(Vec::new());
    } else {
        return None;
    };
    let event = match what {
        "create" | "publish" => Event::Publish,
        "update" => Event::Update,
        "unpublish" => Event::Unpublish,
        "delete" => Event::Delete,
        _ => return Some(Vec::new()),
    };
    let named = |types: &[String]| types.iter().any(|t| t.eq_ignore_ascii_case(type_name));
    let kind = if named(&admin.webhook_article_types) {
        Kind::Article
    } else if named(&admin.webhook_category_types) {
        Kind::Category
    } else {
        return Some(Vec::new());
    };
    Some(
        ids.into_iter()
            .take(MAX_REFRESHES)
            .map(|id| Change {
                event,
                kind,
                id,
                categories: category_id.iter().cloned().collect(),
            })
            .collect(),
    )
}

/// Whether `presented` (the header's value, or `Bearer <value>`) is `secret`, compared in
/// constant time.
fn same_secret(secret: &[u8], presented: &str) -> bool {
    let presented = presented.trim();
    let presented = presented
        .strip_prefix("Bearer ")
        .unwrap_or(presented)
        .trim();
    // HMAC both and compare the digests: equal time whatever the lengths.
    let keyed = || {
        Hmac::<Sha256>::new_from_slice(b"portal-webhook-header")
            .expect("HMAC takes keys of any length")
    };
    let mut expected = keyed();
    expected.update(secret);
    let mut given = keyed();
    given.update(presented.as_bytes());
    given
        .verify_slice(&expected.finalize().into_bytes())
        .is_ok()
}

/// `sha256=<hex>` of `body` under `secret`: what the CMS sends (reference-cms signs this way).
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Whether `presented` is the signature of `body` (compared in constant time).
fn verify(secret: &[u8], body: &[u8], presented: &str) -> bool {
    let Some(hex_digest) = presented.trim().strip_prefix("sha256=") else {
        return false;
    };
    let Ok(digest) = hex::decode(hex_digest) else {
        return false;
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(body);
    mac.verify_slice(&digest).is_ok()
}

impl Change {
    /// The tags of the answers that show what changed.
    fn tags(&self) -> Vec<String> {
        match self.kind {
            Kind::Article => {
                let mut tags = vec![tags::article(&self.id), tags::ALL_ARTICLES.to_owned()];
                tags.extend(self.categories.iter().map(tags::category));
                tags
            }
            Kind::Category => vec![
                tags::CATEGORIES.to_owned(),
                tags::category(&self.id),
                tags::ALL_ARTICLES.to_owned(),
            ],
        }
    }

    /// Gone from the CMS: its answers are deleted, not served stale.
    fn removes(&self) -> bool {
        matches!(self.event, Event::Unpublish | Event::Delete)
    }
}

pub async fn receive(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Success<serde_json::Value>, ApiError> {
    // Over the server's body bound (or cut off): the envelope, not the extractor's plain text.
    let body = body.map_err(|_| ApiError::BodyTooLarge)?;
    let runtime = state.runtime();
    let admin = &runtime.config.admin;
    let Some(secret) = admin.webhook_secret.as_ref() else {
        return Err(ApiError::NotFound("内容通知接口未启用。".to_owned()));
    };
    if body.len() > MAX_BODY {
        return Err(ApiError::BodyTooLarge);
    }
    // With a header configured, a notice that carries it is read by it; one that does not must
    // be signed, as ever (a CMS that signs keeps working when the header mode is turned on).
    let in_header = (!admin.webhook_header.is_empty())
        .then(|| headers.get(admin.webhook_header.as_str()))
        .flatten();
    let changes = if let Some(presented) = in_header {
        let presented = presented.to_str().unwrap_or("");
        if !same_secret(secret.expose_secret().as_bytes(), presented) {
            return Err(ApiError::WebhookRefused("secret header missing or wrong"));
        }
        let value: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|err| ApiError::bad_query("body", format!("通知内容无法识别：{err}")))?;
        match changes_in_cms_payload(&value, admin, &state.content()) {
            Some(changes) => changes,
            // The gateway's own notice, sent with the header rather than signed.
            None => vec![Change::from(&read_notice(&body)?)],
        }
    } else {
        signed_notice(&state, admin, secret, &headers, &body).await?
    };

    let applied = apply(&state, &changes, admin.webhook_refresh).await;
    tracing::info!(
        changes = ?changes,
        entries = applied.entries,
        refreshed = applied.refreshed.len(),
        "CMS webhook applied"
    );
    Ok(Success(json!({
        "tags": applied.tags,
        "hard": applied.hard,
        "entries": applied.entries,
        "refreshed": applied.refreshed,
    })))
}

/// What applying changes did.
pub struct Applied {
    pub tags: Vec<String>,
    pub hard: bool,
    /// Entries the purge reached.
    pub entries: usize,
    /// Keys loaded again.
    pub refreshed: Vec<String>,
}

/// Purges the tags of what changed (hard when something was withdrawn) and, with `refresh`,
/// loads the changed articles and the first pages of their lists again: what a notice does,
/// whether it came by the webhook or by asking the CMS (`changes_poll`).
pub async fn apply(state: &AppState, changes: &[Change], refresh_after: bool) -> Applied {
    let mut tags: Vec<String> = changes.iter().flat_map(Change::tags).collect();
    tags.sort_unstable();
    tags.dedup();
    let purge = Purge {
        tags,
        hard: changes.iter().any(Change::removes),
        ..Purge::default()
    };
    let reached = if changes.is_empty() {
        Vec::new()
    } else {
        state
            .cache
            .purge(&purge, portal_cache::PurgeOrigin::Webhook)
            .await
    };
    let mut refreshed = if refresh_after && !changes.is_empty() {
        refresh(state, changes, &reached).await
    } else {
        Vec::new()
    };
    let mut tags = purge.tags;
    let mut entries = reached.len();
    // An article named without its category (Directus's keys, a Strapi entry without its
    // relation): its lists are the category's its detail names, read now (just loaded again
    // above, or loaded here). Renewed too, or a new article stays out of them for their TTL.
    let placed = place(state, changes).await;
    let found: Vec<String> = placed
        .iter()
        .map(tags::category)
        .filter(|tag| !tags.contains(tag))
        .collect();
    if !found.is_empty() {
        let lists = Purge {
            tags: found,
            ..Purge::default()
        };
        let reached = state
            .cache
            .purge(&lists, portal_cache::PurgeOrigin::Webhook)
            .await;
        entries += reached.len();
        if refresh_after {
            refreshed.extend(refresh(state, &[], &reached).await);
        }
        tags.extend(lists.tags);
    }
    Applied {
        tags,
        hard: purge.hard,
        entries,
        refreshed,
    }
}

/// The categories of the articles `changes` publish or update without naming their category, as
/// their details (fresh after the notice's purge) say.
async fn place(state: &AppState, changes: &[Change]) -> Vec<Id> {
    let unplaced: Vec<&Change> = changes
        .iter()
        .filter(|c| c.kind == Kind::Article && c.categories.is_empty() && !c.removes())
        .take(MAX_REFRESHES)
        .collect();
    if unplaced.is_empty() {
        return Vec::new();
    }
    let content = state.content();
    let reads = unplaced
        .iter()
        .map(|change| content.article(change.id.clone()));
    let mut categories: Vec<Id> = futures_util::future::join_all(reads)
        .await
        .into_iter()
        .filter_map(Result::ok)
        .map(|got| got.value.category_id.clone())
        .filter(|id| !id.is_top())
        .collect();
    categories.sort_unstable();
    categories.dedup();
    categories
}

fn read_notice(body: &[u8]) -> Result<Notice, ApiError> {
    serde_json::from_slice(body)
        .map_err(|err| ApiError::bad_query("body", format!("通知内容无法识别：{err}")))
}

/// The gateway's own notice, signed: its signature checked over the exact body, its time within
/// the window, and taken once within it.
async fn signed_notice(
    state: &AppState,
    admin: &crate::config::AdminConfig,
    secret: &secrecy::SecretString,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Vec<Change>, ApiError> {
    let presented = headers
        .get(SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !verify(secret.expose_secret().as_bytes(), body, presented) {
        return Err(ApiError::WebhookRefused("signature missing or wrong"));
    }
    let notice = read_notice(body)?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    if notice.time > now + FUTURE_SKEW.as_secs() {
        return Err(ApiError::WebhookRefused("signed in the future"));
    }
    if now.saturating_sub(notice.time) > admin.webhook_max_age.as_secs() {
        return Err(ApiError::WebhookRefused("signed too long ago"));
    }
    // Within its window a notice is taken once: a captured one sent again purges nothing.
    let window = admin.webhook_max_age + FUTURE_SKEW;
    if !state
        .webhook_seen
        .first_sighting_in(state.cache.shared(), presented, window)
        .await
    {
        return Err(ApiError::WebhookRefused("already received"));
    }
    Ok(vec![Change::from(&notice)])
}

/// Loads again the changed article (unless it is gone) and the first page of every list the
/// purge reached, then renders again the pages it reached, then tells the other replicas to drop
/// their copies of those keys: they read the new ones from the shared tier. Returns the keys
/// loaded.
async fn refresh(state: &AppState, changes: &[Change], reached: &[String]) -> Vec<String> {
    let tree = CacheKey::new(Endpoint::CategoryList, &[]);
    // The tree in any language (`category/list?lang=en`).
    let is_tree = |key: &str| {
        key.strip_prefix(tree.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("?lang="))
    };
    let mut keys: Vec<String> = reached
        .iter()
        .filter(|key| first_list_page(key) || is_tree(key))
        .cloned()
        .collect();
    // The changed article in every language the portal is in (one it lacks there is a "not
    // found", kept as such).
    let runtime = state.runtime();
    let languages: Vec<Option<&str>> = std::iter::once(None)
        .chain(runtime.languages.iter().map(|l| Some(&*l.code)))
        .collect();
    keys.extend(
        changes
            .iter()
            .filter(|change| change.kind == Kind::Article && !change.removes())
            .flat_map(|change| {
                languages.iter().map(|lang| {
                    CacheKey::new(Endpoint::ArticleDetail, &[Some(&change.id)])
                        .in_language(*lang)
                        .to_string()
                })
            }),
    );
    keys.sort_unstable();
    keys.dedup();
    keys.truncate(MAX_REFRESHES);
    let loads = keys.iter().map(|key| async move {
        // A key of a language no longer configured is left to expire.
        let content = state.content_for_key(key)?;
        let result = tokio::time::timeout(Duration::from_secs(30), content.refresh(key)).await;
        match result {
            Ok(Ok(())) => Some(key.clone()),
            Ok(Err(err)) => {
                tracing::warn!(key, error = %err, "webhook refresh failed; the entry stays stale");
                None
            }
            Err(_) => None,
        }
    });
    let mut refreshed: Vec<String> = futures_util::future::join_all(loads)
        .await
        .into_iter()
        .flatten()
        .collect();
    // Then the pages the purge reached, from the answers just loaded, as many at once as there
    // are render threads: the next visitor of each meets the page showing the change.
    let threads = state.runtime().render.settings().threads.max(1);
    let pages: Vec<String> = reached
        .iter()
        .filter(|key| key.starts_with(PAGE_PREFIX))
        .take(MAX_PAGE_RENDERS)
        .cloned()
        .collect();
    let rendered: Vec<Option<String>> = futures_util::stream::iter(pages)
        .map(|key| {
            let state = state.clone();
            async move {
                crate::pages::render_again(&state, &key)
                    .await
                    .then_some(key)
            }
        })
        .buffer_unordered(threads)
        .collect()
        .await;
    refreshed.extend(rendered.into_iter().flatten());
    if let Some(tier) = state.cache.shared() {
        tier.publish(&Purge {
            evict: refreshed.clone(),
            ..Purge::default()
        })
        .await;
    }
    refreshed
}

/// `article/list?…&page=1&…`: the page a list's visitors see first.
fn first_list_page(key: &str) -> bool {
    key.strip_prefix(Endpoint::ArticleList.spec().cache.unwrap_or("-"))
        .and_then(|rest| rest.strip_prefix('?'))
        .is_some_and(|query| query.split('&').any(|pair| pair == "page=1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_is_checked_over_the_exact_body() {
        let secret = b"webhook-secret-0123456789";
        let body = br#"{"event":"update","type":"article","id":1,"time":1}"#;
        let signature = sign(secret, body);
        assert!(verify(secret, body, &signature));
        assert!(!verify(b"another-secret-0123456789", body, &signature));
        assert!(!verify(secret, b"{}", &signature));
        assert!(!verify(
            secret,
            body,
            signature.trim_start_matches("sha256=")
        ));
        assert!(!verify(secret, body, "sha256=zz"));
        assert!(!verify(secret, body, ""));
    }

    #[test]
    fn first_pages_of_lists_are_told_apart() {
        assert!(first_list_page("article/list?categoryId=21&page=1&size=10"));
        assert!(first_list_page("article/list?categoryId=&page=1&size=6"));
        assert!(!first_list_page(
            "article/list?categoryId=21&page=11&size=10"
        ));
        assert!(!first_list_page("article/detail?id=1"));
    }
}
