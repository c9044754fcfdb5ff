//! Values to write into a document: from Rust values or from HCL
//! expression source, and the decoded values of literals read from it.

use std::collections::BTreeMap;
use std::fmt;

use super::error::{EditError, render_errors};
use crate::ast::{AstNode, Expr, LiteralValue, TemplatePart};
use crate::refs::{escape_string, is_identifier};

/// A value: plain data (null, bool, number, string, list, object) or an
/// HCL expression given as source.
///
/// Plain data is written in canonical HCL: strings are quoted with
/// escapes (`${` and `%{` are escaped so they stay literal text), object
/// keys are quoted when they are not identifiers, lists are written on
/// one line and objects one item per line. A [`Value::heredoc`] writes a
/// multi-line string as a heredoc.
///
/// ```
/// use hclwright::Value;
/// assert_eq!(Value::from("a ${b}").to_source(), r#""a $${b}""#);
/// assert_eq!(Value::from(vec![1, 2]).to_source(), "[1, 2]");
/// let tags = Value::object([("Name", Value::from("web")), ("cost center", Value::from(42))]);
/// assert_eq!(tags.to_source(), "{\n  Name          = \"web\"\n  \"cost center\" = 42\n}");
/// assert_eq!(Value::parse("var.region").unwrap().to_source(), "var.region");
/// assert!(Value::parse("[1,").is_err());
/// assert_eq!(Value::traversal(["var", "subnets", "0", "a b"]).to_source(), r#"var.subnets[0]["a b"]"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its exact decimal text (`1`, `-2.5`, `1e3`).
    Number(String),
    /// A string (written quoted; see [`Value::heredoc`] for the other form).
    String(String),
    /// A string written as a heredoc (`<<EOT` … `EOT`).
    Heredoc(String),
    /// A tuple.
    List(Vec<Value>),
    /// An object, keys in order.
    Object(Vec<(String, Value)>),
    /// An HCL expression, as source text that parses without errors
    /// (made by [`Value::parse`]).
    Expr(String),
}

impl Value {
    /// An HCL expression from its source text, such as `var.region`,
    /// `"~> 5.0"` or `[for s in var.subnets : s.id]`. Fails, naming the
    /// problem, when the text does not parse as one expression.
    pub fn parse(source: &str) -> Result<Value, EditError> {
        let source = source.trim();
        // A heredoc's closing marker ends its line: check it with the
        // newline that follows it in a file.
        let parse = crate::parse_expr(&format!("{source}\n"));
        if !parse.errors().is_empty() {
            return Err(EditError::InvalidValue {
                source: source.to_string(),
                reason: render_errors(parse.errors()),
            });
        }
        let root = parse.syntax();
        if root.children().filter(|n| Expr::can_cast(n.kind())).count() != 1 {
            return Err(EditError::InvalidValue {
                source: source.to_string(),
                reason: "expected one expression".to_string(),
            });
        }
        Ok(Value::Expr(source.to_string()))
    }

    /// A string written as a heredoc. A heredoc's value ends with a
    /// newline: one is added when `text` does not end with one.
    ///
    /// ```
    /// let v = hclwright::Value::heredoc("line 1\nline 2\n");
    /// assert_eq!(v.to_source(), "<<EOT\nline 1\nline 2\nEOT");
    /// ```
    ///
    /// A heredoc's closing marker must be alone on its line. Where a
    /// heredoc (this one, or one in [`Value::parse`]d source) goes where
    /// something followed the old value on its line, that moves: a
    /// comment to a line of its own above, an object item's comma or a
    /// trailing comma away (a newline separates them), anything else (a
    /// comma between elements, a closing bracket) to the next line; a
    /// one-line block is written over several lines.
    ///
    /// ```
    /// use hclwright::{Document, Value};
    /// let mut doc = Document::parse("cmd = \"true\" # the command\nargs = [\"-c\", \"x\"]\n").unwrap();
    /// doc.set("cmd", Value::heredoc("echo hi\n")).unwrap();
    /// doc.set("args[0]", Value::heredoc("-c\n")).unwrap();
    /// assert_eq!(
    ///     doc.to_string(),
    ///     "# the command\ncmd = <<EOT\necho hi\nEOT\nargs = [<<EOT\n-c\nEOT\n, \"x\"]\n"
    /// );
    /// ```
    pub fn heredoc(text: impl Into<String>) -> Value {
        Value::Heredoc(text.into())
    }

    /// An object from key–value pairs, in order.
    pub fn object<K: Into<String>, V: Into<Value>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Value {
        Value::Object(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }

    /// A traversal (a reference) from its steps: the first is the root
    /// variable, then each step is an attribute when it is an identifier,
    /// an index when it is a number, and a quoted key otherwise.
    pub fn traversal<S: AsRef<str>>(steps: impl IntoIterator<Item = S>) -> Value {
        let mut out = String::new();
        for (i, step) in steps.into_iter().enumerate() {
            let step = step.as_ref();
            if i == 0 {
                out.push_str(step);
            } else if is_identifier(step) {
                out.push('.');
                out.push_str(step);
            } else if !step.is_empty() && step.bytes().all(|b| b.is_ascii_digit()) {
                out.push_str(&format!("[{step}]"));
            } else {
                out.push_str(&format!("[\"{}\"]", escape_string(step)));
            }
        }
        Value::Expr(out)
    }

    /// The HCL source of the value, canonically laid out at indentation
    /// zero.
    pub fn to_source(&self) -> String {
        let mut raw = String::new();
        self.write_raw(&mut raw);
        if raw.contains('\n') && !matches!(self, Value::Heredoc(_)) {
            // Lay out nested objects; the formatter never changes the
            // tokens.
            let formatted = crate::format(&format!("x = {raw}\n"));
            formatted["x = ".len()..formatted.len() - 1].to_string()
        } else {
            raw
        }
    }

    /// The source before layout.
    fn write_raw(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => out.push_str(n),
            Value::String(s) => {
                out.push('"');
                out.push_str(&escape_string(s));
                out.push('"');
            }
            Value::Heredoc(s) => write_heredoc(s, out),
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        // A heredoc ends its line: the comma starts the next.
                        if matches!(items[i - 1], Value::Heredoc(_)) {
                            out.push('\n');
                        }
                        out.push_str(", ");
                    }
                    item.write_raw(out);
                }
                if matches!(items.last(), Some(Value::Heredoc(_))) {
                    out.push('\n');
                }
                out.push(']');
            }
            Value::Object(pairs) if pairs.is_empty() => out.push_str("{}"),
            Value::Object(pairs) => {
                out.push_str("{\n");
                for (k, v) in pairs {
                    out.push_str(&object_key(k));
                    out.push_str(" = ");
                    v.write_raw(out);
                    out.push('\n');
                }
                out.push('}');
            }
            Value::Expr(src) => out.push_str(src),
        }
    }

    /// The value of a literal expression: numbers, bools, null, strings
    /// without interpolation (quoted or heredoc), and tuples and objects
    /// made of those. `None` for anything else (references, calls,
    /// templates with interpolations…).
    pub fn decode(expr: &Expr) -> Option<Value> {
        match expr {
            Expr::Literal(l) => Some(match l.value()? {
                LiteralValue::Number(n) => Value::Number(n),
                LiteralValue::Bool(b) => Value::Bool(b),
                LiteralValue::Null => Value::Null,
            }),
            Expr::QuotedTemplate(t) => t.literal_value().map(Value::String),
            Expr::HeredocTemplate(h) => {
                let mut text = String::new();
                for part in h.parts() {
                    match part {
                        TemplatePart::Literal(t) => text.push_str(&decode_heredoc(t.text())),
                        _ => return None,
                    }
                }
                if h.is_indented() {
                    text = dedent(&text);
                }
                Some(Value::String(text))
            }
            Expr::Tuple(t) => t
                .elements()
                .map(|e| Value::decode(&e))
                .collect::<Option<Vec<_>>>()
                .map(Value::List),
            Expr::Object(o) => o
                .items()
                .map(|item| Some((item.key()?.literal_name()?, Value::decode(&item.value()?)?)))
                .collect::<Option<Vec<_>>>()
                .map(Value::Object),
            Expr::Unary(u) => {
                let op = u.op()?;
                match (op.text(), Value::decode(&u.operand()?)?) {
                    ("-", Value::Number(n)) if !n.starts_with('-') => {
                        Some(Value::Number(format!("-{n}")))
                    }
                    ("!", Value::Bool(b)) => Some(Value::Bool(!b)),
                    _ => None,
                }
            }
            Expr::Paren(p) => Value::decode(&p.expr()?),
            _ => None,
        }
    }

    /// The string, for [`Value::String`] and [`Value::Heredoc`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) | Value::Heredoc(s) => Some(s),
            _ => None,
        }
    }
}

/// An object key: bare when it is an identifier, quoted otherwise.
pub(crate) fn object_key(key: &str) -> String {
    if is_identifier(key) && !matches!(key, "true" | "false" | "null" | "for" | "in" | "if") {
        key.to_string()
    } else {
        format!("\"{}\"", escape_string(key))
    }
}

/// Writes `s` as a heredoc with a marker that does not occur as a line.
fn write_heredoc(s: &str, out: &mut String) {
    let mut marker = "EOT".to_string();
    let mut n = 0;
    while s.lines().any(|l| l.trim() == marker) {
        n += 1;
        marker = format!("EOT{n}");
    }
    out.push_str("<<");
    out.push_str(&marker);
    out.push('\n');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if (c == '$' || c == '%') && chars.peek() == Some(&'{') {
            out.push(c);
        }
    }
    if !s.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&marker);
}

/// Decodes `$${` / `%%{` in heredoc text (heredocs have no backslash
/// escapes).
fn decode_heredoc(text: &str) -> String {
    text.replace("$${", "${").replace("%%{", "%{")
}

/// Removes the spaces common to every non-blank line (`<<-` heredocs).
fn dedent(text: &str) -> String {
    let min = text
        .split_inclusive('\n')
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    text.split_inclusive('\n')
        .map(|l| {
            if l.len() >= min && l[..min].bytes().all(|b| b == b' ') {
                &l[min..]
            } else {
                l.trim_start_matches(' ')
            }
        })
        .collect()
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_source())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Value {
        Value::String(s.clone())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(n.to_string())
            }
        }
    )*};
}

from_int!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

/// A float that is not finite has no HCL literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotFinite;

impl fmt::Display for NotFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NaN and infinities have no HCL literal")
    }
}

impl std::error::Error for NotFinite {}

impl TryFrom<f64> for Value {
    type Error = NotFinite;
    /// ```
    /// use hclwright::Value;
    /// assert_eq!(Value::try_from(2.5).unwrap().to_source(), "2.5");
    /// assert!(Value::try_from(f64::NAN).is_err());
    /// ```
    fn try_from(n: f64) -> Result<Value, NotFinite> {
        if n.is_finite() {
            Ok(Value::Number(format!("{n}")))
        } else {
            Err(NotFinite)
        }
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Value {
        Value::List(items.into_iter().map(Into::into).collect())
    }
}

impl<K: Into<String>, V: Into<Value>> From<BTreeMap<K, V>> for Value {
    fn from(map: BTreeMap<K, V>) -> Value {
        Value::object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(src: &str) -> Option<Value> {
        let parse = crate::parse_expr(&format!("{src}\n"));
        let expr = parse.syntax().children().find_map(Expr::cast)?;
        Value::decode(&expr)
    }

    #[test]
    fn decodes_literals() {
        assert_eq!(decoded("1.50"), Some(Value::Number("1.50".into())));
        assert_eq!(decoded("-3"), Some(Value::Number("-3".into())));
        assert_eq!(decoded("true"), Some(Value::Bool(true)));
        assert_eq!(decoded("null"), Some(Value::Null));
        assert_eq!(
            decoded(r#""a\tb$${c}""#),
            Some(Value::String("a\tb${c}".into()))
        );
        assert_eq!(decoded(r#""a${b}""#), None);
        assert_eq!(decoded("var.x"), None);
        assert_eq!(
            decoded("{ a = [1, \"x\"], \"b c\" = null }"),
            Some(Value::object([
                ("a", Value::List(vec![1.into(), "x".into()])),
                ("b c", Value::Null)
            ]))
        );
        assert_eq!(
            decoded("<<EOT\nx\n  y\nEOT\n"),
            Some(Value::String("x\n  y\n".into()))
        );
        assert_eq!(
            decoded("<<-EOT\n    x\n      y\n    EOT\n"),
            Some(Value::String("x\n  y\n".into()))
        );
    }

    #[test]
    fn writes_sources_that_parse_back() {
        let values = [
            Value::from("quote \" back \\ ${x} %{y} \n tab\t"),
            Value::heredoc("a ${b}\nEOT\n"),
            Value::from(vec![Value::Null, true.into(), 1.into()]),
            Value::object([("a", Value::object([("b", 1)])), ("if", Value::from(2))]),
            Value::Object(vec![]),
            Value::List(vec![]),
        ];
        for v in values {
            let src = v.to_source();
            assert!(Value::parse(&src).is_ok(), "{src}");
            let expected = match &v {
                Value::Heredoc(s) => Value::String(s.clone()),
                other => other.clone(),
            };
            assert_eq!(decoded(&src), Some(expected), "{src}");
        }
    }

    #[test]
    fn keywords_as_keys_are_quoted() {
        assert_eq!(object_key("null"), "\"null\"");
        assert_eq!(object_key("a-b"), "a-b");
        assert_eq!(object_key("1a"), "\"1a\"");
    }
}
