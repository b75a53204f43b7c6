//! The site's own facts (company, footer, filing numbers, mourning days): written by operators
//! in `[site]`, served by `/portal/api/site` with whether the CMS searches (`SiteAnswer`), and
//! shown by every rendered page from the same value.

use serde::{Deserialize, Serialize};

/// Facts the app shows that operators change without a rebuild; served as-is by `/portal/api/site`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields, rename_all(serialize = "camelCase"))]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "camelCase"))]
pub struct Site {
    pub company_name: String,
    pub short_name: String,
    pub login_url: String,
    pub address: String,
    pub phone: String,
    pub email: String,
    pub postcode: String,
    pub icp_number: String,
    pub icp_url: String,
    pub copyright: String,
    /// Language of the pagination labels: `en` (the spec's default) or `zh-CN` (the config
    /// refuses any other).
    #[cfg_attr(test, ts(type = "'en' | 'zh-CN'"))]
    pub pagination_locale: String,
    /// Where visitors reach the portal (`https://www.example.com`): the absolute links of the
    /// pages (canonical, share), the sitemap and the feeds. Never taken from a request's `Host`, which a
    /// client could set and a cached page would keep. Empty (the default): pages link by paths, and
    /// there is no sitemap or feed (both need absolute addresses).
    pub public_url: String,
    /// 公安备案: the public-security filing number shown in the footer with its emblem (hidden when
    /// empty), and where it links (the national filing site's record page).
    pub police_filing_number: String,
    pub police_filing_url: String,
    /// 哀悼模式: the whole site in grey, always (`true`) or on listed days.
    pub mourning: Mourning,
    /// 咨询热线: the number a business page's call to action gives (hidden when empty).
    pub hotline: String,
    /// 在线订舱: where a business page's call to action sends a visitor to book (hidden when empty).
    pub booking_url: String,
    /// 信访举报: how to reach the discipline inspection office, shown on 清正廉洁 (each line only
    /// when set; the block only when one is).
    pub whistleblowing: Whistleblowing,
    /// The home page's 数说 figures (value and what it counts), in order; none, no block.
    pub figures: Vec<Figure>,
    /// The home page's partners (name, and a link when given); none, no block.
    pub partners: Vec<Partner>,
    /// 客户服务: the company's own systems (班列查询, 货物追踪, 在线订舱…) and the portal's service
    /// pages, in order: a band on the home page and the entries of 客户服务 in the menu, each
    /// opening at its own address; none, neither.
    pub services: Vec<Service>,
    /// 友情链接: the footer's links to the regulator, the group and peers (name and URL); none, no
    /// block.
    pub links: Vec<Partner>,
    /// 微信公众号: the footer's block with the account's QR code; none unless its name is set.
    pub wechat: Wechat,
    /// 联系我们 beyond the footer's lines: departments, the press office, a map, how to get there.
    pub contact: Contact,
}

/// `[site.wechat]`: the company's WeChat official account, as the footer shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields, rename_all(serialize = "camelCase"))]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "camelCase"))]
pub struct Wechat {
    /// The account's name (`云川陆港`); the block shows only when it is set.
    pub name: String,
    /// Its WeChat ID, printed under the code for visitors who search rather than scan.
    pub account: String,
    /// The QR code image WeChat gives the account, served from this site (a path beginning with
    /// `/`, e.g. one of the CMS's files: the pages' CSP allows images from the site itself only).
    pub qr_image: String,
}

/// `[site.contact]`: what 联系我们 lists besides the address, phone and e-mail of `[site]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields, rename_all(serialize = "camelCase"))]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "camelCase"))]
pub struct Contact {
    /// When the switchboard and the hotline answer (`工作日 8:30—17:30`).
    pub hours: String,
    /// Departments a visitor may want (业务咨询, 招标采购, 人力资源…), in order.
    pub departments: Vec<Department>,
    /// 新闻媒体联系: the press office (a department entry; none, no line).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub media: Option<Department>,
    /// A map of where the company is, served from this site (a path beginning with `/`).
    pub map_image: String,
    /// What the map shows, for visitors who cannot see it (required with a map).
    pub map_alt: String,
    /// 交通指引: how to get there, one line each (metro, bus, by car).
    pub directions: Vec<String>,
}

/// One department of `[site.contact]`: its name and how to reach it (each line only when set).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Department {
    pub name: String,
    /// What it answers for (`班列订舱、运价与时刻`).
    pub duties: String,
    pub phone: String,
    pub email: String,
}

/// `[site.whistleblowing]`: the 纪检 office's public channel.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Whistleblowing {
    pub phone: String,
    pub email: String,
    pub address: String,
    /// When the phone is answered (`工作日 9:00—17:00`).
    pub hours: String,
    /// The national online channel, e.g. the CCDI's 12388 site (an http or https URL).
    pub website: String,
}

impl Whistleblowing {
    /// Whether a visitor has a way to report (the app's `hasChannel`): without one, 信访举报 is
    /// no page (404), in no footer and no sitemap.
    pub fn has_channel(&self) -> bool {
        [&self.phone, &self.email, &self.address, &self.website]
            .iter()
            .any(|s| !s.trim().is_empty())
    }
}

/// `[[site.figures]]`: one key figure, `value = "5200+"`, `label = "中欧班列累计开行（列）"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Figure {
    pub value: String,
    pub label: String,
}

/// `[[site.partners]]`: a partner's name, and where it links (an app route or a URL; optional).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
pub struct Partner {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// `[[site.services]]`: one service entry: `name = "货物追踪"`, `icon = "track"`, `url` (a system's
/// http or https address, or a page of the portal beginning with `/`), and a line on what it does.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Service {
    pub name: String,
    /// What the app draws beside it (the config refuses an icon it does not know).
    pub icon: ServiceIcon,
    pub url: String,
    #[serde(default)]
    pub description: String,
}

/// The icons a service entry may name; the app draws each (`service-icon.tsx`, whose map the
/// generated type keeps complete).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "lowercase"))]
pub enum ServiceIcon {
    /// 班列查询, 线路查询
    Route,
    /// 货物追踪
    Track,
    /// 在线订舱
    Booking,
    /// 线路与时刻, 班期
    Timetable,
    /// 报关, 口岸
    Customs,
    /// 运费, 发票, 结算
    Invoice,
    /// 客服, 咨询
    Service,
    /// 仓储, 海外仓
    Warehouse,
}

/// `site.mourning`: `true`/`false`, or days: `"MM-DD"` every year, `"YYYY-MM-DD"` once. The app
/// decides a day in China Standard Time when it loads `/site`, so a listed day begins and ends
/// without a reload (and the answer stays one entry per config load).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Mourning {
    Always(bool),
    Days(Vec<String>),
}

impl Default for Mourning {
    fn default() -> Self {
        Self::Always(false)
    }
}

impl Mourning {
    /// A listed day that is no calendar day (`"02-30"`, `"2026-13-01"`, `"12/13"`).
    pub fn bad_day(&self) -> Option<&str> {
        let Self::Days(days) = self else { return None };
        days.iter().map(String::as_str).find(|day| {
            let full = |d: &str| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok();
            // Month-day: valid in a leap year, so 02-29 is allowed (it comes when it comes).
            let yearly = day.len() == 5 && full(&format!("2024-{day}"));
            !(yearly || (day.len() == 10 && full(day)))
        })
    }
}

/// Neutral: what a customer leaves out is not shown (the demo company's facts live in the
/// shipped `config/gateway.toml` only). The company's name has no default: the config must give it.
impl Default for Site {
    fn default() -> Self {
        Self {
            company_name: String::new(),
            short_name: String::new(),
            login_url: String::new(),
            address: String::new(),
            phone: String::new(),
            email: String::new(),
            postcode: String::new(),
            icp_number: String::new(),
            // The national filing site, which every ICP number links to.
            icp_url: "https://beian.miit.gov.cn/".to_owned(),
            copyright: String::new(),
            pagination_locale: "en".to_owned(),
            public_url: String::new(),
            police_filing_number: String::new(),
            police_filing_url: String::new(),
            mourning: Mourning::default(),
            hotline: String::new(),
            booking_url: String::new(),
            whistleblowing: Whistleblowing::default(),
            figures: Vec::new(),
            partners: Vec::new(),
            services: Vec::new(),
            links: Vec::new(),
            wechat: Wechat::default(),
            contact: Contact::default(),
        }
    }
}

/// `/portal/api/site`'s `result`: the site's facts, and whether the CMS searches (the app shows
/// its search box only then).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Site"))]
pub struct SiteAnswer<'a> {
    #[serde(flatten)]
    pub site: &'a Site,
    pub search: bool,
    /// The language these facts are in: `zh`, the site's own, or one of `[languages]` (`en`).
    #[cfg_attr(test, ts(type = "'zh' | 'en'"))]
    pub lang: &'a str,
    /// Every language the portal is in, the site's own first; none when it has only its own
    /// (the app shows no language switch then).
    pub languages: &'a [Language],
}

/// A language the portal is in: its code (the pages' `/portal/<code>/…`; the site's own, `zh`,
/// at `/portal/…`) and what its switch says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Language {
    #[cfg_attr(test, ts(type = "'zh' | 'en'"))]
    pub code: String,
    pub name: String,
}

/// The site's own language: its pages live at `/portal/…`, its answers under today's keys.
pub const SITE_LANGUAGE: &str = "zh";

/// The languages the app is written in besides the site's own: the only codes `[languages]`
/// may name, and the only `/portal/<code>/…` prefixes a page's address may carry.
pub const APP_LANGUAGES: [&str; 1] = ["en"];

/// Whether `text` has a Chinese (CJK Unified Ideographs) character: a CMS's message a visitor may
/// read as it is, a site fact left untranslated, a category named in Chinese in another language.
pub fn has_han(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// A page's address without its language (`/portal/en/about` → `en`, `/portal/about`); the
/// site's own language's is returned as it is, with `None`.
pub fn page_language(path: &str) -> (Option<&'static str>, std::borrow::Cow<'_, str>) {
    for code in APP_LANGUAGES {
        if let Some(rest) = path
            .strip_prefix("/portal/")
            .and_then(|p| p.strip_prefix(code))
            && (rest.is_empty() || rest.starts_with('/'))
        {
            let rest = if rest.is_empty() { "/" } else { rest };
            return (Some(code), format!("/portal{rest}").into());
        }
    }
    (None, path.into())
}

#[cfg(test)]
mod language_tests {
    use super::*;

    /// The app's list of the languages it is written in (`frontend/src/lib/locale.ts`, `LOCALES`)
    /// is the site's own and `APP_LANGUAGES`: the gateway serves `/portal/<code>/…` for no language
    /// the app lacks, and the app has none the gateway would refuse.
    #[test]
    fn the_apps_languages_are_the_gateways() {
        let locale_ts = include_str!("../../../../frontend/src/lib/locale.ts");
        let listed = locale_ts
            .split("export const LOCALES: readonly Locale[] = [")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .expect("locale.ts lists LOCALES");
        let app: Vec<&str> = listed
            .split(',')
            .map(|c| c.trim().trim_matches('\''))
            .filter(|c| !c.is_empty())
            .collect();
        let gateway: Vec<&str> = std::iter::once(SITE_LANGUAGE)
            .chain(APP_LANGUAGES)
            .collect();
        assert_eq!(app, gateway);
    }

    #[test]
    fn a_page_address_names_its_language_only_as_a_whole_segment() {
        assert_eq!(
            page_language("/portal/en/about"),
            (Some("en"), "/portal/about".into())
        );
        assert_eq!(page_language("/portal/en"), (Some("en"), "/portal/".into()));
        assert_eq!(
            page_language("/portal/en/"),
            (Some("en"), "/portal/".into())
        );
        assert_eq!(
            page_language("/portal/english"),
            (None, "/portal/english".into())
        );
        assert_eq!(
            page_language("/portal/about"),
            (None, "/portal/about".into())
        );
        assert!(has_han("中欧班列 X8032") && !has_han("China-Europe “train” ，"));
    }
}
