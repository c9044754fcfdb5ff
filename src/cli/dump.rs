//! `hclwright dump`: print the syntax tree.

use super::exit::{EXIT_ERRORS, EXIT_OK};
use super::input::{Input, read_error_message, read_input};

/// Arguments of `dump`.
#[derive(clap::Args, Debug)]
pub struct DumpArgs {
    /// The file to dump; `-` reads standard input.
    file: String,
}

pub fn run(args: DumpArgs) -> i32 {
    let input = if args.file == "-" {
        Input::Stdin
    } else {
        Input::File(args.file.into())
    };
    let decoded = match read_input(&input) {
        Ok(decoded) => decoded,
        Err(e) => {
            eprintln!("{}", read_error_message(&input, &e));
            return EXIT_ERRORS;
        }
    };
    let (text, stand_ins) = (&decoded.text, decoded.stand_ins);
    let parse = hclwright::parse(text);
    print!("{}", stand_ins.shown(&parse.debug_tree()));
    let name = input.display_name();
    for e in parse.errors() {
        eprint!("{}", stand_ins.shown(&e.render(&name, text)));
    }
    if parse.errors().is_empty() {
        EXIT_OK
    } else {
        EXIT_ERRORS
    }
}
