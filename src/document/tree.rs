//! The document's tree, kept as the list of the top-level body's
//! children.
//!
//! rowan stores a node's children in one array, so replacing one child
//! of a body with a hundred thousand items copies the array. The
//! document keeps that top level as a `Vec` instead: an edit inside one
//! top-level item replaces one entry, and the rowan root is built only
//! when the tree is asked for, then kept until the next edit.

use std::sync::{Arc, OnceLock};

use rowan::{GreenNode, GreenToken, NodeOrToken};
use text_size::{TextRange, TextSize};

use super::index::{Index, Key};
use crate::syntax_kind::SyntaxKind::*;

/// A child of a green node, owned.
pub(crate) type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// The tree of a file: the tokens before the top-level body (a byte
/// order mark) and the body's children.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    head: Vec<GreenElement>,
    children: Arc<Vec<GreenElement>>,
    /// Where each child starts, then where the last ends (one more entry
    /// than `children`).
    starts: Arc<Vec<TextSize>>,
    /// The rowan root, built on demand.
    root: OnceLock<GreenNode>,
    /// The index of the top-level items, built on demand.
    index: OnceLock<Arc<Index>>,
}

impl Tree {
    /// The tree of a parsed file: a `CONFIG_FILE` root whose children
    /// are tokens and then the `BODY`.
    pub fn new(root: GreenNode) -> Tree {
        let mut head = Vec::new();
        let mut children = Vec::new();
        for child in root.children() {
            match child {
                NodeOrToken::Node(body) if body.kind() == BODY.into() => {
                    children = body.children().map(|c| c.to_owned()).collect();
                }
                other => head.push(other.to_owned()),
            }
        }
        let head_len: TextSize = head.iter().map(|e| e.text_len()).sum();
        let starts = offsets(head_len, &children);
        Tree {
            head,
            children: Arc::new(children),
            starts: Arc::new(starts),
            root: OnceLock::from(root),
            index: OnceLock::new(),
        }
    }

    /// The rowan root.
    pub fn root(&self) -> &GreenNode {
        self.root.get_or_init(|| {
            let body = GreenNode::new(BODY.into(), self.children.iter().cloned());
            let mut all = self.head.clone();
            all.push(NodeOrToken::Node(body));
            GreenNode::new(CONFIG_FILE.into(), all)
        })
    }

    /// The number of top-level children.
    pub fn len(&self) -> usize {
        self.children.len()
    }

    /// The top-level children.
    pub fn children(&self) -> &[GreenElement] {
        &self.children
    }

    /// The range of the `i`-th child.
    pub fn range(&self, i: usize) -> TextRange {
        TextRange::new(self.starts[i], self.starts[i + 1])
    }

    /// The index of the top-level items.
    pub fn index(&self) -> &Index {
        self.index
            .get_or_init(|| Arc::new(Index::build(&self.children)))
    }

    /// The children `lo..hi` as a file of their own (with the tokens
    /// before the body when `lo` is 0), and where it starts in the file.
    pub fn part(&self, lo: usize, hi: usize) -> (GreenNode, TextSize) {
        let body = GreenNode::new(BODY.into(), self.children[lo..hi].iter().cloned());
        let mut all = if lo == 0 {
            self.head.clone()
        } else {
            Vec::new()
        };
        all.push(NodeOrToken::Node(body));
        let base = if lo == 0 {
            TextSize::from(0)
        } else {
            self.starts[lo]
        };
        (GreenNode::new(CONFIG_FILE.into(), all), base)
    }

    /// Puts back the children `lo..hi`, edited: `part` is what
    /// [`Tree::part`] gave, changed.
    pub fn replace_part(&mut self, lo: usize, hi: usize, part: &GreenNode) {
        let mut head = Vec::new();
        let mut new: Vec<GreenElement> = Vec::new();
        for child in part.children() {
            match child {
                NodeOrToken::Node(body) if body.kind() == BODY.into() => {
                    new = body.children().map(|c| c.to_owned()).collect();
                }
                other => head.push(other.to_owned()),
            }
        }
        if lo == 0 {
            self.head = head;
        }
        if let Some(index) = self.index.get_mut() {
            let old_keys: Vec<Option<Key>> = self.children[lo..hi].iter().map(Key::of).collect();
            let new_keys: Vec<Option<Key>> = new.iter().map(Key::of).collect();
            Arc::make_mut(index).replace(lo, &old_keys, &new_keys);
        }
        let count = new.len();
        let start = if lo == 0 {
            self.head.iter().map(|e| e.text_len()).sum()
        } else {
            self.starts[lo]
        };
        let new_starts = offsets(start, &new);
        let old_end = self.starts[hi];
        let new_end = new_starts[count];
        Arc::make_mut(&mut self.children).splice(lo..hi, new);
        let starts = Arc::make_mut(&mut self.starts);
        starts.splice(lo..=hi, new_starts);
        if new_end != old_end {
            for s in &mut starts[lo + count + 1..] {
                *s = *s + new_end - old_end;
            }
        }
        self.root = OnceLock::new();
    }
}

/// The start of each element after `start`, then the end of the last.
fn offsets(start: TextSize, elements: &[GreenElement]) -> Vec<TextSize> {
    let mut out = Vec::with_capacity(elements.len() + 1);
    let mut at = start;
    out.push(at);
    for e in elements {
        at += e.text_len();
        out.push(at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax_kind::SyntaxNode;

    const TEXT: &str = "\u{feff}a = 1\n\nb {\n  c = 2\n}\n# d\n";

    #[test]
    fn the_root_is_rebuilt_as_parsed() {
        let parse = crate::parse(TEXT);
        let tree = Tree::new(parse.green().clone());
        let mut copy = tree.clone();
        copy.root = OnceLock::new();
        assert_eq!(copy.root(), parse.green());
        assert_eq!(tree.range(0), TextRange::new(3.into(), 9.into()));
    }

    #[test]
    fn parts_are_put_back() {
        let mut tree = Tree::new(crate::parse(TEXT).green().clone());
        let (part, base) = tree.part(2, 3);
        assert_eq!(base, TextSize::from(10));
        assert_eq!(SyntaxNode::new_root(part).to_string(), "b {\n  c = 2\n}\n");
        let edited = crate::parse("b {\n  c = 22\n}\nx = 1\n").green().clone();
        tree.index();
        tree.replace_part(2, 3, &edited);
        let expected = "\u{feff}a = 1\n\nb {\n  c = 22\n}\nx = 1\n# d\n";
        assert_eq!(
            SyntaxNode::new_root(tree.root().clone()).to_string(),
            expected
        );
        assert_eq!(tree.root(), crate::parse(expected).green());
        assert_eq!(tree.range(3), TextRange::new(25.into(), 31.into()));
        // The first child: the byte order mark comes with it.
        let (part, base) = tree.part(0, 1);
        assert_eq!(base, TextSize::from(0));
        assert_eq!(SyntaxNode::new_root(part).to_string(), "\u{feff}a = 1\n");
    }
}
