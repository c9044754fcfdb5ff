//! `hclwright comment get | set | rm`: the comment lines above an item and
//! the comment at the end of its line.

use std::path::PathBuf;

use super::editing::{Failure, OutputArgs, finish, open, print_source_text, report, retrying};
use super::exit::EXIT_ERRORS;

/// Arguments of `comment`.
#[derive(clap::Args, Debug)]
pub struct CommentArgs {
    #[command(subcommand)]
    command: CommentCommand,
}

#[derive(clap::Subcommand, Debug)]
enum CommentCommand {
    /// Print the comment lines directly above the item at ADDRESS (with
    /// --inline, the comment at the end of its line); exit 1 if it has none.
    Get(CommentGetArgs),
    /// Replace the comment lines above the item at ADDRESS by TEXT (one
    /// line per line of TEXT; a line without `#`, `//` or `/*` is written
    /// `# line`), or with --inline set the comment at the end of its line.
    Set(CommentSetArgs),
    /// Remove the comment lines above the item at ADDRESS (with --inline,
    /// the comment at the end of its line; with --all, both).
    Rm(CommentRmArgs),
}

/// Which comment: the lines above, or the one at the end of the line.
#[derive(clap::Args, Debug)]
struct Which {
    /// The comment at the end of the item's line instead of the lines
    /// above it.
    #[arg(long)]
    inline: bool,
}

/// Arguments of `comment get`.
#[derive(clap::Args, Debug)]
struct CommentGetArgs {
    /// Address of an attribute, block, object item or tuple element.
    address: String,
    /// The file (default: standard input).
    file: Option<PathBuf>,
    #[command(flatten)]
    which: Which,
}

/// Arguments of `comment set`.
#[derive(clap::Args, Debug)]
struct CommentSetArgs {
    /// Address of an attribute, block, object item or tuple element.
    address: String,
    /// The comment: `# text`, `// text`, `/* text */` or plain text.
    text: String,
    /// The file (default: standard input).
    file: Option<PathBuf>,
    #[command(flatten)]
    which: Which,
    #[command(flatten)]
    output: OutputArgs,
}

/// Arguments of `comment rm`.
#[derive(clap::Args, Debug)]
struct CommentRmArgs {
    /// Address of an attribute, block, object item or tuple element.
    address: String,
    /// The file (default: standard input).
    file: Option<PathBuf>,
    #[command(flatten)]
    which: Which,
    /// Remove both the lines above and the comment at the end of the line.
    #[arg(long, conflicts_with = "inline")]
    all: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// Runs `comment`.
pub fn run(args: CommentArgs) -> i32 {
    match args.command {
        CommentCommand::Get(a) => report(get(a)),
        CommentCommand::Set(a) => report(retrying(|| set(&a))),
        CommentCommand::Rm(a) => report(retrying(|| rm(&a))),
    }
}

fn get(args: CommentGetArgs) -> Result<(), Failure> {
    let opened = open(&args.file)?;
    let lines = if args.which.inline {
        opened
            .doc
            .inline_comment(args.address.as_str())?
            .into_iter()
            .collect()
    } else {
        opened.doc.comments_above(args.address.as_str())?
    };
    if lines.is_empty() {
        return Err(Failure {
            code: 1,
            message: format!(
                "error: `{}` has no {}",
                args.address,
                if args.which.inline {
                    "comment at the end of its line"
                } else {
                    "comment lines above it"
                }
            ),
        });
    }
    let mut text = lines.join("\n");
    text.push('\n');
    print_source_text(opened.stand_ins, &text);
    Ok(())
}

fn set(args: &CommentSetArgs) -> Result<(), Failure> {
    let mut opened = open(&args.file)?;
    if args.which.inline {
        opened
            .doc
            .set_inline_comment(args.address.as_str(), Some(&args.text))?;
    } else {
        let text = args.text.replace("\r\n", "\n");
        let lines: Vec<&str> = text.lines().collect();
        if lines.is_empty() {
            return Err(Failure {
                code: EXIT_ERRORS,
                message: "error: no comment text (use `comment rm` to remove comments)".to_string(),
            });
        }
        opened
            .doc
            .set_comments_above(args.address.as_str(), &lines)?;
    }
    finish(opened, &args.output)
}

fn rm(args: &CommentRmArgs) -> Result<(), Failure> {
    let mut opened = open(&args.file)?;
    if args.which.inline || args.all {
        opened.doc.set_inline_comment(args.address.as_str(), None)?;
    }
    if !args.which.inline || args.all {
        opened.doc.set_comments_above(args.address.as_str(), &[])?;
    }
    finish(opened, &args.output)
}
