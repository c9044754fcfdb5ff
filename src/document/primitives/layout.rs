//! Laying out new content: indentation taken from the neighbours, the
//! canonical formatter for everything inside a line, and realignment of
//! the `=` and comment groups the changed lines join — only when the
//! group was aligned before the edit.

use text_size::{TextRange, TextSize};

use crate::document::primitives::lines::{
    line_end, line_indent, line_start, token_right, unit_near,
};
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode, SyntaxToken};

/// The tokens that start in `range`.
fn tokens_in(root: &SyntaxNode, range: TextRange) -> impl Iterator<Item = SyntaxToken> + use<> {
    let end = range.end();
    let first = token_right(root, range.start());
    std::iter::successors(first, |t| t.next_token())
        .take_while(move |t| t.text_range().start() < end)
}

/// True when the line `range` has a token that can join an alignment
/// group (an `=` or a comment).
fn has_cells(root: &SyntaxNode, range: TextRange) -> bool {
    tokens_in(root, range).any(|t| matches!(t.kind(), EQ | COMMENT))
}

/// The lines around `range` that can be in an alignment group with it:
/// extended up and down over lines with an `=` or a comment.
fn window(root: &SyntaxNode, range: TextRange) -> TextRange {
    let mut start = line_start(root, range.start());
    while start > TextSize::from(0) {
        let prev = line_start(root, start - TextSize::from(1));
        if !has_cells(root, TextRange::new(prev, start)) {
            break;
        }
        start = prev;
    }
    let text_end = root.text_range().end();
    let mut end = if range.end() > range.start() {
        line_end(root, range.end() - TextSize::from(1))
    } else {
        line_end(root, range.end())
    };
    while end < text_end {
        let next = line_end(root, end);
        if !has_cells(root, TextRange::new(end, next)) {
            break;
        }
        end = next;
    }
    TextRange::new(start, end)
}

/// A window of text, prefixed with open brackets so that the formatter
/// indents its first line as it is indented in the file. Where the
/// window reaches a cut inside an `=` group whose lines beyond are
/// aligned, a stand-in line for them comes before or after the window's
/// lines (see [`group`](crate::document::partial::group)).
struct Window {
    range: TextRange,
    /// The length of the open brackets.
    open_len: usize,
    /// Where the window's own lines start: after the open brackets and
    /// the stand-in line for the lines before, if any.
    prefix_len: usize,
    /// Where the window's own lines end: the stand-in line for the lines
    /// after, if any, follows.
    body_end: usize,
    text: String,
}

impl Window {
    fn new(root: &SyntaxNode, range: TextRange, beyond: GroupBeyond) -> Window {
        let range = window(root, range);
        let reach = Reach::of(root, range);
        let indent = line_indent(root, range.start());
        let depth = if indent.bytes().all(|b| b == b' ') {
            indent.len() / 2
        } else {
            0
        };
        let mut text = "{\n".repeat(depth);
        let open_len = text.len();
        for t in tokens_in(root, range) {
            text.push_str(t.text());
        }
        let mut prefix_len = open_len;
        let mut body_end = text.len();
        // Stand-ins only in a part cut inside a group (never in a whole
        // file, whose windows may be long).
        let aligned =
            |side: Option<Beyond>, reached: bool| side.filter(|_| reached).and_then(|b| b.aligned);
        let (before, after) = (
            aligned(beyond.start, reach.start),
            aligned(beyond.end, reach.end),
        );
        if before.is_some() || after.is_some() {
            let newline = if text[open_len..].contains("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            if let Some(lines) = after {
                text.push_str(&lines.stand_in(newline));
            }
            if let Some(lines) = before {
                let line = lines.stand_in(newline);
                text.insert_str(open_len, &line);
                prefix_len += line.len();
                body_end += line.len();
            }
        }
        Window {
            range,
            open_len,
            prefix_len,
            body_end,
            text,
        }
    }

    /// Which stand-in line, if any, holds the window-text position `pos`.
    fn stand_in_at(&self, pos: usize) -> Reach {
        Reach {
            start: (self.open_len..self.prefix_len).contains(&pos),
            end: pos >= self.body_end,
        }
    }

    /// Converts a document range inside the window to window-text
    /// coordinates.
    fn local(&self, range: TextRange) -> TextRange {
        let shift = TextSize::from(self.prefix_len as u32);
        let start = range.start().max(self.range.start()).min(self.range.end());
        let end = range.end().max(self.range.start()).min(self.range.end());
        TextRange::new(
            start - self.range.start() + shift,
            end - self.range.start() + shift,
        )
    }

    /// Converts a window-text range back to document coordinates.
    fn global(&self, range: TextRange) -> TextRange {
        let shift = TextSize::from(self.prefix_len as u32);
        TextRange::new(
            range.start() - shift + self.range.start(),
            range.end() - shift + self.range.start(),
        )
    }

    /// True when the window-text position starts a line.
    fn at_line_start(&self, pos: usize) -> bool {
        pos == self.open_len
            || pos == self.prefix_len
            || self.text.as_bytes().get(pos.wrapping_sub(1)) == Some(&b'\n')
    }

    /// The kind of cell the token after `pos` starts (an `=` or a
    /// comment), if any: the space before it is an alignment space.
    fn cell_at(&self, pos: usize) -> Option<Cell> {
        let rest = &self.text[pos..];
        if rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>") {
            Some(Cell::Equals)
        } else if rest.starts_with('#') || rest.starts_with("//") || rest.starts_with("/*") {
            Some(Cell::Comment)
        } else {
            None
        }
    }
}

/// The two kinds of alignment group: the `=` of attributes and object
/// items, and the comments that end lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Equals,
    Comment,
}

/// Whether each kind of alignment group around an edit was laid out as
/// the formatter aligns it. The two are judged apart: a group of aligned
/// `=` stays aligned next to a comment the user placed by hand, and a
/// comment placed by hand is not moved when the `=` are realigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Aligned {
    equals: bool,
    comments: bool,
}

impl Aligned {
    fn of(self, cell: Cell) -> bool {
        match cell {
            Cell::Equals => self.equals,
            Cell::Comment => self.comments,
        }
    }
}

/// Where an edit changed the text: the range in the old text and the
/// range of the new text, with what may be laid out.
#[derive(Clone, Debug)]
pub(crate) struct Touched {
    /// The replaced range, in the old text.
    pub old: TextRange,
    /// The new text's range, in the new text.
    pub new: TextRange,
    /// Starts of lines (in the new text) to indent as the formatter
    /// does, in the file's unit.
    pub reindent: Vec<TextSize>,
    /// Whether the spacing inside the new text is laid out (new content)
    /// or kept as given (a name replaced verbatim, as renames do).
    pub respace: bool,
}

/// What lies beyond the start and the end of a part of a file cut
/// inside `=` groups (nothing for a side cut elsewhere, or for a whole
/// file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupBeyond {
    /// The group's lines before the part.
    pub start: Option<Beyond>,
    /// The group's lines after the part.
    pub end: Option<Beyond>,
}

/// What lies beyond a cut inside an `=` group, when it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Beyond {
    /// The formatter would move the `=` of at least one line beyond the
    /// cut: the group is not aligned.
    pub misaligned: bool,
    /// When the group has lines beyond the cut and their `=` are all at
    /// one column: that column and their widest name.
    pub aligned: Option<AlignedLines>,
}

/// Lines of a group whose `=` are all at one column, summed up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AlignedLines {
    /// The widest name, in grapheme clusters (as the formatter counts).
    pub widest: usize,
    /// Grapheme clusters before each `=`: name and spaces.
    pub column: usize,
}

impl AlignedLines {
    /// A line that the formatter aligns as it aligns these lines: a name
    /// as wide as the widest, spaces up to the column, ending with
    /// `newline`.
    pub fn stand_in(self, newline: &str) -> String {
        let mut line = "a".repeat(self.widest);
        line.push_str(&" ".repeat(self.column - self.widest));
        line.push_str("= 0");
        line.push_str(newline);
        line
    }
}

/// Whether the lines a layout looked at reached the start or the end of
/// the text (where a part of a file is cut from the rest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reach {
    /// The first line of the text was looked at.
    pub start: bool,
    /// The last line of the text was looked at.
    pub end: bool,
}

impl Reach {
    fn of(root: &SyntaxNode, range: TextRange) -> Reach {
        Reach {
            start: range.start() == root.text_range().start(),
            end: range.end() == root.text_range().end(),
        }
    }
}

/// The whitespace changes that lay out the new content of `touched`
/// (spacing inside its lines, never indentation) and realign the `=` and
/// comment groups it joins, if they were aligned in `old_root`. Ranges
/// are in the coordinates of `new_root`. Also says whether the lines
/// looked at reached the start or the end of the text.
///
/// `beyond` tells what lies beyond the start and the end of the text
/// when it is a part of a file cut inside `=` groups (see
/// [`group`](crate::document::partial::group)). Where the lines looked at reach such a cut:
/// lines beyond that are not aligned make the `=` taken as not aligned;
/// lines beyond that are aligned are laid out as one stand-in line of
/// their widest name and their column. The last value says, for each
/// side, whether the lines beyond it stay as they are (else the edit
/// must run on the whole file).
pub(crate) fn relayout(
    old_root: &SyntaxNode,
    new_root: &SyntaxNode,
    touched: Touched,
    beyond: GroupBeyond,
) -> (Vec<(TextRange, String)>, Reach, Reach) {
    let (mut aligned, old_reach) = was_aligned(old_root, touched.old, beyond);
    let misaligned = |side: Option<Beyond>| side.is_some_and(|b| b.misaligned);
    if old_reach.start && misaligned(beyond.start) || old_reach.end && misaligned(beyond.end) {
        aligned.equals = false;
    }
    // The line to indent is in the window.
    let lines = touched.reindent.iter().fold(touched.new, |range, at| {
        range.cover(TextRange::new(*at, line_end(new_root, *at)))
    });
    let window = Window::new(new_root, lines, beyond);
    let new_reach = Reach::of(new_root, window.range);
    let reach = Reach {
        start: old_reach.start || new_reach.start,
        end: old_reach.end || new_reach.end,
    };
    let inside = window.local(touched.new);
    // Every line of the window is selected, so that the groups the
    // change joins or leaves are realigned; only alignment spaces and the
    // spacing inside the new text are kept.
    let all = TextRange::new(
        TextSize::from(window.prefix_len as u32),
        TextSize::from(window.body_end as u32),
    );
    let edits = crate::format::format_range_edits(&window.text, all);
    // The stand-in lines whose `=` the layout moves: every line they
    // stand for would move too. (The part's own line at that cut would
    // move as well, which the part's check of its first and last lines
    // also refuses; this says it where the reason is.)
    let mut moved = Reach::default();
    for edit in &edits {
        if window.cell_at(usize::from(edit.range.end())) == Some(Cell::Equals) {
            let side = window.stand_in_at(usize::from(edit.range.start()));
            moved.start |= side.start;
            moved.end |= side.end;
        }
    }
    // The lines beyond a side stay when no `=` moves, when the window
    // does not reach them, or when it sees them (as a stand-in) unmoved.
    let stays = |side: Option<Beyond>, reached: bool, moved: bool| {
        !aligned.equals
            || !reached
            || side.is_none_or(|b| !b.misaligned && (b.aligned.is_none() || !moved))
    };
    let kept = Reach {
        start: stays(beyond.start, new_reach.start, moved.start),
        end: stays(beyond.end, new_reach.end, moved.end),
    };
    let mut out = Vec::new();
    let reindent: Vec<TextSize> = touched
        .reindent
        .iter()
        .copied()
        .filter(|at| window.range.contains_inclusive(*at))
        .collect();
    // Indentation is relative to the window's first line with content,
    // whose indentation stays.
    let indent_at = |local: usize| -> (usize, usize) {
        let current = window.text[local..]
            .bytes()
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
        let canonical = edits
            .iter()
            .find(|e| usize::from(e.range.start()) == local)
            .map_or(current, |e| e.new_text.len());
        (current, canonical)
    };
    let reference = (window.prefix_len..window.body_end)
        .filter(|&p| window.at_line_start(p))
        .find(|&p| {
            let rest = window.text[p..].trim_start_matches([' ', '\t']);
            !rest.is_empty() && !rest.starts_with(['\n', '\r'])
        });
    for &at in &reindent {
        // Never inside a heredoc.
        if token_right(new_root, at).is_some_and(|t| t.kind() == TEMPLATE_LITERAL) {
            continue;
        }
        let Some(reference) = reference else {
            continue;
        };
        let local = usize::from(window.local(TextRange::empty(at)).start());
        let (current, canonical) = indent_at(local);
        let (ref_current, ref_canonical) = indent_at(reference);
        let unit = token_right(new_root, at)
            .and_then(|t| t.parent())
            .map_or_else(|| "  ".to_string(), |n| unit_near(new_root, &n));
        let mut indent = window.text[reference..reference + ref_current].to_string();
        let (level, ref_level) = (canonical / 2, ref_canonical / 2);
        if level >= ref_level {
            indent.push_str(&unit.repeat(level - ref_level));
        } else {
            for _ in level..ref_level {
                match indent.strip_suffix(unit.as_str()) {
                    Some(shorter) => indent.truncate(shorter.len()),
                    None => indent.clear(),
                }
            }
        }
        if window.text[local..local + current] != indent {
            out.push((TextRange::at(at, TextSize::from(current as u32)), indent));
        }
    }
    for edit in edits {
        let start = usize::from(edit.range.start());
        if reindent
            .iter()
            .any(|at| window.local(TextRange::empty(*at)).start() == edit.range.start())
        {
            continue;
        }
        if start < window.prefix_len || start >= window.body_end || window.at_line_start(start) {
            continue;
        }
        let end = usize::from(edit.range.end());
        let keep = match window.cell_at(end) {
            Some(cell) => aligned.of(cell),
            None => touched.respace && inside.contains_range(edit.range),
        };
        if keep {
            out.push((window.global(edit.range), edit.new_text));
        }
    }
    (out, reach, kept)
}

/// Whether the `=` groups and the comment groups around `range` of the
/// old text were laid out as the formatter would align them. The `=` of
/// a line whose name `range` replaces is not judged (the name is what
/// changes); the `=` of a line whose value alone changes is, and so are
/// the comments of every line, so that spacing placed by hand around an
/// edited value stays as it was.
fn was_aligned(root: &SyntaxNode, range: TextRange, beyond: GroupBeyond) -> (Aligned, Reach) {
    let window = Window::new(root, range, beyond);
    let reach = Reach::of(root, window.range);
    let replaced = window.local(range);
    let all = TextRange::new(
        TextSize::from(window.prefix_len as u32),
        TextSize::from(window.body_end as u32),
    );
    let edits = crate::format::format_range_edits(&window.text, all);
    // The lines the replaced range covers.
    let covered = |pos: usize| -> bool {
        if replaced.is_empty() {
            return false;
        }
        let line_from = window.text[..pos].rfind('\n').map_or(0, |i| i + 1);
        let line_to = window.text[pos..]
            .find('\n')
            .map_or(window.text.len(), |i| pos + i + 1);
        let line = TextRange::new(
            TextSize::from(line_from as u32),
            TextSize::from(line_to as u32),
        );
        line.intersect(replaced).is_some_and(|r| !r.is_empty())
    };
    let misaligned = |kind: Cell| {
        edits.iter().any(|e| {
            let end = usize::from(e.range.end());
            let start = usize::from(e.range.start());
            // The stand-in lines count: they are lines of the group.
            start >= window.open_len
                && !window.at_line_start(start)
                && window.cell_at(end) == Some(kind)
                && !(kind == Cell::Equals
                    && covered(start)
                    && usize::from(replaced.start()) <= start)
        })
    };
    let aligned = Aligned {
        equals: !misaligned(Cell::Equals),
        comments: !misaligned(Cell::Comment),
    };
    (aligned, reach)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: u32, b: u32) -> TextRange {
        TextRange::new(a.into(), b.into())
    }

    /// A line of `len` bytes inserted at `at`, laid out.
    fn inserted(at: u32, len: u32) -> Touched {
        Touched {
            old: r(at, at),
            new: r(at, at + len),
            reindent: Vec::new(),
            respace: true,
        }
    }

    /// Lines of the group before the part, aligned at `column` with a
    /// widest name `widest` wide.
    fn aligned_before(widest: usize, column: usize) -> GroupBeyond {
        GroupBeyond {
            start: Some(Beyond {
                misaligned: false,
                aligned: Some(AlignedLines { widest, column }),
            }),
            end: None,
        }
    }

    #[test]
    fn a_stand_in_tells_whether_the_lines_beyond_move() {
        // The part's group goes on before it: lines whose widest name
        // has one character, aligned at column 2 (`x = 0`).
        let beyond = aligned_before(1, 2);
        let old = crate::parse("a = 1\nb = 2\n").syntax();
        // A short name: nothing moves, beyond or here.
        let new = crate::parse("a = 1\nc = 3\nb = 2\n").syntax();
        let (edits, reach, kept) = relayout(&old, &new, inserted(6, 6), beyond);
        assert!(edits.is_empty(), "{edits:?}");
        assert!(reach.start && kept.start);
        // A longer name moves every `=`, the ones beyond too.
        let new = crate::parse("a = 1\nlonger = 3\nb = 2\n").syntax();
        let (edits, reach, kept) = relayout(&old, &new, inserted(6, 11), beyond);
        assert_eq!(edits.len(), 2);
        assert!(reach.start && !kept.start);
        // Lines beyond aligned wider than the longer name: it joins them.
        let old = crate::parse("a        = 1\nb        = 2\n").syntax();
        let new = crate::parse("a        = 1\nlonger = 3\nb        = 2\n").syntax();
        let (edits, _, kept) = relayout(&old, &new, inserted(13, 11), aligned_before(8, 9));
        assert_eq!(edits, [(r(19, 20), "   ".to_string())]);
        assert!(kept.start);
    }

    #[test]
    fn realigns_only_aligned_groups() {
        // Aligned before: the new, longer line realigns its neighbours.
        let old = crate::parse("a = 1\nb = 2\n").syntax();
        let new = crate::parse("a = 1\nlonger = 3\nb = 2\n").syntax();
        let (edits, reach, _) = relayout(&old, &new, inserted(6, 11), GroupBeyond::default());
        assert_eq!(edits.len(), 2);
        assert_eq!(
            reach,
            Reach {
                start: true,
                end: true
            }
        );
        // Not aligned before: nothing else moves.
        let old = crate::parse("a  = 1\nb = 2\n").syntax();
        let new = crate::parse("a  = 1\nlonger = 3\nb = 2\n").syntax();
        let (edits, _, _) = relayout(&old, &new, inserted(7, 11), GroupBeyond::default());
        assert!(edits.is_empty());
    }
}
