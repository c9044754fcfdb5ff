//! The handle-based editing API (`Document::root_mut`, `block_mut`,
//! `get_mut`, `Handle`): each scenario snapshots the unified diff it makes,
//! so any collateral change shows, and checks the document stays valid.

use hclwright::{Document, EditValue, Item};

const MAIN: &str = r#"terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 4.0" # pinned
    }
  }
}

# The web servers.
resource "aws_instance" "web" {
  ami           = "ami-123"
  instance_type = "t3.micro"
  tags = {
    Name = "web"
  }
}

resource "aws_instance" "db" {
  ami = "ami-456"
}

module "cdn.v2" {
  source = "./cdn"
  zones  = ["a", "b"]
}
"#;

fn check(doc: &Document) -> String {
    let text = doc.to_string();
    assert!(hclwright::parse(&text).errors().is_empty(), "{text}");
    assert_eq!(
        hclwright::diff::apply_edits(MAIN, &doc.text_edits()).unwrap(),
        text
    );
    doc.unified_diff("main.tf")
}

#[test]
fn bump_a_provider_through_handles() {
    let mut doc = Document::parse(MAIN).unwrap();
    let mut providers = doc
        .block_mut("terraform", &[])
        .unwrap()
        .into_block("required_providers", &[])
        .unwrap();
    let mut aws = providers.entry_mut("aws").unwrap();
    assert_eq!(
        aws.get("version").unwrap().value(),
        Some(EditValue::from("~> 4.0"))
    );
    aws.set("version", "~> 5.0").unwrap();
    providers
        .set(
            "google",
            EditValue::parse("{ source = \"hashicorp/google\" }").unwrap(),
        )
        .unwrap();
    insta::assert_snapshot!(check(&doc));
}

#[test]
fn iterate_and_edit_every_resource() {
    let mut doc = Document::parse(MAIN).unwrap();
    let resources: Vec<Vec<String>> = doc
        .root_mut()
        .children()
        .unwrap()
        .iter()
        .filter(|item| item.name().as_deref() == Some("resource"))
        .map(Item::labels)
        .collect();
    assert_eq!(resources, [["aws_instance", "web"], ["aws_instance", "db"]]);
    for labels in &resources {
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        let mut resource = doc.block_mut("resource", &labels).unwrap();
        resource.set("monitoring", true).unwrap();
        resource.rename("ami", "image_id").unwrap();
        let names: Vec<String> = resource
            .children()
            .unwrap()
            .iter()
            .filter_map(Item::name)
            .collect();
        assert!(names.contains(&"image_id".to_string()), "{names:?}");
    }
    insta::assert_snapshot!(check(&doc));
}

#[test]
fn labels_with_dots_tuples_comments_and_removal() {
    let mut doc = Document::parse(MAIN).unwrap();
    // A label with a dot is a step, never text to escape.
    let mut cdn = doc.block_mut("module", &["cdn.v2"]).unwrap();
    cdn.entry_mut("zones").unwrap().push("c").unwrap();
    assert_eq!(
        cdn.get("zones").unwrap().text(),
        "zones  = [\"a\", \"b\", \"c\"]"
    );
    cdn.set_labels(&["cdn"]).unwrap();
    // The handle follows the block to its new labels.
    cdn.set_comments_above(&["The CDN"]).unwrap();
    assert_eq!(cdn.address().to_string(), "module.cdn");
    // The web server's tags: iterate an object, remove an entry.
    let mut web = doc.block_mut("resource", &["aws_instance", "web"]).unwrap();
    let tags = web.entry_mut("tags").unwrap();
    let keys: Vec<String> = tags
        .children()
        .unwrap()
        .iter()
        .filter_map(Item::name)
        .collect();
    assert_eq!(keys, ["Name"]);
    tags.remove_self().unwrap();
    web.entry_mut("instance_type")
        .unwrap()
        .set_inline_comment(Some("the smallest"))
        .unwrap();
    doc.block_mut("resource", &["aws_instance", "db"])
        .unwrap()
        .remove_self()
        .unwrap();
    insta::assert_snapshot!(check(&doc));
}

#[test]
fn handles_report_missing_items() {
    let mut doc = Document::parse(MAIN).unwrap();
    assert!(doc.block_mut("nope", &[]).unwrap_err().is_not_found());
    assert!(doc.get_mut("terraform.nope").unwrap_err().is_not_found());
    let mut root = doc.root_mut();
    assert!(root.item().is_err());
    assert!(root.entry_mut("missing").unwrap_err().is_not_found());
    // An appended block is at once a handle.
    let mut output = root.append_block("output", &["ip"], "").unwrap();
    output
        .set(
            "value",
            EditValue::parse("aws_instance.web.private_ip").unwrap(),
        )
        .unwrap();
    assert!(
        doc.to_string()
            .ends_with("output \"ip\" {\n  value = aws_instance.web.private_ip\n}\n")
    );
}
