//! Terraform module evaluation: every `.tf` file of a folder read, input
//! variables from their defaults, `.tfvars` files, `TF_VAR_` environment
//! variables and `-var` options (with their type constraints applied),
//! locals in dependency order, `path.*` and `terraform.workspace`, and
//! resources, data sources and module calls as values known only after
//! apply.

use super::constraint::Constraint;
use super::context::EvalContext;
use super::diagnostic::Diagnostic;
use super::expr::{Evaluation, evaluate};
use super::reference_check::{
    Declared, Use, classify_use, declared_index, problems_of_every_reference, reference_problems,
};
use super::shared::{Entries, Pairs};
use super::types::Type;
use super::value::Value;
use crate::ast::{AstNode, Expr};
use crate::model::{Attribute, Body, Expression, Schema};
use smol_str::SmolStr;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use text_size::TextRange;

/// A diagnostic with the file it is about.
#[derive(Clone, Debug)]
pub struct FileDiagnostic {
    /// The file's path as given (or a name like `<value for var.x>`).
    pub path: String,
    /// The file's text, for rendering.
    pub text: Arc<str>,
    /// The problem.
    pub diagnostic: Diagnostic,
}

impl FileDiagnostic {
    fn new(path: impl Into<String>, text: Arc<str>, diagnostic: Diagnostic) -> FileDiagnostic {
        FileDiagnostic {
            path: path.into(),
            text,
            diagnostic,
        }
    }

    /// `path:line:col: summary: detail`, the line and a caret; for a
    /// problem with the whole file (no text to point into: it could not be
    /// read), `path: summary: detail`.
    ///
    /// ```
    /// use hclwright::eval::{Diagnostic, FileDiagnostic};
    /// let d = FileDiagnostic {
    ///     path: "main.tf".into(),
    ///     text: "".into(),
    ///     diagnostic: Diagnostic::new("Failed to read file", "stream did not contain valid UTF-8", Default::default()),
    /// };
    /// assert_eq!(d.render(), "main.tf: Failed to read file: stream did not contain valid UTF-8\n");
    /// ```
    pub fn render(&self) -> String {
        if self.text.is_empty() && self.diagnostic.range.is_empty() {
            return format!("{}: {}\n", self.path, self.diagnostic.message());
        }
        self.diagnostic.render(&self.path, &self.text)
    }
}

/// How input variables get their values, in Terraform's order of
/// precedence (later wins): defaults, `TF_VAR_` environment variables,
/// `terraform.tfvars`, `*.auto.tfvars`, then the `-var` and `-var-file`
/// options in the order given.
#[derive(Clone, Debug, Default)]
pub struct ModuleInputs {
    /// `-var NAME=VALUE` and `-var-file FILE` options, in the order given.
    pub options: Vec<VarOption>,
    /// `TF_VAR_name` environment variables (name without the prefix).
    pub env: Vec<(String, String)>,
    /// `terraform.workspace` (default `default`).
    pub workspace: Option<String>,
}

impl ModuleInputs {
    /// Inputs with the `TF_VAR_` and `TF_WORKSPACE` variables of this process.
    pub fn from_env() -> ModuleInputs {
        let mut inputs = ModuleInputs::default();
        for (k, v) in std::env::vars() {
            if let Some(name) = k.strip_prefix("TF_VAR_") {
                inputs.env.push((name.to_string(), v));
            } else if k == "TF_WORKSPACE" {
                inputs.workspace = Some(v);
            }
        }
        inputs
    }
}

/// A `-var` or `-var-file` option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarOption {
    /// `-var NAME=VALUE`.
    Var(String, String),
    /// `-var-file FILE`.
    File(PathBuf),
}

struct SourceFile {
    path: String,
    text: Arc<str>,
    body: Body,
}

struct VariableDecl {
    file: usize,
    constraint: Option<Constraint>,
    default: Option<Expression>,
    nullable: bool,
    sensitive: bool,
    /// `variable "NAME"`, where Terraform places a failed validation.
    def_range: TextRange,
    validations: Vec<Validation>,
}

/// A `validation` block of a variable.
struct Validation {
    condition: Option<Expression>,
    error_message: Option<Expression>,
    /// The `validation` keyword (the rule's place in the message).
    range: TextRange,
}

/// A module folder loaded and evaluated: the context its expressions see.
pub struct Module {
    /// `var`, `local`, `path`, `terraform`, resources, data and modules,
    /// and the functions.
    pub context: EvalContext,
    /// Problems with the files, the variables' values or a local's
    /// expression (by local name: see [`Module::diagnostics_for`]).
    pub diagnostics: Vec<FileDiagnostic>,
    /// The problems of each local's own expression, by index in
    /// `declared.locals`.
    local_diagnostics: Vec<Vec<FileDiagnostic>>,
    /// The declared locals each local refers to directly (indices in
    /// `declared.locals`).
    local_refs: Vec<Vec<u32>>,
    /// The declared variables each local refers to directly (indices in
    /// `declared.variables`).
    local_var_refs: Vec<Vec<u32>>,
    /// The failed validation rules of each variable.
    variable_diagnostics: BTreeMap<String, Vec<FileDiagnostic>>,
    declared: Declared,
    /// Where the locals and variables are declared (see `module_items`).
    pub(super) places: super::module_items::Places,
}

impl Module {
    /// Loads every `.tf` file of `dir` and evaluates its variables and locals
    /// in `base` (which supplies the functions).
    pub fn load(dir: &Path, inputs: &ModuleInputs, base: EvalContext) -> Module {
        let mut diagnostics = Vec::new();
        let mut files = Vec::new();
        // The `.tf` and `.tf.json` files, override files last, as
        // Terraform merges them (as `SourceFile::load_dir` lists them).
        let names = crate::refs::module_file_paths(dir).unwrap_or_default();
        for path in names {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let json = name.ends_with(".tf.json");
            let display = path.display().to_string();
            let Some(text) = read_text(&path, "Failed to read file", &mut diagnostics) else {
                continue;
            };
            let (body, errors) = if json {
                let parse = crate::json::parse(&text);
                (Body::from_json(&parse), parse.errors().to_vec())
            } else {
                let parse = crate::parse(&text);
                (Body::from_native(&parse), parse.errors().to_vec())
            };
            for e in errors {
                diagnostics.push(FileDiagnostic::new(
                    display.clone(),
                    text.clone(),
                    Diagnostic::new("Invalid syntax", e.message, e.range),
                ));
            }
            files.push(SourceFile {
                path: display,
                text,
                body,
            });
        }

        // Declarations.
        let top = Schema::new()
            .block("variable", &["name"])
            .block("locals", &[])
            .block("resource", &["type", "name"])
            .block("data", &["type", "name"])
            .block("module", &["name"]);
        // A variable's `validation` blocks.
        let validation = Schema::new().block("validation", &[]);
        let mut variables: BTreeMap<String, VariableDecl> = BTreeMap::new();
        let mut locals: BTreeMap<String, (usize, Expression)> = BTreeMap::new();
        let mut resources: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut data: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut modules: BTreeSet<String> = BTreeSet::new();
        let mut places = super::module_items::Places::default();
        for (i, file) in files.iter().enumerate() {
            let report = |diagnostics: &mut Vec<FileDiagnostic>, d: Diagnostic| {
                diagnostics.push(FileDiagnostic::new(file.path.clone(), file.text.clone(), d));
            };
            let (content, ds) = file.body.partial_content_only(&top);
            for d in ds {
                report(&mut diagnostics, d);
            }
            for block in content.blocks {
                places.block(i, &file.path, &file.text, &block);
                let body = &block.body;
                match (block.type_name.as_str(), block.labels.as_slice()) {
                    ("variable", [name]) => {
                        let [type_attr, default, nullable, sensitive] =
                            body.attributes_named(["type", "default", "nullable", "sensitive"]);
                        let constraint = match type_attr {
                            Some(a) => match type_constraint(&a.expr) {
                                Ok(c) => Some(c),
                                Err(message) => {
                                    report(
                                        &mut diagnostics,
                                        Diagnostic::new(
                                            "Invalid type specification",
                                            message,
                                            a.expr.range(),
                                        ),
                                    );
                                    None
                                }
                            },
                            None => None,
                        };
                        let keyword = |a: Option<Attribute>| a.and_then(|a| a.expr.as_keyword());
                        let decl = VariableDecl {
                            file: i,
                            constraint,
                            default: default.map(|a| a.expr),
                            nullable: keyword(nullable).is_none_or(|k| k != "false"),
                            sensitive: keyword(sensitive).is_some_and(|k| k == "true"),
                            def_range: block.type_range.cover(
                                block
                                    .label_ranges
                                    .last()
                                    .copied()
                                    .unwrap_or(block.type_range),
                            ),
                            validations: validations(body, &validation),
                        };
                        if let (false, Some(default)) = (decl.nullable, &decl.default)
                            && default.evaluate(&EvalContext::new()).value.is_null()
                        {
                            report(
                                &mut diagnostics,
                                Diagnostic::new(
                                    "Invalid default value for variable",
                                    "A null default value is not valid when nullable=false.",
                                    default.range(),
                                ),
                            );
                        }
                        variables.insert(name.clone(), decl);
                    }
                    ("locals", []) => {
                        let (attributes, ds) = body.just_attributes();
                        for d in ds {
                            report(&mut diagnostics, d);
                        }
                        for (name, attr) in attributes {
                            places.local(i, &name, attr.name_range);
                            locals.insert(name, (i, attr.expr));
                        }
                    }
                    ("resource", [ty, name]) => {
                        resources
                            .entry(ty.clone())
                            .or_default()
                            .insert(name.clone());
                    }
                    ("data", [ty, name]) => {
                        data.entry(ty.clone()).or_default().insert(name.clone());
                    }
                    ("module", [name]) => {
                        modules.insert(name.clone());
                    }
                    _ => {}
                }
            }
        }

        // Input variables.
        let empty = EvalContext::new();
        let mut raw: BTreeMap<String, (Value, String, Arc<str>, Diagnostic)> = BTreeMap::new();
        let mut set_raw =
            |name: &str, value: Value, path: &str, text: &Arc<str>, at: Diagnostic| {
                raw.insert(
                    name.to_string(),
                    (value, path.to_string(), text.clone(), at),
                );
            };
        let declared = |name: &str| variables.get(name);
        for (name, text) in &inputs.env {
            if let Some(decl) = declared(name) {
                let label = format!("<value for var.{name}>");
                let (v, d) = string_input(text, decl.constraint.as_ref(), &empty);
                let text: Arc<str> = text.as_str().into();
                match d {
                    Some(diag) => diagnostics.push(FileDiagnostic {
                        path: label,
                        text,
                        diagnostic: diag,
                    }),
                    None => set_raw(
                        name,
                        v,
                        &label,
                        &text,
                        Diagnostic::new("", "", Default::default()),
                    ),
                }
            }
        }
        let mut tfvars: Vec<PathBuf> = Vec::new();
        for main in ["terraform.tfvars", "terraform.tfvars.json"] {
            let path = dir.join(main);
            if path.is_file() {
                tfvars.push(path);
            }
        }
        let mut autos: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
        autos.retain(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json"))
        });
        autos.sort();
        tfvars.extend(autos);
        let mut order: Vec<Input> = tfvars.into_iter().map(Input::File).collect();
        order.extend(inputs.options.iter().map(|o| match o {
            VarOption::Var(n, v) => Input::Var(n.clone(), v.clone()),
            VarOption::File(p) => Input::File(p.clone()),
        }));
        for input in order {
            match input {
                Input::File(path) => {
                    let display = path.display().to_string();
                    let Some(text) =
                        read_text(&path, "Failed to read variables file", &mut diagnostics)
                    else {
                        continue;
                    };
                    if display.ends_with(".json") {
                        // JSON variable files: one property per variable.
                        match serde_json::from_str::<serde_json::Value>(&text) {
                            Ok(serde_json::Value::Object(map)) => {
                                for (name, v) in map {
                                    if declared(&name).is_some() {
                                        let value = super::functions::encoding::from_json(&v);
                                        set_raw(
                                            &name,
                                            value,
                                            &display,
                                            &text,
                                            Diagnostic::new("", "", Default::default()),
                                        );
                                    }
                                }
                            }
                            Ok(_) => diagnostics.push(FileDiagnostic::new(
                                display.clone(),
                                text.clone(),
                                Diagnostic::new(
                                    "Invalid variables file",
                                    "The root of a JSON variables file must be an object.",
                                    Default::default(),
                                ),
                            )),
                            Err(e) => {
                                let offset = json_offset(&text, e.line(), e.column());
                                diagnostics.push(FileDiagnostic::new(
                                    display.clone(),
                                    text.clone(),
                                    Diagnostic::new(
                                        "Invalid JSON",
                                        e.to_string(),
                                        TextRange::empty(offset),
                                    ),
                                ));
                            }
                        }
                        continue;
                    }
                    let parse = crate::parse(&text);
                    for e in parse.errors() {
                        diagnostics.push(FileDiagnostic::new(
                            display.clone(),
                            text.clone(),
                            Diagnostic::new("Invalid syntax", e.message.clone(), e.range),
                        ));
                    }
                    let Some(body) = parse.body() else { continue };
                    for attr in body.attributes() {
                        let (Some(name), Some(expr)) = (attr.name(), attr.expr()) else {
                            continue;
                        };
                        if declared(&name).is_none() {
                            continue;
                        }
                        let r = evaluate(&expr, &empty);
                        if r.diagnostics.is_empty() {
                            set_raw(
                                &name,
                                r.value,
                                &display,
                                &text,
                                Diagnostic::new("", "", expr.syntax().text_range()),
                            );
                        } else {
                            for d in r.diagnostics {
                                diagnostics.push(FileDiagnostic::new(
                                    display.clone(),
                                    text.clone(),
                                    d,
                                ));
                            }
                        }
                    }
                }
                Input::Var(name, text) => {
                    let label = format!("<value for var.{name}>");
                    let arc: Arc<str> = text.as_str().into();
                    let Some(decl) = declared(&name) else {
                        diagnostics.push(FileDiagnostic::new(label, arc, Diagnostic::new(
                                "Value for undeclared variable",
                                format!("A variable named {} was assigned on the command line, but the root module does not declare a variable of that name.", super::go_quote(&name)),
                                Default::default(),
                            )));
                        continue;
                    };
                    let (v, d) = string_input(&text, decl.constraint.as_ref(), &empty);
                    match d {
                        Some(diag) => diagnostics.push(FileDiagnostic::new(label, arc, diag)),
                        None => set_raw(
                            &name,
                            v,
                            &label,
                            &arc,
                            Diagnostic::new("", "", Default::default()),
                        ),
                    }
                }
            }
        }
        let mut var_values = BTreeMap::new();
        for (name, decl) in &variables {
            let file = &files[decl.file];
            let given = raw.remove(name);
            let (value, path, text, range) = match given {
                Some((v, p, t, d)) => (v, p, t, d.range),
                None => match &decl.default {
                    Some(e) => {
                        let r = e.evaluate(&empty);
                        for d in &r.diagnostics {
                            diagnostics.push(FileDiagnostic::new(
                                file.path.clone(),
                                file.text.clone(),
                                d.clone(),
                            ));
                        }
                        (r.value, file.path.clone(), file.text.clone(), e.range())
                    }
                    None => {
                        // No value: Terraform would ask for one; it is unknown here.
                        var_values.insert(
                            name.as_str().into(),
                            Value::Unknown(
                                decl.constraint
                                    .as_ref()
                                    .map_or(Type::Dynamic, Constraint::to_type),
                            ),
                        );
                        continue;
                    }
                },
            };
            let value = if value.is_null() && !decl.nullable {
                match &decl.default {
                    Some(e) => e.evaluate(&empty).value,
                    None => value,
                }
            } else {
                value
            };
            let value = match &decl.constraint {
                Some(c) => match c.apply(&value) {
                    Ok(v) => v,
                    Err(err) => {
                        diagnostics.push(FileDiagnostic {
                            path,
                            text,
                            diagnostic: Diagnostic::new(
                                "Invalid value for input variable",
                                format!("The given value is not suitable for var.{name}: {err}."),
                                range,
                            ),
                        });
                        Value::Unknown(c.to_type())
                    }
                },
                None => value,
            };
            // `sensitive = true`: the value is shown as `(sensitive value)`.
            var_values.insert(name.as_str().into(), value.mark_if(decl.sensitive));
        }

        // The context locals see.
        let mut ctx = EvalContext::with_parent(Arc::new(base));
        ctx.set_variable("var", Value::Object(var_values.into()));
        // As `terraform -chdir=DIR console`: the module is the working folder.
        let cwd = std::fs::canonicalize(dir)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| dir.display().to_string());
        let mut path_obj = BTreeMap::new();
        path_obj.insert("module".into(), Value::string("."));
        path_obj.insert("root".into(), Value::string("."));
        path_obj.insert("cwd".into(), Value::string(cwd));
        ctx.set_variable("path", Value::Object(path_obj.into()));
        let mut tf = BTreeMap::new();
        tf.insert(
            "workspace".into(),
            Value::string(inputs.workspace.clone().unwrap_or_else(|| "default".into())),
        );
        ctx.set_variable("terraform", Value::Object(tf.into()));
        let unknown_names = |names: &BTreeSet<String>| {
            Value::Object(
                names
                    .iter()
                    .map(|n| (n.as_str().into(), Value::Unknown(Type::Dynamic)))
                    .collect(),
            )
        };
        for (ty, names) in &resources {
            ctx.set_variable(ty.clone(), unknown_names(names));
        }
        if !data.is_empty() {
            ctx.set_variable(
                "data",
                Value::Object(
                    data.iter()
                        .map(|(t, n)| (t.as_str().into(), unknown_names(n)))
                        .collect(),
                ),
            );
        }
        if !modules.is_empty() {
            ctx.set_variable("module", unknown_names(&modules));
        }

        // The locals by index, in name order: `declared.locals[i]` and
        // `local_items[i]`.
        let (local_names, local_items): (Vec<String>, Vec<(usize, Expression)>) =
            locals.into_iter().unzip();
        let declared = Declared {
            locals: local_names,
            variables: variables.keys().cloned().collect(),
        };
        // Locals, each after the locals it refers to. One walk of each
        // local finds the locals and variables it names and whether its
        // references may have a problem.
        let scans: Vec<LocalScan> = local_items
            .iter()
            .map(|(_, expr)| scan_local(expr, &declared))
            .collect();
        let mut values: Vec<Option<Value>> = vec![None; local_items.len()];
        let keys: Vec<SmolStr> = declared.locals.iter().map(SmolStr::from).collect();
        let mut local_diagnostics: Vec<Vec<FileDiagnostic>> = vec![Vec::new(); local_items.len()];
        let mut seen: Vec<u32> = Vec::new();
        for step in evaluation_order(&scans) {
            match step {
                Step::Evaluate(n) => {
                    let n = n as usize;
                    let (file, expr) = &local_items[n];
                    let file = &files[*file];
                    // As Terraform, a local whose references are wrong is
                    // not evaluated, and the module is in error.
                    let problems = match expr {
                        Expression::Native(e) if !scans[n].all_known => {
                            problems_of_every_reference(e, &declared)
                        }
                        _ => Vec::new(),
                    };
                    diagnostics.extend(problems.iter().map(|d| {
                        FileDiagnostic::new(file.path.clone(), file.text.clone(), d.clone())
                    }));
                    let Evaluation {
                        value,
                        diagnostics: ds,
                    } = if problems.is_empty() {
                        // The checks leave `local.NAME` as the only way to
                        // a local, so the locals it names are all it sees
                        // (not a copy of every local before it). Indices
                        // in order are names in order.
                        seen.clear();
                        seen.extend(&scans[n].locals);
                        seen.sort_unstable();
                        seen.dedup();
                        let pairs = seen
                            .iter()
                            .filter_map(|&r| {
                                let r = r as usize;
                                values[r].as_ref().map(|v| (keys[r].clone(), v.clone()))
                            })
                            .collect();
                        ctx.set_variable("local", Value::Object(Entries::from_pairs(pairs)));
                        expr.evaluate(&ctx)
                    } else {
                        Evaluation {
                            value: Value::Unknown(Type::Dynamic),
                            diagnostics: problems,
                        }
                    };
                    values[n] = Some(value);
                    local_diagnostics[n].extend(
                        ds.into_iter()
                            .map(|d| FileDiagnostic::new(file.path.clone(), file.text.clone(), d)),
                    );
                }
                Step::Cycle(members, n) => {
                    let (file, expr) = &local_items[n as usize];
                    let file = &files[*file];
                    let names: Vec<String> = members
                        .iter()
                        .map(|&c| format!("local.{}", declared.locals[c as usize]))
                        .collect();
                    let diagnostic = Diagnostic::new("Cycle", names.join(", "), expr.range());
                    for m in members {
                        let m = m as usize;
                        local_diagnostics[m].push(FileDiagnostic::new(
                            file.path.clone(),
                            file.text.clone(),
                            diagnostic.clone(),
                        ));
                        values[m] = Some(Value::Unknown(Type::Dynamic));
                    }
                }
            }
        }
        let values: Pairs = keys
            .into_iter()
            .zip(values)
            .filter_map(|(k, v)| Some((k, v?)))
            .collect();
        ctx.set_variable("local", Value::Object(Entries::from_pairs(values)));
        let (local_refs, local_var_refs) =
            scans.into_iter().map(|s| (s.locals, s.variables)).unzip();
        // Validation rules, in the module's whole context (a rule may
        // refer to other variables and to locals, as since Terraform 1.9).
        let mut variable_diagnostics = BTreeMap::new();
        for (name, decl) in &variables {
            let file = &files[decl.file];
            let failed: Vec<FileDiagnostic> = decl
                .validations
                .iter()
                .flat_map(|rule| check_validation(rule, decl, &file.path, &file.text, &ctx))
                .map(|d| FileDiagnostic::new(file.path.clone(), file.text.clone(), d))
                .collect();
            if !failed.is_empty() {
                variable_diagnostics.insert(name.clone(), failed);
            }
        }
        Module {
            context: ctx,
            diagnostics,
            local_diagnostics,
            local_refs,
            local_var_refs,
            variable_diagnostics,
            declared,
            places,
        }
    }

    /// The problems Terraform finds in the references of `expr` before
    /// evaluating it: `local`, `var`, `path` or `terraform` not followed by
    /// an attribute (`local`, `var["x"]`), a local or variable the module
    /// does not declare, an attribute `path` or `terraform` does not have.
    ///
    /// ```
    /// use hclwright::ast::{AstNode, Expr};
    /// use hclwright::eval::{EvalContext, Module, ModuleInputs};
    /// let dir = std::env::temp_dir().join("hclwright-doc-reference-problems");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("main.tf"), "locals {\n  name = \"web\"\n}\n").unwrap();
    /// let module = Module::load(&dir, &ModuleInputs::default(), EvalContext::new());
    /// let parse = hclwright::parse_expr("local.nme");
    /// let expr = parse.syntax().descendants().find_map(Expr::cast).unwrap();
    /// let problems = module.reference_problems(&expr);
    /// assert_eq!(problems[0].summary, "Reference to undeclared local value");
    /// assert!(problems[0].detail.ends_with("Did you mean \"name\"?"));
    /// ```
    pub fn reference_problems(&self, expr: &Expr) -> Vec<Diagnostic> {
        reference_problems(expr, &self.declared)
    }

    /// The problems of the locals `expr` refers to, directly or through
    /// other locals, and the failed `validation` rules of the variables
    /// it refers to (directly or through those locals): Terraform's
    /// "Invalid value for variable", placed at the `variable` block.
    pub fn diagnostics_for(&self, expr: &Expr) -> Vec<FileDiagnostic> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<u32> = local_references(expr)
            .iter()
            .filter_map(|n| declared_index(&self.declared.locals, n))
            .collect();
        let mut vars: BTreeSet<&str> = BTreeSet::new();
        let mut direct = Vec::new();
        crate::model::references_under_in(expr.syntax(), "var", &mut direct);
        vars.extend(direct.iter().map(String::as_str));
        let mut out = Vec::new();
        while let Some(n) = todo.pop() {
            if !seen.insert(n) {
                continue;
            }
            let n = n as usize;
            out.extend(self.local_diagnostics[n].iter().cloned());
            todo.extend(&self.local_refs[n]);
            vars.extend(
                self.local_var_refs[n]
                    .iter()
                    .map(|&v| self.declared.variables[v as usize].as_str()),
            );
        }
        for v in vars {
            if let Some(ds) = self.variable_diagnostics.get(v) {
                out.extend(ds.iter().cloned());
            }
        }
        out
    }
}

enum Input {
    File(PathBuf),
    Var(String, String),
}

#[derive(Clone, Copy, PartialEq)]
enum Visit {
    Unseen,
    InProgress,
    Done,
}

/// A step of evaluating the locals (by index in `Declared::locals`).
enum Step {
    Evaluate(u32),
    /// The members of a cycle (in name order), and the local that closed
    /// it.
    Cycle(Vec<u32>, u32),
}

/// The locals in an order to evaluate them: depth-first from each local in
/// name order, the locals one needs (in the order it names them) before
/// it; a cycle is one step for all its members. With a stack of its own,
/// so a long chain of locals needs no call stack.
fn evaluation_order(scans: &[LocalScan]) -> Vec<Step> {
    let mut state = vec![Visit::Unseen; scans.len()];
    let mut steps = Vec::with_capacity(scans.len());
    // Each local being visited, and how many of its references are done.
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..scans.len() as u32 {
        if state[root as usize] != Visit::Unseen {
            continue;
        }
        state[root as usize] = Visit::InProgress;
        stack.push((root, 0));
        while let Some((local, next)) = stack.last_mut() {
            let local = *local;
            let refs = &scans[local as usize].locals;
            if let Some(&dep) = refs.get(*next) {
                *next += 1;
                match state[dep as usize] {
                    Visit::Done => {}
                    Visit::Unseen => {
                        state[dep as usize] = Visit::InProgress;
                        stack.push((dep, 0));
                    }
                    Visit::InProgress => {
                        // `dep` is on the stack: it and the locals above it
                        // are a cycle.
                        let start = stack.iter().position(|&(l, _)| l == dep).unwrap_or(0);
                        let mut members: Vec<u32> =
                            stack[start..].iter().map(|&(l, _)| l).collect();
                        members.sort_unstable();
                        for &m in &members {
                            state[m as usize] = Visit::Done;
                        }
                        steps.push(Step::Cycle(members, dep));
                    }
                }
                continue;
            }
            stack.pop();
            if state[local as usize] == Visit::InProgress {
                steps.push(Step::Evaluate(local));
                state[local as usize] = Visit::Done;
            }
        }
    }
    steps
}

/// The `validation` blocks of a variable's body.
/// `schema` names the `validation` block type alone.
fn validations(body: &Body, schema: &Schema) -> Vec<Validation> {
    let (content, _) = body.partial_content_only(schema);
    content
        .blocks
        .into_iter()
        .map(|b| {
            let [condition, error_message] =
                b.body.attributes_named(["condition", "error_message"]);
            Validation {
                condition: condition.map(|a| a.expr),
                error_message: error_message.map(|a| a.expr),
                range: b.type_range,
            }
        })
        .collect()
}

/// The problems one validation rule finds: none when its condition holds
/// or is not known yet; the errors of its condition; or Terraform's
/// "Invalid value for variable" with the rule's message and place.
fn check_validation(
    rule: &Validation,
    decl: &VariableDecl,
    path: &str,
    text: &str,
    ctx: &EvalContext,
) -> Vec<Diagnostic> {
    let Some(condition) = &rule.condition else {
        return Vec::new();
    };
    let result = condition.evaluate(ctx);
    if !result.diagnostics.is_empty() {
        return result.diagnostics;
    }
    let invalid = |detail: String| {
        vec![Diagnostic::new(
            "Invalid variable validation result",
            detail,
            condition.range(),
        )]
    };
    let value = result.value.unmarked_deep();
    match value {
        Value::Unknown(_) => Vec::new(),
        Value::Null(_) => invalid(
            "Validation condition expression must return either true or false, not null.".into(),
        ),
        other => match super::convert::convert(&other, &Type::Bool) {
            Ok(Value::Bool(true)) | Ok(Value::Unknown(_)) => Vec::new(),
            Ok(_) => {
                let message = match &rule.error_message {
                    Some(e) => {
                        let r = e.evaluate(ctx);
                        if !r.diagnostics.is_empty() {
                            return r.diagnostics;
                        }
                        match (r.value.contains_sensitive(), r.value.unmarked_deep()) {
                            (true, _) => "The error message included a sensitive value, so it will not be displayed.".to_string(),
                            (false, Value::String(s)) => s.to_string(),
                            (false, Value::Unknown(_)) => "The error message is not known yet.".to_string(),
                            (false, v) => super::display::console_string(&v),
                        }
                    }
                    None => "The value did not pass a validation rule.".to_string(),
                };
                let (line, col) = crate::syntax_error::line_col(text, rule.range.start());
                let (end_line, end_col) = crate::syntax_error::line_col(text, rule.range.end());
                let place = if line == end_line {
                    format!("{path}:{line},{col}-{end_col}")
                } else {
                    format!("{path}:{line},{col}-{end_line},{end_col}")
                };
                vec![Diagnostic::new(
                    "Invalid value for variable",
                    format!("{message} This was checked by the validation rule at {place}."),
                    decl.def_range,
                )]
            }
            Err(err) => invalid(format!("Invalid validation condition result value: {err}.")),
        },
    }
}

/// What one walk of a local's expression finds.
struct LocalScan {
    /// The declared locals it names (`local.NAME`), by index in
    /// `Declared::locals`, in the order of the text.
    locals: Vec<u32>,
    /// The declared input variables it names (`var.NAME`), by index in
    /// `Declared::variables`.
    variables: Vec<u32>,
    /// True when its references can have no problem (see
    /// `reference_check::classify_use`); JSON has none to check.
    all_known: bool,
}

/// The locals and variables `expr` names and whether its references can
/// have no problem, in one walk of its green tree.
fn scan_local(expr: &Expression, declared: &Declared) -> LocalScan {
    let Expression::Native(e) = expr else {
        let index = |names: &[String], found: Vec<String>| -> Vec<u32> {
            found
                .iter()
                .filter_map(|n| declared_index(names, n))
                .collect()
        };
        return LocalScan {
            locals: index(&declared.locals, expr.local_references()),
            variables: index(&declared.variables, expr.references_under("var")),
            all_known: true,
        };
    };
    let mut scan = LocalScan {
        locals: Vec::new(),
        variables: Vec::new(),
        all_known: true,
    };
    crate::model::each_variable_under(e.syntax(), |name, parent| {
        match classify_use(name, parent, declared) {
            Use::Fine => {}
            Use::Problem => scan.all_known = false,
            Use::Declared(i) if name == "local" => scan.locals.push(i),
            Use::Declared(i) => scan.variables.push(i),
        }
    });
    scan
}

/// The names of the locals an expression refers to (`local.NAME`).
pub fn local_references(expr: &Expr) -> Vec<String> {
    let mut out = Vec::new();
    crate::model::local_references_in(expr.syntax(), &mut out);
    out
}

/// A value given as a string (`-var`, `TF_VAR_`): taken literally for a
/// primitive type, read as an expression otherwise.
fn string_input(
    text: &str,
    constraint: Option<&Constraint>,
    ctx: &EvalContext,
) -> (Value, Option<Diagnostic>) {
    // Without a type, or with a primitive one, the text is the value.
    let literal = match constraint {
        None => true,
        Some(Constraint::Type(t)) => t.is_primitive(),
        Some(_) => false,
    };
    if literal {
        return (Value::string(text), None);
    }
    match super::evaluate_str(text, ctx) {
        Ok(v) => (v, None),
        Err(mut ds) => (Value::Unknown(Type::Dynamic), Some(ds.remove(0))),
    }
}

/// The byte offset of a 1-based line and column (in bytes) as serde_json
/// reports them.
fn json_offset(text: &str, line: usize, column: usize) -> text_size::TextSize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let offset = (start + column.saturating_sub(1)).min(text.len());
    text_size::TextSize::from(offset as u32)
}

/// The type constraint an expression gives: a native type expression, or
/// in JSON a string holding one (`"list(string)"`).
fn type_constraint(expr: &Expression) -> Result<Constraint, String> {
    match expr {
        Expression::Native(e) => Constraint::from_expr(e),
        Expression::Json(_) => {
            let parse = expr
                .json_string_as_expr()
                .ok_or("A type constraint in JSON is a string holding a type expression.")?;
            if let Some(e) = parse.errors().first() {
                return Err(e.message.clone());
            }
            let e = parse
                .syntax()
                .descendants()
                .find_map(Expr::cast)
                .ok_or("expected a type expression")?;
            Constraint::from_expr(&e)
        }
    }
}

/// A file's text, or a diagnostic saying why it could not be read.
fn read_text(
    path: &Path,
    summary: &str,
    diagnostics: &mut Vec<FileDiagnostic>,
) -> Option<Arc<str>> {
    match std::fs::read_to_string(path) {
        Ok(t) => Some(t.into()),
        Err(e) => {
            let d = Diagnostic::new(summary, e.to_string(), Default::default());
            diagnostics.push(FileDiagnostic::new(
                path.display().to_string(),
                "".into(),
                d,
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scans(refs: &[Vec<u32>]) -> Vec<LocalScan> {
        refs.iter()
            .map(|r| LocalScan {
                locals: r.clone(),
                variables: Vec::new(),
                all_known: true,
            })
            .collect()
    }

    /// Steps as text: `e3` evaluates local 3, `c[1, 2]@2` is a cycle.
    fn shown(steps: &[Step]) -> Vec<String> {
        steps
            .iter()
            .map(|s| match s {
                Step::Evaluate(n) => format!("e{n}"),
                Step::Cycle(members, n) => format!("c{members:?}@{n}"),
            })
            .collect()
    }

    /// The order as a recursive depth-first visit gives it (the definition
    /// `evaluation_order` follows with a stack of its own).
    fn by_recursion(refs: &[Vec<u32>]) -> Vec<String> {
        fn visit(
            n: u32,
            refs: &[Vec<u32>],
            state: &mut [Visit],
            stack: &mut Vec<u32>,
            out: &mut Vec<String>,
        ) {
            match state[n as usize] {
                Visit::Done => return,
                Visit::InProgress => {
                    let start = stack.iter().position(|&s| s == n).unwrap();
                    let mut members = stack[start..].to_vec();
                    members.sort();
                    for &m in &members {
                        state[m as usize] = Visit::Done;
                    }
                    out.push(format!("c{members:?}@{n}"));
                    return;
                }
                Visit::Unseen => {}
            }
            state[n as usize] = Visit::InProgress;
            stack.push(n);
            for &dep in &refs[n as usize] {
                if state[dep as usize] != Visit::Done {
                    visit(dep, refs, state, stack, out);
                }
            }
            stack.pop();
            if state[n as usize] == Visit::InProgress {
                out.push(format!("e{n}"));
                state[n as usize] = Visit::Done;
            }
        }
        let mut state = vec![Visit::Unseen; refs.len()];
        let mut out = Vec::new();
        for n in 0..refs.len() as u32 {
            visit(n, refs, &mut state, &mut Vec::new(), &mut out);
        }
        out
    }

    #[test]
    fn evaluation_order_is_the_depth_first_order_with_cycles_as_one_step() {
        // 0 needs 2 and 1; 1 needs 2; 3 and 4 need each other; 5 itself.
        let refs = vec![vec![2, 1], vec![2], vec![], vec![4], vec![3, 0], vec![5]];
        assert_eq!(
            shown(&evaluation_order(&scans(&refs))),
            ["e2", "e1", "e0", "c[3, 4]@3", "c[5]@5"]
        );
    }

    /// Graphs of one to nine locals, each naming up to three (the same one
    /// twice and itself included).
    fn any_graph() -> impl proptest::strategy::Strategy<Value = Vec<Vec<u32>>> {
        use proptest::prelude::*;
        (1..10usize).prop_flat_map(|n| {
            proptest::collection::vec(proptest::collection::vec(0..n as u32, 0..4), n)
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// Any graph gets the recursive definition's order.
        #[test]
        fn evaluation_order_of_any_graph_is_the_recursive_definitions(refs in any_graph()) {
            proptest::prop_assert_eq!(
                shown(&evaluation_order(&scans(&refs))),
                by_recursion(&refs),
                "{:?}",
                refs
            );
        }
    }

    /// A chain of a million locals, each naming the next, on a thread with
    /// a small stack: the order needs no call per local.
    #[test]
    fn a_long_chain_of_locals_needs_no_call_stack() {
        std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(|| {
                let n = 1_000_000u32;
                let refs: Vec<Vec<u32>> = (0..n)
                    .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
                    .collect();
                let steps = evaluation_order(&scans(&refs));
                assert_eq!(steps.len(), n as usize);
                assert!(matches!(steps[0], Step::Evaluate(l) if l == n - 1));
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
