//! YAML functions: `yamldecode yamlencode`, with the rules of Terraform's
//! YAML library (go-cty-yaml, v1.1): YAML 1.1 scalar resolution
//! (`yes`/`on`/`y` are bools, `0x1F` and `0o17` are numbers, timestamps
//! become RFC 3339 strings), merge keys, anchors, one document only; and
//! on the way out the layout of go-yaml's emitter (double-quoted strings,
//! literal blocks for multi-line ones, lines folded past column 80).

use super::support::{p, s};
use crate::eval::Entries;
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::display::go_quote;
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;
use base64::Engine;
use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span, StrInput};
use smol_str::SmolStr;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Adds `yamldecode` and `yamlencode` to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function(
        "yamldecode",
        Function::new(vec![p("src", Type::String)], Type::Dynamic, |args, _| {
            decode(s(&args[0])).map_err(FunctionError::new)
        }),
    );
    ctx.set_function(
        "yamlencode",
        Function::new(
            vec![p("value", Type::Dynamic).allow_null().allow_dynamic()],
            Type::String,
            |args, _| {
                if !args[0].is_wholly_known() {
                    return Ok(Value::Unknown(Type::String));
                }
                Ok(Value::string(encode(&args[0])))
            },
        ),
    );
}

// ---------------------------------------------------------------------
// Decoding

const TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// The one document of `src` as a value: mappings as objects, sequences
/// as tuples.
fn decode(src: &str) -> Result<Value, String> {
    check_characters(src)?;
    check_version(src)?;
    let mut text = Cow::Borrowed(src);
    loop {
        let mut d = Decoder {
            parser: Parser::new_from_str(&text),
            anchors: HashMap::new(),
            pending: HashSet::new(),
            tab_after_colon: None,
        };
        let result = d.document();
        // libyaml takes tabs after a key's `:` as separation, where this
        // parser wants a space: make them spaces and read again.
        if let (Err(_), Some(at)) = (&result, d.tab_after_colon)
            && let Some(fixed) = tabs_to_spaces_before(&text, at)
        {
            text = Cow::Owned(fixed);
            continue;
        }
        return result;
    }
}

/// `text` with the tabs just before character `at` made spaces, if any.
fn tabs_to_spaces_before(text: &str, at: usize) -> Option<String> {
    let mut chars: Vec<char> = text.chars().collect();
    let mut i = at.min(chars.len());
    let end = i;
    while i > 0 && chars[i - 1] == '\t' {
        i -= 1;
        chars[i] = ' ';
    }
    (i < end).then(|| chars.into_iter().collect())
}

/// A `%YAML` directive must name version 1.1, and only once.
fn check_version(src: &str) -> Result<(), String> {
    let mut seen = false;
    let src = src.strip_prefix('\u{FEFF}').unwrap_or(src);
    for (i, line) in src.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if !line.starts_with('%') {
            break;
        }
        let Some(version) = line.strip_prefix("%YAML") else {
            continue;
        };
        if !version.starts_with([' ', '\t']) {
            continue;
        }
        let version = version.split_whitespace().next().unwrap_or("");
        let (major, minor) = version.split_once('.').unwrap_or((version, ""));
        let problem = if seen {
            "found duplicate %YAML directive"
        } else if (major.parse(), minor.parse()) != (Ok(1u8), Ok(1u8)) {
            "found incompatible YAML document"
        } else {
            seen = true;
            continue;
        };
        return Err(format!("on line {}, column 1: {problem}", i + 1));
    }
    Ok(())
}

/// The YAML reader refuses control characters anywhere in the source,
/// quoted or not.
fn check_characters(src: &str) -> Result<(), String> {
    for (line, text) in src.split('\n').enumerate() {
        for (column, c) in text.chars().enumerate() {
            let ok = matches!(c as u32,
                0x09 | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF);
            if !ok {
                return Err(format!(
                    "on line {}, column {}: control characters are not allowed",
                    line + 1,
                    column + 1
                ));
            }
        }
    }
    Ok(())
}

struct Decoder<'a> {
    parser: Parser<'a, StrInput<'a>>,
    /// Values of the anchors defined so far, by the parser's anchor id.
    anchors: HashMap<usize, Value>,
    /// Anchors whose node is still being read (an alias to one would
    /// make an infinite value).
    pending: HashSet<usize>,
    /// Where the parser refused a tab after a `:`, if it did.
    tab_after_colon: Option<usize>,
}

fn at(span: &Span, message: impl std::fmt::Display) -> String {
    format!(
        "on line {}, column {}: {message}",
        span.start.line(),
        span.start.col() + 1
    )
}

fn syntax_error(e: &ScanError) -> String {
    format!(
        "on line {}, column {}: {}",
        e.marker().line(),
        e.marker().col() + 1,
        e.info()
    )
}

impl<'a> Decoder<'a> {
    fn next(&mut self) -> Result<(Event<'a>, Span), String> {
        match self.parser.next_event() {
            Some(Ok(ev)) => Ok(ev),
            Some(Err(e)) => {
                if e.info() == "':' must be followed by a valid YAML whitespace" {
                    self.tab_after_colon = Some(e.marker().index());
                }
                Err(syntax_error(&e))
            }
            None => Err("unexpected end of YAML input".into()),
        }
    }

    fn document(&mut self) -> Result<Value, String> {
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::StreamStart) {
            return Err(at(&span, "missing stream start token"));
        }
        let (ev, span) = self.next()?;
        if !matches!(ev, Event::DocumentStart(_)) {
            return Err(at(&span, "missing start of document"));
        }
        let value = self.node()?;
        let (ev, span) = self.next()?;
        match ev {
            Event::DocumentEnd => {}
            Event::DocumentStart(_) => return Err(at(&span, "only a single document is allowed")),
            _ => return Err(at(&span, "unexpected extra content after value")),
        }
        let (ev, span) = self.next()?;
        match ev {
            Event::StreamEnd => Ok(value),
            Event::DocumentStart(_) => Err(at(&span, "only a single document is allowed")),
            _ => Err(at(&span, "unexpected extra content after value")),
        }
    }

    fn node(&mut self) -> Result<Value, String> {
        let (ev, span) = self.next()?;
        self.node_from(ev, span)
    }

    fn node_from(&mut self, ev: Event<'a>, span: Span) -> Result<Value, String> {
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                let value = scalar_value(tag.as_deref(), &text, style).map_err(|e| at(&span, e))?;
                if anchor != 0 {
                    self.anchors.insert(anchor, value.clone());
                }
                Ok(value)
            }
            Event::Alias(id) => {
                if self.pending.contains(&id) {
                    return Err(at(
                        &span,
                        "cannot refer to an anchor from inside its own definition",
                    ));
                }
                self.anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| at(&span, "reference to undefined anchor"))
            }
            Event::SequenceStart(anchor, tag) => {
                check_collection_tag(tag.as_deref(), "seq", "sequence", &span)?;
                self.pending.insert(anchor);
                let mut items = Vec::new();
                loop {
                    let (ev, span) = self.next()?;
                    if matches!(ev, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.node_from(ev, span)?);
                }
                Ok(self.complete(anchor, Value::Tuple(items.into())))
            }
            Event::MappingStart(anchor, tag) => {
                check_collection_tag(tag.as_deref(), "map", "mapping", &span)?;
                self.pending.insert(anchor);
                let attrs = self.mapping_entries()?;
                Ok(self.complete(anchor, Value::Object(attrs.into())))
            }
            Event::DocumentStart(_) => Err(at(&span, "only a single document is allowed")),
            Event::StreamEnd => Err(at(&span, "expecting value but found end of stream")),
            _ => Err(at(&span, "unexpected parser event")),
        }
    }

    fn complete(&mut self, anchor: usize, value: Value) -> Value {
        self.pending.remove(&anchor);
        if anchor != 0 {
            self.anchors.insert(anchor, value.clone());
        }
        value
    }

    /// A mapping's entries up to its end: later keys override earlier
    /// ones, and a `<<` key merges the mapping it is given.
    fn mapping_entries(&mut self) -> Result<BTreeMap<SmolStr, Value>, String> {
        let mut attrs = BTreeMap::new();
        loop {
            let (ev, span) = self.next()?;
            let key = match ev {
                Event::MappingEnd => return Ok(attrs),
                Event::Scalar(text, style, _, tag) => {
                    let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                    if tag.is_none() && text == "<<" {
                        match self.node()? {
                            Value::Object(merged) => attrs.extend(merged),
                            other => {
                                return Err(at(
                                    &span,
                                    format!(
                                        "cannot merge {} into mapping",
                                        other.ty().friendly_name()
                                    ),
                                ));
                            }
                        }
                        continue;
                    }
                    key_string(scalar_value(tag.as_deref(), &text, style)?)
                        .map_err(|e| at(&span, e))?
                }
                _ => return Err(at(&span, "only strings are allowed as mapping keys")),
            };
            let value = self.node()?;
            attrs.insert(key.into(), value);
        }
    }
}

fn check_collection_tag(
    tag: Option<&saphyr_parser::Tag>,
    expected: &str,
    what: &str,
    span: &Span,
) -> Result<(), String> {
    match tag {
        None => Ok(()),
        Some(t) if t.handle == TAG_PREFIX && t.suffix == expected => Ok(()),
        Some(t) => Err(at(
            span,
            format!("can't interpret {what} as {}{}", t.handle, t.suffix),
        )),
    }
}

/// A mapping key as the string it names.
fn key_string(key: Value) -> Result<String, &'static str> {
    match key {
        Value::String(s) => Ok(s.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Null(_) => Err("mapping key cannot be null"),
        _ => Err("only strings are allowed as mapping keys"),
    }
}

/// A scalar node's value. An untagged block scalar (`|`, `>`) is always
/// a string, but its text is resolved first and the result converted,
/// as Terraform's implied type and value disagree there and the
/// conversion settles it (`|-` then `true` gives `"true"`).
fn scalar_value(tag: Option<&str>, text: &str, style: ScalarStyle) -> Result<Value, String> {
    let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
    let v = resolve(tag.unwrap_or(""), text, quoted)?;
    if tag.is_some() || matches!(style, ScalarStyle::Plain) || quoted {
        return Ok(v);
    }
    Ok(match v {
        Value::Number(n) => Value::String(n.to_string().into()),
        Value::Bool(b) => Value::String(b.to_string().into()),
        Value::Null(_) => Value::Null(Type::String),
        other => other,
    })
}

/// The value of a scalar with its tag (`""` when untagged) under YAML 1.1
/// resolution: plain scalars may be bools, nulls, numbers or timestamps,
/// by the look of their first character and then their whole text; quoted
/// ones are strings, unless tagged and starting with a character that
/// hints at no other type (`!!null 'x'` is null, `!!int "12"` a string).
fn resolve(tag: &str, text: &str, quoted: bool) -> Result<Value, String> {
    let kind = tag.strip_prefix(TAG_PREFIX);
    let mut kind = match (tag, kind) {
        ("", _) => "",
        (_, Some(k @ ("str" | "bool" | "int" | "float" | "null" | "timestamp" | "binary"))) => k,
        _ => return Err(format!("unsupported tag {}", go_quote(tag))),
    };
    let hint = match text.as_bytes().first() {
        None => Hint::Word,
        Some(b'+' | b'-') => Hint::Sign,
        Some(b'0'..=b'9') => Hint::Digit,
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => {
            Hint::Word
        }
        Some(b'.') => Hint::Dot,
        Some(_) => Hint::None,
    };
    if hint != Hint::None && kind != "str" && kind != "binary" {
        if quoted {
            return Ok(Value::string(text));
        }
        if let Some(v) = well_known(text) {
            return Ok(v);
        }
        if kind.is_empty() && matches!(text, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".into());
        }
        match hint {
            Hint::Dot => {
                if let Some(n) = Number::parse(text) {
                    return Ok(Value::Number(n));
                }
            }
            Hint::Digit | Hint::Sign => {
                if (kind.is_empty() || kind == "timestamp")
                    && let Some(t) = timestamp(text)
                {
                    return Ok(Value::String(t.into()));
                }
                if is_int_literal(text) {
                    kind = "int";
                } else if is_float_literal(text) {
                    kind = "float";
                }
            }
            _ => {}
        }
    }
    let cannot = || format!("cannot parse {} as {tag}", go_quote(text));
    match kind {
        "" | "str" => Ok(Value::string(text)),
        "binary" => {
            // The base64 text is kept (cty has no bytes), once checked.
            let compact: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
            BASE64
                .decode(compact)
                .map_err(|_| format!("{}: not valid base64", cannot()))?;
            Ok(Value::string(text))
        }
        "bool" => match well_known(text) {
            Some(v @ Value::Bool(_)) => Ok(v),
            _ => Err(cannot()),
        },
        "int" | "float" => {
            let plain = text.replace('_', "");
            Number::parse(&plain)
                .or_else(|| go_parse_int(&plain))
                .map(Value::Number)
                .ok_or_else(cannot)
        }
        "timestamp" => timestamp(text)
            .map(|t| Value::String(t.into()))
            .ok_or_else(cannot),
        // `!!null`, whatever the text.
        _ => Ok(Value::Null(Type::Dynamic)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    None,
    Sign,
    Digit,
    Word,
    Dot,
}

/// Go's standard base64 decoder: padding required, stray bits in the
/// last character ignored.
const BASE64: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true),
);

/// The plain scalars YAML 1.1 names: bools, nulls and infinities.
fn well_known(text: &str) -> Option<Value> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Value::Null(Type::Dynamic),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            Value::Number(Number::infinity(false))
        }
        "-.inf" | "-.Inf" | "-.INF" => Value::Number(Number::infinity(true)),
        _ => return None,
    })
}

/// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
fn is_int_literal(text: &str) -> bool {
    let all = |s: &str, f: fn(&u8) -> bool| !s.is_empty() && s.as_bytes().iter().all(f);
    if let Some(oct) = text.strip_prefix("0o") {
        return all(oct, |b| (b'0'..=b'7').contains(b));
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return all(hex, u8::is_ascii_hexdigit);
    }
    all(
        text.strip_prefix(['+', '-']).unwrap_or(text),
        u8::is_ascii_digit,
    )
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_float_literal(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if digits(&mut i) == 0 {
        if b.get(i) != Some(&b'.') {
            return false;
        }
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else if b.get(i) == Some(&b'.') {
        i += 1;
        digits(&mut i);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseInt(text, 0, 64)`, then `ParseUint`: a sign, then
/// `0x`, `0o`, `0b` or `0` prefixes for other bases.
fn go_parse_int(text: &str) -> Option<Number> {
    let (neg, signed, body) = match text.as_bytes().first() {
        Some(b'-') => (true, true, &text[1..]),
        Some(b'+') => (false, true, &text[1..]),
        _ => (false, false, text),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if magnitude <= i64::MAX as u64 || (neg && magnitude == 1 << 63) {
        let v = if neg {
            (magnitude as i64).wrapping_neg()
        } else {
            magnitude as i64
        };
        return Some(Number::from_i64(v));
    }
    if signed {
        return None;
    }
    Some(Number::from_biguint(false, magnitude.into()))
}

/// A YAML timestamp in one of the forms Go's `time.Parse` reads for
/// go-cty-yaml (`2001-12-14`, `2001-12-14 21:59:43.10`,
/// `2001-12-14T21:59:43.10-05:00`), written as RFC 3339.
fn timestamp(text: &str) -> Option<String> {
    let b = text.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return None;
    }
    let mut r = Reader { b, i: 5 };
    let year: u32 = text[..4].parse().ok()?;
    let month = r.number()?;
    r.literal(b'-')?;
    let day = r.number()?;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        _ => return None,
    };
    if day < 1 || day > days {
        return None;
    }
    let date = format!("{year:04}-{month:02}-{day:02}");
    if r.done() {
        return Some(format!("{date}T00:00:00Z"));
    }
    // `T`/`t` then a time with a zone, or spaces then a time without.
    let zoned = match b[r.i] {
        b'T' | b't' => {
            r.i += 1;
            true
        }
        b' ' => {
            while r.i < b.len() && b[r.i] == b' ' {
                r.i += 1;
            }
            false
        }
        _ => return None,
    };
    let hour = r.number().filter(|h| *h < 24)?;
    r.literal(b':')?;
    let minute = r.number().filter(|m| *m < 60)?;
    r.literal(b':')?;
    let second = r.number().filter(|s| *s < 60)?;
    if r.i + 1 < b.len() && matches!(b[r.i], b'.' | b',') && b[r.i + 1].is_ascii_digit() {
        r.i += 1;
        while r.i < b.len() && b[r.i].is_ascii_digit() {
            r.i += 1;
        }
    }
    let time = format!("{date}T{hour:02}:{minute:02}:{second:02}");
    if !zoned {
        return r.done().then(|| format!("{time}Z"));
    }
    let zone = &b[r.i..];
    if zone == b"Z" {
        return Some(format!("{time}Z"));
    }
    if zone.len() != 6 || !matches!(zone[0], b'+' | b'-') || zone[3] != b':' {
        return None;
    }
    let two = |s: &[u8]| -> Option<u32> {
        (s[0].is_ascii_digit() && s[1].is_ascii_digit())
            .then(|| u32::from(s[0] - b'0') * 10 + u32::from(s[1] - b'0'))
    };
    let (hours, minutes) = (two(&zone[1..3])?, two(&zone[4..6])?);
    if hours > 24 || minutes > 60 {
        return None;
    }
    let offset = hours * 60 + minutes;
    if offset == 0 {
        return Some(format!("{time}Z"));
    }
    Some(format!(
        "{time}{}{:02}:{:02}",
        zone[0] as char,
        offset / 60,
        offset % 60
    ))
}

/// A cursor over a timestamp's bytes.
struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    /// One or two digits, as Go reads `1`, `2`, `15`, `4` and `5`.
    fn number(&mut self) -> Option<u32> {
        let digit = |i: usize| self.b.get(i).filter(|c| c.is_ascii_digit());
        let first = u32::from(*digit(self.i)? - b'0');
        self.i += 1;
        match digit(self.i) {
            Some(c) => {
                let v = first * 10 + u32::from(c - b'0');
                self.i += 1;
                Some(v)
            }
            None => Some(first),
        }
    }

    fn literal(&mut self, c: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    fn done(&self) -> bool {
        self.i == self.b.len()
    }
}

// ---------------------------------------------------------------------
// Encoding

/// Lines of double-quoted scalars fold at spaces past this column.
const BEST_WIDTH: usize = 80;
/// Keys longer than this (in bytes) are written as `? key`.
const MAX_SIMPLE_KEY: usize = 128;

/// `v` as one YAML document, laid out as go-yaml's emitter lays it out.
fn encode(v: &Value) -> String {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
        indent: -1,
        indents: Vec::new(),
        whitespace: true,
        indention: true,
        open_ended: false,
    };
    e.node(v, Context::ROOT);
    e.write_indent();
    if e.open_ended {
        e.write_indicator("...", true, false, false);
        e.write_indent();
    }
    e.out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    DoubleQuoted,
    Literal,
}

/// Where a node is written.
#[derive(Clone, Copy)]
struct Context {
    root: bool,
    /// A mapping's key or value.
    mapping: bool,
    /// A key written on the same line as its `:`.
    simple_key: bool,
}

impl Context {
    const ROOT: Context = Context {
        root: true,
        mapping: false,
        simple_key: false,
    };
    const ITEM: Context = Context {
        root: false,
        mapping: false,
        simple_key: false,
    };
    const VALUE: Context = Context {
        root: false,
        mapping: true,
        simple_key: false,
    };
}

/// The emitter's state: the column and indentation so far, and whether
/// the last thing written was white space or indentation.
struct Emitter {
    out: String,
    /// The column, in characters.
    column: usize,
    /// The current indentation (-1 before the root node).
    indent: i32,
    indents: Vec<i32>,
    whitespace: bool,
    indention: bool,
    /// Whether the document needs `...` to show where it ends (after a
    /// plain root scalar).
    open_ended: bool,
}

/// What a scalar's characters allow.
struct Analysis {
    multiline: bool,
    block_allowed: bool,
}

fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_allowed: false,
        };
    }
    let mut multiline = false;
    let mut block_allowed = !value.ends_with(' ');
    let mut previous_space = false;
    for c in value.chars() {
        if !printable(c) {
            block_allowed = false;
        }
        if is_break(c) {
            multiline = true;
            if previous_space {
                block_allowed = false;
            }
        }
        previous_space = c == ' ';
    }
    Analysis {
        multiline,
        block_allowed,
    }
}

/// The characters go-yaml writes as they are (a line feed, printable
/// ASCII, and the Basic Multilingual Plane less surrogates, the BOM and
/// the noncharacters at its end).
fn printable(c: char) -> bool {
    matches!(c as u32, 0x0A | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD) && c != '\u{FEFF}'
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

impl Emitter {
    fn node(&mut self, v: &Value, ctx: Context) {
        match v {
            Value::Sensitive(inner) => self.node(inner, ctx),
            Value::Null(_) | Value::Unknown(_) => self.scalar("null", Style::Plain, ctx),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, ctx),
            Value::Number(n) => self.scalar(&n.to_string(), Style::Plain, ctx),
            Value::String(s) => {
                let style = if s.contains('\n') {
                    Style::Literal
                } else {
                    Style::DoubleQuoted
                };
                self.scalar(s, style, ctx);
            }
            Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
                self.sequence(items, ctx)
            }
            Value::Map(_, entries) | Value::Object(entries) => self.mapping(entries),
        }
    }

    fn sequence(&mut self, items: &[Value], ctx: Context) {
        if items.is_empty() {
            self.write_indicator("[", true, true, false);
            self.write_indicator("]", false, false, false);
            return;
        }
        // A sequence that is a mapping's value on the next line is not
        // indented further than its key.
        let indentless = ctx.mapping && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::ITEM);
        }
        self.pop_indent();
    }

    fn mapping(&mut self, entries: &Entries) {
        if entries.is_empty() {
            self.write_indicator("{", true, true, false);
            self.write_indicator("}", false, false, false);
            return;
        }
        self.increase_indent(false, false);
        for (key, value) in entries {
            self.write_indent();
            let key_value = Value::String(key.clone());
            if !analyze(key).multiline && key.len() <= MAX_SIMPLE_KEY {
                let ctx = Context {
                    simple_key: true,
                    ..Context::VALUE
                };
                self.node(&key_value, ctx);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.node(&key_value, Context::VALUE);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, Context::VALUE);
        }
        self.pop_indent();
    }

    fn scalar(&mut self, value: &str, requested: Style, ctx: Context) {
        let analysis = analyze(value);
        let mut style = requested;
        if ctx.simple_key && analysis.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!analysis.block_allowed || ctx.simple_key) {
            style = Style::DoubleQuoted;
        }
        self.increase_indent(true, false);
        match style {
            Style::Plain => {
                if !self.whitespace {
                    self.put(' ');
                }
                self.write_str(value);
                self.whitespace = false;
                self.indention = false;
                if ctx.root {
                    self.open_ended = true;
                }
            }
            Style::DoubleQuoted => self.write_double_quoted(value, !ctx.simple_key),
            Style::Literal => self.write_literal(value),
        }
        self.pop_indent();
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { 2 } else { 0 };
        } else if !indentless {
            self.indent += 2;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn write_str(&mut self, s: &str) {
        self.out.push_str(s);
        self.column += s.chars().count();
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// A line break and indentation, unless already at the indentation.
    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        self.write_str(indicator);
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
        self.open_ended = false;
    }

    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        // go-yaml tests for a byte order mark at the start of the value
        // for every character, and so escapes them all after one.
        let bom = value.starts_with('\u{FEFF}');
        let mut spaces = false;
        let mut chars = value.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if bom || !printable(c) || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let escape = match c {
                    '\0' => "0".to_string(),
                    '\u{7}' => "a".into(),
                    '\u{8}' => "b".into(),
                    '\t' => "t".into(),
                    '\n' => "n".into(),
                    '\u{b}' => "v".into(),
                    '\u{c}' => "f".into(),
                    '\r' => "r".into(),
                    '\u{1b}' => "e".into(),
                    '"' => "\"".into(),
                    '\\' => "\\".into(),
                    '\u{85}' => "N".into(),
                    '\u{a0}' => "_".into(),
                    '\u{2028}' => "L".into(),
                    '\u{2029}' => "P".into(),
                    c if (c as u32) <= 0xFF => format!("x{:02X}", c as u32),
                    c if (c as u32) <= 0xFFFF => format!("u{:04X}", c as u32),
                    c => format!("U{:08X}", c as u32),
                };
                self.write_str(&escape);
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i < value.len() - 1
                {
                    // Fold the line here: the break reads back as this
                    // space; a space after it is escaped to survive.
                    self.write_indent();
                    if chars.peek().is_some_and(|(_, next)| *next == ' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(' ');
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        let mut chars = value.chars();
        let first = chars.next();
        if first.is_some_and(|c| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let last = value.chars().next_back();
        let before_last = value.chars().rev().nth(1);
        let chomp = match (last, before_last) {
            (Some(c), _) if !is_break(c) => Some("-"),
            (_, None) => Some("+"),
            (_, Some(c)) if is_break(c) => Some("+"),
            _ => None,
        };
        // go-yaml marks a kept (`+`) block open-ended, but writing the
        // indicator clears the mark again: no `...` follows it.
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                if c == '\n' {
                    self.put_break();
                } else {
                    self.out.push(c);
                    self.column = 0;
                }
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert!(is_int_literal("-12") && is_int_literal("0o17") && is_int_literal("0x1f"));
        assert!(!is_int_literal("1_000") && !is_int_literal("-0x1") && !is_int_literal("0x"));
        assert!(is_float_literal("1.") && is_float_literal(".5e-3") && is_float_literal("+1E3"));
        assert!(!is_float_literal(".") && !is_float_literal("1e") && !is_float_literal("e3"));
    }

    #[test]
    fn timestamps() {
        assert_eq!(
            timestamp("2001-1-2").as_deref(),
            Some("2001-01-02T00:00:00Z")
        );
        assert_eq!(
            timestamp("2001-12-14t21:59:43.10-05:00").as_deref(),
            Some("2001-12-14T21:59:43-05:00")
        );
        assert_eq!(
            timestamp("2001-12-14  1:2:3").as_deref(),
            Some("2001-12-14T01:02:03Z")
        );
        assert_eq!(timestamp("2001-2-29"), None);
        assert_eq!(timestamp("2001-12-14T21:59:43"), None);
    }

    #[test]
    fn ints_as_go_reads_them() {
        let n = |s| go_parse_int(s).map(|n| n.to_string());
        assert_eq!(n("0x1F").as_deref(), Some("31"));
        assert_eq!(n("-0o17").as_deref(), Some("-15"));
        assert_eq!(n("0b101").as_deref(), Some("5"));
        assert_eq!(
            n("0xFFFFFFFFFFFFFFFF").as_deref(),
            Some("18446744073709551615")
        );
        assert_eq!(n("-0xFFFFFFFFFFFFFFFF"), None);
    }

    #[test]
    fn encodes() {
        assert_eq!(encode(&Value::int(1)), "1\n...\n");
        assert_eq!(encode(&Value::string("a\nb")), "|-\n  a\n  b\n");
        assert_eq!(encode(&Value::string("a\n\n")), "|+\n  a\n\n");
    }
}
