//! The three normalizations `terraform fmt` applies before the layout:
//! interpolation-only unwrap, `variable` type normalization, quoted block
//! labels. They are found on the syntax tree and applied as text edits;
//! the token formatter then lays the result out.
//!
//! The walk reads the green tree directly (kinds, lengths and token texts,
//! offsets summed on the way), which allocates nothing for the nodes it
//! passes: this runs on every file of `fmt -check -recursive`.

use rowan::{GreenNodeData, GreenTokenData, NodeOrToken};
use text_size::{TextRange, TextSize};

use super::quoted::{decode_strict, escape};
use crate::diff::{TextEdit, apply_edits};
use crate::syntax_kind::SyntaxKind::{self, *};

type Child<'a> = NodeOrToken<&'a GreenNodeData, &'a GreenTokenData>;

/// Applies the normalizations to `text`, whose syntax tree is `root`.
/// True unless the text certainly needs none of the normalizations, judged
/// from its tokens alone (so the syntax tree need not be built for the
/// files — most of them — that only need the layout). Conservative: any
/// token pattern that could start a normalization answers true.
///
/// - an interpolation-only value starts with `"` immediately followed by
///   `${`;
/// - a normalizable `type` is `type =` followed by `list`, `map`, `set` or
///   a quoted `"string"`, `"list"`, `"map"`;
/// - a bare label is an identifier after the identifier that starts a line.
pub(crate) fn may_normalize(text: &str, toks: &[crate::lexer::Token]) -> bool {
    let src = text.as_bytes();
    // The text of token `k`, counting from token `i` that starts at `at`
    // (offsets are summed on the way; only a few tokens need their text).
    let text_from = |i: usize, at: usize, k: usize| {
        let start = at + toks[i..k].iter().map(|t| t.len as usize).sum::<usize>();
        &src[start..start + toks[k].len as usize]
    };
    // The next token at or after `i` that is not whitespace or a comment.
    let next = |mut i: usize| {
        while i < toks.len() && matches!(toks[i].kind, WHITESPACE | COMMENT) {
            i += 1;
        }
        i
    };
    let mut line_start = true;
    let mut offset = 0usize;
    for (i, tok) in toks.iter().enumerate() {
        let start = offset;
        offset += tok.len as usize;
        let kind = tok.kind;
        match kind {
            OPEN_QUOTE if toks.get(i + 1).is_some_and(|t| t.kind == INTERP_START) => return true,
            IDENT => {
                let j = next(i + 1);
                if line_start && has_bare_label(toks, j, next) {
                    return true;
                }
                if src[start..offset] == *b"type" && toks.get(j).is_some_and(|t| t.kind == EQ) {
                    let k = next(j + 1);
                    match toks.get(k).map(|t| t.kind) {
                        Some(IDENT)
                            if matches!(text_from(i, start, k), b"list" | b"map" | b"set")
                                && toks.get(next(k + 1)).is_none_or(|t| t.kind != L_PAREN) =>
                        {
                            return true;
                        }
                        Some(OPEN_QUOTE) => return true,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        if kind == NEWLINE {
            line_start = true;
        } else if kind != WHITESPACE {
            line_start = false;
        }
    }
    false
}

/// After a line's first identifier, at token `j`: is there a bare
/// identifier among what could be block labels (identifiers and quoted
/// strings)?
fn has_bare_label(
    toks: &[crate::lexer::Token],
    mut j: usize,
    next: impl Fn(usize) -> usize,
) -> bool {
    loop {
        match toks.get(j).map(|t| t.kind) {
            Some(IDENT) => return true,
            Some(OPEN_QUOTE) => {
                let mut k = j + 1;
                while toks
                    .get(k)
                    .is_some_and(|t| !matches!(t.kind, CLOSE_QUOTE | NEWLINE))
                {
                    k += 1;
                }
                if toks.get(k).map(|t| t.kind) != Some(CLOSE_QUOTE) {
                    return false;
                }
                j = next(k + 1);
            }
            _ => return false,
        }
    }
}

pub(crate) fn normalize(text: &str, root: &GreenNodeData) -> String {
    let mut edits = Vec::new();
    // (body, its offset, is the body of a top-level `variable` block, is
    // the top-level body)
    let mut stack: Vec<(&GreenNodeData, u32, bool, bool)> = children(root, 0)
        .filter_map(|(c, off)| node_of(c, BODY).map(|b| (b, off, false, true)))
        .collect();
    while let Some((body, offset, in_variable, top)) = stack.pop() {
        for (child, off) in children(body, offset) {
            let Some(node) = child.into_node() else {
                continue;
            };
            match kind(node) {
                ATTRIBUTE => edits.extend(attribute(node, off, in_variable)),
                BLOCK => {
                    let mut is_variable = false;
                    for (part, at) in children(node, off) {
                        match part {
                            NodeOrToken::Token(t) if kind(t) == IDENT => {
                                is_variable = top && t.text() == "variable";
                            }
                            NodeOrToken::Node(n) if kind(n) == BLOCK_LABEL => {
                                edits.extend(quote_label(n, at));
                            }
                            NodeOrToken::Node(n) if kind(n) == BODY => {
                                stack.push((n, at, is_variable, false));
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if edits.is_empty() {
        return text.to_string();
    }
    edits.sort_by_key(|e| e.range.start());
    // The edits replace disjoint nodes (values, labels) of one tree.
    apply_edits(text, &edits).unwrap_or_else(|_| text.to_string())
}

/// The edit for one attribute: type normalization for `type` in a
/// top-level `variable` block, interpolation unwrap otherwise.
fn attribute(node: &GreenNodeData, offset: u32, in_variable: bool) -> Option<TextEdit> {
    let mut name = None;
    let mut value = None;
    for (child, off) in children(node, offset) {
        match child {
            NodeOrToken::Token(t) if kind(t) == IDENT && name.is_none() => name = Some(t.text()),
            NodeOrToken::Node(n) if kind(n).is_expr() && value.is_none() => value = Some((n, off)),
            _ => {}
        }
    }
    let (value, off) = value?;
    if in_variable && name == Some("type") {
        normalize_type(value, off)
    } else {
        unwrap_interpolation(value, off)
    }
}

/// `"${expr}"` → `expr` (wrapped in parentheses if it spans lines).
fn unwrap_interpolation(template: &GreenNodeData, offset: u32) -> Option<TextEdit> {
    if kind(template) != QUOTED_TEMPLATE {
        return None;
    }
    let parts: Vec<(Child<'_>, u32)> = children(template, offset).collect();
    let [(open, _), (interp, at), (close, _)] = parts.as_slice() else {
        return None;
    };
    if child_kind(open) != OPEN_QUOTE
        || child_kind(interp) != INTERPOLATION
        || child_kind(close) != CLOSE_QUOTE
    {
        return None;
    }
    let mut toks = Vec::new();
    collect_tokens(interp.as_node()?, *at, &mut toks);
    // Drop the interpolation's own `${` and `}` (nested ones stay).
    if toks.first().map(|t| t.kind) == Some(INTERP_START) {
        toks.remove(0);
    }
    if toks.last().map(|t| t.kind) == Some(TEMPLATE_SEQ_END) {
        toks.pop();
    }
    let units = units(&toks);
    let first = units.iter().position(|u| u.kind != NEWLINE)?;
    let last = units.iter().rposition(|u| u.kind != NEWLINE)?;
    let units = &units[first..=last];
    let inner: String = toks[units[0].first..=units[units.len() - 1].last]
        .iter()
        .map(|t| t.text)
        .collect();
    // As terraform: a value that spans lines is wrapped in parentheses
    // unless it starts with `(` and ends with `)`. Where that would leave a
    // newline (or a line comment's newline) outside any bracket, which
    // ends the attribute and breaks the file (`(a)` newline `+ (b)`), it
    // is wrapped too.
    let multi_line = units.iter().any(|u| u.kind == NEWLINE);
    let looks_wrapped = units[0].kind == L_PAREN && units[units.len() - 1].kind == R_PAREN;
    let new_text = if (multi_line && !looks_wrapped) || breaks_at_top_level(units) {
        format!("({inner})")
    } else {
        inner
    };
    Some(TextEdit::replace(range(offset, template), new_text))
}

/// True if a newline, or a line comment before the end (its newline),
/// stands outside every bracket: unwrapped, it would end the attribute.
fn breaks_at_top_level(units: &[Unit]) -> bool {
    let mut depth = 0;
    for (i, u) in units.iter().enumerate() {
        let line_comment = u.kind == COMMENT && u.first < u.last;
        if depth <= 0 && (u.kind == NEWLINE || (line_comment && i + 1 < units.len())) {
            return true;
        }
        depth += u.kind.bracket_value();
    }
    false
}

/// A token of an interpolation's inside as upstream sees it: whitespace
/// dropped, a line comment merged with its newline. `first..=last` are
/// indexes into the collected tokens.
struct Unit {
    kind: SyntaxKind,
    first: usize,
    last: usize,
}

/// The units of the tokens between an interpolation's `${` and `}`.
fn units(toks: &[Tok<'_>]) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind == WHITESPACE {
            continue;
        }
        let merges = t.kind == NEWLINE
            && i > 0
            && toks[i - 1].kind == COMMENT
            && !toks[i - 1].text.starts_with("/*");
        match out.last_mut() {
            Some(u) if merges => u.last = i,
            _ => out.push(Unit {
                kind: t.kind,
                first: i,
                last: i,
            }),
        }
    }
    out
}

/// The `type` of a top-level `variable` block: `list` → `list(any)`,
/// `"string"` → `string`, `"list"` → `list(string)`, …
fn normalize_type(value: &GreenNodeData, offset: u32) -> Option<TextEdit> {
    let mut toks = Vec::new();
    collect_tokens(value, offset, &mut toks);
    toks.retain(|t| !matches!(t.kind, WHITESPACE | NEWLINE));
    let kinds: Vec<SyntaxKind> = toks.iter().map(|t| t.kind).collect();
    let new_text = match kinds.as_slice() {
        [IDENT] => match toks[0].text {
            "list" | "map" | "set" => format!("{}(any)", toks[0].text),
            _ => return None,
        },
        [OPEN_QUOTE, TEMPLATE_LITERAL, CLOSE_QUOTE] => match toks[1].text {
            "string" => "string".to_string(),
            "list" => "list(string)".to_string(),
            "map" => "map(string)".to_string(),
            _ => return None,
        },
        _ => return None,
    };
    Some(TextEdit::replace(range(offset, value), new_text))
}

/// A bare label is quoted; a quoted one is re-encoded the way `terraform
/// fmt` writes strings (e.g. `"\u0041"` → `"A"`).
fn quote_label(label: &GreenNodeData, offset: u32) -> Option<TextEdit> {
    let mut toks = Vec::new();
    collect_tokens(label, offset, &mut toks);
    toks.retain(|t| t.kind != WHITESPACE);
    match toks.as_slice() {
        [ident] if ident.kind == IDENT => Some(TextEdit::replace(
            ident.range(),
            format!("\"{}\"", escape(ident.text)),
        )),
        [open, lit, close]
            if open.kind == OPEN_QUOTE
                && lit.kind == TEMPLATE_LITERAL
                && close.kind == CLOSE_QUOTE =>
        {
            if is_plain(lit.text) {
                return None;
            }
            let new_text = escape(&decode_strict(lit.text)?);
            (new_text != lit.text).then(|| TextEdit::replace(lit.range(), new_text))
        }
        _ => None,
    }
}

/// True when decoding and re-encoding `literal` cannot change it: no
/// escapes, no template introducers, only characters written as they are.
fn is_plain(literal: &str) -> bool {
    literal
        .chars()
        .all(|c| c.is_ascii_graphic() && !matches!(c, '\\' | '$' | '%') || c == ' ')
}

// ----- reading the green tree -----

/// A token with its absolute start offset.
struct Tok<'a> {
    kind: SyntaxKind,
    start: u32,
    text: &'a str,
}

impl Tok<'_> {
    fn range(&self) -> TextRange {
        TextRange::at(TextSize::from(self.start), TextSize::of(self.text))
    }
}

/// The children of `node` with their absolute offsets, given the node's.
fn children(node: &GreenNodeData, offset: u32) -> impl Iterator<Item = (Child<'_>, u32)> {
    node.children().scan(offset, |at, child| {
        let start = *at;
        *at += u32::from(child_len(&child));
        Some((child, start))
    })
}

/// Every token under `node`, in order, with absolute offsets.
fn collect_tokens<'a>(node: &'a GreenNodeData, offset: u32, out: &mut Vec<Tok<'a>>) {
    for (child, at) in children(node, offset) {
        match child {
            NodeOrToken::Token(t) => out.push(Tok {
                kind: kind(t),
                start: at,
                text: t.text(),
            }),
            NodeOrToken::Node(n) => collect_tokens(n, at, out),
        }
    }
}

fn child_len(child: &Child<'_>) -> TextSize {
    match child {
        NodeOrToken::Node(n) => n.text_len(),
        NodeOrToken::Token(t) => t.text_len(),
    }
}

fn child_kind(child: &Child<'_>) -> SyntaxKind {
    match child {
        NodeOrToken::Node(n) => kind(*n),
        NodeOrToken::Token(t) => kind(*t),
    }
}

fn node_of<'a>(child: Child<'a>, want: SyntaxKind) -> Option<&'a GreenNodeData> {
    child.into_node().filter(|n| kind(*n) == want)
}

/// The kind of a green node or token.
fn kind(element: impl GreenKind) -> SyntaxKind {
    SyntaxKind::from_raw(element.raw_kind()).unwrap_or(ERROR)
}

/// Access to the raw kind of green nodes and tokens alike.
trait GreenKind {
    fn raw_kind(&self) -> u16;
}

impl GreenKind for &GreenNodeData {
    fn raw_kind(&self) -> u16 {
        self.kind().0
    }
}

impl GreenKind for &GreenTokenData {
    fn raw_kind(&self) -> u16 {
        self.kind().0
    }
}

fn range(offset: u32, node: &GreenNodeData) -> TextRange {
    TextRange::at(TextSize::from(offset), node.text_len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(text: &str) -> String {
        let parse = crate::parse(text);
        assert!(parse.errors().is_empty(), "{:?}", parse.errors());
        normalize(text, parse.green())
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
        // A line comment at the end keeps its newline, as in terraform.
        assert_eq!(tf("a = \"${x # c\n}\"\n"), "a = x # c\n\n");
        // Where terraform writes invalid HCL, the value is wrapped instead:
        // a line comment before the end, parentheses that do not enclose
        // everything.
        assert_eq!(tf("a = \"${\n# c\nx\n}\"\n"), "a = (# c\nx)\n");
        assert_eq!(tf("a = \"${(a)\n+ (b)}\"\n"), "a = ((a)\n+ (b))\n");
        // Nested templates count as brackets too.
        assert_eq!(
            tf("a = \"${(\"${b}\")\n+ (c)}\"\n"),
            "a = ((\"${b}\")\n+ (c))\n"
        );
        assert_eq!(
            tf("a = \"${(\"${b}\" +\n c)}\"\n"),
            "a = (\"${b}\" +\n c)\n"
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
        // Not in a top-level variable block: unchanged (but unwrapped).
        assert_eq!(
            tf("x {\n  type = list\n  variable {\n    type = map\n  }\n}\n"),
            "x {\n  type = list\n  variable {\n    type = map\n  }\n}\n"
        );
    }

    #[test]
    fn quotes_labels_and_keeps_comments() {
        assert_eq!(
            tf("module foo /* c */ bar {\n  x y {}\n}\n"),
            "module \"foo\" /* c */ \"bar\" {\n  x \"y\" {}\n}\n"
        );
        assert_eq!(tf("a \"\\u0041\" {}\n"), "a \"A\" {}\n");
        assert_eq!(tf("a \"x$${y}\" {}\n"), "a \"x$${y}\" {}\n");
        assert_eq!(tf("a \"é b\" {}\n"), "a \"é b\" {}\n");
    }
}

#[cfg(test)]
mod may_normalize_tests {
    use super::may_normalize;

    #[test]
    fn finds_every_kind_of_normalization() {
        for text in [
            "a = \"${var.x}\"\n",
            "variable \"v\" {\n  type = list\n}\n",
            "variable \"v\" {\n  type = \"string\"\n}\n",
            "module foo {\n}\n",
            "resource \"a\" b {\n}\n",
            "resource /* c */ x \"y\" {\n}\n",
        ] {
            assert!(
                may_normalize(text, &crate::lexer::tokenize(text).tokens),
                "{text:?}"
            );
        }
    }

    #[test]
    fn layout_only_files_need_no_tree() {
        for text in [
            "a = \"x-${var.y}\"\n",
            "variable \"v\" {\n  type = list(string)\n}\n",
            "resource \"a\" \"b\" {\n  count = 1\n}\n",
        ] {
            assert!(
                !may_normalize(text, &crate::lexer::tokenize(text).tokens),
                "{text:?}"
            );
        }
    }
}

#[cfg(test)]
mod may_normalize_exhaustive {
    use super::{may_normalize, normalize};

    /// Every combination of a `variable` type, a block's labels and an
    /// attribute value: whenever the pre-check says no tree is needed,
    /// building one and normalizing indeed changes nothing.
    #[test]
    fn no_false_negatives() {
        let types = [
            "list",
            "map",
            "set",
            "\"string\"",
            "\"list\"",
            "\"map\"",
            "list(string)",
            "string",
            "any",
            "\"x\"",
            "map(any)",
        ];
        let labels = [
            "",
            " a",
            " \"a\"",
            " a \"b\"",
            " \"a\" b",
            " \"a\" /* c */ b",
            " \"a\" \"b\"",
        ];
        let values = [
            "\"${var.x}\"",
            "\"x-${var.y}\"",
            "\"s\"",
            "var.z",
            "\"${a}${b}\"",
            "[\"${c}\"]",
            "{ k = \"${d}\" }",
            "\"%{ if e }f%{ endif }\"",
        ];
        let (mut skipped, mut built) = (0, 0);
        for t in types {
            for l in labels {
                for v in values {
                    let text = format!(
                        "variable \"v\" {{\n  type = {t}\n}}\n\nblock{l} {{\n  attr = {v}\n}}\n"
                    );
                    let parse = crate::parse(&text);
                    assert!(parse.errors().is_empty(), "{text}");
                    if may_normalize(&text, &crate::lexer::tokenize(&text).tokens) {
                        built += 1;
                    } else {
                        skipped += 1;
                        assert_eq!(normalize(&text, parse.green()), text, "{text}");
                    }
                }
            }
        }
        assert!(
            skipped > 20 && built > 20,
            "skipped {skipped}, built {built}"
        );
    }
}
