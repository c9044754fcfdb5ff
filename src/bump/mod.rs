//! Version bumps (the job of `tfupdate`): the versions and constraints of
//! Terraform, providers, modules and Packer plugins, and the rule that
//! turns an old constraint into a new one.
//!
//! This is the constraint layer; the `hclwright bump` command that applies
//! it across a tree of files, on top of [`crate::Document`], builds on it.

mod constraint;

pub use constraint::{Bumped, Constraint, Constraints, Operator, Version, bump};
