//! Values as cty has them: typed nulls and unknowns, primitives,
//! collections and structurals.

use super::number::Number;
use super::shared::{Elements, Entries};
use super::types::Type;
use smol_str::SmolStr;
use std::cmp::Ordering;
use unicode_normalization::UnicodeNormalization;

/// `s` normalised to NFC, as cty keeps strings.
pub(crate) fn nfc(s: &str) -> String {
    if s.is_ascii() {
        s.to_string()
    } else {
        s.nfc().collect()
    }
}

/// A value.
///
/// ```
/// use hclwright::eval::{Type, Value};
/// let v = Value::list(Type::String, vec![Value::string("a"), Value::string("b")]);
/// assert_eq!(v.ty(), Type::list(Type::String));
/// assert_eq!(Value::set(Type::Number, vec![Value::int(2), Value::int(1), Value::int(2)]).len(), Some(2));
/// ```
#[derive(Debug)]
// A whole word for the variant's tag: a value is then built with word
// stores and moved with word loads that line up with them. With a byte
// tag, a move copies the bytes after the tag at odd offsets, and reading
// them so soon after they were written stalls the processor (measured on
// `compare --bin eval`'s kinds: tuples 0.96x -> 1.11x hcl-rs, literals
// 1.22x -> 1.50x, objects 1.07x -> 1.21x). The size is the same.
#[repr(u64)]
pub enum Value {
    /// A null of the given type.
    Null(Type),
    /// A value not known until apply, of the given type.
    Unknown(Type),
    /// A bool.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string (NFC-normalised). Cheap to clone (every variable read,
    /// every literal evaluated): up to 23 bytes are kept inline, longer
    /// text is shared.
    String(SmolStr),
    /// A list: element type and elements.
    List(Type, Elements),
    /// A set: element type and elements, distinct and in cty's order.
    Set(Type, Elements),
    /// A map: element type and elements by key.
    Map(Type, Entries),
    /// A tuple.
    Tuple(Elements),
    /// An object.
    Object(Entries),
    /// A value marked sensitive (printed `(sensitive value)`); operations
    /// on it give sensitive results, as Terraform's marks do.
    Sensitive(Box<Value>),
}

impl Clone for Value {
    #[inline]
    fn clone(&self) -> Value {
        match self {
            Value::Null(t) | Value::Unknown(t) if t.is_primitive_or_dynamic() => {
                // SAFETY: these variants own nothing on the heap (their
                // type has no boxed parts), so a bitwise copy is a clone.
                // Copied whole, the value moves on as wide words, which the
                // derived field-by-field clone does not allow (the next
                // move of a value built from narrow stores stalls).
                unsafe { std::ptr::read(self) }
            }
            Value::Bool(_) => unsafe {
                // SAFETY: as above; a bool owns nothing.
                std::ptr::read(self)
            },
            _ => self.clone_owned(),
        }
    }
}

impl Value {
    /// The clone of a value that owns heap parts.
    #[inline]
    fn clone_owned(&self) -> Value {
        match self {
            Value::Null(t) => Value::Null(t.clone()),
            Value::Unknown(t) => Value::Unknown(t.clone()),
            Value::Bool(b) => Value::Bool(*b),
            Value::Number(n) => Value::Number(n.clone()),
            Value::String(s) => Value::String(s.clone()),
            Value::List(t, items) => Value::List(t.clone(), items.clone()),
            Value::Set(t, items) => Value::Set(t.clone(), items.clone()),
            Value::Map(t, items) => Value::Map(t.clone(), items.clone()),
            Value::Tuple(items) => Value::Tuple(items.clone()),
            Value::Object(items) => Value::Object(items.clone()),
            Value::Sensitive(v) => Value::Sensitive(v.clone()),
        }
    }
}

impl Value {
    /// A string, normalised to NFC as cty does.
    pub fn string(s: impl AsRef<str>) -> Value {
        let s = s.as_ref();
        if s.is_ascii() {
            // Already in normal form C; a short one is kept inline.
            return Value::String(SmolStr::new(s));
        }
        Value::String(nfc(s).into())
    }

    /// A whole number.
    pub fn int(v: i64) -> Value {
        Value::Number(Number::from_i64(v))
    }

    /// A list of `element` values (each already of that type).
    pub fn list(element: Type, items: Vec<Value>) -> Value {
        Value::List(element, items.into())
    }

    /// A set: duplicates removed, elements in cty's order.
    pub fn set(element: Type, mut items: Vec<Value>) -> Value {
        items.sort_by(set_order);
        items.dedup_by(|a, b| a.raw_equals(b));
        Value::Set(element, items.into())
    }

    /// The value's type.
    pub fn ty(&self) -> Type {
        match self {
            Value::Null(t) | Value::Unknown(t) => t.clone(),
            Value::Sensitive(v) => v.ty(),
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::List(t, _) => Type::list(t.clone()),
            Value::Set(t, _) => Type::set(t.clone()),
            Value::Map(t, _) => Type::map(t.clone()),
            Value::Tuple(items) => Type::Tuple(items.iter().map(Value::ty).collect()),
            Value::Object(attrs) => {
                Type::Object(attrs.iter().map(|(k, v)| (k.to_string(), v.ty())).collect())
            }
        }
    }

    /// Whether the value's type is [`Type::Dynamic`] (`self.ty() ==
    /// Type::Dynamic`, without building the type of a collection).
    pub(crate) fn has_dynamic_type(&self) -> bool {
        match self {
            Value::Null(t) | Value::Unknown(t) => *t == Type::Dynamic,
            Value::Sensitive(v) => v.has_dynamic_type(),
            _ => false,
        }
    }

    /// Whether the value is null.
    pub fn is_null(&self) -> bool {
        match self {
            Value::Sensitive(v) => v.is_null(),
            v => matches!(v, Value::Null(_)),
        }
    }

    /// Whether the value itself is known (its elements may not be).
    pub fn is_known(&self) -> bool {
        match self {
            Value::Sensitive(v) => v.is_known(),
            v => !matches!(v, Value::Unknown(_)),
        }
    }

    /// The value marked sensitive (once).
    pub fn sensitive(self) -> Value {
        match self {
            v @ Value::Sensitive(_) => v,
            v => Value::Sensitive(Box::new(v)),
        }
    }

    /// The value marked sensitive when `yes`.
    pub fn mark_if(self, yes: bool) -> Value {
        if yes { self.sensitive() } else { self }
    }

    /// Whether the value itself is marked sensitive.
    pub fn is_sensitive(&self) -> bool {
        matches!(self, Value::Sensitive(_))
    }

    /// The value without its own sensitive mark, and whether it had one.
    pub fn unmarked(&self) -> (&Value, bool) {
        match self {
            Value::Sensitive(v) => (v, true),
            v => (v, false),
        }
    }

    /// Whether the value or anything inside it is marked sensitive.
    pub fn contains_sensitive(&self) -> bool {
        match self {
            Value::Sensitive(_) => true,
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                items.iter().any(Value::contains_sensitive)
            }
            Value::Map(_, items) | Value::Object(items) => {
                items.values().any(Value::contains_sensitive)
            }
            _ => false,
        }
    }

    /// The value with every sensitive mark removed, inside too.
    pub fn unmarked_deep(&self) -> Value {
        match self {
            Value::Sensitive(v) => v.unmarked_deep(),
            Value::List(t, items) => {
                Value::List(t.clone(), items.iter().map(Value::unmarked_deep).collect())
            }
            Value::Set(t, items) => {
                Value::Set(t.clone(), items.iter().map(Value::unmarked_deep).collect())
            }
            Value::Tuple(items) => Value::Tuple(items.iter().map(Value::unmarked_deep).collect()),
            Value::Map(t, items) => Value::Map(
                t.clone(),
                items
                    .iter()
                    .map(|(k, v)| (k.clone(), v.unmarked_deep()))
                    .collect(),
            ),
            Value::Object(items) => Value::Object(
                items
                    .iter()
                    .map(|(k, v)| (k.clone(), v.unmarked_deep()))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// Whether the value and everything inside it is known.
    pub fn is_wholly_known(&self) -> bool {
        match self {
            Value::Unknown(_) => false,
            Value::Sensitive(v) => v.is_wholly_known(),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                items.iter().all(Value::is_wholly_known)
            }
            Value::Map(_, items) | Value::Object(items) => {
                items.values().all(Value::is_wholly_known)
            }
            _ => true,
        }
    }

    /// The number of elements of a collection or structural value.
    pub fn len(&self) -> Option<usize> {
        match self {
            Value::Sensitive(v) => v.len(),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => Some(items.len()),
            Value::Map(_, items) | Value::Object(items) => Some(items.len()),
            _ => None,
        }
    }

    /// Whether a collection or structural value has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// The string, when this is a known string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Sensitive(v) => v.as_str(),
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of a list, set or tuple, in order.
    pub fn elements(&self) -> Option<&[Value]> {
        match self {
            Value::Sensitive(v) => v.elements(),
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => Some(items),
            _ => None,
        }
    }

    /// The entries of a map or object, by key.
    pub fn entries(&self) -> Option<&Entries> {
        match self {
            Value::Sensitive(v) => v.entries(),
            Value::Map(_, items) | Value::Object(items) => Some(items),
            _ => None,
        }
    }

    /// Identity as cty's `RawEquals`: same type, same content (unknowns
    /// equal unknowns of the same type).
    pub fn raw_equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Sensitive(a), Value::Sensitive(b)) => a.raw_equals(b),
            (Value::Null(a), Value::Null(b)) | (Value::Unknown(a), Value::Unknown(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::List(ta, a), Value::List(tb, b)) | (Value::Set(ta, a), Value::Set(tb, b)) => {
                ta == tb && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Map(ta, a), Value::Map(tb, b)) => ta == tb && entries_raw_equal(a, b),
            (Value::Object(a), Value::Object(b)) => entries_raw_equal(a, b),
            _ => false,
        }
    }

    /// Equality as the `==` operator sees it: `Unknown(bool)` when the
    /// answer depends on an unknown, `false` across different types.
    pub fn equals(&self, other: &Value) -> Value {
        if self.contains_sensitive() || other.contains_sensitive() {
            return self
                .unmarked_deep()
                .equals(&other.unmarked_deep())
                .sensitive();
        }
        match (self, other) {
            (Value::Unknown(_), _) | (_, Value::Unknown(_)) => Value::Unknown(Type::Bool),
            (Value::Null(_), Value::Null(_)) => Value::Bool(true),
            (Value::Null(_), _) | (_, Value::Null(_)) => Value::Bool(false),
            _ if self.ty() != other.ty() => Value::Bool(false),
            (Value::Bool(a), Value::Bool(b)) => Value::Bool(a == b),
            (Value::Number(a), Value::Number(b)) => Value::Bool(a == b),
            (Value::String(a), Value::String(b)) => Value::Bool(a == b),
            (Value::Set(_, a), Value::Set(_, b)) => {
                if !self.is_wholly_known() || !other.is_wholly_known() {
                    return Value::Unknown(Type::Bool);
                }
                Value::Bool(a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.raw_equals(y)))
            }
            (Value::List(_, a), Value::List(_, b)) | (Value::Tuple(a), Value::Tuple(b)) => {
                if a.len() != b.len() {
                    return Value::Bool(false);
                }
                all_equal(a.iter().zip(b))
            }
            (Value::Map(_, a), Value::Map(_, b)) | (Value::Object(a), Value::Object(b)) => {
                if a.len() != b.len() || a.keys().zip(b.keys()).any(|(x, y)| x != y) {
                    return Value::Bool(false);
                }
                all_equal(a.values().zip(b.values()))
            }
            _ => Value::Bool(false),
        }
    }
}

fn entries_raw_equal(a: &Entries, b: &Entries) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && va.raw_equals(vb))
}

fn all_equal<'a>(pairs: impl Iterator<Item = (&'a Value, &'a Value)>) -> Value {
    let mut unknown = false;
    for (x, y) in pairs {
        match x.equals(y) {
            Value::Bool(false) => return Value::Bool(false),
            Value::Unknown(_) => unknown = true,
            _ => {}
        }
    }
    if unknown {
        Value::Unknown(Type::Bool)
    } else {
        Value::Bool(true)
    }
}

/// The order of a set's elements, as cty lists them: nulls and unknowns
/// last, strings by bytes, numbers by value, `false` before `true`, other
/// types by a canonical rendering.
pub fn set_order(a: &Value, b: &Value) -> Ordering {
    let (a, b) = (a.unmarked().0, b.unmarked().0);
    if a.raw_equals(b) {
        return Ordering::Equal;
    }
    match (a.is_null(), b.is_null()) {
        (false, true) => return Ordering::Less,
        (true, _) => return Ordering::Greater,
        _ => {}
    }
    match (a.is_known(), b.is_known()) {
        (true, false) => return Ordering::Less,
        (false, _) => return Ordering::Greater,
        _ => {}
    }
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Number(x), Value::Number(y)) => x.cmp_value(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => set_key(a).cmp(&set_key(b)),
    }
}

/// A rendering that tells distinct values apart, as cty orders complex
/// set elements.
fn set_key(v: &Value) -> Vec<u8> {
    let mut out = String::new();
    write_set_key(v, &mut out);
    out.into_bytes()
}

fn write_set_key(v: &Value, out: &mut String) {
    match v {
        Value::Sensitive(inner) => write_set_key(inner, out),
        Value::Unknown(_) => out.push('?'),
        Value::Null(_) => out.push('~'),
        Value::Number(n) => out.push_str(&n.text('g', 10)),
        Value::Bool(b) => out.push(if *b { 'T' } else { 'F' }),
        Value::String(s) => out.push_str(&super::display::go_quote(s)),
        Value::Map(_, items) => {
            out.push('{');
            for (k, v) in items {
                out.push_str(&super::display::go_quote(k));
                out.push(':');
                write_set_key(v, out);
                out.push(';');
            }
            out.push('}');
        }
        Value::List(_, items) | Value::Set(_, items) => {
            out.push('[');
            for v in items {
                write_set_key(v, out);
                out.push(';');
            }
            out.push(']');
        }
        Value::Object(items) => {
            out.push('<');
            for v in items.values() {
                write_set_key(v, out);
                out.push(';');
            }
            out.push('>');
        }
        Value::Tuple(items) => {
            out.push('<');
            for v in items {
                write_set_key(v, out);
                out.push(';');
            }
            out.push('>');
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.raw_equals(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-sized tag costs no space: a value, and an optional one
    /// (which keeps its place in the tag's unused values), are seven words.
    #[test]
    fn a_value_is_seven_words() {
        assert_eq!(std::mem::size_of::<Value>(), 56);
        assert_eq!(std::mem::size_of::<Option<Value>>(), 56);
        assert_eq!(std::mem::size_of::<Result<Value, *const u8>>(), 56);
    }
}
