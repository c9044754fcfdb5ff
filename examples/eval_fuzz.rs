//! A fuzzer for evaluation that runs on a stable toolchain: it builds
//! random expressions from the expressions of a corpus and the function
//! library, evaluates each under a budget on a thread of its own, and
//! reports the count of cases, the slowest case and every failure (a
//! panic, or a case that did not return within the per-case bound).
//!
//! ```sh
//! cargo run --release --example eval_fuzz -- --cases 100000 --seed 1
//! cargo run --release --example eval_fuzz -- --seconds 600 --seed 7 ../shared/corpus
//! cargo run --release --example eval_fuzz -- --write-seeds fuzz/corpus/eval --cases 2000
//! cargo run --example eval_fuzz -- --write-dict fuzz/eval.dict
//! ```
//!
//! Options: `--cases N` (default 10 000) or `--seconds S` (whichever ends
//! first when both are given), `--seed S` (default 1), `--bound-ms MS`
//! (the per-case bound, default 5 000; the budget's deadline is a fifth of
//! it), `--write-seeds DIR` (write the expressions as files, a seed corpus
//! for the libFuzzer target `eval`, instead of evaluating them),
//! `--write-dict FILE` (write the libFuzzer dictionary of the `eval`
//! target: the function names, operators and keywords), and the
//! corpus folder (default `$HCLWRIGHT_CORPUS`, else `fixtures`). The same
//! seed and corpus give the same expressions. Exits with 1 when a case
//! failed.

#[allow(dead_code)]
mod corpus;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use hclwright::ast::{AstNode, Attribute};
use hclwright::eval::{Budget, EvalContext, Type, Value, console_string, evaluate_str};

/// splitmix64: small, fast, and the same sequence everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Literals that reach the corners: huge and tiny exponents, widths,
/// negative and fractional numbers, unicode, empty collections.
const LITERALS: &[&str] = &[
    "0",
    "1",
    "-1",
    "3.5",
    "1e999999999",
    "-1e999999999",
    "2e-999999999",
    "1e100",
    "18446744073709551616",
    "1024",
    "100000000",
    "\"\"",
    "\"a\"",
    "\"héllo wörld\"",
    "\"%0100000000d\"",
    "\"%.99999999f\"",
    "\"%s-%d\"",
    "\"10.0.0.0/8\"",
    "\"2024-01-02T03:04:05Z\"",
    "\"{\\\"a\\\": [1, 2]}\"",
    "\"a: [1, 2]\"",
    "\"a,b\\n1,2\"",
    "true",
    "false",
    "null",
    "[]",
    "{}",
    "[1, 2, 3]",
    "[\"a\", \"b\"]",
    "{a = 1, b = \"x\"}",
    "range(1024)",
    "range(10)",
    "[[1, 2], [3]]",
];

const BINARY: &[&str] = &[
    "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||",
];

/// The names references start with: unknown values in the context, so
/// that corpus expressions evaluate past them.
const ROOTS: &[&str] = &[
    "var",
    "local",
    "module",
    "data",
    "each",
    "count",
    "path",
    "terraform",
    "self",
];

struct Generator {
    rng: Rng,
    exprs: Vec<String>,
    functions: Vec<String>,
}

impl Generator {
    fn expr(&mut self, depth: u32) -> String {
        let leaf = depth >= 4 || self.rng.below(3) == 0;
        if leaf {
            return match self.rng.below(3) {
                0 if !self.exprs.is_empty() => self.rng.pick(&self.exprs).clone(),
                1 => format!("{}.x", self.rng.pick(ROOTS)),
                _ => self.rng.pick(LITERALS).to_string(),
            };
        }
        let d = depth + 1;
        match self.rng.below(12) {
            0..=3 => {
                let name = self.rng.pick(&self.functions).clone();
                let n = self.rng.below(4);
                let args: Vec<String> = (0..n).map(|_| self.expr(d)).collect();
                let spread = if n > 0 && self.rng.below(8) == 0 {
                    "..."
                } else {
                    ""
                };
                format!("{name}({}{spread})", args.join(", "))
            }
            4 | 5 => {
                let op = self.rng.pick(BINARY);
                format!("{} {op} {}", self.expr(d), self.expr(d))
            }
            6 => format!("{} ? {} : {}", self.expr(d), self.expr(d), self.expr(d)),
            7 => format!(
                "[for i, v in {} : {} if {}]",
                self.expr(d),
                self.expr(d),
                self.expr(d)
            ),
            8 => format!(
                "{{for k, v in {} : k => {}...}}",
                self.expr(d),
                self.expr(d)
            ),
            9 => format!(
                "\"${{{}}}-%{{ for x in {} }}${{x}}%{{ endfor }}\"",
                self.expr(d),
                self.expr(d)
            ),
            10 => format!("({})[{}]", self.expr(d), self.expr(d)),
            _ => format!(
                "({})[*].{}",
                self.expr(d),
                self.rng.pick(&["a", "id", "name"])
            ),
        }
    }
}

/// The expressions of the attributes of every file under `dir` (at most
/// 400 bytes each, without duplicates, in file order).
fn corpus_expressions(dir: &std::path::Path) -> Vec<String> {
    let (files, _) = corpus::load(dir);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (_, text) in files {
        let parse = hclwright::parse(&text);
        for a in parse.syntax().descendants().filter_map(Attribute::cast) {
            let Some(e) = a.expr() else { continue };
            let source = e.syntax().to_string().trim().to_string();
            if !source.is_empty() && source.len() <= 400 && seen.insert(source.clone()) {
                out.push(source);
            }
        }
    }
    out
}

struct Args {
    cases: Option<u64>,
    seconds: Option<u64>,
    seed: u64,
    bound: Duration,
    seeds_dir: Option<PathBuf>,
    dict: Option<PathBuf>,
    corpus: Option<PathBuf>,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        cases: None,
        seconds: None,
        seed: 1,
        bound: Duration::from_millis(5000),
        seeds_dir: None,
        dict: None,
        corpus: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{v}: {e}"));
        match a.as_str() {
            "--cases" => out.cases = Some(number(value("--cases")?)?),
            "--seconds" => out.seconds = Some(number(value("--seconds")?)?),
            "--seed" => out.seed = number(value("--seed")?)?,
            "--bound-ms" => out.bound = Duration::from_millis(number(value("--bound-ms")?)?),
            "--write-seeds" => out.seeds_dir = Some(PathBuf::from(value("--write-seeds")?)),
            "--write-dict" => out.dict = Some(PathBuf::from(value("--write-dict")?)),
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ => out.corpus = Some(PathBuf::from(a)),
        }
    }
    if out.cases.is_none() && out.seconds.is_none() {
        out.cases = Some(10_000);
    }
    Ok(out)
}

/// The libFuzzer dictionary of the `eval` target.
fn dictionary() -> String {
    let mut out = String::from(
        "# libFuzzer dictionary for the `eval` target: the function library, operators,\n\
         # keywords and the corners of numbers and format verbs. Written by\n\
         # `cargo run --example eval_fuzz -- --write-dict fuzz/eval.dict`.\n",
    );
    for name in EvalContext::new()
        .with_terraform_functions()
        .function_names()
    {
        out.push_str(&format!("\"{name}(\"\n"));
    }
    let words = BINARY.iter().copied().chain([
        "!",
        "?",
        ":",
        "...",
        "=>",
        "[*]",
        ".*",
        "for ",
        " in ",
        " if ",
        "${",
        "%{",
        "}",
        "endfor",
        "endif",
        "else",
        "null",
        "true",
        "false",
        "e999999999",
        "e-999999999",
        "%0100000000d",
        "%.99999999f",
        "%v",
        "%#v",
        "%q",
    ]);
    for w in words.chain(ROOTS.iter().copied()) {
        out.push('"');
        for c in w.chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c => out.push(c),
            }
        }
        out.push_str("\"\n");
    }
    out
}

enum Outcome {
    Value,
    Error,
    Panic(String),
    /// Not back within the bound (its thread is left to finish).
    Late,
}

/// Evaluates `expr` on a thread of its own, waiting at most `bound`.
fn run_case(expr: &str, ctx: &std::sync::Arc<EvalContext>, bound: Duration) -> Outcome {
    let (tx, rx) = mpsc::channel();
    let case_ctx = ctx.clone();
    let text = expr.to_string();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let r = catch_unwind(AssertUnwindSafe(|| {
                evaluate_str(&text, &case_ctx).map(|v| console_string(&v).len())
            }));
            let _ = tx.send(r);
        })
        .expect("start a case");
    match rx.recv_timeout(bound) {
        Ok(Ok(Ok(_))) => Outcome::Value,
        Ok(Ok(Err(_))) => Outcome::Error,
        Ok(Err(payload)) => Outcome::Panic(
            payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default(),
        ),
        Err(_) => Outcome::Late,
    }
}

/// The peak resident memory of this process (Linux), in MiB.
fn peak_rss_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn main() {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("eval_fuzz: {e}");
            std::process::exit(2);
        }
    };
    if let Some(path) = &args.dict {
        std::fs::write(path, dictionary()).expect("write the dictionary");
        return;
    }
    let dir = corpus::folder(args.corpus.clone(), "fixtures");
    let exprs = corpus_expressions(&dir);
    let base = EvalContext::new().with_terraform_functions();
    let functions = base.function_names();
    eprintln!(
        "eval_fuzz: {} expressions from {}, {} functions, seed {}",
        exprs.len(),
        dir.display(),
        functions.len(),
        args.seed
    );
    let mut generator = Generator {
        rng: Rng(args.seed),
        exprs,
        functions,
    };
    if let Some(out) = &args.seeds_dir {
        std::fs::create_dir_all(out).expect("create the seed folder");
        for i in 0..args.cases.unwrap_or(1000) {
            let expr = generator.expr(0);
            std::fs::write(out.join(format!("seed-{i:06}")), expr).expect("write a seed");
        }
        return;
    }

    let mut ctx = base.with_budget(Budget {
        time: Some(args.bound / 5),
        ..Budget::default()
    });
    for root in ROOTS {
        ctx.set_variable(*root, Value::Unknown(Type::Dynamic));
    }
    let ctx = std::sync::Arc::new(ctx);
    // Panics are caught and reported; the hook's message would repeat them.
    std::panic::set_hook(Box::new(|_| {}));

    let started = Instant::now();
    let (mut cases, mut values, mut errors) = (0u64, 0u64, 0u64);
    let mut slowest = (Duration::ZERO, String::new());
    let mut failures: Vec<String> = Vec::new();
    let mut late: Vec<String> = Vec::new();
    loop {
        if args.cases.is_some_and(|n| cases >= n)
            || args
                .seconds
                .is_some_and(|s| started.elapsed() >= Duration::from_secs(s))
        {
            break;
        }
        let expr = generator.expr(0);
        cases += 1;
        let t0 = Instant::now();
        match run_case(&expr, &ctx, args.bound) {
            Outcome::Value => values += 1,
            Outcome::Error => errors += 1,
            Outcome::Panic(message) => failures.push(format!("panic ({message}): {expr}")),
            Outcome::Late => late.push(expr.clone()),
        }
        let took = t0.elapsed();
        if took > slowest.0 {
            slowest = (took, expr);
        }
    }
    // A case over the bound once may only have met a busy machine: run
    // alone again with four times the bound, it is a failure if it is
    // still not back (else it is listed as slow).
    let mut slow = Vec::new();
    for expr in late {
        let t0 = Instant::now();
        match run_case(&expr, &ctx, args.bound * 4) {
            Outcome::Late => failures.push(format!(
                "not back within {:?} (twice): {expr}",
                args.bound * 4
            )),
            Outcome::Panic(message) => failures.push(format!("panic ({message}): {expr}")),
            _ => slow.push(format!("{:?} on a second run: {expr}", t0.elapsed())),
        }
    }
    println!(
        "cases: {cases} ({values} values, {errors} errors) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    println!("slowest: {:?}: {}", slowest.0, slowest.1);
    if let Some(mib) = peak_rss_mib() {
        println!("peak memory: {mib} MiB");
    }
    println!("over the bound once, back on a second run: {}", slow.len());
    for s in &slow {
        println!("  {s}");
    }
    println!("failures: {}", failures.len());
    for f in &failures {
        println!("  {f}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}
