//! Functions for the evaluation context, by family. HCL itself defines
//! none; an application opts into the families it wants.

pub mod conversion;

use super::context::EvalContext;

impl EvalContext {
    /// The context with the type conversion functions (`tostring`,
    /// `tonumber`, `tobool`, `tolist`, `toset`, `tomap`).
    ///
    /// ```
    /// use hclwright::eval::{EvalContext, console_string, evaluate_str};
    /// let ctx = EvalContext::new().with_conversion_functions();
    /// let v = evaluate_str("tolist([1, \"a\"])", &ctx).unwrap();
    /// assert_eq!(console_string(&v), "tolist([\n  \"1\",\n  \"a\",\n])");
    /// ```
    pub fn with_conversion_functions(mut self) -> EvalContext {
        conversion::register(&mut self);
        self
    }
}
