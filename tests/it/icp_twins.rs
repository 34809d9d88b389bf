//! InfChessPro's twin board runtimes compared function by function: the
//! Rust runtime (`src/lang/icp/runtime/board.rs` and `board/*.rs`, which
//! the interpreter and generated Rust run) and its C port (`board.c` and
//! `board/*.c`, which generated C carries) answer the same operations
//! with the same lines.
//!
//! An operation script (one operation a line) goes to two interpreters of
//! it: [`Twin`] here, calling the Rust runtime in this process, and the C
//! driver `tests/c/icp_twins.c`, which includes the C runtime whole and
//! reads the script on standard input. Each prints one line per
//! operation; the lines must be the same, and a difference is reported
//! with the operation, its line of the script and the script's seed.
//!
//! The operations, `OP ARGS` (the state: one board; names are numbers
//! below the board's `new N`, coordinates and steps any i64):
//!
//! | operation | runtime functions (Rust / C) | prints |
//! | --- | --- | --- |
//! | `new N` | `Board::new`, `names` / `icp_board_init`, `icp_names` | `new N` |
//! | `place NAME L R C` | `piece_from_letter`, `place` / `icp_place` | `1` or `0` |
//! | `occupy NAME R C` | `occupy` / `icp_occupy` | `1` or `0` |
//! | `msq R1 C1 R2 C2` | `move_squares` / `icp_move_squares` | `1` or `0` |
//! | `mto NAME R C` | `move_name_to` / `icp_move_name_to` | `1` or `0` |
//! | `mby NAME DR DC` | `move_name_by` / `icp_move_name_by` | `1` or `0` |
//! | `slide NAME DR DC MOST` | `slide` / `icp_slide` (`icp_slide_run`, line and knight runs) | `slid K` |
//! | `loop START MOST STEP…` | `run_loop` / `icp_run_loop` | `executed E at A left 0\|1` |
//! | `exit START STEP…` | `loop_exit` / `icp_loop_exit` | `exit A` |
//! | `board` | `pieces` / the slot table | `board N: R,C,LNAME …` sorted by square |
//! | `at R C` | `piece_at` / `icp_find` | `at LNAME` or `at none` |
//! | `count NAME` | `count` / `icp_count` | `count K` |
//! | `squares NAME` | `squares_of` / the name's list | `squares K: R,C …` newest first |
//! | `live` | `live_pieces`, `names` / `icp_live`, `icp_names` | `live K names N` |
//! | `letter CH` | `piece_from_letter` / the driver's table of §2 | `letter L` or `letter none` |
//! | `read N HEX` | `Input::read_into` then `read_int` to the end / `icp_read`, `icp_read_one` | `read K: V… \| V… eof` |
//! | `text HEX` | `write_text` / `icp_write_text` | `text:` and the bytes |
//! | `wcount N` | `write_count` / `icp_write_count` | `count:N` |
//! | `die label V\|eof\|oom\|read\|write` | `error_message`, `Fault::cause` / `icp_die_no_label`, `icp_die_end_of_input`, `icp_realloc_array`, `icp_in_peek`, `icp_die_write` | the error line |
//!
//! `L` is a piece letter of §2 (upper case white); a `STEP` of a loop is
//! `m,NAME,DR,DC` ([`Step::Move`]), `s,NAME,DR,DC` ([`Step::Slide`]) or
//! `n` ([`Step::Nothing`]); `HEX` is bytes in hex (`-`: none).
//!
//! Faults: the C runtime's errors call `icp_die`, which prints
//! `error: statement LABEL: CAUSE` on standard error and exits 1; a
//! program ends there, and so does a script. The driver sets the label to
//! the operation's line number; the test appends the driver's standard
//! error to its output when it exits 1 with such a line. The Rust half
//! prints `error: ` and [`error_message`] of the same label and fault
//! (which [`Fault::cause`] words) and stops. An operation cut short by a
//! fault prints what it printed before it (a `read` its values so far).
//! `die` makes each fault of [`Fault`] on both sides: the Rust one by
//! calling the runtime where it can (a reader that fails, a writer that
//! fails), else by naming the fault; the C one by calling the runtime's
//! function that dies with it. Memory exhaustion in `place` and a failed
//! `fread` cannot be provoked here.
//!
//! The reader is given its bytes: the Rust [`Input`] reads a byte slice;
//! the C driver fills the runtime's input buffer and marks end of input
//! seen, so the C runtime never reads the script's standard input (its
//! `fread` refill is the one part of the reader not compared).
//!
//! What the scripts keep away from (the C runtime trusts the compiler
//! there, the Rust one checks): a name at or beyond the board's `N`,
//! `place` and `occupy` on one board, `letter`-less `place`. Generated
//! code never does any of these.
//!
//! The generator ([`script`]) keeps its own copy of the Rust half to know
//! the board. It mixes small coordinates near a few anchors (pieces meet:
//! captures, checks, pins, blocked slides, knights, kings beside kings)
//! with squares near ±2^63 (edge steps, overflowing relative moves) and
//! far along lines (the line indices, built after PROBE = 8 squares);
//! every kind and colour; names reused. Loops: random members, and scenes
//! of lone king-less pieces whose rounds the runtimes skip in closed form
//! (collisions between them, blockers far ahead, the edge, slides that
//! look at squares). A budget beyond a few thousand statements is given
//! only where the runtime runs in closed form (a lone king-less piece
//! sliding along its line or jumping; a loop of `Move`s and `Nothing`s
//! whose every round may be skipped), and `exit` only where the loop is
//! sure to end soon: a loop the runtimes step through would take as long
//! as its statements.
//!
//! The tests: the quick one compares [`SCRIPTS`] scripts of [`LENGTH`]
//! operations (`ICP2C_ICP_TWINS=N`: N scripts); one checks the checker on
//! a drift injected into the Rust half and on a patched line of a copy of
//! `board/moves.c`; an ignored one builds the driver on each of
//! [`MUTANTS`], one-line mutants of the C runtime, and requires the quick
//! test's scripts to see each. Every run of the driver is stopped after
//! [`C_TIMEOUT`]: a mutant that loops fails with its script's seed.
//!
//! To add an operation: a line in the table above, an arm in
//! [`Twin::op`], a branch in `main` of `tests/c/icp_twins.c`, and a case
//! in [`Gen::op`].
//!
//! Why a C driver over standard input rather than FFI: the C runtime is a
//! set of `static` functions pasted into one file, a C fault (`exit`, an
//! out-of-bounds read) must not take the test process down, and the
//! driver is one C99 file built with one `cc` (as `cheg_twins.rs`).

use crate::support;
use crate::support::progen::Rng;
use crate::support::twins::{self, Ending, unhex};
use icp2c::lang::icp::runtime::board::{
    Board, Colour, Fault, Input, Kind, Name, Step, error_message, piece_from_letter, write_count,
    write_text,
};
use std::io::Write;
use std::path::{Path, PathBuf};

// ------------------------------------------------------- the Rust half

/// A drift injected into the Rust half, to see that the comparison
/// notices one (the test of the checker).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drift {
    None,
    /// `squares` lists a name's pieces oldest first.
    SquaresOldestFirst,
}

/// The Rust half: the script's board, over the Rust runtime.
#[derive(Clone)]
struct Twin {
    board: Board,
    drift: Drift,
}

/// A reader that fails, for `die read`.
struct Broken;

impl std::io::Read for Broken {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("broken"))
    }
}

impl Write for Broken {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("broken"))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::Error::other("broken"))
    }
}

fn letter(colour: Colour, kind: Kind) -> char {
    let l = match kind {
        Kind::King => 'K',
        Kind::Queen => 'Q',
        Kind::Rook => 'R',
        Kind::Bishop => 'B',
        Kind::Knight => 'N',
        Kind::Pawn => 'P',
    };
    match colour {
        Colour::White => l,
        Colour::Black => l.to_ascii_lowercase(),
    }
}

/// Bytes as a word of the script: hex, or `-` for none (the C driver
/// reads a script line as words).
fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".to_string();
    }
    twins::hex(bytes)
}

/// A loop member in the script's syntax (see the module's doc).
fn parse_step(word: &str) -> Step {
    let parts: Vec<&str> = word.split(',').collect();
    let num = |i: usize| {
        parts
            .get(i)
            .and_then(|w| w.parse::<i64>().ok())
            .unwrap_or(0)
    };
    let name = parts.get(1).and_then(|w| w.parse().ok()).unwrap_or(0);
    match parts[0] {
        "m" => Step::Move(name, num(2), num(3)),
        "s" => Step::Slide(name, num(2), num(3)),
        _ => Step::Nothing,
    }
}

fn step_text(step: &Step) -> String {
    match *step {
        Step::Move(name, dr, dc) => format!("m,{name},{dr},{dc}"),
        Step::Slide(name, dr, dc) => format!("s,{name},{dr},{dc}"),
        Step::Nothing => "n".to_string(),
    }
}

/// What an operation printed before a fault cut it short, and the fault.
type Cut = (String, Fault);

impl Twin {
    fn new(drift: Drift) -> Twin {
        Twin {
            board: Board::new(0),
            drift,
        }
    }

    /// The line one operation prints, or the fault that ends the script.
    fn op(&mut self, line: &str) -> Result<String, Cut> {
        let words: Vec<&str> = line.split(' ').collect();
        let op = words[0];
        let int = |i: usize| {
            words
                .get(i)
                .and_then(|w| w.parse::<i64>().ok())
                .unwrap_or(0)
        };
        let uint = |i: usize| {
            words
                .get(i)
                .and_then(|w| w.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let name = |i: usize| int(i) as Name;
        let cut = |fault: Fault| (String::new(), fault);
        let flag = |b: bool| if b { "1" } else { "0" }.to_string();
        let b = &mut self.board;
        Ok(match op {
            "new" => {
                *b = Board::new(uint(1) as usize);
                format!("new {}", b.names())
            }
            "place" => {
                let l = words.get(2).and_then(|w| w.chars().next()).unwrap_or(' ');
                match piece_from_letter(l) {
                    Some((colour, kind)) => flag(
                        b.place(name(1), colour, kind, int(3), int(4))
                            .map_err(cut)?,
                    ),
                    None => "no piece".to_string(),
                }
            }
            "occupy" => flag(b.occupy(name(1), int(2), int(3)).map_err(cut)?),
            "msq" => flag(
                b.move_squares(int(1), int(2), int(3), int(4))
                    .map_err(cut)?,
            ),
            "mto" => flag(b.move_name_to(name(1), int(2), int(3)).map_err(cut)?),
            "mby" => flag(b.move_name_by(name(1), int(2), int(3)).map_err(cut)?),
            "slide" => format!(
                "slid {}",
                b.slide(name(1), int(2), int(3), uint(4)).map_err(cut)?
            ),
            "loop" => {
                let steps: Vec<Step> = words[3..].iter().map(|w| parse_step(w)).collect();
                let end = b.run_loop(&steps, uint(1) as usize, uint(2));
                format!(
                    "executed {} at {} left {}",
                    end.executed,
                    end.at,
                    u8::from(end.left)
                )
            }
            "exit" => {
                let steps: Vec<Step> = words[2..].iter().map(|w| parse_step(w)).collect();
                format!("exit {}", b.loop_exit(&steps, uint(1) as usize))
            }
            "board" => {
                let mut pieces = b.pieces();
                pieces.sort_by_key(|p| (p.0, p.1));
                let mut line = format!("board {}:", pieces.len());
                for (r, c, colour, kind, n) in pieces {
                    line.push_str(&format!(" {r},{c},{}{n}", letter(colour, kind)));
                }
                line
            }
            "at" => match b.piece_at(int(1), int(2)) {
                Some((colour, kind, n)) => format!("at {}{n}", letter(colour, kind)),
                None => "at none".to_string(),
            },
            "count" => format!("count {}", b.count(name(1))),
            "squares" => {
                let mut squares = b.squares_of(name(1));
                if self.drift == Drift::SquaresOldestFirst {
                    squares.reverse();
                }
                let mut line = format!("squares {}:", b.count(name(1)));
                for (r, c) in squares {
                    line.push_str(&format!(" {r},{c}"));
                }
                line
            }
            "live" => format!("live {} names {}", b.live_pieces(), b.names()),
            "letter" => {
                let l = words.get(1).and_then(|w| w.chars().next()).unwrap_or(' ');
                match piece_from_letter(l) {
                    Some((colour, kind)) => format!("letter {}", letter(colour, kind)),
                    None => "letter none".to_string(),
                }
            }
            "read" => {
                let bytes = unhex(words.get(2).copied().unwrap_or("-"));
                let mut input = Input::new(&bytes[..]);
                let mut values = vec![0i64; uint(1) as usize];
                let k = input.read_into(&mut values).map_err(cut)?;
                let mut line = format!("read {k}:");
                for v in &values[..k] {
                    line.push_str(&format!(" {v}"));
                }
                line.push_str(" |");
                loop {
                    match input.read_int() {
                        Ok(Some(v)) => line.push_str(&format!(" {v}")),
                        Ok(None) => break,
                        Err(fault) => return Err((line, fault)),
                    }
                }
                line + " eof"
            }
            "text" => {
                let text = String::from_utf8(unhex(words[1])).expect("UTF-8 text");
                let mut out = Vec::new();
                write_text(&mut out, &text).map_err(cut)?;
                format!("text:{}", String::from_utf8_lossy(&out))
            }
            "wcount" => {
                let mut out = Vec::new();
                write_count(&mut out, uint(1)).map_err(cut)?;
                format!(
                    "count:{}",
                    String::from_utf8_lossy(&out).trim_end_matches('\n')
                )
            }
            "die" => {
                let fault = match words[1] {
                    "label" => Fault::NoSuchLabel(int(2)),
                    "eof" => Fault::EndOfInputInTarget,
                    "oom" => Fault::OutOfMemory,
                    "read" => match Input::new(std::io::BufReader::new(Broken)).read_int() {
                        Err(fault) => fault,
                        Ok(_) => return Ok("no fault".to_string()),
                    },
                    _ => match write_text(&mut Broken, "x") {
                        Err(fault) => fault,
                        Ok(()) => return Ok("no fault".to_string()),
                    },
                };
                return Err(cut(fault));
            }
            _ => format!("unknown operation {op}"),
        })
    }
}

/// The Rust half's lines for `script`, each with the number of the
/// script line that printed it; a fault ends the script with its error
/// line, as `icp_die` ends the C driver.
fn run_rust(script: &str, drift: Drift) -> Vec<(usize, String)> {
    let mut twin = Twin::new(drift);
    let mut out = Vec::new();
    for (i, line) in script.lines().enumerate() {
        match twin.op(line) {
            Ok(printed) => out.push((i, printed)),
            Err((printed, fault)) => {
                if !printed.is_empty() {
                    out.push((i, printed));
                }
                let label = i as i64 + 1;
                out.push((i, format!("error: {}", error_message(label, &fault))));
                break;
            }
        }
    }
    out
}

// ----------------------------------------------------------- the C half

/// Builds `tests/c/icp_twins.c` found under `root` (the checkout, or a
/// copy laid out alike) into `dir` ([`twins::build_driver`]).
fn build_driver(root: &Path, dir: &Path) -> Result<PathBuf, String> {
    twins::build_driver(root, "tests/c/icp_twins.c", dir, &[])
}

/// How long the C driver may take on one script (milliseconds unless a
/// C change loops).
const C_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// Runs `script` through both halves: the first difference, if any. The C
/// driver's last line is a runtime error's (`icp_die`), if any.
fn compare(exe: &Path, script: &str, drift: Drift) -> Option<String> {
    let c = twins::run_driver(exe, &[], script, Ending::RuntimeError, C_TIMEOUT);
    twins::first_difference(
        script,
        &run_rust(script, drift),
        &c,
        str::to_string,
        twins::line_as_is,
    )
}

// ------------------------------------------------------- the generator

/// Squares the pieces of a board gather near: the centre, the corners
/// and edges of i64, and one random square a board.
const ANCHORS: &[(i64, i64)] = &[
    (0, 0),
    (0, 0),
    (5, -3),
    (i64::MAX - 3, i64::MAX - 3),
    (i64::MIN + 3, i64::MIN + 3),
    (i64::MAX - 2, i64::MIN + 2),
    (i64::MIN + 2, 7),
    (-4, i64::MAX - 1),
];

/// Distances along a line: near, beyond the probes (8), far.
const FAR: &[i64] = &[
    9,
    10,
    12,
    20,
    100,
    1_000_000,
    1 << 40,
    1_000_000_000_000_000,
    1 << 62,
];

const UNITS: [(i64, i64); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

const JUMPS: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Steps no piece takes, or takes only in part; components of
/// `i64::MIN` among them (the Rust runtime once took `abs()` of a step,
/// which overflows there: tests/programs/icp/least_i64_steps.icp).
const ODD_STEPS: &[(i64, i64)] = &[
    (0, 0),
    (0, 2),
    (2, 2),
    (3, 0),
    (-2, 3),
    (i64::MAX, 0),
    (i64::MIN + 1, 1),
    (1, i64::MAX),
    (i64::MIN, 0),
    (i64::MIN, 1),
    (-1, i64::MIN),
    (i64::MIN, i64::MIN),
];

/// Relative moves whose sums overflow i64 from almost any square.
const HUGE_STEPS: &[(i64, i64)] = &[
    (i64::MIN, 0),
    (i64::MIN, i64::MAX),
    (0, i64::MIN),
    (i64::MAX, 1),
];

const LETTERS: &[u8] = b"KQRBNPkqrbnp";

/// Blanks between the numbers a reader reads (`\r` and tabs among them).
const SEPARATORS: &[&[u8]] = &[b" ", b"\n", b"\r\n\t ", b"\t", b"\r", b"\r\n", b"  \t", b""];

/// Budgets the runtimes may have to step through one statement at a time.
const SMALL_MOST: u64 = 3000;

/// A piece as the generator sees it.
#[derive(Clone, Copy)]
struct Seen {
    row: i64,
    col: i64,
    colour: Colour,
    kind: Kind,
    name: Name,
}

struct Gen<'r> {
    rng: &'r mut Rng,
    /// The Rust half, run over each operation as it is written.
    twin: Twin,
    names: u32,
    /// This board is one of `occupy` (no piece moves).
    occupy: bool,
    anchors: Vec<(i64, i64)>,
    out: String,
    /// The script ended with a fault.
    ended: bool,
    /// The step each piece of a loop scene is meant to take, by name.
    plans: Vec<(Name, (i64, i64))>,
}

fn lines_of(kind: Kind) -> u8 {
    match kind {
        Kind::Queen => 3,
        Kind::Rook => 1,
        Kind::Bishop => 2,
        _ => 0,
    }
}

fn is_unit(v: (i64, i64)) -> bool {
    v != (0, 0) && v.0.unsigned_abs() <= 1 && v.1.unsigned_abs() <= 1
}

fn is_jump(v: (i64, i64)) -> bool {
    matches!((v.0.unsigned_abs(), v.1.unsigned_abs()), (1, 2) | (2, 1))
}

impl Gen<'_> {
    /// Writes `line` and runs it over the generator's board.
    fn push(&mut self, line: &str) {
        self.out.push_str(line);
        self.out.push('\n');
        if self.twin.op(line).is_err() {
            self.ended = true;
        }
    }

    fn pieces(&self) -> Vec<Seen> {
        self.twin
            .board
            .pieces()
            .into_iter()
            .map(|(row, col, colour, kind, name)| Seen {
                row,
                col,
                colour,
                kind,
                name,
            })
            .collect()
    }

    fn has_king(&self, colour: Colour) -> bool {
        self.pieces()
            .iter()
            .any(|p| p.colour == colour && p.kind == Kind::King)
    }

    /// A name; in a loop scene mostly a bystander's (the scene's pieces
    /// stay alone with their names).
    fn name(&mut self) -> Name {
        if !self.plans.is_empty() && self.rng.chance(80) {
            return self.rng.range(4, 7) as Name;
        }
        self.rng.below(self.names as usize) as Name
    }

    fn offset(&mut self) -> i64 {
        match self.rng.below(10) {
            0..=6 => self.rng.range(-4, 4),
            7 | 8 => {
                let d = *self.rng.pick(FAR);
                if self.rng.chance(50) { d } else { -d }
            }
            _ => self.rng.next() as i64,
        }
    }

    fn near(&mut self, (r, c): (i64, i64)) -> (i64, i64) {
        let (dr, dc) = (self.offset(), self.offset());
        (r.saturating_add(dr), c.saturating_add(dc))
    }

    /// A square `k` steps of `v` from `from`, cut at the i64 edge.
    fn along(from: (i64, i64), v: (i64, i64), k: i64) -> (i64, i64) {
        let at = |x: i64, d: i64| {
            (x as i128 + d as i128 * k as i128).clamp(i64::MIN as i128, i64::MAX as i128) as i64
        };
        (at(from.0, v.0), at(from.1, v.1))
    }

    /// A square for a new piece: near an anchor, near or in line with a
    /// piece, or anywhere.
    fn square(&mut self) -> (i64, i64) {
        let pieces = self.pieces();
        match self.rng.below(10) {
            0..=3 => {
                let a = *self.rng.pick(&self.anchors);
                self.near(a)
            }
            4..=8 if !pieces.is_empty() => {
                let p = *self.rng.pick(&pieces);
                if self.rng.chance(50) {
                    let v = *self.rng.pick(&UNITS);
                    let k = if self.rng.chance(60) {
                        self.rng.range(1, 4)
                    } else {
                        *self.rng.pick(FAR)
                    };
                    Gen::along((p.row, p.col), v, k)
                } else if self.rng.chance(30) {
                    let v = *self.rng.pick(&JUMPS);
                    Gen::along((p.row, p.col), v, 1)
                } else {
                    let (dr, dc) = (self.rng.range(-2, 2), self.rng.range(-2, 2));
                    ((p.row.saturating_add(dr)), p.col.saturating_add(dc))
                }
            }
            _ => (self.rng.next() as i64, self.rng.next() as i64),
        }
    }

    fn place(&mut self, name: Name, l: u8, (r, c): (i64, i64)) {
        self.push(&format!("place {name} {} {r} {c}", l as char));
    }

    /// A target for a piece: its kind's geometry, along a line (to
    /// another piece, just short of or past it, far, to the edge), onto
    /// a piece, or anywhere near.
    fn target(&mut self, p: Seen) -> (i64, i64) {
        let from = (p.row, p.col);
        let pieces = self.pieces();
        match self.rng.below(10) {
            0 | 1 => {
                let v = match self.rng.below(3) {
                    0 => *self.rng.pick(&JUMPS),
                    1 => *self.rng.pick(&UNITS),
                    _ => (
                        if p.colour == Colour::White { 1 } else { -1 },
                        self.rng.range(-1, 1),
                    ),
                };
                Gen::along(from, v, 1)
            }
            2..=4 => {
                let v = *self.rng.pick(&UNITS);
                let in_line: Vec<i64> = pieces
                    .iter()
                    .filter_map(|q| on_ray(from, v, (q.row, q.col)))
                    .collect();
                let k = match self.rng.below(4) {
                    0 if !in_line.is_empty() => *self.rng.pick(&in_line) + self.rng.range(-1, 1),
                    1 => *self.rng.pick(FAR),
                    2 => i64::MAX,
                    _ => self.rng.range(1, 4),
                };
                Gen::along(from, v, k.max(1))
            }
            5 | 6 if !pieces.is_empty() => {
                let q = *self.rng.pick(&pieces);
                (q.row, q.col)
            }
            7 => self.square(),
            _ => {
                let (dr, dc) = (self.rng.range(-3, 3), self.rng.range(-3, 3));
                (p.row.saturating_add(dr), p.col.saturating_add(dc))
            }
        }
    }

    /// A step for the pieces called `name`: one of their kind's, mostly.
    fn step_for(&mut self, name: Name) -> (i64, i64) {
        if let Some(&(_, plan)) = self.plans.iter().find(|(n, _)| *n == name)
            && self.rng.chance(75)
        {
            return plan;
        }
        let head = self.head(name);
        match (head, self.rng.below(10)) {
            (Some(p), 0..=6) => match p.kind {
                Kind::Knight => *self.rng.pick(&JUMPS),
                Kind::Pawn if self.rng.chance(70) => {
                    (if p.colour == Colour::White { 1 } else { -1 }, 0)
                }
                Kind::Rook => *self.rng.pick(&UNITS[..4]),
                Kind::Bishop => *self.rng.pick(&UNITS[4..]),
                _ => *self.rng.pick(&UNITS),
            },
            (_, 7) => *self.rng.pick(ODD_STEPS),
            (_, 8) => *self.rng.pick(&JUMPS),
            _ => *self.rng.pick(&UNITS),
        }
    }

    /// The newest piece called `name`.
    fn head(&self, name: Name) -> Option<Seen> {
        let (r, c) = *self.twin.board.squares_of(name).first()?;
        self.pieces().into_iter().find(|p| (p.row, p.col) == (r, c))
    }

    /// Whether `slide` of `name` by `v` takes the runtime's closed form
    /// (so that a budget of any size costs little): one piece of the
    /// name, no king of its colour, a knight's jump among few pieces or a
    /// unit step along one of its lines (a pawn's push).
    fn slides_fast(&self, name: Name, v: (i64, i64)) -> bool {
        if self.twin.board.count(name) != 1 {
            return false;
        }
        let Some(p) = self.head(name) else {
            return false;
        };
        if self.has_king(p.colour) {
            return false;
        }
        match p.kind {
            Kind::Knight => is_jump(v) && self.twin.board.live_pieces() <= 64,
            Kind::Pawn => v == (if p.colour == Colour::White { 1 } else { -1 }, 0),
            kind => {
                let line = if v.0 == 0 || v.1 == 0 { 1 } else { 2 };
                is_unit(v) && lines_of(kind) & line != 0
            }
        }
    }

    /// Whether every round of a loop of `steps` may be skipped, so that
    /// any budget costs little and the loop ends soon: moves and
    /// nothings only, each move of its own lone piece, of a king-less
    /// colour, by a step it takes freely (`Board::begin_round`). Each
    /// round then either is skipped up to the next event, or meets one:
    /// a capture (a piece fewer), a blocked move or the edge (the loop
    /// ends).
    fn skippable(&self, steps: &[Step]) -> bool {
        let mut seen = Vec::new();
        steps.len() <= 8
            && steps.iter().all(|s| match *s {
                Step::Nothing => true,
                Step::Slide(..) => false,
                Step::Move(name, dr, dc) => {
                    let ok = !seen.contains(&name)
                        && self.slides_fast(name, (dr, dc))
                        && (is_unit((dr, dc)) || is_jump((dr, dc)));
                    seen.push(name);
                    ok
                }
            })
    }

    /// A budget for `slide` or `loop`: huge only where `fast`.
    fn most(&mut self, fast: bool, exact: &[i64]) -> u64 {
        match self.rng.below(10) {
            0..=4 if !exact.is_empty() => {
                let off = if self.rng.chance(50) {
                    0
                } else {
                    self.rng.range(-1, 1)
                };
                (*self.rng.pick(exact) + off).max(0) as u64
            }
            3..=5 if fast => {
                let any = self.rng.next();
                *self.rng.pick(&[
                    u64::MAX,
                    u64::MAX - 1,
                    i64::MAX as u64,
                    1 << 62,
                    1_000_000_000_000_000_000,
                    any,
                ])
            }
            6 => 0,
            _ => self.rng.range(1, 12) as u64,
        }
        .min(if fast { u64::MAX } else { SMALL_MOST })
    }

    fn op(&mut self, length_left: usize) {
        if self.occupy {
            return self.occupy_op();
        }
        let pieces = self.pieces();
        let roll = if !self.plans.is_empty() && self.rng.chance(30) {
            // A loop scene: its loops and slides more often.
            *self.rng.pick(&[46, 56, 60, 64])
        } else {
            self.rng.below(100)
        };
        match roll {
            0..=17 => {
                let name = self.name();
                let l = *self.rng.pick(LETTERS);
                let sq = self.square();
                self.place(name, l, sq);
            }
            18..=27 if !pieces.is_empty() => {
                let p = *self.rng.pick(&pieces);
                let (r, c) = if self.rng.chance(10) {
                    self.square()
                } else {
                    (p.row, p.col)
                };
                let (tr, tc) = self.target(p);
                self.push(&format!("msq {r} {c} {tr} {tc}"));
            }
            28..=35 if !pieces.is_empty() => {
                let p = *self.rng.pick(&pieces);
                let (tr, tc) = self.target(p);
                self.push(&format!("mto {} {tr} {tc}", p.name));
            }
            36..=45 if !pieces.is_empty() => {
                let kings: Vec<Seen> = pieces
                    .iter()
                    .copied()
                    .filter(|p| p.kind == Kind::King)
                    .collect();
                let p = if !kings.is_empty() && self.rng.chance(40) {
                    *self.rng.pick(&kings)
                } else {
                    *self.rng.pick(&pieces)
                };
                let (dr, dc) = if p.kind == Kind::King && self.rng.chance(60) {
                    // Into and out of the attacks about it.
                    *self.rng.pick(&UNITS)
                } else if self.rng.chance(10) {
                    *self.rng.pick(ODD_STEPS)
                } else if self.rng.chance(6) {
                    *self.rng.pick(HUGE_STEPS)
                } else {
                    let (tr, tc) = self.target(p);
                    (
                        tr.checked_sub(p.row).unwrap_or(i64::MAX),
                        tc.checked_sub(p.col).unwrap_or(i64::MIN),
                    )
                };
                self.push(&format!("mby {} {dr} {dc}", p.name));
            }
            46..=55 => {
                let name = if !self.plans.is_empty() && self.rng.chance(60) {
                    self.plans[self.rng.below(self.plans.len())].0
                } else {
                    self.name()
                };
                let v = self.step_for(name);
                let exact: Vec<i64> = match self.head(name) {
                    Some(p) => pieces
                        .iter()
                        .filter_map(|q| on_ray((p.row, p.col), v, (q.row, q.col)))
                        .collect(),
                    None => Vec::new(),
                };
                let fast = self.slides_fast(name, v);
                let most = self.most(fast, &exact);
                self.push(&format!("slide {name} {} {} {most}", v.0, v.1));
            }
            56..=69 => self.loop_op(),
            70..=77 => self.push("board"),
            78..=81 => {
                let (r, c) = if !pieces.is_empty() && self.rng.chance(70) {
                    let p = *self.rng.pick(&pieces);
                    (p.row, p.col)
                } else {
                    self.square()
                };
                self.push(&format!("at {r} {c}"));
            }
            82..=84 => {
                let name = self.name();
                self.push(&format!("count {name}"));
            }
            85..=87 => {
                let name = self.name();
                self.push(&format!("squares {name}"));
            }
            88 | 89 => self.push("live"),
            90..=93 => {
                let may_fault = length_left < 3 && self.rng.chance(50);
                self.read_op(may_fault)
            }
            94 => self.text_op(),
            95 => {
                let n = match self.rng.below(4) {
                    0 => *self.rng.pick(&[0, 9, 10, 99, 100, u64::MAX, 1 << 63]),
                    1 => self.rng.next(),
                    _ => self.rng.below(1000) as u64,
                };
                self.push(&format!("wcount {n}"));
            }
            96 => {
                let l = *self.rng.pick(b"KQRBNPkqrbnpXxAz1_");
                self.push(&format!("letter {}", l as char));
            }
            97 if length_left < 3 => self.die_op(),
            98 | 99 => self.new_board(),
            _ => {
                // An empty board: a piece first.
                let name = self.name();
                let l = *self.rng.pick(LETTERS);
                let sq = self.square();
                self.place(name, l, sq);
            }
        }
        if !self.ended && self.rng.chance(25) {
            self.push("board");
        }
    }

    fn occupy_op(&mut self) {
        match self.rng.below(10) {
            0..=4 => {
                let name = self.name();
                let (r, c) = self.square_occupy();
                self.push(&format!("occupy {name} {r} {c}"));
            }
            5 => {
                let (r, c) = self.square_occupy();
                self.push(&format!("at {r} {c}"));
            }
            6 => {
                let name = self.name();
                self.push(&format!("count {name}"));
            }
            7 => {
                let name = self.name();
                self.push(&format!("squares {name}"));
            }
            8 => self.push("live"),
            _ => self.new_board(),
        }
    }

    fn square_occupy(&mut self) -> (i64, i64) {
        let a = *self.rng.pick(&self.anchors);
        if self.rng.chance(80) {
            (
                a.0.saturating_add(self.rng.range(-2, 2)),
                a.1.saturating_add(self.rng.range(-2, 2)),
            )
        } else {
            self.near(a)
        }
    }

    fn loop_op(&mut self) {
        let members = match self.rng.below(10) {
            0 => 0,
            1 => self.rng.range(9, 10) as usize,
            _ => self.rng.range(1, 4) as usize,
        };
        let mut steps = Vec::new();
        if !self.plans.is_empty() && self.rng.chance(60) {
            // The scene's pieces, each by its step, in some order.
            let mut plans = self.plans.clone();
            while !plans.is_empty() {
                let (name, (dr, dc)) = plans.swap_remove(self.rng.below(plans.len()));
                steps.push(if self.rng.chance(12) {
                    Step::Slide(name, dr, dc)
                } else {
                    Step::Move(name, dr, dc)
                });
                if self.rng.chance(15) {
                    steps.push(Step::Nothing);
                }
            }
        }
        let members = if steps.is_empty() { members } else { 0 };
        for _ in 0..members {
            let name = self.name();
            steps.push(match self.rng.below(10) {
                0..=5 => {
                    let (dr, dc) = self.step_for(name);
                    Step::Move(name, dr, dc)
                }
                6 | 7 => {
                    let (dr, dc) = self.step_for(name);
                    Step::Slide(name, dr, dc)
                }
                _ => Step::Nothing,
            });
        }
        let start = if self.rng.chance(8) {
            steps.len() + self.rng.below(2)
        } else {
            self.rng.below(steps.len().max(1))
        };
        let text: Vec<String> = steps.iter().map(step_text).collect();
        let text = text.join(" ");
        let skippable = self.skippable(&steps);
        // `exit` where the loop surely ends soon.
        if self.rng.chance(35) {
            let ends = skippable && steps.iter().any(|s| matches!(s, Step::Move(..))) || {
                let mut probe = self.twin.board.clone();
                probe.run_loop(&steps, start, SMALL_MOST).left
            };
            if ends {
                return self.push(format!("exit {start} {text}").trim_end());
            }
        }
        let most = self.most(skippable, &[]);
        self.push(format!("loop {start} {most} {text}").trim_end());
    }

    fn read_op(&mut self, may_fault: bool) {
        for _ in 0..8 {
            let mut bytes = Vec::new();
            for _ in 0..self.rng.range(0, 6) {
                bytes.extend_from_slice(self.rng.pick::<&[u8]>(SEPARATORS));
                let token = match self.rng.below(12) {
                    0..=3 => self.rng.range(-1000, 1000).to_string(),
                    4 => (self.rng.next() as i64).to_string(),
                    5..=7 => self
                        .rng
                        .pick(&[
                            "9223372036854775807",
                            "-9223372036854775808",
                            "9223372036854775808",
                            "-9223372036854775809",
                            "+9223372036854775807",
                            "922337203685477580",
                            "92233720368547758070",
                            "18446744073709551616",
                            "-0",
                            "+0",
                            "000000000000000000000042",
                            "-00009223372036854775808",
                            "1844674407370955161",
                        ])
                        .to_string(),
                    8 => format!("+{}", self.rng.range(0, 99)),
                    9 => self
                        .rng
                        .pick(&[
                            "x", "-", "+", "--1", "+-2", "1x", "\u{0}", "\u{ff}", "§", "\u{b}3",
                            "\u{c}",
                        ])
                        .to_string(),
                    _ => format!("{}-{}", self.rng.range(0, 9), self.rng.range(0, 9)),
                };
                bytes.extend_from_slice(token.as_bytes());
            }
            if self.rng.chance(30) {
                bytes.extend_from_slice(self.rng.pick::<&[u8]>(&SEPARATORS[..3]));
            }
            let n = self.rng.range(0, 5);
            let faults = {
                let mut input = Input::new(&bytes[..]);
                let mut values = vec![0; n as usize];
                input.read_into(&mut values).is_err()
                    || std::iter::from_fn(|| match input.read_int() {
                        Ok(Some(_)) => Some(false),
                        Ok(None) => None,
                        Err(_) => Some(true),
                    })
                    .any(|f| f)
            };
            if !faults || may_fault {
                return self.push(&format!("read {n} {}", hex(&bytes)));
            }
        }
    }

    fn text_op(&mut self) {
        let mut text = String::new();
        for _ in 0..self.rng.range(0, 12) {
            text.push(*self.rng.pick(&[
                'a',
                'Z',
                ' ',
                '\t',
                '\u{0}',
                '"',
                '\\',
                '%',
                '?',
                '!',
                '#',
                '*',
                '§',
                'é',
                '♔',
                '\u{7f}',
                '\u{1f600}',
            ]));
        }
        self.push(&format!("text {}", hex(text.as_bytes())));
    }

    fn die_op(&mut self) {
        let line = match self.rng.below(5) {
            0 => format!(
                "die label {}",
                *self.rng.pick(&[0, -1, 7, i64::MIN, i64::MAX])
            ),
            1 => "die eof".to_string(),
            2 => "die oom".to_string(),
            3 => "die read".to_string(),
            _ => "die write".to_string(),
        };
        self.push(&line);
    }

    /// A new board: of `occupy` now and then; else of pieces, some of
    /// them set for loops: lone king-less pieces (names 0 to 3) beside
    /// one another, blockers ahead of them near and far, the edge near.
    fn new_board(&mut self) {
        self.occupy = self.rng.chance(8);
        let scene = !self.occupy && self.rng.chance(55);
        self.names = if scene {
            8
        } else {
            self.rng.range(2, 7) as u32
        };
        self.push(&format!("new {}", self.names));
        self.anchors = (0..self.rng.range(1, 3))
            .map(|_| *self.rng.pick(ANCHORS))
            .collect();
        if self.rng.chance(50) {
            let r = self.rng.next() as i64;
            self.anchors.push((r, (r as u64).rotate_left(17) as i64));
        }
        self.plans.clear();
        if !scene {
            if !self.occupy && self.rng.chance(80) {
                self.king_scene();
            }
            return;
        }
        // A scene for loops: lone pieces (names 0 to 3) of one colour
        // with a step each, one beside or facing another (collisions).
        let base = *self.rng.pick(&self.anchors);
        let colour_up = self.rng.chance(50);
        let forward = if colour_up { 1 } else { -1 };
        let movers = self.rng.range(1, 4) as Name;
        let mut at = base;
        let mut last: Option<(i64, i64)> = None;
        for name in 0..movers {
            let facing = last.filter(|_| self.rng.chance(40));
            let kind = match facing {
                Some(_) => b'Q',
                None => *self.rng.pick(b"RBQQNNNP"),
            };
            let l = if colour_up {
                kind
            } else {
                kind.to_ascii_lowercase()
            };
            let plan = match (facing, kind) {
                (Some(w), _) => {
                    // On the last one's ray, stepping back at it.
                    at = Gen::along(at, w, self.rng.range(1, 5));
                    (-w.0, -w.1)
                }
                (None, b'N') => *self.rng.pick(&JUMPS),
                (None, b'P') => (forward, 0),
                (None, b'R') => *self.rng.pick(&UNITS[..4]),
                (None, b'B') => *self.rng.pick(&UNITS[4..]),
                _ => *self.rng.pick(&UNITS),
            };
            if facing.is_none() {
                let v = *self.rng.pick(&UNITS);
                let k = if self.rng.chance(60) {
                    1
                } else {
                    self.rng.range(2, 6)
                };
                at = Gen::along(at, v, k);
            }
            self.place(name, l, at);
            self.plans.push((name, plan));
            if kind == b'N' && self.rng.chance(60) {
                // A piece on its jumps' ray, own or enemy: where a knight's
                // slide stops, and its skipped rounds too.
                let k = self.rng.range(2, 6);
                let sq = Gen::along(at, plan, k);
                let own = if colour_up { b'R' } else { b'r' };
                let l = if self.rng.chance(50) { own } else { own ^ 0x20 };
                let bystander = self.rng.range(4, 7) as Name;
                self.place(bystander, l, sq);
                if self.rng.chance(50) {
                    // Slid as far as that piece, exactly (no king yet).
                    self.push(&format!("slide {name} {} {} {k}", plan.0, plan.1));
                } else {
                    // Jumping round a loop into it: rounds skipped up to it.
                    self.push(&format!(
                        "loop 0 {} m,{name},{},{}",
                        u64::MAX,
                        plan.0,
                        plan.1
                    ));
                }
                self.push("board");
            }
            last = Some(plan);
        }
        // Blockers and bystanders (names 4 to 7), on the movers' rays
        // (own and enemy, near and far), a king now and then.
        for _ in 0..self.rng.range(0, 4) {
            let name = self.rng.range(4, 7) as Name;
            let k = if self.rng.chance(50) {
                self.rng.range(1, 6)
            } else {
                *self.rng.pick(FAR)
            };
            let (from, v) = match self.plans.len() {
                0 => (base, *self.rng.pick(&UNITS)),
                n => {
                    let (mover, plan) = self.plans[self.rng.below(n)];
                    let from = self.head(mover).map_or(base, |p| (p.row, p.col));
                    if self.rng.chance(70) {
                        (from, plan)
                    } else {
                        (from, *self.rng.pick(&UNITS))
                    }
                }
            };
            let sq = Gen::along(from, v, k);
            let kings = self.rng.chance(15);
            let l = *self.rng.pick(if kings {
                b"Kk".as_slice()
            } else {
                b"RBNPrbnpqQ"
            });
            self.place(name, l, sq);
        }
    }

    /// A king with enemies about it (pawns, knights, kings beside it,
    /// sliders in line near and far) and a friend or two to pin.
    fn king_scene(&mut self) {
        let base = *self.rng.pick(&self.anchors);
        let white = self.rng.chance(50);
        let name = self.name();
        self.place(name, if white { b'K' } else { b'k' }, base);
        for _ in 0..self.rng.range(1, 5) {
            let name = self.name();
            let enemy = self.rng.chance(75);
            let kind = *self.rng.pick(b"PPPNKRBQ");
            let l = if white == enemy {
                kind.to_ascii_lowercase()
            } else {
                kind
            };
            let sq = match kind {
                b'R' | b'B' | b'Q' => {
                    let v = *self.rng.pick(&UNITS);
                    let k = if self.rng.chance(50) {
                        self.rng.range(2, 4)
                    } else {
                        *self.rng.pick(FAR)
                    };
                    Gen::along(base, v, k)
                }
                _ => (
                    base.0.saturating_add(self.rng.range(-2, 2)),
                    base.1.saturating_add(self.rng.range(-2, 2)),
                ),
            };
            self.place(name, l, sq);
        }
    }
}

/// `k` ≥ 1 when `to` is `k` steps of `v` from `from`.
fn on_ray(from: (i64, i64), v: (i64, i64), to: (i64, i64)) -> Option<i64> {
    let (er, ec) = (to.0 as i128 - from.0 as i128, to.1 as i128 - from.1 as i128);
    let (vr, vc) = (v.0 as i128, v.1 as i128);
    let k = if vr != 0 {
        er / vr
    } else if vc != 0 {
        ec / vc
    } else {
        return None;
    };
    (k > 0 && er == k * vr && ec == k * vc)
        .then(|| i64::try_from(k).ok())
        .flatten()
}

/// The script of `seed`: boards of pieces (and now and then of
/// `occupy`), with operations on them, maybe ending with a fault.
fn script(seed: u64, length: usize) -> String {
    let mut rng = Rng(seed);
    let mut g = Gen {
        rng: &mut rng,
        twin: Twin::new(Drift::None),
        names: 0,
        occupy: false,
        anchors: Vec::new(),
        out: String::new(),
        ended: false,
        plans: Vec::new(),
    };
    g.new_board();
    for i in 0..length {
        if g.ended {
            break;
        }
        g.op(length - i);
    }
    // Now and then the end of a program: a runtime error.
    if !g.ended && g.rng.chance(40) {
        if g.rng.chance(50) {
            g.die_op();
        } else {
            g.read_op(true);
        }
    }
    g.out
}

// ---------------------------------------------------------------- tests

/// Scripts compared on each run: seeds `SEED..SEED + SCRIPTS`.
/// `ICP2C_ICP_TWINS=N` compares N scripts instead.
const SEED: u64 = 0x1c9_2024;
const SCRIPTS: u64 = 64;
const LENGTH: usize = 120;

#[cfg_attr(
    icp2c_no_cc,
    ignore = "needs the C compiler $CC (default cc), missing when the tests were built"
)]
#[test]
fn icp_c_and_rust_runtimes_agree_function_by_function() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build_driver(&support::root(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
    twins::agree(
        ("InfChessPro", "tests/it/icp_twins.rs", "ICP2C_ICP_TWINS"),
        (SEED, SCRIPTS),
        |seed| script(seed, LENGTH),
        |script| compare(&exe, script, Drift::None),
    );
}

/// A script that reaches a king's geometry and a name's order.
const KNOWN: &str = "new 3
place 1 K 0 0
place 1 k 5 5
place 1 K 10 0
squares 1
msq 0 0 1 2
msq 0 0 1 1
board
read 2 2b3720092d390d0a3932323333373230333638353437373538303720
";

#[cfg_attr(
    icp2c_no_cc,
    ignore = "needs the C compiler $CC (default cc), missing when the tests were built"
)]
#[test]
fn the_checker_sees_a_c_mutant_and_a_rust_drift() {
    let root = support::root();
    let dir = tempfile::tempdir().unwrap();
    let exe = build_driver(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(compare(&exe, KNOWN, Drift::None), None);
    // The Rust half drifting: a name's pieces listed oldest first.
    let drift = compare(&exe, KNOWN, Drift::SquaresOldestFirst).expect("a drift is seen");
    assert!(drift.contains("squares 1"), "{drift}");
    // The C runtime drifting: a king that also moves as a knight.
    let patched = patched_copy(
        &root,
        dir.path(),
        "board/moves.c",
        "fits = adr <= 1 && adc <= 1;",
        "fits = adr <= 2 && adc <= 2;",
    );
    let mutant_dir = dir.path().join("mutant");
    std::fs::create_dir_all(&mutant_dir).unwrap();
    let mutant = build_driver(&patched, &mutant_dir).unwrap_or_else(|e| panic!("{e}"));
    let seen = compare(&mutant, KNOWN, Drift::None).expect("the mutant is seen");
    assert!(seen.contains("msq 0 0 1 2"), "{seen}");
}

/// A copy of the C driver and the C runtime under `dir/copy`, laid out as
/// in the checkout, with `from` replaced by `to` (exactly once) in the
/// runtime file `file` (one of [`C_RUNTIME`]).
fn patched_copy(root: &Path, dir: &Path, file: &str, from: &str, to: &str) -> PathBuf {
    let driver = "tests/c/icp_twins.c";
    twins::patched_copy(root, dir, driver, RUNTIME_DIR, C_RUNTIME, (file, from, to))
}

/// Where the C runtime's files are.
const RUNTIME_DIR: &str = "src/lang/icp/runtime";

/// The C runtime's files under [`RUNTIME_DIR`], as the driver includes
/// them.
const C_RUNTIME: &[&str] = &[
    "board.c",
    "board/pieces.c",
    "board/table.c",
    "board/rays.c",
    "board/moves.c",
    "board/loops.c",
    "board/io.c",
];

/// One-line mutants of the C runtime, each of which the random scripts
/// must see, as (file, text as it is, text mutated).
const MUTANTS: &[(&str, &str, &str)] = &[
    // table: the sign of a zero difference (a rook's check along a row).
    (
        "board/table.c",
        "*sign = (b > a) - (b < a);",
        "*sign = (b >= a) - (b < a);",
    ),
    // table: backward-shift deletion leaves an entry at its home behind.
    (
        "board/table.c",
        "if (((j - home) & mask) >= ((j - hole) & mask)) {",
        "if (((j - home) & mask) > ((j - hole) & mask)) {",
    ),
    // rays: a piece at the ray's last square not seen (indexed rays).
    (
        "board/rays.c",
        "if (best == 0 || best > limit)",
        "if (best == 0 || best >= limit)",
    ),
    // rays: the index finds the ray's own square.
    (
        "board/rays.c",
        "            if (icp_nodes[t].pos > pos) {",
        "            if (icp_nodes[t].pos >= pos) {",
    ),
    // moves: a knight's second geometry.
    (
        "board/moves.c",
        "fits = (adr == 1 && adc == 2) || (adr == 2 && adc == 1);",
        "fits = (adr == 1 && adc == 2) || (adr == 2 && adc == 2);",
    ),
    // moves: pawns attack backwards.
    (
        "board/moves.c",
        "(icp_enemy_at(kr, kc, 2 * enemy - 1, -1, enemy, ICP_PAWN) ||",
        "(icp_enemy_at(kr, kc, 1 - 2 * enemy, -1, enemy, ICP_PAWN) ||",
    ),
    // moves: the anti-diagonal rays of the check test swapped.
    (
        "board/moves.c",
        "(sr > 0 ? 0x40u : 0x80u);",
        "(sr > 0 ? 0x80u : 0x40u);",
    ),
    // moves: a blocked line slide counts the move it did not make.
    (
        "board/moves.c",
        "*made = moves + k - 1;",
        "*made = moves + k;",
    ),
    // moves: a knight's slide jumps onto an own piece at its last jump.
    (
        "board/moves.c",
        "for (i = 0; i < n && ks[i] <= limit; i++) {",
        "for (i = 0; i < n && ks[i] < limit; i++) {",
    ),
    // loops: a collision in the very next round not foreseen.
    (
        "board/loops.c",
        "if (icp_wide_cmp(found, icp_wide_u(1)) < 0 || found.hi != 0)",
        "if (icp_wide_cmp(found, icp_wide_u(1)) <= 0 || found.hi != 0)",
    ),
    // loops: skipped rounds move a piece one step short.
    (
        "board/loops.c",
        "tr = icp_step(p->row, icp_sign(lp->dr), rounds * adr);",
        "tr = icp_step(p->row, icp_sign(lp->dr), (rounds - 1) * adr);",
    ),
    // loops: a knight's skipped rounds land on the piece in its way.
    (
        "board/loops.c",
        "if (ar / adr - 1 < run)",
        "if (ar / adr < run)",
    ),
    // io: the largest numbers refused.
    (
        "board/io.c",
        "if (v > (lim - d) / 10u)",
        "if (v >= (lim - d) / 10u)",
    ),
    // io: '\r' not a blank.
    (
        "board/io.c",
        "if (ch != ' ' && ch != '\\t' && ch != '\\r' && ch != '\\n')",
        "if (ch != ' ' && ch != '\\t' && ch != '\\n')",
    ),
];

/// Each of [`MUTANTS`] built into the driver and compared on the random
/// scripts of the quick test until a difference shows (one build each).
#[cfg_attr(
    icp2c_no_cc,
    ignore = "needs the C compiler $CC (default cc), missing when the tests were built"
)]
#[test]
#[ignore = "builds the C driver once per mutant (about 2 s each)"]
fn each_seeded_c_mutant_is_seen() {
    let root = support::root();
    let scripts: Vec<(u64, String)> = (SEED..SEED + SCRIPTS)
        .map(|seed| (seed, script(seed, LENGTH)))
        .collect();
    twins::mutants_seen(
        MUTANTS,
        |(file, _, to)| format!("{file}: {to:?}"),
        |at, (file, from, to)| {
            let copy = patched_copy(&root, at, file, from, to);
            build_driver(&copy, at).unwrap_or_else(|e| panic!("{e}"))
        },
        &scripts,
        |exe, script| compare(exe, script, Drift::None),
    );
}
