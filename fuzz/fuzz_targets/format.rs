//! Fuzz target `format`: the formatter's invariants on arbitrary UTF-8 text.
//!
//! For every input that is valid UTF-8:
//! - `format` never panics and changes only spaces and tabs (besides
//!   dropping a leading byte order mark);
//! - it is idempotent when both the input and its formatting are free of
//!   syntax errors. Upstream is not idempotent otherwise, and hclwright
//!   matches upstream byte for byte: on broken input (`. ..\x1c` formats
//!   to `...\x1c`, then to `... \x1c`), and where removing a space makes a
//!   valid text invalid (`a = 0. e` formats to `a = 0.e`, an invalid
//!   number, as `terraform fmt` does too);
//! - `format_edits` gives the same result, and each of its edits replaces
//!   a run of spaces and tabs (or the leading byte order mark) with spaces
//!   and tabs;
//! - the terraform profile never panics, and when it succeeds on its own
//!   output, formatting that output again changes nothing;
//! - `is_formatted` answers as `format_with` compared with the input does.
#![no_main]

use hclwright::diff::apply_edits;
use hclwright::format::{format_edits, is_formatted};
use hclwright::{FormatOptions, format, format_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    let out = format(text);
    let without_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
    assert!(
        skeleton(&out) == skeleton(without_bom),
        "format changed more than spaces and tabs: {text:?} -> {out:?}"
    );
    let valid = hclwright::parse(text).errors().is_empty();
    if valid && hclwright::parse(&out).errors().is_empty() {
        let again = format(&out);
        assert!(
            again == out,
            "format is not idempotent: {text:?} -> {out:?} -> {again:?}"
        );
    }

    let edits = format_edits(text);
    for e in &edits {
        let old = &text[e.range];
        let old_ok = is_blank(old)
            || (u32::from(e.range.start()) == 0
                && old.starts_with('\u{feff}')
                && is_blank(&old['\u{feff}'.len_utf8()..]));
        assert!(
            old_ok && is_blank(&e.new_text),
            "format_edits replaces {old:?} with {:?} in {text:?}",
            e.new_text
        );
    }
    let applied = apply_edits(text, &edits).expect("format_edits gives applicable edits");
    assert!(
        applied == out,
        "format_edits disagrees with format on {text:?}: {applied:?} != {out:?}"
    );

    let terraform = FormatOptions::terraform();
    let tf = format_with(text, &terraform);
    assert_eq!(
        is_formatted(text, &terraform).ok(),
        tf.as_ref().ok().map(|tf| tf == text),
        "is_formatted disagrees with format_with on {text:?}"
    );
    if let Ok(tf) = tf
        && let Ok(tf_again) = format_with(&tf, &terraform)
    {
        assert!(
            tf_again == tf,
            "terraform profile is not idempotent: {text:?} -> {tf:?} -> {tf_again:?}"
        );
    }
});

/// The text without spaces and tabs.
fn skeleton(text: &str) -> String {
    text.chars().filter(|&c| c != ' ' && c != '\t').collect()
}

/// Only spaces and tabs (or nothing).
fn is_blank(text: &str) -> bool {
    text.bytes().all(|b| b == b' ' || b == b'\t')
}
