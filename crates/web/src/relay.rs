//! A body relayed from the CMS to a client (a file streamed rather than kept), with a stall
//! deadline: when the client takes no piece of it for `server.stall_timeout`, the relay stops and
//! the CMS's connection is let go.
//!
//! Without it a client that stops reading (an HTTP/2 stream whose window it never opens, a
//! socket it never drains) held the CMS's connection for as long as it liked: the CMS client's
//! read time-out only runs while the gateway is reading, and a relay that cannot hand a piece on
//! does not read. The red team's h2c clients opened 4 057 gateway→CMS connections in 90 s that way
//! (333 MiB; behind nginx with `proxy_buffering off`, 2.39 GiB).
//!
//! The CMS's body is read by a task of its own that hands each piece over a channel of one: a
//! piece the client has not taken within the deadline ends the task, which drops the CMS's body
//! (its connection closed, not pooled). The client's side then ends in an error, never a short
//! body that looks whole.

use std::{
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::body::Body;
use bytes::Bytes;
use futures_util::StreamExt;
use http_body::Frame;
use tokio::sync::mpsc::{self, error::SendTimeoutError};

/// `body`, handed on as the client takes it; abandoned when a piece waits `stall` for it. `held`
/// (the client's place among its relays) is let go with the CMS's body.
pub fn relayed<H: Send + 'static>(body: Body, stall: Duration, held: H) -> Body {
    let (pieces, taken) = mpsc::channel(1);
    let whole = Arc::new(AtomicBool::new(false));
    let done = Arc::clone(&whole);
    tokio::spawn(async move {
        let _held = held;
        let mut body = body.into_data_stream();
        while let Some(piece) = body.next().await {
            let failed = piece.is_err();
            match pieces.send_timeout(piece, stall).await {
                Ok(()) if !failed => {}
                Ok(()) | Err(SendTimeoutError::Closed(_)) => return,
                Err(SendTimeoutError::Timeout(_)) => {
                    metrics::counter!("portal_relays_stalled_total").increment(1);
                    tracing::info!(
                        stall_s = stall.as_secs_f32(),
                        "a client took nothing of a relayed file for server.stall_timeout: relay stopped"
                    );
                    return;
                }
            }
        }
        // Before the sender goes: the receiver reads it once the channel is closed.
        done.store(true, Ordering::Release);
    });
    Body::new(Relay { taken, whole })
}

struct Relay {
    taken: mpsc::Receiver<Result<Bytes, axum::Error>>,
    /// Set when the CMS's body ended whole.
    whole: Arc<AtomicBool>,
}

impl http_body::Body for Relay {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        match self.taken.poll_recv(cx) {
            Poll::Ready(Some(piece)) => Poll::Ready(Some(piece.map(Frame::data))),
            Poll::Ready(None) if self.whole.load(Ordering::Acquire) => Poll::Ready(None),
            Poll::Ready(None) => Poll::Ready(Some(Err(axum::Error::new(
                "the relay stopped before the end of the file",
            )))),
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    fn pieces(n: usize) -> Body {
        Body::from_stream(futures_util::stream::iter(
            (0..n).map(|_| Ok::<_, std::io::Error>(Bytes::from_static(b"0123456789"))),
        ))
    }

    #[tokio::test]
    async fn a_client_that_reads_gets_the_whole_body() {
        let body = relayed(pieces(100), Duration::from_secs(5), ());
        let bytes = body.collect().await.unwrap().to_bytes();
        assert_eq!(bytes.len(), 1000);
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_ends_in_an_error_and_the_source_is_dropped() {
        let dropped = Arc::new(AtomicBool::new(false));
        struct Flag(Arc<AtomicBool>);
        impl Drop for Flag {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let flag = Flag(Arc::clone(&dropped));
        let source = futures_util::stream::iter(0..1000).map(move |_| {
            let _held = &flag;
            Ok::<_, std::io::Error>(Bytes::from_static(b"0123456789"))
        });
        let mut body = relayed(Body::from_stream(source), Duration::from_millis(200), ());
        body.frame().await.unwrap().unwrap();
        for _ in 0..50 {
            if dropped.load(Ordering::SeqCst) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(dropped.load(Ordering::SeqCst), "the CMS's body was let go");
        let mut error = false;
        while let Some(frame) = body.frame().await {
            if frame.is_err() {
                error = true;
                break;
            }
        }
        assert!(error, "the client sees an error, not a short body");
    }
}
