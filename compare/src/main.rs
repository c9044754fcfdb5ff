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
//! ratios of the rounds.
//!
//! Two measurements, the user's path first:
//!
//! 1. **Parse and drop** (the target's measurement): each file is parsed,
//!    its errors read, and its tree dropped before the next file, as a
//!    program that checks or edits files one by one pays it.
//! 2. **Trees kept**: every tree is kept until the clock stops (dropped
//!    after it), which leaves the cost of freeing out.
//!
//! Both parsers allocate with the system allocator, as a library user's
//! program does; `--features mimalloc` builds the same comparison with
//! mimalloc as the global allocator (a second figure, labelled so). Both
//! are compiled with cargo's default release settings, as a program that
//! depends on them is; `--profile lto` builds them with fat LTO and one
//! codegen unit (a second figure; the report's header names the build).
//!
//! hclwright's target is three times `hcl-edit`'s throughput, parse and
//! drop, with the system allocator.

use std::hint::black_box;
use std::path::PathBuf;

mod build_profile;
mod rounds;

#[expect(dead_code, reason = "the pass count is the profiling bins'")]
mod accepted;

#[path = "../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "rounds are timed here, not with best_of")]
mod corpus;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The allocator this build uses, for the report.
const ALLOCATOR: &str = if cfg!(feature = "mimalloc") {
    "mimalloc"
} else {
    "system allocator"
};

/// Timed rounds; each round times one pass of each parser.
const ROUNDS: usize = 21;
/// hclwright's target: this many times `hcl-edit`'s throughput.
const TARGET_RATIO: f64 = 3.0;

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, _) = corpus::load(&dir);
    let total = files.len();
    let texts = accepted::texts_both_accept(files);
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

    println!("allocator: {ALLOCATOR}");
    println!("{}\n", build_profile::describe());
    println!("1. parse, read the errors, drop the tree before the next file (the user's path)");
    let dropped = rounds::compare(
        ROUNDS,
        || {
            texts
                .iter()
                .map(|t| {
                    let parse = hclwright::parse(black_box(t));
                    black_box(parse.errors().len())
                })
                .sum::<usize>()
        },
        || {
            texts
                .iter()
                .map(|t| usize::from(hcl_edit::parser::parse_body(black_box(t)).is_err()))
                .sum::<usize>()
        },
    );
    report(&dropped, mb);

    println!("\n2. every tree kept until the clock stops");
    let kept = rounds::compare(
        ROUNDS,
        || {
            texts
                .iter()
                .map(|t| hclwright::parse(black_box(t)))
                .collect::<Vec<_>>()
        },
        || {
            texts
                .iter()
                .map(|t| hcl_edit::parser::parse_body(black_box(t)))
                .collect::<Vec<_>>()
        },
    );
    report(&kept, mb);
}

/// Prints both sides' best passes and the verdict against the target.
fn report(comparison: &rounds::Comparison, mb: f64) {
    for (name, t) in [
        ("hclwright::parse", comparison.ours),
        ("hcl_edit::parser::parse_body", comparison.theirs),
    ] {
        println!(
            "{name:<30} {:>8.2} ms {:>8.1} MB/s",
            t.as_secs_f64() * 1e3,
            mb / t.as_secs_f64()
        );
    }
    println!("{}", comparison.verdict(TARGET_RATIO));
}
