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
mod edit_blocks;
mod eval;
mod lexer;
mod parser;
mod refs;
mod string;

pub use ast::{JsonArray, JsonMember, JsonObject, JsonValue};
pub use edit::JsonDocument;
pub use edit_blocks::JsonItem;
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
    let (green, errors) = parser::parse::<true>(text);
    JsonParse {
        green: green.expect("a tree is built"),
        errors,
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

    /// What makes the top-level value unfit as a configuration body, in
    /// Terraform's words: a body is a JSON object, or an array of objects.
    /// `text` is the parsed text (for lines and columns).
    ///
    /// ```
    /// let errors = hclwright::json::parse("[1, {}]").body_root_errors("[1, {}]");
    /// assert_eq!(errors[0].message, "Incorrect JSON value type: A JSON object is required here, to define arguments and child blocks.");
    /// assert_eq!((errors[0].line, errors[0].column), (1, 2));
    /// assert!(hclwright::json::parse("{}").body_root_errors("{}").is_empty());
    /// ```
    pub fn body_root_errors(&self, text: &str) -> Vec<SyntaxError> {
        let error = |range: text_size::TextRange, message: &str| {
            let mut e = SyntaxError::new(range, message.to_string());
            (e.line, e.column) = crate::syntax_error::line_col(text, range.start());
            e
        };
        match self.root() {
            None | Some(JsonValue::Object(_)) => Vec::new(),
            Some(JsonValue::Array(a)) => a
                .elements()
                .filter(|e| !matches!(e, JsonValue::Object(_)))
                .map(|e| {
                    error(
                        e.range(),
                        "Incorrect JSON value type: A JSON object is required here, to define arguments and child blocks.",
                    )
                })
                .collect(),
            Some(other) => vec![error(
                other.range(),
                "Root value must be object: The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.",
            )],
        }
    }
}
