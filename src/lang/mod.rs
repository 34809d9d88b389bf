//! The languages icp2c compiles, one folder each, and the interface every
//! one of them implements ([`Lang`]).
//!
//! A language folder holds all of that language: its front end (syntax,
//! AST, validation, lowering to its IR), its interpreter, its back end
//! (IR → view models for `templates/<lang>/`) and its runtimes
//! (`runtime/board.rs`, compiled into icp2c for `run` and pasted into
//! generated Rust, and `runtime/board.c`, pasted into generated C). The
//! driver (`crate::driver`) lists the languages; nothing else names one.

pub mod cheg;
pub mod finvara;
pub mod icp;

use crate::codegen::{self, EmitRequest, Layout, Target, Unsupported};
use crate::common::debug::{Debugger, Stepper};
use crate::common::diagnostic::Diagnostic;
use crate::common::outline::Outline;
use crate::common::watch::Recording;
use crate::{GeneratedFile, Outcome};
use std::io::{BufRead, Write};

/// What a successful check gives, in every language: the program (the IR
/// its interpreter and back ends read) and its warnings, sorted by
/// position.
#[derive(Clone, Debug)]
pub struct Checked<P> {
    /// The checked program.
    pub program: P,
    /// Warnings, never errors, sorted by position.
    pub warnings: Vec<Diagnostic>,
}

/// How `icp2c run` runs a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// `--max-steps N`: stop with [`Outcome::StepLimit`] after N steps
    /// (statements, moves: the language says what a step is).
    pub max_steps: Option<u64>,
    /// The language's own options in their command-line form (CHEG's
    /// `--fen FEN`, `--depth N`, `--perft N`, `--no-endgame`, §7.4), for a
    /// language whose run takes more than input. A language with no
    /// options of its own refuses any ([`no_language_options`]).
    pub args: Vec<String>,
    /// `--trace`: one line per step on the error stream, saying what it
    /// did (the language says what a step is and what the line shows).
    pub trace: bool,
    /// `--board`: a picture of the board on the error stream, after every
    /// step with [`RunOptions::trace`], else once when the run ends.
    pub board: bool,
    /// How traces and pictures draw pieces.
    pub glyphs: Glyphs,
    /// `-O0` (`--no-opt`): run the program as written, without the
    /// language's optimiser (InfChessPro's, issue 13); a traced run is
    /// never optimised (it shows every statement).
    pub no_opt: bool,
    /// The program's name as diagnostics show it (`examples/krk.cheg`,
    /// `<stdin>`), for a language whose programs announce themselves (a
    /// CHEG engine's UCI `id name`); may be empty.
    pub source_name: String,
    /// Standard output reaches `output` a line at a time as the program
    /// prints it, not gathered first in the interpreter's own buffer
    /// (InfChessPro's holds 64 KiB): for a reader that shows it as it comes
    /// (the playground). Costs a write for every line.
    pub unbuffered: bool,
}

/// How `icp2c fmt` lays a program out, besides the language's canonical
/// layout ([`Lang::format`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatOptions {
    /// `--renumber START,STEP`: InfChessPro's statements labelled START,
    /// START+STEP, … and every literal jump target rewritten to match.
    /// The other languages have no labels and refuse it.
    pub renumber: Option<Renumber>,
}

/// New labels for InfChessPro's statements: the first is `start`, each
/// next one `step` more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Renumber {
    /// The first statement's label, 0 or more.
    pub start: i64,
    /// The difference between two labels in a row, 1 or more.
    pub step: i64,
}

/// How `--trace` and `--board` draw a piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Glyphs {
    /// Letters, white upper case and black lower case (`K`, `q`).
    #[default]
    Letters,
    /// The Unicode chess symbols (`♔` white king … `♟` black pawn) for the
    /// six chess kinds; other kinds keep their letters.
    Unicode,
}

impl Glyphs {
    /// The glyph of a piece of the chess kind `letter` (`k q r b n p`, any
    /// case) and colour (`white`), or `None` for another letter.
    pub fn chess(self, letter: char, white: bool) -> Option<char> {
        let index = "kqrbnp".find(letter.to_ascii_lowercase())?;
        Some(match self {
            Glyphs::Letters if white => letter.to_ascii_uppercase(),
            Glyphs::Letters => letter.to_ascii_lowercase(),
            Glyphs::Unicode => {
                let base = if white { 0x2654 } else { 0x265A };
                char::from_u32(base + index as u32)?
            }
        })
    }

    /// The picture of an empty square.
    pub fn empty(self) -> char {
        match self {
            Glyphs::Letters => '.',
            Glyphs::Unicode => '·',
        }
    }
}

/// A usage error of [`Lang::run`]: options the language does not accept.
/// `icp2c run` prints it and exits with status 2, running nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

/// The interface a language implements. Every function is pure but for
/// the streams `run` is given: the library does no IO of its own.
pub trait Lang {
    /// The checked program: the language's IR.
    type Program: std::fmt::Debug + Send + Sync + 'static;
    /// The language's name as users know it (`"InfChessPro"`).
    const NAME: &'static str;
    /// The file extension that selects it, without the dot (`"icp"`); also
    /// its name for `--lang`.
    const EXTENSION: &'static str;
    /// Whether [`Lang::run`] asks for the memory a program's run grows by
    /// (its board, stacks, search sets) fallibly (`try_reserve`), and
    /// reports running out of it as the language's own runtime error, as
    /// its generated programs do. An allocator may then fail the request
    /// that exhausts memory back to the runtime rather than end the
    /// process (the CLI does: docs/architecture.md, "Out of memory").
    const RUN_REPORTS_MEMORY_EXHAUSTION: bool = false;

    /// Parses, validates and lowers `source`. Errors: every diagnostic of
    /// the program at once, sorted by position.
    fn check(source: &str) -> Result<Checked<Self::Program>, Vec<Diagnostic>>;

    /// Interprets `program`: `input` is its standard input, `output` its
    /// standard output (a language may speak a line protocol on them),
    /// `errors` its standard error for what a program reports as it runs
    /// (CHEG's `BREAK` lines and engine errors); the final runtime error of
    /// [`Outcome::RuntimeError`] is printed by the caller.
    /// A runtime error is [`Outcome::RuntimeError`], not an `Err`; `Err` is
    /// only for options the language refuses, before anything runs.
    fn run(
        program: &Self::Program,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError>;

    /// Runs `program` as [`Lang::run`] does with `--trace` (its trace
    /// lines drawn with `options.glyphs`, its steps bounded by
    /// `options.max_steps`), recording every step for a board view
    /// ([`Recording`]: the board at the start, each step's changes). `None`
    /// for a language without a board of its own to watch (CHEG's is a
    /// chess position, searched: its `--trace` shows the statements run).
    fn record(
        program: &Self::Program,
        input: &mut dyn BufRead,
        options: &RunOptions,
    ) -> Option<Recording> {
        let _ = (program, input, options);
        None
    }

    /// `program` under a debugger ([`Debugger`]), before its first step:
    /// run as [`Lang::record`] runs it, a step at a time, reading `input`
    /// and writing `output`, trace lines drawn with `options.glyphs`,
    /// keeping its last `keep` steps. `None` for a language with no board
    /// of its own to step through (CHEG).
    fn debugger<'a>(
        program: &'a Self::Program,
        input: Box<dyn BufRead + 'a>,
        output: Box<dyn Write + 'a>,
        options: &RunOptions,
        keep: usize,
    ) -> Option<Debugger<Box<dyn Stepper + 'a>>> {
        let _ = (program, input, output, options, keep);
        None
    }

    /// [`Lang::run`] on a live input taken by value (standard input, a
    /// pipe from a GUI), for a language that reads its input while it
    /// works: a CHEG engine reads its commands on a thread of its own, so
    /// that `stop` reaches a running search (CHEG §7.5). The default runs
    /// [`Lang::run`] on it.
    fn run_live(
        program: &Self::Program,
        input: Box<dyn BufRead + Send>,
        output: &mut dyn Write,
        errors: &mut dyn Write,
        options: &RunOptions,
    ) -> Result<Outcome, UsageError> {
        let mut input = input;
        Self::run(program, &mut input, output, errors, options)
    }

    /// Lays `source`, a program that checks, out in the language's one
    /// canonical layout (`icp2c fmt`): one line per line of `source`
    /// ([`crate::common::source::lines`], the text without its line end),
    /// so that no line moves; [`crate::common::format::assemble`] makes
    /// them one text. Formatting twice changes nothing, and the program
    /// checks to the same IR but for its lines' texts. Errors: the
    /// program's diagnostics (the driver checks first), or options the
    /// language refuses, pointing at what stops them.
    fn format(source: &str, options: &FormatOptions) -> Result<Vec<String>, Vec<Diagnostic>>;

    /// What an editor shows of `source` ([`Outline`]): definitions and
    /// their uses, token kinds, hover help, completions, folds. Never
    /// fails: a program with errors gives what its parser read.
    fn outline(source: &str) -> Outline;

    /// Generates `request.target` laid out as `request.layout`: one file
    /// ([`crate::codegen::one_file`]) or a crate's files
    /// ([`crate::codegen::rust::crate_files`]). A target the language has no back
    /// end for (yet) is [`Unsupported`].
    fn emit(
        program: &Self::Program,
        request: &EmitRequest<'_>,
    ) -> Result<Vec<GeneratedFile>, Unsupported>;

    /// The runtime `program`'s generated `target` carries (as
    /// [`Lang::emit`] makes it, optimised unless `no_opt`): the text it
    /// pastes and its sections. A target without a back end is
    /// [`Unsupported`] (layout [`Layout::File`]).
    fn runtime(
        program: &Self::Program,
        target: Target,
        no_opt: bool,
    ) -> Result<codegen::sections::Selected, Unsupported>;
}

/// [`Lang::emit`] for a language whose Rust back end gives a
/// [`codegen::rust::RustProgram`]: one C file (`c`), or the Rust laid out
/// as `request.layout` asks ([`codegen::rust`]: a file, a module, a
/// crate); a C module or crate is [`Unsupported`].
pub fn emit_program<P>(
    language: &'static str,
    c: fn(&P, &str) -> String,
    rust: fn(&P, &str) -> codegen::rust::RustProgram,
    program: &P,
    request: &EmitRequest<'_>,
) -> Result<Vec<GeneratedFile>, Unsupported> {
    let name = request.source_name;
    match (request.target, request.layout) {
        (Target::C, Layout::File) => Ok(codegen::one_file(Target::C, c(program, name))),
        (Target::Rust, Layout::File) => Ok(codegen::one_file(
            Target::Rust,
            codegen::rust::file(&rust(program, name)),
        )),
        (Target::Rust, Layout::Module) => Ok(codegen::one_file(
            Target::Rust,
            codegen::rust::module(&rust(program, name), request.stem),
        )),
        (Target::Rust, Layout::Crate) => Ok(codegen::rust::crate_files(
            &rust(program, name),
            request.stem,
        )),
        (target, layout) => Err(Unsupported {
            language,
            target,
            layout,
        }),
    }
}

/// For a language without labels: refuses `--renumber` with a diagnostic
/// at the start of the program.
pub fn no_renumbering(language: &str, options: &FormatOptions) -> Result<(), Vec<Diagnostic>> {
    match options.renumber {
        None => Ok(()),
        Some(_) => Err(vec![
            Diagnostic::error(
                0..0,
                format!(
                    "--renumber relabels InfChessPro statements; a {language} program has no labels"
                ),
            )
            .with_label("not an InfChessPro program"),
        ]),
    }
}

/// For a language with no run options of its own: refuses any.
pub fn no_language_options(language: &str, options: &RunOptions) -> Result<(), UsageError> {
    match options.args.first() {
        None => Ok(()),
        Some(arg) => Err(UsageError(format!(
            "{arg} is an option of CHEG engines; {language} programs take only --max-steps"
        ))),
    }
}
