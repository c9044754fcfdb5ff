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
    String::from_utf8(bytes).map_err(|e| utf8_error(e.as_bytes(), e.utf8_error()))
}

/// Reads an input as UTF-8 text into a buffer kept by the calling thread
/// and calls `f` with the text. Cheaper than [`read_input`] over many
/// files: no allocation per file, and no `statx` for the file size.
pub fn with_input_text<R>(input: &Input, f: impl FnOnce(Result<&str, ReadError>) -> R) -> R {
    thread_local! {
        static BUFFER: std::cell::RefCell<ReadBuffer> = const {
            std::cell::RefCell::new(ReadBuffer { bytes: Vec::new() })
        };
    }
    let Input::File(path) = input else {
        return match read_input(input) {
            Ok(text) => f(Ok(&text)),
            Err(e) => f(Err(e)),
        };
    };
    BUFFER.with(|buffer| {
        // A fresh buffer if `f` reads another input.
        let mut fresh = ReadBuffer { bytes: Vec::new() };
        let mut borrowed = buffer.try_borrow_mut();
        let buffer = borrowed.as_deref_mut().unwrap_or(&mut fresh);
        let text = buffer
            .read(path)
            .map_err(ReadError::Io)
            .and_then(|bytes| std::str::from_utf8(bytes).map_err(|e| utf8_error(bytes, e)));
        f(text)
    })
}

/// A read buffer, zeroed once and grown when a file does not fit.
struct ReadBuffer {
    bytes: Vec<u8>,
}

impl ReadBuffer {
    /// Reads the whole file; the bytes are valid until the next read.
    fn read(&mut self, path: &Path) -> std::io::Result<&[u8]> {
        let mut file = std::fs::File::open(path)?;
        let mut filled = 0;
        loop {
            if filled == self.bytes.len() {
                // Zeroed by the allocator (fresh pages from the OS need no
                // writing); only the pages a read fills are touched.
                let mut bigger = vec![0; (2 * filled).max(8 * 1024)];
                bigger[..filled].copy_from_slice(&self.bytes[..filled]);
                self.bytes = bigger;
            }
            match file.read(&mut self.bytes[filled..]) {
                Ok(0) => return Ok(&self.bytes[..filled]),
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// The error for `bytes` that are not UTF-8: where the first bad byte is.
fn utf8_error(bytes: &[u8], error: std::str::Utf8Error) -> ReadError {
    let offset = error.valid_up_to();
    // Valid UTF-8 up to `offset` by construction.
    let text = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
    let line = text.matches('\n').count() + 1;
    let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    ReadError::Utf8 {
        offset,
        line,
        column,
    }
}

/// Formats a read error as `path: message` (or `path:line:col: message`).
pub fn read_error_message(input: &Input, error: &ReadError) -> String {
    match error {
        ReadError::Io(_) => format!("{}: {error}", input.display_name()),
        ReadError::Utf8 { .. } => format!("{}:{error}", input.display_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_file(relative: &str) -> Input {
        Input::File(Path::new(env!("CARGO_MANIFEST_DIR")).join(relative))
    }

    fn text_of(input: &Input) -> String {
        with_input_text(input, |text| {
            text.map(str::to_string).map_err(|e| e.to_string())
        })
        .unwrap()
    }

    #[test]
    fn the_reused_buffer_reads_whole_files_of_any_size() {
        // Larger than the first buffer (it grows), then smaller again.
        for name in [
            "Cargo.lock",
            "src/cli/mod.rs",
            "Cargo.lock",
            "src/cli/mod.rs",
        ] {
            let input = repo_file(name);
            assert_eq!(text_of(&input), read_input(&input).unwrap(), "{name}");
        }
        // Reading another input inside the callback.
        let (lock, module) = (repo_file("Cargo.lock"), repo_file("src/cli/mod.rs"));
        with_input_text(&lock, |outer| {
            assert_eq!(text_of(&module), read_input(&module).unwrap());
            assert_eq!(outer.unwrap(), read_input(&lock).unwrap());
        });
    }

    #[test]
    fn read_errors_are_the_same_with_the_reused_buffer() {
        let missing = repo_file("no-such-file.tf");
        let error = with_input_text(&missing, |text| text.map(|_| ()).unwrap_err());
        let expected = read_input(&missing).unwrap_err();
        assert_eq!(
            read_error_message(&missing, &error),
            read_error_message(&missing, &expected)
        );
        assert!(matches!(error, ReadError::Io(_)));
    }
}
