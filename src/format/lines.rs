//! Step 1: lines and their cells (lead, assign, comment).
//!
//! A line ends after a token that ends a line (a newline or a line comment
//! with its newline); a heredoc therefore stays inside the line of its
//! opener. The end of the text belongs to no line.

use super::tokens::Tok;
use crate::syntax_kind::SyntaxKind::*;

/// One line, as token indexes: `first..end` in total, split into the lead
/// (`first..assign_or_comment`), the assign cell (`assign..comment_or_end`)
/// and the comment cell (`comment..end`, one token).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// Index of the first token.
    pub first: usize,
    /// Index of the `=` that starts the assign cell, if there is one.
    pub assign: Option<usize>,
    /// Index of the comment token of the comment cell, if there is one.
    pub comment: Option<usize>,
    /// One past the last token.
    pub end: usize,
}

impl Line {
    /// Token indexes of the lead cell.
    pub fn lead(&self) -> std::ops::Range<usize> {
        self.first..self.assign.or(self.comment).unwrap_or(self.end)
    }

    /// Token indexes of the assign cell (empty when there is none).
    pub fn assign_cell(&self) -> std::ops::Range<usize> {
        match self.assign {
            Some(a) => a..self.comment.unwrap_or(self.end),
            None => 0..0,
        }
    }

    /// Token indexes of the lead and assign cells together.
    pub fn before_comment(&self) -> std::ops::Range<usize> {
        self.first..self.comment.unwrap_or(self.end)
    }

    /// True for a line that holds only a newline.
    pub fn is_blank(&self, toks: &[Tok]) -> bool {
        toks[self.first].kind == NEWLINE
    }
}

/// Splits the tokens into lines and each line into cells.
pub(crate) fn split_lines(toks: &[Tok]) -> Vec<Line> {
    let mut lines = Vec::with_capacity(toks.len() / 4 + 1);
    let mut first = 0;
    for (i, tok) in toks.iter().enumerate() {
        if tok.ends_line {
            lines.push(cells(toks, first, i + 1));
            first = i + 1;
        }
    }
    if first < toks.len() {
        lines.push(cells(toks, first, toks.len()));
    }
    lines
}

/// Finds the cells of the line `first..end`.
fn cells(toks: &[Tok], first: usize, end: usize) -> Line {
    let comment = (end - first > 1 && toks[end - 1].kind == COMMENT).then_some(end - 1);
    let lead_end = comment.unwrap_or(end);
    // Unlike indentation, this count does not stop at a heredoc opener.
    let assign = (first + 1..lead_end)
        .find(|&i| toks[i].kind == EQ)
        .filter(|&eq| {
            toks[eq..lead_end]
                .iter()
                .map(|t| t.kind.bracket_value())
                .sum::<i32>()
                == 0
        });
    Line {
        first,
        assign,
        comment,
        end,
    }
}

/// Sum of the bracket values of `toks`, stopping right after a heredoc
/// opener (used for the lead cell's share of the indentation).
pub(crate) fn net_brackets(toks: &[Tok]) -> i32 {
    let mut net = 0;
    for tok in toks {
        net += tok.kind.bracket_value();
        if tok.kind == HEREDOC_START {
            break;
        }
    }
    net
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
                    join(l.comment.map_or(0..0, |c| c..c + 1)),
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
