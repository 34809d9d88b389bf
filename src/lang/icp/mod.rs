//! InfChessPro (`.icp`): the front end (parse → validate → lower to IR).
//!
//! The contract is `spec/infchesspro.md` of the shared folder; the project's
//! own language reference is `docs/infchesspro.md`.

pub mod ast;
pub mod fmt;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod opt;
pub mod outline;
pub mod syntax;
pub mod trace;
pub mod validate;

/// IR → view model → `templates/icp/{c,rust}/program.*`.
pub mod backend {
    pub mod c;
    pub mod plan;
    pub mod rust;
}

/// The board runtime: `board.rs` (with the parts it `include!`s,
/// `board/*.rs`) is compiled into icp2c (the interpreter) and pasted into
/// generated Rust; `board.c` (with `board/*.c`, the parts' twins) is its C
/// port, pasted into generated C; a generated program carries the sections of them that
/// its calls reach, which `api.rs` lists.
pub mod runtime {
    pub mod api;
    pub mod board;
}

use super::{FormatOptions, Lang, RunOptions, UsageError, emit_program, no_language_options};
use crate::codegen::sections::Selected;
use crate::codegen::{EmitRequest, Target, Unsupported};
use crate::common::debug::{Debugger, Stepper};
use crate::common::diagnostic::Diagnostic;
use crate::common::watch::Shape;
use crate::{GeneratedFile, Outcome};
use std::io::{BufRead, Write};

/// A program that passed every check, with the warnings found on the way.
pub type Checked = super::Checked<ir::Program>;

/// InfChessPro, as the driver sees it.
pub struct InfChessPro;

impl Lang for InfChessPro {
    type Program = ir::Program;
    const NAME: &'static str = "InfChessPro";
    const EXTENSION: &'static str = "icp";
    const RUN_REPORTS_MEMORY_EXHAUSTION: bool = true;

    fn check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
        check(source)
    }

    /// A step is a statement.
    fn run(
        program: &ir::Program,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        no_language_options(Self::NAME, options)?;
        let steps = options.max_steps;
        // A traced run shows every statement: it is not optimised.
        if let Some(mut watch) = trace::Watch::new(program, errors, options) {
            return Ok(interp::run(
                program,
                input,
                output,
                steps,
                Some(&mut watch),
                options.unbuffered,
            ));
        }
        if options.no_opt {
            return Ok(interp::run(
                program,
                input,
                output,
                steps,
                None,
                options.unbuffered,
            ));
        }
        let optimised = opt::optimise(program.clone());
        Ok(interp::run(
            &optimised,
            input,
            output,
            steps,
            None,
            options.unbuffered,
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
        options: &RunOptions,
        keep: usize,
    ) -> Option<Debugger<Box<dyn Stepper + 'a>>> {
        let stepper = interp::Stepper::new(program, input, output, options.glyphs);
        Some(Debugger::new(
            Box::new(stepper),
            Shape::Unbounded,
            Vec::new(),
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
        let (c, rust) = (backend::c::emit, backend::rust::emit_rust);
        if request.no_opt {
            return emit_program(Self::NAME, c, rust, program, request);
        }
        let optimised = opt::optimise(program.clone());
        emit_program(Self::NAME, c, rust, &optimised, request)
    }

    fn runtime(
        program: &ir::Program,
        target: Target,
        no_opt: bool,
    ) -> Result<Selected, Unsupported> {
        let optimised;
        let program = if no_opt {
            program
        } else {
            optimised = opt::optimise(program.clone());
            &optimised
        };
        let (text, sections) = match target {
            Target::C => backend::c::runtime(program),
            Target::Rust => backend::rust::runtime(program),
        };
        Ok(Selected {
            text,
            sections: sections.into_iter().collect(),
        })
    }
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
