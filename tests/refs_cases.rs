//! Targeted checks of references and renames: the examples of
//! traversals-notes.txt with exact step ranges, scopes, object keys,
//! deep nesting, and renames at expression, body and file level.

use hclwright::diff::apply_edits;
use hclwright::refs::{
    Binding, IndexKey, Rename, SourceFile, StepKind, references, references_in_files,
    references_with_locals,
};
use hclwright::{MAX_DEPTH, TextRange};

fn shown(text: &str) -> Vec<String> {
    let parse = hclwright::parse_expr(text);
    assert!(parse.errors().is_empty(), "{text}: {:?}", parse.errors());
    references(&parse.syntax())
        .iter()
        .map(|r| r.traversal.to_string())
        .collect()
}

fn range(a: u32, b: u32) -> TextRange {
    TextRange::new(a.into(), b.into())
}

#[test]
fn relative_traversal_continues_through_a_dynamic_index() {
    let text = "foo.x[count.index].name";
    let parse = hclwright::parse_expr(text);
    let refs = references(&parse.syntax());
    assert_eq!(refs.len(), 2);
    let t = &refs[0].traversal;
    assert_eq!(t.root, "foo");
    assert_eq!(t.root_range, range(0, 3));
    let kinds: Vec<_> = t.steps.iter().map(|s| s.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            StepKind::Attr("x".into()),
            StepKind::DynamicIndex,
            StepKind::Attr("name".into())
        ]
    );
    let ranges: Vec<_> = t.steps.iter().map(|s| s.range).collect();
    assert_eq!(ranges, [range(3, 5), range(5, 18), range(18, 23)]);
    assert_eq!(t.steps[1].name_range, range(6, 17));
    assert_eq!(t.range(), range(0, 23));
    assert_eq!(refs[1].traversal.to_string(), "count.index");
}

#[test]
fn literal_indexes() {
    let parse = hclwright::parse_expr(r#"l[0].name + l["k"].x + l.1"#);
    let refs = references(&parse.syntax());
    let kinds: Vec<_> = refs
        .iter()
        .map(|r| r.traversal.steps[0].kind.clone())
        .collect();
    assert_eq!(
        kinds,
        [
            StepKind::Index(IndexKey::Number("0".into())),
            StepKind::Index(IndexKey::String("k".into())),
            StepKind::LegacyIndex("1".into()),
        ]
    );
    assert_eq!(shown("l[count.index].name"), ["l[…].name", "count.index"]);
}

#[test]
fn object_keys() {
    assert_eq!(
        shown(r#"{ k1 = "v1", (var.a) = "v2", "foo" = "v3", "${var.k}" = 4, k2.x = 5 }"#),
        ["var.a", "var.k", "k2.x"]
    );
}

#[test]
fn traversal_stops_at_parentheses_calls_and_operators() {
    assert_eq!(shown("(var.a).b"), ["var.a"]);
    assert_eq!(shown("f(var.a).b"), ["var.a"]);
    assert_eq!(shown("-var.a"), ["var.a"]);
    assert_eq!(shown("[true, false, null, var.x]"), ["var.x"]);
}

#[test]
fn found_everywhere() {
    assert_eq!(
        shown("c ? f(a, [b], {k = d}) : \"${e}%{ if g }${h}%{ else }i%{ endif }\""),
        ["c", "a", "b", "d", "e", "g", "h"]
    );
    assert_eq!(
        shown("<<EOT\n${a.b}\n%{ for x in c }${x}${d}%{ endfor }\nEOT\n"),
        ["a.b", "c", "d"]
    );
    assert_eq!(
        shown("{ for k, v in m : k => v.x if v.y && z }"),
        ["m", "z"]
    );
}

#[test]
fn shadowing_uses_the_innermost_binding() {
    let text = "[for x in x : [for x in x.kids : x.id]]";
    let parse = hclwright::parse_expr(text);
    let refs = references_with_locals(&parse.syntax());
    let bindings: Vec<_> = refs
        .iter()
        .map(|r| match r.binding {
            Binding::Free => None,
            Binding::Local { declaration } => Some(u32::from(declaration.start())),
        })
        .collect();
    // `x` (outer collection, free), `x.kids` (outer x at 5), `x.id` (inner x at 19).
    assert_eq!(bindings, [None, Some(5), Some(19)]);
}

#[test]
fn deep_nesting_is_walked_without_recursion() {
    let depth = MAX_DEPTH as usize - 2;
    let text = format!("{}var.deep{}", "[".repeat(depth), "]".repeat(depth));
    assert_eq!(shown(&text), ["var.deep"]);

    let fors = 60;
    let mut text = String::new();
    for i in 0..fors {
        text.push_str(&format!("[for v{i} in var.c{i} : "));
    }
    text.push_str("v0.x");
    text.push_str(&"]".repeat(fors));
    let found = shown(&text);
    assert_eq!(found.len(), fors);
    assert!(found.iter().all(|t| t.starts_with("var.c")));

    let chain = format!("var{}", ".a".repeat(500));
    let parse = hclwright::parse_expr(&chain);
    let refs = references(&parse.syntax());
    assert_eq!(refs.len(), 1);
    assert_eq!(refs[0].traversal.steps.len(), 500);
    let renamed = Rename::parse("var.a.a", "var.b")
        .unwrap()
        .apply(&parse.syntax());
    let new_text = apply_edits(&chain, &renamed.edits).unwrap();
    assert_eq!(new_text, format!("var.b{}", ".a".repeat(498)));
}

#[test]
fn rename_at_expression_body_and_file_level() {
    let rename = Rename::parse("var.a", "var.b").unwrap();

    let expr = hclwright::parse_expr("var.a + var.ab");
    let edits = rename.apply(&expr.syntax()).edits;
    assert_eq!(
        apply_edits("var.a + var.ab", &edits).unwrap(),
        "var.b + var.ab"
    );

    let text = "x = var.a\nblk {\n  y = var.a.z\n}\n";
    let file = hclwright::parse(text);
    let block = file.body().unwrap().blocks().next().unwrap();
    let body = block.body().unwrap();
    use hclwright::ast::AstNode;
    let edits = rename.apply(body.syntax()).edits;
    assert_eq!(edits.len(), 1);
    assert_eq!(
        apply_edits(text, &edits).unwrap(),
        "x = var.a\nblk {\n  y = var.b.z\n}\n"
    );

    let all = rename.rename_text(text).unwrap();
    assert_eq!(all.matches, 2);
    assert_eq!(
        apply_edits(text, &all.edits).unwrap(),
        "x = var.b\nblk {\n  y = var.b.z\n}\n"
    );
    assert!(rename.rename_text("x = var.a +\n").is_err());
}

#[test]
fn rename_never_touches_for_variables() {
    let rename = Rename::parse("each.value", "each.item").unwrap();
    let text = "a = [for each in xs : each.value]\nb = each.value\n";
    let renamed = rename.rename_text(text).unwrap();
    assert_eq!(renamed.matches, 1);
    assert_eq!(
        apply_edits(text, &renamed.edits).unwrap(),
        "a = [for each in xs : each.value]\nb = each.item\n"
    );
}

#[test]
fn numeric_keys_match_by_value_and_string_keys_match_attributes() {
    let rename = Rename::parse("var.l[0]", "var.l[1]").unwrap();
    let text = "a = var.l[00]\n";
    assert_eq!(
        apply_edits(text, &rename.rename_text(text).unwrap().edits).unwrap(),
        "a = var.l[1]\n"
    );

    let rename = Rename::parse(r#"var.m["a"]"#, "var.m.b").unwrap();
    let text = "a = var.m.a\nb = var.m[\"a\"]\n";
    assert_eq!(
        apply_edits(text, &rename.rename_text(text).unwrap().edits).unwrap(),
        "a = var.m.b\nb = var.m[\"b\"]\n"
    );
}

#[test]
fn identity_rename_matches_without_edits() {
    let renamed = Rename::parse("var.a", "var.a")
        .unwrap()
        .rename_text("x = var.a\n")
        .unwrap();
    assert_eq!(renamed.matches, 1);
    assert!(renamed.edits.is_empty());
}

#[test]
fn references_of_a_set_of_files() {
    let files = [
        SourceFile::new("a.tf", "x = var.one\n"),
        SourceFile::new("b.tf", "y = [var.two, local.three]\n"),
    ];
    let found = references_in_files(&files).unwrap();
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|f| {
            f.references
                .iter()
                .map(|r| r.traversal.to_string())
                .collect()
        })
        .collect();
    assert_eq!(names, [vec!["var.one"], vec!["var.two", "local.three"]]);
}
