use super::*;

fn bundled() -> Content {
    Content::load(&crate::default_content_dir()).expect("the bundled content loads")
}

#[test]
fn each_news_category_pages() {
    let content = bundled();
    for category in [21, 22, 23] {
        assert!(
            content.articles_in(Some(category)).len() >= 12,
            "{category}"
        );
    }
}

#[test]
fn every_page_category_has_its_article_and_files_exist() {
    let content = bundled();
    let dir = crate::default_content_dir();
    for category in &content.categories {
        let kind = category
            .extra
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("");
        if kind == "page" || kind == "list" {
            assert!(
                !content.articles_in(Some(category.id)).is_empty(),
                "{} is empty",
                category.url
            );
        }
    }
    for article in &content.articles {
        if let Some(cover) = article.extra.get("cover").and_then(Value::as_str) {
            assert!(dir.join("files").join(cover).is_file(), "missing {cover}");
        }
        if let Some(video) = article.extra.get("video").and_then(Value::as_str) {
            assert!(dir.join("files").join(video).is_file(), "missing {video}");
        }
        for attachment in article
            .extra
            .get("attachments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let url = attachment["url"].as_str().unwrap();
            let file = dir.join("files").join(url);
            assert!(file.is_file(), "missing {url}");
            assert_eq!(
                attachment["size"].as_u64(),
                Some(file.metadata().unwrap().len()),
                "{url} size"
            );
        }
        assert!(
            !article.content.is_empty(),
            "article {} has no body",
            article.id
        );
    }
}

#[test]
fn lists_are_newest_first_with_neighbours() {
    let content = bundled();
    let news = content.articles_in(Some(21));
    assert!(
        news.windows(2)
            .all(|w| w[0].publish_time >= w[1].publish_time)
    );
    let detail = content.detail(news[1].id).unwrap();
    assert_eq!(detail["prev"]["id"], news[0].id);
    assert_eq!(detail["next"]["id"], news[2].id);
}

#[test]
fn broken_content_is_refused() {
    let category = |id, parent| Category {
        id,
        parent_id: parent,
        name: "x".into(),
        url: "/x".into(),
        sort: 0,
        extra: Map::new(),
    };
    assert!(Content::new(vec![category(1, 0), category(1, 0)], vec![]).is_err());
    assert!(Content::new(vec![category(2, 7)], vec![]).is_err());
}
