//! Resolution of an [`Address`] against a tree.

use crate::ast::{Body, Expr};

use super::address::{Address, Step};
use super::error::EditError;
use super::item::Item;

/// Every item the address matches, in source order, or the reason none
/// does.
pub(crate) fn resolve_all(body: &Body, address: &Address) -> Result<Vec<Item>, EditError> {
    let steps = address.steps();
    let mut out = Vec::new();
    let mut deepest = 0;
    walk_body(body, steps, 0, &mut out, &mut deepest);
    if out.is_empty() {
        return Err(EditError::NotFound {
            address: address.to_string(),
            matched: Address::new(steps[..deepest].to_vec()).to_string_or_empty(),
        });
    }
    Ok(out)
}

/// The one item the address matches (all of them when it has a `*`).
pub(crate) fn resolve(body: &Body, address: &Address) -> Result<Vec<Item>, EditError> {
    let items = resolve_all(body, address)?;
    if items.len() > 1 && !address.has_wildcard() {
        return Err(EditError::Ambiguous {
            address: address.to_string(),
            count: items.len(),
        });
    }
    Ok(items)
}

impl Address {
    fn to_string_or_empty(&self) -> String {
        if self.steps().is_empty() {
            String::new()
        } else {
            self.to_string()
        }
    }
}

fn walk_body(body: &Body, steps: &[Step], i: usize, out: &mut Vec<Item>, deepest: &mut usize) {
    let Some(step) = steps.get(i) else {
        return;
    };
    for attr in body.attributes() {
        if attr.name().is_some_and(|n| step.matches_name(&n)) && !matches!(step, Step::Key(_)) {
            *deepest = (*deepest).max(i + 1);
            if i + 1 == steps.len() {
                out.push(Item::Attribute(attr));
            } else if let Some(expr) = attr.expr() {
                walk_value(&expr, steps, i + 1, out, deepest);
            }
        }
    }
    for block in body.blocks() {
        if !block.type_name().is_some_and(|n| step.matches_name(&n)) || matches!(step, Step::Key(_))
        {
            continue;
        }
        *deepest = (*deepest).max(i + 1);
        let labels: Vec<String> = block.labels().map(|l| l.value()).collect();
        let end = i + 1 + labels.len();
        if end > steps.len() {
            continue;
        }
        let matched = labels
            .iter()
            .zip(&steps[i + 1..end])
            .take_while(|(label, step)| {
                !matches!(step, Step::Index(_) | Step::Key(_)) && step.matches_name(label)
            })
            .count();
        *deepest = (*deepest).max(i + 1 + matched);
        if matched < labels.len() {
            continue;
        }
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
