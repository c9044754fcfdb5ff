//! Terraform-aware renames over the module in `fixtures/rename/terraform/`:
//! one diff snapshot per kind of address, and the refusals.

mod common;

use std::path::Path;

use hclwright::diff::{apply_edits, unified_diff};
use hclwright::refs::SourceFile;
use hclwright::refs::terraform::{ObjectAddress, Options, TerraformRenameError, rename};

fn module() -> Vec<SourceFile> {
    common::source_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rename/terraform"))
}

/// The diff of a rename over the fixture module, with a summary line.
fn renamed(address: &str, new_name: &str, moved: bool) -> String {
    let files = module();
    let address: ObjectAddress = address.parse().unwrap();
    let result = rename(&files, &address, new_name, Options { moved }).unwrap();
    let mut out = format!(
        "{address} -> {new_name}{}: {} declarations, {} references, {} moved blocks\n\n",
        if moved { " (moved)" } else { "" },
        result.declarations,
        result.references,
        result.moved_blocks
    );
    for file_edits in &result.files {
        let file = files.iter().find(|f| f.path == file_edits.path).unwrap();
        let new_text = apply_edits(&file.text, &file_edits.edits).unwrap();
        let reparsed = hclwright::parse(&new_text);
        assert!(
            reparsed.errors().is_empty(),
            "{:?}\n{new_text}",
            reparsed.errors()
        );
        out.push_str(&unified_diff(
            &file.text,
            &new_text,
            &file.path.display().to_string(),
        ));
    }
    out
}

#[test]
fn variable_with_quoted_label_and_tfvars() {
    insta::assert_snapshot!(renamed("variable.region", "aws_region", false));
}

#[test]
fn variable_with_bare_label() {
    insta::assert_snapshot!(renamed("var.instances", "instance_count", false));
}

#[test]
fn local_value() {
    insta::assert_snapshot!(renamed("local.name", "app_name", false));
}

#[test]
fn module_with_moved_block() {
    insta::assert_snapshot!(renamed("module.vpc", "network", true));
}

#[test]
fn resource_without_moved_block_renames_existing_moved_to() {
    insta::assert_snapshot!(renamed("aws_instance.web", "app", false));
}

#[test]
fn resource_with_moved_block_chains_existing_moves() {
    insta::assert_snapshot!(renamed("aws_instance.web", "app", true));
}

#[test]
fn resource_in_import_block() {
    insta::assert_snapshot!(renamed("aws_eip.web", "public_ip", true));
}

#[test]
fn data_source() {
    insta::assert_snapshot!(renamed("data.aws_ami.ubuntu", "jammy", false));
}

#[test]
fn output_value() {
    insta::assert_snapshot!(renamed("output.ips", "private_ips", false));
}

#[test]
fn moved_block_follows_the_file_layout() {
    // Tabs inside the block, CRLF line endings, no final newline.
    let files = [SourceFile::new(
        "main.tf",
        "module \"a\" {\r\n\tsource = \"./a\"\r\n}",
    )];
    let address: ObjectAddress = "module.a".parse().unwrap();
    let result = rename(&files, &address, "b", Options { moved: true }).unwrap();
    let text = apply_edits(&files[0].text, &result.files[0].edits).unwrap();
    assert_eq!(
        text,
        "module \"b\" {\r\n\tsource = \"./a\"\r\n}\r\n\r\nmoved {\r\n\tfrom = module.a\r\n\tto   = module.b\r\n}"
    );
}

#[test]
fn refusals() {
    let files = module();
    let addr = |s: &str| s.parse::<ObjectAddress>().unwrap();
    let opts = Options::default();
    assert!(matches!(
        rename(&files, &addr("variable.env"), "region", opts),
        Err(TerraformRenameError::AlreadyDeclared { .. })
    ));
    assert!(matches!(
        rename(&files, &addr("aws_instance.web"), "1st", opts),
        Err(TerraformRenameError::InvalidName(_))
    ));
    assert!(matches!(
        rename(&files, &addr("module.vpc"), "vpc", opts),
        Err(TerraformRenameError::SameName)
    ));
    assert!(matches!(
        rename(
            &files,
            &addr("variable.env"),
            "stage",
            Options { moved: true }
        ),
        Err(TerraformRenameError::MovedNotSupported(_))
    ));
    let mut broken = files.clone();
    broken.push(SourceFile::new("broken.tf", "resource \"x\" {\n"));
    let Err(TerraformRenameError::InvalidFiles(invalid)) =
        rename(&broken, &addr("variable.env"), "stage", opts)
    else {
        panic!("a file with syntax errors must be refused");
    };
    assert_eq!(invalid.files[0].0, Path::new("broken.tf"));
}

#[test]
fn unknown_address_changes_nothing() {
    let files = module();
    let result = rename(
        &files,
        &"variable.nope".parse().unwrap(),
        "x",
        Options::default(),
    )
    .unwrap();
    assert_eq!((result.declarations, result.references), (0, 0));
    assert!(result.files.is_empty());
}

/// A file that was in the canonical layout stays so after any rename: the
/// `=` groups that renamed declarations and references lengthen or shorten
/// are realigned (locals, tfvars keys, arguments).
#[test]
fn renames_keep_clean_files_clean() {
    let files = module();
    let mut checked = 0;
    for (address, new_name) in [
        ("local.name", "app_name"),
        ("local.region", "r"),
        ("variable.region", "aws_region"),
        ("variable.instances", "instance_count"),
        ("module.vpc", "network_with_a_long_name"),
        ("resource.aws_instance.web", "w"),
    ] {
        let address: ObjectAddress = address.parse().unwrap();
        let result = rename(&files, &address, new_name, Options { moved: false }).unwrap();
        for file_edits in &result.files {
            let file = files.iter().find(|f| f.path == file_edits.path).unwrap();
            if hclwright::format::format(&file.text) != file.text {
                continue;
            }
            let new_text = apply_edits(&file.text, &file_edits.edits).unwrap();
            assert_eq!(
                hclwright::format::format(&new_text),
                new_text,
                "{address} -> {new_name} in {}",
                file.path.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} clean files were renamed in");
}

/// An address declared twice (in two files, or twice in one) is refused
/// with every place named; override files declare again on purpose and
/// are renamed with the rest.
#[test]
fn duplicate_declarations_are_refused() {
    let file = |path: &str, text: &str| SourceFile {
        path: path.into(),
        text: text.to_string(),
    };
    let files = vec![
        file(
            "a.tf",
            "resource \"aws_instance\" \"web\" {\n}\noutput \"ip\" {\n  value = aws_instance.web.ip\n}\n",
        ),
        file("b.tf", "\nresource \"aws_instance\" \"web\" {\n}\n"),
    ];
    let address: ObjectAddress = "resource.aws_instance.web".parse().unwrap();
    let err = rename(&files, &address, "app", Options { moved: false }).unwrap_err();
    assert!(matches!(err, TerraformRenameError::Duplicate { .. }));
    assert_eq!(
        err.to_string(),
        "`aws_instance.web` is declared 2 times; rename one of them by hand first:\n  a.tf:1:1\n  b.tf:2:1"
    );
    let locals = vec![file("l.tf", "locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n")];
    let address: ObjectAddress = "local.a".parse().unwrap();
    assert!(matches!(
        rename(&locals, &address, "b", Options { moved: false }),
        Err(TerraformRenameError::Duplicate { .. })
    ));
    // An override file is not a duplicate.
    let files = vec![
        file("main.tf", "variable \"size\" {\n}\nx = var.size\n"),
        file(
            "main_override.tf",
            "variable \"size\" {\n  default = 2\n}\n",
        ),
    ];
    let address: ObjectAddress = "variable.size".parse().unwrap();
    let result = rename(&files, &address, "count", Options { moved: false }).unwrap();
    assert_eq!((result.declarations, result.references), (2, 1));
}
