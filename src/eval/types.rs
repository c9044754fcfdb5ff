//! Types as cty has them: primitives, collections (list, set, map),
//! structurals (tuple, object) and the `dynamic` placeholder.

use std::collections::BTreeMap;

/// A value's type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// Any type: the type of a value not known yet, or of a bare `null`.
    Dynamic,
    /// A Unicode string.
    String,
    /// An arbitrary-precision number.
    Number,
    /// `true` or `false`.
    Bool,
    /// An ordered sequence of elements of one type.
    List(Box<Type>),
    /// An unordered collection of distinct elements of one type.
    Set(Box<Type>),
    /// String keys to elements of one type.
    Map(Box<Type>),
    /// An ordered sequence, each element of its own type.
    Tuple(Vec<Type>),
    /// Named attributes, each of its own type.
    Object(BTreeMap<String, Type>),
}

impl Type {
    /// Whether the type is a primitive or `dynamic` (owns nothing on the
    /// heap).
    pub(crate) fn is_primitive_or_dynamic(&self) -> bool {
        matches!(
            self,
            Type::Dynamic | Type::String | Type::Number | Type::Bool
        )
    }

    /// `list(element)`.
    pub fn list(element: Type) -> Type {
        Type::List(Box::new(element))
    }

    /// `set(element)`.
    pub fn set(element: Type) -> Type {
        Type::Set(Box::new(element))
    }

    /// `map(element)`.
    pub fn map(element: Type) -> Type {
        Type::Map(Box::new(element))
    }

    /// Whether this is string, number or bool.
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }

    /// Whether this is a list, set or map.
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }

    /// The element type of a list, set or map.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(t) | Type::Set(t) | Type::Map(t) => Some(t),
            _ => None,
        }
    }

    /// Whether `dynamic` appears anywhere in the type.
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_dynamic(),
            Type::Tuple(ts) => ts.iter().any(Type::has_dynamic),
            Type::Object(ts) => ts.values().any(Type::has_dynamic),
            _ => false,
        }
    }

    /// The name cty gives the type in messages: `string`, `list of number`,
    /// `object`, `dynamic`.
    pub fn friendly_name(&self) -> String {
        match self {
            Type::Dynamic => "dynamic".into(),
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::List(t) => format!("list of {}", t.friendly_name()),
            Type::Set(t) => format!("set of {}", t.friendly_name()),
            Type::Map(t) => format!("map of {}", t.friendly_name()),
            Type::Tuple(_) => "tuple".into(),
            Type::Object(_) => "object".into(),
        }
    }

    /// The name used when the type is a constraint: `dynamic` is `any type`.
    pub fn friendly_name_for_constraint(&self) -> String {
        match self {
            Type::Dynamic => "any type".into(),
            Type::List(t) => format!("list of {}", t.friendly_name_for_constraint()),
            Type::Set(t) => format!("set of {}", t.friendly_name_for_constraint()),
            Type::Map(t) => format!("map of {}", t.friendly_name_for_constraint()),
            other => other.friendly_name(),
        }
    }

    /// The type in cty's JSON notation: `"string"`, `["list","number"]`,
    /// `["object",{"a":"bool"}]`.
    ///
    /// ```
    /// use hclwright::eval::Type;
    /// assert_eq!(Type::list(Type::Number).to_json(), r#"["list","number"]"#);
    /// ```
    pub fn to_json(&self) -> String {
        match self {
            Type::Dynamic => "\"dynamic\"".into(),
            Type::String => "\"string\"".into(),
            Type::Number => "\"number\"".into(),
            Type::Bool => "\"bool\"".into(),
            Type::List(t) => format!("[\"list\",{}]", t.to_json()),
            Type::Set(t) => format!("[\"set\",{}]", t.to_json()),
            Type::Map(t) => format!("[\"map\",{}]", t.to_json()),
            Type::Tuple(ts) => {
                let items: Vec<String> = ts.iter().map(Type::to_json).collect();
                format!("[\"tuple\",[{}]]", items.join(","))
            }
            Type::Object(ts) => {
                let items: Vec<String> = ts
                    .iter()
                    .map(|(k, t)| format!("{}:{}", super::display::json_string(k), t.to_json()))
                    .collect();
                format!("[\"object\",{{{}}}]", items.join(","))
            }
        }
    }

    /// The type as written in a Terraform type constraint:
    /// `list(string)`, `object({a = number})`.
    pub fn to_constraint(&self) -> String {
        match self {
            Type::Dynamic => "any".into(),
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::List(t) => format!("list({})", t.to_constraint()),
            Type::Set(t) => format!("set({})", t.to_constraint()),
            Type::Map(t) => format!("map({})", t.to_constraint()),
            Type::Tuple(ts) => {
                let items: Vec<String> = ts.iter().map(Type::to_constraint).collect();
                format!("tuple([{}])", items.join(", "))
            }
            Type::Object(ts) => {
                let items: Vec<String> = ts
                    .iter()
                    .map(|(k, t)| format!("{k} = {}", t.to_constraint()))
                    .collect();
                format!("object({{{}}})", items.join(", "))
            }
        }
    }
}

impl Type {
    /// The type as `terraform console`'s `type()` prints it: `number`,
    /// `list(string)`, and nested types over several lines, four spaces a
    /// level (`object({\n    a: number,\n})`).
    ///
    /// ```
    /// use hclwright::eval::Type;
    /// assert_eq!(Type::Tuple(vec![Type::Number]).console_type_string(), "tuple([\n    number,\n])");
    /// ```
    pub fn console_type_string(&self) -> String {
        let mut out = String::new();
        self.write_console_type(0, &mut out);
        out
    }

    fn write_console_type(&self, indent: usize, out: &mut String) {
        let pad = |n: usize| " ".repeat(n);
        match self {
            Type::Dynamic | Type::String | Type::Number | Type::Bool => {
                out.push_str(&self.friendly_name())
            }
            Type::List(e) | Type::Set(e) | Type::Map(e) => {
                let name = match self {
                    Type::List(_) => "list",
                    Type::Set(_) => "set",
                    _ => "map",
                };
                if e.is_primitive() || **e == Type::Dynamic {
                    out.push_str(&format!("{name}({})", e.friendly_name()));
                } else {
                    out.push_str(&format!("{name}(\n{}", pad(indent + 4)));
                    e.write_console_type(indent + 4, out);
                    out.push_str(&format!(",\n{})", pad(indent)));
                }
            }
            Type::Tuple(ts) => {
                if ts.is_empty() {
                    out.push_str("tuple([])");
                    return;
                }
                out.push_str("tuple([\n");
                for t in ts {
                    out.push_str(&pad(indent + 4));
                    t.write_console_type(indent + 4, out);
                    out.push_str(",\n");
                }
                out.push_str(&format!("{}])", pad(indent)));
            }
            Type::Object(attrs) => {
                if attrs.is_empty() {
                    out.push_str("object({})");
                    return;
                }
                out.push_str("object({\n");
                for (k, t) in attrs {
                    out.push_str(&format!("{}{k}: ", pad(indent + 4)));
                    t.write_console_type(indent + 4, out);
                    out.push_str(",\n");
                }
                out.push_str(&format!("{}}})", pad(indent)));
            }
        }
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_constraint())
    }
}
