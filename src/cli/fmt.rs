//! `hclwright fmt`: format files in place, a drop-in for `terraform fmt`.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use clap::ArgAction;
use clap::builder::BoolishValueParser;
use hclwright::FormatOptions;
use hclwright::encoding::StandIns;
use hclwright::format::Profile;

use super::exit::{EXIT_CHANGES, EXIT_ERRORS, EXIT_OK};
use super::input::{Input, Source, read_error_message};
use super::pipeline::{self, Panicked};
use super::write::write_checked;

/// Arguments of `fmt`. Every flag also takes terraform's single-dash
/// spelling (`-check`, `-write=false`, …) and an optional `=BOOL`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Exit status: 0 when done (or, with --check, when every file is formatted), \
1 on bad usage, 2 on syntax or I/O errors (files with syntax errors are \
reported and left untouched; the other files are still processed), 3 when \
--check finds files that are not formatted.")]
pub struct FmtArgs {
    /// Files or directories; `-` reads standard input and writes the result
    /// to standard output. Directories are searched for .tf, .tfvars, .hcl
    /// (including .tftest.hcl, .pkr.hcl) and .nomad files, skipping hidden
    /// folders such as .terraform; with `--profile terraform`, for the
    /// files terraform fmt takes (.tf, .tfvars, .tftest.hcl, .tfmock.hcl).
    /// Defaults to `.`.
    paths: Vec<String>,
    /// List the files whose formatting changed.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = ArgAction::Set,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          value_parser = BoolishValueParser::new())]
    list: bool,
    /// Write the result back to the files.
    #[arg(long, value_name = "BOOL", default_value_t = true, action = ArgAction::Set,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          value_parser = BoolishValueParser::new())]
    write: bool,
    /// Print a unified diff of the changes.
    #[arg(long, value_name = "BOOL", default_value_t = false, action = ArgAction::Set,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          value_parser = BoolishValueParser::new())]
    diff: bool,
    /// Write nothing; list the files that are not formatted and exit with 3
    /// if there are any.
    #[arg(long, value_name = "BOOL", default_value_t = false, action = ArgAction::Set,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          value_parser = BoolishValueParser::new())]
    check: bool,
    /// Also process subdirectories.
    #[arg(long, value_name = "BOOL", default_value_t = false, action = ArgAction::Set,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          value_parser = BoolishValueParser::new())]
    recursive: bool,
    /// Which formatter to imitate: `terraform` (`terraform fmt`), `hclfmt`
    /// (layout only), or `auto`: terraform for .tf, .tfvars, .tftest.hcl
    /// and .tfmock.hcl files, hclfmt for other files. Standard input
    /// follows `--stdin-filename`; without it, it is formatted as
    /// terraform's when the tool runs under the name `terraform` (a
    /// symbolic link that editors call as `terraform fmt -`), as hclfmt's
    /// otherwise.
    #[arg(long, value_enum, default_value_t = ProfileArg::Auto)]
    profile: ProfileArg,
    /// Format files even when they have syntax errors (the layout of
    /// their tokens, as `hclwrite.Format` gives; the terraform profile's
    /// rewrites need a valid file and are left out): the errors are
    /// reported on standard error and the exit status is 0.
    #[arg(long)]
    lenient: bool,
    /// Each input holds one expression or template (not a body), as code
    /// generators produce: `hclwright fmt --expr - <<< '( a+2 )'`.
    #[arg(long)]
    expr: bool,
    /// The name standard input stands for (`-`): its extension picks the
    /// profile under `--profile auto` (`main.tf` gives terraform's), and it
    /// names the input in diffs and error messages.
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
    /// Accepted for compatibility with `terraform fmt`; output is never
    /// colored.
    #[arg(long, value_name = "BOOL", default_value_t = false, action = ArgAction::Set,
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          value_parser = BoolishValueParser::new())]
    no_color: bool,
}

/// The `--profile` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ProfileArg {
    /// By file name.
    Auto,
    /// `terraform fmt`.
    Terraform,
    /// `hclfmt`.
    Hclfmt,
}

/// The long flags of `fmt` that may be spelled with one dash.
const SINGLE_DASH_FLAGS: &[&str] = &[
    "list",
    "write",
    "diff",
    "check",
    "recursive",
    "no-color",
    "profile",
    "stdin-filename",
];

/// Rewrites terraform's single-dash spellings of `fmt`'s flags (`-check`,
/// `-write=false`, …) into clap's `--` spellings, for the arguments after
/// the `fmt` subcommand (up to a `--`). Other arguments are kept as they are.
pub fn translate_single_dash(args: Vec<OsString>) -> Vec<OsString> {
    let Some(sub) = args
        .iter()
        .skip(1)
        .position(|a| !a.to_string_lossy().starts_with('-'))
        .map(|p| p + 1)
    else {
        return args;
    };
    if args[sub] != "fmt" {
        return args;
    }
    let mut out = Vec::with_capacity(args.len());
    let mut done = false;
    for (i, arg) in args.into_iter().enumerate() {
        if i <= sub || done {
            out.push(arg);
            continue;
        }
        let text = arg.to_string_lossy();
        if text == "--" {
            done = true;
            out.push(arg);
            continue;
        }
        let is_single_dash_flag = text
            .strip_prefix('-')
            .filter(|rest| !rest.starts_with('-'))
            .map(|rest| rest.split('=').next().unwrap_or(rest))
            .is_some_and(|name| SINGLE_DASH_FLAGS.contains(&name));
        if is_single_dash_flag {
            let mut long = OsString::from("-");
            long.push(&arg);
            out.push(long);
        } else {
            out.push(arg);
        }
    }
    out
}

/// What happened to one input.
#[derive(Default)]
struct Outcome {
    /// The name shown in messages.
    name: String,
    /// Syntax or I/O error messages (already rendered).
    errors: String,
    /// Syntax errors reported without refusing the input (`--lenient`).
    warnings: Vec<String>,
    /// True when the formatted text differs from the input.
    changed: bool,
    /// The diff, when asked for and changed.
    diff: Vec<u8>,
    /// Text to print on standard output (the formatted input).
    output: Option<Vec<u8>>,
}

/// How the run is configured, after resolving terraform's flag rules.
struct Plan {
    list: bool,
    write: bool,
    diff: bool,
    check: bool,
    profile: ProfileArg,
    /// What standard input stands for: its name, and whether it is a
    /// Terraform file.
    stdin: StdinName,
    /// Files with syntax errors are formatted too (`--lenient`).
    lenient: bool,
    /// Inputs are expressions (`--expr`).
    expr: bool,
    /// Directories are walked for the files `terraform fmt` walks only
    /// (`--profile terraform`, or run as `terraform`).
    terraform_walk: bool,
    /// The files named on the command line (always processed).
    named: Vec<PathBuf>,
}

/// What standard input stands for.
struct StdinName {
    /// The name shown for it.
    shown: String,
    /// Formatted as a Terraform file under `--profile auto`.
    terraform: bool,
}

impl StdinName {
    fn new(stdin_filename: Option<&str>) -> StdinName {
        match stdin_filename {
            Some(name) => StdinName {
                shown: name.to_string(),
                terraform: is_terraform_file(Path::new(name)),
            },
            None => StdinName {
                shown: "<stdin>".to_string(),
                terraform: invoked_as_terraform(),
            },
        }
    }
}

/// True when the tool runs under the name `terraform` (a link made so
/// that editors calling `terraform fmt -` get this tool).
fn invoked_as_terraform() -> bool {
    std::env::args_os()
        .next()
        .and_then(|arg0| {
            Path::new(&arg0)
                .file_stem()
                .map(|stem| stem.eq_ignore_ascii_case("terraform"))
        })
        .unwrap_or(false)
}

pub fn run(args: FmtArgs) -> i32 {
    let paths = if args.paths.is_empty() {
        vec![".".to_string()]
    } else {
        args.paths
    };
    let plan = Plan {
        list: args.list,
        write: args.write && !args.check,
        diff: args.diff,
        check: args.check,
        profile: args.profile,
        stdin: StdinName::new(args.stdin_filename.as_deref()),
        lenient: args.lenient,
        expr: args.expr,
        terraform_walk: args.profile == ProfileArg::Terraform
            || (args.profile == ProfileArg::Auto && invoked_as_terraform()),
        named: paths.iter().map(PathBuf::from).collect(),
    };
    let walked = pipeline::run(&paths, args.recursive, |input| process(input, &plan));
    let mut failed = !walked.errors.is_empty();
    for e in walked.errors {
        eprintln!("{e}");
    }
    let outcomes = walked.results.into_iter().map(|(input, outcome)| {
        outcome.unwrap_or_else(|Panicked| Outcome {
            errors: format!("{}: internal error\n", input.display_name()),
            ..Outcome::default()
        })
    });
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut changed = false;
    for o in outcomes {
        if !o.errors.is_empty() {
            failed = true;
            let _ = out.flush();
            eprint!("{}", o.errors);
            continue;
        }
        if !o.warnings.is_empty() {
            let _ = out.flush();
            for w in &o.warnings {
                eprint!("{w}");
            }
        }
        changed |= o.changed;
        if o.changed && plan.list && !o.name.is_empty() {
            let _ = writeln!(out, "{}", o.name);
        }
        let _ = out.write_all(&o.diff);
        if let Some(text) = &o.output {
            let _ = out.write_all(text);
        }
    }
    let _ = out.flush();
    if failed {
        EXIT_ERRORS
    } else if plan.check && changed {
        EXIT_CHANGES
    } else {
        EXIT_OK
    }
}

/// Formats one input and, for a file, writes it back if asked to.
fn process(source: &Source, plan: &Plan) -> Outcome {
    let input = source.input();
    // With the terraform profile, a walk takes the files terraform takes
    // (`.tf`, `.tfvars`, `.tftest.hcl`, `.tfmock.hcl`); a file named on
    // the command line is formatted whatever its name.
    if plan.terraform_walk
        && let Input::File(path) = input
        && !is_terraform_file(path)
        && !plan.named.iter().any(|named| named == path)
    {
        return Outcome::default();
    }
    // The JSON syntax is not laid out by fmt (as terraform fmt refuses it).
    if let Input::File(path) = input
        && super::input::is_json_path(path)
    {
        return Outcome {
            name: input.display_name(),
            errors: format!(
                "{}: a file of the JSON syntax: fmt formats only the native syntax (`hclwright check` validates it, `hclwright convert --to hcl` converts it)\n",
                input.display_name()
            ),
            ..Outcome::default()
        };
    }
    source.with_text(|text| match text {
        Ok(decoded) => process_text(input, &decoded.text, decoded.stand_ins, plan),
        Err(e) => Outcome {
            name: input.display_name(),
            errors: format!("{}\n", read_error_message(input, &e)),
            ..Outcome::default()
        },
    })
}

/// [`process`] once the input is read; `stand_ins` turns text back into
/// the bytes of the source.
fn process_text(input: &Input, text: &str, stand_ins: StandIns, plan: &Plan) -> Outcome {
    let shown_name = || match input {
        Input::Stdin => plan.stdin.shown.clone(),
        Input::File(p) => shown_path(p),
    };
    let profile = profile_for(input, plan.profile, plan.stdin.terraform);
    let options = FormatOptions::with_profile(profile);
    let verdict_only = matches!(input, Input::File(_))
        && !plan.diff
        && !plan.write
        && (plan.list || plan.check)
        && !plan.lenient
        && !plan.expr;
    if verdict_only {
        // Only whether the file would change matters: the formatted text
        // is not written out.
        // The name is made only for a file that is listed or has errors
        // (most files of a recursive check are neither).
        let mut outcome = Outcome::default();
        match hclwright::format::is_formatted(text, &options.refusing_syntax_errors()) {
            Ok(formatted) => {
                outcome.changed = !formatted;
                if outcome.changed {
                    outcome.name = shown_name();
                }
            }
            Err(e) => {
                outcome.name = shown_name();
                outcome.errors = stand_ins.shown(&e.render(&outcome.name, text)).into_owned();
            }
        }
        return outcome;
    }
    let name = shown_name();
    let mut outcome = Outcome {
        name: name.clone(),
        ..Outcome::default()
    };
    let checked = if plan.expr {
        hclwright::format::format_expr(text).map_err(|e| e.render(&name, text))
    } else if plan.lenient {
        let (formatted, errors) = hclwright::format::format_lenient(text, &options);
        // Reported, not refused.
        outcome.warnings = errors
            .iter()
            .map(|e| stand_ins.shown(&e.render(&name, text)).into_owned())
            .collect();
        Ok(formatted)
    } else {
        format_checked(text, &name, &options)
    };
    let formatted = match checked {
        Ok(formatted) => formatted,
        Err(errors) => {
            outcome.errors = stand_ins.shown(&errors).into_owned();
            return outcome;
        }
    };
    outcome.changed = formatted != text;
    if outcome.changed && plan.diff {
        let diff = hclwright::diff::unified_diff(text, &formatted, &name);
        outcome.diff = stand_ins.encode(&diff).into_owned();
    }
    match input {
        Input::Stdin => {
            // Standard input is never listed or written; the result goes
            // to standard output unless a diff or a check was asked for.
            outcome.name.clear();
            if !plan.diff && !plan.check {
                outcome.output = Some(printed(formatted, profile, stand_ins));
            }
        }
        Input::File(path) => {
            if outcome.changed && plan.write {
                let read = stand_ins.encode(text);
                if let Err(e) = write_checked(path, &read, &stand_ins.encode(&formatted)) {
                    outcome.errors = format!("{name}: cannot write the formatted file: {e}\n");
                    return outcome;
                }
            } else if !plan.list && !plan.write && !plan.diff && !plan.check {
                // As terraform: with nothing else to do, print the result.
                outcome.output = Some(printed(formatted, profile, stand_ins));
            }
        }
    }
    outcome
}

/// Formatted text as printed on standard output: `terraform fmt` ends
/// what it prints with a newline when the text has none (so that the
/// results of several files do not run together), though it writes files
/// as they are; `hclfmt` prints the text as it is. Bytes that were not
/// UTF-8 in the source are printed as they were.
fn printed(mut formatted: String, profile: Profile, stand_ins: StandIns) -> Vec<u8> {
    if profile == Profile::Terraform && !formatted.ends_with('\n') {
        formatted.push('\n');
    }
    match stand_ins.encode(&formatted) {
        std::borrow::Cow::Borrowed(_) => formatted.into_bytes(),
        std::borrow::Cow::Owned(bytes) => bytes,
    }
}

/// Formats `text`, refusing it if it has syntax errors (whatever the
/// profile); the error is the rendered list of syntax errors.
fn format_checked(text: &str, name: &str, options: &FormatOptions) -> Result<String, String> {
    hclwright::format_with(text, &options.clone().refusing_syntax_errors())
        .map_err(|e| e.render(name, text))
}

/// The profile for an input under `--profile`; `stdin_terraform` says
/// whether standard input stands for a Terraform file.
fn profile_for(input: &Input, arg: ProfileArg, stdin_terraform: bool) -> Profile {
    match arg {
        ProfileArg::Terraform => Profile::Terraform,
        ProfileArg::Hclfmt => Profile::Hclfmt,
        ProfileArg::Auto => match input {
            Input::File(p) if is_terraform_file(p) => Profile::Terraform,
            Input::Stdin if stdin_terraform => Profile::Terraform,
            _ => Profile::Hclfmt,
        },
    }
}

/// True for the files `terraform fmt` handles: .tf, .tfvars, .tftest.hcl,
/// .tfmock.hcl.
fn is_terraform_file(path: &Path) -> bool {
    let name = path.file_name().map_or(&[][..], |n| n.as_encoded_bytes());
    [".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl"]
        .iter()
        .any(|ext| name.ends_with(ext.as_bytes()))
}

/// A path as shown to the user: without leading `./` components.
fn shown_path(path: &Path) -> String {
    let trimmed: PathBuf = path
        .components()
        .skip_while(|c| matches!(c, Component::CurDir))
        .collect();
    if trimmed.as_os_str().is_empty() {
        path.display().to_string()
    } else {
        trimmed.display().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn translate(args: &[&str]) -> Vec<String> {
        translate_single_dash(args.iter().map(OsString::from).collect())
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn single_dash_flags_become_long_flags_after_fmt() {
        assert_eq!(
            translate(&[
                "hw",
                "fmt",
                "-check",
                "-write=false",
                "-list=false",
                "-diff",
                "-recursive",
                "-",
                "dir"
            ]),
            [
                "hw",
                "fmt",
                "--check",
                "--write=false",
                "--list=false",
                "--diff",
                "--recursive",
                "-",
                "dir"
            ]
        );
        // Unknown flags, other subcommands and arguments after `--` stay.
        assert_eq!(
            translate(&["hw", "fmt", "-x", "--", "-check"]),
            ["hw", "fmt", "-x", "--", "-check"]
        );
        assert_eq!(
            translate(&["hw", "check", "-check"]),
            ["hw", "check", "-check"]
        );
        assert_eq!(translate(&["hw"]), ["hw"]);
    }

    #[test]
    fn profiles_by_file_name() {
        let file = |p: &str| Input::File(PathBuf::from(p));
        for p in ["a/main.tf", "x.tfvars", "a.tftest.hcl", "m.tfmock.hcl"] {
            assert_eq!(
                profile_for(&file(p), ProfileArg::Auto, false),
                Profile::Terraform,
                "{p}"
            );
        }
        for p in ["terragrunt.hcl", "job.nomad", "a.pkr.hcl"] {
            assert_eq!(
                profile_for(&file(p), ProfileArg::Auto, false),
                Profile::Hclfmt,
                "{p}"
            );
        }
        assert_eq!(
            profile_for(&Input::Stdin, ProfileArg::Auto, false),
            Profile::Hclfmt
        );
        assert_eq!(
            profile_for(&Input::Stdin, ProfileArg::Auto, true),
            Profile::Terraform
        );
        assert_eq!(
            profile_for(&Input::Stdin, ProfileArg::Terraform, false),
            Profile::Terraform
        );
        assert_eq!(
            profile_for(&Input::Stdin, ProfileArg::Hclfmt, true),
            Profile::Hclfmt
        );
    }

    #[test]
    fn shown_paths_drop_leading_dot() {
        assert_eq!(shown_path(Path::new("./a/main.tf")), "a/main.tf");
        assert_eq!(shown_path(Path::new("main.tf")), "main.tf");
        assert_eq!(shown_path(Path::new(".")), ".");
    }
}
