//! The information model over a native body.

use std::collections::{BTreeMap, BTreeSet};

use text_size::TextRange;

use super::{Attribute, Block, Body, Content, Expression, Schema, duplicate, require};
use crate::ast::{self, AstNode};
use crate::eval::Diagnostic;

fn attribute(a: &ast::Attribute) -> Option<Attribute> {
    let name_token = a.name_token()?;
    Some(Attribute {
        name: name_token.text().to_string(),
        expr: Expression::Native(a.expr()?),
        name_range: name_token.text_range(),
        range: crate::eval::expr::trimmed_range(a.syntax()),
    })
}

/// For each of `names`, the first attribute of `body` with that name and
/// a value (as [`content`] takes it), in one pass over the body.
pub(super) fn attributes_named<const N: usize>(
    body: Option<&ast::Body>,
    names: [&str; N],
) -> [Option<Attribute>; N] {
    let mut found = [const { None }; N];
    let Some(body) = body else { return found };
    let mut left = N;
    for a in body.attributes() {
        let Some(i) = a
            .name_token()
            .and_then(|t| names.iter().position(|n| *n == t.text()))
        else {
            continue;
        };
        if found[i].is_some() {
            continue;
        }
        if let Some(attr) = attribute(&a) {
            found[i] = Some(attr);
            left -= 1;
            if left == 0 {
                break;
            }
        }
    }
    found
}

pub(super) fn content(
    body: Option<&ast::Body>,
    missing_at: TextRange,
    schema: &Schema,
    partial: bool,
    hidden: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Content {
    let mut content = Content::default();
    // Reading some names, where the schema names no attribute (or no
    // block type), every attribute (block) is skipped: that pass is not
    // made.
    let attributes = body.filter(|_| !(partial && schema.attributes.is_empty()));
    let blocks = body.filter(|_| !(partial && schema.blocks.is_empty()));
    for a in attributes.into_iter().flat_map(|b| b.attributes()) {
        // Reading only some names: the others are not made into
        // attributes (their name copied, their range trimmed).
        if partial
            && a.name_token()
                .is_some_and(|t| schema.attribute_schema(t.text()).is_none())
        {
            continue;
        }
        let Some(attr) = attribute(&a) else { continue };
        if hidden.contains(&attr.name) {
            continue;
        }
        if schema.attribute_schema(&attr.name).is_some() {
            if !duplicate(
                &content.attributes,
                &attr.name,
                attr.name_range,
                diagnostics,
            ) {
                content.attributes.insert(attr.name.clone(), attr);
            }
        } else if !partial {
            let hint = match schema.block_schema(&attr.name) {
                Some(_) => format!(" Did you mean to define a block of type {:?}?", attr.name),
                None => String::new(),
            };
            diagnostics.push(Diagnostic::new(
                "Unsupported argument",
                format!(
                    "An argument named {:?} is not expected here.{hint}",
                    attr.name
                ),
                attr.name_range,
            ));
        }
    }
    for b in blocks.into_iter().flat_map(|b| b.blocks()) {
        let (Some(type_token), Some(type_name)) = (b.type_token(), b.type_name()) else {
            continue;
        };
        if hidden.contains(&type_name) {
            continue;
        }
        let type_range = type_token.text_range();
        let Some(block_schema) = schema.block_schema(&type_name) else {
            if !partial {
                let detail = if schema.attribute_schema(&type_name).is_some() {
                    format!(
                        "Blocks of type {type_name:?} are not expected here. Did you mean to define argument {type_name:?}? If so, use the equals sign to assign it a value."
                    )
                } else {
                    format!("Blocks of type {type_name:?} are not expected here.")
                };
                diagnostics.push(Diagnostic::new(
                    "Unsupported block type",
                    detail,
                    type_range,
                ));
            }
            continue;
        };
        let labels: Vec<ast::BlockLabel> = b.labels().collect();
        let want = &block_schema.labels;
        if labels.len() < want.len() {
            let at = b.open_brace().map_or(type_range, |t| t.text_range());
            diagnostics.push(Diagnostic::new(
                format!("Missing {} for {type_name}", want[labels.len()]),
                format!(
                    "All {type_name} blocks must have {} labels ({}).",
                    want.len(),
                    want.join(", ")
                ),
                at,
            ));
            continue;
        }
        if labels.len() > want.len() {
            let extra = &labels[want.len()];
            let detail = if want.is_empty() {
                format!("No labels are expected for {type_name} blocks.")
            } else {
                format!(
                    "Only {} labels ({}) are expected for {type_name} blocks.",
                    want.len(),
                    want.join(", ")
                )
            };
            diagnostics.push(Diagnostic::new(
                format!("Extraneous label for {type_name}"),
                detail,
                extra.syntax().text_range(),
            ));
            continue;
        }
        let end = b
            .close_brace()
            .map_or(b.syntax().text_range().end(), |t| t.text_range().start());
        content.blocks.push(Block {
            type_name,
            labels: labels.iter().map(|l| l.value()).collect(),
            type_range,
            label_ranges: labels.iter().map(|l| l.syntax().text_range()).collect(),
            body: Body::native(b.body(), TextRange::empty(end)),
        });
    }
    require(schema, &content, missing_at, diagnostics);
    content
}

pub(super) fn just_attributes(
    body: Option<&ast::Body>,
    hidden: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Attribute> {
    let mut out = BTreeMap::new();
    for a in body.into_iter().flat_map(|b| b.attributes()) {
        let Some(attr) = attribute(&a) else { continue };
        if hidden.contains(&attr.name) || duplicate(&out, &attr.name, attr.name_range, diagnostics)
        {
            continue;
        }
        out.insert(attr.name.clone(), attr);
    }
    for b in body.into_iter().flat_map(|b| b.blocks()) {
        let (Some(type_token), Some(type_name)) = (b.type_token(), b.type_name()) else {
            continue;
        };
        if hidden.contains(&type_name) {
            continue;
        }
        diagnostics.push(Diagnostic::new(
            format!("Unexpected {type_name:?} block"),
            "Blocks are not allowed here.",
            type_token.text_range(),
        ));
    }
    out
}
