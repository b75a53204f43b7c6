//! Hot reload: on SIGHUP and whenever the config file's content changes.

use std::time::Duration;

use crate::state::AppState;

/// How often the config file is looked at.
pub const POLL_EVERY: Duration = Duration::from_secs(1);

/// Reloads off the async workers: building a runtime reads the config and the app's files from
/// disk, builds the CMS client and hands the render pool its bundle. On a worker that stalled
/// every request the worker held for 14–30 ms idle and up to about a second under load (the red
/// team of 2026-11-28), and for as long as the disk took.
///
/// On one thread of their own, one after another, rather than on the blocking pool: the
/// allocator keeps what a thread freed for that thread's next use, so reloads spread over the
/// pool's threads each left their garbage on a different one. Ten reloads a second took the
/// process from 220 to 320 MiB (`make test-hostile`); on one thread the next reload reuses it.
async fn reload(state: &AppState, why: &str) {
    static RELOADER: std::sync::OnceLock<std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>> =
        std::sync::OnceLock::new();
    let reloader = RELOADER.get_or_init(|| {
        let (jobs, taken) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        std::thread::Builder::new()
            .name("portal-reload".to_owned())
            .spawn(move || {
                for job in taken {
                    // A reload that panicked is refused (its sender dropped), not the thread.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            })
            .expect("the reload thread starts");
        jobs
    });
    let (done, outcome) = tokio::sync::oneshot::channel();
    let reloading = state.clone();
    let job = Box::new(move || {
        let _ = done.send(reloading.reload());
    });
    let outcome = match reloader.send(job) {
        Ok(()) => outcome.await.map_err(|_| ()),
        Err(_) => Err(()),
    };
    match outcome {
        Ok(Ok(())) => tracing::info!(trigger = why, "configuration reloaded"),
        Ok(Err(err)) => {
            tracing::error!(trigger = why, error = %err, "configuration not reloaded; the previous one stays")
        }
        Err(_) => tracing::error!(
            trigger = why,
            "configuration not reloaded: the reload ended abnormally; the previous one stays"
        ),
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
                reload(&state, "SIGHUP").await;
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
                reload(&state, "file change").await;
            } else {
                // Said once per edit, so an operator who edited the file sees why nothing changed.
                tracing::info!(
                    "the config file changed; server.watch_config is off, so it is read at the next SIGHUP"
                );
            }
        }
    });
}
