//! Handles on places of a [`Document`] (see [`Handle`]).

use super::address::{Address, Step};
use super::error::EditError;
use super::value::EditValue;
use super::{Document, Item, Placement};
use crate::ast::{AstNode, Expr};

/// A place in a [`Document`] to hold on to while reading and
/// editing around it, in the style of `toml_edit`, instead of spelling an
/// address string for every step.
///
/// A handle is a mutable borrow of the document plus the path of steps to
/// the item it stands for (a block, an attribute, an object item, a tuple
/// element, or the top level). Every read resolves that path in the
/// current tree and every edit goes through the document's address-based
/// methods, so edits stay local and realign as they do there. Labels and
/// keys are steps, never text to escape: a label with a dot needs no `\.`.
///
/// ```
/// use hclwright::{Document, EditValue};
///
/// let mut doc = Document::parse(
///     "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"~> 4.0\"\n    }\n  }\n}\n",
/// )?;
/// let mut providers = doc.block_mut("terraform", &[])?.into_block("required_providers", &[])?;
/// let mut aws = providers.entry_mut("aws")?;
/// assert_eq!(aws.get("version")?.value(), Some(EditValue::from("~> 4.0")));
/// aws.set("version", "~> 5.0")?;
/// aws.set("configuration_aliases", EditValue::parse("[aws.east]")?)?;
/// assert!(doc.to_string().contains("      version               = \"~> 5.0\"\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Handle<'d> {
    doc: &'d mut Document,
    steps: Vec<Step>,
}

impl Document {
    /// A handle on the top level of the document.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("a = 1\n").unwrap();
    /// doc.root_mut().set("b", 2).unwrap();
    /// assert_eq!(doc.to_string(), "a = 1\nb = 2\n");
    /// ```
    pub fn root_mut(&mut self) -> Handle<'_> {
        Handle {
            doc: self,
            steps: Vec::new(),
        }
    }

    /// A handle on the top-level block `type_name` with `labels`, which
    /// must exist.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("variable \"region\" {\n}\n").unwrap();
    /// doc.block_mut("variable", &["region"]).unwrap().set("default", "eu-west-1").unwrap();
    /// assert_eq!(doc.to_string(), "variable \"region\" {\n  default = \"eu-west-1\"\n}\n");
    /// ```
    pub fn block_mut(&mut self, type_name: &str, labels: &[&str]) -> Result<Handle<'_>, EditError> {
        self.root_mut().into_block(type_name, labels)
    }

    /// A handle on the item at `address`, which must exist (one item: no
    /// `*` that matches several).
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("module \"vpc\" {\n  azs = [\"a\"]\n}\n").unwrap();
    /// doc.get_mut("module.vpc.azs").unwrap().push("b").unwrap();
    /// assert_eq!(doc.to_string(), "module \"vpc\" {\n  azs = [\"a\", \"b\"]\n}\n");
    /// assert!(doc.get_mut("module.nope").unwrap_err().is_not_found());
    /// ```
    pub fn get_mut(&mut self, address: impl super::IntoAddress) -> Result<Handle<'_>, EditError> {
        Handle::at(self, address.into_address()?)
    }
}

impl std::fmt::Debug for Handle<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle")
            .field("address", &self.address().to_string_or_empty())
            .finish()
    }
}

impl<'d> Handle<'d> {
    /// The address of the handle's item (empty for the top level).
    pub fn address(&self) -> Address {
        Address::new(self.steps.clone())
    }

    /// True for the top level.
    pub fn is_root(&self) -> bool {
        self.steps.is_empty()
    }

    /// The item the handle stands for, as it is now (an error for the
    /// top level, which is not an item).
    pub fn item(&self) -> Result<Item, EditError> {
        if self.is_root() {
            return Err(EditError::unsupported("the top level is not an item"));
        }
        self.doc.get(self.address())
    }

    /// The document.
    pub fn document(&self) -> &Document {
        self.doc
    }

    /// The child `name` (an attribute, or an object item's key; for a
    /// block child use [`Handle::get_block`]).
    pub fn get(&self, name: &str) -> Result<Item, EditError> {
        self.doc.get(self.child(Step::Name(name.to_string())))
    }

    /// The child block `type_name` with `labels`.
    pub fn get_block(&self, type_name: &str, labels: &[&str]) -> Result<Item, EditError> {
        self.doc.get(self.block_address(type_name, labels))
    }

    /// The `index`-th element of the handle's tuple.
    pub fn get_element(&self, index: usize) -> Result<Item, EditError> {
        self.doc.get(self.child(Step::Index(index)))
    }

    /// The items inside the handle's item, in source order: a body's
    /// attributes and blocks (the top level's too), an object's items, a
    /// tuple's elements; empty for any other value.
    pub fn children(&self) -> Result<Vec<Item>, EditError> {
        if self.is_root() {
            return Ok(self.doc.items().map(|i| Item::from_body_item(&i)).collect());
        }
        Ok(match self.item()? {
            Item::Block(block) => block
                .body()
                .map(|b| b.items().map(|i| Item::from_body_item(&i)).collect())
                .unwrap_or_default(),
            item => match item.value_expr().map(unparen) {
                Some(Expr::Object(object)) => object.items().map(Item::ObjectItem).collect(),
                Some(Expr::Tuple(tuple)) => tuple
                    .elements()
                    .enumerate()
                    .map(|(index, expr)| Item::Element {
                        tuple: tuple.clone(),
                        index,
                        expr,
                    })
                    .collect(),
                _ => Vec::new(),
            },
        })
    }

    /// A handle on the child block `type_name` with `labels` (which must
    /// exist), borrowing this one.
    pub fn block_mut(&mut self, type_name: &str, labels: &[&str]) -> Result<Handle<'_>, EditError> {
        let address = self.block_address(type_name, labels);
        Handle::at(self.doc, address)
    }

    /// [`Handle::block_mut`], turning this handle into the child's.
    pub fn into_block(self, type_name: &str, labels: &[&str]) -> Result<Handle<'d>, EditError> {
        let address = self.block_address(type_name, labels);
        Handle::at(self.doc, address)
    }

    /// A handle on the child `name` (an attribute or object item, which
    /// must exist), borrowing this one.
    pub fn entry_mut(&mut self, name: &str) -> Result<Handle<'_>, EditError> {
        Handle::at(self.doc, self.child(Step::Name(name.to_string())))
    }

    /// A handle on the `index`-th element of the handle's tuple.
    pub fn element_mut(&mut self, index: usize) -> Result<Handle<'_>, EditError> {
        Handle::at(self.doc, self.child(Step::Index(index)))
    }

    /// Sets the child `name` to `value`, creating it (and what is missing
    /// on the way) as [`Document::set`] does.
    pub fn set(&mut self, name: &str, value: impl Into<EditValue>) -> Result<&mut Self, EditError> {
        self.doc
            .set(self.child(Step::Name(name.to_string())), value)?;
        Ok(self)
    }

    /// [`Handle::set`] with a placement for what is created.
    pub fn set_with(
        &mut self,
        name: &str,
        value: impl Into<EditValue>,
        placement: Placement,
    ) -> Result<&mut Self, EditError> {
        self.doc
            .set_with(self.child(Step::Name(name.to_string())), value, placement)?;
        Ok(self)
    }

    /// Replaces the value of the handle's own item (an attribute, object
    /// item or element).
    pub fn set_value(&mut self, value: impl Into<EditValue>) -> Result<&mut Self, EditError> {
        if self.is_root() {
            return Err(EditError::unsupported("the top level has no value"));
        }
        self.doc.set(self.address(), value)?;
        Ok(self)
    }

    /// Removes the child `name` (an attribute or object item) with its
    /// comments.
    pub fn remove(&mut self, name: &str) -> Result<&mut Self, EditError> {
        self.doc.remove(self.child(Step::Name(name.to_string())))?;
        Ok(self)
    }

    /// Removes the child block `type_name` with `labels`.
    pub fn remove_block(
        &mut self,
        type_name: &str,
        labels: &[&str],
    ) -> Result<&mut Self, EditError> {
        self.doc.remove(self.block_address(type_name, labels))?;
        Ok(self)
    }

    /// Renames the child `name` (an attribute or object key) to
    /// `new_name`, realigning as [`Document::rename`] does.
    pub fn rename(&mut self, name: &str, new_name: &str) -> Result<&mut Self, EditError> {
        self.doc
            .rename(self.child(Step::Name(name.to_string())), new_name)?;
        Ok(self)
    }

    /// Appends a block `type_name` with `labels` and `body` (HCL source,
    /// may be empty) at the end of the handle's body, and returns a handle
    /// on it.
    pub fn append_block(
        &mut self,
        type_name: &str,
        labels: &[&str],
        body: &str,
    ) -> Result<Handle<'_>, EditError> {
        self.doc
            .append_block(self.address(), type_name, labels, body)?;
        let address = self.block_address(type_name, labels);
        // The new block is the last one with that type and labels.
        let count = self.doc.get_all(&address)?.len();
        if count > 1 {
            return Err(EditError::Ambiguous {
                address: address.to_string(),
                count,
            });
        }
        Ok(Handle {
            doc: self.doc,
            steps: address.steps().to_vec(),
        })
    }

    /// Sets the labels of the handle's block; the handle follows it.
    pub fn set_labels(&mut self, labels: &[&str]) -> Result<&mut Self, EditError> {
        let block = match self.item()? {
            Item::Block(b) => b,
            other => {
                return Err(EditError::unsupported(format!(
                    "`{}` is {} {}, not a block",
                    self.address(),
                    super::error::article(other.kind_name()),
                    other.kind_name()
                )));
            }
        };
        let own = 1 + block.labels().count();
        let type_name = block.type_name().unwrap_or_default();
        self.doc.set_labels(self.address(), labels)?;
        self.steps.truncate(self.steps.len().saturating_sub(own));
        self.steps = self.block_address(&type_name, labels).steps().to_vec();
        Ok(self)
    }

    /// Appends `value` to the handle's tuple.
    pub fn push(&mut self, value: impl Into<EditValue>) -> Result<&mut Self, EditError> {
        self.doc.push_element(self.address(), value)?;
        Ok(self)
    }

    /// Inserts `value` at `index` in the handle's tuple.
    pub fn insert(
        &mut self,
        index: usize,
        value: impl Into<EditValue>,
    ) -> Result<&mut Self, EditError> {
        self.doc.insert_element(self.address(), index, value)?;
        Ok(self)
    }

    /// Sets the comment lines above the handle's item (none removes them).
    pub fn set_comments_above(&mut self, lines: &[&str]) -> Result<&mut Self, EditError> {
        self.doc.set_comments_above(self.address(), lines)?;
        Ok(self)
    }

    /// Sets (or with `None` removes) the comment at the end of the
    /// handle's line.
    pub fn set_inline_comment(&mut self, text: Option<&str>) -> Result<&mut Self, EditError> {
        self.doc.set_inline_comment(self.address(), text)?;
        Ok(self)
    }

    /// Removes the handle's own item, with its comments.
    pub fn remove_self(self) -> Result<(), EditError> {
        if self.is_root() {
            return Err(EditError::unsupported("the top level cannot be removed"));
        }
        self.doc.remove(self.address())
    }

    /// A handle on the item at `address`, which must exist.
    fn at(doc: &mut Document, address: Address) -> Result<Handle<'_>, EditError> {
        doc.get(&address)?;
        Ok(Handle {
            doc,
            steps: address.steps().to_vec(),
        })
    }

    fn child(&self, step: Step) -> Address {
        let mut steps = self.steps.clone();
        steps.push(step);
        Address::new(steps)
    }

    fn block_address(&self, type_name: &str, labels: &[&str]) -> Address {
        let mut steps = self.steps.clone();
        steps.push(Step::Name(type_name.to_string()));
        steps.extend(labels.iter().map(|l| Step::Name((*l).to_string())));
        Address::new(steps)
    }
}

/// The expression inside parentheses.
fn unparen(expr: Expr) -> Expr {
    let mut expr = expr;
    while let Expr::Paren(p) = &expr {
        match p.syntax().children().find_map(Expr::cast) {
            Some(inner) => expr = inner,
            None => break,
        }
    }
    expr
}
