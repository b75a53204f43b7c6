//! For a CMS that cannot call the webhook: the gateway asks it every `[dialect.changes] every`
//! which articles changed since it last asked, and applies each as the webhook applies a notice
//! (`webhook::apply`: the tags purged, the article and its lists' first pages loaded again).
//!
//! What it cannot see: an article withdrawn (unpublished, deleted) is in no "changed since"
//! list of published articles, so it goes when its TTL runs out, as without any notice.

use std::{collections::HashMap, time::Duration};

use chrono::{DateTime, Utc};
use portal_core::model::Id;

use crate::{
    state::AppState,
    webhook::{self, Change, Event, Kind},
};

/// How far back each question reaches before the last one was asked: the CMS stamps its
/// changes by its own clock, which may be behind ours, and may commit a change stamped a moment
/// before a question it did not yet answer with it. A change seen twice is applied once (its
/// fingerprint is remembered).
const OVERLAP: Duration = Duration::from_secs(60);
/// How often to look whether a reload turned polling on, while it is off.
const IDLE_LOOK: Duration = Duration::from_secs(5);
/// Changes applied from one answer, at most (a CMS that ignores `since` answers its whole list).
const MAX_CHANGES: usize = 100;

fn now() -> DateTime<Utc> {
    std::time::SystemTime::now().into()
}

/// Starts the poller; it runs for the process's life and reads the config at each turn, so a
/// reload may turn it on, off or change its interval.
pub fn spawn(state: AppState) {
    tokio::spawn(async move {
        let mut since = now();
        // The fingerprints of the last two answers' items, by article id.
        let mut seen: HashMap<Id, u64> = HashMap::new();
        loop {
            let Some(every) = state.runtime().content.upstream.dialect().changes_every() else {
                tokio::time::sleep(IDLE_LOOK).await;
                since = now();
                continue;
            };
            tokio::time::sleep(every).await;
            // One replica asks per interval when they share a tier (each applies its purges to
            // all), the first to reach this slot.
            if let Some(tier) = state.cache.shared() {
                let slot = now().timestamp() / i64::try_from(every.as_secs().max(1)).unwrap_or(1);
                if tier
                    .first_sighting(&format!("changes-poll:{slot}"), every)
                    .await
                    == Some(false)
                {
                    continue;
                }
            }
            let asked_at = now();
            let from = since - chrono::Duration::from_std(OVERLAP).unwrap_or_default();
            match poll_once(&state, from, &mut seen).await {
                Ok(applied) => {
                    since = asked_at;
                    if applied > 0 {
                        tracing::info!(applied, "CMS changes applied");
                    }
                }
                // The next question reaches back to the last answered one: nothing is missed.
                Err(err) => tracing::warn!(error = %err, "asking the CMS what changed failed"),
            }
        }
    });
}

/// Asks once for what changed since `from`, applies what was not applied before, and returns
/// how many changes that was.
async fn poll_once(
    state: &AppState,
    from: DateTime<Utc>,
    seen: &mut HashMap<Id, u64>,
) -> Result<usize, portal_cms::UpstreamError> {
    let runtime = state.runtime();
    let changed = runtime.content.upstream.changes(from).await?;
    let fresh: Vec<Change> = changed
        .iter()
        .filter(|(id, _, fingerprint)| seen.get(id) != Some(fingerprint))
        .take(MAX_CHANGES)
        .map(|(id, category_id, _)| Change {
            event: Event::Update,
            kind: Kind::Article,
            id: id.clone(),
            categories: category_id.iter().cloned().collect(),
        })
        .collect();
    // Only this answer's items are kept: one that drops out of the window is not asked of again.
    *seen = changed
        .into_iter()
        .map(|(id, _, fingerprint)| (id, fingerprint))
        .collect();
    if !fresh.is_empty() {
        webhook::apply(state, &fresh, runtime.config.admin.webhook_refresh).await;
    }
    Ok(fresh.len())
}
