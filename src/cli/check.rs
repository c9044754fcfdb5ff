//! `hclwright check`: report syntax errors.

use super::files::{Input, expand, read_error_message, read_input};
use super::{EXIT_ERRORS, EXIT_OK};

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Files or directories (walked recursively for .tf, .tfvars, .hcl and
    /// .nomad files); `-` reads standard input. Defaults to `.`.
    #[arg(default_value = ".")]
    paths: Vec<String>,
    /// Print nothing, only set the exit code.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: CheckArgs) -> i32 {
    let paths = args.paths;
    let (inputs, walk_errors) = expand(&paths, true);
    let mut failed = !walk_errors.is_empty();
    for e in walk_errors {
        if !args.quiet {
            eprintln!("{e}");
        }
    }
    for input in &inputs {
        if !check_one(input, args.quiet) {
            failed = true;
        }
    }
    if failed { EXIT_ERRORS } else { EXIT_OK }
}

/// Checks one input; `false` if it has errors or cannot be read.
fn check_one(input: &Input, quiet: bool) -> bool {
    let text = match read_input(input) {
        Ok(text) => text,
        Err(e) => {
            if !quiet {
                eprintln!("{}", read_error_message(input, &e));
            }
            return false;
        }
    };
    let errors = hclwright::syntax_errors(&text);
    if !quiet {
        let name = input.display_name();
        for e in &errors {
            eprint!("{}", e.render(&name, &text));
        }
    }
    errors.is_empty()
}
