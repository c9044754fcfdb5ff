//! Every expression of `fixtures/eval/console/cases.txt`,
//! `fixtures/eval/functions/cases.txt` and `fixtures/eval/yaml/cases.txt`
//! evaluated as
//! `terraform console` evaluated it (its output recorded in golden.jsonl
//! by scripts/eval-goldens/record.py): the same text for a value, an
//! error where terraform gave one.

mod common;

use hclwright::ast::AstNode;
use hclwright::eval::{EvalContext, console_string, evaluate_str};

struct Case {
    expr: String,
    ok: bool,
    stdout: String,
}

fn case(line: &str) -> Case {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    Case {
        expr: v["expr"].as_str().unwrap().to_string(),
        ok: v["ok"].as_bool().unwrap(),
        stdout: v["stdout"].as_str().unwrap().to_string(),
    }
}

/// Expressions whose result is known to differ, with why. Each must
/// still differ (so a fix removes it from here).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "base64gzip(\"the quick brown fox jumps over the lazy dog; the quick brown fox jumps over the lazy dog again and again, hello hello hello\")",
    "Go's own deflate encoder chooses other Huffman codes than zlib's once the input has repeats; the data decompresses the same",
)];

/// The recorded cases of every golden file, one JSON object per line.
fn golden() -> String {
    [
        "fixtures/eval/console/golden.jsonl",
        "fixtures/eval/functions/golden.jsonl",
        "fixtures/eval/yaml/golden.jsonl",
    ]
    .map(|p| std::fs::read_to_string(p).unwrap())
    .join("\n")
}

#[test]
fn matches_terraform_console() {
    let golden = golden();
    let ctx = EvalContext::new().with_terraform_functions();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in golden.lines().filter(|l| !l.is_empty()) {
        let case = case(line);
        count += 1;
        if KNOWN_DIFFERENCES.iter().any(|(e, _)| *e == case.expr) {
            let ours = evaluate_str(&case.expr, &ctx).map(|v| console_string(&v));
            assert_ne!(
                ours.as_deref().ok(),
                Some(case.stdout.as_str()),
                "{} now matches: remove it from KNOWN_DIFFERENCES",
                case.expr
            );
            continue;
        }
        let ours = evaluate_str(&case.expr, &ctx);
        match (case.ok, ours) {
            (true, Ok(v)) => {
                let shown = console_string(&v);
                if shown != case.stdout {
                    failures.push(format!(
                        "{}\n  terraform: {:?}\n  hclwright: {:?}",
                        case.expr, case.stdout, shown
                    ));
                }
            }
            (true, Err(ds)) => failures.push(format!(
                "{}\n  terraform: {:?}\n  hclwright error: {}",
                case.expr,
                case.stdout,
                ds[0].message()
            )),
            (false, Ok(v)) => failures.push(format!(
                "{}\n  terraform: error\n  hclwright: {:?}",
                case.expr,
                console_string(&v)
            )),
            (false, Err(_)) => {}
        }
    }
    assert!(count > 250, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every golden expression gives the same value and the same diagnostics
/// (message and range) lowered (`CompiledExpr`) as from its tree.
#[test]
fn lowered_expressions_agree_with_the_tree() {
    let golden = golden();
    let ctx = EvalContext::new().with_terraform_functions();
    let mut compared = 0;
    for line in golden.lines().filter(|l| !l.is_empty()) {
        let case = case(line);
        let parse = hclwright::parse_expr(&case.expr);
        let Some(expr) = parse
            .syntax()
            .descendants()
            .find_map(hclwright::ast::Expr::cast)
        else {
            continue;
        };
        if common::same_lowered(&expr, &ctx) {
            compared += 1;
        }
    }
    assert!(compared > 600, "{compared}");
}
