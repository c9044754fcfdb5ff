//! An index of the top-level attributes and blocks by name and first
//! label, so that an address finds its top-level item without a walk
//! over every item of a large file.
//!
//! Built from the top-level body's children (positions are child
//! indexes) and kept valid across edits: an edit that replaces some
//! children updates their entries and shifts the later positions.

use rowan::{GreenNode, GreenNodeData, GreenToken, NodeOrToken};
use rustc_hash::FxHashMap;

use super::address::Step;
use crate::ast::decode_quoted;
use crate::parser::TopItem;
use crate::syntax_kind::SyntaxKind::*;

/// A top-level child as the tree holds it (the index does not import
/// the tree: the tree imports the index).
type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// What an item is found by: its name (attribute name or block type)
/// and, for a block with labels, their number and their decoded values
/// joined by NUL characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    name: Box<str>,
    labels: Option<(usize, Box<str>)>,
}

impl Key {
    /// The key of a top-level child (`None` for what is not an attribute
    /// or a block).
    pub fn of(child: &GreenElement) -> Option<Key> {
        let NodeOrToken::Node(node) = child else {
            return None;
        };
        let is_block = node.kind() == BLOCK.into();
        if !is_block && node.kind() != ATTRIBUTE.into() {
            return None;
        }
        let name = first_ident(node)?;
        let mut count = 0;
        let mut joined = String::new();
        if is_block {
            for label in node.children().filter_map(|c| c.into_node()) {
                if label.kind() == BLOCK_LABEL.into() {
                    if count > 0 {
                        joined.push('\0');
                    }
                    push_label_text(label, &mut joined);
                    count += 1;
                }
            }
        }
        Some(Key {
            name: name.into(),
            labels: (count > 0).then(|| (count, joined.into_boxed_str())),
        })
    }
}

impl Key {
    /// The key of a top-level item from its text in `source`, as the
    /// checking parse noted it (without its tree).
    pub fn of_head(source: &str, item: &TopItem) -> Option<Key> {
        if item.kind != ATTRIBUTE && item.kind != BLOCK {
            return None;
        }
        let name = source.get(item.name_start as usize..item.name_end as usize)?;
        let mut count = 0;
        let mut joined = String::new();
        if item.kind == BLOCK {
            let labels = source.get(item.name_end as usize..item.head_end as usize)?;
            let lexed = crate::lexer::tokenize(labels);
            let mut at = 0;
            let mut quoted = false;
            for token in &lexed.tokens {
                let text = &labels[at..at + token.len as usize];
                at += token.len as usize;
                let starts_label = (token.kind == IDENT || token.kind == OPEN_QUOTE) && !quoted;
                if starts_label {
                    if count > 0 {
                        joined.push('\0');
                    }
                    count += 1;
                }
                match token.kind {
                    IDENT if !quoted => joined.push_str(text),
                    OPEN_QUOTE => quoted = true,
                    CLOSE_QUOTE => quoted = false,
                    TEMPLATE_LITERAL => push_literal(text, &mut joined),
                    _ => {}
                }
            }
            crate::lexer::recycle(lexed.tokens);
        }
        Some(Key {
            name: name.into(),
            labels: (count > 0).then(|| (count, joined.into_boxed_str())),
        })
    }
}

/// Appends the decoded text of a quoted string's literal part.
fn push_literal(text: &str, out: &mut String) {
    if text.contains(['\\', '$', '%']) {
        out.push_str(&decode_quoted(text));
    } else {
        out.push_str(text);
    }
}

/// The first identifier token of a green node (an attribute's name, a
/// block's type).
pub(crate) fn first_ident(node: &GreenNodeData) -> Option<&str> {
    node.children().find_map(|c| match c {
        NodeOrToken::Token(t) if t.kind() == IDENT.into() => Some(t.text()),
        _ => None,
    })
}

/// Appends the value of a block label: an identifier's text, or a
/// quoted string's decoded text.
fn push_label_text(label: &GreenNodeData, out: &mut String) {
    for t in label.children().filter_map(|c| c.into_token()) {
        if t.kind() == IDENT.into() {
            out.push_str(t.text());
            return;
        }
        if t.kind() == TEMPLATE_LITERAL.into() {
            push_literal(t.text(), out);
        }
    }
}

/// Positions (child indexes, ascending) of the top-level items by key.
#[derive(Clone, Debug, Default)]
pub(crate) struct Index {
    /// Attributes and blocks without labels, by name.
    bare: FxHashMap<Box<str>, Vec<u32>>,
    /// Blocks with labels, by type, then number of labels, then labels.
    labelled: FxHashMap<Box<str>, ByLabels>,
}

/// Blocks of one type, by number of labels, then labels (joined).
type ByLabels = Vec<(usize, FxHashMap<Box<str>, Vec<u32>>)>;

impl Index {
    /// The index of a body's children.
    #[cfg(test)]
    pub fn build(children: &[GreenElement]) -> Index {
        Index::from_keys(children.iter().map(Key::of))
    }

    /// The index of the children with these keys, in order.
    pub fn from_keys(keys: impl Iterator<Item = Option<Key>>) -> Index {
        let mut index = Index::default();
        for (i, key) in keys.enumerate() {
            if let Some(key) = key {
                index.positions_mut(key).push(i as u32);
            }
        }
        index
    }

    /// True when some top-level attribute or block has this name (or
    /// type).
    pub fn has_name(&self, name: &str) -> bool {
        self.bare.contains_key(name) || self.labelled.contains_key(name)
    }

    fn positions_mut(&mut self, key: Key) -> &mut Vec<u32> {
        match key.labels {
            None => self.bare.entry(key.name).or_default(),
            Some((count, joined)) => {
                let by_count = self.labelled.entry(key.name).or_default();
                let at = match by_count.iter().position(|(c, _)| *c == count) {
                    Some(at) => at,
                    None => {
                        by_count.push((count, FxHashMap::default()));
                        by_count.len() - 1
                    }
                };
                by_count[at].1.entry(joined).or_default()
            }
        }
    }

    /// The children that can match the first steps of an address (a
    /// name, then as many labels as a block of that type has), in order;
    /// `None` when the index cannot narrow them (a `*` where a name or a
    /// label is expected): every child must be looked at.
    pub fn candidates(&self, steps: &[Step]) -> Option<Vec<u32>> {
        let name = match steps.first() {
            None | Some(Step::Key(_) | Step::Index(_)) => return Some(Vec::new()),
            Some(Step::Any) => return None,
            Some(Step::Name(name)) => name.as_str(),
        };
        let mut out = self.bare.get(name).cloned().unwrap_or_default();
        'counts: for (count, by_labels) in self.labelled.get(name).into_iter().flatten() {
            let Some(labels) = steps.get(1..1 + count) else {
                continue;
            };
            let mut joined = String::new();
            for (k, step) in labels.iter().enumerate() {
                match step {
                    Step::Any => return None,
                    Step::Name(label) => {
                        if k > 0 {
                            joined.push('\0');
                        }
                        joined.push_str(label);
                    }
                    // A label is matched by a name only.
                    Step::Key(_) | Step::Index(_) => continue 'counts,
                }
            }
            if let Some(positions) = by_labels.get(joined.as_str()) {
                out = merge(&out, positions);
            }
        }
        Some(out)
    }

    /// Updates the index after the children `lo..lo + old.len()` were
    /// replaced by children with the keys `new`.
    pub fn replace(&mut self, lo: usize, old: &[Option<Key>], new: &[Option<Key>]) {
        if old == new {
            return;
        }
        for (k, key) in old.iter().enumerate() {
            if let Some(key) = key {
                let positions = self.positions_mut(key.clone());
                if let Ok(at) = positions.binary_search(&((lo + k) as u32)) {
                    positions.remove(at);
                }
            }
        }
        if old.len() != new.len() {
            let hi = (lo + old.len()) as u32;
            let delta = new.len() as i64 - old.len() as i64;
            let shift = |positions: &mut Vec<u32>| {
                let from = positions.partition_point(|&p| p < hi);
                for p in &mut positions[from..] {
                    *p = (i64::from(*p) + delta) as u32;
                }
            };
            self.bare.values_mut().for_each(shift);
            self.labelled
                .values_mut()
                .flatten()
                .flat_map(|(_, m)| m.values_mut())
                .for_each(shift);
        }
        for (k, key) in new.iter().enumerate() {
            if let Some(key) = key {
                let positions = self.positions_mut(key.clone());
                let p = (lo + k) as u32;
                let at = positions.partition_point(|&q| q < p);
                positions.insert(at, p);
            }
        }
    }
}

/// Two ascending lists merged.
fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::address::Address;

    fn children(text: &str) -> Vec<GreenElement> {
        let parse = crate::parse(text);
        let body = parse.body().unwrap();
        body.syntax()
            .green()
            .children()
            .map(|c| c.to_owned())
            .collect()
    }

    fn candidates(index: &Index, address: &str) -> Option<Vec<u32>> {
        index.candidates(Address::parse(address).unwrap().steps())
    }

    use crate::ast::AstNode;

    const TEXT: &str = "a = 1\n\nresource \"x\" \"web\" {\n}\nresource x \"db\" {\n}\nterraform {\n}\nresource \"x\\u0079\" \"z\" {\n}\n";

    #[test]
    fn finds_items_by_name_and_first_label() {
        let index = Index::build(&children(TEXT));
        assert_eq!(candidates(&index, "a"), Some(vec![0]));
        assert_eq!(candidates(&index, "resource.x.web"), Some(vec![2]));
        assert_eq!(candidates(&index, "resource.x.web.ami"), Some(vec![2]));
        assert_eq!(candidates(&index, "resource.x"), Some(vec![]));
        assert_eq!(candidates(&index, "resource.xy.z"), Some(vec![5]));
        assert_eq!(candidates(&index, "resource.*.web"), None);
        assert_eq!(candidates(&index, "resource.x.*"), None);
        assert_eq!(candidates(&index, "resource.x[\"web\"]"), Some(vec![]));
        assert_eq!(candidates(&index, "*.x"), None);
        assert_eq!(candidates(&index, "terraform.required"), Some(vec![4]));
        assert_eq!(candidates(&index, "nope.x"), Some(vec![]));
    }

    #[test]
    fn replacing_children_keeps_it_valid() {
        let old = children(TEXT);
        let mut index = Index::build(&old);
        // Children 2..4 (two blocks) become one attribute and two blocks.
        let new = children("b = 2\nresource \"x\" \"web\" {\n}\noutput \"o\" {\n}\n");
        let old_keys: Vec<_> = old[2..4].iter().map(Key::of).collect();
        let new_keys: Vec<_> = new.iter().map(Key::of).collect();
        index.replace(2, &old_keys, &new_keys);
        let mut spliced = old.clone();
        spliced.splice(2..4, new);
        let fresh = Index::build(&spliced);
        for address in [
            "a",
            "b",
            "resource.x.web",
            "output.o",
            "terraform",
            "resource.xy.z",
        ] {
            assert_eq!(
                candidates(&index, address),
                candidates(&fresh, address),
                "{address}"
            );
        }
    }
}
