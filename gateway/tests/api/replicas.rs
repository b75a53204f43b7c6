//! Several replicas, one cache: three gateways sharing a real `redis-server` on loopback in front
//! of one counting reference-cms. One CMS call per key across replicas, purges and the CMS's
//! webhook reaching every replica, a new replica served from the shared tier while the CMS is
//! down, and every replica going on alone while Redis is down.

use std::{
    net::SocketAddr,
    process::{Child, Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::{extract::Request, middleware::Next, response::Response};
use futures_util::future::join_all;
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::helpers::*;

const WEBHOOK_SECRET: &str = "webhook-secret-0123456789";
const ADMIN_TOKEN: &str = "admin-token-0123456789";

/// A `redis-server` on a free loopback port, without persistence; killed when dropped.
pub(crate) struct Redis {
    port: u16,
    child: Child,
}

impl Redis {
    fn start_on(port: u16) -> Self {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--protected-mode", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server runs (Debian's redis-server package; `make test` installs it)");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "redis-server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Self { port, child }
    }

    pub(crate) fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Self::start_on(port)
    }

    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// One command in Redis's inline form (words without spaces), its one-line answer.
    fn command(&self, words: &str) -> String {
        use std::io::{BufRead, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.write_all(format!("{words}\r\n").as_bytes()).unwrap();
        let mut line = String::new();
        std::io::BufReader::new(stream)
            .read_line(&mut line)
            .unwrap();
        line.trim_end().to_owned()
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// reference-cms counting the API calls that reach it (files aside).
struct CountingCms {
    addr: SocketAddr,
    calls: Arc<AtomicUsize>,
}

impl CountingCms {
    async fn start(webhook_to: Option<SocketAddr>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        Self::start_on(listener, webhook_to).await
    }

    async fn start_on(listener: TcpListener, webhook_to: Option<SocketAddr>) -> Self {
        let addr = listener.local_addr().unwrap();
        let mut settings = reference_cms::Settings::from_env();
        settings.content_dir = reference_cms::default_content_dir();
        settings.client_id = CLIENT_ID.to_owned();
        settings.client_secret = CLIENT_SECRET.to_owned();
        settings.delay = Duration::from_millis(50);
        settings.webhook = webhook_to.map(|gateway| reference_cms::Webhook {
            url: format!("http://{gateway}/portal/admin/webhook"),
            secret: WEBHOOK_SECRET.to_owned(),
        });
        let content = reference_cms::Content::load(&settings.content_dir).unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&calls);
        let app = reference_cms::router(&settings, content).layer(axum::middleware::from_fn(
            move |request: Request, next: Next| {
                let counter = Arc::clone(&counter);
                async move {
                    if !request.uri().path().starts_with("/admin/") {
                        counter.fetch_add(1, Ordering::SeqCst);
                    }
                    let response: Response = next.run(request).await;
                    response
                }
            },
        ));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { addr, calls }
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    /// An editor changes an article's title through the CMS's admin call.
    async fn retitle(&self, id: u64, title: &str) -> Value {
        crate::helpers::client()
            .put(format!("http://{}/admin/articles/{id}", self.addr))
            .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
            .json(&json!({ "title": title }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }
}

/// A gateway sharing `redis` (long TTLs: only purges and webhooks change what it serves).
async fn replica(cms: SocketAddr, redis: String) -> TestApp {
    replica_of_build(cms, redis, &static_dir()).await
}

/// A replica serving the app build in `build`.
async fn replica_of_build(cms: SocketAddr, redis: String, build: &std::path::Path) -> TestApp {
    let app = spawn_app(replica_config(cms, redis, build)).await;
    wait_for_shared(&app, "up").await;
    app
}

fn replica_config(cms: SocketAddr, redis: String, build: &std::path::Path) -> portal_web::Config {
    config_for(&format!("http://{cms}/"), build, |c| {
        for endpoint in ["article/list", "article/detail", "category/list"] {
            set_ttl(c, endpoint, Duration::from_secs(600));
        }
        let shared = &mut c.cache.shared;
        shared.url = Some(redis.into());
        shared.timeout = Duration::from_millis(200);
        shared.prefix = "test:".to_owned();
        open_limits(c);
        c.admin.token = Some(ADMIN_TOKEN.into());
        c.admin.webhook_secret = Some(WEBHOOK_SECRET.into());
    })
}

pub(crate) async fn wait_for_shared(app: &TestApp, state: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (_, body) = app.get_json("/readyz").await;
        if body["result"]["sharedCache"] == state {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "shared cache never {state}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Status, `X-Cache` and envelope of a GET.
async fn fetch(app: &TestApp, path: &str) -> (u16, String, Value) {
    let response = app.get(path).await;
    let status = response.status().as_u16();
    let cache = response
        .headers()
        .get("x-cache")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, cache, response.json().await.unwrap())
}

/// `path` on `app` once `shows` holds of its body: the webhook answers when this replica has the
/// new entries, the others hear of them on the purge channel a moment later (asynchronously, as
/// Redis delivers). Until then a visitor there sees the old entry, never an error.
async fn once_heard(app: &TestApp, path: &str, shows: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (status, _, body) = fetch(app, path).await;
        assert_eq!(status, 200, "{body}");
        if shows(&body) {
            return body;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{path} never showed the change: {body}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The first article of category 21's first page: (id, list path, detail path).
async fn an_article(app: &TestApp) -> (u64, String, String) {
    let list = "/portal/api/article/list?categoryId=21&page=1&size=10".to_owned();
    let (_, _, body) = fetch(app, &list).await;
    let id = body["result"]["content"][0]["id"].as_u64().unwrap();
    (id, list, format!("/portal/api/article/detail?id={id}"))
}

/// A replica whose Redis commands may take as long as a starved test machine makes them: the
/// tests of coordination are not about a slow Redis (the stalled-Redis test is).
async fn patient_replica(cms: SocketAddr, redis: String) -> TestApp {
    let mut config = replica_config(cms, redis, &static_dir());
    config.cache.shared.timeout = Duration::from_secs(5);
    let app = spawn_app(config).await;
    wait_for_shared(&app, "up").await;
    app
}

/// The value of the counter `name` with `label` in `app`'s `/metrics` (0 when absent).
async fn counter(app: &TestApp, name: &str, label: &str) -> f64 {
    let text = app.get("/metrics").await.text().await.unwrap();
    text.lines()
        .find(|line| line.starts_with(name) && line.contains(label))
        .and_then(|line| line.rsplit(' ').next()?.parse().ok())
        .unwrap_or(0.0)
}

#[tokio::test]
async fn a_cold_key_costs_one_cms_call_across_three_replicas() {
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let replicas = join_all((0..3).map(|_| patient_replica(cms.addr, redis.url()))).await;
    let answered_before = counter(
        &replicas[0],
        "portal_shared_cache_lock_waits_total",
        "answered",
    )
    .await;
    // Ten cold keys in turn, each asked 100 times at once of every replica.
    for category in 21..=25 {
        for page in 1..=2 {
            let before = cms.calls();
            let path =
                format!("/portal/api/article/list?categoryId={category}&page={page}&size=10");
            let requests = replicas
                .iter()
                .flat_map(|app| (0..100).map(|_| fetch(app, &path)));
            let answers = join_all(requests).await;
            assert!(
                answers.iter().all(|(status, _, _)| *status == 200),
                "{path}"
            );
            assert_eq!(
                cms.calls() - before,
                1,
                "{path}: 3 × 100 concurrent cold requests make one CMS call"
            );
        }
    }
    // The waits are counted (the metrics are the test process's, shared by every test's gateways,
    // so this counts from before the loads: others only add). That no replica gave up waiting and
    // called the CMS itself is the one call per key above: a count of `gave_up` here also counted
    // another test's replica that waits out a dead lock, whenever the two ran at once.
    assert!(
        counter(
            &replicas[0],
            "portal_shared_cache_lock_waits_total",
            "answered"
        )
        .await
            >= answered_before + 2.0,
        "the others waited for it"
    );
    let path = "/portal/api/article/list?categoryId=22&page=1&size=10";
    // Every replica gives the same bytes (same ETag) for it.
    let etags: Vec<String> = join_all(replicas.iter().map(|app| app.get(path)))
        .await
        .iter()
        .map(|r| r.headers()["etag"].to_str().unwrap().to_owned())
        .collect();
    assert!(etags.windows(2).all(|w| w[0] == w[1]), "{etags:?}");
}

/// The moment the test above can only sometimes catch: one replica has looked in Redis and found
/// nothing; before it takes the lock, another stores its answer and lets the lock go. The lock
/// taken then must find that answer, not call the CMS a second time.
#[tokio::test]
async fn a_lock_taken_just_after_another_replica_stored_the_key_finds_its_answer() {
    use portal_cache::{Class, Coordinated, Entry, Kind, Policy, SharedTier};
    let redis = Redis::start();
    let config = portal_web::config::SharedCacheConfig {
        url: Some(redis.url().into()),
        timeout: Duration::from_secs(5),
        prefix: "race:".to_owned(),
        signing_key: None,
    };
    let replica = || portal_content::Cache::new(1 << 20, SharedTier::new(&config).unwrap());
    let (a, b) = (replica(), replica());
    for cache in [&a, &b] {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !cache.shared().unwrap().is_up() {
            assert!(std::time::Instant::now() < deadline, "the tier came up");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let policy = Policy {
        ttl: Duration::from_secs(60),
        not_found_ttl: Duration::from_secs(5),
        stale_while_revalidate: Duration::ZERO,
        stale_if_error: Duration::ZERO,
        wait: Duration::from_secs(2),
        class: Class {
            kind: Kind::Api(portal_core::endpoint::Endpoint::CategoryList),
            cache_name: "category/list",
        },
        memory_only: false,
        older_copy_after: None,
    };
    let key = "category/list";
    // B looks first, and finds nothing.
    assert!(b.shared().unwrap().get(key).await.is_none());
    // A loads the key: it stores the answer in Redis and lets its lock go.
    let loaded = a
        .get_or_load(key, &policy, || async {
            Ok(Arc::new(Entry::new(
                axum::http::StatusCode::OK,
                bytes::Bytes::from_static(b"{\"code\":200,\"result\":[]}"),
            )))
        })
        .await;
    assert!(loaded.result.is_ok());
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while b.shared().unwrap().get(key).await.is_none() {
        assert!(std::time::Instant::now() < deadline, "A stored it");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A's lock is gone too (it is let go after the answer is stored).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while redis.command(&format!("EXISTS race:l:{key}")) != ":0" {
        assert!(std::time::Instant::now() < deadline, "A let its lock go");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Now B, which looked before, takes the lock.
    match b.shared().unwrap().coordinate(key, &policy, true).await {
        Coordinated::Found(entry) => {
            assert_eq!(&entry.body.bytes[..], b"{\"code\":200,\"result\":[]}")
        }
        Coordinated::Load => panic!("B took the lock and would call the CMS again"),
        Coordinated::Alone => panic!("the tier is up"),
    }
}

/// A replica that dies holding a key's lock: the others wait out the upstream time-out, then call
/// the CMS themselves, and say so (`portal_shared_cache_lock_waits_total{outcome="gave_up"}`).
#[tokio::test]
async fn a_replica_that_waits_out_a_dead_replicas_lock_calls_the_cms_and_says_so() {
    use portal_cache::{Class, Coordinated, Kind, Policy, SharedTier};
    let redis = Redis::start();
    let config = portal_web::config::SharedCacheConfig {
        url: Some(redis.url().into()),
        timeout: Duration::from_secs(5),
        prefix: "dead:".to_owned(),
        signing_key: None,
    };
    let cache = portal_content::Cache::new(1 << 20, SharedTier::new(&config).unwrap());
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !cache.shared().unwrap().is_up() {
        assert!(std::time::Instant::now() < deadline, "the tier came up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The lock of a replica that is gone, for longer than anyone waits.
    assert_eq!(
        redis.command("SET dead:l:category/list gone PX 60000"),
        "+OK"
    );
    let policy = Policy {
        ttl: Duration::from_secs(60),
        not_found_ttl: Duration::from_secs(5),
        stale_while_revalidate: Duration::ZERO,
        stale_if_error: Duration::ZERO,
        wait: Duration::from_millis(300),
        class: Class {
            kind: Kind::Api(portal_core::endpoint::Endpoint::CategoryList),
            cache_name: "category/list",
        },
        memory_only: false,
        older_copy_after: None,
    };
    let gave_up = || portal_core::metrics::handle().render();
    let count = |text: String| {
        text.lines()
            .find(|l| {
                l.starts_with("portal_shared_cache_lock_waits_total") && l.contains("gave_up")
            })
            .and_then(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let before = count(gave_up());
    let started = std::time::Instant::now();
    match cache
        .shared()
        .unwrap()
        .coordinate("category/list", &policy, true)
        .await
    {
        Coordinated::Alone => {}
        Coordinated::Load => panic!("the lock is held"),
        Coordinated::Found(_) => panic!("nothing is stored"),
    }
    assert!(started.elapsed() >= policy.wait, "it waited the whole time");
    assert!(
        count(gave_up()) >= before + 1.0,
        "the wait that ran out is counted"
    );
}

/// A rolling update: replicas of two app builds share one Redis. A rendered page names its build's
/// fingerprinted scripts, so a page one build stored must not be served by the other (its scripts
/// would be 404s there): each build renders and keeps its own.
#[tokio::test]
async fn replicas_of_two_builds_each_serve_pages_naming_their_own_scripts() {
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let real = app_build_dir();
    let index = std::fs::read_to_string(real.join("index.html")).unwrap();
    let main = between(&index, "src=\"/portal/assets/main.", "\"")
        .map(|rest| format!("/portal/assets/main.{rest}"))
        .expect("the build's main script");
    let build = |name: &str, hash: &str| {
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::create_dir_all(dir.join("server")).unwrap();
        let own = index.replace(&main, &format!("/portal/assets/main.{hash}.js"));
        assert_ne!(own, index);
        std::fs::write(dir.join("index.html"), own).unwrap();
        std::fs::copy(real.join("server/render.js"), dir.join("server/render.js")).unwrap();
        dir
    };
    let replica = |build: std::path::PathBuf| {
        let mut config = replica_config(cms.addr, redis.url(), &build);
        config.render.timeout = Duration::from_secs(5);
        config.upstream.timeout = Duration::from_secs(5);
        async move {
            let app = spawn_app(config).await;
            wait_for_shared(&app, "up").await;
            app
        }
    };
    let old = replica(build("build-old", "aaaaaaaaaaaa")).await;
    let new = replica(build("build-new", "bbbbbbbbbbbb")).await;
    for path in [
        "/portal/article/2101",
        "/portal/news_center/notice",
        "/portal/",
    ] {
        for round in ["MISS", "HIT"] {
            for (app, hash, other) in [
                (&old, "aaaaaaaaaaaa", "bbbbbbbbbbbb"),
                (&new, "bbbbbbbbbbbb", "aaaaaaaaaaaa"),
            ] {
                let response = app.get(path).await;
                let status = response.status();
                let cache = response.headers()["x-cache"].to_str().unwrap().to_owned();
                let html = response.text().await.unwrap();
                assert_eq!(status, 200, "{path}");
                assert_eq!(cache, round, "{path}: each build renders and keeps its own");
                assert!(
                    html.contains(&format!("/portal/assets/main.{hash}.js"))
                        && !html.contains(other),
                    "{path}: a replica links its own build's scripts"
                );
                assert!(html.contains(STATE_OPEN), "{path}: rendered");
            }
        }
    }
}

#[tokio::test]
async fn a_purge_on_one_replica_reaches_the_others() {
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let replicas = join_all((0..3).map(|_| replica(cms.addr, redis.url()))).await;
    let (id, _, detail) = an_article(&replicas[0]).await;
    for app in &replicas {
        assert_eq!(fetch(app, &detail).await.0, 200);
    }
    // Changed in the CMS without a webhook: every replica still serves the old title.
    cms.retitle(id, "中欧班列开行两万列（更正）").await;
    for app in &replicas {
        let (_, cache, body) = fetch(app, &detail).await;
        assert_eq!(cache, "HIT");
        assert_ne!(body["result"]["title"], "中欧班列开行两万列（更正）");
    }
    let purged = replicas[0]
        .client
        .post(replicas[0].url(&format!("/portal/admin/cache/purge?tag=article:{id}")))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(purged.status(), 200);
    // Soft: the others serve the old answer once while one refresh runs, then the new one. The
    // purge travels by pub/sub: until it arrives (a few ms, more on a loaded machine) a replica
    // still serves its entry as fresh; once it has, the old answer comes stale, never as a miss.
    for app in &replicas[1..] {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        let mut stale = false;
        loop {
            let (status, cache, body) = fetch(app, &detail).await;
            assert_eq!(status, 200);
            if body["result"]["title"] == "中欧班列开行两万列（更正）" {
                break;
            }
            if stale || cache != "HIT" {
                assert_eq!(cache, "STALE", "a soft purge serves the old answer stale");
                stale = true;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "purge never reached"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            stale,
            "the old answer was served stale while the refresh ran"
        );
    }
    // Hard: deleted everywhere, the next request a miss.
    cms.retitle(id, "中欧班列开行两万列（再更正）").await;
    let hard = replicas[1]
        .client
        .post(replicas[1].url(&format!(
            "/portal/admin/cache/purge?tag=article:{id}&hard=true"
        )))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(hard.status(), 200);
    // Until the third replica hears the purge it serves its copy; the first answer after it is a
    // miss with the new title.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    let (cache, body) = loop {
        let (_, cache, body) = fetch(&replicas[2], &detail).await;
        if body["result"]["title"] == "中欧班列开行两万列（再更正）"
            || tokio::time::Instant::now() >= deadline
        {
            break (cache, body);
        }
        assert_eq!(cache, "HIT", "before the purge is heard: {body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(cache, "MISS");
    assert_eq!(body["result"]["title"], "中欧班列开行两万列（再更正）");
}

#[tokio::test]
async fn a_webhook_refreshes_the_article_and_its_list_on_every_replica() {
    let redis = Redis::start();
    // The CMS's address is known (bound) before the replicas start, and the first replica's
    // before the CMS serves: its webhook reaches that one (as through a Service), which tells
    // the others.
    let cms_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cms_addr = cms_listener.local_addr().unwrap();
    let replicas = join_all((0..3).map(|_| replica(cms_addr, redis.url()))).await;
    let cms = CountingCms::start_on(cms_listener, Some(replicas[0].addr)).await;

    let (id, list, detail) = an_article(&replicas[1]).await;
    let other_list = "/portal/api/article/list?categoryId=22&page=1&size=10";
    let (_, _, others) = fetch(&replicas[1], other_list).await;
    let other_detail = format!(
        "/portal/api/article/detail?id={}",
        others["result"]["content"][0]["id"]
    );
    for app in &replicas {
        for path in [&list, &detail, other_list, &other_detail] {
            assert_eq!(fetch(app, path).await.0, 200);
        }
    }
    let before = cms.calls();
    let answer = cms
        .retitle(id, "陆港集团发布年度社会责任报告（修订）")
        .await;
    assert_eq!(answer["webhook"], 200, "{answer}");
    let reloads = cms.calls() - before;
    assert!(
        (1..=3).contains(&reloads),
        "the article and its list loaded again once: {reloads} calls"
    );
    for app in &replicas {
        once_heard(app, &detail, |body| {
            body["result"]["title"] == "陆港集团发布年度社会责任报告（修订）"
        })
        .await;
        let (_, cache, _) = fetch(app, &detail).await;
        assert_eq!(cache, "HIT", "refreshed ahead of the visitor");
        once_heard(app, &list, |body| {
            body["result"]["content"].as_array().is_some_and(|list| {
                list.iter()
                    .any(|a| a["title"] == "陆港集团发布年度社会责任报告（修订）")
            })
        })
        .await;
        let (_, cache, body) = fetch(app, &list).await;
        let titles: Vec<&Value> = body["result"]["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| &a["title"])
            .collect();
        assert!(
            titles.contains(&&json!("陆港集团发布年度社会责任报告（修订）")),
            "{titles:?}"
        );
        assert_eq!(cache, "HIT");
        for path in [other_list, &other_detail] {
            assert_eq!(fetch(app, path).await.1, "HIT", "{path} untouched");
        }
    }
    assert_eq!(
        cms.calls() - before,
        reloads,
        "no replica called the CMS again"
    );

    // An editor publishes a new article in the same category: first on its list's first page on
    // every replica, at once.
    let published: Value = crate::helpers::client()
        .post(format!("http://{}/admin/articles", cms.addr))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .json(&json!({ "categoryId": 21, "title": "陆港集团开通云川—布达佩斯班列", "summary": "首列于今晨发车。" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(published["webhook"], 200, "{published}");
    let calls = cms.calls();
    for app in &replicas {
        once_heard(app, &list, |body| {
            body["result"]["content"][0]["title"] == "陆港集团开通云川—布达佩斯班列"
        })
        .await;
        let (_, cache, _) = fetch(app, &list).await;
        assert_eq!(cache, "HIT", "refreshed ahead of the visitor");
    }
    assert_eq!(
        cms.calls(),
        calls,
        "the others read the new list from the shared tier"
    );

    // A notice with a wrong signature or an old time is refused.
    let body = json!({"event": "update", "type": "article", "id": id, "time": 1}).to_string();
    let refused = replicas[0]
        .client
        .post(replicas[0].url("/portal/admin/webhook"))
        .header(
            "x-portal-signature",
            portal_web::webhook::sign(WEBHOOK_SECRET.as_bytes(), body.as_bytes()),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401, "signed too long ago");

    // A notice is taken once, whichever replica it reaches again; one dated minutes ahead (which
    // would outlive the window) not at all.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let send = |app: &TestApp, time: u64| {
        let body =
            json!({"event": "update", "type": "article", "id": id, "time": time}).to_string();
        let signature = portal_web::webhook::sign(WEBHOOK_SECRET.as_bytes(), body.as_bytes());
        app.client
            .post(app.url("/portal/admin/webhook"))
            .header("x-portal-signature", signature)
            .body(body)
            .send()
    };
    assert_eq!(send(&replicas[0], now).await.unwrap().status(), 200);
    for app in [&replicas[0], &replicas[2]] {
        let replayed = send(app, now).await.unwrap();
        assert_eq!(replayed.status(), 401, "a replayed notice");
        assert_eq!(replayed.json::<Value>().await.unwrap()["code"], 401);
    }
    assert_eq!(
        send(&replicas[1], now + 240).await.unwrap().status(),
        401,
        "dated 4 minutes ahead"
    );
    assert_eq!(
        send(&replicas[1], now + 5).await.unwrap().status(),
        200,
        "a few seconds of clock skew"
    );
    let forged = replicas[0]
        .client
        .post(replicas[0].url("/portal/admin/webhook"))
        .header("x-portal-signature", "sha256=00")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
}

#[tokio::test]
async fn a_new_replica_serves_from_the_shared_tier_while_the_cms_is_down() {
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let first = replica(cms.addr, redis.url()).await;
    let (_, list, detail) = an_article(&first).await;
    fetch(&first, &detail).await;
    // A replica started later, whose CMS does not answer at all.
    let dead = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let dead_addr = dead.local_addr().unwrap();
    drop(dead);
    let late = replica(dead_addr, redis.url()).await;
    for path in [&list, &detail] {
        let (status, cache, body) = fetch(&late, path).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(cache, "HIT", "{path} from the shared tier");
    }
    let (status, _, _) = fetch(&late, "/portal/api/article/detail?id=999999").await;
    assert!(status >= 500, "a key nobody loaded still needs the CMS");
}

#[tokio::test]
async fn replicas_go_on_alone_while_redis_is_down_and_share_again_after() {
    let mut redis = Redis::start();
    let port = redis.port;
    let cms = CountingCms::start(None).await;
    let replicas = join_all((0..3).map(|_| replica(cms.addr, redis.url()))).await;
    let (_, list, detail) = an_article(&replicas[0]).await;
    for app in &replicas {
        fetch(app, &detail).await;
    }
    redis.stop();
    let keys = [
        list.clone(),
        detail.clone(),
        "/portal/api/article/list?categoryId=23&page=1&size=10".to_owned(),
        "/portal/api/category/list".to_owned(),
    ];
    for round in 0..3 {
        for app in &replicas {
            for path in &keys {
                let (status, _, body) = fetch(app, path).await;
                assert_eq!(status, 200, "round {round}, {path}: {body}");
            }
        }
    }
    for app in &replicas {
        wait_for_shared(app, "down").await;
    }
    let mut redis = Redis::start_on(port);
    for app in &replicas {
        wait_for_shared(app, "up").await;
    }
    let before = cms.calls();
    // A cold key of a category the CMS has (an unknown one is a 404 the tree answers).
    let path = "/portal/api/article/list?categoryId=22&page=1&size=10";
    let answers = join_all(
        replicas
            .iter()
            .flat_map(|app| (0..50).map(move |_| fetch(app, path))),
    )
    .await;
    assert!(answers.iter().all(|(status, _, _)| *status == 200));
    assert_eq!(cms.calls() - before, 1, "shared again after Redis returned");
    redis.stop();
}

#[tokio::test]
async fn a_stalled_redis_costs_at_most_its_time_out_and_the_tier_returns_when_it_answers() {
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let app = replica(cms.addr, redis.url()).await;
    let (_, list, _) = an_article(&app).await;
    // Redis stops answering without closing its connections (a frozen process, a lost route).
    let pid = redis.child.id().to_string();
    let signal = |sig: &str| {
        assert!(
            Command::new("kill")
                .args([sig, &pid])
                .status()
                .unwrap()
                .success()
        );
    };
    signal("-STOP");
    // Bounded here so that a gateway waiting on Redis fails the test rather than hanging it.
    let visits = async {
        for id in 1..=5 {
            let path = format!("/portal/api/article/list?categoryId=2{id}&page=2&size=5");
            let (status, _, body) = fetch(&app, &path).await;
            assert_eq!(status, 200, "{path}: {body}");
        }
        assert_eq!(fetch(&app, &list).await.0, 200);
    };
    tokio::time::timeout(Duration::from_secs(5), visits)
        .await
        .expect("visitors are answered while Redis is stalled");
    wait_for_shared(&app, "down").await;
    signal("-CONT");
    wait_for_shared(&app, "up").await;
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("portal_shared_cache_errors_total"),
        "failures are counted"
    );
}

#[tokio::test]
async fn the_cache_view_names_the_replica_that_stored_a_shared_entry_and_purges_are_timed() {
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let replicas = join_all((0..2).map(|_| replica(cms.addr, redis.url()))).await;
    let (id, _, detail) = an_article(&replicas[0]).await;
    assert_eq!(fetch(&replicas[0], &detail).await.0, 200);
    // The second replica reads it from the shared tier once the first has written it there
    // (after its visitor's answer).
    let entry = format!("EXISTS test:e:article/detail?id={id}");
    assert!(
        until(Duration::from_secs(5), || async {
            redis.command(&entry) == ":1"
        })
        .await,
        "the first replica stored it in the shared tier"
    );
    assert_eq!(fetch(&replicas[1], &detail).await.1, "HIT");
    let response = replicas[1]
        .client
        .get(replicas[1].url(&format!("/portal/admin/cache?key=article/detail?id%3D{id}")))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let entry = response.json::<Value>().await.unwrap()["result"].clone();
    assert_eq!(entry["loadedFrom"], "shared", "{entry}");
    let stored_by = entry["storedBy"].as_str().expect("the replica is recorded");
    assert!(
        stored_by.ends_with(&format!("/{}", std::process::id())),
        "{stored_by}"
    );
    let (_, body) = {
        let response = replicas[0]
            .client
            .get(replicas[0].url("/portal/admin/cache"))
            .bearer_auth(ADMIN_TOKEN)
            .send()
            .await
            .unwrap();
        (response.status(), response.json::<Value>().await.unwrap())
    };
    assert_eq!(body["result"]["shared"]["configured"], true);
    assert_eq!(body["result"]["shared"]["up"], true);
    // A purge on one replica is applied by the other through the channel, and timed there.
    let purged = replicas[0]
        .client
        .post(replicas[0].url(&format!("/portal/admin/cache/purge?tag=article:{id}")))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(purged.status(), 200);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
    loop {
        let text = replicas[1].get("/metrics").await.text().await.unwrap();
        if text.contains("portal_cache_purge_lag_seconds_count")
            && text.contains("portal_cache_purges_total{origin=\"pubsub\"}")
        {
            assert!(text.contains("portal_cache_purges_total{origin=\"admin\"}"));
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no purge lag in\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Entries written straight into the shared tier, none of which the gateway could have written:
/// each is ignored (counted by reason) and the answer is loaded afresh from the CMS.
#[tokio::test]
async fn entries_the_gateway_could_not_have_written_are_ignored_and_refetched() {
    use portal_core::endpoint::{CacheKey, Endpoint};
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let json_body = br#"{"code":200,"result":{"id":2101,"title":"poisoned"}}"#.to_vec();
    let gzip_of_other = {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"{\"code\":200,\"result\":\"other\"}")
            .unwrap();
        gz.finish().unwrap()
    };
    let detail = |id: u64| CacheKey::new(Endpoint::ArticleDetail, &[Some(&id)]).to_string();
    let ids = [2101u64, 2102, 2103, 2104, 2105];
    // (key, the fields that differ from a sound entry's, the reason it is refused)
    type Poisoned<'a> = (String, Vec<(&'a str, Vec<u8>)>, &'a str);
    let poisoned: Vec<Poisoned> = vec![
        (
            detail(ids[0]),
            vec![("s", b"101".to_vec()), ("c", b"application/json".to_vec())],
            "status",
        ),
        (
            detail(ids[1]),
            vec![
                ("s", b"200".to_vec()),
                ("c", b"text/html; charset=utf-8".to_vec()),
            ],
            "type",
        ),
        (
            detail(ids[2]),
            vec![
                ("s", b"200".to_vec()),
                ("c", b"application/json".to_vec()),
                ("g", gzip_of_other),
            ],
            "encoding",
        ),
        (
            detail(ids[3]),
            vec![
                ("s", b"200".to_vec()),
                ("c", b"application/json".to_vec()),
                ("t", (now_ms + 3_600_000).to_string().into_bytes()),
            ],
            "future",
        ),
        (
            detail(ids[4]),
            vec![
                ("s", b"200".to_vec()),
                ("c", b"application/json".to_vec()),
                ("b", vec![b' '; 20 << 20]),
            ],
            "too_large",
        ),
    ];
    for (key, fields, _) in &poisoned {
        let mut all: Vec<(&str, Vec<u8>)> = vec![
            ("t", now_ms.to_string().into_bytes()),
            ("b", json_body.clone()),
            ("tags", b"articles".to_vec()),
        ];
        for (name, value) in fields {
            all.retain(|(n, _)| n != name);
            all.push((name, value.clone()));
        }
        let mut hset = redis::cmd("HSET");
        hset.arg(format!("test:e:{key}"));
        for (name, value) in all {
            hset.arg(name).arg(value);
        }
        let _: () = hset.query_async(&mut conn).await.unwrap();
    }
    let app = replica(cms.addr, redis.url()).await;
    let before = cms.calls();
    for (id, (key, _, reason)) in ids.iter().zip(&poisoned) {
        let response = app
            .get(&format!("/portal/api/article/detail?id={id}"))
            .await;
        assert_eq!(response.status(), 200, "{key}: {reason}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{key}: {reason}"
        );
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["result"]["id"], *id, "{key}: {reason}");
        assert_ne!(body["result"]["title"], "poisoned", "{key}: {reason}");
    }
    assert_eq!(
        cms.calls() - before,
        ids.len(),
        "each loaded afresh from the CMS"
    );
    let metrics = app.get("/metrics").await.text().await.unwrap();
    for (_, _, reason) in &poisoned {
        assert!(
            metrics.contains(&format!(
                "portal_shared_cache_rejected_total{{reason=\"{reason}\"}}"
            )),
            "{reason} counted in\n{metrics}"
        );
    }
}

/// Replicas keep their own search index from the same purges: a webhook received by one replica
/// reaches every replica's index over the shared tier's purge channel, and each answers the new
/// title from its index.
#[tokio::test]
async fn every_replicas_search_index_follows_a_webhook_one_of_them_received() {
    let redis = Redis::start();
    let cms_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cms_addr = cms_listener.local_addr().unwrap();
    let replicas = join_all((0..2).map(|_| async {
        let mut config = replica_config(cms_addr, redis.url(), &static_dir());
        config.search.mode = portal_search::SearchMode::Index;
        let app = spawn_app(config).await;
        wait_for_shared(&app, "up").await;
        app
    }))
    .await;
    let cms = CountingCms::start_on(cms_listener, Some(replicas[0].addr)).await;
    let search = |word: &str| {
        format!(
            "/portal/api/article/search?keyword={}",
            url::form_urlencoded::byte_serialize(word.as_bytes()).collect::<String>()
        )
    };
    // Built in the background (the CMS answers each call in 50 ms here).
    for app in &replicas {
        crate::search_index::index_settled(app).await;
    }
    let (id, _, detail) = an_article(&replicas[1]).await;
    // In the other replica's memory, fresh for its TTL: it changes there only by the purge.
    fetch(&replicas[1], &detail).await;
    let answer = cms.retitle(id, "雪原冷链快线年度总结").await;
    assert_eq!(answer["webhook"], 200, "{answer}");
    // The other replica hears of it over Redis a moment after the webhook answered; its index has
    // followed once that purge is applied there and its own commit is through.
    once_heard(&replicas[1], &detail, |body| {
        body["result"]["title"] == "雪原冷链快线年度总结"
    })
    .await;
    for app in &replicas {
        crate::search_index::index_settled(app).await;
        let (_, _, body) = fetch(app, &search("雪原冷链快线")).await;
        assert_eq!(body["result"]["content"][0]["id"], id, "{body}");
        assert_eq!(body["result"]["source"], "index");
    }
}

/// A TCP relay to Redis whose connections can be dropped silently, as a network path that loses
/// every packet does: `drop_silently` stops every connection open now from relaying (its sockets
/// stay open, nothing moves, nothing is closed); connections made afterwards relay again.
struct SilentRelay {
    addr: SocketAddr,
    dropped: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl SilentRelay {
    async fn to(port: u16) -> Self {
        use std::sync::atomic::Ordering;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let dropped = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let generation = dropped.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let generation = generation.clone();
                tokio::spawn(async move {
                    let born = generation.load(Ordering::SeqCst);
                    let Ok(mut outbound) =
                        tokio::net::TcpStream::connect(("127.0.0.1", port)).await
                    else {
                        return;
                    };
                    let (mut a, mut b) = ([0u8; 8192], [0u8; 8192]);
                    loop {
                        let (n, from_client) = tokio::select! {
                            n = inbound.read(&mut a) => (n, true),
                            n = outbound.read(&mut b) => (n, false),
                        };
                        let Ok(n) = n else { return };
                        if n == 0 {
                            return;
                        }
                        if generation.load(Ordering::SeqCst) != born {
                            // Dropped: hold both sockets open and relay nothing, for good.
                            std::future::pending::<()>().await;
                        }
                        let written = if from_client {
                            outbound.write_all(&a[..n]).await
                        } else {
                            inbound.write_all(&b[..n]).await
                        };
                        if written.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        Self { addr, dropped }
    }

    fn url(&self) -> String {
        format!("redis://{}/", self.addr)
    }

    fn drop_silently(&self) {
        self.dropped
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// A replica whose path to Redis is dropped silently (no reset, no close: every packet lost)
/// goes on alone, and when Redis answers again on a new connection it shares again, its purge
/// channel too (it stayed off for good: the probe asked the dead connection, and the subscriber
/// waited on it without end).
#[tokio::test]
async fn after_a_silent_drop_a_replica_reconnects_and_hears_purges_again() {
    let redis = Redis::start();
    let relay = SilentRelay::to(redis.port).await;
    let cms = CountingCms::start(None).await;
    let cut_off = replica(cms.addr, relay.url()).await;
    let other = replica(cms.addr, redis.url()).await;
    let (_, list, _) = an_article(&cut_off).await;
    assert_eq!(fetch(&cut_off, &list).await.1, "HIT");
    relay.drop_silently();
    // The next command on the dead connection times out: the tier goes off, answers go on.
    let cold = "/portal/api/article/list?categoryId=22&page=1&size=10";
    assert_eq!(fetch(&cut_off, cold).await.0, 200);
    wait_for_shared(&cut_off, "down").await;
    // Redis answers again (on new connections): the replica shares again.
    wait_for_shared(&cut_off, "up").await;
    // Its purge channel subscribes afresh (a second after), marking its memory stale for the
    // purges it may have missed; the list is then renewed and a hit again.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while fetch(&cut_off, &list).await.1 != "HIT" {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the list never a hit again"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // And hears another replica's purge: its copy of the list is no longer a plain hit.
    let purge = other
        .client
        .post(other.url("/portal/admin/cache/purge?tag=category:21"))
        .header("authorization", format!("Bearer {ADMIN_TOKEN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(purge.status(), 200);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (_, cache, _) = fetch(&cut_off, &list).await;
        if cache != "HIT" {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the purge never reached the replica whose path was dropped"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A "Redis" on loopback that answers every connection with `opening` and then `filler` for
/// ever; how many bytes it got out on each connection before the gateway hung up.
async fn hostile_redis(
    opening: &'static [u8],
    filler: u8,
) -> (String, tokio::sync::mpsc::UnboundedReceiver<usize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("redis://{}/", listener.local_addr().unwrap());
    let (sent, hung_up) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let sent = sent.clone();
            tokio::spawn(async move {
                // The client's opening commands, whatever they are.
                let mut asked = [0u8; 4096];
                let _ = stream.read(&mut asked).await;
                let mut total = 0;
                if stream.write_all(opening).await.is_err() {
                    return;
                }
                let chunk = vec![filler; 64 * 1024];
                // Bounded here too, so a gateway that never hangs up fails the test, not the machine.
                while total < 512 * 1024 * 1024 {
                    match stream.write_all(&chunk).await {
                        Ok(()) => total += chunk.len(),
                        Err(_) => break,
                    }
                }
                let _ = sent.send(total);
            });
        }
    });
    (url, hung_up)
}

/// Red team round three, row 4: a hostile or spoofed Redis on a plain `redis://` address sent an
/// endless line (the gateway's RSS 2.2 GiB in 20 s) and a number of three million digits (every
/// request ~16 s): the redis client buffers and parses whatever comes. Now what a server sends is
/// checked before the client keeps it: the gateway hangs up after at most a few hundred KiB, the
/// tier stays off, and visitors are served from the CMS.
#[tokio::test]
async fn a_hostile_redis_is_hung_up_on_before_the_gateway_holds_what_it_sends() {
    let cms = CountingCms::start(None).await;
    for (what, opening, filler) in [
        ("an endless line", b"+".as_slice(), b'a'),
        ("a number of endless digits", b"(".as_slice(), b'7'),
        ("a string of 300 MB", b"$300000000\r\n".as_slice(), b'x'),
    ] {
        let (url, mut hung_up) = hostile_redis(opening, filler).await;
        let app = spawn_app(replica_config(cms.addr, url, &static_dir())).await;
        let sent = tokio::time::timeout(Duration::from_secs(20), hung_up.recv())
            .await
            .unwrap_or_else(|_| panic!("{what}: the gateway never hung up"))
            .unwrap();
        assert!(sent < 4 * 1024 * 1024, "{what}: {sent} bytes taken first");
        let (_, ready) = app.get_json("/readyz").await;
        assert_eq!(ready["result"]["sharedCache"], "down", "{what}: {ready}");
        let (status, body) = app.get_json("/portal/api/category/list").await;
        assert_eq!(status, 200, "{what}: {body}");
    }
}

/// Red team round three, row 16: with write access to Redis, a well-formed entry of one's own (a
/// fake 紧急通知) was served by every replica. With `cache.shared.signing_key`, replicas sign what
/// they store and serve only what carries their signature: one replica serves what the other
/// stored (no CMS call), a forged entry is refused (counted as `signature`) and the answer loaded
/// from the CMS, and so is an entry signed under another key.
#[tokio::test]
async fn with_a_signing_key_replicas_serve_each_others_entries_and_no_forged_one() {
    use portal_core::endpoint::{CacheKey, Endpoint};
    let redis = Redis::start();
    let cms = CountingCms::start(None).await;
    let signed = |key: &str| {
        let mut config = replica_config(cms.addr, redis.url(), &static_dir());
        config.cache.shared.signing_key = Some(key.to_owned().into());
        config
    };
    let first = spawn_app(signed("signing-key-7f3a9c2e41d8b605")).await;
    let second = spawn_app(signed("signing-key-7f3a9c2e41d8b605")).await;
    let stranger = spawn_app(signed("another-key-0b6e2d9f57a1c834")).await;
    for app in [&first, &second, &stranger] {
        wait_for_shared(app, "up").await;
    }
    let (id, list, detail) = an_article(&first).await;
    let (_, _, stored) = fetch(&first, &detail).await;
    let before = cms.calls();
    let (status, _, shared) = fetch(&second, &detail).await;
    assert_eq!(status, 200);
    assert_eq!(shared, stored);
    assert_eq!(
        cms.calls(),
        before,
        "served from the first replica's signed entry"
    );
    // Under another key the same entry is no entry.
    let (status, _, _) = fetch(&stranger, &detail).await;
    assert_eq!(status, 200);
    assert_eq!(cms.calls(), before + 1, "loaded from the CMS");

    // A forged entry, sound in every other way, for an article not yet cached.
    let other = {
        let (_, _, body) = fetch(&first, &list).await;
        body["result"]["content"][1]["id"].as_u64().unwrap()
    };
    assert_ne!(other, id);
    let key = CacheKey::new(Endpoint::ArticleDetail, &[Some(&other)]).to_string();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let forged = format!(r#"{{"code":200,"result":{{"id":{other},"title":"伪造的紧急通知"}}}}"#);
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: () = redis::cmd("HSET")
        .arg(format!("test:e:{key}"))
        .arg("s")
        .arg("200")
        .arg("c")
        .arg("application/json")
        .arg("t")
        .arg(now_ms.to_string())
        .arg("b")
        .arg(forged.as_bytes())
        .arg("tags")
        .arg(format!("article:{other}"))
        .arg("h")
        .arg(vec![7u8; 32])
        .query_async(&mut conn)
        .await
        .unwrap();
    let before = cms.calls();
    let (status, _, body) = fetch(&second, &format!("/portal/api/article/detail?id={other}")).await;
    assert_eq!(status, 200);
    assert_ne!(body["result"]["title"], "伪造的紧急通知", "{body}");
    assert_eq!(cms.calls(), before + 1, "loaded from the CMS");
    let metrics = second.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains("portal_shared_cache_rejected_total{reason=\"signature\"}"));
}
