//! Partial edits of large files: the layer between the primitives and
//! the operations.
//!
//! # Contract
//!
//! An operation that edits at an address runs its edit through
//! [`Document::scoped`] (or, for a new top-level item placed next to a
//! top-level child, [`Document::scoped_insert`]); a read that leads into
//! one top-level item goes through [`Document::only_part`] or
//! [`Document::item_alone`]. Whether the edit runs on a small part of
//! the file or on the whole file is this module's business alone, and the
//! outcome is the same either way: the same text, the same changes
//! ([`Document::text_edits`]) and the same errors. An operation never
//! looks at how a part was cut; what the layout needs of it ([`Cuts`]: a
//! cut's side, what lies beyond it inside an `=` group, whether a layout
//! window reached it) travels in the part's `Document`, and
//! [`Document::known_top_body`] tells whether the document knows its whole
//! top level.
//!
//! # Inside
//!
//! - `scope`: the part around one top-level item, cut at lines no
//!   alignment group crosses, edited as a document of its own and put
//!   back; the whole file when the part's outcome is not sure to be the
//!   whole file's.
//! - `group`: a cut inside a long `=` group, whose lines beyond the cut
//!   are read from their text and summed up
//!   ([`Beyond`](crate::document::primitives::layout::Beyond)).
//! - Stand-ins for long one-line values (`Tree::abbreviated_part`,
//!   `Tree::replace_abbreviated` in `tree/stand_in.rs`): the tree's own
//!   representation, called only from `scope`.
//!
//! **Layer rule.** This module imports the base modules of
//! [`document`](crate::document), the primitives and the facade
//! ([`Document`]); it imports no operation. Outside it, only [`Cuts`] and
//! the `Document` methods above are used. The rule is checked by
//! `tests/layers.rs`.

mod group;
mod scope;

pub(super) use scope::Cuts;

#[cfg(doc)]
use crate::document::Document;
