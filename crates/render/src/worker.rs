//! One render thread: takes calls from the pool's queue, one at a time, and answers each over its
//! oneshot. It owns its engine: builds it when a bundle is loaded (at start, after a reload,
//! after the last engine was dropped), always between calls, so a call never waits for another
//! call's cleanup, only, at worst, for an engine being built.

use std::{
    panic::AssertUnwindSafe,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Instant,
};

use arc_swap::ArcSwap;
use crossbeam_channel::Receiver;
use tokio::sync::oneshot;

use super::{
    Load, RenderError,
    engine::{Engine, Limits},
};

/// Each render thread's stack: room for QuickJS's own limit (`engine::JS_STACK`, 4 MiB) and the
/// Rust and C frames around and past it. Reserved address space; only what is touched is memory.
const THREAD_STACK: usize = 8 * 1024 * 1024;

/// One call, as the queue carries it.
pub(super) struct Job {
    pub function: &'static str,
    pub input: String,
    /// When the call was queued: one that waited longer than `queue_wait` is not started.
    pub queued: Instant,
    pub reply: oneshot::Sender<Result<String, RenderError>>,
}

/// What a thread shares with the pool.
pub(super) struct Shared {
    pub jobs: Receiver<Job>,
    pub wake: Receiver<()>,
    pub bundle: Arc<ArcSwap<Load>>,
    /// `Inner::built`: raised once this thread has an engine of a generation.
    pub built: Arc<AtomicU64>,
}

/// Starts thread `portal-render-{index}`. It ends when the pool's queue closes (the last
/// `RenderPool` dropped), after the call it has in hand.
pub(super) fn spawn(index: usize, shared: Shared, limits: Limits) -> std::io::Result<()> {
    let Shared {
        jobs,
        wake,
        bundle,
        built,
    } = shared;
    let name = format!("portal-render-{index}");
    std::thread::Builder::new()
        .name(name.clone())
        .stack_size(THREAD_STACK)
        .spawn(move || {
            // Below the runtime's workers: when renders fill every core, `/healthz` and cached
            // answers go first (`portal_core::priority`).
            portal_core::priority::lower_this_thread();
            Worker {
                name,
                jobs,
                wake,
                bundle,
                built,
                limits,
                state: State::Unbuilt,
                generation: 0,
                ready_at: Instant::now(),
            }
            .run();
        })
        .map(drop)
}

/// What the thread can answer with now.
enum State {
    /// No engine: one is built before the next call.
    Unbuilt,
    /// The build has no server bundle.
    NoBundle,
    /// The bundle did not evaluate; every call answers this, until the next reload.
    Broken(String),
    Ready(Engine),
}

struct Worker {
    name: String,
    jobs: Receiver<Job>,
    wake: Receiver<()>,
    bundle: Arc<ArcSwap<Load>>,
    built: Arc<AtomicU64>,
    limits: Limits,
    state: State,
    /// The `Load` the state was made from.
    generation: u64,
    /// When the state was made: a call that waited for it (the first calls after a start or a
    /// new build) is timed from then, not from when it was queued.
    ready_at: Instant,
}

impl Worker {
    fn run(mut self) {
        loop {
            self.prepare();
            crossbeam_channel::select! {
                recv(self.jobs) -> job => match job {
                    Ok(job) => {
                        // A reload may have come while this thread waited: a call after
                        // `reload` returned always meets the new bundle.
                        self.prepare();
                        self.answer(job);
                    }
                    Err(_) => return,
                },
                recv(self.wake) -> woken => {
                    if woken.is_err() {
                        return;
                    }
                }
            }
        }
    }

    /// Builds the engine when there is none, or when its bundle is not the one loaded now.
    fn prepare(&mut self) {
        let load = self.bundle.load_full();
        if !matches!(self.state, State::Unbuilt) && self.generation == load.generation {
            return;
        }
        // The old engine goes first: two engines' heaps are never held at once.
        self.state = State::Unbuilt;
        self.generation = load.generation;
        let Some(bundle) = &load.bundle else {
            self.state = State::NoBundle;
            return;
        };
        let started = Instant::now();
        let built = std::panic::catch_unwind(AssertUnwindSafe(|| Engine::new(bundle, self.limits)))
            .unwrap_or_else(|_| Err("building the engine panicked".to_owned()));
        self.state = match built {
            Ok(engine) => {
                tracing::debug!(
                    thread = %self.name,
                    bytes = bundle.len(),
                    ms = started.elapsed().as_millis() as u64,
                    "render engine ready"
                );
                State::Ready(engine)
            }
            Err(reason) => {
                if load.first_to_report() {
                    tracing::error!(
                        %reason,
                        "the server bundle does not evaluate: pages are not server-rendered until a build whose bundle does is loaded"
                    );
                }
                State::Broken(format!("the server bundle did not evaluate: {reason}"))
            }
        };
        self.ready_at = Instant::now();
        self.built.fetch_max(load.generation + 1, Ordering::Release);
    }

    fn answer(&mut self, job: Job) {
        if job.reply.is_closed() {
            return; // the caller stopped waiting: nobody to render for
        }
        if job.queued.max(self.ready_at).elapsed() > self.limits.queue_wait {
            // Past its wait for a thread (`render.queue_wait`): the caller is better served by
            // its fallback now. (Waiting for this thread's engine to be built does not count.)
            let _ = job.reply.send(Err(RenderError::Busy));
            return;
        }
        let answer = match &self.state {
            State::Unbuilt => Err(RenderError::Unavailable),
            State::NoBundle => Err(RenderError::NoBundle),
            State::Broken(reason) => Err(RenderError::Script(reason.clone())),
            State::Ready(engine) => self.guarded(job.function, || {
                engine.call(job.function, &job.input, self.limits.timeout)
            }),
        };
        let spoiled = answer.as_ref().err().filter(|e| e.spoils_engine()).cloned();
        if let Err(RenderError::Script(message)) = &answer {
            tracing::debug!(thread = %self.name, function = job.function, %message, "render script failed");
        }
        // The caller has its answer before any cleanup or rebuild below.
        let _ = job.reply.send(answer);
        match spoiled {
            Some(err) => self.restart(job.function, &err),
            None => {
                if let State::Ready(engine) = &self.state
                    && let Err(err) =
                        self.guarded(job.function, || engine.tidy_within(self.limits.timeout))
                {
                    self.restart(job.function, &err);
                }
            }
        }
    }

    /// Runs `f` on the engine; a panic on its Rust side is `Unavailable` (which retires the
    /// engine) rather than the end of the thread.
    fn guarded<T>(
        &self,
        function: &'static str,
        f: impl FnOnce() -> Result<T, RenderError>,
    ) -> Result<T, RenderError> {
        std::panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
            tracing::error!(thread = %self.name, function, "the render engine panicked");
            Err(RenderError::Unavailable)
        })
    }

    /// Drops the engine (rebuilt by `prepare` before the next call) and counts it.
    fn restart(&mut self, function: &'static str, cause: &RenderError) {
        tracing::warn!(
            thread = %self.name,
            function,
            reason = cause.reason(),
            "render engine dropped after a failure; a fresh one is built"
        );
        portal_core::metrics::render_engine_restarted();
        let old = std::mem::replace(&mut self.state, State::Unbuilt);
        if matches!(cause, RenderError::Unavailable) {
            // After a panic the engine's JavaScript values may be held by a frame that never
            // returned; freeing its runtime then would abort the process (QuickJS asserts that
            // nothing of it is held). Its memory is given up instead: a panic here is a bug.
            std::mem::forget(old);
        }
    }
}
