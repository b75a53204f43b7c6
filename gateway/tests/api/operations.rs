//! Health, readiness, request ids, config errors, and the secret staying secret.

use std::{process::Stdio, time::Duration};

use tokio::{io::AsyncReadExt, process::Command};

use crate::helpers::*;

const BIN: &str = env!("CARGO_BIN_EXE_portal-gateway");

#[tokio::test]
async fn health_and_readiness() {
    let app = spawn_with_reference_cms().await;
    assert_eq!(app.get("/healthz").await.status(), 200);
    let (status, body) = app.get_json("/readyz").await;
    assert_eq!(status, 200, "{body}");

    assert_eq!(body["result"]["status"], "ready");
    let (status, body) = app.get_json("/readyz?upstream=1").await;
    assert_eq!(
        (status.as_u16(), &body["result"]["upstream"]),
        (200, &serde_json::json!("up"))
    );

    // The CMS away: still ready (the cache carries the site); the operator's probe says so.
    let down = spawn_app(config_for("http://127.0.0.1:9/", &static_dir(), |_| {})).await;
    assert_eq!(down.get("/healthz").await.status(), 200);
    let (status, body) = down.get_json("/readyz").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["upstream"], "unknown", "no call made yet");
    let (status, body) = down.get_json("/readyz?upstream=1").await;
    assert_eq!(status, 502, "{body}");
    let (_, body) = down.get_json("/readyz").await;
    assert_eq!(body["result"]["upstream"], "down");

    // Without the app's files the process cannot serve: not ready.
    let empty = tempfile::tempdir().unwrap();
    let bare = spawn_app(config_for("http://127.0.0.1:9/", empty.path(), |_| {})).await;
    let (status, body) = bare.get_json("/readyz").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_i64()),
        (503, Some(503)),
        "{body}"
    );
}

#[tokio::test]
async fn request_ids_are_set_and_kept() {
    let app = spawn_with_reference_cms().await;
    let id = |r: &reqwest::Response| r.headers()["x-request-id"].to_str().unwrap().to_owned();
    let first = id(&app.get("/portal/api/site").await);
    let second = id(&app.get("/portal/api/site").await);
    let shape = |s: &str| {
        s.len() == 25
            && s.as_bytes()[8] == b'-'
            && s.chars()
                .filter(|&c| c != '-')
                .all(|c| c.is_ascii_hexdigit())
    };
    assert!(shape(&first) && shape(&second), "{first} {second}");
    assert_ne!(first, second, "each request has its own id");
    assert_eq!(first[..8], second[..8], "one prefix per process");
    let response = app
        .client
        .get(app.url("/portal/api/nothing"))
        .header("x-request-id", "trace-abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-abc-123");
}

/// A port nothing listens on right now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The gateway binary on `file`, its output captured, killed when dropped.
fn spawn_gateway(file: &std::path::Path, env: &[(&str, String)]) -> tokio::process::Child {
    Command::new(BIN)
        .arg("--config")
        .arg(file)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap()
}

/// The gateway binary on a config file holding `config`, on a free port of loopback (`env`
/// added): the child, killed when dropped; its base URL; the folder holding the file, which
/// lives as long as it is kept.
fn spawn_gateway_on(
    config: &str,
    env: &[(&str, String)],
) -> (tokio::process::Child, String, tempfile::TempDir) {
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    std::fs::write(&file, config).unwrap();
    let mut env = env.to_vec();
    env.push(("PORTAL__SERVER__LISTEN", format!("127.0.0.1:{port}")));
    let child = spawn_gateway(&file, &env);
    (child, format!("http://127.0.0.1:{port}"), dir)
}

/// Sends SIGTERM and waits (at most 10 s) for the child to exit.
async fn terminate(child: &mut tokio::process::Child) -> std::process::ExitStatus {
    let pid = child.id().unwrap().to_string();
    Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("the gateway exits within 10 s of SIGTERM")
        .unwrap()
}

/// Everything a finished child wrote to one of its pipes.
async fn read_all(pipe: Option<impl tokio::io::AsyncRead + Unpin>) -> String {
    let mut text = String::new();
    pipe.expect("the pipe was captured")
        .read_to_string(&mut text)
        .await
        .unwrap();
    text
}

/// A child's log lines (stdout and stderr) as they come, for a test that waits for one.
#[derive(Clone, Default)]
struct Followed(std::sync::Arc<std::sync::Mutex<String>>);

impl Followed {
    fn of(child: &mut tokio::process::Child) -> Self {
        let followed = Self::default();
        let out = child
            .stdout
            .take()
            .map(|p| Box::pin(p) as std::pin::Pin<Box<dyn tokio::io::AsyncRead + Send>>);
        let err = child
            .stderr
            .take()
            .map(|p| Box::pin(p) as std::pin::Pin<Box<dyn tokio::io::AsyncRead + Send>>);
        for pipe in [out, err].into_iter().flatten() {
            let text = followed.0.clone();
            tokio::spawn(async move {
                use tokio::io::AsyncBufReadExt;
                let mut lines = tokio::io::BufReader::new(pipe).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    let mut text = text.lock().unwrap();
                    text.push_str(&line);
                    text.push('\n');
                }
            });
        }
        followed
    }

    /// How many lines so far hold `words`.
    fn count(&self, words: &str) -> usize {
        self.0
            .lock()
            .unwrap()
            .lines()
            .filter(|l| l.contains(words))
            .count()
    }
}

/// The body of a GET of `url`, as text.
async fn text_at(client: &reqwest::Client, url: &str) -> String {
    client.get(url).send().await.unwrap().text().await.unwrap()
}

/// Waits up to 5 s for `url` to answer at all; its status then.
async fn first_answer(client: &reqwest::Client, url: &str) -> Option<reqwest::StatusCode> {
    for _ in 0..100 {
        if let Ok(r) = client.get(url).send().await {
            return Some(r.status());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

async fn run_binary(config: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    std::fs::write(&file, config).unwrap();
    let env: Vec<(&str, String)> = env.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
    let mut child = spawn_gateway(&file, &env);
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
    let err = read_all(child.stderr.take()).await;
    (status.ok().and_then(|s| s.unwrap().code()), err)
}

const GOOD: &str = r#"
[upstream]
base_url = "http://127.0.0.1:8081/"
client_id = "a"
client_secret = "b"

[site]
company_name = "测试公司"
"#;

#[tokio::test]
async fn a_bad_config_stops_the_binary_naming_the_key() {
    let (code, err) = run_binary(&GOOD.replace("http://127.0.0.1:8081/", "not a url"), &[]).await;
    assert_ne!(code, Some(0));
    assert!(code.is_some(), "exits rather than hangs");
    assert!(err.contains("base_url"), "{err}");

    let (code, err) = run_binary(GOOD, &[("PORTAL__UPSTREAM__TIMEOUT", "forever")]).await;
    assert!(code.is_some_and(|c| c != 0));
    assert!(err.contains("timeout"), "{err}");

    let (code, err) = run_binary(GOOD, &[("PORTAL__SERVER__LISTEN", "999.0.0.1:80")]).await;
    assert!(code.is_some_and(|c| c != 0));
    assert!(err.contains("listen"), "{err}");

    let (code, err) = run_binary(GOOD, &[("PORTAL__RENDER__THREADS", "17")]).await;
    assert!(code.is_some_and(|c| c != 0));
    assert!(err.contains("render.threads"), "{err}");
}

#[tokio::test]
async fn environment_overrides_the_file_and_the_secret_never_reaches_a_log() {
    let cms = spawn_reference_cms().await;
    // The file names a wrong upstream and secret; the environment fixes both.
    let (mut child, base, _dir) = spawn_gateway_on(
        GOOD,
        &[
            ("PORTAL__UPSTREAM__BASE_URL", format!("http://{cms}/")),
            ("PORTAL__UPSTREAM__CLIENT_ID", CLIENT_ID.to_owned()),
            ("PORTAL__UPSTREAM__CLIENT_SECRET", CLIENT_SECRET.to_owned()),
            ("PORTAL__SERVER__LOG_FORMAT", "json".to_owned()),
            ("PORTAL__ADMIN__TOKEN", ADMIN_TOKEN.to_owned()),
            // Everything but the HTML parsers' per-character trace (a body of real length is tens of
            // thousands of lines, which the non-blocking writer drops rather than block on: the
            // access lines this test reads would go with them).
            (
                "RUST_LOG",
                "trace,html5ever=info,markup5ever=info".to_owned(),
            ),
        ],
    );
    let client = crate::helpers::client();
    let url = format!("{base}/portal/api/category/list");
    assert_eq!(
        first_answer(&client, &url).await,
        Some(reqwest::StatusCode::OK),
        "the environment's upstream and secret were used"
    );
    // Every kind of answer, kept to look for secrets in: content, errors, metrics, health,
    // the site settings, the admin endpoint with a wrong and a right token, a visitor token.
    let mut answers = String::new();
    let bearer = |token: &str| Some(format!("Bearer {token}"));
    for (method, path, token) in [
        ("GET", "/portal/api/article/detail?id=2101", None),
        ("GET", "/portal/api/article/detail?id=0", None),
        ("GET", "/portal/api/nothing", None),
        ("GET", "/portal/api/site", None),
        ("GET", "/readyz?upstream=1", None),
        ("GET", "/metrics", None),
        (
            "POST",
            "/portal/admin/cache/purge",
            bearer("wrong-token-of-some-length"),
        ),
        ("POST", "/portal/admin/cache/purge", bearer(ADMIN_TOKEN)),
        (
            "GET",
            "/portal/api/category/list",
            bearer("not-a-visitor-token"),
        ),
    ] {
        let mut request = client
            .request(method.parse().unwrap(), format!("{base}{path}"))
            .header("user-agent", "portal-test/1.0");
        if let Some(token) = token {
            request = request.header("authorization", token);
        }
        let response = request.send().await.unwrap();
        answers.push_str(&format!("{:?}", response.headers()));
        answers.push_str(&response.text().await.unwrap());
    }
    // SIGTERM: graceful shutdown, exit 0.
    assert!(
        terminate(&mut child).await.success(),
        "graceful shutdown exits 0"
    );
    let out = read_all(child.stdout.take()).await;
    let err = read_all(child.stderr.take()).await;
    let logs = out + &err;
    // One JSON access line per request, written out before exit (the non-blocking writer's queue
    // is flushed), with everything an operator's access log holds.
    let access = access_lines(&logs);
    let detail = access
        .iter()
        .find(|l| l["path"] == "/portal/api/article/detail" && l["query"] == "id=2101")
        .unwrap_or_else(|| panic!("an access line for the detail: {logs}"));
    assert_eq!(detail["method"], "GET");
    assert_eq!(detail["status"], 200);
    assert_eq!(detail["cache"], "MISS");
    assert_eq!(detail["client"], "127.0.0.1");
    assert_eq!(detail["user_agent"], "portal-test/1.0");
    assert!(
        detail["bytes"].as_u64().is_some_and(|b| b > 100),
        "{detail}"
    );
    assert!(detail["latency_ms"].as_f64().is_some(), "{detail}");
    assert!(detail["request_id"].as_str().is_some(), "{detail}");
    assert!(
        access.iter().any(|l| l["status"] == 404
            && l["path"] == "/portal/api/nothing"
            && l["error"].as_str().is_some_and(|e| !e.is_empty())),
        "a refused request's line says why: {logs}"
    );
    let encoded = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        format!("{CLIENT_ID}:{CLIENT_SECRET}"),
    );
    assert!(!logs.contains(CLIENT_SECRET), "secret in logs");
    assert!(!logs.contains(&encoded), "encoded credential in logs");
    assert!(!logs.contains(ADMIN_TOKEN), "admin token in logs");
    assert!(
        answers.contains("portal_requests_total"),
        "the metrics were read"
    );
    for secret in [CLIENT_SECRET, encoded.as_str(), ADMIN_TOKEN] {
        assert!(
            !answers.contains(secret),
            "{secret} in an answer or /metrics"
        );
    }
}

const ADMIN_TOKEN: &str = "admin-t0ken-never-printed-42";

/// The JSON access lines (and server-error warnings) among a process's log lines.
fn access_lines(logs: &str) -> Vec<serde_json::Value> {
    logs.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|l: &serde_json::Value| l["target"] == "portal_gateway::access")
        .collect()
}

#[tokio::test]
async fn sighup_reloads_the_config_file() {
    let cms = spawn_reference_cms().await;
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    let watched = |company: &str, watch: bool| {
        format!(
            "[server]\nlisten = \"127.0.0.1:{port}\"\nwatch_config = {watch}\n[upstream]\nbase_url = \"http://{cms}/\"\nclient_id = \"{CLIENT_ID}\"\nclient_secret = \"{CLIENT_SECRET}\"\n[site]\ncompany_name = \"{company}\"\n"
        )
    };
    let config = |company: &str| watched(company, false);
    std::fs::write(&file, config("甲公司")).unwrap();
    let mut child = spawn_gateway(&file, &[]);
    let logs = Followed::of(&mut child);
    // What the watcher logs of an edit it leaves for a signal.
    const UNWATCHED: &str = "server.watch_config is off";
    let client = crate::helpers::client();
    let url = format!("http://127.0.0.1:{port}/portal/api/site");
    assert_eq!(
        first_answer(&client, &url).await,
        Some(reqwest::StatusCode::OK)
    );
    let company = || async {
        let r = client.get(&url).send().await.ok()?;
        let body: serde_json::Value = r.json().await.ok()?;
        body["result"]["companyName"].as_str().map(str::to_owned)
    };
    assert_eq!(company().await.as_deref(), Some("甲公司"));

    std::fs::write(&file, config("乙公司")).unwrap();
    // File watching is off: the watcher sees the edit and leaves it.
    assert!(
        until(Duration::from_secs(10), || async {
            logs.count(UNWATCHED) == 1
        })
        .await,
        "the watcher saw the edit"
    );
    assert_eq!(company().await.as_deref(), Some("甲公司"));

    let pid = child.id().unwrap().to_string();
    Command::new("kill")
        .args(["-HUP", &pid])
        .status()
        .await
        .unwrap();
    let mut reloaded = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if company().await.as_deref() == Some("乙公司") {
            reloaded = true;
            break;
        }
    }
    assert!(reloaded, "SIGHUP reloaded the file");
    assert!(
        child.try_wait().unwrap().is_none(),
        "SIGHUP does not stop the gateway"
    );

    // A reload turns watching on: the next edit is read without a signal.
    let shows = |name: &'static str| async move {
        for _ in 0..60 {
            if company().await.as_deref() == Some(name) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        false
    };
    std::fs::write(&file, watched("丙公司", true)).unwrap();
    Command::new("kill")
        .args(["-HUP", &pid])
        .status()
        .await
        .unwrap();
    assert!(shows("丙公司").await, "SIGHUP read watch_config = true");
    std::fs::write(&file, watched("丁公司", true)).unwrap();
    assert!(shows("丁公司").await, "the watcher read the edit");
    // And an edit that turns it off is the last one read without a signal.
    std::fs::write(&file, watched("戊公司", false)).unwrap();
    assert!(
        shows("戊公司").await,
        "the watcher read the edit turning it off"
    );
    // (The edit turning watching on may have been seen before its signal: counted from here.)
    let before = logs.count(UNWATCHED);
    std::fs::write(&file, watched("己公司", false)).unwrap();
    assert!(
        until(Duration::from_secs(10), || async {
            logs.count(UNWATCHED) > before
        })
        .await,
        "the watcher saw the edit after watching was turned off"
    );
    assert_eq!(
        company().await.as_deref(),
        Some("戊公司"),
        "watch_config = false by a reload stops the watching"
    );
}

/// A reload that waits on the disk leaves every request served: here the reload reads
/// `upstream.client_secret_file`, which has become a pipe the test holds open without writing,
/// and the gateway has one async worker. `/healthz` and the API answer meanwhile, from the config
/// before; once the secret is written the reload lands. (Reloaded on the worker, as before
/// 5b63f07, every request waited for the reload: here, until the test gave up.)
#[tokio::test]
async fn a_reload_waiting_on_the_disk_keeps_no_request_waiting() {
    use std::os::unix::fs::OpenOptionsExt;
    /// Linux's `O_NONBLOCK`: a pipe opened to write without a reader fails rather than waits.
    const O_NONBLOCK: i32 = 0o4000;
    let cms = spawn_reference_cms().await;
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let (file, secret) = (dir.path().join("gateway.toml"), dir.path().join("secret"));
    std::fs::write(&secret, CLIENT_SECRET).unwrap();
    let config = |company: &str| {
        format!(
            "[server]\nlisten = \"127.0.0.1:{port}\"\nwatch_config = true\n[upstream]\nbase_url = \"http://{cms}/\"\nclient_id = \"{CLIENT_ID}\"\nclient_secret_file = \"{}\"\n[site]\ncompany_name = \"{company}\"\n",
            secret.display()
        )
    };
    std::fs::write(&file, config("甲公司")).unwrap();
    let _child = spawn_gateway(&file, &[("TOKIO_WORKER_THREADS", "1".to_owned())]);
    let client = crate::helpers::client_builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let site = format!("{base}/portal/api/site");
    assert_eq!(
        first_answer(&client, &site).await,
        Some(reqwest::StatusCode::OK)
    );
    let company = || async {
        let body: serde_json::Value = client.get(&site).send().await.ok()?.json().await.ok()?;
        body["result"]["companyName"].as_str().map(str::to_owned)
    };
    assert_eq!(company().await.as_deref(), Some("甲公司"));

    // The secret becomes a pipe; the edit starts a reload, which opens it and waits.
    std::fs::remove_file(&secret).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&secret)
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::write(&file, config("乙公司")).unwrap();
    let mut pipe = None;
    for _ in 0..200 {
        if let Ok(open) = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(O_NONBLOCK)
            .open(&secret)
        {
            pipe = Some(open);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut pipe = pipe.expect("the reload opened the secret file");
    // The reload now waits for the secret. The gateway serves on, from the config before.
    for _ in 0..5 {
        let health = client.get(format!("{base}/healthz")).send().await;
        assert_eq!(
            health.map(|h| h.status()).ok(),
            Some(reqwest::StatusCode::OK),
            "/healthz is answered while a reload waits"
        );
        assert_eq!(
            company().await.as_deref(),
            Some("甲公司"),
            "the API is answered while a reload waits, from the config before it"
        );
    }
    std::io::Write::write_all(&mut pipe, CLIENT_SECRET.as_bytes()).unwrap();
    drop(pipe);
    assert!(
        until(Duration::from_secs(10), || async {
            company().await.as_deref() == Some("乙公司")
        })
        .await,
        "the reload lands once it has read the secret"
    );
}

#[tokio::test]
async fn with_access_lines_off_only_server_errors_are_logged() {
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    // An upstream nobody listens on: the category list is a 502.
    std::fs::write(&file, GOOD.replace("8081", "9")).unwrap();
    let mut child = spawn_gateway(
        &file,
        &[
            ("PORTAL__SERVER__LISTEN", format!("127.0.0.1:{port}")),
            ("PORTAL__SERVER__LOG_FORMAT", "json".to_owned()),
            ("PORTAL__SERVER__ACCESS_LOG", "false".to_owned()),
            ("RUST_LOG", "info".to_owned()),
        ],
    );
    let client = crate::helpers::client();
    let base = format!("http://127.0.0.1:{port}");
    assert_eq!(
        first_answer(&client, &format!("{base}/healthz")).await,
        Some(reqwest::StatusCode::OK)
    );
    let failed = client
        .get(format!("{base}/portal/api/category/list"))
        .send()
        .await
        .unwrap();
    assert_eq!(failed.status(), 502);
    terminate(&mut child).await;
    let logs = read_all(child.stdout.take()).await;
    let access = access_lines(&logs);
    assert_eq!(access.len(), 1, "only the server error: {logs}");
    assert_eq!(access[0]["level"], "WARN");
    assert_eq!(access[0]["status"], 502);
    assert_eq!(access[0]["path"], "/portal/api/category/list");
}

#[tokio::test]
async fn sigterm_cuts_a_download_still_running_after_the_shutdown_time_out() {
    // A 20-s download (80 pieces, 250 ms apart); the gateway may drain for 1 s.
    let fake = FakeUpstream::start(Reply::Trickle {
        chunks: 80,
        gap: Duration::from_millis(250),
    })
    .await;
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    std::fs::write(
        &file,
        format!(
            "[server]\nlisten = \"127.0.0.1:{port}\"\nshutdown_timeout = \"1s\"\n[upstream]\nbase_url = \"{}\"\nclient_id = \"{CLIENT_ID}\"\nclient_secret = \"{CLIENT_SECRET}\"\ntimeout = \"2s\"\n[site]\ncompany_name = \"{COMPANY}\"\n",
            fake.base_url()
        ),
    )
    .unwrap();
    let mut child = spawn_gateway(&file, &[]);
    let client = crate::helpers::client();
    let health = format!("http://127.0.0.1:{port}/healthz");
    assert!(first_answer(&client, &health).await.is_some());
    let download = client
        .get(format!(
            "http://127.0.0.1:{port}/portal/api/files/videos/long.webm"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(download.status(), 200);
    // Within terminate's 10 s, far less than the download's 20 s.
    let status = terminate(&mut child).await;
    assert!(status.success(), "{status:?}");
    assert!(
        download.bytes().await.is_err(),
        "the cut download ends in an error, never a short file"
    );
    let err = read_all(child.stderr.take()).await;
    let out = read_all(child.stdout.take()).await;
    assert!(
        format!("{out}{err}").contains("server.shutdown_timeout"),
        "the cut is logged: {out}{err}"
    );
}

/// A connection from `source` (a loopback address of its own) to `port`.
async fn connect_from(source: &str, port: u16) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(format!("{source}:0").parse().unwrap())?;
    socket
        .connect(format!("127.0.0.1:{port}").parse().unwrap())
        .await
}

/// Whether the gateway closed `stream`: a read ends (0 bytes or an error) within `within`.
async fn closed_within(stream: &mut tokio::net::TcpStream, within: Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            // The server's HTTP/2 settings: read on.
            Ok(Ok(_)) => continue,
        }
    }
}

/// The gateway binary at a descriptor limit of 256 (`prlimit`), on a free port, with no CMS, a
/// first-byte time-out of 1 s and an idle one of 2 s, and `limits` (a `[limits]` table): its port,
/// the child (killed when dropped) and the folder of its config.
fn gateway_at_256_descriptors(limits: &str) -> (u16, tokio::process::Child, tempfile::TempDir) {
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    std::fs::write(
        &file,
        format!(
            "[server]\nlisten = \"127.0.0.1:{port}\"\nwatch_config = false\naccess_log = false\nfirst_byte_timeout = \"1s\"\nidle_timeout = \"2s\"\n{limits}[upstream]\nbase_url = \"http://127.0.0.1:9/\"\nclient_id = \"{CLIENT_ID}\"\nclient_secret = \"{CLIENT_SECRET}\"\n[site]\ncompany_name = \"甲公司\"\n"
        ),
    )
    .unwrap();
    let child = Command::new("prlimit")
        .arg("--nofile=256:256")
        .arg(BIN)
        .arg("--config")
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    (port, child, dir)
}

#[tokio::test]
async fn silent_and_idle_connections_are_closed_and_a_visitor_is_served_throughout() {
    use tokio::io::AsyncWriteExt;
    // A low descriptor limit, as a small container has: 1 000 silent connections would take
    // every descriptor if each were accepted and kept.
    let (port, mut child, _dir) =
        gateway_at_256_descriptors("[limits]\nmax_connections_per_client = 64\n");
    let client = crate::helpers::client_builder()
        .timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    let health = format!("http://127.0.0.1:{port}/healthz");
    assert_eq!(
        first_answer(&client, &health).await,
        Some(reqwest::StatusCode::OK)
    );

    // 1 000 connections that never send a byte, from one address, and 50 HTTP/2 connections
    // from another that send their preface and settings, then nothing.
    let mut silent = Vec::new();
    for _ in 0..1000 {
        if let Ok(stream) = connect_from("127.0.0.2", port).await {
            silent.push(stream);
        }
    }
    let mut prefaced = Vec::new();
    for _ in 0..50 {
        let mut stream = connect_from("127.0.0.3", port).await.unwrap();
        stream
            .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0")
            .await
            .unwrap();
        prefaced.push(stream);
    }
    // A visitor from a third address is served all along.
    for _ in 0..10 {
        let answer = client.get(&health).send().await;
        assert!(
            answer.as_ref().is_ok_and(|r| r.status() == 200),
            "/healthz while the connections are open: {answer:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Every silent one closed (the first 64 after the first-byte time-out, the others at once),
    // every HTTP/2 one after the idle time-out.
    let mut open = 0;
    for stream in silent.iter_mut().chain(prefaced.iter_mut()) {
        if !closed_within(stream, Duration::from_secs(4)).await {
            open += 1;
        }
    }
    assert_eq!(open, 0, "connections left open");
    assert_eq!(client.get(&health).send().await.unwrap().status(), 200);
    assert!(child.try_wait().unwrap().is_none(), "the gateway lives");
    let metrics = text_at(&client, &format!("http://127.0.0.1:{port}/metrics")).await;
    for reason in ["silent", "idle", "per_client"] {
        assert!(
            metrics.contains(&format!(
                "portal_connections_closed_total{{reason=\"{reason}\"}}"
            )),
            "{reason} in\n{metrics}"
        );
    }
}

/// Connections that are never silent long enough to be closed (a keep-alive request every half
/// second, reconnecting when closed), from eight addresses within their per-address share, at a
/// descriptor limit of 256: the cap (what the limit leaves, 64 here) closes the one idle longest
/// to let a new one in, so a health check is answered throughout (it failed 37 of 39 times).
#[tokio::test]
async fn connections_that_are_never_silent_cannot_take_every_descriptor() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (port, mut child, _dir) = gateway_at_256_descriptors(
        "[limits]\nmax_connections_per_client = 64\nper_client_per_second = 100000\nper_client_burst = 100000\n",
    );
    // A new connection for each check, as a prober makes.
    let client = crate::helpers::client_builder()
        .timeout(Duration::from_secs(2))
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let health = format!("http://127.0.0.1:{port}/healthz");
    assert_eq!(
        first_answer(&client, &health).await,
        Some(reqwest::StatusCode::OK)
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut pingers = Vec::new();
    for n in 0..8 * 60 {
        let source = format!("127.0.0.{}", 2 + n % 8);
        let stop = stop.clone();
        pingers.push(tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let Ok(mut stream) = connect_from(&source, port).await else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                loop {
                    if stream
                        .write_all(b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
                        .await
                        .is_err()
                        || !matches!(
                            tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buf)).await,
                            Ok(Ok(n)) if n > 0
                        )
                        || stop.load(std::sync::atomic::Ordering::Relaxed)
                    {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut answered = 0;
    for _ in 0..15 {
        if client
            .get(&health)
            .send()
            .await
            .is_ok_and(|r| r.status() == 200)
        {
            answered += 1;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for pinger in pingers {
        pinger.abort();
    }
    assert_eq!(answered, 15, "/healthz answered {answered} of 15 times");
    assert!(child.try_wait().unwrap().is_none(), "the gateway lives");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let metrics = text_at(&client, &format!("http://127.0.0.1:{port}/metrics")).await;
    assert!(
        metrics.contains("portal_connections_closed_total{reason=\"evicted\"}"),
        "{metrics}"
    );
}

/// The query credential of the echoing CMS below.
const QUERY_KEY: &str = "q-key-never-printed-4711";

/// A CMS that repeats the URL it was called at (credential included) in its error message, in
/// Chinese (so a visitor would be shown it), with escape sequences.
fn echoing_cms(path: &str, query: &str) -> Reply {
    let _ = path;
    Reply::Json(
        500,
        serde_json::json!({"code": 500, "msg": format!("数据库异常：GET {path}?{query} 失败\u{1b}]0;owned\u{7}\r\n")}),
    )
}

#[tokio::test]
async fn a_cms_echoing_its_query_credential_puts_it_in_no_log_answer_or_metric() {
    let cms = FakeUpstream::start(Reply::Route(echoing_cms)).await;
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gateway.toml");
    std::fs::write(
        &file,
        format!(
            "[server]\nlisten = \"127.0.0.1:{port}\"\nwatch_config = false\nlog_format = \"json\"\n[upstream]\nbase_url = \"{}\"\nauth = \"query\"\nauth_name = \"key\"\nclient_secret = \"{QUERY_KEY}\"\n[site]\ncompany_name = \"甲公司\"\n[admin]\ntoken = \"{ADMIN_TOKEN}\"\nwebhook_secret = \"webhook-s3cret-never-printed\"\n",
            cms.base_url()
        ),
    )
    .unwrap();
    let mut child = spawn_gateway(&file, &[]);
    let client = crate::helpers::client();
    let base = format!("http://127.0.0.1:{port}");
    assert!(
        first_answer(&client, &format!("{base}/healthz"))
            .await
            .is_some()
    );
    let mut answers = String::new();
    for path in [
        "/portal/api/category/list",
        "/portal/api/article/detail?id=7",
        "/portal/",
        "/readyz?upstream=1",
        "/metrics",
    ] {
        let response = client.get(format!("{base}{path}")).send().await.unwrap();
        answers.push_str(&response.text().await.unwrap());
    }
    assert!(
        cms.seen().iter().any(|s| s.query.contains(QUERY_KEY)),
        "the credential went to the CMS"
    );
    terminate(&mut child).await;
    let logs = read_all(child.stdout.take()).await + &read_all(child.stderr.take()).await;
    assert!(
        logs.contains("数据库异常"),
        "the CMS's message is logged: {logs}"
    );
    for secret in [QUERY_KEY, ADMIN_TOKEN, "webhook-s3cret-never-printed"] {
        assert!(!logs.contains(secret), "{secret} in the logs:\n{logs}");
        assert!(
            !answers.contains(secret),
            "{secret} in an answer:\n{answers}"
        );
    }
    assert!(
        !logs.contains('\u{1b}') && !answers.contains('\u{1b}'),
        "an escape sequence passed"
    );
    // The CMS answering 500 to everything is down, as its own /metrics says.
    assert!(answers.contains("portal_upstream_up 0"), "{answers}");
}

/// A gateway process of its own (its `/metrics` reached by no other test's pages) in front of
/// reference-cms, rendering the real app build with 5 s a render, open limits and `extra`; it
/// answers before this returns.
async fn spawn_page_gateway(extra: &str) -> (tokio::process::Child, String, tempfile::TempDir) {
    let cms = spawn_reference_cms().await;
    // What these tests count is renders, not their time: the most the config allows (a clean
    // clone's CI once saw the first home page here run past 5 s, render threads being at nice +10
    // beside a compilation, and get the app shell).
    let extra = format!("[render]\ntimeout = \"10s\"\n{extra}{OPEN_LIMITS_TOML}");
    let config = config_toml(&format!("http://{cms}/"), &app_build_dir(), &extra);
    let (child, base, dir) = spawn_gateway_on(&config, &[]);
    let client = crate::helpers::client();
    assert!(
        first_answer(&client, &format!("{base}/healthz"))
            .await
            .is_some()
    );
    // Asked once ready (its render engines built), as a load balancer would: amid the whole suite
    // the first home page asked before then was once the app shell (twice on 2026-12-07, with a
    // 5 s and a 10 s budget; never alone). The first page after a start has a test of its own.
    for _ in 0..600 {
        if client
            .get(format!("{base}/readyz"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (child, base, dir)
}

/// A page is rendered once: the loader of each kind of page names all it reads before React
/// renders (`frontend/src/app/page-loads.ts`), so `portal_page_renders_total` grows by one a page.
/// Counted in a gateway process of its own, whose `/metrics` no other test's pages reach.
#[tokio::test]
async fn every_kind_of_page_is_rendered_once() {
    let (_child, base, _dir) = spawn_page_gateway("").await;
    let client = crate::helpers::client();
    let pages = [
        ("/portal/", 200),
        ("/portal/news_center", 200),
        ("/portal/news_center/notice", 200),
        ("/portal/news_center/notice?page=2", 200),
        ("/portal/news_center/notice?page=999", 404),
        ("/portal/about/company_profile", 200),
        ("/portal/business/China-Europe_train", 200),
        ("/portal/article/2101", 200),
        ("/portal/article/99999999", 404),
        ("/portal/party/detail?id=2101", 200),
        ("/portal/search?q=%E7%8F%AD%E5%88%97", 200),
        ("/portal/sitemap", 200),
        ("/portal/contact", 200),
        ("/portal/no_such_page", 404),
    ];
    for (path, status) in pages {
        let response = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{path}");
        let html = response.text().await.unwrap();
        assert!(
            html.contains(STATE_OPEN),
            "{path} was rendered: {html:.1500}"
        );
    }
    let metrics = text_at(&client, &format!("{base}/metrics")).await;
    let count = |name: &str| {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .map_or(0, |v| v.trim().parse::<f64>().unwrap() as usize)
    };
    assert_eq!(
        count("portal_page_renders_total"),
        pages.len(),
        "one React render a page"
    );
}

/// A page rendered before is given what it read then at once: one call of the render pool, where
/// its first render took a round of asking per level (the tree, a list, an article's related
/// list). The cache is off, so every request renders; counted from the process's own `/metrics`.
#[tokio::test]
async fn a_page_rendered_again_is_one_call_of_the_render_pool() {
    let (_child, base, _dir) = spawn_page_gateway("[cache]\nenabled = false\n").await;
    let client = crate::helpers::client();
    let pages = [
        "/portal/",
        "/portal/news_center/notice?page=2",
        "/portal/article/2101",
        "/portal/party/detail?id=2101",
        "/portal/search?q=%E7%8F%AD%E5%88%97",
    ];
    let calls = || async {
        let metrics = text_at(&client, &format!("{base}/metrics")).await;
        metrics
            .lines()
            .find_map(|l| {
                l.strip_prefix("portal_render_duration_seconds_count ")?
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(0, |v| v as usize)
    };
    let mut firsts = Vec::new();
    for round in 0..2 {
        let before = calls().await;
        for path in pages {
            let html = text_at(&client, &format!("{base}{path}")).await;
            // The markup, without the state block (its answers carry the time they were taken).
            let (page, _) = html
                .split_once(STATE_OPEN)
                .unwrap_or_else(|| panic!("{path} was rendered: {html:.1500}"));
            if round == 0 {
                firsts.push(page.to_owned());
            } else {
                assert_eq!(page, firsts.remove(0), "{path}: the same page both times");
            }
        }
        let made = calls().await - before;
        if round == 0 {
            assert!(
                made > pages.len(),
                "the first renders ask in rounds: {made} calls"
            );
        } else {
            assert_eq!(made, pages.len(), "one call a page rendered again");
        }
    }
}

/// The first page after a start is rendered, never the app shell: a call that waited for its
/// thread's engine to be built is timed from then, and `/readyz` says ready only once an engine
/// is there. Ten starts, each asked for the home page the moment it answers at all.
#[tokio::test]
async fn the_first_page_after_a_start_is_rendered() {
    let cms = spawn_reference_cms().await;
    let config = config_toml(
        &format!("http://{cms}/"),
        &app_build_dir(),
        OPEN_LIMITS_TOML,
    );
    let client = crate::helpers::client();
    for start in 0..10 {
        let (mut child, base, _dir) = spawn_gateway_on(&config, &[]);
        let mut first = None;
        for _ in 0..200 {
            if let Ok(response) = client.get(format!("{base}/portal/")).send().await {
                first = Some(response);
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let first = first.expect("the gateway answers within 2 s of its start");
        assert_eq!(first.status(), 200, "start {start}");
        let html = first.text().await.unwrap();
        assert!(
            html.contains(STATE_OPEN),
            "start {start}: the first home page is the app shell: {html:.1500}"
        );
        let (status, body) = {
            let r = client.get(format!("{base}/readyz")).send().await.unwrap();
            (r.status(), r.text().await.unwrap())
        };
        assert_eq!(status, 200, "ready once a page was rendered: {body}");
        terminate(&mut child).await;
    }
}

/// A replica whose Redis is down from the start says so on `/metrics` (`portal_shared_cache_up 0`,
/// which the PortalSharedCacheDown alert watches), not by leaving the gauge out.
#[tokio::test]
async fn a_shared_tier_down_at_start_is_reported_down() {
    let dead = free_port();
    let config = config_toml(
        "http://127.0.0.1:9/",
        &static_dir(),
        &format!("[cache.shared]\nurl = \"redis://127.0.0.1:{dead}/\"\n"),
    );
    let (_child, base, _dir) = spawn_gateway_on(&config, &[]);
    let client = crate::helpers::client();
    assert!(
        first_answer(&client, &format!("{base}/healthz"))
            .await
            .is_some()
    );
    let metrics = client
        .get(format!("{base}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.lines().any(|l| l == "portal_shared_cache_up 0"),
        "{metrics}"
    );
}
