//! A CMS's JSON read into a `Value` within bounds. A body is at most 8 MiB (`cms::MAX_BODY_BYTES`),
//! but a `Value` costs far more than its text: 8 MiB of `[0,0,0,…]` is four million values of 32
//! bytes each, in vectors that double as they grow (about 250 MiB), and 10⁵ small categories
//! (7.4 MB) took the process from 133 to 234 MiB, against a container limit of 256 MiB (the
//! hostile-CMS suite, `make test-hostile`, 2026-11-26). So, while parsing:
//! - an array keeps its first `MAX_ARRAY_ITEMS` items and an object its first `MAX_OBJECT_KEYS`
//!   keys; the rest is read past without being kept (nothing the portal shows is that long: a
//!   page has at most 100 articles, the tree at most `MAX_CATEGORIES` categories);
//! - an answer of more than `MAX_VALUES` values in all is refused (what the longest real answers
//!   hold: a page of 100 articles about 3 000, a long article as a block tree about 10 000).
//!
//! Nesting is bounded by serde_json's own recursion limit (128 levels).

use std::{cell::Cell, fmt};

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

pub const MAX_ARRAY_ITEMS: usize = 10_000;
pub const MAX_OBJECT_KEYS: usize = 1_000;
pub const MAX_VALUES: usize = 200_000;

/// `serde_json::from_slice` within the bounds above.
pub fn from_slice(body: &[u8]) -> Result<Value, serde_json::Error> {
    let budget = Cell::new(MAX_VALUES);
    let mut reader = serde_json::Deserializer::from_slice(body);
    let value = Bounded { budget: &budget }.deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// `serde_json::from_str` within the bounds above.
pub fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    from_slice(text.as_bytes())
}

#[derive(Clone, Copy)]
struct Bounded<'a> {
    budget: &'a Cell<usize>,
}

impl Bounded<'_> {
    fn spend<E: de::Error>(self) -> Result<(), E> {
        match self.budget.get() {
            0 => Err(E::custom(format_args!(
                "more than {MAX_VALUES} values in one answer"
            ))),
            left => {
                self.budget.set(left - 1);
                Ok(())
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Bounded<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.spend()?;
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut items = Vec::new();
        while items.len() < MAX_ARRAY_ITEMS {
            match seq.next_element_seed(self)? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.len() < MAX_OBJECT_KEYS {
                let value = map.next_value_seed(self)?;
                object.insert(key, value);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ordinary_answer_reads_as_serde_json_reads_it() {
        let text = r#"{"code":200,"result":{"content":[{"id":1,"title":"班列","score":1.5,"top":true,"tags":null}],"total":-3}}"#;
        assert_eq!(
            from_str(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        assert!(from_str("[1, 2").is_err());
        assert!(from_str("[1] x").is_err(), "trailing text");
    }

    #[test]
    fn long_arrays_and_wide_objects_keep_their_first_part_only() {
        let zeros = format!("[{}0]", "0,".repeat(4_000_000 - 1));
        let Value::Array(items) = from_str(&zeros).unwrap() else {
            panic!("an array");
        };
        assert_eq!(items.len(), MAX_ARRAY_ITEMS);
        let wide: String = (0..5_000)
            .map(|i| format!("\"k{i}\":{{\"x\":[1,2]}},"))
            .collect();
        let wide = format!("{{{}\"last\":1}}", wide);
        let Value::Object(object) = from_str(&wide).unwrap() else {
            panic!("an object");
        };
        assert_eq!(object.len(), MAX_OBJECT_KEYS);
        assert!(object.contains_key("k0") && !object.contains_key("last"));
    }

    #[test]
    fn too_many_values_in_all_are_refused_and_nesting_is_bounded() {
        let row = format!("[{}0]", "0,".repeat(MAX_ARRAY_ITEMS - 1));
        let rows = format!("[{}{row}]", format!("{row},").repeat(40));
        let err = from_str(&rows).unwrap_err();
        assert!(err.to_string().contains("values in one answer"), "{err}");
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(from_str(&deep).is_err());
    }
}
