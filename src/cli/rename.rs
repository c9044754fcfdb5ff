//! `hclwright rename`: prefix renames and Terraform-aware renames.

use std::io::Write as _;

use hclwright::diff::{TextEdit, apply_edits, git_unified_diff};
use hclwright::encoding::StandIns;
use hclwright::refs::terraform::{self, Address};
use hclwright::refs::{Rename, SourceFile, is_identifier};

use super::files::{Input, expand, read_error_message, read_input};
use super::write::write_atomic;
use super::{EXIT_ERRORS, EXIT_OK};

/// Exit code: nothing matched.
const EXIT_NONE: i32 = 1;

/// Arguments of `rename`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  hclwright rename var.region var.aws_region .
  hclwright rename 'local.cfg[*].name' 'local.cfg[*].title' modules/
  hclwright rename -w --terraform --moved aws_instance.web app .

Without -w, prints the unified diff of what would change. Files with syntax
errors are reported and left untouched. Exit status: 0 when something was
renamed, 1 when nothing matched, 2 on syntax or I/O errors.")]
pub struct RenameArgs {
    /// Write the changes into the files (atomically) instead of printing a
    /// diff.
    #[arg(short, long)]
    write: bool,
    /// Terraform-aware rename: FROM is an address (variable.NAME,
    /// local.NAME, module.NAME, output.NAME, data.TYPE.NAME or TYPE.NAME)
    /// and TO the new name; renames the declaration and every reference.
    /// Directories are not walked recursively (a module is one directory).
    #[arg(long)]
    terraform: bool,
    /// With --terraform, add a `moved` block after a renamed resource or
    /// module.
    #[arg(long, requires = "terraform")]
    moved: bool,
    /// The prefix to rename, such as `var.region` or `local.cfg[*].name`
    /// (`[*]` matches any index); with --terraform, the address.
    #[arg(value_name = "FROM")]
    from: String,
    /// The new prefix (keeping every `[*]` of FROM); with --terraform, the
    /// new name.
    #[arg(value_name = "TO")]
    to: String,
    /// Files or directories (walked recursively for .tf, .tfvars, .hcl and
    /// .nomad files); `-` reads standard input. Defaults to `.`.
    #[arg(default_value = ".")]
    paths: Vec<String>,
}

/// What the rename does to the valid inputs.
struct Plan {
    /// `(input index, edits)` of the files that change.
    changes: Vec<(usize, Vec<TextEdit>)>,
    /// Something matched (a reference or a declaration).
    matched: bool,
    /// A one-line account for standard error.
    summary: String,
}

/// What to rename, checked before any file is read.
enum Mode {
    /// A prefix rename.
    Prefix(Rename),
    /// A Terraform-aware rename.
    Terraform(Address),
}

/// Checks FROM and TO.
fn mode(args: &RenameArgs) -> Result<Mode, String> {
    if !args.terraform {
        return Rename::parse(&args.from, &args.to)
            .map(Mode::Prefix)
            .map_err(|e| e.to_string());
    }
    let address: Address = args.from.parse().map_err(|e| format!("{e}"))?;
    if !is_identifier(&args.to) {
        return Err(format!("`{}` is not a valid name", args.to));
    }
    if args.moved && !address.can_move() {
        return Err(format!(
            "`moved` blocks exist only for resources and modules, not for `{address}`"
        ));
    }
    Ok(Mode::Terraform(address))
}

pub fn run(args: RenameArgs) -> i32 {
    let mode = match mode(&args) {
        Ok(mode) => mode,
        Err(message) => {
            eprintln!("hclwright: {message}");
            return EXIT_ERRORS;
        }
    };
    let paths = args.paths.clone();
    let (inputs, walk_errors) = expand(&paths, !args.terraform);
    let mut failed = !walk_errors.is_empty();
    for e in walk_errors {
        eprintln!("{e}");
    }

    // Read and parse; files with errors are reported and left out.
    let mut valid: Vec<(usize, SourceFile)> = Vec::new();
    // Per input, how its text turns back into its bytes.
    let mut stand_ins = vec![StandIns::default(); inputs.len()];
    for (i, input) in inputs.iter().enumerate() {
        let decoded = match read_input(input) {
            Ok(decoded) => decoded,
            Err(e) => {
                eprintln!("{}", read_error_message(input, &e));
                failed = true;
                continue;
            }
        };
        stand_ins[i] = decoded.stand_ins;
        let text = decoded.text.into_owned();
        let parse = hclwright::parse(&text);
        if !parse.errors().is_empty() {
            let name = input.display_name();
            for e in parse.errors() {
                eprint!("{}", stand_ins[i].shown(&e.render(&name, &text)));
            }
            eprintln!("{name}: not renamed because of syntax errors");
            failed = true;
            continue;
        }
        valid.push((i, SourceFile::new(input.display_name(), text)));
    }

    let plan = match &mode {
        Mode::Terraform(address) => terraform_plan(&args, address, &valid),
        Mode::Prefix(rename) => Ok(prefix_plan(&args, rename, &valid)),
    };
    let plan = match plan {
        Ok(plan) => plan,
        Err(message) => {
            eprintln!("hclwright: {message}");
            return EXIT_ERRORS;
        }
    };

    let mut out: Vec<u8> = Vec::new();
    for (i, edits) in &plan.changes {
        let input = &inputs[*i];
        let Some((_, file)) = valid.iter().find(|(j, _)| j == i) else {
            continue;
        };
        let new_text = match apply_edits(&file.text, edits) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {e}", input.display_name());
                failed = true;
                continue;
            }
        };
        if !args.write {
            let diff = git_unified_diff(&file.text, &new_text, &input.display_name());
            out.extend_from_slice(&stand_ins[*i].encode(&diff));
            continue;
        }
        match input {
            Input::File(path) => match write_atomic(path, &stand_ins[*i].encode(&new_text)) {
                Ok(()) => {
                    out.extend_from_slice(input.display_name().as_bytes());
                    out.push(b'\n');
                }
                Err(e) => {
                    eprintln!("{}: {e}", input.display_name());
                    failed = true;
                }
            },
            Input::Stdin => {
                eprintln!("<stdin>: cannot write standard input; run without -w for a diff");
                failed = true;
            }
        }
    }
    {
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(&out);
        let _ = stdout.flush();
    }
    eprintln!("{}", plan.summary);
    if failed {
        EXIT_ERRORS
    } else if !plan.matched {
        EXIT_NONE
    } else {
        EXIT_OK
    }
}

/// The prefix rename of the valid files (already parsed once without
/// errors).
fn prefix_plan(args: &RenameArgs, rename: &Rename, files: &[(usize, SourceFile)]) -> Plan {
    let mut changes = Vec::new();
    let mut references = 0;
    for (i, file) in files {
        let renamed = rename.apply(&hclwright::parse(&file.text).syntax());
        references += renamed.matches;
        if !renamed.edits.is_empty() {
            changes.push((*i, renamed.edits));
        }
    }
    let summary = if references == 0 {
        format!("nothing matched `{}`", rename.from())
    } else {
        format!(
            "{} `{}` -> `{}`: {} in {}",
            if args.write {
                "renamed"
            } else {
                "would rename"
            },
            rename.from(),
            rename.to(),
            plural(references, "reference"),
            plural(changes.len(), "file"),
        )
    };
    Plan {
        changes,
        matched: references > 0,
        summary,
    }
}

/// The Terraform-aware rename of the valid files.
fn terraform_plan(
    args: &RenameArgs,
    address: &Address,
    files: &[(usize, SourceFile)],
) -> Result<Plan, String> {
    let sources: Vec<SourceFile> = files.iter().map(|(_, f)| f.clone()).collect();
    let options = terraform::Options { moved: args.moved };
    let result =
        terraform::rename(&sources, address, &args.to, options).map_err(|e| e.to_string())?;
    let changes = result
        .files
        .iter()
        .filter_map(|fe| {
            let (i, _) = files.iter().find(|(_, f)| f.path == fe.path)?;
            Some((*i, fe.edits.clone()))
        })
        .collect::<Vec<_>>();
    let matched = result.declarations + result.references > 0;
    let mut summary = if matched {
        format!(
            "{} `{address}` -> `{}`: {}, {} in {}",
            if args.write {
                "renamed"
            } else {
                "would rename"
            },
            address.with_name(&args.to),
            plural(result.declarations, "declaration"),
            plural(result.references, "reference"),
            plural(changes.len(), "file"),
        )
    } else {
        format!("nothing matched `{address}`")
    };
    if result.moved_blocks > 0 {
        summary.push_str(", with a `moved` block");
    }
    if matched && result.declarations == 0 {
        summary.push_str(&format!(
            "\nwarning: no declaration of `{address}` in the given files"
        ));
        if args.moved {
            summary.push_str("; no `moved` block added");
        }
    }
    Ok(Plan {
        changes,
        matched,
        summary,
    })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
