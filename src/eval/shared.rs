//! The parts of collection values, shared between clones.
//!
//! cty's values are immutable: copying one copies a reference. Ours are
//! the same: a list's elements or an object's attributes sit behind a
//! reference count, so cloning a value (every variable read, every
//! constant of a lowered expression, every element taken out of a
//! collection) costs a count, however large the value. Writing through a
//! shared part first copies it, so a value is never changed through
//! another's clone.
//!
//! Both keep their count and their parts in one allocation (an
//! [`EcoVec`]), so a collection costs no more allocations than a `Vec`
//! would: an object's attributes are a vector sorted by key rather than
//! a `BTreeMap` (whose nodes would need a count of their own beside
//! them; measured, that extra allocation made evaluating objects from
//! the tree about a tenth slower).

use super::value::Value;
use ecow::EcoVec;
use smol_str::SmolStr;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Deref, DerefMut};

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

impl From<Vec<Value>> for Elements {
    /// The elements moved into a shared allocation (prefer collecting
    /// into [`Elements`] directly: that allocates once).
    #[inline]
    fn from(items: Vec<Value>) -> Elements {
        Elements(EcoVec::from(items))
    }
}

/// Collects `iter`, with room for at least [`FIRST_ROOM`] items once there
/// is one.
fn gather<T: Clone>(iter: impl IntoIterator<Item = T>) -> EcoVec<T> {
    let mut iter = iter.into_iter();
    let Some(first) = iter.next() else {
        return EcoVec::new();
    };
    let mut out = EcoVec::with_capacity(iter.size_hint().0.saturating_add(1).max(FIRST_ROOM));
    out.push(first);
    out.extend(iter);
    out
}

/// The room a vector of values starts with when its length is not known.
/// `EcoVec` starts elements this large at room for one, so ten pushes
/// grow it four times (1, 2, 4, 8, 16); `Vec` starts at four (two
/// growths), and so does this.
const FIRST_ROOM: usize = 4;

impl FromIterator<Value> for Elements {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Elements {
        Elements(gather(iter))
    }
}

impl Extend<Value> for Elements {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        self.0.extend(iter);
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

impl fmt::Debug for Elements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The attributes of a map or object, by key: entries sorted by key, in
/// one allocation shared between clones.
///
/// It has a map's reading methods (`get`, `keys`, `values`, iteration in
/// key order); writing to it copies the entries first when a clone shares
/// them. Built from an iterator, it keeps the last value given for a key,
/// as inserting them one by one would.
///
/// ```
/// use hclwright::eval::{Entries, Value};
/// let a: Entries = [("name".into(), Value::string("web"))].into_iter().collect();
/// let mut b = a.clone();
/// b.insert("port".into(), Value::int(80));
/// assert_eq!((a.len(), b.len()), (1, 2));
/// assert_eq!(b.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["name", "port"]);
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct Entries(EcoVec<(SmolStr, Value)>);

/// Key-value pairs gathered in any order, for [`Entries::from_pairs`].
pub(crate) type Pairs = EcoVec<(SmolStr, Value)>;

/// The entries of an [`Entries`] in key order, by reference.
pub type EntriesIter<'a> = std::iter::Map<
    std::slice::Iter<'a, (SmolStr, Value)>,
    fn(&'a (SmolStr, Value)) -> (&'a SmolStr, &'a Value),
>;

fn pair_ref(entry: &(SmolStr, Value)) -> (&SmolStr, &Value) {
    (&entry.0, &entry.1)
}

impl Entries {
    /// No entries.
    pub fn new() -> Entries {
        Entries::default()
    }

    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Where `key` is, or where it would go.
    #[inline]
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The value at `key`.
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    /// The key as stored and the value at `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&SmolStr, &Value)> {
        self.find(key).ok().map(|i| pair_ref(&self.0[i]))
    }

    /// Whether there is an entry at `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// The value at `key`, to change (the entries are copied first if a
    /// clone shares them).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.find(key).ok()?;
        Some(&mut self.0.make_mut()[i].1)
    }

    /// Sets `key` to `value`; the value it had, if any. Adding a key in
    /// the middle moves the entries after it: build large maps with
    /// [`collect`](Iterator::collect), which sorts once.
    pub fn insert(&mut self, key: SmolStr, value: Value) -> Option<Value> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0.make_mut()[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes the entry at `key`; its value, if there was one.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.find(key).ok()?;
        Some(self.0.remove(i).1)
    }

    /// The entries in key order.
    pub fn iter(&self) -> EntriesIter<'_> {
        let pair: fn(&(SmolStr, Value)) -> (&SmolStr, &Value) = pair_ref;
        self.0.iter().map(pair)
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &SmolStr> + ExactSizeIterator + Clone {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + Clone {
        self.0.iter().map(|(_, v)| v)
    }

    /// The values in key order, to change (the entries are copied first
    /// if a clone shares them).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> {
        self.0.make_mut().iter_mut().map(|(_, v)| v)
    }

    /// The first entry in key order.
    pub fn first_key_value(&self) -> Option<(&SmolStr, &Value)> {
        self.0.first().map(pair_ref)
    }

    /// The last entry in key order.
    pub fn last_key_value(&self) -> Option<(&SmolStr, &Value)> {
        self.0.last().map(pair_ref)
    }

    /// Keeps the entries for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&SmolStr, &mut Value) -> bool) {
        self.0.retain(|(k, v)| keep(k, v));
    }

    /// The entries as a `BTreeMap`.
    pub fn into_map(self) -> BTreeMap<SmolStr, Value> {
        self.into_iter().collect()
    }

    /// Entries from pairs in any order; for a key given twice, the last
    /// value (as inserting them one by one gives). Sorts once, so building
    /// a large object this way is never quadratic.
    pub(crate) fn from_pairs(mut pairs: Pairs) -> Entries {
        if pairs.windows(2).all(|w| w[0].0 < w[1].0) {
            return Entries(pairs);
        }
        // A stable sort keeps a key's pairs in the order given; of each
        // run of one key, the last is kept, moved down in place.
        let sorted = pairs.make_mut();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept = 0;
        for i in 0..sorted.len() {
            if i + 1 < sorted.len() && sorted[i + 1].0 == sorted[i].0 {
                continue;
            }
            sorted.swap(kept, i);
            kept += 1;
        }
        pairs.truncate(kept);
        Entries(pairs)
    }
}

impl std::ops::Index<&str> for Entries {
    type Output = Value;
    /// The value at `key`; panics if there is none.
    fn index(&self, key: &str) -> &Value {
        self.get(key).expect("no entry for the key")
    }
}

impl From<BTreeMap<SmolStr, Value>> for Entries {
    /// The map's entries, already in order: one allocation.
    fn from(items: BTreeMap<SmolStr, Value>) -> Entries {
        Entries(items.into_iter().collect())
    }
}

impl FromIterator<(SmolStr, Value)> for Entries {
    fn from_iter<I: IntoIterator<Item = (SmolStr, Value)>>(iter: I) -> Entries {
        Entries::from_pairs(gather(iter))
    }
}

impl Extend<(SmolStr, Value)> for Entries {
    /// Adds the pairs (a key given again takes the last value), sorting
    /// once per call.
    fn extend<I: IntoIterator<Item = (SmolStr, Value)>>(&mut self, iter: I) {
        let mut pairs = std::mem::take(&mut self.0);
        pairs.extend(iter);
        *self = Entries::from_pairs(pairs);
    }
}

impl IntoIterator for Entries {
    type Item = (SmolStr, Value);
    type IntoIter = ecow::vec::IntoIter<(SmolStr, Value)>;
    /// The entries by value in key order: moved out when no clone shares
    /// them, copied when one does.
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = (&'a SmolStr, &'a Value);
    type IntoIter = EntriesIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
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
    fn elements_write_as_a_vec_does_and_leave_clones_alone() {
        let ints = |e: &Elements| {
            e.iter()
                .map(|v| match v {
                    Value::Number(n) => n.to_i64(),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        let mut a: Elements = (0..6).map(Value::int).collect();
        let before = a.clone();
        a.insert(1, Value::int(10));
        assert_eq!(a.remove(2), Value::int(1));
        a.retain(|v| *v != Value::int(2));
        assert_eq!(a.pop(), Some(Value::int(5)));
        a.truncate(3);
        a[0] = Value::int(7);
        assert_eq!(ints(&a), [Some(7), Some(10), Some(3)]);
        assert_eq!(ints(&before), (0..6).map(Some).collect::<Vec<_>>());
    }

    #[test]
    fn taking_a_shared_part_leaves_the_other_clone_whole() {
        let a: Elements = vec![Value::int(1), Value::int(2)].into();
        let b = a.clone();
        assert_eq!(b.into_iter().count(), 2);
        assert_eq!(a.len(), 2);
        let c: Entries = [("k".into(), Value::int(1))].into_iter().collect();
        let d = c.clone();
        assert_eq!(d.into_map().len(), 1);
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn entries_built_from_pairs_are_sorted_and_keep_the_last_value() {
        let e: Entries = [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)]
            .into_iter()
            .map(|(k, v)| (SmolStr::new(k), Value::int(v)))
            .collect();
        let got: Vec<(String, Value)> = e.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        assert_eq!(
            got,
            [("a", 5), ("b", 3), ("c", 4)].map(|(k, v)| (k.to_string(), Value::int(v)))
        );
        let mut m = Entries::new();
        for (k, v) in [("b", 1), ("a", 2), ("b", 3)] {
            m.insert(k.into(), Value::int(v));
        }
        assert_eq!(m.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(m["b"], Value::int(3));
        assert_eq!(m.remove("a"), Some(Value::int(2)));
        assert_eq!(m.get("a"), None);
    }
}
