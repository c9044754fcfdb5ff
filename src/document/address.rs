//! Addresses: paths to attributes, blocks and into values, in the syntax
//! of the `hcledit` tool, extended into objects and tuples.
//!
//! - `resource.aws_instance.web.ami`: a block type, then as many labels
//!   as the block has, nested blocks, then an attribute;
//! - `\.` escapes a dot inside a label (`module.my\.name`), `\\` a
//!   backslash;
//! - `*` matches any label (or any name, key or element);
//! - a label may also be written as a quoted key: `key[""]` (an empty
//!   label), `module["my.name"]`;
//! - into values: `.key` (object key), `[0]` (tuple element),
//!   `["key with spaces"]` (quoted object key).

use std::fmt;

use super::error::EditError;

/// One step of an [`Address`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A block type, a label, an attribute name or an object key.
    Name(String),
    /// `*`: anything at this step.
    Any,
    /// `[n]`: the `n`-th element of a tuple.
    Index(usize),
    /// `["key"]`: an object key (or a block label) written as a string.
    Key(String),
}

impl Step {
    /// True when the step matches the name or label `name`.
    pub(crate) fn matches_name(&self, name: &str) -> bool {
        match self {
            Step::Name(n) | Step::Key(n) => n == name,
            Step::Any => true,
            Step::Index(_) => false,
        }
    }
}

/// A parsed address.
///
/// ```
/// use hclwright::document::{Address, Step};
/// let a: Address = "module.vpc.azs[0]".parse().unwrap();
/// assert_eq!(
///     a.steps(),
///     [Step::Name("module".into()), Step::Name("vpc".into()), Step::Name("azs".into()), Step::Index(0)]
/// );
/// let b: Address = r#"locals.tags["Name"]"#.parse().unwrap();
/// assert_eq!(b.steps()[2], Step::Key("Name".into()));
/// let c: Address = r"module.my\.name.source".parse().unwrap();
/// assert_eq!(c.steps()[1], Step::Name("my.name".into()));
/// assert_eq!(c.to_string(), r"module.my\.name.source");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    steps: Vec<Step>,
}

impl Address {
    /// An address from steps.
    pub fn new(steps: Vec<Step>) -> Address {
        Address { steps }
    }

    /// The top level of a document: the address with no step, the parent
    /// of top-level attributes and blocks.
    ///
    /// ```
    /// use hclwright::document::Address;
    /// let mut doc = hclwright::Document::parse("a = 1\n").unwrap();
    /// doc.append_block(Address::root(), "output", &["a"], "value = a").unwrap();
    /// assert_eq!(doc.to_string(), "a = 1\n\noutput \"a\" {\n  value = a\n}\n");
    /// assert!(Address::root().is_root());
    /// ```
    pub fn root() -> Address {
        Address { steps: Vec::new() }
    }

    /// True for the top level ([`Address::root`]).
    pub fn is_root(&self) -> bool {
        self.steps.is_empty()
    }

    /// The steps in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// True when a step is `*`.
    pub fn has_wildcard(&self) -> bool {
        self.steps.contains(&Step::Any)
    }

    /// The address without its last step (`None` for an empty address).
    pub fn parent(&self) -> Option<(Address, &Step)> {
        let (last, rest) = self.steps.split_last()?;
        Some((Address::new(rest.to_vec()), last))
    }

    /// Parses an address, in the form described on [`Address`].
    pub fn parse(text: &str) -> Result<Address, EditError> {
        parse(text)
            .map(Address::new)
            .map_err(|reason| EditError::InvalidAddress {
                address: text.to_string(),
                reason,
            })
    }
}

impl std::str::FromStr for Address {
    type Err = EditError;
    fn from_str(s: &str) -> Result<Address, EditError> {
        Address::parse(s)
    }
}

/// Anything that names an address: a string in the address syntax, or
/// an [`Address`].
pub trait IntoAddress {
    /// The address, or why the text is not one.
    fn into_address(self) -> Result<Address, EditError>;

    /// The address as the parent of new content: as
    /// [`IntoAddress::into_address`], except that the empty string
    /// stands for the top level (the older spelling of
    /// [`Address::root`]).
    fn into_parent_address(self) -> Result<Address, EditError>
    where
        Self: Sized,
    {
        self.into_address()
    }
}

impl IntoAddress for &str {
    fn into_address(self) -> Result<Address, EditError> {
        Address::parse(self)
    }

    fn into_parent_address(self) -> Result<Address, EditError> {
        if self.is_empty() {
            return Ok(Address::root());
        }
        Address::parse(self)
    }
}

impl IntoAddress for &String {
    fn into_address(self) -> Result<Address, EditError> {
        Address::parse(self)
    }

    fn into_parent_address(self) -> Result<Address, EditError> {
        self.as_str().into_parent_address()
    }
}

impl IntoAddress for String {
    fn into_address(self) -> Result<Address, EditError> {
        Address::parse(&self)
    }

    fn into_parent_address(self) -> Result<Address, EditError> {
        self.as_str().into_parent_address()
    }
}

impl IntoAddress for Address {
    fn into_address(self) -> Result<Address, EditError> {
        Ok(self)
    }
}

impl IntoAddress for &Address {
    fn into_address(self) -> Result<Address, EditError> {
        Ok(self.clone())
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                // An empty name (a block label `""`) has only the quoted
                // form.
                Step::Name(n) if n.is_empty() => f.write_str("[\"\"]")?,
                Step::Name(n) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    for c in n.chars() {
                        match c {
                            '.' => f.write_str("\\.")?,
                            '\\' => f.write_str("\\\\")?,
                            '[' => f.write_str("\\[")?,
                            '*' => f.write_str("\\*")?,
                            _ => write!(f, "{c}")?,
                        }
                    }
                }
                Step::Any => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str("*")?;
                }
                Step::Index(n) => write!(f, "[{n}]")?,
                Step::Key(k) => {
                    f.write_str("[\"")?;
                    for c in k.chars() {
                        match c {
                            '"' => f.write_str("\\\"")?,
                            '\\' => f.write_str("\\\\")?,
                            '\n' => f.write_str("\\n")?,
                            '\t' => f.write_str("\\t")?,
                            '\r' => f.write_str("\\r")?,
                            _ => write!(f, "{c}")?,
                        }
                    }
                    f.write_str("\"]")?;
                }
            }
        }
        Ok(())
    }
}

/// The parser proper; errors are reasons.
fn parse(text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let mut chars = text.chars().peekable();
    let mut name = String::new();
    // True when a name is being read (after a dot, or at the start).
    let mut in_name = true;
    let mut escaped_name = false;
    let finish_name =
        |name: &mut String, escaped: &mut bool, steps: &mut Vec<Step>| -> Result<(), String> {
            if name.is_empty() {
                return Err("empty step".to_string());
            }
            if name == "*" && !*escaped {
                steps.push(Step::Any);
            } else {
                steps.push(Step::Name(std::mem::take(name)));
            }
            name.clear();
            *escaped = false;
            Ok(())
        };
    if text.is_empty() {
        return Err("empty address".to_string());
    }
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('.' | '\\' | '[' | '*')) => {
                    if !in_name {
                        return Err(format!("`\\{e}` after `]`: expected `.` or `[`"));
                    }
                    name.push(e);
                    escaped_name = true;
                }
                Some(other) => return Err(format!("unknown escape `\\{other}`")),
                None => return Err("`\\` at the end".to_string()),
            },
            '.' => {
                if in_name {
                    finish_name(&mut name, &mut escaped_name, &mut steps)?;
                }
                in_name = true;
            }
            '[' => {
                if in_name {
                    finish_name(&mut name, &mut escaped_name, &mut steps)?;
                }
                in_name = false;
                steps.push(bracket(&mut chars)?);
            }
            _ => {
                if !in_name {
                    return Err(format!("`{c}` after `]`: expected `.` or `[`"));
                }
                name.push(c);
            }
        }
    }
    if in_name {
        finish_name(&mut name, &mut escaped_name, &mut steps)?;
    }
    Ok(steps)
}

/// The inside of `[…]`, after the `[`.
fn bracket(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<Step, String> {
    let step = match chars.peek() {
        Some('"') => {
            chars.next();
            let mut key = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some('n') => key.push('\n'),
                        Some('t') => key.push('\t'),
                        Some('r') => key.push('\r'),
                        Some(c @ ('"' | '\\')) => key.push(c),
                        Some(c) => return Err(format!("unknown escape `\\{c}` in a key")),
                        None => return Err("unterminated key string".to_string()),
                    },
                    Some(c) => key.push(c),
                    None => return Err("unterminated key string".to_string()),
                }
            }
            Step::Key(key)
        }
        Some('*') => {
            chars.next();
            Step::Any
        }
        _ => {
            let mut digits = String::new();
            while let Some(c) = chars.peek().copied().filter(char::is_ascii_digit) {
                digits.push(c);
                chars.next();
            }
            let n = digits
                .parse::<usize>()
                .map_err(|_| "expected a number, `*` or a quoted key after `[`".to_string())?;
            Step::Index(n)
        }
    };
    match chars.next() {
        Some(']') => Ok(step),
        _ => Err("expected `]`".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<Step> {
        Address::parse(text).unwrap().steps
    }

    fn name(n: &str) -> Step {
        Step::Name(n.to_string())
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(steps("a"), [name("a")]);
        assert_eq!(steps("a.*.c"), [name("a"), Step::Any, name("c")]);
        assert_eq!(steps(r"a.\*"), [name("a"), name("*")]);
        assert_eq!(steps("a[2][*]"), [name("a"), Step::Index(2), Step::Any]);
        assert_eq!(
            steps(r#"a["x.y\"z"].b"#),
            [name("a"), Step::Key("x.y\"z".into()), name("b")]
        );
        assert_eq!(steps(r"a\\b"), [name(r"a\b")]);
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "", ".", "a.", "a..b", "a[", "a[x]", "a[1]b", r"a\", r"a\q", "a[\"x",
        ] {
            assert!(Address::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "a.b.c",
            r"module.my\.name",
            "a[0].b",
            r#"a["k y"]"#,
            "resource.*.web",
            r"x.\*",
        ] {
            let a = Address::parse(text).unwrap();
            assert_eq!(Address::parse(&a.to_string()).unwrap(), a, "{text}");
        }
        // An empty name is written as a quoted key, which parses.
        let empty = Address::new(vec![name("key"), name(""), name("policy")]);
        assert_eq!(empty.to_string(), r#"key[""].policy"#);
        assert_eq!(steps(&empty.to_string())[1], Step::Key(String::new()));
    }
}
