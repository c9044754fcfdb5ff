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
//! kind of form. Before timing, it checks that the lowered form gives the
//! same value and diagnostics as the tree.
//!
//! Four comparisons follow, each over `ROUNDS` rounds of one pass of each
//! side (a pass evaluates every expression `REPEAT` times, dropping each
//! result as it comes), alternating which goes first; each reports both sides' best
//! pass, the ratio of the best passes and the median and range of the
//! rounds' ratios:
//!
//! 1. `CompiledExpr::evaluate` (lowered once) against hcl-rs evaluating
//!    its expressions copied out of their bodies. Target: 3×.
//! 2. `evaluate` from each file's syntax tree against hcl-rs evaluating
//!    each expression where its parser put it, in its file's body: both
//!    read expressions spread through their files' parses, as a program
//!    evaluating a module does. Target: 1×.
//! 3. `evaluate` from each expression parsed again alone (a small tree
//!    whose nodes sit together) against hcl-rs's copies. Target: 1×.
//! 4. `CompiledExpr::new` then `evaluate` each time, against the copies.
//!
//! Then hclwright's rate on every expression it evaluates (calls included).
//! `HCLWRIGHT_EVAL_PROFILE=kinds` prints, instead, the time by kind of
//! expression (literal, string, object, …) of each side; `tree`, `alone`,
//! `new`, `compiled` and `theirs` run one side many times for `perf`;
//! `HCLWRIGHT_EVAL_KIND=TUPLE` (a syntax kind) keeps to that kind.
//!
//! Allocation is the system allocator's, as in a library user's program;
//! `--features mimalloc` measures with mimalloc instead.

use hcl::eval::Evaluate;
use hclwright::ast::{AstNode, Expr};
use hclwright::eval::{CompiledExpr, console_string};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

#[path = "../build_profile.rs"]
mod build_profile;

#[path = "../rounds.rs"]
mod rounds;

#[path = "../../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "rounds are timed here, not with best_of")]
mod corpus;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ROUNDS: usize = 21;
/// Each timed pass evaluates every expression this many times, so that a
/// pass lasts milliseconds rather than a fraction of one (passes of under
/// half a millisecond gave round ratios from 0.5x to 1.4x).
const REPEAT: usize = 10;

/// `pass`, `REPEAT` times over, as one timed pass.
fn repeat(mut pass: impl FnMut()) -> impl FnMut() {
    move || (0..REPEAT).for_each(|_| pass())
}

/// `f` on every item, each result dropped as it comes, inside the timed
/// pass: as a program that uses a value and moves on pays it. (Results
/// kept in a vector until the pass ends, and freed after the clock
/// stopped, measured the C allocator's handling of that vector instead:
/// glibc gave the heap's top back to the system between passes and the
/// next pass paid for the pages again, or not, by accident of the heap.)
fn each<T, R>(items: &[T], f: impl Fn(&T) -> R) {
    for item in items {
        drop(black_box(f(item)));
    }
}
const TARGET_RATIO: f64 = 3.0;
/// Evaluating from the syntax tree: at least hcl-rs's rate.
const TREE_TARGET_RATIO: f64 = 1.0;

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, _) = corpus::load(&dir);
    let ctx = hclwright::eval::EvalContext::new().with_terraform_functions();
    let hcl_ctx = hcl::eval::Context::new();
    // (our expression, theirs) for every locals attribute and default.
    let mut ours_all: Vec<CompiledExpr> = Vec::new();
    let mut pairs: Vec<(Expr, CompiledExpr, hcl::Expression)> = Vec::new();
    // hcl-rs's expressions where its parser put them, in their files'
    // bodies (as ours are in their files' trees).
    let hcl_bodies: Vec<Option<hcl::Body>> = files
        .iter()
        .map(|(path, text)| {
            path.extension()
                .is_some_and(|e| e == "tf")
                .then(|| hcl::parse(text).ok())
                .flatten()
        })
        .collect();
    let mut in_place: Vec<&hcl::Expression> = Vec::new();
    let mut seen = 0usize;
    for ((path, text), hcl_body) in files.iter().zip(&hcl_bodies) {
        if path.extension().is_none_or(|e| e != "tf") {
            continue;
        }
        let parse = hclwright::parse(text);
        let Some(body) = hcl_body else { continue };
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
        let mut theirs: Vec<(String, String, &hcl::Expression)> = Vec::new();
        for block in body.blocks() {
            match block.identifier() {
                "locals" => {
                    for a in block.body().attributes() {
                        theirs.push(("locals".into(), a.key().to_string(), a.expr()));
                    }
                }
                "variable" => {
                    if let Some(a) = block.body().attributes().find(|a| a.key() == "default") {
                        let label = block
                            .labels()
                            .first()
                            .map(|l| l.as_str().to_string())
                            .unwrap_or_default();
                        theirs.push(("variable".into(), label, a.expr()));
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
                pairs.push((e, compiled, t.clone()));
                in_place.push(t);
            }
        }
    }
    println!("{}", build_profile::describe());
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
    assert_eq!(alone.len(), pairs.len());
    if let Some(what) = std::env::var_os("HCLWRIGHT_EVAL_PROFILE") {
        // `HCLWRIGHT_EVAL_KIND=TUPLE` (a syntax kind) profiles that kind only.
        let kind = std::env::var("HCLWRIGHT_EVAL_KIND").ok();
        let keep = |e: &Expr| {
            kind.as_deref()
                .is_none_or(|k| format!("{:?}", e.syntax().kind()) == k)
        };
        let (pairs, alone): (Vec<_>, Vec<_>) = pairs
            .into_iter()
            .zip(alone)
            .filter(|(_, e)| keep(e))
            .unzip();
        profile(&what.to_string_lossy(), &pairs, &alone, &ctx, &hcl_ctx);
        return;
    }
    let n = (pairs.len() * REPEAT) as f64;
    let rate = |t: Duration| n / t.as_secs_f64();
    let ms = |t: Duration| t.as_secs_f64() * 1e3;
    let from_tree = |e: &Expr| hclwright::eval::evaluate(black_box(e), &ctx).value;
    let theirs_copied = |t: &hcl::Expression| black_box(t).evaluate(&hcl_ctx).ok();
    // hcl-rs over its copies: the other side of comparisons 1, 3 and 4.
    let theirs = || each(&pairs, |(_, _, t)| theirs_copied(t));
    let report = |names: [&str; 2], c: &rounds::Comparison, target: f64| {
        for (name, t) in names.into_iter().zip([c.ours, c.theirs]) {
            println!(
                "{name:<28} {:>8.3} ms {:>12.0} expressions/s",
                ms(t),
                rate(t)
            );
        }
        println!("{}\n", c.verdict(target));
    };

    println!(
        "1. CompiledExpr::evaluate (lowered once) against hcl-rs (expressions copied out of their bodies)"
    );
    let compiled = rounds::compare(
        ROUNDS,
        repeat(|| each(&pairs, |(_, c, _)| black_box(c).evaluate(&ctx).value)),
        repeat(theirs),
    );
    report(
        ["CompiledExpr::evaluate", "hcl::eval::Evaluate"],
        &compiled,
        TARGET_RATIO,
    );

    println!(
        "2. evaluate from each file's syntax tree against hcl-rs evaluating each expression in its file's body"
    );
    let in_file = rounds::compare(
        ROUNDS,
        repeat(|| each(&pairs, |(e, _, _)| from_tree(e))),
        repeat(|| each(&in_place, |t| black_box(*t).evaluate(&hcl_ctx).ok())),
    );
    report(
        ["evaluate (file trees)", "hcl-rs (file bodies)"],
        &in_file,
        TREE_TARGET_RATIO,
    );

    println!("3. evaluate from each expression's tree parsed alone against hcl-rs's copies");
    let compact = rounds::compare(ROUNDS, repeat(|| each(&alone, from_tree)), repeat(theirs));
    report(
        ["evaluate (trees alone)", "hcl-rs (copies)"],
        &compact,
        TREE_TARGET_RATIO,
    );

    println!(
        "4. lowering and evaluating each time (CompiledExpr::new, then evaluate) against hcl-rs's copies"
    );
    let lowering = rounds::compare(
        ROUNDS,
        repeat(|| {
            each(&pairs, |(e, _, _)| {
                CompiledExpr::new(black_box(e)).evaluate(&ctx).value
            })
        }),
        repeat(theirs),
    );
    report(
        ["CompiledExpr::new+evaluate", "hcl-rs (copies)"],
        &lowering,
        TREE_TARGET_RATIO,
    );

    let all = (0..5)
        .map(|_| rounds::time(|| each(&ours_all, |c| black_box(c).evaluate(&ctx).value)))
        .min()
        .unwrap_or(Duration::MAX);
    println!(
        "hclwright on all {} it evaluates (calls included), lowered: {:.0} expressions/s",
        ours_all.len(),
        ours_all.len() as f64 / all.as_secs_f64()
    );
}

/// One evaluator many times over, for `perf record`
/// (`HCLWRIGHT_EVAL_PROFILE=tree|alone|new|compiled|theirs`), or (`kinds`)
/// the time of each kind of expression, summed over the expressions of
/// that kind: each expression's best of 50 runs of 20 evaluations, from
/// its tree parsed alone, lowered, and by hcl-rs from its copy.
fn profile(
    what: &str,
    pairs: &[(Expr, CompiledExpr, hcl::Expression)],
    alone: &[Expr],
    ctx: &hclwright::eval::EvalContext,
    hcl_ctx: &hcl::eval::Context,
) {
    if what == "kinds" {
        let mut by: std::collections::BTreeMap<String, (usize, Duration, Duration, Duration)> =
            Default::default();
        let best = |f: &mut dyn FnMut()| {
            (0..50)
                .map(|_| {
                    rounds::time(|| {
                        for _ in 0..20 {
                            f();
                        }
                    })
                })
                .min()
                .unwrap_or(Duration::MAX)
                / 20
        };
        for ((_, c, t), e) in pairs.iter().zip(alone) {
            let kind = match e {
                Expr::Literal(l) if l.syntax().text().to_string().parse::<f64>().is_ok() => {
                    "LITERAL (number)".to_string()
                }
                _ => format!("{:?}", e.syntax().kind()),
            };
            let ours = best(&mut || {
                black_box(hclwright::eval::evaluate(black_box(e), ctx));
            });
            let lowered = best(&mut || {
                black_box(black_box(c).evaluate(ctx));
            });
            let theirs = best(&mut || {
                black_box(black_box(t).evaluate(hcl_ctx).ok());
            });
            let entry = by.entry(kind).or_default();
            entry.0 += 1;
            entry.1 += ours;
            entry.2 += lowered;
            entry.3 += theirs;
        }
        println!(
            "{:<20} {:>6} {:>10} {:>10} {:>10} {:>6} {:>8}",
            "kind", "count", "tree", "lowered", "hcl-rs", "tree", "lowered"
        );
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        for (kind, (count, ours, lowered, theirs)) in by {
            println!(
                "{kind:<20} {count:>6} {:>7.1} µs {:>7.1} µs {:>7.1} µs {:>5.2}x {:>7.2}x",
                us(ours),
                us(lowered),
                us(theirs),
                theirs.as_secs_f64() / ours.as_secs_f64(),
                theirs.as_secs_f64() / lowered.as_secs_f64()
            );
        }
        return;
    }
    // About five million evaluations, however few expressions are kept.
    for _ in 0..(5_000_000 / pairs.len().max(1)).max(2_000) {
        match what {
            "tree" => pairs.iter().for_each(|(e, _, _)| {
                black_box(hclwright::eval::evaluate(black_box(e), ctx));
            }),
            "alone" => alone.iter().for_each(|e| {
                black_box(hclwright::eval::evaluate(black_box(e), ctx));
            }),
            "new" => pairs.iter().for_each(|(e, _, _)| {
                black_box(CompiledExpr::new(black_box(e)).evaluate(ctx));
            }),
            "theirs" => pairs.iter().for_each(|(_, _, t)| {
                black_box(black_box(t).evaluate(hcl_ctx).ok());
            }),
            _ => pairs.iter().for_each(|(_, c, _)| {
                black_box(black_box(c).evaluate(ctx));
            }),
        }
    }
}
