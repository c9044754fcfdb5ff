//! `hclwright bump` on the fixture trees of `fixtures/bump/`: each case is
//! a folder with `args.txt` (the arguments after `bump`) and `tree/` (the
//! files). The snapshot is the command line, the exit code, and the diff
//! `--diff` prints, so every byte the bump changes shows. Then the bump is
//! written, and the written tree must be exactly the diff applied: a
//! second `--check` finds nothing due.

mod common;

use std::path::{Path, PathBuf};

fn files_under(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Words separated by spaces; `'…'` keeps spaces inside one word.
fn split_args(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.trim().chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[test]
fn bump_fixture_trees() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("fixtures/bump")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let args_text = std::fs::read_to_string(case.join("args.txt")).unwrap();
        let owned = split_args(&args_text);
        let args: Vec<&str> = owned.iter().map(String::as_str).collect();
        let files = files_under(&case.join("tree"));
        let pairs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let dir = common::TempDir::new(&pairs);

        let mut diff_args = vec!["bump"];
        diff_args.extend(&args);
        diff_args.push("--diff");
        let shown = common::hclwright(dir.path(), &diff_args, b"");
        let report = format!(
            "hclwright bump {args_text}exit {}\n{}{}",
            common::code(&shown),
            common::stdout(&shown),
            common::stderr(&shown)
        );
        insta::assert_snapshot!(format!("bump_{name}"), report);
        // --diff wrote nothing.
        assert_eq!(
            files_under(dir.path()),
            files,
            "{name}: --diff changed files"
        );

        // Written, the tree is the diff applied: nothing left to do.
        let mut write_args = vec!["bump"];
        write_args.extend(&args);
        let written = common::hclwright(dir.path(), &write_args, b"");
        assert_eq!(
            common::code(&written),
            0,
            "{name}: {}",
            common::stderr(&written)
        );
        let mut check_args = write_args.clone();
        check_args.push("--check");
        let again = common::hclwright(dir.path(), &check_args, b"");
        assert_eq!(
            (common::code(&again), common::stdout(&again)),
            (0, String::new()),
            "{name}"
        );
        let changed: Vec<String> = files_under(dir.path())
            .iter()
            .zip(&files)
            .filter(|(a, b)| a != b)
            .map(|(a, _)| a.0.clone())
            .collect();
        // Line endings and line counts are kept (CRLF files stay CRLF).
        for ((path, new), (_, old)) in files_under(dir.path()).iter().zip(&files) {
            assert_eq!(
                new.matches("\r\n").count(),
                old.matches("\r\n").count(),
                "{name}: {path}"
            );
            assert_eq!(new.lines().count(), old.lines().count(), "{name}: {path}");
        }
        let listed = common::stdout(&shown);
        for path in &changed {
            assert!(
                listed.contains(&format!("+++ b/{path}")),
                "{name}: {path} changed without a diff"
            );
        }
    }
}
