//! Publication times as the public API gives them: `yyyy-MM-dd HH:mm:ss` in China time
//! (UTC+8, no daylight saving), whatever the CMS wrote.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime};
use serde_json::Value;

const PUBLIC: &str = "%Y-%m-%d %H:%M:%S";

fn china() -> FixedOffset {
    FixedOffset::east_opt(8 * 3600).expect("UTC+8 is a valid offset")
}

/// Epoch numbers above this are milliseconds (it is 2286 in seconds).
const MILLIS_FROM: i64 = 10_000_000_000;

/// The time in the public form, or `None` when `value` is no time this knows: epoch seconds
/// or milliseconds (numbers or numeric strings), ISO 8601 / RFC 3339 with an offset or `Z`,
/// `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-ddTHH:mm:ss` without one (taken as China time), or a
/// date alone (midnight).
pub fn normalise_time(value: &Value) -> Option<String> {
    let epoch = match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    };
    if let Some(epoch) = epoch {
        let at = if epoch >= MILLIS_FROM {
            DateTime::from_timestamp_millis(epoch)?
        } else {
            DateTime::from_timestamp(epoch, 0)?
        };
        return Some(at.with_timezone(&china()).format(PUBLIC).to_string());
    }
    let text = value.as_str()?.trim();
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Some(at.with_timezone(&china()).format(PUBLIC).to_string());
    }
    for format in [
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y/%m/%d %H:%M:%S",
    ] {
        if let Ok(at) = NaiveDateTime::parse_from_str(text, format) {
            return Some(at.format(PUBLIC).to_string());
        }
    }
    // Fractions of a second without an offset.
    if let Some((whole, _)) = text.split_once('.')
        && let Ok(at) = NaiveDateTime::parse_from_str(whole, "%Y-%m-%dT%H:%M:%S")
    {
        return Some(at.format(PUBLIC).to_string());
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok().map(|d| {
        d.and_hms_opt(0, 0, 0)
            .expect("midnight")
            .format(PUBLIC)
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_form_becomes_china_time() {
        let want = "2026-11-12 09:30:00";
        for value in [
            json!("2026-11-12 09:30:00"),
            json!("2026-11-12T09:30:00"),
            json!("2026-11-12T09:30:00+08:00"),
            json!("2026-11-12T01:30:00Z"),
            json!("2026-11-12T01:30:00.250Z"),
            json!("2026-11-11T20:30:00-05:00"),
            json!(1_794_447_000),
            json!("1794447000"),
            json!(1_794_447_000_000_i64),
        ] {
            assert_eq!(normalise_time(&value).as_deref(), Some(want), "{value}");
        }
        assert_eq!(
            normalise_time(&json!("2026-11-12")).as_deref(),
            Some("2026-11-12 00:00:00")
        );
    }

    #[test]
    fn anything_else_is_not_a_time() {
        for value in [
            json!("yesterday"),
            json!(""),
            json!(true),
            json!({"at": 1}),
            json!(null),
        ] {
            assert_eq!(normalise_time(&value), None, "{value}");
        }
    }
}
