//! The `rest` dialect: a headless CMS without an envelope. The HTTP status says whether a call
//! worked and errors are `{"message": …}`; categories are one flat list with a `parent` id and a
//! `slug` (no portal routes), or, with `--categories children`, only asked for parent by parent;
//! lists are `{"meta":{"total_count":N},"items":[…]}` by `offset`/`limit` (at most 20); the detail
//! is at `articles/{id}`; times are ISO 8601 with an offset; the cover sits under `cover.url`; the
//! lead story is `featured` (a boolean on every item) and a video's WebVTT captions file is
//! `captions` (a path in the file store like `video`, or null).

use axum::{
    Json, Router,
    extract::{Path, Query, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{AppState, CategoryShape, content::Article, content::Category, parse_id};

/// This CMS answers 400 to a larger `limit`.
const MAX_LIMIT: usize = 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v2/categories", get(categories))
        .route("/v2/categories/{id}/children", get(children))
        .route("/v2/articles", get(articles))
        .route("/v2/search", get(articles))
        .route("/v2/articles/{id}", get(article))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "Not found") })
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "message": message }))).into_response()
}

pub fn refused() -> Response {
    error(StatusCode::UNAUTHORIZED, "Invalid API credentials")
}

fn category(c: &Category, with_parent: bool) -> Value {
    let mut value = json!({
        "id": c.id,
        "title": c.name,
        "slug": c.slug(),
        "order": c.sort,
        "kind": c.extra.get("type"),
        "summary": c.extra.get("description"),
        "hidden": c.extra.get("hidden"),
        "icon": c.extra.get("icon"),
    });
    if with_parent {
        value["parent"] = if c.parent_id == 0 {
            Value::Null
        } else {
            json!(c.parent_id)
        };
    }
    value
}

async fn categories(State(state): State<AppState>) -> Response {
    let cms = state.content();
    if state.categories == CategoryShape::Children {
        return error(StatusCode::NOT_FOUND, "Not found");
    }
    let list: Vec<Value> = cms.categories().iter().map(|c| category(c, true)).collect();
    Json(list).into_response()
}

/// The children of category `id` (0: the top level), without a parent field: the caller knows.
async fn children(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let cms = state.content();
    let Some(id) = parse_id(Some(&id)) else {
        return error(StatusCode::BAD_REQUEST, "id must be a number");
    };
    if id != 0 && cms.category(id).is_none() {
        return error(StatusCode::NOT_FOUND, "Category not found");
    }
    let mut list: Vec<&Category> = cms
        .categories()
        .iter()
        .filter(|c| c.parent_id == id)
        .collect();
    list.sort_by_key(|c| (c.sort, c.id));
    Json(
        list.into_iter()
            .map(|c| category(c, false))
            .collect::<Vec<_>>(),
    )
    .into_response()
}

/// `2026-11-12 09:30:00` (China time) as ISO 8601 with its offset.
fn iso(time: &str) -> String {
    format!("{}+08:00", time.replacen(' ', "T", 1))
}

/// Whether the article is the home page's lead story (`lead` in the content; false when unset).
fn lead(a: &Article) -> bool {
    a.extra
        .get("lead")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

fn item(a: &Article, with_body: bool) -> Value {
    let extra = |k: &str| a.extra.get(k).cloned().unwrap_or(Value::Null);
    let files = a.attachments_as("title", "href", "bytes");
    let cover = a
        .extra
        .get("cover")
        .map(|url| json!({ "url": url, "alt": a.title }));
    let mut value = json!({
        "id": a.id,
        "category": a.category_id,
        "title": a.title,
        "excerpt": extra("summary"),
        "cover": cover,
        "byline": extra("author"),
        "editor": extra("editor"),
        "source": extra("source"),
        "published_at": iso(&a.publish_time),
        "view_count": extra("views"),
        "video": extra("video"),
        "captions": extra("captions"),
        "featured": lead(a),
        "files": files,
    });
    if with_body {
        value["body"] = json!(a.content);
    }
    value
}

#[derive(Deserialize)]
struct ListQuery {
    category: Option<String>,
    offset: Option<String>,
    limit: Option<String>,
    /// A search (`/v2/search?q=`).
    q: Option<String>,
}

async fn articles(State(state): State<AppState>, Query(q): Query<ListQuery>) -> Response {
    let cms = state.content();
    let category = match q.category.as_deref() {
        None | Some("") => None,
        Some(raw) => match parse_id(Some(raw)) {
            Some(id) => Some(id),
            None => return error(StatusCode::BAD_REQUEST, "category must be a number"),
        },
    };
    let offset: usize = q
        .offset
        .as_deref()
        .and_then(|o| o.parse().ok())
        .unwrap_or(0);
    let limit: usize = q
        .limit
        .as_deref()
        .and_then(|l| l.parse().ok())
        .unwrap_or(10);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return error(StatusCode::BAD_REQUEST, "limit must be between 1 and 20");
    }
    let (total, articles) = cms.page_matching(category, q.q.as_deref(), offset, limit);
    let items: Vec<Value> = articles.into_iter().map(|a| item(a, false)).collect();
    Json(json!({
        "meta": { "total_count": total, "offset": offset, "limit": limit },
        "items": items,
    }))
    .into_response()
}

async fn article(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let cms = state.content();
    let Some(id) = parse_id(Some(&id)) else {
        return error(StatusCode::BAD_REQUEST, "id must be a number");
    };
    let Some(found) = cms.article(id) else {
        return error(StatusCode::NOT_FOUND, "Article not found");
    };
    let mut value = item(found, true);
    cms.link_neighbours(id, &mut value);
    Json(value).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_is_featured_and_captions_a_file_path() {
        let cms = crate::Content::load(&crate::default_content_dir()).unwrap();
        let mut featured = 0;
        for a in cms.articles_in(None) {
            let value = item(a, false);
            assert_eq!(value["featured"], json!(lead(a)), "{}", a.id);
            featured += usize::from(value["featured"] == json!(true));
            assert_eq!(
                value["captions"],
                a.extra.get("captions").cloned().unwrap_or(Value::Null)
            );
        }
        assert_eq!(featured, 1, "one lead story");
        let video = item(cms.article(1015).unwrap(), true);
        assert_eq!(video["video"], "videos/tongda-ouya.mp4");
        assert_eq!(video["captions"], "videos/tongda-ouya.zh.vtt");
        assert_eq!(
            item(cms.article(2301).unwrap(), false)["captions"],
            Value::Null
        );
    }
}
