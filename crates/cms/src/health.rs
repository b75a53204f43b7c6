//! What the gateway last saw of the CMS: up, down, or refusing the gateway's credential. Every
//! call reports here; `/readyz` shows it (readiness does not depend on it: the cache carries the
//! site through an outage), `portal_upstream_up` exports it, and each change is one log line. A
//! refused credential is a configuration fault: logged at ERROR, at most once a minute, and
//! counted in `portal_upstream_credential_refused_total`.

use std::{
    sync::{
        Mutex,
        atomic::{AtomicU8, Ordering},
    },
    time::{Duration, Instant},
};

use serde::Serialize;

use super::UpstreamError;

/// How often a refused credential is logged again while it lasts.
const REFUSED_LOG_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UpstreamState {
    /// No call has been made yet.
    Unknown = 0,
    Up = 1,
    /// Unreachable, timing out, or answering with server errors or garbage.
    Down = 2,
    /// Answering, but refusing the gateway's own credential.
    Refused = 3,
}

impl UpstreamState {
    fn from_u8(n: u8) -> Self {
        match n {
            1 => Self::Up,
            2 => Self::Down,
            3 => Self::Refused,
            _ => Self::Unknown,
        }
    }

    /// What a call's outcome says of the CMS; `None` when it says nothing (the CMS answered a
    /// visitor's question with "no such article", or the gateway's own limits refused the call).
    fn of<T>(result: &Result<T, UpstreamError>) -> Option<Self> {
        match result {
            Ok(_) => Some(Self::Up),
            Err(UpstreamError::CredentialRefused { .. }) => Some(Self::Refused),
            Err(
                UpstreamError::Timeout
                | UpstreamError::Unreachable(_)
                | UpstreamError::Unresolved(_)
                | UpstreamError::Unavailable
                | UpstreamError::BadResponse(_)
                | UpstreamError::Redirect { .. },
            ) => Some(Self::Down),
            Err(UpstreamError::Status { code, .. }) if *code >= 500 => Some(Self::Down),
            Err(_) => None,
        }
    }
}

pub struct UpstreamHealth {
    state: AtomicU8,
    changed: Mutex<Instant>,
    refused_logged: Mutex<Option<Instant>>,
}

impl Default for UpstreamHealth {
    fn default() -> Self {
        Self {
            state: AtomicU8::new(UpstreamState::Unknown as u8),
            changed: Mutex::new(Instant::now()),
            refused_logged: Mutex::new(None),
        }
    }
}

impl UpstreamHealth {
    pub fn state(&self) -> UpstreamState {
        UpstreamState::from_u8(self.state.load(Ordering::Relaxed))
    }

    /// How long the state has been what it is.
    pub fn for_how_long(&self) -> Duration {
        self.changed.lock().expect("health lock").elapsed()
    }

    /// Takes in one call's outcome.
    pub fn observe<T>(&self, result: &Result<T, UpstreamError>) {
        let Some(now) = UpstreamState::of(result) else {
            return;
        };
        if let Err(UpstreamError::CredentialRefused { msg }) = result {
            metrics::counter!("portal_upstream_credential_refused_total").increment(1);
            let mut logged = self.refused_logged.lock().expect("health lock");
            if logged.is_none_or(|at| at.elapsed() >= REFUSED_LOG_EVERY) {
                *logged = Some(Instant::now());
                tracing::error!(
                    cms_message = msg.as_deref().unwrap_or(""),
                    "the CMS refuses the gateway's client credential: check upstream.client_id and \
                     upstream.client_secret (visitors get 502; cached pages are still served)"
                );
            }
        }
        let before = UpstreamState::from_u8(self.state.swap(now as u8, Ordering::Relaxed));
        if before == now {
            return;
        }
        *self.changed.lock().expect("health lock") = Instant::now();
        metrics::gauge!("portal_upstream_up").set(if now == UpstreamState::Up { 1.0 } else { 0.0 });
        match now {
            // The first answer after a start is said plainly; after an outage, what it was.
            UpstreamState::Up if before == UpstreamState::Unknown => {
                tracing::info!("the CMS answers the gateway's first call");
            }
            UpstreamState::Up => tracing::info!(was = ?before, "the CMS answers again"),
            UpstreamState::Down => tracing::warn!(
                error = %result.as_ref().err().map(ToString::to_string).unwrap_or_default(),
                "the CMS does not answer; cached pages are served while it is away"
            ),
            UpstreamState::Refused | UpstreamState::Unknown => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_move_the_state_and_the_rest_leave_it() {
        let health = UpstreamHealth::default();
        assert_eq!(health.state(), UpstreamState::Unknown);
        health.observe::<()>(&Ok(()));
        assert_eq!(health.state(), UpstreamState::Up);
        health.observe::<()>(&Err(UpstreamError::Status {
            code: 404,
            msg: None,
        }));
        assert_eq!(health.state(), UpstreamState::Up, "a 404 is an answer");
        health.observe::<()>(&Err(UpstreamError::Busy));
        assert_eq!(
            health.state(),
            UpstreamState::Up,
            "our own limit says nothing of the CMS"
        );
        health.observe::<()>(&Err(UpstreamError::Timeout));
        assert_eq!(health.state(), UpstreamState::Down);
        health.observe::<()>(&Err(UpstreamError::CredentialRefused { msg: None }));
        assert_eq!(health.state(), UpstreamState::Refused);
        health.observe::<()>(&Err(UpstreamError::Status {
            code: 503,
            msg: None,
        }));
        assert_eq!(health.state(), UpstreamState::Down);
    }
}
