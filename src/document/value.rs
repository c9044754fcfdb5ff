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
/// one line and objects one item per line. A [`EditValue::heredoc`] writes a
/// multi-line string as a heredoc.
///
/// ```
/// use hclwright::EditValue;
/// assert_eq!(EditValue::from("a ${b}").to_source(), r#""a $${b}""#);
/// assert_eq!(EditValue::from(vec![1, 2]).to_source(), "[1, 2]");
/// let tags = EditValue::object([("Name", EditValue::from("web")), ("cost center", EditValue::from(42))]);
/// assert_eq!(tags.to_source(), "{\n  Name          = \"web\"\n  \"cost center\" = 42\n}");
/// assert_eq!(EditValue::parse("var.region").unwrap().to_source(), "var.region");
/// assert!(EditValue::parse("[1,").is_err());
/// assert_eq!(EditValue::traversal(["var", "subnets", "0", "a b"]).to_source(), r#"var.subnets[0]["a b"]"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its exact decimal text (`1`, `-2.5`, `1e3`).
    Number(String),
    /// A string (written quoted; see [`EditValue::heredoc`] for the other form).
    String(String),
    /// A string written as a heredoc (`<<EOT` … `EOT`).
    Heredoc(String),
    /// A tuple.
    List(Vec<EditValue>),
    /// An object, keys in order.
    Object(Vec<(String, EditValue)>),
    /// An HCL expression, as source text that parses without errors
    /// (made by [`EditValue::parse`]).
    Expr(String),
}

impl EditValue {
    /// An HCL expression from its source text, such as `var.region`,
    /// `"~> 5.0"` or `[for s in var.subnets : s.id]`. Fails, naming the
    /// problem, when the text does not parse as one expression.
    pub fn parse(source: &str) -> Result<EditValue, EditError> {
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
        Ok(EditValue::Expr(source.to_string()))
    }

    /// A string written as a heredoc. A heredoc's value ends with a
    /// newline: one is added when `text` does not end with one.
    ///
    /// ```
    /// let v = hclwright::EditValue::heredoc("line 1\nline 2\n");
    /// assert_eq!(v.to_source(), "<<EOT\nline 1\nline 2\nEOT");
    /// ```
    ///
    /// A heredoc's closing marker must be alone on its line. Where a
    /// heredoc (this one, or one in [`EditValue::parse`]d source) goes where
    /// something followed the old value on its line, that moves: a
    /// comment to a line of its own above, an object item's comma or a
    /// trailing comma away (a newline separates them), anything else (a
    /// comma between elements, a closing bracket) to the next line; a
    /// one-line block is written over several lines.
    ///
    /// ```
    /// use hclwright::{Document, EditValue};
    /// let mut doc = Document::parse("cmd = \"true\" # the command\nargs = [\"-c\", \"x\"]\n").unwrap();
    /// doc.set("cmd", EditValue::heredoc("echo hi\n")).unwrap();
    /// doc.set("args[0]", EditValue::heredoc("-c\n")).unwrap();
    /// assert_eq!(
    ///     doc.to_string(),
    ///     "# the command\ncmd = <<EOT\necho hi\nEOT\nargs = [<<EOT\n-c\nEOT\n, \"x\"]\n"
    /// );
    /// ```
    pub fn heredoc(text: impl Into<String>) -> EditValue {
        EditValue::Heredoc(text.into())
    }

    /// An object from key–value pairs, in order.
    pub fn object<K: Into<String>, V: Into<EditValue>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> EditValue {
        EditValue::Object(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }

    /// A traversal (a reference) from its steps: the first is the root
    /// variable, then each step is an attribute when it is an identifier,
    /// an index when it is a number, and a quoted key otherwise.
    pub fn traversal<S: AsRef<str>>(steps: impl IntoIterator<Item = S>) -> EditValue {
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
        EditValue::Expr(out)
    }

    /// The HCL source of the value, canonically laid out at indentation
    /// zero.
    pub fn to_source(&self) -> String {
        let mut raw = String::new();
        self.write_raw(&mut raw);
        if raw.contains('\n') && !matches!(self, EditValue::Heredoc(_)) {
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
            EditValue::Null => out.push_str("null"),
            EditValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            EditValue::Number(n) => out.push_str(n),
            EditValue::String(s) => {
                out.push('"');
                out.push_str(&escape_string(s));
                out.push('"');
            }
            EditValue::Heredoc(s) => write_heredoc(s, out),
            EditValue::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        // A heredoc ends its line: the comma starts the next.
                        if matches!(items[i - 1], EditValue::Heredoc(_)) {
                            out.push('\n');
                        }
                        out.push_str(", ");
                    }
                    item.write_raw(out);
                }
                if matches!(items.last(), Some(EditValue::Heredoc(_))) {
                    out.push('\n');
                }
                out.push(']');
            }
            EditValue::Object(pairs) if pairs.is_empty() => out.push_str("{}"),
            EditValue::Object(pairs) => {
                out.push_str("{\n");
                for (k, v) in pairs {
                    out.push_str(&object_key(k));
                    out.push_str(" = ");
                    v.write_raw(out);
                    out.push('\n');
                }
                out.push('}');
            }
            EditValue::Expr(src) => out.push_str(src),
        }
    }

    /// The value of a literal expression: numbers, bools, null, strings
    /// without interpolation (quoted or heredoc), and tuples and objects
    /// made of those. `None` for anything else (references, calls,
    /// templates with interpolations…).
    pub fn decode(expr: &Expr) -> Option<EditValue> {
        match expr {
            Expr::Literal(l) => Some(match l.value()? {
                LiteralValue::Number(n) => EditValue::Number(n),
                LiteralValue::Bool(b) => EditValue::Bool(b),
                LiteralValue::Null => EditValue::Null,
            }),
            Expr::QuotedTemplate(t) => t.literal_value().map(EditValue::String),
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
                Some(EditValue::String(text))
            }
            Expr::Tuple(t) => t
                .elements()
                .map(|e| EditValue::decode(&e))
                .collect::<Option<Vec<_>>>()
                .map(EditValue::List),
            Expr::Object(o) => o
                .items()
                .map(|item| {
                    Some((
                        item.key()?.literal_name()?,
                        EditValue::decode(&item.value()?)?,
                    ))
                })
                .collect::<Option<Vec<_>>>()
                .map(EditValue::Object),
            Expr::Unary(u) => {
                let op = u.op()?;
                match (op.text(), EditValue::decode(&u.operand()?)?) {
                    ("-", EditValue::Number(n)) if !n.starts_with('-') => {
                        Some(EditValue::Number(format!("-{n}")))
                    }
                    ("!", EditValue::Bool(b)) => Some(EditValue::Bool(!b)),
                    _ => None,
                }
            }
            Expr::Paren(p) => EditValue::decode(&p.expr()?),
            _ => None,
        }
    }

    /// The string, for [`EditValue::String`] and [`EditValue::Heredoc`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            EditValue::String(s) | EditValue::Heredoc(s) => Some(s),
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

impl fmt::Display for EditValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_source())
    }
}

impl From<&str> for EditValue {
    fn from(s: &str) -> EditValue {
        EditValue::String(s.to_string())
    }
}

impl From<String> for EditValue {
    fn from(s: String) -> EditValue {
        EditValue::String(s)
    }
}

impl From<&String> for EditValue {
    fn from(s: &String) -> EditValue {
        EditValue::String(s.clone())
    }
}

impl From<bool> for EditValue {
    fn from(b: bool) -> EditValue {
        EditValue::Bool(b)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for EditValue {
            fn from(n: $t) -> EditValue {
                EditValue::Number(n.to_string())
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

impl TryFrom<f64> for EditValue {
    type Error = NotFinite;
    /// ```
    /// use hclwright::EditValue;
    /// assert_eq!(EditValue::try_from(2.5).unwrap().to_source(), "2.5");
    /// assert!(EditValue::try_from(f64::NAN).is_err());
    /// ```
    fn try_from(n: f64) -> Result<EditValue, NotFinite> {
        if n.is_finite() {
            Ok(EditValue::Number(format!("{n}")))
        } else {
            Err(NotFinite)
        }
    }
}

impl<T: Into<EditValue>> From<Option<T>> for EditValue {
    fn from(v: Option<T>) -> EditValue {
        v.map_or(EditValue::Null, Into::into)
    }
}

impl<T: Into<EditValue>> From<Vec<T>> for EditValue {
    fn from(items: Vec<T>) -> EditValue {
        EditValue::List(items.into_iter().map(Into::into).collect())
    }
}

impl<K: Into<String>, V: Into<EditValue>> From<BTreeMap<K, V>> for EditValue {
    fn from(map: BTreeMap<K, V>) -> EditValue {
        EditValue::object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(src: &str) -> Option<EditValue> {
        let parse = crate::parse_expr(&format!("{src}\n"));
        let expr = parse.syntax().children().find_map(Expr::cast)?;
        EditValue::decode(&expr)
    }

    #[test]
    fn decodes_literals() {
        assert_eq!(decoded("1.50"), Some(EditValue::Number("1.50".into())));
        assert_eq!(decoded("-3"), Some(EditValue::Number("-3".into())));
        assert_eq!(decoded("true"), Some(EditValue::Bool(true)));
        assert_eq!(decoded("null"), Some(EditValue::Null));
        assert_eq!(
            decoded(r#""a\tb$${c}""#),
            Some(EditValue::String("a\tb${c}".into()))
        );
        assert_eq!(decoded(r#""a${b}""#), None);
        assert_eq!(decoded("var.x"), None);
        assert_eq!(
            decoded("{ a = [1, \"x\"], \"b c\" = null }"),
            Some(EditValue::object([
                ("a", EditValue::List(vec![1.into(), "x".into()])),
                ("b c", EditValue::Null)
            ]))
        );
        assert_eq!(
            decoded("<<EOT\nx\n  y\nEOT\n"),
            Some(EditValue::String("x\n  y\n".into()))
        );
        assert_eq!(
            decoded("<<-EOT\n    x\n      y\n    EOT\n"),
            Some(EditValue::String("x\n  y\n".into()))
        );
    }

    #[test]
    fn writes_sources_that_parse_back() {
        let values = [
            EditValue::from("quote \" back \\ ${x} %{y} \n tab\t"),
            EditValue::heredoc("a ${b}\nEOT\n"),
            EditValue::from(vec![EditValue::Null, true.into(), 1.into()]),
            EditValue::object([
                ("a", EditValue::object([("b", 1)])),
                ("if", EditValue::from(2)),
            ]),
            EditValue::Object(vec![]),
            EditValue::List(vec![]),
        ];
        for v in values {
            let src = v.to_source();
            assert!(EditValue::parse(&src).is_ok(), "{src}");
            let expected = match &v {
                EditValue::Heredoc(s) => EditValue::String(s.clone()),
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
