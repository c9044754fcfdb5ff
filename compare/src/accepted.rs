//! The files the parse comparisons time (those both parsers accept), and
//! the pass count of the profiling bins (`parse_profile`, `parse_split`).

use std::ffi::OsString;
use std::path::PathBuf;

/// The texts of `files` that both hclwright and `hcl-edit` parse without
/// an error, so that neither is timed on an early exit.
pub fn texts_both_accept(files: Vec<(PathBuf, String)>) -> Vec<String> {
    files
        .into_iter()
        .map(|(_, text)| text)
        .filter(|t| hcl_edit::parser::parse_body(t).is_ok() && hclwright::parse(t).is_ok())
        .collect()
}

/// A pass count given on the command line, or `default`.
pub fn passes(arg: Option<OsString>, default: usize) -> usize {
    arg.and_then(|p| p.into_string().ok()?.parse().ok())
        .unwrap_or(default)
}
