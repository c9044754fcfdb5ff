//! What the editing commands share (`get`, `set`, `rm`, `mv`, `block`
//! in `edit`, `comment`, and their `.json` side in `edit_json`): where the
//! edited text goes (`OutputArgs`), opening a document, printing or
//! writing the result (rewriting only a file unchanged since it was
//! read, retried when it changed), and failures turned into exit codes.
//! Above `input`, `write` and `exit`; it imports no command.

use std::io::Write as _;
use std::path::PathBuf;

use hclwright::encoding::StandIns;
use hclwright::{Document, EditError};

use super::exit::{EXIT_ERRORS, EXIT_OK};
use super::input::{Input, read_error_message, read_input};
use super::write::{is_changed_since_read, write_checked};

/// Exit code: nothing matches the address.
const EXIT_NOT_FOUND: i32 = 1;

/// Where the edited text goes.
#[derive(clap::Args, Debug)]
pub struct OutputArgs {
    /// Rewrite FILE in place (atomically) instead of printing the result.
    #[arg(short = 'u', long)]
    pub(super) update: bool,
    /// Print a unified diff of the change instead of the result (with
    /// -u, the file is rewritten and the diff printed).
    #[arg(long)]
    pub(super) diff: bool,
}

/// A failure, with its exit code.
pub(super) struct Failure {
    pub(super) code: i32,
    pub(super) message: String,
}

impl From<EditError> for Failure {
    fn from(e: EditError) -> Failure {
        let code = if e.is_not_found() {
            EXIT_NOT_FOUND
        } else {
            EXIT_ERRORS
        };
        Failure {
            code,
            message: format!("error: {e}"),
        }
    }
}

/// An input, its text parsed.
pub(super) struct Opened {
    pub(super) input: Input,
    pub(super) doc: Document,
    /// Turns text back into the source's bytes (bytes that are not UTF-8
    /// in comments).
    pub(super) stand_ins: StandIns,
}

/// Reads and parses the input.
pub(super) fn open(file: &Option<PathBuf>) -> Result<Opened, Failure> {
    let input = match file {
        Some(p) if p.as_os_str() != "-" => Input::File(p.clone()),
        _ => Input::Stdin,
    };
    let decoded = read_input(&input).map_err(|e| Failure {
        code: EXIT_ERRORS,
        message: read_error_message(&input, &e),
    })?;
    let stand_ins = decoded.stand_ins;
    // The text is moved to where the document keeps it, so that a large
    // file is not held twice.
    let text: std::sync::Arc<str> = std::sync::Arc::from(decoded.text.into_owned());
    let doc = Document::parse_shared(std::sync::Arc::clone(&text)).map_err(|e| Failure {
        code: EXIT_ERRORS,
        message: stand_ins
            .shown(&e.render(&input.display_name(), &text))
            .trim_end()
            .to_string(),
    })?;
    Ok(Opened {
        input,
        doc,
        stand_ins,
    })
}

/// Prints text made from the input, with the source's own bytes.
pub(super) fn print_source_text(stand_ins: StandIns, text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&stand_ins.encode(text));
    let _ = out.flush();
}

/// Writes or prints the edited document.
pub(super) fn finish(opened: Opened, output: &OutputArgs) -> Result<(), Failure> {
    let Opened {
        input,
        doc,
        stand_ins,
    } = opened;
    let original = doc.original_shared();
    let text = doc.text();
    let modified = doc.is_modified();
    let diff = output
        .diff
        .then(|| hclwright::diff::git_unified_diff(&original, &text, &input.display_name()));
    // The tree is no longer needed: freed before the text is written.
    drop(doc);
    let edited = Edited {
        original: &original,
        text: &text,
        modified,
        diff: &|_| diff.clone().unwrap_or_default(),
    };
    write_or_print(&input, &edited, stand_ins, output)
}

/// An edited text, of either syntax, ready to write or print.
pub(super) struct Edited<'a> {
    /// The text as read.
    pub(super) original: &'a str,
    /// The text now.
    pub(super) text: &'a str,
    /// Whether an edit changed it.
    pub(super) modified: bool,
    /// Its unified diff, given the name to show.
    pub(super) diff: &'a dyn Fn(&str) -> String,
}

/// Writes the edited text back (`-u`, when it changed), prints its diff
/// (`--diff`), or prints it; `stand_ins` turns text back into the
/// source's bytes.
pub(super) fn write_or_print(
    input: &Input,
    edited: &Edited<'_>,
    stand_ins: StandIns,
    output: &OutputArgs,
) -> Result<(), Failure> {
    let name = input.display_name();
    if output.update {
        let Input::File(path) = input else {
            return Err(Failure {
                code: EXIT_ERRORS,
                message: "error: -u/--update needs a FILE (not standard input)".to_string(),
            });
        };
        if edited.modified {
            let read = stand_ins.encode(edited.original);
            write_checked(path, &read, &stand_ins.encode(edited.text)).map_err(|e| Failure {
                code: if is_changed_since_read(&e) {
                    RETRY
                } else {
                    EXIT_ERRORS
                },
                message: format!("{name}: cannot write: {e}"),
            })?;
        }
        if output.diff {
            print_source_text(stand_ins, &(edited.diff)(&name));
        }
    } else if output.diff {
        print_source_text(stand_ins, &(edited.diff)(&name));
    } else {
        print_source_text(stand_ins, edited.text);
    }
    Ok(())
}

/// The code of a failure to write a file that changed since it was read
/// (another run wrote it meanwhile): the edit is made again on the new
/// text by [`retrying`]; never an exit status.
const RETRY: i32 = -1;

/// How many times an edit is made again on a file that other runs keep
/// changing.
const ATTEMPTS: usize = 50;

/// Runs a read–edit–write command body again while the file it writes
/// changed since it was read, so that concurrent edits of one file are all
/// applied (each on the text the previous one wrote) instead of the last
/// writer silently undoing the others.
pub(super) fn retrying(body: impl Fn() -> Result<(), Failure>) -> Result<(), Failure> {
    let mut last = None;
    for attempt in 0..ATTEMPTS {
        match body() {
            Err(f) if f.code == RETRY => {
                last = Some(f);
                // Let the other writers go first.
                std::thread::sleep(std::time::Duration::from_millis(
                    1 + (attempt as u64 * 7 + u64::from(std::process::id())) % 20,
                ));
            }
            other => return other,
        }
    }
    Err(last.map_or_else(
        || Failure {
            code: EXIT_ERRORS,
            message: "error: nothing was attempted".to_string(),
        },
        |f| Failure {
            code: EXIT_ERRORS,
            message: f.message,
        },
    ))
}

/// Runs a command body and turns a failure into a message and a code.
pub(super) fn report(result: Result<(), Failure>) -> i32 {
    match result {
        Ok(()) => EXIT_OK,
        Err(f) => {
            eprintln!("{}", f.message);
            if f.code == RETRY { EXIT_ERRORS } else { f.code }
        }
    }
}
