//! Conformance on the real-world corpus: every file formats to its
//! upstream `hclwrite.Format` golden, every `terraform fmt` golden is
//! matched by the terraform profile, formatting a golden changes nothing,
//! and `is_formatted` gives the answer comparing `format_with`'s result
//! with its input gives.
//!
//! Needs `HCLWRIGHT_CORPUS` (CI: `../shared/corpus`); skipped otherwise.

mod common;

use std::path::{Path, PathBuf};

use hclwright::format::is_formatted;
use hclwright::{FormatOptions, format, format_with};

fn corpus() -> Option<PathBuf> {
    common::corpus("the corpus formatting test")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    common::corpus_files(dir)
}

fn read(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Compares `actual` to `expected`; describes the first difference.
fn mismatch(name: &Path, actual: &str, expected: &str) -> Option<String> {
    if actual == expected {
        return None;
    }
    let line = actual
        .split_inclusive('\n')
        .zip(expected.split_inclusive('\n'))
        .position(|(a, e)| a != e)
        .unwrap_or(actual.lines().count().min(expected.lines().count()));
    let got = actual.split_inclusive('\n').nth(line).unwrap_or("<end>");
    let want = expected.split_inclusive('\n').nth(line).unwrap_or("<end>");
    Some(format!(
        "{}:{}:\n  got:  {got:?}\n  want: {want:?}",
        name.display(),
        line + 1
    ))
}

fn report(what: &str, total: usize, failures: &[String]) {
    eprintln!("{what}: {} of {total} match", total - failures.len());
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{what}: {} mismatches", failures.len());
}

#[test]
fn every_corpus_file_formats_to_its_hclfmt_golden() {
    let Some(corpus) = corpus() else { return };
    let golden = corpus.join("../golden/hclfmt");
    let mut failures = Vec::new();
    let mut total = 0;
    for rel in files(&golden) {
        total += 1;
        let text = read(&corpus.join(&rel));
        let expected = read(&golden.join(&rel));
        failures.extend(mismatch(&rel, &format(&text), &expected));
    }
    assert!(total > 0, "no goldens found");
    report("hclfmt goldens", total, &failures);
}

#[test]
fn every_corpus_file_has_an_hclfmt_golden() {
    let Some(corpus) = corpus() else { return };
    let golden = corpus.join("../golden/hclfmt");
    let missing: Vec<_> = files(&corpus)
        .into_iter()
        .filter(|rel| rel != Path::new("INVALID.txt") && !golden.join(rel).is_file())
        .collect();
    assert!(missing.is_empty(), "no golden for {missing:?}");
}

#[test]
fn the_terraform_profile_matches_every_terraform_golden() {
    let Some(corpus) = corpus() else { return };
    let golden = corpus.join("../golden/terraform");
    let options = FormatOptions::terraform();
    let mut failures = Vec::new();
    let mut total = 0;
    for rel in files(&golden) {
        total += 1;
        let text = read(&corpus.join(&rel));
        let expected = read(&golden.join(&rel));
        match format_with(&text, &options) {
            Ok(actual) => failures.extend(mismatch(&rel, &actual, &expected)),
            Err(e) => failures.push(format!("{}: refused: {e}", rel.display())),
        }
    }
    assert!(total > 0, "no goldens found");
    report("terraform goldens", total, &failures);
}

#[test]
fn the_terraform_profile_refuses_the_invalid_files() {
    let Some(corpus) = corpus() else { return };
    let invalid = read(&corpus.join("INVALID.txt"));
    let options = FormatOptions::terraform();
    let mut accepted = Vec::new();
    for rel in invalid.lines().filter(|l| !l.trim().is_empty()) {
        let text = read(&corpus.join(rel));
        if format_with(&text, &options).is_ok() {
            accepted.push(rel.to_string());
        }
    }
    assert!(accepted.is_empty(), "accepted invalid files: {accepted:?}");
}

#[test]
fn formatting_a_golden_changes_nothing() {
    let Some(corpus) = corpus() else { return };
    let mut failures = Vec::new();
    let mut total = 0;
    let hclfmt = corpus.join("../golden/hclfmt");
    for rel in files(&hclfmt) {
        total += 1;
        let text = read(&hclfmt.join(&rel));
        failures.extend(mismatch(&rel, &format(&text), &text));
    }
    let terraform = corpus.join("../golden/terraform");
    let options = FormatOptions::terraform();
    for rel in files(&terraform) {
        total += 1;
        let text = read(&terraform.join(&rel));
        match format_with(&text, &options) {
            Ok(actual) => failures.extend(mismatch(&rel, &actual, &text)),
            Err(e) => failures.push(format!("{}: refused: {e}", rel.display())),
        }
    }
    report("goldens reformatted", total, &failures);
}

#[test]
fn is_formatted_answers_as_format_with_does() {
    let Some(corpus) = corpus() else { return };
    let dirs = [
        corpus.clone(),
        corpus.join("../golden/hclfmt"),
        corpus.join("../golden/terraform"),
    ];
    let profiles = [
        FormatOptions::hclfmt(),
        FormatOptions::hclfmt().refusing_syntax_errors(),
        FormatOptions::terraform(),
    ];
    let (mut failures, mut formatted, mut not, mut refused) = (Vec::new(), 0, 0, 0);
    for dir in &dirs {
        for rel in files(dir)
            .into_iter()
            .filter(|r| r != Path::new("INVALID.txt"))
        {
            let text = read(&dir.join(&rel));
            for options in &profiles {
                let expected = format_with(&text, options).map(|f| f == text);
                let actual = is_formatted(&text, options);
                match &actual {
                    Ok(true) => formatted += 1,
                    Ok(false) => not += 1,
                    Err(_) => refused += 1,
                }
                if actual != expected {
                    failures.push(format!(
                        "{} ({options:?}): {actual:?}, format_with says {expected:?}",
                        dir.join(&rel).display()
                    ));
                }
            }
        }
    }
    eprintln!("{formatted} formatted, {not} not, {refused} refused");
    assert!(formatted > 0 && not > 0 && refused > 0);
    report("is_formatted", formatted + not + refused, &failures);
}
