//! Positions in the negotiated encoding, and the text held for an open
//! document kept in step with the editor's changes.

use hclwright::{TextRange, TextSize};
use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// How positions count characters on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units, the protocol's default.
    Utf16,
    /// Bytes, when the client offers `utf-8`.
    Utf8,
}

impl Encoding {
    fn units(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
        }
    }

    fn count(self, s: &str) -> u32 {
        match self {
            Encoding::Utf16 if !s.is_ascii() => s.encode_utf16().count() as u32,
            _ => s.len() as u32,
        }
    }
}

/// The line starts of one text, for converting many positions (one pass
/// over the text, then a binary search per position).
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    encoding: Encoding,
}

impl<'a> Lines<'a> {
    /// Indexes the lines of `text`.
    pub fn new(text: &'a str, encoding: Encoding) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines {
            text,
            starts,
            encoding,
        }
    }

    /// The text indexed.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// A byte offset as a line and a character (an offset past the end
    /// counts as the end, one inside a character as that character).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let character = self.encoding.count(&self.text[self.starts[line]..offset]);
        Position {
            line: line as u32,
            character,
        }
    }

    /// The 0-based line of a byte offset.
    pub fn line(&self, offset: usize) -> u32 {
        (self.starts.partition_point(|&s| s <= offset) - 1) as u32
    }

    /// A byte range as a protocol range.
    pub fn range(&self, r: TextRange) -> Range {
        Range {
            start: self.position(usize::from(r.start())),
            end: self.position(usize::from(r.end())),
        }
    }

    /// A position as a byte offset, clamped to its line and to the text.
    pub fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(p.line as usize + 1)
            .map_or(self.text.len(), |next| next - 1);
        offset_on_line(self.text, start, end, p.character, self.encoding)
    }

    /// A protocol range as a byte range (ends in order).
    pub fn text_range(&self, r: Range) -> TextRange {
        let start = self.offset(r.start);
        let end = self.offset(r.end).max(start);
        TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
    }
}

/// A position as a byte offset without indexing every line: only the
/// lines before it are scanned (for a single position, as in a change).
pub fn offset(text: &str, p: Position, encoding: Encoding) -> usize {
    let mut start = 0;
    for _ in 0..p.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    offset_on_line(text, start, end, p.character, encoding)
}

/// The byte offset of the `character`-th unit of the line
/// `text[start..end]` (the end of the line when past it; the end of a
/// character when inside it).
fn offset_on_line(
    text: &str,
    start: usize,
    end: usize,
    character: u32,
    encoding: Encoding,
) -> usize {
    let mut units = 0u32;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += encoding.units(c);
    }
    end
}

/// Applies one change from `textDocument/didChange`: a range (in the
/// negotiated encoding, against the text as the previous changes left
/// it) replaced by new text, or, without a range, the whole new text.
/// Returns the byte range replaced and the length of the text before, or
/// `None` when the whole text was replaced.
pub fn apply_change(
    text: &mut String,
    change: TextDocumentContentChangeEvent,
    encoding: Encoding,
) -> Option<(usize, usize, usize)> {
    let r = match change.range {
        None => {
            *text = change.text;
            return None;
        }
        Some(r) => r,
    };
    let start = offset(text, r.start, encoding);
    let end = offset(text, r.end, encoding);
    let (start, end) = (start.min(end), start.max(end));
    let len = text.len();
    text.replace_range(start..end, &change.text);
    Some((start, end, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn positions_in_both_encodings() {
        let text = "a = \"é😀\"\nb";
        let utf8 = Lines::new(text, Encoding::Utf8);
        let utf16 = Lines::new(text, Encoding::Utf16);
        assert_eq!(utf8.position(11), pos(0, 11));
        assert_eq!(utf16.position(11), pos(0, 8));
        assert_eq!(utf16.position(13), pos(1, 0));
        // Inside the emoji: its start.
        assert_eq!(utf16.position(9), pos(0, 6));
        for offset in [0, 4, 5, 7, 11, 12, 13, 14] {
            for lines in [&utf8, &utf16] {
                let p = lines.position(offset);
                assert_eq!(lines.offset(p), offset);
                assert_eq!(super::offset(text, p, lines.encoding), offset);
            }
        }
        // Past the end of a line, past the last line.
        assert_eq!(utf16.offset(pos(0, 99)), 12);
        assert_eq!(utf16.offset(pos(7, 0)), 14);
        assert_eq!(super::offset(text, pos(0, 99), Encoding::Utf16), 12);
        assert_eq!(super::offset(text, pos(7, 0), Encoding::Utf16), 14);
    }

    fn change(range: Option<(Position, Position)>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|(start, end)| Range { start, end }),
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn changes_apply_in_order_in_either_encoding() {
        let mut text = String::from("x = \"é😀\"\ny = 1\n");
        // After `😀` (UTF-16 column 7), insert `!`; then replace `1` on
        // the next line; then delete the `é`.
        apply_change(
            &mut text,
            change(Some((pos(0, 7), pos(0, 7))), "!"),
            Encoding::Utf16,
        );
        assert_eq!(text, "x = \"é😀!\"\ny = 1\n");
        apply_change(
            &mut text,
            change(Some((pos(1, 4), pos(1, 5))), "22"),
            Encoding::Utf16,
        );
        assert_eq!(text, "x = \"é😀!\"\ny = 22\n");
        apply_change(
            &mut text,
            change(Some((pos(0, 5), pos(0, 7))), ""),
            Encoding::Utf8,
        );
        assert_eq!(text, "x = \"😀!\"\ny = 22\n");
        // Reversed ends are put in order; a range past the end appends.
        apply_change(
            &mut text,
            change(Some((pos(1, 6), pos(1, 4))), "3"),
            Encoding::Utf8,
        );
        assert_eq!(text, "x = \"😀!\"\ny = 3\n");
        apply_change(
            &mut text,
            change(Some((pos(9, 0), pos(9, 0))), "z = 0\n"),
            Encoding::Utf8,
        );
        assert_eq!(text, "x = \"😀!\"\ny = 3\nz = 0\n");
        apply_change(&mut text, change(None, "w = 1\n"), Encoding::Utf8);
        assert_eq!(text, "w = 1\n");
    }
}
