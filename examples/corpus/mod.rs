//! Shared by the benchmarks: where the HCL files are, reading them, and
//! timing a pass over them.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// File name endings treated as HCL.
pub const EXTENSIONS: &[&str] = &[".tf", ".tfvars", ".hcl", ".nomad"];

/// The folder to read: `arg` if given, else `$HCLWRIGHT_CORPUS` if it is a
/// folder, else `fallback` (a folder of fixtures).
pub fn folder(arg: Option<PathBuf>, fallback: &str) -> PathBuf {
    if let Some(arg) = arg {
        return arg;
    }
    if let Some(corpus) = std::env::var_os("HCLWRIGHT_CORPUS") {
        let corpus = PathBuf::from(corpus);
        if corpus.is_dir() {
            return corpus;
        }
        eprintln!(
            "note: HCLWRIGHT_CORPUS={} is not a folder; using {fallback}",
            corpus.display()
        );
    }
    PathBuf::from(fallback)
}

/// Every HCL file under `dir` (recursively, in path order) as
/// `(path, text)`, and how many were skipped as not UTF-8.
pub fn load(dir: &Path) -> (Vec<(PathBuf, String)>, usize) {
    let mut paths = Vec::new();
    collect(dir, &mut paths);
    paths.sort();
    let mut files = Vec::new();
    let mut skipped = 0;
    for path in paths {
        match std::fs::read(&path).map(String::from_utf8) {
            Ok(Ok(text)) => files.push((path, text)),
            Ok(Err(_)) => skipped += 1,
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
    }
    (files, skipped)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("cannot read {}", dir.display());
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if let Some(name) = path.file_name().and_then(|n| n.to_str())
            && EXTENSIONS.iter().any(|ext| name.ends_with(ext))
        {
            out.push(path);
        }
    }
}

/// Runs `f` once to warm up, then `reps` times; returns the fastest run.
/// What `f` returns is freed after the clock stops, so the times do not
/// include dropping the results.
pub fn best_of<T>(reps: usize, mut f: impl FnMut() -> T) -> Duration {
    drop(black_box(f()));
    (0..reps)
        .map(|_| {
            let start = Instant::now();
            let out = black_box(f());
            let elapsed = start.elapsed();
            drop(out);
            elapsed
        })
        .min()
        .unwrap_or_default()
}
