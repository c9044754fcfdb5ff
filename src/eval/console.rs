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

    /// `{"value":…,"type":…}` as `hclwright eval --json` prints it, with
    /// `"known":false` when some part is unknown, and `"sensitive":true`
    /// for a value that is or holds a sensitive one: its value is then
    /// left out unless `show_sensitive`.
    ///
    /// ```
    /// use hclwright::eval::{ModuleInputs, console_eval};
    /// let dir = std::env::temp_dir().join("hclwright-doc-console-json");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let v = console_eval(&dir, &ModuleInputs::default(), "sensitive(1)").unwrap();
    /// assert_eq!(v.json_text(false), r#"{"type":"number","sensitive":true}"#);
    /// assert_eq!(v.json_text(true), r#"{"value":1,"type":"number","sensitive":true}"#);
    /// ```
    pub fn json_text(&self, show_sensitive: bool) -> String {
        let sensitive = self.value.contains_sensitive();
        let json = to_json(&self.value);
        let mut out = String::from("{");
        if !sensitive || show_sensitive {
            out.push_str(&format!("\"value\":{},", json.as_deref().unwrap_or("null")));
        }
        out.push_str(&format!("\"type\":{}", self.value.ty().to_json()));
        if json.is_none() {
            out.push_str(",\"known\":false");
        }
        if sensitive {
            out.push_str(",\"sensitive\":true");
        }
        out.push('}');
        out
    }
}

/// The evaluation context of the console in `dir`: Terraform's functions,
/// the file functions reading from `dir`, and a `type` function that only
/// works as the whole expression.
pub fn console_context(dir: &Path) -> EvalContext {
    // Terraform's functions are built once per process and shared: only
    // the file functions (bound to `dir`) and `type` are made per call,
    // and they stand in for the parent's (withheld) ones of those names.
    static TERRAFORM_FUNCTIONS: std::sync::OnceLock<std::sync::Arc<EvalContext>> =
        std::sync::OnceLock::new();
    let shared = TERRAFORM_FUNCTIONS
        .get_or_init(|| std::sync::Arc::new(EvalContext::new().with_terraform_functions()));
    let mut base = EvalContext::with_parent(shared.clone()).with_filesystem_functions(dir);
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

/// Why `dir` cannot be a module folder, if it cannot: it is missing, or
/// not a folder (a module folder that is not there would otherwise
/// evaluate as an empty module).
pub fn check_module_dir(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err("not a folder (give the folder that holds the module's .tf files)".into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err("no such folder".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// Evaluates `text` as `terraform console` does in the module folder
/// `dir` (its variables, with `inputs`, and its locals): the module's
/// problems, the expression's syntax errors, references to undeclared
/// objects and evaluation errors come back as diagnostics (those of the
/// expression under the name [`EXPR_NAME`]). A `dir` that is missing
/// or not a folder is one diagnostic naming it ([`check_module_dir`]).
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
    if let Err(message) = check_module_dir(dir) {
        return Err(vec![FileDiagnostic {
            path: dir.display().to_string(),
            text: Arc::from(""),
            diagnostic: Diagnostic::new(message, "", Default::default()),
        }]);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{console_string, evaluate_str};

    /// The console's functions, with Terraform's shared between calls: the
    /// same names as a context holding them all itself, the file functions
    /// reading from each call's own folder (not the shared, withheld ones).
    #[test]
    fn the_shared_functions_are_the_whole_library_with_this_folders_files() {
        let root = std::env::temp_dir().join(format!("hclwright-console-{}", std::process::id()));
        let (a, b) = (root.join("a"), root.join("b"));
        for (dir, text) in [(&a, "from a"), (&b, "from b")] {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join("f.txt"), text).unwrap();
        }
        let flat = EvalContext::new()
            .with_terraform_functions()
            .with_filesystem_functions(&a);
        let mut names = flat.function_names();
        names.push("type".to_string());
        names.sort();
        for dir in [&a, &b] {
            let ctx = console_context(dir);
            assert_eq!(ctx.function_names(), names);
            let read = evaluate_str("file(\"f.txt\")", &ctx).map(|v| console_string(&v));
            let expected = format!(
                "\"{}\"",
                std::fs::read_to_string(dir.join("f.txt")).unwrap()
            );
            assert_eq!(read.ok(), Some(expected));
            let upper = evaluate_str("upper(\"x\")", &ctx).map(|v| console_string(&v));
            assert_eq!(upper.ok().as_deref(), Some("\"X\""));
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}
