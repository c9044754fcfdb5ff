//! `tostring`, `tonumber`, `tobool`, `tolist`, `toset`, `tomap`: explicit
//! conversions, with messages aimed at an explicit conversion.

use crate::eval::context::{EvalContext, Function, FunctionError, Param};
use crate::eval::convert::{conversion_exists, convert, mismatch_message};
use crate::eval::display::go_quote;
use crate::eval::types::Type;
use crate::eval::value::Value;

/// Adds the conversion functions to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function("tostring", to(Type::String));
    ctx.set_function("tonumber", to(Type::Number));
    ctx.set_function("tobool", to(Type::Bool));
    ctx.set_function("tolist", to(Type::list(Type::Dynamic)));
    ctx.set_function("toset", to(Type::set(Type::Dynamic)));
    ctx.set_function("tomap", to(Type::map(Type::Dynamic)));
    let any = || {
        Param::new("value", Type::Dynamic)
            .allow_null()
            .allow_unknown()
            .allow_dynamic()
            .allow_marked()
    };
    ctx.set_function(
        "sensitive",
        Function::with_return_type(
            vec![any()],
            |args| Ok(args[0].ty()),
            |args, _| Ok(args[0].clone().sensitive()),
        ),
    );
    ctx.set_function(
        "nonsensitive",
        Function::with_return_type(
            vec![any()],
            |args| Ok(args[0].ty()),
            |args, _| {
                // Only the value's own mark: sensitive elements stay sensitive.
                Ok(args[0].unmarked().0.clone())
            },
        ),
    );
    ctx.set_function(
        "issensitive",
        Function::new(vec![any()], Type::Bool, |args, _| {
            Ok(Value::Bool(args[0].is_sensitive()))
        }),
    );
}

/// A function converting its argument to `want`.
pub fn to(want: Type) -> Function {
    let check = want.clone();
    let param = Param::new("v", Type::Dynamic).allow_null().allow_dynamic();
    Function::with_return_type(
        vec![param],
        move |args| {
            let got = args[0].ty();
            if got == check || conversion_exists(&got, &check, true) {
                return Ok(check.clone());
            }
            let message = match (&got, &check) {
                (Type::Tuple(_), Type::Tuple(_)) => format!(
                    "incompatible tuple type for conversion: {}",
                    mismatch_message(&got, &check)
                ),
                (Type::Object(_), Type::Object(_)) => format!(
                    "incompatible object type for conversion: {}",
                    mismatch_message(&got, &check)
                ),
                _ => format!(
                    "cannot convert {} to {}",
                    got.friendly_name(),
                    check.friendly_name_for_constraint()
                ),
            };
            Err(FunctionError::argument(0, message))
        },
        move |args, ret| {
            let arg = &args[0];
            convert(arg, ret).map_err(|err| {
                let what = arg.as_str().map_or("string".to_string(), go_quote);
                let message = match (arg.ty(), ret) {
                    (Type::String, Type::Bool) => format!(
                        "cannot convert {what} to bool; only the strings \"true\" or \"false\" are allowed"
                    ),
                    (Type::String, Type::Number) => format!(
                        "cannot convert {what} to number; given string must be a decimal representation of a number"
                    ),
                    _ => err.to_string(),
                };
                FunctionError::argument(0, message)
            })
        },
    )
}
