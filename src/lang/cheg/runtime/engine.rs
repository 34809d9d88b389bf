//! The CHEG engine (`docs/cheg.md` §6, §7.3): values (§2), conditions and
//! orderings (§4), the instructions' semantics (§5), the search that
//! consults the endgame program (§6, §7.3) and runtime errors (§9).
//!
//! Std only, no unsafe, never panics. Embedded into generated Rust beside
//! `chess` and `uci`, cut down to the sections a program uses (`api.rs`):
//! it refers to them as `super::chess` and `super::uci`, and to nothing
//! else. A section's absence leaves no parameter, binding or `mut` unused:
//! typed reads of a value are `if let`s over its type's section, and what
//! only some tests or statements read rides in a match's scrutinee.
//!
//! # Who does what
//! The program (the interpreter walking the IR, or generated code) does
//! only control flow: [`Endgame::step`] executes one statement and says
//! where to go next ([`Step`]). Everything else is here: reading and
//! writing variables ([`Invocation::read`], [`Invocation::write`]), every
//! instruction's computation ([`binary`], [`unary`], the set edits),
//! conditions ([`Invocation::test`]), calls with an explicit return stack
//! (no recursion over user code), the outcomes of §6.3, plans (§6.4) and
//! the search (§7.3).
//!
//! # The search
//! [`search`] computes the value of §7.3 (with §7.5's history draws) at
//! depth 1, 2, … (iterative deepening) by fail-soft alpha-beta with
//! quiescence, a transposition table ([`Table`]) and move ordering; the
//! root keeps the first move in §7.2 order with the greatest value, so
//! every answer is the plain definition's. Pruning skips nodes the plain
//! definition visits, so runtime errors and `BREAK` lines may come from
//! other nodes (§11.23). A [`Watch`] hears of every completed depth and is
//! asked every [`POLL_INTERVAL`] nodes and statements whether to stop
//! (`stop`, the clock, §7.5).

// Generated Rust embeds this file and builds with edition 2021: no let
// chains, so nested `if let`s stay nested.
#![allow(clippy::collapsible_if)]

// @section use_piece
use super::chess::Piece;
// @end use_piece
// @section use_square
use super::chess::Square;
// @end use_square
use super::chess::{Colour, Kind, Move, Position};
// @section break
use std::io::Write;
// @end break
// @section items
use std::rc::Rc;
// @end items

/// Statements one invocation may execute (§5.2, §11.16).
pub const MAX_STATEMENTS: u64 = 1_000_000;
// @section max_calls
/// Calls that may be active at once (§5.2, §11.16).
pub const MAX_CALLS: usize = 1_000;
// @end max_calls
/// The checkmate value at DEPTH 0: a side checkmated at DEPTH d scores
/// −(MATE − d) (§6.2).
pub const MATE: i64 = 28672;

/// A runtime error (§9): printed as `error: LINE: MESSAGE (fen FEN)`, exit 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    /// The statement's source line.
    pub line: u32,
    /// What went wrong.
    pub message: String,
    /// The FEN of the node whose invocation failed (§11.22).
    pub fen: String,
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error: {}: {} (fen {})",
            self.line, self.message, self.fen
        )
    }
}

/// A fault inside an instruction: its message; the invocation adds the
/// line and the FEN.
pub type Fault = String;

/// What can stop a statement: its own fault, or a runtime error of an
/// invocation its `TRY`/`PLAYB`/`PLAN` searched (reported as it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// This statement's fault.
    Fault(Fault),
    /// A nested invocation's error.
    Nested(RuntimeError),
}

impl From<Fault> for Error {
    fn from(fault: Fault) -> Error {
        Error::Fault(fault)
    }
}

impl From<RuntimeError> for Error {
    fn from(error: RuntimeError) -> Error {
        Error::Nested(error)
    }
}

/// The result of a search from the root (§7.3, §7.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// Its value in 1/128 pawn from the side to move's view (§6.2).
    pub score: i64,
    /// Nodes visited, quiescence nodes included (§11.20), over every depth.
    pub nodes: u64,
    /// The deepest completed depth (0: stopped before depth 1 completed).
    pub depth: u32,
    /// The principal variation of that depth, as far as the search knows
    /// it (at least the best move).
    pub pv: Vec<Move>,
    /// True when a limit, `stop` or the clock ended the search before its
    /// last depth.
    pub stopped: bool,
}

include!("engine/values.rs");
include!("engine/node.rs");
include!("engine/instructions.rs");
include!("engine/program.rs");
include!("engine/history.rs");
include!("engine/search.rs");

// The rest of the module, by concern, in files of their own (one module:
// no path or visibility changes). Generated Rust carries the lines of this
// file above the first `include!`, then each file in this order, a blank
// line between (`backend.rs`); engine.c and `engine/*.c` are their C
// twins, pasted in the same order. `engine/`: values.rs (§2: values, sets,
// typed reads), node.rs (the node a statement sees: variables, conditions,
// orderings), instructions.rs (variables, comparisons, conditions,
// orderings, operations and their semantics, §4, §5), program.rs (the
// program hook: steps, frames, invocations, plans, outcomes, §6),
// history.rs (the search's limits and watch, the game history, the
// transposition table, keys and move ordering, §7.5), search.rs (the
// search, §7.3).
