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
use crate::ast::{AstNode, Body, Expr};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use std::borrow::Cow;
use std::cell::RefCell;
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
///
/// Only what `T` asks for is evaluated: an attribute whose name is not a
/// field of the struct that reads its body (and is not taken by a map, a
/// `#[serde(flatten)]` field or a self-describing type such as
/// `serde_json::Value`) is never evaluated, as Go's `gohcl` evaluates only
/// the attributes of its schema. So a `variable` block's `type = string`
/// does not stop a struct that reads only `description` and `default`:
///
/// ```
/// use hclwright::eval::{EvalContext, decode_str};
/// use std::collections::BTreeMap;
/// #[derive(serde::Deserialize)]
/// struct File {
///     #[serde(default)]
///     variable: BTreeMap<String, Variable>,
/// }
/// #[derive(serde::Deserialize)]
/// struct Variable {
///     description: Option<String>,
///     default: Option<serde_json::Value>,
/// }
/// let text = "variable \"azs\" {\n  type    = list(string)\n  default = [\"a\", \"b\"]\n}\nvariable \"name\" {\n  description = \"The name\"\n  type        = string\n}\n";
/// let file: File = decode_str(text, &EvalContext::new()).unwrap();
/// assert_eq!(file.variable["azs"].default, Some(serde_json::json!(["a", "b"])));
/// assert_eq!(file.variable["name"].description.as_deref(), Some("The name"));
/// ```
///
/// Every evaluation problem of the attributes that were read is reported
/// (an attribute that fails reads as null, so decoding goes on past it).
pub fn decode_body<T: DeserializeOwned>(body: &Body, ctx: &EvalContext) -> Result<T, DecodeError> {
    let shared = Shared {
        ctx: Some(ctx),
        places: Places::default(),
        diagnostics: RefCell::new(Vec::new()),
        failed: RefCell::new(Vec::new()),
    };
    let range = body.syntax().text_range();
    let result = T::deserialize(Deserializer::new(Node::Body(body.clone()), range, &shared));
    finish(result, &shared, range)
}

/// Reads `value` as `T`; an error points at the nearest place known.
fn deserialize<T: DeserializeOwned>(
    value: &Value,
    places: &Places,
    whole: TextRange,
) -> Result<T, DecodeError> {
    let shared = Shared {
        ctx: None,
        places: Places(places.0.clone()),
        diagnostics: RefCell::new(Vec::new()),
        failed: RefCell::new(Vec::new()),
    };
    let node = Node::Value(Cow::Borrowed(value));
    let result = T::deserialize(Deserializer::new(node, whole, &shared));
    finish(result, &shared, whole)
}

/// The decoded value, or every problem: the evaluation problems met on
/// the way, then the serde error unless an attribute that failed to
/// evaluate explains it.
fn finish<T>(
    result: Result<T, Error>,
    shared: &Shared,
    whole: TextRange,
) -> Result<T, DecodeError> {
    let mut diagnostics = shared.diagnostics.take();
    let failed = shared.failed.take();
    match result {
        Ok(v) if diagnostics.is_empty() => return Ok(v),
        Ok(_) => {}
        Err(e) => {
            let explained = failed.iter().any(|f| e.path.starts_with(f));
            if !explained || diagnostics.is_empty() {
                let range = e.range.unwrap_or(whole);
                let mut d = Diagnostic::new(e.summary(), e.message.clone(), range);
                if !e.path.is_empty() {
                    d.detail = format!("{} (at {})", d.detail, e.path.join("."));
                }
                diagnostics.push(d);
            }
        }
    }
    Err(DecodeError { diagnostics })
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

/// Source ranges by path of names, to point at the culprit of a serde
/// error in a value evaluated as a whole (a JSON file).
#[derive(Default)]
struct Places(BTreeMap<Vec<String>, TextRange>);

/// What a deserializer reads: a value, or a part of a body whose
/// attributes are evaluated only when the target type asks for them.
enum Node<'v> {
    /// A value already evaluated.
    Value(Cow<'v, Value>),
    /// An attribute's expression, not evaluated yet.
    Expr(Expr),
    /// A body: its attributes by name, its blocks by type.
    Body(Body),
    /// Labelled blocks: the next label to the rest (blocks' bodies at the
    /// last label).
    Labels(BTreeMap<String, (Node<'v>, TextRange)>),
    /// Repeated blocks without labels.
    Blocks(Vec<(Node<'v>, TextRange)>),
}

/// A node taken apart for serde.
enum Parts<'v> {
    /// A value that is neither a collection nor a structure (unmarked).
    Scalar(Cow<'v, Value>),
    /// Entries by key, with their range when known.
    Map(Vec<(String, Node<'v>, Option<TextRange>)>),
    /// Elements, with their range when known.
    Seq(Vec<(Node<'v>, Option<TextRange>)>),
}

/// The entries of a body: attributes (not evaluated) and blocks, by name.
fn body_entries<'v>(body: &Body) -> Vec<(String, Node<'v>, Option<TextRange>)> {
    let mut out: BTreeMap<String, (Node<'v>, TextRange)> = BTreeMap::new();
    for attr in body.attributes() {
        let (Some(name), Some(expr)) = (attr.name(), attr.expr()) else {
            continue;
        };
        let range = expr.syntax().text_range();
        out.insert(name, (Node::Expr(expr), range));
    }
    // Blocks: labelled ones nested by label, unlabelled ones alone or in a
    // sequence when repeated.
    let mut unlabelled: BTreeMap<String, Vec<(Node<'v>, TextRange)>> = BTreeMap::new();
    for block in body.blocks() {
        let Some(ty) = block.type_name() else {
            continue;
        };
        let labels: Vec<String> = block.labels().map(|l| l.value()).collect();
        let inner = match block.body() {
            Some(b) => Node::Body(b),
            None => Node::Value(Cow::Owned(Value::Object(crate::eval::Entries::new()))),
        };
        let start = block
            .type_token()
            .map_or(block.syntax().text_range().start(), |t| {
                t.text_range().start()
            });
        let range = TextRange::new(start, block.syntax().text_range().end());
        if labels.is_empty() {
            unlabelled.entry(ty).or_default().push((inner, range));
            continue;
        }
        let slot = out
            .entry(ty)
            .or_insert_with(|| (Node::Labels(BTreeMap::new()), range));
        insert_labelled(&mut slot.0, &labels, inner, range);
    }
    for (ty, mut bodies) in unlabelled {
        let entry = if bodies.len() == 1 {
            bodies.remove(0)
        } else {
            let range = bodies[0].1;
            (Node::Blocks(bodies), range)
        };
        out.insert(ty, entry);
    }
    out.into_iter()
        .map(|(k, (node, range))| (k, node, Some(range)))
        .collect()
}

/// Puts a block's body at its labels in a tree of labels (an attribute of
/// the same name as the block type keeps its place).
fn insert_labelled<'v>(slot: &mut Node<'v>, labels: &[String], body: Node<'v>, range: TextRange) {
    let Node::Labels(map) = slot else { return };
    let Some((first, rest)) = labels.split_first() else {
        return;
    };
    if rest.is_empty() {
        map.insert(first.clone(), (body, range));
        return;
    }
    let next = map
        .entry(first.clone())
        .or_insert_with(|| (Node::Labels(BTreeMap::new()), range));
    insert_labelled(&mut next.0, rest, body, range);
}

/// A value's parts: its entries or elements, or itself.
fn value_parts(value: Cow<'_, Value>) -> Parts<'_> {
    match value {
        Cow::Borrowed(v) => match v.unmarked().0 {
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => Parts::Seq(
                items
                    .iter()
                    .map(|i| (Node::Value(Cow::Borrowed(i)), None))
                    .collect(),
            ),
            Value::Map(_, entries) | Value::Object(entries) => Parts::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.to_string(), Node::Value(Cow::Borrowed(v)), None))
                    .collect(),
            ),
            other => Parts::Scalar(Cow::Borrowed(other)),
        },
        Cow::Owned(v) => match v {
            Value::Sensitive(inner) => value_parts(Cow::Owned(*inner)),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => Parts::Seq(
                items
                    .into_iter()
                    .map(|i| (Node::Value(Cow::Owned(i)), None))
                    .collect(),
            ),
            Value::Map(_, entries) | Value::Object(entries) => Parts::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), Node::Value(Cow::Owned(v)), None))
                    .collect(),
            ),
            other => Parts::Scalar(Cow::Owned(other)),
        },
    }
}

/// What the deserializers of one decoding share: the context attributes
/// are evaluated in, and what went wrong on the way.
struct Shared<'c> {
    /// The context of a body's attributes (`None` for a value evaluated
    /// beforehand).
    ctx: Option<&'c EvalContext>,
    places: Places,
    /// The evaluation problems of the attributes read.
    diagnostics: RefCell<Vec<Diagnostic>>,
    /// The paths of the attributes that failed to evaluate.
    failed: RefCell<Vec<Vec<String>>>,
}

/// A serde error, with the path of names where it happened and its range
/// when known.
#[derive(Debug)]
struct Error {
    message: String,
    path: Vec<String>,
    range: Option<TextRange>,
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
            range: None,
        }
    }
}

/// Reads a [`Node`] for serde.
struct Deserializer<'v, 's> {
    node: Node<'v>,
    path: Vec<String>,
    range: TextRange,
    shared: &'s Shared<'s>,
}

impl<'v, 's> Deserializer<'v, 's> {
    fn new(node: Node<'v>, range: TextRange, shared: &'s Shared<'s>) -> Self {
        Deserializer {
            node,
            path: Vec::new(),
            range,
            shared,
        }
    }

    /// The deserializer of a part, at `step` below this one.
    fn at<'w>(
        &self,
        node: Node<'w>,
        step: String,
        range: Option<TextRange>,
    ) -> Deserializer<'w, 's> {
        let mut path = self.path.clone();
        path.push(step);
        let range = range
            .or_else(|| self.shared.places.0.get(&path).copied())
            .unwrap_or(self.range);
        Deserializer {
            node,
            path,
            range,
            shared: self.shared,
        }
    }

    fn fail(&self, message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            path: self.path.clone(),
            range: Some(self.range),
        }
    }

    fn located(&self, mut e: Error) -> Error {
        if e.path.is_empty() && e.range.is_none() {
            e.path = self.path.clone();
            e.range = Some(self.range);
        }
        e
    }

    /// Evaluates an attribute's expression, now that it is asked for. An
    /// expression that fails is recorded and reads as null.
    fn evaluate(&mut self) {
        let Node::Expr(expr) = &self.node else {
            return;
        };
        // Expressions come only from a body, decoded with a context.
        let r = match self.shared.ctx {
            Some(ctx) => evaluate(expr, ctx),
            None => super::expr::Evaluation {
                value: Value::Null(super::Type::Dynamic),
                diagnostics: Vec::new(),
            },
        };
        let value = if r.diagnostics.is_empty() {
            r.value
        } else {
            self.shared.diagnostics.borrow_mut().extend(r.diagnostics);
            self.shared.failed.borrow_mut().push(self.path.clone());
            Value::Null(super::Type::Dynamic)
        };
        self.node = Node::Value(Cow::Owned(value));
    }

    /// The node taken apart (evaluated first if it is an expression).
    fn parts(&mut self) -> Parts<'v> {
        self.evaluate();
        let node = std::mem::replace(&mut self.node, Node::Blocks(Vec::new()));
        match node {
            Node::Value(v) => value_parts(v),
            // (Evaluated above: never left as an expression.)
            Node::Expr(_) => Parts::Scalar(Cow::Owned(Value::Null(super::Type::Dynamic))),
            Node::Body(body) => Parts::Map(body_entries(&body)),
            Node::Labels(map) => Parts::Map(
                map.into_iter()
                    .map(|(k, (node, range))| (k, node, Some(range)))
                    .collect(),
            ),
            Node::Blocks(items) => Parts::Seq(
                items
                    .into_iter()
                    .map(|(node, range)| (node, Some(range)))
                    .collect(),
            ),
        }
    }

    /// The value, for the primitive types.
    fn scalar(&mut self, expected: &str) -> Result<Cow<'v, Value>, Error> {
        match self.parts() {
            Parts::Scalar(v) => Ok(v),
            Parts::Map(_) => Err(self.fail(format!("{expected} is required, not an object"))),
            Parts::Seq(_) => Err(self.fail(format!("{expected} is required, not a tuple"))),
        }
    }

    fn number(&mut self) -> Result<Number, Error> {
        match self.scalar("a number")?.as_ref() {
            Value::Number(n) => Ok(n.clone()),
            other => Err(self.fail(format!(
                "a number is required, not {}",
                other.ty().friendly_name()
            ))),
        }
    }

    fn visit_parts<'de, V: Visitor<'de>>(
        &self,
        parts: Parts<'v>,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match parts {
            Parts::Scalar(v) => match v.as_ref() {
                Value::Null(_) => visitor.visit_unit(),
                Value::Unknown(_) => Err(self.fail("the value is not known until apply")),
                Value::Bool(b) => visitor.visit_bool(*b),
                Value::Number(n) => match n.to_i64() {
                    Some(i) => visitor.visit_i64(i),
                    None => visitor.visit_f64(n.to_f64()),
                },
                Value::String(s) => visitor.visit_str(s),
                other => Err(self.fail(format!("cannot read {}", other.ty().friendly_name()))),
            },
            Parts::Seq(items) => visitor
                .visit_seq(Seq {
                    de: self,
                    items: items.into_iter(),
                    next: 0,
                })
                .map_err(|e| self.located(e)),
            Parts::Map(entries) => visitor
                .visit_map(Map {
                    de: self,
                    iter: entries.into_iter(),
                    value: None,
                })
                .map_err(|e| self.located(e)),
        }
    }
}

macro_rules! integer {
    ($method:ident, $visit:ident, $t:ty) => {
        fn $method<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
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

impl<'de> de::Deserializer<'de> for Deserializer<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let parts = self.parts();
        self.visit_parts(parts, visitor)
    }

    integer!(deserialize_i8, visit_i8, i8);
    integer!(deserialize_i16, visit_i16, i16);
    integer!(deserialize_i32, visit_i32, i32);
    integer!(deserialize_i64, visit_i64, i64);
    integer!(deserialize_u8, visit_u8, u8);
    integer!(deserialize_u16, visit_u16, u16);
    integer!(deserialize_u32, visit_u32, u32);
    integer!(deserialize_u64, visit_u64, u64);

    fn deserialize_f32<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f32(self.number()?.to_f64() as f32)
    }

    fn deserialize_f64<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_f64(self.number()?.to_f64())
    }

    fn deserialize_bool<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let v = self.scalar("a bool")?;
        match super::convert(&v, &super::Type::Bool) {
            Ok(Value::Bool(b)) => visitor.visit_bool(b),
            _ => Err(self.fail(format!(
                "a bool is required, not {}",
                v.ty().friendly_name()
            ))),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let v = self.scalar("a string")?;
        match super::convert(&v, &super::Type::String) {
            Ok(Value::String(s)) => visitor.visit_string(s.to_string()),
            _ => Err(self.fail(format!(
                "a string is required, not {}",
                v.ty().friendly_name()
            ))),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        self.evaluate();
        match &self.node {
            Node::Value(v) if v.is_null() => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        self.evaluate();
        // A single block (or object) where a sequence of them is expected.
        let single = match &self.node {
            Node::Body(_) | Node::Labels(_) => true,
            Node::Value(v) => matches!(v.unmarked().0, Value::Object(_)),
            _ => false,
        };
        let parts = if single {
            let node = std::mem::replace(&mut self.node, Node::Blocks(Vec::new()));
            Parts::Seq(vec![(node, Some(self.range))])
        } else {
            self.parts()
        };
        match parts {
            Parts::Seq(_) => self.visit_parts(parts, visitor),
            Parts::Scalar(v) => Err(self.fail(format!(
                "a list is required, not {}",
                v.ty().friendly_name()
            ))),
            Parts::Map(_) => Err(self.fail("a list is required, not a map")),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.scalar("a string naming a variant")?.as_ref() {
            Value::String(s) => visitor.visit_enum((&**s).into_deserializer()),
            other => Err(self.fail(format!(
                "a string naming a variant is required, not {}",
                other.ty().friendly_name()
            ))),
        }
    }

    /// A value nobody reads is not evaluated.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct newtype_struct tuple
        tuple_struct map struct identifier
    }
}

struct Seq<'b, 'v, 's> {
    de: &'b Deserializer<'v, 's>,
    items: std::vec::IntoIter<(Node<'v>, Option<TextRange>)>,
    next: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'_, '_, '_> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some((node, range)) = self.items.next() else {
            return Ok(None);
        };
        let de = self.de.at(node, self.next.to_string(), range);
        self.next += 1;
        let (path, range) = (de.path.clone(), de.range);
        seed.deserialize(de).map(Some).map_err(|mut e| {
            if e.path.is_empty() && e.range.is_none() {
                e.path = path;
                e.range = Some(range);
            }
            e
        })
    }
}

struct Map<'b, 'v, 's> {
    de: &'b Deserializer<'v, 's>,
    iter: std::vec::IntoIter<(String, Node<'v>, Option<TextRange>)>,
    value: Option<(String, Node<'v>, Option<TextRange>)>,
}

impl<'de> de::MapAccess<'de> for Map<'_, '_, '_> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((k, node, range)) = self.iter.next() else {
            return Ok(None);
        };
        let key = self.de.at(Node::Blocks(Vec::new()), k.clone(), range);
        let (path, at) = (key.path, key.range);
        let read = seed.deserialize(k.as_str().into_deserializer());
        self.value = Some((k, node, range));
        read.map(Some).map_err(|e: Error| Error {
            message: e.message,
            path,
            range: Some(at),
        })
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (k, node, range) = self.value.take().expect("a key first");
        let de = self.de.at(node, k, range);
        let (path, range) = (de.path.clone(), de.range);
        seed.deserialize(de).map_err(|mut e| {
            if e.path.is_empty() && e.range.is_none() {
                e.path = path;
                e.range = Some(range);
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
