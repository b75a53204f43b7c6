//! `/portal/api`: validate the query, call the CMS through `upstream`, normalise into the
//! envelope. Handlers never build upstream URLs or credentials themselves.

pub mod content;
mod files;
pub mod query;

use axum::{
    Router,
    extract::State,
    http::{HeaderMap, HeaderValue, header},
    routing::get,
};

use crate::{
    config::SiteConfig,
    envelope::{ApiError, Success},
    state::AppState,
    upstream::{Credential, Endpoint},
};
use content::{Article, ArticlePage, Category, CategoryList};
use query::{ListQuery, RawQuery};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/category/list", get(category_list))
        .route("/category/getParentCategory", get(parent_category))
        .route("/article/list", get(article_list))
        .route("/article/detail", get(article_detail))
        .route("/site", get(site))
        .route("/files/{*path}", get(files::file))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("请求的接口不存在。".to_owned())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// Longest visitor token passed on; anything longer is not a token this CMS issued.
const MAX_TOKEN_LEN: usize = 4096;

/// The visitor's own system token when they send a well-formed `Bearer` one; otherwise the
/// gateway's client credential. A visitor's Basic credential is never passed on.
fn credential(headers: &HeaderMap) -> Credential<'_> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Credential::Client;
    };
    let Ok(text) = value.to_str() else {
        return Credential::Client;
    };
    let Some((scheme, token)) = text.split_once(' ') else {
        return Credential::Client;
    };
    let token68 = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
    if scheme.eq_ignore_ascii_case("bearer")
        && !token.is_empty()
        && token.len() <= MAX_TOKEN_LEN
        && token.chars().all(token68)
    {
        Credential::Bearer(value)
    } else {
        Credential::Client
    }
}

fn request_id(headers: &HeaderMap) -> Option<&HeaderValue> {
    headers.get("x-request-id")
}

async fn fetch_categories(state: &AppState, headers: &HeaderMap) -> Result<CategoryList, ApiError> {
    let result = state
        .upstream
        .get_json(
            Endpoint::CategoryList,
            &[],
            credential(headers),
            request_id(headers),
        )
        .await?;
    Ok(content::category_list(result)?)
}

async fn category_list(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Success<CategoryList>, ApiError> {
    fetch_categories(&state, &headers).await.map(Success)
}

/// Answered from the category tree rather than the CMS's own endpoint, which the replaced
/// portal found broken and many CMSs lack.
async fn parent_category(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Success<Option<Category>>, ApiError> {
    let id = query.required_id("id")?;
    let tree = fetch_categories(&state, &headers).await?;
    content::parent_of(&tree.content, id)
        .map(Success)
        .ok_or_else(|| ApiError::NotFound(format!("栏目 {id} 不存在。")))
}

async fn article_list(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Success<ArticlePage>, ApiError> {
    let list = ListQuery::parse(&query)?;
    let mut pairs = Vec::with_capacity(3);
    if let Some(id) = list.category_id {
        pairs.push(("categoryId", id.to_string()));
    }
    pairs.push(("page", state.upstream.upstream_page(list.page).to_string()));
    pairs.push(("size", list.size.to_string()));
    let result = state
        .upstream
        .get_json(
            Endpoint::ArticleList,
            &pairs,
            credential(&headers),
            request_id(&headers),
        )
        .await?;
    Ok(Success(content::article_page(
        result,
        &state.links,
        list.page,
        list.size,
    )?))
}

async fn article_detail(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Success<Article>, ApiError> {
    let id = query.required_id("id")?;
    let result = state
        .upstream
        .get_json(
            Endpoint::ArticleDetail,
            &[("id", id.to_string())],
            credential(&headers),
            request_id(&headers),
        )
        .await?;
    content::article_detail(result, &state.links)?
        .map(Success)
        .ok_or_else(|| ApiError::NotFound(format!("文章 {id} 不存在。")))
}

async fn site(State(state): State<AppState>) -> Success<SiteConfig> {
    Success(state.config.site.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_auth(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn only_well_formed_bearer_tokens_pass_through() {
        assert!(matches!(credential(&HeaderMap::new()), Credential::Client));
        assert!(matches!(
            credential(&with_auth("Bearer abc.DEF-123")),
            Credential::Bearer(_)
        ));
        assert!(matches!(
            credential(&with_auth("bearer abc")),
            Credential::Bearer(_)
        ));
        assert!(matches!(
            credential(&with_auth("Basic dXNlcjpwYXNz")),
            Credential::Client
        ));
        assert!(matches!(
            credential(&with_auth("Bearer ")),
            Credential::Client
        ));
        assert!(matches!(
            credential(&with_auth("Bearer a b")),
            Credential::Client
        ));
        let long = format!("Bearer {}", "a".repeat(MAX_TOKEN_LEN + 1));
        assert!(matches!(credential(&with_auth(&long)), Credential::Client));
    }
}
