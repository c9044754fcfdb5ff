//! Where the upstream scanner's tokens differ from our lexer's in ways that
//! change the layout. Our lexer is right for the syntax tree; the
//! formatter must see what upstream sees (found by differential testing
//! against the reference formatter on broken input):
//!
//! 1. A carriage return that is not part of `\r\n`, in the text of a
//!    heredoc, matches no scanner rule there: the scanner gives up and
//!    emits everything from it to the end of the text as one invalid token,
//!    so nothing after it is formatted. (Our lexer also takes a `\r` in the
//!    indentation of a closing marker, where upstream sees heredoc text.)
//! 2. In a quoted string, a backslash that escapes nothing (it is followed
//!    by a newline, a carriage return or the end of the text) is an invalid
//!    token of its own, spaced like an ordinary token (`"a\` + newline
//!    becomes `"a\ ` + newline).
//! 3. A template that ends the text with a lone `$` or `%` (which might
//!    have started `${` / `%{`): the scanner is not in a final state, and
//!    that character is an invalid token, not literal text (`"${a}%` at the
//!    end becomes `"${a} %`).
//!
//! A fourth quirk concerns column counts only; see `align::token_cols`.

use super::bytes;
use super::tokens::Tok;
use crate::syntax_kind::SyntaxKind::*;

/// Innermost template context while walking the tokens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Heredoc,
    Quoted,
    Sequence,
}

/// What to do at a token.
enum Fix {
    /// Split off its last byte (an unpaired backslash) as an invalid token.
    SplitBackslash,
    /// Cut the tokens at this offset: one invalid token to the end.
    CutAt(u32),
}

/// Rewrites `toks` the way the upstream scanner would have split the text.
/// Returns true when the last token now runs to the end of the text.
pub(crate) fn follow_upstream_scanner(toks: &mut Vec<Tok>, text: &str) -> bool {
    let src = text.as_bytes();
    // Quirks 1 and 2 need a `\r` or a backslash.
    let fixes = if bytes::contains_any(src, [b'\r', b'\\']) {
        find_fixes(toks, src)
    } else {
        Vec::new()
    };
    let mut cut = false;
    if !fixes.is_empty() {
        let mut out = Vec::with_capacity(toks.len() + fixes.len());
        let mut next = 0;
        for (i, fix) in fixes {
            out.extend_from_slice(&toks[next..i]);
            let tok = toks[i];
            match fix {
                Fix::SplitBackslash if tok.end - 1 == tok.start => {
                    out.push(Tok {
                        kind: ERROR_TOKEN,
                        ..tok
                    });
                    next = i + 1;
                }
                Fix::SplitBackslash => {
                    out.push(Tok {
                        end: tok.end - 1,
                        ..tok
                    });
                    out.push(invalid(tok.end - 1, tok.end));
                    next = i + 1;
                }
                Fix::CutAt(at) => {
                    if at > tok.start {
                        out.push(Tok {
                            kind: TEMPLATE_LITERAL,
                            end: at,
                            ..tok
                        });
                        out.push(invalid(at, text.len() as u32));
                    } else {
                        out.push(invalid(at, text.len() as u32));
                    }
                    next = toks.len();
                    cut = true;
                }
            }
        }
        out.extend_from_slice(&toks[next..]);
        *toks = out;
    }
    mark_unfinished_sequence(toks, text);
    cut
}

/// The fixes to make, in token order (a cut is always the last).
fn find_fixes(toks: &[Tok], src: &[u8]) -> Vec<(usize, Fix)> {
    let mut fixes = Vec::new();
    let mut stack: Vec<Ctx> = Vec::new();
    for (i, &tok) in toks.iter().enumerate() {
        let ctx = stack.last().copied();
        match tok.kind {
            HEREDOC_START => stack.push(Ctx::Heredoc),
            OPEN_QUOTE => stack.push(Ctx::Quoted),
            INTERP_START | DIRECTIVE_START => stack.push(Ctx::Sequence),
            TEMPLATE_LITERAL | HEREDOC_END if ctx == Some(Ctx::Heredoc) => {
                if let Some(cr) = lone_cr(tok, src) {
                    fixes.push((i, Fix::CutAt(cr)));
                    return fixes;
                }
                if tok.kind == HEREDOC_END {
                    stack.pop();
                }
            }
            TEMPLATE_LITERAL if ctx == Some(Ctx::Quoted) && ends_with_lone_backslash(tok, src) => {
                fixes.push((i, Fix::SplitBackslash));
            }
            CLOSE_QUOTE if ctx == Some(Ctx::Quoted) => {
                stack.pop();
            }
            TEMPLATE_SEQ_END if ctx == Some(Ctx::Sequence) => {
                stack.pop();
            }
            _ => {}
        }
    }
    fixes
}

fn invalid(start: u32, end: u32) -> Tok {
    Tok {
        kind: ERROR_TOKEN,
        start,
        end,
        ends_line: false,
    }
}

/// The offset of the first carriage return in `tok` that does not start
/// a `\r\n`.
fn lone_cr(tok: Tok, src: &[u8]) -> Option<u32> {
    (tok.start as usize..tok.end as usize)
        .find(|&k| src[k] == b'\r' && src.get(k + 1) != Some(&b'\n'))
        .map(|k| k as u32)
}

/// True if the literal ends with a backslash that does not pair with an
/// escaped character inside the token.
fn ends_with_lone_backslash(tok: Tok, src: &[u8]) -> bool {
    let body = &src[tok.start as usize..tok.end as usize];
    let mut k = 0;
    while k < body.len() {
        if body[k] == b'\\' {
            if k + 1 == body.len() {
                return true;
            }
            k += 2;
        } else {
            k += 1;
        }
    }
    false
}

/// Quirk 3: a lone `$` or `%` literal at the very end of the text.
fn mark_unfinished_sequence(toks: &mut [Tok], text: &str) {
    if let Some(last) = toks.last_mut()
        && last.kind == TEMPLATE_LITERAL
        && last.end as usize == text.len()
        && matches!(last.text(text), "$" | "%")
    {
        last.kind = ERROR_TOKEN;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::TokenView;
    use super::super::tokens::tests::kinds_and_texts;
    use crate::syntax_kind::SyntaxKind::*;

    #[test]
    fn a_lone_sequence_start_at_the_end_is_invalid() {
        let view = TokenView::new("x = \"${a}%");
        assert_eq!(view.toks.last().map(|t| t.kind), Some(ERROR_TOKEN));
        let view = TokenView::new("x = \"${a}a%");
        assert_eq!(view.toks.last().map(|t| t.kind), Some(TEMPLATE_LITERAL));
    }

    #[test]
    fn a_lone_carriage_return_in_a_heredoc_ends_the_tokens() {
        let text = "x = <<EOT\n${ x }ab\r${ x }\nEOT\n  ";
        let toks = kinds_and_texts(text);
        assert_eq!(
            toks[toks.len() - 2],
            (TEMPLATE_LITERAL, "ab".to_string(), 0)
        );
        assert_eq!(
            toks[toks.len() - 1],
            (ERROR_TOKEN, "\r${ x }\nEOT\n  ".to_string(), 0)
        );
        assert_eq!(TokenView::new(text).eof_ws as usize, text.len());
        // Also in the indentation of what our lexer takes for a closing
        // marker.
        let toks = kinds_and_texts("x = <<EOT\n \rEOT\ny = 1\n");
        assert_eq!(toks[toks.len() - 2], (TEMPLATE_LITERAL, " ".to_string(), 0));
        assert_eq!(toks[toks.len() - 1].0, ERROR_TOKEN);
        // In a quoted string it is an ordinary invalid character.
        let toks = kinds_and_texts("x = \"a\rb\"\n");
        assert_eq!(toks.last().map(|t| t.0), Some(NEWLINE));
    }

    #[test]
    fn an_unpaired_backslash_before_a_newline_is_invalid() {
        let toks = kinds_and_texts("x = \"a\\\\\\\n\"\n");
        let kinds: Vec<_> = toks.iter().map(|t| t.0).collect();
        assert_eq!(
            kinds,
            [
                IDENT,
                EQ,
                OPEN_QUOTE,
                TEMPLATE_LITERAL,
                ERROR_TOKEN,
                QUOTED_NEWLINE,
                CLOSE_QUOTE,
                NEWLINE
            ]
        );
        assert_eq!(toks[3].1, "a\\\\");
        // A paired one is an escape.
        let toks = kinds_and_texts("x = \"a\\\\\n\"\n");
        assert_eq!(toks[3], (TEMPLATE_LITERAL, "a\\\\".to_string(), 0));
        assert_eq!(toks[4].0, QUOTED_NEWLINE);
        // Alone after an interpolation.
        let toks = kinds_and_texts("x = \"${a}\\");
        assert_eq!(
            toks.last().map(|t| (t.0, t.1.as_str())),
            Some((ERROR_TOKEN, "\\"))
        );
    }
}
