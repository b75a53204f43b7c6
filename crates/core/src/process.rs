//! The process's own figures under the names every Prometheus client library gives them
//! (`process_resident_memory_bytes`, `process_cpu_seconds_total`, `process_open_fds`,
//! `process_max_fds`, `process_start_time_seconds`), read from `/proc/self` when `/metrics` is
//! scraped: a few small file reads per scrape, nothing on a request's path. Read here rather than
//! through the `metrics-process` crate to add no dependency for five numbers; off Linux they are
//! simply absent.

use std::sync::OnceLock;

/// Clock ticks per second of `/proc`'s times (`USER_HZ`): 100 on every architecture Linux
/// reports to user space.
const TICKS: f64 = 100.0;

pub fn record() {
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        for (field, name) in [
            ("VmRSS:", "process_resident_memory_bytes"),
            ("VmSize:", "process_virtual_memory_bytes"),
        ] {
            if let Some(kib) = kib_of(&status, field) {
                metrics::gauge!(name).set(kib * 1024.0);
            }
        }
    }
    if let Some(stat) = stat() {
        // Whole seconds: the `metrics` crate's counters are integers (a rate over minutes is
        // still fine-grained enough for a dashboard).
        metrics::counter!("process_cpu_seconds_total").absolute(stat.cpu_ticks / TICKS as u64);
        if let Some(start) = start_time(stat.start_ticks) {
            metrics::gauge!("process_start_time_seconds").set(start);
        }
    }
    if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
        metrics::gauge!("process_open_fds").set(fds.count() as f64);
    }
    if let Some(max) = max_fds() {
        metrics::gauge!("process_max_fds").set(max);
    }
}

fn kib_of(status: &str, field: &str) -> Option<f64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

struct Stat {
    cpu_ticks: u64,
    start_ticks: u64,
}

/// `/proc/self/stat`: utime and stime (fields 14 and 15), starttime (22). The command name
/// (field 2) may hold spaces and parentheses, so fields are counted after its last `)`.
fn stat() -> Option<Stat> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3.
    let field = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    Some(Stat {
        cpu_ticks: field(14)? + field(15)?,
        start_ticks: field(22)?,
    })
}

/// The start time since the epoch: the boot time (`btime` of `/proc/stat`) plus the start's
/// ticks since boot; read once, it does not change.
fn start_time(start_ticks: u64) -> Option<f64> {
    static START: OnceLock<Option<f64>> = OnceLock::new();
    *START.get_or_init(|| {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let boot: f64 = stat
            .lines()
            .find_map(|line| line.strip_prefix("btime "))?
            .trim()
            .parse()
            .ok()?;
        Some(boot + start_ticks as f64 / TICKS)
    })
}

fn max_fds() -> Option<f64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_figures_are_read_from_proc() {
        let stat = stat().expect("/proc/self/stat reads");
        let start = start_time(stat.start_ticks).expect("a start time");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64();
        assert!(
            start <= now + 1.0 && start > now - 86_400.0 * 365.0,
            "{start} {now}"
        );
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        assert!(kib_of(&status, "VmRSS:").unwrap() > 100.0);
        assert!(max_fds().unwrap() >= 64.0);
    }
}
