//! Traversals: a root variable and the chain of attribute, index and splat
//! steps applied to it, with the byte range of every step.

use std::fmt;

use text_size::TextRange;

use crate::ast::{AstNode, Expr, GetAttr, Index, Splat, Variable};
use crate::syntax_kind::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

/// The literal key of an index step.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IndexKey {
    /// A number, as written (`0` in `[0]`).
    Number(String),
    /// A string without interpolation, escapes decoded (`k` in `["k"]`).
    String(String),
}

impl IndexKey {
    /// True when both keys denote the same index: equal strings, or numbers
    /// with the same value (`[1]` and `[01]`).
    pub fn same_key(&self, other: &IndexKey) -> bool {
        match (self, other) {
            (IndexKey::String(a), IndexKey::String(b)) => a == b,
            (IndexKey::Number(a), IndexKey::Number(b)) => same_number(a, b),
            _ => false,
        }
    }
}

/// True when two number texts have the same value: compared as integers
/// when both are integers, otherwise as written.
pub(crate) fn same_number(a: &str, b: &str) -> bool {
    match (a.parse::<u128>(), b.parse::<u128>()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// What a step does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// `.name`
    Attr(String),
    /// `[0]` or `["key"]`: an index by a literal key.
    Index(IndexKey),
    /// The legacy index form `.0`, with the number as written.
    LegacyIndex(String),
    /// `[expr]`: an index by a computed key (shown as `[…]`). The key's own
    /// references are separate references.
    DynamicIndex,
    /// `.*`, the attribute-only splat.
    AttrSplat,
    /// `[*]`, the full splat.
    FullSplat,
}

/// One step of a traversal after its root.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// What the step does.
    pub kind: StepKind,
    /// The step's text, from its `.` or `[` to its end (`.name`, `[0]`,
    /// `[count.index]`, `.*`).
    pub range: TextRange,
    /// The part that names the step: the attribute name, the index
    /// number, the inside of the quotes of a string key, the key
    /// expression of a dynamic index, or the `*` of a splat.
    pub name_range: TextRange,
}

/// A traversal that starts at a variable: `var.subnets[0].id`,
/// `foo.x[…].name`, `aws_instance.web[*].id`.
///
/// It follows the postfix chain as far as it goes, through dynamic indexes
/// and splats, and stops at the first node that is not an attribute
/// access, an index or a splat of the chain so far (a parenthesis, an
/// operator, a function call).
///
/// ```
/// use hclwright::refs::{StepKind, references};
/// let parse = hclwright::parse_expr("foo.x[count.index].name");
/// let refs = references(&parse.syntax());
/// assert_eq!(refs[0].traversal.to_string(), "foo.x[…].name");
/// assert_eq!(refs[0].traversal.steps[1].kind, StepKind::DynamicIndex);
/// assert_eq!(refs[1].traversal.to_string(), "count.index");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Traversal {
    /// The root variable's name.
    pub root: String,
    /// The range of the root name.
    pub root_range: TextRange,
    /// The steps after the root, in order.
    pub steps: Vec<Step>,
}

impl Traversal {
    /// The range from the root to the end of the last step.
    pub fn range(&self) -> TextRange {
        match self.steps.last() {
            Some(last) => TextRange::new(self.root_range.start(), last.range.end()),
            None => self.root_range,
        }
    }

    /// The attribute names of the leading run of attribute steps after the
    /// root, root included: `["module", "vpc", "id"]` for
    /// `module.vpc.id[0].x`.
    pub fn leading_names(&self) -> Vec<&str> {
        let mut names = vec![self.root.as_str()];
        for step in &self.steps {
            match &step.kind {
                StepKind::Attr(name) => names.push(name),
                _ => break,
            }
        }
        names
    }

    /// Builds the traversal rooted at a variable node, following its
    /// postfix chain upwards. `None` if `var` is not a `VARIABLE` node with
    /// a name.
    pub fn from_variable(var: &SyntaxNode) -> Option<Traversal> {
        let variable = Variable::cast(var.clone())?;
        let name = variable.name_token()?;
        let mut steps = Vec::new();
        let mut current = var.clone();
        while let Some(parent) = current.parent() {
            if !is_target_of(&parent, &current) {
                break;
            }
            let Some(step) = step_of(&parent, &current) else {
                break;
            };
            steps.push(step);
            current = parent;
        }
        Some(Traversal {
            root: name.text().to_string(),
            root_range: name.text_range(),
            steps,
        })
    }
}

/// True when `parent` is an attribute access, index or splat applied to
/// `child` (and not, say, an index whose key is `child`).
fn is_target_of(parent: &SyntaxNode, child: &SyntaxNode) -> bool {
    let target = match parent.kind() {
        GET_ATTR => GetAttr::cast(parent.clone()).and_then(|n| n.target()),
        INDEX => Index::cast(parent.clone()).and_then(|n| n.target()),
        SPLAT => Splat::cast(parent.clone()).and_then(|n| n.target()),
        _ => None,
    };
    target.is_some_and(|t| t.syntax() == child)
}

/// The step that `parent` applies to its target `target`.
fn step_of(parent: &SyntaxNode, target: &SyntaxNode) -> Option<Step> {
    let (start, end) = step_bounds(parent, target)?;
    let range = TextRange::new(start, end);
    let (kind, name_range) = match parent.kind() {
        GET_ATTR => {
            let name = GetAttr::cast(parent.clone())?.name_token()?;
            (StepKind::Attr(name.text().to_string()), name.text_range())
        }
        INDEX => index_step(&Index::cast(parent.clone())?)?,
        SPLAT => {
            let splat = Splat::cast(parent.clone())?;
            let star = direct_token(parent, STAR)?;
            let kind = if splat.is_full() {
                StepKind::FullSplat
            } else {
                StepKind::AttrSplat
            };
            (kind, star.text_range())
        }
        _ => return None,
    };
    Some(Step {
        kind,
        range,
        name_range,
    })
}

fn index_step(index: &Index) -> Option<(StepKind, TextRange)> {
    if index.is_legacy() {
        let number = index.legacy_index()?;
        return Some((
            StepKind::LegacyIndex(number.text().to_string()),
            number.text_range(),
        ));
    }
    let key = index.key()?;
    let key_range = key.syntax().text_range();
    let literal = match &key {
        Expr::Literal(lit) => lit
            .token()
            .filter(|t| t.kind() == NUMBER)
            .map(|t| (IndexKey::Number(t.text().to_string()), t.text_range())),
        Expr::QuotedTemplate(tpl) if tpl.is_terminated() => {
            let value = tpl.literal_value();
            let open = direct_token(tpl.syntax(), OPEN_QUOTE);
            let close = direct_token(tpl.syntax(), CLOSE_QUOTE);
            match (value, open, close) {
                (Some(value), Some(open), Some(close)) => Some((
                    IndexKey::String(value),
                    TextRange::new(open.text_range().end(), close.text_range().start()),
                )),
                _ => None,
            }
        }
        _ => None,
    };
    Some(match literal {
        Some((key, range)) => (StepKind::Index(key), range),
        None => (StepKind::DynamicIndex, key_range),
    })
}

/// The range of the step's own text: from the first significant token
/// after the target to the last significant token of `parent`.
fn step_bounds(
    parent: &SyntaxNode,
    target: &SyntaxNode,
) -> Option<(text_size::TextSize, text_size::TextSize)> {
    let after = target.text_range().end();
    let significant = |t: &SyntaxToken| !is_trivia(t.kind());
    let first = parent
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.text_range().start() >= after)
        .find(significant)?;
    let last = parent
        .last_token()
        .into_iter()
        .flat_map(|t| std::iter::successors(Some(t), |t| t.prev_token()))
        .find(significant)?;
    (last.text_range().end() > first.text_range().start())
        .then(|| (first.text_range().start(), last.text_range().end()))
}

fn is_trivia(kind: SyntaxKind) -> bool {
    matches!(kind, WHITESPACE | NEWLINE | COMMENT)
}

fn direct_token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == kind)
}

impl fmt::Display for Traversal {
    /// `foo.x[…].name`: dynamic indexes are shown as `[…]`, string keys
    /// are quoted with HCL escapes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.root)?;
        for step in &self.steps {
            write!(f, "{}", step.kind)?;
        }
        Ok(())
    }
}

impl fmt::Display for StepKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepKind::Attr(name) => write!(f, ".{name}"),
            StepKind::Index(IndexKey::Number(n)) => write!(f, "[{n}]"),
            StepKind::Index(IndexKey::String(s)) => write!(f, "[\"{}\"]", escape_string(s)),
            StepKind::LegacyIndex(n) => write!(f, ".{n}"),
            StepKind::DynamicIndex => f.write_str("[…]"),
            StepKind::AttrSplat => f.write_str(".*"),
            StepKind::FullSplat => f.write_str("[*]"),
        }
    }
}

/// Escapes `s` for the inside of an HCL quoted string: `\\`, `\"`, `\n`,
/// `\r`, `\t`, other control characters as `\uNNNN`, and `${` / `%{` as
/// `$${` / `%%{`.
///
/// ```
/// assert_eq!(hclwright::refs::escape_string("a\"b${c}\n"), "a\\\"b$${c}\\n");
/// ```
pub fn escape_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::decode_quoted;

    #[test]
    fn escape_round_trips_through_decode() {
        for s in [
            "plain",
            "q\"uote",
            "back\\slash",
            "${x} %{y}",
            "tab\tnl\n",
            "\u{1}",
        ] {
            assert_eq!(decode_quoted(&escape_string(s)), s, "{s:?}");
        }
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(same_number("1", "01"));
        assert!(!same_number("1", "2"));
        assert!(same_number("1.5", "1.5"));
        assert!(!same_number("1.5", "1.50"));
    }
}
