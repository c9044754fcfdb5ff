//! # hclwright
//!
//! Lossless parsing, editing and formatting of HCL (Terraform, Packer,
//! Nomad, Terragrunt, Vault configuration) that never disturbs a byte you
//! did not ask to change.
//!
//! ```
//! let text = "variable \"region\" {\n  default = \"eu-west-1\" # keep me\n}\n";
//! let parse = hclwright::parse(text);
//! assert!(parse.errors().is_empty());
//! // The tree holds every byte: printing it gives the input back.
//! assert_eq!(parse.syntax().to_string(), text);
//! ```
//!
//! Parsing never fails: broken input still gives a complete tree, with the
//! problems listed by [`Parse::errors`].
//!
//! ```
//! let parse = hclwright::parse("a = \nb = [1, 2\n");
//! assert_eq!(parse.syntax().to_string(), "a = \nb = [1, 2\n");
//! for e in parse.errors() {
//!     println!("{}:{}: {}", e.line, e.column, e.message);
//! }
//! assert_eq!(parse.errors().len(), 2);
//! ```
#![warn(missing_docs)]

pub mod ast;
pub mod bump;
pub mod convert;
#[cfg(test)]
mod corpus;
pub mod diff;
pub mod document;
pub mod encoding;
pub mod eval;
pub mod format;
pub mod json;
pub mod lexer;
mod line_index;
pub mod model;
mod parse;
mod parser;
pub mod refs;
mod scratch;
mod syntax_error;
mod syntax_kind;
pub mod write;

pub use document::{Address, Document, EditError, Handle, Item, Placement, Value};
pub use format::{FormatError, FormatOptions, format, format_with};
pub use line_index::LineIndex;
pub use parse::Parse;
pub use parser::MAX_DEPTH;
pub use refs::{Reference, Rename, Traversal, references};
pub use syntax_error::{SyntaxError, line_col};
pub use syntax_kind::{
    HclLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxNodeChildren, SyntaxToken,
};
pub use text_size::{TextRange, TextSize};

use parser::Entry;

/// The Rust examples of README.md, run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// Parses a configuration file (a body of attributes and blocks).
pub fn parse(text: &str) -> Parse {
    Parse::new(text, Entry::File)
}

/// The syntax errors of a configuration file, without building its tree:
/// the same errors as [`parse`]`(text).errors()`, several times faster when
/// only validity matters (checkers, formatters refusing broken input).
///
/// ```
/// assert!(hclwright::syntax_errors("a = 1\n").is_empty());
/// let errors = hclwright::syntax_errors("a = [1 2]\n");
/// assert_eq!(errors[0].message, "expected `,` or `]` after the element, found number `2`");
/// ```
pub fn syntax_errors(text: &str) -> Vec<SyntaxError> {
    parser::parse_text(text, Entry::File, false).1
}

/// Parses a standalone expression, such as `var.a + 1`. Newlines are
/// insignificant, as inside parentheses.
///
/// ```
/// let parse = hclwright::parse_expr("var.a[count.index].name");
/// assert!(parse.errors().is_empty());
/// ```
pub fn parse_expr(text: &str) -> Parse {
    Parse::new(text, Entry::Expr)
}

/// Parses a standalone template (text with `${ }` interpolations and
/// `%{ }` directives, without surrounding quotes).
///
/// ```
/// let parse = hclwright::parse_template("Hello, ${name}!%{ if admin } (admin)%{ endif }");
/// assert!(parse.errors().is_empty());
/// ```
pub fn parse_template(text: &str) -> Parse {
    Parse::new(text, Entry::Template)
}

/// A readable dump of a tree: one line per node or token, indented by
/// depth, with kinds, byte ranges and token texts.
pub fn debug_tree(node: &SyntaxNode) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut depth = 0usize;
    for event in node.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(element) => {
                let range = element.text_range();
                let _ = write!(
                    out,
                    "{:indent$}{:?}@{}..{}",
                    "",
                    element.kind(),
                    u32::from(range.start()),
                    u32::from(range.end()),
                    indent = depth * 2
                );
                if let rowan::NodeOrToken::Token(t) = &element {
                    let _ = write!(out, " {:?}", t.text());
                }
                out.push('\n');
                depth += 1;
            }
            rowan::WalkEvent::Leave(_) => depth -= 1,
        }
    }
    out
}
