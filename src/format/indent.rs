//! Step 2: indentation, from a stack of bracket counts.
//!
//! A line that opens more brackets than it closes pushes its net count; a
//! line that closes more pops as many counts as it closed (partially, if
//! it closes fewer than the top count). A line is indented by two spaces
//! per stack entry, taken after popping and before pushing. Brackets are
//! counted over the lead cell up to a heredoc opener, and over the assign
//! cell (which balances by definition), never over a comment, so
//! asymmetric lines such as `}, {` stay where upstream puts them.

use super::lines::Line;
use super::tokens::Tok;

/// The indentation of lines read in order.
pub(crate) struct Indenter {
    /// The net bracket counts of the lines still open.
    stack: Vec<i32>,
}

impl Indenter {
    /// Before the first line.
    pub fn new() -> Indenter {
        Indenter {
            stack: Vec::with_capacity(16),
        }
    }

    /// The indentation (number of spaces before the first token) of
    /// `line`, the line after the ones already passed; 0 for a blank line.
    #[inline]
    pub fn next(&mut self, toks: &[Tok], line: &Line) -> u32 {
        if line.is_blank(toks) {
            return 0;
        }
        let net = line.net();
        if net < 0 {
            self.close(-net);
        }
        let indent = 2 * self.stack.len() as u32;
        if net > 0 {
            self.stack.push(net);
        }
        indent
    }

    /// Pops `closed` brackets' worth of entries from the stack.
    fn close(&mut self, mut closed: i32) {
        let stack = &mut self.stack;
        while closed > 0 {
            let Some(top) = stack.last_mut() else {
                return;
            };
            if closed > *top {
                closed -= *top;
                stack.pop();
            } else if closed < *top {
                *top -= closed;
                return;
            } else {
                stack.pop();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{lines::split_lines, tokens::TokenView};
    use super::*;

    fn indents_of(text: &str) -> Vec<u32> {
        let view = TokenView::new(text);
        let mut indenter = Indenter::new();
        split_lines(&view.toks)
            .iter()
            .map(|line| indenter.next(&view.toks, line))
            .collect()
    }

    #[test]
    fn nested_blocks() {
        assert_eq!(indents_of("a {\nb {\nc = 1\n\n}\n}\n"), [0, 2, 4, 0, 2, 0]);
    }

    #[test]
    fn asymmetric_brackets() {
        // `a = [{` pushes 2; `}, {` is net 0 and stays one level deeper.
        assert_eq!(
            indents_of("a = [{\nx = 1\n}, {\ny = 2\n}]\n"),
            [0, 2, 2, 2, 0]
        );
        // `b = 1 }` closes the block and lands at the outer level.
        assert_eq!(indents_of("a = {\nb = 1 }\nc = 2\n"), [0, 0, 0]);
        // More closers than the stack holds.
        assert_eq!(indents_of("}}\na = 1\n"), [0, 0]);
        // A partial close keeps the entry.
        assert_eq!(indents_of("a = [[[\n]\nb\n]]\n"), [0, 2, 2, 0]);
    }
}
