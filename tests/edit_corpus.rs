//! Properties of edits over the real-world corpus: for random edits of
//! every kind on every valid file,
//!
//! - the result parses without errors, into the tree a fresh parse gives;
//! - the text edits applied to the original give the result;
//! - outside the edited item (its lines, or the body it is created in),
//!   the only changes are alignment spaces;
//! - a file that was `fmt`-clean is still `fmt`-clean.
//!
//! Needs `HCLWRIGHT_CORPUS` (CI: `../shared/corpus`); skipped otherwise.

mod common;

use std::collections::HashSet;

use hclwright::ast::{AstNode, Block, Expr};
use hclwright::diff::apply_edits;
use hclwright::document::{Address, Step};
use hclwright::{Document, EditError, EditValue, Placement, SyntaxKind, SyntaxNode, TextRange};

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The address steps of a block (its own type and labels, after its
/// ancestors').
fn block_steps(block: &Block) -> Vec<Step> {
    let mut chain: Vec<Block> = block.syntax().ancestors().filter_map(Block::cast).collect();
    chain.reverse();
    let mut steps = Vec::new();
    for b in chain {
        steps.push(Step::Name(b.type_name().unwrap_or_default()));
        for l in b.labels() {
            steps.push(Step::Name(l.value()));
        }
    }
    steps
}

/// The address of a node inside a body: blocks, attribute, then object
/// keys and tuple indexes. `None` when a step has no literal name.
fn address_of(node: &SyntaxNode) -> Option<Address> {
    let mut value_steps = Vec::new();
    let mut current = node.clone();
    let mut attr = None;
    loop {
        match current.kind() {
            SyntaxKind::ATTRIBUTE => {
                attr = hclwright::ast::Attribute::cast(current.clone());
                break;
            }
            SyntaxKind::BLOCK => break,
            SyntaxKind::OBJECT_ITEM => {
                let item = hclwright::ast::ObjectItem::cast(current.clone())?;
                value_steps.push(Step::Name(item.key()?.literal_name()?));
            }
            _ => {
                if let Some(parent) = current.parent()
                    && parent.kind() == SyntaxKind::TUPLE
                    && Expr::can_cast(current.kind())
                {
                    let tuple = hclwright::ast::Tuple::cast(parent)?;
                    let index = tuple.elements().position(|e| e.syntax() == &current)?;
                    value_steps.push(Step::Index(index));
                }
            }
        }
        current = current.parent()?;
    }
    let mut steps = match current.ancestors().skip(1).find_map(Block::cast) {
        Some(b) => block_steps(&b),
        None => Vec::new(),
    };
    if current.kind() == SyntaxKind::BLOCK {
        steps = block_steps(&Block::cast(current)?);
    }
    if let Some(a) = attr {
        steps.push(Step::Name(a.name()?));
    }
    value_steps.reverse();
    steps.extend(value_steps);
    if steps.is_empty() {
        return None;
    }
    Some(Address::new(steps))
}

/// One edit to try, with the range of the original text it may change
/// (besides alignment spaces).
struct Plan {
    what: String,
    allowed: TextRange,
    run: EditFn,
}

impl Plan {
    /// `doc.set(address, value)`; an ambiguous address is not a failure.
    fn set(verb: &str, address: Address, value: EditValue, allowed: TextRange) -> Plan {
        Plan {
            what: format!("{verb} {address} = {value}"),
            allowed,
            run: Box::new(move |d| tolerate_ambiguous(d.set(&address, value))),
        }
    }
}

/// An ambiguous address is a legitimate refusal in a random edit.
fn tolerate_ambiguous(result: Result<(), EditError>) -> Result<(), EditError> {
    match result {
        Err(EditError::Ambiguous { .. }) => Ok(()),
        other => other,
    }
}

/// An edit to run on a copy of the document.
type EditFn = Box<dyn FnOnce(&mut Document) -> Result<(), EditError>>;

fn values(rng: &mut Rng) -> EditValue {
    match rng.below(6) {
        0 => EditValue::from("x ${not} interpolated"),
        1 => EditValue::from(42),
        2 => EditValue::parse("var.some_thing[0].id").unwrap(),
        3 => EditValue::object([
            ("a", EditValue::from(1)),
            ("long_key", EditValue::from("v")),
        ]),
        4 => EditValue::from(vec!["a", "b"]),
        _ => EditValue::heredoc("line one\n  line two\n"),
    }
}

/// The whole lines around `range`, one more on each side.
fn widen(text: &str, range: TextRange) -> TextRange {
    let start = usize::from(range.start());
    let end = usize::from(range.end());
    let line_start = |pos: usize| text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let mut s = line_start(start);
    if s > 0 {
        s = line_start(s - 1);
    }
    let line_end = |pos: usize| text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
    let mut e = line_end(end);
    if e < text.len() {
        e = line_end(e);
    }
    TextRange::new((s as u32).into(), (e as u32).into())
}

fn plans(doc: &Document, rng: &mut Rng) -> Vec<Plan> {
    let root = doc.syntax();
    let text = doc.to_string();
    let mut out: Vec<Plan> = Vec::new();
    let attrs: Vec<_> = root
        .descendants()
        .filter(|n| n.kind() == SyntaxKind::ATTRIBUTE)
        .collect();
    let blocks: Vec<_> = root.descendants().filter_map(Block::cast).collect();
    let unique = |a: &Address| doc.get_all(a).map(|v| v.len() == 1).unwrap_or(false);
    if !attrs.is_empty() {
        let node = attrs[rng.below(attrs.len())].clone();
        if let Some(addr) = address_of(&node).filter(unique) {
            let range = node.text_range();
            let v = values(rng);
            let a = addr.clone();
            // A heredoc makes a one-line block (`a { b = 1 }`) multi-line.
            let one_line_block = node
                .parent()
                .and_then(|body| body.parent())
                .and_then(Block::cast)
                .filter(|b| b.is_single_line());
            out.push(Plan {
                what: format!("set {addr} = {v}"),
                allowed: one_line_block.map_or(range, |b| b.syntax().text_range()),
                run: Box::new(move |d| d.set(&a, v)),
            });
            let a = addr.clone();
            out.push(Plan {
                what: format!("remove {addr}"),
                allowed: widen(&text, range),
                run: Box::new(move |d| d.remove(&a)),
            });
            let a = addr.clone();
            out.push(Plan {
                what: format!("rename {addr}"),
                allowed: range,
                run: Box::new(move |d| match d.rename(&a, "renamed_attr") {
                    Err(EditError::AlreadyExists { .. }) => Ok(()),
                    other => other,
                }),
            });
            let a = addr.clone();
            out.push(Plan {
                what: format!("inline comment on {addr}"),
                allowed: range,
                run: Box::new(move |d| d.set_inline_comment(&a, Some("added"))),
            });
            let a = addr.clone();
            out.push(Plan {
                what: format!("comment above {addr}"),
                allowed: widen(&text, range),
                run: Box::new(move |d| d.set_comments_above(&a, &["above", "twice"])),
            });
        }
    }
    // Inside values: object items and tuple elements.
    let inner: Vec<_> = root
        .descendants()
        .filter(|n| {
            n.kind() == SyntaxKind::OBJECT_ITEM
                || (n.parent().is_some_and(|p| p.kind() == SyntaxKind::TUPLE)
                    && Expr::can_cast(n.kind()))
        })
        .collect();
    if !inner.is_empty() {
        let node = inner[rng.below(inner.len())].clone();
        let container = node.parent().expect("in a collection");
        if let Some(addr) = address_of(&node).filter(unique) {
            let range = container.text_range();
            let v = values(rng);
            let a = addr.clone();
            out.push(Plan {
                what: format!("set {addr} = {v}"),
                allowed: range,
                run: Box::new(move |d| d.set(&a, v)),
            });
            let a = addr.clone();
            out.push(Plan {
                what: format!("remove {addr}"),
                allowed: widen(&text, range),
                run: Box::new(move |d| d.remove(&a)),
            });
            if let Some((parent, Step::Index(i))) = addr.parent().map(|(p, s)| (p, s.clone())) {
                let v = values(rng);
                let p = parent.clone();
                out.push(Plan {
                    what: format!("insert {parent}[{i}] = {v}"),
                    allowed: widen(&text, range),
                    run: Box::new(move |d| d.insert_element(&p, i, v)),
                });
                let v = values(rng);
                out.push(Plan {
                    what: format!("add {v} after {parent}[{i}]"),
                    allowed: widen(&text, range),
                    run: Box::new(move |d| d.add_element(&parent, v, Placement::AfterIndex(i))),
                });
            } else if let Some((parent, Step::Name(key))) =
                addr.parent().map(|(p, s)| (p, s.clone()))
            {
                let v = values(rng);
                let mut steps = parent.steps().to_vec();
                steps.push(Step::Name("placed_key".into()));
                let a = Address::new(steps);
                out.push(Plan {
                    what: format!("add {a} = {v} before {key}"),
                    allowed: widen(&text, range),
                    run: Box::new(move |d| {
                        tolerate_ambiguous(d.set_with(&a, v, Placement::Before(key.clone())))
                    }),
                });
            }
            if let Some((parent, Step::Name(_))) = addr.parent().map(|(p, s)| (p, s.clone())) {
                let v = values(rng);
                let mut steps = parent.steps().to_vec();
                steps.push(Step::Name("new_key".into()));
                let a = Address::new(steps);
                out.push(Plan::set("add", a, v, widen(&text, range)));
            }
        }
    }
    if !blocks.is_empty() {
        let block = blocks[rng.below(blocks.len())].clone();
        let steps = block_steps(&block);
        let addr = Address::new(steps);
        if unique(&addr) {
            let range = block.syntax().text_range();
            let mut steps = addr.steps().to_vec();
            steps.push(Step::Name("new_attr".into()));
            let a = Address::new(steps);
            let v = values(rng);
            out.push(Plan::set("create", a, v, range));
            let mut steps = addr.steps().to_vec();
            steps.extend([Step::Name("lifecycle".into()), Step::Name("new_map".into())]);
            steps.push(Step::Key("a key".into()));
            let a = Address::new(steps);
            let v = values(rng);
            out.push(Plan::set("create", a, v, range));
            let b = addr.to_string();
            out.push(Plan {
                what: format!("append block to {b}"),
                allowed: range,
                run: Box::new(move |d| {
                    d.append_block(&b, "extra", &["one"], "x = 1\nlonger_name = \"two\"\n")
                }),
            });
            let a = addr.clone();
            out.push(Plan {
                what: format!("remove block {addr}"),
                allowed: widen(&text, range),
                run: Box::new(move |d| d.remove(&a)),
            });
        }
    }
    let len = hclwright::TextSize::of(text.as_str());
    out.push(Plan {
        what: "append top-level block".into(),
        allowed: TextRange::new(
            doc.body()
                .items()
                .last()
                .map_or(0.into(), |i| i.syntax().text_range().start()),
            len,
        ),
        run: Box::new(|d| d.append_block("", "output", &["x"], "value = 1\n")),
    });
    // A new `terraform` block, or what is missing in the existing one.
    let v = values(rng);
    let whole = TextRange::new(0.into(), len);
    let allowed = doc
        .get("terraform")
        .map_or(TextRange::new(whole.end(), whole.end()), |t| {
            t.syntax().text_range()
        });
    let tail = doc
        .body()
        .items()
        .last()
        .map_or(0.into(), |i| i.syntax().text_range().start());
    out.push(Plan {
        what: format!("create terraform.required_providers.test.version = {v}"),
        allowed: allowed.cover(TextRange::new(tail.min(allowed.start()), len)),
        run: Box::new(move |d| {
            tolerate_ambiguous(d.set("terraform.required_providers.test.version", v))
        }),
    });
    out
}

fn only_spaces(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t')
}

#[test]
fn random_edits_over_the_corpus() {
    let Some(dir) = common::corpus("the edit corpus test") else {
        return;
    };
    let invalid: HashSet<String> = std::fs::read_to_string(dir.join("INVALID.txt"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    let mut failures = Vec::new();
    let (mut files_seen, mut edits_done, mut refused, mut clean_files) = (0, 0, 0, 0);
    for (n, path) in common::corpus_files(&dir)
        .iter()
        .map(|rel| dir.join(rel))
        .enumerate()
    {
        let rel = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if invalid.contains(&rel) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(doc) = Document::parse(&text) else {
            continue;
        };
        files_seen += 1;
        let clean = hclwright::format(&text) == text;
        clean_files += usize::from(clean);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (n as u64 + 1));
        for plan in plans(&doc, &mut rng) {
            let mut edited = doc.clone();
            match (plan.run)(&mut edited) {
                Ok(()) => edits_done += 1,
                Err(EditError::Broken { reason }) => {
                    failures.push(format!("{rel}: {}: broken: {reason}", plan.what));
                    continue;
                }
                Err(_) => {
                    refused += 1;
                    continue;
                }
            }
            let out = edited.to_string();
            let fresh = hclwright::parse(&out);
            if !fresh.errors().is_empty() {
                failures.push(format!("{rel}: {}: result does not parse", plan.what));
                continue;
            }
            if hclwright::debug_tree(&fresh.syntax()) != hclwright::debug_tree(&edited.syntax()) {
                failures.push(format!(
                    "{rel}: {}: tree differs from a fresh parse",
                    plan.what
                ));
            }
            let edits = edited.text_edits();
            if apply_edits(&text, &edits).as_deref() != Ok(out.as_str()) {
                failures.push(format!("{rel}: {}: text edits do not reproduce", plan.what));
            }
            for e in &edits {
                let old = &text[usize::from(e.range.start())..usize::from(e.range.end())];
                let inside = plan.allowed.contains_range(e.range);
                let alignment = only_spaces(old) && only_spaces(&e.new_text);
                if !inside && !alignment {
                    failures.push(format!(
                        "{rel}: {}: change outside the item at {:?}: {old:?} -> {:?}",
                        plan.what, e.range, e.new_text
                    ));
                }
            }
            if clean && hclwright::format(&out) != out {
                failures.push(format!(
                    "{rel}: {}: fmt-clean file is no longer clean:\n{}",
                    plan.what,
                    hclwright::diff::unified_diff(&out, &hclwright::format(&out), &rel)
                ));
            }
        }
    }
    eprintln!(
        "edit corpus: {files_seen} files ({clean_files} fmt-clean), {edits_done} edits applied, {refused} refused, {} failures",
        failures.len()
    );
    for f in failures.iter().take(25) {
        eprintln!("{f}");
    }
    if let Ok(path) = std::env::var("EDIT_CORPUS_LOG") {
        std::fs::write(path, failures.join("\n=====\n")).expect("writable log");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}
