//! portal-core: the ground floor of the gateway, which every other crate of the workspace may
//! use and which uses none of them (docs/ARCHITECTURE.md, "Crates").
//!
//! The content model (`model`), the one table of API endpoints (`endpoint`) and of the app's
//! routes (`portal_routes`), the redaction every written text passes through (`redact`), the
//! metrics recorder and its families (`metrics`), traces (`traces`), the fixed security headers
//! (`security`), the TLS crypto of every HTTPS client (`tls`) and the process's own figures (`process`).
#![forbid(unsafe_code)]

pub mod endpoint;
pub mod glob;
pub mod metrics;
pub mod model;
pub mod portal_routes;
pub mod priority;
pub mod process;
pub mod redact;
pub mod security;
pub mod tls;
pub mod traces;
