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
//! - [`build`]: the build-script API (`icp2c::build::compile` in a
//!   `build.rs`), one of the library's two edges that do IO.

pub mod build;
pub mod codegen;
pub mod common;
pub mod driver;
pub mod lang;

pub use common::{GeneratedFile, Outcome, diagnostic, source};
