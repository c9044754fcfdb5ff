//! References and prefix renames on a document: a thin layer over
//! [`crate::refs`].

use crate::diff::TextEdit;
use crate::document::Document;
use crate::document::error::EditError;
use crate::document::primitives::replacement::Replacement;
use crate::refs::{Reference, Rename};

impl Document {
    /// The references (traversals from variables) in the document, in
    /// source order; uses of `for`-bound variables are left out.
    ///
    /// ```
    /// let doc = hclwright::Document::parse("a = var.x + local.y[0]\n").unwrap();
    /// let refs: Vec<String> = doc.references().iter().map(|r| r.traversal.to_string()).collect();
    /// assert_eq!(refs, ["var.x", "local.y[0]"]);
    /// ```
    pub fn references(&self) -> Vec<Reference> {
        crate::refs::references(&self.syntax())
    }

    /// Renames every reference that starts with `from` so that it starts
    /// with `to` (see [`Rename`]); returns how many references matched.
    ///
    /// Only the matched steps change, as with [`Rename::rename_text`]: the
    /// spaces and comments around them stay as they are, even in a file
    /// that is not in the canonical layout; an `=` or comment group the
    /// renamed text lengthens is realigned only if it was aligned.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("a = var.region # where\nb = \"${var.region}-x\"\n").unwrap();
    /// assert_eq!(doc.rename_prefix("var.region", "local.region").unwrap(), 2);
    /// assert_eq!(doc.to_string(), "a = local.region # where\nb = \"${local.region}-x\"\n");
    /// ```
    pub fn rename_prefix(&mut self, from: &str, to: &str) -> Result<usize, EditError> {
        let rename = Rename::parse(from, to).map_err(|e| EditError::InvalidAddress {
            address: format!("{from} -> {to}"),
            reason: e.to_string(),
        })?;
        let renamed = rename.apply(&self.syntax());
        let reps = renamed
            .edits
            .into_iter()
            .map(|e| Replacement::new(e.range, e.new_text))
            .collect();
        // Replaced verbatim (a rename is not a new value to lay out); the
        // groups it lengthens are realigned where they were aligned.
        self.replace_realigning(reps)?;
        Ok(renamed.matches)
    }
}

/// The edits of a rename of `text`, plus the spacing changes that realign
/// the `=` and comment groups the renamed names lengthen or shorten, where
/// those groups were aligned — so that a `fmt`-clean file stays clean.
/// The edits as given when `text` does not parse or they do not apply.
pub(crate) fn realigned(text: &str, edits: Vec<TextEdit>) -> Vec<TextEdit> {
    let Ok(mut doc) = Document::parse(text) else {
        return edits;
    };
    let reps = edits
        .iter()
        .map(|e| Replacement::new(e.range, e.new_text.clone()))
        .collect();
    match doc.replace_realigning(reps) {
        Ok(()) => doc.text_edits(),
        Err(_) => edits,
    }
}
