//! The token stream as the upstream formatter sees it.
//!
//! Built from the lexer in upstream-compatible mode, with two adjustments
//! (see `format-rules.md`, "Tokens as the formatter sees them"):
//! - a `#` / `//` comment and the newline right after it are one token, so
//!   that a line ends after such a comment;
//! - whitespace is not a token: each token records where the run of
//!   spaces/tabs before it starts. A byte order mark at the start counts as
//!   part of the first token's leading whitespace (upstream counts it as
//!   indentation, which the formatter then resets).

use super::{bytes, quirks};
use crate::lexer::{LexOptions, StartMode, Token, tokenize_with};
use crate::scratch;

thread_local! {
    /// The token vector of the last view dropped on this thread.
    static TOKS: std::cell::Cell<Vec<Tok>> = const { std::cell::Cell::new(Vec::new()) };
}
use crate::syntax_kind::SyntaxKind::{self, *};

/// One token: its kind and where its text lies. The whitespace before it
/// starts where the token before it ends (see [`ws_before`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tok {
    /// The kind; a line comment merged with its newline stays `COMMENT`.
    pub kind: SyntaxKind,
    /// Byte offset where the token text starts.
    pub start: u32,
    /// Byte offset just past the token text.
    pub end: u32,
    /// True when a line ends after this token (a newline, or a line
    /// comment that includes its newline).
    pub ends_line: bool,
}

impl Tok {
    /// A value to fill buffers with before the tokens are written.
    const PLACEHOLDER: Tok = Tok {
        kind: ERROR_TOKEN,
        start: 0,
        end: 0,
        ends_line: false,
    };

    /// The token text.
    #[inline]
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start as usize..self.end as usize]
    }
}

/// Byte offset where the whitespace before `toks[i]` starts: the end of
/// the token before it (only whitespace lies between tokens), or the start
/// of the text.
#[inline]
pub(crate) fn ws_before(toks: &[Tok], i: usize) -> u32 {
    match i.checked_sub(1) {
        Some(prev) => toks[prev].end,
        None => 0,
    }
}

/// Length in bytes of the original whitespace before `toks[i]` (what
/// upstream calls "spaces before": a tab or a BOM byte counts as one).
#[inline]
pub(crate) fn original_spaces(toks: &[Tok], i: usize) -> u32 {
    toks[i].start - ws_before(toks, i)
}

/// The tokens of a text, plus the whitespace after the last one.
#[derive(Clone, Debug)]
pub(crate) struct TokenView {
    /// Every significant token, in order.
    pub toks: Vec<Tok>,
    /// Byte offset where the whitespace after the last token starts (equal
    /// to the text length when the text ends with a token).
    pub eof_ws: u32,
    /// True when every run of whitespace is made of spaces only (no tab,
    /// no byte order mark), so that it is `n` spaces exactly when it is
    /// `n` bytes long.
    pub plain_ws: bool,
}

impl Drop for TokenView {
    fn drop(&mut self) {
        scratch::give_back(&TOKS, std::mem::take(&mut self.toks));
    }
}

impl TokenView {
    /// Lexes `text` the way the upstream formatter does.
    pub fn new(text: &str) -> TokenView {
        TokenView::lex(text, false)
    }

    /// Like [`new`](Self::new), for text known to have no syntax errors:
    /// the upstream scanner's quirks only ever concern broken input, so
    /// they are not looked for.
    pub fn new_valid(text: &str) -> TokenView {
        TokenView::lex(text, true)
    }

    /// For text known to have no syntax errors, from the tokens the parser
    /// already lexed: without syntax errors the parser's token stream and
    /// the upstream-compatible one are the same (they differ only in how
    /// broken input is split).
    pub fn from_valid_tokens(text: &str, tokens: &[Token]) -> TokenView {
        TokenView::build(text, tokens, true)
    }

    fn lex(text: &str, valid: bool) -> TokenView {
        let lexed = tokenize_with(
            text,
            LexOptions {
                start: StartMode::Config,
                upstream_compat: true,
            },
        );
        let view = TokenView::build(text, &lexed.tokens, valid);
        crate::lexer::recycle(lexed.tokens);
        view
    }

    fn build(text: &str, tokens: &[Token], valid: bool) -> TokenView {
        let src = text.as_bytes();
        // Written into a buffer of the largest possible size, slot after
        // slot, so that the loop makes no calls and checks no index.
        let mut toks = scratch::take(&TOKS, tokens.len());
        toks.resize(tokens.len(), Tok::PLACEHOLDER);
        let mut slots = toks.iter_mut();
        let mut last: Option<&mut Tok> = None;
        let mut len = 0usize;
        let mut offset = 0u32;
        // Tokens are contiguous and only whitespace is skipped, so the
        // whitespace before a token starts where the previous one ends.
        let mut prev_end = 0u32;
        for token in tokens {
            let start = offset;
            offset += token.len;
            match (token.kind, last.as_deref_mut()) {
                (WHITESPACE | BOM, _) => continue,
                (NEWLINE, Some(comment)) if start == prev_end && takes_newline(comment, src) => {
                    // The comment just before takes its newline.
                    comment.end = offset;
                    comment.ends_line = true;
                }
                (kind, _) => {
                    // There are as many slots as tokens.
                    let Some(slot) = slots.next() else { break };
                    *slot = Tok {
                        kind,
                        start,
                        end: offset,
                        ends_line: kind == NEWLINE,
                    };
                    last = Some(slot);
                    len += 1;
                }
            }
            prev_end = offset;
        }
        toks.truncate(len);
        let mut eof_ws = prev_end;
        if !valid && quirks::follow_upstream_scanner(&mut toks, text) {
            // The last token runs to the end of the text.
            eof_ws = offset;
        }
        let plain_ws = !text.starts_with('\u{feff}') && !bytes::contains_any(src, [b'\t']);
        TokenView {
            toks,
            eof_ws,
            plain_ws,
        }
    }
}

/// True if `prev` is a `#` or `//` comment not yet holding a newline.
fn takes_newline(prev: &Tok, src: &[u8]) -> bool {
    prev.kind == COMMENT && !prev.ends_line && {
        let text = &src[prev.start as usize..prev.end as usize];
        text.starts_with(b"#") || text.starts_with(b"//")
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Kind, text and original spaces of each token of the view.
    pub(in crate::format) fn kinds_and_texts(text: &str) -> Vec<(SyntaxKind, String, u32)> {
        let view = TokenView::new(text);
        view.toks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                (
                    t.kind,
                    t.text(text).to_string(),
                    original_spaces(&view.toks, i),
                )
            })
            .collect()
    }

    #[test]
    fn line_comment_takes_its_newline() {
        let toks = kinds_and_texts("a = 1 # c\r\n/* d */\n");
        assert_eq!(
            toks,
            [
                (IDENT, "a".to_string(), 0),
                (EQ, "=".to_string(), 1),
                (NUMBER, "1".to_string(), 1),
                (COMMENT, "# c\r\n".to_string(), 1),
                (COMMENT, "/* d */".to_string(), 0),
                (NEWLINE, "\n".to_string(), 0),
            ]
        );
    }

    #[test]
    fn bom_and_tabs_count_as_spaces_before() {
        let toks = kinds_and_texts("\u{feff}\ta\t=1");
        assert_eq!(toks[0], (IDENT, "a".to_string(), 4));
        assert_eq!(toks[1], (EQ, "=".to_string(), 1));
        assert_eq!(toks[2], (NUMBER, "1".to_string(), 0));
    }

    #[test]
    fn trailing_whitespace_is_remembered() {
        let view = TokenView::new("a = 1\n \t");
        assert_eq!(view.eof_ws, 6);
        let view = TokenView::new("a");
        assert_eq!(view.eof_ws, 1);
        let view = TokenView::new("# only");
        assert_eq!(view.toks.len(), 1);
        assert!(!view.toks[0].ends_line);
    }
}
