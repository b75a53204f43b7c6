//! What a connection may hold: a client that sends nothing is closed, an idle one too, and one
//! address holds a bounded number at once. Descriptors are the gateway's scarcest resource: 190
//! silent connections against a limit of 200 stopped it answering `/healthz` for 40 s, because
//! hyper's head deadline only starts at a request's first byte and nothing closed an idle
//! connection (HTTP/1 between requests, HTTP/2 after its preface).
//!
//! Each connection's stream counts its bytes' last movement ([`Watched`]); a watchdog closes it
//! when nothing moved for `server.first_byte_timeout` since it was accepted (before a first
//! byte), or for `server.idle_timeout` since then (a long download keeps moving, so it is never
//! idle). [`PerClient`] counts the connections of each peer address; past
//! `limits.max_connections_per_client` a new one is closed at once. Trusted proxies (all
//! visitors behind a proxy share its address) are not counted.

use std::{
    collections::HashMap,
    io,
    net::IpAddr,
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use ipnet::IpNet;

use crate::config::{LimitsConfig, ServerConfig};
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    time::Instant,
};

/// The settings of [`serve`](crate::serve::serve) for connections, read once at start.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    pub first_byte: Duration,
    pub idle: Duration,
    pub per_client: usize,
    pub trusted: Vec<IpNet>,
}

impl ConnectionLimits {
    pub fn of(server: &ServerConfig, limits: &LimitsConfig) -> Self {
        Self {
            first_byte: server.first_byte_timeout,
            idle: server.idle_timeout,
            per_client: limits.max_connections_per_client,
            trusted: limits.trusted_proxies.clone(),
        }
    }
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self::of(&ServerConfig::default(), &LimitsConfig::default())
    }
}

/// Whether a connection's bytes moved since its watchdog last looked. Marking it is one relaxed
/// store: it runs on every read and write of every connection, and reading the clock there
/// instead cost about 130 instructions a call, 260 a cached hit (about 1 % of one;
/// `make bench-instructions`, 2026-11-26).
#[derive(Debug, Default)]
pub struct Activity {
    moved: AtomicBool,
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    fn moved(&self) {
        self.moved.store(true, Ordering::Relaxed);
    }
}

/// Closes a connection whose [`Activity`] shows nothing moving: `first_byte` after it was
/// accepted when no byte ever moved, `idle` after bytes were last seen moving. It looks every
/// quarter of the time-out, so a connection is closed after between one and one and a quarter
/// of its time-out of silence. It reads no clock itself: the caller says what time it is, so the
/// tests step through a connection's life without waiting for it.
pub struct Watchdog {
    activity: Arc<Activity>,
    accepted: Instant,
    /// When a look last found bytes moved (`None`: never).
    last_seen: Option<Instant>,
}

impl Watchdog {
    /// The watchdog of a connection accepted at `accepted`.
    pub fn new(activity: Arc<Activity>, accepted: Instant) -> Self {
        Self {
            activity,
            accepted,
            last_seen: None,
        }
    }

    /// When to look next, at `now`.
    pub fn next_look(&self, limits: &ConnectionLimits, now: Instant) -> Instant {
        let (deadline, limit) = match self.last_seen {
            None => (self.accepted + limits.first_byte, limits.first_byte),
            Some(at) => (at + limits.idle, limits.idle),
        };
        deadline.min(now + limit / 4)
    }

    /// A look at `now`: why the connection is to be closed, if it is.
    pub fn look(&mut self, limits: &ConnectionLimits, now: Instant) -> Option<&'static str> {
        if self.activity.moved.swap(false, Ordering::Relaxed) {
            self.last_seen = Some(now);
            return None;
        }
        match self.last_seen {
            None if now >= self.accepted + limits.first_byte => Some("silent"),
            Some(at) if now >= at + limits.idle => Some("idle"),
            _ => None,
        }
    }
}

/// A stream noting each movement of its bytes in its [`Activity`].
pub struct Watched<S> {
    inner: S,
    activity: Arc<Activity>,
}

impl<S> Watched<S> {
    pub fn new(inner: S, activity: Arc<Activity>) -> Self {
        Self { inner, activity }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.moved();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.moved();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.moved();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The open connections of each peer address.
#[derive(Default)]
pub struct PerClient {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One counted connection; uncounted when dropped.
pub struct Held {
    of: Arc<PerClient>,
    peer: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.of.open.lock().expect("connection counts lock");
        if let Some(count) = open.get_mut(&self.peer) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.peer);
            }
        }
    }
}

/// What [`PerClient::admit`] decides.
pub enum Admitted {
    /// Counted while the value lives.
    Counted(Held),
    /// A trusted proxy: not counted.
    Proxy,
    /// Over the limit: to be closed.
    Refused,
}

impl PerClient {
    pub fn admit(self: &Arc<Self>, peer: IpAddr, limits: &ConnectionLimits) -> Admitted {
        let peer = peer.to_canonical();
        if limits.trusted.iter().any(|net| net.contains(&peer)) {
            return Admitted::Proxy;
        }
        // Counted by client: an IPv6 peer by its /64, as the request limits count it.
        let peer = portal_content::limits::client_key(peer);
        let mut open = self.open.lock().expect("connection counts lock");
        let count = open.entry(peer).or_default();
        if *count >= limits.per_client {
            return Admitted::Refused;
        }
        *count += 1;
        Admitted::Counted(Held {
            of: Arc::clone(self),
            peer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_client: usize, trusted: &[&str]) -> ConnectionLimits {
        ConnectionLimits {
            first_byte: Duration::from_secs(1),
            idle: Duration::from_secs(5),
            per_client,
            trusted: trusted.iter().map(|t| t.parse().unwrap()).collect(),
        }
    }

    #[test]
    fn an_address_holds_at_most_its_share_and_a_proxy_is_not_counted() {
        let counts = Arc::new(PerClient::default());
        let limits = limits(2, &["10.0.0.0/8"]);
        let a: IpAddr = "203.0.113.1".parse().unwrap();
        let first = counts.admit(a, &limits);
        let second = counts.admit(a, &limits);
        assert!(matches!(first, Admitted::Counted(_)));
        assert!(matches!(second, Admitted::Counted(_)));
        assert!(matches!(counts.admit(a, &limits), Admitted::Refused));
        // The same address seen through a dual-stack listener is the same client.
        let mapped: IpAddr = "::ffff:203.0.113.1".parse().unwrap();
        assert!(matches!(counts.admit(mapped, &limits), Admitted::Refused));
        assert!(matches!(
            counts.admit("203.0.113.2".parse().unwrap(), &limits),
            Admitted::Counted(_)
        ));
        drop(first);
        assert!(matches!(counts.admit(a, &limits), Admitted::Counted(_)));
        // An IPv6 client is its /64: its other addresses share its connections.
        let v6: IpAddr = "2001:db8:7:8::1".parse().unwrap();
        let _held = [counts.admit(v6, &limits), counts.admit(v6, &limits)];
        assert!(matches!(
            counts.admit("2001:db8:7:8:aaaa::2".parse().unwrap(), &limits),
            Admitted::Refused
        ));
        for _ in 0..10 {
            assert!(matches!(
                counts.admit("10.1.2.3".parse().unwrap(), &limits),
                Admitted::Proxy
            ));
        }
    }

    /// Steps through the watchdog's looks until it closes the connection, `moves` marking
    /// activity at the given offsets (ms) since accept; the time after accept it closed at, and
    /// why. Time here is the watchdog's argument: each look happens when it asked to look.
    fn closed_after(moves: &[u64]) -> (Duration, &'static str) {
        let limits = limits(1, &[]);
        let activity = Activity::new();
        let start = Instant::now();
        let mut watchdog = Watchdog::new(Arc::clone(&activity), start);
        let mut moves = moves
            .iter()
            .map(|ms| start + Duration::from_millis(*ms))
            .peekable();
        let mut now = start;
        loop {
            let look = watchdog.next_look(&limits, now);
            assert!(look > now, "a look is always later");
            while moves.next_if(|at| *at <= look).is_some() {
                activity.moved();
            }
            now = look;
            if let Some(why) = watchdog.look(&limits, now) {
                return (now - start, why);
            }
        }
    }

    #[test]
    fn a_connection_is_closed_after_its_time_out_of_silence_and_not_before() {
        // first_byte 1 s, idle 5 s.
        assert_eq!(closed_after(&[]), (Duration::from_secs(1), "silent"));
        let (at, why) = closed_after(&[100]);
        assert_eq!(why, "idle");
        assert!(
            at >= Duration::from_millis(5_100) && at <= Duration::from_millis(6_350),
            "{at:?}"
        );
        // Moving now and then keeps it open; the silence after the last move closes it.
        let (at, why) = closed_after(&[100, 3_000, 7_000, 11_000, 15_500]);
        assert_eq!(why, "idle");
        assert!(
            at >= Duration::from_millis(20_500) && at <= Duration::from_millis(21_750),
            "{at:?}"
        );
    }
}
