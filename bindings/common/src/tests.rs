//! Unit tests of the binding layer: each call as the CLI makes it.

use super::*;

#[test]
fn format_profiles_and_errors() {
    assert_eq!(format("a=1\n", "hclfmt").unwrap(), "a = 1\n");
    assert_eq!(format("a=1\n", "terraform").unwrap(), "a = 1\n");
    assert_eq!(format("a=1\n", "x").unwrap_err().kind, ErrorKind::Usage);
    let e = format("a = [1 2]\n", "hclfmt").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!((e.diagnostics[0].line, e.diagnostics[0].column), (1, 8));
    assert_eq!((e.diagnostics[0].start, e.diagnostics[0].end), (7, 8));
    assert!(e.to_string().starts_with("1:8: expected"), "{e}");
}

#[test]
fn non_utf8_is_an_error_with_a_place() {
    let e = text_of(b"a = 1\nb = \"\xff\"\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Encoding);
    assert_eq!((e.diagnostics[0].line, e.diagnostics[0].column), (2, 6));
    assert_eq!(e.diagnostics[0].start, 11);
}

#[test]
fn panics_become_errors() {
    let e = guard::<()>(|| panic!("boom")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Internal);
    assert!(e.message.contains("boom"));
}

#[test]
fn document_edits_by_address() {
    let text = "# keep\nlocals {\n  a = 1 # one\n}\nvariable \"x\" {}\n";
    let mut doc = Document::parse(text, false).unwrap();
    assert_eq!(doc.text(), text);
    assert_eq!(doc.get("locals.a").unwrap().as_deref(), Some("1"));
    assert_eq!(doc.get("locals.zz").unwrap(), None);
    assert_eq!(doc.get("locals..a").unwrap_err().kind, ErrorKind::Usage);
    doc.set("locals.b", "\"two\"").unwrap();
    assert!(doc.remove("locals.a").unwrap());
    assert!(!doc.remove("locals.a").unwrap());
    doc.rename("variable.x", "variable.y").unwrap();
    doc.rename("locals.b", "c").unwrap();
    doc.append_block("", "output", &["o"]).unwrap();
    assert_eq!(
        doc.text(),
        "# keep\nlocals {\n  c = \"two\"\n}\nvariable \"y\" {}\n\noutput \"o\" {\n}\n"
    );
    assert!(doc.diff("main.tf").contains("+++ b/main.tf"));
    let blocks = doc.blocks("", None).unwrap();
    let addresses: Vec<&str> = blocks.iter().map(|b| b.address.as_str()).collect();
    assert_eq!(addresses, ["locals", "variable.y", "output.o"]);
    assert_eq!(doc.blocks("", Some("variable")).unwrap()[0].labels, ["y"]);
    let attributes = doc.attributes("locals").unwrap();
    assert_eq!(attributes[0].address, "locals.c");
    assert_eq!(attributes[0].value.as_deref(), Some("\"two\""));
}

#[test]
fn json_documents() {
    let mut doc = Document::parse("{\"locals\": {\"a\": 1}}", true).unwrap();
    assert_eq!(doc.get("locals.a").unwrap().as_deref(), Some("1"));
    doc.set("locals.a", "2").unwrap();
    assert_eq!(doc.text(), "{\"locals\": {\"a\": 2}}");
    assert_eq!(
        Document::parse("{", true).err().unwrap().kind,
        ErrorKind::Syntax
    );
}

#[test]
fn json_documents_list_and_append_blocks() {
    let text = r#"{
  "resource": {
    "aws_instance": {
      "web": {"ami": "ami-1", "lifecycle": {"prevent_destroy": true}},
      "db": [{"ami": "ami-2"}]
    }
  },
  "locals": {"region": "eu-west-1"},
  "//": "a comment"
}
"#;
    let mut doc = Document::parse(text, true).unwrap();
    let blocks: Vec<String> = doc
        .blocks("", None)
        .unwrap()
        .into_iter()
        .map(|e| e.address)
        .collect();
    assert_eq!(
        blocks,
        [
            "resource.aws_instance.web",
            "resource.aws_instance.db",
            "locals"
        ]
    );
    let resources = doc.blocks("", Some("resource")).unwrap();
    assert_eq!(resources[1].labels, ["aws_instance", "db"]);
    let inside = doc.attributes("resource.aws_instance.web").unwrap();
    assert_eq!(inside.len(), 1);
    assert_eq!(
        (inside[0].name.as_str(), inside[0].value.as_deref()),
        ("ami", Some("\"ami-1\""))
    );
    let nested = doc.blocks("resource.aws_instance.web", None).unwrap();
    assert_eq!(nested[0].address, "resource.aws_instance.web.lifecycle");
    assert_eq!(
        doc.attributes("locals").unwrap()[0].address,
        "locals.region"
    );
    // An attribute, or a block type without its labels, is no body.
    assert_eq!(
        doc.attributes("locals.region").unwrap_err().kind,
        ErrorKind::Edit
    );
    assert!(doc.blocks("resource.aws_instance", None).is_err());

    doc.append_block("", "output", &["id"]).unwrap();
    assert!(
        doc.text().contains("\"output\": {\"id\": {}}"),
        "{}",
        doc.text()
    );
    doc.set("output.id.value", "aws_instance.web.id").unwrap();
    assert_eq!(
        doc.get("output.id.value").unwrap().as_deref(),
        Some("\"${aws_instance.web.id}\"")
    );
    let err = doc.append_block("", "output", &["id"]).unwrap_err();
    assert!(err.message.contains("already exists"), "{}", err.message);
}

#[test]
fn evaluation_values() {
    let dir = std::env::temp_dir().join("hclwright-bindings-test-eval");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        "variable \"n\" {\n  type = number\n}\nlocals {\n  l = var.n * 2\n}\n",
    )
    .unwrap();
    let d = dir.to_str();
    let vars = [("n".to_string(), Value::Number("21".into()))];
    assert_eq!(
        evaluate("local.l", d, &vars).unwrap(),
        Value::Number("42".into())
    );
    assert_eq!(
        evaluate("123456789012345678901234567890 * 10", d, &vars).unwrap(),
        Value::Number("1234567890123456789012345678900".into())
    );
    assert_eq!(
        evaluate("{a = [true, null, \"x\"]}", d, &vars).unwrap(),
        Value::Map(vec![(
            "a".into(),
            Value::List(vec![
                Value::Bool(true),
                Value::Null,
                Value::String("x".into())
            ])
        )])
    );
    assert_eq!(console("[1]", d, &vars).unwrap(), "[\n  1,\n]");
    let e = evaluate("local.nope", d, &vars).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Eval);
    assert_eq!(e.diagnostics[0].column, 1);
}

#[test]
fn evaluation_is_under_the_default_budget() {
    // About a billion steps: stopped after a million (issue 33).
    let dir = std::env::temp_dir().join("hclwright-bindings-test-budget");
    std::fs::create_dir_all(&dir).unwrap();
    let e = evaluate(
        "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : 1]]])",
        dir.to_str(),
        &[],
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Eval);
    assert!(
        e.to_string()
            .contains("Evaluating this expression took more than 1000000 steps"),
        "{e}"
    );
}

#[test]
fn conversions_refs_rename_bump() {
    let json = to_json("a = 1\nb = \"x\"\n").unwrap();
    assert_eq!(
        json,
        Value::Map(vec![
            ("a".into(), Value::Number("1".into())),
            ("b".into(), Value::String("x".into()))
        ])
    );
    assert_eq!(value_to_hcl(&json).unwrap(), "a = 1\nb = \"x\"\n");
    let found = refs("a = var.x[0]\n").unwrap();
    assert_eq!(
        found,
        [Ref {
            line: 1,
            column: 5,
            traversal: "var.x[0]".into()
        }]
    );
    assert_eq!(
        rename("a = var.x\n", "var.x", "var.y").unwrap(),
        "a = var.y\n"
    );
    let tf = "terraform {\n  required_providers {\n    aws = {\n      version = \"~> 4.0\"\n    }\n  }\n}\n";
    let bumped = bump(tf, Target::Provider("aws".into()), "5.31.0", true, false).unwrap();
    assert!(bumped.contains("\"~> 5.31\""), "{bumped}");
    assert_eq!(
        bump(tf, Target::Terraform, "1.11.4", false, false).unwrap(),
        tf
    );
    assert_eq!(
        bump(tf, Target::Module("x/y/z".into()), "nope", false, false)
            .unwrap_err()
            .kind,
        ErrorKind::Usage
    );
    // A constraint is written as given, as `hclwright bump` does; keeping
    // an operator needs a version.
    let pinned = bump(
        tf,
        Target::Provider("aws".into()),
        ">= 5.0, < 6.0",
        false,
        false,
    )
    .unwrap();
    assert!(pinned.contains("\">= 5.0, < 6.0\""), "{pinned}");
    let e = bump(tf, Target::Provider("aws".into()), "~> 5.0", true, false).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Usage);
    assert!(e.message.contains("needs a version"), "{}", e.message);
    let packer = "packer {\n  required_plugins {\n    amazon = {\n      source  = \"github.com/hashicorp/amazon\"\n      version = \">= 1.2.0\"\n    }\n  }\n}\n";
    let bumped = bump(
        packer,
        Target::Plugin("amazon".into()),
        "1.3.1",
        true,
        false,
    )
    .unwrap();
    assert!(bumped.contains("version = \">= 1.3.1\""), "{bumped}");
    // The JSON syntax.
    let json_tf = r#"{"terraform": {"required_version": "~> 1.5"}}"#;
    assert_eq!(
        bump(json_tf, Target::Terraform, "1.11.4", false, true).unwrap(),
        r#"{"terraform": {"required_version": "1.11.4"}}"#
    );
    assert_eq!(
        bump(json_tf, Target::Terraform, "1.11.4", false, false)
            .unwrap_err()
            .kind,
        ErrorKind::Syntax
    );
}
