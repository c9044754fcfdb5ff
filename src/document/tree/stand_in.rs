//! Stand-ins for long values: the text of a part of the file where
//! the long one-line values of top-level attributes are replaced by short
//! names, and the items of an edited part put back with their values.
//!
//! An edit that does not look inside a value lays out the lines around
//! it as it would with the value there: the layout of a line with an `=`
//! and no comment depends on what comes before the `=` alone, and each
//! value, stand-in or not, is one expression alone on the rest of its
//! line. The trees of those values, millions of tokens in a generated
//! file, are then never built.

use std::sync::{Arc, OnceLock};

use rowan::{GreenNode, NodeOrToken};
use text_size::TextSize;

use super::{Child, GreenElement, Origin, OwnItem, Tree, split_part};
use crate::ast::AstNode;
use crate::parser::TopItem;
use crate::syntax_kind::SyntaxKind::*;

impl Tree {
    /// Puts back the children `lo..hi`, edited on a text that
    /// [`Tree::abbreviated_part`] gave: `part` is its tree, changed, and
    /// `text` its text. A child holding a stand-in comes back as a lazy
    /// item whose text is the child's with the value put back. `None`
    /// (and nothing changed) when a stand-in is no longer the whole value
    /// of a one-line attribute, alone on its line.
    pub fn replace_abbreviated(
        &mut self,
        lo: usize,
        hi: usize,
        part: &GreenNode,
        text: &str,
        stand_ins: &[StandIn],
    ) -> Option<()> {
        let (head, new) = split_part(part);
        let mut at: usize = head.iter().map(|e| usize::from(e.text_len())).sum();
        let mut children = Vec::with_capacity(new.len());
        let mut found = 0;
        for green in new {
            let end = at + usize::from(green.text_len());
            let child_text = &text[at..end];
            let inside: Vec<&StandIn> = stand_ins
                .iter()
                .filter(|s| child_text.contains(s.text.as_str()))
                .collect();
            match inside.as_slice() {
                [] => children.push(Child::built(green)),
                [stand_in] => {
                    children.push(self.put_back(&green, child_text, stand_in)?);
                    found += 1;
                }
                _ => return None,
            }
            at = end;
        }
        // A stand-in left anywhere else (in the head) is not put back.
        let left = stand_ins
            .iter()
            .filter(|s| text.contains(s.text.as_str()))
            .count();
        if left != found {
            return None;
        }
        self.replace_children(lo, hi, head, children);
        Some(())
    }

    /// A child that holds `stand_in`, with its value put back: a lazy
    /// item of its own text.
    fn put_back(
        &self,
        green: &GreenElement,
        child_text: &str,
        stand_in: &StandIn,
    ) -> Option<Child> {
        let NodeOrToken::Node(node) = green else {
            return None;
        };
        let attribute =
            crate::ast::Attribute::cast(crate::syntax_kind::SyntaxNode::new_root(node.clone()))?;
        let expr = attribute.expr()?;
        if expr.syntax().to_string() != stand_in.text {
            return None;
        }
        let start = usize::from(expr.syntax().text_range().start());
        let end = start + stand_in.text.len();
        // Nothing after the value but spaces and the newline: no comment
        // joins the line, whose width the stand-in does not keep.
        if !child_text[end..]
            .trim_end_matches(['\n', '\r'])
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
        {
            return None;
        }
        let name = attribute.name_token()?.text_range();
        let lazy = self.lazy_of(&self.children[stand_in.child])?;
        let value = lazy
            .source
            .get(lazy.item.value_start as usize..lazy.item.value_end as usize)?;
        let mut own = String::with_capacity(child_text.len() - stand_in.text.len() + value.len());
        own.push_str(&child_text[..start]);
        own.push_str(value);
        own.push_str(&child_text[end..]);
        let item = TopItem {
            kind: ATTRIBUTE,
            start: 0,
            end: u32::try_from(own.len()).ok()?,
            name_start: name.start().into(),
            name_end: name.end().into(),
            head_end: name.end().into(),
            value_start: start as u32,
            value_end: (start + value.len()) as u32,
        };
        Some(Child {
            green: OnceLock::new(),
            origin: Origin::Own(Box::new(OwnItem {
                item,
                text: Arc::from(own),
            })),
        })
    }

    /// The text of the children `lo..hi` (with the tokens before the
    /// body when `lo` is 0), where the values of long one-line
    /// attributes whose trees are not built are replaced by short
    /// stand-ins, and those stand-ins; `None` when no child has such a
    /// value. `keep` is a child whose value stays (an edit looks inside
    /// it). The stand-ins hold a number drawn for each process, so that
    /// no text can hold one by chance (see the [module docs](self) for
    /// why the layout around them is the same).
    pub fn abbreviated_part(
        &self,
        lo: usize,
        hi: usize,
        keep: Option<usize>,
    ) -> Option<(String, Vec<StandIn>)> {
        // Each child's long value, looked for once.
        let values: Vec<_> = (lo..hi)
            .map(|i| (Some(i) != keep).then(|| self.long_flat_value(i)).flatten())
            .collect();
        if values.iter().all(Option::is_none) {
            return None;
        }
        let mut text = String::new();
        if lo == 0 {
            for e in &self.head {
                text.push_str(&e.to_string());
            }
        }
        let mut stand_ins = Vec::new();
        for (i, value) in (lo..hi).zip(values) {
            match value {
                Some((item_text, value)) => {
                    // Ended by `_`, so that no stand-in is the start of another.
                    let stand_in = format!("hclwright_stand_in_{:x}_{}_", nonce(), stand_ins.len());
                    text.push_str(&item_text[..value.start]);
                    let at = TextSize::of(text.as_str());
                    text.push_str(&stand_in);
                    text.push_str(&item_text[value.end..]);
                    stand_ins.push(StandIn {
                        child: i,
                        at,
                        text: stand_in,
                        value_len: TextSize::from(value.len() as u32),
                    });
                }
                None => match self.child(i) {
                    NodeOrToken::Node(n) => text.push_str(&n.to_string()),
                    NodeOrToken::Token(t) => text.push_str(t.text()),
                },
            }
        }
        // A stand-in must be found only where it was put.
        let marker = format!("hclwright_stand_in_{:x}_", nonce());
        if text.matches(marker.as_str()).count() != stand_ins.len() {
            return None;
        }
        Some((text, stand_ins))
    }

    /// The text of the `i`-th child and where its value is in it, when
    /// it is a top-level attribute not built yet whose value is long
    /// ([`LONG_VALUE`] bytes or more), on the line of its name, and
    /// followed by nothing but spaces and the newline; its value has no
    /// comment (no `#`, `//` or `/*` at all).
    fn long_flat_value(&self, i: usize) -> Option<(&str, std::ops::Range<usize>)> {
        let child = &self.children[i];
        if child.green.get().is_some() {
            return None;
        }
        let lazy = self.lazy_of(child)?;
        let item = lazy.item;
        if item.kind != ATTRIBUTE || item.value_end < item.value_start + LONG_VALUE {
            return None;
        }
        let source = lazy.source;
        let item_text = source.get(item.start as usize..item.end as usize)?;
        let start = (item.value_start - item.start) as usize;
        let end = (item.value_end - item.start) as usize;
        let name = (item.name_start - item.start) as usize;
        let line = item_text.get(name..end)?;
        let value = &item_text[start..end];
        let after = &item_text[end..];
        let flat = !line.contains('\n')
            && !value.contains('#')
            && !value.contains("//")
            && !value.contains("/*")
            && after
                .trim_end_matches(['\n', '\r'])
                .bytes()
                .all(|b| b == b' ' || b == b'\t');
        flat.then_some((item_text, start..end))
    }
}

/// A value replaced by a stand-in in [`Tree::abbreviated_part`].
#[derive(Clone, Debug)]
pub(crate) struct StandIn {
    /// The child whose value it stands for.
    pub child: usize,
    /// Where it is in the part's text.
    pub at: TextSize,
    /// Its text (an identifier).
    pub text: String,
    /// The length of the value it stands for.
    pub value_len: TextSize,
}

/// Values shorter than this are kept in parts (their trees are cheap).
#[cfg(not(test))]
const LONG_VALUE: u32 = 4096;
/// Short in tests, so that the tests of edits on parts go through
/// stand-ins.
#[cfg(test)]
const LONG_VALUE: u32 = 12;

/// A number drawn once per process, for stand-ins.
fn nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static NONCE: OnceLock<u64> = OnceLock::new();
    *NONCE.get_or_init(|| {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish()
    })
}
