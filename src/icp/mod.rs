//! InfChessPro (`.icp`): the front end (parse → validate → lower to IR).
//!
//! The contract is `spec/infchesspro.md` of the shared folder; the project's
//! own language reference is `docs/infchesspro.md`.

pub mod ast;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod syntax;
pub mod validate;

use crate::diagnostic::Diagnostic;

/// A program that passed every check, with the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The IR.
    pub program: ir::Program,
    /// Warnings (never errors), in line order.
    pub warnings: Vec<Diagnostic>,
}

/// Parses, validates and lowers `source`. Errors: every syntax error (one
/// per bad line), every label out of order, every unknown literal jump
/// target, all at once, sorted by position.
pub fn check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
    let (ast, mut errors) = syntax::parse(source);
    let (more, mut warnings) = validate::validate(&ast);
    if ast.statements.is_empty() && errors.is_empty() && more.is_empty() {
        warnings.push(
            Diagnostic::warning(0..0, "the program has no statements: it does nothing")
                .with_note("a file with no statements is a valid program that does nothing (§1)"),
        );
    }
    errors.extend(more);
    if !errors.is_empty() {
        errors.sort_by_key(|d| d.primary.span.start);
        return Err(errors);
    }
    Ok(Checked {
        program: lower::lower(&ast),
        warnings,
    })
}
