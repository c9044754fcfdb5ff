//! Step 4: vertical alignment of `=` signs, then of trailing comments.
//!
//! Columns are counted in extended grapheme clusters (as upstream does),
//! not in display width, with each space before a token counting one.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;

use super::bytes;
use super::lines::Line;
use super::tokens::Tok;
use crate::syntax_kind::SyntaxKind::TEMPLATE_LITERAL;

/// Number of extended grapheme clusters in `text` (`\r\n` is one).
pub(crate) fn graphemes(text: &str) -> u32 {
    if text.is_ascii() {
        let crlf = text.as_bytes().windows(2).filter(|w| w == b"\r\n").count();
        (text.len() - crlf) as u32
    } else {
        text.graphemes(true).count() as u32
    }
}

/// Columns taken by the tokens `range`: their spaces before and their
/// grapheme counts.
fn cols(toks: &[Tok], src: &str, spaces: &[u32], range: Range<usize>) -> u32 {
    let (toks, spaces) = (&toks[range.clone()], &spaces[range]);
    let (Some(first), Some(last)) = (toks.first(), toks.last()) else {
        return 0;
    };
    let text = &src.as_bytes()[first.start as usize..last.end as usize];
    let pairs = toks.iter().zip(spaces);
    if bytes::ascii_without_cr(text) {
        pairs.map(|(t, &n)| n + t.end - t.start).sum()
    } else {
        pairs.map(|(t, &n)| n + token_cols(t, src)).sum()
    }
}

/// The grapheme count of a token as upstream sees it. One quirk: in a
/// heredoc line ending with a lone `$` or `%` and `\r\n`, the upstream
/// scanner takes the `\r` with the `$` (it might have started `${`) and
/// the `\n` as a token of its own, so the CRLF counts as two clusters.
fn token_cols(tok: &Tok, src: &str) -> u32 {
    let text = tok.text(src);
    let mut n = graphemes(text);
    if tok.kind == TEMPLATE_LITERAL && (text.ends_with("$\r\n") || text.ends_with("%\r\n")) {
        let sigil = tok.end as usize - 3;
        let doubled = sigil > 0 && matches!(src.as_bytes()[sigil - 1], b'$' | b'%');
        if !doubled {
            n += 1;
        }
    }
    n
}

/// Aligns the `=` of every run of consecutive lines that have an assign
/// cell, then the comment of every run of consecutive lines that have a
/// comment cell. Only runs holding a line for which `in_scope` is true are
/// aligned (every run when it is `None`); `mark` is called with the index
/// of each token whose space was set.
pub(crate) fn align(
    toks: &[Tok],
    src: &str,
    lines: &[Line],
    spaces: &mut [u32],
    in_scope: Option<&dyn Fn(usize) -> bool>,
    mark: &mut dyn FnMut(usize),
) {
    let mut widths = Vec::new();
    let mut aligner = Aligner {
        toks,
        src,
        lines,
        spaces,
        in_scope,
        mark,
        widths: &mut widths,
    };
    aligner.align_runs(Line::assign, Line::lead);
    aligner.align_runs(Line::comment, Line::before_comment);
}

/// What aligning needs, for both kinds of runs.
struct Aligner<'a, 'm> {
    toks: &'a [Tok],
    src: &'a str,
    lines: &'a [Line],
    spaces: &'a mut [u32],
    in_scope: Option<&'a dyn Fn(usize) -> bool>,
    mark: &'a mut dyn FnMut(usize),
    /// Scratch space for the widths of a run.
    widths: &'m mut Vec<u32>,
}

impl Aligner<'_, '_> {
    /// Aligns the token `aligned` gives for each line of every maximal run
    /// of lines that have one, so that the `cells` before it end in the
    /// same column.
    fn align_runs(
        &mut self,
        aligned: impl Fn(&Line) -> Option<usize>,
        cells: impl Fn(&Line) -> Range<usize>,
    ) {
        let lines = self.lines;
        let mut i = 0;
        while i < lines.len() {
            if aligned(&lines[i]).is_none() {
                i += 1;
                continue;
            }
            let start = i;
            while i < lines.len() && aligned(&lines[i]).is_some() {
                i += 1;
            }
            let run = start..i;
            if self.in_scope.is_some_and(|f| !run.clone().any(f)) {
                continue;
            }
            if run.len() == 1 {
                // The line is its own widest.
                self.set(aligned(&lines[start]), 1);
                continue;
            }
            self.widths.clear();
            for line in &lines[run.clone()] {
                let width = cols(self.toks, self.src, self.spaces, cells(line));
                self.widths.push(width);
            }
            let max = self.widths.iter().copied().max().unwrap_or(0);
            for (line, k) in lines[run].iter().zip(0..) {
                let width = self.widths[k];
                self.set(aligned(line), max - width + 1);
            }
        }
    }

    fn set(&mut self, tok: Option<usize>, n: u32) {
        if let Some(tok) = tok {
            self.spaces[tok] = n;
            (self.mark)(tok);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grapheme_counts() {
        assert_eq!(graphemes("abc"), 3);
        assert_eq!(graphemes("a\r\nb"), 3);
        assert_eq!(graphemes("\"é\""), 3);
        // e + combining acute accent is one cluster.
        assert_eq!(graphemes("e\u{301}"), 1);
        // A wide CJK character is one cluster (display width is not used).
        assert_eq!(graphemes("日本"), 2);
        // A family emoji joined with ZWJ is one cluster.
        assert_eq!(graphemes("👨\u{200d}👩\u{200d}👧"), 1);
    }
}
