use std::{
    borrow::Borrow,
    fmt,
    iter::{self, FusedIterator},
    mem::{self, ManuallyDrop},
    ops, ptr, slice,
};

use countme::Count;

use crate::{
    arc::{Arc, Dying, HeaderSlice, ThinArc},
    green::{GreenElement, GreenElementRef, SyntaxKind},
    utility_types::static_assert,
    GreenToken, NodeOrToken, TextRange, TextSize,
};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct GreenNodeHead {
    kind: SyntaxKind,
    text_len: TextSize,
    _c: Count<GreenNode>,
}

#[derive(Debug, Clone)]
pub(crate) enum GreenChild {
    Node {
        rel_offset: TextSize,
        node: GreenNode,
    },
    Token {
        rel_offset: TextSize,
        token: GreenToken,
    },
    /// (hclwright) An immortal token (`GreenToken::new_immortal`), which
    /// dropping the node leaves alone without reading it.
    Immortal {
        rel_offset: TextSize,
        token: ManuallyDrop<GreenToken>,
    },
}

impl GreenChild {
    /// (hclwright) The offset and the child, an immortal token as any token.
    #[inline]
    fn parts(&self) -> (TextSize, NodeOrToken<&GreenNode, &GreenToken>) {
        match self {
            GreenChild::Node { rel_offset, node } => (*rel_offset, NodeOrToken::Node(node)),
            GreenChild::Token { rel_offset, token } => (*rel_offset, NodeOrToken::Token(token)),
            GreenChild::Immortal { rel_offset, token } => {
                (*rel_offset, NodeOrToken::Token(&**token))
            }
        }
    }
}

impl PartialEq for GreenChild {
    fn eq(&self, other: &GreenChild) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for GreenChild {}

impl std::hash::Hash for GreenChild {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.parts().hash(state);
    }
}
#[cfg(target_pointer_width = "64")]
static_assert!(mem::size_of::<GreenChild>() == mem::size_of::<usize>() * 2);

/// (hclwright) A node's child with its text length, for
/// [`GreenNode::from_sized`]: the same 16 bytes as the node's own entry,
/// the length where the entry keeps the child's offset.
#[derive(Debug, Clone)]
pub struct SizedChild(GreenChild);

impl SizedChild {
    /// A child node whose text is `len` long.
    #[inline]
    pub fn node(node: GreenNode, len: TextSize) -> SizedChild {
        SizedChild(GreenChild::Node { rel_offset: len, node })
    }
    /// A child token whose text is `len` long.
    #[inline]
    pub fn token(token: GreenToken, len: TextSize) -> SizedChild {
        SizedChild(GreenChild::Token { rel_offset: len, token })
    }
    /// An immortal token (`GreenToken::new_immortal`) whose text is `len`
    /// long: dropping the node it goes into leaves it alone without
    /// reading it.
    #[inline]
    pub fn immortal_token(token: GreenToken, len: TextSize) -> SizedChild {
        debug_assert!(token.is_immortal());
        SizedChild(GreenChild::Immortal { rel_offset: len, token: ManuallyDrop::new(token) })
    }
    /// (hclwright) The node's entry for this child placed at `text_len`
    /// (the length of the children before it), which then grows by the
    /// child's length.
    #[inline]
    fn placed_at(self, text_len: &mut TextSize) -> GreenChild {
        let mut child = self.0;
        debug_assert_eq!(child.rel_offset(), child.as_ref().text_len());
        let (GreenChild::Node { rel_offset, .. }
        | GreenChild::Token { rel_offset, .. }
        | GreenChild::Immortal { rel_offset, .. }) = &mut child;
        let len = *rel_offset;
        *rel_offset = *text_len;
        *text_len += len;
        child
    }
    /// The child.
    #[inline]
    pub fn into_element(self) -> GreenElement {
        match self.0 {
            GreenChild::Node { node, .. } => NodeOrToken::Node(node),
            GreenChild::Token { token, .. } => NodeOrToken::Token(token),
            GreenChild::Immortal { token, .. } => {
                NodeOrToken::Token(ManuallyDrop::into_inner(token))
            }
        }
    }
}

type Repr = HeaderSlice<GreenNodeHead, [GreenChild]>;
type ReprThin = HeaderSlice<GreenNodeHead, [GreenChild; 0]>;
#[repr(transparent)]
pub struct GreenNodeData {
    data: ReprThin,
}

impl PartialEq for GreenNodeData {
    fn eq(&self, other: &Self) -> bool {
        self.header() == other.header() && self.slice() == other.slice()
    }
}

/// Internal node in the immutable tree.
/// It has other nodes and tokens as children.
#[derive(Clone, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct GreenNode {
    /// (hclwright) Dropped by `GreenNode`'s own `Drop`, which frees a
    /// subtree without a call per node.
    ptr: ManuallyDrop<ThinArc<GreenNodeHead, GreenChild>>,
}

impl Drop for GreenNode {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the field is not used again.
        let ptr = unsafe { ManuallyDrop::take(&mut self.ptr) };
        if let Some(dying) = ptr.into_dying() {
            tear_down(dying);
        }
    }
}

/// (hclwright) Frees a node whose last reference is gone, and with it every
/// descendant that nothing else holds, without a call per node (upstream's
/// drop recursed through each child's `drop`, saving and restoring
/// registers at every node, and as deep as the tree). The nodes still to
/// free are a list linked through their own reference counts (see
/// `Dying::push_onto`), so no tree, however deep or wide, needs more stack
/// or any memory to be freed.
#[inline(never)]
fn tear_down(root: Dying<GreenNodeHead, GreenChild>) {
    let mut node = root;
    let mut pending: Option<Dying<GreenNodeHead, GreenChild>> = None;
    loop {
        // SAFETY: the node's last reference is gone: its children are ours
        // to move out, each once, and the node is freed below without
        // reading them again.
        for child in unsafe { &mut *node.items() } {
            match child {
                GreenChild::Node { node: child, .. } => {
                    // SAFETY: the child's reference moves here (its entry
                    // is not dropped).
                    let arc = unsafe { ptr::read(&*child.ptr) };
                    if let Some(dying) = arc.into_dying() {
                        pending = Some(dying.push_onto(pending));
                    }
                }
                // SAFETY: as above, the token is dropped once.
                GreenChild::Token { token, .. } => unsafe { ptr::drop_in_place(token) },
                GreenChild::Immortal { .. } => {}
            }
        }
        // SAFETY: every child was moved out above.
        unsafe { node.free() };
        match pending {
            Some(head) => {
                pending = head.rest();
                node = head;
            }
            None => return,
        }
    }
}

impl ToOwned for GreenNodeData {
    type Owned = GreenNode;

    #[inline]
    fn to_owned(&self) -> GreenNode {
        unsafe {
            let green = GreenNode::from_raw(ptr::NonNull::from(self));
            let green = ManuallyDrop::new(green);
            GreenNode::clone(&green)
        }
    }
}

impl Borrow<GreenNodeData> for GreenNode {
    #[inline]
    fn borrow(&self) -> &GreenNodeData {
        &*self
    }
}

impl fmt::Debug for GreenNodeData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GreenNode")
            .field("kind", &self.kind())
            .field("text_len", &self.text_len())
            .field("n_children", &self.children().len())
            .finish()
    }
}

impl fmt::Debug for GreenNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let data: &GreenNodeData = &*self;
        fmt::Debug::fmt(data, f)
    }
}

impl fmt::Display for GreenNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let data: &GreenNodeData = &*self;
        fmt::Display::fmt(data, f)
    }
}

impl fmt::Display for GreenNodeData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for child in self.children() {
            write!(f, "{}", child)?;
        }
        Ok(())
    }
}

impl GreenNodeData {
    #[inline]
    fn header(&self) -> &GreenNodeHead {
        &self.data.header
    }

    #[inline]
    fn slice(&self) -> &[GreenChild] {
        self.data.slice()
    }

    /// Kind of this node.
    #[inline]
    pub fn kind(&self) -> SyntaxKind {
        self.header().kind
    }

    /// Returns the length of the text covered by this node.
    #[inline]
    pub fn text_len(&self) -> TextSize {
        self.header().text_len
    }

    /// Children of this node.
    #[inline]
    pub fn children(&self) -> Children<'_> {
        Children { raw: self.slice().iter() }
    }

    pub(crate) fn child_at_range(
        &self,
        rel_range: TextRange,
    ) -> Option<(usize, TextSize, GreenElementRef<'_>)> {
        let idx = self
            .slice()
            .binary_search_by(|it| {
                let child_range = it.rel_range();
                TextRange::ordering(child_range, rel_range)
            })
            // XXX: this handles empty ranges
            .unwrap_or_else(|it| it.saturating_sub(1));
        let child = &self.slice().get(idx).filter(|it| it.rel_range().contains_range(rel_range))?;
        Some((idx, child.rel_offset(), child.as_ref()))
    }

    #[must_use]
    pub fn replace_child(&self, index: usize, new_child: GreenElement) -> GreenNode {
        let mut replacement = Some(new_child);
        let children = self.children().enumerate().map(|(i, child)| {
            if i == index {
                replacement.take().unwrap()
            } else {
                child.to_owned()
            }
        });
        GreenNode::new(self.kind(), children)
    }
    #[must_use]
    pub fn insert_child(&self, index: usize, new_child: GreenElement) -> GreenNode {
        // https://github.com/rust-lang/rust/issues/34433
        self.splice_children(index..index, iter::once(new_child))
    }
    #[must_use]
    pub fn remove_child(&self, index: usize) -> GreenNode {
        self.splice_children(index..=index, iter::empty())
    }
    #[must_use]
    pub fn splice_children<R, I>(&self, range: R, replace_with: I) -> GreenNode
    where
        R: ops::RangeBounds<usize>,
        I: IntoIterator<Item = GreenElement>,
    {
        let mut children: Vec<_> = self.children().map(|it| it.to_owned()).collect();
        children.splice(range, replace_with);
        GreenNode::new(self.kind(), children)
    }
}

impl ops::Deref for GreenNode {
    type Target = GreenNodeData;

    #[inline]
    fn deref(&self) -> &GreenNodeData {
        unsafe {
            let repr: &Repr = &self.ptr;
            let repr: &ReprThin = &*(repr as *const Repr as *const ReprThin);
            mem::transmute::<&ReprThin, &GreenNodeData>(repr)
        }
    }
}

impl GreenNode {
    /// Creates new Node.
    ///
    /// (hclwright) Through [`GreenNode::from_sized`], each child's length
    /// read from the child.
    #[inline]
    pub fn new<I>(kind: SyntaxKind, children: I) -> GreenNode
    where
        I: IntoIterator<Item = GreenElement>,
        I::IntoIter: ExactSizeIterator,
    {
        let children = children.into_iter().map(|el| {
            let len = el.text_len();
            match el {
                NodeOrToken::Node(node) => SizedChild::node(node, len),
                NodeOrToken::Token(token) => SizedChild::token(token, len),
            }
        });
        GreenNode::from_sized(kind, children).0
    }

    /// (hclwright) Creates a node from children whose text lengths the
    /// caller already knows (a parser does: each token's is its span), so
    /// that no child is read to sum them. Also returns the node's text
    /// length. Each length must be the child's own (checked in debug
    /// builds).
    #[inline]
    pub fn from_sized<I>(kind: SyntaxKind, children: I) -> (GreenNode, TextSize)
    where
        I: IntoIterator<Item = SizedChild>,
        I::IntoIter: ExactSizeIterator,
    {
        let mut text_len: TextSize = 0.into();
        let children = children.into_iter().map(|child| child.placed_at(&mut text_len));
        let data = ThinArc::from_header_and_iter(
            GreenNodeHead { kind, text_len: 0.into(), _c: Count::new() },
            children,
            crate::chunk::Placement::Carved(crate::chunk::Stream::Tree),
        );
        GreenNode::made(data, text_len)
    }

    /// (hclwright) The node just made as `data`, its text length written.
    #[inline]
    fn made(
        mut data: ThinArc<GreenNodeHead, GreenChild>,
        text_len: TextSize,
    ) -> (GreenNode, TextSize) {
        // SAFETY: the node was just made; nothing else holds it.
        unsafe { data.header_mut_unshared() }.text_len = text_len;
        (GreenNode { ptr: ManuallyDrop::new(data) }, text_len)
    }

    /// (hclwright) [`GreenNode::from_sized`] over `children[first..]`,
    /// moved out of the vector (which keeps its first `first`): what a
    /// parser's stack of children does when a node ends, without an
    /// iterator in between.
    ///
    /// Panics if `first > children.len()`.
    #[inline]
    pub fn from_sized_tail(
        kind: SyntaxKind,
        children: &mut Vec<SizedChild>,
        first: usize,
    ) -> (GreenNode, TextSize) {
        let mut text_len: TextSize = 0.into();
        let data = ThinArc::from_header_and_vec_tail(
            GreenNodeHead { kind, text_len: 0.into(), _c: Count::new() },
            children,
            first,
            |child| child.placed_at(&mut text_len),
            crate::chunk::Placement::Carved(crate::chunk::Stream::Tree),
        );
        GreenNode::made(data, text_len)
    }

    #[inline]
    pub(crate) fn into_raw(this: GreenNode) -> ptr::NonNull<GreenNodeData> {
        let green = ManuallyDrop::new(this);
        let green: &GreenNodeData = &*green;
        ptr::NonNull::from(&*green)
    }

    #[inline]
    pub(crate) unsafe fn from_raw(ptr: ptr::NonNull<GreenNodeData>) -> GreenNode {
        let arc = Arc::from_raw(&ptr.as_ref().data as *const ReprThin);
        let arc = mem::transmute::<Arc<ReprThin>, ThinArc<GreenNodeHead, GreenChild>>(arc);
        GreenNode { ptr: ManuallyDrop::new(arc) }
    }
}

impl GreenChild {
    #[inline]
    pub(crate) fn as_ref(&self) -> GreenElementRef<'_> {
        match self {
            GreenChild::Node { node, .. } => NodeOrToken::Node(node),
            GreenChild::Token { token, .. } => NodeOrToken::Token(token),
            GreenChild::Immortal { token, .. } => NodeOrToken::Token(token),
        }
    }
    #[inline]
    pub(crate) fn rel_offset(&self) -> TextSize {
        match self {
            GreenChild::Node { rel_offset, .. }
            | GreenChild::Token { rel_offset, .. }
            | GreenChild::Immortal { rel_offset, .. } => *rel_offset,
        }
    }
    #[inline]
    fn rel_range(&self) -> TextRange {
        let len = self.as_ref().text_len();
        TextRange::at(self.rel_offset(), len)
    }
}

#[derive(Debug, Clone)]
pub struct Children<'a> {
    pub(crate) raw: slice::Iter<'a, GreenChild>,
}

// NB: forward everything stable that iter::Slice specializes as of Rust 1.39.0
impl ExactSizeIterator for Children<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.raw.len()
    }
}

impl<'a> Iterator for Children<'a> {
    type Item = GreenElementRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<GreenElementRef<'a>> {
        self.raw.next().map(GreenChild::as_ref)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.raw.size_hint()
    }

    #[inline]
    fn count(self) -> usize
    where
        Self: Sized,
    {
        self.raw.count()
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<Self::Item> {
        self.raw.nth(n).map(GreenChild::as_ref)
    }

    #[inline]
    fn last(mut self) -> Option<Self::Item>
    where
        Self: Sized,
    {
        self.next_back()
    }

    #[inline]
    fn fold<Acc, Fold>(mut self, init: Acc, mut f: Fold) -> Acc
    where
        Fold: FnMut(Acc, Self::Item) -> Acc,
    {
        let mut accum = init;
        while let Some(x) = self.next() {
            accum = f(accum, x);
        }
        accum
    }
}

impl<'a> DoubleEndedIterator for Children<'a> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.raw.next_back().map(GreenChild::as_ref)
    }

    #[inline]
    fn nth_back(&mut self, n: usize) -> Option<Self::Item> {
        self.raw.nth_back(n).map(GreenChild::as_ref)
    }

    #[inline]
    fn rfold<Acc, Fold>(mut self, init: Acc, mut f: Fold) -> Acc
    where
        Fold: FnMut(Acc, Self::Item) -> Acc,
    {
        let mut accum = init;
        while let Some(x) = self.next_back() {
            accum = f(accum, x);
        }
        accum
    }
}

impl FusedIterator for Children<'_> {}
