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

mod precheck;

pub(crate) use precheck::may_normalize;

type Child<'a> = NodeOrToken<&'a GreenNodeData, &'a GreenTokenData>;

/// Applies the normalizations to `text`, whose syntax tree is `root`.
/// Bytes of top-level items normalized from one tree: a large file is
/// normalized run by run, holding one run's tree at a time (the tree is
/// about nine bytes per byte of text).
const RUN: usize = 64 * 1024;

/// [`normalize`] for a whole valid file given its tokens, run by run of
/// top-level items (the normalizations never reach across items); runs
/// whose tokens show nothing to normalize are copied without a tree.
pub(crate) fn normalize_by_items(text: &str, tokens: &[crate::lexer::Token]) -> String {
    normalize_in_runs(text, tokens, RUN).unwrap_or_else(|| {
        // A run that does not parse on its own would be a mistake in
        // finding item boundaries: the whole tree is the safe answer.
        normalize(text, crate::parse(text).green())
    })
}

/// [`normalize_by_items`] with runs of at least `run` bytes; `None` if a
/// run does not parse cleanly on its own.
fn normalize_in_runs(text: &str, tokens: &[crate::lexer::Token], run: usize) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0u32;
    let (mut offset, mut run_start, mut first_token) = (0usize, 0usize, 0usize);
    let flush = |from: usize, to: usize, toks: &[crate::lexer::Token], out: &mut String| {
        let slice = &text[from..to];
        if may_normalize(slice, toks) {
            let parse = crate::parse(slice);
            if !parse.errors().is_empty() {
                return false;
            }
            out.push_str(&normalize(slice, parse.green()));
        } else {
            out.push_str(slice);
        }
        true
    };
    for (i, token) in tokens.iter().enumerate() {
        offset += token.len as usize;
        match token.kind {
            L_BRACE | L_BRACK | L_PAREN | OPEN_QUOTE | HEREDOC_START | INTERP_START
            | DIRECTIVE_START => depth += 1,
            R_BRACE | R_BRACK | R_PAREN | CLOSE_QUOTE | HEREDOC_END | TEMPLATE_SEQ_END => {
                depth = depth.saturating_sub(1)
            }
            NEWLINE if depth == 0 && offset - run_start >= run => {
                if !flush(run_start, offset, &tokens[first_token..=i], &mut out) {
                    return None;
                }
                run_start = offset;
                first_token = i + 1;
            }
            _ => {}
        }
    }
    flush(run_start, text.len(), &tokens[first_token..], &mut out).then_some(out)
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

    /// Normalized run by run, a file larger than a run gives what one
    /// tree gives: many top-level items of every kind the normalizations
    /// touch (interpolations to unwrap, quoted types, labels), with
    /// heredocs, braces inside strings and comments, and items spanning
    /// lines, so that runs end at every kind of item.
    #[test]
    fn runs_of_items_normalize_as_the_whole_file() {
        let mut text = String::new();
        let mut k = 0;
        while text.len() < 4 * RUN {
            text.push_str(&format!(
                "variable \"v{k}\" {{\n  type = \"string\"\n  default = \"${{var.x}}\"\n}}\n\
                 resource \"r\" \"n{k}\" {{\n  a = \"${{f(\"${{b}}\")}}\"\n  h = <<EOF\n${{\"${{x}}\"}}\n}}\nEOF\n  # {{ comment\n  m = {{\n    k = \"${{x ?\n1 : 2}}\"\n  }}\n}}\n\
                 a{k} = \"${{var.y}}\" /* {{ */\n\
                 t{k} = <<-EOT\n  ${{\"${{y}}\"}}\n\n  x\n  EOT\n\
                 locals {{\n  l{k} = [\"${{x}}\", \"}}\"]\n}}\n\n"
            ));
            k += 1;
        }
        let parse = crate::parse(&text);
        assert!(parse.errors().is_empty(), "{:?}", &parse.errors()[..1]);
        let whole = normalize(&text, parse.green());
        let tokens = crate::lexer::tokenize(&text).tokens;
        assert_eq!(normalize_by_items(&text, &tokens), whole);
        // A run per item: every top-level newline is a boundary.
        assert_eq!(normalize_in_runs(&text, &tokens, 1).as_ref(), Some(&whole));
        assert_ne!(whole, text);
    }

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
