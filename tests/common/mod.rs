//! Helpers shared by the integration tests: the real-world corpus, a
//! temporary directory, running the `hclwright` binary, rendering errors.
//!
//! Each test crate uses a part of this module, so unused items are fine.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Every error rendered for a human, one after the other.
pub fn render_errors(name: &str, text: &str, errors: &[hclwright::SyntaxError]) -> String {
    errors.iter().map(|e| e.render(name, text)).collect()
}

/// The corpus folder named by `HCLWRIGHT_CORPUS` (relative paths are taken
/// from the repository root), or `None` with a note naming `what` is
/// skipped. CI sets it to `../shared/corpus`.
pub fn corpus(what: &str) -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("HCLWRIGHT_CORPUS") else {
        eprintln!("note: HCLWRIGHT_CORPUS is not set; skipping {what}");
        return None;
    };
    let dir = PathBuf::from(dir);
    let dir = if dir.is_relative() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)
    } else {
        dir
    };
    if !dir.is_dir() {
        eprintln!("note: {} is missing; skipping {what}", dir.display());
        return None;
    }
    Some(dir)
}

/// Every HCL file of the corpus (hidden ones included; not `INVALID.txt`),
/// relative to `dir`, sorted.
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable corpus folder") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n != "INVALID.txt") {
                out.push(path.strip_prefix(dir).expect("inside").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The files the upstream parser rejects (`INVALID.txt`), as relative
/// paths with `/` separators.
pub fn invalid_files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(dir.join("INVALID.txt"))
        .expect("INVALID.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// A relative path with `/` separators.
pub fn slash_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// A fresh directory with the given files; removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates the directory and writes `files` (`(relative path, text)`).
    pub fn new(files: &[(&str, &str)]) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let test = std::env::args().next().unwrap_or_default();
        let test = Path::new(&test)
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let dir = std::env::temp_dir().join(format!("hclwright-{test}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        TempDir(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The text of a file in it.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.0.join(name)).unwrap()
    }

    /// Every file name in the directory (not recursive), sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A tree of directories `depth` levels deep, every directory holding the
/// same HCL files with `text` and the same subdirectories, their names in
/// an order that is not the sorted one. Returns the tree and its HCL files
/// (relative, `/`-separated) in the order of a serial walk: in each
/// directory its files sorted by name (bytes), then its subdirectories,
/// sorted, one after the other.
pub fn nested_tree(depth: usize, text: &str) -> (TempDir, Vec<String>) {
    const FILES: [&str; 4] = ["b.tf", "a.tfvars", "B.hcl", "a-b.nomad"];
    // "0" sorts before every file name, "a.d" between two of them.
    const DIRS: [&str; 4] = ["m", "a.d", "Z", "0"];
    fn walk(prefix: &str, depth: usize, out: &mut Vec<String>) {
        let mut files = FILES;
        files.sort_unstable();
        out.extend(files.iter().map(|f| format!("{prefix}{f}")));
        if depth > 0 {
            let mut dirs = DIRS;
            dirs.sort_unstable();
            for d in dirs {
                walk(&format!("{prefix}{d}/"), depth - 1, out);
            }
        }
    }
    let mut expected = Vec::new();
    walk("", depth, &mut expected);
    // Created in reverse walk order, for file systems that list entries
    // in the order they were made.
    let mut creation = expected.clone();
    creation.reverse();
    let files: Vec<(&str, &str)> = creation.iter().map(|p| (p.as_str(), text)).collect();
    (TempDir::new(&files), expected)
}

/// Runs the `hclwright` binary in `dir` with `args`, feeding `stdin`.
pub fn hclwright(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hclwright"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hclwright");
    // The tool may exit before reading its input; that is not an error.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The exit code.
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// Every file of `dir` (not recursive), sorted by name, as source files
/// named by their file name.
pub fn source_files(dir: &Path) -> Vec<hclwright::refs::SourceFile> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            hclwright::refs::SourceFile::new(p.file_name().unwrap(), text)
        })
        .collect()
}

/// Asserts that every edit of `renamed` lies inside (or, for an insertion,
/// at the edge of) a reference that `rename` matches in `root`.
pub fn assert_edits_inside_matches(
    rename: &hclwright::refs::Rename,
    root: &hclwright::SyntaxNode,
    renamed: &hclwright::refs::Renamed,
    context: &str,
) {
    let matched: Vec<_> = rename
        .matches(root)
        .iter()
        .map(|r| r.traversal.range())
        .collect();
    for edit in &renamed.edits {
        assert!(
            matched.iter().any(|r| r.contains_range(edit.range)),
            "{context}: edit {edit:?} outside every matched reference"
        );
    }
}

/// Whether `expr` gives the same value (printed) and diagnostics lowered
/// (`CompiledExpr`) as from its tree; panics when they differ. Returns
/// false, having compared only diagnostics, when two evaluations from the
/// tree differ themselves (`uuid()`, `timestamp()`).
pub fn same_lowered(expr: &hclwright::ast::Expr, ctx: &hclwright::eval::EvalContext) -> bool {
    use hclwright::eval::{CompiledExpr, console_string, evaluate};
    let tree = evaluate(expr, ctx);
    let again = evaluate(expr, ctx);
    let lowered = CompiledExpr::new(expr).evaluate(ctx);
    assert_eq!(tree.diagnostics, lowered.diagnostics, "`{expr}`");
    if console_string(&tree.value) != console_string(&again.value) {
        return false;
    }
    assert_eq!(
        console_string(&tree.value),
        console_string(&lowered.value),
        "`{expr}`"
    );
    true
}
