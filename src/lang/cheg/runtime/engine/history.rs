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
