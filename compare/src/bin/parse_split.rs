//! Where hclwright's parse-and-drop time goes, by subtraction: the best
//! pass over the files (those both hclwright and `hcl-edit` accept) of
//! each stage alone, with the system allocator.
//!
//! ```text
//! cargo build --release --manifest-path compare/Cargo.toml --bin parse_split
//! compare/target/release/parse_split /work/shared/corpus 30
//! perf record -e cpu-clock -g compare/target/release/parse_split /work/shared/corpus 300 drop
//! ```
//!
//! Stages: lexing alone (`lexer::tokenize`), the checking parse
//! (`syntax_errors`: lexing and the parser's logic, no tree), the parse
//! with every tree kept (plus building the green tree), dropping the kept
//! trees, and parse-and-drop (the user's path). With a third argument
//! `drop`, it only runs parse-and-drop, for a profiler.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

#[path = "../accepted.rs"]
mod accepted;

#[path = "../../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "passes are timed here, not with best_of")]
mod corpus;

fn main() {
    let mut args = std::env::args_os().skip(1);
    let dir = corpus::folder(args.next().map(PathBuf::from), "fixtures");
    let passes = accepted::passes(args.next(), 30);
    let only_drop = args.next().is_some_and(|a| a == "drop");
    let (files, _) = corpus::load(&dir);
    let texts = accepted::texts_both_accept(files);
    let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    let parse_and_drop = || {
        for t in &texts {
            let parse = hclwright::parse(black_box(t));
            black_box(parse.errors().len());
        }
    };
    if only_drop {
        for _ in 0..passes {
            parse_and_drop();
        }
        return;
    }
    println!(
        "{} files ({mb:.2} MB), best of {passes} passes",
        texts.len()
    );
    let mut best = [f64::INFINITY; 5];
    for _ in 0..passes {
        // Interleaved, so that a change of machine load hits every stage.
        let start = Instant::now();
        for t in &texts {
            black_box(hclwright::lexer::tokenize(black_box(t)).tokens.len());
        }
        best[0] = best[0].min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        for t in &texts {
            black_box(hclwright::syntax_errors(black_box(t)).len());
        }
        best[1] = best[1].min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        let kept: Vec<_> = texts
            .iter()
            .map(|t| hclwright::parse(black_box(t)))
            .collect();
        best[2] = best[2].min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        drop(black_box(kept));
        best[3] = best[3].min(start.elapsed().as_secs_f64());

        let start = Instant::now();
        parse_and_drop();
        best[4] = best[4].min(start.elapsed().as_secs_f64());
    }
    let ms = best.map(|b| b * 1e3);
    for (name, t) in [
        ("lex (tokenize)", ms[0]),
        ("checking parse (syntax_errors)", ms[1]),
        ("parse, trees kept", ms[2]),
        ("drop of the kept trees", ms[3]),
        ("parse and drop", ms[4]),
    ] {
        println!("{name:<32} {t:>8.2} ms");
    }
    println!(
        "split: lex {:.2} ms, parser logic {:.2} ms, tree building {:.2} ms, drop (kept) {:.2} ms",
        ms[0],
        ms[1] - ms[0],
        ms[2] - ms[1],
        ms[3]
    );
}
