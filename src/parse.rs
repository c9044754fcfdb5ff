//! The result of parsing: a lossless tree and the errors.

use rowan::GreenNode;

use crate::ast::{self, AstNode};
use crate::parser::{Entry, parse_text};
use crate::syntax_error::SyntaxError;
use crate::syntax_kind::SyntaxNode;

/// A parsed text: the syntax tree (always complete and lossless) and the
/// syntax errors (empty for valid input).
///
/// ```
/// let parse = hclwright::parse("a = 1 # one\n");
/// assert!(parse.errors().is_empty());
/// assert_eq!(parse.syntax().to_string(), "a = 1 # one\n");
/// ```
#[derive(Clone, Debug)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<SyntaxError>,
}

impl Parse {
    pub(crate) fn new(text: &str, entry: Entry) -> Parse {
        let (green, errors) = parse_text(text, entry, true);
        let green = green.expect("a tree is built");
        Parse { green, errors }
    }

    /// The root of the tree. Its text is exactly the parsed input.
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    /// The green (immutable, shareable) root.
    pub fn green(&self) -> &GreenNode {
        &self.green
    }

    /// Every syntax error, sorted by position.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// True when there are no errors.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// The top-level body of a parsed file (`None` for expression or
    /// template parses).
    pub fn body(&self) -> Option<ast::Body> {
        ast::ConfigFile::cast(self.syntax())?.body()
    }

    /// A readable dump of the tree: one line per node or token with its
    /// kind, range and (for tokens) text, indented by depth.
    pub fn debug_tree(&self) -> String {
        crate::debug_tree(&self.syntax())
    }
}
