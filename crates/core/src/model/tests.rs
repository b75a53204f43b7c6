use super::*;
use serde_json::json;

/// A tree as the CMS adapter builds it: 31 sits at the top level of the list but names parent 1.
fn tree() -> CategoryTree {
    serde_json::from_value(json!({"content": [
        {"id": 1, "parentId": 0, "name": "走进我们", "url": "/about", "sort": 1, "subCategory": []},
        {"id": 2, "parentId": 0, "name": "新闻中心", "url": "/news_center", "sort": 2, "subCategory": [
            {"id": 21, "parentId": 2, "name": "公司要闻", "url": "/news_center/company_announcement/1", "sort": 1, "type": "list"},
        ]},
        {"id": 31, "parentId": 1, "name": "公司简介", "url": "/about/company_profile", "sort": 1},
    ]}))
    .unwrap()
}

#[test]
fn parent_is_found_nested_or_flat() {
    let tree = tree();
    assert_eq!(tree.parent_of(&Id::number(21)).unwrap().unwrap().id, 2);
    assert_eq!(tree.parent_of(&Id::number(31)).unwrap().unwrap().id, 1);
    assert!(tree.parent_of(&Id::number(2)).unwrap().is_none());
    assert!(tree.parent_of(&Id::number(999)).is_none());
    assert!(
        tree.parent_of(&Id::number(21))
            .unwrap()
            .unwrap()
            .sub_category
            .is_empty()
    );
}

#[test]
fn trails_lead_from_the_top() {
    let tree = tree();
    let names = |t: Vec<&Category>| {
        t.iter()
            .map(|c| c.id.as_number().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(tree.trail_to_id(&Id::number(21)).unwrap()), [2, 21]);
    assert_eq!(
        names(
            tree.trail_to_url("/news_center/company_announcement/1")
                .unwrap()
        ),
        [2, 21]
    );
    assert!(tree.trail_to_url("/nowhere").is_none());
    assert_eq!(tree.flatten().len(), 4);
    assert!(tree.content[1].sub_category[0].is_list() && tree.content[1].is_group());
}

#[test]
fn content_keeps_its_kind_through_the_shared_tier() {
    let value = Content::Categories(std::sync::Arc::new(tree()));
    let stored = serde_json::to_vec(&value).unwrap();
    assert_eq!(serde_json::from_slice::<Content>(&stored).unwrap(), value);
    let parent = Content::Parent(None);
    let stored = serde_json::to_vec(&parent).unwrap();
    assert_eq!(serde_json::from_slice::<Content>(&stored).unwrap(), parent);
}

#[test]
fn dates_in_every_form_a_face_needs() {
    let article: Article = serde_json::from_value(json!({
        "id": 7, "categoryId": 21, "title": "t", "publishTime": "2026-03-01 08:30:00",
        "prev": {"id": 8, "title": "newer"}
    }))
    .unwrap();
    assert_eq!(article.date(), "2026-03-01");
    assert_eq!(article.iso_time().unwrap(), "2026-03-01T08:30:00+08:00");
    assert_eq!(article.rfc2822().unwrap(), "Sun, 1 Mar 2026 08:30:00 +0800");
    assert_eq!(
        article.neighbour_ids().cloned().collect::<Vec<_>>(),
        [Id::number(8)]
    );
}
