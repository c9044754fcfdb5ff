//! Invariant 5: deep nesting gives an error, never a stack overflow, and
//! the tree stays lossless. Each case runs on a thread with a deliberately
//! small stack (1 MiB, half of the default for test threads). Nesting as
//! deep as `terraform` accepts (10 000 levels and more) parses cleanly;
//! beyond [`hclwright::MAX_DEPTH`] it is an error.

use hclwright::{MAX_DEPTH, parse, parse_expr, parse_template};

/// Beyond the limit.
const DEPTH: usize = MAX_DEPTH as usize + 1_000;
/// What terraform takes (50 000 levels of parentheses parse there).
const TERRAFORM_DEPTH: usize = 10_000;

fn on_small_stack<F: FnOnce() + Send + 'static>(f: F) {
    on_stack(1 << 20, f);
}

fn on_stack<F: FnOnce() + Send + 'static>(size: usize, f: F) {
    std::thread::Builder::new()
        .stack_size(size)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the parser must not overflow the stack");
}

fn check_deep(open: &str, close: &str) {
    let open = open.to_string();
    let close = close.to_string();
    on_small_stack(move || {
        let inner = format!("{}1{}", open.repeat(DEPTH), close.repeat(DEPTH));
        let text = format!("a = {inner}\n");
        let p = parse(&text);
        assert_eq!(p.syntax().to_string(), text);
        assert!(
            p.errors()
                .iter()
                .any(|e| e.message.contains("nesting is too deep")),
            "expected a depth error for {open}"
        );
        let p = parse_expr(&inner);
        assert_eq!(p.syntax().to_string(), inner);
        assert!(!p.errors().is_empty());
        // Unclosed: only openers.
        let unclosed = format!("a = {}\n", open.repeat(DEPTH));
        let p = parse(&unclosed);
        assert_eq!(p.syntax().to_string(), unclosed);
        assert!(!p.errors().is_empty());
        drop(p);
    });
}

#[test]
fn deep_brackets() {
    check_deep("[", "]");
}

#[test]
fn deep_parens() {
    check_deep("(", ")");
}

#[test]
fn deep_objects() {
    check_deep("{a = ", "}");
}

#[test]
fn deep_interpolations() {
    check_deep("\"${", "}\"");
}

#[test]
fn deep_unary_operators() {
    on_small_stack(|| {
        let text = format!("a = {}1\n", "-".repeat(DEPTH));
        let p = parse(&text);
        assert_eq!(p.syntax().to_string(), text);
        assert!(!p.errors().is_empty());
    });
}

#[test]
fn long_operator_and_traversal_chains() {
    on_small_stack(|| {
        let text = format!("a = 1{}\n", " + 1".repeat(4 * DEPTH));
        let p = parse(&text);
        assert_eq!(p.syntax().to_string(), text);
        assert!(!p.errors().is_empty());
        let text = format!("a = x{}\n", ".y".repeat(4 * DEPTH));
        let p = parse(&text);
        assert_eq!(p.syntax().to_string(), text);
        assert!(!p.errors().is_empty());
    });
}

#[test]
fn deep_blocks() {
    on_small_stack(|| {
        let text = format!("{}{}", "b {\n".repeat(DEPTH), "}\n".repeat(DEPTH));
        let p = parse(&text);
        assert_eq!(p.syntax().to_string(), text);
        assert!(!p.errors().is_empty());
    });
}

#[test]
fn deep_template_directives() {
    on_small_stack(|| {
        let text = format!(
            "{}x{}",
            "%{ if a }".repeat(DEPTH),
            "%{ endif }".repeat(DEPTH)
        );
        let p = parse_template(&text);
        assert_eq!(p.syntax().to_string(), text);
        assert!(!p.errors().is_empty());
    });
}

#[test]
fn deep_strings_with_the_terraform_profile() {
    // Nested strings that are not interpolation-only: the terraform
    // profile's pre-check matches their sequences in one pass (scanning
    // each level to its end again would take hours here), and the file is
    // refused for its nesting.
    on_small_stack(|| {
        let text = format!("a = {}1{}\n", "\"${".repeat(DEPTH), "}x\"".repeat(DEPTH));
        let refused = hclwright::format_with(&text, &hclwright::FormatOptions::terraform());
        assert!(refused.is_err());
    });
}

#[test]
fn moderate_nesting_is_fine() {
    // Real configurations nest a few levels; 100 levels must parse cleanly.
    let text = format!("a = {}1{}\n", "[".repeat(100), "]".repeat(100));
    let p = parse(&text);
    assert!(p.errors().is_empty(), "{:?}", p.errors());
}

#[test]
fn messages_that_name_other_positions_stay_linear() {
    // Each error names where its string was opened, or where the
    // attribute was first set: the positions come from one index of the
    // lines, not from rescanning the text for each error (that was
    // quadratic: a minute for 200 000 such lines).
    const LINES: usize = 50_000;
    let unterminated: String = (0..LINES).map(|i| format!("a{i} = \"x\n")).collect();
    let errors = hclwright::syntax_errors(&unterminated);
    assert_eq!(errors.len(), LINES);
    for (i, e) in errors.iter().enumerate() {
        let opened = format!("opened at {}:{}", i + 1, 5 + i.to_string().len());
        assert!(e.message.contains(&opened), "{}: {}", e.line, e.message);
    }
    let twice: String = (0..2)
        .flat_map(|_| (0..LINES).map(|i| format!("b{i} = 1\n")))
        .collect();
    let errors = hclwright::parse(&twice).errors().to_vec();
    let redefined: Vec<_> = errors
        .iter()
        .filter(|e| e.message.contains("redefined"))
        .collect();
    assert_eq!(redefined.len(), LINES);
    for (i, e) in redefined.iter().enumerate() {
        assert!(
            e.message.contains(&format!("already set at {}:1", i + 1)),
            "{}: {}",
            e.line,
            e.message
        );
    }
}

#[test]
fn rendering_many_errors_on_one_long_line_stays_linear() {
    // Each rendered error shows a window of the line around it; finding the
    // window scans at most the context shown, not the whole line (which
    // made rendering every error of a 200 KB line take seconds).
    const ERRORS: usize = 20_000;
    let text = format!("x = \"{}\"\n", "\\q".repeat(ERRORS));
    let errors = hclwright::syntax_errors(&text);
    assert_eq!(errors.len(), ERRORS);
    let mut shown = 0;
    for e in &errors {
        let rendered = e.render("long.tf", &text);
        let source = rendered.lines().nth(1).unwrap();
        assert!(source.chars().count() <= 2 + 1 + 80 + 80 + 1, "{source}");
        shown += rendered.len();
    }
    assert!(shown > ERRORS * 100);
}

/// As deep as terraform takes, on a small stack: no error, lossless, and
/// the tree is freed without overflowing (rowan, as carried, frees a tree
/// in one loop).
#[test]
fn terraform_depths_parse_cleanly() {
    for (open, close) in [("(", ")"), ("[", "]"), ("\"${", "}\""), ("{a = ", "}")] {
        let (open, close) = (open.to_string(), close.to_string());
        on_small_stack(move || {
            let text = format!(
                "a = {}1{}\n",
                open.repeat(TERRAFORM_DEPTH),
                close.repeat(TERRAFORM_DEPTH)
            );
            let p = parse(&text);
            assert!(p.errors().is_empty(), "{open}: {:?}", &p.errors()[..1]);
            assert_eq!(p.syntax().to_string(), text);
            let formatted = hclwright::format(&text);
            assert_eq!(hclwright::format(&formatted), formatted);
        });
    }
    on_small_stack(|| {
        let text = format!(
            "{}{}",
            "b {\n".repeat(TERRAFORM_DEPTH),
            "}\n".repeat(TERRAFORM_DEPTH)
        );
        let p = parse(&text);
        assert!(p.errors().is_empty());
        assert_eq!(p.syntax().to_string(), text);
        let text = format!("a = 1{}\n", " + 1".repeat(TERRAFORM_DEPTH * 5));
        assert!(parse(&text).errors().is_empty());
    });
}

/// The editing API on a file as deep as terraform takes: read, edit and
/// free the document. Walks over the tree recurse once per level, so this
/// needs a stack sized for the nesting (the command-line tool runs on one);
/// parsing and freeing alone do not (see above).
#[test]
fn documents_nested_as_deep_as_terraform_takes() {
    on_stack(256 << 20, || {
        let text = format!(
            "a = {}1{}\nb {{\n  c = 1\n}}\n",
            "(".repeat(TERRAFORM_DEPTH),
            ")".repeat(TERRAFORM_DEPTH)
        );
        let mut doc = hclwright::Document::parse(&text).unwrap();
        doc.set("b.c", 2).unwrap();
        assert!(doc.to_string().ends_with("b {\n  c = 2\n}\n"));
        assert_eq!(
            doc.get("a").unwrap().text().len(),
            4 + 2 * TERRAFORM_DEPTH + 1
        );
        drop(doc);
    });
}
