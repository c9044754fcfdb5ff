//! A Terraform rename on a module folder, end to end through the library:
//! `SourceFile::load_dir`, `rename`, the changes' text and diffs, and
//! writing them.

mod common;

use common::TempDir;
use hclwright::refs::SourceFile;
use hclwright::refs::terraform::{ObjectAddress, Options, rename};

fn module() -> TempDir {
    TempDir::new(&[
        (
            "variables.tf",
            "variable \"region\" {\n  type = string\n}\n",
        ),
        ("main.tf", "provider \"aws\" {\n  region = var.region\n}\n"),
        (
            "outputs.tf.json",
            "{\"output\": {\"r\": {\"value\": \"${var.region}\"}}}\n",
        ),
        ("override.tf", "locals {\n  r = var.region\n}\n"),
        ("README.md", "var.region\n"),
    ])
}

#[test]
fn load_dir_lists_both_syntaxes_with_overrides_last() {
    let dir = module();
    let files = SourceFile::load_dir(dir.path()).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["main.tf", "outputs.tf.json", "variables.tf", "override.tf"]
    );
    let missing = SourceFile::load_dir(dir.path().join("nope")).unwrap_err();
    assert!(missing.to_string().contains("nope"), "{missing}");
}

#[test]
fn a_rename_gives_texts_diffs_and_writes_them() {
    let dir = module();
    let files = SourceFile::load_dir(dir.path()).unwrap();
    let address: ObjectAddress = "var.region".parse().unwrap();
    let result = rename(&files, &address, "aws_region", Options::default()).unwrap();
    assert_eq!(result.changes.len(), 4);
    assert_eq!(result.changes.len(), result.files.len());
    for (change, edits) in result.changes.iter().zip(&result.files) {
        assert_eq!(change.path, edits.path);
        let file = files.iter().find(|f| f.path == change.path).unwrap();
        assert_eq!(change.before, file.text);
        assert_eq!(
            change.after,
            hclwright::diff::apply_edits(&file.text, &edits.edits).unwrap()
        );
        assert!(change.unified_diff().contains("aws_region"));
    }
    let diff = result.unified_diff();
    assert_eq!(
        diff.matches("\n+++ b/").count() + usize::from(diff.starts_with("+++")),
        4
    );
    // Nothing is written until asked.
    assert_eq!(
        dir.read("main.tf"),
        "provider \"aws\" {\n  region = var.region\n}\n"
    );
    result.write().unwrap();
    assert_eq!(
        dir.read("main.tf"),
        "provider \"aws\" {\n  region = var.aws_region\n}\n"
    );
    assert_eq!(
        dir.read("variables.tf"),
        "variable \"aws_region\" {\n  type = string\n}\n"
    );
    assert!(dir.read("outputs.tf.json").contains("${var.aws_region}"));
    assert_eq!(dir.read("README.md"), "var.region\n");
    // Writing again: the files changed since they were read, refused.
    let err = result.changes[0].write().unwrap_err();
    assert!(hclwright::write::is_changed_since_read(&err), "{err}");
    let err = result.write().unwrap_err();
    let first = result.changes[0].path.display().to_string();
    assert!(err.to_string().starts_with(&first), "{err}");
}
