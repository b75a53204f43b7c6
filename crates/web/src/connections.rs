//! What a connection may hold: a client that sends nothing is closed, an idle one too, and one
//! address holds a bounded number at once. Descriptors are the gateway's scarcest resource: 190
//! silent connections against a limit of 200 stopped it answering `/healthz` for 40 s, because
//! hyper's head deadline only starts at a request's first byte and nothing closed an idle
//! connection (HTTP/1 between requests, HTTP/2 after its preface).
//!
//! Each connection notes its progress ([`Activity`]): a request begun, or a response's bytes
//! written ([`Watched`]); a watchdog closes it when it made none for `server.first_byte_timeout`
//! since it was accepted (no first request), or for `server.idle_timeout` since then (a long
//! download keeps writing, so it is never idle). What a client only sends is no progress: an
//! HTTP/2 client that never opens its window and PINGs every 10 s, answered with PING
//! acknowledgements and nothing else, used to count as busy for ever. [`PerClient`] counts the connections of each peer address; past
//! `limits.max_connections_per_client` a new one is closed at once. Trusted proxies (all
//! visitors behind a proxy share its address) are not counted.

use std::{
    collections::HashMap,
    io,
    net::IpAddr,
    pin::Pin,
    sync::{
        Arc, LazyLock, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use ipnet::IpNet;
use portal_content::limits::{Held, Shares};

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
    /// Connections open at once, all clients together (`server.max_connections`, or what the
    /// descriptor limit leaves: [`capacity`]).
    pub max_open: usize,
}

impl ConnectionLimits {
    pub fn of(server: &ServerConfig, limits: &LimitsConfig) -> Self {
        Self {
            first_byte: server.first_byte_timeout,
            idle: server.idle_timeout,
            per_client: limits.max_connections_per_client,
            trusted: limits.trusted_proxies.clone(),
            max_open: capacity(server.max_connections),
        }
    }
}

/// Descriptors kept back from visitors' connections for the gateway's own: the CMS's and Redis's
/// connections, files streamed, the search index's segments, the log.
const RESERVED_DESCRIPTORS: u64 = 256;

/// Connections the process may hold open for visitors: `configured`, else its descriptor limit
/// (raised to the hard limit first, as a server should: systemd's default soft limit is 1 024)
/// less `RESERVED_DESCRIPTORS`, at least 64. At the red team's 1 024 descriptors, connections that
/// were never silent long enough to be closed took them all and `/healthz` failed 37 of 39 times.
pub fn capacity(configured: usize) -> usize {
    if configured > 0 {
        return configured;
    }
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let mut soft = limit.current.unwrap_or(u64::MAX);
    if let Some(hard) = limit.maximum.or(Some(u64::MAX))
        && soft < hard
        && setrlimit(
            Resource::Nofile,
            Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            },
        )
        .is_ok()
    {
        soft = hard;
    }
    // RLIM_INFINITY and other huge values: a million connections is past any need.
    let soft = soft.min(1 << 20);
    usize::try_from(soft.saturating_sub(RESERVED_DESCRIPTORS).max(64)).unwrap_or(64)
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self::of(&ServerConfig::default(), &LimitsConfig::default())
    }
}

/// Whether a connection made progress since its watchdog last looked. Marking it is one relaxed
/// store: it runs on every request and write of every connection, and reading the clock there
/// instead cost about 130 instructions a call, 260 a cached hit (about 1 % of one;
/// `make bench-instructions`, 2026-11-26).
#[derive(Debug, Default)]
pub struct Activity {
    moved: AtomicBool,
    /// When the watchdog last found bytes moved (or the connection was accepted), in ms since
    /// `EPOCH`: which connection has been idle longest, for [`Open`].
    seen: AtomicU64,
}

/// The origin of `Activity::seen`.
static EPOCH: LazyLock<std::time::Instant> = LazyLock::new(std::time::Instant::now);

fn millis(at: Instant) -> u64 {
    u64::try_from(at.into_std().saturating_duration_since(*EPOCH).as_millis()).unwrap_or(u64::MAX)
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// A connection's activity, accepted at `at`.
    pub fn accepted_at(at: Instant) -> Arc<Self> {
        let activity = Self::new();
        activity.seen.store(millis(at), Ordering::Relaxed);
        activity
    }

    /// A request begun on the connection.
    pub fn began(&self) {
        self.moved();
    }

    fn moved(&self) {
        self.moved.store(true, Ordering::Relaxed);
    }
}

/// The connections open, all clients together, bounded at `ConnectionLimits::max_open`: at the
/// bound, a new connection takes the place of one held by the client holding the most (of its
/// connections, the one idle longest, as the watchdogs last saw them), which is closed. A health
/// check, a visitor, a proxy's new connection always gets in; what makes room is a connection of
/// whoever holds the most, so a flood from a few addresses that reconnects as fast as it is closed
/// churns its own connections, not a prober's one.
#[derive(Default)]
pub struct Open {
    slots: Mutex<HashMap<u64, Slot>>,
    next: AtomicU64,
}

struct Slot {
    client: IpAddr,
    activity: Arc<Activity>,
    close: tokio::task::AbortHandle,
}

/// A connection's place among the [`Open`] ones; given back when dropped.
pub struct Place {
    of: Arc<Open>,
    key: u64,
}

impl Drop for Place {
    fn drop(&mut self) {
        self.of
            .slots
            .lock()
            .expect("open connections lock")
            .remove(&self.key);
    }
}

impl Open {
    /// Enters the connection whose activity is `activity` and whose task `close` aborts, first
    /// closing the one idle longest when `max` are open. Whether one was closed, and the place.
    pub fn enter(
        self: &Arc<Self>,
        client: IpAddr,
        activity: Arc<Activity>,
        close: tokio::task::AbortHandle,
        max: usize,
    ) -> (bool, Place) {
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        let client = portal_content::limits::client_key(client);
        let mut slots = self.slots.lock().expect("open connections lock");
        let mut evicted = false;
        while slots.len() >= max.max(1) {
            let mut held: HashMap<IpAddr, usize> = HashMap::new();
            for slot in slots.values() {
                *held.entry(slot.client).or_default() += 1;
            }
            let Some((most, _)) = held.into_iter().max_by_key(|(_, n)| *n) else {
                break;
            };
            let Some(oldest) = slots
                .iter()
                .filter(|(_, slot)| slot.client == most)
                .min_by_key(|(key, slot)| (slot.activity.seen.load(Ordering::Relaxed), **key))
                .map(|(key, _)| *key)
            else {
                break;
            };
            if let Some(slot) = slots.remove(&oldest) {
                slot.close.abort();
                evicted = true;
            }
        }
        slots.insert(
            key,
            Slot {
                client,
                activity,
                close,
            },
        );
        (
            evicted,
            Place {
                of: Arc::clone(self),
                key,
            },
        )
    }

    pub fn len(&self) -> usize {
        self.slots.lock().expect("open connections lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

    /// The activity it watches.
    pub fn activity(&self) -> Arc<Activity> {
        Arc::clone(&self.activity)
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
            self.activity.seen.store(millis(now), Ordering::Relaxed);
            return None;
        }
        match self.last_seen {
            None if now >= self.accepted + limits.first_byte => Some("silent"),
            Some(at) if now >= at + limits.idle => Some("idle"),
            _ => None,
        }
    }
}

/// A write this long or longer is progress; a shorter one is not. Every frame hyper writes on
/// its own account in one go (an HTTP/2 PING or SETTINGS acknowledgement, a WINDOW_UPDATE, a
/// RST_STREAM, its opening SETTINGS: 9 to about 60 bytes together) is shorter, so a client cannot
/// keep a connection by making the gateway answer it; a response's head or body is longer.
const PROGRESS_BYTES: usize = 128;

/// A stream noting in its [`Activity`] each write of a response's bytes (at least
/// [`PROGRESS_BYTES`]); what it reads is not noted (a request is, when it begins).
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
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n >= PROGRESS_BYTES) {
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
        if matches!(polled, Poll::Ready(Ok(n)) if n >= PROGRESS_BYTES) {
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
    open: Arc<Shares>,
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
    pub fn admit(&self, peer: IpAddr, limits: &ConnectionLimits) -> Admitted {
        let peer = peer.to_canonical();
        if limits.trusted.iter().any(|net| net.contains(&peer)) {
            return Admitted::Proxy;
        }
        // Counted by client: an IPv6 peer by its /64, as the request limits count it.
        let peer = portal_content::limits::client_key(peer);
        match self.open.enter(peer, limits.per_client) {
            Some(held) => Admitted::Counted(held),
            None => Admitted::Refused,
        }
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
            max_open: 64,
        }
    }

    /// At the cap, of the client holding the most connections the one whose bytes were last seen
    /// longest ago is closed for the new one; none is while there is room.
    #[tokio::test]
    async fn at_the_cap_the_connection_idle_longest_makes_room() {
        let open = Arc::new(Open::default());
        let start = Instant::now();
        let mut tasks = Vec::new();
        let mut places = Vec::new();
        // Three connections of one client, seen last at 30, 10 and 20 ms, and one of another
        // seen before them all.
        let flood: IpAddr = "203.0.113.7".parse().unwrap();
        let prober_task = tokio::spawn(std::future::pending::<()>());
        let (_, _probe_place) = open.enter(
            "198.51.100.1".parse().unwrap(),
            Activity::accepted_at(start),
            prober_task.abort_handle(),
            4,
        );
        for seen in [30, 10, 20] {
            let task = tokio::spawn(std::future::pending::<()>());
            let activity = Activity::accepted_at(start + Duration::from_millis(seen));
            let (evicted, place) = open.enter(flood, activity, task.abort_handle(), 4);
            assert!(!evicted);
            places.push(place);
            tasks.push(task);
        }
        let newcomer = tokio::spawn(std::future::pending::<()>());
        let (evicted, _place) = open.enter(
            "192.0.2.9".parse().unwrap(),
            Activity::accepted_at(start + Duration::from_millis(40)),
            newcomer.abort_handle(),
            4,
        );
        assert!(evicted);
        assert_eq!(open.len(), 4);
        assert!(
            !prober_task.is_finished(),
            "the client with one connection keeps it"
        );
        let second = tasks.remove(1);
        assert!(
            second.await.unwrap_err().is_cancelled(),
            "the one idle longest"
        );
        for task in &tasks {
            assert!(!task.is_finished());
        }
        // A place given back leaves room.
        drop(places.pop());
        assert_eq!(open.len(), 3);
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

    /// What a client sends is no progress, nor what hyper answers on its own account (an HTTP/2
    /// PING acknowledgement: 17 bytes); a response's bytes are.
    #[tokio::test]
    async fn only_a_responses_bytes_count_as_progress() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (client, server) = tokio::io::duplex(4096);
        let activity = Activity::new();
        let mut watched = Watched::new(server, Arc::clone(&activity));
        let (mut client_read, mut client_write) = tokio::io::split(client);
        // An HTTP/2 PING frame from the client, read by the server.
        let ping = [0, 0, 8, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        client_write.write_all(&ping).await.unwrap();
        let mut read = [0u8; 17];
        watched.read_exact(&mut read).await.unwrap();
        assert!(
            !activity.moved.load(Ordering::Relaxed),
            "a read is no progress"
        );
        // Its acknowledgement.
        let mut pong = ping;
        pong[4] = 1;
        watched.write_all(&pong).await.unwrap();
        client_read.read_exact(&mut read).await.unwrap();
        assert!(
            !activity.moved.load(Ordering::Relaxed),
            "nor a PING's answer"
        );
        watched.write_all(&[b'x'; 512]).await.unwrap();
        assert!(
            activity.moved.load(Ordering::Relaxed),
            "a response's bytes are"
        );
        activity.moved.store(false, Ordering::Relaxed);
        activity.began();
        assert!(
            activity.moved.load(Ordering::Relaxed),
            "and so is a request begun"
        );
    }
}
