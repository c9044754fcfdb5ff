//! `hclwright fmt`, run as a user would: every flag in both spellings,
//! output, files written or left alone, exit codes, and a failing write
//! that must leave the original file intact.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{TempDir, code, stderr, stdout};

fn run(dir: &Path, args: &[&str]) -> Output {
    run_with_stdin(dir, args, "")
}

fn run_with_stdin(dir: &Path, args: &[&str], input: &str) -> Output {
    let args: Vec<&str> = std::iter::once("fmt").chain(args.iter().copied()).collect();
    common::hclwright(dir, &args, input.as_bytes())
}

const MESSY_TF: &str =
    "resource aws_instance \"web\" {\nami=\"${var.ami}\"\n  instance_type = \"t3.micro\"\n}\n";
const CLEAN_TF: &str = "resource \"aws_instance\" \"web\" {\n  ami           = var.ami\n  instance_type = \"t3.micro\"\n}\n";
const MESSY_HCL: &str = "inputs = {\nname=\"${local.name}\"\n}\n";
const CLEAN_HCL: &str = "inputs = {\n  name = \"${local.name}\"\n}\n";
const FORMATTED: &str = "a = 1\n";

fn project() -> TempDir {
    TempDir::new(&[
        ("main.tf", MESSY_TF),
        ("ok.tf", FORMATTED),
        ("terragrunt.hcl", MESSY_HCL),
        ("notes.txt", "a=1\n"),
    ])
}

#[test]
fn default_rewrites_and_lists_changed_files() {
    let dir = project();
    let out = run(dir.path(), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "main.tf\nterragrunt.hcl\n");
    // The terraform profile for .tf, the layout only for other files.
    assert_eq!(dir.read("main.tf"), CLEAN_TF);
    assert_eq!(dir.read("terragrunt.hcl"), CLEAN_HCL);
    assert_eq!(dir.read("ok.tf"), FORMATTED);
    assert_eq!(dir.read("notes.txt"), "a=1\n");
    // No temporary file is left behind.
    assert_eq!(
        dir.names(),
        ["main.tf", "notes.txt", "ok.tf", "terragrunt.hcl"]
    );
    // Nothing left to do.
    let again = run(dir.path(), &["-check"]);
    assert_eq!((code(&again), stdout(&again)), (0, String::new()));
}

#[test]
fn check_lists_writes_nothing_and_exits_3() {
    for flag in ["-check", "--check", "-check=true", "--check=1"] {
        let dir = project();
        let out = run(dir.path(), &[flag]);
        assert_eq!(code(&out), 3, "{flag}");
        assert_eq!(stdout(&out), "main.tf\nterragrunt.hcl\n", "{flag}");
        assert_eq!(dir.read("main.tf"), MESSY_TF, "{flag}");
    }
    // `-check -list=false`: silent, still exit 3.
    let dir = project();
    let out = run(dir.path(), &["-check", "-list=false"]);
    assert_eq!((code(&out), stdout(&out)), (3, String::new()));
    // `-check=false` is the default behaviour.
    let out = run(dir.path(), &["-check=false"]);
    assert_eq!(code(&out), 0);
    assert_eq!(dir.read("main.tf"), CLEAN_TF);
}

#[test]
fn write_false_only_lists() {
    for flag in ["-write=false", "--write=false"] {
        let dir = project();
        let out = run(dir.path(), &[flag]);
        assert_eq!(code(&out), 0);
        assert_eq!(stdout(&out), "main.tf\nterragrunt.hcl\n");
        assert_eq!(dir.read("main.tf"), MESSY_TF);
    }
}

#[test]
fn list_false_writes_silently() {
    for flag in ["-list=false", "--list=false"] {
        let dir = project();
        let out = run(dir.path(), &[flag]);
        assert_eq!((code(&out), stdout(&out)), (0, String::new()));
        assert_eq!(dir.read("main.tf"), CLEAN_TF);
    }
}

#[test]
fn neither_list_nor_write_prints_the_result() {
    let dir = project();
    let out = run(
        dir.path(),
        &["-list=false", "-write=false", "main.tf", "ok.tf"],
    );
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), format!("{CLEAN_TF}{FORMATTED}"));
    assert_eq!(dir.read("main.tf"), MESSY_TF);
}

#[test]
fn diff_prints_a_unified_diff() {
    for flag in ["-diff", "--diff"] {
        let dir = project();
        let out = run(
            dir.path(),
            &[flag, "-write=false", "-list=false", "main.tf"],
        );
        assert_eq!(code(&out), 0);
        let diff = stdout(&out);
        assert!(
            diff.starts_with("--- old/main.tf\n+++ new/main.tf\n"),
            "{diff}"
        );
        assert!(diff.contains("-ami=\"${var.ami}\"\n"), "{diff}");
        assert!(diff.contains("+  ami           = var.ami\n"), "{diff}");
        assert_eq!(dir.read("main.tf"), MESSY_TF);
    }
    // With -check: names and diffs, exit 3, nothing written.
    let dir = project();
    let out = run(dir.path(), &["-check", "-diff"]);
    assert_eq!(code(&out), 3);
    let text = stdout(&out);
    assert!(text.starts_with("main.tf\n--- old/main.tf\n"), "{text}");
    assert!(
        text.contains("terragrunt.hcl\n--- old/terragrunt.hcl\n"),
        "{text}"
    );
    assert_eq!(dir.read("main.tf"), MESSY_TF);
}

#[test]
fn recursive_walks_subfolders_but_not_hidden_ones() {
    let files = [
        ("main.tf", MESSY_TF),
        ("modules/vpc/main.tf", MESSY_TF),
        ("modules/vpc/vars.tfvars", "a=1\n"),
        ("tests/a.tftest.hcl", "run \"x\" {\ncommand=plan\n}\n"),
        ("packer/b.pkr.hcl", "a=1\n"),
        ("jobs/c.nomad", "a=1\n"),
        (".terraform/modules/x/main.tf", MESSY_TF),
        (".hidden/main.tf", MESSY_TF),
        ("modules/vpc/data.json", "{\"a\":1}\n"),
    ];
    let dir = TempDir::new(&files);
    let out = run(dir.path(), &["-check"]);
    assert_eq!((code(&out), stdout(&out)), (3, "main.tf\n".to_string()));
    for flag in ["-recursive", "--recursive"] {
        let out = run(dir.path(), &["-check", flag]);
        assert_eq!(code(&out), 3);
        assert_eq!(
            stdout(&out),
            "main.tf\njobs/c.nomad\nmodules/vpc/main.tf\nmodules/vpc/vars.tfvars\npacker/b.pkr.hcl\ntests/a.tftest.hcl\n",
            "{flag}"
        );
    }
    let out = run(dir.path(), &["-recursive"]);
    assert_eq!(code(&out), 0);
    assert_eq!(dir.read("modules/vpc/main.tf"), CLEAN_TF);
    assert_eq!(dir.read(".terraform/modules/x/main.tf"), MESSY_TF);
    assert_eq!(dir.read(".hidden/main.tf"), MESSY_TF);
    assert_eq!(dir.read("modules/vpc/data.json"), "{\"a\":1}\n");
}

#[test]
fn paths_can_be_files_and_folders() {
    let dir = TempDir::new(&[
        ("a/main.tf", MESSY_TF),
        ("b/x.hcl", "a=1\n"),
        ("c.tf", MESSY_TF),
    ]);
    let out = run(dir.path(), &["-check", "a", "b/x.hcl"]);
    assert_eq!(code(&out), 3);
    assert_eq!(stdout(&out), "a/main.tf\nb/x.hcl\n");
}

#[test]
fn stdin_goes_to_stdout() {
    let dir = TempDir::new(&[]);
    let out = run_with_stdin(dir.path(), &["-"], "a=\"${b}\"\n");
    // Standard input gets the hclfmt profile under `auto`.
    assert_eq!(
        (code(&out), stdout(&out)),
        (0, "a = \"${b}\"\n".to_string())
    );
    let out = run_with_stdin(dir.path(), &["--profile", "terraform", "-"], "a=\"${b}\"\n");
    assert_eq!(stdout(&out), "a = b\n");
    let out = run_with_stdin(dir.path(), &["-profile=terraform", "-"], "a=\"${b}\"\n");
    assert_eq!(stdout(&out), "a = b\n");
    // -check on stdin: exit 3, prints nothing.
    let out = run_with_stdin(dir.path(), &["-check", "-"], "a=1\n");
    assert_eq!((code(&out), stdout(&out)), (3, String::new()));
    let out = run_with_stdin(dir.path(), &["-check", "-"], "a = 1\n");
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
    // -diff on stdin.
    let out = run_with_stdin(dir.path(), &["-diff", "-"], "a=1\n");
    assert_eq!(
        stdout(&out),
        "--- old/<stdin>\n+++ new/<stdin>\n@@ -1 +1 @@\n-a=1\n+a = 1\n"
    );
    // CRLF and a missing final newline are kept (hclfmt prints the text
    // as it is).
    let out = run_with_stdin(dir.path(), &["-"], "a=1\r\nb=2");
    assert_eq!(stdout(&out), "a = 1\r\nb = 2");
    // terraform ends what it prints with a newline (checked against
    // `terraform fmt -`: `a = 1\r\nb = 2\n`, and `\n` for no input).
    let out = run_with_stdin(dir.path(), &["-profile=terraform", "-"], "a=1\r\nb=2");
    assert_eq!(stdout(&out), "a = 1\r\nb = 2\n");
    let out = run_with_stdin(dir.path(), &["-profile=terraform", "-"], "");
    assert_eq!(stdout(&out), "\n");
    let out = run_with_stdin(dir.path(), &["-profile=terraform", "-"], "a=1\n\n");
    assert_eq!(stdout(&out), "a = 1\n\n");
}

#[test]
fn printed_terraform_files_end_with_a_newline_but_are_written_as_they_are() {
    // As `terraform fmt -write=false -list=false a.tf a.tf` prints
    // `a = 1\na = 1\n`; in place the file keeps its last line as it is.
    let dir = TempDir::new(&[("a.tf", "a=1")]);
    let out = run(dir.path(), &["-write=false", "-list=false", "a.tf", "a.tf"]);
    assert_eq!(
        (code(&out), stdout(&out)),
        (0, "a = 1\na = 1\n".to_string())
    );
    let out = run(dir.path(), &["a.tf"]);
    assert_eq!((code(&out), stdout(&out)), (0, "a.tf\n".to_string()));
    assert_eq!(dir.read("a.tf"), "a = 1");
}

#[test]
fn profiles_can_be_forced() {
    let dir = TempDir::new(&[("main.tf", "a=\"${b}\"\n"), ("x.hcl", "a=\"${b}\"\n")]);
    let out = run(dir.path(), &["--profile", "hclfmt"]);
    assert_eq!(code(&out), 0);
    assert_eq!(dir.read("main.tf"), "a = \"${b}\"\n");
    let out = run(dir.path(), &["--profile=terraform"]);
    assert_eq!(code(&out), 0);
    assert_eq!(dir.read("main.tf"), "a = b\n");
    // A walk with the terraform profile takes terraform's files only; a
    // file named on the command line is formatted with it.
    assert_eq!(dir.read("x.hcl"), "a = \"${b}\"\n");
    let out = run(dir.path(), &["--profile=terraform", "x.hcl"]);
    assert_eq!(code(&out), 0);
    assert_eq!(dir.read("x.hcl"), "a = b\n");
}

#[test]
fn syntax_errors_are_reported_and_the_file_left_alone() {
    let broken = "a = \nb=2\n";
    let dir = TempDir::new(&[("bad.tf", broken), ("main.tf", MESSY_TF), ("x.hcl", broken)]);
    let out = run(dir.path(), &[]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("bad.tf:1:5: "), "{err}");
    // Reported for the hclfmt profile too (the layout alone would accept it).
    assert!(err.contains("x.hcl:1:5: "), "{err}");
    assert_eq!(dir.read("bad.tf"), broken);
    assert_eq!(dir.read("x.hcl"), broken);
    // The other files are still processed.
    assert_eq!(stdout(&out), "main.tf\n");
    assert_eq!(dir.read("main.tf"), CLEAN_TF);
    // Errors win over -check's 3.
    let dir = TempDir::new(&[("bad.tf", broken), ("main.tf", MESSY_TF)]);
    assert_eq!(code(&run(dir.path(), &["-check"])), 2);
    // And on stdin.
    let out = run_with_stdin(dir.path(), &["-"], broken);
    assert_eq!((code(&out), stdout(&out)), (2, String::new()));
    assert!(stderr(&out).contains("<stdin>:1:5: "), "{}", stderr(&out));
}

#[test]
fn io_errors_exit_2() {
    let dir = TempDir::new(&[("main.tf", MESSY_TF)]);
    let out = run(dir.path(), &["missing.tf", "main.tf"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("missing.tf"), "{}", stderr(&out));
    assert_eq!(dir.read("main.tf"), CLEAN_TF);
    let dir = TempDir::new(&[]);
    std::fs::write(dir.path().join("latin1.tf"), b"a = \"\xe9\"\n").unwrap();
    let out = run(dir.path(), &["latin1.tf"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("latin1.tf:1:6: invalid UTF-8"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn usage_errors_exit_1() {
    let dir = TempDir::new(&[]);
    for args in [&["--bogus"][..], &["-profile=nope"], &["--check=maybe"]] {
        let out = run(dir.path(), args);
        assert_eq!(code(&out), 1, "{args:?}");
        assert!(stdout(&out).is_empty());
    }
    // `-no-color` is accepted for terraform compatibility.
    assert_eq!(code(&run(dir.path(), &["-no-color"])), 0);
}

#[cfg(unix)]
#[test]
fn writes_keep_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new(&[("main.tf", MESSY_TF)]);
    let file = dir.path().join("main.tf");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(code(&run(dir.path(), &[])), 0);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(dir.read("main.tf"), CLEAN_TF);
}

/// Runs `fmt` under a file size limit of 512 bytes (`ulimit -f 1`), so that
/// writing the formatted file fails half-way. With `ignore_signal`, the
/// write gets an error (EFBIG); without, the process is killed (SIGXFSZ),
/// like a crash in the middle of a write.
#[cfg(unix)]
fn run_with_file_size_limit(dir: &Path, ignore_signal: bool) -> Output {
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    let script = format!("{trap}ulimit -f 1; exec \"$0\" fmt main.tf");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_hclwright"))
        .current_dir(dir)
        .output()
        .unwrap()
}

/// A file whose formatted form is larger than the 512-byte limit.
#[cfg(unix)]
fn big_messy_file() -> String {
    (0..60)
        .map(|i| format!("attribute_{i}=\"value\"\n"))
        .collect()
}

#[cfg(unix)]
#[test]
fn a_failed_write_leaves_the_original_intact() {
    let original = big_messy_file();
    let dir = TempDir::new(&[("main.tf", &original)]);
    let out = run_with_file_size_limit(dir.path(), true);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("main.tf: cannot write"),
        "{}",
        stderr(&out)
    );
    assert_eq!(dir.read("main.tf"), original);
    // The temporary file was removed.
    assert_eq!(dir.names(), ["main.tf"]);
}

#[cfg(unix)]
#[test]
fn a_crash_during_the_write_leaves_the_original_intact() {
    use std::os::unix::process::ExitStatusExt;
    let original = big_messy_file();
    let dir = TempDir::new(&[("main.tf", &original)]);
    let out = run_with_file_size_limit(dir.path(), false);
    // Killed by SIGXFSZ in the middle of writing the temporary file.
    assert_eq!(out.status.signal(), Some(25), "{:?}", out.status);
    assert_eq!(dir.read("main.tf"), original);
}

#[test]
fn a_nested_tree_is_listed_in_serial_walk_order() {
    let (dir, expected) = common::nested_tree(3, "a=1\n");
    let out = run(dir.path(), &["-list", "-check", "-recursive"]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), expected);
    // Without -recursive, the top folder only.
    let out = run(dir.path(), &["-check"]);
    assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), expected[..4]);
}

#[test]
fn standard_input_files_and_folders_keep_the_argument_order() {
    let dir = TempDir::new(&[
        ("a.tf", "a=1\n"),
        ("b.tf", "b=1\n"),
        ("dir/x.tf", "x=1\n"),
        ("dir/sub/y.tf", "y=1\n"),
    ]);
    let out = run_with_stdin(
        dir.path(),
        &["-write=false", "-recursive", "b.tf", "-", "dir", "a.tf"],
        "s=1\n",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Standard input is not listed; its formatted text is printed.
    assert_eq!(stdout(&out), "b.tf\ns = 1\ndir/x.tf\ndir/sub/y.tf\na.tf\n");
}

#[test]
fn walk_errors_come_first_in_walk_order() {
    let dir = TempDir::new(&[("dir/x.tf", "x=1\n")]);
    let out = run(dir.path(), &["-check", "no1", "dir", "no2.tf"]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with("no1: "), "{err}");
    assert!(lines[1].starts_with("no2.tf: "), "{err}");
    assert_eq!(stdout(&out), "dir/x.tf\n");
}

#[cfg(unix)]
#[test]
fn unreadable_folders_are_reported_and_the_rest_processed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new(&[
        ("a/x.tf", "x=1\n"),
        ("b/y.tf", "y=1\n"),
        ("c/d/z.tf", "z=1\n"),
        ("c/e.tf", "e=1\n"),
        ("f.tf", "f=1\n"),
    ]);
    let locked = [dir.path().join("b"), dir.path().join("c/d")];
    let set_mode = |mode| {
        for d in &locked {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    };
    set_mode(0o000);
    if std::fs::read_dir(&locked[0]).is_ok() {
        set_mode(0o755);
        eprintln!("note: permissions are not enforced (running as root?); skipping");
        return;
    }
    let out = run(dir.path(), &["-check", "-recursive"]);
    set_mode(0o755);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "f.tf\na/x.tf\nc/e.tf\n");
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with("./b: "), "{err}");
    assert!(lines[1].starts_with("./c/d: "), "{err}");
}

#[test]
fn bytes_that_are_not_utf8_in_comments_are_kept_and_counted_as_upstream() {
    // Each byte that is not UTF-8 is one column, as upstream counts it:
    // the expected text is what `terraform fmt` writes for this input.
    let input: &[u8] = b"/*\xe9\xe9*/ a = 1\nbbbbbbb = 2\nc = 3 /*\xc3*/ # x\ndd = 4 # y\n";
    let expected: &[u8] =
        b"/*\xe9\xe9*/ a = 1\nbbbbbbb  = 2\nc        = 3 /*\xc3*/ # x\ndd       = 4       # y\n";
    let dir = TempDir::new(&[]);
    std::fs::write(dir.path().join("latin1.tf"), input).unwrap();
    let out = run(dir.path(), &["latin1.tf"]);
    assert_eq!((code(&out), stdout(&out)), (0, "latin1.tf\n".to_string()));
    assert_eq!(
        std::fs::read(dir.path().join("latin1.tf")).unwrap(),
        expected
    );
    // Standard input and diffs carry the same bytes.
    let args = ["fmt", "--profile", "terraform", "-"];
    let out = common::hclwright(dir.path(), &args, input);
    assert_eq!(out.stdout, expected);
    std::fs::write(dir.path().join("again.tf"), input).unwrap();
    let out = run(dir.path(), &["--diff", "--write=false", "again.tf"]);
    let diff = out.stdout;
    assert!(
        diff.windows(14).any(|w| w == b"+bbbbbbb  = 2\n"),
        "{}",
        String::from_utf8_lossy(&diff)
    );
    assert!(diff.windows(8).any(|w| w == b"/*\xe9\xe9*/ a"));
    assert_eq!(std::fs::read(dir.path().join("again.tf")).unwrap(), input);
    let out = run(dir.path(), &["--check", "latin1.tf"]);
    assert_eq!(code(&out), 0);
}

/// `fmt --stdin-filename NAME -`: standard input is formatted as the file
/// NAME would be (the terraform profile for `.tf`), and NAME is shown in
/// diffs and errors; without it, standard input gets the hclfmt layout
/// unless the tool runs under the name `terraform`.
#[test]
fn stdin_filename_picks_the_profile() {
    let dir = project();
    let legacy = "variable \"v\" {\n  type = \"list\"\n}\n";
    let out = run_with_stdin(dir.path(), &["--stdin-filename", "main.tf", "-"], legacy);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "variable \"v\" {\n  type = list(string)\n}\n");
    // Terraform's single-dash spelling, and a name that is not Terraform's.
    let out = run_with_stdin(dir.path(), &["-stdin-filename=main.tf", "-"], legacy);
    assert_eq!(stdout(&out), "variable \"v\" {\n  type = list(string)\n}\n");
    let out = run_with_stdin(dir.path(), &["--stdin-filename", "job.hcl", "-"], legacy);
    assert_eq!(stdout(&out), legacy);
    let out = run_with_stdin(dir.path(), &["-"], legacy);
    assert_eq!(stdout(&out), legacy);
    // The name in diffs and errors.
    let out = run_with_stdin(
        dir.path(),
        &["-diff", "-stdin-filename=./m/x.tf", "-"],
        "a=1\n",
    );
    assert!(
        stdout(&out).starts_with("--- old/m/x.tf\n+++ new/m/x.tf\n"),
        "{}",
        stdout(&out)
    );
    let out = run_with_stdin(dir.path(), &["--stdin-filename", "main.tf", "-"], "a = \n");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("main.tf:1:5: "),
        "{}",
        stderr(&out)
    );
}

/// Run under the name `terraform` (a link editors call as `terraform fmt
/// -`), standard input gets the terraform profile.
#[cfg(unix)]
#[test]
fn stdin_as_terraform_when_invoked_as_terraform() {
    let dir = project();
    let link = dir.path().join("terraform");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hclwright"), &link).unwrap();
    let mut child = Command::new(&link)
        .args(["fmt", "-"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"variable \"v\" {\n  type = \"list\"\n}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(stdout(&out), "variable \"v\" {\n  type = list(string)\n}\n");
}

/// `fmt --expr` formats one expression or template; `fmt --lenient`
/// formats text with syntax errors (reported on standard error, exit 0).
#[test]
fn expr_and_lenient() {
    let dir = project();
    for (input, want) in [
        ("( a+2 )", "(a + 2)"),
        ("foo(1, -2,a*b, b,c)", "foo(1, -2, a * b, b, c)"),
        ("! true", "!true"),
        ("a?b:c", "a ? b : c"),
        ("[ [ ] ]", "[[]]"),
        ("\n[[\n[\na\n]\n]]\n", "\n[[\n  [\n    a\n  ]\n]]\n"),
        (
            "\"%{if true}${var.foo}%{endif}\"",
            "\"%{if true}${var.foo}%{endif}\"",
        ),
    ] {
        let out = run_with_stdin(dir.path(), &["--expr", "-"], input);
        assert_eq!(
            (code(&out), stdout(&out)),
            (0, want.to_string()),
            "{input:?}: {}",
            stderr(&out)
        );
    }
    // Not one expression: refused with a position.
    let out = run_with_stdin(dir.path(), &["--expr", "-"], "a = 1\n");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("<stdin>:1:3: "),
        "{}",
        stderr(&out)
    );
    // Without --lenient a broken file is refused; with it, formatted.
    let out = run_with_stdin(dir.path(), &["-"], "attr = provider::+example()\n");
    assert_eq!(code(&out), 2);
    let out = run_with_stdin(
        dir.path(),
        &["--lenient", "-"],
        "attr = provider::+example()\n",
    );
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "attr = provider:: + example()\n");
    assert!(stderr(&out).contains("<stdin>:1:"), "{}", stderr(&out));
    // A file: written with --lenient, the errors reported.
    std::fs::write(dir.path().join("broken.tf"), "a=1\nb = [1,2\n").unwrap();
    let out = run(dir.path(), &["--lenient", "broken.tf"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("broken.tf:"), "{}", stderr(&out));
    assert_eq!(dir.read("broken.tf"), "a = 1\nb = [1, 2\n");
}

/// With `--profile terraform`, a directory walk takes the files
/// `terraform fmt` takes (`.tf`, `.tfvars`, `.tftest.hcl`, `.tfmock.hcl`):
/// a broken `.hcl` or `.nomad` file beside them is not read, and the exit
/// status is terraform's. A file named on the command line is formatted.
#[test]
fn terraform_profile_walks_terraform_files() {
    let dir = TempDir::new(&[
        ("a.tf", "a=1\n"),
        ("b.tfvars", "a=1\n"),
        ("c.tftest.hcl", "a=1\n"),
        ("d.tfmock.hcl", "a=1\n"),
        ("e.hcl", "a=1\n"),
        ("f.nomad", "a=1\n"),
        ("sub/broken.hcl", "a = \n"),
        ("sub/g.tf", "a = 1\n"),
    ]);
    let out = run(
        dir.path(),
        &["-check", "-recursive", "--profile", "terraform", "."],
    );
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert_eq!(stdout(&out), "a.tf\nb.tfvars\nc.tftest.hcl\nd.tfmock.hcl\n");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    let out = run(dir.path(), &["-check", "--profile", "terraform", "e.hcl"]);
    assert_eq!((code(&out), stdout(&out)), (3, "e.hcl\n".to_string()));
    // The default profile walks every HCL file, and reports the broken one.
    let out = run(dir.path(), &["-check", "-recursive", "."]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("broken.hcl:1:5"), "{}", stderr(&out));
}

#[test]
fn json_syntax_files_are_left_alone() {
    let dir = TempDir::new(&[("a.tf", "a=1\n"), ("b.tf.json", "{\"a\":1}\n")]);
    // A walk does not take them.
    let o = run(dir.path(), &["."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(dir.read("b.tf.json"), "{\"a\":1}\n");
    assert_eq!(dir.read("a.tf"), "a = 1\n");
    // Named, one is refused with a pointer to what reads it.
    let o = run(dir.path(), &["b.tf.json"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("b.tf.json: a file of the JSON syntax"),
        "{}",
        stderr(&o)
    );
    assert_eq!(dir.read("b.tf.json"), "{\"a\":1}\n");
}
