//! `format` and `formatlist`: Go's verbs as cty applies them (`%s %d %f %e
//! %g %x %X %o %b %q %v %#v %t`, flags `+ - # 0` and space, widths and
//! precisions, explicit argument indexes `%[2]s`, `%%`).

use super::support::{Result, p, s};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::convert::convert;
use crate::eval::display::{json_string, to_json};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;
use unicode_segmentation::UnicodeSegmentation;

/// Adds `format` and `formatlist` to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function(
        "format",
        Function::new(vec![p("format", Type::String)], Type::String, |args, _| {
            Ok(Value::string(format(s(&args[0]), &args[1..])?))
        })
        .variadic(p("args", Type::Dynamic).allow_null()),
    );
    ctx.set_function(
        "formatlist",
        Function::new(vec![p("format", Type::String)], Type::list(Type::String), |args, _| {
            let rest = &args[1..];
            let mut len: Option<(usize, usize)> = None;
            for (i, a) in rest.iter().enumerate() {
                if let Some(items) = a.elements().filter(|_| !matches!(a, Value::Null(_))) {
                    match len {
                        None => len = Some((items.len(), i)),
                        Some((l, first)) if l != items.len() => {
                            return Err(FunctionError::argument(
                                i + 1,
                                format!("argument {} has length {}, which is inconsistent with argument {} of length {l}", i + 1, items.len(), first + 1),
                            ));
                        }
                        _ => {}
                    }
                }
            }
            let Some((n, _)) = len else {
                return Ok(Value::List(Type::String, vec![Value::string(format(s(&args[0]), rest)?)].into()));
            };
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                let row: Vec<Value> = rest
                    .iter()
                    .map(|a| match a.elements() {
                        Some(items) => items[i].clone(),
                        None => a.clone(),
                    })
                    .collect();
                out.push(Value::string(format(s(&args[0]), &row).map_err(|e| FunctionError::new(format!("error on format iteration {i}: {}", e.message)))?));
            }
            Ok(Value::List(Type::String, out.into()))
        })
        .variadic(p("args", Type::Dynamic).allow_null()),
    );
}

#[derive(Default)]
struct Verb {
    raw: String,
    offset: usize,
    plus: bool,
    minus: bool,
    sharp: bool,
    zero: bool,
    space: bool,
    width: Option<usize>,
    prec: Option<usize>,
    arg: usize,
    mode: char,
}

/// Formats `spec` with `args`, as cty's `format`.
pub fn format(spec: &str, args: &[Value]) -> Result<String> {
    let mut out = String::new();
    let chars: Vec<(usize, char)> = spec.char_indices().collect();
    let mut i = 0;
    let mut next_arg = 1usize;
    while i < chars.len() {
        let (offset, c) = chars[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        if chars.get(i + 1).map(|x| x.1) == Some('%') {
            out.push('%');
            i += 2;
            continue;
        }
        let mut v = Verb {
            offset,
            ..Verb::default()
        };
        let start = i;
        i += 1;
        while let Some(&(_, f)) = chars.get(i) {
            match f {
                '+' => v.plus = true,
                '-' => v.minus = true,
                '#' => v.sharp = true,
                '0' => v.zero = true,
                ' ' => v.space = true,
                _ => break,
            }
            i += 1;
        }
        let mut explicit = None;
        let read_index = |i: &mut usize| -> Option<usize> {
            if chars.get(*i).map(|x| x.1) != Some('[') {
                return None;
            }
            let mut j = *i + 1;
            let mut n = 0usize;
            while let Some(&(_, d)) = chars.get(j) {
                if d.is_ascii_digit() {
                    n = n * 10 + d.to_digit(10).unwrap_or(0) as usize;
                    j += 1;
                } else {
                    break;
                }
            }
            if chars.get(j).map(|x| x.1) == Some(']') {
                *i = j + 1;
                Some(n)
            } else {
                None
            }
        };
        if let Some(n) = read_index(&mut i) {
            explicit = Some(n);
        }
        let mut width = String::new();
        while let Some(&(_, d)) = chars.get(i).filter(|x| x.1.is_ascii_digit()) {
            width.push(d);
            i += 1;
        }
        if !width.is_empty() {
            v.width = Some(checked_width(&width, "width", offset)?);
        }
        if chars.get(i).map(|x| x.1) == Some('.') {
            i += 1;
            let mut prec = String::new();
            while let Some(&(_, d)) = chars.get(i).filter(|x| x.1.is_ascii_digit()) {
                prec.push(d);
                i += 1;
            }
            v.prec = Some(if prec.is_empty() {
                0
            } else {
                checked_width(&prec, "precision", offset)?
            });
        }
        if let Some(n) = read_index(&mut i) {
            explicit = Some(n);
        }
        let Some(&(_, mode)) = chars.get(i) else {
            return Err(FunctionError::argument(
                0,
                format!("invalid format string starting at offset {offset}"),
            ));
        };
        i += 1;
        v.mode = mode;
        v.raw = chars[start..i].iter().map(|x| x.1).collect();
        v.arg = match explicit {
            Some(n) => n,
            None => next_arg,
        };
        next_arg = v.arg + 1;
        append(&v, &mut out, args)?;
    }
    if next_arg <= args.len() && !spec.contains("%[") {
        return Err(FunctionError::new(format!(
            "too many arguments; only {} used by format string",
            next_arg - 1
        )));
    }
    Ok(out)
}

/// A verb's width or precision, refused past
/// [`MAX_FORMAT_WIDTH`](super::limits::MAX_FORMAT_WIDTH).
fn checked_width(digits: &str, what: &str, offset: usize) -> Result<usize> {
    let limit = super::limits::MAX_FORMAT_WIDTH;
    match digits.parse::<usize>() {
        Ok(n) if n <= limit => Ok(n),
        _ => Err(FunctionError::argument(
            0,
            format!("the {what} {digits} at offset {offset} is more than the limit of {limit}"),
        )),
    }
}

fn fail(v: &Verb, why: impl std::fmt::Display) -> FunctionError {
    FunctionError::new(format!(
        "unsupported value for {} at {}: {why}",
        crate::eval::go_quote(&v.raw),
        v.offset
    ))
}

fn append(v: &Verb, out: &mut String, args: &[Value]) -> Result<()> {
    if v.arg == 0 || v.arg > args.len() {
        return Err(FunctionError::new(format!(
            "not enough arguments for {} at {}: need index {} but have {} total",
            crate::eval::go_quote(&v.raw),
            v.offset,
            v.arg,
            args.len()
        )));
    }
    let arg = &args[v.arg - 1];
    if v.mode != 'v' && arg.is_null() {
        return Err(fail(v, "null value cannot be formatted"));
    }
    match v.mode {
        'v' => {
            let text = match arg {
                Value::String(s) if !v.sharp => s.to_string(),
                Value::Number(n) if !v.sharp => n.text('g', -1),
                other => to_json(other).ok_or_else(|| fail(v, "value is not known"))?,
            };
            out.push_str(&pad(v, text));
        }
        't' => match convert(arg, &Type::Bool) {
            Ok(Value::Bool(b)) => out.push_str(if b { "true" } else { "false" }),
            Ok(_) => return Err(fail(v, "a bool is required")),
            Err(e) => return Err(fail(v, e)),
        },
        'b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = match convert(arg, &Type::Number) {
                Ok(Value::Number(n)) => n,
                Ok(_) => return Err(fail(v, "a number is required")),
                Err(e) => return Err(fail(v, e)),
            };
            if matches!(v.mode, 'b' | 'd' | 'o' | 'x' | 'X') {
                out.push_str(&integer(v, &n)?);
            } else {
                out.push_str(&float(v, &n));
            }
        }
        's' | 'q' => {
            let text = match convert(arg, &Type::String) {
                Ok(Value::String(s)) => s.to_string(),
                Ok(_) => return Err(fail(v, "a string is required")),
                Err(e) => return Err(fail(v, e)),
            };
            let text = match v.prec {
                Some(p) if p > 0 => text.graphemes(true).take(p).collect(),
                _ => text,
            };
            let text = if v.mode == 'q' {
                json_string(&text)
            } else {
                text
            };
            out.push_str(&pad(v, text));
        }
        other => {
            return Err(FunctionError::new(format!(
                "unsupported format verb {} in {} at offset {}",
                crate::eval::go_quote(&other.to_string()),
                crate::eval::go_quote(&v.raw),
                v.offset
            )));
        }
    }
    Ok(())
}

/// Pads to the width in grapheme clusters, as cty's `formatPadWidth`.
fn pad(v: &Verb, text: String) -> String {
    let Some(width) = v.width else { return text };
    let len = text.graphemes(true).count();
    if len >= width {
        return text;
    }
    let fill = if v.zero { "0" } else { " " }.repeat(width - len);
    if v.minus { text + &fill } else { fill + &text }
}

/// `%d %b %o %x %X` as Go formats a `big.Int`.
fn integer(v: &Verb, n: &Number) -> Result<String> {
    let Some((neg, mag)) = n.to_integer_parts() else {
        return Err(fail(v, "an integer is required"));
    };
    let base = match v.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let mut digits = mag.to_str_radix(base);
    if v.mode == 'X' {
        digits = digits.to_uppercase();
    }
    let sign = if neg && !n.is_zero() {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    let prefix = if v.sharp {
        match v.mode {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        }
    } else {
        ""
    };
    let mut zeros = 0;
    if let Some(p) = v.prec {
        if digits.len() < p {
            zeros = p - digits.len();
        } else if digits == "0" && p == 0 {
            return Ok(String::new());
        }
    }
    let length = sign.len() + prefix.len() + zeros + digits.len();
    let (mut left, mut right) = (0, 0);
    if let Some(w) = v.width.filter(|w| length < *w) {
        let d = w - length;
        if v.minus {
            right = d;
        } else if v.zero && v.prec.is_none() {
            zeros = d;
        } else {
            left = d;
        }
    }
    Ok(format!(
        "{}{sign}{prefix}{}{digits}{}",
        " ".repeat(left),
        "0".repeat(zeros),
        " ".repeat(right)
    ))
}

/// `%e %E %f %g %G` as Go formats a `big.Float`.
fn float(v: &Verb, n: &Number) -> String {
    let prec = match (v.mode, v.prec) {
        (_, Some(p)) => p as i32,
        ('g' | 'G', None) => -1,
        _ => 6,
    };
    let text = n.text(v.mode, prec);
    let (sign, body) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest.to_string()),
        None => match text.strip_prefix('+') {
            Some(rest) => (if v.space { " " } else { "+" }, rest.to_string()),
            None if v.plus => ("+", text.clone()),
            None if v.space => (" ", text.clone()),
            None => ("", text.clone()),
        },
    };
    let padding = v
        .width
        .filter(|w| *w > sign.len() + body.len())
        .map_or(0, |w| w - sign.len() - body.len());
    if v.zero && !n.is_infinite() {
        format!("{sign}{}{body}", "0".repeat(padding))
    } else if v.minus {
        format!("{sign}{body}{}", " ".repeat(padding))
    } else {
        format!("{}{sign}{body}", " ".repeat(padding))
    }
}
