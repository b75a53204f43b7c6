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

/// A demo deep enough to judge (issue 34): every list reaches a third page (ten a page), 公司要闻
/// holds forty stories over two years, and no picture stands for more than two articles.
#[test]
fn the_demo_is_deep_enough_to_judge() {
    let content = bundled();
    for category in &content.categories {
        if category.extra.get("type").and_then(Value::as_str) == Some("list") {
            let n = content.articles_in(Some(category.id)).len();
            assert!(n > 20, "{} has {n} articles: no third page", category.url);
        }
    }
    let news = content.articles_in(Some(21));
    assert!(news.len() >= 40, "公司要闻 has {}", news.len());
    let (newest, oldest) = (&news[0].publish_time, &news[news.len() - 1].publish_time);
    let year = |t: &str| t[..4].parse::<u32>().unwrap() * 12 + t[5..7].parse::<u32>().unwrap();
    assert!(
        year(newest) - year(oldest) >= 22,
        "公司要闻 spans {oldest} to {newest}"
    );

    // Each picture (a cover or an image in a body) and the articles that show it.
    let mut uses: HashMap<String, Vec<u64>> = HashMap::new();
    for article in &content.articles {
        let mut pictures: Vec<String> = article
            .content
            .split("src=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_owned)
            .collect();
        pictures.extend(
            article
                .extra
                .get("cover")
                .and_then(Value::as_str)
                .map(str::to_owned),
        );
        pictures.sort();
        pictures.dedup();
        for picture in pictures.into_iter().filter(|p| !p.starts_with("videos/")) {
            uses.entry(picture).or_default().push(article.id);
        }
    }
    let dir = crate::default_content_dir().join("files");
    for (picture, articles) in &uses {
        assert!(
            dir.join(picture).is_file(),
            "{picture} ({articles:?}) is no file"
        );
        assert!(articles.len() <= 2, "{picture} is shown by {articles:?}");
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
        for field in ["video", "captions"] {
            if let Some(file) = article.extra.get(field).and_then(Value::as_str) {
                assert!(dir.join("files").join(file).is_file(), "missing {file}");
            }
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

#[test]
fn native_passes_lead_and_captions_through() {
    let content = bundled();
    let leads: Vec<&Article> = content
        .articles_in(None)
        .into_iter()
        .filter(|a| a.extra.get("lead") == Some(&json!(true)))
        .collect();
    assert_eq!(leads.len(), 1, "one lead story");
    assert_eq!(leads[0].category_id, 21, "the lead is a 公司要闻 story");
    assert!(leads[0].extra.contains_key("cover"), "the lead has a cover");
    assert_eq!(leads[0].summary()["lead"], true, "lists carry the flag");
    assert_eq!(content.detail(leads[0].id).unwrap()["lead"], true);
    let video = content.detail(1015).unwrap();
    assert_eq!(video["captions"], "videos/tongda-ouya.zh.vtt");
    let dir = crate::default_content_dir().join("files");
    let vtt = std::fs::read_to_string(dir.join("videos/tongda-ouya.zh.vtt")).unwrap();
    assert!(vtt.starts_with("WEBVTT"), "a WebVTT file");
}

/// The demo speaks to visitors, not to technicians: no article tells them a file's format (the
/// review found the video's page explaining "WebM格式…WebVTT", words a reader does not need).
#[test]
fn no_article_tells_visitors_file_formats() {
    let content = bundled();
    for article in content.articles_in(None) {
        let detail = content.detail(article.id).unwrap();
        let text = detail["content"].as_str().unwrap_or_default();
        for format in ["WebM", "WebVTT", "MP4", "H.264"] {
            assert!(
                !text.contains(format),
                "article {} ({}) tells visitors about {format}",
                article.id,
                detail["title"]
            );
        }
    }
}
