//! Navigation over the folder of a Terraform document: hover, definition,
//! references, rename and completion, each a call into `hclwright::refs`,
//! `hclwright::eval` or the syntax tree.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use hclwright::ast::{AstNode, Block, Expr};
use hclwright::eval::Budget;
use hclwright::refs::terraform::ObjectAddress;
use hclwright::{SyntaxKind, TextRange, TextSize};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, Hover, HoverContents,
    Location, MarkupContent, MarkupKind, Uri,
};

use super::text::{Encoding, Lines};
use super::workspace::{self, Docs};

/// What hover shows: on a reference (`var.x`, `local.y`, `local.m["k"]`),
/// its value evaluated in the module of the document's folder as
/// `terraform console` would print it (saved files are read: changes not
/// yet saved are not seen), or, when it cannot be evaluated, the source
/// of its declaration; when the evaluation goes beyond `budget`, that it
/// was not evaluated and why, above the declaration. On a block's type or
/// labels, the block's header.
pub fn hover(
    uri: &str,
    text: &str,
    at: usize,
    docs: &Docs,
    lines: &Lines,
    budget: &Budget,
) -> Option<Hover> {
    let Some(reference) = reference_at(text, at) else {
        return block_hover(text, at, lines);
    };
    let range_of = reference.traversal.range();
    let source = &text[usize::from(range_of.start())..usize::from(range_of.end())];
    let declaration = || {
        let (_, content, _, item) = declarations(uri, &reference.traversal, docs)?
            .into_iter()
            .next()?;
        Some(content[usize::from(item.start())..usize::from(item.end())].to_string())
    };
    let range = Some(lines.range(range_of));
    match workspace::folder_of(uri).map(|folder| evaluated(&folder, source, budget)) {
        Some(Ok(Some(value))) => Some(markdown(&value, range)),
        Some(Err(why)) => {
            let mut shown = format!("Not evaluated: {why}");
            if let Some(code) = declaration() {
                shown.push_str(&format!("\n\n```hcl\n{code}\n```"));
            }
            Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: shown,
                }),
                range,
            })
        }
        _ => Some(markdown(&declaration()?, range)),
    }
}

/// The hover of a request whose evaluation did not end in time.
pub fn not_evaluated(budget: &Budget) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: format!("Not evaluated: {}", over_time(budget)),
        }),
        range: None,
    }
}

fn over_time(budget: &Budget) -> String {
    let ms = budget.time.map_or(0, |t| t.as_millis());
    format!(
        "evaluating it took longer than the language server's limit of {ms} ms \
         (setting `hclwright.evaluation.timeoutMs`)."
    )
}

fn markdown(code: &str, range: Option<lsp_types::Range>) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: format!("```hcl\n{code}\n```"),
        }),
        range,
    }
}

/// The value of `source` in the module of `folder`, as `terraform
/// console` prints it, under `budget`: `Ok(None)` when it has errors,
/// `Err(why)` when its evaluation (or that of a local it needs) went
/// beyond the budget or was cancelled.
fn evaluated(
    folder: &std::path::Path,
    source: &str,
    budget: &Budget,
) -> Result<Option<String>, String> {
    // The console's context: Terraform's functions shared between hovers,
    // the file functions reading from this folder.
    let base = hclwright::eval::console_context(folder).with_budget(budget.clone());
    let module =
        hclwright::eval::Module::load(folder, &hclwright::eval::ModuleInputs::from_env(), base);
    let parse = hclwright::parse_expr(source);
    let Some(expr) = parse.syntax().descendants().find_map(Expr::cast) else {
        return Ok(None);
    };
    let result = hclwright::eval::evaluate(&expr, &module.context);
    // The locals it needs were evaluated while loading the module: a
    // budget they went beyond shows among their problems.
    let needed: Vec<hclwright::eval::Diagnostic> = module
        .diagnostics_for(&expr)
        .into_iter()
        .map(|d| d.diagnostic)
        .collect();
    for d in result.diagnostics.iter().chain(&needed) {
        if d.summary == "Evaluation budget exceeded" {
            return Err(
                if d.detail.contains("was cancelled") || d.detail.contains(" ms;") {
                    over_time(budget)
                } else {
                    format!(
                        "{} (settings `hclwright.evaluation.maxSteps`, `maxStringBytes`)",
                        d.detail
                    )
                },
            );
        }
    }
    if budget.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
        return Err(over_time(budget));
    }
    let failed = !parse.errors().is_empty() || !result.diagnostics.is_empty();
    Ok((!failed).then(|| hclwright::eval::console_string(&result.value)))
}

/// On a block's type or labels: `type "label" …`.
fn block_hover(text: &str, at: usize, lines: &Lines) -> Option<Hover> {
    let parse = hclwright::parse(text);
    let token = parse
        .syntax()
        .token_at_offset(TextSize::from(at.min(text.len()) as u32))
        .find(|t| !matches!(t.kind(), SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE))?;
    let block = token.parent_ancestors().find_map(Block::cast)?;
    let header_end = block.open_brace()?.text_range().start();
    let header_start = block.type_token()?.text_range().start();
    if token.text_range().start() >= header_end || token.text_range().end() <= header_start {
        return None;
    }
    let mut header = block.type_name()?;
    for l in block.labels() {
        header.push(' ');
        header.push_str(&hclwright::eval::go_quote(&l.value()));
    }
    let range = TextRange::new(header_start, header_end);
    Some(markdown(header.trim_end(), Some(lines.range(range))))
}

/// Where the object a reference under `at` names is declared: `var.x` →
/// `variable "x"`, `local.x` → the attribute in `locals`, `module.x`,
/// `data.t.n`, and a resource `t.n`, among the `.tf` files of the
/// document's folder (open documents as the editor holds them, the others
/// as saved).
pub fn definition(
    uri: &str,
    text: &str,
    at: usize,
    docs: &Docs,
    encoding: Encoding,
) -> Option<Vec<Location>> {
    let reference = reference_at(text, at)?;
    let found = declarations(uri, &reference.traversal, docs)?;
    Some(
        found
            .into_iter()
            .filter_map(|(path, content, name, _)| {
                Some(Location {
                    uri: workspace::uri_for(docs, &path).parse::<Uri>().ok()?,
                    range: Lines::new(&content, encoding).range(name),
                })
            })
            .collect(),
    )
}

/// Each declaration of what `traversal` names: its file, the file's text,
/// the range of its name (the last label, or the local's name) and the
/// range of the whole item.
fn declarations(
    uri: &str,
    traversal: &hclwright::refs::Traversal,
    docs: &Docs,
) -> Option<Vec<(PathBuf, String, TextRange, TextRange)>> {
    let folder = workspace::folder_of(uri)?;
    let (address, _) = address_of(traversal)?;
    // (block type, labels) of the declaration, or the local's name.
    let (block, labels, local): (&str, Vec<&str>, Option<&str>) = match &address {
        ObjectAddress::Variable(name) => ("variable", vec![name], None),
        ObjectAddress::Local(name) => ("locals", vec![], Some(name)),
        ObjectAddress::Module(name) => ("module", vec![name], None),
        ObjectAddress::Data { type_name, name } => ("data", vec![type_name, name], None),
        ObjectAddress::Resource { type_name, name } => ("resource", vec![type_name, name], None),
        _ => return None,
    };
    let mut out = Vec::new();
    for (path, content) in workspace::folder_files(&folder, &[".tf.json"], None, docs) {
        let parsed = hclwright::json::parse(&content);
        for name in hclwright::refs::terraform::json_declarations(&parsed, &path, &address) {
            out.push((path.clone(), content.clone(), name, name));
        }
    }
    for (path, content) in workspace::folder_files(&folder, &[".tf"], None, docs) {
        let parsed = hclwright::parse(&content);
        let Some(body) = parsed.body() else { continue };
        let mut found = Vec::new();
        for b in body.blocks_of_type(block) {
            match local {
                Some(name) => {
                    if let Some(a) = b.body().and_then(|inner| inner.attribute(name))
                        && let Some(t) = a.name_token()
                    {
                        found.push((
                            t.text_range(),
                            super::symbols::trimmed(a.syntax(), &content),
                        ));
                    }
                }
                None => {
                    let these: Vec<String> = b.labels().map(|l| l.value()).collect();
                    if these == labels {
                        let name = b
                            .labels()
                            .last()
                            .map_or(b.syntax().text_range(), |l| l.syntax().text_range());
                        found.push((name, super::symbols::trimmed(b.syntax(), &content)));
                    }
                }
            }
        }
        for (name, item) in found {
            out.push((path.clone(), content.clone(), name, item));
        }
    }
    Some(out)
}

/// The declared object a reference under `at` names (`var.x`, `local.x`,
/// `module.x`, `data.t.n`, a resource `t.n`) and the range of the name
/// that a rename changes.
pub fn renamable(text: &str, at: usize) -> Option<(ObjectAddress, TextRange)> {
    address_of(&reference_at(text, at)?.traversal)
}

/// The reference (a traversal from a variable) that covers `at`.
fn reference_at(text: &str, at: usize) -> Option<hclwright::refs::Reference> {
    let parse = hclwright::parse(text);
    hclwright::refs::references(&parse.syntax())
        .into_iter()
        .find(|r| {
            let range = r.traversal.range();
            usize::from(range.start()) <= at && at <= usize::from(range.end())
        })
}

/// The declared object a traversal names, and the range of its name
/// step (what a rename changes).
fn address_of(t: &hclwright::refs::Traversal) -> Option<(ObjectAddress, TextRange)> {
    let names = t.leading_names();
    let (address, step) = match names.as_slice() {
        ["var", name, ..] => (format!("var.{name}"), 0),
        ["local", name, ..] => (format!("local.{name}"), 0),
        ["module", name, ..] => (format!("module.{name}"), 0),
        ["data", ty, name, ..] => (format!("data.{ty}.{name}"), 1),
        [ty, name, ..] if !matches!(*ty, "path" | "terraform" | "count" | "each" | "self") => {
            (format!("{ty}.{name}"), 0)
        }
        _ => return None,
    };
    Some((address.parse().ok()?, t.steps.get(step)?.name_range))
}

/// The workspace edit renaming the object under `at` in every `.tf` and
/// `.tfvars` file of the document's folder, as `rename --terraform` does.
// The protocol's `WorkspaceEdit::changes` is keyed by `Uri`, whose cache
// clippy sees as interior mutability; the keys are never changed.
#[allow(clippy::mutable_key_type)]
pub fn rename(
    uri: &str,
    text: &str,
    at: usize,
    new_name: &str,
    docs: &Docs,
    encoding: Encoding,
) -> Result<lsp_types::WorkspaceEdit, String> {
    let (address, _) = renamable(text, at).ok_or("nothing to rename here")?;
    let folder = workspace::folder_of(uri).ok_or("not a file")?;
    let files: Vec<hclwright::refs::SourceFile> = workspace::folder_files(
        &folder,
        &[".tf", ".tfvars", ".tf.json", ".tfvars.json"],
        None,
        docs,
    )
    .into_iter()
    .map(|(path, content)| hclwright::refs::SourceFile::new(path, content))
    .collect();
    let result = hclwright::refs::terraform::rename(
        &files,
        &address,
        new_name,
        hclwright::refs::terraform::Options::default(),
    )
    .map_err(|e| e.to_string())?;
    let mut changes = HashMap::new();
    for file_edits in result.files {
        let Some(source) = files.iter().find(|f| f.path == file_edits.path) else {
            continue;
        };
        let lines = Lines::new(&source.text, encoding);
        let edits: Vec<lsp_types::TextEdit> = file_edits
            .edits
            .into_iter()
            .map(|e| lsp_types::TextEdit {
                range: lines.range(e.range),
                new_text: e.new_text,
            })
            .collect();
        if let Ok(target) = workspace::uri_for(docs, &file_edits.path).parse::<Uri>() {
            changes.insert(target, edits);
        }
    }
    Ok(lsp_types::WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    })
}

/// Every use of the object the reference under `at` names, in the `.tf`
/// files of the document's folder (through relative traversals and
/// splats, as `hclwright refs` finds them); first its declarations (the
/// name, as `definition` gives it) when `include_declaration`.
pub fn references(
    uri: &str,
    text: &str,
    at: usize,
    docs: &Docs,
    encoding: Encoding,
    include_declaration: bool,
) -> Option<Vec<Location>> {
    let (address, _) = renamable(text, at)?;
    let pattern = address.reference()?;
    let folder = workspace::folder_of(uri)?;
    let mut out = Vec::new();
    if include_declaration {
        out.extend(definition(uri, text, at, docs, encoding).unwrap_or_default());
    }
    for (path, content) in workspace::folder_files(&folder, &[".tf", ".tf.json"], None, docs) {
        let Ok(target) = workspace::uri_for(docs, &path).parse::<Uri>() else {
            continue;
        };
        let lines = Lines::new(&content, encoding);
        let found = if path.to_string_lossy().ends_with(".json") {
            hclwright::json::references(&hclwright::json::parse(&content))
        } else {
            hclwright::refs::references(&hclwright::parse(&content).syntax())
        };
        for r in found {
            if pattern.matches(&r.traversal) {
                out.push(Location {
                    uri: target.clone(),
                    range: lines.range(r.traversal.range()),
                });
            }
        }
    }
    Some(out)
}

/// The names that can follow `var.`, `local.` or `module.` typed just
/// before `at`: those declared in the `.tf` files of the document's
/// folder (and in the document itself), each replacing the part of the
/// name already typed.
pub fn completion(
    uri: &str,
    text: &str,
    at: usize,
    docs: &Docs,
    lines: &Lines,
) -> Option<Vec<CompletionItem>> {
    let (head, name_start) = completion_context(text, at)?;
    let (block_type, kind) = match head {
        "var" => ("variable", CompletionItemKind::VARIABLE),
        "local" => ("locals", CompletionItemKind::CONSTANT),
        _ => ("module", CompletionItemKind::MODULE),
    };
    let this = workspace::file_path(uri);
    let mut texts = vec![text.to_string()];
    if let Some(folder) = workspace::folder_of(uri) {
        texts.extend(
            workspace::folder_files(&folder, &[".tf"], this.as_deref(), docs)
                .into_iter()
                .map(|(_, content)| content),
        );
    }
    // Name → (detail, documentation).
    let mut found: BTreeMap<String, (Option<String>, Option<String>)> = BTreeMap::new();
    for content in &texts {
        let Some(body) = hclwright::parse(content).body() else {
            continue;
        };
        for b in body.blocks_of_type(block_type) {
            if block_type == "locals" {
                for a in b.body().iter().flat_map(|inner| inner.attributes()) {
                    let Some(name) = a.name() else { continue };
                    let value = a.expr().map(|e| e.syntax().to_string());
                    found
                        .entry(name)
                        .or_insert((value.map(|v| first_line(&v)), None));
                }
                continue;
            }
            let Some(name) = b.labels().next().map(|l| l.value()) else {
                continue;
            };
            let (detail, doc) = match block_type {
                "variable" => (
                    attribute_source(&b, "type"),
                    attribute_string(&b, "description"),
                ),
                _ => (attribute_string(&b, "source"), None),
            };
            found.entry(name).or_insert((detail, doc));
        }
    }
    let replaced = lines.range(TextRange::new(
        TextSize::from(name_start as u32),
        TextSize::from(at as u32),
    ));
    Some(
        found
            .into_iter()
            .map(|(name, (detail, doc))| CompletionItem {
                label: name.clone(),
                kind: Some(kind),
                detail,
                documentation: doc.map(Documentation::String),
                text_edit: Some(CompletionTextEdit::Edit(lsp_types::TextEdit {
                    range: replaced,
                    new_text: name,
                })),
                ..Default::default()
            })
            .collect(),
    )
}

/// `var`, `local` or `module` when the text before `at` ends with it, a
/// dot and part of a name (not after another dot: `a.var.` is no
/// variable), and where that part of the name starts.
fn completion_context(text: &str, at: usize) -> Option<(&'static str, usize)> {
    let at = at.min(text.len());
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let before = text.get(..at)?;
    let name_start = before.trim_end_matches(is_name).len();
    let rest = before[..name_start].strip_suffix('.')?;
    let head_start = rest.trim_end_matches(is_name).len();
    if rest[..head_start].ends_with('.') {
        return None;
    }
    let head = match &rest[head_start..] {
        "var" => "var",
        "local" => "local",
        "module" => "module",
        _ => return None,
    };
    Some((head, name_start))
}

/// The first line of an expression's source (with `…` when cut).
fn first_line(source: &str) -> String {
    let source = source.trim();
    match source.split_once('\n') {
        Some((first, _)) => format!("{} …", first.trim_end()),
        None => source.to_string(),
    }
}

/// The source of a block's attribute (`type = list(string)`).
fn attribute_source(b: &Block, name: &str) -> Option<String> {
    let expr = b.body()?.attribute(name)?.expr()?;
    Some(first_line(&expr.syntax().to_string()))
}

/// The value of a block's attribute that is a plain string.
fn attribute_string(b: &Block, name: &str) -> Option<String> {
    let expr = b.body()?.attribute(name)?.expr()?;
    match expr {
        hclwright::ast::Expr::QuotedTemplate(t) => t.literal_value(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_after_a_known_head_only() {
        assert_eq!(completion_context("x = var.", 8), Some(("var", 8)));
        assert_eq!(completion_context("x = local.ab", 12), Some(("local", 10)));
        assert_eq!(completion_context("x = [module.", 12), Some(("module", 12)));
        assert_eq!(completion_context("x = \"${var.re", 13), Some(("var", 11)));
        assert_eq!(completion_context("x = a.var.", 10), None);
        assert_eq!(completion_context("x = foo.", 8), None);
        assert_eq!(completion_context("x = var", 7), None);
    }
}
