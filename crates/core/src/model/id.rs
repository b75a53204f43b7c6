//! The id of a category or an article: the CMS's own, whatever its shape. Integer ids
//! (reference-cms, WordPress, Directus collections with serial keys) and string ids (Strapi 5's
//! `documentId`, Plone's UID, Ghost's and Payload's hex ids, Directus's UUIDs, slugs) alike.
//!
//! One text everywhere: the API's parameters, the cache keys (`article/detail?id=…`), the tags
//! (`article:…`), webhooks, the search index, the portal's URLs (`/portal/article/…`) and links
//! inside bodies use it as it is. So it is bounded: 1 to [`MAX_LEN`] bytes of ASCII letters,
//! digits and `-._~:@`, starting with a letter or a digit: characters that need no escaping in
//! a URL's path or query, that none of the keys' separators (`?`, `&`, `=`, `/`) can be confused
//! with, and never `.`, `..` or a sign.
//!
//! In JSON an id that is a whole number written plainly (no sign, no leading zero, at most
//! 2^53 − 1, what a browser's number holds exactly) is a number, as a CMS with integer ids
//! has always had it (`"id": 2101`, `"parentId": 0` at the top); any other id is a string. Read
//! back, a number and its digits as a string are the same id.

use std::{fmt, sync::Arc};

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// Longest id, in bytes: a UUID is 36, a Plone UID 32, a Strapi `documentId` 24.
pub const MAX_LEN: usize = 128;

/// Largest whole number a browser holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE: u64 = (1 << 53) - 1;

/// A category's or an article's id (see the module's doc).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Id(Arc<str>);

/// Why a text is not an id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("is empty")]
    Empty,
    #[error("is longer than {MAX_LEN} characters")]
    TooLong,
    #[error(
        "holds a character other than letters, digits and -._~:@, or does not start with a letter or a digit"
    )]
    Character,
}

impl Id {
    /// `text` as an id, if it is one.
    pub fn parse(text: &str) -> Result<Self, IdError> {
        Self::check(text)?;
        Ok(Self(Arc::from(text)))
    }

    /// Whether `text` is an id.
    pub fn check(text: &str) -> Result<(), IdError> {
        if text.is_empty() {
            return Err(IdError::Empty);
        }
        if text.len() > MAX_LEN {
            return Err(IdError::TooLong);
        }
        if !text.bytes().all(is_id_byte) || !text.as_bytes()[0].is_ascii_alphanumeric() {
            return Err(IdError::Character);
        }
        Ok(())
    }

    /// The id a whole number names.
    pub fn number(n: u64) -> Self {
        Self(Arc::from(n.to_string()))
    }

    /// The parent id of a top-level category in the portal's API (`parentId: 0`), whatever the
    /// CMS calls its root.
    pub fn top() -> Self {
        Self::number(0)
    }

    /// Whether this is [`Id::top`].
    pub fn is_top(&self) -> bool {
        &*self.0 == "0"
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The whole number this id is, when it is one written plainly (what JSON carries as a
    /// number).
    pub fn as_number(&self) -> Option<u64> {
        let text = self.as_str();
        let plain =
            text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
        plain
            .then(|| text.parse::<u64>().ok())
            .flatten()
            .filter(|n| *n <= MAX_SAFE)
    }
}

/// A byte an id may hold.
pub fn is_id_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b':' | b'@')
}

/// Whole numbers in their order, before every other id, those in the order of their text: a
/// CMS's integer ids sort as they always have (`9` before `10`).
impl Ord for Id {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self.as_number(), other.as_number()) {
            (Some(a), Some(b)) => a.cmp(&b),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => self.0.cmp(&other.0),
        }
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// As JSON writes it: `2101`, `"zx8k2m9q4w7e1r5t3y6u0i2o"` (log lines read as they did when ids were
/// numbers).
impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_number() {
            Some(n) => write!(f, "{n}"),
            None => fmt::Debug::fmt(&*self.0, f),
        }
    }
}

impl From<u64> for Id {
    fn from(n: u64) -> Self {
        Self::number(n)
    }
}

impl PartialEq<u64> for Id {
    fn eq(&self, other: &u64) -> bool {
        self.as_number() == Some(*other)
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::borrow::Borrow<str> for Id {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl std::str::FromStr for Id {
    type Err = IdError;
    fn from_str(text: &str) -> Result<Self, IdError> {
        Self::parse(text)
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.as_number() {
            Some(n) => serializer.serialize_u64(n),
            None => serializer.serialize_str(self.as_str()),
        }
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an id: a whole number, or a string of letters, digits and -._~:@")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Id, E> {
                Ok(Id::number(n))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Id, E> {
                u64::try_from(n)
                    .map(Id::number)
                    .map_err(|_| E::custom("an id is not negative"))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Id, E> {
                Id::parse(text).map_err(|err| E::custom(format!("an id {err}")))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
impl ts_rs::TS for Id {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;
    fn name(_: &ts_rs::Config) -> String {
        "Id".to_owned()
    }
    fn inline(_: &ts_rs::Config) -> String {
        "number | string".to_owned()
    }
    fn docs() -> Option<String> {
        Some(
            "/**\n * A category's or an article's id, the CMS's own: a number when it is a whole \
             number, a string otherwise.\n */"
                .to_owned(),
        )
    }
    fn decl(_: &ts_rs::Config) -> String {
        "type Id = number | string;".to_owned()
    }
    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        Self::decl(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_stay_numbers_and_other_ids_are_strings() {
        for (id, json) in [
            (Id::number(2101), "2101"),
            (Id::top(), "0"),
            (Id::parse("2101").unwrap(), "2101"),
            (Id::parse("0042").unwrap(), "\"0042\""),
            (
                Id::parse("9007199254740992").unwrap(),
                "\"9007199254740992\"",
            ),
            (Id::parse("9007199254740991").unwrap(), "9007199254740991"),
            (
                Id::parse("b8d2f0a1c3e94f6a8b7c6d5e4f3a2b1c").unwrap(),
                "\"b8d2f0a1c3e94f6a8b7c6d5e4f3a2b1c\"",
            ),
            (
                Id::parse("zx8k2m9q4w7e1r5t3y6u0i2o").unwrap(),
                "\"zx8k2m9q4w7e1r5t3y6u0i2o\"",
            ),
        ] {
            assert_eq!(serde_json::to_string(&id).unwrap(), json);
            assert_eq!(serde_json::from_str::<Id>(json).unwrap(), id, "{json}");
        }
        assert_eq!(serde_json::from_str::<Id>("\"7\"").unwrap(), Id::number(7));
        assert_eq!(Id::number(7), 7);
        let mut ids = ["b", "10", "a", "9"].map(|t| Id::parse(t).unwrap());
        ids.sort();
        assert_eq!(ids.map(|id| id.to_string()), ["9", "10", "a", "b"]);
    }

    #[test]
    fn an_id_is_bounded_in_length_and_characters() {
        for good in ["1", "a-b_c.d~e:f@g", "550e8400-e29b-41d4-a716-446655440000"] {
            assert!(Id::parse(good).is_ok(), "{good}");
        }
        assert_eq!(Id::parse(""), Err(IdError::Empty));
        assert_eq!(Id::parse(&"a".repeat(MAX_LEN + 1)), Err(IdError::TooLong));
        assert!(Id::parse(&"a".repeat(MAX_LEN)).is_ok());
        for bad in [
            "a/b", "a b", "a&b", "a=b", "a?b", "云川", "a%20", "a#b", "a+b", "-1", ".", "..", "~a",
            "@a",
        ] {
            assert_eq!(Id::parse(bad), Err(IdError::Character), "{bad}");
        }
        for json in ["-1", "1.5", "true", "null", "\"a/b\"", "[]"] {
            assert!(serde_json::from_str::<Id>(json).is_err(), "{json}");
        }
    }
}
