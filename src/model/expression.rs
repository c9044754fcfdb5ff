//! An expression of either syntax, evaluated and analysed the same way.

use text_size::TextRange;

use crate::ast::{AstNode, Expr};
use crate::eval::{EvalContext, Evaluation};
use crate::json::JsonValue;
use crate::syntax_kind::SyntaxKind::*;
use crate::syntax_kind::SyntaxNode;

/// An attribute's value: a native expression, or a JSON value read as the
/// JSON syntax specification says.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expression {
    /// A native syntax expression.
    Native(Expr),
    /// A JSON value (its strings are templates).
    Json(JsonValue),
}

impl Expression {
    /// Evaluates the expression in `ctx`.
    ///
    /// ```
    /// use hclwright::eval::{EvalContext, console_string};
    /// use hclwright::model::Body;
    /// let json = hclwright::json::parse(r#"{"a": "${1 + 1}"}"#);
    /// let (attrs, _) = Body::from_json(&json).just_attributes();
    /// let v = attrs["a"].expr.evaluate(&EvalContext::new());
    /// assert_eq!(console_string(&v.value), "2");
    /// ```
    pub fn evaluate(&self, ctx: &EvalContext) -> Evaluation {
        match self {
            Expression::Native(e) => crate::eval::evaluate(e, ctx),
            Expression::Json(v) => crate::json::evaluate(v, ctx),
        }
    }

    /// The byte range of the expression.
    pub fn range(&self) -> TextRange {
        match self {
            Expression::Native(e) => e.syntax().text_range(),
            Expression::Json(v) => v.range(),
        }
    }

    /// The keyword the expression is, if it is a bare one (`true`,
    /// `false`, `null`, a name; in JSON, a string holding one or a JSON
    /// `true`/`false`/`null`): for settings such as `nullable = false`.
    pub fn as_keyword(&self) -> Option<String> {
        match self {
            Expression::Native(e) => {
                let text = e.syntax().to_string();
                let text = text.trim();
                (!text.is_empty()
                    && text
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-'))
                .then(|| text.to_string())
            }
            Expression::Json(JsonValue::Bool(t) | JsonValue::Null(t)) => Some(t.text().to_string()),
            Expression::Json(v) => v.as_str().map(|s| s.trim().to_string()),
        }
    }

    /// The names of the locals the expression refers to (`local.NAME`),
    /// inside JSON template strings too.
    pub fn local_references(&self) -> Vec<String> {
        self.references_under("local")
    }

    /// The names after `root.` the expression refers to (`var.NAME` for
    /// `"var"`), inside JSON template strings too.
    pub(crate) fn references_under(&self, root: &str) -> Vec<String> {
        let mut out = Vec::new();
        match self {
            Expression::Native(e) => references_under_in(e.syntax(), root, &mut out),
            Expression::Json(v) => {
                for text in json_strings(v) {
                    if text.contains("${") || text.contains("%{") {
                        let parse = crate::parse_template(&text);
                        references_under_in(&parse.syntax(), root, &mut out);
                    }
                }
            }
        }
        out
    }

    /// The traversals of outer variables the expression refers to, in
    /// source order (HCL's `Variables()`); for JSON, those in its
    /// template strings, placed in the JSON text.
    ///
    /// ```
    /// use hclwright::model::Body;
    /// let json = hclwright::json::parse(r#"{"a": {"k": "${var.x}-${local.y[0]}"}}"#);
    /// let (attrs, _) = Body::from_json(&json).just_attributes();
    /// let vars: Vec<String> = attrs["a"].expr.variables().iter().map(|t| t.to_string()).collect();
    /// assert_eq!(vars, ["var.x", "local.y[0]"]);
    /// ```
    pub fn variables(&self) -> Vec<crate::refs::Traversal> {
        match self {
            Expression::Native(e) => crate::eval::variables(e),
            Expression::Json(v) => crate::json::value_references(v)
                .into_iter()
                .map(|r| r.traversal)
                .collect(),
        }
    }

    /// The expression as an absolute traversal (`aws_instance.web.id`),
    /// when it is one: HCL's static traversal analysis; in JSON, a string
    /// holding one.
    pub fn abs_traversal(&self) -> Option<crate::refs::Traversal> {
        match self {
            Expression::Native(e) => crate::eval::abs_traversal(e),
            Expression::Json(v) => crate::json::string_traversal(v),
        }
    }

    /// The call the expression is (`f(a, b)`): HCL's static call analysis;
    /// in JSON, a string holding a call (`"f(a, b)"`, read as a native
    /// expression, not a template). For JSON the call's argument
    /// expressions belong to that string's own tree: their ranges count
    /// from the start of the string's value.
    ///
    /// ```
    /// use hclwright::model::Body;
    /// let json = hclwright::json::parse(r#"{"c": "merge(a, b)"}"#);
    /// let (attrs, _) = Body::from_json(&json).just_attributes();
    /// let call = attrs["c"].expr.static_call().unwrap();
    /// assert_eq!((call.name.as_str(), call.args.len()), ("merge", 2));
    /// ```
    pub fn static_call(&self) -> Option<crate::eval::StaticCall> {
        match self {
            Expression::Native(e) => crate::eval::static_call(e),
            Expression::Json(_) => {
                let parse = self.json_string_as_expr()?;
                if !parse.errors().is_empty() {
                    return None;
                }
                let expr = parse.syntax().descendants().find_map(Expr::cast)?;
                crate::eval::static_call(&expr)
            }
        }
    }

    /// For a JSON string, the native expression it holds, parsed (as the
    /// specification reads strings for static analysis: type constraints,
    /// traversals, calls). `None` for a native expression or another JSON
    /// value.
    pub fn json_string_as_expr(&self) -> Option<crate::Parse> {
        match self {
            Expression::Json(v) => v.as_str().map(|s| crate::parse_expr(&s)),
            Expression::Native(_) => None,
        }
    }
}

/// Every string of a JSON value, keys included, in order.
fn json_strings(value: &JsonValue) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![value.clone()];
    while let Some(v) = todo.pop() {
        match &v {
            JsonValue::Object(o) => {
                for m in o.members() {
                    out.extend(m.name());
                    todo.extend(m.value());
                }
            }
            JsonValue::Array(a) => todo.extend(a.elements()),
            JsonValue::String(_) => out.extend(v.as_str().map(|s| s.into_owned())),
            _ => {}
        }
    }
    out
}

/// The `local.NAME` references under `root`.
pub(crate) fn local_references_in(root: &SyntaxNode, out: &mut Vec<String>) {
    references_under_in(root, "local", out);
}

/// The names after `name.` in the traversals under `root` (`var.NAME`),
/// in the order of the text.
pub(crate) fn references_under_in(root: &SyntaxNode, name: &str, out: &mut Vec<String>) {
    each_variable_under(root, |variable, parent| {
        if variable == name
            && let Some(attr) = parent.and_then(attribute_after)
        {
            out.push(attr.to_string());
        }
    });
}

/// Calls `f` with the name of every variable under `root` (itself
/// included) and the green node of its parent, in the order of the text.
///
/// Read from the green tree: a walk of the syntax tree makes (and frees)
/// a node for every node it passes, and this runs over every local of a
/// module.
pub(crate) fn each_variable_under(
    root: &SyntaxNode,
    mut f: impl FnMut(&str, Option<&rowan::GreenNodeData>),
) {
    use crate::syntax_kind::HclLanguage;
    use rowan::{Language, NodeOrToken};
    if root.kind() == VARIABLE {
        // A variable alone: its parent is outside the green node.
        if let Some(name) = crate::ast::green_variable_name(root.green()) {
            let parent = root.parent();
            f(name, parent.as_ref().map(|p| p.green()));
        }
        return;
    }
    let kind = |raw| HclLanguage::kind_from_raw(raw);
    // A stack rather than recursion: expressions nest deeper than the
    // call stack goes.
    let mut stack: Vec<(&rowan::GreenNodeData, rowan::Children<'_>)> = Vec::with_capacity(16);
    stack.push((root.green(), root.green().children()));
    while let Some((parent, children)) = stack.last_mut() {
        let parent: &rowan::GreenNodeData = parent;
        let Some(child) = children.next() else {
            stack.pop();
            continue;
        };
        let NodeOrToken::Node(node) = child else {
            continue;
        };
        if kind(node.kind()) == VARIABLE {
            if let Some(name) = crate::ast::green_variable_name(node) {
                f(name, Some(parent));
            }
            continue;
        }
        stack.push((node, node.children()));
    }
}

/// The attribute a `GET_ATTR` node reads (`b` of `a.b`): its own first
/// identifier token. `None` for another kind of node.
pub(crate) fn attribute_after(parent: &rowan::GreenNodeData) -> Option<&str> {
    use crate::syntax_kind::HclLanguage;
    use rowan::{Language, NodeOrToken};
    let kind = |raw| HclLanguage::kind_from_raw(raw);
    if kind(parent.kind()) != GET_ATTR {
        return None;
    }
    parent.children().find_map(|c| match c {
        NodeOrToken::Token(t) if kind(t.kind()) == IDENT => Some(t.text()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `references_under_in` gives, by a walk of the syntax tree.
    fn by_syntax_walk(root: &SyntaxNode, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        for node in root.descendants() {
            if node.kind() != VARIABLE || node.text() != name {
                continue;
            }
            let Some(parent) = node.parent().filter(|p| p.kind() == GET_ATTR) else {
                continue;
            };
            if let Some(attr) = parent
                .children_with_tokens()
                .filter_map(|e| e.into_token())
                .find(|t| t.kind() == crate::syntax_kind::SyntaxKind::IDENT)
            {
                out.push(attr.text().to_string());
            }
        }
        out
    }

    /// The green walk finds what a walk of the syntax tree finds, from
    /// every expression (and every variable alone) of the fixtures and of
    /// texts with `for` scopes, splats, indexes and templates.
    #[test]
    fn references_read_from_the_green_tree() {
        let mut texts = vec![
            r#"a = [for local in local.xs : local.y if local.z]"#.to_string(),
            r#"b = "${local.a}-%{ for x in local.b }${x.local}%{ endfor }""#.to_string(),
            "c = local.a.b[local.c].d + var.x[0].y + local[\"k\"] + local + locals.q".to_string(),
            "d = { (local.k) = local.v, local = 1 }\ne = local.\nf = local.a.b.c".to_string(),
            format!("g = {}local.deep{}", "[".repeat(20_000), "]".repeat(20_000)),
        ];
        texts.extend(crate::corpus::fixture_texts());
        let mut found = 0;
        for text in &texts {
            let parse = crate::parse(text);
            // In the deep text, only the outermost expression (each inner
            // one would walk all below it again).
            let deep = text.len() > 5000 && text.starts_with("g = ");
            for node in parse.syntax().descendants() {
                let outermost = node.parent().is_some_and(|p| p.kind() == ATTRIBUTE);
                if Expr::cast(node.clone()).is_none() || (deep && !outermost) {
                    continue;
                }
                for name in ["local", "var"] {
                    let mut out = Vec::new();
                    references_under_in(&node, name, &mut out);
                    found += out.len();
                    assert_eq!(out, by_syntax_walk(&node, name), "{node}");
                }
            }
        }
        assert!(found > 100, "{found}");
    }
}
