//! `mv`: renaming what an address designates, as `hclwright mv` (and
//! hcledit's `attribute mv` / `block mv`) takes its arguments. An
//! operation over [`Document::rename`] and [`Document::move_block`].

use crate::document::Document;
use crate::document::address::{Address, IntoAddress, Step};
use crate::document::error::EditError;
use crate::document::item::Item;

/// The name that `mv ADDRESS GIVEN` renames to: `given` itself, or the
/// last step of `given` when it is a full address in the same parent
/// (`locals.a` → `locals.b` gives `b`). An address in another parent is
/// refused: `mv` renames, it does not move.
///
/// ```
/// use hclwright::document::{Address, mv_name};
/// let a = Address::parse("locals.a").unwrap();
/// assert_eq!(mv_name(&a, "b").unwrap(), "b");
/// assert_eq!(mv_name(&a, "locals.b").unwrap(), "b");
/// assert!(mv_name(&a, "other.b").is_err());
/// ```
pub fn mv_name(address: &Address, given: &str) -> Result<String, EditError> {
    let Ok(target) = Address::parse(given) else {
        return Ok(given.to_string());
    };
    if target.steps().len() == 1 {
        return Ok(given.to_string());
    }
    match (address.parent(), target.parent()) {
        (Some((from, _)), Some((to, Step::Name(name)))) if from == to => Ok(name.clone()),
        _ => Err(EditError::unsupported(format!(
            "`{given}` is not in the same place as `{address}`: mv renames, it does not move"
        ))),
    }
}

impl Document {
    /// Renames what `address` designates, as `hclwright mv` does: a block
    /// moves to new labels (`new_name` is then its full new address, the
    /// same type with new labels, as [`move_block`](Self::move_block)
    /// takes it); an attribute or object key gets the name [`mv_name`]
    /// gives.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("variable \"a\" {}\nlocals {\n  x = 1\n}\n").unwrap();
    /// doc.mv("variable.a", "variable.b").unwrap();
    /// doc.mv("locals.x", "y").unwrap();
    /// assert_eq!(doc.to_string(), "variable \"b\" {}\nlocals {\n  y = 1\n}\n");
    /// ```
    pub fn mv(&mut self, address: impl IntoAddress, new_name: &str) -> Result<(), EditError> {
        let address = address.into_address()?;
        // A block moves to new labels (hcledit's `block mv`); its type is
        // never renamed.
        let is_block = self
            .get_all_detached(&address)
            .is_ok_and(|items| items.iter().any(|i| matches!(i, Item::Block(_))));
        if is_block {
            self.move_block(&address, new_name)
        } else {
            let new_name = mv_name(&address, new_name)?;
            self.rename(&address, &new_name)
        }
    }
}
