//! Number functions: `abs ceil floor log max min parseint pow signum`, in
//! arbitrary precision where Terraform computes in it (`log` and `pow`
//! compute in 64-bit floats, as Terraform does).

use super::support::{arg_error, int, n, p, s};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;
use num_bigint::BigUint;
use num_traits::Num;
use std::cmp::Ordering;

fn unary(f: fn(&Number) -> Number) -> Function {
    Function::new(
        vec![p("num", Type::Number)],
        Type::Number,
        move |args, _| Ok(Value::Number(f(&n(&args[0])))),
    )
}

fn float(v: f64) -> Result<Value, FunctionError> {
    Number::from_f64(v)
        .map(Value::Number)
        .ok_or_else(|| FunctionError::new("the result is not a number"))
}

/// Adds the number functions to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function("abs", unary(Number::abs));
    ctx.set_function(
        "ceil",
        unary(|x| if x.is_infinite() { x.clone() } else { x.ceil() }),
    );
    ctx.set_function(
        "floor",
        unary(|x| {
            if x.is_infinite() {
                x.clone()
            } else {
                x.floor()
            }
        }),
    );
    ctx.set_function(
        "signum",
        unary(|x| {
            Number::from_i64(match x.cmp_value(&Number::zero()) {
                Ordering::Less => -1,
                Ordering::Equal => 0,
                Ordering::Greater => 1,
            })
        }),
    );
    for (name, want) in [("max", Ordering::Greater), ("min", Ordering::Less)] {
        ctx.set_function(
            name,
            Function::new(vec![], Type::Number, move |args, _| {
                if args.is_empty() {
                    return Err(FunctionError::new("must pass at least one number"));
                }
                let mut best = n(&args[0]);
                for a in &args[1..] {
                    let x = n(a);
                    if x.cmp_value(&best) == want {
                        best = x;
                    }
                }
                Ok(Value::Number(best))
            })
            .variadic(p("numbers", Type::Number)),
        );
    }
    ctx.set_function(
        "log",
        Function::new(
            vec![p("num", Type::Number), p("base", Type::Number)],
            Type::Number,
            |args, _| {
                let (x, b) = (n(&args[0]).to_f64(), n(&args[1]).to_f64());
                float(x.ln() / b.ln())
            },
        ),
    );
    ctx.set_function(
        "pow",
        Function::new(
            vec![p("num", Type::Number), p("power", Type::Number)],
            Type::Number,
            |args, _| float(n(&args[0]).to_f64().powf(n(&args[1]).to_f64())),
        ),
    );
    ctx.set_function(
        "parseint",
        Function::new(
            vec![p("number", Type::String), p("base", Type::Number)],
            Type::Number,
            |args, _| {
                let text = s(&args[0]);
                let base = int(&args[1], 1, "base")?;
                if !(2..=62).contains(&base) {
                    return Err(arg_error(
                        1,
                        "base must be a whole number between 2 and 62 inclusive",
                    ));
                }
                let (neg, digits) = match text.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, text.strip_prefix('+').unwrap_or(text)),
                };
                let parsed = if base <= 36 {
                    BigUint::from_str_radix(digits, base as u32).ok()
                } else {
                    base62(digits, base as u32)
                };
                match parsed {
                    Some(v) if !digits.is_empty() => {
                        Ok(Value::Number(Number::from_biguint(neg, v)))
                    }
                    _ => Err(arg_error(
                        0,
                        format!(
                            "cannot parse {} as a base {base} integer",
                            crate::eval::go_quote(text)
                        ),
                    )),
                }
            },
        ),
    );
}

/// Digits 0-9, a-z, A-Z for bases up to 62, as Go's `big.Int.SetString`.
fn base62(digits: &str, base: u32) -> Option<BigUint> {
    let mut v = BigUint::from(0u32);
    for c in digits.chars() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 10,
            'A'..='Z' => c as u32 - 'A' as u32 + 36,
            _ => return None,
        };
        if d >= base {
            return None;
        }
        v = v * base + d;
    }
    Some(v)
}
