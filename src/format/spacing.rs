//! Step 3: the space between two adjacent tokens of the same cell.
//!
//! The rules (`format-rules.md`, step 3) look at the kinds of the two
//! tokens, and two of them also at the token before and at the text `in`.
//! They are evaluated once for every pair of token kinds into a table, so
//! spacing a cell costs one lookup per token.

use std::sync::LazyLock;

use super::tokens::Tok;
use crate::syntax_kind::SyntaxKind::{self, *};

/// Number of kinds: the table is indexed by any kind, so that no index
/// is out of bounds (node kinds never occur among tokens).
const KINDS: usize = SyntaxKind::LAST as usize + 1;

/// What the rules decide for a pair of token kinds S → A. The values of
/// the two plain decisions are the space they give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Rule {
    /// No space.
    Zero = 0,
    /// One space.
    One = 1,
    /// S is an identifier and the rules after rule 8 give no space: one
    /// space if it is `in` after an identifier (rule 8), otherwise none.
    In,
    /// S is `-`: no space if it is a negation (rule 11).
    Minus,
}

/// The decision of every pair of token kinds, indexed by kind values.
struct Table([[Rule; KINDS]; KINDS]);

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let mut table = [[Rule::Zero; KINDS]; KINDS];
    let kinds = || SyntaxKind::all().filter(|k| k.is_token());
    for s in kinds() {
        for a in kinds() {
            table[s as usize][a as usize] = rule(s, a);
        }
    }
    Table(table)
});

/// The spacing rules, ready to decide pair by pair.
#[derive(Clone, Copy)]
pub(crate) struct Spacer<'a> {
    table: &'static Table,
    src: &'a str,
}

impl<'a> Spacer<'a> {
    /// The rules for the tokens of `src`.
    pub fn new(src: &'a str) -> Spacer<'a> {
        Spacer { table: &TABLE, src }
    }

    /// The space (0 or 1) between `subject` and the token `after` it, in
    /// the same cell; `before` is the kind of the token before `subject`
    /// in that cell, if there is one. Only an identifier or a `-` as
    /// `subject` makes `before` matter.
    #[inline]
    pub fn space(&self, before: Option<SyntaxKind>, subject: &Tok, after: &Tok) -> u32 {
        match self.table.0[subject.kind as usize][after.kind as usize] {
            Rule::In => u32::from(before == Some(IDENT) && subject.text(self.src) == "in"),
            Rule::Minus => u32::from(!before.is_none_or(negation_follows)),
            plain => u32::from(plain as u8),
        }
    }
}

/// The rules for S → A, in order; the first that matches decides.
fn rule(s: SyntaxKind, a: SyntaxKind) -> Rule {
    if a == NEWLINE
        || (s == IDENT && a == L_PAREN)
        || (s == IDENT && a == COLON2)
        || (s == COLON2 && a == IDENT)
        || s == DOT
        || a == DOT
        || a == COMMA
        || a == ELLIPSIS
    {
        return Rule::Zero;
    }
    if s == COMMA {
        return Rule::One;
    }
    if matches!(s, TEMPLATE_LITERAL | OPEN_QUOTE | HEREDOC_START)
        || matches!(a, TEMPLATE_LITERAL | CLOSE_QUOTE | HEREDOC_END)
    {
        return Rule::Zero;
    }
    if s == IDENT {
        // Rule 8 can only add a space.
        return match later_rule(s, a) {
            Rule::One => Rule::One,
            _ => Rule::In,
        };
    }
    later_rule(s, a)
}

/// The rules after rule 8 (`in`).
fn later_rule(s: SyntaxKind, a: SyntaxKind) -> Rule {
    let one = if a == L_BRACK && (s == IDENT || s == NUMBER || s.bracket_value() < 0) {
        false
    } else if s == BANG {
        false
    } else if s == MINUS {
        return Rule::Minus;
    } else if s == L_BRACE || a == R_BRACE {
        !(s == L_BRACE && a == R_BRACE)
    } else if matches!(s, INTERP_START | DIRECTIVE_START) && a == L_BRACE {
        true
    } else if s == R_BRACE && a == TEMPLATE_SEQ_END {
        true
    } else if s == TEMPLATE_SEQ_END && matches!(a, INTERP_START | DIRECTIVE_START) {
        false
    } else {
        !(s.bracket_value() > 0 || a.bracket_value() < 0)
    };
    if one { Rule::One } else { Rule::Zero }
}

/// True if a `-` after a token of `kind` is a negation, not a subtraction.
fn negation_follows(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        L_PAREN | L_BRACE | L_BRACK | EQ | COLON | COMMA | QUESTION | BANG
    ) || kind.is_binary_operator()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_identifiers_and_minus_look_before() {
        for s in SyntaxKind::all().filter(|k| k.is_token()) {
            for a in SyntaxKind::all().filter(|k| k.is_token()) {
                let looks = matches!(TABLE.0[s as usize][a as usize], Rule::In | Rule::Minus);
                assert!(!looks || s == IDENT || s == MINUS, "{s:?} {a:?}");
            }
        }
    }
}
