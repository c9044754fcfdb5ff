//! Functions for the evaluation context, by family. HCL itself defines
//! none; an application opts into the families it wants.

pub mod collections;
pub mod conversion;
pub mod datetime;
pub mod encoding;
pub mod filesystem;
pub mod format;
pub mod limits;
pub mod network;
pub mod numbers;
pub mod strings;
mod support;
pub mod yaml;

use super::context::EvalContext;

impl EvalContext {
    /// The context with the type conversion functions (`tostring`,
    /// `tonumber`, `tobool`, `tolist`, `toset`, `tomap`).
    ///
    /// ```
    /// use hclwright::eval::{EvalContext, console_string, evaluate_str};
    /// let ctx = EvalContext::new().with_conversion_functions();
    /// let v = evaluate_str("tolist([1, \"a\"])", &ctx).unwrap();
    /// assert_eq!(console_string(&v), "tolist([\n  \"1\",\n  \"a\",\n])");
    /// ```
    pub fn with_conversion_functions(mut self) -> EvalContext {
        conversion::register(&mut self);
        self
    }

    /// The context with Terraform's function library, the families
    /// implemented so far: conversion (with `try` and `can`), strings
    /// (with `format`), collections, numbers, encodings (JSON, YAML, ...)
    /// and hashes, and IP networks.
    ///
    /// ```
    /// use hclwright::eval::{EvalContext, console_string, evaluate_str};
    /// let ctx = EvalContext::new().with_terraform_functions();
    /// let v = evaluate_str("merge({a = 1}, {b = upper(\"x\")})", &ctx).unwrap();
    /// assert_eq!(console_string(&v), "{\n  \"a\" = 1\n  \"b\" = \"X\"\n}");
    /// ```
    pub fn with_terraform_functions(mut self) -> EvalContext {
        self = self.with_core_functions();
        filesystem::register_withheld(&mut self);
        self
    }

    /// The context with the filesystem functions (`file`, `fileset`,
    /// `templatefile`, ...) reading relative paths from `base` (a module
    /// folder). Without this call they refuse to run and read nothing.
    pub fn with_filesystem_functions(mut self, base: &std::path::Path) -> EvalContext {
        filesystem::register(&mut self, base);
        self
    }

    fn with_core_functions(mut self) -> EvalContext {
        conversion::register(&mut self);
        self.set_function(
            "try",
            crate::eval::Function::lazy(crate::eval::context::Lazy::Try),
        );
        self.set_function(
            "can",
            crate::eval::Function::lazy(crate::eval::context::Lazy::Can),
        );
        self.set_function(
            "templatestring",
            crate::eval::Function::lazy(crate::eval::context::Lazy::TemplateString),
        );
        strings::register(&mut self);
        encoding::register(&mut self);
        encoding::register_text(&mut self);
        encoding::register_crypto(&mut self);
        network::register(&mut self);
        format::register(&mut self);
        collections::register(&mut self);
        numbers::register(&mut self);
        datetime::register(&mut self);
        yaml::register(&mut self);
        for (name, instead) in [
            ("list", "tolist([ ... ]) syntax to write a literal list"),
            ("map", "tomap({ ... }) syntax to write a literal map"),
        ] {
            let message = format!(
                "the \"{name}\" function was deprecated in Terraform v0.12 and is no longer available; use {instead}"
            );
            self.set_function(
                name,
                crate::eval::Function::new(vec![], crate::eval::Type::Dynamic, move |_, _| {
                    Err(crate::eval::FunctionError::new(message.clone()))
                })
                .variadic(
                    crate::eval::Param::new("args", crate::eval::Type::Dynamic)
                        .allow_null()
                        .allow_dynamic()
                        .allow_unknown(),
                ),
            );
        }
        self
    }
}
