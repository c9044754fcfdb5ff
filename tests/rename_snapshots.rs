//! Prefix renames over `fixtures/rename/*.hcl` (each names its rename on
//! its first line: `# rename: FROM -> TO`) and over the files of
//! `fixtures/rename/multi/`. Every rename is snapshotted as a unified diff,
//! and checked: the result parses, every edit stays inside a matched
//! reference, and the reverse rename gives the original text back (unless
//! the second line says `# not reversible: WHY`).

mod common;

use std::path::Path;

use hclwright::diff::{apply_edits, unified_diff};
use hclwright::refs::{Rename, SourceFile};

fn header(text: &str) -> (String, String) {
    let line = text.lines().next().unwrap();
    let spec = line
        .strip_prefix("# rename: ")
        .expect("first line: # rename: FROM -> TO");
    let (from, to) = spec.split_once(" -> ").unwrap();
    (from.to_string(), to.to_string())
}

/// Renames, checks the result and returns the diff.
fn rename_and_check(name: &str, text: &str, from: &str, to: &str) -> String {
    let reversible = !text
        .lines()
        .nth(1)
        .unwrap_or("")
        .starts_with("# not reversible:");
    let rename = Rename::parse(from, to).unwrap();
    let parse = hclwright::parse(text);
    assert!(parse.errors().is_empty(), "{name}: {:?}", parse.errors());
    let renamed = rename.apply(&parse.syntax());
    assert!(renamed.matches > 0, "{name}: nothing matched");

    common::assert_edits_inside_matches(&rename, &parse.syntax(), &renamed, name);

    let new_text = apply_edits(text, &renamed.edits).unwrap();
    let reparsed = hclwright::parse(&new_text);
    assert!(
        reparsed.errors().is_empty(),
        "{name}: {:?}\n{new_text}",
        reparsed.errors()
    );

    let back = Rename::parse(to, from)
        .unwrap()
        .rename_text(&new_text)
        .unwrap();
    let restored = apply_edits(&new_text, &back.edits).unwrap();
    if !reversible {
        assert_ne!(restored, text, "{name}: reversible after all");
        return unified_diff(text, &new_text, name);
    }
    assert_eq!(
        restored, text,
        "{name}: the reverse rename does not restore the text"
    );
    unified_diff(text, &new_text, name)
}

#[test]
fn rename_fixtures() {
    insta::glob!("../fixtures/rename", "*.hcl", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let (from, to) = header(&text);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let diff = rename_and_check(&name, &text, &from, &to);
        insta::assert_snapshot!(format!("{from} -> {to}\n\n{diff}"));
    });
}

#[test]
fn multi_file_rename() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rename/multi");
    let files = common::source_files(&dir);
    let rename = Rename::parse("module.vpc", "module.network").unwrap();
    let result = rename.rename_files(&files).unwrap();
    let changed: Vec<_> = result
        .iter()
        .map(|f| (f.path.display().to_string(), f.matches))
        .collect();
    assert_eq!(
        changed,
        [("main.tf".to_string(), 2), ("outputs.tf".to_string(), 2)]
    );
    let mut diffs = String::new();
    for file_edits in &result {
        let file = files.iter().find(|f| f.path == file_edits.path).unwrap();
        let new_text = apply_edits(&file.text, &file_edits.edits).unwrap();
        diffs.push_str(&unified_diff(
            &file.text,
            &new_text,
            &file.path.display().to_string(),
        ));
    }
    insta::assert_snapshot!(diffs);
}

#[test]
fn files_with_syntax_errors_are_refused() {
    let files = [
        SourceFile::new("good.tf", "a = var.x\n"),
        SourceFile::new("bad.tf", "b = var.x +\n"),
    ];
    let err = Rename::parse("var.x", "var.y")
        .unwrap()
        .rename_files(&files)
        .unwrap_err();
    assert_eq!(err.files.len(), 1);
    assert_eq!(err.files[0].0, Path::new("bad.tf"));
}

#[test]
fn to_must_keep_the_wildcards_of_from() {
    assert!(Rename::parse("var.a[*].b", "var.c.b").is_err());
    assert!(Rename::parse("var.a[*].b", "var.c[*].d[*]").is_err());
    assert!(Rename::parse("var.a[*].b", "local.a[*]").is_ok());
    assert!(Rename::parse("var..a", "var.b").is_err());
    assert!(Rename::parse("var.a", "var b").is_err());
}
