//! The parts of collection values, shared between clones.
//!
//! cty's values are immutable: copying one copies a reference. Ours are
//! the same: a list's elements or an object's attributes sit behind a
//! reference count, so cloning a value (every variable read, every
//! constant of a lowered expression, every element taken out of a
//! collection) costs a count, however large the value. Writing through a
//! shared part first copies it ([`Arc::make_mut`]), so a value is never
//! changed through another's clone.

use super::value::Value;
use smol_str::SmolStr;
use std::collections::BTreeMap;
use std::fmt;
use ecow::EcoVec;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// The elements of a list, set or tuple: a vector shared between clones,
/// its count and its elements in one allocation.
///
/// It reads as a slice of values; writing to it copies the elements first
/// when a clone shares them.
///
/// ```
/// use hclwright::eval::{Elements, Value};
/// let a: Elements = vec![Value::int(1), Value::int(2)].into();
/// let mut b = a.clone();
/// b.push(Value::int(3));
/// assert_eq!((a.len(), b.len()), (2, 3));
/// assert!(a.iter().zip(b.iter()).all(|(x, y)| x == y));
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct Elements(EcoVec<Value>);

/// The attributes of a map or object, by key: a `BTreeMap` shared between
/// clones.
///
/// It reads as a `BTreeMap<SmolStr, Value>`; writing to it copies the
/// entries first when a clone shares them.
///
/// ```
/// use hclwright::eval::{Entries, Value};
/// let a: Entries = [("name".into(), Value::string("web"))].into_iter().collect();
/// let mut b = a.clone();
/// b.insert("port".into(), Value::int(80));
/// assert_eq!((a.len(), b.len()), (1, 2));
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct Entries(Arc<BTreeMap<SmolStr, Value>>);

impl Elements {
    /// No elements.
    pub fn new() -> Elements {
        Elements::default()
    }

    /// Room for `capacity` elements, in one allocation.
    pub fn with_capacity(capacity: usize) -> Elements {
        Elements(EcoVec::with_capacity(capacity))
    }

    /// Adds `value` at the end.
    #[inline]
    pub fn push(&mut self, value: Value) {
        self.0.push(value);
    }

    /// Removes and returns the last element.
    pub fn pop(&mut self) -> Option<Value> {
        self.0.pop()
    }

    /// Inserts `value` at `index`, shifting the elements after it.
    pub fn insert(&mut self, index: usize, value: Value) {
        self.0.insert(index, value);
    }

    /// Removes and returns the element at `index`.
    pub fn remove(&mut self, index: usize) -> Value {
        self.0.remove(index)
    }

    /// Keeps the elements for which `keep` is true.
    pub fn retain(&mut self, keep: impl FnMut(&mut Value) -> bool) {
        self.0.retain(keep);
    }

    /// Keeps the first `len` elements.
    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    /// The elements as a vector of their own: moved when no clone shares
    /// them, copied when one does.
    pub fn into_vec(self) -> Vec<Value> {
        self.0.into_iter().collect()
    }
}

impl Entries {
    /// No entries.
    pub fn new() -> Entries {
        Entries::default()
    }

    /// The entries as a map of their own: taken when no clone shares them,
    /// copied when one does.
    pub fn into_map(self) -> BTreeMap<SmolStr, Value> {
        Arc::unwrap_or_clone(self.0)
    }
}

impl Deref for Elements {
    type Target = [Value];
    #[inline]
    fn deref(&self) -> &[Value] {
        &self.0
    }
}

impl DerefMut for Elements {
    /// The elements to change, copied first if a clone shares them.
    #[inline]
    fn deref_mut(&mut self) -> &mut [Value] {
        self.0.make_mut()
    }
}

impl Deref for Entries {
    type Target = BTreeMap<SmolStr, Value>;
    #[inline]
    fn deref(&self) -> &BTreeMap<SmolStr, Value> {
        &self.0
    }
}

impl DerefMut for Entries {
    /// The entries to change, copied first if a clone shares them.
    #[inline]
    fn deref_mut(&mut self) -> &mut BTreeMap<SmolStr, Value> {
        Arc::make_mut(&mut self.0)
    }
}

impl From<Vec<Value>> for Elements {
    /// The elements moved into a shared allocation (prefer collecting
    /// into [`Elements`] directly: that allocates once).
    #[inline]
    fn from(items: Vec<Value>) -> Elements {
        Elements(EcoVec::from(items))
    }
}

impl From<BTreeMap<SmolStr, Value>> for Entries {
    #[inline]
    fn from(items: BTreeMap<SmolStr, Value>) -> Entries {
        Entries(Arc::new(items))
    }
}

impl FromIterator<Value> for Elements {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Elements {
        Elements(iter.into_iter().collect())
    }
}

impl FromIterator<(SmolStr, Value)> for Entries {
    fn from_iter<I: IntoIterator<Item = (SmolStr, Value)>>(iter: I) -> Entries {
        Entries::from(iter.into_iter().collect::<BTreeMap<_, _>>())
    }
}

impl Extend<Value> for Elements {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl Extend<(SmolStr, Value)> for Entries {
    fn extend<I: IntoIterator<Item = (SmolStr, Value)>>(&mut self, iter: I) {
        (**self).extend(iter);
    }
}

impl IntoIterator for Elements {
    type Item = Value;
    type IntoIter = ecow::vec::IntoIter<Value>;
    /// The elements by value: moved out when no clone shares them, copied
    /// when one does.
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Elements {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Entries {
    type Item = (SmolStr, Value);
    type IntoIter = std::collections::btree_map::IntoIter<SmolStr, Value>;
    /// The entries by value: moved out when no clone shares them, copied
    /// when one does.
    fn into_iter(self) -> Self::IntoIter {
        self.into_map().into_iter()
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = (&'a SmolStr, &'a Value);
    type IntoIter = std::collections::btree_map::Iter<'a, SmolStr, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Debug for Elements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_shares_until_written() {
        let a: Elements = vec![Value::int(1)].into();
        let mut b = a.clone();
        assert!(std::ptr::eq(a.as_ptr(), b.as_ptr()));
        b.push(Value::int(2));
        assert!(!std::ptr::eq(a.as_ptr(), b.as_ptr()));
        assert_eq!(a.len(), 1);

        let c: Entries = [("k".into(), Value::int(1))].into_iter().collect();
        let mut d = c.clone();
        d.insert("k".into(), Value::int(2));
        assert_eq!(c["k"], Value::int(1));
        assert_eq!(d["k"], Value::int(2));
    }

    #[test]
    fn taking_the_only_owner_moves() {
        let a: Elements = vec![Value::string("x".repeat(40))].into();
        let ptr = a.as_ptr();
        let v = a.into_vec();
        assert!(std::ptr::eq(ptr, v.as_ptr()));
    }
}
