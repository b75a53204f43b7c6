//! The accept loop: each connection gets its copy of the app (told its peer address once) and is
//! served by hyper with a deadline for the request head, so a client that sends its headers a
//! byte at a time (slowloris) is dropped rather than holding a connection for ever. Graceful:
//! on shutdown it stops accepting, lets requests in flight finish (for `drain` at most: then their
//! connections are cut), then returns.
//!
//! Written here rather than with `axum::serve`, which sets no timer on hyper's connections, so
//! hyper's header read time-out never applies. What a connection may hold besides (silence, idleness,
//! how many one address opens) is `connections`.

use std::{future::Future, io, pin::pin, time::Duration};

use axum::body::Body;
use hyper::{Request, body::Incoming};
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto::Builder, graceful::GracefulShutdown},
    service::TowerToHyperService,
};
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::{
    connections::{Activity, Admitted, ConnectionLimits, Open, PerClient, Watchdog, Watched},
    stack::App,
};

/// Streams one HTTP/2 connection may have open at once.
const H2_STREAMS: u32 = 100;

/// Serves `app` on `listener` until `shutdown` resolves. A request head must arrive within
/// `header_read_timeout` of its first byte; a connection is closed after `limits.first_byte`
/// without a first byte and `limits.idle` without any.
pub async fn serve(
    listener: TcpListener,
    app: App,
    header_read_timeout: Duration,
    limits: ConnectionLimits,
    drain: Duration,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let per_client = std::sync::Arc::new(PerClient::default());
    let open = std::sync::Arc::new(Open::default());
    // Every reason from the start, at 0: an alert on one has a series to watch before it happens.
    for reason in ["silent", "idle", "per_client", "evicted"] {
        metrics::counter!("portal_connections_closed_total", "reason" => reason).increment(0);
    }
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout);
    // HTTP/2 within what a portal needs: hyper's defaults (200 streams, each with 400 KiB to send
    // buffered and a 1 MiB window to receive) let one connection that never opens its window hold
    // 80 MiB of answers and 200 relays; here at most 6.4 MiB and 100. A page asks for a few dozen
    // files at once, and nothing a visitor sends (a search, a webhook's notice) is large.
    builder
        .http2()
        .max_concurrent_streams(H2_STREAMS)
        .max_send_buf_size(64 * 1024)
        .initial_stream_window_size(64 * 1024)
        .initial_connection_window_size(256 * 1024)
        .max_header_list_size(32 * 1024);
    let graceful = GracefulShutdown::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(%err, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let held = match per_client.admit(peer.ip(), &limits) {
            Admitted::Refused => {
                metrics::counter!("portal_connections_closed_total", "reason" => "per_client")
                    .increment(1);
                continue;
            }
            admitted => admitted,
        };
        let _ = stream.set_nodelay(true);
        let activity = Activity::accepted_at(tokio::time::Instant::now());
        let stream = Watched::new(stream, std::sync::Arc::clone(&activity));
        let mut app = app.clone();
        app.set_peer(peer.ip());
        let began = std::sync::Arc::clone(&activity);
        let service =
            TowerToHyperService::new(app.map_request(move |request: Request<Incoming>| {
                began.began();
                request.map(Body::new)
            }));
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        let limits = limits.clone();
        let mut watchdog = Watchdog::new(activity, tokio::time::Instant::now());
        // The connection runs as a task of its own, with nothing beside it to poll each time it
        // wakes (a timer polled with it cost about 130 instructions a request; `make
        // bench-instructions`, 2026-11-26). Its watchdog is a second task that wakes a few times
        // per time-out, and ends with it.
        let mut serving = tokio::spawn(async move {
            let _held = held;
            if let Err(err) = connection.await {
                tracing::trace!(error = %err, "connection ended with an error");
            }
        });
        // Its place among all the open ones (given back when its watchdog ends, with it); at the
        // cap, a connection of the client holding the most is closed to make room.
        let (evicted, place) = open.enter(
            peer.ip(),
            watchdog.activity(),
            serving.abort_handle(),
            limits.max_open,
        );
        if evicted {
            metrics::counter!("portal_connections_closed_total", "reason" => "evicted")
                .increment(1);
        }
        tokio::spawn(async move {
            let _place = place;
            loop {
                tokio::select! {
                    biased;
                    _ = &mut serving => return,
                    () = tokio::time::sleep_until(watchdog.next_look(&limits, tokio::time::Instant::now())) => {
                        if let Some(why) = watchdog.look(&limits, tokio::time::Instant::now()) {
                            metrics::counter!("portal_connections_closed_total", "reason" => why)
                                .increment(1);
                            // Dropped: its socket is closed.
                            serving.abort();
                            return;
                        }
                    }
                }
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(drain, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            drain_s = drain.as_secs(),
            "requests still running at the end of server.shutdown_timeout: their connections are cut"
        );
    }
    Ok(())
}
