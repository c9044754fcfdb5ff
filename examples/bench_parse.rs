//! Parse benchmark: lexer, parser and printer throughput over a folder of
//! HCL files.
//!
//! ```text
//! cargo run --release --example bench_parse [DIR]
//! ```
//!
//! Reads every `.tf`, `.tfvars`, `.hcl` and `.nomad` file under `DIR`, or
//! else under `$HCLWRIGHT_CORPUS`, or else under `fixtures/`. After one
//! warm-up pass it times each stage `REPS` times over all the files and
//! reports the best run as MB/s (1 MB = 10^6 bytes):
//!
//! - lexing only (`hclwright::lexer::tokenize`), keeping every file's
//!   tokens, and lexing each file and freeing its tokens right away (as
//!   the parser consumes them);
//! - full parsing (`hclwright::parse`: lexing, parsing, building the rowan
//!   tree and the error list);
//! - checking only (`hclwright::syntax_errors`: the same errors, no tree);
//! - printing a parsed tree back to text (`syntax().to_string()`);
//! - parsing and freeing each tree right away, as a tool that checks one
//!   file after another does (the other stages keep their results and
//!   free them after the clock stops).
//!
//! It allocates with mimalloc, like the `hclwright` command-line tool (the
//! library itself uses whatever allocator its user has; with the system
//! allocator parsing is slower, as parsing builds many small tree nodes).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use corpus::best_of;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Timed repetitions per stage; the best one counts.
const REPS: usize = 15;
/// Target throughput of `hclwright::parse`, MB/s.
const PARSE_TARGET: f64 = 170.0;
/// Target throughput of `hclwright::lexer::tokenize`, MB/s.
const LEX_TARGET: f64 = 1000.0;

mod corpus;

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, skipped) = corpus::load(&dir);
    let texts: Vec<String> = files.into_iter().map(|(_, text)| text).collect();
    if texts.is_empty() {
        eprintln!("no HCL files under {}", dir.display());
        std::process::exit(1);
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let mb = bytes as f64 / 1e6;
    println!(
        "{} files, {:.2} MB from {}{}",
        texts.len(),
        mb,
        dir.display(),
        if skipped > 0 {
            format!(" ({skipped} non-UTF-8 files skipped)")
        } else {
            String::new()
        }
    );
    println!("best of {REPS} runs after a warm-up; allocator: mimalloc\n");

    let lex = best_of(REPS, || {
        texts
            .iter()
            .map(|t| hclwright::lexer::tokenize(black_box(t)))
            .collect::<Vec<_>>()
    });
    let lex_free = best_of(REPS, || {
        for t in &texts {
            drop(black_box(hclwright::lexer::tokenize(black_box(t))));
        }
    });
    let parse = best_of(REPS, || {
        texts
            .iter()
            .map(|t| hclwright::parse(black_box(t)))
            .collect::<Vec<_>>()
    });
    // Checking only: the same errors as `parse`, without building a tree.
    let check = best_of(REPS, || {
        texts
            .iter()
            .map(|t| hclwright::syntax_errors(black_box(t)))
            .collect::<Vec<_>>()
    });
    let parse_free = best_of(REPS, || {
        for t in &texts {
            drop(black_box(hclwright::parse(black_box(t))));
        }
    });
    let parsed: Vec<hclwright::Parse> = texts.iter().map(|t| hclwright::parse(t)).collect();
    let printed: usize = parsed.iter().map(|p| p.syntax().to_string().len()).sum();
    assert_eq!(printed, bytes, "printing is not lossless");
    let print = best_of(REPS, || {
        parsed
            .iter()
            .map(|p| p.syntax().to_string())
            .collect::<Vec<_>>()
    });

    let lex_mbs = mb / lex.as_secs_f64();
    let parse_mbs = mb / parse.as_secs_f64();
    let print_mbs = mb / print.as_secs_f64();
    report("lexer (tokenize)", lex, lex_mbs, Some(LEX_TARGET));
    report(
        "lexer + free",
        lex_free,
        mb / lex_free.as_secs_f64(),
        Some(LEX_TARGET),
    );
    report("parse (parse)", parse, parse_mbs, Some(PARSE_TARGET));
    report(
        "check (syntax_errors)",
        check,
        mb / check.as_secs_f64(),
        None,
    );
    report("print (to_string)", print, print_mbs, None);
    report(
        "parse + free",
        parse_free,
        mb / parse_free.as_secs_f64(),
        None,
    );
    println!(
        "\nparse / lexer time ratio: {:.2}x (the parser takes {:.0}% of parse time)",
        parse.as_secs_f64() / lex.as_secs_f64(),
        100.0 * (1.0 - lex.as_secs_f64() / parse.as_secs_f64()).max(0.0)
    );
}

fn report(stage: &str, time: Duration, mbs: f64, target: Option<f64>) {
    let verdict = match target {
        Some(t) if mbs >= t => format!("target >= {t:.0} MB/s: met"),
        Some(t) => format!("target >= {t:.0} MB/s: NOT met"),
        None => String::new(),
    };
    println!(
        "{stage:<20} {:>9.2} ms {mbs:>9.1} MB/s   {verdict}",
        time.as_secs_f64() * 1e3
    );
}
