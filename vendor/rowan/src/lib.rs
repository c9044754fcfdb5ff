//! A generic library for lossless syntax trees.
//! See `examples/s_expressions.rs` for a tutorial.
#![forbid(
    // missing_debug_implementations,
    unconditional_recursion,
    future_incompatible,
    // missing_docs,
)]
#![deny(unsafe_code)]
// (hclwright) Upstream's code as published: hclwright's clippy run, which
// reaches path dependencies, does not lint it.
#![allow(clippy::all)]

#[allow(unsafe_code)]
mod green;
#[allow(unsafe_code)]
pub mod cursor;

pub mod api;
mod syntax_text;
mod utility_types;

mod cow_mut;
#[allow(unsafe_code)]
mod arc;
#[allow(unsafe_code)]
mod chunk;
#[allow(unsafe_code)]
mod pool;
#[cfg(feature = "serde1")]
mod serde_impls;
pub mod ast;

pub use text_size::{TextLen, TextRange, TextSize};

/// (hclwright) See `chunk.rs`.
pub use crate::chunk::chunk_bytes;

pub use crate::{
    api::{
        Language, SyntaxElement, SyntaxElementChildren, SyntaxNode, SyntaxNodeChildren, SyntaxToken,
    },
    green::{
        Checkpoint, Children, GreenNode, GreenNodeBuilder, GreenNodeData, GreenToken,
        GreenTokenData, NodeCache, SizedChild, SyntaxKind,
    },
    syntax_text::SyntaxText,
    utility_types::{Direction, NodeOrToken, TokenAtOffset, WalkEvent},
};
