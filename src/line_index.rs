//! Line and column lookup for many offsets of one text.

use text_size::TextSize;

/// The line starts of a text, for turning many byte offsets into 1-based
/// lines and columns (in characters) without rescanning the text each
/// time: a binary search for the line, then a count of the characters
/// before the offset on its line.
///
/// ```
/// use hclwright::LineIndex;
/// let lines = LineIndex::new("ab\néx = 1\n");
/// assert_eq!(lines.line_col(0.into()), (1, 1));
/// assert_eq!(lines.line_col(5.into()), (2, 2)); // `x`, after the two-byte `é`
/// ```
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the lines of `text` (one pass over it).
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    /// 1-based line and column (in characters) of a byte offset; the same
    /// as [`line_col`](crate::line_col), which scans the text before the
    /// offset on every call. An offset past the end counts as the end; one
    /// inside a character counts as that character's start.
    pub fn line_col(&self, offset: TextSize) -> (u32, u32) {
        let mut offset = usize::from(offset).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column = self.text[self.starts[line]..offset].chars().count() + 1;
        (line as u32 + 1, column as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_line_col_everywhere() {
        let text = "ab\néx = 1\r\n\n  \"日本\" # c\nlast";
        let lines = LineIndex::new(text);
        for offset in 0..=text.len() + 2 {
            let offset = TextSize::from(offset as u32);
            assert_eq!(
                lines.line_col(offset),
                crate::line_col(text, offset),
                "{offset:?}"
            );
        }
        assert_eq!(LineIndex::new("").line_col(0.into()), (1, 1));
    }
}
