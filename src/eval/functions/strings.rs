//! String functions: `chomp endswith indent join lower regex regexall
//! replace split startswith strcontains strrev substr title trim trimprefix
//! trimspace trimsuffix upper`. Lengths and positions count grapheme
//! clusters; regular expressions are RE2 syntax.

use super::support::{Result, arg_error, int, p, s, string_fn};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;
use unicode_segmentation::UnicodeSegmentation;

/// Adds the string functions to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function("upper", string_fn(|x| go_map_case(x, true)));
    ctx.set_function("lower", string_fn(|x| go_map_case(x, false)));
    ctx.set_function("title", string_fn(title));
    ctx.set_function(
        "chomp",
        string_fn(|x| x.trim_end_matches(['\r', '\n']).to_string()),
    );
    ctx.set_function("trimspace", string_fn(|x| x.trim().to_string()));
    ctx.set_function("strrev", string_fn(|x| x.graphemes(true).rev().collect()));
    ctx.set_function(
        "trim",
        two_strings("cutset", |a, b| {
            a.trim_matches(|c| b.contains(c)).to_string()
        }),
    );
    ctx.set_function(
        "trimprefix",
        two_strings("prefix", |a, b| a.strip_prefix(b).unwrap_or(a).to_string()),
    );
    ctx.set_function(
        "trimsuffix",
        two_strings("suffix", |a, b| a.strip_suffix(b).unwrap_or(a).to_string()),
    );
    ctx.set_function("startswith", string_test("prefix", |a, b| a.starts_with(b)));
    ctx.set_function("endswith", string_test("suffix", |a, b| a.ends_with(b)));
    ctx.set_function("strcontains", string_test("substr", |a, b| a.contains(b)));
    ctx.set_function(
        "split",
        Function::new(
            vec![p("separator", Type::String), p("str", Type::String)],
            Type::list(Type::String),
            |args, _| {
                let (sep, text) = (s(&args[0]), s(&args[1]));
                let parts: Vec<Value> = if sep.is_empty() {
                    text.chars().map(|c| Value::string(c.to_string())).collect()
                } else {
                    text.split(sep).map(Value::string).collect()
                };
                Ok(Value::List(Type::String, parts.into()))
            },
        ),
    );
    ctx.set_function(
        "join",
        Function::new(vec![p("separator", Type::String)], Type::String, |args, _| {
            let sep = s(&args[0]);
            let lists = &args[1..];
            if lists.is_empty() {
                return Err(FunctionError::new("at least one list is required"));
            }
            let mut parts = Vec::new();
            for (li, list) in lists.iter().enumerate() {
                for (ei, v) in list.elements().unwrap_or_default().iter().enumerate() {
                    match v {
                        Value::Null(_) if lists.len() > 1 => {
                            return Err(arg_error(
                                li + 1,
                                format!("element {ei} of list {} is null; cannot concatenate null values", li + 1),
                            ));
                        }
                        Value::Null(_) => {
                            return Err(arg_error(
                                li + 1,
                                format!("element {ei} is null; cannot concatenate null values"),
                            ));
                        }
                        other => parts.push(other.as_str().unwrap_or_default().to_string()),
                    }
                }
            }
            Ok(Value::string(parts.join(sep)))
        })
        .variadic(p("lists", Type::list(Type::String))),
    );
    ctx.set_function(
        "indent",
        Function::new(
            vec![p("spaces", Type::Number), p("str", Type::String)],
            Type::String,
            |args, _| {
                let spaces = int(&args[0], 0, "spaces")?.max(0) as u64;
                let text = s(&args[1]);
                let lines = text.matches('\n').count() as u64;
                let limit = super::limits::MAX_GENERATED_LEN;
                let size = spaces
                    .saturating_mul(lines)
                    .saturating_add(text.len() as u64);
                if size > limit as u64 {
                    return Err(FunctionError::argument(
                        0,
                        format!(
                            "the result would be {size} bytes long, more than the limit of {limit}"
                        ),
                    ));
                }
                let pad = " ".repeat(if lines == 0 { 0 } else { spaces as usize });
                Ok(Value::string(text.replace('\n', &format!("\n{pad}"))))
            },
        ),
    );
    ctx.set_function(
        "substr",
        Function::new(
            vec![
                p("str", Type::String),
                p("offset", Type::Number),
                p("length", Type::Number),
            ],
            Type::String,
            |args, _| {
                let text = s(&args[0]);
                let offset = int(&args[1], 1, "offset")?;
                let length = int(&args[2], 2, "length")?;
                Ok(Value::string(substr(text, offset, length)))
            },
        ),
    );
    ctx.set_function(
        "replace",
        Function::new(
            vec![
                p("str", Type::String),
                p("substr", Type::String),
                p("replace", Type::String),
            ],
            Type::String,
            |args, _| {
                let (text, find, with) = (s(&args[0]), s(&args[1]), s(&args[2]));
                if find.len() > 1 && find.starts_with('/') && find.ends_with('/') {
                    let re = compile(&find[1..find.len() - 1], 1)?;
                    return Ok(Value::string(re.replace_all(text, go_template(with))));
                }
                Ok(Value::string(text.replace(find, with)))
            },
        ),
    );
    ctx.set_function(
        "regex",
        Function::with_return_type(
            vec![p("pattern", Type::String), p("string", Type::String)],
            |args| regex_type(s(&args[0])),
            |args, _| {
                let re = compile(s(&args[0]), 0)?;
                match re.captures(s(&args[1])) {
                    Some(c) => Ok(captures_value(&re, &c)),
                    None => Err(FunctionError::new(
                        "pattern did not match any part of the given string",
                    )),
                }
            },
        ),
    );
    ctx.set_function(
        "regexall",
        Function::with_return_type(
            vec![p("pattern", Type::String), p("string", Type::String)],
            |args| Ok(Type::list(regex_type(s(&args[0]))?)),
            |args, ret| {
                let re = compile(s(&args[0]), 0)?;
                let all: Vec<Value> = re
                    .captures_iter(s(&args[1]))
                    .map(|c| captures_value(&re, &c))
                    .collect();
                let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
                Ok(Value::List(ety, all.into()))
            },
        ),
    );
}

/// A function of `str` and a second string parameter named `second`.
fn two_strings(second: &'static str, f: fn(&str, &str) -> String) -> Function {
    Function::new(
        vec![p("str", Type::String), p(second, Type::String)],
        Type::String,
        move |args, _| Ok(Value::string(f(s(&args[0]), s(&args[1])))),
    )
}

fn string_test(second: &'static str, f: fn(&str, &str) -> bool) -> Function {
    Function::new(
        vec![p("str", Type::String), p(second, Type::String)],
        Type::Bool,
        move |args, _| Ok(Value::Bool(f(s(&args[0]), s(&args[1])))),
    )
}

/// Case mapping character by character, as Go's `strings.ToUpper`: a
/// character whose mapping is several characters stays as it is.
fn go_map_case(text: &str, upper: bool) -> String {
    text.chars()
        .map(|c| {
            let mut mapped: Vec<char> = if upper {
                c.to_uppercase().collect()
            } else {
                c.to_lowercase().collect()
            };
            if mapped.len() == 1 {
                mapped.remove(0)
            } else if upper {
                simple_upper_of_expanding(c).unwrap_or(c)
            } else {
                c
            }
        })
        .collect()
}

/// The simple uppercase mapping (UnicodeData.txt, which Go uses) of the
/// characters whose full mapping (Rust's) is several characters and whose
/// simple one is another character: the Greek letters with ypogegrammeni
/// (`ᾀ` → `ᾈ`, `ᾳ` → `ᾼ`). The others (`ß`, `ﬀ`, `ᾈ`) map to themselves.
fn simple_upper_of_expanding(c: char) -> Option<char> {
    let to = match c as u32 {
        u @ (0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7) => u + 8,
        0x1FB3 => 0x1FBC,
        0x1FC3 => 0x1FCC,
        0x1FF3 => 0x1FFC,
        _ => return None,
    };
    char::from_u32(to)
}

/// Go's `unicode.ToTitle`: the uppercase mapping, except where Unicode's
/// titlecase differs: the digraphs take their titlecase form (`ǆ`, `Ǆ`
/// → `ǅ`), and Georgian Mkhedruli letters stay as they are (their
/// uppercase is Mtavruli, their titlecase themselves).
fn go_title_char(c: char) -> char {
    let to = match c as u32 {
        0x01C4..=0x01C6 => 0x01C5,
        0x01C7..=0x01C9 => 0x01C8,
        0x01CA..=0x01CC => 0x01CB,
        0x01F1..=0x01F3 => 0x01F2,
        0x10D0..=0x10FA | 0x10FD..=0x10FF => return c,
        _ => {
            return go_map_case(c.encode_utf8(&mut [0; 4]), true)
                .chars()
                .next()
                .unwrap_or(c);
        }
    };
    char::from_u32(to).unwrap_or(c)
}

/// Go's `strings.Title`: the first letter of each word in title case.
fn title(text: &str) -> String {
    let is_separator = |c: char| {
        if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else {
            c.is_whitespace()
        }
    };
    let mut prev = ' ';
    text.chars()
        .map(|c| {
            let out = if is_separator(prev) {
                go_title_char(c)
            } else {
                c
            };
            prev = c;
            out
        })
        .collect()
}

/// `substr`: offset and length in grapheme clusters, a negative offset
/// counting from the end, a negative length meaning "to the end".
fn substr(text: &str, offset: i64, length: i64) -> String {
    let graphemes: Vec<&str> = text.graphemes(true).collect();
    let total = graphemes.len() as i64;
    let mut offset = offset;
    if offset < 0 {
        offset += total;
    } else if length == 0 {
        return String::new();
    }
    let start = offset.clamp(0, total) as usize;
    if offset > total {
        return String::new();
    }
    let rest = &graphemes[start..];
    if length < 0 {
        return rest.concat();
    }
    let take = (length as usize).max(1).min(rest.len());
    rest[..take].concat()
}

fn compile(pattern: &str, arg: usize) -> Result<regex::Regex> {
    regex::Regex::new(pattern).map_err(|e| {
        arg_error(
            arg,
            format!(
                "invalid regular expression pattern: {}",
                first_line(&e.to_string())
            ),
        )
    })
}

fn first_line(s: &str) -> String {
    s.lines().last().unwrap_or(s).trim().to_string()
}

/// The result type of `regex` for a pattern: a string without capture
/// groups, a list of strings for numbered groups, an object for named ones.
///
/// Read from the pattern's syntax, without compiling it (the call compiles
/// it to match, and compiling is most of a `regex` call's time): an
/// invalid pattern gets the message compiling it gives. Only a pattern
/// too large to compile (the `regex` crate's 10 MB limit) passes here and
/// fails in the call.
fn regex_type(pattern: &str) -> Result<Type> {
    let names = match capture_names(pattern) {
        Some(names) => names,
        None => {
            let re = compile(pattern, 0)?;
            re.capture_names()
                .skip(1)
                .map(|n| n.map(Box::from))
                .collect()
        }
    };
    if names.is_empty() {
        return Ok(Type::String);
    }
    let named: Vec<&str> = names.iter().flatten().map(|n| &**n).collect();
    if named.is_empty() {
        return Ok(Type::Tuple(vec![Type::String; names.len()]));
    }
    if named.len() != names.len() {
        return Err(arg_error(
            0,
            "invalid regular expression pattern: can't mix both named and unnamed capture groups",
        ));
    }
    Ok(Type::Object(
        named
            .iter()
            .map(|n| (n.to_string(), Type::String))
            .collect(),
    ))
}

/// The names of a valid pattern's capture groups in the order of their
/// numbers (`None` for an unnamed group), from its syntax alone; `None`
/// when the pattern does not parse (compiling it then gives the message).
///
/// The groups are read from the syntax tree as written: the translation
/// that checks the rest of the pattern drops a group that can match
/// nothing (`(a){0}`), which still has its number.
fn capture_names(pattern: &str) -> Option<Vec<Option<Box<str>>>> {
    use regex_syntax::ast::{Ast, GroupKind};
    fn walk(ast: &Ast, out: &mut Vec<(u32, Option<Box<str>>)>) {
        match ast {
            Ast::Group(g) => {
                match &g.kind {
                    GroupKind::CaptureIndex(index) => out.push((*index, None)),
                    GroupKind::CaptureName { name, .. } => {
                        out.push((name.index, Some(name.name.as_str().into())));
                    }
                    GroupKind::NonCapturing(_) => {}
                }
                walk(&g.ast, out);
            }
            Ast::Concat(c) => c.asts.iter().for_each(|a| walk(a, out)),
            Ast::Alternation(a) => a.asts.iter().for_each(|a| walk(a, out)),
            Ast::Repetition(r) => walk(&r.ast, out),
            _ => {}
        }
    }
    // The `regex` crate's defaults (Unicode on, a nesting limit of 250,
    // which also bounds this walk's recursion): the same checks, so the
    // same patterns fail.
    let ast = regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .ok()?;
    regex_syntax::hir::translate::Translator::new()
        .translate(pattern, &ast)
        .ok()?;
    let mut groups = Vec::new();
    walk(&ast, &mut groups);
    groups.sort_by_key(|&(index, _)| index);
    Some(groups.into_iter().map(|(_, name)| name).collect())
}

fn captures_value(re: &regex::Regex, c: &regex::Captures<'_>) -> Value {
    let names: Vec<Option<&str>> = re.capture_names().skip(1).collect();
    if names.is_empty() {
        return Value::string(c.get(0).map_or("", |m| m.as_str()));
    }
    if names.iter().all(Option::is_some) {
        let mut out = BTreeMap::new();
        for name in names.iter().flatten() {
            let v = c
                .name(name)
                .map_or(Value::Null(Type::String), |m| Value::string(m.as_str()));
            out.insert((*name).into(), v);
        }
        return Value::Object(out.into());
    }
    let items = (1..c.len())
        .map(|i| {
            c.get(i)
                .map_or(Value::Null(Type::String), |m| Value::string(m.as_str()))
        })
        .collect();
    Value::Tuple(items)
}

/// Go's replacement template syntax (`$1`, `${name}`) for the `regex`
/// crate, which reads `$1a` as a group named `1a` where Go reads group 1.
fn go_template(with: &str) -> String {
    let mut out = String::new();
    let mut chars = with.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('$') => {
                chars.next();
                out.push_str("$$");
            }
            Some('{') => out.push('$'),
            Some(d) if d.is_ascii_alphanumeric() || *d == '_' => {
                let mut name = String::new();
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_alphanumeric() || d == '_' {
                        name.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push_str(&format!("${{{name}}}"));
            }
            _ => out.push_str("$$"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result type read from the syntax is the one compiling the
    /// pattern gives, and so is the message of an invalid pattern.
    #[test]
    fn regex_types_without_compiling() {
        let by_compiling = |pattern: &str| -> Result<Type> {
            let re = compile(pattern, 0)?;
            let names: Vec<Option<Box<str>>> = re
                .capture_names()
                .skip(1)
                .map(|n| n.map(Box::from))
                .collect();
            let named: Vec<&str> = names.iter().flatten().map(|n| &**n).collect();
            Ok(if names.is_empty() {
                Type::String
            } else if named.is_empty() {
                Type::Tuple(vec![Type::String; names.len()])
            } else if named.len() != names.len() {
                return Err(arg_error(
                    0,
                    "invalid regular expression pattern: can't mix both named and unnamed capture groups",
                ));
            } else {
                Type::Object(
                    named
                        .iter()
                        .map(|n| (n.to_string(), Type::String))
                        .collect(),
                )
            })
        };
        let patterns = [
            "",
            "abc",
            "^(roles/[a-zA-Z0-9_.]+|projects/[a-zA-Z0-9-]+/roles/[a-zA-Z0-9_.]+)$",
            "(a)(b)?(c)*",
            "(?P<x>a)(?P<y>b)",
            "(?P<x>a)(b)",
            "(a){0}(b)",
            "(?:a)(b)",
            "((a)|(b))+",
            "(?<name>x)|(?<other>(?<inner>y))",
            "\\p{Greek}+(\\d)",
            "(?i)(A)",
            "(?P<x>a)(?P<x>b)",
            "(",
            "[z-a]",
            "\\p{NotAClass}",
            "a{2,1}",
            "(?P<1x>a)",
            "x**",
            "\\8",
            "(((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))",
            "(?x) ( a ) # comment",
            "[[:alpha:]](x)",
            "\\x{110000}",
            "(?-u:\\xFF)",
            "(?-u)(\\w)",
        ];
        for p in patterns {
            let read = regex_type(p);
            let compiled = by_compiling(p);
            assert_eq!(read, compiled, "{p:?}");
        }
        let deep = format!("{}a{}", "(".repeat(300), ")".repeat(300));
        assert_eq!(regex_type(&deep), by_compiling(&deep));
        // The one difference: a pattern too large to compile passes the
        // syntax, and the call's compiling reports it.
        let huge = "a{1000}{1000}{1000}";
        assert_eq!(regex_type(huge), Ok(Type::String));
        assert!(compile(huge, 0).unwrap_err().message.contains("size limit"));
        // The walk itself finds the groups for the valid patterns.
        assert_eq!(capture_names("(?P<x>a)(b)").map(|n| n.len()), Some(2));
        assert_eq!(capture_names("(a){0}(b)").map(|n| n.len()), Some(2));
    }
}
