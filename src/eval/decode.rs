//! Decoding a body into Rust types with `serde`, the job of Go's `gohcl`:
//! attributes are evaluated in a context, blocks are found by type and
//! nested by their labels, and a problem names the place in the file.
//!
//! The body is read as a map: each attribute's value by name; each block
//! type by name, holding for labelled blocks a map from the first label to
//! (a map from the second label to …) the block's body, and for blocks
//! without labels the body itself, or a sequence of bodies when the type is
//! repeated. A field that expects a sequence also takes a single block.

use super::context::EvalContext;
use super::diagnostic::Diagnostic;
use super::expr::evaluate;
use super::number::Number;
use super::value::Value;
use crate::ast::{AstNode, Body};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use smol_str::SmolStr;
use std::collections::BTreeMap;
use text_size::TextRange;

/// Why a body could not be decoded: an evaluation problem, or a value that
/// does not fit the Rust type, with the place it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The problems, each with its range in the source.
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown: Vec<String> = self.diagnostics.iter().map(Diagnostic::message).collect();
        f.write_str(&shown.join("; "))
    }
}

impl std::error::Error for DecodeError {}

impl DecodeError {
    /// Every problem as `path:line:col: message` with the line and a caret.
    pub fn render(&self, path: &str, text: &str) -> String {
        self.diagnostics
            .iter()
            .map(|d| d.render(path, text))
            .collect()
    }
}

/// Parses `text` as a configuration file and decodes its body into `T`.
///
/// ```
/// use hclwright::eval::{EvalContext, decode_str};
/// #[derive(serde::Deserialize)]
/// struct Config {
///     region: String,
///     replicas: u32,
///     service: std::collections::BTreeMap<String, Service>,
/// }
/// #[derive(serde::Deserialize)]
/// struct Service {
///     port: u16,
///     tags: Vec<String>,
/// }
/// let text = "region = \"eu-${\"west\"}-1\"\nreplicas = 1 + 2\nservice \"web\" {\n  port = 443\n  tags = [\"a\"]\n}\n";
/// let config: Config = decode_str(text, &EvalContext::new()).unwrap();
/// assert_eq!((config.region.as_str(), config.replicas), ("eu-west-1", 3));
/// assert_eq!(config.service["web"].port, 443);
/// ```
pub fn decode_str<T: DeserializeOwned>(text: &str, ctx: &EvalContext) -> Result<T, DecodeError> {
    let parse = crate::parse(text);
    if !parse.errors().is_empty() {
        return Err(syntax_errors(parse.errors()));
    }
    let body = parse.body().ok_or_else(|| DecodeError {
        diagnostics: Vec::new(),
    })?;
    decode_body(&body, ctx)
}

/// Decodes a JSON syntax file into `T`, as [`decode_str`] decodes a
/// native one: strings are templates, nested objects stand for labelled
/// blocks, arrays of objects for repeated ones, and `"//"` comment
/// properties are left out; the same `T` reads either syntax.
///
/// ```
/// use hclwright::eval::{EvalContext, decode_json_str, decode_str};
/// use std::collections::BTreeMap;
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Service { port: u16 }
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Config { region: String, service: BTreeMap<String, Service> }
/// let ctx = EvalContext::new();
/// let json: Config = decode_json_str(
///     r#"{"//": "generated", "region": "eu-${\"west\"}", "service": {"web": {"port": "${400 + 43}"}}}"#,
///     &ctx,
/// ).unwrap();
/// let native: Config = decode_str("region = \"eu-west\"\nservice \"web\" {\n  port = 443\n}\n", &ctx).unwrap();
/// assert_eq!(json, native);
/// ```
pub fn decode_json_str<T: DeserializeOwned>(
    text: &str,
    ctx: &EvalContext,
) -> Result<T, DecodeError> {
    let parse = crate::json::parse(text);
    if !parse.errors().is_empty() {
        return Err(syntax_errors(parse.errors()));
    }
    let Some(root) = parse.root() else {
        return Err(DecodeError {
            diagnostics: Vec::new(),
        });
    };
    let mut places = Places::default();
    json_places(&root, &mut Vec::new(), &mut places);
    let evaluated = crate::json::evaluate(&root, ctx);
    if !evaluated.diagnostics.is_empty() {
        return Err(DecodeError {
            diagnostics: evaluated.diagnostics,
        });
    }
    let value = without_comments(evaluated.value);
    deserialize(&value, &places, root.range())
}

/// The ranges of a JSON value's properties by path of names.
fn json_places(value: &crate::json::JsonValue, path: &mut Vec<String>, places: &mut Places) {
    places.0.insert(path.clone(), value.range());
    if let crate::json::JsonValue::Object(o) = value {
        for m in o.members() {
            let (Some(name), Some(v)) = (m.name(), m.value()) else {
                continue;
            };
            path.push(name);
            json_places(&v, path, places);
            path.pop();
        }
    }
}

/// The value with the `"//"` properties of its objects left out.
fn without_comments(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| &**k != "//")
                .map(|(k, v)| (k, without_comments(v)))
                .collect(),
        ),
        Value::Tuple(items) => Value::Tuple(items.into_iter().map(without_comments).collect()),
        other => other,
    }
}

/// Decodes a body (a file's, or a block's) into `T`.
pub fn decode_body<T: DeserializeOwned>(body: &Body, ctx: &EvalContext) -> Result<T, DecodeError> {
    let mut places = Places::default();
    let mut diagnostics = Vec::new();
    let value = body_value(body, ctx, &mut Vec::new(), &mut places, &mut diagnostics);
    if !diagnostics.is_empty() {
        return Err(DecodeError { diagnostics });
    }
    deserialize(&value, &places, body.syntax().text_range())
}

/// Reads `value` as `T`; an error points at the nearest place known.
fn deserialize<T: DeserializeOwned>(
    value: &Value,
    places: &Places,
    whole: TextRange,
) -> Result<T, DecodeError> {
    let de = Deserializer {
        value,
        path: Vec::new(),
        places,
    };
    T::deserialize(de).map_err(|e| {
        let range = places.nearest(&e.path).unwrap_or(whole);
        let mut d = Diagnostic::new(e.summary(), e.message.clone(), range);
        if !e.path.is_empty() {
            d.detail = format!("{} (at {})", d.detail, e.path.join("."));
        }
        DecodeError {
            diagnostics: vec![d],
        }
    })
}

/// A decoding refused for syntax errors.
fn syntax_errors(errors: &[crate::SyntaxError]) -> DecodeError {
    DecodeError {
        diagnostics: errors
            .iter()
            .map(|e| Diagnostic::new("Invalid syntax", e.message.clone(), e.range))
            .collect(),
    }
}

/// Source ranges by path of names, to point at the culprit of a serde error.
#[derive(Default)]
struct Places(BTreeMap<Vec<String>, TextRange>);

impl Places {
    fn nearest(&self, path: &[String]) -> Option<TextRange> {
        (0..=path.len())
            .rev()
            .find_map(|n| self.0.get(&path[..n]).copied())
    }
}

fn body_value(
    body: &Body,
    ctx: &EvalContext,
    path: &mut Vec<String>,
    places: &mut Places,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    let mut out: BTreeMap<SmolStr, Value> = BTreeMap::new();
    places.0.insert(path.clone(), body.syntax().text_range());
    for attr in body.attributes() {
        let (Some(name), Some(expr)) = (attr.name(), attr.expr()) else {
            continue;
        };
        let r = evaluate(&expr, ctx);
        diagnostics.extend(r.diagnostics);
        path.push(name.clone());
        places.0.insert(path.clone(), expr.syntax().text_range());
        path.pop();
        out.insert(name.into(), r.value);
    }
    // Blocks: labelled ones nested by label, unlabelled ones alone or in a
    // sequence when repeated.
    let mut unlabelled: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for block in body.blocks() {
        let Some(ty) = block.type_name() else {
            continue;
        };
        let labels: Vec<String> = block.labels().map(|l| l.value()).collect();
        path.push(ty.clone());
        path.extend(labels.iter().cloned());
        let inner = match block.body() {
            Some(b) => body_value(&b, ctx, path, places, diagnostics),
            None => Value::Object(BTreeMap::new()),
        };
        let start = block
            .type_token()
            .map_or(block.syntax().text_range().start(), |t| {
                t.text_range().start()
            });
        places.0.insert(
            path.clone(),
            TextRange::new(start, block.syntax().text_range().end()),
        );
        path.truncate(path.len() - labels.len() - 1);
        if labels.is_empty() {
            unlabelled.entry(ty).or_default().push(inner);
            continue;
        }
        let mut slot = out
            .entry(ty.into())
            .or_insert_with(|| Value::Object(BTreeMap::new()));
        for (i, label) in labels.iter().enumerate() {
            let Value::Object(map) = slot else { break };
            if i + 1 == labels.len() {
                map.insert(label.as_str().into(), inner.clone());
                break;
            }
            slot = map
                .entry(label.as_str().into())
                .or_insert_with(|| Value::Object(BTreeMap::new()));
        }
    }
    for (ty, mut bodies) in unlabelled {
        let v = if bodies.len() == 1 {
            bodies.remove(0)
        } else {
            Value::Tuple(bodies)
        };
        out.insert(ty.into(), v);
    }
    Value::Object(out)
}

/// A serde error, with the path of names where it happened.
#[derive(Debug)]
struct Error {
    message: String,
    path: Vec<String>,
}

impl Error {
    fn summary(&self) -> &'static str {
        if self.message.starts_with("missing field") {
            "Missing required argument"
        } else if self.message.starts_with("unknown field") {
            "Unsupported argument"
        } else {
            "Incorrect value type"
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error {
            message: msg.to_string(),
            path: Vec::new(),
        }
    }
}

/// Reads a [`Value`] for serde.
struct Deserializer<'a> {
    value: &'a Value,
    path: Vec<String>,
    places: &'a Places,
}

impl<'a> Deserializer<'a> {
    fn at(&self, value: &'a Value, step: String) -> Deserializer<'a> {
        let mut path = self.path.clone();
        path.push(step);
        Deserializer {
            value,
            path,
            places: self.places,
        }
    }

    fn fail(&self, message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            path: self.path.clone(),
        }
    }

    fn located(&self, mut e: Error) -> Error {
        if e.path.is_empty() {
            e.path = self.path.clone();
        }
        e
    }

    fn number(&self) -> Result<&'a Number, Error> {
        match self.value.unmarked().0 {
            Value::Number(n) => Ok(n),
            other => Err(self.fail(format!(
                "a number is required, not {}",
                other.ty().friendly_name()
            ))),
        }
    }
}

macro_rules! integer {
    ($method:ident, $visit:ident, $t:ty) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let n = self.number()?;
            let i = n
                .to_i64()
                .and_then(|i| <$t>::try_from(i).ok())
                .ok_or_else(|| {
                    self.fail(format!(
                        "{n} is not a whole number that fits {}",
                        stringify!($t)
                    ))
                })?;
            visitor.$visit(i)
        }
    };
}

impl<'de, 'a> de::Deserializer<'de> for Deserializer<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value.unmarked().0 {
            Value::Null(_) => visitor.visit_unit(),
            Value::Unknown(_) => Err(self.fail("the value is not known until apply")),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match n.to_i64() {
                Some(i) => visitor.visit_i64(i),
                None => visitor.visit_f64(n.to_f64()),
            },
            Value::String(s) => visitor.visit_str(s),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => visitor
                .visit_seq(Seq {
                    de: &self,
                    items,
                    next: 0,
                })
                .map_err(|e| self.located(e)),
            Value::Map(_, entries) | Value::Object(entries) => visitor
                .visit_map(Map {
                    de: &self,
                    iter: entries.iter(),
                    value: None,
                })
                .map_err(|e| self.located(e)),
            Value::Sensitive(_) => unreachable!("unmarked above"),
        }
    }

    integer!(deserialize_i8, visit_i8, i8);
    integer!(deserialize_i16, visit_i16, i16);
    integer!(deserialize_i32, visit_i32, i32);
    integer!(deserialize_i64, visit_i64, i64);
    integer!(deserialize_u8, visit_u8, u8);
    integer!(deserialize_u16, visit_u16, u16);
    integer!(deserialize_u32, visit_u32, u32);
    integer!(deserialize_u64, visit_u64, u64);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f32(self.number()?.to_f64() as f32)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f64(self.number()?.to_f64())
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match super::convert(self.value.unmarked().0, &super::Type::Bool) {
            Ok(Value::Bool(b)) => visitor.visit_bool(b),
            _ => Err(self.fail(format!(
                "a bool is required, not {}",
                self.value.ty().friendly_name()
            ))),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match super::convert(self.value.unmarked().0, &super::Type::String) {
            Ok(Value::String(s)) => visitor.visit_string(s.to_string()),
            _ => Err(self.fail(format!(
                "a string is required, not {}",
                self.value.ty().friendly_name()
            ))),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.value.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value.unmarked().0 {
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => visitor
                .visit_seq(Seq {
                    de: &self,
                    items,
                    next: 0,
                })
                .map_err(|e| self.located(e)),
            // A single block where a sequence of them is expected.
            v @ Value::Object(_) => visitor
                .visit_seq(Seq {
                    de: &self,
                    items: std::slice::from_ref(v),
                    next: 0,
                })
                .map_err(|e| self.located(e)),
            other => Err(self.fail(format!(
                "a list is required, not {}",
                other.ty().friendly_name()
            ))),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value.unmarked().0 {
            Value::String(s) => visitor.visit_enum((&**s).into_deserializer()),
            other => Err(self.fail(format!(
                "a string naming a variant is required, not {}",
                other.ty().friendly_name()
            ))),
        }
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct newtype_struct tuple
        tuple_struct map struct identifier ignored_any
    }
}

struct Seq<'b, 'a> {
    de: &'b Deserializer<'a>,
    items: &'a [Value],
    next: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'_, '_> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(item) = self.items.get(self.next) else {
            return Ok(None);
        };
        let de = self.de.at(item, self.next.to_string());
        self.next += 1;
        let path = de.path.clone();
        seed.deserialize(de).map(Some).map_err(|mut e| {
            if e.path.is_empty() {
                e.path = path;
            }
            e
        })
    }
}

struct Map<'b, 'a> {
    de: &'b Deserializer<'a>,
    iter: std::collections::btree_map::Iter<'a, SmolStr, Value>,
    value: Option<(&'a SmolStr, &'a Value)>,
}

impl<'de> de::MapAccess<'de> for Map<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((k, v)) = self.iter.next() else {
            return Ok(None);
        };
        self.value = Some((k, v));
        let mut path = self.de.path.clone();
        path.push(k.to_string());
        seed.deserialize((&**k).into_deserializer())
            .map(Some)
            .map_err(|e: Error| Error {
                message: e.message,
                path,
            })
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (k, v) = self.value.take().expect("a key first");
        let de = self.de.at(v, k.to_string());
        let path = de.path.clone();
        seed.deserialize(de).map_err(|mut e| {
            if e.path.is_empty() {
                e.path = path;
            }
            e
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Job {
        datacenters: Vec<String>,
        group: BTreeMap<String, Group>,
        priority: Option<u8>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Group {
        count: u32,
        #[serde(default)]
        task: Vec<Task>,
    }

    #[derive(Deserialize, Debug)]
    struct Task {
        driver: String,
    }

    const JOB: &str = "datacenters = [\"dc1\"]\ngroup \"web\" {\n  count = 2 + 1\n  task {\n    driver = \"docker\"\n  }\n  task {\n    driver = \"exec\"\n  }\n}\ngroup \"db\" {\n  count = 1\n  task {\n    driver = \"raw\"\n  }\n}\n";

    #[test]
    fn blocks_labels_and_repeats() {
        let job: Job = decode_str(JOB, &EvalContext::new()).unwrap();
        assert_eq!(job.datacenters, ["dc1"]);
        assert_eq!(job.group["web"].count, 3);
        assert_eq!(job.group["web"].task.len(), 2);
        assert_eq!(job.group["db"].task[0].driver, "raw");
        assert_eq!(job.priority, None);
    }

    #[test]
    fn errors_name_the_place() {
        let text = JOB.replace("  count = 1\n", "  count = \"many\"\n");
        let err = decode_str::<Job>(&text, &EvalContext::new()).unwrap_err();
        let shown = err.render("job.hcl", &text);
        assert!(
            shown.starts_with("job.hcl:12:11: Incorrect value type"),
            "{shown}"
        );
        let text = JOB.replace("  count = 1\n", "  count = 1\n  extra = true\n");
        let err = decode_str::<Job>(&text, &EvalContext::new()).unwrap_err();
        assert!(
            err.render("job.hcl", &text)
                .contains("Unsupported argument: unknown field `extra`"),
            "{}",
            err.render("job.hcl", &text)
        );
        let text = JOB.replace("  count = 1\n", "");
        let err = decode_str::<Job>(&text, &EvalContext::new()).unwrap_err();
        let shown = err.render("job.hcl", &text);
        assert!(
            shown.contains("Missing required argument: missing field `count`"),
            "{shown}"
        );
        assert!(shown.starts_with("job.hcl:11:1:"), "{shown}");
        let err = decode_str::<Job>("datacenters = [x]\n", &EvalContext::new()).unwrap_err();
        assert!(err.to_string().contains("Unknown variable"), "{err}");
    }
}
