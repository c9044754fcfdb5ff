//! Atomic file replacement, shared by the subcommands that rewrite files.

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
