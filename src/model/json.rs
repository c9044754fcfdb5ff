//! The information model over a JSON body, as the JSON syntax
//! specification defines it: the schema tells attributes from block
//! types; block labels are levels of nested objects; arrays repeat blocks
//! or bodies; `"//"` properties are comments.

use std::collections::{BTreeMap, BTreeSet};

use text_size::TextRange;

use super::{
    Attribute, Block, Body, Content, Expression, Schema, duplicate, json_objects, require,
};
use crate::eval::Diagnostic;
use crate::json::{JsonMember, JsonValue};

/// The property name `"//"`: a comment in a body.
const COMMENT: &str = "//";

/// The members of a body (its objects' properties, in order), without
/// comments and hidden names.
fn members(
    value: &JsonValue,
    hidden: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(String, JsonMember)> {
    json_objects(value, diagnostics)
        .iter()
        .flat_map(|o| o.members().collect::<Vec<_>>())
        .filter_map(|m| Some((m.name()?, m)))
        .filter(|(name, _)| name != COMMENT && !hidden.contains(name))
        .collect()
}

fn attribute(name: String, member: &JsonMember) -> Option<Attribute> {
    Some(Attribute {
        name,
        expr: Expression::Json(member.value()?),
        name_range: member.name_range(),
        range: member.syntax().text_range(),
    })
}

pub(super) fn content(
    value: &JsonValue,
    schema: &Schema,
    partial: bool,
    hidden: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Content {
    let mut content = Content::default();
    for (name, member) in members(value, hidden, diagnostics) {
        if schema.attribute_schema(&name).is_some() {
            let Some(attr) = attribute(name.clone(), &member) else {
                continue;
            };
            if !duplicate(&content.attributes, &name, attr.name_range, diagnostics) {
                content.attributes.insert(name, attr);
            }
        } else if let Some(block) = schema.block_schema(&name) {
            let Some(v) = member.value() else { continue };
            let mut labels = Vec::new();
            unpack_block(
                &v,
                &name,
                member.name_range(),
                &block.labels,
                &mut labels,
                &mut content.blocks,
                diagnostics,
            );
        } else if !partial {
            diagnostics.push(Diagnostic::new(
                "Extraneous JSON object property",
                format!("No argument or block type is named {name:?}."),
                member.name_range(),
            ));
        }
    }
    let missing_at = TextRange::empty(value.range().end());
    require(schema, &content, missing_at, diagnostics);
    content
}

/// Reads the blocks of type `type_name` from `value`: one level of nested
/// objects per label still to read, then a body or an array of bodies.
fn unpack_block(
    value: &JsonValue,
    type_name: &str,
    type_range: TextRange,
    labels_left: &[String],
    labels: &mut Vec<(String, TextRange)>,
    blocks: &mut Vec<Block>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Some((label_name, rest)) = labels_left.split_first() {
        match value {
            JsonValue::Object(o) => {
                for m in o.members() {
                    let (Some(name), Some(v)) = (m.name(), m.value()) else { continue };
                    labels.push((name, m.name_range()));
                    unpack_block(&v, type_name, type_range, rest, labels, blocks, diagnostics);
                    labels.pop();
                }
            }
            JsonValue::Array(a) => {
                for e in a.elements() {
                    unpack_block(&e, type_name, type_range, labels_left, labels, blocks, diagnostics);
                }
            }
            JsonValue::Null(_) => {}
            other => diagnostics.push(Diagnostic::new(
                "Incorrect JSON value type",
                format!(
                    "A JSON object is required here, whose keys represent the {type_name} block's {label_name}."
                ),
                other.range(),
            )),
        }
        return;
    }
    let mut push = |body: JsonValue| {
        blocks.push(Block {
            type_name: type_name.to_string(),
            labels: labels.iter().map(|(l, _)| l.clone()).collect(),
            type_range,
            label_ranges: labels.iter().map(|(_, r)| *r).collect(),
            body: Body::json(body),
        })
    };
    match value {
        JsonValue::Object(_) => push(value.clone()),
        JsonValue::Array(a) => {
            for e in a.elements() {
                match e {
                    JsonValue::Object(_) => push(e),
                    other => diagnostics.push(Diagnostic::new(
                        "Incorrect JSON value type",
                        "A JSON object is required here, to define arguments and child blocks.",
                        other.range(),
                    )),
                }
            }
        }
        JsonValue::Null(_) => {}
        other => diagnostics.push(Diagnostic::new(
            "Incorrect JSON value type",
            "A JSON object is required here, to define arguments and child blocks.",
            other.range(),
        )),
    }
}

pub(super) fn just_attributes(
    value: &JsonValue,
    hidden: &BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Attribute> {
    if !matches!(value, JsonValue::Object(_)) {
        diagnostics.push(Diagnostic::new(
            "Incorrect JSON value type",
            "A JSON object is required here, setting the arguments for this block.",
            value.range(),
        ));
        return BTreeMap::new();
    }
    let mut out = BTreeMap::new();
    for (name, member) in members(value, hidden, diagnostics) {
        let Some(attr) = attribute(name.clone(), &member) else {
            continue;
        };
        if !duplicate(&out, &name, attr.name_range, diagnostics) {
            out.insert(name, attr);
        }
    }
    out
}
