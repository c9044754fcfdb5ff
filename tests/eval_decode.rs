//! Decoding real-world files with serde (`eval::decode_str`): only the
//! attributes the target type asks for are evaluated, self-describing
//! targets (`serde_json::Value`) receive values, and values serialize.

mod common;

use hclwright::eval::{EvalContext, Value, decode_str, evaluate_str};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize, Debug)]
struct File {
    #[serde(default)]
    variable: BTreeMap<String, Var>,
}

#[derive(Deserialize, Debug)]
struct Var {
    description: Option<String>,
    default: Option<serde_json::Value>,
}

const FLOW_LOG: &str = include_str!("../fixtures/decode/flow-log-variables.tf");

#[test]
fn a_real_variables_file_decodes_without_its_type_constraints() {
    let file: File = decode_str(FLOW_LOG, &EvalContext::new()).unwrap_or_else(|e| {
        panic!("{}", e.render("flow-log-variables.tf", FLOW_LOG));
    });
    assert_eq!(file.variable.len(), 35);
    let create = &file.variable["create"];
    assert_eq!(create.default, Some(serde_json::json!(true)));
    assert_eq!(
        create.description.as_deref(),
        Some("Determines whether resources will be created (affects all resources)")
    );
    assert_eq!(file.variable["region"].default, None);
    assert_eq!(file.variable["tags"].default, Some(serde_json::json!({})));
    assert_eq!(file.variable["name"].default, Some(serde_json::json!("")));
    assert!(file.variable.values().all(|v| v.description.is_some()));
}

#[test]
fn a_struct_that_asks_for_type_still_gets_the_errors() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Typed {
        variable: BTreeMap<String, TypedVar>,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct TypedVar {
        r#type: Option<serde_json::Value>,
    }
    let err = decode_str::<Typed>(FLOW_LOG, &EvalContext::new()).unwrap_err();
    // Every variable's `type` fails (it refers to `string`, `bool`, …,
    // calls `object(…)`): the problems of all of them are reported, not
    // only the first.
    assert!(err.diagnostics.len() >= 35, "{err}");
    let shown = err.render("flow-log-variables.tf", FLOW_LOG);
    assert!(
        shown.contains("flow-log-variables.tf:3:17: Unknown variable"),
        "{shown}"
    );
}

#[test]
fn self_describing_targets_receive_every_value() {
    let text = "name = \"web\"\nports = [80, 443]\nratio = 0.5\nnothing = null\nservice \"a\" {\n  port = 1 + 1\n}\nlifecycle {\n  x = true\n}\n";
    let value: serde_json::Value = decode_str(text, &EvalContext::new()).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "name": "web",
            "ports": [80, 443],
            "ratio": 0.5,
            "nothing": null,
            "service": {"a": {"port": 2}},
            "lifecycle": {"x": true},
        })
    );
    // A map takes every attribute, so every one is evaluated.
    let err =
        decode_str::<BTreeMap<String, serde_json::Value>>("a = 1\nb = nope\n", &EvalContext::new())
            .unwrap_err();
    assert!(err.to_string().contains("Unknown variable"), "{err}");
}

#[test]
fn flattened_fields_take_the_rest() {
    #[derive(Deserialize, Debug)]
    struct Config {
        name: String,
        #[serde(flatten)]
        rest: BTreeMap<String, serde_json::Value>,
    }
    let config: Config = decode_str(
        "name = \"x\"\ncount = 1 + 2\ntags = { a = \"b\" }\n",
        &EvalContext::new(),
    )
    .unwrap();
    assert_eq!(config.name, "x");
    assert_eq!(config.rest["count"], serde_json::json!(3));
    assert_eq!(config.rest["tags"], serde_json::json!({"a": "b"}));
}

#[test]
fn values_serialize() {
    let v = evaluate_str(
        "{ a = [1, 2.5, \"x\"], b = [\"q\"], c = { n = null }, big = 18446744073709551615 }",
        &EvalContext::new(),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&v).unwrap(),
        serde_json::json!({"a": [1, 2.5, "x"], "b": ["q"], "c": {"n": null}, "big": 18446744073709551615u64})
    );
    assert!(serde_json::to_string(&Value::Unknown(hclwright::eval::Type::Number)).is_err());
}

/// Every `variables.tf` of the corpus decodes into `File`, with as many
/// entries as `variable` blocks.
#[test]
fn corpus_variables_files_decode() {
    let Some(corpus) = common::corpus("decoding the corpus' variables.tf files") else {
        return;
    };
    let mut files = 0;
    let mut variables = 0;
    for relative in common::corpus_files(&corpus) {
        if relative.file_name().is_none_or(|n| n != "variables.tf") {
            continue;
        }
        let path = corpus.join(relative);
        let text = std::fs::read_to_string(&path).unwrap();
        if !hclwright::syntax_errors(&text).is_empty() {
            continue;
        }
        let file: File = decode_str(&text, &EvalContext::new()).unwrap_or_else(|e| {
            panic!("{}", e.render(&path.display().to_string(), &text));
        });
        let blocks = hclwright::parse(&text)
            .body()
            .unwrap()
            .blocks()
            .filter(|b| b.type_name().as_deref() == Some("variable"))
            .count();
        assert_eq!(file.variable.len(), blocks, "{}", path.display());
        files += 1;
        variables += blocks;
    }
    assert!(
        files > 10 && variables > 500,
        "{files} files, {variables} variables"
    );
}
