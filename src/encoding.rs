//! Source bytes to text, accepting what upstream accepts: bytes that are not
//! UTF-8 inside comments.
//!
//! HCL files are UTF-8, and everything in this crate works on `&str`. The
//! upstream parser, though, only looks at the bytes of a comment to find its
//! end, so a comment written in another encoding (`# Configura\xe7\xe3o`,
//! Latin-1 from an old editor) passes `terraform fmt` and `terraform
//! validate`; anywhere else (names, strings, heredocs) such a byte is an
//! error upstream too.
//!
//! [`decode`] gives such a file as text in which each byte that is not
//! UTF-8 is replaced by a private-use character of its own (one of 128
//! chosen so that none occurs in the file); [`StandIns::encode`] puts the
//! bytes back into any text made from it: a formatted file, an edited one,
//! a diff. A stand-in is one character wide, as upstream counts an invalid
//! byte as one column, so alignment is computed as upstream computes it.
//!
//! ```
//! use hclwright::encoding::decode;
//!
//! let bytes = b"a   = 1 # caf\xe9\nbb = 2\n";
//! let decoded = decode(bytes).unwrap();
//! let formatted = hclwright::format(&decoded.text);
//! assert_eq!(
//!     decoded.stand_ins.encode(&formatted).as_ref(),
//!     b"a  = 1 # caf\xe9\nbb = 2\n"
//! );
//!
//! // Outside a comment, upstream refuses the byte too.
//! let error = decode(b"a = \"caf\xe9\"\n").unwrap_err();
//! assert_eq!((error.offset, error.byte, error.line, error.column), (8, 0xE9, 1, 9));
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::lexer::tokenize;
use crate::{SyntaxKind, TextSize};

/// Source text decoded by [`decode`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text: the source itself when it is UTF-8, else the source with
    /// each byte that is not UTF-8 replaced by its stand-in.
    pub text: Cow<'a, str>,
    /// How to turn text made from [`text`](Self::text) back into bytes.
    pub stand_ins: StandIns,
}

/// The private-use characters that stand in for bytes that are not UTF-8:
/// byte `0x80 + i` is `first + i` (bytes below `0x80` are always UTF-8).
/// `StandIns::default()` stands in for nothing (a UTF-8 source).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StandIns {
    first: Option<u32>,
}

/// A byte that is not UTF-8 outside a comment, where upstream refuses it
/// too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidUtf8 {
    /// Byte offset of the first such byte in the source.
    pub offset: usize,
    /// The byte.
    pub byte: u8,
    /// Its 1-based line.
    pub line: usize,
    /// Its 1-based column, in characters (a byte that is not UTF-8 counts
    /// as one).
    pub column: usize,
}

/// Private-use characters, in windows of 128 (one per byte `0x80..=0xFF`).
const PRIVATE_USE: std::ops::RangeInclusive<u32> = 0xE000..=0xF8FF;
const WINDOW: u32 = 128;

/// Decodes source bytes: UTF-8 as it is (borrowed, without a copy), or
/// UTF-8 but for bytes inside comments, which get stand-ins. Any other byte
/// that is not UTF-8 is an error at its position, as upstream.
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, InvalidUtf8> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Decoded {
            text: Cow::Borrowed(text),
            stand_ins: StandIns::default(),
        }),
        Err(_) => decode_with_stand_ins(bytes),
    }
}

fn decode_with_stand_ins(bytes: &[u8]) -> Result<Decoded<'static>, InvalidUtf8> {
    let chunks = || bytes.utf8_chunks();
    // A window of private-use characters that the source does not use.
    let mut used = [false; ((0xF8FF - 0xE000 + 1) / WINDOW) as usize];
    for chunk in chunks() {
        for c in chunk.valid().chars() {
            if PRIVATE_USE.contains(&(c as u32)) {
                used[((c as u32 - PRIVATE_USE.start()) / WINDOW) as usize] = true;
            }
        }
    }
    let first = used
        .iter()
        .position(|&u| !u)
        .map(|window| PRIVATE_USE.start() + window as u32 * WINDOW);
    // The text, and where each stand-in is in it and in the source.
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut stand_ins: Vec<(usize, usize)> = Vec::new();
    let mut source_offset = 0;
    for chunk in chunks() {
        text.push_str(chunk.valid());
        source_offset += chunk.valid().len();
        for &byte in chunk.invalid() {
            let Some(first) = first else {
                // Every window is used: no stand-in is free (no real file
                // gets here).
                return Err(invalid_at(&text, source_offset, byte));
            };
            stand_ins.push((text.len(), source_offset));
            text.push(char::from_u32(first + u32::from(byte - 0x80)).unwrap_or('\u{FFFD}'));
            source_offset += 1;
        }
    }
    // Every stand-in must lie inside a comment.
    let lexed = tokenize(&text);
    let mut token_start = 0usize;
    let mut tokens = lexed.tokens.iter();
    let mut token = tokens.next();
    for &(offset, source_offset) in &stand_ins {
        while let Some(t) = token {
            if token_start + t.len as usize > offset {
                break;
            }
            token_start += t.len as usize;
            token = tokens.next();
        }
        if token.is_none_or(|t| t.kind != SyntaxKind::COMMENT) {
            return Err(invalid_at(
                &text[..offset],
                source_offset,
                bytes[source_offset],
            ));
        }
    }
    Ok(Decoded {
        text: Cow::Owned(text),
        stand_ins: StandIns { first },
    })
}

/// The error for `byte` at `source_offset`, `before` being the decoded
/// text before it.
fn invalid_at(before: &str, source_offset: usize, byte: u8) -> InvalidUtf8 {
    let (line, column) = crate::line_col(before, TextSize::of(before));
    InvalidUtf8 {
        offset: source_offset,
        byte,
        line: line as usize,
        column: column as usize,
    }
}

/// Decodes source bytes as [`decode`] does, taking them by value: UTF-8
/// becomes the text without a copy.
pub fn decode_owned(bytes: Vec<u8>) -> Result<Decoded<'static>, InvalidUtf8> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Decoded {
            text: Cow::Owned(text),
            stand_ins: StandIns::default(),
        }),
        Err(e) => decode_with_stand_ins(e.as_bytes()),
    }
}

/// Bytes a stand-in takes in the text for the one byte it stands for in
/// the source (every private-use character is three bytes of UTF-8).
const STAND_IN_EXTRA_BYTES: usize = '\u{E000}'.len_utf8() - 1;

impl Decoded<'_> {
    /// The offsets in the decoded text that differ from those of the
    /// source: where each stand-in is (none for a UTF-8 source).
    pub fn source_offsets(&self) -> SourceOffsets {
        let stand_ins = if self.stand_ins.is_empty() {
            Vec::new()
        } else {
            self.text
                .char_indices()
                .filter(|&(_, c)| self.stand_ins.byte(c).is_some())
                .map(|(i, _)| i)
                .collect()
        };
        SourceOffsets { stand_ins }
    }
}

/// Turns offsets in a [`Decoded`] text into byte offsets in the source
/// (from [`Decoded::source_offsets`]).
#[derive(Clone, Debug, Default)]
pub struct SourceOffsets {
    /// Offsets of the stand-ins in the decoded text, in order.
    stand_ins: Vec<usize>,
}

impl SourceOffsets {
    /// The byte offset in the source of `offset` in the decoded text.
    pub fn source(&self, offset: TextSize) -> usize {
        let offset = usize::from(offset);
        offset - STAND_IN_EXTRA_BYTES * self.stand_ins.partition_point(|&i| i < offset)
    }
}

impl StandIns {
    /// Whether any byte has a stand-in (the source was not all UTF-8).
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    /// The byte a character stands in for, if it is a stand-in.
    pub fn byte(&self, c: char) -> Option<u8> {
        let first = self.first?;
        let i = (c as u32).checked_sub(first)?;
        (i < WINDOW).then(|| 0x80 + i as u8)
    }

    /// `text` as bytes, each stand-in replaced by the byte it stands for:
    /// what to write back for a text made from the decoded source.
    pub fn encode<'t>(&self, text: &'t str) -> Cow<'t, [u8]> {
        if self.is_empty() || !text.chars().any(|c| self.byte(c).is_some()) {
            return Cow::Borrowed(text.as_bytes());
        }
        let mut bytes = Vec::with_capacity(text.len());
        let mut buf = [0; 4];
        for c in text.chars() {
            match self.byte(c) {
                Some(b) => bytes.push(b),
                None => bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
            }
        }
        Cow::Owned(bytes)
    }

    /// `text` for a message: each stand-in shown as `�` (U+FFFD).
    pub fn shown<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.is_empty() || !text.chars().any(|c| self.byte(c).is_some()) {
            return Cow::Borrowed(text);
        }
        Cow::Owned(
            text.chars()
                .map(|c| {
                    if self.byte(c).is_some() {
                        '\u{FFFD}'
                    } else {
                        c
                    }
                })
                .collect(),
        )
    }
}

impl InvalidUtf8 {
    /// What is wrong, without the line and column.
    pub fn message(&self) -> String {
        let utf16 = if self.offset == 0 && matches!(self.byte, 0xFE | 0xFF) {
            " (the file starts like UTF-16 text: save it as UTF-8)"
        } else {
            ""
        };
        format!(
            "invalid UTF-8 at byte offset {} (0x{:02X}): HCL files must be UTF-8 text, and other bytes are accepted only inside comments{utf16}",
            self.offset, self.byte
        )
    }
}

/// `line:column: message`.
impl fmt::Display for InvalidUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message())
    }
}

impl std::error::Error for InvalidUtf8 {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_borrowed_and_encodes_as_it_is() {
        let decoded = decode("a = \"é\" # \u{E000}\n".as_bytes()).unwrap();
        assert!(matches!(decoded.text, Cow::Borrowed(_)));
        assert!(decoded.stand_ins.is_empty());
        assert!(matches!(
            decoded.stand_ins.encode(&decoded.text),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn bytes_in_comments_round_trip() {
        let bytes: &[u8] =
            b"# \xe7\xe3o\na = 1 // \xff\xfe\nb = [1, # \xc3\n2] /* \xf0\x9f\x98 */\nc = \"${1 # \xe9\n}\"\n";
        let decoded = decode(bytes).unwrap();
        assert_eq!(decoded.stand_ins.encode(&decoded.text).as_ref(), bytes);
        // One character per byte that is not UTF-8.
        let stand_ins = decoded
            .text
            .chars()
            .filter(|c| ('\u{E000}'..='\u{E07F}').contains(c));
        assert_eq!(stand_ins.count(), 9);
        assert!(crate::syntax_errors(&decoded.text).is_empty());
        assert_eq!(decoded.stand_ins.shown("# \u{FFFD}").as_ref(), "# \u{FFFD}");
    }

    #[test]
    fn stand_ins_avoid_private_use_characters_of_the_source() {
        let mut bytes = "# \u{E000}\u{E07F}\u{E080} ".as_bytes().to_vec();
        bytes.extend_from_slice(b"\x80\xff\n");
        let decoded = decode(&bytes).unwrap();
        assert_eq!(decoded.stand_ins.first, Some(0xE100));
        assert_eq!(decoded.stand_ins.encode(&decoded.text).as_ref(), bytes);
        assert_eq!(
            decoded.stand_ins.shown(&decoded.text).as_ref(),
            "# \u{E000}\u{E07F}\u{E080} \u{FFFD}\u{FFFD}\n"
        );
    }

    #[test]
    fn offsets_map_back_to_the_source() {
        let bytes = b"# \xe9\xe9 x\na = [1 2]\n";
        let decoded = decode(bytes).unwrap();
        let offsets = decoded.source_offsets();
        let in_text = |needle: &str| TextSize::from(decoded.text.find(needle).unwrap() as u32);
        assert_eq!(offsets.source(in_text(" x")), 4);
        assert_eq!(offsets.source(in_text("2]")), 14);
        assert_eq!(bytes[14], b'2');
        assert_eq!(offsets.source(0.into()), 0);
        let plain = decode(b"a = [1 2]\n").unwrap();
        assert_eq!(plain.source_offsets().source(7.into()), 7);
        assert_eq!(decode_owned(bytes.to_vec()).unwrap(), decoded);
        assert_eq!(
            decode_owned(b"a = 1\n".to_vec()).unwrap().text,
            decode(b"a = 1\n").unwrap().text
        );
    }

    #[test]
    fn utf16_is_named_as_such() {
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("a = 1\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let message = decode(&utf16).unwrap_err().to_string();
        assert!(
            message.starts_with("1:1: invalid UTF-8 at byte offset 0 (0xFF)")
                && message.ends_with("(the file starts like UTF-16 text: save it as UTF-8)"),
            "{message}"
        );
        let latin1 = decode(b"a = \"\xff\"\n").unwrap_err().to_string();
        assert!(!latin1.contains("UTF-16"), "{latin1}");
    }

    #[test]
    fn bytes_outside_comments_are_errors_where_they_are() {
        for (bytes, offset, line, column) in [
            (&b"a = \"caf\xe9\"\n"[..], 8, 1, 9),
            (b"# \xe9\n\xe9 = 1\n", 4, 2, 1),
            (b"# \xe9\xe9\na = <<EOT\n  \xe9\nEOT\n", 17, 3, 3),
            (b"a = \"${\"\xe9\"}\"\n", 8, 1, 9),
            (b"a = \"%{ if x }\xe9%{ endif }\"\n", 14, 1, 15),
            (b"/* x */ \xe9", 8, 1, 9),
        ] {
            assert_eq!(
                decode(bytes),
                Err(InvalidUtf8 {
                    offset,
                    byte: 0xE9,
                    line,
                    column
                }),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}
