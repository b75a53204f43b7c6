//! The `mybatis` dialect: a MyBatis-Plus / RuoYi-style CMS. Envelope `{"code":"0","message":…,
//! "data":…}` (the code a string), a credential refused with HTTP 200 and code "401", columns
//! nested under `children` with `pid` and `columnName`, pages as `records/total/current/size/
//! pages` asked for with `pageNum`/`pageSize` from 1, ids written as strings, times as
//! `yyyy-MM-dd HH:mm:ss`; the home page's lead story is `isLead` (a boolean on every row), a video's
//! WebVTT captions file `captionsUrl` (a path in the file store like `videoUrl`, or null).

use axum::{
    Json, Router,
    extract::{Path, Query, State},
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{AppState, content::Article, content::Category, parse_id};

/// Largest page this CMS serves.
const MAX_PAGE_SIZE: usize = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/cms/column/tree", get(columns))
        .route("/cms/article/page", get(page))
        .route("/cms/article/search", get(page))
        .route("/cms/article/{id}", get(detail))
        .fallback(|| async { fail("404", "请求地址不存在") })
}

fn ok(data: Value) -> Response {
    Json(json!({ "code": "0", "message": "操作成功", "data": data })).into_response()
}

fn fail(code: &str, message: &str) -> Response {
    Json(json!({ "code": code, "message": message })).into_response()
}

pub fn refused() -> Response {
    fail("401", "认证失败，无法访问系统资源")
}

fn column(all: &[Category], c: &Category) -> Value {
    let mut children: Vec<&Category> = all.iter().filter(|x| x.parent_id == c.id).collect();
    children.sort_by_key(|x| (x.sort, x.id));
    json!({
        "id": c.id.to_string(),
        "pid": c.parent_id.to_string(),
        "columnName": c.name,
        "url": c.url,
        "orderNum": c.sort,
        "type": c.extra.get("type"),
        "description": c.extra.get("description"),
        "hidden": c.extra.get("hidden"),
        "icon": c.extra.get("icon"),
        "children": children.into_iter().map(|x| column(all, x)).collect::<Vec<_>>(),
    })
}

async fn columns(State(state): State<AppState>) -> Response {
    let cms = state.content();
    let all = cms.categories();
    let mut top: Vec<&Category> = all.iter().filter(|c| c.parent_id == 0).collect();
    top.sort_by_key(|c| (c.sort, c.id));
    ok(Value::Array(
        top.into_iter().map(|c| column(all, c)).collect(),
    ))
}

fn row(a: &Article, with_body: bool) -> Value {
    let extra = |k: &str| a.extra.get(k).cloned().unwrap_or(Value::Null);
    let files = a.attachments_as("fileName", "fileUrl", "fileSize");
    let mut value = json!({
        "id": a.id.to_string(),
        "columnId": a.category_id.to_string(),
        "title": a.title,
        "brief": extra("summary"),
        "coverUrl": extra("cover"),
        "author": extra("author"),
        "editor": extra("editor"),
        "source": extra("source"),
        "publishTime": a.publish_time,
        "viewCount": extra("views"),
        "videoUrl": extra("video"),
        "captionsUrl": extra("captions"),
        "isLead": a.extra.get("lead").and_then(Value::as_bool).unwrap_or(false),
        "fileList": files,
    });
    if with_body {
        value["contentHtml"] = json!(a.content);
    }
    value
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PageQuery {
    column_id: Option<String>,
    page_num: Option<String>,
    page_size: Option<String>,
    keyword: Option<String>,
}

async fn page(State(state): State<AppState>, Query(q): Query<PageQuery>) -> Response {
    let cms = state.content();
    let column = match q.column_id.as_deref() {
        None | Some("") => None,
        Some(raw) => match parse_id(Some(raw)) {
            Some(id) => Some(id),
            None => return fail("500", "栏目编号格式不正确"),
        },
    };
    let current: usize = q
        .page_num
        .as_deref()
        .and_then(|p| p.parse().ok())
        .unwrap_or(1)
        .max(1);
    let size: usize = q
        .page_size
        .as_deref()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    if !(1..=MAX_PAGE_SIZE).contains(&size) {
        return fail("500", "每页条数超出范围");
    }
    let (total, articles) = cms.page_matching(
        column,
        q.keyword.as_deref(),
        (current - 1).saturating_mul(size),
        size,
    );
    let records: Vec<Value> = articles.into_iter().map(|a| row(a, false)).collect();
    ok(json!({
        "records": records,
        "total": total,
        "size": size,
        "current": current,
        "pages": total.div_ceil(size),
    }))
}

async fn detail(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let cms = state.content();
    let Some(id) = parse_id(Some(&id)) else {
        return fail("500", "文章编号格式不正确");
    };
    let Some(article) = cms.article(id) else {
        return fail("404", "文章不存在或已下线");
    };
    let mut value = row(article, true);
    cms.link_neighbours(id, &mut value);
    ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lead_is_is_lead_and_captions_a_file_path() {
        let cms = crate::Content::load(&crate::default_content_dir()).unwrap();
        let leads: Vec<Value> = cms
            .articles_in(None)
            .into_iter()
            .map(|a| row(a, false))
            .filter(|r| r["isLead"] == json!(true))
            .collect();
        assert_eq!(leads.len(), 1, "one lead story");
        assert_eq!(leads[0]["columnId"], "21");
        let lead_id: u64 = leads[0]["id"].as_str().unwrap().parse().unwrap();
        assert_eq!(cms.article(lead_id).unwrap().extra["lead"], json!(true));
        assert_eq!(
            row(cms.article(2301).unwrap(), false)["isLead"],
            json!(false)
        );
        let video = row(cms.article(1015).unwrap(), true);
        assert_eq!(video["videoUrl"], "videos/tongda-ouya.mp4");
        assert_eq!(video["captionsUrl"], "videos/tongda-ouya.zh.vtt");
        assert_eq!(
            row(cms.article(2301).unwrap(), false)["captionsUrl"],
            Value::Null
        );
    }
}
