//! A green-tree builder tuned for parsing.
//!
//! rowan's `GreenNodeBuilder` interns every token and small node through a
//! hash map. Most HCL tokens have a text fixed by their kind and length
//! (punctuation, newlines, runs of spaces), so here they come from small
//! arrays; identifiers are interned by their text, in a table kept from
//! one parse to the next on a thread (the same names recur across the files
//! of a project); other texts (comments, strings, numbers) are mostly
//! unique and are allocated directly; nodes are never hashed.

use std::borrow::Borrow;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use rowan::{GreenNode, GreenToken, NodeOrToken};
use rustc_hash::FxHasher;

use crate::syntax_kind::SyntaxKind::{self, *};

type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// Texts longer than this are not interned.
const MAX_INTERNED: usize = 24;
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
    /// True if the text has no tab, so that every whitespace token is a
    /// run of spaces.
    no_tabs: bool,
    parents: Vec<(SyntaxKind, usize)>,
    children: Vec<GreenElement>,
    /// Tokens of fixed text and identifiers, shared by every parse on
    /// this thread.
    fixed: FixedTokens,
}

/// Tokens whose text is determined by kind and length (punctuation,
/// newlines, runs of spaces), and the identifiers met so far. Green tokens
/// are immutable and reference counted, so one set serves every tree built
/// on a thread.
#[derive(Clone)]
struct FixedTokens {
    /// Indexed by `kind * 4 + len` (lengths 1..=3).
    by_kind: Vec<Option<GreenToken>>,
    /// Runs of `n` spaces, indexed by `n`.
    spaces: Vec<Option<GreenToken>>,
    /// Identifiers met so far, by their text.
    identifiers: HashSet<Identifier, BuildHasherDefault<FxHasher>>,
}

/// An identifier token in the table, found by its text.
#[derive(Clone)]
struct Identifier(GreenToken);

impl Hash for Identifier {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As the `[u8]` it is looked up by.
        self.0.text().as_bytes().hash(state);
    }
}

impl PartialEq for Identifier {
    fn eq(&self, other: &Identifier) -> bool {
        self.0.text() == other.0.text()
    }
}

impl Eq for Identifier {}

impl Borrow<[u8]> for Identifier {
    fn borrow(&self) -> &[u8] {
        self.0.text().as_bytes()
    }
}

impl FixedTokens {
    /// No tokens and no room for them (when no tree is built).
    fn empty() -> FixedTokens {
        FixedTokens {
            by_kind: Vec::new(),
            spaces: Vec::new(),
            identifiers: HashSet::default(),
        }
    }

    fn new() -> FixedTokens {
        FixedTokens {
            by_kind: vec![None; (ERROR_TOKEN as usize + 1) * 4],
            spaces: vec![None; MAX_SPACES + 1],
            identifiers: HashSet::default(),
        }
    }
}

thread_local! {
    static FIXED: std::cell::RefCell<Option<FixedTokens>> = const { std::cell::RefCell::new(None) };
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
                no_tabs: false,
                parents: Vec::new(),
                children: Vec::new(),
                fixed: FixedTokens::empty(),
            };
        }
        let fixed = FIXED
            .with(|cell| cell.borrow_mut().take())
            .unwrap_or_else(FixedTokens::new);
        TreeBuilder {
            text,
            no_tabs: !text.as_bytes().contains(&b'\t'),
            parents: Vec::with_capacity(32),
            children: Vec::with_capacity(64.max(token_estimate / 8)),
            fixed,
        }
    }

    /// Adds the token of `kind` at `start..end` in the text to the
    /// current node.
    #[inline]
    pub(crate) fn token(&mut self, kind: SyntaxKind, start: u32, end: u32) {
        if !B {
            return;
        }
        let token = self.make_token(kind, start as usize, end as usize);
        self.children.push(NodeOrToken::Token(token));
    }

    /// The green token for `kind` at `start..end`; the text is sliced only
    /// when a new token has to be made.
    #[inline]
    fn make_token(&mut self, kind: SyntaxKind, start: usize, end: usize) -> GreenToken {
        let text = self.text;
        let len = end - start;
        if fixed_text(kind) && len <= 3 {
            let slot = &mut self.fixed.by_kind[kind as usize * 4 + len];
            return slot
                .get_or_insert_with(|| GreenToken::new(kind.into(), &text[start..end]))
                .clone();
        }
        if kind == WHITESPACE
            && len <= MAX_SPACES
            && (self.no_tabs || text.as_bytes()[start..end].iter().all(|&b| b == b' '))
        {
            return self.fixed.spaces[len]
                .get_or_insert_with(|| GreenToken::new(kind.into(), &text[start..end]))
                .clone();
        }
        // Identifiers repeat (about three uses each in a file, more across
        // files); string literals, numbers and comments mostly do not, and
        // are not worth a lookup.
        if len <= MAX_INTERNED && kind == IDENT {
            let identifiers = &mut self.fixed.identifiers;
            if let Some(known) = identifiers.get(&text.as_bytes()[start..end]) {
                return known.0.clone();
            }
            if identifiers.len() >= MAX_IDENTIFIERS {
                identifiers.clear();
            }
            let token = GreenToken::new(kind.into(), &text[start..end]);
            identifiers.insert(Identifier(token.clone()));
            return token;
        }
        GreenToken::new(kind.into(), &text[start..end])
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
        let node = GreenNode::new(kind.into(), self.children.drain(first..));
        self.children.push(NodeOrToken::Node(node));
    }

    /// The root, once every node is finished (`None` when not building).
    pub(crate) fn finish(mut self) -> Option<GreenNode> {
        if !B {
            return None;
        }
        debug_assert!(self.parents.is_empty());
        debug_assert_eq!(self.children.len(), 1);
        let fixed = std::mem::replace(&mut self.fixed, FixedTokens::empty());
        FIXED.with(|cell| *cell.borrow_mut() = Some(fixed));
        match self.children.pop() {
            Some(NodeOrToken::Node(node)) => Some(node),
            _ => unreachable!("the root is always a node"),
        }
    }
}
