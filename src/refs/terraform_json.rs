//! The JSON syntax's part of a Terraform-aware rename: where a `.tf.json`
//! (or `.tfvars.json`) file declares an object (property names one level
//! per block type and label, looking through arrays of bodies), and the
//! references in its template strings.

use std::path::Path;

use text_size::TextRange;

use super::terraform::ObjectAddress;
use crate::json::{JsonParse, JsonValue};

/// True for a file of the JSON syntax.
pub(crate) fn is_json(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".json")
}

/// The ranges of the property names (quotes included) that declare
/// `address` in a JSON file.
pub(crate) fn declarations(
    parse: &JsonParse,
    path: &Path,
    address: &ObjectAddress,
) -> Vec<TextRange> {
    let Some(root) = parse.root() else {
        return Vec::new();
    };
    let name = address.name();
    let tfvars = path.to_string_lossy().ends_with(".tfvars.json");
    let steps: Vec<&str> = match address {
        ObjectAddress::Variable(_) if tfvars => vec![name],
        _ if tfvars => return Vec::new(),
        ObjectAddress::Variable(_) => vec!["variable", name],
        ObjectAddress::Local(_) => vec!["locals", name],
        ObjectAddress::Module(_) => vec!["module", name],
        ObjectAddress::Output(_) => vec!["output", name],
        ObjectAddress::Resource { type_name, .. } => vec!["resource", type_name, name],
        ObjectAddress::Data { type_name, .. } => vec!["data", type_name, name],
    };
    let mut current = vec![root];
    let mut found = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        let mut next = Vec::new();
        // Objects, and the objects of arrays (repeated bodies or labels).
        let mut objects = Vec::new();
        let mut todo = current;
        while let Some(v) = todo.pop() {
            match v {
                JsonValue::Object(o) => objects.push(o),
                JsonValue::Array(a) => todo.extend(a.elements()),
                _ => {}
            }
        }
        for object in objects {
            for m in object.members() {
                if m.name().as_deref() != Some(step) {
                    continue;
                }
                if last {
                    found.extend(m.name_token().map(|t| t.text_range()));
                } else {
                    next.extend(m.value());
                }
            }
        }
        current = next;
    }
    found.sort_by_key(|r| r.start());
    found
}
