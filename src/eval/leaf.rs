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
    let green = node.green();
    match first_token(&green, |k| matches!(k, NUMBER | IDENT)) {
        Some((NUMBER, text)) => match Number::parse(text) {
            Some(n) => Literal::Value(Value::Number(n)),
            None => Literal::BadNumber(text.to_string()),
        },
        Some((_, "true")) => Literal::Value(Value::Bool(true)),
        Some((_, "false")) => Literal::Value(Value::Bool(false)),
        Some((_, "null")) => Literal::Value(Value::Null(super::Type::Dynamic)),
        _ => Literal::Missing,
    }
}

/// The name of a `VARIABLE` node (its identifier), as `Variable::name`
/// gives it.
pub(crate) fn variable_name(node: &SyntaxNode) -> Option<SmolStr> {
    let green = node.green();
    first_token(&green, |k| k == IDENT).map(|(_, text)| SmolStr::new(text))
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
    bare_name(&key.green())
}

fn bare_name(key: &GreenNodeData) -> Option<SmolStr> {
    // The key's expression is its first child node that is one.
    let first = key
        .children()
        .filter_map(|c| c.into_node())
        .find(|n| <crate::ast::Expr as crate::ast::AstNode>::can_cast(kind(n.kind())))?;
    if kind(first.kind()) != VARIABLE {
        return None;
    }
    first_token(first, |k| k == IDENT).map(|(_, text)| SmolStr::new(text))
}

/// A `QUOTED_TEMPLATE` node without interpolations or directives as its
/// string value (escapes decoded, NFC-normalised): what evaluating it
/// gives. `None` for a template with any other part.
pub(crate) fn literal_string(node: &SyntaxNode) -> Option<Value> {
    let green = node.green();
    let mut literals = green.children().filter_map(|c| match c {
        NodeOrToken::Node(_) => Some(None),
        NodeOrToken::Token(t) if kind(t.kind()) == TEMPLATE_LITERAL => Some(Some(t.text())),
        NodeOrToken::Token(_) => None,
    });
    let first = match literals.next() {
        None => return Some(Value::String(SmolStr::default())),
        Some(None) => return None,
        Some(Some(text)) => text,
    };
    let mut text = match literals.next() {
        None => {
            // One literal: no escapes and ASCII is the common case, and
            // its value is its text.
            if first.is_ascii() && !first.contains(['\\', '$', '%']) {
                return Some(Value::String(SmolStr::new(first)));
            }
            return Some(Value::string(crate::ast::decode_quoted(first)));
        }
        Some(None) => return None,
        Some(Some(second)) => {
            let mut s = crate::ast::decode_quoted(first);
            s.push_str(&crate::ast::decode_quoted(second));
            s
        }
    };
    for part in literals {
        text.push_str(&crate::ast::decode_quoted(part?));
    }
    Some(Value::string(text))
}
