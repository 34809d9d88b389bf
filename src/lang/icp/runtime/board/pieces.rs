// @section board
/// An interned piece name: the compiler numbers the names of a program
/// `0..names` (runtime-design.md, "Semantics pinned here"; §2, §4.1).
pub type Name = u32;
// @end board

// @section place
/// A piece colour (§3). Numbered white = 0, black = 1 as in
/// runtime-design.md; a piece keeps the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    // @section white
    /// Its pawns move towards larger rows.
    White = 0,
    // @end white
    // @section black
    /// Its pawns move towards smaller rows.
    Black = 1,
    // @end black
}

/// A piece kind (§3, geometry in §7 rule 3). Numbered king 0, queen 1,
/// rook 2, bishop 3, knight 4, pawn 5 as in runtime-design.md; a piece
/// keeps the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    // @section king: move
    King = 0,
    // @end king
    // @section queen
    Queen = 1,
    // @end queen
    // @section rook
    Rook = 2,
    // @end rook
    // @section bishop
    Bishop = 3,
    // @end bishop
    // @section knight
    Knight = 4,
    // @end knight
    // @section pawn
    Pawn = 5,
    // @end pawn
}
// @end place

// The kinds' numbers, as a piece keeps them. A king's is in every
// program that moves: its rule is the geometry's one arm that is always
// there, so that the match below is one whatever kinds a program places.
// @section move
const KING: u8 = 0;
// @end move
// @section queen: sliders
const QUEEN: u8 = 1;
// @end queen
// @section rook: sliders
const ROOK: u8 = 2;
// @end rook
// @section bishop: sliders
const BISHOP: u8 = 3;
// @end bishop
// @section knight: move
const KNIGHT: u8 = 4;
// @end knight
// @section pawn: move
const PAWN: u8 = 5;
// @end pawn

// @section sliders: rays
/// The lines a piece of kind `kind` moves along: bit 1 orthogonal, bit 2
/// diagonal; 0 for a king, knight or pawn.
fn lines_of(kind: u8) -> u8 {
    match kind {
        // @section queen
        QUEEN => 3,
        // @end queen
        // @section rook
        ROOK => 1,
        // @end rook
        // @section bishop
        BISHOP => 2,
        // @end bishop
        _ => 0,
    }
}
// @end sliders

// @section interpreter
/// The colour and kind a piece letter stands for (§2): `K Q R B N P`
/// are white, `k q r b n p` black. `None` for any other character.
pub fn piece_from_letter(letter: char) -> Option<(Colour, Kind)> {
    let colour = if letter.is_ascii_uppercase() {
        Colour::White
    } else {
        Colour::Black
    };
    let kind = match letter.to_ascii_uppercase() {
        'K' => Kind::King,
        'Q' => Kind::Queen,
        'R' => Kind::Rook,
        'B' => Kind::Bishop,
        'N' => Kind::Knight,
        'P' => Kind::Pawn,
        _ => return None,
    };
    Some((colour, kind))
}

/// The colour a piece keeps as its number.
fn colour_of(colour: u8) -> Colour {
    if colour == 0 {
        Colour::White
    } else {
        Colour::Black
    }
}

/// The kind a piece keeps as its number.
fn kind_of(kind: u8) -> Kind {
    [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
    ]
    .get(kind as usize)
    .copied()
    .unwrap_or(Kind::Pawn)
}
// @end interpreter

/// A runtime error cause (§8). Each maps to one exact text of
/// runtime-design.md, "Runtime error lines", through [`Fault::cause`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    // @section read
    /// Input text where a number was expected is not a number (§6).
    NotANumber,
    /// An input number is outside the signed 64-bit range (§6).
    NumberOutOfRange,
    // @end read
    // @section no_label: die
    /// A `*` jump target names a label no statement has (§5); holds the
    /// value read.
    NoSuchLabel(i64),
    // @end no_label
    // @section end_of_input: die
    /// A `*` jump target that had to be taken found end of input (§6).
    EndOfInputInTarget,
    // @end end_of_input
    // @section squares_grow
    /// Memory is exhausted (§8).
    OutOfMemory,
    // @end squares_grow
    // @section read
    /// Standard input could not be read (§8).
    ReadFailed,
    // @end read
    /// Standard output could not be written (§8).
    WriteFailed,
}

impl Fault {
    /// The cause text of this fault, byte-identical in every back end
    /// (runtime-design.md, "Runtime error lines"; §8), e.g.
    /// `input is not a number (§6)`. No newline.
    pub fn cause(&self) -> String {
        match self {
            // @section read
            Fault::NotANumber => "input is not a number (§6)".to_string(),
            Fault::NumberOutOfRange => {
                "input number is outside the signed 64-bit range (§6)".to_string()
            }
            // @end read
            // @section no_label
            Fault::NoSuchLabel(v) => format!("no statement is labelled {} (§5)", v),
            // @end no_label
            // @section end_of_input
            Fault::EndOfInputInTarget => "end of input in a `*` jump target (§6)".to_string(),
            // @end end_of_input
            // @section squares_grow
            Fault::OutOfMemory => "memory exhausted (§8)".to_string(),
            // @end squares_grow
            // @section read
            Fault::ReadFailed => "cannot read standard input (§8)".to_string(),
            // @end read
            Fault::WriteFailed => "cannot write standard output (§8)".to_string(),
        }
    }
}

impl std::fmt::Display for Fault {
    /// Writes [`Fault::cause`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.cause())
    }
}

// @section die
/// The message of a runtime error (§8), `statement LABEL: CAUSE`,
/// where LABEL is the label of the statement that was running and CAUSE
/// is [`Fault::cause`]; for [`Fault::WriteFailed`] just `CAUSE`. The
/// program's one standard-error line is `error: ` and the message
/// (docs/infchesspro.md).
pub fn error_message(label: i64, fault: &Fault) -> String {
    match fault {
        // Buffered output reaches the system at times that differ between
        // back ends, so a write failure names no statement.
        Fault::WriteFailed => fault.cause(),
        _ => format!("statement {}: {}", label, fault.cause()),
    }
}
// @end die

// @section squares
/// "No slot": an empty hash entry, the end of a linked list.
const NIL: u32 = u32::MAX;
// @end squares

// @section place
/// The largest number of piece slots; one more is a memory fault.
const MAX_SLOTS: usize = (u32::MAX - 1) as usize;
// @end place

// @section occupy
/// The slot of a square [`Board::occupy`] filled: no piece (slots stay
/// below).
const OCCUPIED: u32 = u32::MAX - 1;
// @end occupy

// @section rays
/// Squares probed directly in the hash table along a ray before the line
/// index is used (runtime-design.md: PROBE = 8).
const PROBE: u64 = 8;
// @end rays

// @section check_sliders
/// Up to this many enemy sliders, the check test asks only the rays that
/// point at one of them (see `Board::slider_rays`).
const SLIDER_SCAN: usize = 8;
// @end check_sliders

// @section loop
/// Most statements in a loop whose rounds [`Board::run_loop`] may skip
/// (the optimiser makes no longer loop).
pub const MAX_LOOP: usize = 8;
// @end loop

// @section runs: move heads
// @end runs

// @section knight_scan
// @section knight
/// Most live pieces a knight's slide looks through to find the ones on its
/// squares (which lie on no indexed line); with more, it steps.
const KNIGHT_SCAN: u64 = 64;
// @end knight
// @end knight_scan
