//! Evaluation of native-syntax expressions, with the spec's semantics and
//! HCL's diagnostics. A failing part evaluates to an unknown value so that
//! every problem of an expression is reported, not only the first.

use super::compiled::{Key, Node};
use super::context::{EvalContext, Lazy};
use super::convert::{convert, unify};
use super::diagnostic::Diagnostic;
use super::leaf;
use super::number::Number;
use super::shared::{Elements, Entries, Pairs};
use super::types::Type;
use super::value::Value;
use crate::ast::{self, AstNode, Expr};
use crate::syntax_kind::SyntaxKind::*;
use smol_str::SmolStr;
use std::collections::BTreeMap;
use text_size::{TextRange, TextSize};

/// The result of evaluating an expression: a value (unknown where parts
/// failed) and every problem found.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The value.
    pub value: Value,
    /// The problems, in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

/// Evaluates `expr` in `ctx`.
pub fn evaluate(expr: &Expr, ctx: &EvalContext) -> Evaluation {
    // A plain string, the commonest expression, is built where it is
    // returned (see `leaf::string_value`).
    if let Expr::QuotedTemplate(t) = expr
        && let Some(text) = leaf::verbatim_text(t.syntax().green())
    {
        let (steps, max_string_len, _) = ctx.budget_limits();
        if steps > 0 && text.len() <= max_string_len {
            return Evaluation {
                value: leaf::string_value(text),
                diagnostics: Vec::new(),
            };
        }
    }
    // So is `true`, `false` or `null`, the commonest literal.
    if let Expr::Literal(l) = expr
        && let Some(keyword) = leaf::keyword_literal(l.syntax().green())
        && ctx.budget_limits().0 > 0
    {
        return Evaluation {
            value: leaf::keyword_value(keyword),
            diagnostics: Vec::new(),
        };
    }
    let mut miss = leaf::Miss::default();
    if let Some(value) = lone_constant(expr, ctx, &mut miss) {
        return Evaluation {
            value,
            diagnostics: Vec::new(),
        };
    }
    let mut ev = Evaluator::new(ctx);
    // A constructor that was not constant is not walked again.
    ev.constant_miss = miss;
    let value = ev.eval(expr);
    Evaluation {
        value,
        diagnostics: ev.diagnostics,
    }
}

/// An expression that is a literal, a quoted string without
/// interpolation, or a tuple or object of constants only: its value, when
/// evaluating it would report nothing (the budget allows its steps and its
/// strings' lengths). Most expressions a program evaluates one at a time
/// are such constants (defaults, tags, settings), and they need no
/// evaluator. A constructor's walk that fails leaves its place in `miss`.
fn lone_constant(expr: &Expr, ctx: &EvalContext, miss: &mut leaf::Miss) -> Option<Value> {
    // Each arm hands its value straight back: moving a value just built
    // through a tuple first was measured to stall on reading it back.
    let (steps, max_string_len, checked_as_it_goes) = ctx.budget_limits();
    if steps == 0 {
        return None;
    }
    match expr {
        // `true`, `false` and `null` were taken by `evaluate`: numbers here.
        Expr::Literal(l) => match leaf::literal(l.syntax()) {
            leaf::Literal::Value(v) => Some(v),
            leaf::Literal::BadNumber(_) | leaf::Literal::Missing => None,
        },
        // A plain string was taken by `evaluate`; these are the others.
        Expr::QuotedTemplate(t) => leaf::decoded_string(t.syntax().green())
            .filter(|v| !matches!(v, Value::String(s) if s.len() > max_string_len)),
        // A time limit or a cancellation flag is checked as evaluation
        // goes, at steps a walk without nodes does not count one by one.
        Expr::Tuple(_) | Expr::Object(_) if !checked_as_it_goes => {
            let c = miss.leaf_collection(expr.syntax())?;
            (c.steps < steps && c.longest <= max_string_len).then_some(c.value)
        }
        _ => None,
    }
}

/// Parses and evaluates one expression; syntax errors and evaluation
/// problems are both diagnostics.
///
/// ```
/// use hclwright::eval::{EvalContext, console_string, evaluate_str};
/// let v = evaluate_str("[for x in [1, 2, 3] : x * 2 if x > 1]", &EvalContext::new()).unwrap();
/// assert_eq!(console_string(&v), "[\n  4,\n  6,\n]");
/// ```
pub fn evaluate_str(text: &str, ctx: &EvalContext) -> Result<Value, Vec<Diagnostic>> {
    let parse = crate::parse_expr(text);
    if !parse.errors().is_empty() {
        return Err(parse
            .errors()
            .iter()
            .map(|e| Diagnostic::new("Invalid expression", e.message.clone(), e.range))
            .collect());
    }
    let Some(expr) = parse.syntax().descendants().find_map(Expr::cast) else {
        return Err(vec![Diagnostic::new(
            "Invalid expression",
            "expected an expression",
            parse.syntax().text_range(),
        )]);
    };
    let result = evaluate(&expr, ctx);
    if result.diagnostics.is_empty() {
        Ok(result.value)
    } else {
        Err(result.diagnostics)
    }
}

pub(crate) struct Evaluator<'c> {
    ctx: &'c EvalContext,
    /// Names bound by `for` expressions and splats, innermost last.
    scopes: Vec<(SmolStr, Value)>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    depth: u32,
    /// Whether the template being rendered has met a sensitive value.
    pub(crate) template_marked: bool,
    /// The limits, the work done so far and whether they were passed.
    budget: super::context::Budget,
    steps: u64,
    /// When evaluation started; read only under a time limit.
    started: Option<std::time::Instant>,
    out_of_budget: bool,
    /// Where the last walk of a constant constructor gave up.
    constant_miss: leaf::Miss,
}

const DYNAMIC: Value = Value::Unknown(Type::Dynamic);

/// Stack kept free below each level of evaluation; more is allocated (a
/// segment at a time) when less is left.
const EVAL_RED_ZONE: usize = 256 * 1024;
const EVAL_STACK_SEGMENT: usize = 8 * 1024 * 1024;

fn range(e: &Expr) -> TextRange {
    e.syntax().text_range()
}

/// The range of a node without its leading and trailing trivia: for
/// diagnostics (the evaluator keeps it in a closure until one is
/// reported) and a model attribute's `range`.
pub(crate) fn trimmed_range(node: &crate::SyntaxNode) -> TextRange {
    let range = node.text_range();
    // Read from the green tree down the node's two edges, iteratively and
    // without a syntax node made per level; a subtree of trivia alone on
    // the way (rare) is left to the token walk.
    let green = node.green();
    if let (Some(lead), Some(trail)) = (
        green_edge_trivia(green, true),
        green_edge_trivia(green, false),
    ) {
        return if lead + trail <= range.len() {
            TextRange::new(range.start() + lead, range.end() - trail)
        } else {
            range
        };
    }
    trimmed_range_by_tokens(node, range)
}

/// The length of the trivia at one edge of `green` (the start if `first`),
/// found by going down that edge; `None` if it meets a node holding
/// trivia alone (the caller walks the tokens then) or the node is all
/// trivia.
fn green_edge_trivia(green: &rowan::GreenNodeData, first: bool) -> Option<TextSize> {
    use crate::syntax_kind::HclLanguage;
    use rowan::{Language, NodeOrToken};
    let mut trivia = TextSize::from(0);
    let mut node = green;
    'down: loop {
        let mut children = node.children();
        while let Some(child) = if first {
            children.next()
        } else {
            children.next_back()
        } {
            match child {
                NodeOrToken::Token(t) => {
                    if !HclLanguage::kind_from_raw(t.kind()).is_trivia() {
                        return Some(trivia);
                    }
                    trivia += t.text_len();
                }
                NodeOrToken::Node(n) => {
                    node = n;
                    continue 'down;
                }
            }
        }
        return None;
    }
}

/// [`trimmed_range`] by walking tokens across subtrees (iteratively: rowan's own
/// `first_token` recurses).
fn trimmed_range_by_tokens(node: &crate::SyntaxNode, range: TextRange) -> TextRange {
    let edge = |first: bool| -> Option<crate::SyntaxToken> {
        let mut current = node.clone();
        loop {
            let child = if first {
                current.first_child_or_token()
            } else {
                current.last_child_or_token()
            };
            match child? {
                rowan::NodeOrToken::Node(n) => current = n,
                rowan::NodeOrToken::Token(t) => return Some(t),
            }
        }
    };
    let mut first = edge(true);
    while let Some(t) = first.clone().filter(|t| t.kind().is_trivia()) {
        first = t
            .next_token()
            .filter(|n| n.text_range().end() <= range.end());
    }
    let mut last = edge(false);
    while let Some(t) = last.clone().filter(|t| t.kind().is_trivia()) {
        last = t
            .prev_token()
            .filter(|p| p.text_range().start() >= range.start());
    }
    match (first, last) {
        (Some(f), Some(l)) if f.text_range().start() <= l.text_range().end() => {
            TextRange::new(f.text_range().start(), l.text_range().end())
        }
        _ => range,
    }
}

impl<'c> Evaluator<'c> {
    pub(crate) fn new(ctx: &'c EvalContext) -> Self {
        let budget = ctx.budget();
        let started = budget.time.map(|_| std::time::Instant::now());
        Evaluator {
            ctx,
            scopes: Vec::new(),
            diagnostics: Vec::new(),
            depth: 0,
            template_marked: false,
            budget,
            steps: 0,
            started,
            out_of_budget: false,
            constant_miss: leaf::Miss::default(),
        }
    }

    /// True when the budget is checked as evaluation goes (a time limit or
    /// a cancellation flag): the shortcuts that count many steps at once
    /// are not taken, so that a stop comes where it would without them.
    fn checked_as_it_goes(&self) -> bool {
        self.budget.time.is_some() || self.budget.cancel.is_some()
    }

    /// Counts one step; `true` (with one diagnostic, at `e`) once the
    /// budget is spent, after which every evaluation returns at once.
    fn over_budget(&mut self, e: &Expr) -> bool {
        if self.out_of_budget {
            return true;
        }
        self.steps += 1;
        let why = if self.steps > self.budget.steps {
            format!("took more than {} steps", self.budget.steps)
        } else if self.steps.is_multiple_of(64)
            && self
                .budget
                .cancel
                .as_ref()
                .is_some_and(|c| c.is_cancelled())
        {
            "was cancelled".to_string()
        } else if let Some(t) = self.budget.time.filter(|_| self.steps.is_multiple_of(256))
            && self.started.is_some_and(|s| s.elapsed() > t)
        {
            format!("took more than {} ms", t.as_millis())
        } else {
            return false;
        };
        self.out_of_budget = true;
        self.error(
            "Evaluation budget exceeded",
            format!("Evaluating this expression {why}; it was stopped."),
            range(e),
        );
        true
    }

    fn error(&mut self, summary: &str, detail: impl Into<String>, at: TextRange) {
        self.diagnostics.push(Diagnostic::new(summary, detail, at));
    }

    fn error_in(
        &mut self,
        summary: &str,
        detail: impl Into<String>,
        at: TextRange,
        ctx: TextRange,
    ) {
        self.diagnostics
            .push(Diagnostic::new(summary, detail, at).with_context(ctx));
    }

    fn lookup(&self, name: &str) -> Option<Value> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .or_else(|| self.ctx.variable(name).cloned())
    }

    /// Runs `f` with `key` and `value` bound (a `for` iteration).
    pub(crate) fn with_bindings<R>(
        &mut self,
        key: Option<&str>,
        key_value: Value,
        value: &str,
        value_value: Value,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let mark = self.scopes.len();
        if let Some(k) = key {
            self.scopes.push((SmolStr::new(k), key_value));
        }
        self.scopes.push((SmolStr::new(value), value_value));
        let r = f(self);
        self.scopes.truncate(mark);
        r
    }

    pub(crate) fn eval(&mut self, e: &Expr) -> Value {
        // Checked at every level: one level of evaluation (an operator with
        // its conversions, a call with its arguments) takes far more stack
        // than one level of parsing, above all in a debug build.
        if self.over_budget(e) {
            return DYNAMIC;
        }
        self.depth += 1;
        let v = stacker::maybe_grow(EVAL_RED_ZONE, EVAL_STACK_SEGMENT, || self.eval_inner(e));
        self.depth -= 1;
        match &v {
            Value::String(s) if s.len() > self.budget.max_string_len && !self.out_of_budget => {
                self.out_of_budget = true;
                let limit = self.budget.max_string_len;
                self.error(
                    "Evaluation budget exceeded",
                    format!(
                        "This expression makes a string of {} bytes, more than the limit of {limit}.",
                        s.len()
                    ),
                    range(e),
                );
                DYNAMIC
            }
            _ => v,
        }
    }

    fn eval_inner(&mut self, e: &Expr) -> Value {
        match e {
            Expr::Literal(l) => match leaf::literal(l.syntax()) {
                leaf::Literal::Value(v) => v,
                leaf::Literal::BadNumber(text) => {
                    self.error(
                        "Invalid number literal",
                        format!("`{text}` is not a number."),
                        range(e),
                    );
                    Value::Unknown(Type::Number)
                }
                leaf::Literal::Missing => DYNAMIC,
            },
            Expr::Variable(v) => {
                let name = leaf::variable_name(v.syntax()).unwrap_or_default();
                match self.lookup(&name) {
                    Some(value) => value,
                    None => self.unknown_variable(&name, v),
                }
            }
            Expr::Paren(p) => match p.expr() {
                Some(inner) => self.eval(&inner),
                None => DYNAMIC,
            },
            Expr::QuotedTemplate(_) | Expr::HeredocTemplate(_) => {
                super::template::evaluate_template(self, e)
            }
            Expr::Tuple(_) | Expr::Object(_) if let Some(v) = self.leaf_collection(e) => v,
            Expr::Tuple(t) => Value::Tuple(t.elements().map(|x| self.eval(&x)).collect()),
            Expr::Object(o) => self.eval_object(o),
            Expr::FunctionCall(c) => self.eval_call(c),
            Expr::ForExpr(f) => self.eval_for(f),
            Expr::GetAttr(_) | Expr::Index(_) => self.eval_traversal(e),
            Expr::Splat(s) => self.eval_splat(s, &[]),
            Expr::Unary(u) => self.eval_unary(u),
            Expr::Binary(b) => self.eval_binary(b),
            Expr::Conditional(c) => self.eval_conditional(c),
        }
    }

    /// A tuple or object of leaves, evaluated without its nodes when that
    /// gives what evaluating them one by one gives: the budget is not
    /// passed on the way (and has no time limit, checked as it goes).
    fn leaf_collection(&mut self, e: &Expr) -> Option<Value> {
        if self.checked_as_it_goes() {
            return None;
        }
        let c = self.constant_miss.leaf_collection(e.syntax())?;
        if self.steps + c.steps > self.budget.steps || c.longest > self.budget.max_string_len {
            return None;
        }
        self.steps += c.steps;
        Some(c.value)
    }

    fn eval_object(&mut self, o: &ast::Object) -> Value {
        let mut out = Pairs::with_capacity(leaf::object_item_count(o.syntax()));
        let mut unknown = false;
        for item in o.items() {
            // A bare name, the common key, is read without its nodes.
            match leaf::item_key_name(item.syntax()) {
                leaf::ItemKey::Name(name) => {
                    let value = item.value().map_or(DYNAMIC, |v| self.eval(&v));
                    if let Value::String(k) = Value::string(&name) {
                        out.push((k, value));
                    }
                    continue;
                }
                leaf::ItemKey::Missing => continue,
                leaf::ItemKey::Other => {}
            }
            let Some(key) = item.key() else { continue };
            let key_value = match key_name(&key) {
                Some(name) => Value::string(name),
                None => key.expr().map_or(DYNAMIC, |k| self.eval(&k)),
            };
            let value = item.value().map_or(DYNAMIC, |v| self.eval(&v));
            unknown |= self.object_entry(&mut out, key_value, value, &key);
        }
        if unknown {
            return DYNAMIC;
        }
        Value::Object(Entries::from_pairs(out))
    }

    /// Adds `key = value` to an object being built; true when the key is
    /// unknown (the whole object is then unknown).
    fn object_entry(
        &mut self,
        out: &mut Pairs,
        key_value: Value,
        value: Value,
        key: &ast::ObjectKey,
    ) -> bool {
        // A string, the common key, is kept as it is (converting a string
        // to a string gives it back).
        if let Value::String(k) = key_value {
            out.push((k, value));
            return false;
        }
        let key_range = || trimmed_range(key.syntax());
        if key_value.is_null() {
            self.error(
                "Null value as key",
                "Can't use a null value as a key.",
                key_range(),
            );
            return false;
        }
        let key_value = match convert(&key_value.unmarked_deep(), &Type::String) {
            Ok(k) => k,
            Err(err) => {
                self.error(
                    "Incorrect key type",
                    format!("Can't use this value as a key: {err}."),
                    key_range(),
                );
                return false;
            }
        };
        match key_value {
            Value::String(k) => {
                out.push((k, value));
                false
            }
            _ => true,
        }
    }

    /// Evaluates a lowered expression (see [`super::compiled`]).
    pub(crate) fn eval_node(&mut self, node: &Node) -> Value {
        // A leaf needs no stack check.
        if let Node::Const(v) = node {
            return v.clone();
        }
        self.depth += 1;
        let v = stacker::maybe_grow(EVAL_RED_ZONE, EVAL_STACK_SEGMENT, || {
            self.eval_node_inner(node)
        });
        self.depth -= 1;
        v
    }

    fn eval_node_inner(&mut self, node: &Node) -> Value {
        match node {
            Node::Const(v) => v.clone(),
            Node::Tuple(items) => Value::Tuple(items.iter().map(|x| self.eval_node(x)).collect()),
            Node::Object(items) => {
                let mut out = Pairs::with_capacity(items.len());
                let mut unknown = false;
                for item in items {
                    // The key first, then the value, as from the tree.
                    let key_value = match &item.key {
                        Key::Expr(k, _) => Some(self.eval_node(k)),
                        Key::Name(_) | Key::Missing => None,
                    };
                    let value = item.value.as_ref().map_or(DYNAMIC, |v| self.eval_node(v));
                    match (&item.key, key_value) {
                        (Key::Name(name), _) => {
                            out.push((name.clone(), value));
                        }
                        (Key::Expr(_, key), Some(k)) => {
                            unknown |= self.object_entry(&mut out, k, value, key);
                        }
                        // A key without an expression is unknown.
                        _ => unknown = true,
                    }
                }
                if unknown {
                    return DYNAMIC;
                }
                Value::Object(Entries::from_pairs(out))
            }
            Node::Variable(name, v) => match self.lookup(name) {
                Some(value) => value,
                None => self.unknown_variable(name, v),
            },
            Node::Tree(e) => self.eval(e),
        }
    }

    fn unknown_variable(&mut self, name: &str, v: &ast::Variable) -> Value {
        let detail = format!(
            "There is no variable named {}.",
            super::display::go_quote(name)
        );
        self.error("Unknown variable", detail, trimmed_range(v.syntax()));
        DYNAMIC
    }

    fn eval_call(&mut self, c: &ast::FunctionCall) -> Value {
        let name = c.name();
        let call_range = || trimmed_range(c.syntax());
        let name_range = || {
            let names = c.name_tokens();
            match (names.first(), names.last()) {
                (Some(first), Some(last)) => {
                    TextRange::new(first.text_range().start(), last.text_range().end())
                }
                _ => call_range(),
            }
        };
        let arg_exprs = c.args();
        let expand = c.arg_list().is_some_and(|l| l.has_ellipsis());
        let ctx = self.ctx;
        if let Some(lazy) = ctx.function(&name).and_then(|f| f.lazy) {
            return self.eval_lazy(lazy, &name, &arg_exprs, call_range);
        }
        let mut args: Vec<Value> = arg_exprs.iter().map(|a| self.eval(a)).collect();
        let Some(function) = ctx.function(&name) else {
            let detail = if ctx.has_functions() {
                format!(
                    "There is no function named {}.",
                    super::display::go_quote(&name)
                )
            } else {
                "Function calls are not allowed in this context.".to_string()
            };
            let summary = if ctx.has_functions() {
                "Call to unknown function"
            } else {
                "Function calls not allowed"
            };
            self.error(summary, detail, name_range());
            return DYNAMIC;
        };
        if expand {
            let last_range = arg_exprs.last().map_or(call_range(), range);
            match args.pop() {
                Some(Value::Null(_)) => {
                    self.error(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must not be null.",
                        last_range,
                    );
                    return DYNAMIC;
                }
                Some(Value::Unknown(_)) => return DYNAMIC,
                Some(Value::List(_, items) | Value::Set(_, items) | Value::Tuple(items)) => {
                    args.extend(items)
                }
                Some(_) => {
                    self.error("Invalid expanding argument value", "The expanding argument (indicated by ...) must be of a tuple, list, or set type.", last_range);
                    return DYNAMIC;
                }
                None => {}
            }
        }
        let n = function.params.len();
        if args.len() < n {
            let missing = &function.params[args.len()].name;
            self.error_in(
                "Not enough function arguments",
                format!(
                    "Function {} expects {} argument(s). Missing value for {}.",
                    super::display::go_quote(&name),
                    n,
                    super::display::go_quote(missing)
                ),
                call_range(),
                call_range(),
            );
            return DYNAMIC;
        }
        if args.len() > n && function.variadic.is_none() {
            let extra = arg_exprs.get(n).map_or(call_range(), range);
            self.error_in(
                "Too many function arguments",
                format!(
                    "Function {} expects only {} argument(s).",
                    super::display::go_quote(&name),
                    n
                ),
                extra,
                call_range(),
            );
            return DYNAMIC;
        }
        match function.call(&args) {
            Ok(v) => v,
            Err(err) => {
                match err.argument {
                    Some(i) => {
                        let at = arg_exprs
                            .get(i)
                            .map_or(call_range(), |a| trimmed_range(a.syntax()));
                        let param = function
                            .params
                            .get(i)
                            .or(function.variadic.as_ref())
                            .map_or(String::new(), |p| p.name.clone());
                        self.error_in(
                            "Invalid function argument",
                            format!(
                                "Invalid value for {} parameter: {}.",
                                super::display::go_quote(&param),
                                err.message
                            ),
                            at,
                            call_range(),
                        );
                    }
                    None => self.error_in(
                        "Error in function call",
                        format!(
                            "Call to function {} failed: {}.",
                            super::display::go_quote(&name),
                            err.message
                        ),
                        call_range(),
                        call_range(),
                    ),
                }
                DYNAMIC
            }
        }
    }

    /// `try` and `can`: each argument evaluated on its own, its problems
    /// caught rather than reported.
    fn eval_lazy(
        &mut self,
        lazy: Lazy,
        name: &str,
        args: &[Expr],
        at: impl Fn() -> TextRange,
    ) -> Value {
        if lazy == Lazy::TemplateString {
            return self.eval_templatestring(args, at());
        }
        if args.is_empty() || (lazy == Lazy::Can && args.len() > 1) {
            let detail = if lazy == Lazy::Can {
                format!(
                    "Function {} expects 1 argument(s). Missing value for \"expression\".",
                    super::display::go_quote(name)
                )
            } else {
                "at least one argument is required".to_string()
            };
            let summary = if args.is_empty() {
                "Not enough function arguments"
            } else {
                "Too many function arguments"
            };
            self.error(summary, detail, at());
            return DYNAMIC;
        }
        let mut failures = Vec::new();
        for a in args {
            let before = self.diagnostics.len();
            let v = self.eval(a);
            let mut errors: Vec<Diagnostic> = self.diagnostics.drain(before..).collect();
            // A reference to something that does not exist is an error in
            // the configuration, not a failure `try` may catch.
            let (fatal, caught): (Vec<Diagnostic>, Vec<Diagnostic>) =
                errors.drain(..).partition(|d| {
                    matches!(
                        d.summary.as_str(),
                        "Unknown variable"
                            | "Call to unknown function"
                            | "Function calls not allowed"
                    )
                });
            if !fatal.is_empty() {
                self.diagnostics.extend(fatal);
                return DYNAMIC;
            }
            let errors = caught;
            if lazy == Lazy::Can {
                return match (errors.is_empty(), v.is_wholly_known()) {
                    (false, _) => Value::Bool(false),
                    (true, false) => Value::Unknown(Type::Bool),
                    (true, true) => Value::Bool(true),
                };
            }
            if errors.is_empty() {
                return if v.is_wholly_known() { v } else { DYNAMIC };
            }
            failures.extend(errors);
        }
        let details: Vec<String> = failures
            .iter()
            .map(|d| format!("- {}", d.message()))
            .collect();
        self.error_in(
            "Error in function call",
            format!(
                "Call to function \"try\" failed: no expression succeeded:\n{}\n\nAt least one expression must produce a successful result.",
                details.join("\n")
            ),
            at(),
            at(),
        );
        DYNAMIC
    }

    /// `templatestring(ref, vars)`: the template is a value (a literal
    /// template is refused, as Terraform refuses it), rendered with only
    /// `vars` as variables.
    fn eval_templatestring(&mut self, args: &[Expr], at: TextRange) -> Value {
        let fail = |ev: &mut Self, arg: Option<&Expr>, param: &str, message: String| {
            let r = arg.map_or(at, |a| trimmed_range(a.syntax()));
            ev.error_in(
                "Invalid function argument",
                format!("Invalid value for \"{param}\" parameter: {message}."),
                r,
                at,
            );
            DYNAMIC
        };
        if args.len() != 2 {
            let summary = if args.len() < 2 {
                "Not enough function arguments"
            } else {
                "Too many function arguments"
            };
            self.error(
                summary,
                "Function \"templatestring\" expects 2 argument(s).",
                at,
            );
            return DYNAMIC;
        }
        if matches!(args[0], Expr::QuotedTemplate(_) | Expr::HeredocTemplate(_)) {
            return fail(self, Some(&args[0]), "template", "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead".into());
        }
        let template = self.eval(&args[0]);
        let vars = self.eval(&args[1]);
        let text = match &template {
            Value::String(t) => t.clone(),
            Value::Unknown(_) => return Value::Unknown(Type::String),
            Value::Null(_) => {
                return fail(
                    self,
                    Some(&args[0]),
                    "template",
                    "argument must not be null".into(),
                );
            }
            other => {
                return fail(
                    self,
                    Some(&args[0]),
                    "template",
                    format!(
                        "invalid template value: a string is required, not {}",
                        other.ty().friendly_name()
                    ),
                );
            }
        };
        let entries = match &vars {
            Value::Object(m) | Value::Map(_, m) => m.clone(),
            Value::Unknown(_) => return DYNAMIC,
            _ => {
                return fail(
                    self,
                    Some(&args[1]),
                    "vars",
                    "invalid vars value: must be a map".into(),
                );
            }
        };
        let parse = crate::parse_template(&text);
        if let Some(e) = parse.errors().first() {
            return fail(
                self,
                Some(&args[0]),
                "template",
                format!("invalid template: {}", e.message),
            );
        }
        let mut ctx = self.ctx.functions_only();
        for (k, v) in entries {
            ctx.set_variable(&*k, v);
        }
        let parts: Vec<ast::TemplatePart> = ast::TemplateRoot::cast(parse.syntax())
            .map(|t| t.parts().collect())
            .unwrap_or_default();
        let mut inner = Evaluator::new(&ctx);
        let value = super::template::evaluate_parts(&mut inner, parts, true, false);
        if let Some(d) = inner.diagnostics.first() {
            let message = format!("failed to render template: {}", d.message());
            return fail(self, Some(&args[0]), "template", message);
        }
        value
    }

    fn eval_for(&mut self, f: &ast::ForExpr) -> Value {
        let whole = || trimmed_range(f.syntax());
        // Names short enough to be held inline: binding one per
        // iteration copies it, without an allocation.
        let intro = f.intro();
        let (key_var, value_var) = intro
            .as_ref()
            .map(|i| crate::ast::green_for_vars(i.syntax().green()))
            .unwrap_or_default();
        let key_var = key_var.map(SmolStr::new);
        let value_var = value_var.map(SmolStr::new).unwrap_or_default();
        let Some(coll_expr) = f.collection() else {
            return DYNAMIC;
        };
        let given = self.eval(&coll_expr);
        let coll_marked = given.is_sensitive();
        let coll = given.unmarked().0.clone();
        let coll_range = || trimmed_range(coll_expr.syntax());
        let pairs = match iteration_pairs(&coll) {
            Iter::Pairs(p) => p,
            Iter::Null => {
                self.error_in(
                    "Iteration over null value",
                    "A null value cannot be used as the collection in a 'for' expression.",
                    coll_range(),
                    whole(),
                );
                return DYNAMIC;
            }
            Iter::Unknown => return DYNAMIC,
            Iter::NotIterable(t) => {
                self.error_in(
                    "Iteration over non-iterable value",
                    format!("A value of type {} cannot be used as the collection in a 'for' expression.", t.friendly_name()),
                    coll_range(),
                    whole(),
                );
                return DYNAMIC;
            }
        };
        let is_object = f.is_object();
        let grouping = f.is_grouping();
        let cond = f.condition();
        let key_expr = f.key_expr();
        let value_expr = f.value_expr();
        let mut tuple = if is_object {
            Elements::new()
        } else {
            Elements::with_capacity(pairs.len())
        };
        let mut object: BTreeMap<SmolStr, Value> = BTreeMap::new();
        let mut groups: BTreeMap<SmolStr, Vec<Value>> = BTreeMap::new();
        let mut unknown = false;
        for (k, v) in pairs {
            let mark = self.scopes.len();
            if let Some(name) = &key_var {
                self.scopes.push((name.clone(), k));
            }
            self.scopes.push((value_var.clone(), v));
            let keep = match &cond {
                Some(c) => {
                    let cv = self.eval(c);
                    let cr = || trimmed_range(c.syntax());
                    match cv {
                        Value::Null(_) => {
                            self.error_in(
                                "Condition is null",
                                "The value of the 'if' clause must not be null.",
                                cr(),
                                whole(),
                            );
                            self.scopes.truncate(mark);
                            return DYNAMIC;
                        }
                        Value::Unknown(_) => {
                            unknown = true;
                            false
                        }
                        other => match convert(&other, &Type::Bool) {
                            Ok(Value::Bool(b)) => b,
                            Ok(_) => {
                                unknown = true;
                                false
                            }
                            Err(err) => {
                                self.error_in(
                                    "Invalid 'for' condition",
                                    format!("The 'if' clause value is invalid: {err}."),
                                    cr(),
                                    whole(),
                                );
                                self.scopes.truncate(mark);
                                return DYNAMIC;
                            }
                        },
                    }
                }
                None => true,
            };
            if keep {
                let value = value_expr.as_ref().map_or(DYNAMIC, |x| self.eval(x));
                if is_object {
                    let kx = key_expr.as_ref();
                    let key = kx.map_or(DYNAMIC, |x| self.eval(x));
                    let kr = || kx.map_or_else(whole, |x| trimmed_range(x.syntax()));
                    match key {
                        Value::Null(_) => {
                            self.error_in(
                                "Invalid object key",
                                "Key expression in 'for' expression must not produce a null value.",
                                kr(),
                                whole(),
                            );
                            self.scopes.truncate(mark);
                            return DYNAMIC;
                        }
                        Value::Unknown(_) => unknown = true,
                        other => match convert(&other, &Type::String) {
                            Ok(Value::String(k)) => {
                                if grouping {
                                    groups.entry(k).or_default().push(value);
                                } else if let std::collections::btree_map::Entry::Vacant(slot) =
                                    object.entry(k.clone())
                                {
                                    slot.insert(value);
                                } else {
                                    self.error_in(
                                        "Duplicate object key",
                                        format!("Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.", super::display::go_quote(&k)),
                                        kr(),
                                        whole(),
                                    );
                                    self.scopes.truncate(mark);
                                    return DYNAMIC;
                                }
                            }
                            Ok(_) => unknown = true,
                            Err(err) => {
                                self.error_in(
                                    "Invalid object key",
                                    format!("The object key value is invalid: {err}."),
                                    kr(),
                                    whole(),
                                );
                                self.scopes.truncate(mark);
                                return DYNAMIC;
                            }
                        },
                    }
                } else {
                    tuple.push(value);
                }
            }
            self.scopes.truncate(mark);
        }
        if unknown {
            return DYNAMIC;
        }
        let out = if is_object {
            if grouping {
                Value::Object(
                    groups
                        .into_iter()
                        .map(|(k, vs)| (k, Value::Tuple(vs.into())))
                        .collect(),
                )
            } else {
                Value::Object(object.into())
            }
        } else {
            Value::Tuple(tuple)
        };
        out.mark_if(coll_marked)
    }

    /// `a.b`, `a[k]`, `a.0`: the steps above a splat apply to each element.
    fn eval_traversal(&mut self, e: &Expr) -> Value {
        // Collect the chain of steps down to its root.
        let mut steps: Vec<Expr> = Vec::new();
        let mut cur = e.clone();
        loop {
            let next = match &cur {
                Expr::GetAttr(g) => g.target(),
                Expr::Index(i) => i.target(),
                _ => break,
            };
            steps.push(cur.clone());
            match next {
                Some(n) => cur = n,
                None => return DYNAMIC,
            }
        }
        steps.reverse();
        if let Expr::Splat(s) = &cur {
            // An attribute-only splat takes only the attribute steps (and
            // legacy `.0` indexes) that follow it.
            let take = if s.is_full() {
                steps.len()
            } else {
                steps
                    .iter()
                    .position(|st| matches!(st, Expr::Index(i) if !i.is_legacy()))
                    .unwrap_or(steps.len())
            };
            let mut value = self.eval_splat(s, &steps[..take]);
            for st in &steps[take..] {
                value = self.apply_step(value, st);
            }
            return value;
        }
        let (mut value, rest) = match self.root_attribute(&cur, steps.first()) {
            Some(v) => (v, &steps[1..]),
            None => (self.eval(&cur), &steps[..]),
        };
        for st in rest {
            value = self.apply_step(value, st);
        }
        value
    }

    /// `name.attr` at the root of a traversal (`var.x`, `local.y`), with
    /// the variable read in place rather than copied whole (`var` is every
    /// variable of a module) when that gives what evaluating the root and
    /// then the step gives: a variable of the context, known to exist, not
    /// a string (whose length is checked), not sensitive, and the budget
    /// not passed by the step counted for it.
    fn root_attribute(&mut self, root: &Expr, first: Option<&Expr>) -> Option<Value> {
        let (Expr::Variable(v), Some(step @ Expr::GetAttr(g))) = (root, first) else {
            return None;
        };
        if self.out_of_budget || self.checked_as_it_goes() || self.steps >= self.budget.steps {
            return None;
        }
        let name = leaf::variable_name(v.syntax())?;
        if self.scopes.iter().any(|(n, _)| *n == name) {
            return None;
        }
        let ctx: &'c EvalContext = self.ctx;
        let value = ctx.variable(&name)?;
        if matches!(value, Value::String(_) | Value::Sensitive(_)) {
            return None;
        }
        self.steps += 1;
        Some(self.get_attr_step(value, g, step))
    }

    fn apply_step(&mut self, value: Value, step: &Expr) -> Value {
        // A step into a sensitive value gives a sensitive value.
        if let Value::Sensitive(inner) = value {
            return self.apply_step(*inner, step).sensitive();
        }
        match step {
            Expr::GetAttr(g) => self.get_attr_step(&value, g, step),
            Expr::Index(i) => {
                let key = if let Some(tok) = i.legacy_index() {
                    Value::Number(Number::parse(tok.text()).unwrap_or_else(Number::zero))
                } else {
                    i.key().map_or(DYNAMIC, |k| self.eval(&k))
                };
                if key.contains_sensitive() {
                    let key = key.unmarked_deep();
                    let v = match index(&value, &key) {
                        Ok(v) => v,
                        Err((summary, detail)) => {
                            self.error(summary, detail, range(step));
                            DYNAMIC
                        }
                    };
                    return v.sensitive();
                }
                let at = match (i.target(), i.syntax().last_token()) {
                    (Some(t), Some(last)) => {
                        TextRange::new(t.syntax().text_range().end(), last.text_range().end())
                    }
                    _ => range(step),
                };
                match index(&value, &key) {
                    Ok(v) => v,
                    Err((summary, detail)) => {
                        self.error(summary, detail, at);
                        DYNAMIC
                    }
                }
            }
            _ => value,
        }
    }

    /// The attribute step `g` (the expression `step`) applied to `value`.
    fn get_attr_step(&mut self, value: &Value, g: &ast::GetAttr, step: &Expr) -> Value {
        // The name read in the green tree: no token made, no copy.
        let green = g.syntax().green();
        let name = crate::model::attribute_after(green).unwrap_or_default();
        match get_attr(value, name) {
            Ok(v) => v,
            Err((summary, detail)) => {
                let at = g.name_token().map_or(range(step), |t| {
                    let start = g
                        .syntax()
                        .children_with_tokens()
                        .filter_map(|e| e.into_token())
                        .find(|t| t.kind() == DOT)
                        .map_or(t.text_range().start(), |d| d.text_range().start());
                    TextRange::new(start, t.text_range().end())
                });
                self.error(summary, detail, at);
                DYNAMIC
            }
        }
    }

    fn eval_splat(&mut self, s: &ast::Splat, each: &[Expr]) -> Value {
        let Some(source_expr) = s.target() else {
            return DYNAMIC;
        };
        let given = self.eval(&source_expr);
        if let Value::Sensitive(inner) = given {
            // Splatting a sensitive value gives a sensitive result.
            return self.splat_value(s, each, *inner, &source_expr).sensitive();
        }
        self.splat_value(s, each, given, &source_expr)
    }

    fn splat_value(
        &mut self,
        _s: &ast::Splat,
        each: &[Expr],
        source: Value,
        source_expr: &Expr,
    ) -> Value {
        let source_range = || trimmed_range(source_expr.syntax());
        let ty = source.ty();
        let sequence = matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_));
        let source = match source {
            Value::Null(_) if !sequence => return Value::Tuple(Elements::new()),
            Value::Null(_) => {
                self.error(
                    "Splat of null value",
                    "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                    source_range(),
                );
                return DYNAMIC;
            }
            Value::Unknown(Type::Dynamic) => return DYNAMIC,
            Value::Unknown(_) if !sequence => return DYNAMIC,
            Value::Unknown(t) => {
                return Value::Unknown(match t {
                    Type::Tuple(_) => Type::Dynamic,
                    _ => Type::list(Type::Dynamic),
                });
            }
            v if !sequence => Value::Tuple(vec![v].into()),
            v => v,
        };
        let items = source.elements().map(<[Value]>::to_vec).unwrap_or_default();
        let mut out = Elements::with_capacity(items.len());
        let errors_before = self.diagnostics.len();
        for item in items {
            let mut v = item;
            for st in each {
                v = self.apply_step(v, st);
            }
            out.push(v);
        }
        if self.diagnostics.len() > errors_before {
            return DYNAMIC;
        }
        match source {
            Value::List(ety, _) | Value::Set(ety, _) => {
                if out.is_empty() {
                    // The element type the steps would give, from an unknown element.
                    let mut probe = Evaluator::new(self.ctx);
                    let mut v = Value::Unknown(ety);
                    for st in each {
                        v = probe.apply_step(v, st);
                    }
                    return Value::List(v.ty(), Elements::new());
                }
                let first = out[0].ty();
                if out.iter().any(|v| v.ty() != first) {
                    let types: Vec<Type> = out.iter().map(Value::ty).collect();
                    if unify(&types).is_none() || types.iter().any(|t| *t != first) {
                        self.error("Invalid nested splat expressions", "The second level of splat expression produced elements of different types, so it isn't possible to construct a valid list to represent the top-level result.", source_range());
                        return DYNAMIC;
                    }
                }
                Value::List(first, out)
            }
            _ => Value::Tuple(out),
        }
    }

    fn eval_unary(&mut self, u: &ast::Unary) -> Value {
        let op = u.op().map(|t| t.text().to_string()).unwrap_or_default();
        let Some(operand_expr) = u.operand() else {
            return DYNAMIC;
        };
        let given = self.eval(&operand_expr);
        let marked = given.contains_sensitive();
        let operand = given.unmarked_deep();
        let whole = || trimmed_range(u.syntax());
        let want = if op == "!" { Type::Bool } else { Type::Number };
        let v = match convert(&operand, &want) {
            Ok(v) => v,
            Err(err) => {
                self.error_in(
                    "Invalid operand",
                    format!("Unsuitable value for unary operand: {err}."),
                    trimmed_range(operand_expr.syntax()),
                    whole(),
                );
                return Value::Unknown(want);
            }
        };
        match v {
            Value::Null(_) => {
                self.error_in(
                    "Operation failed",
                    "Error during operation: argument must not be null.",
                    whole(),
                    whole(),
                );
                Value::Unknown(want)
            }
            Value::Unknown(_) => Value::Unknown(want).mark_if(marked),
            Value::Bool(b) => Value::Bool(!b).mark_if(marked),
            Value::Number(n) => Value::Number(n.neg()).mark_if(marked),
            _ => Value::Unknown(want),
        }
    }

    fn eval_binary(&mut self, b: &ast::Binary) -> Value {
        let op = b.op().map(|t| t.text().to_string()).unwrap_or_default();
        let (Some(lhs_expr), Some(rhs_expr)) = (b.lhs(), b.rhs()) else {
            return DYNAMIC;
        };
        let whole = || trimmed_range(b.syntax());
        let (operand_ty, result_ty) = match op.as_str() {
            "+" | "-" | "*" | "/" | "%" => (Type::Number, Type::Number),
            "<" | ">" | "<=" | ">=" => (Type::Number, Type::Bool),
            "&&" | "||" => (Type::Bool, Type::Bool),
            _ => (Type::Dynamic, Type::Bool),
        };
        let errors_before = self.diagnostics.len();
        let lhs_given = self.eval(&lhs_expr);
        let lhs_errors: Vec<Diagnostic> = self.diagnostics.drain(errors_before..).collect();
        let lhs = convert(&lhs_given, &operand_ty);
        if let Err(err) = &lhs {
            self.error_in(
                "Invalid operand",
                format!("Unsuitable value for left operand: {err}."),
                trimmed_range(lhs_expr.syntax()),
                whole(),
            );
        }
        let rhs_before = self.diagnostics.len();
        let rhs_given = self.eval(&rhs_expr);
        let rhs_errors: Vec<Diagnostic> = self.diagnostics.drain(rhs_before..).collect();
        let rhs = convert(&rhs_given, &operand_ty);
        if let Err(err) = &rhs {
            self.error_in(
                "Invalid operand",
                format!("Unsuitable value for right operand: {err}."),
                trimmed_range(rhs_expr.syntax()),
                whole(),
            );
        }
        let (Ok(lhs), Ok(rhs)) = (lhs, rhs) else {
            self.diagnostics.extend(lhs_errors);
            self.diagnostics.extend(rhs_errors);
            return Value::Unknown(result_ty);
        };
        // Sensitive operands give a sensitive result.
        let marked = lhs.contains_sensitive() || rhs.contains_sensitive();
        let (lhs, rhs) = (lhs.unmarked_deep(), rhs.unmarked_deep());
        self.binary_result(&op, lhs, rhs, lhs_errors, rhs_errors, result_ty, b.syntax())
            .mark_if(marked)
    }

    #[allow(clippy::too_many_arguments)]
    fn binary_result(
        &mut self,
        op: &str,
        lhs: Value,
        rhs: Value,
        lhs_errors: Vec<Diagnostic>,
        rhs_errors: Vec<Diagnostic>,
        result_ty: Type,
        node: &crate::SyntaxNode,
    ) -> Value {
        let whole = || trimmed_range(node);
        // `&&` and `||` do not short-circuit: `false && x` reports x's
        // errors and is unknown when x is (as in Terraform 1.11).
        let had_errors = !lhs_errors.is_empty() || !rhs_errors.is_empty();
        self.diagnostics.extend(lhs_errors);
        self.diagnostics.extend(rhs_errors);
        if had_errors {
            return Value::Unknown(result_ty);
        }
        if op == "==" || op == "!=" {
            let eq = lhs.equals(&rhs);
            return match (op, eq) {
                ("!=", Value::Bool(b)) => Value::Bool(!b),
                (_, v) => v,
            };
        }
        if lhs.is_null() || rhs.is_null() {
            self.error_in(
                "Operation failed",
                "Error during operation: argument must not be null.",
                whole(),
                whole(),
            );
            return Value::Unknown(result_ty);
        }
        if !lhs.is_known() || !rhs.is_known() {
            return Value::Unknown(result_ty);
        }
        let result = match (op, &lhs, &rhs) {
            ("&&", Value::Bool(a), Value::Bool(c)) => Ok(Value::Bool(*a && *c)),
            ("||", Value::Bool(a), Value::Bool(c)) => Ok(Value::Bool(*a || *c)),
            (o, Value::Number(a), Value::Number(c)) => arithmetic(o, a, c),
            _ => Ok(Value::Unknown(result_ty.clone())),
        };
        match result {
            Ok(v) => v,
            Err(message) => {
                self.error_in(
                    "Operation failed",
                    format!("Error during operation: {message}."),
                    whole(),
                    whole(),
                );
                Value::Unknown(result_ty)
            }
        }
    }

    fn eval_conditional(&mut self, c: &ast::Conditional) -> Value {
        let whole = || trimmed_range(c.syntax());
        let (Some(cond_expr), Some(t_expr), Some(f_expr)) =
            (c.condition(), c.true_expr(), c.false_expr())
        else {
            return DYNAMIC;
        };
        // Each side's errors are kept apart: only the side the condition
        // chooses reports them (as HCL does; `x == null ? null : x.a` is a
        // guard).
        let mark = self.diagnostics.len();
        let t = self.eval(&t_expr);
        let t_errors: Vec<Diagnostic> = self.diagnostics.drain(mark..).collect();
        let f = self.eval(&f_expr);
        let f_errors: Vec<Diagnostic> = self.diagnostics.drain(mark..).collect();
        // The result carries the top-level marks of all three parts,
        // whichever side is chosen.
        let sides_marked = t.is_sensitive() || f.is_sensitive();
        let bare_null = |v: &Value| matches!(v, Value::Null(Type::Dynamic));
        // How the chosen side becomes the result: converted to a type, kept
        // as it is (a side of unknown type), or unknown (cty unifies some
        // pairs only to `dynamic`, whose conversion gives an unknown).
        enum Plan {
            Convert(Type),
            AsIs,
            Unknown,
        }
        let plan = if bare_null(&t) {
            Plan::Convert(f.ty())
        } else if bare_null(&f) {
            Plan::Convert(t.ty())
        } else if t.ty() == Type::Dynamic || f.ty() == Type::Dynamic {
            Plan::AsIs
        } else {
            match unify(&[t.ty(), f.ty()]) {
                Some(Type::Dynamic) if t.ty() != f.ty() => Plan::Unknown,
                Some(ty) => Plan::Convert(ty),
                None => {
                    let detail = format!(
                        "The true and false result expressions must have consistent types. {}.",
                        describe_mismatch(&t.ty(), &f.ty())
                    );
                    let both = TextRange::new(range(&t_expr).start(), range(&f_expr).end());
                    self.error_in(
                        "Inconsistent conditional result types",
                        detail,
                        both,
                        whole(),
                    );
                    return DYNAMIC;
                }
            }
        };
        let result_ty = match &plan {
            Plan::Convert(ty) => ty.clone(),
            _ => Type::Dynamic,
        };
        let cond = self.eval(&cond_expr);
        let cond_marked = cond.contains_sensitive() || sides_marked;
        let cond = cond.unmarked_deep();
        let cond_range = || trimmed_range(cond_expr.syntax());
        let cond = match cond {
            Value::Null(_) => {
                self.error_in(
                    "Null condition",
                    "The condition value is null. Conditions must either be true or false.",
                    cond_range(),
                    whole(),
                );
                return Value::Unknown(result_ty);
            }
            Value::Unknown(_) => {
                // Either side may come; both null gives null.
                if t.is_null() && f.is_null() {
                    return Value::Null(result_ty).mark_if(cond_marked);
                }
                return Value::Unknown(result_ty).mark_if(cond_marked);
            }
            other => match convert(&other, &Type::Bool) {
                Ok(Value::Bool(b)) => b,
                _ => {
                    self.error_in(
                        "Incorrect condition type",
                        "The condition expression must be of type bool.",
                        cond_range(),
                        whole(),
                    );
                    return Value::Unknown(result_ty);
                }
            },
        };
        let (chosen, chosen_expr, chosen_errors) = if cond {
            (t, t_expr, t_errors)
        } else {
            (f, f_expr, f_errors)
        };
        self.diagnostics.extend(chosen_errors);
        match plan {
            Plan::AsIs => return chosen.mark_if(cond_marked),
            Plan::Unknown => return DYNAMIC.mark_if(cond_marked),
            Plan::Convert(_) => {}
        }
        match convert(&chosen, &result_ty) {
            Ok(v) => v.mark_if(cond_marked),
            Err(err) => {
                let which = if cond { "true" } else { "false" };
                self.error_in(
                    "Inconsistent conditional result types",
                    format!("The {which} result value has the wrong type: {err}."),
                    trimmed_range(chosen_expr.syntax()),
                    whole(),
                );
                DYNAMIC
            }
        }
    }
}

/// The name an object key stands for without being evaluated: a bare
/// identifier (`{ foo = 1 }`), or `true`, `false` or `null`, which are
/// names as keys too.
pub(crate) fn key_name(key: &ast::ObjectKey) -> Option<String> {
    if let Some(name) = leaf::bare_key_name(key.syntax()) {
        return Some(name.into());
    }
    match key.expr()? {
        Expr::Literal(l)
            if l.value()
                .is_some_and(|v| !matches!(v, ast::LiteralValue::Number(_))) =>
        {
            Some(l.syntax().text().to_string().trim().to_string())
        }
        _ => None,
    }
}

fn describe_mismatch(t: &Type, f: &Type) -> String {
    if std::mem::discriminant(t) == std::mem::discriminant(f) {
        match t {
            Type::Object(_) => return "Type mismatch for object attributes".into(),
            Type::Tuple(_) => return "Type mismatch for tuple elements".into(),
            _ => {}
        }
    }
    format!(
        "The 'true' value is {}, but the 'false' value is {}",
        article_name(t),
        article_name(f)
    )
}

fn article_name(t: &Type) -> String {
    let name = t.friendly_name();
    match t {
        Type::Tuple(_) | Type::Object(_) => name,
        _ if name.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {name}"),
        _ => format!("a {name}"),
    }
}

/// Arithmetic and comparison on two known numbers.
fn arithmetic(op: &str, a: &Number, b: &Number) -> Result<Value, String> {
    use std::cmp::Ordering::*;
    let nan = |what: &str| what.to_string();
    Ok(match op {
        "+" => Value::Number(
            a.add(b)
                .map_err(|_| nan("can't compute sum of opposing infinities"))?,
        ),
        "-" => Value::Number(
            a.sub(b)
                .map_err(|_| nan("can't subtract infinity from itself"))?,
        ),
        "*" => Value::Number(
            a.mul(b)
                .map_err(|_| nan("can't multiply zero by infinity"))?,
        ),
        "/" => Value::Number(
            a.div(b)
                .map_err(|_| nan("can't divide zero by zero or infinity by infinity"))?,
        ),
        "%" => Value::Number(modulo(a, b)?),
        "<" => Value::Bool(a.cmp_value(b) == Less),
        ">" => Value::Bool(a.cmp_value(b) == Greater),
        "<=" => Value::Bool(a.cmp_value(b) != Greater),
        ">=" => Value::Bool(a.cmp_value(b) != Less),
        _ => return Err(format!("unsupported operator {op}")),
    })
}

/// `a % b` as cty computes it: the remainder after truncated division,
/// `a` itself when `b` is zero, infinities multiplied through.
fn modulo(a: &Number, b: &Number) -> Result<Number, String> {
    if a.is_infinite() || b.is_infinite() {
        return a
            .mul(b)
            .map_err(|_| "can't use modulo with zero and infinity".to_string());
    }
    if b.is_zero() && !b.is_negative() {
        return Ok(a.clone());
    }
    let ratio = a
        .div(b)
        .map_err(|_| "can't use modulo with zero".to_string())?;
    let whole = ratio.trunc().with_precision(a.precision());
    let product = b.mul(&whole).map_err(|_| "overflow".to_string())?;
    let mut r = a.sub(&product).map_err(|_| "overflow".to_string())?;
    if r.precision() != a.precision().max(product.precision()) {
        r = r.with_precision(a.precision().max(product.precision()));
    }
    Ok(r)
}

enum Iter {
    Pairs(Vec<(Value, Value)>),
    Null,
    Unknown,
    NotIterable(Type),
}

/// The (key, value) pairs a `for` iterates: indexes of sequences, keys of
/// maps and objects (sorted), a set's elements as both.
fn iteration_pairs(coll: &Value) -> Iter {
    match coll {
        Value::Null(_) => Iter::Null,
        Value::Unknown(_) => Iter::Unknown,
        Value::List(_, items) | Value::Tuple(items) => Iter::Pairs(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| (Value::int(i as i64), v.clone()))
                .collect(),
        ),
        Value::Set(_, items) => Iter::Pairs(items.iter().map(|v| (v.clone(), v.clone())).collect()),
        Value::Map(_, items) | Value::Object(items) => Iter::Pairs(
            items
                .iter()
                .map(|(k, v)| (Value::string(k), v.clone()))
                .collect(),
        ),
        other => Iter::NotIterable(other.ty()),
    }
}

pub(crate) fn iterate(coll: &Value) -> Option<Vec<(Value, Value)>> {
    match iteration_pairs(coll) {
        Iter::Pairs(p) => Some(p),
        _ => None,
    }
}

/// `value.name`, or HCL's summary and detail of why not.
pub fn get_attr(value: &Value, name: &str) -> Result<Value, (&'static str, String)> {
    // Quoted only for a message.
    let quoted = || super::display::go_quote(name);
    match value {
        Value::Null(_) => Err((
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.".into(),
        )),
        Value::Unknown(Type::Dynamic) => Ok(DYNAMIC),
        Value::Unknown(Type::Object(attrs)) => match attrs.get(name) {
            Some(t) => Ok(Value::Unknown(t.clone())),
            None => Err((
                "Unsupported attribute",
                format!("This object does not have an attribute named {}.", quoted()),
            )),
        },
        Value::Unknown(Type::Map(e)) => Ok(Value::Unknown((**e).clone())),
        Value::Object(attrs) => attrs.get(name).cloned().ok_or_else(|| {
            (
                "Unsupported attribute",
                format!("This object does not have an attribute named {}.", quoted()),
            )
        }),
        Value::Map(_, items) => items.get(name).cloned().ok_or_else(|| {
            (
                "Missing map element",
                format!(
                    "This map does not have an element with the key {}.",
                    quoted()
                ),
            )
        }),
        other => {
            let ty = other.ty();
            let detail = match &ty {
                Type::List(e) | Type::Set(e) if matches!(**e, Type::Object(_)) => {
                    let kind = if matches!(ty, Type::List(_)) {
                        "list"
                    } else {
                        "set"
                    };
                    format!(
                        "Can't access attributes on a {kind} of objects. Did you mean to access attribute {} for a specific element of the {kind}, or across all elements of the {kind}?",
                        quoted()
                    )
                }
                Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
                    format!(
                        "Can't access attributes on a {}.",
                        match ty {
                            Type::Tuple(_) => "tuple".to_string(),
                            _ => ty.friendly_name(),
                        }
                    )
                }
                _ => format!(
                    "Can't access attributes on a primitive-typed value ({}).",
                    ty.friendly_name()
                ),
            };
            Err(("Unsupported attribute", detail))
        }
    }
}

/// `value[key]`, or HCL's summary and detail of why not.
pub fn index(value: &Value, key: &Value) -> Result<Value, (&'static str, String)> {
    const INVALID: &str = "Invalid index";
    let prefix = "The given key does not identify an element in this collection value";
    if value.is_null() {
        return Err((
            "Attempt to index null value",
            "This value is null, so it does not have any indices.".into(),
        ));
    }
    if key.is_null() {
        return Err((INVALID, "Can't use a null value as an indexing key.".into()));
    }
    let ty = value.ty();
    if key.ty() == Type::Dynamic || ty == Type::Dynamic {
        return Ok(DYNAMIC);
    }
    match &ty {
        Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
            let want = if matches!(ty, Type::Map(_)) { Type::String } else { Type::Number };
            let key = convert(key, &want).map_err(|e| (INVALID, format!("{prefix}: {e}.")))?;
            let Value::Unknown(_) = key else {
                return match (value, &key) {
                    (Value::Unknown(t), _) => Ok(match t {
                        Type::Tuple(_) => DYNAMIC,
                        other => Value::Unknown(other.element_type().cloned().unwrap_or(Type::Dynamic)),
                    }),
                    (Value::Map(_, items), Value::String(k)) => items
                        .get(k)
                        .cloned()
                        .ok_or_else(|| (INVALID, format!("{prefix}."))),
                    (Value::List(_, items) | Value::Tuple(items), Value::Number(n)) => {
                        if !n.is_integer() {
                            return Err((INVALID, format!("{prefix}: indexing a sequence requires a whole number, but the given index has a fractional part.")));
                        }
                        if n.is_negative() && !n.is_zero() {
                            return Err((INVALID, format!("{prefix}: a negative number is not a valid index for a sequence.")));
                        }
                        match n.to_i64().and_then(|i| items.get(i as usize)) {
                            Some(v) => Ok(v.clone()),
                            None if items.is_empty() => Err((INVALID, format!("{prefix}: the collection has no elements."))),
                            None => Err((INVALID, format!("{prefix}: the given index is greater than or equal to the length of the collection."))),
                        }
                    }
                    _ => Ok(DYNAMIC),
                };
            };
            Ok(match ty {
                Type::Tuple(_) => DYNAMIC,
                other => Value::Unknown(other.element_type().cloned().unwrap_or(Type::Dynamic)),
            })
        }
        Type::Object(attrs) => {
            let was_number = key.ty() == Type::Number;
            let key = convert(key, &Type::String).map_err(|e| (INVALID, format!("{prefix}: {e}.")))?;
            let Value::String(name) = key else { return Ok(DYNAMIC) };
            match (attrs.get(&*name), value) {
                (None, _) => {
                    let hint = if was_number { " An object only supports looking up attributes by name, not by numeric index." } else { "" };
                    Err((INVALID, format!("{prefix}.{hint}")))
                }
                (Some(t), Value::Unknown(_)) => Ok(Value::Unknown(t.clone())),
                (Some(_), _) => Ok(value.entries().and_then(|e| e.get(&name)).cloned().unwrap_or(DYNAMIC)),
            }
        }
        Type::Set(_) => Err((INVALID, "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".into())),
        _ => Err((INVALID, "This value does not have any indices.".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::console_string;

    fn show(text: &str) -> String {
        match evaluate_str(text, &EvalContext::new()) {
            Ok(v) => console_string(&v),
            Err(d) => format!("error: {}", d[0].message()),
        }
    }

    /// The trimmed range read from the green tree's edges is the one the
    /// token walk gives, for every node of the fixtures and of inputs with
    /// trivia at the edges of nodes (comments, blank lines, nodes of
    /// trivia alone, empty nodes, broken input).
    #[test]
    fn trimmed_range_from_the_green_edges_is_the_token_walks() {
        let mut texts: Vec<String> = [
            "a = 1\n",
            "# lead\na = 1 # trail\n\n",
            "/* x */ a = [ /* in */ 1, 2 /* end */ ] // after\n",
            "b {\n  # only a comment\n}\n",
            "b {}\nc \"l\" {\n\n}\n",
            "a = <<EOT\n  x\n  EOT\n",
            "a = {\n  # c\n}\n",
            "a = ( # c\n  1\n)\n",
            "a = \"${ /* c */ x }\"\n",
            "a = [for x in y : x if /* c */ x]\n",
            "a = = 1\n}}} b {\n",
            "a = f(\n  # c\n)\n",
            "",
            "  \n# only\n",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e == "hcl" || e == "tf" || e == "tfvars")
                {
                    texts.push(std::fs::read_to_string(&path).unwrap_or_default());
                }
            }
        }
        let mut nodes = 0;
        for text in &texts {
            let parse = crate::parse(text);
            for node in parse.syntax().descendants() {
                nodes += 1;
                assert_eq!(
                    trimmed_range(&node),
                    trimmed_range_by_tokens(&node, node.text_range()),
                    "{:?} {:?} in {text:?}",
                    node.kind(),
                    node.text_range()
                );
            }
        }
        assert!(nodes > 5_000, "{nodes} nodes checked");
    }

    /// `var.x` at the root of a traversal reads `var` in place: the same
    /// values, diagnostics and budget use as copying it (which a time
    /// limit forces).
    #[test]
    fn root_attributes_read_in_place_evaluate_as_copies() {
        use crate::eval::Budget;
        let with = |budget: Budget| {
            let mut ctx = EvalContext::new().with_budget(budget);
            let mut var = BTreeMap::new();
            var.insert(SmolStr::new("a"), Value::int(1));
            var.insert(
                SmolStr::new("o"),
                Value::Object((BTreeMap::from([(SmolStr::new("b"), Value::string("x"))])).into()),
            );
            var.insert(SmolStr::new("s"), Value::string("secret").sensitive());
            ctx.set_variable("var", Value::Object(var.into()));
            ctx.set_variable("str", Value::string("text"));
            ctx.set_variable("n", Value::Null(Type::Dynamic));
            ctx
        };
        let slow_budget = |steps| Budget {
            steps,
            time: Some(std::time::Duration::from_secs(3600)),
            ..Budget::default()
        };
        let fast_budget = |steps| Budget {
            steps,
            ..Budget::default()
        };
        for text in [
            "var.a",
            "var.o.b",
            "var.o.c",
            "var.missing",
            "var.s",
            "str.x",
            "n.x",
            "nope.x",
            "var[\"a\"]",
            "[for v in [1] : var.a]",
            "[for var in [{a = 2}] : var.a]",
        ] {
            for steps in [1, 2, 3, 1000] {
                let parse = crate::parse_expr(text);
                let e = parse
                    .syntax()
                    .descendants()
                    .find_map(Expr::cast)
                    .expect("an expression");
                let slow = evaluate(&e, &with(slow_budget(steps)));
                let fast = evaluate(&e, &with(fast_budget(steps)));
                assert_eq!(
                    show_value(&slow.value),
                    show_value(&fast.value),
                    "{text} {steps}"
                );
                assert_eq!(slow.diagnostics, fast.diagnostics, "{text} {steps}");
            }
        }
    }

    fn show_value(v: &Value) -> String {
        format!("{v:?}")
    }

    #[test]
    fn operators() {
        assert_eq!(show("1 + 2 * 3"), "7");
        assert_eq!(show("7 % 3"), "1");
        assert_eq!(show("-7 % 3"), "-1");
        assert_eq!(show("\"1\" + 1"), "2");
        assert_eq!(show("1 == \"1\""), "false");
        assert_eq!(show("[1] == [1]"), "true");
        // Both sides are evaluated (no short circuit, as Terraform 1.11).
        assert!(show("true || x").starts_with("error: Unknown variable"));
        assert_eq!(show("!true"), "false");
        assert!(show("0/0").starts_with("error: Operation failed"));
    }

    #[test]
    fn collections_and_access() {
        assert_eq!(show("{a = 1}.a"), "1");
        assert_eq!(show("[1, 2][1]"), "2");
        assert_eq!(show("[1, 2][\"1\"]"), "2");
        assert_eq!(show("[{a = 1}, {a = 2}][*].a"), "[\n  1,\n  2,\n]");
        assert_eq!(show("null[*]"), "[]");
        assert_eq!(show("1[*]"), "[\n  1,\n]");
        assert_eq!(
            show("{for k, v in {b = 1, a = 2} : v => k}"),
            "{\n  \"1\" = \"b\"\n  \"2\" = \"a\"\n}"
        );
        assert_eq!(
            show("{for x in [1, 1, 2] : x => x...}"),
            "{\n  \"1\" = [\n    1,\n    1,\n  ]\n  \"2\" = [\n    2,\n  ]\n}"
        );
        assert!(show("[1][2]").contains("greater than or equal"));
    }

    #[test]
    fn conditionals_unify() {
        assert_eq!(show("true ? 1 : \"a\""), "\"1\"");
        assert_eq!(show("false ? null : 1"), "1");
        assert_eq!(show("true ? null : 1"), "tonumber(null)");
    }
}
