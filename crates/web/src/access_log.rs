//! The access log's writer: one line per answered request, formatted here into a shared block
//! and handed to the log's non-blocking writer (tracing-appender, `telemetry`) a block at a
//! time — when 32 KiB are full, every 250 ms, and at shutdown.
//!
//! Hand-written rather than a `tracing::info!` event because the event was the dearest part of a
//! cache hit: through the tracing fmt layer (field visitors, a timestamp formatted per line, a
//! buffer allocated and sent to the writer thread per line) the cached category list went from
//! 78–88k to 52–64k requests/s, 25–35 % (wrk, one core, this machine, 2026-11-22); the target was
//! 15 %. Here a line is a few copies into a buffer that is already there, the timestamp's
//! seconds are formatted once a second, and the writer thread gets one message per block. The
//! figures after the change are in docs/performance.md (scene 1). Server errors still go through
//! `tracing` at WARN (`observe`), where filters and alerting look for them.

use std::{
    io::Write,
    net::IpAddr,
    sync::{Mutex, OnceLock},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use tracing_appender::non_blocking::NonBlocking;

use crate::config::LogFormat;

/// Bytes gathered before a block goes to the writer thread.
const BLOCK: usize = 32 * 1024;
/// Longest a line waits in a block that is not full.
pub const FLUSH_EVERY: Duration = Duration::from_millis(250);

/// One access line's values, borrowed from the request and response.
pub struct Line<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub status: u16,
    pub bytes: Option<u64>,
    pub latency: Duration,
    pub cache: Option<&'a str>,
    pub client: IpAddr,
    pub forwarded_for: Option<&'a str>,
    pub user_agent: Option<&'a str>,
    pub request_id: Option<&'a str>,
    /// The request span's trace id, with traces on (`traces`), to find its trace.
    pub trace_id: Option<&'a str>,
    /// What went wrong, for an answer that is an error (written as its message).
    pub error: Option<&'a dyn std::fmt::Display>,
}

struct Writer {
    format: LogFormat,
    out: NonBlocking,
    block: Mutex<Block>,
}

struct Block {
    bytes: Vec<u8>,
    /// The second `stamp` was written for, and `YYYY-MM-DDTHH:MM:SS` of it.
    second: u64,
    stamp: [u8; 19],
}

static WRITER: OnceLock<Writer> = OnceLock::new();

/// Sends access lines to `out` from now on (`telemetry::init`; once per process).
pub fn install(format: LogFormat, out: NonBlocking) {
    let _ = WRITER.set(Writer {
        format,
        out,
        block: Mutex::new(Block {
            bytes: Vec::with_capacity(BLOCK + 1024),
            second: u64::MAX,
            stamp: [b'0'; 19],
        }),
    });
}

/// Whether lines go anywhere (not in processes that did not install the writer, such as tests
/// that bring their own subscriber).
pub fn installed() -> bool {
    WRITER.get().is_some()
}

/// Adds one line; hands the block on when it is full.
pub fn write(line: &Line<'_>) {
    let Some(writer) = WRITER.get() else { return };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let mut block = writer.block.lock().unwrap_or_else(|p| p.into_inner());
    let block = &mut *block;
    if block.second != now.as_secs() {
        block.second = now.as_secs();
        block.stamp = stamp(now.as_secs());
    }
    let mut millis = itoa::Buffer::new();
    let millis = millis.format(1000 + now.subsec_millis());
    let time = [&block.stamp[..], b".", &millis.as_bytes()[1..], b"Z"];
    match writer.format {
        LogFormat::Json => json_line(&mut block.bytes, &time, line),
        LogFormat::Human => human_line(&mut block.bytes, &time, line),
    }
    if block.bytes.len() >= BLOCK {
        hand_on(writer, &mut block.bytes);
    }
}

/// Hands on what is gathered (the timer, and shutdown).
pub fn flush() {
    let Some(writer) = WRITER.get() else { return };
    let mut block = writer.block.lock().unwrap_or_else(|p| p.into_inner());
    if !block.bytes.is_empty() {
        hand_on(writer, &mut block.bytes);
    }
}

fn hand_on(writer: &Writer, bytes: &mut Vec<u8>) {
    // NonBlocking queues the block for its thread (or drops and counts it when the queue is
    // full); it never blocks here.
    let _ = writer.out.clone().write_all(bytes);
    bytes.clear();
}

fn json_line(out: &mut Vec<u8>, time: &[&[u8]; 4], line: &Line<'_>) {
    out.extend_from_slice(b"{\"timestamp\":\"");
    time.iter().for_each(|part| out.extend_from_slice(part));
    out.extend_from_slice(
        b"\",\"level\":\"INFO\",\"message\":\"answered\",\"target\":\"portal_gateway::access\",\"method\":",
    );
    string(out, line.method);
    out.extend_from_slice(b",\"path\":");
    string(out, line.path);
    if let Some(query) = line.query {
        out.extend_from_slice(b",\"query\":");
        string(out, query);
    }
    out.extend_from_slice(b",\"status\":");
    number(out, line.status);
    if let Some(bytes) = line.bytes {
        out.extend_from_slice(b",\"bytes\":");
        number(out, bytes);
    }
    out.extend_from_slice(b",\"latency_ms\":");
    latency(out, line.latency);
    let optional = [
        ("cache", line.cache),
        ("forwarded_for", line.forwarded_for),
        ("user_agent", line.user_agent),
        ("request_id", line.request_id),
        ("trace_id", line.trace_id),
    ];
    out.extend_from_slice(b",\"client\":\"");
    let _ = write!(out, "{}", line.client);
    out.push(b'"');
    for (name, value) in optional {
        if let Some(value) = value {
            out.extend_from_slice(b",\"");
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b"\":");
            string(out, value);
        }
    }
    if let Some(error) = line.error {
        out.extend_from_slice(b",\"error\":");
        string(out, &portal_core::redact::redact(&error.to_string()));
    }
    out.extend_from_slice(b"}\n");
}

fn human_line(out: &mut Vec<u8>, time: &[&[u8]; 4], line: &Line<'_>) {
    time.iter().for_each(|part| out.extend_from_slice(part));
    out.extend_from_slice(b"  INFO answered method=");
    out.extend_from_slice(line.method.as_bytes());
    out.extend_from_slice(b" path=");
    string(out, line.path);
    if let Some(query) = line.query {
        out.extend_from_slice(b" query=");
        string(out, query);
    }
    out.extend_from_slice(b" status=");
    number(out, line.status);
    if let Some(bytes) = line.bytes {
        out.extend_from_slice(b" bytes=");
        number(out, bytes);
    }
    out.extend_from_slice(b" latency_ms=");
    latency(out, line.latency);
    if let Some(cache) = line.cache {
        out.extend_from_slice(b" cache=");
        out.extend_from_slice(cache.as_bytes());
    }
    let _ = write!(out, " client={}", line.client);
    for (name, value) in [
        ("forwarded_for", line.forwarded_for),
        ("user_agent", line.user_agent),
        ("request_id", line.request_id),
        ("trace_id", line.trace_id),
    ] {
        if let Some(value) = value {
            out.push(b' ');
            out.extend_from_slice(name.as_bytes());
            out.push(b'=');
            string(out, value);
        }
    }
    if let Some(error) = line.error {
        out.extend_from_slice(b" error=");
        string(out, &portal_core::redact::redact(&error.to_string()));
    }
    out.push(b'\n');
}

/// A JSON string: quoted and escaped, so no header a client sends can break a line or forge one.
fn string(out: &mut Vec<u8>, value: &str) {
    let _ = serde_json::to_writer(&mut *out, value);
}

fn number(out: &mut Vec<u8>, value: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// Milliseconds with three decimals (microseconds).
fn latency(out: &mut Vec<u8>, latency: Duration) {
    let micros = latency.as_micros() as u64;
    number(out, micros / 1000);
    out.push(b'.');
    let mut fraction = itoa::Buffer::new();
    let fraction = fraction.format(1000 + micros % 1000);
    out.extend_from_slice(&fraction.as_bytes()[1..]);
}

/// `YYYY-MM-DDTHH:MM:SS` of a Unix time, in UTC.
fn stamp(unix_seconds: u64) -> [u8; 19] {
    let time = chrono::DateTime::<chrono::Utc>::from_timestamp(unix_seconds as i64, 0)
        .unwrap_or_default()
        .format("%Y-%m-%dT%H:%M:%S")
        .to_string();
    let mut stamp = [b'0'; 19];
    stamp.copy_from_slice(&time.as_bytes()[..19]);
    stamp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line<'a>(user_agent: Option<&'a str>) -> Line<'a> {
        Line {
            method: "GET",
            path: "/portal/api/article/detail",
            query: Some("id=2101"),
            status: 200,
            bytes: Some(1677),
            latency: Duration::from_micros(1_234),
            cache: Some("HIT"),
            client: IpAddr::from([10, 0, 0, 7]),
            forwarded_for: None,
            user_agent,
            request_id: Some("abc-1"),
            trace_id: None,
            error: None,
        }
    }

    const TIME: [&[u8]; 4] = [b"2026-11-22T15:19:23", b".", b"007", b"Z"];

    #[test]
    fn a_json_line_is_one_object_with_every_field() {
        let mut out = Vec::new();
        json_line(&mut out, &TIME, &line(Some("Mozilla/5.0 \"x\"\n{forged}")));
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1, "one line");
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["timestamp"], "2026-11-22T15:19:23.007Z");
        assert_eq!(value["target"], "portal_gateway::access");
        assert_eq!(value["query"], "id=2101");
        assert_eq!(value["bytes"], 1677);
        assert_eq!(value["latency_ms"], 1.234);
        assert_eq!(value["client"], "10.0.0.7");
        assert_eq!(value["user_agent"], "Mozilla/5.0 \"x\"\n{forged}");
        assert!(value.get("forwarded_for").is_none());
        assert_eq!(value["request_id"], "abc-1");
        assert!(value.get("trace_id").is_none(), "only with traces on");

        let mut out = Vec::new();
        let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
        json_line(
            &mut out,
            &TIME,
            &Line {
                trace_id: Some(trace_id),
                ..line(None)
            },
        );
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["trace_id"], trace_id);

        let mut out = Vec::new();
        let error = "参数 id 无效";
        json_line(
            &mut out,
            &TIME,
            &Line {
                error: Some(&error),
                ..line(None)
            },
        );
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["error"], "参数 id 无效");
    }

    #[test]
    fn a_human_line_escapes_what_the_client_sent() {
        let mut out = Vec::new();
        human_line(&mut out, &TIME, &line(Some("evil\n2026-01-01 INFO forged")));
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with("2026-11-22T15:19:23.007Z  INFO answered method=GET path="));
        assert!(
            text.contains(" status=200 bytes=1677 latency_ms=1.234 cache=HIT client=10.0.0.7 ")
        );
        assert!(
            text.contains(r#"user_agent="evil\n2026-01-01 INFO forged""#),
            "{text}"
        );
    }

    #[test]
    fn the_stamp_is_utc() {
        assert_eq!(&stamp(0), b"1970-01-01T00:00:00");
        assert_eq!(&stamp(1_795_361_963), b"2026-11-22T15:39:23");
    }
}
