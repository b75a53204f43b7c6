//! Which threads the scheduler serves first when the cores are full. The runtime's workers answer
//! `/healthz`, cached pages and the API; long CPU work beside them (renders, building the search
//! index) runs on threads of its own a step below, so a full machine makes that work slower and
//! never the answers (`make test-hostile`: cold pages from forty addresses took `/healthz` to
//! 104–256 ms with renders at the workers' priority; the index of 2 000 articles of 20 000
//! characters to 81–137 ms with its threads there, against a 100 ms bound).

/// How far below the process's other threads such a thread runs (a nice value).
pub const BACKGROUND_NICE: i32 = 10;

/// How far below them the search index's upkeep runs (building it, following the CMS): below the
/// renders too, whose pages a visitor waits for. At the renders' own value the index's first build
/// after a start took half their share, and a clean clone's native e2e pass (2026-12-07) had two
/// cold pages past `render.timeout` in those seconds, answered with the app shell. At 19 (weight 15
/// against the renders' 110) the build takes what the renders leave.
pub const UPKEEP_NICE: i32 = 19;
const _: () = assert!(
    UPKEEP_NICE > BACKGROUND_NICE,
    "the index's upkeep runs below the renders"
);

/// Lowers the calling thread's scheduling priority by `BACKGROUND_NICE` (on Linux a thread's nice
/// value is its own, at most 19), for good: raising it back needs a privilege the gateway does not
/// have, so call it on a thread of the caller's own, never on a pool's. Threads it starts after
/// inherit it (tantivy's indexing and merge threads). Relative to the thread's own value, so a
/// process started under `nice` keeps this work below its other threads still. The scheduler weighs
/// threads within the container's own share: the work is slower only while the process's other
/// threads want the CPU. A failure (none is expected: lowering one's own priority needs no
/// privilege) leaves the thread as it was.
pub fn lower_this_thread() {
    lower_this_thread_by(BACKGROUND_NICE);
}

/// As `lower_this_thread`, by `step` (`UPKEEP_NICE` for the search index's thread).
pub fn lower_this_thread_by(step: i32) {
    // `PRIO_PROCESS` of pid 0: on Linux the calling thread alone.
    if let Ok(own) = rustix::process::getpriority_process(None) {
        let _ = rustix::process::setpriority_process(None, (own + step).min(19));
    }
}

/// The nice value of a thread of this process, from its `stat` file (field 19, counted after the
/// name's `)`): `/proc/thread-self/stat`, or `/proc/self/task/<id>/stat`. For the tests that check
/// which threads run below the others.
#[cfg(target_os = "linux")]
pub fn nice_of(stat: &std::path::Path) -> Option<i64> {
    let text = std::fs::read_to_string(stat).ok()?;
    let after_name = &text[text.rfind(')')? + 1..];
    after_name.split_whitespace().nth(16)?.parse().ok()
}

/// The nice values of this process's threads whose names start with `prefix`.
#[cfg(target_os = "linux")]
pub fn nice_of_threads(prefix: &str) -> Vec<i64> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|name| name.starts_with(prefix))
        })
        .filter_map(|task| nice_of(&task.path().join("stat")))
        .collect()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_lowered_thread_and_the_threads_it_starts_run_below_the_caller() {
        let ours = nice_of(std::path::Path::new("/proc/thread-self/stat")).unwrap();
        let (theirs, child) = std::thread::Builder::new()
            .name("lowered-test".into())
            .spawn(|| {
                lower_this_thread();
                let own = nice_of(std::path::Path::new("/proc/thread-self/stat")).unwrap();
                let child = std::thread::spawn(|| {
                    nice_of(std::path::Path::new("/proc/thread-self/stat")).unwrap()
                })
                .join()
                .unwrap();
                (own, child)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(theirs, (ours + i64::from(BACKGROUND_NICE)).min(19));
        assert_eq!(
            child, theirs,
            "a thread started by a lowered one inherits its value"
        );
        assert_eq!(
            nice_of(std::path::Path::new("/proc/thread-self/stat")).unwrap(),
            ours,
            "the caller is as it was"
        );
    }
}
