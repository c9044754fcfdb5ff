//! `hclwright bump terraform | provider | module | plugin`, run as a bot
//! would: only the version strings change (comments, alignment, CRLF
//! kept), `--check` exit codes, `--json`, broken files, ignored folders.

mod common;

use common::{TempDir, code, stderr, stdout};

const MAIN: &str = r#"terraform {
  required_version = ">= 1.5" # tf
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 4.0" # pinned
    }
    google = "~> 4.0"
  }
}

provider "aws" {
  region  = "eu-west-1"
  version = "~> 4.0"
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.1.0"
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "19.0.0"
}

module "git" {
  source = "git::https://example.com/vpc.git?ref=v1.2.0"
}
"#;

fn tree() -> TempDir {
    TempDir::new(&[
        ("main.tf", MAIN),
        (
            ".terraform.lock.hcl",
            "provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"4.67.0\"\n}\n",
        ),
        (
            "live/terragrunt.hcl",
            "terraform {\n  source = \"tfr:///terraform-aws-modules/vpc/aws?version=5.1.0\"\n}\n",
        ),
        (
            "packer/build.pkr.hcl",
            "packer {\n  required_plugins {\n    amazon = {\n      version = \">= 1.2.0\"\n      source  = \"github.com/hashicorp/amazon\"\n    }\n  }\n}\n",
        ),
        (
            "crlf/versions.tf",
            "terraform {\r\n  required_version = \"~> 1.5.0\"\r\n}\r\n",
        ),
        (
            ".terraform/modules/x/main.tf",
            "terraform {\n  required_version = \"1.0.0\"\n}\n",
        ),
    ])
}

fn run(dir: &TempDir, args: &[&str]) -> std::process::Output {
    let mut all = vec!["bump"];
    all.extend_from_slice(args);
    common::hclwright(dir.path(), &all, b"")
}

#[test]
fn provider_in_every_form_with_the_operator_kept() {
    let dir = tree();
    let o = run(
        &dir,
        &[
            "provider",
            "hashicorp/aws",
            "5.31.0",
            "--keep-operator",
            "main.tf",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        dir.read("main.tf"),
        MAIN.replace(
            "      version = \"~> 4.0\" # pinned",
            "      version = \"~> 5.31\" # pinned"
        )
        .replace(
            "  region  = \"eu-west-1\"\n  version = \"~> 4.0\"",
            "  region  = \"eu-west-1\"\n  version = \"~> 5.31\""
        )
    );
    // The lock file pins a version the new constraint refuses.
    assert!(
        stderr(&o).contains("pins registry.terraform.io/hashicorp/aws at 4.67.0"),
        "{}",
        stderr(&o)
    );
    // The legacy string form, by local name; without --keep-operator, a pin.
    let o = run(&dir, &["provider", "google", "5.0.0", "main.tf"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.read("main.tf").contains("    google = \"5.0.0\"\n"));
    // Already current: nothing written, nothing listed.
    let o = run(&dir, &["provider", "google", "5.0.0", "--check", "main.tf"]);
    assert_eq!((code(&o), stdout(&o)), (0, String::new()));
}

#[test]
fn terraform_module_and_plugin() {
    let dir = tree();
    let o = run(&dir, &["terraform", "1.11.4", "--keep-operator", "-r", "."]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        dir.read("main.tf")
            .contains("  required_version = \">= 1.11\" # tf\n")
    );
    // CRLF kept; hidden folders (.terraform) never touched.
    assert_eq!(
        dir.read("crlf/versions.tf"),
        "terraform {\r\n  required_version = \"~> 1.11.4\"\r\n}\r\n"
    );
    assert!(
        dir.read(".terraform/modules/x/main.tf")
            .contains("\"1.0.0\"")
    );
    let o = run(
        &dir,
        &[
            "module",
            "terraform-aws-modules/vpc/aws",
            "5.5.1",
            "-r",
            ".",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let main = dir.read("main.tf");
    assert!(
        main.contains("  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"5.5.1\"\n")
    );
    assert!(
        main.contains("  version = \"19.0.0\"\n"),
        "another module is left alone"
    );
    assert!(
        dir.read("live/terragrunt.hcl")
            .contains("vpc/aws?version=5.5.1\"")
    );
    let o = run(
        &dir,
        &[
            "module",
            "git::https://example.com/vpc.git",
            "1.3.0",
            "main.tf",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.read("main.tf").contains("vpc.git?ref=v1.3.0\""));
    let o = run(
        &dir,
        &[
            "plugin",
            "github.com/hashicorp/amazon",
            "1.3.0",
            "--keep-operator",
            "-r",
            ".",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        dir.read("packer/build.pkr.hcl")
            .contains("      version = \">= 1.3.0\"\n")
    );
}

#[test]
fn check_json_diff_broken_files_and_ignored_paths() {
    let dir = tree();
    std::fs::write(dir.path().join("live/broken.tf"), "a = \n").unwrap();
    let before = dir.read("main.tf");
    // --check lists the files due and exits 3; a broken file is reported
    // with its position and makes the exit 2, the others still processed.
    let o = run(&dir, &["terraform", "1.11.4", "--check", "-r", "."]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("broken.tf:1:5: "), "{}", stderr(&o));
    assert!(stdout(&o).contains("main.tf\n") && stdout(&o).contains("versions.tf\n"));
    let o = run(
        &dir,
        &[
            "terraform",
            "1.11.4",
            "--check",
            "-r",
            "--ignore-path",
            "live",
            ".",
        ],
    );
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert_eq!(dir.read("main.tf"), before);
    // --json: one object per change.
    let o = run(&dir, &["provider", "aws", "5.31.0", "--json", "main.tf"]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["line"], 6);
    assert_eq!(lines[0]["old"], "~> 4.0");
    assert_eq!(lines[0]["new"], "5.31.0");
    // --diff writes nothing and prints a diff git applies.
    let o = run(&dir, &["provider", "aws", "5.31.0", "--diff", "main.tf"]);
    assert!(
        stdout(&o).starts_with("--- a/main.tf\n+++ b/main.tf\n"),
        "{}",
        stdout(&o)
    );
    assert_eq!(dir.read("main.tf"), before);
    // Not a version: an error.
    let o = run(&dir, &["terraform", "banana"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn ignore_path_globs_and_text() {
    let dir = TempDir::new(&[
        (
            "a/versions.tf",
            "terraform {\n  required_version = \"1.0.0\"\n}\n",
        ),
        (
            "modules/x/versions.tf",
            "terraform {\n  required_version = \"1.0.0\"\n}\n",
        ),
        (
            "env-prod/versions.tf",
            "terraform {\n  required_version = \"1.0.0\"\n}\n",
        ),
    ]);
    let listed = |args: &[&str]| {
        let o = run(&dir, args);
        let mut files: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
        files.sort();
        files
    };
    let base = ["terraform", "1.9.0", "-r", "--check"];
    let with = |extra: &[&str]| {
        let mut v = base.to_vec();
        v.extend_from_slice(extra);
        listed(&v)
    };
    assert_eq!(with(&[]).len(), 3);
    assert_eq!(
        with(&["--ignore-path", "modules/*"]),
        ["./a/versions.tf", "./env-prod/versions.tf"]
    );
    assert_eq!(
        with(&["--ignore-path", "env-*", "--ignore-path", "modules"]),
        ["./a/versions.tf"]
    );
    assert_eq!(with(&["--ignore-path", "**/*.tf"]), Vec::<String>::new());
    let o = run(
        &dir,
        &["terraform", "1.9.0", "-r", "--ignore-path", "[", "--check"],
    );
    assert_eq!(code(&o), 2);
}

/// Issue 30: a tree with only `main.tf.json` is bumped by `-r` (it was
/// skipped silently), a named `main.tf.json` is read as JSON (it was
/// parsed as native syntax: exit 2), and a broken one is reported.
#[test]
fn json_files_are_bumped() {
    let json = "{\n  \"terraform\": {\n    \"required_version\": \">= 1.5\"\n  }\n}\n";
    let dir = TempDir::new(&[
        ("main.tf.json", json),
        ("broken/main.tf.json", "{\"terraform\": {\n"),
    ]);
    let o = common::hclwright(
        dir.path(),
        &["bump", "terraform", "1.11.4", "main.tf.json", "--json"],
        b"",
    );
    assert_eq!((code(&o), stderr(&o).as_str()), (0, ""));
    assert_eq!(
        stdout(&o),
        "{\"file\": \"main.tf.json\", \"line\": 3, \"old\": \">= 1.5\", \"new\": \"1.11.4\"}\n"
    );
    let o = common::hclwright(dir.path(), &["bump", "terraform", "1.11.4", "-r", "."], b"");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("broken/main.tf.json: not bumped because of syntax errors"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "./main.tf.json\n");
    assert_eq!(dir.read("main.tf.json"), json.replace(">= 1.5", "1.11.4"));
}
