//! JSON string and number tokens: checking them and reading their values.

use std::borrow::Cow;

/// A problem inside a string or number token: where (a byte range
/// relative to the token's start) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TokenProblem {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// The value of the string token `token` (quotes included), or the first
/// problem in it. Lone surrogate escapes become U+FFFD, as most JSON
/// decoders (and upstream's) make them.
pub(crate) fn decode_string(token: &str) -> Result<Cow<'_, str>, TokenProblem> {
    let bytes = token.as_bytes();
    let problem = |start: usize, end: usize, message: String| TokenProblem {
        start,
        end,
        message,
    };
    if bytes.len() < 2 || !token.ends_with('"') || ends_with_escaped_quote(token) {
        return Err(problem(
            token.len(),
            token.len(),
            "expected `\"` to close the string, found the end of the line".into(),
        ));
    }
    let inner = &token[1..token.len() - 1];
    if !inner.bytes().any(|b| b == b'\\' || b < 0x20) {
        return Ok(Cow::Borrowed(inner));
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let at = at + 1;
        match c {
            '\\' => {
                let Some((_, e)) = chars.next() else {
                    return Err(problem(
                        at,
                        at + 1,
                        "unfinished escape at the end of the string".into(),
                    ));
                };
                match e {
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    '/' => out.push('/'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'u' => {
                        let first = hex4(inner, at).ok_or_else(|| bad_unicode_escape(inner, at))?;
                        for _ in 0..4 {
                            chars.next();
                        }
                        let c = if (0xD800..0xDC00).contains(&first) {
                            // A high surrogate: a low one must follow to
                            // make a character.
                            let low = inner
                                .get(at + 5..at + 7)
                                .filter(|s| *s == "\\u")
                                .and_then(|_| hex4(inner, at + 6))
                                .filter(|l| (0xDC00..0xE000).contains(l));
                            match low {
                                Some(low) => {
                                    for _ in 0..6 {
                                        chars.next();
                                    }
                                    char::from_u32(
                                        0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00),
                                    )
                                }
                                None => None,
                            }
                        } else {
                            char::from_u32(first)
                        };
                        out.push(c.unwrap_or('\u{FFFD}'));
                    }
                    other => {
                        return Err(problem(
                            at,
                            at + 1 + other.len_utf8(),
                            format!(
                                "invalid escape `\\{other}` in a JSON string (expected one of `\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`)"
                            ),
                        ));
                    }
                }
            }
            c if (c as u32) < 0x20 => {
                return Err(problem(
                    at,
                    at + 1,
                    format!(
                        "control character U+{:04X} must be escaped in a JSON string",
                        c as u32
                    ),
                ));
            }
            c => out.push(c),
        }
    }
    Ok(Cow::Owned(out))
}

/// True if the final quote of `token` is escaped (an odd run of
/// backslashes before it), so the string is not closed.
fn ends_with_escaped_quote(token: &str) -> bool {
    let body = &token.as_bytes()[1..token.len() - 1];
    body.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// The four hex digits after `\u` at `backslash` (an offset into `inner`
/// where `\` is), as a number.
fn hex4(inner: &str, backslash_in_token: usize) -> Option<u32> {
    let from = backslash_in_token - 1 + 2;
    let digits = inner.get(from..from + 4)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

fn bad_unicode_escape(inner: &str, at: usize) -> TokenProblem {
    let from = at - 1;
    let end = (from + 6).min(inner.len());
    let end = (from..=end)
        .rev()
        .find(|&e| inner.is_char_boundary(e))
        .unwrap_or(from);
    TokenProblem {
        start: at,
        end: end + 1,
        message: format!(
            "invalid escape `{}` in a JSON string (`\\u` takes four hex digits)",
            &inner[from..end]
        ),
    }
}

/// `s` escaped for the inside of a JSON string: `"`, `\` and control
/// characters (the same escapes are valid in a native quoted string);
/// with `as_go`, also `<`, `>`, `&`, U+2028 and U+2029, as Go's
/// `encoding/json` escapes them.
pub(crate) fn escape_into(s: &str, out: &mut String, as_go: bool) {
    // Runs of characters that stay as they are are copied whole; only the
    // ASCII `"`, `\`, controls, `<`, `>`, `&` and (for Go) the bytes that
    // start U+2028 and U+2029 need a look.
    let bytes = s.as_bytes();
    let plain = |b: u8| {
        b >= 0x20 && b != b'"' && b != b'\\' && !(as_go && matches!(b, b'<' | b'>' | b'&' | 0xe2))
    };
    let mut start = 0;
    while start < bytes.len() {
        let run = bytes[start..].iter().position(|&b| !plain(b));
        let end = run.map_or(bytes.len(), |n| start + n);
        out.push_str(&s[start..end]);
        if end == bytes.len() {
            return;
        }
        // `end` is on a character boundary: every byte stopped at is ASCII
        // or a leading byte.
        let c = s[end..].chars().next().unwrap_or_default();
        escape_char(c, out, as_go);
        start = end + c.len_utf8();
    }
}

fn escape_char(c: char, out: &mut String, as_go: bool) {
    use std::fmt::Write as _;
    match c {
        '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if as_go => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x20 => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c => out.push(c),
    }
}

/// Checks a number token against JSON's grammar
/// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
pub(crate) fn check_number(token: &str) -> Result<(), TokenProblem> {
    let b = token.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let from = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > from
    };
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    let ok = digits(&mut i)
        && !(b[int_start] == b'0' && i - int_start > 1)
        && (b.get(i) != Some(&b'.') || {
            i += 1;
            digits(&mut i)
        })
        && (!matches!(b.get(i), Some(b'e' | b'E')) || {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            digits(&mut i)
        })
        && i == b.len();
    if ok {
        Ok(())
    } else {
        Err(TokenProblem {
            start: 0,
            end: token.len(),
            message: format!("invalid JSON number `{token}`"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_decode_with_every_escape() {
        assert_eq!(decode_string(r#""plain""#).unwrap(), "plain");
        assert_eq!(
            decode_string(r#""a\"b\\c\/d\b\f\n\r\té\u00e9\ud83d\ude00""#).unwrap(),
            "a\"b\\c/d\u{8}\u{c}\n\r\téé😀"
        );
        assert_eq!(decode_string(r#""\ud83d x""#).unwrap(), "\u{FFFD} x");
    }

    #[test]
    fn string_problems_are_placed() {
        let e = decode_string(r#""ab\qc""#).unwrap_err();
        assert_eq!((e.start, e.end), (3, 5));
        assert!(e.message.contains("`\\q`"), "{}", e.message);
        let e = decode_string("\"a\tb\"").unwrap_err();
        assert_eq!((e.start, e.message.contains("U+0009")), (2, true));
        let e = decode_string(r#""\u12x4""#).unwrap_err();
        assert!(e.message.contains("four hex digits"), "{}", e.message);
        assert!(decode_string("\"abc").is_err());
        assert!(decode_string(r#""abc\""#).is_err());
        assert!(decode_string(r#""abc\\""#).is_ok());
    }

    #[test]
    fn numbers_follow_the_json_grammar() {
        for ok in ["0", "-0", "12", "1.5", "1e3", "1E+3", "-2.5e-10"] {
            assert!(check_number(ok).is_ok(), "{ok}");
        }
        for bad in ["01", "+1", ".5", "1.", "1e", "--1", "1.2.3", "-", "1e+"] {
            assert!(check_number(bad).is_err(), "{bad}");
        }
    }
}
