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
