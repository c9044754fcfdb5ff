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

/// The rules for S → A (numbered as in `format-rules.md`), in order; the
/// first that matches decides.
fn rule(s: SyntaxKind, a: SyntaxKind) -> Rule {
    use Rule::{One, Zero};
    // 1 to 5.
    if a == NEWLINE
        || (s == IDENT && a == L_PAREN)
        || (s == IDENT && a == COLON2)
        || (s == COLON2 && a == IDENT)
        || s == DOT
        || a == DOT
        || a == COMMA
        || a == ELLIPSIS
    {
        return Zero;
    }
    // 6.
    if s == COMMA {
        return One;
    }
    // 7.
    if matches!(s, TEMPLATE_LITERAL | OPEN_QUOTE | HEREDOC_START)
        || matches!(a, TEMPLATE_LITERAL | CLOSE_QUOTE | HEREDOC_END)
    {
        return Zero;
    }
    // 8 depends on the text and the token before; it can only add a space.
    if s == IDENT {
        return match later_rule(s, a) {
            One => One,
            _ => Rule::In,
        };
    }
    later_rule(s, a)
}

/// The rules after rule 8 (`in`).
fn later_rule(s: SyntaxKind, a: SyntaxKind) -> Rule {
    use Rule::{One, Zero};
    // 9, 10.
    if (a == L_BRACK && (s == IDENT || s == NUMBER || s.bracket_value() < 0)) || s == BANG {
        return Zero;
    }
    // 11 depends on the token before.
    if s == MINUS {
        return Rule::Minus;
    }
    // 12.
    if s == L_BRACE || a == R_BRACE {
        return if s == L_BRACE && a == R_BRACE {
            Zero
        } else {
            One
        };
    }
    // 13.
    if (matches!(s, INTERP_START | DIRECTIVE_START) && a == L_BRACE)
        || (s == R_BRACE && a == TEMPLATE_SEQ_END)
    {
        return One;
    }
    // 14, 15.
    if (s == TEMPLATE_SEQ_END && matches!(a, INTERP_START | DIRECTIVE_START))
        || s.bracket_value() > 0
        || a.bracket_value() < 0
    {
        return Zero;
    }
    // 16.
    One
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
