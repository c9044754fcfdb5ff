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
