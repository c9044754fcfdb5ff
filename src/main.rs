//! The `hclwright` command-line tool.

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let code = cli::run(std::env::args_os().collect());
    std::process::exit(code);
}
