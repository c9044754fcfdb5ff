//! Edit primitives: the layer under the operations.
//!
//! What every edit is made of: the replacements it states
//! (`replacement`), where lines and items start and how they
//! are indented, laying out new lines and realigning the groups they join
//! (`layout`), making room for heredocs (`heredoc`), where a new item goes
//! (`placement`), the source of new items (`create`), and the incremental
//! reparse of a change (`reparse`).
//!
//! **Layer rule.** A primitive imports the base modules of
//! [`document`](crate::document) (addresses, errors, values, items, the
//! tree and its index) and other primitives; it imports no operation
//! (`operations/`), nothing of the partial-edit machinery (`partial/`)
//! and not the [`Document`](crate::document::Document) facade. The rule is
//! checked by `tests/layers.rs`.

pub(super) mod body;
pub(super) mod collection;
pub(super) mod create;
pub(super) mod heredoc;
pub(super) mod layout;
pub(super) mod lines;
pub(super) mod placement;
pub(super) mod reparse;
pub(super) mod replacement;
