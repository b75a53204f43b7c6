//! Hot reload: on SIGHUP and whenever the config file's content changes.

use std::time::Duration;

use crate::state::AppState;

/// How often the config file is looked at.
pub const POLL_EVERY: Duration = Duration::from_secs(1);

fn reload(state: &AppState, why: &str) {
    match state.reload() {
        Ok(()) => tracing::info!(trigger = why, "configuration reloaded"),
        Err(err) => {
            tracing::error!(trigger = why, error = %err, "configuration not reloaded; the previous one stays")
        }
    }
}

/// Starts the SIGHUP listener and the file watcher; both end with the process.
pub fn spawn(state: AppState) {
    let Some(path) = state.config_path().map(ToOwned::to_owned) else {
        return;
    };
    #[cfg(unix)]
    {
        let state = state.clone();
        tokio::spawn(async move {
            let Ok(mut hangup) =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
            else {
                tracing::warn!("cannot listen for SIGHUP; reload by editing the config file");
                return;
            };
            while hangup.recv().await.is_some() {
                reload(&state, "SIGHUP");
            }
        });
    }
    // The watcher runs for the process's life and reads `server.watch_config` at each look, so a
    // reload that turns it off stops the watching and one that turns it on starts it.
    // Content, not modification time: editors and config maps replace files in odd ways. Read
    // here, not in the task: an edit made before the task first ran was taken for the content it
    // started from, and never applied.
    let mut last = std::fs::read(&path).ok();
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(POLL_EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            ticker.tick().await;
            let now = tokio::fs::read(&path).await.ok();
            if now.is_none() || now == last {
                continue;
            }
            last = now;
            // Read while not watching too, so that an edit made before a signal turned watching
            // on is not mistaken for one after it (at worst the same file is read twice).
            if state.runtime().config.server.watch_config {
                reload(&state, "file change");
            } else {
                // Said once per edit, so an operator who edited the file sees why nothing changed.
                tracing::info!(
                    "the config file changed; server.watch_config is off, so it is read at the next SIGHUP"
                );
            }
        }
    });
}
