//! Each client's share of work that holds something everyone needs while it runs: a place in the
//! render pool, a relayed file's CMS connection, a search's turn. A client has at most
//! `limits.per_client_*` of each under way at once; past it, its next is refused at once (429,
//! `Retry-After: 1`) rather than waiting for a place that others wait for too.
//!
//! A rate allowance does not bound these: a request within it can hold its place for as long as
//! the work lasts. Forty addresses each asking for a cold page a second filled the render queue
//! (10 of a new visitor's 11 pages were the shell); a client that opened relays of a video and
//! read none held a CMS connection each until the stall deadline.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex},
};

/// Counts of something under way per key; the same counter keeps each client's open connections
/// (`connections.rs`) and its work (`Work`).
#[derive(Default)]
pub struct Shares {
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One unit counted against its client while it lives.
pub struct Held {
    of: Arc<Shares>,
    client: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.of.held.lock().expect("shares lock");
        if let Some(count) = held.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.client);
            }
        }
    }
}

impl Shares {
    /// How many are under way for `client`.
    pub fn count(&self, client: IpAddr) -> usize {
        self.held
            .lock()
            .expect("shares lock")
            .get(&client)
            .copied()
            .unwrap_or(0)
    }

    /// A place for one more for `client` (the caller's key for it: `client_key`), or `None` when
    /// `max` are under way for it.
    pub fn enter(self: &Arc<Self>, client: IpAddr, max: usize) -> Option<Held> {
        let mut held = self.held.lock().expect("shares lock");
        let count = held.entry(client).or_default();
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Held {
            of: Arc::clone(self),
            client,
        })
    }
}

/// Work a client has a share of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A page rendered because it was not in the cache (`limits.per_client_renders`).
    Render,
    /// A file streamed from the CMS (`limits.per_client_files`).
    File,
    /// A search (`limits.per_client_searches`).
    Search,
}

impl Work {
    /// The label of `portal_rate_limited_total` when a share is taken.
    pub fn limit_label(self) -> &'static str {
        match self {
            Self::Render => "client_render",
            Self::File => "client_files",
            Self::Search => "client_searches",
        }
    }
}

/// The shares of every client, one counter per kind of work; outlives reloads (a reload that
/// changes a `per_client_*` bound applies it to the next work, counting what is under way).
#[derive(Default)]
pub struct WorkShares {
    renders: Arc<Shares>,
    files: Arc<Shares>,
    searches: Arc<Shares>,
}

impl WorkShares {
    fn of(&self, work: Work) -> &Arc<Shares> {
        match work {
            Work::Render => &self.renders,
            Work::File => &self.files,
            Work::Search => &self.searches,
        }
    }

    pub fn enter(&self, work: Work, client: IpAddr, max: usize) -> Option<Held> {
        self.of(work).enter(client, max)
    }

    pub fn count(&self, work: Work, client: IpAddr) -> usize {
        self.of(work).count(client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_holds_at_most_its_share_and_gets_it_back() {
        let shares = WorkShares::default();
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = shares.enter(Work::File, a, 2).unwrap();
        let _second = shares.enter(Work::File, a, 2).unwrap();
        assert!(shares.enter(Work::File, a, 2).is_none());
        assert!(
            shares.enter(Work::File, b, 2).is_some(),
            "another client has its own"
        );
        assert!(
            shares.enter(Work::Search, a, 2).is_some(),
            "each kind of work its own"
        );
        drop(first);
        assert!(shares.enter(Work::File, a, 2).is_some());
    }
}
