//! `hclwright check`: report syntax errors.

use std::io::Write;

use hclwright::encoding::Decoded;
use hclwright::{LineIndex, SyntaxError};

use super::exit::{EXIT_ERRORS, EXIT_OK};
use super::input::{Input, ReadError, Source, read_error_message};
use super::json;
use super::pipeline::{self, Panicked};

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Files or directories (walked recursively for .tf, .tfvars, .hcl and
    /// .nomad files, and their JSON syntax: .tf.json, .tfvars.json,
    /// .hcl.json, .nomad.json); `-` reads standard input. A file whose
    /// name ends in `.json` is checked as the JSON syntax, any other as
    /// the native syntax. Defaults to `.`.
    #[arg(default_value = ".")]
    paths: Vec<String>,
    /// Print nothing, only set the exit code.
    #[arg(short, long, conflicts_with = "json")]
    quiet: bool,
    /// Print the problems as a JSON array on standard output, one object
    /// per problem: `path`, `line`, `column`, `end_line`, `end_column`
    /// (1-based, columns in characters), `start`, `end` (byte offsets in the file) and
    /// `message`; positions are `null` where there are none (a file that
    /// cannot be read). The exit code is the same as without `--json`.
    #[arg(long)]
    json: bool,
}

/// How problems are reported.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Quiet,
    Text,
    Json,
}

pub fn run(args: CheckArgs) -> i32 {
    let output = if args.quiet {
        Output::Quiet
    } else if args.json {
        Output::Json
    } else {
        Output::Text
    };
    let walked = pipeline::run_with_json(&args.paths, true, |input| check_one(input, output));
    let mut failed = !walked.errors.is_empty();
    let mut reports: Vec<String> = walked
        .errors
        .iter()
        .map(|e| report_without_position(output, &e.path, &e.message))
        .collect();
    for (input, checked) in walked.results {
        let checked = checked.unwrap_or_else(|Panicked| Checked {
            ok: false,
            reports: vec![report_without_position(
                output,
                &input.display_name(),
                "internal error",
            )],
        });
        failed |= !checked.ok;
        reports.extend(checked.reports);
    }
    match output {
        Output::Quiet => {}
        Output::Text => {
            let mut err = std::io::BufWriter::new(std::io::stderr().lock());
            for report in &reports {
                let _ = err.write_all(report.as_bytes());
            }
            let _ = err.flush();
        }
        Output::Json => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let _ = if reports.is_empty() {
                writeln!(out, "[]")
            } else {
                writeln!(out, "[\n  {}\n]", reports.join(",\n  "))
            };
            let _ = out.flush();
        }
    }
    if failed { EXIT_ERRORS } else { EXIT_OK }
}

/// The verdict on one input.
struct Checked {
    /// No syntax error, and the input could be read.
    ok: bool,
    /// The problems, rendered for the output (none when quiet).
    reports: Vec<String>,
}

/// Where a problem is: lines and columns of its start and end, byte
/// offsets of both.
struct Span {
    start: (usize, usize),
    end: (usize, usize),
    bytes: (usize, usize),
}

/// One problem as a JSON object.
fn json_problem(path: &str, span: Option<Span>, message: &str) -> String {
    let path = json::string(path);
    let span = span.map_or(
        r#""line": null, "column": null, "end_line": null, "end_column": null, "start": null, "end": null"#
            .to_string(),
        |s| {
            format!(
                r#""line": {}, "column": {}, "end_line": {}, "end_column": {}, "start": {}, "end": {}"#,
                s.start.0, s.start.1, s.end.0, s.end.1, s.bytes.0, s.bytes.1
            )
        },
    );
    format!(
        r#"{{"path": {path}, {span}, "message": {}}}"#,
        json::string(message)
    )
}

/// Checks one input.
fn check_one(source: &Source, output: Output) -> Checked {
    let input = source.input();
    source.with_text(|text| {
        let decoded = match text {
            Ok(decoded) => decoded,
            Err(e) => {
                return Checked {
                    ok: false,
                    reports: read_error_reports(input, &e, output),
                };
            }
        };
        let text = &decoded.text;
        let name = input.display_name();
        let errors = if super::input::is_json_file_name(&name) {
            // A configuration body is an object, or an array of objects
            // (the parser rejects any other root): only an array needs the
            // tree, to look at its elements.
            let errors = hclwright::json::syntax_errors(text);
            if errors.is_empty() && text.trim_start().starts_with('[') {
                hclwright::json::parse(text).body_root_errors(text)
            } else {
                errors
            }
        } else {
            hclwright::syntax_errors(text)
        };
        let reports = match output {
            Output::Quiet => Vec::new(),
            Output::Text => errors
                .iter()
                .map(|e| decoded.stand_ins.shown(&e.render(&name, text)).into_owned())
                .collect(),
            Output::Json => json_syntax_errors(&name, &decoded, &errors),
        };
        Checked {
            ok: errors.is_empty(),
            reports,
        }
    })
}

/// The report of an input that could not be read.
fn read_error_reports(input: &Input, error: &ReadError, output: Output) -> Vec<String> {
    let name = input.display_name();
    match (output, error) {
        (Output::Quiet, _) => Vec::new(),
        (Output::Text, _) => vec![format!("{}\n", read_error_message(input, error))],
        (Output::Json, ReadError::Utf8(bad)) => {
            let span = Span {
                start: (bad.line, bad.column),
                end: (bad.line, bad.column + 1),
                bytes: (bad.offset, bad.offset + 1),
            };
            vec![json_problem(&name, Some(span), &bad.message())]
        }
        (Output::Json, ReadError::Io(io)) => {
            vec![report_without_position(output, &name, &io.to_string())]
        }
    }
}

/// A problem with a path but no position in a text (`path: message`).
fn report_without_position(output: Output, path: &str, message: &str) -> String {
    match output {
        Output::Json => json_problem(path, None, message),
        _ => format!("{path}: {message}\n"),
    }
}

/// Syntax errors as JSON objects, with byte offsets in the file's bytes.
fn json_syntax_errors(name: &str, decoded: &Decoded<'_>, errors: &[SyntaxError]) -> Vec<String> {
    let lines = LineIndex::new(&decoded.text);
    let offsets = decoded.source_offsets();
    errors
        .iter()
        .map(|e| {
            let (end_line, end_column) = lines.line_col(e.range.end());
            let span = Span {
                start: (e.line as usize, e.column as usize),
                end: (end_line as usize, end_column as usize),
                bytes: (
                    offsets.source(e.range.start()),
                    offsets.source(e.range.end()),
                ),
            };
            json_problem(name, Some(span), &decoded.stand_ins.shown(&e.message))
        })
        .collect()
}
