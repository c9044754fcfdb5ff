//! `hclwright check`: report syntax errors.

use std::io::Write;

use super::files::{Source, read_error_message};
use super::pipeline::{self, Panicked};
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
    let walked = pipeline::run(&args.paths, true, |input| check_one(input, args.quiet));
    let mut failed = !walked.errors.is_empty();
    let stderr = std::io::stderr();
    let mut err = std::io::BufWriter::new(stderr.lock());
    if !args.quiet {
        for e in &walked.errors {
            let _ = writeln!(err, "{e}");
        }
    }
    for (input, checked) in walked.results {
        let checked = checked.unwrap_or_else(|Panicked| Checked {
            ok: false,
            messages: format!("{}: internal error\n", input.display_name()),
        });
        failed |= !checked.ok;
        if !args.quiet {
            let _ = err.write_all(checked.messages.as_bytes());
        }
    }
    let _ = err.flush();
    if failed { EXIT_ERRORS } else { EXIT_OK }
}

/// The verdict on one input.
struct Checked {
    /// No syntax error, and the input could be read.
    ok: bool,
    /// The rendered errors (empty when `quiet`).
    messages: String,
}

/// Checks one input.
fn check_one(source: &Source, quiet: bool) -> Checked {
    let input = source.input();
    source.with_text(|text| {
        let decoded = match text {
            Ok(decoded) => decoded,
            Err(e) => {
                let messages = if quiet {
                    String::new()
                } else {
                    format!("{}\n", read_error_message(input, &e))
                };
                return Checked {
                    ok: false,
                    messages,
                };
            }
        };
        let text = &decoded.text;
        let errors = hclwright::syntax_errors(text);
        let mut messages = String::new();
        if !quiet {
            let name = input.display_name();
            for e in &errors {
                messages.push_str(&decoded.stand_ins.shown(&e.render(&name, text)));
            }
        }
        Checked {
            ok: errors.is_empty(),
            messages,
        }
    })
}
