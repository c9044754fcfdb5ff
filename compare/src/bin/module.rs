//! What evaluating a module folder costs beside parsing it: the library
//! work of `hclwright eval --dir DIR` (`Module::load`: reading and parsing
//! every `.tf` file, then evaluating every variable and local) against
//! reading and parsing the same files (what `hclwright check DIR` does
//! with them), measured in one run.
//!
//! ```text
//! cargo run --release --manifest-path compare/Cargo.toml --bin module DIR
//! ```
//!
//! For `ROUNDS` rounds (51), one load of the module and one pass of reading
//! and parsing its files are timed, alternating which goes first.
//! Reported: each one's best pass, their ratio and how many locals the
//! module has.

use hclwright::eval::{Module, ModuleInputs, console_context};
use std::hint::black_box;
use std::path::PathBuf;

#[path = "../build_profile.rs"]
mod build_profile;

#[path = "../rounds.rs"]
#[expect(dead_code, reason = "no target ratio here, so no verdict")]
mod rounds;

const ROUNDS: usize = 51;

fn main() {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: module DIR");
        std::process::exit(2);
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "tf"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let inputs = ModuleInputs::default();
    // `HCLWRIGHT_MODULE_PROFILE=N`: N loads and nothing else, for a
    // profiler or `perf stat`.
    if let Some(n) = std::env::var("HCLWRIGHT_MODULE_PROFILE")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        for _ in 0..n {
            black_box(Module::load(&dir, &inputs, console_context(&dir)));
        }
        return;
    }
    let module = Module::load(&dir, &inputs, console_context(&dir));
    let locals = match module.context.variable("local") {
        Some(hclwright::eval::Value::Object(m)) => m.len(),
        _ => 0,
    };
    let bytes: u64 = paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    println!("{}", build_profile::describe());
    println!(
        "{}: {} .tf files ({:.1} KB), {locals} locals, {} problems; {ROUNDS} rounds\n",
        dir.display(),
        paths.len(),
        bytes as f64 / 1e3,
        module.diagnostics.len()
    );
    let comparison = rounds::compare(
        ROUNDS,
        || black_box(Module::load(&dir, &inputs, console_context(&dir))),
        || {
            for p in &paths {
                let text = std::fs::read_to_string(p).unwrap_or_default();
                black_box(hclwright::parse(black_box(&text)));
            }
        },
    );
    let (load, parse) = (comparison.ours, comparison.theirs);
    for (name, t) in [("Module::load", load), ("read and parse", parse)] {
        println!("{name:<16} {:>8.3} ms", t.as_secs_f64() * 1e3);
    }
    println!(
        "loading and evaluating takes {:.2}x reading and parsing (median of rounds {:.2}x)",
        load.as_secs_f64() / parse.as_secs_f64(),
        1.0 / comparison.median()
    );
}
