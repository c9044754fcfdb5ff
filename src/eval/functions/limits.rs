//! The sizes past which functions whose output size comes from an argument
//! fail with an error instead of allocating without bound.
//!
//! | function | limit | Terraform |
//! |---|---|---|
//! | `range` | 1024 values | the same limit and message |
//! | `format`, `formatlist` width and precision | [`MAX_FORMAT_WIDTH`] | Go's `fmt` gives `%!(NOVERB)` for number widths past about ten million; string widths are not limited |
//! | `indent` | a result of at most [`MAX_GENERATED_LEN`] bytes | not limited |
//! | `setproduct` | at most [`MAX_PRODUCT`] combinations | not limited |
//! | `templatefile` | no call from inside a template | the same rule and message |
//! | `bcrypt` cost | at most [`MAX_BCRYPT_COST`] | up to 31 (each step doubles the time: 31 takes days) |
//!
//! Functions whose output is at most proportional to their input (`strrev`,
//! `chunklist`, `base64gzip`, `cidrsubnets`, `join`…) need no limit of
//! their own: the [budget](crate::eval::Budget) bounds what any expression
//! makes in total.

/// The largest width or precision in a `format` or `formatlist` verb.
pub const MAX_FORMAT_WIDTH: usize = 10_000_000;

/// The largest string, in bytes, that `indent` makes.
pub const MAX_GENERATED_LEN: usize = 64 << 20;

/// The most combinations `setproduct` makes.
pub const MAX_PRODUCT: usize = 1 << 20;

/// The highest `bcrypt` cost: each step doubles the time, so that a cost
/// of 16 takes seconds and Terraform's highest, 31, days: one step that
/// no budget can stop (`bcrypt` stood out as the slowest function in the
/// `eval_fuzz` driver's runs).
pub const MAX_BCRYPT_COST: i64 = 16;
