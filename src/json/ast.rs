//! Typed views over a JSON tree: values, objects with their members,
//! arrays. Each view is a cheap handle on the lossless tree, so ranges
//! and the exact source text stay at hand.

use std::borrow::Cow;

use crate::syntax_kind::SyntaxKind::*;
use crate::syntax_kind::{SyntaxElement, SyntaxNode, SyntaxToken};
use text_size::TextRange;

use super::string::decode_string;

/// A JSON value in the tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum JsonValue {
    /// `{ ... }`
    Object(JsonObject),
    /// `[ ... ]`
    Array(JsonArray),
    /// A string, quotes included in its token.
    String(SyntaxToken),
    /// A number, as written.
    Number(SyntaxToken),
    /// `true` or `false`.
    Bool(SyntaxToken),
    /// `null`.
    Null(SyntaxToken),
    /// A word that is no JSON value (`True`, `undefined`, `foo`); the
    /// parser reported it.
    Invalid(SyntaxToken),
}

impl JsonValue {
    /// The value an element of the tree is, if it is one.
    pub fn cast(element: SyntaxElement) -> Option<JsonValue> {
        Some(match element {
            rowan::NodeOrToken::Node(node) => match node.kind() {
                JSON_OBJECT => JsonValue::Object(JsonObject(node)),
                JSON_ARRAY => JsonValue::Array(JsonArray(node)),
                _ => return None,
            },
            rowan::NodeOrToken::Token(token) => match token.kind() {
                JSON_STRING => JsonValue::String(token),
                JSON_NUMBER => JsonValue::Number(token),
                JSON_WORD => match token.text() {
                    "true" | "false" => JsonValue::Bool(token),
                    "null" => JsonValue::Null(token),
                    _ => JsonValue::Invalid(token),
                },
                _ => return None,
            },
        })
    }

    /// The byte range of the value in the text.
    pub fn range(&self) -> TextRange {
        match self {
            JsonValue::Object(o) => o.0.text_range(),
            JsonValue::Array(a) => a.0.text_range(),
            JsonValue::String(t)
            | JsonValue::Number(t)
            | JsonValue::Bool(t)
            | JsonValue::Null(t)
            | JsonValue::Invalid(t) => t.text_range(),
        }
    }

    /// The value's source text, exactly as written.
    pub fn text(&self) -> String {
        self.syntax_element().to_string()
    }

    /// The element of the tree the value is (a node for an object or
    /// array, a token otherwise).
    pub fn syntax_element(&self) -> SyntaxElement {
        match self {
            JsonValue::Object(o) => o.0.clone().into(),
            JsonValue::Array(a) => a.0.clone().into(),
            JsonValue::String(t)
            | JsonValue::Number(t)
            | JsonValue::Bool(t)
            | JsonValue::Null(t)
            | JsonValue::Invalid(t) => t.clone().into(),
        }
    }

    /// The object, if the value is one.
    pub fn as_object(&self) -> Option<&JsonObject> {
        match self {
            JsonValue::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The objects a value holds a body's properties in, as the JSON
    /// syntax reads a body: the value itself when it is an object, each
    /// object of an array (repeated bodies), none otherwise.
    pub fn bodies(&self) -> Vec<JsonObject> {
        match self {
            JsonValue::Object(o) => vec![o.clone()],
            JsonValue::Array(a) => a
                .elements()
                .filter_map(|e| e.as_object().cloned())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The array, if the value is one.
    pub fn as_array(&self) -> Option<&JsonArray> {
        match self {
            JsonValue::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The string's value (escapes decoded), if the value is a valid
    /// string.
    ///
    /// ```
    /// let parse = hclwright::json::parse(r#"{"a": "x\ty"}"#);
    /// let object = parse.root().unwrap().as_object().cloned().unwrap();
    /// let a = object.get("a").unwrap();
    /// assert_eq!(a.as_str().as_deref(), Some("x\ty"));
    /// ```
    pub fn as_str(&self) -> Option<Cow<'_, str>> {
        match self {
            JsonValue::String(t) => string_value(t),
            _ => None,
        }
    }

    /// The boolean, if the value is `true` or `false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            JsonValue::Bool(t) => Some(t.text() == "true"),
            _ => None,
        }
    }

    /// A short name of the value's kind for messages ("an object", "a
    /// string"...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            JsonValue::Object(_) => "an object",
            JsonValue::Array(_) => "an array",
            JsonValue::String(_) => "a string",
            JsonValue::Number(_) => "a number",
            JsonValue::Bool(_) => "a boolean",
            JsonValue::Null(_) => "null",
            JsonValue::Invalid(_) => "an invalid value",
        }
    }
}

/// The decoded value of a string token, when it is valid.
fn string_value(token: &SyntaxToken) -> Option<Cow<'_, str>> {
    decode_string(token.text()).ok()
}

/// The first value among the children of `node` from `skip` on.
fn values_of(node: &SyntaxNode) -> impl Iterator<Item = JsonValue> + '_ {
    node.children_with_tokens().filter_map(JsonValue::cast)
}

/// `{ "name": value, ... }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JsonObject(pub(crate) SyntaxNode);

impl JsonObject {
    /// The members in order, duplicates included.
    pub fn members(&self) -> impl Iterator<Item = JsonMember> + '_ {
        self.0
            .children()
            .filter(|n| n.kind() == JSON_MEMBER)
            .map(JsonMember)
    }

    /// The value of the first member named `name`.
    pub fn get(&self, name: &str) -> Option<JsonValue> {
        self.members()
            .find(|m| m.name().as_deref() == Some(name))
            .and_then(|m| m.value())
    }

    /// The node of the object.
    pub fn syntax(&self) -> &SyntaxNode {
        &self.0
    }
}

/// `"name": value` in an object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JsonMember(pub(crate) SyntaxNode);

impl JsonMember {
    /// The token of the name (a string, or a word or number the parser
    /// reported).
    pub fn name_token(&self) -> Option<SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| matches!(t.kind(), JSON_STRING | JSON_WORD | JSON_NUMBER))
    }

    /// The name, decoded (`None` when it is not a valid string).
    pub fn name(&self) -> Option<String> {
        let token = self.name_token()?;
        if token.kind() != JSON_STRING {
            return None;
        }
        string_value(&token).map(Cow::into_owned)
    }

    /// The value (`None` when it is missing).
    pub fn value(&self) -> Option<JsonValue> {
        values_of(&self.0).nth(1)
    }

    /// The byte range of the name.
    pub fn name_range(&self) -> TextRange {
        self.name_token()
            .map_or(self.0.text_range(), |t| t.text_range())
    }

    /// The node of the member.
    pub fn syntax(&self) -> &SyntaxNode {
        &self.0
    }
}

/// `[ value, ... ]`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JsonArray(pub(crate) SyntaxNode);

impl JsonArray {
    /// The elements in order.
    pub fn elements(&self) -> impl Iterator<Item = JsonValue> + '_ {
        values_of(&self.0)
    }

    /// The node of the array.
    pub fn syntax(&self) -> &SyntaxNode {
        &self.0
    }
}
