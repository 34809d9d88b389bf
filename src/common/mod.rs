//! The shared front-end layer: what every language uses to read source
//! text and report on it, and the result of running a program.

pub mod cursor;
pub mod debug;
pub mod diagnostic;
pub mod format;
pub mod outline;
pub mod source;
pub mod watch;

/// A byte range in the decoded source text: every AST node of every
/// language carries one, and diagnostics point with them.
pub type Span = std::ops::Range<usize>;

/// The result of running a program to its end, shared by every language's
/// interpreter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Ran off the end (or ended the game): exit status 0.
    Halted,
    /// A runtime error (§8 of the InfChessPro contract): the one line to
    /// print on standard error, without its newline; exit status 1.
    RuntimeError(String),
    /// The `--max-steps` budget ran out after this many statements; exit
    /// status 3.
    StepLimit(u64),
    /// The program reported its own error on its error stream and ended
    /// with this exit status: a CHEG engine's runtime error (1, CHEG §9) or
    /// a bad FEN or query (2, CHEG §7.4). Nothing more is printed.
    Reported(u8),
}

impl Outcome {
    /// The process exit status this outcome maps to: 0, 1 or 3, or what a
    /// reported outcome says.
    pub fn exit_status(&self) -> i32 {
        match self {
            Outcome::Halted => 0,
            Outcome::RuntimeError(_) => 1,
            Outcome::StepLimit(_) => 3,
            Outcome::Reported(status) => i32::from(*status),
        }
    }
}

/// One file of generated output: a path relative to the output folder and
/// its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path, `/`-separated (e.g. `src/main.rs`).
    pub path: String,
    /// Full contents.
    pub contents: String,
}
