//! Reading and writing an item's comments: the comment lines directly
//! above it and the comment at the end of its line.

use text_size::TextRange;

use crate::document::address::{Address, IntoAddress};
use crate::document::error::EditError;
use crate::document::primitives::lines::{
    core_start, line_indent, line_start, token_left, token_right,
};
use crate::document::primitives::replacement::Replacement;
use crate::document::{Document, Item};
use crate::syntax_kind::SyntaxKind::*;

/// The source of a comment: kept when it starts with `#`, `//` or `/*`,
/// else written as `# text`. A newline is refused (except inside `/* */`).
fn comment_source(text: &str) -> Result<String, EditError> {
    let block = text.starts_with("/*") && text.ends_with("*/");
    if !block && (text.contains('\n') || text.contains('\r')) {
        return Err(EditError::InvalidValue {
            source: text.to_string(),
            reason: "a line comment cannot contain a newline".to_string(),
        });
    }
    if text.starts_with('#') || text.starts_with("//") || block {
        Ok(text.to_string())
    } else if text.is_empty() {
        Ok("#".to_string())
    } else {
        Ok(format!("# {text}"))
    }
}

impl Document {
    /// The comment lines directly above the item at `address`, as
    /// written.
    ///
    /// ```
    /// let doc = hclwright::Document::parse("# The AMI\n# (pinned)\nami = \"x\" # inline\n").unwrap();
    /// assert_eq!(doc.comments_above("ami").unwrap(), ["# The AMI", "# (pinned)"]);
    /// assert_eq!(doc.inline_comment("ami").unwrap().as_deref(), Some("# inline"));
    /// ```
    pub fn comments_above(&self, address: impl IntoAddress) -> Result<Vec<String>, EditError> {
        let address: Address = address.into_address()?;
        Ok(self.get(address)?.comments_above())
    }

    /// The comment at the end of the line of the item at `address`.
    pub fn inline_comment(&self, address: impl IntoAddress) -> Result<Option<String>, EditError> {
        let address: Address = address.into_address()?;
        Ok(self.get(address)?.inline_comment())
    }

    /// Replaces the comment lines directly above the item at `address`
    /// by `lines` (none removes them). A line that does not start with
    /// `#`, `//` or `/*` is written as `# line`; lines are indented like
    /// the item.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("b {\n  # old\n  ami = \"x\"\n}\n").unwrap();
    /// doc.set_comments_above("b.ami", &["Pinned: see JIRA-1", "// twice"]).unwrap();
    /// assert_eq!(doc.to_string(), "b {\n  # Pinned: see JIRA-1\n  // twice\n  ami = \"x\"\n}\n");
    /// doc.set_comments_above("b.ami", &[]).unwrap();
    /// assert_eq!(doc.to_string(), "b {\n  ami = \"x\"\n}\n");
    /// ```
    pub fn set_comments_above(
        &mut self,
        address: impl IntoAddress,
        lines: &[&str],
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.scoped(&address, |doc| doc.set_comments_above_at(&address, lines))
    }

    fn set_comments_above_at(
        &mut self,
        address: &Address,
        lines: &[&str],
    ) -> Result<(), EditError> {
        let root = self.syntax();
        let mut reps = Vec::new();
        for item in self.resolve(address)? {
            let core = match &item {
                Item::Element { expr, .. } => {
                    crate::ast::AstNode::syntax(expr).text_range().start()
                }
                other => core_start(other.syntax()),
            };
            let item_line = line_start(&root, core);
            let before_item = token_right(&root, item_line)
                .into_iter()
                .flat_map(|t| std::iter::successors(Some(t), |t| t.next_token()))
                .take_while(|t| t.text_range().start() < core)
                .all(|t| t.kind() == WHITESPACE);
            if !before_item {
                return Err(EditError::unsupported(format!(
                    "`{address}` does not start its line, so it has no comment lines"
                )));
            }
            let indent = line_indent(&root, core);
            let mut text = String::new();
            for line in lines {
                text.push_str(&indent);
                text.push_str(&comment_source(line)?);
                text.push('\n');
            }
            let existing = item.comment_tokens_above();
            let from = existing
                .first()
                .map_or(item_line, |c| line_start(&root, c.text_range().start()));
            reps.push(Replacement::new(TextRange::new(from, item_line), text));
        }
        self.edit(reps)
    }

    /// Sets (or with `None` removes) the comment at the end of the line
    /// of the item at `address`. A text that does not start with `#`,
    /// `//` or `/*` is written as `# text`.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("a   = 1\nbbb = 22 # two\n").unwrap();
    /// doc.set_inline_comment("a", Some("one")).unwrap();
    /// // The comment group was aligned: the new comment joins it.
    /// assert_eq!(doc.to_string(), "a   = 1  # one\nbbb = 22 # two\n");
    /// doc.set_inline_comment("bbb", None).unwrap();
    /// assert_eq!(doc.to_string(), "a   = 1 # one\nbbb = 22\n");
    /// ```
    pub fn set_inline_comment(
        &mut self,
        address: impl IntoAddress,
        text: Option<&str>,
    ) -> Result<(), EditError> {
        let address: Address = address.into_address()?;
        self.scoped(&address, |doc| doc.set_inline_comment_at(&address, text))
    }

    fn set_inline_comment_at(
        &mut self,
        address: &Address,
        text: Option<&str>,
    ) -> Result<(), EditError> {
        let mut reps = Vec::new();
        for item in self.resolve(address)? {
            let existing = item.inline_comment_token();
            match (existing, text) {
                (Some(token), Some(text)) => {
                    reps.push(Replacement::new(token.text_range(), comment_source(text)?));
                }
                (Some(token), None) => {
                    let start = token
                        .prev_token()
                        .filter(|t| t.kind() == WHITESPACE)
                        .map_or(token.text_range().start(), |t| t.text_range().start());
                    reps.push(Replacement::new(
                        TextRange::new(start, token.text_range().end()),
                        "",
                    ));
                }
                (None, None) => {}
                (None, Some(text)) => {
                    let mut pos = item.core_range().end();
                    let root = self.syntax();
                    let mut next = token_right(&root, pos);
                    while let Some(t) = next.clone() {
                        match t.kind() {
                            WHITESPACE => next = t.next_token(),
                            COMMA => {
                                pos = t.text_range().end();
                                next = t.next_token();
                            }
                            _ => break,
                        }
                    }
                    let after_heredoc =
                        token_left(&root, pos).is_some_and(|t| t.kind() == HEREDOC_END);
                    if after_heredoc {
                        return Err(EditError::unsupported(format!(
                            "`{address}` ends with a heredoc, and no comment can share its line: the closing marker must be alone on its line, and nothing may follow the opening `<<` marker either; put the comment on a line above the item instead (set_comments_above)"
                        )));
                    }
                    if next.is_some_and(|t| t.kind() != NEWLINE) {
                        return Err(EditError::unsupported(format!(
                            "`{address}` does not end its line: a comment there would swallow the rest"
                        )));
                    }
                    reps.push(Replacement::new(
                        TextRange::empty(pos),
                        format!(" {}", comment_source(text)?),
                    ));
                }
            }
        }
        self.edit(reps)
    }
}
