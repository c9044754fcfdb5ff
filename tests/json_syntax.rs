//! The JSON syntax's tree: fixtures (valid ones parse cleanly, broken ones
//! report positioned errors and still give a tree), losslessness on any
//! input, and nesting far beyond what a recursive parser could take on a
//! small stack. Validity verdicts agree with terraform (see
//! `fixtures/json/README.md`).

use std::fs;

use proptest::prelude::*;

fn render_errors(name: &str, text: &str, parse: &hclwright::json::JsonParse) -> String {
    parse
        .errors()
        .iter()
        .map(|e| e.render(name, text))
        .collect::<String>()
}

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
            render_errors(&name, &text, &parse)
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
            render_errors(&name, &text, &parse),
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
