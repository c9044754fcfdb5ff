//! Blocks in the JSON syntax: listing a body's blocks and attributes, and
//! appending a block, with the native syntax's addresses.
//!
//! JSON has no blocks of its own: a block type is a property whose value
//! nests one object per label down to the body (`"resource": {"aws_instance":
//! {"web": {…}}}`), and an array of objects at any level repeats what it
//! holds. Which properties are blocks, and with how many labels, is the
//! rule [`Document::set`](crate::Document::set) uses to create missing
//! steps ([`crate::document::schema`]): the known block types of Terraform,
//! Packer, Terragrunt and Nomad; any other property is an attribute.

use super::{JsonDocument, JsonObject, JsonValue};
use crate::document::schema::{Shape, shape};
use crate::document::{Address, EditError, Step};

/// A block or an attribute of a body in the JSON syntax, as
/// [`JsonDocument::items`] lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonItem {
    /// The block type or attribute name.
    pub name: String,
    /// A block's labels (empty for an attribute and a block without any).
    pub labels: Vec<String>,
    /// Its address, usable with [`JsonDocument::get_all`],
    /// [`set`](JsonDocument::set) and [`remove`](JsonDocument::remove).
    pub address: String,
    /// An attribute's value as JSON source text; `None` for a block.
    pub value: Option<String>,
}

impl JsonItem {
    /// True for a block, false for an attribute.
    pub fn is_block(&self) -> bool {
        self.value.is_none()
    }
}

impl JsonDocument {
    /// The blocks and attributes of the body at `address` (`""`: the top
    /// level), in the order of the text; a block repeated in an array is
    /// listed once per object. `address` must designate blocks (a block
    /// type with all its labels, `*` for any).
    ///
    /// ```
    /// use hclwright::json::JsonDocument;
    /// let doc = JsonDocument::parse(
    ///     r#"{"resource": {"aws_instance": {"web": {"ami": "ami-1", "lifecycle": {"prevent_destroy": true}}}}, "locals": {"a": 1}}"#,
    /// ).unwrap();
    /// let top: Vec<_> = doc.items("").unwrap().into_iter().map(|i| i.address).collect();
    /// assert_eq!(top, ["resource.aws_instance.web", "locals"]);
    /// let inside = doc.items("resource.aws_instance.web").unwrap();
    /// assert_eq!((inside[0].name.as_str(), inside[0].value.as_deref()), ("ami", Some("\"ami-1\"")));
    /// assert!(inside[1].is_block());
    /// ```
    pub fn items(&self, address: &str) -> Result<Vec<JsonItem>, EditError> {
        let root = self.root();
        let (parent, block_type, bodies) = if address.is_empty() {
            (Address::root(), None, root.bodies())
        } else {
            let parent = Address::parse(address)?;
            let block_type = innermost_block_type(&parent)?;
            let bodies = self
                .resolve_values(&root, &parent)?
                .iter()
                .flat_map(JsonValue::bodies)
                .collect();
            (parent, Some(block_type), bodies)
        };
        let mut items = Vec::new();
        for body in bodies {
            list_body(&body, block_type.as_deref(), &parent, &mut items);
        }
        Ok(items)
    }

    /// Appends a block `block_type` with `labels` to the body at `parent`
    /// (`""`: the top level): the type and its labels as nested
    /// properties, holding `body` (native syntax source, converted as
    /// `hclwright convert --to json` converts it; `""` for an empty
    /// block). Refuses a block whose address already exists.
    ///
    /// ```
    /// use hclwright::json::JsonDocument;
    /// let mut doc = JsonDocument::parse("{\n  \"locals\": {}\n}\n").unwrap();
    /// doc.append_block("", "output", &["id"], "value = aws_instance.web.id").unwrap();
    /// assert_eq!(
    ///     doc.text(),
    ///     "{\n  \"locals\": {},\n  \"output\": {\"id\": {\"value\": \"${aws_instance.web.id}\"}}\n}\n"
    /// );
    /// assert!(doc.append_block("", "output", &["id"], "").is_err());
    /// ```
    pub fn append_block(
        &mut self,
        parent: &str,
        block_type: &str,
        labels: &[&str],
        body: &str,
    ) -> Result<(), EditError> {
        let body = crate::convert::to_json_value(body).map_err(|e| EditError::InvalidValue {
            source: body.to_string(),
            reason: format!("the body does not convert to JSON: {e}"),
        })?;
        let mut steps = if parent.is_empty() {
            Vec::new()
        } else {
            Address::parse(parent)?.steps().to_vec()
        };
        steps.push(Step::Name(block_type.to_string()));
        steps.extend(labels.iter().map(|l| Step::Name(l.to_string())));
        let address = Address::new(steps).to_string();
        match self.get_all(&address) {
            Ok(_) => {
                return Err(EditError::AlreadyExists { name: address });
            }
            Err(e) if e.is_not_found() => {}
            Err(e) => return Err(e),
        }
        self.set_json(&address, body)
    }
}

/// The block type whose body `address` designates: each block type takes
/// its labels from the steps after it.
fn innermost_block_type(address: &Address) -> Result<String, EditError> {
    let steps = address.steps();
    let mut block_type: Option<String> = None;
    let mut at = 0;
    while at < steps.len() {
        let (Step::Name(name) | Step::Key(name)) = &steps[at] else {
            return Err(EditError::unsupported(format!(
                "`{address}` does not designate a block: its step {} is not a name",
                at + 1
            )));
        };
        let prefix = Address::new(steps[..=at].to_vec());
        match shape(block_type.as_deref(), name) {
            Shape::Block(labels) if at + labels < steps.len() => {
                block_type = Some(name.clone());
                at += 1 + labels;
            }
            Shape::Block(labels) => {
                return Err(EditError::unsupported(format!(
                    "`{address}` does not designate a block: `{prefix}` takes {labels} label{} \
                     (give them all, or `*` for any)",
                    if labels == 1 { "" } else { "s" }
                )));
            }
            Shape::Attribute => {
                return Err(EditError::unsupported(format!(
                    "`{address}` does not designate a block: `{prefix}` is an attribute"
                )));
            }
        }
    }
    Ok(block_type.unwrap_or_default())
}

/// Lists the items of one body object.
fn list_body(
    body: &JsonObject,
    block_type: Option<&str>,
    parent: &Address,
    out: &mut Vec<JsonItem>,
) {
    for member in body.members() {
        let (Some(name), Some(value)) = (member.name(), member.value()) else {
            continue;
        };
        if name == "//" {
            continue; // a comment
        }
        match shape(block_type, &name) {
            Shape::Block(labels) => {
                let mut found = Vec::new();
                blocks_under(&value, labels, &mut Vec::new(), &mut found);
                for labels in found {
                    let mut steps = parent.steps().to_vec();
                    steps.push(Step::Name(name.clone()));
                    steps.extend(labels.iter().cloned().map(Step::Name));
                    out.push(JsonItem {
                        name: name.clone(),
                        labels,
                        address: Address::new(steps).to_string(),
                        value: None,
                    });
                }
            }
            Shape::Attribute => {
                let mut steps = parent.steps().to_vec();
                steps.push(Step::Name(name.clone()));
                out.push(JsonItem {
                    name,
                    labels: Vec::new(),
                    address: Address::new(steps).to_string(),
                    value: Some(value.text()),
                });
            }
        }
    }
}

/// The label lists of the blocks `value` holds, `depth` labels down.
fn blocks_under(
    value: &JsonValue,
    depth: usize,
    labels: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    for object in value.bodies() {
        if depth == 0 {
            out.push(labels.clone());
            continue;
        }
        for member in object.members() {
            let (Some(name), Some(inner)) = (member.name(), member.value()) else {
                continue;
            };
            if name == "//" {
                continue;
            }
            labels.push(name);
            blocks_under(&inner, depth - 1, labels, out);
            labels.pop();
        }
    }
}
