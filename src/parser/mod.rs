//! Tokens to a rowan green tree, plus every syntax error.
//!
//! The parser builds the green tree directly through its own builder
//! (`builder.rs`; checkpoints wrap postfix chains and binary operators), one
//! function per grammar production. It never gives up: whatever it cannot
//! place goes into an `ERROR` node, and recovery stops at newlines and
//! closing brackets. It is generic over `const B: bool`: with `B` false the
//! same code runs without building anything, for checking syntax alone.
//!
//! Trivia: whitespace and comments are always skipped by lookahead; newlines
//! are skipped inside `( )`, `[ ]`, `${ }` and `%{ }` and significant in
//! bodies and object constructors (as upstream). Skipped tokens are attached
//! to the innermost open node when the next significant token is consumed,
//! so a node spans from its first to its last significant token, except
//! body and object items, which also own their indentation, the comment
//! lines directly above them, a same-line comment and their newline.

mod body;
pub(crate) mod builder;
mod expr;
mod identifiers;
mod template;

use rowan::GreenNode;

use builder::{Checkpoint, TreeBuilder};
use text_size::{TextRange, TextSize};

use crate::lexer::{LexOptions, Lexed, StartMode, Token, tokenize_with};
use crate::line_index::LineIndex;
use crate::syntax_error::SyntaxError;
use crate::syntax_kind::SyntaxKind::{self, *};

/// How deeply constructs may nest before the parser reports an error
/// instead of recursing further: far beyond what `terraform` itself takes
/// (10 000 levels of parentheses, `"${` or blocks parse there; it crashes
/// by 100 000). The parser never overflows the stack whatever the limit:
/// its recursive productions grow the stack as they go (the `stacker`
/// crate), and deep trees are freed on a stack of their own.
pub const MAX_DEPTH: u32 = 100_000;

/// Stack kept free below a level of nesting before recursing further.
const RED_ZONE: usize = 1024 * 1024;
/// The size of each stack segment added when the thread's runs low.
const STACK_SEGMENT: usize = 8 * 1024 * 1024;

/// Runs one level of nesting at `depth`: every 8 levels, when this
/// thread's stack has less than [`RED_ZONE`] left, on a new segment of
/// stack (the `stacker` crate), so that deep nesting never overflows the
/// stack, even on a thread with a small one. Recursive walks over trees
/// could use it too.
#[inline]
pub(crate) fn with_stack<R>(depth: u32, f: impl FnOnce() -> R) -> R {
    if depth.is_multiple_of(8) {
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, f)
    } else {
        f()
    }
}

/// What to parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    File,
    Expr,
    Template,
}

/// Parses `text` as `entry`, returning the green root (when `build`) and
/// the errors. Without `build` the parser runs the same way but builds
/// nothing, which is more than twice as fast when only validity matters.
pub(crate) fn parse_text(
    text: &str,
    entry: Entry,
    build: bool,
) -> (Option<GreenNode>, Vec<SyntaxError>) {
    let start = if entry == Entry::Template {
        StartMode::Template
    } else {
        StartMode::Config
    };
    let lexed = tokenize_with(
        text,
        LexOptions {
            start,
            upstream_compat: false,
        },
    );
    let (green, errors, tokens) = parse_lexed(text, lexed, entry, build);
    crate::lexer::recycle(tokens);
    (green, errors)
}

/// A top-level attribute or block as the checking parse saw it: enough
/// to build its tree later from its text alone, and to index it by name
/// and labels without a tree (see `document::tree`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TopItem {
    /// `ATTRIBUTE` or `BLOCK` (`ERROR` for a broken line).
    pub kind: SyntaxKind,
    /// Where the item starts (its leading comment lines included) and
    /// ends (after its newline).
    pub start: u32,
    pub end: u32,
    /// The name's range.
    pub name_start: u32,
    pub name_end: u32,
    /// Where a block's labels end (its `{`); the name's end for an
    /// attribute.
    pub head_end: u32,
    /// An attribute's value: from its first token to the end of its last
    /// (both 0 for a block).
    pub value_start: u32,
    pub value_end: u32,
}

/// A configuration file checked without building its tree: the errors
/// and the top-level items.
pub(crate) struct TopLevel {
    pub errors: Vec<SyntaxError>,
    pub items: Vec<TopItem>,
}

/// Checks `text` as a configuration file like [`parse_text`] without a
/// tree, noting where each top-level item is.
pub(crate) fn parse_top_level(text: &str) -> TopLevel {
    let lexed = tokenize_with(
        text,
        LexOptions {
            start: StartMode::Config,
            upstream_compat: false,
        },
    );
    let (_, errors, tokens, items) =
        parse_tokens_with::<false>(text, lexed, Entry::File, Some(Vec::new()));
    crate::lexer::recycle(tokens);
    TopLevel {
        errors,
        items: items.unwrap_or_default(),
    }
}

/// [`parse_text`] of a configuration file from the tokens of
/// [`tokenize`](crate::lexer::tokenize), for callers that look at the
/// tokens before deciding whether they need a tree; also gives the tokens
/// back.
pub(crate) fn parse_lexed(
    text: &str,
    lexed: Lexed,
    entry: Entry,
    build: bool,
) -> (Option<GreenNode>, Vec<SyntaxError>, Vec<Token>) {
    if build {
        parse_tokens::<true>(text, lexed, entry)
    } else {
        parse_tokens::<false>(text, lexed, entry)
    }
}

/// [`parse_lexed`] with the choice to build a tree made at compile time,
/// so that checking alone pays nothing for the tree.
fn parse_tokens<const B: bool>(
    text: &str,
    lexed: Lexed,
    entry: Entry,
) -> (Option<GreenNode>, Vec<SyntaxError>, Vec<Token>) {
    let (green, errors, tokens, _) = parse_tokens_with::<B>(text, lexed, entry, None);
    (green, errors, tokens)
}

/// The tree and errors of [`parse_tokens`], the tokens, and the top-level
/// items when `top` is given (a list to fill).
#[allow(clippy::type_complexity)]
fn parse_tokens_with<const B: bool>(
    text: &str,
    lexed: Lexed,
    entry: Entry,
    top: Option<Vec<TopItem>>,
) -> (
    Option<GreenNode>,
    Vec<SyntaxError>,
    Vec<Token>,
    Option<Vec<TopItem>>,
) {
    let mut p = Parser {
        text,
        tokens: &lexed.tokens,
        pos: 0,
        offset: 0,
        builder: TreeBuilder::<B>::new(text, lexed.tokens.len()),
        errors: Vec::new(),
        nl_significant: true,
        depth: 0,
        next: 0,
        next_start: 0,
        last_sig_end: 0,
        lex_error_starts: lexed.errors.iter().map(|e| e.offset).collect(),
        last_error_start: None,
        lines: None,
        top,
        head_end: 0,
        value_range: (0, 0),
        seen: Vec::new(),
    };
    for e in &lexed.errors {
        p.errors.push(SyntaxError::new(
            TextRange::at(e.offset.into(), e.len.into()),
            e.message.clone(),
        ));
    }
    p.find_next();
    match entry {
        Entry::File => body::file(&mut p),
        Entry::Expr => expr::expr_root(&mut p),
        Entry::Template => template::template_root(&mut p),
    }
    debug_assert_eq!(p.pos, p.tokens.len(), "every token must be placed");
    let green = p.builder.finish();
    let mut errors = p.errors;
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    errors.dedup_by(|a, b| a.range == b.range && a.message == b.message);
    SyntaxError::fill_positions(&mut errors, text);
    let top = p.top;
    (green, errors, lexed.tokens, top)
}

/// The parser state; `B` is true when a tree is built.
pub(crate) struct Parser<'t, const B: bool> {
    text: &'t str,
    tokens: &'t [Token],
    /// Index of the next raw token to place in the tree.
    pos: usize,
    /// Start offset of the token at `pos` (the lexer gives lengths; the
    /// offsets of other tokens are counted from here when needed).
    offset: u32,
    builder: TreeBuilder<'t, B>,
    errors: Vec<SyntaxError>,
    /// Whether newlines are significant in the current context.
    nl_significant: bool,
    /// Current nesting depth, see [`MAX_DEPTH`].
    depth: u32,
    /// Raw index of the next significant token at or after `pos` (or
    /// `tokens.len()`), kept up to date as `pos` and `nl_significant`
    /// change.
    next: usize,
    /// Start offset of the token at `next` (the end of the text at the
    /// end), kept with it: the current token's text is the one most asked
    /// for.
    next_start: u32,
    /// End offset of the last significant (non-trivia, non-newline) token
    /// placed, to report a missing closer where it belongs.
    last_sig_end: u32,
    /// Start offsets of the lexer's errors (sorted), to avoid reporting a
    /// second error at a position that already has one.
    lex_error_starts: Vec<u32>,
    /// Start of the last parser error reported.
    last_error_start: Option<u32>,
    /// Line starts, made the first time a message names a position (so
    /// that many such messages take linear time, not quadratic).
    lines: Option<LineIndex<'t>>,
    /// The top-level items met, when they are being noted.
    top: Option<Vec<TopItem>>,
    /// Where the labels of the last top-level block ended (noted only
    /// with `top`).
    head_end: u32,
    /// Where the value of the last top-level attribute starts and ends
    /// (noted only with `top`).
    value_range: (u32, u32),
    /// The attribute names of the bodies being parsed, innermost last
    /// (see `body::SeenNames`).
    seen: Vec<body::Seen>,
}

impl<'t, const B: bool> Parser<'t, B> {
    // ----- looking -----

    #[inline]
    fn is_skipped(&self, kind: SyntaxKind) -> bool {
        kind == WHITESPACE || kind == COMMENT || (kind == NEWLINE && !self.nl_significant)
    }

    /// Raw index of the `n`-th significant token from `pos` (or
    /// `tokens.len()` at the end).
    #[inline]
    fn nth_index(&self, n: usize) -> usize {
        debug_assert_eq!(self.next, self.nth_index_from(self.pos, 0));
        debug_assert_eq!(
            self.next_start,
            self.offset
                + self.tokens[self.pos..self.next]
                    .iter()
                    .map(|t| t.len)
                    .sum::<u32>()
        );
        if n == 0 {
            self.next
        } else {
            self.nth_index_from(self.next + 1, n - 1)
        }
    }

    /// Raw index of the `n`-th significant token at or after raw index `i`.
    #[inline]
    fn nth_index_from(&self, mut i: usize, mut n: usize) -> usize {
        loop {
            while i < self.tokens.len() && self.is_skipped(self.tokens[i].kind) {
                i += 1;
            }
            if n == 0 || i >= self.tokens.len() {
                return i.min(self.tokens.len());
            }
            n -= 1;
            i += 1;
        }
    }

    /// Kind of the `n`-th significant token; `None` at the end.
    #[inline]
    fn nth(&self, n: usize) -> Option<SyntaxKind> {
        self.tokens.get(self.nth_index(n)).map(|t| t.kind)
    }

    /// Kind of the next significant token.
    #[inline]
    fn current(&self) -> Option<SyntaxKind> {
        self.nth(0)
    }

    #[inline]
    fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == Some(kind)
    }

    /// Start offset of the raw token at index `i` (or the end of the
    /// text for `tokens.len()`): kept for the next significant token,
    /// otherwise counted from the token at `pos` (lookahead and
    /// look-behind rarely go more than a few tokens away).
    #[inline]
    fn start_of(&self, i: usize) -> u32 {
        if i == self.next {
            self.next_start
        } else if i >= self.pos {
            let skipped: u32 = self.tokens[self.pos..i].iter().map(|t| t.len).sum();
            self.offset + skipped
        } else {
            let back: u32 = self.tokens[i..self.pos].iter().map(|t| t.len).sum();
            self.offset - back
        }
    }

    /// Text of the token at raw index `i`.
    #[inline]
    fn text_at(&self, i: usize) -> &'t str {
        let start = self.start_of(i);
        let end = start + self.tokens[i].len;
        &self.text[start as usize..end as usize]
    }

    /// Text of the `n`-th significant token ("" at the end).
    fn nth_text(&self, n: usize) -> &'t str {
        let i = self.nth_index(n);
        if i < self.tokens.len() {
            self.text_at(i)
        } else {
            ""
        }
    }

    /// Is the next significant token the identifier `word`?
    fn at_keyword(&self, word: &str) -> bool {
        self.at(IDENT) && self.nth_text(0) == word
    }

    /// Raw index of the first token at or after `i` that is not
    /// whitespace, a comment or a newline (`tokens.len()` at the end),
    /// whatever newlines mean where the parser is.
    fn content_from(&self, mut i: usize) -> usize {
        while matches!(self.raw(i), Some(WHITESPACE | COMMENT | NEWLINE)) {
            i += 1;
        }
        i
    }

    /// Raw kind at index `i`.
    #[inline]
    fn raw(&self, i: usize) -> Option<SyntaxKind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    fn at_end(&self) -> bool {
        self.current().is_none()
    }

    // ----- placing tokens -----

    /// Places the raw token at `pos` in the current node.
    #[inline]
    fn bump_raw(&mut self) {
        let i = self.pos;
        let Some(token) = self.tokens.get(i) else {
            debug_assert!(false, "bump past the end");
            return;
        };
        let kind = token.kind;
        let start = self.offset;
        let end = start + token.len;
        self.pos += 1;
        self.offset = end;
        if i == self.next {
            self.find_next();
        }
        if !matches!(kind, WHITESPACE | COMMENT | NEWLINE) {
            self.last_sig_end = end;
        }
        // Last, so that nothing above is live across its calls (a new
        // token's, a vector's growth): the common path then saves two
        // registers instead of six.
        self.builder.token(kind, start, end);
    }

    /// Places skipped trivia before the next significant token.
    #[inline]
    fn flush_trivia(&mut self) {
        let next = self.nth_index(0);
        if !B {
            // Trivia has nothing else to record.
            self.offset = self.next_start;
            self.pos = next;
            return;
        }
        while self.pos < next {
            self.bump_raw();
        }
    }

    /// Places the trivia and then the next significant token.
    #[inline]
    fn bump(&mut self) {
        self.flush_trivia();
        if self.pos < self.tokens.len() {
            self.bump_raw();
        }
    }

    /// Consumes `kind` if it is next.
    fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes `kind` or reports what was expected.
    fn expect(&mut self, kind: SyntaxKind, what: &str) -> bool {
        if self.eat(kind) {
            true
        } else {
            self.error_expected(what);
            false
        }
    }

    // ----- nodes -----

    /// Starts a node after the pending trivia.
    #[inline]
    fn start(&mut self, kind: SyntaxKind) {
        self.flush_trivia();
        self.builder.start_node(kind);
    }

    /// Starts a node at the raw position, before any pending trivia.
    #[inline]
    fn start_raw(&mut self, kind: SyntaxKind) {
        self.builder.start_node(kind);
    }

    #[inline]
    fn finish(&mut self) {
        self.builder.finish_node();
    }

    /// A checkpoint after the pending trivia, to wrap what follows later.
    #[inline]
    fn checkpoint(&mut self) -> Checkpoint {
        self.flush_trivia();
        self.builder.checkpoint()
    }

    #[inline]
    fn start_at(&mut self, cp: Checkpoint, kind: SyntaxKind) {
        self.builder.start_node_at(cp, kind);
    }

    // ----- errors -----

    /// Range of the next significant token (empty at the end of the text).
    fn current_range(&self) -> TextRange {
        let i = self.nth_index(0);
        let start = self.start_of(i);
        let end = start + self.tokens.get(i).map_or(0, |t| t.len);
        TextRange::new(start.into(), end.into())
    }

    /// Line and column of an offset, for a message that names another
    /// position ("opened at 3:5").
    fn line_col(&mut self, offset: TextSize) -> (u32, u32) {
        let text = self.text;
        self.lines
            .get_or_insert_with(|| LineIndex::new(text))
            .line_col(offset)
    }

    /// Reports an error, unless the position already has one (a second
    /// error there is a consequence of the first).
    fn error_at(&mut self, range: TextRange, message: impl Into<String>) {
        let at = u32::from(range.start());
        if self.last_error_start == Some(at) || self.lex_error_starts.binary_search(&at).is_ok() {
            return;
        }
        self.last_error_start = Some(at);
        self.errors.push(SyntaxError::new(range, message.into()));
    }

    /// Reports an error even where another one is.
    fn error_always(&mut self, range: TextRange, message: String) {
        self.errors.push(SyntaxError::new(range, message));
    }

    /// Reports "expected WHAT, found …" at the next significant token —
    /// or, when that token is on a later line or is the end of the text,
    /// right after the previous token, where the missing thing belongs.
    /// A second error at a position that already has one is a consequence
    /// of the first and is not reported.
    fn error_expected(&mut self, what: &str) {
        let found = self.describe_current();
        let mut range = self.current_range();
        let start = u32::from(range.start());
        let gap = &self.text[(self.last_sig_end.min(start)) as usize..start as usize];
        if self.at_end() || gap.contains('\n') {
            range = TextRange::empty(self.last_sig_end.min(start).into());
        }
        self.error_at(range, format!("expected {what}, found {found}"));
    }

    /// A human description of the next significant token.
    fn describe_current(&self) -> String {
        let i = self.nth_index(0);
        if i >= self.tokens.len() {
            return "end of file".to_string();
        }
        describe(self.tokens[i].kind, self.text_at(i))
    }

    /// Range of the raw token at `i`.
    fn token_range(&self, i: usize) -> TextRange {
        TextRange::at(self.start_of(i).into(), self.tokens[i].len.into())
    }

    /// Wraps tokens in an `ERROR` node, keeping brackets balanced, until
    /// `stop` accepts a token at bracket depth zero (returned, left in
    /// place), an unmatched closer (left for the enclosing construct) or the
    /// end of the text (both return `None`).
    fn recover_balanced(&mut self, stop: impl Fn(&Self, SyntaxKind) -> bool) -> Option<SyntaxKind> {
        let mut opened = false;
        let mut balance: i64 = 0;
        let mut stopped = None;
        while let Some(kind) = self.current() {
            if balance <= 0 && stop(self, kind) {
                stopped = Some(kind);
                break;
            }
            let v = bracket_balance(kind);
            if v < 0 && balance <= 0 {
                break;
            }
            balance += v;
            if !opened {
                self.start(ERROR);
                opened = true;
            }
            self.bump();
        }
        if opened {
            self.finish();
        }
        stopped
    }

    /// Wraps tokens up to the end of the line (or an unmatched closer) in
    /// an `ERROR` node, keeping brackets balanced. The newline itself is
    /// left in place. `stop_at` tokens at bracket depth zero also end it.
    fn recover_line(&mut self, stop_at: &[SyntaxKind]) {
        self.with_newlines(true, |p| {
            p.recover_balanced(|_, kind| kind == NEWLINE || stop_at.contains(&kind));
        });
    }

    /// One level deeper.
    #[inline]
    fn enter(&mut self) {
        self.depth += 1;
    }

    /// True if the nesting limit is reached; reports it and wraps the next
    /// balanced group of tokens in an `ERROR` node without recursing.
    fn too_deep(&mut self) -> bool {
        if self.depth < MAX_DEPTH {
            return false;
        }
        let range = self.current_range();
        self.error_at(
            range,
            format!("nesting is too deep: more than {MAX_DEPTH} levels"),
        );
        self.skip_group();
        true
    }

    /// Wraps the next token and, if it opens brackets, everything up to the
    /// matching closer (or the end) in an `ERROR` node, iteratively.
    fn skip_group(&mut self) {
        if self.at_end() {
            return;
        }
        self.start(ERROR);
        let mut balance: i64 = 0;
        while let Some(kind) = self.current() {
            let v = bracket_balance(kind);
            if v < 0 && balance <= 0 {
                break;
            }
            balance += v;
            self.bump_raw_all();
            if balance <= 0 {
                break;
            }
        }
        self.finish();
    }

    /// Like [`bump`](Self::bump) but places newlines too.
    fn bump_raw_all(&mut self) {
        self.flush_trivia();
        if self.pos < self.tokens.len() {
            self.bump_raw();
        }
    }

    /// Runs `f` with newline significance set to `significant`.
    fn with_newlines<R>(&mut self, significant: bool, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.nl_significant;
        self.set_newlines(significant);
        let r = f(self);
        self.set_newlines(saved);
        r
    }

    /// Makes newlines significant or not from here on.
    #[inline]
    fn set_newlines(&mut self, significant: bool) {
        if self.nl_significant != significant {
            self.nl_significant = significant;
            self.find_next();
        }
    }

    /// Finds the next significant token at or after `pos`, and its start
    /// ([`nth_index_from`](Self::nth_index_from) for the first one,
    /// summing the lengths on the way).
    #[inline]
    fn find_next(&mut self) {
        let mut i = self.pos;
        let mut start = self.offset;
        while i < self.tokens.len() && self.is_skipped(self.tokens[i].kind) {
            start += self.tokens[i].len;
            i += 1;
        }
        self.next = i;
        self.next_start = start;
    }

    /// Places all remaining tokens (at the end of an entry point).
    fn bump_rest_as_error(&mut self, message: &str) {
        self.flush_trivia();
        if self.pos >= self.tokens.len() {
            return;
        }
        let range = self.current_range();
        self.error_at(range, message.to_string());
        self.start(ERROR);
        while self.pos < self.tokens.len() {
            self.bump_raw();
        }
        self.finish();
    }

    fn offset(&self) -> TextSize {
        self.offset.into()
    }
}

/// Bracket balance used by recovery: openers of every kind count +1 and
/// closers -1, so skipping never stops inside a nested construct.
fn bracket_balance(kind: SyntaxKind) -> i64 {
    match kind {
        L_BRACE | L_BRACK | L_PAREN | INTERP_START | DIRECTIVE_START | OPEN_QUOTE
        | HEREDOC_START => 1,
        R_BRACE | R_BRACK | R_PAREN | TEMPLATE_SEQ_END | CLOSE_QUOTE | HEREDOC_END => -1,
        _ => 0,
    }
}

/// Describes a token for an error message: "`=`", "a newline", "identifier `x`".
pub(crate) fn describe(kind: SyntaxKind, text: &str) -> String {
    match kind {
        NEWLINE | QUOTED_NEWLINE => "a newline".to_string(),
        IDENT => format!("identifier `{text}`"),
        NUMBER => format!("number `{text}`"),
        COMMENT => "a comment".to_string(),
        OPEN_QUOTE => "a string".to_string(),
        CLOSE_QUOTE => "`\"`".to_string(),
        TEMPLATE_LITERAL => "template text".to_string(),
        HEREDOC_START => "a heredoc".to_string(),
        HEREDOC_END => "the end of a heredoc".to_string(),
        INTERP_START => format!("`{}`", text.trim_end()),
        DIRECTIVE_START => format!("`{}`", text.trim_end()),
        ERROR_TOKEN => format!(
            "invalid character {}",
            code(&text.escape_debug().to_string())
        ),
        BOM => "a byte order mark".to_string(),
        _ => code(text),
    }
}

/// `text` in backticks, or in double backticks with spaces when it holds
/// one (`` ` ``), so that a message stays readable.
fn code(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}
