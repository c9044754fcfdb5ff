//! Step 4: vertical alignment of `=` signs, then of trailing comments.
//!
//! Columns are counted in extended grapheme clusters (as upstream does),
//! not in display width, with each space before a token counting one.

use unicode_segmentation::UnicodeSegmentation;

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
fn cols(toks: &[Tok], src: &str, spaces: &[u32], range: std::ops::Range<usize>) -> u32 {
    range.map(|i| spaces[i] + token_cols(&toks[i], src)).sum()
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
/// aligned; `mark` is called with the index of each token whose space was
/// set.
pub(crate) fn align(
    toks: &[Tok],
    src: &str,
    lines: &[Line],
    spaces: &mut [u32],
    in_scope: &dyn Fn(usize) -> bool,
    mark: &mut dyn FnMut(usize),
) {
    for run in runs(lines, |l| l.assign.is_some()) {
        if !run.clone().any(in_scope) {
            continue;
        }
        let widths: Vec<u32> = lines[run.clone()]
            .iter()
            .map(|l| cols(toks, src, spaces, l.lead()))
            .collect();
        let max = widths.iter().copied().max().unwrap_or(0);
        for (line, width) in lines[run].iter().zip(widths) {
            if let Some(eq) = line.assign {
                spaces[eq] = max - width + 1;
                mark(eq);
            }
        }
    }
    for run in runs(lines, |l| l.comment.is_some()) {
        if !run.clone().any(in_scope) {
            continue;
        }
        let widths: Vec<u32> = lines[run.clone()]
            .iter()
            .map(|l| cols(toks, src, spaces, l.before_comment()))
            .collect();
        let max = widths.iter().copied().max().unwrap_or(0);
        for (line, width) in lines[run].iter().zip(widths) {
            if let Some(comment) = line.comment {
                spaces[comment] = max - width + 1;
                mark(comment);
            }
        }
    }
}

/// Maximal runs of consecutive lines for which `has` is true.
fn runs(lines: &[Line], has: impl Fn(&Line) -> bool) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, line) in lines.iter().enumerate() {
        match (has(line), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..lines.len());
    }
    out
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
