//! Terraform-aware renames across the files of a module: the declaration
//! (a block label, or a `locals` attribute) and every reference, with an
//! optional `moved` block for resources and modules.
//!
//! ```
//! use hclwright::refs::SourceFile;
//! use hclwright::refs::terraform::{ObjectAddress, Options, rename};
//! let files = [
//!     SourceFile::new("main.tf", "resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n}\n"),
//!     SourceFile::new("outputs.tf", "output \"ip\" {\n  value = aws_instance.web.private_ip\n}\n"),
//! ];
//! let address: ObjectAddress = "aws_instance.web".parse().unwrap();
//! let result = rename(&files, &address, "app", Options { moved: true }).unwrap();
//! assert_eq!((result.declarations, result.references, result.moved_blocks), (1, 1, 1));
//! // The new text of each file that changes, its diff, and `write()`.
//! assert_eq!(
//!     result.changes[0].after,
//!     "resource \"aws_instance\" \"app\" {\n  ami = \"x\"\n}\n\nmoved {\n  from = aws_instance.web\n  to   = aws_instance.app\n}\n"
//! );
//! assert!(result.changes[1].after.contains("value = aws_instance.app.private_ip"));
//! assert!(result.unified_diff().contains("+++ b/outputs.tf\n"));
//! ```
//!
//! On a module folder, [`SourceFile::load_dir`] reads the files and
//! [`TerraformRename::write`] writes the result back (each file
//! atomically, refused if it changed since it was read).
//!
//! Inside `moved` and `removed` blocks the `from` address names something
//! that is no longer in the configuration: it is never renamed. The `to`
//! of an existing `moved` block is renamed, except when a new `moved` block
//! is added: then the old block stays as it is and the new one chains from
//! it (Terraform rejects two `moved` blocks with the same `to`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use text_size::TextRange;

use super::pattern::{Pattern, PatternStep, is_identifier};
use super::rename::Rename;
use super::terraform_json;
use super::{FileChange, FileEdits, InvalidFiles, SourceFile, parse_all};
use crate::ast::{AstNode, Block, BlockLabel, Body, BodyItem};
use crate::diff::TextEdit;
use crate::syntax_kind::SyntaxKind::*;

/// What to rename, in Terraform's address forms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjectAddress {
    /// `variable.NAME` (or `var.NAME`): an input variable.
    Variable(String),
    /// `local.NAME`: a local value.
    Local(String),
    /// `module.NAME`: a module call.
    Module(String),
    /// `output.NAME`: an output value.
    Output(String),
    /// `TYPE.NAME` (or `resource.TYPE.NAME`): a managed resource.
    Resource {
        /// The resource type, `aws_instance`.
        type_name: String,
        /// The resource name, `web`.
        name: String,
    },
    /// `data.TYPE.NAME`: a data source.
    Data {
        /// The data source type.
        type_name: String,
        /// The data source name.
        name: String,
    },
}

impl ObjectAddress {
    /// The name that a rename changes.
    pub fn name(&self) -> &str {
        match self {
            ObjectAddress::Variable(n)
            | ObjectAddress::Local(n)
            | ObjectAddress::Module(n)
            | ObjectAddress::Output(n) => n,
            ObjectAddress::Resource { name, .. } | ObjectAddress::Data { name, .. } => name,
        }
    }

    /// The same address with another name.
    pub fn with_name(&self, new_name: &str) -> ObjectAddress {
        let n = new_name.to_string();
        match self {
            ObjectAddress::Variable(_) => ObjectAddress::Variable(n),
            ObjectAddress::Local(_) => ObjectAddress::Local(n),
            ObjectAddress::Module(_) => ObjectAddress::Module(n),
            ObjectAddress::Output(_) => ObjectAddress::Output(n),
            ObjectAddress::Resource { type_name, .. } => ObjectAddress::Resource {
                type_name: type_name.clone(),
                name: n,
            },
            ObjectAddress::Data { type_name, .. } => ObjectAddress::Data {
                type_name: type_name.clone(),
                name: n,
            },
        }
    }

    /// The pattern of references to the object (`var.NAME`, `local.NAME`,
    /// `module.NAME`, `TYPE.NAME`, `data.TYPE.NAME`); `None` for an output,
    /// which the module itself cannot refer to.
    pub fn reference(&self) -> Option<Pattern> {
        let attr = |s: &str| PatternStep::Attr(s.to_string());
        let (root, steps) = match self {
            ObjectAddress::Variable(n) => ("var", vec![attr(n)]),
            ObjectAddress::Local(n) => ("local", vec![attr(n)]),
            ObjectAddress::Module(n) => ("module", vec![attr(n)]),
            ObjectAddress::Output(_) => return None,
            ObjectAddress::Resource { type_name, name } => (type_name.as_str(), vec![attr(name)]),
            ObjectAddress::Data { type_name, name } => ("data", vec![attr(type_name), attr(name)]),
        };
        Pattern::new(root, steps).ok()
    }

    /// True for the objects a `moved` block can move: resources and
    /// modules.
    pub fn can_move(&self) -> bool {
        matches!(
            self,
            ObjectAddress::Resource { .. } | ObjectAddress::Module(_)
        )
    }
}

impl fmt::Display for ObjectAddress {
    /// Terraform's form: `variable.x`, `local.x`, `module.x`, `output.x`,
    /// `TYPE.NAME`, `data.TYPE.NAME`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObjectAddress::Variable(n) => write!(f, "variable.{n}"),
            ObjectAddress::Local(n) => write!(f, "local.{n}"),
            ObjectAddress::Module(n) => write!(f, "module.{n}"),
            ObjectAddress::Output(n) => write!(f, "output.{n}"),
            ObjectAddress::Resource { type_name, name } => write!(f, "{type_name}.{name}"),
            ObjectAddress::Data { type_name, name } => write!(f, "data.{type_name}.{name}"),
        }
    }
}

/// Why an address could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectAddressError(pub String);

impl fmt::Display for ObjectAddressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ObjectAddressError {}

impl FromStr for ObjectAddress {
    type Err = ObjectAddressError;

    fn from_str(text: &str) -> Result<ObjectAddress, ObjectAddressError> {
        let parts: Vec<&str> = text.split('.').collect();
        if let Some(bad) = parts.iter().find(|p| !is_identifier(p)) {
            return Err(ObjectAddressError(format!(
                "`{text}`: `{bad}` is not a name; expected variable.NAME, local.NAME, module.NAME, \
                 output.NAME, data.TYPE.NAME or TYPE.NAME"
            )));
        }
        let owned = |s: &str| s.to_string();
        Ok(match parts.as_slice() {
            ["variable" | "var", n] => ObjectAddress::Variable(owned(n)),
            ["local", n] => ObjectAddress::Local(owned(n)),
            ["module", n] => ObjectAddress::Module(owned(n)),
            ["output", n] => ObjectAddress::Output(owned(n)),
            ["data", t, n] => ObjectAddress::Data {
                type_name: owned(t),
                name: owned(n),
            },
            ["resource", t, n] => ObjectAddress::Resource {
                type_name: owned(t),
                name: owned(n),
            },
            [t, n] if !matches!(*t, "data" | "resource") => ObjectAddress::Resource {
                type_name: owned(t),
                name: owned(n),
            },
            ["module", ..] => {
                return Err(ObjectAddressError(format!(
                    "`{text}`: only module calls of this module (module.NAME) can be renamed"
                )));
            }
            _ => {
                return Err(ObjectAddressError(format!(
                    "`{text}`: expected variable.NAME, local.NAME, module.NAME, output.NAME, \
                     data.TYPE.NAME or TYPE.NAME"
                )));
            }
        })
    }
}

/// Options of a Terraform-aware rename.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Add a `moved { from = … to = … }` block after the renamed resource
    /// or module, so Terraform moves the existing state instead of
    /// destroying and recreating.
    pub moved: bool,
}

/// The result of a Terraform-aware rename.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TerraformRename {
    /// The edits of each file that changes, in input order.
    pub files: Vec<FileEdits>,
    /// Declarations renamed: block labels, `locals` attributes, and
    /// assignments in `.tfvars` files.
    pub declarations: usize,
    /// References renamed.
    pub references: usize,
    /// `moved` blocks added (0 or 1).
    pub moved_blocks: usize,
    /// What [`TerraformRename::files`]' edits make of each file that
    /// changes, in the same order: its text before and after, to diff
    /// ([`FileChange::unified_diff`]) or write ([`FileChange::write`],
    /// [`write_changes`](super::write_changes)).
    pub changes: Vec<FileChange>,
}

impl TerraformRename {
    /// The diffs of every changed file, one after the other (empty when
    /// nothing changes), as `hclwright rename --diff` prints them.
    pub fn unified_diff(&self) -> String {
        self.changes.iter().map(FileChange::unified_diff).collect()
    }

    /// Writes every changed file (see [`FileChange::write`]).
    pub fn write(&self) -> std::io::Result<()> {
        super::write_changes(&self.changes)
    }
}

/// Why a Terraform-aware rename was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TerraformRenameError {
    /// The new name is not an identifier.
    InvalidName(String),
    /// The new name is the current one.
    SameName,
    /// `moved` blocks exist only for resources and modules.
    MovedNotSupported(ObjectAddress),
    /// Something is already declared under the new name.
    AlreadyDeclared {
        /// The address that is taken.
        address: ObjectAddress,
        /// The file that declares it.
        path: PathBuf,
    },
    /// The address is declared more than once (outside override files):
    /// which one is meant cannot be told, so nothing is renamed.
    Duplicate {
        /// The address declared several times.
        address: ObjectAddress,
        /// Each declaration: file, line and column (1-based).
        places: Vec<(PathBuf, u32, u32)>,
    },
    /// Some files have syntax errors.
    InvalidFiles(InvalidFiles),
    /// A `moved` block was asked for an object declared in a JSON file
    /// (only native files get one).
    MovedInJson(PathBuf),
}

impl fmt::Display for TerraformRenameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TerraformRenameError::InvalidName(n) => write!(f, "`{n}` is not a valid name"),
            TerraformRenameError::SameName => f.write_str("the new name is the current name"),
            TerraformRenameError::MovedNotSupported(a) => write!(
                f,
                "`moved` blocks exist only for resources and modules, not for `{a}`"
            ),
            TerraformRenameError::AlreadyDeclared { address, path } => {
                write!(f, "`{address}` is already declared in {}", path.display())
            }
            TerraformRenameError::Duplicate { address, places } => {
                write!(
                    f,
                    "`{address}` is declared {} times; rename one of them by hand first:",
                    places.len()
                )?;
                for (path, line, column) in places {
                    write!(f, "\n  {}:{line}:{column}", path.display())?;
                }
                Ok(())
            }
            TerraformRenameError::InvalidFiles(e) => write!(f, "{e}"),
            TerraformRenameError::MovedInJson(path) => write!(
                f,
                "the object is declared in {}: a `moved` block is written only in native files; rename without --moved and add one by hand",
                path.display()
            ),
        }
    }
}

impl std::error::Error for TerraformRenameError {}

/// Renames `address` to `new_name` across `files` (the files of one
/// module): its declarations and every reference, plus a `moved` block
/// when asked. Refuses the whole set if any file has syntax errors.
pub fn rename(
    files: &[SourceFile],
    address: &ObjectAddress,
    new_name: &str,
    options: Options,
) -> Result<TerraformRename, TerraformRenameError> {
    if !is_identifier(new_name) {
        return Err(TerraformRenameError::InvalidName(new_name.to_string()));
    }
    if new_name == address.name() {
        return Err(TerraformRenameError::SameName);
    }
    if options.moved && !address.can_move() {
        return Err(TerraformRenameError::MovedNotSupported(address.clone()));
    }
    // Native files are parsed as such; a JSON file (`.tf.json`) gets an
    // empty native body and its JSON tree beside it.
    let native: Vec<SourceFile> = files
        .iter()
        .map(|f| {
            if terraform_json::is_json(&f.path) {
                SourceFile::new(f.path.clone(), "")
            } else {
                f.clone()
            }
        })
        .collect();
    let parses = parse_all(&native).map_err(TerraformRenameError::InvalidFiles)?;
    let jsons: Vec<Option<crate::json::JsonParse>> = files
        .iter()
        .map(|f| terraform_json::is_json(&f.path).then(|| crate::json::parse(&f.text)))
        .collect();
    let invalid: Vec<_> = files
        .iter()
        .zip(&jsons)
        .filter_map(|(f, j)| {
            j.as_ref()
                .filter(|j| !j.errors().is_empty())
                .map(|j| (f.path.clone(), j.errors().to_vec()))
        })
        .collect();
    if !invalid.is_empty() {
        return Err(TerraformRenameError::InvalidFiles(InvalidFiles {
            files: invalid,
        }));
    }
    let json_declarations = |i: usize, address: &ObjectAddress| -> Vec<TextRange> {
        jsons[i]
            .as_ref()
            .map(|j| terraform_json::declarations(j, &files[i].path, address))
            .unwrap_or_default()
    };
    let new_address = address.with_name(new_name);
    let bodies: Vec<Option<Body>> = parses.iter().map(|p| p.body()).collect();
    for (i, (file, body)) in files.iter().zip(&bodies).enumerate() {
        let native_clash = body
            .as_ref()
            .is_some_and(|body| !declarations(body, &file.path, &new_address).is_empty());
        if native_clash || !json_declarations(i, &new_address).is_empty() {
            return Err(TerraformRenameError::AlreadyDeclared {
                address: new_address,
                path: file.path.clone(),
            });
        }
    }
    let mut places = Vec::new();
    for (i, file) in files.iter().enumerate() {
        if jsons[i].is_some() && !is_tfvars(&file.path) && !is_override(&file.path) {
            let lines = crate::LineIndex::new(&file.text);
            for range in json_declarations(i, address) {
                let (line, column) = lines.line_col(range.start());
                places.push((file.path.clone(), line, column));
            }
        }
    }
    for (file, body) in files.iter().zip(&bodies) {
        if let Some(body) = body
            && !is_tfvars(&file.path)
            && !is_override(&file.path)
        {
            let lines = crate::LineIndex::new(&file.text);
            for declaration in declarations(body, &file.path, address) {
                // A block is shown where its type starts.
                let at = declaration
                    .block
                    .as_ref()
                    .and_then(|b| b.type_token())
                    .map_or(declaration.range.start(), |t| t.text_range().start());
                let (line, column) = lines.line_col(at);
                places.push((file.path.clone(), line, column));
            }
        }
    }
    if places.len() > 1 {
        return Err(TerraformRenameError::Duplicate {
            address: address.clone(),
            places,
        });
    }
    let references = match (address.reference(), new_address.reference()) {
        (Some(from), Some(to)) => Some(Rename::new(from, to).expect("same shape, no wildcards")),
        _ => None,
    };

    let mut result = TerraformRename::default();
    for (i, file) in files.iter().enumerate() {
        let Some(json) = &jsons[i] else { continue };
        let declared = json_declarations(i, address);
        if options.moved && !declared.is_empty() {
            return Err(TerraformRenameError::MovedInJson(file.path.clone()));
        }
        let mut edits: Vec<TextEdit> = declared
            .iter()
            .map(|r| TextEdit::replace(*r, crate::eval::json_string(new_name)))
            .collect();
        result.declarations += declared.len();
        let mut matches = declared.len();
        if let Some(rename) = &references {
            let renamed = crate::json::rename(json, rename);
            result.references += renamed.matches;
            matches += renamed.matches;
            edits.extend(renamed.edits);
        }
        if !edits.is_empty() {
            edits.sort_by_key(|e| (e.range.start(), e.range.end()));
            result.files.push(FileEdits {
                path: file.path.clone(),
                edits,
                matches,
            });
        }
    }
    for (i, ((file, parse), body)) in files.iter().zip(&parses).zip(&bodies).enumerate() {
        if jsons[i].is_some() {
            continue;
        }
        let Some(body) = body else { continue };
        let mut edits = Vec::new();
        let mut matches = 0;
        let declared = declarations(body, &file.path, address);
        for declaration in &declared {
            edits.push(TextEdit::replace(declaration.range, new_name));
        }
        result.declarations += declared.len();
        matches += declared.len();
        if let Some(rename) = &references {
            let renamed = rename.apply_excluding(&parse.syntax(), &excluded_ranges(body, options));
            result.references += renamed.matches;
            matches += renamed.matches;
            edits.extend(renamed.edits);
        }
        if options.moved
            && result.moved_blocks == 0
            && let Some(block) = declared.iter().find_map(|d| d.block.as_ref())
        {
            edits.push(moved_block(block, address, &new_address));
            result.moved_blocks = 1;
        }
        if !edits.is_empty() {
            edits.sort_by_key(|e| (e.range.start(), e.range.end()));
            result.files.push(FileEdits {
                path: file.path.clone(),
                edits: crate::document::realigned(&file.text, edits),
                matches,
            });
        }
    }
    result.changes = result
        .files
        .iter()
        .filter_map(|edits| {
            let file = files.iter().find(|f| f.path == edits.path)?;
            Some(FileChange {
                path: file.path.clone(),
                before: file.text.clone(),
                after: crate::diff::apply_edits(&file.text, &edits.edits).ok()?,
            })
        })
        .collect();
    Ok(result)
}

/// Where a JSON syntax file (`.tf.json`, `.tfvars.json`) declares
/// `address`: the ranges of the property names, quotes included.
///
/// ```
/// use hclwright::refs::terraform::{ObjectAddress, json_declarations};
/// let text = r#"{"variable": {"region": {"default": "eu"}}}"#;
/// let parse = hclwright::json::parse(text);
/// let found = json_declarations(&parse, "main.tf.json".as_ref(), &ObjectAddress::Variable("region".into()));
/// assert_eq!(&text[found[0]], "\"region\"");
/// ```
pub fn json_declarations(
    parse: &crate::json::JsonParse,
    path: &Path,
    address: &ObjectAddress,
) -> Vec<TextRange> {
    terraform_json::declarations(parse, path, address)
}

/// A declaration: the range of the name to replace and, for blocks, the
/// block (where a `moved` block goes).
struct Declaration {
    range: TextRange,
    block: Option<Block>,
}

/// True for Terraform's override files (`override.tf`, `*_override.tf`
/// and their `.tf.json` forms), which declare the same objects again on
/// purpose.
fn is_override(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".tf.json")
        .or_else(|| name.strip_suffix(".tf"))
        .unwrap_or("");
    stem == "override" || stem.ends_with("_override")
}

fn is_tfvars(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".tfvars")
}

/// The attributes called `name` directly in `body`, as declarations.
fn attribute_declarations(body: &Body, name: &str) -> Vec<Declaration> {
    body.attributes()
        .filter(|attr| attr.name().as_deref() == Some(name))
        .filter_map(|attr| attr.name_token())
        .map(|token| Declaration {
            range: token.text_range(),
            block: None,
        })
        .collect()
}

/// The declarations of `address` at the top level of `body`.
fn declarations(body: &Body, path: &Path, address: &ObjectAddress) -> Vec<Declaration> {
    let name = address.name();
    let mut out = Vec::new();
    if is_tfvars(path) {
        if let ObjectAddress::Variable(_) = address {
            out.extend(attribute_declarations(body, name));
        }
        return out;
    }
    if let ObjectAddress::Local(_) = address {
        for locals in body.blocks_of_type("locals") {
            if let Some(inner) = locals.body() {
                out.extend(attribute_declarations(&inner, name));
            }
        }
        return out;
    }
    let (block_type, leading) = match address {
        ObjectAddress::Variable(_) => ("variable", None),
        ObjectAddress::Module(_) => ("module", None),
        ObjectAddress::Output(_) => ("output", None),
        ObjectAddress::Resource { type_name, .. } => ("resource", Some(type_name.as_str())),
        ObjectAddress::Data { type_name, .. } => ("data", Some(type_name.as_str())),
        ObjectAddress::Local(_) => unreachable!("handled above"),
    };
    for block in body.blocks_of_type(block_type) {
        let labels: Vec<BlockLabel> = block.labels().collect();
        let values: Vec<String> = labels.iter().map(BlockLabel::value).collect();
        let matched = match leading {
            None => values.len() == 1 && values[0] == name,
            Some(t) => values.len() == 2 && values[0] == t && values[1] == name,
        };
        if matched && let Some(range) = labels.last().and_then(label_name_range) {
            out.push(Declaration {
                range,
                block: Some(block),
            });
        }
    }
    out
}

/// The range of a label's name: the identifier, or the inside of the
/// quotes.
fn label_name_range(label: &BlockLabel) -> Option<TextRange> {
    let tokens: Vec<_> = label
        .syntax()
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .collect();
    if let Some(ident) = tokens.iter().find(|t| t.kind() == IDENT) {
        return Some(ident.text_range());
    }
    let open = tokens.iter().find(|t| t.kind() == OPEN_QUOTE)?;
    let close = tokens.iter().find(|t| t.kind() == CLOSE_QUOTE)?;
    Some(TextRange::new(
        open.text_range().end(),
        close.text_range().start(),
    ))
}

/// The expressions a rename must not touch: `from` of `moved` and
/// `removed` blocks, and `to` of `moved` blocks when a new `moved` block
/// chains from them.
fn excluded_ranges(body: &Body, options: Options) -> Vec<TextRange> {
    let mut out = Vec::new();
    for item in body.items() {
        let BodyItem::Block(block) = item else {
            continue;
        };
        let attrs: &[&str] = match block.type_name().as_deref() {
            Some("moved") if options.moved => &["from", "to"],
            Some("moved" | "removed") => &["from"],
            _ => continue,
        };
        let Some(inner) = block.body() else { continue };
        for name in attrs {
            if let Some(expr) = inner.attribute(name).and_then(|a| a.expr()) {
                out.push(expr.syntax().text_range());
            }
        }
    }
    out
}

/// The insertion of a `moved` block after `block`, separated by a blank
/// line, indented like `block`'s body, with the newline style of the file.
fn moved_block(block: &Block, from: &ObjectAddress, to: &ObjectAddress) -> TextEdit {
    let node = block.syntax();
    let text = node.to_string();
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let indent = body_indent(block).unwrap_or_else(|| "  ".to_string());
    let ends_with_newline = node.last_token().is_some_and(|t| t.kind() == NEWLINE);
    let lead = if ends_with_newline {
        nl.to_string()
    } else {
        format!("{nl}{nl}")
    };
    let tail = if ends_with_newline { nl } else { "" };
    let moved = format!(
        "{lead}moved {{{nl}{indent}from = {}{nl}{indent}to   = {}{nl}}}{tail}",
        moved_address(from),
        moved_address(to)
    );
    TextEdit::insert(node.text_range().end(), moved)
}

/// The address as written in a `moved` block.
fn moved_address(address: &ObjectAddress) -> String {
    match address {
        ObjectAddress::Resource { type_name, name } => format!("{type_name}.{name}"),
        other => other.to_string(),
    }
}

/// The indentation of the first attribute or block inside `block`.
fn body_indent(block: &Block) -> Option<String> {
    let item = block.body()?.items().next()?;
    let first = item.syntax().first_token()?;
    (first.kind() == WHITESPACE).then(|| first.text().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_terraform_addresses() {
        let cases = [
            ("variable.region", ObjectAddress::Variable("region".into())),
            ("var.region", ObjectAddress::Variable("region".into())),
            ("local.cfg", ObjectAddress::Local("cfg".into())),
            ("module.vpc", ObjectAddress::Module("vpc".into())),
            ("output.ip", ObjectAddress::Output("ip".into())),
            (
                "data.aws_ami.ubuntu",
                ObjectAddress::Data {
                    type_name: "aws_ami".into(),
                    name: "ubuntu".into(),
                },
            ),
            (
                "aws_instance.web",
                ObjectAddress::Resource {
                    type_name: "aws_instance".into(),
                    name: "web".into(),
                },
            ),
            (
                "resource.aws_instance.web",
                ObjectAddress::Resource {
                    type_name: "aws_instance".into(),
                    name: "web".into(),
                },
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<ObjectAddress>().unwrap(), expected, "{text}");
        }
        for bad in ["", "web", "module.a.b", "data.x", "a.b.c", "var.1x", "a..b"] {
            assert!(bad.parse::<ObjectAddress>().is_err(), "{bad}");
        }
    }

    #[test]
    fn address_display_round_trips() {
        for text in [
            "variable.a",
            "local.b",
            "module.c",
            "output.d",
            "data.t.e",
            "t.f",
        ] {
            assert_eq!(text.parse::<ObjectAddress>().unwrap().to_string(), text);
        }
    }
}
