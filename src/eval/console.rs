//! What `hclwright eval` (and `terraform console`) does with one
//! expression: load the module of a folder, check the expression's
//! references, evaluate it, and say what the console prints. The command
//! line tool and the language bindings both call [`console_eval`].

use std::path::Path;
use std::sync::Arc;

use super::{
    Diagnostic, EvalContext, FileDiagnostic, Function, FunctionError, Module, ModuleInputs, Param,
    Type, Value, console_string, evaluate, static_call, to_json,
};
use crate::ast::{AstNode, Expr};

/// The name of the expression in diagnostics (`<expr>:1:5: …`).
pub const EXPR_NAME: &str = "<expr>";

/// The value of a console expression.
#[derive(Clone, Debug)]
pub struct ConsoleValue {
    /// The value (of the argument, for `type(x)`).
    pub value: Value,
    /// True when the expression was `type(x)` as a whole: the console
    /// prints the type of `x` rather than a value.
    pub type_only: bool,
}

impl ConsoleValue {
    /// What `terraform console` prints (without the final newline).
    pub fn console_text(&self) -> String {
        if self.type_only {
            self.value.ty().console_type_string()
        } else {
            console_string(&self.value)
        }
    }

    /// `{"value":…,"type":…}` (with `"known":false` when some part is
    /// unknown), as `hclwright eval --json` prints it.
    pub fn json_text(&self) -> String {
        let value = to_json(&self.value);
        format!(
            "{{\"value\":{},\"type\":{}{}}}",
            value.as_deref().unwrap_or("null"),
            self.value.ty().to_json(),
            if value.is_none() {
                ",\"known\":false"
            } else {
                ""
            }
        )
    }
}

/// The evaluation context of the console in `dir`: Terraform's functions,
/// the file functions reading from `dir`, and a `type` function that only
/// works as the whole expression.
pub fn console_context(dir: &Path) -> EvalContext {
    let mut base = EvalContext::new()
        .with_terraform_functions()
        .with_filesystem_functions(dir);
    base.set_function(
        "type",
        Function::new(vec![], Type::Dynamic, |_, _| {
            Err(FunctionError::new(
                "the console-only \"type\" function cannot be used as part of an expression",
            ))
        })
        .variadic(
            Param::new("value", Type::Dynamic)
                .allow_null()
                .allow_dynamic()
                .allow_unknown(),
        ),
    );
    base
}

/// Evaluates `text` as `terraform console` does in the module folder
/// `dir` (its variables, with `inputs`, and its locals): the module's
/// problems, the expression's syntax errors, references to undeclared
/// objects and evaluation errors come back as diagnostics (those of the
/// expression under the name [`EXPR_NAME`]).
///
/// ```
/// use hclwright::eval::{ModuleInputs, console_eval};
/// let dir = std::env::temp_dir().join("hclwright-doc-console-eval");
/// std::fs::create_dir_all(&dir).unwrap();
/// let v = console_eval(&dir, &ModuleInputs::default(), "[1, 2]").unwrap();
/// assert_eq!(v.console_text(), "[\n  1,\n  2,\n]");
/// let errors = console_eval(&dir, &ModuleInputs::default(), "1 +").unwrap_err();
/// assert_eq!(errors[0].path, "<expr>");
/// ```
pub fn console_eval(
    dir: &Path,
    inputs: &ModuleInputs,
    text: &str,
) -> Result<ConsoleValue, Vec<FileDiagnostic>> {
    let module = Module::load(dir, inputs, console_context(dir));
    if !module.diagnostics.is_empty() {
        return Err(module.diagnostics);
    }
    let source: Arc<str> = text.into();
    let of_expr = |diagnostics: Vec<Diagnostic>| -> Vec<FileDiagnostic> {
        diagnostics
            .into_iter()
            .map(|diagnostic| FileDiagnostic {
                path: EXPR_NAME.to_string(),
                text: source.clone(),
                diagnostic,
            })
            .collect()
    };
    let parse = crate::parse_expr(text);
    if !parse.errors().is_empty() {
        return Err(of_expr(
            parse
                .errors()
                .iter()
                .map(|e| Diagnostic::new(e.message.clone(), "", e.range))
                .collect(),
        ));
    }
    let Some(expr) = parse.syntax().descendants().find_map(Expr::cast) else {
        return Err(of_expr(vec![Diagnostic::new(
            "expected an expression",
            "",
            Default::default(),
        )]));
    };
    // `type(x)` as the whole expression gives x's type, as the console does.
    let type_of = static_call(&expr)
        .filter(|c| c.name == "type" && c.args.len() == 1 && !c.expand_final)
        .map(|c| c.args[0].clone());
    let shown = type_of.clone().unwrap_or_else(|| expr.clone());
    // Terraform checks the references before evaluating anything.
    let problems = module.reference_problems(&expr);
    if !problems.is_empty() {
        return Err(of_expr(problems));
    }
    let result = evaluate(&shown, &module.context);
    let mut errors = module.diagnostics_for(&expr);
    errors.extend(of_expr(result.diagnostics));
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ConsoleValue {
        value: result.value,
        type_only: type_of.is_some(),
    })
}
