//! The InfChessPro board runtime: the infinite board, the move rules, the
//! integer input reader and the output helpers.
//!
//! The interpreter runs this source whole; every generated Rust program
//! embeds it (`mod icp_rt`) cut to the sections it uses (the `@section`
//! markers; icp2c's table of runtime entry points and the kinds a program
//! places say which). `std` only, no `unsafe`, never panics, never prints.
//! It implements `docs/runtime-design.md` (data structures and costs are
//! described where they are defined); the language is the one icp2c's
//! reference `docs/infchesspro.md` defines, whose sections (§) are cited
//! on each item.

// @section rays
use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
// @end rays
// @section read
use std::io::{BufRead, ErrorKind};
// @end read

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

// @section squares
/// The deterministic hash of a square (runtime-design.md): row and col
/// times odd constants, xored; the table takes its top bits.
#[inline]
fn square_hash(row: i64, col: i64) -> u64 {
    (row as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (col as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// One entry of the occupancy table; `slot == NIL` marks an empty entry.
#[derive(Clone, Copy, Debug)]
struct Entry {
    row: i64,
    col: i64,
    slot: u32,
}

const VACANT: Entry = Entry {
    row: 0,
    col: 0,
    slot: NIL,
};

/// Occupancy, square -> piece slot: open addressing with linear probing and
/// backward-shift deletion, a power-of-two size, at most half full, never
/// shrinking. O(1) expected per operation.
#[derive(Clone, Debug)]
struct SquareTable {
    entries: Vec<Entry>,
    /// 64 − log2(entries.len()); 63 while the table is unallocated.
    shift: u32,
    len: usize,
}

impl SquareTable {
    fn new() -> SquareTable {
        SquareTable {
            entries: Vec::new(),
            shift: 63,
            len: 0,
        }
    }

    #[inline]
    fn mask(&self) -> usize {
        self.entries.len().wrapping_sub(1)
    }

    #[inline]
    fn home(&self, row: i64, col: i64) -> usize {
        (square_hash(row, col) >> self.shift) as usize & self.mask()
    }

    // @section get
    /// The slot of the piece on (row, col), if any.
    #[inline]
    fn get(&self, row: i64, col: i64) -> Option<u32> {
        self.find(row, col).0
    }
    // @end get

    /// The slot on (row, col), if any, and the index where the probe
    /// stopped: the square's entry, or the first empty entry of its probe
    /// run (where [`SquareTable::put_at`] may store it). O(1) expected.
    #[inline]
    fn find(&self, row: i64, col: i64) -> (Option<u32>, usize) {
        let mask = self.mask();
        let mut i = self.home(row, col);
        loop {
            match self.entries.get(i) {
                Some(e) if e.slot == NIL => return (None, i),
                Some(e) if e.row == row && e.col == col => return (Some(e.slot), i),
                Some(_) => i = (i + 1) & mask,
                None => return (None, usize::MAX),
            }
        }
    }

    /// Stores (row, col) -> slot in entry `i`, the first empty entry of its
    /// probe run ([`SquareTable::find`], the table unchanged since).
    #[inline]
    fn put_at(&mut self, i: usize, row: i64, col: i64, slot: u32) {
        if let Some(e) = self.entries.get_mut(i) {
            *e = Entry { row, col, slot };
            self.len += 1;
        }
    }

    // @section squares_grow: squares die
    /// Makes room for one more entry. Fails only when memory is exhausted.
    fn reserve_one(&mut self) -> Result<(), Fault> {
        if self.len.saturating_add(1).saturating_mul(2) <= self.entries.len() {
            return Ok(());
        }
        let new_len = match self.entries.len() {
            0 => 16,
            n => n.checked_mul(2).ok_or(Fault::OutOfMemory)?,
        };
        let mut grown: Vec<Entry> = Vec::new();
        grown
            .try_reserve_exact(new_len)
            .map_err(|_| Fault::OutOfMemory)?;
        grown.resize(new_len, VACANT);
        let old = std::mem::replace(&mut self.entries, grown);
        self.shift = 64 - new_len.trailing_zeros();
        self.len = 0;
        for e in old {
            if e.slot != NIL {
                self.insert_new(e.row, e.col, e.slot);
            }
        }
        Ok(())
    }

    /// Inserts a square known to be absent; the table has room.
    fn insert_new(&mut self, row: i64, col: i64, slot: u32) {
        let (_, i) = self.find(row, col);
        self.put_at(i, row, col, slot);
    }
    // @end squares_grow

    // @section move
    /// Empties (row, col), shifting later entries of its probe run back.
    #[inline]
    fn remove(&mut self, row: i64, col: i64) {
        let mask = self.mask();
        let mut hole = self.home(row, col);
        loop {
            match self.entries.get(hole) {
                Some(e) if e.slot == NIL => return,
                Some(e) if e.row == row && e.col == col => break,
                Some(_) => hole = (hole + 1) & mask,
                None => return,
            }
        }
        let mut j = (hole + 1) & mask;
        loop {
            let e = match self.entries.get(j) {
                Some(e) if e.slot != NIL => *e,
                _ => break,
            };
            let ideal = self.home(e.row, e.col);
            // `e` may fill the hole iff the hole lies on its probe run,
            // i.e. cyclically within [ideal, j).
            if (j.wrapping_sub(ideal) & mask) >= (j.wrapping_sub(hole) & mask) {
                if let Some(h) = self.entries.get_mut(hole) {
                    *h = e;
                }
                hole = j;
            }
            j = (j + 1) & mask;
        }
        if let Some(h) = self.entries.get_mut(hole) {
            *h = VACANT;
        }
        self.len = self.len.saturating_sub(1);
    }
    // @end move
}
// @end squares

// @section rays: move steps at
// ---------------------------------------------------------------------------
// Line indices
// ---------------------------------------------------------------------------

/// The four kinds of line a ray runs along; the index of `Board::lines`.
const ROWS: usize = 0;
const COLS: usize = 1;
const DIAGONALS: usize = 2;
const ANTI_DIAGONALS: usize = 3;

/// The line kind of a ray direction (each component −1, 0 or 1, not both 0).
#[inline]
fn line_of(dr: i64, dc: i64) -> usize {
    if dr == 0 {
        ROWS
    } else if dc == 0 {
        COLS
    } else if dr == dc {
        DIAGONALS
    } else {
        ANTI_DIAGONALS
    }
}

/// The (key, position) of a square in a line index: rows (row, col),
/// columns (col, row), diagonals (row − col, row), anti-diagonals
/// (row + col, row).
///
/// The diagonal keys need 65 bits; they are kept modulo 2^64 instead. Two
/// diagonals then share a key (d and d − 2^64), but their rows are disjoint
/// ranges, so a query over the rows of an in-range ray (every ray is cut at
/// the i64 edge) only ever meets squares of its own diagonal.
#[inline]
fn line_key(line: usize, row: i64, col: i64) -> (u64, i64) {
    match line {
        ROWS => (row as u64, col),
        COLS => (col as u64, row),
        DIAGONALS => (row.wrapping_sub(col) as u64, row),
        _ => (row.wrapping_add(col) as u64, row),
    }
}

/// The multiply-shift hasher of line keys (deterministic, no random seed).
#[derive(Clone, Copy, Debug, Default)]
struct LineHasher(u64);

impl Hasher for LineHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 32)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// Up to this many pieces, a line keeps its positions in a sorted vector
/// (binary search; an insertion or removal moves at most this many words);
/// beyond, in an ordered set. A set shrinking to half of it goes back.
const FEW: usize = 32;

/// The positions of the pieces on one line, ascending: most lines hold one
/// piece, kept inline; a few go to a sorted vector, many to an ordered set.
/// O(log k) per operation for k pieces (amortised: the vector's bounded
/// shifts and the conversions are O(FEW)).
#[derive(Clone, Debug)]
enum Line {
    One(i64),
    Few(Vec<i64>),
    Many(BTreeSet<i64>),
}

/// The index of one line kind: line key -> the positions on that line. A
/// line without pieces has no entry, so a query about it is one hash
/// look-up; one with k pieces answers in O(log k), whatever the number of
/// pieces elsewhere and whatever the distance.
#[derive(Clone, Debug, Default)]
struct LineIndex {
    lines: HashMap<u64, Line, BuildHasherDefault<LineHasher>>,
}

impl LineIndex {
    /// Adds position `pos` (absent) to line `key`. O(log k).
    fn insert(&mut self, key: u64, pos: i64) {
        let line = match self.lines.get_mut(&key) {
            None => {
                self.lines.insert(key, Line::One(pos));
                return;
            }
            Some(line) => line,
        };
        match line {
            Line::One(p) => {
                let (a, b) = if *p < pos { (*p, pos) } else { (pos, *p) };
                *line = Line::Few(vec![a, b]);
            }
            Line::Few(v) if v.len() < FEW => {
                let i = v.partition_point(|&x| x < pos);
                v.insert(i, pos);
            }
            Line::Few(v) => {
                let mut set: BTreeSet<i64> = v.iter().copied().collect();
                set.insert(pos);
                *line = Line::Many(set);
            }
            Line::Many(set) => {
                set.insert(pos);
            }
        }
    }

    /// Removes position `pos` from line `key`; an emptied line loses its
    /// entry. O(log k).
    fn remove(&mut self, key: u64, pos: i64) {
        let line = match self.lines.get_mut(&key) {
            None => return,
            Some(line) => line,
        };
        let shrunk = match line {
            Line::One(p) => {
                if *p == pos {
                    self.lines.remove(&key);
                }
                return;
            }
            Line::Few(v) => {
                if let Ok(i) = v.binary_search(&pos) {
                    v.remove(i);
                }
                match v.as_slice() {
                    [only] => Some(Line::One(*only)),
                    _ => None,
                }
            }
            Line::Many(set) => {
                set.remove(&pos);
                (set.len() <= FEW / 2).then(|| Line::Few(set.iter().copied().collect()))
            }
        };
        if let Some(smaller) = shrunk {
            *line = smaller;
        }
    }

    /// Moves position `from` of line `key` to `to`, when no position of the
    /// line lies between them (a legal step or slide along the line): the
    /// order is unchanged. O(log k), in place unless the line is large.
    fn shift(&mut self, key: u64, from: i64, to: i64) {
        match self.lines.get_mut(&key) {
            Some(Line::One(p)) => *p = to,
            Some(Line::Few(v)) => {
                if let Some(x) = v.binary_search(&from).ok().and_then(|i| v.get_mut(i)) {
                    *x = to;
                }
            }
            Some(Line::Many(set)) => {
                set.remove(&from);
                set.insert(to);
            }
            None => {}
        }
    }

    /// The nearest position of line `key` strictly beyond `pos`, towards
    /// larger positions if `up`, else smaller. O(1) or O(log k).
    #[inline]
    fn next(&self, key: u64, pos: i64, up: bool) -> Option<i64> {
        match self.lines.get(&key)? {
            Line::One(p) => (if up { *p > pos } else { *p < pos }).then_some(*p),
            Line::Few(v) => {
                if up {
                    v.get(v.partition_point(|&x| x <= pos)).copied()
                } else {
                    let i = v.partition_point(|&x| x < pos);
                    i.checked_sub(1).and_then(|j| v.get(j)).copied()
                }
            }
            Line::Many(set) => {
                if up {
                    set.range((std::ops::Bound::Excluded(pos), std::ops::Bound::Unbounded))
                        .next()
                        .copied()
                } else {
                    set.range(..pos).next_back().copied()
                }
            }
        }
    }
}

// @end rays

// @section steps
/// How many steps from coordinate `x` in direction `d` stay inside i64.
#[inline]
fn edge_steps(x: i64, d: i64) -> u64 {
    if d > 0 {
        i64::MAX.abs_diff(x)
    } else if d < 0 {
        x.abs_diff(i64::MIN)
    } else {
        u64::MAX
    }
}
// @end steps

// @section board
// @end board

// @section pieces: board squares
/// One slot of the piece table. A dead slot's name is `NIL`; it is on the
/// free list through `next`.
#[derive(Clone, Copy, Debug)]
struct Piece {
    row: i64,
    col: i64,
    name: Name,
    /// Name list links (older piece = `next`); free list link when dead.
    prev: u32,
    next: u32,
    // @section king
    /// Position in its roster (`Board::roster`).
    roster_at: u32,
    // @end king
    /// [`Colour`] and [`Kind`] as numbers.
    colour: u8,
    kind: u8,
}
// @end pieces

// @section move: board pieces squares
/// A move s -> t as a legality test sees it, the board untouched: s empty,
/// t holding the mover.
#[derive(Clone, Copy, Debug)]
struct Overlay {
    sr: i64,
    sc: i64,
    tr: i64,
    tc: i64,
    // @section at
    mover: u32,
    // @end at
}
// @end move

// @section board
/// The infinite board of §3 (squares: every pair of i64) with its
/// pieces, and the commands of §4.1 to §4.4 and §4.7. A name outside
/// `0..names` ([`Board::new`]) has no pieces: it counts 0, its moves and
/// places fail.
#[derive(Clone, Debug)]
pub struct Board {
    /// Per name (`0..names`): its live pieces (§4.7).
    name_counts: Vec<u64>,
    // @section pieces
    /// Per name: its newest live piece, the head of its list (older pieces
    /// follow through `Piece::next`); `NIL` for none.
    heads: Vec<u32>,
    pieces: Vec<Piece>,
    free: u32,
    // @end pieces
    // @section squares
    squares: SquareTable,
    // @end squares
    // @section runs
    live: u64,
    // @end runs
    // @section king
    /// Live kings per colour (swap-remove on capture).
    kings: [Vec<u32>; 2],
    // @end king
    // @section check_sliders
    /// Live rooks, bishops and queens per colour.
    sliders: [Vec<u32>; 2],
    // @end check_sliders
    // @section check
    /// Live pieces per colour and kind.
    counts: [[u64; 6]; 2],
    // @end check
    // @section rays
    /// Line indices (rows, cols, diagonals, anti-diagonals), `None` until
    /// first needed.
    lines: [Option<LineIndex>; 4],
    any_line: bool,
    // @end rays
}

impl Board {
    /// An empty board for a program with `names` interned names.
    pub fn new(names: usize) -> Board {
        Board {
            name_counts: vec![0; names],
            // @section pieces
            heads: vec![NIL; names],
            pieces: Vec::new(),
            free: NIL,
            // @end pieces
            // @section squares
            squares: SquareTable::new(),
            // @end squares
            // @section runs
            live: 0,
            // @end runs
            // @section king
            kings: [Vec::new(), Vec::new()],
            // @end king
            // @section check_sliders
            sliders: [Vec::new(), Vec::new()],
            // @end check_sliders
            // @section check
            counts: [[0; 6]; 2],
            // @end check
            // @section rays
            lines: [None, None, None, None],
            any_line: false,
            // @end rays
        }
    }

    // @section interpreter
    /// The number of interned names this board was made for.
    pub fn names(&self) -> usize {
        self.name_counts.len()
    }

    /// The number of live pieces on the board, of every name and colour.
    pub fn live_pieces(&self) -> u64 {
        self.live
    }
    // @end interpreter

    // @section place: board pieces squares squares_grow move heads get
    /// §4.1 Place: puts a new piece (colour, kind, name) on (row, col).
    ///
    /// `Ok(false)` (nothing changes) if the square is occupied. Check does
    /// not matter. The new piece is its name's newest (§3 serial order).
    /// Errors: [`Fault::OutOfMemory`] (§8), the board unchanged.
    pub fn place(
        &mut self,
        name: Name,
        colour: Colour,
        kind: Kind,
        row: i64,
        col: i64,
    ) -> Result<bool, Fault> {
        let name_at = name as usize;
        if name_at >= self.name_counts.len() || self.squares.get(row, col).is_some() {
            return Ok(false);
        }
        // Reserve everything first so that a memory fault changes nothing.
        self.squares.reserve_one()?;
        let (colour, kind) = (colour as u8, kind as u8);
        // @section king
        let mut roster_at = NIL;
        if let Some(roster) = self.roster(colour, kind) {
            roster.try_reserve(1).map_err(|_| Fault::OutOfMemory)?;
            roster_at = u32::try_from(roster.len()).map_err(|_| Fault::OutOfMemory)?;
        }
        // @end king
        let old_head = self.head_of(name);
        let piece = Piece {
            row,
            col,
            name,
            prev: NIL,
            next: old_head,
            // @section king
            roster_at,
            // @end king
            colour,
            kind,
        };
        let slot = if self.free != NIL {
            let slot = self.free;
            match self.pieces.get_mut(slot as usize) {
                Some(p) => {
                    self.free = p.next;
                    *p = piece;
                }
                None => return Err(Fault::OutOfMemory),
            }
            slot
        } else {
            if self.pieces.len() >= MAX_SLOTS {
                return Err(Fault::OutOfMemory);
            }
            self.pieces.try_reserve(1).map_err(|_| Fault::OutOfMemory)?;
            self.pieces.push(piece);
            (self.pieces.len() - 1) as u32
        };
        // Mutations below cannot fail.
        if let Some(p) = self.pieces.get_mut(old_head as usize) {
            p.prev = slot;
        }
        if let Some(head) = self.heads.get_mut(name_at) {
            *head = slot;
        }
        if let Some(count) = self.name_counts.get_mut(name_at) {
            *count += 1;
        }
        // @section king
        if let Some(roster) = self.roster(colour, kind) {
            roster.push(slot);
        }
        // @end king
        // @section check
        self.counts[colour as usize][kind as usize] += 1;
        // @end check
        // @section runs
        self.live += 1;
        // @end runs
        self.squares.insert_new(row, col, slot);
        // @section rays
        if self.any_line {
            self.index_insert(row, col);
        }
        // @end rays
        Ok(true)
    }
    // @end place

    // @section occupy: board squares squares_grow get
    /// §4.1 Place, in a program that moves no piece: colour and kind then
    /// change nothing, so the square is only marked occupied (no piece
    /// slot, `OCCUPIED`) and the name counted. As [`Board::place`]:
    /// `Ok(true)` if placed, `Ok(false)` if the square is occupied or the
    /// name is outside `0..names`; [`Fault::OutOfMemory`] (§8) when the
    /// table cannot grow. A board is used with `place` or with `occupy`,
    /// never both.
    pub fn occupy(&mut self, name: Name, row: i64, col: i64) -> Result<bool, Fault> {
        let name_at = name as usize;
        if name_at >= self.name_counts.len() || self.squares.get(row, col).is_some() {
            return Ok(false);
        }
        self.squares.reserve_one()?;
        self.squares.insert_new(row, col, OCCUPIED);
        if let Some(count) = self.name_counts.get_mut(name_at) {
            *count += 1;
        }
        Ok(true)
    }
    // @end occupy

    // @section move_squares: move get
    /// §4.2 Move by squares: moves the piece on (r1, c1), of either colour,
    /// to (r2, c2) if the move is legal (§7), capturing what stands there.
    ///
    /// `Ok(false)` if (r1, c1) is empty or the move is illegal; nothing
    /// changes then. Never returns an error today (moves allocate nothing
    /// fallible); the `Result` keeps every command's shape alike.
    pub fn move_squares(&mut self, r1: i64, c1: i64, r2: i64, c2: i64) -> Result<bool, Fault> {
        match self.squares.get(r1, c1) {
            Some(slot) => Ok(self.try_move(slot, r2, c2)),
            None => Ok(false),
        }
    }
    // @end move_squares

    // @section move_name_to: move heads
    /// §4.3 Move by name, absolute: the live pieces called `name` are tried
    /// newest first; the first whose move to (row, col) is legal (§7) moves.
    ///
    /// `Ok(false)` if none can (or none exists); nothing changes then.
    /// Never returns an error today (see [`Board::move_squares`]).
    pub fn move_name_to(&mut self, name: Name, row: i64, col: i64) -> Result<bool, Fault> {
        let mut slot = self.head_of(name);
        while let Some(p) = self.pieces.get(slot as usize) {
            let next = p.next;
            if self.try_move(slot, row, col) {
                return Ok(true);
            }
            slot = next;
        }
        Ok(false)
    }
    // @end move_name_to

    // @section move_name_by: move heads
    /// §4.4 Move by name, relative: as §4.3, each candidate on (r, c)
    /// aiming at (r + drow, c + dcol); one whose target leaves i64 cannot
    /// move. `Ok(false)` (nothing changes) if none can. Never an error.
    #[inline]
    pub fn move_name_by(&mut self, name: Name, drow: i64, dcol: i64) -> Result<bool, Fault> {
        let mut slot = self.head_of(name);
        while let Some(p) = self.pieces.get(slot as usize) {
            let next = p.next;
            let target = p.row.checked_add(drow).zip(p.col.checked_add(dcol));
            if target.is_some_and(|(tr, tc)| self.try_move(slot, tr, tc)) {
                return Ok(true);
            }
            slot = next;
        }
        Ok(false)
    }
    // @end move_name_by

    // @section slide: move move_name_by
    /// §4.4 again and again: a slide loop (`L. name;dr,dc?L`), summarised
    /// by the optimiser. Moves the pieces called `name` by
    /// (drow, dcol) exactly as that many [`Board::move_name_by`] calls
    /// would, until one fails or `most` have succeeded; returns how many
    /// succeeded. When one piece has the name, its colour has no king
    /// (§7 rule 4 cannot apply) and the step is one square along a line
    /// (a rook, bishop or queen, or a pawn's push), a run of steps costs
    /// one ray query (O(log k)) per piece it meets, whatever the distance;
    /// else each step is made as `move_name_by` makes it.
    #[inline]
    pub fn slide(&mut self, name: Name, drow: i64, dcol: i64, most: u64) -> Result<u64, Fault> {
        // @section slide_fast
        if let Some((made, _)) = self.slide_run(name, drow, dcol, most) {
            return Ok(made);
        }
        // @end slide_fast
        // Step by step, as the loop itself would (its cost, no more).
        let mut moves = 0u64;
        while moves < most && self.move_name_by(name, drow, dcol)? {
            moves += 1;
        }
        Ok(moves)
    }

    // @end slide

    // @section slide_fast: slide runs steps
    /// [`Board::slide`]'s fast path: `None` when it does not apply; else
    /// the moves made (at most `most`: fewer only when the next one fails)
    /// and whether the next one fails.
    #[inline(never)]
    fn slide_run(&mut self, name: Name, dr: i64, dc: i64, most: u64) -> Option<(u64, bool)> {
        let slot = self.alone(name).filter(|_| most > 0)?;
        let p = *self.pieces.get(slot as usize)?;
        // @section king
        if !self.kings.get(p.colour as usize)?.is_empty() {
            return None;
        }
        // @end king
        // @section slide_knight
        let jump = matches!((dr.abs(), dc.abs()), (1, 2) | (2, 1));
        if p.kind == KNIGHT && jump {
            return (self.live <= KNIGHT_SCAN).then(|| self.knight_run(slot, (dr, dc), most));
        }
        // @end slide_knight
        // @section slide_line
        if (dr, dc) != (0, 0) && dr.abs() <= 1 && dc.abs() <= 1 {
            return self.line_run(slot, p, (dr, dc), most);
        }
        // @end slide_line
        None
    }

    /// Moves piece `slot` from `from` by `k` steps of `dir` in one go,
    /// capturing what stands on the target (the caller knows the squares
    /// between are empty and the move legal).
    fn relocate(&mut self, slot: u32, from: (i64, i64), k: u64, dir: (i64, i64)) {
        if k == 0 {
            return;
        }
        let step = |x: i64, d: i64| (x as i128 + d as i128 * k as i128) as i64;
        let (tr, tc) = (step(from.0, dir.0), step(from.1, dir.1));
        let (captured, free_at) = self.squares.find(tr, tc);
        let ov = Overlay {
            sr: from.0,
            sc: from.1,
            tr,
            tc,
            // @section at
            mover: slot,
            // @end at
        };
        self.perform(slot, &ov, captured, free_at);
    }
    // @end slide_fast

    // @section slide_line: slide_fast rays
    /// A slide along a line (one piece of the name, no king of its colour,
    /// a unit step along a line of the piece: a rook, bishop or queen, or
    /// a pawn's push): one ray query (O(log k)) per piece it meets,
    /// whatever the distance. `None` when the step fits none of its lines.
    fn line_run(
        &mut self,
        slot: u32,
        p: Piece,
        (dr, dc): (i64, i64),
        most: u64,
    ) -> Option<(u64, bool)> {
        let (fits, push) = match p.kind {
            // @section pawn
            PAWN => (dc == 0 && dr == 1 - 2 * i64::from(p.colour), true),
            // @end pawn
            // @section sliders
            kind if lines_of(kind) != 0 => {
                let line = if dr == 0 || dc == 0 { 1 } else { 2 };
                (lines_of(kind) & line != 0, false)
            }
            // @end sliders
            _ => (false, false),
        };
        if !fits {
            return None;
        }
        let mut moves = 0u64;
        while moves < most {
            let q = *self.pieces.get(slot as usize)?;
            let (r, c) = (q.row, q.col);
            let left = most - moves;
            let ov = Overlay {
                sr: r,
                sc: c,
                tr: r,
                tc: c,
                // @section at
                mover: slot,
                // @end at
            };
            let edge = edge_steps(r, dr).min(edge_steps(c, dc));
            let hit = self.first_on_ray((r, c), (dr, dc), left, &ov);
            let Some(h) = hit.and_then(|h| self.pieces.get(h as usize).copied()) else {
                // Nothing within reach: run to it, or to the i64 edge.
                let k = left.min(edge);
                self.relocate(slot, (r, c), k, (dr, dc));
                moves += k;
                if k < left {
                    return Some((moves, true));
                }
                continue;
            };
            let k = h.row.abs_diff(r).max(h.col.abs_diff(c));
            if h.colour != p.colour && !push {
                // Empty squares, then the capture: k moves.
                self.relocate(slot, (r, c), k, (dr, dc));
                moves += k;
            } else {
                // Blocked just before it (own piece, or any piece in a push).
                self.relocate(slot, (r, c), k - 1, (dr, dc));
                return Some((moves + k - 1, true));
            }
        }
        Some((moves, false))
    }
    // @end slide_line

    // @section slide_knight: slide_fast runs knight steps knight_scan
    /// A knight's slide (no king of its colour): its squares are s + k·v,
    /// on no line the indices know, so the pieces on them are found by
    /// looking at every piece (at most [`KNIGHT_SCAN`]); the moves made
    /// (at most `most`) and whether the next one fails.
    fn knight_run(&mut self, slot: u32, (dr, dc): (i64, i64), most: u64) -> (u64, bool) {
        let Some(p) = self.pieces.get(slot as usize).copied() else {
            return (0, true);
        };
        let (r, c) = (p.row, p.col);
        // How many jumps stay inside i64.
        let reach =
            (edge_steps(r, dr) / dr.unsigned_abs()).min(edge_steps(c, dc) / dc.unsigned_abs());
        let limit = most.min(reach);
        // The pieces on the ray, by jump count: own ones stop it.
        let mut on: Vec<(u64, bool)> = self
            .pieces
            .iter()
            .filter(|q| q.name != NIL)
            .filter_map(|q| {
                let (er, ec) = (q.row as i128 - r as i128, q.col as i128 - c as i128);
                let k = er / dr as i128;
                let on_ray = k > 0 && er % dr as i128 == 0 && ec == k * dc as i128;
                on_ray.then_some((k as u64, q.colour == p.colour))
            })
            .collect();
        on.sort_unstable();
        // Jumps made so far, and where they left the knight.
        let mut at = 0u64;
        let here = |at: u64| {
            let step = |x: i64, d: i64| (x as i128 + d as i128 * at as i128) as i64;
            (step(r, dr), step(c, dc))
        };
        for (k, own) in on {
            if k > limit {
                break;
            }
            if own {
                self.relocate(slot, here(at), k - 1 - at, (dr, dc));
                return (k - 1, true);
            }
            // The jumps before it land on empty squares; this one takes it.
            self.relocate(slot, here(at), k - at, (dr, dc));
            at = k;
        }
        self.relocate(slot, here(at), limit - at, (dr, dc));
        (limit, limit < most)
    }

    // @end slide_knight

    // @section loop: move move_name_by runs rays steps knight_scan
    /// A loop of statements summarised by the optimiser: runs
    /// `steps` round from member `start` exactly as that many statements
    /// would run, until a [`Step::Move`] fails (`left`: control leaves by
    /// that member's failure target) or `most` statements have run (an
    /// execution of a slide loop's statement is one, its failed one
    /// included).
    ///
    /// Each round is run step by step (slides by [`Board::slide`]); after
    /// a round, as many further rounds as can be proven identical to it
    /// are made in one go: every piece the loop names is alone with its
    /// name and of a colour with no king, the round captured nothing, the
    /// slid pieces ended where they began and each moved piece one step
    /// on (one square along a line of its kind, a pawn's push or a
    /// knight's jump), and no moved piece comes onto a square a slide of
    /// the round looked at, onto another piece, or onto the square of a
    /// moved piece in its way. Costs O(log k) per such run of rounds,
    /// whatever their number. Never fails: moves allocate nothing.
    pub fn run_loop(&mut self, steps: &[Step], start: usize, most: u64) -> LoopEnd {
        let mut executed = 0u64;
        let mut at = start;
        let mut round: Option<Round> = None;
        loop {
            if at == start {
                if let Some(r) = round.take() {
                    executed += self.skip_rounds(&r, executed, most);
                }
                round = self.begin_round(steps, start, executed);
            }
            let Some(&step) = steps.get(at) else {
                // No such member: nothing to run (the optimiser makes none).
                return LoopEnd {
                    executed,
                    at,
                    left: true,
                };
            };
            if executed >= most {
                return LoopEnd {
                    executed,
                    at,
                    left: false,
                };
            }
            match step {
                // @section loop_nothing
                Step::Nothing => executed += 1,
                // @end loop_nothing
                // @section loop_slide
                Step::Slide(name, dr, dc) => {
                    let from = self.pieces.get(self.head_of(name) as usize);
                    let from = from.map(|p| (p.row, p.col));
                    let left = most - executed;
                    let made = self.slide(name, dr, dc, left).unwrap_or(0);
                    if made >= left {
                        return LoopEnd {
                            executed: most,
                            at,
                            left: false,
                        };
                    }
                    executed += made + 1;
                    if let Some(r) = round.as_mut() {
                        match from.and_then(|from| Segment::of_slide(from, (dr, dc), made)) {
                            Some(seg) => r.look(seg),
                            None => r.blind = true,
                        }
                    }
                }
                // @end loop_slide
                Step::Move(name, dr, dc) => {
                    executed += 1;
                    if !matches!(self.move_name_by(name, dr, dc), Ok(true)) {
                        return LoopEnd {
                            executed,
                            at,
                            left: true,
                        };
                    }
                }
            }
            at = if at + 1 < steps.len() { at + 1 } else { 0 };
        }
    }

    /// [`Board::run_loop`] with no budget, for generated programs: the
    /// member whose move failed (control leaves by its failure target).
    /// A loop that never ends never returns, as the statements would not.
    #[inline(never)]
    pub fn loop_exit(&mut self, steps: &[Step], start: usize) -> usize {
        let mut at = start;
        loop {
            let end = self.run_loop(steps, at, u64::MAX);
            if end.left {
                return end.at;
            }
            at = end.at;
        }
    }

    /// The state a round of a loop starts from, when its rounds may be
    /// skipped ([`Board::skip_rounds`]): `None` when a name of the loop has
    /// not exactly one piece, a piece is of a colour with a king, or a
    /// piece is moved by two members or moved and slid.
    fn begin_round(&self, steps: &[Step], start: usize, executed: u64) -> Option<Round> {
        let mut r = Round {
            executed,
            live: self.live,
            pieces: [NO_PIECE; MAX_LOOP],
            npieces: 0,
            looked: [NO_SEGMENT; MAX_LOOP],
            nlooked: 0,
            blind: false,
        };
        let j = steps.len();
        if j > MAX_LOOP {
            return None;
        }
        for order in 0..j {
            let (name, by) = match steps.get((start + order) % j)? {
                Step::Move(name, dr, dc) => (*name, Some((*dr, *dc))),
                // @section loop_slide
                Step::Slide(name, _, _) => (*name, None),
                // @end loop_slide
                // @section loop_nothing
                Step::Nothing => continue,
                // @end loop_nothing
            };
            let slot = self.alone(name)?;
            let p = self.pieces.get(slot as usize)?;
            // @section king
            if !self.kings.get(p.colour as usize)?.is_empty() {
                return None;
            }
            // @end king
            if let Some(seen) = r.pieces().iter().find(|q| q.slot == slot) {
                if by.is_some() || seen.by.is_some() {
                    return None;
                }
                continue;
            }
            if by.is_some_and(|v| !self.steps_freely(p, v)) {
                return None;
            }
            // At most one piece a member, and at most MAX_LOOP members.
            *r.pieces.get_mut(r.npieces)? = LoopPiece {
                slot,
                row: p.row,
                col: p.col,
                by,
                order,
            };
            r.npieces += 1;
        }
        Some(r)
    }

    /// Whether piece `p` moving by `v` succeeds whenever its target is
    /// empty (no king of its colour assumed): one square along a line of
    /// its kind, a pawn's push, or a knight's jump (while few pieces are
    /// live, see [`KNIGHT_SCAN`]).
    fn steps_freely(&self, p: &Piece, (dr, dc): (i64, i64)) -> bool {
        match p.kind {
            // @section pawn
            PAWN => dc == 0 && dr == 1 - 2 * i64::from(p.colour),
            // @end pawn
            // @section knight
            KNIGHT => {
                let jump = matches!((dr.abs(), dc.abs()), (1, 2) | (2, 1));
                jump && self.live <= KNIGHT_SCAN
            }
            // @end knight
            // @section sliders
            kind if lines_of(kind) != 0 => {
                let unit = (dr, dc) != (0, 0) && dr.abs() <= 1 && dc.abs() <= 1;
                let line = if dr == 0 || dc == 0 { 1 } else { 2 };
                unit && lines_of(kind) & line != 0
            }
            // @end sliders
            _ => false,
        }
    }

    /// After the round that began at `r` ended (control back at its first
    /// member, `executed` statements run in all): makes in one go as many
    /// further rounds as are certain to repeat it, within `most`
    /// statements in all, and returns the statements they count (0 when
    /// none can be proven; see [`Board::run_loop`]).
    fn skip_rounds(&mut self, r: &Round, executed: u64, most: u64) -> u64 {
        let per = executed - r.executed;
        if self.live != r.live || per == 0 || r.blind {
            return 0;
        }
        let mut rounds = (most - executed) / per;
        for lp in r.pieces() {
            let Some(p) = self.pieces.get(lp.slot as usize).filter(|p| p.name != NIL) else {
                return 0;
            };
            let (dr, dc) = lp.by.unwrap_or((0, 0));
            let expected = (lp.row.checked_add(dr), lp.col.checked_add(dc));
            if expected != (Some(p.row), Some(p.col)) {
                return 0;
            }
        }
        // The moved pieces, where they stand now, and their steps.
        let square = |b: &Board, slot: u32| b.pieces.get(slot as usize).map(|p| (p.row, p.col));
        let moved = || r.pieces().iter().filter_map(|lp| lp.by.map(|v| (lp, v)));
        for (lp, v) in moved() {
            if rounds == 0 {
                return 0;
            }
            let Some(at) = square(self, lp.slot) else {
                return 0;
            };
            rounds = rounds.min(self.free_run(lp.slot, at, v, rounds, r.pieces()));
            // Where it stood during the round, and will stand: off every
            // square a slide looked at.
            for seg in r.looked() {
                match seg.first_meeting(at, v) {
                    Some(s) if s <= 0 => return 0,
                    Some(s) => rounds = rounds.min(u64::try_from(s - 1).unwrap_or(u64::MAX)),
                    None => {}
                }
            }
            // Off the square of every other moved piece when it moves.
            for (lq, w) in moved() {
                let Some(other) = square(self, lq.slot).filter(|_| lq.slot != lp.slot) else {
                    continue;
                };
                let after = u8::from(lq.order > lp.order);
                if let Some(t) = collision(at, v, other, w, after) {
                    rounds = rounds.min(t - 1);
                }
            }
        }
        if rounds == 0 {
            return 0;
        }
        // Lift every moved piece, then put each down: one may land where
        // another stood (the pieces keep their squares until put down).
        for (lp, _) in moved() {
            if let Some(at) = square(self, lp.slot) {
                self.squares.remove(at.0, at.1);
                if self.any_line {
                    self.index_remove(at.0, at.1);
                }
            }
        }
        for (lp, (dr, dc)) in moved() {
            let Some(at) = square(self, lp.slot) else {
                continue;
            };
            let k = rounds as i128;
            let to = |x: i64, d: i64| (x as i128 + d as i128 * k) as i64;
            let (tr, tc) = (to(at.0, dr), to(at.1, dc));
            let (_, free_at) = self.squares.find(tr, tc);
            self.squares.put_at(free_at, tr, tc, lp.slot);
            if self.any_line {
                self.index_insert(tr, tc);
            }
            if let Some(p) = self.pieces.get_mut(lp.slot as usize) {
                p.row = tr;
                p.col = tc;
            }
        }
        rounds * per
    }

    /// How many steps of `v` piece `slot` on `at` can make onto empty
    /// squares, at most `limit`: up to the first piece in its way that
    /// the loop does not name (`ours`), or the i64 edge.
    fn free_run(
        &mut self,
        slot: u32,
        at: (i64, i64),
        v: (i64, i64),
        limit: u64,
        ours: &[LoopPiece],
    ) -> u64 {
        let (dr, dc) = v;
        let ours = |s: u32| ours.iter().any(|q| q.slot == s);
        let knight = dr.abs() + dc.abs() == 3;
        if knight {
            let reach = (edge_steps(at.0, dr) / dr.unsigned_abs())
                .min(edge_steps(at.1, dc) / dc.unsigned_abs());
            let mut run = limit.min(reach);
            for (s, q) in self.pieces.iter().enumerate() {
                if q.name == NIL || ours(s as u32) {
                    continue;
                }
                let (er, ec) = (q.row as i128 - at.0 as i128, q.col as i128 - at.1 as i128);
                let k = er / dr as i128;
                if k > 0 && er % dr as i128 == 0 && ec == k * dc as i128 {
                    run = run.min(u64::try_from(k - 1).unwrap_or(u64::MAX));
                }
            }
            return run;
        }
        let limit = limit.min(edge_steps(at.0, dr)).min(edge_steps(at.1, dc));
        let ov = Overlay {
            sr: at.0,
            sc: at.1,
            tr: at.0,
            tc: at.1,
            // @section at
            mover: slot,
            // @end at
        };
        let mut from = at;
        let mut walked = 0u64;
        while walked < limit {
            let Some(h) = self.first_on_ray(from, v, limit - walked, &ov) else {
                return limit;
            };
            let Some(q) = self.pieces.get(h as usize) else {
                return limit;
            };
            let d = q.row.abs_diff(at.0).max(q.col.abs_diff(at.1));
            if !ours(h) {
                return d - 1;
            }
            from = (q.row, q.col);
            walked = d;
        }
        limit
    }
    // @end loop

    // @section count: board
    /// §4.7 Count: the number of live pieces called `name` (0 for a name
    /// never placed or outside `0..names`).
    #[inline]
    pub fn count(&self, name: Name) -> u64 {
        self.name_counts.get(name as usize).copied().unwrap_or(0)
    }
    // @end count

    // @section interpreter
    /// The squares of the live pieces called `name`, newest first (the
    /// order §4.3 tries them in); empty for a name never placed. For
    /// `icp2c run --trace`: costs one step per piece of the name.
    pub fn squares_of(&self, name: Name) -> Vec<(i64, i64)> {
        let mut squares = Vec::new();
        let mut slot = self.head_of(name);
        while let Some(p) = self.pieces.get(slot as usize) {
            squares.push((p.row, p.col));
            slot = p.next;
        }
        squares
    }

    /// Every live piece as (row, col, colour, kind, name), in no promised
    /// order. For `icp2c run --board`: costs one step per piece slot.
    pub fn pieces(&self) -> Vec<(i64, i64, Colour, Kind, Name)> {
        self.pieces
            .iter()
            .filter(|p| p.name != NIL)
            .map(|p| (p.row, p.col, colour_of(p.colour), kind_of(p.kind), p.name))
            .collect()
    }

    /// The piece on (row, col), if any: its colour, kind and name (§3).
    pub fn piece_at(&self, row: i64, col: i64) -> Option<(Colour, Kind, Name)> {
        let slot = self.squares.get(row, col)?;
        let p = self.pieces.get(slot as usize)?;
        Some((colour_of(p.colour), kind_of(p.kind), p.name))
    }
    // @end interpreter

    // @section move
    // -- internals --------------------------------------------------------
    // @end move

    // @section heads: pieces
    /// The newest live piece called `name`; `NIL` for none.
    #[inline]
    fn head_of(&self, name: Name) -> u32 {
        self.heads.get(name as usize).copied().unwrap_or(NIL)
    }
    // @end heads

    // @section runs: heads
    /// The piece called `name` when it is its name's only live piece: the
    /// condition of the fast paths of slides and loops.
    fn alone(&self, name: Name) -> Option<u32> {
        let count = self.name_counts.get(name as usize).copied();
        (count == Some(1)).then(|| self.head_of(name))
    }
    // @end runs

    // @section at: move get
    /// The slot on (row, col) as the overlay sees it.
    #[inline]
    fn at(&self, row: i64, col: i64, ov: &Overlay) -> Option<u32> {
        if row == ov.tr && col == ov.tc {
            Some(ov.mover)
        } else if row == ov.sr && col == ov.sc {
            None
        } else {
            self.squares.get(row, col)
        }
    }
    // @end at

    // @section check_near: check
    /// Whether the overlay shows a piece of `colour` and `kind` on
    /// `square + offset` (false if that square leaves i64).
    #[inline]
    fn holds(&self, at: (i64, i64), offset: (i64, i64), piece: (u8, u8), ov: &Overlay) -> bool {
        let (r, c) = (at.0.checked_add(offset.0), at.1.checked_add(offset.1));
        let (Some(r), Some(c)) = (r, c) else {
            return false;
        };
        match self.at(r, c, ov).and_then(|s| self.pieces.get(s as usize)) {
            Some(p) => (p.colour, p.kind) == piece,
            None => false,
        }
    }

    /// Whether `colour` has a live piece of `kind`.
    fn enemy_has(&self, colour: u8, kind: u8) -> bool {
        let counts = self.counts.get(usize::from(colour));
        counts
            .and_then(|c| c.get(usize::from(kind)))
            .is_some_and(|&n| n > 0)
    }
    // @end check_near

    // @section move

    /// §7: tries to move the piece in `slot` to (tr, tc); moves it and
    /// returns true iff legal.
    #[inline]
    fn try_move(&mut self, slot: u32, tr: i64, tc: i64) -> bool {
        let p = match self.pieces.get(slot as usize) {
            Some(p) => *p,
            None => return false,
        };
        // Rule 1: t != s.
        let (adr, adc) = (p.row.abs_diff(tr), p.col.abs_diff(tc));
        if adr == 0 && adc == 0 {
            return false;
        }
        // Rule 2: t empty or holding the other colour.
        let (captured, free_at) = self.squares.find(tr, tc);
        if let Some(v) = captured {
            match self.pieces.get(v as usize) {
                Some(q) if q.colour != p.colour => {}
                _ => return false,
            }
        }
        // Rule 3: geometry.
        let ov = Overlay {
            sr: p.row,
            sc: p.col,
            tr,
            tc,
            // @section at
            mover: slot,
            // @end at
        };
        let fits = match p.kind {
            KING => adr <= 1 && adc <= 1,
            // @section knight
            KNIGHT => (adr == 1 && adc == 2) || (adr == 2 && adc == 1),
            // @end knight
            // @section pawn
            PAWN => {
                let forward = (tr > p.row) == (p.colour == 0);
                adr == 1 && forward && (adc == 0) == captured.is_none() && adc <= 1
            }
            // @end pawn
            // @section sliders
            kind if lines_of(kind) != 0 => {
                // Along one of its lines, every square strictly between empty.
                let line = if adr == 0 || adc == 0 {
                    1
                } else {
                    u8::from(adr == adc) * 2
                };
                lines_of(kind) & line != 0 && self.clear_between(&ov, adr.max(adc))
            }
            // @end sliders
            _ => false,
        };
        if !fits {
            return false;
        }
        // @section check
        // Rule 4: no king of the mover's colour attacked afterwards.
        let colour = usize::from(p.colour);
        if self.kings.get(colour).is_some_and(|k| !k.is_empty())
            && self.own_king_attacked(p.colour, &ov)
        {
            return false;
        }
        // @end check
        self.perform(slot, &ov, captured, free_at);
        true
    }

    // @end move

    // @section sliders
    /// Whether every square strictly between s and t (`steps` apart on a
    /// line) is empty: a ray query unless they are next to each other.
    fn clear_between(&mut self, ov: &Overlay, steps: u64) -> bool {
        let dir = |s: i64, t: i64| (t as i128 - s as i128).signum() as i64;
        let dir = (dir(ov.sr, ov.tr), dir(ov.sc, ov.tc));
        steps <= 1
            || self
                .first_on_ray((ov.sr, ov.sc), dir, steps - 1, ov)
                .is_none()
    }
    // @end sliders

    // @section rays

    /// The slot of the first piece the overlay shows along the ray from
    /// `from` = (row, col) in direction `dir` = (dr, dc), within `limit`
    /// steps and the i64 edge. Until the line index of the ray's kind is
    /// built, the first PROBE squares are probed in the hash table and only
    /// a ray reaching further builds it; once built, the index alone
    /// answers: O(1) for a line without pieces, O(log k) for k pieces on
    /// the line, whatever the distance.
    #[inline]
    fn first_on_ray(
        &mut self,
        from: (i64, i64),
        dir: (i64, i64),
        limit: u64,
        ov: &Overlay,
    ) -> Option<u32> {
        let ((row, col), (dr, dc)) = (from, dir);
        let limit = limit.min(edge_steps(row, dr)).min(edge_steps(col, dc));
        let line = line_of(dr, dc);
        if matches!(self.lines.get(line), Some(None)) {
            let (mut r, mut c) = (row, col);
            for _ in 0..limit.min(PROBE) {
                // In range: at most `limit` steps, bounded by the edge.
                r = r.wrapping_add(dr);
                c = c.wrapping_add(dc);
                if let Some(slot) = self.at(r, c, ov) {
                    return Some(slot);
                }
            }
            if limit <= PROBE {
                return None;
            }
            self.ensure_line(line);
        }
        self.indexed_on_ray(from, dir, limit, ov)
    }

    /// `first_on_ray` from the (built) line index: steps 1 ..= limit
    /// (limit already within the edge).
    fn indexed_on_ray(
        &self,
        from: (i64, i64),
        dir: (i64, i64),
        limit: u64,
        ov: &Overlay,
    ) -> Option<u32> {
        let ((row, col), (dr, dc)) = (from, dir);
        let line = line_of(dr, dc);
        let index = self.lines.get(line)?.as_ref()?;
        let (key, p0) = line_key(line, row, col);
        let up = if line == ROWS { dc > 0 } else { dr > 0 };
        let mut found = index.next(key, p0, up);
        // The vacated square does not count: look past it.
        let (skey, spos) = line_key(line, ov.sr, ov.sc);
        if skey == key && found == Some(spos) {
            found = index.next(key, spos, up);
        }
        let steps_to = |pos: i64| -> u64 {
            if up {
                pos.abs_diff(p0)
            } else {
                p0.abs_diff(pos)
            }
        };
        let mut best = found.map(steps_to);
        // The mover's target square, which the index does not hold yet.
        let (tkey, tpos) = line_key(line, ov.tr, ov.tc);
        if tkey == key && (if up { tpos > p0 } else { tpos < p0 }) {
            let steps = steps_to(tpos);
            if best.is_none_or(|b| b > steps) {
                best = Some(steps);
            }
        }
        let steps = best.filter(|&s| s <= limit)?;
        let r = i64::try_from(row as i128 + dr as i128 * steps as i128).ok()?;
        let c = i64::try_from(col as i128 + dc as i128 * steps as i128).ok()?;
        self.at(r, c, ov)
    }

    /// Builds the line index of `line` from every live piece, if absent.
    fn ensure_line(&mut self, line: usize) {
        let absent = matches!(self.lines.get(line), Some(None));
        if !absent {
            return;
        }
        let mut index = LineIndex::default();
        for p in self.pieces.iter().filter(|p| p.name != NIL) {
            let (key, pos) = line_key(line, p.row, p.col);
            index.insert(key, pos);
        }
        if let Some(entry) = self.lines.get_mut(line) {
            *entry = Some(index);
        }
        self.any_line = true;
    }

    /// A new square, in every built index.
    fn index_insert(&mut self, row: i64, col: i64) {
        for (line, index) in self.lines.iter_mut().enumerate() {
            if let Some(index) = index {
                let (key, pos) = line_key(line, row, col);
                index.insert(key, pos);
            }
        }
    }

    /// A move from s to t, in every built index. A capture keeps t
    /// occupied: only s leaves. Else, on the line through s and t (none for
    /// a knight's jump) no piece lies between them, so the mover keeps its
    /// rank and only its position changes.
    fn index_move(&mut self, ov: &Overlay, capture: bool) {
        let (dr, dc) = (ov.tr as i128 - ov.sr as i128, ov.tc as i128 - ov.sc as i128);
        let along = (dr == 0 || dc == 0 || dr.abs() == dc.abs())
            .then(|| line_of(dr.signum() as i64, dc.signum() as i64));
        for (line, index) in self.lines.iter_mut().enumerate() {
            if let Some(index) = index {
                let (skey, spos) = line_key(line, ov.sr, ov.sc);
                let (tkey, tpos) = line_key(line, ov.tr, ov.tc);
                if capture {
                    index.remove(skey, spos);
                } else if along == Some(line) {
                    index.shift(skey, spos, tpos);
                } else {
                    index.remove(skey, spos);
                    index.insert(tkey, tpos);
                }
            }
        }
    }
    // @end rays

    // @section loop
    /// A square gone, from every built index.
    fn index_remove(&mut self, row: i64, col: i64) {
        for (line, index) in self.lines.iter_mut().enumerate() {
            if let Some(index) = index {
                let (key, pos) = line_key(line, row, col);
                index.remove(key, pos);
            }
        }
    }
    // @end loop

    // @section king
    /// The roster a piece of this colour and kind is listed in: kings;
    /// rooks, bishops and queens for the check test; none else.
    #[inline]
    fn roster(&mut self, colour: u8, kind: u8) -> Option<&mut Vec<u32>> {
        let colour = usize::from(colour);
        // @section check_sliders
        if lines_of(kind) != 0 {
            return self.sliders.get_mut(colour);
        }
        // @end check_sliders
        if kind == KING {
            self.kings.get_mut(colour)
        } else {
            None
        }
    }
    // @end king

    // @section check: king at
    /// Rule 4 of §7: whether, in the overlay's position, some king of
    /// `colour` is attacked by a piece of the other colour.
    fn own_king_attacked(&mut self, colour: u8, ov: &Overlay) -> bool {
        let mut i = 0;
        while let Some(&king) = self.kings.get(usize::from(colour)).and_then(|k| k.get(i)) {
            i += 1;
            let (kr, kc) = if king == ov.mover {
                (ov.tr, ov.tc)
            } else {
                match self.pieces.get(king as usize) {
                    Some(p) => (p.row, p.col),
                    None => continue,
                }
            };
            if self.square_attacked(kr, kc, colour ^ 1, ov) {
                return true;
            }
        }
        false
    }

    /// Whether a piece of colour `enemy` could capture on (kr, kc) in the
    /// overlay's position; each part runs only if the enemy has the kind.
    fn square_attacked(&mut self, kr: i64, kc: i64, enemy: u8, ov: &Overlay) -> bool {
        // @section check_knight: check_near knight
        if self.enemy_has(enemy, KNIGHT) {
            for (i, j) in (-2..=2).flat_map(|i| (-2..=2).map(move |j| (i, j))) {
                if i * i + j * j == 5 && self.holds((kr, kc), (i, j), (enemy, KNIGHT), ov) {
                    return true;
                }
            }
        }
        // @end check_knight
        // @section check_king: check_near
        if self.enemy_has(enemy, KING) {
            for (i, j) in (-1..=1).flat_map(|i| (-1..=1).map(move |j| (i, j))) {
                if (i, j) != (0, 0) && self.holds((kr, kc), (i, j), (enemy, KING), ov) {
                    return true;
                }
            }
        }
        // @end check_king
        // @section check_pawn: check_near pawn
        // A white pawn attacks from one row below, a black one from above.
        let from = 2 * i64::from(enemy) - 1;
        if self.enemy_has(enemy, PAWN)
            && (self.holds((kr, kc), (from, -1), (enemy, PAWN), ov)
                || self.holds((kr, kc), (from, 1), (enemy, PAWN), ov))
        {
            return true;
        }
        // @end check_pawn
        // @section check_sliders: sliders
        let rays = self.slider_rays(kr, kc, enemy);
        for (i, dir) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ]
        .into_iter()
        .enumerate()
        {
            let line = if i < 4 { 1 } else { 2 };
            if rays & (1 << i) != 0 && self.slider_on_ray((kr, kc), dir, enemy, line, ov) {
                return true;
            }
        }
        // @end check_sliders
        false
    }
    // @end check

    // @section check_sliders
    /// The rays from (kr, kc) worth asking about, as bits: bit i for the
    /// i-th direction of `square_attacked` (4 orthogonal, 4 diagonal).
    /// With at most `SLIDER_SCAN` enemy sliders, only the rays that point
    /// at one of them along a line it moves on; otherwise every ray. The
    /// ray query itself decides.
    #[inline]
    fn slider_rays(&self, kr: i64, kc: i64, enemy: u8) -> u8 {
        let Some(sliders) = self.sliders.get(usize::from(enemy)) else {
            return 0;
        };
        if sliders.len() > SLIDER_SCAN {
            return 0xFF;
        }
        let mut rays = 0u8;
        for p in sliders.iter().filter_map(|&s| self.pieces.get(s as usize)) {
            // A slider captured by this move may still be listed: asking
            // its ray anyway is harmless, the overlay answers exactly.
            let dr = p.row as i128 - kr as i128;
            let dc = p.col as i128 - kc as i128;
            let lines = lines_of(p.kind);
            rays |= match (dr.signum(), dc.signum()) {
                (0, 1) if lines & 1 != 0 => 1,
                (0, -1) if lines & 1 != 0 => 2,
                (1, 0) if lines & 1 != 0 => 4,
                (-1, 0) if lines & 1 != 0 => 8,
                (1, 1) if lines & 2 != 0 && dr == dc => 0x10,
                (1, -1) if lines & 2 != 0 && dr == -dc => 0x20,
                (-1, 1) if lines & 2 != 0 && dr == -dc => 0x40,
                (-1, -1) if lines & 2 != 0 && dr == dc => 0x80,
                _ => 0,
            };
        }
        rays
    }

    /// Whether the first piece along the ray is an enemy moving along
    /// `line` (1 orthogonal, 2 diagonal).
    #[inline]
    fn slider_on_ray(
        &mut self,
        from: (i64, i64),
        dir: (i64, i64),
        enemy: u8,
        line: u8,
        ov: &Overlay,
    ) -> bool {
        match self
            .first_on_ray(from, dir, u64::MAX, ov)
            .and_then(|s| self.pieces.get(s as usize))
        {
            Some(p) => p.colour == enemy && lines_of(p.kind) & line != 0,
            None => false,
        }
    }
    // @end check_sliders

    // @section move
    /// Carries out a legal move: the captured piece (if any) leaves every
    /// table, the mover goes from s to t.
    #[inline]
    fn perform(&mut self, mover: u32, ov: &Overlay, captured: Option<u32>, free_at: usize) {
        // @section rays
        if self.any_line {
            self.index_move(ov, captured.is_some());
        }
        // @end rays
        match captured {
            Some(victim) => {
                // The target's entry is `free_at`: the mover takes it.
                if let Some(e) = self.squares.entries.get_mut(free_at) {
                    e.slot = mover;
                }
                self.bury(victim);
            }
            // Target first (entry `free_at` is the end of its probe run,
            // found by the legality test; the table is at most half full,
            // so both entries fit at once), then the source.
            None => self.squares.put_at(free_at, ov.tr, ov.tc, mover),
        }
        self.squares.remove(ov.sr, ov.sc);
        if let Some(p) = self.pieces.get_mut(mover as usize) {
            p.row = ov.tr;
            p.col = ov.tc;
        }
    }

    /// Removes a captured piece from its name list, the counts and the
    /// rosters, and frees its slot. Its square is left to the caller.
    fn bury(&mut self, victim: u32) {
        let p = match self.pieces.get(victim as usize) {
            Some(p) => *p,
            None => return,
        };
        if let Some(q) = self.pieces.get_mut(p.prev as usize) {
            q.next = p.next;
        } else if let Some(head) = self.heads.get_mut(p.name as usize) {
            *head = p.next;
        }
        if let Some(q) = self.pieces.get_mut(p.next as usize) {
            q.prev = p.prev;
        }
        if let Some(count) = self.name_counts.get_mut(p.name as usize) {
            *count = count.saturating_sub(1);
        }
        // @section check
        let counts = self.counts.get_mut(usize::from(p.colour));
        if let Some(count) = counts.and_then(|c| c.get_mut(usize::from(p.kind))) {
            *count = count.saturating_sub(1);
        }
        // @end check
        // @section runs
        self.live = self.live.saturating_sub(1);
        // @end runs
        // @section king
        let mut moved = NIL;
        if let Some(roster) = self.roster(p.colour, p.kind) {
            let at = p.roster_at as usize;
            if at < roster.len() {
                roster.swap_remove(at);
                moved = roster.get(at).copied().unwrap_or(NIL);
            }
        }
        if let Some(q) = self.pieces.get_mut(moved as usize) {
            q.roster_at = p.roster_at;
        }
        // @end king
        // The slot goes to the free list.
        if let Some(q) = self.pieces.get_mut(victim as usize) {
            *q = Piece {
                name: NIL,
                prev: NIL,
                next: self.free,
                ..p
            };
        }
        self.free = victim;
    }
    // @end move
}
// @end board

// @section loop
/// One statement of a loop the optimiser summarised, for
/// [`Board::run_loop`], in the order control goes round the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `name;drow,dcol` (§4.4): its success goes on round the loop, its
    /// failure leaves it.
    Move(Name, i64, i64),
    // @section loop_slide: loop slide
    /// `name;drow,dcol?itself`, a slide loop ([`Board::slide`]): its
    /// moves go on until one fails, and that failure goes on round the
    /// loop.
    Slide(Name, i64, i64),
    // @end loop_slide
    // @section loop_nothing: loop
    /// `^` (§4.5): goes on round the loop.
    Nothing,
    // @end loop_nothing
}

/// Where [`Board::run_loop`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopEnd {
    /// Statements run (each run of a slide loop's statement is one).
    pub executed: u64,
    /// The member whose move failed (`left`), or the one to run next
    /// (the budget is spent).
    pub at: usize,
    /// Whether member `at`'s move failed: control leaves the loop.
    pub left: bool,
}

/// A round of a loop as it began, for [`Board::skip_rounds`]: fixed
/// arrays (a loop has at most [`MAX_LOOP`] members), so that running a
/// loop allocates nothing.
struct Round {
    /// Statements run before it.
    executed: u64,
    /// Live pieces when it began.
    live: u64,
    /// The pieces the loop names: the first `npieces`.
    pieces: [LoopPiece; MAX_LOOP],
    npieces: usize,
    /// The squares its slides looked at: the first `nlooked`.
    looked: [Segment; MAX_LOOP],
    nlooked: usize,
    /// A slide looked at squares not followed ([`Segment::of_slide`]).
    blind: bool,
}

impl Round {
    fn pieces(&self) -> &[LoopPiece] {
        self.pieces.get(..self.npieces).unwrap_or(&[])
    }

    fn looked(&self) -> &[Segment] {
        self.looked.get(..self.nlooked).unwrap_or(&[])
    }

    // @section loop_slide
    /// Records the squares a slide of the round looked at (one slide a
    /// member, so there is room; else the round is blind).
    fn look(&mut self, seg: Segment) {
        match self.looked.get_mut(self.nlooked) {
            Some(slot) => {
                *slot = seg;
                self.nlooked += 1;
            }
            None => self.blind = true,
        }
    }
    // @end loop_slide
}

const NO_PIECE: LoopPiece = LoopPiece {
    slot: NIL,
    row: 0,
    col: 0,
    by: None,
    order: 0,
};

const NO_SEGMENT: Segment = Segment {
    from: (0, 0),
    dir: (0, 0),
    len: 0,
};

/// A piece named by a loop, where a round began.
#[derive(Clone, Copy)]
struct LoopPiece {
    slot: u32,
    row: i64,
    col: i64,
    /// The step of the member that moves it; `None` for a slid piece.
    by: Option<(i64, i64)>,
    /// Its member's place in the round (0 = first).
    order: usize,
}

/// The squares from + u·dir for 0 ≤ u ≤ len: those a slide loop's run
/// looked at (where it began, the squares it entered, and the one it
/// could not move to).
#[derive(Clone, Copy)]
struct Segment {
    from: (i128, i128),
    dir: (i128, i128),
    len: i128,
}

impl Segment {
    // @section loop_slide
    /// The squares a slide loop's run of `made` moves by `v` from `from`
    /// looked at, when `v` is one square along a line or a knight's jump
    /// (the landing squares: no square lies between); `None` for any
    /// other step (its squares are not followed: no round is skipped).
    fn of_slide(from: (i64, i64), v: (i64, i64), made: u64) -> Option<Segment> {
        let unit = v != (0, 0) && v.0.abs() <= 1 && v.1.abs() <= 1;
        let jump = matches!((v.0.abs(), v.1.abs()), (1, 2) | (2, 1));
        (unit || jump).then(|| Segment {
            from: (from.0 as i128, from.1 as i128),
            dir: (v.0 as i128, v.1 as i128),
            len: made as i128 + 1,
        })
    }
    // @end loop_slide

    /// The least s ≥ −1 with at + s·v on this segment, if any; `v` is a
    /// unit step or a knight's jump.
    fn first_meeting(&self, at: (i64, i64), v: (i64, i64)) -> Option<i128> {
        let (vr, vc) = (v.0 as i128, v.1 as i128);
        let (wr, wc) = self.dir;
        let (dr, dc) = (self.from.0 - at.0 as i128, self.from.1 - at.1 as i128);
        let cross = vr * wc - vc * wr;
        if cross != 0 {
            // s·v − u·w = d, by Cramer's rule.
            let (sn, un) = (dr * wc - dc * wr, dr * vc - dc * vr);
            if sn % cross != 0 || un % cross != 0 {
                return None;
            }
            let (s, u) = (sn / cross, un / cross);
            return (s >= -1 && (0..=self.len).contains(&u)).then_some(s);
        }
        // Parallel steps (unit steps or jumps: v = ±w).
        if dr * wc - dc * wr != 0 {
            return None;
        }
        // On the segment's line: d = k·w (w is a unit step or a jump).
        let k = if wr != 0 { dr / wr } else { dc / wc };
        if (dr, dc) != (k * wr, k * wc) {
            return None;
        }
        // s·a = k + u for u in 0..=len, where v = a·w.
        let (lo, hi) = if (vr, vc) == (wr, wc) {
            (k, k + self.len)
        } else {
            (-k - self.len, -k)
        };
        let s = lo.max(-1);
        (s <= hi).then_some(s)
    }
}

/// A square (row, col), or a step (drow, dcol).
type Pair = (i64, i64);

/// The first round t ≥ 1 in which a piece on `a` stepping by `v` each
/// round would land on a piece on `b` stepping by `w`, which steps
/// `after` (1) or before (0) it in the round; `None` if never.
fn collision(a: Pair, v: Pair, b: Pair, w: Pair, after: u8) -> Option<u64> {
    let late = i128::from(after);
    // a + t·v = b + (t − late)·w  ⇔  d + t·e = 0.
    let d = (
        a.0 as i128 - b.0 as i128 + late * w.0 as i128,
        a.1 as i128 - b.1 as i128 + late * w.1 as i128,
    );
    let e = (v.0 as i128 - w.0 as i128, v.1 as i128 - w.1 as i128);
    let mut t: Option<i128> = None;
    for (dk, ek) in [(d.0, e.0), (d.1, e.1)] {
        if ek == 0 {
            if dk != 0 {
                return None;
            }
        } else {
            if dk % ek != 0 {
                return None;
            }
            let tk = -dk / ek;
            if t.is_some_and(|t| t != tk) {
                return None;
            }
            t = Some(tk);
        }
    }
    match t {
        // e = 0: the same square every round, or never.
        None => Some(1),
        Some(t) if t >= 1 => u64::try_from(t).ok(),
        Some(_) => None,
    }
}
// @end loop

// @section read: die
// ---------------------------------------------------------------------------
// Input and output
// ---------------------------------------------------------------------------

/// The integer reader behind every `*` (§6).
///
/// Skips blanks (space, tab, `\r`, `\n`), then reads an optional `-` or `+`
/// and one or more ASCII digits; the number ends at the first non-digit,
/// which is left unread. End of input is sticky: once seen, the reader is
/// never asked again.
pub struct Input<R: BufRead> {
    reader: R,
    eof: bool,
}

impl<R: BufRead> Input<R> {
    /// A reader of integers from `reader` (usually locked, buffered stdin).
    pub fn new(reader: R) -> Self {
        Input { reader, eof: false }
    }

    /// The next byte without consuming it; `None` at end of input.
    fn peek(&mut self) -> Result<Option<u8>, Fault> {
        if self.eof {
            return Ok(None);
        }
        loop {
            match self.reader.fill_buf() {
                Ok(buf) => match buf.first() {
                    Some(&b) => return Ok(Some(b)),
                    None => {
                        self.eof = true;
                        return Ok(None);
                    }
                },
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return Err(Fault::ReadFailed),
            }
        }
    }

    /// §6: reads one integer. `Ok(None)` at end of input (before any sign
    /// or digit). Errors: [`Fault::NotANumber`] when the first non-blank
    /// text is not `[-+]?[0-9]+`; [`Fault::NumberOutOfRange`] when the value
    /// is outside i64 (`-9223372036854775808` is inside);
    /// [`Fault::ReadFailed`] when the reader fails.
    pub fn read_int(&mut self) -> Result<Option<i64>, Fault> {
        loop {
            match self.peek()? {
                None => return Ok(None),
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.reader.consume(1),
                Some(_) => break,
            }
        }
        let mut negative = false;
        if let Some(sign @ (b'-' | b'+')) = self.peek()? {
            negative = sign == b'-';
            self.reader.consume(1);
        }
        // The magnitude, at most 2^63 (for i64::MIN).
        let limit: u64 = if negative { 1 << 63 } else { i64::MAX as u64 };
        let mut magnitude: u64 = 0;
        let mut digits = 0usize;
        while let Some(b) = self.peek()? {
            if !b.is_ascii_digit() {
                break;
            }
            self.reader.consume(1);
            digits += 1;
            magnitude = magnitude
                .checked_mul(10)
                .and_then(|m| m.checked_add(u64::from(b - b'0')))
                .filter(|&m| m <= limit)
                .ok_or(Fault::NumberOutOfRange)?;
        }
        if digits == 0 {
            return Err(Fault::NotANumber);
        }
        let value = if negative {
            -(magnitude as i128)
        } else {
            magnitude as i128
        };
        i64::try_from(value)
            .map(Some)
            .map_err(|_| Fault::NumberOutOfRange)
    }

    /// §6: reads up to `values.len()` integers into `values`, left to
    /// right, stopping at the first end of input. Returns how many were
    /// read (the rest of `values` is untouched). Errors as
    /// [`Input::read_int`].
    pub fn read_into(&mut self, values: &mut [i64]) -> Result<usize, Fault> {
        for (read, slot) in values.iter_mut().enumerate() {
            match self.read_int()? {
                Some(v) => *slot = v,
                None => return Ok(read),
            }
        }
        Ok(values.len())
    }
}
// @end read

// @section text
/// §4.6: writes `text` exactly (the caller includes the `\n`).
/// Errors: [`Fault::WriteFailed`] (§8).
pub fn write_text<W: std::io::Write>(out: &mut W, text: &str) -> Result<(), Fault> {
    out.write_all(text.as_bytes())
        .map_err(|_| Fault::WriteFailed)
}
// @end text

// @section count
/// §4.7: writes `n` in decimal and a `\n`.
/// Errors: [`Fault::WriteFailed`] (§8).
pub fn write_count<W: std::io::Write>(out: &mut W, n: u64) -> Result<(), Fault> {
    writeln!(out, "{n}").map_err(|_| Fault::WriteFailed)
}
// @end count

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read, Write};

    impl Colour {
        fn index(self) -> usize {
            self as usize
        }

        fn other(self) -> Colour {
            colour_of(self as u8 ^ 1)
        }
    }

    impl Kind {
        fn index(self) -> usize {
            self as usize
        }
    }

    const W: Colour = Colour::White;
    const B: Colour = Colour::Black;
    const ORTHOGONAL: [(i64, i64); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAGONAL: [(i64, i64); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const KNIGHT_JUMPS: [(i64, i64); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING_STEPS: [(i64, i64); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    fn board() -> Board {
        Board::new(16)
    }

    fn put(b: &mut Board, name: Name, colour: Colour, kind: Kind, row: i64, col: i64) {
        assert_eq!(b.place(name, colour, kind, row, col), Ok(true));
    }

    fn mv(b: &mut Board, r1: i64, c1: i64, r2: i64, c2: i64) -> bool {
        b.move_squares(r1, c1, r2, c2).expect("moves do not fault")
    }

    /// Checks the internal tables against each other: occupancy, name
    /// lists, counts, kings and every built line index.
    fn assert_consistent(b: &Board) {
        let live: Vec<&Piece> = b.pieces.iter().filter(|p| p.name != NIL).collect();
        assert_eq!(live.len() as u64, b.live);
        assert_eq!(b.squares.len, live.len());
        for (slot, p) in b.pieces.iter().enumerate() {
            if p.name != NIL {
                assert_eq!(b.squares.get(p.row, p.col), Some(slot as u32));
            }
        }
        assert_eq!(b.heads.len(), b.name_counts.len());
        for (name, (&head, &count)) in b.heads.iter().zip(&b.name_counts).enumerate() {
            let mut n = 0;
            let mut prev = NIL;
            let mut slot = head;
            while let Some(p) = b.pieces.get(slot as usize) {
                assert!(p.name != NIL);
                assert_eq!(p.name as usize, name);
                assert_eq!(p.prev, prev);
                n += 1;
                prev = slot;
                slot = p.next;
            }
            assert_eq!(n, count);
        }
        for colour in [W, B] {
            for kind in [
                Kind::King,
                Kind::Queen,
                Kind::Rook,
                Kind::Bishop,
                Kind::Knight,
                Kind::Pawn,
            ] {
                let n = live
                    .iter()
                    .filter(|p| p.colour == colour as u8 && p.kind == kind as u8)
                    .count();
                assert_eq!(b.counts[colour.index()][kind.index()], n as u64);
            }
            let is_slider = |k: Kind| matches!(k, Kind::Rook | Kind::Bishop | Kind::Queen);
            let rosters = [
                (&b.kings[colour.index()], true),
                (&b.sliders[colour.index()], false),
            ];
            for (roster, kings) in rosters {
                let wanted = |k: Kind| if kings { k == Kind::King } else { is_slider(k) };
                let n = live
                    .iter()
                    .filter(|p| p.colour == colour as u8 && wanted(kind_of(p.kind)))
                    .count();
                assert_eq!(roster.len(), n);
                for (i, &k) in roster.iter().enumerate() {
                    let p = b.pieces[k as usize];
                    assert!(p.name != NIL && wanted(kind_of(p.kind)) && p.colour == colour as u8);
                    assert_eq!(p.roster_at as usize, i);
                }
            }
        }
        for (line, index) in b.lines.iter().enumerate() {
            if let Some(index) = index {
                let mut want: std::collections::BTreeMap<u64, BTreeSet<i64>> = Default::default();
                for p in &live {
                    let (key, pos) = line_key(line, p.row, p.col);
                    want.entry(key).or_default().insert(pos);
                }
                let got: std::collections::BTreeMap<u64, BTreeSet<i64>> = index
                    .lines
                    .iter()
                    .map(|(&k, l)| {
                        let set = match l {
                            Line::One(p) => [*p].into_iter().collect(),
                            Line::Few(v) => {
                                assert!(v.len() >= 2 && v.len() <= FEW, "few: {}", v.len());
                                assert!(v.windows(2).all(|w| w[0] < w[1]), "sorted");
                                v.iter().copied().collect()
                            }
                            Line::Many(set) => {
                                assert!(set.len() > FEW / 2, "many: {}", set.len());
                                set.clone()
                            }
                        };
                        (k, set)
                    })
                    .collect();
                assert_eq!(got, want, "line index {} out of date", line);
            }
        }
    }

    // -- faults and texts -------------------------------------------------

    #[test]
    fn fault_texts_are_exact() {
        assert_eq!(Fault::NotANumber.cause(), "input is not a number (§6)");
        assert_eq!(
            Fault::NumberOutOfRange.cause(),
            "input number is outside the signed 64-bit range (§6)"
        );
        assert_eq!(
            Fault::NoSuchLabel(-7).cause(),
            "no statement is labelled -7 (§5)"
        );
        assert_eq!(
            Fault::EndOfInputInTarget.cause(),
            "end of input in a `*` jump target (§6)"
        );
        assert_eq!(Fault::OutOfMemory.cause(), "memory exhausted (§8)");
        assert_eq!(Fault::ReadFailed.cause(), "cannot read standard input (§8)");
        assert_eq!(
            Fault::WriteFailed.cause(),
            "cannot write standard output (§8)"
        );
        assert_eq!(
            error_message(42, &Fault::NoSuchLabel(9)),
            "statement 42: no statement is labelled 9 (§5)"
        );
        assert_eq!(Fault::OutOfMemory.to_string(), "memory exhausted (§8)");
    }

    #[test]
    fn letters() {
        assert_eq!(piece_from_letter('K'), Some((W, Kind::King)));
        assert_eq!(piece_from_letter('n'), Some((B, Kind::Knight)));
        assert_eq!(piece_from_letter('p'), Some((B, Kind::Pawn)));
        assert_eq!(piece_from_letter('x'), None);
        assert_eq!(piece_from_letter('*'), None);
        assert_eq!(Kind::Pawn.index(), 5);
        assert_eq!(Colour::Black.index(), 1);
        assert_eq!(W.other(), B);
    }

    // -- place, count, names ----------------------------------------------

    #[test]
    fn place_and_count() {
        let mut b = board();
        assert_eq!(b.count(3), 0);
        put(&mut b, 3, W, Kind::Pawn, 0, 0);
        assert_eq!(b.place(4, B, Kind::King, 0, 0), Ok(false));
        put(&mut b, 3, B, Kind::King, 5, 5);
        assert_eq!(b.count(3), 2);
        assert_eq!(b.piece_at(5, 5), Some((B, Kind::King, 3)));
        assert_eq!(b.piece_at(5, 6), None);
        assert_eq!(b.live_pieces(), 2);
        assert_eq!(b.names(), 16);
        // A king may be placed in check, and a piece may give check.
        put(&mut b, 1, W, Kind::Rook, 5, 100);
        put(&mut b, 1, W, Kind::King, 6, 6);
        assert_consistent(&b);
    }

    #[test]
    fn occupy_places_without_colour_or_kind() {
        let mut b = Board::new(3);
        assert_eq!(b.occupy(0, 1, 1), Ok(true));
        assert_eq!(b.occupy(1, 1, 1), Ok(false));
        assert_eq!(b.occupy(3, 2, 2), Ok(false));
        assert_eq!(b.occupy(u32::MAX, 2, 2), Ok(false));
        // Past the table's first growths.
        for i in 0..1000 {
            assert_eq!(b.occupy(2, i, -i - 5), Ok(true));
        }
        assert_eq!(b.occupy(1, 500, -505), Ok(false));
        assert_eq!(b.occupy(1, i64::MIN, i64::MAX), Ok(true));
        assert_eq!((b.count(0), b.count(1), b.count(2)), (1, 1, 1000));
        assert_eq!(b.squares.get(1, 1), Some(OCCUPIED));
        assert_eq!(b.squares.len, 1002);
    }

    #[test]
    fn names_out_of_range_have_no_pieces() {
        let mut b = Board::new(2);
        assert_eq!(b.place(2, W, Kind::Rook, 0, 0), Ok(false));
        assert_eq!(b.place(u32::MAX, W, Kind::Rook, 0, 0), Ok(false));
        assert_eq!(b.count(2), 0);
        assert_eq!(b.count(u32::MAX), 0);
        assert_eq!(b.move_name_by(7, 0, 1), Ok(false));
        assert_eq!(b.move_name_to(u32::MAX, 0, 1), Ok(false));
        put(&mut b, 1, W, Kind::Rook, 0, 0);
        assert_eq!(b.count(1), 1);
        assert_eq!(b.count(0), 0);
        assert_eq!(b.move_name_by(0, 0, 1), Ok(false));
        let mut empty = Board::new(0);
        assert_eq!(empty.place(0, W, Kind::King, 0, 0), Ok(false));
        assert_eq!(empty.move_squares(0, 0, 0, 1), Ok(false));
        assert_eq!(empty.piece_at(i64::MIN, i64::MAX), None);
    }

    // -- geometry -----------------------------------------------------------

    #[test]
    fn move_from_empty_square_fails() {
        let mut b = board();
        assert!(!mv(&mut b, 3, 1, 5, 0));
        put(&mut b, 0, W, Kind::King, 6, 0);
        assert_eq!(b.move_name_by(0, 1, 1), Ok(true));
        assert_eq!(b.piece_at(7, 1), Some((W, Kind::King, 0)));
    }

    #[test]
    fn king_geometry() {
        for &(dr, dc) in KING_STEPS.iter() {
            let mut b = board();
            put(&mut b, 0, W, Kind::King, 10, 10);
            assert!(mv(&mut b, 10, 10, 10 + dr, 10 + dc));
        }
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 10, 10);
        for (dr, dc) in [(2, 0), (0, 2), (2, 2), (1, 2), (0, 0), (-2, -1)] {
            assert!(!mv(&mut b, 10, 10, 10 + dr, 10 + dc));
        }
    }

    #[test]
    fn knight_geometry() {
        for &(dr, dc) in KNIGHT_JUMPS.iter() {
            let mut b = board();
            put(&mut b, 0, B, Kind::Knight, 0, 0);
            // Knights jump: surround it completely.
            for &(a, c) in KING_STEPS.iter() {
                put(&mut b, 1, W, Kind::Pawn, a, c);
            }
            assert!(mv(&mut b, 0, 0, dr, dc));
        }
        let mut b = board();
        put(&mut b, 0, B, Kind::Knight, 0, 0);
        for (dr, dc) in [(1, 1), (2, 2), (0, 1), (3, 0), (3, 1), (1, 3)] {
            assert!(!mv(&mut b, 0, 0, dr, dc));
        }
    }

    #[test]
    fn rook_bishop_queen_geometry_and_blocking() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        assert!(!mv(&mut b, 0, 0, 1, 1));
        assert!(!mv(&mut b, 0, 0, 2, 1));
        assert!(mv(&mut b, 0, 0, 0, 37));
        assert!(mv(&mut b, 0, 37, -50, 37));
        put(&mut b, 1, W, Kind::Pawn, -20, 37);
        assert!(!mv(&mut b, -50, 37, 0, 37)); // own piece strictly between
        assert!(!mv(&mut b, -50, 37, -20, 37)); // own piece on target
        assert!(mv(&mut b, -50, 37, -21, 37)); // next to it
        put(&mut b, 2, B, Kind::Pawn, -21, 30);
        assert!(mv(&mut b, -21, 37, -21, 30)); // capture
        assert_eq!(b.count(2), 0);

        let mut b = board();
        put(&mut b, 0, B, Kind::Bishop, 0, 0);
        assert!(!mv(&mut b, 0, 0, 0, 5));
        assert!(!mv(&mut b, 0, 0, 2, 3));
        assert!(mv(&mut b, 0, 0, 12, -12));
        put(&mut b, 1, W, Kind::Knight, 3, -3);
        assert!(!mv(&mut b, 12, -12, 0, 0));
        assert!(mv(&mut b, 12, -12, 3, -3));
        assert!(mv(&mut b, 3, -3, -100, 100));

        let mut b = board();
        put(&mut b, 0, W, Kind::Queen, 0, 0);
        assert!(!mv(&mut b, 0, 0, 1, 2));
        assert!(mv(&mut b, 0, 0, 9, 9));
        assert!(mv(&mut b, 9, 9, 9, -1000));
        assert!(mv(&mut b, 9, -1000, 20, -1011));
        put(&mut b, 1, B, Kind::Rook, 20, -1);
        assert!(mv(&mut b, 20, -1011, 20, -1));
        put(&mut b, 2, W, Kind::Pawn, 30, 9);
        assert!(!mv(&mut b, 20, -1, 40, 19));
        assert_consistent(&b);
    }

    #[test]
    fn pawns_both_colours() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Pawn, 0, 0);
        assert!(!mv(&mut b, 0, 0, 2, 0)); // no two-square step
        assert!(!mv(&mut b, 0, 0, -1, 0)); // never backwards
        assert!(!mv(&mut b, 0, 0, 1, 1)); // diagonal only to capture
        assert!(!mv(&mut b, 0, 0, 0, 1));
        assert!(mv(&mut b, 0, 0, 1, 0));
        put(&mut b, 1, B, Kind::Pawn, 2, 0);
        assert!(!mv(&mut b, 1, 0, 2, 0)); // no forward capture
        assert!(!mv(&mut b, 2, 0, 1, 0)); // black blocked by white
        put(&mut b, 1, B, Kind::Knight, 2, 1);
        put(&mut b, 2, W, Kind::Knight, 2, -1);
        assert!(!mv(&mut b, 1, 0, 2, -1)); // own piece
        assert!(mv(&mut b, 1, 0, 2, 1)); // capture forward-right

        // Black pawn: forward is a smaller row.
        assert!(!mv(&mut b, 2, 0, 3, 0));
        assert!(!mv(&mut b, 2, 0, 0, 0));
        assert!(mv(&mut b, 2, 0, 1, 0));
        put(&mut b, 3, W, Kind::Queen, 0, -1);
        assert!(!mv(&mut b, 1, 0, 0, 1));
        assert!(mv(&mut b, 1, 0, 0, -1));
        assert_eq!(b.piece_at(0, -1), Some((B, Kind::Pawn, 1)));
        assert_eq!(b.count(3), 0);
        assert_consistent(&b);
    }

    #[test]
    fn own_colour_cannot_be_captured() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Pawn, 0, 1);
        assert!(!mv(&mut b, 0, 0, 0, 1));
        assert_eq!(b.piece_at(0, 0), Some((W, Kind::King, 0)));
    }

    // -- check --------------------------------------------------------------

    #[test]
    fn kings_can_be_captured() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Rook, 0, 50);
        put(&mut b, 2, W, Kind::Rook, 5, 5);
        // White is in check: only moves resolving it are legal.
        assert!(!mv(&mut b, 5, 5, 6, 5));
        assert!(mv(&mut b, 5, 5, 0, 5));
        // The black rook captures the white rook, then the king.
        assert!(mv(&mut b, 0, 50, 0, 5));
        assert!(mv(&mut b, 0, 5, 0, 0));
        assert_eq!(b.count(0), 0);
        assert!(b.kings[0].is_empty());
        assert_consistent(&b);
        // White has no king left: nothing is check-tested for white.
        put(&mut b, 3, W, Kind::Pawn, 1, 1);
        assert!(mv(&mut b, 1, 1, 2, 1));
    }

    #[test]
    fn moving_into_check() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Rook, 1, 100);
        assert!(!mv(&mut b, 0, 0, 1, 0)); // rook's row
        assert!(mv(&mut b, 0, 0, -1, 0));
        put(&mut b, 2, B, Kind::Knight, 1, 3);
        assert!(!mv(&mut b, -1, 0, 0, 1)); // the knight (1,3) covers (0,1)
        assert!(mv(&mut b, -1, 0, -1, 1));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::Knight, 2, 2);
        assert!(!mv(&mut b, 0, 0, 0, 1)); // (2,2)->(0,1)
        assert!(!mv(&mut b, 0, 0, 1, 0)); // (2,2)->(1,0)
        assert!(mv(&mut b, 0, 0, 1, 1));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::Pawn, 2, 0);
        assert!(!mv(&mut b, 0, 0, 1, 1)); // black pawn (2,0) attacks (1,1)
        assert!(mv(&mut b, 0, 0, 1, 0)); // but not (1,0)
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 2, W, Kind::Pawn, -2, 0);
        assert!(!mv(&mut b, 0, 0, -1, 1));
        assert!(!mv(&mut b, 0, 0, -1, -1));
        assert!(mv(&mut b, 0, 0, -1, 0));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::King, 0, 2);
        assert!(!mv(&mut b, 0, 0, 0, 1)); // enemy king attacks neighbours
        assert!(!mv(&mut b, 0, 0, 1, 1));
        assert!(mv(&mut b, 0, 0, -1, 0));
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 2, B, Kind::Bishop, 500, 501);
        assert!(!mv(&mut b, 0, 0, 0, 1));
        put(&mut b, 3, B, Kind::Queen, -700, 1);
        assert!(!mv(&mut b, 0, 0, 1, 1)); // queen on column 1
        assert!(mv(&mut b, 0, 0, -1, -1));
        assert_consistent(&b);
    }

    #[test]
    fn king_captures_into_and_out_of_check() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 1, 1);
        put(&mut b, 2, B, Kind::Rook, 1, 40);
        assert!(!mv(&mut b, 0, 0, 1, 1)); // the rook guards (1,1)
        assert!(mv(&mut b, 1, 40, 2, 40));
        assert!(mv(&mut b, 0, 0, 1, 1)); // now the pawn can be taken
        assert_eq!(b.count(1), 0);
    }

    #[test]
    fn pins() {
        // White king (0,0), white rook (0,3) pinned by black rook (0,20).
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 0, 3);
        put(&mut b, 2, B, Kind::Rook, 0, 20);
        assert!(!mv(&mut b, 0, 3, 5, 3)); // leaving the pin line
        assert!(mv(&mut b, 0, 3, 0, 10)); // along it
        assert!(mv(&mut b, 0, 10, 0, 1));
        assert!(mv(&mut b, 0, 1, 0, 20)); // capturing the pinner
        assert_eq!(b.count(2), 0);
        assert!(mv(&mut b, 0, 20, 7, 20)); // free now

        // A pinned bishop on a diagonal.
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Bishop, 2, 2);
        put(&mut b, 2, W, Kind::Queen, 30, 30);
        assert!(!mv(&mut b, 2, 2, 1, 3));
        assert!(mv(&mut b, 2, 2, 20, 20));
        assert!(mv(&mut b, 20, 20, 30, 30));
        // A pinned knight cannot move at all.
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Knight, 1, 0);
        put(&mut b, 2, B, Kind::Queen, 12, 0);
        for &(dr, dc) in KNIGHT_JUMPS.iter() {
            assert!(!mv(&mut b, 1, 0, 1 + dr, dc));
        }
        assert_consistent(&b);
    }

    #[test]
    fn several_kings_all_must_be_safe() {
        // Two white kings, each shielded by a rook from a black rook.
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 0, W, Kind::King, 0, 10);
        put(&mut b, 1, W, Kind::Rook, 5, 0);
        put(&mut b, 1, W, Kind::Rook, 5, 10);
        put(&mut b, 2, B, Kind::Rook, 20, 0);
        put(&mut b, 2, B, Kind::Rook, 20, 10);
        assert!(!mv(&mut b, 5, 0, 5, 1));
        assert!(!mv(&mut b, 5, 10, 5, 11));
        assert!(mv(&mut b, 5, 0, 15, 0));
        assert!(mv(&mut b, 5, 10, 1, 10));
        // Each king is tested: a bishop covering squares next to one king.
        put(&mut b, 3, B, Kind::Bishop, 3, 4);
        assert!(!mv(&mut b, 0, 0, 0, 1)); // the bishop covers (0,1)
        assert!(mv(&mut b, 0, 0, -1, -1));
        // Capturing one king leaves the other one guarded by the rules.
        put(&mut b, 4, B, Kind::Knight, 1, 0);
        assert!(mv(&mut b, 1, 0, -1, -1)); // takes the king on (-1,-1)
        assert_eq!(b.count(0), 1);
        assert!(!mv(&mut b, 1, 10, 1, 11)); // still shields (0,10)
        assert!(mv(&mut b, 1, 10, 19, 10));
        assert_consistent(&b);
    }

    #[test]
    fn opponents_kings_are_ignored() {
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 5, 5);
        put(&mut b, 4, W, Kind::King, 50, 50);
        // White may give check and leave black in check.
        assert!(mv(&mut b, 5, 5, 5, 0));
        assert!(mv(&mut b, 5, 0, 6, 0));
        // A black rook pinned to its own king still attacks: the white king
        // cannot enter its row.
        put(&mut b, 2, B, Kind::Rook, 3, 0);
        put(&mut b, 3, W, Kind::King, 2, 9);
        assert!(!mv(&mut b, 2, 9, 3, 9));
        // A black move exposing the black king is refused ...
        assert!(!mv(&mut b, 3, 0, 3, 8));
        // ... but one that checks a white king is fine for black.
        assert!(mv(&mut b, 3, 0, 2, 0));
        // White is in check now: its moves must answer it.
        assert!(!mv(&mut b, 50, 50, 51, 51));
        assert!(mv(&mut b, 2, 9, 3, 9));
        assert_consistent(&b);
    }

    #[test]
    fn black_in_check_must_answer() {
        let mut b = board();
        put(&mut b, 0, B, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 9, 9);
        put(&mut b, 2, W, Kind::Bishop, -4, -4);
        assert!(!mv(&mut b, 9, 9, 8, 9));
        assert!(mv(&mut b, 0, 0, 0, 1));
        assert!(mv(&mut b, 9, 9, 8, 9));
    }

    // -- moves by name --------------------------------------------------------

    #[test]
    fn newest_first_then_older() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0); // oldest
        put(&mut b, 0, W, Kind::Rook, 10, 0);
        put(&mut b, 0, W, Kind::Rook, 20, 0); // newest
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.piece_at(20, 1), Some((W, Kind::Rook, 0)));
        // Block the newest: the next newest moves.
        put(&mut b, 1, W, Kind::Pawn, 20, 2);
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.piece_at(10, 1), Some((W, Kind::Rook, 0)));
        // Absolute: only the oldest can reach (0, 5) (others off the lines).
        assert_eq!(b.move_name_to(0, 0, 5), Ok(true));
        assert_eq!(b.piece_at(0, 5), Some((W, Kind::Rook, 0)));
        assert_eq!(b.piece_at(0, 0), None);
        // Reachable by two, (10,1) and (0,5): the newer one goes.
        assert_eq!(b.move_name_to(0, 10, 5), Ok(true));
        assert_eq!(b.piece_at(10, 1), None);
        assert_eq!(b.piece_at(0, 5), Some((W, Kind::Rook, 0)));
        // None can move there.
        assert_eq!(b.move_name_to(0, 1000, 1001), Ok(false));
        assert_eq!(b.count(0), 3);
        // Capturing the middle piece keeps the order of the rest.
        put(&mut b, 2, B, Kind::Rook, 10, 0);
        assert!(mv(&mut b, 10, 0, 10, 5));
        assert_eq!(b.count(0), 2);
        assert_eq!(b.move_name_by(0, 1, 0), Ok(true));
        assert_eq!(b.piece_at(21, 1), Some((W, Kind::Rook, 0)));
        put(&mut b, 1, W, Kind::Pawn, 22, 1);
        assert_eq!(b.move_name_by(0, 1, 0), Ok(true));
        assert_eq!(b.piece_at(1, 5), Some((W, Kind::Rook, 0)));
        // A later placement becomes the newest even after captures.
        put(&mut b, 0, W, Kind::King, 50, 50);
        assert_eq!(b.move_name_by(0, 1, 1), Ok(true));
        assert_eq!(b.piece_at(51, 51), Some((W, Kind::King, 0)));
        assert_consistent(&b);
    }

    #[test]
    fn relative_overflow_at_the_edges() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0); // older
        put(&mut b, 0, W, Kind::Rook, 5, i64::MAX); // newer, at the edge
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.piece_at(0, 1), Some((W, Kind::Rook, 0)));
        assert_eq!(b.piece_at(5, i64::MAX), Some((W, Kind::Rook, 0)));
        assert_eq!(b.move_name_by(0, i64::MAX, 0), Ok(true)); // newer: 5+MAX overflows
        assert_eq!(b.piece_at(i64::MAX, 1), Some((W, Kind::Rook, 0)));
        assert_eq!(b.move_name_by(0, i64::MAX, i64::MAX), Ok(false));
        // Now the newer one can go: (5, MAX) -> (5 + MIN, MAX).
        assert_eq!(b.move_name_by(0, i64::MIN, 0), Ok(true));
        assert_eq!(b.piece_at(i64::MIN + 5, i64::MAX), Some((W, Kind::Rook, 0)));
        // And again the older: (MAX, 1) -> (-1, 1).
        assert_eq!(b.move_name_by(0, i64::MIN, 0), Ok(true));
        assert_eq!(b.piece_at(-1, 1), Some((W, Kind::Rook, 0)));
        // Full-width slides: from MIN to MAX and back.
        let mut b = board();
        put(&mut b, 0, W, Kind::Queen, i64::MIN, i64::MIN);
        assert!(mv(&mut b, i64::MIN, i64::MIN, i64::MAX, i64::MAX));
        assert!(mv(&mut b, i64::MAX, i64::MAX, i64::MAX, i64::MIN));
        assert!(mv(&mut b, i64::MAX, i64::MIN, i64::MIN, i64::MIN));
        put(&mut b, 1, B, Kind::Pawn, 0, 0);
        assert!(!mv(&mut b, i64::MIN, i64::MIN, i64::MAX, i64::MAX));
        assert!(mv(&mut b, i64::MIN, i64::MIN, 0, 0));
        assert!(mv(&mut b, 0, 0, i64::MIN, 0));
        assert!(mv(&mut b, i64::MIN, 0, i64::MIN + 1, -1));
        assert_eq!(b.move_name_by(0, -1, 1), Ok(true));
        assert_eq!(b.move_name_by(0, -1, 0), Ok(false));
        // Kings and knights at the edge: attack probes must not overflow.
        let mut b = board();
        put(&mut b, 0, W, Kind::King, i64::MAX, i64::MIN);
        put(&mut b, 1, B, Kind::Knight, i64::MIN, i64::MAX);
        put(&mut b, 2, B, Kind::Pawn, i64::MIN, i64::MIN);
        put(&mut b, 3, B, Kind::King, 0, 0);
        put(&mut b, 4, B, Kind::Queen, i64::MAX - 1, 0);
        assert_eq!(b.move_name_by(0, 0, 1), Ok(true));
        assert_eq!(b.move_name_by(0, -1, -1), Ok(false)); // the queen's row
        assert_eq!(b.move_name_by(0, 1, 0), Ok(false)); // past the edge
        assert_eq!(b.move_name_by(0, 0, -1), Ok(true));
        assert_eq!(b.move_name_by(0, 0, -1), Ok(false)); // past the edge
        assert_eq!(b.piece_at(i64::MAX, i64::MIN), Some((W, Kind::King, 0)));
        assert_consistent(&b);
    }

    // -- long range ------------------------------------------------------------

    const FAR: i64 = 1_000_000_000_000_000_000;

    fn scatter(b: &mut Board, n: u64, seed: u64) {
        let mut rng = Rng(seed);
        let mut placed = 0;
        while placed < n {
            let r = rng.range(-1_000_000, 1_000_000) * 1_000_000 + 7;
            let c = rng.range(-1_000_000, 1_000_000) * 1_000_000 + 13;
            if b.place(9, B, Kind::Pawn, r, c) == Ok(true) {
                placed += 1;
            }
        }
    }

    #[test]
    fn long_slides_with_many_pieces() {
        let mut b = board();
        scatter(&mut b, 2000, 1);
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        assert!(mv(&mut b, 0, 0, 0, FAR));
        assert!(mv(&mut b, 0, FAR, -FAR, FAR));
        assert!(b.lines[ROWS].is_some() && b.lines[COLS].is_some());
        put(&mut b, 1, W, Kind::Pawn, -FAR / 2, FAR);
        assert!(!mv(&mut b, -FAR, FAR, 0, FAR));
        assert!(mv(&mut b, -FAR, FAR, -FAR / 2 - 1, FAR));
        put(&mut b, 2, W, Kind::Bishop, 1, 0);
        assert!(mv(&mut b, 1, 0, 1 + FAR, FAR));
        assert!(mv(&mut b, 1 + FAR, FAR, 1 - FAR, 3 * FAR));
        put(&mut b, 3, B, Kind::Knight, 1 - FAR + 12345, 3 * FAR - 12345);
        assert!(!mv(&mut b, 1 - FAR, 3 * FAR, 1 + FAR, FAR));
        assert!(mv(
            &mut b,
            1 - FAR,
            3 * FAR,
            1 - FAR + 12345,
            3 * FAR - 12345
        ));
        for _ in 0..1000 {
            assert!(mv(
                &mut b,
                1 - FAR + 12345,
                3 * FAR - 12345,
                1 - FAR + 12345 + FAR,
                3 * FAR - 12345 - FAR
            ));
            assert!(mv(
                &mut b,
                1 + 12345,
                2 * FAR - 12345,
                1 - FAR + 12345,
                3 * FAR - 12345
            ));
        }
        assert_consistent(&b);
    }

    #[test]
    fn long_range_check_with_lazy_then_maintained_index() {
        let mut b = board();
        scatter(&mut b, 500, 2);
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 0, 50);
        put(&mut b, 2, B, Kind::Rook, 0, FAR);
        assert!(b.lines[ROWS].is_none());
        // The shield leaving row 0 exposes the king: the mover's own square
        // must be skipped in the index.
        assert!(!mv(&mut b, 0, 50, 5, 50));
        assert!(b.lines[ROWS].is_some());
        assert_consistent(&b);
        assert!(mv(&mut b, 0, 50, 0, FAR - 1));
        assert!(mv(&mut b, 0, FAR - 1, 0, 20));
        // A second shield arrives from off the line (its target is not in
        // the index yet), which frees the first one.
        put(&mut b, 3, W, Kind::Rook, 3, 40);
        assert!(mv(&mut b, 3, 40, 0, 40));
        assert!(mv(&mut b, 0, 20, 7, 20));
        assert!(!mv(&mut b, 0, 40, 1, 40));
        // The checker captures the shield: the target stays in the index.
        assert!(mv(&mut b, 0, FAR, 0, 40));
        assert_consistent(&b);
        assert!(!mv(&mut b, 7, 20, 7, 21)); // white is in check
        assert!(mv(&mut b, 7, 20, 0, 20)); // interpose again
        assert!(mv(&mut b, 0, 40, 0, 21)); // the black rook comes closer
        assert!(!mv(&mut b, 0, 20, 1, 20));
        assert!(mv(&mut b, 0, 20, 0, 21)); // and is taken
        assert_consistent(&b);
    }

    #[test]
    fn interposing_and_capturing_far_checkers() {
        let mut b = board();
        put(&mut b, 0, W, Kind::King, 0, 0);
        put(&mut b, 1, B, Kind::Rook, 0, FAR);
        put(&mut b, 2, W, Kind::Rook, 3, 50);
        put(&mut b, 3, W, Kind::Rook, 4, FAR);
        // White is in check along row 0.
        assert!(!mv(&mut b, 3, 50, 3, 51));
        assert!(mv(&mut b, 3, 50, 0, 50)); // interpose (t not in the index)
        assert!(!mv(&mut b, 0, 50, 1, 50)); // pinned now
        assert!(mv(&mut b, 0, 50, 0, 5));
        // The far white rook captures the checker: t stays occupied.
        assert!(mv(&mut b, 4, FAR, 0, FAR));
        assert_eq!(b.count(1), 0);
        assert!(mv(&mut b, 0, 5, 9, 5)); // no longer pinned
        assert_consistent(&b);
        // The king steps onto a far queen's anti-diagonal (row + col = 1).
        assert!(mv(&mut b, 0, 0, 0, 1));
        put(&mut b, 4, B, Kind::Queen, -FAR, 1 + FAR);
        assert!(!mv(&mut b, 0, 1, 1, 0)); // still on row + col = 1
        assert!(mv(&mut b, 0, 1, 1, 1));
        assert_consistent(&b);
    }

    // -- differential test against a brute-force reference --------------------

    /// A tiny deterministic PRNG (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0 | 1;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.0 = x;
            x.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as u64) as i64
        }
    }

    #[derive(Clone, Copy, Debug)]
    struct RefPiece {
        colour: Colour,
        kind: Kind,
        name: Name,
        serial: u64,
        row: i64,
        col: i64,
    }

    #[derive(Default)]
    struct Reference {
        pieces: Vec<RefPiece>,
        serial: u64,
    }

    fn ref_at(ps: &[RefPiece], r: i128, c: i128) -> Option<usize> {
        ps.iter()
            .position(|p| p.row as i128 == r && p.col as i128 == c)
    }

    /// Whether no piece of `ps` stands strictly between s and t (on a
    /// straight or diagonal line). Looks at pieces, not squares, so that
    /// distances of 10^18 cost nothing.
    fn ref_clear(ps: &[RefPiece], s: (i128, i128), t: (i128, i128)) -> bool {
        let (dr, dc) = (t.0 - s.0, t.1 - s.1);
        let steps = dr.abs().max(dc.abs());
        let (ur, uc) = (dr.signum(), dc.signum());
        !ps.iter().any(|q| {
            let (qr, qc) = (q.row as i128 - s.0, q.col as i128 - s.1);
            let k = if ur != 0 { qr * ur } else { qc * uc };
            k > 0 && k < steps && qr == k * ur && qc == k * uc
        })
    }

    /// Rule 3 geometry of `p` moving onto / attacking (r, c) on board `ps`.
    fn ref_geometry(ps: &[RefPiece], p: &RefPiece, r: i128, c: i128, capture: bool) -> bool {
        let s = (p.row as i128, p.col as i128);
        let (dr, dc) = (r - s.0, c - s.1);
        let (a, b) = (dr.abs(), dc.abs());
        match p.kind {
            Kind::King => a.max(b) == 1,
            Kind::Knight => (a == 1 && b == 2) || (a == 2 && b == 1),
            Kind::Rook => (a == 0 || b == 0) && ref_clear(ps, s, (r, c)),
            Kind::Bishop => a == b && ref_clear(ps, s, (r, c)),
            Kind::Queen => (a == 0 || b == 0 || a == b) && ref_clear(ps, s, (r, c)),
            Kind::Pawn => {
                let f = if p.colour == W { 1 } else { -1 };
                dr == f && ((b == 0 && !capture) || (b == 1 && capture))
            }
        }
    }

    impl Reference {
        fn place(&mut self, name: Name, colour: Colour, kind: Kind, r: i64, c: i64) -> bool {
            if ref_at(&self.pieces, r as i128, c as i128).is_some() {
                return false;
            }
            self.pieces.push(RefPiece {
                colour,
                kind,
                name,
                serial: self.serial,
                row: r,
                col: c,
            });
            self.serial += 1;
            true
        }

        /// The board after moving piece i to t, if legal by §7.
        fn after(&self, i: usize, tr: i64, tc: i64) -> Option<Vec<RefPiece>> {
            let p = self.pieces[i];
            if (p.row, p.col) == (tr, tc) {
                return None;
            }
            let victim = ref_at(&self.pieces, tr as i128, tc as i128);
            if victim.is_some_and(|v| self.pieces[v].colour == p.colour) {
                return None;
            }
            if !ref_geometry(&self.pieces, &p, tr as i128, tc as i128, victim.is_some()) {
                return None;
            }
            let mut post: Vec<RefPiece> = Vec::new();
            for (j, q) in self.pieces.iter().enumerate() {
                if Some(j) == victim {
                    continue;
                }
                let mut q = *q;
                if j == i {
                    q.row = tr;
                    q.col = tc;
                }
                post.push(q);
            }
            for k in post
                .iter()
                .filter(|q| q.colour == p.colour && q.kind == Kind::King)
            {
                for e in post.iter().filter(|q| q.colour != p.colour) {
                    if ref_geometry(&post, e, k.row as i128, k.col as i128, true) {
                        return None;
                    }
                }
            }
            Some(post)
        }

        fn try_move(&mut self, i: usize, tr: i64, tc: i64) -> bool {
            match self.after(i, tr, tc) {
                Some(post) => {
                    self.pieces = post;
                    true
                }
                None => false,
            }
        }

        fn candidates(&self, name: Name) -> Vec<usize> {
            let mut v: Vec<usize> = (0..self.pieces.len())
                .filter(|&i| self.pieces[i].name == name)
                .collect();
            v.sort_by_key(|&i| std::cmp::Reverse(self.pieces[i].serial));
            v
        }

        fn move_name(
            &mut self,
            name: Name,
            target: impl Fn(&RefPiece) -> Option<(i64, i64)>,
        ) -> bool {
            for i in self.candidates(name) {
                let legal =
                    target(&self.pieces[i]).filter(|&(tr, tc)| self.after(i, tr, tc).is_some());
                if let Some((tr, tc)) = legal {
                    return self.try_move(i, tr, tc);
                }
            }
            false
        }
    }

    const KINDS: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];

    fn square(base: (i64, i64), r: i128, c: i128) -> Option<(i64, i64)> {
        Some((
            i64::try_from(base.0 as i128 + r).ok()?,
            i64::try_from(base.1 as i128 + c).ok()?,
        ))
    }

    fn random_square(rng: &mut Rng, bases: &[(i64, i64)], radius: i64) -> Option<(i64, i64)> {
        let base = bases[rng.below(bases.len() as u64) as usize];
        square(
            base,
            rng.range(-radius, radius) as i128,
            rng.range(-radius, radius) as i128,
        )
    }

    /// A target for a piece on `from`: a random square of a cluster, a
    /// knight jump, a king step, a slide inside the cluster, or a slide
    /// along one of its 8 rays into another cluster (often 10^18 away).
    fn random_target(
        rng: &mut Rng,
        from: (i64, i64),
        bases: &[(i64, i64)],
        radius: i64,
        pieces: &[RefPiece],
    ) -> Option<(i64, i64)> {
        let (r, c) = (from.0 as i128, from.1 as i128);
        let (a, b) = KING_STEPS[rng.below(8) as usize];
        let (a, b) = (a as i128, b as i128);
        let (dr, dc): (i128, i128) = match rng.below(10) {
            0 => return random_square(rng, bases, radius),
            // The nearest piece along one of the 8 rays: often a capture.
            7..=9 => {
                let nearest = pieces
                    .iter()
                    .filter_map(|q| {
                        let (qr, qc) = (q.row as i128 - r, q.col as i128 - c);
                        let k = if a != 0 { qr * a } else { qc * b };
                        (k > 0 && qr == k * a && qc == k * b).then_some((k, q.row, q.col))
                    })
                    .min()?;
                return Some((nearest.1, nearest.2));
            }
            // Another piece's square: a capture if the colours differ.
            1 => {
                let q = pieces.get(rng.below(pieces.len().max(1) as u64) as usize)?;
                return Some((q.row, q.col));
            }
            2 => {
                let (a, b) = KNIGHT_JUMPS[rng.below(8) as usize];
                (a as i128, b as i128)
            }
            3 => (a, b),
            4 => {
                let k = rng.range(1, 2 * radius) as i128;
                (a * k, b * k)
            }
            _ => {
                let base = bases[rng.below(bases.len() as u64) as usize];
                let off = rng.range(-radius, radius) as i128;
                let k = if a == 0 {
                    (base.1 as i128 + off - c) * b
                } else {
                    (base.0 as i128 + off - r) * a
                };
                if k <= 0 {
                    return None;
                }
                (a * k, b * k)
            }
        };
        let t = (r + dr, c + dc);
        let near = bases.iter().any(|&(br, bc)| {
            (t.0 - br as i128).abs() <= radius as i128 && (t.1 - bc as i128).abs() <= radius as i128
        });
        if !near {
            return None;
        }
        Some((i64::try_from(t.0).ok()?, i64::try_from(t.1).ok()?))
    }

    fn compare(b: &Board, reference: &Reference, names: u32) {
        assert_eq!(b.live_pieces(), reference.pieces.len() as u64);
        for p in reference.pieces.iter() {
            assert_eq!(b.piece_at(p.row, p.col), Some((p.colour, p.kind, p.name)));
        }
        for name in 0..names {
            let n = reference.pieces.iter().filter(|p| p.name == name).count();
            assert_eq!(b.count(name), n as u64);
        }
        assert_consistent(b);
    }

    /// Random places and moves on clusters of squares around `bases`, each
    /// compared with the brute-force reference and followed by a full
    /// consistency check of the board's tables and line indices.
    fn differential(seed: u64, bases: &[(i64, i64)], radius: i64, ops: usize, most: usize) {
        let names = 5;
        let mut rng = Rng(seed);
        let mut b = Board::new(names as usize);
        let mut reference = Reference::default();
        for op in 0..ops {
            let choice = rng.below(10);
            let n = reference.pieces.len();
            if n == 0 || (choice < 3 && n < most) {
                let kind = KINDS[rng.below(6) as usize];
                let colour = if rng.below(2) == 0 { W } else { B };
                let name = rng.below(names as u64) as u32;
                if let Some((r, c)) = random_square(&mut rng, bases, radius) {
                    let want = reference.place(name, colour, kind, r, c);
                    assert_eq!(b.place(name, colour, kind, r, c), Ok(want), "op {}", op);
                }
            } else if choice < 6 {
                let i = rng.below(n as u64) as usize;
                let p = reference.pieces[i];
                if let Some((tr, tc)) =
                    random_target(&mut rng, (p.row, p.col), bases, radius, &reference.pieces)
                {
                    let want = reference.try_move(i, tr, tc);
                    let got = b.move_squares(p.row, p.col, tr, tc);
                    assert_eq!(got, Ok(want), "op {} seed {}", op, seed);
                }
            } else if choice < 8 {
                let name = rng.below(names as u64) as u32;
                let i = rng.below(n as u64) as usize;
                let p = reference.pieces[i];
                if let Some((tr, tc)) =
                    random_target(&mut rng, (p.row, p.col), bases, radius, &reference.pieces)
                {
                    let want = reference.move_name(name, |_| Some((tr, tc)));
                    let got = b.move_name_to(name, tr, tc);
                    assert_eq!(got, Ok(want), "op {} seed {}", op, seed);
                }
            } else {
                let name = rng.below(names as u64) as u32;
                let i = rng.below(n as u64) as usize;
                let p = reference.pieces[i];
                let delta = match rng.below(4) {
                    0 => Some(KING_STEPS[rng.below(8) as usize]),
                    1 => Some(KNIGHT_JUMPS[rng.below(8) as usize]),
                    2 => {
                        let (a, c) = KING_STEPS[rng.below(8) as usize];
                        let k = rng.range(1, radius);
                        Some((a * k, c * k))
                    }
                    // The offset of some target of a piece: maybe huge.
                    _ => random_target(&mut rng, (p.row, p.col), bases, radius, &reference.pieces)
                        .and_then(|(tr, tc)| {
                            Some((tr.checked_sub(p.row)?, tc.checked_sub(p.col)?))
                        }),
                };
                if let Some((dr, dc)) = delta {
                    let want = reference.move_name(name, |p| {
                        Some((p.row.checked_add(dr)?, p.col.checked_add(dc)?))
                    });
                    let got = b.move_name_by(name, dr, dc);
                    assert_eq!(got, Ok(want), "op {} seed {}", op, seed);
                }
            }
            compare(&b, &reference, names);
        }
    }

    #[test]
    fn differential_against_brute_force() {
        for seed in 1..=8u64 {
            differential(seed * 7919, &[(0, 0)], 14, 1500, 28);
        }
    }

    #[test]
    fn differential_at_the_edges() {
        for seed in 1..=3u64 {
            differential(
                seed * 104_729,
                &[(i64::MAX - 10, i64::MIN + 10)],
                14,
                1200,
                28,
            );
            differential(
                seed * 15_485_863,
                &[(i64::MIN + 10, i64::MAX - 10)],
                14,
                1200,
                28,
            );
        }
    }

    #[test]
    fn differential_sparse_long_rays() {
        // A wider cluster: rays beyond the probe reach are the rule here.
        for seed in 1..=4u64 {
            differential(seed * 31_337, &[(FAR, -FAR)], 40, 800, 28);
        }
    }

    #[test]
    fn differential_far_apart_clusters() {
        // Clusters sharing rows, columns, diagonals and anti-diagonals
        // across 10^18 squares, and clusters at the corners whose diagonals
        // share the origin's keys modulo 2^64 (the wrapped diagonal keys).
        let bases = [
            (0, 0),
            (0, FAR),
            (FAR, 0),
            (FAR, FAR),
            (-FAR, FAR),
            (i64::MAX - 3, i64::MIN + 3),
            (i64::MIN + 3, i64::MAX - 3),
            (i64::MAX - 3, i64::MAX - 3),
            (i64::MIN + 3, i64::MIN + 3),
        ];
        for seed in 1..=6u64 {
            differential(seed * 65_537, &bases, 6, 1500, 32);
        }
    }

    #[test]
    fn differential_many_sliders() {
        // More enemy sliders than SLIDER_SCAN: every ray is asked.
        for seed in 1..=3u64 {
            differential(seed * 7_777, &[(0, 0)], 9, 1000, 60);
        }
    }

    // -- memory ------------------------------------------------------------------

    #[test]
    fn slot_reuse_keeps_tables_small() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 0, W, Kind::King, -5, -5);
        for i in 0..1_000_000i64 {
            put(&mut b, 1, B, Kind::Pawn, 0, 1 + (i & 1));
            assert!(mv(&mut b, 0, 0, 0, 1 + (i & 1)));
            assert!(mv(&mut b, 0, 1 + (i & 1), 0, 0));
        }
        assert_eq!(b.count(1), 0);
        assert!(b.pieces.len() <= 3, "slots: {}", b.pieces.len());
        assert!(b.squares.entries.len() <= 16);
        assert_consistent(&b);
    }

    #[test]
    fn square_table_survives_churn() {
        let mut t = SquareTable::new();
        assert_eq!(t.get(0, 0), None);
        t.remove(1, 1);
        let mut rng = Rng(99);
        let mut model = std::collections::BTreeMap::new();
        for step in 0..200_000u32 {
            let (r, c) = (rng.range(-40, 40), rng.range(-40, 40));
            if model.remove(&(r, c)).is_some() {
                t.remove(r, c);
            } else if model.len() < 3000 {
                t.reserve_one().unwrap();
                t.insert_new(r, c, step);
                model.insert((r, c), step);
            }
        }
        assert_eq!(t.len, model.len());
        for (&(r, c), &v) in model.iter() {
            assert_eq!(t.get(r, c), Some(v));
        }
    }

    // -- input and output ------------------------------------------------------------

    fn ints(text: &str) -> Vec<Result<Option<i64>, Fault>> {
        let mut input = Input::new(text.as_bytes());
        let mut out = Vec::new();
        loop {
            let r = input.read_int();
            let stop = !matches!(r, Ok(Some(_)));
            out.push(r);
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn read_ints() {
        assert_eq!(
            ints(" 12\t-3\r\n+4\n\n 0007 "),
            vec![
                Ok(Some(12)),
                Ok(Some(-3)),
                Ok(Some(4)),
                Ok(Some(7)),
                Ok(None)
            ]
        );
        assert_eq!(ints(""), vec![Ok(None)]);
        assert_eq!(ints(" \n\t\r"), vec![Ok(None)]);
        assert_eq!(ints("x"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("5 -"), vec![Ok(Some(5)), Err(Fault::NotANumber)]);
        assert_eq!(ints("+"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("- 5"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("--5"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("\u{b}5"), vec![Err(Fault::NotANumber)]);
        assert_eq!(ints("\u{e9}"), vec![Err(Fault::NotANumber)]);
        assert_eq!(
            ints("-9223372036854775808 9223372036854775807"),
            vec![Ok(Some(i64::MIN)), Ok(Some(i64::MAX)), Ok(None)]
        );
        assert_eq!(
            ints("9223372036854775808"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("-9223372036854775809"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("+9223372036854775808"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("99999999999999999999999999"),
            vec![Err(Fault::NumberOutOfRange)]
        );
        assert_eq!(
            ints("-000000000000000000000000001"),
            vec![Ok(Some(-1)), Ok(None)]
        );
        assert_eq!(ints("-0"), vec![Ok(Some(0)), Ok(None)]);
        // A number ends at the first non-digit, which is left unread.
        let mut input = Input::new("12,3".as_bytes());
        assert_eq!(input.read_int(), Ok(Some(12)));
        assert_eq!(input.read_int(), Err(Fault::NotANumber));
        let mut input = Input::new("7-8".as_bytes());
        assert_eq!(input.read_int(), Ok(Some(7)));
        assert_eq!(input.read_int(), Ok(Some(-8)));
        assert_eq!(input.read_int(), Ok(None));
        assert_eq!(input.read_int(), Ok(None));
    }

    /// A reader that hands out its parts one per read; an empty part is an
    /// end of input, after which later parts would be readable again.
    struct Parts {
        parts: Vec<Result<Vec<u8>, ErrorKind>>,
        next: usize,
    }

    impl Read for Parts {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let part = self.parts.get(self.next).cloned();
            self.next += 1;
            match part {
                None => Ok(0),
                Some(Err(kind)) => Err(std::io::Error::new(kind, "test")),
                Some(Ok(bytes)) => {
                    let n = bytes.len().min(buf.len());
                    buf[..n].copy_from_slice(&bytes[..n]);
                    Ok(n)
                }
            }
        }
    }

    fn parts(list: &[Result<&str, ErrorKind>]) -> Input<BufReader<Parts>> {
        let parts = list
            .iter()
            .map(|p| p.map(|s| s.as_bytes().to_vec()))
            .collect();
        Input::new(BufReader::with_capacity(4, Parts { parts, next: 0 }))
    }

    #[test]
    fn read_across_buffers_sticky_eof_and_errors() {
        let mut input = parts(&[Ok("12"), Ok("34 -"), Ok("56"), Ok(" 7"), Ok(""), Ok("8")]);
        assert_eq!(input.read_int(), Ok(Some(1234)));
        assert_eq!(input.read_int(), Ok(Some(-56)));
        assert_eq!(input.read_int(), Ok(Some(7)));
        assert_eq!(input.read_int(), Ok(None));
        assert_eq!(input.read_int(), Ok(None)); // sticky: "8" is never read
        let mut input = parts(&[Ok("5"), Ok(""), Ok("6")]);
        assert_eq!(input.read_int(), Ok(Some(5))); // ended by end of input
        assert_eq!(input.read_int(), Ok(None));
        let mut input = parts(&[Err(ErrorKind::Interrupted), Ok("9 "), Err(ErrorKind::Other)]);
        assert_eq!(input.read_int(), Ok(Some(9)));
        assert_eq!(input.read_int(), Err(Fault::ReadFailed));
    }

    #[test]
    fn read_into_slots() {
        let mut input = Input::new("1 2 3 4 5".as_bytes());
        let mut v = [0i64; 3];
        assert_eq!(input.read_into(&mut v), Ok(3));
        assert_eq!(v, [1, 2, 3]);
        let mut v = [-1i64; 3];
        assert_eq!(input.read_into(&mut v), Ok(2));
        assert_eq!(v, [4, 5, -1]);
        assert_eq!(input.read_into(&mut v), Ok(0));
        assert_eq!(input.read_into(&mut []), Ok(0));
        let mut input = Input::new("1 x".as_bytes());
        assert_eq!(input.read_into(&mut v), Err(Fault::NotANumber));
    }

    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("broken pipe"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writing() {
        let mut out = Vec::new();
        write_text(&mut out, "bottles of beer \"%*?!#\\ \n").unwrap();
        write_count(&mut out, 0).unwrap();
        write_count(&mut out, 99).unwrap();
        write_count(&mut out, u64::MAX).unwrap();
        write_text(&mut out, "").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "bottles of beer \"%*?!#\\ \n0\n99\n18446744073709551615\n"
        );
        assert_eq!(write_text(&mut Broken, "x\n"), Err(Fault::WriteFailed));
        assert_eq!(write_count(&mut Broken, 1), Err(Fault::WriteFailed));
    }

    // -- the seed examples of §9 ---------------------------------------------------

    /// `slide` leaves the board exactly as that many `move_name_by` calls
    /// would, with and without its fast path's conditions (one piece of
    /// the name, no king of its colour, a unit step along a line), with
    /// blockers of both colours, captures, far pieces and the i64 edge.
    #[test]
    fn slide_is_repeated_moves() {
        let mut rng = Rng(0x51de);
        let dirs = [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
            (1, 2),
        ];
        for round in 0..3000 {
            let mut b = Board::new(4);
            let far = if rng.below(4) == 0 { FAR } else { 0 };
            let edge = rng.below(8) == 0;
            for _ in 0..1 + rng.below(9) {
                let kind = KINDS[rng.below(6) as usize];
                let colour = if rng.below(2) == 0 { W } else { B };
                let name = rng.below(4) as u32;
                let (mut r, mut c) = (rng.range(-6, 6), rng.range(-6, 6));
                if rng.below(3) == 0 {
                    r = r.saturating_add(far);
                }
                if edge {
                    c = i64::MAX - rng.range(0, 12);
                }
                let _ = b.place(name, colour, kind, r, c);
            }
            let name = rng.below(4) as u32;
            let (dr, dc) = dirs[rng.below(dirs.len() as u64) as usize];
            let most = if rng.below(3) == 0 {
                u64::MAX
            } else {
                rng.below(40)
            };
            let mut stepped = b.clone();
            let mut want = 0u64;
            while want < most.min(5_000) && stepped.move_name_by(name, dr, dc) == Ok(true) {
                want += 1;
            }
            if want == 5_000 {
                continue; // a run too long to step here
            }
            let got = b.slide(name, dr, dc, most).unwrap();
            assert_eq!(got, want, "round {round}");
            let mut a = b.pieces();
            let mut z = stepped.pieces();
            a.sort_by_key(|p| (p.0, p.1));
            z.sort_by_key(|p| (p.0, p.1));
            assert_eq!(a, z, "round {round}");
            for n in 0..4 {
                assert_eq!(b.count(n), stepped.count(n));
            }
            assert_consistent(&b);
        }
    }

    #[test]
    fn slide_runs_far_in_one_go() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 0, 1_000_000_000_000);
        put(&mut b, 1, B, Kind::Knight, 0, 2_000_000_000_000);
        put(&mut b, 2, W, Kind::Pawn, 0, 3_000_000_000_000);
        // Two captures on the way, stopped next to its own pawn.
        assert_eq!(b.slide(0, 0, 1, u64::MAX), Ok(2_999_999_999_999));
        assert_eq!(b.piece_at(0, 2_999_999_999_999), Some((W, Kind::Rook, 0)));
        assert_eq!(b.count(1), 0);
        // To the i64 edge, and back a bounded number of moves.
        assert_eq!(b.slide(0, -1, 0, u64::MAX), Ok(i64::MAX.abs_diff(0) + 1));
        assert_eq!(
            b.piece_at(i64::MIN, 2_999_999_999_999),
            Some((W, Kind::Rook, 0))
        );
        assert_eq!(b.slide(0, 1, 0, 7), Ok(7));
        assert_eq!(
            b.piece_at(i64::MIN + 7, 2_999_999_999_999),
            Some((W, Kind::Rook, 0))
        );
        assert_consistent(&b);
        // A knight jumps (1, 2) at a time: it takes the black pawn on its
        // squares, passes the rook between them, stops before its own pawn.
        let mut b = board();
        put(&mut b, 0, W, Kind::Knight, 0, 0);
        put(&mut b, 1, B, Kind::Pawn, 1_000_000, 2_000_000);
        put(&mut b, 1, B, Kind::Rook, 5, 9);
        put(&mut b, 2, W, Kind::Pawn, 3_000_000_000, 6_000_000_000);
        assert_eq!(b.slide(0, 1, 2, u64::MAX), Ok(2_999_999_999));
        assert_eq!(
            b.piece_at(2_999_999_999, 5_999_999_998),
            Some((W, Kind::Knight, 0))
        );
        assert_eq!(b.count(1), 1);
        assert_consistent(&b);
        // Nothing in the way: to the i64 edge of its columns.
        let mut b = board();
        put(&mut b, 0, B, Kind::Knight, 0, i64::MAX - 9);
        assert_eq!(b.slide(0, -1, 2, u64::MAX), Ok(4));
        assert_eq!(b.piece_at(-4, i64::MAX - 1), Some((B, Kind::Knight, 0)));
    }

    /// A loop of statements run as `run_loop` runs it: one statement at a
    /// time (a slide loop's statement is one move).
    fn step_loop(b: &mut Board, steps: &[Step], start: usize, most: u64) -> LoopEnd {
        let (mut executed, mut at) = (0u64, start);
        loop {
            if executed >= most {
                return LoopEnd {
                    executed,
                    at,
                    left: false,
                };
            }
            executed += 1;
            let next = (at + 1) % steps.len();
            match steps[at] {
                Step::Nothing => at = next,
                Step::Move(n, dr, dc) => {
                    if b.move_name_by(n, dr, dc) != Ok(true) {
                        return LoopEnd {
                            executed,
                            at,
                            left: true,
                        };
                    }
                    at = next;
                }
                Step::Slide(n, dr, dc) => {
                    if b.move_name_by(n, dr, dc) != Ok(true) {
                        at = next;
                    }
                }
            }
        }
    }

    /// `run_loop` ends where stepping the loop's statements one by one
    /// ends, with the same board, for random loops of moves, slides and
    /// `^` on random boards (kings, captures, blockers of both colours,
    /// pieces in each other's way, far pieces and the i64 edge), from
    /// every member, under random budgets.
    #[test]
    fn run_loop_is_stepping() {
        let mut rng = Rng(0x100b5);
        // Every line's unit steps, two jumps, and a step of two squares.
        let dirs: Vec<(i64, i64)> = ORTHOGONAL
            .iter()
            .chain(&DIAGONAL)
            .copied()
            .chain([(1, 2), (-2, 1), (0, 2)])
            .collect();
        let mut compared = 0;
        for round in 0..6000 {
            let mut b = Board::new(4);
            let edge = rng.below(8) == 0;
            // Half the boards suit skipping: one piece per name of the
            // loop, no king, room to move (blockers are named 3).
            let suited = round % 2 == 0;
            let spread = if suited { 12 } else { 5 };
            for i in 0..2 + rng.below(8) {
                let kind = match KINDS[rng.below(6) as usize] {
                    Kind::King if suited => Kind::Rook,
                    k => k,
                };
                let colour = if rng.below(2) == 0 { W } else { B };
                let name = if suited {
                    (i as u32).min(3)
                } else {
                    rng.below(4) as u32
                };
                let (r, mut c) = (rng.range(-spread, spread), rng.range(-spread, spread));
                if edge {
                    c = i64::MAX - rng.range(0, 8);
                }
                let _ = b.place(name, colour, kind, r, c);
            }
            let n = 2 + rng.below(3) as usize;
            let steps: Vec<Step> = (0..n)
                .map(|i| {
                    let name = if suited {
                        (i as u32).min(2)
                    } else {
                        rng.below(4) as u32
                    };
                    let (dr, dc) = dirs[rng.below(dirs.len() as u64) as usize];
                    match rng.below(6) {
                        _ if i == 0 => Step::Move(name, dr, dc),
                        0 | 1 => Step::Slide(name, dr, dc),
                        2 => Step::Nothing,
                        _ => Step::Move(name, dr, dc),
                    }
                })
                .collect();
            let start = rng.below(n as u64) as usize;
            let most = if rng.below(3) == 0 {
                u64::MAX
            } else {
                1 + rng.below(300)
            };
            let mut stepped = b.clone();
            let want = step_loop(&mut stepped, &steps, start, most.min(20_000));
            if !want.left && most > 20_000 {
                continue; // a run too long to step here
            }
            let got = b.run_loop(&steps, start, most);
            assert_eq!(got, want, "round {round}: {steps:?} from {start}");
            let sorted = |b: &Board| {
                let mut pieces = b.pieces();
                pieces.sort_by_key(|p| (p.0, p.1));
                pieces
            };
            assert_eq!(sorted(&b), sorted(&stepped), "round {round}: {steps:?}");
            assert_consistent(&b);
            compared += 1;
        }
        assert!(compared > 3000, "{compared}");
    }

    /// Rounds are skipped, not stepped: a transfer of 10^15 between two
    /// rooks, and counter's outer loop (two slides and a move) 10^6
    /// times over 10^12 squares, end at once where stepping would.
    #[test]
    fn run_loop_skips_rounds() {
        let mut b = board();
        put(&mut b, 0, W, Kind::Rook, 0, 1_000_000_000_000_000);
        put(&mut b, 1, W, Kind::Rook, 1, 0);
        put(&mut b, 2, W, Kind::Pawn, 0, -1);
        let transfer = [Step::Move(0, 0, -1), Step::Move(1, 0, 1)];
        let end = b.run_loop(&transfer, 0, u64::MAX);
        assert_eq!(
            end,
            LoopEnd {
                executed: 2_000_000_000_000_001,
                at: 0,
                left: true
            }
        );
        assert_eq!(b.piece_at(0, 0), Some((W, Kind::Rook, 0)));
        assert_eq!(
            b.piece_at(1, 1_000_000_000_000_000),
            Some((W, Kind::Rook, 1))
        );
        assert_consistent(&b);
        // counter.icp: x walks to the cap and back, m counts the rounds.
        let (n, m) = (1_000_000_000_000i64, 1_000_000i64);
        let mut b = board();
        put(&mut b, 3, W, Kind::Pawn, 0, -1);
        put(&mut b, 3, W, Kind::Pawn, 1, -1);
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 1, m);
        put(&mut b, 2, W, Kind::Pawn, 0, n);
        let outer = [
            Step::Slide(0, 0, 1),
            Step::Slide(0, 0, -1),
            Step::Move(1, 0, -1),
        ];
        let end = b.run_loop(&outer, 0, u64::MAX);
        let round = 2 * n as u64 + 1;
        assert_eq!(
            end,
            LoopEnd {
                executed: (m as u64 + 1) * round,
                at: 2,
                left: true
            }
        );
        assert_eq!(b.piece_at(1, 0), Some((W, Kind::Rook, 1)));
        assert_eq!(b.piece_at(0, 0), Some((W, Kind::Rook, 0)));
        // With a budget: the same statements counted as stepping counts
        // them (2n + 1 a round), stopping inside a slide.
        let mut b = board();
        put(&mut b, 3, W, Kind::Pawn, 0, -1);
        put(&mut b, 3, W, Kind::Pawn, 1, -1);
        put(&mut b, 0, W, Kind::Rook, 0, 0);
        put(&mut b, 1, W, Kind::Rook, 1, m);
        put(&mut b, 2, W, Kind::Pawn, 0, 10);
        let most = 21 * 1_000 + 5;
        let end = b.run_loop(&outer, 0, most);
        assert_eq!(
            end,
            LoopEnd {
                executed: most,
                at: 0,
                left: false
            }
        );
        assert_eq!(b.piece_at(1, m - 1_000), Some((W, Kind::Rook, 1)));
        assert_eq!(b.piece_at(0, 5), Some((W, Kind::Rook, 0)));
    }

    #[test]
    fn seed_nothing_program() {
        let mut b = Board::new(1);
        assert_eq!(b.move_squares(3, 1, 5, 0), Ok(false));
        assert_eq!(b.place(0, W, Kind::King, 6, 0), Ok(true));
        assert_eq!(b.move_name_by(0, 1, 1), Ok(true));
        assert_eq!(b.piece_at(7, 1), Some((W, Kind::King, 0)));
    }
}
