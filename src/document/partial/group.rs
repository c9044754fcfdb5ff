//! Cutting a part of a file inside an `=` alignment group.
//!
//! A part is best cut at a line that no alignment group crosses (see
//! [`scope`](crate::document::partial::scope)). In a long run of one-line attributes there
//! is none: the run is one group, and an edit anywhere in it would be
//! laid out against the whole file. This module reads, without building
//! any tree, the lines of the group beyond a cut, and sums them up so
//! that the part can be edited alone:
//!
//! - when the formatter would realign them (their `=` are not all at one
//!   column, or one has no space before it), the group is not aligned,
//!   and an edit leaves every `=` of it where it is (the layout realigns
//!   only groups that were aligned): the part is edited with the group
//!   taken as not aligned (generated files: `a0 = 0` … `a999999 = 999999`);
//! - when their `=` are all at one column, the lines are summed up as
//!   their widest name and that column: the layout puts one stand-in line
//!   of that name and column in their place (see
//!   [`layout::relayout`](crate::document::primitives::layout::relayout)), which tells whether
//!   the group was aligned and where its `=` go, exactly as the lines
//!   themselves would (a formatted `terraform.tfvars`). When the stand-in
//!   would move, every line it stands for would, and the edit runs on the
//!   whole file.
//!
//! The lines read are one-line attributes alone on their lines, not
//! indented, without a comment, up to a line without cells (a blank
//! line, a block's `}` or header) or the edge of the file. Comments are
//! excluded from the whole group because their alignment follows the
//! `=` column of the whole group.

use unicode_segmentation::UnicodeSegmentation;

use crate::document::primitives::layout::{AlignedLines, Beyond};
use crate::document::tree::Tree;
use crate::syntax_kind::SyntaxKind::*;

/// The `=` column of a one-line attribute, told from its text alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Column {
    /// Columns (grapheme clusters) before the `=`: the name and spaces.
    at: usize,
    /// The spaces between the name and the `=`.
    spaces: usize,
}

/// The `=` column of an item's text when it is one attribute on one
/// line of its own: not indented, a name, spaces, `=`, a value, the
/// newline; no comment (no `#`, `//` or `/*` anywhere, even in a
/// string: that only makes the test stricter) and no tab.
fn plain_line(text: &str) -> Option<Column> {
    let body = text.strip_suffix('\n')?;
    let body = body.strip_suffix('\r').unwrap_or(body).as_bytes();
    // One pass over the bytes (the lines of a large group are many).
    let mut eq = None;
    for (at, &b) in body.iter().enumerate() {
        match b {
            b'\n' | b'\r' | b'\t' | b'#' => return None,
            b'/' if matches!(body.get(at + 1), Some(b'/' | b'*')) => return None,
            b'=' if eq.is_none() => eq = Some(at),
            _ => {}
        }
    }
    // The item is an attribute: its text starts with its name (no
    // comment line above it, no indentation), and the first `=` is its.
    let lead = &body[..eq?];
    let name_len = lead.iter().rposition(|&b| b != b' ')? + 1;
    let name = &lead[..name_len];
    if name.contains(&b' ') {
        return None;
    }
    let spaces = lead.len() - name_len;
    let columns = if name.is_ascii() {
        name_len
    } else {
        std::str::from_utf8(name).ok()?.graphemes(true).count()
    };
    Some(Column {
        at: columns + spaces,
        spaces,
    })
}

/// True when the `i`-th child is a one-line attribute alone on its line
/// and not indented (see [`plain_line`]): where a part may be cut
/// inside a group, given that the child before it ends a line.
pub(crate) fn is_plain_line(tree: &Tree, i: usize) -> bool {
    tree.kind(i) == ATTRIBUTE.into() && plain_line(&tree.text_of(i)).is_some()
}

/// The columns seen so far, and whether the group is surely misaligned.
#[derive(Default)]
struct Columns {
    first: Option<usize>,
    widest: usize,
    misaligned: bool,
}

impl Columns {
    /// What the lines seen tell of the group.
    fn beyond(self) -> Beyond {
        let aligned = match self.first {
            Some(column) if !self.misaligned => Some(AlignedLines {
                widest: self.widest,
                column,
            }),
            _ => None,
        };
        Beyond {
            misaligned: self.misaligned,
            aligned,
        }
    }

    fn add(&mut self, column: Column) {
        let first = *self.first.get_or_insert(column.at);
        self.misaligned |= column.spaces == 0 || column.at != first;
        self.widest = self.widest.max(column.at - column.spaces);
    }
}

/// The lines of the group before the child `lo` (the part's first, a
/// plain line after a line end), read back to where the group starts;
/// `None` when a line is not one this module understands.
pub(crate) fn beyond_start(tree: &Tree, lo: usize) -> Option<Beyond> {
    let mut columns = Columns::default();
    let mut i = lo;
    loop {
        if i == 0 {
            // The start of the file, unless a byte order mark begins the
            // group's first line.
            if tree.has_head() {
                return None;
            }
            break;
        }
        let kind = tree.kind(i - 1);
        if kind == ATTRIBUTE.into() {
            columns.add(plain_line(&tree.text_of(i - 1))?);
            i -= 1;
        } else if kind == NEWLINE.into() {
            // A line of its own: blank when the child before it ends a
            // line (maybe after spaces).
            let mut j = i - 1;
            if j > 0 && tree.kind(j - 1) == WHITESPACE.into() {
                j -= 1;
            }
            if j > 0 && !tree.text_of(j - 1).ends_with('\n') {
                return None;
            }
            break;
        } else if kind == BLOCK.into() && ends_with_brace_line(&tree.text_of(i - 1)) {
            break;
        } else {
            return None;
        }
    }
    Some(columns.beyond())
}

/// The lines of the group from the child `hi` on (the part ends a line
/// before it), read to where the group ends; `None` when a line is not
/// one this module understands.
pub(crate) fn beyond_end(tree: &Tree, hi: usize) -> Option<Beyond> {
    let mut columns = Columns::default();
    let mut i = hi;
    while i < tree.len() {
        let kind = tree.kind(i);
        if kind == ATTRIBUTE.into() {
            columns.add(plain_line(&tree.text_of(i))?);
            i += 1;
        } else if kind == NEWLINE.into() {
            // A blank line (the line before it ended).
            break;
        } else if kind == WHITESPACE.into() {
            if i + 1 < tree.len() && tree.kind(i + 1) != NEWLINE.into() {
                return None;
            }
            break;
        } else if kind == BLOCK.into() && header_has_no_cells(&tree.text_of(i)) {
            break;
        } else {
            return None;
        }
    }
    Some(columns.beyond())
}

/// True when a block's last line is its `}` alone (no cells).
fn ends_with_brace_line(text: &str) -> bool {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let body = body.strip_suffix('\r').unwrap_or(body);
    let last = &body[body.rfind('\n').map_or(0, |n| n + 1)..];
    text.ends_with('\n') && last.trim_matches([' ', '\t']) == "}"
}

/// True when a block's first line has no `=` and no comment (nor a `/`,
/// to be sure).
fn header_has_no_cells(text: &str) -> bool {
    text.find('\n')
        .is_some_and(|end| !text[..end].contains(['=', '#', '/']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines() {
        let col = |t: &str| plain_line(t).map(|c| (c.at, c.spaces));
        assert_eq!(col("a = 1\n"), Some((2, 1)));
        assert_eq!(col("abc   = \"x\"\r\n"), Some((6, 3)));
        assert_eq!(col("a= 1\n"), Some((1, 0)));
        assert_eq!(col("é́ = 1\n"), Some((2, 1)));
        // Indented, commented, tabbed, on several lines, no newline.
        for text in [
            "  a = 1\n",
            "a = 1 # c\n",
            "a = \"//\"\n",
            "a\t= 1\n",
            "a = [\n1]\n",
            "a = 1",
            "# c\na = 1\n",
        ] {
            assert_eq!(col(text), None, "{text:?}");
        }
    }

    fn tree(text: &str) -> Tree {
        let doc = crate::Document::parse(text).unwrap();
        doc.tree.clone()
    }

    #[test]
    fn reads_the_group_beyond_a_cut() {
        let seen = |b: Option<Beyond>| b.map(|b| b.misaligned);
        // Children: a, bb, c, d (each a line).
        let t = tree("a = 1\nbb = 2\nc = 3\nd = 4\n");
        assert_eq!(seen(beyond_start(&t, 2)), Some(true));
        assert_eq!(seen(beyond_start(&t, 1)), Some(false));
        assert_eq!(seen(beyond_end(&t, 2)), Some(false));
        assert_eq!(seen(beyond_end(&t, 1)), Some(true));
        // Aligned beyond, and bounded by a blank line and a block.
        let t = tree("x {\n}\na  = 1\nbb = 2\nc = 3\n\nd = 4\n");
        assert_eq!(seen(beyond_start(&t, 3)), Some(false));
        assert_eq!(seen(beyond_start(&t, 4)), Some(true));
        assert_eq!(seen(beyond_end(&t, 3)), Some(false));
        // A comment in the group, an indented line.
        let t = tree("a = 1 # c\nb = 2\nc = 3\n");
        assert_eq!(seen(beyond_start(&t, 2)), None);
        let t = tree("a = 1\nb = 2\n  c = 3\n");
        assert_eq!(seen(beyond_end(&t, 2)), None);
    }
}
