//! The other side of a module boundary: after renaming an input variable
//! or an output of a module folder, the `module` blocks that call that
//! folder (by a relative `source` path) must follow — the argument
//! `NAME = …` of a variable, the references `module.CALL.NAME` of an
//! output.
//!
//! ```
//! use std::path::Path;
//! use hclwright::diff::apply_edits;
//! use hclwright::refs::SourceFile;
//! use hclwright::refs::callers::{Caller, rename_in_callers};
//! use hclwright::refs::terraform::ObjectAddress;
//!
//! let root = SourceFile::new(
//!     "main.tf",
//!     "module \"app\" {\n  source = \"./modules/app\"\n  size   = 2\n}\n\nx = module.app.size\n",
//! );
//! // Which `source` is the renamed folder: here, decided by its text.
//! let is_module = |caller: &Path, source: &str| {
//!     assert_eq!(caller, Path::new("main.tf"));
//!     Caller::from(source == "./modules/app")
//! };
//! let address: ObjectAddress = "var.size".parse().unwrap();
//! let result = rename_in_callers(&[root.clone()], &address, "instance_size", is_module).unwrap();
//! assert_eq!(result.calls, [(root.path.clone(), "app".to_string())]);
//! let text = apply_edits(&root.text, &result.files[0].edits).unwrap();
//! // The argument, realigned; `module.app.size` is an output, not the variable.
//! assert!(text.contains("  source        = \"./modules/app\"\n  instance_size = 2\n"));
//! assert!(text.contains("x = module.app.size\n"));
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::rename::Rename;
use super::terraform::ObjectAddress;
use super::{FileEdits, InvalidFiles, SourceFile, parse_all};
use crate::ast::{AstNode, Expr};
use crate::diff::TextEdit;

/// Whether a `module` block's `source` is the renamed module folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// The source is the renamed folder.
    Yes,
    /// The source is another module.
    No,
    /// The source is a local path that does not exist (a warning).
    Unresolved,
}

impl From<bool> for Caller {
    fn from(yes: bool) -> Caller {
        if yes { Caller::Yes } else { Caller::No }
    }
}

/// What changed in the callers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallerRename {
    /// The edits of each caller file that changes.
    pub files: Vec<FileEdits>,
    /// The `module` blocks that call the renamed folder: the file and the
    /// block's name.
    pub calls: Vec<(PathBuf, String)>,
    /// `module` blocks whose local `source` could not be resolved: file,
    /// line and the source text.
    pub unresolved: Vec<(PathBuf, u32, String)>,
}

/// Renames, in the `callers` files (the configurations that may call the
/// module whose `address` was renamed to `new_name`), the argument of an
/// input variable or the references `module.CALL.OUTPUT` of an output.
/// `is_module(file, source)` tells whether a `module` block's literal
/// `source` in `file` is the renamed module. Other addresses are internal
/// to a module: nothing changes. A caller folder is all the files of
/// `callers` in the folder of the `module` block.
pub fn rename_in_callers(
    callers: &[SourceFile],
    address: &ObjectAddress,
    new_name: &str,
    is_module: impl Fn(&Path, &str) -> Caller,
) -> Result<CallerRename, InvalidFiles> {
    let parses = parse_all(callers)?;
    let mut result = CallerRename::default();
    if !matches!(
        address,
        ObjectAddress::Variable(_) | ObjectAddress::Output(_)
    ) {
        return Ok(result);
    }
    let old_name = address.name();
    let mut edits: BTreeMap<usize, Vec<TextEdit>> = BTreeMap::new();
    let mut matches: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, (file, parse)) in callers.iter().zip(&parses).enumerate() {
        let Some(body) = parse.body() else { continue };
        let lines = crate::LineIndex::new(&file.text);
        for block in body.blocks_of_type("module") {
            let Some(call) = block.labels().next().map(|l| l.value()) else {
                continue;
            };
            let Some(source) = block
                .body()
                .and_then(|b| b.attribute("source"))
                .and_then(|a| a.expr())
                .and_then(|v| literal_string(&v))
            else {
                continue;
            };
            match is_module(&file.path, &source) {
                Caller::No => continue,
                Caller::Unresolved => {
                    let (line, _) = lines.line_col(block.syntax().text_range().start());
                    result.unresolved.push((file.path.clone(), line, source));
                    continue;
                }
                Caller::Yes => {}
            }
            result.calls.push((file.path.clone(), call.clone()));
            match address {
                ObjectAddress::Variable(_) => {
                    let argument = block
                        .body()
                        .and_then(|b| b.attribute(old_name))
                        .and_then(|a| a.name_token());
                    if let Some(token) = argument {
                        edits
                            .entry(i)
                            .or_default()
                            .push(TextEdit::replace(token.text_range(), new_name));
                        *matches.entry(i).or_default() += 1;
                    }
                }
                _ => {
                    let from = format!("module.{call}.{old_name}");
                    let to = format!("module.{call}.{new_name}");
                    let Ok(rename) = Rename::parse(&from, &to) else {
                        continue;
                    };
                    let folder = file.path.parent();
                    for (j, (other, other_parse)) in callers.iter().zip(&parses).enumerate() {
                        if other.path.parent() != folder {
                            continue;
                        }
                        let renamed = rename.apply(&other_parse.syntax());
                        if renamed.matches > 0 {
                            edits.entry(j).or_default().extend(renamed.edits);
                            *matches.entry(j).or_default() += renamed.matches;
                        }
                    }
                }
            }
        }
    }
    for (i, mut file_edits) in edits {
        file_edits.sort_by_key(|e| (e.range.start(), e.range.end()));
        file_edits.dedup();
        let file = &callers[i];
        result.files.push(FileEdits {
            path: file.path.clone(),
            edits: crate::document::realigned(&file.text, file_edits),
            matches: matches.get(&i).copied().unwrap_or(0),
        });
    }
    Ok(result)
}

/// The text of a string literal without interpolations.
fn literal_string(expr: &Expr) -> Option<String> {
    match expr {
        Expr::QuotedTemplate(template) => template.literal_value(),
        _ => None,
    }
}

/// Resolves a `module` block's `source` against the filesystem: a local
/// path (`./…` or `../…`, relative to the calling file's folder) is the
/// module folder `module_dir` when both name the same folder; a local
/// path that does not exist is [`Caller::Unresolved`]; registry, git and
/// other remote sources are [`Caller::No`].
pub fn local_source_is(module_dir: &Path, caller_file: &Path, source: &str) -> Caller {
    if !(source.starts_with("./") || source.starts_with("../") || source == "." || source == "..") {
        return Caller::No;
    }
    let base = caller_file.parent().unwrap_or(Path::new("."));
    let base = if base.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base
    };
    match (
        std::fs::canonicalize(base.join(source)),
        std::fs::canonicalize(module_dir),
    ) {
        (Ok(a), Ok(b)) => Caller::from(a == b),
        (Err(_), _) => Caller::Unresolved,
        (_, Err(_)) => Caller::No,
    }
}
