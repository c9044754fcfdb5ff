//! Every command on files nested as deeply as `terraform` accepts (10 000
//! levels of parentheses, `"${` and blocks): no error, no stack overflow,
//! and `fmt` lays them out as `terraform fmt` does; beyond `MAX_DEPTH`, a
//! positioned error.

mod common;

use common::{TempDir, code, stderr, stdout};

const DEPTH: usize = 10_000;

fn deep_files() -> TempDir {
    let paren = format!("a = {}1{}\n", "(".repeat(DEPTH), ")".repeat(DEPTH));
    let template = format!("a = {}1{}\n", "\"${".repeat(DEPTH), "}\"".repeat(DEPTH));
    let blocks = format!("{}{}", "b {\n".repeat(DEPTH), "}\n".repeat(DEPTH));
    TempDir::new(&[
        ("paren.tf", paren.as_str()),
        ("template.tf", template.as_str()),
        ("blocks.tf", blocks.as_str()),
    ])
}

#[test]
fn every_command_takes_terraform_depths() {
    let dir = deep_files();
    for file in ["paren.tf", "template.tf", "blocks.tf"] {
        for args in [
            vec!["check", file],
            vec!["fmt", "-check", "-list=false", file],
            vec!["fmt", "--profile", "hclfmt", "-check", "-list=false", file],
            vec!["set", "zz", "1", file],
            vec!["refs", file],
            vec!["rename", "var.x", "var.y", file],
        ] {
            let o = common::hclwright(dir.path(), &args, b"");
            // 0, or 1 (nothing found), or 3 (would be reformatted): never
            // 2 (an error) nor a crash.
            assert!(
                matches!(code(&o), 0 | 1 | 3),
                "{args:?}: exit {}: {}",
                code(&o),
                stderr(&o)
            );
        }
        let o = common::hclwright(dir.path(), &["get", "a", file], b"");
        assert!(matches!(code(&o), 0 | 1), "{file}: {}", stderr(&o));
    }
    // The deep template and blocks are laid out as terraform fmt does: the
    // blocks indented, 2 spaces a level.
    let o = common::hclwright(
        dir.path(),
        &["fmt", "--stdin-filename", "b.tf", "-"],
        dir.read("blocks.tf").as_bytes(),
    );
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 2 * DEPTH);
    assert!(
        out.lines()
            .nth(DEPTH - 1)
            .unwrap()
            .starts_with(&" ".repeat(2 * (DEPTH - 1)))
    );
}

#[test]
fn beyond_the_limit_is_a_positioned_error() {
    let depth = hclwright::MAX_DEPTH as usize + 10;
    let text = format!("a = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
    let dir = TempDir::new(&[("p.tf", text.as_str())]);
    let o = common::hclwright(dir.path(), &["check", "p.tf"], b"");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).starts_with(&format!(
            "p.tf:1:{}: nesting is too deep",
            5 + hclwright::MAX_DEPTH
        )),
        "{}",
        &stderr(&o)[..200.min(stderr(&o).len())]
    );
}
