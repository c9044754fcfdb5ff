//! Prefix rename: every reference that starts with a pattern gets the
//! pattern's steps replaced by another pattern's, token by token.
//!
//! Both patterns are cut at their `[*]` steps into segments; the `n`-th
//! segment of `from` is rewritten into the `n`-th segment of `to`, and the
//! indexes or splats matched by the `[*]`s are kept as written. Within a
//! segment the steps are aligned by a small edit-distance table (keep,
//! replace, insert, delete), so `var.a` → `local.settings.a` changes `var`
//! and inserts `.settings`, leaving `.a` untouched.

use std::fmt;

use text_size::{TextRange, TextSize};

use super::pattern::{Pattern, PatternError, PatternStep, is_identifier};
use super::traversal::{IndexKey, Step, StepKind, escape_string};
use super::{FileEdits, InvalidFiles, Reference, SourceFile, collect};
use crate::diff::TextEdit;
use crate::syntax_error::SyntaxError;
use crate::syntax_kind::SyntaxNode;

/// A prefix rename from one [`Pattern`] to another.
///
/// ```
/// use hclwright::diff::apply_edits;
/// use hclwright::refs::Rename;
/// let text = "a = var.a # keep\nb = \"${var.a}-${var.ab}\"\nc = [for var in x : var.a]\n";
/// let rename = Rename::parse("var.a", "local.settings.a").unwrap();
/// let renamed = rename.rename_text(text).unwrap();
/// assert_eq!(renamed.matches, 2); // the `var` of the `for` is another variable
/// assert_eq!(
///     apply_edits(text, &renamed.edits).unwrap(),
///     "a = local.settings.a # keep\nb = \"${local.settings.a}-${var.ab}\"\nc = [for var in x : var.a]\n"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rename {
    from: Pattern,
    to: Pattern,
}

/// The result of a rename over one tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Renamed {
    /// Sorted, non-overlapping edits; only the tokens of matched steps
    /// change.
    pub edits: Vec<TextEdit>,
    /// How many references matched (some may need no edit, when `from` and
    /// `to` write the same thing).
    pub matches: usize,
}

/// Why a rename cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenameError {
    /// The `from` pattern is malformed.
    From(PatternError),
    /// The `to` pattern is malformed.
    To(PatternError),
    /// `to` must have as many `[*]` steps as `from`: they stand for the
    /// indexes kept from the source.
    Wildcards {
        /// `[*]` steps in `from`.
        from: usize,
        /// `[*]` steps in `to`.
        to: usize,
    },
}

impl fmt::Display for RenameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenameError::From(e) => write!(f, "invalid FROM pattern: {e}"),
            RenameError::To(e) => write!(f, "invalid TO pattern: {e}"),
            RenameError::Wildcards { from, to } => write!(
                f,
                "TO must have as many `[*]` as FROM, in the same order (FROM has {from}, TO has {to})"
            ),
        }
    }
}

impl std::error::Error for RenameError {}

impl Rename {
    /// A rename between two patterns with the same number of `[*]` steps.
    pub fn new(from: Pattern, to: Pattern) -> Result<Rename, RenameError> {
        if from.wildcards() != to.wildcards() {
            return Err(RenameError::Wildcards {
                from: from.wildcards(),
                to: to.wildcards(),
            });
        }
        Ok(Rename { from, to })
    }

    /// Reads both patterns and checks them (see [`Rename::new`]).
    pub fn parse(from: &str, to: &str) -> Result<Rename, RenameError> {
        let from = from.parse().map_err(RenameError::From)?;
        let to = to.parse().map_err(RenameError::To)?;
        Rename::new(from, to)
    }

    /// The pattern looked for.
    pub fn from(&self) -> &Pattern {
        &self.from
    }

    /// The pattern written instead.
    pub fn to(&self) -> &Pattern {
        &self.to
    }

    /// The references under `node` that the rename changes, in source
    /// order (uses of `for`-bound variables never match).
    pub fn matches(&self, node: &SyntaxNode) -> Vec<Reference> {
        collect::collect(node, false)
            .into_iter()
            .filter(|r| self.from.matches(&r.traversal))
            .collect()
    }

    /// The edits that rename every matching reference among `references`
    /// (found by any means: a native tree, a JSON file's strings).
    pub fn apply_to(&self, references: Vec<Reference>) -> Renamed {
        let mut edits = Vec::new();
        let mut matches = 0;
        for reference in references
            .iter()
            .filter(|r| self.from.matches(&r.traversal))
        {
            matches += 1;
            self.rewrite(reference, &mut edits);
        }
        Renamed {
            edits: normalize(edits),
            matches,
        }
    }

    /// The edits that rename every matching reference under `node`. Ranges
    /// are in the coordinates of `node`'s tree.
    pub fn apply(&self, node: &SyntaxNode) -> Renamed {
        self.apply_excluding(node, &[])
    }

    /// [`Rename::apply`] on a configuration file's text, one top-level
    /// item at a time: only the items whose text holds the pattern's
    /// root name are parsed, each alone, so that the tree of a large file
    /// is never built whole. Ranges are in the text's coordinates. A text
    /// with syntax errors is parsed whole, as [`Rename::apply`] takes it.
    ///
    /// ```
    /// let rename = hclwright::refs::Rename::parse("var.a", "var.b").unwrap();
    /// let renamed = rename.apply_text("x = 1\ny = var.a + 1\nz = [for a in var.a : a]\n");
    /// assert_eq!(renamed.matches, 2);
    /// assert_eq!(renamed.edits[0].range, text_size::TextRange::new(14.into(), 15.into()));
    /// ```
    pub fn apply_text(&self, text: &str) -> Renamed {
        self.apply_checked(text)
            .unwrap_or_else(|_| self.apply(&crate::parse(text).syntax()))
    }

    /// [`Rename::apply_text`] on a valid text, or its syntax errors (what
    /// [`syntax_errors`](crate::syntax_errors) gives), from one parse:
    /// a tool that renames only valid files checks and renames at once.
    ///
    /// ```
    /// let rename = hclwright::refs::Rename::parse("var.a", "var.b").unwrap();
    /// assert_eq!(rename.apply_checked("x = var.a\n").unwrap().matches, 1);
    /// assert_eq!(rename.apply_checked("x = \n").unwrap_err().len(), 1);
    /// ```
    pub fn apply_checked(&self, text: &str) -> Result<Renamed, Vec<crate::SyntaxError>> {
        let checked = crate::parser::parse_top_level(text);
        if !checked.errors.is_empty() {
            return Err(checked.errors);
        }
        let root = self.from.root();
        let mut edits = Vec::new();
        let mut matches = 0;
        for item in &checked.items {
            let Some(item_text) = text.get(item.start as usize..item.end as usize) else {
                continue;
            };
            // A reference starts with its root name, then its first step.
            if !item_text.contains(root) || !self.may_match(item_text) {
                continue;
            }
            let renamed = self.apply(&crate::parse(item_text).syntax());
            matches += renamed.matches;
            let offset = TextSize::from(item.start);
            edits.extend(renamed.edits.into_iter().map(|e| TextEdit {
                range: e.range + offset,
                new_text: e.new_text,
            }));
        }
        Ok(Renamed {
            edits: normalize(edits),
            matches,
        })
    }

    /// True when `text` may hold a reference the pattern matches, told
    /// from its tokens: the root name, then `.` or `[` and, when the
    /// pattern's first step is a name, that name after a `.` or a string
    /// after a `[`. Comments and newlines between them are skipped, and
    /// anything this does not tell apart counts as a maybe, so that a
    /// text it rules out has no match.
    fn may_match(&self, text: &str) -> bool {
        use crate::syntax_kind::SyntaxKind::{
            COMMENT, DOT, IDENT, L_BRACK, NEWLINE, OPEN_QUOTE, WHITESPACE,
        };
        let root = self.from.root();
        let Some(first) = self.from.steps().first() else {
            return true;
        };
        let lexed = crate::lexer::tokenize(text);
        let mut tokens = Vec::with_capacity(lexed.tokens.len());
        let mut at = 0usize;
        for token in &lexed.tokens {
            let len = token.len as usize;
            if !matches!(token.kind, WHITESPACE | COMMENT | NEWLINE) {
                tokens.push((token.kind, &text[at..at + len]));
            }
            at += len;
        }
        crate::lexer::recycle(lexed.tokens);
        tokens.windows(3).any(|w| match w {
            [(IDENT, name), (step, _), next] if *name == root => match (step, first) {
                (DOT, PatternStep::Attr(want)) => next.0 != IDENT || next.1 == want.as_str(),
                (L_BRACK, PatternStep::Attr(_)) => next.0 == OPEN_QUOTE,
                (DOT | L_BRACK, _) => true,
                _ => false,
            },
            _ => false,
        })
    }

    /// Like [`Rename::apply`], skipping references whose root lies inside
    /// one of the `excluded` ranges.
    pub(crate) fn apply_excluding(&self, node: &SyntaxNode, excluded: &[TextRange]) -> Renamed {
        let mut edits = Vec::new();
        let mut matches = 0;
        for reference in self.matches(node) {
            let root = reference.traversal.root_range;
            if excluded.iter().any(|r| r.contains_range(root)) {
                continue;
            }
            matches += 1;
            self.rewrite(&reference, &mut edits);
        }
        Renamed {
            edits: normalize(edits),
            matches,
        }
    }

    /// Renames in a configuration file's text. Refuses text with syntax
    /// errors (returned).
    pub fn rename_text(&self, text: &str) -> Result<Renamed, Vec<SyntaxError>> {
        let parse = crate::parse(text);
        if !parse.errors().is_empty() {
            return Err(parse.errors().to_vec());
        }
        let renamed = self.apply(&parse.syntax());
        Ok(Renamed {
            edits: crate::document::realigned(text, renamed.edits),
            matches: renamed.matches,
        })
    }

    /// Renames across files. Refuses the whole set if any file has syntax
    /// errors. Returns the files with at least one match, in input order.
    pub fn rename_files(&self, files: &[SourceFile]) -> Result<Vec<FileEdits>, InvalidFiles> {
        let parses = super::parse_all(files)?;
        Ok(files
            .iter()
            .zip(parses)
            .filter_map(|(file, parse)| {
                let renamed = self.apply(&parse.syntax());
                (renamed.matches > 0).then(|| FileEdits {
                    path: file.path.clone(),
                    edits: crate::document::realigned(&file.text, renamed.edits),
                    matches: renamed.matches,
                })
            })
            .collect())
    }

    /// Appends the edits for one matching reference.
    fn rewrite(&self, reference: &Reference, edits: &mut Vec<TextEdit>) {
        let t = &reference.traversal;
        if self.from.root() != self.to.root() {
            edits.push(TextEdit::replace(t.root_range, self.to.root()));
        }
        let from_segments = segments(self.from.steps());
        let to_segments = segments(self.to.steps());
        for (k, (from_seg, to_seg)) in from_segments.iter().zip(&to_segments).enumerate() {
            let source = &t.steps[from_seg.clone()];
            let anchor = if k == 0 {
                t.root_range.end()
            } else {
                t.steps[from_seg.start - 1].range.end()
            };
            rewrite_segment(
                source,
                &self.from.steps()[from_seg.clone()],
                &self.to.steps()[to_seg.clone()],
                anchor,
                edits,
            );
        }
    }
}

/// Renames every reference under `node` that starts with the pattern
/// `from` so that it starts with `to` instead; returns the edits.
///
/// ```
/// use hclwright::diff::apply_edits;
/// let text = "x = module.vpc.ids[0] + module.vpcs.n\n";
/// let parse = hclwright::parse(text);
/// let edits = hclwright::refs::rename_prefix(&parse.syntax(), "module.vpc", "module.network").unwrap();
/// assert_eq!(apply_edits(text, &edits).unwrap(), "x = module.network.ids[0] + module.vpcs.n\n");
/// ```
pub fn rename_prefix(
    node: &SyntaxNode,
    from: &str,
    to: &str,
) -> Result<Vec<TextEdit>, RenameError> {
    Ok(Rename::parse(from, to)?.apply(node).edits)
}

/// The index ranges of the runs of steps between `[*]` steps.
fn segments(steps: &[PatternStep]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, step) in steps.iter().enumerate() {
        if matches!(step, PatternStep::Any) {
            out.push(start..i);
            start = i + 1;
        }
    }
    out.push(start..steps.len());
    out
}

/// An alignment operation between source steps and `to` steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// Source step `i` becomes `to` step `j`.
    Replace(usize, usize),
    /// Source step `i` goes.
    Delete(usize),
    /// `to` step `j` is inserted.
    Insert(usize),
}

/// Edits turning `source` (matched by `from`) into `to`; insertions before
/// the first source step go at `anchor`.
fn rewrite_segment(
    source: &[Step],
    from: &[PatternStep],
    to: &[PatternStep],
    anchor: TextSize,
    edits: &mut Vec<TextEdit>,
) {
    let mut cursor = anchor;
    for op in align(from, to) {
        match op {
            Op::Replace(i, j) => {
                if !from[i].equivalent(&to[j]) {
                    edits.extend(replace_step(&source[i], &to[j]));
                }
                cursor = source[i].range.end();
            }
            Op::Delete(i) => {
                edits.push(TextEdit::delete(source[i].range));
                cursor = source[i].range.end();
            }
            Op::Insert(j) => edits.push(TextEdit::insert(cursor, to[j].to_string())),
        }
    }
}

/// The cheapest alignment of `from` to `to`: keeping an equivalent step
/// costs 0, replacing, inserting or deleting one costs 1. Ties prefer
/// replacing, then deleting.
fn align(from: &[PatternStep], to: &[PatternStep]) -> Vec<Op> {
    let (n, m) = (from.len(), to.len());
    // cost[i][j]: cost of aligning from[i..] with to[j..].
    let mut cost = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            cost[i][j] = if i == n {
                m - j
            } else if j == m {
                n - i
            } else {
                let replace = usize::from(!from[i].equivalent(&to[j])) + cost[i + 1][j + 1];
                let delete = 1 + cost[i + 1][j];
                let insert = 1 + cost[i][j + 1];
                replace.min(delete).min(insert)
            };
        }
    }
    let mut ops = Vec::with_capacity(n.max(m));
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m {
            let replace = usize::from(!from[i].equivalent(&to[j])) + cost[i + 1][j + 1];
            if replace == cost[i][j] {
                ops.push(Op::Replace(i, j));
                i += 1;
                j += 1;
                continue;
            }
        }
        if i < n && 1 + cost[i + 1][j] == cost[i][j] {
            ops.push(Op::Delete(i));
            i += 1;
        } else {
            ops.push(Op::Insert(j));
            j += 1;
        }
    }
    ops
}

/// The edit that turns a source step into `to`, changing as little as
/// possible: only the name, number or key text when the step keeps its
/// form, the whole step otherwise. `None` for a wildcard, which keeps the
/// step as written (segments hold none).
fn replace_step(step: &Step, to: &PatternStep) -> Option<TextEdit> {
    let whole = || TextEdit::replace(step.range, to.to_string());
    Some(match to {
        PatternStep::Attr(name) | PatternStep::Index(IndexKey::String(name)) => match &step.kind {
            StepKind::Attr(_) if is_identifier(name) => TextEdit::replace(step.name_range, name),
            StepKind::Attr(_) => {
                TextEdit::replace(step.range, format!("[\"{}\"]", escape_string(name)))
            }
            StepKind::Index(IndexKey::String(_)) => {
                TextEdit::replace(step.name_range, escape_string(name))
            }
            _ => whole(),
        },
        PatternStep::Index(IndexKey::Number(n)) => match &step.kind {
            StepKind::Index(IndexKey::Number(_)) | StepKind::LegacyIndex(_) => {
                TextEdit::replace(step.name_range, n)
            }
            _ => whole(),
        },
        PatternStep::Any => return None,
    })
}

/// Sorts edits by position (stably, so insertions at one offset keep their
/// order) and merges insertions at the same offset.
fn normalize(mut edits: Vec<TextEdit>) -> Vec<TextEdit> {
    edits.sort_by_key(|e| (e.range.start(), e.range.end()));
    let mut out: Vec<TextEdit> = Vec::with_capacity(edits.len());
    for edit in edits {
        if let Some(last) = out.last_mut()
            && last.range.is_empty()
            && edit.range.is_empty()
            && last.range == edit.range
        {
            last.new_text.push_str(&edit.new_text);
            continue;
        }
        out.push(edit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_filter_keeps_every_item_with_a_match() {
        let rename = Rename::parse("var.region", "var.zone").unwrap();
        let with = [
            "a = var.region\n",
            "a = var /* c */ . region\n",
            "a = (var\n.region)\n",
            "a = var[\"region\"]\n",
            "a = \"${var.region}-x\"\n",
            "a = <<EOT\n%{ if var.region != \"\" }x%{ endif }\nEOT\n",
            "b {\n  a = [for r in var.region : r]\n}\n",
        ];
        for text in with {
            assert!(rename.may_match(text), "{text:?}");
            let whole = rename.apply(&crate::parse(text).syntax());
            assert_eq!(rename.apply_text(text), whole, "{text:?}");
            assert!(whole.matches > 0, "{text:?}");
        }
        let without = [
            "a = var.regions\n",
            "var = 1\nregion = 2\n",
            "a = \"var.region\"\n",
            "# var.region\na = 1\n",
            "a = local.var.region\n",
            "a = var[\n",
        ];
        for text in without {
            assert_eq!(rename.apply_text(text).matches, 0, "{text:?}");
        }
        assert!(!rename.may_match("a = var.regions\n"));
        assert!(!rename.may_match("# var.region\n"));
    }

    fn steps(p: &str) -> Vec<PatternStep> {
        p.parse::<Pattern>().unwrap().steps().to_vec()
    }

    #[test]
    fn alignment_keeps_equal_steps() {
        assert_eq!(
            align(&steps("r.a"), &steps("r.settings.a")),
            [Op::Insert(0), Op::Replace(0, 1)]
        );
        assert_eq!(
            align(&steps("r.settings.a"), &steps("r.a")),
            [Op::Delete(0), Op::Replace(1, 0)]
        );
        assert_eq!(
            align(&steps("r.a.b"), &steps("r.x.y")),
            [Op::Replace(0, 0), Op::Replace(1, 1)]
        );
        assert_eq!(align(&steps("r"), &steps("r.x")), [Op::Insert(0)]);
    }

    #[test]
    fn segments_split_at_wildcards() {
        assert_eq!(segments(&steps("r.a[*].b")), [0..1, 2..3]);
        assert_eq!(segments(&steps("r[*][*]")), [0..0, 1..1, 2..2]);
        assert_eq!(segments(&steps("r")), vec![0..0]);
    }
}
