//! The InfChessPro IR: what the interpreter and every back end read.
//!
//! Labels are resolved to statement indices, names are interned to small
//! integers, literals are checked, and every `*` is numbered in the order
//! it is read (§6: left to right, jump targets included).

pub use super::ast::{Colour, PieceKind};

/// An interned piece name: index into [`Program::names`].
pub type NameId = u32;

/// A checked program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Statements in file order; their labels strictly increase (§1).
    pub statements: Vec<Statement>,
    /// Interned names, in order of first appearance in the file.
    pub names: Vec<String>,
}

impl Program {
    /// The index of the statement labelled `label`, if any (binary search:
    /// labels are sorted).
    pub fn find_label(&self, label: i64) -> Option<usize> {
        self.statements
            .binary_search_by_key(&label, |s| s.label)
            .ok()
    }

    /// The index of the statement that `target`, a target of statement
    /// `i`, sends control to when it is taken (§5): no target is the next
    /// statement, `statements.len()` is the end of the program. `None` for
    /// a `*` target, known only when the statement runs.
    pub fn goes_to(&self, i: usize, target: Option<Target>) -> Option<usize> {
        match target {
            None => Some(i + 1),
            Some(Target::Statement(j)) => Some(j),
            Some(Target::Input(_)) => None,
        }
    }
}

/// One statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Its label (§1).
    pub label: i64,
    /// 1-based source line.
    pub line: usize,
    /// The source line, verbatim (for comments in generated code).
    pub text: String,
    /// How many integers the statement reads when it starts (§6).
    pub inputs: usize,
    /// What it does.
    pub command: Command,
    /// Where to go when the command succeeded (§5).
    pub on_success: Option<Target>,
    /// Where to go when it failed (§5).
    pub on_failure: Option<Target>,
}

/// An integer operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A literal.
    Lit(i64),
    /// The k-th integer this statement reads (0-based).
    Input(usize),
}

/// A jump target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A literal target, resolved to a statement index.
    Statement(usize),
    /// A `*` target: the k-th integer read, looked up as a label when the
    /// jump is taken (§5).
    Input(usize),
}

/// A command (§4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// §4.1.
    Place {
        /// Name of the new piece.
        name: NameId,
        /// Its colour.
        colour: Colour,
        /// Its kind.
        kind: PieceKind,
        /// Row.
        row: Value,
        /// Column.
        col: Value,
    },
    /// §4.2.
    MoveSquares {
        /// Row moved from.
        r1: Value,
        /// Column moved from.
        c1: Value,
        /// Row moved to.
        r2: Value,
        /// Column moved to.
        c2: Value,
    },
    /// §4.3.
    MoveNameTo {
        /// Which pieces.
        name: NameId,
        /// Target row.
        row: Value,
        /// Target column.
        col: Value,
    },
    /// §4.4.
    MoveNameBy {
        /// Which pieces.
        name: NameId,
        /// Row offset.
        drow: Value,
        /// Column offset.
        dcol: Value,
    },
    /// §4.4 again and again while it succeeds: a slide loop
    /// (`L. name;dr,dc?L`) summarised by the optimiser
    /// ([`super::opt::optimise`], issue 13). It runs as that many
    /// statements would, then control goes to the failure target.
    Slide {
        /// Which pieces.
        name: NameId,
        /// Row offset of one step.
        drow: i64,
        /// Column offset of one step.
        dcol: i64,
    },
    /// A loop of statements (issue 13) summarised by the optimiser
    /// ([`super::opt::optimise`]): every member statement of the loop
    /// carries it, with `start` its own place in `members`. Control goes
    /// round `members` from `start` as stepping would, until the move of
    /// a [`Action::Move`] member fails; control then goes to that
    /// member's failure target (or the statement after it).
    Loop {
        /// The loop's statements in the order control goes round them,
        /// the first in file order first.
        members: Vec<LoopMember>,
        /// This statement's index in `members`.
        start: usize,
    },
    /// §4.5.
    Nothing,
    /// §4.6: the text without its newline.
    Text(String),
    /// §4.7.
    Count(NameId),
}

/// One statement of a [`Command::Loop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopMember {
    /// The statement's index in [`Program::statements`].
    pub statement: usize,
    /// What it does, and which of its outcomes goes on round the loop.
    pub action: Action,
}

/// What a [`LoopMember`] does (§4.4, §4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `name;drow,dcol`: success goes on round the loop, failure leaves it.
    Move {
        /// Which pieces.
        name: NameId,
        /// Row offset.
        drow: i64,
        /// Column offset.
        dcol: i64,
    },
    /// `name;drow,dcol?itself`, a slide loop: it moves until a move fails,
    /// and that failure goes on round the loop.
    Slide {
        /// Which pieces.
        name: NameId,
        /// Row offset of one step.
        drow: i64,
        /// Column offset of one step.
        dcol: i64,
    },
    /// `^`: goes on round the loop.
    Nothing,
}

/// Most statements in one [`Command::Loop`]: the runtime's bound.
pub use super::runtime::board::MAX_LOOP;
