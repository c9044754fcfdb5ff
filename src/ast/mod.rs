//! Typed views over the syntax tree.
//!
//! Each view wraps a [`SyntaxNode`] of one kind and offers accessors by
//! role (`name()`, `expr()`, `labels()`, `condition()`), never by child
//! position. Views are cheap to create and to clone.
//!
//! ```
//! use hclwright::ast::{AstNode, Expr};
//! let parse = hclwright::parse("resource \"aws_instance\" \"web\" {\n  ami = var.ami\n}\n");
//! let body = parse.body().unwrap();
//! let block = body.blocks().next().unwrap();
//! assert_eq!(block.type_name().unwrap(), "resource");
//! let labels: Vec<_> = block.labels().map(|l| l.value()).collect();
//! assert_eq!(labels, ["aws_instance", "web"]);
//! let ami = block.body().unwrap().attribute("ami").unwrap();
//! assert!(matches!(ami.expr(), Some(Expr::GetAttr(_))));
//! ```

mod expr;
mod header;
mod structure;
mod template;

pub use expr::*;
pub use header::BlockHeader;
pub use structure::*;
pub use template::*;

use crate::syntax_kind::{SyntaxKind, SyntaxNode, SyntaxToken};

/// A typed view over a syntax node of a particular kind.
pub trait AstNode: Sized {
    /// True if nodes of `kind` can be viewed as `Self`.
    fn can_cast(kind: SyntaxKind) -> bool;
    /// Views `node` as `Self` if its kind fits.
    fn cast(node: SyntaxNode) -> Option<Self>;
    /// The underlying node.
    fn syntax(&self) -> &SyntaxNode;
}

/// Declares a view struct for one node kind and lists every view, so a
/// test can check that each node kind has one.
macro_rules! nodes {
    ($( $(#[$meta:meta])* $name:ident => $kind:ident ),* $(,)?) => {
        $(
            $(#[$meta])*
            #[derive(Clone, Debug, PartialEq, Eq, Hash)]
            pub struct $name(SyntaxNode);

            impl AstNode for $name {
                fn can_cast(kind: SyntaxKind) -> bool {
                    kind == SyntaxKind::$kind
                }
                fn cast(node: SyntaxNode) -> Option<Self> {
                    Self::can_cast(node.kind()).then(|| $name(node))
                }
                fn syntax(&self) -> &SyntaxNode {
                    &self.0
                }
            }

            impl std::fmt::Display for $name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    std::fmt::Display::fmt(&self.0, f)
                }
            }
        )*

        /// The node kind of every view.
        #[cfg(test)]
        pub(crate) fn view_kinds() -> Vec<SyntaxKind> {
            vec![$(SyntaxKind::$kind),*]
        }

        /// True if the view for `node`'s kind accepts it.
        #[cfg(test)]
        pub(crate) fn view_accepts(node: &SyntaxNode) -> bool {
            match node.kind() {
                $(SyntaxKind::$kind => $name::cast(node.clone()).is_some(),)*
                _ => false,
            }
        }
    };
}

nodes! {
    /// The root of a parsed file.
    ConfigFile => CONFIG_FILE,
    /// The root of a standalone expression.
    ExprRoot => EXPR_ROOT,
    /// The root of a standalone template.
    TemplateRoot => TEMPLATE_ROOT,
    /// Attributes and blocks of a file or a block.
    Body => BODY,
    /// `name = expr`.
    Attribute => ATTRIBUTE,
    /// `type "label" { … }`.
    Block => BLOCK,
    /// A block label, bare or quoted.
    BlockLabel => BLOCK_LABEL,
    /// `1`, `true`, `false`, `null`.
    Literal => LITERAL,
    /// A variable reference.
    Variable => VARIABLE,
    /// `"…"`.
    QuotedTemplate => QUOTED_TEMPLATE,
    /// `<<EOT … EOT`.
    HeredocTemplate => HEREDOC_TEMPLATE,
    /// `[a, b]`.
    Tuple => TUPLE,
    /// `{ k = v }`.
    Object => OBJECT,
    /// One item of an object.
    ObjectItem => OBJECT_ITEM,
    /// The key of an object item.
    ObjectKey => OBJECT_KEY,
    /// `f(args)`.
    FunctionCall => FUNCTION_CALL,
    /// The parenthesised arguments of a call.
    ArgList => ARG_LIST,
    /// `[for …]` / `{for …}`.
    ForExpr => FOR_EXPR,
    /// `for k, v in coll:`.
    ForIntro => FOR_INTRO,
    /// `if cond` in a for expression.
    ForCond => FOR_COND,
    /// `expr.name`.
    GetAttr => GET_ATTR,
    /// `expr[key]` or `expr.0`.
    Index => INDEX,
    /// `expr.*` / `expr[*]`.
    Splat => SPLAT,
    /// `(expr)`.
    Paren => PAREN,
    /// `-x`, `!x`.
    Unary => UNARY,
    /// `a op b`.
    Binary => BINARY,
    /// `c ? a : b`.
    Conditional => CONDITIONAL,
    /// `${ expr }`.
    Interpolation => INTERPOLATION,
    /// `%{ if } … %{ endif }`.
    TemplateIf => TEMPLATE_IF,
    /// `%{ for } … %{ endfor }`.
    TemplateFor => TEMPLATE_FOR,
    /// `%{ if cond }`.
    IfDirective => IF_DIRECTIVE,
    /// `%{ else }`.
    ElseDirective => ELSE_DIRECTIVE,
    /// `%{ endif }`.
    EndifDirective => ENDIF_DIRECTIVE,
    /// `%{ for … }`.
    ForDirective => FOR_DIRECTIVE,
    /// `%{ endfor }`.
    EndforDirective => ENDFOR_DIRECTIVE,
    /// Tokens the parser could not place.
    ErrorNode => ERROR,
}

// ----- helpers shared by the views -----

// These look at the kinds in the green tree and make a syntax node only
// for the child they return: walking `children()` makes one for every
// child passed over (a block's attributes to find its body, an
// attribute's name and value to find its `=`).

/// The first child node viewable as `N`.
pub(crate) fn child<N: AstNode>(node: &SyntaxNode) -> Option<N> {
    node.first_child_by_kind(&N::can_cast).and_then(N::cast)
}

/// The child nodes whose kind `matches`, in order.
pub(crate) fn child_nodes<F: Fn(SyntaxKind) -> bool>(
    node: &SyntaxNode,
    matches: F,
) -> impl Iterator<Item = SyntaxNode> + use<F> {
    let first = node.first_child_by_kind(&matches);
    std::iter::successors(first, move |n| n.next_sibling_by_kind(&matches))
}

/// All child nodes viewable as `N`.
pub(crate) fn children<N: AstNode>(node: &SyntaxNode) -> impl Iterator<Item = N> + use<N> {
    child_nodes(node, N::can_cast).filter_map(N::cast)
}

/// The kinds and texts of the direct child tokens of a green node, read
/// without making a syntax token for each (for walks over many nodes).
pub(crate) fn green_tokens(
    green: &rowan::GreenNodeData,
) -> impl Iterator<Item = (SyntaxKind, &str)> {
    use rowan::Language;
    green.children().filter_map(|c| match c {
        rowan::NodeOrToken::Token(t) => Some((
            crate::syntax_kind::HclLanguage::kind_from_raw(t.kind()),
            t.text(),
        )),
        rowan::NodeOrToken::Node(_) => None,
    })
}

/// The first direct child token of `kind`.
pub(crate) fn token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.first_child_token_by_kind(&|k| k == kind)
}

/// Direct child expressions, in order.
pub(crate) fn exprs(node: &SyntaxNode) -> impl Iterator<Item = Expr> + use<> {
    children::<Expr>(node)
}

/// Comment tokens that come before the first direct child token of kind
/// `anchor` (the comment lines above an item).
pub(crate) fn leading_comments(node: &SyntaxNode, anchor: SyntaxKind) -> Vec<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .take_while(|t| t.kind() != anchor)
        .filter(|t| t.kind() == SyntaxKind::COMMENT)
        .collect()
}

/// The comment on the item's last line: a direct child comment token after
/// the last significant child and before the final newline.
pub(crate) fn trailing_comment(node: &SyntaxNode) -> Option<SyntaxToken> {
    let mut last_comment = None;
    for e in node
        .children_with_tokens()
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        match e.kind() {
            SyntaxKind::NEWLINE | SyntaxKind::WHITESPACE => {}
            SyntaxKind::COMMENT => last_comment = e.into_token(),
            _ => break,
        }
    }
    last_comment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_kind_has_a_view() {
        let views = view_kinds();
        for kind in SyntaxKind::all().filter(|k| !k.is_token() && !k.is_json()) {
            assert!(views.contains(&kind), "no view for {kind:?}");
        }
        for kind in SyntaxKind::all().filter(|k| k.is_expr()) {
            assert!(Expr::can_cast(kind), "Expr does not cover {kind:?}");
        }
    }

    /// The `for` variables read from the green tree are the tokens'
    /// (`key_and_value` of `for_vars`), for whole and broken intros.
    #[test]
    fn for_variables_from_the_green_tree_are_the_tokens() {
        let mut checked = 0;
        let mut check = |intro: ForIntro, text: &str| {
            let tokens = key_and_value(for_vars(intro.syntax()));
            let texts = (
                tokens.0.as_ref().map(|t| t.text()),
                tokens.1.as_ref().map(|t| t.text()),
            );
            assert_eq!(green_for_vars(intro.syntax().green()), texts, "{text}");
            checked += 1;
        };
        for text in [
            "[for v in x : v]",
            "[for k, v in x : v]",
            "{for k, v in x : k => v}",
            "[for a, b, c in x : a]",
            "[for in x : 1]",
            "[for k, in x : 1]",
            "[for v x : v]",
            "[for for in x : 1]",
            "[for k, v in in : 1]",
        ] {
            let parse = crate::parse_expr(text);
            for intro in parse.syntax().descendants().filter_map(ForIntro::cast) {
                check(intro, text);
            }
        }
        each_fixture_node(|path, node| {
            if let Some(intro) = ForIntro::cast(node) {
                check(intro, &path.display().to_string());
            }
        });
        // More than two names, which the parser never leaves in an intro
        // (it ends the intro at the second), built by hand.
        for names in [&["a", "b", "c"][..], &["a", "b", "c", "d"], &["x"], &[]] {
            use rowan::Language;
            let raw = crate::syntax_kind::HclLanguage::kind_to_raw;
            let mut builder = rowan::GreenNodeBuilder::new();
            builder.start_node(raw(SyntaxKind::FOR_INTRO));
            for text in std::iter::once(&"for").chain(names).chain([&"in", &"x"]) {
                builder.token(raw(SyntaxKind::IDENT), text);
            }
            builder.finish_node();
            let intro = ForIntro::cast(SyntaxNode::new_root(builder.finish())).unwrap();
            check(intro, &names.join(", "));
        }
        assert!(checked > 20, "{checked}");
    }

    /// Calls `check` with every node of every parser fixture's tree (and
    /// the fixture's path).
    fn each_fixture_node(mut check: impl FnMut(&std::path::Path, SyntaxNode)) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/parser");
        for dir in ["ok", "err"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                for node in crate::parse(&text).syntax().descendants() {
                    check(&path, node);
                }
            }
        }
    }

    /// Every node of every parser fixture's tree is accepted by the view
    /// for its kind.
    #[test]
    fn views_accept_every_node_of_the_fixtures() {
        let mut nodes = 0;
        each_fixture_node(|path, node| {
            assert!(view_accepts(&node), "{path:?}: {:?}", node.kind());
            nodes += 1;
        });
        assert!(nodes > 1000, "only {nodes} nodes");
    }

    /// The lookups by kind in the green tree (`child`, `children`,
    /// `token`, the body's items) find what walks over every child find,
    /// at the same places, on every node of the parser fixtures.
    #[test]
    fn lookups_by_kind_find_what_walks_find() {
        let kinds: Vec<SyntaxKind> = SyntaxKind::all().collect();
        let mut found = 0;
        each_fixture_node(|path, node| {
            let walked: Vec<Expr> = node.children().filter_map(Expr::cast).collect();
            let looked_up: Vec<Expr> = exprs(&node).collect();
            assert_eq!(walked, looked_up, "{path:?}: {node:?}");
            assert_eq!(child::<Expr>(&node), walked.first().cloned());
            let bodies: Vec<Body> = node.children().filter_map(Body::cast).collect();
            assert_eq!(children::<Body>(&node).collect::<Vec<_>>(), bodies);
            if let Some(body) = Body::cast(node.clone()) {
                let items: Vec<SyntaxNode> = node
                    .children()
                    .filter(|n| matches!(n.kind(), SyntaxKind::ATTRIBUTE | SyntaxKind::BLOCK))
                    .collect();
                let by_kind: Vec<SyntaxNode> = body.items().map(|i| i.syntax().clone()).collect();
                assert_eq!(items, by_kind, "{path:?}");
            }
            for &kind in &kinds {
                let walked = node
                    .children_with_tokens()
                    .filter_map(|e| e.into_token())
                    .find(|t| t.kind() == kind);
                found += usize::from(walked.is_some());
                assert_eq!(token(&node, kind), walked, "{path:?}: {kind:?}");
            }
        });
        assert!(found > 1000, "only {found} tokens");
    }
}
