//! Filesystem functions: `abspath basename dirname file filebase64
//! filebase64sha256 filebase64sha512 fileexists filemd5 filesha1 filesha256
//! filesha512 fileset pathexpand templatefile`, with relative paths taken
//! from the module folder. A context without them
//! ([`EvalContext::with_terraform_functions`] alone) refuses every call with
//! a clear error and never reads a file.

use super::support::{arg_error, p, s};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::types::Type;
use crate::eval::value::Value;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::Digest;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const NAMES: &[&str] = &[
    "file",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "fileexists",
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "fileset",
    "templatefile",
];

/// Registers the file-reading functions as refusals: the context has no
/// filesystem access.
pub(crate) fn register_withheld(ctx: &mut EvalContext) {
    for name in NAMES {
        let name = name.to_string();
        ctx.set_function(
            name.clone(),
            Function::new(vec![], Type::Dynamic, move |_, _| {
                Err(FunctionError::new(format!(
                    "{name} is not available: this evaluation context has no filesystem access"
                )))
            })
            .variadic(
                p("args", Type::Dynamic)
                    .allow_null()
                    .allow_dynamic()
                    .allow_unknown(),
            ),
        );
    }
    register_paths(ctx);
}

fn register_paths(ctx: &mut EvalContext) {
    ctx.set_function(
        "basename",
        Function::new(vec![p("path", Type::String)], Type::String, |args, _| {
            Ok(Value::string(go_base(s(&args[0]))))
        }),
    );
    ctx.set_function(
        "dirname",
        Function::new(vec![p("path", Type::String)], Type::String, |args, _| {
            Ok(Value::string(go_dir(s(&args[0]))))
        }),
    );
    ctx.set_function(
        "pathexpand",
        Function::new(vec![p("path", Type::String)], Type::String, |args, _| {
            Ok(Value::string(expand_home(s(&args[0]))))
        }),
    );
}

/// Adds the filesystem functions, reading relative paths from `base`.
pub(crate) fn register(ctx: &mut EvalContext, base: &Path) {
    register_paths(ctx);
    let base = Arc::new(base.to_path_buf());
    ctx.set_function(
        "abspath",
        Function::new(
            vec![p("path", Type::String)],
            Type::String,
            move |args, _| {
                // Relative to the working directory, as Terraform's is.
                let path = Path::new(s(&args[0]));
                let abs = if path.is_absolute() {
                    path.to_path_buf()
                } else {
                    std::env::current_dir().unwrap_or_default().join(path)
                };
                Ok(Value::string(clean(&abs.to_string_lossy())))
            },
        ),
    );
    let reader = |f: fn(Vec<u8>, &str) -> Result<Value, FunctionError>| {
        let base = base.clone();
        Function::new(
            vec![p("path", Type::String)],
            Type::String,
            move |args, _| {
                let path = s(&args[0]);
                let bytes = read(&base, path)?;
                f(bytes, path)
            },
        )
    };
    ctx.set_function(
        "file",
        reader(|bytes, path| {
            String::from_utf8(bytes).map(Value::string).map_err(|_| {
                FunctionError::new(format!("contents of {path} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead"))
            })
        }),
    );
    ctx.set_function(
        "filebase64",
        reader(|b, _| Ok(Value::string(STANDARD.encode(b)))),
    );
    ctx.set_function(
        "filemd5",
        reader(|b, _| Ok(Value::string(hex(&md5::Md5::digest(b))))),
    );
    ctx.set_function(
        "filesha1",
        reader(|b, _| Ok(Value::string(hex(&sha1::Sha1::digest(b))))),
    );
    ctx.set_function(
        "filesha256",
        reader(|b, _| Ok(Value::string(hex(&sha2::Sha256::digest(b))))),
    );
    ctx.set_function(
        "filesha512",
        reader(|b, _| Ok(Value::string(hex(&sha2::Sha512::digest(b))))),
    );
    ctx.set_function(
        "filebase64sha256",
        reader(|b, _| Ok(Value::string(STANDARD.encode(sha2::Sha256::digest(b))))),
    );
    ctx.set_function(
        "filebase64sha512",
        reader(|b, _| Ok(Value::string(STANDARD.encode(sha2::Sha512::digest(b))))),
    );
    let b = base.clone();
    ctx.set_function(
        "fileexists",
        Function::new(vec![p("path", Type::String)], Type::Bool, move |args, _| {
            let path = resolve(&b, s(&args[0]));
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => Ok(Value::Bool(true)),
                Ok(m) if m.is_dir() => Err(arg_error(
                    0,
                    format!("{} is a directory, not a file", path.display()),
                )),
                Ok(_) => Err(arg_error(
                    0,
                    format!("{} is not a regular file", path.display()),
                )),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Value::Bool(false)),
                Err(_) => Err(FunctionError::new(format!(
                    "failed to stat {}",
                    path.display()
                ))),
            }
        }),
    );
    let b = base.clone();
    ctx.set_function(
        "fileset",
        Function::new(
            vec![p("path", Type::String), p("pattern", Type::String)],
            Type::set(Type::String),
            move |args, _| {
                let dir = resolve(&b, s(&args[0]));
                let glob = globset::GlobBuilder::new(s(&args[1]))
                    .literal_separator(true)
                    .build()
                    .map_err(|e| {
                        FunctionError::new(format!("failed to glob pattern {}: {e}", s(&args[1])))
                    })?
                    .compile_matcher();
                let mut out = Vec::new();
                let mut stack = vec![dir.clone()];
                while let Some(d) = stack.pop() {
                    let Ok(entries) = std::fs::read_dir(&d) else {
                        continue;
                    };
                    for entry in entries.flatten() {
                        let path = entry.path();
                        let Ok(meta) = std::fs::metadata(&path) else {
                            continue;
                        };
                        if meta.is_dir() {
                            stack.push(path);
                        } else if meta.is_file() {
                            let rel = path
                                .strip_prefix(&dir)
                                .unwrap_or(&path)
                                .to_string_lossy()
                                .replace('\\', "/");
                            if glob.is_match(&rel) {
                                out.push(Value::string(rel));
                            }
                        }
                    }
                }
                Ok(Value::set(Type::String, out))
            },
        ),
    );
    let b = base.clone();
    ctx.set_function(
        "templatefile",
        Function::new(
            vec![p("path", Type::String), p("vars", Type::Dynamic)],
            Type::Dynamic,
            move |args, _| {
                let path = s(&args[0]);
                let text = String::from_utf8(read(&b, path)?)
                    .map_err(|_| arg_error(0, format!("contents of {path} are not valid UTF-8")))?;
                render_template(&text, path, &args[1], &b)
            },
        ),
    );
}

/// Renders a template file's text with `vars` as its only variables.
fn render_template(
    text: &str,
    path: &str,
    vars: &Value,
    base: &Path,
) -> Result<Value, FunctionError> {
    let entries = match vars {
        Value::Object(m) | Value::Map(_, m) => m.clone(),
        _ => return Err(arg_error(1, "invalid vars value: must be a map")),
    };
    let parse = crate::parse_template(text);
    if let Some(e) = parse.errors().first() {
        let (line, col) = crate::line_col(text, e.range.start());
        return Err(arg_error(
            0,
            format!(
                "failed to parse template: {path}:{line},{col}: {}",
                e.message
            ),
        ));
    }
    let mut ctx = EvalContext::new().with_terraform_functions();
    register(&mut ctx, base);
    ctx.set_function(
        "templatefile",
        Function::new(vec![], Type::Dynamic, |_, _| {
            Err(FunctionError::new(
                "cannot recursively call templatefile from inside another template function",
            ))
        })
        .variadic(p("args", Type::Dynamic).allow_null().allow_dynamic()),
    );
    for (k, v) in entries {
        if !crate::refs::is_identifier(&k) {
            return Err(arg_error(
                1,
                format!(
                    "invalid template variable name {}: must start with a letter, followed by zero or more letters, digits, and underscores",
                    crate::eval::go_quote(&k)
                ),
            ));
        }
        ctx.set_variable(&*k, v);
    }
    let parts: Vec<crate::ast::TemplatePart> =
        <crate::ast::TemplateRoot as crate::ast::AstNode>::cast(parse.syntax())
            .map(|t| t.parts().collect())
            .unwrap_or_default();
    let mut ev = crate::eval::expr::Evaluator::new(&ctx);
    let value = crate::eval::template::evaluate_parts(&mut ev, parts, true, false);
    if let Some(d) = ev.diagnostics.first() {
        let (line, col) = d.line_col(text);
        return Err(FunctionError::new(format!(
            "{path}:{line},{col}: {}",
            d.message()
        )));
    }
    Ok(value)
}

fn resolve(base: &Path, path: &str) -> PathBuf {
    let expanded = expand_home(path);
    let p = Path::new(&expanded);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    }
}

fn read(base: &Path, path: &str) -> Result<Vec<u8>, FunctionError> {
    let full = resolve(base, path);
    std::fs::read(&full).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            FunctionError::new(format!("no file exists at {path}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource"))
        } else {
            FunctionError::new(format!("failed to read file: {e}"))
        }
    })
}

fn expand_home(path: &str) -> String {
    if (path == "~" || path.starts_with("~/"))
        && let Some(home) = std::env::var_os("HOME")
    {
        return format!("{}{}", home.to_string_lossy(), &path[1..]);
    }
    path.to_string()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Go's `filepath.Clean`.
fn clean(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

/// Go's `filepath.Base`.
fn go_base(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".into();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

/// Go's `filepath.Dir`.
fn go_dir(path: &str) -> String {
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "",
    };
    clean(dir)
}
