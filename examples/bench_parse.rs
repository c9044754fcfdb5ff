//! Parse benchmark: lexer, parser and printer throughput over a folder of
//! HCL files.
//!
//! ```text
//! cargo run --release --example bench_parse [DIR]
//! ```
//!
//! Reads every `.tf`, `.tfvars`, `.hcl` and `.nomad` file under `DIR`, or
//! else under `$HCLWRIGHT_CORPUS`, or else under `fixtures/`. Each stage
//! runs in a process of its own (this program, started again with
//! `--stage NAME`), so that no stage inherits another's heap; after one
//! warm-up pass it times the stage `REPS` times over all the files and the
//! best run is reported as MB/s (1 MB = 10^6 bytes):
//!
//! - `lex`: lexing only (`hclwright::lexer::tokenize`), keeping every
//!   file's tokens; `lex-free`: lexing each file and freeing its tokens
//!   right away (as the parser consumes them);
//! - `parse`: full parsing (`hclwright::parse`: lexing, parsing, building
//!   the rowan tree and the error list);
//! - `check`: checking only (`hclwright::syntax_errors`: the same errors,
//!   no tree);
//! - `print`: printing a parsed tree back to text (`syntax().to_string()`);
//! - `parse-free`: parsing and freeing each tree right away, as a tool that
//!   checks one file after another does (the other stages keep their
//!   results and free them after the clock stops).
//!
//! `--stage NAME` runs one stage in this process and prints its best time
//! in nanoseconds (handy under a profiler).
//!
//! It allocates with mimalloc, like the `hclwright` command-line tool (the
//! library itself uses whatever allocator its user has; with the system
//! allocator parsing is slower, as parsing builds many small tree nodes).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
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
/// The stages: name, label in the report, target in MB/s.
const STAGES: &[(&str, &str, Option<f64>)] = &[
    ("lex", "lexer (tokenize)", Some(LEX_TARGET)),
    ("lex-free", "lexer + free", Some(LEX_TARGET)),
    ("parse", "parse (parse)", Some(PARSE_TARGET)),
    ("check", "check (syntax_errors)", None),
    ("print", "print (to_string)", None),
    ("parse-free", "parse + free", None),
];

mod corpus;

fn main() {
    let mut dir = None;
    let mut stage = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--stage" {
            stage = args.next().and_then(|s| s.into_string().ok());
        } else {
            dir = Some(PathBuf::from(arg));
        }
    }
    let dir = corpus::folder(dir, "fixtures");
    let (files, skipped) = corpus::load(&dir);
    let texts: Vec<String> = files.into_iter().map(|(_, text)| text).collect();
    if texts.is_empty() {
        eprintln!("no HCL files under {}", dir.display());
        std::process::exit(1);
    }
    if let Some(stage) = stage {
        println!("{}", time_stage(&stage, &texts).as_nanos());
        return;
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
    println!(
        "each stage in a process of its own, best of {REPS} runs after a warm-up; allocator: mimalloc\n"
    );
    let mut times = Vec::new();
    for &(name, label, target) in STAGES {
        let time = run_stage(name, &dir);
        report(label, time, mb / time.as_secs_f64(), target);
        times.push(time);
    }
    let (lex, parse) = (times[0].as_secs_f64(), times[2].as_secs_f64());
    println!(
        "\nparse / lexer time ratio: {:.2}x (the parser takes {:.0}% of parse time)",
        parse / lex,
        100.0 * (1.0 - lex / parse).max(0.0)
    );
}

/// Runs `stage` in a new process of this program and reads its time.
fn run_stage(stage: &str, dir: &Path) -> Duration {
    let exe = std::env::current_exe().expect("the path of this program");
    let out = Command::new(exe)
        .arg("--stage")
        .arg(stage)
        .arg(dir)
        .output()
        .expect("start the stage");
    let text = String::from_utf8_lossy(&out.stdout);
    match text.trim().parse() {
        Ok(nanos) if out.status.success() => Duration::from_nanos(nanos),
        _ => panic!(
            "stage {stage} failed: {}{}",
            text,
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// The best time of `stage` over `texts`.
fn time_stage(stage: &str, texts: &[String]) -> Duration {
    match stage {
        "lex" => best_of(REPS, || {
            texts
                .iter()
                .map(|t| hclwright::lexer::tokenize(black_box(t)))
                .collect::<Vec<_>>()
        }),
        "lex-free" => best_of(REPS, || {
            for t in texts {
                drop(black_box(hclwright::lexer::tokenize(black_box(t))));
            }
        }),
        "parse" => best_of(REPS, || {
            texts
                .iter()
                .map(|t| hclwright::parse(black_box(t)))
                .collect::<Vec<_>>()
        }),
        // Checking only: the same errors as `parse`, without building a tree.
        "check" => best_of(REPS, || {
            texts
                .iter()
                .map(|t| hclwright::syntax_errors(black_box(t)))
                .collect::<Vec<_>>()
        }),
        "print" => {
            let parsed: Vec<hclwright::Parse> = texts.iter().map(|t| hclwright::parse(t)).collect();
            let printed: usize = parsed.iter().map(|p| p.syntax().to_string().len()).sum();
            let bytes: usize = texts.iter().map(String::len).sum();
            assert_eq!(printed, bytes, "printing is not lossless");
            best_of(REPS, || {
                parsed
                    .iter()
                    .map(|p| p.syntax().to_string())
                    .collect::<Vec<_>>()
            })
        }
        "parse-free" => best_of(REPS, || {
            for t in texts {
                drop(black_box(hclwright::parse(black_box(t))));
            }
        }),
        _ => {
            let names: Vec<&str> = STAGES.iter().map(|s| s.0).collect();
            eprintln!("unknown stage {stage}; the stages are {}", names.join(", "));
            std::process::exit(2);
        }
    }
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
