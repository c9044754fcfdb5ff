//! Native syntax to JSON, value for value what `hcl2json` produces.

use crate::ast::{self, AstNode, Body, Expr, TemplatePart};
use crate::eval::template::{Node, template_nodes};
use crate::eval::{EvalContext, Number, evaluate};
use serde_json::{Map, Value as Json};

/// Why a file could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToJsonError {
    /// The file has syntax errors (as `path:line:col: message` lines).
    Syntax(Vec<crate::SyntaxError>),
    /// Blocks that JSON cannot hold together, such as `a {}` beside
    /// `a "x" {}`.
    Blocks(String),
}

impl std::fmt::Display for ToJsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToJsonError::Syntax(errors) => write!(f, "{} syntax errors", errors.len()),
            ToJsonError::Blocks(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ToJsonError {}

/// A configuration file as JSON text, indented as `hcl2json` prints it.
///
/// ```
/// let json = hclwright::convert::to_json("a = 1\nb = \"x${var.y}\"\nr \"t\" \"n\" {\n  c = [true, var.z]\n}\n").unwrap();
/// let value: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(value, serde_json::json!({
///     "a": 1,
///     "b": "x${var.y}",
///     "r": {"t": {"n": [{"c": [true, "${var.z}"]}]}}
/// }));
/// ```
pub fn to_json(text: &str) -> Result<String, ToJsonError> {
    let value = to_json_value(text)?;
    // The indented text is about 1.5 times the input's size.
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    super::json_text::write_indented_into(&value, "    ", &mut out);
    Ok(out)
}

/// The same value as [`to_json`], as compact JSON text (see
/// [`write_compact`](super::write_compact)): what a program that parses the
/// text again wants, about half as long.
///
/// ```
/// let json = hclwright::convert::to_json_compact("a = 1\nb = \"<${var.y}>\"\n").unwrap();
/// assert_eq!(json, r#"{"a":1,"b":"<${var.y}>"}"#);
/// ```
pub fn to_json_compact(text: &str) -> Result<String, ToJsonError> {
    let value = to_json_value(text)?;
    let mut out = String::with_capacity(text.len());
    super::json_text::write_compact_into(&value, &mut out);
    Ok(out)
}

/// A configuration file as a JSON value.
pub fn to_json_value(text: &str) -> Result<Json, ToJsonError> {
    let parse = crate::parse(text);
    if !parse.errors().is_empty() {
        return Err(ToJsonError::Syntax(parse.errors().to_vec()));
    }
    let Some(body) = parse.body() else {
        return Ok(Json::Object(Map::new()));
    };
    body_json(&body)
}

fn body_json(body: &Body) -> Result<Json, ToJsonError> {
    let mut out = Map::new();
    for block in body.blocks() {
        block_json(&block, &mut out)?;
    }
    for attr in body.attributes() {
        if let (Some(name), Some(expr)) = (attr.name(), attr.expr()) {
            out.insert(name, expr_json(&expr));
        }
    }
    Ok(Json::Object(out))
}

/// A block: nested objects by type and labels, the last holding an array
/// of bodies.
fn block_json(block: &ast::Block, out: &mut Map<String, Json>) -> Result<(), ToJsonError> {
    let ty = block.type_name().unwrap_or_default();
    let labels: Vec<String> = block.labels().map(|l| l.value()).collect();
    let body = match block.body() {
        Some(b) => body_json(&b)?,
        None => Json::Object(Map::new()),
    };
    let mut map = out;
    let mut key = ty.clone();
    for label in &labels {
        let entry = map
            .entry(key.clone())
            .or_insert_with(|| Json::Object(Map::new()));
        let Json::Object(inner) = entry else {
            return Err(ToJsonError::Blocks(format!(
                "Unable to convert Block to JSON: {}.{}",
                ty,
                labels.join(".")
            )));
        };
        map = inner;
        key = label.clone();
    }
    match map.get_mut(&key) {
        Some(Json::Array(bodies)) => bodies.push(body),
        Some(_) => {
            return Err(ToJsonError::Blocks(format!(
                "invalid HCL detected for {} block, cannot have blocks with and without labels",
                crate::eval::go_quote(&key)
            )));
        }
        None => {
            map.insert(key, Json::Array(vec![body]));
        }
    }
    Ok(())
}

/// The expression's source, without the spaces and comments around it.
fn source(expr: &Expr) -> String {
    let mut out = String::new();
    push_source(expr, &mut out);
    out
}

/// Appends the expression's source, without the spaces and comments
/// around it, read from the green tree (the typed tree would allocate a
/// node for every token).
fn push_source(expr: &Expr, out: &mut String) {
    let from = out.len();
    let mut edges = Edges::default();
    write_tokens(expr.syntax().green(), out, &mut edges);
    match (edges.first, edges.last) {
        // The first and last tokens, as `trimmed_range` finds them.
        (Some(first), Some(last)) if !edges.empty_edge && first <= last => {
            out.truncate(from + last);
            out.replace_range(from..from + first, "");
        }
        _ if edges.empty_edge => {
            out.truncate(from);
            let range = crate::eval::expr::trimmed_range(expr.syntax());
            let node_start = expr.syntax().text_range().start();
            let text = expr.syntax().text().to_string();
            let start = usize::from(range.start() - node_start);
            let end = usize::from(range.end() - node_start);
            out.push_str(&text[start..end]);
        }
        // Only trivia: the whole text, as `trimmed_range` gives it.
        _ => {}
    }
}

/// Where the text without its leading and trailing trivia starts and ends
/// (offsets from the start of the node's text).
#[derive(Default)]
struct Edges {
    first: Option<usize>,
    last: Option<usize>,
    /// Whether a node without children was met (never in a tree without
    /// errors): `trimmed_range` stops at one on an edge, so such text is
    /// trimmed as it trims.
    empty_edge: bool,
    written: usize,
}

fn write_tokens(green: &rowan::GreenNodeData, out: &mut String, edges: &mut Edges) {
    use crate::syntax_kind::HclLanguage;
    use rowan::{Language, NodeOrToken};
    if green.children().len() == 0 {
        edges.empty_edge = true;
    }
    for child in green.children() {
        match child {
            NodeOrToken::Node(n) => write_tokens(n, out, edges),
            NodeOrToken::Token(t) => {
                let text = t.text();
                if !HclLanguage::kind_from_raw(t.kind()).is_trivia() {
                    edges.first.get_or_insert(edges.written);
                    edges.last = Some(edges.written + text.len());
                }
                edges.written += text.len();
                out.push_str(text);
            }
        }
    }
}

fn wrap(expr: &Expr) -> Json {
    let mut out = String::from("${");
    push_source(expr, &mut out);
    out.push('}');
    Json::String(out)
}

/// A number as cty prints it.
fn number(text: &str) -> Json {
    // A whole number of up to 19 digits without leading zeros prints as
    // itself.
    let b = text.as_bytes();
    if !b.is_empty()
        && b.len() <= 19
        && (b[0] != b'0' || b.len() == 1)
        && b.iter().all(u8::is_ascii_digit)
        && let Ok(n) = text.parse::<u64>()
    {
        return Json::Number(n.into());
    }
    let shown = Number::parse(text).map_or_else(|| text.to_string(), |n| n.to_string());
    serde_json::from_str(&shown).unwrap_or(Json::String(shown))
}

fn literal(l: &ast::Literal) -> Json {
    match l.value() {
        Some(ast::LiteralValue::Number(n)) => number(&n),
        Some(ast::LiteralValue::Bool(b)) => Json::Bool(b),
        _ => Json::Null,
    }
}

pub(crate) fn expr_json(expr: &Expr) -> Json {
    match expr {
        Expr::Literal(l) => literal(l),
        Expr::Unary(u) if matches!(u.operand(), Some(Expr::Literal(_))) => {
            let v = evaluate(expr, &EvalContext::new()).value;
            crate::eval::to_json(&v)
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or_else(|| wrap(expr))
        }
        Expr::QuotedTemplate(_) | Expr::HeredocTemplate(_) => template_json(expr),
        Expr::Tuple(t) => Json::Array(t.elements().map(|e| expr_json(&e)).collect()),
        Expr::Object(o) => {
            let mut map = Map::new();
            for item in o.items() {
                let (Some(key), Some(value)) = (item.key(), item.value()) else {
                    continue;
                };
                map.insert(key_string(&key), expr_json(&value));
            }
            Json::Object(map)
        }
        other => wrap(other),
    }
}

fn key_string(key: &ast::ObjectKey) -> String {
    if let Some(name) = crate::eval::leaf::bare_key_name(key.syntax()) {
        return name.into();
    }
    match key.expr() {
        Some(e) => string_part(&e),
        None => String::new(),
    }
}

/// A template's literal text in Unicode normal form C, as HCL's scanner
/// reads it (`"an\u0303os"` is `"años"`).
fn nfc(text: &str) -> std::borrow::Cow<'_, str> {
    use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
    if is_nfc_quick(text.chars()) == IsNormalized::Yes {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(text.nfc().collect())
    }
}

/// `${` and `%{` in literal text, escaped as a template would need.
fn escape_literal(text: &str) -> String {
    if !text.contains('{') {
        return text.to_string();
    }
    text.replace("${", "$${").replace("%{", "%%{")
}

fn nodes_of(expr: &Expr) -> Option<Vec<Node>> {
    let (parts, heredoc, indented): (Vec<TemplatePart>, bool, bool) = match expr {
        Expr::QuotedTemplate(t) => (t.parts().collect(), false, false),
        Expr::HeredocTemplate(t) => (t.parts().collect(), true, t.is_indented()),
        _ => return None,
    };
    Some(template_nodes(parts, heredoc, indented))
}

fn template_json(expr: &Expr) -> Json {
    // The common case, a quoted string without interpolation.
    if let Expr::QuotedTemplate(t) = expr
        && let Some(crate::eval::Value::String(text)) =
            crate::eval::leaf::literal_string(t.syntax())
    {
        return Json::String(escape_literal(&text));
    }
    let nodes = nodes_of(expr).unwrap_or_default();
    // One interpolation alone is the expression itself.
    if let [Node::Interp(Some(inner), _)] = nodes.as_slice() {
        return expr_json(inner);
    }
    Json::String(render(&nodes))
}

fn render(nodes: &[Node]) -> String {
    let mut out = String::new();
    for node in nodes {
        match node {
            Node::Literal(text) => out.push_str(&escape_literal(&nfc(text))),
            Node::Interp(Some(e), _) => out.push_str(&string_part(e)),
            Node::Interp(None, _) => {}
            Node::If(cond, then_nodes, else_nodes) => {
                out.push_str("%{if ");
                if let Some(c) = cond {
                    out.push_str(&source(c));
                }
                out.push('}');
                out.push_str(&render(then_nodes));
                let otherwise = render(else_nodes);
                if !otherwise.is_empty() {
                    out.push_str("%{else}");
                    out.push_str(&otherwise);
                }
                out.push_str("%{endif}");
            }
            Node::For {
                key,
                value,
                collection,
                body,
            } => {
                out.push_str("%{for ");
                if let Some(k) = key {
                    out.push_str(k);
                    out.push_str(", ");
                }
                out.push_str(value);
                out.push_str(" in ");
                if let Some(c) = collection {
                    out.push_str(&source(c));
                }
                out.push('}');
                out.push_str(&render(body));
                out.push_str("%{endfor}");
            }
        }
    }
    out
}

/// An expression inside a template (or an object key), as text.
fn string_part(expr: &Expr) -> String {
    match expr {
        Expr::Literal(l) => match l.value() {
            Some(ast::LiteralValue::Null) | None => "null".to_string(),
            Some(ast::LiteralValue::Bool(b)) => b.to_string(),
            Some(ast::LiteralValue::Number(n)) => {
                escape_literal(&Number::parse(&n).map_or(n.clone(), |v| v.to_string()))
            }
        },
        Expr::QuotedTemplate(_) | Expr::HeredocTemplate(_) => {
            let nodes = nodes_of(expr).unwrap_or_default();
            match nodes.as_slice() {
                [Node::Interp(Some(inner), _)] => string_part(inner),
                _ => render(&nodes),
            }
        }
        Expr::Conditional(c) => {
            let mut out = String::from("%{if ");
            if let Some(cond) = c.condition() {
                out.push_str(&source(&cond));
            }
            out.push('}');
            if let Some(t) = c.true_expr() {
                out.push_str(&string_part(&t));
            }
            let otherwise = c.false_expr().map(|f| string_part(&f)).unwrap_or_default();
            if !otherwise.is_empty() {
                out.push_str("%{else}");
                out.push_str(&otherwise);
            }
            out.push_str("%{endif}");
            out
        }
        other => format!("${{{}}}", source(other)),
    }
}
