//! What a missing step of an address is, when [`Document::set`] creates
//! it: a block (with how many labels) or an attribute.
//!
//! HCL itself cannot tell: `tags.Name` may be inside an attribute
//! `tags = { Name = … }` or a block `tags { Name = … }`. The rule:
//!
//! - the block types below are created as blocks, their labels taken
//!   from the address's next steps;
//! - any other name is an attribute, and the steps after it are keys of
//!   nested objects (`tags = { Name = "web" }`), which is what `locals`,
//!   `tags`, module arguments, Terragrunt `inputs` and `.tfvars` files
//!   use.
//!
//! The known block types, by where they appear (number of labels in
//! parentheses):
//!
//! - top level: `terraform`, `resource` (2), `data` (2), `ephemeral` (2),
//!   `module` (1), `provider` (1), `variable` (1), `output` (1), `locals`,
//!   `moved`, `import`, `removed`, `check` (1); Packer `packer`, `source`
//!   (2), `build`; Terragrunt `remote_state`, `generate` (1),
//!   `dependency` (1), `dependencies`; Nomad `job` (1);
//! - in `terraform`: `required_providers`, `backend` (1), `cloud`,
//!   `provider_meta` (1); in `cloud`: `workspaces`;
//! - in any block: `lifecycle`, `provisioner` (1), `connection`,
//!   `dynamic` (1), `precondition`, `postcondition`, `meta`,
//!   `constraint`, `network`, `service`, `update`; in `dynamic`:
//!   `content`; in `variable`: `validation`; in `check`: `assert`,
//!   `data` (2);
//! - in Packer's `build`: `source` (1), `post-processor` (1),
//!   `post-processors`;
//! - Nomad: `group` (1) in `job`, `task` (1) in `group`, and `config`,
//!   `env`, `resources`, `template` in `task`.
//!
//! To create a block the list does not know, append it first with
//! [`Document::append_block`], then set what is inside.
//!
//! ```
//! use hclwright::document::schema::{Shape, shape};
//! assert_eq!(shape(None, "resource"), Shape::Block(2));
//! assert_eq!(shape(Some("terraform"), "required_providers"), Shape::Block(0));
//! assert_eq!(shape(Some("resource"), "tags"), Shape::Attribute);
//! ```
//!
//! [`Document::set`]: super::Document::set
//! [`Document::append_block`]: super::Document::append_block

/// The block types known by the context they appear in: the type of the
/// enclosing block (`""` for the top level, `"*"` for any block), the
/// type, and its number of labels.
const BLOCKS: &[(&str, &str, usize)] = &[
    // Terraform, the top level.
    ("", "terraform", 0),
    ("", "resource", 2),
    ("", "data", 2),
    ("", "ephemeral", 2),
    ("", "module", 1),
    ("", "provider", 1),
    ("", "variable", 1),
    ("", "output", 1),
    ("", "locals", 0),
    ("", "moved", 0),
    ("", "import", 0),
    ("", "removed", 0),
    ("", "check", 1),
    // Terraform, nested.
    ("terraform", "required_providers", 0),
    ("terraform", "backend", 1),
    ("terraform", "cloud", 0),
    ("terraform", "provider_meta", 1),
    ("cloud", "workspaces", 0),
    ("*", "lifecycle", 0),
    ("*", "provisioner", 1),
    ("*", "connection", 0),
    ("*", "dynamic", 1),
    ("dynamic", "content", 0),
    ("*", "precondition", 0),
    ("*", "postcondition", 0),
    ("variable", "validation", 0),
    ("check", "assert", 0),
    ("check", "data", 2),
    // Packer.
    ("", "packer", 0),
    ("", "source", 2),
    ("", "build", 0),
    ("build", "source", 1),
    ("build", "post-processor", 1),
    ("build", "post-processors", 0),
    // Terragrunt.
    ("", "remote_state", 0),
    ("", "generate", 1),
    ("", "dependency", 1),
    ("", "dependencies", 0),
    // Nomad.
    ("", "job", 1),
    ("job", "group", 1),
    ("group", "task", 1),
    ("task", "config", 0),
    ("task", "env", 0),
    ("task", "resources", 0),
    ("task", "template", 0),
    ("*", "meta", 0),
    ("*", "constraint", 0),
    ("*", "network", 0),
    ("*", "service", 0),
    ("*", "update", 0),
];

/// What to create for a missing step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A block with this many labels.
    Block(usize),
    /// An attribute (its value an object when steps follow).
    Attribute,
}

/// What a missing step `name` is created as inside a block of type
/// `parent` (`None` at the top level); see the [module docs](self).
pub fn shape(parent: Option<&str>, name: &str) -> Shape {
    let context = parent.unwrap_or("");
    let exact = BLOCKS.iter().find(|(c, n, _)| *c == context && *n == name);
    let any = || {
        BLOCKS
            .iter()
            .find(|(c, n, _)| *c == "*" && !context.is_empty() && *n == name)
    };
    match exact.or_else(any) {
        Some((_, _, labels)) => Shape::Block(*labels),
        None => Shape::Attribute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_blocks_and_attributes() {
        assert_eq!(shape(None, "resource"), Shape::Block(2));
        assert_eq!(shape(None, "tags"), Shape::Attribute);
        assert_eq!(
            shape(Some("terraform"), "required_providers"),
            Shape::Block(0)
        );
        assert_eq!(shape(Some("required_providers"), "aws"), Shape::Attribute);
        assert_eq!(shape(Some("resource"), "lifecycle"), Shape::Block(0));
        // `lifecycle` is not a top-level block.
        assert_eq!(shape(None, "lifecycle"), Shape::Attribute);
        assert_eq!(shape(Some("build"), "source"), Shape::Block(1));
        assert_eq!(shape(None, "source"), Shape::Block(2));
    }

    #[test]
    fn the_docs_list_every_known_block() {
        let docs: Vec<&str> = include_str!("schema.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("//!"))
            .flat_map(|l| l.split_whitespace())
            .collect();
        let docs = docs.join(" ");
        for (context, name, labels) in BLOCKS {
            let listed = if *labels == 0 {
                format!("`{name}`")
            } else {
                format!("`{name}` ({labels})")
            };
            assert!(docs.contains(&listed), "{context} {name}: not in the docs");
        }
    }
}
