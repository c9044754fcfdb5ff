//! End to end with a real editor: Neovim's built-in LSP client (0.7 or
//! later, headless) starts `hclwright lsp` on `fixtures/lsp/main.tf`, as
//! `fixtures/lsp/neovim.lua` scripts it: diagnostics on open, hover,
//! formatting applied by the editor, formatting again over the text the
//! server holds from the editor's incremental changes, and the column of
//! an error typed after non-ASCII text.
//!
//! Runs only where `nvim` is on the `PATH` (skipped with a note
//! otherwise: tests install nothing; on Debian, `apt-get install neovim`).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::TempDir;
use hclwright::{FormatOptions, format_with};
use serde_json::Value;

/// `nvim` from the `PATH`, if there is one.
fn nvim() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("nvim"))
        .find(|p| p.is_file())
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/lsp")
        .join(name)
}

#[test]
fn neovim_session() {
    let Some(nvim) = nvim() else {
        eprintln!("note: nvim is not on the PATH; skipping the Neovim end-to-end test");
        return;
    };
    let text = std::fs::read_to_string(fixture("main.tf")).unwrap();
    let dir = TempDir::new(&[("main.tf", &text)]);
    let out = dir.path().join("result.json");
    // On `local.x` in `value = local.x`.
    let (hover_line, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("= local.x"))
        .unwrap();
    let hover_col = line.find("local.x").unwrap() + 2;
    let mut child = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-c"])
        .arg(format!("luafile {}", fixture("neovim.lua").display()))
        .env("HCLWRIGHT_BIN", env!("CARGO_BIN_EXE_hclwright"))
        .env("LSP_FILE", dir.path().join("main.tf"))
        .env("LSP_OUT", &out)
        .env("HOVER_LINE", hover_line.to_string())
        .env("HOVER_COL", hover_col.to_string())
        // Neovim's logs and state go to the temporary folder.
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("Neovim did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("Neovim wrote its results"))
            .unwrap();
    assert!(result.get("failure").is_none(), "{result}");

    // The undeclared `var.missing`, as a warning where it is.
    let diagnostics = result["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{result}");
    let missing = text
        .lines()
        .position(|l| l.contains("var.missing"))
        .unwrap();
    assert_eq!(diagnostics[0]["lnum"], missing);
    assert_eq!(diagnostics[0]["severity"], 2);
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("\"missing\"")
    );

    // The evaluated value.
    assert_eq!(
        result["hover"], "```hcl\n[\n  \"s0\",\n  \"s1\",\n]\n```",
        "{result}"
    );

    // Formatted as `terraform fmt` formats the file, by edits after `é`
    // and `😀` that the editor applied in UTF-16 columns; then nothing
    // more to do.
    assert!(result["edits"].as_u64().unwrap() > 0, "{result}");
    let expected = format_with(&text, &FormatOptions::terraform()).unwrap();
    assert_ne!(expected, text);
    assert_eq!(result["formatted"], expected.as_str(), "{result}");
    assert_eq!(result["edits_again"], 0, "{result}");

    // The stray `]` on line 8 (0-based), after `  y = "😀" `: byte column
    // 13 in the editor, from UTF-16 column 11 in the protocol.
    assert_eq!(result["error"]["lnum"], 8, "{result}");
    assert_eq!(result["error"]["col"], "  y = \"😀\" ".len(), "{result}");
}
