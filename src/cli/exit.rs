//! The tool's exit codes, shared by every layer of `cli` (this module
//! imports nothing).

/// Exit code: success.
pub const EXIT_OK: i32 = 0;
/// Exit code: bad usage.
pub const EXIT_USAGE: i32 = 1;
/// Exit code: syntax or I/O errors.
pub const EXIT_ERRORS: i32 = 2;
/// Exit code: `fmt --check` found files that are not formatted.
pub const EXIT_CHANGES: i32 = 3;
