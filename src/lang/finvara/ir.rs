//! The checked, lowered program: everything the interpreter and the back
//! ends need, with every notation already turned into path programs
//! (see `crate::lang::finvara::runtime::board` for their format).

/// What a piece is worth when captured (§5.2) or dropped into a hole (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A signed 64-bit number.
    Int(i64),
    /// `x`: the square's column.
    X,
    /// `y`: the square's row.
    Y,
}

/// One piece kind (§2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// Its symbol, one ASCII lowercase letter.
    pub symbol: char,
    /// Its value; `None` for a royal kind.
    pub value: Option<Value>,
    /// The notation as written (for comments in generated code).
    pub notation: String,
    /// Path programs for white (index 0) and black (index 1).
    pub code: [Vec<i32>; 2],
}

impl Kind {
    /// Defined without a value (§2).
    pub fn royal(&self) -> bool {
        self.value.is_none()
    }

    /// (value, value_of) as the runtime encodes them.
    pub fn runtime_value(&self) -> (i64, i32) {
        use crate::lang::finvara::runtime::board::{VALUE_INT, VALUE_X, VALUE_Y};
        match self.value {
            Some(Value::Int(v)) => (v, VALUE_INT),
            Some(Value::X) => (0, VALUE_X),
            Some(Value::Y) => (0, VALUE_Y),
            None => (0, VALUE_INT),
        }
    }
}

/// White (0) or black (1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    /// Moves first in each turn.
    White,
    /// Moves second.
    Black,
}

impl Colour {
    /// 0 for white, 1 for black (the runtime's numbering).
    pub fn index(self) -> usize {
        match self {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }

    /// `W` or `B`.
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'B',
        }
    }
}

/// What a move line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// §5.1 `s from -> to` (`= promote`).
    Step {
        /// Kind index.
        kind: usize,
        /// Square index.
        from: usize,
        /// Square index.
        to: usize,
        /// Kind index named by `= s`.
        promote: Option<usize>,
    },
    /// §5.3 `s square checks turn m`.
    Place {
        /// Kind index.
        kind: usize,
        /// Square index.
        square: usize,
        /// Index in the move list of turn m's move of the same colour.
        target: usize,
    },
}

/// One move line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Its turn number (1-based).
    pub turn: u64,
    /// Its colour.
    pub colour: Colour,
    /// 1-based source line.
    pub line: usize,
    /// The line's text without its comment, trimmed.
    pub text: String,
    /// What it does.
    pub action: Action,
}

/// A checked program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Cells, square index `(row-1)*width + (col-1)`, encoded as in the
    /// runtime (`HOLE`, `EMPTY`, `1 + 2*kind + colour`).
    pub cells: Vec<i32>,
    /// Kinds in definition order.
    pub kinds: Vec<Kind>,
    /// Moves in order (index = 2*(turn-1) + colour).
    pub moves: Vec<Move>,
}

/// The name of square `index` on a board `width` wide, like `c2` (§3).
pub fn square_name(index: usize, width: usize) -> String {
    let row = index / width + 1;
    let col = index % width + 1;
    format!("{}{}", row_letters(row), col)
}

/// Row number to letters: 1 → `a`, 26 → `z`, 27 → `aa` (§3).
pub fn row_letters(mut row: usize) -> String {
    let mut out = Vec::new();
    while row > 0 {
        row -= 1;
        out.push(b'a' + (row % 26) as u8);
        row /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}
