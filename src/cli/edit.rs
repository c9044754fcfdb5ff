//! `hclwright get | set | rm | mv | block append | block rm`: reading and
//! editing one file by address, in the manner of `hcledit`.
//!
//! The file defaults to standard input; the result goes to standard
//! output, unless `-u/--update` rewrites the file in place (atomically)
//! or `--diff` prints a unified diff instead. Exit codes: 0 success, 1
//! not found, 2 syntax, usage or I/O errors.

use std::path::PathBuf;

use hclwright::{Address, EditValue, Item, Placement};

use super::edit_json;
use super::editing::{Failure, OutputArgs, finish, open, print_source_text, report, retrying};
use super::exit::EXIT_ERRORS;

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
