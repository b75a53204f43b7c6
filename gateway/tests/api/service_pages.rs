//! The service entries of a state-owned enterprise's portal (issue 34), as the gateway renders
//! them with the real app build in front of reference-cms: 信访举报 (its own page, linked from every
//! footer, only with a channel), a full 联系我们, 友情链接 and 微信公众号 in the footer, the home
//! page's 媒体聚焦, 宣传视频 and 信息公开, a business page's way to 业务概览, and the app's own
//! 页面不存在 page (header, menu, footer) for an address outside the app.

use portal_core::model::site::{Contact, Department, Partner, Wechat};

use crate::helpers::{
    Config, STATE_OPEN, TestApp, between, hrefs, page_config, spawn_app,
    spawn_pages_with_reference_cms, spawn_reference_cms,
};

/// Status and the markup of a page (its state block left out: it holds every answer, so text
/// found there says nothing of what is drawn).
async fn markup(app: &TestApp, path: &str) -> (u16, String) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    let html = response.text().await.unwrap();
    (status, html.split(STATE_OPEN).next().unwrap().to_owned())
}

/// A way to report: a phone and the national site.
fn channel(config: &mut Config) {
    let whistleblowing = &mut config.site.whistleblowing;
    whistleblowing.phone = "0874-6288 5312".to_owned();
    whistleblowing.website = "https://www.12388.gov.cn/".to_owned();
}

#[tokio::test]
async fn whistleblowing_has_its_own_page_linked_from_every_footer_only_with_a_channel() {
    let cms = spawn_reference_cms().await;
    let set = spawn_app(page_config(&format!("http://{cms}/"), channel)).await;
    let (status, page) = markup(&set, "/portal/whistleblowing").await;
    assert_eq!(status, 200);
    for text in [
        "<h1>信访举报</h1>",
        "0874-6288 5312",
        "www.12388.gov.cn",
        "受理范围",
        "举报须知",
    ] {
        assert!(page.contains(text), "{text}: {page}");
    }
    for path in [
        "/portal/",
        "/portal/news_center/notice",
        "/portal/article/2101",
    ] {
        let (_, html) = markup(&set, path).await;
        let footer = between(&html, "<footer", "</footer>").expect("a footer");
        assert!(
            hrefs(footer).contains(&"/portal/whistleblowing".to_owned()),
            "{path}: {footer}"
        );
    }
    let (_, sitemap) = markup(&set, "/portal/sitemap").await;
    assert!(sitemap.contains(">信访举报<"), "{sitemap}");

    // Reception hours alone are no way to report: no page, no link.
    let unset = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        c.site.whistleblowing.hours = "工作日".to_owned();
    }))
    .await;
    let (status, page) = markup(&unset, "/portal/whistleblowing").await;
    assert_eq!(status, 404);
    assert!(page.contains("页面不存在"), "{page}");
    let (_, home) = markup(&unset, "/portal/").await;
    assert!(!home.contains("/portal/whistleblowing"), "{home}");
    let (_, sitemap) = markup(&unset, "/portal/sitemap").await;
    assert!(!sitemap.contains("信访举报"), "{sitemap}");
}

#[tokio::test]
async fn the_contact_page_lists_hotline_departments_press_office_map_and_directions() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        let department = |name: &str, duties: &str, phone: &str, email: &str| Department {
            name: name.to_owned(),
            duties: duties.to_owned(),
            phone: phone.to_owned(),
            email: email.to_owned(),
        };
        c.site.contact = Contact {
            hours: "工作日 8:30—17:30".to_owned(),
            departments: vec![department(
                "客户服务中心",
                "班列订舱与货物追踪",
                "400-687-5200",
                "service@example.com",
            )],
            media: Some(department(
                "宣传部",
                "新闻采访",
                "0874-6288 5226",
                "media@example.com",
            )),
            map_image: "/portal/api/files/site/hq-map.svg".to_owned(),
            map_alt: "总部位置示意图".to_owned(),
            directions: vec!["地铁 3 号线陆港新区站 B 口".to_owned()],
        };
    }))
    .await;
    let (status, page) = markup(&app, "/portal/contact").await;
    assert_eq!(status, 200);
    for text in [
        "工作日 8:30—17:30",
        "客户服务中心",
        "班列订舱与货物追踪",
        "tel:4006875200",
        "新闻媒体联系",
        "media@example.com",
        r#"src="/portal/api/files/site/hq-map.svg""#,
        r#"alt="总部位置示意图""#,
        "交通指引",
        "地铁 3 号线陆港新区站 B 口",
    ] {
        assert!(page.contains(text), "{text}: {page}");
    }
    // The map is the CMS's file, served through the gateway.
    assert_eq!(
        app.get("/portal/api/files/site/hq-map.svg")
            .await
            .status()
            .as_u16(),
        200
    );

    // A site that gives none of it shows none of it.
    let bare = spawn_app(page_config(&format!("http://{cms}/"), |_| {})).await;
    let (_, page) = markup(&bare, "/portal/contact").await;
    for text in ["交通指引", "部门联系方式", "新闻媒体联系", "<img"] {
        assert!(!page.contains(text), "{text}: {page}");
    }
}

#[tokio::test]
async fn the_footer_shows_friendly_links_and_the_wechat_account_only_when_set() {
    let cms = spawn_reference_cms().await;
    let app = spawn_app(page_config(&format!("http://{cms}/"), |c| {
        c.site.links = vec![Partner {
            name: "国务院国有资产监督管理委员会".to_owned(),
            url: Some("http://www.sasac.gov.cn/".to_owned()),
        }];
        c.site.wechat = Wechat {
            name: "云川陆港".to_owned(),
            account: "yclandport".to_owned(),
            qr_image: "/portal/api/files/site/wechat-qr.svg".to_owned(),
        };
    }))
    .await;
    let (_, home) = markup(&app, "/portal/").await;
    let footer = between(&home, "<footer", "</footer>").unwrap();
    assert!(
        footer.contains("友情链接") && footer.contains("http://www.sasac.gov.cn/"),
        "{footer}"
    );
    assert!(
        footer.contains("微信号") && footer.contains("yclandport"),
        "{footer}"
    );
    assert!(
        footer.contains(r#"src="/portal/api/files/site/wechat-qr.svg""#),
        "{footer}"
    );

    let bare = spawn_app(page_config(&format!("http://{cms}/"), |_| {})).await;
    let (_, home) = markup(&bare, "/portal/").await;
    let footer = between(&home, "<footer", "</footer>").unwrap();
    assert!(
        !footer.contains("友情链接") && !footer.contains("微信公众号"),
        "{footer}"
    );
}

#[tokio::test]
async fn the_home_page_leads_to_media_coverage_the_video_and_disclosures() {
    let app = spawn_pages_with_reference_cms().await;
    let (_, home) = markup(&app, "/portal/").await;
    let links = hrefs(&home);
    for (module, href) in [
        ("媒体聚焦", "/portal/news_center/media_coverage/2"),
        ("宣传视频", "/portal/about/promotional-video"),
        ("信息公开", "/portal/disclosure"),
        ("重大事项", "/portal/disclosure/major_events"),
        ("招标采购", "/portal/disclosure/procurement"),
    ] {
        assert!(home.contains(module), "{module}");
        assert!(links.contains(&href.to_owned()), "{href}: {links:?}");
    }
    // The newest 招标采购 item is on the home page, under its whole title.
    let (_, list) = app
        .get_json("/portal/api/article/list?categoryId=104&page=1&size=1")
        .await;
    let newest = list["result"]["content"][0]["title"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(home.contains(&newest), "{newest}");
}

#[tokio::test]
async fn a_business_page_leads_to_the_business_overview() {
    let app = spawn_pages_with_reference_cms().await;
    let (_, page) = markup(&app, "/portal/business/China-Europe_train").await;
    let overview = between(&page, "业务概览</h2>", "</nav>").expect("业务概览 under the page");
    for href in [
        "/portal/business_overview/operation_mode",
        "/portal/business_overview/cdb_site",
        "/portal/business_overview/operating_route",
    ] {
        assert!(
            hrefs(overview).contains(&href.to_owned()),
            "{href}: {overview}"
        );
    }
}

#[tokio::test]
async fn an_address_outside_the_app_answers_the_apps_404_page_with_header_and_footer() {
    let app = spawn_pages_with_reference_cms().await;
    for path in ["/portal/feed/987654.xml", "/portal/feed/nothing"] {
        let (status, page) = markup(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(page.contains("页面不存在"), "{path}: {page}");
        assert!(
            page.contains("<header") && page.contains("<footer"),
            "{path}: {page}"
        );
        assert!(page.contains("aria-label=\"主导航\""), "{path}: {page}");
    }
}
