//! Text edits and unified diffs.
//!
//! A [`TextEdit`] replaces a byte range of the original text. Edits that
//! are sorted and do not overlap can be applied in one pass
//! ([`apply_edits`]) — the form editors expect for their TextEdits.

use text_size::TextRange;

/// Replace `range` of the original text with `new_text`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextEdit {
    /// Byte range in the original text.
    pub range: TextRange,
    /// The replacement.
    pub new_text: String,
}

impl TextEdit {
    /// A replacement of `range` by `new_text`.
    pub fn replace(range: TextRange, new_text: impl Into<String>) -> TextEdit {
        TextEdit {
            range,
            new_text: new_text.into(),
        }
    }

    /// An insertion of `text` at `offset`.
    pub fn insert(offset: text_size::TextSize, text: impl Into<String>) -> TextEdit {
        TextEdit::replace(TextRange::empty(offset), text)
    }

    /// A deletion of `range`.
    pub fn delete(range: TextRange) -> TextEdit {
        TextEdit::replace(range, String::new())
    }
}

/// Why edits cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// Two edits overlap, or are not sorted by position.
    Overlap {
        /// The earlier edit's range.
        first: TextRange,
        /// The later edit's range.
        second: TextRange,
    },
    /// An edit reaches past the end of the text or splits a character.
    OutOfBounds(TextRange),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::Overlap { first, second } => {
                write!(f, "edits overlap or are unsorted: {first:?} and {second:?}")
            }
            EditError::OutOfBounds(r) => write!(f, "edit range {r:?} is outside the text"),
        }
    }
}

impl std::error::Error for EditError {}

/// Applies sorted, non-overlapping edits to `text`.
///
/// ```
/// use hclwright::diff::{TextEdit, apply_edits};
/// use hclwright::TextRange;
/// let edits = [TextEdit::replace(TextRange::new(4.into(), 5.into()), "2")];
/// assert_eq!(apply_edits("a = 1\n", &edits).unwrap(), "a = 2\n");
/// ```
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> Result<String, EditError> {
    let mut out = String::with_capacity(text.len());
    let mut last = 0usize;
    let mut prev: Option<TextRange> = None;
    for edit in edits {
        let start = usize::from(edit.range.start());
        let end = usize::from(edit.range.end());
        if end > text.len() || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return Err(EditError::OutOfBounds(edit.range));
        }
        if start < last {
            return Err(EditError::Overlap {
                first: prev.unwrap_or(edit.range),
                second: edit.range,
            });
        }
        out.push_str(&text[last..start]);
        out.push_str(&edit.new_text);
        last = end;
        prev = Some(edit.range);
    }
    out.push_str(&text[last..]);
    Ok(out)
}

/// A unified diff between `old` and `new`, with the headers
/// `--- old/PATH` and `+++ new/PATH` (as `terraform fmt -diff` prints),
/// three lines of context; empty when the texts are equal.
///
/// ```
/// let d = hclwright::diff::unified_diff("a = 1\n", "a = 2\n", "main.tf");
/// assert!(d.starts_with("--- old/main.tf\n+++ new/main.tf\n"));
/// assert!(d.contains("-a = 1\n+a = 2\n"));
/// ```
pub fn unified_diff(old: &str, new: &str, path: &str) -> String {
    diff_with_prefixes(old, new, path, "old/", "new/")
}

/// A unified diff from `old` to `new` with git's headers `--- a/PATH` and
/// `+++ b/PATH`, `PATH` normalised by [`patch_path`], so that `git apply`
/// and `patch -p1` take it from the folder the command ran in. Empty when
/// the texts are equal. The edit commands and [`Document::unified_diff`]
/// print these.
///
/// [`Document::unified_diff`]: crate::Document::unified_diff
///
/// ```
/// let d = hclwright::diff::git_unified_diff("a = 1\n", "a = 2\n", "./modules//app/main.tf");
/// assert!(d.starts_with("--- a/modules/app/main.tf\n+++ b/modules/app/main.tf\n"));
/// ```
pub fn git_unified_diff(old: &str, new: &str, path: &str) -> String {
    diff_with_prefixes(old, new, path, "a/", "b/")
}

fn diff_with_prefixes(old: &str, new: &str, path: &str, from: &str, to: &str) -> String {
    if old == new {
        return String::new();
    }
    let path = patch_path(path);
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("{from}{path}"), &format!("{to}{path}"))
        .to_string()
}

/// A path as a patch names it: relative, with `/` between components and
/// no `.` or empty components (`./main.tf` and `.//main.tf` are
/// `main.tf`, `a/../b.tf` is `b.tf`). An absolute path inside the current
/// folder is made relative to it; another absolute path loses its root.
///
/// ```
/// use hclwright::diff::patch_path;
/// assert_eq!(patch_path("./main.tf"), "main.tf");
/// assert_eq!(patch_path("modules//app/./x.tf"), "modules/app/x.tf");
/// assert_eq!(patch_path("../other/x.tf"), "../other/x.tf");
/// ```
pub fn patch_path(path: &str) -> String {
    use std::path::{Component, Path};
    let mut path = Path::new(path);
    let cwd = std::env::current_dir().ok();
    if path.is_absolute()
        && let Some(inside) = cwd.as_deref().and_then(|cwd| path.strip_prefix(cwd).ok())
    {
        path = inside;
    }
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(name) => parts.push(name.to_string_lossy().into_owned()),
            Component::ParentDir => {
                if parts.last().is_some_and(|p| p != "..") {
                    parts.pop();
                } else {
                    parts.push("..".to_string());
                }
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: u32, b: u32) -> TextRange {
        TextRange::new(a.into(), b.into())
    }

    #[test]
    fn applies_sorted_edits() {
        let edits = [
            TextEdit::insert(0.into(), "# top\n"),
            TextEdit::replace(r(4, 5), "22"),
            TextEdit::delete(r(5, 6)),
        ];
        assert_eq!(apply_edits("a = 1\n", &edits).unwrap(), "# top\na = 22");
    }

    #[test]
    fn rejects_overlap_and_out_of_bounds() {
        let edits = [
            TextEdit::replace(r(0, 3), "x"),
            TextEdit::replace(r(2, 4), "y"),
        ];
        assert!(matches!(
            apply_edits("abcdef", &edits),
            Err(EditError::Overlap { .. })
        ));
        assert!(matches!(
            apply_edits("ab", &[TextEdit::delete(r(1, 5))]),
            Err(EditError::OutOfBounds(_))
        ));
    }

    #[test]
    fn no_newline_at_end_is_marked() {
        let d = unified_diff("a = 1", "a = 2", "x.tf");
        assert!(d.contains("\\ No newline at end of file"), "{d}");
    }
}
