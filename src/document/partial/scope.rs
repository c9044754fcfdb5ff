//! Edits confined to one top-level item, done on a small part of the
//! file.
//!
//! When an address leads into exactly one top-level attribute or block,
//! whatever an edit at that address changes lies inside that item or
//! next to it. The edit then runs on a document made of that item and a
//! few neighbours (cut at lines that cannot join an alignment group with
//! it), and the result is put back into the file: the cost of an edit
//! does not grow with the size of the file.
//!
//! The part is only used when the outcome is sure to be what the whole
//! file would give: the lines where it is cut are unchanged and hold no
//! `=` or comment (so no alignment group crosses them, and parsing the
//! part gives the same items as parsing the file), and no layout window
//! of the edit reached them. Otherwise — and when the edit fails, so that
//! errors are reported against the whole file — the edit runs on the
//! whole document.

use rowan::{Children, GreenNodeData, GreenTokenData, NodeOrToken};
use text_size::{TextRange, TextSize};

use crate::document::Document;
use crate::document::address::{Address, Step};
use crate::document::error::EditError;
use crate::document::partial::group::{beyond_end, beyond_start, is_plain_line};
use crate::document::primitives::body::TopLayout;
#[cfg(test)]
use crate::document::primitives::layout::AlignedLines;
use crate::document::primitives::layout::{Beyond, GroupBeyond, Reach};
use crate::document::primitives::lines::{core_start, line_indent, unit_for_block};
use crate::document::resolve::matches_top;
use crate::document::tracker::Tracker;
use crate::document::tree::{GreenElement, StandIn, Tree};
use crate::syntax_kind::SyntaxKind::*;

/// Children kept on each side of the edited item, at least.
const MARGIN: usize = 2;
/// At most this many more children on each side; past that, the part is
/// cut inside the `=` group when it can be (see [`group`](crate::document::partial::group)),
/// else the whole document is edited.
#[cfg(not(test))]
const MAX_EXTRA: usize = 64;
#[cfg(test)]
const MAX_EXTRA: usize = 6;

/// What a part knows about where it was cut from the file.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cuts {
    /// The part does not start at the start of the file.
    pub before: bool,
    /// The part does not end at the end of the file.
    pub after: bool,
    /// An edit needed to see past a cut (a layout window reached it).
    pub crossed: bool,
    /// When the part starts inside an `=` group: the group's lines
    /// before it.
    pub group_before: Option<Beyond>,
    /// When the part ends inside an `=` group: the group's lines after
    /// it.
    pub group_after: Option<Beyond>,
    /// A layout window reached a cut inside a group (allowed when the
    /// group's lines beyond stay as they are, and only if the part has no
    /// comment).
    pub into_group: bool,
}

impl Cuts {
    /// What lies beyond the start and the end of the part, for the
    /// layout (see [`layout::relayout`](crate::document::primitives::layout::relayout)).
    pub fn group_beyond(&self) -> GroupBeyond {
        GroupBeyond {
            start: self.group_before,
            end: self.group_after,
        }
    }

    /// Notes that a layout window reached the start or the end of the
    /// part (`reach`), and whether the group's lines beyond each side
    /// stay as they are (`kept`): allowed at a cut inside a group only
    /// then.
    pub fn reached(&mut self, reach: Reach, kept: Reach) {
        for (reached, cut, group, kept) in [
            (reach.start, self.before, self.group_before, kept.start),
            (reach.end, self.after, self.group_after, kept.end),
        ] {
            if !(reached && cut) {
                continue;
            }
            if group.is_some() && kept {
                self.into_group = true;
            } else {
                self.crossed = true;
            }
        }
    }
}

impl Document {
    /// The top-level body, when this document knows its whole top level:
    /// a part of a file does not, unless it was told the file's top-level
    /// layout ([`TopLayout`]).
    pub(crate) fn known_top_body(&self) -> Option<crate::ast::Body> {
        (self.cuts.is_none() || self.top_layout.is_some()).then(|| self.body())
    }

    /// Runs the edit `op` on the part of the document that `address`
    /// leads into when it can (see the [module docs](self)), else on the
    /// whole document.
    pub(crate) fn scoped<T>(
        &mut self,
        address: &Address,
        mut op: impl FnMut(&mut Document) -> Result<T, EditError>,
    ) -> Result<T, EditError> {
        if self.cuts.is_none()
            && !tests::whole_only()
            && let Some(done) = self.edit_part(address, &mut op)
        {
            return Ok(done);
        }
        op(self)
    }

    /// The edit on a part; `None` when it has to run on the whole file.
    fn edit_part<T>(
        &mut self,
        address: &Address,
        op: &mut impl FnMut(&mut Document) -> Result<T, EditError>,
    ) -> Option<T> {
        let item = only_top_match(&self.tree, address)?;
        // An address of one name leads to the item, not inside its value.
        let inside = (address.steps().len() > 1).then_some(item);
        self.edit_part_around(item, inside, None, op)
    }

    /// Runs `op`, which creates a new top-level item placed next to the
    /// top-level child `anchor`, on the part of the document around that
    /// child when it can, else on the whole document.
    pub(crate) fn scoped_insert<T>(
        &mut self,
        anchor: usize,
        mut op: impl FnMut(&mut Document) -> Result<T, EditError>,
    ) -> Result<T, EditError> {
        if self.cuts.is_none()
            && !tests::whole_only()
            && let Some(layout) = self.top_layout()
            && let Some(done) = self.edit_part_around(anchor, None, Some(layout), &mut op)
        {
            return Ok(done);
        }
        op(self)
    }

    /// The top-level children (positions) that are attributes or blocks.
    pub(crate) fn top_items(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        (0..self.tree.len()).filter(|&i| {
            let kind = self.tree.kind(i);
            kind == ATTRIBUTE.into() || kind == BLOCK.into()
        })
    }

    /// How the top level is laid out, from its first item and its first
    /// block with content (each looked at alone): what a new top-level
    /// item takes (see `primitives::body::insert_into_body`).
    fn top_layout(&self) -> Option<TopLayout> {
        let first = self.top_items().next()?;
        let indent = match self.tree.lazy_indent(first) {
            Some(indent) => indent.to_string(),
            None => {
                let alone = self.item_alone(first);
                let item = alone.body().items().next()?;
                line_indent(&alone.syntax(), core_start(item.syntax()))
            }
        };
        let mut unit = "  ".to_string();
        for i in self.top_items() {
            if self.tree.kind(i) != BLOCK.into() {
                continue;
            }
            let alone = self.item_alone(i);
            if let Some(block) = alone.body().blocks().next()
                && block.body().and_then(|b| b.items().next()).is_some()
            {
                unit = unit_for_block(&alone.syntax(), &block);
                break;
            }
        }
        Some(TopLayout { indent, unit })
    }

    /// The top-level child `i` as a document of its own (for reading).
    pub(crate) fn item_alone(&self, i: usize) -> Document {
        let (green, _) = self.tree.part(i, i + 1);
        let text = green.to_string();
        Document {
            tree: Tree::new(green),
            tracker: Tracker::new(text),
            crlf: self.crlf,
            cuts: Some(Cuts::default()),
            top_layout: None,
        }
    }

    /// The edit on the part around the top-level child `item`; `None`
    /// when it has to run on the whole file. `inside` is the child the
    /// edit looks inside, if any: the long one-line values of the other
    /// attributes of the part are replaced by stand-ins (see
    /// [`Tree::abbreviated_part`]), so that their trees are never built.
    fn edit_part_around<T>(
        &mut self,
        item: usize,
        inside: Option<usize>,
        top_layout: Option<TopLayout>,
        op: &mut impl FnMut(&mut Document) -> Result<T, EditError>,
    ) -> Option<T> {
        let bounds = bounds(&self.tree, item)?;
        let (lo, hi) = (bounds.lo, bounds.hi);
        if let Some((text, stand_ins)) = self.tree.abbreviated_part(lo, hi, inside) {
            return self.edit_abbreviated(bounds, text, &stand_ins, top_layout, op);
        }
        let (green, base) = self.tree.part(lo, hi);
        let text = green.to_string();
        let (done, part, edits) = self.run_on_part(bounds, green, text, top_layout, op)?;
        for e in edits.iter().rev() {
            let range = TextRange::new(e.range.start() + base, e.range.end() + base);
            self.tracker.replace(range, &e.new_text);
        }
        self.tree.replace_part(lo, hi, part.tree.root());
        #[cfg(debug_assertions)]
        self.check_consistency();
        tests::count_part();
        Some(done)
    }
}

impl Document {
    /// Runs `op` on the children `lo..hi` made a document of their own
    /// (`green`, whose text is `text`). Gives what `op` gave, the edited
    /// part and its changes, when they stay away from the lines where the
    /// part is cut and no layout window reached them; `None` otherwise
    /// (the edit then runs on the whole file).
    fn run_on_part<T>(
        &self,
        bounds: Bounds,
        green: rowan::GreenNode,
        text: String,
        top_layout: Option<TopLayout>,
        op: &mut impl FnMut(&mut Document) -> Result<T, EditError>,
    ) -> Option<(T, Document, Vec<crate::diff::TextEdit>)> {
        let cuts = Cuts {
            before: bounds.lo > 0,
            after: bounds.hi < self.tree.len(),
            crossed: false,
            group_before: bounds.before,
            group_after: bounds.after,
            into_group: false,
        };
        // Looked at only for a part cut inside a group.
        let in_group = bounds.before.is_some() || bounds.after.is_some();
        let old_has_comments = in_group && has_comments(&green);
        let first_line = if cuts.before { first_line(&text) } else { "" };
        let last_line = if cuts.after { last_line(&text) } else { "" };
        let mut part = Document {
            tree: Tree::new(green),
            tracker: Tracker::new(text.clone()),
            crlf: self.crlf,
            cuts: Some(cuts),
            top_layout,
        };
        let done = op(&mut part).ok()?;
        let cuts = part.cuts?;
        // Comments are aligned by the `=` column of their group, which
        // the part does not see all of.
        if cuts.crossed || cuts.into_group && (old_has_comments || has_comments(part.tree.root())) {
            return None;
        }
        let edits = part.tracker.text_edits();
        let first_end = TextSize::of(first_line);
        let last_start = TextSize::of(text.as_str()) - TextSize::of(last_line);
        let new_text = part.to_string();
        let kept = edits
            .iter()
            .all(|e| e.range.start() >= first_end && e.range.end() <= last_start)
            && new_text.starts_with(first_line)
            && new_text.ends_with(last_line)
            && (last_line.is_empty()
                || new_text[..new_text.len() - last_line.len()].ends_with('\n'));
        kept.then_some((done, part, edits))
    }

    /// [`Document::edit_part_around`] on a part whose text has stand-ins
    /// for long values: the edit runs on that text, its changes are
    /// moved to the file's coordinates (refused when one cuts into a
    /// stand-in), and the children holding stand-ins come back as items
    /// of their own text, with the values put back.
    fn edit_abbreviated<T>(
        &mut self,
        bounds: Bounds,
        text: String,
        stand_ins: &[StandIn],
        top_layout: Option<TopLayout>,
        op: &mut impl FnMut(&mut Document) -> Result<T, EditError>,
    ) -> Option<T> {
        let (lo, hi) = (bounds.lo, bounds.hi);
        let base = if lo == 0 {
            TextSize::from(0)
        } else {
            self.tree.range(lo).start()
        };
        let parsed = crate::parse(&text);
        if !parsed.errors().is_empty() {
            return None;
        }
        let (done, part, edits) =
            self.run_on_part(bounds, parsed.green().clone(), text, top_layout, op)?;
        let new_text = part.to_string();
        // Each change, in the file's coordinates: before, after or over
        // the whole of each stand-in (no end of it inside one).
        let mut moved = Vec::with_capacity(edits.len());
        for e in &edits {
            let start = to_file(e.range.start(), stand_ins)?;
            let end = to_file(e.range.end(), stand_ins)?;
            moved.push((TextRange::new(start + base, end + base), &e.new_text));
        }
        self.tree
            .replace_abbreviated(lo, hi, part.tree.root(), &new_text, stand_ins)?;
        for (range, new_text) in moved.iter().rev() {
            self.tracker.replace(*range, new_text);
        }
        #[cfg(debug_assertions)]
        self.check_consistency();
        tests::count_part();
        Some(done)
    }

    /// The top-level item that the first steps of `address` match, when
    /// only one does, as a document of its own (for reading).
    pub(crate) fn only_part(&self, address: &Address) -> Option<Document> {
        let item = only_top_match(&self.tree, address)?;
        Some(self.item_alone(item))
    }
}

/// The one top-level child that the first steps of `address` match.
fn only_top_match(tree: &Tree, address: &Address) -> Option<usize> {
    let steps = address.steps();
    let candidates = tree.candidates(steps)?;
    let mut found = None;
    for i in candidates {
        let i = i as usize;
        // An address of one name matches an attribute so named, told
        // without building its tree.
        let named = match steps {
            [Step::Name(name)] => tree.is_lazy_attribute_named(i, name),
            _ => false,
        };
        if named || matches!(tree.child(i), NodeOrToken::Node(node) if matches_top(node, steps)) {
            if found.is_some() {
                return None;
            }
            found = Some(i);
        }
    }
    found
}

/// Where a part is cut from the file: the children `lo..hi`, and, for a
/// side cut inside an `=` group, what lies beyond the cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    lo: usize,
    hi: usize,
    before: Option<Beyond>,
    after: Option<Beyond>,
}

/// The children around `item` to edit it alone: cut at line starts, at
/// lines without an `=` or a comment; or, when there is none near, inside
/// the `=` group of one-line attributes (see [`group`](crate::document::partial::group)).
fn bounds(tree: &Tree, item: usize) -> Option<Bounds> {
    let n = tree.len();
    let first = item.saturating_sub(MARGIN);
    let mut lo = first;
    let mut before = None;
    while lo > 0 && !cut_before(tree, lo) {
        lo -= 1;
        if item - lo > MARGIN + MAX_EXTRA {
            (lo, before) = group_cut_before(tree, first)?;
            break;
        }
    }
    let last = (item + 1 + MARGIN).min(n);
    let mut hi = last;
    let mut after = None;
    while hi < n && !cut_before(tree, hi) {
        hi += 1;
        if hi - item > MARGIN + MAX_EXTRA {
            (hi, after) = group_cut_after(tree, last)?;
            break;
        }
    }
    Some(Bounds {
        lo,
        hi,
        before,
        after,
    })
}

/// A cut inside an `=` group at or before the child `from`: before a
/// one-line attribute that starts a line, with the group's lines before
/// it read.
fn group_cut_before(tree: &Tree, from: usize) -> Option<(usize, Option<Beyond>)> {
    let at = (from.saturating_sub(MAX_EXTRA).max(1)..=from)
        .rev()
        .find(|&p| child_ends_line(tree, p - 1) && is_plain_line(tree, p))?;
    Some((at, Some(beyond_start(tree, at)?)))
}

/// A cut inside an `=` group at or after the child `from` (the part
/// ends before it, at the end of a line), with the group's lines from
/// there read.
fn group_cut_after(tree: &Tree, from: usize) -> Option<(usize, Option<Beyond>)> {
    let at = (from.max(1)..(from + MAX_EXTRA).min(tree.len()))
        .find(|&p| child_ends_line(tree, p - 1))?;
    Some((at, Some(beyond_end(tree, at)?)))
}

/// True when the `i`-th child's text ends with a newline.
fn child_ends_line(tree: &Tree, i: usize) -> bool {
    match tree.lazy_text(i) {
        Some(text) => text.ends_with('\n'),
        None => ends_line(tree.child(i)),
    }
}

/// True when a tree holds a comment.
fn has_comments(root: &rowan::GreenNode) -> bool {
    Tokens::new(NodeOrToken::Node(root), false).any(|t| t.kind() == COMMENT.into())
}

/// True when the file can be cut before the child `at`: the child
/// before ends a line, and neither the line before the cut nor the line
/// after it has an `=` or a comment.
fn cut_before(tree: &Tree, at: usize) -> bool {
    // An attribute not built yet tells its lines from its text.
    let before = tree.lazy_lines(at - 1);
    let ends = match before {
        Some(lines) => lines.ends_line,
        None => ends_line(tree.child(at - 1)),
    };
    if !ends {
        return false;
    }
    let cells_before = match before.and_then(|l| l.last_has_cells) {
        Some(cells) => cells,
        None => line_has_cells((0..at).rev().map(|i| tree.child(i)), true),
    };
    if cells_before {
        return false;
    }
    match tree.lazy_lines(at) {
        Some(lines) => !lines.first_has_cells,
        None => !line_has_cells((at..tree.len()).map(|i| tree.child(i)), false),
    }
}

/// True when the element's text ends with a newline token.
fn ends_line(element: &GreenElement) -> bool {
    let mut tokens = Tokens::new(borrowed(element), true);
    tokens.next().is_some_and(|t| t.kind() == NEWLINE.into())
}

/// True when the first line of `elements` (or, `backward`, the last
/// line, before the final newline, of the elements given from the last)
/// has an `=` or a comment: a line that can be in an alignment group.
fn line_has_cells<'a>(elements: impl Iterator<Item = &'a GreenElement>, backward: bool) -> bool {
    let mut skipped_final = !backward;
    for element in elements {
        for t in Tokens::new(borrowed(element), backward) {
            if t.kind() == NEWLINE.into() {
                if skipped_final {
                    return false;
                }
                skipped_final = true;
                continue;
            }
            skipped_final = true;
            if t.kind() == EQ.into() || t.kind() == COMMENT.into() {
                return true;
            }
        }
    }
    false
}

/// A borrowed view of an element.
fn borrowed(element: &GreenElement) -> NodeOrToken<&GreenNodeData, &GreenTokenData> {
    match element {
        NodeOrToken::Node(n) => NodeOrToken::Node(n),
        NodeOrToken::Token(t) => NodeOrToken::Token(t),
    }
}

/// A position in a part's text with stand-ins, in the text with the
/// values back (relative to the part's start); none inside a stand-in.
fn to_file(pos: TextSize, stand_ins: &[StandIn]) -> Option<TextSize> {
    let mut shifted = pos;
    for s in stand_ins {
        let end = s.at + TextSize::of(s.text.as_str());
        if pos >= end {
            shifted = shifted - TextSize::of(s.text.as_str()) + s.value_len;
        } else if pos > s.at {
            return None;
        }
    }
    Some(shifted)
}

/// The first line of a text, with its newline.
fn first_line(text: &str) -> &str {
    text.find('\n').map_or(text, |i| &text[..=i])
}

/// The last line of a text that ends with a newline, with it.
fn last_line(text: &str) -> &str {
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.rfind('\n').map_or(text, |i| &text[i + 1..])
}

/// The tokens of a green element, forward or backward, without
/// allocating more than the depth of the tree.
struct Tokens<'a> {
    first: Option<&'a GreenTokenData>,
    stack: Vec<Children<'a>>,
    backward: bool,
}

impl<'a> Tokens<'a> {
    fn new(element: NodeOrToken<&'a GreenNodeData, &'a GreenTokenData>, backward: bool) -> Self {
        match element {
            NodeOrToken::Token(t) => Tokens {
                first: Some(t),
                stack: Vec::new(),
                backward,
            },
            NodeOrToken::Node(n) => Tokens {
                first: None,
                stack: vec![n.children()],
                backward,
            },
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a GreenTokenData;

    fn next(&mut self) -> Option<&'a GreenTokenData> {
        if let Some(t) = self.first.take() {
            return Some(t);
        }
        loop {
            let top = self.stack.last_mut()?;
            let next = if self.backward {
                top.next_back()
            } else {
                top.next()
            };
            match next {
                None => {
                    self.stack.pop();
                }
                Some(NodeOrToken::Token(t)) => return Some(t),
                Some(NodeOrToken::Node(n)) => self.stack.push(n.children()),
            }
        }
    }
}

#[cfg(not(test))]
mod tests {
    pub fn whole_only() -> bool {
        false
    }
    pub fn count_part() {}
}

#[cfg(test)]
mod tests {
    //! Every edit done on a part must give exactly what the same edit
    //! on the whole document gives.

    use std::cell::Cell;

    use super::*;
    use crate::ast;
    use crate::document::address::Step;
    use crate::document::{EditValue, Placement};

    thread_local! {
        static WHOLE_ONLY: Cell<bool> = const { Cell::new(false) };
        static PARTS: Cell<usize> = const { Cell::new(0) };
    }

    pub fn whole_only() -> bool {
        WHOLE_ONLY.get()
    }

    pub fn count_part() {
        PARTS.set(PARTS.get() + 1);
    }

    type Op = Box<dyn Fn(&mut Document) -> Result<(), EditError>>;

    /// Runs `op` both ways; returns whether the part was used.
    fn same_both_ways(text: &str, what: &str, op: &Op) -> bool {
        let doc = Document::parse(text).expect("valid");
        let mut on_part = doc.clone();
        let before = PARTS.get();
        let a = op(&mut on_part);
        let used = PARTS.get() > before;
        let mut on_whole = doc.clone();
        WHOLE_ONLY.set(true);
        let b = op(&mut on_whole);
        WHOLE_ONLY.set(false);
        assert_eq!(a, b, "{what} on {text:?}");
        assert_eq!(
            on_part.to_string(),
            on_whole.to_string(),
            "{what} on {text:?}"
        );
        assert_eq!(
            on_part.text_edits(),
            on_whole.text_edits(),
            "{what} on {text:?}"
        );
        assert_eq!(
            on_part.syntax().green(),
            on_whole.syntax().green(),
            "{what}"
        );
        used
    }

    /// The address of each block and attribute of a body, recursively.
    fn addresses(body: &ast::Body, prefix: &[Step], out: &mut Vec<(Address, bool)>) {
        for item in body.items() {
            let mut steps = prefix.to_vec();
            match item {
                ast::BodyItem::Attribute(a) => {
                    steps.push(Step::Name(a.name().unwrap_or_default()));
                    out.push((Address::new(steps), false));
                }
                ast::BodyItem::Block(b) => {
                    steps.push(Step::Name(b.type_name().unwrap_or_default()));
                    steps.extend(b.labels().map(|l| Step::Name(l.value())));
                    out.push((Address::new(steps.clone()), true));
                    if let Some(inner) = b.body() {
                        addresses(&inner, &steps, out);
                    }
                }
            }
        }
    }

    /// The edits tried at an address.
    fn ops(address: &Address, is_block: bool) -> Vec<(String, Op)> {
        let mut out: Vec<(String, Op)> = Vec::new();
        let a = address.clone();
        out.push((format!("remove {a}"), Box::new(move |d| d.remove(&a))));
        let a = address.clone();
        out.push((
            format!("comments above {a}"),
            Box::new(move |d| d.set_comments_above(&a, &["one", "two"])),
        ));
        let a = address.clone();
        out.push((
            format!("no comments above {a}"),
            Box::new(move |d| d.set_comments_above(&a, &[])),
        ));
        if is_block {
            let mut steps = address.steps().to_vec();
            steps.push(Step::Name("new_attribute_name".into()));
            let a = Address::new(steps);
            out.push((format!("create {a}"), Box::new(move |d| d.set(&a, 1))));
            let mut steps = address.steps().to_vec();
            steps.extend([Step::Name("new_map".into()), Step::Name("key".into())]);
            let a = Address::new(steps);
            out.push((format!("create {a}"), Box::new(move |d| d.set(&a, "v"))));
            let mut steps = address.steps().to_vec();
            steps.extend([Step::Name("lifecycle".into()), Step::Name("x".into())]);
            let a = Address::new(steps);
            out.push((format!("create {a}"), Box::new(move |d| d.set(&a, true))));
            let a = address.to_string();
            out.push((
                format!("append to {a}"),
                Box::new(move |d| d.append_block(&a, "inner", &["x"], "k = 1\n")),
            ));
            let a = address.clone();
            out.push((
                format!("labels of {a}"),
                Box::new(move |d| d.set_labels(&a, &["l1", "l2"])),
            ));
            let a = address.clone();
            out.push((
                format!("first in {a}"),
                Box::new(move |d| {
                    let mut steps = a.steps().to_vec();
                    steps.push(Step::Name("first_one".into()));
                    d.set_with(Address::new(steps), "v", Placement::First)
                }),
            ));
        } else {
            let a = address.clone();
            out.push((format!("set {a}"), Box::new(move |d| d.set(&a, "x"))));
            let a = address.clone();
            out.push((
                format!("set {a} to an object"),
                Box::new(move |d| d.set(&a, EditValue::object([("k", 1), ("longer_key", 2)]))),
            ));
            let a = address.clone();
            out.push((
                format!("rename {a}"),
                Box::new(move |d| d.rename(&a, "a_much_longer_name")),
            ));
            let a = address.clone();
            out.push((
                format!("add an element first to {a}"),
                Box::new(move |d| d.add_element(&a, "x", Placement::First)),
            ));
            let a = address.clone();
            out.push((
                format!("add a key first to {a}"),
                Box::new(move |d| {
                    let mut steps = a.steps().to_vec();
                    steps.push(Step::Name("first_key".into()));
                    d.set_with(Address::new(steps), 1, Placement::First)
                }),
            ));
            let a = address.clone();
            out.push((
                format!("inline comment on {a}"),
                Box::new(move |d| d.set_inline_comment(&a, Some("note"))),
            ));
        }
        out
    }

    /// Every edit at every address of `text`, both ways; returns how
    /// many used a part.
    fn check_file(text: &str) -> usize {
        let doc = Document::parse(text).expect("valid");
        let mut list = Vec::new();
        addresses(&doc.body(), &[], &mut list);
        let mut parts = 0;
        for (address, is_block) in list {
            for (what, op) in ops(&address, is_block) {
                parts += usize::from(same_both_ways(text, &what, &op));
            }
        }
        parts + check_top_inserts(text)
    }

    /// The edits that create a new top-level item.
    fn top_inserts() -> Vec<(String, Op)> {
        vec![
            ("new attribute".into(), Box::new(|d| d.set("zz_new", 7))),
            (
                "new object".into(),
                Box::new(|d| d.set("zz_obj", EditValue::object([("k", 1), ("longer_key", 2)]))),
            ),
            (
                "new nested".into(),
                Box::new(|d| d.set("terraform_new.required.x", "v")),
            ),
            (
                "new last".into(),
                Box::new(|d| d.set_with("zz_last", 1, Placement::Last)),
            ),
            (
                "new first".into(),
                Box::new(|d| d.set_with("zz_first", 1, Placement::First)),
            ),
        ]
    }

    /// The edits of [`top_inserts`] on `text`, both ways; returns how
    /// many used a part.
    fn check_top_inserts(text: &str) -> usize {
        top_inserts()
            .iter()
            .map(|(what, op)| usize::from(same_both_ways(text, what, op)))
            .sum()
    }

    #[test]
    fn new_top_level_items_on_parts_are_what_the_whole_file_gives() {
        let mut parts = 0;
        for text in FILES {
            parts += check_top_inserts(text);
        }
        assert!(parts >= 20, "only {parts} edits on a part");
        let Some(texts) = crate::corpus::texts("new top-level items over the corpus") else {
            return;
        };
        let (mut files, mut parts) = (0, 0);
        for (_, text) in &texts {
            // The files the upstream parser rejects are refused here too.
            if Document::parse(text).is_ok() {
                files += 1;
                parts += check_top_inserts(text);
            }
        }
        assert!(
            files > 2000 && parts > files * 3,
            "{parts} parts in {files} files"
        );
    }

    const FILES: &[&str] = &[
        // Blocks separated by blank lines, with comments.
        "# Instance 0.\nresource \"a\" \"w0\" {\n  ami = \"x\" # pinned\n  t   = 1\n}\n\n# Instance 1.\nresource \"a\" \"w1\" {\n  ami = \"y\"\n\n  tags = {\n    Name = \"n\"\n  }\n}\n\nresource \"a\" \"w2\" {\n  ami = \"z\"\n}\n\nresource \"a\" \"w3\" {\n}\n",
        // An aligned group of top-level attributes, and blocks around.
        "a   = 1\nbb  = 2\nccc = 3\n\nb {\n  x = 1\n}\nc {\n  y = 2\n}\nd   = 4\neee = 5\n",
        // Blocks right after each other; headers with comments.
        "x \"1\" { # one\n  a = 1\n}\nx \"2\" {\n  a = 2\n}\nx \"3\" { a = 3 }\nx \"4\" {\n  a = 4\n} # four\nx \"5\" {\n  a = 5\n}\n",
        // Detached comments, indented top-level items, no final newline.
        "# detached\n\n  a = 1\n  b {\n    c = 2\n  }\n\n// also detached\n\nd {\n  e = 3\n}\n\nf {\n  g = 4\n}\nlast = 1",
        // A byte order mark and CRLF lines.
        "\u{feff}a {\r\n  b = 1\r\n}\r\n\r\nc {\r\n  d = 2\r\n}\r\n\r\ne {\r\n  f = 3\r\n}\r\n",
        // Duplicate blocks (ambiguous) and a heredoc.
        "p \"aws\" {\n  r = 1\n}\n\np \"aws\" {\n  r = 2\n}\n\nq {\n  h = <<EOT\n  x = 1\nEOT\n  k = 2\n}\n\nz {\n}\n",
        // Tabs and four-space indentation.
        "a {\n\tb = 1\n\tc {\n\t\td = 2\n\t}\n}\n\ne {\n    f = 1\n    gg = 2\n}\n\nh {\n}\n",
        // Long one-line values (stand-ins in parts) next to comments,
        // in aligned and unaligned groups, and values that keep theirs.
        "list = [1, 2, 3, 4, 5, 6, 7, 8]\nname_longer = \"a long string value\"   \n# about c\nc = {x = 1, y = 2, z = 3}\nd = 1 # trailing\ne = [for x in [1, 2, 3] : x * 2]\nf = \"has # inside a string\"\n\nb {\n  inner = [1, 2, 3, 4, 5, 6]\n}\ng   = [\"aligned\", \"group\"]\nhhh = [\"of\", \"values\", \"here\"]\nlast = [1, 2, 3, 4, 5, 6] // c\n",
        "\u{feff}  first = [\"a\", \"b\", \"c\", \"d\"]\r\n  second = \"x\"\r\n\r\nthird = [1, 2, 3, 4, 5, 6]\r\nfourth = <<EOT\r\nheredoc text\r\nEOT\r\nfifth = [1, 2, 3, 4, 5, 6]",
    ];

    #[test]
    fn parts_give_what_the_whole_file_gives() {
        let mut parts = 0;
        for text in FILES {
            parts += check_file(text);
        }
        // Most of these edits are done on a part.
        assert!(parts > 100, "only {parts} edits on a part");
    }

    /// Runs of one-line attributes longer than a part: aligned or not,
    /// with comments, blank lines, blocks, CRLF, names of several widths.
    fn group_files() -> Vec<String> {
        let run = |from: usize, to: usize, eol: &str| -> String {
            (from..to).map(|i| format!("a{i} = {i}{eol}")).collect()
        };
        let aligned: String = (0..24).map(|i| format!("a{i:<3}= {i}\n")).collect();
        // Aligned at the column of a name `width` wide.
        let aligned_run = |names: &[String], width: usize, eol: &str| -> String {
            names
                .iter()
                .map(|n| {
                    let pad = width + 1 - n.chars().count();
                    format!("{n}{}= 1{eol}", " ".repeat(pad))
                })
                .collect()
        };
        let names = |prefix: &str, from: usize, to: usize| -> Vec<String> {
            (from..to).map(|i| format!("{prefix}{i}")).collect()
        };
        let widest = "a_widest_name".to_string();
        vec![
            // Aligned, the widest name in the middle of the group (once:
            // removing or renaming it moves every `=`).
            format!(
                "{}{}{}",
                aligned_run(&names("a", 0, 14), 13, "\n"),
                aligned_run(std::slice::from_ref(&widest), 13, "\n"),
                aligned_run(&names("a", 14, 28), 13, "\n")
            ),
            // Aligned: names of several clusters, CRLF, a block after.
            format!(
                "{}x {{\r\n}}\r\n",
                aligned_run(&names("é́", 0, 26), 4, "\r\n")
            ),
            // Aligned wider than the widest name (not as the formatter
            // aligns: every edit leaves the `=` where they are).
            aligned_run(&names("a", 0, 26), 6, "\n"),
            // Not aligned: `a9 =` and `a10 =` (the only changes of column).
            run(0, 30, "\n"),
            // Not aligned only at the far end.
            format!("{aligned}a_much_longer_name = 1\n"),
            format!("zz = 1\n{aligned}"),
            // Aligned: every edit is laid out against the whole group.
            aligned.clone(),
            // A comment in the group, a blank line, a block, again.
            format!("{}b = 1 # c\n{}", run(0, 12, "\n"), run(12, 26, "\n")),
            format!(
                "{}\nblock {{\n  x = 1\n}}\n{}\n\n{}",
                run(0, 14, "\n"),
                run(14, 28, "\n"),
                run(95, 120, "\n")
            ),
            run(0, 26, "\r\n"),
            // Spaces before a name, no space before an `=`, a tab.
            format!(
                "{}  b = 1\n{}c= 2\n{}d\t= 3\n{}",
                run(0, 10, "\n"),
                run(10, 20, "\n"),
                run(20, 30, "\n"),
                run(30, 40, "\n")
            ),
        ]
    }

    #[test]
    fn parts_cut_inside_groups_give_what_the_whole_file_gives() {
        let mut parts = 0;
        for text in group_files() {
            parts += check_file(&text);
        }
        assert!(parts > 300, "only {parts} edits on a part");
    }

    #[test]
    fn a_part_is_cut_inside_a_group_that_is_not_aligned() {
        let text: String = (0..40).map(|i| format!("a{i} = {i}\n")).collect();
        let doc = Document::parse(&text).unwrap();
        let at = bounds(&doc.tree, 20).unwrap();
        assert_eq!((at.lo, at.hi), (18, 23));
        let misaligned = |b: Option<Beyond>| b.map(|b| b.misaligned);
        assert_eq!(misaligned(at.before), Some(true));
        assert_eq!(misaligned(at.after), Some(false));
        for op in [
            Box::new(|d: &mut Document| d.set("a20", 7)) as Op,
            Box::new(|d| d.remove("a21")),
            Box::new(|d| d.set("zz", 7)),
            Box::new(|d| d.rename("a22", "a_longer_name")),
        ] {
            assert!(same_both_ways(&text, "edit in a group", &op));
        }
        // With a comment in the part, the whole file is edited.
        let text = text.replace("a20 = 20\n", "a20 = 20 # c\n");
        let op: Op = Box::new(|d| d.set("a21", 7));
        assert!(!same_both_ways(&text, "edit next to a comment", &op));
    }

    #[test]
    fn a_part_is_cut_inside_an_aligned_group() {
        let text: String = (0..40).map(|i| format!("a{i:<3}= {i}\n")).collect();
        let doc = Document::parse(&text).unwrap();
        let at = bounds(&doc.tree, 20).unwrap();
        let aligned = |b: Option<Beyond>| b.and_then(|b| b.aligned);
        let lines = Some(AlignedLines {
            widest: 3,
            column: 4,
        });
        assert_eq!((aligned(at.before), aligned(at.after)), (lines, lines));
        // The `=` stay where they are: edited on a part.
        for op in [
            Box::new(|d: &mut Document| d.set("a20", 7)) as Op,
            Box::new(|d| d.remove("a21")),
            Box::new(|d| d.set("zz", 7)),
            Box::new(|d| d.rename("a22", "b")),
            Box::new(|d| d.set("a23", EditValue::object([("k", 1)]))),
        ] {
            assert!(same_both_ways(&text, "edit in an aligned group", &op));
        }
        // A longer name moves every `=` of the group: the whole file.
        let op: Op = Box::new(|d| d.rename("a22", "a_longer_name"));
        assert!(!same_both_ways(&text, "a longer name", &op));
        let op: Op = Box::new(|d| d.set("a_longer_name", 1));
        assert!(!same_both_ways(&text, "a new longer name", &op));
        // So does removing the one widest name.
        let text: String = (0..40)
            .map(|i| match i {
                20 => "a20___ = 20\n".to_string(),
                _ => format!("a{i:<6}= {i}\n"),
            })
            .collect();
        assert_eq!(crate::format::format(&text), text);
        let op: Op = Box::new(|d| d.remove("a20___"));
        assert!(!same_both_ways(&text, "removing the widest", &op));
        let op: Op = Box::new(|d| d.remove("a21"));
        assert!(same_both_ways(&text, "removing another", &op));
    }

    #[test]
    fn renaming_to_a_name_taken_far_away_is_refused() {
        let text = "a = 1\n\nb {\n}\n\nc {\n}\n\nd {\n}\n\ne {\n}\n\nzz = 2\n";
        let mut doc = Document::parse(text).unwrap();
        assert_eq!(
            doc.rename("a", "zz"),
            Err(EditError::AlreadyExists { name: "zz".into() })
        );
        assert_eq!(doc.to_string(), text);
        // A block of that type is no attribute of that name.
        doc.rename("a", "e").unwrap();
        assert!(doc.to_string().starts_with("e = 1\n"));
    }

    #[test]
    fn cuts_are_at_lines_without_cells() {
        let text = FILES[0];
        let doc = Document::parse(text).unwrap();
        // The blocks are at 0, 2, 4, 6 (blank lines between); the
        // comment line above a block cannot be a cut.
        assert_eq!(bounds(&doc.tree, 4).map(|b| (b.lo, b.hi)), Some((1, 7)));
        assert_eq!(bounds(&doc.tree, 2).map(|b| (b.lo, b.hi)), Some((0, 5)));
        let text = FILES[2];
        let doc = Document::parse(text).unwrap();
        // `x "3" { a = 3 }` has an `=`, `x "4"` ends with a comment:
        // neither line can be a cut.
        assert_eq!(bounds(&doc.tree, 0).map(|b| (b.lo, b.hi)), Some((0, 5)));
        assert_eq!(bounds(&doc.tree, 3).map(|b| (b.lo, b.hi)), Some((1, 5)));
    }

    #[test]
    fn the_index_follows_a_sequence_of_edits() {
        let mut text = String::new();
        for i in 0..12 {
            let label = if i < 2 { 0 } else { i };
            text.push_str(&format!("r \"t\" \"b{label}\" {{\n  a = {i}\n}}\n\n"));
        }
        text.push_str("x = 1\n");
        let mut on_parts = Document::parse(&text).unwrap();
        let mut on_whole = on_parts.clone();
        let steps: Vec<Op> = vec![
            Box::new(|d| d.set("r.t.b3.a", 10)),
            Box::new(|d| d.set_labels("r.t.b4", &["t", "b0"])),
            Box::new(|d| d.remove("r.t.b2")),
            Box::new(|d| d.set("r.t.b5.a", 11)),
            Box::new(|d| d.rename("r.t.b6", "s")),
            Box::new(|d| d.append_block("s.t.b6", "inner", &[], "")),
            Box::new(|d| d.remove("x")),
            Box::new(|d| d.set("r.t.b7.a", 12)),
            Box::new(|d| d.set("s.t.b6.new", 1)),
            Box::new(|d| d.set("r.t.b0.a", 13)),
            Box::new(|d| d.remove("r.t.b11")),
            Box::new(|d| d.set("r.t.b10.a", 14)),
        ];
        let before = PARTS.get();
        for (k, step) in steps.iter().enumerate() {
            let a = step(&mut on_parts);
            WHOLE_ONLY.set(true);
            let b = step(&mut on_whole);
            WHOLE_ONLY.set(false);
            assert_eq!(a, b, "step {k}");
            assert_eq!(on_parts.to_string(), on_whole.to_string(), "step {k}");
            let fresh = crate::document::index::Index::from_keys(
                (0..on_parts.tree.len())
                    .map(|i| crate::document::index::Key::of(on_parts.tree.child(i))),
            );
            for address in ["r.t.b0", "r.t.b5.a", "s.t.b6", "x", "r.t.b2", "r.t.b10"] {
                let steps = Address::parse(address).unwrap();
                assert_eq!(
                    on_parts.tree.index().candidates(steps.steps()),
                    fresh.candidates(steps.steps()),
                    "step {k}: {address}"
                );
            }
        }
        // All but the edit of an ambiguous address were done on parts.
        assert_eq!(PARTS.get() - before, steps.len() - 1);
    }

    /// Every top-level item of every corpus file (up to 12 a file), every
    /// edit, both ways; in an unoptimised build, where that takes minutes,
    /// every third file and up to 2 items a file. Needs `HCLWRIGHT_CORPUS`.
    #[test]
    fn parts_over_the_corpus() {
        let Some(texts) = crate::corpus::texts("the part/whole corpus test") else {
            return;
        };
        let (mut files, mut parts) = (0, 0);
        for (path, text) in &texts {
            let Ok(doc) = Document::parse(text) else {
                continue;
            };
            files += 1;
            if cfg!(debug_assertions) && files % 3 != 0 {
                continue;
            }
            let mut list = Vec::new();
            addresses(&doc.body(), &[], &mut list);
            let per_file = if cfg!(debug_assertions) { 2 } else { 12 };
            let top: Vec<_> = list.into_iter().take(per_file).collect();
            for (address, is_block) in top {
                for (what, op) in ops(&address, is_block) {
                    let what = format!("{}: {what}", path.display());
                    parts += usize::from(same_both_ways(text, &what, &op));
                }
            }
        }
        eprintln!("parts over the corpus: {files} files, {parts} edits on a part");
    }
}
