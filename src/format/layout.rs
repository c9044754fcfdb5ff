//! The layout engine: runs the steps over a text, for all lines or for a
//! chosen subset, and writes the result.

use super::align::align;
use super::indent::indents;
use super::lines::{Line, split_lines};
use super::spacing::space_cell;
use super::tokens::TokenView;
use crate::diff::TextEdit;
use text_size::{TextRange, TextSize};

/// A text with the spaces chosen before each of its tokens.
pub(crate) struct Layout<'a> {
    src: &'a str,
    view: TokenView,
    lines: Vec<Line>,
    /// Spaces before each token: the chosen count where `set`, otherwise
    /// the original count (used for alignment of untouched lines).
    spaces: Vec<u32>,
    /// Whether the whitespace before each token is to be rewritten.
    set: Vec<bool>,
    /// Spaces to write at the end of the text, if it is rewritten.
    eof: Option<u32>,
}

impl<'a> Layout<'a> {
    /// Lexes `src`; nothing is chosen yet.
    pub fn new(src: &'a str) -> Layout<'a> {
        Layout::with_view(src, TokenView::new(src))
    }

    /// Like [`new`](Self::new) for text known to have no syntax errors.
    pub fn new_valid(src: &'a str) -> Layout<'a> {
        Layout::with_view(src, TokenView::new_valid(src))
    }

    /// Like [`new_valid`](Self::new_valid), from the parser's tokens.
    pub fn from_valid_tokens(src: &'a str, tokens: &[crate::lexer::Token]) -> Layout<'a> {
        Layout::with_view(src, TokenView::from_valid_tokens(src, tokens))
    }

    fn with_view(src: &'a str, view: TokenView) -> Layout<'a> {
        let lines = split_lines(&view.toks);
        let spaces = view.toks.iter().map(|t| t.original_spaces()).collect();
        let set = vec![false; view.toks.len()];
        Layout {
            src,
            view,
            lines,
            spaces,
            set,
            eof: None,
        }
    }

    /// The lines, in order.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Byte range covered by line `i`: from the whitespace before its first
    /// token to the end of its last token.
    pub fn line_range(&self, i: usize) -> (u32, u32) {
        let line = &self.lines[i];
        let toks = &self.view.toks;
        (toks[line.first].ws, toks[line.end - 1].end)
    }

    /// Lays out every line canonically, as upstream does; the whitespace at
    /// the end of the text becomes plain spaces.
    pub fn format_all(&mut self) {
        self.format_lines(&|_| true);
        self.format_eof();
    }

    /// Lays out the lines for which `selected` is true, and realigns the
    /// alignment runs they belong to; other lines keep their whitespace
    /// except the space before an `=` or comment of such a run.
    pub fn format_lines(&mut self, selected: &dyn Fn(usize) -> bool) {
        let toks = &self.view.toks;
        let indent = indents(toks, &self.lines);
        for (i, line) in self.lines.iter().enumerate() {
            if !selected(i) {
                continue;
            }
            self.spaces[line.first] = indent[i];
            space_cell(toks, self.src, line.lead(), &mut self.spaces);
            let assign = line.assign_cell();
            if !assign.is_empty() {
                self.spaces[assign.start] = 1;
                space_cell(toks, self.src, assign, &mut self.spaces);
            }
            for flag in &mut self.set[line.first..line.end] {
                *flag = true;
            }
        }
        let set = &mut self.set;
        align(
            toks,
            self.src,
            &self.lines,
            &mut self.spaces,
            selected,
            &mut |i| set[i] = true,
        );
    }

    /// Also rewrites the whitespace at the end of the text as spaces.
    pub fn format_eof(&mut self) {
        self.eof = Some(self.src.len() as u32 - self.view.eof_ws);
    }

    /// The resulting text. Runs of tokens whose whitespace stays as it is
    /// are copied in one piece.
    pub fn render(&self) -> String {
        let src = self.src;
        let mut out = String::with_capacity(src.len() + src.len() / 8);
        let mut copied = 0usize;
        for (i, tok) in self.view.toks.iter().enumerate() {
            if self.set[i] && !is_spaces(&src[tok.ws as usize..tok.start as usize], self.spaces[i])
            {
                out.push_str(&src[copied..tok.ws as usize]);
                push_spaces(&mut out, self.spaces[i]);
                copied = tok.start as usize;
            }
        }
        match self.eof {
            Some(n) if !is_spaces(&src[self.view.eof_ws as usize..], n) => {
                out.push_str(&src[copied..self.view.eof_ws as usize]);
                push_spaces(&mut out, n);
            }
            _ => out.push_str(&src[copied..]),
        }
        out
    }

    /// The changes as sorted, non-overlapping edits of whitespace runs.
    pub fn edits(&self) -> Vec<TextEdit> {
        let mut edits = Vec::new();
        let mut push = |from: u32, to: u32, n: u32| {
            if !is_spaces(&self.src[from as usize..to as usize], n) {
                let range = TextRange::new(TextSize::from(from), TextSize::from(to));
                edits.push(TextEdit::replace(range, " ".repeat(n as usize)));
            }
        };
        for (i, tok) in self.view.toks.iter().enumerate() {
            if self.set[i] {
                push(tok.ws, tok.start, self.spaces[i]);
            }
        }
        if let Some(n) = self.eof {
            push(self.view.eof_ws, self.src.len() as u32, n);
        }
        edits
    }
}

/// True if `ws` is exactly `n` spaces.
fn is_spaces(ws: &str, n: u32) -> bool {
    ws.len() == n as usize && ws.bytes().all(|b| b == b' ')
}

fn push_spaces(out: &mut String, n: u32) {
    const SPACES: &str = "                                                                ";
    let mut n = n as usize;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}
