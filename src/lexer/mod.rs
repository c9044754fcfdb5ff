//! Bytes to tokens.
//!
//! One pass over the bytes, no regex, no backtracking beyond a few bytes of
//! lookahead. Every byte of the input lands in exactly one token, so the
//! token lengths always add up to the input length.
//!
//! The token boundaries follow the upstream scanner, so that the formatter
//! (which works on tokens, like upstream) sees the same stream: a mode stack
//! for quoted templates, heredocs and the `${ }` / `%{ }` sequences inside
//! them, with the same brace counting to decide whether a `}` closes a
//! sequence or an object.

mod scan;
mod unicode;
mod unicode_tables;

pub(crate) use unicode::{is_id_continue, is_id_start};

use std::cell::Cell;

use crate::scratch;

use crate::syntax_kind::SyntaxKind::{self, *};

/// A token: its kind and its length in bytes. Offsets are the running sum of
/// the lengths.
///
/// Packed into five bytes (a one-byte kind and the length): a file of
/// ten million tokens holds them in 50 MB instead of 80.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed)]
pub struct Token {
    /// What the token is.
    pub kind: SyntaxKind,
    /// Its length in bytes.
    pub len: u32,
}

const _: () = assert!(std::mem::size_of::<Token>() == 5);

/// A problem the lexer found (bad characters, an unterminated comment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// Byte offset where the problem starts.
    pub offset: u32,
    /// Length in bytes of the offending text.
    pub len: u32,
    /// What is wrong.
    pub message: String,
}

/// The result of lexing: the tokens and the problems found.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// Tokens in order; their lengths add up to the input length.
    pub tokens: Vec<Token>,
    /// Problems, in order of position.
    pub errors: Vec<LexError>,
}

/// Where lexing starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartMode {
    /// A configuration file or an expression.
    Config,
    /// A standalone template (no quotes around it).
    Template,
}

/// How to lex.
#[derive(Clone, Copy, Debug)]
pub struct LexOptions {
    /// Where to start.
    pub start: StartMode,
    /// Reproduce the upstream scanner exactly, also on broken input: a
    /// newline inside a quoted string stays inside the string (as a
    /// [`QUOTED_NEWLINE`] token) and an unterminated `/*` is lexed as `/`
    /// and `*`. The syntax tree uses the default (`false`), which ends a
    /// string at the newline and a comment at the end of the text, so one
    /// typo never swallows the rest of the file.
    pub upstream_compat: bool,
}

impl Default for LexOptions {
    fn default() -> Self {
        LexOptions {
            start: StartMode::Config,
            upstream_compat: false,
        }
    }
}

/// Lexes a configuration file or expression.
///
/// ```
/// use hclwright::lexer::tokenize;
/// use hclwright::SyntaxKind::*;
/// let lexed = tokenize("a = 1\n");
/// let kinds: Vec<_> = lexed.tokens.iter().map(|t| t.kind).collect();
/// assert_eq!(kinds, [IDENT, WHITESPACE, EQ, WHITESPACE, NUMBER, NEWLINE]);
/// ```
pub fn tokenize(text: &str) -> Lexed {
    tokenize_with(text, LexOptions::default())
}

/// Lexes with explicit options.
pub fn tokenize_with(text: &str, options: LexOptions) -> Lexed {
    let mut lexer = Lexer {
        src: text.as_bytes(),
        text,
        pos: 0,
        // About one token per 4.6 bytes on average, but up to one per
        // byte (`[1,1,1,…]`): reserving for one per byte means the vector
        // is never copied as it grows. Only the pages written to are ever
        // resident, so the reservation beyond them costs address space,
        // not memory.
        tokens: scratch::take(&TOKENS, text.len() + 16),
        errors: Vec::new(),
        modes: Vec::new(),
        braces: 0,
        ret_braces: Vec::new(),
        seq_brackets: Vec::new(),
        compat: options.upstream_compat,
    };
    if options.start == StartMode::Template {
        lexer.modes.push(Mode::Bare);
    }
    lexer.run();
    Lexed {
        tokens: lexer.tokens,
        errors: lexer.errors,
    }
}

thread_local! {
    /// Token vectors given back with [`recycle`], for the next text lexed on
    /// this thread.
    static TOKENS: Cell<Vec<Token>> = const { Cell::new(Vec::new()) };
}

/// Gives a token vector back once its tokens are no longer needed, so that
/// the next text lexed on this thread reuses its memory.
pub(crate) fn recycle(tokens: Vec<Token>) {
    scratch::give_back(&TOKENS, tokens);
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Inside `${ }` / `%{ }`: ordinary expression tokens.
    Main,
    /// Inside `"…"`.
    Quoted,
    /// Inside a heredoc; the marker is `src[start..start + len]`.
    Heredoc {
        marker_start: u32,
        marker_len: u32,
        start_of_line: bool,
    },
    /// A standalone template.
    Bare,
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<LexError>,
    modes: Vec<Mode>,
    braces: i64,
    ret_braces: Vec<i64>,
    /// For each open template sequence, the `(` / `[` depth inside it.
    seq_brackets: Vec<i64>,
    compat: bool,
}

impl<'a> Lexer<'a> {
    fn run(&mut self) {
        if self.src.starts_with(b"\xEF\xBB\xBF") {
            self.push(BOM, 3);
        }
        while self.pos < self.src.len() {
            match self.modes.last().copied() {
                None | Some(Mode::Main) => self.main_run(),
                Some(Mode::Quoted) => self.quoted_token(),
                Some(Mode::Heredoc {
                    marker_start,
                    marker_len,
                    start_of_line,
                }) => self.heredoc_token(marker_start, marker_len, start_of_line),
                Some(Mode::Bare) => self.bare_token(),
            }
        }
    }

    #[inline]
    fn push(&mut self, kind: SyntaxKind, len: usize) {
        debug_assert!(len > 0);
        self.tokens.push(Token {
            kind,
            len: len as u32,
        });
        self.pos += len;
    }

    #[inline]
    fn byte(&self, at: usize) -> u8 {
        self.src.get(at).copied().unwrap_or(0)
    }

    fn error(&mut self, offset: usize, len: usize, message: String) {
        // Merge a run of bad characters into one error.
        if let Some(last) = self.errors.last_mut()
            && (last.offset + last.len) as usize == offset
            && last.message.starts_with("invalid character")
            && message.starts_with("invalid character")
        {
            last.len += len as u32;
            return;
        }
        self.errors.push(LexError {
            offset: offset as u32,
            len: len as u32,
            message,
        });
    }

    /// The char starting at `pos` (the text is valid UTF-8 and `pos` is on
    /// a char boundary).
    #[inline]
    fn char_at(&self, pos: usize) -> char {
        self.text[pos..].chars().next().unwrap_or('\0')
    }

    /// Lexes main-mode tokens until the mode changes or the text ends.
    ///
    /// The frequent tokens are lexed right here, with the position and the
    /// token vector in locals; the others go through
    /// [`main_token`](Self::main_token).
    fn main_run(&mut self) {
        let depth = self.modes.len();
        // Outside any template (the common case) brackets and newlines have
        // no bookkeeping to do.
        let plain = depth == 0;
        let src = self.src;
        let text = self.text;
        let mut tokens = std::mem::take(&mut self.tokens);
        let mut classes = scan::Classes::new(src);
        let mut pos = self.pos;
        while let Some(&b) = src.get(pos) {
            let (kind, len) = match b {
                b' ' | b'\t' => (WHITESPACE, classes.space_run(pos)),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let end = pos + classes.ident_run(pos);
                    let end = match src.get(end) {
                        Some(&b) if b >= 0x80 => unicode_ident_end(text, end),
                        _ => end,
                    };
                    (IDENT, end - pos)
                }
                b'=' => match src.get(pos + 1) {
                    Some(b'=') => (EQ2, 2),
                    Some(b'>') => (FAT_ARROW, 2),
                    _ => (EQ, 1),
                },
                b'.' if src.get(pos + 1) != Some(&b'.') => (DOT, 1),
                b',' => (COMMA, 1),
                b'\n' if plain => (NEWLINE, 1),
                b'\r' if plain && src.get(pos + 1) == Some(&b'\n') => (NEWLINE, 2),
                b'#' => (COMMENT, self.line_comment_len(pos)),
                b'/' if src.get(pos + 1) == Some(&b'/') => (COMMENT, self.line_comment_len(pos)),
                b'[' if plain => (L_BRACK, 1),
                b']' if plain => (R_BRACK, 1),
                b'(' if plain => (L_PAREN, 1),
                b')' if plain => (R_PAREN, 1),
                b'"' => {
                    // A string without interpolations is lexed here whole,
                    // its mode never pushed; otherwise its opening quote and
                    // first literal are, and the quoted mode takes over.
                    let lit = pos + 1;
                    let end = self.quoted_literal_end(lit);
                    tokens.push(Token {
                        kind: OPEN_QUOTE,
                        len: 1,
                    });
                    if end > lit {
                        tokens.push(Token {
                            kind: TEMPLATE_LITERAL,
                            len: (end - lit) as u32,
                        });
                    }
                    if src.get(end) == Some(&b'"') {
                        tokens.push(Token {
                            kind: CLOSE_QUOTE,
                            len: 1,
                        });
                        pos = end + 1;
                        continue;
                    }
                    self.tokens = tokens;
                    self.pos = end;
                    self.modes.push(Mode::Quoted);
                    return;
                }
                _ => {
                    self.tokens = tokens;
                    self.pos = pos;
                    self.main_token(b);
                    if self.modes.len() != depth {
                        return;
                    }
                    tokens = std::mem::take(&mut self.tokens);
                    pos = self.pos;
                    continue;
                }
            };
            tokens.push(Token {
                kind,
                len: len as u32,
            });
            pos += len;
        }
        self.tokens = tokens;
        self.pos = pos;
    }

    /// A main-mode token other than whitespace and ASCII identifiers
    /// (which [`main_run`](Self::main_run) lexes itself).
    fn main_token(&mut self, b: u8) {
        let start = self.pos;
        match b {
            b'0'..=b'9' => {
                let end = self.number_end(start);
                self.push(NUMBER, end - start);
            }
            b'{' | b'}' | b'[' | b']' | b'(' | b')' | b'=' | b'!' | b'<' | b'>' | b'+' | b'-'
            | b'*' | b'/' | b'%' | b'&' | b'|' | b'?' | b':' | b'.' | b',' | b'"' | b'#'
            | b'\n' | b'\r' | b'~' => self.punct(start, b),
            0x80.. => {
                let c = self.char_at(start);
                if unicode::is_id_start(c) {
                    let end = ident_end(self.text, start + c.len_utf8());
                    self.push(IDENT, end - start);
                    return;
                }
                self.invalid_char(start, c);
            }
            _ => self.invalid_char(start, b as char),
        }
    }

    fn invalid_char(&mut self, start: usize, c: char) {
        let len = c.len_utf8();
        let what = match c {
            '\u{FEFF}' => {
                "invalid character: a byte order mark is allowed only at the start".to_string()
            }
            '\r' => {
                "invalid character: a carriage return must be followed by a newline".to_string()
            }
            '\'' => "invalid character `'`: strings are written in double quotes".to_string(),
            ';' => "invalid character `;`: statements are separated by newlines".to_string(),
            '`' => "invalid character `` ` ``: strings are written in double quotes, or as a heredoc (`<<EOT`) over several lines".to_string(),
            c if c.is_control() => format!("invalid character U+{:04X}", c as u32),
            c if c.is_ascii() => format!("invalid character `{c}`"),
            // The code point too: the character may be invisible (U+200D)
            // or look like an ASCII one.
            c => format!("invalid character `{c}` (U+{:04X})", c as u32),
        };
        self.error(start, len, what);
        self.push(ERROR_TOKEN, len);
    }

    /// End of a number literal: a digit, then digits, dots and exponents,
    /// not ending in a dot (as the upstream scanner does: `1.2.3` is one
    /// token, which the parser rejects).
    fn number_end(&self, start: usize) -> usize {
        let src = self.src;
        let mut i = start + 1;
        let mut end = i;
        loop {
            match src.get(i) {
                Some(b'0'..=b'9') => {
                    i += 1;
                    end = i;
                }
                Some(b'.') => i += 1,
                Some(b'e' | b'E') => {
                    let mut j = i + 1;
                    if matches!(src.get(j), Some(b'+' | b'-')) {
                        j += 1;
                    }
                    if matches!(src.get(j), Some(b'0'..=b'9')) {
                        i = j + 1;
                        end = i;
                    } else {
                        return end;
                    }
                }
                _ => return end,
            }
        }
    }

    fn punct(&mut self, start: usize, b: u8) {
        let next = self.byte(start + 1);
        let (kind, len) = match b {
            b'\n' => {
                self.push(NEWLINE, 1);
                self.maybe_abandon_sequence();
                return;
            }
            b'\r' => {
                if next == b'\n' {
                    self.push(NEWLINE, 2);
                    self.maybe_abandon_sequence();
                    return;
                } else {
                    self.invalid_char(start, '\r');
                    return;
                }
            }
            b'{' => {
                self.braces += 1;
                (L_BRACE, 1)
            }
            b'}' => {
                if self.ret_braces.last() == Some(&self.braces) {
                    self.ret_braces.pop();
                    self.seq_brackets.pop();
                    self.braces -= 1;
                    self.push(TEMPLATE_SEQ_END, 1);
                    self.modes.pop();
                    return;
                }
                self.braces -= 1;
                (R_BRACE, 1)
            }
            b'~' => {
                if next == b'}' {
                    // Upstream emits a sequence end even when no sequence is
                    // open, so that the parser reports the misuse.
                    let closes = self.ret_braces.last() == Some(&self.braces);
                    self.braces -= 1;
                    self.push(TEMPLATE_SEQ_END, 2);
                    if closes {
                        self.ret_braces.pop();
                        self.seq_brackets.pop();
                        self.modes.pop();
                    }
                    return;
                }
                self.invalid_char(start, '~');
                return;
            }
            b'[' | b'(' => {
                if let Some(depth) = self.seq_brackets.last_mut() {
                    *depth += 1;
                }
                (if b == b'[' { L_BRACK } else { L_PAREN }, 1)
            }
            b']' | b')' => {
                if let Some(depth) = self.seq_brackets.last_mut() {
                    *depth -= 1;
                }
                (if b == b']' { R_BRACK } else { R_PAREN }, 1)
            }
            b'=' => match next {
                b'=' => (EQ2, 2),
                b'>' => (FAT_ARROW, 2),
                _ => (EQ, 1),
            },
            b'!' => one_or_two(next, b'=', BANG, NEQ),
            b'<' => {
                if next == b'<'
                    && let Some(len) = self.heredoc_opener(start)
                {
                    return self.begin_heredoc(start, len);
                }
                one_or_two(next, b'=', LT, LTEQ)
            }
            b'>' => one_or_two(next, b'=', GT, GTEQ),
            b'+' => (PLUS, 1),
            b'-' => (MINUS, 1),
            b'*' => (STAR, 1),
            b'%' => (PERCENT, 1),
            b'?' => (QUESTION, 1),
            b',' => (COMMA, 1),
            // `&&` and `||`; a single `&` or `|` is not HCL.
            b'&' | b'|' => {
                if next != b {
                    self.invalid_char(start, b as char);
                    return;
                }
                (if b == b'&' { AMP2 } else { PIPE2 }, 2)
            }
            b':' => one_or_two(next, b':', COLON, COLON2),
            b'.' => {
                if next == b'.' && self.byte(start + 2) == b'.' {
                    (ELLIPSIS, 3)
                } else {
                    (DOT, 1)
                }
            }
            b'#' => (COMMENT, self.line_comment_len(start)),
            b'/' => match next {
                b'/' => (COMMENT, self.line_comment_len(start)),
                b'*' => match find_comment_end(&self.src[start + 2..]) {
                    Some(at) => (COMMENT, at + 4),
                    None if self.compat => (SLASH, 1),
                    None => {
                        let len = self.src.len() - start;
                        self.error(
                            start,
                            2,
                            "unterminated comment: expected `*/` before the end of the file"
                                .to_string(),
                        );
                        (COMMENT, len)
                    }
                },
                _ => (SLASH, 1),
            },
            b'"' => {
                self.push(OPEN_QUOTE, 1);
                self.modes.push(Mode::Quoted);
                return;
            }
            _ => unreachable!("byte {b} is not punctuation"),
        };
        self.push(kind, len);
    }

    /// Recovery for an unterminated `${` in a string (tree mode only).
    ///
    /// After a newline inside a template sequence with no bracket open in
    /// it, a line that starts like an attribute (`name =`, a single `=`)
    /// cannot continue the sequence's expression, so the sequence — and a
    /// quoted string around it — was left unterminated: end them here
    /// instead of reading the rest of the file as part of the string. The
    /// parser stops its recovery at the same place
    /// ([`line_starts_attribute`]). Valid input is never affected.
    fn maybe_abandon_sequence(&mut self) {
        if self.compat
            || !matches!(self.modes.last(), Some(Mode::Main))
            || self.ret_braces.last() != Some(&self.braces)
            || self.seq_brackets.last() != Some(&0)
            || !line_starts_attribute(self.src, self.pos)
        {
            return;
        }
        let Some(below) = self.modes.len().checked_sub(2).map(|i| self.modes[i]) else {
            return;
        };
        if !matches!(below, Mode::Quoted | Mode::Heredoc { .. }) {
            return;
        }
        self.ret_braces.pop();
        self.seq_brackets.pop();
        self.braces -= 1;
        self.modes.pop();
        if matches!(below, Mode::Quoted) {
            self.modes.pop();
        }
    }

    /// Length of a `#` or `//` comment, up to (not including) the newline.
    fn line_comment_len(&self, start: usize) -> usize {
        let rest = &self.src[start..];
        match find_newline(rest) {
            Some(nl) if nl > 0 && rest[nl - 1] == b'\r' => nl - 1,
            Some(nl) => nl,
            None => rest.len(),
        }
    }

    /// If `<<` at `start` opens a heredoc (`<<ID` or `<<-ID` then a
    /// newline), the opener's length including the newline.
    fn heredoc_opener(&self, start: usize) -> Option<usize> {
        let mut i = start + 2;
        if self.byte(i) == b'-' {
            i += 1;
        }
        let first = self.byte(i);
        let id_start = i;
        if first.is_ascii_alphabetic() || first == b'_' {
            i += 1;
        } else if first >= 0x80 {
            let c = self.char_at(i);
            if !unicode::is_id_start(c) {
                return None;
            }
            i += c.len_utf8();
        } else {
            return None;
        }
        i = ident_end(self.text, i);
        debug_assert!(i > id_start);
        match (self.byte(i), self.byte(i + 1)) {
            (b'\n', _) => Some(i + 1 - start),
            (b'\r', b'\n') => Some(i + 2 - start),
            _ => None,
        }
    }

    fn begin_heredoc(&mut self, start: usize, len: usize) {
        let mut marker_start = start + 2;
        if self.src[marker_start] == b'-' {
            marker_start += 1;
        }
        let mut marker_end = start + len - 1;
        if self.src[marker_end - 1] == b'\r' {
            marker_end -= 1;
        }
        self.push(HEREDOC_START, len);
        self.modes.push(Mode::Heredoc {
            marker_start: marker_start as u32,
            marker_len: (marker_end - marker_start) as u32,
            start_of_line: true,
        });
    }

    fn begin_sequence(&mut self, kind: SyntaxKind) {
        let len = if self.byte(self.pos + 2) == b'~' {
            3
        } else {
            2
        };
        self.push(kind, len);
        self.braces += 1;
        self.ret_braces.push(self.braces);
        self.seq_brackets.push(0);
        if let Some(Mode::Heredoc { start_of_line, .. }) = self.modes.last_mut() {
            *start_of_line = false;
        }
        self.modes.push(Mode::Main);
    }

    /// Template sequence starts (`${`, `%{`) at `i`, if any.
    #[inline]
    fn sequence_at(&self, i: usize) -> Option<SyntaxKind> {
        match (self.byte(i), self.byte(i + 1)) {
            (b'$', b'{') => Some(INTERP_START),
            (b'%', b'{') => Some(DIRECTIVE_START),
            _ => None,
        }
    }

    fn quoted_token(&mut self) {
        let start = self.pos;
        let src = self.src;
        match src[start] {
            b'"' => {
                self.push(CLOSE_QUOTE, 1);
                self.modes.pop();
                return;
            }
            b'\n' | b'\r' => {
                if self.compat {
                    let mut i = start + 1;
                    while i < src.len() && matches!(src[i], b'\n' | b'\r') {
                        i += 1;
                    }
                    self.push(QUOTED_NEWLINE, i - start);
                } else {
                    // The string is unterminated: leave it, and let the
                    // newline end the line as usual. The parser reports the
                    // missing quote.
                    self.modes.pop();
                }
                return;
            }
            _ => {}
        }
        if let Some(kind) = self.sequence_at(start) {
            return self.begin_sequence(kind);
        }
        let end = self.quoted_literal_end(start);
        self.push(TEMPLATE_LITERAL, end - start);
    }

    /// End of the literal text of a quoted string starting at `start`: the
    /// first `"`, newline, `${` or `%{` that is not escaped (or the end of
    /// the text).
    #[inline]
    fn quoted_literal_end(&self, start: usize) -> usize {
        let src = self.src;
        let mut i = start;
        while i < src.len() {
            i += scan::literal_run(&src[i..]);
            let Some(&b) = src.get(i) else { break };
            match b {
                b'"' | b'\n' | b'\r' => break,
                b'\\' => {
                    // An escape: the backslash and the next char (not a
                    // newline) belong together; the parser checks them.
                    i += 1;
                    if i < src.len() && !matches!(src[i], b'\n' | b'\r') {
                        i += utf8_len(src[i]);
                    }
                }
                b'$' | b'%' => match self.past_escaped_sequence(i) {
                    Some(next) => i = next,
                    None => break,
                },
                _ => i += 1,
            }
        }
        i
    }

    /// At a `$` or `%` in template text: `None` if it starts a `${` or `%{`
    /// sequence, else where the text goes on (past `$${` or `%%{`, an
    /// escaped sequence start, or past the lone `$` or `%`).
    #[inline]
    fn past_escaped_sequence(&self, i: usize) -> Option<usize> {
        let c = self.src[i];
        match (self.byte(i + 1), self.byte(i + 2)) {
            (b'{', _) => None,
            (next, b'{') if next == c => Some(i + 3),
            _ => Some(i + 1),
        }
    }

    /// Scans literal template text from `start` until a sequence start or
    /// (inclusive) a newline. Returns the end and whether it ended after a
    /// newline.
    fn literal_line_end(&self, start: usize) -> (usize, bool) {
        let src = self.src;
        let mut i = start;
        while i < src.len() {
            i += scan::literal_run(&src[i..]);
            let Some(&b) = src.get(i) else { break };
            match b {
                b'\n' => return (i + 1, true),
                // A carriage return not followed by a newline cannot be
                // template text (upstream rejects it); the caller makes it
                // an error token.
                b'\r' if !self.compat && self.byte(i + 1) != b'\n' => return (i, false),
                b'$' | b'%' => match self.past_escaped_sequence(i) {
                    Some(next) => i = next,
                    None => return (i, false),
                },
                _ => i += 1,
            }
        }
        (i, false)
    }

    fn heredoc_token(&mut self, marker_start: u32, marker_len: u32, start_of_line: bool) {
        let start = self.pos;
        if start_of_line {
            let rest = &self.src[start..];
            if let Some(nl) = find_newline(rest) {
                let line = &self.text[start..start + nl];
                let marker =
                    &self.text[marker_start as usize..marker_start as usize + marker_len as usize];
                let content = line.strip_suffix('\r').unwrap_or(line);
                if content.trim() == marker && (self.compat || !content.contains('\r')) {
                    let content = if line.ends_with('\r') { nl - 1 } else { nl };
                    self.push(HEREDOC_END, content);
                    self.push(NEWLINE, nl + 1 - content);
                    self.modes.pop();
                    return;
                }
            }
        }
        if let Some(at_newline) = self.template_text(start)
            && let Some(Mode::Heredoc { start_of_line, .. }) = self.modes.last_mut()
        {
            *start_of_line = at_newline;
        }
    }

    /// Template text at `start`: a `${` or `%{` sequence, a lone carriage
    /// return, or literal text up to the end of the line. For literal
    /// text, returns whether it ended at a newline.
    fn template_text(&mut self, start: usize) -> Option<bool> {
        if let Some(kind) = self.sequence_at(start) {
            self.begin_sequence(kind);
            return None;
        }
        if self.lone_carriage_return(start) {
            return None;
        }
        let (end, at_newline) = self.literal_line_end(start);
        self.push(TEMPLATE_LITERAL, end - start);
        Some(at_newline)
    }

    /// In template text (tree mode), a carriage return not followed by a
    /// newline becomes an error token. Returns true if it was one.
    fn lone_carriage_return(&mut self, at: usize) -> bool {
        if self.compat || self.src[at] != b'\r' || self.byte(at + 1) == b'\n' {
            return false;
        }
        self.invalid_char(at, '\r');
        true
    }

    fn bare_token(&mut self) {
        self.template_text(self.pos);
    }
}

/// End of an identifier in `text` whose continuation starts at `i`.
#[inline(always)]
fn ident_end(text: &str, i: usize) -> usize {
    let src = text.as_bytes();
    let end = i + scan::ident_run(&src[i..]);
    match src.get(end) {
        Some(&b) if b >= 0x80 => unicode_ident_end(text, end),
        _ => end,
    }
}

/// [`ident_end`] past non-ASCII characters, from `i` on.
#[cold]
#[inline(never)]
fn unicode_ident_end(text: &str, mut i: usize) -> usize {
    let src = text.as_bytes();
    loop {
        i += scan::ident_run(&src[i..]);
        if i < src.len() && src[i] >= 0x80 {
            let c = text[i..].chars().next().unwrap_or('\0');
            if unicode::is_id_continue(c) {
                i += c.len_utf8();
                continue;
            }
        }
        return i;
    }
}

/// True if the line starting at byte `at` begins like an attribute:
/// optional spaces, an identifier, optional spaces, then `=` that is not
/// `==` or `=>`.
pub(crate) fn line_starts_attribute(src: &[u8], at: usize) -> bool {
    let mut i = at;
    while matches!(src.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match src.get(i) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => i += 1,
        Some(&c) if c >= 0x80 => {
            let Some(ch) = src
                .get(i..i + utf8_len(c))
                .and_then(|b| std::str::from_utf8(b).ok())
                .and_then(|s| s.chars().next())
            else {
                return false;
            };
            if !unicode::is_id_start(ch) {
                return false;
            }
            i += ch.len_utf8();
        }
        _ => return false,
    }
    while src
        .get(i)
        .is_some_and(|&c| scan::is_ident_byte(c) || c >= 0x80)
    {
        i += 1;
    }
    while matches!(src.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    src.get(i) == Some(&b'=') && !matches!(src.get(i + 1), Some(b'=' | b'>'))
}

/// A one-byte operator `one`, or the two-byte `two` when the byte after it
/// (`next`) is `second`: `!` or `!=`, `>` or `>=`, `:` or `::`.
#[inline]
fn one_or_two(next: u8, second: u8, one: SyntaxKind, two: SyntaxKind) -> (SyntaxKind, usize) {
    if next == second { (two, 2) } else { (one, 1) }
}

/// The length of the UTF-8 sequence that starts with `first` (a byte
/// that starts a character).
#[inline]
pub(crate) fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Offset of the first newline in `haystack`.
#[inline]
fn find_newline(haystack: &[u8]) -> Option<usize> {
    let n = scan::line_run(haystack);
    (n < haystack.len()).then_some(n)
}

/// Offset of the first `*/` in `haystack`.
fn find_comment_end(haystack: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        at += scan::star_run(&haystack[at..]);
        match haystack.get(at + 1)? {
            b'/' => return Some(at),
            _ => at += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(SyntaxKind, &str)> {
        let lexed = tokenize(text);
        let mut pos = 0;
        lexed
            .tokens
            .iter()
            .map(|t| {
                let s = &text[pos..pos + t.len as usize];
                pos += t.len as usize;
                (t.kind, s)
            })
            .collect()
    }

    #[test]
    fn numbers_follow_upstream() {
        assert_eq!(kinds("1.5e+3"), [(NUMBER, "1.5e+3")]);
        assert_eq!(kinds("1.2.3"), [(NUMBER, "1.2.3")]);
        assert_eq!(kinds("1."), [(NUMBER, "1"), (DOT, ".")]);
        assert_eq!(kinds("1e"), [(NUMBER, "1"), (IDENT, "e")]);
    }

    #[test]
    fn heredoc_with_interpolation_and_crlf() {
        let toks = kinds("a = <<-EOT\r\n  x ${y}\r\n  EOT\r\n");
        assert_eq!(
            toks,
            [
                (IDENT, "a"),
                (WHITESPACE, " "),
                (EQ, "="),
                (WHITESPACE, " "),
                (HEREDOC_START, "<<-EOT\r\n"),
                (TEMPLATE_LITERAL, "  x "),
                (INTERP_START, "${"),
                (IDENT, "y"),
                (TEMPLATE_SEQ_END, "}"),
                (TEMPLATE_LITERAL, "\r\n"),
                (HEREDOC_END, "  EOT"),
                (NEWLINE, "\r\n"),
            ]
        );
    }

    #[test]
    fn nested_template_braces() {
        let toks = kinds(r#""${ {a = "${b}"} }""#);
        let ks: Vec<_> = toks.iter().map(|t| t.0).collect();
        assert_eq!(
            ks,
            [
                OPEN_QUOTE,
                INTERP_START,
                WHITESPACE,
                L_BRACE,
                IDENT,
                WHITESPACE,
                EQ,
                WHITESPACE,
                OPEN_QUOTE,
                INTERP_START,
                IDENT,
                TEMPLATE_SEQ_END,
                CLOSE_QUOTE,
                R_BRACE,
                WHITESPACE,
                TEMPLATE_SEQ_END,
                CLOSE_QUOTE
            ]
        );
    }

    #[test]
    fn escapes_stay_literal() {
        assert_eq!(
            kinds(r#""$${x} %%{y} \" \\""#),
            [
                (OPEN_QUOTE, "\""),
                (TEMPLATE_LITERAL, r#"$${x} %%{y} \" \\"#),
                (CLOSE_QUOTE, "\"")
            ]
        );
    }

    #[test]
    fn unterminated_string_ends_at_newline() {
        let toks = kinds("a = \"abc\nb = 1\n");
        assert_eq!(toks[5], (TEMPLATE_LITERAL, "abc"));
        assert_eq!(toks[6], (NEWLINE, "\n"));
        assert_eq!(toks[7], (IDENT, "b"));
    }

    #[test]
    fn compat_mode_keeps_string_open() {
        let lexed = tokenize_with(
            "\"a\nb\"",
            LexOptions {
                upstream_compat: true,
                ..LexOptions::default()
            },
        );
        let ks: Vec<_> = lexed.tokens.iter().map(|t| t.kind).collect();
        assert_eq!(
            ks,
            [
                OPEN_QUOTE,
                TEMPLATE_LITERAL,
                QUOTED_NEWLINE,
                TEMPLATE_LITERAL,
                CLOSE_QUOTE
            ]
        );
    }

    #[test]
    fn bad_characters_are_error_tokens() {
        let lexed = tokenize("a = @@\n");
        assert_eq!(lexed.errors.len(), 1);
        assert_eq!(lexed.errors[0].len, 2);
        assert_eq!(lexed.tokens[4].kind, ERROR_TOKEN);
    }

    #[test]
    fn comments_exclude_newline() {
        assert_eq!(
            kinds("# a\r\n/* b */// c"),
            [
                (COMMENT, "# a"),
                (NEWLINE, "\r\n"),
                (COMMENT, "/* b */"),
                (COMMENT, "// c")
            ]
        );
    }

    /// Outside templates line comments and CRLF newlines are lexed in the
    /// main loop; inside an interpolation, and for a lone `\r` or `/`,
    /// through the punctuation's path. Both give the same tokens.
    #[test]
    fn line_comments_and_newlines_lex_alike_in_and_out_of_templates() {
        let line = "a # b\r\n/ // c\r\n\r";
        let outside = kinds(line);
        assert_eq!(
            outside,
            [
                (IDENT, "a"),
                (WHITESPACE, " "),
                (COMMENT, "# b"),
                (NEWLINE, "\r\n"),
                (SLASH, "/"),
                (WHITESPACE, " "),
                (COMMENT, "// c"),
                (NEWLINE, "\r\n"),
                (ERROR_TOKEN, "\r"),
            ]
        );
        let template = format!("\"${{{line}}}\"");
        let inside = kinds(&template);
        assert_eq!(inside[..2], [(OPEN_QUOTE, "\""), (INTERP_START, "${")]);
        assert_eq!(inside[2..inside.len() - 2], outside[..]);
        assert_eq!(tokenize(line).errors.len(), 1);
    }
}
