//! What each page read when it was last rendered (`reads` in the server bundle's answer), so that
//! its next render is given all of it at once: one call of the render pool, where a page met for
//! the first time takes a round of asking per level of what it reads (the tree, then a list found
//! in it, then an article's related list: 2.9 calls a page in `make bench` scene 6 before this).
//!
//! A hint, never a truth: the bundle's loader still decides what the page reads. A page whose
//! reads changed (an article moved to another section) asks for the rest as `{needs}`, and an
//! answer given that it no longer reads is ignored by the render and counts for nothing in the
//! page (its tags, whether it may be kept, its status: `Answers::of`). Keyed by the build and the
//! page's address: another build's app may read other URLs.

use std::sync::Arc;

use portal_core::endpoint::Endpoint;

/// Bytes of addresses and URLs remembered: a page's entry is a few hundred bytes, so some ten
/// thousand pages (a large site's every page) fit.
const MAX_BYTES: u64 = 4 * 1024 * 1024;
/// URLs remembered for one page: what a page may ask for in its rounds together.
const MAX_READS: usize = 32;
/// The longest URL remembered (an API URL with a search keyword is well under it).
const MAX_URL: usize = 2048;

/// The reads of pages recently rendered, by build and address; bounded in bytes, the least used
/// going first. Cheap to clone (a handle).
#[derive(Clone)]
pub struct PageReads(moka::sync::Cache<String, Arc<[String]>>);

impl Default for PageReads {
    fn default() -> Self {
        Self(
            moka::sync::Cache::builder()
                .weigher(|page: &String, reads: &Arc<[String]>| {
                    let bytes = page.len() + reads.iter().map(|r| r.len() + 24).sum::<usize>();
                    u32::try_from(bytes + 64).unwrap_or(u32::MAX)
                })
                .max_capacity(MAX_BYTES)
                .build(),
        )
    }
}

impl PageReads {
    /// What the page at `url` of `build` read when last rendered.
    pub fn of(&self, build: u64, url: &str) -> Option<Arc<[String]>> {
        self.0.get(&Self::key(build, url))
    }

    /// Remembers what the page read; a list that is not a page's (too many, or URLs of no
    /// endpoint of the API's table) is not kept.
    pub fn remember(&self, build: u64, url: &str, reads: &[String]) {
        let sound = reads.len() <= MAX_READS
            && reads.iter().all(|r| {
                let path = r.split_once('?').map_or(r.as_str(), |(path, _)| path);
                r.len() <= MAX_URL && Endpoint::of_path(path).is_some()
            });
        if !sound {
            return;
        }
        let key = Self::key(build, url);
        if self.0.get(&key).is_some_and(|known| *known == *reads) {
            return;
        }
        self.0.insert(key, reads.into());
    }

    fn key(build: u64, url: &str) -> String {
        format!("{build:016x}{url}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_a_pages_reads_by_build_and_address_and_refuses_what_no_page_reads() {
        let reads = PageReads::default();
        let article = [
            "/portal/api/site".to_owned(),
            "/portal/api/article/detail?id=2101".to_owned(),
        ];
        reads.remember(1, "/portal/article/2101", &article);
        assert_eq!(
            reads.of(1, "/portal/article/2101").as_deref(),
            Some(&article[..])
        );
        assert!(
            reads.of(2, "/portal/article/2101").is_none(),
            "another build"
        );
        assert!(reads.of(1, "/portal/article/2102").is_none());

        reads.remember(1, "/portal/", &["/elsewhere".to_owned()]);
        reads.remember(
            1,
            "/portal/contact",
            &["/portal/api/no/such/endpoint".to_owned()],
        );
        assert!(reads.of(1, "/portal/contact").is_none());
        let many: Vec<String> = (0..=MAX_READS)
            .map(|i| format!("/portal/api/article/detail?id={i}"))
            .collect();
        reads.remember(1, "/portal/search", &many);
        assert!(reads.of(1, "/portal/").is_none());
        assert!(reads.of(1, "/portal/search").is_none());
    }
}
