//! The information model over both syntaxes: the JSON syntax
//! specification's examples read with the schema it gives for each, their
//! native equivalents, and the diagnostics for what a schema does not
//! allow. Snapshots show the content found.

use hclwright::eval::{EvalContext, console_string};
use hclwright::model::{Body, Content, Schema};

fn schema_for(name: &str) -> Schema {
    if name.starts_with("spec_attribute") {
        Schema::new().attribute("foo")
    } else if name.starts_with("spec_two_labels") {
        Schema::new().block("foo", &["bar", "baz"])
    } else if name.starts_with("errors") {
        Schema::new()
            .attribute("foo")
            .required_attribute("needed")
            .block("bar", &[])
            .block("baz", &[])
    } else {
        Schema::new().block("foo", &[])
    }
}

/// The content, one line per attribute and block (with the block's own
/// attributes, read with `just_attributes`), values evaluated.
fn show(content: &Content, text: &str, out: &mut String) {
    let ctx = EvalContext::new();
    for (name, attr) in &content.attributes {
        let v = attr.expr.evaluate(&ctx);
        out.push_str(&format!(
            "attribute {name} = {}\n",
            console_string(&v.value)
        ));
    }
    for block in &content.blocks {
        out.push_str(&format!("block {} {:?}\n", block.type_name, block.labels));
        let (attrs, diagnostics) = block.body.just_attributes();
        for (name, attr) in attrs {
            let v = attr.expr.evaluate(&ctx);
            out.push_str(&format!(
                "  attribute {name} = {}\n",
                console_string(&v.value)
            ));
        }
        for d in diagnostics {
            out.push_str(&format!("  {}", d.render("body", text)));
        }
    }
}

#[test]
fn bodies_read_with_a_schema() {
    insta::glob!("../fixtures/model", "*.{json,hcl}", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let schema = schema_for(&name);
        let json;
        let native = hclwright::parse(if name.ends_with(".hcl") { &text } else { "" });
        let body = if name.ends_with(".json") {
            json = hclwright::json::parse(&text);
            assert!(json.errors().is_empty(), "{name}");
            Body::from_json(&json)
        } else {
            Body::from_native(&native)
        };
        let (content, diagnostics) = body.content(&schema);
        let mut out = String::new();
        if name.ends_with(".hcl") {
            // The native parser itself reports redefined attributes.
            for e in native.errors() {
                out.push_str(&format!("syntax: {}", e.render(&name, &text)));
            }
        }
        show(&content, &text, &mut out);
        for d in diagnostics {
            out.push_str(&d.render(&name, &text));
        }
        insta::assert_snapshot!(out);
    });
}

#[test]
fn partial_content_leaves_the_rest() {
    for (json, text) in [
        (true, r#"{"a": 1, "b": {"x": {"c": 2}}, "d": 3}"#),
        (false, "a = 1\nb \"x\" {\n  c = 2\n}\nd = 3\n"),
    ] {
        let (jp, np);
        let body = if json {
            jp = hclwright::json::parse(text);
            Body::from_json(&jp)
        } else {
            np = hclwright::parse(text);
            Body::from_native(&np)
        };
        let (content, rest, diagnostics) = body.partial_content(&Schema::new().attribute("a"));
        assert!(diagnostics.is_empty());
        assert_eq!(content.attributes.keys().collect::<Vec<_>>(), ["a"]);
        let (content, diagnostics) =
            rest.content(&Schema::new().attribute("d").block("b", &["name"]));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(content.attributes.keys().collect::<Vec<_>>(), ["d"]);
        assert_eq!(content.blocks[0].labels, ["x"]);
        // The first schema's names are gone from the rest.
        let (_, diagnostics) = rest.content(
            &Schema::new()
                .attribute("d")
                .block("b", &["name"])
                .attribute("a"),
        );
        assert!(diagnostics.is_empty());
        let (attrs, _) = rest
            .partial_content(&Schema::new().block("b", &["name"]))
            .1
            .just_attributes();
        assert_eq!(attrs.keys().collect::<Vec<_>>(), ["d"], "json: {json}");
    }
}

#[test]
fn json_strings_give_traversals_and_variables() {
    let text = r#"{"depends_on": ["aws_s3_bucket.b[0]"], "provider": "aws.west", "v": "${var.a} ${[for x in local.xs : x]}"}"#;
    let parse = hclwright::json::parse(text);
    let (attrs, _) = Body::from_json(&parse).just_attributes();
    let provider = attrs["provider"].expr.abs_traversal().unwrap();
    assert_eq!(provider.to_string(), "aws.west");
    let at = usize::from(provider.root_range.start());
    assert_eq!(&text[at..at + 3], "aws");
    let vars: Vec<String> = attrs["v"]
        .expr
        .variables()
        .iter()
        .map(|t| t.to_string())
        .collect();
    assert_eq!(vars, ["var.a", "local.xs"]);
    assert!(attrs["v"].expr.abs_traversal().is_none());
}

#[test]
fn serde_decodes_both_syntaxes_the_same_and_places_errors() {
    use std::collections::BTreeMap;
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Service {
        port: u16,
        tags: Vec<String>,
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Config {
        service: BTreeMap<String, Service>,
    }
    let ctx = EvalContext::new();
    let native: Config = hclwright::eval::decode_str(
        "service \"web\" {\n  port = 443\n  tags = [\"a\"]\n}\nservice \"db\" {\n  port = 5432\n  tags = []\n}\n",
        &ctx,
    )
    .unwrap();
    let json: Config = hclwright::eval::decode_json_str(
        r#"{"service": {"web": {"port": 443, "tags": ["a"]}, "db": {"//": "note", "port": "${5000 + 432}", "tags": []}}}"#,
        &ctx,
    )
    .unwrap();
    assert_eq!(native, json);
    let text = "{\n  \"service\": {\"web\": {\"port\": \"x\", \"tags\": []}}\n}\n";
    let err = hclwright::eval::decode_json_str::<Config>(text, &ctx).unwrap_err();
    let shown = err.render("c.tf.json", text);
    assert!(shown.starts_with("c.tf.json:2:31: "), "{shown}");
}

/// `Body::attribute` takes what reading the body with a schema of that one
/// attribute takes: the first of duplicates, none without a value, none
/// for a name a partial read has taken away, and blocks of that name are
/// not attributes.
#[test]
fn one_attribute_is_what_a_schema_of_it_reads() {
    let text = "a = 1\na = 2\nb =\nc = 3\nb = 4\nd {\n}\nd = \"x\"\ne = [1]\n";
    let parse = hclwright::parse(text);
    let body = Body::from_native(&parse);
    let (_, rest, _) = body.partial_content(&Schema::new().attribute("e"));
    let ctx = EvalContext::new();
    let show = |a: Option<hclwright::model::Attribute>| {
        a.map(|a| {
            let v = console_string(&a.expr.evaluate(&ctx).value);
            format!("{} {:?} {:?} = {v}", a.name, a.name_range, a.range)
        })
    };
    let mut seen = 0;
    for body in [&body, &rest] {
        for name in ["a", "b", "c", "d", "e", "f"] {
            let (mut content, _, _) = body.partial_content(&Schema::new().attribute(name));
            let read = show(content.attributes.remove(name));
            seen += usize::from(read.is_some());
            assert_eq!(show(body.attribute(name)), read, "{name}");
        }
    }
    // a, b, c, d and e in the body; e is gone from the rest.
    assert_eq!(seen, 9);
}
