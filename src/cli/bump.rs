//! `hclwright bump`: version bumps across files, as `tfupdate` names them,
//! done as local edits of the version strings only.

use hclwright::Document;
use hclwright::bump::{
    Constraints, NewVersion, NewVersionError, Target, Version, bump_document_to, bump_json_to,
};

use super::exit::{EXIT_CHANGES, EXIT_ERRORS, EXIT_OK};
use super::files::expand_with_json;
use super::input::{Input, is_json_file_name, read_error_message, read_input};
use super::json;
use super::write::write_checked;

/// Arguments of `bump`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  hclwright bump terraform 1.11.4 -r .
  hclwright bump provider hashicorp/aws 5.31.0 --keep-operator -r .
  hclwright bump module terraform-aws-modules/vpc/aws 5.5.1 main.tf
  hclwright bump plugin github.com/hashicorp/amazon 1.3.0 --check -r .

Files are rewritten in place (atomically) unless --diff, --check or --json
is given. A file with syntax errors is reported and left alone; the others
are still processed. Exit status: 0 done (or nothing due), 2 on syntax or
I/O errors, 3 with --check when a file would change, 1 on bad usage.")]
pub struct BumpArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand, Debug)]
enum What {
    /// `required_version` in every `terraform` block.
    Terraform {
        /// The new version.
        version: String,
        #[command(flatten)]
        common: Common,
    },
    /// A provider's `version`: NAME is its local name (`aws`) or its
    /// source (`hashicorp/aws`).
    Provider {
        /// Local name or source.
        name: String,
        /// The new version.
        version: String,
        #[command(flatten)]
        common: Common,
    },
    /// The `version` of the module blocks whose `source` is SOURCE (a
    /// registry address), or the `ref` of a git source given without its
    /// query; Terragrunt's `tfr:///SOURCE?version=`.
    Module {
        /// The module's source.
        source: String,
        /// The new version.
        version: String,
        #[command(flatten)]
        common: Common,
    },
    /// A Packer plugin's `version` in `required_plugins`.
    Plugin {
        /// Local name or source.
        name: String,
        /// The new version.
        version: String,
        #[command(flatten)]
        common: Common,
    },
}

/// Options of every `bump` command.
#[derive(clap::Args, Debug)]
struct Common {
    /// Files or directories (`.tf`, `.tfvars`, `.hcl`, `.nomad` and their
    /// JSON syntax, `.tf.json`…; a named `.json` file is read as JSON;
    /// hidden folders such as `.terraform` and `.terragrunt-cache`
    /// skipped).
    /// Defaults to `.`.
    paths: Vec<String>,
    /// Walk subdirectories.
    #[arg(short, long)]
    recursive: bool,
    /// Skip the files whose path matches: a glob (`modules/legacy/**`,
    /// `*.tftest.hcl`, `env-*`) matched against the path and each run of its
    /// folder names, or else plain text the path contains; may be repeated.
    #[arg(long, value_name = "PATH")]
    ignore_path: Vec<String>,
    /// Keep each constraint's operator and number of segments (`~> 4.0`
    /// bumped to 5.31.0 is `~> 5.31`); without it, the new version alone.
    #[arg(long)]
    keep_operator: bool,
    /// Print a unified diff and write nothing.
    #[arg(long)]
    diff: bool,
    /// Write nothing; list the files that would change and exit 3 if any.
    #[arg(long)]
    check: bool,
    /// Write nothing; print one JSON object per change (file, line, old,
    /// new), one per line.
    #[arg(long)]
    json: bool,
}

/// Runs `bump`.
pub fn run(args: BumpArgs) -> i32 {
    let (target, version, common) = match args.what {
        What::Terraform { version, common } => (Target::Terraform, version, common),
        What::Provider {
            name,
            version,
            common,
        } => (Target::Provider(name), version, common),
        What::Module {
            source,
            version,
            common,
        } => (Target::Module(source), version, common),
        What::Plugin {
            name,
            version,
            common,
        } => (Target::Plugin(name), version, common),
    };
    // A version (5.31.0), or, as tfupdate's -v, a constraint written as it
    // is (`~> 5.0`).
    let version = match NewVersion::parse(&version, common.keep_operator) {
        Ok(new) => new,
        Err(NewVersionError::KeepOperatorNeedsVersion(c)) => {
            eprintln!(
                "error: --keep-operator needs a version (such as 5.31.0), not the constraint `{c}`"
            );
            return EXIT_ERRORS;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_ERRORS;
        }
    };
    let paths = if common.paths.is_empty() {
        vec![".".to_string()]
    } else {
        common.paths.clone()
    };
    let (inputs, walk_errors) = expand_with_json(&paths, common.recursive);
    let mut failed = !walk_errors.is_empty();
    for e in walk_errors {
        eprintln!("{e}");
    }
    let ignore = match IgnoreRules::new(&common.ignore_path) {
        Ok(rules) => rules,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_ERRORS;
        }
    };
    let mut due = false;
    for input in &inputs {
        let name = input.display_name();
        if ignore.matches(&name) {
            continue;
        }
        match bump_input(input, &target, &version, &common) {
            Ok(changed) => due |= changed,
            Err(message) => {
                eprintln!("{message}");
                failed = true;
            }
        }
    }
    if failed {
        EXIT_ERRORS
    } else if common.check && due {
        EXIT_CHANGES
    } else {
        EXIT_OK
    }
}

/// Bumps one input; true when it changes (or would).
fn bump_input(
    input: &Input,
    target: &Target,
    version: &NewVersion,
    common: &Common,
) -> Result<bool, String> {
    let name = input.display_name();
    let decoded = read_input(input).map_err(|e| read_error_message(input, &e))?;
    let text = decoded.text.into_owned();
    let stand_ins = decoded.stand_ins;
    let not_bumped = |rendered: String| {
        format!(
            "{}{name}: not bumped because of syntax errors",
            stand_ins.shown(&rendered)
        )
    };
    let (new_text, changes) = if is_json_file_name(&name) {
        bump_json_to(&text, target, version)
            .map_err(|errors| not_bumped(errors.iter().map(|e| e.render(&name, &text)).collect()))?
    } else {
        let mut doc = Document::parse(&text).map_err(|e| not_bumped(e.render(&name, &text)))?;
        let changes =
            bump_document_to(&mut doc, target, version).map_err(|e| format!("{name}: {e}"))?;
        (doc.text(), changes)
    };
    if changes.is_empty() {
        return Ok(false);
    }
    if let Target::Provider(provider) = target {
        warn_about_lock(input, provider, &changes);
    }
    if common.json {
        for change in &changes {
            println!(
                "{{\"file\": {}, \"line\": {}, \"old\": {}, \"new\": {}}}",
                json::string(&name),
                change.line,
                json::string(&change.old),
                json::string(&change.new)
            );
        }
    } else if common.check {
        println!("{name}");
    } else if common.diff {
        let diff = hclwright::diff::git_unified_diff(&text, &new_text, &name);
        print!("{}", String::from_utf8_lossy(&stand_ins.encode(&diff)));
    } else {
        let Input::File(path) = input else {
            print!("{}", String::from_utf8_lossy(&stand_ins.encode(&new_text)));
            return Ok(true);
        };
        write_checked(path, &stand_ins.encode(&text), &stand_ins.encode(&new_text))
            .map_err(|e| format!("{name}: cannot write: {e}"))?;
        println!("{name}");
    }
    Ok(true)
}

/// Warns when `.terraform.lock.hcl` beside the file pins the provider at a
/// version the new constraint refuses (`terraform init -upgrade` then
/// updates it; its hashes need the network).
fn warn_about_lock(input: &Input, provider: &str, changes: &[hclwright::bump::Change]) {
    let Input::File(path) = input else { return };
    let lock = path
        .parent()
        .map(|d| d.join(".terraform.lock.hcl"))
        .unwrap_or_else(|| ".terraform.lock.hcl".into());
    let Ok(text) = std::fs::read_to_string(&lock) else {
        return;
    };
    let Ok(doc) = Document::parse(&text) else {
        return;
    };
    let Some(constraint) = changes.first().map(|c| c.new.clone()) else {
        return;
    };
    let Some(constraints) = Constraints::parse(&constraint) else {
        return;
    };
    for block in doc.blocks() {
        if block.type_name().as_deref() != Some("provider") {
            continue;
        }
        let Some(address) = block.labels().next().map(|l| l.value()) else {
            continue;
        };
        let short = address.rsplit('/').next().unwrap_or(&address);
        let matches = if provider.contains('/') {
            address.ends_with(&format!("/{provider}")) || address == provider
        } else {
            short == provider
        };
        let locked = block
            .body()
            .and_then(|b| b.attribute("version"))
            .and_then(|a| a.expr())
            .map(|e| e.to_string().trim_matches('"').to_string())
            .and_then(|v| Version::parse(&v));
        if let Some(locked) = locked
            && matches
            && !constraints.allows(&locked)
        {
            eprintln!(
                "warning: {} pins {address} at {locked}, outside `{constraint}`: run `terraform init -upgrade`",
                lock.display()
            );
        }
    }
}

/// The `--ignore-path` patterns.
struct IgnoreRules {
    globs: Vec<globset::GlobMatcher>,
    texts: Vec<String>,
}

impl IgnoreRules {
    fn new(patterns: &[String]) -> Result<IgnoreRules, String> {
        let mut rules = IgnoreRules {
            globs: Vec::new(),
            texts: Vec::new(),
        };
        for p in patterns {
            if p.contains(['*', '?', '[', '{']) {
                let glob = globset::GlobBuilder::new(p)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("--ignore-path {p:?}: {e}"))?;
                rules.globs.push(glob.compile_matcher());
            } else {
                rules.texts.push(p.clone());
            }
        }
        Ok(rules)
    }

    /// Whether `path` (as shown, `./` dropped) or any run of its
    /// components matches.
    fn matches(&self, path: &str) -> bool {
        let path = path.strip_prefix("./").unwrap_or(path);
        if self.texts.iter().any(|t| path.contains(t.as_str())) {
            return true;
        }
        if self.globs.is_empty() {
            return false;
        }
        let parts: Vec<&str> = path.split('/').collect();
        for i in 0..parts.len() {
            for j in i + 1..=parts.len() {
                let candidate = parts[i..j].join("/");
                if self.globs.iter().any(|g| g.is_match(&candidate)) {
                    return true;
                }
            }
        }
        false
    }
}
