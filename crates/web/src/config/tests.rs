use super::*;

const MINIMAL: &str = r#"
[site]
company_name = "测试公司"

[upstream]
base_url = "http://127.0.0.1:8081/"
client_id = "portal-web"
client_secret = "s3cret"
"#;

#[test]
fn minimal_file_takes_the_spec_defaults() {
    let config = Config::from_toml_str(MINIMAL).unwrap();
    assert_eq!(config.upstream.timeout, Duration::from_millis(12_000));
    assert_eq!(config.dialect.paging.page_base, 0);
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
fn no_error_repeats_a_secret_however_the_file_is_broken() {
    let cases = [
        // A syntax error on the secret's line (TOML quotes the line it stopped at).
        MINIMAL.replace(
            "client_secret = \"s3cret\"",
            "client_secret = \"s3cret-xyz-4711",
        ),
        MINIMAL.replace(
            "client_secret = \"s3cret\"",
            "client_secret = s3cret-xyz-4711",
        ),
        // A number where the secret's string goes.
        MINIMAL.replace(
            "client_secret = \"s3cret\"",
            "client_secret = 4711471147114711",
        ),
        // A credential in the CMS's address, in its user information or its query.
        MINIMAL.replace(
            "http://127.0.0.1:8081/",
            "http://portal:s3cret-xyz-4711@127.0.0.1:8081/",
        ),
        MINIMAL.replace(
            "http://127.0.0.1:8081/",
            "http://127.0.0.1:8081/?key=s3cret-xyz-4711",
        ),
        format!("{MINIMAL}[admin]\ntoken = 4711471147114711\n"),
        format!("{MINIMAL}[admin]\nwebhook_secret = [\"s3cret-xyz-4711\"]\n"),
    ];
    for toml in cases {
        let err = Config::from_toml_str(&toml).expect_err(&toml).to_string();
        assert!(
            !err.contains("s3cret-xyz-4711") && !err.contains("4711471147114711"),
            "{err}"
        );
        assert!(
            err.contains("client_secret")
                || err.contains("base_url")
                || err.contains("admin.")
                || err.contains("line"),
            "names where: {err}"
        );
    }
}

#[test]
fn a_guessable_admin_token_or_webhook_secret_is_refused() {
    for (key, weak) in [
        ("token", "aaaaaaaaaaaaaaaa"),
        ("token", "abababababababab"),
        ("webhook_secret", "short-secret"),
        ("webhook_secret", "1111111122222222"),
    ] {
        let toml = format!("{MINIMAL}[admin]\n{key} = \"{weak}\"\n");
        let err = Config::from_toml_str(&toml).expect_err(weak).to_string();
        assert!(err.contains(&format!("admin.{key}")), "{err}");
        assert!(!err.contains(weak), "the value is not repeated: {err}");
    }
    let toml = format!(
        "{MINIMAL}[admin]\ntoken = \"9f86d081884c7d65\"\nwebhook_secret = \"webhook-secret-0123456789\"\n"
    );
    Config::from_toml_str(&toml).unwrap();
}

#[test]
fn a_webhook_header_must_be_a_header_name() {
    let toml = format!("{MINIMAL}[admin]\nwebhook_header = \"x portal: secret\"\n");
    let err = Config::from_toml_str(&toml).unwrap_err().to_string();
    assert!(err.contains("admin.webhook_header"), "{err}");
    let toml = format!("{MINIMAL}[admin]\nwebhook_header = \"x-portal-webhook-secret\"\n");
    Config::from_toml_str(&toml).unwrap();
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
        (
            format!("{MINIMAL}[dialect.paging]\npage_base = 2\n"),
            "dialect.paging.page_base",
        ),
        (
            format!("{MINIMAL}[dialect.lists]\ntotal = \"meta..count\"\n"),
            "dialect.lists.total",
        ),
        (
            format!("{MINIMAL}[dialect.endpoints.article_detail]\npath = \"articles/{{slug}}\"\n"),
            "dialect.endpoints.article_detail.path",
        ),
        (
            format!("{MINIMAL}[dialect.envelope]\nsuccess = [\"ok\"]\n"),
            "dialect.envelope.success",
        ),
        (
            format!("{MINIMAL}[dialect.fields.article]\ntitel = \"x\"\n"),
            "titel",
        ),
        (
            format!("{MINIMAL}[dialect.categories]\nshape = \"children\"\n"),
            "dialect.endpoints.category_children.path",
        ),
        (MINIMAL.replace("s3cret", ""), "upstream.client_secret"),
        (MINIMAL.replace("portal-web", "a:b"), "upstream.client_id"),
        (
            MINIMAL.replacen("[site]\n", "[site]\npagination_locale = \"fr\"\n", 1),
            "site.pagination_locale",
        ),
        (
            MINIMAL.replacen("[site]\n", "[site]\nmourning = [\"12-13\", \"02-30\"]\n", 1),
            "site.mourning",
        ),
        (
            MINIMAL.replacen("[site]\n", "[site]\nmourning = [\"2026/12/13\"]\n", 1),
            "site.mourning",
        ),
        (
            MINIMAL.replacen(
                "[site]\n",
                "[site]\npolice_filing_url = \"javascript:alert(1)\"\n",
                1,
            ),
            "site.police_filing_url",
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

#[test]
fn ttl_comes_from_override_then_endpoint_then_default() {
    let config = Config::from_toml_str(&format!(
        r#"{MINIMAL}
[cache]
default_ttl = "30s"
ttl = {{ "category/list" = "10m", "article/list" = "60s" }}
overrides = [{{ pattern = "article/list?categoryId=23&*", ttl = "10s" }}]
"#
    ))
    .unwrap();
    let c = &config.cache;
    assert_eq!(
        c.ttl_for("category/list", "category/list"),
        Duration::from_secs(600)
    );
    assert_eq!(
        c.ttl_for("article/list", "article/list?categoryId=21&page=1&size=10"),
        Duration::from_secs(60)
    );
    assert_eq!(
        c.ttl_for("article/list", "article/list?categoryId=23&page=1&size=10"),
        Duration::from_secs(10)
    );
    assert_eq!(
        c.ttl_for("article/detail", "article/detail?id=1"),
        Duration::from_secs(30)
    );
}

#[test]
fn glob_patterns() {
    assert!(glob_match("a*c", "abbbc"));
    assert!(glob_match("a*", "a"));
    assert!(glob_match("*x*", "axb"));
    assert!(!glob_match("a*c", "abd"));
    assert!(!glob_match("abc", "abcd"));
    assert!(glob_match("a*b*c", "a-b-c") && glob_match("a*b*c", "abc"));
    assert!(!glob_match("a*b*c", "a-c") && !glob_match("ab*ba", "aba"));
    assert!(glob_match("**", "") && glob_match("a**b", "ab"));
    assert!(glob_match(
        "article/list?categoryId=23&*",
        "article/list?categoryId=23&page=2&size=10"
    ));
    assert!(!glob_match(
        "article/list?categoryId=23&*",
        "article/list?categoryId=231&page=2"
    ));
}

#[test]
fn unknown_ttl_endpoint_and_short_admin_token_are_refused() {
    let err = Config::from_toml_str(&format!(
        "{MINIMAL}[cache]\nttl = {{ \"nope\" = \"1s\" }}\n"
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("cache.ttl"), "{err}");
    let err = Config::from_toml_str(&format!("{MINIMAL}[admin]\ntoken = \"short\"\n"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("admin.token"), "{err}");
}

#[test]
fn every_cached_endpoint_takes_a_ttl() {
    use portal_core::endpoint::Endpoint;
    let mut toml = format!("{MINIMAL}[cache.ttl]\n");
    for name in Endpoint::cache_names() {
        toml.push_str(&format!("\"{name}\" = \"5m\"\n"));
    }
    let config = Config::from_toml_str(&toml).unwrap();
    for name in Endpoint::cache_names() {
        assert_eq!(
            config.cache.ttl_for(name, name),
            Duration::from_secs(300),
            "{name}"
        );
    }
    let err = Config::from_toml_str(&format!("{MINIMAL}[cache.ttl]\n\"site\" = \"5m\"\n"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("cache.ttl") && err.contains("article/detail"),
        "{err}"
    );
}

#[test]
fn upstream_concurrency_must_be_positive() {
    let err = Config::from_toml_str(&format!("{MINIMAL}[limits]\nupstream_concurrency = 0\n"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("limits.upstream_concurrency"), "{err}");
    let config = Config::from_toml_str(MINIMAL).unwrap();
    assert_eq!(config.limits.upstream_concurrency, 64);
}

#[test]
fn the_native_example_spells_out_the_defaults() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../config/examples/native.toml"
    );
    let config = Config::load(std::path::Path::new(path)).unwrap();
    assert_eq!(
        config.dialect,
        portal_cms::dialect::DialectConfig::default()
    );
}

#[test]
fn the_demo_secret_is_refused_where_others_can_reach_the_gateway() {
    let demo = MINIMAL.replace("s3cret", DEMO_CLIENT_SECRET);
    assert!(
        Config::from_toml_str(&demo).is_ok(),
        "loopback: the demo as shipped"
    );
    let open = format!("{demo}[server]\nlisten = \"0.0.0.0:8080\"\n");
    let err = Config::from_toml_str(&open).unwrap_err().to_string();
    assert!(err.contains("upstream.client_secret"), "{err}");
    assert!(err.contains("PORTAL__UPSTREAM__CLIENT_SECRET"), "{err}");
    assert!(
        !err.contains(DEMO_CLIENT_SECRET),
        "the secret is not printed: {err}"
    );
    let said = format!("demo = true\n{open}");
    assert!(Config::from_toml_str(&said).is_ok());
    let real = MINIMAL.to_owned() + "[server]\nlisten = \"0.0.0.0:8080\"\n";
    assert!(
        Config::from_toml_str(&real).is_ok(),
        "a real secret may listen anywhere"
    );
}

#[test]
fn mourning_is_a_switch_or_a_list_of_days() {
    use portal_core::model::site::Mourning;
    let off = Config::from_toml_str(MINIMAL).unwrap();
    assert_eq!(off.site.mourning, Mourning::Always(false));
    let on = Config::from_toml_str(&MINIMAL.replacen("[site]\n", "[site]\nmourning = true\n", 1))
        .unwrap();
    assert_eq!(on.site.mourning, Mourning::Always(true));
    let days = Config::from_toml_str(&MINIMAL.replacen(
        "[site]\n",
        "[site]\nmourning = [\"12-13\", \"02-29\", \"2027-04-04\"]\n",
        1,
    ))
    .unwrap();
    assert_eq!(
        days.site.mourning,
        Mourning::Days(vec!["12-13".into(), "02-29".into(), "2027-04-04".into()])
    );
    // As /site shows it: the switch or the list, as written.
    let json = serde_json::to_value(&days.site).unwrap();
    assert_eq!(
        json["mourning"],
        serde_json::json!(["12-13", "02-29", "2027-04-04"])
    );
    assert_eq!(serde_json::to_value(&on.site).unwrap()["mourning"], true);
    assert_eq!(
        serde_json::to_value(&off.site).unwrap()["policeFilingNumber"],
        ""
    );
}

#[test]
fn a_missing_secret_names_the_variable_and_the_file_key() {
    let without = MINIMAL.replace("client_secret = \"s3cret\"\n", "");
    let err = Config::from_toml_str(&without).unwrap_err().to_string();
    assert!(err.contains("upstream.client_secret"), "{err}");
    assert!(err.contains("PORTAL__UPSTREAM__CLIENT_SECRET"), "{err}");
    assert!(err.contains("client_secret_file"), "{err}");
}

#[test]
fn each_credential_style_is_checked_for_what_it_needs() {
    let with = |lines: &str| MINIMAL.replace("client_secret = \"s3cret\"\n", lines);
    let header = with("client_secret = \"k3y\"\nauth = \"header\"\n");
    let err = Config::from_toml_str(&header).unwrap_err().to_string();
    assert!(err.contains("upstream.auth_name"), "{err}");
    let header = with("client_secret = \"k3y\"\nauth = \"header\"\nauth_name = \"X-API-Key\"\n");
    assert!(Config::from_toml_str(&header).is_ok());
    let query = with("client_secret = \"k3y\"\nauth = \"query\"\n");
    let err = Config::from_toml_str(&query).unwrap_err().to_string();
    assert!(err.contains("upstream.auth_name"), "{err}");
    // Bearer needs no client id.
    let bearer = with("client_secret = \"tok.en-1\"\nauth = \"bearer\"\n")
        .replace("client_id = \"portal-web\"\n", "");
    assert!(Config::from_toml_str(&bearer).is_ok());
    let bad = with("client_secret = \"a token\"\nauth = \"bearer\"\n");
    let err = Config::from_toml_str(&bad).unwrap_err().to_string();
    assert!(
        err.contains("upstream.client_secret") && !err.contains("a token"),
        "{err}"
    );
    let err = Config::from_toml_str(&with("client_secret = \"x\"\nauth = \"oauth\"\n"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("auth"), "{err}");
}

#[test]
fn the_secret_file_is_read_and_never_both() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("secret");
    std::fs::write(&file, "from-file\r\n").unwrap();
    let toml = MINIMAL.replace(
        "client_secret = \"s3cret\"\n",
        &format!("client_secret_file = \"{}\"\n", file.display()),
    );
    let config = Config::from_toml_str(&toml).unwrap();
    assert_eq!(config.upstream.secret().expose_secret(), "from-file");
    let both = format!("{}\nclient_secret = \"x\"\n", toml.trim_end());
    let err = Config::from_toml_str(&both).unwrap_err().to_string();
    assert!(err.contains("not both"), "{err}");
    let missing = MINIMAL.replace(
        "client_secret = \"s3cret\"\n",
        "client_secret_file = \"/nonexistent/secret\"\n",
    );
    let err = Config::from_toml_str(&missing).unwrap_err().to_string();
    assert!(err.contains("upstream.client_secret_file"), "{err}");
}

#[test]
fn files_live_an_hour_unless_named_and_file_max_bytes_is_bounded() {
    let config = Config::from_toml_str(MINIMAL).unwrap();
    assert_eq!(config.cache.file_max_bytes, 1024 * 1024);
    assert_eq!(
        config.cache.ttl_for("files", "files/covers/a.jpg"),
        Duration::from_secs(3600),
        "the table's default for files, not default_ttl"
    );
    let named =
        Config::from_toml_str(&format!("{MINIMAL}[cache.ttl]\n\"files\" = \"5m\"\n")).unwrap();
    assert_eq!(
        named.cache.ttl_for("files", "files/covers/a.jpg"),
        Duration::from_secs(300)
    );
    let err = Config::from_toml_str(&format!(
        "{MINIMAL}[cache]\nmax_bytes = 2097152\nfile_max_bytes = 4194304\n"
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("cache.file_max_bytes"), "{err}");
}

#[test]
fn render_takes_its_defaults_and_its_bounds_name_their_key() {
    let config = Config::from_toml_str(MINIMAL).unwrap();
    assert_eq!(config.render, portal_render::RenderSettings::default());
    assert_eq!(config.render.threads, 2);
    assert_eq!(config.render.timeout, Duration::from_secs(1));
    assert_eq!(config.render.memory_limit, 64 * 1024 * 1024);
    assert_eq!(config.render.queue, 128);
    assert_eq!(config.render.queue_wait, Duration::from_secs(5));
    assert_eq!(config.render.older_copy_after, Duration::from_millis(250));

    let config = Config::from_toml_str(&format!(
        "{MINIMAL}[render]\nthreads = 4\ntimeout = \"1s\"\nmemory_limit = 134217728\nqueue = 8\n"
    ))
    .unwrap();
    assert_eq!(
        (
            config.render.threads,
            config.render.timeout,
            config.render.queue
        ),
        (4, Duration::from_secs(1), 8)
    );

    for (line, key) in [
        ("threads = 0", "render.threads"),
        ("threads = 17", "render.threads"),
        ("timeout = \"5ms\"", "render.timeout"),
        ("timeout = \"11s\"", "render.timeout"),
        ("timeout = \"soon\"", "render.timeout"),
        ("memory_limit = 1048576", "render.memory_limit"),
        ("queue = 0", "render.queue"),
        ("queue_wait = \"5ms\"", "render.queue_wait"),
        ("queue_wait = \"31s\"", "render.queue_wait"),
        ("older_copy_after = \"11s\"", "render.older_copy_after"),
        ("thread = 2", "thread"),
    ] {
        let err = Config::from_toml_str(&format!("{MINIMAL}[render]\n{line}\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(key), "{line}: {err}");
    }
}

/// Every example an integrator starts from loads and compiles its dialect, given the secret it
/// takes from its environment or a file at run time, and, for a third-party CMS's, the company's
/// name, which only the integrator knows: those examples carry nothing of the demo company.
#[test]
fn every_example_config_loads() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/examples");
    // The examples for reference-cms's dialects serve its demo content, whose company it is.
    let demo = ["native.toml", "rest.toml", "mybatis.toml"];
    // The secret as the environment or a file gives it at run time, and the company's name when
    // `company` says so.
    let prepared = |text: &str, company: bool| -> String {
        text.lines()
            .filter(|l| !l.trim_start().starts_with("client_secret"))
            .map(|l| match l.trim() {
                "[upstream]" => {
                    "[upstream]\nclient_secret = \"example-test-secret-0123\"\n".to_owned()
                }
                "[site]" if company => "[site]\ncompany_name = \"示例物流有限公司\"\n".to_owned(),
                _ => format!("{l}\n"),
            })
            .collect()
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let third_party = !demo.contains(&name);
        if third_party {
            assert!(
                !text.contains("云川") && !text.contains("127.0.0.1:8080"),
                "{name} carries a value of the demo company's"
            );
            let unnamed = Config::from_toml_str(&prepared(&text, false))
                .unwrap_err()
                .to_string();
            assert!(unnamed.contains("company_name"), "{name}: {unnamed}");
        }
        let text = prepared(&text, third_party);
        if let Err(err) = Config::from_toml_str(&text) {
            panic!("{}: {err}", path.display());
        }
        seen += 1;
    }
    assert!(seen >= 6, "{seen} examples");
}

/// The service entries' pictures load from the site itself (the pages' CSP allows no other host),
/// a map says what it shows, and links are web addresses; each refusal names its key.
#[test]
fn service_entries_are_refused_with_their_key_when_they_could_not_be_shown() {
    let cases = [
        (
            "[site.contact]\nmap_image = \"https://maps.example.com/hq.png\"\nmap_alt = \"总部\"\n",
            "site.contact.map_image",
        ),
        (
            "[site.contact]\nmap_image = \"//cdn.example.com/hq.png\"\nmap_alt = \"总部\"\n",
            "site.contact.map_image",
        ),
        (
            "[site.contact]\nmap_image = \"/portal/api/files/site/hq.svg\"\n",
            "site.contact.map_alt",
        ),
        (
            "[site.wechat]\nname = \"云川陆港\"\nqr_image = \"http://example.com/qr.png\"\n",
            "site.wechat.qr_image",
        ),
        (
            "[site.wechat]\nqr_image = \"/portal/api/files/site/qr.svg\"\n",
            "site.wechat.name",
        ),
        (
            "[site.whistleblowing]\nwebsite = \"javascript:alert(1)\"\n",
            "site.whistleblowing.website",
        ),
        (
            "[[site.links]]\nname = \"国资委\"\nurl = \"/portal/contact\"\n",
            "site.links",
        ),
        (
            "[[site.links]]\nname = \"\"\nurl = \"http://www.sasac.gov.cn/\"\n",
            "site.links",
        ),
        (
            "[[site.services]]\nname = \"货物追踪\"\nicon = \"track\"\nurl = \"javascript:alert(1)\"\n",
            "site.services",
        ),
        (
            "[[site.services]]\nname = \"货物追踪\"\nicon = \"track\"\nurl = \"//track.example.com/\"\n",
            "site.services",
        ),
        (
            "[[site.services]]\nname = \" \"\nicon = \"track\"\nurl = \"https://track.example.com/\"\n",
            "site.services",
        ),
        // An icon the app does not draw: serde names the ones it does.
        (
            "[[site.services]]\nname = \"货物追踪\"\nicon = \"truck\"\nurl = \"https://track.example.com/\"\n",
            "`route`, `track`",
        ),
    ];
    for (extra, key) in cases {
        let err = Config::from_toml_str(&format!("{MINIMAL}{extra}"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(key), "{extra}: {err}");
    }
    let good = "[site.contact]\nmap_image = \"/portal/api/files/site/hq.svg\"\nmap_alt = \"总部位置示意图\"\n\
                [site.wechat]\nname = \"云川陆港\"\nqr_image = \"/portal/api/files/site/qr.svg\"\n\
                [[site.links]]\nname = \"国资委\"\nurl = \"http://www.sasac.gov.cn/\"\n\
                [[site.services]]\nname = \"货物追踪\"\nicon = \"track\"\nurl = \"https://track.example.com/\"\n\
                [[site.services]]\nname = \"班列线路与时刻\"\nicon = \"timetable\"\nurl = \"/services/timetable\"\n";
    let config = Config::from_toml_str(&format!("{MINIMAL}{good}")).unwrap();
    assert_eq!(config.site.links.len(), 1);
    assert_eq!(config.site.services.len(), 2);
    assert_eq!(config.site.services[1].description, "");
    assert_eq!(config.site.wechat.qr_image, "/portal/api/files/site/qr.svg");
}

/// Loading a config makes `redact` hide each of its secrets, in every form it travels in.
#[test]
fn every_form_of_a_configured_secret_is_hidden() {
    Config::from_toml_str(
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
    let basic = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        "portal-web:q+s3cret/value&x",
    );
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
        let clean = portal_core::redact::redact(text);
        assert!(!clean.contains(secret), "{clean}");
        assert!(clean.contains("***"), "{clean}");
    }
    assert!(matches!(
        portal_core::redact::redact("nothing secret here"),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn a_trusted_proxy_is_an_address_or_a_range() {
    // deploy/nginx/portal.conf's line, as written there.
    let config = Config::from_toml_str(&format!(
        "{MINIMAL}\n[limits]\ntrusted_proxies = [\"127.0.0.1\", \"::1\", \"10.42.0.0/16\"]\n"
    ))
    .unwrap();
    let written: Vec<String> = config
        .limits
        .trusted_proxies
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(written, ["127.0.0.1/32", "::1/128", "10.42.0.0/16"]);
    let err = Config::from_toml_str(&format!(
        "{MINIMAL}\n[limits]\ntrusted_proxies = [\"ingress\"]\n"
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("`ingress` is neither an address"), "{err}");
}
