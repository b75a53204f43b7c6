use super::*;

fn article(id: u64, category: u64, title: &str, summary: &str, time: &str) -> Article {
    serde_json::from_value(serde_json::json!({
        "id": id, "categoryId": category, "title": title, "summary": summary,
        "publishTime": time,
    }))
    .unwrap()
}

fn doc(a: Article, body: &str) -> Doc {
    let category = a.category_id.clone();
    Doc {
        article: a,
        body: body.to_owned(),
        // Category 21 and 22 sit under section 2.
        sections: vec![2.into(), category],
        fingerprint: 1,
        summary_indexed: true,
    }
}

fn engine() -> Engine {
    let engine = Engine::open(None, 15_000_000).unwrap();
    engine
        .put(vec![
            doc(
                article(
                    1,
                    21,
                    "中欧班列开行突破千列",
                    "陆港开行的班列再创新高。",
                    "2025-03-01 09:00:00",
                ),
                "今年以来，中欧班列累计开行一千列，通达欧洲十个国家。",
            ),
            doc(
                article(
                    2,
                    22,
                    "公司召开2024年度工作会议",
                    "总结全年工作。",
                    "2025-01-10 10:00:00",
                ),
                "会议回顾了2024年的经营成果。",
            ),
            doc(
                article(
                    3,
                    21,
                    "多式联运示范工程通过验收",
                    "海铁联运效率提升。",
                    "2024-06-01 08:00:00",
                ),
                "新开行的“长安号”回程班列满载而归，带回欧洲的汽车配件。",
            ),
            doc(
                article(
                    4,
                    22,
                    "安全生产月活动启动",
                    "全员参与。",
                    "2024-06-02 08:00:00",
                ),
                "活动期间将检查班列装载加固情况。",
            ),
            doc(
                article(
                    5,
                    31,
                    "ＡＢＣ物流园区签约",
                    "園區將於明年開業。",
                    "2023-05-05 08:00:00",
                ),
                "",
            ),
        ])
        .unwrap();
    engine.commit().unwrap();
    engine
}

pub(crate) fn ask(keyword: &str) -> Ask {
    Ask {
        keyword: keyword.to_owned(),
        section: None,
        from: None,
        to: None,
        page: 1,
        size: 10,
        fragment_chars: 60,
    }
}

fn ids(found: &Found) -> Vec<u64> {
    found
        .hits
        .iter()
        .map(|h| {
            h.article
                .id
                .as_number()
                .expect("the tests' ids are numbers")
        })
        .collect()
}

#[test]
fn part_of_a_word_finds_the_word() {
    let e = engine();
    // 班列 stands inside 中欧班列 and 回程班列.
    let found = e.search(&ask("班列")).unwrap();
    assert_eq!(found.total, 3, "{:?}", ids(&found));
    // 欧班: no dictionary's word, still where it is written.
    assert_eq!(ids(&e.search(&ask("欧班")).unwrap()), [1]);
    // 长安号 finds “长安号”, with its quotes.
    assert_eq!(ids(&e.search(&ask("长安号")).unwrap()), [3]);
    // Letters and digits next to Chinese.
    assert_eq!(ids(&e.search(&ask("公司召开2024")).unwrap()), [2]);
}

#[test]
fn titles_count_above_summaries_above_bodies_and_the_newer_wins_a_tie() {
    let e = engine();
    // 班列 in the title of 1 (and its summary and body), the body only of 3 and 4.
    let found = e.search(&ask("班列")).unwrap();
    assert_eq!(ids(&found)[0], 1);
    // 3 and 4 have 班列 once each in a body of about the same length: 4 is newer by a day.
    let rest = &ids(&found)[1..];
    assert!(
        rest.iter().position(|&i| i == 4) < rest.iter().position(|&i| i == 3),
        "{rest:?}"
    );
    // 联运: title of 3 above the summary of nobody else.
    assert_eq!(ids(&e.search(&ask("联运")).unwrap()), [3]);
}

#[test]
fn a_phrase_must_stand_together_and_words_apart_must_all_be_there() {
    let e = engine();
    // Quoted: only where the words stand as written.
    assert!(e.search(&ask("\"开行班列\"")).unwrap().hits.is_empty());
    // Unquoted, its words found apart are a match too, below the words as written.
    assert_eq!(ids(&e.search(&ask("开行班列")).unwrap())[0], 1);
    assert_eq!(ids(&e.search(&ask("“开行突破”")).unwrap()), [1]);
    // Two words with a space: both, anywhere.
    let both = ids(&e.search(&ask("班列 欧洲")).unwrap());
    let mut sorted = both.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [1, 3]);
    assert!(e.search(&ask("班列 会议")).unwrap().hits.is_empty());
}

#[test]
fn full_width_and_traditional_forms_find_the_same() {
    let e = engine();
    assert_eq!(ids(&e.search(&ask("abc物流")).unwrap()), [5]);
    assert_eq!(ids(&e.search(&ask("ＡＢＣ")).unwrap()), [5]);
    // Written traditional, searched simplified, and the other way round.
    assert_eq!(ids(&e.search(&ask("园区将于明年")).unwrap()), [5]);
    assert_eq!(ids(&e.search(&ask("中歐班列")).unwrap()), [1]);
}

#[test]
fn sections_and_dates_filter_and_the_counts_ignore_the_section() {
    let e = engine();
    let mut by_section = ask("班列");
    by_section.section = Some(22.into());
    let found = e.search(&by_section).unwrap();
    assert_eq!(ids(&found), [4]);
    assert_eq!(found.total, 1);
    // The counts are the choices: every category's hits.
    assert_eq!(found.per_category, [(21.into(), 2), (22.into(), 1)]);
    by_section.section = Some(2.into());
    assert_eq!(e.search(&by_section).unwrap().total, 3);
    let mut by_date = ask("班列");
    by_date.from = Some(20240602);
    by_date.to = Some(20251231);
    let mut found = ids(&e.search(&by_date).unwrap());
    found.sort_unstable();
    assert_eq!(found, [1, 4]);
}

#[test]
fn pages_follow_each_other_without_overlap() {
    let e = engine();
    let mut first = ask("班列");
    first.size = 2;
    let mut second = first.clone();
    second.page = 2;
    let (a, b) = (e.search(&first).unwrap(), e.search(&second).unwrap());
    assert_eq!((a.total, b.total), (3, 3));
    assert_eq!(a.hits.len(), 2);
    assert_eq!(b.hits.len(), 1);
    assert!(!ids(&a).contains(&ids(&b)[0]));
}

#[test]
fn matches_are_marked_in_the_title_and_a_fragment() {
    let e = engine();
    let found = e.search(&ask("长安号")).unwrap();
    let hit = &found.hits[0];
    let marked: Vec<&str> = hit
        .fragment
        .iter()
        .filter(|m| m.hit)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(marked, ["长安号"], "{:?}", hit.fragment);
    let whole: String = hit.fragment.iter().map(|m| m.text.as_str()).collect();
    assert!(whole.contains("“长安号”回程班列"), "{whole}");
    let found = e.search(&ask("中欧")).unwrap();
    let title = &found.hits[0].title;
    assert_eq!(
        title.iter().map(|m| m.text.as_str()).collect::<String>(),
        "中欧班列开行突破千列"
    );
    assert_eq!(
        title
            .iter()
            .filter(|m| m.hit)
            .map(|m| m.text.as_str())
            .collect::<Vec<_>>(),
        ["中欧"]
    );
    // A phrase's pairs are marked only where the whole phrase stands: 中欧 alone is no match of
    // 中欧班列 (article 1's body has 中欧班列; its title too).
    let found = e.search(&ask("中欧班列")).unwrap();
    let marks: Vec<&str> = found.hits[0]
        .title
        .iter()
        .chain(&found.hits[0].fragment)
        .filter(|m| m.hit)
        .map(|m| m.text.as_str())
        .collect();
    assert!(marks.iter().all(|m| *m == "中欧班列"), "{marks:?}");
    // Traditional text marked where the simplified words matched, as written.
    let found = e.search(&ask("园区")).unwrap();
    let summary: Vec<&str> = found.hits[0]
        .fragment
        .iter()
        .filter(|m| m.hit)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(summary, ["園區"]);
}

#[test]
fn an_article_put_again_replaces_itself_and_one_removed_is_gone() {
    let e = engine();
    e.put(vec![doc(
        article(
            1,
            21,
            "冷链班列首发",
            "首趟冷链班列。",
            "2025-09-02 09:00:00",
        ),
        "",
    )])
    .unwrap();
    e.remove(&[3.into()]);
    e.commit().unwrap();
    assert!(e.search(&ask("千列")).unwrap().hits.is_empty());
    assert_eq!(ids(&e.search(&ask("冷链")).unwrap()), [1]);
    assert!(e.search(&ask("长安号")).unwrap().hits.is_empty());
    assert_eq!(e.len(), 4);
    assert_eq!(e.held().len(), 4);
}

#[test]
fn words_that_are_no_words_find_nothing_and_never_fail() {
    let e = engine();
    for keyword in ["", "   ", "!!!", "“”", "\"", "*", "AND OR", "（）"] {
        let found = e.search(&ask(keyword)).unwrap();
        assert!(found.hits.is_empty() || keyword == "AND OR", "{keyword}");
    }
}

#[test]
fn an_index_on_disk_is_read_back() {
    let dir = tempfile::tempdir().unwrap();
    {
        let e = Engine::open(Some(dir.path()), 15_000_000).unwrap();
        e.put(vec![doc(
            article(9, 21, "班列", "", "2025-01-01 00:00:00"),
            "",
        )])
        .unwrap();
        e.commit().unwrap();
    }
    let e = Engine::open(Some(dir.path()), 15_000_000).unwrap();
    assert_eq!(e.held().keys().cloned().collect::<Vec<_>>(), [9]);
    assert_eq!(ids(&e.search(&ask("班列")).unwrap()), [9]);
}

#[test]
fn a_mark_holds_the_query_not_a_pair_of_it() {
    let text = "换装作业和换装站";
    let pair = 0.."换装".len();
    let start = "换装作业和".len();
    let whole = start..text.len();
    let marks = |needles: &[String]| -> Vec<String> {
        parts(text, &[pair.clone(), whole.clone()], 0..text.len(), needles)
            .into_iter()
            .filter(|m| m.hit)
            .map(|m| m.text)
            .collect()
    };
    // 换装站 is one word of the query (jieba's 换装 alone is no match): only it is marked.
    assert_eq!(needles("换装站"), ["换装站"]);
    assert_eq!(marks(&needles("换装站")), ["换装站"]);
    // Two words apart: each is a match.
    let apart = needles("换装作业");
    assert!(apart.len() > 1, "{apart:?}");
    // A pair alone is never marked.
    assert!(marks(&["集卡".to_owned()]).is_empty());
}

#[test]
fn a_fragment_shows_the_query_where_the_best_window_holds_only_its_pairs() {
    let e = Engine::open(None, 15_000_000).unwrap();
    let filler = "口岸换装作业繁忙，".repeat(30);
    e.put(vec![doc(
        article(7, 21, "冬季运输保障", "", "2025-12-01 09:00:00"),
        &format!("{filler}马拉舍维奇换装站增派人员。"),
    )])
    .unwrap();
    e.commit().unwrap();
    let found = e.search(&ask("换装站")).unwrap();
    let fragment = &found.hits[0].fragment;
    let marks: Vec<&str> = fragment
        .iter()
        .filter(|m| m.hit)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(marks, ["换装站"], "{fragment:?}");
    let whole: String = fragment.iter().map(|m| m.text.as_str()).collect();
    assert!(whole.contains("马拉舍维奇换装站增派人员"), "{whole}");
}
