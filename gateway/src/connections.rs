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
        atomic::{AtomicU64, Ordering},
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

/// When a connection's bytes last moved, as milliseconds since it was accepted (0: never).
#[derive(Debug)]
pub struct Activity {
    accepted: Instant,
    last_ms: AtomicU64,
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            accepted: Instant::now(),
            last_ms: AtomicU64::new(0),
        })
    }

    fn moved(&self) {
        let ms = u64::try_from(self.accepted.elapsed().as_millis()).unwrap_or(u64::MAX);
        // 0 means "never": a byte in the first millisecond counts as the first.
        self.last_ms.store(ms.max(1), Ordering::Relaxed);
    }

    /// When the connection is to be closed if nothing moves before, and why.
    pub fn deadline(&self, limits: &ConnectionLimits) -> (Instant, &'static str) {
        match self.last_ms.load(Ordering::Relaxed) {
            0 => (self.accepted + limits.first_byte, "silent"),
            ms => (
                self.accepted + Duration::from_millis(ms) + limits.idle,
                "idle",
            ),
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
        for _ in 0..10 {
            assert!(matches!(
                counts.admit("10.1.2.3".parse().unwrap(), &limits),
                Admitted::Proxy
            ));
        }
    }
}
