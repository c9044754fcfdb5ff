//! Walking a tree for references, with the scopes of `for` variables.
//!
//! The walk is rowan's iterative preorder, so it needs no recursion however
//! deep the tree is. A stack of frames holds the names bound by the `for`
//! expressions and template `for` directives around the current node: a
//! frame is pushed when the walk enters a part of a `for` that sees its
//! variables (everything except the `for … in collection` header, whose
//! collection is evaluated outside), and popped when it leaves it.

use rowan::WalkEvent;
use text_size::TextRange;

use super::{Binding, Reference, Traversal};
use crate::ast::{AstNode, ForDirective, ForIntro};
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode, SyntaxToken};

/// Names bound by one `for`: `(name, range of the declaring token)`.
type Frame = Vec<(String, TextRange)>;

/// The references under `root`, in source order. Uses of `for`-bound
/// variables are included (as [`Binding::Local`]) only when
/// `include_local`.
pub(crate) fn collect(root: &SyntaxNode, include_local: bool) -> Vec<Reference> {
    let mut frames: Vec<Frame> = enclosing_frames(root);
    let mut out = Vec::new();
    for event in root.preorder() {
        match event {
            WalkEvent::Enter(node) => {
                if let Some(frame) = frame_opened_by(&node) {
                    frames.push(frame);
                }
                if node.kind() != VARIABLE || is_bare_object_key(&node) || is_type_keyword(&node) {
                    continue;
                }
                let Some(traversal) = Traversal::from_variable(&node) else {
                    continue;
                };
                let binding = lookup(&frames, &traversal.root);
                if binding.is_local() && !include_local {
                    continue;
                }
                out.push(Reference { traversal, binding });
            }
            WalkEvent::Leave(node) => {
                if opens_frame(&node) {
                    frames.pop();
                }
            }
        }
    }
    out
}

/// The innermost binding of `name`.
fn lookup(frames: &[Frame], name: &str) -> Binding {
    frames
        .iter()
        .rev()
        .find_map(|frame| frame.iter().find(|(n, _)| n == name))
        .map_or(Binding::Free, |(_, declaration)| Binding::Local {
            declaration: *declaration,
        })
}

/// The frames of the `for`s around `node` (outermost first), for walks
/// that start inside one.
fn enclosing_frames(node: &SyntaxNode) -> Vec<Frame> {
    // `node` itself is entered by the walk, which pushes its own frame.
    let mut frames: Vec<Frame> = node
        .ancestors()
        .skip(1)
        .filter_map(|n| frame_opened_by(&n))
        .collect();
    frames.reverse();
    frames
}

/// True when `node` is a part of a `for` that sees the `for`'s variables.
fn opens_frame(node: &SyntaxNode) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    match parent.kind() {
        FOR_EXPR => node.kind() != FOR_INTRO,
        TEMPLATE_FOR => !matches!(node.kind(), FOR_DIRECTIVE | ENDFOR_DIRECTIVE),
        _ => false,
    }
}

/// The variables visible in `node` because of its parent `for`, if any.
fn frame_opened_by(node: &SyntaxNode) -> Option<Frame> {
    if !opens_frame(node) {
        return None;
    }
    let parent = node.parent()?;
    let vars: Vec<SyntaxToken> = match parent.kind() {
        FOR_EXPR => parent
            .children()
            .find_map(ForIntro::cast)
            .map(|intro| intro.vars())
            .unwrap_or_default(),
        _ => parent
            .children()
            .find_map(ForDirective::cast)
            .map(|d| d.vars())
            .unwrap_or_default(),
    };
    Some(
        vars.into_iter()
            .map(|t| (t.text().to_string(), t.text_range()))
            .collect(),
    )
}

/// A keyword of a Terraform type constraint (`string` in `type =
/// list(string)` of a `variable` block) names a type; it is not a
/// reference. The default of `optional(TYPE, DEFAULT)` is a value, not a
/// type. `node` is a `VARIABLE`.
fn is_type_keyword(node: &SyntaxNode) -> bool {
    const KEYWORDS: &[&str] = &[
        "string", "number", "bool", "any", "list", "map", "set", "tuple", "object",
    ];
    if !crate::ast::green_variable_name(node.green()).is_some_and(|n| KEYWORDS.contains(&n)) {
        return false;
    }
    let mut child = node.clone();
    for ancestor in node.ancestors().skip(1) {
        match ancestor.kind() {
            FUNCTION_CALL => {
                let call = crate::ast::FunctionCall::cast(ancestor.clone());
                let in_default = call.is_some_and(|c| {
                    c.name() == "optional"
                        && c.args()
                            .iter()
                            .skip(1)
                            .any(|a| a.syntax().text_range().contains_range(child.text_range()))
                });
                if in_default {
                    return false;
                }
            }
            ATTRIBUTE => {
                let named_type = crate::ast::Attribute::cast(ancestor.clone())
                    .and_then(|a| a.name())
                    .is_some_and(|n| n == "type");
                let in_variable = ancestor
                    .parent()
                    .and_then(|body| body.parent())
                    .and_then(crate::ast::Block::cast)
                    .and_then(|b| b.type_name())
                    .is_some_and(|t| t == "variable");
                return named_type && in_variable;
            }
            BLOCK => return false,
            _ => {}
        }
        child = ancestor;
    }
    false
}

/// A bare identifier used as an object key (`{ foo = 1 }`) names the key;
/// it is not a variable reference.
fn is_bare_object_key(node: &SyntaxNode) -> bool {
    node.parent().is_some_and(|p| p.kind() == OBJECT_KEY)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str, include_local: bool) -> Vec<String> {
        let parse = crate::parse_expr(text);
        assert!(parse.errors().is_empty(), "{:?}", parse.errors());
        collect(&parse.syntax(), include_local)
            .into_iter()
            .map(|r| match r.binding {
                Binding::Free => r.traversal.to_string(),
                Binding::Local { .. } => format!("local {}", r.traversal),
            })
            .collect()
    }

    #[test]
    fn for_variables_are_local_in_body_not_in_collection() {
        assert_eq!(
            shown("[for x in x.items : x.id if x.ok]", true),
            ["x.items", "local x.id", "local x.ok"]
        );
        assert_eq!(shown("[for x in x.items : x.id]", false), ["x.items"]);
    }

    #[test]
    fn walk_starting_inside_a_for_knows_its_variables() {
        let parse = crate::parse_expr("[for k, v in m : v.name]");
        let body = parse
            .syntax()
            .descendants()
            .find(|n| n.kind() == GET_ATTR)
            .unwrap();
        let refs = collect(&body, true);
        assert_eq!(refs.len(), 1);
        assert!(refs[0].binding.is_local());
    }
}
