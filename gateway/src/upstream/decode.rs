//! Reading the CMS's envelope, whatever its dialect's small differences.

use axum::http::StatusCode;
use serde_json::Value;

use super::UpstreamError;

/// Envelope codes the CMS uses for success.
const SUCCESS_CODES: [i64; 2] = [0, 200];

/// Turns one upstream answer into its `result` (or `data`), or the error it stands for.
pub fn decode(
    status: StatusCode,
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Value, UpstreamError> {
    let is_json = content_type.is_some_and(is_json_type);
    let parsed: Option<Value> = if is_json {
        serde_json::from_slice(body).ok()
    } else {
        None
    };

    if status == StatusCode::UNAUTHORIZED {
        return Err(UpstreamError::Unauthorized {
            msg: parsed.as_ref().and_then(message_of),
        });
    }
    if body.iter().all(u8::is_ascii_whitespace) && status.is_success() {
        return Ok(Value::Null);
    }
    if !is_json {
        if status == StatusCode::SERVICE_UNAVAILABLE {
            return Err(UpstreamError::Unavailable);
        }
        return Err(UpstreamError::BadResponse(format!(
            "HTTP {status} with content type {:?}",
            content_type.unwrap_or("none")
        )));
    }
    let Some(Value::Object(mut envelope)) = parsed else {
        return Err(UpstreamError::BadResponse(format!(
            "HTTP {status}: body is not a JSON object"
        )));
    };
    let Some(code) = envelope.get("code").and_then(code_of) else {
        if status == StatusCode::SERVICE_UNAVAILABLE {
            return Err(UpstreamError::Unavailable);
        }
        return Err(UpstreamError::BadResponse(format!(
            "HTTP {status}: envelope has no numeric code"
        )));
    };
    if code == 401 {
        return Err(UpstreamError::Unauthorized {
            msg: message_of(&Value::Object(envelope)),
        });
    }
    if !SUCCESS_CODES.contains(&code) {
        return Err(UpstreamError::Status {
            code,
            msg: message_of(&Value::Object(envelope)),
        });
    }
    if !status.is_success() {
        return Err(UpstreamError::BadResponse(format!(
            "HTTP {status} with a success envelope"
        )));
    }
    Ok(envelope
        .remove("result")
        .or_else(|| envelope.remove("data"))
        .unwrap_or(Value::Null))
}

fn is_json_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

fn code_of(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The CMS's message, from `msg`, `message` or `error_description`, in that order.
fn message_of(value: &Value) -> Option<String> {
    ["msg", "message", "error_description"]
        .iter()
        .filter_map(|key| value.get(key)?.as_str())
        .map(str::trim)
        .find(|m| !m.is_empty())
        .map(|m| m.chars().take(200).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const JSON: Option<&str> = Some("application/json;charset=UTF-8");

    fn body(v: Value) -> Vec<u8> {
        serde_json::to_vec(&v).unwrap()
    }

    #[test]
    fn success_codes_unwrap_result_or_data() {
        let ok = decode(StatusCode::OK, JSON, &body(json!({"code":0,"result":[1]}))).unwrap();
        assert_eq!(ok, json!([1]));
        let ok = decode(
            StatusCode::OK,
            JSON,
            &body(json!({"code":"200","data":{"a":1}})),
        )
        .unwrap();
        assert_eq!(ok, json!({"a":1}));
    }

    #[test]
    fn message_is_taken_in_order() {
        let err = decode(
            StatusCode::OK,
            JSON,
            &body(json!({"code":500,"message":"b","error_description":"c"})),
        )
        .unwrap_err();
        assert!(matches!(err, UpstreamError::Status { code: 500, msg: Some(ref m) } if m == "b"));
        let err = decode(
            StatusCode::OK,
            JSON,
            &body(json!({"code":1001,"msg":"","error_description":"c"})),
        )
        .unwrap_err();
        assert!(matches!(err, UpstreamError::Status { code: 1001, msg: Some(ref m) } if m == "c"));
    }

    #[test]
    fn unusable_answers_are_bad_responses() {
        for (status, ct, b) in [
            (StatusCode::OK, JSON, b"{not json".to_vec()),
            (
                StatusCode::OK,
                Some("text/html"),
                b"<html>oops</html>".to_vec(),
            ),
            (StatusCode::OK, JSON, b"[1,2]".to_vec()),
            (StatusCode::OK, JSON, body(json!({"msg":"no code"}))),
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                Some("text/html"),
                b"<h1>500</h1>".to_vec(),
            ),
        ] {
            let err = decode(status, ct, &b).unwrap_err();
            assert!(matches!(err, UpstreamError::BadResponse(_)), "{err:?}");
        }
    }

    #[test]
    fn empty_success_is_null_and_401_wins() {
        assert_eq!(decode(StatusCode::OK, None, b"").unwrap(), Value::Null);
        let err = decode(StatusCode::UNAUTHORIZED, None, b"").unwrap_err();
        assert!(matches!(err, UpstreamError::Unauthorized { msg: None }));
    }
}
