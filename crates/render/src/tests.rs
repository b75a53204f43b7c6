//! The pool and its engines, against small hand-written bundles. Budgets are small (a few hundred
//! milliseconds) so the module runs in a few seconds; time bounds are generous multiples of them,
//! as the machine may be busy with other tests.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use super::*;

const MIB: usize = 1024 * 1024;

fn settings(threads: usize, timeout_ms: u64) -> RenderSettings {
    RenderSettings {
        threads,
        timeout: Duration::from_millis(timeout_ms),
        memory_limit: 32 * MIB,
        queue: 8,
        ..RenderSettings::default()
    }
}

fn pool(bundle: &str) -> RenderPool {
    RenderPool::new(&settings(2, 300), Some(Arc::from(bundle)))
}

fn script_message(answer: Result<String, RenderError>) -> String {
    match answer {
        Err(RenderError::Script(message)) => message,
        other => panic!("expected a script failure, got {other:?}"),
    }
}

/// Functions the tests below call, in one bundle as the app's would be.
const BUNDLE: &str = r#"
globalThis.render = function render(input) { return '<p>' + input + '</p>'; };
globalThis.later = (input) => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => {
    setTimeout(() => resolve('<p>' + event.data + '</p>'), 50);
  };
  channel.port2.postMessage(input + '，已送达');
});
globalThis.order = () => new Promise((resolve) => {
  const seen = [];
  setTimeout(() => { seen.push('slow'); resolve(seen.join(',')); }, 10000);
  setTimeout(() => seen.push('b'), 20);
  setTimeout(() => seen.push('a'), 10);
  setImmediate(() => seen.push('immediate'));
  const interval = setInterval(() => { seen.push('tick'); if (seen.filter((s) => s === 'tick').length === 2) clearInterval(interval); }, 15);
  const cancelled = setTimeout(() => seen.push('cancelled'), 5);
  clearTimeout(cancelled);
  queueMicrotask(() => seen.push('micro'));
  Promise.resolve().then(() => seen.push('then'));
});
globalThis.fail = () => { throw new TypeError('页面坏了\u0007\nsecond line'); };
globalThis.reject = () => Promise.reject(new RangeError('拒绝了'));
globalThis.nothing = () => new Promise(() => {});
globalThis.brokenTimer = () => new Promise(() => { setTimeout(() => { null.field; }, 0); });
globalThis.spin = () => { for (;;) {} };
globalThis.ticking = () => new Promise(() => { setInterval(() => {}, 0); });
globalThis.hog = () => { const all = []; for (;;) all.push(new Array(4096).fill(all.length)); };
globalThis.hogLater = () => new Promise(() => {
  setTimeout(() => { const all = []; for (;;) all.push(new Array(4096).fill(all.length)); }, 0);
});
globalThis.deep = () => { const down = (n) => down(n + 1) + 1; return String(down(0)); };
globalThis.deepJson = () => String(JSON.parse('['.repeat(200000) + ']'.repeat(200000)));
globalThis.number = () => 42;
globalThis.leak = () => { setTimeout(() => { globalThis.leaked = true; }, 0); return 'scheduled'; };
globalThis.check = () => new Promise((resolve) => setTimeout(() => resolve(String(globalThis.leaked === true)), 0));
globalThis.busy = (ms) => { const start = Date.now(); while (Date.now() - start < Number(ms)) {} return start + ',' + Date.now(); };
globalThis.environment = () => [
  typeof window, typeof document, self === globalThis, typeof performance.now(),
  typeof TextEncoder, typeof TextDecoder, typeof MessageChannel, typeof queueMicrotask,
].join(',');
globalThis.logs = () => {
  const cycle = {}; cycle.self = cycle;
  console.log('plain', 1, { a: [1, 2] }, cycle, Symbol('s'), 10n, () => 1);
  console.error('%s failed %d times\u001b[31m', 'render', 3, new Error('why'));
  console.warn(); console.info(undefined); console.debug(null); console.assert(false, 'asserted');
  console.group(); console.groupEnd(); console.time('t'); console.timeEnd('t');
  return 'logged';
};
"#;

#[tokio::test]
async fn an_abort_controller_aborts_its_signal_once_with_a_reason() {
    let pool = pool(
        r#"globalThis.render = () => {
  const controller = new AbortController();
  const seen = [];
  controller.signal.addEventListener('abort', (e) => seen.push('listener:' + e.type), { once: true });
  controller.signal.onabort = () => seen.push('onabort');
  controller.abort();
  controller.abort();
  let thrown = '';
  try { controller.signal.throwIfAborted(); } catch (e) { thrown = e.name; }
  const given = AbortSignal.abort('原因');
  return JSON.stringify({ aborted: controller.signal.aborted, seen, thrown, reason: given.reason });
};"#,
    );
    assert_eq!(
        pool.call("render", String::new()).await.unwrap(),
        r#"{"aborted":true,"seen":["onabort","listener:abort"],"thrown":"AbortError","reason":"原因"}"#
    );
}

/// Renders run below the threads that answer requests: when they fill every core, `/healthz` and
/// cached answers go first (`make test-hostile`'s cold pages).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn render_threads_run_below_the_threads_that_answer_requests() {
    let pool = pool(BUNDLE);
    pool.call("render", "预热".to_owned()).await.unwrap();
    let ours =
        portal_core::priority::nice_of(std::path::Path::new("/proc/thread-self/stat")).unwrap();
    let renders = portal_core::priority::nice_of_threads("portal-render-");
    assert!(!renders.is_empty(), "no render thread found");
    for nice in renders {
        assert_eq!(
            nice,
            (ours + i64::from(portal_core::priority::BACKGROUND_NICE)).min(19),
            "a render thread's nice value"
        );
    }
}

#[tokio::test]
async fn a_function_returning_a_string_answers_it() {
    let pool = pool(BUNDLE);
    assert_eq!(
        pool.call("render", "铁路货运".to_owned()).await.unwrap(),
        "<p>铁路货运</p>"
    );
}

#[tokio::test]
async fn a_promise_settled_by_a_message_then_a_timer_answers_its_value() {
    let pool = pool(BUNDLE);
    assert_eq!(
        pool.call("later", "班列".to_owned()).await.unwrap(),
        "<p>班列，已送达</p>"
    );
}

#[tokio::test]
async fn jobs_run_before_tasks_and_tasks_in_the_order_of_their_delays_without_waiting_for_them() {
    let pool = pool(BUNDLE);
    let started = Instant::now();
    // A 10 s timer inside a 300 ms budget: delays order the tasks, nothing waits for them.
    let seen = pool.call("order", String::new()).await.unwrap();
    assert_eq!(seen, "micro,then,immediate,a,tick,b,tick,slow");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn the_globals_are_a_workers_not_a_windows() {
    let pool = pool(BUNDLE);
    assert_eq!(
        pool.call("environment", String::new()).await.unwrap(),
        "undefined,undefined,true,number,function,function,function,function"
    );
}

#[tokio::test]
async fn text_encoder_and_decoder_round_trip_chinese_and_an_emoji() {
    let pool = pool(
        r#"
globalThis.codec = (text) => {
  const bytes = new TextEncoder().encode(text);
  const whole = new TextDecoder().decode(bytes);
  // The same bytes in pieces split inside the characters, as a stream delivers them.
  const decoder = new TextDecoder('utf-8');
  let pieces = '';
  for (let i = 0; i < bytes.length; i += 2) pieces += decoder.decode(bytes.subarray(i, i + 2), { stream: true });
  pieces += decoder.decode();
  const into = new Uint8Array(5);
  const { read, written } = new TextEncoder().encodeInto(text, into);
  return JSON.stringify({
    bytes: Array.from(bytes), whole, pieces, read, written,
    lone: Array.from(new TextEncoder().encode('a\uD800b')),
    broken: new TextDecoder().decode(new Uint8Array([0x61, 0xE9, 0x62, 0xF0, 0x9F, 0x98, 0xC0, 0xAF])),
    bom: new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])).length,
    fatal: (() => { try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xFF])); return 'accepted'; } catch (e) { return e.name; } })(),
    latin1: (() => { try { new TextDecoder('latin1'); return 'accepted'; } catch (e) { return e.name; } })(),
  });
};
"#,
    );
    let text = "中欧班列🚂抵达，货值≈5亿元😀";
    let answer = pool.call("codec", text.to_owned()).await.unwrap();
    let got: serde_json::Value = serde_json::from_str(&answer).unwrap();
    let bytes: Vec<u8> = serde_json::from_value(got["bytes"].clone()).unwrap();
    assert_eq!(bytes, text.as_bytes(), "UTF-8 as Rust writes it");
    assert_eq!(got["whole"], text);
    assert_eq!(
        got["pieces"], text,
        "a stream split mid-character decodes whole"
    );
    // "中" (3 bytes) fits in 5, "欧" does not: one UTF-16 unit read, three bytes written.
    assert_eq!(
        (got["read"].as_u64(), got["written"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(
        got["lone"],
        serde_json::json!([0x61, 0xEF, 0xBF, 0xBD, 0x62])
    );
    assert_eq!(got["broken"], "a\u{FFFD}b\u{FFFD}\u{FFFD}\u{FFFD}");
    assert_eq!(got["bom"], 1, "a leading BOM is dropped");
    assert_eq!(got["fatal"], "TypeError");
    assert_eq!(got["latin1"], "RangeError");
}

#[tokio::test]
async fn a_thrown_error_is_a_script_failure_with_its_message_on_one_line() {
    let pool = pool(BUNDLE);
    let message = script_message(pool.call("fail", String::new()).await);
    assert!(
        message.starts_with("TypeError: 页面坏了 second line"),
        "{message}"
    );
    assert!(
        message.contains("render.js"),
        "the stack's first lines: {message}"
    );
    assert!(!message.chars().any(char::is_control), "{message:?}");

    let message = script_message(pool.call("reject", String::new()).await);
    assert!(message.starts_with("RangeError: 拒绝了"), "{message}");
    let message = script_message(pool.call("number", String::new()).await);
    assert!(message.contains("not a string"), "{message}");
    let message = script_message(pool.call("missing", String::new()).await);
    assert!(
        message.contains("globalThis.missing is not a function"),
        "{message}"
    );
    // The same engine answers on.
    assert!(pool.call("render", "好".to_owned()).await.is_ok());
}

#[tokio::test]
async fn a_promise_nothing_settles_is_a_script_failure_naming_a_tasks_exception() {
    let pool = pool(BUNDLE);
    let message = script_message(pool.call("nothing", String::new()).await);
    assert!(message.starts_with("never settled"), "{message}");
    let message = script_message(pool.call("brokenTimer", String::new()).await);
    assert!(
        message.contains("never settled") && message.contains("TypeError"),
        "{message}"
    );
}

#[tokio::test]
async fn an_endless_loop_times_out_promptly_and_the_next_call_meets_a_fresh_engine() {
    let metrics = portal_core::metrics::handle();
    let pool = RenderPool::new(&settings(1, 150), Some(Arc::from(BUNDLE)));
    pool.call("render", "warm".to_owned()).await.unwrap();
    let started = Instant::now();
    assert_eq!(
        pool.call("spin", String::new()).await,
        Err(RenderError::TimedOut)
    );
    let took = started.elapsed();
    // It spends its 150 ms of CPU at once; a machine busy enough to starve it meets the
    // clock's backstop, five budgets. Past that (and a second's slack) it hung.
    assert!(
        took < Duration::from_millis(5 * 150 + 1000),
        "{took:?} for a 150 ms budget"
    );
    // One thread: the same thread answers, with an engine built afresh.
    assert_eq!(
        pool.call("render", "再".to_owned()).await.unwrap(),
        "<p>再</p>"
    );
    // Timers that never stop are bounded the same way.
    assert_eq!(
        pool.call("ticking", String::new()).await,
        Err(RenderError::TimedOut)
    );
    assert!(pool.call("render", "又".to_owned()).await.is_ok());

    let text = metrics.render();
    assert!(
        text.contains("portal_render_failures_total{reason=\"timed_out\"}"),
        "{text}"
    );
    assert!(
        text.contains("portal_render_engine_restarts_total"),
        "{text}"
    );
    assert!(
        text.contains("portal_render_duration_seconds_count"),
        "{text}"
    );
}

#[tokio::test]
async fn endless_allocation_is_out_of_memory_and_the_next_call_succeeds() {
    let limited = RenderSettings {
        memory_limit: 16 * MIB,
        ..settings(1, 2000)
    };
    let pool = RenderPool::new(&limited, Some(Arc::from(BUNDLE)));
    assert_eq!(
        pool.call("hog", String::new()).await,
        Err(RenderError::OutOfMemory)
    );
    assert_eq!(
        pool.call("render", "余".to_owned()).await.unwrap(),
        "<p>余</p>"
    );
    // In a timer, where the prelude catches it first: still out of memory.
    assert_eq!(
        pool.call("hogLater", String::new()).await,
        Err(RenderError::OutOfMemory)
    );
    assert!(pool.call("render", "余".to_owned()).await.is_ok());
}

#[tokio::test]
async fn deep_recursion_is_a_script_failure_not_a_crash() {
    let pool = RenderPool::new(&settings(1, 2000), Some(Arc::from(BUNDLE)));
    let message = script_message(pool.call("deep", String::new()).await);
    assert!(message.contains("stack"), "{message}");
    let message = script_message(pool.call("deepJson", String::new()).await);
    assert!(message.contains("stack"), "{message}");
    assert!(pool.call("render", "深".to_owned()).await.is_ok());
}

#[tokio::test]
async fn a_full_queue_answers_busy_at_once() {
    let one_slot = RenderSettings {
        queue: 1,
        ..settings(1, 400)
    };
    let pool = RenderPool::new(&one_slot, Some(Arc::from(BUNDLE)));
    // One thread spinning and one call queued hold everything; four at once leave two over.
    let calls: Vec<_> = (0..4)
        .map(|_| {
            let pool = pool.clone();
            tokio::spawn(async move {
                let started = Instant::now();
                (pool.call("spin", String::new()).await, started.elapsed())
            })
        })
        .collect();
    let mut busy = 0;
    for call in calls {
        let (answer, took) = call.await.unwrap();
        if answer == Err(RenderError::Busy) && took < Duration::from_millis(100) {
            busy += 1;
        }
    }
    assert!(busy >= 2, "{busy} answered Busy at once");
}

/// A call queued behind others past `timeout` but within `queue_wait` is rendered (a cold crawl
/// gets slower pages, not the app shell); one queued past `queue_wait` is `Busy`, never started.
#[tokio::test]
async fn a_queued_call_waits_up_to_queue_wait_not_the_render_budget() {
    // `calls` calls of 150 ms at once on one thread of a 300 ms budget, queued up to `wait_ms`.
    async fn queued(wait_ms: u64, calls: usize) -> Vec<Result<String, RenderError>> {
        let one_thread = RenderSettings {
            queue_wait: Duration::from_millis(wait_ms),
            ..settings(1, 300)
        };
        let pool = RenderPool::new(&one_thread, Some(Arc::from(BUNDLE)));
        tokio::time::sleep(Duration::from_millis(200)).await;
        let calls: Vec<_> = (0..calls)
            .map(|_| {
                let pool = pool.clone();
                tokio::spawn(async move { pool.call("busy", "150".to_owned()).await })
            })
            .collect();
        let mut answers = Vec::new();
        for call in calls {
            answers.push(call.await.unwrap());
        }
        answers
    }
    // The last of five waits ~600 ms, twice `timeout`.
    let answers = queued(2000, 5).await;
    assert!(
        answers.iter().all(Result::is_ok),
        "all rendered: {answers:?}"
    );

    let answers = queued(100, 3).await;
    let busy = answers
        .iter()
        .filter(|a| **a == Err(RenderError::Busy))
        .count();
    assert_eq!(
        busy, 2,
        "the two calls queued past queue_wait are busy: {answers:?}"
    );
}

#[tokio::test]
async fn two_calls_on_two_threads_run_at_the_same_time() {
    let pool = RenderPool::new(&settings(2, 3000), Some(Arc::from(BUNDLE)));
    // Both engines built before the calls arrive (a tiny bundle takes milliseconds).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (a, b) = tokio::join!(
        pool.call("busy", "200".to_owned()),
        pool.call("busy", "200".to_owned())
    );
    let span = |answer: Result<String, RenderError>| -> (u64, u64) {
        let answer = answer.unwrap();
        let (start, end) = answer.split_once(',').unwrap();
        (start.parse().unwrap(), end.parse().unwrap())
    };
    let (a, b) = (span(a), span(b));
    assert!(a.0.max(b.0) < a.1.min(b.1), "no overlap: {a:?} {b:?}");
}

#[tokio::test]
async fn reload_switches_the_bundle_before_the_next_call() {
    let pool = pool("globalThis.render = () => 'A';");
    assert_eq!(pool.call("render", String::new()).await.unwrap(), "A");
    pool.reload(Some(Arc::from("globalThis.render = () => 'B';")));
    assert_eq!(pool.call("render", String::new()).await.unwrap(), "B");
    assert_eq!(pool.call("render", String::new()).await.unwrap(), "B");
    pool.reload(None);
    assert_eq!(
        pool.call("render", String::new()).await,
        Err(RenderError::NoBundle)
    );
    pool.reload(Some(Arc::from("globalThis.render = () => 'C';")));
    assert_eq!(pool.call("render", String::new()).await.unwrap(), "C");
}

/// A bundle whose top level takes 400 ms, four times a call's budget: the pool is warming
/// (`/readyz` not ready) until an engine is built, and a call made at once, which waited for that,
/// still gets its whole budget (the first page after a start is rendered, not the shell).
#[tokio::test]
async fn the_pool_warms_before_it_is_ready_and_a_call_that_waited_for_it_is_answered() {
    let slow = r#"
const until = Date.now() + 400;
while (Date.now() < until) {}
globalThis.render = (input) => '<p>' + input + '</p>';
"#;
    let pool = RenderPool::new(&settings(1, 100), Some(Arc::from(slow)));
    assert!(pool.warming(), "no engine yet");
    assert_eq!(
        pool.call("render", "首页".into()).await.unwrap(),
        "<p>首页</p>"
    );
    assert!(!pool.warming());
    let none = RenderPool::new(&settings(1, 100), None);
    assert!(!none.warming(), "nothing to warm without a bundle");
}

#[tokio::test]
async fn without_a_bundle_calls_answer_no_bundle_at_once() {
    let pool = RenderPool::new(&settings(2, 300), None);
    let started = Instant::now();
    assert_eq!(
        pool.call("render", String::new()).await,
        Err(RenderError::NoBundle)
    );
    assert!(started.elapsed() < Duration::from_millis(50));
}

#[tokio::test]
async fn a_bundle_that_does_not_evaluate_fails_every_call_and_the_pool_goes_on() {
    // A bundle that hangs while loading is stopped after ten calls' budget (at least 1 s).
    let started = Instant::now();
    let pool_of_a_hang = RenderPool::new(&settings(1, 100), Some(Arc::from("for (;;) {}")));

    let pool = pool("globalThis.render = () => 'never'; throw new Error('加载失败');");
    for _ in 0..3 {
        let message = script_message(pool.call("render", String::new()).await);
        assert!(
            message.contains("did not evaluate") && message.contains("加载失败"),
            "{message}"
        );
    }
    pool.reload(Some(Arc::from("globalThis.render = () => 'fixed';")));
    assert_eq!(pool.call("render", String::new()).await.unwrap(), "fixed");

    // A call queued while the thread was loading would have waited past its budget (`Busy`).
    tokio::time::sleep(Duration::from_millis(1500).saturating_sub(started.elapsed())).await;
    let message = script_message(pool_of_a_hang.call("render", String::new()).await);
    assert!(message.contains("time budget"), "{message}");
}

#[tokio::test]
async fn a_calls_timers_never_reach_the_next_call() {
    let pool = RenderPool::new(&settings(1, 300), Some(Arc::from(BUNDLE)));
    assert_eq!(pool.call("leak", String::new()).await.unwrap(), "scheduled");
    // `check` drains tasks: the timer `leak` left would run first if it were still queued.
    assert_eq!(pool.call("check", String::new()).await.unwrap(), "false");
}

#[tokio::test]
async fn console_output_of_any_shape_does_not_disturb_the_render() {
    let pool = pool(BUNDLE);
    assert_eq!(pool.call("logs", String::new()).await.unwrap(), "logged");
}

#[tokio::test]
async fn a_caller_that_stops_waiting_does_not_break_the_thread() {
    let pool = RenderPool::new(&settings(1, 1000), Some(Arc::from(BUNDLE)));
    let gave_up = tokio::time::timeout(
        Duration::from_millis(20),
        pool.call("busy", "150".to_owned()),
    )
    .await;
    assert!(gave_up.is_err(), "the call should still have been running");
    assert_eq!(
        pool.call("render", "后".to_owned()).await.unwrap(),
        "<p>后</p>"
    );
}

/// The reason renders have threads of their own: with every render thread stuck in a script,
/// the async runtime (here a single thread, which a blocked call would stop outright) still
/// runs its tasks at once.
#[tokio::test(flavor = "current_thread")]
async fn renders_stuck_in_scripts_never_block_the_async_runtime() {
    let pool = RenderPool::new(&settings(2, 600), Some(Arc::from(BUNDLE)));
    let stuck: Vec<_> = (0..2)
        .map(|_| {
            let pool = pool.clone();
            tokio::spawn(async move { pool.call("spin", String::new()).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let task = tokio::spawn(async { 7 });
    assert_eq!(task.await.unwrap(), 7);
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert!(
        started.elapsed() < Duration::from_millis(100),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stuck.iter().all(|call| !call.is_finished()),
        "both renders were still spinning"
    );
    for call in stuck {
        assert_eq!(call.await.unwrap(), Err(RenderError::TimedOut));
    }
}

#[tokio::test]
async fn dropping_the_last_handle_ends_the_threads() {
    let pool = pool(BUNDLE);
    pool.call("render", String::new()).await.unwrap();
    // Every thread holds the pool's bundle slot until it ends.
    let slot = Arc::downgrade(&pool.inner.bundle);
    drop(pool);
    let started = Instant::now();
    while slot.upgrade().is_some() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the threads did not end"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_threads_are_named_for_the_pool() {
    let _pool = RenderPool::new(&settings(1, 300), None);
    let names: Vec<String> = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .collect();
    assert!(
        names.iter().any(|name| name.trim() == "portal-render-0"),
        "{names:?}"
    );
}

/// Handlers hold the pool in the state and await `call` in their own (Send) futures.
#[test]
fn the_pool_and_its_call_can_cross_threads() {
    fn send_and_sync<T: Send + Sync>(_: &T) {}
    fn send<T: Send>(_: T) {}
    let pool = RenderPool::new(&settings(1, 100), None);
    send_and_sync(&pool);
    send(pool.call("render", String::new()));
}

#[test]
fn reasons_are_lowercase_labels() {
    for err in [
        RenderError::NoBundle,
        RenderError::Busy,
        RenderError::TimedOut,
        RenderError::OutOfMemory,
        RenderError::Script("x".to_owned()),
        RenderError::Unavailable,
    ] {
        let reason = err.reason();
        assert!(
            reason.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{reason}"
        );
    }
}

/// What a real server bundle costs: building an engine (the prelude and the bundle evaluated)
/// and a call of its `render`, with the heap it holds. A measurement, not a check: run it on a
/// release build with the app's bundle, e.g.
/// `PORTAL_RENDER_BUNDLE=frontend/dist/server/render.js PORTAL_RENDER_INPUT=@input.json
/// PORTAL_RENDER_FUNCTION=portalRender cargo test
/// --release -p portal-render --lib tests::the_cost_of_a_real_bundle -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a measurement: needs PORTAL_RENDER_BUNDLE, and a release build to mean anything"]
fn the_cost_of_a_real_bundle() {
    let Ok(path) = std::env::var("PORTAL_RENDER_BUNDLE") else {
        eprintln!("PORTAL_RENDER_BUNDLE is not set: nothing measured");
        return;
    };
    let bundle = std::fs::read_to_string(&path).unwrap();
    // The input itself, or `@file` (a page's whole input, its answers included, is large).
    let input = match std::env::var("PORTAL_RENDER_INPUT") {
        Ok(file) if file.starts_with('@') => std::fs::read_to_string(&file[1..]).unwrap(),
        Ok(input) => input,
        Err(_) => "{}".to_owned(),
    };
    // `render` for a test bundle; the app's is `portalRender`.
    let function: &'static str = std::env::var("PORTAL_RENDER_FUNCTION")
        .map_or("render", |name| Box::leak(name.into_boxed_str()));
    let limits = engine::Limits::of(&RenderSettings {
        timeout: Duration::from_secs(5),
        memory_limit: 512 * MIB,
        ..RenderSettings::default()
    });
    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let builds: Vec<Duration> = (0..10)
        .map(|_| {
            let started = Instant::now();
            let engine = engine::Engine::new(&bundle, limits).unwrap();
            let took = started.elapsed();
            drop(engine);
            took
        })
        .collect();
    let engine = engine::Engine::new(&bundle, limits).unwrap();
    let heap = engine.heap_bytes();
    let mut html = String::new();
    let calls: Vec<Duration> = (0..20)
        .map(|_| {
            let started = Instant::now();
            html = engine.call(function, &input, limits.timeout).unwrap();
            let took = started.elapsed();
            engine.tidy_within(limits.timeout).unwrap();
            took
        })
        .collect();
    eprintln!(
        "{path}: {} bytes; engine built (prelude + bundle evaluated) in {:?} (median of 10, min {:?}); heap after loading {} KiB; render call {:?} (median of 20) for {} bytes of HTML",
        bundle.len(),
        median(builds.clone()),
        builds.iter().min().unwrap(),
        heap / 1024,
        median(calls),
        html.len()
    );
    eprintln!("{}…", html.chars().take(300).collect::<String>());
}
