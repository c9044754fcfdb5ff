//! Module folders under `fixtures/eval/modules/`, each with `cases.txt`
//! and what `terraform console` printed for them in that folder
//! (`golden.jsonl`, recorded by scripts/eval-goldens/record.py).

use hclwright::ast::{AstNode, Expr};
use hclwright::eval::{EvalContext, Module, ModuleInputs, VarOption, console_string, evaluate};
use std::path::Path;

#[test]
fn modules_match_terraform_console() {
    let mut failures = Vec::new();
    let mut count = 0;
    let mut dirs: Vec<_> = std::fs::read_dir("fixtures/eval/modules")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let golden = std::fs::read_to_string(dir.join("golden.jsonl")).unwrap();
        let inputs = read_inputs(&dir);
        let base = EvalContext::new()
            .with_terraform_functions()
            .with_filesystem_functions(&dir);
        let module = Module::load(&dir, &inputs, base);
        assert!(
            module.diagnostics.is_empty(),
            "{}: {:?}",
            dir.display(),
            module
                .diagnostics
                .iter()
                .map(|d| d.render())
                .collect::<Vec<_>>()
        );
        for line in golden.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let expr_text = v["expr"].as_str().unwrap();
            let ok = v["ok"].as_bool().unwrap();
            let stdout = v["stdout"].as_str().unwrap();
            count += 1;
            let parse = hclwright::parse_expr(expr_text);
            let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
            let result = evaluate(&expr, &module.context);
            // As `hclwright eval`: the references are checked first.
            let errors = module.reference_problems(&expr).len()
                + result.diagnostics.len()
                + module.diagnostics_for(&expr).len();
            let shown = console_string(&result.value);
            match (ok, errors == 0) {
                (true, true) if shown == stdout => {}
                (false, false) => {}
                _ => failures.push(format!(
                    "{}: {expr_text}\n  terraform: {}\n  hclwright: {}",
                    dir.display(),
                    if ok {
                        format!("{stdout:?}")
                    } else {
                        "error".into()
                    },
                    if errors == 0 {
                        format!("{shown:?}")
                    } else {
                        format!(
                            "error {:?}",
                            result.diagnostics.first().map(|d| d.message())
                        )
                    }
                )),
            }
        }
    }
    assert!(count > 20);
    assert!(
        failures.is_empty(),
        "{} of {count} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `inputs.txt` in a module folder: `-var NAME=VALUE` lines and
/// `-var-file FILE` lines, as passed to terraform when recording.
fn read_inputs(dir: &Path) -> ModuleInputs {
    let mut inputs = ModuleInputs::default();
    if let Ok(text) = std::fs::read_to_string(dir.join("inputs.txt")) {
        for line in text.lines() {
            if let Some(kv) = line.strip_prefix("-var=") {
                let (k, v) = kv.split_once('=').unwrap();
                inputs
                    .options
                    .push(VarOption::Var(k.to_string(), v.to_string()));
            } else if let Some(f) = line.strip_prefix("-var-file=") {
                inputs.options.push(VarOption::File(dir.join(f)));
            } else if let Some(kv) = line.strip_prefix("TF_VAR_") {
                let (k, v) = kv.split_once('=').unwrap();
                inputs.env.push((k.to_string(), v.to_string()));
            }
        }
    }
    inputs
}
