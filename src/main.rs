//! The `hclwright` command-line tool.

mod cli;

fn main() {
    let code = cli::run(std::env::args_os().collect());
    std::process::exit(code);
}
