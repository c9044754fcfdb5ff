//! Keystroke benchmark for the language server: the time from a
//! `textDocument/didChange` (one character typed or deleted) to the
//! diagnostics it publishes, in a file of about 5 MB.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example bench_lsp [SIZE_MB] [KEYSTROKES]
//! ```
//!
//! Builds a Terraform file of about `SIZE_MB` (default 5) megabytes
//! (variables, locals and resources that reference them) in a temporary
//! folder, starts the release binary (`target/release/hclwright lsp`) on
//! pipes, opens the file, and types: each keystroke is an incremental
//! change (one character inserted into, then deleted from, a string at a
//! place spread from the start of the file to its end), timed until the
//! `textDocument/publishDiagnostics` for that version arrives. That
//! covers the protocol on both sides, applying the change to the held
//! text, the reparse, and the diagnostics: syntax errors, and for a `.tf`
//! file the `var.`/`local.` references checked against the declarations
//! of the folder (a full tree and a walk of every reference). The same
//! session is run with the file named `main.hcl` (syntax errors only).
//! Prints min / median / max in milliseconds, and the library calls alone
//! (`syntax_errors`, `parse`, `refs::references`, best of 5) for
//! comparison.

use std::io::{BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request};
use serde_json::json;

// As the command-line tool, so that the library times compare.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn block(i: usize) -> String {
    format!(
        r#"# Instance {i}.
resource "aws_instance" "web_{i}" {{
  ami           = var.ami
  instance_type = "t3.micro"
  subnet_id     = var.subnets[{m}]

  tags = {{
    Name = "${{local.prefix}}-web-{i}"
    Team = "platform"
  }}

  ebs_block_device {{
    device_name = "/dev/sdh"
    volume_size = {v}
  }}
}}

"#,
        m = i % 3,
        v = 10 + i % 90
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Min, median and max of a sample, in milliseconds.
fn summary(mut times: Vec<Duration>) -> String {
    times.sort();
    let median = times[times.len() / 2];
    format!(
        "min {:.1} ms, median {:.1} ms, max {:.1} ms",
        ms(times[0]),
        ms(median),
        ms(times[times.len() - 1])
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mb: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let keystrokes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(41);
    let mut text = String::from(
        "variable \"ami\" {}\nvariable \"subnets\" {}\nlocals {\n  prefix = \"app\"\n}\n\n",
    );
    let mut i = 0;
    while text.len() < (mb * 1e6) as usize {
        text.push_str(&block(i));
        i += 1;
    }
    let lines = text.lines().count();
    println!(
        "{:.2} MB, {lines} lines, {i} resource blocks, {keystrokes} keystrokes",
        text.len() as f64 / 1e6
    );

    // The library calls alone, best of 5.
    let best = |f: &mut dyn FnMut() -> Duration| (0..5).map(|_| f()).min().unwrap_or_default();
    let checked = best(&mut || {
        let started = Instant::now();
        assert!(hclwright::syntax_errors(&text).is_empty());
        started.elapsed()
    });
    let parsed = best(&mut || {
        let started = Instant::now();
        let parse = hclwright::parse(&text);
        let took = started.elapsed();
        drop(parse);
        took
    });
    let parse = hclwright::parse(&text);
    let mut found = 0;
    let walked = best(&mut || {
        let started = Instant::now();
        found = hclwright::refs::references(&parse.syntax()).len();
        started.elapsed()
    });
    println!(
        "library: syntax_errors {:.1} ms, parse {:.1} ms, references {:.1} ms ({found} found)",
        ms(checked),
        ms(parsed),
        ms(walked)
    );
    drop(parse);

    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.join("hclwright")))
        .filter(|p| p.exists())
        .unwrap_or_else(|| {
            eprintln!("build the binary first: cargo build --release");
            std::process::exit(2);
        });
    let dir = std::env::temp_dir().join(format!("hclwright-bench-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    for name in ["main.tf", "main.hcl"] {
        // Only the file of the session in the folder.
        let _ = std::fs::remove_file(dir.join("main.tf"));
        let path = dir.join(name);
        std::fs::write(&path, &text).expect("write the file");
        let times = session(&binary, &path, &text, keystrokes);
        println!("{name}: keystroke to diagnostics: {}", summary(times));
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens `path` with `text` in a new server and times `keystrokes` changes.
fn session(
    binary: &std::path::Path,
    path: &std::path::Path,
    text: &str,
    keystrokes: usize,
) -> Vec<Duration> {
    let mut child = Command::new(binary)
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the server");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |m: Message| {
        m.write(&mut stdin).expect("write");
        stdin.flush().expect("flush");
    };
    let mut wait_diagnostics = |version: i32| loop {
        match Message::read(&mut out).expect("read") {
            Some(Message::Notification(n)) if n.method == "textDocument/publishDiagnostics" => {
                if n.params["version"] == version {
                    assert_eq!(
                        n.params["diagnostics"],
                        json!([]),
                        "no diagnostics expected"
                    );
                    return;
                }
            }
            Some(_) => {}
            None => panic!("the server stopped"),
        }
    };
    let uri = format!("file://{}", path.display());
    send(Message::Request(Request::new(
        1.into(),
        "initialize".into(),
        json!({"capabilities": {}}),
    )));
    send(Message::Notification(Notification::new(
        "initialized".into(),
        json!({}),
    )));
    send(Message::Notification(Notification::new(
        "textDocument/didOpen".into(),
        json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": text}}),
    )));
    wait_diagnostics(1);
    // Keystrokes inside the `"t3.micro"` strings of blocks spread over the
    // file: insert `x` after the `t`, then delete it.
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"t3.micro\""))
        .map(|(n, _)| n)
        .collect();
    let mut times = Vec::new();
    for k in 0..keystrokes {
        let line = lines[k / 2 * (lines.len() - 1) / (keystrokes / 2).max(1)];
        let column = "  instance_type = \"t".len();
        let (range, new_text) = if k % 2 == 0 {
            ([column, column], "x")
        } else {
            ([column, column + 1], "")
        };
        let version = 2 + k as i32;
        let change = json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {
                "start": {"line": line, "character": range[0]},
                "end": {"line": line, "character": range[1]}}, "text": new_text}]
        });
        let started = Instant::now();
        send(Message::Notification(Notification::new(
            "textDocument/didChange".into(),
            change,
        )));
        wait_diagnostics(version);
        times.push(started.elapsed());
    }
    send(Message::Request(Request::new(
        99.into(),
        "shutdown".into(),
        json!(null),
    )));
    send(Message::Notification(Notification::new(
        "exit".into(),
        json!(null),
    )));
    let _ = child.wait();
    times
}
