//! Inserting attributes and blocks into a body and removing them: where
//! the new item's lines go, how they are indented, and the range that
//! takes an item out without leaving a doubled blank line.

use rowan::NodeOrToken;
use text_size::TextRange;

use crate::ast::{self, AstNode, BodyItem};
use crate::document::comments::ends_line;
use crate::document::error::EditError;
use crate::document::item::Item;
use crate::document::primitives::lines::{
    core_start, line_indent, line_start, reindent, token_right, unit_for_block,
};
use crate::document::primitives::placement::Placement;
use crate::document::primitives::replacement::Replacement;
use crate::document::resolve::Container;
use crate::syntax_kind::{SyntaxElement, SyntaxKind::*, SyntaxNode};

/// How the whole file's top level is laid out, for a part of it that
/// gets a new top-level item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TopLayout {
    /// The indentation of the first top-level item's line.
    pub indent: String,
    /// The indentation unit of the first block with content.
    pub unit: String,
}

/// A body to insert into: the file's top-level body or a block's.
pub(crate) struct Target {
    /// The block, or `None` for the top level.
    pub block: Option<ast::Block>,
    /// The body, when it exists.
    pub body: Option<ast::Body>,
}

impl Target {
    /// The body `container` designates. `top` gives the top-level body
    /// when the document knows its whole top level (a part of a file
    /// does not, unless it was told its layout): `None` then.
    pub fn of(container: &Container, top: impl FnOnce() -> Option<ast::Body>) -> Option<Target> {
        match container {
            Container::Root => top().map(|body| Target {
                block: None,
                body: Some(body),
            }),
            Container::Body(b) => Some(Target {
                block: Some(b.clone()),
                body: b.body(),
            }),
            _ => None,
        }
    }

    fn items(&self) -> Vec<BodyItem> {
        self.body.iter().flat_map(|b| b.items()).collect()
    }
}

/// Inserts the item `text` (a snippet laid out at indentation zero, one
/// or more lines, without the final newline) into a body.
pub(crate) fn insert_into_body(
    root: &SyntaxNode,
    top_layout: Option<&TopLayout>,
    target: &Target,
    text: &str,
    is_block: bool,
    placement: &Placement,
) -> Result<Replacement, EditError> {
    let items = target.items();
    let top_layout = top_layout.filter(|_| target.block.is_none());
    let unit = match &target.block {
        Some(b) => unit_for_block(root, b),
        None if let Some(top) = top_layout => top.unit.clone(),
        None => items
            .iter()
            .filter_map(|i| match i {
                BodyItem::Block(b) => b.body().and_then(|body| body.items().next()).map(|_| b),
                _ => None,
            })
            .next()
            .map_or_else(|| "  ".to_string(), |b| unit_for_block(root, b)),
    };
    let indent = match (items.first(), &target.block) {
        (_, None) if let Some(top) = top_layout => top.indent.clone(),
        (Some(item), _) => line_indent(root, core_start(item.syntax())),
        (None, Some(block)) => line_indent(root, core_start(block.syntax())) + &unit,
        (None, None) => String::new(),
    };
    // Where: an item to insert before or after.
    let named = |k: usize, name: &str| items[k].name().as_deref() == Some(name);
    let anchor = match placement {
        Placement::Default if !is_block => {
            match items
                .iter()
                .rposition(|i| matches!(i, BodyItem::Attribute(_)))
            {
                Some(last_attr) => Some((last_attr, true)),
                None => Placement::First.anchor(items.len(), named)?,
            }
        }
        other => other.anchor_with_blocks(items.len(), named, |k, type_name, labels| {
            matches!(&items[k], BodyItem::Block(b)
                if b.type_name().as_deref() == Some(type_name)
                    && b.labels().map(|l| l.value()).eq(labels.iter().cloned()))
        })?,
    };
    if let Some(block) = target.block.as_ref().filter(|b| b.is_single_line())
        && let Some(item) = items.first()
    {
        let first_new = anchor == Some((0, false));
        return expand_single_line(root, block, item, text, &unit, is_block, first_new);
    }
    let laid = format!("{indent}{}", reindent(text, &indent, &unit));
    match anchor {
        Some((k, after)) => Ok(insert_next_to(&items[k], after, &laid, is_block)),
        None => insert_into_empty(root, target, &laid),
    }
}

/// Inserts into a one-line block (`a { b = 1 }`): the block is rewritten
/// over several lines, the new item first when `first_new`.
fn expand_single_line(
    root: &SyntaxNode,
    block: &ast::Block,
    item: &BodyItem,
    text: &str,
    unit: &str,
    is_block: bool,
    first_new: bool,
) -> Result<Replacement, EditError> {
    let (Some(open), Some(close)) = (block.open_brace(), block.close_brace()) else {
        return Err(EditError::unsupported("the block has no braces"));
    };
    let outer = line_indent(root, core_start(block.syntax()));
    let indent = format!("{outer}{unit}");
    let existing = Item::from_body_item(item).text();
    let new = format!("{indent}{}", reindent(text, &indent, unit));
    let old = format!("{indent}{existing}");
    let sep = if is_block { "\n\n" } else { "\n" };
    let body = if first_new {
        format!("{new}{sep}{old}")
    } else {
        format!("{old}{sep}{new}")
    };
    let inner = TextRange::new(open.text_range().end(), close.text_range().start());
    Ok(Replacement::new(inner, format!("\n{body}\n{outer}")))
}

/// True when the element is a blank line of a body.
fn is_blank_line(e: &SyntaxElement) -> bool {
    e.kind() == NEWLINE && e.prev_sibling_or_token().is_none_or(|p| ends_line(&p))
}

/// Inserts a laid-out item before or after a sibling item. A block is
/// separated from its neighbours by a blank line; an attribute is
/// separated from a block it is placed before or after.
fn insert_next_to(item: &BodyItem, after: bool, laid: &str, is_block: bool) -> Replacement {
    let node = item.syntax();
    let sibling_is_block = matches!(item, BodyItem::Block(_));
    let blank = is_block || sibling_is_block;
    if after {
        let has_newline = node.last_token().is_some_and(|t| t.kind() == NEWLINE);
        let end = if has_newline {
            node.text_range().end()
        } else {
            // Before the spaces that end the text, so that no line ends
            // with spaces.
            std::iter::successors(node.last_token(), |t| t.prev_token())
                .find(|t| t.kind() != WHITESPACE)
                .map_or(node.text_range().end(), |t| t.text_range().end())
        };
        let next = node.next_sibling_or_token();
        // A blank line after the new item when something follows it that
        // a blank line must separate from it.
        let blank_after = |following: Option<&SyntaxElement>| {
            blank
                && following.is_some_and(|f| {
                    !is_blank_line(f) && (is_block || f.kind() == BLOCK || f.kind() == COMMENT)
                })
        };
        if blank && let Some(blank_line) = next.as_ref().filter(|n| is_blank_line(n)) {
            // After the blank line that follows the sibling.
            let mut text = format!("{laid}\n");
            if blank_after(blank_line.next_sibling_or_token().as_ref()) {
                text.push('\n');
            }
            return Replacement::new(TextRange::empty(blank_line.text_range().end()), text);
        }
        let mut text = String::new();
        if !has_newline {
            text.push('\n');
        }
        if blank {
            text.push('\n');
        }
        text.push_str(laid);
        text.push('\n');
        if blank_after(next.as_ref()) {
            text.push('\n');
        }
        Replacement::new(TextRange::empty(end), text)
    } else {
        let start = node.text_range().start();
        let prev = node.prev_sibling_or_token();
        let blank_before = prev.as_ref().is_some_and(is_blank_line);
        let mut text = String::new();
        if blank && prev.is_some() && !blank_before {
            text.push('\n');
        }
        text.push_str(laid);
        text.push('\n');
        if blank {
            text.push('\n');
        }
        Replacement::new(TextRange::empty(start), text)
    }
}

/// Inserts into a body without items: between the braces of a block
/// (making a one-line block multi-line), or into an empty file.
fn insert_into_empty(
    root: &SyntaxNode,
    target: &Target,
    laid: &str,
) -> Result<Replacement, EditError> {
    let Some(block) = &target.block else {
        // The top level: after everything (comments included).
        let end = root.text_range().end();
        let text = root.to_string();
        let mut new = String::new();
        if !text.is_empty() && !text.ends_with('\n') {
            new.push('\n');
        }
        new.push_str(laid);
        new.push('\n');
        return Ok(Replacement::new(TextRange::empty(end), new));
    };
    let (Some(open), Some(close)) = (block.open_brace(), block.close_brace()) else {
        return Err(EditError::unsupported("the block has no braces"));
    };
    let inner = TextRange::new(open.text_range().end(), close.text_range().start());
    let has_comments = block
        .syntax()
        .descendants_with_tokens()
        .filter(|e| inner.contains_range(e.text_range()))
        .any(|e| e.kind() == COMMENT);
    let close_indent = line_indent(root, core_start(block.syntax()));
    if !has_comments {
        return Ok(Replacement::new(inner, format!("\n{laid}\n{close_indent}")));
    }
    // Comments inside: insert before the line of `}` if it has its own
    // line, else rewrite the end.
    let close_line = line_start(root, close.text_range().start());
    let own_line = token_right(root, close_line).is_some_and(|t| {
        t.text_range().start() == close.text_range().start() || t.kind() == WHITESPACE
    });
    if own_line && close_line > open.text_range().end() {
        Ok(Replacement::new(
            TextRange::empty(close_line),
            format!("{laid}\n"),
        ))
    } else {
        Ok(Replacement::new(
            TextRange::empty(close.text_range().start()),
            format!("\n{laid}\n{close_indent}"),
        ))
    }
}

/// The range to delete to remove a body item (an attribute or block with
/// its comment lines), without leaving a doubled blank line.
pub(crate) fn body_item_removal(node: &SyntaxNode) -> TextRange {
    let block = node
        .parent()
        .and_then(|body| body.parent())
        .and_then(ast::Block::cast)
        .filter(|b| b.is_single_line());
    if let Some(block) = block
        && let (Some(open), Some(close)) = (block.open_brace(), block.close_brace())
    {
        return TextRange::new(open.text_range().end(), close.text_range().start());
    }
    let mut start = node.text_range().start();
    let mut end = node.text_range().end();
    let prev = node.prev_sibling_or_token();
    let next = node.next_sibling_or_token();
    let blank_before = prev.as_ref().is_some_and(is_blank_line);
    let at_start = prev.is_none();
    let blank_after = next.as_ref().is_some_and(is_blank_line);
    let no_item_after = std::iter::successors(next.clone(), |e| e.next_sibling_or_token())
        .all(|e| !matches!(e.kind(), ATTRIBUTE | BLOCK));
    if blank_after && (blank_before || at_start) {
        if let Some(NodeOrToken::Token(t)) = &next {
            end = t.text_range().end();
        }
    } else if blank_before
        && no_item_after
        && next.is_none()
        && let Some(NodeOrToken::Token(t)) = &prev
    {
        start = t.text_range().start();
    }
    // A last item without a newline: take the newline before it, unless
    // that newline closes a heredoc (its end marker needs it).
    let ends_with_newline = node.last_token().is_some_and(|t| t.kind() == NEWLINE);
    if !ends_with_newline
        && next.is_none()
        && start == node.text_range().start()
        && let Some(t) = prev.as_ref().and_then(|p| match p {
            NodeOrToken::Token(t) if t.kind() == NEWLINE => Some(t.clone()),
            NodeOrToken::Node(n) => n.last_token().filter(|t| t.kind() == NEWLINE),
            _ => None,
        })
        && t.prev_token()
            .is_none_or(|before| before.kind() != HEREDOC_END)
    {
        start = t.text_range().start();
    }
    TextRange::new(start, end)
}
