//! Views of expressions.

use super::{
    ArgList, AstNode, Binary, Conditional, ForCond, ForExpr, ForIntro, FunctionCall, GetAttr,
    HeredocTemplate, Index, Literal, Object, ObjectItem, ObjectKey, Paren, QuotedTemplate, Splat,
    Tuple, Unary, Variable, child, children, exprs, green_tokens, token, trailing_comment,
};
use crate::syntax_kind::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

macro_rules! expr_enum {
    ($($variant:ident),* $(,)?) => {
        /// Any expression.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Expr {
            $(
                #[doc = concat!("A [`", stringify!($variant), "`] expression.")]
                $variant($variant),
            )*
        }

        impl AstNode for Expr {
            fn can_cast(kind: SyntaxKind) -> bool {
                false $(|| $variant::can_cast(kind))*
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                let kind = node.kind();
                $(
                    if $variant::can_cast(kind) {
                        return $variant::cast(node).map(Expr::$variant);
                    }
                )*
                None
            }
            fn syntax(&self) -> &SyntaxNode {
                match self {
                    $(Expr::$variant(it) => it.syntax(),)*
                }
            }
        }
    };
}

expr_enum!(
    Literal,
    Variable,
    QuotedTemplate,
    HeredocTemplate,
    Tuple,
    Object,
    FunctionCall,
    ForExpr,
    GetAttr,
    Index,
    Splat,
    Paren,
    Unary,
    Binary,
    Conditional,
);

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.syntax(), f)
    }
}

/// The value of a literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralValue {
    /// A number, as its exact decimal text.
    Number(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

impl Literal {
    /// The literal's token.
    pub fn token(&self) -> Option<SyntaxToken> {
        self.0
            .first_child_token_by_kind(&|k| matches!(k, NUMBER | IDENT))
    }

    /// The literal's value.
    pub fn value(&self) -> Option<LiteralValue> {
        let t = self.token()?;
        Some(match (t.kind(), t.text()) {
            (NUMBER, text) => LiteralValue::Number(text.to_string()),
            (_, "true") => LiteralValue::Bool(true),
            (_, "false") => LiteralValue::Bool(false),
            (_, "null") => LiteralValue::Null,
            _ => return None,
        })
    }
}

/// The name of a `VARIABLE` node read from its green node: a variable is
/// its one identifier token, so this is its text, without making syntax
/// tokens (for walks over many nodes, such as every local of a module).
pub(crate) fn green_variable_name(green: &rowan::GreenNodeData) -> Option<&str> {
    green_tokens(green).find_map(|(kind, text)| (kind == IDENT).then_some(text))
}

impl Variable {
    /// The name token.
    pub fn name_token(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }

    /// The variable's name.
    pub fn name(&self) -> Option<String> {
        self.name_token().map(|t| t.text().to_string())
    }
}

impl Tuple {
    /// The elements in order.
    pub fn elements(&self) -> impl Iterator<Item = Expr> + use<> {
        exprs(&self.0)
    }
}

impl Object {
    /// The items in order.
    pub fn items(&self) -> impl Iterator<Item = ObjectItem> + use<> {
        children(&self.0)
    }
}

impl ObjectItem {
    /// The key.
    pub fn key(&self) -> Option<ObjectKey> {
        child(&self.0)
    }

    /// The `=` or `:` between key and value.
    pub fn separator(&self) -> Option<SyntaxToken> {
        self.0
            .first_child_token_by_kind(&|k| matches!(k, EQ | COLON))
    }

    /// The value.
    pub fn value(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// The comma after the item, if any.
    pub fn comma(&self) -> Option<SyntaxToken> {
        token(&self.0, COMMA)
    }

    /// The comment lines directly above the item.
    pub fn leading_comments(&self) -> Vec<SyntaxToken> {
        let key_start = self.key().map(|k| k.syntax().text_range().start());
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .take_while(|t| Some(t.text_range().start()) < key_start)
            .filter(|t| t.kind() == COMMENT)
            .collect()
    }

    /// The comment at the end of the item's line.
    pub fn trailing_comment(&self) -> Option<SyntaxToken> {
        trailing_comment(&self.0)
    }
}

impl ObjectKey {
    /// The key expression.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// For a bare identifier key (`{ foo = 1 }`), its name: such a key is a
    /// literal name, not a variable reference.
    pub fn bare_name(&self) -> Option<String> {
        match self.expr()? {
            Expr::Variable(v) => v.name(),
            _ => None,
        }
    }

    /// The key as a literal string, when it is one: a bare identifier or a
    /// quoted string without interpolation.
    pub fn literal_name(&self) -> Option<String> {
        match self.expr()? {
            Expr::Variable(v) => v.name(),
            Expr::QuotedTemplate(t) => t.literal_value(),
            _ => None,
        }
    }
}

impl FunctionCall {
    /// The name, namespaces included (`provider::aws::arn_parse`).
    pub fn name(&self) -> String {
        green_tokens(self.0.green())
            .filter(|(kind, _)| matches!(kind, IDENT | COLON2))
            .map(|(_, text)| text)
            .collect()
    }

    /// The name tokens (namespaces, then the function name).
    pub fn name_tokens(&self) -> Vec<SyntaxToken> {
        self.0
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == IDENT)
            .collect()
    }

    /// The argument list.
    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.0)
    }

    /// The arguments in order.
    pub fn args(&self) -> Vec<Expr> {
        self.arg_list()
            .map(|a| a.args().collect())
            .unwrap_or_default()
    }
}

impl ArgList {
    /// The arguments in order.
    pub fn args(&self) -> impl Iterator<Item = Expr> + use<> {
        exprs(&self.0)
    }

    /// True when the last argument is expanded with `...`.
    pub fn has_ellipsis(&self) -> bool {
        token(&self.0, ELLIPSIS).is_some()
    }
}

impl ForExpr {
    /// True for `{for …}` (an object), false for `[for …]` (a tuple).
    pub fn is_object(&self) -> bool {
        self.0.first_token().is_some_and(|t| t.kind() == L_BRACE)
    }

    /// `for k, v in coll:`.
    pub fn intro(&self) -> Option<ForIntro> {
        child(&self.0)
    }

    /// The key (or index) variable, when two variables are declared.
    pub fn key_var(&self) -> Option<SyntaxToken> {
        self.intro()?.key_var()
    }

    /// The value variable.
    pub fn value_var(&self) -> Option<SyntaxToken> {
        self.intro()?.value_var()
    }

    /// The collection iterated over.
    pub fn collection(&self) -> Option<Expr> {
        self.intro()?.collection()
    }

    /// In an object `for`, the expression before `=>`.
    pub fn key_expr(&self) -> Option<Expr> {
        if !self.is_object() {
            return None;
        }
        let arrow = token(&self.0, FAT_ARROW)?;
        exprs(&self.0).find(|e| e.syntax().text_range().end() <= arrow.text_range().start())
    }

    /// The element expression (tuple `for`) or the value expression after
    /// `=>` (object `for`).
    pub fn value_expr(&self) -> Option<Expr> {
        match token(&self.0, FAT_ARROW) {
            Some(arrow) if self.is_object() => {
                exprs(&self.0).find(|e| e.syntax().text_range().start() >= arrow.text_range().end())
            }
            _ => exprs(&self.0).next(),
        }
    }

    /// True for grouping mode (`...` after the value).
    pub fn is_grouping(&self) -> bool {
        token(&self.0, ELLIPSIS).is_some()
    }

    /// The `if` clause.
    pub fn cond(&self) -> Option<ForCond> {
        child(&self.0)
    }

    /// The condition after `if`.
    pub fn condition(&self) -> Option<Expr> {
        self.cond()?.condition()
    }
}

/// The key and value variables of one or two declared after `for`.
pub(crate) fn key_and_value(vars: Vec<SyntaxToken>) -> (Option<SyntaxToken>, Option<SyntaxToken>) {
    let key = (vars.len() == 2).then(|| vars[0].clone());
    (key, vars.last().cloned())
}

/// The key and value variables' names of a `for` intro, read from its
/// green node as [`key_and_value`] of [`for_vars`] gives them.
pub(crate) fn green_for_vars(intro: &rowan::GreenNodeData) -> (Option<&str>, Option<&str>) {
    let mut names = green_tokens(intro)
        .filter(|(kind, _)| *kind == IDENT)
        .map(|(_, text)| text)
        .skip_while(|text| *text != "for")
        .skip(1)
        .take_while(|text| *text != "in");
    // A key only when exactly two are declared; the value is the last.
    match (names.next(), names.next(), names.last()) {
        (only, None, _) => (None, only),
        (key, Some(value), None) => (key, Some(value)),
        (_, Some(_), last) => (None, last),
    }
}

/// The variable tokens declared after `for` (one or two).
pub(crate) fn for_vars(node: &SyntaxNode) -> Vec<SyntaxToken> {
    let mut vars = Vec::new();
    let mut seen_for = false;
    for t in node.children_with_tokens().filter_map(|e| e.into_token()) {
        if t.kind() != IDENT {
            continue;
        }
        if !seen_for {
            seen_for = t.text() == "for";
            continue;
        }
        if t.text() == "in" {
            break;
        }
        vars.push(t);
    }
    vars
}

impl ForIntro {
    /// The variables declared (one or two).
    pub fn vars(&self) -> Vec<SyntaxToken> {
        for_vars(&self.0)
    }

    /// The key variable, when two are declared.
    pub fn key_var(&self) -> Option<SyntaxToken> {
        key_and_value(self.vars()).0
    }

    /// The value variable (the only one, or the second).
    pub fn value_var(&self) -> Option<SyntaxToken> {
        key_and_value(self.vars()).1
    }

    /// The collection.
    pub fn collection(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl ForCond {
    /// The condition.
    pub fn condition(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl GetAttr {
    /// The expression whose attribute is taken.
    pub fn target(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// The attribute name token.
    pub fn name_token(&self) -> Option<SyntaxToken> {
        token(&self.0, IDENT)
    }

    /// The attribute name.
    pub fn name(&self) -> Option<String> {
        self.name_token().map(|t| t.text().to_string())
    }
}

impl Index {
    /// The indexed expression.
    pub fn target(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// The key inside `[ ]` (`None` for the legacy `.0` form).
    pub fn key(&self) -> Option<Expr> {
        exprs(&self.0).nth(1)
    }

    /// For the legacy form `expr.0`, the number token.
    pub fn legacy_index(&self) -> Option<SyntaxToken> {
        token(&self.0, NUMBER)
    }

    /// True for the legacy `expr.0` form.
    pub fn is_legacy(&self) -> bool {
        token(&self.0, DOT).is_some()
    }
}

impl Splat {
    /// The splatted expression.
    pub fn target(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// True for the full splat `[*]`, false for the attribute-only `.*`.
    pub fn is_full(&self) -> bool {
        token(&self.0, L_BRACK).is_some()
    }
}

impl Paren {
    /// The wrapped expression.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl Unary {
    /// The operator token (`-` or `!`).
    pub fn op(&self) -> Option<SyntaxToken> {
        self.0
            .first_child_token_by_kind(&|k| matches!(k, MINUS | BANG))
    }

    /// The operand.
    pub fn operand(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl Binary {
    /// The left operand.
    pub fn lhs(&self) -> Option<Expr> {
        exprs(&self.0).next()
    }

    /// The operator token.
    pub fn op(&self) -> Option<SyntaxToken> {
        self.0
            .first_child_token_by_kind(&|k| k.is_binary_operator())
    }

    /// The right operand.
    pub fn rhs(&self) -> Option<Expr> {
        exprs(&self.0).nth(1)
    }
}

impl Conditional {
    /// The predicate before `?`.
    pub fn condition(&self) -> Option<Expr> {
        exprs(&self.0).next()
    }

    /// The result when the predicate is true.
    pub fn true_expr(&self) -> Option<Expr> {
        exprs(&self.0).nth(1)
    }

    /// The result when the predicate is false.
    pub fn false_expr(&self) -> Option<Expr> {
        exprs(&self.0).nth(2)
    }
}
