//! The evaluation context: variables in nested scopes and the functions an
//! application supplies, each described by a signature (parameters with
//! types, an optional variadic parameter, a return type) and an
//! implementation, the shape of cty's `function.Spec`.

use super::convert::convert;
use super::types::Type;
use super::value::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Variables and functions visible to an expression. A context may have a
/// parent whose names show through where the child does not define them.
///
/// ```
/// use hclwright::eval::{EvalContext, Value, evaluate_str};
/// let mut ctx = EvalContext::new();
/// ctx.set_variable("region", Value::string("eu-west-1"));
/// let v = evaluate_str("\"${region}-a\"", &ctx).unwrap();
/// assert_eq!(v, Value::string("eu-west-1-a"));
/// ```
#[derive(Clone, Default)]
pub struct EvalContext {
    variables: BTreeMap<String, Value>,
    functions: BTreeMap<String, Arc<Function>>,
    parent: Option<Arc<EvalContext>>,
    budget: Option<Budget>,
}

/// Limits on the work of evaluating one expression. Past one, evaluation
/// stops with an "Evaluation budget exceeded" diagnostic instead of
/// running on; the default keeps a library caller safe from one hostile
/// expression (nested `for` loops over `range(1024)`, strings doubled in a
/// template) while leaving room for any real configuration.
///
/// The defaults ([`Budget::default`]): a million steps, no deadline, strings
/// of at most 64 MiB, no cancellation flag. Every context without a budget
/// of its own (nor a parent with one) uses them, so the command-line tool
/// (`eval`, `convert`, `check`), the bindings and any library caller
/// evaluate under them; the language server adds a deadline (1 s by
/// default) and a cancellation flag to each hover or completion.
///
/// ```
/// use hclwright::eval::{Budget, EvalContext, evaluate_str};
/// let ctx = EvalContext::new()
///     .with_terraform_functions()
///     .with_budget(Budget { steps: 10_000, ..Budget::default() });
/// let err = evaluate_str("[for i in range(1000) : [for j in range(1000) : i * j]]", &ctx)
///     .unwrap_err();
/// assert_eq!(err[0].summary, "Evaluation budget exceeded");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most expressions evaluated (every operand, argument and `for`
    /// body counts once each time it is evaluated). Default: a million.
    pub steps: u64,
    /// The longest time the evaluation may take; `None` (the default) for
    /// no deadline, so that results do not depend on the machine's speed.
    pub time: Option<std::time::Duration>,
    /// The longest string, in bytes, any expression may produce. Default:
    /// 64 MiB.
    pub max_string_len: usize,
    /// A flag another thread sets to stop the evaluation (checked every 64
    /// steps); `None` (the default) for none.
    pub cancel: Option<Cancel>,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            steps: 1_000_000,
            time: None,
            max_string_len: 64 << 20,
            cancel: None,
        }
    }
}

/// A cancellation flag shared between an evaluation and whoever may stop
/// it (a [`Budget`]'s `cancel`). Clones share the flag; two flags are
/// equal when they are the same flag.
///
/// ```
/// use hclwright::eval::{Budget, Cancel, EvalContext, evaluate_str};
/// let cancel = Cancel::new();
/// let ctx = EvalContext::new().with_terraform_functions().with_budget(Budget {
///     cancel: Some(cancel.clone()),
///     ..Budget::default()
/// });
/// cancel.cancel(); // from any thread, at any time
/// let err = evaluate_str("[for i in range(1000) : i]", &ctx).unwrap_err();
/// assert!(err[0].detail.contains("was cancelled"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancel(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Cancel {
    /// A flag not yet set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Sets the flag: evaluations under it stop at their next check.
    pub fn cancel(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

impl EvalContext {
    /// An empty context: no variables, no functions.
    pub fn new() -> EvalContext {
        EvalContext::default()
    }

    /// A context whose lookups fall back to `parent`.
    pub fn with_parent(parent: Arc<EvalContext>) -> EvalContext {
        EvalContext {
            parent: Some(parent),
            ..EvalContext::default()
        }
    }

    /// The context with `budget` as its limits (see [`Budget`]).
    pub fn with_budget(mut self, budget: Budget) -> EvalContext {
        self.budget = Some(budget);
        self
    }

    /// Sets the limits of evaluations in this context.
    pub fn set_budget(&mut self, budget: Budget) -> &mut Self {
        self.budget = Some(budget);
        self
    }

    /// The limits of evaluations in this context: its own, else the
    /// nearest parent's, else [`Budget::default`].
    pub fn budget(&self) -> Budget {
        self.budget
            .clone()
            .or_else(|| self.parent.as_deref().map(EvalContext::budget))
            .unwrap_or_default()
    }

    /// The step limit and the longest string of [`budget`](Self::budget),
    /// and whether it has a time limit or a cancellation flag, without
    /// cloning it (its cancellation flag is shared).
    pub(crate) fn budget_limits(&self) -> (u64, usize, bool) {
        match (&self.budget, self.parent.as_deref()) {
            (Some(b), _) => (
                b.steps,
                b.max_string_len,
                b.time.is_some() || b.cancel.is_some(),
            ),
            (None, Some(parent)) => parent.budget_limits(),
            (None, None) => {
                let b = Budget::default();
                (b.steps, b.max_string_len, false)
            }
        }
    }

    /// Defines (or replaces) a variable.
    pub fn set_variable(&mut self, name: impl Into<String>, value: Value) -> &mut Self {
        self.variables.insert(name.into(), value);
        self
    }

    /// Defines (or replaces) a function; a namespaced name such as
    /// `provider::aws::arn_parse` is the whole name.
    pub fn set_function(&mut self, name: impl Into<String>, function: Function) -> &mut Self {
        self.functions.insert(name.into(), Arc::new(function));
        self
    }

    /// A variable, from this context or the nearest parent that has it.
    pub fn variable(&self, name: &str) -> Option<&Value> {
        self.variables
            .get(name)
            .or_else(|| self.parent.as_deref().and_then(|p| p.variable(name)))
    }

    /// A function, from this context or the nearest parent that has it.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions
            .get(name)
            .map(|f| f.as_ref())
            .or_else(|| self.parent.as_deref().and_then(|p| p.function(name)))
    }

    /// The names of every variable visible, sorted.
    pub fn variable_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.variables.keys().cloned().collect();
        if let Some(p) = &self.parent {
            names.extend(p.variable_names());
        }
        names.sort();
        names.dedup();
        names
    }

    /// The names of every function visible, sorted.
    pub fn function_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.functions.keys().cloned().collect();
        if let Some(p) = &self.parent {
            names.extend(p.function_names());
        }
        names.sort();
        names.dedup();
        names
    }

    /// A context with the same functions (those of the parents included)
    /// and no variables: what a template rendered by a function sees.
    pub fn functions_only(&self) -> EvalContext {
        let mut out = match &self.parent {
            Some(p) => p.functions_only(),
            None => EvalContext::new(),
        };
        for (name, f) in &self.functions {
            out.functions.insert(name.clone(), f.clone());
        }
        out.budget = Some(self.budget());
        out
    }

    /// Whether any function is defined (here or in a parent).
    pub fn has_functions(&self) -> bool {
        !self.functions.is_empty() || self.parent.as_deref().is_some_and(|p| p.has_functions())
    }
}

/// A parameter of a [`Function`].
#[derive(Clone, Debug)]
pub struct Param {
    /// The name, for messages.
    pub name: String,
    /// The type arguments are converted to (`Type::Dynamic` takes any).
    pub ty: Type,
    /// Whether a null argument is passed through (otherwise it is an error).
    pub allow_null: bool,
    /// Whether an unknown argument is passed through (otherwise the result
    /// is unknown without calling the implementation).
    pub allow_unknown: bool,
    /// Whether an argument of no particular type (a bare `null`) is passed
    /// through (otherwise the result is unknown).
    pub allow_dynamic: bool,
    /// Whether sensitive arguments reach the implementation as they are
    /// (otherwise their marks are removed and put on the result).
    pub allow_marked: bool,
}

impl Param {
    /// A parameter of `ty` that takes neither null nor unknown values.
    pub fn new(name: impl Into<String>, ty: Type) -> Param {
        Param {
            name: name.into(),
            ty,
            allow_null: false,
            allow_unknown: false,
            allow_dynamic: false,
            allow_marked: false,
        }
    }

    /// The parameter, also taking null arguments.
    pub fn allow_null(mut self) -> Param {
        self.allow_null = true;
        self
    }

    /// The parameter, also taking arguments of no particular type.
    pub fn allow_dynamic(mut self) -> Param {
        self.allow_dynamic = true;
        self
    }

    /// The parameter, seeing sensitive marks itself.
    pub fn allow_marked(mut self) -> Param {
        self.allow_marked = true;
        self
    }

    /// The parameter, also taking unknown arguments.
    pub fn allow_unknown(mut self) -> Param {
        self.allow_unknown = true;
        self
    }
}

/// Why a function call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionError {
    /// The argument at fault, when one is.
    pub argument: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl FunctionError {
    /// An error about the call as a whole.
    pub fn new(message: impl Into<String>) -> FunctionError {
        FunctionError {
            argument: None,
            message: message.into(),
        }
    }

    /// An error about argument `index` (0-based).
    pub fn argument(index: usize, message: impl Into<String>) -> FunctionError {
        FunctionError {
            argument: Some(index),
            message: message.into(),
        }
    }
}

/// A function that receives its arguments unevaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lazy {
    /// `try(a, b, ...)`: the first argument that evaluates without error.
    Try,
    /// `can(a)`: whether the argument evaluates without error.
    Can,
    /// `templatestring(ref, vars)`: a template held in a value, rendered.
    TemplateString,
}

/// Computes a call's result type from its (converted) arguments.
pub type ReturnType = dyn Fn(&[Value]) -> Result<Type, FunctionError> + Send + Sync;
/// Computes a call's result from its (converted) arguments and result type.
pub type Implementation = dyn Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync;

/// A function an expression can call.
///
/// ```
/// use hclwright::eval::{EvalContext, Function, Param, Type, Value, evaluate_str};
/// let upper = Function::new(vec![Param::new("s", Type::String)], Type::String, |args, _| {
///     Ok(Value::string(args[0].as_str().unwrap().to_uppercase()))
/// });
/// let mut ctx = EvalContext::new();
/// ctx.set_function("upper", upper);
/// assert_eq!(evaluate_str("upper(\"a\")", &ctx).unwrap(), Value::string("A"));
/// ```
pub struct Function {
    /// The positional parameters.
    pub params: Vec<Param>,
    /// For `try` and `can`, which receive their arguments unevaluated.
    pub(crate) lazy: Option<Lazy>,
    /// The parameter that takes any further arguments, if any.
    pub variadic: Option<Param>,
    return_type: Box<ReturnType>,
    implementation: Box<Implementation>,
}

impl Function {
    /// A function with a fixed return type.
    pub fn new(
        params: Vec<Param>,
        returns: Type,
        implementation: impl Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync + 'static,
    ) -> Function {
        Function {
            params,
            lazy: None,
            variadic: None,
            return_type: Box::new(move |_| Ok(returns.clone())),
            implementation: Box::new(implementation),
        }
    }

    /// A function whose return type depends on its arguments.
    pub fn with_return_type(
        params: Vec<Param>,
        returns: impl Fn(&[Value]) -> Result<Type, FunctionError> + Send + Sync + 'static,
        implementation: impl Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync + 'static,
    ) -> Function {
        Function {
            params,
            lazy: None,
            variadic: None,
            return_type: Box::new(returns),
            implementation: Box::new(implementation),
        }
    }

    pub(crate) fn lazy(kind: Lazy) -> Function {
        let mut f = Function::new(vec![], Type::Dynamic, |_, _| {
            Ok(Value::Unknown(Type::Dynamic))
        });
        f.lazy = Some(kind);
        f
    }

    /// The function with other positional parameters.
    pub fn with_params(mut self, params: Vec<Param>) -> Function {
        self.params = params;
        self
    }

    /// The function, taking any number of further arguments as `param`.
    pub fn variadic(mut self, param: Param) -> Function {
        self.variadic = Some(param);
        self
    }

    /// Calls the function as cty does: arity checked, arguments converted
    /// to their parameters' types, nulls refused and unknowns short-cut
    /// unless the parameter allows them.
    pub fn call(&self, args: &[Value]) -> Result<Value, FunctionError> {
        let n = self.params.len();
        if args.len() < n || (self.variadic.is_none() && args.len() > n) {
            let want = if self.variadic.is_some() {
                format!("at least {n}")
            } else {
                format!("exactly {n}")
            };
            let noun = if n == 1 && self.variadic.is_none() {
                "argument"
            } else {
                "arguments"
            };
            return Err(FunctionError::new(format!(
                "Function requires {want} {noun}; got {}",
                args.len()
            )));
        }
        // Sensitive marks are taken off the arguments (inside too) and put
        // on the result, unless the parameter handles them.
        let mut sensitive = false;
        // Borrowed unless a mark is taken off: an argument may be a large
        // collection, copied once more below only if converting needs to.
        let unmarked: Vec<Cow<'_, Value>> = args
            .iter()
            .enumerate()
            .map(|(i, arg)| {
                let allow = self
                    .params
                    .get(i)
                    .or(self.variadic.as_ref())
                    .is_some_and(|p| p.allow_marked);
                if !allow && arg.contains_sensitive() {
                    sensitive = true;
                    Cow::Owned(arg.unmarked_deep())
                } else {
                    Cow::Borrowed(arg)
                }
            })
            .collect();
        let args = &unmarked;
        let mut converted = Vec::with_capacity(args.len());
        let mut unknown = false;
        let mut dynamic = false;
        for (i, arg) in args.iter().enumerate() {
            let param = self
                .params
                .get(i)
                .or(self.variadic.as_ref())
                .expect("arity checked");
            if arg.is_null() && !param.allow_null {
                return Err(FunctionError::argument(i, "argument must not be null"));
            }
            if arg.has_dynamic_type() && !param.allow_dynamic {
                dynamic = true;
            }
            let v =
                convert(arg, &param.ty).map_err(|e| FunctionError::argument(i, e.to_string()))?;
            if !v.is_wholly_known() && !param.allow_unknown {
                unknown = true;
            }
            converted.push(v);
        }
        if dynamic {
            return Ok(Value::Unknown(Type::Dynamic).mark_if(sensitive));
        }
        let ty = (self.return_type)(&converted)?;
        if unknown {
            return Ok(Value::Unknown(ty).mark_if(sensitive));
        }
        let v = (self.implementation)(&converted, &ty)?;
        Ok(v.mark_if(sensitive))
    }
}
