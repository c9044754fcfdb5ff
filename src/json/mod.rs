//! The JSON syntax of HCL (`*.tf.json`, `*.hcl.json`): a lossless tree in
//! the same rowan machinery as the native syntax (kinds `JSON_*`), with
//! every syntax error positioned, and typed views over it; evaluation of
//! JSON expressions ([`evaluate`]: strings as templates), the references
//! in template strings ([`references`], [`rename`]), and editing by
//! address with local edits ([`JsonDocument`]). The body model over it is
//! [`crate::model`].
//!
//! ```
//! let text = "{\n  \"variable\": {\"region\": {\"default\": \"eu-west-1\"}}\n}\n";
//! let parse = hclwright::json::parse(text);
//! assert!(parse.errors().is_empty());
//! assert_eq!(parse.syntax().to_string(), text);
//! let root = parse.root().unwrap();
//! let variable = root.as_object().unwrap().get("variable").unwrap();
//! assert_eq!(variable.kind_name(), "an object");
//! ```
//!
//! Broken input still gives a complete tree and every problem:
//!
//! ```
//! let parse = hclwright::json::parse("{\"a\": 1,}");
//! let e = &parse.errors()[0];
//! assert_eq!((e.line, e.column), (1, 9));
//! assert!(e.message.contains("no trailing comma"));
//! ```

mod ast;
mod edit;
mod eval;
mod lexer;
mod parser;
mod refs;
mod string;

pub use ast::{JsonArray, JsonMember, JsonObject, JsonValue};
pub use edit::JsonDocument;
pub use eval::{StringMode, evaluate, evaluate_in};
pub use refs::{references, references_with_locals, rename, string_traversal, value_references};
pub(crate) use string::escape_into;

use rowan::GreenNode;

use crate::syntax_error::SyntaxError;
use crate::syntax_kind::SyntaxNode;

/// A parsed JSON text: its lossless tree and its syntax errors.
#[derive(Clone, Debug)]
pub struct JsonParse {
    green: GreenNode,
    errors: Vec<SyntaxError>,
    deepest: u32,
}

impl Drop for JsonParse {
    fn drop(&mut self) {
        if self.deepest > crate::parse::SHALLOW {
            crate::parse::drop_deep(
                std::mem::replace(&mut self.green, crate::parse::empty_green()),
                self.deepest,
            );
        }
    }
}

/// `s` as a JSON string literal, escaping only what JSON requires (`"`,
/// `\` and control characters).
///
/// ```
/// assert_eq!(hclwright::json::quote("a \"b\"\n<c>"), r#""a \"b\"\n<c>""#);
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    string::escape_into(s, &mut out, false);
    out.push('"');
    out
}

/// Parses JSON text into a lossless tree; never fails.
pub fn parse(text: &str) -> JsonParse {
    let (green, errors, deepest) = parser::parse::<true>(text);
    JsonParse {
        green: green.expect("a tree is built"),
        errors,
        deepest,
    }
}

/// The syntax errors of a JSON text without building its tree.
///
/// ```
/// assert!(hclwright::json::syntax_errors("{\"a\": [1, 2]}").is_empty());
/// assert_eq!(hclwright::json::syntax_errors("{\"a\": [1 2]}").len(), 1);
/// ```
pub fn syntax_errors(text: &str) -> Vec<SyntaxError> {
    parser::parse::<false>(text).1
}

impl JsonParse {
    /// The root node (`JSON_FILE`); its text is exactly the input.
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    /// The syntax errors, in the order of the text.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// The tree, one element per line, indented by depth (for tests and
    /// debugging).
    pub fn debug_tree(&self) -> String {
        crate::debug_tree(&self.syntax())
    }

    /// The top-level value, if there is one.
    pub fn root(&self) -> Option<JsonValue> {
        self.syntax()
            .children_with_tokens()
            .find_map(JsonValue::cast)
    }
}
