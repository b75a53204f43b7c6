//! Each client's share of the render pool: at most `limits.per_client_renders` of the pages it
//! asks for are being rendered for it at once; past that, its page is the app shell at once
//! (which the browser renders itself) rather than a place in the pool's queue.
//!
//! The pool is shared by everyone and a page not in the cache costs a render: without a share,
//! 40 addresses each asking for a cold page a second (each within its request and CMS
//! allowances) filled the queue, and 10 of a new visitor's 11 pages were the shell. With it,
//! the queue holds at most a few renders per client, and a visitor's render finds a place.
//! Who starts a page's render is charged; a visitor who joins a render under way is not.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex},
};

/// The renders under way for each client.
#[derive(Default)]
pub struct RenderShares {
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// A render counted against its client's share while it lives.
pub struct Share {
    of: Arc<RenderShares>,
    client: IpAddr,
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self.of.held.lock().expect("render shares lock");
        if let Some(count) = held.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.client);
            }
        }
    }
}

impl RenderShares {
    /// A place for one more render for `client` (its key: `limits::client_key`), or `None` when
    /// `max` are under way for it.
    pub fn enter(self: &Arc<Self>, client: IpAddr, max: usize) -> Option<Share> {
        let mut held = self.held.lock().expect("render shares lock");
        let count = held.entry(client).or_default();
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Share {
            of: Arc::clone(self),
            client,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_holds_at_most_its_share_and_gets_it_back() {
        let shares = Arc::new(RenderShares::default());
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = shares.enter(a, 2).unwrap();
        let _second = shares.enter(a, 2).unwrap();
        assert!(shares.enter(a, 2).is_none());
        assert!(shares.enter(b, 2).is_some(), "another client has its own");
        drop(first);
        assert!(shares.enter(a, 2).is_some());
    }
}
