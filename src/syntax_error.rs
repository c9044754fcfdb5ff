//! Syntax errors with byte ranges, lines and columns, and their rendering
//! for humans (`file:line:col: message`, the source line and a caret).

use std::fmt;

use text_size::{TextRange, TextSize};

/// A problem found while parsing: where it is and what is wrong.
///
/// Messages name what was expected and what was found, e.g. "expected `=`
/// or `{` after `foo`, found `:`".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    /// Byte range of the offending text (empty when something is missing).
    pub range: TextRange,
    /// What is wrong.
    pub message: String,
    /// 1-based line of `range.start()`.
    pub line: u32,
    /// 1-based column of `range.start()`, counted in characters (a tab is
    /// one column).
    pub column: u32,
}

impl SyntaxError {
    /// A new error; line and column are filled in by the parser.
    pub(crate) fn new(range: TextRange, message: String) -> SyntaxError {
        SyntaxError {
            range,
            message,
            line: 0,
            column: 0,
        }
    }

    /// Fills in line and column of errors sorted by position, in one pass
    /// over the text (linear even for many errors on one long line).
    pub(crate) fn fill_positions(errors: &mut [SyntaxError], text: &str) {
        let bytes = text.as_bytes();
        let mut line = 1u32;
        let mut column = 1u32;
        let mut scanned = 0usize;
        for e in errors.iter_mut() {
            let offset = usize::from(e.range.start()).min(text.len());
            if offset < scanned {
                let (l, c) = line_col(text, e.range.start());
                e.line = l;
                e.column = c;
                continue;
            }
            for &b in &bytes[scanned..offset] {
                if b == b'\n' {
                    line += 1;
                    column = 1;
                } else if b & 0xC0 != 0x80 {
                    column += 1;
                }
            }
            scanned = offset;
            e.line = line;
            e.column = column;
        }
    }

    /// Renders the error for a human: `path:line:col: message`, then the
    /// source line and a caret under the column.
    ///
    /// ```
    /// let parse = hclwright::parse("a = \n");
    /// let e = &parse.errors()[0];
    /// let shown = e.render("main.tf", "a = \n");
    /// assert!(shown.starts_with("main.tf:1:5: expected an expression"));
    /// ```
    pub fn render(&self, path: &str, text: &str) -> String {
        /// Characters of context shown on each side of the error on very
        /// long lines.
        const CONTEXT: usize = 80;
        let mut out = format!("{path}:{}:{}: {}\n", self.line, self.column, self.message);
        // Every scan below is bounded by the context shown (or the error's
        // own extent), never by the length of the line: rendering each of
        // many errors on one long line stays linear overall.
        let start = floor_char_boundary(text, usize::from(self.range.start()));
        let end = floor_char_boundary(text, usize::from(self.range.end()).max(start));
        let mut before: Vec<char> = Vec::new();
        let mut cut_before = false;
        for c in text[..start].chars().rev() {
            if c == '\n' {
                break;
            }
            if before.len() == CONTEXT {
                cut_before = true;
                break;
            }
            before.push(c);
        }
        before.reverse();
        // The error's own characters on its line, then context after it.
        let mut width = 0;
        let mut shown_after = String::new();
        let mut cut_after = false;
        for (shown, (i, c)) in text[start..].char_indices().enumerate() {
            if c == '\n' {
                break;
            }
            if start + i < end {
                width += 1;
            } else if shown >= CONTEXT.max(width) {
                // More on the line, unless only carriage returns are left
                // before its end (looked at within the context length).
                cut_after = c != '\r'
                    || text[start + i..]
                        .chars()
                        .take(CONTEXT)
                        .find(|&c| c != '\r')
                        .is_some_and(|c| c != '\n');
                break;
            }
            shown_after.push(c);
        }
        let mut source = String::new();
        let mut caret = String::new();
        if cut_before {
            source.push('…');
            caret.push(' ');
        }
        for &c in &before {
            source.push(c);
            caret.push(if c == '\t' { '\t' } else { ' ' });
        }
        source.push_str(shown_after.trim_end_matches('\r'));
        if cut_after {
            source.push('…');
        }
        caret.push_str(&"^".repeat(width.max(1)));
        out.push_str("  ");
        out.push_str(&source);
        out.push_str("\n  ");
        out.push_str(&caret);
        out.push('\n');
        out
    }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: TextSize) -> (u32, u32) {
    let offset = usize::from(offset).min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, column_of(text, line_start, offset))
}

fn column_of(text: &str, line_start: usize, offset: usize) -> u32 {
    // `offset` may fall inside a multi-byte char only for lexer errors,
    // which always start on a boundary; be safe anyway.
    let mut end = offset;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[line_start..end].chars().count() as u32 + 1
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_lines_are_shown_as_a_window_around_the_error() {
        let text = format!("a = {}@ {}\n", "x + ".repeat(100), "y + ".repeat(100));
        let errors = crate::syntax_errors(&text);
        let shown = errors[0].render("f.tf", &text);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[0], "f.tf:1:405: invalid character `@`");
        // About 80 characters on each side, marked as cut.
        assert!(
            lines[1].starts_with("  …x + ") && lines[1].ends_with('…'),
            "{}",
            lines[1]
        );
        assert!(lines[1].chars().count() < 200);
        // The caret is under the `@`.
        let caret = lines[2].find('^').unwrap();
        assert_eq!(
            lines[1].chars().nth(lines[2][..caret].chars().count()),
            Some('@')
        );
    }

    /// The straightforward rendering (whole-line scans), which the bounded
    /// scans of `render` must reproduce.
    fn render_by_whole_lines(e: &super::SyntaxError, path: &str, text: &str) -> String {
        use super::floor_char_boundary;
        const CONTEXT: usize = 80;
        let mut out = format!("{path}:{}:{}: {}\n", e.line, e.column, e.message);
        let start = floor_char_boundary(text, usize::from(e.range.start()));
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let end = floor_char_boundary(text, usize::from(e.range.end()).clamp(start, line_end));
        let before: Vec<char> = text[line_start..start].chars().collect();
        let skip = before.len().saturating_sub(CONTEXT);
        let after = &text[start..line_end];
        let shown_after: String = after
            .chars()
            .take(CONTEXT.max(text[start..end].chars().count()))
            .collect();
        let cut_after = shown_after.len() < after.trim_end_matches('\r').len();
        let (mut source, mut caret) = (String::new(), String::new());
        if skip > 0 {
            source.push('…');
            caret.push(' ');
        }
        for &c in &before[skip..] {
            source.push(c);
            caret.push(if c == '\t' { '\t' } else { ' ' });
        }
        source.push_str(shown_after.trim_end_matches('\r'));
        if cut_after {
            source.push('…');
        }
        caret.push_str(&"^".repeat(text[start..end].chars().count().max(1)));
        out.push_str(&format!("  {source}\n  {caret}\n"));
        out
    }

    #[test]
    fn bounded_scans_render_as_whole_lines_do() {
        let long = "y + ".repeat(60);
        let texts = [
            "a = \n".to_string(),
            "a = [1 2]\r\n".to_string(),
            format!("a = {long}@ {long}\n"),
            format!("a = {long}@ {long}"),
            format!("a = {long}@ 1\r\r\r\n"),
            format!("a = \"{}\"\n", "\\q".repeat(150)),
            format!("\ta = \"é{}\n b = 1\n", "日本".repeat(70)),
            format!("a = \"{long}\r{long}\"\n"),
            "a = \"${".to_string(),
            "a = \"abc\nb = 1\n".to_string(),
            "a = <<EOT\nx\n".to_string(),
            format!("x = {}\n", "\t@".repeat(100)),
        ];
        for text in &texts {
            let errors = crate::syntax_errors(text);
            assert!(!errors.is_empty(), "{text:?}");
            for e in &errors {
                assert_eq!(
                    e.render("f.tf", text),
                    render_by_whole_lines(e, "f.tf", text),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn short_lines_are_shown_whole() {
        let text = "a = [1 2]\n";
        let shown = crate::syntax_errors(text)[0].render("f.tf", text);
        assert_eq!(
            shown,
            "f.tf:1:8: expected `,` or `]` after the element, found number `2`\n  a = [1 2]\n         ^\n"
        );
    }
}
