//! icp2c: a compiler for esoteric languages that run on a chess board.
//!
//! The core does no IO: it takes source text and returns values or
//! diagnostics. `main.rs` reads files, prints diagnostics and sets exit
//! codes. Flow for each language: source text → parser (AST with spans) →
//! validator → IR → interpreter, or back end view model → askama template →
//! C or Rust text.

pub mod diagnostic;
pub mod driver;

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
}

impl Outcome {
    /// The process exit status this outcome maps to: 0, 1 or 3.
    pub fn exit_status(&self) -> i32 {
        match self {
            Outcome::Halted => 0,
            Outcome::RuntimeError(_) => 1,
            Outcome::StepLimit(_) => 3,
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
pub mod finvara;
pub mod icp;
pub mod source;

/// Board runtimes written in Rust: each is compiled into icp2c (for `run`)
/// and embedded verbatim into generated Rust, so the two cannot drift.
pub mod runtime {
    pub mod fin_board;
    pub mod icp_board;
}
pub mod backend;
