//! `hclwright lsp` driven as an editor drives it, over standard input and
//! output: every capability, positions in UTF-16 (and UTF-8 when offered)
//! after non-ASCII text, incremental changes, files changed on disk, a
//! broken file, JSON documents, and the formatting profile setting.

mod common;

use common::TempDir;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A server started over pipes, with the notifications received while
/// waiting for responses kept in order.
struct Server {
    child: Child,
    stdin: ChildStdin,
    out: BufReader<ChildStdout>,
    next_id: u64,
    pending: Vec<Value>,
}

impl Server {
    /// Starts and initializes the server with `params` (the
    /// `initialize` request's); returns it and the initialize result.
    fn start(params: Value) -> (Server, Value) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hclwright"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut server = Server {
            child,
            stdin,
            out,
            next_id: 1,
            pending: Vec::new(),
        };
        let init = server.request("initialize", params);
        server.notify("initialized", json!({}));
        (server, init["result"].clone())
    }

    /// Started without client capabilities.
    fn plain() -> Server {
        Server::start(json!({"capabilities": {}})).0
    }

    /// Started with `dir` as the workspace root.
    fn in_folder(dir: &Path) -> Server {
        Server::start(json!({"capabilities": {}, "rootUri": uri(dir, "")})).0
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.out.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.out.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its whole response (`result` or
    /// `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.receive();
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
            self.pending.push(m);
        }
    }

    /// The result of a request that must succeed.
    fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = match self.pending.iter().position(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
            }) {
                Some(i) => self.pending.remove(i),
                None => {
                    let m = self.receive();
                    if !(m["method"] == "textDocument/publishDiagnostics"
                        && m["params"]["uri"] == uri)
                    {
                        self.pending.push(m);
                        continue;
                    }
                    m
                }
            };
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "hcl", "version": 1, "text": text}}),
        );
        self.diagnostics(uri)
    }

    /// Sends changes (`[{"range": …, "text": …}]` or `[{"text": …}]`) and
    /// returns the diagnostics published after them.
    fn change(&mut self, uri: &str, version: i32, changes: Value) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
        self.diagnostics(uri)
    }

    /// Shuts the server down and checks that it exits cleanly.
    fn stop(mut self) {
        let response = self.request("shutdown", Value::Null);
        assert!(response.get("error").is_none(), "{response}");
        self.notify("exit", Value::Null);
        assert!(self.child.wait().unwrap().success());
    }
}

/// The URI of `name` in `dir`.
fn uri(dir: &Path, name: &str) -> String {
    let path = if name.is_empty() {
        dir.to_path_buf()
    } else {
        dir.join(name)
    };
    format!("file://{}", path.display())
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

fn range(l0: u32, c0: u32, l1: u32, c1: u32) -> Value {
    json!({"start": {"line": l0, "character": c0}, "end": {"line": l1, "character": c1}})
}

fn start_of(v: &Value) -> (u64, u64) {
    (
        v["start"]["line"].as_u64().unwrap(),
        v["start"]["character"].as_u64().unwrap(),
    )
}

/// The byte offset of a protocol position, columns counted in UTF-16
/// units or in bytes.
/// The (uri, start) of each location of a `references` answer, sorted.
fn places(found: &Value) -> Vec<(String, (u64, u64))> {
    let mut out: Vec<(String, (u64, u64))> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap().to_string(),
                start_of(&l["range"]),
            )
        })
        .collect();
    out.sort();
    out
}

fn offset(text: &str, p: &Value, utf16: bool) -> usize {
    let line = p["line"].as_u64().unwrap() as usize;
    let mut character = p["character"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut i = start;
    for c in text[start..].chars() {
        if character == 0 || c == '\n' {
            break;
        }
        character -= if utf16 { c.len_utf16() } else { c.len_utf8() };
        i += c.len_utf8();
    }
    i
}

/// `text` with protocol text edits applied (from the last one back).
fn apply(text: &str, edits: &Value, utf16: bool) -> String {
    let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
    edits.sort_by_key(|e| offset(text, &e["range"]["start"], utf16));
    let mut out = text.to_string();
    for e in edits.iter().rev() {
        let start = offset(text, &e["range"]["start"], utf16);
        let end = offset(text, &e["range"]["end"], utf16);
        out.replace_range(start..end, e["newText"].as_str().unwrap());
    }
    out
}

#[test]
fn diagnostics_and_formatting() {
    let (mut server, init) = Server::start(json!({"capabilities": {}}));
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["documentFormattingProvider"], true);
    // Incremental sync.
    assert_eq!(caps["textDocumentSync"], 2);
    assert_eq!(
        caps["completionProvider"]["triggerCharacters"],
        json!(["."])
    );
    assert_eq!(
        caps["documentOnTypeFormattingProvider"],
        json!({"firstTriggerCharacter": "}", "moreTriggerCharacter": ["\n"]})
    );
    for provider in [
        "workspaceSymbolProvider",
        "selectionRangeProvider",
        "foldingRangeProvider",
        "documentSymbolProvider",
        "referencesProvider",
        "definitionProvider",
        "hoverProvider",
    ] {
        assert_eq!(caps[provider], true, "{provider}");
    }

    let uri = "file:///work/main.tf";
    // "é" is two UTF-8 bytes but one UTF-16 unit: the error's column shows it.
    let list = server.open(uri, "a = \"é\"\nb = [1, 2\n");
    assert!(!list.is_empty());
    assert_eq!(list[0]["range"]["start"]["line"], 1);

    // A full change (no range) replaces the text.
    let list = server.change(uri, 2, json!([{"text": "a=\"é\"\nbb   = 2\n"}]));
    assert_eq!(list, Vec::<Value>::new());

    let edits = server.result(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    // Minimal edits: only spaces, no whole-document replacement.
    let list = edits.as_array().unwrap();
    assert!(list.len() >= 2);
    for e in list {
        assert!(e["newText"].as_str().unwrap().trim().is_empty(), "{e}");
    }
    assert_eq!(start_of(&list[0]["range"]), (0, 1));
    server.stop();
}

/// Incremental changes and a diagnostic after `é` and `😀`, in the
/// encoding the server picks for the client's offer.
fn incremental_session(offer: Value, utf16: bool) {
    let (mut server, init) = Server::start(json!({"capabilities": {"general": offer}}));
    let expected = if utf16 { "utf-16" } else { "utf-8" };
    assert_eq!(init["capabilities"]["positionEncoding"], expected);
    // Columns of the first line, in the negotiated units.
    let col = |s: &str| -> u32 {
        if utf16 {
            s.encode_utf16().count() as u32
        } else {
            s.len() as u32
        }
    };
    let uri = "file:///work/sync.hcl";
    assert!(server.open(uri, "a = \"é😀\"\nb = 1\n").is_empty());
    // Two changes in one notification, the second against the text the
    // first left: `!` after the emoji, then `b` renamed.
    let after_emoji = col("a = \"é😀");
    let list = server.change(
        uri,
        2,
        json!([
            {"range": range(0, after_emoji, 0, after_emoji), "text": "!"},
            {"range": range(1, 0, 1, 1), "text": "long_name"},
        ]),
    );
    assert!(list.is_empty(), "{list:?}");
    // A stray `}` at the end of the first line: its column counts `é`
    // and `😀` in the negotiated units.
    let end = col("a = \"é😀!\"");
    let list = server.change(
        uri,
        3,
        json!([{"range": range(0, end, 0, end), "text": " }"}]),
    );
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(
        start_of(&list[0]["range"]),
        (0, u64::from(col("a = \"é😀!\" ")))
    );
    let list = server.change(
        uri,
        4,
        json!([{"range": range(0, end, 0, end + 2), "text": ""}]),
    );
    assert!(list.is_empty(), "{list:?}");
    // The text held is exactly the editor's: formatting it gives edits
    // that, applied here, align the two lines.
    let held = "a = \"é😀!\"\nlong_name = 1\n";
    let edits = server.result(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(
        apply(held, &edits, utf16),
        "a         = \"é😀!\"\nlong_name = 1\n"
    );
    server.stop();
}

#[test]
fn incremental_changes_in_utf16_columns() {
    incremental_session(json!({}), true);
}

#[test]
fn incremental_changes_in_utf8_columns_when_offered() {
    incremental_session(json!({"positionEncodings": ["utf-8", "utf-16"]}), false);
}

#[test]
fn hover_shows_the_evaluated_value() {
    let text = "variable \"n\" {\n  default = 2\n}\nlocals {\n  x = [for i in range(var.n) : \"s${i}\"]\n}\noutput \"o\" {\n  value = local.x\n}\noutput \"p\" {\n  value = var.missing\n}\n";
    let dir = TempDir::new(&[("main.tf", text)]);
    let mut server = Server::plain();
    let uri = uri(dir.path(), "main.tf");
    // The undeclared `var.missing` is a warning; the rest is declared.
    let list = server.open(&uri, text);
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["severity"], 2);
    assert!(list[0]["message"].as_str().unwrap().contains("\"missing\""));
    // On `local.x` (line 7, after `value = `).
    let hover = server.result("textDocument/hover", at(&uri, 7, 12));
    assert_eq!(
        hover["contents"]["value"],
        "```hcl\n[\n  \"s0\",\n  \"s1\",\n]\n```"
    );
    assert_eq!(hover["range"]["start"]["character"], 10);
    // On a block's labels: the block's header.
    let hover = server.result("textDocument/hover", at(&uri, 6, 9));
    assert_eq!(hover["contents"]["value"], "```hcl\noutput \"o\"\n```");
    // On nothing in particular: no hover.
    let hover = server.result("textDocument/hover", at(&uri, 1, 0));
    assert_eq!(hover, Value::Null);
    // Definitions: `local.x` is the `x` in `locals`, `var.n` the variable's label.
    let def = server.result("textDocument/definition", at(&uri, 7, 12));
    assert_eq!(def[0]["range"]["start"], json!({"line": 4, "character": 2}));
    assert_eq!(def[0]["uri"], uri);
    let def = server.result("textDocument/definition", at(&uri, 4, 24));
    assert_eq!(def[0]["range"]["start"], json!({"line": 0, "character": 9}));
    server.stop();
}

const MAIN_TF: &str = r#"variable "region" {
  type        = string
  description = "Where to deploy"
}

locals {
  name = "app-${var.region}"
}

module "net" {
  source = "./net"
}

resource "aws_instance" "web" {
  ami  = var.region
  tags = {
    Name = local.name
  }
}
"#;

const OUTPUTS_TF: &str = "output \"region\" {\n  value = var.region\n}\n";

#[test]
fn references_definition_and_rename_across_the_folder() {
    let dir = TempDir::new(&[("main.tf", MAIN_TF), ("outputs.tf", OUTPUTS_TF)]);
    let mut server = Server::plain();
    let main = uri(dir.path(), "main.tf");
    let outputs = uri(dir.path(), "outputs.tf");
    assert!(server.open(&main, MAIN_TF).is_empty());
    // On `var.region` of `ami = var.region` (line 14).
    let found = server.result("textDocument/references", at(&main, 14, 14));
    let first = places(&found);
    assert_eq!(
        first,
        vec![
            (main.clone(), (6, 16)),
            (main.clone(), (14, 9)),
            (outputs.clone(), (1, 10)),
        ]
    );
    // Issue 30: with `includeDeclaration`, the declaration's name comes
    // first (without it, or with false, it is left out as above).
    let mut with_declaration = at(&main, 14, 14);
    with_declaration["context"] = json!({"includeDeclaration": true});
    let found = server.result("textDocument/references", with_declaration);
    assert_eq!(
        places(&found),
        vec![
            (main.clone(), (0, 9)),
            (main.clone(), (6, 16)),
            (main.clone(), (14, 9)),
            (outputs.clone(), (1, 10)),
        ]
    );
    let mut without = at(&main, 14, 14);
    without["context"] = json!({"includeDeclaration": false});
    assert_eq!(
        places(&server.result("textDocument/references", without)).len(),
        3
    );
    // From the other file (not open: read from disk), to the declaration.
    assert!(server.open(&outputs, OUTPUTS_TF).is_empty());
    let def = server.result("textDocument/definition", at(&outputs, 1, 14));
    assert_eq!(def[0]["uri"], main);
    assert_eq!(def[0]["range"], range(0, 9, 0, 17));
    // Module and resource references.
    server.change(
        &outputs,
        2,
        json!([{"range": range(3, 0, 3, 0), "text": "output \"id\" {\n  value = aws_instance.web.id\n}\n"}]),
    );
    let def = server.result("textDocument/definition", at(&outputs, 4, 24));
    assert_eq!(def[0]["range"], range(13, 24, 13, 29));

    // Rename: prepared on the name, then every file changes.
    let prepared = server.result("textDocument/prepareRename", at(&main, 14, 14));
    assert_eq!(prepared, range(14, 13, 14, 19));
    let edit = server.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": main}, "position": {"line": 14, "character": 14}, "newName": "zone"}),
    );
    let changes = edit["changes"].as_object().unwrap();
    assert_eq!(changes.len(), 2, "{edit}");
    let held_outputs = format!("{OUTPUTS_TF}output \"id\" {{\n  value = aws_instance.web.id\n}}\n");
    assert_eq!(
        apply(MAIN_TF, &changes[&main], true),
        MAIN_TF
            .replace("region\"", "zone\"")
            .replace("var.region", "var.zone")
    );
    assert_eq!(
        apply(&held_outputs, &changes[&outputs], true),
        held_outputs.replace("var.region", "var.zone")
    );
    // Nothing to rename on a keyword-free spot.
    assert_eq!(
        server.result("textDocument/prepareRename", at(&main, 4, 0)),
        Value::Null
    );
    let refused = server.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": main}, "position": {"line": 4, "character": 0}, "newName": "x"}),
    );
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
    server.stop();
}

#[test]
fn symbols_folding_selection_and_range_formatting() {
    let mut server = Server::plain();
    let uri = "file:///work/structure.hcl";
    server.open(uri, MAIN_TF);
    let symbols = server.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "variable \"region\"",
            "locals",
            "module \"net\"",
            "resource \"aws_instance\" \"web\""
        ]
    );
    let web = &symbols[3];
    assert_eq!(web["range"], range(13, 0, 18, 1));
    assert_eq!(web["children"][0]["name"], "ami");
    assert_eq!(web["children"][1]["name"], "tags");

    let folds = server.result(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": uri}}),
    );
    let mut spans: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    spans.sort();
    assert_eq!(spans, [(0, 3), (5, 7), (9, 11), (13, 18), (15, 17)]);

    // From `Name` outward: the key, the item, the object, the attribute,
    // the block's body, the block, the file.
    let selection = server.result(
        "textDocument/selectionRange",
        json!({"textDocument": {"uri": uri}, "positions": [{"line": 16, "character": 5}]}),
    );
    let mut chain = Vec::new();
    let mut level = &selection[0];
    while level.is_object() {
        chain.push(level["range"].clone());
        level = &level["parent"];
    }
    assert_eq!(chain[0], range(16, 4, 16, 8));
    assert!(chain.contains(&range(15, 2, 17, 3)), "{chain:?}");
    assert!(chain.contains(&range(13, 0, 18, 1)), "{chain:?}");
    assert_eq!(chain.last().unwrap(), &range(0, 0, 18, 1));

    // Range formatting lays out the selected line only (the others are
    // not in its alignment run).
    let text = "a=1\n\nbb = [1,2]\n\nc  =  3\n";
    assert!(server.change(uri, 2, json!([{"text": text}])).is_empty());
    let edits = server.result(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": uri}, "range": range(2, 0, 2, 3), "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(apply(text, &edits, true), "a=1\n\nbb = [1, 2]\n\nc  =  3\n");
    server.stop();
}

#[test]
fn completion_of_declared_names() {
    let dir = TempDir::new(&[("main.tf", MAIN_TF), ("more.tf", "variable \"zone\" {}\n")]);
    let mut server = Server::plain();
    let main = uri(dir.path(), "main.tf");
    server.open(&main, MAIN_TF);
    // Typing `  x = var.` on a new line 15 of the resource block: a
    // broken file while the name is missing.
    let list = server.change(
        &main,
        2,
        json!([{"range": range(15, 0, 15, 0), "text": "  x = \"é\" == var.\n"}]),
    );
    assert!(!list.is_empty());
    let column = "  x = \"é\" == var.".encode_utf16().count() as u32;
    let items = server.result("textDocument/completion", at(&main, 15, column));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["region", "zone"]);
    assert_eq!(items[0]["detail"], "string");
    assert_eq!(items[0]["documentation"], "Where to deploy");
    assert_eq!(items[0]["textEdit"]["range"], range(15, column, 15, column));
    // Part of a name typed: it is what the completion replaces.
    server.change(
        &main,
        3,
        json!([{"range": range(15, column, 15, column), "text": "re"}]),
    );
    let items = server.result("textDocument/completion", at(&main, 15, column + 2));
    assert_eq!(
        items[0]["textEdit"]["range"],
        range(15, column, 15, column + 2)
    );
    // `local.` and `module.`.
    server.change(
        &main,
        4,
        json!([{"range": range(15, column - 4, 15, column + 2), "text": "local."}]),
    );
    let items = server.result("textDocument/completion", at(&main, 15, column + 2));
    assert_eq!(items[0]["label"], "name");
    assert_eq!(items[0]["detail"], "\"app-${var.region}\"");
    server.change(
        &main,
        5,
        json!([{"range": range(15, column - 4, 15, column + 2), "text": "module."}]),
    );
    let items = server.result("textDocument/completion", at(&main, 15, column + 3));
    assert_eq!(items[0]["label"], "net");
    assert_eq!(items[0]["detail"], "./net");
    // After anything else: nothing.
    let items = server.result("textDocument/completion", at(&main, 14, 5));
    assert_eq!(items, Value::Null);
    server.stop();
}

#[test]
fn workspace_symbols_of_every_folder() {
    let dir = TempDir::new(&[
        ("main.tf", MAIN_TF),
        (
            "jobs/build.hcl",
            "job \"Build\" {\n  group \"compile\" {\n  }\n}\n",
        ),
        (".hidden/skip.hcl", "job \"hidden\" {}\n"),
    ]);
    let mut server = Server::in_folder(dir.path());
    let found = server.result("workspace/symbol", json!({"query": "AWS_INST"}));
    assert_eq!(found.as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found[0]["name"], "resource aws_instance web");
    assert_eq!(found[0]["location"]["uri"], uri(dir.path(), "main.tf"));
    assert_eq!(found[0]["location"]["range"], range(13, 0, 18, 1));
    let found = server.result("workspace/symbol", json!({"query": "compile"}));
    assert_eq!(found[0]["name"], "group compile");
    assert_eq!(found[0]["containerName"], "job Build");
    assert_eq!(
        found[0]["location"]["uri"],
        uri(dir.path(), "jobs/build.hcl")
    );
    // Open documents as the editor holds them; a changed file on disk is
    // read again; hidden folders are skipped.
    let build = uri(dir.path(), "jobs/build.hcl");
    server.open(&build, "job \"Renamed\" {}\n");
    let found = server.result("workspace/symbol", json!({"query": "job"}));
    let names: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["job Renamed"]);
    std::fs::write(dir.path().join("main.tf"), "job \"on disk\" {}\n").unwrap();
    let found = server.result("workspace/symbol", json!({"query": "on disk"}));
    assert_eq!(found.as_array().unwrap().len(), 1, "{found}");
    server.stop();
}

#[test]
fn format_on_type() {
    let mut server = Server::plain();
    let uri = "file:///work/typing.hcl";
    let text = "top=1\nblock {\n  x=1\n  inner {\nyy=2\n}";
    server.open(uri, text);
    // `}` typed at the end: the `inner` block it closes is laid out.
    let edits = server.result(
        "textDocument/onTypeFormatting",
        json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 1}, "ch": "}",
               "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(
        apply(text, &edits, true),
        "top=1\nblock {\n  x=1\n  inner {\n    yy = 2\n  }"
    );
    // A newline typed after `x=1`: that line.
    let text = "top=1\nblock {\n  x=1\n\n}\n";
    server.change(uri, 2, json!([{"text": text}]));
    let edits = server.result(
        "textDocument/onTypeFormatting",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 0}, "ch": "\n",
               "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(apply(text, &edits, true), "top=1\nblock {\n  x = 1\n\n}\n");
    server.stop();
}

#[test]
fn formatting_profile_is_configurable() {
    let text = "locals {\n  a = \"${var.v}\"\n}\n";
    let unwrapped = "locals {\n  a = var.v\n}\n";
    let format = |server: &mut Server, uri: &str| {
        let edits = server.result(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
        );
        apply(text, &edits, true)
    };
    // By default: terraform's for `.tf`, hclfmt's for `.hcl`.
    let mut server = Server::plain();
    server.open("file:///work/p/main.tf", text);
    server.open("file:///work/p/conf.hcl", text);
    assert_eq!(format(&mut server, "file:///work/p/main.tf"), unwrapped);
    assert_eq!(format(&mut server, "file:///work/p/conf.hcl"), text);
    // A configuration change: terraform's everywhere.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"hclwright": {"profile": "terraform"}}}),
    );
    assert_eq!(format(&mut server, "file:///work/p/conf.hcl"), unwrapped);
    server.stop();
    // From the initialization options: hclfmt's everywhere.
    let (mut server, _) = Server::start(json!({
        "capabilities": {}, "initializationOptions": {"hclwright": {"profile": "hclfmt"}}}));
    server.open("file:///work/p/main.tf", text);
    assert_eq!(format(&mut server, "file:///work/p/main.tf"), text);
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"hclwright": {"profile": "auto"}}}),
    );
    assert_eq!(format(&mut server, "file:///work/p/main.tf"), unwrapped);
    server.stop();
}

#[test]
fn json_documents() {
    let mut server = Server::plain();
    let uri = "file:///work/main.tf.json";
    let list = server.open(uri, "{\"variable\": {\"é\": {}}, \"b\": 1,}");
    assert_eq!(list.len(), 1, "{list:?}");
    assert!(
        list[0]["message"]
            .as_str()
            .unwrap()
            .contains("trailing comma"),
        "{list:?}"
    );
    // At the `}` after the comma: the UTF-16 column counts `é` once.
    assert_eq!(start_of(&list[0]["range"]), (0, 31));
    let doc =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
    assert_eq!(
        server.result("textDocument/formatting", doc.clone()),
        json!([])
    );
    let symbols = server.result("textDocument/documentSymbol", doc);
    assert_eq!(symbols[0]["name"], "variable");
    assert_eq!(symbols[0]["children"][0]["name"], "é");
    assert_eq!(symbols[1]["name"], "b");
    assert_eq!(
        server.result("textDocument/hover", at(uri, 0, 2)),
        Value::Null
    );
    let list = server.change(uri, 2, json!([{"range": range(0, 30, 0, 31), "text": ""}]));
    assert!(list.is_empty(), "{list:?}");
    server.stop();
}

#[test]
fn a_broken_file_still_answers() {
    let text = "resource \"x\" \"y\" {\n  a = [1,\n  b = var.\n}\n}}}\nlocals {\n  é = \"${\n";
    let dir = TempDir::new(&[("main.tf", text)]);
    let mut server = Server::in_folder(dir.path());
    let uri = uri(dir.path(), "main.tf");
    assert!(server.open(&uri, text).len() >= 2);
    let doc =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
    for line in 0..9 {
        for character in [0, 3, 9, 200] {
            let here = at(&uri, line, character);
            for method in [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/references",
                "textDocument/completion",
                "textDocument/prepareRename",
            ] {
                server.result(method, here.clone());
            }
            let mut typed = here.clone();
            typed["ch"] = json!("}");
            typed["options"] = doc["options"].clone();
            server.result("textDocument/onTypeFormatting", typed);
            let mut renamed = here.clone();
            renamed["newName"] = json!("z");
            let response = server.request("textDocument/rename", renamed);
            if let Some(error) = response.get("error") {
                assert_eq!(error["code"], -32803, "{response}");
            }
            server.result(
                "textDocument/selectionRange",
                json!({"textDocument": {"uri": uri}, "positions": [{"line": line, "character": character}]}),
            );
        }
    }
    for method in [
        "textDocument/formatting",
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
    ] {
        server.result(method, doc.clone());
    }
    let mut whole = doc.clone();
    whole["range"] = range(0, 0, 99, 0);
    server.result("textDocument/rangeFormatting", whole);
    server.result("workspace/symbol", json!({"query": ""}));
    // A change past the end of the text, reversed ends: still in step.
    server.change(
        &uri,
        2,
        json!([{"range": range(40, 0, 30, 0), "text": "\n}\n"}]),
    );
    // A request about a document that is not open is an error, not a crash.
    let response = server.request("textDocument/hover", at("file:///nowhere.tf", 0, 0));
    assert_eq!(response["error"]["code"], -32602);
    server.stop();
}

#[test]
fn files_changed_on_disk() {
    let text = "output \"o\" {\n  value = var.later\n}\n";
    let dir = TempDir::new(&[("main.tf", text)]);
    let mut server = Server::plain();
    let main = uri(dir.path(), "main.tf");
    let list = server.open(&main, text);
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["severity"], 2);
    // Declared in a new file on disk: the warning goes when the editor
    // says files changed, and the hover shows the default.
    std::fs::write(
        dir.path().join("variables.tf"),
        "variable \"later\" {\n  default = \"ready\"\n}\n",
    )
    .unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(dir.path(), "variables.tf"), "type": 1}]}),
    );
    assert!(server.diagnostics(&main).is_empty());
    let hover = server.result("textDocument/hover", at(&main, 1, 14));
    assert_eq!(hover["contents"]["value"], "```hcl\n\"ready\"\n```");
    let def = server.result("textDocument/definition", at(&main, 1, 14));
    assert_eq!(def[0]["uri"], uri(dir.path(), "variables.tf"));
    // Closing a document clears its diagnostics.
    server.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": main}}),
    );
    assert!(server.diagnostics(&main).is_empty());
    server.stop();
}

#[test]
fn warnings_follow_incremental_changes() {
    let text = "variable \"a\" {}\nlocals {\n  l = var.a\n}\noutput \"o\" {\n  value = var.b\n}\n";
    let dir = TempDir::new(&[("main.tf", text)]);
    let mut server = Server::plain();
    let main = uri(dir.path(), "main.tf");
    let lines_of = |list: &[Value]| -> Vec<(u64, u64)> {
        list.iter().map(|d| start_of(&d["range"])).collect()
    };
    assert_eq!(lines_of(&server.open(&main, text)), [(5, 10)]);
    // A line above: the warning moves with its item.
    let list = server.change(
        &main,
        2,
        json!([{"range": range(0, 0, 0, 0), "text": "# é\n"}]),
    );
    assert_eq!(lines_of(&list), [(6, 10)]);
    // Typed in the output: gone.
    let list = server.change(
        &main,
        3,
        json!([{"range": range(6, 14, 6, 15), "text": "a"}]),
    );
    assert_eq!(lines_of(&list), []);
    // The declaration renamed: the untouched `locals` now warns.
    let list = server.change(
        &main,
        4,
        json!([{"range": range(1, 10, 1, 11), "text": "b"}]),
    );
    assert_eq!(lines_of(&list), [(3, 6), (6, 10)]);
    server.stop();
}

#[test]
fn a_burst_of_changes_ends_with_the_diagnostics_of_the_last_text() {
    let mut server = Server::plain();
    let uri = "file:///work/burst.hcl";
    server.open(uri, "");
    // Typed one character at a time without waiting: `a = [1,2]` and a
    // stray `]` on the second line at the end.
    let typed = "a = [1,2]\n]";
    for (i, c) in typed.chars().enumerate() {
        let (line, column) = if i < 10 { (0, i as u32) } else { (1, 0) };
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2 + i},
                   "contentChanges": [{"range": range(line, column, line, column), "text": c.to_string()}]}),
        );
    }
    // Publications may be merged while changes wait, but their versions
    // only grow and the last one is for the whole text.
    let last = 2 + typed.chars().count() as u64 - 1;
    let mut versions = Vec::new();
    loop {
        let m = server.receive();
        if m["method"] != "textDocument/publishDiagnostics" {
            continue;
        }
        let version = m["params"]["version"].as_u64().unwrap();
        versions.push(version);
        if version == last {
            let list = m["params"]["diagnostics"].as_array().unwrap().clone();
            assert_eq!(list.len(), 1, "{list:?}");
            assert_eq!(start_of(&list[0]["range"]), (1, 0));
            break;
        }
    }
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    server.stop();
}

#[test]
fn deeply_nested_files_answer() {
    let depth = 20_000;
    let text = format!(
        "a = {}{}\n{}{}",
        "[".repeat(depth),
        "]".repeat(depth),
        "b {\n".repeat(depth),
        "}\n".repeat(depth)
    );
    let dir = TempDir::new(&[("deep.tf", &text)]);
    let mut server = Server::in_folder(dir.path());
    let uri = uri(dir.path(), "deep.tf");
    assert!(server.open(&uri, &text).is_empty());
    let doc =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
    // Trees are cut at a depth a client can read (serde_json, as this
    // test and Helix use it, reads 128 levels of JSON).
    let symbols = server.result("textDocument/documentSymbol", doc.clone());
    let mut levels = 0;
    let mut level = &symbols[1];
    while level.is_object() {
        levels += 1;
        level = &level["children"][0];
    }
    assert_eq!(levels, 50);
    let folds = server.result("textDocument/foldingRange", doc.clone());
    assert_eq!(folds.as_array().unwrap().len(), depth);
    let inner =
        json!({"textDocument": {"uri": uri}, "positions": [{"line": 0, "character": 4 + depth}]});
    let selection = server.result("textDocument/selectionRange", inner);
    let mut levels = 0;
    let mut level = &selection[0];
    while level.is_object() {
        levels += 1;
        level = &level["parent"];
    }
    assert_eq!(levels, 50);
    // (Formatting the nested blocks would indent them by up to 40 000
    // spaces a line: the line of tuples only.)
    let mut first_line = doc.clone();
    first_line["range"] = range(0, 0, 0, 1);
    let edits = server.result("textDocument/rangeFormatting", first_line);
    assert_eq!(edits, json!([]));
    server.result("textDocument/hover", at(&uri, depth as u32, 0));
    let found = server.result("workspace/symbol", json!({"query": "b"}));
    assert_eq!(found.as_array().unwrap().len(), 50);
    server.stop();
}

#[test]
fn unsaved_documents_are_files_of_their_folder() {
    let text = "output \"o\" {\n  value = var.fresh\n}\n";
    let dir = TempDir::new(&[("main.tf", text)]);
    let mut server = Server::plain();
    let main = uri(dir.path(), "main.tf");
    assert_eq!(server.open(&main, text).len(), 1);
    // A new file, open but never saved, declares it: the other open file
    // of the folder is checked again.
    let fresh = uri(dir.path(), "new.tf");
    assert!(server.open(&fresh, "variable \"fresh\" {}\n").is_empty());
    assert!(server.diagnostics(&main).is_empty());
    let def = server.result("textDocument/definition", at(&main, 1, 14));
    assert_eq!(def[0]["uri"], fresh);
    assert_eq!(def[0]["range"], range(0, 9, 0, 16));
    let items = server.result("textDocument/completion", at(&main, 1, 14));
    assert_eq!(items[0]["label"], "fresh");
    server.stop();
}

/// A folder mixing both syntaxes: names a `.tf.json` file declares are
/// no warnings in a `.tf` file; references, definition and rename reach
/// into the JSON file.
#[test]
fn json_files_of_the_folder_count() {
    let main_tf = "output \"o\" {\n  value = \"${var.v}-${local.j}\"\n}\n";
    let decl =
        "{\n  \"variable\": {\"v\": {\"default\": 1}},\n  \"locals\": {\"j\": \"${var.v}\"}\n}\n";
    let dir = TempDir::new(&[("main.tf", main_tf), ("decl.tf.json", decl)]);
    let mut server = Server::plain();
    let main = uri(dir.path(), "main.tf");
    let json = uri(dir.path(), "decl.tf.json");
    assert!(
        server.open(&main, main_tf).is_empty(),
        "no undeclared warnings"
    );
    // On `v` of `var.v` in main.tf.
    let found = server.result("textDocument/references", at(&main, 1, 15));
    let places = places(&found);
    assert_eq!(
        places,
        vec![(json.clone(), (2, 21)), (main.clone(), (1, 13))]
    );
    let def = server.result("textDocument/definition", at(&main, 1, 15));
    assert_eq!(def[0]["uri"], json);
    assert_eq!(def[0]["range"], range(1, 15, 1, 18));
    let edit = server.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": main}, "position": {"line": 1, "character": 15}, "newName": "w"}),
    );
    let changes = edit["changes"].as_object().unwrap();
    assert_eq!(
        apply(decl, &changes[&json], true),
        "{\n  \"variable\": {\"w\": {\"default\": 1}},\n  \"locals\": {\"j\": \"${var.w}\"}\n}\n"
    );
    assert_eq!(
        apply(main_tf, &changes[&main], true),
        main_tf.replace("var.v", "var.w")
    );
}

/// A module whose local runs for about a billion steps (minutes), and an
/// output that refers to it (line 4: `  value = local.n`).
const SLOW_TF: &str = "locals {\n  n = length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : 1]]])\n}\noutput \"o\" {\n  value = local.n\n}\n";

impl Server {
    /// Sends a request without waiting for its answer; returns its id.
    fn send_request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The responses to `ids`, in the order they arrive.
    fn responses(&mut self, ids: &[u64]) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        while out.len() < ids.len() {
            let m = self.receive();
            if m.get("method").is_none() && ids.iter().any(|id| m["id"] == *id) {
                out.push(m);
            } else {
                self.pending.push(m);
            }
        }
        out
    }

    /// Kills the server if the test has not ended within `limit` (so that
    /// a server that stops answering fails the test instead of hanging
    /// it); the guard ends with the returned sender.
    fn guard(&self, limit: std::time::Duration) -> std::sync::mpsc::Sender<()> {
        let pid = self.child.id();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                eprintln!("the server did not answer within {limit:?}: killed");
                let _ = Command::new("kill").arg(pid.to_string()).status();
            }
        });
        done
    }
}

/// The server with `SLOW_TF` open, with evaluation limits `evaluation`.
fn slow_module(evaluation: Value) -> (Server, TempDir, String) {
    let dir = TempDir::new(&[("main.tf", SLOW_TF)]);
    let (mut server, _) = Server::start(json!({
        "capabilities": {},
        "initializationOptions": {"hclwright": {"evaluation": evaluation}},
    }));
    let uri = uri(dir.path(), "main.tf");
    assert!(server.open(&uri, SLOW_TF).is_empty());
    (server, dir, uri)
}

#[test]
fn a_slow_hover_is_cut_at_its_budget_and_blocks_nothing() {
    // Steps without limit: only the time stops it (1.5 s, long enough
    // for the other requests to be answered before it on a busy machine).
    let (mut server, _dir, uri) = slow_module(json!({"timeoutMs": 1500, "maxSteps": 1u64 << 60}));
    let _guard = server.guard(std::time::Duration::from_secs(120));
    let started = std::time::Instant::now();
    let hover = server.send_request("textDocument/hover", at(&uri, 4, 12));
    let doc =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
    let format = server.send_request("textDocument/formatting", doc.clone());
    let symbols = server.send_request("textDocument/documentSymbol", doc.clone());
    // A change while the hover works: its diagnostics come too.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": format!("{SLOW_TF}# edited\n")}]}),
    );
    let after_change = server.send_request("textDocument/documentSymbol", doc);
    let answers = server.responses(&[hover, format, symbols, after_change]);
    let order: Vec<u64> = answers.iter().map(|a| a["id"].as_u64().unwrap()).collect();
    assert_eq!(order, [format, symbols, after_change, hover], "{answers:?}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let shown = answers[3]["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        shown.starts_with(
            "Not evaluated: evaluating it took longer than the language server's limit of 1500 ms"
        ),
        "{shown}"
    );
    // The declaration is shown below.
    assert!(shown.ends_with("```hcl\nn = length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : 1]]])\n```"), "{shown}");
    assert!(server.diagnostics(&uri).is_empty());
    server.stop();
}

#[test]
fn hover_reports_the_steps_limit_of_the_settings() {
    let (mut server, _dir, uri) = slow_module(json!({"timeoutMs": 60000, "maxSteps": 1000}));
    let _guard = server.guard(std::time::Duration::from_secs(120));
    let hover = server.result("textDocument/hover", at(&uri, 4, 12));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.starts_with(
            "Not evaluated: Evaluating this expression took more than 1000 steps; it was stopped."
        ),
        "{shown}"
    );
    // A configuration change raises the limit: a quick value evaluates.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"hclwright": {"evaluation": {"maxSteps": 10, "timeoutMs": 1000}}}}),
    );
    let quick = "locals {\n  n = 1 + 2 + 3 + 4 + 5 + 6\n}\noutput \"o\" {\n  value = local.n\n}\n";
    std::fs::write(_dir.path().join("main.tf"), quick).unwrap();
    server.change(&uri, 2, json!([{"text": quick}]));
    let hover = server.result("textDocument/hover", at(&uri, 4, 12));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("took more than 10 steps"),
        "{hover}"
    );
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"evaluation": {"maxSteps": 1000}}}),
    );
    let hover = server.result("textDocument/hover", at(&uri, 4, 12));
    assert_eq!(hover["contents"]["value"], "```hcl\n21\n```");
    server.stop();
}

#[test]
fn a_cancelled_request_is_answered_request_cancelled() {
    // Without the cancellation, the hover would take a minute.
    let (mut server, _dir, uri) = slow_module(json!({"timeoutMs": 60000, "maxSteps": 1u64 << 60}));
    let _guard = server.guard(std::time::Duration::from_secs(120));
    let started = std::time::Instant::now();
    let hover = server.send_request("textDocument/hover", at(&uri, 4, 12));
    server.notify("$/cancelRequest", json!({"id": hover}));
    let answer = server.responses(&[hover]).remove(0);
    assert_eq!(answer["error"]["code"], -32800, "{answer}");
    assert!(answer.get("result").is_none(), "{answer}");
    // The server goes on: a quick request after it, and a second
    // cancellation of the same request changes nothing.
    server.notify("$/cancelRequest", json!({"id": hover}));
    let doc = json!({"textDocument": {"uri": uri}});
    let symbols = server.result("textDocument/documentSymbol", doc);
    assert_eq!(symbols.as_array().unwrap().len(), 2);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // A request answered already is not answered again.
    let hover = server.send_request("textDocument/hover", at(&uri, 0, 2));
    let answer = server.responses(&[hover]).remove(0);
    assert_eq!(answer["result"]["contents"]["value"], "```hcl\nlocals\n```");
    server.notify("$/cancelRequest", json!({"id": hover}));
    server.stop();
}
