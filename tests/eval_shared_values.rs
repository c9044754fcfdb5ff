//! Collection values share their parts between clones (`Elements`,
//! `Entries`): a clone is a count, a write copies first, and an object's
//! entries (a vector sorted by key) behave as the `BTreeMap` they replace.

use hclwright::eval::{CompiledExpr, Elements, Entries, EvalContext, SmolStr, Value, evaluate_str};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::Duration;

/// One operation on a map, applied to `Entries` and to a `BTreeMap`.
#[derive(Debug, Clone)]
enum Op {
    Insert(u8, i64),
    Remove(u8),
    Extend(Vec<(u8, i64)>),
    /// A clone taken, then written to: the original must not change.
    CloneAndInsert(u8, i64),
}

fn key(k: u8) -> SmolStr {
    // Keys of different lengths, so the order is by bytes, not by length.
    SmolStr::new(format!("{}{}", (b'a' + k % 7) as char, k))
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<u8>(), any::<i64>()).prop_map(|(k, v)| Op::Insert(k % 40, v)),
        any::<u8>().prop_map(|k| Op::Remove(k % 40)),
        prop::collection::vec((any::<u8>(), any::<i64>()), 0..8)
            .prop_map(|v| Op::Extend(v.into_iter().map(|(k, x)| (k % 40, x)).collect())),
        (any::<u8>(), any::<i64>()).prop_map(|(k, v)| Op::CloneAndInsert(k % 40, v)),
    ]
}

fn same(entries: &Entries, model: &BTreeMap<SmolStr, Value>) -> bool {
    entries.len() == model.len()
        && entries.iter().eq(model.iter())
        && model.iter().all(|(k, v)| entries.get(k) == Some(v))
}

proptest! {
    #[test]
    fn entries_behave_as_a_btreemap(
        start in prop::collection::vec((any::<u8>(), any::<i64>()), 0..30),
        ops in prop::collection::vec(op(), 0..40),
    ) {
        let pairs: Vec<(SmolStr, Value)> =
            start.iter().map(|&(k, v)| (key(k % 40), Value::int(v))).collect();
        let mut model: BTreeMap<SmolStr, Value> = BTreeMap::new();
        for (k, v) in pairs.clone() {
            model.insert(k, v);
        }
        let mut entries: Entries = pairs.into_iter().collect();
        prop_assert!(same(&entries, &model));
        for op in ops {
            match op {
                Op::Insert(k, v) => {
                    prop_assert_eq!(
                        entries.insert(key(k), Value::int(v)),
                        model.insert(key(k), Value::int(v))
                    );
                }
                Op::Remove(k) => {
                    prop_assert_eq!(entries.remove(&key(k)), model.remove(&key(k)));
                }
                Op::Extend(items) => {
                    let items: Vec<_> = items.into_iter().map(|(k, v)| (key(k), Value::int(v))).collect();
                    entries.extend(items.clone());
                    model.extend(items);
                }
                Op::CloneAndInsert(k, v) => {
                    let before = model.clone();
                    let mut copy = entries.clone();
                    copy.insert(key(k), Value::int(v));
                    prop_assert!(same(&entries, &before));
                }
            }
            prop_assert!(same(&entries, &model));
        }
        prop_assert!(entries.keys().zip(entries.keys().skip(1)).all(|(a, b)| a < b));
        prop_assert_eq!(entries.into_map(), model);
    }
}

/// An object constructor of 200 000 keys in descending order evaluates
/// (its pairs are sorted once; inserting each in order would move the
/// whole vector for every key, hours of copying) and keeps the last value
/// of a repeated key. The guard only detects a hang.
#[test]
fn a_large_object_in_reverse_order_is_sorted_once() {
    const N: usize = 200_000;
    let mut text = String::from("{\n");
    for i in (0..N).rev() {
        text.push_str(&format!("  k{i:06} = {i}\n"));
    }
    text.push_str("  k000007 = \"last\"\n}\n");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let v = evaluate_str(&text, &EvalContext::new()).expect("evaluates");
        let entries = v.entries().expect("an object").clone();
        let _ = tx.send(entries);
    });
    let entries = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the object did not evaluate within 30 s");
    assert_eq!(entries.len(), N);
    assert_eq!(
        entries.first_key_value().map(|(k, _)| k.as_str()),
        Some("k000000")
    );
    assert_eq!(entries.get("k123456"), Some(&Value::int(123456)));
    assert_eq!(entries.get("k000007"), Some(&Value::string("last")));
}

/// Reading a variable, and evaluating a lowered constant, hands out the
/// value's parts without copying them.
#[test]
fn reading_a_value_shares_its_parts() {
    let items: Elements = (0..1000).map(Value::int).collect();
    let mut ctx = EvalContext::new();
    ctx.set_variable("big", Value::Tuple(items.clone()));
    let read = evaluate_str("big", &ctx).expect("evaluates");
    assert!(std::ptr::eq(
        read.elements().expect("a tuple").as_ptr(),
        items.as_ptr()
    ));

    let parse = hclwright::parse_expr(r#"{ a = [1, 2, 3], b = { c = "d" } }"#);
    let expr = parse
        .syntax()
        .descendants()
        .find_map(<hclwright::ast::Expr as hclwright::ast::AstNode>::cast)
        .expect("an expression");
    let compiled = CompiledExpr::new(&expr);
    let first = compiled.evaluate(&ctx).value;
    let second = compiled.evaluate(&ctx).value;
    let a = |v: &Value| {
        v.entries().expect("an object")["a"]
            .elements()
            .expect("a tuple")
            .as_ptr()
    };
    assert!(std::ptr::eq(a(&first), a(&second)));
    // Writing to one copy leaves the other as it was.
    let mut changed = first.entries().expect("an object").clone();
    changed.insert("e".into(), Value::Bool(true));
    assert_eq!(changed.len(), 3);
    assert_eq!(second.entries().expect("an object").len(), 2);
}
