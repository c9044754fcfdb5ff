//! Where new content goes among its siblings: attributes and blocks in a
//! body, items in an object, elements in a tuple.

use crate::document::error::EditError;

/// Where a new attribute, block, object item or tuple element goes among
/// its siblings.
///
/// ```
/// use hclwright::{Document, Placement};
/// let mut doc = Document::parse("tags = {\n  Name = \"web\"\n  Team = \"platform\"\n}\nazs = [\"a\", \"c\"]\n").unwrap();
/// doc.set_with("tags.Env", "prod", Placement::After("Name".into())).unwrap();
/// doc.add_element("azs", "b", Placement::AfterIndex(0)).unwrap();
/// doc.add_element("azs", "d", Placement::After("c".into())).unwrap();
/// assert_eq!(
///     doc.to_string(),
///     "tags = {\n  Name = \"web\"\n  Env  = \"prod\"\n  Team = \"platform\"\n}\nazs = [\"a\", \"b\", \"c\", \"d\"]\n"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// In a body: an attribute after the last attribute, before nested
    /// blocks (at the start when there is no attribute); a block at the
    /// end. In an object or a tuple: at the end.
    #[default]
    Default,
    /// Before the sibling with this name: an attribute's name, a block's
    /// type (the first block of that type), an object item's key, or a
    /// tuple element whose value is this string (or whose source text is
    /// this). To name one block among several of a type, use
    /// [`Placement::BeforeBlock`].
    Before(String),
    /// After the sibling with this name (see [`Placement::Before`]).
    After(String),
    /// Before the sibling at this position (counting from 0: attributes
    /// and blocks of a body, items of an object, elements of a tuple).
    BeforeIndex(usize),
    /// After the sibling at this position.
    AfterIndex(usize),
    /// Before every other sibling.
    First,
    /// After every other sibling.
    Last,
    /// In a body: before the block with this type and exactly these
    /// labels (see [`Placement::before_block`]).
    BeforeBlock {
        /// The block's type.
        type_name: String,
        /// Its labels, all of them.
        labels: Vec<String>,
    },
    /// In a body: after the block with this type and exactly these
    /// labels.
    ///
    /// ```
    /// use hclwright::{Document, Placement};
    /// let mut doc = Document::parse(
    ///     "variable \"a\" {}\n\nvariable \"b\" {}\n\nvariable \"c\" {}\n",
    /// ).unwrap();
    /// doc.insert_block(
    ///     hclwright::document::Address::root(),
    ///     "variable",
    ///     &["b2"],
    ///     "",
    ///     Placement::after_block("variable", &["b"]),
    /// ).unwrap();
    /// assert_eq!(
    ///     doc.to_string(),
    ///     "variable \"a\" {}\n\nvariable \"b\" {}\n\nvariable \"b2\" {\n}\n\nvariable \"c\" {}\n"
    /// );
    /// ```
    AfterBlock {
        /// The block's type.
        type_name: String,
        /// Its labels, all of them.
        labels: Vec<String>,
    },
}

impl Placement {
    /// [`Placement::BeforeBlock`] of the block `type_name` with `labels`.
    pub fn before_block(type_name: &str, labels: &[&str]) -> Placement {
        Placement::BeforeBlock {
            type_name: type_name.to_string(),
            labels: labels.iter().map(|l| l.to_string()).collect(),
        }
    }

    /// [`Placement::AfterBlock`] of the block `type_name` with `labels`.
    pub fn after_block(type_name: &str, labels: &[&str]) -> Placement {
        Placement::AfterBlock {
            type_name: type_name.to_string(),
            labels: labels.iter().map(|l| l.to_string()).collect(),
        }
    }

    /// The sibling to place the new one next to, among `count` siblings
    /// of which `named(k, name)` tells whether the `k`-th has the name:
    /// its position, and whether the new one goes after it. `None` when
    /// there is no sibling. [`Placement::Default`] is the last sibling.
    pub(crate) fn anchor(
        &self,
        count: usize,
        named: impl Fn(usize, &str) -> bool,
    ) -> Result<Option<(usize, bool)>, EditError> {
        self.anchor_with_blocks(count, named, |_, _, _| false)
    }

    /// [`Placement::anchor`] among the items of a body, where
    /// `block(k, type_name, labels)` tells whether the `k`-th is that
    /// block.
    pub(crate) fn anchor_with_blocks(
        &self,
        count: usize,
        named: impl Fn(usize, &str) -> bool,
        block: impl Fn(usize, &str, &[String]) -> bool,
    ) -> Result<Option<(usize, bool)>, EditError> {
        let by_block = |type_name: &str, labels: &[String]| {
            (0..count)
                .find(|&k| block(k, type_name, labels))
                .ok_or_else(|| {
                    let mut steps =
                        vec![crate::document::address::Step::Name(type_name.to_string())];
                    steps.extend(
                        labels
                            .iter()
                            .map(|l| crate::document::address::Step::Name(l.clone())),
                    );
                    EditError::NotFound {
                        address: crate::document::address::Address::new(steps).to_string(),
                        matched: String::new(),
                    }
                })
        };
        let by_name = |name: &str| {
            (0..count)
                .find(|&k| named(k, name))
                .ok_or_else(|| EditError::NotFound {
                    address: name.to_string(),
                    matched: String::new(),
                })
        };
        let by_index = |index: usize| {
            if index < count {
                Ok(index)
            } else {
                Err(EditError::NotFound {
                    address: format!("[{index}]"),
                    matched: String::new(),
                })
            }
        };
        Ok(match self {
            Placement::Before(name) => Some((by_name(name)?, false)),
            Placement::After(name) => Some((by_name(name)?, true)),
            Placement::BeforeIndex(i) => Some((by_index(*i)?, false)),
            Placement::AfterIndex(i) => Some((by_index(*i)?, true)),
            Placement::First => (count > 0).then_some((0, false)),
            Placement::Default | Placement::Last => count.checked_sub(1).map(|k| (k, true)),
            Placement::BeforeBlock { type_name, labels } => {
                Some((by_block(type_name, labels)?, false))
            }
            Placement::AfterBlock { type_name, labels } => {
                Some((by_block(type_name, labels)?, true))
            }
        })
    }

    /// The position a new element takes in a tuple of `count` elements.
    pub(crate) fn position(
        &self,
        count: usize,
        named: impl Fn(usize, &str) -> bool,
    ) -> Result<usize, EditError> {
        Ok(match self.anchor(count, named)? {
            Some((k, true)) => k + 1,
            Some((k, false)) => k,
            None => 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors() {
        let names = ["a", "b", "c"];
        let named = |k: usize, n: &str| names[k] == n;
        assert_eq!(Placement::Default.anchor(3, named), Ok(Some((2, true))));
        assert_eq!(Placement::First.anchor(3, named), Ok(Some((0, false))));
        assert_eq!(
            Placement::Before("b".into()).anchor(3, named),
            Ok(Some((1, false)))
        );
        assert_eq!(
            Placement::AfterIndex(2).anchor(3, named),
            Ok(Some((2, true)))
        );
        assert!(
            Placement::AfterIndex(3)
                .anchor(3, named)
                .unwrap_err()
                .is_not_found()
        );
        assert!(Placement::After("x".into()).anchor(3, named).is_err());
        assert_eq!(Placement::Last.anchor(0, named), Ok(None));
        assert_eq!(Placement::After("b".into()).position(3, named), Ok(2));
        assert_eq!(Placement::First.position(0, named), Ok(0));
    }
}
