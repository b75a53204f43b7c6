//! `*` patterns, read by the cache's TTL overrides (`cache.overrides`) and the dialect's file
//! addresses (`dialect.endpoints.files_match`): one matcher for both.

/// `*` matches any run of characters (none included); everything else matches itself.
/// Runs for every cached answer: byte searches, no allocation.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let Some(first_star) = pattern.bytes().position(|b| b == b'*') else {
        return pattern == text;
    };
    let last_star = pattern
        .bytes()
        .rposition(|b| b == b'*')
        .unwrap_or(first_star);
    let (first, last) = (&pattern[..first_star], &pattern[last_star + 1..]);
    if text.len() < first.len() + last.len() || !text.starts_with(first) || !text.ends_with(last) {
        return false;
    }
    if last_star == first_star {
        return true;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for middle in pattern[first_star + 1..last_star]
        .split('*')
        .filter(|m| !m.is_empty())
    {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}
