//! Parse throughput of hclwright against the `hcl-edit` crate (the Rust
//! HCL parser that also keeps comments and whitespace), measured in one
//! run on the same files.
//!
//! ```text
//! cargo run --release --manifest-path compare/Cargo.toml [DIR]
//! ```
//!
//! Reads every `.tf`, `.tfvars`, `.hcl` and `.nomad` file under `DIR`, or
//! else `$HCLWRIGHT_CORPUS`, or else `fixtures/`, and keeps the files both
//! parsers accept (so that neither is timed on an early error exit). Then,
//! for `ROUNDS` rounds, it times one pass of each parser over the files,
//! alternating which goes first, and reports each one's best pass as MB/s
//! (1 MB = 10^6 bytes), the ratio of the best passes and the median of the
//! ratios of the rounds. Both parsers keep their results until the clock
//! stops (a tree per file), and allocate with mimalloc.
//!
//! hclwright's target is three times `hcl-edit`'s throughput.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "rounds are timed here, not with best_of")]
mod corpus;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Timed rounds; each round times one pass of each parser.
const ROUNDS: usize = 21;
/// hclwright's target: this many times `hcl-edit`'s throughput.
const TARGET_RATIO: f64 = 3.0;

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, _) = corpus::load(&dir);
    let total = files.len();
    let texts: Vec<String> = files
        .into_iter()
        .map(|(_, text)| text)
        .filter(|t| hcl_edit::parser::parse_body(t).is_ok() && hclwright::parse(t).is_ok())
        .collect();
    if texts.is_empty() {
        eprintln!("no HCL file under {} parses with both", dir.display());
        std::process::exit(1);
    }
    let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    println!(
        "{} of {total} files ({mb:.2} MB) from {} parse with both; {ROUNDS} rounds\n",
        texts.len(),
        dir.display()
    );

    let hclwright_pass = || {
        time(|| {
            texts
                .iter()
                .map(|t| hclwright::parse(black_box(t)))
                .collect::<Vec<_>>()
        })
    };
    let hcl_edit_pass = || {
        time(|| {
            texts
                .iter()
                .map(|t| hcl_edit::parser::parse_body(black_box(t)))
                .collect::<Vec<_>>()
        })
    };
    // Warm-up.
    hclwright_pass();
    hcl_edit_pass();
    let mut ours = Vec::with_capacity(ROUNDS);
    let mut theirs = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        if round % 2 == 0 {
            ours.push(hclwright_pass());
            theirs.push(hcl_edit_pass());
        } else {
            theirs.push(hcl_edit_pass());
            ours.push(hclwright_pass());
        }
    }
    let mut ratios: Vec<f64> = ours
        .iter()
        .zip(&theirs)
        .map(|(o, t)| t.as_secs_f64() / o.as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    let best = |times: &[Duration]| times.iter().min().copied().unwrap_or_default();
    let (ours, theirs) = (best(&ours), best(&theirs));
    for (name, t) in [
        ("hclwright::parse", ours),
        ("hcl_edit::parser::parse_body", theirs),
    ] {
        println!(
            "{name:<30} {:>8.2} ms {:>8.1} MB/s",
            t.as_secs_f64() * 1e3,
            mb / t.as_secs_f64()
        );
    }
    let ratio = theirs.as_secs_f64() / ours.as_secs_f64();
    let median = ratios[ratios.len() / 2];
    let verdict = if median >= TARGET_RATIO {
        "met"
    } else {
        "NOT met"
    };
    println!(
        "\nhclwright is {ratio:.2}x as fast (best passes); median of the rounds' ratios {median:.2}x \
         (range {:.2}x to {:.2}x); target >= {TARGET_RATIO:.0}x: {verdict}",
        ratios[0],
        ratios[ratios.len() - 1]
    );
}

/// How long `f` takes; what it returns is freed after the clock stops.
fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    let out = black_box(f());
    let elapsed = start.elapsed();
    drop(out);
    elapsed
}
