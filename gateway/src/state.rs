//! What every handler shares: the loaded config and the one upstream client.

use std::sync::Arc;

use crate::{api::content::FileLinks, config::Config, upstream::Upstream};

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub upstream: Arc<Upstream>,
    pub links: Arc<FileLinks>,
}

impl AppState {
    pub fn new(config: Config) -> Result<Self, reqwest::Error> {
        let upstream = Upstream::new(&config.upstream)?;
        let links = FileLinks::new(&config.upstream.base_url, &config.upstream.paths.files);
        Ok(Self {
            config: Arc::new(config),
            upstream: Arc::new(upstream),
            links: Arc::new(links),
        })
    }
}
