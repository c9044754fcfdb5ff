//! Versions and version constraints as Terraform, its providers, modules
//! and Packer plugins write them (`"~> 4.0"`, `">= 1.5, < 2.0"`,
//! `"1.2.0-beta1"`), with the meaning Terraform gives them.

use std::cmp::Ordering;
use std::fmt;

/// A version: numeric segments (`1.2.3`; any number of them, missing ones
/// count as 0), an optional pre-release (`-beta1`) and build metadata
/// (`+abc`, ignored when comparing). A leading `v` is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    segments: Vec<u64>,
    pre: Option<String>,
    build: Option<String>,
}

impl Version {
    /// Parses `1.2.3`, `v1.2`, `1.2.0-beta1`, `1.0.0+build`. `None` for
    /// anything else.
    ///
    /// ```
    /// use hclwright::bump::Version;
    /// let v = Version::parse("v1.2.0-beta1").unwrap();
    /// assert_eq!((v.segments(), v.pre()), (&[1, 2, 0][..], Some("beta1")));
    /// assert!(Version::parse("1..2").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim();
        let text = text.strip_prefix('v').unwrap_or(text);
        let (rest, build) = match text.split_once('+') {
            Some((rest, build)) if !build.is_empty() => (rest, Some(build.to_string())),
            Some(_) => return None,
            None => (text, None),
        };
        let (numbers, pre) = match rest.split_once('-') {
            Some((numbers, pre)) if !pre.is_empty() => (numbers, Some(pre.to_string())),
            Some(_) => return None,
            None => (rest, None),
        };
        let segments = numbers
            .split('.')
            .map(|s| {
                if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                    None
                } else {
                    s.parse().ok()
                }
            })
            .collect::<Option<Vec<u64>>>()?;
        let valid_tag = |t: &Option<String>| {
            t.as_deref().is_none_or(|t| {
                t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
            })
        };
        (valid_tag(&pre) && valid_tag(&build)).then_some(Version {
            segments,
            pre,
            build,
        })
    }

    /// The numeric segments as written.
    pub fn segments(&self) -> &[u64] {
        &self.segments
    }

    /// The pre-release part, without its `-`.
    pub fn pre(&self) -> Option<&str> {
        self.pre.as_deref()
    }

    /// Segment `i`, 0 when not written.
    fn segment(&self, i: usize) -> u64 {
        self.segments.get(i).copied().unwrap_or(0)
    }

    /// The first `n` segments only (padded with 0), without pre-release or
    /// metadata: `5.31.0` to 2 segments is `5.31`.
    pub fn truncated(&self, n: usize) -> Version {
        Version {
            segments: (0..n.max(1)).map(|i| self.segment(i)).collect(),
            pre: None,
            build: None,
        }
    }
}

impl Ord for Version {
    /// Numeric segments first; a pre-release sorts before its release;
    /// pre-releases compare by their dot-separated identifiers (numbers
    /// numerically, below words); build metadata does not count.
    fn cmp(&self, other: &Version) -> Ordering {
        let n = self.segments.len().max(other.segments.len()).max(3);
        for i in 0..n {
            match self.segment(i).cmp(&other.segment(i)) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        match (&self.pre, &other.pre) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(a), Some(b)) => compare_pre(a, b),
        }
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn compare_pre(a: &str, b: &str) -> Ordering {
    let mut left = a.split('.');
    let mut right = b.split('.');
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    (Ok(_), Err(_)) => Ordering::Less,
                    (Err(_), Ok(_)) => Ordering::Greater,
                    (Err(_), Err(_)) => x.cmp(y),
                };
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.segments.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{s}")?;
        }
        if let Some(pre) = &self.pre {
            write!(f, "-{pre}")?;
        }
        if let Some(build) = &self.build {
            write!(f, "+{build}")?;
        }
        Ok(())
    }
}

/// A constraint's operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// `=` or none: exactly this version.
    Equal,
    /// `!=`: any other version.
    NotEqual,
    /// `>`.
    Greater,
    /// `>=`.
    GreaterOrEqual,
    /// `<`.
    Less,
    /// `<=`.
    LessOrEqual,
    /// `~>`: this version or a later one in which only the right-most
    /// written segment grew (`~> 4.0` is `>= 4.0, < 5.0`; `~> 4.0.1` is
    /// `>= 4.0.1, < 4.1.0`).
    Pessimistic,
}

/// One constraint: an operator, as written, and a version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    operator: Operator,
    /// The operator and the spaces after it, as written (`"~> "`, `">="`,
    /// `""`).
    written: String,
    version: Version,
}

impl Constraint {
    /// The operator.
    pub fn operator(&self) -> Operator {
        self.operator
    }

    /// The version.
    pub fn version(&self) -> &Version {
        &self.version
    }

    /// True when `version` satisfies the constraint. As Terraform (1.11)
    /// checks `required_version`: a pre-release satisfies only a constraint
    /// that names a pre-release of the same numeric version, and a
    /// constraint that names a pre-release is satisfied by pre-releases
    /// only (`>= 1.11.4-beta` refuses 1.11.4).
    pub fn allows(&self, version: &Version) -> bool {
        match (version.pre.is_some(), self.version.pre.is_some()) {
            (true, true) => {
                if (0..3).any(|i| version.segment(i) != self.version.segment(i)) {
                    return false;
                }
            }
            (true, false) | (false, true) => return false,
            (false, false) => {}
        }
        let order = version.cmp(&self.version);
        match self.operator {
            Operator::Equal => order == Ordering::Equal,
            Operator::NotEqual => order != Ordering::Equal,
            Operator::Greater => order == Ordering::Greater,
            Operator::GreaterOrEqual => order != Ordering::Less,
            Operator::Less => order == Ordering::Less,
            Operator::LessOrEqual => order != Ordering::Greater,
            Operator::Pessimistic => {
                let fixed = self.version.segments.len().saturating_sub(1);
                order != Ordering::Less
                    && (0..fixed).all(|i| version.segment(i) == self.version.segment(i))
            }
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.written, self.version)
    }
}

/// Constraints separated by commas, all of which must hold: the value of
/// `required_version`, of a provider's or module's `version`.
///
/// ```
/// use hclwright::bump::{Constraints, Version};
/// let c = Constraints::parse(">= 4.0, < 5.0, != 4.2.0").unwrap();
/// let v = |s| Version::parse(s).unwrap();
/// assert!(c.allows(&v("4.9.1")));
/// assert!(!c.allows(&v("4.2.0")) && !c.allows(&v("5.0.0")));
/// assert!(Constraints::parse("~> 4.0").unwrap().allows(&v("4.67.0")));
/// assert!(!Constraints::parse("~> 4.0.1").unwrap().allows(&v("4.1.0")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraints {
    constraints: Vec<Constraint>,
}

impl Constraints {
    /// Parses constraints; `None` when any part is not `OPERATOR VERSION`.
    pub fn parse(text: &str) -> Option<Constraints> {
        let constraints = text
            .split(',')
            .map(|part| {
                let part = part.trim();
                let operators = [
                    (">=", Operator::GreaterOrEqual),
                    ("<=", Operator::LessOrEqual),
                    ("!=", Operator::NotEqual),
                    ("~>", Operator::Pessimistic),
                    (">", Operator::Greater),
                    ("<", Operator::Less),
                    ("=", Operator::Equal),
                ];
                let (operator, rest) = operators
                    .iter()
                    .find_map(|(sign, op)| part.strip_prefix(sign).map(|rest| (*op, rest)))
                    .unwrap_or((Operator::Equal, part));
                let version_text = rest.trim_start();
                let written = part[..part.len() - version_text.len()].to_string();
                Some(Constraint {
                    operator,
                    written,
                    version: Version::parse(version_text)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Constraints { constraints })
    }

    /// The constraints, in order.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// True when `version` satisfies every constraint.
    pub fn allows(&self, version: &Version) -> bool {
        self.constraints.iter().all(|c| c.allows(version))
    }
}

impl fmt::Display for Constraints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.constraints.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// The result of [`bump`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bumped {
    /// The new constraint text.
    pub text: String,
    /// Whether the old operator was kept (`--keep-operator` on a single
    /// constraint).
    pub kept_operator: bool,
}

/// The constraint that takes `old`'s place when bumping to `version`.
///
/// By default, the version itself (`"~> 4.0"` becomes `"5.31.0"`: an exact
/// pin, as tfupdate writes). With `keep_operator`, a single constraint
/// keeps its operator, the spacing after it and its number of segments
/// (`"~> 4.0"` becomes `"~> 5.31"`, `">= 1.2.3"` becomes `">= 5.31.0"`);
/// several constraints (`">= 4.0, < 5.0"`) cannot be carried over one
/// version, and are replaced by the version.
///
/// ```
/// use hclwright::bump::{Version, bump};
/// let v = Version::parse("5.31.0").unwrap();
/// assert_eq!(bump("~> 4.0", &v, false).text, "5.31.0");
/// assert_eq!(bump("~> 4.0", &v, true).text, "~> 5.31");
/// assert_eq!(bump(">=4", &v, true).text, ">=5");
/// assert_eq!(bump(">= 4.0, < 5.0", &v, true).text, "5.31.0");
/// ```
pub fn bump(old: &str, version: &Version, keep_operator: bool) -> Bumped {
    let plain = Bumped {
        text: version.to_string(),
        kept_operator: false,
    };
    if !keep_operator {
        return plain;
    }
    match Constraints::parse(old) {
        Some(c) if c.constraints.len() == 1 => {
            let only = &c.constraints[0];
            let segments = only.version.segments.len();
            let new = if version.pre.is_some() || segments >= version.segments.len() {
                version.clone()
            } else {
                version.truncated(segments)
            };
            Bumped {
                text: format!("{}{new}", only.written),
                kept_operator: true,
            }
        }
        _ => plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    fn allows(c: &str, version: &str) -> bool {
        Constraints::parse(c).unwrap().allows(&v(version))
    }

    #[test]
    fn versions_order_as_terraform_orders_them() {
        assert!(v("1.2") == v("1.2").clone());
        assert_eq!(v("1.2").cmp(&v("1.2.0")), Ordering::Equal);
        assert!(v("1.10.0") > v("1.9.9"));
        assert!(v("1.0.0-beta1") < v("1.0.0"));
        assert!(v("1.0.0-alpha") < v("1.0.0-beta"));
        assert!(v("1.0.0-beta.2") < v("1.0.0-beta.10"));
        assert_eq!(v("1.0.0+a").cmp(&v("1.0.0+b")), Ordering::Equal);
        for bad in [
            "",
            "v",
            "1.",
            ".1",
            "1.a",
            "1.0-",
            "1.0+",
            "~1.0",
            "1.0.0-be ta",
        ] {
            assert!(Version::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn constraints_as_terraform_reads_them() {
        assert!(allows("~> 4.0", "4.0.0") && allows("~> 4.0", "4.99.1"));
        assert!(!allows("~> 4.0", "5.0.0") && !allows("~> 4.0", "3.9.0"));
        assert!(allows("~> 4.0.1", "4.0.9") && !allows("~> 4.0.1", "4.1.0"));
        assert!(allows("~> 1", "7.0.0"));
        assert!(allows("4.0.0", "4.0.0") && allows("= 4.0.0", "4.0.0"));
        assert!(!allows("!= 4.0.0", "4.0.0"));
        assert!(allows(">4, <=5", "5.0.0") && !allows(">4, <5", "5.0.0"));
        // A pre-release only for a constraint naming one of the same release.
        assert!(!allows(">= 1.0", "1.1.0-beta1"));
        assert!(allows(">= 1.1.0-alpha", "1.1.0-beta1"));
        assert!(!allows(">= 1.0.0-alpha", "1.1.0-beta1"));
        // Checked against Terraform 1.11.4 (`terraform init -backend=false`
        // in a folder whose `required_version` is the constraint): allowed
        // by `~> 1`, `~> 1.11.0`, `~> 1.10`; refused by `~> 1.10.0`,
        // `>= 1.12`, `!= 1.11.4`, `~> 1.11.4-beta`, `>= 1.11.4-beta`,
        // `~> 1.11.5-beta`.
        for (c, allowed) in [
            ("~> 1", true),
            ("~> 1.11.0", true),
            ("~> 1.10", true),
            ("~> 1.10.0", false),
            (">= 1.12", false),
            ("!= 1.11.4", false),
            ("~> 1.11.4-beta", false),
            (">= 1.11.4-beta", false),
            ("~> 1.11.5-beta", false),
        ] {
            assert_eq!(allows(c, "1.11.4"), allowed, "{c}");
        }
        assert!(Constraints::parse("~> 4.0, banana").is_none());
        assert_eq!(
            Constraints::parse(">=1.5,  < 2.0").unwrap().to_string(),
            ">=1.5, < 2.0"
        );
    }

    #[test]
    fn bumps_keep_or_drop_the_operator() {
        let new = v("5.31.0");
        assert_eq!(bump("~> 4.0", &new, true).text, "~> 5.31");
        assert_eq!(bump("~>4.0.1", &new, true).text, "~>5.31.0");
        assert_eq!(bump("4.0", &new, true).text, "5.31");
        assert_eq!(bump("= 4.0.0", &new, true).text, "= 5.31.0");
        assert_eq!(bump("~> 4.0.0.1", &new, true).text, "~> 5.31.0");
        assert_eq!(bump("~> 4.0", &v("5.0.0-rc1"), true).text, "~> 5.0.0-rc1");
        assert_eq!(bump("not a constraint", &new, true).text, "5.31.0");
        assert!(!bump("not a constraint", &new, true).kept_operator);
        assert_eq!(bump("~> 4.0", &new, false).text, "5.31.0");
    }
}
