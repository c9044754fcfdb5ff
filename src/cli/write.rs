//! Atomic file replacement, shared by the subcommands that rewrite files:
//! the library's writer ([`hclwright::write`]).

pub use hclwright::write::{is_changed_since_read, write_atomic, write_checked};
