//! `hclwright._native`: the Python extension module over
//! `hclwright-bindings` (each function is a call of that layer; the GIL is
//! released while the library parses, formats, converts and evaluates).
//! The package `hclwright` (python/hclwright) re-exports it.

use hclwright_bindings as b;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

create_exception!(
    _native,
    HclError,
    PyValueError,
    "Raised for syntax errors, bad addresses and evaluation errors.\n\n\
     `.diagnostics` lists `Diagnostic` objects (`.line`, `.column`, 1-based; \
     `.message`; `.start`, `.end`, byte offsets); `str(e)` gives \
     `line:column: message` lines."
);

/// One problem of an input: where (1-based `line` and `column`, byte
/// offsets `start` and `end`) and what (`message`).
#[pyclass(frozen, module = "hclwright")]
#[derive(Clone)]
struct Diagnostic {
    /// 1-based line.
    #[pyo3(get)]
    line: u32,
    /// 1-based column, in characters.
    #[pyo3(get)]
    column: u32,
    /// What is wrong.
    #[pyo3(get)]
    message: String,
    /// Byte offset of the start of the culprit.
    #[pyo3(get)]
    start: u32,
    /// Byte offset of its end.
    #[pyo3(get)]
    end: u32,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic(line={}, column={}, message={:?}, start={}, end={})",
            self.line, self.column, self.message, self.start, self.end
        )
    }

    fn __str__(&self) -> String {
        format!("{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The type of `hclwright.Unknown`, the value of an expression not known
/// until apply.
#[pyclass(frozen, module = "hclwright", name = "UnknownType")]
struct UnknownType;

#[pymethods]
impl UnknownType {
    fn __repr__(&self) -> &'static str {
        "hclwright.Unknown"
    }

    fn __bool__(&self) -> bool {
        false
    }
}

/// A binding error as an `HclError`.
fn to_py(py: Python<'_>, e: b::Error) -> PyErr {
    let err = HclError::new_err(e.to_string());
    let diagnostics: Vec<Diagnostic> = e
        .diagnostics
        .into_iter()
        .map(|d| Diagnostic {
            line: d.line,
            column: d.column,
            message: d.message,
            start: d.start,
            end: d.end,
        })
        .collect();
    let value = err.value(py);
    let _ = value.setattr("diagnostics", diagnostics);
    let _ = value.setattr("kind", format!("{:?}", e.kind).to_lowercase());
    err
}

trait OrRaise<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for b::Result<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, e))
    }
}

/// A `str` argument, or `bytes` that must be UTF-8.
fn text_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if let Ok(bytes) = obj.downcast::<PyBytes>() {
        return b::text_of(bytes.as_bytes()).map(str::to_owned).or_raise(py);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected str or bytes, found {}",
        obj.get_type().name()?
    )))
}

/// A neutral value as a Python value.
fn to_python(py: Python<'_>, v: &b::Value) -> PyResult<PyObject> {
    Ok(match v {
        b::Value::Null => py.None(),
        b::Value::Bool(x) => PyBool::new(py, *x).to_owned().into_any().unbind(),
        b::Value::Number(text) => {
            if b::Value::is_integer_text(text) {
                match text.parse::<i64>() {
                    Ok(i) => i.into_pyobject(py)?.into_any().unbind(),
                    Err(_) => py.get_type::<PyInt>().call1((text.as_str(),))?.unbind(),
                }
            } else {
                let f: f64 = text.parse().unwrap_or(f64::NAN);
                PyFloat::new(py, f).into_any().unbind()
            }
        }
        b::Value::String(s) => PyString::new(py, s).into_any().unbind(),
        b::Value::List(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any().unbind()
        }
        b::Value::Map(items) => {
            let dict = PyDict::new(py);
            for (k, item) in items {
                dict.set_item(k, to_python(py, item)?)?;
            }
            dict.into_any().unbind()
        }
        b::Value::Unknown => py.import("hclwright._native")?.getattr("Unknown")?.unbind(),
        b::Value::Sensitive(inner) => to_python(py, inner)?,
    })
}

/// A Python value (None, bool, int, float, str, list, tuple, dict with
/// str keys) as a neutral value.
fn from_python(obj: &Bound<'_, PyAny>) -> PyResult<b::Value> {
    if obj.is_none() {
        return Ok(b::Value::Null);
    }
    if let Ok(x) = obj.downcast::<PyBool>() {
        return Ok(b::Value::Bool(x.is_true()));
    }
    if obj.downcast::<PyInt>().is_ok() {
        return Ok(b::Value::Number(obj.str()?.to_cow()?.into_owned()));
    }
    if let Ok(f) = obj.downcast::<PyFloat>() {
        let v = f.value();
        if !v.is_finite() {
            return Err(PyValueError::new_err("numbers must be finite"));
        }
        return Ok(b::Value::Number(obj.repr()?.to_cow()?.into_owned()));
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(b::Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(list) = obj.downcast::<PyList>() {
        return list
            .iter()
            .map(|i| from_python(&i))
            .collect::<PyResult<_>>()
            .map(b::Value::List);
    }
    if let Ok(tuple) = obj.downcast::<PyTuple>() {
        return tuple
            .iter()
            .map(|i| from_python(&i))
            .collect::<PyResult<_>>()
            .map(b::Value::List);
    }
    if let Ok(dict) = obj.downcast::<PyDict>() {
        let mut items = Vec::new();
        for (k, v) in dict.iter() {
            let key = k
                .downcast::<PyString>()
                .map_err(|_| pyo3::exceptions::PyTypeError::new_err("dict keys must be str"))?
                .to_cow()?
                .into_owned();
            items.push((key, from_python(&v)?));
        }
        return Ok(b::Value::Map(items));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "cannot convert {} to an HCL value",
        obj.get_type().name()?
    )))
}

fn vars_arg(vars: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, b::Value)>> {
    let mut out = Vec::new();
    if let Some(vars) = vars {
        for (k, v) in vars.iter() {
            out.push((k.extract::<String>()?, from_python(&v)?));
        }
    }
    Ok(out)
}

/// Formats HCL text. `profile="hclfmt"` (default) lays out as `hclfmt`;
/// `profile="terraform"` gives `terraform fmt`'s output. Raises `HclError`
/// on syntax errors.
#[pyfunction]
#[pyo3(signature = (text, *, profile = "hclfmt"))]
fn format(py: Python<'_>, text: &Bound<'_, PyAny>, profile: &str) -> PyResult<String> {
    let text = text_arg(py, text)?;
    let profile = profile.to_owned();
    py.allow_threads(move || b::format(&text, &profile))
        .or_raise(py)
}

/// Evaluates an expression as `hclwright eval` does, in the module folder
/// `dir` (default: the current folder), with `vars` as input variables.
/// Returns Python values: `int` for integral numbers (exact), `float`
/// otherwise, `str`, `bool`, `None`, `list`, `dict`, `hclwright.Unknown`.
#[pyfunction]
#[pyo3(signature = (expr, *, dir = None, vars = None))]
fn evaluate(
    py: Python<'_>,
    expr: &Bound<'_, PyAny>,
    dir: Option<String>,
    vars: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let expr = text_arg(py, expr)?;
    let vars = vars_arg(vars)?;
    let value = py
        .allow_threads(move || b::evaluate(&expr, dir.as_deref(), &vars))
        .or_raise(py)?;
    to_python(py, &value)
}

/// What `terraform console` prints for an expression (as `evaluate`).
#[pyfunction]
#[pyo3(signature = (expr, *, dir = None, vars = None))]
fn console(
    py: Python<'_>,
    expr: &Bound<'_, PyAny>,
    dir: Option<String>,
    vars: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let expr = text_arg(py, expr)?;
    let vars = vars_arg(vars)?;
    py.allow_threads(move || b::console(&expr, dir.as_deref(), &vars))
        .or_raise(py)
}

/// The value `hcl2json` gives for an HCL text: dicts and lists.
#[pyfunction]
fn to_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let text = text_arg(py, text)?;
    let value = py.allow_threads(move || b::to_json(&text)).or_raise(py)?;
    to_python(py, &value)
}

/// Native syntax from a value (a dict as `to_json` gives) or from JSON
/// syntax text (`str` or `bytes`).
#[pyfunction]
fn to_hcl(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        let text = text_arg(py, value)?;
        return py.allow_threads(move || b::to_hcl(&text)).or_raise(py);
    }
    let value = from_python(value)?;
    py.allow_threads(move || b::value_to_hcl(&value))
        .or_raise(py)
}

/// The references of an HCL text: `[(line, column, traversal), …]`.
#[pyfunction]
fn refs(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Vec<(u32, u32, String)>> {
    let text = text_arg(py, text)?;
    let found = py.allow_threads(move || b::refs(&text)).or_raise(py)?;
    Ok(found
        .into_iter()
        .map(|r| (r.line, r.column, r.traversal))
        .collect())
}

/// The text with every reference starting with `old_prefix` renamed to
/// `new_prefix` (`var.a` → `var.b`; `[*]` matches any index).
#[pyfunction]
fn rename(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    old_prefix: String,
    new_prefix: String,
) -> PyResult<String> {
    let text = text_arg(py, text)?;
    py.allow_threads(move || b::rename(&text, &old_prefix, &new_prefix))
        .or_raise(py)
}

/// The text with `required_version` of every `terraform` block bumped to
/// `version` (a version such as `1.11.4`, or a constraint such as
/// `~> 1.9` written as given); unchanged when nothing is due. `json` reads
/// the text as the JSON syntax (`.tf.json`).
#[pyfunction]
#[pyo3(signature = (text, version, *, json = false))]
fn bump_terraform(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    version: String,
    json: bool,
) -> PyResult<String> {
    let text = text_arg(py, text)?;
    py.allow_threads(move || b::bump(&text, b::Target::Terraform, &version, false, json))
        .or_raise(py)
}

/// The text with provider `name` (local name or source) bumped to
/// `version` (a version, or a constraint written as given);
/// `keep_operator` keeps each constraint's operator (a version only);
/// `json` reads the text as the JSON syntax.
#[pyfunction]
#[pyo3(signature = (text, name, version, *, keep_operator = false, json = false))]
fn bump_provider(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    name: String,
    version: String,
    keep_operator: bool,
    json: bool,
) -> PyResult<String> {
    let text = text_arg(py, text)?;
    py.allow_threads(move || {
        b::bump(
            &text,
            b::Target::Provider(name),
            &version,
            keep_operator,
            json,
        )
    })
    .or_raise(py)
}

/// The text with Packer plugin `name` (local name or source) bumped to
/// `version` in `packer { required_plugins { … } }` (a version, or a
/// constraint written as given); `keep_operator` keeps each constraint's
/// operator (a version only); `json` reads the text as the JSON syntax.
#[pyfunction]
#[pyo3(signature = (text, name, version, *, keep_operator = false, json = false))]
fn bump_plugin(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    name: String,
    version: String,
    keep_operator: bool,
    json: bool,
) -> PyResult<String> {
    let text = text_arg(py, text)?;
    py.allow_threads(move || {
        b::bump(
            &text,
            b::Target::Plugin(name),
            &version,
            keep_operator,
            json,
        )
    })
    .or_raise(py)
}

/// The text with the module blocks whose `source` is `source` bumped to
/// `version` (a version, or a constraint written as given);
/// `keep_operator` keeps each constraint's operator (a version only);
/// `json` reads the text as the JSON syntax.
#[pyfunction]
#[pyo3(signature = (text, source, version, *, keep_operator = false, json = false))]
fn bump_module(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    source: String,
    version: String,
    keep_operator: bool,
    json: bool,
) -> PyResult<String> {
    let text = text_arg(py, text)?;
    py.allow_threads(move || {
        b::bump(
            &text,
            b::Target::Module(source),
            &version,
            keep_operator,
            json,
        )
    })
    .or_raise(py)
}

/// An HCL file under edit, by the addresses of `hclwright get/set/rm/mv`
/// (`resource.aws_instance.web.ami`, `locals.tags["Name"]`). Every byte
/// that no edit touches is kept; `str(doc)` gives the text.
#[pyclass(unsendable, module = "hclwright")]
struct Document {
    inner: b::Document,
}

fn entry_dict<'py>(py: Python<'py>, e: b::Entry) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", e.name)?;
    d.set_item("labels", e.labels)?;
    d.set_item("address", e.address)?;
    d.set_item("value", e.value)?;
    Ok(d)
}

#[pymethods]
impl Document {
    /// Parses `text` (`str` or UTF-8 `bytes`); `json=True` for the JSON
    /// syntax (`.tf.json`). Raises `HclError` on syntax errors.
    #[new]
    #[pyo3(signature = (text, *, json = false))]
    fn new(py: Python<'_>, text: &Bound<'_, PyAny>, json: bool) -> PyResult<Document> {
        let text = text_arg(py, text)?;
        let inner = b::guard(|| b::Document::parse(&text, json)).or_raise(py)?;
        Ok(Document { inner })
    }

    /// The source text of the value (or block) at `address`, or `None`.
    fn get(&self, py: Python<'_>, address: &str) -> PyResult<Option<String>> {
        b::guard(|| self.inner.get(address)).or_raise(py)
    }

    /// The source texts of everything `address` matches (with `*`).
    fn get_all(&self, py: Python<'_>, address: &str) -> PyResult<Vec<String>> {
        b::guard(|| self.inner.get_all(address)).or_raise(py)
    }

    /// Sets `address` to `source` (HCL source: `'"~> 5.0"'`, `"var.x"`),
    /// creating what is missing, as `hclwright set` does.
    fn set(&mut self, py: Python<'_>, address: &str, source: &str) -> PyResult<()> {
        b::guard(|| self.inner.set(address, source)).or_raise(py)
    }

    /// Removes what `address` designates; `False` when nothing does.
    fn remove(&mut self, py: Python<'_>, address: &str) -> PyResult<bool> {
        b::guard(|| self.inner.remove(address)).or_raise(py)
    }

    /// Renames what `address` designates, as `hclwright mv`: an attribute
    /// or key gets `new_name`; a block moves to the full address
    /// `new_name` (same type, new labels).
    fn rename(&mut self, py: Python<'_>, address: &str, new_name: &str) -> PyResult<()> {
        b::guard(|| self.inner.rename(address, new_name)).or_raise(py)
    }

    /// Appends an empty block to the body at `parent_address` (`""`: the
    /// top level).
    #[pyo3(signature = (parent_address, block_type, labels = Vec::new()))]
    fn append_block(
        &mut self,
        py: Python<'_>,
        parent_address: &str,
        block_type: &str,
        labels: Vec<String>,
    ) -> PyResult<()> {
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        b::guard(|| self.inner.append_block(parent_address, block_type, &labels)).or_raise(py)
    }

    /// A unified diff from the parsed text to the current one, with `path`
    /// in its headers (`""` when nothing changed).
    #[pyo3(signature = (path = "file.tf"))]
    fn diff(&self, py: Python<'_>, path: &str) -> PyResult<String> {
        b::guard(|| Ok(self.inner.diff(path))).or_raise(py)
    }

    /// The blocks of the body at `address` (`""`: the top level), only
    /// those of `type` when given: dicts with `name`, `labels`, `address`.
    #[pyo3(signature = (r#type = None, *, address = ""))]
    fn blocks<'py>(
        &self,
        py: Python<'py>,
        r#type: Option<&str>,
        address: &str,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let found = b::guard(|| self.inner.blocks(address, r#type)).or_raise(py)?;
        found.into_iter().map(|e| entry_dict(py, e)).collect()
    }

    /// The attributes of the body at `address` (`""`: the top level):
    /// dicts with `name`, `address`, `value` (source text).
    #[pyo3(signature = (address = ""))]
    fn attributes<'py>(&self, py: Python<'py>, address: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let found = b::guard(|| self.inner.attributes(address)).or_raise(py)?;
        found.into_iter().map(|e| entry_dict(py, e)).collect()
    }

    /// The whole text, edits applied.
    fn __str__(&self) -> String {
        self.inner.text()
    }
}

/// hclwright: lossless editing, formatting and evaluation of HCL.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("HclError", py.get_type::<HclError>())?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<UnknownType>()?;
    m.add("Unknown", Py::new(py, UnknownType)?)?;
    m.add_class::<Document>()?;
    m.add_function(wrap_pyfunction!(format, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(console, m)?)?;
    m.add_function(wrap_pyfunction!(to_json, m)?)?;
    m.add_function(wrap_pyfunction!(to_hcl, m)?)?;
    m.add_function(wrap_pyfunction!(refs, m)?)?;
    m.add_function(wrap_pyfunction!(rename, m)?)?;
    m.add_function(wrap_pyfunction!(bump_terraform, m)?)?;
    m.add_function(wrap_pyfunction!(bump_provider, m)?)?;
    m.add_function(wrap_pyfunction!(bump_module, m)?)?;
    m.add_function(wrap_pyfunction!(bump_plugin, m)?)?;
    Ok(())
}
