//! The document's tree, kept as the list of the top-level body's
//! children.
//!
//! rowan stores a node's children in one array, so replacing one child
//! of a body with a hundred thousand items copies the array. The
//! document keeps that top level as a `Vec` instead: an edit inside one
//! top-level item replaces one entry, and the rowan root is built only
//! when the tree is asked for, then kept until the next edit.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use rowan::{GreenNode, GreenToken, NodeOrToken};
use text_size::{TextRange, TextSize};

use super::address::Step;
use super::index::{Index, Key, first_ident};
use crate::ast::AstNode;
use crate::parser::TopItem;
use crate::syntax_kind::SyntaxKind::*;

mod stand_in;

pub(crate) use stand_in::StandIn;

/// A child of a green node, owned.
pub(crate) type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// A top-level child: its tree, or, for an attribute or block not
/// looked at yet, where it is in the parsed text (its tree is built from
/// that text alone the first time it is needed).
///
/// A child takes 40 bytes (a file of a million one-line attributes has a
/// million); the items the checking parse noted are kept apart, once.
#[derive(Clone, Debug)]
struct Child {
    green: OnceLock<GreenElement>,
    origin: Origin,
}

// A million children must stay small (see `Child`).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Child>() == 40);

/// Where a top-level item whose tree is not built yet comes from.
#[derive(Clone, Debug)]
enum Origin {
    /// Nowhere: the child was made with its tree (a token between
    /// items, an item an edit made).
    Built,
    /// The parsed file (the tree's source): the item is `items[item]` of
    /// the tree, and the child at `position` of the file's body.
    File { item: u32, position: u32 },
    /// A text of its own, holding this item alone: an item an edit of a
    /// part changed without looking inside its value (see
    /// [`Tree::replace_abbreviated`]).
    Own(Box<OwnItem>),
}

/// An item with a text of its own.
#[derive(Clone, Debug)]
struct OwnItem {
    item: TopItem,
    text: Arc<str>,
}

/// A lazy item as read: where it is, in which text.
#[derive(Clone, Copy, Debug)]
struct Lazy<'a> {
    item: &'a TopItem,
    source: &'a str,
    /// The child's position in the parsed file's body (`None` for an
    /// item of its own text).
    position: Option<u32>,
}

impl Child {
    fn built(element: GreenElement) -> Child {
        Child {
            green: OnceLock::from(element),
            origin: Origin::Built,
        }
    }
}

/// The tree of a file: the tokens before the top-level body (a byte
/// order mark) and the body's children.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    head: Vec<GreenElement>,
    children: Arc<Vec<Child>>,
    /// Where each child starts, then where the last ends (one more entry
    /// than `children`).
    starts: Arc<Vec<TextSize>>,
    /// The parsed text, which the trees of lazy children are built from.
    source: Option<Arc<str>>,
    /// The top-level items the checking parse noted in it.
    items: Arc<Vec<TopItem>>,
    /// The rowan root, built on demand.
    root: OnceLock<GreenNode>,
    /// The index of the top-level items, built on demand.
    index: OnceLock<Arc<Index>>,
    /// How many look-ups were answered without the index.
    scans: Scans,
}

/// Look-ups made by going through the children before the index is built
/// (a command makes a few; a program making many edits gets the index).
const SCANS: u32 = 4;

/// A count of look-ups, copied with the tree.
#[derive(Debug, Default)]
struct Scans(AtomicU32);

impl Clone for Scans {
    fn clone(&self) -> Scans {
        Scans(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
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
                    children = body
                        .children()
                        .map(|c| Child::built(c.to_owned()))
                        .collect();
                }
                other => head.push(other.to_owned()),
            }
        }
        let head_len: TextSize = head.iter().map(|e| e.text_len()).sum();
        let starts = offsets(
            head_len,
            children
                .iter()
                .map(|c| c.green.get().map_or(TextSize::from(0), |g| g.text_len())),
        );
        Tree {
            head,
            children: Arc::new(children),
            starts: Arc::new(starts),
            source: None,
            items: Arc::default(),
            root: OnceLock::from(root),
            index: OnceLock::new(),
            scans: Scans::default(),
        }
    }

    /// The tree of a valid file from its top-level items as the checking
    /// parse noted them: the tokens between items are made at once, the
    /// items' trees when they are needed.
    pub fn lazy(source: Arc<str>, items: Vec<TopItem>) -> Tree {
        let text: &str = &source;
        let mut head = Vec::new();
        let mut at = 0;
        if text.starts_with('\u{feff}') {
            head.push(NodeOrToken::Token(GreenToken::new(BOM.into(), "\u{feff}")));
            at = '\u{feff}'.len_utf8();
        }
        // Room for the items and some more: an edit that adds a child
        // (a new attribute) then does not move a million children to a
        // buffer twice as large (40 MB more at the peak).
        let room = items.len() + items.len() / 16 + 16;
        let mut children = Vec::with_capacity(room);
        let mut starts = Vec::with_capacity(room + 1);
        for (k, item) in items.iter().enumerate() {
            push_tokens(text, at, item.start as usize, &mut children, &mut starts);
            starts.push(TextSize::from(item.start));
            children.push(Child {
                green: OnceLock::new(),
                origin: Origin::File {
                    item: k as u32,
                    position: children.len() as u32,
                },
            });
            at = item.end as usize;
        }
        push_tokens(text, at, text.len(), &mut children, &mut starts);
        starts.push(TextSize::of(text));
        Tree {
            head,
            children: Arc::new(children),
            starts: Arc::new(starts),
            source: Some(source),
            items: Arc::new(items),
            root: OnceLock::new(),
            index: OnceLock::new(),
            scans: Scans::default(),
        }
    }

    /// A copy whose lazy items are built apart from this tree's (for
    /// checks that must not build this tree's items), and not counted.
    #[cfg(debug_assertions)]
    pub fn detached(&self) -> Tree {
        let copy = Tree {
            children: Arc::new((*self.children).clone()),
            root: OnceLock::new(),
            index: OnceLock::new(),
            ..self.clone()
        };
        let counted = counts::get();
        copy.root();
        counts::set(counted);
        copy
    }

    /// The rowan root.
    pub fn root(&self) -> &GreenNode {
        self.root.get_or_init(|| {
            self.build_all();
            let body = GreenNode::new(BODY.into(), (0..self.len()).map(|i| self.child(i).clone()));
            let mut all = self.head.clone();
            all.push(NodeOrToken::Node(body));
            GreenNode::new(CONFIG_FILE.into(), all)
        })
    }

    /// The number of top-level children.
    pub fn len(&self) -> usize {
        self.children.len()
    }

    /// The `i`-th top-level child (its tree is built if it was not).
    pub fn child(&self, i: usize) -> &GreenElement {
        let child = &self.children[i];
        if let Some(green) = child.green.get() {
            return green;
        }
        let lazy = self
            .lazy_of(child)
            .expect("a child without a tree comes from the text");
        match self.build_alone(lazy) {
            Some(green) => child.green.get_or_init(|| green),
            None if lazy.position.is_some() => {
                self.build_all();
                child.green.get().expect("every child is built")
            }
            None => child.green.get_or_init(|| unparsed(lazy.source)),
        }
    }

    /// The child's item, when its tree is not built, and the text its
    /// offsets are in.
    fn lazy_of<'a>(&'a self, child: &'a Child) -> Option<Lazy<'a>> {
        if child.green.get().is_some() {
            return None;
        }
        match &child.origin {
            Origin::Built => None,
            Origin::File { item, position } => Some(Lazy {
                item: self.items.get(*item as usize)?,
                source: self.source.as_deref()?,
                position: Some(*position),
            }),
            Origin::Own(own) => Some(Lazy {
                item: &own.item,
                source: &own.text,
                position: None,
            }),
        }
    }

    /// The `i`-th child's value text, when it is a top-level attribute
    /// whose tree is not built: read from where the checking parse found
    /// it, without building anything.
    pub fn lazy_value_text(&self, i: usize) -> Option<&str> {
        let child = &self.children[i];
        let lazy = self.lazy_of(child)?;
        if lazy.item.kind != ATTRIBUTE || lazy.item.value_start > lazy.item.value_end {
            return None;
        }
        lazy.source
            .get(lazy.item.value_start as usize..lazy.item.value_end as usize)
    }

    /// What the `i`-th child is (its node or token kind), without
    /// building it.
    pub fn kind(&self, i: usize) -> rowan::SyntaxKind {
        let child = &self.children[i];
        match (child.green.get(), self.lazy_of(child)) {
            (Some(green), _) => green.kind(),
            (None, Some(lazy)) => lazy.item.kind.into(),
            (None, None) => unreachable!("a child has a tree or comes from the text"),
        }
    }

    /// The key the index finds the `i`-th child by, without building it.
    fn key(&self, i: usize) -> Option<Key> {
        self.key_of(&self.children[i])
    }

    /// The tree of a lazy item, parsed from its text alone (`None` if
    /// that does not give the one item it is in the file).
    fn build_alone(&self, lazy: Lazy<'_>) -> Option<GreenElement> {
        let source = lazy.source;
        let text = source.get(lazy.item.start as usize..lazy.item.end as usize)?;
        counts::built_alone();
        let parse = crate::parse(text);
        if !parse.errors().is_empty() {
            return None;
        }
        let body = parse.body()?;
        let green = body.syntax().green();
        let mut children = green.children();
        match (children.next(), children.next()) {
            (Some(only), None) if only.kind() == lazy.item.kind.into() => Some(only.to_owned()),
            _ => None,
        }
    }

    /// Builds the trees of every lazy child at once, from a parse of the
    /// whole text.
    fn build_all(&self) {
        let pending = self
            .children
            .iter()
            .any(|c| c.green.get().is_none() && matches!(c.origin, Origin::File { .. }));
        let Some(source) = self.source.as_deref().filter(|_| pending) else {
            return;
        };
        counts::built_all();
        let parse = crate::parse(source);
        let Some(body) = parse.body() else {
            return;
        };
        let parsed: Vec<GreenElement> = body
            .syntax()
            .green()
            .children()
            .map(|c| c.to_owned())
            .collect();
        for child in self.children.iter() {
            if child.green.get().is_none()
                && let Origin::File { position, .. } = child.origin
                && let Some(green) = parsed.get(position as usize)
            {
                let _ = child.green.set(green.clone());
            }
        }
    }

    /// The range of the `i`-th child.
    pub fn range(&self, i: usize) -> TextRange {
        TextRange::new(self.starts[i], self.starts[i + 1])
    }

    /// The top-level children that can match the first steps of an
    /// address (see [`Index::candidates`]). The first few look-ups in a
    /// tree (as many as one command makes) go through the children,
    /// comparing names in place and making the keys of the children so
    /// named only; the index of every child is built for the next ones.
    pub fn candidates(&self, steps: &[Step]) -> Option<Vec<u32>> {
        match steps.first() {
            Some(Step::Name(name)) if self.may_scan() => {
                Index::from_keys((0..self.len()).map(|i| {
                    (self.name(i) == Some(name.as_str()))
                        .then(|| self.key(i))
                        .flatten()
                }))
                .candidates(steps)
            }
            _ => self.index().candidates(steps),
        }
    }

    /// True when a top-level attribute or block has this name (or type).
    pub fn has_name(&self, name: &str) -> bool {
        if self.may_scan() {
            (0..self.len()).any(|i| self.name(i) == Some(name))
        } else {
            self.index().has_name(name)
        }
    }

    /// True when a look-up should go through the children instead of the
    /// index: while the index is not built, for the first [`SCANS`]
    /// look-ups.
    fn may_scan(&self) -> bool {
        self.index.get().is_none() && self.scans.0.fetch_add(1, Ordering::Relaxed) < SCANS
    }

    /// The name of the `i`-th child when it is an attribute or a block,
    /// without building it.
    fn name(&self, i: usize) -> Option<&str> {
        let child = &self.children[i];
        match (child.green.get(), self.lazy_of(child)) {
            (Some(NodeOrToken::Node(node)), _)
                if node.kind() == ATTRIBUTE.into() || node.kind() == BLOCK.into() =>
            {
                first_ident(node)
            }
            (None, Some(lazy)) if lazy.item.kind == ATTRIBUTE || lazy.item.kind == BLOCK => lazy
                .source
                .get(lazy.item.name_start as usize..lazy.item.name_end as usize),
            _ => None,
        }
    }

    /// The index of the top-level items.
    pub fn index(&self) -> &Index {
        self.index
            .get_or_init(|| Arc::new(Index::from_keys((0..self.len()).map(|i| self.key(i)))))
    }

    /// The children `lo..hi` as a file of their own (with the tokens
    /// before the body when `lo` is 0), and where it starts in the file.
    pub fn part(&self, lo: usize, hi: usize) -> (GreenNode, TextSize) {
        let body = GreenNode::new(BODY.into(), (lo..hi).map(|i| self.child(i).clone()));
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
        let (head, new) = split_part(part);
        self.replace_children(lo, hi, head, new.into_iter().map(Child::built).collect());
    }

    /// Replaces the children `lo..hi` by `new` (and the head by `head`
    /// when `lo` is 0), keeping the starts and the index up to date.
    fn replace_children(&mut self, lo: usize, hi: usize, head: Vec<GreenElement>, new: Vec<Child>) {
        if lo == 0 {
            self.head = head;
        }
        if self.index.get().is_some() {
            let old_keys: Vec<Option<Key>> = (lo..hi).map(|i| self.key(i)).collect();
            let new_keys: Vec<Option<Key>> = new.iter().map(|c| self.key_of(c)).collect();
            if let Some(index) = self.index.get_mut() {
                Arc::make_mut(index).replace(lo, &old_keys, &new_keys);
            }
        }
        let count = new.len();
        let start = if lo == 0 {
            self.head.iter().map(|e| e.text_len()).sum()
        } else {
            self.starts[lo]
        };
        let new_starts = offsets(start, new.iter().map(|c| self.len_of(c)));
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

    /// The index key of a child, built or not.
    fn key_of(&self, child: &Child) -> Option<Key> {
        match (child.green.get(), self.lazy_of(child)) {
            (Some(green), _) => Key::of(green),
            (None, Some(lazy)) => Key::of_head(lazy.source, lazy.item),
            _ => None,
        }
    }

    /// What the `i`-th child's lines are, told without building it: for
    /// a top-level attribute not built yet, whether its first line and
    /// its last line can be in an alignment group (hold an `=` or a
    /// comment; `None` when that needs its tree) and whether it ends a
    /// line.
    pub fn lazy_lines(&self, i: usize) -> Option<LazyLines> {
        let child = &self.children[i];
        let lazy = self.lazy_of(child)?;
        let item = lazy.item;
        if item.kind != ATTRIBUTE {
            return None;
        }
        let source = lazy.source;
        let text = source.get(item.start as usize..item.end as usize)?;
        let name = (item.name_start - item.start) as usize;
        // The first line is the name's (with its `=`) or a line of the
        // comments above it: cells unless blank.
        let first_line = &text[..text.find('\n').map_or(text.len(), |n| n + 1)];
        let first = name < first_line.len() || first_line.bytes().any(|b| !b.is_ascii_whitespace());
        let body = text.strip_suffix('\n').unwrap_or(text);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let last = (!body[name..].contains('\n')).then_some(true);
        Some(LazyLines {
            first_has_cells: first,
            last_has_cells: last,
            ends_line: text.ends_with('\n'),
        })
    }
}

impl Tree {
    /// True when the `i`-th child is a top-level attribute named `name`
    /// whose tree is not built yet.
    pub fn is_lazy_attribute_named(&self, i: usize, name: &str) -> bool {
        let child = &self.children[i];
        self.lazy_of(child)
            .is_some_and(|l| l.item.kind == ATTRIBUTE)
            && self.name(i) == Some(name)
    }

    /// The indentation of the line of the `i`-th child's name, when it
    /// is a top-level attribute not built yet.
    pub fn lazy_indent(&self, i: usize) -> Option<&str> {
        let child = &self.children[i];
        let lazy = self.lazy_of(child)?;
        if lazy.item.kind != ATTRIBUTE {
            return None;
        }
        // The line may start before the item (after a byte order mark,
        // which is then the line's first character).
        let source = lazy.source;
        let before = source.get(..lazy.item.name_start as usize)?;
        let line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        Some(&line[..indent])
    }
}

impl Tree {
    /// The text of the `i`-th child: read from its source when its tree
    /// is not built (nothing is built), else printed from its tree.
    pub fn text_of(&self, i: usize) -> std::borrow::Cow<'_, str> {
        match self.lazy_text(i) {
            Some(text) => std::borrow::Cow::Borrowed(text),
            None => std::borrow::Cow::Owned(self.child(i).to_string()),
        }
    }

    /// The text of the `i`-th child when its tree is not built.
    pub fn lazy_text(&self, i: usize) -> Option<&str> {
        let child = &self.children[i];
        let lazy = self.lazy_of(child)?;
        lazy.source
            .get(lazy.item.start as usize..lazy.item.end as usize)
    }

    /// True when tokens come before the top-level body (a byte order
    /// mark).
    pub fn has_head(&self) -> bool {
        !self.head.is_empty()
    }
}

/// What [`Tree::lazy_lines`] tells of a child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LazyLines {
    pub first_has_cells: bool,
    pub last_has_cells: Option<bool>,
    pub ends_line: bool,
}

/// The head (tokens before the body) and the body's children of a part.
fn split_part(part: &GreenNode) -> (Vec<GreenElement>, Vec<GreenElement>) {
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
    (head, new)
}

impl Tree {
    /// The length of a child's text.
    fn len_of(&self, child: &Child) -> TextSize {
        match (child.green.get(), self.lazy_of(child)) {
            (Some(green), _) => green.text_len(),
            (None, Some(lazy)) => TextSize::from(lazy.item.end - lazy.item.start),
            (None, None) => TextSize::from(0),
        }
    }
}

/// The tree of an item whose own text did not parse as the one item it
/// was (not expected: such a text is an item of a valid file with only
/// spaces changed around its name): an `ERROR` node holding the text as
/// one token, so that the document still prints it unchanged.
fn unparsed(text: &str) -> GreenElement {
    NodeOrToken::Node(GreenNode::new(
        ERROR.into(),
        [NodeOrToken::Token(GreenToken::new(ERROR.into(), text))],
    ))
}

/// Adds the tokens of `text[from..to]` (what lies between top-level
/// items: spaces, newlines, comments) as children of their own.
fn push_tokens(
    text: &str,
    from: usize,
    to: usize,
    children: &mut Vec<Child>,
    starts: &mut Vec<TextSize>,
) {
    if from >= to {
        return;
    }
    let lexed = crate::lexer::tokenize(&text[from..to]);
    let mut at = from;
    for token in &lexed.tokens {
        let end = at + token.len as usize;
        starts.push(TextSize::from(at as u32));
        children.push(Child::built(NodeOrToken::Token(GreenToken::new(
            token.kind.into(),
            &text[at..end],
        ))));
        at = end;
    }
    crate::lexer::recycle(lexed.tokens);
}

/// The start of each element after `start` (given their lengths), then
/// the end of the last.
fn offsets(start: TextSize, lengths: impl ExactSizeIterator<Item = TextSize>) -> Vec<TextSize> {
    let mut out = Vec::with_capacity(lengths.len() + 1);
    let mut at = start;
    out.push(at);
    for len in lengths {
        at += len;
        out.push(at);
    }
    out
}

/// How many trees were built, for tests that check that an edit builds
/// only what it needs.
#[cfg(test)]
pub(crate) mod counts {
    use std::cell::Cell;

    thread_local! {
        static ALONE: Cell<usize> = const { Cell::new(0) };
        static ALL: Cell<usize> = const { Cell::new(0) };
    }

    pub fn built_alone() {
        ALONE.set(ALONE.get() + 1);
    }

    pub fn built_all() {
        ALL.set(ALL.get() + 1);
    }

    /// The items built alone and the whole trees built so far on this
    /// thread.
    pub fn get() -> (usize, usize) {
        (ALONE.get(), ALL.get())
    }

    /// Puts back counts that [`get`] gave.
    #[cfg(debug_assertions)]
    pub fn set((alone, all): (usize, usize)) {
        ALONE.set(alone);
        ALL.set(all);
    }
}

#[cfg(not(test))]
mod counts {
    pub fn built_alone() {}
    pub fn built_all() {}
    #[cfg(debug_assertions)]
    pub fn get() -> (usize, usize) {
        (0, 0)
    }
    #[cfg(debug_assertions)]
    pub fn set(_: (usize, usize)) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax_kind::SyntaxNode;

    const TEXT: &str = "\u{feff}a = 1\n\nb {\n  c = 2\n}\n# d\n";

    /// Checks that the lazy tree of `text` has the children of its full
    /// parse: the same ranges and keys before any is built, and each
    /// built from its own text alone.
    pub(crate) fn assert_lazy_matches(text: &str) {
        let checked = crate::parser::parse_top_level(text);
        if !checked.errors.is_empty() {
            return;
        }
        let parse = crate::parse(text);
        let full: Vec<GreenElement> = parse
            .body()
            .unwrap()
            .syntax()
            .green()
            .children()
            .map(|c| c.to_owned())
            .collect();
        let tree = Tree::lazy(Arc::from(text), checked.items.clone());
        assert_eq!(tree.len(), full.len(), "children of {text:?}");
        let mut at =
            TextSize::of(&text[..tree.head.iter().map(|e| usize::from(e.text_len())).sum()]);
        for (i, element) in full.iter().enumerate() {
            assert_eq!(
                tree.range(i),
                TextRange::at(at, element.text_len()),
                "range {i} of {text:?}"
            );
            at += element.text_len();
            assert_eq!(tree.kind(i), element.kind(), "kind {i} of {text:?}");
            assert_eq!(tree.key(i), Key::of(element), "key {i} of {text:?}");
            // An attribute's value, read without a tree.
            if let NodeOrToken::Node(node) = element
                && let Some(attribute) =
                    crate::ast::Attribute::cast(SyntaxNode::new_root(node.clone()))
            {
                let value = attribute.expr().map(|e| e.syntax().to_string());
                assert_eq!(
                    tree.lazy_value_text(i),
                    value.as_deref(),
                    "value {i} of {text:?}"
                );
            }
        }
        for (i, element) in full.iter().enumerate() {
            if let Some(lazy) = tree.lazy_of(&tree.children[i]) {
                assert_eq!(
                    tree.build_alone(lazy).as_ref(),
                    Some(element),
                    "item {i} of {text:?}"
                );
            }
            assert_eq!(tree.child(i), element, "child {i} of {text:?}");
        }
        assert_eq!(tree.root(), parse.green());
        // All at once.
        let all = Tree::lazy(Arc::from(text), checked.items.clone());
        assert_eq!(all.root(), parse.green());
    }

    /// Runs `f` on `doc` and returns the items it built alone and the
    /// whole trees it built.
    fn builds<T>(
        doc: &mut crate::Document,
        f: impl FnOnce(&mut crate::Document) -> T,
    ) -> (T, usize, usize) {
        let (alone, all) = counts::get();
        let out = f(doc);
        let (alone_after, all_after) = counts::get();
        (out, alone_after - alone, all_after - all)
    }

    #[test]
    fn edits_build_only_the_items_they_need() {
        let text: String = (0..5000)
            .map(|i| format!("# block {i}\nb{i} \"l\" {{\n  x = {i}\n}}\n\n"))
            .collect();
        let mut doc = crate::Document::parse(&text).unwrap();
        // Reading one item: that item alone.
        let (items, alone, all) = builds(&mut doc, |d| d.get_all_detached("b2500.l.x").unwrap());
        assert_eq!(items[0].value_text().as_deref(), Some("2500"));
        assert_eq!((alone, all), (1, 0));
        // A name no item has: nothing.
        let (err, alone, all) = builds(&mut doc, |d| d.get_all_detached("nope.x").unwrap_err());
        assert!(err.is_not_found());
        assert_eq!((alone, all), (0, 0));
        // An edit inside one item, a removal, a new top-level item: the
        // items around each, never the whole file.
        let (done, alone, all) = builds(&mut doc, |d| d.set("b1000.l.x", 7));
        done.unwrap();
        assert!(alone <= 5 && all == 0, "{alone} {all}");
        let (done, alone, all) = builds(&mut doc, |d| d.remove("b10.l"));
        done.unwrap();
        assert!(alone <= 5 && all == 0, "{alone} {all}");
        let (done, alone, all) = builds(&mut doc, |d| d.set("zz_new", 1));
        done.unwrap();
        assert!(alone <= 5 && all == 0, "{alone} {all}");
        let edits = doc.text_edits();
        assert_eq!(edits.len(), 3, "{edits:?}");
        assert_eq!(edits[2].new_text, "7");
        assert!(doc.to_string().starts_with("zz_new = 1\n\n# block 0\n"));
        assert!(!doc.to_string().contains("b10 \"l\""));
        // The whole tree, when asked for: one parse of the rest.
        let (_, _, all) = builds(&mut doc, |d| d.syntax());
        assert_eq!(all, 1);
        #[cfg(debug_assertions)]
        doc.check_consistency();
    }

    #[test]
    fn edits_next_to_long_values_build_no_tree() {
        let list = format!("[{}]", "1,".repeat(5000));
        let file = |value: &str| format!("# the list\na  = {value}\nbb = {value}   \nc = 1\n");
        let doc = crate::Document::parse(&file(&list)).unwrap();
        let mut read = doc.clone();
        let (texts, alone, all) = builds(&mut read, |d| d.get_texts("bb").unwrap());
        assert_eq!(texts, std::slice::from_ref(&list));
        assert_eq!((alone, all), (0, 0));
        // Each edit gives what it gives with a short value in place of
        // the list (short values are kept in parts), and builds neither
        // list's tree.
        type Edit = fn(&mut crate::Document) -> Result<(), crate::EditError>;
        let edits: [Edit; 6] = [
            |d| d.set("zz_new", 7),
            |d| d.set("a", 5),
            |d| d.remove("a"),
            |d| d.rename("bb", "b"),
            |d| d.set_comments_above("bb", &["about bb"]),
            |d| d.set("c", "a longer value than before"),
        ];
        for (i, edit) in edits.into_iter().enumerate() {
            let mut short = crate::Document::parse(&file("[9]")).unwrap();
            edit(&mut short).unwrap();
            let expected = short.to_string().replace("[9]", &list);
            let mut edited = doc.clone();
            let (done, alone, all) = builds(&mut edited, edit);
            done.unwrap();
            assert!(alone <= 1 && all == 0, "edit {i}: {alone} {all}");
            assert_eq!(
                edited.to_string().replace(&list, "L"),
                expected.replace(&list, "L"),
                "edit {i}"
            );
            // The values are in the tree, read without building it.
            let read = |name| edited.get_texts(name).ok();
            assert_eq!(read("bb").or_else(|| read("b")), Some(vec![list.clone()]));
        }
        // Many long values in one part: each has its own stand-in.
        let many: String = (0..15).map(|i| format!("v{i} = {list}\n")).collect();
        let mut values = crate::Document::parse(&many).unwrap();
        let (done, alone, all) = builds(&mut values, |d| d.set("zz_new", 7));
        done.unwrap();
        assert_eq!((alone, all), (0, 0));
        // Not aligned before (`v0 =`, `v14 =`): nothing is realigned.
        assert!(
            values
                .to_string()
                .ends_with(&format!("v14 = {list}\nzz_new = 7\n"))
        );
        // An inline comment joins the line, whose width a stand-in does
        // not keep: that edit builds the tree.
        let mut edited = doc.clone();
        let (done, alone, all) = builds(&mut edited, |d| d.set_inline_comment("a", Some("c")));
        done.unwrap();
        assert!(alone + all > 0);
        assert!(edited.to_string().contains(&format!("a  = {list} # c\n")));
    }

    #[test]
    fn look_ups_without_the_index_find_what_the_index_finds() {
        let text = "a = 1\n\nresource \"x\" \"web\" {\n}\nresource x \"db\" {\n}\nterraform {\n}\nresource \"x\\u0079\" \"z\" {\n}\nresource \"x\" \"web\" \"extra\" {\n}\n";
        let checked = crate::parser::parse_top_level(text);
        for address in [
            "a",
            "resource.x.web",
            "resource.x.web.ami",
            "resource.x",
            "resource.xy.z",
            "resource.*.web",
            "resource.x[\"web\"]",
            "terraform.required",
            "nope.x",
            "*.x",
        ] {
            let steps = crate::document::Address::parse(address).unwrap();
            let steps = steps.steps();
            let scanned = Tree::lazy(Arc::from(text), checked.items.clone());
            let indexed = Tree::lazy(Arc::from(text), checked.items.clone());
            assert_eq!(
                scanned.candidates(steps),
                indexed.index().candidates(steps),
                "{address}"
            );
            let name = address.split(['.', '[']).next().unwrap();
            assert_eq!(
                scanned.has_name(name),
                indexed.index().has_name(name),
                "{address}"
            );
        }
        // After a few look-ups, the index.
        let tree = Tree::lazy(Arc::from(text), checked.items.clone());
        for _ in 0..SCANS {
            tree.has_name("a");
        }
        assert!(tree.index.get().is_none());
        tree.has_name("a");
        assert!(tree.index.get().is_some());
    }

    #[test]
    fn lazy_children_are_the_parsed_ones() {
        for text in [
            "",
            "\n",
            TEXT,
            "\u{feff}",
            "\u{feff}# c\n\n  a = 1 # x\n/* c */\n\n\nb \"x\\u0079\" y \"\" {\n  c = <<EOT\n}\nEOT\n}\n\n// end",
            "# above\na = 1\n# detached\n\nb = {\n  c = [\n    1,\n  ]\n}\r\nc = \"${\"\\\"\"}\"",
            "a { b = 1 }\nc \"$${x}\" \"%%{y}\" {}\n  d = 2",
        ] {
            assert_lazy_matches(text);
        }
    }

    #[test]
    fn lazy_children_of_the_corpus_are_the_parsed_ones() {
        let Some(texts) = crate::corpus::texts("the lazy items of the corpus") else {
            return;
        };
        for (_, text) in &texts {
            assert_lazy_matches(text);
        }
        assert!(!texts.is_empty());
    }

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
#[cfg(test)]
mod size_probe {
    #[test]
    fn sizes() {
        eprintln!(
            "Child {} Lazy {} TopItem {} Origin {} OnceLock<GE> {}",
            std::mem::size_of::<super::Child>(),
            std::mem::size_of::<super::Lazy>(),
            std::mem::size_of::<crate::parser::TopItem>(),
            std::mem::size_of::<super::Origin>(),
            std::mem::size_of::<std::sync::OnceLock<super::GreenElement>>()
        );
    }
}
