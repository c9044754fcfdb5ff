//! Formatting requests: the whole document, a range, and on type, each as
//! the smallest text edits; and the profile chosen for a document.

use hclwright::diff::TextEdit;
use hclwright::format::{Profile, format_edits, format_lenient, format_range_edits};
use hclwright::{FormatOptions, SyntaxKind, TextRange, TextSize, format_with};

/// The `profile` setting: which formatter to imitate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProfileSetting {
    /// `terraform fmt` for the files it takes (`.tf`, `.tfvars`,
    /// `.tftest.hcl`, `.tfmock.hcl`), hclfmt for the others (as `hclwright
    /// fmt --profile auto`).
    #[default]
    Auto,
    /// The hclfmt layout for every file.
    Hclfmt,
    /// `terraform fmt` for every file.
    Terraform,
}

impl ProfileSetting {
    /// Reads `{"hclwright": {"profile": …}}` or `{"profile": …}` (from the
    /// initialization options or a configuration change); `None` when the
    /// settings do not say.
    pub fn from_settings(settings: &serde_json::Value) -> Option<ProfileSetting> {
        let section = settings.get("hclwright").unwrap_or(settings);
        match section.get("profile")?.as_str()? {
            "auto" => Some(ProfileSetting::Auto),
            "hclfmt" => Some(ProfileSetting::Hclfmt),
            "terraform" => Some(ProfileSetting::Terraform),
            _ => None,
        }
    }

    /// The profile for the document at `uri`.
    pub fn profile_for(self, uri: &str) -> Profile {
        match self {
            ProfileSetting::Hclfmt => Profile::Hclfmt,
            ProfileSetting::Terraform => Profile::Terraform,
            ProfileSetting::Auto if is_terraform(uri) => Profile::Terraform,
            ProfileSetting::Auto => Profile::Hclfmt,
        }
    }
}

/// `.tf`, `.tfvars` and their test files take the terraform profile.
fn is_terraform(uri: &str) -> bool {
    [".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl"]
        .iter()
        .any(|ext| uri.ends_with(ext))
}

/// The edits that format `text`: the profile's layout for a valid file,
/// the lenient layout for one with syntax errors (so that format-on-save
/// works in the middle of an edit).
pub fn document(text: &str, profile: Profile) -> Vec<TextEdit> {
    let options = FormatOptions::with_profile(profile);
    if !hclwright::syntax_errors(text).is_empty() {
        return minimal_edits(text, &format_lenient(text, &options).0);
    }
    match profile {
        Profile::Hclfmt => format_edits(text),
        _ => match format_with(text, &options) {
            Ok(formatted) => minimal_edits(text, &formatted),
            Err(_) => Vec::new(),
        },
    }
}

/// The edits that lay out the lines `selected` touches.
pub fn range(text: &str, selected: TextRange) -> Vec<TextEdit> {
    format_range_edits(text, selected)
}

/// Format on type, with the cursor at `at` just after typing `typed`:
/// after `}`, the block or object it closes; after a newline, the line
/// it ended. Anything else: no edits.
pub fn on_type(text: &str, at: usize, typed: &str) -> Vec<TextEdit> {
    let at = at.min(text.len());
    let selected = match typed {
        "}" => {
            let Some(before) = at.checked_sub(1).filter(|&b| text.is_char_boundary(b)) else {
                return Vec::new();
            };
            let parse = hclwright::parse(text);
            let Some(brace) = parse
                .syntax()
                .token_at_offset(TextSize::from(before as u32))
                .find(|t| t.kind() == SyntaxKind::R_BRACE)
            else {
                return Vec::new();
            };
            let Some(closed) = brace.parent() else {
                return Vec::new();
            };
            closed.text_range()
        }
        "\n" => {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let Some(ended) = line_start.checked_sub(1) else {
                return Vec::new();
            };
            let previous = text[..ended].rfind('\n').map_or(0, |i| i + 1);
            TextRange::new(
                TextSize::from(previous as u32),
                TextSize::from(ended as u32),
            )
        }
        _ => return Vec::new(),
    };
    format_range_edits(text, selected)
}

/// The smallest edits from `old` to `new`, character by character inside
/// the lines that differ. Formatting keeps the number of lines, so line
/// `i` of one text is compared with line `i` of the other (linear
/// however many lines change); otherwise a line diff pairs the groups of
/// lines that differ.
pub fn minimal_edits(old: &str, new: &str) -> Vec<TextEdit> {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let mut edits = Vec::new();
    if old_lines.len() == new_lines.len() {
        let mut offset = 0;
        for (a, b) in old_lines.iter().zip(&new_lines) {
            if a != b {
                char_edits(a, b, offset, &mut edits);
            }
            offset += a.len();
        }
        return edits;
    }
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_secs(2))
        .diff_slices(&old_lines, &new_lines);
    let old_starts: Vec<usize> = std::iter::once(0)
        .chain(old_lines.iter().scan(0, |at, l| {
            *at += l.len();
            Some(*at)
        }))
        .collect();
    for op in diff.ops() {
        let (tag, o, n) = op.as_tag_tuple();
        if tag != similar::DiffTag::Equal {
            let a = &old[old_starts[o.start]..old_starts[o.end]];
            let b: String = new_lines[n].concat();
            char_edits(a, &b, old_starts[o.start], &mut edits);
        }
    }
    edits
}

/// Appends the edits from `old` to `new` (a piece of the text at byte
/// `base`), character by character, merging edits that touch.
fn char_edits(old: &str, new: &str, base: usize, edits: &mut Vec<TextEdit>) {
    // The common start and end first: what is left is often one side
    // empty (indentation added), which the diff need not search.
    let prefix: usize = old
        .chars()
        .zip(new.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let (old, new, base) = (&old[prefix..], &new[prefix..], base + prefix);
    let suffix: usize = old
        .chars()
        .rev()
        .zip(new.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let (old, new) = (&old[..old.len() - suffix], &new[..new.len() - suffix]);
    if old.is_empty() || new.is_empty() {
        let range = TextRange::new(
            TextSize::from(base as u32),
            TextSize::from((base + old.len()) as u32),
        );
        push_edit(edits, range, new);
        return;
    }
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_secs(2))
        .diff_chars(old, new);
    let (mut in_old, mut in_new) = (CharCursor::new(old), CharCursor::new(new));
    for op in diff.ops() {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let start = base + in_old.byte_at(o.start);
        let end = base + in_old.byte_at(o.end);
        let new_text = &new[in_new.byte_at(n.start)..in_new.byte_at(n.end)];
        let range = TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32));
        push_edit(edits, range, new_text);
    }
}

/// Appends an edit, merged with the last one when they touch.
fn push_edit(edits: &mut Vec<TextEdit>, range: TextRange, new_text: &str) {
    if range.is_empty() && new_text.is_empty() {
        return;
    }
    match edits.last_mut() {
        Some(last) if last.range.end() == range.start() => {
            last.range = last.range.cover(range);
            last.new_text.push_str(new_text);
        }
        _ => edits.push(TextEdit {
            range,
            new_text: new_text.to_string(),
        }),
    }
}

/// Character indices to byte offsets, for indices asked in increasing
/// order (one pass over the text in all).
struct CharCursor<'a> {
    chars: std::str::Chars<'a>,
    index: usize,
    byte: usize,
}

impl<'a> CharCursor<'a> {
    fn new(text: &'a str) -> CharCursor<'a> {
        CharCursor {
            chars: text.chars(),
            index: 0,
            byte: 0,
        }
    }

    /// The byte offset of the `index`-th character (the end of the text
    /// past it).
    fn byte_at(&mut self, index: usize) -> usize {
        while self.index < index {
            match self.chars.next() {
                Some(c) => self.byte += c.len_utf8(),
                None => break,
            }
            self.index += 1;
        }
        self.byte
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hclwright::diff::apply_edits;

    #[test]
    fn minimal_edits_touch_only_spaces() {
        let old = "a=1\nbb  = 2\n";
        let edits = minimal_edits(old, "a  = 1\nbb = 2\n");
        assert!(edits.iter().all(|e| e.new_text.trim().is_empty()));
        assert_eq!(apply_edits(old, &edits).unwrap(), "a  = 1\nbb = 2\n");
        // After non-ASCII text, and with lines added and removed.
        for (old, new) in [
            ("é=\"😀\"\nx  = 1", "é = \"😀\"\nx = 1"),
            ("a = 1\nb = 2\nc = 3\n", "a = 1\nc  = 3\nd = 4\ne\n"),
            ("a\nb\n", ""),
            ("", "x = 1\n"),
        ] {
            let edits = minimal_edits(old, new);
            assert_eq!(apply_edits(old, &edits).unwrap(), new, "{old:?}");
        }
    }

    #[test]
    fn profiles_by_setting_and_extension() {
        let auto = ProfileSetting::default();
        assert_eq!(auto.profile_for("file:///m/main.tf"), Profile::Terraform);
        assert_eq!(auto.profile_for("file:///m/x.tfvars"), Profile::Terraform);
        assert_eq!(auto.profile_for("file:///m/job.hcl"), Profile::Hclfmt);
        assert_eq!(
            ProfileSetting::Hclfmt.profile_for("file:///m/main.tf"),
            Profile::Hclfmt
        );
        let settings = serde_json::json!({"hclwright": {"profile": "terraform"}});
        assert_eq!(
            ProfileSetting::from_settings(&settings),
            Some(ProfileSetting::Terraform)
        );
        let flat = serde_json::json!({"profile": "hclfmt"});
        assert_eq!(
            ProfileSetting::from_settings(&flat),
            Some(ProfileSetting::Hclfmt)
        );
        assert_eq!(
            ProfileSetting::from_settings(&serde_json::json!(null)),
            None
        );
    }

    #[test]
    fn on_type_formats_the_closed_block_or_the_ended_line() {
        // `}` just typed at the end of the block: its lines are laid out,
        // not the line above it.
        let text = "a=1\nb {\nc=2\n}";
        let edits = on_type(text, text.len(), "}");
        assert_eq!(apply_edits(text, &edits).unwrap(), "a=1\nb {\n  c = 2\n}");
        // Newline typed after `x=1`: that line only (and the `=` of its
        // alignment run).
        let text = "y=2\n\n  x=1\n";
        let edits = on_type(text, text.len(), "\n");
        assert_eq!(apply_edits(text, &edits).unwrap(), "y=2\n\nx = 1\n");
        // Anything else, or a `}` that closes nothing: no edits.
        assert!(on_type(text, 2, "a").is_empty());
        assert!(on_type("a = 1", 0, "}").is_empty());
    }
}
