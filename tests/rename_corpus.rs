//! A property over the real-world corpus: renaming a reference prefix to a
//! fresh name and back restores every file exactly, the renamed file still
//! parses, every edit stays inside a matched reference, and
//! `Document::rename_prefix` makes exactly the same change.
//!
//! For each valid file, up to `PREFIXES_PER_FILE` distinct prefixes of its
//! references are renamed twice: the last name replaced by a fresh one
//! (`var.region` → `var.zzfresh`), and the root replaced by a longer fresh
//! prefix (`var.region` → `zzroot.zzstep.region`).
//!
//! Needs `HCLWRIGHT_CORPUS` (CI: `../shared/corpus`); skipped otherwise.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use hclwright::diff::apply_edits;
use hclwright::refs::{Rename, StepKind, references};

const PREFIXES_PER_FILE: usize = 6;

/// Distinct prefixes `root.name` / `root.name.name` of the file's free
/// references, spread over the file.
fn prefixes(text: &str) -> Vec<String> {
    let parse = hclwright::parse(text);
    let mut all = BTreeSet::new();
    for reference in references(&parse.syntax()) {
        let t = &reference.traversal;
        let mut prefix = t.root.clone();
        for step in t.steps.iter().take(2) {
            let StepKind::Attr(name) = &step.kind else {
                break;
            };
            prefix.push('.');
            prefix.push_str(name);
            all.insert(prefix.clone());
        }
    }
    let all: Vec<String> = all.into_iter().collect();
    let stride = all.len().div_ceil(PREFIXES_PER_FILE).max(1);
    all.into_iter().step_by(stride).collect()
}

/// A name that does not occur in `text`.
fn fresh(text: &str, base: &str) -> String {
    (0..)
        .map(|i| format!("{base}{i}"))
        .find(|n| !text.contains(n.as_str()))
        .unwrap()
}

/// Renames `from` to `to` and back; returns the number of references
/// renamed.
fn round_trip(path: &Path, text: &str, from: &str, to: &str) -> usize {
    let forward = Rename::parse(from, to).unwrap();
    let parse = hclwright::parse(text);
    let renamed = forward.apply(&parse.syntax());
    let context = format!("{}: {from} -> {to}", path.display());
    common::assert_edits_inside_matches(&forward, &parse.syntax(), &renamed, &context);
    let new_text = apply_edits(text, &renamed.edits).unwrap();
    // Item by item, without the whole tree: the same edits.
    assert_eq!(
        forward.apply_text(text),
        renamed,
        "{context}: apply_text differs"
    );
    // The document API renames the same way, and nothing else.
    let mut doc = hclwright::Document::parse(text).unwrap();
    assert_eq!(
        doc.rename_prefix(from, to).unwrap(),
        renamed.matches,
        "{context}"
    );
    assert!(
        doc.to_string() == new_text,
        "{context}: Document::rename_prefix differs"
    );
    let back = Rename::parse(to, from)
        .unwrap()
        .rename_text(&new_text)
        .unwrap_or_else(|e| panic!("{}: {from} -> {to} broke the file: {e:?}", path.display()));
    assert_eq!(
        back.matches,
        renamed.matches,
        "{}: {from} <-> {to}",
        path.display()
    );
    let restored = apply_edits(&new_text, &back.edits).unwrap();
    assert!(
        restored == text,
        "{}: renaming {from} -> {to} and back changed the file",
        path.display()
    );
    renamed.matches
}

#[test]
fn rename_to_fresh_name_and_back_restores_every_file() {
    let Some(dir) = common::corpus("the corpus rename property") else {
        return;
    };
    let invalid = common::invalid_files(&dir);
    let (mut files_checked, mut renames, mut references_renamed) = (0, 0, 0);
    for rel in common::corpus_files(&dir) {
        if invalid.contains(&common::slash_path(&rel)) {
            continue;
        }
        let path = dir.join(&rel);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if !hclwright::parse(&text).errors().is_empty() {
            continue;
        }
        files_checked += 1;
        for prefix in prefixes(&text) {
            let (head, _) = prefix.rsplit_once('.').unwrap();
            let same_length = format!("{head}.{}", fresh(&text, "zzfresh"));
            let (_, rest) = prefix.split_once('.').unwrap();
            let longer = format!(
                "{}.{}.{rest}",
                fresh(&text, "zzroot"),
                fresh(&text, "zzstep")
            );
            for to in [same_length, longer] {
                let n = round_trip(&path, &text, &prefix, &to);
                assert!(n > 0, "{}: {prefix} matched nothing", path.display());
                renames += 1;
                references_renamed += n;
            }
        }
    }
    eprintln!(
        "corpus rename round trip: {files_checked} files, {renames} renames, {references_renamed} references renamed"
    );
    assert!(files_checked > 0);
}
