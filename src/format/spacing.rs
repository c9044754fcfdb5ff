//! Step 3: the space between two adjacent tokens of the same cell.

use super::tokens::Tok;
use crate::syntax_kind::SyntaxKind::{self, *};

/// Sets the spaces before every token of `cell` but the first, from the
/// token before it (`spaces[i]` is the space before token `i`).
pub(crate) fn space_cell(
    toks: &[Tok],
    src: &str,
    cell: std::ops::Range<usize>,
    spaces: &mut [u32],
) {
    let mut prev: Option<&Tok> = None;
    for i in cell.start..cell.end.saturating_sub(1) {
        let subject = &toks[i];
        let after = &toks[i + 1];
        spaces[i + 1] = u32::from(space_after(subject, prev, after, src));
        prev = Some(subject);
    }
}

/// True when one space goes between `subject` and `after`; `before` is
/// the token before `subject` in the same cell.
fn space_after(subject: &Tok, before: Option<&Tok>, after: &Tok, src: &str) -> bool {
    let (s, a) = (subject.kind, after.kind);
    if a == NEWLINE {
        return false;
    }
    if s == IDENT && a == L_PAREN {
        return false;
    }
    if (s == IDENT && a == COLON2) || (s == COLON2 && a == IDENT) {
        return false;
    }
    if s == DOT || a == DOT {
        return false;
    }
    if a == COMMA || a == ELLIPSIS {
        return false;
    }
    if s == COMMA {
        return true;
    }
    if matches!(s, TEMPLATE_LITERAL | OPEN_QUOTE | HEREDOC_START)
        || matches!(a, TEMPLATE_LITERAL | CLOSE_QUOTE | HEREDOC_END)
    {
        return false;
    }
    if s == IDENT && subject.text(src) == "in" && before.is_some_and(|b| b.kind == IDENT) {
        return true;
    }
    if a == L_BRACK && (s == IDENT || s == NUMBER || s.bracket_value() < 0) {
        return false;
    }
    if s == BANG {
        return false;
    }
    if s == MINUS {
        return !before.is_none_or(|b| negation_follows(b.kind));
    }
    if s == L_BRACE || a == R_BRACE {
        return !(s == L_BRACE && a == R_BRACE);
    }
    if matches!(s, INTERP_START | DIRECTIVE_START) && a == L_BRACE {
        return true;
    }
    if s == R_BRACE && a == TEMPLATE_SEQ_END {
        return true;
    }
    if s == TEMPLATE_SEQ_END && matches!(a, INTERP_START | DIRECTIVE_START) {
        return false;
    }
    if s.bracket_value() > 0 || a.bracket_value() < 0 {
        return false;
    }
    true
}

/// True if a `-` after a token of `kind` is a negation, not a subtraction.
fn negation_follows(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        L_PAREN | L_BRACE | L_BRACK | EQ | COLON | COMMA | QUESTION | BANG
    ) || kind.is_binary_operator()
}
