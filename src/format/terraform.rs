//! The three normalizations `terraform fmt` applies before the layout:
//! interpolation-only unwrap, `variable` type normalization, quoted block
//! labels. They are computed on the syntax tree as text edits; the token
//! formatter then lays the result out.

use crate::ast::{AstNode, Attribute, BlockLabel, Body};
use crate::diff::{TextEdit, apply_edits};
use crate::syntax_kind::{SyntaxElement, SyntaxKind::*, SyntaxNode, SyntaxToken};

/// Applies the normalizations to `text`, whose parse gave `body`.
pub(crate) fn normalize(text: &str, body: Option<Body>) -> String {
    let mut edits = Vec::new();
    // (body, is the body of a top-level `variable` block)
    let mut stack: Vec<(Body, bool)> = body.into_iter().map(|b| (b, false)).collect();
    while let Some((body, in_variable)) = stack.pop() {
        for attr in body.attributes() {
            let edit = if in_variable && attr.name().as_deref() == Some("type") {
                normalize_type(&attr)
            } else {
                unwrap_interpolation(&attr)
            };
            edits.extend(edit);
        }
        let top_level = body
            .syntax()
            .parent()
            .is_some_and(|p| p.kind() == CONFIG_FILE);
        for block in body.blocks() {
            edits.extend(block.labels().filter_map(|l| quote_label(&l)));
            let is_variable = top_level && block.type_name().as_deref() == Some("variable");
            stack.extend(block.body().map(|b| (b, is_variable)));
        }
    }
    if edits.is_empty() {
        return text.to_string();
    }
    edits.sort_by_key(|e| e.range.start());
    // The edits replace disjoint nodes (values, labels) of a valid tree.
    apply_edits(text, &edits).unwrap_or_else(|_| text.to_string())
}

/// `"${expr}"` → `expr` (wrapped in parentheses if it spans lines).
fn unwrap_interpolation(attr: &Attribute) -> Option<TextEdit> {
    let value = attr.expr()?;
    let template = value.syntax();
    if template.kind() != QUOTED_TEMPLATE {
        return None;
    }
    let kinds: Vec<_> = template.children_with_tokens().map(|e| e.kind()).collect();
    if kinds != [OPEN_QUOTE, INTERPOLATION, CLOSE_QUOTE] {
        return None;
    }
    let interp = template.children().find(|n| n.kind() == INTERPOLATION)?;
    let units = inner_units(&interp);
    let first = units.iter().position(|u| u.kind != NEWLINE)?;
    let last = units.iter().rposition(|u| u.kind != NEWLINE)?;
    let units = &units[first..=last];
    let start = usize::from(units[0].range.start());
    let end = usize::from(units[units.len() - 1].range.end());
    let full = interp.text().to_string();
    let base = usize::from(interp.text_range().start());
    let inner = &full[start - base..end - base];
    let multi_line = units.iter().any(|u| u.kind == NEWLINE);
    let wrapped = units[0].kind == L_PAREN && units[units.len() - 1].kind == R_PAREN;
    let new_text = if multi_line && !wrapped {
        format!("({inner})")
    } else {
        inner.to_string()
    };
    Some(TextEdit::replace(template.text_range(), new_text))
}

/// A token of an interpolation's inside as upstream sees it: whitespace
/// dropped, a line comment merged with its newline.
struct Unit {
    kind: crate::SyntaxKind,
    range: text_size::TextRange,
}

/// The tokens between `${` and `}` of an interpolation.
fn inner_units(interp: &SyntaxNode) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    let tokens = interp
        .descendants_with_tokens()
        .filter_map(SyntaxElement::into_token)
        .filter(|t| !matches!(t.kind(), INTERP_START | TEMPLATE_SEQ_END | WHITESPACE));
    for t in tokens {
        let merges = t.kind() == NEWLINE
            && units
                .last()
                .is_some_and(|u| u.kind == COMMENT && is_line_comment(&t, u));
        match units.last_mut() {
            Some(u) if merges => u.range = u.range.cover(t.text_range()),
            _ => units.push(Unit {
                kind: t.kind(),
                range: t.text_range(),
            }),
        }
    }
    units
}

/// True if `comment` is a `#` / `//` comment ending right where `newline`
/// starts.
fn is_line_comment(newline: &SyntaxToken, comment: &Unit) -> bool {
    if comment.range.end() != newline.text_range().start() {
        return false;
    }
    let Some(prev) = newline.prev_token() else {
        return false;
    };
    prev.kind() == COMMENT && !prev.text().starts_with("/*")
}

/// The `type` of a top-level `variable` block: `list` → `list(any)`,
/// `"string"` → `string`, `"list"` → `list(string)`, …
fn normalize_type(attr: &Attribute) -> Option<TextEdit> {
    let value = attr.expr()?;
    let node = value.syntax();
    let tokens: Vec<SyntaxToken> = node
        .descendants_with_tokens()
        .filter_map(SyntaxElement::into_token)
        .filter(|t| !matches!(t.kind(), WHITESPACE | NEWLINE))
        .collect();
    let kinds: Vec<_> = tokens.iter().map(|t| t.kind()).collect();
    let new_text = match kinds.as_slice() {
        [IDENT] => match tokens[0].text() {
            "list" | "map" | "set" => format!("{}(any)", tokens[0].text()),
            _ => return None,
        },
        [OPEN_QUOTE, TEMPLATE_LITERAL, CLOSE_QUOTE] => match tokens[1].text() {
            "string" => "string".to_string(),
            "list" => "list(string)".to_string(),
            "map" => "map(string)".to_string(),
            _ => return None,
        },
        _ => return None,
    };
    Some(TextEdit::replace(node.text_range(), new_text))
}

/// A bare label is quoted; a quoted one is re-encoded the way `terraform
/// fmt` writes strings (e.g. `"\u0041"` → `"A"`).
fn quote_label(label: &BlockLabel) -> Option<TextEdit> {
    let node = label.syntax();
    let significant: Vec<SyntaxToken> = node
        .children_with_tokens()
        .filter_map(SyntaxElement::into_token)
        .filter(|t| t.kind() != WHITESPACE)
        .collect();
    let kinds: Vec<_> = significant.iter().map(|t| t.kind()).collect();
    let (value, old_range) = match kinds.as_slice() {
        [IDENT] => (
            significant[0].text().to_string(),
            significant[0].text_range(),
        ),
        [OPEN_QUOTE, TEMPLATE_LITERAL, CLOSE_QUOTE] => {
            let value = decode_strict(significant[1].text())?;
            (
                value,
                significant[0]
                    .text_range()
                    .cover(significant[2].text_range()),
            )
        }
        _ => return None,
    };
    let new_text = format!("\"{}\"", escape(&value));
    let old_text: String = significant.iter().map(|t| t.text()).collect();
    (new_text != old_text).then(|| TextEdit::replace(old_range, new_text))
}

/// Decodes the escapes of a quoted literal; `None` if one is invalid.
fn decode_strict(text: &str) -> Option<String> {
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
fn escape(value: &str) -> String {
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

    fn tf(text: &str) -> String {
        let parse = crate::parse(text);
        assert!(parse.errors().is_empty(), "{:?}", parse.errors());
        normalize(text, parse.body())
    }

    #[test]
    fn unwraps_interpolation_only_values() {
        assert_eq!(tf("a = \"${var.x}\"\n"), "a = var.x\n");
        assert_eq!(
            tf("a = \"${a}-2\"\nb = \"${a}${b}\"\n"),
            "a = \"${a}-2\"\nb = \"${a}${b}\"\n"
        );
        assert_eq!(tf("a = \"${\n  x\n}\"\n"), "a = x\n");
        assert_eq!(tf("a = \"${x ?\n1 : 2}\"\n"), "a = (x ?\n1 : 2)\n");
        assert_eq!(tf("a = \"${(x +\n1)}\"\n"), "a = (x +\n1)\n");
        assert_eq!(tf("a = \"${f(\"${b}\")}\"\n"), "a = f(\"${b}\")\n");
        assert_eq!(
            tf("a = \"%{if x}y%{endif}\"\n"),
            "a = \"%{if x}y%{endif}\"\n"
        );
        // Only whole values.
        assert_eq!(tf("a = [\"${x}\"]\n"), "a = [\"${x}\"]\n");
    }

    #[test]
    fn normalizes_variable_types() {
        let text = "variable \"a\" {\n  type = list\n}\nvariable \"b\" {\n  type = \"map\"\n}\nvariable \"c\" {\n  type = \"${x}\"\n}\n";
        assert_eq!(
            tf(text),
            "variable \"a\" {\n  type = list(any)\n}\nvariable \"b\" {\n  type = map(string)\n}\nvariable \"c\" {\n  type = \"${x}\"\n}\n"
        );
        // Not in a top-level variable block: unchanged.
        assert_eq!(tf("x {\n  type = list\n}\n"), "x {\n  type = list\n}\n");
    }

    #[test]
    fn quotes_labels_and_keeps_comments() {
        assert_eq!(
            tf("module foo /* c */ bar {\n  x y {}\n}\n"),
            "module \"foo\" /* c */ \"bar\" {\n  x \"y\" {}\n}\n"
        );
        assert_eq!(tf("a \"\\u0041\" {}\n"), "a \"A\" {}\n");
        assert_eq!(tf("a \"x$${y}\" {}\n"), "a \"x$${y}\" {}\n");
    }

    #[test]
    fn escapes_like_hclwrite() {
        assert_eq!(escape("a\"b\\c\n${x}%{y}$z"), "a\\\"b\\\\c\\n$${x}%%{y}$z");
        assert_eq!(escape("\u{a0}\u{1}"), "\\u00a0\\u0001");
        assert_eq!(decode_strict("\\q"), None);
    }
}
