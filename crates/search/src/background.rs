//! The index's build work (opening it, writing articles, committing) on a thread of its own, below
//! the runtime's workers and the renders (`portal_core::priority::UPKEEP_NICE`), rather than on the
//! blocking pool beside them. Tantivy's own threads (indexing, merging, compressing the store) are
//! started by the thread that opens or commits the writer and inherit its priority, so the whole
//! build yields to the threads that answer requests: `make test-hostile`'s index of 2 000 articles
//! of 20 000 characters took `/healthz` to 81–137 ms (its bound 100) with tantivy's indexing thread
//! at the workers' priority, a core of its own the whole build. Searches stay on the blocking pool:
//! a visitor waits for them.

use std::sync::{LazyLock, mpsc};

type Job = Box<dyn FnOnce() + Send>;

/// The thread's queue; `None` when the thread could not be started (the build then fails as a
/// write does: logged, tried again by the next walk).
static JOBS: LazyLock<Option<mpsc::Sender<Job>>> = LazyLock::new(|| {
    let (jobs, queue) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("portal-index".to_owned())
        .spawn(move || {
            portal_core::priority::lower_this_thread_by(portal_core::priority::UPKEEP_NICE);
            for job in queue {
                job();
            }
        })
        .ok()?;
    Some(jobs)
});

/// Runs `work` on the index's thread, in turn, and waits for it without holding a worker. `None`
/// when it did not run to its end (no thread, or it panicked: the thread lives on).
pub(crate) async fn run<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (done, result) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        let _ = done.send(outcome.ok());
    });
    JOBS.as_ref()?.send(job).ok()?;
    result.await.ok().flatten()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::engine::{Doc, Engine};
    use portal_core::{
        model::Article,
        priority::{nice_of, nice_of_threads},
    };
    use std::{path::Path, sync::Arc};

    /// The index's threads run below the test's own. In a process of its own (the next test starts
    /// it): the other tests open engines on their own threads, whose tantivy threads share the names.
    #[tokio::test]
    #[ignore = "run in a process of its own by the_index_is_built_by_threads_below_the_ones_that_answer_requests"]
    async fn index_threads_in_a_process_of_their_own() {
        let ours = nice_of(Path::new("/proc/thread-self/stat")).unwrap();
        let lowered = (ours + i64::from(portal_core::priority::UPKEEP_NICE)).min(19);
        let engine = Arc::new(
            run(|| Engine::open(None, 15_000_000))
                .await
                .unwrap()
                .unwrap(),
        );
        let writing = Arc::clone(&engine);
        run(move || {
            let article: Article = serde_json::from_value(serde_json::json!({
                "id": 1, "categoryId": 21, "title": "中欧班列开行", "publishTime": "2026-12-01 09:00:00",
            }))
            .unwrap();
            let doc = Doc {
                article,
                body: "班列".repeat(500),
                sections: vec![21.into()],
                fingerprint: 1,
                summary_indexed: true,
            };
            writing.put(vec![doc])?;
            writing.commit()
        })
        .await
        .unwrap()
        .unwrap();
        // The thread, and any a library started from it unnamed (they inherit its name too).
        let index = nice_of_threads("portal-index");
        assert!(
            !index.is_empty() && index.iter().all(|&nice| nice == lowered),
            "portal-index: {index:?}, ours {ours}"
        );
        let tantivy: Vec<i64> = ["thrd-tantivy", "merge_thread", "segment_updater"]
            .iter()
            .flat_map(|name| nice_of_threads(name))
            .collect();
        assert!(!tantivy.is_empty(), "tantivy's threads were not found");
        assert!(
            tantivy.iter().all(|&nice| nice == lowered),
            "tantivy's threads: {tantivy:?}, ours {ours}"
        );
        assert_eq!(nice_of(Path::new("/proc/thread-self/stat")).unwrap(), ours);
        assert_eq!(engine.len(), 1);
    }

    #[test]
    fn the_index_is_built_by_threads_below_the_ones_that_answer_requests() {
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                "--exact",
                "background::tests::index_threads_in_a_process_of_their_own",
                "--test-threads=1",
            ])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&child.stdout);
        assert!(
            child.status.success() && said.contains("1 passed"),
            "{said}"
        );
    }

    #[tokio::test]
    async fn a_panic_in_the_work_is_none_and_the_thread_lives_on() {
        assert_eq!(run(|| -> u8 { panic!("broken") }).await, None);
        assert_eq!(run(|| 7).await, Some(7));
    }
}
