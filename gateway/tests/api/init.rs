//! `portal-gateway init` against reference-cms in each of its forms and against a CMS it does not
//! know: the config it writes passes `check-upstream` with no error, serves the CMS's sections,
//! and carries nothing of the demo company; an unknown CMS is said to be one, nothing written.
//! (Against Strapi 5: `strapi::init_writes_a_config_strapi_passes_with`, run by `make test-strapi`.)

use crate::helpers::*;
use portal_gateway::init::{self, Request};

fn request(base: &str) -> Request {
    Request {
        base_url: base.parse().unwrap(),
        auth: None,
        client_id: Some(CLIENT_ID.to_owned()),
        client_secret: Some(CLIENT_SECRET.to_owned()),
    }
}

/// The written config as the integrator completes it: the company's name (its one question the
/// gateway needs answered) and the credential the environment gives.
pub fn completed(written: &str) -> portal_web::Config {
    let text = written.replace(
        "# company_name = \"\"",
        &format!("company_name = \"{COMPANY}\""),
    );
    let text = init::apply_fix(&text, &format!("upstream.client_id = \"{CLIENT_ID}\""));
    let text = init::apply_fix(
        &text,
        &format!("upstream.client_secret = \"{CLIENT_SECRET}\""),
    );
    let mut config = portal_web::Config::from_toml_str(&text)
        .unwrap_or_else(|err| panic!("the written config loads: {err}\n{written}"));
    config.server.listen = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    config.server.static_dir = static_dir();
    open_limits(&mut config);
    config
}

#[tokio::test]
async fn init_writes_a_config_each_form_of_reference_cms_passes_with() {
    for (dialect, shape, recognised) in [
        (
            reference_cms::Dialect::Native,
            reference_cms::CategoryShape::Flat,
            "native",
        ),
        (
            reference_cms::Dialect::Mybatis,
            reference_cms::CategoryShape::Flat,
            "MyBatis",
        ),
        (
            reference_cms::Dialect::Rest,
            reference_cms::CategoryShape::Flat,
            "rest",
        ),
    ] {
        let cms = spawn_reference_cms_speaking(dialect, shape).await;
        let written = init::init(&request(&format!("http://{cms}/")))
            .await
            .unwrap_or_else(|err| panic!("{recognised}: {err}"));
        let text = portal_gateway::check::render(&written.report);
        assert!(written.cms.contains(recognised), "{}", written.cms);
        assert!(written.report.ok, "{recognised}: {text}");
        assert_eq!(written.report.errors, 0, "{recognised}: {text}");
        for demo in ["云川", "demo-secret", CLIENT_SECRET, "127.0.0.1:8080"] {
            assert!(
                !written.config.contains(demo),
                "{recognised}: {demo} written"
            );
        }
        assert!(
            written.config.contains("# 问") && written.config.contains("# company_name"),
            "{recognised}: what only the integrator knows is a question"
        );
        // Completed as the integrator would, the portal shows the CMS's sections.
        let config = completed(&written.config);
        let report = portal_gateway::check::run(&config).await.unwrap();
        assert_eq!(
            report.errors,
            0,
            "{}",
            portal_gateway::check::render(&report)
        );
        let app = spawn_app(config).await;
        let (status, tree) = app.get_json("/portal/api/category/list").await;
        assert_eq!(status, 200, "{tree}");
        let names: Vec<&str> = tree["result"]["content"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert!(names.contains(&"新闻中心"), "{recognised}: {names:?}");
        let (status, list) = app.get_json("/portal/api/article/list?page=1&size=5").await;
        assert_eq!(status, 200, "{list}");
        assert!(!list["result"]["content"].as_array().unwrap().is_empty());
    }
}

#[tokio::test]
async fn init_says_when_it_does_not_know_the_cms_and_writes_nothing() {
    let fake = FakeUpstream::start(Reply::Json(
        404,
        serde_json::json!({"error": "no such thing"}),
    ))
    .await;
    let err = match init::init(&request(&fake.base_url())).await {
        Ok(written) => panic!("recognised as {}", written.cms),
        Err(err) => err.to_string(),
    };
    assert!(
        err.contains("no CMS the gateway knows") && err.contains("docs/integrators.md"),
        "{err}"
    );
}

/// An address that answers 8 MiB where a probe expects a small JSON document is no CMS, and `init`
/// ends (it reads 2 MiB of a probe's answer at most; this test does not see the bound itself).
#[tokio::test]
async fn an_endless_answer_is_read_only_so_far() {
    let huge = format!("\"{}\"", "a".repeat(8 << 20));
    let fake = FakeUpstream::start(Reply::Bytes(200, "application/json", huge.into_bytes())).await;
    let err = match init::init(&request(&fake.base_url())).await {
        Ok(written) => panic!("recognised as {}", written.cms),
        Err(err) => err.to_string(),
    };
    assert!(err.contains("no CMS the gateway knows"), "{err}");
}

/// A Plone site root at `++api++/` (what `init` recognises Plone by) whose search answers an
/// error: the CMS is known, its sections are not read.
fn plone_that_cannot_search(path: &str, _query: &str) -> Reply {
    if path.ends_with("/++api++/") {
        return Reply::Json(
            200,
            serde_json::json!({"@id": "http://cms.example/Plone", "@type": "Plone Site", "title": "试验站点"}),
        );
    }
    Reply::Json(
        500,
        serde_json::json!({"type": "InternalError", "message": "the catalog is being rebuilt"}),
    )
}

/// A CMS `init` recognised but whose shipped mapping does not read it is named as what it is,
/// with why the mapping failed and which example to check: never "no CMS the gateway knows"
/// (Plone behind a virtual host was told so, 2026-12-08), which sends an integrator looking
/// for a CMS that did answer.
#[tokio::test]
async fn a_recognised_cms_its_mapping_cannot_read_is_named_with_the_reason() {
    let fake = FakeUpstream::start(Reply::Route(plone_that_cannot_search)).await;
    let err = match init::init(&request(&fake.base_url())).await {
        Ok(written) => panic!("written for {}", written.cms),
        Err(err) => err.to_string(),
    };
    assert!(
        err.contains("this is Plone 6")
            && err.contains("did not read its sections")
            && err.contains("category/list answered 500")
            && err.contains("config/examples/plone.toml")
            && !err.contains("no CMS the gateway knows"),
        "{err}"
    );
}
