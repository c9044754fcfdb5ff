//! The editing commands on a JSON syntax file (`*.tf.json`, any `.json`
//! file): the same addresses and output options as on a native file,
//! through [`JsonDocument`], each edit changing only the bytes of what it
//! edits.

use std::path::{Path, PathBuf};

use hclwright::json::JsonDocument;
use hclwright::{Address, Placement};

use super::exit::EXIT_ERRORS;
use hclwright::encoding::StandIns;

use super::editing::{Edited, Failure, OutputArgs, print_source_text, write_or_print};
use super::input::{Input, is_json_file_name, read_error_message, read_input};

/// True when the command's file is a JSON syntax file.
pub(super) fn is_json(file: &Option<PathBuf>) -> bool {
    file.as_deref()
        .and_then(Path::to_str)
        .is_some_and(is_json_file_name)
}

/// A JSON file, read and parsed.
pub(super) struct OpenedJson {
    input: Input,
    pub(super) doc: JsonDocument,
}

pub(super) fn open(file: &Option<PathBuf>) -> Result<OpenedJson, Failure> {
    let path = file.clone().expect("a JSON file is named");
    let input = Input::File(path);
    let decoded = read_input(&input).map_err(|e| Failure {
        code: EXIT_ERRORS,
        message: read_error_message(&input, &e),
    })?;
    let doc = JsonDocument::parse(&decoded.text).map_err(|errors| Failure {
        code: EXIT_ERRORS,
        message: errors
            .iter()
            .map(|e| e.render(&input.display_name(), &decoded.text))
            .collect::<String>()
            .trim_end()
            .to_string(),
    })?;
    Ok(OpenedJson { input, doc })
}

/// Writes or prints the edited document, as for a native file.
pub(super) fn finish(opened: &OpenedJson, output: &OutputArgs) -> Result<(), Failure> {
    let doc = &opened.doc;
    let edited = Edited {
        original: doc.original(),
        text: doc.text(),
        modified: doc.is_modified(),
        diff: &|name: &str| doc.unified_diff(name),
    };
    write_or_print(&opened.input, &edited, StandIns::default(), output)
}

fn print_text(text: &str) {
    print_source_text(StandIns::default(), text);
}

pub(super) fn get(address: &str, file: &Option<PathBuf>) -> Result<(), Failure> {
    let opened = open(file)?;
    for value in opened.doc.get_all(address)? {
        print_text(&format!("{value}\n"));
    }
    Ok(())
}

pub(super) fn set(
    address: &str,
    value: &str,
    file: &Option<PathBuf>,
    if_exists: bool,
    placement: Placement,
    output: &OutputArgs,
) -> Result<(), Failure> {
    let mut opened = open(file)?;
    if if_exists {
        opened.doc.get_all(address)?;
    }
    opened.doc.set_with(address, value, placement)?;
    finish(&opened, output)
}

pub(super) fn rm(
    address: &str,
    file: &Option<PathBuf>,
    output: &OutputArgs,
) -> Result<(), Failure> {
    let mut opened = open(file)?;
    opened.doc.remove(address)?;
    finish(&opened, output)
}

/// Renames the property at `address`: an attribute, an object key, or a
/// block's last label (`mv variable.foo variable.bar`).
pub(super) fn mv(
    address: &str,
    new_name: &str,
    file: &Option<PathBuf>,
    output: &OutputArgs,
) -> Result<(), Failure> {
    let parsed = Address::parse(address)?;
    let new_name = hclwright::document::mv_name(&parsed, new_name)?;
    let mut opened = open(file)?;
    opened.doc.rename(address, &new_name)?;
    finish(&opened, output)
}

/// Appends a block: `TYPE` and its labels as nested properties of the
/// parent's object, holding the body (native syntax source, converted as
/// `convert --to json` converts it).
pub(super) fn block_append(
    parent: &str,
    type_name: &str,
    labels: &[&str],
    body: &str,
    file: &Option<PathBuf>,
    output: &OutputArgs,
) -> Result<(), Failure> {
    let mut opened = open(file)?;
    opened.doc.append_block(parent, type_name, labels, body)?;
    finish(&opened, output)
}
