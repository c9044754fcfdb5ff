//! Body-level edits: inserting attributes and blocks into a body,
//! removing them, block types and labels.

use text_size::TextRange;

use crate::ast::{self, AstNode};
use crate::document::address::{Address, IntoAddress, Step};
use crate::document::error::{EditError, article};
use crate::document::primitives::body::{Target, insert_into_body};
use crate::document::primitives::create::{block_source, label_source};
use crate::document::primitives::placement::Placement;
use crate::document::primitives::replacement::Replacement;
use crate::document::resolve::Container;
use crate::document::{Document, Item};

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
                let target = Target::of(&container, || doc.known_top_body())
                    .ok_or_else(|| EditError::unsupported(format!("`{parent}` is not a block")))?;
                reps.push(insert_into_body(
                    &doc.syntax(),
                    doc.top_layout.as_ref(),
                    &target,
                    &source,
                    true,
                    &placement,
                )?);
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
