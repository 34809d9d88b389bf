//! icp2c: a compiler for esoteric languages that run on a chess board.
//!
//! The core does no IO: it takes source text and returns values or
//! diagnostics. `main.rs` reads files, prints diagnostics and sets exit
//! codes. Flow for each language: source text → parser (AST with spans) →
//! validator → IR → interpreter, or back end view model → askama template →
//! C or Rust text. See `docs/architecture.md`.
//!
//! - [`common`]: what every front end uses (source text, spans,
//!   diagnostics, the outcome of a run).
//! - [`codegen`]: what every back end uses (targets and layouts, escaping,
//!   literals, the generated header, `Cargo.toml`).
//! - [`lang`]: one folder per language, each implementing [`lang::Lang`].
//! - [`driver`]: the one place that lists every language.
//! - `lsp` (with the `cli` feature): `icp2c lsp`, the language server.
//! - [`build`]: the build-script API (`icp2c::build::compile` in a
//!   `build.rs`), one of the library's two edges that do IO.

// A `Diagnostic` (144 bytes) is the error of every parser's `Result`:
// the cold path, taken once per bad line, where a box would only add an
// allocation.
#![allow(clippy::result_large_err)]

pub mod build;
pub mod codegen;
pub mod common;
pub mod driver;
pub mod lang;
#[cfg(feature = "cli")]
pub mod lsp;

pub use common::{GeneratedFile, Outcome, diagnostic, source};
