//! Diagnostics published for an open document: its syntax errors (native
//! or JSON), and for a Terraform file the `var.` and `local.` names that
//! no file of its folder declares.

use std::collections::BTreeSet;

use lsp_types::{Diagnostic, DiagnosticSeverity};

use super::text::Lines;
use super::workspace::{self, Docs};

/// Every diagnostic of the document at `uri` with `text`.
pub fn of_document(uri: &str, text: &str, docs: &Docs, lines: &Lines) -> Vec<Diagnostic> {
    if workspace::is_json(uri) {
        return errors(&hclwright::json::syntax_errors(text), lines);
    }
    let found = hclwright::syntax_errors(text);
    if !found.is_empty() {
        return errors(&found, lines);
    }
    if uri.ends_with(".tf") {
        return undeclared(uri, text, docs, lines);
    }
    Vec::new()
}

fn errors(found: &[hclwright::SyntaxError], lines: &Lines) -> Vec<Diagnostic> {
    found
        .iter()
        .map(|e| Diagnostic {
            range: lines.range(e.range),
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("hclwright".into()),
            message: e.message.clone(),
            ..Diagnostic::default()
        })
        .collect()
}

/// Warnings for `var.x` and `local.x` that no `.tf` file of the folder
/// declares (the document as given, the other open files as the editor
/// holds them, the rest as saved).
fn undeclared(uri: &str, text: &str, docs: &Docs, lines: &Lines) -> Vec<Diagnostic> {
    let Some(path) = workspace::file_path(uri) else {
        return Vec::new();
    };
    let Some(folder) = path.parent() else {
        return Vec::new();
    };
    let parse = hclwright::parse(text);
    let mut variables = BTreeSet::new();
    let mut locals = BTreeSet::new();
    let mut declare = |body: Option<hclwright::ast::Body>| {
        for b in body.iter().flat_map(|b| b.blocks()) {
            match b.type_name().as_deref() {
                Some("variable") => variables.extend(b.labels().map(|l| l.value())),
                Some("locals") => {
                    if let Some(inner) = b.body() {
                        locals.extend(inner.attributes().filter_map(|a| a.name()));
                    }
                }
                _ => {}
            }
        }
    };
    declare(parse.body());
    for (other_path, other) in workspace::folder_files(folder, &["tf"], docs) {
        if other_path != path {
            declare(hclwright::parse(&other).body());
        }
    }
    let mut out = Vec::new();
    for r in hclwright::refs::references(&parse.syntax()) {
        let names = r.traversal.leading_names();
        let message = match names.as_slice() {
            ["var", name, ..] if !variables.contains(*name) => format!(
                "Reference to undeclared input variable: no variable \"{name}\" is declared in this module."
            ),
            ["local", name, ..] if !locals.contains(*name) => format!(
                "Reference to undeclared local value: no local value \"{name}\" is declared in this module."
            ),
            _ => continue,
        };
        out.push(Diagnostic {
            range: lines.range(r.traversal.range()),
            severity: Some(DiagnosticSeverity::WARNING),
            source: Some("hclwright".into()),
            message,
            ..Diagnostic::default()
        });
    }
    out
}
