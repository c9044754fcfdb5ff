//! The layers of `src/document/` and `src/cli/`: a module imports only
//! from its own layer or the layers under it, as the folders' module docs
//! and CONTRIBUTING.md ("The layers of the crate") say, and the imports
//! between the files of a folder form no circle.
//!
//! The imports are read from the source: every path that starts with
//! `crate::<folder>::` or `super::` outside comments and outside the
//! `mod tests` at the end of a file, with `{…}` groups expanded. A path
//! leads to the deepest file it names (`crate::document::primitives::
//! lines::line_indent` to `primitives/lines.rs`; a name the folder's
//! `mod.rs` defines or re-exports, such as `Document`, to that `mod.rs`).
//! Method calls are not imports: `impl Document` blocks spread over the
//! operations are seen through their `use` of `Document` alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file of the folder: its module path (`["primitives", "layout"]`;
/// `[]` for the folder's `mod.rs`, `["partial"]` for `partial/mod.rs`)
/// and whether it is a `mod.rs`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct File {
    module: Vec<String>,
    is_mod_rs: bool,
}

impl File {
    fn name(&self) -> String {
        match (self.module.is_empty(), self.is_mod_rs) {
            (true, _) => "mod.rs".to_string(),
            (false, true) => format!("{}/mod.rs", self.module.join("/")),
            (false, false) => format!("{}.rs", self.module.join("/")),
        }
    }

    /// The module `super::` names from this file.
    fn parent(&self) -> Vec<String> {
        let mut m = self.module.clone();
        m.pop();
        m
    }
}

/// Which layer a file is in, and which layers it may import.
struct Rules {
    /// The folder under `src/` (`document`, `cli`).
    folder: &'static str,
    /// The layer of a module path (higher is above).
    layer: fn(&[String]) -> (u8, &'static str),
    /// Whether a file of layer `from` may import a file of layer `to`
    /// (both numbers from `layer`; the module paths given too).
    allowed: fn(from: u8, to: u8, from_module: &[String], to_module: &[String]) -> bool,
    /// Files left out of the circle check (the facade, which declares
    /// the modules and is imported by those that add methods to it).
    facade: fn(&[String]) -> bool,
    /// Whether a sub-folder counts as one node of the circle check (a
    /// command's folder, such as `cli/lsp/`, whose files may import each
    /// other).
    subfolder_is_one: bool,
}

const DOCUMENT: Rules = Rules {
    folder: "document",
    layer: |m| match m.first().map(String::as_str) {
        None | Some("handle") => (4, "facade"),
        Some("operations") => (3, "operation"),
        Some("partial") => (2, "partial"),
        Some("primitives") => (1, "primitive"),
        Some(_) => (0, "base"),
    },
    // An operation imports no other operation; the facade (`Document`,
    // which the operations and partial edits add methods to) is imported
    // by those two layers, never by primitives or base modules.
    allowed: |from, to, _, _| to < from || (to == from && from != 3) || (to == 4 && from >= 2),
    facade: |m| m.is_empty() || m == ["handle"],
    subfolder_is_one: false,
};

const CLI: Rules = Rules {
    folder: "cli",
    layer: |m| match m.first().map(String::as_str) {
        None => (4, "entry"),
        Some("input" | "write" | "json" | "exit") => (0, "io"),
        Some("pipeline") => (1, "pipeline"),
        Some("files" | "editing" | "edit_json") => (2, "shared"),
        Some(_) => (3, "command"),
    },
    // A command imports no other command (the files of one command's
    // folder, such as `lsp/`, import each other); commands may name the
    // entry (`Cli`, for completions and the man page; the exit codes it
    // re-exports).
    allowed: |from, to, from_module, to_module| {
        to < from
            || (to == from && from != 3)
            || (to == 4 && from == 3)
            || (from_module.len() > 1 && from_module.first() == to_module.first())
    },
    facade: |m| m.is_empty(),
    subfolder_is_one: true,
};

/// The source of the folder: module path → text.
fn read_folder(root: &Path) -> BTreeMap<File, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(root.to_path_buf(), Vec::<String>::new())];
    while let Some((dir, prefix)) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let mut module = prefix.clone();
            if path.is_dir() {
                module.push(stem);
                stack.push((path, module));
            } else if path.extension().is_some_and(|e| e == "rs") {
                let is_mod_rs = stem == "mod";
                if !is_mod_rs {
                    module.push(stem);
                }
                let text = std::fs::read_to_string(&path).unwrap();
                out.insert(File { module, is_mod_rs }, text);
            }
        }
    }
    out
}

/// The text without `//` comments and without the `mod tests` that
/// ends a file.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path a `use` tree or an expression names, starting at `at`
/// (just after `prefix::`): pushed to `out` as `prefix` + its segments.
fn paths(text: &str, at: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let bytes = text.as_bytes();
    let mut i = at;
    let mut path = prefix;
    loop {
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'{' {
            // A group: each element continues the path.
            i += 1;
            loop {
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\n' | b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    return i + 1;
                }
                i = paths(text, i, path.clone(), out);
            }
        }
        let start = i;
        while i < bytes.len() && is_ident(bytes[i] as char) {
            i += 1;
        }
        if i > start {
            path.push(text[start..i].to_string());
        }
        if text[i..].starts_with("::") {
            i += 2;
            continue;
        }
        // `a as b`, `*`, or the end of the path.
        while i < bytes.len() && !matches!(bytes[i], b',' | b'}' | b';' | b'\n' | b'(') {
            if bytes[i] == b'{' {
                break;
            }
            i += 1;
        }
        out.push(path);
        return i;
    }
}

/// The files `file` imports (module paths of files of the folder).
fn imports(rules: &Rules, files: &BTreeMap<File, String>, file: &File) -> BTreeSet<File> {
    let text = code(&files[file]);
    let crate_prefix = format!("crate::{}::", rules.folder);
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let before_ok = i == 0 || !is_ident(text[..i].chars().next_back().unwrap());
        if before_ok && rest.starts_with(&crate_prefix) {
            i = paths(&text, i + crate_prefix.len(), Vec::new(), &mut found);
        } else if before_ok && rest.starts_with("super::") {
            // `super::super::x`: climb once per `super`; a path that
            // leaves the folder is not an import of it.
            let mut base = (!file.module.is_empty()).then(|| file.parent());
            let mut j = i + "super::".len();
            while text[j..].starts_with("super::") {
                base = base.filter(|b| !b.is_empty()).map(|mut b| {
                    b.pop();
                    b
                });
                j += "super::".len();
            }
            i = match base {
                Some(base) => paths(&text, j, base, &mut found),
                None => j,
            };
        } else {
            i += rest.chars().next().unwrap().len_utf8();
        }
    }
    let mut out = BTreeSet::new();
    for path in found {
        if let Some(target) = resolve(files, &path)
            && &target != file
        {
            out.insert(target);
        }
    }
    out
}

/// The deepest file that `path` (from the folder's root) names.
fn resolve(files: &BTreeMap<File, String>, path: &[String]) -> Option<File> {
    let mut best = None;
    for n in 0..=path.len() {
        let module = path[..n].to_vec();
        for is_mod_rs in [false, true] {
            let f = File {
                module: module.clone(),
                is_mod_rs: is_mod_rs || module.is_empty(),
            };
            if files.contains_key(&f) {
                best = Some(f);
            }
        }
        if n < path.len() && path[n].chars().next().is_some_and(char::is_uppercase) {
            break;
        }
    }
    best
}

/// What breaks the rules: a forbidden import, or a circle.
fn violations(rules: &Rules, files: &BTreeMap<File, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut graph: BTreeMap<File, BTreeSet<File>> = BTreeMap::new();
    for file in files.keys() {
        let (from, from_name) = (rules.layer)(&file.module);
        let deps = imports(rules, files, file);
        for dep in &deps {
            let (to, to_name) = (rules.layer)(&dep.module);
            // A file may import its own sub-folder's `mod.rs`.
            let same_folder_mod =
                dep.is_mod_rs && !dep.module.is_empty() && file.module.starts_with(&dep.module);
            if !(rules.allowed)(from, to, &file.module, &dep.module) && !same_folder_mod {
                out.push(format!(
                    "{}/{} ({from_name}) imports {}/{} ({to_name})",
                    rules.folder,
                    file.name(),
                    rules.folder,
                    dep.name()
                ));
            }
        }
        if !(rules.facade)(&file.module) {
            let node = |f: &File| match f.module.first() {
                Some(first)
                    if rules.subfolder_is_one && f.module.len() + usize::from(f.is_mod_rs) > 1 =>
                {
                    File {
                        module: vec![first.clone()],
                        is_mod_rs: true,
                    }
                }
                _ => f.clone(),
            };
            let from = node(file);
            let deps: Vec<File> = deps
                .iter()
                .filter(|d| !(rules.facade)(&d.module))
                .map(node)
                .filter(|d| *d != from)
                .collect();
            graph.entry(from).or_default().extend(deps);
        }
    }
    if let Some(circle) = find_circle(&graph) {
        let names: Vec<String> = circle.iter().map(File::name).collect();
        out.push(format!(
            "{}: a circle: {}",
            rules.folder,
            names.join(" -> ")
        ));
    }
    out
}

/// A circle of the graph, if there is one (its files, the first again
/// at the end).
fn find_circle(graph: &BTreeMap<File, BTreeSet<File>>) -> Option<Vec<File>> {
    // 0: not seen, 1: on the current path, 2: done.
    fn visit(
        f: &File,
        graph: &BTreeMap<File, BTreeSet<File>>,
        state: &mut BTreeMap<File, u8>,
        path: &mut Vec<File>,
    ) -> Option<Vec<File>> {
        state.insert(f.clone(), 1);
        path.push(f.clone());
        for d in graph.get(f).into_iter().flatten() {
            match state.get(d).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|p| p == d).unwrap();
                    let mut circle = path[at..].to_vec();
                    circle.push(d.clone());
                    return Some(circle);
                }
                0 => {
                    if let Some(c) = visit(d, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(f.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for f in graph.keys() {
        if state.get(f).copied().unwrap_or(0) == 0
            && let Some(c) = visit(f, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

fn check(rules: &Rules) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(rules.folder);
    let files = read_folder(&root);
    assert!(files.len() > 3, "no source read from {}", root.display());
    let found = violations(rules, &files);
    assert!(
        found.is_empty(),
        "src/{} breaks its layers (see CONTRIBUTING.md, \"The layers of the crate\"):\n{}",
        rules.folder,
        found.join("\n")
    );
}

#[test]
fn document_modules_import_only_from_their_layer_and_below() {
    check(&DOCUMENT);
}

#[test]
fn cli_modules_import_only_from_their_layer_and_below() {
    check(&CLI);
}

/// A folder made of `(path, text)` pairs, as `read_folder` gives it.
fn folder(files: &[(&str, &str)]) -> BTreeMap<File, String> {
    files
        .iter()
        .map(|(path, text)| {
            let mut module: Vec<String> = path
                .trim_end_matches(".rs")
                .split('/')
                .map(str::to_string)
                .collect();
            let is_mod_rs = module.last().is_some_and(|m| m == "mod");
            if is_mod_rs {
                module.pop();
            }
            (File { module, is_mod_rs }, text.to_string())
        })
        .collect()
}

#[test]
fn the_checker_sees_a_primitive_importing_an_operation() {
    let files = folder(&[
        (
            "mod.rs",
            "mod primitives;\nmod operations;\npub struct Document;\n",
        ),
        ("primitives/mod.rs", "pub(super) mod lines;\n"),
        (
            "primitives/lines.rs",
            "use crate::document::operations::edit_item::{set, unit};\n",
        ),
        ("operations/mod.rs", "pub(super) mod edit_item;\n"),
        (
            "operations/edit_item.rs",
            "use super::super::primitives::lines;\nuse crate::document::Document;\n",
        ),
    ]);
    let found = violations(&DOCUMENT, &files);
    assert_eq!(
        found,
        [
            "document/primitives/lines.rs (primitive) imports document/operations/edit_item.rs (operation)",
            "document: a circle: operations/edit_item.rs -> primitives/lines.rs -> operations/edit_item.rs",
        ]
    );
}

#[test]
fn the_checker_sees_operations_importing_each_other_and_base_importing_the_facade() {
    let files = folder(&[
        (
            "mod.rs",
            "pub struct Document;\npub use value::EditValue;\n",
        ),
        ("value.rs", "pub struct EditValue;\n"),
        (
            "item.rs",
            "use super::{EditValue, value::EditValue as V};\n",
        ),
        ("operations/mod.rs", ""),
        (
            "operations/edit_item.rs",
            "use super::edit_block::Target;\n",
        ),
        ("operations/edit_block.rs", "pub struct Target;\n"),
        (
            "primitives/body.rs",
            "// use crate::document::Document; (a comment)\n#[cfg(test)]\nmod tests {\n    use crate::document::Document;\n}\n",
        ),
    ]);
    let found = violations(&DOCUMENT, &files);
    assert_eq!(
        found,
        [
            "document/item.rs (base) imports document/mod.rs (facade)",
            "document/operations/edit_item.rs (operation) imports document/operations/edit_block.rs (operation)",
        ]
    );
}
