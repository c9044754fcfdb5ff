//! Traversal patterns such as `var.region`, `module.vpc`,
//! `local.cfg[*].name`: what a prefix rename looks for and what it writes.

use std::fmt;
use std::str::FromStr;

use super::traversal::{IndexKey, StepKind, Traversal, escape_string, same_number};
use crate::ast::decode_quoted;

/// A step of a [`Pattern`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PatternStep {
    /// `.name`; matches `.name` and `["name"]`.
    Attr(String),
    /// `[0]` (or `.0`) matches `[0]` and the legacy `.0`; `["k"]` matches
    /// `["k"]` and `.k`.
    Index(IndexKey),
    /// `[*]` (or `.*`): matches any index — literal or computed — and any
    /// splat, but not an attribute.
    Any,
}

impl PatternStep {
    /// True when the pattern step matches a step of a traversal.
    pub fn matches(&self, step: &StepKind) -> bool {
        match (self, step) {
            (PatternStep::Any, kind) => !matches!(kind, StepKind::Attr(_)),
            (PatternStep::Attr(name), kind)
            | (PatternStep::Index(IndexKey::String(name)), kind) => match kind {
                StepKind::Attr(n) => n == name,
                StepKind::Index(IndexKey::String(s)) => s == name,
                _ => false,
            },
            (PatternStep::Index(IndexKey::Number(n)), kind) => match kind {
                StepKind::Index(IndexKey::Number(m)) | StepKind::LegacyIndex(m) => {
                    same_number(n, m)
                }
                _ => false,
            },
        }
    }

    /// True when two pattern steps match the same steps (`.a` and
    /// `["a"]`, `[1]` and `[01]`).
    pub fn equivalent(&self, other: &PatternStep) -> bool {
        match (self.key_name(), other.key_name()) {
            (Some(a), Some(b)) => a == b,
            _ => match (self, other) {
                (PatternStep::Any, PatternStep::Any) => true,
                (PatternStep::Index(a), PatternStep::Index(b)) => a.same_key(b),
                _ => false,
            },
        }
    }

    /// The name for `.name` and `["name"]`.
    fn key_name(&self) -> Option<&str> {
        match self {
            PatternStep::Attr(n) | PatternStep::Index(IndexKey::String(n)) => Some(n),
            _ => None,
        }
    }
}

impl fmt::Display for PatternStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternStep::Attr(n) => write!(f, ".{n}"),
            PatternStep::Index(IndexKey::Number(n)) => write!(f, "[{n}]"),
            PatternStep::Index(IndexKey::String(s)) => write!(f, "[\"{}\"]", escape_string(s)),
            PatternStep::Any => f.write_str("[*]"),
        }
    }
}

/// A traversal pattern: a root name and steps, written as in HCL —
/// `var.region`, `module.vpc`, `aws_instance.web`, `local.cfg[*].name`,
/// `var.list[0]`, `var.map["key"]`. `[*]` (or `.*`) matches any index or
/// splat.
///
/// A pattern matches a traversal when it is a prefix of it, step by step.
///
/// ```
/// use hclwright::refs::{Pattern, references};
/// let pattern: Pattern = "local.cfg[*].name".parse().unwrap();
/// let parse = hclwright::parse_expr("local.cfg[count.index].name");
/// let refs = references(&parse.syntax());
/// assert!(pattern.matches(&refs[0].traversal));
/// assert!(!pattern.matches(&refs[1].traversal)); // count.index
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    root: String,
    steps: Vec<PatternStep>,
}

impl Pattern {
    /// A pattern from its parts. `root` must be an identifier.
    pub fn new(root: &str, steps: Vec<PatternStep>) -> Result<Pattern, PatternError> {
        if !is_identifier(root) {
            return Err(PatternError::new(
                0,
                format!("`{root}` is not an identifier"),
            ));
        }
        check_root(root)?;
        Ok(Pattern {
            root: root.to_string(),
            steps,
        })
    }

    /// The root name.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// The steps after the root.
    pub fn steps(&self) -> &[PatternStep] {
        &self.steps
    }

    /// Number of `[*]` steps.
    pub fn wildcards(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, PatternStep::Any))
            .count()
    }

    /// True when the pattern is a prefix of `traversal`.
    pub fn matches(&self, traversal: &Traversal) -> bool {
        traversal.root == self.root
            && traversal.steps.len() >= self.steps.len()
            && self
                .steps
                .iter()
                .zip(&traversal.steps)
                .all(|(p, s)| p.matches(&s.kind))
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.root)?;
        for step in &self.steps {
            write!(f, "{step}")?;
        }
        Ok(())
    }
}

/// Why a pattern could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// Byte offset in the pattern text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl PatternError {
    pub(crate) fn new(offset: usize, message: impl Into<String>) -> PatternError {
        PatternError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for PatternError {}

impl FromStr for Pattern {
    type Err = PatternError;

    /// Reads `root(.name | .N | .* | [N] | ["key"] | [*])*`, without
    /// spaces.
    fn from_str(text: &str) -> Result<Pattern, PatternError> {
        let mut reader = Reader { text, pos: 0 };
        let root = reader
            .identifier()
            .ok_or_else(|| PatternError::new(0, "a pattern starts with a name, such as `var`"))?;
        check_root(root)?;
        let mut steps = Vec::new();
        while !reader.at_end() {
            steps.push(reader.step()?);
        }
        Ok(Pattern {
            root: root.to_string(),
            steps,
        })
    }
}

/// `true`, `false` and `null` are keywords: a traversal cannot start at
/// them.
fn check_root(root: &str) -> Result<(), PatternError> {
    if matches!(root, "true" | "false" | "null") {
        return Err(PatternError::new(
            0,
            format!("`{root}` is a keyword, not a variable"),
        ));
    }
    Ok(())
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn error(&self, message: impl Into<String>) -> PatternError {
        PatternError::new(self.pos, message)
    }

    fn identifier(&mut self) -> Option<&'a str> {
        let len = identifier_len(self.rest());
        (len > 0).then(|| {
            let id = &self.rest()[..len];
            self.pos += len;
            id
        })
    }

    fn digits(&mut self) -> Option<&'a str> {
        let len = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        (len > 0).then(|| {
            let d = &self.rest()[..len];
            self.pos += len;
            d
        })
    }

    fn step(&mut self) -> Result<PatternStep, PatternError> {
        if self.eat(".") {
            if self.eat("*") {
                return Ok(PatternStep::Any);
            }
            if let Some(d) = self.digits() {
                return Ok(PatternStep::Index(IndexKey::Number(d.to_string())));
            }
            return self
                .identifier()
                .map(|id| PatternStep::Attr(id.to_string()))
                .ok_or_else(|| self.error("expected a name, a number or `*` after `.`"));
        }
        if self.eat("[") {
            let step = if self.eat("*") {
                PatternStep::Any
            } else if let Some(d) = self.digits() {
                PatternStep::Index(IndexKey::Number(d.to_string()))
            } else if self.rest().starts_with('"') {
                PatternStep::Index(IndexKey::String(self.string()?))
            } else {
                return Err(self.error("expected a number, a quoted key or `*` after `[`"));
            };
            if !self.eat("]") {
                return Err(self.error("expected `]`"));
            }
            return Ok(step);
        }
        Err(self.error(format!(
            "expected `.` or `[`, found `{}`",
            self.rest().chars().next().unwrap_or(' ')
        )))
    }

    /// A quoted key without interpolation; returns its decoded value.
    fn string(&mut self) -> Result<String, PatternError> {
        let start = self.pos + 1;
        let bytes = self.text.as_bytes();
        let mut i = start;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => {
                    let raw = &self.text[start..i];
                    self.pos = i + 1;
                    return Ok(decode_quoted(raw));
                }
                b'$' | b'%'
                    if bytes.get(i + 1) == Some(&bytes[i]) && bytes.get(i + 2) == Some(&b'{') =>
                {
                    i += 3
                }
                b'$' | b'%' if bytes.get(i + 1) == Some(&b'{') => {
                    return Err(PatternError::new(
                        i,
                        "a key in a pattern cannot be a template",
                    ));
                }
                _ => i += 1,
            }
        }
        Err(self.error("unterminated string"))
    }
}

/// The length of the HCL identifier at the start of `s` (0 if none):
/// a letter, `_` or Unicode ID_Start character, then letters, digits,
/// `_`, `-` or Unicode ID_Continue characters.
fn identifier_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if c.is_ascii_alphabetic() || c == '_' || crate::lexer::is_id_start(c) => {}
        _ => return 0,
    }
    for (i, c) in chars {
        if !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || crate::lexer::is_id_continue(c)) {
            return i;
        }
    }
    s.len()
}

/// True when `s` is a whole HCL identifier.
///
/// ```
/// assert!(hclwright::refs::is_identifier("aws_instance"));
/// assert!(hclwright::refs::is_identifier("my-name"));
/// assert!(!hclwright::refs::is_identifier("1st"));
/// assert!(!hclwright::refs::is_identifier("a.b"));
/// ```
pub fn is_identifier(s: &str) -> bool {
    !s.is_empty() && identifier_len(s) == s.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Pattern {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn reads_every_step_form() {
        let p = parse(r#"local.cfg[*].name[0]["k\"q"].3.*"#);
        assert_eq!(p.root(), "local");
        assert_eq!(
            p.steps(),
            [
                PatternStep::Attr("cfg".into()),
                PatternStep::Any,
                PatternStep::Attr("name".into()),
                PatternStep::Index(IndexKey::Number("0".into())),
                PatternStep::Index(IndexKey::String("k\"q".into())),
                PatternStep::Index(IndexKey::Number("3".into())),
                PatternStep::Any,
            ]
        );
        assert_eq!(p.to_string(), r#"local.cfg[*].name[0]["k\"q"][3][*]"#);
    }

    #[test]
    fn rejects_malformed_patterns() {
        for (bad, offset) in [
            ("", 0),
            ("null.x", 0),
            ("true", 0),
            ("1a", 0),
            ("var.", 4),
            ("var..a", 4),
            ("var[", 4),
            ("var[0", 5),
            ("var[x]", 4),
            ("var a", 3),
            (r#"var["${x}"]"#, 5),
            (r#"var["open"#, 4),
        ] {
            let err = bad.parse::<Pattern>().unwrap_err();
            assert_eq!(err.offset, offset, "{bad:?}: {err}");
        }
    }

    #[test]
    fn escaped_template_sequences_are_literal_keys() {
        let p = parse(r#"var["$${x}"]"#);
        assert_eq!(
            p.steps(),
            [PatternStep::Index(IndexKey::String("${x}".into()))]
        );
    }

    #[test]
    fn attribute_and_string_key_are_equivalent() {
        assert!(
            PatternStep::Attr("a".into())
                .equivalent(&PatternStep::Index(IndexKey::String("a".into())))
        );
        assert!(!PatternStep::Attr("a".into()).equivalent(&PatternStep::Any));
        assert!(
            PatternStep::Index(IndexKey::Number("1".into()))
                .equivalent(&PatternStep::Index(IndexKey::Number("01".into())))
        );
    }
}
