//! The layout engine: runs the steps over a text, for all lines or for a
//! chosen subset, and writes the result.

use std::ops::ControlFlow;

use super::align::align;
use super::indent::Indenter;
use super::lines::{Line, LineScan};
use super::spacing::Spacer;
use super::tokens::{Tok, TokenView, original_spaces, ws_before};
use crate::diff::TextEdit;
use crate::scratch;
use crate::syntax_kind::SyntaxKind;
use text_size::{TextRange, TextSize};

/// A text with the spaces chosen before each of its tokens.
pub(crate) struct Layout<'a> {
    src: &'a str,
    view: TokenView,
    lines: Vec<Line>,
    /// Spaces before each token: the canonical spacing inside the lines
    /// once built; once lines are chosen, the chosen count where set and
    /// the original count elsewhere (used for alignment of untouched
    /// lines).
    spaces: Vec<u32>,
    /// Which tokens have their whitespace rewritten.
    set: Chosen,
    /// Spaces to write at the end of the text, if it is rewritten.
    eof: Option<u32>,
}

thread_local! {
    /// The line and space vectors of the last layout dropped on this
    /// thread.
    static LINES: std::cell::Cell<Vec<Line>> = const { std::cell::Cell::new(Vec::new()) };
    static SPACES: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Layout<'_> {
    fn drop(&mut self) {
        scratch::give_back(&LINES, std::mem::take(&mut self.lines));
        scratch::give_back(&SPACES, std::mem::take(&mut self.spaces));
    }
}

/// The tokens whose whitespace is rewritten.
enum Chosen {
    /// None yet.
    Nothing,
    /// Every token.
    All,
    /// The tokens whose flag is true.
    Some(Vec<bool>),
}

impl Chosen {
    #[inline]
    fn contains(&self, i: usize) -> bool {
        match self {
            Chosen::Nothing => false,
            Chosen::All => true,
            Chosen::Some(set) => set[i],
        }
    }
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

    /// A layout of `src` from its tokens, viewed as the formatter views
    /// them.
    pub(crate) fn with_view(src: &'a str, view: TokenView) -> Layout<'a> {
        let (lines, spaces) = space_lines(&view.toks, src);
        Layout {
            src,
            view,
            lines,
            spaces,
            set: Chosen::Nothing,
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
        (ws_before(toks, line.first()), toks[line.end() - 1].end)
    }

    /// Lays out every line canonically, as upstream does; the whitespace at
    /// the end of the text becomes plain spaces. Call it, or
    /// [`format_lines`](Self::format_lines), once.
    pub fn format_all(&mut self) {
        let toks = &self.view.toks;
        let mut indenter = Indenter::new();
        for line in &self.lines {
            let indent = indenter.next(toks, line);
            start_cells(line, indent, &mut self.spaces);
        }
        self.set = Chosen::All;
        align(
            toks,
            self.src,
            &self.lines,
            &mut self.spaces,
            None,
            &mut |_| {},
        );
        self.format_eof();
    }

    /// Lays out the lines for which `selected` is true, and realigns the
    /// alignment runs they belong to; other lines keep their whitespace
    /// except the space before an `=` or comment of such a run. Call it,
    /// or [`format_all`](Self::format_all), once.
    pub fn format_lines(&mut self, selected: &dyn Fn(usize) -> bool) {
        let toks = &self.view.toks;
        let mut set = vec![false; toks.len()];
        let mut indenter = Indenter::new();
        for (i, line) in self.lines.iter().enumerate() {
            let indent = indenter.next(toks, line);
            let tokens = line.tokens();
            if selected(i) {
                start_cells(line, indent, &mut self.spaces);
                set[tokens].fill(true);
            } else {
                for (i, space) in tokens.clone().zip(&mut self.spaces[tokens]) {
                    *space = original_spaces(toks, i);
                }
            }
        }
        align(
            toks,
            self.src,
            &self.lines,
            &mut self.spaces,
            Some(selected),
            &mut |i| set[i] = true,
        );
        self.set = Chosen::Some(set);
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
        let _ = self.try_for_each_change(|Change { from, to, spaces }| {
            out.push_str(&src[copied..from as usize]);
            push_spaces(&mut out, spaces);
            copied = to as usize;
            ControlFlow::<()>::Continue(())
        });
        out.push_str(&src[copied..]);
        out
    }

    /// True when the result is the text itself. Stops at the first
    /// change.
    pub fn is_unchanged(&self) -> bool {
        self.try_for_each_change(|_| ControlFlow::Break(()))
            .is_continue()
    }

    /// The changes as sorted, non-overlapping edits of whitespace runs.
    pub fn edits(&self) -> Vec<TextEdit> {
        let mut edits = Vec::new();
        let _ = self.try_for_each_change(|Change { from, to, spaces }| {
            let range = TextRange::new(TextSize::from(from), TextSize::from(to));
            edits.push(TextEdit::replace(range, " ".repeat(spaces as usize)));
            ControlFlow::<()>::Continue(())
        });
        edits
    }

    /// Calls `f` with each run of whitespace to replace, in order, until
    /// it breaks.
    fn try_for_each_change<B>(
        &self,
        mut f: impl FnMut(Change) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let src = self.src.as_bytes();
        let plain = self.view.plain_ws;
        let stays = |from: u32, to: u32, n: u32| {
            to - from == n && (plain || src[from as usize..to as usize].iter().all(|&b| b == b' '))
        };
        let toks = &self.view.toks;
        for (i, (tok, &spaces)) in toks.iter().zip(&self.spaces).enumerate() {
            let ws = ws_before(toks, i);
            if !stays(ws, tok.start, spaces) && self.set.contains(i) {
                f(Change {
                    from: ws,
                    to: tok.start,
                    spaces,
                })?;
            }
        }
        if let Some(spaces) = self.eof {
            let (from, to) = (self.view.eof_ws, src.len() as u32);
            if !stays(from, to, spaces) {
                f(Change { from, to, spaces })?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// A run of whitespace `from..to` to replace by `spaces` spaces.
struct Change {
    from: u32,
    to: u32,
    spaces: u32,
}

/// Steps 1 and 3 in one pass over the tokens: splits them into lines,
/// and gives every token but the first of its line the space the spacing
/// rules give it after the token before it.
///
/// The rules apply inside a cell, but going by lines instead changes
/// nothing that stays: the space before the `=` that starts an assign
/// cell is set by [`start_cells`], the one before a comment cell by the
/// alignment, and the token before the subject (which only counts when
/// the subject is an identifier or a `-`) differs only when the subject is
/// that `=`.
fn space_lines(toks: &[Tok], src: &str) -> (Vec<Line>, Vec<u32>) {
    let spacer = Spacer::new(src);
    let mut spaces = scratch::take(&SPACES, toks.len());
    spaces.resize(toks.len(), 0);
    let mut lines = scratch::take(&LINES, toks.len() / 4 + 1);
    let mut scan = LineScan::new();
    // The token before, in the same line, and the kind of the one before it.
    let mut prev: Option<&Tok> = None;
    let mut before: Option<SyntaxKind> = None;
    for (i, (tok, space)) in toks.iter().zip(&mut spaces).enumerate() {
        if let Some(subject) = prev {
            *space = spacer.space(before, subject, tok);
            before = Some(subject.kind);
        }
        prev = Some(tok);
        scan.push(i, tok);
        if tok.ends_line {
            lines.push(scan.finish(toks, i + 1));
            (prev, before) = (None, None);
        }
    }
    if scan.first() < toks.len() {
        lines.push(scan.finish(toks, toks.len()));
    }
    (lines, spaces)
}

/// Sets the spaces [`space_lines`] leaves: `indent` before the first token
/// of `line`, one before the `=` of its assign cell (alignment may widen
/// it).
fn start_cells(line: &Line, indent: u32, spaces: &mut [u32]) {
    spaces[line.first()] = indent;
    if let Some(assign) = line.assign() {
        spaces[assign] = 1;
    }
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
