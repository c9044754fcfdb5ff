//! Fuzz target `eval`: evaluation of arbitrary expressions returns.
//!
//! Every input that is valid UTF-8 is parsed as an expression and
//! evaluated with Terraform's functions (not the filesystem ones: a fuzzer
//! would read `/dev/zero`) under a budget: 100 000 steps, 1 s, strings of
//! at most 1 MiB. The references Terraform modules use (`var`, `local`,
//! `each`, …) are unknown values, so that expressions taken from modules
//! evaluate past them. For every input:
//! - evaluation never panics (nor overflows the stack), and ends within
//!   libFuzzer's `-timeout` and `-rss_limit_mb` (see CONTRIBUTING.md);
//! - a value prints as `terraform console` does and as JSON without
//!   panicking;
//! - each diagnostic's range lies within the text.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use hclwright::eval::{Budget, EvalContext, Type, Value, console_string, evaluate_str, to_json};
use libfuzzer_sys::fuzz_target;

fn context() -> &'static EvalContext {
    static CONTEXT: OnceLock<EvalContext> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let mut ctx = EvalContext::new()
            .with_terraform_functions()
            .with_budget(Budget {
                steps: 100_000,
                time: Some(Duration::from_secs(1)),
                max_string_len: 1 << 20,
                cancel: None,
            });
        for root in [
            "var",
            "local",
            "module",
            "data",
            "each",
            "count",
            "path",
            "terraform",
            "self",
        ] {
            ctx.set_variable(root, Value::Unknown(Type::Dynamic));
        }
        ctx
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match evaluate_str(text, context()) {
        Ok(value) => {
            let _ = console_string(&value);
            let _ = to_json(&value);
        }
        Err(diagnostics) => {
            for d in &diagnostics {
                assert!(
                    usize::from(d.range.end()) <= text.len(),
                    "diagnostic {d:?} ends past the text ({} bytes)",
                    text.len()
                );
            }
        }
    }
});
