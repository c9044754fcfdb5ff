//! The `refs` and `rename` subcommands, run as a user would: output,
//! files written or left alone, exit codes.

mod common;

use std::path::Path;
use std::process::Output;

use common::{TempDir, stderr, stdout};

fn run(dir: &Path, args: &[&str]) -> Output {
    common::hclwright(dir, args, b"")
}

const MAIN: &str = "resource \"aws_instance\" \"web\" {\n  ami  = var.ami\n  name = \"${var.prefix}-web\"\n  tags = { for k, v in var.tags : k => v }\n}\n";
const OUTPUTS: &str = "output \"id\" {\n  value = aws_instance.web.id\n}\n";

#[test]
fn refs_lists_every_reference() {
    let dir = TempDir::new(&[("main.tf", MAIN), ("outputs.tf", OUTPUTS)]);
    let out = run(dir.path(), &["refs"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "./main.tf:2:10: var.ami\n./main.tf:3:13: var.prefix\n./main.tf:4:24: var.tags\n./outputs.tf:2:11: aws_instance.web.id\n"
    );
    let out = run(dir.path(), &["refs", "--locals", "main.tf"]);
    assert!(
        stdout(&out).contains("main.tf:4:35: k (local)\nmain.tf:4:40: v (local)\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn refs_json() {
    let dir = TempDir::new(&[("a.tf", "x = var.m[\"k\"].y[*]\n")]);
    let out = run(dir.path(), &["refs", "--json", "a.tf"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        concat!(
            r#"[{"path": "a.tf", "line": 1, "column": 5, "traversal": "var.m[\"k\"].y[*]", "root": "var", "local": false, "start": 4, "end": 19, "steps": ["#,
            r#"{"kind": "attr", "name": "m", "start": 7, "end": 9, "line": 1, "column": 8}, "#,
            r#"{"kind": "index", "key": "k", "key_type": "string", "start": 9, "end": 14, "line": 1, "column": 10}, "#,
            r#"{"kind": "attr", "name": "y", "start": 14, "end": 16, "line": 1, "column": 15}, "#,
            r#"{"kind": "full_splat", "start": 16, "end": 19, "line": 1, "column": 17}]}]"#,
            "\n"
        )
    );
}

#[test]
fn refs_exit_codes() {
    let dir = TempDir::new(&[
        ("none.tf", "a = 1\n"),
        ("bad.tf", "a = var.x +\n"),
        ("ok.tf", "b = var.y\n"),
    ]);
    let out = run(dir.path(), &["refs", "none.tf"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(dir.path(), &["refs", "bad.tf", "ok.tf"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "ok.tf:1:5: var.y\n");
    assert!(stderr(&out).contains("bad.tf:1:"), "{}", stderr(&out));
}

#[test]
fn refs_reads_standard_input() {
    let out = common::hclwright(Path::new("."), &["refs", "-"], b"a = local.x[0]\n");
    assert_eq!(stdout(&out), "<stdin>:1:5: local.x[0]\n");
}

#[test]
fn rename_prints_a_diff_without_writing() {
    let dir = TempDir::new(&[("main.tf", MAIN)]);
    let out = run(
        dir.path(),
        &["rename", "var.ami", "var.image_id", "main.tf"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "--- a/main.tf\n+++ b/main.tf\n@@ -1,5 +1,5 @@\n resource \"aws_instance\" \"web\" {\n-  ami  = var.ami\n+  ami  = var.image_id\n   name = \"${var.prefix}-web\"\n   tags = { for k, v in var.tags : k => v }\n }\n"
    );
    assert!(
        stderr(&out).contains("would rename `var.ami` -> `var.image_id`: 1 reference in 1 file")
    );
    assert_eq!(dir.read("main.tf"), MAIN);
}

#[test]
fn rename_writes_with_w() {
    let dir = TempDir::new(&[("main.tf", MAIN), ("sub/x.tf", "y = var.tags\n")]);
    let out = run(dir.path(), &["rename", "-w", "var.tags", "local.tags"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "./main.tf\n./sub/x.tf\n");
    assert_eq!(dir.read("main.tf"), MAIN.replace("var.tags", "local.tags"));
    assert_eq!(dir.read("sub/x.tf"), "y = local.tags\n");
}

#[test]
fn rename_nothing_matched_and_errors() {
    let dir = TempDir::new(&[("main.tf", MAIN), ("bad.tf", "z = var.ami +\n")]);
    let out = run(
        dir.path(),
        &["rename", "-w", "var.nope", "var.x", "main.tf"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(dir.read("main.tf"), MAIN);

    // The file with a syntax error is reported and left alone; the others
    // are renamed.
    let out = run(dir.path(), &["rename", "-w", "var.ami", "var.image"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.tf: not renamed because of syntax errors"));
    assert_eq!(dir.read("bad.tf"), "z = var.ami +\n");
    assert_eq!(dir.read("main.tf"), MAIN.replace("var.ami", "var.image"));

    let out = run(dir.path(), &["rename", "var.a[*]", "var.b", "main.tf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("as many `[*]`"));
}

#[test]
fn terraform_rename_with_moved_block() {
    let dir = TempDir::new(&[
        ("main.tf", MAIN),
        ("outputs.tf", OUTPUTS),
        ("modules/child/main.tf", "value = aws_instance.web.id\n"),
    ]);
    let out = run(
        dir.path(),
        &[
            "rename",
            "-w",
            "--terraform",
            "--moved",
            "aws_instance.web",
            "app",
            ".",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        dir.read("main.tf"),
        MAIN.replace("\"web\"", "\"app\"")
            + "\nmoved {\n  from = aws_instance.web\n  to   = aws_instance.app\n}\n"
    );
    assert_eq!(
        dir.read("outputs.tf"),
        OUTPUTS.replace("aws_instance.web", "aws_instance.app")
    );
    // A module is one directory: a child module is not renamed.
    assert_eq!(
        dir.read("modules/child/main.tf"),
        "value = aws_instance.web.id\n"
    );

    let out = run(dir.path(), &["rename", "--terraform", "variable.ami", "1x"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(dir.path(), &["rename", "--terraform", "variable.nope", "x"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bad_usage_exits_two_not_one() {
    // 1 means "nothing matched" for these commands.
    let dir = TempDir::new(&[("main.tf", MAIN)]);
    assert_eq!(
        run(dir.path(), &["refs", "--no-such-flag"]).status.code(),
        Some(2)
    );
    assert_eq!(run(dir.path(), &["rename", "var.a"]).status.code(), Some(2));
}

/// The diffs `rename` prints for a folder (`.`, `./sub`, an absolute
/// path) have `a/PATH` and `b/PATH` headers that `git apply` takes.
#[test]
fn rename_diffs_apply_with_git() {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("note: git is not installed; skipping the git apply check");
        return;
    }
    let dir = TempDir::new(&[
        ("main.tf", "a = var.foo\n"),
        ("modules/app/x.tf", "b = var.foo # here\n"),
    ]);
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    assert!(git(&["init", "-q"]).status.success());
    let absolute = dir.path().display().to_string();
    for target in [".", "./", "./modules/../", absolute.as_str()] {
        let o = common::hclwright(dir.path(), &["rename", "var.foo", "var.bar", target], b"");
        let diff = stdout(&o);
        assert!(
            diff.contains("--- a/main.tf\n+++ b/main.tf\n"),
            "{target}: {diff}"
        );
        assert!(
            diff.contains("--- a/modules/app/x.tf\n+++ b/modules/app/x.tf\n"),
            "{target}: {diff}"
        );
        std::fs::write(dir.path().join("p.diff"), &diff).unwrap();
        let check = git(&["apply", "--check", "p.diff"]);
        assert!(check.status.success(), "{target}: {}", stderr(&check));
    }
    let check = git(&["apply", "p.diff"]);
    assert!(check.status.success(), "{}", stderr(&check));
    assert_eq!(dir.read("modules/app/x.tf"), "b = var.bar # here\n");
}

/// `refs TARGET [PATH...]` and `refs --target TARGET` list only the
/// references that start with TARGET (the `rename` pattern syntax).
#[test]
fn refs_filtered_by_a_target() {
    let dir = TempDir::new(&[(
        "r.tf",
        "a = var.region\nb = var.regions[0]\nc = var.region.x\nd = local.region\ne = [for v in var.region : v]\n",
    )]);
    let o = common::hclwright(dir.path(), &["refs", "var.region", "r.tf"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "r.tf:1:5: var.region\nr.tf:3:5: var.region.x\nr.tf:5:15: var.region\n"
    );
    // The folder by default, and the option form.
    let o = common::hclwright(dir.path(), &["refs", "var.region"], b"");
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    let o = common::hclwright(dir.path(), &["refs", "-t", "local", "--json", "."], b"");
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1);
    assert_eq!(json[0]["traversal"], "local.region");
    // Nothing matches: exit 1.
    let o = common::hclwright(dir.path(), &["refs", "var.nope", "r.tf"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
}

/// `rename --terraform ... MODULE_DIR --callers DIR`: the module folder is
/// renamed, and so are the arguments (variables) or `module.CALL.NAME`
/// references (outputs) of the `module` blocks under DIR that call it by a
/// relative path; other modules' blocks and remote sources are left alone,
/// an unresolvable local source is a warning.
#[test]
fn terraform_rename_across_module_callers() {
    let files = [
        (
            "modules/app/main.tf",
            "variable \"size\" {\n  type = number\n}\n\noutput \"ip\" {\n  value = var.size\n}\n",
        ),
        (
            "main.tf",
            "module \"app\" {\n  source = \"./modules/app\"\n  size   = 2\n}\n\nmodule \"missing\" {\n  source = \"./modules/missing\"\n  size   = 1\n}\n\nmodule \"reg\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n  size   = 1\n}\n\noutput \"x\" {\n  value = module.app.ip\n}\n",
        ),
        (
            "env/prod/main.tf",
            "module \"app2\" {\n  source = \"../../modules/app\"\n  size   = 3\n}\n\nvariable \"size\" {}\n\nlocals {\n  s = var.size\n}\n",
        ),
    ];
    let dir = TempDir::new(&files);
    let o = common::hclwright(
        dir.path(),
        &[
            "rename",
            "-w",
            "--terraform",
            "var.size",
            "instance_size",
            "modules/app",
            "--callers",
            ".",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("caller: ./main.tf (module \"app\")"), "{err}");
    assert!(
        err.contains("caller: ./env/prod/main.tf (module \"app2\")"),
        "{err}"
    );
    assert!(
        err.contains(
            "warning: ./main.tf:6: module source \"./modules/missing\" cannot be resolved"
        ),
        "{err}"
    );
    assert!(
        dir.read("modules/app/main.tf")
            .contains("variable \"instance_size\" {")
    );
    let main = dir.read("main.tf");
    assert!(
        main.contains("  source        = \"./modules/app\"\n  instance_size = 2\n"),
        "{main}"
    );
    assert!(
        main.contains("  source = \"./modules/missing\"\n  size   = 1\n"),
        "{main}"
    );
    assert!(main.contains("  source = \"terraform-aws-modules/vpc/aws\"\n  size   = 1\n"));
    // The caller's own `var.size` is another variable: untouched.
    let prod = dir.read("env/prod/main.tf");
    assert!(prod.contains("  instance_size = 3\n"), "{prod}");
    assert!(
        prod.contains("variable \"size\" {}") && prod.contains("s = var.size"),
        "{prod}"
    );
    // Every changed file stays in the canonical layout.
    for (name, _) in files {
        let text = dir.read(name);
        assert_eq!(hclwright::format::format(&text), text, "{name}");
    }

    // An output: `module.app.ip` in the caller's folder follows.
    let o = common::hclwright(
        dir.path(),
        &[
            "rename",
            "-w",
            "--terraform",
            "output.ip",
            "address",
            "modules/app",
            "--callers",
            ".",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(dir.read("main.tf").contains("value = module.app.address"));
    assert!(
        dir.read("modules/app/main.tf")
            .contains("output \"address\" {")
    );
}

/// Two module folders given to `rename --terraform` are two modules: only
/// the folder that declares the address is renamed.
#[test]
fn terraform_rename_keeps_modules_apart() {
    let dir = TempDir::new(&[
        (
            "a/main.tf",
            "variable \"x\" {}\n\nlocals {\n  y = var.x\n}\n",
        ),
        ("b/main.tf", "locals {\n  y = var.x\n}\n"),
    ]);
    let o = common::hclwright(
        dir.path(),
        &["rename", "-w", "--terraform", "var.x", "z", "a", "b"],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(dir.read("a/main.tf").contains("y = var.z"));
    assert_eq!(dir.read("b/main.tf"), "locals {\n  y = var.x\n}\n");
}

/// Issue 30: a first argument that looks like a file (`nope.tf`, a typo)
/// and is not there is reported, not taken as a TARGET; `--target` still
/// takes it as one.
#[test]
fn refs_of_a_missing_file_says_so() {
    let dir = TempDir::new(&[("main.tf", MAIN)]);
    let out = run(dir.path(), &["refs", "nope.tf"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "error: nope.tf: no such file or folder (to list the references that start with `nope.tf`, use --target nope.tf)\n"
    );
    let out = run(dir.path(), &["refs", "--target", "nope.tf"]);
    assert_eq!((out.status.code(), stderr(&out).as_str()), (Some(1), ""));
    // A reference is still a TARGET.
    let out = run(dir.path(), &["refs", "var.ami"]);
    assert_eq!(stdout(&out), "./main.tf:2:10: var.ami\n");
}

/// Issue 30: `refs variables.tf` lists no type keywords (`string`, `bool`,
/// `number` from `type = …`), as on terraform-aws-rds.
#[test]
fn refs_leaves_out_type_constraints() {
    let dir = TempDir::new(&[(
        "variables.tf",
        "variable \"name\" {\n  type    = string\n  default = null\n}\n\nvariable \"ports\" {\n  type = map(object({ port = number, tls = optional(bool, true) }))\n}\n\nvariable \"id\" {\n  type    = string\n  default = local.id\n}\n",
    )]);
    let out = run(dir.path(), &["refs", "variables.tf"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "variables.tf:12:13: local.id\n");
}
