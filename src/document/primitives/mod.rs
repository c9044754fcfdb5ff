//! Edit primitives: the layer under the operations.
//!
//! What every edit is made of, working on syntax trees and text, never
//! on a [`Document`](crate::document::Document):
//!
//! - `replacement`: one change of the text, as every edit states it;
//! - `lines`: the token at an offset, lines, indentation, the indentation
//!   unit around a node, snippets re-indented for their place;
//! - `layout`: new lines laid out and the `=` and comment groups they
//!   join realigned (only when they were aligned);
//! - `heredoc`: room made for heredocs, whose closing marker ends a line;
//! - `placement`: where a new item goes among its siblings;
//! - `create`: the source of new items, names and labels;
//! - `body`: attributes and blocks inserted into a body, and removed;
//! - `collection`: object items and tuple elements inserted and removed,
//!   in the collection's own style;
//! - `reparse`: the smallest unit reparsed after a change.
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
