//! Version bumps (the job of `tfupdate`): the versions and constraints of
//! Terraform, providers, modules and Packer plugins, and the rule that
//! turns an old constraint into a new one.
//!
//! [`bump_document`] changes the version strings of one document (only
//! their bytes); the `hclwright bump` command applies it across a tree.

mod apply;
mod constraint;

pub use apply::{Change, Target, bump_document, bump_document_to_constraint};
pub use constraint::{Bumped, Constraint, Constraints, Operator, Version, bump};
