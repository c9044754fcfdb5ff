//! Identifier tokens are immortal up to a process-wide allowance of 65 536,
//! then counted. One test in its own process (this file), so that no other
//! test spends the allowance first.

use std::collections::HashSet;

use hclwright::{SyntaxKind, SyntaxNode};

/// The allowance (`identifiers::MAX_IMMORTAL`).
const ALLOWANCE: usize = 1 << 16;

/// The identifier tokens of a tree: their text and whether each is
/// immortal.
fn identifiers(root: &SyntaxNode) -> Vec<(String, bool)> {
    root.descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == SyntaxKind::IDENT)
        .map(|t| (t.text().to_string(), t.green().to_owned().is_immortal()))
        .collect()
}

#[test]
fn identifiers_are_immortal_until_the_allowance_is_spent() {
    let first = hclwright::parse("alpha = beta.gamma\n");
    let seen = identifiers(&first.syntax());
    assert_eq!(seen.len(), 3);
    assert!(seen.iter().all(|(_, immortal)| *immortal), "{seen:?}");

    // More distinct names than the allowance has left.
    let extra = 100;
    let big: String = (0..ALLOWANCE + extra)
        .map(|i| format!("name{i} = beta\n"))
        .collect();
    let parse = hclwright::parse(&big);
    assert!(parse.errors().is_empty());
    let mut immortal = HashSet::new();
    let mut counted = HashSet::new();
    for (text, is_immortal) in identifiers(&parse.syntax()) {
        if is_immortal {
            immortal.insert(text);
        } else {
            counted.insert(text);
        }
    }
    // `beta` was made in the first parse with `alpha` and `gamma`; the
    // other names are new, and the three places taken then are missing now.
    assert!(immortal.contains("beta"));
    assert_eq!(immortal.len() - 1 + seen.len(), ALLOWANCE);
    assert_eq!(counted.len(), extra + seen.len());
    drop(parse);

    // Once it is spent, new names are counted; the trees keep their text.
    let late = hclwright::parse("late_name = 1\n");
    assert_eq!(identifiers(&late.syntax()), [("late_name".into(), false)]);
    assert_eq!(first.syntax().to_string(), "alpha = beta.gamma\n");
    drop(first);
    assert_eq!(late.syntax().to_string(), "late_name = 1\n");
}
