//! `portal-gateway cache stats|show KEY|purge`: the admin cache view and purge of a running
//! gateway, as a table for people or the raw envelope (`--json`). The admin token comes from a
//! file, `PORTAL__ADMIN__TOKEN` (the name the server reads it by) or the config, never from the command line (where `ps` and shell
//! histories would show it), and is never printed.

use std::{fmt::Write, net::SocketAddr, path::Path, time::Duration};

use reqwest::header::{AUTHORIZATION, HeaderValue};
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;

/// The variable the token may come from: the one the server's config reads (`admin.token`).
pub const TOKEN_VARIABLE: &str = "PORTAL__ADMIN__TOKEN";
/// The name this command read before; still read, with a warning, so scripts keep working.
pub const OLD_TOKEN_VARIABLE: &str = "PORTAL_ADMIN_TOKEN";
const TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub enum Action {
    Stats,
    Show {
        key: String,
    },
    Purge {
        prefixes: Vec<String>,
        tags: Vec<String>,
        hard: bool,
    },
}

/// Why a command failed; each says it in Chinese and English, and has its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(
        "没有管理令牌 / no admin token: use --token-file, {TOKEN_VARIABLE} or admin.token in the config"
    )]
    NoToken,
    #[error(
        "读不到配置 / cannot read the config {0} for the gateway's address (give --url to name it): {1}"
    )]
    NoConfig(String, String),
    #[error("读不到令牌文件 / cannot read the token file {0}: {1}")]
    TokenFile(String, std::io::Error),
    #[error("连接不上网关 / the gateway at {0} is unreachable: {1}")]
    Unreachable(String, String),
    #[error("管理令牌被拒绝 / the gateway refused the admin token (HTTP 401): {0}")]
    Refused(String),
    #[error("网关答复 HTTP {0} / the gateway answered HTTP {0}: {1}")]
    Answer(u16, String),
    #[error("网关的答复无法读取 / the gateway's answer is not its envelope: {0}")]
    Unreadable(String),
}

impl CliError {
    /// sysexits: 69 unavailable, 77 permission denied, 78 configuration; 1 for any other answer.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::NoToken | Self::TokenFile(..) | Self::NoConfig(..) => 78,
            Self::Unreachable(..) => 69,
            Self::Refused(_) => 77,
            Self::Answer(..) | Self::Unreadable(_) => 1,
        }
    }
}

/// The token: the file's first line, else the variable, else the config's.
pub fn token(
    file: Option<&Path>,
    variable: Option<String>,
    config: Option<&SecretString>,
) -> Result<SecretString, CliError> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .map_err(|err| CliError::TokenFile(path.display().to_string(), err))?;
        let line = text.lines().next().unwrap_or_default().trim();
        if line.is_empty() {
            return Err(CliError::NoToken);
        }
        return Ok(SecretString::from(line.to_owned()));
    }
    if let Some(value) = variable.filter(|v| !v.trim().is_empty()) {
        return Ok(SecretString::from(value.trim().to_owned()));
    }
    config.cloned().ok_or(CliError::NoToken)
}

/// The gateway's base URL for the config's listen address: a wildcard address is reached on
/// loopback.
pub fn url_for(listen: SocketAddr) -> String {
    let ip = match listen.ip() {
        ip if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_owned(),
        ip if ip.is_unspecified() => "[::1]".to_owned(),
        std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    };
    format!("http://{ip}:{}", listen.port())
}

/// Runs `action` against the gateway at `base`; returns what to print (the envelope pretty
/// printed with `json`, a table otherwise).
pub async fn run(
    action: &Action,
    base: &str,
    token: &SecretString,
    json: bool,
) -> Result<String, CliError> {
    let base = base.trim_end_matches('/');
    portal_core::tls::install();
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .build()
        .map_err(|err| CliError::Unreachable(base.to_owned(), err.to_string()))?;
    let mut bearer = HeaderValue::try_from(format!("Bearer {}", token.expose_secret()))
        .map_err(|_| CliError::NoToken)?;
    bearer.set_sensitive(true);
    let request = match action {
        Action::Stats => client.get(format!("{base}/portal/admin/cache")),
        Action::Show { key } => client
            .get(format!("{base}/portal/admin/cache"))
            .query(&[("key", key)]),
        Action::Purge {
            prefixes,
            tags,
            hard,
        } => {
            let mut query: Vec<(&str, &str)> = Vec::new();
            query.extend(prefixes.iter().map(|p| ("prefix", p.as_str())));
            query.extend(tags.iter().map(|t| ("tag", t.as_str())));
            if *hard {
                query.push(("hard", "true"));
            }
            client
                .post(format!("{base}/portal/admin/cache/purge"))
                .query(&query)
        }
    };
    let response = request
        .header(AUTHORIZATION, bearer)
        .send()
        .await
        .map_err(|err| CliError::Unreachable(base.to_owned(), without_url(&err)))?;
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map_err(|err| CliError::Unreachable(base.to_owned(), without_url(&err)))?;
    let envelope: Value = serde_json::from_slice(&body).map_err(|_| {
        CliError::Unreadable(String::from_utf8_lossy(&body).chars().take(200).collect())
    })?;
    let msg = envelope["msg"].as_str().unwrap_or_default().to_owned();
    match status {
        200..=299 => {}
        401 | 403 => return Err(CliError::Refused(msg)),
        _ => return Err(CliError::Answer(status, msg)),
    }
    if json {
        return Ok(serde_json::to_string_pretty(&envelope).unwrap_or_default() + "\n");
    }
    let result = &envelope["result"];
    Ok(match action {
        Action::Stats => stats_table(result),
        Action::Show { .. } => entry_table(result),
        Action::Purge { .. } => purge_line(result),
    })
}

/// reqwest's error text without the URL (it holds the query: a key, a tag).
fn without_url(err: &reqwest::Error) -> String {
    let mut err = err.to_string();
    if let Some(at) = err.find(" for url") {
        err.truncate(at);
    }
    err
}

fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / f64::from(1 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / f64::from(1 << 10)),
        n => format!("{n} B"),
    }
}

fn ratio(value: &Value) -> String {
    value
        .as_f64()
        .map_or_else(|| "-".to_owned(), |r| format!("{:.1} %", r * 100.0))
}

fn num(value: &Value) -> u64 {
    value.as_u64().unwrap_or_default()
}

fn stats_table(result: &Value) -> String {
    let mut out = String::new();
    let totals = &result["totals"];
    let _ = writeln!(
        out,
        "cache{}: {} entries, {} of {}; hit ratio {} (hits {}, misses {}, stale {}, bypass {})",
        if result["enabled"].as_bool() == Some(false) {
            " (off)"
        } else {
            ""
        },
        num(&totals["entries"]),
        bytes(num(&totals["bytes"])),
        bytes(num(&result["maxBytes"])),
        ratio(&totals["hitRatio"]),
        num(&totals["hits"]),
        num(&totals["misses"]),
        num(&totals["stale"]),
        num(&totals["bypass"]),
    );
    let shared = &result["shared"];
    let _ = writeln!(
        out,
        "shared tier: {}",
        match (
            shared["configured"].as_bool(),
            shared["up"].as_bool(),
            shared["replica"].as_str()
        ) {
            (Some(true), Some(true), Some(replica)) => format!("up (this replica: {replica})"),
            (Some(true), _, _) => "down (this replica goes on alone)".to_owned(),
            _ => "not configured".to_owned(),
        }
    );
    let _ = writeln!(
        out,
        "\n{:<28} {:>7} {:>10} {:>8} {:>7} {:>6} {:>7} {:>8}  TTL",
        "ENDPOINT", "ENTRIES", "BYTES", "HITS", "MISSES", "STALE", "BYPASS", "HIT%"
    );
    for line in result["endpoints"].as_array().into_iter().flatten() {
        let ttl: Vec<String> = line["ttl"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                format!(
                    "{}s ({})",
                    num(&t["seconds"]),
                    t["of"].as_str().unwrap_or("")
                )
            })
            .chain(line["overrides"].as_array().into_iter().flatten().map(|o| {
                format!(
                    "{}s for {}",
                    num(&o["seconds"]),
                    o["of"].as_str().unwrap_or("")
                )
            }))
            .collect();
        let _ = writeln!(
            out,
            "{:<28} {:>7} {:>10} {:>8} {:>7} {:>6} {:>7} {:>8}  {}",
            line["endpoint"].as_str().unwrap_or("?"),
            num(&line["entries"]),
            bytes(num(&line["bytes"])),
            num(&line["hits"]),
            num(&line["misses"]),
            num(&line["stale"]),
            num(&line["bypass"]),
            ratio(&line["hitRatio"]),
            if ttl.is_empty() {
                "-".to_owned()
            } else {
                ttl.join("; ")
            },
        );
    }
    out
}

fn seconds(value: &Value) -> String {
    value
        .as_f64()
        .map_or_else(|| "-".to_owned(), |s| format!("{s:.1} s"))
}

fn entry_table(e: &Value) -> String {
    let text = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    let list = |v: &Value| {
        let items: Vec<String> = v
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| t.as_str().unwrap_or_default().to_owned())
            .collect();
        if items.is_empty() {
            "-".to_owned()
        } else {
            items.join(", ")
        }
    };
    let encodings: Vec<String> = e["encodings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| format!("{} {}", text(&x["encoding"]), bytes(num(&x["bytes"]))))
        .collect();
    let from = match (e["loadedFrom"].as_str(), e["storedBy"].as_str()) {
        (Some("shared"), Some(by)) => format!("the shared tier (stored by {by})"),
        (Some("shared"), None) => "the shared tier".to_owned(),
        _ => "the CMS, by this replica".to_owned(),
    };
    let rows = [
        ("key", text(&e["key"])),
        ("endpoint", text(&e["endpoint"])),
        (
            "status",
            format!("{} {}", num(&e["status"]), text(&e["mediaType"])),
        ),
        (
            "held",
            if e["inMemory"].as_bool() == Some(true) {
                "in this replica's memory".to_owned()
            } else {
                "in the shared tier only".to_owned()
            },
        ),
        ("age", seconds(&e["ageSeconds"])),
        (
            "ttl",
            e["ttlSeconds"]
                .as_u64()
                .map_or_else(|| "-".to_owned(), |s| format!("{s} s")),
        ),
        ("fresh for", seconds(&e["freshForSeconds"])),
        (
            "stale-while-revalidate for",
            seconds(&e["staleWhileRevalidateForSeconds"]),
        ),
        ("stale-if-error for", seconds(&e["staleIfErrorForSeconds"])),
        (
            "purged",
            if e["purged"].as_bool() == Some(true) {
                "yes (soft: served stale while one refresh runs)".to_owned()
            } else {
                "no".to_owned()
            },
        ),
        ("tags", list(&e["tags"])),
        ("encodings", encodings.join(", ")),
        ("size", bytes(num(&e["bytes"]))),
        ("etag", text(&e["etag"])),
        ("loaded from", from),
    ];
    let mut out = String::new();
    for (name, value) in rows {
        let _ = writeln!(out, "{name:<27} {value}");
    }
    out
}

fn purge_line(result: &Value) -> String {
    let tags: Vec<&str> = result["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    format!(
        "purged {} entries ({}; prefixes: {}; tags: {}) on every replica\n",
        num(&result["entries"]),
        if result["hard"].as_bool() == Some(true) {
            "hard: deleted"
        } else {
            "soft: served stale while one refresh runs"
        },
        match result["purged"].as_str() {
            Some("") | None => "-",
            Some(p) => p,
        },
        if tags.is_empty() {
            "-".to_owned()
        } else {
            tags.join(", ")
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_comes_from_the_file_then_the_variable_then_the_config() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "from-the-file-0123456789\nignored\n").unwrap();
        let config = SecretString::from("from-the-config-0123456789");
        let got = |f: Option<&Path>, v: Option<&str>, c| {
            token(f, v.map(str::to_owned), c).map(|t| t.expose_secret().to_owned())
        };
        assert_eq!(
            got(Some(&file), Some("var"), Some(&config)).unwrap(),
            "from-the-file-0123456789"
        );
        assert_eq!(
            got(None, Some("from-var"), Some(&config)).unwrap(),
            "from-var"
        );
        assert_eq!(
            got(None, Some("  "), Some(&config)).unwrap(),
            "from-the-config-0123456789"
        );
        assert!(matches!(got(None, None, None), Err(CliError::NoToken)));
        assert!(matches!(
            got(Some(&dir.path().join("none")), None, None),
            Err(CliError::TokenFile(..))
        ));
    }

    #[test]
    fn a_wildcard_listen_address_is_reached_on_loopback() {
        assert_eq!(
            url_for("0.0.0.0:8080".parse().unwrap()),
            "http://127.0.0.1:8080"
        );
        assert_eq!(url_for("[::]:8080".parse().unwrap()), "http://[::1]:8080");
        assert_eq!(
            url_for("10.1.2.3:9000".parse().unwrap()),
            "http://10.1.2.3:9000"
        );
    }
}
