//! The layer under hclwright's language bindings (Python, Node): plain
//! functions over the `hclwright` library, owned strings in and out,
//! errors as data ([`Error`] with [`Diagnostic`]s), values as a neutral
//! tree ([`Value`]) and a [`Document`] edited by address.
//!
//! Each function makes the library call the matching `hclwright` command
//! makes, and nothing more; each runs under [`guard`], so a panic comes
//! back as an [`ErrorKind::Internal`] error instead of unwinding into the
//! host language.
#![warn(missing_docs)]

mod document;
mod error;
mod value;

use std::path::Path;

pub use hclwright::bump::Target;
use hclwright::bump::{NewVersion, bump_document_to, bump_json_to};
use hclwright::eval::{ModuleInputs, VarOption, console_eval};
use hclwright::format::Profile;
use hclwright::refs::Rename;
use hclwright::{FormatOptions, LineIndex};

pub use document::{Document, Entry};
pub use error::{Diagnostic, Error, ErrorKind, Result, guard, text_of};
pub use value::Value;

/// Formats `text` with `profile` (`"hclfmt"`, `"terraform"`), as
/// `hclwright fmt --profile PROFILE` does; broken input is an error.
///
/// ```
/// assert_eq!(hclwright_bindings::format("a=1\n", "hclfmt").unwrap(), "a = 1\n");
/// ```
pub fn format(text: &str, profile: &str) -> Result<String> {
    guard(|| {
        let profile = match profile {
            "hclfmt" => Profile::Hclfmt,
            "terraform" => Profile::Terraform,
            other => {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("unknown profile `{other}`: expected `hclfmt` or `terraform`"),
                ));
            }
        };
        let options = FormatOptions::with_profile(profile).refusing_syntax_errors();
        hclwright::format_with(text, &options).map_err(|e| Error::syntax(e.errors()))
    })
}

/// The inputs of an evaluation: `TF_VAR_` variables of the process, then
/// `vars` as `-var NAME=VALUE` options (strings as they are, other values
/// as HCL source).
fn inputs(vars: &[(String, Value)]) -> Result<ModuleInputs> {
    let mut inputs = ModuleInputs::from_env();
    for (name, value) in vars {
        let text = value.to_var_text().ok_or_else(|| {
            Error::new(
                ErrorKind::Usage,
                format!("the value of variable `{name}` cannot be unknown or sensitive"),
            )
        })?;
        inputs.options.push(VarOption::Var(name.clone(), text));
    }
    Ok(inputs)
}

fn console_value(
    expr: &str,
    dir: Option<&str>,
    vars: &[(String, Value)],
) -> Result<hclwright::eval::ConsoleValue> {
    let inputs = inputs(vars)?;
    console_eval(Path::new(dir.unwrap_or(".")), &inputs, expr).map_err(|d| Error::eval(&d))
}

/// Evaluates `expr` in the module folder `dir` (default `.`), as
/// `hclwright eval --dir DIR` does, with `vars` as input variables.
///
/// ```
/// use hclwright_bindings::{Value, evaluate};
/// let dir = std::env::temp_dir().join("hclwright-bindings-doc-eval");
/// std::fs::create_dir_all(&dir).unwrap();
/// let v = evaluate("1 + 2", dir.to_str(), &[]).unwrap();
/// assert_eq!(v, Value::Number("3".into()));
/// ```
pub fn evaluate(expr: &str, dir: Option<&str>, vars: &[(String, Value)]) -> Result<Value> {
    guard(|| {
        let v = console_value(expr, dir, vars)?;
        if v.type_only {
            Ok(Value::String(v.console_text()))
        } else {
            Ok(Value::from_eval(&v.value))
        }
    })
}

/// What `terraform console` prints for `expr` (as `hclwright eval`).
pub fn console(expr: &str, dir: Option<&str>, vars: &[(String, Value)]) -> Result<String> {
    guard(|| console_value(expr, dir, vars).map(|v| v.console_text()))
}

fn convert_error(e: impl std::fmt::Display, syntax: Option<&[hclwright::SyntaxError]>) -> Error {
    match syntax {
        Some(errors) => Error::syntax(errors),
        None => Error::new(ErrorKind::Edit, e.to_string()),
    }
}

fn to_json_error(e: hclwright::convert::ToJsonError) -> Error {
    match &e {
        hclwright::convert::ToJsonError::Syntax(errors) => convert_error(&e, Some(errors)),
        _ => convert_error(&e, None),
    }
}

/// The value `hcl2json` gives for `text` (`hclwright convert --to json`)
/// as compact JSON text, for a program that parses it again (the Node package's `toJson` hands it to
/// `JSON.parse`).
pub fn to_json_compact_text(text: &str) -> Result<String> {
    guard(|| hclwright::convert::to_json_compact(text).map_err(to_json_error))
}

/// The value `hcl2json` gives for `text`, as a neutral tree (read from the
/// converted value, without going through its text).
pub fn to_json(text: &str) -> Result<Value> {
    guard(|| {
        let value = hclwright::convert::to_json_value(text).map_err(to_json_error)?;
        Ok(Value::from_json(&value))
    })
}

/// The native syntax of a JSON syntax text (`hclwright convert --to hcl`).
pub fn to_hcl(json_text: &str) -> Result<String> {
    guard(|| {
        hclwright::convert::to_hcl(json_text).map_err(|e| match &e {
            hclwright::convert::ToHclError::Syntax(errors) => convert_error(&e, Some(errors)),
            _ => convert_error(&e, None),
        })
    })
}

/// The native syntax of a value (an object of attributes and blocks, as
/// `to_json` gives it).
pub fn value_to_hcl(value: &Value) -> Result<String> {
    let json = value.to_json_text().ok_or_else(|| {
        Error::new(
            ErrorKind::Usage,
            "the value has unknown, sensitive or non-numeric parts",
        )
    })?;
    to_hcl(&json)
}

/// A reference: where its root is (1-based) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ref {
    /// Line of its first character.
    pub line: u32,
    /// Column of its first character.
    pub column: u32,
    /// The traversal, as `hclwright refs` prints it (`var.a[0].b`).
    pub traversal: String,
}

/// The references of a file, as `hclwright refs` lists them.
pub fn refs(text: &str) -> Result<Vec<Ref>> {
    guard(|| {
        let parse = hclwright::parse(text);
        if !parse.errors().is_empty() {
            return Err(Error::syntax(parse.errors()));
        }
        let lines = LineIndex::new(text);
        Ok(hclwright::references(&parse.syntax())
            .iter()
            .map(|r| {
                let (line, column) = lines.line_col(r.traversal.root_range.start());
                Ref {
                    line,
                    column,
                    traversal: r.traversal.to_string(),
                }
            })
            .collect())
    })
}

/// `text` with the references starting with `from` renamed to `to`, as
/// `hclwright rename FROM TO` does.
pub fn rename(text: &str, from: &str, to: &str) -> Result<String> {
    guard(|| {
        let rename =
            Rename::parse(from, to).map_err(|e| Error::new(ErrorKind::Usage, e.to_string()))?;
        let renamed = rename.apply_checked(text).map_err(|e| Error::syntax(&e))?;
        hclwright::diff::apply_edits(text, &renamed.edits)
            .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))
    })
}

/// `text` with the version strings `target` names bumped to `version` (a
/// version such as `5.31.0`, or a constraint such as `~> 5.0` written as
/// given), as `hclwright bump` does; `json` reads `text` as the JSON
/// syntax (`.tf.json`). The text is returned unchanged when nothing is
/// due.
pub fn bump(
    text: &str,
    target: Target,
    version: &str,
    keep_operator: bool,
    json: bool,
) -> Result<String> {
    guard(|| {
        let new = NewVersion::parse(version, keep_operator)
            .map_err(|e| Error::new(ErrorKind::Usage, e.to_string()))?;
        if json {
            let (new_text, _) =
                bump_json_to(text, &target, &new).map_err(|errors| Error::syntax(&errors))?;
            return Ok(new_text);
        }
        let mut doc = hclwright::Document::parse(text).map_err(|e| Error::syntax(e.errors()))?;
        let changes = bump_document_to(&mut doc, &target, &new)?;
        Ok(if changes.is_empty() {
            text.to_string()
        } else {
            doc.text()
        })
    })
}

#[cfg(test)]
mod tests;
