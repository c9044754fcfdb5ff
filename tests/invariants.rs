//! Invariants 1 (lossless) and 2 (never fails) on arbitrary input, by
//! property testing; and on every fixture in the repository.

use proptest::prelude::*;

fn check(text: &str) {
    for parse in [
        hclwright::parse(text),
        hclwright::parse_expr(text),
        hclwright::parse_template(text),
    ] {
        assert_eq!(parse.syntax().to_string(), text);
        for e in parse.errors() {
            assert!(usize::from(e.range.end()) <= text.len(), "{e:?}");
            assert!(e.line >= 1 && e.column >= 1);
        }
    }
    // Checking without a tree finds exactly the same errors.
    let errors = hclwright::syntax_errors(text);
    assert_eq!(errors, hclwright::parse(text).errors());
    // Without syntax errors the parser's tokens are the upstream-compatible
    // ones (the formatter relies on it to lex valid input once).
    if errors.is_empty() {
        assert_eq!(lex(text, false), lex(text, true), "{text:?}");
    }
    let lexed = hclwright::lexer::tokenize(text);
    assert_eq!(
        lexed.tokens.iter().map(|t| t.len as usize).sum::<usize>(),
        text.len()
    );
}

fn lex(text: &str, upstream_compat: bool) -> Vec<hclwright::lexer::Token> {
    use hclwright::lexer::{LexOptions, StartMode, tokenize_with};
    let options = LexOptions {
        start: StartMode::Config,
        upstream_compat,
    };
    tokenize_with(text, options).tokens
}

/// Pieces of HCL, to build inputs that get deep into the grammar.
const FRAGMENTS: &[&str] = &[
    "a",
    "b",
    "var",
    ".",
    "x",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "=",
    "==",
    " ",
    "\n",
    "\r\n",
    "\t",
    ",",
    ":",
    "?",
    "...",
    "=>",
    "::",
    "1",
    "2.5",
    "1e3",
    "\"",
    "${",
    "%{",
    "}",
    "~}",
    "${~",
    "if ",
    "else",
    "endif",
    "for ",
    " in ",
    "endfor",
    "<<EOT\n",
    "<<-EOT\n",
    "EOT\n",
    "  EOT",
    "# c\n",
    "// c",
    "/* c */",
    "/*",
    "*/",
    "-",
    "!",
    "+",
    "*",
    "/",
    "%",
    "&&",
    "||",
    "<",
    ">=",
    "true",
    "null",
    "\\",
    "\\n",
    "\\u00e9",
    "$${",
    "%%{",
    "é",
    "🙂",
    "\u{feff}",
    "@",
    "'",
    "resource",
    "\"label\"",
    "block {\n",
    "}\n",
    "a = ",
    "[for ",
    "{for ",
    "f(",
    "provider::",
    ".*",
    "[*]",
    ".0",
];

fn fragments() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..60).prop_map(|v| v.concat())
}

proptest! {
    // `PROPTEST_CASES` raises the count for a deeper search.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
    ))]

    #[test]
    fn arbitrary_strings_round_trip(text in any::<String>()) {
        check(&text);
    }

    #[test]
    fn hcl_fragments_round_trip(text in fragments()) {
        check(&text);
    }

    #[test]
    fn ascii_soup_round_trips(text in "[ -~\t\n\r]{0,200}") {
        check(&text);
    }

    /// HCL with bytes that are not UTF-8 mixed in (some inside comments):
    /// decoding accepts them only inside comments, gives the bytes back
    /// exactly, and formatting keeps every one of them (about a third of
    /// the cases decode with stand-ins).
    #[test]
    fn bytes_that_are_not_utf8_round_trip(
        parts in prop::collection::vec(
            prop_oneof![
                6 => prop::sample::select(FRAGMENTS).prop_map(|f| f.as_bytes().to_vec()),
                2 => prop::sample::select(&["# ", "// ", "/* ", " */", "\n"][..])
                    .prop_map(|f| f.as_bytes().to_vec()),
                2 => prop::collection::vec(0x80u8.., 1..4)
                    .prop_map(|b| [&b"# "[..], &b, b"\n"].concat()),
                1 => prop::collection::vec(0x80u8.., 1..4),
            ],
            0..40,
        )
    ) {
        let bytes = parts.concat();
        if let Ok(decoded) = hclwright::encoding::decode(&bytes) {
            check(&decoded.text);
            let encoded = decoded.stand_ins.encode(&decoded.text);
            prop_assert_eq!(encoded.as_ref(), &bytes[..]);
            let formatted = hclwright::format(&decoded.text);
            // Formatting changes only spaces and tabs, and drops a byte
            // order mark at the very start (one after spaces moves to the
            // start, as upstream).
            let skeleton = |bytes: &[u8]| -> Vec<u8> {
                bytes.iter().copied().filter(|b| !b" \t".contains(b)).collect()
            };
            let bom = "\u{feff}".as_bytes();
            let formatted_bytes = decoded.stand_ins.encode(&formatted);
            prop_assert_eq!(
                skeleton(&formatted_bytes),
                skeleton(bytes.strip_prefix(bom).unwrap_or(&bytes))
            );
        } else {
            prop_assert!(std::str::from_utf8(&bytes).is_err());
        }
    }
}

#[test]
fn every_fixture_is_lossless() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut stack = vec![root];
    let mut n = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                check(&text);
                n += 1;
            }
        }
    }
    assert!(n > 50, "only {n} fixtures found");
}
