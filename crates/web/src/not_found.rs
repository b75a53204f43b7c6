//! The plain 404 page of what the app does not render: a feed or old crawlable address that does
//! not exist, and any page while no app build is there to render it (the app's own 页面不存在 page
//! answers every other unknown address). Chinese, with the ways back in.

pub const PAGE: &str = include_str!("not_found.html");
