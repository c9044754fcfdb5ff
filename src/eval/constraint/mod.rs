//! Terraform type constraints (`list(string)`, `object({ a = optional(number, 1) })`,
//! `any`), read from their expressions and applied to values: conversion
//! to the type, then the defaults of optional attributes.

mod green;

use super::convert::{convert, unify};
use super::expr::evaluate;
use super::types::Type;
use super::value::Value;
use super::{ConvertError, EvalContext};
use crate::ast::{AstNode, Expr};
use std::collections::BTreeMap;

/// A type constraint.
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    /// `string`, `number`, `bool` or `any`.
    Type(Type),
    /// `list(T)`.
    List(Box<Constraint>),
    /// `set(T)`.
    Set(Box<Constraint>),
    /// `map(T)`.
    Map(Box<Constraint>),
    /// `tuple([T, ...])`.
    Tuple(Vec<Constraint>),
    /// `object({ name = T, other = optional(T, default) })`.
    Object(BTreeMap<String, Attribute>),
}

/// An attribute of an object constraint.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The attribute's constraint.
    pub constraint: Constraint,
    /// Whether it may be left out (`optional(...)`).
    pub optional: bool,
    /// The value it takes when left out or null.
    pub default: Option<Value>,
}

impl Constraint {
    /// Reads a constraint from its expression; `Err` says what is wrong.
    ///
    /// ```
    /// use hclwright::eval::{Constraint, Type};
    /// let parse = hclwright::parse_expr("map(list(string))");
    /// let expr = parse.syntax().first_child().and_then(|n| <hclwright::ast::Expr as hclwright::ast::AstNode>::cast(n)).unwrap();
    /// assert_eq!(Constraint::from_expr(&expr).unwrap().to_type(), Type::map(Type::list(Type::String)));
    /// ```
    pub fn from_expr(e: &Expr) -> Result<Constraint, String> {
        // The plain shapes (nearly every constraint written) are read from
        // the green tree; anything else, and every error, from the syntax
        // views below, which give the messages.
        match green::read(e.syntax()) {
            Some(c) => Ok(c),
            None => Constraint::from_syntax(e),
        }
    }

    /// [`from_expr`](Self::from_expr) through the typed syntax views.
    fn from_syntax(e: &Expr) -> Result<Constraint, String> {
        match e {
            Expr::Variable(v) => keyword(&v.name().unwrap_or_default()),
            Expr::QuotedTemplate(q) => match q.literal_value().as_deref() {
                // Terraform 0.11's quoted forms.
                Some("string") => Ok(Constraint::Type(Type::String)),
                Some("list") => Ok(Constraint::List(Box::new(Constraint::Type(Type::String)))),
                Some("map") => Ok(Constraint::Map(Box::new(Constraint::Type(Type::String)))),
                _ => Err(format!(
                    "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string); found {e}"
                )),
            },
            Expr::Paren(p) => p
                .expr()
                .ok_or_else(|| "empty type".to_string())
                .and_then(|e| Constraint::from_syntax(&e)),
            Expr::FunctionCall(c) => {
                let name = c.name();
                let args = c.args();
                let one = |args: &[Expr]| -> Result<Constraint, String> {
                    match args {
                        [a] => Constraint::from_syntax(a),
                        _ => Err(format!(
                            "The {name} type constructor requires one argument specifying the element type."
                        )),
                    }
                };
                match name.as_str() {
                    "list" => Ok(Constraint::List(Box::new(one(&args)?))),
                    "set" => Ok(Constraint::Set(Box::new(one(&args)?))),
                    "map" => Ok(Constraint::Map(Box::new(one(&args)?))),
                    "tuple" => match args.as_slice() {
                        [Expr::Tuple(t)] => Ok(Constraint::Tuple(
                            t.elements().map(|x| Constraint::from_syntax(&x)).collect::<Result<_, _>>()?,
                        )),
                        _ => Err("The tuple type constructor requires one argument specifying the element types as a list.".into()),
                    },
                    "object" => match args.as_slice() {
                        [Expr::Object(o)] => {
                            let mut attrs = BTreeMap::new();
                            for item in o.items() {
                                let key = item
                                    .key()
                                    .and_then(|k| k.literal_name())
                                    .ok_or("Object constructor map keys must be attribute names.")?;
                                let value = item.value().ok_or("missing attribute type")?;
                                attrs.insert(key, attribute(&value)?);
                            }
                            Ok(Constraint::Object(attrs))
                        }
                        _ => Err("The object type constructor requires one argument specifying the attribute types as a map.".into()),
                    },
                    "optional" => Err("Optional attribute modifier is only for object attributes".into()),
                    other => Err(format!("Keyword {} is not a valid type constructor.", super::go_quote(other))),
                }
            }
            other => Err(format!(
                "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string); found {other}"
            )),
        }
    }

    /// The type values take (optional attributes are ordinary ones).
    pub fn to_type(&self) -> Type {
        match self {
            Constraint::Type(t) => t.clone(),
            Constraint::List(c) => Type::list(c.to_type()),
            Constraint::Set(c) => Type::set(c.to_type()),
            Constraint::Map(c) => Type::map(c.to_type()),
            Constraint::Tuple(cs) => Type::Tuple(cs.iter().map(Constraint::to_type).collect()),
            Constraint::Object(attrs) => Type::Object(
                attrs
                    .iter()
                    .map(|(k, a)| (k.clone(), a.constraint.to_type()))
                    .collect(),
            ),
        }
    }

    fn has_optional(&self) -> bool {
        match self {
            Constraint::Type(_) => false,
            Constraint::List(c) | Constraint::Set(c) | Constraint::Map(c) => c.has_optional(),
            Constraint::Tuple(cs) => cs.iter().any(Constraint::has_optional),
            Constraint::Object(attrs) => attrs
                .values()
                .any(|a| a.optional || a.constraint.has_optional()),
        }
    }

    /// Converts `value` to the constraint's type, filling in optional
    /// attributes (null, or their default).
    pub fn apply(&self, value: &Value) -> Result<Value, ConvertError> {
        if !self.has_optional() {
            return convert(value, &self.to_type());
        }
        let err = |m: String| ConvertError {
            path: String::new(),
            message: m,
        };
        match (self, value) {
            (_, Value::Null(_)) => Ok(Value::Null(self.to_type())),
            (_, Value::Unknown(_)) => Ok(Value::Unknown(self.to_type())),
            (Constraint::Object(attrs), Value::Object(given) | Value::Map(_, given)) => {
                let mut out = BTreeMap::new();
                for (name, attr) in attrs {
                    let v = match given.get(name.as_str()) {
                        Some(v) => attr.constraint.apply(v)?,
                        None if attr.optional => Value::Null(attr.constraint.to_type()),
                        None => {
                            return Err(err(format!(
                                "attribute {} is required",
                                super::go_quote(name)
                            )));
                        }
                    };
                    let v = match (&v, &attr.default) {
                        (Value::Null(_), Some(d)) => attr.constraint.apply(d)?,
                        _ => v,
                    };
                    out.insert(name.as_str().into(), v);
                }
                Ok(Value::Object(out.into()))
            }
            (Constraint::List(c) | Constraint::Set(c), v) if v.elements().is_some() => {
                let items: Vec<Value> = v
                    .elements()
                    .unwrap_or_default()
                    .iter()
                    .map(|x| c.apply(x))
                    .collect::<Result<_, _>>()?;
                let ety = element_type(&items, c.to_type());
                let items = items
                    .iter()
                    .map(|x| convert(x, &ety))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(match self {
                    Constraint::Set(_) => Value::set(ety, items),
                    _ => Value::List(ety, items.into()),
                })
            }
            (Constraint::Map(c), Value::Map(_, given) | Value::Object(given)) => {
                let mut out = BTreeMap::new();
                for (k, v) in given {
                    out.insert(k.clone(), c.apply(v)?);
                }
                let items: Vec<Value> = out.values().cloned().collect();
                let ety = element_type(&items, c.to_type());
                let out = out
                    .into_iter()
                    .map(|(k, v)| convert(&v, &ety).map(|v| (k, v)))
                    .collect::<Result<_, _>>()?;
                Ok(Value::Map(ety, out))
            }
            (Constraint::Tuple(cs), Value::Tuple(items) | Value::List(_, items))
                if cs.len() == items.len() =>
            {
                Ok(Value::Tuple(
                    cs.iter()
                        .zip(items)
                        .map(|(c, v)| c.apply(v))
                        .collect::<Result<_, _>>()?,
                ))
            }
            _ => convert(value, &self.to_type()),
        }
    }
}

fn element_type(items: &[Value], fallback: Type) -> Type {
    if items.is_empty() {
        return fallback;
    }
    let types: Vec<Type> = items.iter().map(Value::ty).collect();
    unify(&types).unwrap_or(fallback)
}

fn keyword(name: &str) -> Result<Constraint, String> {
    Ok(Constraint::Type(match name {
        "string" => Type::String,
        "number" => Type::Number,
        "bool" => Type::Bool,
        "any" => Type::Dynamic,
        "list" | "set" | "map" | "tuple" | "object" => {
            return Err(format!(
                "The {name} type constructor requires one argument specifying the element type."
            ));
        }
        other => {
            return Err(format!(
                "The keyword {} is not a valid type specification.",
                super::go_quote(other)
            ));
        }
    }))
}

fn attribute(e: &Expr) -> Result<Attribute, String> {
    if let Expr::FunctionCall(c) = e
        && c.name() == "optional"
    {
        {
            let args = c.args();
            let constraint =
                match args.first() {
                    Some(a) => Constraint::from_syntax(a)?,
                    None => return Err(
                        "Optional attribute modifier requires the attribute type as its argument."
                            .into(),
                    ),
                };
            let default = match args.get(1) {
                Some(d) => Some(optional_default(&constraint, d)?),
                None => None,
            };
            return Ok(Attribute {
                constraint,
                optional: true,
                default,
            });
        }
    }
    Ok(Attribute {
        constraint: Constraint::from_syntax(e)?,
        optional: false,
        default: None,
    })
}

/// The default of an optional attribute (`optional(T, default)`): the
/// expression's value, converted to the attribute's constraint.
fn optional_default(constraint: &Constraint, default: &Expr) -> Result<Value, String> {
    let r = evaluate(default, &EvalContext::new());
    if let Some(diag) = r.diagnostics.first() {
        return Err(diag.message());
    }
    constraint
        .apply(&r.value)
        .map_err(|e| format!("Invalid default value for optional attribute: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::eval::{console_string, evaluate_str};

    fn constraint(text: &str) -> Constraint {
        let parse = crate::parse_expr(text);
        let e = parse.syntax().descendants().find_map(Expr::cast).unwrap();
        Constraint::from_expr(&e).unwrap()
    }

    #[test]
    fn optional_defaults() {
        let c = constraint("object({ a = string, b = optional(number, 3), c = optional(bool) })");
        let v = evaluate_str("{ a = \"x\" }", &EvalContext::new()).unwrap();
        let out = c.apply(&v).unwrap();
        assert_eq!(
            console_string(&out),
            "{\n  \"a\" = \"x\"\n  \"b\" = 3\n  \"c\" = tobool(null)\n}"
        );
    }

    #[test]
    fn collections() {
        let c = constraint("list(any)");
        let v = evaluate_str("[1, \"a\"]", &EvalContext::new()).unwrap();
        assert_eq!(c.apply(&v).unwrap().ty(), Type::list(Type::String));
        assert!(
            Constraint::from_expr(
                &crate::parse_expr("list")
                    .syntax()
                    .descendants()
                    .find_map(Expr::cast)
                    .unwrap()
            )
            .is_err()
        );
    }
}
