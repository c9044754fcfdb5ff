//! Version bumps (the job of `tfupdate`): the versions and constraints of
//! Terraform, providers, modules and Packer plugins, and the rule that
//! turns an old constraint into a new one.
//!
//! [`bump_document`] changes the version strings of one document (only
//! their bytes), [`bump_json`] those of a file of the JSON syntax
//! (`main.tf.json`); the `hclwright bump` command applies them across a
//! tree.

mod apply;
mod constraint;
mod json;
mod new_version;

pub use apply::{Change, Target, bump_document, bump_document_to, bump_document_to_constraint};
pub use constraint::{Bumped, Constraint, Constraints, Operator, Version, bump};
pub use json::{bump_json, bump_json_to, bump_json_to_constraint};
pub use new_version::{NewVersion, NewVersionError};
