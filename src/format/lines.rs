//! Step 1: lines and their cells (lead, assign, comment).
//!
//! A line ends after a token that ends a line (a newline or a line comment
//! with its newline); a heredoc therefore stays inside the line of its
//! opener. The end of the text belongs to no line.

use std::sync::LazyLock;

use super::tokens::Tok;
use crate::syntax_kind::SyntaxKind::{self, *};

/// One line, as token indexes: `first..end` in total, split into the lead
/// (`first..assign_or_comment`), the assign cell (`assign..comment_or_end`)
/// and the comment cell (`comment..end`, one token). Indexes are stored
/// in 32 bits (offsets in the text are too): a line takes 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    first: u32,
    end: u32,
    assign: Option<u32>,
    net: i32,
    has_comment: bool,
}

impl Line {
    /// Index of the first token.
    pub fn first(&self) -> usize {
        self.first as usize
    }

    /// One past the last token.
    pub fn end(&self) -> usize {
        self.end as usize
    }

    /// Index of the `=` that starts the assign cell, if there is one.
    pub fn assign(&self) -> Option<usize> {
        self.assign.map(|a| a as usize)
    }

    /// Index of the comment token of the comment cell, if there is one.
    pub fn comment(&self) -> Option<usize> {
        self.has_comment.then(|| self.end() - 1)
    }

    /// Sum of the bracket values of the lead cell, stopping right after a
    /// heredoc opener: the line's share of the indentation (the assign
    /// cell balances by definition).
    pub fn net(&self) -> i32 {
        self.net
    }

    /// Token indexes of the whole line.
    pub fn tokens(&self) -> std::ops::Range<usize> {
        self.first()..self.end()
    }

    /// Token indexes of the lead cell.
    pub fn lead(&self) -> std::ops::Range<usize> {
        self.first()..self.assign().or(self.comment()).unwrap_or(self.end())
    }

    /// Token indexes of the assign cell (empty when there is none).
    #[cfg(test)]
    pub fn assign_cell(&self) -> std::ops::Range<usize> {
        match self.assign() {
            Some(a) => a..self.comment().unwrap_or(self.end()),
            None => 0..0,
        }
    }

    /// Token indexes of the lead and assign cells together.
    pub fn before_comment(&self) -> std::ops::Range<usize> {
        self.first()..self.comment().unwrap_or(self.end())
    }

    /// True for a line that holds only a newline.
    pub fn is_blank(&self, toks: &[Tok]) -> bool {
        toks[self.first()].kind == NEWLINE
    }
}

/// Splits the tokens into lines and each line into cells.
#[cfg(test)]
pub(crate) fn split_lines(toks: &[Tok]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut scan = LineScan::new();
    for (i, tok) in toks.iter().enumerate() {
        scan.push(i, tok);
        if tok.ends_line {
            lines.push(scan.finish(toks, i + 1));
        }
    }
    if scan.first() < toks.len() {
        lines.push(scan.finish(toks, toks.len()));
    }
    lines
}

/// Number of kinds, for tables indexed by any kind.
const KINDS: usize = SyntaxKind::LAST as usize + 1;

/// The bracket value of every kind, looked up faster than computed.
static BRACKETS: LazyLock<[i32; KINDS]> = LazyLock::new(|| {
    let mut table = [0; KINDS];
    for kind in SyntaxKind::all() {
        table[kind as usize] = kind.bracket_value();
    }
    table
});

/// Reads the tokens in order and finds the lines and their cells.
pub(crate) struct LineScan {
    brackets: &'static [i32; KINDS],
    /// Index of the first token of the current line.
    first: usize,
    /// The first `=` that is not the first token.
    eq: Option<usize>,
    /// Sum of the bracket values from that `=` on.
    after_eq: i32,
    /// Sum of the bracket values so far, stopping after a heredoc opener.
    net: i32,
    /// `net` just before the `=`.
    net_before_eq: i32,
    /// What of a bracket value counts in `after_eq`: no bit before the
    /// `=`, every bit from it on (masks instead of branches).
    after_eq_bits: i32,
    /// What of a bracket value counts in `net`: every bit up to a heredoc
    /// opener, no bit after it.
    net_bits: i32,
}

impl LineScan {
    /// Before the first token.
    pub fn new() -> LineScan {
        LineScan::at(&BRACKETS, 0)
    }

    /// Before token `first`, the first of a line.
    fn at(brackets: &'static [i32; KINDS], first: usize) -> LineScan {
        LineScan {
            brackets,
            first,
            eq: None,
            after_eq: 0,
            net: 0,
            net_before_eq: 0,
            after_eq_bits: 0,
            net_bits: !0,
        }
    }

    /// Index of the first token of the current line.
    pub fn first(&self) -> usize {
        self.first
    }

    /// Reads token `i`, the next one.
    #[inline]
    pub fn push(&mut self, i: usize, tok: &Tok) {
        let value = self.brackets[tok.kind as usize];
        self.after_eq += value & self.after_eq_bits;
        self.net += value & self.net_bits;
        if tok.kind == EQ && self.eq.is_none() && i > self.first {
            self.eq = Some(i);
            self.net_before_eq = self.net;
            self.after_eq_bits = !0;
        }
        if tok.kind == HEREDOC_START {
            self.net_bits = 0;
        }
    }

    /// The current line, once its last token (before `end`) was read; the
    /// next line starts at `end`. Unlike indentation, the balance of the
    /// assign cell does not stop at a heredoc opener; a comment has no
    /// bracket value.
    pub fn finish(&mut self, toks: &[Tok], end: usize) -> Line {
        let first = self.first;
        let has_comment = end - first > 1 && toks[end - 1].kind == COMMENT;
        let assign = self.eq.filter(|_| self.after_eq == 0);
        let net = if assign.is_some() {
            self.net_before_eq
        } else {
            self.net
        };
        *self = LineScan::at(self.brackets, end);
        // Token counts are below text lengths, which fit in 32 bits.
        Line {
            first: first as u32,
            end: end as u32,
            assign: assign.map(|a| a as u32),
            net,
            has_comment,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::TokenView;
    use super::*;

    fn texts(text: &str) -> Vec<(String, String, String)> {
        let view = TokenView::new(text);
        let join = |r: std::ops::Range<usize>| {
            view.toks[r]
                .iter()
                .map(|t| t.text(text))
                .collect::<Vec<_>>()
                .join(" ")
        };
        split_lines(&view.toks)
            .iter()
            .map(|l| {
                (
                    join(l.lead()),
                    join(l.assign_cell()),
                    join(l.comment().map_or(0..0, |c| c..c + 1)),
                )
            })
            .collect()
    }

    fn cell(a: &str, b: &str, c: &str) -> (String, String, String) {
        (a.to_string(), b.to_string(), c.to_string())
    }

    #[test]
    fn cells_of_typical_lines() {
        assert_eq!(
            texts("a = 1 # c\n# only\nb = {\n  c == d\n}"),
            [
                cell("a", "= 1", "# c\n"),
                cell("# only\n", "", ""),
                cell("b = { \n", "", ""),
                cell("c == d \n", "", ""),
                cell("}", "", ""),
            ]
        );
    }

    #[test]
    fn only_the_first_equals_is_tried() {
        // The first `=` opens a bracket, so there is no assign cell even
        // though the second `=` would balance.
        assert_eq!(texts("x = { a = 1\n"), [cell("x = { a = 1 \n", "", "")]);
        assert_eq!(texts("= 1\n"), [cell("= 1 \n", "", "")]);
    }

    #[test]
    fn heredoc_stays_in_its_line() {
        let lines = texts("a = <<EOT\n${x}\nEOT\nb = 2\n");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].1, "= <<EOT\n ${ x } \n EOT \n");
    }
}
