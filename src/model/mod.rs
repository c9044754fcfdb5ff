//! The syntax-agnostic information model of HCL: a body answers
//! [`content`](Body::content), [`partial_content`](Body::partial_content)
//! and [`just_attributes`](Body::just_attributes) for a schema, in either
//! syntax, so an application reads native and JSON files with one code
//! path. For JSON the schema decides what each property is (attribute or
//! block type, labels from nested objects, arrays of repeated blocks, the
//! `"//"` comment property), exactly as the JSON syntax specification says.
//!
//! ```
//! use hclwright::model::{Body, Schema};
//! let schema = Schema::new().attribute("region").block("variable", &["name"]);
//! let native = hclwright::parse("region = \"eu\"\nvariable \"a\" {\n  default = 1\n}\n");
//! let json = hclwright::json::parse(r#"{"region": "eu", "variable": {"a": {"default": 1}}}"#);
//! for body in [Body::from_native(&native), Body::from_json(&json)] {
//!     let (content, diagnostics) = body.content(&schema);
//!     assert!(diagnostics.is_empty());
//!     assert!(content.attributes.contains_key("region"));
//!     assert_eq!(content.blocks[0].labels, ["a"]);
//! }
//! ```

mod expression;
mod json;
mod native;

pub use expression::Expression;
pub(crate) use expression::{
    attribute_after, each_variable_under, local_references_in, references_under_in,
};

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use text_size::TextRange;

use crate::eval::Diagnostic;
use crate::json::{JsonObject, JsonParse, JsonValue};

/// What an application expects in a body: attributes (some required) and
/// block types with their label names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    /// The attributes, by name.
    pub attributes: Vec<AttributeSchema>,
    /// The block types.
    pub blocks: Vec<BlockSchema>,
}

/// An attribute a schema expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttributeSchema {
    /// Its name.
    pub name: String,
    /// True if a body without it is an error.
    pub required: bool,
}

/// A block type a schema expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockSchema {
    /// The block type (`resource`).
    pub type_name: String,
    /// The names of its labels (`["type", "name"]`), one per label.
    pub labels: Vec<String>,
}

impl Schema {
    /// An empty schema.
    pub fn new() -> Schema {
        Schema::default()
    }

    /// The schema with an optional attribute.
    pub fn attribute(mut self, name: &str) -> Schema {
        self.attributes.push(AttributeSchema {
            name: name.to_string(),
            required: false,
        });
        self
    }

    /// The schema with a required attribute.
    pub fn required_attribute(mut self, name: &str) -> Schema {
        self.attributes.push(AttributeSchema {
            name: name.to_string(),
            required: true,
        });
        self
    }

    /// The schema with a block type and its label names.
    pub fn block(mut self, type_name: &str, labels: &[&str]) -> Schema {
        self.blocks.push(BlockSchema {
            type_name: type_name.to_string(),
            labels: labels.iter().map(|l| l.to_string()).collect(),
        });
        self
    }

    fn attribute_schema(&self, name: &str) -> Option<&AttributeSchema> {
        self.attributes.iter().find(|a| a.name == name)
    }

    fn block_schema(&self, type_name: &str) -> Option<&BlockSchema> {
        self.blocks.iter().find(|b| b.type_name == type_name)
    }
}

/// An attribute found in a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// Its name.
    pub name: String,
    /// Its value.
    pub expr: Expression,
    /// The range of its name.
    pub name_range: TextRange,
    /// The range of the whole definition.
    pub range: TextRange,
}

/// A block found in a body.
#[derive(Clone, Debug)]
pub struct Block {
    /// Its type.
    pub type_name: String,
    /// Its labels, decoded.
    pub labels: Vec<String>,
    /// Where its type is written (in JSON, the property name).
    pub type_range: TextRange,
    /// Where each label is written.
    pub label_ranges: Vec<TextRange>,
    /// Its body.
    pub body: Body,
}

/// What a body holds for a schema.
#[derive(Clone, Debug, Default)]
pub struct Content {
    /// The attributes found, by name.
    pub attributes: BTreeMap<String, Attribute>,
    /// The blocks found, in order.
    pub blocks: Vec<Block>,
}

/// A body of either syntax (a file's top level or a block's content).
#[derive(Clone, Debug)]
pub struct Body {
    kind: BodyKind,
    /// Names already taken by an earlier `partial_content`.
    hidden: Arc<BTreeSet<String>>,
}

#[derive(Clone, Debug)]
enum BodyKind {
    /// A native body (`None` for an empty block `{}`), and the range to
    /// report missing items at.
    Native(Option<crate::ast::Body>, TextRange),
    /// A JSON body: the object or array of objects that defines it.
    Json(JsonValue),
    /// A file with no usable root (a JSON file without one).
    Empty,
}

impl Body {
    /// The top-level body of a native file.
    pub fn from_native(parse: &crate::Parse) -> Body {
        Body::native(parse.body(), parse.syntax().text_range())
    }

    /// The body of a native block or file (`None` for an empty block).
    pub fn native(body: Option<crate::ast::Body>, missing_at: TextRange) -> Body {
        Body {
            kind: BodyKind::Native(body, TextRange::empty(missing_at.end())),
            hidden: Arc::default(),
        }
    }

    /// The top-level body of a JSON file.
    pub fn from_json(parse: &JsonParse) -> Body {
        match parse.root() {
            Some(root) => Body::json(root),
            None => Body {
                kind: BodyKind::Empty,
                hidden: Arc::default(),
            },
        }
    }

    /// A body defined by a JSON object or array of objects.
    pub fn json(value: JsonValue) -> Body {
        Body {
            kind: BodyKind::Json(value),
            hidden: Arc::default(),
        }
    }

    /// The content the schema calls for; anything else in the body is an
    /// error ("Unsupported argument", "Extraneous JSON object property"...).
    pub fn content(&self, schema: &Schema) -> (Content, Vec<Diagnostic>) {
        let (content, _, diagnostics) = self.read(schema, false);
        (content, diagnostics)
    }

    /// The content the schema calls for, and the rest of the body (to read
    /// with another schema); names outside the schema are no error.
    pub fn partial_content(&self, schema: &Schema) -> (Content, Body, Vec<Diagnostic>) {
        self.read(schema, true)
    }

    /// Every attribute of the body, where the application knows no schema
    /// (`locals`); a block there is an error.
    pub fn just_attributes(&self) -> (BTreeMap<String, Attribute>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let attributes = match &self.kind {
            BodyKind::Native(body, _) => {
                native::just_attributes(body.as_ref(), &self.hidden, &mut diagnostics)
            }
            BodyKind::Json(value) => json::just_attributes(value, &self.hidden, &mut diagnostics),
            BodyKind::Empty => BTreeMap::new(),
        };
        (attributes, diagnostics)
    }

    /// The attribute `name`, if the body defines it (without judging the
    /// rest of the body).
    pub fn attribute(&self, name: &str) -> Option<Attribute> {
        if self.hidden.contains(name) {
            return None;
        }
        match &self.kind {
            // The first attribute of that name, as reading the body with
            // a schema of that one attribute takes it, without making the
            // others.
            BodyKind::Native(body, _) => {
                let [found] = native::attributes_named(body.as_ref(), [name]);
                found
            }
            BodyKind::Json(_) | BodyKind::Empty => {
                let (mut content, _, _) = self.read(&Schema::new().attribute(name), true);
                content.attributes.remove(name)
            }
        }
    }

    /// The attributes `names` (distinct), as [`attribute`](Self::attribute)
    /// finds each, in one pass over a native body.
    pub(crate) fn attributes_named<const N: usize>(
        &self,
        names: [&str; N],
    ) -> [Option<Attribute>; N] {
        match &self.kind {
            BodyKind::Native(body, _) => {
                let mut found = native::attributes_named(body.as_ref(), names);
                // Hidden names are not found (as `attribute` says).
                for (slot, name) in found.iter_mut().zip(names) {
                    if self.hidden.contains(name) {
                        *slot = None;
                    }
                }
                found
            }
            BodyKind::Json(_) | BodyKind::Empty => names.map(|name| self.attribute(name)),
        }
    }

    /// [`partial_content`](Self::partial_content) without the rest of the
    /// body, for a caller that reads nothing else from it.
    pub(crate) fn partial_content_only(&self, schema: &Schema) -> (Content, Vec<Diagnostic>) {
        self.read_content(schema, true)
    }

    fn read(&self, schema: &Schema, partial: bool) -> (Content, Body, Vec<Diagnostic>) {
        let (content, diagnostics) = self.read_content(schema, partial);
        let mut hidden = (*self.hidden).clone();
        hidden.extend(schema.attributes.iter().map(|a| a.name.clone()));
        hidden.extend(schema.blocks.iter().map(|b| b.type_name.clone()));
        let rest = Body {
            kind: self.kind.clone(),
            hidden: Arc::new(hidden),
        };
        (content, rest, diagnostics)
    }

    fn read_content(&self, schema: &Schema, partial: bool) -> (Content, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let content = match &self.kind {
            BodyKind::Native(body, missing_at) => native::content(
                body.as_ref(),
                *missing_at,
                schema,
                partial,
                &self.hidden,
                &mut diagnostics,
            ),
            BodyKind::Json(value) => {
                json::content(value, schema, partial, &self.hidden, &mut diagnostics)
            }
            BodyKind::Empty => Content::default(),
        };
        (content, diagnostics)
    }
}

/// "Missing required argument" for each required attribute not found.
fn require(schema: &Schema, content: &Content, at: TextRange, diagnostics: &mut Vec<Diagnostic>) {
    for a in schema.attributes.iter().filter(|a| a.required) {
        if !content.attributes.contains_key(&a.name) {
            diagnostics.push(Diagnostic::new(
                "Missing required argument",
                format!(
                    "The argument {:?} is required, but no definition was found.",
                    a.name
                ),
                at,
            ));
        }
    }
}

/// "Duplicate argument" when `name` is already in `found`.
fn duplicate(
    found: &BTreeMap<String, Attribute>,
    name: &str,
    range: TextRange,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    match found.get(name) {
        Some(first) => {
            diagnostics.push(Diagnostic::new(
                "Duplicate argument",
                format!(
                    "The argument {name:?} was already set at byte {}. Each argument may be set only once.",
                    u32::from(first.name_range.start())
                ),
                range,
            ));
            true
        }
        None => false,
    }
}

/// The objects a JSON body is made of (an object, or an array of them).
fn json_objects(value: &JsonValue, diagnostics: &mut Vec<Diagnostic>) -> Vec<JsonObject> {
    match value {
        JsonValue::Object(o) => vec![o.clone()],
        JsonValue::Array(a) => a
            .elements()
            .filter_map(|e| match e {
                JsonValue::Object(o) => Some(o),
                other => {
                    diagnostics.push(Diagnostic::new(
                        "Incorrect JSON value type",
                        "A JSON object is required here, to define arguments and child blocks.",
                        other.range(),
                    ));
                    None
                }
            })
            .collect(),
        other => {
            diagnostics.push(Diagnostic::new(
                "Incorrect JSON value type",
                "A JSON object is required here, to define arguments and child blocks.",
                other.range(),
            ));
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass finds what `attribute` finds for each name: the first
    /// attribute with a value, none for a hidden or absent name.
    #[test]
    fn attributes_named_finds_what_attribute_finds() {
        let parse = crate::parse(
            "type = string\ntype = number\ndefault =\ndefault = 2\nhidden = 1\nb {\n  x = 1\n}\n",
        );
        let (_, rest, _) =
            Body::from_native(&parse).partial_content(&Schema::new().attribute("hidden"));
        let names = ["type", "default", "hidden", "absent", "x"];
        let found = rest.attributes_named(names);
        for (name, found) in names.iter().zip(&found) {
            assert_eq!(found, &rest.attribute(name), "{name}");
        }
        assert!(found[0].is_some() && found[1].is_some());
        assert!(found[2].is_none() && found[3].is_none() && found[4].is_none());
        let json = crate::json::parse(r#"{"type": "string", "default": 1}"#);
        let body = Body::from_json(&json);
        let found = body.attributes_named(["type", "default", "absent"]);
        assert_eq!(found[1].as_ref().map(|a| a.name.as_str()), Some("default"));
        assert!(found[0].is_some() && found[2].is_none());
    }
}
