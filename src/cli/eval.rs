//! `hclwright eval`: the value of an expression, printed as `terraform
//! console` prints it, in the module of a folder (its variables and
//! locals) or of the current folder.

use std::io::{Read, Write};
use std::path::PathBuf;

use hclwright::eval::{ModuleInputs, VarOption, check_module_dir, console_eval};

use super::exit::{EXIT_OK, EXIT_USAGE};

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
    if let Err(message) = check_module_dir(&args.dir) {
        eprintln!("hclwright eval: --dir {}: {message}", args.dir.display());
        return EXIT_EVAL_ERROR;
    }
    let dir = if args.dir.as_os_str() == "." {
        PathBuf::from(".")
    } else {
        args.dir.clone()
    };
    match console_eval(&dir, &inputs, &text) {
        Ok(value) => {
            let out = if args.json && !value.type_only {
                value.json_text(args.show_sensitive)
            } else {
                value.console_text()
            };
            let _ = writeln!(std::io::stdout().lock(), "{out}");
            EXIT_OK
        }
        Err(diagnostics) => {
            let mut stderr = std::io::stderr().lock();
            for d in &diagnostics {
                let _ = write!(stderr, "{}", d.render());
            }
            EXIT_EVAL_ERROR
        }
    }
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
