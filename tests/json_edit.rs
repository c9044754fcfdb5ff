//! Editing JSON syntax files with the same commands and addresses as
//! native files: each case of `fixtures/edit-json/cases.txt` runs
//! `hclwright COMMAND --diff` on its file and snapshots the unified diff
//! (so any change beyond the edited property shows); each result parses
//! cleanly and a second look finds the value set.

use std::process::Command;

fn run(args: &[String]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hclwright"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The command line of a case: `COMMAND [--flag [NAME]]… ADDRESS REST`,
/// or `block append PARENT TYPE LABEL… --body BODY`.
fn arguments(command: &str, file: &str) -> Vec<String> {
    let mut words: Vec<&str> = command.split_whitespace().collect();
    let mut args: Vec<String> = Vec::new();
    if words[..2] == ["block", "append"] {
        let body_at = words.iter().position(|w| *w == "--body").unwrap();
        let body = words[body_at + 1..].join(" ");
        args.extend(words[..body_at].iter().map(|w| w.to_string()));
        args.extend([
            "--body".to_string(),
            body,
            "-f".to_string(),
            file.to_string(),
        ]);
        args.push("--diff".to_string());
        return args;
    }
    args.push(words.remove(0).to_string());
    while words[0].starts_with("--") {
        let flag = words.remove(0);
        args.push(flag.to_string());
        if matches!(flag, "--after" | "--before") {
            args.push(words.remove(0).to_string());
        }
    }
    args.push(words.remove(0).to_string());
    if !words.is_empty() {
        args.push(words.join(" "));
    }
    args.push(file.to_string());
    args.push("--diff".to_string());
    args
}

#[test]
fn edits_change_only_what_they_edit() {
    let cases = std::fs::read_to_string("fixtures/edit-json/cases.txt").unwrap();
    let mut snapshot = String::new();
    for line in cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (file, command) = line.split_once(" | ").unwrap();
        let path = format!("fixtures/edit-json/{file}");
        let args = arguments(command, &path);
        let (code, diff, err) = run(&args);
        assert_eq!(code, 0, "{line}: {err}");
        assert!(!diff.is_empty(), "{line}: no change");
        // The edited text (printed without --diff) parses cleanly.
        let plain: Vec<String> = args.iter().filter(|a| *a != "--diff").cloned().collect();
        let (_, text, _) = run(&plain);
        let parse = hclwright::json::parse(&text);
        assert!(
            parse.errors().is_empty(),
            "{line}:\n{text}\n{:?}",
            parse.errors()
        );
        if file.contains("crlf") {
            assert_eq!(
                text.matches('\n').count(),
                text.matches("\r\n").count(),
                "{line}"
            );
        }
        snapshot.push_str(&format!("### {line}\n{diff}\n"));
    }
    insta::assert_snapshot!(snapshot);
}

#[test]
fn errors_say_what_and_where() {
    let file = "fixtures/edit-json/main.tf.json".to_string();
    let (code, _, err) = run(&["get".into(), "nope.x".into(), file.clone()]);
    assert_eq!((code, err.trim()), (1, "error: `nope.x` not found"));
    let (code, _, err) = run(&[
        "get".into(),
        "resource.aws_instance.web.ami.x".into(),
        file.clone(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("a string"), "{err}");
    let (code, _, err) = run(&[
        "mv".into(),
        "resource.aws_instance.web.ami".into(),
        "tags".into(),
        file.clone(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("tags"), "{err}");
    let (code, _, err) = run(&["set".into(), "locals.a".into(), "1 +".into(), file]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[
        "get".into(),
        "locals.a".into(),
        "fixtures/json/err/trailing_comma_object.json".into(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("trailing_comma_object.json:4:3: expected a property after `,`"),
        "{err}"
    );
}

#[test]
fn a_new_property_under_repeated_bodies_is_ambiguous() {
    let (code, _, err) = run(&[
        "set".into(),
        "locals.c".into(),
        "3".into(),
        "fixtures/edit-json/repeated_bodies.tf.json".into(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`locals` is ambiguous: 2 items match"),
        "{err}"
    );
}

/// Issue 30: a value set in a JSON file keeps `<`, `>` and `&` as they
/// are (Go's `\u003e` escapes are for HTML; JSON needs none).
#[test]
fn set_writes_angle_brackets_and_ampersands_literally() {
    let dir = std::env::temp_dir().join(format!("hclwright-json-escape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("main.tf.json");
    std::fs::write(
        &file,
        "{\n  \"terraform\": {\n    \"required_providers\": {\n      \"aws\": {\n        \"source\": \"hashicorp/aws\",\n        \"version\": \"~> 4.0\"\n      }\n    }\n  }\n}\n",
    )
    .unwrap();
    let path = file.display().to_string();
    let (code, _, err) = run(&[
        "set".into(),
        "terraform.required_providers.aws.version".into(),
        "\"~> 5.0\"".into(),
        "-u".into(),
        path.clone(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"version\": \"~> 5.0\""), "{text}");
    // What JSON requires is still escaped.
    let (code, out, _) = run(&[
        "set".into(),
        "terraform.x".into(),
        "\"a\\\"b\\n<&>\"".into(),
        path,
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("\"x\": \"a\\\"b\\n<&>\""), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
