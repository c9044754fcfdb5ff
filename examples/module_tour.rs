//! The library's jobs on one Terraform module folder, as a user's program
//! does them: bump a provider in every file, rename a variable across the
//! module, evaluate every local, add an output with a comment, decode the
//! `variable` blocks into a struct, and report the files that are broken.
//!
//! ```text
//! cargo run --example module_tour -- DIR [--provider SOURCE=VERSION] [--rename OLD=NEW] [--write]
//! cargo run --example module_tour -- ../shared/corpus/terraform-aws-modules+terraform-aws-vpc
//! ```
//!
//! Defaults: `--provider hashicorp/aws=7.0.0`, and the first variable the
//! module declares renamed to `NAME_renamed`. Nothing is written unless
//! `--write` is given: the changes are printed as unified diffs. The
//! evaluation and the decoding read the files as they are on disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hclwright::Document;
use hclwright::bump::{Target, Version, bump_document};
use hclwright::document::Address;
use hclwright::eval::{EvalContext, Module, ModuleInputs, console_string, decode_str};
use hclwright::refs::SourceFile;
use hclwright::refs::terraform::{Options, rename};

/// The part of a `variables.tf` this program reads (the `type`
/// constraints are never evaluated: `Variable` does not ask for them).
#[derive(serde::Deserialize)]
struct VariablesFile {
    #[serde(default)]
    variable: BTreeMap<String, Variable>,
}

#[derive(serde::Deserialize)]
struct Variable {
    description: Option<String>,
    default: Option<serde_json::Value>,
    #[serde(default)]
    sensitive: bool,
}

struct Args {
    dir: PathBuf,
    provider: (String, String),
    rename: Option<(String, String)>,
    write: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut dir = None;
    let mut provider = ("hashicorp/aws".to_string(), "7.0.0".to_string());
    let mut renamed = None;
    let mut write = false;
    let mut args = std::env::args().skip(1);
    let pair = |v: Option<String>, what: &str| -> Result<(String, String), String> {
        let v = v.ok_or(format!("{what} needs a value"))?;
        let (a, b) = v
            .split_once('=')
            .ok_or(format!("{what} takes A=B, not `{v}`"))?;
        Ok((a.to_string(), b.to_string()))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--write" => write = true,
            "--provider" => provider = pair(args.next(), "--provider")?,
            "--rename" => renamed = Some(pair(args.next(), "--rename")?),
            _ if dir.is_none() && !arg.starts_with("--") => dir = Some(PathBuf::from(arg)),
            _ => return Err(format!("unexpected argument `{arg}`")),
        }
    }
    Ok(Args {
        dir: dir.ok_or(
            "usage: module_tour DIR [--provider SOURCE=VERSION] [--rename OLD=NEW] [--write]",
        )?,
        provider,
        rename: renamed,
        write,
    })
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("module_tour: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let files = SourceFile::load_dir(&args.dir)?;
    println!("# {} files in {}", files.len(), args.dir.display());

    // 6. Report the broken files; the edits leave them alone.
    let mut broken = 0;
    let mut valid: Vec<SourceFile> = Vec::new();
    for file in &files {
        let errors = if is_json(&file.path) {
            hclwright::json::parse(&file.text).errors().to_vec()
        } else {
            hclwright::syntax_errors(&file.text)
        };
        if errors.is_empty() {
            valid.push(file.clone());
            continue;
        }
        broken += 1;
        for e in &errors {
            eprint!("{}", e.render(&file.path.display().to_string(), &file.text));
        }
    }
    println!("# broken files: {broken}");

    // The text of each file as the edits go.
    let mut current: BTreeMap<PathBuf, String> = valid
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();

    // 1. Bump a provider in every native file.
    let (source, version) = &args.provider;
    let version = Version::parse(version).ok_or(format!("`{version}` is not a version"))?;
    let target = Target::Provider(source.clone());
    let mut bumped = 0;
    for (path, text) in current.iter_mut().filter(|(p, _)| !is_json(p)) {
        let mut doc = Document::parse(text)?;
        let changes = bump_document(&mut doc, &target, &version, true)?;
        for c in &changes {
            println!(
                "# bump {}:{}: {} -> {}",
                path.display(),
                c.line,
                c.old,
                c.new
            );
        }
        bumped += changes.len();
        *text = doc.to_string();
    }
    println!("# {source}: {bumped} version strings bumped");

    // 2. Rename a variable across the module (both syntaxes).
    let declared = first_variable(&valid);
    let renaming = match (&args.rename, declared) {
        (Some((from, to)), _) => Some((from.clone(), to.clone())),
        (None, Some(name)) => Some((name.clone(), format!("{name}_renamed"))),
        (None, None) => None,
    };
    if let Some((from, to)) = renaming {
        let now: Vec<SourceFile> = current
            .iter()
            .map(|(p, t)| SourceFile::new(p.clone(), t.clone()))
            .collect();
        let address = format!("var.{from}").parse()?;
        match rename(&now, &address, &to, Options::default()) {
            Ok(result) => {
                println!(
                    "# rename var.{from} -> var.{to}: {} declarations, {} references in {} files",
                    result.declarations,
                    result.references,
                    result.changes.len()
                );
                for change in result.changes {
                    current.insert(change.path, change.after);
                }
            }
            Err(e) => println!("# rename var.{from}: refused: {e}"),
        }
    }

    // 4. Add an output with a comment, to outputs.tf (or main.tf).
    let outputs = ["outputs.tf", "main.tf"]
        .iter()
        .map(|n| args.dir.join(n))
        .find(|p| current.contains_key(p));
    if let Some(path) = outputs {
        let mut doc = Document::parse(&current[&path])?;
        if !doc.contains("output.module_tour") {
            doc.append_block(
                Address::root(),
                "output",
                &["module_tour"],
                "description = \"Added by the module_tour example\"\nvalue = path.module",
            )?;
            doc.set_comments_above("output.module_tour", &["# Where this module lives."])?;
            println!("# output.module_tour added to {}", path.display());
        }
        current.insert(path, doc.to_string());
    }

    // The diffs, and the writes when asked.
    let mut changed = 0;
    for file in &valid {
        let after = &current[&file.path];
        if *after == file.text {
            continue;
        }
        changed += 1;
        let shown = file.path.display().to_string();
        if args.write {
            hclwright::write::write_checked(&file.path, file.text.as_bytes(), after.as_bytes())
                .map_err(|e| format!("{shown}: {e}"))?;
            println!("# wrote {shown}");
        } else {
            print!(
                "{}",
                hclwright::diff::git_unified_diff(&file.text, after, &shown)
            );
        }
    }
    println!(
        "# {changed} files {}",
        if args.write {
            "written"
        } else {
            "would change (use --write)"
        }
    );

    // 3. Evaluate every local (of the files on disk).
    let module = Module::load(
        &args.dir,
        &ModuleInputs::from_env(),
        EvalContext::new()
            .with_terraform_functions()
            .with_filesystem_functions(&args.dir),
    );
    let (mut known, mut failed) = (0, 0);
    for (name, value) in module.locals() {
        let problems = module.local_diagnostics(name);
        if problems.is_empty() {
            known += 1;
            let shown = console_string(value);
            let first = shown.lines().next().unwrap_or("");
            let more = if shown.contains('\n') { " …" } else { "" };
            println!("# local.{name} = {first}{more}");
        } else {
            failed += 1;
            println!("# local.{name}: {}", problems[0].diagnostic.message());
        }
    }
    println!("# locals: {known} evaluated, {failed} with problems");

    // 5. Decode the `variable` blocks of every native file into a struct.
    let mut variables = 0;
    let mut undocumented = Vec::new();
    let mut with_default = 0;
    let mut sensitive = 0;
    for file in valid.iter().filter(|f| !is_json(&f.path)) {
        match decode_str::<VariablesFile>(&file.text, &EvalContext::new()) {
            Ok(decoded) => {
                variables += decoded.variable.len();
                for (name, v) in decoded.variable {
                    with_default += usize::from(v.default.is_some());
                    sensitive += usize::from(v.sensitive);
                    if v.description.is_none_or(|d| d.is_empty()) {
                        undocumented.push(name);
                    }
                }
            }
            Err(e) => eprint!("{}", e.render(&file.path.display().to_string(), &file.text)),
        }
    }
    println!(
        "# variables decoded: {variables} ({with_default} with a default, {sensitive} sensitive, {} without a description{})",
        undocumented.len(),
        if undocumented.is_empty() {
            String::new()
        } else {
            format!(": {}", undocumented.join(", "))
        }
    );
    Ok(if broken > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn is_json(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".json")
}

/// The first variable declared in the native files, in file order.
fn first_variable(files: &[SourceFile]) -> Option<String> {
    files.iter().filter(|f| !is_json(&f.path)).find_map(|f| {
        let parse = hclwright::parse(&f.text);
        parse.body()?.blocks().find_map(|b| {
            let header = b.header();
            match (header.type_name(), header.labels().as_slice()) {
                ("variable", [name]) => Some(name.to_string()),
                _ => None,
            }
        })
    })
}
