//! Views of templates: quoted strings, heredocs and their parts.

use super::{
    AstNode, ElseDirective, EndforDirective, EndifDirective, Expr, ForDirective, HeredocTemplate,
    IfDirective, Interpolation, QuotedTemplate, TemplateFor, TemplateIf, child, token,
};
use crate::syntax_kind::{SyntaxKind::*, SyntaxNode, SyntaxToken};

/// A part of a template.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    /// Literal text (escapes not decoded; see [`decode_quoted`]).
    Literal(SyntaxToken),
    /// `${ expr }`.
    Interpolation(Interpolation),
    /// `%{ if } … %{ endif }`.
    If(TemplateIf),
    /// `%{ for } … %{ endfor }`.
    For(TemplateFor),
}

/// The parts among the direct children of `node`.
pub(crate) fn parts_of(node: &SyntaxNode) -> impl Iterator<Item = TemplatePart> + use<> {
    node.children_with_tokens().filter_map(|e| match e {
        rowan::NodeOrToken::Token(t) if t.kind() == TEMPLATE_LITERAL => {
            Some(TemplatePart::Literal(t))
        }
        rowan::NodeOrToken::Token(_) => None,
        rowan::NodeOrToken::Node(n) => match n.kind() {
            INTERPOLATION => Interpolation::cast(n).map(TemplatePart::Interpolation),
            TEMPLATE_IF => TemplateIf::cast(n).map(TemplatePart::If),
            TEMPLATE_FOR => TemplateFor::cast(n).map(TemplatePart::For),
            _ => None,
        },
    })
}

/// Direct-child parts between two children (exclusive), by position.
fn parts_between(
    node: &SyntaxNode,
    after: Option<&SyntaxNode>,
    before: Option<&SyntaxNode>,
) -> Vec<TemplatePart> {
    let start = after.map(|n| n.text_range().end());
    let end = before.map(|n| n.text_range().start());
    parts_of(node)
        .filter(|p| {
            let r = match p {
                TemplatePart::Literal(t) => t.text_range(),
                TemplatePart::Interpolation(n) => n.syntax().text_range(),
                TemplatePart::If(n) => n.syntax().text_range(),
                TemplatePart::For(n) => n.syntax().text_range(),
            };
            start.is_none_or(|s| r.start() >= s) && end.is_none_or(|e| r.end() <= e)
        })
        .collect()
}

impl QuotedTemplate {
    /// The parts between the quotes.
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> + use<> {
        parts_of(&self.0)
    }

    /// For a string without interpolations or directives, its value with
    /// escapes decoded (`$${` becomes `${`).
    pub fn literal_value(&self) -> Option<String> {
        let mut out = String::new();
        for part in self.parts() {
            match part {
                TemplatePart::Literal(t) => out.push_str(&decode_quoted(t.text())),
                _ => return None,
            }
        }
        Some(out)
    }

    /// True when the closing quote is present.
    pub fn is_terminated(&self) -> bool {
        token(&self.0, CLOSE_QUOTE).is_some()
    }
}

impl HeredocTemplate {
    /// The opener token (`<<EOT` or `<<-EOT` with its newline).
    pub fn opener(&self) -> Option<SyntaxToken> {
        token(&self.0, HEREDOC_START)
    }

    /// The closing marker token (with its indentation).
    pub fn closer(&self) -> Option<SyntaxToken> {
        token(&self.0, HEREDOC_END)
    }

    /// The marker (`EOT`).
    pub fn marker(&self) -> Option<String> {
        let text = self.opener()?.text().to_string();
        Some(
            text.trim_start_matches('<')
                .trim_start_matches('-')
                .trim_end()
                .to_string(),
        )
    }

    /// True for `<<-`, which strips common leading spaces.
    pub fn is_indented(&self) -> bool {
        self.opener().is_some_and(|t| t.text().starts_with("<<-"))
    }

    /// The parts of the body.
    pub fn parts(&self) -> impl Iterator<Item = TemplatePart> + use<> {
        parts_of(&self.0)
    }
}

impl Interpolation {
    /// The expression inside `${ }`.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }

    /// True for `${~`.
    pub fn strips_before(&self) -> bool {
        token(&self.0, INTERP_START).is_some_and(|t| t.text().ends_with('~'))
    }

    /// True for `~}`.
    pub fn strips_after(&self) -> bool {
        token(&self.0, TEMPLATE_SEQ_END).is_some_and(|t| t.text().starts_with('~'))
    }
}

impl TemplateIf {
    /// `%{ if cond }`.
    pub fn if_directive(&self) -> Option<IfDirective> {
        child(&self.0)
    }

    /// `%{ else }`.
    pub fn else_directive(&self) -> Option<ElseDirective> {
        child(&self.0)
    }

    /// `%{ endif }`.
    pub fn endif_directive(&self) -> Option<EndifDirective> {
        child(&self.0)
    }

    /// The condition.
    pub fn condition(&self) -> Option<Expr> {
        self.if_directive()?.condition()
    }

    /// The parts used when the condition holds.
    pub fn then_parts(&self) -> Vec<TemplatePart> {
        let if_d = self.if_directive().map(|d| d.syntax().clone());
        let stop = self
            .else_directive()
            .map(|d| d.syntax().clone())
            .or_else(|| self.endif_directive().map(|d| d.syntax().clone()));
        parts_between(&self.0, if_d.as_ref(), stop.as_ref())
    }

    /// The parts used otherwise (empty without `%{ else }`).
    pub fn else_parts(&self) -> Vec<TemplatePart> {
        let Some(else_d) = self.else_directive() else {
            return Vec::new();
        };
        let end = self.endif_directive().map(|d| d.syntax().clone());
        parts_between(&self.0, Some(else_d.syntax()), end.as_ref())
    }
}

impl IfDirective {
    /// The condition.
    pub fn condition(&self) -> Option<Expr> {
        child(&self.0)
    }
}

impl TemplateFor {
    /// `%{ for … }`.
    pub fn for_directive(&self) -> Option<ForDirective> {
        child(&self.0)
    }

    /// `%{ endfor }`.
    pub fn endfor_directive(&self) -> Option<EndforDirective> {
        child(&self.0)
    }

    /// The repeated parts.
    pub fn body_parts(&self) -> Vec<TemplatePart> {
        let start = self.for_directive().map(|d| d.syntax().clone());
        let end = self.endfor_directive().map(|d| d.syntax().clone());
        parts_between(&self.0, start.as_ref(), end.as_ref())
    }
}

impl ForDirective {
    /// The variables declared (one or two).
    pub fn vars(&self) -> Vec<SyntaxToken> {
        super::expr::for_vars(&self.0)
    }

    /// The key variable, when two are declared.
    pub fn key_var(&self) -> Option<SyntaxToken> {
        super::expr::key_and_value(self.vars()).0
    }

    /// The value variable.
    pub fn value_var(&self) -> Option<SyntaxToken> {
        super::expr::key_and_value(self.vars()).1
    }

    /// The collection.
    pub fn collection(&self) -> Option<Expr> {
        child(&self.0)
    }
}

/// Decodes the escapes of quoted-template literal text: `\n`, `\r`, `\t`,
/// `\"`, `\\`, `\uNNNN`, `\UNNNNNNNN`, and `$${` / `%%{` to `${` / `%{`.
/// Invalid escapes are kept as written.
///
/// ```
/// assert_eq!(hclwright::ast::decode_quoted(r#"a\tb \"c\" $${x}"#), "a\tb \"c\" ${x}");
/// ```
pub fn decode_quoted(text: &str) -> String {
    if !text.contains(['\\', '$', '%']) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let Some(&(_, n)) = chars.peek() else {
                    out.push('\\');
                    break;
                };
                let simple = match n {
                    'n' => Some('\n'),
                    'r' => Some('\r'),
                    't' => Some('\t'),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    _ => None,
                };
                if let Some(s) = simple {
                    out.push(s);
                    chars.next();
                    continue;
                }
                let digits = match n {
                    'u' => 4,
                    'U' => 8,
                    _ => 0,
                };
                let decoded = (digits > 0)
                    .then(|| text.get(i + 2..i + 2 + digits))
                    .flatten()
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .and_then(char::from_u32);
                if let Some(ch) = decoded {
                    out.push(ch);
                    for _ in 0..=digits {
                        chars.next();
                    }
                } else {
                    out.push('\\');
                }
            }
            '$' | '%' if text[i + 1..].starts_with(&format!("{c}{{")) => {
                out.push(c);
                out.push('{');
                chars.next();
                chars.next();
            }
            c => out.push(c),
        }
    }
    out
}
