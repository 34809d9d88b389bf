//! Finvara board runtime: one source shared by the interpreter (`icp2c run`,
//! as `crate::lang::finvara::runtime::board`) and every generated Rust program (pasted
//! in verbatim as `mod icp_rt`). The language: icp2c's reference
//! `docs/finvara.md`, whose sections (§) are cited here (§2.1 paths, §4
//! holes and stacks, §5 moves, §5.4 attacks and the end of the game).
//! The C runtime (board.c, beside this file) is a line-by-line port of
//! this file: same data layout, same algorithms, same messages.
//!
//! std only, no unsafe, no panicking calls, edition-2021 syntax.
//!
//! # Sections
//! Marker comments cut this file (and board.c) into sections, so that a
//! generated program carries only what it uses (the table of entry points
//! is `api.rs`): `step` (§5.1 moves), `holes` (§4: a piece that ends in a
//! hole) with one section per stack action (`act_add`, `act_sub`,
//! `act_eq`, `act_read`, `act_print`, `act_pop`), `input` and `output`
//! (the streams the actions use), `place` (§5.3 `checks turn`) and
//! `interpreter` (what only icp2c itself uses). The rest is the core:
//! the board, the path search and the end of the game (§5.4).
//!
//! # Data layout
//! - Squares are indices `(row - 1) * width + (column - 1)`, row 1 (`a`) at
//!   the bottom (§3). Comparing indices compares (row, column), which is the
//!   hole order of §4.
//! - A cell is [`HOLE`], [`EMPTY`] or `1 + 2 * kind + colour` (white 0,
//!   black 1).
//! - Each kind has one *path program* per colour (the notation of §2.1
//!   lowered at compile time, directions and ranks already resolved for
//!   that colour). `code[0]` is the number of registers (the runtime needs
//!   it not: a state keeps the registers set); instructions start at
//!   index 1:
//!   - `END`: the path ends here.
//!   - `LEAP reg n dx1 dy1 … dxn dyn`: jump by one of the vectors (by the
//!     one in register `reg` once it is set; `reg` is -1 when the leap is
//!     free).
//!   - `FORK reg n t1 … tn`: go on at one of the targets (fixed by `reg`
//!     like a leap).
//!   - `JUMP t`; `RANK lo hi t` / `NOT_RANK lo hi t`: go on when the
//!     current row is (is not) in `lo..=hi`, else jump to `t` (§2.1 `r`).
//!   - `ENEMY` (`c(…)`), `EMPTY` (`m(…)`), `TAKE` (`x`).
//!   - `PROMOTE n k1 … kn`: go on unchanged, or promoted into one of the
//!     kinds; `PROMOTE_ANY`: into any kind but the moving piece's (`p`).
//!   - `RESET first count`: forget registers (entry of a `*` that fixes
//!     its body's vectors).
//!   - `CALL k`: the paths of kind k's program (of the same colour) from
//!     here, each going on after the `CALL` where it ends (`"s"`). Only an
//!     earlier kind is called, so calls never recurse. A kind's registers
//!     are numbered after those of the kinds it calls, so that none is
//!     shared with a called program.
//! - A search state is a vector of `i32`: pc, square, flags, current kind,
//!   first hole, captures made before it, kind at it, the kind whose
//!   program the pc is in, the call context, the number of registers set
//!   and those registers as (register, vector) pairs in register order
//!   (a register not among them is unset: a state holds the few its path
//!   has set, however many the program has), then the captured squares in
//!   path order (sorted in attack searches, where only the set matters).
//!   Every reachable state is visited once (a hash set), so every search
//!   ends on a finite board.
//! - Calls are tabulated, not stacked: a call context is a called program
//!   with the state it was entered in (context 0 is the moving kind's own
//!   program). Each context is explored once, however many paths make the
//!   same call, and the states in which it ends are handed to every caller
//!   (a path through `{"s","s"}` chained 25 deep costs 25 contexts, not
//!   2^25 paths).

use std::collections::HashSet;
// @section input
use std::io::BufRead;
// @end input
// @section output
use std::io::Write;
// @end output

/// The path ends.
pub const OP_END: i32 = 0;
/// `LEAP reg n (dx dy)*n`.
pub const OP_LEAP: i32 = 1;
/// `FORK reg n target*n`.
pub const OP_FORK: i32 = 2;
/// `JUMP target`.
pub const OP_JUMP: i32 = 3;
/// `RANK lo hi else`.
pub const OP_RANK: i32 = 4;
/// `NOT_RANK lo hi else`.
pub const OP_NOT_RANK: i32 = 5;
/// The current square must hold an enemy piece (`c(…)`).
pub const OP_ENEMY: i32 = 6;
/// The current square must be empty or a hole (`m(…)`).
pub const OP_EMPTY: i32 = 7;
/// Capture the enemy on the current square and go on (`x`).
pub const OP_TAKE: i32 = 8;
/// `PROMOTE n kind*n`: optional promotion.
pub const OP_PROMOTE: i32 = 9;
/// `RESET first count`: unset registers.
pub const OP_RESET: i32 = 10;
/// `CALL kind`: the paths of an earlier kind's program (`"s"`).
pub const OP_CALL: i32 = 11;
/// `PROMOTE_ANY`: optional promotion into any kind but the moving
/// piece's (`p`).
pub const OP_PROMOTE_ANY: i32 = 12;

/// A cell that is a hole (§4).
pub const HOLE: i32 = -1;
/// An empty cell.
pub const EMPTY: i32 = 0;

// @section interpreter: piece step place holes output input
/// A kind's value is its number.
pub const VALUE_INT: i32 = 0;
// @end interpreter
/// A kind's value is the square's x (column), §2 `x`.
pub const VALUE_X: i32 = 1;
/// A kind's value is the square's y (row), §2 `y`.
pub const VALUE_Y: i32 = 2;

const S_PC: usize = 0;
const S_SQ: usize = 1;
const S_FLAGS: usize = 2;
const S_KIND: usize = 3;
const S_HOLE: usize = 4;
const S_HOLE_NCAP: usize = 5;
const S_HOLE_KIND: usize = 6;
const S_CODE: usize = 7;
const S_CTX: usize = 8;
const S_NREGS: usize = 9;

const F_NULL: i32 = 1;
const F_PROMOTED: i32 = 2;

/// One piece kind, as the runtime needs it.
#[derive(Clone, Copy, Debug)]
pub struct Kind<'a> {
    /// The number for [`VALUE_INT`].
    pub value: i64,
    /// [`VALUE_INT`], [`VALUE_X`] or [`VALUE_Y`].
    pub value_of: i32,
    /// Defined without a value (§2): royal.
    pub royal: bool,
    /// Path programs for white (0) and black (1).
    pub code: [&'a [i32]; 2],
}

// @section piece
// @section step
/// A move as [`Game::step`] takes it: kind, from, to (squares) and the
/// kind to promote into (-1: none).
pub type Move = [i32; 4];

/// The number of the move to make next, or the runtime error met.
pub type Next = Result<usize, RuntimeError>;
// @end step

/// The cell value of a piece.
pub fn piece(kind: i32, colour: i32) -> i32 {
    1 + 2 * kind + colour
}
// @end piece

/// "W" or "B".
pub fn colour_name(colour: usize) -> &'static str {
    match colour {
        0 => "W",
        _ => "B",
    }
}

// @section act_add
/// §4 action 0: the top two numbers (popped) are added, the sum pushed.
const ACT_ADD: i64 = 0;
// @end act_add
// @section act_sub
/// §4 action 1: the top number minus the next (both popped) is pushed.
const ACT_SUB: i64 = 1;
// @end act_sub
// @section act_eq
/// §4 action 2: 1 is pushed when the top two (popped) are equal, else 0.
const ACT_EQ: i64 = 2;
// @end act_eq
// @section act_read
/// §4 action 3: a number read from the input is pushed (-1 at its end).
const ACT_READ: i64 = 3;
// @end act_read
// @section act_print
/// §4 action 4: the top number is printed, and stays.
const ACT_PRINT: i64 = 4;
// @end act_print
// @section act_pop
/// §4 action 5: the top number is popped.
const ACT_POP: i64 = 5;
// @end act_pop

/// The cause of a runtime error (§6); its text is [`Fault::cause`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    // @section input
    /// Input text that is not an integer (§4).
    NotANumber,
    /// Input beyond 64 bits (§4).
    OutOfRange,
    /// Standard input failed.
    CannotRead,
    // @end input
    /// Standard output failed.
    CannotWrite,
    /// An allocation failed.
    NoMemory,
}

impl Fault {
    /// The text of the cause, as every back end prints it.
    pub fn cause(self) -> &'static str {
        match self {
            // @section input
            Fault::NotANumber => NOT_A_NUMBER,
            Fault::OutOfRange => OUT_OF_RANGE,
            Fault::CannotRead => CANNOT_READ,
            // @end input
            Fault::CannotWrite => CANNOT_WRITE,
            Fault::NoMemory => NO_MEMORY,
        }
    }
}

/// A runtime error (§6): its cause and the move that met it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    /// The turn of the move tried last.
    pub turn: u64,
    /// Its colour (0 white, 1 black).
    pub colour: usize,
    /// What went wrong.
    pub fault: Fault,
}

impl std::fmt::Display for RuntimeError {
    /// The message of a runtime error (§6), `turn T C: cause`; the
    /// program's one standard-error line is `error: ` and the message. A
    /// write failure names no move (`cannot write standard output`): when
    /// buffered output reaches the system differs between back ends.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cause = self.fault.cause();
        if self.fault == Fault::CannotWrite {
            return f.write_str(cause);
        }
        let colour = colour_name(self.colour);
        write!(f, "turn {} {colour}: {cause}", self.turn)
    }
}

impl RuntimeError {
    /// Standard output failed: the line names no move.
    pub const WRITE_FAILED: RuntimeError = RuntimeError {
        turn: 0,
        colour: 0,
        fault: Fault::CannotWrite,
    };
}

/// The runtime error `fault` met by the move of `colour` in `turn`.
fn fault(turn: u64, colour: usize, fault: Fault) -> RuntimeError {
    RuntimeError {
        turn,
        colour,
        fault,
    }
}

// @section input
/// Input text that is not an integer (§4).
pub const NOT_A_NUMBER: &str = "input is not a number (§4)";
/// Input beyond 64 bits (§4).
pub const OUT_OF_RANGE: &str = "input number is outside the signed 64-bit range (§4)";
/// Standard input failed.
pub const CANNOT_READ: &str = "cannot read standard input";
// @end input
/// Standard output failed.
pub const CANNOT_WRITE: &str = "cannot write standard output";
/// An allocation failed (§6: a runtime error, exit status 1, as in C).
pub const NO_MEMORY: &str = "memory exhausted";

/// An allocation of the search or of a stack failed. Every allocation
/// after `Game::new` goes through `try_reserve`, so running out of memory
/// is the runtime error [`Fault::NoMemory`], never an abort.
#[derive(Debug)]
struct Oom;

/// Where the captures start in state `st`: after its registers.
fn caps_start(st: &[i32]) -> usize {
    S_NREGS + 1 + 2 * st[S_NREGS] as usize
}

/// Where register `reg` is (`Ok`) or would go (`Err`) among the (register,
/// vector) pairs of `st`.
fn reg_slot(st: &[i32], reg: i32) -> Result<usize, usize> {
    let pairs = st.get(S_NREGS + 1..caps_start(st)).unwrap_or(&[]);
    let (mut lo, mut hi) = (0, pairs.len() / 2);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match pairs[2 * mid].cmp(&reg) {
            std::cmp::Ordering::Equal => return Ok(S_NREGS + 1 + 2 * mid),
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
        }
    }
    Err(S_NREGS + 1 + 2 * lo)
}

/// The vector register `reg` holds in `st`, or -1 when it is unset.
fn reg_get(st: &[i32], reg: i32) -> i32 {
    match reg_slot(st, reg) {
        Ok(at) => st[at + 1],
        Err(_) => -1,
    }
}

/// Sets register `reg` of `st` to `value`.
fn reg_set(st: &mut Vec<i32>, reg: i32, value: i32) -> Result<(), Oom> {
    match reg_slot(st, reg) {
        Ok(at) => st[at + 1] = value,
        Err(at) => {
            st.try_reserve(2).map_err(|_| Oom)?;
            st.splice(at..at, [reg, value]);
            st[S_NREGS] += 1;
        }
    }
    Ok(())
}

/// Unsets registers `first .. first + count` of `st`.
fn reg_reset(st: &mut Vec<i32>, first: i32, count: i32) {
    let from = reg_slot(st, first).unwrap_or_else(|at| at);
    let to = reg_slot(st, first.saturating_add(count)).unwrap_or_else(|at| at);
    if to > from {
        st.drain(from..to);
        st[S_NREGS] -= ((to - from) / 2) as i32;
    }
}

/// A copy of `v`, or `Oom`.
fn try_clone(v: &[i32]) -> Result<Vec<i32>, Oom> {
    let mut out = Vec::new();
    out.try_reserve_exact(v.len()).map_err(|_| Oom)?;
    out.extend_from_slice(v);
    Ok(out)
}

/// A small deterministic hasher for search states (no random seed, so
/// runs are reproducible; states are short vectors of small integers).
#[derive(Default, Clone, Copy)]
pub struct StateHasher(u64);

impl std::hash::Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_i32(&mut self, n: i32) {
        self.write_u64(u64::from(n as u32));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type StateSet = HashSet<Vec<i32>, std::hash::BuildHasherDefault<StateHasher>>;

type ContextMap =
    std::collections::HashMap<Vec<i32>, usize, std::hash::BuildHasherDefault<StateHasher>>;

/// Buffers reused from one search to the next.
#[derive(Default)]
struct Scratch {
    seen: StateSet,
    stack: Vec<Vec<i32>>,
    /// Call contexts by the state their program was entered in (context
    /// field -1).
    contexts: ContextMap,
    /// Per context (0: the moving kind's own program): where its paths go
    /// on when they end, as (context, program, pc) of each call.
    callers: Vec<Vec<[i32; 3]>>,
    /// Per context: the states in which its paths have ended so far.
    exits: Vec<Vec<Vec<i32>>>,
}

/// What a search looks for.
struct Search<'s> {
    board: &'s [i32],
    width: i32,
    height: i32,
    kinds: &'s [Kind<'s>],
    /// The moving piece's kind.
    kind: i32,
    colour: i32,
    from: i32,
    royal: bool,
    attack: bool,
    target: i32,
    promo: i32,
    nkinds: i32,
}

impl<'s> Search<'s> {
    fn caps<'v>(&self, st: &'v [i32]) -> &'v [i32] {
        &st[caps_start(st)..]
    }

    fn captured(&self, st: &[i32], sq: i32) -> bool {
        self.caps(st).contains(&sq)
    }

    /// A piece stands on `sq` for this path (the start counts as empty).
    fn occupied(&self, st: &[i32], sq: i32) -> bool {
        sq != self.from && self.board[sq as usize] > 0 && !self.captured(st, sq)
    }

    fn enemy(&self, st: &[i32], sq: i32) -> bool {
        let cell = self.board[sq as usize];
        sq != self.from && cell > 0 && (cell - 1) % 2 != self.colour && !self.captured(st, sq)
    }

    fn friendly(&self, sq: i32) -> bool {
        let cell = self.board[sq as usize];
        sq != self.from && cell > 0 && (cell - 1) % 2 == self.colour
    }

    /// The program of kind `kind` for the moving colour.
    fn program(&self, kind: i32) -> &'s [i32] {
        match self.kinds.get(kind as usize) {
            Some(k) => k.code[self.colour as usize],
            None => &[],
        }
    }

    fn push(&self, st: Vec<i32>, scratch: &mut Scratch) -> Result<(), Oom> {
        let Scratch { seen, stack, .. } = scratch;
        if !seen.contains(&st) {
            seen.try_reserve(1).map_err(|_| Oom)?;
            stack.try_reserve(1).map_err(|_| Oom)?;
            seen.insert(try_clone(&st)?);
            stack.push(st);
        }
        Ok(())
    }

    /// Runs one state until it ends or branches. Returns true when an
    /// attack search reached its target.
    fn run(
        &self,
        mut st: Vec<i32>,
        scratch: &mut Scratch,
        best: &mut Option<Vec<i32>>,
    ) -> Result<bool, Oom> {
        let code = self.program(st[S_CODE]);
        loop {
            let pc = st[S_PC] as usize;
            let sq = st[S_SQ];
            match code.get(pc).copied().unwrap_or(OP_END) {
                OP_LEAP => {
                    // Every square landed on before the last must be empty,
                    // unless an `x` took its piece (§2.1).
                    if self.occupied(&st, sq) {
                        return Ok(false);
                    }
                    let reg = code[pc + 1];
                    let n = code[pc + 2] as usize;
                    let next = (pc + 3 + 2 * n) as i32;
                    let fixed = if reg >= 0 { reg_get(&st, reg) } else { -1 };
                    let (lo, hi) = if fixed >= 0 {
                        (fixed as usize, fixed as usize + 1)
                    } else {
                        (0, n)
                    };
                    let col = sq % self.width;
                    let row = sq / self.width;
                    for i in lo..hi {
                        let dx = code[pc + 3 + 2 * i];
                        let dy = code[pc + 4 + 2 * i];
                        let c = col + dx;
                        let r = row + dy;
                        if c < 0 || c >= self.width || r < 0 || r >= self.height {
                            continue;
                        }
                        let nsq = r * self.width + c;
                        let mut ns = try_clone(&st)?;
                        ns[S_PC] = next;
                        ns[S_SQ] = nsq;
                        if reg >= 0 {
                            reg_set(&mut ns, reg, i as i32)?;
                        }
                        if dx == 0 && dy == 0 {
                            ns[S_FLAGS] |= F_NULL;
                        }
                        if self.board[nsq as usize] == HOLE {
                            // §4: royal pieces never path through holes;
                            // attacks never pass one (§5.4).
                            if self.royal || self.attack {
                                continue;
                            }
                            if ns[S_HOLE] < 0 {
                                ns[S_HOLE] = nsq;
                                ns[S_HOLE_NCAP] = self.caps(&st).len() as i32;
                                ns[S_HOLE_KIND] = ns[S_KIND];
                            }
                        }
                        self.push(ns, scratch)?;
                    }
                    return Ok(false);
                }
                OP_FORK => {
                    let reg = code[pc + 1];
                    let n = code[pc + 2] as usize;
                    let fixed = if reg >= 0 { reg_get(&st, reg) } else { -1 };
                    let (lo, hi) = if fixed >= 0 {
                        (fixed as usize, fixed as usize + 1)
                    } else {
                        (0, n)
                    };
                    for i in lo..hi {
                        let mut ns = try_clone(&st)?;
                        ns[S_PC] = code[pc + 3 + i];
                        if reg >= 0 {
                            reg_set(&mut ns, reg, i as i32)?;
                        }
                        self.push(ns, scratch)?;
                    }
                    return Ok(false);
                }
                OP_JUMP => st[S_PC] = code[pc + 1],
                OP_RANK | OP_NOT_RANK => {
                    let row = sq / self.width + 1;
                    let inside = row >= code[pc + 1] && row <= code[pc + 2];
                    if inside == (code[pc] == OP_RANK) {
                        st[S_PC] = (pc + 4) as i32;
                    } else {
                        st[S_PC] = code[pc + 3];
                    }
                }
                OP_ENEMY => {
                    if !self.enemy(&st, sq) {
                        return Ok(false);
                    }
                    st[S_PC] = (pc + 1) as i32;
                }
                OP_EMPTY => {
                    if self.occupied(&st, sq) {
                        return Ok(false);
                    }
                    st[S_PC] = (pc + 1) as i32;
                }
                OP_TAKE => {
                    if !self.enemy(&st, sq) {
                        return Ok(false);
                    }
                    st.try_reserve(1).map_err(|_| Oom)?;
                    if self.attack {
                        // Only the set matters to an attack: keep it sorted.
                        let first = caps_start(&st);
                        let at = first + st[first..].iter().take_while(|&&c| c < sq).count();
                        st.insert(at, sq);
                    } else {
                        st.push(sq);
                    }
                    st[S_PC] = (pc + 1) as i32;
                }
                OP_PROMOTE | OP_PROMOTE_ANY => {
                    let any = code[pc] == OP_PROMOTE_ANY;
                    let n = if any { 0 } else { code[pc + 1] as usize };
                    let next = if any { pc + 1 } else { pc + 2 + n } as i32;
                    if self.attack {
                        st[S_PC] = next;
                        continue;
                    }
                    let count = if any { self.nkinds as usize } else { n };
                    for i in 0..count {
                        let k = if any { i as i32 } else { code[pc + 2 + i] };
                        if k < 0 || k >= self.nkinds || (any && k == self.kind) {
                            continue;
                        }
                        let mut ns = try_clone(&st)?;
                        ns[S_PC] = next;
                        ns[S_KIND] = k;
                        ns[S_FLAGS] |= F_PROMOTED;
                        self.push(ns, scratch)?;
                    }
                    st[S_PC] = next;
                    self.push(st, scratch)?;
                    return Ok(false);
                }
                OP_RESET => {
                    reg_reset(&mut st, code[pc + 1], code[pc + 2]);
                    st[S_PC] = (pc + 3) as i32;
                }
                OP_CALL => {
                    self.call(&st, code[pc + 1], (pc + 2) as i32, scratch)?;
                    return Ok(false);
                }
                _ if st[S_CTX] != 0 => {
                    self.leave(st, scratch)?;
                    return Ok(false);
                }
                _ => return self.end(&st, best),
            }
        }
    }

    /// `CALL kind` in state `st`, going on at `back` in the caller's
    /// program: the called program is entered in the same state (a
    /// context explored once however many paths make the same call), and
    /// every state it has ended in, or will end in, goes on at `back`.
    fn call(&self, st: &[i32], kind: i32, back: i32, scratch: &mut Scratch) -> Result<(), Oom> {
        let mut entry = try_clone(st)?;
        entry[S_PC] = 1;
        entry[S_CODE] = kind;
        entry[S_CTX] = -1;
        let ctx = match scratch.contexts.get(&entry) {
            Some(&ctx) => ctx,
            None => {
                let ctx = scratch.callers.len();
                scratch.contexts.try_reserve(1).map_err(|_| Oom)?;
                scratch.callers.try_reserve(1).map_err(|_| Oom)?;
                scratch.exits.try_reserve(1).map_err(|_| Oom)?;
                scratch.contexts.insert(try_clone(&entry)?, ctx);
                scratch.callers.push(Vec::new());
                scratch.exits.push(Vec::new());
                entry[S_CTX] = ctx as i32;
                self.push(entry, scratch)?;
                ctx
            }
        };
        let caller = [st[S_CTX], st[S_CODE], back];
        scratch.callers[ctx].try_reserve(1).map_err(|_| Oom)?;
        scratch.callers[ctx].push(caller);
        for i in 0..scratch.exits[ctx].len() {
            let ns = resume(&scratch.exits[ctx][i], caller)?;
            self.push(ns, scratch)?;
        }
        Ok(())
    }

    /// A path of a called program ends in `st`: it goes on after every
    /// call of its context, made so far or later.
    fn leave(&self, st: Vec<i32>, scratch: &mut Scratch) -> Result<(), Oom> {
        let ctx = st[S_CTX] as usize;
        for i in 0..scratch.callers[ctx].len() {
            let ns = resume(&st, scratch.callers[ctx][i])?;
            self.push(ns, scratch)?;
        }
        scratch.exits[ctx].try_reserve(1).map_err(|_| Oom)?;
        scratch.exits[ctx].push(st);
        Ok(())
    }

    /// A path ends (§2.1, §5.1). Attack searches report success; move
    /// searches keep the best outcome (§4's choice, then our tie-breaks).
    fn end(&self, st: &[i32], best: &mut Option<Vec<i32>>) -> Result<bool, Oom> {
        let sq = st[S_SQ];
        if sq != self.target || self.friendly(sq) {
            return Ok(false);
        }
        if self.attack {
            return Ok(true);
        }
        if sq == self.from && st[S_FLAGS] & (F_NULL | F_PROMOTED) == 0 {
            return Ok(false);
        }
        let promoted = st[S_FLAGS] & F_PROMOTED != 0;
        if self.promo >= 0 {
            if !promoted || st[S_KIND] != self.promo {
                return Ok(false);
            }
        } else if promoted {
            return Ok(false);
        }
        let caps = self.caps(st);
        let hole = st[S_HOLE];
        let mut outcome = Vec::new();
        outcome.try_reserve_exact(caps.len() + 4).map_err(|_| Oom)?;
        outcome.push(hole);
        if hole >= 0 {
            let n = st[S_HOLE_NCAP] as usize;
            outcome.push(n as i32);
            outcome.extend_from_slice(&caps[..n]);
            outcome.push(st[S_HOLE_KIND]);
        } else {
            let last = self.enemy(st, sq);
            outcome.push(caps.len() as i32 + i32::from(last));
            outcome.extend_from_slice(caps);
            if last {
                outcome.push(sq);
            }
            outcome.push(st[S_KIND]);
        }
        let better = match best {
            Some(b) => outcome < *b,
            None => true,
        };
        if better {
            *best = Some(outcome);
        }
        Ok(false)
    }

    /// Explores every path. Attack: true when one ends on the target.
    /// Move: the best outcome `[hole, ncaps, caps…, kind]`.
    fn explore(
        &self,
        mover_kind: i32,
        scratch: &mut Scratch,
    ) -> Result<(bool, Option<Vec<i32>>), Oom> {
        let mut st = Vec::new();
        st.try_reserve_exact(S_NREGS + 1).map_err(|_| Oom)?;
        st.extend_from_slice(&[
            1, self.from, 0, mover_kind, -1, 0, mover_kind, mover_kind, 0, 0,
        ]);
        scratch.seen.clear();
        scratch.stack.clear();
        scratch.contexts.clear();
        scratch.callers.clear();
        scratch.exits.clear();
        // Context 0: the moving kind's own program.
        scratch.callers.try_reserve(1).map_err(|_| Oom)?;
        scratch.exits.try_reserve(1).map_err(|_| Oom)?;
        scratch.callers.push(Vec::new());
        scratch.exits.push(Vec::new());
        let mut best = None;
        self.push(st, scratch)?;
        while let Some(st) = scratch.stack.pop() {
            if self.run(st, scratch, &mut best)? {
                return Ok((true, None));
            }
        }
        Ok((false, best))
    }
}

/// `exit`, a state in which a called program ended, going on in its
/// `caller` (context, program, pc).
fn resume(exit: &[i32], caller: [i32; 3]) -> Result<Vec<i32>, Oom> {
    let mut st = try_clone(exit)?;
    st[S_CTX] = caller[0];
    st[S_CODE] = caller[1];
    st[S_PC] = caller[2];
    Ok(st)
}

/// Whether a piece of colour `by` attacks `sq` on `board` (§5.4).
fn attacked(
    kinds: &[Kind<'_>],
    width: i32,
    height: i32,
    board: &[i32],
    sq: i32,
    by: i32,
    scratch: &mut Scratch,
) -> Result<bool, Oom> {
    for (s, &cell) in board.iter().enumerate() {
        if cell <= 0 || (cell - 1) % 2 != by {
            continue;
        }
        let kind = (cell - 1) / 2;
        let k = &kinds[kind as usize];
        let search = Search {
            board,
            width,
            height,
            kinds,
            kind,
            colour: by,
            from: s as i32,
            royal: k.royal,
            attack: true,
            target: sq,
            promo: -1,
            nkinds: kinds.len() as i32,
        };
        if search.explore(kind, scratch)?.0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The state of a running program: board, stacks, input.
pub struct Game<'a> {
    kinds: &'a [Kind<'a>],
    width: i32,
    height: i32,
    board: Vec<i32>,
    /// The board after the move being tried; allocated once, so a move
    /// allocates nothing for it.
    next: Vec<i32>,
    stacks: [Vec<i64>; 2],
    /// Whether the game is over, if known for the current board.
    over: Option<bool>,
    scratch: Scratch,
    /// The turn and colour of the last move tried: a runtime error names
    /// them (§6), also one met while checking the end of the game.
    turn: u64,
    colour: usize,
    // @section input
    /// Where action 3 reads numbers (§4): [`Game::read_from`].
    input: Option<&'a mut dyn BufRead>,
    // @end input
    // @section output
    /// Where action 4 prints (§4), flushed before action 3 reads:
    /// [`Game::write_to`].
    output: Option<&'a mut dyn Write>,
    // @end output
}

impl<'a> Game<'a> {
    /// A game on a `width` × `height` board with the given cells (§3).
    pub fn new(kinds: &'a [Kind<'a>], width: usize, height: usize, cells: &[i32]) -> Game<'a> {
        Game {
            kinds,
            width: width as i32,
            height: height as i32,
            board: cells.to_vec(),
            next: cells.to_vec(),
            stacks: [Vec::new(), Vec::new()],
            over: None,
            scratch: Scratch::default(),
            turn: 0,
            colour: 0,
            // @section input
            input: None,
            // @end input
            // @section output
            output: None,
            // @end output
        }
    }
    // @section input

    /// Action 3 (§4) reads its numbers from `input`.
    pub fn read_from(&mut self, input: &'a mut dyn BufRead) {
        self.input = Some(input);
    }
    // @end input
    // @section output

    /// Action 4 (§4) prints on `output`, and action 3 flushes it first.
    pub fn write_to(&mut self, output: &'a mut dyn Write) {
        self.output = Some(output);
    }
    // @end output
    // @section act_print

    /// §4 action 4: prints `v` and a newline on the output.
    fn print_number(&mut self, v: i64) -> Result<(), Fault> {
        match self.output.as_mut() {
            Some(output) => writeln!(output, "{v}").map_err(|_| Fault::CannotWrite),
            None => Ok(()),
        }
    }
    // @end act_print
    // @section interpreter

    /// The cells, row 1 first.
    pub fn board(&self) -> &[i32] {
        &self.board
    }

    /// The stack of a colour, bottom first.
    pub fn stack(&self, colour: usize) -> &[i64] {
        &self.stacks[colour]
    }

    /// Both stacks, White's first, taken out of the game (which is left
    /// with empty ones): a debugger keeps them between moves.
    pub fn take_stacks(&mut self) -> [Vec<i64>; 2] {
        std::mem::take(&mut self.stacks)
    }

    /// Gives the game `stacks`, White's first ([`Game::take_stacks`]).
    pub fn set_stacks(&mut self, stacks: [Vec<i64>; 2]) {
        self.stacks = stacks;
    }

    /// Flushes the output ([`Game::write_to`]) before a trace line is
    /// written elsewhere; a failure shows at the end of the run.
    pub fn flush_output(&mut self) {
        if let Some(output) = self.output.as_mut() {
            let _ = output.flush();
        }
    }
    // @end interpreter
    // @section step: piece

    fn top(&self, colour: usize) -> i64 {
        self.stacks[colour].last().copied().unwrap_or(0)
    }

    /// Pushes `v` on the stack of `colour`; a stack that cannot grow is
    /// the runtime error [`Fault::NoMemory`].
    fn push(&mut self, colour: usize, v: i64) -> Result<(), Fault> {
        let stack = &mut self.stacks[colour];
        stack.try_reserve(1).map_err(|_| Fault::NoMemory)?;
        stack.push(v);
        Ok(())
    }

    /// §5.1: an invalid move skips the next one when both tops are
    /// non-zero (an empty stack counts as 0).
    pub fn skip(&self) -> bool {
        self.top(0) != 0 && self.top(1) != 0
    }

    /// §5.1: makes move number `pc`, `mv` ([`Game::step`]), and returns
    /// the number of the move to make next: `pc + 2` when the move was
    /// invalid and the skip rule holds, else `pc + 1`. What a generated
    /// program's moves call, one call each (C's `icp_play`).
    pub fn play(&mut self, pc: usize, turn: u64, colour: usize, mv: Move) -> Next {
        let valid = self.step(turn, colour, mv)?;
        Ok(if !valid && self.skip() {
            pc + 2
        } else {
            pc + 1
        })
    }

    /// The value pushed or acted on for a piece of `kind` on `sq` (§4, §5.2).
    fn value(&self, kind: usize, sq: i32) -> i64 {
        let k = &self.kinds[kind];
        match k.value_of {
            VALUE_X => i64::from(sq % self.width + 1),
            VALUE_Y => i64::from(sq / self.width + 1),
            _ => k.value,
        }
    }

    /// True when some royal piece of `colour` on `board` is attacked.
    fn royal_attacked(&mut self, board: &[i32], colour: i32) -> Result<bool, Oom> {
        for (s, &cell) in board.iter().enumerate() {
            if cell > 0
                && (cell - 1) % 2 == colour
                && self.kinds[((cell - 1) / 2) as usize].royal
                && attacked(
                    self.kinds,
                    self.width,
                    self.height,
                    board,
                    s as i32,
                    1 - colour,
                    &mut self.scratch,
                )?
            {
                return Ok(true);
            }
        }
        Ok(false)
    }
    // @end step

    /// True when a player has lost (§5.4): all of its royal pieces are
    /// attacked, or it has none. Checked before every move. Err(line):
    /// memory ran out during the check (§6), naming the last move tried.
    pub fn game_over(&mut self) -> Result<bool, RuntimeError> {
        if let Some(over) = self.over {
            return Ok(over);
        }
        let mut over = false;
        for colour in 0..2 {
            let mut royals = 0;
            let mut hit = 0;
            for (s, &cell) in self.board.iter().enumerate() {
                if cell > 0
                    && (cell - 1) % 2 == colour
                    && self.kinds[((cell - 1) / 2) as usize].royal
                {
                    royals += 1;
                    if attacked(
                        self.kinds,
                        self.width,
                        self.height,
                        &self.board,
                        s as i32,
                        1 - colour,
                        &mut self.scratch,
                    )
                    .map_err(|Oom| fault(self.turn, self.colour, Fault::NoMemory))?
                    {
                        hit += 1;
                    } else {
                        break;
                    }
                }
            }
            if royals == hit {
                over = true;
            }
        }
        self.over = Some(over);
        Ok(over)
    }

    // @section place

    /// §5.3: puts a piece on `sq` when it is empty.
    pub fn place(&mut self, colour: usize, kind: usize, sq: usize) {
        if self.board[sq] == EMPTY {
            self.board[sq] = 1 + 2 * kind as i32 + colour as i32;
            self.over = None;
        }
    }
    // @end place
    // @section step

    /// §5.1: the move `kind from -> to` (`= promo` when `promo >= 0`) of
    /// `colour` in turn `turn`. Ok(true) when valid (and made), Ok(false)
    /// when invalid (nothing changed), Err(line) on a runtime error.
    pub fn step(&mut self, turn: u64, colour: usize, mv: Move) -> Result<bool, RuntimeError> {
        let [kind, from, to, promo] = mv;
        self.turn = turn;
        self.colour = colour;
        let oom = |Oom| fault(turn, colour, Fault::NoMemory);
        let me = colour as i32;
        if self.board[from as usize] != piece(kind, me) {
            return Ok(false);
        }
        let k = &self.kinds[kind as usize];
        let search = Search {
            board: &self.board,
            width: self.width,
            height: self.height,
            kinds: self.kinds,
            kind,
            colour: me,
            from,
            royal: k.royal,
            attack: false,
            target: to,
            promo,
            nkinds: self.kinds.len() as i32,
        };
        let outcome = match search.explore(kind, &mut self.scratch).map_err(oom)?.1 {
            Some(o) => o,
            None => return Ok(false),
        };
        let hole = outcome[0];
        let ncaps = outcome[1] as usize;
        let caps = &outcome[2..2 + ncaps];
        let new_kind = outcome[2 + ncaps];
        let mut board = std::mem::take(&mut self.next);
        board.copy_from_slice(&self.board);
        board[from as usize] = EMPTY;
        for &c in caps {
            board[c as usize] = EMPTY;
        }
        if hole < 0 {
            board[to as usize] = piece(new_kind, me);
        }
        // §5.1: after a valid move no royal piece of the mover is attacked.
        let exposed = self.royal_attacked(&board, me);
        if !matches!(exposed, Ok(false)) {
            self.next = board;
            return exposed.map(|_| false).map_err(oom);
        }
        // §5.2: each capture pushes the captured piece's value on the
        // stack of its colour (royal pieces push nothing).
        for &c in caps {
            let cell = self.board[c as usize];
            let ck = ((cell - 1) / 2) as usize;
            let cc = ((cell - 1) % 2) as usize;
            if !self.kinds[ck].royal {
                let v = self.value(ck, c);
                self.push(cc, v)
                    .map_err(|cause| fault(turn, colour, cause))?;
            }
        }
        self.next = std::mem::replace(&mut self.board, board);
        self.over = None;
        // @section holes
        if hole >= 0 {
            let v = self.value(new_kind as usize, hole);
            self.hole_action(v.rem_euclid(6), colour)
                .map_err(|cause| fault(turn, colour, cause))?;
        }
        // @end holes
        Ok(true)
    }
    // @end step
    // @section pop

    fn pop(&mut self, colour: usize) -> i64 {
        self.stacks[colour].pop().unwrap_or(0)
    }
    // @end pop
    // @section holes: step

    /// §4: the stack action of a piece that fell into a hole (the
    /// piece's value mod 6); `colour` is the mover's. A program carries
    /// the actions its pieces' values can give.
    fn hole_action(&mut self, action: i64, colour: usize) -> Result<(), Fault> {
        match action {
            // @section act_add: holes pop
            ACT_ADD => {
                let a = self.pop(colour);
                let b = self.pop(colour);
                self.push(colour, a.wrapping_add(b))?;
            }
            // @end act_add
            // @section act_sub: holes pop
            ACT_SUB => {
                let a = self.pop(colour);
                let b = self.pop(colour);
                self.push(colour, a.wrapping_sub(b))?;
            }
            // @end act_sub
            // @section act_eq: holes pop
            ACT_EQ => {
                let a = self.pop(colour);
                let b = self.pop(colour);
                self.push(colour, i64::from(a == b))?;
            }
            // @end act_eq
            // @section act_read: holes input output
            ACT_READ => {
                if let Some(output) = self.output.as_mut() {
                    output.flush().map_err(|_| Fault::CannotWrite)?;
                }
                let v = match self.input.as_mut() {
                    Some(input) => read_number(&mut **input)?,
                    None => -1,
                };
                self.push(colour, v)?;
            }
            // @end act_read
            // @section act_print: holes output
            ACT_PRINT => self.print_number(self.top(colour))?,
            // @end act_print
            // @section act_pop: holes pop
            ACT_POP => {
                self.pop(colour);
            }
            // @end act_pop
            _ => {}
        }
        Ok(())
    }
    // @end holes
}

// @section input
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// §4 action 3: reads one whitespace-separated integer. End of input
/// gives -1; a word that is not `[+-]?[0-9]+` or does not fit in 64 bits
/// is an error.
pub fn read_number(input: &mut dyn BufRead) -> Result<i64, Fault> {
    // Skip blanks.
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(Fault::CannotRead),
        };
        if buf.is_empty() {
            return Ok(-1);
        }
        let n = buf.iter().take_while(|&&b| is_blank(b)).count();
        let done = n < buf.len();
        input.consume(n);
        if done {
            break;
        }
    }
    let mut negative = false;
    let mut first = true;
    let mut digits = 0u64;
    let mut bad = false;
    let mut overflow = false;
    let mut magnitude: u64 = 0;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(Fault::CannotRead),
        };
        if buf.is_empty() {
            break;
        }
        let mut used = 0;
        let mut ended = false;
        for &b in buf {
            if is_blank(b) {
                ended = true;
                break;
            }
            used += 1;
            if first && (b == b'-' || b == b'+') {
                negative = b == b'-';
            } else if b.is_ascii_digit() {
                digits += 1;
                match magnitude
                    .checked_mul(10)
                    .and_then(|m| m.checked_add(u64::from(b - b'0')))
                {
                    Some(m) => magnitude = m,
                    None => overflow = true,
                }
            } else {
                bad = true;
            }
            first = false;
        }
        input.consume(used);
        if ended {
            break;
        }
    }
    if bad || digits == 0 {
        return Err(Fault::NotANumber);
    }
    let limit: u64 = if negative { 1 << 63 } else { (1 << 63) - 1 };
    if overflow || magnitude > limit {
        return Err(Fault::OutOfRange);
    }
    if negative {
        Ok((magnitude as i64).wrapping_neg())
    } else {
        Ok(magnitude as i64)
    }
}
// @end input
