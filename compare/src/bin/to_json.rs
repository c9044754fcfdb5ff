//! Throughput of `hclwright::convert::to_json` (what the Node package's
//! `toJson` and `hclwright convert --to json` run) on the corpus, beside
//! parsing alone, measured in one run.
//!
//! ```text
//! cargo run --release --manifest-path compare/Cargo.toml --bin to_json [DIR]
//! ```
//!
//! Takes every HCL file under `DIR` (or `$HCLWRIGHT_CORPUS`, or
//! `fixtures/`) that converts without an error. For `ROUNDS` rounds, one
//! pass of `to_json` and one pass of `parse` (the tree dropped after each
//! file, as `to_json` drops it) are timed, alternating which goes first.
//! Reported: each one's best pass in MB/s, the conversion's share
//! (`to_json` minus parsing) and a checksum of every output, so that two
//! builds can be checked to give the same bytes.
//!
//! Allocation is the system allocator's, as in a library user's program.

use std::hash::{Hash, Hasher};
use std::hint::black_box;
use std::path::PathBuf;

#[path = "../rounds.rs"]
#[expect(dead_code, reason = "no target ratio here, so no verdict")]
mod rounds;

#[path = "../../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "rounds are timed here, not with best_of")]
mod corpus;

const ROUNDS: usize = 15;

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, _) = corpus::load(&dir);
    let inputs: Vec<&str> = files
        .iter()
        .map(|(_, text)| text.as_str())
        .filter(|text| hclwright::convert::to_json(text).is_ok())
        .collect();
    let bytes: usize = inputs.iter().map(|t| t.len()).sum();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for text in &inputs {
        hclwright::convert::to_json(text)
            .unwrap_or_default()
            .hash(&mut hasher);
    }
    println!(
        "{} of {} files under {} convert ({:.2} MB); output checksum {:016x}; {ROUNDS} rounds\n",
        inputs.len(),
        files.len(),
        dir.display(),
        bytes as f64 / 1e6,
        hasher.finish()
    );
    let comparison = rounds::compare(
        ROUNDS,
        || {
            for text in &inputs {
                black_box(hclwright::convert::to_json(black_box(text)).ok());
            }
        },
        || {
            for text in &inputs {
                black_box(hclwright::parse(black_box(text)));
            }
        },
    );
    let mb = bytes as f64 / 1e6;
    let (ours, parse) = (comparison.ours, comparison.theirs);
    for (name, t) in [("to_json", ours), ("parse (tree dropped)", parse)] {
        println!(
            "{name:<22} {:>8.2} ms {:>8.1} MB/s",
            t.as_secs_f64() * 1e3,
            mb / t.as_secs_f64()
        );
    }
    println!(
        "conversion alone (to_json - parse): {:.2} ms; to_json takes {:.2}x parsing (median of rounds {:.2}x)",
        (ours.as_secs_f64() - parse.as_secs_f64()) * 1e3,
        ours.as_secs_f64() / parse.as_secs_f64(),
        1.0 / comparison.median()
    );
}
