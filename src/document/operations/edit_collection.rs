//! Edits inside values: object items and tuple elements, following the
//! collection's own style (one line or one item per line, commas,
//! trailing comma).

use crate::ast::{self, AstNode};
use crate::document::address::{Address, IntoAddress};
use crate::document::error::EditError;
use crate::document::primitives::collection::insert_element;
use crate::document::primitives::placement::Placement;
use crate::document::resolve::{Container, container_of};
use crate::document::{Document, EditValue};

/// Where a new element goes in a tuple.
enum ElementAt {
    /// At this position (the length appends).
    Index(usize),
    /// As a placement says.
    Placed(Placement),
}

impl ElementAt {
    /// The position in `tuple`.
    fn position(&self, tuple: &ast::Tuple) -> Result<usize, EditError> {
        let elements: Vec<ast::Expr> = tuple.elements().collect();
        match self {
            ElementAt::Index(i) => Ok(*i),
            ElementAt::Placed(placement) => placement.position(elements.len(), |k, name| {
                let e = &elements[k];
                EditValue::decode(e).is_some_and(|v| v.as_str() == Some(name))
                    || e.syntax().to_string() == name
            }),
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
        value: impl Into<EditValue>,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.insert_elements(address, ElementAt::Index(index), value.into())
    }

    /// Appends `value` to the tuple at `address`.
    pub fn push_element(
        &mut self,
        address: impl IntoAddress,
        value: impl Into<EditValue>,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.insert_elements(address, ElementAt::Placed(Placement::Last), value.into())
    }

    /// Adds `value` to the tuple at `address`, placed by `placement`:
    /// first, last (the default), before or after the element at a
    /// position ([`Placement::BeforeIndex`], [`Placement::AfterIndex`]),
    /// or before or after the element whose value is a string
    /// ([`Placement::Before`], [`Placement::After`]; an element whose
    /// source text is the string matches too, such as `var.a`).
    ///
    /// ```
    /// use hclwright::{Document, Placement};
    /// let mut doc = Document::parse("azs = [\"a\", \"c\"]\n").unwrap();
    /// doc.add_element("azs", "b", Placement::Before("c".into())).unwrap();
    /// doc.add_element("azs", "first", Placement::First).unwrap();
    /// assert_eq!(doc.to_string(), "azs = [\"first\", \"a\", \"b\", \"c\"]\n");
    /// ```
    pub fn add_element(
        &mut self,
        address: impl IntoAddress,
        value: impl Into<EditValue>,
        placement: Placement,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.insert_elements(address, ElementAt::Placed(placement), value.into())
    }

    fn insert_elements(
        &mut self,
        address: Address,
        at: ElementAt,
        value: EditValue,
    ) -> Result<(), EditError> {
        let source = value.to_source();
        self.scoped(&address, |doc| doc.insert_source(&address, &at, &source))
    }

    fn insert_source(
        &mut self,
        address: &Address,
        at: &ElementAt,
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
            let index = at.position(&tuple)?;
            reps.extend(insert_element(&root, &tuple, index, source)?);
        }
        self.edit(reps)
    }
}
