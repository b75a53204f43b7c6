//! `ClientLimitLayer`: every request's size (target → 414, headers → 431), then the per-client
//! limit on the requests the endpoint table (or the admin prefix) says are limited; over the
//! rate → 429 envelope with `Retry-After`.
//!
//! A plain tower layer around the router (no boxing, no service clone) because it sees every
//! request. It holds only the limiter handle, and each connection's copy is told its peer
//! address once (`set_peer`) rather than reading axum's `ConnectInfo` from every request's
//! extensions (docs/performance.md).

use std::{
    net::{IpAddr, Ipv4Addr},
    task::{Context, Poll},
};

use axum::{
    extract::Request,
    response::{IntoResponse, Response},
};
use futures_util::future::{Either, Ready, ready};
use tower::{Layer, Service};

use super::ClientLimits;
use portal_core::endpoint::Endpoint;

/// Where the operator's endpoints live; limited too (it slows token guessing).
pub const ADMIN_PREFIX: &str = "/portal/admin";

/// Whether a request counts against the per-client limit: the API endpoints the table marks
/// (not files: one page view asks for many), unknown API paths, and the admin endpoints.
/// Static files and health checks are exempt.
pub fn is_limited(path: &str) -> bool {
    let under = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    match Endpoint::of_path(path) {
        Some(endpoint) => endpoint.spec().client_limited,
        None => under(portal_core::endpoint::API_PREFIX) || under(ADMIN_PREFIX),
    }
}

#[derive(Clone)]
pub struct ClientLimitLayer {
    limits: ClientLimits,
}

impl ClientLimitLayer {
    pub fn new(limits: ClientLimits) -> Self {
        Self { limits }
    }
}

impl<S> Layer<S> for ClientLimitLayer {
    type Service = ClientLimit<S>;

    fn layer(&self, inner: S) -> ClientLimit<S> {
        ClientLimit {
            limits: self.limits.clone(),
            // Until told otherwise (a service driven without a connection, as in tests).
            peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
            inner,
        }
    }
}

#[derive(Clone)]
pub struct ClientLimit<S> {
    limits: ClientLimits,
    peer: IpAddr,
    inner: S,
}

impl<S> ClientLimit<S> {
    /// This copy serves one connection from `peer`.
    pub fn set_peer(&mut self, peer: IpAddr) {
        self.peer = peer;
    }
}

impl<S> Service<Request> for ClientLimit<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Either<
        Ready<Result<Response, S::Error>>,
        tokio::task::futures::TaskLocalFuture<(IpAddr, ClientLimits), S::Future>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // One load of the policy for the checks here. The task-local below carries the handle
        // (an `Arc` clone), not the policy: the share is read only by a request that loads from
        // the CMS, rarely on a hit. (With two loads and a `load_full` here, and a clock read per
        // byte movement in `connections.rs`, a hit cost 26 187 instructions; with both changed,
        // 25 520 against 25 194 before issue 32: `make bench-instructions`, 2026-11-26.)
        let ip = {
            let policy = self.limits.policy();
            if let Err(refused) = policy.check_size(&request) {
                return Either::Left(ready(Ok(refused.into_response())));
            }
            // The client, read once: limited by its rate here, and, for every request, limited
            // or not (a page, a feed), charged for what it loads from the CMS.
            let ip = policy.client_ip(self.peer, request.headers());
            if is_limited(request.uri().path())
                && let Err(refused) = policy.check_client(ip)
            {
                tracing::debug!(%ip, "client over its rate limit");
                return Either::Left(ready(Ok(refused.into_response())));
            }
            ip
        };
        Either::Right(super::serve_for(
            ip,
            self.limits.clone(),
            self.inner.call(request),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_api_and_admin_are_limited_and_files_are_not() {
        for path in [
            "/portal/api/category/list",
            "/portal/api/site",
            "/portal/api/x",
            "/portal/api",
            "/portal/admin/cache/purge",
            "/portal/admin",
        ] {
            assert!(is_limited(path), "{path}");
        }
        for path in [
            "/portal/api/files/covers/a.jpg",
            "/portal/",
            "/portal/assets/app.js",
            "/healthz",
            "/portal/apix",
            "/portal/administration",
        ] {
            assert!(!is_limited(path), "{path}");
        }
    }

    #[test]
    fn every_endpoint_is_limited_as_the_table_says() {
        for endpoint in Endpoint::ALL {
            assert_eq!(
                is_limited(&endpoint.sample_path()),
                endpoint.spec().client_limited,
                "{endpoint:?}"
            );
        }
    }
}
