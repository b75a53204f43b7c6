use super::*;

const MINIMAL: &str = r#"
[upstream]
base_url = "http://127.0.0.1:8081/"
client_id = "portal-web"
client_secret = "s3cret"
"#;

#[test]
fn minimal_file_takes_the_spec_defaults() {
    let config = Config::from_toml_str(MINIMAL).unwrap();
    assert_eq!(config.upstream.timeout, Duration::from_millis(12_000));
    assert_eq!(config.upstream.page_base, 0);
    assert_eq!(config.server.listen.port(), 8080);
    assert_eq!(config.site.pagination_locale, "en");
}

#[test]
fn secret_never_prints() {
    let config = Config::from_toml_str(MINIMAL).unwrap();
    let debug = format!("{config:?}");
    assert!(!debug.contains("s3cret"), "{debug}");
}

#[test]
fn bad_values_name_their_key() {
    let cases = [
        (
            MINIMAL.replace("http://127.0.0.1:8081/", "ftp://cms/"),
            "upstream.base_url",
        ),
        (format!("{MINIMAL}timeout = \"0s\"\n"), "upstream.timeout"),
        (format!("{MINIMAL}timeout = \"soon\"\n"), "timeout"),
        (format!("{MINIMAL}page_base = 2\n"), "upstream.page_base"),
        (MINIMAL.replace("s3cret", ""), "upstream.client_secret"),
        (MINIMAL.replace("portal-web", "a:b"), "upstream.client_id"),
        (
            format!("{MINIMAL}[site]\npagination_locale = \"fr\"\n"),
            "site.pagination_locale",
        ),
        (
            format!("{MINIMAL}[server]\nlisten = \"nowhere\"\n"),
            "listen",
        ),
        (
            format!("{MINIMAL}[server]\nlistne = \"127.0.0.1:1\"\n"),
            "listne",
        ),
    ];
    for (toml, key) in cases {
        let err = Config::from_toml_str(&toml).unwrap_err().to_string();
        assert!(err.contains(key), "error for {key} does not name it: {err}");
    }
}

#[test]
fn missing_upstream_section_is_an_error() {
    let err = Config::from_toml_str("").unwrap_err().to_string();
    assert!(err.contains("upstream"), "{err}");
}
