//! Finding the version strings a bump changes in a document, and changing
//! only their bytes.

use super::constraint::Version;
use super::new_version::NewVersion;
use crate::ast::{self, Expr, TemplatePart};
use crate::document::{Document, EditError};
use crate::syntax_kind::SyntaxToken;

/// What to bump, named as `tfupdate` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `required_version` in every `terraform` block.
    Terraform,
    /// A provider: its local name (`aws`) or its source (`hashicorp/aws`,
    /// matched against `source` with or without the registry host): the
    /// `version` in `required_providers` (object form), the legacy string
    /// form `aws = "~> 2.0"`, and the legacy `version` in `provider`
    /// blocks.
    Provider(String),
    /// A module by its registry source (`terraform-aws-modules/vpc/aws`):
    /// the `version` of the `module` blocks with that `source`; for a git
    /// or other URL source given without its query, the `ref` of
    /// `?ref=…`; in Terragrunt's `terraform { source = "tfr:///SOURCE?version=X" }`,
    /// the `version`.
    Module(String),
    /// A Packer plugin by its local name or source: the `version` in
    /// `packer { required_plugins { … } }`.
    Plugin(String),
}

/// One version string a bump changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// 1-based line of the string.
    pub line: u32,
    /// The old constraint (or ref).
    pub old: String,
    /// The new one.
    pub new: String,
}

/// Bumps every version string `target` names in `doc` to `version` (see
/// [`super::bump`] for `keep_operator`), changing only the bytes of those
/// strings; returns what changed (nothing when they are already current).
///
/// ```
/// use hclwright::Document;
/// use hclwright::bump::{Target, Version, bump_document};
/// let mut doc = Document::parse(
///     "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"~> 4.0\" # pinned\n    }\n  }\n}\n",
/// )?;
/// let v = Version::parse("5.31.0").unwrap();
/// let changes = bump_document(&mut doc, &Target::Provider("hashicorp/aws".into()), &v, true)?;
/// assert_eq!((changes[0].old.as_str(), changes[0].new.as_str()), ("~> 4.0", "~> 5.31"));
/// assert!(doc.to_string().contains("      version = \"~> 5.31\" # pinned\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bump_document(
    doc: &mut Document,
    target: &Target,
    version: &Version,
    keep_operator: bool,
) -> Result<Vec<Change>, EditError> {
    bump_document_to(
        doc,
        target,
        &NewVersion::Version {
            version: version.clone(),
            keep_operator,
        },
    )
}

/// Sets every version constraint `target` names to `constraint` as written
/// (`~> 5.0`, `>= 1.2, < 2.0`), as tfupdate's `-v` does. A git `?ref=` or a
/// Terragrunt `?version=` needs one version: those are left alone.
///
/// ```
/// use hclwright::bump::{Target, bump_document_to_constraint};
/// let mut doc = hclwright::Document::parse("terraform {\n  required_version = \">= 1.0\"\n}\n")?;
/// bump_document_to_constraint(&mut doc, &Target::Terraform, "~> 1.9")?;
/// assert_eq!(doc.to_string(), "terraform {\n  required_version = \"~> 1.9\"\n}\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bump_document_to_constraint(
    doc: &mut Document,
    target: &Target,
    constraint: &str,
) -> Result<Vec<Change>, EditError> {
    bump_document_to(doc, target, &NewVersion::Constraint(constraint.to_string()))
}

/// Bumps every version string `target` names in `doc` to `new` (a
/// version or a constraint, as the `bump` command reads its argument),
/// changing only the bytes of those strings; returns what changed.
///
/// ```
/// use hclwright::bump::{NewVersion, Target, bump_document_to};
/// let mut doc = hclwright::Document::parse("terraform {\n  required_version = \">= 1.0\"\n}\n")?;
/// let new = NewVersion::parse("~> 1.9", false)?;
/// let changes = bump_document_to(&mut doc, &Target::Terraform, &new)?;
/// assert_eq!(changes[0].new, "~> 1.9");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bump_document_to(
    doc: &mut Document,
    target: &Target,
    new: &NewVersion,
) -> Result<Vec<Change>, EditError> {
    let body = doc.body();
    let mut found: Vec<(SyntaxToken, String)> = Vec::new();
    let constraint = |token: SyntaxToken, found: &mut Vec<(SyntaxToken, String)>| {
        let old = token.text().to_string();
        found.push((token, new.replacing(&old)));
    };
    let version = new.version();
    match target {
        Target::Terraform => {
            for block in body.blocks_of_type("terraform") {
                if let Some(token) = attribute_string(&block, "required_version") {
                    constraint(token, &mut found);
                }
            }
        }
        Target::Provider(name) => {
            let mut local_names = Vec::new();
            for block in body.blocks_of_type("terraform") {
                for providers in inner_blocks(&block, "required_providers") {
                    for (local, token) in requirements(&providers, name) {
                        local_names.push(local);
                        constraint(token, &mut found);
                    }
                }
            }
            if !name.contains('/') {
                local_names.push(name.clone());
            }
            for block in body.blocks_of_type("provider") {
                let label = block.labels().next().map(|l| l.value());
                if label.is_some_and(|l| local_names.contains(&l))
                    && let Some(token) = attribute_string(&block, "version")
                {
                    constraint(token, &mut found);
                }
            }
        }
        Target::Plugin(name) => {
            for block in body.blocks_of_type("packer") {
                for plugins in inner_blocks(&block, "required_plugins") {
                    for (_, token) in requirements(&plugins, name) {
                        constraint(token, &mut found);
                    }
                }
            }
        }
        Target::Module(source) => {
            for block in body.blocks_of_type("module") {
                let Some(source_token) = attribute_string(&block, "source") else {
                    continue;
                };
                if same_source(source_token.text(), source) {
                    if let Some(token) = attribute_string(&block, "version") {
                        constraint(token, &mut found);
                    }
                } else if let (Some(range), Some(version)) =
                    (query_value(source_token.text(), source, "ref"), version)
                {
                    let new = spliced(range, version);
                    found.push((source_token, new));
                }
            }
            // Terragrunt: `terraform { source = "…" }`.
            for block in body.blocks_of_type("terraform") {
                let Some(token) = attribute_string(&block, "source") else {
                    continue;
                };
                let text = token.text();
                let registry = text.strip_prefix("tfr:///").or_else(|| {
                    text.strip_prefix("tfr://")
                        .and_then(|rest| rest.split_once('/').map(|(_, path)| path))
                });
                let range = match registry {
                    Some(_) => query_value(text, &registry_url(text), "version"),
                    None => query_value(text, source, "ref"),
                };
                if let (Some(range), Some(version)) = (range, version)
                    && (registry.is_none() || registry_path(text) == Some(source.as_str()))
                {
                    found.push((token, spliced(range, version)));
                }
            }
        }
    }
    let mut changes = Vec::new();
    let mut edits = Vec::new();
    let text = doc.to_string();
    let lines = crate::LineIndex::new(&text);
    for (token, new) in found {
        if token.text() == new {
            continue;
        }
        let (line, _) = lines.line_col(token.text_range().start());
        changes.push(Change {
            line,
            old: token.text().to_string(),
            new: new.clone(),
        });
        edits.push((token.text_range(), new));
    }
    doc.replace_verbatim(edits)?;
    Ok(changes)
}

/// `text` with its byte `range` (a query parameter's value) replaced by
/// `version` (keeping a leading `v` if the old value had one).
pub(super) fn spliced(
    (text, range): (String, std::ops::Range<usize>),
    version: &Version,
) -> String {
    let old = &text[range.clone()];
    let new = if old.starts_with('v') {
        format!("v{version}")
    } else {
        version.to_string()
    };
    format!("{}{new}{}", &text[..range.start], &text[range.end..])
}

/// The `name=` value's byte range in `text` when `text`, without its
/// query, is `source` (or `source` is `text` up to its `?`).
pub(super) fn query_value(
    text: &str,
    source: &str,
    name: &str,
) -> Option<(String, std::ops::Range<usize>)> {
    let (base, query) = text.split_once('?')?;
    if base != source && registry_url(text) != source && repo_key(base) != repo_key(source) {
        return None;
    }
    let mut at = base.len() + 1;
    for pair in query.split('&') {
        if let Some(value) = pair.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
            let start = at + name.len() + 1;
            return Some((text.to_string(), start..start + value.len()));
        }
        at += pair.len() + 1;
    }
    None
}

/// A repository address for comparison: without a `git::` forcing prefix,
/// scheme, `git@` user, `.git` suffix, `//subdir` or query, lowercased, so
/// `git::https://github.com/acme/net.git//modules/a?ref=v1`,
/// `git@github.com:acme/net.git` and `github.com/acme/net` are one.
fn repo_key(source: &str) -> String {
    let s = source.split_once('?').map_or(source, |(b, _)| b);
    let s = s.strip_prefix("git::").unwrap_or(s);
    let s = match s.split_once("://") {
        Some((_, rest)) => rest,
        None => s,
    };
    let s = match s.strip_prefix("git@") {
        Some(rest) => rest.replacen(':', "/", 1),
        None => s.to_string(),
    };
    let s = s.split_once("//").map_or(s.as_str(), |(repo, _)| repo);
    let s = s.trim_end_matches('/');
    let s = s.strip_suffix(".git").unwrap_or(s);
    s.to_ascii_lowercase()
}

/// A `tfr://` source without its query.
pub(super) fn registry_url(text: &str) -> String {
    text.split_once('?')
        .map_or(text, |(base, _)| base)
        .to_string()
}

/// The module path of a `tfr:///PATH?…` or `tfr://HOST/PATH?…` source.
pub(super) fn registry_path(text: &str) -> Option<&str> {
    let base = text.split_once('?').map_or(text, |(base, _)| base);
    if let Some(path) = base.strip_prefix("tfr:///") {
        return Some(path);
    }
    base.strip_prefix("tfr://")?.split_once('/').map(|(_, p)| p)
}

/// True when a module's `source` is the registry source `wanted` (with or
/// without the public registry's host).
pub(super) fn same_source(source: &str, wanted: &str) -> bool {
    let strip = |s: &str| {
        let s = s.strip_prefix("registry.terraform.io/").unwrap_or(s);
        // A submodule (`NS/NAME/PROVIDER//modules/x`) has its package's version.
        let s = match s.find("//") {
            Some(i) if !s[..i].contains(':') => &s[..i],
            _ => s,
        };
        s.to_ascii_lowercase()
    };
    strip(source) == strip(wanted)
}

/// The nested blocks `type_name` of `block`.
fn inner_blocks(block: &ast::Block, type_name: &str) -> Vec<ast::Block> {
    block
        .body()
        .map(|b| b.blocks_of_type(type_name).collect())
        .unwrap_or_default()
}

/// The version strings of the requirements named `name` (a local name, or
/// a source matched against each requirement's `source`) in a
/// `required_providers` or `required_plugins` block: the local name and
/// the token of the version string.
fn requirements(block: &ast::Block, name: &str) -> Vec<(String, SyntaxToken)> {
    let mut out = Vec::new();
    let Some(body) = block.body() else {
        return out;
    };
    for attribute in body.attributes() {
        let Some(local) = attribute.name() else {
            continue;
        };
        match attribute.expr() {
            Some(Expr::Object(object)) => {
                let entry = |key: &str| {
                    object
                        .items()
                        .find(|i| i.key().and_then(|k| k.literal_name()).as_deref() == Some(key))
                };
                let source = entry("source")
                    .and_then(|i| i.value())
                    .and_then(|v| string_token(&v))
                    .map(|t| t.text().to_string());
                let matches = if name.contains('/') {
                    source.is_some_and(|s| same_source(&s, name))
                } else {
                    local == name
                };
                if matches
                    && let Some(token) = entry("version")
                        .and_then(|i| i.value())
                        .and_then(|v| string_token(&v))
                {
                    out.push((local, token));
                }
            }
            Some(value) if local == name => {
                // The legacy string form: `aws = "~> 2.0"`.
                if let Some(token) = string_token(&value) {
                    out.push((local, token));
                }
            }
            _ => {}
        }
    }
    out
}

/// The text token of the attribute `name`'s value in `block`, when it is
/// a plain string.
fn attribute_string(block: &ast::Block, name: &str) -> Option<SyntaxToken> {
    string_token(&block.body()?.attribute(name)?.expr()?)
}

/// The one text token of a plain string (no interpolation, no escapes).
fn string_token(expr: &Expr) -> Option<SyntaxToken> {
    let Expr::QuotedTemplate(template) = expr else {
        return None;
    };
    let mut parts = template.parts();
    match (parts.next(), parts.next()) {
        (Some(TemplatePart::Literal(token)), None) if !token.text().contains(['\\', '$', '%']) => {
            Some(token)
        }
        _ => None,
    }
}
