//! A module's locals and variables one by one (`Module::locals`,
//! `Module::variables` and their diagnostics).

mod common;

use common::TempDir;
use hclwright::ast::AstNode;
use hclwright::eval::{EvalContext, Module, ModuleInputs, VarOption, console_string};

fn load(dir: &TempDir, inputs: &ModuleInputs) -> Module {
    Module::load(
        dir.path(),
        inputs,
        EvalContext::new().with_terraform_functions(),
    )
}

#[test]
fn locals_in_declaration_order_across_files() {
    let dir = TempDir::new(&[
        (
            "b.tf",
            "locals {\n  zeta  = 1\n  alpha = local.zeta + 1\n}\n",
        ),
        (
            "a.tf",
            "locals {\n  mid = local.alpha * 10\n}\nlocals {\n  cycle1 = local.cycle2\n  cycle2 = local.cycle1\n}\n",
        ),
    ]);
    let module = load(&dir, &ModuleInputs::default());
    let shown: Vec<String> = module
        .locals()
        .map(|(n, v)| format!("{n}={}", console_string(v)))
        .collect();
    // Files by name, then source order (not alphabetical, not evaluation
    // order).
    assert_eq!(
        shown,
        [
            "mid=20",
            "cycle1=(known after apply)",
            "cycle2=(known after apply)",
            "zeta=1",
            "alpha=2"
        ]
    );
    assert!(module.local_diagnostics("mid").is_empty());
    let cycle = module.local_diagnostics("cycle1");
    assert_eq!(cycle[0].diagnostic.summary, "Cycle");
    assert!(module.local_diagnostics("nope").is_empty());
    assert!(module.local_diagnostics("not a name").is_empty());
}

#[test]
fn variables_and_their_problems() {
    let dir = TempDir::new(&[
        (
            "variables.tf",
            "variable \"count_\" {\n  type    = number\n  default = 2\n}\nvariable \"bad_type\" {\n  type = lisst(string)\n}\nvariable \"name\" {\n  type = string\n}\n",
        ),
        ("other.tf", "variable \"first\" {\n  default = \"x\"\n}\n"),
    ]);
    let inputs = ModuleInputs {
        options: vec![VarOption::Var("count_".into(), "many".into())],
        ..ModuleInputs::default()
    };
    let module = load(&dir, &inputs);
    let names: Vec<&str> = module.variables().map(|(n, _)| n).collect();
    assert_eq!(names, ["first", "count_", "bad_type", "name"]);
    let values: Vec<String> = module.variables().map(|(_, v)| console_string(v)).collect();
    assert_eq!(values[0], "\"x\"");
    assert_eq!(values[3], "(known after apply)");
    let bad = module.variable_diagnostics("bad_type");
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0].diagnostic.summary, "Invalid type specification");
    let count = module.variable_diagnostics("count_");
    assert_eq!(count.len(), 1, "{count:?}");
    assert!(
        count[0].render().contains("var.count_"),
        "{}",
        count[0].render()
    );
    assert!(module.variable_diagnostics("name").is_empty());
    assert!(module.variable_diagnostics("first").is_empty());
}

/// A variable declared twice takes its last block (files by name, then
/// source order), with that block's type and validation.
#[test]
fn a_variable_declared_twice_takes_its_last_block() {
    let dir = TempDir::new(&[
        (
            "a.tf",
            "variable \"x\" {\n  default = 1\n}\nvariable \"y\" {\n  type    = string\n  default = \"a\"\n}\n",
        ),
        (
            "b.tf",
            "variable \"x\" {\n  type    = number\n  default = \"2\"\n  validation {\n    condition     = var.x > 5\n    error_message = \"too small\"\n  }\n}\n",
        ),
    ]);
    let module = load(&dir, &ModuleInputs::default());
    let shown: Vec<String> = module
        .variables()
        .map(|(n, v)| format!("{n}={}", console_string(v)))
        .collect();
    assert_eq!(shown, ["x=2", "y=\"a\""]);
    let parse = hclwright::parse_expr("var.x");
    let expr = parse
        .syntax()
        .descendants()
        .find_map(hclwright::ast::Expr::cast)
        .unwrap();
    let problems = module.diagnostics_for(&expr);
    assert!(
        problems
            .iter()
            .any(|d| d.diagnostic.detail.contains("too small")),
        "{problems:?}"
    );
}
