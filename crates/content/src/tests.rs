use super::*;

#[test]
fn every_query_comes_back_from_its_key() {
    for query in [
        Query::Categories,
        Query::Parent { id: 21.into() },
        Query::Articles {
            category: Some(21.into()),
            page: 3,
            size: 20,
        },
        Query::Articles {
            category: None,
            page: 1,
            size: 10,
        },
        Query::Article { id: 2101.into() },
        Query::Search {
            keyword: "中欧 班列&".into(),
            section: None,
            from: None,
            to: None,
            page: 2,
            size: 10,
        },
        Query::Search {
            keyword: "长安号".into(),
            section: Some(2.into()),
            from: Some(20250101),
            to: Some(20251231),
            page: 1,
            size: 10,
        },
    ] {
        let key = query.key();
        assert_eq!(key.endpoint(), query.endpoint(), "{key}");
        assert_eq!(Query::of_key(key.as_str(), 50).unwrap(), query, "{key}");
    }
    assert!(Query::of_key("site", 50).is_err());
    assert!(Query::of_key("nothing?id=1", 50).is_err());
}

#[test]
fn tags_name_what_an_answer_shows() {
    let page: ArticlePage = serde_json::from_value(serde_json::json!({
        "content": [{"id": 7, "categoryId": 21, "title": "t"}],
        "totalElements": 1, "totalPages": 1, "page": 1, "size": 10
    }))
    .unwrap();
    let list = Query::Articles {
        category: Some(21.into()),
        page: 1,
        size: 10,
    };
    assert_eq!(
        list.tags(Some(&Content::Articles(Arc::new(page)))),
        ["category:21", "article:7"]
    );
    assert_eq!(list.tags(None), ["category:21"]);
    assert_eq!(Query::Parent { id: 3.into() }.tags(None), ["categories"]);
    assert_eq!(
        Query::Article { id: 9.into() }.not_found().to_string(),
        ApiError::NotFound("文章 9 不存在。".to_owned()).to_string()
    );
}
