//! Editing HCL documents without disturbing anything else.
//!
//! A [`Document`] owns the syntax tree of a file. You find things in it
//! by [`Address`] (`resource.aws_instance.web.ami`,
//! `terraform.required_providers.aws.version`, `module.vpc.azs[0]`),
//! read them, and change them. Every edit is local: the bytes outside the
//! edited item stay as they were; new lines take their indentation from
//! their neighbours and are laid out by the canonical formatter; an `=`
//! or comment group the change joins is realigned only if it was aligned
//! before. A file that was `hclwright fmt`-clean stays clean.
//!
//! # Reading
//!
//! ```
//! use hclwright::{Document, EditValue};
//!
//! let doc = Document::parse(r#"
//! terraform {
//!   required_providers {
//!     aws = {
//!       source  = "hashicorp/aws"
//!       version = "~> 4.0"
//!     }
//!   }
//! }
//! "#)?;
//! let version = doc.get("terraform.required_providers.aws.version")?;
//! assert_eq!(version.value(), Some(EditValue::from("~> 4.0")));
//! assert_eq!(version.value_text().as_deref(), Some("\"~> 4.0\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Editing
//!
//! ```
//! use hclwright::{Document, EditValue};
//!
//! let mut doc = Document::parse("provider \"aws\" {\n  region = \"eu-west-1\" # Ireland\n}\n")?;
//! doc.set("provider.aws.region", "eu-central-1")?;
//! doc.set("provider.aws.profile", EditValue::parse("var.profile")?)?;
//! assert_eq!(
//!     doc.to_string(),
//!     "provider \"aws\" {\n  region  = \"eu-central-1\" # Ireland\n  profile = var.profile\n}\n"
//! );
//! // The changes against the parsed text, as an editor wants them:
//! for edit in doc.text_edits() {
//!     println!("{:?} -> {:?}", edit.range, edit.new_text);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Addresses with `*` designate every match (`resource.aws_instance.*.ami`);
//! without one, an address that matches several blocks is an error
//! ([`EditError::Ambiguous`]), distinct from [`EditError::NotFound`].
//!
//! # Large files
//!
//! [`Document::parse`] checks the text without building its tree and
//! notes where each top-level item is; the tree of an item is built from
//! its own text the first time an edit or a read needs it, and the tree
//! of the whole file ([`Document::syntax`], [`Document::body`]) only when
//! asked for. An edit at an address that leads into one top-level item
//! costs about the same in a 10 MB file as in a small one (tens of
//! microseconds after the check): the top-level items are indexed by name
//! and labels, and the edit is done on that item and its neighbours
//! alone, then put back; so is a new top-level item, next to the item it
//! follows. [`Document::get_all_detached`] reads one item the same way.
//! Addresses with a `*` among the first name and labels, and other edits
//! of the top level itself, work on the whole file, as does an edit next
//! to lines whose `=` may be aligned with it as far as the part would
//! reach (a long run of one-line attributes).
//!
//! # Layers (for contributors)
//!
//! From the bottom: the base modules (addresses, errors, values, items
//! and their comments, schema, the tree and its index, resolving
//! addresses, the record of changes), which import nothing above them;
//! `primitives/` (lines and indentation, layout, heredocs, placement,
//! node creation, body and collection inserts); `partial/` (edits of one
//! part of a large file); `operations/` (the public edits, one family a
//! file, importing no other operation); and this facade with
//! [`Handle`]. Each folder's module docs say what it may import;
//! `tests/layers.rs` checks it, and CONTRIBUTING.md draws the map.

mod address;
mod comments;
mod error;
mod handle;
mod index;
mod item;
mod operations;
mod partial;
mod primitives;
pub(crate) use operations::refs::realigned;
mod resolve;
pub mod schema;
mod tracker;
mod tree;
mod value;

use std::fmt;

use text_size::{TextRange, TextSize};

pub use address::{Address, IntoAddress, Step};
pub use error::{EditError, ParseError};
pub use handle::Handle;
pub use item::Item;
pub use operations::edit_mv::mv_name;
pub use primitives::placement::Placement;
pub use value::{EditValue, NotFinite};

use std::sync::Arc;

use crate::ast::{self, AstNode, BodyItem};
use crate::diff::TextEdit;
use crate::syntax_kind::SyntaxNode;
use error::render_errors;
use partial::Cuts;
use primitives::layout::Touched;
use primitives::replacement::Replacement;
use tracker::Tracker;
use tree::Tree;

/// A parsed, editable HCL file.
///
/// See the [module documentation](self) for a tour.
#[derive(Clone)]
pub struct Document {
    tree: Tree,
    tracker: Tracker,
    /// True when the file's lines end with `\r\n`: new lines do too.
    crlf: bool,
    /// For a part of a file being edited alone (see [`scope`]): where it
    /// was cut.
    cuts: Option<Cuts>,
    /// For a part of a file that gets a new top-level item: the layout
    /// of the whole file's top level.
    top_layout: Option<primitives::body::TopLayout>,
}

impl Document {
    /// Parses `text`. A text with syntax errors is refused: the error
    /// lists them.
    ///
    /// ```
    /// let err = hclwright::Document::parse("a = \n").unwrap_err();
    /// assert_eq!(err.errors()[0].line, 1);
    /// ```
    pub fn parse(text: &str) -> Result<Document, ParseError> {
        Document::parse_shared(Arc::from(text))
    }

    /// [`Document::parse`] of a text the caller already holds shared:
    /// the document keeps it as it is, without a copy (a large file is
    /// then held once).
    ///
    /// ```
    /// use std::sync::Arc;
    /// let text: Arc<str> = Arc::from("a = 1\n");
    /// let doc = hclwright::Document::parse_shared(Arc::clone(&text)).unwrap();
    /// assert!(Arc::ptr_eq(&doc.original_shared(), &text));
    /// ```
    pub fn parse_shared(text: Arc<str>) -> Result<Document, ParseError> {
        // The text is checked without building its tree; the tree of
        // each top-level item is built when an edit or a read needs it
        // (see `tree`), so an edit of one item of a large file costs
        // little more than checking it.
        let checked = crate::parser::parse_top_level(&text);
        if !checked.errors.is_empty() {
            return Err(ParseError {
                errors: checked.errors,
            });
        }
        let crlf = text.find('\n').is_some_and(|i| text[..i].ends_with('\r'));
        let tracker = Tracker::new(text);
        Ok(Document {
            tree: Tree::lazy(tracker.original_text(), checked.items),
            tracker,
            crlf,
            cuts: None,
            top_layout: None,
        })
    }

    /// The root of the current tree.
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.tree.root().clone())
    }

    /// The top-level body.
    pub fn body(&self) -> ast::Body {
        self.syntax()
            .children()
            .find_map(ast::Body::cast)
            .expect("a parsed file always has a body")
    }

    /// The top-level attributes and blocks, in source order.
    pub fn items(&self) -> impl Iterator<Item = BodyItem> + use<> {
        self.body().items()
    }

    /// The top-level attributes, in source order.
    pub fn attributes(&self) -> impl Iterator<Item = ast::Attribute> + use<> {
        self.body().attributes()
    }

    /// The top-level blocks, in source order.
    pub fn blocks(&self) -> impl Iterator<Item = ast::Block> + use<> {
        self.body().blocks()
    }

    /// The text the document was parsed from.
    pub fn original(&self) -> &str {
        self.tracker.original()
    }

    /// The text the document was parsed from, shared (see
    /// [`Document::parse_shared`]).
    pub fn original_shared(&self) -> Arc<str> {
        self.tracker.original_text()
    }

    /// The current text: what `to_string` gives, made in one allocation
    /// of its final size (a large file is not copied as its string grows).
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("a = 1\n").unwrap();
    /// doc.set("b", 2).unwrap();
    /// assert_eq!(doc.text(), doc.to_string());
    /// ```
    pub fn text(&self) -> String {
        self.tracker.render()
    }

    /// True when the current text differs from the parsed one.
    pub fn is_modified(&self) -> bool {
        !self.tracker.text_edits().is_empty()
    }

    /// The item at `address`. Fails when nothing matches, when several
    /// items match an address without `*`, or when the address is
    /// malformed. With `*`, the first match.
    ///
    /// ```
    /// let doc = hclwright::Document::parse("module \"vpc\" {\n  azs = [\"a\", \"b\"]\n}\n").unwrap();
    /// assert_eq!(doc.get("module.vpc.azs[1]").unwrap().text(), "\"b\"");
    /// assert!(doc.get("module.vpc.azs[2]").unwrap_err().is_not_found());
    /// ```
    pub fn get<A>(&self, address: A) -> Result<Item, EditError>
    where
        A: IntoAddress,
    {
        let address = address.into_address()?;
        let mut items = self.resolve(&address)?;
        Ok(items.swap_remove(0))
    }

    /// Every item `address` matches, in source order (several when it
    /// has a `*`, or when several blocks have the same type and labels).
    pub fn get_all<A>(&self, address: A) -> Result<Vec<Item>, EditError>
    where
        A: IntoAddress,
    {
        let address = address.into_address()?;
        if let Some(absent) = self.absent_at_top(&address) {
            return Err(absent);
        }
        resolve::resolve_all_hinted(&self.body(), &address, self.top_hint(&address).as_ref())
    }

    /// [`Document::get_all`] for reading the items' text and values
    /// only: when one top-level item alone can hold them, they are looked
    /// for in a tree of that item alone, detached from the file, so that
    /// the tree of the rest of a large file is never built. Their text,
    /// values and comments are those of the file; their positions
    /// ([`Item::core_range`], ranges of their syntax) are then counted
    /// from the start of their top-level item.
    ///
    /// ```
    /// let doc = hclwright::Document::parse("a = 1\nb {\n  c = [2, 3]\n}\n").unwrap();
    /// let items = doc.get_all_detached("b.c[1]").unwrap();
    /// assert_eq!(items[0].text(), "3");
    /// assert!(doc.get_all_detached("d").unwrap_err().is_not_found());
    /// ```
    pub fn get_all_detached<A>(&self, address: A) -> Result<Vec<Item>, EditError>
    where
        A: IntoAddress,
    {
        let address = address.into_address()?;
        let address = &address;
        if let Some(absent) = self.absent_at_top(address) {
            return Err(absent);
        }
        if let Some(part) = self.only_part(address)
            && let Ok(items) = resolve::resolve_all_hinted(&part.body(), address, None)
        {
            return Ok(items);
        }
        // Not found there: the whole file tells how much of the address
        // matched.
        self.get_all(address)
    }

    /// The text of each item `address` matches, as `hclwright get`
    /// prints it: the value of an attribute, object item or tuple
    /// element ([`Item::value_text`]), the source of a block
    /// ([`Item::text`]). The value of a top-level attribute is read where
    /// the file's check found it, without building its tree: reading a
    /// value of millions of tokens costs no more than checking the file.
    ///
    /// ```
    /// let doc = hclwright::Document::parse("a = [1, 2]\nb {\n  c = 3\n}\n").unwrap();
    /// assert_eq!(doc.get_texts("a").unwrap(), ["[1, 2]"]);
    /// assert_eq!(doc.get_texts("b.c").unwrap(), ["3"]);
    /// assert_eq!(doc.get_texts("b").unwrap(), ["b {\n  c = 3\n}"]);
    /// ```
    pub fn get_texts<A>(&self, address: A) -> Result<Vec<String>, EditError>
    where
        A: IntoAddress,
    {
        let address = address.into_address()?;
        if let Some(absent) = self.absent_at_top(&address) {
            return Err(absent);
        }
        if let [Step::Name(name)] = address.steps()
            && let Some(candidates) = self.tree.candidates(address.steps())
            && let [only] = candidates.as_slice()
            && self.tree.is_lazy_attribute_named(*only as usize, name)
            && let Some(value) = self.tree.lazy_value_text(*only as usize)
        {
            return Ok(vec![value.to_string()]);
        }
        Ok(self
            .get_all_detached(&address)?
            .iter()
            .map(|item| match item {
                Item::Block(_) => item.text(),
                _ => item.value_text().unwrap_or_else(|| item.text()),
            })
            .collect())
    }

    /// The not-found error for an address whose first name no top-level
    /// attribute or block has, known from the index alone.
    fn absent_at_top(&self, address: &Address) -> Option<EditError> {
        match address.steps().first() {
            Some(Step::Name(name)) if !self.tree.has_name(name) => Some(EditError::NotFound {
                address: address.to_string(),
                matched: String::new(),
            }),
            _ => None,
        }
    }

    /// True when `address` matches at least one item.
    pub fn contains<A>(&self, address: A) -> bool
    where
        A: IntoAddress,
    {
        let Ok(address) = address.into_address() else {
            return false;
        };
        // Inside one top-level item: looked for in that item alone, so
        // that the tree of a large file is not built again after an edit.
        if let Some(item) = self.only_part(&address) {
            return resolve::resolve_all_hinted(&item.body(), &address, None).is_ok();
        }
        resolve::resolve_all_hinted(&self.body(), &address, self.top_hint(&address).as_ref())
            .is_ok()
    }

    /// The items `address` designates (all matches when it has `*`).
    pub(crate) fn resolve(&self, address: &Address) -> Result<Vec<Item>, EditError> {
        if let Some(absent) = self.absent_at_top(address) {
            return Err(absent);
        }
        resolve::resolve_hinted(&self.body(), address, self.top_hint(address).as_ref())
    }

    /// The top-level children `address` can match, from the index.
    fn top_hint(&self, address: &Address) -> Option<resolve::TopHint> {
        let candidates = self.tree.candidates(address.steps())?;
        Some(resolve::TopHint {
            children: candidates
                .into_iter()
                .map(|i| (i as usize, self.tree.range(i as usize)))
                .collect(),
        })
    }

    /// The changes against the parsed text: sorted, non-overlapping, each
    /// as small as the change. Applying them to [`Document::original`]
    /// gives `to_string()` (the current text).
    ///
    /// ```
    /// use hclwright::diff::apply_edits;
    /// let mut doc = hclwright::Document::parse("v = \"~> 4.0\" # pin\n").unwrap();
    /// doc.set("v", "~> 5.0").unwrap();
    /// let edits = doc.text_edits();
    /// assert_eq!(edits.len(), 1);
    /// assert_eq!(edits[0].new_text, "5");
    /// assert_eq!(apply_edits(doc.original(), &edits).unwrap(), doc.to_string());
    /// ```
    pub fn text_edits(&self) -> Vec<TextEdit> {
        self.tracker.text_edits()
    }

    /// A unified diff from the parsed text to the current one (empty when
    /// nothing changed), with git's headers `--- a/PATH` and `+++ b/PATH`
    /// (`PATH` normalised: see [`crate::diff::patch_path`]), so that
    /// `git apply` takes it.
    ///
    /// `path` is any path (`&str` as before, `&Path`, `PathBuf`); one that
    /// is not UTF-8 is shown lossily.
    ///
    /// ```
    /// let mut doc = hclwright::Document::parse("a = 1\n").unwrap();
    /// doc.set("a", 2).unwrap();
    /// let diff = doc.unified_diff(std::path::Path::new("./main.tf"));
    /// assert_eq!(diff, "--- a/main.tf\n+++ b/main.tf\n@@ -1 +1 @@\n-a = 1\n+a = 2\n");
    /// assert_eq!(doc.unified_diff("main.tf"), diff);
    /// ```
    pub fn unified_diff(&self, path: impl AsRef<std::path::Path>) -> String {
        let path = path.as_ref().to_string_lossy();
        crate::diff::git_unified_diff(self.original(), &self.text(), &path)
    }

    /// Applies replacements (in current coordinates, non-overlapping) to
    /// the tree and the record, all or nothing.
    pub(crate) fn apply(&mut self, mut reps: Vec<Replacement>) -> Result<(), EditError> {
        reps.sort_by_key(|r| (r.range.start(), r.range.end()));
        reps.dedup_by(|b, a| a.range == b.range && a.text == b.text);
        if reps
            .windows(2)
            .any(|w| w[0].range.end() > w[1].range.start())
        {
            return Err(EditError::unsupported("overlapping changes"));
        }
        reps.retain(|r| !(r.range.is_empty() && r.text.is_empty()));
        let mut root = self.syntax();
        let mut applied = Vec::with_capacity(reps.len());
        let mut spaces = primitives::reparse::ItemSpaces::default();
        // From the last to the first, so that earlier ranges stay valid.
        // A change that does not parse alone (a comma and the element
        // after it) is merged with the one before it.
        while let Some(r) = reps.pop() {
            if spaces.take(&root, r.range, &r.text) {
                applied.push(r);
                continue;
            }
            root = spaces.put_in(root);
            match primitives::reparse::replace(&root, r.range, &r.text) {
                Ok(green) => {
                    root = SyntaxNode::new_root(green);
                    applied.push(r);
                }
                Err(errors) => {
                    let Some(prev) = reps.pop() else {
                        return Err(EditError::Broken {
                            reason: render_errors(&errors),
                        });
                    };
                    let between = TextRange::new(prev.range.end(), r.range.start());
                    let mut text = prev.text;
                    text.push_str(&root.text().slice(between).to_string());
                    text.push_str(&r.text);
                    reps.push(Replacement::new(
                        TextRange::new(prev.range.start(), r.range.end()),
                        text,
                    ));
                }
            }
        }
        root = spaces.put_in(root);
        let ranges: Vec<(TextRange, &str)> = applied
            .iter()
            .rev()
            .map(|r| (r.range, r.text.as_str()))
            .collect();
        self.tracker.replace_many(&ranges);
        if !applied.is_empty() {
            self.tree = Tree::new(root.green().to_owned());
        }
        #[cfg(debug_assertions)]
        self.check_consistency();
        Ok(())
    }

    /// Applies replacements, then lays out the new content and realigns
    /// the groups it joins (see [`primitives::layout::relayout`]). All or nothing.
    pub(crate) fn edit(&mut self, reps: Vec<Replacement>) -> Result<(), EditError> {
        self.edit_laid_out(reps, true)
    }

    /// Applies replacements whose text is kept as given (names replaced
    /// by a rename), then realigns the `=` and comment groups they change,
    /// where those were aligned. All or nothing.
    pub(crate) fn replace_realigning(&mut self, reps: Vec<Replacement>) -> Result<(), EditError> {
        self.edit_laid_out(reps, false)
    }

    /// Replaces `ranges` (of the current text) by the texts given, kept as
    /// they are, realigning the groups they lengthen where those were
    /// aligned (a version string bumped, a name renamed). All or nothing.
    pub(crate) fn replace_verbatim(
        &mut self,
        edits: Vec<(TextRange, String)>,
    ) -> Result<(), EditError> {
        let reps = edits
            .into_iter()
            .map(|(range, text)| Replacement::new(range, text))
            .collect();
        self.replace_realigning(reps)
    }

    /// [`Document::edit`], laying out the spacing inside the new text when
    /// `respace`.
    fn edit_laid_out(&mut self, reps: Vec<Replacement>, respace: bool) -> Result<(), EditError> {
        let old_root = self.syntax();
        let mut reps = primitives::heredoc::make_room(&old_root, reps);
        if self.crlf {
            for r in &mut reps {
                r.text = crlf(&r.text);
            }
        }
        reps.sort_by_key(|r| (r.range.start(), r.range.end()));
        let mut touched = Vec::with_capacity(reps.len());
        let mut delta: i64 = 0;
        for r in &reps {
            let start = i64::from(u32::from(r.range.start())) + delta;
            let new = TextRange::at(TextSize::from(start as u32), TextSize::of(r.text.as_str()));
            let newlines: Vec<usize> = r.text.match_indices('\n').map(|(at, _)| at).collect();
            // Line 0 is the line the text starts on.
            let reindent = r
                .reindent_lines
                .iter()
                .filter_map(|n| match n.checked_sub(1) {
                    None => Some(new.start()),
                    Some(k) => newlines
                        .get(k)
                        .map(|at| new.start() + TextSize::from(*at as u32 + 1)),
                })
                .collect();
            touched.push(Touched {
                old: r.range,
                new,
                reindent,
                respace,
            });
            delta += r.text.len() as i64 - i64::from(u32::from(r.range.len()));
        }
        let saved = self.clone();
        self.apply(reps)?;
        let new_root = self.syntax();
        let mut layout = Vec::new();
        let beyond = self.cuts.map(|c| c.group_beyond()).unwrap_or_default();
        for t in touched {
            let (edits, reach, kept) =
                primitives::layout::relayout(&old_root, &new_root, t, beyond);
            if let Some(cuts) = &mut self.cuts {
                cuts.reached(reach, kept);
            }
            for (range, text) in edits {
                layout.push(Replacement::new(range, text));
            }
        }
        layout.sort_by_key(|r| (r.range.start(), r.range.end()));
        layout.dedup_by(|b, a| a.range == b.range);
        if let Err(e) = self.apply(layout) {
            *self = saved;
            return Err(e);
        }
        Ok(())
    }

    /// In debug builds: the tree is exactly what parsing the text gives.
    #[cfg(debug_assertions)]
    pub(crate) fn check_consistency(&self) {
        // On a copy, so that the check builds none of the document's own
        // lazy items (tests count what edits build).
        let tree = self.tree.detached();
        let root = SyntaxNode::new_root(tree.root().clone());
        let text = self.tracker.render();
        assert_eq!(text, root.to_string(), "tree and record disagree");
        let fresh = crate::parse(&text);
        assert!(fresh.errors().is_empty(), "edit produced errors: {text}");
        assert!(
            fresh.green() == tree.root(),
            "tree differs from a fresh parse:\n{}\n---\n{}",
            crate::debug_tree(&root),
            fresh.debug_tree()
        );
    }
}

/// `text` with every `\n` not already after `\r` written `\r\n`.
fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut prev = '\0';
    for c in text.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.tracker.write_to(f)
    }
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("text", &self.to_string())
            .finish()
    }
}

impl std::str::FromStr for Document {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Document, ParseError> {
        Document::parse(s)
    }
}
