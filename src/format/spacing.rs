//! Step 3: the space between two adjacent tokens of the same cell.
//!
//! The rules (`format-rules.md`, step 3) look at the kinds of the two
//! tokens, and two of them also at the token before and at the text `in`.
//! They are evaluated once for every pair of token kinds into a table, so
//! spacing a cell costs one lookup per token.

use std::ops::Range;
use std::sync::LazyLock;

use super::tokens::Tok;
use crate::syntax_kind::SyntaxKind::{self, *};

/// Number of token kinds (they come first among the kinds).
const TOKEN_KINDS: usize = CONFIG_FILE as usize;

/// What the rules decide for a pair of token kinds S → A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// No space.
    Zero,
    /// One space.
    One,
    /// S is an identifier: one space if it is `in` after an identifier
    /// (rule 8), otherwise one space if the flag is true.
    InOr(bool),
    /// S is `-`: no space if it is a negation (rule 11).
    Minus,
}

/// The decision of every pair of token kinds, indexed by kind values.
struct Table([[Rule; TOKEN_KINDS]; TOKEN_KINDS]);

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let mut table = [[Rule::Zero; TOKEN_KINDS]; TOKEN_KINDS];
    let kinds = || SyntaxKind::all().filter(|k| k.is_token());
    for s in kinds() {
        for a in kinds() {
            table[s as usize][a as usize] = rule(s, a);
        }
    }
    Table(table)
});

/// Sets the spaces before every token of `cell` but the first, from the
/// token before it (`spaces[i]` is the space before token `i`).
pub(crate) fn space_cell(toks: &[Tok], src: &str, cell: Range<usize>, spaces: &mut [u32]) {
    let table = &*TABLE;
    let toks = &toks[cell.clone()];
    let spaces = &mut spaces[cell];
    let mut before: Option<SyntaxKind> = None;
    for (k, pair) in toks.windows(2).enumerate() {
        let (subject, after) = (&pair[0], &pair[1]);
        spaces[k + 1] = u32::from(table.space(subject, before, after, src));
        before = Some(subject.kind);
    }
}

impl Table {
    /// True when one space goes between `subject` and `after`; `before` is
    /// the kind of the token before `subject` in the same cell.
    #[inline]
    fn space(&self, subject: &Tok, before: Option<SyntaxKind>, after: &Tok, src: &str) -> bool {
        match self.0[subject.kind as usize][after.kind as usize] {
            Rule::Zero => false,
            Rule::One => true,
            Rule::InOr(otherwise) => {
                otherwise || (before == Some(IDENT) && subject.text(src) == "in")
            }
            Rule::Minus => !before.is_none_or(negation_follows),
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
        return Rule::InOr(later_rule(s, a) == Rule::One);
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
