//! Collection functions: `alltrue anytrue chunklist coalesce coalescelist
//! compact concat contains distinct element flatten index keys length lookup
//! matchkeys merge one range reverse setintersection setproduct setsubtract
//! setunion slice sort sum transpose values zipmap`, with cty's result types.

use super::support::{Result, arg_error, int, items, n, num, p};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::convert::{convert, unify};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;
use smol_str::SmolStr;
use std::collections::BTreeMap;
use unicode_segmentation::UnicodeSegmentation;

fn any_param(name: &str) -> crate::eval::Param {
    p(name, Type::Dynamic)
}

fn is_sequence(t: &Type) -> bool {
    matches!(t, Type::List(_) | Type::Set(_) | Type::Tuple(_))
}

/// Adds the collection functions to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function(
        "length",
        Function::with_return_type(
            vec![
                any_param("value")
                    .allow_unknown()
                    .allow_dynamic()
                    .allow_marked(),
            ],
            |args| match args[0].ty() {
                Type::String | Type::Dynamic => Ok(Type::Number),
                t if t.is_collection() || matches!(t, Type::Tuple(_) | Type::Object(_)) => {
                    Ok(Type::Number)
                }
                _ => Err(arg_error(
                    0,
                    "argument must be a string, a collection type, or a structural type",
                )),
            },
            // A sensitive value has a sensitive length; sensitive elements
            // do not make the count sensitive.
            |args, _| match args[0].unmarked() {
                (v, true) => Ok(length_of(v)?.sensitive()),
                (v, false) => length_of(v),
            },
        ),
    );
    ctx.set_function(
        "element",
        Function::with_return_type(
            vec![any_param("list"), p("index", Type::Number)],
            |args| match args[0].ty() {
                Type::List(e) => Ok(*e),
                Type::Tuple(ts) => {
                    if ts.is_empty() {
                        return Err(FunctionError::new(
                            "cannot use element function with an empty list",
                        ));
                    }
                    let i = element_index(&args[1], ts.len())?;
                    Ok(ts[i].clone())
                }
                other => Err(FunctionError::new(format!(
                    "cannot read elements from {}",
                    other.friendly_name()
                ))),
            },
            |args, _| {
                let list = items(&args[0]);
                if list.is_empty() {
                    return Err(FunctionError::new(
                        "cannot use element function with an empty list",
                    ));
                }
                Ok(list[element_index(&args[1], list.len())?].clone())
            },
        ),
    );
    ctx.set_function(
        "concat",
        Function::with_return_type(
            vec![],
            |args| {
                if args.is_empty() {
                    return Err(FunctionError::new("at least one argument is required"));
                }
                let mut list_ty: Option<Type> = None;
                let mut all_lists = true;
                for (i, a) in args.iter().enumerate() {
                    match a.ty() {
                        Type::List(_) | Type::Set(_) => {}
                        Type::Tuple(_) => all_lists = false,
                        Type::Dynamic => return Ok(Type::Dynamic),
                        _ => {
                            return Err(arg_error(
                                i,
                                "all arguments must be lists or tuples; got ".to_string()
                                    + &a.ty().friendly_name(),
                            ));
                        }
                    }
                    if let Type::List(_) | Type::Set(_) = a.ty() {
                        let lt =
                            Type::list(a.ty().element_type().cloned().unwrap_or(Type::Dynamic));
                        match &list_ty {
                            None => list_ty = Some(lt),
                            Some(t) if *t == lt => {}
                            Some(_) => all_lists = false,
                        }
                    }
                }
                if all_lists {
                    return Ok(list_ty.unwrap_or(Type::Dynamic));
                }
                let mut tys = Vec::new();
                for a in args {
                    if !a.is_known() {
                        return Ok(Type::Dynamic);
                    }
                    match a {
                        Value::Tuple(xs) | Value::List(_, xs) | Value::Set(_, xs) => {
                            tys.extend(xs.iter().map(Value::ty))
                        }
                        _ => {}
                    }
                }
                Ok(Type::Tuple(tys))
            },
            |args, ret| {
                let all: Vec<Value> = args.iter().flat_map(|a| items(a).to_vec()).collect();
                match ret {
                    Type::List(e) => Ok(Value::List((**e).clone(), all.into())),
                    _ => Ok(Value::Tuple(all.into())),
                }
            },
        )
        .variadic(any_param("seqs")),
    );
    ctx.set_function(
        "contains",
        Function::new(
            vec![any_param("list"), any_param("value")],
            Type::Bool,
            |args, _| {
                if !is_sequence(&args[0].ty())
                    && !matches!(args[0].ty(), Type::Map(_) | Type::Object(_))
                {
                    return Err(arg_error(0, "argument must be list, tuple, or set"));
                }
                let all = items(&args[0])
                    .iter()
                    .chain(args[0].entries().into_iter().flat_map(|m| m.values()));
                Ok(any_true(all.map(|v| v.equals(&args[1]))))
            },
        ),
    );
    ctx.set_function(
        "distinct",
        Function::with_return_type(
            vec![p("list", Type::list(Type::Dynamic))],
            |args| Ok(args[0].ty()),
            |args, ret| {
                let mut out: Vec<Value> = Vec::new();
                for v in items(&args[0]) {
                    if !out.iter().any(|o| o.raw_equals(v)) {
                        out.push(v.clone());
                    }
                }
                Ok(Value::List(
                    ret.element_type().cloned().unwrap_or(Type::Dynamic),
                    out.into(),
                ))
            },
        ),
    );
    ctx.set_function(
        "flatten",
        Function::new(vec![any_param("list")], Type::Dynamic, |args, _| {
            if !is_sequence(&args[0].ty()) {
                return Err(FunctionError::new(
                    "can only flatten lists, sets and tuples",
                ));
            }
            let mut out = Vec::new();
            if !flatten_into(&args[0], &mut out) {
                return Ok(Value::Unknown(Type::Dynamic));
            }
            Ok(Value::Tuple(out.into()))
        }),
    );
    ctx.set_function(
        "keys",
        Function::with_return_type(
            vec![any_param("inputMap")],
            |args| match args[0].ty() {
                Type::Map(_) => Ok(Type::list(Type::String)),
                Type::Object(attrs) => Ok(Type::Tuple(vec![Type::String; attrs.len()])),
                Type::Dynamic => Ok(Type::Dynamic),
                _ => Err(arg_error(0, "must have map or object type")),
            },
            |args, ret| {
                let keys: Vec<Value> = args[0]
                    .entries()
                    .map(|m| m.keys().map(Value::string).collect())
                    .unwrap_or_default();
                Ok(match ret {
                    Type::List(_) => Value::List(Type::String, keys.into()),
                    _ => Value::Tuple(keys.into()),
                })
            },
        ),
    );
    ctx.set_function(
        "values",
        Function::with_return_type(
            vec![any_param("mapping")],
            |args| match args[0].ty() {
                Type::Map(e) => Ok(Type::List(e)),
                Type::Object(attrs) => Ok(Type::Tuple(attrs.into_values().collect())),
                Type::Dynamic => Ok(Type::Dynamic),
                _ => Err(arg_error(
                    0,
                    "values() requires a map as the first argument",
                )),
            },
            |args, ret| {
                let vals: Vec<Value> = args[0]
                    .entries()
                    .map(|m| m.values().cloned().collect())
                    .unwrap_or_default();
                Ok(match ret {
                    Type::List(e) => Value::List((**e).clone(), vals.into()),
                    _ => Value::Tuple(vals.into()),
                })
            },
        ),
    );
    ctx.set_function(
        "lookup",
        Function::with_return_type(
            vec![
                any_param("inputMap").allow_unknown(),
                p("key", Type::String).allow_unknown(),
            ],
            |args| {
                if args.len() > 3 {
                    return Err(FunctionError::new(format!(
                        "lookup() takes two or three arguments, got {}",
                        args.len()
                    )));
                }
                match args[0].ty() {
                    Type::Object(attrs) => {
                        let Some(key) = args[1].as_str() else {
                            return Ok(Type::Dynamic);
                        };
                        match (attrs.get(key), args.get(2)) {
                            (Some(t), _) => Ok(t.clone()),
                            (None, Some(d)) => Ok(d.ty()),
                            (None, None) => Err(arg_error(
                                0,
                                format!(
                                    "the given object has no attribute {}",
                                    crate::eval::go_quote(key)
                                ),
                            )),
                        }
                    }
                    Type::Map(e) => {
                        if let Some(d) = args.get(2)
                            && convert(d, &e).is_err()
                        {
                            return Err(arg_error(
                                2,
                                "the default value must have the same type as the map elements",
                            ));
                        }
                        Ok(*e)
                    }
                    _ => Err(arg_error(
                        0,
                        "lookup() requires a map as the first argument",
                    )),
                }
            },
            |args, ret| {
                let Some(key) = args[1].as_str() else {
                    return Ok(Value::Unknown(ret.clone()));
                };
                if !args[0].is_known() {
                    return Ok(Value::Unknown(ret.clone()));
                }
                if let Some(v) = args[0].entries().and_then(|m| m.get(key)) {
                    return Ok(v.clone());
                }
                match args.get(2) {
                    Some(d) => convert(d, ret).map_err(|e| FunctionError::new(e.to_string())),
                    None => Err(FunctionError::new(format!(
                        "lookup failed to find key {}",
                        crate::eval::go_quote(key)
                    ))),
                }
            },
        )
        .variadic(
            any_param("default")
                .allow_null()
                .allow_dynamic()
                .allow_unknown(),
        ),
    );
    ctx.set_function(
        "merge",
        Function::with_return_type(vec![], merge_type, |args, ret| {
            let mut out = BTreeMap::new();
            for a in args {
                if let Some(m) = a.entries() {
                    for (k, v) in m {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            match ret {
                Type::Map(e) => Ok(Value::Map((**e).clone(), out.into())),
                _ => Ok(Value::Object(out.into())),
            }
        })
        .variadic(any_param("maps").allow_null().allow_dynamic()),
    );
    ctx.set_function(
        "one",
        Function::with_return_type(
            vec![any_param("list")],
            |args| match args[0].ty() {
                Type::List(e) | Type::Set(e) => Ok(*e),
                Type::Tuple(ts) => match ts.len() {
                    0 => Ok(Type::Dynamic),
                    1 => Ok(ts[0].clone()),
                    _ => Err(arg_error(
                        0,
                        "must be a list, set, or tuple value with either zero or one elements",
                    )),
                },
                Type::Dynamic => Ok(Type::Dynamic),
                _ => Err(arg_error(
                    0,
                    "must be a list, set, or tuple value with either zero or one elements",
                )),
            },
            |args, ret| match items(&args[0]) {
                [] => Ok(Value::Null(ret.clone())),
                [one] => Ok(one.clone()),
                _ => Err(arg_error(
                    0,
                    "must be a list, set, or tuple value with either zero or one elements",
                )),
            },
        ),
    );
    ctx.set_function(
        "range",
        Function::new(vec![], Type::list(Type::Number), |args, _| {
            let (start, end, step) = match args.len() {
                1 => (Number::zero(), n(&args[0]), Number::from_i64(1)),
                2 => (n(&args[0]), n(&args[1]), Number::from_i64(1)),
                3 => (n(&args[0]), n(&args[1]), n(&args[2])),
                0 => return Err(FunctionError::new("must have one, two, or three arguments")),
                _ => return Err(FunctionError::new("must have one, two, or three arguments")),
            };
            let step = if args.len() < 3 && end.cmp_value(&start) == std::cmp::Ordering::Less {
                Number::from_i64(-1)
            } else {
                step
            };
            if step.is_zero() {
                return Err(FunctionError::new("step must not be zero"));
            }
            let down = step.is_negative();
            if down && start.cmp_value(&end) == std::cmp::Ordering::Less {
                return Err(FunctionError::new("for a negative step, the start value must be greater than or equal to the limit"));
            }
            if !down && start.cmp_value(&end) == std::cmp::Ordering::Greater {
                return Err(FunctionError::new("for a positive step, the start value must be less than or equal to the limit"));
            }
            let mut out = Vec::new();
            let mut x = start;
            loop {
                let cont = if down { x.cmp_value(&end) == std::cmp::Ordering::Greater } else { x.cmp_value(&end) == std::cmp::Ordering::Less };
                if !cont {
                    break;
                }
                if out.len() >= 1024 {
                    return Err(FunctionError::new("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step"));
                }
                out.push(Value::Number(x.clone()));
                x = x.add(&step).map_err(|_| FunctionError::new("invalid step"))?;
            }
            Ok(Value::List(Type::Number, out.into()))
        })
        .variadic(p("params", Type::Number)),
    );
    ctx.set_function(
        "reverse",
        Function::with_return_type(
            vec![any_param("list")],
            |args| match args[0].ty() {
                Type::Tuple(mut ts) => {
                    ts.reverse();
                    Ok(Type::Tuple(ts))
                }
                Type::List(e) | Type::Set(e) => Ok(Type::List(e)),
                Type::Dynamic => Ok(Type::Dynamic),
                _ => Err(arg_error(0, "can only reverse list or tuple values")),
            },
            |args, _| {
                let mut v = items(&args[0]).to_vec();
                v.reverse();
                Ok(match &args[0] {
                    Value::List(e, _) | Value::Set(e, _) => Value::List(e.clone(), v.into()),
                    _ => Value::Tuple(v.into()),
                })
            },
        ),
    );
    ctx.set_function(
        "slice",
        Function::with_return_type(
            vec![any_param("list"), p("start_index", Type::Number), p("end_index", Type::Number)],
            |args| match args[0].ty() {
                Type::List(e) => Ok(Type::List(e)),
                Type::Tuple(ts) => {
                    let (a, b) = slice_bounds(args, ts.len())?;
                    Ok(Type::Tuple(ts[a..b].to_vec()))
                }
                Type::Set(_) => Err(arg_error(0, "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important")),
                _ => Err(arg_error(0, "must be a list or tuple value")),
            },
            |args, _| {
                let list = items(&args[0]);
                let (a, b) = slice_bounds(args, list.len())?;
                Ok(match &args[0] {
                    Value::List(e, _) => Value::List(e.clone(), list[a..b].to_vec().into()),
                    _ => Value::Tuple(list[a..b].to_vec().into()),
                })
            },
        ),
    );
    ctx.set_function(
        "sort",
        Function::new(
            vec![p("list", Type::list(Type::String))],
            Type::list(Type::String),
            |args, _| {
                let mut v: Vec<Value> = items(&args[0]).to_vec();
                if let Some(i) = v.iter().position(Value::is_null) {
                    return Err(arg_error(
                        0,
                        format!("given list element {i} is null; a null string cannot be sorted"),
                    ));
                }
                v.sort_by(|a, b| {
                    a.as_str()
                        .unwrap_or("")
                        .as_bytes()
                        .cmp(b.as_str().unwrap_or("").as_bytes())
                });
                Ok(Value::List(Type::String, v.into()))
            },
        ),
    );
    ctx.set_function(
        "sum",
        Function::new(vec![any_param("list")], Type::Number, |args, _| {
            if !is_sequence(&args[0].ty()) {
                return Err(arg_error(0, "cannot sum noniterable"));
            }
            let list = items(&args[0]);
            if list.is_empty() {
                return Err(arg_error(0, "cannot sum an empty list"));
            }
            let mut total: Option<Number> = None;
            for v in list {
                let x = match convert(v, &Type::Number) {
                    Ok(Value::Number(x)) => x,
                    Ok(Value::Null(_)) => {
                        return Err(arg_error(
                            0,
                            "argument must be list, set, or tuple of number values",
                        ));
                    }
                    _ => {
                        return Err(arg_error(
                            0,
                            "argument must be list, set, or tuple of number values",
                        ));
                    }
                };
                total = Some(match total {
                    None => x,
                    Some(t) => t.add(&x).map_err(|_| {
                        FunctionError::new("can't compute sum of opposing infinities")
                    })?,
                });
            }
            Ok(Value::Number(total.unwrap_or_else(Number::zero)))
        }),
    );
    ctx.set_function(
        "zipmap",
        Function::with_return_type(
            vec![p("keys", Type::list(Type::String)), any_param("values")],
            |args| match args[1].ty() {
                Type::List(e) => Ok(Type::Map(e)),
                Type::Tuple(ts) => {
                    let keys = items(&args[0]);
                    if keys.len() != ts.len() {
                        return Err(FunctionError::new(format!(
                            "number of keys ({}) does not match number of values ({})",
                            keys.len(),
                            ts.len()
                        )));
                    }
                    Ok(Type::Object(
                        keys.iter()
                            .zip(ts)
                            .map(|(k, t)| (k.as_str().unwrap_or_default().to_string(), t))
                            .collect(),
                    ))
                }
                _ => Err(arg_error(1, "values must be a list or a tuple")),
            },
            |args, ret| {
                let keys = items(&args[0]);
                let vals = items(&args[1]);
                if keys.len() != vals.len() {
                    return Err(FunctionError::new(format!(
                        "number of keys ({}) does not match number of values ({})",
                        keys.len(),
                        vals.len()
                    )));
                }
                let mut out = BTreeMap::new();
                for (k, v) in keys.iter().zip(vals) {
                    out.insert(k.as_str().unwrap_or_default().into(), v.clone());
                }
                Ok(match ret {
                    Type::Map(e) => Value::Map((**e).clone(), out.into()),
                    _ => Value::Object(out.into()),
                })
            },
        ),
    );
    ctx.set_function(
        "compact",
        Function::new(
            vec![p("list", Type::list(Type::String))],
            Type::list(Type::String),
            |args, _| {
                let v: Vec<Value> = items(&args[0])
                    .iter()
                    .filter(|x| !x.is_null() && x.as_str() != Some(""))
                    .cloned()
                    .collect();
                Ok(Value::List(Type::String, v.into()))
            },
        ),
    );
    ctx.set_function(
        "chunklist",
        Function::with_return_type(
            vec![
                p("list", Type::list(Type::Dynamic)),
                p("size", Type::Number),
            ],
            |args| Ok(Type::list(args[0].ty())),
            |args, _| {
                let size = int(&args[1], 1, "size")?;
                if size < 0 {
                    return Err(arg_error(1, "the size argument must be positive"));
                }
                let list = items(&args[0]);
                let ety = args[0]
                    .ty()
                    .element_type()
                    .cloned()
                    .unwrap_or(Type::Dynamic);
                let chunks: Vec<Value> = if size == 0 {
                    vec![Value::List(ety.clone(), list.to_vec().into())]
                } else {
                    list.chunks(size as usize)
                        .map(|c| Value::List(ety.clone(), c.to_vec().into()))
                        .collect()
                };
                Ok(Value::List(Type::list(ety), chunks.into()))
            },
        ),
    );
    ctx.set_function(
        "coalesce",
        Function::with_return_type(
            vec![],
            |args| {
                let tys: Vec<Type> = args.iter().map(Value::ty).collect();
                if tys.is_empty() {
                    return Err(FunctionError::new("at least one argument is required"));
                }
                unify(&tys)
                    .ok_or_else(|| FunctionError::new("all arguments must have the same type"))
            },
            |args, ret| {
                for a in args {
                    let v = convert(a, ret).map_err(|e| FunctionError::new(e.to_string()))?;
                    if v.is_null() || v.as_str() == Some("") {
                        continue;
                    }
                    return Ok(v);
                }
                Err(FunctionError::new(
                    "no non-null, non-empty-string arguments",
                ))
            },
        )
        .variadic(any_param("vals").allow_null().allow_dynamic()),
    );
    ctx.set_function(
        "coalescelist",
        Function::with_return_type(
            vec![],
            |args| {
                if args.is_empty() {
                    return Err(FunctionError::new("at least one argument is required"));
                }
                let tys: Vec<Type> = args.iter().map(Value::ty).collect();
                for (i, t) in tys.iter().enumerate() {
                    if !matches!(t, Type::List(_) | Type::Tuple(_) | Type::Dynamic) {
                        return Err(arg_error(
                            i,
                            "coalescelist arguments must be lists or tuples, got ".to_string()
                                + &t.friendly_name(),
                        ));
                    }
                }
                Ok(if tys.windows(2).all(|w| w[0] == w[1]) {
                    tys[0].clone()
                } else {
                    Type::Dynamic
                })
            },
            // The first non-empty argument, as it is (its type may differ
            // from the others').
            |args, _| {
                for a in args {
                    if a.len().unwrap_or(0) > 0 {
                        return Ok(a.clone());
                    }
                }
                Err(FunctionError::new("no non-null arguments"))
            },
        )
        .variadic(any_param("vals").allow_null().allow_dynamic()),
    );
    ctx.set_function(
        "index",
        Function::new(
            vec![any_param("list"), any_param("value")],
            Type::Number,
            |args, _| {
                if !matches!(args[0].ty(), Type::List(_) | Type::Tuple(_)) {
                    return Err(arg_error(0, "argument must be a list or tuple"));
                }
                for (i, v) in items(&args[0]).iter().enumerate() {
                    if let Value::Bool(true) = v.equals(&args[1]) {
                        return Ok(num(i as i64));
                    }
                }
                Err(FunctionError::new("item not found"))
            },
        ),
    );
    ctx.set_function(
        "alltrue",
        Function::new(
            vec![p("list", Type::list(Type::Bool))],
            Type::Bool,
            |args, _| {
                let mut unknown = false;
                for v in items(&args[0]) {
                    match v {
                        Value::Bool(false) | Value::Null(_) => return Ok(Value::Bool(false)),
                        Value::Unknown(_) => unknown = true,
                        _ => {}
                    }
                }
                Ok(if unknown {
                    Value::Unknown(Type::Bool)
                } else {
                    Value::Bool(true)
                })
            },
        ),
    );
    ctx.set_function(
        "anytrue",
        Function::new(
            vec![p("list", Type::list(Type::Bool))],
            Type::Bool,
            |args, _| Ok(any_true(items(&args[0]).iter().cloned())),
        ),
    );
    ctx.set_function(
        "matchkeys",
        Function::with_return_type(
            vec![
                p("values", Type::list(Type::Dynamic)),
                p("keys", Type::list(Type::Dynamic)),
                p("searchset", Type::list(Type::Dynamic)),
            ],
            |args| {
                let kt = args[1]
                    .ty()
                    .element_type()
                    .cloned()
                    .unwrap_or(Type::Dynamic);
                let st = args[2]
                    .ty()
                    .element_type()
                    .cloned()
                    .unwrap_or(Type::Dynamic);
                if unify(&[kt, st]).is_none() {
                    return Err(arg_error(1, "keys and searchset must be of the same type"));
                }
                Ok(args[0].ty())
            },
            |args, ret| {
                let (vals, keys, search) = (items(&args[0]), items(&args[1]), items(&args[2]));
                if vals.len() != keys.len() {
                    return Err(FunctionError::new(
                        "length of keys and values should be equal",
                    ));
                }
                let out: Vec<Value> = vals
                    .iter()
                    .zip(keys)
                    .filter(|(_, k)| {
                        search
                            .iter()
                            .any(|s| convert(s, &k.ty()).is_ok_and(|c| c.raw_equals(k)))
                    })
                    .map(|(v, _)| v.clone())
                    .collect();
                Ok(Value::List(
                    ret.element_type().cloned().unwrap_or(Type::Dynamic),
                    out.into(),
                ))
            },
        ),
    );
    ctx.set_function(
        "transpose",
        Function::new(
            vec![p("values", Type::map(Type::list(Type::String)))],
            Type::map(Type::list(Type::String)),
            |args, _| {
                let mut out: BTreeMap<SmolStr, Vec<Value>> = BTreeMap::new();
                for (k, list) in args[0].entries().into_iter().flatten() {
                    for v in items(list) {
                        match v.as_str() {
                            Some(s) => out
                                .entry(s.into())
                                .or_default()
                                .push(Value::String(k.clone())),
                            None => {
                                return Err(arg_error(
                                    0,
                                    "input must not contain null list elements",
                                ));
                            }
                        }
                    }
                }
                Ok(Value::Map(
                    Type::list(Type::String),
                    out.into_iter()
                        .map(|(k, v)| (k, Value::List(Type::String, v.into())))
                        .collect(),
                ))
            },
        ),
    );
    for (name, op) in [
        ("setunion", SetOp::Union),
        ("setintersection", SetOp::Intersection),
        ("setsubtract", SetOp::Subtract),
    ] {
        ctx.set_function(name, set_function(op));
    }
    ctx.set_function(
        "setproduct",
        Function::with_return_type(
            vec![],
            |args| {
                if args.is_empty() {
                    return Err(FunctionError::new("at least two arguments are required"));
                }
                let mut all_sets = true;
                let mut etys = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    match a.ty() {
                        Type::Set(e) => etys.push(*e),
                        Type::List(e) => {
                            all_sets = false;
                            etys.push(*e)
                        }
                        Type::Tuple(ts) => {
                            all_sets = false;
                            etys.push(unify(&ts).unwrap_or(Type::Dynamic))
                        }
                        Type::Dynamic => return Ok(Type::Dynamic),
                        _ => return Err(arg_error(i, "a set or a list is required")),
                    }
                }
                let tuple = Type::Tuple(etys);
                Ok(if all_sets {
                    Type::set(tuple)
                } else {
                    Type::list(tuple)
                })
            },
            |args, ret| {
                let limit = super::limits::MAX_PRODUCT;
                let count = args
                    .iter()
                    .try_fold(1usize, |n, a| n.checked_mul(items(a).len()));
                if count.is_none_or(|n| n > limit) {
                    return Err(FunctionError::new(format!(
                        "the product would have more than {limit} elements"
                    )));
                }
                let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
                for a in args {
                    let mut next = Vec::new();
                    for row in &rows {
                        for v in items(a) {
                            let mut r = row.clone();
                            r.push(v.clone());
                            next.push(r);
                        }
                    }
                    rows = next;
                }
                let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
                let tuples: Vec<Value> = rows
                    .into_iter()
                    .map(|r| {
                        convert(&Value::Tuple(r.into()), &ety)
                            .map_err(|e| FunctionError::new(e.to_string()))
                    })
                    .collect::<Result<_>>()?;
                Ok(match ret {
                    Type::Set(_) => Value::set(ety, tuples),
                    _ => Value::List(ety, tuples.into()),
                })
            },
        )
        .variadic(any_param("sets")),
    );
}

/// `true` if any of `results` is, else unknown if any is unknown, else
/// `false`.
fn any_true(results: impl Iterator<Item = Value>) -> Value {
    let mut unknown = false;
    for v in results {
        match v {
            Value::Bool(true) => return Value::Bool(true),
            Value::Unknown(_) => unknown = true,
            _ => {}
        }
    }
    if unknown {
        Value::Unknown(Type::Bool)
    } else {
        Value::Bool(false)
    }
}

/// `length` of a value without its own mark.
fn length_of(v: &Value) -> Result<Value> {
    match v {
        Value::Unknown(_) => Ok(Value::Unknown(Type::Number)),
        Value::String(text) => Ok(num(text.graphemes(true).count() as i64)),
        v => match v.len() {
            Some(len) if v.is_wholly_known() || !matches!(v, Value::Set(..)) => Ok(num(len as i64)),
            Some(_) => Ok(Value::Unknown(Type::Number)),
            None => Err(arg_error(
                0,
                "argument must be a string, a collection type, or a structural type",
            )),
        },
    }
}

fn element_index(idx: &Value, len: usize) -> Result<usize> {
    let i = int(idx, 1, "index")
        .map_err(|_| FunctionError::new("invalid index: value must be a whole number"))?;
    if i < 0 {
        return Err(FunctionError::new(
            "cannot use element function with a negative index",
        ));
    }
    Ok((i as usize) % len)
}

fn slice_bounds(args: &[Value], len: usize) -> Result<(usize, usize)> {
    let a = int(&args[1], 1, "start_index")?;
    let b = int(&args[2], 2, "end_index")?;
    if a < 0 {
        return Err(arg_error(1, "start index must not be less than zero"));
    }
    if b > len as i64 {
        return Err(arg_error(
            2,
            "end index must not be greater than the length of the list",
        ));
    }
    if a > b {
        return Err(arg_error(
            1,
            "start index must not be greater than end index",
        ));
    }
    Ok((a as usize, b as usize))
}

/// Flattens nested lists, sets and tuples; false when an unknown list is met.
fn flatten_into(v: &Value, out: &mut Vec<Value>) -> bool {
    for x in items(v) {
        match x {
            Value::Unknown(t) if is_sequence(t) || *t == Type::Dynamic => return false,
            Value::List(..) | Value::Set(..) | Value::Tuple(_) => {
                if !flatten_into(x, out) {
                    return false;
                }
            }
            other => out.push(other.clone()),
        }
    }
    true
}

fn merge_type(args: &[Value]) -> Result<Type> {
    if args.is_empty() {
        return Ok(Type::Object(BTreeMap::new()));
    }
    let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
    let mut first: Option<Type> = None;
    let mut matching = true;
    let mut known = true;
    for a in args {
        let mut ty = a.ty();
        match &ty {
            Type::Dynamic => return Ok(Type::Dynamic),
            Type::Object(o) => {
                if a.is_null() {
                    ty = Type::Object(BTreeMap::new());
                } else {
                    attrs.extend(o.clone());
                }
            }
            Type::Map(e) => match a {
                Value::Null(_) => {}
                Value::Unknown(_) => known = false,
                _ => {
                    for k in a.entries().into_iter().flat_map(|m| m.keys()) {
                        attrs.insert(k.to_string(), (**e).clone());
                    }
                }
            },
            other => {
                return Err(FunctionError::new(format!(
                    "arguments must be maps or objects, got {}",
                    crate::eval::go_quote(&other.friendly_name())
                )));
            }
        }
        match &first {
            None => first = Some(ty),
            Some(f) if *f != ty => matching = false,
            _ => {}
        }
    }
    if matching {
        return Ok(first.unwrap_or(Type::Dynamic));
    }
    if !known {
        return Ok(Type::Dynamic);
    }
    Ok(Type::Object(attrs))
}

#[derive(Clone, Copy)]
enum SetOp {
    Union,
    Intersection,
    Subtract,
}

fn set_function(op: SetOp) -> Function {
    let f = Function::with_return_type(
        vec![p("first_set", Type::set(Type::Dynamic))],
        move |args| {
            let etys: Vec<Type> = args
                .iter()
                .map(|a| a.ty().element_type().cloned().unwrap_or(Type::Dynamic))
                .collect();
            let ety = match op {
                SetOp::Subtract => {
                    if unify(&etys).is_none() {
                        return Err(FunctionError::new(
                            "given sets must all have compatible element types",
                        ));
                    }
                    etys[0].clone()
                }
                _ => unify(&etys).ok_or_else(|| {
                    FunctionError::new("given sets must all have compatible element types")
                })?,
            };
            Ok(Type::set(ety))
        },
        move |args, ret| {
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let sets: Vec<Vec<Value>> = args
                .iter()
                .map(|a| {
                    items(a)
                        .iter()
                        .map(|v| convert(v, &ety).unwrap_or_else(|_| v.clone()))
                        .collect()
                })
                .collect();
            let contains = |set: &[Value], v: &Value| set.iter().any(|x| x.raw_equals(v));
            let out: Vec<Value> = match op {
                SetOp::Union => sets.concat(),
                SetOp::Intersection => sets[0]
                    .iter()
                    .filter(|v| sets[1..].iter().all(|s| contains(s, v)))
                    .cloned()
                    .collect(),
                SetOp::Subtract => sets[0]
                    .iter()
                    .filter(|v| !contains(&sets[1], v))
                    .cloned()
                    .collect(),
            };
            Ok(Value::set(ety, out))
        },
    );
    match op {
        SetOp::Subtract => f.with_params(vec![
            p("a", Type::set(Type::Dynamic)),
            p("b", Type::set(Type::Dynamic)),
        ]),
        _ => f.variadic(p("other_sets", Type::set(Type::Dynamic))),
    }
}
