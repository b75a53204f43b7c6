//! Integration tests: the real gateway against real upstream servers on loopback.

mod body_refs;
mod cache_view;
mod caching;
mod changes_poll;
mod check;
mod cms_forms;
mod content_core;
mod credentials;
mod dialects;
mod files;
mod helpers;
mod hostile;
mod hostile_cms;
mod normalise;
mod operations;
mod outage;
mod pages;
mod policy;
mod queries;
mod reference;
mod replicas;
mod search;
mod statics;
mod strapi;
mod structure;
mod traces;
