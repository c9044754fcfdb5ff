//! JSON syntax to native syntax: the inverse of [`to_json`](super::to_json)
//! for what `hcl2json` writes, and a faithful reading of hand-written
//! `.tf.json` for Terraform's top-level blocks.
//!
//! JSON alone cannot tell a block from an attribute holding objects; the
//! JSON syntax leaves that to the application's schema. Without one, this
//! conversion decides as follows: Terraform's top-level block types take
//! their known number of labels (`resource` two, `variable` one, `locals`
//! none...); elsewhere a property is a block when its value is an array of
//! objects, or an object whose every property is itself block-shaped (one
//! label level each), which is how `hcl2json` writes blocks. Everything
//! else is an attribute. `"//"` properties become `#` comments; strings
//! that are one interpolation (`"${var.a}"`) become the bare expression.

use std::fmt::Write;

use crate::ast::AstNode;
use crate::json::{JsonObject, JsonValue};
use crate::syntax_error::SyntaxError;

/// Why a JSON text could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToHclError {
    /// The JSON has syntax errors.
    Syntax(Vec<SyntaxError>),
    /// Something has no native form (a message naming it).
    Unrepresentable(String),
}

impl std::fmt::Display for ToHclError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToHclError::Syntax(errors) => write!(f, "{} syntax errors", errors.len()),
            ToHclError::Unrepresentable(m) => f.write_str(m),
        }
    }
}

/// Label counts of Terraform's top-level block types.
const TERRAFORM_BLOCKS: &[(&str, usize)] = &[
    ("resource", 2),
    ("data", 2),
    ("ephemeral", 2),
    ("variable", 1),
    ("output", 1),
    ("module", 1),
    ("provider", 1),
    ("check", 1),
    ("locals", 0),
    ("terraform", 0),
    ("moved", 0),
    ("import", 0),
    ("removed", 0),
];

/// Converts a JSON syntax file to the native syntax, laid out by the
/// formatter.
///
/// ```
/// let json = r#"{"variable": {"region": {"default": "eu"}}, "locals": {"a": "${var.region}-x", "b": "${1 + 2}"}}"#;
/// let hcl = hclwright::convert::to_hcl(json).unwrap();
/// assert_eq!(hcl, "variable \"region\" {\n  default = \"eu\"\n}\nlocals {\n  a = \"${var.region}-x\"\n  b = 1 + 2\n}\n");
/// ```
pub fn to_hcl(text: &str) -> Result<String, ToHclError> {
    let parse = crate::json::parse(text);
    if !parse.errors().is_empty() {
        return Err(ToHclError::Syntax(parse.errors().to_vec()));
    }
    let root = parse
        .root()
        .ok_or_else(|| ToHclError::Unrepresentable("the file holds no JSON value".into()))?;
    let mut out = String::new();
    for object in body_objects(&root)? {
        write_body(&object, None, &mut out)?;
    }
    let formatted = crate::format(&out);
    if let Some(e) = crate::syntax_errors(&formatted).first() {
        return Err(ToHclError::Unrepresentable(format!(
            "the result does not parse ({}); a string holds an expression that is not valid",
            e.message
        )));
    }
    Ok(formatted)
}

fn body_objects(value: &JsonValue) -> Result<Vec<JsonObject>, ToHclError> {
    match value {
        JsonValue::Object(o) => Ok(vec![o.clone()]),
        JsonValue::Array(a) => a
            .elements()
            .map(|e| match e {
                JsonValue::Object(o) => Ok(o),
                other => Err(ToHclError::Unrepresentable(format!(
                    "a body must be an object, found {}",
                    other.kind_name()
                ))),
            })
            .collect(),
        other => Err(ToHclError::Unrepresentable(format!(
            "a body must be an object, found {}",
            other.kind_name()
        ))),
    }
}

/// Writes the items of a body; `in_block` is the type of the Terraform
/// top-level block it is the body of (`None` at the top).
fn write_body(
    object: &JsonObject,
    in_block: Option<&str>,
    out: &mut String,
) -> Result<(), ToHclError> {
    let top = in_block.is_none();
    for member in object.members() {
        let (Some(name), Some(value)) = (member.name(), member.value()) else {
            continue;
        };
        if name == "//" {
            let text = match value.as_str() {
                Some(s) => s.into_owned(),
                None => value.text(),
            };
            for line in text.lines() {
                let _ = writeln!(out, "# {line}");
            }
            continue;
        }
        let known = top
            .then(|| TERRAFORM_BLOCKS.iter().find(|(t, _)| *t == name))
            .flatten();
        let blocks = match known {
            Some((_, labels)) => Some(blocks_with_labels(&value, *labels)?),
            None if block_shaped(&value) => Some(generic_blocks(&value)),
            None => None,
        };
        match blocks {
            Some(blocks) => {
                for (labels, body) in blocks {
                    check_identifier(&name)?;
                    out.push_str(&name);
                    for l in &labels {
                        // Labels are literal: no template sequences.
                        out.push_str(" \"");
                        crate::json::escape_into(
                            &l.replace("${", "$${").replace("%{", "%%{"),
                            out,
                            false,
                        );
                        out.push('"');
                    }
                    out.push_str(" {\n");
                    let inner = if top { name.as_str() } else { "" };
                    write_body(&body, Some(inner), out)?;
                    out.push_str("}\n");
                }
            }
            None => {
                check_identifier(&name)?;
                let expr = match keyword_expression(in_block, &name, &value) {
                    Some(bare) => bare,
                    None => expression(&value)?,
                };
                let _ = writeln!(out, "{name} = {expr}");
            }
        }
    }
    Ok(())
}

/// Terraform's arguments that JSON writes as strings holding an
/// expression to read statically (a type, references): written bare.
fn keyword_expression(in_block: Option<&str>, name: &str, value: &JsonValue) -> Option<String> {
    let bare = |v: &JsonValue| -> Option<String> {
        let s = v.as_str()?;
        crate::parse_expr(&s)
            .errors()
            .is_empty()
            .then(|| s.trim().to_string())
    };
    match (in_block?, name, value) {
        ("variable", "type", _) => bare(value),
        ("resource" | "data" | "ephemeral", "provider", _) => bare(value),
        (
            "resource" | "data" | "module" | "output" | "ephemeral",
            "depends_on",
            JsonValue::Array(a),
        ) => {
            let items: Option<Vec<String>> = a.elements().map(|e| bare(&e)).collect();
            Some(format!("[{}]", items?.join(", ")))
        }
        _ => None,
    }
}

/// Blocks read with exactly `labels` label levels (Terraform's types).
fn blocks_with_labels(
    value: &JsonValue,
    labels: usize,
) -> Result<Vec<(Vec<String>, JsonObject)>, ToHclError> {
    let mut out = Vec::new();
    let mut todo = vec![(value.clone(), Vec::new())];
    while let Some((v, path)) = todo.pop() {
        if matches!(v, JsonValue::Null(_)) {
            // A null block or label level defines no blocks.
            continue;
        }
        if path.len() == labels {
            for o in body_objects(&v)? {
                out.push((path.clone(), o));
            }
            continue;
        }
        match &v {
            // Children pushed last first, so they are taken in order.
            JsonValue::Object(o) => {
                let members: Vec<_> = o.members().collect();
                for m in members.into_iter().rev() {
                    if let (Some(n), Some(inner)) = (m.name(), m.value()) {
                        let mut p = path.clone();
                        p.push(n);
                        todo.push((inner, p));
                    }
                }
            }
            JsonValue::Array(a) => {
                let elements: Vec<_> = a.elements().collect();
                for e in elements.into_iter().rev() {
                    todo.push((e, path.clone()));
                }
            }
            other => {
                return Err(ToHclError::Unrepresentable(format!(
                    "expected an object of block labels, found {}",
                    other.kind_name()
                )));
            }
        }
    }
    Ok(out)
}

/// True when `value` reads as blocks: an array of objects, or an object
/// whose every property is block-shaped (a label level).
fn block_shaped(value: &JsonValue) -> bool {
    match value {
        JsonValue::Array(a) => {
            let mut elements = a.elements().peekable();
            elements.peek().is_some() && elements.all(|e| matches!(e, JsonValue::Object(_)))
        }
        JsonValue::Object(o) => {
            let mut members = o.members().peekable();
            members.peek().is_some() && members.all(|m| m.value().is_some_and(|v| block_shaped(&v)))
        }
        _ => false,
    }
}

fn generic_blocks(value: &JsonValue) -> Vec<(Vec<String>, JsonObject)> {
    let mut out = Vec::new();
    collect_generic(value, &mut Vec::new(), &mut out);
    out
}

fn collect_generic(
    value: &JsonValue,
    labels: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, JsonObject)>,
) {
    match value {
        JsonValue::Array(a) => {
            for e in a.elements() {
                if let JsonValue::Object(o) = e {
                    out.push((labels.clone(), o));
                }
            }
        }
        JsonValue::Object(o) => {
            for m in o.members() {
                if let (Some(n), Some(v)) = (m.name(), m.value()) {
                    labels.push(n);
                    collect_generic(&v, labels, out);
                    labels.pop();
                }
            }
        }
        _ => {}
    }
}

fn check_identifier(name: &str) -> Result<(), ToHclError> {
    if crate::refs::is_identifier(name) {
        Ok(())
    } else {
        Err(ToHclError::Unrepresentable(format!(
            "{name:?} is not a valid name for an attribute or block in the native syntax"
        )))
    }
}

/// The native expression for a JSON value.
fn expression(value: &JsonValue) -> Result<String, ToHclError> {
    Ok(match value {
        JsonValue::String(_) => {
            let s = value.as_str().unwrap_or_default();
            match single_interpolation(&s) {
                Some(inner) => inner,
                None => quoted(&s),
            }
        }
        JsonValue::Number(t) | JsonValue::Bool(t) | JsonValue::Null(t) | JsonValue::Invalid(t) => {
            t.text().to_string()
        }
        JsonValue::Array(a) => {
            let items: Result<Vec<String>, ToHclError> =
                a.elements().map(|e| expression(&e)).collect();
            format!("[{}]", items?.join(", "))
        }
        JsonValue::Object(o) => {
            let mut s = String::from("{\n");
            for m in o.members() {
                let (Some(n), Some(v)) = (m.name(), m.value()) else {
                    continue;
                };
                let key = if check_identifier(&n).is_ok() {
                    n
                } else {
                    quoted(&n)
                };
                let _ = writeln!(s, "{key} = {}", expression(&v)?);
            }
            s.push('}');
            s
        }
    })
}

/// The expression of a template that is exactly one interpolation
/// (`${ a + b }`), as written.
fn single_interpolation(s: &str) -> Option<String> {
    if !s.starts_with("${") || !s.ends_with('}') {
        return None;
    }
    let parse = crate::parse_template(s);
    if !parse.errors().is_empty() {
        return None;
    }
    let root = crate::ast::TemplateRoot::cast(parse.syntax())?;
    let parts: Vec<_> = root.parts().collect();
    match parts.as_slice() {
        [crate::ast::TemplatePart::Interpolation(i)] => {
            Some(i.expr()?.syntax().to_string().trim().to_string())
        }
        _ => None,
    }
}

/// A native quoted template for the JSON string `s`: its literal text
/// escaped, its `${ }` and `%{ }` sequences kept as written (their
/// expressions are native syntax already).
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    if s.contains("${") || s.contains("%{") {
        let parse = crate::parse_template(s);
        if parse.errors().is_empty() {
            write_template(&parse.syntax(), &mut out);
            out.push('"');
            return out;
        }
    }
    // Not a template: its text is literal, sequences included.
    crate::json::escape_into(
        &s.replace("${", "$${").replace("%{", "%%{"),
        &mut out,
        false,
    );
    out.push('"');
    out
}

/// Writes a template's parts: literal text escaped, sequences verbatim;
/// `%{ if }` and `%{ for }` bodies are walked for their literal text.
fn write_template(node: &crate::SyntaxNode, out: &mut String) {
    use crate::SyntaxKind::*;
    let mut todo: Vec<crate::SyntaxElement> = node.children_with_tokens().collect();
    todo.reverse();
    while let Some(element) = todo.pop() {
        match element {
            rowan::NodeOrToken::Token(t) => crate::json::escape_into(t.text(), out, false),
            rowan::NodeOrToken::Node(n) if matches!(n.kind(), TEMPLATE_IF | TEMPLATE_FOR) => {
                let mut children: Vec<_> = n.children_with_tokens().collect();
                children.reverse();
                todo.extend(children);
            }
            rowan::NodeOrToken::Node(n) => out.push_str(&n.to_string()),
        }
    }
}
