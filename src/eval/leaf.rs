//! The leaves of an expression (literals, quoted strings without
//! interpolation, names) read straight from the green tree.
//!
//! Walking rowan's typed tree allocates a node for every child or token
//! visited; a leaf's tokens are all one level down, so reading them from
//! the green node (which the typed node points to) gives the same text
//! without any allocation. Each function here returns exactly what the
//! typed accessors (`Literal::value`, `Variable::name`,
//! `literal_template`) give, only cheaper.

use super::number::Number;
use super::value::Value;
use crate::syntax_kind::{HclLanguage, SyntaxKind, SyntaxKind::*, SyntaxNode};
use rowan::{GreenNodeData, Language, NodeOrToken};
use smol_str::SmolStr;
use text_size::TextSize;

fn kind(raw: rowan::SyntaxKind) -> SyntaxKind {
    HclLanguage::kind_from_raw(raw)
}

/// The text of the first token of `green` (a direct child) whose kind
/// satisfies `want`, with that kind.
fn first_token(
    green: &GreenNodeData,
    want: impl Fn(SyntaxKind) -> bool,
) -> Option<(SyntaxKind, &str)> {
    green.children().find_map(|c| match c {
        NodeOrToken::Token(t) => {
            let k = kind(t.kind());
            want(k).then(|| (k, t.text()))
        }
        NodeOrToken::Node(_) => None,
    })
}

/// A literal (`1`, `true`, `false`, `null`) as evaluation reads it.
pub(crate) enum Literal {
    /// Its value.
    Value(Value),
    /// A number token that is not a number (its text, for the message).
    BadNumber(String),
    /// No literal token (a syntax error).
    Missing,
}

/// The value of a `LITERAL` node, as `Literal::value` then
/// `Number::parse` give it.
pub(crate) fn literal(node: &SyntaxNode) -> Literal {
    literal_of(node.green())
}

fn literal_of(green: &GreenNodeData) -> Literal {
    if let Some(keyword) = keyword_literal(green) {
        return Literal::Value(keyword_value(keyword));
    }
    match first_token(green, |k| matches!(k, NUMBER | IDENT)) {
        Some((NUMBER, text)) => match Number::parse(text) {
            Some(n) => Literal::Value(Value::Number(n)),
            None => Literal::BadNumber(text.to_string()),
        },
        _ => Literal::Missing,
    }
}

/// A `LITERAL` node that is `true`, `false` or `null`: `Some(Some(b))`
/// for a bool, `Some(None)` for `null`, `None` for a number (or a
/// literal without its token). The commonest literals, told without
/// building their value (see [`keyword_value`]); a small answer in a
/// register, which a classification carrying the number's text was
/// measured to lose (literals 12.1–12.7 µs by kind against 11.1–11.4).
pub(crate) fn keyword_literal(green: &GreenNodeData) -> Option<Option<bool>> {
    match first_token(green, |k| matches!(k, NUMBER | IDENT))? {
        (IDENT, "true") => Some(Some(true)),
        (IDENT, "false") => Some(Some(false)),
        (IDENT, "null") => Some(None),
        _ => None,
    }
}

/// The value of a [`keyword_literal`].
///
/// Kept out of line for the reason [`string_value`] is: the value is
/// built where the caller places it, not built aside and copied (the copy
/// reads the bytes just written, and stalls).
#[inline(never)]
pub(crate) fn keyword_value(keyword: Option<bool>) -> Value {
    match keyword {
        Some(b) => Value::Bool(b),
        None => Value::Null(super::Type::Dynamic),
    }
}

/// The name of a `VARIABLE` node (its identifier), as `Variable::name`
/// gives it.
pub(crate) fn variable_name(node: &SyntaxNode) -> Option<SmolStr> {
    crate::ast::green_variable_name(node.green()).map(SmolStr::new)
}

/// The key of an object item, as evaluation first looks at it.
pub(crate) enum ItemKey {
    /// A bare name (`{ foo = 1 }`), as `ObjectKey::bare_name` gives it.
    Name(SmolStr),
    /// No key (a syntax error).
    Missing,
    /// Any other key.
    Other,
}

/// How many `OBJECT_ITEM`s an `OBJECT` node has, read from its green node
/// (no syntax node is made for them).
pub(crate) fn object_item_count(object: &SyntaxNode) -> usize {
    object_items(object.green()).count()
}

/// The `OBJECT_ITEM` children of an `OBJECT` green node.
fn object_items(object: &GreenNodeData) -> impl Iterator<Item = &GreenNodeData> + Clone {
    object
        .children()
        .filter_map(|c| c.into_node())
        .filter(|n| kind(n.kind()) == OBJECT_ITEM)
}

/// The key of an `OBJECT_ITEM` node.
pub(crate) fn item_key_name(item: &SyntaxNode) -> ItemKey {
    let green = item.green();
    let Some(key) = green
        .children()
        .filter_map(|c| c.into_node())
        .find(|n| kind(n.kind()) == OBJECT_KEY)
    else {
        return ItemKey::Missing;
    };
    match bare_name(key) {
        Some(name) => ItemKey::Name(name),
        None => ItemKey::Other,
    }
}

/// For an `OBJECT_KEY` node that is a bare name, the name; `None` for any
/// other key.
pub(crate) fn bare_key_name(key: &SyntaxNode) -> Option<SmolStr> {
    bare_name(key.green())
}

fn bare_name(key: &GreenNodeData) -> Option<SmolStr> {
    bare_name_text(key).map(SmolStr::new)
}

/// [`bare_name`]'s text, as the tree holds it.
fn bare_name_text(key: &GreenNodeData) -> Option<&str> {
    // The key's expression is its first child node that is one.
    let first = key
        .children()
        .filter_map(|c| c.into_node())
        .find(|n| <crate::ast::Expr as crate::ast::AstNode>::can_cast(kind(n.kind())))?;
    if kind(first.kind()) != VARIABLE {
        return None;
    }
    crate::ast::green_variable_name(first)
}

/// A `QUOTED_TEMPLATE` node without interpolations or directives as its
/// string value (escapes decoded, NFC-normalised): what evaluating it
/// gives. `None` for a template with any other part.
pub(crate) fn literal_string(node: &SyntaxNode) -> Option<Value> {
    literal_string_of(node.green())
}

fn literal_string_of(green: &GreenNodeData) -> Option<Value> {
    match verbatim_text(green) {
        Some(text) => Some(string_value(text)),
        None => decoded_string(green),
    }
}

/// The text of a `QUOTED_TEMPLATE` node whose value is that text as it
/// stands: no part or one literal part, ASCII, without escapes (`\`,
/// `$${`, `%%{`). Most strings in configuration are such, and they need
/// no decoding. `None` for any other template.
pub(crate) fn verbatim_text(green: &GreenNodeData) -> Option<&str> {
    let mut text = "";
    let mut parts = 0;
    for child in green.children() {
        match child {
            NodeOrToken::Node(_) => return None,
            NodeOrToken::Token(t) if kind(t.kind()) == TEMPLATE_LITERAL => {
                parts += 1;
                text = t.text();
            }
            NodeOrToken::Token(_) => {}
        }
    }
    (parts <= 1 && is_verbatim(text.as_bytes())).then_some(text)
}

/// Whether a literal part's bytes are ASCII without `\`, `$` or `%`
/// (which begin escapes). Short parts (most of them) are checked in one
/// pass without branches; long ones with vector searches.
fn is_verbatim(bytes: &[u8]) -> bool {
    if bytes.len() <= 32 {
        let special = |b: &u8| u8::from(*b >= 0x80 || matches!(*b, b'\\' | b'$' | b'%'));
        return bytes.iter().map(special).fold(0, |seen, s| seen | s) == 0;
    }
    bytes.is_ascii() && memchr::memchr3(b'\\', b'$', b'%', bytes).is_none()
}

/// The string value of [`verbatim_text`]'s text (ASCII, so already in
/// normal form C).
///
/// Kept out of line on purpose: called where its result is to be placed,
/// it builds the value right there. Inlined, the string's inline bytes
/// (written a few at a time) are first built aside and then copied a wide
/// word at a time, and reading them back so soon after they were written
/// stalls the processor. Measured before: a plain string evaluated in
/// 70 ns against hcl-rs's 54 ns, with half of the string reader's samples
/// on two such copies; after, 1.3–1.5× as fast as hcl-rs.
#[inline(never)]
pub(crate) fn string_value(text: &str) -> Value {
    Value::String(SmolStr::new(text))
}

/// A template of literal parts only (escapes decoded, normalised), or
/// `None` when it has any other part.
pub(crate) fn decoded_string(green: &GreenNodeData) -> Option<Value> {
    let mut text = String::new();
    for child in green.children() {
        match child {
            NodeOrToken::Node(_) => return None,
            NodeOrToken::Token(t) if kind(t.kind()) == TEMPLATE_LITERAL => {
                text.push_str(&crate::ast::decode_quoted(t.text()));
            }
            NodeOrToken::Token(_) => {}
        }
    }
    Some(Value::string(text))
}

/// A leaf's value: a literal or a quoted string without interpolation,
/// when evaluating it reports no problem.
fn leaf_value(green: &GreenNodeData) -> Option<Value> {
    match kind(green.kind()) {
        LITERAL => match literal_of(green) {
            Literal::Value(v) => Some(v),
            Literal::BadNumber(_) | Literal::Missing => None,
        },
        QUOTED_TEMPLATE => literal_string_of(green),
        _ => None,
    }
}

fn is_expr(green: &GreenNodeData) -> bool {
    <crate::ast::Expr as crate::ast::AstNode>::can_cast(kind(green.kind()))
}

/// A tuple or object constructor made of constants only, evaluated as
/// evaluation walks it, without its nodes: its elements are leaves or
/// such constructors again (up to [`MAX_CONSTANT_DEPTH`] levels), and an
/// object's keys are bare names or quoted strings without interpolation.
/// The value, how many expressions evaluation counts on the way (every
/// element, key string and nested constructor inside it, not itself) and
/// the longest string among them. `None` for any other constructor.
pub(crate) struct LeafCollection {
    /// The value.
    pub(crate) value: Value,
    /// The expressions evaluated inside it.
    pub(crate) steps: u64,
    /// The length of its longest string element.
    pub(crate) longest: usize,
}

/// Nesting read without nodes; deeper constructors take the general path
/// (which grows the stack as it goes).
const MAX_CONSTANT_DEPTH: u32 = 32;

/// See [`LeafCollection`]. When the constructor is not made of constants,
/// the offset in the text of the first element (in the order evaluation
/// goes) that is not one: a walk of any constructor around that element
/// fails there again, so callers skip it (see [`Miss`]).
pub(crate) fn leaf_collection(node: &SyntaxNode) -> Result<LeafCollection, TextSize> {
    let mut walk = ConstantWalk {
        steps: 0,
        longest: 0,
    };
    let green = node.green();
    match walk.collection(green, 0) {
        Ok(value) => Ok(LeafCollection {
            value,
            steps: walk.steps,
            longest: walk.longest,
        }),
        Err(missed) => {
            let start = node.text_range().start();
            Err(offset_of(green, missed, start).unwrap_or(start))
        }
    }
}

/// The offset of `target`, a node inside `green` (which starts at
/// `start`): looked for only when a walk fails, so that the walk itself
/// reads no lengths.
fn offset_of(
    green: &GreenNodeData,
    target: *const GreenNodeData,
    start: TextSize,
) -> Option<TextSize> {
    if std::ptr::eq(green, target) {
        return Some(start);
    }
    let mut at = start;
    for child in green.children() {
        if let NodeOrToken::Node(n) = child
            && let Some(found) = offset_of(n, target, at)
        {
            return Some(found);
        }
        at += child.text_len();
    }
    None
}

/// Where the last walk of a constructor met something not constant. A
/// constructor that contains that place is not walked again: without
/// this, a deep constant tree with one variable at the bottom would be
/// walked once for each level above the variable.
#[derive(Default)]
pub(crate) struct Miss(Option<TextSize>);

impl Miss {
    /// [`leaf_collection`], unless `node` holds the last miss.
    pub(crate) fn leaf_collection(&mut self, node: &SyntaxNode) -> Option<LeafCollection> {
        if let Some(at) = self.0
            && node.text_range().contains(at)
        {
            return None;
        }
        match leaf_collection(node) {
            Ok(c) => Some(c),
            Err(at) => {
                self.0 = Some(at);
                None
            }
        }
    }
}

/// The counts of a walk over a constant constructor.
struct ConstantWalk {
    steps: u64,
    longest: usize,
}

/// The node a walk stopped at.
type Missed = *const GreenNodeData;

impl ConstantWalk {
    /// An element: one step, plus its own elements for a constructor (its
    /// operand for a sign). `Err` with the first part that is not constant.
    fn element(&mut self, green: &GreenNodeData, depth: u32) -> Result<Value, Missed> {
        let v = match kind(green.kind()) {
            QUOTED_TEMPLATE if let Some(text) = verbatim_text(green) => {
                return Ok(self.verbatim(text));
            }
            TUPLE | OBJECT if depth < MAX_CONSTANT_DEPTH => self.collection(green, depth + 1)?,
            UNARY => self.sign(green).ok_or(green as Missed)?,
            _ => leaf_value(green).ok_or(green as Missed)?,
        };
        self.steps += 1;
        if let Value::String(s) = &v {
            self.longest = self.longest.max(s.len());
        }
        Ok(v)
    }

    /// A plain string element ([`verbatim_text`]'s text): one step.
    fn verbatim(&mut self, text: &str) -> Value {
        self.steps += 1;
        self.longest = self.longest.max(text.len());
        string_value(text)
    }

    /// `-` before a number literal, `!` before `true` or `false`: the value
    /// and one step for the operand.
    fn sign(&mut self, green: &GreenNodeData) -> Option<Value> {
        let op = first_token(green, |k| matches!(k, MINUS | BANG))?.0;
        let operand = green
            .children()
            .filter_map(|c| c.into_node())
            .find(|n| is_expr(n))?;
        if kind(operand.kind()) != LITERAL {
            return None;
        }
        let v = match (op, leaf_value(operand)?) {
            (MINUS, Value::Number(n)) => Value::Number(n.neg()),
            (BANG, Value::Bool(b)) => Value::Bool(!b),
            _ => return None,
        };
        self.steps += 1;
        Some(v)
    }

    fn collection(&mut self, green: &GreenNodeData, depth: u32) -> Result<Value, Missed> {
        match kind(green.kind()) {
            TUPLE => {
                let nodes = green.children().filter_map(|c| c.into_node());
                let mut items = super::Elements::with_capacity(nodes.clone().count());
                for child in nodes {
                    if kind(child.kind()) == QUOTED_TEMPLATE
                        && let Some(text) = verbatim_text(child)
                    {
                        // The commonest element (lists of names, CIDRs,
                        // ARNs), pushed without going through `element`'s
                        // result (one copy of the value fewer).
                        items.push(self.verbatim(text));
                    } else if is_expr(child) {
                        items.push(self.element(child, depth)?);
                    }
                }
                Ok(Value::Tuple(items))
            }
            OBJECT => {
                let items = object_items(green);
                let mut out = super::shared::Pairs::with_capacity(items.clone().count());
                for item in items {
                    let mut nodes = item.children().filter_map(|c| c.into_node());
                    let Some(key) = nodes.clone().find(|n| kind(n.kind()) == OBJECT_KEY) else {
                        continue;
                    };
                    let key = self.key(key)?;
                    // The value is the item's first child that is an expression.
                    let value = match nodes.find(|n| is_expr(n)) {
                        Some(v) => self.element(v, depth)?,
                        None => Value::Unknown(super::Type::Dynamic),
                    };
                    out.push((key, value));
                }
                Ok(Value::Object(super::Entries::from_pairs(out)))
            }
            _ => Err(green),
        }
    }

    /// An object key as evaluation reads it: a bare name as it is (no
    /// step), a quoted string evaluated (one step); `Err` for any other.
    fn key(&mut self, key: &GreenNodeData) -> Result<SmolStr, Missed> {
        if let Some(name) = bare_name_text(key) {
            if name.is_ascii() {
                return Ok(SmolStr::new(name));
            }
            return match Value::string(name) {
                Value::String(k) => Ok(k),
                _ => Err(key),
            };
        }
        let expr = key
            .children()
            .filter_map(|c| c.into_node())
            .find(|n| is_expr(n))
            .ok_or(key as Missed)?;
        if kind(expr.kind()) != QUOTED_TEMPLATE {
            return Err(expr);
        }
        match self.element(expr, MAX_CONSTANT_DEPTH)? {
            Value::String(k) => Ok(k),
            _ => Err(expr),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{self, AstNode, Expr};

    fn exprs(text: &str) -> Vec<Expr> {
        crate::parse_expr(text)
            .syntax()
            .descendants()
            .filter_map(Expr::cast)
            .collect()
    }

    /// Every reader gives what the typed accessors give, on the leaves of
    /// expressions with escapes, non-ASCII text, names and odd numbers.
    #[test]
    fn leaves_read_as_the_typed_tree_reads_them() {
        let text = r#"{
            plain = "abc", empty = "", esc = "a\"b\\c\n\u00e9", dollars = "$${x} %%{y}",
            nfd = "an\u0303o", raw_nfd = "año", long = "a string longer than twenty-three bytes",
            "quoted key" = 1, ñame = [0, 007, 1.5, 1e3, 18446744073709551615, 99999999999999999999],
            t = true, f = false, n = null, v = var.x, interp = "a${b}c", (k) = k,
            ident_key = { x = null }, ascii_esc = "tab\there", pct = "100%", dollar = "US$5",
            long_esc = "more than thirty-two bytes before an escape: \\",
            long_plain = "more than thirty-two bytes and nothing to decode"
        }"#;
        let all = exprs(text);
        assert!(all.len() > 20);
        let mut verbatim = 0;
        for e in &all {
            match e {
                Expr::Literal(l) => {
                    let typed = match l.value() {
                        Some(ast::LiteralValue::Number(t)) => Number::parse(&t).map(Value::Number),
                        Some(ast::LiteralValue::Bool(b)) => Some(Value::Bool(b)),
                        Some(ast::LiteralValue::Null) => {
                            Some(Value::Null(crate::eval::Type::Dynamic))
                        }
                        None => None,
                    };
                    let read = match literal(l.syntax()) {
                        Literal::Value(v) => Some(v),
                        _ => None,
                    };
                    assert_eq!(read, typed, "{e}");
                }
                Expr::Variable(v) => {
                    assert_eq!(variable_name(v.syntax()).map(String::from), v.name());
                }
                Expr::QuotedTemplate(t) => {
                    assert_eq!(
                        literal_string(t.syntax()),
                        t.literal_value().map(Value::string),
                        "{e}"
                    );
                    // A text taken as it stands is the decoded value.
                    if let Some(text) = verbatim_text(t.syntax().green()) {
                        verbatim += 1;
                        assert_eq!(Some(text.to_string()), t.literal_value(), "{e}");
                    }
                }
                Expr::Object(o) => {
                    for item in o.items() {
                        let typed = item.key().and_then(|k| k.bare_name());
                        let read = match item_key_name(item.syntax()) {
                            ItemKey::Name(n) => Some(n.to_string()),
                            ItemKey::Missing | ItemKey::Other => None,
                        };
                        assert_eq!(read, typed, "{item}");
                        let key = item.key().expect("a key");
                        assert_eq!(
                            bare_key_name(key.syntax()).map(String::from),
                            key.bare_name()
                        );
                    }
                }
                _ => {}
            }
        }
        // Texts with `\\`, `$`, `%` or non-ASCII characters are decoded,
        // whether or not they hold an escape.
        assert_eq!(
            verbatim, 5,
            "plain, empty, long, the quoted key, long_plain"
        );
    }

    /// Tuples and objects of leaves give, without their nodes, the value
    /// and the budget use of evaluating them element by element (which a
    /// time limit forces).
    #[test]
    fn leaf_collections_evaluate_as_their_elements_do() {
        use crate::eval::{Budget, EvalContext, console_string, evaluate};
        let slow_ctx = EvalContext::new().with_budget(Budget {
            time: Some(std::time::Duration::from_secs(3600)),
            ..Budget::default()
        });
        let fast_ctx = EvalContext::new();
        for text in [
            r#"[1, "a", true, null, "x\u00e9", "an\u0303o", 007]"#,
            r#"{ a = 1, b = "x", a = 2, c = [1], "q" = 1 }"#,
            r#"{ a = 1, b = "two", ñ = null }"#,
            "[]",
            "{}",
            "[1, [2], {a = 3}]",
            "[1, 1e999999999999]",
            "[1, var.x]",
            r#"["a${b}"]"#,
            r#"{ a = { b = [1, { c = "x" }] }, "k" = 2, "k" = [3], e = {} }"#,
            r#"{ "a\u00e9" = 1, "an\u0303o" = "n", "${x}" = 2 }"#,
            r#"{ true = 1, null = 2 }"#,
            r#"[[[]], [{}], [[1, [2, [3]]]], [{ a = [var.x] }]]"#,
            r#"{ a = [1, 1e999999999999] }"#,
            "[-1, -0, !true, !false, -1.5e3, - 2, -(3), !1, -true, -null, --1]",
            r#"{ a = [{ b = 1 }, { c = [var.x] }], d = { e = [{ f = -1 }] } }"#,
            r#"[[[[1, 2, [3, "${x}"]]]], [[[4]]]]"#,
            &format!("{}1{}", "[".repeat(40), "]".repeat(40)),
            &format!("{}1{}", "{ a = ".repeat(40), " }".repeat(40)),
        ] {
            let e = exprs(text).into_iter().next().expect("an expression");
            let (slow, fast) = (evaluate(&e, &slow_ctx), evaluate(&e, &fast_ctx));
            assert_eq!(
                console_string(&slow.value),
                console_string(&fast.value),
                "{text}"
            );
            assert_eq!(slow.diagnostics, fast.diagnostics, "{text}");
        }
        // The step budget: passed inside the tuple, reported as before.
        let tight = |time| {
            EvalContext::new().with_budget(Budget {
                steps: 3,
                time,
                ..Budget::default()
            })
        };
        let e = exprs("[1, 2, 3, 4]")
            .into_iter()
            .next()
            .expect("an expression");
        let slow = evaluate(&e, &tight(Some(std::time::Duration::from_secs(3600))));
        let fast = evaluate(&e, &tight(None));
        assert_eq!(slow.diagnostics, fast.diagnostics);
        assert_eq!(fast.diagnostics.len(), 1);
        assert_eq!(console_string(&slow.value), console_string(&fast.value));
        // Nested constructors and quoted keys count as their elements do:
        // every limit from just below to just above what they take.
        let budgeted = |steps, max_string_len, time| {
            EvalContext::new().with_budget(Budget {
                steps,
                max_string_len,
                time,
                ..Budget::default()
            })
        };
        for text in [
            "[[1, 2], [3, [4]]]",
            "[-1, { a = !true }]",
            r#"{ a = { "bb" = "ccc" }, "dddd" = [1] }"#,
        ] {
            let e = exprs(text).into_iter().next().expect("an expression");
            for steps in 1..12 {
                for max_string_len in 1..6 {
                    let slow = evaluate(
                        &e,
                        &budgeted(
                            steps,
                            max_string_len,
                            Some(std::time::Duration::from_secs(3600)),
                        ),
                    );
                    let fast = evaluate(&e, &budgeted(steps, max_string_len, None));
                    assert_eq!(slow.diagnostics, fast.diagnostics, "{text} {steps}");
                    assert_eq!(
                        console_string(&slow.value),
                        console_string(&fast.value),
                        "{text} {steps} {max_string_len}"
                    );
                }
            }
        }
    }

    /// A constant evaluated alone (without an evaluator) gives what the
    /// evaluator gives for it, budget errors included: each is compared
    /// with itself in parentheses, which the evaluator walks.
    #[test]
    fn lone_leaves_evaluate_as_the_evaluator_does() {
        use crate::eval::{Budget, EvalContext, console_string, evaluate};
        for text in [
            "1",
            "-1",
            "null",
            "true",
            "false",
            r#""""#,
            r#""abc""#,
            r#""a\u00e9\n""#,
            r#""an\u0303o""#,
            "1e999999999999",
            r#""a${b}""#,
            r#""$${x} %%{y}""#,
            r#""a plain string of more than thirty-two bytes""#,
            r#""a string of more than thirty-two bytes, then\n""#,
            r#"["a", "b\n", "$${c}", "more than thirty-two bytes, and plain"]"#,
            r#"{ k = "more than thirty-two bytes with a % inside" }"#,
            "007",
            "[]",
            "{}",
            r#"[1, "abcd", [true]]"#,
            r#"{ a = { "bb" = "ccc" }, d = [-1] }"#,
            "[1, var.x]",
        ] {
            let lone = exprs(text).into_iter().next().expect("an expression");
            let wrapped = exprs(&format!("({text})"))
                .into_iter()
                .next()
                .expect("an expression");
            for steps in 0..12 {
                for max_string_len in [0, 1, 3, 64] {
                    // The parentheses take a step of their own.
                    let ctx = |steps| {
                        EvalContext::new().with_budget(Budget {
                            steps,
                            max_string_len,
                            ..Budget::default()
                        })
                    };
                    let (a, b) = (
                        evaluate(&lone, &ctx(steps)),
                        evaluate(&wrapped, &ctx(steps + 1)),
                    );
                    assert_eq!(console_string(&a.value), console_string(&b.value), "{text}");
                    let said = |d: &[crate::eval::Diagnostic]| {
                        d.iter()
                            // The step limit, which the message names, differs by one.
                            .map(|d| (d.summary.clone(), d.detail.replace(char::is_numeric, "")))
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(
                        said(&a.diagnostics),
                        said(&b.diagnostics),
                        "{text} {steps} {max_string_len}"
                    );
                }
            }
        }
    }

    #[test]
    fn plain_integers_parse_as_decimals_do() {
        for text in [
            "0",
            "7",
            "007",
            "65535",
            "65536",
            "1234567890123456789",
            "9999999999999999999",
            "18446744073709551615",
        ] {
            let fast = Number::parse(text).expect("a number");
            let slow = Number::parse(&format!("{text}.0")).expect("a number");
            assert_eq!(fast.to_string(), slow.to_string(), "{text}");
            assert_eq!(fast.precision(), slow.precision(), "{text}");
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{text}");
        }
    }
}
