//! Inserting object items and tuple elements and removing them,
//! following the collection's own style (one line or one item per line,
//! commas, trailing comma, the spaces around `:`).

use rowan::NodeOrToken;
use text_size::{TextRange, TextSize};

use crate::ast::{self, AstNode};
use crate::document::comments;
use crate::document::error::EditError;
use crate::document::item::Item;
use crate::document::primitives::create::ObjectStyle;
use crate::document::primitives::heredoc;
use crate::document::primitives::lines::{
    core_start, line_end, line_indent, line_start, reindent, unit_near,
};
use crate::document::primitives::placement::Placement;
use crate::document::primitives::replacement::Replacement;
use crate::syntax_kind::{SyntaxElement, SyntaxKind::*, SyntaxNode, SyntaxToken};

/// The next sibling that is not a space.
fn next_non_space(e: &SyntaxElement) -> Option<SyntaxElement> {
    let mut n = e.next_sibling_or_token();
    while n.as_ref().is_some_and(|x| x.kind() == WHITESPACE) {
        n = n.and_then(|x| x.next_sibling_or_token());
    }
    n
}

/// The previous sibling that is not a space.
fn prev_non_space(e: &SyntaxElement) -> Option<SyntaxElement> {
    let mut n = e.prev_sibling_or_token();
    while n.as_ref().is_some_and(|x| x.kind() == WHITESPACE) {
        n = n.and_then(|x| x.prev_sibling_or_token());
    }
    n
}

/// True when the element starts its line.
fn starts_line(e: &SyntaxElement) -> bool {
    prev_non_space(e).is_some_and(|p| comments::ends_line(&p))
}

/// The first and last brackets of a collection.
fn brackets(node: &SyntaxNode) -> Option<(SyntaxToken, SyntaxToken)> {
    let first = node.first_token()?;
    let last = node.last_token()?;
    matches!(last.kind(), R_BRACE | R_BRACK).then_some((first, last))
}

/// Where the comment lines above an element or item begin (its line
/// start when it has none).
fn lines_start(root: &SyntaxNode, item: &Item) -> TextSize {
    let first = item
        .comment_tokens_above()
        .first()
        .map_or_else(|| core_start(item.syntax()), |c| c.text_range().start());
    line_start(root, first.min(item.syntax().text_range().start()))
}

/// How the items of an object are written: `:` when every item uses it,
/// quoted keys when every key is quoted (and there is one at least).
pub(crate) fn object_style(object: &ast::Object) -> ObjectStyle {
    let items: Vec<ast::ObjectItem> = object.items().collect();
    let colon = !items.is_empty()
        && items
            .iter()
            .all(|i| i.separator().is_some_and(|t| t.kind() == COLON));
    let quoted_keys = !items.is_empty()
        && items.iter().all(|i| {
            i.key()
                .and_then(|k| k.expr())
                .is_some_and(|e| matches!(e, ast::Expr::QuotedTemplate(_)))
        });
    ObjectStyle { colon, quoted_keys }
}

/// The change that adds the item `text` (`key = value` at indentation
/// zero) to an object, placed by `placement` (by key or position).
pub(crate) fn add_object_item(
    root: &SyntaxNode,
    object: &ast::Object,
    text: &str,
    placement: &Placement,
) -> Result<Vec<Replacement>, EditError> {
    let node = object.syntax();
    let (open, close) = brackets(node).ok_or_else(|| EditError::unsupported("unclosed object"))?;
    let items: Vec<ast::ObjectItem> = object.items().collect();
    let multiline = node.children_with_tokens().any(|e| e.kind() == NEWLINE)
        || items
            .iter()
            .any(|i| i.syntax().last_token().is_some_and(|t| t.kind() == NEWLINE));
    let outer = line_indent(root, open.text_range().start());
    let named = |k: usize, name: &str| {
        items[k].key().and_then(|key| key.literal_name()).as_deref() == Some(name)
    };
    let Some((k, after)) = placement.anchor(items.len(), named)? else {
        let unit = unit_near(root, node);
        let indent = format!("{outer}{unit}");
        let laid = format!("{indent}{}", reindent(text, &indent, &unit));
        let inner = TextRange::new(open.text_range().end(), close.text_range().start());
        let has_comments = node.children_with_tokens().any(|e| e.kind() == COMMENT);
        if has_comments {
            let close_line = line_start(root, close.text_range().start());
            return Ok(vec![Replacement::new(
                TextRange::empty(close_line),
                format!("{laid}\n"),
            )]);
        }
        return Ok(vec![Replacement::new(inner, format!("\n{laid}\n{outer}"))]);
    };
    let anchor = &items[k];
    let anchor_node = anchor.syntax();
    let own_line = starts_line(&NodeOrToken::Node(anchor_node.clone()))
        || anchor_node
            .first_token()
            .is_some_and(|t| t.kind() == WHITESPACE);
    if multiline && (after || own_line) {
        let indent = line_indent(root, core_start(anchor_node));
        let unit = unit_near(root, anchor_node);
        // A comma as the items around use them: the last one's for a new
        // last item (a trailing comma or not), the others' otherwise.
        let new_is_last = after && k + 1 == items.len();
        let comma = if new_is_last || items.len() == 1 {
            anchor.comma().is_some()
        } else {
            items[..items.len() - 1].iter().any(|i| i.comma().is_some())
        };
        // After a heredoc, a newline separates the items.
        let comma = if comma && !heredoc::ends_with_heredoc(text) {
            ","
        } else {
            ""
        };
        let laid = format!("{indent}{}{comma}", reindent(text, &indent, &unit));
        if !after {
            let at = lines_start(root, &Item::ObjectItem(anchor.clone()));
            return Ok(vec![Replacement::new(
                TextRange::empty(at),
                format!("{laid}\n"),
            )]);
        }
        let end = anchor_node.text_range().end();
        let owns_newline = anchor_node
            .last_token()
            .is_some_and(|t| t.kind() == NEWLINE);
        let text = if owns_newline {
            format!("{laid}\n")
        } else {
            format!("\n{laid}")
        };
        let mut reps = vec![Replacement::new(TextRange::empty(end), text)];
        // Commas between the items but none after the last: the old last
        // one gets its comma.
        let between = items.len() > 1 && items[..k].iter().all(|i| i.comma().is_some());
        if new_is_last
            && anchor.comma().is_none()
            && between
            && let Some(value) = anchor.value()
        {
            let at = value.syntax().text_range().end();
            reps.push(Replacement::new(TextRange::empty(at), ","));
        }
        return Ok(reps);
    }
    // On one line with the others: separated by commas (after a heredoc,
    // by a newline: what follows it starts the next line).
    let text = &reindent(text, &outer, &unit_near(root, node));
    let range = anchor_node.text_range();
    let (at, new) = match (after, anchor.comma().is_some()) {
        (true, true) => (range.end(), format!(" {text},")),
        (true, false) => (range.end(), format!(", {text}")),
        (false, _) => (range.start(), format!("{text}, ")),
    };
    // A heredoc ends its line: no comma after it, and what followed
    // starts the next line (a heredoc put last is followed by the old
    // text, which the layout moves).
    let heredoc_first = heredoc::ends_with_heredoc(text) && (anchor.comma().is_some() || !after);
    let rep = if heredoc_first {
        let lead = if after { " " } else { "" };
        let mut r = Replacement::new(TextRange::empty(at), format!("{lead}{text}\n"));
        r.reindent_lines = vec![r.text.matches('\n').count()];
        r
    } else {
        Replacement::new(TextRange::empty(at), new)
    };
    Ok(vec![rep])
}

/// The spaces around an item's `:`, when it has one: before it, and
/// after it (`None` when a newline or a comment follows it).
fn colon_spaces(item: &ast::ObjectItem) -> Option<(String, Option<String>)> {
    let sep = item.separator().filter(|t| t.kind() == COLON)?;
    let before = sep
        .prev_token()
        .filter(|t| t.kind() == WHITESPACE)
        .map_or_else(String::new, |t| t.text().to_string());
    let after = match sep.next_token() {
        Some(t) if t.kind() == WHITESPACE => {
            let next = t.next_token();
            next.filter(|n| !matches!(n.kind(), NEWLINE | COMMENT))
                .map(|_| t.text().to_string())
        }
        Some(t) if matches!(t.kind(), NEWLINE | COMMENT) => None,
        _ => Some(String::new()),
    };
    Some((before, after))
}

/// The changes that give new object items written with `:` (and the
/// items with `:` inside their values) the spacing around `:` of a
/// sibling: `"a": 1` next to `"b": 2`, not the canonical `"a" : 1`.
pub(crate) fn colon_spacing_of_siblings(new_items: &[Item]) -> Vec<Replacement> {
    let mut out = Vec::new();
    for item in new_items {
        let Item::ObjectItem(new) = item else {
            continue;
        };
        let Some(object) = new.syntax().parent().and_then(ast::Object::cast) else {
            continue;
        };
        let siblings: Vec<ast::ObjectItem> = object.items().collect();
        let Some(at) = siblings.iter().position(|i| i == new) else {
            continue;
        };
        let sibling = at
            .checked_sub(1)
            .map(|k| &siblings[k])
            .or_else(|| siblings.get(at + 1));
        let Some((before, after)) = sibling.and_then(colon_spaces) else {
            continue;
        };
        let all = new.syntax().descendants().filter_map(ast::ObjectItem::cast);
        for inner in all {
            let Some(sep) = inner.separator().filter(|t| t.kind() == COLON) else {
                continue;
            };
            let prev = sep.prev_token().filter(|t| t.kind() == WHITESPACE);
            let range = prev.map_or(TextRange::empty(sep.text_range().start()), |t| {
                t.text_range()
            });
            out.push(Replacement::new(range, before.clone()));
            if let Some(after) = &after {
                let next = sep.next_token().filter(|t| t.kind() == WHITESPACE);
                let range =
                    next.map_or(TextRange::empty(sep.text_range().end()), |t| t.text_range());
                out.push(Replacement::new(range, after.clone()));
            }
        }
    }
    out
}

/// The range to delete to remove an object item.
pub(crate) fn object_item_removal(item: &ast::ObjectItem) -> Vec<TextRange> {
    let node = item.syntax();
    let root = node.ancestors().last().unwrap_or_else(|| node.clone());
    let wrapped = Item::ObjectItem(item.clone());
    let element = NodeOrToken::Node(node.clone());
    let owns_newline = node.last_token().is_some_and(|t| t.kind() == NEWLINE);
    if owns_newline
        && (starts_line(&element) || node.first_token().is_some_and(|t| t.kind() == WHITESPACE))
    {
        return vec![TextRange::new(
            lines_start(&root, &wrapped),
            node.text_range().end(),
        )];
    }
    single_line_removal(node, item.comma().is_some())
}

/// Removal of an element or item of a one-line collection (or one that
/// shares its line with others): the element, its comma and the space
/// after it; for the last one, the comma before it.
fn single_line_removal(node: &SyntaxNode, has_comma_in_node: bool) -> Vec<TextRange> {
    let element = NodeOrToken::Node(node.clone());
    let range = node.text_range();
    let next = next_non_space(&element);
    let comma_after = has_comma_in_node || next.as_ref().is_some_and(|n| n.kind() == COMMA);
    if comma_after {
        let mut end = if has_comma_in_node {
            range.end()
        } else {
            next.as_ref().map_or(range.end(), |n| n.text_range().end())
        };
        // The spaces after the comma.
        let after_comma = if has_comma_in_node {
            element.next_sibling_or_token()
        } else {
            next.and_then(|n| n.next_sibling_or_token())
        };
        if let Some(ws) = after_comma.filter(|w| w.kind() == WHITESPACE) {
            end = ws.text_range().end();
        }
        return vec![TextRange::new(range.start(), end)];
    }
    let mut prev = prev_non_space(&element);
    while prev
        .as_ref()
        .is_some_and(|p| matches!(p.kind(), NEWLINE | COMMENT))
    {
        prev = prev.and_then(|p| prev_non_space(&p));
    }
    let prev_comma = match &prev {
        Some(NodeOrToken::Token(t)) if t.kind() == COMMA => Some(t.text_range()),
        Some(NodeOrToken::Node(n)) if n.kind() == OBJECT_ITEM => n
            .children_with_tokens()
            .filter(|e| e.kind() == COMMA)
            .last()
            .map(|e| e.text_range()),
        _ => None,
    };
    if let Some(comma) = prev_comma {
        if starts_line(&element) {
            // The closing bracket stays where the element was.
            return vec![comma, range];
        }
        return vec![TextRange::new(comma.start(), range.end())];
    }
    if starts_line(&element) {
        return vec![range];
    }
    // The only element: also the spaces inside the brackets.
    let start = element
        .prev_sibling_or_token()
        .filter(|w| w.kind() == WHITESPACE)
        .map_or(range.start(), |w| w.text_range().start());
    let end = element
        .next_sibling_or_token()
        .filter(|w| w.kind() == WHITESPACE)
        .map_or(range.end(), |w| w.text_range().end());
    vec![TextRange::new(start, end)]
}

/// The range to delete to remove the `index`-th element of a tuple.
pub(crate) fn element_removal(tuple: &ast::Tuple, index: usize) -> Vec<TextRange> {
    let expr = tuple.elements().nth(index).expect("resolved element");
    let node = expr.syntax().clone();
    let root = node.ancestors().last().unwrap_or_else(|| node.clone());
    let element = NodeOrToken::Node(node.clone());
    let item = Item::Element {
        tuple: tuple.clone(),
        index,
        expr,
    };
    if starts_line(&element) {
        // Its own line: up to the end of the line, if nothing else is on it.
        let mut e = next_non_space(&element);
        if e.as_ref().is_some_and(|x| x.kind() == COMMA) {
            e = e.and_then(|x| next_non_space(&x));
        }
        if e.as_ref().is_some_and(|x| x.kind() == COMMENT) {
            e = e.and_then(|x| next_non_space(&x));
        }
        if let Some(NodeOrToken::Token(newline)) = e.filter(|x| x.kind() == NEWLINE) {
            let line = TextRange::new(lines_start(&root, &item), newline.text_range().end());
            // The last element without a trailing comma: the new last one
            // loses its comma too.
            let has_comma = next_non_space(&element).is_some_and(|x| x.kind() == COMMA);
            let is_last = index + 1 == tuple.elements().count();
            if is_last && !has_comma && index > 0 {
                let prev = tuple.elements().nth(index - 1).expect("previous element");
                let prev = NodeOrToken::Node(prev.syntax().clone());
                if let Some(comma) = next_non_space(&prev).filter(|x| x.kind() == COMMA) {
                    return vec![comma.text_range(), line];
                }
            }
            return vec![line];
        }
    }
    single_line_removal(&node, false)
}

/// The changes that insert `source` as the `index`-th element of a
/// tuple (`index` may be the length, to append).
pub(crate) fn insert_element(
    root: &SyntaxNode,
    tuple: &ast::Tuple,
    index: usize,
    source: &str,
) -> Result<Vec<Replacement>, EditError> {
    let node = tuple.syntax();
    let (open, close) = brackets(node).ok_or_else(|| EditError::unsupported("unclosed tuple"))?;
    let elements: Vec<ast::Expr> = tuple.elements().collect();
    if index > elements.len() {
        return Err(EditError::NotFound {
            address: format!("[{index}]"),
            matched: String::new(),
        });
    }
    let first_on_own_line = elements
        .first()
        .is_some_and(|e| starts_line(&NodeOrToken::Node(e.syntax().clone())));
    let empty_multiline =
        elements.is_empty() && node.children_with_tokens().any(|e| e.kind() == NEWLINE);
    if first_on_own_line || empty_multiline {
        let (indent, unit) = match elements.first() {
            Some(e) => (
                line_indent(root, e.syntax().text_range().start()),
                unit_near(root, e.syntax()),
            ),
            None => {
                let unit = unit_near(root, node);
                (line_indent(root, open.text_range().start()) + &unit, unit)
            }
        };
        let laid = format!("{indent}{}", reindent(source, &indent, &unit));
        if index < elements.len() {
            let item = Item::Element {
                tuple: tuple.clone(),
                index,
                expr: elements[index].clone(),
            };
            let at = lines_start(root, &item);
            return Ok(vec![Replacement::new(
                TextRange::empty(at),
                format!("{}\n", heredoc::then(&laid, ",")),
            )]);
        }
        let Some(last) = elements.last() else {
            let at = line_start(root, close.text_range().start());
            return Ok(vec![Replacement::new(
                TextRange::empty(at),
                format!("{}\n", heredoc::then(&laid, ",")),
            )]);
        };
        let last_el = NodeOrToken::Node(last.syntax().clone());
        let trailing = next_non_space(&last_el).is_some_and(|n| n.kind() == COMMA);
        let at = line_end(root, last.syntax().text_range().end());
        if at > close.text_range().start() {
            // `]` on the last element's line.
            return Ok(vec![Replacement::new(
                TextRange::empty(last.syntax().text_range().end()),
                format!(",\n{laid}"),
            )]);
        }
        if trailing {
            return Ok(vec![Replacement::new(
                TextRange::empty(at),
                format!("{}\n", heredoc::then(&laid, ",")),
            )]);
        }
        return Ok(vec![
            Replacement::new(TextRange::empty(last.syntax().text_range().end()), ","),
            Replacement::new(TextRange::empty(at), format!("{laid}\n")),
        ]);
    }
    let indent = line_indent(root, open.text_range().start());
    let source = &reindent(source, &indent, &unit_near(root, node));
    if elements.is_empty() {
        let inner = TextRange::new(open.text_range().end(), close.text_range().start());
        Ok(vec![Replacement::new(inner, source)])
    } else if index < elements.len() {
        let at = elements[index].syntax().text_range().start();
        Ok(vec![Replacement::new(
            TextRange::empty(at),
            heredoc::then(source, ", "),
        )])
    } else {
        let last = NodeOrToken::Node(elements[elements.len() - 1].syntax().clone());
        match next_non_space(&last).filter(|n| n.kind() == COMMA) {
            Some(comma) => Ok(vec![Replacement::new(
                TextRange::empty(comma.text_range().end()),
                heredoc::then(&format!(" {source}"), ","),
            )]),
            None => Ok(vec![Replacement::new(
                TextRange::empty(last.text_range().end()),
                format!(", {source}"),
            )]),
        }
    }
}
