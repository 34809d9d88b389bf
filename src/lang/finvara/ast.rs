//! The parsed program with source spans (byte offsets), before any check
//! that needs more than one line.

use super::ir::Colour;

/// A byte range in the source.
pub use crate::common::Span;

/// A direction filter of a leap (§2.1), seen from the moving player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// `^`
    Forward,
    /// `v`
    Backward,
    /// `>`
    Right,
    /// `<`
    Left,
}

/// A parsed notation (§2.1): every unit in one list, nested units
/// referring to each other by index ([`NodeId`]), so that a notation
/// nested any depth is dropped, cloned, compared and printed without
/// recursion. A unit's parts come before it in the list.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Notation {
    /// Every unit of the notation.
    pub nodes: Vec<Node>,
    /// The units of the notation itself, in order (empty: cannot move).
    pub top: Vec<NodeId>,
}

/// A unit's index in [`Notation::nodes`].
pub type NodeId = usize;

/// One unit of a notation (§2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// `(a,b)` or `(a,b|dir)`.
    Leap {
        /// First distance.
        a: u64,
        /// Second distance.
        b: u64,
        /// Direction filter.
        dir: Option<Dir>,
        /// The whole leap.
        span: Span,
    },
    /// `{A,B,…}`.
    Choice(Vec<Vec<NodeId>>),
    /// `[A]`.
    Group(Vec<NodeId>),
    /// `c(A)`: A's last square must hold an enemy.
    Capture(Vec<NodeId>),
    /// `m(A)`: A's last square must be empty (or a hole).
    Quiet(Vec<NodeId>),
    /// `r(A, ranks)` / `r!(A, ranks)`.
    Rank {
        /// A.
        body: Vec<NodeId>,
        /// `r!`.
        negated: bool,
        /// First rank of the range, in the player's count.
        lo: i64,
        /// Last rank of the range.
        hi: i64,
        /// The ranks as written.
        span: Span,
    },
    /// `p`: promotion into any other kind.
    PromoteAny(Span),
    /// `->[s,t]`.
    PromoteTo(Vec<(char, Span)>),
    /// `x`: capture here and go on.
    Take(Span),
    /// `"s"`: the whole notation of kind s.
    Like(char, Span),
    /// `A*` (fixed = true) or `` A` `` (fixed = false).
    Repeat {
        /// A.
        body: NodeId,
        /// `*`: every repetition uses the vectors of the first.
        fixed: bool,
    },
}

impl Node {
    /// The units directly inside this one, in order.
    pub fn parts(&self) -> Vec<NodeId> {
        match self {
            Node::Choice(items) => items.iter().flatten().copied().collect(),
            Node::Group(body) | Node::Capture(body) | Node::Quiet(body) => body.clone(),
            Node::Rank { body, .. } => body.clone(),
            Node::Repeat { body, .. } => vec![*body],
            Node::Leap { .. }
            | Node::PromoteAny(_)
            | Node::PromoteTo(_)
            | Node::Take(_)
            | Node::Like(..) => Vec::new(),
        }
    }
}

/// A piece's value as written (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueAst {
    /// A number.
    Int(i64),
    /// `x`.
    X,
    /// `y`.
    Y,
}

/// One piece definition line (§2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The symbol.
    pub symbol: char,
    /// Where the symbol is.
    pub symbol_span: Span,
    /// `None`: royal.
    pub value: Option<ValueAst>,
    /// The parsed notation (empty: cannot move).
    pub notation: Notation,
    /// The notation text as written.
    pub notation_text: String,
    /// 1-based line.
    pub line: usize,
}

/// One cell of the board (§3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Two blanks.
    Empty,
    /// `##`.
    Hole,
    /// A symbol followed by `W` or `B`.
    Piece {
        /// The kind's symbol.
        symbol: char,
        /// Its colour.
        colour: Colour,
        /// Where the cell is.
        span: Span,
    },
}

/// One row of cells as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Cells left to right.
    pub cells: Vec<Cell>,
    /// The row's text (for ragged-board diagnostics).
    pub span: Span,
}

/// One `+--+` rule line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// How many columns it draws.
    pub columns: usize,
    /// Where it is.
    pub span: Span,
}

/// The board as drawn, top row first.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Board {
    /// Cell rows, top first.
    pub rows: Vec<Row>,
    /// Rule lines.
    pub rules: Vec<Rule>,
    /// From its first line to its last.
    pub span: Span,
}

/// A square as written, like `c2` (§3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Square {
    /// Row number (a = 1), saturating.
    pub row: u64,
    /// Column number, saturating.
    pub col: u64,
    /// The text.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// What a move line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveBody {
    /// `s from -> to` (`= t`).
    Step {
        /// The moving kind.
        symbol: (char, Span),
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// `= t`.
        promote: Option<(char, Span)>,
    },
    /// `s square checks turn m`.
    Place {
        /// The placed kind.
        symbol: (char, Span),
        /// Where.
        square: Square,
        /// m.
        target: u64,
        /// Where m is written.
        target_span: Span,
    },
}

/// One `Turn n C: …` line (§5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// n.
    pub turn: u64,
    /// Where n is.
    pub turn_span: Span,
    /// C.
    pub colour: Colour,
    /// The line without its comment.
    pub span: Span,
    /// 1-based line.
    pub line: usize,
    /// The line's text without its comment.
    pub text: String,
    /// What it does.
    pub body: MoveBody,
}

/// A whole program as parsed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SourceFile {
    /// Piece definitions in order.
    pub definitions: Vec<Definition>,
    /// The board, if there was one.
    pub board: Option<Board>,
    /// Move lines in order.
    pub moves: Vec<MoveLine>,
    /// Symbols of definitions that failed to parse: already reported, so
    /// their uses are not reported again as undefined.
    pub broken_symbols: Vec<(char, Span)>,
    /// A board line failed to parse (already reported).
    pub broken_board: bool,
}
