//! Type conversion and unification, with cty's rules: safe conversions
//! (number or bool to string, tuple to list, object to map) and unsafe ones
//! (string to number or bool, list to set, map to object), and the
//! unification that picks one type for several values (`tolist([1, "a"])`
//! is a list of strings).

use super::shared::{Elements, Entries};
use super::types::Type;
use super::value::Value;
use std::collections::BTreeMap;

/// Why a value could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    /// Where inside the value the problem is, as `[0].name`; empty for the
    /// value itself.
    pub path: String,
    /// What was wrong, as cty words it (`a number is required`).
    pub message: String,
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

fn error(message: impl Into<String>) -> ConvertError {
    ConvertError {
        path: String::new(),
        message: message.into(),
    }
}

fn at(mut e: ConvertError, step: String) -> ConvertError {
    e.path = format!("{step}{}", e.path);
    e
}

fn step_index(i: usize) -> String {
    format!("[{i}]")
}

fn step_key(k: &str) -> String {
    format!("[{}]", super::display::go_quote(k))
}

fn step_attr(k: &str) -> String {
    format!(".{k}")
}

/// Converts `value` to `want` as cty's `convert.Convert` does (unsafe
/// conversions allowed).
///
/// ```
/// use hclwright::eval::{convert, console_string, Type, Value};
/// let t = Value::Tuple(vec![Value::int(1), Value::string("a")].into());
/// let l = convert(&t, &Type::list(Type::Dynamic)).unwrap();
/// assert_eq!(l.ty(), Type::list(Type::String));
/// ```
pub fn convert(value: &Value, want: &Type) -> Result<Value, ConvertError> {
    convert_with(value, want, true)
}

/// Converts with only the safe conversions when `unsafe_ok` is false.
pub fn convert_with(value: &Value, want: &Type, unsafe_ok: bool) -> Result<Value, ConvertError> {
    if let Value::Sensitive(inner) = value {
        return convert_with(inner, want, unsafe_ok).map(Value::sensitive);
    }
    if *want == Type::Dynamic {
        // Every value converts to `any` as it is: no need to build its
        // type (for an object, a copy of every attribute name).
        return Ok(value.clone());
    }
    let from = value.ty();
    if from == *want {
        return Ok(value.clone());
    }
    if !conversion_exists(&from, want, unsafe_ok) {
        return Err(error(mismatch_message(&from, want)));
    }
    convert_value(value, &from, want, unsafe_ok)
}

/// Whether a conversion from `from` to `to` exists.
pub fn conversion_exists(from: &Type, to: &Type, unsafe_ok: bool) -> bool {
    if from == to {
        return true;
    }
    match (from, to) {
        (_, Type::Dynamic) => true,
        (Type::Dynamic, _) => unsafe_ok,
        (a, b) if a.is_primitive() && b.is_primitive() => {
            *b == Type::String || (unsafe_ok && *a == Type::String)
        }
        (Type::Object(a), Type::Object(b)) => b.iter().all(|(k, bt)| {
            a.get(k)
                .is_some_and(|at| conversion_exists(at, bt, unsafe_ok))
        }),
        (Type::Tuple(a), Type::Tuple(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| conversion_exists(x, y, unsafe_ok))
        }
        (Type::List(e1) | Type::Set(e1), Type::List(e2)) => conversion_exists(e1, e2, unsafe_ok),
        (Type::List(e1), Type::Set(e2)) => unsafe_ok && conversion_exists(e1, e2, unsafe_ok),
        (Type::Set(e1), Type::Set(e2)) | (Type::Map(e1), Type::Map(e2)) => {
            conversion_exists(e1, e2, unsafe_ok)
        }
        (Type::Tuple(es), Type::List(e) | Type::Set(e)) => {
            sequence_element(es, e, unsafe_ok).is_some()
        }
        (Type::Object(attrs), Type::Map(e)) => {
            let tys: Vec<Type> = attrs.values().cloned().collect();
            map_element(&tys, e, unsafe_ok).is_some()
        }
        (Type::Map(e), Type::Object(attrs)) => {
            unsafe_ok && attrs.values().all(|at| conversion_exists(e, at, unsafe_ok))
        }
        _ => false,
    }
}

/// The element type a tuple of `elements` converts to for a list or set
/// of `want`, when it can.
fn sequence_element(elements: &[Type], want: &Type, unsafe_ok: bool) -> Option<Type> {
    if elements.is_empty() {
        return Some(want.clone());
    }
    let ety = if *want == Type::Dynamic {
        let u = unify_with(elements, unsafe_ok)?;
        if u == Type::Dynamic && elements.iter().any(|t| *t != Type::Dynamic) {
            return None;
        }
        u
    } else {
        want.clone()
    };
    elements
        .iter()
        .all(|t| conversion_exists(t, &ety, unsafe_ok))
        .then_some(ety)
}

fn map_element(attrs: &[Type], want: &Type, unsafe_ok: bool) -> Option<Type> {
    if attrs.is_empty() {
        return Some(want.clone());
    }
    let ety = if *want == Type::Dynamic {
        unify_with(attrs, unsafe_ok)?
    } else {
        want.clone()
    };
    attrs
        .iter()
        .all(|t| conversion_exists(t, &ety, unsafe_ok))
        .then_some(ety)
}

fn convert_value(
    value: &Value,
    from: &Type,
    to: &Type,
    unsafe_ok: bool,
) -> Result<Value, ConvertError> {
    if from == to || *to == Type::Dynamic {
        return Ok(value.clone());
    }
    if let Value::Sensitive(inner) = value {
        return convert_value(inner, from, to, unsafe_ok).map(Value::sensitive);
    }
    match value {
        Value::Unknown(t) => return Ok(Value::Unknown(dynamic_replace(t, to))),
        Value::Null(t) => return Ok(Value::Null(dynamic_replace(t, to))),
        _ => {}
    }
    if *from == Type::Dynamic {
        return convert_with(value, to, unsafe_ok);
    }
    let sub = |v: &Value, t: &Type| -> Result<Value, ConvertError> {
        let vt = v.ty();
        if vt == *t {
            Ok(v.clone())
        } else {
            convert_value(v, &vt, t, unsafe_ok)
        }
    };
    match (value, to) {
        (Value::Number(n), Type::String) => Ok(Value::String(n.to_string().into())),
        (Value::Bool(b), Type::String) => Ok(Value::string(if *b { "true" } else { "false" })),
        (Value::String(s), Type::Number) => super::number::Number::parse(s)
            .map(Value::Number)
            .ok_or_else(|| error("a number is required")),
        (Value::String(s), Type::Bool) => match &**s {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            other => Err(error(match other.to_lowercase().as_str() {
                "true" => "a bool is required; to convert from string, use lowercase \"true\"",
                "false" => "a bool is required; to convert from string, use lowercase \"false\"",
                _ => "a bool is required",
            })),
        },
        (Value::Object(attrs), Type::Object(want)) => {
            // In the type's order, which is the keys' order: each insert
            // appends.
            let mut out = Entries::new();
            for (k, t) in want {
                let (name, v) = attrs
                    .get_key_value(k.as_str())
                    .ok_or_else(|| error(mismatch_message(from, to)))?;
                out.insert(name.clone(), sub(v, t).map_err(|e| at(e, step_attr(k)))?);
            }
            Ok(Value::Object(out))
        }
        (Value::Tuple(items), Type::Tuple(want)) => {
            let mut out = Elements::with_capacity(items.len());
            for (i, (v, t)) in items.iter().zip(want).enumerate() {
                out.push(sub(v, t).map_err(|e| at(e, step_index(i)))?);
            }
            Ok(Value::Tuple(out))
        }
        (Value::List(ety, items) | Value::Set(ety, items), Type::List(e) | Type::Set(e)) => {
            let mut out = Elements::with_capacity(items.len());
            for (i, v) in items.iter().enumerate() {
                out.push(sub(v, e).map_err(|e| at(e, step_index(i)))?);
            }
            let elem = element_type_of(&out, || dynamic_replace(ety, e));
            Ok(sequence(to, elem, out))
        }
        (Value::Tuple(items), Type::List(e) | Type::Set(e)) => {
            let tys: Vec<Type> = items.iter().map(Value::ty).collect();
            let ety = sequence_element(&tys, e, unsafe_ok)
                .ok_or_else(|| error(mismatch_message(from, to)))?;
            let mut out = Elements::with_capacity(items.len());
            for (i, v) in items.iter().enumerate() {
                out.push(sub(v, &ety).map_err(|e| at(e, step_index(i)))?);
            }
            let out = unify_elements(out, unsafe_ok)?;
            let elem = element_type_of(&out, || ety.clone());
            Ok(sequence(to, elem, out))
        }
        (Value::Map(ety, items), Type::Map(e)) => {
            let mut out = Entries::new();
            for (k, v) in items {
                out.insert(k.clone(), sub(v, e).map_err(|e| at(e, step_key(k)))?);
            }
            let out = unify_entries(out, unsafe_ok)?;
            let elem = entry_type_of(&out, || dynamic_replace(ety, e));
            Ok(Value::Map(elem, out))
        }
        (Value::Object(attrs), Type::Map(e)) => {
            let tys: Vec<Type> = attrs.values().map(Value::ty).collect();
            let ety =
                map_element(&tys, e, unsafe_ok).ok_or_else(|| error(mismatch_message(from, to)))?;
            let mut out = Entries::new();
            for (k, v) in attrs {
                out.insert(k.clone(), sub(v, &ety).map_err(|e| at(e, step_key(k)))?);
            }
            let out = unify_entries(out, unsafe_ok)?;
            let elem = entry_type_of(&out, || ety.clone());
            Ok(Value::Map(elem, out))
        }
        (Value::Map(_, items), Type::Object(want)) => {
            let mut out = BTreeMap::new();
            for (k, t) in want {
                let Some((name, v)) = items.get_key_value(k.as_str()) else {
                    return Err(error(format!(
                        "map has no element for required attribute {}",
                        super::display::go_quote(k)
                    )));
                };
                out.insert(name.clone(), sub(v, t).map_err(|e| at(e, step_key(k)))?);
            }
            Ok(Value::Object(out.into()))
        }
        _ => Err(error(mismatch_message(from, to))),
    }
}

fn sequence(to: &Type, elem: Type, items: Elements) -> Value {
    match to {
        Type::Set(_) => Value::set(elem, items.into_vec()),
        _ => Value::List(elem, items),
    }
}

fn element_type_of(items: &[Value], empty: impl FnOnce() -> Type) -> Type {
    items
        .iter()
        .map(Value::ty)
        .find(|t| *t != Type::Dynamic)
        .or_else(|| items.first().map(Value::ty))
        .unwrap_or_else(empty)
}

fn entry_type_of(items: &Entries, empty: impl FnOnce() -> Type) -> Type {
    items
        .values()
        .map(Value::ty)
        .find(|t| *t != Type::Dynamic)
        .or_else(|| items.values().next().map(Value::ty))
        .unwrap_or_else(empty)
}

/// Converts list elements to one type when their types still differ
/// (element types with `dynamic` inside).
fn unify_elements(items: Elements, unsafe_ok: bool) -> Result<Elements, ConvertError> {
    let tys: Vec<Type> = items.iter().map(Value::ty).collect();
    if tys.windows(2).all(|w| w[0] == w[1]) {
        return Ok(items);
    }
    let Some(ty) = unify_with(&tys, unsafe_ok) else {
        return Err(error("elements must all have the same type"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| convert_with(v, &ty, unsafe_ok).map_err(|e| at(e, step_index(i))))
        .collect()
}

fn unify_entries(items: Entries, unsafe_ok: bool) -> Result<Entries, ConvertError> {
    let tys: Vec<Type> = items.values().map(Value::ty).collect();
    if tys.windows(2).all(|w| w[0] == w[1]) {
        return Ok(items);
    }
    let Some(ty) = unify_with(&tys, unsafe_ok) else {
        return Err(error("elements must all have the same type"));
    };
    items
        .into_iter()
        .map(|(k, v)| {
            let c = convert_with(&v, &ty, unsafe_ok).map_err(|e| at(e, step_key(&k)))?;
            Ok((k, c))
        })
        .collect()
}

/// The type a null or unknown of type `from` takes when converted to `to`:
/// `to`, with its `dynamic` parts filled from `from`.
fn dynamic_replace(from: &Type, to: &Type) -> Type {
    if *from == Type::Dynamic {
        return to.clone();
    }
    match to {
        Type::Dynamic => from.clone(),
        t if t.is_primitive() => t.clone(),
        Type::Map(e) => match from {
            Type::Map(fe) => Type::map(dynamic_replace(fe, e)),
            Type::Object(attrs) => {
                let tys: Vec<Type> = attrs.values().cloned().collect();
                let u = unify_with(&tys, true).unwrap_or(Type::Dynamic);
                Type::map(dynamic_replace(&u, e))
            }
            _ => to.clone(),
        },
        Type::Object(want) => Type::Object(
            want.iter()
                .map(|(k, t)| {
                    let r = match from {
                        Type::Map(fe) => dynamic_replace(fe, t),
                        Type::Object(fa) => match fa.get(k) {
                            Some(ft) => dynamic_replace(ft, t),
                            None => t.clone(),
                        },
                        _ => t.clone(),
                    };
                    (k.clone(), r)
                })
                .collect(),
        ),
        Type::Set(e) | Type::List(e) => {
            let inner = match from {
                Type::Set(fe) | Type::List(fe) => dynamic_replace(fe, e),
                Type::Tuple(es) => {
                    let u = unify_with(es, true).unwrap_or(Type::Dynamic);
                    dynamic_replace(&u, e)
                }
                _ => return to.clone(),
            };
            if matches!(to, Type::Set(_)) {
                Type::set(inner)
            } else {
                Type::list(inner)
            }
        }
        Type::Tuple(want) => Type::Tuple(
            want.iter()
                .enumerate()
                .map(|(i, t)| match from {
                    Type::Tuple(fs) => fs.get(i).map_or(t.clone(), |f| dynamic_replace(f, t)),
                    _ => t.clone(),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// One type that all of `types` convert to, with unsafe conversions, as
/// cty's `UnifyUnsafe`; `None` when there is none.
pub fn unify(types: &[Type]) -> Option<Type> {
    unify_with(types, true)
}

/// [`unify`], with only safe conversions when `unsafe_ok` is false.
pub fn unify_with(types: &[Type], unsafe_ok: bool) -> Option<Type> {
    if types.is_empty() {
        return None;
    }
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let maps = count(|t| matches!(t, Type::Map(_)));
    let lists = count(|t| matches!(t, Type::List(_)));
    let sets = count(|t| matches!(t, Type::Set(_)));
    let objects = count(|t| matches!(t, Type::Object(_)));
    let tuples = count(|t| matches!(t, Type::Tuple(_)));
    let dynamics = count(|t| *t == Type::Dynamic);
    let n = types.len();
    if maps > 0 && maps + dynamics == n {
        return unify_collections(types, Type::map, unsafe_ok, dynamics > 0);
    } else if maps > 0 && maps + objects + dynamics == n {
        if let Some(t) = unify_via(
            types,
            unsafe_ok,
            |t| matches!(t, Type::Object(_)),
            |objs| unify_objects_to_map(objs, unsafe_ok),
        ) {
            return Some(t);
        }
    } else if lists > 0 && lists + dynamics == n {
        return unify_collections(types, Type::list, unsafe_ok, dynamics > 0);
    } else if lists > 0 && lists + tuples + dynamics == n {
        if let Some(t) = unify_via(
            types,
            unsafe_ok,
            |t| matches!(t, Type::Tuple(_)),
            |tuples| unify_tuples_to_list(tuples, unsafe_ok),
        ) {
            return Some(t);
        }
    } else if sets > 0 && sets + dynamics == n {
        return unify_collections(types, Type::set, unsafe_ok, dynamics > 0);
    } else if objects > 0 && objects + dynamics == n {
        return unify_objects(types, unsafe_ok, dynamics > 0);
    } else if tuples > 0 && tuples + dynamics == n {
        return unify_tuples(types, unsafe_ok, dynamics > 0);
    } else if objects > 0 && tuples > 0 {
        return None;
    }
    for want in preference_order(types) {
        let want = &types[want];
        if types
            .iter()
            .all(|t| t == want || conversion_exists(t, want, unsafe_ok))
        {
            return Some(want.clone());
        }
    }
    None
}

/// Unifies the structural members (tuples or objects) to a collection
/// first, then everything.
fn unify_via(
    types: &[Type],
    unsafe_ok: bool,
    structural: fn(&Type) -> bool,
    first: impl FnOnce(&[Type]) -> Option<Type>,
) -> Option<Type> {
    let members: Vec<Type> = types.iter().filter(|t| structural(t)).cloned().collect();
    let collection = first(&members)?;
    let replaced: Vec<Type> = types
        .iter()
        .map(|t| {
            if structural(t) {
                collection.clone()
            } else {
                t.clone()
            }
        })
        .collect();
    let result = unify_with(&replaced, unsafe_ok)?;
    (std::mem::discriminant(&result) == std::mem::discriminant(&collection)).then_some(result)
}

fn all_convert(types: &[Type], to: &Type, unsafe_ok: bool) -> bool {
    types
        .iter()
        .all(|t| t == to || conversion_exists(t, to, unsafe_ok))
}

fn unify_collections(
    types: &[Type],
    make: fn(Type) -> Type,
    unsafe_ok: bool,
    has_dynamic: bool,
) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let elems: Vec<Type> = types
        .iter()
        .filter_map(|t| t.element_type().cloned())
        .collect();
    let ty = make(unify_with(&elems, unsafe_ok)?);
    all_convert(types, &ty, unsafe_ok).then_some(ty)
}

fn unify_objects(types: &[Type], unsafe_ok: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let attrs: Vec<&BTreeMap<String, Type>> = types
        .iter()
        .filter_map(|t| match t {
            Type::Object(a) => Some(a),
            _ => None,
        })
        .collect();
    let first = attrs[0];
    let same_names = attrs
        .iter()
        .all(|a| a.len() == first.len() && a.keys().all(|k| first.contains_key(k)));
    if !same_names {
        return unify_objects_to_map(types, unsafe_ok);
    }
    let mut out = BTreeMap::new();
    for name in first.keys() {
        let across: Vec<Type> = attrs.iter().map(|a| a[name].clone()).collect();
        out.insert(name.clone(), unify_with(&across, unsafe_ok)?);
    }
    let ty = Type::Object(out);
    if all_convert(types, &ty, unsafe_ok) {
        Some(ty)
    } else {
        unify_objects_to_map(types, unsafe_ok)
    }
}

fn unify_objects_to_map(types: &[Type], unsafe_ok: bool) -> Option<Type> {
    let attrs: Vec<Type> = types
        .iter()
        .flat_map(|t| match t {
            Type::Object(a) => a.values().cloned().collect(),
            _ => Vec::new(),
        })
        .collect();
    let ty = Type::map(unify_with(&attrs, unsafe_ok)?);
    all_convert(types, &ty, unsafe_ok).then_some(ty)
}

fn unify_tuples(types: &[Type], unsafe_ok: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let elems: Vec<&Vec<Type>> = types
        .iter()
        .filter_map(|t| match t {
            Type::Tuple(e) => Some(e),
            _ => None,
        })
        .collect();
    let first = elems[0];
    if elems.iter().any(|e| e.len() != first.len()) {
        return unify_tuples_to_list(types, unsafe_ok);
    }
    let mut out = Vec::with_capacity(first.len());
    for i in 0..first.len() {
        let across: Vec<Type> = elems.iter().map(|e| e[i].clone()).collect();
        out.push(unify_with(&across, unsafe_ok)?);
    }
    let ty = Type::Tuple(out);
    if all_convert(types, &ty, unsafe_ok) {
        Some(ty)
    } else {
        unify_tuples_to_list(types, unsafe_ok)
    }
}

fn unify_tuples_to_list(types: &[Type], unsafe_ok: bool) -> Option<Type> {
    let elems: Vec<Type> = types
        .iter()
        .flat_map(|t| match t {
            Type::Tuple(e) => e.clone(),
            _ => Vec::new(),
        })
        .collect();
    let ty = Type::list(unify_with(&elems, unsafe_ok)?);
    all_convert(types, &ty, unsafe_ok).then_some(ty)
}

/// Positive when `a` is more general than `b` (cty's preference order).
fn more_general(a: &Type, b: &Type) -> i32 {
    use Type::*;
    match (a, b) {
        (Dynamic, Dynamic) => return 0,
        (Dynamic, _) => return -1,
        (_, Dynamic) => return 1,
        _ => {}
    }
    if a.is_primitive() && b.is_primitive() && (*a == String || *b == String) {
        return match (*a == String, *b == String) {
            (true, true) => 0,
            (true, false) => 1,
            _ => -1,
        };
    }
    match (a, b) {
        (List(x), List(y)) | (Set(x), Set(y)) | (Map(x), Map(y)) => return more_general(x, y),
        _ => {}
    }
    let (a, b, swap) = match (a, b) {
        (Tuple(_), List(_)) | (Object(_), Map(_)) | (Set(_), Tuple(_)) | (Set(_), List(_)) => {
            (b, a, -1)
        }
        _ => (a, b, 1),
    };
    match (a, b) {
        (Tuple(_) | List(_), Set(_)) | (List(_), Tuple(_)) | (Map(_), Object(_)) => return swap,
        _ => {}
    }
    let tally = |pairs: Vec<(&Type, &Type)>| {
        let (mut a_super, mut b_super) = (false, false);
        for (x, y) in pairs {
            match more_general(x, y) {
                c if c > 0 => a_super = true,
                c if c < 0 => b_super = true,
                _ => {}
            }
        }
        match (a_super, b_super) {
            (true, false) => swap,
            (false, true) => -swap,
            _ => 0,
        }
    };
    match (a, b) {
        (Object(x), Object(y)) => {
            if x.len() != y.len() || x.keys().any(|k| !y.contains_key(k)) {
                return 0;
            }
            tally(x.iter().map(|(k, t)| (t, &y[k])).collect())
        }
        (Tuple(x), Tuple(y)) => {
            if x.len() != y.len() {
                return 0;
            }
            tally(x.iter().zip(y).collect())
        }
        _ => 0,
    }
}

/// Indices of `types`, most general first (a topological order of the
/// "more general than" relation, ties in input order).
fn preference_order(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            match more_general(&types[i], &types[j]) {
                c if c > 0 => edges[i].push(j),
                c if c < 0 => edges[j].push(i),
                _ => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n];
    for outs in &edges {
        for &j in outs {
            in_degree[j] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| in_degree[i] == 0).collect();
    let mut next = 0;
    while next < order.len() {
        let i = order[next];
        next += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                order.push(j);
            }
        }
    }
    order
}

/// cty's message for a value of type `got` where `want` was required.
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    match (got, want) {
        (Type::Object(g), Type::Object(w)) => {
            let missing: Vec<&String> = w.keys().filter(|k| !g.contains_key(*k)).collect();
            match missing.len() {
                0 => {
                    for (k, wt) in w {
                        if !conversion_exists(&g[k], wt, true) {
                            return format!(
                                "attribute {}: {}",
                                go_quoted(k),
                                mismatch_message(&g[k], wt)
                            );
                        }
                    }
                    "incorrect object attributes".into()
                }
                1 => format!("attribute {} is required", go_quoted(missing[0])),
                _ => {
                    let names: Vec<String> = missing.iter().map(|k| go_quoted(k)).collect();
                    let (last, rest) = names.split_last().expect("two or more");
                    format!("attributes {} and {} are required", rest.join(", "), last)
                }
            }
        }
        (Type::Tuple(g), Type::Tuple(w)) if g.len() != w.len() => {
            format!("tuple required with exactly {} elements", w.len())
        }
        (_, Type::List(e)) | (_, Type::Set(e)) | (_, Type::Map(e))
            if matches!(
                (got, want),
                (Type::Tuple(_), Type::List(_) | Type::Set(_))
                    | (Type::Object(_), Type::Map(_))
                    | (Type::List(_), Type::List(_))
                    | (Type::Set(_), Type::Set(_) | Type::List(_))
                    | (Type::Map(_), Type::Map(_))
            ) =>
        {
            if e.as_ref() == &Type::Dynamic {
                "all elements must have the same type".into()
            } else {
                format!("{} required", want.friendly_name_for_constraint())
            }
        }
        _ => format!("{} required", want.friendly_name_for_constraint()),
    }
}

fn go_quoted(s: &str) -> String {
    super::display::go_quote(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::console_string;

    /// Values of every shape, sensitive or not, for the checks below.
    fn samples() -> Vec<Value> {
        let object: BTreeMap<crate::eval::SmolStr, Value> = [
            ("a".into(), Value::int(1)),
            ("b".into(), Value::Null(Type::Dynamic)),
        ]
        .into_iter()
        .collect();
        let plain = vec![
            Value::Null(Type::Dynamic),
            Value::Unknown(Type::Dynamic),
            Value::Null(Type::String),
            Value::Unknown(Type::list(Type::Dynamic)),
            Value::Bool(true),
            Value::int(3),
            Value::string("x"),
            Value::List(Type::Dynamic, vec![].into()),
            Value::List(Type::String, vec![Value::string("a")].into()),
            Value::Tuple(vec![Value::Null(Type::Dynamic), Value::int(1)].into()),
            Value::Map(
                Type::Number,
                [("k".into(), Value::int(1))].into_iter().collect(),
            ),
            Value::Object(object.clone().into()),
            Value::Object(
                [("o".into(), Value::Object(object.into()))]
                    .into_iter()
                    .collect(),
            ),
        ];
        let marked = plain.iter().map(|v| Value::sensitive(v.clone()));
        plain.iter().cloned().chain(marked).collect()
    }

    /// The shortcuts that skip building a value's type answer as building
    /// it would: `has_dynamic_type` and converting to `any`.
    #[test]
    fn shortcuts_agree_with_the_type() {
        for v in samples() {
            assert_eq!(v.has_dynamic_type(), v.ty() == Type::Dynamic, "{v:?}");
            let from = v.ty();
            let by_type = convert_value(&v, &from, &Type::Dynamic, true);
            assert_eq!(convert(&v, &Type::Dynamic), by_type, "{v:?}");
        }
    }

    #[test]
    fn tuple_to_list_unifies_to_string() {
        let t = Value::Tuple(vec![Value::int(1), Value::string("a")].into());
        let l = convert(&t, &Type::list(Type::Dynamic)).unwrap();
        assert_eq!(console_string(&l), "tolist([\n  \"1\",\n  \"a\",\n])");
    }

    #[test]
    fn unify_prefers_the_general_type() {
        assert_eq!(unify(&[Type::Number, Type::String]), Some(Type::String));
        assert_eq!(
            unify(&[Type::list(Type::Number), Type::Tuple(vec![Type::String])]),
            Some(Type::list(Type::String))
        );
        assert_eq!(
            unify(&[Type::Tuple(vec![]), Type::Object(BTreeMap::new())]),
            None
        );
    }

    #[test]
    fn string_to_bool_messages() {
        let e = convert(&Value::string("True"), &Type::Bool).unwrap_err();
        assert!(e.message.contains("lowercase"));
        assert_eq!(
            convert(&Value::string("1"), &Type::Bool).unwrap(),
            Value::Bool(true)
        );
    }
}
