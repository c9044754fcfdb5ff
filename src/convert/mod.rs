//! Converting between the native syntax and JSON.
//!
//! [`to_json`] gives the JSON that the `hcl2json` tool gives for a file:
//! blocks as objects keyed by type and labels holding arrays of bodies,
//! literal values as JSON values, strings as templates (`"x${var.y}"`), and
//! every other expression as a `"${…}"` string of its source.

mod json_text;
mod to_hcl;
pub(crate) mod to_json;

pub use json_text::{write_compact, write_indented};
pub use to_hcl::{ToHclError, to_hcl};
pub use to_json::{ToJsonError, to_json, to_json_compact, to_json_value};
