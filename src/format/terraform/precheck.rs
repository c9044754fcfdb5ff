//! Whether a file may need one of the normalizations, judged from its
//! tokens alone, so that the syntax tree is built only for the files that
//! may (about one in ten) and the others go straight to the layout.
//!
//! The answer is conservative: any token pattern that could start a
//! normalization answers true. The patterns, in the order of `normalize`:
//!
//! - an interpolation-only template: `"` then `${`, whose matching `}` is
//!   followed by the closing `"`;
//! - a `type` to normalize: `type =` then `list`, `map` or `set` (not
//!   called), or exactly `"string"`, `"list"` or `"map"`;
//! - a label to quote or re-encode: on a line that starts with an
//!   identifier, a bare identifier among the labels after it, or a quoted
//!   label whose text is not plain (escapes, `$`, `%`, non-ASCII), the
//!   labels followed by the block's `{`.

use super::is_plain;
use crate::lexer::Token;
use crate::syntax_kind::SyntaxKind::*;

/// What [`may_normalize`] does with a token of each kind, by kind.
const CLASS: [Class; 256] = {
    let mut class = [Class::Other; 256];
    class[WHITESPACE as usize] = Class::Trivia;
    // A byte order mark or a comment does not start the line's content
    // (`/* c */ module foo {`).
    class[BOM as usize] = Class::Trivia;
    class[COMMENT as usize] = Class::Trivia;
    class[NEWLINE as usize] = Class::Newline;
    class[IDENT as usize] = Class::Name;
    class[INTERP_START as usize] = Class::Sequence;
    class[DIRECTIVE_START as usize] = Class::Sequence;
    class[TEMPLATE_SEQ_END as usize] = Class::Sequence;
    class
};

/// Token kinds as [`may_normalize`] sees them; the last two may start a
/// pattern.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// Ends the start of a line.
    Other,
    /// Keeps the start of a line.
    Trivia,
    /// Starts a line.
    Newline,
    /// An identifier.
    Name,
    /// `${`, `%{` or the `}` that ends one.
    Sequence,
}

/// True unless the text certainly needs none of the normalizations.
///
/// One pass over the tokens with a table of kinds and one test for most
/// tokens (a `match` on the kind of every token cost an indirect jump each,
/// mostly mispredicted).
pub(crate) fn may_normalize(text: &str, toks: &[Token]) -> bool {
    let mut line_start = true;
    let mut offset = 0usize;
    // For each open `${` / `%{`: whether it is a `${` right after `"`.
    // Sequences are matched in one pass, so that nested strings are not
    // scanned again for each level.
    let mut sequences: Vec<bool> = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        offset += tok.len as usize;
        let class = CLASS[tok.kind as usize];
        // An identifier matters at the start of a line, or as `type`.
        let may_start =
            class == Class::Sequence || (class == Class::Name && (line_start || tok.len == 4));
        if may_start && starts_pattern(text, toks, i, offset, line_start, &mut sequences) {
            return true;
        }
        line_start = (line_start && class == Class::Trivia) || class == Class::Newline;
    }
    // An unterminated `"${` may still be meant as one.
    sequences.contains(&true)
}

/// At the identifier or template sequence token `toks[i]`, which ends at
/// `end`: does a pattern start here? Out of line, so that the loop over
/// the tokens keeps its few values in registers.
#[inline(never)]
fn starts_pattern(
    text: &str,
    toks: &[Token],
    i: usize,
    end: usize,
    line_start: bool,
    sequences: &mut Vec<bool>,
) -> bool {
    let tok = toks[i];
    if tok.kind == IDENT {
        // What follows is looked at only for the two patterns that start
        // with an identifier.
        let is_type = tok.len == 4 && &text.as_bytes()[end - 4..end] == b"type";
        if line_start || is_type {
            let after = Cursor::new(text, toks, i + 1, end).skip_trivia();
            if line_start && has_label_to_normalize(after) {
                return true;
            }
            if is_type && has_type_to_normalize(after) {
                return true;
            }
        }
    } else if tok.kind == TEMPLATE_SEQ_END {
        // An interpolation-only template: the `}` of a `${` opened right
        // after `"` closes the string.
        let after_quote = sequences.pop() == Some(true);
        if after_quote && toks.get(i + 1).is_none_or(|t| t.kind == CLOSE_QUOTE) {
            return true;
        }
    } else {
        sequences.push(tok.kind == INTERP_START && i > 0 && toks[i - 1].kind == OPEN_QUOTE);
    }
    false
}

/// After `type`: `= list`, `= map`, `= set` (not called) or `= "string"`,
/// `= "list"`, `= "map"`.
fn has_type_to_normalize(after: Cursor<'_>) -> bool {
    if after.kind() != Some(EQ) {
        return false;
    }
    let value = after.advance().skip_trivia();
    match value.kind() {
        Some(IDENT) => {
            matches!(value.text(), "list" | "map" | "set")
                && value.advance().skip_trivia().kind() != Some(L_PAREN)
        }
        Some(OPEN_QUOTE) => {
            let literal = value.advance();
            literal.kind() == Some(TEMPLATE_LITERAL)
                && matches!(literal.text(), "string" | "list" | "map")
                && literal.advance().kind() == Some(CLOSE_QUOTE)
        }
        _ => false,
    }
}

/// After a line's first identifier: among what could be block labels
/// (identifiers and quoted strings, then the block's `{`), is there a
/// bare identifier or a quoted label whose text is not plain? Anything
/// unexpected inside a quoted label answers true. Without a `{` after
/// them they are no labels (`for x in var.list : x` on a line of its
/// own, inside brackets).
fn has_label_to_normalize(mut at: Cursor<'_>) -> bool {
    let mut to_normalize = false;
    loop {
        match at.kind() {
            Some(IDENT) => {
                to_normalize = true;
                at = at.advance().skip_trivia();
            }
            Some(OPEN_QUOTE) => {
                let mut inside = at.advance();
                if inside.kind() == Some(TEMPLATE_LITERAL) {
                    to_normalize |= !is_plain(inside.text());
                    inside = inside.advance();
                }
                match inside.kind() {
                    Some(CLOSE_QUOTE) => at = inside.advance().skip_trivia(),
                    // An unterminated string ends the labels.
                    Some(NEWLINE) | None => return false,
                    Some(_) => return true,
                }
            }
            Some(L_BRACE) => return to_normalize,
            _ => return false,
        }
    }
}

/// A position in the token list with its byte offset, for looking a few
/// tokens ahead.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    text: &'a str,
    toks: &'a [Token],
    index: usize,
    offset: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str, toks: &'a [Token], index: usize, offset: usize) -> Cursor<'a> {
        Cursor {
            text,
            toks,
            index,
            offset,
        }
    }

    /// The kind of the token here (`None` at the end).
    fn kind(&self) -> Option<crate::SyntaxKind> {
        self.toks.get(self.index).map(|t| t.kind)
    }

    /// The text of the token here ("" at the end).
    fn text(&self) -> &'a str {
        match self.toks.get(self.index) {
            Some(t) => &self.text[self.offset..self.offset + t.len as usize],
            None => "",
        }
    }

    /// The next token.
    fn advance(self) -> Cursor<'a> {
        match self.toks.get(self.index) {
            Some(t) => Cursor {
                index: self.index + 1,
                offset: self.offset + t.len as usize,
                ..self
            },
            None => self,
        }
    }

    /// The first token here or after that is not whitespace or a comment.
    fn skip_trivia(mut self) -> Cursor<'a> {
        while matches!(self.kind(), Some(WHITESPACE | COMMENT)) {
            self = self.advance();
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::super::normalize;
    use super::may_normalize;

    fn may(text: &str) -> bool {
        may_normalize(text, &crate::lexer::tokenize(text).tokens)
    }

    #[test]
    fn finds_every_kind_of_normalization() {
        for text in [
            "a = \"${var.x}\"\n",
            "a = \"${~ var.x ~}\"\n",
            "a = \"${f(\"${b}\")}\"\n",
            "a = \"${ {k = 1} }\"\n",
            "variable \"v\" {\n  type = list\n}\n",
            "variable \"v\" {\n  type = \"string\"\n}\n",
            "variable \"v\" {\n  type = /* c */ \"map\"\n}\n",
            "module foo {\n}\n",
            "resource \"a\" b {\n}\n",
            "resource /* c */ x \"y\" {\n}\n",
            "resource \"a\\u0041\" \"b\" {\n}\n",
            "resource \"a\" \"é\" {\n}\n",
            "\u{FEFF}resource aws_instance x {\n}\n",
            "/* c */ module foo {\n}\n",
        ] {
            assert!(may(text), "{text:?}");
        }
    }

    #[test]
    fn layout_only_files_need_no_tree() {
        for text in [
            "a = \"x-${var.y}\"\n",
            "a = \"${var.y}-x\"\n",
            "a = \"${x}${y}\"\n",
            "a = \"%{ if x }y%{ endif }\"\n",
            "variable \"v\" {\n  type = list(string)\n}\n",
            "variable \"v\" {\n  type = string\n}\n",
            "rule {\n  type = \"ingress\"\n}\n",
            "resource \"a\" \"b\" {\n  count = 1\n}\n",
            "resource \"a_b\" \"c-d e\" {\n}\n",
            "\u{FEFF}resource \"a\" \"b\" {\n}\n",
            // Identifiers after a line's first one, but no block's `{`.
            "a = [\n  for x in var.l : x\n]\n",
            "a = {\n  for k, v in var.m : k => v\n}\n",
            "a = (\n  b\n  ? c\n  : d\n)\n",
        ] {
            assert!(!may(text), "{text:?}");
        }
    }

    /// Over the corpus: whenever the pre-check says no tree is needed,
    /// normalizing with a tree changes nothing.
    #[test]
    fn no_false_negatives_over_the_corpus() {
        let Some(texts) = crate::corpus::texts("the normalization pre-check over the corpus")
        else {
            return;
        };
        let (mut skipped, mut built) = (0, 0);
        for (path, text) in &texts {
            let parse = crate::parse(text);
            if !parse.errors().is_empty() {
                continue;
            }
            if may(text) {
                built += 1;
            } else {
                skipped += 1;
                assert_eq!(&normalize(text, parse.green()), text, "{}", path.display());
            }
        }
        eprintln!("normalization pre-check: {skipped} files without a tree, {built} with");
        assert!(skipped > built, "skipped {skipped}, built {built}");
    }

    /// Every combination of a `variable` type, a block's labels and an
    /// attribute value, with and without a byte order mark: whenever the
    /// pre-check says no tree is needed, building one and normalizing
    /// indeed changes nothing.
    #[test]
    fn no_false_negatives() {
        let types = [
            "list",
            "map",
            "set",
            "\"string\"",
            "\"list\"",
            "\"map\"",
            "list(string)",
            "string",
            "any",
            "\"x\"",
            "map(any)",
            "\"str${\"ing\"}\"",
        ];
        let labels = [
            "",
            " a",
            " \"a\"",
            " a \"b\"",
            " \"a\" b",
            " \"a\" /* c */ b",
            " \"a\" \"b\"",
            " \"\\u0041\"",
            " \"\\\\\"",
            " \"a$${b}\"",
            " \"a%%{b}\"",
            " \"é\"",
            " \"\"",
            " \"a\" \"\\t\"",
        ];
        let values = [
            "\"${var.x}\"",
            "\"x-${var.y}\"",
            "\"s\"",
            "var.z",
            "\"${a}${b}\"",
            "[\"${c}\"]",
            "{ k = \"${d}\" }",
            "\"%{ if e }f%{ endif }\"",
            "\"${~ g ~}\"",
            "\"${h(\"${i}\")}\"",
            "\"${j}\\n\"",
            "<<EOT\n${k}\nEOT",
        ];
        let (mut skipped, mut built) = (0, 0);
        for bom in ["", "\u{FEFF}"] {
            for t in types {
                for l in labels {
                    for v in values {
                        let text = format!(
                            "{bom}variable \"v\" {{\n  type = {t}\n}}\n\nblock{l} {{\n  attr = {v}\n}}\n"
                        );
                        let parse = crate::parse(&text);
                        assert!(parse.errors().is_empty(), "{text}");
                        if may(&text) {
                            built += 1;
                        } else {
                            skipped += 1;
                            assert_eq!(normalize(&text, parse.green()), text, "{text}");
                        }
                    }
                }
            }
        }
        assert!(
            skipped > 100 && built > 100,
            "skipped {skipped}, built {built}"
        );
    }
}
