//! `hclwright completions SHELL` and `hclwright man`: shell completion
//! scripts and the roff manual page, generated from the same clap
//! definition that parses the command line, so they never fall behind it.

use std::io::Write;

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;

use super::Cli;
use super::exit::{EXIT_CHANGES, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};

/// The shells `hclwright completions` writes scripts for.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CompletionShell {
    /// Bash: `source <(hclwright completions bash)`, or save the script in
    /// `/etc/bash_completion.d/hclwright`.
    Bash,
    /// Zsh: save as `_hclwright` in a folder of `$fpath`.
    Zsh,
    /// Fish: save as `~/.config/fish/completions/hclwright.fish`.
    Fish,
    /// PowerShell: `hclwright completions powershell | Out-String | Invoke-Expression`.
    Powershell,
    /// Elvish: `eval (hclwright completions elvish | slurp)`.
    Elvish,
}

impl CompletionShell {
    fn shell(self) -> Shell {
        match self {
            CompletionShell::Bash => Shell::Bash,
            CompletionShell::Zsh => Shell::Zsh,
            CompletionShell::Fish => Shell::Fish,
            CompletionShell::Powershell => Shell::PowerShell,
            CompletionShell::Elvish => Shell::Elvish,
        }
    }
}

/// Arguments of `hclwright completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    shell: CompletionShell,
}

/// Arguments of `hclwright man`.
#[derive(Args, Debug)]
pub struct ManArgs {}

/// Writes the completion script for the chosen shell to standard output.
pub fn completions(args: CompletionsArgs) -> i32 {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell.shell(), &mut command, "hclwright", &mut script);
    write_stdout(&script)
}

/// Writes the manual page (roff, section 1) to standard output:
/// `hclwright man > hclwright.1`, or `hclwright man | man -l -`.
///
/// The page covers the tool and each subcommand, one section per
/// subcommand, with its options.
pub fn man(_args: ManArgs) -> i32 {
    let command = Cli::command();
    let mut page = Vec::new();
    if let Err(e) = render_man(&command, &mut page) {
        eprintln!("hclwright man: {e}");
        return EXIT_ERRORS;
    }
    write_stdout(&page)
}

/// The page of the tool, followed by a section per subcommand (its about
/// text, its usage and its options), as `git help`'s pages are read.
fn render_man(command: &clap::Command, out: &mut Vec<u8>) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        writeln!(out, ".SH \"HCLWRIGHT {}\"", name.to_uppercase())?;
        // A subcommand's own page, without its title line (one `.TH` a page).
        let sub = sub.clone().bin_name(format!("hclwright {name}"));
        let sub_man = clap_mangen::Man::new(sub);
        let mut section = Vec::new();
        sub_man.render_synopsis_section(&mut section)?;
        sub_man.render_description_section(&mut section)?;
        sub_man.render_options_section(&mut section)?;
        // The subcommand's sections become subsections of its section.
        let text = String::from_utf8_lossy(&section).replace(".SH ", ".SS ");
        out.extend_from_slice(text.as_bytes());
    }
    render_exit_status(out)?;
    man.render_version_section(out)?;
    Ok(())
}

/// The exit codes every subcommand shares (see the constants in
/// `cli/mod.rs`).
fn render_exit_status(out: &mut Vec<u8>) -> std::io::Result<()> {
    writeln!(out, ".SH \"EXIT STATUS\"")?;
    let codes = [
        (EXIT_OK, "Success."),
        (
            EXIT_USAGE,
            "Bad usage; eval: the expression has errors; get, set, rm, mv, block, comment, refs and rename: nothing found or matched.",
        ),
        (
            EXIT_ERRORS,
            "Syntax or I/O errors; bad usage of get, set, rm, mv, block, comment, refs, rename and bump.",
        ),
        (
            EXIT_CHANGES,
            "fmt --check (or -check): some files are not formatted.",
        ),
    ];
    for (code, meaning) in codes {
        writeln!(out, ".TP\n\\fB{code}\\fR\n{meaning}")?;
    }
    Ok(())
}

/// Writes `bytes` to standard output; a closed pipe is not an error.
fn write_stdout(bytes: &[u8]) -> i32 {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("hclwright: cannot write to standard output: {e}");
            EXIT_ERRORS
        }
    }
}
