//! References inside a JSON file's template strings (`"${var.region}-x"`,
//! property names too), placed at their bytes in the JSON text, so that
//! `refs` lists them and renames edit them in place.

use text_size::{TextRange, TextSize};

use super::JsonParse;
use crate::refs::{Binding, Reference};
use crate::syntax_kind::SyntaxKind::JSON_STRING;
use crate::syntax_kind::SyntaxToken;

/// The references to outer variables in every template string of a JSON
/// file, in source order, placed in the JSON text.
///
/// ```
/// let parse = hclwright::json::parse(r#"{"locals": {"a": "${var.region}-${local.b[0]}", "n": 1}}"#);
/// let refs = hclwright::json::references(&parse);
/// let shown: Vec<_> = refs.iter().map(|r| r.traversal.to_string()).collect();
/// assert_eq!(shown, ["var.region", "local.b[0]"]);
/// assert_eq!(u32::from(refs[0].traversal.root_range.start()), 20);
/// ```
pub fn references(parse: &JsonParse) -> Vec<Reference> {
    collect(parse, false)
}

/// Every traversal in the template strings of a JSON file, uses of
/// `for`-bound variables included.
pub fn references_with_locals(parse: &JsonParse) -> Vec<Reference> {
    collect(parse, true)
}

fn collect(parse: &JsonParse, locals: bool) -> Vec<Reference> {
    collect_under(&parse.syntax().into(), locals)
}

/// The references to outer variables in the template strings of one JSON
/// value (an attribute's), placed in the JSON text: the JSON syntax's
/// `Variables()`.
pub fn value_references(value: &super::JsonValue) -> Vec<Reference> {
    collect_under(&value.syntax_element(), false)
}

/// The native traversal a JSON string holds (`"aws_instance.web"`),
/// placed in the JSON text: static traversal analysis of the JSON syntax.
pub fn string_traversal(value: &super::JsonValue) -> Option<crate::refs::Traversal> {
    let super::JsonValue::String(token) = value else {
        return None;
    };
    let text = value.as_str()?;
    let parse = crate::parse_expr(&text);
    if !parse.errors().is_empty() {
        return None;
    }
    let expr = parse
        .syntax()
        .descendants()
        .find_map(<crate::ast::Expr as crate::ast::AstNode>::cast)?;
    let mut t = crate::eval::abs_traversal(&expr)?;
    let map = OffsetMap::new(token);
    t.root_range = map.range(t.root_range);
    for step in &mut t.steps {
        step.range = map.range(step.range);
        step.name_range = map.range(step.name_range);
    }
    Some(t)
}

fn collect_under(element: &crate::SyntaxElement, locals: bool) -> Vec<Reference> {
    let mut out = Vec::new();
    let tokens: Vec<SyntaxToken> = match element {
        rowan::NodeOrToken::Node(n) => n
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == JSON_STRING)
            .collect(),
        rowan::NodeOrToken::Token(t) => [t.clone()]
            .into_iter()
            .filter(|t| t.kind() == JSON_STRING)
            .collect(),
    };
    for token in tokens {
        let Ok(text) = super::string::decode_string(token.text()) else {
            continue;
        };
        if !text.contains("${") && !text.contains("%{") {
            continue;
        }
        let template = crate::parse_template(&text);
        if !template.errors().is_empty() {
            continue;
        }
        let found = if locals {
            crate::refs::references_with_locals(&template.syntax())
        } else {
            crate::refs::references(&template.syntax())
        };
        let map = OffsetMap::new(&token);
        for mut r in found {
            let t = &mut r.traversal;
            t.root_range = map.range(t.root_range);
            for step in &mut t.steps {
                step.range = map.range(step.range);
                step.name_range = map.range(step.name_range);
            }
            if let Binding::Local { declaration } = &mut r.binding {
                *declaration = map.range(*declaration);
            }
            out.push(r);
        }
    }
    out
}

/// Maps offsets in a string token's decoded value to offsets in the JSON
/// text.
struct OffsetMap {
    /// Where the token's value starts (after its quote).
    start: TextSize,
    /// For a string with escapes, the text offset of each decoded byte
    /// (and of the end); empty when decoded and written bytes coincide.
    table: Vec<u32>,
}

impl OffsetMap {
    fn new(token: &SyntaxToken) -> OffsetMap {
        let start = token.text_range().start() + TextSize::new(1);
        let text = token.text();
        let inner = &text[1..text.len().saturating_sub(1).max(1)];
        if !inner.contains('\\') {
            return OffsetMap {
                start,
                table: Vec::new(),
            };
        }
        let mut table = Vec::with_capacity(inner.len() + 1);
        let mut chars = inner.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let decoded_len = if c == '\\' {
                let escape = chars.next().map(|(_, e)| e);
                match escape {
                    Some('u') => {
                        let hex: String = (0..4)
                            .filter_map(|_| chars.next().map(|(_, h)| h))
                            .collect();
                        char::from_u32(u32::from_str_radix(&hex, 16).unwrap_or(0xFFFD))
                            .unwrap_or('\u{FFFD}')
                            .len_utf8()
                    }
                    _ => 1,
                }
            } else {
                c.len_utf8()
            };
            for _ in 0..decoded_len {
                table.push(at as u32);
            }
        }
        table.push(inner.len() as u32);
        OffsetMap { start, table }
    }

    fn offset(&self, decoded: TextSize) -> TextSize {
        if self.table.is_empty() {
            return self.start + decoded;
        }
        let i = usize::from(decoded).min(self.table.len() - 1);
        self.start + TextSize::new(self.table[i])
    }

    fn range(&self, decoded: TextRange) -> TextRange {
        TextRange::new(self.offset(decoded.start()), self.offset(decoded.end()))
    }
}

/// The edits that rename, as `rename` says, every matching reference in
/// the template strings of a JSON file (the new text escaped for JSON).
///
/// ```
/// use hclwright::refs::Rename;
/// let text = r#"{"locals": {"a": "${var.old}-${var.older}", "b": "${var.old.x}"}}"#;
/// let parse = hclwright::json::parse(text);
/// let renamed = hclwright::json::rename(&parse, &Rename::parse("var.old", "var.new").unwrap());
/// let out = hclwright::diff::apply_edits(text, &renamed.edits).unwrap();
/// assert_eq!(out, r#"{"locals": {"a": "${var.new}-${var.older}", "b": "${var.new.x}"}}"#);
/// ```
pub fn rename(parse: &JsonParse, rename: &crate::refs::Rename) -> crate::refs::Renamed {
    let mut renamed = rename.apply_to(references(parse));
    for edit in &mut renamed.edits {
        let quoted = crate::json::quote(&edit.new_text);
        edit.new_text = quoted[1..quoted.len() - 1].to_string();
    }
    renamed
}
