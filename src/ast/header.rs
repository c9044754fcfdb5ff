//! A block's type and labels as plain strings (see [`BlockHeader`]).

use super::Block;

/// A block's type and decoded labels, read once, to compare and match as
/// `&str`:
///
/// ```
/// let parse = hclwright::parse("resource \"aws_instance\" \"web\" {}\nvariable \"region\" {}\n");
/// let mut seen = Vec::new();
/// for block in parse.body().unwrap().blocks() {
///     let header = block.header();
///     match (header.type_name(), header.labels().as_slice()) {
///         ("resource", [ty, name]) => seen.push(format!("{ty}.{name}")),
///         ("variable", [name]) => seen.push(format!("var.{name}")),
///         _ => {}
///     }
/// }
/// assert_eq!(seen, ["aws_instance.web", "var.region"]);
/// let first = parse.body().unwrap().blocks().next().unwrap().header();
/// assert!(first.is("resource", &["aws_instance", "web"]));
/// assert_eq!(first.label(1), Some("web"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BlockHeader {
    type_name: String,
    labels: Vec<String>,
}

impl BlockHeader {
    /// The block type (empty when the block has none, in broken input).
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// The labels, decoded (`"a\"b"` is `a"b`).
    pub fn labels(&self) -> Vec<&str> {
        self.labels.iter().map(String::as_str).collect()
    }

    /// The `index`-th label.
    pub fn label(&self, index: usize) -> Option<&str> {
        self.labels.get(index).map(String::as_str)
    }

    /// True for the block `type_name` with exactly `labels`.
    pub fn is(&self, type_name: &str, labels: &[&str]) -> bool {
        self.type_name == type_name
            && self
                .labels
                .iter()
                .map(String::as_str)
                .eq(labels.iter().copied())
    }
}

impl Block {
    /// The block's type and labels as strings (see [`BlockHeader`]).
    pub fn header(&self) -> BlockHeader {
        BlockHeader {
            type_name: self.type_name().unwrap_or_default(),
            labels: self.labels().map(|l| l.value()).collect(),
        }
    }
}
