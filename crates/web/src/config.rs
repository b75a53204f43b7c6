//! The gateway's one typed configuration: a TOML file layered under `PORTAL__SECTION__KEY`
//! environment variables, validated once at start.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use base64::Engine as _;
use figment::{
    Figment,
    providers::{Env, Format, Toml},
};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use url::Url;

pub use portal_cache::{CacheConfig, SharedCacheConfig, TtlOverride, glob_match};
pub use portal_cms::{AuthStyle, UpstreamConfig};
pub use portal_content::limits::LimitsConfig;
pub use portal_core::traces::TelemetryConfig;

use portal_cms::dialect::{Dialect, DialectConfig};
use portal_core::{
    endpoint::Endpoint,
    model::site::{APP_LANGUAGES, Site},
};
use portal_render::RenderSettings;

/// Environment variables with this prefix override file keys; `__` separates levels.
pub const ENV_PREFIX: &str = "PORTAL__";

/// reference-cms's demo client secret, shipped in `config/gateway.toml`.
pub const DEMO_CLIENT_SECRET: &str = "demo-secret-change-me";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub server: ServerConfig,
    pub upstream: UpstreamConfig,
    #[serde(default)]
    pub site: Site,
    #[serde(default)]
    pub cache: CacheConfig,
    #[serde(default)]
    pub limits: LimitsConfig,
    #[serde(default)]
    pub admin: AdminConfig,
    /// How the CMS speaks (paths, paging, envelope, fields); the native dialect by default.
    #[serde(default)]
    pub dialect: DialectConfig,
    /// OpenTelemetry traces (`traces.rs`); off unless an endpoint is set here or in `OTEL_*`.
    #[serde(default)]
    pub telemetry: TelemetryConfig,
    /// The server-render pool (`render/`): threads, and each call's time and memory.
    #[serde(default)]
    pub render: RenderSettings,
    /// Site search: the CMS's own, or the gateway's index (`search/`).
    #[serde(default)]
    pub search: portal_search::SearchSettings,
    /// The portal in other languages than the site's own (`[languages.en]`): each at
    /// `/portal/<code>/…`, its content from the same CMS by the parameters and settings given.
    #[serde(default)]
    pub languages: std::collections::BTreeMap<String, LanguageConfig>,
    /// Serve the demo as it is on an address others can reach, demo secret and all.
    #[serde(default)]
    pub demo: bool,
    /// `dialect` as compiled when the config loaded, with what it was compiled from.
    #[serde(skip)]
    compiled: Option<(DialectConfig, Dialect)>,
}

/// `[languages.en]`: the portal in English at `/portal/en/…`. The CMS's content in that language
/// by parameters added to every call (Strapi's `locale`, Polylang's `lang`), by dialect settings
/// of its own (Plone's `/en` folder, Directus's translated fields), or both; the site's facts
/// in that language over `[site]`'s.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LanguageConfig {
    /// What the language switch shows (`English`).
    pub name: String,
    /// Parameters every CMS call for this language adds (`locale = "en"`).
    pub query: std::collections::BTreeMap<String, String>,
    /// `[dialect]` keys this language has otherwise (`id_root = "/Plone/en"`), over `[dialect]`.
    pub dialect: figment::value::Dict,
    /// `[site]` keys in this language (`company_name`, `address`, `services`…), over `[site]`:
    /// a key not given here is `[site]`'s.
    pub site: figment::value::Dict,
    /// The two above laid over `[site]` and `[dialect]`, at load.
    #[serde(skip)]
    resolved: Option<std::sync::Arc<ResolvedLanguage>>,
}

/// A language's facts and dialect as they stand over the site's own.
#[derive(Debug)]
pub struct ResolvedLanguage {
    pub site: Site,
    pub dialect: Dialect,
}

impl LanguageConfig {
    /// Its facts and dialect, laid over `[site]` and `[dialect]` when the config loaded.
    pub fn resolved(&self) -> std::sync::Arc<ResolvedLanguage> {
        std::sync::Arc::clone(
            self.resolved
                .as_ref()
                .expect("languages are resolved when the config loads"),
        )
    }

    /// Its CMS parameters, as calls add them.
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        self.query
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// `base`'s table (`site`, `dialect`) with `over`'s keys laid over it (tables merged key by key,
/// a list replaced whole), read as `T`.
fn laid_over<T: serde::de::DeserializeOwned>(
    figment: &Figment,
    base: &str,
    over: &figment::value::Dict,
) -> Result<T, Box<figment::Error>> {
    use figment::providers::Serialized;
    let base = figment
        .find_value(base)
        .unwrap_or_else(|_| figment::value::Dict::new().into());
    Figment::new()
        .merge(Serialized::defaults(base))
        .merge(Serialized::defaults(over))
        .extract()
        .map_err(Box::new)
}

/// The operator's endpoints (`/portal/admin/*`); off while no token is set.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdminConfig {
    pub token: Option<SecretString>,
    /// Shared with the CMS: the HMAC-SHA256 key of `POST /portal/admin/webhook`. Unset: the
    /// webhook answers 404.
    pub webhook_secret: Option<SecretString>,
    /// After a webhook's purge, load the changed article and the first pages of its lists again
    /// at once, rather than on the next visitor's request.
    pub webhook_refresh: bool,
    /// Notices signed longer ago than this are refused (a replayed notice).
    #[serde(with = "humantime_serde")]
    pub webhook_max_age: Duration,
    /// A header that carries `webhook_secret` itself (or `Bearer <secret>`), for a CMS whose
    /// built-in webhooks send a fixed header and cannot sign (Strapi, Directus):
    /// `"x-portal-webhook-secret"`. Empty: notices must be signed (HMAC-SHA256).
    pub webhook_header: String,
    /// The CMS's content types (Strapi's `model`, Directus's `collection`) whose notices are about
    /// an article, and those about a category; a notice of another type changes nothing.
    pub webhook_article_types: Vec<String>,
    pub webhook_category_types: Vec<String>,
}

impl Default for AdminConfig {
    fn default() -> Self {
        Self {
            token: None,
            webhook_secret: None,
            webhook_refresh: true,
            webhook_max_age: Duration::from_secs(300),
            webhook_header: String::new(),
            webhook_article_types: vec!["article".to_owned(), "articles".to_owned()],
            webhook_category_types: vec!["category".to_owned(), "categories".to_owned()],
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    pub listen: SocketAddr,
    /// The built single-page app (`frontend/dist`), served under `/portal/`.
    pub static_dir: PathBuf,
    pub log_format: LogFormat,
    /// A tracing filter directive; `RUST_LOG` wins when set.
    pub log_level: String,
    /// Reload when the config file's content changes (SIGHUP always reloads).
    pub watch_config: bool,
    /// Send `Strict-Transport-Security` with this max-age (e.g. "365d"); only where browsers
    /// reach the portal over HTTPS. Unset: not sent.
    #[serde(with = "humantime_serde")]
    pub hsts_max_age: Option<Duration>,
    /// Serve the app's source maps (`*.map`); off, visitors get 404 for them.
    pub source_maps: bool,
    /// How long a client may take to send a request's head; slower ones are dropped.
    #[serde(with = "humantime_serde")]
    pub header_read_timeout: Duration,
    /// How long a new connection may go without beginning a request; then it is closed.
    #[serde(with = "humantime_serde")]
    pub first_byte_timeout: Duration,
    /// How long a connection may go without progress (a request begun, a response's bytes
    /// written): between requests, an HTTP/2 connection with no stream or only shut windows;
    /// then it is closed (`connections.rs`).
    #[serde(with = "humantime_serde")]
    pub idle_timeout: Duration,
    /// How long a client may take no byte of a file relayed from the CMS (streamed, not kept)
    /// before the relay stops and the CMS's connection is let go (`relay.rs`).
    #[serde(with = "humantime_serde")]
    pub stall_timeout: Duration,
    /// Connections open at once, all clients together; at the cap a new connection takes the
    /// place of one of the client holding the most (`connections::Open`). 0: the process's descriptor limit less a
    /// reserve for the CMS, Redis, files and the index (`connections::capacity`).
    pub max_connections: usize,
    /// One line per request (at info, target `portal_gateway::access`); errors are logged either way.
    pub access_log: bool,
    /// On SIGTERM, how long requests in flight (a long download) may take to finish before their
    /// connections are cut; an orchestrator's grace period must cover it.
    #[serde(with = "humantime_serde")]
    pub shutdown_timeout: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            static_dir: PathBuf::from("frontend/dist"),
            log_format: LogFormat::Human,
            log_level: "info".to_owned(),
            watch_config: true,
            hsts_max_age: None,
            source_maps: false,
            header_read_timeout: Duration::from_secs(15),
            first_byte_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            stall_timeout: Duration::from_secs(30),
            max_connections: 0,
            access_log: true,
            shutdown_timeout: Duration::from_secs(25),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Human,
    Json,
}

/// Reads `upstream.client_secret_file` into `client_secret` when the secret is not given directly.
fn read_secret_file(up: &mut UpstreamConfig) -> Result<(), ConfigError> {
    let Some(path) = &up.client_secret_file else {
        return Ok(());
    };
    if up.client_secret.is_some() {
        return Err(ConfigError::Invalid {
            key: "upstream.client_secret_file",
            reason: "set either upstream.client_secret (PORTAL__UPSTREAM__CLIENT_SECRET) or upstream.client_secret_file, not both"
                .to_owned(),
        });
    }
    let text = std::fs::read_to_string(path).map_err(|err| ConfigError::Invalid {
        key: "upstream.client_secret_file",
        reason: format!("cannot read {}: {}", path.display(), err.kind()),
    })?;
    up.client_secret = Some(SecretString::from(text.trim_end_matches(['\r', '\n'])));
    Ok(())
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration: {0}")]
    Load(String),
    #[error("configuration key `{key}`: {reason}")]
    Invalid { key: &'static str, reason: String },
    #[error("configuration key `{}`: {}", .0.key, .0.reason)]
    Dialect(portal_cms::dialect::DialectError),
}

impl Config {
    /// Reads `file` (missing is an error) and the `PORTAL__…` environment on top of it.
    pub fn load(file: &std::path::Path) -> Result<Self, ConfigError> {
        if !file.is_file() {
            return Err(ConfigError::Invalid {
                key: "--config",
                reason: format!("file {} does not exist", file.display()),
            });
        }
        Self::from_figment(Figment::new().merge(Toml::file(file)).merge(env_provider()))
    }

    /// Builds from a TOML string, still under the environment; used by tests and tools.
    pub fn from_toml_str(toml: &str) -> Result<Self, ConfigError> {
        Self::from_figment(
            Figment::new()
                .merge(Toml::string(toml))
                .merge(env_provider()),
        )
    }

    fn from_figment(figment: Figment) -> Result<Self, ConfigError> {
        let mut config: Config = figment.extract().map_err(describe)?;
        for (code, language) in &mut config.languages {
            let site: Site =
                laid_over(&figment, "site", &language.site).map_err(|err| describe(*err))?;
            let dialect: DialectConfig =
                laid_over(&figment, "dialect", &language.dialect).map_err(|err| describe(*err))?;
            let dialect = Dialect::compile(&dialect).map_err(|err| ConfigError::Invalid {
                key: "languages.en.dialect",
                reason: format!(
                    "[languages.{code}.dialect] over [dialect]: `{}` {}",
                    err.key, err.reason
                ),
            })?;
            language.resolved = Some(std::sync::Arc::new(ResolvedLanguage { site, dialect }));
        }
        read_secret_file(&mut config.upstream)?;
        // Before any check can name a value: whatever is written out from here on hides them.
        portal_core::redact::remember(config.secrets());
        config.validate()?;
        let dialect = Dialect::compile(&config.dialect).map_err(ConfigError::Dialect)?;
        config.compiled = Some((config.dialect.clone(), dialect));
        Ok(config)
    }

    /// Every secret of this config, in each form it may travel in (the upstream credential
    /// as a Basic header, percent- and form-encoded, and as it is), for `redact` to hide.
    pub fn secrets(&self) -> Vec<String> {
        let up = &self.upstream;
        // (Not yet validated: the secret may be missing.)
        let secret = up
            .client_secret
            .as_ref()
            .map(|s| s.expose_secret().to_owned())
            .unwrap_or_default();
        let mut found = vec![
            base64::engine::general_purpose::STANDARD.encode(format!("{}:{secret}", up.client_id)),
            percent_encoding::utf8_percent_encode(&secret, percent_encoding::NON_ALPHANUMERIC)
                .to_string(),
            url::form_urlencoded::byte_serialize(secret.as_bytes()).collect(),
            secret,
        ];
        let admin = [
            &self.admin.token,
            &self.admin.webhook_secret,
            &self.cache.shared.signing_key,
        ];
        found.extend(
            admin
                .into_iter()
                .flatten()
                .map(|t| t.expose_secret().to_owned()),
        );
        if let Some(url) = &self.cache.shared.url
            && let Ok(url) = url::Url::parse(url.expose_secret())
            && let Some(password) = url.password()
        {
            found.push(password.to_owned());
        }
        found
    }

    /// The dialect as compiled at load; compiled again if `dialect` was changed since (tests
    /// and tools edit loaded configs).
    pub fn compiled_dialect(&self) -> Dialect {
        match &self.compiled {
            Some((from, dialect)) if *from == self.dialect => dialect.clone(),
            _ => Dialect::compile(&self.dialect).expect("an edited dialect still compiles"),
        }
    }

    /// Every section's rules; the first broken one is the error, naming its key.
    fn validate(&self) -> Result<(), ConfigError> {
        self.validate_upstream()?;
        self.validate_server()?;
        self.validate_cache()?;
        self.validate_limits()?;
        self.validate_admin()?;
        self.validate_site()?;
        self.validate_telemetry()?;
        self.validate_render()?;
        self.validate_search()
    }

    /// `[search]`: bounds an operator can reason about, and a title among the indexed fields.
    fn validate_search(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| ConfigError::Invalid {
            key,
            reason: reason.to_owned(),
        };
        let search = &self.search;
        if !(1..=1_000_000).contains(&search.max_articles) {
            return Err(invalid("search.max_articles", "must be from 1 to 1000000"));
        }
        if !(0..=1_000_000).contains(&search.max_body_chars) {
            return Err(invalid(
                "search.max_body_chars",
                "must be from 0 to 1000000 (0 indexes no body)",
            ));
        }
        if search.max_memory_bytes < 1024 * 1024 {
            return Err(invalid(
                "search.max_memory_bytes",
                "must be at least 1048576 (1 MiB)",
            ));
        }
        if !(15_000_000..=2_000_000_000).contains(&search.writer_memory) {
            return Err(invalid(
                "search.writer_memory",
                "must be from 15000000 (15 MB, the index writer's least) to 2000000000, in bytes",
            ));
        }
        if !search.fields.contains(&portal_search::SearchField::Title) {
            return Err(invalid(
                "search.fields",
                "must include \"title\" (a hit is shown by its title)",
            ));
        }
        if !(20..=1000).contains(&search.fragment_chars) {
            return Err(invalid("search.fragment_chars", "must be from 20 to 1000"));
        }
        if !(1..=64).contains(&search.concurrency) {
            return Err(invalid("search.concurrency", "must be from 1 to 64"));
        }
        if let Some(dir) = &search.dir
            && dir.as_os_str().is_empty()
        {
            return Err(invalid(
                "search.dir",
                "must be a folder, or left out for an index in memory",
            ));
        }
        Ok(())
    }

    /// `[render]`: a pool of 1 to 16 threads, a budget a page can wait for, memory enough for a
    /// bundle, a queue and a bounded wait in it, and at most 10 s before a kept older copy of a page is served.
    fn validate_render(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| ConfigError::Invalid {
            key,
            reason: reason.to_owned(),
        };
        let render = &self.render;
        if !(1..=16).contains(&render.threads) {
            return Err(invalid(
                "render.threads",
                "must be from 1 to 16 (each thread holds an engine of up to render.memory_limit)",
            ));
        }
        if render.timeout < Duration::from_millis(10) || render.timeout > Duration::from_secs(10) {
            return Err(invalid(
                "render.timeout",
                "must be from 10ms to 10s (a page waits for it before falling back to the app shell)",
            ));
        }
        if render.memory_limit < 8 * 1024 * 1024 || render.memory_limit > 1024 * 1024 * 1024 {
            return Err(invalid(
                "render.memory_limit",
                "must be from 8388608 (8 MiB) to 1073741824 (1 GiB), in bytes",
            ));
        }
        if !(1..=10_000).contains(&render.queue) {
            return Err(invalid("render.queue", "must be from 1 to 10000"));
        }
        if render.queue_wait < Duration::from_millis(10)
            || render.queue_wait > Duration::from_secs(30)
        {
            return Err(invalid(
                "render.queue_wait",
                "must be from 10ms to 30s (how long a render waits for a thread before its page falls back to the app shell)",
            ));
        }
        if render.older_copy_after > Duration::from_secs(10) {
            return Err(invalid(
                "render.older_copy_after",
                "must be from 0s to 10s (how long a visitor waits for a new page while an older copy is kept)",
            ));
        }
        Ok(())
    }

    /// `[telemetry]`: an http(s) endpoint, a ratio between 0 and 1, a service name.
    fn validate_telemetry(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| ConfigError::Invalid {
            key,
            reason: reason.to_owned(),
        };
        let telemetry = &self.telemetry;
        if let Some(url) = &telemetry.otlp_endpoint
            && !matches!(url.scheme(), "http" | "https")
        {
            return Err(invalid(
                "telemetry.otlp_endpoint",
                "must be an http or https URL (OTLP over HTTP)",
            ));
        }
        if !(0.0..=1.0).contains(&telemetry.sample_ratio) {
            return Err(invalid(
                "telemetry.sample_ratio",
                "must be between 0 and 1 (0.01 keeps one trace in a hundred)",
            ));
        }
        if telemetry.service_name.trim().is_empty() {
            return Err(invalid("telemetry.service_name", "must not be empty"));
        }
        Ok(())
    }

    /// `[upstream]`: a CMS address, a credential (not the demo's where others reach the gateway), time-outs.
    fn validate_upstream(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| ConfigError::Invalid {
            key,
            reason: reason.to_owned(),
        };
        let base = &self.upstream.base_url;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(invalid("upstream.base_url", "must be an http or https URL"));
        }
        if base.cannot_be_a_base() || base.host().is_none() {
            return Err(invalid("upstream.base_url", "must name a host"));
        }
        // A credential in the address would be printed with it and would override the
        // configured one: each has its own key. (The address is not repeated here.)
        if !base.username().is_empty() || base.password().is_some() {
            return Err(invalid(
                "upstream.base_url",
                "must not carry a user name or password: set upstream.client_id and upstream.client_secret",
            ));
        }
        if base.query().is_some() || base.fragment().is_some() {
            return Err(invalid(
                "upstream.base_url",
                "must not carry a query or fragment: a credential sent in the query is upstream.auth = \"query\" with upstream.auth_name",
            ));
        }
        let up = &self.upstream;
        if up.auth == AuthStyle::Basic && (up.client_id.is_empty() || up.client_id.contains(':')) {
            return Err(invalid(
                "upstream.client_id",
                "must be non-empty and must not contain ':' (auth = \"basic\")",
            ));
        }
        match &up.auth {
            AuthStyle::Header
                if axum::http::HeaderName::from_bytes(up.auth_name.as_bytes()).is_err() =>
            {
                return Err(invalid(
                    "upstream.auth_name",
                    "must name the header that carries the secret (auth = \"header\"), e.g. X-API-Key",
                ));
            }
            AuthStyle::Query if up.auth_name.trim().is_empty() => {
                return Err(invalid(
                    "upstream.auth_name",
                    "must name the query parameter that carries the secret (auth = \"query\"), e.g. key",
                ));
            }
            _ => {}
        }
        let secret = up
            .client_secret
            .as_ref()
            .map(|s| s.expose_secret().to_owned())
            .unwrap_or_default();
        if secret.is_empty() {
            return Err(invalid(
                "upstream.client_secret",
                "is missing or empty: set PORTAL__UPSTREAM__CLIENT_SECRET in the gateway's \
                 environment, or upstream.client_secret_file to a file holding it",
            ));
        }
        if up.auth == AuthStyle::Header && axum::http::HeaderValue::from_str(&secret).is_err() {
            return Err(invalid(
                "upstream.client_secret",
                "a header's value must be visible ASCII (auth = \"header\")",
            ));
        }
        if up.auth == AuthStyle::Bearer
            && !secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b))
        {
            return Err(invalid(
                "upstream.client_secret",
                "a bearer token must be letters, digits and -._~+/= only",
            ));
        }
        if secret == DEMO_CLIENT_SECRET && !self.server.listen.ip().is_loopback() && !self.demo {
            return Err(ConfigError::Invalid {
                key: "upstream.client_secret",
                reason: format!(
                    "is the demo secret, and the gateway would listen on {}, where others reach it: \
                     set PORTAL__UPSTREAM__CLIENT_SECRET to your CMS's client secret (or write \
                     `demo = true` at the top of the config to serve the demo as it is)",
                    self.server.listen
                ),
            });
        }
        if self.upstream.timeout.is_zero() || self.upstream.timeout > Duration::from_secs(300) {
            return Err(invalid(
                "upstream.timeout",
                "must be more than 0 and at most 300 s",
            ));
        }
        if self.upstream.connect_timeout.is_zero() {
            return Err(invalid("upstream.connect_timeout", "must be more than 0"));
        }
        Ok(())
    }

    /// `[server]`: time-outs.
    fn validate_server(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| ConfigError::Invalid {
            key,
            reason: reason.to_owned(),
        };
        if self.server.shutdown_timeout.is_zero() {
            return Err(invalid("server.shutdown_timeout", "must be more than 0"));
        }
        if self.server.header_read_timeout.is_zero() {
            return Err(invalid("server.header_read_timeout", "must be more than 0"));
        }
        if self.server.first_byte_timeout.is_zero() {
            return Err(invalid("server.first_byte_timeout", "must be more than 0"));
        }
        if self.server.idle_timeout < Duration::from_secs(1) {
            return Err(invalid("server.idle_timeout", "must be at least 1s"));
        }
        if self.server.stall_timeout < Duration::from_secs(1) {
            return Err(invalid("server.stall_timeout", "must be at least 1s"));
        }
        if self.limits.per_client_renders == 0 {
            return Err(invalid("limits.per_client_renders", "must be more than 0"));
        }
        if self.limits.max_connections_per_client == 0 {
            return Err(invalid(
                "limits.max_connections_per_client",
                "must be more than 0",
            ));
        }
        Ok(())
    }

    /// `[cache]`: known endpoints, patterns, size, the shared tier.
    fn validate_cache(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| ConfigError::Invalid {
            key,
            reason: reason.to_owned(),
        };
        for endpoint in self.cache.ttl.keys() {
            if Endpoint::of_cache_name(endpoint).is_none() {
                return Err(ConfigError::Invalid {
                    key: "cache.ttl",
                    reason: format!(
                        "unknown endpoint `{endpoint}` (known: {})",
                        Endpoint::cache_names().collect::<Vec<_>>().join(", ")
                    ),
                });
            }
        }
        if self.cache.overrides.iter().any(|o| o.pattern.is_empty()) {
            return Err(invalid("cache.overrides", "a pattern must not be empty"));
        }
        if self.cache.max_bytes < 1024 * 1024 {
            return Err(invalid(
                "cache.max_bytes",
                "must be at least 1048576 (1 MiB)",
            ));
        }
        if self.cache.file_max_bytes > (64 << 20)
            || self.cache.file_max_bytes > self.cache.max_bytes
        {
            return Err(invalid(
                "cache.file_max_bytes",
                "must be at most cache.max_bytes and at most 67108864 (64 MiB)",
            ));
        }
        let shared = &self.cache.shared;
        if let Some(url) = &shared.url {
            let ok = Url::parse(url.expose_secret())
                .map(|u| matches!(u.scheme(), "redis" | "rediss" | "valkey" | "valkeys"))
                .unwrap_or(false);
            if !ok {
                // The value is not repeated: it may hold a password.
                return Err(invalid(
                    "cache.shared.url",
                    "must be a redis:// or rediss:// URL",
                ));
            }
        }
        if shared.timeout.is_zero() || shared.timeout > Duration::from_secs(5) {
            return Err(invalid(
                "cache.shared.timeout",
                "must be more than 0 and at most 5 s",
            ));
        }
        Ok(())
    }

    /// `[limits]`: rates, bursts, sizes and the cap above zero.
    fn validate_limits(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| ConfigError::Invalid {
            key,
            reason: reason.to_owned(),
        };
        let limits = &self.limits;
        if limits.per_client_per_second == 0 || limits.per_client_burst == 0 {
            return Err(invalid(
                "limits.per_client_per_second",
                "the rate and the burst must be more than 0",
            ));
        }
        if limits.upstream_per_second == 0 || limits.upstream_burst == 0 {
            return Err(invalid(
                "limits.upstream_per_second",
                "the rate and the burst must be more than 0",
            ));
        }
        if limits.max_header_bytes < 1024 || limits.max_uri_bytes < 256 {
            return Err(invalid(
                "limits.max_header_bytes",
                "max_header_bytes must be at least 1024 and max_uri_bytes at least 256",
            ));
        }
        if limits.upstream_concurrency == 0 || limits.upstream_concurrency > 100_000 {
            return Err(invalid(
                "limits.upstream_concurrency",
                "must be from 1 to 100000",
            ));
        }
        Ok(())
    }

    /// `[admin]`: secrets long enough, and varied enough, to resist guessing.
    fn validate_admin(&self) -> Result<(), ConfigError> {
        for (key, secret) in [
            ("admin.token", &self.admin.token),
            ("admin.webhook_secret", &self.admin.webhook_secret),
            ("cache.shared.signing_key", &self.cache.shared.signing_key),
        ] {
            if let Some(secret) = secret
                && let Err(reason) = strong_enough(secret.expose_secret())
            {
                return Err(ConfigError::Invalid {
                    key,
                    reason: reason.to_owned(),
                });
            }
        }
        if !self.admin.webhook_header.is_empty()
            && axum::http::HeaderName::from_bytes(self.admin.webhook_header.as_bytes()).is_err()
        {
            return Err(ConfigError::Invalid {
                key: "admin.webhook_header",
                reason: "must be an HTTP header name (`x-portal-webhook-secret`)".to_owned(),
            });
        }
        Ok(())
    }

    /// Where the portal's app files are not: `server.static_dir` without the built app's
    /// `index.html` (said by `check-config`; the gateway starts, and answers 404 for pages).
    pub fn app_files_gap(&self) -> Option<String> {
        let dir = &self.server.static_dir;
        if dir.join("index.html").is_file() {
            return None;
        }
        let whole = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        Some(format!(
            "server.static_dir = \"{}\" ({}) holds no built app (index.html): /portal/ would \
             answer 404. A relative path is read from the folder the gateway starts in: write the \
             app's folder in full, or build it there (make frontend)",
            dir.display(),
            whole.display()
        ))
    }

    /// Each `[site]` key in Chinese that a language's facts leave as they are
    /// (`languages.en.site.address is [site]'s, in Chinese`): its pages would show it. By the
    /// key's path in `[site]`; a list counts as one key.
    pub fn language_gaps(&self) -> Vec<String> {
        fn walk(
            path: &str,
            own: &serde_json::Value,
            theirs: &serde_json::Value,
            out: &mut Vec<String>,
        ) {
            match (own, theirs) {
                (serde_json::Value::Object(own), serde_json::Value::Object(theirs)) => {
                    for (key, value) in own {
                        if let Some(their) = theirs.get(key) {
                            walk(&format!("{path}.{}", snake(key)), value, their, out);
                        }
                    }
                }
                _ if own == theirs && portal_core::model::site::has_han(&own.to_string()) => {
                    out.push(path.to_owned())
                }
                _ => {}
            }
        }
        fn snake(key: &str) -> String {
            key.chars().fold(String::new(), |mut out, c| {
                if c.is_ascii_uppercase() {
                    out.push('_');
                    out.push(c.to_ascii_lowercase());
                } else {
                    out.push(c);
                }
                out
            })
        }
        let own = serde_json::to_value(&self.site).unwrap_or_default();
        let mut gaps = Vec::new();
        for (code, language) in &self.languages {
            let theirs = serde_json::to_value(&language.resolved().site).unwrap_or_default();
            let mut keys = Vec::new();
            walk("", &own, &theirs, &mut keys);
            gaps.extend(keys.into_iter().map(|key| {
                format!(
                    "languages.{code}.site{key} is [site]'s, in Chinese: its pages show it as it is"
                )
            }));
        }
        gaps
    }

    /// `[site]`, and each language's facts as they stand over it.
    fn validate_site(&self) -> Result<(), ConfigError> {
        validate_site_facts(&self.site)?;
        self.validate_languages()
    }

    /// `[languages.*]`: a language the app is written in, a name for its switch, parameters a
    /// URL can carry, and its facts checked as `[site]`'s are (the key named under it).
    fn validate_languages(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: String| ConfigError::Invalid { key, reason };
        for (code, language) in &self.languages {
            if !APP_LANGUAGES.contains(&code.as_str()) {
                return Err(invalid(
                    "languages",
                    format!(
                        "`{code}` is no language the app is written in (it has: {})",
                        APP_LANGUAGES.join(", ")
                    ),
                ));
            }
            if language.name.trim().is_empty() {
                return Err(invalid(
                    "languages.en.name",
                    "must say what the language switch shows (e.g. \"English\")".to_owned(),
                ));
            }
            let plain = |text: &str| {
                !text.is_empty()
                    && text.len() <= 64
                    && text.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'[' | b']')
                    })
            };
            if let Some((name, value)) = language
                .query
                .iter()
                .find(|(name, value)| !plain(name) || !plain(value))
            {
                return Err(invalid(
                    "languages.en.query",
                    format!(
                        "`{name} = \"{value}\"`: names and values of 1 to 64 letters, digits, `-_.[]`"
                    ),
                ));
            }
            let resolved = language.resolved();
            if let Err(ConfigError::Invalid { key, reason }) = validate_site_facts(&resolved.site) {
                return Err(invalid(
                    "languages.en.site",
                    format!("`{key}` as this language has it: {reason}"),
                ));
            }
        }
        Ok(())
    }
}

/// `[site]`'s rules: a company name, links that are links, pictures served from this site.
fn validate_site_facts(site: &Site) -> Result<(), ConfigError> {
    let invalid = |key, reason: &str| ConfigError::Invalid {
        key,
        reason: reason.to_owned(),
    };
    if site.company_name.trim().is_empty() {
        return Err(invalid(
            "site.company_name",
            "must name the company (every page's title, the header and footer, the feeds)",
        ));
    }
    if !matches!(site.pagination_locale.as_str(), "en" | "zh-CN") {
        return Err(invalid(
            "site.pagination_locale",
            "must be \"en\" or \"zh-CN\"",
        ));
    }
    let public = Url::parse(&site.public_url);
    let public_ok = site.public_url.is_empty()
        || public.as_ref().is_ok_and(|u| {
            matches!(u.scheme(), "http" | "https")
                && u.host().is_some()
                && u.path() == "/"
                && u.query().is_none()
        });
    if !public_ok {
        return Err(invalid(
            "site.public_url",
            "must be an http or https address with no path, e.g. https://www.example.com (or left out: pages then link by paths, and there is no sitemap or feed)",
        ));
    }
    if let Some(day) = site.mourning.bad_day() {
        return Err(invalid(
            "site.mourning",
            &format!(
                "\"{day}\" is not a day: write true, false or days as \"MM-DD\" (every year) or \"YYYY-MM-DD\""
            ),
        ));
    }
    for (key, url) in [
        ("site.police_filing_url", &site.police_filing_url),
        ("site.icp_url", &site.icp_url),
    ] {
        let ok =
            url.is_empty() || Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
        if !ok {
            return Err(invalid(key, "must be an http or https URL"));
        }
    }
    // Pictures the pages show from the config: the CSP lets a page load images from the site
    // only, so a picture elsewhere would be a broken image on every page.
    for (key, path) in [
        ("site.wechat.qr_image", &site.wechat.qr_image),
        ("site.contact.map_image", &site.contact.map_image),
    ] {
        let on_site = path.starts_with('/') && !path.starts_with("//");
        if !path.is_empty() && !on_site {
            return Err(invalid(
                key,
                "must be a path on this site beginning with / (e.g. /portal/api/files/site/map.svg): pages load images from the site itself only",
            ));
        }
    }
    if !site.contact.map_image.is_empty() && site.contact.map_alt.trim().is_empty() {
        return Err(invalid(
            "site.contact.map_alt",
            "must say what the map shows (visitors who cannot see it read this)",
        ));
    }
    if !site.wechat.qr_image.is_empty() && site.wechat.name.trim().is_empty() {
        return Err(invalid(
            "site.wechat.name",
            "must name the account whose QR code qr_image is",
        ));
    }
    let web = |u: &str| Url::parse(u).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
    if !site.whistleblowing.website.is_empty() && !web(&site.whistleblowing.website) {
        return Err(invalid(
            "site.whistleblowing.website",
            "must be an http or https URL",
        ));
    }
    for link in &site.links {
        let url = link.url.as_deref().unwrap_or("");
        if link.name.trim().is_empty() || !web(url) {
            return Err(invalid(
                "site.links",
                "each link needs a name and an http or https url",
            ));
        }
    }
    for service in &site.services {
        // A page of the portal (`/services/timetable`) or a system's own address; a
        // protocol-relative `//host` would be another site under a path's guise.
        let page = service.url.starts_with('/') && !service.url.starts_with("//");
        if service.name.trim().is_empty() || !(page || web(&service.url)) {
            return Err(invalid(
                "site.services",
                "each service needs a name and a url: an http or https address, or a page of the portal beginning with / (e.g. /services/timetable)",
            ));
        }
    }
    if !site.login_url.is_empty() {
        let ok = Url::parse(&site.login_url)
            .map(|u| matches!(u.scheme(), "http" | "https"))
            .unwrap_or(false);
        if !ok {
            return Err(invalid("site.login_url", "must be an http or https URL"));
        }
    }
    Ok(())
}

/// Whether a token or signing key resists guessing: at least 16 characters, of which at least 8
/// differ (`aaaaaaaaaaaaaaaa` and `abababababababab` are 16 characters and no secret). A random
/// string of the alphabet `openssl rand -hex 16` writes passes; the reason says how to make one.
fn strong_enough(secret: &str) -> Result<(), &'static str> {
    if secret.chars().count() < 16 {
        return Err("must be at least 16 characters (e.g. `openssl rand -hex 16`)");
    }
    let distinct: std::collections::BTreeSet<char> = secret.chars().collect();
    if distinct.len() < 8 {
        return Err(
            "must not repeat a few characters (at least 8 different ones; e.g. `openssl rand -hex 16`)",
        );
    }
    Ok(())
}

/// One line per problem, each naming its key as written in the file (`upstream.timeout`) and
/// where the bad value came from.
/// No value is repeated: a problem with a secret's key (a number where its string goes) would
/// print the secret, and TOML's syntax errors quote the line they stopped at, which may hold one.
fn describe(err: figment::Error) -> ConfigError {
    let lines: Vec<String> = err
        .into_iter()
        .map(|e| {
            let key = e.path.join(".").to_lowercase();
            let from = e
                .metadata
                .as_ref()
                .map(|m| format!(" (from {})", m.name))
                .unwrap_or_default();
            let what = match &e.kind {
                figment::error::Kind::Message(message) => without_quoted_lines(message),
                figment::error::Kind::InvalidType(_, expected) => {
                    format!("invalid type: expected {expected}")
                }
                figment::error::Kind::InvalidValue(_, expected) => {
                    format!("invalid value: expected {expected}")
                }
                kind => kind.to_string(),
            };
            if key.is_empty() {
                format!("{what}{from}")
            } else {
                format!("key `{key}`: {what}{from}")
            }
        })
        .collect();
    ConfigError::Load(lines.join("; "))
}

/// A TOML parser's message without the lines it quotes from the file (`3 | client_secret = …`,
/// and the `|` and `^` lines around them): where (line and column) and what stay.
fn without_quoted_lines(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|line| {
            !line.is_empty()
                && !line.starts_with('|')
                && line
                    .split_once('|')
                    .is_none_or(|(number, _)| number.trim().parse::<u64>().is_err())
        })
        .collect::<Vec<_>>()
        .join(": ")
}

fn env_provider() -> Env {
    Env::prefixed(ENV_PREFIX).split("__")
}

#[cfg(test)]
mod tests;
