//! Expression evaluation as Terraform evaluates: cty's values and types,
//! its conversions and unification, every native-syntax expression, an
//! evaluation context of variables and functions, and values printed as
//! `terraform console` prints them.
//!
//! ```
//! use hclwright::eval::{EvalContext, Value, console_string, evaluate_str};
//! let mut ctx = EvalContext::new();
//! ctx.set_variable("names", Value::Tuple(vec![Value::string("a"), Value::string("b")].into()));
//! let v = evaluate_str("{for i, n in names : n => i}", &ctx).unwrap();
//! assert_eq!(console_string(&v), "{\n  \"a\" = 0\n  \"b\" = 1\n}");
//! ```

mod analysis;
mod compiled;
mod console;
mod constraint;
mod context;
mod convert;
mod decode;
mod diagnostic;
mod display;
pub(crate) mod expr;
pub mod functions;
pub(crate) mod leaf;
mod module;
mod module_items;
mod number;
mod reference_check;
mod serialize;
mod shared;
pub(crate) mod template;
mod types;
mod value;

pub use analysis::{
    StaticCall, abs_traversal, rel_traversal, static_call, static_list, static_map, variables,
};
pub use compiled::CompiledExpr;
pub use console::{ConsoleValue, EXPR_NAME, check_module_dir, console_context, console_eval};
pub use constraint::{Attribute, Constraint};
pub use context::{
    Budget, Cancel, EvalContext, Function, FunctionError, Implementation, Param, ReturnType,
};
pub use convert::{ConvertError, conversion_exists, convert, convert_with, unify, unify_with};
pub use decode::{DecodeError, decode_body, decode_json_str, decode_str};
pub use diagnostic::Diagnostic;
pub use display::{console_string, go_quote, json_string, to_json};
pub use expr::{Evaluation, evaluate, evaluate_str, get_attr, index};
pub use module::{FileDiagnostic, Module, ModuleInputs, VarOption, local_references};
pub use number::{EXACT_PRINT_EXP, MAX_EXP, MIN_EXP, NotANumber, Number, PRECISION};
pub use shared::{Elements, Entries, EntriesIter};
pub use smol_str::SmolStr;
pub use types::Type;
pub use value::{Value, set_order};
