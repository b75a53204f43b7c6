//! What every handler shares. The config-derived part (`Runtime`) is swapped atomically on a
//! reload; the cache outlives reloads.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use arc_swap::ArcSwap;

use crate::{
    api::content::FileLinks,
    cache::ResponseCache,
    config::{Config, ConfigError},
    limits::Limits,
    upstream::Upstream,
};

/// Everything built from one version of the config.
pub struct Runtime {
    pub config: Arc<Config>,
    pub upstream: Upstream,
    pub links: FileLinks,
    pub limits: Limits,
}

impl Runtime {
    pub fn new(config: Config) -> Result<Self, reqwest::Error> {
        let upstream = Upstream::new(&config.upstream)?;
        let links = FileLinks::new(&config.upstream.base_url, &config.upstream.paths.files);
        let limits = Limits::new(&config.limits);
        Ok(Self {
            config: Arc::new(config),
            upstream,
            links,
            limits,
        })
    }
}

/// Cloned for every request (extractors, middleware): one reference count, not several.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    runtime: ArcSwap<Runtime>,
    pub cache: Arc<ResponseCache>,
    config_path: Option<PathBuf>,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReloadError {
    #[error("no config file to reload from")]
    NoFile,
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("cannot build the upstream client: {0}")]
    Client(#[from] reqwest::Error),
}

impl AppState {
    pub fn new(config: Config, config_path: Option<PathBuf>) -> Result<Self, reqwest::Error> {
        let cache = ResponseCache::new(config.cache.max_bytes);
        Ok(Self(Arc::new(Shared {
            runtime: ArcSwap::from_pointee(Runtime::new(config)?),
            cache,
            config_path,
        })))
    }
}

impl Shared {
    /// The current runtime; a request keeps the one it started with.
    pub fn runtime(&self) -> Arc<Runtime> {
        self.runtime.load_full()
    }

    /// The current runtime for a moment's use, without touching its reference count; a guard
    /// must not be held across an `.await` (use `runtime()` for that).
    pub fn peek_runtime(&self) -> arc_swap::Guard<Arc<Runtime>> {
        self.runtime.load()
    }

    pub fn config_path(&self) -> Option<&Path> {
        self.config_path.as_deref()
    }

    /// Swaps in a new config. Requests in flight finish with the old one.
    pub fn apply(&self, config: Config) -> Result<(), reqwest::Error> {
        let old = self.runtime();
        if old.config.server.listen != config.server.listen
            || old.config.server.static_dir != config.server.static_dir
        {
            tracing::warn!("server.listen and server.static_dir take effect at the next restart");
        }
        if old.config.cache.max_bytes != config.cache.max_bytes {
            tracing::warn!("cache.max_bytes takes effect at the next restart");
        }
        self.runtime.store(Arc::new(Runtime::new(config)?));
        Ok(())
    }

    /// Reads the config file again; an invalid file is refused and the old config stays.
    pub fn reload(&self) -> Result<(), ReloadError> {
        let path = self.config_path().ok_or(ReloadError::NoFile)?;
        let config = Config::load(path)?;
        self.apply(config)?;
        Ok(())
    }
}
