//! Templates: quoted strings and heredocs with interpolations and `if` /
//! `for` directives. As in HCL, the parts are first laid out flat (one
//! literal per heredoc line), strip markers (`~`) trim the neighbouring
//! literal, `<<-` removes the common indentation, and a template that is
//! exactly one interpolation gives that value itself, not a string.

use super::convert::convert;
use super::expr::{Evaluator, iterate};
use super::types::Type;
use super::value::Value;
use crate::ast::{self, AstNode, Expr, TemplatePart};
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode};
use text_size::TextRange;
use unicode_segmentation::UnicodeSegmentation;

/// One flat piece of a template.
enum Piece {
    Literal(String),
    Interp(Option<Expr>, TextRange),
    If(Option<Expr>),
    Else,
    EndIf,
    For {
        key: Option<String>,
        value: String,
        collection: Option<Expr>,
    },
    EndFor,
}

struct Flat {
    piece: Piece,
    strip_before: bool,
    strip_after: bool,
}

/// A template as a tree again, after trimming: what HCL's template
/// expression holds.
pub(crate) enum Node {
    Literal(String),
    Interp(Option<Expr>, TextRange),
    If(Option<Expr>, Vec<Node>, Vec<Node>),
    For {
        key: Option<String>,
        value: String,
        collection: Option<Expr>,
        body: Vec<Node>,
    },
}

fn strip_markers(node: &SyntaxNode) -> (bool, bool) {
    let tokens: Vec<_> = node
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .collect();
    let before = tokens
        .iter()
        .find(|t| matches!(t.kind(), DIRECTIVE_START | INTERP_START))
        .is_some_and(|t| t.text().ends_with('~'));
    let after = tokens
        .iter()
        .rev()
        .find(|t| t.kind() == TEMPLATE_SEQ_END)
        .is_some_and(|t| t.text().starts_with('~'));
    (before, after)
}

fn flatten(parts: impl IntoIterator<Item = TemplatePart>, heredoc: bool, out: &mut Vec<Flat>) {
    let flat = |piece, (strip_before, strip_after): (bool, bool)| Flat {
        piece,
        strip_before,
        strip_after,
    };
    for part in parts {
        match part {
            TemplatePart::Literal(tok) => {
                let text = tok.text();
                if heredoc {
                    for line in text.split_inclusive('\n') {
                        let decoded = line.replace("$${", "${").replace("%%{", "%{");
                        out.push(flat(Piece::Literal(decoded), (false, false)));
                    }
                } else {
                    out.push(flat(
                        Piece::Literal(ast::decode_quoted(text)),
                        (false, false),
                    ));
                }
            }
            TemplatePart::Interpolation(i) => {
                let r = i.syntax().text_range();
                out.push(flat(Piece::Interp(i.expr(), r), strip_markers(i.syntax())));
            }
            TemplatePart::If(t) => {
                let strips = t
                    .if_directive()
                    .map_or((false, false), |d| strip_markers(d.syntax()));
                out.push(flat(Piece::If(t.condition()), strips));
                flatten(t.then_parts(), heredoc, out);
                if let Some(e) = t.else_directive() {
                    out.push(flat(Piece::Else, strip_markers(e.syntax())));
                    flatten(t.else_parts(), heredoc, out);
                }
                let strips = t
                    .endif_directive()
                    .map_or((false, false), |d| strip_markers(d.syntax()));
                out.push(flat(Piece::EndIf, strips));
            }
            TemplatePart::For(t) => {
                let d = t.for_directive();
                let strips = d
                    .as_ref()
                    .map_or((false, false), |d| strip_markers(d.syntax()));
                let key = d
                    .as_ref()
                    .and_then(|d| d.key_var())
                    .map(|t| t.text().to_string());
                let value = d
                    .as_ref()
                    .and_then(|d| d.value_var())
                    .map(|t| t.text().to_string())
                    .unwrap_or_default();
                let collection = d.as_ref().and_then(|d| d.collection());
                out.push(flat(
                    Piece::For {
                        key,
                        value,
                        collection,
                    },
                    strips,
                ));
                flatten(t.body_parts(), heredoc, out);
                let strips = t
                    .endfor_directive()
                    .map_or((false, false), |d| strip_markers(d.syntax()));
                out.push(flat(Piece::EndFor, strips));
            }
        }
    }
}

/// Applies the strip markers: a `~` trims the whitespace of the literal
/// right beside it.
fn apply_strips(flat: &mut [Flat]) {
    for i in 0..flat.len() {
        if flat[i].strip_before
            && i > 0
            && let Piece::Literal(s) = &mut flat[i - 1].piece
        {
            let keep = s.trim_end().len();
            s.truncate(keep);
        }
        if flat[i].strip_after
            && i + 1 < flat.len()
            && let Piece::Literal(s) = &mut flat[i + 1].piece
        {
            *s = s.trim_start().to_string();
        }
    }
}

/// `<<-`: removes from every line the indentation (in grapheme clusters)
/// common to all lines that are not blank.
fn flush(flat: &mut [Flat]) {
    let mut min = usize::MAX;
    let mut line_start = true;
    let mut adjust = Vec::new();
    for (i, f) in flat.iter().enumerate() {
        if line_start {
            line_start = false;
            match &f.piece {
                Piece::Literal(s) => {
                    let trimmed = s.trim_start();
                    if trimmed.is_empty() && s.ends_with('\n') {
                        // A blank line does not count.
                    } else {
                        let spaces = s[..s.len() - trimmed.len()].graphemes(true).count();
                        min = min.min(spaces);
                        adjust.push(i);
                    }
                }
                _ => min = 0,
            }
        }
        if let Piece::Literal(s) = &f.piece
            && s.ends_with('\n')
        {
            line_start = true;
        }
    }
    if min == usize::MAX {
        return;
    }
    for i in adjust {
        if let Piece::Literal(s) = &mut flat[i].piece {
            let cut: usize = s.graphemes(true).take(min).map(str::len).sum();
            s.replace_range(..cut, "");
        }
    }
}

/// A directive being rebuilt: its nodes so far, its opener, and for an
/// `if` with an `else`, the nodes before the `else`.
type Open = (Vec<Node>, Option<Piece>, Option<Vec<Node>>);

/// Rebuilds the tree from the flat pieces, joining adjacent literals.
fn build(flat: Vec<Flat>) -> Vec<Node> {
    let mut stack: Vec<Open> = vec![(Vec::new(), None, None)];
    for f in flat {
        match f.piece {
            Piece::Literal(s) => {
                let top = &mut stack.last_mut().expect("root").0;
                if let Some(Node::Literal(prev)) = top.last_mut() {
                    prev.push_str(&s);
                } else {
                    top.push(Node::Literal(s));
                }
            }
            Piece::Interp(e, r) => stack.last_mut().expect("root").0.push(Node::Interp(e, r)),
            p @ (Piece::If(_) | Piece::For { .. }) => stack.push((Vec::new(), Some(p), None)),
            Piece::Else => {
                let top = stack.last_mut().expect("root");
                top.2 = Some(std::mem::take(&mut top.0));
            }
            Piece::EndIf | Piece::EndFor => {
                if stack.len() == 1 {
                    continue;
                }
                let (body, opener, then_body) = stack.pop().expect("checked");
                let node = match opener {
                    // With an `else`, `then_body` holds the branch before it.
                    Some(Piece::If(cond)) => match then_body {
                        Some(then_body) => Node::If(cond, then_body, body),
                        None => Node::If(cond, body, Vec::new()),
                    },
                    Some(Piece::For {
                        key,
                        value,
                        collection,
                    }) => Node::For {
                        key,
                        value,
                        collection,
                        body,
                    },
                    _ => continue,
                };
                stack.last_mut().expect("root").0.push(node);
            }
        }
    }
    stack.swap_remove(0).0
}

/// Evaluates a quoted or heredoc template expression.
pub(crate) fn evaluate_template(ev: &mut Evaluator<'_>, e: &Expr) -> Value {
    // The common case, a quoted string without interpolation: no layout
    // work at all.
    if let Expr::QuotedTemplate(t) = e
        && let Some(value) = super::leaf::literal_string(t.syntax())
    {
        return value;
    }
    let (parts, heredoc, indented): (Vec<TemplatePart>, bool, bool) = match e {
        Expr::QuotedTemplate(t) => (t.parts().collect(), false, false),
        Expr::HeredocTemplate(t) => (t.parts().collect(), true, t.is_indented()),
        _ => return Value::Unknown(Type::Dynamic),
    };
    evaluate_parts(ev, parts, heredoc, indented)
}

/// The parts of a template as HCL's parser leaves them: strip markers
/// applied, `<<-` indentation removed, adjacent literals joined.
pub(crate) fn template_nodes(parts: Vec<TemplatePart>, heredoc: bool, indented: bool) -> Vec<Node> {
    let mut flat = Vec::new();
    flatten(parts, heredoc, &mut flat);
    apply_strips(&mut flat);
    if indented {
        flush(&mut flat);
    }
    build(flat)
}

pub(crate) fn evaluate_parts(
    ev: &mut Evaluator<'_>,
    parts: Vec<TemplatePart>,
    heredoc: bool,
    indented: bool,
) -> Value {
    let mut flat = Vec::new();
    flatten(parts, heredoc, &mut flat);
    apply_strips(&mut flat);
    if indented {
        flush(&mut flat);
    }
    let nodes = build(flat);
    if let [Node::Interp(Some(e), _)] = nodes.as_slice() {
        return ev.eval(e);
    }
    let mut out = String::new();
    let outer = std::mem::replace(&mut ev.template_marked, false);
    let value = match render(ev, &nodes, &mut out) {
        Rendered::Known => Value::string(out),
        Rendered::Unknown => Value::Unknown(Type::String),
        Rendered::Failed => Value::Unknown(Type::String),
    };
    // A sensitive part makes the whole string sensitive.
    let marked = std::mem::replace(&mut ev.template_marked, outer);
    value.mark_if(marked)
}

#[derive(PartialEq)]
enum Rendered {
    Known,
    Unknown,
    Failed,
}

impl Rendered {
    /// The state of a template after a part in state `part`: failed if
    /// any part failed, else unknown if any part was unknown.
    fn and(self, part: Rendered) -> Rendered {
        match (self, part) {
            (Rendered::Failed, _) | (_, Rendered::Failed) => Rendered::Failed,
            (Rendered::Unknown, _) | (_, Rendered::Unknown) => Rendered::Unknown,
            _ => Rendered::Known,
        }
    }
}

fn render(ev: &mut Evaluator<'_>, nodes: &[Node], out: &mut String) -> Rendered {
    let mut state = Rendered::Known;
    for node in nodes {
        state = state.and(render_node(ev, node, out));
    }
    state
}

/// Reports a problem with a part; the template fails.
fn fail(
    ev: &mut Evaluator<'_>,
    summary: &str,
    detail: impl Into<String>,
    at: TextRange,
) -> Rendered {
    ev.diagnostics
        .push(super::Diagnostic::new(summary, detail, at));
    Rendered::Failed
}

/// The value of `e`, or `None` when evaluating it reported problems.
fn checked(ev: &mut Evaluator<'_>, e: &Expr) -> Option<Value> {
    let before = ev.diagnostics.len();
    let v = ev.eval(e);
    (ev.diagnostics.len() == before).then_some(v)
}

fn render_node(ev: &mut Evaluator<'_>, node: &Node, out: &mut String) -> Rendered {
    match node {
        Node::Literal(s) => {
            out.push_str(s);
            Rendered::Known
        }
        Node::Interp(Some(e), r) => match checked(ev, e) {
            Some(v) => interpolate(ev, &v, *r, out),
            None => Rendered::Failed,
        },
        Node::If(Some(cond), then_nodes, else_nodes) => {
            let Some(c) = checked(ev, cond) else {
                return Rendered::Failed;
            };
            let at = cond.syntax().text_range();
            if c.contains_sensitive() {
                ev.template_marked = true;
            }
            let chosen = match c.unmarked_deep() {
                Value::Null(_) => {
                    let detail =
                        "The condition value is null. Conditions must either be true or false.";
                    return fail(ev, "Invalid 'if' condition", detail, at);
                }
                Value::Unknown(_) => return Rendered::Unknown,
                other => match convert(&other, &Type::Bool) {
                    Ok(Value::Bool(b)) => b,
                    _ => {
                        let detail = "The 'if' condition must be a bool value.";
                        return fail(ev, "Invalid 'if' condition", detail, at);
                    }
                },
            };
            render(ev, if chosen { then_nodes } else { else_nodes }, out)
        }
        Node::For {
            key,
            value,
            collection: Some(coll_expr),
            body,
        } => {
            let Some(coll) = checked(ev, coll_expr) else {
                return Rendered::Failed;
            };
            let at = coll_expr.syntax().text_range();
            if coll.is_sensitive() {
                ev.template_marked = true;
            }
            let pairs = match coll.unmarked().0 {
                Value::Null(_) => {
                    let detail =
                        "A null value cannot be used as the collection in a 'for' expression.";
                    return fail(ev, "Iteration over null value", detail, at);
                }
                Value::Unknown(_) => return Rendered::Unknown,
                other => match iterate(other) {
                    Some(p) => p,
                    None => {
                        let detail = format!(
                            "A value of type {} cannot be used as the collection in a 'for' expression.",
                            other.ty().friendly_name()
                        );
                        return fail(ev, "Iteration over non-iterable value", detail, at);
                    }
                },
            };
            let mut state = Rendered::Known;
            for (k, v) in pairs {
                let r = ev.with_bindings(key.as_deref(), k, value, v, |ev| render(ev, body, out));
                state = state.and(r);
            }
            state
        }
        // A part the parser could not complete (reported as a syntax error).
        Node::Interp(None, _)
        | Node::If(None, ..)
        | Node::For {
            collection: None, ..
        } => Rendered::Known,
    }
}

fn interpolate(ev: &mut Evaluator<'_>, v: &Value, at: TextRange, out: &mut String) -> Rendered {
    if v.contains_sensitive() {
        ev.template_marked = true;
        return interpolate(ev, &v.unmarked_deep(), at, out);
    }
    match v {
        Value::Null(_) => {
            ev.diagnostics.push(super::Diagnostic::new(
                "Invalid template interpolation value",
                "The expression result is null. Cannot include a null value in a string template.",
                at,
            ));
            Rendered::Failed
        }
        Value::Unknown(_) => Rendered::Unknown,
        other => match convert(other, &Type::String) {
            Ok(Value::String(s)) => {
                out.push_str(&s);
                Rendered::Known
            }
            Ok(_) => Rendered::Unknown,
            Err(err) => {
                ev.diagnostics.push(super::Diagnostic::new(
                    "Invalid template interpolation value",
                    format!("Cannot include the given value in a string template: {err}."),
                    at,
                ));
                Rendered::Failed
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::{EvalContext, Value, evaluate_str};

    fn eval(text: &str) -> Value {
        evaluate_str(text, &EvalContext::new()).unwrap()
    }

    #[test]
    fn templates() {
        assert_eq!(eval("\"a${1 + 1}b\""), Value::string("a2b"));
        assert_eq!(eval("\"${[1]}\""), Value::Tuple(vec![Value::int(1)].into()));
        assert_eq!(
            eval("\"x %{ if true ~} y %{~ endif } z\""),
            Value::string("x y z")
        );
        assert_eq!(
            eval("\"%{ for x in [1, 2] }${x},%{ endfor }\""),
            Value::string("1,2,")
        );
        assert_eq!(
            eval("\"%{ if false }a%{ else }b%{ endif }\""),
            Value::string("b")
        );
        assert_eq!(
            eval("<<-EOT\n    a\n      b\n    EOT\n"),
            Value::string("a\n  b\n")
        );
        assert_eq!(eval("<<EOT\n  $${x}\nEOT\n"), Value::string("  ${x}\n"));
        assert_eq!(eval("\"\\u00e9\""), Value::string("é"));
    }
}
