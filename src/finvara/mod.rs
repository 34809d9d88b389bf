//! Finvara (`.fin`), the fairy-chess stack language. The contract is
//! shared/spec/finvara.md; section numbers (§) below refer to it.
//!
//! Flow: [`syntax`] (lines, §1–§3, §5) and [`notation`] (§2.1) build the
//! [`ast`]; [`validate`] checks what needs the whole program (§2 symbols,
//! §3 board, §5 turn order and jump targets) and builds the [`ir`], with
//! [`lower`] turning each notation into path programs; then [`interp`]
//! runs it on the shared runtime (`crate::runtime::fin_board`) or
//! [`backend`] renders C or Rust through askama templates.

pub mod ast;
pub mod backend;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod notation;
pub mod syntax;
pub mod validate;

use crate::diagnostic::Diagnostic;

/// A program that passed every check, and the warnings found on the way.
pub struct Checked {
    /// The lowered program.
    pub program: ir::Program,
    /// Warnings (never errors).
    pub warnings: Vec<Diagnostic>,
}

/// Parse + validate + lower. All errors at once (file:line:col + caret
/// through our `Diagnostic`), sorted by position (§6).
pub fn check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
    let (file, mut errors) = syntax::parse(source);
    let (program, more, mut warnings) = validate::validate(&file);
    errors.extend(more);
    errors.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    warnings.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    match program {
        Some(program) if errors.is_empty() => Ok(Checked { program, warnings }),
        _ => Err(errors),
    }
}

/// Interprets `program`. A runtime error gives `Outcome::RuntimeError`
/// with its line (no newline); `max_steps` counts moves executed and gives
/// `Outcome::StepLimit(n)` when it runs out.
pub fn run(
    program: &ir::Program,
    input: &mut dyn std::io::BufRead,
    output: &mut dyn std::io::Write,
    max_steps: Option<u64>,
) -> crate::Outcome {
    interp::run(program, input, output, max_steps)
}

/// One standalone C99 file (needs only libc).
pub fn emit_c(program: &ir::Program, file_name: &str) -> String {
    backend::emit_c(program, file_name)
}

/// Generated Rust. `single_file`: one file `main.rs` with the runtime
/// inlined as `mod icp_rt { … }`. Otherwise `src/main.rs` with `mod
/// icp_rt;` and `src/icp_rt.rs` (the runtime with `#![allow(dead_code)]`).
pub fn emit_rust(
    program: &ir::Program,
    file_name: &str,
    single_file: bool,
) -> Vec<crate::GeneratedFile> {
    backend::emit_rust(program, file_name, single_file)
}
