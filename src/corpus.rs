//! The real-world corpus for unit tests (`HCLWRIGHT_CORPUS`, as the
//! integration tests read it through `tests/common`).

use std::path::PathBuf;

/// Every readable text file under `HCLWRIGHT_CORPUS`, with its path; `None`
/// (after a printed note naming `what`) when the variable is not set or
/// names no folder.
pub(crate) fn texts(what: &str) -> Option<Vec<(PathBuf, String)>> {
    let Some(dir) = std::env::var_os("HCLWRIGHT_CORPUS").map(PathBuf::from) else {
        eprintln!("note: HCLWRIGHT_CORPUS is not set; skipping {what}");
        return None;
    };
    if !dir.is_dir() {
        eprintln!("note: {} is missing; skipping {what}", dir.display());
        return None;
    }
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("readable corpus") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                out.push((path, text));
            }
        }
    }
    out.sort();
    Some(out)
}

/// The text of every `.tf` and `.hcl` file under `fixtures/`.
pub(crate) fn fixture_texts() -> Vec<String> {
    let mut texts = Vec::new();
    let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).expect("the fixtures").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "tf" || e == "hcl") {
                texts.push(std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    texts
}
