//! The JSON syntax's tree: fixtures (valid ones parse cleanly, broken ones
//! report positioned errors and still give a tree), losslessness on any
//! input, and nesting far beyond what a recursive parser could take on a
//! small stack. Validity verdicts agree with terraform (see
//! `fixtures/json/README.md`).

mod common;

use std::fs;

use proptest::prelude::*;

#[test]
fn ok_fixtures_parse_cleanly() {
    insta::glob!("../fixtures/json/ok", "*.json", |path| {
        let text = fs::read_to_string(path).unwrap();
        let parse = hclwright::json::parse(&text);
        assert_eq!(parse.syntax().to_string(), text, "lossless: {path:?}");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            parse.errors().is_empty(),
            "{name} should parse without errors:\n{}",
            common::render_errors(&name, &text, parse.errors())
        );
        assert!(hclwright::json::syntax_errors(&text).is_empty());
        insta::assert_snapshot!(parse.debug_tree());
    });
}

#[test]
fn err_fixtures_report_errors() {
    insta::glob!("../fixtures/json/err", "*.json", |path| {
        let text = fs::read_to_string(path).unwrap();
        let parse = hclwright::json::parse(&text);
        assert_eq!(parse.syntax().to_string(), text, "lossless: {path:?}");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(!parse.errors().is_empty(), "{name} should have errors");
        assert_eq!(hclwright::json::syntax_errors(&text), parse.errors());
        for e in parse.errors() {
            assert!(usize::from(e.range.end()) <= text.len());
            assert!(e.line >= 1 && e.column >= 1);
        }
        let snapshot = format!(
            "{}\n{}",
            common::render_errors(&name, &text, parse.errors()),
            parse.debug_tree()
        );
        insta::assert_snapshot!(snapshot);
    });
}

#[test]
fn deep_nesting_parses_and_frees_on_a_small_stack() {
    let run = || {
        for depth in [10_000usize, 100_000, 100_001, 300_000] {
            let text = format!(
                "{{\"a\": {}1{}}}",
                "[".repeat(depth - 1),
                "]".repeat(depth - 1)
            );
            let parse = hclwright::json::parse(&text);
            assert_eq!(parse.syntax().to_string(), text);
            let too_deep = parse
                .errors()
                .iter()
                .any(|e| e.message.contains("nesting is too deep"));
            assert_eq!(too_deep, depth > hclwright::MAX_DEPTH as usize, "{depth}");
            assert!(
                parse.errors().len() <= 1,
                "{depth}: {:?}",
                &parse.errors()[..2]
            );
            let objects = format!("{}{}", "{\"a\":".repeat(depth), "}".repeat(depth));
            let parse = hclwright::json::parse(&objects);
            assert_eq!(parse.syntax().to_string(), objects);
        }
    };
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn recovery_keeps_later_members() {
    let text = "{\"a\": [1 2, \"b\": tru, c: 3, \"d\": {\"e\": 4}}";
    let parse = hclwright::json::parse(text);
    assert!(!parse.errors().is_empty());
    let root = parse.root().unwrap();
    let object = root.as_object().unwrap();
    let names: Vec<_> = object.members().map(|m| m.name()).collect();
    assert!(names.contains(&Some("d".to_string())), "{names:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_text_prints_back(text in r#"[\{\}\[\]:,="\\a-z0-9 \n\r\t./*é+-]{0,60}"#) {
        let parse = hclwright::json::parse(&text);
        prop_assert_eq!(parse.syntax().to_string(), text.clone());
        prop_assert_eq!(hclwright::json::syntax_errors(&text), parse.errors());
        for e in parse.errors() {
            prop_assert!(usize::from(e.range.end()) <= text.len());
        }
    }

    #[test]
    fn valid_json_parses_cleanly(value in json_value(4)) {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "v": value })).unwrap();
        let parse = hclwright::json::parse(&text);
        prop_assert!(parse.errors().is_empty(), "{}: {:?}", text, parse.errors());
        prop_assert_eq!(parse.syntax().to_string(), text);
    }
}

fn json_value(depth: u32) -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| serde_json::json!(f)),
        any::<String>().prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(depth, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The value of a JSON tree as `serde_json` would give it, read through
/// the typed views (so the views are checked too).
fn to_serde(value: &hclwright::json::JsonValue) -> serde_json::Value {
    use hclwright::json::JsonValue;
    match value {
        JsonValue::Object(o) => serde_json::Value::Object(
            o.members()
                .map(|m| (m.name().unwrap(), to_serde(&m.value().unwrap())))
                .collect(),
        ),
        JsonValue::Array(a) => {
            serde_json::Value::Array(a.elements().map(|e| to_serde(&e)).collect())
        }
        JsonValue::String(_) => serde_json::Value::String(value.as_str().unwrap().into_owned()),
        JsonValue::Number(t) => serde_json::from_str(t.text()).unwrap(),
        JsonValue::Bool(_) => serde_json::Value::Bool(value.as_bool().unwrap()),
        JsonValue::Null(_) => serde_json::Value::Null,
        JsonValue::Invalid(t) => panic!("invalid value {t}"),
    }
}

/// Parses `text` and checks it against `serde_json`: no errors, lossless,
/// the same value.
fn agrees_with_serde(name: &str, text: &str) {
    let parse = hclwright::json::parse(text);
    assert_eq!(parse.syntax().to_string(), text, "{name}");
    assert!(parse.errors().is_empty(), "{name}: {:?}", parse.errors());
    let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(to_serde(&parse.root().unwrap()), theirs, "{name}");
}

#[test]
fn converted_fixtures_agree_with_serde_json() {
    let mut count = 0;
    for entry in fs::read_dir("fixtures/convert").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            agrees_with_serde(
                &path.display().to_string(),
                &fs::read_to_string(&path).unwrap(),
            );
            count += 1;
        }
    }
    assert!(count >= 3);
}

/// Every valid corpus file converted to JSON (compact and indented) parses
/// cleanly, prints back, and reads as `serde_json` reads it.
#[test]
fn corpus_converted_to_json_parses_as_serde_json_does() {
    let Some(dir) = common::corpus("the JSON corpus test") else {
        return;
    };
    let invalid = common::invalid_files(&dir);
    let mut count = 0;
    for rel in common::corpus_files(&dir) {
        let key = rel.to_string_lossy().replace('\\', "/");
        if invalid.contains(&key) {
            continue;
        }
        let Ok(text) = fs::read_to_string(dir.join(&rel)) else {
            continue;
        };
        let Ok(value) = hclwright::convert::to_json_value(&text) else {
            continue;
        };
        agrees_with_serde(&key, &hclwright::convert::write_indented(&value, "  "));
        agrees_with_serde(&key, &serde_json::to_string(&value).unwrap());
        count += 1;
    }
    assert!(count > 2000, "{count}");
}
