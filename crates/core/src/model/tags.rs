//! The tags cached answers carry, named once: the handlers tag what they store, the purge and
//! the webhook purge by them, so an edit in the CMS reaches every answer that shows it.

use super::Id;

/// Answers that show article `id`: its detail, the list pages it is on, its neighbours' details
/// (their previous/next links carry its title).
pub fn article(id: &Id) -> String {
    format!("article:{id}")
}

/// The list pages of category `id`.
pub fn category(id: &Id) -> String {
    format!("category:{id}")
}

/// The category tree and the parent look-ups made from it.
pub const CATEGORIES: &str = "categories";

/// The list pages of every category together (no `categoryId`).
pub const ALL_ARTICLES: &str = "articles";

/// The answers of the gateway's own search index: dropped whenever the index changes.
pub const SEARCH_INDEX: &str = "search-index";

/// Whether `tag` is one of the forms above (what the purge endpoint accepts).
pub fn is_valid(tag: &str) -> bool {
    let id = |rest: &str| Id::check(rest).is_ok();
    tag == CATEGORIES
        || tag == ALL_ARTICLES
        || tag == SEARCH_INDEX
        || tag.strip_prefix("article:").is_some_and(id)
        || tag.strip_prefix("category:").is_some_and(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_known_forms_are_tags() {
        for good in [
            "article:2101",
            "article:zx8k2m9q4w7e1r5t3y6u0i2o",
            "category:21",
            "category:news-center",
            "categories",
            "articles",
            "search-index",
        ] {
            assert!(is_valid(good), "{good}");
        }
        for bad in [
            "article:",
            "article:a/b",
            "category:a b",
            "user:1",
            "",
            "article:2101 ",
        ] {
            assert!(!is_valid(bad), "{bad}");
        }
    }
}
