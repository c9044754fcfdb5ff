//! `hclwright check` and `hclwright dump`: output format, directory walking,
//! standard input and exit codes.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::stderr;

fn hclwright(args: &[&str], dir: &Path, stdin: Option<&[u8]>) -> Output {
    common::hclwright(dir, args, stdin.unwrap_or_default())
}

/// A fresh directory that lives as long as the test process (so the paths
/// in messages stay short and relative).
fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hclwright-cli-check-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The files named in `check`'s error lines, in order.
fn files_with_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains(": expected"))
        .map(|l| l.split(':').next().unwrap())
        .collect()
}

#[test]
fn clean_tree_exits_zero_and_prints_nothing() {
    let dir = temp_dir("clean");
    fs::write(dir.join("main.tf"), "a = 1\n").unwrap();
    fs::create_dir_all(dir.join("sub")).unwrap();
    fs::write(dir.join("sub/job.nomad"), "job \"x\" {\n}\n").unwrap();
    let o = hclwright(&["check"], &dir, None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

#[test]
fn errors_name_file_line_column_with_source_and_caret() {
    let dir = temp_dir("errors");
    fs::write(dir.join("main.tf"), "a = 1\nb = [1 2]\n").unwrap();
    let o = hclwright(&["check", "main.tf"], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "main.tf:2:8: expected `,` or `]` after the element, found number `2`\n  b = [1 2]\n         ^\n"
    );
}

#[test]
fn walks_hcl_extensions_and_skips_hidden_and_terraform_dirs() {
    let dir = temp_dir("walk");
    for (path, text) in [
        ("a.tf", "bad =\n"),
        ("b.tfvars", "bad =\n"),
        ("c.hcl", "bad =\n"),
        ("d.nomad", "bad =\n"),
        ("e.txt", "bad =\n"),
        (".hidden/f.tf", "bad =\n"),
        (".terraform/modules/g.tf", "bad =\n"),
        ("nested/h.pkr.hcl", "bad =\n"),
    ] {
        let p = dir.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    let o = hclwright(&["check", "."], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let files = files_with_errors(&err);
    assert_eq!(
        files,
        [
            "./a.tf",
            "./b.tfvars",
            "./c.hcl",
            "./d.nomad",
            "./nested/h.pkr.hcl"
        ]
    );
}

#[test]
fn reads_standard_input() {
    let dir = temp_dir("stdin");
    let o = hclwright(&["check", "-"], &dir, Some(b"x = 1\n"));
    assert_eq!(o.status.code(), Some(0));
    let o = hclwright(&["check", "-"], &dir, Some(b"x = \n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("<stdin>:1:5: expected an expression"));
}

#[test]
fn invalid_utf8_and_missing_files_are_errors() {
    let dir = temp_dir("utf8");
    fs::write(dir.join("bad.tf"), b"a = \"ok\"\nb = \"\xff\"\n").unwrap();
    let o = hclwright(&["check", "bad.tf", "missing.tf"], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("bad.tf:2:6: invalid UTF-8 at byte offset 14"),
        "{err}"
    );
    assert!(err.contains("missing.tf: "), "{err}");
}

#[test]
fn dump_prints_the_tree() {
    let dir = temp_dir("dump");
    fs::write(dir.join("main.tf"), "a = 1\n").unwrap();
    let o = hclwright(&["dump", "main.tf"], &dir, None);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("CONFIG_FILE@0..6\n  BODY@0..6\n    ATTRIBUTE@0..6\n"),
        "{out}"
    );
    assert!(out.contains("NUMBER@4..5 \"1\""));
}

#[test]
fn usage_errors_exit_one() {
    let dir = temp_dir("usage");
    let o = hclwright(&["check", "--no-such-flag"], &dir, None);
    assert_eq!(o.status.code(), Some(1));
    let o = hclwright(&["no-such-command"], &dir, None);
    assert_eq!(o.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn symbolic_links_to_directories_are_not_followed() {
    let dir = temp_dir("symlink");
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("a/main.tf"), "bad =\n").unwrap();
    // A loop back up the tree, and a link to a file.
    std::os::unix::fs::symlink("..", dir.join("a/loop")).unwrap();
    std::os::unix::fs::symlink("main.tf", dir.join("a/link.tf")).unwrap();
    let o = hclwright(&["check", "."], &dir, None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let files = files_with_errors(&err);
    assert_eq!(files, ["./a/link.tf", "./a/main.tf"]);
}
