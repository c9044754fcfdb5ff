//! Formatting what is not a valid configuration file: a bare expression or
//! template (as code generators splice in), and any run of tokens, syntax
//! errors or not (a file in the middle of an edit) — as upstream
//! `hclwrite.Format` does, which lays out tokens without parsing them.

use super::{FormatError, FormatOptions, format, format_with};
use crate::syntax_error::SyntaxError;

/// Formats a standalone expression or template (`( a+2 )` → `(a + 2)`,
/// `"%{if true}${var.foo}%{endif}"`), byte for byte as `hclwrite.Format`
/// lays out the same tokens. Leading and trailing newlines are allowed.
/// Refuses text that is not one expression: the error lists the syntax
/// errors, with positions.
///
/// ```
/// use hclwright::format::format_expr;
/// assert_eq!(format_expr("foo(1, -2,a*b, b,c)").unwrap(), "foo(1, -2, a * b, b, c)");
/// assert_eq!(format_expr("a?b:c").unwrap(), "a ? b : c");
/// assert_eq!(format_expr("[\n1,\n2,\n]\n").unwrap(), "[\n  1,\n  2,\n]\n");
/// assert!(format_expr("a = 1").is_err());
/// ```
pub fn format_expr(text: &str) -> Result<String, FormatError> {
    let parse = crate::parse_expr(text);
    if !parse.errors().is_empty() {
        return Err(FormatError {
            errors: parse.errors().to_vec(),
        });
    }
    Ok(format(text))
}

/// Lays out whatever the lexer makes of `text` — a body, an expression, a
/// template, or tokens that do not parse — with the rules of the body
/// formatter, exactly as `hclwrite.Format` does (which formats any token
/// sequence). Only the spaces between tokens change. The same as
/// [`format()`](super::format()); named for code that formats fragments.
///
/// ```
/// use hclwright::format::format_tokens;
/// assert_eq!(format_tokens("attr = provider::+example()"), "attr = provider:: + example()");
/// assert_eq!(format_tokens("a = [1,2\n"), "a = [1, 2\n");
/// ```
pub fn format_tokens(text: &str) -> String {
    format(text)
}

/// Formats `text` with `options` even when it has syntax errors (for
/// format-on-save in an editor, `hclwright fmt --lenient`): a text without
/// errors is formatted as [`format_with`] does; a text with errors gets the
/// canonical layout of its tokens (the terraform profile's rewrites, which
/// need a valid tree, are left out) and the errors are returned beside it.
///
/// ```
/// use hclwright::FormatOptions;
/// use hclwright::format::format_lenient;
/// let (text, errors) = format_lenient("a=1\nb = \n", &FormatOptions::terraform());
/// assert_eq!(text, "a = 1\nb =\n");
/// assert_eq!((errors[0].line, errors[0].column), (2, 5));
/// let (text, errors) = format_lenient("module x {\n}\n", &FormatOptions::terraform());
/// assert_eq!((text.as_str(), errors.len()), ("module \"x\" {\n}\n", 0));
/// ```
pub fn format_lenient(text: &str, options: &FormatOptions) -> (String, Vec<SyntaxError>) {
    let strict = FormatOptions {
        profile: options.profile,
        refuse_syntax_errors: true,
    };
    match format_with(text, &strict) {
        Ok(formatted) => (formatted, Vec::new()),
        Err(error) => (format(text), error.errors),
    }
}
