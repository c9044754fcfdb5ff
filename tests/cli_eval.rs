//! `hclwright eval` as a user runs it.

use std::io::Write;
use std::process::{Command, Stdio};

fn eval(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hclwright"));
    cmd.arg("eval").args(args).env_remove("TF_WORKSPACE");
    for (k, _) in std::env::vars() {
        if k.starts_with("TF_VAR_") {
            cmd.env_remove(k);
        }
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn prints_like_terraform_console() {
    let (code, out, _) = eval(
        &["--dir", "fixtures/eval/console", "tolist([1, \"a\"])"],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(out, "tolist([\n  \"1\",\n  \"a\",\n])\n");
}

#[test]
fn module_variables_and_options_in_order() {
    let dir = "fixtures/eval/modules/inputs";
    let (code, out, err) = eval(
        &[
            "--dir",
            dir,
            "--var",
            "b=first",
            "--var-file",
            "fixtures/eval/modules/inputs/extra.tfvars",
            "--var=a=last",
            "local.a_then_b",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "\"last/from extra.tfvars\"\n");
}

#[test]
fn expression_from_stdin_and_json() {
    let (code, out, _) = eval(
        &["--dir", "fixtures/eval/console", "--json", "-"],
        Some("{b = [1, true], a = null}\n"),
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"value\":{\"a\":null,\"b\":[1,true]},\"type\":[\"object\",{\"a\":\"dynamic\",\"b\":[\"tuple\",[\"number\",\"bool\"]]}]}\n"
    );
}

#[test]
fn errors_are_positioned_and_exit_1() {
    let (code, out, err) = eval(&["--dir", "fixtures/eval/console", "[1, 2][5]"], None);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.starts_with("<expr>:1:7: Invalid index"), "{err}");
    let (code, _, err) = eval(&["--dir", "fixtures/eval/console", "1 +"], None);
    assert_eq!(code, 1);
    assert!(err.contains("<expr>:1:"), "{err}");
}

#[test]
fn references_are_checked_as_terraform_checks_them() {
    let basic = "fixtures/eval/modules/basic";
    let (code, out, err) = eval(&["--dir", basic, "keys(local)"], None);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with(
            "<expr>:1:6: Invalid reference: The \"local\" object cannot be accessed directly."
        ),
        "{err}"
    );
    let (code, _, err) = eval(&["--dir", basic, "var.regon"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("An input variable with the name \"regon\" has not been declared. Did you mean \"region\"?"),
        "{err}"
    );
    // A local with a wrong reference puts the whole module in error, as
    // terraform refuses the configuration.
    let dir = tempdir();
    std::fs::write(
        dir.join("main.tf"),
        "locals {\n  a = 1\n  c = local[\"a\"]\n}\n",
    )
    .unwrap();
    let (code, _, err) = eval(&["--dir", dir.to_str().unwrap(), "local.a"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "main.tf:3:12: Invalid reference: The \"local\" object does not support this operation."
        ),
        "{err}"
    );
}

#[test]
fn a_long_chain_of_locals() {
    // Each local sees the locals it names, not a copy of all before it.
    let dir = tempdir();
    let mut text = String::from("locals {\n  l0 = 0\n");
    for i in 1..2000 {
        text.push_str(&format!("  l{i} = local.l{} + 1\n", i - 1));
    }
    text.push_str("}\n");
    std::fs::write(dir.join("main.tf"), text).unwrap();
    let (code, out, err) = eval(&["--dir", dir.to_str().unwrap(), "local.l1999"], None);
    assert_eq!((code, out.as_str()), (0, "1999\n"), "{err}");
}

#[test]
fn a_broken_local_is_reported_where_it_is() {
    let dir = tempdir();
    std::fs::write(
        dir.join("main.tf"),
        "locals {\n  a = local.b\n  b = local.a\n  c = 1 + \"x\"\n  d = 2\n}\n",
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, _) = eval(&["--dir", d, "local.d"], None);
    assert_eq!((code, out.as_str()), (0, "2\n"));
    let (code, _, err) = eval(&["--dir", d, "local.a"], None);
    assert_eq!(code, 1);
    assert!(err.contains("Cycle: local.a, local.b"), "{err}");
    let (code, _, err) = eval(&["--dir", d, "local.c"], None);
    assert_eq!(code, 1);
    assert!(err.contains("main.tf:4:11: Invalid operand"), "{err}");
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hclwright-eval-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

#[test]
fn console_type_function() {
    let (code, out, _) = eval(
        &[
            "--dir",
            "fixtures/eval/console",
            "type({a = 1, b = [true]})",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "object({\n    a: number,\n    b: tuple([\n        bool,\n    ]),\n})\n"
    );
    let (code, out, _) = eval(
        &[
            "--dir",
            "fixtures/eval/console",
            "type(tomap({a = {b = 1}}))",
        ],
        None,
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "map(\n    object({\n        b: number,\n    }),\n)\n")
    );
    let (code, _, err) = eval(
        &["--dir", "fixtures/eval/console", "type(1) == type(2)"],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("console-only \"type\" function"), "{err}");
}

/// A module of `.tf.json` files: the types terraform console gives
/// (recorded with `echo 'type(...)' | terraform console` in the folder).
#[test]
fn json_modules_give_terraform_types() {
    for (expr, terraform) in [
        ("type(local.sum)", "number\n"),
        ("type(var.sizes)", "map(number)\n"),
        (
            "type(local.object)",
            "object({\n    a: number,\n    b: tuple([\n        bool,\n        bool,\n        dynamic,\n    ]),\n    eu-west-1: string,\n    nested: object({\n        deep: number,\n    }),\n})\n",
        ),
    ] {
        let (code, out, err) = eval(&["--dir", "fixtures/eval/modules/json", expr], None);
        assert_eq!((code, out.as_str()), (0, terraform), "{expr}: {err}");
    }
}

/// Issue 30, as a new user met it on cloudposse's ecs-container-definition:
/// the side a conditional does not choose reports nothing (terraform
/// console prints `1`, `"ok"` and `null`).
#[test]
fn errors_of_the_branch_not_taken_are_dropped() {
    let dir = "fixtures/eval/modules/conditional";
    for (expr, want) in [
        ("true ? 1 : [for x in null : x]", "1\n"),
        ("false ? upper(null) : \"ok\"", "\"ok\"\n"),
        ("true ? \"a\" : null[0]", "\"a\"\n"),
        ("local.json_map", "null\n"),
        ("var.flag ? \"a\" : upper(null)", "(known after apply)\n"),
    ] {
        let (code, out, err) = eval(&["--dir", dir, expr], None);
        assert_eq!((code, out.as_str(), err.as_str()), (0, want, ""), "{expr}");
    }
    // The chosen side's errors are still reported.
    let (code, _, err) = eval(&["--dir", dir, "true ? upper(null) : \"ok\""], None);
    assert_eq!(code, 1);
    assert!(err.contains("Invalid function argument"), "{err}");
}

/// `&&` and `||` evaluate both sides, as Terraform 1.11 does: `false &&
/// length(null) > 0` is terraform's "Invalid function argument".
#[test]
fn logical_operators_do_not_short_circuit() {
    let (code, out, err) = eval(
        &[
            "--dir",
            "fixtures/eval/console",
            "false && length(null) > 0",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert_eq!(
        err,
        "<expr>:1:17: Invalid function argument: Invalid value for \"value\" parameter: argument must not be null.\n  false && length(null) > 0\n                  ^^^^\n"
    );
    let (code, _, err) = eval(&["--dir", "fixtures/eval/console", "true || null"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("Operation failed: Error during operation: argument must not be null."),
        "{err}"
    );
}

/// Issue 30: a failed `validation` rule of a variable the expression uses
/// (directly or through a local) is Terraform's "Invalid value for
/// variable", at the `variable` block, with the rule's message and place;
/// exit 1. Variables whose rules hold, and expressions that use no failing
/// variable, evaluate.
#[test]
fn validation_rules_of_the_variables_used() {
    let dir = "fixtures/eval/checks/validation";
    let (code, out, err) = eval(&["--dir", dir, "var.env"], None);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "fixtures/eval/checks/validation/main.tf:1:1: Invalid value for variable: The env must be dev or prod. This was checked by the validation rule at fixtures/eval/checks/validation/main.tf:5,3-13.\n  variable \"env\" {\n  ^^^^^^^^^^^^^^\n"
    );
    // The message is a template of the value.
    let (code, _, err) = eval(&["--dir", dir, "var.port"], None);
    assert_eq!(code, 1);
    assert!(err.contains(": Port 80 is privileged. This was checked by the validation rule at fixtures/eval/checks/validation/main.tf:14,3-13."), "{err}");
    // Through a local.
    let (code, _, err) = eval(&["--dir", dir, "local.uses_env"], None);
    assert_eq!(code, 1);
    assert!(err.contains("The env must be dev or prod."), "{err}");
    for (expr, want) in [("var.ok", "\"fine\"\n"), ("1", "1\n")] {
        let (code, out, err) = eval(&["--dir", dir, expr], None);
        assert_eq!((code, out.as_str(), err.as_str()), (0, want, ""), "{expr}");
    }
    // A value given on the command line that passes.
    let (code, out, err) = eval(&["--dir", dir, "--var", "env=prod", "var.env"], None);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "\"prod\"\n", ""));
}

/// Issue 30: `nullable = false` with `default = null` is Terraform's
/// "Invalid default value for variable", whatever the expression.
#[test]
fn null_default_of_a_non_nullable_variable() {
    let (code, out, err) = eval(
        &["--dir", "fixtures/eval/checks/nullable", "var.other"],
        None,
    );
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "fixtures/eval/checks/nullable/main.tf:4:14: Invalid default value for variable: A null default value is not valid when nullable=false.\n    default  = null\n               ^^^^\n"
    );
}

/// Issue 30: `--json` does not print a sensitive value in clear (plain
/// output prints `(sensitive value)`); `--show-sensitive` does, still
/// marked.
#[test]
fn json_withholds_sensitive_values() {
    let dir = "fixtures/eval/console";
    let (code, out, _) = eval(&["--dir", dir, "--json", "sensitive(1)"], None);
    assert_eq!(code, 0);
    assert_eq!(out, "{\"type\":\"number\",\"sensitive\":true}\n");
    let (_, out, _) = eval(&["--dir", dir, "--json", "[1, sensitive(\"s\")]"], None);
    assert_eq!(
        out,
        "{\"type\":[\"tuple\",[\"number\",\"string\"]],\"sensitive\":true}\n"
    );
    let (_, out, _) = eval(
        &[
            "--dir",
            dir,
            "--json",
            "--show-sensitive",
            "[1, sensitive(\"s\")]",
        ],
        None,
    );
    assert_eq!(
        out,
        "{\"value\":[1,\"s\"],\"type\":[\"tuple\",[\"number\",\"string\"]],\"sensitive\":true}\n"
    );
    let (_, out, _) = eval(
        &[
            "--dir",
            "fixtures/eval/modules/sensitive",
            "--json",
            "var.password",
        ],
        None,
    );
    assert_eq!(out, "{\"type\":\"string\",\"sensitive\":true}\n");
}

/// Issue 30: `--dir` must be a folder; a missing one or a file is an error
/// (it used to evaluate as an empty module).
#[test]
fn dir_must_be_a_folder() {
    let (code, out, err) = eval(&["--dir", "fixtures/eval/no-such-folder", "1"], None);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "hclwright eval: --dir fixtures/eval/no-such-folder: no such folder\n"
    );
    let (code, out, err) = eval(&["--dir", "fixtures/eval/checks/README.md", "1"], None);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "hclwright eval: --dir fixtures/eval/checks/README.md: not a folder (give the folder that holds the module's .tf files)\n"
    );
}

/// Issue 30: an expression may start with `-` (it was taken as an option).
#[test]
fn an_expression_may_start_with_a_minus() {
    let dir = "fixtures/eval/console";
    let (code, out, err) = eval(&["--dir", dir, "-7 % 3"], None);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "-1\n", ""));
    let (code, out, _) = eval(&["--dir", dir, "-7", "--json"], None);
    assert_eq!(
        (code, out.as_str()),
        (0, "{\"value\":-7,\"type\":\"number\"}\n")
    );
    let (code, out, _) = eval(&["--dir", dir, "--", "-2"], None);
    assert_eq!((code, out.as_str()), (0, "-2\n"));
}

/// Issue 30: a problem with a whole file (a `.tf` file that is not UTF-8)
/// is `path: message`, without an empty source line and a caret.
#[test]
fn a_file_that_cannot_be_read_is_named_without_a_caret() {
    let dir = std::env::temp_dir().join(format!("hclwright-eval-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.tf"), b"a = \"\xff\"\n").unwrap();
    let path = dir.display().to_string();
    let (code, out, err) = eval(&["--dir", &path, "1"], None);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!("{path}/main.tf: Failed to read file: stream did not contain valid UTF-8\n")
    );
}
