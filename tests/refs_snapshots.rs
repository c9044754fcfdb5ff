//! Snapshots of the references found in `fixtures/refs/*.hcl`: one line
//! per reference (`line:col traversal`, `(local)` for uses of `for`-bound
//! variables), then one line per step with the text of its range and of
//! its name range, so a wrong range shows up when reviewing.

use hclwright::refs::{Binding, references_with_locals};

fn describe(text: &str) -> String {
    let parse = hclwright::parse(text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let slice = |r: hclwright::TextRange| &text[usize::from(r.start())..usize::from(r.end())];
    let mut out = String::new();
    for reference in references_with_locals(&parse.syntax()) {
        let t = &reference.traversal;
        let (line, col) = hclwright::line_col(text, t.root_range.start());
        let local = match reference.binding {
            Binding::Free => String::new(),
            Binding::Local { declaration } => {
                let (l, c) = hclwright::line_col(text, declaration.start());
                format!("  (local, bound at {l}:{c})")
            }
        };
        out.push_str(&format!("{line}:{col} {t}{local}\n"));
        assert_eq!(slice(t.root_range), t.root);
        for step in &t.steps {
            out.push_str(&format!(
                "    {:<14} {:?} name {:?}\n",
                step.kind.to_string(),
                slice(step.range),
                slice(step.name_range)
            ));
        }
    }
    out
}

#[test]
fn references_of_fixtures() {
    insta::glob!("../fixtures/refs", "*.hcl", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(describe(&text));
    });
}
