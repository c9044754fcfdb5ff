//! `hclwright eval`: the value of an expression, printed as `terraform
//! console` prints it, in the module of a folder (its variables and
//! locals) or of the current folder.

use std::io::{Read, Write};
use std::path::PathBuf;

use hclwright::ast::{AstNode, Expr};
use hclwright::eval::{
    EvalContext, Module, ModuleInputs, VarOption, console_string, evaluate, to_json,
};

use super::{EXIT_OK, EXIT_USAGE};

/// Arguments of `eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// The expression; `-` reads it from standard input. It may start
    /// with `-` (`-7 % 3`).
    #[arg(allow_hyphen_values = true)]
    expr: String,
    /// The module folder whose `var.*` and `local.*` the expression sees
    /// (default: the current folder).
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Set an input variable, `NAME=VALUE` (repeatable; as terraform's -var).
    #[arg(long = "var", value_name = "NAME=VALUE")]
    vars: Vec<String>,
    /// Read input variables from a .tfvars file (repeatable).
    #[arg(long = "var-file", value_name = "FILE")]
    var_files: Vec<PathBuf>,
    /// Print `{"value": ..., "type": ...}`, the type in cty's JSON notation.
    /// A value that is or holds a sensitive one is withheld:
    /// `{"type": ..., "sensitive": true}` (see `--show-sensitive`).
    #[arg(long)]
    json: bool,
    /// With `--json`, print sensitive values in clear too (still marked
    /// `"sensitive": true`).
    #[arg(long, requires = "json")]
    show_sensitive: bool,
}

/// Exit code: the expression could not be evaluated.
const EXIT_EVAL_ERROR: i32 = 1;

pub fn run(args: EvalArgs) -> i32 {
    let mut text = args.expr.clone();
    if text == "-" {
        text.clear();
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            eprintln!("hclwright eval: reading standard input: {e}");
            return EXIT_USAGE;
        }
    }
    let mut inputs = ModuleInputs::from_env();
    for option in ordered_options(&args) {
        match option {
            Ok(o) => inputs.options.push(o),
            Err(v) => {
                eprintln!("hclwright eval: --var expects NAME=VALUE, found {v:?}");
                return EXIT_USAGE;
            }
        }
    }
    // A folder that is not there would evaluate as an empty module.
    if let Err(message) = check_dir(&args.dir) {
        eprintln!("hclwright eval: --dir {}: {message}", args.dir.display());
        return EXIT_EVAL_ERROR;
    }
    let base = EvalContext::new()
        .with_terraform_functions()
        .with_filesystem_functions(&args.dir);
    let dir = if args.dir.as_os_str() == "." {
        PathBuf::from(".")
    } else {
        args.dir.clone()
    };
    let mut base = base;
    // The console's `type()`: only as the whole expression (below).
    base.set_function(
        "type",
        hclwright::eval::Function::new(vec![], hclwright::eval::Type::Dynamic, |_, _| {
            Err(hclwright::eval::FunctionError::new(
                "the console-only \"type\" function cannot be used as part of an expression",
            ))
        })
        .variadic(
            hclwright::eval::Param::new("value", hclwright::eval::Type::Dynamic)
                .allow_null()
                .allow_dynamic()
                .allow_unknown(),
        ),
    );
    let module = Module::load(&dir, &inputs, base);
    let mut stderr = std::io::stderr().lock();
    if !module.diagnostics.is_empty() {
        for d in &module.diagnostics {
            let _ = write!(stderr, "{}", d.render());
        }
        return EXIT_EVAL_ERROR;
    }
    let parse = hclwright::parse_expr(&text);
    let source = "<expr>";
    if !parse.errors().is_empty() {
        for e in parse.errors() {
            let _ = write!(stderr, "{}", e.render(source, &text));
        }
        return EXIT_EVAL_ERROR;
    }
    let Some(expr) = parse.syntax().descendants().find_map(Expr::cast) else {
        let _ = writeln!(stderr, "{source}:1:1: expected an expression");
        return EXIT_EVAL_ERROR;
    };
    // `type(x)` as the whole expression prints x's type, as the console does.
    let type_of = hclwright::eval::static_call(&expr)
        .filter(|c| c.name == "type" && c.args.len() == 1 && !c.expand_final)
        .map(|c| c.args[0].clone());
    let shown_expr = type_of.clone().unwrap_or_else(|| expr.clone());
    // Terraform checks the references before evaluating anything.
    let problems = module.reference_problems(&expr);
    if !problems.is_empty() {
        for d in &problems {
            let _ = write!(stderr, "{}", d.render(source, &text));
        }
        return EXIT_EVAL_ERROR;
    }
    let result = evaluate(&shown_expr, &module.context);
    let from_locals = module.diagnostics_for(&expr);
    if !result.diagnostics.is_empty() || !from_locals.is_empty() {
        for d in &from_locals {
            let _ = write!(stderr, "{}", d.render());
        }
        for d in &result.diagnostics {
            let _ = write!(stderr, "{}", d.render(source, &text));
        }
        return EXIT_EVAL_ERROR;
    }
    let mut stdout = std::io::stdout().lock();
    let out = if type_of.is_some() {
        result.value.ty().console_type_string()
    } else if args.json {
        json_output(&result.value, args.show_sensitive)
    } else {
        console_string(&result.value)
    };
    let _ = writeln!(stdout, "{out}");
    EXIT_OK
}

/// Why `dir` cannot be the module folder, if it cannot.
fn check_dir(dir: &std::path::Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err("not a folder (give the folder that holds the module's .tf files)".into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err("no such folder".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// `{"value":…,"type":…}`, with `"known":false` for an unknown value, and
/// `"sensitive":true` (the value left out unless `show_sensitive`) for a
/// value that is or holds a sensitive one.
fn json_output(value: &hclwright::eval::Value, show_sensitive: bool) -> String {
    let sensitive = value.contains_sensitive();
    let ty = value.ty().to_json();
    let mut out = String::from("{");
    let json = to_json(value);
    if !sensitive || show_sensitive {
        out.push_str(&format!("\"value\":{},", json.as_deref().unwrap_or("null")));
    }
    out.push_str(&format!("\"type\":{ty}"));
    if json.is_none() {
        out.push_str(",\"known\":false");
    }
    if sensitive {
        out.push_str(",\"sensitive\":true");
    }
    out.push('}');
    out
}

/// The `--var` and `--var-file` options in the order they were given
/// (later ones win, as in terraform), read from the process arguments;
/// clap keeps each option's values apart.
fn ordered_options(args: &EvalArgs) -> Vec<Result<VarOption, String>> {
    let raw: Vec<String> = std::env::args().collect();
    let mut found: Vec<(bool, String)> = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let a = &raw[i];
        let (is_file, value) = if let Some(v) = a.strip_prefix("--var=") {
            (false, Some(v.to_string()))
        } else if let Some(v) = a.strip_prefix("--var-file=") {
            (true, Some(v.to_string()))
        } else if a == "--var" || a == "--var-file" {
            i += 1;
            (a == "--var-file", raw.get(i).cloned())
        } else {
            i += 1;
            continue;
        };
        if let Some(v) = value {
            found.push((is_file, v));
        }
        i += 1;
    }
    // Only trust the scan when it saw exactly what clap parsed (the tool
    // may be run as a library call with other arguments).
    let vars: Vec<&String> = found.iter().filter(|(f, _)| !f).map(|(_, v)| v).collect();
    let files: Vec<&String> = found.iter().filter(|(f, _)| *f).map(|(_, v)| v).collect();
    let same = vars.len() == args.vars.len()
        && files.len() == args.var_files.len()
        && vars.iter().zip(&args.vars).all(|(a, b)| *a == b);
    let list: Vec<(bool, String)> = if same {
        found
    } else {
        args.var_files
            .iter()
            .map(|f| (true, f.display().to_string()))
            .chain(args.vars.iter().map(|v| (false, v.clone())))
            .collect()
    };
    list.into_iter()
        .map(|(is_file, v)| {
            if is_file {
                Ok(VarOption::File(PathBuf::from(v)))
            } else {
                match v.split_once('=') {
                    Some((n, val)) => Ok(VarOption::Var(n.trim().to_string(), val.to_string())),
                    None => Err(v),
                }
            }
        })
        .collect()
}
