//! Command-line interface: argument parsing and the subcommands.
//!
//! Layers, from the bottom (each imports only from its own layer and
//! those under it; `tests/layers.rs` checks it):
//!
//! 1. input and output: `input` (what a path names, folders listed, files
//!    read and decoded), `write` (the library's safe writer), `json` (JSON
//!    strings for `--json` output), `exit` (exit codes);
//! 2. `pipeline`: directories walked and files processed in parallel;
//! 3. shared by commands: `files` (paths expanded into inputs), `editing`
//!    (what the editing commands share), `edit_json` (their `.json` side);
//! 4. the commands, one a module (`lsp/` a folder), importing no other
//!    command; this entry (`Cli`, dispatch) on top.

mod bump;
mod check;
mod comment;
mod convert;
mod dump;
mod edit;
mod edit_json;
mod editing;
mod eval;
mod exit;
mod files;
mod fmt;
mod generate;
mod input;
mod json;
mod lsp;
mod pipeline;
mod refs;
mod rename;
mod write;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

// Re-exported: `lsp` names them from here.
pub use exit::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};

#[derive(Parser, Debug)]
#[command(
    name = "hclwright",
    version,
    about = "Lossless HCL tooling: check, format and edit Terraform, Packer, Nomad and Terragrunt files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Report syntax errors (`path:line:col: message`); exit 2 if any.
    Check(check::CheckArgs),
    /// Print the syntax tree of a file.
    Dump(dump::DumpArgs),
    /// Format files in the canonical layout (a drop-in for `terraform fmt`).
    Fmt(fmt::FmtArgs),
    /// List the references (traversals from a variable): `path:line:col: traversal`.
    Refs(refs::RefsArgs),
    /// Rename a reference prefix everywhere (or, with --terraform, a declared object); prints a diff unless -w.
    Rename(rename::RenameArgs),
    /// Print the value at an address (`resource.aws_instance.web.ami`); exit 1 if not found.
    Get(edit::GetArgs),
    /// Set (or create) the value at an address to HCL source; prints the result, -u to rewrite, --diff.
    Set(edit::SetArgs),
    /// Remove the attribute, block, object item or element at an address.
    Rm(edit::RmArgs),
    /// Rename the attribute, object key or block type at an address.
    Mv(edit::MvArgs),
    /// Append, move or remove blocks.
    Block(edit::BlockArgs),
    /// Read, set or remove the comment lines above an item or the comment
    /// at the end of its line.
    Comment(comment::CommentArgs),
    /// Bump Terraform, provider, module or Packer plugin versions across
    /// files (tfupdate's job), changing only the version strings.
    Bump(bump::BumpArgs),
    /// Print the value of an expression as `terraform console` prints it,
    /// with the variables and locals of a module folder.
    ///
    /// Exit status: 0 when the value is printed; 1 when the expression,
    /// the module or a value is in error: a syntax or evaluation error, a
    /// file or variable Terraform rejects (such as `nullable = false` with
    /// a null default), a failed `validation` rule of a variable the
    /// expression uses (directly or through locals; `terraform console`
    /// prints the value anyway, `plan` stops), or a `--dir` that is not a
    /// folder; also 1 for bad usage.
    Eval(eval::EvalArgs),
    /// Convert a file to JSON (`--to json`, as the `hcl2json` tool does) or a JSON syntax file to the native syntax (`--to hcl`)
    Convert(convert::ConvertArgs),
    /// Run the language server on standard input and output (diagnostics
    /// and formatting for editors).
    Lsp(lsp::LspArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell,
    /// elvish) to standard output.
    Completions(generate::CompletionsArgs),
    /// Print the manual page (roff) to standard output: `hclwright man |
    /// man -l -`.
    Man(generate::ManArgs),
}

/// The exit code for bad usage of the subcommand named in `args`: 1 (as
/// `terraform fmt`) for `check`, `dump` and `fmt`; 2 for the commands where
/// 1 means "not found" or "nothing matched" (`get`, `set`, `rm`, `mv`,
/// `block`, `refs`, `rename`), so the two cannot be confused.
fn usage_exit_code(args: &[OsString]) -> i32 {
    let subcommand = args
        .iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'));
    match subcommand
        .map(|s| s.to_string_lossy().to_string())
        .as_deref()
    {
        Some("get" | "set" | "rm" | "mv" | "block" | "comment" | "refs" | "rename" | "bump") => {
            EXIT_ERRORS
        }
        _ => EXIT_USAGE,
    }
}

/// Runs the tool with `args` (including the program name); returns the
/// exit code.
pub fn run(args: Vec<OsString>) -> i32 {
    // `fmt` also accepts terraform's single-dash flags (`-check`, `-write=false`).
    let args = fmt::translate_single_dash(args);
    let usage_code = usage_exit_code(&args);
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    EXIT_OK
                }
                _ => usage_code,
            };
            let _ = e.print();
            return code;
        }
    };
    if !matches!(cli.command, Command::Lsp(_)) {
        crate::give_freed_memory_back_at_once();
    }
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Dump(args) => dump::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Refs(args) => refs::run(args),
        Command::Rename(args) => rename::run(args),
        Command::Get(args) => edit::get(args),
        Command::Set(args) => edit::set(args),
        Command::Rm(args) => edit::rm(args),
        Command::Mv(args) => edit::mv(args),
        Command::Block(args) => edit::block(args),
        Command::Comment(args) => comment::run(args),
        Command::Bump(args) => bump::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Completions(args) => generate::completions(args),
        Command::Man(args) => generate::man(args),
    }
}
