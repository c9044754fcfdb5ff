//! Values printed as `terraform console` prints them, and as cty's JSON.

use super::types::Type;
use super::value::Value;
use std::fmt::Write;

/// The value as `terraform console` prints it: `tolist([...])`, `toset`,
/// `tomap`, `tonumber(null)`, sorted quoted keys, heredocs for strings with
/// newlines, `(known after apply)`.
///
/// ```
/// use hclwright::eval::{console_string, Type, Value};
/// let v = Value::list(Type::String, vec![Value::string("a")]);
/// assert_eq!(console_string(&v), "tolist([\n  \"a\",\n])");
/// ```
pub fn console_string(v: &Value) -> String {
    let mut out = String::new();
    write_console(v, 0, &mut out);
    out
}

fn write_console(v: &Value, indent: usize, out: &mut String) {
    match v {
        // An unknown shows as unknown, marked or not (as terraform does).
        Value::Sensitive(inner) if !inner.is_known() => out.push_str("(known after apply)"),
        Value::Sensitive(_) => out.push_str("(sensitive value)"),
        Value::Unknown(_) => out.push_str("(known after apply)"),
        Value::Null(t) => out.push_str(&match t {
            Type::Dynamic => "null".to_string(),
            Type::String => "tostring(null)".to_string(),
            Type::Number => "tonumber(null)".to_string(),
            Type::Bool => "tobool(null)".to_string(),
            Type::List(e) => format!("tolist(null) /* of {} */", e.friendly_name()),
            Type::Set(e) => format!("toset(null) /* of {} */", e.friendly_name()),
            Type::Map(e) => format!("tomap(null) /* of {} */", e.friendly_name()),
            other => format!("null /* {} */", other.friendly_name()),
        }),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_console_string(s, indent, out),
        Value::Tuple(items) => write_sequence(items, indent, out),
        Value::List(_, items) => {
            out.push_str("tolist(");
            write_sequence(items, indent, out);
            out.push(')');
        }
        Value::Set(_, items) => {
            out.push_str("toset(");
            write_sequence(items, indent, out);
            out.push(')');
        }
        Value::Object(items) => write_mapping(items, indent, out),
        Value::Map(_, items) => {
            out.push_str("tomap(");
            write_mapping(items, indent, out);
            out.push(')');
        }
    }
}

fn write_console_string(s: &str, indent: usize, out: &mut String) {
    let lines: Vec<&str> = s.split('\n').collect();
    if lines.len() < 2 {
        out.push_str(&go_quote(s));
        return;
    }
    let mut delimiter = String::from("EOT");
    while lines.iter().any(|l| l.trim() == delimiter) {
        delimiter.push('_');
    }
    out.push_str(if indent > 0 { "<<-" } else { "<<" });
    out.push_str(&delimiter);
    for line in &lines {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
        out.push_str(line);
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push_str(&delimiter);
}

fn write_sequence(items: &[Value], indent: usize, out: &mut String) {
    out.push('[');
    for v in items {
        out.push('\n');
        out.push_str(&" ".repeat(indent + 2));
        write_console(v, indent + 2, out);
        out.push(',');
    }
    if !items.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push(']');
}

fn write_mapping(items: &super::Entries, indent: usize, out: &mut String) {
    out.push('{');
    for (k, v) in items {
        out.push('\n');
        out.push_str(&" ".repeat(indent + 2));
        // Keys are printed as values are: a heredoc when multi-line.
        write_console_string(k, indent + 2, out);
        out.push_str(" = ");
        write_console(v, indent + 2, out);
    }
    if !items.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push('}');
}

/// A string quoted as Go's `strconv.Quote` quotes it (the form
/// `terraform console` prints): printable characters kept, others escaped.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x20 || c == '\x7f' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and
/// the ASCII space; not other spaces, format characters, private use or
/// noncharacters.
fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(u,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xD800..=0xF8FF | 0xFDD0..=0xFDEF | 0xFEFF | 0xFFF0..=0xFFFB | 0xFFFE..=0xFFFF
        | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF | 0xF0000..=0x10FFFF)
        && (u & 0xFFFE) != 0xFFFE
}

/// A string as a JSON string literal, escaped as Go's `encoding/json`
/// escapes (including `<`, `>` and `&`).
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    crate::json::escape_into(s, &mut out, true);
    out.push('"');
    out
}

/// The value in cty's JSON form (numbers as their shortest decimal text).
/// `None` when some part of it is unknown, which JSON cannot say.
pub fn to_json(v: &Value) -> Option<String> {
    let mut out = String::new();
    write_json(v, &mut out).then_some(out)
}

fn write_json(v: &Value, out: &mut String) -> bool {
    match v {
        Value::Sensitive(inner) => return write_json(inner, out),
        Value::Unknown(_) => return false,
        Value::Null(_) => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&json_string(s)),
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_json(v, out) {
                    return false;
                }
            }
            out.push(']');
        }
        Value::Map(_, items) | Value::Object(items) => {
            out.push('{');
            for (i, (k, v)) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&json_string(k));
                out.push(':');
                if !write_json(v, out) {
                    return false;
                }
            }
            out.push('}');
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_go() {
        assert_eq!(go_quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(go_quote("é\u{0}\u{a0}"), "\"é\\x00\\u00a0\"");
        assert_eq!(go_quote("😀"), "\"😀\"");
    }

    #[test]
    fn heredoc_for_multiline() {
        let v = Value::string("a\nEOT\n");
        assert_eq!(console_string(&v), "<<EOT_\na\nEOT\n\nEOT_");
    }
}
