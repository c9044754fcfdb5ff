//! Text edits and unified diffs.
//!
//! A [`TextEdit`] replaces a byte range of the original text. Edits that
//! are sorted and do not overlap can be applied in one pass
//! ([`apply_edits`]) — the form editors expect for their TextEdits.

use std::ops::Range;

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
    let mut out = format!("--- {from}{path}\n+++ {to}{path}\n");
    // Only the lines between the equal first and last lines (with their
    // context) are split: a change in a large file costs a comparison of
    // its bytes, not a list of all its lines.
    let (start, old_end, new_end) = middle(old, new);
    let skipped = old.as_bytes()[..start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    let a: Vec<&str> = old[start..old_end].split_inclusive('\n').collect();
    let b: Vec<&str> = new[start..new_end].split_inclusive('\n').collect();
    for (old_lines, new_lines) in changed_regions(&a, &b) {
        write_hunks(&a, &b, old_lines, new_lines, skipped, &mut out);
    }
    out
}

/// The byte range of the lines of `old` and `new` that are not equal
/// lines at both ends, with [`CONTEXT`] equal lines around them: the
/// start (the same in both: after equal lines) and the end in each.
fn middle(old: &str, new: &str) -> (usize, usize, usize) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    // The start of the line where they first differ, then back over the
    // context.
    let differs = a[..same]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |n| n + 1);
    let mut start = differs;
    for _ in 0..CONTEXT {
        if start == 0 {
            break;
        }
        start = a[..start - 1]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |n| n + 1);
    }
    // The equal ends, not overlapping the equal first lines (as the line
    // diff takes them), from a line start in both (just after a newline
    // of the equal end), then forward over the context.
    let room = (a.len() - differs).min(b.len() - differs);
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let mut from = a.len() - tail;
    if from > differs && a[from - 1] != b'\n' {
        match a[from..].iter().position(|&c| c == b'\n') {
            Some(n) => from += n + 1,
            None => from = a.len(),
        }
    }
    let mut end = from;
    for _ in 0..CONTEXT {
        match a[end..].iter().position(|&c| c == b'\n') {
            Some(n) => end += n + 1,
            None => end = a.len(),
        }
    }
    let after = a.len() - end;
    (start, end, b.len() - after)
}

/// Lines of context around each change in a diff.
const CONTEXT: usize = 3;

/// The stretches of lines (of the old text and of the new) that hold the
/// differences, each with [`CONTEXT`] equal lines on both sides where
/// there are some, so that the line diff of each stretch alone gives the
/// hunks of the line diff of the whole texts.
///
/// Equal lines at both ends are left out, as the line diff does before
/// it starts. When the texts have as many lines, each line is compared
/// with the line at the same place, and changes more than two contexts
/// apart (hunks of their own) are stretches of their own: a few changes
/// in a large file cost a comparison of its lines, not a diff of all of
/// it.
fn changed_regions(a: &[&str], b: &[&str]) -> Vec<(Range<usize>, Range<usize>)> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a_end, b_end) = (a.len() - suffix, b.len() - suffix);
    let around = |first: usize, end_a: usize, end_b: usize| {
        let start = first.saturating_sub(CONTEXT);
        (
            start..(end_a + CONTEXT).min(a.len()),
            start..(end_b + CONTEXT).min(b.len()),
        )
    };
    if a.len() != b.len() {
        return vec![around(prefix, a_end, b_end)];
    }
    let mut regions = Vec::new();
    let mut changed: Option<(usize, usize)> = None;
    for i in prefix..a_end {
        if a[i] == b[i] {
            continue;
        }
        changed = match changed {
            Some((first, last)) if i - last - 1 > 2 * CONTEXT => {
                regions.push(around(first, last + 1, last + 1));
                Some((i, i))
            }
            Some((first, _)) => Some((first, i)),
            None => Some((i, i)),
        };
    }
    if let Some((first, last)) = changed {
        regions.push(around(first, last + 1, last + 1));
    }
    regions
}

/// Appends the hunks of the line diff of `a[old_lines]` against
/// `b[new_lines]`, numbered as lines of the whole texts (where `a` and
/// `b` start after `skipped` lines).
fn write_hunks(
    a: &[&str],
    b: &[&str],
    old_lines: Range<usize>,
    new_lines: Range<usize>,
    skipped: usize,
    out: &mut String,
) {
    use std::fmt::Write;
    let (old_at, new_at) = (old_lines.start + skipped, new_lines.start + skipped);
    let diff = similar::TextDiff::configure()
        .newline_terminated(true)
        .diff_slices(&a[old_lines], &b[new_lines]);
    for hunk in diff.unified_diff().context_radius(CONTEXT).iter_hunks() {
        let ops = hunk.ops();
        let (Some(first), Some(last)) = (ops.first(), ops.last()) else {
            continue;
        };
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            HunkRange(
                first.old_range().start + old_at,
                last.old_range().end + old_at
            ),
            HunkRange(
                first.new_range().start + new_at,
                last.new_range().end + new_at
            ),
        );
        for change in hunk.iter_changes() {
            let _ = write!(out, "{}{}", change.tag(), change.value());
            if change.missing_newline() {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
}

/// A hunk's lines `start..end` as its header gives them: the first line
/// (counted from 1) and the count when it is not 1; an empty range names
/// the line before it.
struct HunkRange(usize, usize);

impl std::fmt::Display for HunkRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.1.saturating_sub(self.0);
        match len {
            1 => write!(f, "{}", self.0 + 1),
            0 => write!(f, "{},0", self.0),
            _ => write!(f, "{},{}", self.0 + 1, len),
        }
    }
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

    /// The line diff of the whole texts, as `similar` makes it.
    fn whole(old: &str, new: &str) -> String {
        if old == new {
            return String::new();
        }
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(CONTEXT)
            .header("old/x.tf", "new/x.tf")
            .to_string()
    }

    /// Applies a unified diff of one file to `old`, checking every
    /// context and removed line against it.
    fn patch(old: &str, diff: &str) -> String {
        let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
        let mut out = String::new();
        let mut at = 0;
        let mut lines = diff.split_inclusive('\n').skip(2).peekable();
        while let Some(header) = lines.next() {
            let start: usize = header[4..]
                .split([',', ' '])
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let start = if header[4..].starts_with(&format!("{start},0 ")) {
                start
            } else {
                start - 1
            };
            while at < start {
                out.push_str(old_lines[at]);
                at += 1;
            }
            while let Some(line) = lines.next_if(|l| !l.starts_with("@@")) {
                let no_newline = lines.next_if(|l| l.starts_with("\\ No newline"));
                let body = if no_newline.is_some() {
                    line.strip_suffix('\n').unwrap()
                } else {
                    line
                };
                let (tag, text) = body.split_at(1);
                if tag != "+" {
                    assert_eq!(old_lines[at], text, "{diff}");
                    at += 1;
                }
                if tag != "-" {
                    out.push_str(text);
                }
            }
        }
        out.extend(old_lines[at..].iter().copied());
        out
    }

    /// Random texts and changes: lines changed in place, inserted and
    /// removed, with and without a final newline. `distinct` lines are
    /// unique, others drawn from a few values.
    fn random_cases(distinct: bool, mut check: impl FnMut(&str, &str)) {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for case in 0..3000 {
            let len = 1 + next(60) as usize;
            let line = |i: usize, v: u64| {
                if distinct {
                    format!("line {i} {v}\n")
                } else {
                    format!("l{v}\n")
                }
            };
            let mut lines: Vec<String> = (0..len).map(|i| line(i, next(6))).collect();
            let old = lines.concat();
            let same_count = case % 2 == 0;
            for k in 0..1 + next(6) {
                let i = next(lines.len() as u64) as usize;
                match if same_count { 0 } else { next(3) } {
                    0 => lines[i] = line(i + 1000 * k as usize, next(8)),
                    1 => lines.insert(i, line(i + 5000 + k as usize, next(3))),
                    _ if lines.len() > 1 => {
                        lines.remove(i);
                    }
                    _ => {}
                }
            }
            let mut new = lines.concat();
            let mut old = old.clone();
            if case % 5 == 1 {
                new.pop();
            }
            if case % 7 == 2 {
                old.pop();
            }
            check(&old, &new);
        }
    }

    #[test]
    fn diffs_by_regions_are_the_whole_line_diff() {
        // Distinct lines: exactly the diff of the whole texts.
        random_cases(true, |old, new| {
            assert_eq!(
                unified_diff(old, new, "x.tf"),
                whole(old, new),
                "{old:?} -> {new:?}"
            );
        });
        // Repeated lines, where a diff of the whole may pair lines
        // across places: a diff that turns the old text into the new.
        random_cases(false, |old, new| {
            let diff = unified_diff(old, new, "x.tf");
            assert_eq!(diff.is_empty(), old == new);
            if !diff.is_empty() {
                assert_eq!(patch(old, &diff), new, "{old:?} -> {new:?}\n{diff}");
                assert_eq!(patch(old, &whole(old, new)), new);
            }
        });
    }

    /// The diff made from every line of both texts (as before only the
    /// middle was split).
    fn by_all_lines(old: &str, new: &str) -> String {
        let mut out = "--- old/x.tf\n+++ new/x.tf\n".to_string();
        let a: Vec<&str> = old.split_inclusive('\n').collect();
        let b: Vec<&str> = new.split_inclusive('\n').collect();
        for (old_lines, new_lines) in changed_regions(&a, &b) {
            write_hunks(&a, &b, old_lines, new_lines, 0, &mut out);
        }
        out
    }

    #[test]
    fn only_the_middle_is_split_into_lines() {
        for distinct in [true, false] {
            random_cases(distinct, |old, new| {
                if old != new {
                    assert_eq!(
                        unified_diff(old, new, "x.tf"),
                        by_all_lines(old, new),
                        "{old:?} -> {new:?}"
                    );
                }
            });
        }
        // Lines added that repeat the lines before them.
        let (old, new) = ("p\nq\nr\n", "p\nq\nr\nq\nr\n");
        assert_eq!(unified_diff(old, new, "x.tf"), by_all_lines(old, new));
    }

    #[test]
    fn no_newline_at_end_is_marked() {
        let d = unified_diff("a = 1", "a = 2", "x.tf");
        assert!(d.contains("\\ No newline at end of file"), "{d}");
    }
}
