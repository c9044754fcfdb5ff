//! Quoted string literals as `hclwrite` writes them: decoding the escapes
//! of a literal, and encoding a value back.

/// Decodes the escapes of a quoted literal; `None` if one is invalid.
pub(crate) fn decode_strict(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '\\' => {
                let e = rest.chars().next()?;
                rest = &rest[e.len_utf8()..];
                let simple = match e {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    '"' => '"',
                    '\\' => '\\',
                    'u' | 'U' => {
                        let digits = if e == 'u' { 4 } else { 8 };
                        let hex = rest.get(..digits)?;
                        rest = &rest[digits..];
                        char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                    }
                    _ => return None,
                };
                out.push(simple);
            }
            '$' | '%' if rest.starts_with(c) && rest[1..].starts_with('{') => {
                // `$${` and `%%{` stand for a literal `${` / `%{`.
                out.push(c);
                rest = &rest[1..];
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// Escapes a string for a quoted literal, as `hclwrite` does.
pub(crate) fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if chars.peek() == Some(&'{') {
                    out.push(c);
                }
            }
            c if !is_printable(c) => {
                let code = c as u32;
                if code < 0x10000 {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// An approximation of Go's `unicode.IsPrint`: false for control and
/// format characters and for every space but U+0020.
fn is_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_hclwrite() {
        assert_eq!(escape("a\"b\\c\n${x}%{y}$z"), "a\\\"b\\\\c\\n$${x}%%{y}$z");
        assert_eq!(escape("\u{a0}\u{1}"), "\\u00a0\\u0001");
        assert_eq!(decode_strict("\\q"), None);
    }
}
