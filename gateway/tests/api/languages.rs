//! The portal in English (`[languages.en]`): the API answers in the language asked for, from
//! the CMS's content in it (reference-cms's `content/en/`, by `locale=en` on every call), each
//! answer under a key of its own; pages at `/portal/en/…` are the app rendered in English, with
//! their `hreflang` pair; the sitemap pairs each page with its other language. A portal without
//! the language answers none of it.

use crate::helpers::*;
use reqwest::StatusCode;

const ADMIN_TOKEN: &str = "languages-admin-token-0123";
const WEBHOOK_SECRET: &str = "languages-webhook-secret-0123";

/// English as the demo configures it: reference-cms's content in English by `locale=en`.
const ENGLISH: &str = "[languages.en]\nname = \"English\"\nquery = { locale = \"en\" }\n\
[languages.en.site]\ncompany_name = \"Yunchuan Test Group\"\n";

use portal_core::model::site::has_han;

async fn spawn_in_two_languages() -> TestApp {
    let cms = spawn_reference_cms().await;
    spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        with_toml(c, ENGLISH);
        open_limits(c);
    }))
    .await
}

#[tokio::test]
async fn the_api_answers_in_the_language_asked_for_each_under_its_own_key() {
    let app = spawn_in_two_languages().await;

    let (status, site) = app.get_json("/portal/api/site").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(site["result"]["lang"], "zh");
    assert_eq!(
        site["result"]["languages"],
        serde_json::json!([{ "code": "zh", "name": "中文" }, { "code": "en", "name": "English" }])
    );
    let (_, site_en) = app.get_json("/portal/api/site?lang=en").await;
    assert_eq!(site_en["result"]["lang"], "en");
    assert_eq!(site_en["result"]["companyName"], "Yunchuan Test Group");
    // `zh` is the site's own language, as when no language is named.
    let (_, site_zh) = app.get_json("/portal/api/site?lang=zh").await;
    assert_eq!(
        site_zh["result"]["companyName"],
        site["result"]["companyName"]
    );

    let (status, tree) = app.get_json("/portal/api/category/list?lang=en").await;
    assert_eq!(status, StatusCode::OK);
    let text = tree["result"].to_string();
    assert!(!has_han(&text), "the English tree is English: {text:.300}");
    assert!(text.contains("/about/company_profile") && text.contains("Company News"));
    assert!(
        !text.contains("/party-construction"),
        "a section with no English content is not in the English tree"
    );
    let (_, tree_zh) = app.get_json("/portal/api/category/list").await;
    assert!(
        tree_zh["result"]
            .to_string()
            .contains("/party-construction")
    );

    let (_, article) = app
        .get_json("/portal/api/article/detail?id=2101&lang=en")
        .await;
    let title = article["result"]["title"].as_str().unwrap_or_default();
    assert!(
        !title.is_empty() && !has_han(title),
        "English title: {title}"
    );
    let (_, article_zh) = app.get_json("/portal/api/article/detail?id=2101").await;
    assert!(has_han(
        article_zh["result"]["title"].as_str().unwrap_or_default()
    ));

    // Each language its own entry: the second English answer is a hit, and still English.
    let again = app.get("/portal/api/article/detail?id=2101&lang=en").await;
    assert_eq!(again.headers()["x-cache"], "HIT");
    let again: serde_json::Value = again.json().await.unwrap();
    assert_eq!(again["result"]["title"], title);

    // An article with no English version is "not found" in English.
    let (status, _) = app
        .get_json("/portal/api/article/detail?id=2103&lang=en")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_language_the_portal_is_not_in_is_refused_naming_those_it_is_in() {
    let app = spawn_in_two_languages().await;
    for path in [
        "/portal/api/category/list?lang=fr",
        "/portal/api/site?lang=de",
        "/portal/api/article/list?categoryId=21&lang=EN",
    ] {
        let (status, body) = app.get_json(path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        let msg = body["msg"].as_str().unwrap_or_default();
        assert!(
            msg.contains("lang") && msg.contains("zh、en"),
            "{path}: {msg}"
        );
    }

    // Configured with its own language only: no languages to list, and `en` is refused.
    let cms = spawn_reference_cms().await;
    let one = spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        open_limits,
    ))
    .await;
    let (_, site) = one.get_json("/portal/api/site").await;
    assert_eq!(site["result"]["languages"], serde_json::json!([]));
    let (status, _) = one.get_json("/portal/api/category/list?lang=en").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[test]
fn a_language_the_app_is_not_written_in_or_without_a_name_is_refused_at_load() {
    let base = "[upstream]\nbase_url = \"http://127.0.0.1:9/\"\nclient_id = \"c\"\nclient_secret = \"s\"\n[site]\ncompany_name = \"C\"\n";
    let refused = |extra: &str| {
        portal_web::config::Config::from_toml_str(&format!("{base}{extra}"))
            .err()
            .map(|err| err.to_string())
            .unwrap_or_default()
    };
    let fr = refused("[languages.fr]\nname = \"Français\"\n");
    assert!(
        fr.contains("`fr` is no language the app is written in"),
        "{fr}"
    );
    let nameless = refused("[languages.en]\nquery = { locale = \"en\" }\n");
    assert!(nameless.contains("languages.en.name"), "{nameless}");
    let query = refused("[languages.en]\nname = \"English\"\nquery = { locale = \"en&x=1\" }\n");
    assert!(query.contains("languages.en.query"), "{query}");
    let site = refused(
        "[languages.en]\nname = \"English\"\n[languages.en.site]\nlogin_url = \"javascript:alert(1)\"\n",
    );
    assert!(
        site.contains("languages.en.site") && site.contains("login_url"),
        "{site}"
    );
}

#[test]
fn check_config_names_each_site_fact_left_in_chinese_for_english() {
    let toml = "[upstream]\nbase_url = \"http://127.0.0.1:9/\"\nclient_id = \"c\"\nclient_secret = \"s\"\n\
[site]\ncompany_name = \"云川\"\naddress = \"云川市\"\nphone = \"0874\"\n\
[languages.en]\nname = \"English\"\n[languages.en.site]\ncompany_name = \"Yunchuan\"\n";
    let config = portal_web::config::Config::from_toml_str(toml).expect("valid");
    let gaps = config.language_gaps();
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    assert!(
        gaps[0].starts_with("languages.en.site.address "),
        "{gaps:?}"
    );
}

#[tokio::test]
async fn english_pages_are_the_app_in_english_with_their_chinese_pair() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        with_toml(c, ENGLISH);
        open_limits(c);
    }))
    .await;

    let page = app.get("/portal/en/about/company_profile").await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"<html lang="en">"#), "{html:.200}");
    let links = hrefs(&html);
    assert!(
        html.contains(r#"hrefLang="zh-CN""#) || html.contains(r#"hreflang="zh-CN""#),
        "the Chinese page is named as its pair"
    );
    assert!(
        links
            .iter()
            .any(|h| h.ends_with("/portal/about/company_profile"))
    );
    // The switch and the links stay in English but the one to the Chinese page.
    assert!(links.iter().any(|h| h == "/portal/en/"));
    let state = state_of(&html);
    let company = answers_in(&state)
        .into_iter()
        .find_map(|a| a.get("companyName").and_then(|n| n.as_str()))
        .unwrap_or_default()
        .to_owned();
    assert_eq!(company, "Yunchuan Test Group", "the English site's facts");

    // The Chinese page of the same section names the English one.
    let zh = app
        .get("/portal/about/company_profile")
        .await
        .text()
        .await
        .unwrap();
    assert!(zh.contains(r#"<html lang="zh-CN">"#));
    assert!(
        hrefs(&zh)
            .iter()
            .any(|h| h.ends_with("/portal/en/about/company_profile"))
    );

    // A section the English content lacks is no English page; the English home is.
    let missing = app.get("/portal/en/party-construction/clean-honest").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(app.get("/portal/en/").await.status(), StatusCode::OK);
    assert_eq!(app.get("/portal/en").await.status(), StatusCode::OK);
    // An English address in other letters is its one address, in English.
    let moved = app.get("/portal/en/About/company_profile").await;
    assert_eq!(moved.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        moved.headers()["location"],
        "/portal/en/about/company_profile"
    );

    // Without English configured, `/portal/en/…` is no page.
    let cms = spawn_reference_cms().await;
    let one = spawn_app(page_config(&format!("http://{cms}/"), open_limits)).await;
    let page = one.get("/portal/en/about/company_profile").await;
    assert_eq!(page.status(), StatusCode::NOT_FOUND);
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"<html lang="zh-CN">"#));
}

#[tokio::test]
async fn the_sitemap_lists_each_language_and_pairs_a_page_with_its_other_language() {
    let app = spawn_in_two_languages().await;
    let xml = app.get("/portal/sitemap.xml").await.text().await.unwrap();
    assert!(xml.contains(r#"xmlns:xhtml="http://www.w3.org/1999/xhtml""#));
    let entry = |loc: &str| {
        xml.split("<url>")
            .find(|u| u.contains(&format!("<loc>{loc}</loc>")))
            .unwrap_or_else(|| panic!("{loc} in the sitemap"))
            .to_owned()
    };
    let base = "http://127.0.0.1:8080";
    let english = entry(&format!("{base}/portal/en/article/2101"));
    assert!(english.contains(&format!(
        r#"hreflang="zh-CN" href="{base}/portal/article/2101""#
    )));
    assert!(english.contains(&format!(
        r#"hreflang="en" href="{base}/portal/en/article/2101""#
    )));
    let chinese = entry(&format!("{base}/portal/about/company_profile"));
    assert!(chinese.contains(&format!(
        r#"hreflang="en" href="{base}/portal/en/about/company_profile""#
    )));
    // A page in one language only names no other.
    let only = entry(&format!("{base}/portal/article/2103"));
    assert!(!only.contains("hreflang"), "{only}");
    assert!(!xml.contains("/portal/en/party-construction"));
}

#[tokio::test]
async fn a_webhook_renews_the_changed_article_in_every_language() {
    let (app, cms) = spawn_with_notifying_cms(WEBHOOK_SECRET, |upstream| {
        config_for(upstream, &static_dir(), |c| {
            with_toml(c, ENGLISH);
            open_limits(c);
            c.admin.token = Some(ADMIN_TOKEN.into());
            c.admin.webhook_secret = Some(WEBHOOK_SECRET.into());
        })
    })
    .await;

    let english = "/portal/api/article/detail?id=2102&lang=en";
    assert_eq!(app.get(english).await.headers()["x-cache"], "MISS");
    assert_eq!(app.get(english).await.headers()["x-cache"], "HIT");
    // An editor changes the article (in Chinese): the notice purges it by its tag in both
    // languages, and renews both, so the next English reader meets a fresh entry, not a stale one.
    let changed = edit_article(
        cms,
        2102,
        serde_json::json!({ "title": "集团与阿拉木图陆港签署战略合作协议（修订）" }),
    )
    .await;
    assert_eq!(changed["webhook"], 200, "{changed}");
    let after = app.get(english).await;
    assert_eq!(after.headers()["x-cache"], "HIT", "renewed by the notice");
    let after: serde_json::Value = after.json().await.unwrap();
    assert!(!has_han(after["result"]["title"].as_str().unwrap_or("中")));
}

#[tokio::test]
async fn check_upstream_reads_each_language_and_says_when_the_cms_ignores_its_parameters() {
    let cms = spawn_reference_cms().await;
    let rows = |report: &portal_gateway::check::Report| {
        report
            .checks
            .iter()
            .filter(|c| c.endpoint.ends_with("(en)"))
            .map(|c| {
                (
                    c.endpoint.clone(),
                    c.problems
                        .iter()
                        .map(|p| (p.key.clone(), p.what.clone()))
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    let with = |language: &str| {
        portal_web::config::Config::from_toml_str(&format!(
            "{}\n{language}",
            example_toml("native", cms)
        ))
        .unwrap()
    };
    // The demo's English: its sections, in English, and nothing to say.
    let good = portal_gateway::check::run(&with(ENGLISH)).await.unwrap();
    let english = rows(&good);
    assert_eq!(english.len(), 1, "{english:?}");
    assert_eq!(english[0].0, "category/list (en)");
    assert_eq!(english[0].1.len(), 1, "{english:?}");
    assert_eq!(
        english[0].1[0].0, "languages.en",
        "only the info line: {english:?}"
    );
    assert_eq!(good.warnings, 0, "{}", portal_gateway::check::render(&good));
    assert_eq!(good.errors, 0);

    // A parameter the CMS does not read (reference-cms takes `locale`, not `lang`): the same
    // Chinese tree comes back, and the checker says the English pages would show it.
    let ignored = ENGLISH.replace("locale = \"en\"", "lang = \"en\"");
    let bad = portal_gateway::check::run(&with(&ignored)).await.unwrap();
    let english = rows(&bad);
    let (key, what) = &english[0].1[0];
    assert_eq!(key, "languages.en.query");
    assert!(
        what.contains("does not read [languages.en]'s parameters"),
        "{what}"
    );
}

#[tokio::test]
async fn a_languages_dialect_keys_are_laid_over_the_sites_own() {
    // A CMS whose English sits in other fields (Directus's translations): the English dialect
    // reads the title from another field, everything else as `[dialect]` says.
    let cms = spawn_reference_cms().await;
    let app = spawn_app(config_for(&format!("http://{cms}/"), &static_dir(), |c| {
        with_toml(
            c,
            &format!("{ENGLISH}[languages.en.dialect.fields.article]\ntitle = \"summary\"\n"),
        );
        open_limits(c);
    }))
    .await;
    let (_, english) = app
        .get_json("/portal/api/article/detail?id=2101&lang=en")
        .await;
    let summary = english["result"]["summary"].as_str().unwrap_or_default();
    assert!(!summary.is_empty() && !has_han(summary));
    assert_eq!(english["result"]["title"], summary);
    let (_, chinese) = app.get_json("/portal/api/article/detail?id=2101").await;
    assert_ne!(chinese["result"]["title"], chinese["result"]["summary"]);
    assert!(has_han(
        chinese["result"]["title"].as_str().unwrap_or_default()
    ));
}
