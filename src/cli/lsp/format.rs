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
/// the lines that differ.
pub fn minimal_edits(old: &str, new: &str) -> Vec<TextEdit> {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_secs(2))
        .diff_chars(old, new);
    let mut edits: Vec<TextEdit> = Vec::new();
    for op in diff.ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let start = byte_offset(old, old_range.start);
        let end = byte_offset(old, old_range.end);
        let new_text: String = new
            .chars()
            .skip(new_range.start)
            .take(new_range.len())
            .collect();
        let range = TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32));
        match edits.last_mut() {
            Some(last) if last.range.end() == range.start() => {
                last.range = last.range.cover(range);
                last.new_text.push_str(&new_text);
            }
            _ => edits.push(TextEdit { range, new_text }),
        }
    }
    edits
}

/// The byte offset of the `chars`-th character.
fn byte_offset(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
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
