//! Setting, renaming and removing what an address designates.

use crate::ast::{self, AstNode};
use crate::document::address::{Address, IntoAddress, Step};
use crate::document::error::EditError;
use crate::document::error::article;
use crate::document::primitives::body::{Target, body_item_removal, insert_into_body};
use crate::document::primitives::collection;
use crate::document::primitives::create;
use crate::document::primitives::create::check_identifier;
use crate::document::primitives::lines::{core_start, line_indent, reindent, unit_near};
use crate::document::primitives::placement::Placement;
use crate::document::primitives::replacement::Replacement;
use crate::document::resolve::{self, Container};
use crate::document::{Document, EditValue, Item};
use crate::syntax_kind::SyntaxNode;
use text_size::TextRange;

impl Document {
    /// Sets the value at `address`: an attribute's, an object item's or a
    /// tuple element's. With `*`, every match is set.
    ///
    /// The value is laid out canonically, indented like its line; the
    /// comments around it stay.
    ///
    /// ```
    /// use hclwright::{Document, EditValue};
    /// let mut doc = Document::parse("locals {\n  tags = {\n    Name = \"web\" # the name\n  }\n}\n").unwrap();
    /// doc.set("locals.tags.Name", "api").unwrap();
    /// doc.set("locals.tags.Team", "platform").unwrap();
    /// doc.set("locals.ports", vec![80, 443]).unwrap();
    /// assert_eq!(
    ///     doc.to_string(),
    ///     "locals {\n  tags = {\n    Name = \"api\" # the name\n    Team = \"platform\"\n  }\n  ports = [80, 443]\n}\n"
    /// );
    /// ```
    ///
    /// # Creating what is missing
    ///
    /// When the address goes further than the document, what is missing
    /// is created from the longest part that exists, laid out
    /// canonically:
    ///
    /// - the last step is an attribute (after the last attribute of its
    ///   body, before nested blocks), an object item (after the last
    ///   item), or a tuple element (only at the index after the last);
    /// - a missing step before it is a block when it is a block type
    ///   known where it appears (`terraform`, `required_providers`,
    ///   `resource` with its two labels, `lifecycle`, Nomad's `job` and
    ///   `group`…, see [`schema`](crate::document::schema) for the list), else an
    ///   attribute whose value is an object (`tags = { Team = … }`), as
    ///   in `locals`, module arguments and `.tfvars` files;
    /// - a new block goes after the last item of its body (for the top
    ///   level: after the last attribute or block of the file, before the
    ///   comments that may end it), separated by a blank line.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("provider \"aws\" {\n  region = \"eu-west-1\"\n}\n").unwrap();
    /// doc.set("terraform.required_providers.aws.version", "~> 5.0").unwrap();
    /// assert_eq!(
    ///     doc.to_string(),
    ///     r#"provider "aws" {
    ///   region = "eu-west-1"
    /// }
    ///
    /// terraform {
    ///   required_providers {
    ///     aws = {
    ///       version = "~> 5.0"
    ///     }
    ///   }
    /// }
    /// "#
    /// );
    /// ```
    ///
    /// A block the table does not know is created by
    /// [`Document::append_block`] first.
    pub fn set(
        &mut self,
        address: impl IntoAddress,
        value: impl Into<EditValue>,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.set_with(address, value, Placement::Default)
    }

    /// Like [`Document::set`], placing a newly created attribute by
    /// `placement` (an existing one stays where it is).
    pub fn set_with(
        &mut self,
        address: impl IntoAddress,
        value: impl Into<EditValue>,
        placement: Placement,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        let value = value.into();
        if let Some(anchor) = self.new_top_item_anchor(&address, &value, &placement) {
            return self.scoped_insert(anchor, |doc| doc.set_at(&address, &value, &placement));
        }
        self.scoped(&address, |doc| doc.set_at(&address, &value, &placement))
    }

    /// Sets the value at `address` only when something is there (as the
    /// command's `set --if-exists`): `Ok(true)` when it was set,
    /// `Ok(false)` when nothing matches (the document is unchanged), an
    /// error for anything else (a malformed or ambiguous address, a value
    /// that cannot go there).
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("provider \"aws\" {\n  region = \"eu-west-1\"\n}\n").unwrap();
    /// assert_eq!(doc.set_if_exists("provider.aws.region", "us-east-1"), Ok(true));
    /// assert_eq!(doc.set_if_exists("provider.aws.profile", "prod"), Ok(false));
    /// assert_eq!(doc.set_if_exists("provider.google.region", "x"), Ok(false));
    /// assert_eq!(doc.to_string(), "provider \"aws\" {\n  region = \"us-east-1\"\n}\n");
    /// assert!(doc.set_if_exists("provider..x", 1).is_err());
    /// ```
    pub fn set_if_exists(
        &mut self,
        address: impl IntoAddress,
        value: impl Into<EditValue>,
    ) -> Result<bool, EditError> {
        let address: Address = address.into_address()?;
        match self.get_all_detached(&address) {
            Err(e) if e.is_not_found() => Ok(false),
            Err(e) => Err(e),
            Ok(_) => self.set(address, value).map(|()| true),
        }
    }

    /// When `set_with` creates a new top-level item (the address's first
    /// name is not in the file) next to an item that the index and the
    /// kinds of the top-level children tell without building their
    /// trees: that item.
    fn new_top_item_anchor(
        &self,
        address: &Address,
        value: &EditValue,
        placement: &Placement,
    ) -> Option<usize> {
        self.absent_at_top(address)?;
        let is_block = create::body_item(None, address.steps(), &value.to_source())
            .ok()?
            .is_block;
        match placement {
            Placement::Default if !is_block => self
                .top_items()
                .rev()
                .find(|&i| self.tree.kind(i) == crate::syntax_kind::SyntaxKind::ATTRIBUTE.into())
                .or_else(|| self.top_items().next()),
            Placement::Default | Placement::Last => self.top_items().next_back(),
            Placement::First => self.top_items().next(),
            _ => None,
        }
    }

    /// [`Document::set_with`] on this document.
    fn set_at(
        &mut self,
        address: &Address,
        value: &EditValue,
        placement: &Placement,
    ) -> Result<(), EditError> {
        self.set_source(address.clone(), &value.to_source(), placement)
    }

    /// [`Document::set_with`] for a value given as laid-out source.
    fn set_source(
        &mut self,
        parsed: Address,
        source: &str,
        placement: &Placement,
    ) -> Result<(), EditError> {
        let source = source.to_string();
        match self.resolve(&parsed) {
            Ok(items) => {
                let root = self.syntax();
                let mut reps = Vec::new();
                for item in &items {
                    reps.push(set_value(&root, item, &source)?);
                }
                self.edit(reps)
            }
            Err(not_found @ EditError::NotFound { .. }) => {
                // The longest prefix of the address that exists, and
                // where new content can go in it.
                let steps = parsed.steps();
                let mut cut = steps.len().saturating_sub(1);
                let containers = loop {
                    if cut == 0 {
                        break vec![Container::Root];
                    }
                    let prefix = Address::new(steps[..cut].to_vec());
                    match self.resolve(&prefix) {
                        Ok(items) => {
                            let containers: Vec<Container> =
                                items.iter().filter_map(resolve::container_of).collect();
                            if containers.len() < items.len() {
                                return Err(not_found);
                            }
                            break containers;
                        }
                        Err(e @ EditError::Ambiguous { .. }) => return Err(e),
                        Err(_) => cut -= 1,
                    }
                };
                if steps.is_empty() {
                    return Err(not_found);
                }
                let mut reps = Vec::new();
                for container in &containers {
                    reps.extend(self.create(container, &steps[cut..], &source, placement)?);
                }
                // New items of objects written `"key": value` take the
                // spacing of their siblings around `:`. (Only then is a
                // copy kept to undo: a copy shares the top-level
                // children, which the edit would then copy, a million in
                // a large file.)
                let saved = containers
                    .iter()
                    .any(|c| matches!(c, Container::Object(_)))
                    .then(|| self.clone());
                self.edit(reps)?;
                if let Some(saved) = saved {
                    let created = self.resolve(&Address::new(steps[..=cut].to_vec()))?;
                    let spacing = collection::colon_spacing_of_siblings(&created);
                    if let Err(e) = self.apply(spacing) {
                        *self = saved;
                        return Err(e);
                    }
                }
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Creates what `steps` designate in a container, with the value
    /// `source`: an attribute (inside new blocks or objects when there
    /// are several steps, see [`crate::document::schema`]), an object item, or a
    /// tuple element at the end.
    fn create(
        &self,
        container: &Container,
        steps: &[Step],
        source: &str,
        placement: &Placement,
    ) -> Result<Vec<Replacement>, EditError> {
        match (container, steps) {
            (Container::Root | Container::Body(_), _) => {
                let parent = match container {
                    Container::Body(block) => block.type_name(),
                    _ => None,
                };
                let item = create::body_item(parent.as_deref(), steps, source)?;
                let target = Target::of(container, || self.known_top_body())
                    .ok_or_else(|| EditError::unsupported("no body to create it in"))?;
                Ok(vec![insert_into_body(
                    &self.syntax(),
                    self.top_layout.as_ref(),
                    &target,
                    &item.text,
                    item.is_block,
                    placement,
                )?])
            }
            (Container::Object(object), _) => {
                let style = collection::object_style(object);
                let text = create::object_item(steps, source, style)?;
                collection::add_object_item(&self.syntax(), object, &text, placement)
            }
            (Container::Tuple(tuple), [Step::Index(n)]) if *n == tuple.elements().count() => {
                collection::insert_element(&self.syntax(), tuple, *n, source)
            }
            (Container::Tuple(_), _) => Err(EditError::unsupported(
                "a new tuple element goes at the end: use the index after the last, or insert_element",
            )),
        }
    }

    /// Renames what `address` designates: an attribute, an object key or
    /// a block type. Fails if the new name already exists there.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("a = 1\nbbb = 2\n").unwrap();
    /// doc.rename("a", "alpha").unwrap();
    /// assert_eq!(doc.to_string(), "alpha = 1\nbbb   = 2\n");
    /// assert!(doc.rename("alpha", "bbb").is_err());
    /// ```
    pub fn rename(&mut self, address: impl IntoAddress, new_name: &str) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        let op = |doc: &mut Document| {
            let mut reps = Vec::new();
            for item in doc.resolve(&address)? {
                reps.push(rename_item(&item, new_name)?);
            }
            doc.edit(reps)
        };
        // A top-level name taken anywhere in the file is seen by the
        // whole file only (a part holds a few items).
        if address.steps().len() == 1 && self.tree.has_name(new_name) {
            return op(self);
        }
        self.scoped(&address, op)
    }

    /// Removes what `address` designates, with its comment lines and its
    /// same-line comment: an attribute or block (without leaving a
    /// doubled blank line), an object item or a tuple element (keeping
    /// the collection's commas right).
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("a = 1\n# about b\nb = [1, 2, 3]\nc = 3\n").unwrap();
    /// doc.remove("b[1]").unwrap();
    /// assert_eq!(doc.to_string(), "a = 1\n# about b\nb = [1, 3]\nc = 3\n");
    /// doc.remove("b").unwrap();
    /// assert_eq!(doc.to_string(), "a = 1\nc = 3\n");
    /// ```
    pub fn remove(&mut self, address: impl IntoAddress) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.scoped(&address, |doc| {
            let mut reps = Vec::new();
            for item in doc.resolve(&address)? {
                let ranges = match &item {
                    Item::Attribute(a) => vec![body_item_removal(a.syntax())],
                    Item::Block(b) => vec![body_item_removal(b.syntax())],
                    Item::ObjectItem(i) => collection::object_item_removal(i),
                    Item::Element { tuple, index, .. } => {
                        collection::element_removal(tuple, *index)
                    }
                };
                reps.extend(ranges.into_iter().map(|r| Replacement::new(r, "")));
            }
            doc.edit(reps)
        })
    }
}

/// The change that sets the value of `item` to `source`.
fn set_value(root: &SyntaxNode, item: &Item, source: &str) -> Result<Replacement, EditError> {
    let expr = item.value_expr().ok_or_else(|| {
        EditError::unsupported(format!(
            "{} {} has no value: set its attributes instead",
            article(item.kind_name()),
            item.kind_name()
        ))
    })?;
    let range = expr.syntax().text_range();
    // A heredoc cannot stay in a one-line block (`a { b = 1 }`): the
    // block is written over several lines.
    if let Item::Attribute(attr) = item
        && crate::document::primitives::heredoc::ends_with_heredoc(source)
        && let Some(block) = attr
            .syntax()
            .parent()
            .and_then(|body| body.parent())
            .and_then(ast::Block::cast)
            .filter(|b| b.is_single_line())
        && let (Some(open), Some(close)) = (block.open_brace(), block.close_brace())
    {
        let outer = line_indent(root, core_start(block.syntax()));
        let unit = "  ";
        let indent = format!("{outer}{unit}");
        let name = attr.name().unwrap_or_default();
        let value = reindent(source, &indent, unit);
        let inner = TextRange::new(open.text_range().end(), close.text_range().start());
        return Ok(Replacement::new(
            inner,
            format!("\n{indent}{name} = {value}\n{outer}"),
        ));
    }
    let indent = line_indent(root, range.start());
    let unit = unit_near(root, item.syntax());
    Ok(Replacement::new(range, reindent(source, &indent, &unit)))
}

/// The change that renames `item`.
fn rename_item(item: &Item, new_name: &str) -> Result<Replacement, EditError> {
    match item {
        Item::Attribute(a) => {
            check_identifier(new_name)?;
            let body = a.syntax().parent().and_then(ast::Body::cast);
            if body.is_some_and(|b| b.attribute(new_name).is_some())
                && a.name().as_deref() != Some(new_name)
            {
                return Err(EditError::AlreadyExists {
                    name: new_name.to_string(),
                });
            }
            let token = a
                .name_token()
                .ok_or_else(|| EditError::unsupported("no name"))?;
            Ok(Replacement::new(token.text_range(), new_name))
        }
        Item::Block(b) => {
            check_identifier(new_name)?;
            let token = b
                .type_token()
                .ok_or_else(|| EditError::unsupported("no type"))?;
            Ok(Replacement::new(token.text_range(), new_name))
        }
        Item::ObjectItem(i) => {
            let key = i.key().ok_or_else(|| EditError::unsupported("no key"))?;
            let object = i.syntax().parent().and_then(ast::Object::cast);
            let clash = object.is_some_and(|o| {
                o.items().any(|other| {
                    other != *i
                        && other.key().and_then(|k| k.literal_name()).as_deref() == Some(new_name)
                })
            });
            if clash {
                return Err(EditError::AlreadyExists {
                    name: new_name.to_string(),
                });
            }
            // A quoted key stays quoted.
            let style = create::ObjectStyle {
                colon: false,
                quoted_keys: matches!(key.expr(), Some(ast::Expr::QuotedTemplate(_))),
            };
            Ok(Replacement::new(
                key.syntax().text_range(),
                style.key(new_name),
            ))
        }
        Item::Element { .. } => Err(EditError::unsupported("a tuple element has no name")),
    }
}
