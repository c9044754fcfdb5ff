//! Finding HCL files and reading them.

use std::io::Read;
use std::path::{Path, PathBuf};

/// File name endings treated as HCL when walking directories.
pub const HCL_EXTENSIONS: &[&str] = &[".tf", ".tfvars", ".hcl", ".nomad"];

/// An input: a file on disk or standard input (`-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Input {
    /// The name to show in messages.
    pub fn display_name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::File(p) => p.display().to_string(),
        }
    }
}

/// True if `name` ends with an HCL extension.
pub fn is_hcl_file_name(name: &str) -> bool {
    HCL_EXTENSIONS.iter().any(|ext| name.ends_with(ext))
}

/// Expands paths: `-` is stdin, files are taken as given, directories are
/// walked (recursively when `recursive`) for HCL files, skipping hidden
/// folders (`.terraform` among them) and symbolic links to directories.
/// Files come out sorted within each directory, before its subdirectories.
/// Paths that cannot be read are returned as errors.
///
/// Commands that read every file should rather use
/// [`pipeline::run`](super::pipeline::run), which reads and processes the
/// files while the walk goes on.
pub fn expand(paths: &[String], recursive: bool) -> (Vec<Input>, Vec<String>) {
    let walked = super::pipeline::run(paths, recursive, |_| ());
    let inputs = walked.results.into_iter().map(|(input, _)| input).collect();
    (inputs, walked.errors)
}

/// What a directory holds for the walk, each list sorted by name.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Its HCL files (not hidden).
    pub files: Vec<PathBuf>,
    /// Its subdirectories to walk: none unless `recursive`; never hidden
    /// ones (`.terraform` among them) nor symbolic links to directories.
    pub subdirs: Vec<PathBuf>,
}

/// Lists `dir`: its HCL files and, when `recursive`, the subdirectories to
/// walk. Entries that cannot be read are skipped.
pub fn list_dir(dir: &Path, recursive: bool) -> std::io::Result<Listing> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    let mut listing = Listing::default();
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        // Symbolic links to directories are not followed (as `terraform
        // fmt` does not): a link back up the tree would loop forever.
        // Links to files are read like files.
        if file_type.is_symlink() && path.is_dir() {
            continue;
        }
        if file_type.is_dir() {
            if recursive && !name.starts_with('.') {
                listing.subdirs.push(path);
            }
        } else if is_hcl_file_name(&name) && !name.starts_with('.') {
            listing.files.push(path);
        }
    }
    Ok(listing)
}

/// Why an input could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    /// The OS refused.
    Io(std::io::Error),
    /// Not UTF-8: the byte offset and line/column of the first bad byte.
    Utf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
        /// 1-based line.
        line: usize,
        /// 1-based column (characters).
        column: usize,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Utf8 {
                offset,
                line,
                column,
            } => write!(
                f,
                "{line}:{column}: invalid UTF-8 at byte offset {offset}: HCL files must be UTF-8 text"
            ),
        }
    }
}

/// Reads an input as UTF-8 text.
pub fn read_input(input: &Input) -> Result<String, ReadError> {
    let bytes = match input {
        Input::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(ReadError::Io)?;
            buf
        }
        Input::File(p) => std::fs::read(p).map_err(ReadError::Io)?,
    };
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let valid = &e.as_bytes()[..offset];
        // `valid` is valid UTF-8 by construction.
        let text = std::str::from_utf8(valid).unwrap_or_default();
        let line = text.matches('\n').count() + 1;
        let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        ReadError::Utf8 {
            offset,
            line,
            column,
        }
    })
}

/// Formats a read error as `path: message` (or `path:line:col: message`).
pub fn read_error_message(input: &Input, error: &ReadError) -> String {
    match error {
        ReadError::Io(_) => format!("{}: {error}", input.display_name()),
        ReadError::Utf8 { .. } => format!("{}:{error}", input.display_name()),
    }
}
