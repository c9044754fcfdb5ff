//! Views of the structural language: files, bodies, attributes, blocks.

use super::{
    AstNode, Attribute, Block, BlockLabel, Body, ConfigFile, ErrorNode, Expr, ExprRoot,
    TemplatePart, TemplateRoot, child, child_nodes, children, leading_comments, token,
    trailing_comment,
};
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode, SyntaxToken};

impl ConfigFile {
    /// The top-level body.
    pub fn body(&self) -> Option<Body> {
        child(&self.0)
    }

    /// The byte order mark, if the text starts with one.
    pub fn bom(&self) -> Option<SyntaxToken> {
        token(&self.0, BOM)
    }
}

impl ExprRoot {
    /// The expression.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl TemplateRoot {
    /// The parts of the template, in order.
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> + use<> {
        super::template::parts_of(&self.0)
    }
}

/// An attribute or a block: the items of a body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BodyItem {
    /// `name = expr`
    Attribute(Attribute),
    /// `type labels { … }`
    Block(Block),
}

impl BodyItem {
    /// The underlying node.
    pub fn syntax(&self) -> &SyntaxNode {
        match self {
            BodyItem::Attribute(a) => a.syntax(),
            BodyItem::Block(b) => b.syntax(),
        }
    }

    /// The attribute name or block type.
    pub fn name(&self) -> Option<String> {
        match self {
            BodyItem::Attribute(a) => a.name(),
            BodyItem::Block(b) => b.type_name(),
        }
    }
}

impl Body {
    /// Attributes and blocks in source order.
    pub fn items(&self) -> impl Iterator<Item = BodyItem> + use<> {
        child_nodes(&self.0, |k| matches!(k, ATTRIBUTE | BLOCK)).filter_map(|n| match n.kind() {
            ATTRIBUTE => Attribute::cast(n).map(BodyItem::Attribute),
            BLOCK => Block::cast(n).map(BodyItem::Block),
            _ => None,
        })
    }

    /// Attributes in source order.
    pub fn attributes(&self) -> impl Iterator<Item = Attribute> + use<> {
        children(&self.0)
    }

    /// Blocks in source order.
    pub fn blocks(&self) -> impl Iterator<Item = Block> + use<> {
        children(&self.0)
    }

    /// The attribute called `name`, if any.
    pub fn attribute(&self, name: &str) -> Option<Attribute> {
        self.attributes()
            .find(|a| a.name_token().is_some_and(|t| t.text() == name))
    }

    /// Blocks of type `type_name`.
    pub fn blocks_of_type(&self, type_name: &str) -> impl Iterator<Item = Block> + use<> {
        let type_name = type_name.to_string();
        self.blocks()
            .filter(move |b| b.type_name().as_deref() == Some(type_name.as_str()))
    }

    /// Comment tokens that are direct children of the body (comments not
    /// attached to any item).
    pub fn detached_comments(&self) -> impl Iterator<Item = SyntaxToken> + use<> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == COMMENT)
    }

    /// Nodes the parser could not make sense of.
    pub fn errors(&self) -> impl Iterator<Item = ErrorNode> + use<> {
        children(&self.0)
    }
}

impl Attribute {
    /// The name token.
    pub fn name_token(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }

    /// The attribute name.
    pub fn name(&self) -> Option<String> {
        self.name_token().map(|t| t.text().to_string())
    }

    /// The `=` token.
    pub fn equals(&self) -> Option<SyntaxToken> {
        token(&self.0, EQ)
    }

    /// The value.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// The comment lines directly above the attribute.
    pub fn leading_comments(&self) -> Vec<SyntaxToken> {
        leading_comments(&self.0, IDENT)
    }

    /// The comment at the end of the attribute's (last) line.
    pub fn trailing_comment(&self) -> Option<SyntaxToken> {
        trailing_comment(&self.0)
    }
}

impl Block {
    /// The block type token (`resource` in `resource "a" "b" {}`).
    pub fn type_token(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }

    /// The block type.
    pub fn type_name(&self) -> Option<String> {
        self.type_token().map(|t| t.text().to_string())
    }

    /// The labels in order.
    pub fn labels(&self) -> impl Iterator<Item = BlockLabel> + use<> {
        children(&self.0)
    }

    /// The `{` token.
    pub fn open_brace(&self) -> Option<SyntaxToken> {
        token(&self.0, L_BRACE)
    }

    /// The `}` token.
    pub fn close_brace(&self) -> Option<SyntaxToken> {
        token(&self.0, R_BRACE)
    }

    /// The body between the braces (absent for `{}`).
    pub fn body(&self) -> Option<Body> {
        child(&self.0)
    }

    /// True when the block is written on one line (`a { b = 1 }`, `a {}`).
    pub fn is_single_line(&self) -> bool {
        let Some(open) = self.open_brace() else {
            return false;
        };
        let mut next = open.next_sibling_or_token();
        while let Some(e) = next {
            match e.kind() {
                WHITESPACE | COMMENT => next = e.next_sibling_or_token(),
                NEWLINE => return false,
                _ => return true,
            }
        }
        true
    }

    /// The comment lines directly above the block.
    pub fn leading_comments(&self) -> Vec<SyntaxToken> {
        leading_comments(&self.0, IDENT)
    }

    /// The comment after the closing `}`.
    pub fn trailing_comment(&self) -> Option<SyntaxToken> {
        trailing_comment(&self.0)
    }
}

impl BlockLabel {
    /// True for a quoted label.
    pub fn is_quoted(&self) -> bool {
        token(&self.0, OPEN_QUOTE).is_some()
    }

    /// The label's value: the identifier, or the string with escapes
    /// decoded.
    pub fn value(&self) -> String {
        use rowan::Language;
        // Read from the green tree: no syntax token made per child.
        let mut out = String::new();
        for t in self.0.green().children().filter_map(|e| e.into_token()) {
            match crate::syntax_kind::HclLanguage::kind_from_raw(t.kind()) {
                IDENT => return t.text().to_string(),
                TEMPLATE_LITERAL if out.is_empty() => {
                    out = super::template::decode_quoted(t.text());
                }
                TEMPLATE_LITERAL => out.push_str(&super::template::decode_quoted(t.text())),
                _ => {}
            }
        }
        out
    }
}
