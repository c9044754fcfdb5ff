//! Encoding functions: `base64decode base64encode base64gzip csvdecode
//! jsondecode jsonencode urlencode`, and the hashes `base64sha256
//! base64sha512 md5 sha1 sha256 sha512 uuid uuidv5`.

use super::support::{arg_error, p, s, string_fn};
use crate::eval::context::{EvalContext, Function, FunctionError};
use crate::eval::display::to_json;
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::Digest;
use smol_str::SmolStr;
use std::collections::BTreeMap;

/// Adds the encoding and hash functions to `ctx`.
pub fn register(ctx: &mut EvalContext) {
    ctx.set_function(
        "jsonencode",
        Function::new(
            vec![p("val", Type::Dynamic).allow_null().allow_dynamic()],
            Type::String,
            |args, _| {
                if !args[0].is_wholly_known() {
                    return Ok(Value::Unknown(Type::String));
                }
                if has_infinity(&args[0]) {
                    return Err(FunctionError::new("cannot serialize infinity as JSON"));
                }
                to_json(&args[0])
                    .map(Value::string)
                    .ok_or_else(|| FunctionError::new("value is not known"))
            },
        ),
    );
    ctx.set_function(
        "jsondecode",
        Function::new(vec![p("str", Type::String)], Type::Dynamic, |args, _| {
            let text = s(&args[0]);
            let v: serde_json::Value =
                serde_json::from_str(text).map_err(|e| arg_error(0, json_error(text, &e)))?;
            try_from_json(&v).map_err(FunctionError::new)
        }),
    );
    ctx.set_function("base64encode", string_fn(|x| STANDARD.encode(x)));
    ctx.set_function(
        "base64decode",
        Function::new(vec![p("str", Type::String)], Type::String, |args, _| {
            let text = s(&args[0]);
            let bytes = STANDARD.decode(text).map_err(|_| {
                arg_error(
                    0,
                    format!(
                        "failed to decode base64 data {}",
                        crate::eval::go_quote(text)
                    ),
                )
            })?;
            String::from_utf8(bytes).map(Value::string).map_err(|_| {
                arg_error(
                    0,
                    "the result of decoding the provided string is not valid UTF-8",
                )
            })
        }),
    );
    ctx.set_function(
        "base64gzip",
        Function::new(vec![p("str", Type::String)], Type::String, |args, _| {
            Ok(Value::string(
                STANDARD.encode(go_gzip(s(&args[0]).as_bytes())),
            ))
        }),
    );
    ctx.set_function("urlencode", string_fn(query_escape));
    ctx.set_function(
        "csvdecode",
        Function::with_return_type(
            vec![p("str", Type::String)],
            |args| {
                let header = csv_rows(s(&args[0]))?.into_iter().next();
                match header {
                    Some(h) => Ok(Type::list(Type::Object(
                        h.into_iter().map(|k| (k, Type::String)).collect(),
                    ))),
                    None => Err(arg_error(0, "missing header line")),
                }
            },
            |args, ret| {
                let rows = csv_rows(s(&args[0]))?;
                let header = &rows[0];
                let mut out = Vec::new();
                for (i, row) in rows[1..].iter().enumerate() {
                    if row.len() != header.len() {
                        return Err(arg_error(
                            0,
                            format!("record on line {}: wrong number of fields", i + 2),
                        ));
                    }
                    let obj: BTreeMap<SmolStr, Value> = header
                        .iter()
                        .map(|h| SmolStr::from(h.as_str()))
                        .zip(row.iter().map(Value::string))
                        .collect();
                    out.push(Value::Object(obj.into()));
                }
                Ok(Value::List(
                    ret.element_type().cloned().unwrap_or(Type::Dynamic),
                    out.into(),
                ))
            },
        ),
    );
    ctx.set_function("md5", string_fn(|x| hex(&md5::Md5::digest(x.as_bytes()))));
    ctx.set_function(
        "sha1",
        string_fn(|x| hex(&sha1::Sha1::digest(x.as_bytes()))),
    );
    ctx.set_function(
        "sha256",
        string_fn(|x| hex(&sha2::Sha256::digest(x.as_bytes()))),
    );
    ctx.set_function(
        "sha512",
        string_fn(|x| hex(&sha2::Sha512::digest(x.as_bytes()))),
    );
    ctx.set_function(
        "base64sha256",
        string_fn(|x| STANDARD.encode(sha2::Sha256::digest(x.as_bytes()))),
    );
    ctx.set_function(
        "base64sha512",
        string_fn(|x| STANDARD.encode(sha2::Sha512::digest(x.as_bytes()))),
    );
    ctx.set_function(
        "uuid",
        Function::new(vec![], Type::String, |_, _| {
            Ok(Value::string(uuid::Uuid::new_v4().to_string()))
        }),
    );
    ctx.set_function(
        "uuidv5",
        Function::new(vec![p("namespace", Type::String), p("name", Type::String)], Type::String, |args, _| {
            let ns = match s(&args[0]) {
                "dns" => uuid::Uuid::NAMESPACE_DNS,
                "url" => uuid::Uuid::NAMESPACE_URL,
                "oid" => uuid::Uuid::NAMESPACE_OID,
                "x500" => uuid::Uuid::NAMESPACE_X500,
                other => uuid::Uuid::parse_str(other).map_err(|_| {
                    arg_error(0, format!("uuidv5() doesn't support namespace {} (uuid: invalid UUID length: {})", other, other.len()))
                })?,
            };
            Ok(Value::string(uuid::Uuid::new_v5(&ns, s(&args[1]).as_bytes()).to_string()))
        }),
    );
}

/// Gzip as Terraform writes it with Go's `compress/gzip`: the data, a
/// sync flush, then an empty final stored block.
fn go_gzip(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    let mut deflate = flate2::Compress::new(flate2::Compression::default(), false);
    let mut body = Vec::with_capacity(data.len() + 64);
    let mut input = data;
    loop {
        body.reserve(data.len() / 2 + 64);
        let before_in = deflate.total_in();
        let status = deflate.compress_vec(input, &mut body, flate2::FlushCompress::Sync);
        let consumed = (deflate.total_in() - before_in) as usize;
        input = &input[consumed..];
        if status.is_err() || (input.is_empty() && body.len() < body.capacity()) {
            break;
        }
    }
    out.extend_from_slice(&body);
    out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Go's `url.QueryEscape`: spaces as `+`, unreserved characters kept.
fn query_escape(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

fn csv_rows(text: &str) -> Result<Vec<Vec<String>>, FunctionError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for rec in reader.records() {
        let rec = rec.map_err(|e| arg_error(0, e.to_string()))?;
        rows.push(rec.iter().map(str::to_string).collect());
    }
    Ok(rows)
}

fn json_error(text: &str, e: &serde_json::Error) -> String {
    if text.trim().is_empty() {
        return "unexpected end of JSON input".into();
    }
    e.to_string()
}

/// A JSON value as cty reads it: objects as objects, arrays as tuples,
/// numbers at full precision (a number out of range reads as zero; see
/// [`try_from_json`]).
pub(crate) fn from_json(v: &serde_json::Value) -> Value {
    try_from_json(v).unwrap_or_else(|_| Value::Number(Number::zero()))
}

/// As [`from_json`], failing as cty does ("a number is required") on a
/// number whose exponent is out of range (`1e3000000000`).
pub(crate) fn try_from_json(v: &serde_json::Value) -> Result<Value, String> {
    Ok(match v {
        serde_json::Value::Null => Value::Null(Type::Dynamic),
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => Value::Number(
            Number::parse(&n.to_string()).ok_or_else(|| "a number is required".to_string())?,
        ),
        serde_json::Value::String(s) => Value::string(s),
        serde_json::Value::Array(items) => {
            Value::Tuple(items.iter().map(try_from_json).collect::<Result<_, _>>()?)
        }
        serde_json::Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Ok((k.as_str().into(), try_from_json(v)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}

/// Whether an infinity is somewhere in `v` (JSON has no infinities).
fn has_infinity(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_infinite(),
        Value::Sensitive(inner) => has_infinity(inner),
        Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items) => {
            items.iter().any(has_infinity)
        }
        Value::Map(_, items) | Value::Object(items) => items.values().any(has_infinity),
        _ => false,
    }
}

/// Adds `textencodebase64`, `textdecodebase64` and `bcrypt` to `ctx`.
pub fn register_text(ctx: &mut EvalContext) {
    ctx.set_function(
        "textencodebase64",
        Function::new(
            vec![p("string", Type::String), p("encoding", Type::String)],
            Type::String,
            |args, _| {
                let charset = Charset::named(s(&args[1]))?;
                let bytes = charset.encode(s(&args[0]))?;
                Ok(Value::string(STANDARD.encode(bytes)))
            },
        ),
    );
    ctx.set_function(
        "textdecodebase64",
        Function::new(
            vec![p("source", Type::String), p("encoding", Type::String)],
            Type::String,
            |args, _| {
                let charset = Charset::named(s(&args[1]))?;
                let text = s(&args[0]);
                let bytes = STANDARD.decode(text).map_err(|e| {
                    let offset = match e {
                        base64::DecodeError::InvalidByte(at, _)
                        | base64::DecodeError::InvalidLastSymbol(at, _) => at,
                        _ => text.len(),
                    };
                    arg_error(
                        0,
                        format!(
                            "the given value is has an invalid base64 symbol at offset {offset}"
                        ),
                    )
                })?;
                Ok(Value::string(charset.decode(&bytes)?))
            },
        ),
    );
    ctx.set_function(
        "bcrypt",
        Function::new(vec![p("str", Type::String)], Type::String, |args, _| {
            let cost = match args.get(1) {
                Some(c) => super::support::int(c, 1, "cost")?,
                None => 10,
            };
            if cost > 31 {
                return Err(FunctionError::new(format!("error occured generating password bcrypt: cost {cost} is outside allowed range (4,31)")));
            }
            let limit = super::limits::MAX_BCRYPT_COST;
            if cost > limit {
                return Err(FunctionError::new(format!(
                    "cost {cost} is more than the limit of {limit} (each step doubles the time: a cost of 31 takes days)"
                )));
            }
            let cost = if cost < 4 { 10 } else { cost as u32 };
            bcrypt::hash_with_result(s(&args[0]), cost)
                .map(|h| Value::string(h.format_for_version(bcrypt::Version::TwoA)))
                .map_err(|e| FunctionError::new(format!("error occured generating password {e}")))
        })
        .variadic(p("cost", Type::Number)),
    );
}

/// A character encoding named as IANA names them.
enum Charset {
    Utf16 { little: bool, bom: bool },
    Latin1,
    Other(&'static encoding_rs::Encoding),
}

impl Charset {
    fn named(name: &str) -> Result<Charset, FunctionError> {
        let lower = name.to_ascii_lowercase();
        Ok(match lower.as_str() {
            "utf-16le" => Charset::Utf16 {
                little: true,
                bom: false,
            },
            "utf-16be" => Charset::Utf16 {
                little: false,
                bom: false,
            },
            "utf-16" => Charset::Utf16 {
                little: false,
                bom: true,
            },
            "iso-8859-1" | "iso_8859-1" | "iso_8859-1:1987" | "latin1" | "l1" | "ibm819"
            | "cp819" | "csisolatin1" | "iso-ir-100" => Charset::Latin1,
            _ => match encoding_rs::Encoding::for_label(name.as_bytes()) {
                Some(e) if e != encoding_rs::REPLACEMENT => Charset::Other(e),
                _ => {
                    return Err(arg_error(
                        1,
                        format!(
                            "{} is not a supported IANA encoding name or alias in this Terraform version",
                            crate::eval::go_quote(name)
                        ),
                    ));
                }
            },
        })
    }

    fn name(&self) -> String {
        match self {
            Charset::Utf16 { .. } => "UTF-16".into(),
            Charset::Latin1 => "ISO_8859-1:1987".into(),
            Charset::Other(e) => e.name().to_string(),
        }
    }

    fn encode(&self, text: &str) -> Result<Vec<u8>, FunctionError> {
        let unmappable = || {
            arg_error(
                0,
                format!(
                    "the given string contains characters that cannot be represented in {}",
                    self.name()
                ),
            )
        };
        match self {
            Charset::Utf16 { little, bom } => {
                let mut out = Vec::new();
                if *bom {
                    out.extend_from_slice(&[0xfe, 0xff]);
                }
                for unit in text.encode_utf16() {
                    out.extend_from_slice(&if *little {
                        unit.to_le_bytes()
                    } else {
                        unit.to_be_bytes()
                    });
                }
                Ok(out)
            }
            Charset::Latin1 => text
                .chars()
                .map(|c| u8::try_from(c as u32).map_err(|_| unmappable()))
                .collect(),
            Charset::Other(e) => {
                let (bytes, _, had_errors) = e.encode(text);
                if had_errors {
                    Err(unmappable())
                } else {
                    Ok(bytes.into_owned())
                }
            }
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<String, FunctionError> {
        let invalid = || {
            arg_error(
                0,
                format!("the given value is not valid {} data", self.name()),
            )
        };
        match self {
            Charset::Utf16 { little, bom } => {
                let mut data = bytes;
                let mut little = *little;
                if *bom && data.len() >= 2 {
                    match (data[0], data[1]) {
                        (0xfe, 0xff) => data = &data[2..],
                        (0xff, 0xfe) => {
                            little = true;
                            data = &data[2..];
                        }
                        _ => {}
                    }
                }
                if !data.len().is_multiple_of(2) {
                    return Err(invalid());
                }
                let units: Vec<u16> = data
                    .chunks(2)
                    .map(|c| {
                        if little {
                            u16::from_le_bytes([c[0], c[1]])
                        } else {
                            u16::from_be_bytes([c[0], c[1]])
                        }
                    })
                    .collect();
                String::from_utf16(&units).map_err(|_| invalid())
            }
            Charset::Latin1 => Ok(bytes.iter().map(|&b| b as char).collect()),
            Charset::Other(e) => {
                let (text, _, had_errors) = e.decode(bytes);
                if had_errors {
                    Err(invalid())
                } else {
                    Ok(text.into_owned())
                }
            }
        }
    }
}

/// Adds `rsadecrypt` and `ephemeralasnull` to `ctx`.
pub fn register_crypto(ctx: &mut EvalContext) {
    ctx.set_function(
        "rsadecrypt",
        Function::new(vec![p("ciphertext", Type::String), p("privatekey", Type::String)], Type::String, |args, _| {
            use rsa::pkcs1::DecodeRsaPrivateKey;
            use rsa::pkcs8::DecodePrivateKey;
            let ciphertext = STANDARD
                .decode(s(&args[0]))
                .map_err(|_| arg_error(0, "failed to decode input \"ciphertext\": cipher text must be base64-encoded"))?;
            let pem = s(&args[1]);
            let key = rsa::RsaPrivateKey::from_pkcs1_pem(pem)
                .or_else(|_| rsa::RsaPrivateKey::from_pkcs8_pem(pem))
                .map_err(|_| arg_error(1, "invalid private key: failed to parse key: not a valid PEM-encoded RSA private key"))?;
            let plain = key
                .decrypt(rsa::Pkcs1v15Encrypt, &ciphertext)
                .map_err(|_| FunctionError::new("failed to decrypt: crypto/rsa: decryption error"))?;
            String::from_utf8(plain)
                .map(Value::string)
                .map_err(|_| FunctionError::new("the decrypted text is not valid UTF-8"))
        }),
    );
    // Nothing here is ephemeral: every value passes through.
    ctx.set_function(
        "ephemeralasnull",
        Function::with_return_type(
            vec![
                p("value", Type::Dynamic)
                    .allow_null()
                    .allow_unknown()
                    .allow_dynamic()
                    .allow_marked(),
            ],
            |args| Ok(args[0].ty()),
            |args, _| Ok(args[0].clone()),
        ),
    );
}
