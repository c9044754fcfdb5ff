//! The template language: quoted strings, heredocs, standalone templates,
//! interpolations and `if` / `for` directives.

use super::{Parser, bracket_balance, expr};
use crate::syntax_kind::SyntaxKind::*;

/// Where template parts appear.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// `"…"`: escapes are checked.
    Quoted,
    /// A block label: escapes are checked, sequences are not allowed.
    Label,
    /// A heredoc body: no escapes.
    Heredoc,
    /// A standalone template.
    Bare,
}

/// Entry point for a standalone template.
pub(super) fn template_root<const B: bool>(p: &mut Parser<'_, B>) {
    p.start_raw(TEMPLATE_ROOT);
    p.set_newlines(false);
    loop {
        parts(p, Ctx::Bare);
        match p.raw(p.pos) {
            None => break,
            Some(DIRECTIVE_START) => stray(p),
            Some(_) => {
                // Left over after a broken sequence: one token at a time.
                let range = p.token_range(p.pos);
                let found = super::describe(p.tokens[p.pos].kind, p.text_at(p.pos));
                p.error_at(range, format!("unexpected {found} in the template"));
                p.start_raw(ERROR);
                p.bump_raw();
                p.finish();
            }
        }
    }
    p.finish();
}

/// `"…"` as an expression.
pub(super) fn quoted<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(QUOTED_TEMPLATE);
    let open = p.nth_index(0);
    p.bump(); // `"`
    quoted_rest(p, Ctx::Quoted, open);
    p.finish();
}

/// A quoted block label (the caller opened the `BLOCK_LABEL` node).
pub(super) fn quoted_label<const B: bool>(p: &mut Parser<'_, B>) {
    let open = p.nth_index(0);
    p.bump(); // `"`
    quoted_rest(p, Ctx::Label, open);
}

fn quoted_rest<const B: bool>(p: &mut Parser<'_, B>, ctx: Ctx, open: usize) {
    loop {
        parts(p, ctx);
        match p.raw(p.pos) {
            Some(CLOSE_QUOTE) => {
                p.bump_raw();
                return;
            }
            Some(DIRECTIVE_START) => stray(p),
            _ => {
                let at = p.offset();
                let opened = p.token_range(open).start();
                let (line, col) = p.line_col(opened);
                p.error_at(
                    text_size::TextRange::empty(at),
                    format!(
                        "unterminated string: expected `\"` to close the string opened at {line}:{col}; quoted strings cannot span lines (use `\\n` or a heredoc)"
                    ),
                );
                return;
            }
        }
    }
}

/// `<<EOT … EOT`.
pub(super) fn heredoc<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(HEREDOC_TEMPLATE);
    let open = p.nth_index(0);
    let opener = p.text_at(open);
    p.bump(); // `<<EOT\n`
    loop {
        parts(p, Ctx::Heredoc);
        match p.raw(p.pos) {
            Some(HEREDOC_END) => {
                p.bump_raw();
                break;
            }
            Some(DIRECTIVE_START) => stray(p),
            _ => {
                let marker = opener
                    .trim_start_matches('<')
                    .trim_start_matches('-')
                    .trim_end();
                let opened = p.token_range(open).start();
                let (line, col) = p.line_col(opened);
                let at = p.offset();
                p.error_at(
                    text_size::TextRange::empty(at),
                    format!(
                        "unterminated heredoc: expected a line `{marker}` to close the heredoc opened at {line}:{col}"
                    ),
                );
                break;
            }
        }
    }
    p.finish();
}

/// Template parts until something that is not a part: a closing token, the
/// end of the text, or a `%{ else }` / `%{ endif }` / `%{ endfor }`
/// directive (left in place for the caller, which reports it if it does not
/// expect it). Returns the keyword of the directive that stopped it.
fn parts<const B: bool>(p: &mut Parser<'_, B>, ctx: Ctx) -> Option<&'static str> {
    loop {
        match p.raw(p.pos) {
            Some(TEMPLATE_LITERAL) => {
                if matches!(ctx, Ctx::Quoted | Ctx::Label) {
                    check_escapes(p);
                }
                p.bump_raw();
            }
            // Left by a sequence the lexer abandoned at a newline (see
            // `close_sequence`): in a heredoc the text goes on.
            Some(WHITESPACE | COMMENT | NEWLINE) if ctx == Ctx::Heredoc => p.bump_raw(),
            Some(INTERP_START) => {
                if ctx == Ctx::Label {
                    label_sequence_error(p);
                }
                interpolation(p);
            }
            Some(DIRECTIVE_START) => {
                if ctx == Ctx::Label {
                    label_sequence_error(p);
                }
                let keyword = directive_keyword(p);
                match keyword {
                    "if" => template_if(p, ctx),
                    "for" => template_for(p, ctx),
                    "else" | "endif" | "endfor" => {
                        let kw = match keyword {
                            "else" => "else",
                            "endif" => "endif",
                            _ => "endfor",
                        };
                        return Some(kw);
                    }
                    _ => {
                        let range = p.token_range(p.pos);
                        p.error_at(
                            range,
                            format!(
                                "expected `if`, `for`, `else`, `endif` or `endfor` after `%{{`, found {}",
                                if keyword.is_empty() { "nothing".to_string() } else { format!("`{keyword}`") }
                            ),
                        );
                        stray_directive(p);
                    }
                }
            }
            _ => return None,
        }
    }
}

fn label_sequence_error<const B: bool>(p: &mut Parser<'_, B>) {
    let range = p.token_range(p.pos);
    p.error_at(
        range,
        "block labels cannot contain template sequences; to write a literal `${` or `%{`, double the first character (`$${`, `%%{`)",
    );
}

/// The word after a `%{` (or `%{~`) at `pos`.
fn directive_keyword<'t, const B: bool>(p: &Parser<'t, B>) -> &'t str {
    let i = p.content_from(p.pos + 1);
    if p.raw(i) == Some(IDENT) {
        p.text_at(i)
    } else {
        ""
    }
}

/// A directive that does not belong where it is: reported and wrapped.
fn stray<const B: bool>(p: &mut Parser<'_, B>) {
    let keyword = directive_keyword(p);
    let range = p.token_range(p.pos);
    let message = match keyword {
        "else" => "`%{ else }` without a matching `%{ if }`".to_string(),
        "endif" => "`%{ endif }` without a matching `%{ if }`".to_string(),
        "endfor" => "`%{ endfor }` without a matching `%{ for }`".to_string(),
        _ => "unexpected template directive".to_string(),
    };
    p.error_at(range, message);
    stray_directive(p);
}

/// Wraps `%{ … }` at `pos` in an `ERROR` node.
fn stray_directive<const B: bool>(p: &mut Parser<'_, B>) {
    p.start_raw(ERROR);
    p.bump_raw(); // `%{`
    let mut balance = 1i64;
    while let Some(kind) = p.raw(p.pos) {
        if balance <= 1 && matches!(kind, TEMPLATE_LITERAL | CLOSE_QUOTE | HEREDOC_END) {
            break;
        }
        balance += bracket_balance(kind);
        p.bump_raw();
        if balance <= 0 {
            break;
        }
    }
    p.finish();
}

/// `${ expr }`.
fn interpolation<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(INTERPOLATION);
    p.bump_raw(); // `${`
    p.with_newlines(false, |p| {
        expr::expr(p, "an expression after `${`");
        close_sequence(p, "`}` to close `${`");
    });
    p.finish();
}

/// Expects the `}` / `~}` that closes a sequence, skipping junk before it.
fn close_sequence<const B: bool>(p: &mut Parser<'_, B>, what: &str) {
    if p.eat(TEMPLATE_SEQ_END) {
        return;
    }
    p.error_expected(what);
    p.recover_balanced(|p, kind| {
        kind == TEMPLATE_SEQ_END
            || kind == TEMPLATE_LITERAL
            // The lexer ended the sequence at the newline before this line
            // (see `lexer::line_starts_attribute`).
            || (kind == IDENT && starts_attribute_line(p, p.nth_index(0)))
    });
    p.eat(TEMPLATE_SEQ_END);
}

/// True if the raw token `i` is the first on its line and the line reads
/// like the start of an attribute.
fn starts_attribute_line<const B: bool>(p: &Parser<'_, B>, i: usize) -> bool {
    let mut j = i;
    while j > 0 && p.raw(j - 1) == Some(WHITESPACE) {
        j -= 1;
    }
    j > 0
        && p.raw(j - 1) == Some(NEWLINE)
        && crate::lexer::line_starts_attribute(p.text.as_bytes(), p.start_of(j) as usize)
}

/// `%{ if c } … %{ else } … %{ endif }`.
fn template_if<const B: bool>(p: &mut Parser<'_, B>, ctx: Ctx) {
    if p.too_deep() {
        return;
    }
    p.enter();
    p.start(TEMPLATE_IF);
    p.start(IF_DIRECTIVE);
    p.bump_raw(); // `%{`
    p.with_newlines(false, |p| {
        p.bump(); // `if`
        expr::expr(p, "a condition after `if`");
        close_sequence(p, "`}` to close `%{ if`");
    });
    p.finish();
    let mut stop = super::with_stack(p.depth, || parts(p, ctx));
    if stop == Some("else") {
        simple_directive(p, ELSE_DIRECTIVE);
        stop = parts(p, ctx);
    }
    if stop == Some("endif") {
        simple_directive(p, ENDIF_DIRECTIVE);
    } else {
        p.error_expected("`%{ endif }` to close `%{ if }`");
    }
    p.finish();
    p.depth -= 1;
}

/// `%{ for k, v in coll } … %{ endfor }`.
fn template_for<const B: bool>(p: &mut Parser<'_, B>, ctx: Ctx) {
    if p.too_deep() {
        return;
    }
    p.enter();
    p.start(TEMPLATE_FOR);
    p.start(FOR_DIRECTIVE);
    p.bump_raw(); // `%{`
    p.with_newlines(false, |p| {
        expr::for_variables_and_collection(p);
        close_sequence(p, "`}` to close `%{ for`");
    });
    p.finish();
    let stop = super::with_stack(p.depth, || parts(p, ctx));
    if stop == Some("endfor") {
        simple_directive(p, ENDFOR_DIRECTIVE);
    } else {
        p.error_expected("`%{ endfor }` to close `%{ for }`");
    }
    p.finish();
    p.depth -= 1;
}

/// `%{ else }`, `%{ endif }`, `%{ endfor }`.
fn simple_directive<const B: bool>(p: &mut Parser<'_, B>, kind: crate::SyntaxKind) {
    p.start(kind);
    p.bump_raw(); // `%{`
    p.with_newlines(false, |p| {
        p.bump(); // keyword
        close_sequence(p, "`}` to close the directive");
    });
    p.finish();
}

/// Reports invalid escape sequences in the quoted literal at `pos`.
fn check_escapes<const B: bool>(p: &mut Parser<'_, B>) {
    let text = p.text_at(p.pos);
    if !text.contains('\\') {
        return;
    }
    let base = p.offset;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let start = i;
        let Some(&next) = bytes.get(i + 1) else {
            let range = text_size::TextRange::at((base + start as u32).into(), 1.into());
            p.error_at(
                range,
                "invalid escape sequence: `\\` at the end of the line",
            );
            return;
        };
        let (ok, len) = match next {
            b'n' | b'r' | b't' | b'"' | b'\\' => (true, 2),
            b'u' => hex_escape(bytes, i + 2, 4),
            b'U' => hex_escape(bytes, i + 2, 8),
            _ => (false, 1 + utf8_char_len(&text[i + 1..])),
        };
        if !ok {
            let range = text_size::TextRange::at(
                (base + start as u32).into(),
                (len.min(bytes.len() - start) as u32).into(),
            );
            let seq = &text[start..(start + len).min(text.len())];
            let message = if matches!(next, b'u' | b'U') {
                format!(
                    "invalid escape sequence `{seq}`: `\\{}` must be followed by {} hexadecimal digits of a valid Unicode character",
                    next as char,
                    if next == b'u' { 4 } else { 8 }
                )
            } else {
                format!(
                    "invalid escape sequence `{seq}`: the valid escapes are \\n \\r \\t \\\" \\\\ \\uNNNN \\UNNNNNNNN"
                )
            };
            p.error_at(range, message);
        }
        i = start + len.max(2);
    }
}

fn hex_escape(bytes: &[u8], from: usize, digits: usize) -> (bool, usize) {
    let hex = bytes.get(from..from + digits);
    let valid = hex.is_some_and(|h| {
        h.iter().all(u8::is_ascii_hexdigit)
            && u32::from_str_radix(std::str::from_utf8(h).unwrap_or("x"), 16)
                .ok()
                .and_then(char::from_u32)
                .is_some()
    });
    if valid {
        (true, 2 + digits)
    } else {
        let mut n = 0;
        while n < digits && bytes.get(from + n).is_some_and(u8::is_ascii_hexdigit) {
            n += 1;
        }
        (false, 2 + n)
    }
}

fn utf8_char_len(s: &str) -> usize {
    s.chars().next().map_or(0, char::len_utf8)
}
