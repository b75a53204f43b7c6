//! What every handler shares. The config-derived part (`Runtime`) is swapped atomically on a
//! reload; the cache outlives reloads, and so does the render pool while `[render]` is unchanged.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use arc_swap::ArcSwap;
use secrecy::ExposeSecret;

use axum::http::StatusCode;

use crate::{
    config::{Config, ConfigError},
    observe::AccessLog,
    static_files::{AppFiles, LoadError},
};
use portal_cache::{Entry, MediaType, SharedTier};
use portal_cms::{ClientError, Upstream, UpstreamHealth};
use portal_content::{
    Cache, ContentService, Source, envelope::success_bytes, limits::ClientLimits,
};
use portal_core::{
    model::site::{Language as SiteLanguage, SITE_LANGUAGE, Site, SiteAnswer},
    security::Hsts,
    traces::{Traces, TracesError},
};
use portal_render::{RenderPool, RenderSettings};

/// Everything built from one version of the config. A reload builds a new one; requests in
/// flight finish with the one they started with (its upstream limits included).
pub struct Runtime {
    pub config: Arc<Config>,
    /// The CMS client and what the content service reads of this config.
    pub content: Arc<Source>,
    /// The app's files, read again on each reload (a new build needs no restart).
    pub app_files: AppFiles,
    /// `/portal/api/site`'s answer, encoded once per config rather than per request.
    pub site: Entry,
    /// `/robots.txt`, which names `site.public_url`.
    pub robots: Entry,
    /// The portal in other languages (`[languages]`), in code order.
    pub languages: Vec<Language>,
    /// The server-render pool, running this build's server bundle. One pool lives across
    /// reloads (its threads keep their engines) until `[render]` changes; a new build's bundle
    /// is handed to it.
    pub render: RenderPool,
}

/// The portal in one more language: its content from the same CMS by that language's settings,
/// and its `/site` answer.
pub struct Language {
    /// `en`: its pages are at `/portal/en/…`, its API answers at `?lang=en`.
    pub code: Arc<str>,
    pub content: Arc<Source>,
    pub site: Entry,
    /// Its facts (the sitemap's and the feeds' names).
    pub facts: Arc<Site>,
}

#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("the app's files (server.static_dir): {0}")]
    AppFiles(#[from] LoadError),
    /// The URL itself is not repeated: it may hold a password.
    #[error("cache.shared.url is not a URL the Redis client accepts ({0})")]
    SharedCache(String),
    #[error(transparent)]
    Traces(#[from] TracesError),
    /// A reload onto a folder without the app, while the running config serves one: every page
    /// would 404 and every replica leave service over one wrong path in a ConfigMap.
    #[error(
        "server.static_dir {0} holds no built app (index.html), and the running config serves one"
    )]
    NoApp(String),
}

impl Runtime {
    /// Builds everything of `config`. `render` is the pool of the runtime this one replaces:
    /// kept, and given this build's bundle, while `[render]` is unchanged.
    pub fn new(
        config: Config,
        health: Arc<UpstreamHealth>,
        previous: Option<&Runtime>,
    ) -> Result<Self, RuntimeError> {
        let upstream = Upstream::new_sharing(
            &config.upstream,
            config.limits.cms_ceiling(),
            config.compiled_dialect(),
            health,
            previous.map(|p| &p.content.upstream),
        )?;
        let search_by_index = config.search.uses_index(upstream.dialect().has_search());
        let app_files = AppFiles::load(&config.server.static_dir, config.server.source_maps)?;
        if previous.is_some_and(|p| p.app_files.has_index()) && !app_files.has_index() {
            return Err(RuntimeError::NoApp(
                config.server.static_dir.display().to_string(),
            ));
        }
        if app_files.has_index() {
            tracing::info!(
                files = app_files.len(),
                bytes = app_files.bytes(),
                "the app's files are in memory"
            );
        } else {
            let dir = &config.server.static_dir;
            tracing::warn!(
                dir = %std::path::absolute(dir).unwrap_or_else(|_| dir.clone()).display(),
                "no built app (index.html) in server.static_dir: /portal/ answers 404 until the app is there and the config is reloaded (a relative static_dir is read from the folder the gateway started in; make frontend builds the app)"
            );
        }
        // Every language the portal is in, the site's own first (none when it has one).
        let listed: Vec<SiteLanguage> = if config.languages.is_empty() {
            Vec::new()
        } else {
            std::iter::once(SiteLanguage {
                code: SITE_LANGUAGE.to_owned(),
                name: "中文".to_owned(),
            })
            .chain(
                config
                    .languages
                    .iter()
                    .map(|(code, language)| SiteLanguage {
                        code: code.clone(),
                        name: language.name.clone(),
                    }),
            )
            .collect()
        };
        let site = Entry::new(
            StatusCode::OK,
            success_bytes(&SiteAnswer {
                site: &config.site,
                // A search box wherever someone answers: the CMS, or the gateway's index.
                search: upstream.dialect().has_search() || search_by_index,
                lang: SITE_LANGUAGE,
                languages: &listed,
            }),
        );
        // Another language's searches are the CMS's (the gateway's index holds the site's own).
        let languages = config
            .languages
            .iter()
            .map(|(code, language)| {
                let resolved = language.resolved();
                let upstream =
                    upstream.in_language(resolved.dialect.clone(), language.query_pairs());
                let searches = upstream.dialect().has_search();
                let site = Entry::new(
                    StatusCode::OK,
                    success_bytes(&SiteAnswer {
                        site: &resolved.site,
                        search: searches,
                        lang: code,
                        languages: &listed,
                    }),
                );
                Language {
                    code: code.as_str().into(),
                    content: Arc::new(Source {
                        upstream,
                        cache: config.cache.clone(),
                        cms_per_second: config.limits.upstream_per_second,
                        search_by_index: false,
                        fragment_chars: config.search.fragment_chars,
                        lang: Some(code.as_str().into()),
                    }),
                    site,
                    facts: Arc::new(resolved.site.clone()),
                }
            })
            .collect();
        let robots = robots_txt(&config.site);
        // Last, past every step that can fail: a refused reload leaves the pool as it was.
        let render = render_pool(&config.render, &app_files, previous.map(|p| &p.render));
        let content = Arc::new(Source {
            upstream,
            cache: config.cache.clone(),
            cms_per_second: config.limits.upstream_per_second,
            search_by_index,
            fragment_chars: config.search.fragment_chars,
            lang: None,
        });
        Ok(Self {
            config: Arc::new(config),
            content,
            app_files,
            site,
            robots,
            languages,
            render,
        })
    }
}

impl Runtime {
    /// The other language `code` names (`en`), when the portal is in it.
    pub fn language(&self, code: &str) -> Option<&Language> {
        self.languages.iter().find(|l| &*l.code == code)
    }

    /// `/site`'s answer in `lang` (`None`: the site's own language).
    pub fn site_in<'a>(&'a self, lang: Option<&'a Language>) -> &'a Entry {
        lang.map_or(&self.site, |l| &l.site)
    }
}

/// The pool for `settings` running `files`' server bundle: `previous` itself when its settings
/// are these (its threads and engines go on; a different bundle is evaluated before their next
/// call), else a new pool (the old one's threads end once the runtimes holding it are gone).
fn render_pool(
    settings: &RenderSettings,
    files: &AppFiles,
    previous: Option<&RenderPool>,
) -> RenderPool {
    let bundle = files.render_bundle();
    match &bundle {
        Some(bundle) => tracing::info!(bytes = bundle.len(), "the server bundle is loaded"),
        None => tracing::debug!("the app build has no server bundle (server/render.js)"),
    }
    match previous {
        Some(pool) if pool.settings().same_pool(settings) => {
            pool.reload(bundle);
            pool.clone()
        }
        Some(_) => {
            tracing::info!("[render] changed: a new render pool starts, the old one ends");
            RenderPool::new(settings, bundle)
        }
        None => RenderPool::new(settings, bundle),
    }
}

/// `/robots.txt` for `site`: everything but the API and the operators' paths, and where the
/// sitemap is (absolute, from `site.public_url`).
fn robots_txt(site: &Site) -> Entry {
    let mut text =
        "User-agent: *\nAllow: /portal/\nDisallow: /portal/api/\nDisallow: /portal/admin/\n"
            .to_owned();
    // A sitemap is named by its absolute address: none without `site.public_url`.
    if !site.public_url.is_empty() {
        text.push_str(&format!(
            "\nSitemap: {}/portal/sitemap.xml\n",
            site.public_url.trim_end_matches('/')
        ));
    }
    Entry::of(MediaType::Text, StatusCode::OK, bytes::Bytes::from(text))
}

/// Cloned for every request (extractors, middleware): one reference count, not several.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    runtime: ArcSwap<Runtime>,
    pub cache: Arc<Cache>,
    /// Shared with the client-limit layer, which holds nothing else of the state.
    pub client_limits: ClientLimits,
    /// What the CMS calls have said of it, whatever runtime made them.
    pub upstream_health: Arc<UpstreamHealth>,
    /// Shared with the observe layer.
    pub hsts: Hsts,
    pub access_log: AccessLog,
    /// This app's traces, `None` when off (`[telemetry]`, `OTEL_*`); fixed until a restart.
    pub traces: Option<Traces>,
    /// The CMS notices taken (`webhook`): one is never applied twice.
    pub webhook_seen: crate::webhook::seen::SeenNotices,
    /// The gateway's own search index (`search/`), built and kept by its task; outlives reloads.
    pub search: Arc<portal_search::SearchIndex>,
    /// What each page read when last rendered, given to its next render at once.
    pub page_reads: crate::pages::reads::PageReads,
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
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
}

impl AppState {
    pub fn new(config: Config, config_path: Option<PathBuf>) -> Result<Self, RuntimeError> {
        // The recorder first: the shared tier says it is down as it starts
        // (`portal_shared_cache_up 0`), and a gauge set before the recorder is lost for good.
        let _ = portal_core::metrics::handle();
        let shared = SharedTier::new(&config.cache.shared)
            .map_err(|err| RuntimeError::SharedCache(format!("{:?}", err.kind())))?;
        let cache = Cache::new(config.cache.max_bytes, shared);
        let hsts = Hsts::default();
        hsts.configure(config.server.hsts_max_age);
        let access_log = AccessLog::default();
        access_log.configure(&config.server);
        let client_limits = ClientLimits::new(&config.limits);
        let upstream_health = Arc::new(UpstreamHealth::default());
        let traces = Traces::from_config(&config.telemetry)?;
        Ok(Self(Arc::new(Shared {
            runtime: ArcSwap::from_pointee(Runtime::new(config, upstream_health.clone(), None)?),
            cache,
            client_limits,
            upstream_health,
            hsts,
            access_log,
            traces,
            webhook_seen: crate::webhook::seen::SeenNotices::default(),
            search: Arc::default(),
            page_reads: Default::default(),
            config_path,
        })))
    }
}

impl Shared {
    /// The current runtime; a request keeps the one it started with.
    pub fn runtime(&self) -> Arc<Runtime> {
        self.runtime.load_full()
    }

    /// The content service over the current runtime.
    pub fn content(&self) -> ContentService<'_> {
        self.content_of(&self.runtime())
    }

    /// The content service in `lang` (`None`: the site's own language) over `runtime`.
    pub fn content_in(&self, runtime: &Runtime, lang: Option<&Language>) -> ContentService<'_> {
        match lang {
            None => self.content_of(runtime),
            Some(language) => ContentService::new(
                Arc::clone(&language.content),
                &self.cache,
                Arc::clone(&self.search) as Arc<dyn portal_content::Index>,
            ),
        }
    }

    /// The content service that answers the cache key `key` (`…&lang=en`: that language's),
    /// over the current runtime; `None` for a language no longer configured.
    pub fn content_for_key(&self, key: &str) -> Option<ContentService<'_>> {
        let runtime = self.runtime();
        match portal_core::endpoint::CacheKey::language_of(key) {
            None => Some(self.content_of(&runtime)),
            Some(code) => {
                let language = runtime.language(code)?;
                Some(self.content_in(&runtime, Some(language)))
            }
        }
    }

    /// The content service over `runtime` (a face that reads the runtime's config too).
    pub fn content_of(&self, runtime: &Runtime) -> ContentService<'_> {
        ContentService::new(
            Arc::clone(&runtime.content),
            &self.cache,
            Arc::clone(&self.search) as Arc<dyn portal_content::Index>,
        )
    }

    pub fn config_path(&self) -> Option<&Path> {
        self.config_path.as_deref()
    }

    /// Swaps in a new config. Requests in flight finish with the old one.
    pub fn apply(&self, config: Config) -> Result<(), RuntimeError> {
        let old = self.runtime();
        if old.config.server.listen != config.server.listen {
            tracing::warn!("server.listen takes effect at the next restart");
        }
        if old.config.server.shutdown_timeout != config.server.shutdown_timeout {
            tracing::warn!("server.shutdown_timeout takes effect at the next restart");
        }
        if old.config.cache.max_bytes != config.cache.max_bytes {
            tracing::warn!("cache.max_bytes takes effect at the next restart");
        }
        let (was, is) = (&old.config.cache.shared, &config.cache.shared);
        let url = |c: &crate::config::SharedCacheConfig| {
            c.url.as_ref().map(|u| u.expose_secret().to_owned())
        };
        if url(was) != url(is) || was.prefix != is.prefix || was.timeout != is.timeout {
            tracing::warn!("[cache.shared] takes effect at the next restart");
        }
        if old.config.telemetry != config.telemetry {
            tracing::warn!("[telemetry] takes effect at the next restart");
        }
        let runtime = Runtime::new(config, self.upstream_health.clone(), Some(&old))?;
        self.hsts.configure(runtime.config.server.hsts_max_age);
        self.access_log.configure(&runtime.config.server);
        self.client_limits.apply(&runtime.config.limits);
        self.runtime.store(Arc::new(runtime));
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

impl portal_search::Gateway for AppState {
    fn content(&self) -> ContentService<'_> {
        Shared::content(self)
    }

    fn settings(&self) -> portal_search::SearchSettings {
        self.runtime().config.search.clone()
    }

    fn cache(&self) -> &Arc<Cache> {
        &self.cache
    }

    fn index(&self) -> &Arc<portal_search::SearchIndex> {
        &self.search
    }
}
