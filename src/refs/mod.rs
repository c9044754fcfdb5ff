//! References and prefix renames.
//!
//! A *reference* is a traversal that starts at a variable: its root name
//! and every step after it — attributes, literal indexes (`[0]`, `["k"]`,
//! the legacy `.0`), computed indexes (`[expr]`) and splats (`.*`, `[*]`) —
//! each with its byte range. Unlike upstream HCL's `Variables()`, the
//! traversal continues through computed indexes and splats:
//! `foo.x[count.index].name` gives `foo.x[…].name` and, separately,
//! `count.index`.
//!
//! ```
//! use hclwright::refs::references;
//! let text = r#"
//! resource "aws_instance" "web" {
//!   count = 2
//!   name  = foo.x[count.index].name
//!   tags  = { for k, v in var.tags : k => upper(v) }
//! }
//! "#;
//! let parse = hclwright::parse(text);
//! let found: Vec<String> = references(&parse.syntax())
//!     .iter()
//!     .map(|r| r.traversal.to_string())
//!     .collect();
//! // `k` and `v` are bound by the `for`: not references to outer variables.
//! assert_eq!(found, ["foo.x[…].name", "count.index", "var.tags"]);
//! ```
//!
//! Variables bound by a `for` expression or a template `for` directive are
//! local: their uses are not references (ask
//! [`references_with_locals`] to see them, marked [`Binding::Local`]).
//! Bare object keys (`{ foo = 1 }`) are names, not references; a
//! parenthesised key (`{ (var.k) = 1 }`) is a reference.
//!
//! A [`Rename`] rewrites every reference that starts with one [`Pattern`]
//! so that it starts with another, changing only the tokens of the matched
//! steps; [`terraform`] builds Terraform-aware renames on top of it.

pub mod callers;
mod changes;
mod collect;
mod load;
pub(crate) use load::module_file_paths;
mod pattern;
mod rename;
pub mod terraform;
mod terraform_json;
mod traversal;

use std::path::PathBuf;

use text_size::TextRange;

pub use changes::{FileChange, write_changes};
pub use pattern::{Pattern, PatternError, PatternStep, is_identifier};
pub use rename::{Rename, RenameError, Renamed, rename_prefix};
pub use traversal::{IndexKey, Step, StepKind, Traversal, escape_string};

use crate::Parse;
use crate::diff::TextEdit;
use crate::syntax_error::SyntaxError;
use crate::syntax_kind::SyntaxNode;

/// Where the root of a reference is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    /// Not bound in the expression: a reference to a variable of the
    /// evaluation context (`var`, `local`, `aws_instance`, `count`, …).
    Free,
    /// Bound by an enclosing `for` expression or template `for` directive.
    Local {
        /// The range of the declaring name after `for`.
        declaration: TextRange,
    },
}

impl Binding {
    /// True for a use of a `for`-bound variable.
    pub fn is_local(&self) -> bool {
        matches!(self, Binding::Local { .. })
    }
}

/// A traversal found in the tree, and how its root is bound.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reference {
    /// The traversal, with the ranges of its steps.
    pub traversal: Traversal,
    /// Where its root is bound.
    pub binding: Binding,
}

/// The references to outer variables under `node` (an expression, a body,
/// a block, a whole file), in source order. Uses of `for`-bound variables
/// are left out, including when `node` is inside the `for`, and so are
/// the keywords of a type constraint (`string` in `type = list(string)`
/// of a `variable` block; the default of `optional(…)` is searched).
///
/// ```
/// let parse = hclwright::parse("variable \"x\" {\n  type    = list(string)\n  default = var.y\n}\n");
/// let refs = hclwright::refs::references(&parse.syntax());
/// let shown: Vec<String> = refs.iter().map(|r| r.traversal.to_string()).collect();
/// assert_eq!(shown, ["var.y"]);
/// ```
pub fn references(node: &SyntaxNode) -> Vec<Reference> {
    collect::collect(node, false)
}

/// Every traversal under `node`, in source order, uses of `for`-bound
/// variables included (marked [`Binding::Local`]).
///
/// ```
/// use hclwright::refs::references_with_locals;
/// let parse = hclwright::parse_expr("[for x in xs : [for x in x.items : x.id]]");
/// let refs = references_with_locals(&parse.syntax());
/// let shown: Vec<_> = refs.iter().map(|r| (r.traversal.to_string(), r.binding.is_local())).collect();
/// assert_eq!(shown, [("xs".into(), false), ("x.items".into(), true), ("x.id".into(), true)]);
/// // The inner `x.id` is bound by the inner `for` (shadowing).
/// let inner = refs[2].binding;
/// assert!(matches!(inner, hclwright::refs::Binding::Local { declaration } if u32::from(declaration.start()) == 20));
/// ```
pub fn references_with_locals(node: &SyntaxNode) -> Vec<Reference> {
    collect::collect(node, true)
}

/// A file to analyse: its path (used for names and messages) and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Where the text comes from.
    pub path: PathBuf,
    /// The text.
    pub text: String,
}

impl SourceFile {
    /// A file from its path and text.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            path: path.into(),
            text: text.into(),
        }
    }
}

/// The references of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReferences {
    /// The file.
    pub path: PathBuf,
    /// Its references, in source order.
    pub references: Vec<Reference>,
}

/// The edits for one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEdits {
    /// The file.
    pub path: PathBuf,
    /// Sorted, non-overlapping edits of its text.
    pub edits: Vec<TextEdit>,
    /// How many references matched in it.
    pub matches: usize,
}

/// Files refused because they have syntax errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidFiles {
    /// Each refused file with its errors.
    pub files: Vec<(PathBuf, Vec<SyntaxError>)>,
}

impl std::fmt::Display for InvalidFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self
            .files
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect();
        write!(f, "syntax errors in {}", names.join(", "))
    }
}

impl std::error::Error for InvalidFiles {}

/// The references of every file, in input order. Refuses the set if any
/// file has syntax errors.
///
/// ```
/// use hclwright::refs::{SourceFile, references_in_files};
/// let files = [
///     SourceFile::new("main.tf", "a = var.x\n"),
///     SourceFile::new("vars.tf", "variable \"x\" {}\n"),
/// ];
/// let found = references_in_files(&files).unwrap();
/// assert_eq!(found[0].references.len(), 1);
/// assert!(found[1].references.is_empty());
/// assert!(references_in_files(&[SourceFile::new("bad.tf", "a = \n")]).is_err());
/// ```
pub fn references_in_files(files: &[SourceFile]) -> Result<Vec<FileReferences>, InvalidFiles> {
    let parses = parse_all(files)?;
    Ok(files
        .iter()
        .zip(parses)
        .map(|(file, parse)| FileReferences {
            path: file.path.clone(),
            references: references(&parse.syntax()),
        })
        .collect())
}

/// Parses every file as a configuration file; the errors of all invalid
/// files if there are any.
pub(crate) fn parse_all(files: &[SourceFile]) -> Result<Vec<Parse>, InvalidFiles> {
    let parses: Vec<Parse> = files.iter().map(|f| crate::parse(&f.text)).collect();
    let invalid: Vec<(PathBuf, Vec<SyntaxError>)> = files
        .iter()
        .zip(&parses)
        .filter(|(_, p)| !p.errors().is_empty())
        .map(|(f, p)| (f.path.clone(), p.errors().to_vec()))
        .collect();
    if invalid.is_empty() {
        Ok(parses)
    } else {
        Err(InvalidFiles { files: invalid })
    }
}
