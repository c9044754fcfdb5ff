//! Edit operations: the layer above the primitives.
//!
//! Each file adds one family of public edits to
//! [`Document`](crate::document::Document): attributes and object items
//! set, renamed and removed (`edit_item`), blocks inserted, relabelled and
//! moved (`edit_block`), tuple elements inserted (`edit_collection`),
//! comments written (`edit_comments`), names of addresses moved
//! (`edit_mv`), references renamed and realigned (`refs`).
//!
//! **Layer rule.** An operation imports the base modules of
//! [`document`](crate::document), the primitives (`primitives/`), the
//! partial-edit machinery (`partial/`, by calling `Document::scoped` and
//! its kin) and the facade (`Document`); it imports no other operation.
//! What two operations share is a primitive. The rule is checked by
//! `tests/layers.rs`.

pub(super) mod edit_block;
pub(super) mod edit_collection;
pub(super) mod edit_comments;
pub(super) mod edit_item;
pub(super) mod edit_mv;
pub(super) mod refs;
