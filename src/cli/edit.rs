//! `hclwright get | set | rm | mv | block append | block rm`: reading and
//! editing one file by address, in the manner of `hcledit`.
//!
//! The file defaults to standard input; the result goes to standard
//! output, unless `-u/--update` rewrites the file in place (atomically)
//! or `--diff` prints a unified diff instead. Exit codes: 0 success, 1
//! not found, 2 syntax, usage or I/O errors.

use std::io::Write as _;
use std::path::PathBuf;

use hclwright::encoding::StandIns;
use hclwright::{Address, Document, EditError, EditValue, Item, Placement};

use super::edit_json;
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

/// Arguments of `get`.
#[derive(clap::Args, Debug)]
pub struct GetArgs {
    /// Address: `resource.aws_instance.web.ami`, `module.vpc.azs[0]`,
    /// `locals.tags["Name"]`; `*` matches any label, `\.` escapes a dot.
    address: String,
    /// The file (default: standard input); a `.json` file is edited as
    /// the JSON syntax (`*.tf.json`).
    file: Option<PathBuf>,
}

/// Arguments of `set`.
#[derive(clap::Args, Debug)]
pub struct SetArgs {
    /// Address of an attribute, object item or tuple element; created
    /// when missing, with the blocks and objects on the way.
    address: String,
    /// The new value, as HCL source: '"~> 5.0"', 'var.x', '[1, 2]'.
    value: String,
    /// The file (default: standard input); a `.json` file is edited as
    /// the JSON syntax (`*.tf.json`).
    file: Option<PathBuf>,
    /// Only change what exists: when nothing is at ADDRESS, exit 1 and
    /// change nothing (without it, what is missing is created).
    #[arg(long)]
    if_exists: bool,
    #[command(flatten)]
    placement: PlacementArgs,
    #[command(flatten)]
    output: OutputArgs,
}

/// Where `set` puts what it creates (an existing item stays in place).
#[derive(clap::Args, Debug)]
#[group(multiple = false)]
pub struct PlacementArgs {
    /// Create it before the attribute, block type or object key NAME.
    #[arg(long, value_name = "NAME")]
    before: Option<String>,
    /// Create it after the attribute, block type or object key NAME.
    #[arg(long, value_name = "NAME")]
    after: Option<String>,
    /// Create it before every other item.
    #[arg(long)]
    first: bool,
    /// Create it after every other item (default: an attribute after the
    /// last attribute, before nested blocks; an object key at the end).
    #[arg(long)]
    last: bool,
}

impl PlacementArgs {
    fn placement(&self) -> Placement {
        match (&self.before, &self.after) {
            (Some(name), _) => Placement::Before(name.clone()),
            (_, Some(name)) => Placement::After(name.clone()),
            _ if self.first => Placement::First,
            _ if self.last => Placement::Last,
            _ => Placement::Default,
        }
    }
}

/// Arguments of `rm`.
#[derive(clap::Args, Debug)]
pub struct RmArgs {
    /// Address of an attribute, block, object item or tuple element.
    address: String,
    /// The file (default: standard input); a `.json` file is edited as
    /// the JSON syntax (`*.tf.json`).
    file: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

/// Arguments of `mv`.
#[derive(clap::Args, Debug)]
pub struct MvArgs {
    /// Address of an attribute, object item or block.
    address: String,
    /// The new name (or a full address in the same parent, as hcledit
    /// takes it); for a block, its full new address: the same type with
    /// new labels (`variable.foo` -> `variable.bar`).
    new_name: String,
    /// The file (default: standard input); a `.json` file is edited as
    /// the JSON syntax (`*.tf.json`).
    file: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

/// Arguments of `block`.
#[derive(clap::Args, Debug)]
pub struct BlockArgs {
    #[command(subcommand)]
    command: BlockCommand,
}

#[derive(clap::Subcommand, Debug)]
enum BlockCommand {
    /// Append a block: `block append PARENT TYPE [LABEL...] [FILE]`
    /// (PARENT `.` is the top level; a last argument naming an existing
    /// file or `-` is FILE, or give it with -f).
    Append(BlockAppendArgs),
    /// Remove a block (with its comments).
    Rm(RmArgs),
    /// Move a block to new labels: `block mv resource.aws_instance.web
    /// resource.aws_instance.app` (the same type, as many labels).
    Mv(BlockMvArgs),
}

/// Arguments of `block mv`.
#[derive(clap::Args, Debug)]
pub struct BlockMvArgs {
    /// Address of the block.
    from: String,
    /// Its new address: the same type and parent, new labels.
    to: String,
    /// The file (default: standard input); a `.json` file is edited as
    /// the JSON syntax (`*.tf.json`).
    file: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

/// Arguments of `block append`.
#[derive(clap::Args, Debug)]
pub struct BlockAppendArgs {
    /// Address of the parent block, `.` for the top level.
    parent: String,
    /// The new block's type.
    type_name: String,
    /// Labels, then optionally FILE.
    rest: Vec<String>,
    /// The file (default: standard input; a `.json` file is edited as the
    /// JSON syntax); when given, every other
    /// argument after TYPE is a label.
    #[arg(short = 'f', long = "file")]
    file: Option<PathBuf>,
    /// The block's body, as HCL source (`'x = 1'`).
    #[arg(long, default_value = "")]
    body: String,
    #[command(flatten)]
    output: OutputArgs,
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

pub fn get(args: GetArgs) -> i32 {
    if edit_json::is_json(&args.file) {
        return report(edit_json::get(&args.address, &args.file));
    }
    report((|| {
        let opened = open(&args.file)?;
        let address = Address::parse(&args.address)?;
        for text in opened.doc.get_texts(&address)? {
            print_source_text(opened.stand_ins, &format!("{text}\n"));
        }
        Ok(())
    })())
}

pub fn set(args: SetArgs) -> i32 {
    if edit_json::is_json(&args.file) {
        return report(retrying(|| {
            edit_json::set(
                &args.address,
                &args.value,
                &args.file,
                args.if_exists,
                args.placement.placement(),
                &args.output,
            )
        }));
    }
    report(retrying(|| {
        let value = EditValue::parse(&args.value)?;
        let mut opened = open(&args.file)?;
        if args.if_exists {
            // The not-found error (exit 1), and nothing written.
            opened.doc.get_texts(&Address::parse(&args.address)?)?;
        }
        opened
            .doc
            .set_with(args.address.as_str(), value, args.placement.placement())?;
        finish(opened, &args.output)
    }))
}

pub fn rm(args: RmArgs) -> i32 {
    if edit_json::is_json(&args.file) {
        return report(retrying(|| {
            edit_json::rm(&args.address, &args.file, &args.output)
        }));
    }
    report(retrying(|| {
        let mut opened = open(&args.file)?;
        opened.doc.remove(args.address.as_str())?;
        finish(opened, &args.output)
    }))
}

pub fn mv(args: MvArgs) -> i32 {
    if edit_json::is_json(&args.file) {
        return report(retrying(|| {
            edit_json::mv(&args.address, &args.new_name, &args.file, &args.output)
        }));
    }
    report(retrying(|| {
        let mut opened = open(&args.file)?;
        opened.doc.mv(args.address.as_str(), &args.new_name)?;
        finish(opened, &args.output)
    }))
}

pub fn block(args: BlockArgs) -> i32 {
    match args.command {
        BlockCommand::Append(a) => report(retrying(|| block_append(&a))),
        BlockCommand::Rm(a) => report(retrying(|| block_rm(&a))),
        BlockCommand::Mv(a) => report(retrying(|| block_mv(&a))),
    }
}

fn block_append(args: &BlockAppendArgs) -> Result<(), Failure> {
    let mut labels = args.rest.clone();
    let file = match args.file.clone() {
        Some(f) => Some(f),
        None => match labels.last() {
            Some(last) if last == "-" || std::path::Path::new(last).is_file() => {
                labels.pop().map(PathBuf::from)
            }
            _ => None,
        },
    };
    let parent = if args.parent == "." {
        ""
    } else {
        args.parent.as_str()
    };
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    if edit_json::is_json(&file) {
        return edit_json::block_append(
            parent,
            &args.type_name,
            &labels,
            &args.body,
            &file,
            &args.output,
        );
    }
    let mut opened = open(&file)?;
    opened
        .doc
        .append_block(parent, &args.type_name, &labels, &args.body)?;
    finish(opened, &args.output)
}

fn block_mv(args: &BlockMvArgs) -> Result<(), Failure> {
    if edit_json::is_json(&args.file) {
        return edit_json::mv(
            args.from.as_str(),
            args.to.as_str(),
            &args.file,
            &args.output,
        );
    }
    let mut opened = open(&args.file)?;
    opened
        .doc
        .move_block(args.from.as_str(), args.to.as_str())?;
    finish(opened, &args.output)
}

fn block_rm(args: &RmArgs) -> Result<(), Failure> {
    if edit_json::is_json(&args.file) {
        return edit_json::rm(&args.address, &args.file, &args.output);
    }
    let mut opened = open(&args.file)?;
    for item in opened.doc.get_all(args.address.as_str())? {
        if !matches!(item, Item::Block(_)) {
            return Err(Failure {
                code: EXIT_ERRORS,
                message: format!(
                    "error: `{}` is not a block but the {} `{}`: use `hclwright rm`",
                    args.address,
                    item.kind_name(),
                    item.name().unwrap_or_else(|| item.text())
                ),
            });
        }
    }
    opened.doc.remove(args.address.as_str())?;
    finish(opened, &args.output)
}
