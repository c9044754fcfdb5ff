//! Hostile input to evaluation and conversion: each case gives its result
//! or a clean error, and returns. The 30 s guard only detects hangs (each
//! case hung or grew to gigabytes before the fixes of issue 33); it is not
//! a speed target.

mod common;

use hclwright::eval::{Budget, EvalContext, console_string, evaluate_str};
use std::sync::mpsc;
use std::time::Duration;

/// Evaluates `expr` on a thread and fails the test if it does not return
/// within the guard: `Ok(printed value)` or `Err(first summary: detail)`.
fn eval_guarded(expr: &'static str, budget: Option<Budget>) -> Result<String, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut ctx = EvalContext::new().with_terraform_functions();
        if let Some(b) = budget {
            ctx.set_budget(b);
        }
        let r = evaluate_str(expr, &ctx)
            .map(|v| console_string(&v))
            .map_err(|d| format!("{}: {}", d[0].summary, d[0].detail));
        let _ = tx.send(r);
    });
    rx.recv_timeout(Duration::from_secs(30))
        .unwrap_or_else(|_| panic!("`{expr}` did not return within 30 s"))
}

#[test]
fn huge_exponents_are_infinities_and_zeros_as_in_terraform() {
    // Answers recorded with `echo EXPR | terraform console` (1.11.4).
    for (expr, want) in [
        ("1e999999999", "+Inf"),
        ("-1e999999999", "-Inf"),
        ("2e-999999999", "0"),
        ("tostring(1e999999999)", "\"+Inf\""),
        ("1e999999999 > 5", "true"),
        ("1e-646456993 == 0", "false"),
        ("1e-646457000 == 0", "true"),
        ("1e400000000 * 1e400000000", "+Inf"),
        ("1e-400000000 * 1e-400000000", "0"),
        ("tonumber(\"1e999999999\")", "+Inf"),
        ("jsondecode(\"1e999999999\")", "+Inf"),
        ("yamldecode(\"1e999999999\")", "+Inf"),
        ("length(tostring(1e100000))", "100001"),
        ("format(\"%.3g\", 1e999999999)", "\"+Inf\""),
    ] {
        assert_eq!(eval_guarded(expr, None).as_deref(), Ok(want), "{expr}");
    }
}

#[test]
fn numbers_terraform_refuses_are_clean_errors() {
    for (expr, want) in [
        ("1e3000000000", "Invalid number literal"),
        (
            "1e999999999 - 1e999999999",
            "can't subtract infinity from itself",
        ),
        ("jsondecode(\"[1e3000000000]\")", "a number is required"),
        (
            "jsonencode(1e999999999)",
            "cannot serialize infinity as JSON",
        ),
    ] {
        let err = eval_guarded(expr, None).unwrap_err();
        assert!(err.contains(want), "{expr}: {err}");
    }
}

#[test]
fn numbers_far_beyond_the_printing_limit_print_in_exponent_form() {
    // terraform console prints these in full and takes minutes to hours.
    assert_eq!(
        eval_guarded("1e646456992", None).as_deref(),
        Ok("1e+646456992")
    );
    assert_eq!(
        eval_guarded("1e600000000 + 1 == 1e600000000", None).as_deref(),
        Ok("true")
    );
}

#[test]
fn sizes_from_arguments_have_limits() {
    for (expr, want) in [
        (
            "format(\"%0100000000d\", 1)",
            "more than the limit of 10000000",
        ),
        (
            "format(\"%.99999999999999999999f\", 1)",
            "more than the limit",
        ),
        (
            "indent(1000000000000, \"a\\nb\")",
            "more than the limit of 67108864",
        ),
        (
            "setproduct(range(1000), range(1000), range(1000))",
            "more than 1048576",
        ),
        ("range(1025)", "more than 1024 values"),
        // Found by examples/eval_fuzz.rs: one step that no budget stops.
        ("bcrypt(\"a\", 31)", "cost 31 is more than the limit of 16"),
    ] {
        let err = eval_guarded(expr, None).unwrap_err();
        assert!(err.contains(want), "{expr}: {err}");
    }
    assert_eq!(
        eval_guarded("indent(1000000000000, \"a\")", None).as_deref(),
        Ok("\"a\"")
    );
}

#[test]
fn the_budget_stops_nested_loops_and_growing_strings() {
    let small = Budget {
        steps: 20_000,
        ..Budget::default()
    };
    let err = eval_guarded(
        "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : 1]]])",
        Some(small),
    )
    .unwrap_err();
    assert!(err.starts_with("Evaluation budget exceeded"), "{err}");
    let short = Budget {
        max_string_len: 1000,
        ..Budget::default()
    };
    let err = eval_guarded(
        "join(\"\", [for i in range(100) : \"0123456789abcdef\"])",
        Some(short),
    )
    .unwrap_err();
    assert!(err.contains("more than the limit of 1000"), "{err}");
    let timed = Budget {
        time: Some(Duration::from_millis(200)),
        steps: u64::MAX,
        ..Budget::default()
    };
    let err = eval_guarded(
        "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : 1]]])",
        Some(timed),
    )
    .unwrap_err();
    assert!(err.contains("more than 200 ms"), "{err}");
}

#[test]
fn conversion_of_a_huge_exponent_returns() {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = hclwright::convert::to_json("x = 1e999999999\ny = 2e-999999999\n");
        let _ = tx.send(r.is_ok());
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("conversion did not return within 30 s");
}

#[test]
fn a_cancelled_flag_stops_a_collection_of_leaves_too() {
    // A tuple of literals may be read in one go, counting its steps at
    // once; under a cancellation flag it is read element by element, so
    // the flag is seen where it would be without that shortcut.
    let cancel = hclwright::eval::Cancel::new();
    cancel.cancel();
    let ctx = EvalContext::new().with_budget(Budget {
        cancel: Some(cancel),
        ..Budget::default()
    });
    let tuple = format!("[{}]", vec!["1"; 200].join(", "));
    let err = evaluate_str(&tuple, &ctx).unwrap_err();
    assert_eq!(
        err[0].detail,
        "Evaluating this expression was cancelled; it was stopped."
    );
}

#[test]
fn a_cancelled_evaluation_stops() {
    // Set from another thread while the evaluation runs: without the flag
    // this runs for about a billion steps.
    let cancel = hclwright::eval::Cancel::new();
    let endless = Budget {
        steps: u64::MAX,
        cancel: Some(cancel.clone()),
        ..Budget::default()
    };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let ctx = EvalContext::new()
            .with_terraform_functions()
            .with_budget(endless);
        let r = evaluate_str(
            "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : 1]]])",
            &ctx,
        )
        .map(|v| console_string(&v))
        .map_err(|d| format!("{}: {}", d[0].summary, d[0].detail));
        let _ = tx.send(r);
    });
    std::thread::sleep(Duration::from_millis(100));
    cancel.cancel();
    let err = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("a cancelled evaluation did not return within 30 s")
        .unwrap_err();
    assert_eq!(
        err,
        "Evaluation budget exceeded: Evaluating this expression was cancelled; it was stopped."
    );
}

#[test]
fn the_command_line_evaluates_under_the_default_budget() {
    // `eval` of a module's local that runs for a billion steps (a million
    // steps take seconds in a debug build: one case only), and `convert`
    // of a huge exponent.
    let nested =
        "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : 1]]])";
    let dir = common::TempDir::new(&[
        ("main.tf", &format!("locals {{\n  n = {nested}\n}}\n")),
        ("big.hcl", "x = 1e999999999\n"),
    ]);
    let (tx, rx) = mpsc::channel();
    let path = dir.path().to_path_buf();
    std::thread::spawn(move || {
        let run = |args: &[&str]| {
            let out = common::hclwright(&path, args, b"");
            (
                common::code(&out),
                common::stdout(&out),
                common::stderr(&out),
            )
        };
        let _ = tx.send([
            run(&["eval", "--dir", ".", "local.n"]),
            run(&["convert", "--to", "json", "big.hcl"]),
        ]);
    });
    let [local, convert] = rx
        .recv_timeout(Duration::from_secs(120))
        .expect("the commands did not return within 120 s");
    assert_ne!(local.0, 0);
    assert!(
        local.2.contains("Evaluation budget exceeded")
            && local.2.contains("took more than 1000000 steps"),
        "{}",
        local.2
    );
    assert_eq!(convert.0, 0, "{}", convert.2);
    assert!(convert.1.contains("\"x\""), "{}", convert.1);
}
