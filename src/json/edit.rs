//! Editing a JSON syntax file by address, changing only the bytes of what
//! is edited: a new property takes its neighbours' indentation and comma
//! style, a removed one takes its comma with it, a renamed one changes
//! only its name.
//!
//! Addresses are those of the native syntax (`resource.aws_instance.web.ami`,
//! `locals.tags["Name"]`, `variable.zones.default[0]`, `*` for any name):
//! each step is a property name one level down (block types, labels and
//! attributes are all property names in JSON), or an index into an array;
//! an array of objects (repeated bodies) is looked through.

use serde_json::Value as Json;
use text_size::TextRange;

use super::{JsonArray, JsonMember, JsonObject, JsonValue};
use crate::diff::{TextEdit, apply_edits};
use crate::document::{Address, EditError, Placement, Step};

/// A JSON syntax file being edited.
///
/// ```
/// use hclwright::json::JsonDocument;
/// let mut doc = JsonDocument::parse("{\n  \"locals\": {\n    \"a\": 1\n  }\n}\n").unwrap();
/// doc.set("locals.b", "\"x\"").unwrap();
/// doc.set("locals.a", "2").unwrap();
/// assert_eq!(doc.text(), "{\n  \"locals\": {\n    \"a\": 2,\n    \"b\": \"x\"\n  }\n}\n");
/// doc.remove("locals.a").unwrap();
/// assert_eq!(doc.text(), "{\n  \"locals\": {\n    \"b\": \"x\"\n  }\n}\n");
/// ```
#[derive(Clone, Debug)]
pub struct JsonDocument {
    original: String,
    text: String,
    edits: Vec<TextEdit>,
}

/// Something an address designates.
#[derive(Clone, Debug)]
enum Found {
    /// A property of an object.
    Member(JsonMember),
    /// An element of an array.
    Element(JsonArray, JsonValue),
}

impl Found {
    fn value(&self) -> Option<JsonValue> {
        match self {
            Found::Member(m) => m.value(),
            Found::Element(_, v) => Some(v.clone()),
        }
    }
}

impl JsonDocument {
    /// Parses `text`; refuses a text with syntax errors (all of them).
    pub fn parse(text: &str) -> Result<JsonDocument, Vec<crate::SyntaxError>> {
        let parse = super::parse(text);
        if !parse.errors().is_empty() {
            return Err(parse.errors().to_vec());
        }
        Ok(JsonDocument {
            original: text.to_string(),
            text: text.to_string(),
            edits: Vec::new(),
        })
    }

    /// The current text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text as parsed.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// True when an edit changed the text.
    pub fn is_modified(&self) -> bool {
        self.text != self.original
    }

    /// The edits made, each on the text the previous one left.
    pub fn edits(&self) -> &[TextEdit] {
        &self.edits
    }

    /// A unified diff from the parsed text to the current one, with git's
    /// headers.
    pub fn unified_diff(&self, path: &str) -> String {
        crate::diff::git_unified_diff(&self.original, &self.text, path)
    }

    /// The source text of the value of everything `address` designates.
    pub fn get_all(&self, address: &str) -> Result<Vec<String>, EditError> {
        let address = Address::parse(address)?;
        let root = self.root();
        let found = resolve(&root, &address)?;
        Ok(found
            .iter()
            .filter_map(|f| f.value())
            .map(|v| v.text())
            .collect())
    }

    /// Sets what `address` designates to `value` (native syntax source,
    /// written as JSON as `convert --to json` writes it: literals as JSON
    /// values, other expressions as `"${…}"`); creates it when missing,
    /// with the objects on the way, at the end of its object.
    pub fn set(&mut self, address: &str, value: &str) -> Result<(), EditError> {
        self.set_with(address, value, Placement::Default)
    }

    /// As [`set`](Self::set), a new property placed as `placement` says.
    ///
    /// Where Terraform reads a JSON string as an expression of its own
    /// (a variable's `type`, `depends_on`, a resource's `provider`), the
    /// value is written as that string (`"list(string)"`,
    /// `["aws_s3_bucket.b"]`), not as a `"${…}"` template.
    pub fn set_with(
        &mut self,
        address: &str,
        value: &str,
        placement: Placement,
    ) -> Result<(), EditError> {
        let parsed = Address::parse(address)?;
        let json = match static_expression(&parsed, value) {
            Some(json) => json,
            None => value_json(value)?,
        };
        self.set_json_with(address, json, placement)
    }

    /// Sets what `address` designates to a JSON value (created when
    /// missing, at the end of its object).
    pub fn set_json(&mut self, address: &str, value: Json) -> Result<(), EditError> {
        self.set_json_with(address, value, Placement::Default)
    }

    fn set_json_with(
        &mut self,
        address: &str,
        json: Json,
        placement: Placement,
    ) -> Result<(), EditError> {
        let address = Address::parse(address)?;
        let root = self.root();
        match resolve(&root, &address) {
            Ok(found) => {
                let mut edits: Vec<TextEdit> = found
                    .iter()
                    .filter_map(|f| f.value())
                    .map(|v| TextEdit::replace(v.range(), compact(&json)))
                    .collect();
                edits.sort_by_key(|e| e.range.start());
                self.apply(edits)
            }
            Err(e) if e.is_not_found() => self.create(&root, &address, json, &placement),
            Err(e) => Err(e),
        }
    }

    /// Removes what `address` designates (with its comma).
    pub fn remove(&mut self, address: &str) -> Result<(), EditError> {
        let address = Address::parse(address)?;
        let root = self.root();
        let found = resolve(&root, &address)?;
        let mut edits: Vec<TextEdit> = found.iter().map(removal).collect();
        edits.sort_by_key(|e| e.range.start());
        edits.dedup_by_key(|e| e.range);
        self.apply(edits)
    }

    /// Renames the property `address` designates to `new_name`.
    pub fn rename(&mut self, address: &str, new_name: &str) -> Result<(), EditError> {
        let address = Address::parse(address)?;
        let root = self.root();
        let found = resolve(&root, &address)?;
        let mut edits = Vec::new();
        for f in &found {
            let Found::Member(m) = f else {
                return Err(EditError::unsupported(
                    "an array element has no name to change",
                ));
            };
            let siblings = m.syntax().parent().and_then(|p| JsonValue::cast(p.into()));
            if let Some(JsonValue::Object(o)) = siblings
                && o.members().any(|s| s.name().as_deref() == Some(new_name))
            {
                return Err(EditError::AlreadyExists {
                    name: new_name.to_string(),
                });
            }
            let token = m
                .name_token()
                .ok_or_else(|| EditError::unsupported("a property without a name"))?;
            edits.push(TextEdit::replace(
                token.text_range(),
                crate::json::quote(new_name),
            ));
        }
        edits.sort_by_key(|e| e.range.start());
        self.apply(edits)
    }

    /// The values of what `address` designates under `root`.
    pub(super) fn resolve_values(
        &self,
        root: &JsonValue,
        address: &Address,
    ) -> Result<Vec<JsonValue>, EditError> {
        Ok(resolve(root, address)?
            .iter()
            .filter_map(Found::value)
            .collect())
    }

    pub(super) fn root(&self) -> JsonValue {
        super::parse(&self.text)
            .root()
            .expect("a document that parsed has a root")
    }

    fn apply(&mut self, edits: Vec<TextEdit>) -> Result<(), EditError> {
        let text = apply_edits(&self.text, &edits).map_err(|e| EditError::Broken {
            reason: e.to_string(),
        })?;
        let parse = super::parse(&text);
        if let Some(e) = parse.errors().first() {
            return Err(EditError::Broken {
                reason: format!("{}:{}: {}", e.line, e.column, e.message),
            });
        }
        self.text = text;
        self.edits.extend(edits);
        Ok(())
    }

    /// Creates the missing end of `address`: a property in the deepest
    /// object found, holding objects down to the value.
    fn create(
        &mut self,
        root: &JsonValue,
        address: &Address,
        value: Json,
        placement: &Placement,
    ) -> Result<(), EditError> {
        let steps = address.steps();
        // The longest prefix that designates exactly one value (the root
        // when none does).
        let mut parent = Some(root.clone());
        let mut taken = 0;
        for n in (1..steps.len()).rev() {
            let prefix = Address::new(steps[..n].to_vec());
            match resolve(root, &prefix) {
                Ok(found) if found.len() == 1 => {
                    parent = found[0].value();
                    taken = n;
                    break;
                }
                // Several, through a `*`.
                Ok(found) => {
                    return Err(EditError::Ambiguous {
                        address: prefix.to_string(),
                        count: found.len(),
                    });
                }
                Err(e @ EditError::Ambiguous { .. }) => return Err(e),
                Err(_) => continue,
            }
        }
        let parent = match parent {
            Some(JsonValue::Object(o)) => o,
            // Repeated bodies: the last one takes the new property.
            Some(JsonValue::Array(a)) => {
                match a.elements().filter_map(|e| e.as_object().cloned()).last() {
                    Some(o) => o,
                    None => {
                        return Err(EditError::unsupported(
                            "a new property needs an object to go in",
                        ));
                    }
                }
            }
            _ => {
                return Err(EditError::unsupported(format!(
                    "`{}` is not an object: a property cannot be added to it",
                    Address::new(steps[..taken].to_vec())
                )));
            }
        };
        let rest = &steps[taken..];
        let mut names = Vec::with_capacity(rest.len());
        for step in rest {
            match step {
                Step::Name(n) | Step::Key(n) => names.push(n.clone()),
                _ => {
                    return Err(EditError::unsupported(format!(
                        "`{address}` is missing, and `{}` cannot be created",
                        step_text(step)
                    )));
                }
            }
        }
        let mut value = value;
        for name in names[1..].iter().rev() {
            let mut map = serde_json::Map::new();
            map.insert(name.clone(), value);
            value = Json::Object(map);
        }
        let member = format!("{}: {}", crate::json::quote(&names[0]), compact(&value));
        let edit = insertion(&parent, &member, placement);
        self.apply(vec![edit])
    }
}

fn step_text(step: &Step) -> String {
    Address::new(vec![step.clone()]).to_string()
}

/// What `address` designates under `root`.
fn resolve(root: &JsonValue, address: &Address) -> Result<Vec<Found>, EditError> {
    let mut current: Vec<JsonValue> = vec![root.clone()];
    let mut found: Vec<Found> = Vec::new();
    for (i, step) in address.steps().iter().enumerate() {
        found.clear();
        for value in &current {
            for object in value.bodies() {
                if let Step::Index(_) = step {
                    continue;
                }
                for m in object.members() {
                    if m.name().is_some_and(|n| n != "//" && step.matches_name(&n)) {
                        found.push(Found::Member(m));
                    }
                }
            }
            if let (Step::Index(n), JsonValue::Array(a)) = (step, value)
                && let Some(e) = a.elements().nth(*n)
            {
                found.push(Found::Element(a.clone(), e));
            }
        }
        if found.is_empty() {
            let matched = Address::new(address.steps()[..i].to_vec()).to_string();
            if let Some(v) = current
                .iter()
                .find(|v| !matches!(v, JsonValue::Object(_) | JsonValue::Array(_)))
            {
                return Err(EditError::NoParts {
                    address: address.to_string(),
                    item: matched,
                    kind: v.kind_name().to_string(),
                    value: v.text(),
                });
            }
            return Err(EditError::NotFound {
                address: address.to_string(),
                matched,
            });
        }
        current = found.iter().filter_map(Found::value).collect();
    }
    if found.len() > 1 && !address.has_wildcard() {
        return Err(EditError::Ambiguous {
            address: address.to_string(),
            count: found.len(),
        });
    }
    Ok(found)
}

/// The JSON Terraform expects for `source` at `address` where it reads a
/// string as an expression: a variable's `type`, `depends_on`, a
/// resource's or data source's `provider`.
fn static_expression(address: &Address, source: &str) -> Option<Json> {
    let names: Vec<&str> = address
        .steps()
        .iter()
        .map(|s| match s {
            Step::Name(n) | Step::Key(n) => n.as_str(),
            _ => "",
        })
        .collect();
    let source = source.trim();
    match names.as_slice() {
        ["variable", _, "type"] | ["resource" | "data", _, _, "provider"] => {
            crate::parse_expr(source)
                .errors()
                .is_empty()
                .then(|| Json::String(source.to_string()))
        }
        [.., "depends_on"] => {
            let parse = crate::parse_expr(source);
            if !parse.errors().is_empty() {
                return None;
            }
            let tuple = parse
                .syntax()
                .descendants()
                .find_map(<crate::ast::Tuple as crate::ast::AstNode>::cast)?;
            let items: Vec<Json> = tuple
                .elements()
                .map(|e| {
                    Json::String(
                        crate::ast::AstNode::syntax(&e)
                            .to_string()
                            .trim()
                            .to_string(),
                    )
                })
                .collect();
            Some(Json::Array(items))
        }
        _ => None,
    }
}

/// The JSON for a value given as native syntax source.
fn value_json(source: &str) -> Result<Json, EditError> {
    let parse = crate::parse_expr(source);
    let invalid = |reason: String| EditError::InvalidValue {
        source: source.to_string(),
        reason,
    };
    if let Some(e) = parse.errors().first() {
        return Err(invalid(format!("{}:{}: {}", e.line, e.column, e.message)));
    }
    let expr = parse
        .syntax()
        .descendants()
        .find_map(<crate::ast::Expr as crate::ast::AstNode>::cast)
        .ok_or_else(|| invalid("expected an expression".into()))?;
    Ok(crate::convert::to_json::expr_json(&expr))
}

/// JSON on one line, with a space after `:` and `,`.
fn compact(value: &Json) -> String {
    match value {
        Json::Array(items) => format!(
            "[{}]",
            items.iter().map(compact).collect::<Vec<_>>().join(", ")
        ),
        Json::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", crate::json::quote(k), compact(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Json::String(s) => crate::json::quote(s),
        other => other.to_string(),
    }
}

/// The significant children of an object or array: members or elements,
/// with their ranges.
fn items(node: &crate::SyntaxNode) -> Vec<TextRange> {
    use crate::SyntaxKind::*;
    node.children_with_tokens()
        .filter(|e| {
            matches!(
                e.kind(),
                JSON_MEMBER | JSON_OBJECT | JSON_ARRAY | JSON_STRING | JSON_NUMBER | JSON_WORD
            )
        })
        .map(|e| e.text_range())
        .collect()
}

/// The range of the bracket that opens (`first`) or closes a container.
fn bracket(node: &crate::SyntaxNode, first: bool) -> TextRange {
    use crate::SyntaxKind::*;
    let mut brackets = node
        .children_with_tokens()
        .filter(|e| matches!(e.kind(), L_BRACE | R_BRACE | L_BRACK | R_BRACK))
        .map(|e| e.text_range());
    let range = if first {
        brackets.next()
    } else {
        brackets.last()
    };
    range.unwrap_or_else(|| node.text_range())
}

/// The edit that removes a member or element with its comma.
fn removal(found: &Found) -> TextEdit {
    let (container, range) = match found {
        Found::Member(m) => (
            m.syntax().parent().expect("a member is in an object"),
            m.syntax().text_range(),
        ),
        Found::Element(a, v) => (a.syntax().clone(), v.range()),
    };
    let all = items(&container);
    let at = all.iter().position(|r| *r == range).unwrap_or(0);
    let cut = if at + 1 < all.len() {
        // Up to the next item: the comma and the space before it go.
        TextRange::new(range.start(), all[at + 1].start())
    } else if at > 0 {
        // The last: from the end of the previous item (its comma goes).
        TextRange::new(all[at - 1].end(), range.end())
    } else {
        // The only one: the container becomes empty.
        TextRange::new(
            bracket(&container, true).end(),
            bracket(&container, false).start(),
        )
    };
    TextEdit::replace(cut, String::new())
}

/// The edit that inserts `member` (`"name": value`) into `object`.
fn insertion(object: &JsonObject, member: &str, placement: &Placement) -> TextEdit {
    let node = object.syntax();
    let text = node.to_string();
    let base = node.text_range().start();
    let all = items(node);
    let members: Vec<(Option<String>, TextRange)> = object
        .members()
        .map(|m| (m.name(), m.syntax().text_range()))
        .collect();
    let open = bracket(node, true);
    let close = bracket(node, false);
    let slice = |r: TextRange| &text[usize::from(r.start() - base)..usize::from(r.end() - base)];
    if all.is_empty() {
        // An empty object: on one line, or on its own lines when it spans
        // several.
        let inside = TextRange::new(open.end(), close.start());
        let spread = slice(inside).contains('\n');
        let replacement = if spread {
            let indent = line_indent(&text, usize::from(close.start() - base));
            format!("\n{indent}  {member}\n{indent}")
        } else {
            member.to_string()
        };
        return TextEdit::replace(inside, replacement);
    }
    // The space that separates one item from the next (after the comma),
    // or the space after `{` when there is one item.
    let separator = if all.len() >= 2 {
        let between = slice(TextRange::new(all[0].end(), all[1].start()));
        between
            .trim_start_matches(|c: char| c.is_whitespace())
            .trim_start_matches(',')
            .to_string()
    } else {
        slice(TextRange::new(open.end(), all[0].start())).to_string()
    };
    let separator = if separator.is_empty() {
        " ".to_string()
    } else {
        separator
    };
    let before = match placement {
        Placement::First => Some(all[0]),
        Placement::Before(name) => members
            .iter()
            .find(|(n, _)| n.as_deref() == Some(name))
            .map(|(_, r)| *r),
        Placement::After(name) => members
            .iter()
            .position(|(n, _)| n.as_deref() == Some(name))
            .and_then(|i| all.get(i + 1).copied()),
        _ => None,
    };
    match before {
        Some(next) => TextEdit::replace(
            TextRange::empty(next.start()),
            format!("{member},{separator}"),
        ),
        None => {
            let last = *all.last().expect("items");
            TextEdit::replace(
                TextRange::empty(last.end()),
                format!(",{separator}{member}"),
            )
        }
    }
}

/// The indentation of the line holding byte `at` of `text`.
fn line_indent(text: &str, at: usize) -> String {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}
