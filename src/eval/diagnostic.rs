//! Evaluation diagnostics: what went wrong, where, rendered like the
//! parser's errors (file:line:col, the line, a caret).

use crate::syntax_error::{SyntaxError, line_col};
use text_size::TextRange;

/// A problem found while evaluating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// A short title, as HCL words it (`Invalid index`, `Unknown variable`).
    pub summary: String,
    /// The explanation.
    pub detail: String,
    /// The culprit's byte range in the source text.
    pub range: TextRange,
    /// The enclosing expression's range, when it says more than `range`.
    pub context: Option<TextRange>,
}

impl Diagnostic {
    /// A diagnostic about `range`.
    pub fn new(summary: impl Into<String>, detail: impl Into<String>, range: TextRange) -> Self {
        Diagnostic {
            summary: summary.into(),
            detail: detail.into(),
            range,
            context: None,
        }
    }

    /// The diagnostic with an enclosing range.
    pub fn with_context(mut self, context: TextRange) -> Self {
        if context != self.range {
            self.context = Some(context);
        }
        self
    }

    /// `summary: detail`.
    pub fn message(&self) -> String {
        if self.detail.is_empty() {
            self.summary.clone()
        } else {
            format!("{}: {}", self.summary, self.detail)
        }
    }

    /// 1-based line and column (in characters) of the culprit in `text`.
    pub fn line_col(&self, text: &str) -> (u32, u32) {
        line_col(text, self.range.start())
    }

    /// `path:line:col: summary: detail`, then the line with a caret under
    /// the culprit.
    ///
    /// ```
    /// use hclwright::eval::{EvalContext, evaluate_str};
    /// let errors = evaluate_str("1 + x", &EvalContext::new()).unwrap_err();
    /// let shown = errors[0].render("<expr>", "1 + x");
    /// assert!(shown.starts_with("<expr>:1:5: Unknown variable"), "{shown}");
    /// ```
    pub fn render(&self, path: &str, text: &str) -> String {
        let (line, column) = self.line_col(text);
        SyntaxError {
            range: self.range,
            message: self.message(),
            line,
            column,
        }
        .render(path, text)
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}
