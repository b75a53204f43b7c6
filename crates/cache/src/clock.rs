//! The time the cache judges an answer's age by: the machine's clocks, which a test moves forward
//! (`advance`) to see an answer turn stale, or too old to serve, without waiting for it.
//!
//! Every stamp the cache keeps and every age it reads go through one `Clock`, so moving it ages
//! what is stored and nothing stored after the move. moka's own eviction (`keep_for`) stays on the
//! real clock: an entry past its stale allowance on this clock is judged too old at lookup
//! whether or not moka has dropped it yet. In a running gateway nothing moves it: the cost is one
//! relaxed atomic load per look-up (within the noise of `make bench-instructions`).

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant, SystemTime},
};

#[derive(Debug, Clone, Default)]
pub struct Clock {
    /// How far it runs ahead of the machine's clocks, in nanoseconds.
    ahead: Arc<AtomicU64>,
}

impl Clock {
    fn ahead(&self) -> Duration {
        Duration::from_nanos(self.ahead.load(Ordering::Relaxed))
    }

    /// Now, on the monotonic clock.
    pub fn now(&self) -> Instant {
        Instant::now() + self.ahead()
    }

    /// Now, on the wall clock (what the shared tier stores, for other replicas to read).
    pub fn wall(&self) -> SystemTime {
        SystemTime::now() + self.ahead()
    }

    /// How long ago `then` (a stamp of this clock) was.
    pub fn since(&self, then: Instant) -> Duration {
        self.now().saturating_duration_since(then)
    }

    /// The monotonic stamp of the wall-clock moment `at`; a moment ahead of this clock (another
    /// replica's clock runs ahead) counts as now.
    pub fn stamp_of(&self, at: SystemTime) -> Instant {
        let age = self.wall().duration_since(at).unwrap_or_default();
        let now = self.now();
        now.checked_sub(age).unwrap_or(now)
    }

    /// Moves this clock (and every clone of it) forward by `by`.
    pub fn advance(&self, by: Duration) {
        let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        self.ahead.fetch_add(nanos, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_it_ages_what_was_stamped_before_and_nothing_after() {
        let clock = Clock::default();
        let before = clock.now();
        clock.advance(Duration::from_secs(90));
        let after = clock.now();
        assert!(clock.since(before) >= Duration::from_secs(90));
        assert!(clock.since(after) < Duration::from_secs(1));
        // Clones share it: the cache's and the shared tier's.
        let copy = clock.clone();
        copy.advance(Duration::from_secs(10));
        assert!(clock.since(after) >= Duration::from_secs(10));
    }

    #[test]
    fn a_wall_moment_maps_to_the_same_age() {
        let clock = Clock::default();
        clock.advance(Duration::from_secs(60));
        let at = clock.wall() - Duration::from_secs(5);
        let age = clock.since(clock.stamp_of(at));
        assert!(
            age >= Duration::from_secs(5) && age < Duration::from_secs(6),
            "{age:?}"
        );
        // From the future: now.
        assert!(
            clock.since(clock.stamp_of(clock.wall() + Duration::from_secs(30)))
                < Duration::from_secs(1)
        );
    }
}
