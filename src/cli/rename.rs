//! `hclwright rename`: prefix renames and Terraform-aware renames.

use std::io::Write as _;

use hclwright::diff::{TextEdit, apply_edits, git_unified_diff};
use hclwright::encoding::StandIns;
use hclwright::refs::callers;
use hclwright::refs::terraform::{self, ObjectAddress};
use hclwright::refs::{Rename, SourceFile, is_identifier};

use super::exit::{EXIT_ERRORS, EXIT_OK};
use super::files::{expand, expand_with_json};
use super::input::{Input, is_json_file_name, read_error_message, read_input};
use super::write::write_checked;

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
    /// Directories are not walked recursively: a module is one directory,
    /// and the files of different directories are renamed as different
    /// modules.
    #[arg(long)]
    terraform: bool,
    /// With --terraform, add a `moved` block after a renamed resource or
    /// module.
    #[arg(long, requires = "terraform")]
    moved: bool,
    /// With --terraform, for an input variable or an output: also rename
    /// the argument (variable) or the `module.CALL.NAME` references
    /// (output) in every configuration under DIR (walked recursively)
    /// whose `module` blocks call the renamed module folder by a relative
    /// `source` path.
    #[arg(long, requires = "terraform", value_name = "DIR")]
    callers: Option<String>,
    /// The prefix to rename, such as `var.region` or `local.cfg[*].name`
    /// (`[*]` matches any index); with --terraform, the address.
    #[arg(value_name = "FROM")]
    from: String,
    /// The new prefix (keeping every `[*]` of FROM); with --terraform, the
    /// new name.
    #[arg(value_name = "TO")]
    to: String,
    /// Files or directories (walked recursively for .tf, .tfvars, .hcl and
    /// .nomad files and their JSON syntax, .tf.json…, renamed inside their
    /// template strings and property names); `-` reads standard input.
    /// Defaults to `.`.
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
    Terraform(ObjectAddress),
}

/// Checks FROM and TO.
fn mode(args: &RenameArgs) -> Result<Mode, String> {
    if !args.terraform {
        return Rename::parse(&args.from, &args.to)
            .map(Mode::Prefix)
            .map_err(|e| e.to_string());
    }
    let address: ObjectAddress = args.from.parse().map_err(|e| format!("{e}"))?;
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
    let (mut inputs, walk_errors) = expand_with_json(&paths, !args.terraform);
    let mut failed = !walk_errors.is_empty();
    for e in walk_errors {
        eprintln!("{e}");
    }
    // The module's own files come first; the callers' after them.
    let module_inputs = inputs.len();
    if let Some(dir) = &args.callers {
        let (callers, walk_errors) = expand(std::slice::from_ref(dir), true);
        failed |= !walk_errors.is_empty();
        for e in walk_errors {
            eprintln!("{e}");
        }
        let own: Vec<Option<std::path::PathBuf>> = inputs.iter().map(canonical).collect();
        for caller in callers {
            let path = canonical(&caller);
            if path.is_none() || !own.contains(&path) {
                inputs.push(caller);
            }
        }
    }

    // Read and parse; files with errors are reported and left out.
    let mut valid: Vec<(usize, SourceFile)> = Vec::new();
    // Per input, how its text turns back into its bytes.
    let mut stand_ins = vec![StandIns::default(); inputs.len()];
    // The renames made while checking, by input.
    let mut renamed_early: Vec<Option<hclwright::refs::Renamed>> =
        (0..inputs.len()).map(|_| None).collect();
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
        let name = input.display_name();
        let json = is_json_file_name(&name);
        // A prefix rename of a native file checks it and renames at once.
        let errors = match &mode {
            Mode::Prefix(rename) if !json => match rename.apply_checked(&text) {
                Ok(renamed) => {
                    renamed_early[i] = Some(renamed);
                    Vec::new()
                }
                Err(errors) => errors,
            },
            _ if json => hclwright::json::syntax_errors(&text),
            _ => hclwright::syntax_errors(&text),
        };
        if !errors.is_empty() {
            for e in &errors {
                eprint!("{}", stand_ins[i].shown(&e.render(&name, &text)));
            }
            eprintln!("{name}: not renamed because of syntax errors");
            failed = true;
            continue;
        }
        valid.push((i, SourceFile::new(input.display_name(), text)));
    }

    let plan = match &mode {
        Mode::Terraform(address) => terraform_plan(&args, address, &valid, module_inputs),
        Mode::Prefix(rename) => Ok(prefix_plan(&args, rename, &valid, renamed_early)),
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
            Input::File(path) => match write_checked(
                path,
                &stand_ins[*i].encode(&file.text),
                &stand_ins[*i].encode(&new_text),
            ) {
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
fn prefix_plan(
    args: &RenameArgs,
    rename: &Rename,
    files: &[(usize, SourceFile)],
    mut early: Vec<Option<hclwright::refs::Renamed>>,
) -> Plan {
    let mut changes = Vec::new();
    let mut references = 0;
    for (i, file) in files {
        let renamed = match early[*i].take() {
            Some(renamed) => renamed,
            None if super::input::is_json_path(&file.path) => {
                hclwright::json::rename(&hclwright::json::parse(&file.text), rename)
            }
            None => rename.apply_text(&file.text),
        };
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

/// The Terraform-aware rename of the valid files: the inputs before
/// `module_inputs` are the module's files (one module per folder), the
/// others the configurations that may call it (`--callers`).
fn terraform_plan(
    args: &RenameArgs,
    address: &ObjectAddress,
    files: &[(usize, SourceFile)],
    module_inputs: usize,
) -> Result<Plan, String> {
    let options = terraform::Options { moved: args.moved };
    // One module per folder.
    let mut folders: Vec<(std::path::PathBuf, Vec<SourceFile>)> = Vec::new();
    for (_, file) in files.iter().filter(|(i, _)| *i < module_inputs) {
        let folder = file
            .path
            .parent()
            .unwrap_or(std::path::Path::new(""))
            .to_path_buf();
        match folders.iter_mut().find(|(f, _)| *f == folder) {
            Some((_, sources)) => sources.push(file.clone()),
            None => folders.push((folder, vec![file.clone()])),
        }
    }
    let mut results = Vec::new();
    for (folder, sources) in &folders {
        let result =
            terraform::rename(sources, address, &args.to, options).map_err(|e| e.to_string())?;
        results.push((folder.clone(), result));
    }
    // Where several modules are given, only those that declare the address
    // are renamed: the others' references name another object.
    if results.iter().filter(|(_, r)| r.declarations > 0).count() > 0 {
        results.retain(|(_, r)| r.declarations > 0);
    }
    let mut file_edits: Vec<hclwright::refs::FileEdits> = Vec::new();
    let (mut declarations, mut references, mut moved_blocks) = (0, 0, 0);
    for (_, result) in &results {
        declarations += result.declarations;
        references += result.references;
        moved_blocks += result.moved_blocks;
        file_edits.extend(result.files.iter().cloned());
    }
    let mut notes = String::new();
    if let Some(dir) = &args.callers {
        let callers: Vec<SourceFile> = files
            .iter()
            .filter(|(i, _)| *i >= module_inputs)
            .map(|(_, f)| f.clone())
            .collect();
        let mut calls = 0;
        for (folder, result) in &results {
            if result.declarations == 0 {
                continue;
            }
            let module_dir = if folder.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                folder.as_path()
            };
            let renamed =
                callers::rename_in_callers(&callers, address, &args.to, |file, source| {
                    callers::local_source_is(module_dir, file, source)
                })
                .map_err(|e| e.to_string())?;
            for (path, call) in &renamed.calls {
                calls += 1;
                notes.push_str(&format!("\ncaller: {} (module \"{call}\")", path.display()));
            }
            for (path, line, source) in &renamed.unresolved {
                notes.push_str(&format!(
                    "\nwarning: {}:{line}: module source \"{source}\" cannot be resolved; not renamed there",
                    path.display()
                ));
            }
            for caller_edits in renamed.files {
                references += caller_edits.matches;
                file_edits.push(caller_edits);
            }
        }
        if calls == 0 {
            notes.push_str(&format!(
                "\nno module block under {dir} calls the renamed module"
            ));
        }
    }
    let changes = file_edits
        .iter()
        .filter_map(|fe| {
            let (i, _) = files.iter().find(|(_, f)| f.path == fe.path)?;
            Some((*i, fe.edits.clone()))
        })
        .collect::<Vec<_>>();
    let matched = declarations + references > 0;
    let mut summary = if matched {
        format!(
            "{} `{address}` -> `{}`: {}, {} in {}",
            if args.write {
                "renamed"
            } else {
                "would rename"
            },
            address.with_name(&args.to),
            plural(declarations, "declaration"),
            plural(references, "reference"),
            plural(changes.len(), "file"),
        )
    } else {
        format!("nothing matched `{address}`")
    };
    if moved_blocks > 0 {
        summary.push_str(", with a `moved` block");
    }
    if matched && declarations == 0 {
        summary.push_str(&format!(
            "\nwarning: no declaration of `{address}` in the given files"
        ));
        if args.moved {
            summary.push_str("; no `moved` block added");
        }
    }
    summary.push_str(&notes);
    Ok(Plan {
        changes,
        matched,
        summary,
    })
}

/// The canonical path of a file input (`None` for standard input or a
/// path that cannot be resolved).
fn canonical(input: &Input) -> Option<std::path::PathBuf> {
    match input {
        Input::File(path) => std::fs::canonicalize(path).ok(),
        Input::Stdin => None,
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
