//! `hclwright lsp`: a language server over standard input and output, on
//! the `lsp-server` and `lsp-types` crates. So far: full text sync,
//! syntax errors as diagnostics on open and change, and formatting as
//! minimal text edits (the terraform profile for `.tf` and `.tfvars`, the
//! hclfmt layout otherwise, and the lenient layout for a file with syntax
//! errors, so that format-on-save works in the middle of an edit).

use std::collections::HashMap;

use hclwright::diff::TextEdit;
use hclwright::format::{format_edits, format_lenient};
use hclwright::{FormatOptions, TextRange, TextSize, format_with};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::{
    Diagnostic, DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DocumentSymbol, Hover, HoverContents, HoverProviderCapability,
    InitializeParams, Location, MarkupContent, MarkupKind, OneOf, Position, PositionEncodingKind,
    PublishDiagnosticsParams, Range, ServerCapabilities, SymbolKind, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};

use super::{EXIT_ERRORS, EXIT_OK};

/// Arguments of `lsp`.
#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Accepted for editors that pass it; standard input and output are
    /// always used.
    #[arg(long)]
    stdio: bool,
}

/// How positions count characters on a line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf16,
    Utf8,
}

pub fn run(_args: LspArgs) -> i32 {
    let (connection, io_threads) = Connection::stdio();
    let code = match serve(&connection) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("hclwright lsp: {e}");
            EXIT_ERRORS
        }
    };
    drop(connection);
    let _ = io_threads.join();
    code
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

fn serve(connection: &Connection) -> Result<(), Failure> {
    let (id, params) = connection.initialize_start()?;
    let init: InitializeParams = serde_json::from_value(params)?;
    // UTF-8 when the client offers it, else the protocol's UTF-16.
    let offers_utf8 = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    let encoding = if offers_utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let capabilities = ServerCapabilities {
        position_encoding: Some(if offers_utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        rename_provider: Some(OneOf::Right(lsp_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        ..ServerCapabilities::default()
    };
    connection.initialize_finish(
        id,
        serde_json::json!({
            "capabilities": capabilities,
            "serverInfo": {"name": "hclwright", "version": env!("CARGO_PKG_VERSION")},
        }),
    )?;
    // Keyed by the URI's text (`Uri` caches parts of itself inside).
    let mut docs: HashMap<String, String> = HashMap::new();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                let response = handle_request(&request, &docs, encoding);
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(notification) => {
                if let Some((uri, text)) = handle_notification(notification, &mut docs) {
                    let mut diagnostics = diagnostics(&text, encoding);
                    if uri.as_str().ends_with(".tf") {
                        diagnostics.extend(undeclared(uri.as_str(), &text, &docs, encoding));
                    }
                    let params = PublishDiagnosticsParams {
                        uri,
                        diagnostics,
                        version: None,
                    };
                    connection
                        .sender
                        .send(Message::Notification(Notification::new(
                            "textDocument/publishDiagnostics".into(),
                            params,
                        )))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// Updates the open documents; returns a document whose text changed.
fn handle_notification(
    n: Notification,
    docs: &mut HashMap<String, String>,
) -> Option<(Uri, String)> {
    match n.method.as_str() {
        "textDocument/didOpen" => {
            let p: DidOpenTextDocumentParams = serde_json::from_value(n.params).ok()?;
            docs.insert(
                p.text_document.uri.as_str().to_string(),
                p.text_document.text.clone(),
            );
            Some((p.text_document.uri, p.text_document.text))
        }
        "textDocument/didChange" => {
            let p: DidChangeTextDocumentParams = serde_json::from_value(n.params).ok()?;
            // Full sync: the last change holds the whole text.
            let text = p.content_changes.into_iter().last()?.text;
            docs.insert(p.text_document.uri.as_str().to_string(), text.clone());
            Some((p.text_document.uri, text))
        }
        "textDocument/didClose" => {
            let p: DidCloseTextDocumentParams = serde_json::from_value(n.params).ok()?;
            docs.remove(p.text_document.uri.as_str());
            None
        }
        _ => None,
    }
}

fn handle_request(
    request: &Request,
    docs: &HashMap<String, String>,
    encoding: Encoding,
) -> Response {
    // Every request served here is about an open document, most of them
    // about a position in it.
    let params = &request.params;
    let Some(uri) = params["textDocument"]["uri"].as_str() else {
        return not_supported(request);
    };
    let Some(text) = docs.get(uri) else {
        return invalid(request, "the document is not open");
    };
    let position = |field: &str| {
        serde_json::from_value::<Position>(params[field].clone())
            .ok()
            .map(|p| offset(text, p, encoding))
    };
    let at = position("position");
    let edits = |edits: Vec<TextEdit>| -> Vec<lsp_types::TextEdit> {
        edits
            .into_iter()
            .map(|e| lsp_types::TextEdit {
                range: range(text, e.range, encoding),
                new_text: e.new_text,
            })
            .collect()
    };
    let id = request.id.clone();
    match (request.method.as_str(), at) {
        ("textDocument/formatting", _) => {
            Response::new_ok(id, edits(formatting_edits(text, is_terraform(uri))))
        }
        ("textDocument/rangeFormatting", _) => {
            let Ok(selected) = serde_json::from_value::<Range>(params["range"].clone()) else {
                return invalid(request, "invalid range");
            };
            let start = offset(text, selected.start, encoding);
            let end = offset(text, selected.end, encoding).max(start);
            let selected = TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32));
            Response::new_ok(
                id,
                edits(hclwright::format::format_range_edits(text, selected)),
            )
        }
        ("textDocument/documentSymbol", _) => {
            let parse = hclwright::parse(text);
            let found = parse
                .body()
                .map(|b| symbols(&b, text, encoding))
                .unwrap_or_default();
            Response::new_ok(id, found)
        }
        ("textDocument/foldingRange", _) => Response::new_ok(id, folding(text)),
        ("textDocument/hover", Some(at)) => Response::new_ok(id, hover(uri, text, at, encoding)),
        ("textDocument/definition", Some(at)) => {
            Response::new_ok(id, definition(uri, text, at, docs, encoding))
        }
        ("textDocument/references", Some(at)) => {
            Response::new_ok(id, references(uri, text, at, docs, encoding))
        }
        ("textDocument/prepareRename", Some(at)) => {
            let found = renamable(text, at).map(|(_, name)| range(text, name, encoding));
            Response::new_ok(id, found)
        }
        ("textDocument/rename", Some(at)) => {
            let Some(new_name) = params["newName"].as_str() else {
                return invalid(request, "a new name is required");
            };
            match rename(uri, text, at, new_name, docs, encoding) {
                Ok(edit) => Response::new_ok(id, edit),
                Err(message) => {
                    Response::new_err(id, lsp_server::ErrorCode::RequestFailed as i32, message)
                }
            }
        }
        _ => not_supported(request),
    }
}

fn not_supported(request: &Request) -> Response {
    Response::new_err(
        request.id.clone(),
        lsp_server::ErrorCode::MethodNotFound as i32,
        format!("{} is not supported", request.method),
    )
}

fn invalid(request: &Request, message: &str) -> Response {
    Response::new_err(
        request.id.clone(),
        lsp_server::ErrorCode::InvalidParams as i32,
        message.into(),
    )
}

/// The value of the reference under the cursor (`var.x`, `local.y`,
/// `local.m["k"]`), evaluated in the module of the document's folder as
/// `terraform console` would print it. Saved files are read: changes not
/// yet saved in other files are not seen.
fn hover(uri: &str, text: &str, at: usize, encoding: Encoding) -> Option<Hover> {
    let path = file_path(uri)?;
    let folder = path.parent()?.to_path_buf();
    let reference = reference_at(text, at)?;
    let range_of = reference.traversal.range();
    let source = &text[usize::from(range_of.start())..usize::from(range_of.end())];
    let base = hclwright::eval::EvalContext::new()
        .with_terraform_functions()
        .with_filesystem_functions(&folder);
    let module =
        hclwright::eval::Module::load(&folder, &hclwright::eval::ModuleInputs::from_env(), base);
    let value = hclwright::eval::evaluate_str(source, &module.context).ok()?;
    let shown = hclwright::eval::console_string(&value);
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: format!("```hcl\n{shown}\n```"),
        }),
        range: Some(range(text, range_of, encoding)),
    })
}

/// Where the object a reference names is declared: `var.x` → `variable
/// "x"`, `local.x` → the attribute in `locals`, `module.x`, `data.t.n`,
/// and a resource `t.n`, among the `.tf` files of the document's folder
/// (open documents as the editor holds them, the others as saved).
fn definition(
    uri: &str,
    text: &str,
    at: usize,
    docs: &HashMap<String, String>,
    encoding: Encoding,
) -> Option<Vec<Location>> {
    use hclwright::ast::AstNode;
    let folder = file_path(uri)?.parent()?.to_path_buf();
    let reference = reference_at(text, at)?;
    let (address, _) = address_of(&reference.traversal)?;
    // (block type, labels) of the declaration, or the local's name.
    use hclwright::refs::terraform::Address;
    let (block, labels, local): (&str, Vec<&str>, Option<&str>) = match &address {
        Address::Variable(name) => ("variable", vec![name], None),
        Address::Local(name) => ("locals", vec![], Some(name)),
        Address::Module(name) => ("module", vec![name], None),
        Address::Data { type_name, name } => ("data", vec![type_name, name], None),
        Address::Resource { type_name, name } => ("resource", vec![type_name, name], None),
        Address::Output(_) => return None,
    };
    let mut out = Vec::new();
    for (path, content) in folder_files(&folder, &["tf"], docs) {
        let file_uri = path_uri(&path);
        let parsed = hclwright::parse(&content);
        let Some(body) = parsed.body() else { continue };
        for b in body.blocks_of_type(block) {
            let found = match local {
                Some(name) => b
                    .body()
                    .and_then(|inner| inner.attribute(name))
                    .and_then(|a| a.name_token())
                    .map(|t| t.text_range()),
                None => {
                    let these: Vec<String> = b.labels().map(|l| l.value()).collect();
                    (these == labels).then(|| {
                        b.labels()
                            .last()
                            .map_or(b.syntax().text_range(), |l| l.syntax().text_range())
                    })
                }
            };
            if let (Some(r), Ok(target)) = (found, file_uri.parse::<Uri>()) {
                out.push(Location {
                    uri: target,
                    range: range(&content, r, encoding),
                });
            }
        }
    }
    Some(out)
}

/// The declared object a reference under `at` names (`var.x`, `local.x`,
/// `module.x`, `data.t.n`, a resource `t.n`) and the range of the name
/// that a rename changes.
fn renamable(text: &str, at: usize) -> Option<(hclwright::refs::terraform::Address, TextRange)> {
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
fn address_of(
    t: &hclwright::refs::Traversal,
) -> Option<(hclwright::refs::terraform::Address, TextRange)> {
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
fn rename(
    uri: &str,
    text: &str,
    at: usize,
    new_name: &str,
    docs: &HashMap<String, String>,
    encoding: Encoding,
) -> Result<lsp_types::WorkspaceEdit, String> {
    let (address, _) = renamable(text, at).ok_or("nothing to rename here")?;
    let folder = file_path(uri)
        .and_then(|p| p.parent().map(std::path::Path::to_path_buf))
        .ok_or("not a file")?;
    let files: Vec<hclwright::refs::SourceFile> = folder_files(&folder, &["tf", "tfvars"], docs)
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
        let edits: Vec<lsp_types::TextEdit> = file_edits
            .edits
            .into_iter()
            .map(|e| lsp_types::TextEdit {
                range: range(&source.text, e.range, encoding),
                new_text: e.new_text,
            })
            .collect();
        if let Ok(target) = path_uri(&file_edits.path).parse::<Uri>() {
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
/// splats, as `hclwright refs` finds them).
fn references(
    uri: &str,
    text: &str,
    at: usize,
    docs: &HashMap<String, String>,
    encoding: Encoding,
) -> Option<Vec<Location>> {
    let (address, _) = renamable(text, at)?;
    let pattern = address.reference()?;
    let folder = file_path(uri)?.parent()?.to_path_buf();
    let mut out = Vec::new();
    for (path, content) in folder_files(&folder, &["tf"], docs) {
        let file_uri = path_uri(&path);
        let parse = hclwright::parse(&content);
        let Ok(target) = file_uri.parse::<Uri>() else {
            continue;
        };
        for r in hclwright::refs::references(&parse.syntax()) {
            if pattern.matches(&r.traversal) {
                out.push(Location {
                    uri: target.clone(),
                    range: range(&content, r.traversal.range(), encoding),
                });
            }
        }
    }
    Some(out)
}

/// The files of `folder` with one of `extensions`, sorted, each with its
/// text: as the editor holds it when open, as saved otherwise.
fn folder_files(
    folder: &std::path::Path,
    extensions: &[&str],
    docs: &HashMap<String, String>,
) -> Vec<(std::path::PathBuf, String)> {
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
    });
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = docs
                .get(&path_uri(&p))
                .cloned()
                .unwrap_or_else(|| std::fs::read_to_string(&p).unwrap_or_default());
            (p, text)
        })
        .collect()
}

/// A path as a `file://` URI (spaces escaped).
fn path_uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display()).replace(' ', "%20")
}

/// The local path of a `file://` URI.
fn file_path(uri: &str) -> Option<std::path::PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(b) = rest
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(std::path::PathBuf::from(String::from_utf8(out).ok()?))
}

/// Blocks (with their labels) and attributes as a tree.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
fn symbols(body: &hclwright::ast::Body, text: &str, encoding: Encoding) -> Vec<DocumentSymbol> {
    use hclwright::ast::BodyItem;
    let mut out = Vec::new();
    for item in body.items() {
        let (name, detail, kind, children, selection) = match &item {
            BodyItem::Attribute(a) => {
                let Some(name) = a.name() else { continue };
                let selection = a.name_token().map(|t| t.text_range());
                (name, None, SymbolKind::PROPERTY, None, selection)
            }
            BodyItem::Block(b) => {
                let labels: Vec<String> = b.labels().map(|l| l.value()).collect();
                let mut name = b.type_name().unwrap_or_default();
                for l in &labels {
                    name.push_str(&format!(" {}", hclwright::eval::go_quote(l)));
                }
                let children = b.body().map(|inner| symbols(&inner, text, encoding));
                let selection = b.type_token().map(|t| t.text_range());
                (name, None, SymbolKind::STRUCT, children, selection)
            }
        };
        let full = hclwright_trimmed(item.syntax());
        out.push(DocumentSymbol {
            name,
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: range(text, full, encoding),
            selection_range: range(text, selection.unwrap_or(full), encoding),
            children,
        });
    }
    out
}

/// A node's range without its leading indentation and final newline.
fn hclwright_trimmed(node: &hclwright::SyntaxNode) -> TextRange {
    let r = node.text_range();
    let text = node.text().to_string();
    let lead = text.len() - text.trim_start().len();
    let trail = text.len() - text.trim_end().len();
    TextRange::new(
        r.start() + TextSize::from(lead as u32),
        (r.end() - TextSize::from(trail as u32)).max(r.start() + TextSize::from(lead as u32)),
    )
}

/// `.tf`, `.tfvars` and their test files take the terraform profile.
fn is_terraform(uri: &str) -> bool {
    [".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl"]
        .iter()
        .any(|ext| uri.ends_with(ext))
}

/// The edits that format `text`: the profile's layout for a valid file,
/// the lenient layout for one with syntax errors.
fn formatting_edits(text: &str, terraform: bool) -> Vec<TextEdit> {
    if !hclwright::syntax_errors(text).is_empty() {
        let options = if terraform {
            FormatOptions::terraform()
        } else {
            FormatOptions::default()
        };
        return minimal_edits(text, &format_lenient(text, &options).0);
    }
    if terraform {
        match format_with(text, &FormatOptions::terraform()) {
            Ok(formatted) => minimal_edits(text, &formatted),
            Err(_) => Vec::new(),
        }
    } else {
        format_edits(text)
    }
}

/// The smallest edits from `old` to `new`, character by character inside
/// the lines that differ.
fn minimal_edits(old: &str, new: &str) -> Vec<TextEdit> {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_secs(2))
        .diff_chars(old, new);
    let mut edits: Vec<TextEdit> = Vec::new();
    for op in diff.ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let start = byte_offset(old, old_range.start);
        let end = byte_offset(old, old_range.end);
        let new_text: String = new
            .chars()
            .skip(new_range.start)
            .take(new_range.len())
            .collect();
        let range = TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32));
        match edits.last_mut() {
            Some(last) if last.range.end() == range.start() => {
                last.range = last.range.cover(range);
                last.new_text.push_str(&new_text);
            }
            _ => edits.push(TextEdit { range, new_text }),
        }
    }
    edits
}

/// The byte offset of the `chars`-th character.
fn byte_offset(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

fn diagnostics(text: &str, encoding: Encoding) -> Vec<Diagnostic> {
    hclwright::parse(text)
        .errors()
        .iter()
        .map(|e| Diagnostic {
            range: range(text, e.range, encoding),
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("hclwright".into()),
            message: e.message.clone(),
            ..Diagnostic::default()
        })
        .collect()
}

/// Blocks, multi-line collections and heredocs, and runs of comment lines,
/// each from its first line to its last.
fn folding(text: &str) -> Vec<lsp_types::FoldingRange> {
    use hclwright::SyntaxKind::*;
    let parse = hclwright::parse(text);
    let lines = hclwright::LineIndex::new(text);
    let mut out = Vec::new();
    for node in parse.syntax().descendants() {
        if !matches!(
            node.kind(),
            BLOCK | OBJECT | TUPLE | HEREDOC_TEMPLATE | FUNCTION_CALL | FOR_EXPR
        ) {
            continue;
        }
        let r = hclwright_trimmed(&node);
        let (start, _) = lines.line_col(r.start());
        let (end, _) = lines.line_col(r.end());
        if end > start {
            out.push(lsp_types::FoldingRange {
                start_line: start - 1,
                end_line: end - 1,
                kind: Some(lsp_types::FoldingRangeKind::Region),
                ..Default::default()
            });
        }
    }
    out
}

/// Warnings for `var.x` and `local.x` that no file of the folder declares.
fn undeclared(
    uri: &str,
    text: &str,
    docs: &HashMap<String, String>,
    encoding: Encoding,
) -> Vec<Diagnostic> {
    let Some(folder) = file_path(uri).and_then(|p| p.parent().map(std::path::Path::to_path_buf))
    else {
        return Vec::new();
    };
    let parse = hclwright::parse(text);
    if !parse.errors().is_empty() {
        return Vec::new();
    }
    let mut variables = std::collections::BTreeSet::new();
    let mut locals = std::collections::BTreeSet::new();
    let mut texts: Vec<String> = folder_files(&folder, &["tf"], docs)
        .into_iter()
        .filter(|(p, _)| path_uri(p) != uri)
        .map(|(_, t)| t)
        .collect();
    texts.push(text.to_string());
    for t in &texts {
        let Some(body) = hclwright::parse(t).body() else {
            continue;
        };
        for b in body.blocks() {
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
    }
    let mut out = Vec::new();
    for r in hclwright::refs::references(&parse.syntax()) {
        let names = r.traversal.leading_names();
        let message = match names.as_slice() {
            ["var", name, ..] if !variables.contains(*name) => {
                format!(
                    "Reference to undeclared input variable: no variable \"{name}\" is declared in this module."
                )
            }
            ["local", name, ..] if !locals.contains(*name) => {
                format!(
                    "Reference to undeclared local value: no local value \"{name}\" is declared in this module."
                )
            }
            _ => continue,
        };
        out.push(Diagnostic {
            range: range(text, r.traversal.range(), encoding),
            severity: Some(DiagnosticSeverity::WARNING),
            source: Some("hclwright".into()),
            message,
            ..Diagnostic::default()
        });
    }
    out
}

fn range(text: &str, r: TextRange, encoding: Encoding) -> Range {
    Range {
        start: position(text, usize::from(r.start()), encoding),
        end: position(text, usize::from(r.end()), encoding),
    }
}

/// A position in the negotiated encoding as a byte offset (clamped to the
/// line and the text).
fn offset(text: &str, p: Position, encoding: Encoding) -> usize {
    let mut line_start = 0;
    for _ in 0..p.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let line = &text[line_start..line_end];
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= p.character {
            return line_start + i;
        }
        units += match encoding {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
        };
    }
    line_end
}

/// A byte offset as a line and a character in the negotiated encoding.
fn position(text: &str, offset: usize, encoding: Encoding) -> Position {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let on_line = &text[line_start..offset];
    let character = match encoding {
        Encoding::Utf8 => on_line.len(),
        Encoding::Utf16 => on_line.encode_utf16().count(),
    } as u32;
    Position { line, character }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_in_both_encodings() {
        let text = "a = \"é😀\"\nb";
        assert_eq!(
            position(text, 11, Encoding::Utf8),
            Position {
                line: 0,
                character: 11
            }
        );
        assert_eq!(
            position(text, 11, Encoding::Utf16),
            Position {
                line: 0,
                character: 8
            }
        );
        assert_eq!(
            position(text, 13, Encoding::Utf16),
            Position {
                line: 1,
                character: 0
            }
        );
    }

    #[test]
    fn minimal_edits_touch_only_spaces() {
        let old = "a=1\nbb  = 2\n";
        let edits = minimal_edits(old, "a  = 1\nbb = 2\n");
        assert!(edits.iter().all(|e| e.new_text.trim().is_empty()));
        assert_eq!(
            hclwright::diff::apply_edits(old, &edits).unwrap(),
            "a  = 1\nbb = 2\n"
        );
    }
}
