//! JSON text as Go's `encoding/json` writes it: keys sorted, `<`, `>` and
//! `&` escaped, and indented as `json.Indent` indents.

use serde_json::Value as Json;

/// `value` indented with `indent` per level, as Go's `json.Indent` does
/// (`{}` and `[]` when empty), without a final newline.
///
/// ```
/// let v = serde_json::json!({"b": [1, {}], "a": "<x>"});
/// assert_eq!(
///     hclwright::convert::write_indented(&v, "  "),
///     "{\n  \"a\": \"\\u003cx\\u003e\",\n  \"b\": [\n    1,\n    {}\n  ]\n}"
/// );
/// ```
pub fn write_indented(value: &Json, indent: &str) -> String {
    let mut out = String::new();
    write_indented_into(value, indent, &mut out);
    out
}

/// [`write_indented`], appending to `out` (which may have room reserved).
pub(crate) fn write_indented_into(value: &Json, indent: &str, out: &mut String) {
    write(value, indent, 0, out);
}

/// `value` as compact JSON text, for a program to read back: no spaces or
/// newlines, keys in the map's order, and only what JSON requires escaped
/// (`"`, `\` and control characters). On the corpus's files it is about
/// half as long as [`write_indented`]'s text; it reads back to the same
/// value.
///
/// ```
/// let v = serde_json::json!({"b": [1, {}], "a": "<x>\n"});
/// let text = hclwright::convert::write_compact(&v);
/// assert_eq!(text, r#"{"a":"<x>\n","b":[1,{}]}"#);
/// assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v);
/// ```
pub fn write_compact(value: &Json) -> String {
    let mut out = String::new();
    write_compact_into(value, &mut out);
    out
}

/// [`write_compact`], appending to `out`.
pub(crate) fn write_compact_into(value: &Json, out: &mut String) {
    match value {
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact_into(item, out);
            }
            out.push(']');
        }
        Json::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('"');
                crate::json::escape_into(k, out, false);
                out.push_str("\":");
                write_compact_into(v, out);
            }
            out.push('}');
        }
        Json::String(s) => {
            out.push('"');
            crate::json::escape_into(s, out, false);
            out.push('"');
        }
        scalar => write(scalar, "", 0, out),
    }
}

fn newline(out: &mut String, indent: &str, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str(indent);
    }
}

/// A string as Go's `encoding/json` writes it (as `json_string`).
fn push_string(s: &str, out: &mut String) {
    out.push('"');
    crate::json::escape_into(s, out, true);
    out.push('"');
}

fn write(value: &Json, indent: &str, depth: usize, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => {
            use std::fmt::Write as _;
            let _ = write!(out, "{n}");
        }
        Json::String(s) => push_string(s, out),
        Json::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, depth + 1);
                write(item, indent, depth + 1, out);
            }
            newline(out, indent, depth);
            out.push(']');
        }
        Json::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, depth + 1);
                push_string(k, out);
                out.push_str(": ");
                write(v, indent, depth + 1, out);
            }
            newline(out, indent, depth);
            out.push('}');
        }
    }
}
