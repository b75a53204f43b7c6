//! One QuickJS engine: a runtime with its bounds, one context that has evaluated the prelude and
//! the server bundle, and the call of one of the bundle's functions driven to its answer.
//!
//! An engine never leaves the thread that built it (its values are `!Send`), and is used for one
//! call at a time. Everything it runs is under the budget of `Budget`: the interrupt handler stops
//! JavaScript once the budget is spent, and the host's own loops (jobs, tasks) check it between
//! steps.

use std::{
    cell::Cell,
    rc::Rc,
    time::{Duration, Instant},
};

use rquickjs::{
    Coerced, Context, Ctx, Error, Function, Object, Persistent, Promise, Runtime, Value,
    context::EvalOptions, promise::PromiseState,
};

use super::{
    RenderError,
    text::{MAX_CONSOLE, MAX_MESSAGE, one_line},
};

/// The browser-shaped globals a bundle expects (`prelude.js`).
const PRELUDE: &str = include_str!("prelude.js");

/// The bounds of one engine, from `[render]`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub timeout: Duration,
    /// How long a call may wait for the thread (the worker's, not the engine's).
    pub queue_wait: Duration,
    pub memory: usize,
    /// Time allowed for evaluating the prelude and the bundle when an engine is built.
    pub evaluate: Duration,
}

impl Limits {
    /// A bundle's top level defines functions and runs once: tens of milliseconds for a
    /// megabyte (docs/operations.md). Ten calls' budget, within 1 s to 10 s of CPU (five times it
    /// by the clock, as every budget: `Budget`), bounds only a bundle that hangs while loading.
    pub(super) fn of(settings: &super::RenderSettings) -> Self {
        Self {
            timeout: settings.timeout,
            queue_wait: settings.queue_wait,
            memory: settings.memory_limit,
            evaluate: (settings.timeout * 10)
                .clamp(Duration::from_secs(1), Duration::from_secs(10)),
        }
    }
}

/// QuickJS's limit on its own C stack use. Well under the thread's (`worker::THREAD_STACK`, 8
/// MiB): QuickJS throws `RangeError` at this depth, with the rest of the thread's stack left for
/// the Rust frames around it and for QuickJS's own C calls past its last check. Deep enough for
/// React's recursion over a deep tree (QuickJS's default, 256 KiB, is not).
const JS_STACK: usize = 4 * 1024 * 1024;

/// How many lines of an exception's stack its message keeps.
const STACK_LINES: usize = 4;

/// How much longer than its budget a run may take by the clock, starved of the cores, before it
/// is stopped all the same: a thread is never held past five budgets.
const WALL_BACKSTOP: u32 = 5;

/// The budget of what the engine runs now, read by QuickJS's interrupt handler.
///
/// It is spent by this thread's own CPU time, not by the clock: render threads run below
/// everything else (nice +10), so on a busy machine a render of 300 ms of work can take seconds
/// to finish, and ending it there turned a page into the app shell for want of a free core, not
/// for any fault of its own (clean-clone CI runs of 8ed0bd7 and 1d919b3: two and four cold
/// pages "ran past the time budget" of 1 s while Chromium and the end-to-end tests' workers held
/// both cores). What the budget is for, a script that never ends, spends CPU, and is stopped as
/// promptly as before. The clock still ends a run `WALL_BACKSTOP` budgets after it started.
#[derive(Default)]
struct Budget {
    run: Cell<Option<Run>>,
    /// Whether the handler stopped the script (the uncatchable exception it raises is then a
    /// time-out, whatever else it looks like).
    interrupted: Cell<bool>,
}

/// One run under a budget: when it started, by the clock and by this thread's CPU clock.
#[derive(Clone, Copy)]
struct Run {
    allowed: Duration,
    since: Instant,
    cpu_since: Duration,
}

impl Budget {
    fn start(&self, allowed: Duration) {
        self.run.set(Some(Run {
            allowed,
            since: Instant::now(),
            cpu_since: thread_cpu_time(),
        }));
        self.interrupted.set(false);
    }

    fn stop(&self) {
        self.run.set(None);
    }

    fn expired(&self) -> bool {
        let Some(run) = self.run.get() else {
            return false;
        };
        let wall = run.since.elapsed();
        // A thread's CPU time never runs ahead of the clock: until the budget has passed by the
        // clock it cannot be spent, and the clock (vDSO, no system call) is all that is read.
        if wall < run.allowed {
            return false;
        }
        wall >= run.allowed * WALL_BACKSTOP
            || thread_cpu_time().saturating_sub(run.cpu_since) >= run.allowed
    }

    /// QuickJS asks this every few thousand instructions; true stops the script.
    fn interrupt(&self) -> bool {
        let expired = self.expired();
        if expired {
            self.interrupted.set(true);
        }
        expired
    }
}

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_time() -> Duration {
    let spent = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(spent.tv_sec).unwrap_or(0),
        u32::try_from(spent.tv_nsec).unwrap_or(0),
    )
}

/// The prelude's functions the host calls (see the end of `prelude.js`).
struct Hooks {
    run_task: Persistent<Function<'static>>,
    clear_tasks: Persistent<Function<'static>>,
    take_uncaught: Persistent<Function<'static>>,
}

/// What a call's function gave back at first.
enum Started {
    Done(String),
    Pending(Persistent<Promise<'static>>),
}

pub(super) struct Engine {
    // Fields drop in this order: the JavaScript values kept here before the context, the context
    // before the runtime (QuickJS refuses to free a runtime whose values are still held).
    hooks: Hooks,
    context: Context,
    runtime: Runtime,
    budget: Rc<Budget>,
    /// The function being called, for the `console` lines it writes.
    current: Rc<Cell<&'static str>>,
    /// When the cycle collector runs (`collect_between_calls`), and the calls since it last did.
    gc: GcBounds,
    calls_since_gc: Cell<u32>,
}

/// When an engine's cycle collector runs. QuickJS frees most garbage by reference counting at
/// once; the collector finds the cycles (React's fibers, the store's closures) and marks the
/// whole heap to do so, the bundle's ~3 MiB included. Left to itself it runs whenever the heap
/// grows by half since its last run: once or twice within every render, 7.5 % of a render
/// thread's time in a profile of `make bench` scene 6 (2026-12-02). Here it runs between calls,
/// after the caller has its answer, every `every` calls, and within a call only once the heap
/// passes `within` (half the memory limit, so a call that piles up cycles still meets it). The
/// heap's size is not read to decide: QuickJS computes it by walking every object.
#[derive(Debug, Clone, Copy)]
struct GcBounds {
    every: u32,
    within: usize,
}

impl GcBounds {
    fn of(memory_limit: usize) -> Self {
        Self {
            every: 4,
            within: memory_limit / 2,
        }
    }
}

impl Engine {
    /// A runtime with its bounds and a context that has evaluated the prelude, then `bundle`.
    /// The error is why the bundle could not be loaded, on one line.
    pub(super) fn new(bundle: &str, limits: Limits) -> Result<Engine, String> {
        let runtime = Runtime::new().map_err(|err| format!("QuickJS did not start: {err}"))?;
        runtime.set_memory_limit(limits.memory);
        runtime.set_max_stack_size(JS_STACK);
        let gc = GcBounds::of(limits.memory);
        runtime.set_gc_threshold(gc.within);
        let budget = Rc::new(Budget::default());
        let handler = budget.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || handler.interrupt())));
        let context =
            Context::full(&runtime).map_err(|err| format!("QuickJS did not start: {err}"))?;
        let current = Rc::new(Cell::new("(loading)"));
        budget.start(limits.evaluate);
        let loaded = context.with(|ctx| {
            let failure = |err| Self::failure(&ctx, err, &budget);
            let install: Function = ctx
                .eval_with_options(PRELUDE, script("prelude.js", true))
                .map_err(failure)?;
            let host = Object::new(ctx.clone()).map_err(failure)?;
            host.set("log", console(&ctx, current.clone()).map_err(failure)?)
                .map_err(failure)?;
            let hooks: Object = install.call((host,)).map_err(failure)?;
            let hook = |name: &str| -> Result<Persistent<Function<'static>>, RenderError> {
                let function: Function = hooks.get(name).map_err(failure)?;
                Ok(Persistent::save(&ctx, function))
            };
            let hooks = Hooks {
                run_task: hook("runTask")?,
                clear_tasks: hook("clearTasks")?,
                take_uncaught: hook("takeUncaught")?,
            };
            // A plain script, as a browser's <script> runs it: sloppy unless it says otherwise.
            ctx.eval_with_options::<(), _>(bundle, script("render.js", false))
                .map_err(failure)?;
            Ok(hooks)
        });
        let engine = match loaded {
            Ok(hooks) => Engine {
                hooks,
                context,
                runtime,
                budget,
                current,
                gc,
                calls_since_gc: Cell::new(0),
            },
            Err(err) => {
                budget.stop();
                return Err(reason(err));
            }
        };
        // What the bundle's top level queued (a promise's reactions, timers) is not a call's.
        engine.tidy().map_err(reason)?;
        engine.budget.stop();
        Ok(engine)
    }

    /// Calls `globalThis[function](input)` and drives its Promise, if it returns one, until it
    /// settles, all within `budget` (see `Budget`).
    pub(super) fn call(
        &self,
        function: &'static str,
        input: &str,
        budget: Duration,
    ) -> Result<String, RenderError> {
        self.budget.start(budget);
        self.current.set(function);
        let answer = self
            .start(function, input)
            .and_then(|started| match started {
                Started::Done(html) => Ok(html),
                Started::Pending(promise) => self.settle(promise),
            });
        self.budget.stop();
        answer
    }

    /// After a call: forgets its tasks and runs the jobs it left, within a budget of its own,
    /// so that the next call starts clean. An error means the engine is not fit for another.
    pub(super) fn tidy_within(&self, budget: Duration) -> Result<(), RenderError> {
        self.budget.start(budget);
        let tidied = self.tidy();
        self.budget.stop();
        tidied
    }

    fn tidy(&self) -> Result<(), RenderError> {
        self.context.with(|ctx| {
            self.hook(&ctx, &self.hooks.clear_tasks)?
                .call::<_, ()>(())
                .map_err(|err| self.fail(&ctx, err))
        })?;
        self.run_jobs()?;
        // The jobs may have scheduled tasks again; they are not run, only forgotten.
        self.context.with(|ctx| {
            self.hook(&ctx, &self.hooks.clear_tasks)?
                .call::<_, ()>(())
                .map_err(|err| self.fail(&ctx, err))
        })?;
        self.collect_between_calls();
        Ok(())
    }

    /// Runs the cycle collector every `GcBounds::every` calls, and puts the threshold QuickJS
    /// lowers after a collection of its own back to `GcBounds::within`.
    fn collect_between_calls(&self) {
        let calls = self.calls_since_gc.get() + 1;
        if calls >= self.gc.every {
            self.runtime.run_gc();
            self.calls_since_gc.set(0);
        } else {
            self.calls_since_gc.set(calls);
        }
        self.runtime.set_gc_threshold(self.gc.within);
    }

    /// Calls the function: its string, or its Promise kept for `settle`.
    fn start(&self, function: &'static str, input: &str) -> Result<Started, RenderError> {
        self.context.with(|ctx| {
            // A call never sees the tasks of the one before (`tidy` forgot them already; this
            // also covers a call after a failed one).
            self.hook(&ctx, &self.hooks.clear_tasks)?
                .call::<_, ()>(())
                .map_err(|err| self.fail(&ctx, err))?;
            let target: Value = ctx
                .globals()
                .get(function)
                .map_err(|err| self.fail(&ctx, err))?;
            let Some(target) = target.as_function() else {
                return Err(RenderError::Script(format!(
                    "globalThis.{function} is not a function (it is {})",
                    target.type_name()
                )));
            };
            let value: Value = target.call((input,)).map_err(|err| self.fail(&ctx, err))?;
            if let Some(html) = value.as_string() {
                return html
                    .to_string()
                    .map(Started::Done)
                    .map_err(|err| self.fail(&ctx, err));
            }
            if let Some(promise) = value.as_promise() {
                return Ok(Started::Pending(Persistent::save(&ctx, promise.clone())));
            }
            Err(RenderError::Script(format!(
                "{function} returned {}, not a string or a Promise of one",
                value.type_name()
            )))
        })
    }

    /// Runs jobs, then the next task, then jobs again… until the promise settles, nothing is
    /// left to run (it never will), or the budget is spent.
    fn settle(&self, promise: Persistent<Promise<'static>>) -> Result<String, RenderError> {
        loop {
            self.run_jobs()?;
            let settled = self
                .context
                .with(|ctx| -> Result<Option<String>, RenderError> {
                    let promise = promise
                        .clone()
                        .restore(&ctx)
                        .map_err(|err| self.fail(&ctx, err))?;
                    match promise.state() {
                        PromiseState::Resolved => {
                            let value: Value = match promise.result() {
                                Some(result) => result.map_err(|err| self.fail(&ctx, err))?,
                                None => return Ok(None),
                            };
                            let Some(html) = value.as_string() else {
                                return Err(RenderError::Script(format!(
                                    "the Promise resolved to {}, not a string",
                                    value.type_name()
                                )));
                            };
                            return html
                                .to_string()
                                .map(Some)
                                .map_err(|err| self.fail(&ctx, err));
                        }
                        PromiseState::Rejected => {
                            return match promise.result::<Value>() {
                                Some(Err(err)) => Err(self.fail(&ctx, err)),
                                _ => {
                                    Err(RenderError::Script("the Promise was rejected".to_owned()))
                                }
                            };
                        }
                        PromiseState::Pending => {}
                    }
                    let ran: bool = self
                        .hook(&ctx, &self.hooks.run_task)?
                        .call(())
                        .map_err(|err| self.fail(&ctx, err))?;
                    if ran {
                        return Ok(None);
                    }
                    let uncaught: Value = self
                        .hook(&ctx, &self.hooks.take_uncaught)?
                        .call(())
                        .map_err(|err| self.fail(&ctx, err))?;
                    Err(self.never_settled(&ctx, uncaught))
                })?;
            if let Some(html) = settled {
                return Ok(html);
            }
            if self.budget.expired() {
                return Err(RenderError::TimedOut);
            }
        }
    }

    /// Runs the engine's pending jobs (promise reactions, microtasks) until none is left.
    fn run_jobs(&self) -> Result<(), RenderError> {
        loop {
            // Each job is interruptible on its own; a chain of short ones is bounded here.
            if self.budget.expired() {
                return Err(RenderError::TimedOut);
            }
            match self.runtime.execute_pending_job() {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(job) => {
                    return Err(job.0.with(|ctx| {
                        let thrown = ctx.catch();
                        Self::classify(&ctx, thrown, &self.budget)
                    }));
                }
            }
        }
    }

    /// The promise is pending and no task is left: it never settles. A task's uncaught
    /// exception is the likely reason, so it is named.
    fn never_settled<'js>(&self, ctx: &Ctx<'js>, uncaught: Value<'js>) -> RenderError {
        if uncaught.is_undefined() {
            return RenderError::Script(
                "never settled: the Promise is pending and nothing is left to run".to_owned(),
            );
        }
        match Self::classify(ctx, uncaught, &self.budget) {
            RenderError::Script(message) => RenderError::Script(one_line(
                &format!("never settled: a task threw {message}"),
                MAX_MESSAGE,
            )),
            other => other,
        }
    }

    fn hook<'js>(
        &self,
        ctx: &Ctx<'js>,
        hook: &Persistent<Function<'static>>,
    ) -> Result<Function<'js>, RenderError> {
        hook.clone().restore(ctx).map_err(|err| self.fail(ctx, err))
    }

    fn fail(&self, ctx: &Ctx<'_>, err: Error) -> RenderError {
        Self::failure(ctx, err, &self.budget)
    }

    /// What an `rquickjs` error means for the call: the pending exception classified, or the
    /// library's own error as a script failure.
    fn failure(ctx: &Ctx<'_>, err: Error, budget: &Budget) -> RenderError {
        match err {
            Error::Exception => {
                let thrown = ctx.catch();
                Self::classify(ctx, thrown, budget)
            }
            Error::Allocation => RenderError::OutOfMemory,
            _ if budget.interrupted.get() => RenderError::TimedOut,
            other => RenderError::Script(one_line(&other.to_string(), MAX_MESSAGE)),
        }
    }

    /// A thrown value: a time-out when the interrupt handler stopped the script, out of memory
    /// when QuickJS refused an allocation, else the script's own failure with its message.
    fn classify<'js>(ctx: &Ctx<'js>, thrown: Value<'js>, budget: &Budget) -> RenderError {
        if budget.interrupted.get() || thrown.is_uncatchable_error() {
            return RenderError::TimedOut;
        }
        // QuickJS throws `null` when it cannot even allocate its "out of memory" error (the heap
        // is at the limit to the last bytes). A script's own `throw null` reads the same; taken
        // as out of memory too, it costs that engine a rebuild and nothing else.
        if thrown.is_null() {
            return RenderError::OutOfMemory;
        }
        let Some(error) = thrown.as_object() else {
            let text = read(ctx, thrown.get::<Coerced<String>>().map(|c| c.0));
            return RenderError::Script(one_line(&format!("threw {text}"), MAX_MESSAGE));
        };
        let text_of = |key: &str| {
            read(ctx, error.get::<_, Option<Coerced<String>>>(key))
                .map(|c| c.0)
                .unwrap_or_default()
        };
        let (name, message) = (text_of("name"), text_of("message"));
        if name == "InternalError" && message == "out of memory" {
            return RenderError::OutOfMemory;
        }
        let stack = text_of("stack");
        let mut text = match (name.is_empty(), message.is_empty()) {
            (false, false) => format!("{name}: {message}"),
            (false, true) => name,
            (true, _) => message,
        };
        for line in stack
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .take(STACK_LINES)
        {
            text.push_str(" | ");
            text.push_str(line);
        }
        RenderError::Script(one_line(&text, MAX_MESSAGE))
    }
}

/// A value read from a thrown object, or a placeholder when reading it threw in turn (a getter,
/// a Proxy); that exception is cleared so it cannot be mistaken for the next one.
fn read<T: Default>(ctx: &Ctx<'_>, value: rquickjs::Result<T>) -> T {
    value.unwrap_or_else(|_| {
        ctx.catch();
        T::default()
    })
}

/// The `console` the prelude forwards to: level 0 (log, info, debug) at debug, 1 (warn, error)
/// at warn, one bounded line each.
fn console<'js>(
    ctx: &Ctx<'js>,
    current: Rc<Cell<&'static str>>,
) -> rquickjs::Result<Function<'js>> {
    Function::new(ctx.clone(), move |level: i32, text: String| {
        let line = one_line(&text, MAX_CONSOLE);
        let function = current.get();
        if level == 0 {
            tracing::debug!(target: "portal_gateway::render::console", function, "{line}");
        } else {
            tracing::warn!(target: "portal_gateway::render::console", function, "{line}");
        }
    })
}

/// A global script named `file` (the name stack lines show).
fn script(file: &str, strict: bool) -> EvalOptions {
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = strict;
    options.filename = Some(file.to_owned());
    options
}

/// A failure to load, as the one line the worker logs and every call then answers.
fn reason(err: RenderError) -> String {
    match err {
        RenderError::Script(message) => message,
        other => other.to_string(),
    }
}

#[cfg(test)]
impl Engine {
    /// Bytes QuickJS holds for this engine (its own accounting, which the memory limit bounds).
    pub(super) fn heap_bytes(&self) -> i64 {
        self.runtime.memory_usage().malloc_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_is_spent_by_the_threads_work_and_the_clock_is_only_a_backstop() {
        let budget = Budget::default();
        budget.start(Duration::from_millis(40));
        // Waiting, as a render does for a busy machine's cores, spends none of it.
        std::thread::sleep(Duration::from_millis(80));
        assert!(!budget.interrupt(), "40 ms of budget spent by 80 ms asleep");
        // Work spends it (or, starved here too, the backstop ends it at 200 ms).
        let spinning = Instant::now();
        while !budget.interrupt() {
            assert!(
                spinning.elapsed() < Duration::from_secs(10),
                "never stopped"
            );
        }
        assert!(budget.interrupted.get());

        // Past five budgets by the clock a run ends whatever it spent.
        budget.start(Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(120));
        assert!(budget.interrupt(), "a thread held past five budgets");
        budget.stop();
        assert!(!budget.interrupt(), "a stopped budget never interrupts");
    }
}
