//! The notices taken within their window, so one is never applied twice. Held by the state
//! across reloads; read by the webhook.

use std::time::Duration;

/// Signatures remembered in memory (a notice a minute is a busy newsroom; the window is minutes).
const MAX_SEEN: u64 = 100_000;

/// The notices taken within their window, by signature: in the shared tier when there is one
/// (a replayed notice may reach another replica), else (and while it does not answer) in this
/// replica's memory.
pub struct SeenNotices {
    memory: moka::sync::Cache<String, ()>,
}

impl Default for SeenNotices {
    fn default() -> Self {
        Self {
            // Entries outlive the longest window a config may set; a reload that lengthens the
            // window keeps what was seen.
            memory: moka::sync::Cache::builder()
                .max_capacity(MAX_SEEN)
                .time_to_live(Duration::from_secs(24 * 3600))
                .build(),
        }
    }
}

impl SeenNotices {
    /// Whether `signature` is seen here for the first time within `window`.
    pub(super) async fn first_sighting_in(
        &self,
        shared: Option<&portal_cache::SharedTier>,
        signature: &str,
        window: Duration,
    ) -> bool {
        let signature = signature.trim().to_ascii_lowercase();
        let here = !self.memory.contains_key(&signature);
        self.memory.insert(signature.clone(), ());
        match shared {
            Some(tier) => {
                tier.first_sighting(&signature, window)
                    .await
                    .unwrap_or(here)
                    && here
            }
            None => here,
        }
    }
}
