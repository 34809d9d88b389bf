//! The CHEG engine (`spec/cheg.md` §6, §7.3): values (§2), conditions and
//! orderings (§4), the instructions' semantics (§5), the search that
//! consults the endgame program (§6, §7.3) and runtime errors (§9).
//!
//! Std only, no unsafe, never panics. Embedded verbatim into generated Rust
//! beside `chess` and `uci`: it refers to them as `super::chess` and
//! `super::uci`, and to nothing else.
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
//! [`search_root`] computes exactly the value of §7.3 by plain minimax with
//! quiescence: every move of every node is searched, in §7.2 order, and
//! the root keeps the first move with the greatest value (a later move
//! replaces it only with a strictly greater value). Nothing is pruned, so
//! every runtime error and `BREAK` of the plain definition happens
//! (§11.23).

// Generated Rust embeds this file and builds with edition 2021: no let
// chains, so nested `if let`s stay nested.
#![allow(clippy::collapsible_if)]

use super::chess::{Colour, Kind, Move, Piece, Position, Square};
use std::io::Write;
use std::rc::Rc;

/// Statements one invocation may execute (§5.2, §11.16).
pub const MAX_STATEMENTS: u64 = 1_000_000;
/// Calls that may be active at once (§5.2, §11.16).
pub const MAX_CALLS: usize = 1_000;
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

/// The result of a search from the root (§7.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// Its value in 1/128 pawn from the side to move's view (§6.2).
    pub score: i64,
    /// Nodes visited, quiescence nodes included (§11.20).
    pub nodes: u64,
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
    /// T or F.
    Logical(bool),
    /// A signed 64-bit integer; arithmetic wraps.
    Integer(i64),
    /// An ordered list of values.
    Set(Items),
    /// A piece: a snapshot of colour, kind and square (§11.2).
    Piece(Piece),
    /// A square.
    Square(Square),
    /// A move: the moving piece, its destination and promotion (§2).
    Move(MoveValue),
}

/// The elements of a set value, shared (reference counted) by the values
/// that hold them and copied on write ([`Items::edit`]).
#[derive(Clone, Default)]
pub struct Items(Rc<Vec<Value>>);

impl Items {
    /// The elements, to change: copied first when another value holds
    /// them too (copy on write), else in place.
    pub fn edit(&mut self) -> &mut Vec<Value> {
        Rc::make_mut(&mut self.0)
    }
}

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
                (Value::Set(p), Value::Set(q)) => {
                    if !Rc::ptr_eq(&p.0, &q.0) {
                        if p.len() != q.len() {
                            return false;
                        }
                        pending.push((p, q));
                    }
                    true
                }
                (Value::Undefined, Value::Undefined) => true,
                (Value::Logical(p), Value::Logical(q)) => p == q,
                (Value::Integer(p), Value::Integer(q)) => p == q,
                (Value::Piece(p), Value::Piece(q)) => p == q,
                (Value::Square(p), Value::Square(q)) => p == q,
                (Value::Move(p), Value::Move(q)) => p == q,
                _ => false,
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

impl std::hash::Hash for Value {
    /// Agrees with §2 equality; nested sets are walked with an explicit
    /// stack.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut pending: Vec<&Value> = vec![self];
        while let Some(value) = pending.pop() {
            match value {
                Value::Undefined => state.write_u8(0),
                Value::Logical(b) => state.write_u8(1 + u8::from(*b)),
                Value::Integer(n) => {
                    state.write_u8(3);
                    state.write_i64(*n);
                }
                Value::Set(items) => {
                    state.write_u8(4);
                    state.write_usize(items.len());
                    pending.extend(items.iter().rev());
                }
                Value::Piece(p) => {
                    state.write_u8(5);
                    p.hash(state);
                }
                Value::Square(s) => {
                    state.write_u8(6);
                    state.write_u8(*s);
                }
                Value::Move(m) => {
                    state.write_u8(7);
                    m.hash(state);
                }
            }
        }
    }
}

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

fn square_text(square: Square) -> String {
    super::chess::square_name(square)
}

/// The text of a value that is not a set (§9).
fn write_scalar(f: &mut std::fmt::Formatter<'_>, value: &Value) -> std::fmt::Result {
    match value {
        Value::Undefined => write!(f, "#"),
        Value::Logical(true) => write!(f, "T"),
        Value::Logical(false) => write!(f, "F"),
        Value::Integer(n) => write!(f, "{n}"),
        Value::Square(s) => write!(f, "{}", square_text(*s)),
        Value::Piece(p) => {
            let letter = p.kind.letter();
            let letter = match p.colour {
                Colour::White => letter.to_ascii_uppercase(),
                Colour::Black => letter.to_ascii_lowercase(),
            };
            write!(f, "{letter}{}", square_text(p.square))
        }
        Value::Move(m) => write!(f, "{}", m.board_move().to_uci()),
        Value::Set(items) => write_list(f, items),
    }
}

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
        match item {
            Value::Set(inner) => {
                write!(f, "(")?;
                open.push((inner.iter(), true));
            }
            scalar => write_scalar(f, scalar)?,
        }
    }
    Ok(())
}

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

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Undefined => "undefined",
        Value::Logical(_) => "logical",
        Value::Integer(_) => "integer",
        Value::Set(_) => "set",
        Value::Piece(_) => "piece",
        Value::Square(_) => "square",
        Value::Move(_) => "move",
    }
}

fn wrong(expected: &str, value: &Value) -> Fault {
    format!("expected {expected}, got {} {value}", type_name(value))
}

fn integer(value: &Value) -> Result<i64, Fault> {
    match value {
        Value::Integer(n) => Ok(*n),
        other => Err(wrong("an integer", other)),
    }
}

fn logical(value: &Value) -> Result<bool, Fault> {
    match value {
        Value::Logical(b) => Ok(*b),
        other => Err(wrong("a logical", other)),
    }
}

fn set(value: &Value) -> Result<&[Value], Fault> {
    match value {
        Value::Set(items) => Ok(items),
        other => Err(wrong("a set", other)),
    }
}

fn set_owned(value: Value) -> Result<Items, Fault> {
    match value {
        Value::Set(items) => Ok(items),
        other => Err(wrong("a set", &other)),
    }
}

fn move_value(value: &Value) -> Result<MoveValue, Fault> {
    match value {
        Value::Move(m) => Ok(*m),
        other => Err(wrong("a move", other)),
    }
}

/// King distance between two squares.
pub fn king_distance(a: Square, b: Square) -> i64 {
    let (af, ar) = (i64::from(a % 8), i64::from(a / 8));
    let (bf, br) = (i64::from(b % 8), i64::from(b / 8));
    (af - bf).abs().max((ar - br).abs())
}

/// Distant opposition (§4): file and rank differences both even, not both
/// zero.
pub fn opposition(a: Square, b: Square) -> bool {
    let df = i64::from(a % 8) - i64::from(b % 8);
    let dr = i64::from(a / 8) - i64::from(b / 8);
    df % 2 == 0 && dr % 2 == 0 && !(df == 0 && dr == 0)
}

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

// ------------------------------------------------------------- node view

/// A node of the main search as the program sees it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position.
    pub position: Position,
    /// DEPTH: the node's ply, 1 at the root.
    pub depth: i64,
    /// PLIES: the plies left, r of §7.3.
    pub plies: i64,
}

impl Node {
    fn mover(&self) -> Colour {
        self.position.side_to_move()
    }

    /// §3 rank (1–8) of a square, from the side to move's first rank.
    pub fn rank(&self, square: Square) -> i64 {
        let r = i64::from(square / 8);
        match self.mover() {
            Colour::White => r + 1,
            Colour::Black => 8 - r,
        }
    }

    /// §3 file: h = 1 … a = 8.
    pub fn file(square: Square) -> i64 {
        8 - i64::from(square % 8)
    }

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

    /// `SIDE` of a square: 0 for files h–e, 1 for d–a.
    pub fn side_of(square: Square) -> i64 {
        i64::from(square % 8 < 4)
    }

    /// The piece a value specifies (§2 coercion; §11.3).
    pub fn piece(&self, value: &Value) -> Result<Piece, Fault> {
        match value {
            Value::Piece(p) => Ok(*p),
            Value::Move(m) => Ok(m.piece),
            Value::Square(s) => self
                .position
                .piece_at(*s)
                .ok_or_else(|| format!("no piece on {}", square_text(*s))),
            other => Err(wrong("a piece", other)),
        }
    }

    /// The square a value specifies (§2 coercion).
    pub fn square(value: &Value) -> Result<Square, Fault> {
        match value {
            Value::Square(s) => Ok(*s),
            Value::Piece(p) => Ok(p.square),
            Value::Move(m) => Ok(m.to),
            other => Err(wrong("a square", other)),
        }
    }

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

    /// Static evaluation (§6.2): material, side to move minus the other.
    pub fn static_eval(&self) -> i64 {
        let worth = |c: Colour| {
            let p = &self.position;
            i64::from(p.count(c, Kind::Pawn)) * 128
                + i64::from(p.count(c, Kind::Knight)) * 384
                + i64::from(p.count(c, Kind::Bishop)) * 400
                + i64::from(p.count(c, Kind::Rook)) * 640
                + i64::from(p.count(c, Kind::Queen)) * 1152
        };
        worth(self.mover()) - worth(self.mover().other())
    }

    /// The board move of a move value if it is legal here (§11.2).
    fn legal(&self, m: MoveValue) -> Option<Move> {
        let on = self.position.piece_at(m.piece.square)?;
        if on != m.piece {
            return None;
        }
        let mv = m.board_move();
        self.position.is_legal(mv).then_some(mv)
    }

    /// A condition's test applied to a value (§4); `side` is `SIDE`.
    pub fn test(&self, test: Test, value: &Value, side: &Value) -> Result<bool, Fault> {
        let side_int = || match side {
            Value::Integer(n) => Ok(*n),
            other => Err(format!(
                "SIDE must be an integer here, got {} {other}",
                type_name(other)
            )),
        };
        Ok(match test {
            Test::Defd => *value != Value::Undefined,
            Test::Zero => integer(value)? == 0,
            Test::Negative => integer(value)? < 0,
            Test::Positive => integer(value)? > 0,
            Test::Odd => integer(value)? % 2 != 0,
            Test::True => logical(value)?,
            Test::Empty => set(value)?.is_empty(),
            Test::Far => Node::side_of(Node::square(value)?) != side_int()?,
            Test::RookFile => matches!(Node::square(value)? % 8, 0 | 7),
            Test::KnightFile => matches!(Node::square(value)? % 8, 1 | 6),
            Test::Nnf => {
                let s = Node::square(value)?;
                matches!(s % 8, 1 | 6) && Node::side_of(s) == side_int()?
            }
            Test::LightSquare => {
                let s = Node::square(value)?;
                (s % 8 + s / 8) % 2 == 1
            }
            Test::Kind(kind) => self.piece(value)?.kind == kind,
            Test::MoverPiece => self.piece(value)?.colour == self.mover(),
            Test::Passed => {
                let p = self.pawn(value)?;
                self.passed(p)
            }
            Test::PawnDefended => {
                let p = self.pawn(value)?;
                self.pawn_defended(p)
            }
            Test::Capture => {
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
            Test::Check => {
                let m = move_value(value)?;
                self.legal(m)
                    .is_some_and(|mv| self.position.gives_check(mv))
            }
            Test::Safe => {
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
            Test::Opposition => {
                let m = move_value(value)?;
                let wk = self.needed(true, Kind::King, "WK")?;
                let bk = self.needed(false, Kind::King, "BK")?;
                let wk = if m.piece.kind == Kind::King { m.to } else { wk };
                opposition(wk, bk)
            }
            Test::KeepsKingRank => {
                let m = move_value(value)?;
                if m.piece.kind == Kind::King {
                    let wk = self.needed(true, Kind::King, "WK")?;
                    m.to / 8 == wk / 8
                } else {
                    true
                }
            }
        })
    }

    fn needed(&self, mover: bool, kind: Kind, name: &str) -> Result<Square, Fault> {
        match self.piece_variable(mover, kind, 0) {
            Value::Piece(p) => Ok(p.square),
            _ => Err(format!("{name} is undefined")),
        }
    }

    fn pawn(&self, value: &Value) -> Result<Piece, Fault> {
        let p = self.piece(value)?;
        if p.kind == Kind::Pawn {
            Ok(p)
        } else {
            Err(format!("expected a pawn, got {}", Value::Piece(p)))
        }
    }

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

    /// `DEEP` order key: destination's §3 rank.
    fn deep_key(&self, value: &Value) -> Result<i64, Fault> {
        Ok(self.rank(move_value(value)?.to))
    }

    /// Orders moves by `ordering` (stable).
    pub fn order(&self, items: &mut [Value], ordering: Ordering) -> Result<(), Fault> {
        if ordering == Ordering::AsGiven {
            return Ok(());
        }
        let mut keyed = Vec::with_capacity(items.len());
        for item in items.iter() {
            keyed.push((self.deep_key(item)?, item.clone()));
        }
        match ordering {
            Ordering::Deep => keyed.sort_by_key(|k| std::cmp::Reverse(k.0)),
            _ => keyed.sort_by_key(|k| k.0),
        }
        for (slot, (_, item)) in items.iter_mut().zip(keyed) {
            *slot = item;
        }
        Ok(())
    }
}

// ------------------------------------------------- the program's language

/// A variable (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    /// A user variable: its slot; undefined at the start of each invocation.
    User(u32),
    /// `X`: read-only.
    X,
    /// `DEPTH`: read-only.
    Depth,
    /// `PLIES`: read-only.
    Plies,
    /// `LM`: read-only.
    Lm,
    /// `PG`: read-only.
    Pg,
    /// `SIDE`: predefined and writable.
    Side,
    /// A piece variable (`WK`, `BR2`, `WP8`, …): read-only.
    Piece {
        /// `true` for W (the side to move), `false` for B.
        mover: bool,
        /// The kind.
        kind: Kind,
        /// 0-based index among that kind's variables: `WR2` is 1.
        index: u8,
    },
}

impl Var {
    /// True for the variables a program may write: user variables and
    /// `SIDE` (§3).
    pub fn is_writable(self) -> bool {
        matches!(self, Var::User(_) | Var::Side)
    }
}

/// A comparison of `JUMP…` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `<`
    Lt,
    /// `=`
    Eq,
    /// `>`
    Gt,
    /// `#<`
    NotLt,
    /// `#=`
    Ne,
    /// `#>`
    NotGt,
}

/// Compares two values (§5.1): `=`/`#=` any types (§2 equality), the
/// others integers.
pub fn compare(cmp: Compare, a: &Value, b: &Value) -> Result<bool, Fault> {
    Ok(match cmp {
        Compare::Eq => a == b,
        Compare::Ne => a != b,
        Compare::Lt => integer(a)? < integer(b)?,
        Compare::Gt => integer(a)? > integer(b)?,
        Compare::NotLt => integer(a)? >= integer(b)?,
        Compare::NotGt => integer(a)? <= integer(b)?,
    })
}

/// The test of a condition (§4), before negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// `DEFD`
    Defd,
    /// `=0`
    Zero,
    /// `<0`
    Negative,
    /// `>0`
    Positive,
    /// `ODD`
    Odd,
    /// `T`
    True,
    /// `EMPTY`
    Empty,
    /// `FAR`
    Far,
    /// `RF`
    RookFile,
    /// `NF`
    KnightFile,
    /// `NNF`
    Nnf,
    /// `WSQ`
    LightSquare,
    /// `KING` `QUEEN` `ROOK` `BISH` `NIGHT` `PAWN`
    Kind(Kind),
    /// `WPC`
    MoverPiece,
    /// `PASSD`
    Passed,
    /// `PDP`
    PawnDefended,
    /// `CAPT`
    Capture,
    /// `CHECK`
    Check,
    /// `SAFE`
    Safe,
    /// `OPP`
    Opposition,
    /// `RWK=`
    KeepsKingRank,
}

/// A written condition: a test, possibly negated with `#`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// `#` in front.
    pub negated: bool,
    /// The test.
    pub test: Test,
}

/// A condition argument (§4): `None` where it is empty ("always").
pub type Cond = Option<Condition>;

/// An ordering (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// Empty: as given.
    AsGiven,
    /// `DEEP`: more advanced destination rank first.
    Deep,
    /// `#DEEP`: the reverse.
    Shallow,
}

/// Instructions of the form `OP w,a,b` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    /// `SETSQ w,r,f`
    SetSq,
    /// `SETMOV w,p,s`
    SetMov,
    /// `PAIR`
    Pair,
    /// `MEMBER`
    Member,
    /// `MEMNUM`
    MemNum,
    /// `INTERS`
    Inters,
    /// `UNION`
    Union,
    /// `DIFFER`
    Differ,
    /// `APPEND`
    Append,
    /// `GETEL w,s,i`
    GetEl,
    /// `MVDIST`
    MvDist,
    /// `INSQ`
    InSq,
    /// `OPP`
    Opp,
    /// `SQ>RNK`
    SqRank,
    /// `NOR`
    Nor,
    /// `AND`
    And,
    /// `OR`
    Or,
    /// `ADD`
    Add,
    /// `SUB`
    Sub,
    /// `MUL`
    Mul,
    /// `DIV`
    Div,
    /// `MOD`
    Mod,
    /// `DIF`
    Dif,
    /// `MIN`
    Min,
    /// `MAX`
    Max,
}

/// Instructions of the form `OP w,v` (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    /// `SETV`
    SetV,
    /// `CARD`
    Card,
    /// `PIECE`
    Piece,
    /// `SQUARE`
    Square,
    /// `SIDE w,s`
    Side,
    /// `RANK`
    Rank,
    /// `FILE`
    File,
    /// `SCOLOR`
    SColor,
    /// `PCOLOR`
    PColor,
    /// `ABS`
    Abs,
}

/// The three move-playing instructions (§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayKind {
    /// `PLAY`
    Play,
    /// `PLAYB`
    PlayB,
    /// `TRY`
    Try,
}

/// The four value instructions (§6.2–§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `VALRET`
    ValRet,
    /// `VALRUT`
    ValRut,
    /// `VALON`
    ValOn,
    /// `RETBET`
    RetBet,
}

/// The three calls that return a value into a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    /// `SET w,t,v`
    Set,
    /// `SELECT w,t,v`
    Select,
    /// `MAP w,t,v`
    Map,
}

/// Computes `OP a,b` (§5.1).
pub fn binary(node: &Node, op: Binary, a: &Value, b: &Value) -> Result<Value, Fault> {
    combine(node, op, a.clone(), b)
}

/// [`binary`] taking `a`: `APPEND` and `UNION` extend a set that nothing
/// else holds in place.
fn combine(node: &Node, op: Binary, owned: Value, b: &Value) -> Result<Value, Fault> {
    use Binary::*;
    let a = &owned;
    Ok(match op {
        SetSq => node
            .square_at(integer(a)?, integer(b)?)
            .map_or(Value::Undefined, Value::Square),
        SetMov => {
            let piece = node.piece(a)?;
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
        Pair => Value::Set(vec![a.clone(), b.clone()].into()),
        Member => Value::Logical(set(b)?.contains(a)),
        MemNum => Value::Integer(
            set(b)?
                .iter()
                .position(|e| e == a)
                .map_or(0, |i| i as i64 + 1),
        ),
        Inters => {
            let b = set(b)?;
            Value::Set(set(a)?.iter().filter(|e| b.contains(e)).cloned().collect())
        }
        Differ => {
            let b = set(b)?;
            Value::Set(set(a)?.iter().filter(|e| !b.contains(e)).cloned().collect())
        }
        Union => {
            let mut items = set_owned(owned)?;
            let more: Vec<Value> = set(b)?
                .iter()
                .filter(|e| !items.contains(e))
                .cloned()
                .collect();
            items.edit().extend(more);
            Value::Set(items)
        }
        Append => {
            let mut items = set_owned(owned)?;
            match b {
                Value::Set(more) => items.edit().extend(more.iter().cloned()),
                other => items.edit().push(other.clone()),
            }
            Value::Set(items)
        }
        GetEl => {
            let items = set(a)?;
            items[index(items.len(), integer(b)?, false)?].clone()
        }
        MvDist => Value::Integer(king_distance(Node::square(a)?, Node::square(b)?)),
        InSq => {
            let k = node.piece(a)?;
            let p = node.piece(b)?;
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
            let t = i64::from(k.colour == node.mover());
            Value::Logical(king_distance(k.square, q) - t <= n)
        }
        Opp => Value::Logical(opposition(Node::square(a)?, Node::square(b)?)),
        SqRank => {
            let s = Node::square(a)?;
            let k = integer(b)?;
            node.square_at(node.rank(s).wrapping_add(k), Node::file(s))
                .map_or(Value::Undefined, Value::Square)
        }
        Nor => Value::Logical(!(logical(a)? || logical(b)?)),
        And => Value::Logical(logical(a)? && logical(b)?),
        Or => Value::Logical(logical(a)? || logical(b)?),
        Add => Value::Integer(integer(a)?.wrapping_add(integer(b)?)),
        Sub => Value::Integer(integer(a)?.wrapping_sub(integer(b)?)),
        Mul => Value::Integer(integer(a)?.wrapping_mul(integer(b)?)),
        Div | Mod => {
            let (x, y) = (integer(a)?, integer(b)?);
            if y == 0 {
                return Err("division by zero".into());
            }
            Value::Integer(if op == Div {
                x.wrapping_div(y)
            } else {
                x.wrapping_rem(y)
            })
        }
        Dif => Value::Integer(integer(a)?.wrapping_sub(integer(b)?).wrapping_abs()),
        Min => Value::Integer(integer(a)?.min(integer(b)?)),
        Max => Value::Integer(integer(a)?.max(integer(b)?)),
    })
}

/// Computes `OP v` (§5.1).
pub fn unary(node: &Node, op: Unary, v: &Value) -> Result<Value, Fault> {
    Ok(match op {
        Unary::SetV => v.clone(),
        Unary::Card => Value::Integer(set(v)?.len() as i64),
        Unary::Piece => Value::Piece(node.piece(v)?),
        Unary::Square => Value::Square(Node::square(v)?),
        Unary::Side => Value::Integer(Node::side_of(Node::square(v)?)),
        Unary::Rank => Value::Integer(node.rank(Node::square(v)?)),
        Unary::File => Value::Integer(Node::file(Node::square(v)?)),
        Unary::SColor => {
            let s = Node::square(v)?;
            Value::Integer(if (s % 8 + s / 8) % 2 == 1 { 0 } else { 1 })
        }
        Unary::PColor => Value::Integer(i64::from(node.piece(v)?.colour != node.mover())),
        Unary::Abs => Value::Integer(integer(v)?.wrapping_abs()),
    })
}

/// `SETEL v,u,i`: the set with its i-th element replaced.
pub fn set_element(value: Value, u: Value, i: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, false)?;
    items.edit()[at] = value;
    Ok(Value::Set(items))
}

/// `INSERT v,u,i`: the set with v inserted before its i-th element (i =
/// card+1: at the end).
pub fn insert_element(value: Value, u: Value, i: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, true)?;
    items.edit().insert(at, value);
    Ok(Value::Set(items))
}

/// `UNSERT w,u,i`: (the removed element, the rest).
pub fn remove_element(u: Value, i: &Value) -> Result<(Value, Value), Fault> {
    let mut items = set_owned(u)?;
    let at = index(items.len(), integer(i)?, false)?;
    let removed = items.edit().remove(at);
    Ok((removed, Value::Set(items)))
}

/// `EXCHWE u1,u2,i`: (new u1, new u2).
pub fn exchange_element(u1: Value, u2: Value, i: &Value) -> Result<(Value, Value), Fault> {
    let mut items = set_owned(u2)?;
    let at = index(items.len(), integer(i)?, false)?;
    let old = std::mem::replace(&mut items.edit()[at], u1);
    Ok((old, Value::Set(items)))
}

/// `EXCHEL u,i,j`.
pub fn exchange_elements(u: Value, i: &Value, j: &Value) -> Result<Value, Fault> {
    let mut items = set_owned(u)?;
    let a = index(items.len(), integer(i)?, false)?;
    let b = index(items.len(), integer(j)?, false)?;
    items.edit().swap(a, b);
    Ok(Value::Set(items))
}

// ------------------------------------------------------ the program hook

/// What a call does with its result when the subroutine returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    /// `SET w,t,v`: store it.
    Store(Var),
    /// `COND c,t1,t2`: if it satisfies c go to t2.
    Cond(Cond, usize),
    /// `CONDT`/`CONDF`: a logical; go to the target if it equals the flag.
    CondTF(bool, usize),
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
}

/// Where control goes after one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The next statement.
    Next,
    /// A jump.
    Goto(usize),
    /// Call `sub` with `X` = `arg`; `then` says what to do with the result.
    Call {
        /// The subroutine's first statement.
        sub: usize,
        /// X for the call.
        arg: Value,
        /// The continuation.
        then: Then,
    },
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
    /// `RETURN v`.
    Return(Value),
    /// An `ENTRY` or `END` line was reached.
    Fence,
    /// The invocation ends with `LEAVE` (§6.3).
    Leave,
    /// The invocation's outcome is decided (a node value, or a move at the
    /// root).
    Outcome(Outcome),
}

/// An invocation's outcome (§6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Proceed as if the program were absent.
    Leave,
    /// The node's value.
    Value(i64),
    /// At the root: a move and its value.
    Move(Move, i64),
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
    /// Pawn difference condition: (comparison, m).
    pub pawn_diff: Option<(Compare, i8)>,
}

/// The endgame program as the search sees it: implemented by the
/// interpreter (walking the IR) and by generated code (a `match` on the
/// statement number).
pub trait Endgame {
    /// The `ENTRY` lines in source order.
    fn entries(&self) -> &[EntrySpec];
    /// The source line of statement `pc` (for errors and `BREAK`).
    fn line(&self, pc: usize) -> u32;
    /// How many user variables the program has.
    fn user_vars(&self) -> usize;
    /// Executes statement `pc` and says where control goes.
    fn step(&self, pc: usize, inv: &mut Invocation<'_, '_>) -> Result<Step, Error>;
}

/// A plan (§6.4): the tag's statement and the plan variable.
type Plan = Option<(usize, Value)>;

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

/// One invocation (§6.1): the node, the variables, the state of §6.3.
pub struct Invocation<'s, 'p> {
    /// The node.
    pub node: Node,
    /// `X`.
    pub x: Value,
    /// `SIDE`.
    pub side: Value,
    /// User variables by slot.
    pub vars: Vec<Value>,
    /// True at the root.
    root: bool,
    /// The plans moves searched by this invocation carry (§11.15).
    plans: Plans,
    /// `TRY`/`PLAN`'s best (move, value).
    best: Option<(Move, i64)>,
    /// The value `VALON`/`VALRUT` remembered.
    remembered: Option<i64>,
    search: &'s mut Search<'p>,
}

/// The search's shared state.
pub struct Search<'p> {
    program: Option<&'p dyn Endgame>,
    breaks: &'p mut dyn Write,
    nodes: u64,
}

impl Invocation<'_, '_> {
    /// Reads a variable (§3).
    pub fn read(&self, var: Var) -> Value {
        match var {
            Var::User(slot) => self
                .vars
                .get(slot as usize)
                .cloned()
                .unwrap_or(Value::Undefined),
            Var::X => self.x.clone(),
            Var::Depth => Value::Integer(self.node.depth),
            Var::Plies => Value::Integer(self.node.plies),
            Var::Lm => self.node.legal_moves(),
            Var::Pg => self.node.pawn_groups(),
            Var::Side => self.side.clone(),
            Var::Piece { mover, kind, index } => {
                let node = &self.node;
                node.piece_variable(mover, kind, index)
            }
        }
    }

    /// Writes a variable (only user variables and `SIDE` are writable; the
    /// front end guarantees it).
    pub fn write(&mut self, var: Var, value: Value) {
        match var {
            Var::User(slot) => {
                if let Some(v) = self.vars.get_mut(slot as usize) {
                    *v = value;
                }
            }
            Var::Side => self.side = value,
            _ => {}
        }
    }

    /// Takes the value of a U argument (§4) to change it, leaving the
    /// variable undefined until it is written back: a set that only the
    /// variable held is then changed in place, not copied (§2's value
    /// semantics, copy on write). A runtime error in between ends the
    /// search, so nothing sees the variable undefined.
    fn take(&mut self, var: Var) -> Value {
        match var {
            Var::User(slot) => self
                .vars
                .get_mut(slot as usize)
                .map(std::mem::take)
                .unwrap_or(Value::Undefined),
            Var::Side => std::mem::take(&mut self.side),
            other => self.read(other),
        }
    }

    /// A condition applied to a value (§4); an empty one is always true.
    pub fn test(&self, cond: Cond, value: &Value) -> Result<bool, Fault> {
        match cond {
            None => Ok(true),
            Some(c) => Ok(self.node.test(c.test, value, &self.side)? != c.negated),
        }
    }

    /// `OP w,v` (§5.1).
    pub fn unary(&mut self, op: Unary, dst: Var, v: &Value) -> Result<(), Fault> {
        let value = unary(&self.node, op, v)?;
        self.write(dst, value);
        Ok(())
    }

    /// `OP w,a,b` (§5.1). `w`'s old value is let go first (a runtime
    /// error ends the search, so nothing can see it missing): when `a` is
    /// the set `w` held and nothing else holds it, `APPEND w,w,b` and
    /// `UNION w,w,b` extend it in place.
    pub fn binop(&mut self, op: Binary, w: Var, a: Value, b: &Value) -> Result<(), Fault> {
        self.write(w, Value::Undefined);
        let value = combine(&self.node, op, a, b)?;
        self.write(w, value);
        Ok(())
    }

    /// `EXCH u1,u2`.
    pub fn exch(&mut self, u1: Var, u2: Var) {
        let (a, b) = (self.read(u1), self.read(u2));
        self.write(u1, b);
        self.write(u2, a);
    }

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

    /// `SETEL v,u,i`.
    pub fn set_element(&mut self, v: Value, u: Var, i: &Value) -> Result<(), Fault> {
        let updated = set_element(v, self.take(u), i)?;
        self.write(u, updated);
        Ok(())
    }

    /// `INSERT v,u,i`.
    pub fn insert(&mut self, v: Value, u: Var, i: &Value) -> Result<(), Fault> {
        let updated = insert_element(v, self.take(u), i)?;
        self.write(u, updated);
        Ok(())
    }

    /// `UNSERT w,u,i`: all read first, then written left to right (§11.9).
    pub fn unsert(&mut self, w: Var, u: Var, i: &Value) -> Result<(), Fault> {
        let (removed, rest) = remove_element(self.take(u), i)?;
        self.write(w, removed);
        self.write(u, rest);
        Ok(())
    }

    /// `EXCHWE u1,u2,i` (§11.9).
    pub fn exchwe(&mut self, u1: Var, u2: Var, i: &Value) -> Result<(), Fault> {
        let (a, updated) = exchange_element(self.read(u1), self.take(u2), i)?;
        self.write(u1, a);
        self.write(u2, updated);
        Ok(())
    }

    /// `EXCHEL u,i,j`.
    pub fn exchel(&mut self, u: Var, i: &Value, j: &Value) -> Result<(), Fault> {
        let updated = exchange_elements(self.take(u), i, j)?;
        self.write(u, updated);
        Ok(())
    }

    /// `CONDV c,v,t` and `JUMP… a,b,t`: where control goes.
    pub fn branch(taken: bool, target: usize) -> Step {
        if taken {
            Step::Goto(target)
        } else {
            Step::Next
        }
    }

    /// The step after an outcome instruction: `None` goes on.
    pub fn outcome(outcome: Option<Outcome>) -> Step {
        match outcome {
            None => Step::Next,
            Some(Outcome::Leave) => Step::Leave,
            Some(outcome) => Step::Outcome(outcome),
        }
    }

    /// `ORDER u1,u2,o`.
    pub fn order(&mut self, u1: Var, u2: Var, ordering: Ordering) -> Result<(), Fault> {
        let (a, b) = (self.read(u1), self.read(u2));
        if ordering == Ordering::AsGiven {
            return Ok(());
        }
        let (ka, kb) = (self.node.deep_key(&a)?, self.node.deep_key(&b)?);
        let swap = match ordering {
            Ordering::Deep => kb > ka,
            _ => kb < ka,
        };
        if swap {
            self.write(u1, b);
            self.write(u2, a);
        }
        Ok(())
    }

    /// `BREAK v1,v2,v3` at `line`.
    pub fn break_line(&mut self, line: u32, a: &Value, b: &Value, c: &Value) {
        let _ = writeln!(self.search.breaks, "break {line}: {a} {b} {c}");
    }

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
            PlayKind::Play => {
                let Some(first) = moves.first() else {
                    return Ok(None);
                };
                let value = self.remembered.unwrap_or_else(|| self.node.static_eval());
                let m = move_value(first)?;
                Ok(Some(if self.root {
                    Outcome::Move(m.board_move(), value)
                } else {
                    Outcome::Value(value)
                }))
            }
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
                    if self.root {
                        Outcome::Move(mv, v)
                    } else {
                        Outcome::Value(v)
                    }
                }))
            }
            PlayKind::Try => {
                self.try_moves(&moves)?;
                Ok(None)
            }
        }
    }

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

    /// `PLAN t,s,v` (§6.4).
    pub fn plan(&mut self, tag: usize, set: &Value, value: Value) -> Result<(), Error> {
        let me = colour_index(self.node.mover());
        self.plans[me] = Some((tag, value));
        let moves = self.moves_of(set, None, Ordering::AsGiven)?;
        self.try_moves(&moves)
    }

    /// `UNPLAN` (§6.4).
    pub fn unplan(&mut self) {
        let me = colour_index(self.node.mover());
        self.plans[me] = None;
    }

    /// `DONE` (§6.3).
    pub fn done(&self) -> Outcome {
        match self.best {
            None => Outcome::Leave,
            Some((mv, v)) if self.root => Outcome::Move(mv, v),
            Some((_, v)) => Outcome::Value(v),
        }
    }

    /// `VALRET`/`VALRUT`/`VALON`/`RETBET w,l,c` (§6.2–§6.3); `None`: go on.
    pub fn value(
        &mut self,
        kind: ValueKind,
        w: &Value,
        l: &Value,
        c: &Value,
    ) -> Result<Option<Outcome>, Fault> {
        let v = convert(integer(w)?, integer(l)?, integer(c)?, self.node.depth);
        Ok(match kind {
            ValueKind::ValRet if self.root => Some(Outcome::Leave),
            ValueKind::ValRet => Some(Outcome::Value(v)),
            ValueKind::ValRut if !self.root => Some(Outcome::Value(v)),
            ValueKind::ValRut | ValueKind::ValOn => {
                self.remembered = Some(v);
                None
            }
            ValueKind::RetBet => match self.best {
                Some((_, b)) if b > v => Some(self.done()),
                _ => None,
            },
        })
    }
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
            && e.pawn_diff.is_none_or(|(cmp, m)| {
                let m = i64::from(m);
                match cmp {
                    Compare::Lt => diff < m,
                    Compare::Gt => diff > m,
                    _ => diff == m,
                }
            });
        ok.then_some(e.start)
    })
}

impl Search<'_> {
    /// The value of a node with `plies` left at ply `depth` (§7.3), with
    /// the plans it inherited, searched with the window (`alpha`, `beta`)
    /// fail-soft: a result in the window is exact; one at or below `alpha`
    /// is an upper bound, one at or above `beta` a lower bound. Every rule
    /// of §7.3 takes a maximum or returns an exact value (the program's
    /// outcome, mate, stalemate), so the bounds are sound; the exact
    /// searches a program asks for (`TRY`, `PLAYB`, `PLAN`) use the full
    /// window.
    fn value(
        &mut self,
        position: &Position,
        plies: i64,
        depth: i64,
        plans: &Plans,
        mut alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        self.nodes += 1;
        let mut moves = Vec::new();
        position.generate(&mut moves);
        if moves.is_empty() {
            return Ok(no_move_value(position, depth));
        }
        if plies >= 0 {
            let node = Node {
                position: position.clone(),
                depth,
                plies,
            };
            match self.consult(node, false, plans)? {
                Outcome::Leave => {}
                Outcome::Value(v) | Outcome::Move(_, v) => return Ok(v),
            }
        }
        if plies <= 0 {
            return self.quiescence_moves(position, depth, &moves, alpha, beta);
        }
        // Below the root the order changes no value: captures first prune
        // more.
        moves.sort_by_key(|&mv| !position.is_capture(mv));
        let mut best = i64::MIN;
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
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }

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

    fn quiescence(
        &mut self,
        position: &Position,
        depth: i64,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        self.nodes += 1;
        let mut moves = Vec::new();
        position.generate(&mut moves);
        if moves.is_empty() {
            return Ok(no_move_value(position, depth));
        }
        self.quiescence_moves(position, depth, &moves, alpha, beta)
    }

    /// The quiescence value of a node with legal `moves` (§7.3 rule 3):
    /// the maximum of the static evaluation and of every capture's value.
    fn quiescence_moves(
        &mut self,
        position: &Position,
        depth: i64,
        moves: &[Move],
        mut alpha: i64,
        beta: i64,
    ) -> Result<i64, RuntimeError> {
        let node = Node {
            position: position.clone(),
            depth,
            plies: 0,
        };
        let mut best = node.static_eval();
        alpha = alpha.max(best);
        if alpha >= beta {
            return Ok(best);
        }
        for &mv in moves {
            if position.is_capture(mv) {
                let child = position.play(mv);
                let v = self
                    .quiescence(
                        &child,
                        depth + 1,
                        beta.saturating_neg(),
                        alpha.saturating_neg(),
                    )?
                    .wrapping_neg();
                best = best.max(v);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok(best)
    }

    /// Consults the program at a node with a legal move (§6.1): from the
    /// plan of the side to move, or the first matching `ENTRY`.
    fn consult(&mut self, node: Node, root: bool, plans: &Plans) -> Consulted {
        let Some(program) = self.program else {
            return Ok(Outcome::Leave);
        };
        let me = colour_index(node.mover());
        let (start, x) = match &plans[me] {
            Some((tag, v)) => (*tag, v.clone()),
            None => match match_entry(program.entries(), &node.position) {
                Some(start) => (start, Value::Undefined),
                None => return Ok(Outcome::Leave),
            },
        };
        run_invocation(self, program, node, root, plans.clone(), start, x)
    }
}

fn run_invocation(
    search: &mut Search<'_>,
    program: &dyn Endgame,
    node: Node,
    root: bool,
    plans: Plans,
    start: usize,
    x: Value,
) -> Result<Outcome, RuntimeError> {
    let fen = node.position.to_fen();
    // Reborrow the search for the invocation's lifetime.
    let mut inv = Invocation {
        node,
        x,
        side: Value::Undefined,
        vars: vec![Value::Undefined; program.user_vars()],
        root,
        plans,
        best: None,
        remembered: None,
        search,
    };
    let mut frames: Vec<Frame> = Vec::new();
    let mut pc = start;
    let mut executed: u64 = 0;
    let error = |pc: usize, message: String| RuntimeError {
        line: program.line(pc),
        message,
        fen: fen.clone(),
    };
    loop {
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
        match step {
            Step::Next => pc += 1,
            Step::Goto(target) => pc = target,
            Step::Call { sub, arg, then } => {
                if frames.len() >= MAX_CALLS {
                    return Err(error(
                        pc,
                        format!("calls nested more than {MAX_CALLS} deep (§5.2)"),
                    ));
                }
                let saved_x = std::mem::replace(&mut inv.x, arg);
                frames.push(Frame {
                    return_to: pc + 1,
                    saved_x,
                    then,
                });
                pc = sub;
            }
            Step::Each {
                kind,
                dst,
                sub,
                set: s,
            } => {
                let items = set_owned(s).map_err(|m| error(pc, m))?;
                if items.is_empty() {
                    inv.write(dst, Value::Set(Items::default()));
                    pc += 1;
                    continue;
                }
                if frames.len() >= MAX_CALLS {
                    return Err(error(
                        pc,
                        format!("calls nested more than {MAX_CALLS} deep (§5.2)"),
                    ));
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
                pc = sub;
            }
            Step::Return(value) => {
                let Some(frame) = frames.pop() else {
                    return Err(error(pc, "RETURN outside a subroutine (§5.2)".into()));
                };
                inv.x = frame.saved_x;
                let call_pc = frame.return_to - 1;
                match frame.then {
                    Then::Store(var) => {
                        inv.write(var, value);
                        pc = frame.return_to;
                    }
                    Then::Cond(cond, target) => {
                        let yes = inv.test(cond, &value).map_err(|m| error(call_pc, m))?;
                        pc = if yes { target } else { frame.return_to };
                    }
                    Then::CondTF(flag, target) => {
                        let b = match value {
                            Value::Logical(b) => b,
                            other => {
                                return Err(error(
                                    call_pc,
                                    format!(
                                        "the call must return a logical, got {} {other}",
                                        type_name(&other)
                                    ),
                                ));
                            }
                        };
                        pc = if b == flag { target } else { frame.return_to };
                    }
                    Then::Each {
                        kind,
                        dst,
                        sub,
                        items,
                        next,
                        mut acc,
                    } => {
                        match kind {
                            CallKind::Select => match value {
                                Value::Logical(true) => acc.push(items[next].clone()),
                                Value::Logical(false) => {}
                                other => {
                                    return Err(error(
                                        call_pc,
                                        format!(
                                            "SELECT's subroutine must return a logical, got {} {other}",
                                            type_name(&other)
                                        ),
                                    ));
                                }
                            },
                            _ => acc.push(value),
                        }
                        let next = next + 1;
                        if next >= items.len() {
                            inv.write(dst, Value::Set(acc.into()));
                            pc = frame.return_to;
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
                            pc = sub;
                        }
                    }
                }
            }
            Step::Fence => {
                if frames.is_empty() {
                    return Ok(Outcome::Leave);
                }
                return Err(error(
                    pc,
                    "a subroutine fell into an ENTRY or END line (§5.2)".into(),
                ));
            }
            Step::Leave => return Ok(Outcome::Leave),
            Step::Outcome(outcome) => return Ok(outcome),
        }
    }
}

/// Searches `position` to `depth` plies (1–20) with the program consulted
/// (§7.3), or without it (`program` = `None`, `--no-endgame`). `BREAK`
/// lines go to `breaks` (standard error). The best move is the first, in
/// §7.2 order, with the greatest value.
pub fn search_root(
    position: &Position,
    depth: u32,
    program: Option<&dyn Endgame>,
    breaks: &mut dyn Write,
) -> Result<SearchResult, RuntimeError> {
    let mut search = Search {
        program,
        breaks,
        nodes: 1,
    };
    let moves = position.legal_moves();
    if moves.is_empty() {
        let score = no_move_value(position, 1);
        return Ok(SearchResult {
            best: None,
            score,
            nodes: 1,
        });
    }
    let plies = i64::from(depth);
    let plans: Plans = [None, None];
    let node = Node {
        position: position.clone(),
        depth: 1,
        plies,
    };
    if let Outcome::Move(mv, v) = search.consult(node, true, &plans)? {
        return Ok(SearchResult {
            best: Some(mv),
            score: v,
            nodes: search.nodes,
        });
    }
    // The root in §7.2 order; a move replaces the best only with a
    // strictly greater value, so a later move needs only to be shown
    // better than the best: window (best, +inf), and a result above it is
    // exact.
    let mut best: Option<(Move, i64)> = None;
    for mv in moves {
        let child = position.play(mv);
        let alpha = best.map_or(i64::MIN + 1, |(_, b)| b);
        let v = search
            .value(
                &child,
                plies - 1,
                2,
                &plans,
                i64::MIN + 1,
                alpha.saturating_neg(),
            )?
            .wrapping_neg();
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
        }
    }
    Ok(SearchResult {
        best: best.map(|(mv, _)| mv),
        score: best.map_or(0, |(_, v)| v),
        nodes: search.nodes,
    })
}
