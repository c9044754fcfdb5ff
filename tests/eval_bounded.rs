//! Evaluation never panics and never overflows the stack: every
//! expression of the corpus (when `HCLWRIGHT_CORPUS` is set), every module
//! folder of the corpus, and deeply nested input.

mod common;

use hclwright::ast::{AstNode, Expr};
use hclwright::eval::{CompiledExpr, EvalContext, Module, ModuleInputs, evaluate, evaluate_str};

#[test]
fn every_corpus_expression_evaluates_without_panicking() {
    let Some(dir) = common::corpus("the evaluation corpus test") else {
        return;
    };
    let ctx = EvalContext::new().with_terraform_functions();
    let mut evaluated = 0usize;
    let mut folders = std::collections::BTreeSet::new();
    for rel in common::corpus_files(&dir) {
        let path = dir.join(&rel);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if rel.extension().is_some_and(|e| e == "tf") {
            folders.insert(path.parent().unwrap().to_path_buf());
        }
        let parse = hclwright::parse(&text);
        for node in parse.syntax().descendants() {
            // The outermost expressions: attribute values.
            if node.kind() != hclwright::SyntaxKind::ATTRIBUTE {
                continue;
            }
            let Some(expr) = node.children().find_map(Expr::cast) else {
                continue;
            };
            let result = evaluate(&expr, &ctx);
            common::same_lowered(&expr, &ctx);
            for d in &result.diagnostics {
                // Every diagnostic points inside the file.
                assert!(
                    usize::from(d.range.end()) <= text.len(),
                    "{}: {d:?}",
                    rel.display()
                );
                let _ = d.render(&rel.display().to_string(), &text);
            }
            evaluated += 1;
        }
    }
    for folder in &folders {
        let module = Module::load(folder, &ModuleInputs::default(), ctx.clone());
        for d in &module.diagnostics {
            let _ = d.render();
        }
    }
    eprintln!(
        "evaluated {evaluated} expressions and {} module folders",
        folders.len()
    );
    assert!(evaluated > 10_000);
}

#[test]
fn deep_nesting_evaluates_on_a_small_stack() {
    let depth = 20_000;
    let parens = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
    let tuples = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let templates = format!(
        "{}\"x\"{}",
        "\"${".repeat(depth / 4),
        "}\"".repeat(depth / 4)
    );
    let negations = format!("{}1", "-".repeat(depth));
    let sums = format!("1{}", " + 1".repeat(depth));
    // A thread with a small stack: growth comes from the evaluator itself.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let ctx = EvalContext::new();
            assert_eq!(
                evaluate_str(&parens, &ctx).unwrap().to_string_for_test(),
                "1"
            );
            assert!(evaluate_str(&templates, &ctx).is_ok());
            assert!(evaluate_str(&negations, &ctx).is_ok());
            assert!(evaluate_str(&sums, &ctx).is_ok());
            // Lowering recurses with the same guard.
            for text in [&parens, &templates, &negations, &sums] {
                let parse = hclwright::parse_expr(text);
                let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
                let lowered = CompiledExpr::new(&expr).evaluate(&ctx);
                assert!(lowered.diagnostics.is_empty());
            }
        })
        .unwrap()
        .join()
        .unwrap();
    // A value nested 20 000 deep is itself deep: its type, printing and
    // freeing recurse, so it gets the stack the command-line tool runs on.
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || {
            let v = evaluate_str(&tuples, &EvalContext::new()).unwrap();
            assert!(hclwright::eval::console_string(&v).len() > 20_000);
            let parse = hclwright::parse_expr(&tuples);
            let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
            let lowered = CompiledExpr::new(&expr).evaluate(&EvalContext::new());
            assert_eq!(
                hclwright::eval::console_string(&lowered.value),
                hclwright::eval::console_string(&v)
            );
        })
        .unwrap()
        .join()
        .unwrap();
}

trait Show {
    fn to_string_for_test(&self) -> String;
}

impl Show for hclwright::eval::Value {
    fn to_string_for_test(&self) -> String {
        hclwright::eval::console_string(self)
    }
}
