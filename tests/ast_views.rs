//! The typed views: accessors by role on every construct.

use hclwright::ast::*;

fn attr_expr(text: &str) -> Expr {
    let parse = hclwright::parse(text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    parse
        .body()
        .unwrap()
        .attributes()
        .next()
        .unwrap()
        .expr()
        .unwrap()
}

fn text(e: &Option<Expr>) -> String {
    e.as_ref().map(|e| e.to_string()).unwrap_or_default()
}

#[test]
fn body_items_attributes_blocks_and_comments() {
    let src = "# detached\n\n# lead\na = 1 # tail\nb \"x\" y {\n  c = 2\n}\nd { e = 3 }\n";
    let parse = hclwright::parse(src);
    let body = parse.body().unwrap();
    let names: Vec<_> = body.items().map(|i| i.name().unwrap()).collect();
    assert_eq!(names, ["a", "b", "d"]);
    let a = body.attribute("a").unwrap();
    assert_eq!(a.name().unwrap(), "a");
    assert_eq!(
        a.leading_comments()
            .iter()
            .map(|t| t.text().to_string())
            .collect::<Vec<_>>(),
        ["# lead"]
    );
    assert_eq!(a.trailing_comment().unwrap().text(), "# tail");
    assert_eq!(
        body.detached_comments()
            .map(|t| t.text().to_string())
            .collect::<Vec<_>>(),
        ["# detached"]
    );
    let b = body.blocks_of_type("b").next().unwrap();
    let labels: Vec<_> = b.labels().map(|l| (l.value(), l.is_quoted())).collect();
    assert_eq!(labels, [("x".to_string(), true), ("y".to_string(), false)]);
    let escaped = hclwright::parse("b \"a\\\"b\\u00e9\" \"\" {\n}\n");
    let escaped = escaped.body().unwrap().blocks_of_type("b").next().unwrap();
    let labels: Vec<String> = escaped.labels().map(|l| l.value()).collect();
    assert_eq!(labels, ["a\"b\u{e9}", ""]);
    assert!(!b.is_single_line());
    assert_eq!(
        b.body()
            .unwrap()
            .attribute("c")
            .unwrap()
            .expr()
            .unwrap()
            .to_string(),
        "2"
    );
    let d = body.blocks_of_type("d").next().unwrap();
    assert!(d.is_single_line());
}

#[test]
fn literals_and_variables() {
    match attr_expr("a = 1.5e3\n") {
        Expr::Literal(l) => assert_eq!(l.value(), Some(LiteralValue::Number("1.5e3".into()))),
        e => panic!("{e:?}"),
    }
    match attr_expr("a = null\n") {
        Expr::Literal(l) => assert_eq!(l.value(), Some(LiteralValue::Null)),
        e => panic!("{e:?}"),
    }
    match attr_expr("a = foo\n") {
        Expr::Variable(v) => assert_eq!(v.name().unwrap(), "foo"),
        e => panic!("{e:?}"),
    }
}

#[test]
fn operators_and_conditionals() {
    let Expr::Binary(b) = attr_expr("a = 1 + 2 * 3\n") else {
        panic!()
    };
    assert_eq!(b.op().unwrap().text(), "+");
    assert_eq!(text(&b.lhs()), "1");
    assert_eq!(text(&b.rhs()), "2 * 3");
    let Expr::Conditional(c) = attr_expr("a = x ? y : z\n") else {
        panic!()
    };
    assert_eq!(
        (
            text(&c.condition()),
            text(&c.true_expr()),
            text(&c.false_expr())
        ),
        ("x".into(), "y".into(), "z".into())
    );
    let Expr::Unary(u) = attr_expr("a = !x\n") else {
        panic!()
    };
    assert_eq!(u.op().unwrap().text(), "!");
    assert_eq!(text(&u.operand()), "x");
    let Expr::Paren(p) = attr_expr("a = (x)\n") else {
        panic!()
    };
    assert_eq!(text(&p.expr()), "x");
}

#[test]
fn traversals_nest_left_to_right() {
    let Expr::GetAttr(name) = attr_expr("a = foo.x[count.index].name\n") else {
        panic!()
    };
    assert_eq!(name.name().unwrap(), "name");
    let Some(Expr::Index(index)) = name.target() else {
        panic!()
    };
    assert_eq!(text(&index.key()), "count.index");
    assert!(!index.is_legacy());
    assert_eq!(text(&index.target()), "foo.x");
    let Expr::Index(legacy) = attr_expr("a = foo.0\n") else {
        panic!()
    };
    assert!(legacy.is_legacy());
    assert_eq!(legacy.legacy_index().unwrap().text(), "0");
    let Expr::GetAttr(g) = attr_expr("a = l[*].id\n") else {
        panic!()
    };
    let Some(Expr::Splat(s)) = g.target() else {
        panic!()
    };
    assert!(s.is_full());
    let Expr::Splat(s) = attr_expr("a = l.*\n") else {
        panic!()
    };
    assert!(!s.is_full());
}

#[test]
fn collections() {
    let Expr::Tuple(t) = attr_expr("a = [1, \"two\", x]\n") else {
        panic!()
    };
    assert_eq!(
        t.elements().map(|e| e.to_string()).collect::<Vec<_>>(),
        ["1", "\"two\"", "x"]
    );
    let Expr::Object(o) =
        attr_expr("a = {\n  # c\n  k = 1, # t\n  \"q k\" : 2\n  (var.x) = 3\n}\n")
    else {
        panic!()
    };
    let items: Vec<_> = o.items().collect();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].key().unwrap().bare_name().unwrap(), "k");
    assert_eq!(items[0].leading_comments()[0].text(), "# c");
    assert_eq!(items[0].trailing_comment().unwrap().text(), "# t");
    assert!(items[0].comma().is_some());
    assert_eq!(items[1].key().unwrap().literal_name().unwrap(), "q k");
    assert_eq!(items[1].separator().unwrap().text(), ":");
    assert_eq!(items[2].key().unwrap().bare_name(), None);
    assert_eq!(text(&items[2].value()), "3");
}

#[test]
fn function_calls() {
    let Expr::FunctionCall(f) = attr_expr("a = provider::aws::arn_parse(x, y...)\n") else {
        panic!()
    };
    assert_eq!(f.name(), "provider::aws::arn_parse");
    assert_eq!(
        f.args().iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        ["x", "y"]
    );
    assert!(f.arg_list().unwrap().has_ellipsis());
}

#[test]
fn for_expressions() {
    let Expr::ForExpr(f) = attr_expr("a = {for k, v in m : upper(k) => v... if v != null}\n")
    else {
        panic!()
    };
    assert!(f.is_object());
    assert_eq!(f.key_var().unwrap().text(), "k");
    assert_eq!(f.value_var().unwrap().text(), "v");
    assert_eq!(text(&f.collection()), "m");
    assert_eq!(text(&f.key_expr()), "upper(k)");
    assert_eq!(text(&f.value_expr()), "v");
    assert!(f.is_grouping());
    assert_eq!(text(&f.condition()), "v != null");
    let Expr::ForExpr(f) = attr_expr("a = [for x in l : x * 2]\n") else {
        panic!()
    };
    assert!(!f.is_object());
    assert!(f.key_var().is_none());
    assert_eq!(text(&f.value_expr()), "x * 2");
    assert!(f.key_expr().is_none());
}

#[test]
fn templates() {
    let Expr::QuotedTemplate(q) = attr_expr("a = \"tab\\t $${x} \\u00e9\"\n") else {
        panic!()
    };
    assert_eq!(q.literal_value().unwrap(), "tab\t ${x} é");
    let Expr::QuotedTemplate(q) = attr_expr("a = \"a ${~ b ~} %{ if c }d%{ else }e%{ endif }\"\n")
    else {
        panic!()
    };
    assert_eq!(q.literal_value(), None);
    let parts: Vec<_> = q.parts().collect();
    let TemplatePart::Interpolation(i) = &parts[1] else {
        panic!()
    };
    assert!(i.strips_before() && i.strips_after());
    assert_eq!(text(&i.expr()), "b");
    let TemplatePart::If(tif) = &parts[3] else {
        panic!("{parts:?}")
    };
    assert_eq!(text(&tif.condition()), "c");
    assert_eq!(tif.then_parts().len(), 1);
    assert_eq!(tif.else_parts().len(), 1);
    let Expr::HeredocTemplate(h) =
        attr_expr("a = <<-EOT\n  %{ for x in l }${x}%{ endfor }\n  EOT\n")
    else {
        panic!()
    };
    assert_eq!(h.marker().unwrap(), "EOT");
    assert!(h.is_indented());
    let tfor = h
        .parts()
        .find_map(|p| match p {
            TemplatePart::For(f) => Some(f),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        tfor.for_directive().unwrap().value_var().unwrap().text(),
        "x"
    );
    assert_eq!(text(&tfor.for_directive().unwrap().collection()), "l");
    assert_eq!(tfor.body_parts().len(), 1);
}

#[test]
fn standalone_roots() {
    let p = hclwright::parse_expr("a + 1");
    let root = ExprRoot::cast(p.syntax()).unwrap();
    assert!(matches!(root.expr(), Some(Expr::Binary(_))));
    let p = hclwright::parse_template("x ${y} z");
    let root = TemplateRoot::cast(p.syntax()).unwrap();
    assert_eq!(root.parts().count(), 3);
}
