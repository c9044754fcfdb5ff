//! The files of a module folder, read as Terraform reads them.

use std::io;
use std::path::{Path, PathBuf};

use super::SourceFile;

impl SourceFile {
    /// The configuration files of a module folder: every `.tf` and
    /// `.tf.json` file directly in `dir` (not in subfolders), sorted by
    /// name with override files (`override.tf`, `*_override.tf`, and
    /// their `.tf.json` forms) last, as Terraform merges them. Each is
    /// named `dir/NAME`. An error names the file or folder that could not
    /// be read (a file that is not UTF-8 is an error).
    ///
    /// ```
    /// use hclwright::refs::SourceFile;
    /// let dir = std::env::temp_dir().join("hclwright-doc-load-dir");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("main.tf"), "a = 1\n").unwrap();
    /// std::fs::write(dir.join("extra.tf.json"), "{}").unwrap();
    /// std::fs::write(dir.join("main_override.tf"), "a = 2\n").unwrap();
    /// std::fs::write(dir.join("notes.md"), "not HCL").unwrap();
    /// let files = SourceFile::load_dir(&dir).unwrap();
    /// let names: Vec<_> = files.iter().map(|f| f.path.file_name().unwrap().to_str().unwrap()).collect();
    /// assert_eq!(names, ["extra.tf.json", "main.tf", "main_override.tf"]);
    /// ```
    pub fn load_dir(dir: impl AsRef<Path>) -> io::Result<Vec<SourceFile>> {
        let dir = dir.as_ref();
        module_file_paths(dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?
            .into_iter()
            .map(|path| match std::fs::read_to_string(&path) {
                Ok(text) => Ok(SourceFile::new(path, text)),
                Err(e) => Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
            })
            .collect()
    }
}

/// The paths of the `.tf` and `.tf.json` files of `dir`, in the order
/// Terraform merges them (by name, override files last).
pub(crate) fn module_file_paths(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut paths: Vec<PathBuf> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !(name.ends_with(".tf") || name.ends_with(".tf.json")) {
            continue;
        }
        // The directory listing gives the type; only a link (or a file
        // system that does not say) costs a look at what it points to.
        let is_file = match entry.file_type() {
            Ok(t) if t.is_file() => true,
            Ok(t) if t.is_dir() => false,
            _ => path.is_file(),
        };
        if is_file {
            paths.push(path);
        }
    }
    paths.sort();
    paths.sort_by_key(|p| is_override(p));
    Ok(paths)
}

/// True for `override.tf`, `NAME_override.tf` and their JSON forms.
fn is_override(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let stem = name
        .strip_suffix(".tf.json")
        .or_else(|| name.strip_suffix(".tf"))
        .unwrap_or(name);
    stem == "override" || stem.ends_with("_override")
}
