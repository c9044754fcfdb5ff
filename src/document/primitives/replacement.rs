//! One change of a document's text, as every edit states it.

use text_size::TextRange;

/// One replacement of the current text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Replacement {
    pub range: TextRange,
    pub text: String,
    /// The lines that start after these newlines of `text` (counted
    /// from 1; 0 is the line the text starts on, from its start) are
    /// indented by the layout as the formatter indents them (lines moved
    /// down to make room for a heredoc).
    pub reindent_lines: Vec<usize>,
}

impl Replacement {
    pub fn new(range: TextRange, text: impl Into<String>) -> Replacement {
        Replacement {
            range,
            text: text.into(),
            reindent_lines: Vec::new(),
        }
    }
}
