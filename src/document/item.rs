//! What an address designates: an attribute, a block, an object item or
//! a tuple element, with read accessors.

use crate::ast::{self, AstNode, Expr};
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode, SyntaxToken};
use text_size::TextRange;

use super::comments;
use super::value::EditValue;

/// An attribute, block, object item or tuple element of a document.
///
/// ```
/// use hclwright::{Document, EditValue};
/// let doc = Document::parse("locals {\n  tags = { Name = \"web\" } # tags\n  ports = [80, 443]\n}\n").unwrap();
/// let tags = doc.get("locals.tags").unwrap();
/// assert_eq!(tags.name().as_deref(), Some("tags"));
/// assert_eq!(tags.value_text().as_deref(), Some("{ Name = \"web\" }"));
/// assert_eq!(tags.text(), "tags = { Name = \"web\" }");
/// let name = doc.get("locals.tags.Name").unwrap();
/// assert_eq!(name.value(), Some(EditValue::from("web")));
/// assert_eq!(doc.get("locals.ports[1]").unwrap().value(), Some(EditValue::from(443)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// `name = value` in a body.
    Attribute(ast::Attribute),
    /// `type labels { … }`.
    Block(ast::Block),
    /// `key = value` in an object.
    ObjectItem(ast::ObjectItem),
    /// An element of a tuple.
    Element {
        /// The tuple.
        tuple: ast::Tuple,
        /// The element's position.
        index: usize,
        /// The element.
        expr: Expr,
    },
}

impl Item {
    /// The item for an attribute or block of a body.
    pub fn from_body_item(item: &ast::BodyItem) -> Item {
        match item {
            ast::BodyItem::Attribute(a) => Item::Attribute(a.clone()),
            ast::BodyItem::Block(b) => Item::Block(b.clone()),
        }
    }

    /// The node of the item (for an element, its expression).
    pub fn syntax(&self) -> &SyntaxNode {
        match self {
            Item::Attribute(a) => a.syntax(),
            Item::Block(b) => b.syntax(),
            Item::ObjectItem(i) => i.syntax(),
            Item::Element { expr, .. } => expr.syntax(),
        }
    }

    /// What kind of item this is, for messages: `attribute`, `block`,
    /// `object item`, `tuple element`.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Item::Attribute(_) => "attribute",
            Item::Block(_) => "block",
            Item::ObjectItem(_) => "object item",
            Item::Element { .. } => "tuple element",
        }
    }

    /// The attribute name, block type or object key (for a key that is an
    /// identifier or a string without interpolation).
    pub fn name(&self) -> Option<String> {
        match self {
            Item::Attribute(a) => a.name(),
            Item::Block(b) => b.type_name(),
            Item::ObjectItem(i) => i.key()?.literal_name(),
            Item::Element { .. } => None,
        }
    }

    /// The block's labels (empty for other items).
    pub fn labels(&self) -> Vec<String> {
        match self {
            Item::Block(b) => b.labels().map(|l| l.value()).collect(),
            _ => Vec::new(),
        }
    }

    /// A block's type and labels, to read as `&str` (`None` for other
    /// items).
    ///
    /// ```
    /// let doc = hclwright::Document::parse("module \"vpc\" {\n  source = \"./vpc\"\n}\n").unwrap();
    /// let header = doc.get("module.vpc").unwrap().header().unwrap();
    /// assert_eq!((header.type_name(), header.label(0)), ("module", Some("vpc")));
    /// ```
    pub fn header(&self) -> Option<ast::BlockHeader> {
        match self {
            Item::Block(b) => Some(b.header()),
            _ => None,
        }
    }

    /// The value expression of an attribute, object item or element.
    pub fn value_expr(&self) -> Option<Expr> {
        match self {
            Item::Attribute(a) => a.expr(),
            Item::Block(_) => None,
            Item::ObjectItem(i) => i.value(),
            Item::Element { expr, .. } => Some(expr.clone()),
        }
    }

    /// The source text of the value.
    pub fn value_text(&self) -> Option<String> {
        self.value_expr().map(|e| e.syntax().to_string())
    }

    /// The decoded value, for literals (see [`EditValue::decode`]).
    pub fn value(&self) -> Option<EditValue> {
        EditValue::decode(&self.value_expr()?)
    }

    /// The item's source, without the comment lines above it, its
    /// indentation, its same-line comment, a separating comma and its
    /// newline: `name = value`, `type "label" { … }`, or the element.
    pub fn text(&self) -> String {
        let range = self.core_range();
        let node = self.syntax();
        let start = range.start() - node.text_range().start();
        let end = range.end() - node.text_range().start();
        node.to_string()[usize::from(start)..usize::from(end)].to_string()
    }

    /// The range of [`Item::text`].
    pub fn core_range(&self) -> TextRange {
        if let Item::Element { expr, .. } = self {
            return expr.syntax().text_range();
        }
        let node = self.syntax();
        let significant: Vec<SyntaxToken> = node
            .children_with_tokens()
            .filter(|e| !matches!(e.kind(), WHITESPACE | NEWLINE | COMMENT | COMMA))
            .filter_map(|e| match e {
                rowan::NodeOrToken::Token(t) => Some(t),
                rowan::NodeOrToken::Node(n) => n.first_token(),
            })
            .collect();
        let first = significant.first().map(|t| t.text_range().start());
        let last = node
            .children_with_tokens()
            .filter(|e| !matches!(e.kind(), WHITESPACE | NEWLINE | COMMENT | COMMA))
            .last()
            .map(|e| e.text_range().end());
        match (first, last) {
            (Some(a), Some(b)) => TextRange::new(a, b),
            _ => node.text_range(),
        }
    }

    /// The comment lines directly above the item, as written (with their
    /// `#`, `//` or `/* */`).
    pub fn comments_above(&self) -> Vec<String> {
        self.comment_tokens_above()
            .iter()
            .map(|t| t.text().to_string())
            .collect()
    }

    /// The comment at the end of the item's line, as written.
    pub fn inline_comment(&self) -> Option<String> {
        self.inline_comment_token().map(|t| t.text().to_string())
    }
}

impl Item {
    /// The comment lines directly above the item.
    pub(crate) fn comment_tokens_above(&self) -> Vec<SyntaxToken> {
        let node = self.syntax();
        let mut out = comments::sibling_comment_lines(node);
        if !matches!(self, Item::Element { .. }) {
            out.extend(comments::owned_above(node));
        }
        out
    }

    /// The comment at the end of the item's line.
    pub(crate) fn inline_comment_token(&self) -> Option<SyntaxToken> {
        match self {
            Item::Attribute(a) => a.trailing_comment(),
            Item::Block(b) => b.trailing_comment(),
            Item::ObjectItem(i) => i.trailing_comment(),
            Item::Element { expr, .. } => {
                let mut e = crate::ast::AstNode::syntax(expr).next_sibling_or_token();
                while let Some(x) = e {
                    match x.kind() {
                        WHITESPACE | COMMA => e = x.next_sibling_or_token(),
                        COMMENT => {
                            let mut after = x.next_sibling_or_token();
                            while after.as_ref().is_some_and(|a| a.kind() == WHITESPACE) {
                                after = after.and_then(|a| a.next_sibling_or_token());
                            }
                            let at_end = after.as_ref().is_none_or(|a| a.kind() == NEWLINE);
                            return if at_end { x.into_token() } else { None };
                        }
                        _ => return None,
                    }
                }
                None
            }
        }
    }
}
