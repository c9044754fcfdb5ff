//! `hclwright check` and `hclwright dump`: output format, directory walking,
//! standard input and exit codes.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{TempDir, stderr, stdout};

fn hclwright(args: &[&str], dir: &Path, stdin: Option<&[u8]>) -> Output {
    common::hclwright(dir, args, stdin.unwrap_or_default())
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
    let dir = TempDir::new(&[
        ("main.tf", "a = 1\n"),
        ("sub/job.nomad", "job \"x\" {\n}\n"),
    ]);
    let o = hclwright(&["check"], dir.path(), None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

#[test]
fn errors_name_file_line_column_with_source_and_caret() {
    let dir = TempDir::new(&[("main.tf", "a = 1\nb = [1 2]\n")]);
    let o = hclwright(&["check", "main.tf"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "main.tf:2:8: expected `,` or `]` after the element, found number `2`\n  b = [1 2]\n         ^\n"
    );
}

#[test]
fn walks_hcl_extensions_and_skips_hidden_and_terraform_dirs() {
    let dir = TempDir::new(&[
        ("a.tf", "bad =\n"),
        ("b.tfvars", "bad =\n"),
        ("c.hcl", "bad =\n"),
        ("d.nomad", "bad =\n"),
        ("e.txt", "bad =\n"),
        (".hidden/f.tf", "bad =\n"),
        (".terraform/modules/g.tf", "bad =\n"),
        ("nested/h.pkr.hcl", "bad =\n"),
    ]);
    let o = hclwright(&["check", "."], dir.path(), None);
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
    let dir = TempDir::new(&[]);
    let o = hclwright(&["check", "-"], dir.path(), Some(b"x = 1\n"));
    assert_eq!(o.status.code(), Some(0));
    let o = hclwright(&["check", "-"], dir.path(), Some(b"x = \n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("<stdin>:1:5: expected an expression"));
}

#[test]
fn invalid_utf8_and_missing_files_are_errors() {
    let dir = TempDir::new(&[]);
    fs::write(dir.path().join("bad.tf"), b"a = \"ok\"\nb = \"\xff\"\n").unwrap();
    let o = hclwright(&["check", "bad.tf", "missing.tf"], dir.path(), None);
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
    let dir = TempDir::new(&[("main.tf", "a = 1\n")]);
    let o = hclwright(&["dump", "main.tf"], dir.path(), None);
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
    let dir = TempDir::new(&[]);
    let o = hclwright(&["check", "--no-such-flag"], dir.path(), None);
    assert_eq!(o.status.code(), Some(1));
    let o = hclwright(&["no-such-command"], dir.path(), None);
    assert_eq!(o.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn symbolic_links_to_directories_are_not_followed() {
    let dir = TempDir::new(&[("a/main.tf", "bad =\n")]);
    // A loop back up the tree, and a link to a file.
    std::os::unix::fs::symlink("..", dir.path().join("a/loop")).unwrap();
    std::os::unix::fs::symlink("main.tf", dir.path().join("a/link.tf")).unwrap();
    let o = hclwright(&["check", "."], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let files = files_with_errors(&err);
    assert_eq!(files, ["./a/link.tf", "./a/main.tf"]);
}

#[test]
fn a_nested_tree_is_reported_in_serial_walk_order() {
    let (dir, expected) = common::nested_tree(3, "bad =\n");
    let o = hclwright(&["check", "."], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    let expected: Vec<String> = expected.iter().map(|f| format!("./{f}")).collect();
    assert_eq!(files_with_errors(&stderr(&o)), expected);
}

#[test]
fn standard_input_files_and_directories_keep_the_argument_order() {
    let dir = TempDir::new(&[
        ("a.tf", "bad =\n"),
        ("b.tf", "bad =\n"),
        ("dir/x.tf", "bad =\n"),
        ("dir/sub/y.tf", "bad =\n"),
    ]);
    let o = hclwright(
        &["check", "b.tf", "-", "dir", "a.tf"],
        dir.path(),
        Some(b"bad =\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        files_with_errors(&stderr(&o)),
        ["b.tf", "<stdin>", "dir/x.tf", "dir/sub/y.tf", "a.tf"]
    );
}

#[test]
fn missing_paths_are_reported_first_in_argument_order() {
    let dir = TempDir::new(&[("dir/x.tf", "bad =\n")]);
    let o = hclwright(&["check", "no1", "dir", "no2.tf"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("no1: "), "{err}");
    assert!(lines[1].starts_with("no2.tf: "), "{err}");
    assert_eq!(files_with_errors(&err), ["dir/x.tf"]);
    // Quiet: nothing printed, same exit code.
    let o = hclwright(&["check", "-q", "no1", "dir"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn entries_of_every_kind_are_sorted_out() {
    let dir = TempDir::new(&[
        ("b.tf", "bad =\n"),
        // A directory with an HCL name is walked, not read.
        ("a.tf/inner.tf", "bad =\n"),
        (".hidden.tf", "bad =\n"),
    ]);
    let link = |target: &str, name: &str| {
        std::os::unix::fs::symlink(target, dir.path().join(name)).unwrap();
    };
    link("b.tf", "c.tf");
    link("a.tf", "d.tf");
    link("missing.tf", "e.tf");
    let o = hclwright(&["check"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(
        files_with_errors(&err),
        ["./b.tf", "./c.tf", "./a.tf/inner.tf"]
    );
    // The dangling link is read like a file, and fails.
    let dangling = err
        .lines()
        .position(|l| l.starts_with("./e.tf: "))
        .expect(&err);
    let inner = err.lines().position(|l| l.starts_with("./a.tf/inner.tf:"));
    assert!(Some(dangling) < inner, "{err}");
}

#[test]
fn bytes_that_are_not_utf8_are_accepted_in_comments_only() {
    // As upstream: a comment in another encoding (Latin-1 here) is fine,
    // the same byte in a string is an error at its position.
    let dir = TempDir::new(&[]);
    fs::write(
        dir.path().join("latin1.tf"),
        b"# Configura\xe7\xe3o\na = 1 // caf\xe9\nb = [1, # \xff\n  2] /* \xc3 */\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("string.tf"),
        b"# caf\xe9\na = \"caf\xe9\"\n",
    )
    .unwrap();
    let o = hclwright(&["check", "latin1.tf"], dir.path(), None);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
    let o = hclwright(&["check", "string.tf"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("string.tf:2:9: invalid UTF-8 at byte offset 15"),
        "{}",
        stderr(&o)
    );
    // A syntax error in such a file shows the byte as `�`.
    let o = hclwright(&["check", "-"], dir.path(), Some(b"a = # caf\xe9\n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("  a = # caf\u{FFFD}\n"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn json_lists_every_problem_with_positions() {
    let dir = TempDir::new(&[("broken.tf", "a = \nb = \"x\n"), ("ok.tf", "a = 1\n")]);
    fs::write(dir.path().join("latin1.tf"), b"# caf\xe9\na = [1 2]\n").unwrap();
    fs::write(dir.path().join("string.tf"), b"a = \"\xe9\"\n").unwrap();
    let o = hclwright(
        &[
            "check",
            "--json",
            "broken.tf",
            "ok.tf",
            "latin1.tf",
            "string.tf",
            "missing.tf",
        ],
        dir.path(),
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "");
    let problems: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let problems = problems.as_array().unwrap();
    let summary: Vec<String> = problems
        .iter()
        .map(|p| {
            format!(
                "{} {}:{}-{}:{} [{}..{}]",
                p["path"].as_str().unwrap(),
                p["line"],
                p["column"],
                p["end_line"],
                p["end_column"],
                p["start"],
                p["end"]
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            // Missing paths first, as the walk reports them.
            "missing.tf null:null-null:null [null..null]",
            "broken.tf 1:5-2:1 [4..5]",
            "broken.tf 2:7-2:7 [11..11]",
            // Byte offsets count the file's bytes: `é` is one byte here.
            "latin1.tf 2:8-2:9 [14..15]",
            "string.tf 1:6-1:7 [5..6]",
        ]
    );
    assert!(
        problems[1]["message"]
            .as_str()
            .unwrap()
            .starts_with("expected an expression after `=`")
    );
    // Clean input: an empty list and exit 0.
    let o = hclwright(&["check", "--json", "ok.tf"], dir.path(), None);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "[]\n".to_string()));
}

#[test]
fn checks_the_json_syntax_by_extension() {
    let dir = TempDir::new(&[
        ("main.tf.json", "{\"locals\": {\"a\": 1}}\n"),
        ("sub/broken.tf.json", "{\n  \"locals\": {\"a\": 1,}\n}\n"),
        ("sub/vars.tfvars.json", "{\"a\": [1 2]}\n"),
        // Other JSON files are not configuration: the walk skips them.
        ("package.json", "{ not json at all"),
    ]);
    let o = hclwright(&["check"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("sub/broken.tf.json:2:21: expected a property after `,`, found `}`"),
        "{err}"
    );
    assert!(
        err.contains("sub/vars.tfvars.json:1:10: expected `,` between the elements"),
        "{err}"
    );
    assert!(
        !err.contains("package.json") && !err.contains("main.tf.json"),
        "{err}"
    );
    // Named on the command line, any .json file is read as JSON.
    let o = hclwright(&["check", "package.json"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("package.json:1:3: expected a property name"),
        "{}",
        stderr(&o)
    );
    let o = hclwright(&["check", "main.tf.json"], dir.path(), None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Issue 30: a JSON configuration whose top level is an array of
/// anything but objects is refused as Terraform refuses it ("Incorrect
/// JSON value type"); an array of objects is a body.
#[test]
fn a_json_body_is_an_object_or_an_array_of_objects() {
    let dir = TempDir::new(&[
        (
            "bad/main.tf.json",
            "[1,2]
",
        ),
        ("good/main.tf.json", "[{\"locals\": {\"a\": 1}}, {}]\n"),
    ]);
    let o = hclwright(&["check", "bad"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "bad/main.tf.json:1:2: Incorrect JSON value type: A JSON object is required here, to define arguments and child blocks.\n  [1,2]\n   ^\nbad/main.tf.json:1:4: Incorrect JSON value type: A JSON object is required here, to define arguments and child blocks.\n  [1,2]\n     ^\n"
    );
    let o = hclwright(&["check", "--json", "bad/main.tf.json"], dir.path(), None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("A JSON object is required here"),
        "{}",
        stdout(&o)
    );
    let o = hclwright(&["check", "good"], dir.path(), None);
    assert_eq!((o.status.code(), stderr(&o).as_str()), (Some(0), ""));
}

/// Issue 30: a reader that closes the pipe early (`hclwright refs . | head
/// -1`) ends every command quietly: no "panicked … Broken pipe", no
/// backtrace; the process ends as `cat` does (SIGPIPE, status 141 in a
/// shell) or exits 0 if it had finished writing.
#[cfg(unix)]
#[test]
fn closed_pipe_ends_every_command_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let big: String = (0..20_000)
        .map(|i| format!("a{i} = var.x{i} # {i}\n"))
        .collect();
    let many: Vec<(String, String)> = (0..1200)
        .map(|i| {
            (
                format!("m{i}/versions.tf"),
                "terraform {\n  required_version = \">= 1.0\"\n}\n".to_string(),
            )
        })
        .chain([("big.tf".to_string(), big)])
        .collect();
    let files: Vec<(&str, &str)> = many.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let dir = TempDir::new(&files);
    let commands: &[&[&str]] = &[
        &["refs", "."],
        &["refs", "big.tf"],
        &["dump", "big.tf"],
        &["fmt", "-"],
        &["bump", "terraform", "1.11.4", "-r", ".", "--json"],
        &["convert", "--to", "json", "big.tf"],
        &["rename", "var.x1", "var.y1", "big.tf"],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hclwright"))
            .args(*args)
            .current_dir(dir.path())
            .stdin(std::fs::File::open(dir.path().join("big.tf")).unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        let mut out = child.stdout.take().unwrap();
        let _ = out.read(&mut first).unwrap();
        drop(out);
        let output = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        let status = output.status;
        // SIGPIPE is 13 on every Unix.
        assert!(
            status.signal() == Some(13) || status.code() == Some(0),
            "{args:?}: {status:?} {err}"
        );
    }
}
