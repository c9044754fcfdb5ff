//! Shared by the editing examples: the files to edit, opened as documents.

use hclwright::Document;

/// The files named in `paths` — or, when there are none, the built-in
/// `example` as `main.tf` — each opened as a [`Document`]. A file with
/// syntax errors is reported (like `hclwright check`) and skipped.
pub fn documents(paths: &[String], example: &str) -> Vec<(String, Document)> {
    let files: Vec<(String, String)> = if paths.is_empty() {
        vec![("main.tf".to_string(), example.to_string())]
    } else {
        paths
            .iter()
            .map(|p| {
                let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
                (p.clone(), text)
            })
            .collect()
    };
    files
        .into_iter()
        .filter_map(|(path, text)| match Document::parse(&text) {
            Ok(doc) => Some((path, doc)),
            Err(e) => {
                eprint!("{}", e.render(&path, &text));
                None
            }
        })
        .collect()
}
