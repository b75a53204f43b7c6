//! The portal's 404 page, one for both faces: an unknown crawlable page (`/portal/site/…`) and
//! an unknown path under `/portal/` (the app's routes live in the hash, so none is the app's).
//! Chinese, styled by the crawlable pages' stylesheet, with the ways back in.

pub const PAGE: &str = include_str!("not_found.html");
