//! Query-string validation: only whitelisted parameters, each checked, each error naming it.

use axum::{extract::FromRequestParts, http::request::Parts};

use crate::envelope::ApiError;
use portal_core::{endpoint::Endpoint, model::Id};

/// Highest page number accepted; beyond it no CMS has content and the number is abuse.
pub const MAX_PAGE: u32 = 100_000;

/// Longest search keyword, in characters.
pub const MAX_KEYWORD: usize = 50;

/// The raw query pairs of a request, parsed once. `only` keeps the parameters an endpoint of
/// the table accepts; the rest (cache busters such as `_t`) never reach a handler or the CMS.
pub struct RawQuery(Vec<(String, String)>);

impl<S: Send + Sync> FromRequestParts<S> for RawQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self::parse(parts.uri.query().unwrap_or("")))
    }
}

impl RawQuery {
    pub fn parse(query: &str) -> Self {
        Self(
            url::form_urlencoded::parse(query.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }

    /// The parameters written in a cache key (`categoryId=&page=1&size=10`): an empty value is
    /// an absent parameter there.
    pub fn of_key(query: &str) -> Self {
        let mut raw = Self::parse(query);
        raw.0.retain(|(_, value)| !value.is_empty());
        raw
    }

    /// Every value of `name`, in order.
    pub fn all(&self, name: &str) -> impl Iterator<Item = &str> {
        self.0
            .iter()
            .filter(move |(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The language asked for (`lang=en`, `endpoint::LANGUAGE_PARAM`): `None` when absent or
    /// the site's own (`zh`); the caller checks it is one the portal is in.
    pub fn language(&self) -> Result<Option<&str>, ApiError> {
        let name = portal_core::endpoint::LANGUAGE_PARAM;
        Ok(self
            .single(name)?
            .filter(|code| *code != portal_core::model::site::SITE_LANGUAGE))
    }

    /// The pairs `endpoint` accepts (its `params` in the table), nothing else.
    pub fn only(mut self, endpoint: Endpoint) -> Self {
        let params = endpoint.spec().params;
        self.0.retain(|(name, _)| params.contains(&name.as_str()));
        self
    }

    /// The one value of `name`; repeating the same value is harmless, differing values are not.
    fn single(&self, name: &'static str) -> Result<Option<&str>, ApiError> {
        let mut found: Option<&str> = None;
        for (key, value) in &self.0 {
            if key != name {
                continue;
            }
            match found {
                Some(previous) if previous != value => {
                    return Err(ApiError::bad_query(
                        name,
                        format!("参数 {name} 出现了多个不同的值。"),
                    ));
                }
                _ => found = Some(value),
            }
        }
        Ok(found)
    }

    /// A whole number from 1 to `max`, or `None` when absent.
    pub fn positive(&self, name: &'static str, max: u64) -> Result<Option<u64>, ApiError> {
        let Some(raw) = self.single(name)? else {
            return Ok(None);
        };
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(ApiError::bad_query(name, format!("参数 {name} 不能为空。")));
        }
        let must_be_positive = || ApiError::bad_query(name, format!("参数 {name} 必须是正整数。"));
        if !raw.bytes().all(|b| b.is_ascii_digit()) {
            return Err(must_be_positive());
        }
        // All digits: a parse failure can only mean the number overflows.
        let value: u64 = raw.parse().unwrap_or(u64::MAX);
        if value == 0 {
            return Err(must_be_positive());
        }
        if value > max {
            return Err(ApiError::bad_query(
                name,
                format!("参数 {name} 不能大于 {max}。"),
            ));
        }
        Ok(Some(value))
    }

    /// A search keyword: one value, trimmed (`trim_keyword`), 1 to `MAX_KEYWORD` characters, no
    /// control characters.
    pub fn keyword(&self, name: &'static str) -> Result<String, ApiError> {
        let keyword = canonical_keyword(self.single(name)?.unwrap_or(""));
        let count = keyword.chars().count();
        if count == 0 || count > MAX_KEYWORD {
            return Err(ApiError::bad_query(
                name,
                format!("参数 {name} 应为 1 到 {MAX_KEYWORD} 个字符（首尾空格不计）。"),
            ));
        }
        if keyword.chars().any(char::is_control) {
            return Err(ApiError::bad_query(
                name,
                format!("参数 {name} 不能含控制字符。"),
            ));
        }
        Ok(keyword)
    }

    /// A free-text value (the last one given), trimmed; `None` when absent or empty.
    pub fn text(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    }

    /// A day, `yyyy-MM-dd` (a real one), as `yyyymmdd`; `None` when absent.
    pub fn day(&self, name: &'static str) -> Result<Option<u32>, ApiError> {
        let Some(raw) = self.single(name)? else {
            return Ok(None);
        };
        let raw = raw.trim();
        chrono::NaiveDate::parse_from_str(raw, "%Y-%m-%d")
            .ok()
            .filter(|_| raw.len() == 10)
            .and_then(|_| raw.replace('-', "").parse().ok())
            .map(Some)
            .ok_or_else(|| {
                ApiError::bad_query(name, format!("参数 {name} 应为日期，如 2025-01-31。"))
            })
    }

    /// A category's or an article's id, the CMS's own (`Id`): a whole number or a string of
    /// letters, digits and `-._~:@`, 1 to 128 long, never `0` (the top level's parent).
    /// `None` when absent.
    pub fn id(&self, name: &'static str) -> Result<Option<Id>, ApiError> {
        let Some(raw) = self.single(name)? else {
            return Ok(None);
        };
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(ApiError::bad_query(name, format!("参数 {name} 不能为空。")));
        }
        match Id::parse(raw) {
            Ok(id) if !id.is_top() => Ok(Some(id)),
            _ => Err(ApiError::bad_query(
                name,
                format!(
                    "参数 {name} 应为编号：正整数，或以字母或数字开头、由 1 到 {} 个字母、数字及 -._~:@ 组成的字符串。",
                    portal_core::model::MAX_ID_LEN
                ),
            )),
        }
    }

    pub fn required_id(&self, name: &'static str) -> Result<Id, ApiError> {
        self.id(name)?
            .ok_or_else(|| ApiError::bad_query(name, format!("缺少参数 {name}。")))
    }
}

/// The article list's validated query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListQuery {
    pub category_id: Option<Id>,
    pub page: u32,
    pub size: u32,
}

impl ListQuery {
    /// `max_size` is the largest page the CMS accepts (`dialect.paging.max_size`).
    pub fn parse(query: &RawQuery, max_size: u32) -> Result<Self, ApiError> {
        Ok(Self {
            category_id: query.id("categoryId")?,
            page: query.positive("page", MAX_PAGE.into())?.unwrap_or(1) as u32,
            size: query
                .positive("size", max_size.into())?
                .unwrap_or(10.min(max_size.into())) as u32,
        })
    }
}

/// A keyword without the spaces around it, as the app trims it (`normalizeKeyword`): Unicode's
/// white space (U+0085 and U+3000 among it) and U+FEFF, which JavaScript's `\s` counts as space and
/// Rust's `trim` does not (`frontend/src/lib/address-cases.json` holds both to it).
pub fn trim_keyword(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

/// A keyword in its one spelling (`trim_keyword`, then full-width ASCII as ASCII, ASCII letters in
/// lower case, each run of white space one space): `ABC`, `abc` and `ＡＢＣ` are one search, one
/// cache entry and one page, not three a client can vary without end (the red team of 2026-11-28).
/// The gateway's index folds them alike, so no search finds less. The app writes a keyword the
/// same way (`features/search/keyword.ts`; `lib/address-cases.json` holds both to it).
pub fn canonical_keyword(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in trim_keyword(text).chars() {
        let c = match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '\u{3000}' => ' ',
            c => c,
        };
        // White space that is no control character (a tab or a line break inside stays, and
        // is refused as a control character).
        if (c.is_whitespace() && !c.is_control()) || c == '\u{feff}' {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param_of(err: ApiError) -> &'static str {
        match err {
            ApiError::BadQuery { param, .. } => param,
            other => panic!("not a query error: {other:?}"),
        }
    }

    #[test]
    fn defaults_and_repeats() {
        let q = ListQuery::parse(&RawQuery::parse("categoryId=3&_t=99"), 50).unwrap();
        assert_eq!(
            q,
            ListQuery {
                category_id: Some(3.into()),
                page: 1,
                size: 10
            }
        );
        let q = ListQuery::parse(&RawQuery::parse("size=20&page=2&size=20"), 50).unwrap();
        assert_eq!(
            q,
            ListQuery {
                category_id: None,
                page: 2,
                size: 20
            }
        );
    }

    #[test]
    fn each_bad_value_names_its_parameter() {
        for (query, param) in [
            ("page=abc", "page"),
            ("page=-1", "page"),
            ("page=0", "page"),
            ("page=", "page"),
            ("page=1.5", "page"),
            ("page=999999999999999999999999", "page"),
            ("size=51", "size"),
            ("size=0", "size"),
            ("categoryId=0", "categoryId"),
            ("categoryId=a%2Fb", "categoryId"),
            ("categoryId=a/b", "categoryId"),
            ("size=10&size=20", "size"),
        ] {
            let err = ListQuery::parse(&RawQuery::parse(query), 50).unwrap_err();
            assert_eq!(param_of(err), param, "{query}");
        }
    }

    #[test]
    fn only_the_parameters_of_the_table_are_kept() {
        let query = RawQuery::parse("categoryId=3&id=9&_t=1&page=2").only(Endpoint::ArticleList);
        assert_eq!(query.text("_t"), None);
        assert_eq!(query.text("id"), None);
        assert_eq!(query.text("categoryId").as_deref(), Some("3"));
        let detail = RawQuery::parse("id=7&categoryId=3").only(Endpoint::ArticleDetail);
        assert_eq!(detail.required_id("id").unwrap(), 7);
        assert_eq!(detail.text("categoryId"), None);
    }

    proptest::proptest! {
        /// Whatever a query string holds, parsing it answers: values within bounds, or an error
        /// naming a parameter of the endpoint.
        #[test]
        fn any_query_string_parses_or_names_a_parameter(
            query in r"(([a-zA-Z_]{0,12}|categoryId|page|size|id)=([0-9]{0,25}|[^&]{0,40})&?){0,6}|\PC{0,200}",
            max_size in 1u32..=50,
        ) {
            match ListQuery::parse(&RawQuery::parse(&query).only(Endpoint::ArticleList), max_size) {
                Ok(list) => {
                    proptest::prop_assert!(list.page >= 1 && list.page <= MAX_PAGE);
                    proptest::prop_assert!(list.size >= 1 && list.size <= max_size);
                }
                Err(err) => {
                    let param = param_of(err);
                    proptest::prop_assert!(Endpoint::ArticleList.spec().params.contains(&param));
                }
            }
            if let Err(err) = RawQuery::parse(&query).only(Endpoint::ArticleDetail).required_id("id") {
                proptest::prop_assert_eq!(param_of(err), "id");
            }
        }
    }

    #[test]
    fn required_id_must_be_present() {
        let err = RawQuery::parse("other=1").required_id("id").unwrap_err();
        assert_eq!(param_of(err), "id");
    }
}
