//! `hclwright get | set | rm | mv | block`, run as a user would: output,
//! `--diff`, `-u` (in place), standard input, and exit codes (0 success,
//! 1 not found, 2 syntax, usage or I/O errors).

mod common;

use std::path::Path;
use std::process::Output;

const MAIN: &str = r#"terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 4.0"
    }
  }
}

resource "aws_instance" "web" {
  ami           = "ami-123" # pinned
  instance_type = "t3.micro"
  tags = {
    Name = "web"
  }
}
"#;

/// A fresh directory with `main.tf`; removed on drop.
struct TempDir(common::TempDir);

impl TempDir {
    fn new() -> TempDir {
        TempDir(common::TempDir::new(&[("main.tf", MAIN)]))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn read(&self) -> String {
        self.0.read("main.tf")
    }
}

fn run(dir: &Path, args: &[&str], stdin: &str) -> Output {
    common::hclwright(dir, args, stdin.as_bytes())
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn get_prints_values_and_blocks() {
    let dir = TempDir::new();
    let o = run(
        dir.path(),
        &["get", "terraform.required_providers.aws.version", "main.tf"],
        "",
    );
    assert_eq!(
        (o.status.code(), out(&o).as_str()),
        (Some(0), "\"~> 4.0\"\n")
    );
    let o = run(
        dir.path(),
        &["get", "resource.aws_instance.web.tags.Name", "main.tf"],
        "",
    );
    assert_eq!(out(&o), "\"web\"\n");
    let o = run(dir.path(), &["get", "terraform.required_providers"], MAIN);
    assert!(out(&o).starts_with("required_providers {\n"), "{}", out(&o));
    assert!(out(&o).ends_with("    }\n  }\n"));
    // Wildcards print every match.
    let o = run(dir.path(), &["get", "resource.*.*.ami", "main.tf"], "");
    assert_eq!(out(&o), "\"ami-123\"\n");
}

#[test]
fn get_exit_codes() {
    let dir = TempDir::new();
    let o = run(
        dir.path(),
        &["get", "resource.aws_instance.db.ami", "main.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).is_empty());
    assert!(err(&o).contains("not found"), "{}", err(&o));
    let o = run(dir.path(), &["get", "a..b", "main.tf"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("invalid address"), "{}", err(&o));
    let o = run(dir.path(), &["get", "a", "missing.tf"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = run(dir.path(), &["get", "a"], "a = [1,\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("<stdin>:"), "{}", err(&o));
}

#[test]
fn set_prints_the_result_or_a_diff() {
    let dir = TempDir::new();
    let args = [
        "set",
        "terraform.required_providers.aws.version",
        "\"~> 5.0\"",
        "main.tf",
    ];
    let o = run(dir.path(), &args, "");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), MAIN.replace("~> 4.0", "~> 5.0"));
    assert_eq!(dir.read(), MAIN, "no -u: the file is untouched");
    let o = run(dir.path(), &[&args[..], &["--diff"]].concat(), "");
    assert_eq!(
        out(&o),
        "--- a/main.tf\n+++ b/main.tf\n@@ -2,7 +2,7 @@\n   required_providers {\n     aws = {\n       source  = \"hashicorp/aws\"\n-      version = \"~> 4.0\"\n+      version = \"~> 5.0\"\n     }\n   }\n }\n"
    );
}

#[test]
fn set_creates_and_update_writes_in_place() {
    let dir = TempDir::new();
    let o = run(
        dir.path(),
        &[
            "set",
            "resource.aws_instance.web.monitoring",
            "true",
            "main.tf",
            "-u",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).is_empty());
    assert_eq!(
        dir.read(),
        // After the last attribute (`tags`), before nested blocks.
        MAIN.replace(
            "    Name = \"web\"\n  }\n",
            "    Name = \"web\"\n  }\n  monitoring = true\n"
        )
    );
    // -u with standard input is refused.
    let o = run(dir.path(), &["set", "a", "1", "-u"], "a = 0\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("needs a FILE"), "{}", err(&o));
}

#[test]
fn set_places_what_it_creates() {
    let dir = TempDir::new();
    let input = "tags = {\n  Name = \"web\"\n  Team = \"platform\"\n}\n";
    let o = run(
        dir.path(),
        &["set", "tags.Env", "\"prod\"", "--after", "Name"],
        input,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "tags = {\n  Name = \"web\"\n  Env  = \"prod\"\n  Team = \"platform\"\n}\n"
    );
    let o = run(dir.path(), &["set", "tags.Env", "1", "--first"], input);
    assert!(out(&o).starts_with("tags = {\n  Env  = 1\n"), "{}", out(&o));
    let o = run(
        dir.path(),
        &["set", "tags.Env", "1", "--before", "Nope"],
        input,
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    // Two placements: refused by the argument parser. Bad usage exits 2
    // for the edit commands, where 1 means "not found".
    let o = run(
        dir.path(),
        &["set", "tags.Env", "1", "--first", "--last"],
        input,
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("cannot be used with"), "{}", err(&o));
}

#[test]
fn set_errors() {
    let dir = TempDir::new();
    // A value that is not an object has no keys to create.
    let o = run(dir.path(), &["set", "a.b", "1"], "a = 1\n");
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("`a.b` not found: `a` is a number (`1`), not an object or a block"),
        "{}",
        err(&o)
    );
    let o = run(dir.path(), &["set", "resource.x.y", "1", "main.tf"], "");
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("block with 2 labels"), "{}", err(&o));
    // What is missing on the way is created.
    let o = run(
        dir.path(),
        &["set", "terraform.backend.s3.bucket", "\"b\"", "main.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        MAIN.replace(
            "    }\n  }\n}\n",
            "    }\n  }\n\n  backend \"s3\" {\n    bucket = \"b\"\n  }\n}\n"
        )
    );
    let o = run(dir.path(), &["set", "terraform.x", "[1,", "main.tf"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("invalid value `[1,`"), "{}", err(&o));
    let o = run(
        dir.path(),
        &["set", "p.aws.region", "1"],
        "p \"aws\" {}\np \"aws\" {}\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("ambiguous"), "{}", err(&o));
}

#[test]
fn rm_and_mv() {
    let dir = TempDir::new();
    let o = run(
        dir.path(),
        &["rm", "resource.aws_instance.web.tags", "main.tf"],
        "",
    );
    assert_eq!(
        out(&o),
        MAIN.replace("  tags = {\n    Name = \"web\"\n  }\n", "")
    );
    let o = run(
        dir.path(),
        &["mv", "resource.aws_instance.web.ami", "image", "main.tf"],
        "",
    );
    assert!(
        out(&o).contains("  image         = \"ami-123\" # pinned\n"),
        "{}",
        out(&o)
    );
    // hcledit style: a full address in the same block.
    let o = run(
        dir.path(),
        &[
            "mv",
            "resource.aws_instance.web.ami",
            "resource.aws_instance.web.image",
            "main.tf",
        ],
        "",
    );
    assert!(
        out(&o).contains("  image         = \"ami-123\""),
        "{}",
        err(&o)
    );
    let o = run(
        dir.path(),
        &[
            "mv",
            "resource.aws_instance.web.ami",
            "instance_type",
            "main.tf",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("already exists"), "{}", err(&o));
    let o = run(
        dir.path(),
        &["rm", "resource.aws_instance.web.nope", "main.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn block_append_and_rm() {
    let dir = TempDir::new();
    let o = run(
        dir.path(),
        &[
            "block",
            "append",
            ".",
            "output",
            "id",
            "main.tf",
            "--body",
            "value = aws_instance.web.id",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        format!("{MAIN}\noutput \"id\" {{\n  value = aws_instance.web.id\n}}\n")
    );
    // Labels only, file on standard input.
    let o = run(
        dir.path(),
        &["block", "append", "resource.aws_instance.web", "lifecycle"],
        MAIN,
    );
    assert!(
        out(&o).contains("  }\n\n  lifecycle {\n  }\n}\n"),
        "{}",
        out(&o)
    );
    let o = run(
        dir.path(),
        &["block", "rm", "terraform", "-u", "main.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        dir.read()
            .starts_with("resource \"aws_instance\" \"web\" {"),
        "{}",
        dir.read()
    );
    let o = run(
        dir.path(),
        &["block", "rm", "resource.aws_instance.web.ami", "main.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("is not a block"), "{}", err(&o));
}

#[test]
fn edits_keep_bytes_that_are_not_utf8_in_comments() {
    let dir = TempDir::new();
    let input: &[u8] = b"# r\xe9gion\nregion = \"eu\" # caf\xe9\nzone   = \"a\"\n";
    std::fs::write(dir.path().join("latin1.tf"), input).unwrap();
    let o = common::hclwright(
        dir.path(),
        &["set", "-u", "region", "\"us\"", "latin1.tf"],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        std::fs::read(dir.path().join("latin1.tf")).unwrap(),
        b"# r\xe9gion\nregion = \"us\" # caf\xe9\nzone   = \"a\"\n"
    );
    let o = common::hclwright(dir.path(), &["rm", "zone"], input);
    assert_eq!(o.stdout, b"# r\xe9gion\nregion = \"eu\" # caf\xe9\n");
}

/// `mv` on a block address and `block mv` change the block's labels, as
/// hcledit's `block mv` does; its type never changes.
#[test]
fn mv_on_a_block_moves_its_labels() {
    let dir = TempDir::new();
    std::fs::write(
        dir.path().join("b.tf"),
        "variable \"foo\" {\n}\nmodule \"a\" {\n}\n",
    )
    .unwrap();
    let o = run(
        dir.path(),
        &["mv", "variable.foo", "variable.bar", "b.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "variable \"bar\" {\n}\nmodule \"a\" {\n}\n");
    let o = run(dir.path(), &["mv", "module.a", "module.b", "b.tf"], "");
    assert_eq!(out(&o), "variable \"foo\" {\n}\nmodule \"b\" {\n}\n");
    let o = run(
        dir.path(),
        &[
            "block",
            "mv",
            "resource.aws_instance.web",
            "resource.aws_instance.app",
            "main.tf",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        MAIN.replace("\"aws_instance\" \"web\"", "\"aws_instance\" \"app\"")
    );
    let o = run(
        dir.path(),
        &[
            "mv",
            "resource.aws_instance.web",
            "resource.aws_instance.app",
            "main.tf",
            "-u",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(dir.read().contains("resource \"aws_instance\" \"app\" {"));
    // Another type, another number of labels, a bare name: errors, and
    // nothing is printed or written.
    for target in ["module.foo", "variable.foo.x", "bar"] {
        let o = run(dir.path(), &["mv", "variable.foo", target, "b.tf"], "");
        assert_eq!(o.status.code(), Some(2), "{target}: {}", out(&o));
        assert!(out(&o).is_empty());
        assert!(err(&o).contains(&format!("`{target}`")), "{}", err(&o));
    }
    let o = run(
        dir.path(),
        &["block", "mv", "terraform", "locals", "main.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("keeps its type `terraform`"),
        "{}",
        err(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.tf")).unwrap(),
        "variable \"foo\" {\n}\nmodule \"a\" {\n}\n"
    );
}

/// `set --if-exists` changes only what exists: a missing address exits 1
/// and writes nothing (without it, what is missing is created).
#[test]
fn set_if_exists_creates_nothing() {
    let dir = TempDir::new();
    std::fs::write(dir.path().join("e.tf"), "a = 1\n").unwrap();
    let o = run(
        dir.path(),
        &[
            "set",
            "--if-exists",
            "-u",
            "terraform.required_providers.aws.version",
            "\"~> 5.0\"",
            "e.tf",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("not found"), "{}", err(&o));
    assert_eq!(dir.0.read("e.tf"), "a = 1\n");
    let o = run(
        dir.path(),
        &["set", "--if-exists", "-u", "a", "2", "e.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(dir.0.read("e.tf"), "a = 2\n");
    // Without the flag, the blocks on the way are created.
    let o = run(
        dir.path(),
        &[
            "set",
            "terraform.required_providers.aws.version",
            "\"~> 5.0\"",
            "e.tf",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("terraform {"), "{}", out(&o));
}

/// An address that goes on past a string (the legacy provider form) says
/// what the value is and what to address instead.
#[test]
fn address_past_a_string_says_what_it_is() {
    let dir = TempDir::new();
    std::fs::write(
        dir.path().join("p.tf"),
        "terraform {\n  required_providers {\n    aws = \"~> 4.0\"\n  }\n}\n",
    )
    .unwrap();
    for command in ["get", "set", "rm"] {
        let mut args = vec![command, "terraform.required_providers.aws.version"];
        if command == "set" {
            args.push("\"~> 5.0\"");
        }
        args.push("p.tf");
        let o = run(dir.path(), &args, "");
        assert_eq!(o.status.code(), Some(1), "{command}: {}", err(&o));
        assert!(
            err(&o).contains(
                "`terraform.required_providers.aws` is a string (`\"~> 4.0\"`), not an object or a block"
            ),
            "{command}: {}",
            err(&o)
        );
        assert!(out(&o).is_empty());
    }
}

/// `comment get | set | rm`, for the comment lines above an item and the
/// comment at the end of its line.
#[test]
fn comment_get_set_rm() {
    let dir = TempDir::new();
    let get = |args: &[&str]| {
        let mut all = vec!["comment", "get"];
        all.extend_from_slice(args);
        all.push("main.tf");
        run(dir.path(), &all, "")
    };
    let o = get(&["--inline", "resource.aws_instance.web.ami"]);
    assert_eq!(
        (o.status.code(), out(&o)),
        (Some(0), "# pinned\n".to_string())
    );
    let o = get(&["resource.aws_instance.web.ami"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("has no comment lines above it"),
        "{}",
        err(&o)
    );
    let o = run(
        dir.path(),
        &[
            "comment",
            "set",
            "resource.aws_instance.web.ami",
            "The image\n// see the wiki",
            "main.tf",
            "-u",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        dir.read()
            .contains("  # The image\n  // see the wiki\n  ami           = \"ami-123\" # pinned\n"),
        "{}",
        dir.read()
    );
    let o = get(&["resource.aws_instance.web.ami"]);
    assert_eq!(out(&o), "# The image\n// see the wiki\n");
    let o = run(
        dir.path(),
        &[
            "comment",
            "set",
            "--inline",
            "resource.aws_instance.web.instance_type",
            "small",
            "main.tf",
            "--diff",
        ],
        "",
    );
    assert!(
        out(&o).contains("+  instance_type = \"t3.micro\" # small\n"),
        "{}",
        out(&o)
    );
    let o = run(
        dir.path(),
        &[
            "comment",
            "rm",
            "--all",
            "resource.aws_instance.web.ami",
            "main.tf",
            "-u",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(dir.read(), MAIN.replace(" # pinned", ""));
    // A comment line cannot hold a newline inside an inline comment.
    let o = run(
        dir.path(),
        &["comment", "set", "--inline", "terraform", "a\nb", "main.tf"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
}

/// The token-dense and item-dense shapes of the pathological inputs
/// (`scripts/bench-memory/run.sh` measures them at 10 MB): every editing
/// command gives what it gives on a small file.
#[test]
fn editing_commands_on_token_dense_and_item_dense_files() {
    let list = format!("[{}]", "1,".repeat(200_000));
    let dense = format!("a = {list}\n");
    let attrs: String = (0..20_000).map(|i| format!("a{i} = {i}\n")).collect();
    let dir = common::TempDir::new(&[("dense.tf", &dense), ("attrs.tf", &attrs)]);
    let path = dir.path();
    // The outputs are large: compared without printing them.
    let expect = |args: &[&str], code: i32, expected: &str| {
        let o = run(path, args, "");
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", err(&o));
        assert!(out(&o) == expected, "{args:?}: unexpected output");
    };

    expect(&["get", "a", "dense.tf"], 0, &format!("{list}\n"));
    // The new attribute joins the `=` group of `a`, which is realigned.
    expect(
        &["set", "zz_new", "7", "dense.tf"],
        0,
        &format!("a      = {list}\nzz_new = 7\n"),
    );
    expect(&["rm", "a", "dense.tf"], 0, "");
    expect(&["rename", "var.x", "var.y", "dense.tf"], 1, "");

    expect(&["get", "a19999", "attrs.tf"], 0, "19999\n");
    expect(&["get", "a", "attrs.tf"], 1, "");
    expect(
        &["set", "zz_new", "7", "attrs.tf"],
        0,
        &format!("{attrs}zz_new = 7\n"),
    );
    expect(
        &["set", "a10000", "x", "attrs.tf"],
        0,
        &attrs.replace("a10000 = 10000\n", "a10000 = x\n"),
    );
    expect(&["rm", "a5", "attrs.tf"], 0, &attrs.replace("a5 = 5\n", ""));
}
