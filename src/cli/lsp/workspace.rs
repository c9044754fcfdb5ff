//! The open documents, file URIs, and the files of a folder or of the
//! workspace as the editor holds them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::diagnostics::Uses;

/// An open document.
pub struct Doc {
    /// Its text as the editor holds it.
    pub text: String,
    /// The version of the last change.
    pub version: i32,
    /// The references its diagnostics last looked at.
    pub uses: RefCell<Uses>,
}

/// The open documents, keyed by the URI's text (`Uri` caches parts of
/// itself inside).
pub type Docs = HashMap<String, Doc>;

/// True for a document of the JSON syntax (`*.tf.json`, any `.json`).
pub fn is_json(uri: &str) -> bool {
    uri.ends_with(".json")
}

/// The folder of a `file://` URI's path.
pub fn folder_of(uri: &str) -> Option<PathBuf> {
    Some(file_path(uri)?.parent()?.to_path_buf())
}

/// The files of `folder` whose names end with one of `suffixes` (`.tf`,
/// `.tf.json`; but `except`), sorted,
/// each with its text: as the editor holds it when open, as saved
/// otherwise (a document open in the folder but not yet saved counts).
pub fn folder_files(
    folder: &Path,
    suffixes: &[&str],
    except: Option<&Path>,
    docs: &Docs,
) -> Vec<(PathBuf, String)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    let unsaved = docs
        .keys()
        .filter_map(|uri| file_path(uri))
        .filter(|p| p.parent() == Some(folder) && !p.exists());
    paths.extend(unsaved);
    paths.retain(|p| {
        Some(p.as_path()) != except
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| suffixes.iter().any(|s| n.ends_with(s)))
    });
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .map(|p| {
            let text = open_doc(docs, &p)
                .map(|(_, d)| d.text.clone())
                .unwrap_or_else(|| std::fs::read_to_string(&p).unwrap_or_default());
            (p, text)
        })
        .collect()
}

/// The open document of a file, with the URI the editor gave it (which
/// may escape characters differently from [`path_uri`]).
pub fn open_doc<'a>(docs: &'a Docs, path: &Path) -> Option<(&'a str, &'a Doc)> {
    docs.iter()
        .find(|(uri, _)| file_path(uri).is_some_and(|p| p == path))
        .map(|(uri, doc)| (uri.as_str(), doc))
}

/// The URI to give the editor for a file: the open document's, else its
/// `file://` URI.
pub fn uri_for(docs: &Docs, path: &Path) -> String {
    open_doc(docs, path).map_or_else(|| path_uri(path), |(uri, _)| uri.to_string())
}

/// A path as a `file://` URI (`%`, spaces and `#` escaped).
pub fn path_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for c in path.display().to_string().chars() {
        match c {
            '%' => out.push_str("%25"),
            ' ' => out.push_str("%20"),
            '#' => out.push_str("%23"),
            '?' => out.push_str("%3F"),
            c => out.push(c),
        }
    }
    out
}

/// The local path of a `file://` URI.
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://localhost/…` names the local host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(b) = rest
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        for p in ["/a/b c/main.tf", "/x/100%/#1?.tf", "/é/f.tf"] {
            let uri = path_uri(Path::new(p));
            assert_eq!(file_path(&uri).unwrap(), PathBuf::from(p), "{uri}");
        }
        assert_eq!(
            file_path("file:///a/%C3%A9.tf").unwrap(),
            PathBuf::from("/a/é.tf")
        );
        assert_eq!(file_path("untitled:1"), None);
    }
}
