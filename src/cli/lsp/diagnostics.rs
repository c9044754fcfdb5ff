//! Diagnostics published for an open document: its syntax errors (native
//! or JSON), and for a Terraform file the `var.` and `local.` names that
//! no file of its folder declares.

use std::collections::{BTreeSet, HashMap};

use hclwright::{TextRange, TextSize};
use lsp_types::{Diagnostic, DiagnosticSeverity};

use super::text::Lines;
use super::workspace::{self, Doc, Docs};

/// Every diagnostic of the open document `doc` at `uri`, and the tree
/// parsed for them (for a `.tf` file), which the caller frees after
/// publishing them, so that freeing it does not delay them.
pub fn of_document(
    uri: &str,
    doc: &Doc,
    docs: &Docs,
    lines: &Lines,
) -> (Vec<Diagnostic>, Option<hclwright::Parse>) {
    let text = doc.text.as_str();
    if workspace::is_json(uri) {
        return (errors(&hclwright::json::syntax_errors(text), lines), None);
    }
    if !uri.ends_with(".tf") {
        // Without a tree: the cheapest check there is.
        return (errors(&hclwright::syntax_errors(text), lines), None);
    }
    // One parse for both the errors and the references.
    let parse = hclwright::parse(text);
    let found = if parse.errors().is_empty() {
        let mut uses = doc.uses.borrow_mut();
        undeclared(uri, &parse, &mut uses, docs, lines)
    } else {
        errors(parse.errors(), lines)
    };
    (found, Some(parse))
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

/// A `var.x` or `local.x` in a top-level item: its range from the item's
/// start, whether it is a local, and the name.
struct Use {
    range: TextRange,
    local: bool,
    name: String,
}

/// The `var.`/`local.` references of each top-level item of a document as
/// last computed, with how much of the text has stayed the same since: on
/// a keystroke, only the items it touched are walked again.
#[derive(Default)]
pub struct Uses {
    /// By the item's range in the text they were found in.
    items: HashMap<TextRange, Vec<Use>>,
    /// The length of that text.
    len: usize,
    /// Bytes at the start of the text unchanged since.
    prefix: usize,
    /// Bytes at the end of the text unchanged since.
    suffix: usize,
}

impl Uses {
    /// Records a change of the text (of length `len` before it) that
    /// replaced `start..end`; `None` for a replacement of the whole text.
    pub fn changed(&mut self, change: Option<(usize, usize, usize)>) {
        match change {
            Some((start, end, len)) => {
                self.prefix = self.prefix.min(start);
                self.suffix = self.suffix.min(len - end);
            }
            None => {
                self.prefix = 0;
                self.suffix = 0;
            }
        }
    }

    /// The uses of the top-level items of `parse`: those of an item that
    /// lies in the unchanged start or end of the text are taken from the
    /// last time, the others found again.
    fn update(&mut self, parse: &hclwright::Parse) -> Vec<(TextRange, &Use)> {
        let root = parse.syntax();
        let len = usize::from(root.text_range().end());
        let mut items = HashMap::new();
        let mut order = Vec::new();
        for item in parse.body().iter().flat_map(|b| b.items()) {
            let r = item.syntax().text_range();
            let (start, end) = (usize::from(r.start()), usize::from(r.end()));
            let before = if end <= self.prefix {
                Some(r)
            } else if start >= len.saturating_sub(self.suffix) && start + self.len >= len {
                // Where the same text was: shifted by the change in length.
                let shift = |o: TextSize| TextSize::from((usize::from(o) + self.len - len) as u32);
                Some(TextRange::new(shift(r.start()), shift(r.end())))
            } else {
                None
            };
            let uses = before
                .and_then(|b| self.items.remove(&b))
                .unwrap_or_else(|| uses_in(item.syntax()));
            items.insert(r, uses);
            order.push(r);
        }
        *self = Uses {
            items,
            len,
            prefix: len,
            suffix: len,
        };
        order
            .into_iter()
            .flat_map(|r| self.items[&r].iter().map(move |u| (r, u)))
            .collect()
    }
}

/// The `var.x` and `local.x` references in a top-level item.
fn uses_in(item: &hclwright::SyntaxNode) -> Vec<Use> {
    let start = item.text_range().start();
    hclwright::refs::references(item)
        .into_iter()
        .filter_map(|r| {
            let local = match r.traversal.leading_names().as_slice() {
                ["var", _, ..] => false,
                ["local", _, ..] => true,
                _ => return None,
            };
            Some(Use {
                range: r.traversal.range() - start,
                local,
                name: r.traversal.leading_names()[1].to_string(),
            })
        })
        .collect()
}

/// The variables and locals a `.tf.json` file declares, read through the
/// body model as terraform reads it.
fn json_declared(text: &str) -> (Vec<String>, Vec<String>) {
    use hclwright::model::{Body, Schema};
    let parse = hclwright::json::parse(text);
    let schema = Schema::new()
        .block("variable", &["name"])
        .block("locals", &[]);
    let (content, _, _) = Body::from_json(&parse).partial_content(&schema);
    let (mut variables, mut locals) = (Vec::new(), Vec::new());
    for block in content.blocks {
        match block.type_name.as_str() {
            "variable" => variables.extend(block.labels),
            _ => locals.extend(block.body.just_attributes().0.into_keys()),
        }
    }
    (variables, locals)
}

/// Warnings for `var.x` and `local.x` that no `.tf` file of the folder
/// declares (the document as given, the other open files as the editor
/// holds them, the rest as saved).
fn undeclared(
    uri: &str,
    parse: &hclwright::Parse,
    uses: &mut Uses,
    docs: &Docs,
    lines: &Lines,
) -> Vec<Diagnostic> {
    let Some(path) = workspace::file_path(uri) else {
        return Vec::new();
    };
    let Some(folder) = path.parent() else {
        return Vec::new();
    };
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
    let mut json_declarations = (Vec::new(), Vec::new());
    for (other_path, other) in
        workspace::folder_files(folder, &[".tf", ".tf.json"], Some(&path), docs)
    {
        if other_path.to_string_lossy().ends_with(".json") {
            let (vars, names) = json_declared(&other);
            json_declarations.0.extend(vars);
            json_declarations.1.extend(names);
        } else {
            declare(hclwright::parse(&other).body());
        }
    }
    variables.extend(json_declarations.0);
    locals.extend(json_declarations.1);
    let mut out = Vec::new();
    for (item, found) in uses.update(parse) {
        let name = found.name.as_str();
        let message = if found.local {
            if locals.contains(name) {
                continue;
            }
            format!(
                "Reference to undeclared local value: no local value \"{name}\" is declared in this module."
            )
        } else {
            if variables.contains(name) {
                continue;
            }
            format!(
                "Reference to undeclared input variable: no variable \"{name}\" is declared in this module."
            )
        };
        out.push(Diagnostic {
            range: lines.range(found.range + item.start()),
            severity: Some(DiagnosticSeverity::WARNING),
            source: Some("hclwright".into()),
            message,
            ..Diagnostic::default()
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(uses: &mut Uses, text: &str) -> Vec<String> {
        let parse = hclwright::parse(text);
        uses.update(&parse)
            .into_iter()
            .map(|(item, u)| {
                let r = u.range + item.start();
                format!("{}@{}", u.name, u32::from(r.start()))
            })
            .collect()
    }

    #[test]
    fn unchanged_items_keep_their_uses_and_changed_ones_are_walked_again() {
        let mut uses = Uses::default();
        let text = "a = var.x\nb = local.y\nc = var.z\n";
        assert_eq!(shown(&mut uses, text), ["x@4", "y@14", "z@26"]);
        // Marks on what is kept: the names of the first and last items.
        for u in uses.items.values_mut().flatten() {
            if u.name != "y" {
                u.name.push('\'');
            }
        }
        // `local.y` replaced: the first and last items are kept (the last
        // shifted), the middle one is found again.
        let changed = "a = var.x\nb = [local.w, var.v]\nc = var.z\n";
        uses.changed(Some((14, 21, text.len())));
        assert_eq!(shown(&mut uses, changed), ["x'@4", "w@15", "v@24", "z'@35"]);
        // A replacement of the whole text forgets everything.
        uses.changed(None);
        assert_eq!(shown(&mut uses, changed), ["x@4", "w@15", "v@24", "z@35"]);
    }
}
