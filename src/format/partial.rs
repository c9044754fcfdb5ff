//! Formatting part of a text: a byte range or a syntax node.

use text_size::{TextRange, TextSize};

use super::layout::Layout;
use crate::diff::TextEdit;
use crate::syntax_kind::SyntaxNode;

/// Formats the lines that `range` touches and returns the whole text.
///
/// Every line that the range touches is laid out canonically, as a whole
/// (indentation from the brackets of all lines above, spacing inside the
/// line). An empty range selects the line it is on. Outside those lines
/// the only change is the alignment of the runs they belong to: the space
/// before the `=` of each line of an affected run of `name = value` lines,
/// and the space before the trailing comment of each line of an affected
/// run of commented lines. Lines outside the range keep their own
/// indentation and spacing, so this works on a file that is not otherwise
/// canonical; on a file that is, the result equals [`format`](super::format)
/// of the edited file. The whitespace at the very end of the text is
/// rewritten only when the range reaches the end of the text; a byte order
/// mark is dropped only when the first line is selected (upstream counts it
/// as indentation).
///
/// A range past the end of the text is clamped to it.
///
/// ```
/// use hclwright::TextRange;
/// use hclwright::format::format_range;
/// let text = "a  =  1\nlong_name=2\nc =   3\n";
/// // Select the second line only: it is laid out, and the `=` of its
/// // alignment run follow it; the spacing after `=` on the other lines
/// // is theirs.
/// let range = TextRange::new(8.into(), 20.into());
/// assert_eq!(format_range(text, range), "a         =  1\nlong_name = 2\nc         =   3\n");
/// ```
pub fn format_range(text: &str, range: TextRange) -> String {
    let mut layout = Layout::new(text);
    select_range(&mut layout, text, range);
    layout.render()
}

/// Like [`format_range`], but returns the changes as sorted,
/// non-overlapping edits, each replacing one run of whitespace (empty when
/// nothing changes).
///
/// ```
/// use hclwright::TextRange;
/// use hclwright::diff::apply_edits;
/// use hclwright::format::format_range_edits;
/// let text = "a {\nb=1\n}\n";
/// let edits = format_range_edits(text, TextRange::new(4.into(), 8.into()));
/// assert_eq!(edits.len(), 3); // indentation, before `=`, after `=`
/// assert_eq!(apply_edits(text, &edits).unwrap(), "a {\n  b = 1\n}\n");
/// ```
pub fn format_range_edits(text: &str, range: TextRange) -> Vec<TextEdit> {
    let mut layout = Layout::new(text);
    select_range(&mut layout, text, range);
    layout.edits()
}

/// Formats the lines of `node` within the text of its whole tree, and
/// returns the changes as edits in the coordinates of the root (see
/// [`format_range`] for what may change outside the node: the alignment of
/// the runs its lines belong to).
///
/// Use it after inserting or replacing a node, to lay the new content out
/// canonically without touching the rest of the file.
///
/// ```
/// use hclwright::ast::AstNode;
/// use hclwright::diff::apply_edits;
/// use hclwright::format::format_node;
/// let text = "x {\n  a = 1\nlonger=[1,2]\n}\n";
/// let parse = hclwright::parse(text);
/// let block = parse.body().unwrap().blocks().next().unwrap();
/// let attr = block.body().unwrap().attribute("longer").unwrap();
/// let edits = format_node(attr.syntax());
/// assert_eq!(apply_edits(text, &edits).unwrap(), "x {\n  a      = 1\n  longer = [1, 2]\n}\n");
/// ```
pub fn format_node(node: &SyntaxNode) -> Vec<TextEdit> {
    let root = node.ancestors().last().unwrap_or_else(|| node.clone());
    let text = root.to_string();
    format_range_edits(&text, node.text_range())
}

/// Selects the lines `range` touches (and the end of the text when the
/// range reaches it) and lays them out.
fn select_range(layout: &mut Layout<'_>, text: &str, range: TextRange) {
    let len = TextSize::of(text);
    let start = u32::from(range.start().min(len));
    let end = u32::from(range.end().min(len));
    let spans: Vec<(u32, u32)> = (0..layout.lines().len())
        .map(|i| layout.line_range(i))
        .collect();
    let touches = |(from, to): (u32, u32)| {
        if start == end {
            // A cursor at the end of a line without a newline is on it.
            let open_end = start == to && !text[..to as usize].ends_with('\n');
            from <= start && (start < to || open_end)
        } else {
            from < end && start < to
        }
    };
    let selected: Vec<bool> = spans.iter().map(|&span| touches(span)).collect();
    layout.format_lines(&|i| selected[i]);
    if end == u32::from(len) {
        layout.format_eof();
    }
}
