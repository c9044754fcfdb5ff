//! `hclwright completions SHELL` and `hclwright man`: each shell's script
//! and the manual page are generated from the command-line definition and
//! name every subcommand.

mod common;

use common::{TempDir, code, stderr, stdout};

/// The subcommands a user types, as `hclwright --help` lists them.
fn subcommands() -> Vec<String> {
    let dir = TempDir::new(&[]);
    let help = stdout(&common::hclwright(dir.path(), &["--help"], b""));
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn help_lists_the_subcommands() {
    let names = subcommands();
    for expected in ["check", "fmt", "eval", "bump", "completions", "man"] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand() {
    let dir = TempDir::new(&[]);
    let names = subcommands();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = common::hclwright(dir.path(), &["completions", shell], b"");
        assert_eq!(code(&out), 0, "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains("hclwright"), "{shell}");
        for name in &names {
            assert!(
                script.contains(name.as_str()),
                "{shell} script lacks {name}"
            );
        }
        // An option of a subcommand is completed too.
        assert!(
            script.contains("recursive"),
            "{shell} lacks fmt's --recursive"
        );
    }
}

#[test]
fn bash_script_is_valid_bash() {
    let dir = TempDir::new(&[]);
    let out = common::hclwright(dir.path(), &["completions", "bash"], b"");
    let path = dir.path().join("hclwright.bash");
    std::fs::write(&path, stdout(&out)).unwrap();
    match std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
    {
        Ok(check) => assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        ),
        Err(e) => eprintln!("note: bash not found ({e}); syntax of the script not checked"),
    }
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let dir = TempDir::new(&[]);
    let out = common::hclwright(dir.path(), &["completions", "tcsh"], b"");
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("possible values"), "{}", stderr(&out));
}

#[test]
fn man_page_has_a_section_per_subcommand_and_the_exit_codes() {
    let dir = TempDir::new(&[]);
    let out = common::hclwright(dir.path(), &["man"], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let page = stdout(&out);
    assert_eq!(page.matches(".TH ").count(), 1, "one title line");
    assert!(page.contains(".TH hclwright 1"));
    for name in subcommands() {
        let heading = format!(".SH \"HCLWRIGHT {}\"", name.to_uppercase());
        assert!(page.contains(&heading), "no section {heading}");
    }
    assert!(page.contains(".SH \"EXIT STATUS\""));
    // fmt's options are on the page.
    assert!(page.contains("recursive"));
}

#[test]
fn man_page_renders_with_man_where_available() {
    let dir = TempDir::new(&[]);
    let out = common::hclwright(dir.path(), &["man"], b"");
    let path = dir.path().join("hclwright.1");
    std::fs::write(&path, &out.stdout).unwrap();
    let rendered = std::process::Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output();
    match rendered {
        Ok(r) if r.status.success() => {
            let text = String::from_utf8_lossy(&r.stdout);
            assert!(text.contains("HCLWRIGHT FMT"), "{text}");
            assert!(text.contains("EXIT STATUS"));
        }
        Ok(r) => eprintln!(
            "note: man -l failed here ({}); rendering not checked",
            String::from_utf8_lossy(&r.stderr).trim()
        ),
        Err(e) => eprintln!("note: man not found ({e}); rendering not checked"),
    }
}
