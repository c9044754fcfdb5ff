//! Making room for heredocs: a heredoc's closing marker must be alone on
//! its line, so nothing may follow it there.
//!
//! When an edit puts a heredoc where something followed the old value on
//! its line, or inserts text right after a closing marker, the text is
//! rewritten instead of refused:
//!
//! - a comment that followed on the line moves to a line of its own
//!   above the line where the value starts (it stays with its item);
//! - an object item's comma is dropped (a newline separates object items
//!   as well), and so is a trailing comma of a tuple or of arguments;
//! - anything else (a comma between elements, a closing bracket, the
//!   next item of a one-line object) moves to the next line, indented as
//!   the formatter indents it.
//!
//! ```text
//! x = ["a", "b"]          x = [<<EOT        x = { a = 1, b = 2 }   x = { a = <<EOT
//!                 [0] →   hi               a →                     hi
//!                         EOT                                      EOT
//!                         , "b"]                                   b = 2 }
//! ```

use text_size::TextRange;

use crate::document::primitives::lines::{line_indent, line_start, token_left, token_right};
use crate::document::primitives::replacement::Replacement;
use crate::lexer::tokenize;
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode, SyntaxToken};

/// The replacements, with what a heredoc needs added: see the
/// [module docs](self).
pub(crate) fn make_room(root: &SyntaxNode, reps: Vec<Replacement>) -> Vec<Replacement> {
    let mut out = Vec::with_capacity(reps.len());
    let mut extra = Vec::new();
    for mut rep in reps {
        // Inserted right after a closing marker: the text starts a line.
        let after_marker = token_left(root, rep.range.start())
            .is_some_and(|t| t.kind() == HEREDOC_END && t.text_range().end() == rep.range.start());
        if after_marker && !rep.text.is_empty() && !rep.text.starts_with(['\n', '\r']) {
            rep.text.insert(0, '\n');
            rep.reindent_lines.push(1);
        }
        mark_moved_lines(&mut rep);
        if ends_with_heredoc(&rep.text) {
            follow_heredoc(root, &mut rep, &mut extra);
        }
        out.push(rep);
    }
    out.extend(extra);
    out
}

/// `text`, then `rest` on the same line; when `text` ends with a
/// heredoc, `rest` (without its leading spaces) starts the next line.
pub(crate) fn then(text: &str, rest: &str) -> String {
    if ends_with_heredoc(text) {
        format!("{text}\n{}", rest.trim_start())
    } else {
        format!("{text}{rest}")
    }
}

/// Lines of the text that start after a closing marker with a comma
/// were moved there to make room (see [`then`]): the layout indents
/// them.
fn mark_moved_lines(rep: &mut Replacement) {
    if !rep.text.contains("<<") {
        return;
    }
    let tokens = tokenize(&rep.text).tokens;
    let mut newlines = 0;
    let mut pos = 0usize;
    let mut after_marker = false;
    let mut line_start = false;
    for token in &tokens {
        let piece = &rep.text[pos..pos + token.len as usize];
        pos += token.len as usize;
        match token.kind {
            WHITESPACE => continue,
            NEWLINE => {
                newlines += 1;
                line_start = after_marker;
                after_marker = false;
                continue;
            }
            COMMA if line_start && !rep.reindent_lines.contains(&newlines) => {
                rep.reindent_lines.push(newlines);
            }
            _ => {}
        }
        // Heredoc lines and multi-line strings hold newlines too.
        newlines += piece.matches('\n').count();
        line_start = false;
        after_marker = token.kind == HEREDOC_END;
    }
}

/// True when the text's last token (spaces aside) is a heredoc's closing
/// marker.
pub(crate) fn ends_with_heredoc(text: &str) -> bool {
    if !text.contains("<<") {
        return false;
    }
    // A closing marker ends its line: it is one with a newline after it.
    tokenize(&format!("{text}\n"))
        .tokens
        .iter()
        .rev()
        .skip(1)
        .find(|t| t.kind != WHITESPACE)
        .is_some_and(|t| t.kind == HEREDOC_END)
}

/// Clears the rest of the line after `rep` (whose text ends with a
/// heredoc): `rep` grows over the spaces and dropped commas after it and
/// ends with a newline before what must follow; a comment moves above.
fn follow_heredoc(root: &SyntaxNode, rep: &mut Replacement, extra: &mut Vec<Replacement>) {
    let mut cleared_to = rep.range.end();
    let mut next = token_right(root, cleared_to);
    if next.is_none() {
        // The end of the file: a closing marker needs its newline.
        rep.text.push('\n');
        return;
    }
    while let Some(token) = next {
        match token.kind() {
            WHITESPACE => cleared_to = token.text_range().end(),
            COMMA if droppable_comma(&token) => cleared_to = token.text_range().end(),
            NEWLINE => break,
            COMMENT => {
                // The comment moves to a line of its own above.
                cleared_to = token.text_range().end();
                let line = line_start(root, rep.range.start());
                let indent = line_indent(root, rep.range.start());
                extra.push(Replacement::new(
                    TextRange::empty(line),
                    format!("{indent}{}\n", token.text()),
                ));
                break;
            }
            _ => {
                // What follows starts the next line; the line where the
                // value starts may change level with it.
                rep.range = TextRange::new(rep.range.start(), token.text_range().start());
                rep.text.push('\n');
                rep.reindent_lines.push(rep.text.matches('\n').count());
                let mut first =
                    Replacement::new(TextRange::empty(line_start(root, rep.range.start())), "");
                first.reindent_lines.push(0);
                extra.push(first);
                return;
            }
        }
        next = token.next_token();
    }
    rep.range = TextRange::new(rep.range.start(), cleared_to);
}

/// A comma that can go when a heredoc ends before it: an object item's,
/// or a trailing comma (only spaces, comments and newlines before the
/// closing bracket).
fn droppable_comma(comma: &SyntaxToken) -> bool {
    if comma.parent().is_some_and(|p| p.kind() == OBJECT_ITEM) {
        return true;
    }
    let mut next = comma.next_token();
    while let Some(t) = next {
        match t.kind() {
            WHITESPACE | NEWLINE | COMMENT => next = t.next_token(),
            R_BRACK | R_PAREN => return true,
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_a_final_heredoc() {
        assert!(ends_with_heredoc("<<EOT\nx\nEOT"));
        assert!(ends_with_heredoc("[<<-EOT\n  x\n  EOT"));
        assert!(!ends_with_heredoc("[<<EOT\nx\nEOT\n]"));
        assert!(!ends_with_heredoc("\"<<EOT\""));
    }
}

#[cfg(test)]
mod rewrite_tests {
    use crate::document::{Document, EditValue, Placement};

    fn set(text: &str, address: &str, value: EditValue) -> String {
        let mut doc = Document::parse(text).unwrap();
        doc.set(address, value).unwrap();
        let out = doc.to_string();
        let fresh = crate::parse(&out);
        assert_eq!(
            crate::debug_tree(&fresh.syntax()),
            crate::debug_tree(&doc.syntax())
        );
        out
    }

    #[test]
    fn lines_after_a_heredoc_in_new_blocks() {
        let text = "terraform {\n  backend \"s3\" {\n    bucket = \"b\"\n  }\n}\n";
        let out = set(
            text,
            "terraform.required_providers.test.version",
            EditValue::heredoc("x\n"),
        );
        assert_eq!(crate::format(&out), out);
    }

    #[test]
    fn heredoc_items_in_one_line_objects() {
        let place = |placement: Placement| {
            let mut doc = Document::parse("x = { a = 1, b = 2 }\n").unwrap();
            doc.set_with("x.h", EditValue::heredoc("t\n"), placement)
                .unwrap();
            let out = doc.to_string();
            assert!(crate::parse(&out).errors().is_empty(), "{out}");
            assert_eq!(crate::format(&out), out);
            out
        };
        assert_eq!(
            place(Placement::First),
            "x = { h = <<EOT\nt\nEOT\na = 1, b = 2 }\n"
        );
        assert_eq!(
            place(Placement::After("a".into())),
            "x = { a = 1, h = <<EOT\nt\nEOT\nb = 2 }\n"
        );
        assert_eq!(
            place(Placement::Last),
            "x = { a = 1, b = 2, h = <<EOT\nt\nEOT\n}\n"
        );
    }

    #[test]
    fn heredoc_lines_are_never_reindented() {
        assert_eq!(
            set(
                "p {\n  x = 1\n}\n",
                "p.m.k",
                EditValue::heredoc("line one\n  line two\n")
            ),
            "p {\n  x = 1\n  m = {\n    k = <<EOT\nline one\n  line two\nEOT\n  }\n}\n"
        );
    }

    #[test]
    fn what_follows_a_heredoc_moves_to_the_next_line() {
        assert_eq!(
            set("x = [1, 2] # c\n", "x[0]", EditValue::heredoc("a\n")),
            "x = [<<EOT\na\nEOT\n, 2] # c\n"
        );
        assert_eq!(
            set("x = \"a\" # c\n", "x", EditValue::heredoc("a\n")),
            "# c\nx = <<EOT\na\nEOT\n"
        );
        assert_eq!(
            set("x = { a = 1, b = 2 }\n", "x.a", EditValue::heredoc("a\n")),
            "x = { a = <<EOT\na\nEOT\nb = 2 }\n"
        );
        assert_eq!(
            set("x = [\n  1,\n  2,\n]\n", "x[1]", EditValue::heredoc("a\n")),
            "x = [\n  1,\n  <<EOT\na\nEOT\n]\n"
        );
    }
}
