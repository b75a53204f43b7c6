//! portal-web: the gateway's faces (the API, the pages, the crawl's files, the admin API, the
//! webhook), its state, config loading, serving and startup: everything of the running gateway
//! but the binary's command line (`portal-gateway`). See docs/ARCHITECTURE.md.
#![forbid(unsafe_code)]

pub mod access_log;
mod admin;
pub mod api;
pub mod changes_poll;
pub mod config;
pub mod connections;
mod crawl;
mod health;
mod metrics;
mod not_found;
pub mod observe;
mod pages;
mod relay;
pub mod reload;
pub mod serve;
mod stack;
pub mod startup;
pub mod state;
pub mod static_files;
pub mod telemetry;
pub mod webhook;

pub use config::Config;
pub use startup::Application;
