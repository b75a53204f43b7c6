//! The content queries, each once: the endpoint whose cache name keys it, its key, the CMS call
//! it makes, the tags of what it shows and its "not found". The one `match` over the content
//! operations; the endpoint table says the rest (paths, parameters, cache names).

use std::sync::Arc;

use crate::{
    envelope::ApiError,
    request::query::{ListQuery, RawQuery},
};
use portal_cms::dialect::CmsCall;
use portal_core::{
    endpoint::{CacheKey, Endpoint, SearchKey},
    model::{Content, Id, tags},
};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    Categories,
    /// The parent of a category, answered from the tree rather than the CMS's own endpoint,
    /// which the replaced portal found broken and many CMSs lack.
    Parent {
        id: Id,
    },
    /// A page (1-based) of a category's articles, or of every category's.
    Articles {
        category: Option<Id>,
        page: u32,
        size: u32,
    },
    Article {
        id: Id,
    },
    /// A page of a search: the gateway's index or the CMS's own search
    /// (`dialect.endpoints.article_search`), as `[search] mode` says. The filters are the
    /// index's.
    Search {
        keyword: Arc<str>,
        /// A section: the category and every one under it.
        section: Option<Id>,
        /// Days, `yyyymmdd`, both included.
        from: Option<u32>,
        to: Option<u32>,
        page: u32,
        size: u32,
    },
}

impl Query {
    /// The endpoint of the table whose cache name, TTL and parameters this query has.
    pub fn endpoint(&self) -> Endpoint {
        match self {
            Self::Categories => Endpoint::CategoryList,
            Self::Parent { .. } => Endpoint::ParentCategory,
            Self::Articles { .. } => Endpoint::ArticleList,
            Self::Article { .. } => Endpoint::ArticleDetail,
            Self::Search { .. } => Endpoint::ArticleSearch,
        }
    }

    /// Its cache key: defaults filled and a fixed order, so the same query is always one key.
    pub fn key(&self) -> CacheKey {
        let endpoint = self.endpoint();
        match self {
            Self::Categories => CacheKey::new(endpoint, &[]),
            Self::Parent { id } | Self::Article { id } => CacheKey::new(endpoint, &[Some(id)]),
            Self::Articles {
                category,
                page,
                size,
            } => CacheKey::new(
                endpoint,
                &[
                    category.as_ref().map(|c| c as &dyn std::fmt::Display),
                    Some(page),
                    Some(size),
                ],
            ),
            Self::Search {
                keyword,
                section,
                from,
                to,
                page,
                size,
            } => CacheKey::search(&SearchKey {
                keyword,
                section: section.as_ref(),
                from: *from,
                to: *to,
                page: *page,
                size: *size,
            }),
        }
    }

    /// The query a cache key was made from (a webhook's refresh); `max_size` bounds its page.
    pub fn of_key(key: &str, max_size: u32) -> Result<Self, ApiError> {
        let (name, query) = key.split_once('?').unwrap_or((key, ""));
        let endpoint = Endpoint::of_cache_name(name)
            .ok_or_else(|| ApiError::NotFound(format!("{name} 不是缓存的接口。")))?;
        Self::of_request(endpoint, RawQuery::of_key(query), max_size)
    }

    /// The query `endpoint` is asked with these parameters (only those its table entry lists),
    /// each checked; `max_size` bounds a page. The one reading of an endpoint's parameters: the
    /// API's handlers, the pages the gateway renders (which ask the API's URLs) and a cache key's
    /// refresh all go through it. An endpoint that is no content query is "not found" here.
    pub fn of_request(endpoint: Endpoint, raw: RawQuery, max_size: u32) -> Result<Self, ApiError> {
        let raw = raw.only(endpoint);
        Ok(match endpoint {
            Endpoint::CategoryList => Self::Categories,
            Endpoint::ParentCategory => Self::Parent {
                id: raw.required_id("id")?,
            },
            Endpoint::ArticleList => {
                let list = ListQuery::parse(&raw, max_size)?;
                Self::Articles {
                    category: list.category_id,
                    page: list.page,
                    size: list.size,
                }
            }
            Endpoint::ArticleDetail => Self::Article {
                id: raw.required_id("id")?,
            },
            Endpoint::ArticleSearch => {
                let keyword = raw.keyword("keyword")?;
                let list = ListQuery::parse(&raw, max_size)?;
                // `to` before `from` is a range of no day: no hit, not an error.
                let (from, to) = (raw.day("from")?, raw.day("to")?);
                Self::Search {
                    keyword: keyword.into(),
                    section: list.category_id,
                    from,
                    to,
                    page: list.page,
                    size: list.size,
                }
            }
            Endpoint::Site | Endpoint::Files | Endpoint::OpenApi => {
                return Err(ApiError::NotFound("请求的接口不存在。".to_owned()));
            }
        })
    }

    /// The category and article ids this query names.
    pub fn ids(&self) -> impl Iterator<Item = &Id> {
        let id = match self {
            Self::Parent { id } | Self::Article { id } => Some(id),
            Self::Articles { category, .. } => category.as_ref(),
            Self::Search { section, .. } => section.as_ref(),
            Self::Categories => None,
        };
        id.into_iter()
    }

    /// Whether this search is filtered (by section or date: the index's filters).
    pub fn is_filtered(&self) -> bool {
        matches!(self, Self::Search { section, from, to, .. }
            if section.is_some() || from.is_some() || to.is_some())
    }

    /// The first filter a search names (for the error that refuses it).
    pub fn first_filter(&self) -> &'static str {
        match self {
            Self::Search {
                section: Some(_), ..
            } => "categoryId",
            Self::Search { from: Some(_), .. } => "from",
            _ => "to",
        }
    }

    /// The CMS call of a list or a search.
    pub fn cms_call(&self) -> Option<CmsCall> {
        match self {
            Self::Articles {
                category,
                page,
                size,
            } => Some(CmsCall::Articles {
                category: category.clone(),
                page: *page,
                size: *size,
            }),
            Self::Search {
                keyword,
                page,
                size,
                ..
            } => Some(CmsCall::Search {
                keyword: Arc::clone(keyword),
                page: *page,
                size: *size,
            }),
            _ => None,
        }
    }

    /// What an answer shows, for purges by tag (`None`: its "not found", which publishing the
    /// missing item must reach too).
    pub fn tags(&self, found: Option<&Content>) -> Vec<String> {
        let mut tags = match self {
            Self::Categories | Self::Parent { .. } => return vec![tags::CATEGORIES.to_owned()],
            Self::Articles { category, .. } => {
                vec![
                    category
                        .as_ref()
                        .map_or_else(|| tags::ALL_ARTICLES.to_owned(), tags::category),
                ]
            }
            // Any article may start to match: every article event purges searches, and every
            // change of the index.
            Self::Search { .. } => {
                vec![tags::ALL_ARTICLES.to_owned(), tags::SEARCH_INDEX.to_owned()]
            }
            Self::Article { id } => vec![tags::article(id)],
        };
        match found {
            // Each article on the page.
            Some(Content::Articles(page)) => {
                tags.extend(page.content.iter().map(|a| tags::article(&a.id)));
            }
            // Its neighbours, whose titles its previous/next links show.
            Some(Content::Article(article)) => {
                tags.extend(article.neighbour_ids().map(tags::article));
            }
            Some(Content::Search(page)) => {
                tags.extend(
                    page.content
                        .iter()
                        .map(|hit| tags::article(&hit.article.id)),
                );
            }
            _ => {}
        }
        tags
    }

    /// What a visitor is told when there is nothing to show.
    pub fn not_found(&self) -> ApiError {
        ApiError::NotFound(match self {
            Self::Parent { id }
            | Self::Articles {
                category: Some(id), ..
            } => format!("栏目 {id} 不存在。"),
            Self::Article { id } => format!("文章 {id} 不存在。"),
            Self::Categories | Self::Articles { .. } | Self::Search { .. } => {
                "内容不存在。".to_owned()
            }
        })
    }
}
