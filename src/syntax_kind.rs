//! The kinds of tokens and nodes in an HCL syntax tree, and the rowan
//! [`Language`](rowan::Language) that ties them to the tree types.

/// Every kind of token (leaves) and node (branches) in the syntax tree.
///
/// Tokens come first, then nodes; [`SyntaxKind::is_token`] tells them apart.
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum SyntaxKind {
    // ----- trivia -----
    /// A run of spaces and tabs.
    WHITESPACE = 0,
    /// `\n` or `\r\n`.
    NEWLINE,
    /// `# …`, `// …` (without the newline) or `/* … */`.
    COMMENT,
    /// A UTF-8 byte order mark at the very start of the text.
    BOM,

    // ----- atoms -----
    /// An identifier (also keywords such as `for`, `in`, `true`).
    IDENT,
    /// A numeric literal.
    NUMBER,

    // ----- punctuation -----
    /// `{`
    L_BRACE,
    /// `}`
    R_BRACE,
    /// `[`
    L_BRACK,
    /// `]`
    R_BRACK,
    /// `(`
    L_PAREN,
    /// `)`
    R_PAREN,
    /// `=`
    EQ,
    /// `==`
    EQ2,
    /// `!=`
    NEQ,
    /// `<`
    LT,
    /// `>`
    GT,
    /// `<=`
    LTEQ,
    /// `>=`
    GTEQ,
    /// `+`
    PLUS,
    /// `-`
    MINUS,
    /// `*`
    STAR,
    /// `/`
    SLASH,
    /// `%`
    PERCENT,
    /// `&&`
    AMP2,
    /// `||`
    PIPE2,
    /// `!`
    BANG,
    /// `?`
    QUESTION,
    /// `:`
    COLON,
    /// `::`
    COLON2,
    /// `.`
    DOT,
    /// `...`
    ELLIPSIS,
    /// `,`
    COMMA,
    /// `=>`
    FAT_ARROW,

    // ----- templates -----
    /// The `"` that opens a quoted template.
    OPEN_QUOTE,
    /// The `"` that closes a quoted template.
    CLOSE_QUOTE,
    /// Literal text inside a quoted template, heredoc or bare template (escapes
    /// not yet decoded). In a heredoc each line is its own token, newline
    /// included.
    TEMPLATE_LITERAL,
    /// `${` or `${~`.
    INTERP_START,
    /// `%{` or `%{~`.
    DIRECTIVE_START,
    /// `}` or `~}` closing an interpolation or directive.
    TEMPLATE_SEQ_END,
    /// `<<ID` or `<<-ID` with the newline that follows it.
    HEREDOC_START,
    /// The closing marker line of a heredoc, with its indentation, without
    /// the newline.
    HEREDOC_END,
    /// A newline inside a quoted template (only in the upstream-compatible
    /// token stream used by the formatter; the tree ends the string there).
    QUOTED_NEWLINE,

    /// A JSON string, quotes included (JSON syntax only).
    JSON_STRING,
    /// A JSON number (JSON syntax only).
    JSON_NUMBER,
    /// A word in JSON: `true`, `false`, `null`, or an invalid one (JSON
    /// syntax only).
    JSON_WORD,

    /// A character that cannot start any token.
    ERROR_TOKEN,

    // ----- nodes -----
    /// The root of a parsed configuration file: an optional [`BOM`](Self::BOM) and a [`BODY`](Self::BODY).
    CONFIG_FILE,
    /// The root of a standalone expression ([`crate::parse_expr`]).
    EXPR_ROOT,
    /// The root of a standalone template ([`crate::parse_template`]).
    TEMPLATE_ROOT,
    /// The attributes, blocks, blank lines and detached comments of a file or block.
    BODY,
    /// `name = expr` with its comment lines above, same-line comment and newline.
    ATTRIBUTE,
    /// `type label… { body }` with its comments and newline.
    BLOCK,
    /// A block label: an identifier or a quoted string.
    BLOCK_LABEL,

    /// `1`, `true`, `false`, `null`.
    LITERAL,
    /// A variable reference such as `var`.
    VARIABLE,
    /// `"…"`
    QUOTED_TEMPLATE,
    /// `<<EOT … EOT`
    HEREDOC_TEMPLATE,
    /// `[a, b]`
    TUPLE,
    /// `{ k = v }`
    OBJECT,
    /// One `key = value` of an object, with its comma, comments and newline.
    OBJECT_ITEM,
    /// The key of an object item.
    OBJECT_KEY,
    /// `f(args)` or `provider::ns::f(args)`.
    FUNCTION_CALL,
    /// `(a, b...)` of a function call.
    ARG_LIST,
    /// `[for …]` or `{for …}`.
    FOR_EXPR,
    /// `for k, v in coll:` of a for expression.
    FOR_INTRO,
    /// `if cond` of a for expression.
    FOR_COND,
    /// `expr.name`
    GET_ATTR,
    /// `expr[key]` or the legacy `expr.0`.
    INDEX,
    /// `expr.*` or `expr[*]`.
    SPLAT,
    /// `(expr)`
    PAREN,
    /// `-expr`, `!expr`
    UNARY,
    /// `lhs op rhs`
    BINARY,
    /// `cond ? a : b`
    CONDITIONAL,

    /// `${ expr }` inside a template.
    INTERPOLATION,
    /// `%{ if } … %{ else } … %{ endif }`
    TEMPLATE_IF,
    /// `%{ for x in y } … %{ endfor }`
    TEMPLATE_FOR,
    /// `%{ if cond }`
    IF_DIRECTIVE,
    /// `%{ else }`
    ELSE_DIRECTIVE,
    /// `%{ endif }`
    ENDIF_DIRECTIVE,
    /// `%{ for k, v in coll }`
    FOR_DIRECTIVE,
    /// `%{ endfor }`
    ENDFOR_DIRECTIVE,

    /// The root of a JSON file: one value between trivia (JSON syntax).
    JSON_FILE,
    /// `{ "name": value, ... }` (JSON syntax).
    JSON_OBJECT,
    /// `"name": value` inside a JSON object (JSON syntax).
    JSON_MEMBER,
    /// `[ value, ... ]` (JSON syntax).
    JSON_ARRAY,

    /// Tokens the parser could not make sense of.
    ERROR,
}

use SyntaxKind::*;

impl SyntaxKind {
    /// The last kind; every value up to it is valid.
    pub const LAST: SyntaxKind = ERROR;

    /// True for leaf kinds (tokens).
    #[inline]
    pub fn is_token(self) -> bool {
        (self as u16) < (CONFIG_FILE as u16)
    }

    /// True for the kinds only the JSON syntax's tree has.
    pub fn is_json(self) -> bool {
        matches!(
            self,
            JSON_STRING
                | JSON_NUMBER
                | JSON_WORD
                | JSON_FILE
                | JSON_OBJECT
                | JSON_MEMBER
                | JSON_ARRAY
        )
    }

    /// True for kinds the parser may skip between significant tokens:
    /// whitespace and comments (newlines are significant in bodies).
    #[inline]
    pub fn is_trivia(self) -> bool {
        matches!(self, WHITESPACE | COMMENT)
    }

    /// True for the node kinds that are expressions.
    pub fn is_expr(self) -> bool {
        matches!(
            self,
            LITERAL
                | VARIABLE
                | QUOTED_TEMPLATE
                | HEREDOC_TEMPLATE
                | TUPLE
                | OBJECT
                | FUNCTION_CALL
                | FOR_EXPR
                | GET_ATTR
                | INDEX
                | SPLAT
                | PAREN
                | UNARY
                | BINARY
                | CONDITIONAL
        )
    }

    /// True for the binary operators (`* / % + - > >= < <= == != && ||`).
    #[inline]
    pub fn is_binary_operator(self) -> bool {
        matches!(
            self,
            STAR | SLASH
                | PERCENT
                | PLUS
                | MINUS
                | GT
                | GTEQ
                | LT
                | LTEQ
                | EQ2
                | NEQ
                | AMP2
                | PIPE2
        )
    }

    /// Converts a raw value back; `None` when out of range.
    pub fn from_raw(raw: u16) -> Option<SyntaxKind> {
        if raw <= Self::LAST as u16 {
            // SAFETY: `SyntaxKind` is `repr(u8)` with contiguous values
            // from 0 to `LAST` (below 256, so `raw` fits in a byte).
            Some(unsafe { std::mem::transmute::<u8, SyntaxKind>(raw as u8) })
        } else {
            None
        }
    }

    /// Every kind, in order.
    pub fn all() -> impl Iterator<Item = SyntaxKind> {
        (0..=Self::LAST as u16).filter_map(SyntaxKind::from_raw)
    }

    /// Bracket value used by the formatter: +1 for openers, -1 for closers.
    #[inline]
    pub fn bracket_value(self) -> i32 {
        match self {
            L_BRACE | L_BRACK | L_PAREN | INTERP_START | DIRECTIVE_START => 1,
            R_BRACE | R_BRACK | R_PAREN | TEMPLATE_SEQ_END => -1,
            _ => 0,
        }
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    #[inline]
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

/// The rowan language of HCL trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HclLanguage {}

impl rowan::Language for HclLanguage {
    type Kind = SyntaxKind;

    #[inline]
    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0).unwrap_or(ERROR)
    }

    #[inline]
    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        kind.into()
    }
}

/// A node of the syntax tree.
pub type SyntaxNode = rowan::SyntaxNode<HclLanguage>;
/// A token of the syntax tree.
pub type SyntaxToken = rowan::SyntaxToken<HclLanguage>;
/// A node or a token.
pub type SyntaxElement = rowan::SyntaxElement<HclLanguage>;
/// Iterator over the child nodes of a node.
pub type SyntaxNodeChildren = rowan::SyntaxNodeChildren<HclLanguage>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_round_trip() {
        for kind in SyntaxKind::all() {
            assert_eq!(SyntaxKind::from_raw(kind as u16), Some(kind));
        }
        assert_eq!(SyntaxKind::from_raw(SyntaxKind::LAST as u16 + 1), None);
        assert!(ERROR_TOKEN.is_token());
        assert!(!CONFIG_FILE.is_token());
    }
}
