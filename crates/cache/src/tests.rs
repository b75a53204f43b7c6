use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use bytes::Bytes;

use super::*;

/// The loader's error in these tests: only what the cache makes.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(super) enum TestError {
    #[error("timed out")]
    TimedOut,
    #[error("task failed")]
    TaskFailed,
    #[error("the visitor's share is taken")]
    ShareTaken,
}

impl LoadError for TestError {
    fn timed_out() -> Self {
        Self::TimedOut
    }
    fn task_failed() -> Self {
        Self::TaskFailed
    }
    fn charge_new_load() -> Result<(), Self> {
        Ok(())
    }
    fn is_upstream_failure(&self) -> bool {
        *self == Self::TimedOut
    }
    fn is_share_refusal(&self) -> bool {
        *self == Self::ShareTaken
    }
}

type Cache = ResponseCache<TestError>;
type Loaded = super::Loaded<TestError>;
type Lookup = super::Lookup<TestError>;

fn entry() -> Entry {
    Entry::new(
        StatusCode::OK,
        Bytes::from(format!(
            "{{\"code\":200,\"result\":\"{}\"}}",
            "陆港".repeat(200)
        )),
    )
}

fn accept(value: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(header::ACCEPT_ENCODING, value.parse().unwrap());
    h
}

#[tokio::test]
async fn encodings_follow_accept_encoding_with_their_own_length() {
    use std::io::Read;
    let e = entry();
    let original = e.body.bytes.clone();
    for (accept_encoding, expected) in [
        ("gzip, deflate, br", Some("br")),
        ("gzip", Some("gzip")),
        ("br;q=0, gzip", Some("gzip")),
        (" GZIP ;q=0.5 , br ; q=0", Some("gzip")),
        ("gzip;q=0, br;q=0.0", None),
        ("deflate, br;q=0.1", Some("br")),
        ("identity", None),
        ("", None),
    ] {
        let h = if accept_encoding.is_empty() {
            HeaderMap::new()
        } else {
            accept(accept_encoding)
        };
        let r = respond(
            &e,
            Outcome::Hit,
            &Wants::of(&h),
            Timing::fresh(Duration::from_secs(5)),
        );
        let encoding = r.headers().get(header::CONTENT_ENCODING).cloned();
        assert_eq!(
            encoding.as_ref().map(|v| v.to_str().unwrap()),
            expected,
            "{accept_encoding}"
        );
        let length: usize = r.headers()[header::CONTENT_LENGTH]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        let sent = axum::body::to_bytes(r.into_body(), usize::MAX)
            .await
            .unwrap();
        assert_eq!(length, sent.len(), "Content-Length of {expected:?}");
        let mut decoded = Vec::new();
        match expected {
            Some("br") => brotli::Decompressor::new(&sent[..], 4096)
                .read_to_end(&mut decoded)
                .unwrap(),
            Some(_) => flate2::read::GzDecoder::new(&sent[..])
                .read_to_end(&mut decoded)
                .unwrap(),
            None => std::io::Read::read_to_end(&mut &sent[..], &mut decoded).unwrap(),
        };
        assert_eq!(decoded, original, "{accept_encoding}");
    }
}

#[test]
fn small_bodies_are_not_compressed_and_etags_follow_content() {
    let small = Entry::new(StatusCode::OK, Bytes::from_static(b"{\"code\":200}"));
    assert!(small.gzip().is_none() && small.br.is_none());
    assert_eq!(entry().etag, entry().etag);
    assert_ne!(entry().etag, small.etag);
}

/// gzip is made on first demand, once, for the entry and every clone of it (moka's stored copy),
/// with the headers of a made encoding; a browser taking brotli never makes it.
#[test]
fn gzip_is_made_on_first_demand_once_for_every_copy() {
    let e = entry();
    let copy = e.clone();
    let ask = |entry: &Entry, accept: &str| {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(accept).unwrap(),
        );
        respond(entry, Outcome::Hit, &Wants::of(&h), Timing::default())
    };
    assert_eq!(
        ask(&e, "gzip, deflate, br").headers()[header::CONTENT_ENCODING],
        "br"
    );
    assert!(e.gzip_made().is_none(), "a browser's brotli makes no gzip");
    let answer = ask(&copy, "gzip");
    assert_eq!(answer.headers()[header::CONTENT_ENCODING], "gzip");
    let made = e
        .gzip_made()
        .expect("made for the copy, held by the original too");
    assert_eq!(
        answer.headers()[header::CONTENT_LENGTH],
        made.bytes.len().to_string().as_str()
    );
    assert!(std::ptr::eq(made, copy.gzip().unwrap()), "made once");
    assert!(e.encodings().iter().any(|(name, _)| *name == "gzip"));
}

#[test]
fn each_encoding_has_its_own_etag_and_any_of_them_revalidates() {
    let e = entry();
    let answer = |accept: Option<&str>, if_none_match: Option<&HeaderValue>| {
        let mut h = HeaderMap::new();
        if let Some(accept) = accept {
            h.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_str(accept).unwrap(),
            );
        }
        if let Some(tag) = if_none_match {
            h.insert(header::IF_NONE_MATCH, tag.clone());
        }
        respond(
            &e,
            Outcome::Hit,
            &Wants::of(&h),
            Timing::fresh(Duration::from_secs(5)),
        )
    };
    let plain = answer(None, None).headers()[header::ETAG].clone();
    let gzip = answer(Some("gzip"), None).headers()[header::ETAG].clone();
    let br = answer(Some("gzip, br"), None).headers()[header::ETAG].clone();
    assert_ne!(plain, gzip);
    assert_ne!(plain, br);
    assert_ne!(gzip, br);
    // A cache holding the gzip form asks again: 304, naming the form it would get now.
    let again = answer(Some("gzip"), Some(&gzip));
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()[header::ETAG], gzip);
    let switched = answer(Some("gzip, br"), Some(&gzip));
    assert_eq!(switched.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(switched.headers()[header::ETAG], br);
    let other = HeaderValue::from_static("\"0000000000000000-1-gzip\"");
    assert_eq!(answer(Some("gzip"), Some(&other)).status(), StatusCode::OK);
}

#[test]
fn a_matching_if_none_match_is_304() {
    let e = entry();
    let mut h = HeaderMap::new();
    h.insert(header::IF_NONE_MATCH, e.etag.clone());
    let r = respond(
        &e,
        Outcome::Hit,
        &Wants::of(&h),
        Timing::fresh(Duration::from_secs(5)),
    );
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(r.headers()["x-cache"], "HIT");
    assert_eq!(r.headers()[header::CACHE_CONTROL], "public, max-age=5");
}

fn policy(wait: Duration) -> Policy {
    Policy {
        ttl: Duration::from_secs(60),
        not_found_ttl: Duration::ZERO,
        stale_while_revalidate: Duration::ZERO,
        stale_if_error: Duration::ZERO,
        wait,
        class: super::Class {
            kind: super::Kind::Api(portal_core::endpoint::Endpoint::CategoryList),
            cache_name: "category/list",
        },
        memory_only: false,
        older_copy_after: None,
    }
}

#[tokio::test]
async fn waiters_give_up_after_their_wait_and_the_call_is_made_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cache = Cache::new(1 << 20, None);
    let calls = Arc::new(AtomicUsize::new(0));
    let hung = |calls: Arc<AtomicUsize>| {
        move || {
            calls.fetch_add(1, Ordering::SeqCst);
            std::future::pending::<Loaded>()
        }
    };
    let policy = policy(Duration::from_millis(50));
    let both = async {
        tokio::join!(
            cache.get_or_load("k", &policy, hung(calls.clone())),
            cache.get_or_load("k", &policy, hung(calls.clone())),
        )
    };
    // A bound far past the wait: this fails rather than hanging if a waiter never gives up.
    let (a, b) = tokio::time::timeout(Duration::from_secs(60), both)
        .await
        .expect("the waiters gave up");
    for lookup in [a, b] {
        assert!(matches!(lookup.result, Err(TestError::TimedOut)));
        assert_eq!(lookup.outcome, Outcome::Miss);
    }
    assert_eq!(calls.load(Ordering::SeqCst), 1, "one call for both waiters");
    assert_eq!(cache.entry_count(), 0, "nothing cached");
}

/// A load held until its test lets it end (a CMS answer slow to map or sanitise, without a
/// clock): it says when it has started, and ends when the gate opens.
#[derive(Clone)]
struct Hold {
    started: Arc<tokio::sync::Notify>,
    gate: tokio::sync::watch::Receiver<bool>,
}

impl Hold {
    fn new() -> (Self, tokio::sync::watch::Sender<bool>) {
        let (open, gate) = tokio::sync::watch::channel(false);
        let started = Arc::new(tokio::sync::Notify::new());
        (Self { started, gate }, open)
    }

    async fn until_opened(mut self) {
        self.started.notify_one();
        self.gate
            .wait_for(|open| *open)
            .await
            .expect("the gate's sender lives");
    }
}

#[tokio::test]
async fn a_load_that_outlives_its_first_waiter_serves_the_ones_after_it() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cache = Cache::new(1 << 20, None);
    let calls = Arc::new(AtomicUsize::new(0));
    let (hold, open) = Hold::new();
    let slow = |calls: Arc<AtomicUsize>| {
        let hold = hold.clone();
        move || {
            calls.fetch_add(1, Ordering::SeqCst);
            let hold = hold.clone();
            async move {
                hold.until_opened().await;
                Ok(Arc::new(Entry::new(
                    StatusCode::OK,
                    Bytes::from_static(b"{}"),
                )))
            }
        }
    };
    let short = policy(Duration::from_millis(20));
    let first = cache.get_or_load("k", &short, slow(calls.clone())).await;
    assert!(first.result.is_err(), "the first visitor's wait is over");
    // The next visitor, after the first gave up, waits on the same load.
    let second = cache.get_or_load("k", &short, slow(calls.clone())).await;
    assert!(second.result.is_err());
    // The load ends while the third waits (a wait long enough for any machine).
    let long = policy(Duration::from_secs(30));
    let (third, ()) = tokio::join!(cache.get_or_load("k", &long, slow(calls.clone())), async {
        open.send(true).expect("the load waits on the gate");
    });
    assert!(
        third.result.is_ok(),
        "the load ended within the third's wait"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1, "one load for all three");
    let fourth = cache.get_or_load("k", &short, slow(calls.clone())).await;
    assert_eq!(fourth.outcome, Outcome::Hit);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

/// A load that answers `body`, tagged `article:1`, counting its calls; held by `hold` if given.
fn tagged_load(
    calls: Arc<std::sync::atomic::AtomicUsize>,
    hold: Option<Hold>,
    body: &'static str,
) -> impl Fn() -> std::pin::Pin<Box<dyn Future<Output = Loaded> + Send>> + Send + Sync + 'static {
    move || {
        calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let hold = hold.clone();
        Box::pin(async move {
            if let Some(hold) = hold {
                hold.until_opened().await;
            }
            Ok(Arc::new(
                Entry::new(StatusCode::OK, Bytes::from_static(body.as_bytes()))
                    .tagged(vec!["article:1".to_owned()]),
            ))
        })
    }
}

/// A visitor whose load of `k` is under way (started, held) when this returns; it ends when the
/// returned gate opens.
async fn loading_until_opened(
    cache: &Arc<Cache>,
    policy: &Policy,
    calls: &Arc<std::sync::atomic::AtomicUsize>,
    body: &'static str,
) -> (
    tokio::task::JoinHandle<Lookup>,
    tokio::sync::watch::Sender<bool>,
) {
    let (hold, open) = Hold::new();
    let started = Arc::clone(&hold.started);
    let (cache, policy, calls) = (Arc::clone(cache), policy.clone(), Arc::clone(calls));
    let visitor = tokio::spawn(async move {
        cache
            .get_or_load("k", &policy, tagged_load(calls, Some(hold), body))
            .await
    });
    started.notified().await;
    (visitor, open)
}

fn article_purge(hard: bool) -> Purge {
    Purge {
        tags: vec!["article:1".to_owned()],
        hard,
        ..Purge::default()
    }
}

/// An edit's notice comes while a visitor's load of the page is under way: that load's answer
/// (from before the edit) goes to the visitor but is not kept, and the webhook's refresh does not
/// join it but loads afresh, so the next visitor sees the edit.
#[tokio::test]
async fn an_answer_loaded_across_a_purge_is_not_kept_and_a_refresh_loads_afresh() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cache = Cache::new(1 << 20, None);
    let calls = Arc::new(AtomicUsize::new(0));
    let policy = policy(Duration::from_secs(30));
    let (visitor, open) = loading_until_opened(&cache, &policy, &calls, "{\"t\":\"old\"}").await;
    // The edit's notice, then its refresh, while the visitor's load runs.
    cache
        .purge(&article_purge(false), PurgeOrigin::Webhook)
        .await;
    let refreshed = cache
        .refresh(
            "k",
            &policy,
            tagged_load(calls.clone(), None, "{\"t\":\"new\"}"),
        )
        .await
        .unwrap();
    assert_eq!(
        &refreshed.body.bytes[..],
        b"{\"t\":\"new\"}",
        "not the older load's"
    );
    open.send(true).unwrap();
    let seen = visitor.await.unwrap().result.unwrap();
    assert_eq!(
        &seen.body.bytes[..],
        b"{\"t\":\"old\"}",
        "the visitor has what was asked"
    );
    let next = cache
        .get_or_load(
            "k",
            &policy,
            tagged_load(calls.clone(), None, "{\"t\":\"other\"}"),
        )
        .await;
    assert_eq!(next.outcome, Outcome::Hit);
    assert_eq!(&next.result.unwrap().body.bytes[..], b"{\"t\":\"new\"}");
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

/// Without a refresh: a hard purge during the load leaves nothing kept, so the next visitor loads
/// again; a purge that does not reach the answer keeps it.
#[tokio::test]
async fn only_a_purge_that_reaches_the_answer_stops_it_being_kept() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    for (purge, kept) in [
        (article_purge(true), false),
        (article_purge(false), false),
        (
            Purge {
                tags: vec!["article:2".to_owned()],
                hard: true,
                ..Purge::default()
            },
            true,
        ),
        (
            Purge {
                evict: vec!["k".to_owned()],
                ..Purge::default()
            },
            false,
        ),
    ] {
        let cache = Cache::new(1 << 20, None);
        let calls = Arc::new(AtomicUsize::new(0));
        let policy = policy(Duration::from_secs(30));
        let (visitor, open) = loading_until_opened(&cache, &policy, &calls, "{}").await;
        cache.purge(&purge, PurgeOrigin::Admin).await;
        open.send(true).unwrap();
        assert!(visitor.await.unwrap().result.is_ok());
        let next = cache
            .get_or_load("k", &policy, tagged_load(calls.clone(), None, "{}"))
            .await;
        assert_eq!(next.outcome == Outcome::Hit, kept, "{purge:?}: kept {kept}");
        assert_eq!(
            calls.load(Ordering::SeqCst),
            if kept { 1 } else { 2 },
            "{purge:?}"
        );
    }
}

/// Past `PURGES_KEPT` purges during one load, which of them reached it is unknown: not kept.
#[test]
fn a_load_that_saw_more_purges_than_are_kept_keeps_nothing() {
    let mut log = PurgeLog::default();
    let e = entry().tagged(vec!["a".to_owned()]);
    for _ in 0..PURGES_KEPT + 1 {
        log.record(Arc::new(Purge {
            tags: vec!["b".to_owned()],
            ..Purge::default()
        }));
    }
    assert_eq!(log.reached_since(0, "k", &e), Some(true));
    assert_eq!(log.reached_since(2, "k", &e), None, "unrelated purges");
    assert_eq!(log.reached_since(log.count, "k", &e), None);
}

/// A page past its TTL and its stale-while-revalidate window, with an older copy still kept: a
/// new render that takes longer than `older_copy_after` leaves the visitor with the older copy at
/// that point (not at the load's end, nor its wait), and the render, going on, keeps the new page
/// for the next visitor.
#[tokio::test]
async fn past_its_budget_a_load_leaves_the_visitor_the_older_copy_and_keeps_its_own() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cache = Cache::new(1 << 20, None);
    let calls = Arc::new(AtomicUsize::new(0));
    let mut waiting = policy(Duration::from_secs(30));
    waiting.stale_if_error = Duration::from_secs(600);
    let budgeted = waiting
        .clone()
        .with_older_copy_after(Duration::from_millis(20));
    let first = cache
        .get_or_load("k", &budgeted, tagged_load(calls.clone(), None, "old"))
        .await;
    assert_eq!(first.outcome, Outcome::Miss);
    cache.clock().advance(Duration::from_secs(61));

    let (hold, open) = Hold::new();
    let started = Arc::clone(&hold.started);
    // A bound far past the budget, short of the wait: fails rather than waits for the load.
    let lookup = tokio::time::timeout(
        Duration::from_secs(10),
        cache.get_or_load(
            "k",
            &budgeted,
            tagged_load(calls.clone(), Some(hold), "new"),
        ),
    )
    .await
    .expect("the visitor was not kept waiting for the load");
    assert_eq!(lookup.outcome, Outcome::Stale);
    assert_eq!(&lookup.result.unwrap().body.bytes[..], b"old");
    started.notified().await;

    // The load goes on: a visitor without a budget joins it, and it keeps its page.
    let (joined, ()) = tokio::join!(
        cache.get_or_load("k", &waiting, tagged_load(calls.clone(), None, "other")),
        async { open.send(true).expect("the load waits on the gate") },
    );
    assert_eq!(&joined.result.unwrap().body.bytes[..], b"new");
    let next = cache
        .get_or_load("k", &budgeted, tagged_load(calls.clone(), None, "other"))
        .await;
    assert_eq!(next.outcome, Outcome::Hit);
    assert_eq!(&next.result.unwrap().body.bytes[..], b"new");
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "the first load and the held one"
    );
}

/// Past its TTL and its stale-while-revalidate window, within `stale_if_error`: a load the
/// visitor's share refuses (their CMS calls or renders taken) leaves them the older copy, as a
/// failing CMS does; past `stale_if_error`, the refusal itself.
#[tokio::test]
async fn a_load_the_visitors_share_refuses_leaves_them_the_older_copy() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cache = Cache::new(1 << 20, None);
    let calls = Arc::new(AtomicUsize::new(0));
    let mut kept = policy(Duration::from_secs(30));
    kept.stale_if_error = Duration::from_secs(600);
    let first = cache
        .get_or_load("k", &kept, tagged_load(calls.clone(), None, "old"))
        .await;
    assert_eq!(first.outcome, Outcome::Miss);
    let refused = || async { Err::<Arc<Entry>, _>(TestError::ShareTaken) };
    cache.clock().advance(Duration::from_secs(61));
    let lookup = cache.get_or_load("k", &kept, refused).await;
    assert_eq!(lookup.outcome, Outcome::Stale);
    assert_eq!(&lookup.result.unwrap().body.bytes[..], b"old");
    cache.clock().advance(Duration::from_secs(600));
    let lookup = cache.get_or_load("k", &kept, refused).await;
    assert_eq!(lookup.result.unwrap_err(), TestError::ShareTaken);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}
