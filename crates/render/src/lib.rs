//! Server rendering's engine layer: a small pool of OS threads, each holding its own QuickJS
//! engine (`rquickjs`) that has evaluated the app's server bundle once, answering calls of the
//! bundle's functions within a strict budget.
//!
//! The threads are the pool's own (`portal-render-N`), never tokio's: a render runs JavaScript
//! for up to `render.timeout` without an await point, and on a runtime worker it would stall every
//! request that worker holds, `/healthz` included. Calls reach the threads through one bounded
//! queue (`crossbeam-channel`, many consumers); a full queue answers [`RenderError::Busy`] at
//! once rather than letting waits pile up, and each answer comes back over a oneshot, so the
//! caller only ever awaits.
//!
//! Each call runs under three bounds (the engine's, `engine.rs`): the time budget (`timeout` of
//! the thread's CPU time, five of it by the clock; enforced by QuickJS's interrupt handler, so
//! `while (true) {}` ends), the engine's
//! memory (`memory_limit`), and its JavaScript stack (well under the thread's, so deep recursion
//! is a `RangeError`, never a Rust stack overflow). An engine that hit the first two, or failed in
//! a way that may have left it unsound, is dropped and built afresh before the thread takes its
//! next call (`portal_render_engine_restarts_total`).
//!
//! What a failure means for a page (the app shell instead, never a 5xx) is the caller's business,
//! not this module's: it answers a value or a [`RenderError`], and never anything about HTTP.

mod engine;
mod text;
mod worker;

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use arc_swap::ArcSwap;
use crossbeam_channel::TrySendError;
use serde::Deserialize;
use tokio::sync::oneshot;

use worker::Job;

/// `[render]`: the pool's size and each call's bounds (validated in `config.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderSettings {
    /// Render threads, each with its own engine (and its own copy of the bundle's heap).
    pub threads: usize,
    /// Longest a call may run JavaScript, its promise's jobs and timers included.
    #[serde(with = "humantime_serde")]
    pub timeout: Duration,
    /// Bytes one engine may allocate (QuickJS's own accounting), the bundle's heap included.
    pub memory_limit: usize,
    /// Calls waiting for a thread; past it a call answers `Busy` at once.
    pub queue: usize,
    /// Longest a call may wait in the queue for a thread; one that waited longer answers `Busy`
    /// without being started. Apart from `timeout`: under a cold crawl the queue is the price of
    /// a rendered page, and a page that comes a second later beats the app shell now.
    #[serde(with = "humantime_serde")]
    pub queue_wait: Duration,
    /// How long a visitor waits for a page's new render (its CMS answers included) when the page
    /// is past its TTL and stale window but an older copy is kept: then that copy is served, and
    /// the render goes on and keeps its page for the next visitor. Read by the pages
    /// (`portal_cache::Policy::older_copy_after`), not by the pool.
    #[serde(with = "humantime_serde")]
    pub older_copy_after: Duration,
}

impl RenderSettings {
    /// Whether a pool of `other`'s settings is a pool of these: all but what only the pages read.
    pub fn same_pool(&self, other: &Self) -> bool {
        let mine = Self {
            older_copy_after: other.older_copy_after,
            ..self.clone()
        };
        mine == *other
    }
}

impl Default for RenderSettings {
    fn default() -> Self {
        Self {
            threads: 2,
            timeout: Duration::from_secs(1),
            memory_limit: 64 * 1024 * 1024,
            queue: 128,
            queue_wait: Duration::from_secs(5),
            older_copy_after: Duration::from_millis(250),
        }
    }
}

/// Why a call gave no HTML. Each is a label of `portal_render_failures_total` (`reason`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The app build has no server bundle (`<static_dir>/server/render.js`).
    #[error("no server bundle is loaded")]
    NoBundle,
    /// Every thread is rendering and the queue is full, or the call waited in the queue for
    /// longer than `queue_wait`.
    #[error("the render pool is busy")]
    Busy,
    /// The call spent `render.timeout` of CPU time (or five times it passed by the clock); its
    /// engine is rebuilt.
    #[error("the render ran past its time budget")]
    TimedOut,
    /// The engine reached `render.memory_limit`; it is rebuilt.
    #[error("the render ran out of memory")]
    OutOfMemory,
    /// The script threw, rejected, returned something other than a string, never settled, or
    /// the bundle itself did not evaluate. The message: the exception's message and its first
    /// stack lines, on one line, bounded.
    #[error("the render script failed: {0}")]
    Script(String),
    /// No thread took or answered the call (one panicked, or none could be started).
    #[error("no render thread answered")]
    Unavailable,
}

impl RenderError {
    /// The lowercase `reason` label of `portal_render_failures_total`.
    pub fn reason(&self) -> &'static str {
        match self {
            Self::NoBundle => "no_bundle",
            Self::Busy => "busy",
            Self::TimedOut => "timed_out",
            Self::OutOfMemory => "out_of_memory",
            Self::Script(_) => "script",
            Self::Unavailable => "unavailable",
        }
    }

    /// Whether the engine that produced this may be unsound and must be built afresh: it was
    /// interrupted mid-run or refused memory mid-allocation, and library state (React's among
    /// it) may be half-updated.
    fn spoils_engine(&self) -> bool {
        matches!(self, Self::TimedOut | Self::OutOfMemory | Self::Unavailable)
    }
}

/// The handle handlers hold (cloned cheaply). The threads live as long as some handle does:
/// dropping the last one closes the queue, and each thread ends after its current call.
#[derive(Clone)]
pub struct RenderPool {
    inner: Arc<Inner>,
}

struct Inner {
    jobs: crossbeam_channel::Sender<Job>,
    /// One per thread: a reload wakes each to evaluate the new bundle while it is idle, so
    /// the first call after a new build does not pay for it.
    wakes: Vec<crossbeam_channel::Sender<()>>,
    bundle: Arc<ArcSwap<Load>>,
    /// One more than the newest `Load::generation` some thread has built an engine of (or
    /// found it does not evaluate); 0 until the first is built.
    built: Arc<AtomicU64>,
    settings: RenderSettings,
}

/// One loaded build's bundle, as the threads see it.
struct Load {
    /// Changes on every `reload`: a thread whose engine is of an older one rebuilds it.
    generation: u64,
    bundle: Option<Arc<str>>,
    /// A bundle that does not evaluate is logged by the first thread that finds out, not by each.
    failure_logged: AtomicBool,
}

impl Load {
    fn new(generation: u64, bundle: Option<Arc<str>>) -> Self {
        Self {
            generation,
            bundle,
            failure_logged: AtomicBool::new(false),
        }
    }

    /// True for the first caller only (the one that logs the bundle's failure).
    fn first_to_report(&self) -> bool {
        !self.failure_logged.swap(true, Ordering::Relaxed)
    }
}

impl RenderPool {
    /// Starts `settings.threads` threads; each evaluates `bundle` in its own engine at once.
    pub fn new(settings: &RenderSettings, bundle: Option<Arc<str>>) -> RenderPool {
        let (jobs, queue) = crossbeam_channel::bounded(settings.queue.max(1));
        let bundle = Arc::new(ArcSwap::from_pointee(Load::new(0, bundle)));
        let built = Arc::new(AtomicU64::new(0));
        let mut wakes = Vec::with_capacity(settings.threads);
        for index in 0..settings.threads.max(1) {
            let (wake, woken) = crossbeam_channel::bounded(1);
            let limits = engine::Limits::of(settings);
            let shared = worker::Shared {
                jobs: queue.clone(),
                wake: woken,
                bundle: bundle.clone(),
                built: built.clone(),
            };
            match worker::spawn(index, shared, limits) {
                Ok(()) => wakes.push(wake),
                // Calls then go to the threads that did start (or answer `Unavailable`).
                Err(err) => tracing::error!(index, %err, "a render thread could not be started"),
            }
        }
        RenderPool {
            inner: Arc::new(Inner {
                jobs,
                wakes,
                bundle,
                built,
                settings: settings.clone(),
            }),
        }
    }

    /// Calls `globalThis[function](input)` in one engine: the function returns a string or a
    /// Promise of one. Answers `NoBundle` and `Busy` at once, anything else within about
    /// `timeout` of a thread taking the call.
    pub async fn call(&self, function: &'static str, input: String) -> Result<String, RenderError> {
        let started = Instant::now();
        let answer = self.send(function, input).await;
        match &answer {
            Ok(_) => portal_core::metrics::render_succeeded(started.elapsed()),
            Err(err) => portal_core::metrics::render_failed(err.reason()),
        }
        answer
    }

    async fn send(&self, function: &'static str, input: String) -> Result<String, RenderError> {
        if self.inner.bundle.load().bundle.is_none() {
            return Err(RenderError::NoBundle);
        }
        let (reply, answer) = oneshot::channel();
        let job = Job {
            function,
            input,
            queued: Instant::now(),
            reply,
        };
        match self.inner.jobs.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(RenderError::Busy),
            Err(TrySendError::Disconnected(_)) => return Err(RenderError::Unavailable),
        }
        // A dropped reply: the thread panicked with the call in hand.
        answer.await.unwrap_or(Err(RenderError::Unavailable))
    }

    /// A new app build: each thread evaluates `bundle` before its next call (at once when idle).
    /// The same bundle again (a config reload without a new build) changes nothing.
    pub fn reload(&self, bundle: Option<Arc<str>>) {
        let current = self.inner.bundle.load();
        let same = match (&current.bundle, &bundle) {
            (None, None) => true,
            (Some(old), Some(new)) => Arc::ptr_eq(old, new) || old == new,
            _ => false,
        };
        if same {
            return;
        }
        self.inner
            .bundle
            .rcu(|current| Load::new(current.generation + 1, bundle.clone()));
        for wake in &self.inner.wakes {
            // Full: that thread has a wake-up pending already, which is as good.
            let _ = wake.try_send(());
        }
    }

    /// Whether the pool has a bundle but no thread has built an engine yet (evaluating a bundle
    /// takes tens of milliseconds a megabyte, more on a loaded machine): a call now would wait
    /// for that, so `/readyz` waits instead. Only at the start: after a reload the threads
    /// rebuild one by one while the replica stays in service.
    pub fn warming(&self) -> bool {
        self.inner.bundle.load().bundle.is_some() && self.inner.built.load(Ordering::Acquire) == 0
    }

    /// The settings the pool was built with (a reload compares them with `[render]`).
    pub fn settings(&self) -> &RenderSettings {
        &self.inner.settings
    }
}

impl std::fmt::Debug for RenderPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderPool")
            .field("settings", &self.inner.settings)
            .field("threads", &self.inner.wakes.len())
            .field("queued", &self.inner.jobs.len())
            .finish()
    }
}

#[cfg(test)]
mod tests;
