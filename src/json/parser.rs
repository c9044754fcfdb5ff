//! JSON tokens to a rowan green tree, plus every syntax error.
//!
//! The parser never gives up and never recurses: objects and arrays open
//! and close frames on an explicit stack, so nesting is bounded only by
//! [`MAX_DEPTH`](crate::MAX_DEPTH), on any thread. Whatever it cannot
//! place goes into an `ERROR` node. Trivia (spaces, newlines, comments)
//! go into the innermost open node, so a member spans its name to its
//! value and the commas and the spaces between members belong to the
//! object.

use text_size::{TextRange, TextSize};

use super::lexer::Lexer;
use super::string::{TokenProblem, check_number, decode_string};
use crate::parser::builder::TreeBuilder;
use crate::syntax_error::SyntaxError;
use crate::syntax_kind::SyntaxKind::{self, *};

/// What the parser has on its stack.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// An object; `after` tells what was last read in it.
    Object(After),
    /// An array.
    Array(After),
    /// A member whose value is being read.
    Member,
}

/// What was last read in an object or array.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    Open,
    Item,
    Comma,
}

struct Parser<'t, const B: bool> {
    text: &'t str,
    lexer: Lexer<'t>,
    /// The next token after any trivia already given to the builder.
    peeked: Option<(SyntaxKind, usize, usize)>,
    /// True when the peeked token is a plain string (nothing to check).
    peeked_plain: bool,
    builder: TreeBuilder<'t, B>,
    errors: Vec<SyntaxError>,
    stack: Vec<Frame>,
    /// Objects and arrays open (members are not levels).
    depth: u32,
}

/// Parses JSON text: the tree (when `B`) and the errors sorted by
/// position.
pub(crate) fn parse<const B: bool>(text: &str) -> (Option<rowan::GreenNode>, Vec<SyntaxError>) {
    let mut p = Parser::<B> {
        text,
        lexer: Lexer::new(text),
        peeked: None,
        peeked_plain: false,
        builder: TreeBuilder::new(text, text.len() / 4),
        errors: Vec::new(),
        stack: Vec::new(),
        depth: 0,
    };
    p.builder.start_node(JSON_FILE);
    if p.peek_raw() == Some(BOM) {
        let (_, start, end) = p.peeked.expect("peeked");
        p.error(
            start,
            end,
            "a byte order mark is not allowed before JSON".into(),
        );
        p.bump();
    }
    match p.peek() {
        None => {
            let end = text.len();
            p.error(
                end,
                end,
                "expected a JSON object, found the end of the file".into(),
            );
        }
        Some(kind) => {
            let (_, start, end) = p.peeked.expect("peeked");
            if !matches!(kind, L_BRACE | L_BRACK) && starts_value(kind) {
                let found = p.describe(kind, start, end);
                p.error(
                    start,
                    end,
                    format!("the root of a JSON configuration must be an object (or an array of objects), found {found}"),
                );
            }
            p.value();
        }
    }
    if let Some(kind) = p.peek() {
        let (_, start, end) = p.peeked.expect("peeked");
        let found = p.describe(kind, start, end);
        if p.errors
            .last()
            .is_none_or(|e| usize::from(e.range.start()) != start)
        {
            p.error(
                start,
                end,
                format!("expected the end of the file after the JSON value, found {found}"),
            );
        }
        p.builder.start_node(ERROR);
        while p.peek().is_some() {
            p.bump();
        }
        p.builder.finish_node();
    }
    p.peek();
    p.builder.finish_node();
    let green = p.builder.finish();
    let mut errors = p.errors;
    errors.sort_by_key(|e| e.range.start());
    SyntaxError::fill_positions(&mut errors, text);
    (green, errors)
}

/// True for the tokens a value can start with.
fn starts_value(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        L_BRACE | L_BRACK | JSON_STRING | JSON_NUMBER | JSON_WORD
    )
}

impl<'t, const B: bool> Parser<'t, B> {
    /// The next token, trivia included.
    fn peek_raw(&mut self) -> Option<SyntaxKind> {
        if self.peeked.is_none() {
            let start = self.lexer.pos();
            let (kind, end) = self.lexer.next_token()?;
            self.peeked = Some((kind, start, end));
            self.peeked_plain = kind == JSON_STRING && self.lexer.plain_string();
        }
        self.peeked.map(|(k, _, _)| k)
    }

    /// The next significant token; trivia before it go to the open node.
    fn peek(&mut self) -> Option<SyntaxKind> {
        loop {
            let kind = self.peek_raw()?;
            match kind {
                WHITESPACE | NEWLINE => self.bump(),
                COMMENT => {
                    let (_, start, end) = self.peeked.expect("peeked");
                    self.error(
                        start,
                        end,
                        "comments are not allowed in JSON (a `\"//\"` property holds a comment in a body)".into(),
                    );
                    self.bump();
                }
                _ => return Some(kind),
            }
        }
    }

    /// Adds the peeked token to the open node.
    fn bump(&mut self) {
        let (kind, start, end) = self.peeked.take().expect("a token to bump");
        self.builder.token(kind, start as u32, end as u32);
    }

    fn error(&mut self, start: usize, end: usize, message: String) {
        self.errors.push(SyntaxError::new(
            TextRange::new(TextSize::new(start as u32), TextSize::new(end as u32)),
            message,
        ));
    }

    fn token_error(&mut self, start: usize, problem: TokenProblem) {
        self.error(start + problem.start, start + problem.end, problem.message);
    }

    /// How a token is named in messages.
    fn describe(&self, kind: SyntaxKind, start: usize, end: usize) -> String {
        let text = &self.text[start..end];
        let short = |t: &str| {
            if t.chars().count() > 24 {
                let cut: String = t.chars().take(20).collect();
                format!("{cut}…")
            } else {
                t.to_string()
            }
        };
        match kind {
            JSON_STRING => format!("string `{}`", short(text)),
            JSON_NUMBER => format!("number `{}`", short(text)),
            JSON_WORD => format!("`{}`", short(text)),
            ERROR_TOKEN if text.starts_with('\'') => {
                format!("`{}` (JSON strings take double quotes)", short(text))
            }
            ERROR_TOKEN => format!("character `{text}`"),
            _ => format!("`{text}`"),
        }
    }

    /// Describes the next significant token, or the end of the file.
    fn found(&mut self) -> (String, usize, usize) {
        match self.peek() {
            Some(kind) => {
                let (_, start, end) = self.peeked.expect("peeked");
                (self.describe(kind, start, end), start, end)
            }
            None => {
                let end = self.text.len();
                ("the end of the file".to_string(), end, end)
            }
        }
    }

    /// Reads one value and everything nested in it.
    fn value(&mut self) {
        let floor = self.stack.len();
        self.start_value();
        while self.stack.len() > floor {
            self.step();
        }
    }

    /// Starts reading a value at the next token: a scalar is read whole,
    /// an object or array opens a frame.
    fn start_value(&mut self) {
        let kind = self.peek();
        match kind {
            Some(L_BRACE | L_BRACK) => {
                let kind = kind.expect("peeked");
                if self.depth >= crate::MAX_DEPTH {
                    self.skip_too_deep();
                    self.value_done();
                    return;
                }
                self.builder.start_node(if kind == L_BRACE {
                    JSON_OBJECT
                } else {
                    JSON_ARRAY
                });
                self.bump();
                self.stack.push(if kind == L_BRACE {
                    Frame::Object(After::Open)
                } else {
                    Frame::Array(After::Open)
                });
                self.depth += 1;
            }
            Some(JSON_STRING | JSON_NUMBER | JSON_WORD) => {
                self.scalar();
                self.value_done();
            }
            _ => {
                let (found, start, end) = self.found();
                self.error(
                    start,
                    end,
                    format!("expected a JSON value (an object, array, string, number, `true`, `false` or `null`), found {found}"),
                );
                if matches!(kind, Some(ERROR_TOKEN | EQ)) {
                    self.builder.start_node(ERROR);
                    self.bump();
                    self.builder.finish_node();
                }
                self.value_done();
            }
        }
    }

    /// Checks and adds the scalar token ahead.
    fn scalar(&mut self) {
        let (kind, start, end) = self.peeked.expect("peeked");
        let text = &self.text[start..end];
        match kind {
            JSON_STRING if self.peeked_plain => {}
            JSON_STRING => {
                if let Err(problem) = decode_string(text) {
                    self.token_error(start, problem);
                }
            }
            JSON_NUMBER => {
                if let Err(problem) = check_number(text) {
                    self.token_error(start, problem);
                }
            }
            _ => {
                if let Some(message) = word_problem(text) {
                    self.error(start, end, message);
                }
            }
        }
        self.bump();
    }

    /// A value at the top of the stack's frame is complete.
    fn value_done(&mut self) {
        match self.stack.last_mut() {
            Some(Frame::Member) => {
                self.builder.finish_node();
                self.stack.pop();
                if let Some(Frame::Object(after)) = self.stack.last_mut() {
                    *after = After::Item;
                }
            }
            Some(Frame::Array(after)) => *after = After::Item,
            _ => {}
        }
    }

    /// One step of reading the innermost object or array.
    fn step(&mut self) {
        match *self.stack.last().expect("a frame") {
            Frame::Object(after) => self.object_step(after),
            Frame::Array(after) => self.array_step(after),
            Frame::Member => unreachable!("a member's value starts as soon as it opens"),
        }
    }

    fn object_step(&mut self, after: After) {
        let kind = self.peek();
        match (kind, after) {
            (Some(R_BRACE), _) => {
                if after == After::Comma {
                    let (_, start, end) = self.peeked.expect("peeked");
                    self.error(
                        start,
                        end,
                        "expected a property after `,`, found `}` (JSON allows no trailing comma)"
                            .into(),
                    );
                }
                self.close();
            }
            (Some(COMMA), After::Item) => {
                self.bump();
                self.set_after(After::Comma);
            }
            (Some(JSON_STRING), After::Open | After::Comma) => self.member(),
            (Some(JSON_STRING), After::Item) => {
                let (_, start, _) = self.peeked.expect("peeked");
                self.error(
                    start,
                    start,
                    "expected `,` between the properties of an object".into(),
                );
                self.member();
            }
            (Some(JSON_WORD | JSON_NUMBER), After::Open | After::Comma)
                if self.next_is_separator() =>
            {
                let (kind, start, end) = self.peeked.expect("peeked");
                let found = self.describe(kind, start, end);
                self.error(
                    start,
                    end,
                    format!("expected a property name (a string in double quotes), found {found}"),
                );
                self.member();
            }
            (Some(R_BRACK), _) if self.in_array() => self.unclosed("`}` to close the object"),
            (None, _) => self.unclosed("`}` to close the object"),
            (Some(_), _) => {
                let (found, start, end) = self.found();
                let expected = match after {
                    After::Item => "`,` or `}` after the property",
                    After::Open => "a property name (a string in double quotes) or `}`",
                    After::Comma => "a property name (a string in double quotes)",
                };
                self.error(start, end, format!("expected {expected}, found {found}"));
                self.skip_one();
            }
        }
    }

    fn array_step(&mut self, after: After) {
        let kind = self.peek();
        match (kind, after) {
            (Some(R_BRACK), _) => {
                if after == After::Comma {
                    let (_, start, end) = self.peeked.expect("peeked");
                    self.error(
                        start,
                        end,
                        "expected a value after `,`, found `]` (JSON allows no trailing comma)"
                            .into(),
                    );
                }
                self.close();
            }
            (Some(COMMA), After::Item) => {
                self.bump();
                self.set_after(After::Comma);
            }
            // `"name":` in an array: the array was left unclosed, and
            // the object around it goes on.
            (Some(JSON_STRING), _) if self.in_object() && self.next_is_separator() => {
                self.unclosed("`]` to close the array")
            }
            (Some(kind), After::Open | After::Comma) if starts_value(kind) => self.start_value(),
            (Some(kind), After::Item) if starts_value(kind) => {
                let (_, start, _) = self.peeked.expect("peeked");
                self.error(
                    start,
                    start,
                    "expected `,` between the elements of an array".into(),
                );
                self.start_value();
            }
            (Some(R_BRACE), _) if self.in_object() => self.unclosed("`]` to close the array"),
            (None, _) => self.unclosed("`]` to close the array"),
            (Some(kind), _) => {
                let (found, start, end) = self.found();
                let expected = match after {
                    After::Item => "`,` or `]` after the element",
                    After::Open => "a value or `]`",
                    After::Comma => "a value",
                };
                let hint = if kind == COLON {
                    " (an array holds values, not properties)"
                } else {
                    ""
                };
                self.error(
                    start,
                    end,
                    format!("expected {expected}, found {found}{hint}"),
                );
                self.skip_one();
            }
        }
    }

    /// Reads `"name": ` and opens the member's frame for its value.
    fn member(&mut self) {
        self.builder.start_node(JSON_MEMBER);
        let (kind, start, end) = self.peeked.expect("peeked");
        if kind == JSON_STRING
            && !self.peeked_plain
            && let Err(problem) = decode_string(&self.text[start..end])
        {
            self.token_error(start, problem);
        }
        self.bump();
        self.stack.push(Frame::Member);
        match self.peek() {
            Some(COLON) => self.bump(),
            Some(EQ) => {
                let (_, start, end) = self.peeked.expect("peeked");
                self.error(start, end, "expected `:` after the property name, found `=` (JSON separates a name from its value with a colon)".into());
                self.bump();
            }
            Some(kind) if starts_value(kind) => {
                let (_, start, _) = self.peeked.expect("peeked");
                self.error(start, start, "expected `:` after the property name".into());
            }
            _ => {
                let (found, start, end) = self.found();
                self.error(
                    start,
                    end,
                    format!("expected `:` and a value after the property name, found {found}"),
                );
                self.value_done();
                return;
            }
        }
        self.start_value();
    }

    /// True if the token after the peeked one (past spaces) is `:` or `=`:
    /// a word or number there is meant as a property name.
    fn next_is_separator(&self) -> bool {
        let (_, _, end) = self.peeked.expect("peeked");
        let rest = self.text[end..].trim_start_matches([' ', '\t']);
        rest.starts_with(':') || rest.starts_with('=')
    }

    fn set_after(&mut self, new: After) {
        match self.stack.last_mut() {
            Some(Frame::Object(after) | Frame::Array(after)) => *after = new,
            _ => unreachable!("set_after in an object or array"),
        }
    }

    fn in_array(&self) -> bool {
        self.stack.iter().any(|f| matches!(f, Frame::Array(_)))
    }

    fn in_object(&self) -> bool {
        self.stack.iter().any(|f| matches!(f, Frame::Object(_)))
    }

    /// Consumes the closing bracket ahead and closes the innermost frame.
    fn close(&mut self) {
        self.bump();
        self.builder.finish_node();
        self.stack.pop();
        self.depth -= 1;
        self.value_done();
    }

    /// Closes the innermost frame without its closing bracket.
    fn unclosed(&mut self, expected: &str) {
        let (found, start, end) = self.found();
        let message = format!("expected {expected}, found {found}");
        // Objects and arrays left open together at the end are one
        // mistake, reported once.
        let said = self
            .errors
            .last()
            .is_some_and(|e| usize::from(e.range.start()) == start && e.message.ends_with(&found));
        if !said {
            self.error(start, end, message);
        }
        self.builder.finish_node();
        self.stack.pop();
        self.depth -= 1;
        self.value_done();
    }

    /// Puts the token ahead in an `ERROR` node (the error is reported).
    fn skip_one(&mut self) {
        self.builder.start_node(ERROR);
        self.bump();
        self.builder.finish_node();
    }

    /// A value nested beyond the limit: reported once, and skipped whole
    /// (to its matching bracket) in one `ERROR` node.
    fn skip_too_deep(&mut self) {
        let (_, start, end) = self.peeked.expect("peeked");
        self.error(
            start,
            end,
            format!("nesting is too deep: more than {} levels", crate::MAX_DEPTH),
        );
        self.builder.start_node(ERROR);
        let mut depth = 0usize;
        while let Some(kind) = self.peek() {
            match kind {
                L_BRACE | L_BRACK => depth += 1,
                R_BRACE | R_BRACK => depth -= 1,
                _ => {}
            }
            self.bump();
            if depth == 0 {
                break;
            }
        }
        self.builder.finish_node();
    }
}

/// What is wrong with a word used as a value, if anything.
fn word_problem(word: &str) -> Option<String> {
    match word {
        "true" | "false" | "null" => None,
        "undefined" | "NaN" | "Infinity" => Some(format!("`{word}` is JavaScript, not JSON")),
        _ => {
            let lower = word.to_ascii_lowercase();
            let suggestion = ["true", "false", "null"]
                .into_iter()
                .find(|k| *k == lower || (lower.len() > 1 && k.starts_with(lower.as_str())));
            Some(match suggestion {
                Some(k) => format!("`{word}` is not a JSON keyword; did you mean `{k}`?"),
                None => format!(
                    "expected a JSON value (an object, array, string, number, `true`, `false` or `null`), found `{word}` (strings need double quotes)"
                ),
            })
        }
    }
}
