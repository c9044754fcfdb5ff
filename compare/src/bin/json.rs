//! Parse throughput of hclwright's lossless JSON parser against
//! `serde_json` parsing into a `Value`, measured in one run on the same
//! texts.
//!
//! ```text
//! cargo run --release --manifest-path compare/Cargo.toml --bin json [DIR]
//! ```
//!
//! The texts are the HCL files under `DIR` (or `$HCLWRIGHT_CORPUS`, or
//! `fixtures/`) converted to JSON by `hclwright convert --to json`'s
//! library call, indented by two spaces as machine-written `.tf.json`
//! usually is. For `ROUNDS` rounds, one pass of each parser over the texts
//! is timed, alternating which goes first; both keep their results until
//! the clock stops. Note that `serde_json` here has its
//! `arbitrary_precision` feature on (hclwright's build turns it on), so
//! it keeps numbers as text, as hclwright's tree does.
//!
//! The target: hclwright within 2x of `serde_json` (a ratio of at least
//! 0.5) while keeping every byte of the input.
//!
//! Allocation is the system allocator's, as in a library user's program;
//! `--features mimalloc` measures with mimalloc instead.

use std::hint::black_box;
use std::path::PathBuf;

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
const TARGET_RATIO: f64 = 0.5;

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, _) = corpus::load(&dir);
    let texts: Vec<String> = files
        .iter()
        .filter_map(|(_, text)| hclwright::convert::to_json_value(text).ok())
        .map(|value| hclwright::convert::write_indented(&value, "  "))
        .collect();
    if texts.is_empty() {
        eprintln!("no HCL file under {} converts to JSON", dir.display());
        std::process::exit(1);
    }
    let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    println!("{}", build_profile::describe());
    println!(
        "{} files from {} as JSON ({mb:.2} MB); {ROUNDS} rounds\n",
        texts.len(),
        dir.display()
    );
    if std::env::var_os("HCLWRIGHT_JSON_PROFILE").is_some() {
        // Only our parser, many times: for `perf record`.
        for _ in 0..100 {
            for t in &texts {
                black_box(hclwright::json::parse(black_box(t)));
            }
        }
        return;
    }
    let comparison = rounds::compare(
        ROUNDS,
        || {
            texts
                .iter()
                .map(|t| hclwright::json::parse(black_box(t)))
                .collect::<Vec<_>>()
        },
        || {
            texts
                .iter()
                .map(|t| serde_json::from_str::<serde_json::Value>(black_box(t)).ok())
                .collect::<Vec<_>>()
        },
    );
    let errors_only = (0..5)
        .map(|_| {
            rounds::time(|| {
                texts
                    .iter()
                    .map(|t| hclwright::json::syntax_errors(black_box(t)))
                    .collect::<Vec<_>>()
            })
        })
        .min()
        .unwrap_or_default();
    for (name, t) in [
        ("hclwright::json::parse", comparison.ours),
        ("serde_json::from_str::<Value>", comparison.theirs),
        ("hclwright::json::syntax_errors", errors_only),
    ] {
        println!(
            "{name:<32} {:>8.2} ms {:>8.1} MB/s",
            t.as_secs_f64() * 1e3,
            mb / t.as_secs_f64()
        );
    }
    println!("\n{}", comparison.verdict(TARGET_RATIO));
}
