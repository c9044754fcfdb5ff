//! Values of JSON expressions, as the JSON syntax specification defines
//! them: objects are objects (their property names evaluated too), arrays
//! are tuples, numbers, booleans and null are themselves, and strings are
//! templates in the native syntax (`"${a + b}"` is the number, as its
//! single interpolation unwraps), or literal text in literal-only mode.

use smol_str::SmolStr;
use std::collections::BTreeMap;

use text_size::{TextRange, TextSize};

use super::ast::JsonValue;
use crate::ast::{self, AstNode};
use crate::eval::expr::Evaluator;
use crate::eval::{Diagnostic, EvalContext, Evaluation, Number, Type, Value, convert};
use crate::syntax_kind::SyntaxToken;

/// How JSON strings are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringMode {
    /// Strings are templates (`"${var.a}-x"`): the usual mode for
    /// attribute values.
    Full,
    /// Strings are their literal text (`${` passes through).
    Literal,
}

/// Evaluates a JSON value in `ctx` (strings as templates).
///
/// ```
/// use hclwright::eval::{EvalContext, Value, console_string};
/// let parse = hclwright::json::parse(r#"{"a": "${1 + 2}", "b": "n-${2 * 2}", "c": [true, null]}"#);
/// let v = hclwright::json::evaluate(&parse.root().unwrap(), &EvalContext::new());
/// assert!(v.diagnostics.is_empty());
/// assert_eq!(
///     console_string(&v.value),
///     "{\n  \"a\" = 3\n  \"b\" = \"n-4\"\n  \"c\" = [\n    true,\n    null,\n  ]\n}"
/// );
/// ```
pub fn evaluate(value: &JsonValue, ctx: &EvalContext) -> Evaluation {
    evaluate_in(value, ctx, StringMode::Full)
}

/// Evaluates a JSON value in `ctx` in the given mode.
pub fn evaluate_in(value: &JsonValue, ctx: &EvalContext, mode: StringMode) -> Evaluation {
    let mut diagnostics = Vec::new();
    let value = eval(value, ctx, mode, &mut diagnostics, 0);
    Evaluation { value, diagnostics }
}

fn eval(
    value: &JsonValue,
    ctx: &EvalContext,
    mode: StringMode,
    diagnostics: &mut Vec<Diagnostic>,
    depth: u32,
) -> Value {
    crate::parser::with_stack(depth, || match value {
        JsonValue::Object(object) => {
            let mut out: BTreeMap<SmolStr, Value> = BTreeMap::new();
            let mut defined: BTreeMap<String, TextRange> = BTreeMap::new();
            let mut unknown_key = false;
            for member in object.members() {
                let Some(token) = member.name_token() else {
                    continue;
                };
                let key = match member.name() {
                    Some(name) => match mode {
                        StringMode::Literal => Value::string(name),
                        StringMode::Full => template(&token, &name, ctx, diagnostics),
                    },
                    None => continue,
                };
                let range = token.text_range();
                let key = match key.unmarked().0 {
                    Value::Unknown(_) => {
                        unknown_key = true;
                        continue;
                    }
                    Value::Null(_) => {
                        diagnostics.push(Diagnostic::new(
                            "Invalid object key expression",
                            "Cannot use null value as an object key.",
                            range,
                        ));
                        continue;
                    }
                    other => match convert(other, &Type::String) {
                        Ok(Value::String(s)) => s.to_string(),
                        Ok(_) | Err(_) => {
                            diagnostics.push(Diagnostic::new(
                                "Invalid object key expression",
                                format!(
                                    "Cannot use {} as an object key: a string is required.",
                                    other.ty().friendly_name()
                                ),
                                range,
                            ));
                            continue;
                        }
                    },
                };
                let v = match member.value() {
                    Some(v) => eval(&v, ctx, mode, diagnostics, depth + 1),
                    None => Value::Unknown(Type::Dynamic),
                };
                if let Some(first) = defined.get(&key) {
                    diagnostics.push(
                        Diagnostic::new(
                            "Duplicate object attribute",
                            format!(
                                "An attribute named {key:?} was already defined at byte {}.",
                                u32::from(first.start())
                            ),
                            range,
                        )
                        .with_context(object.syntax().text_range()),
                    );
                    continue;
                }
                defined.insert(key.clone(), range);
                out.insert(key.into(), v);
            }
            if unknown_key {
                Value::Unknown(Type::Dynamic)
            } else {
                Value::Object(out.into())
            }
        }
        JsonValue::Array(array) => Value::Tuple(
            array
                .elements()
                .map(|e| eval(&e, ctx, mode, diagnostics, depth + 1))
                .collect(),
        ),
        JsonValue::String(token) => match value.as_str() {
            Some(text) => match mode {
                StringMode::Literal => Value::string(text),
                StringMode::Full => template(token, &text, ctx, diagnostics),
            },
            None => Value::Unknown(Type::Dynamic),
        },
        JsonValue::Number(token) => match Number::parse(token.text()) {
            Some(n) => Value::Number(n),
            None => Value::Unknown(Type::Number),
        },
        JsonValue::Bool(_) => Value::Bool(value.as_bool() == Some(true)),
        JsonValue::Null(_) => Value::Null(Type::Dynamic),
        JsonValue::Invalid(_) => Value::Unknown(Type::Dynamic),
    })
}

/// Evaluates `text`, the value of the string `token`, as a template;
/// problems inside it are placed in the token (exactly where the string
/// has no escapes, else on the whole string).
fn template(
    token: &SyntaxToken,
    text: &str,
    ctx: &EvalContext,
    diagnostics: &mut Vec<Diagnostic>,
) -> Value {
    if !text.contains("${") && !text.contains("%{") {
        return Value::string(text);
    }
    let whole = token.text_range();
    let place = |range: TextRange| -> TextRange {
        if token.text().contains('\\') {
            whole
        } else {
            let base = whole.start() + TextSize::new(1);
            TextRange::new(base + range.start(), base + range.end())
        }
    };
    let parse = crate::parse_template(text);
    if !parse.errors().is_empty() {
        for e in parse.errors() {
            diagnostics.push(Diagnostic::new(
                "Invalid template",
                e.message.clone(),
                place(e.range),
            ));
        }
        return Value::Unknown(Type::Dynamic);
    }
    let parts: Vec<ast::TemplatePart> = ast::TemplateRoot::cast(parse.syntax())
        .map(|t| t.parts().collect())
        .unwrap_or_default();
    let mut ev = Evaluator::new(ctx);
    let value = crate::eval::template::evaluate_parts(&mut ev, parts, true, false);
    for mut d in ev.diagnostics {
        d.range = place(d.range);
        d.context = d.context.map(place);
        diagnostics.push(d);
    }
    value
}
