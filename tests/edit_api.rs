//! The editing API: reading, errors that leave the document unchanged,
//! CRLF files, minimal text edits, and a property test: after any
//! sequence of edits, the text edits applied to the original give the
//! current text, and they are sorted and do not overlap.

use hclwright::diff::apply_edits;
use hclwright::document::{Address, Step};
use hclwright::{Document, EditError, EditValue, Item};
use proptest::prelude::*;

const TF: &str = r#"# Providers.
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 4.0" # pinned
    }
  }
}

locals {
  tags = {
    Name = "web"
    Team = "platform"
  }
  azs   = ["a", "b"]
  ports = [
    80,
    443,
  ]
}

resource "aws_instance" "web" {
  ami           = "ami-1"
  instance_type = "t3.micro"

  ebs_block_device {
    volume_size = 10
  }
}
"#;

#[test]
fn reading() {
    let doc = Document::parse(TF).unwrap();
    let v = doc.get("terraform.required_providers.aws.version").unwrap();
    assert_eq!(v.value(), Some(EditValue::from("~> 4.0")));
    assert_eq!(v.inline_comment().as_deref(), Some("# pinned"));
    assert!(matches!(v, Item::ObjectItem(_)));
    assert_eq!(
        doc.get("locals.azs[1]").unwrap().value(),
        Some(EditValue::from("b"))
    );
    assert_eq!(
        doc.get(r#"locals.tags["Team"]"#).unwrap().value(),
        Some(EditValue::from("platform"))
    );
    assert_eq!(
        doc.get("locals.ports").unwrap().value(),
        Some(EditValue::List(vec![80.into(), 443.into()]))
    );
    let block = doc.get("resource.aws_instance.web").unwrap();
    assert_eq!(block.labels(), ["aws_instance", "web"]);
    assert_eq!(
        doc.get("terraform").unwrap().comments_above(),
        ["# Providers."]
    );
    let names: Vec<_> = doc.items().filter_map(|i| i.name()).collect();
    assert_eq!(names, ["terraform", "locals", "resource"]);
    let steps = vec![
        Step::Name("locals".into()),
        Step::Name("azs".into()),
        Step::Index(0),
    ];
    assert_eq!(doc.get(Address::new(steps)).unwrap().text(), "\"a\"");
}

#[test]
fn any_label_can_be_addressed_as_a_quoted_key() {
    let text =
        "key \"\" {\n  policy = 1\n}\nkey \"a.b\" {\n  policy = 2\n}\nkey c {\n  policy = 3\n}\n";
    let mut doc = Document::parse(text).unwrap();
    let get = |doc: &Document, a: &str| doc.get(a).unwrap().text();
    assert_eq!(get(&doc, r#"key[""].policy"#), "policy = 1");
    assert_eq!(get(&doc, r#"key["a.b"].policy"#), "policy = 2");
    assert_eq!(get(&doc, r"key.a\.b.policy"), "policy = 2");
    assert_eq!(get(&doc, r#"key["c"].policy"#), "policy = 3");
    // An address built from the labels prints in a form that parses and
    // finds the same block.
    let built = Address::new(vec![
        Step::Name("key".into()),
        Step::Name(String::new()),
        Step::Name("policy".into()),
    ]);
    assert_eq!(get(&doc, &built.to_string()), "policy = 1");
    doc.set(r#"key[""].policy"#, EditValue::from(5)).unwrap();
    assert_eq!(doc.to_string(), text.replace("policy = 1", "policy = 5"));
}

#[test]
fn failed_edits_leave_the_document_unchanged() {
    let mut doc = Document::parse(TF).unwrap();
    assert!(doc.set("locals.azs[0].x", 1).unwrap_err().is_not_found());
    assert!(matches!(
        doc.rename("locals.azs", "ports"),
        Err(EditError::AlreadyExists { .. })
    ));
    assert!(matches!(
        doc.rename("locals.azs", "not valid"),
        Err(EditError::InvalidName { .. })
    ));
    assert!(matches!(
        doc.set_inline_comment("locals.azs", Some("two\nlines")),
        Err(EditError::InvalidValue { .. })
    ));
    assert!(matches!(
        EditValue::parse("1 +"),
        Err(EditError::InvalidValue { .. })
    ));
    assert!(matches!(
        doc.get("a..b"),
        Err(EditError::InvalidAddress { .. })
    ));
    assert!(matches!(
        doc.insert_element("locals.tags", 0, 1),
        Err(EditError::Unsupported { .. })
    ));
    assert_eq!(doc.to_string(), TF);
    assert!(!doc.is_modified());
    assert!(doc.text_edits().is_empty());
}

#[test]
fn broken_files_are_refused() {
    let err = Document::parse("a = [1,\nb = 2\n").unwrap_err();
    assert!(!err.errors().is_empty());
    assert!(err.render("x.tf", "a = [1,\nb = 2\n").starts_with("x.tf:"));
}

#[test]
fn crlf_files_get_crlf_lines() {
    let mut doc = Document::parse("a = 1\r\nb {\r\n}\r\n").unwrap();
    doc.set("b.c", EditValue::object([("x", 1)])).unwrap();
    doc.append_block("", "d", &[], "y = 2").unwrap();
    assert_eq!(
        doc.to_string(),
        "a = 1\r\nb {\r\n  c = {\r\n    x = 1\r\n  }\r\n}\r\n\r\nd {\r\n  y = 2\r\n}\r\n"
    );
}

#[test]
fn text_edits_are_as_small_as_the_change() {
    let mut doc = Document::parse(TF).unwrap();
    doc.set("terraform.required_providers.aws.version", "~> 5.0")
        .unwrap();
    doc.set("resource.aws_instance.web.instance_type", "t3.large")
        .unwrap();
    let edits = doc.text_edits();
    let shown: Vec<_> = edits
        .iter()
        .map(|e| {
            (
                &TF[usize::from(e.range.start())..usize::from(e.range.end())],
                e.new_text.as_str(),
            )
        })
        .collect();
    assert_eq!(shown, [("4", "5"), ("micro", "large")]);
    // Setting the original value back leaves nothing to change.
    doc.set("resource.aws_instance.web.instance_type", "t3.micro")
        .unwrap();
    assert_eq!(doc.text_edits().len(), 1);
    assert!(
        doc.unified_diff("main.tf")
            .contains("-      version = \"~> 4.0\" # pinned\n")
    );
}

#[test]
fn wildcards_edit_every_match() {
    let text =
        "resource \"a\" \"x\" {\n  tags = {}\n}\nresource \"a\" \"y\" {\n  tags = { k = 1 }\n}\n";
    let mut doc = Document::parse(text).unwrap();
    doc.set("resource.a.*.tags.Team", "platform").unwrap();
    assert_eq!(
        doc.to_string(),
        "resource \"a\" \"x\" {\n  tags = {\n    Team = \"platform\"\n  }\n}\nresource \"a\" \"y\" {\n  tags = { k = 1, Team = \"platform\" }\n}\n"
    );
    assert_eq!(doc.get_all("resource.a.*.tags.Team").unwrap().len(), 2);
    assert!(matches!(
        doc.get("resource.a"),
        Err(EditError::NotFound { .. })
    ));
}

/// One random operation: a kind, a target (an index into the current
/// items), and a value choice.
#[derive(Clone, Debug)]
struct Op(u8, usize, u8);

fn value(n: u8) -> EditValue {
    match n % 5 {
        0 => EditValue::from("s"),
        1 => EditValue::from(7),
        2 => EditValue::parse("var.x").unwrap(),
        3 => EditValue::object([("k", 1)]),
        _ => EditValue::from(vec![1, 2]),
    }
}

/// Addresses of every attribute, object item and element of the current
/// document, in a fixed order.
fn targets(doc: &Document) -> Vec<Address> {
    let mut out = Vec::new();
    for addr in [
        "terraform.required_providers.aws",
        "terraform.required_providers.aws.version",
        "terraform.required_providers.aws.source",
        "locals.tags",
        "locals.tags.Name",
        "locals.tags.Team",
        "locals.azs",
        "locals.azs[0]",
        "locals.azs[1]",
        "locals.ports",
        "locals.ports[0]",
        "resource.aws_instance.web.ami",
        "resource.aws_instance.web.instance_type",
        "resource.aws_instance.web.ebs_block_device",
        "resource.aws_instance.web.ebs_block_device.volume_size",
    ] {
        let a = Address::parse(addr).unwrap();
        if doc.contains(&a) {
            out.push(a);
        }
    }
    out
}

fn run(doc: &mut Document, op: &Op) {
    let targets = targets(doc);
    if targets.is_empty() {
        return;
    }
    let target = &targets[op.1 % targets.len()];
    let _ = match op.0 % 8 {
        0 => doc.set(target, value(op.2)),
        1 => doc.remove(target),
        2 => doc.rename(target, "renamed"),
        3 => doc.set_inline_comment(target, Some("note")),
        4 => doc.set_comments_above(target, &["above"]),
        5 => doc.push_element(target, value(op.2)),
        6 => {
            let mut steps = target.steps().to_vec();
            steps.push(Step::Name("added".into()));
            doc.set(Address::new(steps), value(op.2))
        }
        _ => doc.append_block("", "extra", &["x"], "a = 1"),
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn text_edits_reproduce_the_result(ops in prop::collection::vec((0u8..8, 0usize..32, 0u8..5).prop_map(|(a, b, c)| Op(a, b, c)), 1..8)) {
        let mut doc = Document::parse(TF).unwrap();
        for op in &ops {
            run(&mut doc, op);
            let out = doc.to_string();
            prop_assert!(hclwright::parse(&out).errors().is_empty(), "{out}");
            let edits = doc.text_edits();
            for pair in edits.windows(2) {
                prop_assert!(pair[0].range.end() <= pair[1].range.start());
            }
            prop_assert_eq!(apply_edits(TF, &edits).unwrap(), out);
        }
    }
}

#[test]
fn documents_can_be_shared_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Document>();
    // A document edited on one thread is read on another.
    let mut doc = Document::parse("a = 1\n\nb {\n  c = 2\n}\n").unwrap();
    doc.set("b.c", 3).unwrap();
    let text = std::thread::spawn(move || doc.get("b.c").unwrap().text())
        .join()
        .unwrap();
    assert_eq!(text, "c = 3");
}
