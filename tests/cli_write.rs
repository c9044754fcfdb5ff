//! How every command that rewrites files writes them: hard links kept, a
//! read-only file refused (also where the folder would allow replacing
//! it), a read-only folder still written in place, owner and group kept,
//! and concurrent runs on one file losing no update. The cases that need a
//! second user run as `nobody` through `setpriv` when this test runs as
//! root, and are skipped with a note otherwise.

#![cfg(unix)]

mod common;

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{TempDir, code, stderr};

const NOBODY: u32 = 65534;

fn run(dir: &Path, args: &[&str]) -> Output {
    common::hclwright(dir, args, b"")
}

/// Runs the tool as the user `nobody`, or `None` (with a note) when this
/// process cannot (not root, or no `setpriv`).
fn run_as_nobody(dir: &Path, args: &[&str]) -> Option<Output> {
    if current_uid() != 0 || Command::new("setpriv").arg("--version").output().is_err() {
        eprintln!("note: not root or no setpriv: skipping the second-user case");
        return None;
    }
    let uid = NOBODY.to_string();
    let mut all = vec![
        format!("--reuid={uid}"),
        format!("--regid={uid}"),
        "--clear-groups".to_string(),
        env!("CARGO_BIN_EXE_hclwright").to_string(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    Some(
        Command::new("setpriv")
            .args(&all)
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    )
}

fn current_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// A folder the user `nobody` may enter and read (the test folders are
/// made by root).
fn open_to_everyone(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut path = dir.to_path_buf();
    loop {
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
        if !path.pop() || path == std::env::temp_dir() || path.as_os_str().is_empty() {
            break;
        }
    }
}

#[test]
fn hard_links_are_kept_by_every_writer() {
    let dir = TempDir::new(&[("h1.tf", "a = 1\n")]);
    let h1 = dir.path().join("h1.tf");
    let h2 = dir.path().join("h2.tf");
    std::fs::hard_link(&h1, &h2).unwrap();
    let o = run(dir.path(), &["set", "-u", "a", "77", "h1.tf"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(dir.read("h2.tf"), "a = 77\n");
    std::fs::write(&h1, "a=var.x\n").unwrap();
    let o = run(dir.path(), &["fmt", "-write", "h1.tf"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(dir.read("h2.tf"), "a = var.x\n");
    let o = run(dir.path(), &["rename", "-w", "var.x", "var.y", "h1.tf"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(dir.read("h2.tf"), "a = var.y\n");
    let (m1, m2) = (
        std::fs::metadata(&h1).unwrap(),
        std::fs::metadata(&h2).unwrap(),
    );
    assert_eq!((m1.ino(), m1.nlink()), (m2.ino(), 2));
}

#[test]
fn a_read_only_file_is_refused_for_a_user_who_may_not_write_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new(&[("r.tf", "a=1\n")]);
    open_to_everyone(dir.path());
    let file = dir.path().join("r.tf");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    // The folder is writable by everyone: replacing the file would work,
    // and must not happen.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    for args in [
        &["fmt", "-write", "r.tf"][..],
        &["set", "-u", "a", "2", "r.tf"],
        &["rename", "-w", "var.x", "var.y", "r.tf"],
    ] {
        let Some(o) = run_as_nobody(dir.path(), args) else {
            return;
        };
        if args[0] != "rename" {
            assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("r.tf"), "{}", stderr(&o));
            assert!(stderr(&o).contains("not writable"), "{}", stderr(&o));
        }
        assert_eq!(dir.read("r.tf"), "a=1\n");
        let meta = std::fs::metadata(&file).unwrap();
        assert_eq!((meta.uid(), meta.mode() & 0o777), (0, 0o444));
    }
}

#[test]
fn a_writable_file_in_a_read_only_folder_is_written_in_place() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new(&[("ro/x.tf", "a=1\n")]);
    open_to_everyone(dir.path());
    let folder = dir.path().join("ro");
    let file = folder.join("x.tf");
    std::os::unix::fs::chown(&folder, Some(NOBODY), None).unwrap();
    std::os::unix::fs::chown(&file, Some(NOBODY), None).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
    let Some(o) = run_as_nobody(dir.path(), &["fmt", "-write", "ro/x.tf"]) else {
        return;
    };
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(dir.read("ro/x.tf"), "a = 1\n");
    let Some(o) = run_as_nobody(dir.path(), &["set", "-u", "b", "2", "ro/x.tf"]) else {
        return;
    };
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(dir.read("ro/x.tf"), "a = 1\nb = 2\n");
    // No temporary file was left behind.
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn owner_group_and_mode_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    if current_uid() != 0 {
        eprintln!("note: not root: skipping the owner check");
        return;
    }
    let dir = TempDir::new(&[("o.tf", "a=1\n")]);
    let file = dir.path().join("o.tf");
    std::os::unix::fs::chown(&file, Some(NOBODY), Some(NOBODY)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = run(dir.path(), &["fmt", "-write", "o.tf"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(
        (meta.uid(), meta.gid(), meta.mode() & 0o777),
        (NOBODY, NOBODY, 0o640)
    );
    assert_eq!(dir.read("o.tf"), "a = 1\n");
}

/// 40 `set -u` of different attributes and 40 `fmt -write` at once on one
/// file: every `set` is applied (each on the text the previous writer
/// left), none is lost, and every run either succeeds or says why not.
#[test]
fn concurrent_writers_lose_no_update() {
    let dir = TempDir::new(&[("c.tf", "a = 1\n")]);
    let mut children = Vec::new();
    for i in 0..40 {
        let key = format!("k{i}");
        let value = i.to_string();
        for args in [
            vec!["set", "-u", key.as_str(), value.as_str(), "c.tf"],
            vec!["fmt", "-write", "c.tf"],
        ] {
            children.push(
                Command::new(env!("CARGO_BIN_EXE_hclwright"))
                    .args(&args)
                    .current_dir(dir.path())
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap(),
            );
        }
    }
    for child in children {
        let o = child.wait_with_output().unwrap();
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("c.tf"), "{err}");
        }
    }
    let text = dir.read("c.tf");
    for i in 0..40 {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("k{i} "))),
            "k{i} lost:\n{text}"
        );
    }
    assert!(hclwright::parse(&text).errors().is_empty(), "{text}");
}
