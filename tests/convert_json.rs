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
