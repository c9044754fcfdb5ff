//! References inside JSON template strings: `refs` lists them at their
//! place in the JSON text, and a prefix `rename` edits them in place
//! (escaped strings included), leaving every other byte alone.

mod common;

use common::TempDir;

#[test]
fn refs_finds_references_in_json_strings() {
    let out = common::hclwright(
        std::path::Path::new("fixtures/eval/modules/json"),
        &["refs", "var.region", "."],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "./main.tf.json:27:20: var.region\n./main.tf.json:30:48: var.region\n./main.tf.json:34:10: var.region\n./main.tf.json:39:25: var.region\n"
    );
}

#[test]
fn rename_edits_json_strings_in_place() {
    let text = "{\n  \"locals\": {\n    \"a\": \"${var.old}\",\n    \"b\": \"\\\"q\\\" ${var.old.x} ${var.older}\",\n    \"${var.old}\": [\"%{ if var.old }y%{ endif }\"]\n  }\n}\n";
    let dir = TempDir::new(&[("main.tf.json", text), ("other.tf", "x = var.old\n")]);
    let out = common::hclwright(
        dir.path(),
        &["rename", "-w", "var.old", "var.new", "."],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        dir.read("main.tf.json"),
        "{\n  \"locals\": {\n    \"a\": \"${var.new}\",\n    \"b\": \"\\\"q\\\" ${var.new.x} ${var.older}\",\n    \"${var.new}\": [\"%{ if var.new }y%{ endif }\"]\n  }\n}\n"
    );
    assert_eq!(dir.read("other.tf"), "x = var.new\n");
    assert!(
        hclwright::json::parse(&dir.read("main.tf.json"))
            .errors()
            .is_empty()
    );
}

#[test]
fn a_rename_to_a_quoted_key_is_escaped_in_json() {
    let text = r#"{"locals": {"a": "${local.m.k}"}}"#;
    let parse = hclwright::json::parse(text);
    let rename = hclwright::refs::Rename::parse("local.m.k", "local.m[\"k 2\"]").unwrap();
    let renamed = hclwright::json::rename(&parse, &rename);
    let out = hclwright::diff::apply_edits(text, &renamed.edits).unwrap();
    assert_eq!(out, r#"{"locals": {"a": "${local.m[\"k 2\"]}"}}"#);
    let parse = hclwright::json::parse(&out);
    let refs = hclwright::json::references(&parse);
    assert_eq!(refs[0].traversal.to_string(), "local.m[\"k 2\"]");
}

/// A Terraform-aware rename in a folder mixing both syntaxes: the JSON
/// declaration's name, the references in JSON strings and in native
/// files, and the module still evaluates to the same values.
#[test]
fn terraform_renames_reach_json_declarations() {
    let src = std::path::Path::new("fixtures/eval/modules/json");
    let files: Vec<(String, String)> = ["main.tf.json", "more.tf.json", "native.tf"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read_to_string(src.join(n)).unwrap()))
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let dir = TempDir::new(&refs);
    let out = common::hclwright(
        dir.path(),
        &["rename", "--terraform", "-w", "local.sum", "total", "."],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let main = dir.read("main.tf.json");
    assert!(main.contains("\"total\": \"${1 + 2}\""), "{main}");
    assert!(main.contains("${local.total * 2}"), "{main}");
    assert!(dir.read("native.tf").contains("${local.total}"));
    let ctx = hclwright::eval::EvalContext::new().with_terraform_functions();
    let module = hclwright::eval::Module::load(dir.path(), &Default::default(), ctx);
    assert!(module.diagnostics.is_empty(), "{:?}", module.diagnostics);
    let v = hclwright::eval::evaluate_str(
        "[local.total, local.uses_json, local.object.nested.deep]",
        &module.context,
    )
    .unwrap();
    assert_eq!(
        hclwright::eval::console_string(&v),
        "[\n  3,\n  \"app-eu-west-1/3\",\n  6,\n]"
    );
}

#[test]
fn a_moved_block_is_refused_for_a_json_declaration() {
    let dir = TempDir::new(&[(
        "main.tf.json",
        "{\"resource\": {\"aws_instance\": {\"web\": {\"ami\": \"x\"}}}}\n",
    )]);
    let out = common::hclwright(
        dir.path(),
        &[
            "rename",
            "--terraform",
            "--moved",
            "-w",
            "aws_instance.web",
            "app",
            ".",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a `moved` block is written only in native files"),
        "{err}"
    );
    assert!(dir.read("main.tf.json").contains("\"web\""));
    let out = common::hclwright(
        dir.path(),
        &[
            "rename",
            "--terraform",
            "-w",
            "aws_instance.web",
            "app",
            ".",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        dir.read("main.tf.json"),
        "{\"resource\": {\"aws_instance\": {\"app\": {\"ami\": \"x\"}}}}\n"
    );
}
