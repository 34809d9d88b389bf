//! CHEG (`.cheg`), the endgame language of MacHack VI (MIT, 1973). The
//! contract is `spec/cheg.md` of the shared folder; the project's own
//! language reference is `docs/cheg.md`.
//!
//! A CHEG program becomes a chess engine: legal chess, perft, a
//! fixed-depth search that consults the endgame program at its nodes (§6,
//! §7.3), and the UCI protocol (§7.4). Flow: `front` (lines → statements
//! with spans) → validation and resolution of tags, variables, instructions
//! → [`ir::Program`] → `interp` (the endgame program inside the search of
//! `runtime::engine`).

pub mod backend;
pub mod fmt;
pub mod front;
pub mod interp;
pub mod ir;
pub mod outline;

/// The chess-engine runtime in Rust (std only, no unsafe, never panics):
/// compiled into icp2c for `run` (whole), and pasted into generated Rust,
/// cut down to the sections a program uses ([`runtime::api`]), as the
/// sibling modules `chess`, `engine` and `uci` of `icp_rt`.
pub mod runtime {
    pub mod api;
    pub mod chess;
    pub mod engine;
    pub mod uci;
}

use super::{FormatOptions, Lang, RunOptions, UsageError};
use crate::codegen::sections::Selected;
use crate::codegen::{EmitRequest, Target, Unsupported};
use crate::common::diagnostic::Diagnostic;
use crate::{GeneratedFile, Outcome};
use runtime::uci;
use std::io::{BufRead, Write};

/// A program that passed every check, with the warnings found on the way
/// (§1's 6-character warning).
pub type Checked = super::Checked<ir::Program>;

/// CHEG, as the driver sees it.
pub struct Cheg;

impl Lang for Cheg {
    type Program = ir::Program;
    const NAME: &'static str = "CHEG";
    const EXTENSION: &'static str = "cheg";

    fn check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
        check(source)
    }

    /// Runs the engine with the program built in, as a generated engine
    /// runs (§7.4, §7.5): `options.args` are the engine's arguments
    /// (`--fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft
    /// N]`), or none for UCI on `input`/`output`; `options.source_name`
    /// names it (`id name`, [`engine_name`]). UCI commands are read in
    /// place: a command that arrives during a search is read when the
    /// search next looks (an input held in memory is all there;
    /// [`Lang::run_live`] reads a live one on a thread). `--max-steps` is
    /// refused: an engine's work is bounded by its depth, and each
    /// invocation by §5.2's limit.
    fn run(
        program: &ir::Program,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        let mut commands = uci::LineReader::new(input);
        run_engine(program, &mut commands, output, errors, options)
    }

    /// [`Lang::run`] with a live input, read on a thread of its own so
    /// that `stop`, `isready` and `quit` reach a running search at once
    /// (§7.5), as in a generated engine.
    fn run_live(
        program: &ir::Program,
        input: Box<dyn BufRead + Send>,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        let mut commands = uci::ThreadReader::spawn(input);
        run_engine(program, &mut commands, output, errors, options)
    }

    fn format(source: &str, options: &FormatOptions) -> Result<Vec<String>, Vec<Diagnostic>> {
        fmt::format(source, options)
    }

    /// C (one file) and Rust (one file or a crate), the engine runtime
    /// embedded (issue 12): the core and the sections the program uses.
    fn outline(source: &str) -> crate::common::outline::Outline {
        outline::outline(source)
    }

    fn emit(
        program: &ir::Program,
        request: &EmitRequest<'_>,
    ) -> Result<Vec<GeneratedFile>, Unsupported> {
        super::emit_program(
            Self::NAME,
            backend::c::emit_c,
            backend::emit_rust,
            program,
            request,
        )
    }

    fn runtime(program: &ir::Program, target: Target, _: bool) -> Result<Selected, Unsupported> {
        Ok(match target {
            Target::C => backend::c::select(program),
            Target::Rust => backend::select(program),
        })
    }
}

/// The engine's name (UCI `id name`, `--help`) for a program read from
/// `source_name` (as diagnostics show it): its file stem (`krk` for
/// `examples/krk.cheg`, `<stdin>` for standard input), control characters
/// shown as `?`; `program` when there is none.
pub fn engine_name(source_name: &str) -> String {
    let stem = std::path::Path::new(source_name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = if stem.is_empty() {
        "program".to_string()
    } else {
        stem
    };
    stem.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// The clock of the engines `icp2c run` starts: the system's, except in a
/// WebAssembly build without one, where time limits never expire.
fn engine_clock() -> Box<dyn uci::Clock> {
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    {
        Box::new(uci::NoClock)
    }
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    {
        Box::new(uci::SystemClock::new())
    }
}

fn run_engine(
    program: &ir::Program,
    commands: &mut dyn uci::Commands,
    output: &mut dyn Write,
    errors: &mut dyn Write,
    options: &RunOptions,
) -> Result<Outcome, UsageError> {
    if options.max_steps.is_some() {
        return Err(UsageError(
            "--max-steps is not for CHEG engines: a search is bounded by --depth (§7.3) and each invocation by 1,000,000 statements (§5.2)".into(),
        ));
    }
    let name = engine_name(&options.source_name);
    let clock = engine_clock();
    let host = interp::Host {
        commands,
        clock: &*clock,
    };
    let status = if options.trace || options.board {
        interp::run_watched(
            program,
            &name,
            &options.args,
            host,
            output,
            errors,
            options.trace,
            options.board,
        )
    } else {
        interp::run(program, &name, &options.args, host, output, errors)
    };
    Ok(match status {
        0 => Outcome::Halted,
        s => Outcome::Reported(u8::try_from(s).unwrap_or(1)),
    })
}

/// Parses, validates and lowers a CHEG source text. Errors: every
/// diagnostic at once, sorted by position (§8).
pub fn check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
    front::check(source)
}
