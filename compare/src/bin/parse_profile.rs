//! Where parse-and-drop's time goes, for a profiler: parses every file
//! that both hclwright and `hcl-edit` accept, drops each tree before the
//! next file (the user's path of `compare/`'s first measurement), and
//! counts what that asks of the system allocator.
//!
//! ```text
//! cargo build --release --manifest-path compare/Cargo.toml --bin parse_profile
//! perf record -e cpu-clock -g compare/target/release/parse_profile [DIR] [PASSES]
//! ```
//!
//! Prints, per pass over the files: allocations, frees, reallocations and
//! bytes asked for by hclwright's parse (then by `hcl-edit`'s, for
//! comparison), and the best pass time of each with the allocator counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

#[path = "../accepted.rs"]
mod accepted;

#[path = "../../../examples/corpus/mod.rs"]
#[expect(dead_code, reason = "passes are timed here, not with best_of")]
mod corpus;

/// The system allocator, counting calls.
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static FREES: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded to `System` unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        FREES.fetch_add(1, Relaxed);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        REALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new_size.saturating_sub(layout.size()) as u64, Relaxed);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn counters() -> [u64; 4] {
    [&ALLOCS, &FREES, &REALLOCS, &BYTES].map(|c| c.load(Relaxed))
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let dir = corpus::folder(args.next().map(PathBuf::from), "fixtures");
    let passes = accepted::passes(args.next(), 20);
    let (files, _) = corpus::load(&dir);
    let texts = accepted::texts_both_accept(files);
    let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    println!("{} files ({mb:.2} MB), {passes} passes each", texts.len());
    let ours = || {
        for t in &texts {
            let parse = hclwright::parse(black_box(t));
            black_box(parse.errors().len());
        }
    };
    let theirs = || {
        for t in &texts {
            black_box(hcl_edit::parser::parse_body(black_box(t)).is_err());
        }
    };
    for (name, pass) in [
        ("hclwright::parse", &ours as &dyn Fn()),
        ("hcl_edit::parser::parse_body", &theirs),
    ] {
        pass();
        let before = counters();
        pass();
        let after = counters();
        let [allocs, frees, reallocs, bytes] = std::array::from_fn(|i| after[i] - before[i]);
        let mut best = f64::INFINITY;
        for _ in 0..passes {
            let start = Instant::now();
            pass();
            best = best.min(start.elapsed().as_secs_f64());
        }
        println!(
            "{name:<30} {:>8.2} ms {:>7.1} MB/s  per pass: {allocs} allocations, {frees} frees, {reallocs} reallocations, {:.1} MB asked",
            best * 1e3,
            mb / best,
            bytes as f64 / 1e6
        );
    }
}
