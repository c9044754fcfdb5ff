//! Inputs: what a path names (a file or standard input), which file
//! names are HCL or JSON, folders listed for the walk, files read and
//! decoded. The lowest layer of the command-line tool, with `write` and
//! `json`: it imports no other module of `cli`.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hclwright::encoding::{Decoded, InvalidUtf8, decode, decode_owned};

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

/// File name endings of the JSON syntax found when walking directories
/// for the commands that read it (`check`).
pub const JSON_EXTENSIONS: &[&str] = &[".tf.json", ".tfvars.json", ".hcl.json", ".nomad.json"];

/// True if `name` ends with an HCL extension.
pub fn is_hcl_file_name(name: &str) -> bool {
    HCL_EXTENSIONS.iter().any(|ext| name.ends_with(ext))
}

/// True if `name` is a file of the JSON syntax: any `.json` file (one
/// named on the command line is read as JSON whatever precedes `.json`).
pub fn is_json_file_name(name: &str) -> bool {
    name.ends_with(".json")
}

/// [`is_json_file_name`] of a path, without making a string of it.
pub fn is_json_path(path: &Path) -> bool {
    path.as_os_str().as_encoded_bytes().ends_with(b".json")
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

/// A directory open for the walk. On unix it holds a descriptor that its
/// entries are opened relative to, which spares the kernel a lookup of the
/// whole path for every file and subdirectory.
pub struct Folder {
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

/// What a directory entry is to the walk.
enum EntryKind {
    Directory,
    /// Not followed: a link back up the tree would loop forever.
    LinkToDirectory,
    /// A file, a link to one, or anything else that is not a directory.
    Other,
}

impl Folder {
    /// Opens the directory `path`; `parent`, if given, is the folder it was
    /// listed in.
    pub fn open(path: &Path, parent: Option<&Folder>) -> std::io::Result<Folder> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let fd = match (parent, path.file_name()) {
                (Some(parent), Some(name)) => {
                    rustix::fs::openat(&parent.fd, name, flags, Mode::empty())
                }
                _ => rustix::fs::open(path, flags, Mode::empty()),
            }?;
            Ok(Folder {
                path: path.to_path_buf(),
                fd,
            })
        }
        #[cfg(not(unix))]
        {
            let _ = parent;
            Ok(Folder {
                path: path.to_path_buf(),
            })
        }
    }

    /// Its HCL files and, when `recursive`, the subdirectories to walk.
    /// Entries that cannot be read are skipped.
    pub fn list(&self, recursive: bool, json: bool) -> std::io::Result<Listing> {
        let mut entries = self.entries()?;
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut listing = Listing::default();
        for (name, kind) in entries {
            let hidden = name.as_encoded_bytes().starts_with(b".");
            match kind {
                EntryKind::Directory if recursive && !hidden => {
                    listing.subdirs.push(self.path.join(name));
                }
                EntryKind::Other
                    if !hidden
                        && (is_hcl_file_name(&name.to_string_lossy())
                            || (json
                                && JSON_EXTENSIONS
                                    .iter()
                                    .any(|ext| name.to_string_lossy().ends_with(ext)))) =>
                {
                    listing.files.push(self.path.join(name));
                }
                _ => {}
            }
        }
        Ok(listing)
    }

    /// Every entry (but `.` and `..`) and its kind, unsorted.
    #[cfg(unix)]
    fn entries(&self) -> std::io::Result<Vec<(OsString, EntryKind)>> {
        use rustix::fs::{AtFlags, FileType, RawDir};
        use std::os::unix::ffi::OsStrExt;
        let is_directory = |name: &OsStr, flags| {
            rustix::fs::statat(&self.fd, name, flags)
                .map(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Directory)
        };
        // On the stack: room for a few hundred entries per system call.
        let mut buffer = [std::mem::MaybeUninit::uninit(); 8 * 1024];
        let mut dir = RawDir::new(&self.fd, &mut buffer);
        let mut entries = Vec::new();
        // An error ends the listing (as `std::fs::read_dir` does).
        while let Some(Ok(entry)) = dir.next() {
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if name == "." || name == ".." {
                continue;
            }
            let mut file_type = entry.file_type();
            if file_type == FileType::Unknown {
                // Some file systems do not tell the type while listing.
                let Ok(stat) = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) else {
                    continue;
                };
                file_type = FileType::from_raw_mode(stat.st_mode);
            }
            let kind = match file_type {
                FileType::Directory => EntryKind::Directory,
                FileType::Symlink if is_directory(name, AtFlags::empty()).unwrap_or(false) => {
                    EntryKind::LinkToDirectory
                }
                _ => EntryKind::Other,
            };
            entries.push((name.to_os_string(), kind));
        }
        Ok(entries)
    }

    /// Every entry (but `.` and `..`) and its kind, unsorted.
    #[cfg(not(unix))]
    fn entries(&self) -> std::io::Result<Vec<(OsString, EntryKind)>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&self.path)?.filter_map(Result::ok) {
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let kind = if file_type.is_symlink() && entry.path().is_dir() {
                EntryKind::LinkToDirectory
            } else if file_type.is_dir() {
                EntryKind::Directory
            } else {
                EntryKind::Other
            };
            entries.push((entry.file_name(), kind));
        }
        Ok(entries)
    }

    /// Opens the file `name` of this folder for reading.
    fn open_file(&self, name: &OsStr) -> std::io::Result<File> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::CLOEXEC;
            Ok(File::from(rustix::fs::openat(
                &self.fd,
                name,
                flags,
                Mode::empty(),
            )?))
        }
        #[cfg(not(unix))]
        {
            File::open(self.path.join(name))
        }
    }
}

/// An input to read: standard input, a file named on the command line, or
/// a file found by the walk (opened relative to its folder).
pub struct Source {
    input: Input,
    folder: Option<Arc<Folder>>,
}

impl Source {
    /// An input named on the command line (opened by its path).
    pub fn new(input: Input) -> Source {
        Source {
            input,
            folder: None,
        }
    }

    /// The file `path` listed in `folder`.
    pub fn in_folder(path: PathBuf, folder: Arc<Folder>) -> Source {
        Source {
            input: Input::File(path),
            folder: Some(folder),
        }
    }

    /// The input.
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// The input, by value.
    pub fn into_input(self) -> Input {
        self.input
    }

    /// Reads the input as text (see [`decode`]) into a buffer kept by the
    /// calling thread and calls `f` with the text. Cheaper than
    /// [`read_input`] over many files: no allocation per file, and no
    /// `statx` for the file size.
    pub fn with_text<R>(&self, f: impl FnOnce(Result<Decoded<'_>, ReadError>) -> R) -> R {
        thread_local! {
            static BUFFER: std::cell::RefCell<ReadBuffer> = const {
                std::cell::RefCell::new(ReadBuffer { bytes: Vec::new() })
            };
        }
        let Input::File(path) = &self.input else {
            return match read_input(&self.input) {
                Ok(text) => f(Ok(text)),
                Err(e) => f(Err(e)),
            };
        };
        let file = match (&self.folder, path.file_name()) {
            (Some(folder), Some(name)) => folder.open_file(name),
            _ => File::open(path),
        };
        let mut file = match file {
            Ok(file) => file,
            Err(e) => return f(Err(ReadError::Io(e))),
        };
        BUFFER.with(|buffer| {
            // A fresh buffer if `f` reads another input.
            let mut fresh = ReadBuffer { bytes: Vec::new() };
            let mut borrowed = buffer.try_borrow_mut();
            let buffer = borrowed.as_deref_mut().unwrap_or(&mut fresh);
            let text = buffer
                .read(&mut file)
                .map_err(ReadError::Io)
                .and_then(|bytes| decode(bytes).map_err(ReadError::Utf8));
            f(text)
        })
    }
}

/// Why an input could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    /// The OS refused.
    Io(std::io::Error),
    /// A byte that is not UTF-8 outside a comment.
    Utf8(InvalidUtf8),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Utf8(e) => write!(f, "{e}"),
        }
    }
}

/// Reads an input as text: UTF-8, where bytes that are not UTF-8 are
/// accepted inside comments, as upstream accepts them (see
/// [`hclwright::encoding`]); what is written back for it goes through
/// [`StandIns::encode`](hclwright::encoding::StandIns::encode).
pub fn read_input(input: &Input) -> Result<Decoded<'static>, ReadError> {
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
    decode_owned(bytes).map_err(ReadError::Utf8)
}

/// A read buffer, zeroed once and grown when a file does not fit.
struct ReadBuffer {
    bytes: Vec<u8>,
}

impl ReadBuffer {
    /// Reads the whole file; the bytes are valid until the next read.
    fn read(&mut self, file: &mut File) -> std::io::Result<&[u8]> {
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
        Source::new(input.clone())
            .with_text(|text| text.map(|t| t.text.into_owned()).map_err(|e| e.to_string()))
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
            assert_eq!(text_of(&input), read_input(&input).unwrap().text, "{name}");
        }
        // Reading another input inside the callback.
        let (lock, module) = (repo_file("Cargo.lock"), repo_file("src/cli/mod.rs"));
        Source::new(lock.clone()).with_text(|outer| {
            assert_eq!(text_of(&module), read_input(&module).unwrap().text);
            assert_eq!(outer.unwrap().text, read_input(&lock).unwrap().text);
        });
    }

    #[test]
    fn read_errors_are_the_same_with_the_reused_buffer() {
        let missing = repo_file("no-such-file.tf");
        let error = Source::new(missing.clone()).with_text(|text| text.map(|_| ()).unwrap_err());
        let expected = read_input(&missing).unwrap_err();
        assert_eq!(
            read_error_message(&missing, &error),
            read_error_message(&missing, &expected)
        );
        assert!(matches!(error, ReadError::Io(_)));
    }
}
