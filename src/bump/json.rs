//! Bumps in files of the JSON syntax (`main.tf.json`): the same version
//! strings as in native files, found through the JSON shapes of the
//! blocks (`{"terraform": {"required_version": …}}`, a block as an object
//! or an array of objects, labels as nested properties), and changed by
//! replacing only the characters inside their quotes.

use super::apply::{
    Change, Target, query_value, registry_path, registry_url, same_source, spliced,
};
use super::constraint::Version;
use super::new_version::NewVersion;
use crate::SyntaxError;
use crate::diff::TextEdit;
use crate::json::{JsonObject, JsonValue};
use crate::syntax_kind::SyntaxToken;

/// Bumps every version string `target` names in the JSON syntax `text` to
/// `version` (as [`super::bump_document`] does in a native document);
/// returns the new text and what changed, or the syntax errors of `text`.
///
/// ```
/// use hclwright::bump::{Target, Version, bump_json};
/// let text = "{\"terraform\": {\"required_version\": \"~> 1.5\"}}\n";
/// let v = Version::parse("1.11.4").unwrap();
/// let (new, changes) = bump_json(text, &Target::Terraform, &v, true).unwrap();
/// assert_eq!(new, "{\"terraform\": {\"required_version\": \"~> 1.11\"}}\n");
/// assert_eq!((changes[0].line, changes[0].old.as_str()), (1, "~> 1.5"));
/// ```
pub fn bump_json(
    text: &str,
    target: &Target,
    version: &Version,
    keep_operator: bool,
) -> Result<(String, Vec<Change>), Vec<SyntaxError>> {
    bump_json_to(
        text,
        target,
        &NewVersion::Version {
            version: version.clone(),
            keep_operator,
        },
    )
}

/// Sets every version constraint `target` names in the JSON syntax `text`
/// to `constraint` as written (see [`super::bump_document_to_constraint`]).
///
/// ```
/// use hclwright::bump::{Target, bump_json_to_constraint};
/// let text = r#"{"module": {"vpc": {"source": "terraform-aws-modules/vpc/aws", "version": "5.1.0"}}}"#;
/// let target = Target::Module("terraform-aws-modules/vpc/aws".into());
/// let (new, _) = bump_json_to_constraint(text, &target, "~> 5.5").unwrap();
/// assert!(new.contains(r#""version": "~> 5.5""#));
/// ```
pub fn bump_json_to_constraint(
    text: &str,
    target: &Target,
    constraint: &str,
) -> Result<(String, Vec<Change>), Vec<SyntaxError>> {
    bump_json_to(
        text,
        target,
        &NewVersion::Constraint(constraint.to_string()),
    )
}

/// Bumps every version string `target` names in the JSON syntax `text` to
/// `new` (see [`super::bump_document_to`]); returns the new text and what
/// changed.
pub fn bump_json_to(
    text: &str,
    target: &Target,
    new: &NewVersion,
) -> Result<(String, Vec<Change>), Vec<SyntaxError>> {
    let parse = crate::json::parse(text);
    if !parse.errors().is_empty() {
        return Err(parse.errors().to_vec());
    }
    let roots = parse.root().map(|r| r.bodies()).unwrap_or_default();
    let mut found: Vec<(SyntaxToken, String)> = Vec::new();
    let constraint = |token: SyntaxToken, found: &mut Vec<(SyntaxToken, String)>| {
        let old = inner(&token).to_string();
        found.push((token, new.replacing(&old)));
    };
    let version = new.version();
    match target {
        Target::Terraform => {
            for block in blocks(&roots, "terraform") {
                if let Some(token) = string(&block, "required_version") {
                    constraint(token, &mut found);
                }
            }
        }
        Target::Provider(name) => {
            let mut local_names = Vec::new();
            for block in blocks(&roots, "terraform") {
                for providers in blocks(&[block], "required_providers") {
                    for (local, token) in requirements(&providers, name) {
                        local_names.push(local);
                        constraint(token, &mut found);
                    }
                }
            }
            if !name.contains('/') {
                local_names.push(name.clone());
            }
            for (label, block) in labelled_blocks(&roots, "provider") {
                if local_names.contains(&label)
                    && let Some(token) = string(&block, "version")
                {
                    constraint(token, &mut found);
                }
            }
        }
        Target::Plugin(name) => {
            for block in blocks(&roots, "packer") {
                for plugins in blocks(&[block], "required_plugins") {
                    for (_, token) in requirements(&plugins, name) {
                        constraint(token, &mut found);
                    }
                }
            }
        }
        Target::Module(source) => {
            for (_, block) in labelled_blocks(&roots, "module") {
                let Some(source_token) = string(&block, "source") else {
                    continue;
                };
                let source_text = inner(&source_token);
                if same_source(source_text, source) {
                    if let Some(token) = string(&block, "version") {
                        constraint(token, &mut found);
                    }
                } else if let (Some(range), Some(version)) =
                    (query_value(source_text, source, "ref"), version)
                {
                    let new = spliced(range, version);
                    found.push((source_token, new));
                }
            }
            // Terragrunt: `{"terraform": {"source": "tfr:///…?version=…"}}`.
            for block in blocks(&roots, "terraform") {
                let Some(token) = string(&block, "source") else {
                    continue;
                };
                let text = inner(&token);
                let registry = registry_path(text);
                let range = match registry {
                    Some(_) => query_value(text, &registry_url(text), "version"),
                    None => query_value(text, source, "ref"),
                };
                if let (Some(range), Some(version)) = (range, version)
                    && (registry.is_none() || registry == Some(source.as_str()))
                {
                    found.push((token, spliced(range, version)));
                }
            }
        }
    }
    let lines = crate::LineIndex::new(text);
    let mut changes = Vec::new();
    let mut edits = Vec::new();
    for (token, new) in found {
        let old = inner(&token);
        if old == new {
            continue;
        }
        let (line, _) = lines.line_col(token.text_range().start());
        changes.push(Change {
            line,
            old: old.to_string(),
            new: new.clone(),
        });
        let quoted = crate::json::quote(&new);
        let range = token.text_range();
        let inside = text_size::TextRange::new(
            range.start() + text_size::TextSize::from(1),
            range.end() - text_size::TextSize::from(1),
        );
        edits.push(TextEdit::replace(inside, &quoted[1..quoted.len() - 1]));
    }
    edits.sort_by_key(|e| e.range.start());
    edits.dedup_by(|b, a| a.range == b.range);
    let out = crate::diff::apply_edits(text, &edits).unwrap_or_else(|_| text.to_string());
    Ok((out, changes))
}

/// The text between a string token's quotes.
fn inner(token: &SyntaxToken) -> &str {
    let t = token.text();
    t.get(1..t.len().saturating_sub(1)).unwrap_or("")
}

/// The bodies of the blocks `type_name` (without labels) in `parents`.
fn blocks(parents: &[JsonObject], type_name: &str) -> Vec<JsonObject> {
    parents
        .iter()
        .flat_map(|p| p.members().collect::<Vec<_>>())
        .filter(|m| m.name().as_deref() == Some(type_name))
        .filter_map(|m| m.value())
        .flat_map(|v| v.bodies())
        .collect()
}

/// The blocks `type_name` with one label in `parents`: `(label, body)`.
fn labelled_blocks(parents: &[JsonObject], type_name: &str) -> Vec<(String, JsonObject)> {
    let mut out = Vec::new();
    for by_label in blocks(parents, type_name) {
        for member in by_label.members() {
            let (Some(label), Some(value)) = (member.name(), member.value()) else {
                continue;
            };
            for body in value.bodies() {
                out.push((label.clone(), body));
            }
        }
    }
    out
}

/// The token of the plain string property `name` of `body` (no escapes,
/// no template sequences).
fn string(body: &JsonObject, name: &str) -> Option<SyntaxToken> {
    let value = body
        .members()
        .find(|m| m.name().as_deref() == Some(name))?
        .value()?;
    plain_string(&value)
}

fn plain_string(value: &JsonValue) -> Option<SyntaxToken> {
    match value {
        JsonValue::String(t) if !t.text().contains(['\\', '$', '%']) && t.text().len() >= 2 => {
            Some(t.clone())
        }
        _ => None,
    }
}

/// The version strings of the requirements `name` (a local name, or a
/// source) in `required_providers` or `required_plugins`: the object form
/// `{"source": …, "version": …}` and the legacy string form.
fn requirements(block: &JsonObject, name: &str) -> Vec<(String, SyntaxToken)> {
    let mut out = Vec::new();
    for member in block.members() {
        let (Some(local), Some(value)) = (member.name(), member.value()) else {
            continue;
        };
        match &value {
            JsonValue::Object(object) => {
                let source = string(object, "source").map(|t| inner(&t).to_string());
                let matches = if name.contains('/') {
                    source.is_some_and(|s| same_source(&s, name))
                } else {
                    local == name
                };
                if matches && let Some(token) = string(object, "version") {
                    out.push((local, token));
                }
            }
            other if local == name => {
                if let Some(token) = plain_string(other) {
                    out.push((local, token));
                }
            }
            _ => {}
        }
    }
    out
}
