//! The source of what [`Document::set`] creates when an address goes
//! further than the document: missing blocks, attributes and object
//! keys, nested, laid out canonically at indentation zero.
//!
//! [`Document::set`]: crate::document::Document::set

use crate::document::address::Step;
use crate::document::error::{EditError, render_errors};
use crate::document::schema::{Shape, shape};
use crate::document::value::object_key;
use crate::refs::is_identifier;

/// What to insert into a body: the source of one item, and whether it is
/// a block.
pub(crate) struct NewItem {
    /// The item, laid out at indentation zero, without a final newline.
    pub text: String,
    /// True for a block.
    pub is_block: bool,
}

/// The item that makes `steps` exist in a body inside a block of type
/// `parent` (`None` at the top level), with `source` as the value of the
/// last step. The last step is an attribute; the steps before it are
/// blocks or attributes with object values, as [`crate::document::schema`] says.
pub(crate) fn body_item(
    parent: Option<&str>,
    steps: &[Step],
    source: &str,
) -> Result<NewItem, EditError> {
    let raw = raw_body_item(parent, steps, source)?;
    let formatted = crate::format(&format!("{}\n", raw.text));
    Ok(NewItem {
        text: formatted.trim_end_matches('\n').to_string(),
        is_block: raw.is_block,
    })
}

/// How the items of an object are written: `key = value` or
/// `key: value`, keys quoted only when they must be or always.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ObjectStyle {
    /// Items written `key: value`.
    pub colon: bool,
    /// Every key quoted, identifiers too.
    pub quoted_keys: bool,
}

impl ObjectStyle {
    /// A key in this style.
    pub fn key(&self, key: &str) -> String {
        if self.quoted_keys {
            format!("\"{}\"", crate::refs::escape_string(key))
        } else {
            object_key(key)
        }
    }

    /// The separator between a key and its value, before layout.
    fn separator(&self) -> &'static str {
        if self.colon { ": " } else { " = " }
    }
}

/// The item `key = value` (or `key: value`, as `style` says) that makes
/// `steps` exist in an object, the value laid out at indentation zero.
pub(crate) fn object_item(
    steps: &[Step],
    source: &str,
    style: ObjectStyle,
) -> Result<String, EditError> {
    let (first, rest) = steps
        .split_first()
        .ok_or_else(|| EditError::unsupported("nothing to create"))?;
    let key = match first {
        Step::Name(k) | Step::Key(k) => style.key(k),
        other => return Err(cannot_create(other, "an object")),
    };
    Ok(format!(
        "{key}{}{}",
        style.separator(),
        object_value(rest, source, style)?
    ))
}

fn raw_body_item(parent: Option<&str>, steps: &[Step], source: &str) -> Result<NewItem, EditError> {
    let (first, rest) = steps
        .split_first()
        .ok_or_else(|| EditError::unsupported("nothing to create"))?;
    let Step::Name(name) = first else {
        return Err(cannot_create(first, "a body"));
    };
    check_identifier(name)?;
    match shape(parent, name) {
        Shape::Block(count) if !rest.is_empty() => {
            let mut head = name.clone();
            for (k, step) in rest.iter().take(count).enumerate() {
                let Step::Name(label) = step else {
                    return Err(EditError::unsupported(format!(
                        "cannot create `{name}`: its label {} must be a name, not {}",
                        k + 1,
                        describe(step)
                    )));
                };
                head.push(' ');
                head.push_str(&label_source(label));
            }
            if rest.len() <= count {
                return Err(EditError::unsupported(format!(
                    "`{name}` is a block with {count} label{}: the address must give {} and then an attribute inside it",
                    if count == 1 { "" } else { "s" },
                    if count == 1 { "it" } else { "them" },
                )));
            }
            let inner = raw_body_item(Some(name), &rest[count..], source)?;
            Ok(NewItem {
                text: format!("{head} {{\n{}\n}}", inner.text),
                is_block: true,
            })
        }
        _ => Ok(NewItem {
            text: format!(
                "{name} = {}",
                raw_object_value(rest, source, ObjectStyle::default())?
            ),
            is_block: false,
        }),
    }
}

/// `source` inside nested objects, one per key, laid out at indentation
/// zero.
fn object_value(keys: &[Step], source: &str, style: ObjectStyle) -> Result<String, EditError> {
    if keys.is_empty() {
        return Ok(source.to_string());
    }
    let raw = raw_object_value(keys, source, style)?;
    let formatted = crate::format(&format!("x = {raw}\n"));
    Ok(formatted["x = ".len()..formatted.len() - 1].to_string())
}

fn raw_object_value(keys: &[Step], source: &str, style: ObjectStyle) -> Result<String, EditError> {
    let Some((first, rest)) = keys.split_first() else {
        return Ok(source.to_string());
    };
    let key = match first {
        Step::Name(k) | Step::Key(k) => style.key(k),
        other => return Err(cannot_create(other, "an object")),
    };
    Ok(format!(
        "{{\n{key}{}{}\n}}",
        style.separator(),
        raw_object_value(rest, source, style)?
    ))
}

fn describe(step: &Step) -> String {
    match step {
        Step::Name(n) => format!("`{n}`"),
        Step::Key(k) => format!("[\"{k}\"]"),
        Step::Index(i) => format!("[{i}]"),
        Step::Any => "`*`".to_string(),
    }
}

fn cannot_create(step: &Step, place: &str) -> EditError {
    match step {
        Step::Any => EditError::unsupported("cannot create `*`: name what to create"),
        Step::Index(_) => EditError::unsupported(format!(
            "cannot create the element {} in {place}: only a tuple has elements",
            describe(step)
        )),
        _ => EditError::unsupported(format!("cannot create {} in {place}", describe(step))),
    }
}

/// Checks a block type or attribute name.
pub(crate) fn check_identifier(name: &str) -> Result<(), EditError> {
    if is_identifier(name) {
        Ok(())
    } else {
        Err(EditError::InvalidName {
            name: name.to_string(),
            reason: "not an identifier".to_string(),
        })
    }
}

/// The source of a label: quoted, with escapes.
pub(crate) fn label_source(label: &str) -> String {
    format!("\"{}\"", crate::refs::escape_string(label))
}

/// The source of a new block, laid out at indentation zero.
pub(crate) fn block_source(
    type_name: &str,
    labels: &[&str],
    body: &str,
) -> Result<String, EditError> {
    check_identifier(type_name)?;
    let parse = crate::parse(body);
    if !parse.errors().is_empty() {
        return Err(EditError::InvalidValue {
            source: body.to_string(),
            reason: render_errors(parse.errors()),
        });
    }
    let mut head = type_name.to_string();
    for label in labels {
        head.push(' ');
        head.push_str(&label_source(label));
    }
    let body = body.trim_matches(|c| c == '\n' || c == '\r');
    let text = if body.trim().is_empty() {
        format!("{head} {{\n}}\n")
    } else {
        format!("{head} {{\n{body}\n}}\n")
    };
    let formatted = crate::format(&text);
    Ok(formatted.trim_end_matches('\n').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::address::Address;

    fn body(parent: Option<&str>, address: &str, source: &str) -> Result<String, EditError> {
        let a = Address::parse(address).unwrap();
        body_item(parent, a.steps(), source).map(|i| i.text)
    }

    #[test]
    fn blocks_attributes_and_objects() {
        assert_eq!(
            body(
                None,
                "terraform.required_providers.aws.version",
                "\"~> 5.0\""
            )
            .unwrap(),
            "terraform {\n  required_providers {\n    aws = {\n      version = \"~> 5.0\"\n    }\n  }\n}"
        );
        assert_eq!(
            body(None, "resource.aws_instance.web.ami", "\"x\"").unwrap(),
            "resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n}"
        );
        assert_eq!(
            body(Some("resource"), "tags[\"cost center\"]", "1").unwrap(),
            "tags = {\n  \"cost center\" = 1\n}"
        );
        let steps = Address::parse("a.b").unwrap();
        assert_eq!(
            object_item(steps.steps(), "1", ObjectStyle::default()).unwrap(),
            "a = {\n  b = 1\n}"
        );
        let json = ObjectStyle {
            colon: true,
            quoted_keys: true,
        };
        assert_eq!(
            object_item(steps.steps(), "1", json).unwrap(),
            "\"a\": {\n  \"b\" : 1\n}"
        );
    }

    #[test]
    fn what_cannot_be_created() {
        let err = body(None, "resource.aws_instance.web", "1").unwrap_err();
        assert!(err.to_string().contains("2 labels"), "{err}");
        let err = body(None, "resource.*.web.ami", "1").unwrap_err();
        assert!(err.to_string().contains("must be a name"), "{err}");
        let err = body(None, "locals.list[0]", "1").unwrap_err();
        assert!(err.to_string().contains("only a tuple"), "{err}");
        assert!(body(None, "9lives", "1").is_err());
    }
}
