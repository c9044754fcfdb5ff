//! `hclwright refs`: list the references of files.

use std::fmt::Write as _;

use hclwright::LineIndex;
use hclwright::refs::{
    Binding, IndexKey, Pattern, Reference, StepKind, references, references_with_locals,
};

use super::exit::{EXIT_ERRORS, EXIT_OK};
use super::files::expand_with_json;
use super::input::{Input, read_error_message, read_input};
use super::json;

/// Exit code: no reference found.
const EXIT_NONE: i32 = 1;

/// Arguments of `refs`.
#[derive(clap::Args, Debug)]
pub struct RefsArgs {
    /// Optionally a TARGET first (a reference prefix in the pattern syntax
    /// of `rename`: `var.region`, `module.vpc`, `aws_instance.*.id`; a
    /// first argument that is not an existing file or folder), then files
    /// or directories (walked recursively for .tf, .tfvars, .hcl and
    /// .nomad files and their JSON syntax, .tf.json…, whose template
    /// strings are searched); `-` reads standard input. Defaults to `.`.
    #[arg(value_name = "[TARGET] PATH")]
    paths: Vec<String>,
    /// List only the references that start with this prefix (as a first
    /// argument that is not a path does).
    #[arg(long, short = 't', value_name = "PATTERN")]
    target: Option<String>,
    /// Print a JSON array of references, with the byte range, line and
    /// column of every step.
    #[arg(long)]
    json: bool,
    /// Also list uses of variables bound by `for` expressions and template
    /// `for` directives (marked `(local)`).
    #[arg(long)]
    locals: bool,
}

/// Whether a first argument that is not there was meant as a path: it
/// has a `/` (or `\\`) or ends as the files `refs` reads end.
fn looks_like_a_path(arg: &str) -> bool {
    arg.contains('/')
        || arg.contains(std::path::MAIN_SEPARATOR)
        || super::input::is_hcl_file_name(arg)
        || super::input::is_json_file_name(arg)
}

/// Prints each reference as `path:line:col: traversal`; exit 0 when some
/// were found, 1 when none, 2 on read or syntax errors (files with syntax
/// errors are reported and skipped).
pub fn run(args: RefsArgs) -> i32 {
    let mut paths = args.paths;
    let mut target = args.target;
    if target.is_none()
        && let Some(first) = paths.first()
        && first != "-"
        && !std::path::Path::new(first).exists()
        && first.parse::<Pattern>().is_ok()
    {
        // A mistyped file name (`nope.tf`) parses as a reference too.
        if looks_like_a_path(first) {
            eprintln!(
                "error: {first}: no such file or folder (to list the references that start with `{first}`, use --target {first})"
            );
            return EXIT_ERRORS;
        }
        target = Some(paths.remove(0));
    }
    let target = match target.as_deref().map(str::parse::<Pattern>).transpose() {
        Ok(target) => target,
        Err(e) => {
            eprintln!(
                "error: invalid target `{}`: {e}",
                target.unwrap_or_default()
            );
            return EXIT_ERRORS;
        }
    };
    if paths.is_empty() {
        paths.push(".".to_string());
    }
    let (inputs, walk_errors) = expand_with_json(&paths, true);
    let mut failed = !walk_errors.is_empty();
    for e in walk_errors {
        eprintln!("{e}");
    }
    let mut found = 0usize;
    let mut json_items = Vec::new();
    let mut out = String::new();
    for input in &inputs {
        let Some((name, text, mut refs)) = references_of(input, args.locals) else {
            failed = true;
            continue;
        };
        if let Some(target) = &target {
            refs.retain(|r| target.matches(&r.traversal));
        }
        found += refs.len();
        let lines = LineIndex::new(&text);
        for reference in &refs {
            if args.json {
                json_items.push(json_reference(&name, &lines, reference));
            } else {
                let (line, col) = lines.line_col(reference.traversal.root_range.start());
                let local = if reference.binding.is_local() {
                    " (local)"
                } else {
                    ""
                };
                let _ = writeln!(out, "{name}:{line}:{col}: {}{local}", reference.traversal);
            }
        }
    }
    if args.json {
        out = format!("[{}]\n", json_items.join(",\n "));
    }
    print!("{out}");
    if failed {
        EXIT_ERRORS
    } else if found == 0 {
        EXIT_NONE
    } else {
        EXIT_OK
    }
}

/// Reads and parses one input; reports problems and returns `None` for
/// unreadable files and files with syntax errors.
fn references_of(input: &Input, locals: bool) -> Option<(String, String, Vec<Reference>)> {
    let name = input.display_name();
    let decoded = match read_input(input) {
        Ok(decoded) => decoded,
        Err(e) => {
            eprintln!("{}", read_error_message(input, &e));
            return None;
        }
    };
    let text = decoded.text.into_owned();
    if super::input::is_json_file_name(&name) {
        // The JSON syntax: references inside its template strings.
        let parse = hclwright::json::parse(&text);
        if !parse.errors().is_empty() {
            for e in parse.errors() {
                eprint!("{}", e.render(&name, &text));
            }
            return None;
        }
        let refs = if locals {
            hclwright::json::references_with_locals(&parse)
        } else {
            hclwright::json::references(&parse)
        };
        return Some((name, text, refs));
    }
    let parse = hclwright::parse(&text);
    if !parse.errors().is_empty() {
        for e in parse.errors() {
            eprint!("{}", decoded.stand_ins.shown(&e.render(&name, &text)));
        }
        return None;
    }
    let refs = if locals {
        references_with_locals(&parse.syntax())
    } else {
        references(&parse.syntax())
    };
    Some((name, text, refs))
}

fn json_reference(path: &str, lines: &LineIndex, reference: &Reference) -> String {
    let t = &reference.traversal;
    let (line, column) = lines.line_col(t.root_range.start());
    let range = t.range();
    let mut steps = Vec::new();
    for step in &t.steps {
        let (sline, scol) = lines.line_col(step.range.start());
        let kind = match &step.kind {
            StepKind::Attr(name) => format!(r#""kind": "attr", "name": {}"#, json::string(name)),
            StepKind::Index(IndexKey::Number(n)) => {
                format!(
                    r#""kind": "index", "key": {}, "key_type": "number""#,
                    json::string(n)
                )
            }
            StepKind::Index(IndexKey::String(s)) => {
                format!(
                    r#""kind": "index", "key": {}, "key_type": "string""#,
                    json::string(s)
                )
            }
            StepKind::LegacyIndex(n) => {
                format!(r#""kind": "legacy_index", "key": {}"#, json::string(n))
            }
            StepKind::DynamicIndex => r#""kind": "dynamic_index""#.to_string(),
            StepKind::AttrSplat => r#""kind": "attr_splat""#.to_string(),
            StepKind::FullSplat => r#""kind": "full_splat""#.to_string(),
        };
        steps.push(format!(
            r#"{{{kind}, "start": {}, "end": {}, "line": {sline}, "column": {scol}}}"#,
            u32::from(step.range.start()),
            u32::from(step.range.end()),
        ));
    }
    let local = match reference.binding {
        Binding::Free => "false",
        Binding::Local { .. } => "true",
    };
    format!(
        r#"{{"path": {}, "line": {line}, "column": {column}, "traversal": {}, "root": {}, "local": {local}, "start": {}, "end": {}, "steps": [{}]}}"#,
        json::string(path),
        json::string(&t.to_string()),
        json::string(&t.root),
        u32::from(range.start()),
        u32::from(range.end()),
        steps.join(", ")
    )
}
