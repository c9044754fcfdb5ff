//! Parse and drop, each file on its own: every file both parsers accept is
//! parsed and dropped many times in a row (warm caches and branch
//! predictors, as a program that parses the same file again meets it),
//! and each parser's best time for the file is summed over the files.
//! Set beside `compare/`'s measurement 1 (one pass over all the files,
//! each parsed once), it tells how much of each parser's pass is lost to
//! what the previous files left in the caches.
//!
//! ```text
//! cargo build --release --manifest-path compare/Cargo.toml --bin per_file
//! compare/target/release/per_file DIR
//! ```
//!
//! For each file: `REPEATS` rounds, each timing a run of the file's
//! repetitions for hclwright then for `hcl-edit` (repetitions enough for
//! about 200 KB of text, between 3 and 200); the best round of each is
//! the file's time. Reported: the sums, their ratio, and the ratio by
//! file size. System allocator, each tree dropped before the next parse.
//!
//! Then where hclwright's pass loses it: `PASSES` passes over the files
//! in order, each file's parse-and-drop timed alone, the best pass
//! reported, with nothing done before each file (as `compare/`), or after
//! reading its text untimed (the text in the caches), lexing it untimed
//! (the lexer's state too), or parsing it once untimed (everything the
//! parse touches, and its branches, seen once).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

#[path = "../accepted.rs"]
#[expect(dead_code, reason = "no pass count here")]
mod accepted;

#[path = "../../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "files are timed here, not with best_of")]
mod corpus;

/// Rounds per file; the best is kept.
const REPEATS: usize = 5;
/// Text parsed per round and parser, in bytes.
const ROUND_BYTES: usize = 200_000;
/// Passes of the second measurement; the best is kept.
const PASSES: usize = 40;
/// Size classes (upper bounds in bytes) of the breakdown.
const SIZES: [usize; 5] = [1_000, 3_000, 10_000, 30_000, usize::MAX];

fn main() {
    let dir = corpus::folder(std::env::args_os().nth(1).map(PathBuf::from), "fixtures");
    let (files, _) = corpus::load(&dir);
    let texts = accepted::texts_both_accept(files);
    if texts.is_empty() {
        eprintln!("no HCL file under {} parses with both", dir.display());
        std::process::exit(1);
    }
    // Per size class: files, hclwright's seconds, hcl-edit's seconds.
    let mut classes = [(0usize, 0f64, 0f64); SIZES.len()];
    for text in &texts {
        let reps = (ROUND_BYTES / text.len().max(1)).clamp(3, 200);
        let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
        for _ in 0..REPEATS {
            let start = Instant::now();
            for _ in 0..reps {
                let parse = hclwright::parse(black_box(text));
                black_box(parse.errors().len());
            }
            ours = ours.min(start.elapsed().as_secs_f64() / reps as f64);
            let start = Instant::now();
            for _ in 0..reps {
                let body = hcl_edit::parser::parse_body(black_box(text));
                black_box(body.is_ok());
            }
            theirs = theirs.min(start.elapsed().as_secs_f64() / reps as f64);
        }
        let class = SIZES
            .iter()
            .position(|&max| text.len() < max)
            .expect("the last class has no bound");
        classes[class].0 += 1;
        classes[class].1 += ours;
        classes[class].2 += theirs;
    }
    let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    let ours: f64 = classes.iter().map(|c| c.1).sum();
    let theirs: f64 = classes.iter().map(|c| c.2).sum();
    println!(
        "{} files ({mb:.2} MB) from {}, each parsed and dropped on its own, best of {REPEATS} rounds",
        texts.len(),
        dir.display()
    );
    println!("hclwright::parse                {:8.2} ms", ours * 1e3);
    println!("hcl_edit::parser::parse_body    {:8.2} ms", theirs * 1e3);
    println!("hclwright is {:.2}x as fast, file by file", theirs / ours);
    let total = ours;
    let mut low = 0;
    for (&max, &(n, ours, theirs)) in SIZES.iter().zip(&classes) {
        if n > 0 {
            let high = if max == usize::MAX {
                "".to_string()
            } else {
                max.to_string()
            };
            println!(
                "  files of {low}..{high} bytes: {n:5}, {:.2}x ({:.1}% of hclwright's time)",
                theirs / ours,
                100.0 * ours / total
            );
        }
        low = max;
    }
    println!(
        "\nhclwright, one pass over the files, each file timed alone (best of {PASSES} passes):"
    );
    for (what, before) in WARMUPS {
        let mut best = f64::MAX;
        for _ in 0..PASSES {
            let mut pass = 0.0;
            for text in &texts {
                before(text);
                let start = Instant::now();
                let parse = hclwright::parse(black_box(text));
                black_box(parse.errors().len());
                drop(parse);
                pass += start.elapsed().as_secs_f64();
            }
            best = best.min(pass);
        }
        println!("  {what:32} {:8.2} ms", best * 1e3);
    }
}

/// Something done, untimed, before each file's parse in a pass: what it
/// is, and the doing.
type Warmup = (&'static str, fn(&str));

/// What is done before each file's parse in the passes.
const WARMUPS: [Warmup; 4] = [
    ("nothing before (as compare/)", |_| {}),
    ("after reading its text", |text| {
        black_box(text.bytes().map(u64::from).sum::<u64>());
    }),
    ("after lexing it", |text| {
        black_box(hclwright::lexer::tokenize(text).tokens.len());
    }),
    ("after parsing it once", |text| {
        black_box(hclwright::parse(text).errors().len());
    }),
];
