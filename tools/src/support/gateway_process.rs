//! The gateway's release binary as a process of its own, for the examples that run it as
//! production does (`soak.rs`, `hostile.rs`): started on a config file, its log to a file, and
//! what `/proc` says of it.

use std::{
    path::{Path, PathBuf},
    process::Stdio,
    time::Duration,
};

/// Starts `binary` on `config` (written to `work/gateway.toml`), stdout and stderr to `log`,
/// `RUST_LOG` unset so the config's level holds; killed when dropped.
pub fn start(binary: &Path, work: &Path, config: &str, log: &Path) -> tokio::process::Child {
    let path: PathBuf = work.join("gateway.toml");
    std::fs::write(&path, config).expect("gateway config");
    let log = std::fs::File::create(log).expect("gateway log");
    tokio::process::Command::new(binary)
        .arg("--config")
        .arg(&path)
        .env_remove("RUST_LOG")
        .stdout(Stdio::from(log.try_clone().expect("log")))
        .stderr(Stdio::from(log))
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", binary.display()))
}

/// Waits (up to 10 s) for `/readyz` at `base` to answer 200.
pub async fn wait_ready(client: &reqwest::Client, base: &str) {
    for _ in 0..200 {
        if let Ok(r) = client.get(format!("{base}/readyz")).send().await
            && r.status() == 200
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the gateway never became ready at {base}");
}

/// A `kB` line of `/proc/<pid>/status` (`"VmRSS:"`, `"VmHWM:"`), 0 when unreadable.
pub fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
