//! The record of what the edits replaced: the current text as a sequence
//! of pieces of the original text and inserted strings.
//!
//! Every edit is a replacement in the coordinates of the current text;
//! the tracker keeps the pieces so that the changes against the original
//! text ([`Tracker::text_edits`]) and the current text ([`Tracker::render`])
//! come without diffing.

use std::sync::Arc;

use text_size::{TextRange, TextSize};

use crate::diff::TextEdit;

/// A piece of the current text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// A byte range of the original text.
    Original(usize, usize),
    /// Text inserted by an edit.
    Inserted(String),
}

impl Piece {
    fn len(&self) -> usize {
        match self {
            Piece::Original(a, b) => b - a,
            Piece::Inserted(s) => s.len(),
        }
    }
}

/// Pieces in a chunk, at most: a replacement rebuilds the chunks it
/// touches, so that many edits of a large file each cost little.
const CHUNK: usize = 64;

/// Consecutive pieces and their total length.
#[derive(Clone, Debug)]
struct Chunk {
    pieces: Vec<Piece>,
    len: usize,
}

/// The original text and the pieces of the current one.
#[derive(Clone, Debug)]
pub(crate) struct Tracker {
    original: Arc<str>,
    chunks: Vec<Chunk>,
    len: usize,
}

impl Tracker {
    /// A tracker with no edits yet.
    pub fn new(original: impl Into<Arc<str>>) -> Tracker {
        let original: Arc<str> = original.into();
        let len = original.len();
        let chunks = if len == 0 {
            Vec::new()
        } else {
            vec![Chunk {
                pieces: vec![Piece::Original(0, len)],
                len,
            }]
        };
        Tracker {
            original,
            chunks,
            len,
        }
    }

    /// The text the document was parsed from.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// The text the document was parsed from, shared.
    pub fn original_text(&self) -> Arc<str> {
        Arc::clone(&self.original)
    }

    /// Replaces `range` of the current text by `text`.
    pub fn replace(&mut self, range: TextRange, text: &str) {
        let start = usize::from(range.start());
        let end = usize::from(range.end());
        // The chunks the range touches (both, at a boundary).
        let mut pos = 0usize;
        let mut touched: Option<(usize, usize, usize)> = None;
        for (i, chunk) in self.chunks.iter().enumerate() {
            let (c_start, c_end) = (pos, pos + chunk.len);
            if c_start > end {
                break;
            }
            if c_end >= start {
                touched = Some(match touched {
                    None => (i, i + 1, c_start),
                    Some((a, _, at)) => (a, i + 1, at),
                });
            }
            pos = c_end;
        }
        let (a, b, at) = touched.unwrap_or((self.chunks.len(), self.chunks.len(), pos));
        let pieces: Vec<Piece> = self.chunks[a..b]
            .iter_mut()
            .flat_map(|c| c.pieces.drain(..))
            .collect();
        let pieces = replace_in(pieces, start - at, end - at, text);
        let chunks: Vec<Chunk> = pieces
            .chunks(CHUNK)
            .map(|p| Chunk {
                len: p.iter().map(Piece::len).sum(),
                pieces: p.to_vec(),
            })
            .collect();
        self.chunks.splice(a..b, chunks);
        self.len = self.len - (end - start) + text.len();
    }

    /// Replaces several ranges: `reps` in order, not overlapping, each in
    /// the coordinates of the current text (as if the others were not
    /// made). Many replacements are made in one pass over the pieces,
    /// where each of [`replace`](Self::replace) passes over the chunks.
    pub fn replace_many(&mut self, reps: &[(TextRange, &str)]) {
        debug_assert!(reps.windows(2).all(|w| w[0].0.end() <= w[1].0.start()));
        if reps.len() <= FEW {
            for (range, text) in reps.iter().rev() {
                self.replace(*range, text);
            }
            return;
        }
        let old: Vec<Piece> = std::mem::take(&mut self.chunks)
            .into_iter()
            .flat_map(|c| c.pieces)
            .collect();
        let mut out = Vec::with_capacity(old.len() + 2 * reps.len());
        let mut at = PieceCursor::default();
        for (range, text) in reps {
            at.copy(&old, usize::from(range.start()), Some(&mut out));
            at.copy(&old, usize::from(range.end()), None);
            if !text.is_empty() {
                out.push(Piece::Inserted(text.to_string()));
            }
        }
        at.copy(&old, self.len, Some(&mut out));
        let pieces = merge(out);
        self.len = pieces.iter().map(Piece::len).sum();
        self.chunks = pieces
            .chunks(CHUNK)
            .map(|p| Chunk {
                len: p.iter().map(Piece::len).sum(),
                pieces: p.to_vec(),
            })
            .collect();
    }

    /// The pieces in order.
    fn pieces(&self) -> impl Iterator<Item = &Piece> {
        self.chunks.iter().flat_map(|c| c.pieces.iter())
    }

    /// The current text, in one allocation of its size.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.len);
        for piece in self.pieces() {
            match piece {
                Piece::Original(a, b) => out.push_str(&self.original[*a..*b]),
                Piece::Inserted(s) => out.push_str(s),
            }
        }
        out
    }

    /// Writes the current text to `f`.
    pub fn write_to(&self, f: &mut dyn std::fmt::Write) -> std::fmt::Result {
        for piece in self.pieces() {
            match piece {
                Piece::Original(a, b) => f.write_str(&self.original[*a..*b])?,
                Piece::Inserted(s) => f.write_str(s)?,
            }
        }
        Ok(())
    }

    /// The changes against the original text: sorted, non-overlapping,
    /// each trimmed to the characters that differ.
    pub fn text_edits(&self) -> Vec<TextEdit> {
        let mut edits = Vec::new();
        let mut orig_pos = 0usize;
        let mut pending = String::new();
        let flush = |from: usize, to: usize, new: &mut String, edits: &mut Vec<TextEdit>| {
            if (from != to || !new.is_empty())
                && let Some(edit) = minimal(&self.original, from, to, new)
            {
                edits.push(edit);
            }
            new.clear();
        };
        for piece in self.pieces() {
            match piece {
                Piece::Inserted(s) => pending.push_str(s),
                Piece::Original(a, b) => {
                    flush(orig_pos, *a, &mut pending, &mut edits);
                    orig_pos = *b;
                }
            }
        }
        flush(orig_pos, self.original.len(), &mut pending, &mut edits);
        edits
    }
}

/// Up to this many replacements are made one at a time by
/// [`Tracker::replace_many`].
const FEW: usize = 8;

/// A position in a sequence of pieces, moving forward.
#[derive(Default)]
struct PieceCursor {
    /// The piece it is in, and how far into it.
    index: usize,
    offset: usize,
    /// Its position in the text.
    pos: usize,
}

impl PieceCursor {
    /// Moves to the text position `to`, copying what it passes into
    /// `out`, if given.
    fn copy(&mut self, pieces: &[Piece], to: usize, mut out: Option<&mut Vec<Piece>>) {
        while self.pos < to {
            let piece = &pieces[self.index];
            let take = (piece.len() - self.offset).min(to - self.pos);
            if let Some(out) = out.as_deref_mut() {
                out.push(sub(piece, self.offset, self.offset + take));
            }
            self.pos += take;
            self.offset += take;
            if self.offset == piece.len() {
                self.index += 1;
                self.offset = 0;
            }
        }
    }
}

/// `pieces` (of a text starting at 0) with `start..end` replaced by
/// `text`.
fn replace_in(pieces: Vec<Piece>, start: usize, end: usize, text: &str) -> Vec<Piece> {
    let mut out = Vec::with_capacity(pieces.len() + 2);
    let mut pos = 0usize;
    let mut inserted = false;
    for piece in pieces {
        let len = piece.len();
        let (p_start, p_end) = (pos, pos + len);
        pos = p_end;
        // The part of the piece before the replaced range.
        if p_start < start {
            let keep = start.min(p_end) - p_start;
            out.push(sub(&piece, 0, keep));
        }
        if !inserted && p_end >= start && start >= p_start && (p_end > start || end == start) {
            if !text.is_empty() {
                out.push(Piece::Inserted(text.to_string()));
            }
            inserted = true;
        }
        // The part after the replaced range.
        if p_end > end {
            let from = end.max(p_start) - p_start;
            out.push(sub(&piece, from, len));
        }
    }
    if !inserted && !text.is_empty() {
        out.push(Piece::Inserted(text.to_string()));
    }
    merge(out)
}

/// The part `from..to` (relative) of a piece.
fn sub(piece: &Piece, from: usize, to: usize) -> Piece {
    match piece {
        Piece::Original(a, _) => Piece::Original(a + from, a + to),
        Piece::Inserted(s) => Piece::Inserted(s[from..to].to_string()),
    }
}

/// Joins adjacent pieces that continue each other and drops empty ones.
fn merge(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        if piece.len() == 0 {
            continue;
        }
        match (out.last_mut(), &piece) {
            (Some(Piece::Original(_, b)), Piece::Original(c, d)) if *b == *c => *b = *d,
            (Some(Piece::Inserted(s)), Piece::Inserted(t)) => s.push_str(t),
            _ => out.push(piece),
        }
    }
    out
}

/// The edit replacing `original[from..to]` by `new`, without the common
/// prefix and suffix; `None` when they are equal.
fn minimal(original: &str, from: usize, to: usize, new: &str) -> Option<TextEdit> {
    let old = &original[from..to];
    if old == new {
        return None;
    }
    let mut prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
    let mut suffix = old_rest
        .bytes()
        .rev()
        .zip(new_rest.bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !old_rest.is_char_boundary(old_rest.len() - suffix)
        || !new_rest.is_char_boundary(new_rest.len() - suffix)
    {
        suffix -= 1;
    }
    let start = from + prefix;
    let end = to - suffix;
    let range = TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32));
    Some(TextEdit::replace(
        range,
        &new_rest[..new_rest.len() - suffix],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::apply_edits;

    fn r(a: u32, b: u32) -> TextRange {
        TextRange::new(a.into(), b.into())
    }

    #[test]
    fn replacements_compose() {
        let mut t = Tracker::new("a = 1\nb = 2\n".to_string());
        t.replace(r(4, 5), "10");
        assert_eq!(t.render(), "a = 10\nb = 2\n");
        t.replace(r(0, 0), "# top\n");
        assert_eq!(t.render(), "# top\na = 10\nb = 2\n");
        t.replace(r(13, 19), "");
        assert_eq!(t.render(), "# top\na = 10\n");
        t.replace(r(13, 13), "c = 3\n");
        assert_eq!(t.render(), "# top\na = 10\nc = 3\n");
        let edits = t.text_edits();
        assert_eq!(apply_edits(t.original(), &edits).unwrap(), t.render());
        assert_eq!(t.len, t.render().len());
    }

    #[test]
    fn edits_are_trimmed_to_the_difference() {
        let mut t = Tracker::new("v = \"~> 4.0\"\n".to_string());
        t.replace(r(4, 12), "\"~> 5.0\"");
        let edits = t.text_edits();
        assert_eq!(edits, [TextEdit::replace(r(8, 9), "5")]);
        // Putting the original back leaves no edit.
        t.replace(r(4, 12), "\"~> 4.0\"");
        assert!(t.text_edits().is_empty());
    }

    #[test]
    fn trimming_respects_char_boundaries() {
        let mut t = Tracker::new("é".to_string());
        t.replace(r(0, 2), "è");
        let edits = t.text_edits();
        assert_eq!(apply_edits("é", &edits).unwrap(), "è");
        assert_eq!(edits[0].range, r(0, 2));
    }

    #[test]
    fn many_edits_across_chunks() {
        let original: String = (0..500).map(|i| format!("line {i}\n")).collect();
        let mut t = Tracker::new(original.clone());
        let mut model = original.clone();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for k in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = model.len();
            let start = (seed % (len as u64 + 1)) as usize;
            let end = (start + (seed >> 32) as usize % 4).min(len);
            let text = ["", "x", "yz\n", "w"][k % 4];
            t.replace(r(start as u32, end as u32), text);
            model.replace_range(start..end, text);
        }
        assert_eq!(t.render(), model);
        assert_eq!(t.len, model.len());
        assert!(t.chunks.len() > 1, "the pieces fill several chunks");
        assert_eq!(apply_edits(&original, &t.text_edits()).unwrap(), model);
    }

    #[test]
    fn many_replacements_at_once_are_one_after_the_other() {
        let original: String = (0..300).map(|i| format!("line {i}\n")).collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            // Some edits first, so that there are pieces of all kinds.
            let mut one_by_one = Tracker::new(original.clone());
            for k in 0..(round % 40) {
                let len = one_by_one.len;
                let start = (next() % (len as u64 + 1)) as usize;
                let end = (start + (next() % 5) as usize).min(len);
                one_by_one.replace(r(start as u32, end as u32), ["", "ab", "c\n"][k % 3]);
            }
            let mut at_once = one_by_one.clone();
            // Sorted, not overlapping; empty ones and ones that touch.
            let mut reps = Vec::new();
            let mut pos = 0usize;
            while reps.len() < (round % 30) {
                pos += (next() % 40) as usize;
                let end = pos + (next() % 6) as usize;
                if end > one_by_one.len {
                    break;
                }
                reps.push((
                    r(pos as u32, end as u32),
                    ["", " ", "xyz", "\n\n"][reps.len() % 4],
                ));
                pos = end;
            }
            for (range, text) in reps.iter().rev() {
                one_by_one.replace(*range, text);
            }
            at_once.replace_many(&reps);
            assert_eq!(at_once.render(), one_by_one.render(), "round {round}");
            assert_eq!(at_once.len, one_by_one.len);
            assert_eq!(
                at_once.text_edits(),
                one_by_one.text_edits(),
                "round {round}"
            );
        }
    }

    #[test]
    fn empty_original() {
        let mut t = Tracker::new(String::new());
        t.replace(r(0, 0), "a = 1\n");
        assert_eq!(t.render(), "a = 1\n");
        assert_eq!(t.text_edits(), [TextEdit::insert(0.into(), "a = 1\n")]);
    }
}
