//! Comment lines around a node: the comment lines directly above it
//! (siblings, or owned by the node), and whether an element ends a line.
//! [`Item`](super::Item) reads its comments with these.

use rowan::NodeOrToken;

use crate::syntax_kind::{SyntaxElement, SyntaxKind::*, SyntaxNode, SyntaxToken};

/// True when the element's text ends a line.
pub(crate) fn ends_line(element: &SyntaxElement) -> bool {
    match element {
        NodeOrToken::Token(t) => t.kind() == NEWLINE,
        NodeOrToken::Node(n) => n.last_token().is_some_and(|t| t.kind() == NEWLINE),
    }
}

/// The previous sibling, skipping spaces.
fn prev_non_space(e: &SyntaxElement) -> Option<SyntaxElement> {
    let mut p = e.prev_sibling_or_token();
    while let Some(x) = &p {
        if x.kind() != WHITESPACE {
            break;
        }
        p = x.prev_sibling_or_token();
    }
    p
}

/// Comment lines that are siblings right above `node` (no blank line in
/// between), top to bottom.
pub(crate) fn sibling_comment_lines(node: &SyntaxNode) -> Vec<SyntaxToken> {
    let mut out = Vec::new();
    let mut cursor: SyntaxElement = NodeOrToken::Node(node.clone());
    loop {
        // The end of the previous line.
        let Some(newline) = prev_non_space(&cursor) else {
            break;
        };
        if newline.kind() != NEWLINE {
            break;
        }
        let Some(NodeOrToken::Token(comment)) = prev_non_space(&newline) else {
            break;
        };
        if comment.kind() != COMMENT {
            break;
        }
        let before = prev_non_space(&NodeOrToken::Token(comment.clone()));
        if !before.as_ref().is_none_or(ends_line) {
            break;
        }
        out.push(comment.clone());
        cursor = NodeOrToken::Token(comment);
    }
    out.reverse();
    out
}

/// Comment tokens owned by the item's node before its first significant
/// child.
pub(crate) fn owned_above(node: &SyntaxNode) -> Vec<SyntaxToken> {
    node.children_with_tokens()
        .take_while(|e| matches!(e.kind(), WHITESPACE | NEWLINE | COMMENT))
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == COMMENT)
        .collect()
}
