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

// ---------------------------------------------------------------- values

/// A CHEG value (§2). Sets have value semantics: a copy never changes.
///
/// A set's elements are shared by every value that holds them ([`Items`]):
/// copying a set costs nothing, and an edit copies the elements only when
/// another value still holds them, so building a set one `PAIR`, `APPEND`
/// or `INSERT` at a time costs O(1) amortised a step. Dropping, comparing,
/// hashing and printing walk nested sets with an explicit stack, so a set
/// nested millions deep is an ordinary value.
#[derive(Clone, Default)]
pub enum Value {
    /// Undefined (`"#`).
    #[default]
    Undefined,
    // @section val_logical: val_other
    /// T or F.
    Logical(bool),
    // @end val_logical
    // @section val_integer: val_other
    /// A signed 64-bit integer; arithmetic wraps.
    Integer(i64),
    // @end val_integer
    // @section val_set: val_other items
    /// An ordered list of values.
    Set(Items),
    // @end val_set
    // @section val_piece: val_other use_piece square_text
    /// A piece: a snapshot of colour, kind and square (§11.2).
    Piece(Piece),
    // @end val_piece
    // @section val_square: val_other use_square square_text
    /// A square.
    Square(Square),
    // @end val_square
    // @section val_move: val_other move_value_type board_move
    /// A move: the moving piece, its destination and promotion (§2).
    Move(MoveValue),
    // @end val_move
}

// @section items
/// The elements of a set value, shared (reference counted) by the values
/// that hold them and copied on write ([`Items::edit`]).
#[derive(Clone, Default)]
pub struct Items(Rc<Vec<Value>>);

// @section items_edit
impl Items {
    /// The elements, to change: copied first when another value holds
    /// them too (copy on write), else in place.
    pub fn edit(&mut self) -> &mut Vec<Value> {
        Rc::make_mut(&mut self.0)
    }
}
// @end items_edit

impl std::ops::Deref for Items {
    type Target = Vec<Value>;

    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl From<Vec<Value>> for Items {
    fn from(items: Vec<Value>) -> Items {
        Items(Rc::new(items))
    }
}

impl FromIterator<Value> for Items {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Items {
        Items(Rc::new(iter.into_iter().collect()))
    }
}

// @section val_set
impl Drop for Items {
    /// Frees nested sets with an explicit stack: the elements of a set
    /// this is the last holder of are moved out before it goes, so no
    /// drop recurses into the next level.
    fn drop(&mut self) {
        let Some(items) = Rc::get_mut(&mut self.0) else {
            return;
        };
        if !items.iter().any(|v| matches!(v, Value::Set(_))) {
            return;
        }
        let mut pending = std::mem::take(items);
        while let Some(mut value) = pending.pop() {
            if let Value::Set(inner) = &mut value {
                if let Some(elements) = Rc::get_mut(&mut inner.0) {
                    pending.append(elements);
                }
            }
        }
    }
}
// @end val_set

impl PartialEq for Items {
    fn eq(&self, other: &Items) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || equal_lists(&self.0, &other.0)
    }
}

impl Eq for Items {}

impl std::fmt::Debug for Items {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_list(f, &self.0)
    }
}
// @end items

/// §2 equality of two lists of values, element by element, nested sets
/// compared with an explicit stack.
fn equal_lists(a: &[Value], b: &[Value]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut pending: Vec<(&[Value], &[Value])> = vec![(a, b)];
    while let Some((xs, ys)) = pending.pop() {
        for (x, y) in xs.iter().zip(ys) {
            let same = match (x, y) {
                // @section val_set
                (Value::Set(p), Value::Set(q)) => {
                    if !Rc::ptr_eq(&p.0, &q.0) {
                        if p.len() != q.len() {
                            return false;
                        }
                        pending.push((p, q));
                    }
                    true
                }
                // @end val_set
                (Value::Undefined, Value::Undefined) => true,
                // @section val_logical
                (Value::Logical(p), Value::Logical(q)) => p == q,
                // @end val_logical
                // @section val_integer
                (Value::Integer(p), Value::Integer(q)) => p == q,
                // @end val_integer
                // @section val_piece
                (Value::Piece(p), Value::Piece(q)) => p == q,
                // @end val_piece
                // @section val_square
                (Value::Square(p), Value::Square(q)) => p == q,
                // @end val_square
                // @section val_move
                (Value::Move(p), Value::Move(q)) => p == q,
                // @end val_move
                // @section val_other
                _ => false,
                // @end val_other
            };
            if !same {
                return false;
            }
        }
    }
    true
}

impl PartialEq for Value {
    /// §2 equality: same type and same value; sets element by element;
    /// undefined equals undefined.
    fn eq(&self, other: &Value) -> bool {
        equal_lists(std::slice::from_ref(self), std::slice::from_ref(other))
    }
}

impl Eq for Value {}

// @section move_value_type: use_piece use_square
/// A move as a value: (moving piece, destination, promotion kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveValue {
    /// The moving piece, as it stood when the move was made.
    pub piece: Piece,
    /// Destination square.
    pub to: Square,
    /// Promotion kind, if any.
    pub promotion: Option<Kind>,
}

// @end move_value_type

// @section board_move: move_value_type
impl MoveValue {
    /// The board move.
    pub fn board_move(self) -> Move {
        Move {
            from: self.piece.square,
            to: self.to,
            promotion: self.promotion,
        }
    }
}
// @end board_move

// @section square_text: use_square
fn square_text(square: Square) -> String {
    super::chess::square_name(square)
}
// @end square_text

/// The text of a value that is not a set (§9).
fn write_scalar(f: &mut std::fmt::Formatter<'_>, value: &Value) -> std::fmt::Result {
    match value {
        Value::Undefined => write!(f, "#"),
        // @section val_logical
        Value::Logical(true) => write!(f, "T"),
        Value::Logical(false) => write!(f, "F"),
        // @end val_logical
        // @section val_integer
        Value::Integer(n) => write!(f, "{n}"),
        // @end val_integer
        // @section val_square
        Value::Square(s) => write!(f, "{}", square_text(*s)),
        // @end val_square
        // @section val_piece
        Value::Piece(p) => {
            let letter = p.kind.letter();
            let letter = match p.colour {
                Colour::White => letter.to_ascii_uppercase(),
                Colour::Black => letter.to_ascii_lowercase(),
            };
            write!(f, "{letter}{}", square_text(p.square))
        }
        // @end val_piece
        // @section val_move
        Value::Move(m) => write!(f, "{}", m.board_move().to_uci()),
        // @end val_move
        // @section val_set
        Value::Set(items) => write_list(f, items),
        // @end val_set
    }
}

// @section items
/// The text `(a b c)` of a set's elements (§9), nested sets written with
/// an explicit stack of the lists still open.
fn write_list(f: &mut std::fmt::Formatter<'_>, items: &[Value]) -> std::fmt::Result {
    write!(f, "(")?;
    let mut open: Vec<(std::slice::Iter<'_, Value>, bool)> = vec![(items.iter(), true)];
    while let Some((list, first)) = open.last_mut() {
        let Some(item) = list.next() else {
            write!(f, ")")?;
            open.pop();
            continue;
        };
        if !*first {
            write!(f, " ")?;
        }
        *first = false;
        // @section val_set
        if let Value::Set(inner) = item {
            write!(f, "(")?;
            open.push((inner.iter(), true));
            continue;
        }
        // @end val_set
        write_scalar(f, item)?;
    }
    Ok(())
}
// @end items

impl std::fmt::Display for Value {
    /// Value text (§9): `#`, `T`, `F`, decimal integers, squares `e4`,
    /// pieces `Ke1` (upper case for white), moves in UCI form, sets `(a b c)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_scalar(f, self)
    }
}

impl std::fmt::Debug for Value {
    /// The value text of §9.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write_scalar(f, self)
    }
}

// @section lit_set: val_set val_logical val_integer
/// The value of a set literal (§2) from its text as icp2c writes it into
/// generated code and its IR: the value text of §9, `(1 -2 (T #) ())`
/// (elements separated by one blank; integers, `T`, `F`, `#`, sets). Built
/// with an explicit stack, so any nesting depth is fine. Text that is not
/// of that form (never written by icp2c) gives undefined elements rather
/// than a failure.
pub fn set_literal(text: &str) -> Value {
    let mut open: Vec<Vec<Value>> = Vec::new();
    let mut done = Value::Undefined;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let value = match bytes[at] {
            b'(' => {
                open.push(Vec::new());
                at += 1;
                continue;
            }
            b')' => {
                at += 1;
                Value::Set(open.pop().unwrap_or_default().into())
            }
            b' ' => {
                at += 1;
                continue;
            }
            _ => {
                let start = at;
                while at < bytes.len() && !matches!(bytes[at], b'(' | b')' | b' ') {
                    at += 1;
                }
                match &text[start..at] {
                    "T" => Value::Logical(true),
                    "F" => Value::Logical(false),
                    word => word.parse().map_or(Value::Undefined, Value::Integer),
                }
            }
        };
        match open.last_mut() {
            Some(list) => list.push(value),
            None => done = value,
        }
    }
    // An unclosed set (never written by icp2c) closes at the end.
    while let Some(list) = open.pop() {
        let value = Value::Set(list.into());
        match open.last_mut() {
            Some(outer) => outer.push(value),
            None => done = value,
        }
    }
    done
}
// @end lit_set

// @section type_name
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Undefined => "undefined",
        // @section val_logical
        Value::Logical(_) => "logical",
        // @end val_logical
        // @section val_integer
        Value::Integer(_) => "integer",
        // @end val_integer
        // @section val_set
        Value::Set(_) => "set",
        // @end val_set
        // @section val_piece
        Value::Piece(_) => "piece",
        // @end val_piece
        // @section val_square
        Value::Square(_) => "square",
        // @end val_square
        // @section val_move
        Value::Move(_) => "move",
        // @end val_move
    }
}
// @end type_name

// @section wrong: type_name
fn wrong(expected: &str, value: &Value) -> Fault {
    format!("expected {expected}, got {} {value}", type_name(value))
}
// @end wrong

// The typed reads of a value (§2): each needs its type's section only
// for a value of that type to exist; without one, every value is of the
// wrong type.

// @section want_integer: wrong
fn integer(value: &Value) -> Result<i64, Fault> {
    // @section val_integer
    if let Value::Integer(n) = value {
        return Ok(*n);
    }
    // @end val_integer
    Err(wrong("an integer", value))
}
// @end want_integer

// @section want_logical: wrong
fn logical(value: &Value) -> Result<bool, Fault> {
    // @section val_logical
    if let Value::Logical(b) = value {
        return Ok(*b);
    }
    // @end val_logical
    Err(wrong("a logical", value))
}
// @end want_logical

// @section want_set: wrong
fn set(value: &Value) -> Result<&[Value], Fault> {
    // @section val_set
    if let Value::Set(items) = value {
        return Ok(items);
    }
    // @end val_set
    Err(wrong("a set", value))
}
// @end want_set

// @section set_owned: wrong items
fn set_owned(value: Value) -> Result<Items, Fault> {
    // @section val_set
    if let Value::Set(items) = value {
        return Ok(items);
    }
    // @end val_set
    Err(wrong("a set", &value))
}
// @end set_owned

// @section want_move: wrong move_value_type
fn move_value(value: &Value) -> Result<MoveValue, Fault> {
    // @section val_move
    if let Value::Move(m) = value {
        return Ok(*m);
    }
    // @end val_move
    Err(wrong("a move", value))
}
// @end want_move

// @section king_distance: use_square
/// King distance between two squares.
pub fn king_distance(a: Square, b: Square) -> i64 {
    let (af, ar) = (i64::from(a % 8), i64::from(a / 8));
    let (bf, br) = (i64::from(b % 8), i64::from(b / 8));
    (af - bf).abs().max((ar - br).abs())
}
// @end king_distance

// @section opposition: use_square
/// Distant opposition (§4): file and rank differences both even, not both
/// zero.
pub fn opposition(a: Square, b: Square) -> bool {
    let df = i64::from(a % 8) - i64::from(b % 8);
    let dr = i64::from(a / 8) - i64::from(b / 8);
    df % 2 == 0 && dr % 2 == 0 && !(df == 0 && dr == 0)
}
// @end opposition

// @section value
/// The value conversion of §6.2 (§11.11): winning chances `w`, losing
/// chances `l`, certainty `c`, at ply `depth`.
pub fn convert(w: i64, l: i64, c: i64, depth: i64) -> i64 {
    let d = w.wrapping_sub(l);
    if c < 500 {
        d.wrapping_mul(128) / 100
    } else if d == 0 {
        0
    } else {
        let d = d.clamp(-500, 500);
        32 * d + d.signum() * (12416 - depth)
    }
}
// @end value

// @section index
/// A set index (§5.1, §11.8): 1 first, −1 last; `extra` allows card+1
/// (`INSERT`). Returns the 0-based position.
fn index(len: usize, i: i64, extra: bool) -> Result<usize, Fault> {
    let n = len as i64;
    let limit = if extra { n + 1 } else { n };
    let at = if i > 0 && i <= limit {
        Some(i - 1)
    } else if i < 0 && i >= -n {
        Some(n + i)
    } else {
        None
    };
    at.map(|a| a as usize)
        .ok_or_else(|| format!("index {i} out of range for a set of {len}"))
}
// @end index

// ------------------------------------------------------------- node view

/// A node of the main search as the program sees it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position.
    pub position: Position,
    // @section node_depth
    /// DEPTH: the node's ply, 1 at the root.
    pub depth: i64,
    // @end node_depth
    // @section node_plies
    /// PLIES: the plies left, r of §7.3.
    pub plies: i64,
    // @end node_plies
}

// @section node_impl
impl Node {
    // @section mover: node_impl
    fn mover(&self) -> Colour {
        self.position.side_to_move()
    }
    // @end mover

    // @section rank: mover use_square node_impl
    /// §3 rank (1–8) of a square, from the side to move's first rank.
    pub fn rank(&self, square: Square) -> i64 {
        let r = i64::from(square / 8);
        match self.mover() {
            Colour::White => r + 1,
            Colour::Black => 8 - r,
        }
    }
    // @end rank

    // @section file: use_square node_impl
    /// §3 file: h = 1 … a = 8.
    pub fn file(square: Square) -> i64 {
        8 - i64::from(square % 8)
    }
    // @end file

    // @section square_at: mover use_square node_impl
    /// The square of §3 rank `r` and file `f`, if both are 1–8.
    pub fn square_at(&self, rank: i64, file: i64) -> Option<Square> {
        if !(1..=8).contains(&rank) || !(1..=8).contains(&file) {
            return None;
        }
        let abs_rank = match self.mover() {
            Colour::White => rank - 1,
            Colour::Black => 8 - rank,
        };
        Some((abs_rank * 8 + (8 - file)) as Square)
    }
    // @end square_at

    // @section side_of: use_square node_impl
    /// `SIDE` of a square: 0 for files h–e, 1 for d–a.
    pub fn side_of(square: Square) -> i64 {
        i64::from(square % 8 < 4)
    }
    // @end side_of

    // @section coerce_piece: wrong use_piece node_impl
    /// The piece a value specifies (§2 coercion; §11.3).
    pub fn piece(&self, value: &Value) -> Result<Piece, Fault> {
        // @section val_piece
        if let Value::Piece(p) = value {
            return Ok(*p);
        }
        // @end val_piece
        // @section val_move
        if let Value::Move(m) = value {
            return Ok(m.piece);
        }
        // @end val_move
        // @section val_square
        if let Value::Square(s) = value {
            return self
                .position
                .piece_at(*s)
                .ok_or_else(|| format!("no piece on {}", square_text(*s)));
        }
        // @end val_square
        Err(wrong("a piece", value))
    }
    // @end coerce_piece

    // @section coerce_square: wrong use_square node_impl
    /// The square a value specifies (§2 coercion).
    pub fn square(value: &Value) -> Result<Square, Fault> {
        // @section val_square
        if let Value::Square(s) = value {
            return Ok(*s);
        }
        // @end val_square
        // @section val_piece
        if let Value::Piece(p) = value {
            return Ok(p.square);
        }
        // @end val_piece
        // @section val_move
        if let Value::Move(m) = value {
            return Ok(m.to);
        }
        // @end val_move
        Err(wrong("a square", value))
    }
    // @end coerce_square

    // @section var_lm: val_move val_set node_impl
    /// The move value of a board move at this node.
    pub fn move_value(&self, mv: Move) -> Value {
        match self.position.piece_at(mv.from) {
            Some(piece) => Value::Move(MoveValue {
                piece,
                to: mv.to,
                promotion: mv.promotion,
            }),
            None => Value::Undefined,
        }
    }

    /// `LM` (§3): the legal moves in §7.2 order.
    pub fn legal_moves(&self) -> Value {
        let moves = self.position.legal_moves();
        Value::Set(moves.into_iter().map(|m| self.move_value(m)).collect())
    }
    // @end var_lm

    // @section piece_variable: mover val_piece node_impl
    /// A piece variable (§3): W is the side to move.
    pub fn piece_variable(&self, mover: bool, kind: Kind, index: u8) -> Value {
        let colour = if mover {
            self.mover()
        } else {
            self.mover().other()
        };
        self.position
            .piece_variable(colour, kind, index)
            .map_or(Value::Undefined, Value::Piece)
    }
    // @end piece_variable

    // @section var_pg: rank val_piece val_set use_piece node_impl
    /// `PG` (§3): pawn groups, files h to a, pawns in §3 rank order.
    pub fn pawn_groups(&self) -> Value {
        let mut groups = Vec::new();
        let mut group: Vec<Value> = Vec::new();
        for file in (0..8u8).rev() {
            let mut pawns: Vec<Piece> = (0..8u8)
                .filter_map(|r| self.position.piece_at(r * 8 + file))
                .filter(|p| p.kind == Kind::Pawn)
                .collect();
            if pawns.is_empty() {
                if !group.is_empty() {
                    groups.push(Value::Set(std::mem::take(&mut group).into()));
                }
                continue;
            }
            pawns.sort_by_key(|p| self.rank(p.square));
            group.extend(pawns.into_iter().map(Value::Piece));
        }
        if !group.is_empty() {
            groups.push(Value::Set(group.into()));
        }
        Value::Set(groups.into())
    }
    // @end var_pg

    // @section play_play: board_move node_impl
    /// Static evaluation (§6.2): material, side to move minus the other.
    pub fn static_eval(&self) -> i64 {
        static_value(&self.position)
    }
    // @end play_play

    // @section node_legal: move_value_type board_move node_impl
    /// The board move of a move value if it is legal here (§11.2).
    fn legal(&self, m: MoveValue) -> Option<Move> {
        let on = self.position.piece_at(m.piece.square)?;
        if on != m.piece {
            return None;
        }
        let mv = m.board_move();
        self.position.is_legal(mv).then_some(mv)
    }
    // @end node_legal

    // @section condition: node_impl
    /// A condition's test applied to a value (§4); `side` is `SIDE`, which
    /// `FAR` and `NNF` read.
    pub fn test(&self, test: Test, value: &Value, side: &Value) -> Result<bool, Fault> {
        Ok(match (test, side) {
            // @section t_defd
            (Test::Defd, _) => *value != Value::Undefined,
            // @end t_defd
            // @section t_zero: want_integer
            (Test::Zero, _) => integer(value)? == 0,
            // @end t_zero
            // @section t_negative: want_integer
            (Test::Negative, _) => integer(value)? < 0,
            // @end t_negative
            // @section t_positive: want_integer
            (Test::Positive, _) => integer(value)? > 0,
            // @end t_positive
            // @section t_odd: want_integer
            (Test::Odd, _) => integer(value)? % 2 != 0,
            // @end t_odd
            // @section t_true: want_logical
            (Test::True, _) => logical(value)?,
            // @end t_true
            // @section t_empty: want_set
            (Test::Empty, _) => set(value)?.is_empty(),
            // @end t_empty
            // @section t_far: coerce_square side_of side_int
            (Test::Far, side) => Node::side_of(Node::square(value)?) != side_int(side)?,
            // @end t_far
            // @section t_rf: coerce_square
            (Test::RookFile, _) => matches!(Node::square(value)? % 8, 0 | 7),
            // @end t_rf
            // @section t_nf: coerce_square
            (Test::KnightFile, _) => matches!(Node::square(value)? % 8, 1 | 6),
            // @end t_nf
            // @section t_nnf: coerce_square side_of side_int
            (Test::Nnf, side) => {
                let s = Node::square(value)?;
                matches!(s % 8, 1 | 6) && Node::side_of(s) == side_int(side)?
            }
            // @end t_nnf
            // @section t_wsq: coerce_square
            (Test::LightSquare, _) => {
                let s = Node::square(value)?;
                (s % 8 + s / 8) % 2 == 1
            }
            // @end t_wsq
            // @section t_passd: want_pawn use_piece
            (Test::Passed, _) => {
                let p = self.pawn(value)?;
                self.passed(p)
            }
            // @end t_passd
            // @section t_pdp: want_pawn use_square use_piece
            (Test::PawnDefended, _) => {
                let p = self.pawn(value)?;
                self.pawn_defended(p)
            }
            // @end t_pdp
            // @section t_capt: want_move board_move
            (Test::Capture, _) => {
                // §11.5: a piece of the other colour than the moving piece
                // on the destination, or a pawn's en-passant capture (which
                // needs the pawn on its square at this node).
                let m = move_value(value)?;
                match self.position.piece_at(m.to) {
                    Some(target) => target.colour != m.piece.colour,
                    None => {
                        self.position.piece_at(m.piece.square) == Some(m.piece)
                            && self.position.is_capture(m.board_move())
                    }
                }
            }
            // @end t_capt
            // @section t_check: want_move node_legal
            (Test::Check, _) => {
                let m = move_value(value)?;
                self.legal(m)
                    .is_some_and(|mv| self.position.gives_check(mv))
            }
            // @end t_check
            // @section t_safe: want_move needed king_distance
            (Test::Safe, _) => {
                let m = move_value(value)?;
                let (wk, bk, wp) = (
                    self.needed(true, Kind::King, "WK")?,
                    self.needed(false, Kind::King, "BK")?,
                    self.needed(true, Kind::Pawn, "WP")?,
                );
                match m.piece.kind {
                    Kind::King => king_distance(m.to, wp) <= king_distance(bk, wp),
                    Kind::Pawn => king_distance(wk, m.to) <= king_distance(bk, m.to),
                    _ => king_distance(wk, wp) <= king_distance(bk, wp),
                }
            }
            // @end t_safe
            // @section t_opp: want_move needed opposition
            (Test::Opposition, _) => {
                let m = move_value(value)?;
                let wk = self.needed(true, Kind::King, "WK")?;
                let bk = self.needed(false, Kind::King, "BK")?;
                let wk = if m.piece.kind == Kind::King { m.to } else { wk };
                opposition(wk, bk)
            }
            // @end t_opp
            // @section t_rwk: want_move needed
            (Test::KeepsKingRank, _) => {
                let m = move_value(value)?;
                if m.piece.kind == Kind::King {
                    let wk = self.needed(true, Kind::King, "WK")?;
                    m.to / 8 == wk / 8
                } else {
                    true
                }
            }
            // @end t_rwk
            // @section t_kind: coerce_piece
            (Test::Kind(kind), _) => self.piece(value)?.kind == kind,
            // @end t_kind
            // @section t_wpc: coerce_piece mover
            (Test::MoverPiece, _) => self.piece(value)?.colour == self.mover(),
            // @end t_wpc
        })
    }
    // @end condition

    // @section needed: piece_variable use_square node_impl
    fn needed(&self, mover: bool, kind: Kind, name: &str) -> Result<Square, Fault> {
        match self.piece_variable(mover, kind, 0) {
            Value::Piece(p) => Ok(p.square),
            _ => Err(format!("{name} is undefined")),
        }
    }
    // @end needed

    // @section want_pawn: coerce_piece val_piece use_piece node_impl
    fn pawn(&self, value: &Value) -> Result<Piece, Fault> {
        let p = self.piece(value)?;
        if p.kind == Kind::Pawn {
            Ok(p)
        } else {
            Err(format!("expected a pawn, got {}", Value::Piece(p)))
        }
    }
    // @end want_pawn

    // @section t_passd: node_impl
    /// No enemy pawn ahead of `p` on its file or an adjacent file.
    fn passed(&self, p: Piece) -> bool {
        let file = i64::from(p.square % 8);
        let rank = i64::from(p.square / 8);
        for sq in 0..64u8 {
            if let Some(q) = self.position.piece_at(sq) {
                if q.kind != Kind::Pawn || q.colour == p.colour {
                    continue;
                }
                let (qf, qr) = (i64::from(sq % 8), i64::from(sq / 8));
                let ahead = match p.colour {
                    Colour::White => qr > rank,
                    Colour::Black => qr < rank,
                };
                if ahead && (qf - file).abs() <= 1 {
                    return false;
                }
            }
        }
        true
    }
    // @end t_passd

    // @section t_pdp: node_impl
    /// A pawn of its own side defends `p` (stands diagonally behind it).
    fn pawn_defended(&self, p: Piece) -> bool {
        let file = i64::from(p.square % 8);
        let behind = match p.colour {
            Colour::White => i64::from(p.square / 8) - 1,
            Colour::Black => i64::from(p.square / 8) + 1,
        };
        if !(0..8).contains(&behind) {
            return false;
        }
        [file - 1, file + 1].into_iter().any(|f| {
            (0..8).contains(&f)
                && self
                    .position
                    .piece_at((behind * 8 + f) as Square)
                    .is_some_and(|q| q.kind == Kind::Pawn && q.colour == p.colour)
        })
    }
    // @end t_pdp

    // @section sort: rank want_move node_impl
    /// The sort key of a move for `ordering` (§4): `DEEP` puts the more
    /// advanced destination rank first, `#DEEP` the less advanced; as
    /// given, all are alike.
    fn order_key(&self, value: &Value, ordering: Ordering) -> Result<i64, Fault> {
        Ok(match ordering {
            Ordering::AsGiven => 0,
            // @section deep
            Ordering::Deep => -self.rank(move_value(value)?.to),
            // @end deep
            // @section shallow
            Ordering::Shallow => self.rank(move_value(value)?.to),
            // @end shallow
        })
    }
    // @end sort

    // @section order_items: ordering node_impl
    /// Orders moves by `ordering`: by their keys (`Node::order_key`),
    /// stable; as given, they stay.
    pub fn order(&self, items: &mut [Value], ordering: Ordering) -> Result<(), Fault> {
        if ordering == Ordering::AsGiven || items.is_empty() {
            return Ok(());
        }
        // @section sort
        let mut keyed = Vec::with_capacity(items.len());
        for item in items.iter() {
            keyed.push((self.order_key(item, ordering)?, item.clone()));
        }
        keyed.sort_by_key(|k| k.0);
        for (slot, (_, item)) in items.iter_mut().zip(keyed) {
            *slot = item;
        }
        // @end sort
        Ok(())
    }
    // @end order_items
}
// @end node_impl

// @section side_int: type_name
/// `SIDE` as `FAR` and `NNF` read it: an integer.
fn side_int(side: &Value) -> Result<i64, Fault> {
    // @section val_integer
    if let Value::Integer(n) = side {
        return Ok(*n);
    }
    // @end val_integer
    Err(format!(
        "SIDE must be an integer here, got {} {side}",
        type_name(side)
    ))
}
// @end side_int

// ------------------------------------------------- the program's language

// @section var
/// A variable (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    // @section var_user: var
    /// A user variable: its slot; undefined at the start of each invocation.
    User(u32),
    // @end var_user
    // @section var_x: var var_readonly
    /// `X`: read-only.
    X,
    // @end var_x
    // @section var_depth: var var_readonly
    /// `DEPTH`: read-only.
    Depth,
    // @end var_depth
    // @section var_plies: var var_readonly
    /// `PLIES`: read-only.
    Plies,
    // @end var_plies
    // @section var_lm: var var_readonly
    /// `LM`: read-only.
    Lm,
    // @end var_lm
    // @section var_pg: var var_readonly
    /// `PG`: read-only.
    Pg,
    // @end var_pg
    // @section var_side: var
    /// `SIDE`: predefined and writable.
    Side,
    // @end var_side
    // @section var_piece: var var_readonly
    /// A piece variable (`WK`, `BR2`, `WP8`, …): read-only.
    Piece {
        /// `true` for W (the side to move), `false` for B.
        mover: bool,
        /// The kind.
        kind: Kind,
        /// 0-based index among that kind's variables: `WR2` is 1.
        index: u8,
    },
    // @end var_piece
}
// @end var

// @section interpreter
impl Var {
    /// True for the variables a program may write: user variables and
    /// `SIDE` (§3).
    pub fn is_writable(self) -> bool {
        matches!(self, Var::User(_) | Var::Side)
    }
}
// @end interpreter

// @section jump
/// A comparison of `JUMP…` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    // @section cmp_lt: jump
    /// `<`
    Lt,
    // @end cmp_lt
    // @section cmp_eq: jump
    /// `=`
    Eq,
    // @end cmp_eq
    // @section cmp_gt: jump
    /// `>`
    Gt,
    // @end cmp_gt
    // @section cmp_not_lt: jump
    /// `#<`
    NotLt,
    // @end cmp_not_lt
    // @section cmp_ne: jump
    /// `#=`
    Ne,
    // @end cmp_ne
    // @section cmp_not_gt: jump
    /// `#>`
    NotGt,
    // @end cmp_not_gt
}
// @end jump

// @section jump
/// Compares two values (§5.1): `=`/`#=` any types (§2 equality), the
/// others integers.
pub fn compare(cmp: Compare, a: &Value, b: &Value) -> Result<bool, Fault> {
    Ok(match cmp {
        // @section cmp_eq
        Compare::Eq => a == b,
        // @end cmp_eq
        // @section cmp_ne
        Compare::Ne => a != b,
        // @end cmp_ne
        // @section cmp_lt: want_integer
        Compare::Lt => integer(a)? < integer(b)?,
        // @end cmp_lt
        // @section cmp_gt: want_integer
        Compare::Gt => integer(a)? > integer(b)?,
        // @end cmp_gt
        // @section cmp_not_lt: want_integer
        Compare::NotLt => integer(a)? >= integer(b)?,
        // @end cmp_not_lt
        // @section cmp_not_gt: want_integer
        Compare::NotGt => integer(a)? <= integer(b)?,
        // @end cmp_not_gt
    })
}
// @end jump

// @section cond_arg
/// The test of a condition (§4), before negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    // @section t_defd: condition
    /// `DEFD`
    Defd,
    // @end t_defd
    // @section t_zero: condition
    /// `=0`
    Zero,
    // @end t_zero
    // @section t_negative: condition
    /// `<0`
    Negative,
    // @end t_negative
    // @section t_positive: condition
    /// `>0`
    Positive,
    // @end t_positive
    // @section t_odd: condition
    /// `ODD`
    Odd,
    // @end t_odd
    // @section t_true: condition
    /// `T`
    True,
    // @end t_true
    // @section t_empty: condition
    /// `EMPTY`
    Empty,
    // @end t_empty
    // @section t_far: condition
    /// `FAR`
    Far,
    // @end t_far
    // @section t_rf: condition
    /// `RF`
    RookFile,
    // @end t_rf
    // @section t_nf: condition
    /// `NF`
    KnightFile,
    // @end t_nf
    // @section t_nnf: condition
    /// `NNF`
    Nnf,
    // @end t_nnf
    // @section t_wsq: condition
    /// `WSQ`
    LightSquare,
    // @end t_wsq
    // @section t_kind: condition
    /// `KING` `QUEEN` `ROOK` `BISH` `NIGHT` `PAWN`
    Kind(Kind),
    // @end t_kind
    // @section t_wpc: condition
    /// `WPC`
    MoverPiece,
    // @end t_wpc
    // @section t_passd: condition
    /// `PASSD`
    Passed,
    // @end t_passd
    // @section t_pdp: condition
    /// `PDP`
    PawnDefended,
    // @end t_pdp
    // @section t_capt: condition
    /// `CAPT`
    Capture,
    // @end t_capt
    // @section t_check: condition
    /// `CHECK`
    Check,
    // @end t_check
    // @section t_safe: condition
    /// `SAFE`
    Safe,
    // @end t_safe
    // @section t_opp: condition
    /// `OPP`
    Opposition,
    // @end t_opp
    // @section t_rwk: condition
    /// `RWK=`
    KeepsKingRank,
    // @end t_rwk
}
// @end cond_arg

// @section interpreter
/// A written condition: `#` in front (negated), and its test.
pub type Condition = (bool, Test);
// @end interpreter

// @section cond_arg
/// A condition argument (§4): `None` where it is empty ("always"), else
/// `Some((negated, test))`.
pub type Cond = Option<(bool, Test)>;
// @end cond_arg
// @section always: cond_arg
// @end always

// @section ordering
/// An ordering (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// Empty: as given.
    AsGiven,
    // @section deep: ordering sort
    /// `DEEP`: more advanced destination rank first.
    Deep,
    // @end deep
    // @section shallow: ordering sort
    /// `#DEEP`: the reverse.
    Shallow,
    // @end shallow
}
// @end ordering

// @section binary
/// Instructions of the form `OP w,a,b` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    // @section op_setsq: binary
    /// `SETSQ w,r,f`
    SetSq,
    // @end op_setsq
    // @section op_setmov: binary
    /// `SETMOV w,p,s`
    SetMov,
    // @end op_setmov
    // @section op_pair: binary
    /// `PAIR`
    Pair,
    // @end op_pair
    // @section op_member: binary
    /// `MEMBER`
    Member,
    // @end op_member
    // @section op_memnum: binary
    /// `MEMNUM`
    MemNum,
    // @end op_memnum
    // @section op_inters: binary val_set
    /// `INTERS`
    Inters,
    // @end op_inters
    // @section op_union: binary val_set
    /// `UNION`
    Union,
    // @end op_union
    // @section op_differ: binary val_set
    /// `DIFFER`
    Differ,
    // @end op_differ
    // @section op_append: binary val_set
    /// `APPEND`
    Append,
    // @end op_append
    // @section op_getel: binary
    /// `GETEL w,s,i`
    GetEl,
    // @end op_getel
    // @section op_mvdist: binary
    /// `MVDIST`
    MvDist,
    // @end op_mvdist
    // @section op_insq: binary
    /// `INSQ`
    InSq,
    // @end op_insq
    // @section op_opp: binary
    /// `OPP`
    Opp,
    // @end op_opp
    // @section op_sqrank: binary
    /// `SQ>RNK`
    SqRank,
    // @end op_sqrank
    // @section op_nor: binary
    /// `NOR`
    Nor,
    // @end op_nor
    // @section op_and: binary
    /// `AND`
    And,
    // @end op_and
    // @section op_or: binary
    /// `OR`
    Or,
    // @end op_or
    // @section op_add: binary
    /// `ADD`
    Add,
    // @end op_add
    // @section op_sub: binary
    /// `SUB`
    Sub,
    // @end op_sub
    // @section op_mul: binary
    /// `MUL`
    Mul,
    // @end op_mul
    // @section op_div: binary
    /// `DIV`
    Div,
    // @end op_div
    // @section op_mod: binary
    /// `MOD`
    Mod,
    // @end op_mod
    // @section op_dif: binary
    /// `DIF`
    Dif,
    // @end op_dif
    // @section op_min: binary
    /// `MIN`
    Min,
    // @end op_min
    // @section op_max: binary
    /// `MAX`
    Max,
    // @end op_max
}
// @end binary

// @section unary
/// Instructions of the form `OP w,v` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    // @section op_setv: unary
    /// `SETV`
    SetV,
    // @end op_setv
    // @section op_card: unary
    /// `CARD`
    Card,
    // @end op_card
    // @section op_piece: unary
    /// `PIECE`
    Piece,
    // @end op_piece
    // @section op_square: unary
    /// `SQUARE`
    Square,
    // @end op_square
    // @section op_side: unary
    /// `SIDE w,s`
    Side,
    // @end op_side
    // @section op_rank: unary
    /// `RANK`
    Rank,
    // @end op_rank
    // @section op_file: unary
    /// `FILE`
    File,
    // @end op_file
    // @section op_scolor: unary
    /// `SCOLOR`
    SColor,
    // @end op_scolor
    // @section op_pcolor: unary
    /// `PCOLOR`
    PColor,
    // @end op_pcolor
    // @section op_abs: unary
    /// `ABS`
    Abs,
    // @end op_abs
}
// @end unary

// @section play
/// The three move-playing instructions (§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayKind {
    // @section play_play: play
    /// `PLAY`
    Play,
    // @end play_play
    // @section play_playb: play
    /// `PLAYB`
    PlayB,
    // @end play_playb
    // @section play_try: play
    /// `TRY`
    Try,
    // @end play_try
}
// @end play

// @section value
/// The four value instructions (§6.2–§6.3), named as the language names
/// them: an engine without `RETBET` has only `Val…` ones, which clippy
/// would have renamed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum ValueKind {
    // @section valret: value
    /// `VALRET`
    ValRet,
    // @end valret
    // @section valrut: value
    /// `VALRUT`
    ValRut,
    // @end valrut
    // @section valon: value
    /// `VALON`
    ValOn,
    // @end valon
    // @section retbet: value
    /// `RETBET`
    RetBet,
    // @end retbet
}
// @end value

// @section each
/// The three calls that return a value into a variable (`SET` is a
/// plain call in generated code: [`Step::Call`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    // @section interpreter
    /// `SET w,t,v`
    Set,
    // @end interpreter
    // @section select: each
    /// `SELECT w,t,v`
    Select,
    // @end select
    // @section map: each
    /// `MAP w,t,v`
    Map,
    // @end map
}
// @end each

// @section interpreter
/// Computes `OP a,b` (§5.1).
pub fn binary(node: &Node, op: Binary, a: &Value, b: &Value) -> Result<Value, Fault> {
    node.binary(op, a.clone(), b)
}

/// Computes `OP v` (§5.1).
pub fn unary(node: &Node, op: Unary, v: &Value) -> Result<Value, Fault> {
    node.unary(op, v)
}
// @end interpreter

// @section binary
impl Node {
    /// Computes `OP a,b` (§5.1), taking `a`: `APPEND` and `UNION` extend a
    /// set that nothing else holds in place.
    fn binary(&self, op: Binary, a: Value, b: &Value) -> Result<Value, Fault> {
        Ok(match op {
            // @section op_setsq: want_integer square_at val_square
            Binary::SetSq => self
                .square_at(integer(&a)?, integer(b)?)
                .map_or(Value::Undefined, Value::Square),
            // @end op_setsq
            // @section op_setmov: coerce_piece coerce_square val_move
            Binary::SetMov => {
                let piece = self.piece(&a)?;
                let to = Node::square(b)?;
                let last = match piece.colour {
                    Colour::White => 7,
                    Colour::Black => 0,
                };
                let promotes = piece.kind == Kind::Pawn && to / 8 == last;
                let promotion = promotes.then_some(Kind::Queen);
                Value::Move(MoveValue {
                    piece,
                    to,
                    promotion,
                })
            }
            // @end op_setmov
            // @section op_pair: val_set
            Binary::Pair => Value::Set(vec![a, b.clone()].into()),
            // @end op_pair
            // @section op_member: want_set val_logical
            Binary::Member => Value::Logical(set(b)?.contains(&a)),
            // @end op_member
            // @section op_memnum: want_set val_integer
            Binary::MemNum => Value::Integer(
                set(b)?
                    .iter()
                    .position(|e| *e == a)
                    .map_or(0, |i| i as i64 + 1),
            ),
            // @end op_memnum
            // @section op_inters: want_set
            Binary::Inters => {
                let b = set(b)?;
                Value::Set(set(&a)?.iter().filter(|e| b.contains(e)).cloned().collect())
            }
            // @end op_inters
            // @section op_differ: want_set
            Binary::Differ => {
                let b = set(b)?;
                Value::Set(
                    set(&a)?
                        .iter()
                        .filter(|e| !b.contains(e))
                        .cloned()
                        .collect(),
                )
            }
            // @end op_differ
            // @section op_union: set_owned want_set items_edit
            Binary::Union => {
                let mut items = set_owned(a)?;
                let more: Vec<Value> = set(b)?
                    .iter()
                    .filter(|e| !items.contains(e))
                    .cloned()
                    .collect();
                items.edit().extend(more);
                Value::Set(items)
            }
            // @end op_union
            // @section op_append: set_owned items_edit
            Binary::Append => {
                let mut items = set_owned(a)?;
                match b {
                    Value::Set(more) => items.edit().extend(more.iter().cloned()),
                    other => items.edit().push(other.clone()),
                }
                Value::Set(items)
            }
            // @end op_append
            // @section op_getel: want_set want_integer index
            Binary::GetEl => {
                let items = set(&a)?;
                items[index(items.len(), integer(b)?, false)?].clone()
            }
            // @end op_getel
            // @section op_mvdist: coerce_square king_distance val_integer
            Binary::MvDist => {
                let (x, y) = (Node::square(&a)?, Node::square(b)?);
                Value::Integer(king_distance(x, y))
            }
            // @end op_mvdist
            // @section op_insq: coerce_piece king_distance mover val_logical val_piece
            Binary::InSq => {
                let k = self.piece(&a)?;
                let p = self.piece(b)?;
                if k.kind != Kind::King {
                    return Err(format!("INSQ needs a king, got {}", Value::Piece(k)));
                }
                if p.kind != Kind::Pawn {
                    return Err(format!("INSQ needs a pawn, got {}", Value::Piece(p)));
                }
                if k.colour == p.colour {
                    return Err("INSQ needs a king and a pawn of different sides".into());
                }
                let r = match p.colour {
                    Colour::White => i64::from(p.square / 8) + 1,
                    Colour::Black => 8 - i64::from(p.square / 8),
                };
                let n = 5.min(8 - r);
                let q = match p.colour {
                    Colour::White => 56 + p.square % 8,
                    Colour::Black => p.square % 8,
                };
                let t = i64::from(k.colour == self.mover());
                Value::Logical(king_distance(k.square, q) - t <= n)
            }
            // @end op_insq
            // @section op_opp: coerce_square opposition val_logical
            Binary::Opp => Value::Logical(opposition(Node::square(&a)?, Node::square(b)?)),
            // @end op_opp
            // @section op_sqrank: coerce_square want_integer rank file square_at val_square
            Binary::SqRank => {
                let s = Node::square(&a)?;
                let k = integer(b)?;
                self.square_at(self.rank(s).wrapping_add(k), Node::file(s))
                    .map_or(Value::Undefined, Value::Square)
            }
            // @end op_sqrank
            // @section op_nor: want_logical val_logical
            Binary::Nor => Value::Logical(!(logical(&a)? || logical(b)?)),
            // @end op_nor
            // @section op_and: want_logical val_logical
            Binary::And => Value::Logical(logical(&a)? && logical(b)?),
            // @end op_and
            // @section op_or: want_logical val_logical
            Binary::Or => Value::Logical(logical(&a)? || logical(b)?),
            // @end op_or
            // @section op_add: want_integer val_integer
            Binary::Add => Value::Integer(integer(&a)?.wrapping_add(integer(b)?)),
            // @end op_add
            // @section op_sub: want_integer val_integer
            Binary::Sub => Value::Integer(integer(&a)?.wrapping_sub(integer(b)?)),
            // @end op_sub
            // @section op_mul: want_integer val_integer
            Binary::Mul => Value::Integer(integer(&a)?.wrapping_mul(integer(b)?)),
            // @end op_mul
            // @section op_div: want_integer nonzero val_integer
            Binary::Div => {
                let x = integer(&a)?;
                Value::Integer(x.wrapping_div(nonzero(integer(b)?)?))
            }
            // @end op_div
            // @section op_mod: want_integer nonzero val_integer
            Binary::Mod => {
                let x = integer(&a)?;
                Value::Integer(x.wrapping_rem(nonzero(integer(b)?)?))
            }
            // @end op_mod
            // @section op_dif: want_integer val_integer
            Binary::Dif => {
                let d = integer(&a)?.wrapping_sub(integer(b)?);
                Value::Integer(d.wrapping_abs())
            }
            // @end op_dif
            // @section op_min: want_integer val_integer
            Binary::Min => Value::Integer(integer(&a)?.min(integer(b)?)),
            // @end op_min
            // @section op_max: want_integer val_integer
            Binary::Max => Value::Integer(integer(&a)?.max(integer(b)?)),
            // @end op_max
        })
    }
}
// @end binary

// @section unary
impl Node {
    /// Computes `OP v` (§5.1).
    fn unary(&self, op: Unary, v: &Value) -> Result<Value, Fault> {
        Ok(match op {
            // @section op_setv
            Unary::SetV => v.clone(),
            // @end op_setv
            // @section op_card: want_set val_integer
            Unary::Card => Value::Integer(set(v)?.len() as i64),
            // @end op_card
            // @section op_piece: coerce_piece val_piece
            Unary::Piece => Value::Piece(self.piece(v)?),
            // @end op_piece
            // @section op_square: coerce_square val_square
            Unary::Square => Value::Square(Node::square(v)?),
            // @end op_square
            // @section op_side: coerce_square side_of val_integer
            Unary::Side => Value::Integer(Node::side_of(Node::square(v)?)),
            // @end op_side
            // @section op_rank: coerce_square rank val_integer
            Unary::Rank => Value::Integer(self.rank(Node::square(v)?)),
            // @end op_rank
            // @section op_file: coerce_square file val_integer
            Unary::File => Value::Integer(Node::file(Node::square(v)?)),
            // @end op_file
            // @section op_scolor: coerce_square val_integer
            Unary::SColor => {
                let s = Node::square(v)?;
                Value::Integer(if (s % 8 + s / 8) % 2 == 1 { 0 } else { 1 })
            }
            // @end op_scolor
            // @section op_pcolor: coerce_piece mover val_integer
            Unary::PColor => {
                let p = self.piece(v)?;
                Value::Integer(i64::from(p.colour != self.mover()))
            }
            // @end op_pcolor
            // @section op_abs: want_integer val_integer
            Unary::Abs => Value::Integer(integer(v)?.wrapping_abs()),
            // @end op_abs
        })
    }
}
// @end unary

// @section nonzero
/// The divisor of `DIV` and `MOD`: not zero.
fn nonzero(y: i64) -> Result<i64, Fault> {
    if y == 0 {
        return Err("division by zero".into());
    }
    Ok(y)
}
// @end nonzero

// @section setel: set_owned want_integer index items_edit val_set
/// `SETEL v,u,i`: the set with its i-th element replaced.
pub fn set_element(value: Value, u: Value, i: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, false)?;
    items.edit()[at] = value;
    Ok(Value::Set(items))
}
// @end setel

// @section insert: set_owned want_integer index items_edit val_set
/// `INSERT v,u,i`: the set with v inserted before its i-th element (i =
/// card+1: at the end).
pub fn insert_element(value: Value, u: Value, i: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, true)?;
    items.edit().insert(at, value);
    Ok(Value::Set(items))
}
// @end insert

// @section unsert: set_owned want_integer index items_edit val_set
/// `UNSERT w,u,i`: (the removed element, the rest).
pub fn remove_element(u: Value, i: &Value) -> Result<(Value, Value), Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, false)?;
    let removed = items.edit().remove(at);
    Ok((removed, Value::Set(items)))
}
// @end unsert

// @section exchwe: set_owned want_integer index items_edit val_set
/// `EXCHWE u1,u2,i`: (new u1, new u2).
pub fn exchange_element(u1: Value, u2: Value, i: &Value) -> Result<(Value, Value), Fault> {
    let mut items = set_owned(u2)?;
    let at = index(items.len(), integer(i)?, false)?;
    let old = std::mem::replace(&mut items.edit()[at], u1);
    Ok((old, Value::Set(items)))
}
// @end exchwe

// @section exchel: set_owned want_integer index items_edit val_set
/// `EXCHEL u,i,j`.
pub fn exchange_elements(u: Value, i: &Value, j: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let a = index(items.len(), integer(i)?, false)?;
    let b = index(items.len(), integer(j)?, false)?;
    items.edit().swap(a, b);
    Ok(Value::Set(items))
}
// @end exchel

// ------------------------------------------------------ the program hook

// @section frames: fell_into_fence
/// What a call does with its result when the subroutine returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    // @section set
    /// `SET w,t,v`: store it.
    Store(Var),
    // @end set
    // @section cond
    /// `COND c,t1,t2`: if it satisfies c go to t2.
    Cond(Cond, usize),
    // @end cond
    // @section condtf
    /// `CONDT`/`CONDF`: a logical; go to the target if it equals the flag.
    CondTF(bool, usize),
    // @end condtf
    // @section each
    /// `SELECT`/`MAP`: collecting over the set's elements.
    Each {
        /// Select or map.
        kind: CallKind,
        /// Where the set goes.
        dst: Var,
        /// The subroutine.
        sub: usize,
        /// The elements.
        items: Items,
        /// The element being processed.
        next: usize,
        /// What has been collected.
        acc: Vec<Value>,
    },
    // @end each
}
// @end frames

/// Where control goes after one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    // @section next
    /// The next statement.
    Next,
    // @end next
    // @section branch
    /// A jump.
    Goto(usize),
    // @end branch
    // @section call
    /// Call `sub` with `X` = `arg`; `then` says what to do with the result.
    Call {
        /// The subroutine's first statement.
        sub: usize,
        /// X for the call.
        arg: Value,
        /// The continuation.
        then: Then,
    },
    // @end call
    // @section each
    /// `SELECT`/`MAP` over a set (`Then::Each` is built by the runtime).
    Each {
        /// Which.
        kind: CallKind,
        /// Where the result goes.
        dst: Var,
        /// The subroutine.
        sub: usize,
        /// The set.
        set: Value,
    },
    // @end each
    // @section enter: x entered
    /// A call in a program without `RETURN`: the subroutine never comes
    /// back (it ends the invocation), so only `X` and the depth of calls
    /// matter (§5.2).
    Enter {
        /// The subroutine's first statement.
        sub: usize,
        /// X for the call.
        arg: Value,
    },
    // @end enter
    // @section enter_each: x entered write set_owned items val_set
    /// `SELECT`/`MAP` in a program without `RETURN`: an empty set gives
    /// the empty set, else the subroutine is entered with its first
    /// element, never to come back.
    EnterEach {
        /// Where the (empty) result goes.
        dst: Var,
        /// The subroutine.
        sub: usize,
        /// The set.
        set: Value,
    },
    // @end enter_each
    // @section return
    /// `RETURN v`.
    Return(Value),
    // @end return
    // @section stray
    /// `RETURN v` in a program that calls no subroutine: always outside
    /// one (§5.2).
    Stray,
    // @end stray
    /// An `ENTRY` or `END` line was reached.
    Fence,
    // @section leave
    /// The invocation ends with `LEAVE` (§6.3).
    Leave,
    // @end leave
    // @section step_outcome
    /// The invocation's outcome is decided (a node value, or a move at the
    /// root).
    Outcome(Outcome),
    // @end step_outcome
}

/// An invocation's outcome (§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Proceed as if the program were absent.
    Leave,
    // @section outcome_value: step_outcome
    /// The node's value.
    Value(i64),
    // @end outcome_value
    // @section outcome_move: step_outcome
    /// At the root: a move and its value.
    Move(Move, i64),
    // @end outcome_move
}

/// An `ENTRY` line as the runtime matches it (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntrySpec {
    /// First statement to execute (the one after the `ENTRY` line).
    pub start: usize,
    /// Side to move: queens, rooks, bishops, knights, pawns (`None`: any).
    pub mover: (u8, u8, u8, u8, Option<u8>),
    /// The other side, likewise.
    pub other: (u8, u8, u8, u8, Option<u8>),
    /// Pawn difference condition: how the side to move's pawns minus the
    /// other side's compare with m (less, equal, greater), and m.
    pub pawn_diff: Option<(std::cmp::Ordering, i8)>,
}

/// The endgame program as the search sees it: implemented by the
/// interpreter (walking the IR) and by generated code (a `match` on the
/// statement number).
pub trait Endgame {
    /// The `ENTRY` lines in source order.
    fn entries(&self) -> &[EntrySpec];
    /// The source line of statement `pc` (for errors and `BREAK`).
    fn line(&self, pc: usize) -> u32;
    // @section var_user
    /// How many user variables the program has.
    fn user_vars(&self) -> usize;
    // @end var_user
    /// Executes statement `pc` and says where control goes.
    fn step(&self, pc: usize, inv: &mut Invocation<'_, '_>) -> Result<Step, Error>;
}

/// A plan (§6.4): the tag's statement, the plan variable, and the plan's
/// part of the transposition table's node keys ([`plan_key`]).
type Plan = Option<(usize, Value, u64)>;

/// The plans in force, per absolute colour (White, Black).
type Plans = [Plan; 2];

/// What consulting the program at a node gives (§6.1, §6.3).
type Consulted = Result<Outcome, RuntimeError>;

fn colour_index(c: Colour) -> usize {
    match c {
        Colour::White => 0,
        Colour::Black => 1,
    }
}

// @section frames
/// One call frame.
#[derive(Debug)]
struct Frame {
    /// Where to continue.
    return_to: usize,
    /// X before the call.
    saved_x: Value,
    /// What to do with the result.
    then: Then,
}
// @end frames

/// One invocation (§6.1): the node, the variables, the state of §6.3.
pub struct Invocation<'s, 'p> {
    // @section inv_node
    /// The node.
    pub node: Node,
    // @end inv_node
    // @section x
    /// `X`.
    pub x: Value,
    // @end x
    // @section side
    /// `SIDE`.
    pub side: Value,
    // @end side
    // @section var_user
    /// User variables by slot.
    pub vars: Vec<Value>,
    // @end var_user
    // @section inv_plans
    /// The plans moves searched by this invocation carry (§11.15).
    plans: Plans,
    // @end inv_plans
    // @section best
    /// `TRY`/`PLAN`'s best (move, value).
    best: Option<(Move, i64)>,
    // @end best
    // @section remembered
    /// The value `VALON`/`VALRUT` remembered.
    remembered: Option<i64>,
    // @end remembered
    search: &'s mut Search<'p>,
    /// The statement to execute next.
    pc: usize,
}

/// The search's shared state.
pub struct Search<'p> {
    program: Option<&'p dyn Endgame>,
    // @section break
    breaks: &'p mut dyn Write,
    // @end break
    nodes: u64,
    /// `go nodes N` (§7.5): no node beyond it.
    node_limit: u64,
    /// Asked every [`POLL_INTERVAL`] ticks whether to stop.
    watch: &'p mut dyn Watch,
    /// Nodes and statements since the watch was last asked.
    ticks: u32,
    /// Set when a limit or the watch stopped the search: the
    /// [`RuntimeError`] that unwinds it then is only that signal.
    stopped: bool,
    table: &'p mut Table,
    history: &'p History,
    /// The Endgame switch's part of the node keys.
    endgame_key: u64,
    /// The principal variation of each node with plies left, by DEPTH.
    pv: Vec<Vec<Move>>,
    /// Two quiet moves per DEPTH that cut off a search (killer moves).
    killers: Vec<[Option<Move>; 2]>,
}

// @section inv_impl
impl Invocation<'_, '_> {
    // @section read: inv_impl
    /// Reads a variable (§3).
    pub fn read(&self, var: Var) -> Value {
        match var {
            // @section var_user
            Var::User(slot) => self
                .vars
                .get(slot as usize)
                .cloned()
                .unwrap_or(Value::Undefined),
            // @end var_user
            // @section var_x: x
            Var::X => self.x.clone(),
            // @end var_x
            // @section var_depth: inv_node node_depth val_integer
            Var::Depth => Value::Integer(self.node.depth),
            // @end var_depth
            // @section var_plies: inv_node node_plies val_integer
            Var::Plies => Value::Integer(self.node.plies),
            // @end var_plies
            // @section var_lm: inv_node
            Var::Lm => self.node.legal_moves(),
            // @end var_lm
            // @section var_pg: inv_node
            Var::Pg => self.node.pawn_groups(),
            // @end var_pg
            // @section var_side: side
            Var::Side => self.side.clone(),
            // @end var_side
            // @section var_piece: inv_node piece_variable
            Var::Piece {
                mover,
                kind,
                index: i,
            } => self.node.piece_variable(mover, kind, i),
            // @end var_piece
        }
    }
    // @end read

    // @section write: inv_impl
    /// Writes a variable (only user variables and `SIDE` are writable; the
    /// front end guarantees it).
    pub fn write(&mut self, var: Var, value: Value) {
        if let Some(slot) = self.slot(var) {
            *slot = value;
        }
    }

    /// Where a writable variable's value is kept.
    fn slot(&mut self, var: Var) -> Option<&mut Value> {
        match var {
            // @section var_user
            Var::User(slot) => self.vars.get_mut(slot as usize),
            // @end var_user
            // @section var_side
            Var::Side => Some(&mut self.side),
            // @end var_side
            // @section var_readonly
            _ => None,
            // @end var_readonly
        }
    }
    // @end write

    // @section take: read write inv_impl
    /// Takes the value of a U argument (§4) to change it, leaving the
    /// variable undefined until it is written back: a set that only the
    /// variable held is then changed in place, not copied (§2's value
    /// semantics, copy on write). A runtime error in between ends the
    /// search, so nothing sees the variable undefined.
    fn take(&mut self, var: Var) -> Value {
        let value = self.read(var);
        self.write(var, Value::Undefined);
        value
    }
    // @end take

    // @section root: inv_node node_depth inv_impl
    /// True at the root of the search (DEPTH 1, §7.3): the invocation may
    /// choose the move.
    fn root(&self) -> bool {
        self.node.depth == 1
    }
    // @end root

    // @section cond_arg: inv_impl
    /// A condition applied to a value (§4); an empty one is always true.
    pub fn test(&self, cond: Cond, value: &Value) -> Result<bool, Fault> {
        match (cond, value) {
            // @section condition: cond_arg inv_node side
            (Some((negated, test)), value) => {
                Ok(self.node.test(test, value, &self.side)? != negated)
            }
            // @end condition
            (None, _) => Ok(true),
        }
    }
    // @end cond_arg

    // @section unary: write inv_node inv_impl
    /// `OP w,v` (§5.1).
    pub fn unary(&mut self, op: Unary, dst: Var, v: &Value) -> Result<(), Fault> {
        let value = self.node.unary(op, v)?;
        self.write(dst, value);
        Ok(())
    }
    // @end unary

    // @section binary: write inv_node inv_impl
    /// `OP w,a,b` (§5.1). `w`'s old value is let go first (a runtime
    /// error ends the search, so nothing can see it missing): when `a` is
    /// the set `w` held and nothing else holds it, `APPEND w,w,b` and
    /// `UNION w,w,b` extend it in place.
    pub fn binop(&mut self, op: Binary, w: Var, a: Value, b: &Value) -> Result<(), Fault> {
        self.write(w, Value::Undefined);
        let value = self.node.binary(op, a, b)?;
        self.write(w, value);
        Ok(())
    }
    // @end binary

    // @section exch: read write inv_impl
    /// `EXCH u1,u2`.
    pub fn exch(&mut self, u1: Var, u2: Var) {
        let (a, b) = (self.read(u1), self.read(u2));
        self.write(u1, b);
        self.write(u2, a);
    }
    // @end exch

    // @section selecc: write cond_arg want_set val_set inv_impl
    /// `SELECC w,c,v`: the elements of set v that satisfy c.
    pub fn selecc(&mut self, dst: Var, cond: Cond, v: &Value) -> Result<(), Fault> {
        let mut kept = Vec::new();
        for item in set(v)? {
            if self.test(cond, item)? {
                kept.push(item.clone());
            }
        }
        self.write(dst, Value::Set(kept.into()));
        Ok(())
    }
    // @end selecc

    // @section setel: take write inv_impl
    /// `SETEL v,u,i`.
    pub fn set_element(&mut self, v: Value, u: Var, i: &Value) -> Result<(), Fault> {
        let updated = set_element(v, self.take(u), i)?;
        self.write(u, updated);
        Ok(())
    }
    // @end setel

    // @section insert: take write inv_impl
    /// `INSERT v,u,i`.
    pub fn insert(&mut self, v: Value, u: Var, i: &Value) -> Result<(), Fault> {
        let updated = insert_element(v, self.take(u), i)?;
        self.write(u, updated);
        Ok(())
    }
    // @end insert

    // @section unsert: take write inv_impl
    /// `UNSERT w,u,i`: all read first, then written left to right (§11.9).
    pub fn unsert(&mut self, w: Var, u: Var, i: &Value) -> Result<(), Fault> {
        let (removed, rest) = remove_element(self.take(u), i)?;
        self.write(w, removed);
        self.write(u, rest);
        Ok(())
    }
    // @end unsert

    // @section exchwe: read take write inv_impl
    /// `EXCHWE u1,u2,i` (§11.9).
    pub fn exchwe(&mut self, u1: Var, u2: Var, i: &Value) -> Result<(), Fault> {
        let (a, updated) = exchange_element(self.read(u1), self.take(u2), i)?;
        self.write(u1, a);
        self.write(u2, updated);
        Ok(())
    }
    // @end exchwe

    // @section exchel: take write inv_impl
    /// `EXCHEL u,i,j`.
    pub fn exchel(&mut self, u: Var, i: &Value, j: &Value) -> Result<(), Fault> {
        let updated = exchange_elements(self.take(u), i, j)?;
        self.write(u, updated);
        Ok(())
    }
    // @end exchel

    // @section cond: cond_arg call x inv_impl
    /// `COND c,t1,t2`: calls `t1` with `X` unchanged.
    pub fn cond(&self, cond: Cond, sub: usize, target: usize) -> Step {
        Step::Call {
            sub,
            arg: self.x.clone(),
            then: Then::Cond(cond, target),
        }
    }
    // @end cond

    // @section condv: cond_arg branch inv_impl
    /// `CONDV c,v,t`.
    pub fn condv(&self, cond: Cond, v: &Value, target: usize) -> Result<Step, Fault> {
        Ok(Invocation::branch(self.test(cond, v)?, target))
    }
    // @end condv

    // @section branch: next inv_impl
    /// `CONDV c,v,t` and `JUMP… a,b,t`: where control goes.
    pub fn branch(taken: bool, target: usize) -> Step {
        if taken {
            Step::Goto(target)
        } else {
            Step::Next
        }
    }
    // @end branch

    // @section outcome: next leave inv_impl
    /// The step after an outcome instruction: `None` goes on.
    pub fn outcome(outcome: Option<Outcome>) -> Step {
        match outcome {
            None => Step::Next,
            Some(Outcome::Leave) => Step::Leave,
            // @section outcome_value
            Some(outcome @ Outcome::Value(_)) => Step::Outcome(outcome),
            // @end outcome_value
            // @section outcome_move
            Some(outcome @ Outcome::Move(..)) => Step::Outcome(outcome),
            // @end outcome_move
        }
    }
    // @end outcome

    // @section order: read write ordering inv_impl
    /// `ORDER u1,u2,o`: `u2` goes first when its key is less than `u1`'s
    /// (`Node::order_key`); as given, nothing changes.
    pub fn order(&mut self, u1: Var, u2: Var, ordering: Ordering) -> Result<(), Fault> {
        let (a, b) = (self.read(u1), self.read(u2));
        let swap = ordering != Ordering::AsGiven;
        // @section sort: inv_node
        let swap = swap && {
            let ka = self.node.order_key(&a, ordering)?;
            self.node.order_key(&b, ordering)? < ka
        };
        // @end sort
        if swap {
            self.write(u1, b);
            self.write(u2, a);
        }
        Ok(())
    }
    // @end order

    // @section break: inv_impl
    /// `BREAK v1,v2,v3` at `line`.
    pub fn break_line(&mut self, line: u32, a: &Value, b: &Value, c: &Value) {
        let _ = writeln!(self.search.breaks, "break {line}: {a} {b} {c}");
    }
    // @end break

    // @section moves_of: inv_node cond_arg want_set want_move node_legal order_items inv_impl
    /// The legal moves of `set` satisfying `cond`, ordered (§6.3).
    fn moves_of(
        &self,
        set_value: &Value,
        cond: Cond,
        ordering: Ordering,
    ) -> Result<Vec<Value>, Fault> {
        let mut out = Vec::new();
        for item in set(set_value)? {
            let m = move_value(item)?;
            if self.node.legal(m).is_some() && self.test(cond, item)? {
                out.push(item.clone());
            }
        }
        self.node.order(&mut out, ordering)?;
        Ok(out)
    }
    // @end moves_of

    // @section search_move: inv_node inv_plans node_depth node_plies move_value_type board_move inv_impl
    /// Searches one move with one ply less, carrying this invocation's
    /// plans: −(value after it).
    fn search_move(&mut self, m: MoveValue) -> Result<(Move, i64), RuntimeError> {
        let mv = m.board_move();
        let child = self.node.position.play(mv);
        let plans = self.plans.clone();
        let (plies, depth) = (self.node.plies - 1, self.node.depth + 1);
        let v = self.search.exact(&child, plies, depth, &plans)?;
        Ok((mv, v.wrapping_neg()))
    }
    // @end search_move

    // @section play: moves_of inv_impl
    /// `PLAY`/`PLAYB`/`TRY s,c,o` (§6.3); `Ok(None)`: go on.
    pub fn play(
        &mut self,
        kind: PlayKind,
        set_value: &Value,
        cond: Cond,
        ordering: Ordering,
    ) -> Result<Option<Outcome>, Error> {
        let moves = self.moves_of(set_value, cond, ordering)?;
        match kind {
            // @section play_play: want_move remembered root outcome_value outcome_move inv_node
            PlayKind::Play => {
                let Some(first) = moves.first() else {
                    return Ok(None);
                };
                let value = self.remembered.unwrap_or_else(|| self.node.static_eval());
                let m = move_value(first)?;
                Ok(Some(if self.root() {
                    Outcome::Move(m.board_move(), value)
                } else {
                    Outcome::Value(value)
                }))
            }
            // @end play_play
            // @section play_playb: want_move search_move root outcome_value outcome_move
            PlayKind::PlayB => {
                let mut best: Option<(Move, i64)> = None;
                for item in &moves {
                    let m = move_value(item)?;
                    let (mv, v) = self.search_move(m)?;
                    if best.is_none_or(|(_, b)| v > b) {
                        best = Some((mv, v));
                    }
                }
                Ok(best.map(|(mv, v)| {
                    if self.root() {
                        Outcome::Move(mv, v)
                    } else {
                        Outcome::Value(v)
                    }
                }))
            }
            // @end play_playb
            // @section play_try: try_moves
            PlayKind::Try => self.try_moves(&moves).map(|()| None),
            // @end play_try
        }
    }
    // @end play

    // @section try_moves: want_move search_move best inv_impl
    /// Searches each of `moves` (`TRY`, `PLAN`), keeping the best (move,
    /// value) for `DONE` and `RETBET`.
    fn try_moves(&mut self, moves: &[Value]) -> Result<(), Error> {
        for item in moves {
            let m = move_value(item)?;
            let (mv, v) = self.search_move(m)?;
            if self.best.is_none_or(|(_, b)| v > b) {
                self.best = Some((mv, v));
            }
        }
        Ok(())
    }
    // @end try_moves

    // @section plan: inv_node inv_plans plan_key moves_of try_moves ordering mover inv_impl
    /// `PLAN t,s,v` (§6.4).
    pub fn plan(&mut self, tag: usize, set: &Value, value: Value) -> Result<(), Error> {
        let me = colour_index(self.node.mover());
        let key = plan_key(me, tag, &value);
        self.plans[me] = Some((tag, value, key));
        let moves = self.moves_of(set, None, Ordering::AsGiven)?;
        self.try_moves(&moves)
    }
    // @end plan

    // @section unplan: inv_node inv_plans mover inv_impl
    /// `UNPLAN` (§6.4).
    pub fn unplan(&mut self) {
        let me = colour_index(self.node.mover());
        self.plans[me] = None;
    }
    // @end unplan

    // @section done: best root outcome_value outcome_move inv_impl
    /// `DONE` (§6.3).
    pub fn done(&self) -> Outcome {
        match self.best {
            None => Outcome::Leave,
            Some((mv, v)) if self.root() => Outcome::Move(mv, v),
            Some((_, v)) => Outcome::Value(v),
        }
    }
    // @end done

    // @section value: want_integer inv_node node_depth inv_impl
    /// `VALRET`/`VALRUT`/`VALON`/`RETBET w,l,c` (§6.2–§6.3); `None`: go on.
    pub fn value(
        &mut self,
        kind: ValueKind,
        w: &Value,
        l: &Value,
        c: &Value,
    ) -> Result<Option<Outcome>, Fault> {
        let v = convert(integer(w)?, integer(l)?, integer(c)?, self.node.depth);
        Ok(match (kind, v) {
            // @section valret: root outcome_value
            (ValueKind::ValRet, _) if self.root() => Some(Outcome::Leave),
            (ValueKind::ValRet, v) => Some(Outcome::Value(v)),
            // @end valret
            // @section valrut: root outcome_value
            (ValueKind::ValRut, v) if !self.root() => Some(Outcome::Value(v)),
            (ValueKind::ValRut, _) => {
                // Remembered for `PLAY` (§6.3), when the program plays.
                // @section remembered
                self.remembered = Some(v);
                // @end remembered
                None
            }
            // @end valrut
            // @section valon
            (ValueKind::ValOn, _) => {
                // Remembered for `PLAY` (§6.3), when the program plays.
                // @section remembered
                self.remembered = Some(v);
                // @end remembered
                None
            }
            // @end valon
            // @section retbet: best done
            (ValueKind::RetBet, v) => match self.best {
                Some((_, b)) if b > v => Some(self.done()),
                _ => None,
            },
            // @end retbet
        })
    }
    // @end value
}
// @end inv_impl

/// Static evaluation (§6.2): material, side to move minus the other.
fn static_value(p: &Position) -> i64 {
    let worth = |c: Colour| {
        i64::from(p.count(c, Kind::Pawn)) * 128
            + i64::from(p.count(c, Kind::Knight)) * 384
            + i64::from(p.count(c, Kind::Bishop)) * 400
            + i64::from(p.count(c, Kind::Rook)) * 640
            + i64::from(p.count(c, Kind::Queen)) * 1152
    };
    let me = p.side_to_move();
    worth(me) - worth(me.other())
}

/// The value of a node whose side to move has no legal move (§6.2):
/// checkmated −(28672 − DEPTH), stalemate 0.
fn no_move_value(position: &Position, depth: i64) -> i64 {
    if position.in_check() {
        -(MATE - depth)
    } else {
        0
    }
}

/// Material of one side for `ENTRY` matching.
fn material(p: &Position, c: Colour) -> (u8, u8, u8, u8, u8) {
    let n = |k| p.count(c, k).min(255) as u8;
    (
        n(Kind::Queen),
        n(Kind::Rook),
        n(Kind::Bishop),
        n(Kind::Knight),
        n(Kind::Pawn),
    )
}

fn matches_side(spec: (u8, u8, u8, u8, Option<u8>), have: (u8, u8, u8, u8, u8)) -> bool {
    spec.0 == have.0
        && spec.1 == have.1
        && spec.2 == have.2
        && spec.3 == have.3
        && spec.4.is_none_or(|p| p == have.4)
}

/// The first `ENTRY` matching the position (§6.1).
pub fn match_entry(entries: &[EntrySpec], p: &Position) -> Option<usize> {
    let me = material(p, p.side_to_move());
    let them = material(p, p.side_to_move().other());
    let diff = i64::from(me.4) - i64::from(them.4);
    entries.iter().find_map(|e| {
        let ok = matches_side(e.mover, me)
            && matches_side(e.other, them)
            && e.pawn_diff
                .is_none_or(|(order, m)| diff.cmp(&i64::from(m)) == order);
        ok.then_some(e.start)
    })
}

impl Search<'_> {
    /// Consults the program at a node with a legal move (§6.1): from the
    /// plan of the side to move, or the first matching `ENTRY`. At the
    /// root (DEPTH 1) it may choose the move.
    fn consult(&mut self, node: Node, plans: &Plans) -> Consulted {
        let Some(program) = self.program else {
            return Ok(Outcome::Leave);
        };
        let me = colour_index(node.position.side_to_move());
        let start = match &plans[me] {
            Some((tag, _, _)) => *tag,
            None => match match_entry(program.entries(), &node.position) {
                Some(start) => start,
                None => return Ok(Outcome::Leave),
            },
        };
        let fen = node.position.to_fen();
        let inv = Invocation {
            // @section x
            x: match &plans[me] {
                Some((_, v, _)) => v.clone(),
                None => Value::Undefined,
            },
            // @end x
            // @section side
            side: Value::Undefined,
            // @end side
            // @section var_user
            vars: vec![Value::Undefined; program.user_vars()],
            // @end var_user
            // @section inv_plans
            plans: plans.clone(),
            // @end inv_plans
            // @section best
            best: None,
            // @end best
            // @section remembered
            remembered: None,
            // @end remembered
            // @section inv_node
            node,
            // @end inv_node
            search: self,
            pc: start,
        };
        run_invocation(inv, program, fen)
    }
}

/// Runs `inv` from its first statement (§6.1, §5.2); `fen` is its node's,
/// for runtime errors.
fn run_invocation(
    mut inv: Invocation<'_, '_>,
    program: &dyn Endgame,
    fen: String,
) -> Result<Outcome, RuntimeError> {
    // @section frames
    let mut frames: Vec<Frame> = Vec::new();
    // @end frames
    // @section entered: max_calls fell_into_fence
    // Calls entered (in a program without `RETURN`, none comes back).
    let mut entered = 0;
    // @end entered
    let mut executed: u64 = 0;
    let error = |pc: usize, message: String| RuntimeError {
        line: program.line(pc),
        message,
        fen: fen.clone(),
    };
    loop {
        let pc = inv.pc;
        inv.search.tick()?;
        executed += 1;
        if executed > MAX_STATEMENTS {
            return Err(error(
                pc,
                format!("more than {MAX_STATEMENTS} statements in one invocation (§5.2)"),
            ));
        }
        let step = match program.step(pc, &mut inv) {
            Ok(step) => step,
            Err(Error::Fault(message)) => return Err(error(pc, message)),
            Err(Error::Nested(nested)) => return Err(nested),
        };
        // Where control goes; `Some`: the invocation's outcome.
        let ended = match step {
            // @section next
            Step::Next => {
                inv.pc = pc + 1;
                None
            }
            // @end next
            // @section branch
            Step::Goto(target) => {
                inv.pc = target;
                None
            }
            // @end branch
            // @section call: frames x max_calls
            Step::Call { sub, arg, then } => {
                if frames.len() >= MAX_CALLS {
                    return Err(error(pc, too_deep()));
                }
                let saved_x = std::mem::replace(&mut inv.x, arg);
                frames.push(Frame {
                    return_to: pc + 1,
                    saved_x,
                    then,
                });
                inv.pc = sub;
                None
            }
            // @end call
            // @section each: frames x write set_owned max_calls
            Step::Each {
                kind,
                dst,
                sub,
                set: s,
            } => {
                let items = set_owned(s).map_err(|m| error(pc, m))?;
                if items.is_empty() {
                    inv.write(dst, Value::Set(Items::default()));
                    inv.pc = pc + 1;
                    continue;
                }
                if frames.len() >= MAX_CALLS {
                    return Err(error(pc, too_deep()));
                }
                let arg = items[0].clone();
                let saved_x = std::mem::replace(&mut inv.x, arg);
                frames.push(Frame {
                    return_to: pc + 1,
                    saved_x,
                    then: Then::Each {
                        kind,
                        dst,
                        sub,
                        items,
                        next: 0,
                        acc: Vec::new(),
                    },
                });
                inv.pc = sub;
                None
            }
            // @end each
            // @section enter
            Step::Enter { sub, arg } => {
                if entered >= MAX_CALLS {
                    return Err(error(pc, too_deep()));
                }
                entered += 1;
                inv.x = arg;
                inv.pc = sub;
                None
            }
            // @end enter
            // @section enter_each
            Step::EnterEach { dst, sub, set } => {
                let items = set_owned(set).map_err(|m| error(pc, m))?;
                match items.first() {
                    None => {
                        inv.write(dst, Value::Set(Items::default()));
                        inv.pc = pc + 1;
                    }
                    Some(first) => {
                        if entered >= MAX_CALLS {
                            return Err(error(pc, too_deep()));
                        }
                        entered += 1;
                        inv.x = first.clone();
                        inv.pc = sub;
                    }
                }
                None
            }
            // @end enter_each
            // @section return: frames x stray_return
            Step::Return(value) => {
                let Some(frame) = frames.pop() else {
                    return Err(error(pc, stray_return()));
                };
                inv.x = frame.saved_x;
                // An error of what the call does with the value is the
                // call's (statement `frame.return_to - 1`).
                // After the call, by default; a jump or the next element
                // of a SELECT/MAP goes elsewhere.
                inv.pc = frame.return_to;
                match frame.then {
                    // @section cond: cond_arg
                    Then::Cond(cond, target) => {
                        let yes = inv
                            .test(cond, &value)
                            .map_err(|m| error(frame.return_to - 1, m))?;
                        if yes {
                            inv.pc = target;
                        }
                    }
                    // @end cond
                    // @section condtf: returned_logical
                    Then::CondTF(flag, target) => {
                        let b = returned_logical(&value, "the call")
                            .map_err(|m| error(frame.return_to - 1, m))?;
                        if b == flag {
                            inv.pc = target;
                        }
                    }
                    // @end condtf
                    // @section each: write
                    Then::Each {
                        kind,
                        dst,
                        sub,
                        items,
                        next,
                        mut acc,
                    } => {
                        match (kind, value) {
                            // @section select: returned_logical
                            (CallKind::Select, value) => {
                                let keep = returned_logical(&value, "SELECT's subroutine")
                                    .map_err(|m| error(frame.return_to - 1, m))?;
                                if keep {
                                    acc.push(items[next].clone());
                                }
                            }
                            // @end select
                            // @section map
                            (CallKind::Map, value) => acc.push(value),
                            // @end map
                            // @section interpreter
                            (CallKind::Set, value) => acc.push(value),
                            // @end interpreter
                        }
                        let next = next + 1;
                        if next >= items.len() {
                            inv.write(dst, Value::Set(acc.into()));
                        } else {
                            let arg = items[next].clone();
                            let saved_x = std::mem::replace(&mut inv.x, arg);
                            frames.push(Frame {
                                return_to: frame.return_to,
                                saved_x,
                                then: Then::Each {
                                    kind,
                                    dst,
                                    sub,
                                    items,
                                    next,
                                    acc,
                                },
                            });
                            inv.pc = sub;
                        }
                    }
                    // @end each
                    // @section set: write
                    Then::Store(var) => inv.write(var, value),
                    // @end set
                }
                None
            }
            // @end return
            // @section stray: stray_return
            Step::Stray => return Err(error(pc, stray_return())),
            // @end stray
            Step::Fence => {
                // An `ENTRY` or `END` line: `LEAVE`, unless a subroutine
                // ran into it (§5.2).
                // @section frames
                if !frames.is_empty() {
                    return Err(error(pc, fell_into_fence()));
                }
                // @end frames
                // @section entered
                if entered > 0 {
                    return Err(error(pc, fell_into_fence()));
                }
                // @end entered
                Some(Outcome::Leave)
            }
            // @section leave
            Step::Leave => Some(Outcome::Leave),
            // @end leave
            // @section step_outcome
            Step::Outcome(outcome) => Some(outcome),
            // @end step_outcome
        };
        if let Some(outcome) = ended {
            return Ok(outcome);
        }
    }
}

// @section returned_logical: type_name
/// The logical a subroutine returned to `CONDT`, `CONDF` or `SELECT`
/// (`what`: the call, or `SELECT`'s subroutine): else a runtime error.
fn returned_logical(value: &Value, what: &str) -> Result<bool, Fault> {
    // @section val_logical
    if let Value::Logical(b) = value {
        return Ok(*b);
    }
    // @end val_logical
    Err(format!(
        "{what} must return a logical, got {} {value}",
        type_name(value)
    ))
}
// @end returned_logical

// @section max_calls
/// The runtime error of a call nested too deep (§5.2).
fn too_deep() -> String {
    format!("calls nested more than {MAX_CALLS} deep (§5.2)")
}
// @end max_calls

// @section fell_into_fence
/// The runtime error of a subroutine that reaches an `ENTRY` or `END`
/// line (§5.2).
fn fell_into_fence() -> String {
    "a subroutine fell into an ENTRY or END line (§5.2)".into()
}
// @end fell_into_fence

// @section stray_return
/// The runtime error of a `RETURN` with no call active (§5.2).
fn stray_return() -> String {
    "RETURN outside a subroutine (§5.2)".into()
}
// @end stray_return

/// How many nodes and program statements a search runs between two
/// questions to its [`Watch`]: `stop`, `isready` and the clock are looked
/// at that often (§7.5).
pub const POLL_INTERVAL: u32 = 256;

/// The deepest search (§7.3: depth 1–20).
pub const MAX_DEPTH: u32 = 20;

/// DEPTHs below this keep a principal variation and killer moves (a node
/// with plies left has DEPTH ≤ 21).
const MAX_PLY: usize = 64;

/// What ends a search besides its watch (§7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Depths `from`, `from` + 1, … up to this one are searched (1–20).
    pub depth: u32,
    /// The first depth searched: 1 for iterative deepening (UCI `go`),
    /// `depth` for the one §7.3 search of a `--fen` query (§7.4).
    pub from: u32,
    /// `go nodes N`: the search stops before visiting more nodes.
    pub nodes: Option<u64>,
    /// The answer must be depth `depth`'s (§7.5 `go depth N`, a bare `go`,
    /// a `--fen` query): a runtime error met at a shallower depth is not
    /// the answer's (§11.23: errors belong to the plain §7.3 search at
    /// `depth`, and a program that reads `PLIES` may fail at a depth that
    /// search never visits), so the search goes straight on to `depth`.
    /// Otherwise (a search limited by time or nodes) such an error ends
    /// the search.
    pub exact: bool,
}

/// One completed depth of a search (§7.5: one UCI `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The depth.
    pub depth: u32,
    /// The §7.3 value at that depth.
    pub score: i64,
    /// Nodes visited so far, every depth.
    pub nodes: u64,
    /// The principal variation, as far as the search knows it.
    pub pv: Vec<Move>,
}

/// The caller's eyes on a running search: the UCI loop reads its commands
/// and its clock there (§7.5); a `--fen` query has none ([`Unwatched`]).
pub trait Watch {
    /// Asked every [`POLL_INTERVAL`] nodes and statements: true stops the
    /// search at once.
    fn poll(&mut self) -> bool;
    /// Told each completed depth: true goes on to the next one.
    fn completed(&mut self, report: &Report) -> bool;
}

/// A search that only its [`Limits`] end.
pub struct Unwatched;

impl Watch for Unwatched {
    fn poll(&mut self) -> bool {
        false
    }

    fn completed(&mut self, _report: &Report) -> bool {
        true
    }
}

/// The game history (§7.5): the positions of the game since its last
/// capture or pawn move, the root excluded; a node below the root at one
/// of them is a draw. Kept sorted by [`Position::repetition_key`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    positions: Vec<(u64, Position)>,
}

impl History {
    /// No history: a `--fen` query without `--moves`.
    pub fn new() -> History {
        History::default()
    }

    /// The game that starts at `start` and plays `moves` (each legal where
    /// it is played): the position after them, and its history (§7.5):
    /// the positions after each move from the last capture or pawn move
    /// on, and `start` when no capture or pawn move came after it; the
    /// position after the last move (the root) is not in it.
    pub fn game(start: &Position, moves: &[Move]) -> (Position, History) {
        let mut positions = vec![start.clone()];
        let mut position = start.clone();
        for &mv in moves {
            if position.is_irreversible(mv) {
                positions.clear();
            }
            position = position.play(mv);
            positions.push(position.clone());
        }
        positions.pop();
        let mut keyed: Vec<(u64, Position)> = positions
            .into_iter()
            .map(|p| (p.repetition_key(), p))
            .collect();
        keyed.sort_by_key(|entry| entry.0);
        (position, History { positions: keyed })
    }

    // @section interpreter
    /// How many positions it holds (repeated positions count once each
    /// time they occurred).
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when it holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
    // @end interpreter

    /// True when `position` is one of the game's positions (§7.5).
    pub fn contains(&self, position: &Position) -> bool {
        if self.positions.is_empty() {
            return false;
        }
        let key = position.repetition_key();
        let from = self.positions.partition_point(|entry| entry.0 < key);
        self.positions
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .take_while(|entry| entry.0 == key)
            .any(|entry| entry.1.same_game_position(position))
    }
}

/// Bytes one entry of the transposition table counts for in the size rule
/// (three 64-bit words: key, value, the rest).
pub const ENTRY_BYTES: u64 = 24;

const BOUND_UPPER: u64 = 1;
const BOUND_LOWER: u64 = 2;
const BOUND_EXACT: u64 = 3;

/// The transposition table (§7.5, UCI option `Hash`): the values of nodes
/// already searched, keyed on everything a node's value depends on (the
/// position, r, DEPTH, both sides' plans, the Endgame switch), so that a
/// hit changes no answer. The size rule, the keys and the replacement are
/// the C runtime's too, so node counts agree between the back ends:
///
/// - `Hash` MB hold the largest power of two of [`ENTRY_BYTES`]-byte
///   entries that fits (16 MB: 524,288 entries), in buckets of two;
/// - a node goes to the bucket of its key's low bits; the entry with its
///   key is replaced, else an empty one, else the first if the new node
///   has at least as many plies left as that entry, else the second;
/// - each search starts with the table empty (a new generation; entries of
///   an older one count as empty), so answers and node counts depend only
///   on the position, the history and the limits.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// (key, value, move | plies + 2 << 16 | DEPTH << 24 | bound << 32 |
    /// generation << 40).
    slots: Vec<[u64; 3]>,
    /// The current search's generation, 1–255 (0: never used).
    generation: u64,
}

/// A table entry found for a node.
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: i64,
    bound: u64,
    mv: Option<Move>,
}

impl Entry {
    /// The node's value when the entry settles it in the window.
    fn cutoff(&self, alpha: i64, beta: i64) -> Option<i64> {
        let settled = match self.bound {
            BOUND_EXACT => true,
            BOUND_LOWER => self.value >= beta,
            _ => self.value <= alpha,
        };
        settled.then_some(self.value)
    }
}

/// The bound a fail-soft result `value` is of a node searched in the
/// window (`alpha`, `beta`).
fn bound(value: i64, alpha: i64, beta: i64) -> u64 {
    if value <= alpha {
        BOUND_UPPER
    } else if value >= beta {
        BOUND_LOWER
    } else {
        BOUND_EXACT
    }
}

fn encode_move(mv: Option<Move>) -> u64 {
    let Some(mv) = mv else {
        return 0;
    };
    let promotion: u64 = match mv.promotion {
        None => 0,
        Some(Kind::Queen) => 1,
        Some(Kind::Rook) => 2,
        Some(Kind::Bishop) => 3,
        Some(_) => 4,
    };
    0x8000 | u64::from(mv.from & 63) | u64::from(mv.to & 63) << 6 | promotion << 12
}

fn decode_move(bits: u64) -> Option<Move> {
    if bits & 0x8000 == 0 {
        return None;
    }
    Some(Move {
        from: (bits & 63) as u8,
        to: ((bits >> 6) & 63) as u8,
        promotion: match (bits >> 12) & 7 {
            1 => Some(Kind::Queen),
            2 => Some(Kind::Rook),
            3 => Some(Kind::Bishop),
            4 => Some(Kind::Knight),
            _ => None,
        },
    })
}

impl Table {
    /// A table of `megabytes` MB (1–1024; 0 makes a table that holds
    /// nothing, for measuring what the table saves). The memory is
    /// allocated zeroed, so untouched pages cost nothing.
    pub fn new(megabytes: u32) -> Table {
        Table {
            slots: vec![[0u64; 3]; Table::entries_for(megabytes)],
            generation: 0,
        }
    }

    /// The entries a table of `megabytes` MB has: the largest power of
    /// two whose entries fit, 0 below two.
    pub fn entries_for(megabytes: u32) -> usize {
        let entries = (u64::from(megabytes) << 20) / ENTRY_BYTES;
        if entries < 2 {
            return 0;
        }
        let power = 1u64 << (63 - entries.leading_zeros());
        usize::try_from(power).unwrap_or(0)
    }

    // @section interpreter
    /// How many entries it has.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True for a table that holds nothing.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    // @end interpreter

    /// Starts a search with the table empty: a new generation (after 255
    /// of them, the memory is cleared and they start again).
    pub fn new_search(&mut self) {
        if self.generation >= 255 {
            for slot in self.slots.iter_mut() {
                *slot = [0; 3];
            }
            self.generation = 0;
        }
        self.generation += 1;
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len().wrapping_sub(1)) & !1
    }

    fn current(&self, slot: &[u64; 3]) -> bool {
        (slot[2] >> 40) & 0xff == self.generation
    }

    /// The entry of the node with `key`, `plies` left at `depth`.
    fn probe(&self, key: u64, plies: i64, depth: i64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let base = self.bucket(key);
        for slot in self.slots.get(base..base + 2).unwrap_or(&[]) {
            let info = slot[2];
            if slot[0] == key
                && self.current(slot)
                && (info >> 16) & 0xff == (plies + 2) as u64
                && (info >> 24) & 0xff == depth as u64
            {
                return Some(Entry {
                    value: slot[1] as i64,
                    bound: (info >> 32) & 3,
                    mv: decode_move(info),
                });
            }
        }
        None
    }

    /// Stores a node's value (a node out of the packed ranges is not kept).
    fn store(
        &mut self,
        key: u64,
        plies: i64,
        depth: i64,
        value: i64,
        bound: u64,
        mv: Option<Move>,
    ) {
        let packable = (-1..=253).contains(&plies) && (0..=255).contains(&depth);
        if self.slots.is_empty() || !packable {
            return;
        }
        let info = encode_move(mv)
            | ((plies + 2) as u64) << 16
            | (depth as u64) << 24
            | bound << 32
            | self.generation << 40;
        let base = self.bucket(key);
        let pair = (self.slots.get(base), self.slots.get(base + 1));
        let (Some(first), Some(second)) = pair else {
            return;
        };
        let same = |slot: &[u64; 3]| slot[0] == key && self.current(slot);
        let at = if same(first) {
            base
        } else if same(second) {
            base + 1
        } else if !self.current(first) {
            base
        } else if !self.current(second) {
            base + 1
        } else if plies + 2 >= ((first[2] >> 16) & 0xff) as i64 {
            base
        } else {
            base + 1
        };
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = [key, value as u64, info];
        }
    }
}

// @section plan_key: use_piece
/// The hash of a value (§2), for the plans' part of the node keys: its
/// type and contents, sets element by element, with an explicit stack (no
/// recursion over nested sets). Equal values (§2 equality) have equal
/// keys; the C runtime computes the same numbers.
pub fn value_key(value: &Value) -> u64 {
    enum Visit<'a> {
        Value(&'a Value),
        EndOfSet,
    }
    // @section piece_code: use_piece
    let piece_code = |p: &Piece| {
        let colour = match p.colour {
            Colour::White => 0u64,
            Colour::Black => 1,
        };
        colour | (p.kind as u64 + 1) << 1 | u64::from(p.square & 63) << 4
    };
    // @end piece_code
    let mut h: u64 = 0x0c4e_6197_3000_0000;
    let mut fold = |x: u64| h = mix(h ^ x);
    let mut stack = vec![Visit::Value(value)];
    while let Some(visit) = stack.pop() {
        match visit {
            Visit::EndOfSet => fold(5),
            Visit::Value(v) => match v {
                // @section val_logical
                Value::Logical(b) => {
                    fold(2);
                    fold(u64::from(*b));
                }
                // @end val_logical
                // @section val_integer
                Value::Integer(n) => {
                    fold(3);
                    fold(*n as u64);
                }
                // @end val_integer
                // @section val_set
                Value::Set(items) => {
                    fold(4);
                    fold(items.len() as u64);
                    stack.push(Visit::EndOfSet);
                    stack.extend(items.iter().rev().map(Visit::Value));
                }
                // @end val_set
                // @section val_piece: piece_code
                Value::Piece(p) => {
                    fold(6);
                    fold(piece_code(p));
                }
                // @end val_piece
                // @section val_square
                Value::Square(s) => {
                    fold(7);
                    fold(u64::from(*s & 63));
                }
                // @end val_square
                // @section val_move: piece_code
                Value::Move(m) => {
                    fold(8);
                    fold(piece_code(&m.piece));
                    fold(u64::from(m.to & 63));
                    fold(encode_move(Some(m.board_move())) >> 12);
                }
                // @end val_move
                Value::Undefined => fold(1),
            },
        }
    }
    h
}

/// A plan's part of the node keys: its side (0 White, 1 Black), its tag's
/// statement and its value.
fn plan_key(side: usize, tag: usize, value: &Value) -> u64 {
    mix(value_key(value) ^ mix((tag as u64) << 1 | (side as u64 & 1)))
}
// @end plan_key

/// The key of a quiescence node at `depth` (no plies, no plans: the
/// program is not consulted there).
fn quiescence_key(position: &Position, depth: i64) -> u64 {
    position.key() ^ mix(1 << 32 | (depth as u64 & 0xffff_ffff))
}

/// The worth rank of a piece kind for move ordering: pawn 1 … king 6.
fn kind_rank(kind: Kind) -> u32 {
    match kind {
        Kind::Pawn => 1,
        Kind::Knight => 2,
        Kind::Bishop => 3,
        Kind::Rook => 4,
        Kind::Queen => 5,
        Kind::King => 6,
    }
}

/// A move's place in the search order (greater first): the table's move;
/// captures, most valuable victim first, then least valuable attacker;
/// queen promotions; the killer moves; the rest.
fn move_score(
    position: &Position,
    mv: Move,
    hint: Option<Move>,
    killers: [Option<Move>; 2],
) -> u32 {
    if Some(mv) == hint {
        return 0x10000;
    }
    let mut score = 0;
    if position.is_capture(mv) {
        let victim = position.piece_at(mv.to).map_or(1, |p| kind_rank(p.kind));
        let attacker = position.piece_at(mv.from).map_or(0, |p| kind_rank(p.kind));
        score = 0x1000 + victim * 16 + (8 - attacker);
    }
    if mv.promotion == Some(Kind::Queen) {
        score += 0x800;
    }
    if score == 0 {
        if killers[0] == Some(mv) {
            score = 0x401;
        } else if killers[1] == Some(mv) {
            score = 0x400;
        }
    }
    score
}

/// Sorts `moves` by [`move_score`], greater first, a tie keeping the
/// generation order (a stable sort: the C runtime's insertion sort gives
/// the same order).
fn order_moves(
    position: &Position,
    moves: &mut Vec<Move>,
    hint: Option<Move>,
    killers: [Option<Move>; 2],
) {
    let mut scored: Vec<(u32, Move)> = moves
        .iter()
        .map(|&mv| (move_score(position, mv, hint, killers), mv))
        .collect();
    scored.sort_by_key(|entry| std::cmp::Reverse(entry.0));
    moves.clear();
    moves.extend(scored.into_iter().map(|entry| entry.1));
}

/// The generator of the node keys ([`super::chess::mix64`]).
fn mix(x: u64) -> u64 {
    super::chess::mix64(x)
}

/// The signal that unwinds a stopped search: not an error of the program
/// ([`Search::stopped`] tells them apart).
fn stop_signal() -> RuntimeError {
    RuntimeError {
        line: 0,
        message: String::new(),
        fen: String::new(),
    }
}

impl Search<'_> {
    /// Counts one tick (a node or a statement): the watch is asked every
    /// [`POLL_INTERVAL`] ticks. Err: the search is stopped.
    fn tick(&mut self) -> Result<(), RuntimeError> {
        if self.stopped {
            return Err(stop_signal());
        }
        self.ticks += 1;
        if self.ticks >= POLL_INTERVAL {
            self.ticks = 0;
            if self.watch.poll() {
                self.stopped = true;
                return Err(stop_signal());
            }
        }
        Ok(())
    }

    /// Counts a node (§11.20), within the node budget.
    fn enter(&mut self) -> Result<(), RuntimeError> {
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return Err(stop_signal());
        }
        self.nodes += 1;
        self.tick()
    }

    fn node_key(&self, position: &Position, plies: i64, depth: i64, plans: &Plans) -> u64 {
        let mut key = position.key()
            ^ mix(((plies + 2) as u64) << 32 | (depth as u64 & 0xffff_ffff))
            ^ self.endgame_key;
        for (_, _, plan) in plans.iter().flatten() {
            key ^= *plan;
        }
        key
    }

    fn clear_pv(&mut self, depth: i64) {
        if let Some(line) = self.pv.get_mut(depth as usize) {
            line.clear();
        }
    }

    /// The node at `depth` has a new best move: its line is `mv` then the
    /// child's.
    fn update_pv(&mut self, depth: i64, mv: Move) {
        let d = depth as usize;
        if d + 1 < self.pv.len() {
            let (this, below) = self.pv.split_at_mut(d + 1);
            if let (Some(line), Some(child)) = (this.get_mut(d), below.first()) {
                line.clear();
                line.push(mv);
                line.extend_from_slice(child);
            }
        }
    }

    fn killers_at(&self, depth: i64) -> [Option<Move>; 2] {
        self.killers
            .get(depth as usize)
            .copied()
            .unwrap_or([None, None])
    }

    fn add_killer(&mut self, depth: i64, mv: Move) {
        if let Some(slot) = self.killers.get_mut(depth as usize) {
            if slot[0] != Some(mv) {
                slot[1] = slot[0];
                slot[0] = Some(mv);
            }
        }
    }

    /// The value of a node with `plies` left at ply `depth` (§7.3, §7.5),
    /// with the plans it inherited, searched with the window (`alpha`,
    /// `beta`) fail-soft: a result in the window is exact; one at or below
    /// `alpha` is an upper bound, one at or above `beta` a lower bound.
    /// Every rule of §7.3 takes a maximum or returns an exact value (the
    /// program's outcome, mate, stalemate, a history draw), so the bounds
    /// are sound, and so are the table's; the exact searches a program asks
    /// for (`TRY`, `PLAYB`, `PLAN`) use the full window.
    fn value(
        &mut self,
        position: &Position,
        plies: i64,
        depth: i64,
        plans: &Plans,
        mut alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        self.enter()?;
        self.clear_pv(depth);
        if self.history.contains(position) {
            return Ok(0);
        }
        if plies < 0 {
            // Below a `TRY` at the horizon: a quiescence node.
            return self.quiescence_node(position, depth, alpha, beta);
        }
        let key = self.node_key(position, plies, depth, plans);
        let entry = self.table.probe(key, plies, depth);
        if let Some(v) = entry.and_then(|e| e.cutoff(alpha, beta)) {
            return Ok(v);
        }
        let mut moves = Vec::new();
        position.generate(&mut moves);
        if moves.is_empty() {
            return Ok(no_move_value(position, depth));
        }
        let node = Node {
            position: position.clone(),
            // @section node_depth
            depth,
            // @end node_depth
            // @section node_plies
            plies,
            // @end node_plies
        };
        match self.consult(node, plans)? {
            // @section outcome_value
            Outcome::Value(v) => {
                self.table.store(key, plies, depth, v, BOUND_EXACT, None);
                return Ok(v);
            }
            // @end outcome_value
            // @section outcome_move
            Outcome::Move(_, v) => {
                self.table.store(key, plies, depth, v, BOUND_EXACT, None);
                return Ok(v);
            }
            // @end outcome_move
            Outcome::Leave => {}
        }
        let hint = entry.and_then(|e| e.mv);
        let alpha0 = alpha;
        if plies == 0 {
            let q = self.quiescence_moves(position, depth, &moves, hint, alpha, beta)?;
            let (v, mv) = q;
            self.table
                .store(key, plies, depth, v, bound(v, alpha0, beta), mv);
            return Ok(v);
        }
        order_moves(position, &mut moves, hint, self.killers_at(depth));
        let mut best = i64::MIN;
        let mut best_move = None;
        for mv in moves {
            let child = position.play(mv);
            let v = self
                .value(
                    &child,
                    plies - 1,
                    depth + 1,
                    plans,
                    beta.saturating_neg(),
                    alpha.saturating_neg(),
                )?
                .wrapping_neg();
            if v > best || best_move.is_none() {
                best = best.max(v);
                best_move = Some(mv);
            }
            if v > alpha {
                alpha = v;
                self.update_pv(depth, mv);
            }
            if alpha >= beta {
                if !position.is_capture(mv) {
                    self.add_killer(depth, mv);
                }
                break;
            }
        }
        self.table.store(
            key,
            plies,
            depth,
            best,
            bound(best, alpha0, beta),
            best_move,
        );
        Ok(best)
    }

    // @section search_move
    /// The value of a node with the full window: exact.
    fn exact(
        &mut self,
        position: &Position,
        plies: i64,
        depth: i64,
        plans: &Plans,
    ) -> Result<i64, RuntimeError> {
        self.value(position, plies, depth, plans, i64::MIN + 1, i64::MAX)
    }
    // @end search_move

    fn quiescence(
        &mut self,
        position: &Position,
        depth: i64,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        self.enter()?;
        self.quiescence_node(position, depth, alpha, beta)
    }

    /// A quiescence node already counted (§7.3 rule 3), through the table.
    fn quiescence_node(
        &mut self,
        position: &Position,
        depth: i64,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        let key = quiescence_key(position, depth);
        let entry = self.table.probe(key, -1, depth);
        if let Some(v) = entry.and_then(|e| e.cutoff(alpha, beta)) {
            return Ok(v);
        }
        let mut moves = Vec::new();
        position.generate(&mut moves);
        if moves.is_empty() {
            return Ok(no_move_value(position, depth));
        }
        let hint = entry.and_then(|e| e.mv);
        let (v, mv) = self.quiescence_moves(position, depth, &moves, hint, alpha, beta)?;
        self.table
            .store(key, -1, depth, v, bound(v, alpha, beta), mv);
        Ok(v)
    }

    /// The quiescence value of a node with legal `moves` (§7.3 rule 3):
    /// the maximum of the static evaluation and of every capture's value,
    /// the captures searched most valuable victim first (the table's move
    /// before them). Also the capture that gave the value, if one did.
    fn quiescence_moves(
        &mut self,
        position: &Position,
        depth: i64,
        moves: &[Move],
        hint: Option<Move>,
        mut alpha: i64,
        beta: i64,
    ) -> Result<(i64, Option<Move>), RuntimeError> {
        let mut best = static_value(position);
        alpha = alpha.max(best);
        if alpha >= beta {
            return Ok((best, None));
        }
        let mut captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| position.is_capture(mv))
            .collect();
        order_moves(position, &mut captures, hint, [None, None]);
        let mut best_move = None;
        for mv in captures {
            let child = position.play(mv);
            let v = self
                .quiescence(
                    &child,
                    depth + 1,
                    beta.saturating_neg(),
                    alpha.saturating_neg(),
                )?
                .wrapping_neg();
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Ok((best, best_move))
    }

    /// One depth of the search from the root (§7.3 at `depth`): the
    /// program consulted, then every legal move, the last depth's best
    /// first (`first`), the others in §7.2 order. A move replaces the best
    /// only with a greater value, or an equal one when it comes before the
    /// best in §7.2 order, so the answer is the first move in §7.2 order
    /// with the greatest value, as §7.3 says. Each move is searched with
    /// the window (best, +∞) (best − 1 for a move before the best): a
    /// result above it is exact. `partial` follows the best so far, for a
    /// search stopped in its first depth. Returns the best move, its
    /// value and the principal variation.
    fn root(
        &mut self,
        position: &Position,
        moves: &[Move],
        depth: u32,
        first: Option<Move>,
        partial: &mut Option<(Move, i64)>,
    ) -> Result<(Move, i64, Vec<Move>), RuntimeError> {
        self.enter()?;
        let plies = i64::from(depth);
        let plans: Plans = [None, None];
        let node = Node {
            position: position.clone(),
            // @section node_depth
            depth: 1,
            // @end node_depth
            // @section node_plies
            plies,
            // @end node_plies
        };
        match self.consult(node, &plans)? {
            // @section outcome_move
            Outcome::Move(mv, v) => {
                *partial = Some((mv, v));
                return Ok((mv, v, vec![mv]));
            }
            // @end outcome_move
            // @section outcome_value
            Outcome::Value(_) => {}
            // @end outcome_value
            Outcome::Leave => {}
        }
        let lead = first.and_then(|f| moves.iter().position(|&m| m == f));
        let mut order: Vec<usize> = lead.into_iter().collect();
        order.extend((0..moves.len()).filter(|&i| Some(i) != lead));
        let mut best: Option<(usize, Move, i64)> = None;
        let mut line = Vec::new();
        for i in order {
            let Some(&mv) = moves.get(i) else {
                continue;
            };
            let alpha = match best {
                None => i64::MIN + 1,
                Some((at, _, b)) if i < at => b.saturating_sub(1),
                Some((_, _, b)) => b,
            };
            let child = position.play(mv);
            let v = self
                .value(
                    &child,
                    plies - 1,
                    2,
                    &plans,
                    i64::MIN + 1,
                    alpha.saturating_neg(),
                )?
                .wrapping_neg();
            let better = match best {
                None => true,
                Some((at, _, b)) if i < at => v >= b,
                Some((_, _, b)) => v > b,
            };
            if better {
                best = Some((i, mv, v));
                *partial = Some((mv, v));
                line.clear();
                line.push(mv);
                line.extend_from_slice(self.pv.get(2).map_or(&[][..], |l| &l[..]));
            }
        }
        match best {
            Some((_, mv, v)) => Ok((mv, v, line)),
            None => Err(stop_signal()),
        }
    }
}

/// Searches `position` (§7.3, §7.5) by iterative deepening: depth
/// `limits.from`, then one more each time, up to `limits.depth`, each a complete §7.3 search at that depth with
/// the history's draws, reported to `watch` when it completes, until a
/// limit or the watch stops it. The answer is the deepest completed
/// depth's best move and score; stopped before depth 1 completed, the best
/// root move searched so far, else the first legal move (§7.5). With the
/// program consulted, or without it (`program` = `None`, `--no-endgame`);
/// `table` is emptied first. `BREAK` lines go to `breaks` (standard
/// error). A position without a legal move is answered with `best` =
/// `None` and its §6.2 value at DEPTH 1.
pub fn search(
    position: &Position,
    limits: Limits,
    program: Option<&dyn Endgame>,
    table: &mut Table,
    history: &History,
    watch: &mut dyn Watch,
    // @section break
    breaks: &mut dyn Write,
    // @end break
) -> Result<SearchResult, RuntimeError> {
    let moves = position.legal_moves();
    let Some(&first_legal) = moves.first() else {
        return Ok(SearchResult {
            best: None,
            score: no_move_value(position, 1),
            nodes: 1,
            depth: 0,
            pv: Vec::new(),
            stopped: false,
        });
    };
    table.new_search();
    let mut search = Search {
        program,
        // @section break
        breaks,
        // @end break
        nodes: 0,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        watch,
        ticks: 0,
        stopped: false,
        table,
        history,
        endgame_key: if program.is_some() {
            mix(0x0e96_a3e5)
        } else {
            0
        },
        pv: vec![Vec::new(); MAX_PLY],
        killers: vec![[None, None]; MAX_PLY],
    };
    let mut done: Option<(Move, i64, Vec<Move>, u32)> = None;
    let mut partial: Option<(Move, i64)> = None;
    let last = limits.depth.clamp(1, MAX_DEPTH);
    let mut depth = limits.from.clamp(1, last);
    while depth <= last {
        let first = done.as_ref().map(|d| d.0);
        match search.root(position, &moves, depth, first, &mut partial) {
            Ok((mv, v, pv)) => {
                let report = Report {
                    depth,
                    score: v,
                    nodes: search.nodes,
                    pv: pv.clone(),
                };
                done = Some((mv, v, pv, depth));
                if !search.watch.completed(&report) {
                    break;
                }
                depth += 1;
            }
            Err(_) if search.stopped => break,
            Err(_) if limits.exact && depth < last => depth = last,
            Err(error) => return Err(error),
        }
    }
    let (nodes, stopped) = (search.nodes, search.stopped);
    Ok(match done {
        Some((mv, v, pv, depth)) => SearchResult {
            best: Some(mv),
            score: v,
            nodes,
            depth,
            pv,
            stopped,
        },
        None => {
            let (mv, v) = partial.unwrap_or((first_legal, 0));
            SearchResult {
                best: Some(mv),
                score: v,
                nodes,
                depth: 0,
                pv: vec![mv],
                stopped,
            }
        }
    })
}
