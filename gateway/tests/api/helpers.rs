//! Test rig: the real gateway on port 0 in front of a real upstream on port 0, either the
//! bundled reference-cms or a scripted fake that records what reached it.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Router,
    body::Body,
    extract::{Request, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use portal_cms::dialect::config::CmsEndpointConfig;
use portal_search::SearchMode;
use portal_web::Application;
pub use portal_web::Config;
use serde_json::Value;
use tokio::{net::TcpListener, sync::oneshot};

pub const CLIENT_ID: &str = "portal-test";
pub const CLIENT_SECRET: &str = "t0p-s3cret-do-not-leak";

fn init_tracing() {
    if std::env::var_os("TEST_LOG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_env_filter("debug")
            .try_init();
    }
}

/// A plain HTTP client for a test. rustls's crypto is installed first: reqwest has no TLS
/// provider of its own in this workspace (the workspace's `Cargo.toml` says why).
pub fn client() -> reqwest::Client {
    client_builder().build().expect("an HTTP client")
}

/// A test client whose connections come from `address` (`127.0.0.2`): another visitor to the
/// per-client limits.
pub fn client_at(address: &str) -> reqwest::Client {
    client_builder()
        .local_address(Some(address.parse().unwrap()))
        .build()
        .unwrap()
}

/// A client builder, with rustls's crypto installed (`client`).
pub fn client_builder() -> reqwest::ClientBuilder {
    portal_core::tls::install();
    reqwest::Client::builder()
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    /// The clock its cache reads ages on: `advance` it to be past a TTL without waiting.
    pub clock: portal_cache::Clock,
    _stop: oneshot::Sender<()>,
    running: tokio::task::JoinHandle<()>,
}

impl TestApp {
    /// Stops the gateway as SIGTERM would and waits until it has finished (its index closed).
    pub async fn stop(self) {
        drop(self._stop);
        let _ = self.running.await;
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("gateway answers")
    }

    /// GET as a visitor holding a system token (`Authorization: Bearer <token>`).
    pub async fn get_as(&self, path: &str, token: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .header("authorization", format!("Bearer {token}"))
            .send()
            .await
            .expect("gateway answers")
    }

    /// GET and parse the envelope, returning the HTTP status too.
    pub async fn get_json(&self, path: &str) -> (StatusCode, serde_json::Value) {
        let response = self.get(path).await;
        let status = response.status();
        let ct = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        assert!(
            ct.starts_with("application/json"),
            "{path}: content type {ct}"
        );
        (status, response.json().await.expect("a JSON envelope"))
    }
}

/// The company every test site names (the config's one required `[site]` key).
/// Waits until `done` holds, asking every 20 ms, at most `within`: the way a test waits for
/// something that happens in the background (a refresh, a reload), rather than a fixed sleep.
/// Whether it held.
pub async fn until<F, Fut>(within: Duration, mut done: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if done().await {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub const COMPANY: &str = "云川陆港国际物流集团有限公司";

/// `extra` with the company named in its `[site]` table (one is added when it has none).
fn with_company(extra: &str) -> String {
    if extra.contains("company_name") {
        extra.to_owned()
    } else if extra.contains("[site]\n") {
        extra.replacen(
            "[site]\n",
            &format!("[site]\ncompany_name = \"{COMPANY}\"\n"),
            1,
        )
    } else {
        format!("{extra}\n[site]\ncompany_name = \"{COMPANY}\"\n")
    }
}

/// The tests' search is the CMS's unless a test names `[search]`: the default (`auto`) builds the
/// gateway's index in the background before a CMS without search, whose reads a test about
/// something else would count among its CMS calls. The index has tests of its own
/// (`search_index.rs`).
fn with_search_mode(extra: &str) -> String {
    if extra.contains("[search]") {
        extra.to_owned()
    } else {
        format!("{extra}\n[search]\nmode = \"cms\"\n")
    }
}

/// The TOML of a test config, for the tests that need a file (a config file the gateway loads and
/// reloads) or test the loader itself: the given upstream, a static dir, the test credential, a
/// short time-out, the company named and the CMS's search (as `config_for`); `extra` is appended
/// inside `[upstream]`, so it may open further tables.
pub fn config_toml(upstream: &str, static_dir: &Path, extra: &str) -> String {
    let extra = with_search_mode(&with_company(extra));
    format!(
        r#"
[server]
listen = "127.0.0.1:0"
static_dir = "{}"

[upstream]
base_url = "{upstream}"
client_id = "{CLIENT_ID}"
client_secret = "{CLIENT_SECRET}"
timeout = "800ms"
connect_timeout = "500ms"
{extra}
"#,
        static_dir.display()
    )
}

/// The keys a config cannot load without (the CMS, its credential, the company), loaded as the
/// gateway loads a file, so they are validated as a file's are.
fn required_toml(upstream: &str) -> String {
    format!(
        "[upstream]\nbase_url = \"{upstream}\"\nclient_id = \"{CLIENT_ID}\"\nclient_secret = \"{CLIENT_SECRET}\"\n\
         [site]\ncompany_name = \"{COMPANY}\"\npublic_url = \"http://127.0.0.1:8080\"\n"
    )
}

/// A test config: `upstream` with the test credential, 800 ms per call (500 ms to connect), the
/// company named, a free port on loopback, `static_dir` served, the CMS's own search
/// (`with_search_mode` says why); then `change`, the test's own settings, made on the typed
/// config.
///
/// What the loader derives from the values it read is derived again from the changed ones: the
/// secrets to hide in what is written out (`Config::secrets`); the dialect is compiled again
/// when it changed (`Config::compiled_dialect`). The loader's checks (`Config::validate`) are
/// private: a change is not checked, so a test sets only values the loader accepts.
pub fn config_for(upstream: &str, static_dir: &Path, change: impl FnOnce(&mut Config)) -> Config {
    let mut config = Config::from_toml_str(&required_toml(upstream)).expect("test config is valid");
    config.server.listen = SocketAddr::from(([127, 0, 0, 1], 0));
    config.server.static_dir = static_dir.to_owned();
    config.upstream.timeout = Duration::from_millis(800);
    config.upstream.connect_timeout = Duration::from_millis(500);
    config.search.mode = SearchMode::Cms;
    change(&mut config);
    portal_core::redact::remember(config.secrets());
    config
}

/// Sets on `config` the sections `toml` writes, as the loader reads them (checked, the dialect
/// compiled): for a mapping as an integrator writes it (a `[dialect]` table), where the TOML is
/// what is tested. Each section written replaces the config's, so this comes before typed
/// changes to the same section.
pub fn with_toml(config: &mut Config, toml: &str) {
    use figment::providers::Format as _;
    let sections: figment::value::Dict =
        figment::Figment::from(figment::providers::Toml::string(toml))
            .extract()
            .unwrap_or_else(|err| panic!("{err}: {toml}"));
    let loaded = Config::from_toml_str(&format!(
        "{}\n{toml}",
        required_toml(config.upstream.base_url.as_str())
    ))
    .unwrap_or_else(|err| panic!("{err}: {toml}"));
    for section in sections.keys() {
        match section.as_str() {
            "dialect" => config.dialect = loaded.dialect.clone(),
            "search" => config.search = loaded.search.clone(),
            "languages" => config.languages = loaded.languages.clone(),
            other => panic!("with_toml does not set [{other}] yet"),
        }
    }
}

/// No client limit and no CMS ceiling: for tests about something else that ask for a lot (a crawl
/// of the whole demo asks for hundreds of pages in a second or two). The limits have tests of
/// their own.
pub fn open_limits(config: &mut Config) {
    let limits = &mut config.limits;
    limits.per_client_per_second = 100_000;
    limits.per_client_burst = 100_000;
    limits.per_client_cms_per_second = 100_000;
    limits.per_client_cms_burst = 100_000;
    limits.upstream_per_second = 100_000;
    limits.upstream_burst = 100_000;
    limits.per_client_renders = 100_000;
    limits.per_client_files = 100_000;
    limits.per_client_searches = 100_000;
}

/// `open_limits` as TOML, for a test that writes its config to a file.
pub const OPEN_LIMITS_TOML: &str = "[limits]\nper_client_per_second = 100000\nper_client_burst = 100000\nper_client_cms_per_second = 100000\nper_client_cms_burst = 100000\nupstream_per_second = 100000\nupstream_burst = 100000\nper_client_renders = 100000\nper_client_files = 100000\nper_client_searches = 100000\n";

/// Sets `endpoint`'s (a cache name: `article/list`) time to live.
pub fn set_ttl(config: &mut Config, endpoint: &str, ttl: Duration) {
    config.cache.ttl.insert(endpoint.to_owned(), ttl.into());
}

/// The CMS without a search of its own (`dialect.endpoints.article_search = { path = "" }`).
pub fn without_cms_search(config: &mut Config) {
    config.dialect.endpoints.article_search = CmsEndpointConfig::default();
}

pub async fn spawn_app(config: Config) -> TestApp {
    spawn_app_with_state(config).await.0
}

/// `spawn_app`, with the state the app serves from (its traces, a reload).
pub async fn spawn_app_with_state(config: Config) -> (TestApp, portal_web::state::AppState) {
    init_tracing();
    let app = Application::build(config).await.expect("gateway builds");
    let state = app.state();
    let addr = app.local_addr();
    let (stop, stopped) = oneshot::channel::<()>();
    let running = tokio::spawn(async move {
        let _ = app
            .run_until(async {
                let _ = stopped.await;
            })
            .await;
    });
    let app = TestApp {
        addr,
        client: client_builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        clock: state.cache.clock().clone(),
        _stop: stop,
        running,
    };
    (app, state)
}

/// The bundled reference-cms on port 0 with the test credential.
pub async fn spawn_reference_cms() -> SocketAddr {
    spawn_reference_cms_speaking(
        reference_cms::Dialect::Native,
        reference_cms::CategoryShape::Flat,
    )
    .await
}

/// The bundled reference-cms on port 0 with the test credential, in a given dialect.
pub async fn spawn_reference_cms_speaking(
    dialect: reference_cms::Dialect,
    categories: reference_cms::CategoryShape,
) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    serve_reference_cms(listener, reference_cms_settings(dialect, categories));
    addr
}

/// reference-cms's settings in the tests: the demo content, the test credential and visitor
/// token, no delay, no webhook.
pub fn reference_cms_settings(
    dialect: reference_cms::Dialect,
    categories: reference_cms::CategoryShape,
) -> reference_cms::Settings {
    let mut settings = reference_cms::Settings::from_env();
    settings.dialect = dialect;
    settings.categories = categories;
    settings.content_dir = reference_cms::default_content_dir();
    settings.client_id = CLIENT_ID.to_owned();
    settings.client_secret = CLIENT_SECRET.to_owned();
    settings.tokens = ["visitor-token-1".to_owned()].into();
    settings.delay = Duration::ZERO;
    settings.webhook = None;
    settings
}

/// reference-cms serving on `listener` (bound before the gateway it notifies, when its settings
/// name a webhook).
pub fn serve_reference_cms(listener: TcpListener, settings: reference_cms::Settings) {
    tokio::spawn(reference_cms::serve(
        listener,
        settings,
        std::future::pending(),
    ));
}

/// The gateway in front of reference-cms, limits open (the limits have tests of their own).
pub async fn spawn_with_reference_cms() -> TestApp {
    let cms = spawn_reference_cms().await;
    spawn_app(config_for(
        &format!("http://{cms}/"),
        &static_dir(),
        open_limits,
    ))
    .await
}

/// What the fake upstream answers next.
#[derive(Clone)]
pub enum Reply {
    Json(u16, serde_json::Value),
    Raw(u16, &'static str, &'static str),
    Empty(u16),
    Slow(Duration),
    /// A JSON answer after a delay.
    Delayed(Duration, serde_json::Value),
    /// Any status, content type and body, made at run time (large or odd bodies).
    Bytes(u16, &'static str, Vec<u8>),
    /// A 302 to somewhere else, which must never be followed.
    Redirect(&'static str),
    /// A 301 with an HTML page, as nginx answers a directory asked for without its slash.
    Moved(&'static str),
    /// A JSON answer whose connection drops halfway through the body.
    Truncated,
    /// A file sent in `chunks` pieces of 1 KiB, `gap` apart: a long download that keeps moving
    /// when the gap is short, a CMS stalled mid-body when it is long.
    Trickle {
        chunks: usize,
        gap: Duration,
    },
    /// The reply for each request's path and query: a CMS whose answers differ by call.
    Route(fn(&str, &str) -> Reply),
    /// A JSON answer with headers of its own (a list's total in `X-Total-Count`).
    Headed(u16, Vec<(&'static str, String)>, serde_json::Value),
}

#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub query: String,
    pub authorization: Option<String>,
    pub request_id: Option<String>,
    /// Every header the gateway sent.
    pub headers: HeaderMap,
}

#[derive(Clone)]
pub struct FakeUpstream {
    pub addr: SocketAddr,
    reply: Arc<Mutex<Reply>>,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// `Trickle` bodies being sent: one the gateway let go (its connection closed) is no longer.
    trickling: Arc<std::sync::atomic::AtomicUsize>,
}

impl FakeUpstream {
    pub async fn start(reply: Reply) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let fake = Self {
            addr: listener.local_addr().unwrap(),
            reply: Arc::new(Mutex::new(reply)),
            seen: Arc::default(),
            trickling: Arc::default(),
        };
        let app = Router::new().fallback(answer).with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        fake
    }

    pub fn base_url(&self) -> String {
        format!("http://{}/cms/", self.addr)
    }

    pub fn set(&self, reply: Reply) {
        *self.reply.lock().unwrap() = reply;
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// How many requests reached a path ending with `suffix` (`article/list`), so far.
    pub fn calls_to(&self, suffix: &str) -> usize {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|s| s.path.ends_with(suffix))
            .count()
    }

    /// How many `Trickle` bodies are being sent now (neither finished nor let go by the gateway).
    pub fn trickling(&self) -> usize {
        self.trickling.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub fn last(&self) -> Seen {
        self.seen()
            .last()
            .cloned()
            .expect("the upstream was called")
    }
}

async fn answer(
    State(fake): State<FakeUpstream>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let text = |name| {
        headers
            .get(name)
            .map(|v: &header::HeaderValue| v.to_str().unwrap().to_owned())
    };
    fake.seen.lock().unwrap().push(Seen {
        path: request.uri().path().to_owned(),
        query: request.uri().query().unwrap_or("").to_owned(),
        authorization: text(header::AUTHORIZATION),
        request_id: text(header::HeaderName::from_static("x-request-id")),
        headers: headers.clone(),
    });
    let reply = fake.reply.lock().unwrap().clone();
    let reply = match reply {
        Reply::Route(route) => route(request.uri().path(), request.uri().query().unwrap_or("")),
        reply => reply,
    };
    match reply {
        Reply::Route(_) => panic!("a route answers with a reply, not another route"),
        Reply::Json(status, body) => (
            StatusCode::from_u16(status).unwrap(),
            [(header::CONTENT_TYPE, "application/json;charset=UTF-8")],
            body.to_string(),
        )
            .into_response(),
        Reply::Raw(status, content_type, body) => (
            StatusCode::from_u16(status).unwrap(),
            [(header::CONTENT_TYPE, content_type)],
            body,
        )
            .into_response(),
        Reply::Empty(status) => Response::builder()
            .status(status)
            .body(Body::empty())
            .unwrap(),
        Reply::Delayed(delay, body) => {
            tokio::time::sleep(delay).await;
            axum::Json(body).into_response()
        }
        Reply::Bytes(status, content_type, body) => (
            StatusCode::from_u16(status).unwrap(),
            [(header::CONTENT_TYPE, content_type)],
            body,
        )
            .into_response(),
        Reply::Redirect(to) => (StatusCode::FOUND, [(header::LOCATION, to)]).into_response(),
        Reply::Moved(to) => (
            StatusCode::MOVED_PERMANENTLY,
            [(header::LOCATION, to), (header::CONTENT_TYPE, "text/html")],
            "<html><head><title>301 Moved Permanently</title></head><body><center><h1>301 Moved Permanently</h1></center><hr><center>nginx</center></body></html>",
        )
            .into_response(),
        Reply::Headed(status, headers, body) => {
            let mut response = (
                StatusCode::from_u16(status).unwrap(),
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response();
            for (name, value) in headers {
                response
                    .headers_mut()
                    .insert(name, header::HeaderValue::from_str(&value).unwrap());
            }
            response
        }
        Reply::Truncated => {
            let half: Result<bytes::Bytes, std::io::Error> = Ok(bytes::Bytes::from_static(
                b"{\"code\":200,\"result\":{\"content\":[{\"id\":1,",
            ));
            let broken = Err(std::io::Error::other("the CMS went away"));
            Response::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::CONTENT_LENGTH, "4096")
                .body(Body::from_stream(futures_util::stream::iter([
                    half, broken,
                ])))
                .unwrap()
        }
        Reply::Trickle { chunks, gap } => {
            /// Counts a body while it lives.
            struct Sending(Arc<std::sync::atomic::AtomicUsize>);
            impl Drop for Sending {
                fn drop(&mut self) {
                    self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                }
            }
            fake.trickling
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let sending = Arc::new(Sending(Arc::clone(&fake.trickling)));
            let pieces = futures_util::stream::unfold(0, move |sent| {
                let _sending = Arc::clone(&sending);
                async move {
                if sent == chunks {
                    return None;
                }
                if sent > 0 {
                    tokio::time::sleep(gap).await;
                }
                let piece: Result<bytes::Bytes, std::io::Error> = Ok(vec![b'x'; 1024].into());
                Some((piece, sent + 1))
                }
            });
            Response::builder()
                .header(header::CONTENT_TYPE, "video/webm")
                .header(header::CONTENT_LENGTH, (chunks * 1024).to_string())
                .body(Body::from_stream(pieces))
                .unwrap()
        }
        Reply::Slow(delay) => {
            tokio::time::sleep(delay).await;
            axum::Json(serde_json::json!({"code": 200, "result": "late"})).into_response()
        }
    }
}

/// A gateway in front of a fake upstream, configured as `config_for` with `change`.
pub async fn spawn_with_fake(
    reply: Reply,
    change: impl FnOnce(&mut Config),
) -> (TestApp, FakeUpstream) {
    let fake = FakeUpstream::start(reply).await;
    let app = spawn_app(config_for(&fake.base_url(), &static_dir(), change)).await;
    (app, fake)
}

/// The fixture's `main.*.js.br`: not real brotli, so that serving it proves the file was sent as
/// the build wrote it.
pub const BUILT_BR: &[u8] = b"prebuilt-brotli-bytes";

/// A built app stand-in under `target/`, shared by the static tests.
pub fn static_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("static-fixture");
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        let index = "<!doctype html><html lang=\"zh-CN\"><head><title>门户</title></head><body><div id=\"root\"></div></body></html>";
        std::fs::write(dir.join("index.html"), index).unwrap();
        let js = "console.log('门户');".repeat(200);
        std::fs::write(dir.join("assets/main.0123456789abcdef.js"), &js).unwrap();
        // What the build writes beside it (compression-webpack-plugin), marked so a test can tell
        // these bytes from a compression made on the fly.
        std::fs::write(dir.join("assets/main.0123456789abcdef.js.br"), BUILT_BR).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(9));
        std::io::Write::write_all(&mut gz, js.as_bytes()).unwrap();
        std::fs::write(dir.join("assets/main.0123456789abcdef.js.gz"), gz.finish().unwrap())
            .unwrap();
        std::fs::write(dir.join("index.html.gz"), {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(9));
            std::io::Write::write_all(&mut gz, index.as_bytes()).unwrap();
            gz.finish().unwrap()
        })
        .unwrap();
        // Large and compressible, with no encodings beside it: served as it is.
        std::fs::write(dir.join("assets/plain.txt"), "没有预压缩的文件。".repeat(500)).unwrap();
        std::fs::write(
            dir.join("assets/main.0123456789abcdef.js.map"),
            r#"{"version":3,"sources":["src/index.tsx"]}"#,
        )
        .unwrap();
        std::fs::write(dir.join("favicon.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>").unwrap();
        dir
    })
    .clone()
}

/// The TOML of `config/examples/{name}.toml` pointed at `cms`, with the test credential, a free
/// port and the test static dir.
pub fn example_toml(name: &str, cms: SocketAddr) -> String {
    let path = format!(
        "{}/../config/examples/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let line = match line.split('=').next().map(str::trim) {
            Some("base_url") => format!("base_url = \"http://{cms}/\""),
            Some("client_id") => format!("client_id = \"{CLIENT_ID}\""),
            Some("client_secret") => format!("client_secret = \"{CLIENT_SECRET}\""),
            Some("listen") => "listen = \"127.0.0.1:0\"".to_owned(),
            Some("static_dir") => format!("static_dir = \"{}\"", static_dir().display()),
            _ => line.to_owned(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    with_search_mode(&out)
}

/// The app's real production build (`frontend/dist`: client files and `server/render.js`), which
/// the page tests render with.
pub fn app_build_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../frontend/dist"));
    let bundle = dir.join("server/render.js");
    assert!(
        bundle.is_file() && dir.join("index.html").is_file(),
        "{} is missing: build the app first: make frontend",
        bundle.display()
    );
    dir
}

/// What the page tests add to a config: renders get 5 s (a debug build of the gateway runs the
/// server bundle several times slower than a release build; the 1 s default is a production
/// figure).
pub fn render_slack(config: &mut Config) {
    config.render.timeout = Duration::from_secs(5);
}

/// A config for `upstream` serving the real app build with the render slack, then `change` (as
/// in `config_for`; it may set `render` itself).
pub fn page_config(upstream: &str, change: impl FnOnce(&mut Config)) -> Config {
    page_config_of(upstream, &app_build_dir(), change)
}

/// `page_config` serving the build in `build`. The CMS time-out is 5 s rather than the tests'
/// 800 ms: the cache waits for a load at most that and 500 ms, and a page's load (a few renders,
/// each after a CMS round) outlasts 1.3 s in a debug build on a busy machine, whose visitor then
/// gets the app shell (`pages::a_page_whose_load_outlasts_the_caches_wait_still_answers_the_page`).
pub fn page_config_of(upstream: &str, build: &Path, change: impl FnOnce(&mut Config)) -> Config {
    let mut config = config_for(upstream, build, |c| {
        render_slack(c);
        change(c);
    });
    config.upstream.timeout = Duration::from_secs(5);
    config
}

/// The gateway serving the real app build in front of reference-cms, limits open.
pub async fn spawn_pages_with_reference_cms() -> TestApp {
    let cms = spawn_reference_cms().await;
    spawn_app(page_config(&format!("http://{cms}/"), open_limits)).await
}

// Reading rendered pages.

/// The opening of the block that carries a page's store state.
pub const STATE_OPEN: &str = r#"<script type="application/json" id="portal-state">"#;

/// The `href`s of a page, as written (`&amp;` read back).
pub fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|h| h.replace("&amp;", "&"))
        .collect()
}

/// The text between the first `open` and the next `close`.
pub fn between<'a>(html: &'a str, open: &str, close: &str) -> Option<&'a str> {
    html.split_once(open)
        .and_then(|(_, rest)| rest.split_once(close))
        .map(|(inside, _)| inside)
}

/// The store state the page carries (the text of its state block, parsed).
pub fn state_of(html: &str) -> Value {
    let block = between(html, STATE_OPEN, "</script>").expect("the page carries its state");
    serde_json::from_str(block)
        .unwrap_or_else(|err| panic!("the state block is JSON ({err}): {block:.300}"))
}

/// The data of every API answer the state holds (RTK Query's fulfilled queries).
pub fn answers_in(state: &Value) -> Vec<&Value> {
    state["api"]["queries"]
        .as_object()
        .expect("the store's API state")
        .values()
        .filter_map(|query| query.get("data"))
        .collect()
}

/// The API answers a page was rendered with that were not a success (RTK Query's queries that
/// did not fulfil), by their key: the page shows an error where content should be.
pub fn failed_answers(html: &str) -> Vec<String> {
    state_of(html)["api"]["queries"]
        .as_object()
        .expect("the store's API state")
        .iter()
        .filter(|(_, query)| query["status"] != "fulfilled")
        .map(|(key, query)| format!("{key}: {}", query["status"]))
        .collect()
}

/// The pages a visitor reads first (home, the site map, two group pages), each 200, naming none
/// of `gone` (sections a customer's CMS does not have) in what they show (the head's title and
/// description included; not the state block, which carries the API's answers), linking none of
/// `gone_paths`, and showing no placeholder.
pub async fn assert_pages_without(app: &TestApp, gone: &[&str], gone_paths: &[&str]) {
    for path in [
        "/portal/",
        "/portal/sitemap",
        "/portal/business",
        "/portal/news_center",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let html = response.text().await.unwrap();
        let shown = html.split(STATE_OPEN).next().unwrap();
        for name in gone {
            assert!(!shown.contains(name), "{path} names {name}");
        }
        for gone_path in gone_paths {
            assert!(!shown.contains(gone_path), "{path} links {gone_path}");
        }
        assert!(
            !shown.contains("正在建设中") && !shown.contains("正在整理中"),
            "{path}: a placeholder"
        );
    }
}

/// Publishes `article` (`categoryId`, `title`, `content`) in reference-cms at `cms` as its editor
/// would (`POST /admin/articles`); its answer (`id`, and `webhook` when it calls one).
pub async fn publish(cms: SocketAddr, article: serde_json::Value) -> serde_json::Value {
    client()
        .post(format!("http://{cms}/admin/articles"))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .json(&article)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Changes article `id` (the fields given) in reference-cms at `cms` as its editor would
/// (`PUT /admin/articles/{id}`); its answer says what the gateway's webhook answered (`null`
/// when none is configured).
pub async fn edit_article(
    cms: SocketAddr,
    id: u64,
    change: serde_json::Value,
) -> serde_json::Value {
    let answer = client()
        .put(format!("http://{cms}/admin/articles/{id}"))
        .basic_auth(CLIENT_ID, Some(CLIENT_SECRET))
        .json(&change)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    answer.json().await.unwrap()
}

/// The gateway (`config`, given the CMS's base URL) in front of a reference-cms that sends each
/// edit to the gateway's webhook signed with `secret`; the CMS's address.
pub async fn spawn_with_notifying_cms(
    secret: &str,
    config: impl FnOnce(&str) -> Config,
) -> (TestApp, SocketAddr) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cms = listener.local_addr().unwrap();
    let app = spawn_app(config(&format!("http://{cms}/"))).await;
    let mut settings = reference_cms_settings(
        reference_cms::Dialect::Native,
        reference_cms::CategoryShape::Flat,
    );
    settings.webhook = Some(reference_cms::Webhook {
        url: app.url("/portal/admin/webhook"),
        secret: secret.to_owned(),
    });
    serve_reference_cms(listener, settings);
    (app, cms)
}
