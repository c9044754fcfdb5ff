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
    if all_known(expr.syntax(), declared) {
        return Vec::new();
    }
    problems_of_every_reference(expr, declared)
}

/// The problems of `expr`, from every reference the full walk finds (for
/// an expression [`known_use`] did not pass everywhere).
pub(crate) fn problems_of_every_reference(expr: &Expr, declared: &Declared) -> Vec<Diagnostic> {
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
        "local" if !is_known(root, name, declared) => {
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
        "var" if !is_known(root, name, declared) => {
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
        "path" if !is_known(root, name, declared) => Some(Diagnostic::new(
            "Invalid \"path\" attribute",
            format!(
                "The \"path\" object does not have an attribute named {name:?}.{}",
                did_you_mean(&PATH_ATTRIBUTES)
            ),
            at,
        )),
        "terraform" if !is_known(root, name, declared) => Some(Diagnostic::new(
            "Invalid \"terraform\" attribute",
            format!(
                "The \"terraform\" object does not have an attribute named {name:?}. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply."
            ),
            at,
        )),
        _ => None,
    }
}

/// True when `root.name` is something that exists: a declared local or
/// input variable, an attribute of `path` or of `terraform`. Other roots
/// are not checked here.
fn is_known(root: &str, name: &str, declared: &Declared) -> bool {
    match root {
        "local" => declared_index(&declared.locals, name).is_some(),
        "var" => declared_index(&declared.variables, name).is_some(),
        "path" => PATH_ATTRIBUTES.contains(&name),
        "terraform" => matches!(name, "workspace" | "applying"),
        _ => true,
    }
}

/// The index of `name` in the sorted `names` (`Declared::locals` or
/// `Declared::variables`).
pub(crate) fn declared_index(names: &[String], name: &str) -> Option<u32> {
    names
        .binary_search_by(|n| n.as_str().cmp(name))
        .ok()
        .map(|i| i as u32)
}

/// True when `root` can have no problem: every `local`, `var`, `path` and
/// `terraform` under it is followed by `.NAME`, a name [`is_known`].
///
/// Read from the green tree, without making a syntax node or a
/// [`Traversal`] for every reference: a module's expressions nearly always
/// pass, and the full walk ([`references`]) then runs only for the few
/// that do not. A `for` binding one of the four names can only hide a
/// problem the full walk would report, so it is not looked at here.
fn all_known(root: &crate::SyntaxNode, declared: &Declared) -> bool {
    let mut known = true;
    crate::model::each_variable_under(root, |name, parent| {
        known &= known_use(name, parent, declared);
    });
    known
}

/// True when the variable `name`, under `parent`, can have no problem: it
/// is not one of the four checked roots, or it is a bare object key, or it
/// is followed by `.NAME`, a name [`is_known`]. A step of [`all_known`]'s
/// walk.
fn known_use(name: &str, parent: Option<&rowan::GreenNodeData>, declared: &Declared) -> bool {
    !matches!(classify_use(name, parent, declared), Use::Problem)
}

/// What a use of the variable `name` under `parent` (from
/// `model::each_variable_under`) is: one that can have no problem, a
/// declared local or variable (which one), or a problem.
pub(crate) enum Use {
    /// Nothing that can have a problem (another root, an object key, a
    /// known attribute of `path` or `terraform`).
    Fine,
    /// `local.NAME` or `var.NAME` of a declared name: its index in
    /// `Declared::locals` or `Declared::variables`.
    Declared(u32),
    /// A problem the full reference walk reports.
    Problem,
}

/// Classifies a use of `name` under `parent` (see [`Use`]): one lookup
/// of the name both judges the use and finds the declaration.
pub(crate) fn classify_use(
    name: &str,
    parent: Option<&rowan::GreenNodeData>,
    declared: &Declared,
) -> Use {
    use crate::syntax_kind::{HclLanguage, SyntaxKind::OBJECT_KEY};
    use rowan::Language;
    if !matches!(name, "local" | "var" | "path" | "terraform") {
        return Use::Fine;
    }
    let Some(parent) = parent else {
        return Use::Problem;
    };
    if HclLanguage::kind_from_raw(parent.kind()) == OBJECT_KEY {
        return Use::Fine;
    }
    let Some(attr) = crate::model::attribute_after(parent) else {
        return Use::Problem;
    };
    let found = match name {
        "local" => declared_index(&declared.locals, attr),
        "var" => declared_index(&declared.variables, attr),
        _ => {
            return if is_known(name, attr, declared) {
                Use::Fine
            } else {
                Use::Problem
            };
        }
    };
    found.map_or(Use::Problem, Use::Declared)
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
        assert_eq!(problems("{ (local) = 1 }").len(), 1);
        assert!(problems("{ local = 1, var = 2 }").is_empty());
        assert!(problems("[for var in [1] : var.zone]").is_empty());
        assert_eq!(problems("[for v in [1] : var.zone]").len(), 1);
        assert_eq!(
            problems("\"${local.a}-%{ if var.zone }x%{ endif }\"").len(),
            1
        );
    }

    /// The green check passes no expression in which the full walk finds a
    /// problem, and nearly every one in which it finds none: every
    /// attribute's expression in the fixtures and in the corpus
    /// (`HCLWRIGHT_CORPUS`), with every name the file references declared,
    /// then with every other name left out.
    #[test]
    fn green_check_agrees_with_the_full_walk() {
        let mut texts = crate::corpus::fixture_texts();
        if let Some(corpus) = crate::corpus::texts("the reference checks over the corpus") {
            texts.extend(corpus.into_iter().map(|(_, t)| t));
        }
        let (mut clean, mut passed) = (0usize, 0usize);
        for text in &texts {
            let parse = crate::parse(text);
            let mut names: [Vec<String>; 2] = Default::default();
            for r in references(&parse.syntax()) {
                let slot = match r.traversal.root.as_str() {
                    "local" => 0,
                    "var" => 1,
                    _ => continue,
                };
                if let Some(StepKind::Attr(name)) = r.traversal.steps.first().map(|s| &s.kind) {
                    names[slot].push(name.to_string());
                }
            }
            for n in &mut names {
                n.sort();
                n.dedup();
            }
            let every = Declared {
                locals: names[0].clone(),
                variables: names[1].clone(),
            };
            let every_other = |n: &[String]| n.iter().step_by(2).cloned().collect::<Vec<_>>();
            let some = Declared {
                locals: every_other(&names[0]),
                variables: every_other(&names[1]),
            };
            let values = parse
                .syntax()
                .descendants()
                .filter_map(crate::ast::Attribute::cast)
                .filter_map(|a| a.expr());
            for expr in values {
                for declared in [&every, &some] {
                    let full = problems_of_every_reference(&expr, declared);
                    if all_known(expr.syntax(), declared) {
                        assert!(full.is_empty(), "{expr}: {full:?}");
                        passed += 1;
                    }
                    clean += usize::from(full.is_empty());
                }
            }
        }
        assert!(clean > 0);
        assert!(
            passed * 100 >= clean * 99,
            "the green check passes {passed} of the {clean} expressions without a problem"
        );
        eprintln!("the green check passes {passed} of the {clean} expressions without a problem");
    }
}
