//! [`Value`] written with `serde`: to JSON, YAML or any serde format.

use super::value::Value;
use serde::ser::{Error, Serialize, SerializeMap, SerializeSeq, Serializer};

/// A value as serde sees it: null as a unit (`null` in JSON), bools,
/// whole numbers that fit 64 bits as integers and other numbers as `f64`,
/// strings, lists, sets and tuples as sequences, maps and objects as maps
/// (keys in cty's order). A sensitive value is written as the value it
/// marks, as `jsonencode` and [`to_json`](super::to_json) do: check
/// [`Value::is_sensitive`] first where that matters. A value not known
/// until apply cannot be written: it is an error.
///
/// ```
/// use hclwright::eval::{EvalContext, evaluate_str};
/// let v = evaluate_str("{ name = \"web\", ports = [80, 443], ratio = 1.5, tag = null }", &EvalContext::new()).unwrap();
/// assert_eq!(
///     serde_json::to_string(&v).unwrap(),
///     r#"{"name":"web","ports":[80,443],"ratio":1.5,"tag":null}"#
/// );
/// let unknown = hclwright::eval::Value::Unknown(hclwright::eval::Type::String);
/// assert!(serde_json::to_string(&unknown).is_err());
/// ```
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null(_) => serializer.serialize_unit(),
            Value::Unknown(_) => Err(S::Error::custom(
                "the value is not known until apply and cannot be serialized",
            )),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => {
                if let Some(i) = n.to_i64() {
                    serializer.serialize_i64(i)
                } else if let Some((false, big)) = n.to_integer_parts()
                    && let Ok(u) = u64::try_from(&big)
                {
                    serializer.serialize_u64(u)
                } else {
                    serializer.serialize_f64(n.to_f64())
                }
            }
            Value::String(s) => serializer.serialize_str(s),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(_, entries) | Value::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k.as_str(), v)?;
                }
                map.end()
            }
            Value::Sensitive(inner) => inner.serialize(serializer),
        }
    }
}
