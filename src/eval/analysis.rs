//! Static analysis of expressions, from the spec's "Static Analysis"
//! section: what an application can learn without evaluating — a static
//! list, a static map, a static call, the traversal an expression is, and
//! the variables it refers to.

use crate::ast::{AstNode, Expr};
use crate::refs::{Step, StepKind, Traversal, references};
use crate::syntax_kind::SyntaxKind::*;
use text_size::TextRange;

/// The expression inside any parentheses.
fn unwrap(expr: &Expr) -> Expr {
    let mut e = expr.clone();
    while let Expr::Paren(p) = &e {
        match p.expr() {
            Some(inner) => e = inner,
            None => break,
        }
    }
    e
}

/// The elements of a tuple constructor (`[a, b]`), as HCL's `ExprList`.
///
/// ```
/// use hclwright::ast::{AstNode, Expr};
/// use hclwright::eval::static_list;
/// let parse = hclwright::parse_expr("[aws_instance.a, aws_instance.b]");
/// let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
/// assert_eq!(static_list(&expr).unwrap().len(), 2);
/// ```
pub fn static_list(expr: &Expr) -> Option<Vec<Expr>> {
    match unwrap(expr) {
        Expr::Tuple(t) => Some(t.elements().collect()),
        _ => None,
    }
}

/// The key and value expressions of an object constructor (`{ a = 1 }`), as
/// HCL's `ExprMap`. For a bare-name key (`{ a = 1 }`),
/// [`ObjectKey::bare_name`](crate::ast::ObjectKey::bare_name) gives the name.
pub fn static_map(expr: &Expr) -> Option<Vec<(crate::ast::ObjectKey, Expr)>> {
    match unwrap(expr) {
        Expr::Object(o) => Some(
            o.items()
                .filter_map(|item| Some((item.key()?, item.value()?)))
                .collect(),
        ),
        _ => None,
    }
}

/// A function call found without evaluating it, as HCL's `ExprCall`.
#[derive(Clone, Debug)]
pub struct StaticCall {
    /// The function's name (namespaces included).
    pub name: String,
    /// Where the name is.
    pub name_range: TextRange,
    /// The argument expressions.
    pub args: Vec<Expr>,
    /// Whether the last argument is expanded (`f(xs...)`).
    pub expand_final: bool,
    /// Where the argument list is, parentheses included.
    pub args_range: TextRange,
}

/// The call an expression is (`f(a, b)`), as HCL's `ExprCall`.
///
/// ```
/// use hclwright::ast::{AstNode, Expr};
/// use hclwright::eval::static_call;
/// let parse = hclwright::parse_expr("provider::aws::arn_parse(x, ys...)");
/// let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
/// let call = static_call(&expr).unwrap();
/// assert_eq!((call.name.as_str(), call.args.len(), call.expand_final), ("provider::aws::arn_parse", 2, true));
/// ```
pub fn static_call(expr: &Expr) -> Option<StaticCall> {
    let Expr::FunctionCall(c) = unwrap(expr) else {
        return None;
    };
    let tokens = c.name_tokens();
    let name_range = TextRange::new(
        tokens.first()?.text_range().start(),
        tokens.last()?.text_range().end(),
    );
    let list = c.arg_list()?;
    Some(StaticCall {
        name: c.name(),
        name_range,
        args: c.args(),
        expand_final: list.has_ellipsis(),
        args_range: list.syntax().text_range(),
    })
}

/// The traversal an expression is, when it is exactly one with literal
/// steps (`var.a.b[0]`, `aws_instance.web["x"]`), as HCL's
/// `AbsTraversalForExpr`. The keywords `true`, `false` and `null` are
/// one-name traversals, as upstream allows for them.
///
/// ```
/// use hclwright::ast::{AstNode, Expr};
/// use hclwright::eval::abs_traversal;
/// let parse = hclwright::parse_expr("module.vpc.subnets[0]");
/// let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
/// assert_eq!(abs_traversal(&expr).unwrap().to_string(), "module.vpc.subnets[0]");
/// let parse = hclwright::parse_expr("var.list[count.index]");
/// let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
/// assert!(abs_traversal(&expr).is_none());
/// ```
pub fn abs_traversal(expr: &Expr) -> Option<Traversal> {
    let e = unwrap(expr);
    if let Expr::Literal(l) = &e {
        let token = l.token()?;
        if token.kind() == IDENT {
            return Some(Traversal {
                root: token.text().to_string(),
                root_range: token.text_range(),
                steps: Vec::new(),
            });
        }
        return None;
    }
    let mut root = e.syntax().clone();
    while root.kind() != VARIABLE {
        root = match root.kind() {
            GET_ATTR | INDEX => root.children().next()?,
            _ => return None,
        };
    }
    let traversal = Traversal::from_variable(&root)?;
    let literal = traversal.steps.iter().all(|s| {
        matches!(
            s.kind,
            StepKind::Attr(_) | StepKind::Index(_) | StepKind::LegacyIndex(_)
        )
    });
    let end = e.syntax().text_range().end();
    (literal && traversal.range().end() == trimmed_end(&e, end)).then_some(traversal)
}

fn trimmed_end(e: &Expr, end: text_size::TextSize) -> text_size::TextSize {
    let mut last = e.syntax().last_token();
    while let Some(t) = last.clone().filter(|t| t.kind().is_trivia()) {
        last = t.prev_token();
    }
    last.map_or(end, |t| t.text_range().end())
}

/// The steps of a relative traversal (`.a.b[0]` written as `a.b[0]`): the
/// traversal's root becomes the first attribute step, as HCL's
/// `RelTraversalForExpr`.
pub fn rel_traversal(expr: &Expr) -> Option<Vec<Step>> {
    let t = abs_traversal(expr)?;
    let mut steps = vec![Step {
        kind: StepKind::Attr(t.root.clone()),
        range: t.root_range,
        name_range: t.root_range,
    }];
    steps.extend(t.steps);
    Some(steps)
}

/// The traversals of outer variables an expression refers to (those bound
/// by its own `for` expressions left out), in source order: HCL's
/// `Variables()`.
pub fn variables(expr: &Expr) -> Vec<Traversal> {
    references(expr.syntax())
        .into_iter()
        .map(|r| r.traversal)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(text: &str) -> Expr {
        let parse = crate::parse_expr(text);
        parse.syntax().descendants().find_map(Expr::cast).unwrap()
    }

    #[test]
    fn analyses() {
        assert!(static_list(&expr("([1, 2])")).is_some());
        assert!(static_list(&expr("{}")).is_none());
        let map = static_map(&expr("{ a = 1, \"b\" = 2 }")).unwrap();
        assert_eq!(map[0].0.literal_name().as_deref(), Some("a"));
        assert!(abs_traversal(&expr("null")).is_some());
        assert!(abs_traversal(&expr("a.b + 1")).is_none());
        assert!(abs_traversal(&expr("a[*].b")).is_none());
        let steps = rel_traversal(&expr("a.b")).unwrap();
        assert_eq!(steps.len(), 2);
        let vars: Vec<String> = variables(&expr("[for x in var.xs : x + local.y]"))
            .iter()
            .map(|t| t.to_string())
            .collect();
        assert_eq!(vars, ["var.xs", "local.y"]);
    }
}
