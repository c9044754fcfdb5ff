//! What a rename across files leaves to do: the new text of each file,
//! its diff, and writing it.

use std::io;
use std::path::PathBuf;

/// One file a rename changes: its path, the text it had and the text it
/// gets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileChange {
    /// The file, as given in its [`SourceFile`](super::SourceFile).
    pub path: PathBuf,
    /// Its text before.
    pub before: String,
    /// Its text after.
    pub after: String,
}

impl FileChange {
    /// A unified diff with git's headers (`--- a/PATH`, `+++ b/PATH`), as
    /// `hclwright rename --diff` prints it; empty when nothing changes.
    pub fn unified_diff(&self) -> String {
        crate::diff::git_unified_diff(&self.before, &self.after, &self.path.to_string_lossy())
    }

    /// Writes the new text over the file, as the command-line tool does
    /// ([`write_checked`](crate::write::write_checked)): atomically, and
    /// only if the file still holds the text it was read with (else an
    /// error that [`is_changed_since_read`](crate::write::is_changed_since_read)
    /// recognises, and the file is left as it is).
    pub fn write(&self) -> io::Result<()> {
        crate::write::write_checked(&self.path, self.before.as_bytes(), self.after.as_bytes())
    }
}

/// Writes every change (see [`FileChange::write`]), in order; stops at
/// the first file that cannot be written, with an error naming it (the
/// files before it are written).
pub fn write_changes(changes: &[FileChange]) -> io::Result<()> {
    for change in changes {
        change
            .write()
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", change.path.display())))?;
    }
    Ok(())
}
