//! Finvara (`.fin`), the fairy-chess stack language. The contract is
//! shared/spec/finvara.md; section numbers (§) below refer to it.
//!
//! Flow: [`syntax`] (lines, §1–§3, §5) and [`notation`] (§2.1) build the
//! [`ast`]; [`validate`] checks what needs the whole program (§2 symbols,
//! §3 board, §5 turn order and jump targets) and builds the [`ir`], with
//! [`lower`] turning each notation into path programs; then [`interp`]
//! runs it on the shared runtime (`crate::lang::finvara::runtime::board`) or
//! [`backend`] renders C or Rust through askama templates.

pub mod ast;
pub mod backend;
pub mod fmt;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod notation;
pub mod outline;
pub mod syntax;
pub mod trace;
pub mod validate;

/// The board runtime: `board.rs` is compiled into icp2c (the interpreter)
/// and pasted into generated Rust; `board.c` is its C port, pasted into
/// generated C.
pub mod runtime {
    pub mod api;
    pub mod board;
}

use super::{FormatOptions, Lang, RunOptions, UsageError, emit_program, no_language_options};
use crate::codegen::sections::{Markers, Runtime, Selected};
use crate::codegen::{EmitRequest, Target, Unsupported};
use crate::common::debug::{Debugger, Stepper};
use crate::common::diagnostic::Diagnostic;
use crate::{GeneratedFile, Outcome};
use std::io::{BufRead, Write};

/// A program that passed every check, and the warnings found on the way.
pub type Checked = super::Checked<ir::Program>;

/// Finvara, as the driver sees it.
pub struct Finvara;

impl Lang for Finvara {
    type Program = ir::Program;
    const NAME: &'static str = "Finvara";
    const EXTENSION: &'static str = "fin";
    const RUN_REPORTS_MEMORY_EXHAUSTION: bool = true;

    fn check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
        check(source)
    }

    /// A step is a move executed.
    fn run(
        program: &ir::Program,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        no_language_options(Self::NAME, options)?;
        let mut watch = trace::Watch::new(program, errors, options);
        Ok(interp::run(
            program,
            input,
            output,
            options.max_steps,
            watch.as_mut(),
        ))
    }

    fn record(
        program: &ir::Program,
        input: &mut dyn BufRead,
        options: &RunOptions,
    ) -> Option<crate::common::watch::Recording> {
        Some(trace::record(program, input, options))
    }

    fn debugger<'a>(
        program: &'a ir::Program,
        input: Box<dyn BufRead + 'a>,
        output: Box<dyn Write + 'a>,
        _options: &RunOptions,
        keep: usize,
    ) -> Option<Debugger<Box<dyn Stepper + 'a>>> {
        let stepper = interp::Stepper::new(program, input, output);
        Some(Debugger::new(
            Box::new(stepper),
            trace::shape(program),
            trace::start(program),
            keep,
        ))
    }

    fn format(source: &str, options: &FormatOptions) -> Result<Vec<String>, Vec<Diagnostic>> {
        fmt::format(source, options)
    }

    fn outline(source: &str) -> crate::common::outline::Outline {
        outline::outline(source)
    }

    fn emit(
        program: &ir::Program,
        request: &EmitRequest<'_>,
    ) -> Result<Vec<GeneratedFile>, Unsupported> {
        emit_program(
            Self::NAME,
            backend::emit_c,
            backend::emit_rust,
            program,
            request,
        )
    }

    fn runtime(program: &ir::Program, target: Target, _: bool) -> Result<Selected, Unsupported> {
        let uses = backend::uses(program);
        Ok(match target {
            Target::C => Selected {
                text: backend::c_runtime(&uses),
                sections: Runtime::parse(backend::C_RUNTIME, Markers::C)
                    .expect("the Finvara C runtime's section markers parse")
                    .reach(&uses)
                    .into_iter()
                    .collect(),
            },
            Target::Rust => Selected {
                text: backend::rust_runtime(&uses),
                sections: backend::rust_sections().reach(&uses).into_iter().collect(),
            },
        })
    }
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
