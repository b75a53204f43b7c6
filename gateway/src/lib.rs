//! portal-gateway: the binary of the rail-freight portal's backend-for-frontend. Its command line
//! (`main.rs`: serve, `check-config`, `check-upstream`, `init`, `cache …`), the upstream checker,
//! the writer of a config for a CMS (`init`) and the operator's client of a running gateway's
//! admin API; the gateway itself is portal-web's. See
//! docs/ARCHITECTURE.md.
#![forbid(unsafe_code)]

pub mod check;
pub mod cli;
pub mod init;
