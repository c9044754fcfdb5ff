//! Errors of the editing API.

use std::fmt;

use crate::syntax_error::SyntaxError;

/// Why a text cannot be opened as a [`Document`](super::Document): its
/// syntax errors (a broken file is never edited).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub(crate) errors: Vec<SyntaxError>,
}

impl ParseError {
    /// The syntax errors, sorted by position (never empty).
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// Renders every error for a human: `path:line:col: message`, the
    /// source line and a caret.
    pub fn render(&self, path: &str, text: &str) -> String {
        self.errors.iter().map(|e| e.render(path, text)).collect()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} syntax error", self.errors.len())?;
        if self.errors.len() != 1 {
            write!(f, "s")?;
        }
        for e in &self.errors {
            write!(f, "\n{}:{}: {}", e.line, e.column, e.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// Why an edit or a look-up failed. A failed edit leaves the document
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// The address is malformed.
    InvalidAddress {
        /// The address as given.
        address: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Nothing matches the address.
    NotFound {
        /// The address as given.
        address: String,
        /// The longest prefix of the address that matched something
        /// (empty when not even the first step matched).
        matched: String,
    },
    /// The address goes on past an item whose value has no parts to
    /// address: a string, a number, a reference… (for example
    /// `required_providers.aws.version` where `aws = "~> 4.0"`, the legacy
    /// string form). [`EditError::is_not_found`] is true for it too.
    NoParts {
        /// The address as given.
        address: String,
        /// The address of the item that was found.
        item: String,
        /// What its value is, with an article: `a string`, `a number`…
        kind: String,
        /// Its value's source text (shortened when long).
        value: String,
    },
    /// Several items match an address without a `*` (for example two
    /// `provider "aws"` blocks).
    Ambiguous {
        /// The address as given.
        address: String,
        /// How many items match.
        count: usize,
    },
    /// The value (HCL source) does not parse.
    InvalidValue {
        /// The source as given.
        source: String,
        /// The syntax errors, rendered `line:col: message`.
        reason: String,
    },
    /// A name (attribute, block type, object key) is not valid there.
    InvalidName {
        /// The name as given.
        name: String,
        /// Why it is refused.
        reason: String,
    },
    /// The operation does not apply to what the address designates (for
    /// example inserting an element into a block).
    Unsupported {
        /// What was attempted, and on what.
        reason: String,
    },
    /// A rename or creation would clash with an existing item.
    AlreadyExists {
        /// The existing item's name.
        name: String,
    },
    /// The edited text would not parse (a bug, or an edit that breaks the
    /// file, such as a comment text containing a newline).
    Broken {
        /// The syntax errors of the result, rendered `line:col: message`.
        reason: String,
    },
}

impl EditError {
    /// True for [`EditError::NotFound`].
    pub fn is_not_found(&self) -> bool {
        matches!(self, EditError::NotFound { .. } | EditError::NoParts { .. })
    }

    pub(crate) fn unsupported(reason: impl Into<String>) -> EditError {
        EditError::Unsupported {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::InvalidAddress { address, reason } => {
                write!(f, "invalid address `{address}`: {reason}")
            }
            EditError::NotFound { address, matched } if matched.is_empty() => {
                write!(f, "`{address}` not found")
            }
            EditError::NotFound { address, matched } if matched == address => write!(
                f,
                "`{address}` not found: a block there has more labels (give them all, or `*` for any)"
            ),
            EditError::NotFound { address, matched } => {
                write!(f, "`{address}` not found (`{matched}` exists)")
            }
            EditError::NoParts {
                address,
                item,
                kind,
                value,
            } => write!(
                f,
                "`{address}` not found: `{item}` is {kind} (`{value}`), not an object or a block, \
                 so it has no `{}`; address `{item}` itself to read or set its whole value",
                address
                    .strip_prefix(item.as_str())
                    .map_or(address.as_str(), |rest| rest.trim_start_matches('.'))
            ),
            EditError::Ambiguous { address, count } => write!(
                f,
                "`{address}` is ambiguous: {count} items match (use `*` to address them all)"
            ),
            EditError::InvalidValue { source, reason } => {
                write!(f, "invalid value `{source}`: {reason}")
            }
            EditError::InvalidName { name, reason } => write!(f, "invalid name `{name}`: {reason}"),
            EditError::Unsupported { reason } => write!(f, "{reason}"),
            EditError::AlreadyExists { name } => write!(f, "`{name}` already exists"),
            EditError::Broken { reason } => {
                write!(f, "the edit would make the file invalid: {reason}")
            }
        }
    }
}

impl std::error::Error for EditError {}

/// Renders syntax errors as `line:col: message`, one per line.
pub(crate) fn render_errors(errors: &[SyntaxError]) -> String {
    errors
        .iter()
        .map(|e| format!("{}:{}: {}", e.line, e.column, e.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// "a" or "an".
pub(crate) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
