//! JSON output for `check --json` and `refs --json`: strings quoted by the
//! library (only what JSON requires is escaped).

/// `s` as a JSON string literal.
pub fn string(s: &str) -> String {
    hclwright::json::quote(s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn strings_are_escaped() {
        assert_eq!(super::string("a\"b\\c\n\u{1}é"), r#""a\"b\\c\n\u0001é""#);
    }
}
