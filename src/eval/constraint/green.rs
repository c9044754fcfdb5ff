//! Type constraints read straight from the green tree.
//!
//! A module declares a type for most of its variables, and a large one
//! (`object({ … = optional(…) })` over hundreds of attributes) has
//! thousands of type nodes. Reading them through the typed syntax views
//! makes a syntax node for every node visited and a `String` or a `Vec` for
//! every name and argument list; here the kinds and names are read from
//! the green nodes, and a syntax node is made only for the default of an
//! `optional(T, default)`, which is evaluated.
//!
//! Only the plain shapes are read here: the keywords, `list`, `set`,
//! `map`, `tuple`, `object` and `optional` calls, parentheses, bare
//! attribute names, with any comments and line breaks between them. For
//! anything else — a quoted type, a namespaced call, `...`, a syntax
//! error, and every invalid constraint — [`read`] answers `None` and the
//! syntax views read it, with their messages. So a constraint read here is
//! always the one the syntax views read (`tests::green_reads_what_the_views_read`).

use super::{Attribute, Constraint, keyword, optional_default};
use crate::SyntaxNode;
use crate::ast::{AstNode, Expr};
use crate::syntax_kind::{
    HclLanguage,
    SyntaxKind::{self, *},
};
use rowan::{GreenNodeData, Language, NodeOrToken, TextRange, TextSize};
use std::collections::BTreeMap;

/// The constraint `expr` writes, when it is one of the plain shapes.
pub(super) fn read(expr: &SyntaxNode) -> Option<Constraint> {
    Reader { root: expr }.constraint(expr.green(), expr.text_range().start())
}

/// A walk under one expression; `root` is kept to find the syntax node of
/// an optional attribute's default.
struct Reader<'a> {
    root: &'a SyntaxNode,
}

/// A green child and where it starts in the file.
type Child<'g> = (
    NodeOrToken<&'g GreenNodeData, &'g rowan::GreenTokenData>,
    TextSize,
);

impl Reader<'_> {
    /// The constraint of the expression node `green` starting at `start`.
    fn constraint(&self, green: &GreenNodeData, start: TextSize) -> Option<Constraint> {
        match kind(green.kind()) {
            VARIABLE => keyword(crate::ast::green_variable_name(green)?).ok(),
            PAREN => {
                let (inner, at) = only(expressions(green, start, &[L_PAREN, R_PAREN])?)?;
                self.constraint(inner, at)
            }
            FUNCTION_CALL => self.call(green, start),
            _ => None,
        }
    }

    /// `list(T)`, `set(T)`, `map(T)`, `tuple([…])` or `object({…})`.
    fn call(&self, green: &GreenNodeData, start: TextSize) -> Option<Constraint> {
        let (name, args, at) = call_parts(green, start)?;
        let one = || {
            let (arg, at) = only(expressions(args, at, &[L_PAREN, R_PAREN, COMMA])?)?;
            self.constraint(arg, at).map(Box::new)
        };
        match name {
            "list" => Some(Constraint::List(one()?)),
            "set" => Some(Constraint::Set(one()?)),
            "map" => Some(Constraint::Map(one()?)),
            "tuple" => {
                let (tuple, at) = only(expressions(args, at, &[L_PAREN, R_PAREN, COMMA])?)?;
                if kind(tuple.kind()) != TUPLE {
                    return None;
                }
                expressions(tuple, at, &[L_BRACK, R_BRACK, COMMA])?
                    .map(|(element, at)| self.constraint(element, at))
                    .collect::<Option<Vec<_>>>()
                    .map(Constraint::Tuple)
            }
            "object" => {
                let (object, at) = only(expressions(args, at, &[L_PAREN, R_PAREN, COMMA])?)?;
                if kind(object.kind()) != OBJECT {
                    return None;
                }
                self.object(object, at)
            }
            _ => None,
        }
    }

    /// The attributes of an `object({…})` constraint.
    fn object(&self, object: &GreenNodeData, start: TextSize) -> Option<Constraint> {
        let items = nodes(object, start, &[L_BRACE, R_BRACE, COMMA], |k| {
            k == OBJECT_ITEM
        })?;
        let mut attributes = BTreeMap::new();
        for (item, at) in items {
            let parts = nodes(item, at, &[EQ, COLON, COMMA], |k| {
                k == OBJECT_KEY || Expr::can_cast(k)
            })?;
            let (mut key, mut value) = (None, None);
            for (node, at) in parts {
                match kind(node.kind()) {
                    OBJECT_KEY if key.is_none() => key = Some(node),
                    OBJECT_KEY => return None,
                    _ if value.is_none() => value = Some((node, at)),
                    _ => return None,
                }
            }
            let (value, at) = value?;
            let name = attribute_name(key?)?;
            attributes.insert(name.to_string(), self.attribute(value, at)?);
        }
        Some(Constraint::Object(attributes))
    }

    /// An object attribute's constraint: `T`, `optional(T)` or
    /// `optional(T, default)`.
    fn attribute(&self, green: &GreenNodeData, start: TextSize) -> Option<Attribute> {
        if let Some(("optional", args, at)) = call_parts(green, start) {
            let mut args = expressions(args, at, &[L_PAREN, R_PAREN, COMMA])?;
            let (ty, at) = args.next()?;
            let constraint = self.constraint(ty, at)?;
            let default = match args.next() {
                Some((default, at)) => {
                    let expr = self.syntax_expr(default, at)?;
                    Some(optional_default(&constraint, &expr).ok()?)
                }
                None => None,
            };
            if args.next().is_some() {
                return None;
            }
            return Some(Attribute {
                constraint,
                optional: true,
                default,
            });
        }
        Some(Attribute {
            constraint: self.constraint(green, start)?,
            optional: false,
            default: None,
        })
    }

    /// The syntax node of the expression `green` starting at `start` (under
    /// the root): the deepest node covering its range, then up to the one
    /// whose green node it is.
    fn syntax_expr(&self, green: &GreenNodeData, start: TextSize) -> Option<Expr> {
        let range = TextRange::at(start, green.text_len());
        let node = match self.root.covering_element(range) {
            NodeOrToken::Node(node) => node,
            NodeOrToken::Token(token) => token.parent()?,
        };
        node.ancestors()
            .take_while(|n| n.text_range() == range)
            .find(|n| std::ptr::eq(n.green(), green))
            .and_then(Expr::cast)
    }
}

/// A kind as a [`SyntaxKind`].
fn kind(raw: rowan::SyntaxKind) -> SyntaxKind {
    HclLanguage::kind_from_raw(raw)
}

/// A call's name (one identifier, no namespace) and its argument list.
fn call_parts(green: &GreenNodeData, start: TextSize) -> Option<(&str, &GreenNodeData, TextSize)> {
    if kind(green.kind()) != FUNCTION_CALL {
        return None;
    }
    let (mut name, mut args) = (None, None);
    for (child, at) in children(green, start) {
        match child {
            NodeOrToken::Token(t) => match kind(t.kind()) {
                IDENT if name.is_none() => name = Some(t.text()),
                k if is_trivia(k) => {}
                _ => return None,
            },
            NodeOrToken::Node(n) if kind(n.kind()) == ARG_LIST && args.is_none() => {
                args = Some((n, at));
            }
            NodeOrToken::Node(_) => return None,
        }
    }
    let (args, at) = args?;
    Some((name?, args, at))
}

/// The name of an object attribute's key: a bare name.
fn attribute_name(key: &GreenNodeData) -> Option<&str> {
    let mut names = key.children().map(|child| match child {
        NodeOrToken::Node(n) if kind(n.kind()) == VARIABLE => crate::ast::green_variable_name(n),
        NodeOrToken::Token(t) if is_trivia(kind(t.kind())) => Some(""),
        _ => None,
    });
    let mut found = None;
    for name in names.by_ref() {
        match name? {
            "" => {}
            name if found.is_none() => found = Some(name),
            _ => return None,
        }
    }
    found
}

/// The children of `green` with where each starts.
fn children(green: &GreenNodeData, start: TextSize) -> impl Iterator<Item = Child<'_>> {
    let mut at = start;
    green.children().map(move |child| {
        let here = at;
        at += child.text_len();
        (child, here)
    })
}

/// The child nodes of `green`, when every child token is trivia or one of
/// `punctuation` and every child node's kind passes `node`.
fn nodes<'g>(
    green: &'g GreenNodeData,
    start: TextSize,
    punctuation: &[SyntaxKind],
    node: impl Fn(SyntaxKind) -> bool,
) -> Option<impl Iterator<Item = (&'g GreenNodeData, TextSize)>> {
    let plain = green.children().all(|child| match child {
        NodeOrToken::Token(t) => {
            let k = kind(t.kind());
            is_trivia(k) || punctuation.contains(&k)
        }
        NodeOrToken::Node(n) => node(kind(n.kind())),
    });
    plain.then(|| children(green, start).filter_map(|(child, at)| Some((child.into_node()?, at))))
}

/// The child expressions of `green`, as [`nodes`] allows them.
fn expressions<'g>(
    green: &'g GreenNodeData,
    start: TextSize,
    punctuation: &[SyntaxKind],
) -> Option<impl Iterator<Item = (&'g GreenNodeData, TextSize)>> {
    nodes(green, start, punctuation, Expr::can_cast)
}

/// The one item of `items`, if there is exactly one.
fn only<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

/// Spaces, comments and line breaks, which may stand between the parts of
/// a type.
fn is_trivia(kind: SyntaxKind) -> bool {
    kind.is_trivia() || kind == NEWLINE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Attribute as AstAttribute;

    /// The expression of `text` (parsed as an expression).
    fn expr(text: &str) -> (crate::Parse, Expr) {
        let parse = crate::parse_expr(text);
        let e = parse.syntax().descendants().find_map(Expr::cast).unwrap();
        (parse, e)
    }

    /// What the green walk reads, checked against the syntax views: the
    /// same constraint, or nothing read at all.
    fn agrees(e: &Expr) -> Option<Constraint> {
        let read = read(e.syntax());
        if let Some(c) = &read {
            assert_eq!(Ok(c), Constraint::from_syntax(e).as_ref(), "{e}");
        }
        assert_eq!(Constraint::from_expr(e), Constraint::from_syntax(e), "{e}");
        read
    }

    #[test]
    fn green_reads_what_the_views_read() {
        let plain = [
            "string",
            "any",
            "(number)",
            "list(string)",
            "set( ( bool ) )",
            "map(list(map(any)))",
            "tuple([string, number, list(bool)])",
            "tuple([])",
            "object({})",
            "object({ a = string, b = number })",
            "object({ a = string, a = number })",
            "object({ a: string, b: list(string) })",
            "object({\n  # a comment\n  a = string # after\n  /* inline */ b = optional(number)\n})",
            "object({ a = optional(number, 3), b = optional(list(string), [\"x\"]) })",
            "object({ a = optional(object({ b = optional(bool, true) }), {}) })",
            "object({ a = optional(map(string), null) })",
            "list(object({ name = string, tags = optional(map(string), { env = \"dev\" }) }))",
            "map(\n  string\n)",
        ];
        // Left to the syntax views: legacy quoted types, namespaced calls,
        // expansions, quoted keys, and every invalid constraint.
        let others = [
            "\"string\"",
            "\"list\"",
            "str",
            "list",
            "list()",
            "list(string, number)",
            "list(string...)",
            "tuple(string)",
            "object([string])",
            "object({ \"a\" = string })",
            "object({ a = optional() })",
            "object({ a = optional(string, 1, 2) })",
            "object({ a = optional(number, \"x\") })",
            "object({ a = optional(number, var.x) })",
            "optional(string)",
            "provider::x::list(string)",
            "foo(string)",
            "list(string) + 1",
            "list(strin g)",
            "object({ a = })",
        ];
        for (texts, read_here) in [(&plain[..], true), (&others[..], false)] {
            for text in texts {
                let (_parse, e) = expr(text);
                assert_eq!(
                    agrees(&e).is_some(),
                    read_here,
                    "read from the green tree: {text}"
                );
            }
        }
    }

    /// Every `type` attribute of a variable in the fixtures and in the
    /// corpus (`HCLWRIGHT_CORPUS`) reads the same both ways, and nearly all
    /// the valid ones are read from the green tree.
    #[test]
    fn green_reads_the_type_attributes_of_real_files() {
        let mut texts = crate::corpus::fixture_texts();
        let from_fixtures = texts.len();
        if let Some(corpus) = crate::corpus::texts("the type constraints of the corpus") {
            texts.extend(corpus.into_iter().map(|(_, t)| t));
        }
        let (mut seen, mut read_here) = (0, 0);
        for text in &texts {
            let parse = crate::parse(text);
            for attribute in parse.syntax().descendants().filter_map(AstAttribute::cast) {
                let in_variable = attribute
                    .syntax()
                    .ancestors()
                    .filter_map(crate::ast::Block::cast)
                    .next()
                    .is_some_and(|b| b.type_name().as_deref() == Some("variable"));
                if !in_variable || attribute.name().as_deref() != Some("type") {
                    continue;
                }
                let Some(e) = attribute.expr() else { continue };
                let here = agrees(&e).is_some();
                // Of the valid constraints written in today's syntax (not
                // Terraform 0.11's quoted ones), count those read here.
                if Constraint::from_syntax(&e).is_ok() && !matches!(e, Expr::QuotedTemplate(_)) {
                    seen += 1;
                    read_here += usize::from(here);
                    if !here {
                        eprintln!("not read from the green tree: {e}");
                    }
                }
            }
        }
        assert!(
            seen > 0,
            "no type constraints in {from_fixtures} fixture files"
        );
        assert!(
            read_here * 100 >= seen * 99,
            "only {read_here} of {seen} type constraints read from the green tree"
        );
        eprintln!("{read_here} of {seen} type constraints read from the green tree");
    }
}
