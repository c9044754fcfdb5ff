//! Errors as data: diagnostics with 1-based positions and byte ranges.

use std::fmt;

use hclwright::eval::FileDiagnostic;
use hclwright::{EditError, SyntaxError};

/// One problem: where (1-based line and column, byte range) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column of `start`, in characters.
    pub column: u32,
    /// What is wrong.
    pub message: String,
    /// Byte offset where the culprit starts.
    pub start: u32,
    /// Byte offset where it ends.
    pub end: u32,
}

impl Diagnostic {
    /// A syntax error of the parser.
    pub fn from_syntax(e: &SyntaxError) -> Diagnostic {
        Diagnostic {
            line: e.line,
            column: e.column,
            message: e.message.clone(),
            start: e.range.start().into(),
            end: e.range.end().into(),
        }
    }

    /// An evaluation problem; one outside the expression itself (a module
    /// file, a variable's value) names its file in the message.
    pub fn from_eval(d: &FileDiagnostic) -> Diagnostic {
        let (line, column) = d.diagnostic.line_col(&d.text);
        let message = if d.path == hclwright::eval::EXPR_NAME {
            d.diagnostic.message()
        } else {
            format!("{}: {}", d.path, d.diagnostic.message())
        };
        Diagnostic {
            line,
            column,
            message,
            start: d.diagnostic.range.start().into(),
            end: d.diagnostic.range.end().into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input has syntax errors (listed as diagnostics).
    Syntax,
    /// An address, pattern, version or option is malformed.
    Usage,
    /// Nothing matches an address.
    NotFound,
    /// An edit is refused (ambiguous address, name clash, bad value…).
    Edit,
    /// An expression could not be evaluated (diagnostics say why).
    Eval,
    /// The input is not UTF-8.
    Encoding,
    /// A bug: the library panicked (the panic's message is kept).
    Internal,
}

/// A failure of a binding call: a message and, where the input was at
/// fault at known places, its diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// A one-line summary.
    pub message: String,
    /// The problems, by place (empty when the failure has no place).
    pub diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// An error without diagnostics.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            diagnostics: Vec::new(),
        }
    }

    /// The syntax errors of an input.
    pub fn syntax(errors: &[SyntaxError]) -> Error {
        Error {
            kind: ErrorKind::Syntax,
            message: format!("{} syntax error(s)", errors.len()),
            diagnostics: errors.iter().map(Diagnostic::from_syntax).collect(),
        }
    }

    /// Evaluation problems.
    pub fn eval(diagnostics: &[FileDiagnostic]) -> Error {
        Error {
            kind: ErrorKind::Eval,
            message: "the expression could not be evaluated".to_string(),
            diagnostics: diagnostics.iter().map(Diagnostic::from_eval).collect(),
        }
    }
}

impl From<EditError> for Error {
    fn from(e: EditError) -> Error {
        let kind = match &e {
            _ if e.is_not_found() => ErrorKind::NotFound,
            EditError::InvalidAddress { .. } => ErrorKind::Usage,
            _ => ErrorKind::Edit,
        };
        Error::new(kind, e.to_string())
    }
}

impl fmt::Display for Error {
    /// `line:column: message` lines, or the message when there are no
    /// diagnostics.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.diagnostics.is_empty() {
            return f.write_str(&self.message);
        }
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// The result of a binding call.
pub type Result<T> = std::result::Result<T, Error>;

/// Runs `body`, turning a panic into an [`ErrorKind::Internal`] error so
/// that none crosses into the host language.
pub fn guard<T>(body: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(Error::new(
                ErrorKind::Internal,
                format!("internal error (please report): {what}"),
            ))
        }
    }
}

/// Bytes as text; not UTF-8 is an [`ErrorKind::Encoding`] error naming
/// the first bad byte's place.
pub fn text_of(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let before = &bytes[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count() as u32
            + 1;
        Error {
            kind: ErrorKind::Encoding,
            message: "the input is not UTF-8".to_string(),
            diagnostics: vec![Diagnostic {
                line,
                column,
                message: format!("invalid UTF-8 byte 0x{:02x}", bytes[at]),
                start: at as u32,
                end: at as u32 + 1,
            }],
        }
    })
}
