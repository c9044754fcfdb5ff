//! Resolution of an [`Address`] against a tree.

use rowan::{GreenNodeData, NodeOrToken};
use text_size::TextRange;

use crate::ast::{AstNode, Attribute, Block, Body, Expr, LiteralValue, decode_quoted};
use crate::syntax_kind::SyntaxKind::*;

use super::address::{Address, Step};
use super::error::EditError;
use super::index::first_ident;
use super::item::Item;

/// The top-level children an address can match, from the document's
/// index: their positions and ranges, in order.
pub(crate) struct TopHint {
    /// The candidate children: position among the body's children, and
    /// range.
    pub children: Vec<(usize, TextRange)>,
}

/// Every item the address matches, in source order, or the reason none
/// does; looking at the top level only at the children of
/// `hint` when given.
pub(crate) fn resolve_all_hinted(
    body: &Body,
    address: &Address,
    hint: Option<&TopHint>,
) -> Result<Vec<Item>, EditError> {
    let steps = address.steps();
    let mut out = Vec::new();
    let mut deepest = 0;
    if let Some(hint) = hint {
        let green = body.syntax().green();
        for &(i, range) in &hint.children {
            if let Some(NodeOrToken::Node(child)) = green.children().nth(i) {
                visit_item(body, child, range, steps, 0, &mut out, &mut deepest);
            }
        }
    }
    if out.is_empty() {
        // Not found (or no hint): every item is looked at, which also
        // tells how much of the address matched.
        walk_body(body, steps, 0, &mut out, &mut deepest);
    }
    if out.is_empty() {
        let matched = Address::new(steps[..deepest].to_vec());
        if deepest > 0
            && let Some(err) = no_parts(body, address, &matched)
        {
            return Err(err);
        }
        return Err(EditError::NotFound {
            address: address.to_string(),
            matched: matched.to_string_or_empty(),
        });
    }
    Ok(out)
}

/// The error for an address that goes on past an item without parts
/// (the `matched` prefix is an attribute, object item or element whose
/// value is not an object or a tuple), if that is why nothing matched.
fn no_parts(body: &Body, address: &Address, matched: &Address) -> Option<EditError> {
    let mut items = Vec::new();
    let mut deepest = 0;
    walk_body(body, matched.steps(), 0, &mut items, &mut deepest);
    let item = items.first()?;
    if container_of(item).is_some() {
        return None;
    }
    let value = unparen(&item.value_expr()?);
    let kind = match &value {
        Expr::Literal(literal) => match literal.value() {
            Some(LiteralValue::Number(_)) => "a number",
            Some(LiteralValue::Bool(_)) => "a bool",
            Some(LiteralValue::Null) => "null",
            _ => "a literal",
        },
        Expr::QuotedTemplate(_) | Expr::HeredocTemplate(_) => "a string",
        Expr::FunctionCall(_) => "a function call",
        Expr::Variable(_) | Expr::GetAttr(_) | Expr::Index(_) | Expr::Splat(_) => "a reference",
        Expr::ForExpr(_) => "a `for` expression",
        Expr::Conditional(_) => "a conditional",
        _ => "an expression",
    };
    let text = value.syntax().to_string();
    let shown = match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    };
    Some(EditError::NoParts {
        address: address.to_string(),
        item: matched.to_string(),
        kind: kind.to_string(),
        value: shown,
    })
}

/// The one item the address matches (all of them when it has a `*`),
/// looking at the top level as `hint` says.
pub(crate) fn resolve_hinted(
    body: &Body,
    address: &Address,
    hint: Option<&TopHint>,
) -> Result<Vec<Item>, EditError> {
    let items = resolve_all_hinted(body, address, hint)?;
    if items.len() > 1 && !address.has_wildcard() {
        return Err(EditError::Ambiguous {
            address: address.to_string(),
            count: items.len(),
        });
    }
    Ok(items)
}

/// The one item the address matches (all of them when it has a `*`).
#[cfg(test)]
pub(crate) fn resolve(body: &Body, address: &Address) -> Result<Vec<Item>, EditError> {
    resolve_hinted(body, address, None)
}

impl Address {
    pub(crate) fn to_string_or_empty(&self) -> String {
        if self.steps().is_empty() {
            String::new()
        } else {
            self.to_string()
        }
    }
}

/// Compares a label (green) with a step without allocating when the
/// label is an identifier or a plain quoted string.
fn label_matches(label: &GreenNodeData, step: &Step) -> bool {
    if matches!(step, Step::Any) {
        return true;
    }
    // A label may be written as a name (`module.vpc`) or as a quoted key
    // (`module["vpc"]`, the only way to write an empty label).
    let (Step::Name(name) | Step::Key(name)) = step else {
        return false;
    };
    let mut literal: Option<&str> = None;
    let mut parts = 0;
    for c in label.children() {
        if let NodeOrToken::Token(t) = c {
            if t.kind() == IDENT.into() {
                return t.text() == name;
            }
            if t.kind() == TEMPLATE_LITERAL.into() {
                literal = Some(t.text());
                parts += 1;
            }
        }
    }
    match (literal, parts) {
        (None, 0) => name.is_empty(),
        (Some(text), 1) if !text.contains(['\\', '$', '%']) => text == name,
        _ => {
            let text: String = label
                .children()
                .filter_map(|c| c.into_token())
                .filter(|t| t.kind() == TEMPLATE_LITERAL.into())
                .map(|t| decode_quoted(t.text()))
                .collect();
            &text == name
        }
    }
}

fn walk_body(body: &Body, steps: &[Step], i: usize, out: &mut Vec<Item>, deepest: &mut usize) {
    let Some(step) = steps.get(i) else {
        return;
    };
    if matches!(step, Step::Key(_) | Step::Index(_)) {
        return;
    }
    // The children are looked at on the green tree (no allocation); a
    // syntax node is made only for the matches.
    let mut offset = body.syntax().text_range().start();
    for child in body.syntax().green().children() {
        let len = child.text_len();
        let range = TextRange::at(offset, len);
        offset += len;
        if let NodeOrToken::Node(green) = child {
            visit_item(body, green, range, steps, i, out, deepest);
        }
    }
}

/// How many steps from `i` on a body item (green) matches: 1 for an
/// attribute, 1 + its labels for a block; `None` when it does not
/// match. Updates `deepest` with how far it matched.
fn item_match(
    green: &GreenNodeData,
    steps: &[Step],
    i: usize,
    deepest: &mut usize,
) -> Option<usize> {
    let step = steps.get(i)?;
    let is_attr = green.kind() == ATTRIBUTE.into();
    if !is_attr && green.kind() != BLOCK.into() {
        return None;
    }
    if !first_ident(green).is_some_and(|n| step.matches_name(n)) {
        return None;
    }
    *deepest = (*deepest).max(i + 1);
    if is_attr {
        return Some(1);
    }
    // Counts the labels and how many match, in one pass.
    let (mut count, mut matched) = (0, 0);
    for label in green.children().filter_map(|c| c.into_node()) {
        if label.kind() != BLOCK_LABEL.into() {
            continue;
        }
        let step = steps.get(i + 1 + count);
        if matched == count && step.is_some_and(|s| label_matches(label, s)) {
            matched += 1;
        }
        count += 1;
    }
    *deepest = (*deepest).max(i + 1 + matched);
    (matched == count && i + 1 + count <= steps.len()).then_some(1 + count)
}

/// True when a top-level item (green) matches the first steps of an
/// address: everything the address designates is inside it.
pub(crate) fn matches_top(green: &GreenNodeData, steps: &[Step]) -> bool {
    if matches!(steps.first(), None | Some(Step::Key(_) | Step::Index(_))) {
        return false;
    }
    item_match(green, steps, 0, &mut 0).is_some()
}

/// Looks for the address from step `i` in one body item (`green`, at
/// `range` in the tree of `body`).
fn visit_item(
    body: &Body,
    green: &GreenNodeData,
    range: TextRange,
    steps: &[Step],
    i: usize,
    out: &mut Vec<Item>,
    deepest: &mut usize,
) {
    if matches!(steps.get(i), None | Some(Step::Key(_) | Step::Index(_))) {
        return;
    }
    let Some(used) = item_match(green, steps, i, deepest) else {
        return;
    };
    let Some(item) = body.syntax().covering_element(range).into_node() else {
        return;
    };
    if let Some(attr) = Attribute::cast(item.clone()) {
        if i + 1 == steps.len() {
            out.push(Item::Attribute(attr));
        } else if let Some(expr) = attr.expr() {
            walk_value(&expr, steps, i + 1, out, deepest);
        }
    } else if let Some(block) = Block::cast(item) {
        let end = i + used;
        if end == steps.len() {
            out.push(Item::Block(block));
        } else if let Some(inner) = block.body() {
            walk_body(&inner, steps, end, out, deepest);
        }
    }
}

/// Looks through parentheses.
fn unparen(expr: &Expr) -> Expr {
    match expr {
        Expr::Paren(p) => p.expr().map_or_else(|| expr.clone(), |e| unparen(&e)),
        _ => expr.clone(),
    }
}

fn walk_value(expr: &Expr, steps: &[Step], i: usize, out: &mut Vec<Item>, deepest: &mut usize) {
    let Some(step) = steps.get(i) else {
        return;
    };
    let last = i + 1 == steps.len();
    match unparen(expr) {
        Expr::Object(object) => {
            if matches!(step, Step::Index(_)) {
                return;
            }
            for item in object.items() {
                let name = item.key().and_then(|k| k.literal_name());
                if !name.is_some_and(|n| step.matches_name(&n)) {
                    continue;
                }
                *deepest = (*deepest).max(i + 1);
                if last {
                    out.push(Item::ObjectItem(item));
                } else if let Some(value) = item.value() {
                    walk_value(&value, steps, i + 1, out, deepest);
                }
            }
        }
        Expr::Tuple(tuple) => {
            for (index, element) in tuple.elements().enumerate() {
                let hit = match step {
                    Step::Index(n) => *n == index,
                    Step::Any => true,
                    _ => false,
                };
                if !hit {
                    continue;
                }
                *deepest = (*deepest).max(i + 1);
                if last {
                    out.push(Item::Element {
                        tuple: tuple.clone(),
                        index,
                        expr: element,
                    });
                } else {
                    walk_value(&element, steps, i + 1, out, deepest);
                }
            }
        }
        _ => {}
    }
}

/// Where new content can go: what the parent address designates.
#[derive(Clone, Debug)]
pub(crate) enum Container {
    /// A body: the file's, or a block's.
    Body(crate::ast::Block),
    /// The file's top-level body.
    Root,
    /// An object value.
    Object(crate::ast::Object),
    /// A tuple value.
    Tuple(crate::ast::Tuple),
}

/// The containers an item can hold new content in.
pub(crate) fn container_of(item: &Item) -> Option<Container> {
    match item {
        Item::Block(b) => Some(Container::Body(b.clone())),
        _ => match unparen(&item.value_expr()?) {
            Expr::Object(o) => Some(Container::Object(o)),
            Expr::Tuple(t) => Some(Container::Tuple(t)),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str, address: &str) -> Result<Vec<String>, EditError> {
        let parse = crate::parse(text);
        let body = parse.body().unwrap();
        let items = resolve(&body, &Address::parse(address).unwrap())?;
        Ok(items.iter().map(|i| i.text()).collect())
    }

    const TF: &str = r#"resource "aws_instance" "web" {
  ami = "ami-1"
  tags = { Name = "web", "a b" = [1, { c = 2 }] }
  ebs_block_device {
    volume_size = 10
  }
}
resource "aws_instance" "db" {
  ami = "ami-2"
}
provider "aws" {
  region = "a"
}
provider "aws" {
  alias = "b"
}
module "my.mod" {
  source = "x"
}
"#;

    #[test]
    fn blocks_attributes_and_values() {
        assert_eq!(
            names(TF, "resource.aws_instance.web.ami").unwrap(),
            ["ami = \"ami-1\""]
        );
        assert_eq!(
            names(TF, "resource.aws_instance.web.ebs_block_device.volume_size").unwrap(),
            ["volume_size = 10"]
        );
        assert_eq!(
            names(TF, "resource.aws_instance.web.tags.Name").unwrap(),
            ["Name = \"web\""]
        );
        assert_eq!(
            names(TF, r#"resource.aws_instance.web.tags["a b"][1].c"#).unwrap(),
            ["c = 2"]
        );
        assert_eq!(
            names(TF, r#"resource.aws_instance.web.tags["a b"][0]"#).unwrap(),
            ["1"]
        );
        assert_eq!(
            names(TF, r"module.my\.mod.source").unwrap(),
            ["source = \"x\""]
        );
        assert_eq!(
            names(TF, "resource.aws_instance.*.ami").unwrap(),
            ["ami = \"ami-1\"", "ami = \"ami-2\""]
        );
    }

    #[test]
    fn not_found_and_ambiguous_are_distinct() {
        match names(TF, "provider.aws") {
            Err(EditError::Ambiguous { count: 2, .. }) => {}
            other => panic!("{other:?}"),
        }
        match names(TF, "resource.aws_instance.web.nope") {
            Err(EditError::NotFound { matched, .. }) => {
                assert_eq!(matched, "resource.aws_instance.web")
            }
            other => panic!("{other:?}"),
        }
        // A block is matched by its type and all of its labels.
        assert!(
            names(TF, "resource.aws_instance")
                .unwrap_err()
                .is_not_found()
        );
        assert!(
            names(TF, "resource.aws_instance.web.ami.x")
                .unwrap_err()
                .is_not_found()
        );
    }
}
