//! Applying a text replacement to the immutable tree: the smallest unit
//! around the change is parsed again and spliced in, so every untouched
//! subtree is shared with the old tree.
//!
//! Units, from the smallest: a whitespace token (spaces only, no parse), a
//! tuple or object (parsed as an expression: inside brackets newlines are
//! insignificant, as in context), an attribute or block (parsed as a
//! one-item file), a run of lines of a body (parsed as a file and spliced
//! into the body), the whole file. A unit is accepted only when its new
//! text parses without errors into exactly one node of the same kind (or,
//! for a body, into whole lines); otherwise the next larger unit is tried.

use rowan::{GreenNode, GreenToken, NodeOrToken};
use text_size::TextRange;
#[cfg(test)]
use text_size::TextSize;

use crate::document::primitives::lines::{token_left, token_right};
use crate::syntax_error::SyntaxError;
#[cfg(test)]
use crate::syntax_kind::SyntaxKind;
use crate::syntax_kind::{SyntaxElement, SyntaxKind::*, SyntaxNode};

/// Replaces `range` of the tree's text by `text`; returns the new root.
/// Fails with the syntax errors of the whole new text when it does not
/// parse.
pub(crate) fn replace(
    root: &SyntaxNode,
    range: TextRange,
    text: &str,
) -> Result<GreenNode, Vec<SyntaxError>> {
    if let Some(green) = whitespace_only(root, range, text) {
        return Ok(green);
    }
    let mut node = match root.covering_element(range) {
        NodeOrToken::Node(n) => n,
        NodeOrToken::Token(t) => t.parent().unwrap_or_else(|| root.clone()),
    };
    loop {
        let done = match node.kind() {
            // Text put right after an item's last newline starts a new line:
            // the body takes it (and the item, perhaps huge, is not parsed).
            ATTRIBUTE | BLOCK
                if range.is_empty()
                    && range.start() == node.text_range().end()
                    && node.last_token().is_some_and(|t| t.kind() == NEWLINE) =>
            {
                None
            }
            ATTRIBUTE | BLOCK => reparse_item(&node, range, text),
            TUPLE | OBJECT => reparse_collection(&node, range, text),
            BODY => splice_body(&node, range, text),
            _ => None,
        };
        if let Some(green) = done {
            return Ok(green);
        }
        match node.parent() {
            Some(parent) => node = parent,
            None => return reparse_root(&node, range, text),
        }
    }
}

/// Changes of spaces inside top-level items of a file, taken from the
/// last to the first and gathered so that the file's body is rebuilt once
/// for all of them. Replacing a token rebuilds every node above it, the
/// body with all its children among them: once per change, realigning a
/// group of a hundred thousand lines would cost a hundred thousand times
/// the body.
#[derive(Default)]
pub(crate) struct ItemSpaces {
    /// The changed items: their positions in the body (decreasing) and
    /// their new trees.
    changed: Vec<(usize, GreenNode)>,
}

impl ItemSpaces {
    /// Takes the replacement of `range` by `text` when it changes spaces
    /// strictly inside one top-level item of the file `root`, before
    /// every change taken so far; false (and nothing taken) otherwise.
    /// `root` is the tree the changes taken so far are not in.
    pub fn take(&mut self, root: &SyntaxNode, range: TextRange, text: &str) -> bool {
        if !text.bytes().all(|b| b == b' ' || b == b'\t') || root.kind() != CONFIG_FILE {
            return false;
        }
        let Some(body) = root.first_child().filter(|b| b.kind() == BODY) else {
            return false;
        };
        let Some(NodeOrToken::Node(item)) = body.child_or_token_at_range(range) else {
            return false;
        };
        let at = item.text_range();
        if !matches!(item.kind(), ATTRIBUTE | BLOCK)
            || range.start() <= at.start()
            || range.end() >= at.end()
        {
            return false;
        }
        let index = item.index();
        let again = self.changed.last().is_some_and(|(i, _)| *i == index);
        if !again && self.changed.last().is_some_and(|(i, _)| *i < index) {
            return false;
        }
        let green = match self.changed.last() {
            Some((_, green)) if again => green.clone(),
            _ => item.green().to_owned(),
        };
        let alone = SyntaxNode::new_root(green);
        let local = range - at.start();
        let Some(new) = whitespace_only(&alone, local, text) else {
            return false;
        };
        if again {
            self.changed.pop();
        }
        self.changed.push((index, new));
        true
    }

    /// `root` with the changes taken put in (the body rebuilt once).
    pub fn put_in(&mut self, root: SyntaxNode) -> SyntaxNode {
        if self.changed.is_empty() {
            return root;
        }
        let Some(body) = root.first_child().filter(|b| b.kind() == BODY) else {
            unreachable!("changes are taken only in a file's body");
        };
        let mut changed = std::mem::take(&mut self.changed);
        let children: Vec<NodeOrToken<GreenNode, GreenToken>> = body
            .green()
            .children()
            .enumerate()
            .map(|(i, child)| match changed.last() {
                Some((at, _)) if *at == i => {
                    let (_, new) = changed.pop().expect("looked at");
                    NodeOrToken::Node(new)
                }
                _ => child.to_owned(),
            })
            .collect();
        SyntaxNode::new_root(body.replace_with(GreenNode::new(BODY.into(), children)))
    }
}

/// The text of `node` with `range` (in tree coordinates) replaced.
fn spliced(node: &SyntaxNode, range: TextRange, text: &str) -> String {
    let old = node.to_string();
    let start = usize::from(range.start() - node.text_range().start());
    let end = usize::from(range.end() - node.text_range().start());
    let mut out = String::with_capacity(old.len() + text.len());
    out.push_str(&old[..start]);
    out.push_str(text);
    out.push_str(&old[end..]);
    out
}

/// Spaces and tabs inside a line: the whitespace token is rewritten,
/// removed, or inserted where the parser would have put it.
pub(crate) fn whitespace_only(
    root: &SyntaxNode,
    range: TextRange,
    text: &str,
) -> Option<GreenNode> {
    if !text.bytes().all(|b| b == b' ' || b == b'\t') {
        return None;
    }
    let left = token_left(root, range.start());
    let right = token_right(root, range.start());
    // Spaces in template text are text, not whitespace tokens.
    if [&left, &right]
        .into_iter()
        .flatten()
        .any(|t| t.kind() == TEMPLATE_LITERAL)
    {
        return None;
    }
    // Inside a token, it is the only candidate.
    let left = left.filter(|l| Some(l) != right.as_ref());
    for t in [&left, &right].into_iter().flatten() {
        if t.kind() == WHITESPACE && t.text_range().contains_range(range) {
            let start = usize::from(range.start() - t.text_range().start());
            let end = usize::from(range.end() - t.text_range().start());
            let new = format!("{}{}{}", &t.text()[..start], text, &t.text()[end..]);
            let parent = t.parent()?;
            if new.is_empty() {
                return Some(parent.replace_with(parent.green().remove_child(t.index())));
            }
            return Some(t.replace_with(GreenToken::new(WHITESPACE.into(), &new)));
        }
    }
    // An insertion between two tokens of a line.
    let (left, right) = (left?, right?);
    if !range.is_empty() || text.is_empty() || matches!(left.kind(), NEWLINE | COMMENT | BOM) {
        return None;
    }
    if right.kind() == NEWLINE {
        return None;
    }
    let mut element: SyntaxElement = NodeOrToken::Token(right);
    while let Some(parent) = element.parent() {
        if parent.text_range().start() != range.start() {
            let green = parent.green().insert_child(
                element.index(),
                NodeOrToken::Token(GreenToken::new(WHITESPACE.into(), text)),
            );
            return Some(parent.replace_with(green));
        }
        element = NodeOrToken::Node(parent);
    }
    None
}

/// An attribute or block, parsed as a file of one item.
fn reparse_item(node: &SyntaxNode, range: TextRange, text: &str) -> Option<GreenNode> {
    let new_text = spliced(node, range, text);
    let parse = crate::parse(&new_text);
    if !parse.errors().is_empty() {
        return None;
    }
    let body = only_child(&parse.syntax())?.into_node()?;
    let item = only_child(&body)?.into_node()?;
    (item.kind() == node.kind()).then(|| node.replace_with(item.green().to_owned()))
}

/// A tuple or object, parsed as an expression.
fn reparse_collection(node: &SyntaxNode, range: TextRange, text: &str) -> Option<GreenNode> {
    let new_text = spliced(node, range, text);
    let parse = crate::parse_expr(&new_text);
    if !parse.errors().is_empty() {
        return None;
    }
    let expr = only_child(&parse.syntax())?.into_node()?;
    (expr.kind() == node.kind()).then(|| node.replace_with(expr.green().to_owned()))
}

/// The only child element of `node`, if it has exactly one.
fn only_child(node: &SyntaxNode) -> Option<SyntaxElement> {
    let mut children = node.children_with_tokens();
    let first = children.next()?;
    children.next().is_none().then_some(first)
}

/// True when the element's text ends a line.
fn ends_line(element: &SyntaxElement) -> bool {
    match element {
        NodeOrToken::Token(t) => t.kind() == NEWLINE,
        NodeOrToken::Node(n) => n.last_token().is_some_and(|t| t.kind() == NEWLINE),
    }
}

/// True when `children[k]` is part of a comment line (a comment, a
/// space, or the newline that ends a comment line).
fn in_comment_line(children: &[SyntaxElement], k: usize) -> bool {
    match children[k].kind() {
        COMMENT | WHITESPACE => true,
        NEWLINE => k > 0 && matches!(children[k - 1].kind(), COMMENT | WHITESPACE),
        _ => false,
    }
}

/// Whole lines of a multi-line body, with one neighbouring element on
/// each side (comment lines belong to the item right below them), parsed
/// as a file and spliced into the body.
fn splice_body(body: &SyntaxNode, range: TextRange, text: &str) -> Option<GreenNode> {
    let starts_line = match body.prev_sibling_or_token() {
        None => true,
        Some(e) => e.kind() == NEWLINE || e.kind() == BOM,
    };
    if !starts_line {
        return None;
    }
    let children: Vec<SyntaxElement> = body.children_with_tokens().collect();
    let mut i = children
        .iter()
        .position(|c| c.text_range().end() > range.start())
        .unwrap_or(children.len());
    let mut j = if range.is_empty() {
        i
    } else {
        children
            .iter()
            .rposition(|c| c.text_range().start() < range.end())
            .map_or(i, |k| k + 1)
    };
    // One neighbour on each side, unless it is a whole item line: items
    // end at a newline, so a complete attribute or block beside the change
    // parses the same without it (and may be very long).
    let whole_item = |e: &SyntaxElement| matches!(e.kind(), ATTRIBUTE | BLOCK) && ends_line(e);
    if i > 0 && !whole_item(&children[i - 1]) {
        i -= 1;
    }
    if j < children.len() && !whole_item(&children[j]) {
        j += 1;
    }
    // Comment lines belong to the item right below them: take the whole
    // run of comment lines on each side, and the element after it.
    while i > 0 && in_comment_line(&children, i - 1) {
        i -= 1;
    }
    if j > 0 && in_comment_line(&children, j - 1) {
        while j < children.len() && in_comment_line(&children, j) {
            j += 1;
        }
        j = (j + 1).min(children.len());
    }
    while i > 0 && !ends_line(&children[i - 1]) {
        i -= 1;
    }
    while j < children.len() && j > 0 && !ends_line(&children[j - 1]) {
        j += 1;
    }
    // The new lines must stand alone: when they end inside a line, or with
    // a comment line (which belongs to the item below it), the next item
    // is part of the change too.
    let new_text = loop {
        let span_start = children
            .get(i)
            .map_or(body.text_range().end(), |c| c.text_range().start());
        let span_end = if j > i {
            children[j - 1].text_range().end()
        } else {
            span_start
        };
        if range.start() < span_start || range.end() > span_end {
            return None;
        }
        let old: String = children[i..j].iter().map(|c| c.to_string()).collect();
        let start = usize::from(range.start() - span_start);
        let end = usize::from(range.end() - span_start);
        let new_text = format!("{}{}{}", &old[..start], text, &old[end..]);
        if j < children.len() && (!new_text.ends_with('\n') || ends_with_comment_line(&new_text)) {
            j += 1;
            while j < children.len() && !ends_line(&children[j - 1]) {
                j += 1;
            }
            continue;
        }
        break new_text;
    };
    let parse = crate::parse(&new_text);
    if !parse.errors().is_empty() {
        return None;
    }
    let new_body = only_child(&parse.syntax())?.into_node()?;
    if new_body.kind() != BODY {
        return None;
    }
    let replacement: Vec<_> = new_body
        .green()
        .children()
        .map(|c| match c {
            NodeOrToken::Node(n) => NodeOrToken::Node(n.to_owned()),
            NodeOrToken::Token(t) => NodeOrToken::Token(t.to_owned()),
        })
        .collect();
    Some(body.replace_with(body.green().splice_children(i..j, replacement)))
}

/// True when the last line of `text` holds only a comment.
fn ends_with_comment_line(text: &str) -> bool {
    let last = text
        .trim_end_matches(['\n', '\r'])
        .rsplit('\n')
        .next()
        .unwrap_or("");
    let t = last.trim();
    t.starts_with('#') || t.starts_with("//") || (t.starts_with("/*") && t.ends_with("*/"))
}

/// The whole file.
fn reparse_root(
    root: &SyntaxNode,
    range: TextRange,
    text: &str,
) -> Result<GreenNode, Vec<SyntaxError>> {
    let new_text = spliced(root, range, text);
    let parse = crate::parse(&new_text);
    if parse.errors().is_empty() {
        Ok(parse.green().clone())
    } else {
        Err(parse.errors().to_vec())
    }
}

/// Kind of the token at `offset`, for tests.
#[cfg(test)]
fn kind_at(root: &SyntaxNode, offset: u32) -> Option<SyntaxKind> {
    token_right(root, TextSize::from(offset)).map(|t| t.kind())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, from: u32, to: u32, new: &str) -> String {
        let root = crate::parse(text).syntax();
        let range = TextRange::new(TextSize::from(from), TextSize::from(to));
        let green = replace(&root, range, new).unwrap();
        let out = SyntaxNode::new_root(green.clone()).to_string();
        let expected = crate::parse(&out);
        assert_eq!(
            &green,
            expected.green(),
            "tree differs from a fresh parse of {out:?}"
        );
        out
    }

    #[test]
    fn whitespace_tokens() {
        assert_eq!(check("a  = 1\n", 1, 3, " "), "a = 1\n");
        assert_eq!(check("a = 1\n", 1, 2, ""), "a= 1\n");
        assert_eq!(check("a=1\n", 1, 1, " "), "a =1\n");
        assert_eq!(check("a =1\n", 3, 3, " "), "a = 1\n");
        assert_eq!(check("x = [1,2]\n", 7, 7, " "), "x = [1, 2]\n");
        assert_eq!(check("a = 1# c\n", 5, 5, " "), "a = 1 # c\n");
    }

    #[test]
    fn spaces_in_items_are_put_in_at_once() {
        let text = "a   = 1\nb {\n  c  = [1,2]\n  d = 2\n}\nlonger = 3 # x\n";
        let root = crate::parse(text).syntax();
        // From the last to the first: several in one item, one at the
        // edge of an item (not taken), one with a letter (not taken).
        let changes = [(45, 46, "   "), (22, 22, " "), (15, 17, " "), (1, 4, " ")];
        let mut spaces = ItemSpaces::default();
        let mut one_by_one = root.clone();
        for (from, to, new) in changes {
            let range = TextRange::new(TextSize::from(from), TextSize::from(to));
            assert!(spaces.take(&root, range, new), "{from}..{to}");
            one_by_one = SyntaxNode::new_root(replace(&one_by_one, range, new).unwrap());
        }
        let edge = TextRange::new(TextSize::from(35), TextSize::from(35));
        let mut fresh = ItemSpaces::default();
        assert!(!fresh.take(&root, edge, " "), "at the start of an item");
        let letter = TextRange::new(TextSize::from(45), TextSize::from(46));
        assert!(!fresh.take(&root, letter, "x"));
        // After a change taken, only changes before it.
        let later = TextRange::new(TextSize::from(45), TextSize::from(46));
        assert!(!spaces.take(&root, later, "  "));
        let at_once = spaces.put_in(root);
        assert_eq!(at_once.green(), one_by_one.green());
        let out = at_once.to_string();
        assert_eq!(
            out,
            "a = 1\nb {\n  c = [1, 2]\n  d = 2\n}\nlonger = 3   # x\n"
        );
        assert_eq!(*crate::parse(&out).green(), at_once.green().to_owned());
    }

    #[test]
    fn items_and_collections() {
        assert_eq!(
            check("a = 1\nb = 2\n", 4, 5, "[1, 2]"),
            "a = [1, 2]\nb = 2\n"
        );
        assert_eq!(
            check("x = { a = 1 }\n", 10, 11, "{ b = 2 }"),
            "x = { a = { b = 2 } }\n"
        );
        assert_eq!(check("b {\n  c = 1\n}\n", 0, 1, "bb"), "bb {\n  c = 1\n}\n");
    }

    #[test]
    fn body_lines() {
        assert_eq!(
            check("a = 1\nb = 2\n", 6, 6, "x = 0\n"),
            "a = 1\nx = 0\nb = 2\n"
        );
        assert_eq!(check("a = 1\nb = 2\n", 0, 6, ""), "b = 2\n");
        assert_eq!(check("a = 1", 5, 5, "\nb = 2\n"), "a = 1\nb = 2\n");
        // A comment line inserted above an item belongs to it.
        assert_eq!(
            check("a = 1\n\nb = 2\n", 7, 7, "x = 0\n# for b\n"),
            "a = 1\n\nx = 0\n# for b\nb = 2\n"
        );
        assert_eq!(kind_at(&crate::parse("a = 1\n").syntax(), 0), Some(IDENT));
        // Lines added after an item, or removed between a comment and the
        // next item, are parsed without the item beside them: the comment
        // goes to the item now below it.
        assert_eq!(
            check("a = [1, 2]\n", 11, 11, "b = 7\n"),
            "a = [1, 2]\nb = 7\n"
        );
        assert_eq!(check("# c\na = 1\nb = 2\n", 4, 10, ""), "# c\nb = 2\n");
        assert_eq!(
            check("a = 1\nb = 2\n", 6, 6, "# note\n"),
            "a = 1\n# note\nb = 2\n"
        );
        assert_eq!(
            check("a = 1\nb = 2\n", 6, 6, "x = 1 /* c */\n"),
            "a = 1\nx = 1 /* c */\nb = 2\n"
        );
        // Every comment line right above a new item becomes its own.
        assert_eq!(check("# 1\n# 2", 7, 7, "\nx {\n}\n"), "# 1\n# 2\nx {\n}\n");
        assert_eq!(
            check("a = 1\n# 1\n\n# 2\n# 3\n\nb = 2\n", 19, 20, ""),
            "a = 1\n# 1\n\n# 2\n# 3\nb = 2\n"
        );
    }

    #[test]
    fn invalid_text_is_refused() {
        let root = crate::parse("a = 1\n").syntax();
        let range = TextRange::new(TextSize::from(4), TextSize::from(5));
        assert!(replace(&root, range, "[1,").is_err());
    }
}
