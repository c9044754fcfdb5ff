//! Parser fixtures: every file under `fixtures/parser/ok` parses without
//! errors, every file under `fixtures/parser/err` gives at least one, all are
//! lossless, and the tree and errors are snapshotted.
//!
//! The validity verdicts were checked against the upstream parser (see
//! `fixtures/parser/README.md`).

mod common;

use std::fs;

#[test]
fn ok_fixtures_parse_cleanly() {
    insta::glob!("../fixtures/parser/ok", "*.hcl", |path| {
        let text = fs::read_to_string(path).unwrap();
        let parse = hclwright::parse(&text);
        assert_eq!(parse.syntax().to_string(), text, "lossless: {path:?}");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            parse.errors().is_empty(),
            "{name} should parse without errors:\n{}",
            common::render_errors(&name, &text, parse.errors())
        );
        insta::assert_snapshot!(parse.debug_tree());
    });
}

#[test]
fn err_fixtures_report_errors() {
    insta::glob!("../fixtures/parser/err", "*.hcl", |path| {
        let text = fs::read_to_string(path).unwrap();
        let parse = hclwright::parse(&text);
        assert_eq!(parse.syntax().to_string(), text, "lossless: {path:?}");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(!parse.errors().is_empty(), "{name} should have errors");
        for e in parse.errors() {
            assert!(usize::from(e.range.end()) <= text.len());
            assert!(e.line >= 1 && e.column >= 1);
        }
        let snapshot = format!(
            "{}\n{}",
            common::render_errors(&name, &text, parse.errors()),
            parse.debug_tree()
        );
        insta::assert_snapshot!(snapshot);
    });
}
