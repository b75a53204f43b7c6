//! The one step every text the gateway writes out passes through when it may hold what a CMS or
//! a config said: log lines (the tracing writer, an access line's error), a CMS's message to a
//! visitor, `check-upstream`'s report. Each secret of every config loaded in this process (the
//! upstream credential in the forms it travels in, the admin token, the webhook secret, the shared
//! tier's password) is written `***`. A CMS that repeats its URL in an error message would
//! otherwise put a query credential into the warning, the access line and the visitor's answer.

use std::{
    borrow::Cow,
    collections::BTreeSet,
    io,
    sync::{LazyLock, RwLock},
};

use base64::Engine as _;
use secrecy::ExposeSecret;

use crate::config::Config;

/// Secrets shorter than this are not looked for: they would hide ordinary words.
const MIN_LEN: usize = 6;

/// Every secret of every config loaded so far (a reload's old ones stay: lines about the old
/// config may still be written).
/// Kept longest first (a secret's encoded form contains the secret itself), so `redact`, which
/// every log line passes through, only reads.
static SECRETS: LazyLock<RwLock<Vec<String>>> = LazyLock::new(RwLock::default);

/// Adds `config`'s secrets to those hidden.
pub fn remember(config: &Config) {
    let up = &config.upstream;
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
    found.extend(
        config
            .admin
            .token
            .as_ref()
            .map(|t| t.expose_secret().to_owned()),
    );
    found.extend(
        config
            .admin
            .webhook_secret
            .as_ref()
            .map(|t| t.expose_secret().to_owned()),
    );
    if let Some(url) = &config.cache.shared.url
        && let Ok(url) = url::Url::parse(url.expose_secret())
        && let Some(password) = url.password()
    {
        found.push(password.to_owned());
    }
    let mut secrets = SECRETS.write().expect("secrets lock");
    let mut all: BTreeSet<String> = secrets.drain(..).collect();
    all.extend(found.into_iter().filter(|s| s.len() >= MIN_LEN));
    secrets.extend(all);
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// `text` with every known secret written `***`.
pub fn redact(text: &str) -> Cow<'_, str> {
    let secrets = SECRETS.read().expect("secrets lock");
    let mut out = Cow::Borrowed(text);
    for secret in secrets.iter() {
        if out.contains(secret.as_str()) {
            out = Cow::Owned(out.replace(secret.as_str(), "***"));
        }
    }
    out
}

/// A writer passing each write (one whole log line, as tracing's formatter writes them) through
/// [`redact`].
pub struct Redacting<W>(pub W);

impl<W: io::Write> io::Write for Redacting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match std::str::from_utf8(buf).map(redact) {
            Ok(Cow::Owned(clean)) => self.0.write_all(clean.as_bytes()),
            _ => self.0.write_all(buf),
        }?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Makes [`Redacting`] writers around `M`'s.
#[derive(Clone)]
pub struct MakeRedacting<M>(pub M);

impl<'a, M: tracing_subscriber::fmt::MakeWriter<'a>> tracing_subscriber::fmt::MakeWriter<'a>
    for MakeRedacting<M>
{
    type Writer = Redacting<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        Redacting(self.0.make_writer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_a_configured_secret_is_hidden() {
        let config = Config::from_toml_str(
            r#"
[site]
company_name = "测试公司"
[upstream]
base_url = "http://127.0.0.1:8081/"
client_id = "portal-web"
client_secret = "q+s3cret/value&x"
[admin]
token = "admin-token-redact-0001"
webhook_secret = "webhook-secret-redact-0001"
"#,
        )
        .unwrap();
        remember(&config);
        let basic = base64::engine::general_purpose::STANDARD.encode("portal-web:q+s3cret/value&x");
        for (text, secret) in [
            (
                "upstream said: GET /api?key=q%2Bs3cret%2Fvalue%26x failed",
                "q%2Bs3cret",
            ),
            ("form: key=q%2Bs3cret%2Fvalue%26x", "q%2Bs3cret"),
            ("raw q+s3cret/value&x here", "q+s3cret"),
            (&format!("Authorization: Basic {basic}"), basic.as_str()),
            ("Bearer admin-token-redact-0001", "admin-token-redact"),
            (
                "sig key webhook-secret-redact-0001",
                "webhook-secret-redact",
            ),
        ] {
            let clean = redact(text);
            assert!(!clean.contains(secret), "{clean}");
            assert!(clean.contains("***"), "{clean}");
        }
        assert!(matches!(redact("nothing secret here"), Cow::Borrowed(_)));
    }
}
