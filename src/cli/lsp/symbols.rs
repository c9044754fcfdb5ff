//! The structure of documents for the editor: document symbols (blocks
//! and attributes, or the members of a JSON document), workspace symbols,
//! folding ranges and selection ranges.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use hclwright::ast::{AstNode, Body, BodyItem};
use hclwright::json::JsonValue;
use hclwright::{SyntaxKind, SyntaxNode, TextRange, TextSize};
use lsp_types::{
    DocumentSymbol, FoldingRange, FoldingRangeKind, Location, OneOf, SelectionRange, SymbolKind,
    Uri, WorkspaceSymbol,
};

use super::text::{Encoding, Lines};
use super::workspace::{self, Docs};

/// How deep symbol trees and selection ranges go: deeper levels are left
/// out, so that no answer nests deeper than clients read (a symbol level
/// is two levels of JSON; clients on `serde_json`, such as Helix, stop at
/// 128).
const MAX_NESTING: usize = 50;

/// At most this many workspace symbols are returned for one query.
const MAX_WORKSPACE_SYMBOLS: usize = 1000;

/// Blocks (with their labels) and attributes as a tree.
pub fn document(body: &Body, lines: &Lines) -> Vec<DocumentSymbol> {
    native_symbols(body, lines, 0)
}

fn native_symbols(body: &Body, lines: &Lines, depth: usize) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for item in body.items() {
        let (name, kind, children, selection) = match &item {
            BodyItem::Attribute(a) => {
                let Some(name) = a.name() else { continue };
                let selection = a.name_token().map(|t| t.text_range());
                (name, SymbolKind::PROPERTY, None, selection)
            }
            BodyItem::Block(b) => {
                let mut name = b.type_name().unwrap_or_default();
                for l in b.labels() {
                    name.push(' ');
                    name.push_str(&hclwright::eval::go_quote(&l.value()));
                }
                let children = b
                    .body()
                    .filter(|_| depth + 1 < MAX_NESTING)
                    .map(|inner| native_symbols(&inner, lines, depth + 1));
                let selection = b.type_token().map(|t| t.text_range());
                (name, SymbolKind::STRUCT, children, selection)
            }
        };
        let full = trimmed(item.syntax(), lines.text());
        let selection = selection.unwrap_or(full);
        out.push(symbol(name, kind, full, selection, children, lines));
    }
    out
}

/// The members of a JSON document's objects as a tree (array elements
/// named by their index).
pub fn json(root: &SyntaxNode, lines: &Lines) -> Vec<DocumentSymbol> {
    let value = root.children_with_tokens().find_map(JsonValue::cast);
    value.map_or_else(Vec::new, |v| json_children(&v, lines, 0))
}

fn json_children(value: &JsonValue, lines: &Lines, depth: usize) -> Vec<DocumentSymbol> {
    if depth >= MAX_NESTING {
        return Vec::new();
    }
    match value {
        JsonValue::Object(o) => o
            .members()
            .filter_map(|m| {
                let v = m.value()?;
                let name = m.name().unwrap_or_default();
                Some(json_symbol(
                    name,
                    m.name_range(),
                    m.syntax().text_range(),
                    &v,
                    lines,
                    depth,
                ))
            })
            .collect(),
        JsonValue::Array(a) => a
            .elements()
            .enumerate()
            .map(|(i, v)| json_symbol(i.to_string(), v.range(), v.range(), &v, lines, depth))
            .collect(),
        _ => Vec::new(),
    }
}

fn json_symbol(
    name: String,
    selection: TextRange,
    full: TextRange,
    value: &JsonValue,
    lines: &Lines,
    depth: usize,
) -> DocumentSymbol {
    let kind = match value {
        JsonValue::Object(_) => SymbolKind::OBJECT,
        JsonValue::Array(_) => SymbolKind::ARRAY,
        JsonValue::String(_) => SymbolKind::STRING,
        JsonValue::Number(_) => SymbolKind::NUMBER,
        JsonValue::Bool(_) => SymbolKind::BOOLEAN,
        JsonValue::Null(_) | JsonValue::Invalid(_) => SymbolKind::NULL,
    };
    let children = matches!(value, JsonValue::Object(_) | JsonValue::Array(_))
        .then(|| json_children(value, lines, depth + 1));
    symbol(name, kind, full, selection, children, lines)
}

/// A document symbol spanning `full`, named at `selection`.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
fn symbol(
    name: String,
    kind: SymbolKind,
    full: TextRange,
    selection: TextRange,
    children: Option<Vec<DocumentSymbol>>,
    lines: &Lines,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range: lines.range(full),
        selection_range: lines.range(selection),
        children,
    }
}

/// Blocks, multi-line collections, calls, `for` expressions and heredocs
/// (or JSON objects and arrays), each from its first line to its last.
pub fn folding(root: &SyntaxNode, lines: &Lines) -> Vec<FoldingRange> {
    use SyntaxKind::*;
    let mut out = Vec::new();
    for node in root.descendants() {
        if !matches!(
            node.kind(),
            BLOCK
                | OBJECT
                | TUPLE
                | HEREDOC_TEMPLATE
                | FUNCTION_CALL
                | FOR_EXPR
                | JSON_OBJECT
                | JSON_ARRAY
        ) {
            continue;
        }
        let r = trimmed(&node, lines.text());
        let (start, end) = (
            lines.line(usize::from(r.start())),
            lines.line(usize::from(r.end())),
        );
        if end > start {
            out.push(FoldingRange {
                start_line: start,
                end_line: end,
                kind: Some(FoldingRangeKind::Region),
                ..Default::default()
            });
        }
    }
    out
}

/// For each offset, the ranges that contain it, from its token outward
/// through the syntax tree (each strictly larger than the one inside it).
pub fn selection(root: &SyntaxNode, offsets: &[usize], lines: &Lines) -> Vec<SelectionRange> {
    offsets
        .iter()
        .map(|&at| selection_at(root, at, lines))
        .collect()
}

fn selection_at(root: &SyntaxNode, at: usize, lines: &Lines) -> SelectionRange {
    let at = hclwright::TextSize::from(at.min(usize::from(root.text_range().end())) as u32);
    let tokens = root.token_at_offset(at);
    // The token after the cursor, unless it is only spaces.
    let token = match tokens.clone().right_biased() {
        Some(t) if !is_space(t.kind()) => Some(t),
        _ => tokens.left_biased(),
    };
    let mut ranges: Vec<TextRange> = Vec::new();
    if let Some(token) = &token {
        if !is_space(token.kind()) {
            ranges.push(token.text_range());
        }
        for node in token.parent_ancestors().take(MAX_NESTING) {
            let mut r = trimmed(&node, lines.text());
            if let Some(&inner) = ranges.last() {
                r = r.cover(inner);
            }
            ranges.push(r);
        }
    }
    if ranges.is_empty() {
        ranges.push(TextRange::empty(at));
    }
    ranges.dedup();
    // Keep the innermost levels when nesting is deep.
    ranges.truncate(MAX_NESTING);
    let mut out: Option<SelectionRange> = None;
    for r in ranges.into_iter().rev() {
        out = Some(SelectionRange {
            range: lines.range(r),
            parent: out.map(Box::new),
        });
    }
    out.expect("at least one range")
}

fn is_space(kind: SyntaxKind) -> bool {
    matches!(kind, SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE)
}

/// A node's range without the spaces and newlines at its ends (an item's
/// indentation and final newline), found in `text`, the text of its tree
/// (not through the tree: a deeply nested node's first token is as deep).
pub fn trimmed(node: &SyntaxNode, text: &str) -> TextRange {
    let r = node.text_range();
    let (start, end) = (usize::from(r.start()), usize::from(r.end()));
    let Some(inner) = text.get(start..end) else {
        return r;
    };
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\r' | '\n');
    let lead = inner.len() - inner.trim_start_matches(is_space).len();
    let kept = inner.trim_matches(is_space).len();
    let from = TextSize::from((start + lead) as u32);
    TextRange::at(from, TextSize::from(kept as u32))
}

/// One block as a workspace symbol, in the negotiated encoding.
struct Flat {
    /// `type label1 label2`.
    name: String,
    lower: String,
    /// The enclosing block's name.
    container: Option<String>,
    range: lsp_types::Range,
}

/// The blocks of the files of the workspace folders, kept while a file's
/// modification time and size stay the same.
#[derive(Default)]
pub struct SymbolCache {
    files: HashMap<PathBuf, (Option<SystemTime>, u64, Vec<Flat>)>,
}

/// The blocks of every HCL file (`.tf`, `.tfvars`, `.hcl`, `.nomad`) of
/// the workspace folders and of the open documents, whose `type label1
/// label2` contains `query` (ignoring case).
pub fn workspace(
    query: &str,
    roots: &[PathBuf],
    docs: &Docs,
    cache: &mut SymbolCache,
    encoding: Encoding,
) -> Vec<WorkspaceSymbol> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    let take = |uri: &str, flats: &[Flat], out: &mut Vec<WorkspaceSymbol>| {
        let Ok(uri) = uri.parse::<Uri>() else { return };
        for f in flats.iter().filter(|f| f.lower.contains(&query)) {
            if out.len() < MAX_WORKSPACE_SYMBOLS {
                out.push(WorkspaceSymbol {
                    name: f.name.clone(),
                    kind: SymbolKind::STRUCT,
                    tags: None,
                    container_name: f.container.clone(),
                    location: OneOf::Left(Location {
                        uri: uri.clone(),
                        range: f.range,
                    }),
                    data: None,
                });
            }
        }
    };
    let mut open: Vec<(&String, &workspace::Doc)> = docs
        .iter()
        .filter(|(uri, _)| !workspace::is_json(uri))
        .collect();
    open.sort_by_key(|(uri, _)| *uri);
    for (uri, doc) in &open {
        take(uri, &flat_symbols(&doc.text, encoding), &mut out);
    }
    let paths = crate::cli::files::expand(
        &roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>(),
        true,
    )
    .0;
    let mut seen = std::collections::HashSet::new();
    for input in paths {
        let crate::cli::files::Input::File(path) = input else {
            continue;
        };
        if !seen.insert(path.clone()) || workspace::open_doc(docs, &path).is_some() {
            continue;
        }
        let flats = cached(cache, &path, encoding);
        take(&workspace::path_uri(&path), flats, &mut out);
    }
    out
}

/// The symbols of a file on disk, from the cache when it has not changed.
fn cached<'a>(cache: &'a mut SymbolCache, path: &Path, encoding: Encoding) -> &'a [Flat] {
    let meta = std::fs::metadata(path).ok();
    let stamp = (
        meta.as_ref().and_then(|m| m.modified().ok()),
        meta.as_ref().map_or(0, |m| m.len()),
    );
    let entry = cache
        .files
        .entry(path.to_path_buf())
        .or_insert_with(|| (None, u64::MAX, Vec::new()));
    if (entry.0, entry.1) != stamp || stamp.0.is_none() {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        *entry = (stamp.0, stamp.1, flat_symbols(&text, encoding));
    }
    &entry.2
}

/// Every block of a text, nested ones with their container's name.
fn flat_symbols(text: &str, encoding: Encoding) -> Vec<Flat> {
    let lines = Lines::new(text, encoding);
    let mut out = Vec::new();
    if let Some(body) = hclwright::parse(text).body() {
        flatten(&body, None, &lines, 0, &mut out);
    }
    out
}

fn flatten(body: &Body, container: Option<&str>, lines: &Lines, depth: usize, out: &mut Vec<Flat>) {
    if depth >= MAX_NESTING {
        return;
    }
    for b in body.blocks() {
        let mut name = b.type_name().unwrap_or_default();
        for l in b.labels() {
            name.push(' ');
            name.push_str(&l.value());
        }
        out.push(Flat {
            lower: name.to_lowercase(),
            container: container.map(str::to_string),
            range: lines.range(trimmed(b.syntax(), lines.text())),
            name: name.clone(),
        });
        if let Some(inner) = b.body() {
            flatten(&inner, Some(&name), lines, depth + 1, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Position;

    fn position_of(text: &str, offset: usize) -> Position {
        Lines::new(text, Encoding::Utf16).position(offset)
    }

    fn chain(s: &SelectionRange) -> Vec<(Position, Position)> {
        let mut out = vec![(s.range.start, s.range.end)];
        let mut p = &s.parent;
        while let Some(next) = p {
            out.push((next.range.start, next.range.end));
            p = &next.parent;
        }
        out
    }

    #[test]
    fn selection_grows_from_the_token_to_the_file() {
        let text = "a {\n  b = [x.y, 2]\n}\n";
        let parse = hclwright::parse(text);
        let lines = Lines::new(text, Encoding::Utf16);
        let at = text.find('y').unwrap();
        let got = selection(&parse.syntax(), &[at], &lines);
        let ranges = chain(&got[0]);
        // `y`, `x.y`, the tuple, the attribute, the body, the block, the file.
        assert_eq!(
            ranges[0],
            (position_of(text, at), position_of(text, at + 1))
        );
        assert_eq!(ranges[1].0, position_of(text, at - 2));
        for pair in ranges.windows(2) {
            assert!(pair[0] != pair[1]);
            assert!(pair[1].0 <= pair[0].0 && pair[0].1 <= pair[1].1);
        }
        let last = ranges.last().unwrap();
        assert_eq!(
            *last,
            (position_of(text, 0), position_of(text, text.len() - 1))
        );
    }

    #[test]
    fn json_members_are_symbols() {
        let text = "{\"variable\": {\"region\": {\"default\": 1}}, \"list\": [1]}";
        let parse = hclwright::json::parse(text);
        let lines = Lines::new(text, Encoding::Utf16);
        let found = json(&parse.syntax(), &lines);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].name, "variable");
        let region = &found[0].children.as_ref().unwrap()[0];
        assert_eq!(region.name, "region");
        assert_eq!(
            region.children.as_ref().unwrap()[0].kind,
            SymbolKind::NUMBER
        );
        assert_eq!(found[1].children.as_ref().unwrap()[0].name, "0");
    }
}
