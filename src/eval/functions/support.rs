//! Small helpers the function families share.

use crate::eval::context::{Function, FunctionError, Param};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;

pub(crate) type Result<T> = std::result::Result<T, FunctionError>;

/// A parameter of `ty`.
pub(crate) fn p(name: &str, ty: Type) -> Param {
    Param::new(name, ty)
}

/// The string of a known string argument.
pub(crate) fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// The number of a known number argument.
pub(crate) fn n(v: &Value) -> Number {
    match v {
        Value::Number(n) => n.clone(),
        _ => Number::zero(),
    }
}

/// A whole-number argument as `i64`.
pub(crate) fn int(v: &Value, arg: usize, what: &str) -> Result<i64> {
    let num = n(v);
    if !num.is_integer() {
        return Err(FunctionError::argument(
            arg,
            format!("{what} must be a whole number"),
        ));
    }
    num.to_i64()
        .ok_or_else(|| FunctionError::argument(arg, format!("{what} is out of range")))
}

pub(crate) fn num(v: i64) -> Value {
    Value::Number(Number::from_i64(v))
}

/// The elements of a list, set or tuple argument.
pub(crate) fn items(v: &Value) -> &[Value] {
    v.elements().unwrap_or_default()
}

/// A function of one string returning a string.
pub(crate) fn string_fn(f: fn(&str) -> String) -> Function {
    Function::new(
        vec![p("str", Type::String)],
        Type::String,
        move |args, _| Ok(Value::string(f(s(&args[0])))),
    )
}

/// A type error for argument `i`.
pub(crate) fn arg_error(i: usize, message: impl Into<String>) -> FunctionError {
    FunctionError::argument(i, message)
}
