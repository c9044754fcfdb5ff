//! A loaded [`Module`]'s locals and input variables one by one: their
//! values in declaration order and the problems of each.

use super::module::{FileDiagnostic, Module};
use super::value::Value;
use crate::ast::{AstNode, Expr};
use crate::model::Block;
use text_size::{TextRange, TextSize};

/// Where the locals and variables of a module are declared.
#[derive(Clone, Debug, Default)]
pub(crate) struct Places {
    /// Each local: file position, where its name is, its name.
    locals: Vec<(usize, TextSize, String)>,
    /// Each variable: file position, its file's path, its block's extent.
    variables: Vec<(usize, String, TextRange, String)>,
    /// The start of every block the module reads, by file, and the length
    /// of each file's text.
    starts: Vec<(usize, TextSize)>,
    ends: Vec<(usize, TextSize)>,
}

impl Places {
    /// Notes a top-level block of file `file` (a variable's is kept by name).
    pub(crate) fn block(&mut self, file: usize, path: &str, text: &str, block: &Block) {
        let start = block.type_range.start();
        self.starts.push((file, start));
        if !self.ends.iter().any(|(f, _)| *f == file) {
            self.ends.push((file, TextSize::from(text.len() as u32)));
        }
        if let ("variable", [name]) = (block.type_name.as_str(), block.labels.as_slice()) {
            self.variables.push((
                file,
                path.to_string(),
                TextRange::empty(start),
                name.clone(),
            ));
        }
    }

    /// Notes a local of file `file` whose name is at `range`.
    pub(crate) fn local(&mut self, file: usize, name: &str, range: TextRange) {
        self.locals.push((file, range.start(), name.to_string()));
    }

    /// The locals' names in declaration order (files in the order read,
    /// then source order; a name declared twice is listed once, where
    /// Terraform keeps it).
    fn local_names(&self) -> Vec<&str> {
        let mut order: Vec<&(usize, TextSize, String)> = self.locals.iter().collect();
        order.sort_by_key(|(f, at, _)| (*f, *at));
        let mut seen = std::collections::BTreeSet::new();
        order
            .into_iter()
            .map(|(_, _, n)| n.as_str())
            .filter(|n| seen.insert(*n))
            .collect()
    }

    /// A variable's block: from its type to the next block the module
    /// reads in the same file (or the end of the file).
    fn variable_extent(&self, name: &str) -> Option<(&str, TextRange)> {
        let (file, path, at, _) = self.variables.iter().rev().find(|v| v.3 == name)?;
        let start = at.start();
        let end = self
            .starts
            .iter()
            .filter(|(f, s)| f == file && *s > start)
            .map(|(_, s)| *s)
            .min()
            .or_else(|| self.ends.iter().find(|(f, _)| f == file).map(|(_, e)| *e))
            .unwrap_or(start);
        Some((path.as_str(), TextRange::new(start, end.max(start))))
    }
}

impl Module {
    /// Every local value, in declaration order, with its value (unknown
    /// when it could not be evaluated: see [`Module::local_diagnostics`]).
    ///
    /// ```
    /// use hclwright::eval::{EvalContext, Module, ModuleInputs, console_string};
    /// let dir = std::env::temp_dir().join("hclwright-doc-module-locals");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(
    ///     dir.join("main.tf"),
    ///     "variable \"env\" {\n  default = \"prod\"\n}\nlocals {\n  name   = \"web-${var.env}\"\n  broken = local.nope\n  upper  = upper(local.name)\n}\n",
    /// )
    /// .unwrap();
    /// let module = Module::load(&dir, &ModuleInputs::default(), EvalContext::new().with_terraform_functions());
    /// let shown: Vec<String> = module
    ///     .locals()
    ///     .map(|(name, value)| format!("{name} = {}", console_string(value)))
    ///     .collect();
    /// assert_eq!(shown, ["name = \"web-prod\"", "broken = (known after apply)", "upper = \"WEB-PROD\""]);
    /// let problems = module.local_diagnostics("broken");
    /// assert_eq!(problems[0].diagnostic.summary, "Reference to undeclared local value");
    /// assert!(module.local_diagnostics("upper").is_empty());
    /// let vars: Vec<(&str, String)> = module.variables().map(|(n, v)| (n, console_string(v))).collect();
    /// assert_eq!(vars, [("env", "\"prod\"".to_string())]);
    /// ```
    pub fn locals(&self) -> impl Iterator<Item = (&str, &Value)> + '_ {
        let values = self.context.variable("local");
        self.places
            .local_names()
            .into_iter()
            .filter_map(move |name| match values {
                Some(Value::Object(map)) => map.get(name).map(|v| (name, v)),
                _ => None,
            })
    }

    /// The problems of the local `name`: those of its own expression and
    /// those of the locals it refers to, directly or through other locals
    /// (as [`Module::diagnostics_for`] gives them for `local.NAME`). Empty
    /// for a local that evaluated cleanly, or that is not declared.
    pub fn local_diagnostics(&self, name: &str) -> Vec<FileDiagnostic> {
        if !crate::refs::is_identifier(name) {
            return Vec::new();
        }
        let parse = crate::parse_expr(&format!("local.{name}"));
        match parse.syntax().descendants().find_map(Expr::cast) {
            Some(expr) => self.diagnostics_for(&expr),
            None => Vec::new(),
        }
    }

    /// Every input variable, in declaration order, with the value the
    /// module sees (`var.NAME`: after defaults, `.tfvars`, environment and
    /// options, with its type constraint applied; unknown when no value
    /// was given).
    pub fn variables(&self) -> impl Iterator<Item = (&str, &Value)> + '_ {
        let values = self.context.variable("var");
        let mut order: Vec<&(usize, String, TextRange, String)> =
            self.places.variables.iter().collect();
        order.sort_by_key(|(f, _, at, _)| (*f, at.start()));
        let mut seen = std::collections::BTreeSet::new();
        order
            .into_iter()
            .map(|v| v.3.as_str())
            .filter(move |n| seen.insert(*n))
            .filter_map(move |name| match values {
                Some(Value::Object(map)) => map.get(name).map(|v| (name, v)),
                _ => None,
            })
    }

    /// The problems of the input variable `name`: those inside its
    /// `variable` block (a syntax error, an invalid type, a default that
    /// fails) and those of the values given for it (`-var`, `TF_VAR_`,
    /// `.tfvars` values that do not fit its type).
    pub fn variable_diagnostics(&self, name: &str) -> Vec<FileDiagnostic> {
        let extent = self.places.variable_extent(name);
        let given = format!("<value for var.{name}>");
        let unsuitable = format!("not suitable for var.{name}:");
        self.diagnostics
            .iter()
            .filter(|d| {
                d.path == given
                    || d.diagnostic.detail.contains(&unsuitable)
                    || extent.is_some_and(|(path, range)| {
                        d.path == path && range.contains(d.diagnostic.range.start())
                    })
            })
            .cloned()
            .collect()
    }
}
