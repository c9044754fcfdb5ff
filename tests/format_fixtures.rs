//! The formatter on `fixtures/format/`: each `NAME.hcl` must format to
//! `NAME.golden` (made by the reference formatter, see the README there),
//! each `terraform/NAME.tf` must format with the terraform profile to
//! `terraform/NAME.golden` (made by `terraform fmt`), and every golden must
//! be left as it is.

use std::path::{Path, PathBuf};

use hclwright::{FormatOptions, format, format_with};
use pretty_assertions::assert_eq;

fn fixtures(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no fixtures in {}", dir.display());
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn golden_of(input: &Path) -> String {
    read(&input.with_extension("golden"))
}

#[test]
fn hclfmt_fixtures_match_their_goldens() {
    for input in fixtures("fixtures/format", "hcl") {
        let text = read(&input);
        assert_eq!(format(&text), golden_of(&input), "{}", input.display());
    }
}

#[test]
fn terraform_fixtures_match_their_goldens() {
    let options = FormatOptions::terraform();
    for input in fixtures("fixtures/format/terraform", "tf") {
        let text = read(&input);
        let actual = format_with(&text, &options)
            .unwrap_or_else(|e| panic!("{}: refused: {e}", input.display()));
        assert_eq!(actual, golden_of(&input), "{}", input.display());
    }
}

#[test]
fn goldens_are_fixed_points() {
    for golden in fixtures("fixtures/format", "golden") {
        let text = read(&golden);
        assert_eq!(format(&text), text, "{}", golden.display());
    }
    let options = FormatOptions::terraform();
    for golden in fixtures("fixtures/format/terraform", "golden") {
        let text = read(&golden);
        assert_eq!(
            format_with(&text, &options).expect("a golden is valid"),
            text,
            "{}",
            golden.display()
        );
    }
}

/// Upstream's own formatter test cases (`TestFormat` of hclwrite, recorded
/// by `scripts/upstream-format-cases/record.py`): bodies, bare expressions,
/// templates and token runs that do not parse. Each is laid out by
/// `format_tokens` exactly as `hclwrite.Format` lays it out; the bare
/// expressions and templates also through `format_expr`; only spaces change.
#[test]
fn upstream_format_cases() {
    use hclwright::format::{format_expr, format_tokens};
    let mut expressions = 0;
    let inputs = fixtures("fixtures/format/upstream", "hcl");
    assert_eq!(inputs.len(), 61);
    for input in inputs {
        let text = read(&input);
        let golden = golden_of(&input);
        let formatted = format_tokens(&text);
        assert_eq!(formatted, golden, "{}", input.display());
        assert_eq!(format_tokens(&golden), golden, "{}", input.display());
        let squeezed = |s: &str| s.replace([' ', '\t'], "");
        assert_eq!(squeezed(&formatted), squeezed(&text), "{}", input.display());
        if hclwright::parse_expr(&text).errors().is_empty() {
            expressions += 1;
            assert_eq!(format_expr(&text).unwrap(), golden, "{}", input.display());
        } else {
            assert!(format_expr(&text).is_err(), "{}", input.display());
        }
    }
    assert!(expressions >= 15, "only {expressions} expressions");
}
