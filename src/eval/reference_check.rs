//! Terraform's checks of the references in a module's expressions, made
//! before anything is evaluated: `local`, `var`, `path` and `terraform`
//! are reached only through an attribute (`local.name`, never `local` or
//! `local["name"]`), and the name must be one the module declares.

use super::diagnostic::Diagnostic;
use crate::ast::{AstNode, Expr};
use crate::refs::{StepKind, Traversal, references};
use text_size::TextRange;

/// The names a module declares, for the checks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Declared {
    /// The locals, sorted.
    pub(crate) locals: Vec<String>,
    /// The input variables, sorted.
    pub(crate) variables: Vec<String>,
}

/// The attributes of `path`, in the order Terraform suggests them.
const PATH_ATTRIBUTES: [&str; 3] = ["cwd", "module", "root"];

/// The problems Terraform reports for the references of `expr`, in source
/// order.
pub(crate) fn reference_problems(expr: &Expr, declared: &Declared) -> Vec<Diagnostic> {
    references(expr.syntax())
        .iter()
        .filter_map(|r| problem(&r.traversal, declared))
        .collect()
}

fn problem(t: &Traversal, declared: &Declared) -> Option<Diagnostic> {
    let root = t.root.as_str();
    if !matches!(root, "local" | "var" | "path" | "terraform") {
        return None;
    }
    // A splat or a computed index ends the traversal HCL sees.
    let first = t.steps.first().filter(|s| {
        !matches!(
            s.kind,
            StepKind::AttrSplat | StepKind::FullSplat | StepKind::DynamicIndex
        )
    });
    let Some(first) = first else {
        return Some(Diagnostic::new(
            "Invalid reference",
            format!(
                "The {root:?} object cannot be accessed directly. Instead, access one of its attributes."
            ),
            t.root_range,
        ));
    };
    let StepKind::Attr(name) = &first.kind else {
        return Some(Diagnostic::new(
            "Invalid reference",
            format!("The {root:?} object does not support this operation."),
            first.range,
        ));
    };
    let at = TextRange::new(t.root_range.start(), first.range.end());
    let did_you_mean = |names: &[&str]| {
        suggestion(name, names)
            .map(|s| format!(" Did you mean {s:?}?"))
            .unwrap_or_default()
    };
    match root {
        "local" if declared.locals.binary_search(name).is_err() => {
            let names: Vec<&str> = declared.locals.iter().map(String::as_str).collect();
            Some(Diagnostic::new(
                "Reference to undeclared local value",
                format!(
                    "A local value with the name {name:?} has not been declared.{}",
                    did_you_mean(&names)
                ),
                at,
            ))
        }
        "var" if declared.variables.binary_search(name).is_err() => {
            let names: Vec<&str> = declared.variables.iter().map(String::as_str).collect();
            let hint = match suggestion(name, &names) {
                Some(s) => format!(" Did you mean {s:?}?"),
                None => {
                    format!(" This variable can be declared with a variable {name:?} {{}} block.")
                }
            };
            Some(Diagnostic::new(
                "Reference to undeclared input variable",
                format!("An input variable with the name {name:?} has not been declared.{hint}"),
                at,
            ))
        }
        "path" if !PATH_ATTRIBUTES.contains(&name.as_str()) => Some(Diagnostic::new(
            "Invalid \"path\" attribute",
            format!(
                "The \"path\" object does not have an attribute named {name:?}.{}",
                did_you_mean(&PATH_ATTRIBUTES)
            ),
            at,
        )),
        "terraform" if !matches!(name.as_str(), "workspace" | "applying") => Some(Diagnostic::new(
            "Invalid \"terraform\" attribute",
            format!(
                "The \"terraform\" object does not have an attribute named {name:?}. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply."
            ),
            at,
        )),
        _ => None,
    }
}

/// The first of `names` within an edit distance of 2 of `given`, as
/// Terraform suggests names.
fn suggestion<'n>(given: &str, names: &[&'n str]) -> Option<&'n str> {
    names
        .iter()
        .copied()
        .find(|n| strsim::levenshtein(given, n) < 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(text: &str) -> Vec<String> {
        let parse = crate::parse_expr(text);
        let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
        let declared = Declared {
            locals: vec!["a".into(), "name".into()],
            variables: vec!["region".into()],
        };
        reference_problems(&expr, &declared)
            .iter()
            .map(|d| format!("{}: {} @{:?}", d.summary, d.detail, d.range))
            .collect()
    }

    #[test]
    fn shapes_and_names() {
        assert!(problems("local.a + var.region + path.module + terraform.workspace").is_empty());
        assert!(problems("[for local in [1] : local]").is_empty());
        assert_eq!(
            problems("local"),
            [
                "Invalid reference: The \"local\" object cannot be accessed directly. Instead, access one of its attributes. @0..5"
            ]
        );
        assert_eq!(
            problems("var[\"region\"]"),
            ["Invalid reference: The \"var\" object does not support this operation. @3..13"]
        );
        assert_eq!(
            problems("local.nme"),
            [
                "Reference to undeclared local value: A local value with the name \"nme\" has not been declared. Did you mean \"name\"? @0..9"
            ]
        );
        assert_eq!(
            problems("var.zone"),
            [
                "Reference to undeclared input variable: An input variable with the name \"zone\" has not been declared. This variable can be declared with a variable \"zone\" {} block. @0..8"
            ]
        );
        assert_eq!(
            problems("path.rot"),
            [
                "Invalid \"path\" attribute: The \"path\" object does not have an attribute named \"rot\". Did you mean \"root\"? @0..8"
            ]
        );
        assert_eq!(problems("keys(local)").len(), 1);
        assert_eq!(problems("local[*]").len(), 1);
    }
}
