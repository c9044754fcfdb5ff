//! The structural language: bodies, attributes, blocks, labels.

use std::hash::Hasher;

use rustc_hash::FxHasher;

use text_size::TextRange;

use super::{Parser, TopItem, expr, template};
use crate::syntax_kind::SyntaxKind::{self, *};

/// `ConfigFile = Body`, with an optional byte order mark first.
pub(super) fn file<const B: bool>(p: &mut Parser<'_, B>) {
    p.start_raw(CONFIG_FILE);
    if p.raw(p.pos) == Some(BOM) {
        p.bump_raw();
    }
    p.start_raw(BODY);
    body_items(p, false);
    while p.pos < p.tokens.len() {
        p.bump_raw();
    }
    p.finish();
    p.finish();
}

/// Parses body items until the end of the text or, inside a block, a `}`
/// (left in place for the block).
fn body_items<'t, const B: bool>(p: &mut Parser<'t, B>, in_block: bool) {
    let saved = p.nl_significant;
    p.set_newlines(true);
    let mut seen = SeenNames::new(&p.seen);
    loop {
        if !at_line_start(p) {
            place_same_line_trivia(p);
            if p.raw(p.pos) == Some(NEWLINE) {
                p.bump_raw();
                continue;
            }
        }
        skip_detached_lines(p);
        let first = p.content_from(p.pos);
        match p.raw(first) {
            None => {
                while p.pos < p.tokens.len() {
                    p.bump_raw();
                }
                break;
            }
            Some(R_BRACE) if in_block => break,
            Some(IDENT) => {
                if let Some((name, range)) = item(p, in_block)
                    && let Some(first_range) = seen.insert(&mut p.seen, p.text, name, range)
                {
                    let (line, col) = p.line_col(first_range.start());
                    p.error_always(
                        range,
                        format!(
                            "attribute `{name}` redefined: it was already set at {line}:{col}; each attribute may be set only once"
                        ),
                    );
                    p.error_always(
                        first_range,
                        format!("attribute `{name}` first set here, and set again later"),
                    );
                }
            }
            Some(kind) => {
                while p.pos < first {
                    p.bump_raw();
                }
                let message = if kind == OPEN_QUOTE {
                    "expected an attribute or block, found a string: attribute names must not be quoted".to_string()
                } else {
                    format!(
                        "expected an attribute or block, found {}",
                        p.describe_current()
                    )
                };
                let range = p.current_range();
                p.error_at(range, message);
                junk_line(p, in_block);
            }
        }
    }
    seen.end(&mut p.seen);
    p.set_newlines(saved);
}

/// The attribute names set so far in one body, to report redefinitions.
/// Most bodies set a handful: they are compared one by one (by hash
/// first) on a stack that nested bodies share (a body's names sit above
/// its parent's while it is parsed, and are popped when it ends), so a
/// body allocates nothing. A long body moves its names to a hash table
/// of their ranges in the text (a million names take about 19 MB,
/// against 52 MB for a map of string slices to ranges).
struct SeenNames {
    /// Where this body's names start on the shared stack.
    base: usize,
    many: hashbrown::HashTable<TextRange>,
}

/// A name on the stack of [`SeenNames`]: its hash and its range.
pub(super) type Seen = (u64, TextRange);

impl SeenNames {
    /// How many names are compared one by one before the hash table.
    const FEW: usize = 16;

    /// A body's names, above those of the bodies around it on `stack`.
    fn new(stack: &[Seen]) -> SeenNames {
        SeenNames {
            base: stack.len(),
            many: hashbrown::HashTable::new(),
        }
    }

    /// Records `name`, found at `range` of `text`, or returns where it
    /// was set first.
    fn insert(
        &mut self,
        stack: &mut Vec<Seen>,
        text: &str,
        name: &str,
        range: TextRange,
    ) -> Option<TextRange> {
        debug_assert_eq!(&text[range], name);
        let hash = hash_of(name);
        if self.many.is_empty() {
            let mine = &stack[self.base..];
            if let Some(&(_, first)) = mine.iter().find(|&&(h, r)| h == hash && &text[r] == name) {
                return Some(first);
            }
            if mine.len() < Self::FEW {
                stack.push((hash, range));
                return None;
            }
            for (h, r) in stack.drain(self.base..) {
                self.many.insert_unique(h, r, |r| hash_of(&text[*r]));
            }
        }
        match self
            .many
            .entry(hash, |r| &text[*r] == name, |r| hash_of(&text[*r]))
        {
            hashbrown::hash_table::Entry::Occupied(first) => Some(*first.get()),
            hashbrown::hash_table::Entry::Vacant(slot) => {
                slot.insert(range);
                None
            }
        }
    }

    /// Pops this body's names off the stack.
    fn end(self, stack: &mut Vec<Seen>) {
        stack.truncate(self.base);
    }
}

/// The hash of a name.
fn hash_of(name: &str) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(name.as_bytes());
    hasher.finish()
}

/// Wraps the rest of a line that starts with junk in an `ERROR` node
/// (always at least one token), then places the newline.
fn junk_line<const B: bool>(p: &mut Parser<'_, B>, in_block: bool) {
    p.start(ERROR);
    let mut balance = super::bracket_balance(p.current().unwrap_or(NEWLINE)).max(0);
    p.bump();
    while let Some(kind) = p.current() {
        let v = super::bracket_balance(kind);
        if balance <= 0 && (kind == NEWLINE || (in_block && kind == R_BRACE)) {
            break;
        }
        if v < 0 && balance <= 0 && in_block {
            break;
        }
        balance = (balance + v).max(0);
        p.bump();
    }
    p.finish();
    p.eat(NEWLINE);
}

fn at_line_start<const B: bool>(p: &Parser<'_, B>) -> bool {
    p.pos == 0 || matches!(p.raw(p.pos - 1), Some(NEWLINE | BOM | HEREDOC_START))
}

/// Places whitespace and comments up to (not including) a newline.
fn place_same_line_trivia<const B: bool>(p: &mut Parser<'_, B>) {
    while matches!(p.raw(p.pos), Some(WHITESPACE | COMMENT)) {
        p.bump_raw();
    }
}

/// At a line start, places blank lines and comment lines that are not
/// directly above an item (a blank line, the end of the body or the end of
/// the text follows them) as children of the current node. Stops before the
/// first line that starts an item, possibly preceded by its comment lines.
pub(super) fn skip_detached_lines<const B: bool>(p: &mut Parser<'_, B>) {
    loop {
        let mut i = p.pos;
        while p.raw(i) == Some(WHITESPACE) {
            i += 1;
        }
        match p.raw(i) {
            None => {
                while p.pos < i {
                    p.bump_raw();
                }
                return;
            }
            Some(NEWLINE) => {
                while p.pos <= i {
                    p.bump_raw();
                }
            }
            Some(COMMENT) => {
                // A run of comment-only lines.
                let mut j = p.pos;
                let mut run_end = p.pos;
                loop {
                    let mut k = j;
                    while p.raw(k) == Some(WHITESPACE) {
                        k += 1;
                    }
                    if p.raw(k) != Some(COMMENT) {
                        break;
                    }
                    while matches!(p.raw(k), Some(WHITESPACE | COMMENT)) {
                        k += 1;
                    }
                    match p.raw(k) {
                        Some(NEWLINE) => {
                            j = k + 1;
                            run_end = j;
                        }
                        None => {
                            run_end = k;
                            break;
                        }
                        // Comments followed by content on the same line:
                        // that line is the item's line.
                        Some(_) => break,
                    }
                }
                if run_end == p.pos {
                    return; // the comment leads an item on its own line
                }
                let mut k = run_end;
                while p.raw(k) == Some(WHITESPACE) {
                    k += 1;
                }
                let attached = match p.raw(k) {
                    Some(IDENT) => true,
                    Some(COMMENT) => true, // `/* x */ name = …`
                    _ => false,
                };
                if attached {
                    return;
                }
                while p.pos < run_end {
                    p.bump_raw();
                }
            }
            Some(_) => return,
        }
    }
}

/// Parses an attribute or block whose name is the next content token.
/// Returns the attribute's name and name range for the redefinition check.
fn item<'t, const B: bool>(p: &mut Parser<'t, B>, in_block: bool) -> Option<(&'t str, TextRange)> {
    let start = p.offset;
    let parsed = item_at(p, in_block);
    if !in_block && let Some(top) = &mut p.top {
        let name = parsed.name_range;
        let value = if parsed.kind == ATTRIBUTE {
            p.value_range
        } else {
            (0, 0)
        };
        top.push(TopItem {
            kind: parsed.kind,
            start,
            end: p.offset,
            name_start: name.start().into(),
            name_end: name.end().into(),
            head_end: if parsed.kind == BLOCK {
                p.head_end
            } else {
                name.end().into()
            },
            value_start: value.0,
            value_end: value.1,
        });
    }
    parsed.attribute
}

/// What [`item_at`] parsed.
struct ParsedItem<'t> {
    /// `ATTRIBUTE`, `BLOCK` or `ERROR`.
    kind: SyntaxKind,
    name_range: TextRange,
    /// An attribute's name and its range.
    attribute: Option<(&'t str, TextRange)>,
}

/// [`item`], parsed.
fn item_at<'t, const B: bool>(p: &mut Parser<'t, B>, in_block: bool) -> ParsedItem<'t> {
    let cp = p.builder.checkpoint();
    // Leading indentation and comment lines belong to the item.
    while matches!(p.raw(p.pos), Some(WHITESPACE | COMMENT | NEWLINE)) {
        p.bump_raw();
    }
    let name_index = p.pos;
    let name = p.text_at(name_index);
    let name_range = p.token_range(name_index);
    p.bump_raw();
    let (kind, attribute) = match p.current() {
        Some(EQ) => {
            p.start_at(cp, ATTRIBUTE);
            attribute_rest(p);
            line_end(p, in_block, "the attribute");
            p.finish();
            (ATTRIBUTE, Some((name, name_range)))
        }
        Some(IDENT | OPEN_QUOTE | L_BRACE) => {
            p.start_at(cp, BLOCK);
            block_rest(p, name, name_range);
            p.finish();
            (BLOCK, None)
        }
        _ => {
            p.start_at(cp, ERROR);
            p.error_expected(&format!("`=` or `{{` after `{name}`"));
            let stop: &[_] = if in_block { &[R_BRACE] } else { &[] };
            p.recover_line(stop);
            p.eat(NEWLINE);
            p.finish();
            (ERROR, None)
        }
    };
    ParsedItem {
        kind,
        name_range,
        attribute,
    }
}

/// `= expr`, after the name.
fn attribute_rest<const B: bool>(p: &mut Parser<'_, B>) {
    p.bump(); // `=`
    // A top-level attribute, when items are noted: where its value is,
    // for reading it without a tree.
    let noted = p.depth == 0 && p.top.is_some();
    let value_start = if noted {
        p.current_range().start().into()
    } else {
        0
    };
    if !expr::expr_opt(p) {
        p.error_expected("an expression after `=`");
    }
    if noted {
        p.value_range = (value_start, p.last_sig_end);
    }
}

/// After an attribute or a block's `}`: the same-line comment and the newline.
fn line_end<const B: bool>(p: &mut Parser<'_, B>, in_block: bool, what: &str) {
    match p.current() {
        Some(NEWLINE) => p.bump(),
        None => p.flush_trivia(),
        Some(R_BRACE) if in_block => {
            p.error_expected(&format!("a newline after {what}"));
        }
        Some(kind) => {
            if kind == COMMA {
                let range = p.current_range();
                p.error_at(
                    range,
                    format!(
                        "expected a newline after {what}, found `,`: attributes are separated by newlines, not commas"
                    ),
                );
            } else {
                p.error_expected(&format!("a newline after {what}"));
            }
            let stop: &[_] = if in_block { &[R_BRACE] } else { &[] };
            p.recover_line(stop);
            p.eat(NEWLINE);
        }
    }
}

/// Labels, `{`, body, `}` and newline, after the block type.
fn block_rest<const B: bool>(p: &mut Parser<'_, B>, name: &str, name_range: TextRange) {
    while matches!(p.current(), Some(IDENT | OPEN_QUOTE)) {
        label(p);
    }
    if !p.at(L_BRACE) {
        p.error_expected(&format!("`{{` to open the block `{name}`"));
        p.recover_line(&[]);
        p.eat(NEWLINE);
        return;
    }
    if p.depth == 0 && p.top.is_some() {
        // A top-level block: where its labels end, for the index.
        p.head_end = p.current_range().start().into();
    }
    p.bump();
    if p.depth >= super::MAX_DEPTH {
        let range = p.current_range();
        p.error_at(
            range,
            format!("nesting is too deep: more than {} levels", super::MAX_DEPTH),
        );
        p.start(ERROR);
        let mut balance = 1i64;
        while let Some(kind) = p.raw(p.pos) {
            balance += super::bracket_balance(kind);
            if balance <= 0 {
                break;
            }
            p.bump_raw();
        }
        p.finish();
        p.eat(R_BRACE);
        line_end(p, true, "the block");
        return;
    }
    p.enter();
    super::with_stack(p.depth, || block_body(p, name, name_range));
    p.depth -= 1;
    line_end(p, false, "the block");
}

/// What follows a block's `{`, up to and including its `}`.
fn block_body<const B: bool>(p: &mut Parser<'_, B>, name: &str, name_range: TextRange) {
    match p.current() {
        Some(NEWLINE) => {
            p.bump();
            p.start_raw(BODY);
            body_items(p, true);
            p.finish();
            if !p.eat(R_BRACE) {
                let (line, col) = p.line_col(name_range.start());
                p.error_expected(&format!(
                    "`}}` to close the block `{name}` opened at {line}:{col}"
                ));
            }
        }
        Some(R_BRACE) => p.bump(),
        Some(IDENT) => one_line_body(p),
        None => p.error_expected(&format!("a newline or `}}` after `{{` of `{name}`")),
        Some(_) => {
            p.error_expected(&format!(
                "a newline, an attribute or `}}` after `{{` of `{name}`"
            ));
            p.recover_line(&[R_BRACE]);
            if p.at(NEWLINE) {
                p.bump();
                p.start_raw(BODY);
                body_items(p, true);
                p.finish();
            }
            p.expect(R_BRACE, &format!("`}}` to close the block `{name}`"));
        }
    }
}

/// `{ name = expr }`: a single-line block holds at most one attribute.
fn one_line_body<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(BODY);
    let cp = p.checkpoint();
    let name = p.nth_text(0);
    p.bump(); // name
    if p.at(EQ) {
        p.start_at(cp, ATTRIBUTE);
        attribute_rest(p);
        p.finish();
    } else {
        p.start_at(cp, ERROR);
        if matches!(p.current(), Some(IDENT | OPEN_QUOTE | L_BRACE)) {
            let range = p.current_range();
            p.error_at(
                range,
                format!("a single-line block cannot contain a nested block (`{name}`)"),
            );
        } else {
            p.error_expected(&format!("`=` after `{name}`"));
        }
        p.recover_line(&[R_BRACE]);
        p.finish();
    }
    match p.current() {
        Some(R_BRACE) => {
            p.finish();
            p.bump();
        }
        Some(NEWLINE) => {
            p.error_expected("`}` right after the argument of a single-line block");
            // Recover by reading the rest as an ordinary block body.
            p.bump();
            body_items(p, true);
            p.finish();
            p.expect(R_BRACE, "`}` to close the block");
        }
        _ => {
            p.error_expected("`}`: a single-line block can contain only one argument");
            p.recover_line(&[R_BRACE]);
            p.finish();
            p.expect(R_BRACE, "`}` to close the block");
        }
    }
}

/// A block label: an identifier or a quoted string without template
/// sequences.
fn label<const B: bool>(p: &mut Parser<'_, B>) {
    p.start(BLOCK_LABEL);
    if p.at(IDENT) {
        p.bump();
    } else {
        template::quoted_label(p);
    }
    p.finish();
}
