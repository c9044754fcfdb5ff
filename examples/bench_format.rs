//! Format benchmark: formatter throughput, and the whole `fmt -check`
//! process against `terraform fmt -check`.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example bench_format [DIR] [--compare TF_DIR] [--runs N]
//!     [--stage format|layout|terraform|check] [--reps N]
//! ```
//!
//! Throughput: reads every `.tf`, `.tfvars`, `.hcl` and `.nomad` file under
//! `DIR` (or `$HCLWRIGHT_CORPUS`, or `fixtures/format`); after a warm-up it
//! times `--reps` passes (default 7) of each stage and reports the best as
//! MB/s (1 MB = 10^6 bytes):
//! - `format`: `hclwright::format` (the hclfmt layout, lexing included)
//!   over every file;
//! - `layout`: the layout step of `format_with` alone (from the parser's
//!   tokens, lexed beforehand) over the files that parse without errors;
//! - `terraform`: `format_with(terraform)` (parse, normalizations, layout)
//!   over the files that parse without errors, and the comparison of the
//!   result with the input (what `fmt --check` needs to know);
//! - `check`: the same answer from `is_formatted(terraform)`, which writes
//!   no formatted text.
//!
//! `--stage NAME` runs that stage only (with `--reps 1`, two passes: handy
//! under `valgrind --tool=callgrind --toggle-collect=bench_format::NAME_pass`,
//! which counts the instructions of the stage alone).
//!
//! With `--compare TF_DIR`: runs `hclwright fmt -check -recursive .` (the
//! binary next to this example) and `terraform fmt -check -recursive .` in
//! `TF_DIR`, `N` times each (default 10, after one warm-up run each), reports
//! the median and best wall-clock times and their ratio, and checks that
//! both list the same files.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hclwright::format::{format_valid_tokens, is_formatted};
use hclwright::lexer::Token;
use hclwright::{FormatOptions, format, format_with};

/// Timed passes per stage by default; the best one counts.
const REPS: usize = 7;

mod corpus;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut dir = None;
    let mut compare = None;
    let mut runs = 10usize;
    let mut stage = None;
    let mut reps = REPS;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--compare" => compare = args.next().map(PathBuf::from),
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(runs),
            "--stage" => stage = args.next(),
            "--reps" => reps = args.next().and_then(|n| n.parse().ok()).unwrap_or(reps),
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    throughput(
        &corpus::folder(dir, "fixtures/format"),
        stage.as_deref(),
        reps.max(1),
    );
    if let Some(tf_dir) = compare {
        compare_cli(&tf_dir, runs.max(1));
    }
}

fn throughput(dir: &Path, stage: Option<&str>, reps: usize) {
    let runs = |name: &str| stage.is_none_or(|s| s == name);
    let texts: Vec<String> = corpus::load(dir).0.into_iter().map(|(_, t)| t).collect();
    if texts.is_empty() {
        eprintln!("no HCL files under {}", dir.display());
        std::process::exit(1);
    }
    let mb = |ts: &[&String]| ts.iter().map(|t| t.len()).sum::<usize>() as f64 / 1e6;
    let all: Vec<&String> = texts.iter().collect();
    let valid: Vec<&String> = texts
        .iter()
        .filter(|t| hclwright::syntax_errors(t).is_empty())
        .collect();
    println!(
        "{} files, {:.2} MB from {} ({} valid, {:.2} MB)",
        all.len(),
        mb(&all),
        dir.display(),
        valid.len(),
        mb(&valid)
    );
    println!("best of {reps} passes after a warm-up\n");
    if runs("format") {
        let time = corpus::best_of(reps, || format_pass(&all));
        report("format (hclfmt layout)", mb(&all), time);
    }
    if runs("layout") {
        let lexed: Vec<(&String, Vec<Token>)> = valid
            .iter()
            .map(|t| (*t, hclwright::lexer::tokenize(t).tokens))
            .collect();
        let time = corpus::best_of(reps, || layout_pass(&lexed));
        report("layout from parser tokens", mb(&valid), time);
    }
    if runs("terraform") {
        let time = corpus::best_of(reps, || terraform_pass(&valid));
        report("format_with(terraform) + compare", mb(&valid), time);
    }
    if runs("check") {
        let time = corpus::best_of(reps, || check_pass(&valid));
        report("is_formatted(terraform)", mb(&valid), time);
    }
}

// One pass of each stage, never inlined, so that a profiler can single it
// out (`valgrind --tool=callgrind --toggle-collect=bench_format::layout_pass`).

#[inline(never)]
fn format_pass(texts: &[&String]) {
    for t in texts {
        black_box(format(black_box(t)));
    }
}

#[inline(never)]
fn layout_pass(lexed: &[(&String, Vec<Token>)]) {
    for (t, tokens) in lexed {
        black_box(format_valid_tokens(black_box(t), black_box(tokens)));
    }
}

#[inline(never)]
fn terraform_pass(texts: &[&String]) {
    let options = FormatOptions::terraform();
    for t in texts {
        let formatted = format_with(black_box(t), &options);
        black_box(formatted.is_ok_and(|f| f == **t));
    }
}

#[inline(never)]
fn check_pass(texts: &[&String]) {
    let options = FormatOptions::terraform();
    for t in texts {
        black_box(is_formatted(black_box(t), &options).ok());
    }
}

fn report(what: &str, mb: f64, time: Duration) {
    println!(
        "{what:<40} {:>8.1} MB/s  ({:.1} ms per pass)",
        mb / time.as_secs_f64(),
        time.as_secs_f64() * 1e3
    );
}

/// Times both tools on `dir` and compares their file lists.
fn compare_cli(dir: &Path, runs: usize) {
    let ours = std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.join("hclwright")))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| {
            eprintln!("build the binary first: cargo build --release");
            std::process::exit(1);
        });
    // Both run inside the folder on `.`, so both print relative paths.
    let args = ["fmt", "-check", "-recursive", "."];
    println!(
        "\n{runs} runs each after a warm-up, wall clock, in {}",
        dir.display()
    );
    let (ours_times, ours_list) = time_runs(ours.as_os_str(), &args, dir, runs);
    let (tf_times, tf_list) = time_runs("terraform".as_ref(), &args, dir, runs);
    let show = |name: &str, t: &[Duration]| {
        println!(
            "{name:<44} median {:>8.1} ms   best {:>8.1} ms",
            median(t).as_secs_f64() * 1e3,
            t[0].as_secs_f64() * 1e3
        );
    };
    show("hclwright fmt -check -recursive .", &ours_times);
    show("terraform fmt -check -recursive .", &tf_times);
    println!(
        "speed-up: {:.0}x (median), {:.0}x (best)",
        median(&tf_times).as_secs_f64() / median(&ours_times).as_secs_f64(),
        tf_times[0].as_secs_f64() / ours_times[0].as_secs_f64()
    );
    let normalize = |list: &str| {
        let mut names: Vec<String> = list.lines().map(str::to_string).collect();
        names.sort();
        names
    };
    let (a, b) = (normalize(&ours_list), normalize(&tf_list));
    if a == b {
        println!("both list the same {} files", a.len());
    } else {
        println!("the lists differ:\n  hclwright: {a:?}\n  terraform: {b:?}");
    }
}

/// Runs `program args` once to warm up, then `runs` times; the sorted
/// times and the standard output of the last run.
fn time_runs(
    program: &std::ffi::OsStr,
    args: &[&str],
    dir: &Path,
    runs: usize,
) -> (Vec<Duration>, String) {
    let run = || {
        let start = Instant::now();
        let out = Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .output()
            .unwrap_or_else(|e| panic!("{}: {e}", program.to_string_lossy()));
        (
            start.elapsed(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (_, mut last) = run();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let (t, out) = run();
            last = out;
            t
        })
        .collect();
    times.sort();
    (times, last)
}

fn median(sorted: &[Duration]) -> Duration {
    sorted[sorted.len() / 2]
}
