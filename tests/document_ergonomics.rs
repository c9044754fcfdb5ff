//! `Document` conveniences: `set_if_exists`, placement after a block
//! named by its labels, the top level as `Address::root()`, diffs by
//! path, block headers as `&str`.

use hclwright::document::Address;
use hclwright::{Document, Placement};

const MAIN: &str = "resource \"aws_instance\" \"a\" {\n  ami = \"x\"\n}\n\nresource \"aws_instance\" \"b\" {\n  ami = \"y\"\n}\n\noutput \"z\" {\n  value = 1\n}\n";

#[test]
fn a_block_goes_after_the_block_its_labels_name() {
    let mut doc = Document::parse(MAIN).unwrap();
    doc.insert_block(
        Address::root(),
        "moved",
        &[],
        "from = aws_instance.a\nto = aws_instance.c\n",
        Placement::after_block("resource", &["aws_instance", "a"]),
    )
    .unwrap();
    assert_eq!(
        doc.unified_diff("main.tf"),
        "--- a/main.tf\n+++ b/main.tf\n@@ -2,6 +2,11 @@\n   ami = \"x\"\n }\n \n+moved {\n+  from = aws_instance.a\n+  to   = aws_instance.c\n+}\n+\n resource \"aws_instance\" \"b\" {\n   ami = \"y\"\n }\n"
    );
    // The type alone names the first block of that type.
    let mut by_type = Document::parse(MAIN).unwrap();
    by_type
        .insert_block("", "x", &[], "", Placement::Before("output".into()))
        .unwrap();
    assert!(by_type.to_string().contains("}\n\nx {\n}\n\noutput"));
    // Labels must all match.
    let err = doc
        .insert_block(
            Address::root(),
            "x",
            &[],
            "",
            Placement::before_block("resource", &["aws_instance"]),
        )
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
    assert!(err.to_string().contains("resource.aws_instance"), "{err}");
}

#[test]
fn an_attribute_goes_before_a_block_named_by_its_labels() {
    let mut doc =
        Document::parse("a {\n  x = 1\n  b \"one\" {\n  }\n  b \"two\" {\n  }\n}\n").unwrap();
    doc.set_with("a.y", 2, Placement::before_block("b", &["two"]))
        .unwrap();
    assert_eq!(
        doc.to_string(),
        "a {\n  x = 1\n  b \"one\" {\n  }\n\n  y = 2\n\n  b \"two\" {\n  }\n}\n"
    );
}

#[test]
fn set_if_exists_reports_whether_it_set() {
    let mut doc = Document::parse(MAIN).unwrap();
    assert_eq!(doc.set_if_exists("output.z.value", 2), Ok(true));
    assert_eq!(doc.set_if_exists("output.z.description", "d"), Ok(false));
    assert_eq!(doc.set_if_exists("output.nope.value", 2), Ok(false));
    // Past an attribute whose value has no parts: not there either.
    assert_eq!(doc.set_if_exists("output.z.value.deeper", 2), Ok(false));
    // A malformed address is an error, not "absent".
    assert!(doc.set_if_exists("output..z", 1).is_err());
    // So are two blocks that match without `*`.
    let mut twice = Document::parse("locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n").unwrap();
    assert!(twice.set_if_exists("locals", 1).is_err());
    assert_eq!(
        doc.text_edits().len(),
        1,
        "only the existing value changed: {}",
        doc.unified_diff("main.tf")
    );
}

#[test]
fn the_top_level_and_handles() {
    let mut doc = Document::parse("a = 1\n").unwrap();
    doc.append_block(Address::root(), "b", &["x"], "").unwrap();
    doc.append_block("", "b", &["y"], "").unwrap();
    doc.root_mut().append_block("b", &["z"], "k = 1").unwrap();
    let headers: Vec<String> = doc
        .blocks()
        .map(|b| {
            let h = b.header();
            format!("{} {}", h.type_name(), h.labels().join(","))
        })
        .collect();
    assert_eq!(headers, ["b x", "b y", "b z"]);
    assert!(doc.get("b.z").unwrap().header().unwrap().is("b", &["z"]));
    assert_eq!(doc.get("a").unwrap().header(), None);
    let path = std::path::PathBuf::from("dir/main.tf");
    assert!(doc.unified_diff(&path).starts_with("--- a/dir/main.tf\n"));
}
