/// A square, `0..64`: `rank * 8 + file`, a1 = 0, h1 = 7, a8 = 56, h8 = 63.
pub type Square = u8;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other side.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    fn index(self) -> usize {
        match self {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }
}

/// The kind of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// K
    King,
    /// Q
    Queen,
    /// R
    Rook,
    /// B
    Bishop,
    /// N
    Knight,
    /// P
    Pawn,
}

impl Kind {
    /// All kinds in the order of the piece variables (§3, §7.2).
    pub const ALL: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];

    /// How many piece variables the kind has per side (§3): K 1, Q 1, R 2,
    /// B 2, N 2, P 8.
    pub fn variable_count(self) -> u8 {
        match self {
            Kind::King | Kind::Queen => 1,
            Kind::Rook | Kind::Bishop | Kind::Knight => 2,
            Kind::Pawn => 8,
        }
    }

    /// Upper-case letter: K Q R B N P.
    pub fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        }
    }

    fn code(self) -> u8 {
        match self {
            Kind::King => KING,
            Kind::Queen => QUEEN,
            Kind::Rook => ROOK,
            Kind::Bishop => BISHOP,
            Kind::Knight => KNIGHT,
            Kind::Pawn => PAWN,
        }
    }

    fn from_code(code: u8) -> Option<Kind> {
        match code & 7 {
            KING => Some(Kind::King),
            QUEEN => Some(Kind::Queen),
            ROOK => Some(Kind::Rook),
            BISHOP => Some(Kind::Bishop),
            KNIGHT => Some(Kind::Knight),
            PAWN => Some(Kind::Pawn),
            _ => None,
        }
    }
}

/// A piece on a square: a snapshot (§11.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side (absolute colour).
    pub colour: Colour,
    /// Its kind.
    pub kind: Kind,
    /// Where it stands.
    pub square: Square,
}

/// A move (§2): from, to, and the promotion kind for a pawn reaching the
/// last rank. Castling is the king's two-square move; en passant the pawn's
/// move to the empty square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// `Some(Queen | Rook | Bishop | Knight)` for a promotion.
    pub promotion: Option<Kind>,
}

impl Move {
    /// UCI text: `e2e4`, `e7e8q`, `e1g1`.
    pub fn to_uci(self) -> String {
        let mut text = square_name(self.from);
        text.push_str(&square_name(self.to));
        if let Some(kind) = self.promotion {
            text.push(kind.letter().to_ascii_lowercase());
        }
        text
    }
}

/// A square's name, `a1` … `h8` (`??` for a number outside `0..64`).
pub fn square_name(square: Square) -> String {
    if square >= 64 {
        return "??".to_string();
    }
    let mut text = String::with_capacity(2);
    text.push(char::from(b'a' + square % 8));
    text.push(char::from(b'1' + square / 8));
    text
}

/// Parses `a1` … `h8`.
pub fn parse_square(text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes.first()?.wrapping_sub(b'a');
    let rank = bytes.get(1)?.wrapping_sub(b'1');
    if file < 8 && rank < 8 {
        Some(rank * 8 + file)
    } else {
        None
    }
}

// Piece codes on the board: kind | colour (BLACK_BIT for Black); 0 empty.
const KING: u8 = 1;
const QUEEN: u8 = 2;
const ROOK: u8 = 3;
const BISHOP: u8 = 4;
const KNIGHT: u8 = 5;
const PAWN: u8 = 6;
const BLACK_BIT: u8 = 8;

// Castling rights.
const WHITE_KINGSIDE: u8 = 1;
const WHITE_QUEENSIDE: u8 = 2;
const BLACK_KINGSIDE: u8 = 4;
const BLACK_QUEENSIDE: u8 = 8;

// 0x88 steps.
const KNIGHT_STEPS: [i16; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];
const KING_STEPS: [i16; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];
const ROOK_STEPS: [i16; 4] = [-16, -1, 1, 16];
const BISHOP_STEPS: [i16; 4] = [-17, -15, 15, 17];

/// 0x88 square of a public square (`0..64`).
fn to88(square: u8) -> u8 {
    (square & 63) + (square & 56)
}

/// Public square of a 0x88 square on the board.
fn from88(s: u8) -> u8 {
    ((s & 0x77) + (s & 7)) >> 1
}

/// A FEN counter field (halfmove clock, fullmove number): a non-negative
/// integer (an optional `+`, digits; leading zeros are fine) up to
/// 18446744073709551615, the largest counter; or the error naming it.
fn fen_counter(text: &str, what: &str) -> Result<u64, String> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "bad FEN: {what} '{text}', expected a non-negative integer"
        ));
    }
    digits.bytes().try_fold(0u64, |n, b| {
        n.checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
            .ok_or_else(|| {
                format!(
                    "bad FEN: {what} '{text}' is past the largest counter, {}",
                    u64::MAX
                )
            })
    })
}

/// The 0x88 square `s + step`, or `None` off the board. `s` is on the board
/// and |step| ≤ 33, so the sum wraps into bit 0x80 when it leaves `0..128`.
fn step88(s: u8, step: i16) -> Option<u8> {
    let t = s.wrapping_add(step as u8);
    (t & 0x88 == 0).then_some(t)
}

/// For each public square, the squares reached by the given 0x88 steps
/// (one step each). Computed at compile time.
const fn step_table(steps: &[i16; 8], count: usize) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let s88 = (sq + (sq & 56)) as i16;
        let mut i = 0;
        while i < count {
            let t = s88 + steps[i];
            if t >= 0 && t < 128 && t & 0x88 == 0 {
                table[sq] |= 1u64 << (((t & 0x77) + (t & 7)) >> 1);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// For each of the eight `KING_STEPS` directions and each public square,
/// the squares on the ray from it (itself excluded), to the edge.
const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let mut t = (sq + (sq & 56)) as i16 + KING_STEPS[d];
            while t >= 0 && t < 128 && t & 0x88 == 0 {
                table[d][sq] |= 1u64 << (((t & 0x77) + (t & 7)) >> 1);
                t += KING_STEPS[d];
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

const KNIGHT_ATTACKS: [u64; 64] = step_table(&KNIGHT_STEPS, 8);
const KING_ATTACKS: [u64; 64] = step_table(&KING_STEPS, 8);
/// Squares a white pawn on the square attacks.
const WHITE_PAWN_ATTACKS: [u64; 64] = step_table(&[15, 17, 0, 0, 0, 0, 0, 0], 2);
/// Squares a black pawn on the square attacks.
const BLACK_PAWN_ATTACKS: [u64; 64] = step_table(&[-15, -17, 0, 0, 0, 0, 0, 0], 2);
const RAYS: [[u64; 64]; 8] = ray_table();

/// A table entry for a public square (the mask keeps the index in range).
fn entry(table: &[u64; 64], sq: u8) -> u64 {
    table[usize::from(sq & 63)]
}

fn bit(s88: u8) -> u64 {
    1u64 << from88(s88)
}

fn colour_of(code: u8) -> Colour {
    if code & BLACK_BIT != 0 {
        Colour::Black
    } else {
        Colour::White
    }
}

fn colour_bit(colour: Colour) -> u8 {
    match colour {
        Colour::White => 0,
        Colour::Black => BLACK_BIT,
    }
}

// ------------------------------------------------------- hash keys (§7.5)

/// The generator of every hash key (the transposition table, the game
/// history, §7.5): SplitMix64's output function applied to `x` plus the
/// golden-ratio increment. The C runtime has the same function, so keys,
/// table slots and node counts agree between the back ends.
pub const fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Where the side, castling and en-passant keys start in [`ZOBRIST`]:
/// before them, one key per (piece code 0–15, public square).
const ZOBRIST_SIDE: usize = 1024;
const ZOBRIST_CASTLING: usize = 1025;
const ZOBRIST_EN_PASSANT: usize = 1041;
const ZOBRIST_SIZE: usize = 1049;
/// The seed of the Zobrist keys (the year of CHEG).
const ZOBRIST_SEED: u64 = 1973;

const fn zobrist_table() -> [u64; ZOBRIST_SIZE] {
    let mut table = [0u64; ZOBRIST_SIZE];
    let mut i = 0;
    while i < ZOBRIST_SIZE {
        table[i] = mix64(
            ZOBRIST_SEED
                .wrapping_mul(0x1_0000_0000)
                .wrapping_add(i as u64),
        );
        i += 1;
    }
    table
}

/// Zobrist keys: piece code × square, the side to move (Black), the 16
/// castling-right sets, the 8 en-passant files.
const ZOBRIST: [u64; ZOBRIST_SIZE] = zobrist_table();

fn zobrist(index: usize) -> u64 {
    ZOBRIST.get(index).copied().unwrap_or(0)
}

/// The key of `code` (0: empty, no key) on the 0x88 square `s88`.
fn zobrist_piece(code: u8, s88: u8) -> u64 {
    if code == 0 {
        return 0;
    }
    zobrist(usize::from(code & 15) * 64 + usize::from(from88(s88) & 63))
}

/// Castling rights that survive a move touching the square (0x88): a king or
/// rook leaving its home square, or a rook captured on it, loses them.
fn castle_keep(s88: u8) -> u8 {
    match s88 {
        0x00 => !WHITE_QUEENSIDE,
        0x04 => !(WHITE_KINGSIDE | WHITE_QUEENSIDE),
        0x07 => !WHITE_KINGSIDE,
        0x70 => !BLACK_QUEENSIDE,
        0x74 => !(BLACK_KINGSIDE | BLACK_QUEENSIDE),
        0x77 => !BLACK_KINGSIDE,
        _ => 0xff,
    }
}

const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// A chess position: board, side to move, castling rights, en-passant
/// square, move counters. Cheap to copy (copy-make).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// 0x88 mailbox: piece code or 0.
    board: [u8; 128],
    /// Occupancy per colour (White, Black), bit = public square.
    occupied: [u64; 2],
    /// Occupancy per kind code (`KING` … `PAWN`), both colours.
    kinds: [u64; 8],
    /// King squares (0x88) per colour.
    kings: [u8; 2],
    side: Colour,
    /// `WHITE_KINGSIDE | …`.
    castling: u8,
    /// En-passant square (0x88), as in the FEN.
    en_passant: Option<u8>,
    halfmove: u64,
    fullmove: u64,
    /// The placement's part of [`Position::key`], kept by `put`.
    placement_key: u64,
}

/// Where generated moves go: a list, or a counter (perft's last ply).
trait MoveSink {
    fn add(&mut self, mv: Move);

    /// Pawn moves to each square of `targets` from the square `delta`
    /// behind it (public numbering); four promotions each if `promote`.
    fn add_pawn_targets(&mut self, targets: u64, delta: u8, promote: bool) {
        let mut bits = targets;
        while bits != 0 {
            let to = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let from = to.wrapping_sub(delta) & 63;
            if promote {
                for kind in PROMOTIONS {
                    self.add(Move {
                        from,
                        to,
                        promotion: Some(kind),
                    });
                }
            } else {
                self.add(Move {
                    from,
                    to,
                    promotion: None,
                });
            }
        }
    }

    /// One move from `from` (public square) to each square of `targets`.
    fn add_targets(&mut self, from: u8, targets: u64) {
        let mut bits = targets;
        while bits != 0 {
            let to = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            self.add(Move {
                from,
                to,
                promotion: None,
            });
        }
    }
}

impl MoveSink for Vec<Move> {
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without storing them.
struct Counter(u64);

impl MoveSink for Counter {
    fn add(&mut self, _mv: Move) {
        self.0 = self.0.wrapping_add(1);
    }

    fn add_targets(&mut self, _from: u8, targets: u64) {
        self.0 = self.0.wrapping_add(u64::from(targets.count_ones()));
    }

    fn add_pawn_targets(&mut self, targets: u64, _delta: u8, promote: bool) {
        let n = u64::from(targets.count_ones());
        self.0 = self.0.wrapping_add(if promote { 4 * n } else { n });
    }
}

/// Checks and pins of the side to move, found by one scan from its king.
struct Restrictions {
    /// Number of pieces giving check.
    checkers: u32,
    /// Squares (public numbering) a non-king move may go to: everything when
    /// not in check, else the checker and the squares between.
    target: u64,
    /// Pinned pieces (public squares).
    pinned: u64,
    /// For each pin, the pinned piece (0x88) and the squares it may go to.
    pins: [(u8, u64); 8],
    pin_count: usize,
}

impl Restrictions {
    fn pin_line(&self, s88: u8) -> u64 {
        for &(square, line) in self.pins.iter().take(self.pin_count) {
            if square == s88 {
                return line;
            }
        }
        u64::MAX
    }
}
