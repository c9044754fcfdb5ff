//! The neutral value tree the bindings turn into host values.

use hclwright::eval::Value as EvalValue;

/// A value, as a host language receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `null`.
    Null,
    /// A bool.
    Bool(bool),
    /// A number as its exact decimal text (`1`, `-2.5`,
    /// `123456789012345678901234567890`): integral ones have no `.` nor
    /// exponent, so a host can read them as big integers.
    Number(String),
    /// A string.
    String(String),
    /// A list, tuple or set.
    List(Vec<Value>),
    /// A map or object, keys in order.
    Map(Vec<(String, Value)>),
    /// A value not known until apply.
    Unknown,
    /// A value marked sensitive.
    Sensitive(Box<Value>),
}

impl Value {
    /// True when a [`Value::Number`]'s text is an integer.
    pub fn is_integer_text(text: &str) -> bool {
        let digits = text.strip_prefix('-').unwrap_or(text);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    }

    /// An evaluation result as a neutral value.
    pub fn from_eval(v: &EvalValue) -> Value {
        match v {
            EvalValue::Null(_) => Value::Null,
            EvalValue::Unknown(_) => Value::Unknown,
            EvalValue::Bool(b) => Value::Bool(*b),
            EvalValue::Number(n) => Value::Number(n.to_string()),
            EvalValue::String(s) => Value::String(s.to_string()),
            EvalValue::List(_, items) | EvalValue::Set(_, items) | EvalValue::Tuple(items) => {
                Value::List(items.iter().map(Value::from_eval).collect())
            }
            EvalValue::Map(_, items) | EvalValue::Object(items) => Value::Map(
                items
                    .iter()
                    .map(|(k, v)| (k.to_string(), Value::from_eval(v)))
                    .collect(),
            ),
            EvalValue::Sensitive(inner) => Value::Sensitive(Box::new(Value::from_eval(inner))),
        }
    }

    /// A JSON value (numbers keep their text) as a neutral value.
    pub fn from_json(v: &serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.to_string()),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => {
                Value::List(items.iter().map(Value::from_json).collect())
            }
            serde_json::Value::Object(items) => Value::Map(
                items
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// The value as JSON text (for `to_hcl`); `None` when some part is
    /// unknown or sensitive, or a number is not a JSON number.
    pub fn to_json_text(&self) -> Option<String> {
        let mut out = String::new();
        self.write_json(&mut out).then_some(out)
    }

    fn write_json(&self, out: &mut String) -> bool {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => {
                if serde_json::from_str::<serde_json::Number>(n).is_err() {
                    return false;
                }
                out.push_str(n);
            }
            Value::String(s) => out.push_str(&hclwright::json::quote(s)),
            Value::List(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if !v.write_json(out) {
                        return false;
                    }
                }
                out.push(']');
            }
            Value::Map(items) => {
                out.push('{');
                for (i, (k, v)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&hclwright::json::quote(k));
                    out.push(':');
                    if !v.write_json(out) {
                        return false;
                    }
                }
                out.push('}');
            }
            Value::Unknown | Value::Sensitive(_) => return false,
        }
        true
    }

    /// The value as a `-var NAME=VALUE` text, as terraform reads it: a
    /// string as itself, anything else as HCL source (JSON is valid HCL
    /// for values). `None` for unknown or sensitive parts.
    pub fn to_var_text(&self) -> Option<String> {
        match self {
            Value::String(s) => Some(s.clone()),
            // JSON strings inside: `${` must not start a template.
            other => other
                .to_json_text()
                .map(|t| t.replace("${", "$${").replace("%{", "%%{")),
        }
    }
}
