//! `hclwright::convert::to_json` against hcl2json's output for the
//! fixtures of `fixtures/convert/` (recorded as described in its README):
//! the same JSON value for each file.

#[test]
fn same_values_as_hcl2json() {
    let mut count = 0;
    for entry in std::fs::read_dir("fixtures/convert").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "hcl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let golden: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path.with_extension("json")).unwrap())
                .unwrap();
        let ours = hclwright::convert::to_json(&text).unwrap();
        let ours: serde_json::Value = serde_json::from_str(&ours).unwrap();
        assert_eq!(ours, golden, "{}", path.display());
        let compact = hclwright::convert::to_json_compact(&text).unwrap();
        assert!(!compact.contains('\n'), "{}", path.display());
        let compact: serde_json::Value = serde_json::from_str(&compact).unwrap();
        assert_eq!(compact, golden, "compact, {}", path.display());
        count += 1;
    }
    assert!(count >= 3);
}

#[test]
fn cli_converts_and_refuses_broken_files() {
    let dir = std::env::temp_dir().join(format!("hclwright-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ok.tf"), "a = \"x\"\n").unwrap();
    std::fs::write(dir.join("bad.tf"), "a = [\n").unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_hclwright"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let ok = run(&["convert", "--to", "json", "ok.tf"]);
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&ok.stdout),
        "{\n    \"a\": \"x\"\n}\n"
    );
    let bad = run(&["convert", "--to", "json", "bad.tf"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("bad.tf:1:6"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    let out = run(&["convert", "--to", "json", "ok.tf", "-o", "out.json"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.join("out.json")).unwrap(),
        "{\n    \"a\": \"x\"\n}\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

mod common;

/// Native → JSON → native over the corpus: the JSON converts back to a
/// native file that parses cleanly and converts to the same JSON again
/// (the same blocks, labels, attributes and values).
#[test]
fn corpus_round_trips_through_json() {
    let Some(dir) = common::corpus("the JSON round-trip test") else {
        return;
    };
    let invalid = common::invalid_files(&dir);
    let (mut count, mut differ) = (0, Vec::new());
    for rel in common::corpus_files(&dir) {
        let key = rel.to_string_lossy().replace('\\', "/");
        if invalid.contains(&key) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(dir.join(&rel)) else {
            continue;
        };
        let Ok(json) = hclwright::convert::to_json_value(&text) else {
            continue;
        };
        let json_text = serde_json::to_string(&json).unwrap();
        // The compact text (the Node package's) reads back to the value.
        let compact = hclwright::convert::to_json_compact(&text).unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&compact).ok(),
            Some(json.clone()),
            "{key}: compact JSON"
        );
        count += 1;
        match hclwright::convert::to_hcl(&json_text) {
            Ok(hcl) => {
                let again = hclwright::convert::to_json_value(&hcl);
                if again.as_ref().ok() != Some(&json) {
                    differ.push(key);
                }
            }
            Err(e) => differ.push(format!("{key}: {e}")),
        }
    }
    eprintln!("{count} files, {} differ", differ.len());
    for d in differ.iter().take(20) {
        eprintln!("  {d}");
    }
    assert!(count > 2000);
    // What differs is what JSON cannot say without a schema (an attribute
    // holding a list of objects reads back as blocks): at most 1%.
    assert!(
        differ.len() * 100 <= count,
        "{} of {count} differ",
        differ.len()
    );
}

/// JSON → native on a hand-written Terraform module (strings that are one
/// interpolation become bare expressions, `type` and `depends_on` bare,
/// `"//"` a comment) and on hcl2json's own output: snapshots, and the CLI
/// refusing broken JSON with a position.
#[test]
fn json_converts_to_native() {
    for path in [
        "fixtures/eval/modules/json/main.tf.json",
        "fixtures/convert/blocks.json",
    ] {
        let text = std::fs::read_to_string(path).unwrap();
        let hcl = hclwright::convert::to_hcl(&text).unwrap();
        assert!(hclwright::syntax_errors(&hcl).is_empty());
        insta::assert_snapshot!(path.replace(['/', '.'], "_"), hcl);
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hclwright"))
        .args(["convert", "--to", "hcl", "fixtures/convert/blocks.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let broken = std::process::Command::new(env!("CARGO_BIN_EXE_hclwright"))
        .args(["convert", "--to", "hcl", "-"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&broken.stderr).contains("<stdin>:1:1: expected a JSON object")
    );
}

/// Edge cases of JSON → native: a string that is no template stays
/// literal text, null block levels define no blocks, names the native
/// syntax cannot spell are refused with the name.
#[test]
fn json_to_native_edge_cases() {
    let hcl = |j: &str| hclwright::convert::to_hcl(j);
    assert_eq!(hcl(r#"{"a": "${"}"#).unwrap(), "a = \"$${\"\n");
    assert_eq!(hcl(r#"{"locals": null}"#).unwrap(), "");
    assert_eq!(
        hcl(r#"{"resource": {"t": {"n": null, "m": {"x": 1}}}}"#).unwrap(),
        "resource \"t\" \"m\" {\n  x = 1\n}\n"
    );
    assert_eq!(hcl(r#"{"//": ["a", 1]}"#).unwrap(), "# [\"a\", 1]\n");
    let err = hcl(r#"{"my key": 1}"#).unwrap_err().to_string();
    assert!(err.contains("\"my key\" is not a valid name"), "{err}");
    assert!(matches!(
        hcl("{\"a\": 1,}"),
        Err(hclwright::convert::ToHclError::Syntax(_))
    ));
}
