//! Edits of JSON syntax files keep the file valid and stay local, on any
//! member of real files: for every property of each file (the corpus
//! converted to JSON when `HCLWRIGHT_CORPUS` is set, the fixtures
//! otherwise), setting its value changes only the value's bytes,
//! removing it changes only the bytes between its neighbours, renaming
//! it changes only its name; each result parses without errors.

mod common;

use hclwright::json::{JsonDocument, JsonValue};
use hclwright::{TextRange, TextSize};

/// Every property as (address, name range, value range, the range from
/// the end of the previous item to the start of the next).
fn properties(text: &str) -> Vec<(String, TextRange, TextRange, TextRange)> {
    let parse = hclwright::json::parse(text);
    let mut out = Vec::new();
    let mut todo: Vec<(JsonValue, String)> = vec![(parse.root().unwrap(), String::new())];
    while let Some((value, path)) = todo.pop() {
        let JsonValue::Object(o) = &value else {
            continue;
        };
        let members: Vec<_> = o.members().collect();
        let whole = o.syntax().text_range();
        for (i, m) in members.iter().enumerate() {
            let (Some(name), Some(v)) = (m.name(), m.value()) else {
                continue;
            };
            // Names an address can spell plainly.
            if !hclwright::refs::is_identifier(&name) {
                continue;
            }
            let address = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            let before = if i == 0 {
                whole.start() + TextSize::new(1)
            } else {
                members[i - 1].syntax().text_range().end()
            };
            let after = members
                .get(i + 1)
                .map_or(whole.end() - TextSize::new(1), |n| {
                    n.syntax().text_range().start()
                });
            out.push((
                address.clone(),
                m.name_range(),
                v.range(),
                TextRange::new(before, after),
            ));
            todo.push((v, address));
        }
    }
    out
}

/// True when `new` is `old` with only the bytes in `range` replaced.
fn only_changed(old: &str, new: &str, range: TextRange) -> bool {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    new.len() >= start + (old.len() - end)
        && new.starts_with(&old[..start])
        && new.ends_with(&old[end..])
}

fn check_file(name: &str, text: &str) -> usize {
    let mut edits = 0;
    let props = properties(text);
    for (address, name_range, value_range, around) in props {
        let Ok(mut doc) = JsonDocument::parse(text) else {
            panic!("{name} does not parse");
        };
        // Ambiguous addresses (a name repeated in bodies) are refused, not
        // guessed: skip them.
        if doc.get_all(&address).map(|v| v.len()) != Ok(1) {
            continue;
        }
        doc.set(&address, "\"edited\"").unwrap();
        assert!(
            only_changed(text, doc.text(), value_range),
            "{name}: set {address} changed more than {value_range:?}"
        );
        let mut doc = JsonDocument::parse(text).unwrap();
        doc.remove(&address).unwrap();
        assert!(
            only_changed(text, doc.text(), around),
            "{name}: rm {address} changed more than {around:?}"
        );
        assert!(
            hclwright::json::parse(doc.text()).errors().is_empty(),
            "{name}: rm {address}"
        );
        let mut doc = JsonDocument::parse(text).unwrap();
        if doc.rename(&address, "zz_renamed").is_ok() {
            assert!(
                only_changed(text, doc.text(), name_range),
                "{name}: mv {address} changed more than {name_range:?}"
            );
            assert!(hclwright::json::parse(doc.text()).errors().is_empty());
        }
        edits += 3;
    }
    edits
}

#[test]
fn edits_stay_local_on_real_files() {
    let mut texts: Vec<(String, String)> = Vec::new();
    match common::corpus("the JSON edit property test over the corpus") {
        Some(dir) => {
            let invalid = common::invalid_files(&dir);
            // Every 10th file: the property is per member, and files are many.
            for rel in common::corpus_files(&dir).into_iter().step_by(10) {
                let key = rel.to_string_lossy().replace('\\', "/");
                if invalid.contains(&key) {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(dir.join(&rel)) else {
                    continue;
                };
                if let Ok(value) = hclwright::convert::to_json_value(&text) {
                    texts.push((key, hclwright::convert::write_indented(&value, "  ")));
                }
            }
        }
        None => {
            for dir in ["fixtures/edit-json", "fixtures/json/ok", "fixtures/convert"] {
                for entry in std::fs::read_dir(dir).unwrap() {
                    let path = entry.unwrap().path();
                    if path.extension().is_some_and(|e| e == "json") {
                        texts.push((
                            path.display().to_string(),
                            std::fs::read_to_string(&path).unwrap(),
                        ));
                    }
                }
            }
        }
    }
    let edits: usize = texts.iter().map(|(n, t)| check_file(n, t)).sum();
    assert!(edits > 30, "{edits}");
}
