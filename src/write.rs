//! Writing files safely: atomic replacement, and a checked
//! read–modify–write that refuses a file changed since it was read. The
//! command-line tool writes every file it changes through these, and so
//! do the results of the library that write themselves (a Terraform
//! rename's [`FileChange`](crate::refs::FileChange)s).
//!
//! ```
//! let dir = std::env::temp_dir().join("hclwright-doc-write");
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("main.tf");
//! std::fs::write(&path, "a = 1\n").unwrap();
//! hclwright::write::write_checked(&path, b"a = 1\n", b"a = 2\n").unwrap();
//! assert_eq!(std::fs::read_to_string(&path).unwrap(), "a = 2\n");
//! // The file is not what was read any more: refused, left as it is.
//! let err = hclwright::write::write_checked(&path, b"a = 1\n", b"a = 3\n").unwrap_err();
//! assert!(hclwright::write::is_changed_since_read(&err));
//! assert_eq!(std::fs::read_to_string(&path).unwrap(), "a = 2\n");
//! ```

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Replaces the contents of `path` with `contents` atomically: the data is
/// written to a temporary file in the same folder, flushed to disk, given
/// the original file's permissions (and owner, where allowed), then renamed
/// over the original (so a hard link to the old file keeps the old text). A
/// crash, a full disk or any error leaves either the old or the new
/// contents, never a truncated file (the temporary file is removed on
/// error). When `path` is a symbolic link, the file it points to is
/// replaced and the link is kept.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let target = resolve_link(path)?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let original = match fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let (tmp_path, mut tmp) = create_temp(&dir, &target)?;
    let result = (|| {
        tmp.write_all(contents)?;
        if let Some(meta) = &original {
            keep_owner(&tmp, meta);
            tmp.set_permissions(meta.permissions())?;
        }
        tmp.sync_all()?;
        drop(tmp);
        fs::rename(&tmp_path, &target)?;
        sync_dir(&dir);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp_path);
    }
    result
}

/// Why a checked write was refused: the file is not the one that was
/// read any more (another program, or another run, changed it meanwhile).
#[derive(Debug)]
pub struct ChangedSinceRead;

impl std::fmt::Display for ChangedSinceRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the file changed since it was read; not written (run the command again)")
    }
}

impl std::error::Error for ChangedSinceRead {}

/// True when `e` is the refusal of [`write_checked`] for a file that
/// changed since it was read.
pub fn is_changed_since_read(e: &io::Error) -> bool {
    e.get_ref()
        .is_some_and(|inner| inner.is::<ChangedSinceRead>())
}

/// Writes `contents` to `path` in place of `expected`, the bytes read from
/// it earlier, as one step of a read–modify–write:
///
/// - a file the user may not write is refused (`PermissionDenied`), never
///   replaced, even where the folder would allow it;
/// - an advisory lock (`flock`) is held on the file while it is compared
///   and written, and a file whose bytes are no longer `expected` is
///   refused ([`ChangedSinceRead`]): concurrent runs never lose each
///   other's updates silently;
/// - a file with several hard links is rewritten in place (the new bytes,
///   then the length, then a flush), so that every link sees the new text;
///   so is a file in a folder where no temporary file can be created;
/// - otherwise the write is atomic, as [`write_atomic`]: a temporary file
///   with the original's permissions, owner and group (where allowed),
///   renamed over the original.
pub fn write_checked(path: &Path, expected: &[u8], contents: &[u8]) -> io::Result<()> {
    let target = resolve_link(path)?;
    if !may_write(&target) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the file is not writable (read-only); left as it is",
        ));
    }
    let locked = lock(&target)?;
    let current = {
        let mut bytes = Vec::with_capacity(expected.len());
        let mut reader = &locked;
        std::io::Read::read_to_end(&mut reader, &mut bytes)?;
        bytes
    };
    if current != expected {
        return Err(io::Error::other(ChangedSinceRead));
    }
    if current == contents {
        return Ok(());
    }
    let meta = locked.metadata()?;
    if hard_links(&meta) > 1 {
        return write_in_place(&target, contents);
    }
    match write_atomic(&target, contents) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            // A folder where no temporary file can be created (read-only),
            // but a writable file: rewritten in place.
            write_in_place(&target, contents)
        }
        other => other,
    }
    // `locked` is closed here, which releases the lock.
}

/// True when this process may write `path` (the permission bits, owner
/// and group as the system judges them for the real user).
fn may_write(path: &Path) -> bool {
    #[cfg(unix)]
    {
        rustix::fs::access(path, rustix::fs::Access::WRITE_OK).is_ok()
    }
    #[cfg(not(unix))]
    {
        fs::metadata(path).is_ok_and(|m| !m.permissions().readonly())
    }
}

/// Opens `path` and takes an exclusive advisory lock on it, waiting for
/// other holders; retried when the path was replaced (renamed over) while
/// waiting, so that the lock is on the file the path names now.
fn lock(path: &Path) -> io::Result<File> {
    for _ in 0..1000 {
        let file = File::open(path)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)?;
            let held = file.metadata()?;
            let now = fs::metadata(path)?;
            if held.ino() == now.ino() && held.dev() == now.dev() {
                return Ok(file);
            }
        }
        #[cfg(not(unix))]
        return Ok(file);
    }
    Err(io::Error::other(
        "the file keeps being replaced; not written",
    ))
}

/// The number of hard links to a file.
fn hard_links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

/// Rewrites `path` in place: the new bytes over the old, then the length,
/// then a flush to disk. The file keeps its inode, links, owner and mode.
fn write_in_place(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.write_all(contents)?;
    file.set_len(contents.len() as u64)?;
    file.sync_all()
}

/// Gives the new file the original's owner and group, when allowed (a
/// user may only keep their own; root may keep anyone's).
fn keep_owner(file: &File, original: &fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
    }
    #[cfg(not(unix))]
    let _ = (file, original);
}

/// The file a symbolic link points to (or `path` itself).
fn resolve_link(path: &Path) -> io::Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path),
        _ => Ok(path.to_path_buf()),
    }
}

/// Creates a new, uniquely named temporary file next to `target`.
fn create_temp(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut attempt = 0;
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Flushes the folder entry of the rename to disk (best effort: some
/// systems cannot open a folder for syncing).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hclwright-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn checked_writes_refuse_a_changed_file() {
        let dir = scratch("checked");
        let file = dir.join("main.tf");
        fs::write(&file, "a=1\n").unwrap();
        let e = write_checked(&file, b"a=0\n", b"a = 1\n").unwrap_err();
        assert!(is_changed_since_read(&e), "{e}");
        assert_eq!(fs::read_to_string(&file).unwrap(), "a=1\n");
        write_checked(&file, b"a=1\n", b"a = 1\n").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "a = 1\n");
        assert!(leftovers(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replaces_contents_and_leaves_no_temp_file() {
        let dir = scratch("replace");
        let file = dir.join("main.tf");
        fs::write(&file, "a=1\n").unwrap();
        write_atomic(&file, b"a = 1\n").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "a = 1\n");
        assert!(leftovers(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions_and_symlinks() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("perms");
        let file = dir.join("real.tf");
        fs::write(&file, "a=1\n").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.tf");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write_atomic(&link, b"a = 1\n").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "a = 1\n");
        let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn keeps_the_owner_when_allowed() {
        use std::os::unix::fs::MetadataExt;
        let dir = scratch("owner");
        let file = dir.join("main.tf");
        fs::write(&file, "a=1\n").unwrap();
        // Only root can give a file away; skip otherwise.
        if std::os::unix::fs::chown(&file, Some(65534), Some(65534)).is_err() {
            eprintln!("note: not allowed to change owners; skipping");
            fs::remove_dir_all(&dir).unwrap();
            return;
        }
        write_atomic(&file, b"a = 1\n").unwrap();
        let meta = fs::metadata(&file).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let dir = scratch("missing");
        let file = dir.join("nope").join("main.tf");
        assert!(write_atomic(&file, b"x").is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
