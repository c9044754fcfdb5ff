//! Evaluation throughput of hclwright against the `hcl-rs` crate's
//! evaluator, measured in one run on the same expressions.
//!
//! ```text
//! cargo run --release --manifest-path compare/Cargo.toml --bin eval [DIR]
//! ```
//!
//! Takes every `locals` attribute and every variable `default` of the
//! `.tf` files under `DIR` (or `$HCLWRIGHT_CORPUS`, or `fixtures/`). Both
//! evaluators get an empty context (no variables; hcl-rs has no functions,
//! hclwright has Terraform's), and the comparison keeps the expressions
//! both evaluate without an error. Each expression is parsed once before
//! the clock starts, and lowered once: hcl-rs's parser gives an AST with
//! strings decoded and numbers parsed, which its evaluator walks; ours
//! gives a lossless syntax tree, which [`CompiledExpr`] lowers to that
//! kind of form. Then, for `ROUNDS` rounds, one pass of each evaluator
//! over the expressions is timed, alternating which goes first. Reported:
//! each one's best pass as expressions per second, the ratio of the best
//! passes and the median of the rounds' ratios. It also reports
//! hclwright's rate evaluating from the syntax tree (`evaluate`), lowering
//! and evaluating (`CompiledExpr::new` then `evaluate`), and on every
//! expression it evaluates (calls included). Before timing, it checks that
//! the lowered form gives the same value and diagnostics as the tree.
//!
//! Allocation is the system allocator's, as in a library user's program;
//! `--features mimalloc` measures with mimalloc instead.
//!
//! hclwright's target is three times hcl-rs's rate.

use hcl::eval::Evaluate;
use hclwright::ast::{AstNode, Expr};
use hclwright::eval::{CompiledExpr, console_string};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

#[path = "../rounds.rs"]
mod rounds;

#[path = "../../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "rounds are timed here, not with best_of")]
mod corpus;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ROUNDS: usize = 21;
const TARGET_RATIO: f64 = 3.0;

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, _) = corpus::load(&dir);
    let ctx = hclwright::eval::EvalContext::new().with_terraform_functions();
    let hcl_ctx = hcl::eval::Context::new();
    // (our expression, theirs) for every locals attribute and default.
    let mut ours_all: Vec<CompiledExpr> = Vec::new();
    let mut pairs: Vec<(Expr, CompiledExpr, hcl::Expression)> = Vec::new();
    let mut seen = 0usize;
    for (path, text) in &files {
        if path.extension().is_none_or(|e| e != "tf") {
            continue;
        }
        let parse = hclwright::parse(text);
        let Ok(body) = hcl::parse(text) else { continue };
        let Some(our_body) = parse.body() else {
            continue;
        };
        let mut ours: Vec<(String, String, Expr)> = Vec::new();
        for block in our_body.blocks() {
            let Some(b) = block.body() else { continue };
            match block.type_name().as_deref() {
                Some("locals") => {
                    for a in b.attributes() {
                        if let (Some(n), Some(e)) = (a.name(), a.expr()) {
                            ours.push(("locals".into(), n, e));
                        }
                    }
                }
                Some("variable") => {
                    if let Some(e) = b.attribute("default").and_then(|a| a.expr()) {
                        let label = block.labels().next().map(|l| l.value()).unwrap_or_default();
                        ours.push(("variable".into(), label, e));
                    }
                }
                _ => {}
            }
        }
        let mut theirs: Vec<(String, String, hcl::Expression)> = Vec::new();
        for block in body.blocks() {
            match block.identifier() {
                "locals" => {
                    for a in block.body().attributes() {
                        theirs.push(("locals".into(), a.key().to_string(), a.expr().clone()));
                    }
                }
                "variable" => {
                    if let Some(a) = block.body().attributes().find(|a| a.key() == "default") {
                        let label = block
                            .labels()
                            .first()
                            .map(|l| l.as_str().to_string())
                            .unwrap_or_default();
                        theirs.push(("variable".into(), label, a.expr().clone()));
                    }
                }
                _ => {}
            }
        }
        for (kind, name, e) in ours {
            seen += 1;
            if !hclwright::eval::evaluate(&e, &ctx).diagnostics.is_empty() {
                continue;
            }
            ours_all.push(CompiledExpr::new(&e));
            let Some(pos) = theirs.iter().position(|(k, n, _)| *k == kind && *n == name) else {
                continue;
            };
            let (_, _, t) = theirs.swap_remove(pos);
            if t.evaluate(&hcl_ctx).is_ok() {
                let compiled = CompiledExpr::new(&e);
                pairs.push((e, compiled, t));
            }
        }
    }
    println!(
        "{seen} expressions (locals and variable defaults) under {}: hclwright evaluates {}, both evaluate {}; {ROUNDS} rounds\n",
        dir.display(),
        ours_all.len(),
        pairs.len()
    );
    if pairs.is_empty() {
        std::process::exit(1);
    }
    for (e, c, _) in &pairs {
        let (tree, lowered) = (hclwright::eval::evaluate(e, &ctx), c.evaluate(&ctx));
        assert_eq!(
            (console_string(&tree.value), tree.diagnostics.len()),
            (console_string(&lowered.value), lowered.diagnostics.len()),
            "the lowered form of `{e}` disagrees with its tree"
        );
    }
    if let Some(what) = std::env::var_os("HCLWRIGHT_EVAL_PROFILE") {
        // Only our evaluator, many times: for `perf record`. `tree`
        // evaluates from the syntax tree, `new` lowers and evaluates, any
        // other value evaluates the lowered forms.
        for _ in 0..2_000 {
            for (e, c, _) in &pairs {
                match what.to_str() {
                    Some("tree") => {
                        black_box(hclwright::eval::evaluate(black_box(e), &ctx));
                    }
                    Some("new") => {
                        black_box(CompiledExpr::new(black_box(e)).evaluate(&ctx));
                    }
                    _ => {
                        black_box(black_box(c).evaluate(&ctx));
                    }
                }
            }
        }
        return;
    }
    let comparison = rounds::compare(
        ROUNDS,
        || {
            pairs
                .iter()
                .map(|(_, c, _)| black_box(c).evaluate(&ctx).value)
                .collect::<Vec<_>>()
        },
        || {
            pairs
                .iter()
                .map(|(_, _, t)| black_box(t).evaluate(&hcl_ctx).ok())
                .collect::<Vec<_>>()
        },
    );
    let (best_ours, best_theirs) = (comparison.ours, comparison.theirs);
    let n = pairs.len() as f64;
    for (name, t) in [
        ("CompiledExpr::evaluate", best_ours),
        ("hcl::eval::Evaluate", best_theirs),
    ] {
        println!(
            "{name:<28} {:>8.3} ms {:>12.0} expressions/s",
            t.as_secs_f64() * 1e3,
            n / t.as_secs_f64()
        );
    }
    let best_of_5 = |f: &mut dyn FnMut() -> Vec<hclwright::eval::Value>| {
        (0..5)
            .map(|_| rounds::time(&mut *f))
            .min()
            .unwrap_or(Duration::MAX)
    };
    let tree = best_of_5(&mut || {
        pairs
            .iter()
            .map(|(e, _, _)| hclwright::eval::evaluate(black_box(e), &ctx).value)
            .collect()
    });
    let lowering = best_of_5(&mut || {
        pairs
            .iter()
            .map(|(e, _, _)| CompiledExpr::new(black_box(e)).evaluate(&ctx).value)
            .collect()
    });
    // The same expressions, each parsed again alone: its tree is small
    // and its nodes sit together in memory, as hcl-rs's copied
    // expressions do, rather than spread through their files' trees.
    let alone_parses: Vec<_> = pairs
        .iter()
        .map(|(e, _, _)| hclwright::parse_expr(&e.to_string()))
        .collect();
    let alone: Vec<Expr> = alone_parses
        .iter()
        .filter_map(|p| p.syntax().descendants().find_map(Expr::cast))
        .collect();
    let tree_alone = best_of_5(&mut || {
        alone
            .iter()
            .map(|e| hclwright::eval::evaluate(black_box(e), &ctx).value)
            .collect()
    });
    for (name, t) in [
        ("evaluate (from the tree)", tree),
        ("CompiledExpr::new+evaluate", lowering),
        ("evaluate (trees alone)", tree_alone),
    ] {
        println!(
            "{name:<28} {:>8.3} ms {:>12.0} expressions/s ({:.2}x hcl-rs)",
            t.as_secs_f64() * 1e3,
            n / t.as_secs_f64(),
            best_theirs.as_secs_f64() / t.as_secs_f64()
        );
    }
    let all = (0..5)
        .map(|_| {
            rounds::time(|| {
                ours_all
                    .iter()
                    .map(|c| black_box(c).evaluate(&ctx).value)
                    .collect::<Vec<_>>()
            })
        })
        .min()
        .unwrap_or(Duration::MAX);
    println!(
        "hclwright on all {} it evaluates (calls included): {:.0} expressions/s",
        ours_all.len(),
        ours_all.len() as f64 / all.as_secs_f64()
    );
    println!("\n{}", comparison.verdict(TARGET_RATIO));
}
