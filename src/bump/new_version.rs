//! What a bump writes: a version, around which each old constraint is
//! rewritten, or a constraint written as given (tfupdate's `-v`).

use std::fmt;

use super::constraint::{Constraints, Version, bump};

/// What the version strings a bump finds become, as `hclwright bump`
/// reads its `VERSION` argument.
///
/// ```
/// use hclwright::bump::NewVersion;
/// let v = NewVersion::parse("5.31.0", true).unwrap();
/// assert_eq!(v.replacing("~> 4.0"), "~> 5.31");
/// let c = NewVersion::parse("~> 5.0", false).unwrap();
/// assert_eq!(c.replacing(">= 4.0, < 5.0"), "~> 5.0");
/// assert!(NewVersion::parse("~> 5.0", true).is_err()); // an operator to keep needs a version
/// assert!(NewVersion::parse("five", false).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewVersion {
    /// A version: each old constraint is rewritten to admit it (see
    /// [`super::bump`] for `keep_operator`); a git `?ref=` or a
    /// Terragrunt `?version=` becomes the version.
    Version {
        /// The version asked for.
        version: Version,
        /// Keep each constraint's operator (`~> 4.0` → `~> 5.31`) rather
        /// than pin the version.
        keep_operator: bool,
    },
    /// A constraint written as it is (`~> 5.0`, `>= 1.2, < 2.0`); a git
    /// `?ref=` or a Terragrunt `?version=` needs one version and is left
    /// alone.
    Constraint(String),
}

/// Why a `VERSION` argument was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewVersionError {
    /// Neither a version nor a constraint.
    Invalid(String),
    /// `keep_operator` with a constraint: there is no version to put
    /// behind the old operator.
    KeepOperatorNeedsVersion(String),
}

impl fmt::Display for NewVersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewVersionError::Invalid(text) => write!(
                f,
                "`{text}` is neither a version (such as 5.31.0) nor a constraint (such as \"~> 5.0\")"
            ),
            NewVersionError::KeepOperatorNeedsVersion(text) => write!(
                f,
                "keeping the operator needs a version (such as 5.31.0), not the constraint `{text}`"
            ),
        }
    }
}

impl std::error::Error for NewVersionError {}

impl NewVersion {
    /// Reads `text` as a version (`5.31.0`, `v1.2`), else as a constraint
    /// (`~> 5.0`); `keep_operator` applies to a version and is refused
    /// with a constraint.
    pub fn parse(text: &str, keep_operator: bool) -> Result<NewVersion, NewVersionError> {
        match (Version::parse(text), Constraints::parse(text)) {
            (Some(version), _) => Ok(NewVersion::Version {
                version,
                keep_operator,
            }),
            (None, Some(_)) if keep_operator => Err(NewVersionError::KeepOperatorNeedsVersion(
                text.trim().to_string(),
            )),
            (None, Some(_)) => Ok(NewVersion::Constraint(text.trim().to_string())),
            (None, None) => Err(NewVersionError::Invalid(text.to_string())),
        }
    }

    /// The version asked for, when one was (not a constraint).
    pub fn version(&self) -> Option<&Version> {
        match self {
            NewVersion::Version { version, .. } => Some(version),
            NewVersion::Constraint(_) => None,
        }
    }

    /// What the version string `old` becomes.
    pub fn replacing(&self, old: &str) -> String {
        match self {
            NewVersion::Version {
                version,
                keep_operator,
            } => bump(old, version, *keep_operator).text,
            NewVersion::Constraint(c) => c.clone(),
        }
    }
}
