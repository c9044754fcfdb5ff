//! Edits over `fixtures/edit/*.hcl`. Each fixture lists its edits on its
//! first lines (`# edit: OP ARGS`); every edit is applied on its own to
//! the whole file and snapshotted as the unified diff it makes (so any
//! collateral change shows), or as its error. Every result is checked:
//! it parses, the text edits reproduce it, and a fixture that is
//! `fmt`-clean stays clean.
//!
//! Ops: `set ADDR HCL`, `string ADDR TEXT`, `heredoc ADDR TEXT`,
//! `set-after ADDR SIBLING HCL`, `set-at ADDR PLACEMENT HCL`,
//! `add ADDR PLACEMENT HCL` (a tuple element; PLACEMENT is `first`,
//! `last`, `before=NAME`, `after=NAME`, `before#N` or `after#N`),
//! `rm ADDR`, `mv ADDR NAME`, `move FROM TO` (a block to new labels),
//! `insert ADDR INDEX HCL`, `push ADDR HCL`,
//! `block PARENT TYPE LABEL... [| BODY]` (PARENT `.` is the top level),
//! `block-before PARENT SIBLING TYPE LABEL...`, `labels ADDR LABEL...`,
//! `above ADDR [LINE | LINE…]`, `inline ADDR [TEXT]`, `prefix FROM TO`.
//! `\n` in TEXT and BODY is a newline.

use hclwright::diff::{apply_edits, unified_diff};
use hclwright::{Document, EditError, EditValue, Placement};

fn unescape(s: &str) -> String {
    s.replace("\\n", "\n")
}

/// Splits off the first word.
fn word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(' ') {
        Some(i) => (&s[..i], s[i + 1..].trim_start()),
        None => (s, ""),
    }
}

/// `first`, `last`, `before=NAME`, `after=NAME`, `before#N`, `after#N`.
fn placement_of(text: &str) -> Placement {
    match text {
        "first" => Placement::First,
        "last" => Placement::Last,
        _ => {
            if let Some(name) = text.strip_prefix("before=") {
                Placement::Before(name.to_string())
            } else if let Some(name) = text.strip_prefix("after=") {
                Placement::After(name.to_string())
            } else if let Some(n) = text.strip_prefix("before#") {
                Placement::BeforeIndex(n.parse().unwrap())
            } else if let Some(n) = text.strip_prefix("after#") {
                Placement::AfterIndex(n.parse().unwrap())
            } else {
                panic!("unknown placement {text}")
            }
        }
    }
}

fn apply(doc: &mut Document, op: &str) -> Result<(), EditError> {
    let (name, rest) = word(op);
    match name {
        "set" => {
            let (addr, value) = word(rest);
            doc.set(addr, EditValue::parse(&unescape(value))?)
        }
        "string" => {
            let (addr, text) = word(rest);
            doc.set(addr, unescape(text))
        }
        "heredoc" => {
            let (addr, text) = word(rest);
            doc.set(addr, EditValue::heredoc(unescape(text)))
        }
        "set-at" => {
            let (addr, rest) = word(rest);
            let (placement, value) = word(rest);
            doc.set_with(addr, EditValue::parse(value)?, placement_of(placement))
        }
        "add" => {
            let (addr, rest) = word(rest);
            let (placement, value) = word(rest);
            doc.add_element(addr, EditValue::parse(value)?, placement_of(placement))
        }
        "set-after" => {
            let (addr, rest) = word(rest);
            let (sibling, value) = word(rest);
            doc.set_with(
                addr,
                EditValue::parse(value)?,
                Placement::After(sibling.into()),
            )
        }
        "rm" => doc.remove(rest.trim()),
        "mv" => {
            let (addr, new) = word(rest);
            doc.rename(addr, new.trim())
        }
        "move" => {
            let (from, to) = word(rest);
            doc.move_block(from, to.trim())
        }
        "insert" => {
            let (addr, rest) = word(rest);
            let (index, value) = word(rest);
            doc.insert_element(addr, index.parse().unwrap(), EditValue::parse(value)?)
        }
        "push" => {
            let (addr, value) = word(rest);
            doc.push_element(addr, EditValue::parse(value)?)
        }
        "block" | "block-before" => {
            let (head, body) = rest.split_once(" | ").unwrap_or((rest, ""));
            let mut words = head.split_whitespace();
            let parent = words.next().unwrap();
            let parent = if parent == "." { "" } else { parent };
            let placement = if name == "block-before" {
                Placement::Before(words.next().unwrap().to_string())
            } else {
                Placement::Last
            };
            let type_name = words.next().unwrap();
            let labels: Vec<&str> = words.collect();
            doc.insert_block(parent, type_name, &labels, &unescape(body), placement)
        }
        "labels" => {
            let mut words = rest.split_whitespace();
            let addr = words.next().unwrap();
            let labels: Vec<&str> = words.collect();
            doc.set_labels(addr, &labels)
        }
        "above" => {
            let (addr, lines) = word(rest);
            let lines: Vec<&str> = if lines.is_empty() {
                Vec::new()
            } else {
                lines.split(" | ").collect()
            };
            doc.set_comments_above(addr, &lines)
        }
        "inline" => {
            let (addr, text) = word(rest);
            doc.set_inline_comment(addr, (!text.is_empty()).then_some(text))
        }
        "prefix" => {
            let (from, to) = word(rest);
            doc.rename_prefix(from, to.trim()).map(|_| ())
        }
        other => panic!("unknown op {other}"),
    }
}

#[test]
fn edit_fixtures() {
    insta::glob!("../fixtures/edit", "*.hcl", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let clean = hclwright::format(&text) == text;
        let doc = Document::parse(&text).unwrap();
        let mut report = String::new();
        let ops: Vec<&str> = text
            .lines()
            .map_while(|l| l.trim_end_matches('\r').strip_prefix("# edit: "))
            .collect();
        assert!(!ops.is_empty(), "{name}: no `# edit:` line");
        for op in ops {
            report.push_str(&format!(">>> {op}\n"));
            let mut edited = doc.clone();
            match apply(&mut edited, op) {
                Err(e) => report.push_str(&format!("error: {e}\n\n")),
                Ok(()) => {
                    let out = edited.to_string();
                    let reparsed = hclwright::parse(&out);
                    assert!(reparsed.errors().is_empty(), "{name}: {op}: {out}");
                    let edits = edited.text_edits();
                    assert_eq!(apply_edits(&text, &edits).unwrap(), out, "{name}: {op}");
                    if clean {
                        assert_eq!(
                            hclwright::format(&out),
                            out,
                            "{name}: {op}: no longer fmt-clean"
                        );
                    }
                    report.push_str(&unified_diff(&text, &out, &name));
                    report.push('\n');
                }
            }
        }
        insta::assert_snapshot!(report);
    });
}
