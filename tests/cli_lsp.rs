//! `hclwright lsp` driven as an editor drives it, over standard input and
//! output: initialize, open a document with a syntax error, receive its
//! diagnostics, change it, format it, shut down.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn send(stdin: &mut ChildStdin, message: Value) {
    let body = message.to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    stdin.flush().unwrap();
}

fn receive(out: &mut BufReader<ChildStdout>) -> Value {
    let mut length = 0;
    loop {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    out.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

/// The next message that is not a log or progress notification.
fn next(out: &mut BufReader<ChildStdout>) -> Value {
    loop {
        let m = receive(out);
        if m["method"] != "window/logMessage" {
            return m;
        }
    }
}

/// The server, started and initialized without client capabilities.
fn start() -> (Child, ChildStdin, BufReader<ChildStdout>, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hclwright"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let init = next(&mut out);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    (child, stdin, out, init)
}

/// Shuts the server down and checks that it exits cleanly.
fn stop(mut child: Child, mut stdin: ChildStdin, mut out: BufReader<ChildStdout>) {
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 99, "method": "shutdown"}),
    );
    assert_eq!(next(&mut out)["id"], 99);
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "exit"}));
    assert!(child.wait().unwrap().success());
}

#[test]
fn diagnostics_and_formatting() {
    let (child, mut stdin, mut out, init) = start();
    assert_eq!(init["id"], 1);
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(
        init["result"]["capabilities"]["documentFormattingProvider"],
        true
    );

    let uri = "file:///work/main.tf";
    // "é" is two UTF-8 bytes but one UTF-16 unit: the error's column shows it.
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "terraform", "version": 1, "text": "a = \"é\"\nb = [1, 2\n"}}}),
    );
    let diags = next(&mut out);
    assert_eq!(diags["method"], "textDocument/publishDiagnostics");
    let list = diags["params"]["diagnostics"].as_array().unwrap();
    assert!(!list.is_empty());
    assert_eq!(list[0]["range"]["start"]["line"], 1);

    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": "a=\"é\"\nbb   = 2\n"}]}}),
    );
    let diags = next(&mut out);
    assert_eq!(diags["params"]["diagnostics"], json!([]));

    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/formatting", "params": {
            "textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}}),
    );
    let formatted = next(&mut out);
    assert_eq!(formatted["id"], 2);
    let edits = formatted["result"].as_array().unwrap();
    // Minimal edits: only spaces, no whole-document replacement.
    assert!(edits.len() >= 2);
    for e in edits {
        assert!(e["newText"].as_str().unwrap().trim().is_empty(), "{e}");
    }
    let first = &edits[0]["range"]["start"];
    assert_eq!(
        (first["line"].as_u64(), first["character"].as_u64()),
        (Some(0), Some(1))
    );

    stop(child, stdin, out);
}

#[test]
fn hover_shows_the_evaluated_value() {
    let dir = std::env::temp_dir().join(format!("hclwright-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = "variable \"n\" {\n  default = 2\n}\nlocals {\n  x = [for i in range(var.n) : \"s${i}\"]\n}\noutput \"o\" {\n  value = local.x\n}\noutput \"p\" {\n  value = var.missing\n}\n";
    std::fs::write(dir.join("main.tf"), text).unwrap();
    let (child, mut stdin, mut out, _) = start();
    let uri = format!("file://{}", dir.join("main.tf").display());
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "terraform", "version": 1, "text": text}}}),
    );
    // The undeclared `var.missing` is a warning; the rest is declared.
    let diags = next(&mut out);
    let list = diags["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{diags}");
    assert_eq!(list[0]["severity"], 2);
    assert!(list[0]["message"].as_str().unwrap().contains("\"missing\""));
    // On `local.x` (line 7, after `value = `).
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 7, "character": 12}}}),
    );
    let hover = next(&mut out);
    assert_eq!(
        hover["result"]["contents"]["value"],
        "```hcl\n[\n  \"s0\",\n  \"s1\",\n]\n```"
    );
    assert_eq!(hover["result"]["range"]["start"]["character"], 10);
    // Definitions: `local.x` is the `x` in `locals`, `var.n` the variable's label.
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/definition", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 7, "character": 12}}}),
    );
    let def = next(&mut out);
    assert_eq!(
        def["result"][0]["range"]["start"],
        json!({"line": 4, "character": 2})
    );
    assert_eq!(def["result"][0]["uri"], uri);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/definition", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 4, "character": 24}}}),
    );
    let def = next(&mut out);
    assert_eq!(
        def["result"][0]["range"]["start"],
        json!({"line": 0, "character": 9})
    );
    stop(child, stdin, out);
    let _ = std::fs::remove_dir_all(&dir);
}
