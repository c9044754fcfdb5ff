//! Fuzz target `parse`: the parser's invariants on arbitrary input.
//!
//! For input that is not UTF-8 but which `encoding::decode` accepts (the
//! other bytes only inside comments): the bytes come back from the
//! stand-ins, and the decoded text parses losslessly. For every input that
//! is valid UTF-8:
//! - `parse`, `parse_expr` and `parse_template` never panic (nor overflow
//!   the stack) and are lossless: the tree prints back the input byte for
//!   byte;
//! - every syntax error's range lies within the text, on char boundaries,
//!   with a 1-based line and column;
//! - the lexer's token lengths (and error ranges) cover exactly the text,
//!   in every start mode and with or without upstream compatibility.
#![no_main]

use hclwright::lexer::{LexOptions, StartMode, tokenize, tokenize_with};
use hclwright::{Parse, TextSize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        check_decoded(data);
        return;
    };
    check_parse("parse", &hclwright::parse(text), text);
    check_parse("parse_expr", &hclwright::parse_expr(text), text);
    check_parse("parse_template", &hclwright::parse_template(text), text);

    check_lexed("tokenize", &tokenize(text), text);
    for start in [StartMode::Config, StartMode::Template] {
        for upstream_compat in [false, true] {
            let options = LexOptions {
                start,
                upstream_compat,
            };
            check_lexed("tokenize_with", &tokenize_with(text, options), text);
        }
    }
});

/// Bytes that are not all UTF-8: when `encoding::decode` accepts them
/// (such bytes only inside comments), the stand-ins give the bytes back and
/// the decoded text parses losslessly.
fn check_decoded(data: &[u8]) {
    let Ok(decoded) = hclwright::encoding::decode(data) else {
        return;
    };
    assert!(
        decoded.stand_ins.encode(&decoded.text).as_ref() == data,
        "stand-ins do not give the bytes back"
    );
    check_parse(
        "parse (decoded)",
        &hclwright::parse(&decoded.text),
        &decoded.text,
    );
}

fn check_parse(entry: &str, parse: &Parse, text: &str) {
    let printed = parse.syntax().to_string();
    assert!(
        printed == text,
        "{entry}: not lossless: {printed:?} != {text:?}"
    );
    let len = TextSize::of(text);
    for e in parse.errors() {
        assert!(
            e.range.end() <= len,
            "{entry}: error {e:?} ends past the text ({len:?})"
        );
        assert!(
            text.is_char_boundary(e.range.start().into())
                && text.is_char_boundary(e.range.end().into()),
            "{entry}: error {e:?} splits a character"
        );
        assert!(
            e.line >= 1 && e.column >= 1,
            "{entry}: error {e:?} has no line/column"
        );
    }
}

fn check_lexed(entry: &str, lexed: &hclwright::lexer::Lexed, text: &str) {
    let total: u64 = lexed.tokens.iter().map(|t| u64::from(t.len)).sum();
    assert!(
        total == text.len() as u64,
        "{entry}: token lengths add up to {total}, text is {} bytes",
        text.len()
    );
    for e in &lexed.errors {
        assert!(
            u64::from(e.offset) + u64::from(e.len) <= text.len() as u64,
            "{entry}: lex error {e:?} ends past the text ({} bytes)",
            text.len()
        );
    }
}
