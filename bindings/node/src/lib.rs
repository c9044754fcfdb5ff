//! The Node addon of hclwright: thin napi-rs wrappers over
//! `hclwright-bindings` (the layer shared with the Python package).
//!
//! Errors cross as a JavaScript `Error` whose message is [`ERROR_MARKER`]
//! followed by JSON (`{kind, message, diagnostics}`); `index.js` turns it
//! into an `HclError`. Values cross as tagged JSON text (see
//! [`tagged`]), decoded by `index.js` into numbers, bigints and the
//! `Unknown` symbol.
#![deny(clippy::all)]

use hclwright_bindings as b;
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// The addon's Rust allocations (trees, texts) go through mimalloc; what
/// crosses to JavaScript is copied into V8's heap, so nothing allocated
/// here is freed by another allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The start of the message of every error this addon throws.
const ERROR_MARKER: &str = "\u{0}hclwright-error:";

fn js_error(e: b::Error) -> Error {
    let diagnostics: Vec<serde_json::Value> = e
        .diagnostics
        .iter()
        .map(|d| {
            serde_json::json!({
                "line": d.line,
                "column": d.column,
                "message": d.message,
                "start": d.start,
                "end": d.end,
            })
        })
        .collect();
    let payload = serde_json::json!({
        "kind": format!("{:?}", e.kind),
        "message": e.message,
        "text": e.to_string(),
        "diagnostics": diagnostics,
    });
    Error::new(Status::GenericFailure, format!("{ERROR_MARKER}{payload}"))
}

fn run<T>(r: b::Result<T>) -> Result<T> {
    r.map_err(js_error)
}

/// A value as tagged JSON: `["n", text]` a number, `["l", [..]]` a list,
/// `["m", [[key, value], ..]]` a map, `["u"]` unknown; null, booleans and
/// strings as themselves. A sensitive value is its inner value.
fn tagged(v: &b::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        b::Value::Null => J::Null,
        b::Value::Bool(x) => J::Bool(*x),
        b::Value::Number(n) => serde_json::json!(["n", n]),
        b::Value::String(s) => J::String(s.clone()),
        b::Value::List(items) => {
            serde_json::json!(["l", items.iter().map(tagged).collect::<Vec<_>>()])
        }
        b::Value::Map(items) => serde_json::json!([
            "m",
            items
                .iter()
                .map(|(k, v)| serde_json::json!([k, tagged(v)]))
                .collect::<Vec<_>>()
        ]),
        b::Value::Unknown => serde_json::json!(["u"]),
        b::Value::Sensitive(inner) => tagged(inner),
    }
}

/// `vars` as a JSON object text (`index.js` writes bigints as digits).
fn parse_vars(vars: Option<String>) -> Result<Vec<(String, b::Value)>> {
    let Some(text) = vars else {
        return Ok(Vec::new());
    };
    let parsed: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        js_error(b::Error::new(
            b::ErrorKind::Usage,
            format!("vars: not JSON: {e}"),
        ))
    })?;
    match parsed {
        serde_json::Value::Object(map) => Ok(map
            .iter()
            .map(|(k, v)| (k.clone(), b::Value::from_json(v)))
            .collect()),
        serde_json::Value::Null => Ok(Vec::new()),
        _ => Err(js_error(b::Error::new(
            b::ErrorKind::Usage,
            "vars must be an object of variable values",
        ))),
    }
}

/// Formats `text` with `profile` (`hclfmt`, `terraform`).
#[napi]
pub fn format(text: String, profile: String) -> Result<String> {
    run(b::format(&text, &profile))
}

/// Formatting on the libuv pool.
pub struct FormatTask {
    text: String,
    profile: String,
}

impl Task for FormatTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        run(b::format(&self.text, &self.profile))
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// `format` on the libuv pool.
#[napi(ts_return_type = "Promise<string>")]
pub fn format_async(text: String, profile: String) -> AsyncTask<FormatTask> {
    AsyncTask::new(FormatTask { text, profile })
}

fn evaluate_tagged(expr: &str, dir: Option<&str>, vars: Option<String>) -> Result<String> {
    let vars = parse_vars(vars)?;
    let value = run(b::evaluate(expr, dir, &vars))?;
    Ok(tagged(&value).to_string())
}

/// Evaluates `expr`; the value as tagged JSON text.
#[napi]
pub fn evaluate(expr: String, dir: Option<String>, vars: Option<String>) -> Result<String> {
    evaluate_tagged(&expr, dir.as_deref(), vars)
}

/// Evaluation on the libuv pool.
pub struct EvaluateTask {
    expr: String,
    dir: Option<String>,
    vars: Option<String>,
}

impl Task for EvaluateTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        evaluate_tagged(&self.expr, self.dir.as_deref(), self.vars.take())
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

/// `evaluate` on the libuv pool.
#[napi(ts_return_type = "Promise<string>")]
pub fn evaluate_async(
    expr: String,
    dir: Option<String>,
    vars: Option<String>,
) -> AsyncTask<EvaluateTask> {
    AsyncTask::new(EvaluateTask { expr, dir, vars })
}

/// What `terraform console` prints for `expr`.
#[napi]
pub fn console(expr: String, dir: Option<String>, vars: Option<String>) -> Result<String> {
    let vars = parse_vars(vars)?;
    run(b::console(&expr, dir.as_deref(), &vars))
}

/// The value hcl2json gives for `text`, as compact JSON text (`index.js`
/// parses it with `JSON.parse`).
#[napi]
pub fn to_json_text(text: String) -> Result<String> {
    run(b::to_json_compact_text(&text))
}

/// Native syntax of a JSON syntax text.
#[napi]
pub fn to_hcl(json_text: String) -> Result<String> {
    run(b::to_hcl(&json_text))
}

/// A reference: where its root is (1-based) and its text.
#[napi(object)]
pub struct Ref {
    /// Line of its first character.
    pub line: u32,
    /// Column of its first character.
    pub column: u32,
    /// The traversal (`var.a[0].b`).
    pub traversal: String,
}

/// The references of a file.
#[napi]
pub fn refs(text: String) -> Result<Vec<Ref>> {
    Ok(run(b::refs(&text))?
        .into_iter()
        .map(|r| Ref {
            line: r.line,
            column: r.column,
            traversal: r.traversal,
        })
        .collect())
}

/// `text` with references starting with `from` renamed to `to`.
#[napi]
pub fn rename(text: String, from: String, to: String) -> Result<String> {
    run(b::rename(&text, &from, &to))
}

/// `hclwright bump terraform VERSION` on one text (`json`: the JSON
/// syntax); VERSION a version or a constraint written as given.
#[napi]
pub fn bump_terraform(text: String, version: String, json: bool) -> Result<String> {
    run(b::bump(&text, b::Target::Terraform, &version, false, json))
}

/// `hclwright bump provider NAME VERSION` on one text.
#[napi]
pub fn bump_provider(
    text: String,
    name: String,
    version: String,
    keep_operator: bool,
    json: bool,
) -> Result<String> {
    run(b::bump(
        &text,
        b::Target::Provider(name),
        &version,
        keep_operator,
        json,
    ))
}

/// `hclwright bump plugin NAME VERSION` on one text (Packer's
/// `required_plugins`).
#[napi]
pub fn bump_plugin(
    text: String,
    name: String,
    version: String,
    keep_operator: bool,
    json: bool,
) -> Result<String> {
    run(b::bump(
        &text,
        b::Target::Plugin(name),
        &version,
        keep_operator,
        json,
    ))
}

/// `hclwright bump module SOURCE VERSION` on one text.
#[napi]
pub fn bump_module(
    text: String,
    source: String,
    version: String,
    keep_operator: bool,
    json: bool,
) -> Result<String> {
    run(b::bump(
        &text,
        b::Target::Module(source),
        &version,
        keep_operator,
        json,
    ))
}

/// An item of a body.
#[napi(object)]
pub struct Entry {
    /// The block type or attribute name.
    pub name: String,
    /// A block's labels (empty for an attribute).
    pub labels: Vec<String>,
    /// Its address, usable with get/set/remove.
    pub address: String,
    /// An attribute's value source text (null for a block).
    pub value: Option<String>,
}

fn entries(list: Vec<b::Entry>) -> Vec<Entry> {
    list.into_iter()
        .map(|e| Entry {
            name: e.name,
            labels: e.labels,
            address: e.address,
            value: e.value,
        })
        .collect()
}

/// A parsed file under edit, by address.
#[napi(js_name = "NativeDocument")]
pub struct NativeDocument {
    inner: b::Document,
}

#[napi]
impl NativeDocument {
    /// Parses `text` (as the JSON syntax when `json`).
    #[napi(constructor)]
    pub fn new(text: String, json: bool) -> Result<Self> {
        Ok(NativeDocument {
            inner: run(b::Document::parse(&text, json))?,
        })
    }

    /// The source text at `address`, null when nothing is there.
    #[napi]
    pub fn get(&self, address: String) -> Result<Option<String>> {
        run(self.inner.get(&address))
    }

    /// Sets `address` to `source`, creating what is missing.
    #[napi]
    pub fn set(&mut self, address: String, source: String) -> Result<()> {
        run(self.inner.set(&address, &source))
    }

    /// Removes what `address` designates; false when nothing does.
    #[napi]
    pub fn remove(&mut self, address: String) -> Result<bool> {
        run(self.inner.remove(&address))
    }

    /// Renames what `address` designates (as `hclwright mv`).
    #[napi]
    pub fn rename(&mut self, address: String, new_name: String) -> Result<()> {
        run(self.inner.rename(&address, &new_name))
    }

    /// Appends an empty block to the body at `parent` (`""`: top level).
    #[napi]
    pub fn append_block(
        &mut self,
        parent: String,
        block_type: String,
        labels: Vec<String>,
    ) -> Result<()> {
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        run(self.inner.append_block(&parent, &block_type, &labels))
    }

    /// The whole text.
    #[napi]
    pub fn text(&self) -> String {
        self.inner.text()
    }

    /// A unified diff from the parsed text, `path` in its headers.
    #[napi]
    pub fn diff(&self, path: String) -> String {
        self.inner.diff(&path)
    }

    /// The blocks of the top level, of `block_type` when given.
    #[napi]
    pub fn blocks(&self, block_type: Option<String>) -> Result<Vec<Entry>> {
        run(self.inner.blocks("", block_type.as_deref())).map(entries)
    }

    /// The attributes of the body at `address` (`""`: top level).
    #[napi]
    pub fn attributes(&self, address: String) -> Result<Vec<Entry>> {
        run(self.inner.attributes(&address)).map(entries)
    }
}
