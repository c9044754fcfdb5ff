//! Expressions lowered once and evaluated many times.
//!
//! Evaluating from the syntax tree walks rowan's nodes, decodes string
//! escapes and parses number literals every time. A [`CompiledExpr`] does
//! that work once: literals become values, tuples and objects become plain
//! vectors of their parts, object keys that are names become strings, and
//! a tuple or object made only of literals becomes the value it builds
//! (evaluating it copies that value, as building it would).
//! Everything else (templates with interpolations, calls, `for`, operators,
//! traversals) keeps its syntax node and is evaluated from the tree by the
//! same evaluator, so the two paths cannot disagree on what an expression
//! means: the compiled path only skips work whose result does not depend
//! on the context.

use super::context::EvalContext;
use super::expr::{Evaluation, Evaluator, key_name};
use super::leaf;
use super::value::{Value, nfc};
use crate::ast::{self, AstNode, Expr};
use smol_str::SmolStr;

/// An expression lowered for repeated evaluation.
///
/// It keeps the syntax nodes of the parts it evaluates from the tree, so,
/// like the tree it was made from, it stays on the thread that parsed it.
///
/// ```
/// use hclwright::ast::{AstNode, Expr};
/// use hclwright::eval::{CompiledExpr, EvalContext, Value, console_string};
/// let parse = hclwright::parse_expr(r#"{ name = "web", ports = [80, port] }"#);
/// let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
/// let compiled = CompiledExpr::new(&expr);
/// let mut ctx = EvalContext::new();
/// for port in [443, 8443] {
///     ctx.set_variable("port", Value::int(port));
///     let v = compiled.evaluate(&ctx).value;
///     assert!(console_string(&v).contains(&port.to_string()));
/// }
/// ```
#[derive(Clone, Debug)]
pub struct CompiledExpr {
    root: Node,
}

impl CompiledExpr {
    /// Lowers `expr`. Never fails: a part that cannot be lowered (or
    /// holds a syntax error) is kept as its tree and reports its problems
    /// when evaluated, exactly as [`evaluate`](super::evaluate) would.
    pub fn new(expr: &Expr) -> CompiledExpr {
        LOWER_MISS.with_borrow_mut(|miss| *miss = leaf::Miss::default());
        CompiledExpr { root: lower(expr) }
    }

    /// The value in `ctx`, with the problems met: the same result as
    /// [`evaluate`](super::evaluate) on the expression it was made from.
    pub fn evaluate(&self, ctx: &EvalContext) -> Evaluation {
        if let Node::Const(v) = &self.root {
            return Evaluation {
                value: v.clone(),
                diagnostics: Vec::new(),
            };
        }
        let mut ev = Evaluator::new(ctx);
        let value = ev.eval_node(&self.root);
        Evaluation {
            value,
            diagnostics: ev.diagnostics,
        }
    }
}

/// One lowered expression.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// A value known without the context: a number, bool or null literal,
    /// a quoted string without interpolations.
    Const(Value),
    /// A tuple constructor.
    Tuple(Vec<Node>),
    /// An object constructor.
    Object(Vec<Item>),
    /// A variable, with its node for a diagnostic.
    Variable(SmolStr, ast::Variable),
    /// Anything else, evaluated from its tree.
    Tree(Expr),
}

/// One `key = value` of an object constructor.
#[derive(Clone, Debug)]
pub(crate) struct Item {
    pub(crate) key: Key,
    pub(crate) value: Option<Node>,
}

/// An object key.
#[derive(Clone, Debug)]
pub(crate) enum Key {
    /// A name or a literal string (already NFC-normalised).
    Name(SmolStr),
    /// An expression, with the key's node for a diagnostic.
    Expr(Node, ast::ObjectKey),
    /// A key with no expression (a syntax error).
    Missing,
}

/// Stack kept free below each level of lowering; as in evaluation, more
/// is allocated a segment at a time, so deep input cannot overflow.
const RED_ZONE: usize = 128 * 1024;
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

thread_local! {
    /// Where the last walk of a constant constructor gave up, for the
    /// expression being lowered on this thread (see [`leaf::Miss`]).
    static LOWER_MISS: std::cell::RefCell<leaf::Miss> = std::cell::RefCell::default();
}

/// [`leaf::leaf_collection`], skipping constructors around the last miss.
fn constant_collection(e: &Expr) -> Option<leaf::LeafCollection> {
    LOWER_MISS.with_borrow_mut(|miss| miss.leaf_collection(e.syntax()))
}

fn lower(e: &Expr) -> Node {
    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || lower_inner(e))
}

fn lower_inner(e: &Expr) -> Node {
    match e {
        Expr::Literal(l) => match leaf::literal(l.syntax()) {
            leaf::Literal::Value(v) => Node::Const(v),
            // Evaluating the tree reports the bad literal.
            leaf::Literal::BadNumber(_) | leaf::Literal::Missing => Node::Tree(e.clone()),
        },
        Expr::QuotedTemplate(t) => match leaf::literal_string(t.syntax()) {
            Some(value) => Node::Const(value),
            None => Node::Tree(e.clone()),
        },
        Expr::Paren(p) => match p.expr() {
            Some(inner) => lower(&inner),
            None => Node::Tree(e.clone()),
        },
        Expr::Variable(v) => match leaf::variable_name(v.syntax()) {
            Some(name) => Node::Variable(name, v.clone()),
            None => Node::Tree(e.clone()),
        },
        Expr::Tuple(_) | Expr::Object(_) if let Some(c) = constant_collection(e) => {
            Node::Const(c.value)
        }
        Expr::Tuple(t) => literal_tuple(t.elements().map(|x| lower(&x)).collect()),
        Expr::Object(o) => literal_object(
            o.items()
                .filter_map(|item| {
                    let key = match leaf::item_key_name(item.syntax()) {
                        leaf::ItemKey::Name(name) => Key::Name(normal_name(name)),
                        leaf::ItemKey::Missing => return None,
                        leaf::ItemKey::Other => lower_key(item.key()?),
                    };
                    Some(Item {
                        key,
                        value: item.value().map(|v| lower(&v)),
                    })
                })
                .collect(),
        ),
        _ => Node::Tree(e.clone()),
    }
}

/// A tuple of constants is itself a constant; evaluating it copies it.
fn literal_tuple(items: Vec<Node>) -> Node {
    if !items.iter().all(|i| matches!(i, Node::Const(_))) {
        return Node::Tuple(items);
    }
    let values = items
        .into_iter()
        .filter_map(|i| match i {
            Node::Const(v) => Some(v),
            _ => None,
        })
        .collect();
    Node::Const(Value::Tuple(values))
}

/// An object of names and constants is itself a constant: built here as
/// evaluation builds it (in order; a repeated name keeps its last value).
fn literal_object(items: Vec<Item>) -> Node {
    let literal = items
        .iter()
        .all(|i| matches!((&i.key, &i.value), (Key::Name(_), Some(Node::Const(_)))));
    if !literal {
        return Node::Object(items);
    }
    let pairs = items
        .into_iter()
        .filter_map(|item| match (item.key, item.value) {
            (Key::Name(k), Some(Node::Const(v))) => Some((k, v)),
            _ => None,
        });
    Node::Const(Value::Object(pairs.collect()))
}

/// A name in normal form C, as a key made from it is.
fn normal_name(name: SmolStr) -> SmolStr {
    if name.is_ascii() {
        name
    } else {
        nfc(&name).into()
    }
}

fn lower_key(key: ast::ObjectKey) -> Key {
    if let Some(name) = key_name(&key) {
        return Key::Name(nfc(&name).into());
    }
    match key.expr() {
        Some(k) => match lower(&k) {
            Node::Const(Value::String(s)) => Key::Name(s),
            node => Key::Expr(node, key),
        },
        None => Key::Missing,
    }
}
