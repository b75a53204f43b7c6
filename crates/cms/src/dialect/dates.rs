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
    normalise_time_in(value, china())
}

/// The zone `dialect.time_zone` names: `Asia/Shanghai` (and China's other names for UTC+8),
/// `UTC`, or a fixed offset (`+08:00`, `-05:00`). Zones with daylight saving are not offered:
/// their offset changes with the date.
pub fn zone_named(name: &str) -> Option<FixedOffset> {
    match name.trim() {
        "Asia/Shanghai" | "Asia/Chongqing" | "Asia/Harbin" | "Asia/Urumqi" | "PRC"
        | "Asia/Hong_Kong" | "Asia/Macau" | "Asia/Taipei" => Some(china()),
        "UTC" | "Etc/UTC" | "GMT" | "Z" => FixedOffset::east_opt(0),
        other => {
            let (sign, rest) = match other.as_bytes().first()? {
                b'+' => (1, &other[1..]),
                b'-' => (-1, &other[1..]),
                _ => return None,
            };
            let (h, m) = rest.split_once(':').unwrap_or((rest, "0"));
            let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
            if !(0..=14).contains(&h) || !(0..60).contains(&m) {
                return None;
            }
            FixedOffset::east_opt(sign * (h * 3600 + m * 60))
        }
    }
}

/// `normalise_time`, with times written without an offset taken in `zone`.
pub fn normalise_time_in(value: &Value, zone: FixedOffset) -> Option<String> {
    let local = |at: NaiveDateTime| -> Option<String> {
        let at = at.and_local_timezone(zone).single()?;
        Some(at.with_timezone(&china()).format(PUBLIC).to_string())
    };
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
            return local(at);
        }
    }
    // Fractions of a second without an offset.
    if let Some((whole, _)) = text.split_once('.')
        && let Ok(at) = NaiveDateTime::parse_from_str(whole, "%Y-%m-%dT%H:%M:%S")
    {
        return local(at);
    }
    // A date alone is that day wherever it is read: midnight, not moved between zones.
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
    fn times_without_an_offset_are_read_in_the_configured_zone() {
        let utc = zone_named("UTC").unwrap();
        assert_eq!(
            normalise_time_in(&json!("2026-11-12T01:30:00"), utc).as_deref(),
            Some("2026-11-12 09:30:00")
        );
        assert_eq!(
            normalise_time_in(&json!("2026-11-12 23:00:00"), zone_named("-05:00").unwrap())
                .as_deref(),
            Some("2026-11-13 12:00:00")
        );
        // An offset in the text wins over the zone; a date alone stays that date.
        assert_eq!(
            normalise_time_in(&json!("2026-11-12T01:30:00+08:00"), utc).as_deref(),
            Some("2026-11-12 01:30:00")
        );
        assert_eq!(
            normalise_time_in(&json!("2026-11-12"), utc).as_deref(),
            Some("2026-11-12 00:00:00")
        );
        assert_eq!(zone_named("Asia/Shanghai"), zone_named("+08:00"));
        for bad in ["Europe/Berlin", "+25:00", "8", "", "+08:xx"] {
            assert_eq!(zone_named(bad), None, "{bad}");
        }
    }

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
