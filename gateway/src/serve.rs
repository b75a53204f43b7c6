//! The accept loop: each connection gets its copy of the app (told its peer address once) and is
//! served by hyper with a deadline for the request head, so a client that sends its headers a
//! byte at a time (slowloris) is dropped rather than holding a connection for ever. Graceful:
//! on shutdown it stops accepting, lets requests in flight finish (for `drain` at most: then their
//! connections are cut), then returns.
//!
//! Written here rather than with `axum::serve`, which sets no timer on hyper's connections, so
//! hyper's header read time-out never applies.

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

use crate::stack::App;

/// Serves `app` on `listener` until `shutdown` resolves. A request head must arrive within
/// `header_read_timeout` of its first byte (or of the connection's start).
pub async fn serve(
    listener: TcpListener,
    app: App,
    header_read_timeout: Duration,
    drain: Duration,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout);
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
        let _ = stream.set_nodelay(true);
        let mut app = app.clone();
        app.set_peer(peer.ip());
        let service = TowerToHyperService::new(
            app.map_request(|request: Request<Incoming>| request.map(Body::new)),
        );
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::trace!(error = %err, "connection ended with an error");
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
