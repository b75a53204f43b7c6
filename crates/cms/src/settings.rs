//! `[upstream]`: where the CMS is and how the gateway proves itself to it. Read by the top crate
//! from the config file and the environment (`portal-gateway`'s `config.rs`), handed down here.

use std::{path::PathBuf, time::Duration};

use secrecy::SecretString;
use serde::Deserialize;
use url::Url;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpstreamConfig {
    /// Base URL of the CMS API; endpoint paths are joined onto it.
    pub base_url: Url,
    /// How the gateway proves itself to the CMS (`basic` by default).
    #[serde(default)]
    pub auth: AuthStyle,
    /// The user of `basic`; unused by the other styles.
    #[serde(default)]
    pub client_id: String,
    /// The secret: `basic`'s password, the `bearer` token, the `header`'s or the `query`
    /// parameter's value. Best set as `PORTAL__UPSTREAM__CLIENT_SECRET` or read from
    /// `client_secret_file` (a Kubernetes secret mount); never taken from the command line.
    #[serde(default)]
    pub client_secret: Option<SecretString>,
    /// A file holding the secret (a trailing newline is dropped); read at every (re)load.
    #[serde(default)]
    pub client_secret_file: Option<PathBuf>,
    /// The header (`auth = "header"`, e.g. `X-API-Key`) or the query parameter (`auth =
    /// "query"`, e.g. `key`) that carries the secret.
    #[serde(default)]
    pub auth_name: String,
    /// Whole-request time-out for one upstream call (the spec's 12 s).
    #[serde(default = "default_timeout", with = "humantime_serde")]
    pub timeout: Duration,
    #[serde(default = "default_connect_timeout", with = "humantime_serde")]
    pub connect_timeout: Duration,
    #[serde(default = "default_pool_idle")]
    pub pool_max_idle_per_host: usize,
    /// How long an idle keep-alive connection to the CMS is kept. Shorter than the CMS's own
    /// keep-alive (Node.js, and so Strapi, Ghost, Directus: 5 s; Apache: 5 s), or a request may
    /// go out on a connection the CMS is closing and fail with a reset.
    #[serde(default = "default_pool_idle_timeout", with = "humantime_serde")]
    pub pool_idle_timeout: Duration,
}

/// `upstream.auth`: how the secret is sent to the CMS.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthStyle {
    /// `Authorization: Basic base64(client_id:client_secret)`.
    #[default]
    Basic,
    /// `Authorization: Bearer <client_secret>` (Strapi, Directus, Payload API tokens).
    Bearer,
    /// `<auth_name>: <client_secret>` (an API key header).
    Header,
    /// `?<auth_name>=<client_secret>` on every call (Ghost's `?key=`).
    Query,
}

impl UpstreamConfig {
    /// The secret; a loaded config always has one (validation refuses it missing).
    pub fn secret(&self) -> &SecretString {
        self.client_secret
            .as_ref()
            .expect("a validated config has its upstream secret")
    }
}

fn default_timeout() -> Duration {
    Duration::from_millis(12_000)
}
fn default_connect_timeout() -> Duration {
    Duration::from_secs(3)
}
fn default_pool_idle() -> usize {
    32
}
fn default_pool_idle_timeout() -> Duration {
    Duration::from_secs(4)
}
