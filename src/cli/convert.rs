//! `hclwright convert --to json`: a file in the JSON that `hcl2json`
//! produces for it; `--to hcl`: a JSON syntax file in the native syntax.

use std::io::Write;
use std::path::PathBuf;

use hclwright::convert::{ToHclError, ToJsonError, to_hcl, to_json};

use super::exit::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use super::input::{Input, read_error_message, read_input};
use super::write::write_atomic;

/// The target syntax.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// JSON, as `hcl2json` writes it (the input is native syntax).
    Json,
    /// The native syntax, laid out by the formatter (the input is JSON
    /// syntax; see `hclwright::convert::to_hcl` for how blocks are told
    /// from attributes).
    Hcl,
}

/// Arguments of `convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// The syntax to convert to.
    #[arg(long, value_enum)]
    to: Syntax,
    /// The file (`-` for standard input).
    file: String,
    /// Write the result to this file (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: ConvertArgs) -> i32 {
    let input = if args.file == "-" {
        Input::Stdin
    } else {
        Input::File(PathBuf::from(&args.file))
    };
    let name = input.display_name();
    let decoded = match read_input(&input) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", read_error_message(&input, &e));
            return EXIT_ERRORS;
        }
    };
    let text = decoded.text.into_owned();
    let converted = match args.to {
        Syntax::Json => to_json(&text)
            .map(|json| format!("{json}\n"))
            .map_err(|e| match e {
                ToJsonError::Syntax(errors) => (errors, String::new()),
                other => (Vec::new(), other.to_string()),
            }),
        Syntax::Hcl => to_hcl(&text).map_err(|e| match e {
            ToHclError::Syntax(errors) => (errors, String::new()),
            other => (Vec::new(), other.to_string()),
        }),
    };
    let out = match converted {
        Ok(out) => out,
        Err((errors, message)) => {
            for e in &errors {
                eprint!("{}", e.render(&name, &text));
            }
            if errors.is_empty() {
                eprintln!("{name}: {message}");
            } else {
                eprintln!("{name}: not converted because of syntax errors");
            }
            return EXIT_ERRORS;
        }
    };
    match &args.output {
        Some(path) => {
            if let Err(e) = write_atomic(path, out.as_bytes()) {
                eprintln!("{}: cannot write: {e}", path.display());
                return EXIT_ERRORS;
            }
        }
        None => {
            if std::io::stdout().lock().write_all(out.as_bytes()).is_err() {
                return EXIT_USAGE;
            }
        }
    }
    EXIT_OK
}
