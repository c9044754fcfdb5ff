//! # hclwright
//!
//! Lossless parsing, editing, formatting and evaluation of HCL (Terraform,
//! Packer, Nomad, Terragrunt, Vault configuration) that never disturbs a
//! byte you did not ask to change.
//!
//! Each job below is one short example; the module it links to tells the
//! rest.
//!
//! ## Edit a file
//!
//! A [`Document`] finds things by address and changes them in place:
//! comments, alignment and every other byte stay as they were
//! ([`document`]).
//!
//! ```
//! use hclwright::Document;
//! let mut doc = Document::parse("provider \"aws\" {\n  region = \"eu-west-1\" # Ireland\n}\n")?;
//! doc.set("provider.aws.region", "eu-central-1")?;
//! doc.set("provider.aws.profile", "prod")?;
//! assert!(!doc.set_if_exists("provider.google.region", "x")?);
//! doc.append_block(hclwright::document::Address::root(), "output", &["region"], "value = var.region")?;
//! doc.set_comments_above("output.region", &["# Where it runs."])?;
//! assert_eq!(
//!     doc.to_string(),
//!     "provider \"aws\" {\n  region  = \"eu-central-1\" # Ireland\n  profile = \"prod\"\n}\n\n# Where it runs.\noutput \"region\" {\n  value = var.region\n}\n"
//! );
//! print!("{}", doc.unified_diff("main.tf")); // --- a/main.tf, +++ b/main.tf, …
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Rename across a module
//!
//! A Terraform-aware rename changes a declaration and every reference to
//! it in every file of a module, native and JSON ([`refs::terraform`]);
//! the result holds each file's new text and diff, and writes itself.
//!
//! ```
//! use hclwright::refs::SourceFile;
//! use hclwright::refs::terraform::{Options, rename};
//! // On a folder: `SourceFile::load_dir("path/to/module")?`.
//! let files = [
//!     SourceFile::new("variables.tf", "variable \"region\" {}\n"),
//!     SourceFile::new("main.tf", "provider \"aws\" {\n  region = var.region\n}\n"),
//! ];
//! let result = rename(&files, &"var.region".parse()?, "aws_region", Options::default())?;
//! assert_eq!(result.changes[1].after, "provider \"aws\" {\n  region = var.aws_region\n}\n");
//! print!("{}", result.unified_diff());
//! // result.write()?;  // each file atomically, refused if it changed meanwhile
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Evaluate a module
//!
//! [`eval::Module`] loads a module folder as `terraform console` sees
//! it: variables from defaults, `.tfvars` and the environment, locals in
//! dependency order, Terraform's functions ([`eval`]).
//!
//! ```
//! use hclwright::eval::{EvalContext, Module, ModuleInputs, console_string};
//! let dir = std::env::temp_dir().join("hclwright-doc-front-module");
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("main.tf"), "variable \"env\" {\n  default = \"prod\"\n}\nlocals {\n  name = upper(\"web-${var.env}\")\n}\n")?;
//! let module = Module::load(&dir, &ModuleInputs::from_env(), EvalContext::new().with_terraform_functions());
//! for (name, value) in module.locals() {
//!     assert_eq!((name, console_string(value).as_str()), ("name", "\"WEB-PROD\""));
//!     assert!(module.local_diagnostics(name).is_empty());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Decode into a struct
//!
//! [`eval::decode_str`] reads a file into any `serde` type, evaluating
//! only the attributes the type asks for ([`eval::decode_body`]).
//!
//! ```
//! use std::collections::BTreeMap;
//! #[derive(serde::Deserialize)]
//! struct File {
//!     #[serde(default)]
//!     variable: BTreeMap<String, Variable>,
//! }
//! #[derive(serde::Deserialize)]
//! struct Variable {
//!     description: Option<String>,
//!     default: Option<serde_json::Value>,
//! }
//! let text = "variable \"azs\" {\n  description = \"Zones\"\n  type        = list(string)\n  default     = [\"a\", \"b\"]\n}\n";
//! let file: File = hclwright::eval::decode_str(text, &hclwright::eval::EvalContext::new())?;
//! assert_eq!(file.variable["azs"].description.as_deref(), Some("Zones"));
//! assert_eq!(file.variable["azs"].default, Some(serde_json::json!(["a", "b"])));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Convert to JSON
//!
//! [`convert::to_json`] writes a file in the JSON syntax as `hcl2json`
//! does, [`convert::to_hcl`] goes back ([`convert`]); an evaluated
//! [`eval::Value`] is `serde::Serialize`.
//!
//! ```
//! let json = hclwright::convert::to_json("name = \"web\"\nport = 80\n")?;
//! assert_eq!(serde_json::from_str::<serde_json::Value>(&json)?, serde_json::json!({"name": "web", "port": 80}));
//! let value = hclwright::eval::evaluate_str("{ a = [1, 2] }", &hclwright::eval::EvalContext::new())
//!     .map_err(|_| "evaluation failed")?;
//! assert_eq!(serde_json::to_string(&value)?, r#"{"a":[1,2]}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Bump versions
//!
//! [`bump::bump_document`] changes the version strings of a provider,
//! module, Terraform or Packer plugin, keeping the constraint's operator
//! ([`bump`]).
//!
//! ```
//! use hclwright::bump::{Target, Version, bump_document};
//! let mut doc = hclwright::Document::parse("terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"~> 4.0\"\n    }\n  }\n}\n")?;
//! let version = Version::parse("5.31.0").ok_or("not a version")?;
//! let changes = bump_document(&mut doc, &Target::Provider("hashicorp/aws".into()), &version, true)?;
//! assert_eq!(changes[0].new, "~> 5.31");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Run the formatter
//!
//! [`format()`] lays a file out as `hclfmt` does, [`format_with`] as
//! `terraform fmt` does ([`mod@format`]); both change only spaces.
//!
//! ```
//! assert_eq!(hclwright::format("a=1\nbbb   =  2\n"), "a   = 1\nbbb = 2\n");
//! let options = hclwright::FormatOptions::terraform();
//! assert_eq!(hclwright::format_with("x = \"${var.y}\"\n", &options)?, "x = var.y\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Parse, losslessly
//!
//! The tree holds every byte, and parsing never fails: broken input still
//! gives a complete tree, with the problems listed by [`Parse::errors`]
//! (see [`ast`] for typed views, [`refs`] for references).
//!
//! ```
//! let text = "variable \"region\" {\n  default = \"eu-west-1\" # keep me\n}\n";
//! let parse = hclwright::parse(text);
//! assert!(parse.errors().is_empty());
//! assert_eq!(parse.syntax().to_string(), text);
//!
//! let broken = hclwright::parse("a = \nb = [1, 2\n");
//! assert_eq!(broken.syntax().to_string(), "a = \nb = [1, 2\n");
//! for e in broken.errors() {
//!     println!("{}:{}: {}", e.line, e.column, e.message);
//! }
//! assert_eq!(broken.errors().len(), 2);
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

pub use document::{Address, Document, EditError, EditValue, Handle, Item, Placement};
pub use format::{FormatError, FormatOptions, format, format_with};
pub use line_index::LineIndex;
pub use parse::Parse;
pub use refs::{Reference, Rename, Traversal, references};
pub use syntax_error::{SyntaxError, line_col};
pub use text_size::{TextRange, TextSize};

/// The syntax tree's types (rowan's, for HCL): the kinds of tokens and
/// nodes, the node and token handles [`Parse::syntax`] gives, and the
/// nesting limit. Most programs read the tree through [`ast`] and edit it
/// through [`Document`]; these are for walking it directly.
pub mod syntax {
    pub use crate::parser::MAX_DEPTH;
    pub use crate::syntax_kind::{
        HclLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxNodeChildren, SyntaxToken,
    };
}

// The same names at the crate root, where code written before the
// `syntax` module finds them; the documentation lists them there.
#[doc(hidden)]
pub use syntax::{
    HclLanguage, MAX_DEPTH, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxNodeChildren, SyntaxToken,
};

use parser::Entry;

/// The Rust examples of README.md, run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of docs/guide.md, run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../docs/guide.md")]
pub struct GuideDoctests;

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
