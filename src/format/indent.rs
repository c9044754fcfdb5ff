//! Step 2: indentation, from a stack of bracket counts.
//!
//! A line that opens more brackets than it closes pushes its net count; a
//! line that closes more pops as many counts as it closed (partially, if
//! it closes fewer than the top count). A line is indented by two spaces
//! per stack entry, taken after popping and before pushing. Brackets are
//! counted over the lead cell up to a heredoc opener, and over the assign
//! cell (which balances by definition), never over a comment, so
//! asymmetric lines such as `}, {` stay where upstream puts them.

use super::lines::{Line, net_brackets};
use super::tokens::Tok;

/// The indentation (number of spaces before the first token) of every
/// line; 0 for blank lines.
pub(crate) fn indents(toks: &[Tok], lines: &[Line]) -> Vec<u32> {
    let mut stack: Vec<i32> = Vec::with_capacity(16);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.is_blank(toks) {
            out.push(0);
            continue;
        }
        // An assign cell is balanced by definition, so only the lead counts
        // (up to a heredoc opener).
        let net = net_brackets(&toks[line.lead()]);
        if net < 0 {
            close(&mut stack, -net);
        }
        out.push(2 * stack.len() as u32);
        if net > 0 {
            stack.push(net);
        }
    }
    out
}

/// Pops `closed` brackets' worth of entries from the stack.
fn close(stack: &mut Vec<i32>, mut closed: i32) {
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

#[cfg(test)]
mod tests {
    use super::super::{lines::split_lines, tokens::TokenView};
    use super::*;

    fn indents_of(text: &str) -> Vec<u32> {
        let view = TokenView::new(text);
        indents(&view.toks, &split_lines(&view.toks))
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
