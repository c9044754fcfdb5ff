//! A green-tree builder tuned for parsing.
//!
//! rowan's `GreenNodeBuilder` interns every token and small node through a
//! hash map. Most HCL tokens have a text fixed by their kind and length
//! (punctuation, newlines, runs of spaces), so here they come from small
//! arrays; identifiers are interned by their text, in a table kept from
//! one parse to the next on a thread (the same names recur across the files
//! of a project, see `identifiers.rs`); other texts (comments, strings,
//! numbers) are mostly unique and are allocated directly.
//!
//! Nodes are never shared. A third of them repeat exactly (`var`,
//! `each.value`, `true`) and could be found by kind and children in a
//! table, but measured on the corpus that made parsing about 20% slower:
//! a lookup in a thread-wide table and a reference to a node built long
//! ago miss the cache, where a new node is allocated next to its siblings.
//!
//! Short string literals recur too (72% of them across the corpus's
//! files), but interning them in a second table like the identifiers'
//! was measured slower: 1.4% fewer instructions, 5% more time per parse
//! (the lookups miss the cache where a new token is written next to its
//! siblings).
//!
//! On token-dense files (`a = [1, 1, 1, …]`, 10 MB on one line) the tree
//! is about 85 bytes per input byte. Interning short numbers like
//! identifiers, and sharing the `LITERAL`/`VARIABLE` nodes that hold one
//! interned token (a small per-parse table), brought that file's tree
//! from 854 MB to 581 MB, but made the corpus parse 3% slower (measured
//! side by side with `compare/`, three runs each): not taken.
//!
//! Each use of a shared token is an atomic increment of its reference
//! count, and each drop a decrement. Counting the uses per parse and adding
//! them once at the end was measured no faster: the increment mostly waits
//! for the writes of the tree before it, which remain. The tokens of fixed
//! text (punctuation, newlines, runs of spaces) are therefore made once per
//! process and immortal (our rowan's `GreenToken::new_immortal`, see
//! `vendor/rowan/HCLWRIGHT.md`): their clones and drops touch no count.
//! So are identifiers, up to a process-wide allowance of 65 536 tokens
//! (3 MiB at most): their table is emptied when full while trees may still
//! hold its tokens, so an immortal identifier is never freed, and past the
//! allowance identifiers are counted. Alternated with counted identifiers
//! (session 22, `parse_split DIR 40 drop`, four rounds), that took 2–3%
//! off parse-and-drop: medians 26.3 to 25.8 ms a corpus pass, 22.9 to
//! 22.2 ms on a second set; see `docs/parse-ceiling.md`.
//!
//! Every node and unshared token is one allocation, and dropping a tree
//! frees each of them. Our rowan carves them one after the other from
//! chunks of 64 KiB and reuses a chunk once all its blocks are free
//! (`vendor/rowan/src/chunk.rs`); identifiers, kept in the table for later
//! trees, are carved apart (`GreenToken::new_shared`) or immortal, so that
//! they do not keep a dropped tree's chunks. Before, freed blocks went to
//! per-size free lists that the next tree took them from; carving took
//! parse-and-drop from 2.74–2.78× to 2.80–2.89× `hcl-edit` on a second
//! set, and from 2.98–2.99× to 3.12–3.15× on the corpus (session 23,
//! medians of `compare/`'s rounds, builds alternated; see
//! `docs/parse-ceiling.md`).
//!
//! Each child is kept with its text length (a token's is its span), so
//! that finishing a node reads none of its children, and moves them off
//! the end of the stack into the node in one loop (rowan's
//! `GreenNode::from_sized_tail`; through `Vec::drain` it took 8% more of
//! a pass's instructions), and an immortal token is handed to the node
//! as such, so that dropping the node does not read it either; with the
//! identifier table keeping short names itself, parsing and dropping a
//! tree reads no immortal token at all (see `identifiers.rs`).

use std::sync::OnceLock;

use rowan::{GreenNode, GreenToken, NodeOrToken, SizedChild};

use super::identifiers::{self, Identifiers};

use crate::syntax_kind::SyntaxKind::{self, *};

/// Runs of spaces up to this length come from an array.
const MAX_SPACES: usize = 64;
/// The identifier table is emptied when it reaches this size, so that a
/// long-running process does not keep every name it ever parsed.
const MAX_IDENTIFIERS: usize = 1 << 16;

/// Builds a green tree from start/finish/token calls, with checkpoints to
/// wrap what was already built.
/// With `B` false (only the errors are wanted) every call is a no-op.
pub(crate) struct TreeBuilder<'t, const B: bool> {
    /// The text the tokens are slices of.
    text: &'t str,
    parents: Vec<(SyntaxKind, usize)>,
    /// The children of the open nodes, each with its text length.
    children: Vec<SizedChild>,
    /// The identifiers met so far on this thread, by their text. Green
    /// tokens are immutable and reference counted, so one table serves
    /// every tree built on the thread.
    identifiers: Identifiers,
}

/// Tokens whose text is determined by kind and length (punctuation,
/// newlines), indexed by `kind * 4 + len` (lengths 1..=3), made on first
/// use and shared by every tree of the process. They are immortal (rowan's
/// `new_immortal`): a clone or a drop of one touches no reference count.
/// A few hundred tokens at most, never freed, like any other static.
static BY_KIND: [OnceLock<GreenToken>; (ERROR_TOKEN as usize + 1) * 4] =
    [const { OnceLock::new() }; (ERROR_TOKEN as usize + 1) * 4];
/// Runs of `n` spaces, indexed by `n`, as `BY_KIND`.
static SPACES: [OnceLock<GreenToken>; MAX_SPACES + 1] = [const { OnceLock::new() }; MAX_SPACES + 1];

thread_local! {
    /// The thread's identifier table between two parses.
    static IDENTIFIERS: std::cell::RefCell<Option<Identifiers>> = const { std::cell::RefCell::new(None) };
}

/// A token of its own.
#[inline(never)]
fn new_token(kind: SyntaxKind, text: &str) -> GreenToken {
    GreenToken::new(kind.into(), text)
}

/// An identifier token for the table, immortal while the process's
/// allowance lasts (see `identifiers::IMMORTAL`). Either way it is
/// allocated apart from the tree being built: the table keeps it for
/// later trees.
#[inline(never)]
fn new_identifier(text: &str) -> GreenToken {
    if identifiers::IMMORTAL.take() {
        GreenToken::new_immortal(IDENT.into(), text)
    } else {
        GreenToken::new_shared(IDENT.into(), text)
    }
}

/// Pushes `child` onto the children stack, growing it out of line: with
/// the growth's call out of the way, nothing the caller holds is live
/// across a call on the common path, which then saves and restores two
/// registers instead of six (the path of most tokens, in
/// `Parser::bump_raw`).
#[inline(always)]
fn push_child(children: &mut Vec<SizedChild>, child: SizedChild) {
    if children.len() == children.capacity() {
        return push_growing(children, child);
    }
    children.push(child);
}

/// [`push_child`] when the stack is full.
#[cold]
#[inline(never)]
fn push_growing(children: &mut Vec<SizedChild>, child: SizedChild) {
    children.push(child);
}

/// True if `bytes` are all spaces (a run of whitespace may hold tabs).
#[inline]
fn all_spaces(bytes: &[u8]) -> bool {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    let mut words = bytes.chunks_exact(8);
    words.all(|w| u64::from_ne_bytes(w.try_into().expect("8 bytes")) == SPACES)
        && words.remainder().iter().all(|&b| b == b' ')
}

/// A position to wrap later with [`TreeBuilder::start_node_at`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint(usize);

/// True if a token of `kind` always has the same text for a given length.
#[inline]
fn fixed_text(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        NEWLINE
            | BOM
            | L_BRACE
            | R_BRACE
            | L_BRACK
            | R_BRACK
            | L_PAREN
            | R_PAREN
            | EQ
            | EQ2
            | NEQ
            | LT
            | GT
            | LTEQ
            | GTEQ
            | PLUS
            | MINUS
            | STAR
            | SLASH
            | PERCENT
            | AMP2
            | PIPE2
            | BANG
            | QUESTION
            | COLON
            | COLON2
            | DOT
            | ELLIPSIS
            | COMMA
            | FAT_ARROW
            | OPEN_QUOTE
            | CLOSE_QUOTE
            | INTERP_START
            | DIRECTIVE_START
            | TEMPLATE_SEQ_END
    )
}

impl<'t, const B: bool> TreeBuilder<'t, B> {
    /// A builder; with `B` false every call is a no-op (for checking
    /// syntax without the cost of a tree).
    pub(crate) fn new(text: &'t str, token_estimate: usize) -> TreeBuilder<'t, B> {
        if !B {
            return TreeBuilder {
                text,
                parents: Vec::new(),
                children: Vec::new(),
                identifiers: Identifiers::new(),
            };
        }
        let mut identifiers = IDENTIFIERS
            .with(|cell| cell.borrow_mut().take())
            .unwrap_or_else(Identifiers::new);
        if identifiers.len() >= MAX_IDENTIFIERS {
            identifiers.clear();
        }
        TreeBuilder {
            text,
            parents: Vec::with_capacity(32),
            children: Vec::with_capacity(64.max(token_estimate / 8)),
            identifiers,
        }
    }

    /// Adds the token of `kind` at `start..end` in the text to the
    /// current node.
    // Always inlined (into `Parser::bump_raw`, its one caller): with a plain
    // `#[inline]`, whether LLVM inlined it depended on how the crate's code
    // happened to be split into codegen units, and an unrelated change
    // elsewhere in the parser (session 28's shared `name_or_number`) left
    // it out of line and cost 1.5% of a pass's instructions (callgrind,
    // caf's `.tfvars`).
    #[inline(always)]
    pub(crate) fn token(&mut self, kind: SyntaxKind, start: u32, end: u32) {
        if !B {
            return;
        }
        let len = (end - start) as usize;
        // Inlined: a token of fixed text already made (most tokens).
        let made = if len <= 3 && fixed_text(kind) {
            BY_KIND[kind as usize * 4 + len].get()
        } else if kind == WHITESPACE && len <= MAX_SPACES {
            SPACES[len]
                .get()
                .filter(|_| all_spaces(&self.text.as_bytes()[start as usize..end as usize]))
        } else {
            None
        };
        // Each path pushes its child itself: a child handed back from
        // `other_token` was put together on the stack in two halves and
        // read back whole to be pushed, and that read waited for the two
        // writes to land (a load spanning two stores is not forwarded);
        // it had two thirds of this function's samples on a file of one
        // line, and the change took 1-2% off a pass over a second set.
        match made {
            // SAFETY: the tokens of fixed text are all immortal.
            Some(token) => push_child(
                &mut self.children,
                SizedChild::immortal_token(unsafe { token.copy_immortal() }, (end - start).into()),
            ),
            None => self.other_token(kind, start as usize, end as usize),
        }
    }

    /// Adds any other token: an identifier (from the table), a token of
    /// fixed text met for the first time, or a token of its own (string
    /// literals, numbers and comments mostly do not recur).
    #[inline(never)]
    fn other_token(&mut self, kind: SyntaxKind, start: usize, end: usize) {
        let len = end - start;
        let text = self.text;
        let bytes = &text.as_bytes()[start..end];
        let size = (len as u32).into();
        let child = if kind == IDENT && len <= identifiers::MAX_LEN {
            // Identifiers repeat: about three uses each in a file, more
            // across files.
            let (token, immortal) = self
                .identifiers
                .get_or_insert(bytes, || new_identifier(&text[start..end]));
            if immortal {
                SizedChild::immortal_token(token, size)
            } else {
                SizedChild::token(token, size)
            }
        } else if (len <= 3 && fixed_text(kind))
            || (kind == WHITESPACE && len <= MAX_SPACES && all_spaces(bytes))
        {
            // The inlined test again, here only when its slot was empty:
            // handing a slot reference down instead was measured at 3%
            // more instructions per parse.
            SizedChild::immortal_token(self.first_use(kind, start, end), size)
        } else {
            SizedChild::token(new_token(kind, &text[start..end]), size)
        };
        self.children.push(child);
    }

    /// The token of fixed text for `kind` at `start..end`, made and kept
    /// for the next uses.
    #[cold]
    fn first_use(&mut self, kind: SyntaxKind, start: usize, end: usize) -> GreenToken {
        let len = end - start;
        let slot = if kind == WHITESPACE {
            &SPACES[len]
        } else {
            &BY_KIND[kind as usize * 4 + len]
        };
        slot.get_or_init(|| GreenToken::new_immortal(kind.into(), &self.text[start..end]))
            .clone()
    }

    /// Starts a node; later children go into it until [`finish_node`](Self::finish_node).
    #[inline]
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        if !B {
            return;
        }
        self.parents.push((kind, self.children.len()));
    }

    /// A checkpoint at the current position.
    #[inline]
    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint(self.children.len())
    }

    /// Starts a node that wraps everything built since `checkpoint`.
    #[inline]
    pub(crate) fn start_node_at(&mut self, checkpoint: Checkpoint, kind: SyntaxKind) {
        if !B {
            return;
        }
        debug_assert!(checkpoint.0 <= self.children.len());
        debug_assert!(
            self.parents
                .last()
                .is_none_or(|&(_, first)| checkpoint.0 >= first)
        );
        self.parents.push((kind, checkpoint.0));
    }

    /// Finishes the current node.
    #[inline]
    pub(crate) fn finish_node(&mut self) {
        if !B {
            return;
        }
        let (kind, first) = self.parents.pop().expect("finish_node without start_node");
        let (node, len) = GreenNode::from_sized_tail(kind.into(), &mut self.children, first);
        self.children.push(SizedChild::node(node, len));
    }

    /// The root, once every node is finished (`None` when not building).
    pub(crate) fn finish(mut self) -> Option<GreenNode> {
        if !B {
            return None;
        }
        debug_assert!(self.parents.is_empty());
        debug_assert_eq!(self.children.len(), 1);
        let identifiers = std::mem::replace(&mut self.identifiers, Identifiers::new());
        IDENTIFIERS.with(|cell| *cell.borrow_mut() = Some(identifiers));
        match self.children.pop().map(SizedChild::into_element) {
            Some(NodeOrToken::Node(node)) => Some(node),
            _ => unreachable!("the root is always a node"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Identifiers held by this thread's table.
    fn held() -> usize {
        IDENTIFIERS.with(|cell| cell.borrow().as_ref().map_or(0, Identifiers::len))
    }

    #[test]
    fn the_identifier_table_is_emptied_when_full() {
        let big: String = (0..MAX_IDENTIFIERS + 10)
            .map(|i| format!("name{i} = value\n"))
            .collect();
        let parse = crate::parse(&big);
        assert!(parse.errors().is_empty());
        assert!(held() > MAX_IDENTIFIERS);
        let small = crate::parse("x = y\n");
        assert_eq!(small.syntax().to_string(), "x = y\n");
        assert_eq!(held(), 2, "the next parse starts with an empty table");
        // The trees keep their tokens.
        assert_eq!(parse.syntax().to_string(), big);
    }

    /// The node as `GreenNode::new` builds it from the node's children,
    /// each child's length read from the child.
    fn rebuilt(node: &rowan::GreenNodeData) -> GreenNode {
        GreenNode::new(
            node.kind(),
            node.children().map(|child| match child {
                NodeOrToken::Node(node) => NodeOrToken::Node(rebuilt(node)),
                NodeOrToken::Token(token) => NodeOrToken::Token(token.to_owned()),
            }),
        )
    }

    /// Each node takes its children off the end of the stack whole (and
    /// the stack grows out of line): the tree has the children, offsets
    /// and lengths `GreenNode::new` gives the same children, also for a
    /// node with more children than the stack first holds.
    #[test]
    fn nodes_take_their_children_off_the_stack() {
        let long_tuple: String = (0..20_000).map(|i| format!("{i}, ")).collect();
        let texts = [
            format!("a = [{long_tuple}]\n"),
            "a = { b = [1, \"x\", c.d[0]], e = f(g, h...) }\n\nblock \"l\" {\n  x = 1 # c\n}\n"
                .to_string(),
            String::new(),
        ];
        for text in texts {
            let parse = crate::parse(&text);
            let green = parse.syntax().green().to_owned();
            assert_eq!(rebuilt(&green), green);
            assert_eq!(parse.syntax().to_string(), text);
        }
    }

    #[test]
    fn spaces_are_told_from_tabs() {
        for n in 0..=20 {
            let spaces = " ".repeat(n);
            assert!(all_spaces(spaces.as_bytes()));
            for at in 0..n {
                let mut mixed = spaces.clone().into_bytes();
                mixed[at] = b'\t';
                assert!(!all_spaces(&mixed), "tab at {at} of {n}");
            }
        }
        let parse = crate::parse("a = 1 \t\n b\t=\t\"\t\"\n");
        assert_eq!(parse.syntax().to_string(), "a = 1 \t\n b\t=\t\"\t\"\n");
    }
}
