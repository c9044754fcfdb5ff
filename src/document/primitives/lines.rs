//! Lines and indentation: the token at an offset, where a line starts
//! and ends, its indentation, the indentation unit around a node, where
//! an item's own text starts (after its comment lines), and snippets
//! re-indented for their place.

use text_size::{TextRange, TextSize};

use crate::ast::{self, AstNode};
use crate::lexer::tokenize;
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode, SyntaxToken};

/// The token that contains the byte at `offset` (`None` at the end of
/// the text). Unlike rowan's `token_at_offset`, which looks at every
/// child of every node on the way, this descends by binary search, so it
/// stays fast in a file with a hundred thousand top-level items.
pub(crate) fn token_right(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset >= root.text_range().end() {
        return None;
    }
    root.covering_element(TextRange::at(offset, TextSize::from(1)))
        .into_token()
        .or_else(|| {
            // A multi-byte character: the token holding its first byte.
            let end = root.text_range().end();
            let mut len = 2;
            loop {
                let range = TextRange::new(offset, (offset + TextSize::from(len)).min(end));
                if let Some(t) = root.covering_element(range).into_token() {
                    return Some(t);
                }
                if range.end() == end || len > 4 {
                    return None;
                }
                len += 1;
            }
        })
}

/// The token that contains the byte just before `offset` (`None` at the
/// start of the text).
pub(crate) fn token_left(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    let start = root.text_range().start();
    if offset <= start {
        return None;
    }
    let mut len = 1u32;
    loop {
        let from = offset
            .checked_sub(TextSize::from(len))
            .unwrap_or(start)
            .max(start);
        if let Some(t) = root
            .covering_element(TextRange::new(from, offset))
            .into_token()
        {
            return Some(t);
        }
        if from == start || len >= 4 {
            return None;
        }
        len += 1;
    }
}

/// The indentation of the line on which `offset` lies: the spaces and
/// tabs at the start of that line (all of them, even when `offset` is
/// before their end).
pub(crate) fn line_indent(root: &SyntaxNode, offset: TextSize) -> String {
    let start = line_start(root, offset);
    let mut out = String::new();
    let mut token = token_right(root, start);
    while let Some(t) = token {
        if t.kind() != WHITESPACE {
            break;
        }
        out.push_str(t.text());
        token = t.next_token();
    }
    out
}

/// The start of the (structural) line on which `offset` lies: just after
/// the previous newline token.
pub(crate) fn line_start(root: &SyntaxNode, offset: TextSize) -> TextSize {
    let mut token = token_left(root, offset);
    // A token that starts at `offset` belongs to the line.
    while let Some(t) = token {
        if t.kind() == NEWLINE && t.text_range().end() <= offset {
            return t.text_range().end();
        }
        token = t.prev_token();
    }
    TextSize::from(0)
}

/// The end of the line on which `offset` lies, after its newline (or the
/// end of the text).
pub(crate) fn line_end(root: &SyntaxNode, offset: TextSize) -> TextSize {
    let mut token = token_right(root, offset);
    while let Some(t) = token {
        if t.kind() == NEWLINE && t.text_range().start() >= offset {
            return t.text_range().end();
        }
        token = t.next_token();
    }
    root.text_range().end()
}

/// Indents a snippet laid out at indentation zero for a place whose line
/// is indented by `base`: every line after the first gets `base` plus
/// `unit` per level of its canonical indentation (two spaces). Lines
/// inside heredocs are left alone.
pub(crate) fn reindent(snippet: &str, base: &str, unit: &str) -> String {
    let lexed = tokenize(snippet);
    let mut out = String::with_capacity(snippet.len() + base.len() * 4);
    let mut pos = 0usize;
    let mut after_newline = false;
    for token in &lexed.tokens {
        let len = token.len as usize;
        let text = &snippet[pos..pos + len];
        pos += len;
        if after_newline && token.kind != NEWLINE {
            after_newline = false;
            let spaces = if token.kind == WHITESPACE {
                text.len()
            } else {
                0
            };
            out.push_str(base);
            for _ in 0..spaces / 2 {
                out.push_str(unit);
            }
            if token.kind == WHITESPACE {
                continue;
            }
        }
        out.push_str(text);
        if token.kind == NEWLINE {
            after_newline = true;
        }
    }
    out
}

/// The start of the first significant token of an item node (after its
/// indentation and comment lines).
pub(crate) fn core_start(node: &SyntaxNode) -> TextSize {
    node.children_with_tokens()
        .find(|e| !matches!(e.kind(), WHITESPACE | NEWLINE | COMMENT))
        .map_or(node.text_range().start(), |e| e.text_range().start())
}

/// The indentation unit of the file around `node`: what its children
/// add to its line's indentation (two spaces by default).
pub(crate) fn unit_for_block(root: &SyntaxNode, block: &ast::Block) -> String {
    let outer = line_indent(root, core_start(block.syntax()));
    if let Some(first) = block.body().and_then(|b| b.items().next()) {
        let inner = line_indent(root, core_start(first.syntax()));
        if let Some(unit) = inner.strip_prefix(outer.as_str()).filter(|u| !u.is_empty()) {
            return unit.to_string();
        }
    }
    "  ".to_string()
}

/// The indentation unit used around `node`: the difference between the
/// indentation of its line and of the line of the construct that
/// contains it (two spaces when that says nothing).
pub(crate) fn unit_near(root: &SyntaxNode, node: &SyntaxNode) -> String {
    let own = line_indent(root, node.text_range().start().max(first_core(node)));
    for ancestor in node.ancestors().skip(1) {
        let outer = line_indent(root, first_core(&ancestor));
        if outer.len() < own.len() {
            if let Some(unit) = own.strip_prefix(outer.as_str()).filter(|u| !u.is_empty()) {
                return unit.to_string();
            }
            break;
        }
    }
    "  ".to_string()
}

/// The first non-trivia offset of a node.
fn first_core(node: &SyntaxNode) -> text_size::TextSize {
    core_start(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_indents() {
        let root = crate::parse("a {\n    b = 1\n}\n").syntax();
        assert_eq!(line_start(&root, 8.into()), 4.into());
        assert_eq!(line_end(&root, 8.into()), 14.into());
        assert_eq!(line_indent(&root, 8.into()), "    ");
    }

    #[test]
    fn reindent_keeps_heredocs() {
        let snippet = "x = {\n  a = <<EOT\n  keep\nEOT\n  b = [\n    1,\n  ]\n\n}";
        assert_eq!(
            reindent(snippet, "\t", "\t"),
            "x = {\n\t\ta = <<EOT\n  keep\nEOT\n\t\tb = [\n\t\t\t1,\n\t\t]\n\n\t}"
        );
    }
}
