//! The canonical layout of HCL ("hclfmt style"), byte for byte what the
//! upstream Go formatter (`hclwrite.Format`) produces, and the `terraform`
//! profile (what `terraform fmt` adds).
//!
//! The formatter works on tokens, like upstream: it only rewrites the runs
//! of spaces and tabs between tokens (and drops a leading byte order mark),
//! so it never changes a comment, a string, a heredoc, a newline or a line
//! ending, and it formats broken input too.
//!
//! ```
//! let text = "resource \"a\" \"b\" {\ncount=1\n  tags = {Name=\"x\" # the name\n  }\n}\n";
//! assert_eq!(
//!     hclwright::format(text),
//!     "resource \"a\" \"b\" {\n  count = 1\n  tags = { Name = \"x\" # the name\n  }\n}\n"
//! );
//! ```
//!
//! The rules are listed in `docs/format-rules.md` of the shared material:
//! lines are split into a lead, an optional `= value` cell and an optional
//! trailing comment; indentation follows the brackets; spacing inside a
//! cell follows the neighbouring tokens; `=` signs and trailing comments of
//! consecutive lines are aligned.
//!
//! Parts of a text can be formatted on their own — see [`format_range`] and
//! [`format_node`].

mod align;
mod bytes;
mod indent;
mod layout;
mod lenient;
mod lines;
mod partial;
mod quirks;
mod quoted;
mod spacing;
mod terraform;
mod tokens;

use std::fmt;

pub use lenient::{format_expr, format_lenient, format_tokens};
pub use partial::{format_node, format_range, format_range_edits};

use crate::diff::TextEdit;
use crate::syntax_error::SyntaxError;
use layout::Layout;

/// Formats `text` in the canonical layout, exactly as upstream
/// `hclwrite.Format` (and `hclfmt`) does. Works on any input, including
/// input with syntax errors; never panics.
///
/// ```
/// assert_eq!(hclwright::format("a=1\nbbb   =  2 # two\n"), "a   = 1\nbbb = 2 # two\n");
/// // Broken input is formatted too.
/// assert_eq!(hclwright::format("a = [1,2\n"), "a = [1, 2\n");
/// ```
pub fn format(text: &str) -> String {
    let mut layout = Layout::new(text);
    layout.format_all();
    layout.render()
}

/// [`format()`] for text known to have no syntax errors (skips the search
/// for scanner quirks that only broken input has).
fn format_valid(text: &str) -> String {
    let mut layout = Layout::new_valid(text);
    layout.format_all();
    layout.render()
}

/// The changes [`format()`] makes, as sorted, non-overlapping edits that
/// each replace one run of whitespace (empty when `text` is already
/// formatted) — the form editors expect.
///
/// ```
/// use hclwright::diff::apply_edits;
/// let text = "a=1\n";
/// let edits = hclwright::format::format_edits(text);
/// assert_eq!(edits.len(), 2);
/// assert_eq!(apply_edits(text, &edits).unwrap(), "a = 1\n");
/// ```
pub fn format_edits(text: &str) -> Vec<TextEdit> {
    let mut layout = Layout::new(text);
    layout.format_all();
    layout.edits()
}

/// Formats `text` with `options`.
///
/// With [`FormatOptions::default`] (the `hclfmt` profile) this is
/// [`format()`] and never fails. With [`FormatOptions::terraform`] the input
/// must be free of syntax errors (a [`FormatError`] lists them otherwise);
/// then `terraform fmt`'s normalizations are applied before the layout:
///
/// - a value that is exactly one interpolation is unwrapped:
///   `"${var.x}"` → `var.x` (in parentheses if it spans lines);
/// - the `type` of a top-level `variable` block is normalized: `list` →
///   `list(any)`, `"string"` → `string`, `"map"` → `map(string)`, …;
/// - block labels are quoted: `module foo {` → `module "foo" {`.
///
/// The result is byte for byte what `terraform fmt` writes, except where
/// `terraform fmt` loses data or breaks the file: a comment before or
/// between labels (`b /* c */ "x" {`) is kept, a label it cannot decode is
/// kept (`terraform fmt` drops a quoted label holding `$` or `%` before
/// another character, as in `"$x"`, `"a%%b"` or `"$${x}"`), and an
/// unwrapped value that
/// would not parse on its own lines (a line comment before its end,
/// parentheses that do not enclose all of it) is wrapped in parentheses.
///
/// ```
/// use hclwright::{FormatOptions, format_with};
/// let text = "module foo {\nsource=\"${var.src}\"\n}\n";
/// let out = format_with(text, &FormatOptions::terraform()).unwrap();
/// assert_eq!(out, "module \"foo\" {\n  source = var.src\n}\n");
///
/// let err = format_with("a = 1\nb = \n", &FormatOptions::terraform()).unwrap_err();
/// assert_eq!((err.errors()[0].line, err.errors()[0].column), (2, 5));
/// ```
pub fn format_with(text: &str, options: &FormatOptions) -> Result<String, FormatError> {
    Ok(match lay_out(text, options)? {
        Planned::Layout(layout) => layout.render(),
        Planned::Normalized(normalized) => format_valid(&normalized),
    })
}

/// True when [`format_with`] would give `text` back unchanged (the
/// question `fmt --check` asks), found without writing the formatted text:
/// the layout is compared with the text and the comparison stops at the
/// first difference. The errors are those of [`format_with`].
///
/// ```
/// use hclwright::FormatOptions;
/// use hclwright::format::is_formatted;
/// let options = FormatOptions::terraform();
/// assert_eq!(is_formatted("a = 1\n", &options), Ok(true));
/// assert_eq!(is_formatted("a=1\n", &options), Ok(false));
/// assert_eq!(is_formatted("module foo {\n}\n", &options), Ok(false));
/// assert!(is_formatted("a = \n", &options).is_err());
/// ```
pub fn is_formatted(text: &str, options: &FormatOptions) -> Result<bool, FormatError> {
    Ok(match lay_out(text, options)? {
        Planned::Layout(layout) => layout.is_unchanged(),
        // The layout changes only whitespace: when the normalizations
        // changed more, the text cannot be the result.
        Planned::Normalized(normalized) if !same_but_whitespace(&normalized, text) => false,
        Planned::Normalized(normalized) => format_valid(&normalized) == text,
    })
}

/// True when `a` and `b` are the same once every space, tab, carriage
/// return and newline is taken out (compared byte by byte, without a
/// copy of either).
fn same_but_whitespace(a: &str, b: &str) -> bool {
    let significant = |c: &u8| !matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    a.bytes()
        .filter(significant)
        .eq(b.bytes().filter(significant))
}

/// What [`format_with`] writes, before it is written.
enum Planned<'a> {
    /// `text` laid out.
    Layout(Layout<'a>),
    /// The text after the terraform normalizations, to lay out.
    Normalized(String),
}

/// The work of [`format_with`] but the writing.
fn lay_out<'a>(text: &'a str, options: &FormatOptions) -> Result<Planned<'a>, FormatError> {
    if options.profile == Profile::Hclfmt && !options.refuse_syntax_errors {
        let mut layout = Layout::new(text);
        layout.format_all();
        return Ok(Planned::Layout(layout));
    }
    // The tokens tell whether a terraform normalization may apply; only
    // then is a tree built. Either way the text is lexed and parsed once.
    let lexed = crate::lexer::tokenize(text);
    let needs_tree =
        options.profile == Profile::Terraform && terraform::may_normalize(text, &lexed.tokens);
    let (_, errors, tokens) =
        crate::parser::parse_lexed(text, lexed, crate::parser::Entry::File, false);
    if !errors.is_empty() {
        crate::lexer::recycle(tokens);
        return Err(FormatError { errors });
    }
    // The tree is built one run of top-level items at a time, so that a
    // large file never holds its whole tree.
    let normalized = needs_tree.then(|| terraform::normalize_by_items(text, &tokens));
    let view = match normalized.filter(|n| n != text) {
        Some(normalized) => {
            // The tokens of the text are not needed to check the new one.
            crate::lexer::recycle(tokens);
            // The normalizations are built to keep the file valid; should
            // one ever not, the file keeps its original content.
            if crate::syntax_errors(&normalized).is_empty() {
                return Ok(Planned::Normalized(normalized));
            }
            tokens::TokenView::new_valid(text)
        }
        // Only the layout changes; the tokens are already there.
        None => {
            let view = tokens::TokenView::from_valid_tokens(text, &tokens);
            // Given back before the layout's own vectors are made.
            crate::lexer::recycle(tokens);
            view
        }
    };
    let mut layout = Layout::with_view(text, view);
    layout.format_all();
    Ok(Planned::Layout(layout))
}

/// The layout step of [`format_with`] alone: formats `text`, which must
/// have no syntax errors, from the tokens [`tokenize`](crate::lexer::tokenize)
/// gave for it (the parser's tokens). Exposed for benchmarks.
///
/// ```
/// let text = "a=1\n";
/// let tokens = hclwright::lexer::tokenize(text).tokens;
/// assert_eq!(hclwright::format::format_valid_tokens(text, &tokens), "a = 1\n");
/// ```
#[doc(hidden)]
pub fn format_valid_tokens(text: &str, tokens: &[crate::lexer::Token]) -> String {
    let mut layout = Layout::from_valid_tokens(text, tokens);
    layout.format_all();
    layout.render()
}

/// Which formatter to imitate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Profile {
    /// `hclwrite.Format` / `hclfmt`: layout only; accepts broken input.
    #[default]
    Hclfmt,
    /// `terraform fmt`: refuses broken input, then normalizes
    /// interpolation-only values, `variable` types and block labels before
    /// the layout.
    Terraform,
}

/// Options for [`format_with`].
///
/// ```
/// use hclwright::FormatOptions;
/// use hclwright::format::Profile;
/// assert_eq!(FormatOptions::default().profile, Profile::Hclfmt);
/// assert_eq!(FormatOptions::terraform().profile, Profile::Terraform);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FormatOptions {
    /// The formatter to imitate.
    pub profile: Profile,
    /// Refuse input with syntax errors (with the errors) instead of
    /// formatting it. Always on for [`Profile::Terraform`]; for
    /// [`Profile::Hclfmt`] off by default (upstream formats broken input
    /// too), on for a command-line tool that must never rewrite a broken
    /// file.
    pub refuse_syntax_errors: bool,
}

impl FormatOptions {
    /// The `hclfmt` layout (the default).
    pub fn hclfmt() -> FormatOptions {
        FormatOptions::with_profile(Profile::Hclfmt)
    }

    /// What `terraform fmt` does.
    pub fn terraform() -> FormatOptions {
        FormatOptions::with_profile(Profile::Terraform)
    }

    /// Options for `profile`.
    pub fn with_profile(profile: Profile) -> FormatOptions {
        FormatOptions {
            profile,
            refuse_syntax_errors: profile == Profile::Terraform,
        }
    }

    /// The same options, refusing input with syntax errors.
    ///
    /// ```
    /// use hclwright::{FormatOptions, format_with};
    /// let strict = FormatOptions::hclfmt().refusing_syntax_errors();
    /// assert!(format_with("a = [1,2\n", &strict).is_err());
    /// assert_eq!(format_with("a=1\n", &strict).unwrap(), "a = 1\n");
    /// ```
    pub fn refusing_syntax_errors(mut self) -> FormatOptions {
        self.refuse_syntax_errors = true;
        self
    }
}

/// Why [`format_with`] refused its input: the syntax errors, with their
/// positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    errors: Vec<SyntaxError>,
}

impl FormatError {
    /// The syntax errors, sorted by position (never empty).
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// Renders every error for a human, as `hclwright check` does:
    /// `path:line:col: message`, the source line and a caret.
    pub fn render(&self, path: &str, text: &str) -> String {
        self.errors.iter().map(|e| e.render(path, text)).collect()
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} syntax error", self.errors.len())?;
        if self.errors.len() != 1 {
            write!(f, "s")?;
        }
        for e in &self.errors {
            write!(f, "\n{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FormatError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_alone_is_not_a_difference() {
        assert!(same_but_whitespace("a = 1\n", "a=1"));
        assert!(same_but_whitespace("", " \t\r\n"));
        assert!(!same_but_whitespace("a = \"${x}\"\n", "a = x\n"));
        assert!(!same_but_whitespace("ab", "a"));
    }

    #[test]
    fn a_text_the_normalizations_change_is_not_formatted() {
        let options = FormatOptions::terraform();
        for text in [
            "a = \"${var.x}\"\n",
            "module foo {\n}\n",
            "variable \"v\" {\n  type = \"string\"\n}\n",
        ] {
            assert_eq!(is_formatted(text, &options), Ok(false), "{text:?}");
            assert_ne!(format_with(text, &options).unwrap(), text);
        }
    }
}
