//! Body-level edits: inserting attributes and blocks into a body,
//! removing them, block types and labels.

use rowan::NodeOrToken;
use text_size::TextRange;

use super::address::{Address, IntoAddress, Step};
use super::comments::ends_line;
use super::error::{EditError, article};
use super::primitives::create::{block_source, label_source};
use super::primitives::lines::{
    core_start, line_indent, line_start, reindent, token_right, unit_for_block,
};
use super::primitives::placement::Placement;
use super::primitives::replacement::Replacement;
use super::resolve::Container;
use super::{Document, Item};
use crate::ast::{self, AstNode, BodyItem};
use crate::syntax_kind::{SyntaxElement, SyntaxKind::*, SyntaxNode};

/// A body to insert into: the file's top-level body or a block's.
pub(crate) struct Target {
    /// The block, or `None` for the top level.
    pub block: Option<ast::Block>,
    /// The body, when it exists.
    pub body: Option<ast::Body>,
}

impl Target {
    pub fn of(doc: &Document, container: &Container) -> Option<Target> {
        match container {
            // A part of a file does not know the whole top level.
            // A part of a file does not know the whole top level, unless
            // it was told its layout.
            Container::Root if doc.cuts.is_some() && doc.top_layout.is_none() => None,
            Container::Root => Some(Target {
                block: None,
                body: Some(doc.body()),
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
    doc: &Document,
    target: &Target,
    text: &str,
    is_block: bool,
    placement: &Placement,
) -> Result<Replacement, EditError> {
    let root = doc.syntax();
    let items = target.items();
    let top_layout = doc.top_layout.as_ref().filter(|_| target.block.is_none());
    let unit = match &target.block {
        Some(b) => unit_for_block(&root, b),
        None if let Some(top) = top_layout => top.unit.clone(),
        None => items
            .iter()
            .filter_map(|i| match i {
                BodyItem::Block(b) => b.body().and_then(|body| body.items().next()).map(|_| b),
                _ => None,
            })
            .next()
            .map_or_else(|| "  ".to_string(), |b| unit_for_block(&root, b)),
    };
    let indent = match (items.first(), &target.block) {
        (_, None) if let Some(top) = top_layout => top.indent.clone(),
        (Some(item), _) => line_indent(&root, core_start(item.syntax())),
        (None, Some(block)) => line_indent(&root, core_start(block.syntax())) + &unit,
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
        return expand_single_line(&root, block, item, text, &unit, is_block, first_new);
    }
    let laid = format!("{indent}{}", reindent(text, &indent, &unit));
    match anchor {
        Some((k, after)) => Ok(insert_next_to(&items[k], after, &laid, is_block)),
        None => insert_into_empty(&root, target, &laid),
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
    let existing = super::Item::from_body_item(item).text();
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

impl Document {
    /// Appends a block at the end of the body at `parent` (the top level
    /// is [`Address::root`]; the empty string `""` still means it too),
    /// with `labels` and `body` (HCL source of attributes and blocks, may
    /// be empty). The block is laid out canonically and
    /// separated from its neighbours by a blank line.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("resource \"a\" \"b\" {\n  x = 1\n}\n").unwrap();
    /// doc.append_block("resource.a.b", "lifecycle", &[], "prevent_destroy=true").unwrap();
    /// doc.append_block(hclwright::document::Address::root(), "output", &["id"], "value = a.b.id\n").unwrap();
    /// assert_eq!(doc.to_string(), "resource \"a\" \"b\" {\n  x = 1\n\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n\noutput \"id\" {\n  value = a.b.id\n}\n");
    /// ```
    pub fn append_block(
        &mut self,
        parent: impl IntoAddress,
        type_name: &str,
        labels: &[&str],
        body: &str,
    ) -> Result<(), EditError> {
        self.insert_block(parent, type_name, labels, body, Placement::Last)
    }

    /// Inserts a block into the body at `parent` ([`Address::root`] for
    /// the top level), placed by `placement` (before or after a named
    /// sibling or a block named by its labels, first, or last).
    pub fn insert_block(
        &mut self,
        parent: impl IntoAddress,
        type_name: &str,
        labels: &[&str],
        body: &str,
        placement: Placement,
    ) -> Result<(), EditError> {
        let source = block_source(type_name, labels, body)?;
        let address = parent.into_parent_address()?;
        let parent = address.to_string();
        self.scoped(&address, |doc| {
            let containers = doc.body_containers(&address)?;
            let mut reps = Vec::new();
            for container in containers {
                let target = Target::of(doc, &container)
                    .ok_or_else(|| EditError::unsupported(format!("`{parent}` is not a block")))?;
                reps.push(insert_into_body(doc, &target, &source, true, &placement)?);
            }
            doc.edit(reps)
        })
    }

    /// The bodies at `parent`: the top level for the root, else every
    /// block the address designates.
    pub(crate) fn body_containers(&self, parent: &Address) -> Result<Vec<Container>, EditError> {
        if parent.is_root() {
            return Ok(vec![Container::Root]);
        }
        let items = self.resolve(parent)?;
        items
            .iter()
            .map(|item| match item {
                Item::Block(b) => Ok(Container::Body(b.clone())),
                other => Err(EditError::unsupported(format!(
                    "`{parent}` is {} {}, not a block",
                    article(other.kind_name()),
                    other.kind_name()
                ))),
            })
            .collect()
    }

    /// Sets the labels of the block at `address`. Labels that stay in
    /// place keep the comments between them.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("resource \"a\" /* keep */ \"b\" {\n}\n").unwrap();
    /// doc.set_labels("resource.a.b", &["a", "c"]).unwrap();
    /// assert_eq!(doc.to_string(), "resource \"a\" /* keep */ \"c\" {\n}\n");
    /// ```
    pub fn set_labels(
        &mut self,
        address: impl IntoAddress,
        labels: &[&str],
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.scoped(&address, |doc| {
            let mut reps = Vec::new();
            for item in doc.resolve(&address)? {
                let Item::Block(block) = item else {
                    return Err(EditError::unsupported(format!(
                        "`{address}` is {} {}, not a block",
                        article(item.kind_name()),
                        item.kind_name()
                    )));
                };
                reps.extend(label_replacements(&block, labels)?);
            }
            doc.edit(reps)
        })
    }
}

impl Document {
    /// Moves the block at `from` to the address `to`, as `hcledit block
    /// mv` does: the block keeps its type and its place, and takes the
    /// labels `to` gives. `to` must name the same parent and the same
    /// block type, with as many labels as the block has; moving onto an
    /// existing block is refused.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse(
    ///     "resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n}\n",
    /// )
    /// .unwrap();
    /// doc.move_block("resource.aws_instance.web", "resource.aws_instance.app").unwrap();
    /// assert_eq!(doc.to_string(), "resource \"aws_instance\" \"app\" {\n  ami = \"x\"\n}\n");
    /// // The type is not a label: another type is refused.
    /// assert!(doc.move_block("resource.aws_instance.app", "data.aws_instance.app").is_err());
    /// ```
    pub fn move_block(
        &mut self,
        from: impl IntoAddress,
        to: impl IntoAddress,
    ) -> Result<(), EditError> {
        let from: Address = from.into_address()?;
        let to: Address = to.into_address()?;
        self.scoped(&from, |doc| {
            let mut items = doc.resolve(&from)?;
            if items.len() > 1 {
                return Err(EditError::Ambiguous {
                    address: from.to_string(),
                    count: items.len(),
                });
            }
            let item = items.swap_remove(0);
            let Item::Block(block) = item else {
                return Err(EditError::unsupported(format!(
                    "`{from}` is {} {}, not a block: use `mv` to rename it",
                    article(item.kind_name()),
                    item.kind_name()
                )));
            };
            let labels = moved_labels(&block, &from, &to)?;
            let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
            let current: Vec<String> = block.labels().map(|l| l.value()).collect();
            if current == labels {
                return Ok(());
            }
            if let Some(parent) = block.syntax().parent().and_then(ast::Body::cast) {
                let type_name = block.type_name();
                let clash = parent.blocks().any(|other| {
                    other != block
                        && other.type_name() == type_name
                        && other.labels().map(|l| l.value()).eq(labels.iter().cloned())
                });
                if clash {
                    return Err(EditError::AlreadyExists {
                        name: to.to_string(),
                    });
                }
            }
            let reps = label_replacements(&block, &refs)?;
            doc.edit(reps)
        })
    }
}

/// The labels `to` gives the block found at `from`, after checking that
/// `to` names the same parent, the same type and as many labels.
fn moved_labels(
    block: &ast::Block,
    from: &Address,
    to: &Address,
) -> Result<Vec<String>, EditError> {
    let invalid = |reason: String| EditError::InvalidAddress {
        address: to.to_string(),
        reason,
    };
    let type_name = block.type_name().unwrap_or_default();
    let label_count = block.labels().count();
    let (from_steps, to_steps) = (from.steps(), to.steps());
    let own = 1 + label_count;
    if from_steps.len() < own {
        return Err(invalid(format!(
            "`{from}` does not name every label of the block"
        )));
    }
    if to_steps.len() != from_steps.len() {
        let given = to_steps.len() as i64 - (from_steps.len() - own) as i64 - 1;
        return Err(invalid(format!(
            "the block `{from}` has {label_count} label{}; `{to}` gives {}: name the new place in full, like `{from}`",
            if label_count == 1 { "" } else { "s" },
            given.max(0)
        )));
    }
    let parent = from_steps.len() - own;
    for (a, b) in from_steps[..parent].iter().zip(&to_steps[..parent]) {
        if step_name(a).is_none() || step_name(a) != step_name(b) {
            if matches!(a, Step::Any) {
                continue;
            }
            return Err(invalid(format!(
                "a block moves within its parent: `{to}` is not in the same place as `{from}`"
            )));
        }
    }
    if step_name(&to_steps[parent]) != Some(type_name.as_str()) {
        return Err(invalid(format!(
            "a moved block keeps its type `{type_name}` (to change labels only); `{to}` names another type"
        )));
    }
    to_steps[parent + 1..]
        .iter()
        .map(|step| {
            step_name(step)
                .map(str::to_string)
                .ok_or_else(|| invalid("`*` and `[n]` are not labels".to_string()))
        })
        .collect()
}

/// The name or label a step spells (`None` for `*` and `[n]`).
fn step_name(step: &Step) -> Option<&str> {
    match step {
        Step::Name(n) | Step::Key(n) => Some(n),
        Step::Any | Step::Index(_) => None,
    }
}

/// The changes that turn the block's labels into `labels`.
fn label_replacements(block: &ast::Block, labels: &[&str]) -> Result<Vec<Replacement>, EditError> {
    let old: Vec<ast::BlockLabel> = block.labels().collect();
    let mut reps = Vec::new();
    for (label, new) in old.iter().zip(labels) {
        if label.value() != *new || !label.is_quoted() {
            reps.push(Replacement::new(
                label.syntax().text_range(),
                label_source(new),
            ));
        }
    }
    if labels.len() > old.len() {
        let after = old
            .last()
            .map(|l| l.syntax().text_range().end())
            .or_else(|| block.type_token().map(|t| t.text_range().end()))
            .ok_or_else(|| EditError::unsupported("the block has no type"))?;
        let text: String = labels[old.len()..]
            .iter()
            .map(|l| format!(" {}", label_source(l)))
            .collect();
        reps.push(Replacement::new(TextRange::empty(after), text));
    } else if labels.len() < old.len() {
        let from = match labels.len() {
            0 => block.type_token().map(|t| t.text_range().end()),
            n => Some(old[n - 1].syntax().text_range().end()),
        }
        .ok_or_else(|| EditError::unsupported("the block has no type"))?;
        let to = old[old.len() - 1].syntax().text_range().end();
        reps.push(Replacement::new(TextRange::new(from, to), ""));
    }
    Ok(reps)
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

#[cfg(test)]
mod tests {
    use crate::document::{Document, Placement};

    fn insert(text: &str, placement: Placement) -> String {
        let mut doc = Document::parse(text).unwrap();
        doc.insert_block("", "new", &[], "", placement).unwrap();
        doc.to_string()
    }

    #[test]
    fn blocks_are_separated_by_one_blank_line() {
        let text = "a {\n}\n\nb {\n}\n";
        assert_eq!(
            insert(text, Placement::After("a".into())),
            "a {\n}\n\nnew {\n}\n\nb {\n}\n"
        );
        assert_eq!(
            insert(text, Placement::Before("b".into())),
            "a {\n}\n\nnew {\n}\n\nb {\n}\n"
        );
        assert_eq!(
            insert(text, Placement::Last),
            "a {\n}\n\nb {\n}\n\nnew {\n}\n"
        );
        let text = "a {\n}\nb {\n}\n\n# end\n";
        assert_eq!(
            insert(text, Placement::After("a".into())),
            "a {\n}\n\nnew {\n}\n\nb {\n}\n\n# end\n"
        );
        assert_eq!(
            insert(text, Placement::Last),
            "a {\n}\nb {\n}\n\nnew {\n}\n\n# end\n"
        );
    }
}
