//! Edits inside values: object items and tuple elements, following the
//! collection's own style (one line or one item per line, commas,
//! trailing comma).

use rowan::NodeOrToken;
use text_size::{TextRange, TextSize};

use super::address::{Address, IntoAddress};
use super::comments;
use super::edit_block::core_start;
use super::edit_item::unit_near;
use super::error::EditError;
use super::layout::{line_end, line_indent, line_start, reindent};
use super::resolve::{Container, container_of};
use super::{Document, Item, Replacement, Value};
use crate::ast::{self, AstNode};
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
    let first = comments::above(item)
        .first()
        .map_or_else(|| core_start(item.syntax()), |c| c.text_range().start());
    line_start(root, first.min(item.syntax().text_range().start()))
}

/// The change that adds the item `text` (`key = value` at indentation
/// zero) to an object.
pub(crate) fn add_object_item(
    root: &SyntaxNode,
    object: &ast::Object,
    text: &str,
) -> Result<Vec<Replacement>, EditError> {
    let node = object.syntax();
    let (open, close) = brackets(node).ok_or_else(|| EditError::unsupported("unclosed object"))?;
    let items: Vec<ast::ObjectItem> = object.items().collect();
    let multiline = node.children_with_tokens().any(|e| e.kind() == NEWLINE)
        || items
            .iter()
            .any(|i| i.syntax().last_token().is_some_and(|t| t.kind() == NEWLINE));
    let outer = line_indent(root, open.text_range().start());
    match items.last() {
        Some(last) if multiline => {
            let indent = line_indent(root, core_start(last.syntax()));
            let unit = unit_near(root, last.syntax());
            let comma = if last.comma().is_some() { "," } else { "" };
            let laid = format!("{indent}{}{comma}", reindent(text, &indent, &unit));
            let end = last.syntax().text_range().end();
            if last
                .syntax()
                .last_token()
                .is_some_and(|t| t.kind() == NEWLINE)
            {
                Ok(vec![Replacement::new(
                    TextRange::empty(end),
                    format!("{laid}\n"),
                )])
            } else {
                Ok(vec![Replacement::new(
                    TextRange::empty(end),
                    format!("\n{laid}"),
                )])
            }
        }
        Some(last) => {
            let end = last.syntax().text_range().end();
            let text = &reindent(text, &outer, &unit_near(root, node));
            let text = if last.comma().is_some() {
                format!(" {text},")
            } else {
                format!(", {text}")
            };
            Ok(vec![Replacement::new(TextRange::empty(end), text)])
        }
        None => {
            let unit = unit_near(root, node);
            let indent = format!("{outer}{unit}");
            let laid = format!("{indent}{}", reindent(text, &indent, &unit));
            let inner = TextRange::new(open.text_range().end(), close.text_range().start());
            let has_comments = node.children_with_tokens().any(|e| e.kind() == COMMENT);
            if has_comments {
                let close_line = line_start(root, close.text_range().start());
                Ok(vec![Replacement::new(
                    TextRange::empty(close_line),
                    format!("{laid}\n"),
                )])
            } else {
                Ok(vec![Replacement::new(inner, format!("\n{laid}\n{outer}"))])
            }
        }
    }
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
                format!("{laid},\n"),
            )]);
        }
        let Some(last) = elements.last() else {
            let at = line_start(root, close.text_range().start());
            return Ok(vec![Replacement::new(
                TextRange::empty(at),
                format!("{laid},\n"),
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
                format!("{laid},\n"),
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
            format!("{source}, "),
        )])
    } else {
        let last = NodeOrToken::Node(elements[elements.len() - 1].syntax().clone());
        match next_non_space(&last).filter(|n| n.kind() == COMMA) {
            Some(comma) => Ok(vec![Replacement::new(
                TextRange::empty(comma.text_range().end()),
                format!(" {source},"),
            )]),
            None => Ok(vec![Replacement::new(
                TextRange::empty(last.text_range().end()),
                format!(", {source}"),
            )]),
        }
    }
}

impl Document {
    /// Inserts `value` as the `index`-th element of the tuple at
    /// `address` (an attribute, object item or element whose value is a
    /// tuple), following the tuple's style: one line, or one element per
    /// line with or without a trailing comma.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("azs = [\n  \"a\",\n  \"c\",\n]\n").unwrap();
    /// doc.insert_element("azs", 1, "b").unwrap();
    /// doc.push_element("azs", "d").unwrap();
    /// assert_eq!(doc.to_string(), "azs = [\n  \"a\",\n  \"b\",\n  \"c\",\n  \"d\",\n]\n");
    /// ```
    pub fn insert_element(
        &mut self,
        address: impl IntoAddress,
        index: usize,
        value: impl Into<Value>,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.insert_elements(address.into_address()?, Some(index), value.into())
    }

    /// Appends `value` to the tuple at `address`.
    pub fn push_element(
        &mut self,
        address: impl IntoAddress,
        value: impl Into<Value>,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.insert_elements(address.into_address()?, None, value.into())
    }

    fn insert_elements(
        &mut self,
        address: Address,
        index: Option<usize>,
        value: Value,
    ) -> Result<(), EditError> {
        self.scoped(&address, |doc| {
            let result = doc.insert_source(&address, index, &value.to_source());
            match (result, &value) {
                // A heredoc must end its line: written quoted where a comma
                // or a bracket follows it.
                (Err(EditError::Broken { .. }), Value::Heredoc(s)) => {
                    let quoted = Value::String(s.clone()).to_source();
                    doc.insert_source(&address, index, &quoted)
                }
                (other, _) => other,
            }
        })
    }

    fn insert_source(
        &mut self,
        address: &Address,
        index: Option<usize>,
        source: &str,
    ) -> Result<(), EditError> {
        let root = self.syntax();
        let mut reps = Vec::new();
        for item in self.resolve(address)? {
            let Some(Container::Tuple(tuple)) = container_of(&item) else {
                return Err(EditError::unsupported(format!(
                    "`{address}` is not a tuple"
                )));
            };
            let at = index.unwrap_or_else(|| tuple.elements().count());
            reps.extend(insert_element(&root, &tuple, at, source)?);
        }
        self.edit(reps)
    }
}
