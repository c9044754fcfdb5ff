//! Splits JSON text into tokens, losslessly: every byte belongs to exactly
//! one token (whitespace, newlines and even comments, which JSON forbids,
//! are tokens too, so that a broken file still prints back as it was).
//!
//! The lexer is lax: a string runs to its closing quote or the end of the
//! line, a number is any run of number characters, a word any run of
//! letters; the parser then checks each token and says precisely what is
//! wrong with it.

use crate::syntax_kind::SyntaxKind::{self, *};

/// A cursor over JSON text, giving one token at a time.
pub(crate) struct Lexer<'t> {
    bytes: &'t [u8],
    pos: usize,
    /// True when the last token was a string closed by its quote with no
    /// escape and no control character: its value is its text between
    /// the quotes, with nothing to check.
    plain_string: bool,
}

impl<'t> Lexer<'t> {
    /// A lexer at the start of `text`.
    pub(crate) fn new(text: &'t str) -> Lexer<'t> {
        Lexer {
            bytes: text.as_bytes(),
            pos: 0,
            plain_string: false,
        }
    }

    /// True when the last token was a plain string (see the field).
    pub(crate) fn plain_string(&self) -> bool {
        self.plain_string
    }

    /// The offset of the next token.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The next token's kind and end offset, or `None` at the end.
    #[inline]
    pub(crate) fn next_token(&mut self) -> Option<(SyntaxKind, usize)> {
        let bytes = self.bytes;
        let start = self.pos;
        let &first = bytes.get(start)?;
        let kind = match first {
            b' ' | b'\t' => {
                self.pos = skip_while(bytes, start + 1, |b| b == b' ' || b == b'\t');
                WHITESPACE
            }
            b'\n' => {
                self.pos = start + 1;
                NEWLINE
            }
            b'\r' if bytes.get(start + 1) == Some(&b'\n') => {
                self.pos = start + 2;
                NEWLINE
            }
            b'\r' => {
                self.pos = start + 1;
                WHITESPACE
            }
            b'{' | b'}' | b'[' | b']' | b':' | b',' | b'=' => {
                self.pos = start + 1;
                match first {
                    b'{' => L_BRACE,
                    b'}' => R_BRACE,
                    b'[' => L_BRACK,
                    b']' => R_BRACK,
                    b':' => COLON,
                    b',' => COMMA,
                    _ => EQ,
                }
            }
            b'"' => {
                let (end, plain) = string_end(bytes, start + 1);
                self.pos = end;
                self.plain_string = plain;
                JSON_STRING
            }
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                self.pos = skip_while(bytes, start + 1, |b| {
                    matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                });
                JSON_NUMBER
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                self.pos = skip_while(bytes, start + 1, |b| b.is_ascii_alphanumeric() || b == b'_');
                JSON_WORD
            }
            b'/' if bytes.get(start + 1) == Some(&b'/') => {
                self.pos = skip_while(bytes, start + 2, |b| b != b'\n' && b != b'\r');
                COMMENT
            }
            b'/' if bytes.get(start + 1) == Some(&b'*') => {
                self.pos = match find(&bytes[start + 2..], b"*/") {
                    Some(at) => start + 2 + at + 2,
                    None => bytes.len(),
                };
                COMMENT
            }
            b'\'' => {
                // A single-quoted string is no JSON, but it is one
                // mistake: one token.
                let line_end = skip_while(bytes, start + 1, |b| b != b'\n' && b != b'\r');
                self.pos = match bytes[start + 1..line_end].iter().position(|&b| b == b'\'') {
                    Some(at) => start + 1 + at + 1,
                    None => start + 1,
                };
                ERROR_TOKEN
            }
            0xEF if start == 0 && bytes.starts_with(b"\xEF\xBB\xBF") => {
                self.pos = 3;
                BOM
            }
            _ => {
                self.pos = start + crate::lexer::utf8_len(first);
                ERROR_TOKEN
            }
        };
        Some((kind, self.pos))
    }
}

/// The offset after the string opened before `from`: after its closing
/// quote, or at the end of its line when it has none; and whether it is
/// plain (closed, with no escape and no control character).
#[inline]
fn string_end(bytes: &[u8], mut at: usize) -> (usize, bool) {
    at = skip_plain(bytes, at);
    if bytes.get(at) == Some(&b'"') {
        return (at + 1, true);
    }
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => return (at + 1, false),
            b'\\' => {
                // An escaped quote or backslash does not end the string;
                // an escaped line end still does.
                match bytes.get(at + 1) {
                    Some(b'\n') | None => return (at + 1, false),
                    Some(_) => at += 2,
                }
            }
            b'\n' => return (at, false),
            _ => at += 1,
        }
    }
    (bytes.len(), false)
}

/// Skips the bytes of a string that need no attention (neither `"`, `\`
/// nor a control character), eight at a time.
#[inline]
fn skip_plain(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let x = u64::from_ne_bytes(chunk.try_into().expect("8 bytes"));
        let special = zero_byte(x ^ (ONES * u64::from(b'"')))
            | zero_byte(x ^ (ONES * u64::from(b'\\')))
            | (x.wrapping_sub(ONES * 0x20) & !x & HIGHS);
        if special != 0 {
            break;
        }
        at += 8;
    }
    while let Some(&b) = bytes.get(at) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        at += 1;
    }
    at
}

#[inline]
fn skip_while(bytes: &[u8], mut at: usize, keep: impl Fn(u8) -> bool) -> usize {
    while at < bytes.len() && keep(bytes[at]) {
        at += 1;
    }
    at
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(SyntaxKind, &str)> {
        let mut lexer = Lexer::new(text);
        let mut start = 0;
        let mut out = Vec::new();
        while let Some((kind, end)) = lexer.next_token() {
            out.push((kind, &text[start..end]));
            start = end;
        }
        out
    }

    #[test]
    fn every_byte_is_in_a_token() {
        let text = "\u{feff}{ \"a\\\"b\" :[1.5e3,-2,true,nul],\r\n\"x\n// c\n/* d */ é#}";
        let tokens = kinds(text);
        assert_eq!(tokens.iter().map(|(_, t)| *t).collect::<String>(), text);
        assert_eq!(tokens[0], (BOM, "\u{feff}"));
        assert!(tokens.contains(&(JSON_STRING, "\"a\\\"b\"")));
        assert!(tokens.contains(&(JSON_STRING, "\"x")));
        assert!(tokens.contains(&(JSON_NUMBER, "1.5e3")));
        assert!(tokens.contains(&(JSON_WORD, "nul")));
        assert!(tokens.contains(&(NEWLINE, "\r\n")));
        assert!(tokens.contains(&(COMMENT, "// c")));
        assert!(tokens.contains(&(COMMENT, "/* d */")));
        assert!(tokens.contains(&(ERROR_TOKEN, "é")));
        assert!(tokens.contains(&(ERROR_TOKEN, "#")));
    }
}
