//! Finvara's twin board runtimes compared function by function: the Rust
//! runtime (`src/lang/finvara/runtime/board.rs`, which the interpreter
//! and generated Rust run) and its C port (`board.c`, after the C
//! prelude, which generated C carries) answer the same operations with
//! the same lines.
//!
//! An operation script (one operation a line) goes to two interpreters of
//! it: [`Twin`] here, calling the Rust runtime in this process, and the C
//! driver `tests/c/fin_twins.c`, which includes the C runtime whole and
//! reads the script on standard input. Each prints one line per operation
//! (after the numbers the runtime itself printed during it, action 4 of
//! §4, one line each); the lines must be the same, and a difference is
//! reported with the operation, its line of the script and the script's
//! seed.
//!
//! The operations, `OP ARGS` (the state: a kinds table, a game on it, the
//! input stream). Every line but a fault's ends with ` #` and the state
//! after the operation: the game's cells (`-1` hole, `0` empty, `1 + 2 *
//! kind + colour`), then ` |` and White's stack, ` |` and Black's, bottom
//! first (` # -` before the first game; `Game::board`, `Game::stack` /
//! the `icp_game`'s `board` and `stacks`). The interpreter-only
//! `take_stacks` and `set_stacks` have no C twin and are not used.
//!
//! | operation | runtime functions (Rust / C) | prints |
//! | --- | --- | --- |
//! | `kinds N (V OF R NW W… NB B…)×N` | `Kind` / `icp_kind` (value, value kind, royal, both path programs) | `ok` |
//! | `new W H CELLS…` | `Game::new`, `read_from`, `write_to` / `icp_game_init` | `ok` |
//! | `step T C K F TO P` | `Game::step` / `icp_step` | `true` or `false` |
//! | `play PC T C K F TO P` | `Game::play` (and `skip`) / `icp_play` | `next N` |
//! | `place C K SQ` | `Game::place` / `icp_place` | `ok` |
//! | `over` | `Game::game_over` / `icp_game_over` (§5.4) | `true` or `false` |
//! | `skip` | `Game::skip` / `icp_skip` | `true` or `false` |
//! | `moves K C SQ` | the move search (`Search`, through `step` on a copy of the board) / `icp_explore` through `icp_step` | `piece P:` (`piece` / `1 + 2 * kind + colour`) and each valid `TO` or `TO=PROMO`, in (to, promotion) order |
//! | `input HEX` | the input stream (a `BufRead` served in chunks of 1–3 bytes / standard input reopened on a file) | `ok` |
//! | `read` | `read_number` / `icp_read_number` | the number |
//! | `flush` | `Game::flush_output` / `fflush` | `ok` |
//! | `causes` | `Fault::cause` / `ICP_NOT_A_NUMBER` … `ICP_NO_MEMORY` | the five causes |
//! | `fault T C N` | `RuntimeError`'s `Display`, `colour_name` / `icp_fail` | the error line (the script ends) |
//!
//! Faults: a runtime error ends the script on both sides. The Rust half
//! prints `error: ` and the [`RuntimeError`] (the line a program prints);
//! the C runtime's `icp_fail` flushes standard output, prints that line
//! on standard error and exits with status 1, and the harness ([`run_c`])
//! appends a lone `error: ` line of standard error, after exit status 1,
//! to the C driver's lines (anything else, another status or more text,
//! is a line no Rust line equals). A `read` names the turn and colour of
//! the last `step` or `play` of the game (turn 0 W after `new`), as C's
//! `icp_fail` does; `fault` reaches every cause, also those no script
//! can meet (`CannotRead`, `CannotWrite`, whose line names no move,
//! `NoMemory`), and colour 2 (`B`).
//!
//! Kinds tables come from Finvara source compiled by the project's own
//! front end (`finvara::check`, then `interp::runtime_kinds`): random
//! headers (notations of `support::progen`, captures of every form — `x`,
//! double and triple captures, `c(…)`, captures that end in a hole —
//! promotions `p` and `->[…]`, ranks, `"s"` calls, every value form and
//! the 64-bit edges) or the header of a test program
//! (`tests/programs/finvara/*.fin`, `examples/*.fin`). The script carries
//! the table to both halves, so the C driver needs no generated program
//! (unlike CHEG's driver, `-DTWINS_PROGRAM`). Boards are random, 1 to 6
//! columns and rows (now and then a tall narrow one; a test program's
//! own board, its first columns when it has more than 40 squares), with
//! holes, empty squares, pieces of every kind and colour, royal ones
//! among them. Random headers come in three [`Mode`]s: general, stack
//! machines (reads, then arithmetic on two numbers) and multiple captures
//! (two pieces taken before the landing square).
//!
//! The generator runs the script on a [`Twin`] as it writes it, so that
//! most moves it makes are valid ones found by `moves` (pieces really
//! capture, promote, fall into holes and act on the stacks), preferring
//! captures of two pieces away from the target and drops into holes;
//! some are random (invalid moves, the skip rule); runs of one colour's
//! moves let its stack grow. A script ends early at the first fault,
//! which about a third of the scripts reach on purpose (bad or
//! out-of-range input for `read` or a read hole, or `fault`).
//!
//! Cost: the unoptimised Rust half runs a search per target and
//! promotion in `moves`, so tables stay below [`MAX_CODE`] words, random
//! notations nest one level (progen's depth 1: a repetition in a
//! repetition in a third took a minute) and boards stay small.
//!
//! `moves` steps a copy of the board once per (target, promotion) with
//! the kinds' values replaced by 0 (so that no hole of the copy reads or
//! prints; validity does not depend on values), a fresh copy after each
//! valid move. `StateHasher` is not compared: the C runtime hashes its
//! states with its own function (`icp_hash`), and neither hash reaches an
//! output (a search visits the same states in the same order whatever
//! the set's hash).
//!
//! The Rust half leaks each game's tables and streams (`Game` borrows
//! them; a few kilobytes a script).
//!
//! The tests: the quick one compares [`SCRIPTS`] scripts of [`LENGTH`]
//! operations (`ICP2C_FIN_TWINS=N`: N scripts); one checks the checker on
//! a drift injected into the Rust half and on a patched line of a copy of
//! `board.c`; an ignored one builds the driver on each of [`MUTANTS`],
//! one-line mutants of the C runtime, and requires the quick test's
//! scripts to see each. Each run of the C driver is stopped after
//! [`C_TIMEOUT`] (a looping mutant fails, with its seed).
//!
//! To add an operation: a line in the table above, an arm in
//! [`Twin::op`], a branch in `main` of `tests/c/fin_twins.c`, and a case
//! in [`Gen::op`].

use crate::support;
use crate::support::progen::{self, Rng};
use crate::support::twins::{self, Ending, hex, unhex};
use icp2c::lang::finvara;
use icp2c::lang::finvara::interp::runtime_kinds;
use icp2c::lang::finvara::runtime::board::{
    self, Fault, Game, Kind, Move, RuntimeError, VALUE_INT,
};
use std::cell::RefCell;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

// ------------------------------------------------------- the Rust half

/// One kind of a table, as the scripts carry it.
#[derive(Clone, Debug)]
struct KindSpec {
    value: i64,
    value_of: i32,
    royal: bool,
    code: [Vec<i32>; 2],
}

/// Every cause, in the order `fault` numbers them (the C driver's
/// `t_causes`).
const FAULTS: [Fault; 5] = [
    Fault::NotANumber,
    Fault::OutOfRange,
    Fault::CannotRead,
    Fault::CannotWrite,
    Fault::NoMemory,
];

/// A drift injected into the Rust half, to see that the comparison
/// notices one (the test of the checker).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drift {
    None,
    /// `moves` loses the last valid move, as a search that stopped one
    /// path short would.
    LastMoveLost,
}

/// The input stream both halves read: the bytes of the last `input`.
#[derive(Default)]
struct Input {
    bytes: Vec<u8>,
    at: usize,
}

/// A reader of the shared [`Input`], serving 1 to 3 bytes at a time (so
/// that `read_number` crosses its buffer's ends inside numbers and blanks).
struct Feed {
    shared: Rc<RefCell<Input>>,
    buf: Vec<u8>,
}

impl Read for Feed {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let got = self.fill_buf()?;
            let n = got.len().min(out.len());
            out[..n].copy_from_slice(&got[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Feed {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let input = self.shared.borrow();
        let rest = &input.bytes[input.at.min(input.bytes.len())..];
        let n = rest.len().min(1 + input.at % 3);
        self.buf.clear();
        self.buf.extend_from_slice(&rest[..n]);
        Ok(&self.buf)
    }

    fn consume(&mut self, n: usize) {
        self.shared.borrow_mut().at += n;
    }
}

struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A table of the runtime's kinds, leaked (a `Game` borrows it); with
/// `silent`, every value is the number 0 (`moves`' copies).
fn leak_kinds(specs: &[KindSpec], silent: bool) -> &'static [Kind<'static>] {
    let kinds: Vec<Kind<'static>> = specs
        .iter()
        .map(|s| Kind {
            value: if silent { 0 } else { s.value },
            value_of: if silent { VALUE_INT } else { s.value_of },
            royal: s.royal,
            code: [
                Box::leak(s.code[0].clone().into_boxed_slice()),
                Box::leak(s.code[1].clone().into_boxed_slice()),
            ],
        })
        .collect();
    Box::leak(kinds.into_boxed_slice())
}

/// The Rust half: the script's state, over the Rust runtime.
struct Twin {
    specs: Vec<KindSpec>,
    kinds: &'static [Kind<'static>],
    silent: &'static [Kind<'static>],
    game: Option<Game<'static>>,
    width: usize,
    height: usize,
    input: Rc<RefCell<Input>>,
    output: Rc<RefCell<Vec<u8>>>,
    /// The turn and colour of the game's last `step` or `play` (what a
    /// `read`'s fault names).
    turn: u64,
    colour: usize,
    /// A fault has ended the script.
    stopped: bool,
    drift: Drift,
}

fn numbers<T: std::str::FromStr>(args: &str) -> Vec<T> {
    args.split_whitespace()
        .map(|w| w.parse().ok().expect("a number in the script"))
        .collect()
}

fn flag(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

impl Twin {
    fn new(drift: Drift) -> Twin {
        Twin {
            specs: Vec::new(),
            kinds: &[],
            silent: &[],
            game: None,
            width: 0,
            height: 0,
            input: Rc::default(),
            output: Rc::default(),
            turn: 0,
            colour: 0,
            stopped: false,
            drift,
        }
    }

    /// The state after an operation (see the module's doc).
    fn state(&self) -> String {
        let Some(game) = &self.game else {
            return " # -".to_string();
        };
        let mut line = " #".to_string();
        for c in game.board() {
            line.push_str(&format!(" {c}"));
        }
        for colour in 0..2 {
            line.push_str(" |");
            for v in game.stack(colour) {
                line.push_str(&format!(" {v}"));
            }
        }
        line
    }

    fn game(&mut self) -> &mut Game<'static> {
        self.game
            .as_mut()
            .expect("a game (the script makes one first)")
    }

    /// The valid moves of a `kind` of `colour` from `from`, as (to,
    /// promotion), each tried on a copy of the board.
    /// With `quick` (the generator's choice of a move), the promotions
    /// are tried only at targets valid without one.
    fn legal(
        &mut self,
        kind: i32,
        colour: usize,
        from: i32,
        quick: bool,
    ) -> Result<Vec<(i32, i32)>, String> {
        let (silent, width, height) = (self.silent, self.width, self.height);
        let board = self.game().board().to_vec();
        let mut probe = Game::new(silent, width, height, &board);
        let mut found = Vec::new();
        for to in 0..board.len() as i32 {
            for promo in -1..silent.len() as i32 {
                if quick && promo >= 0 && found.last().is_none_or(|&(t, _)| t != to) {
                    break;
                }
                let valid = probe
                    .step(0, colour, [kind, from, to, promo])
                    .map_err(|e| format!("error: {e}"))?;
                if valid {
                    found.push((to, promo));
                    probe = Game::new(silent, width, height, &board);
                }
            }
        }
        Ok(found)
    }

    /// How many pieces the move captures away from its target (tried on
    /// a copy of the board).
    fn captures_away(&mut self, colour: usize, mv: Move) -> usize {
        let (silent, width, height) = (self.silent, self.width, self.height);
        let board = self.game().board().to_vec();
        let mut probe = Game::new(silent, width, height, &board);
        if !probe.step(0, colour, mv).unwrap_or(false) {
            return 0;
        }
        let [_, from, to, _] = mv;
        (0..board.len())
            .filter(|&s| s as i32 != from && s as i32 != to)
            .filter(|&s| board[s] > 0 && probe.board()[s] == board::EMPTY)
            .count()
    }

    /// The lines of one operation: those the runtime printed during it,
    /// then its result and the state (or the fault's line).
    fn op(&mut self, line: &str) -> String {
        if self.stopped {
            return String::new();
        }
        let (name, args) = line.split_once(' ').unwrap_or((line, ""));
        let result = self.result(name, args);
        let printed = String::from_utf8(std::mem::take(&mut *self.output.borrow_mut())).unwrap();
        match result {
            Ok(text) => format!("{printed}{text}{}\n", self.state()),
            Err(fault) => {
                self.stopped = true;
                format!("{printed}{fault}\n")
            }
        }
    }

    fn fault(&self, fault: Fault) -> String {
        let e = RuntimeError {
            turn: self.turn,
            colour: self.colour,
            fault,
        };
        format!("error: {e}")
    }

    fn result(&mut self, name: &str, args: &str) -> Result<String, String> {
        // i128: turns go up to u64::MAX, values down to i64::MIN.
        let n: Vec<i128> = if matches!(name, "input") {
            Vec::new()
        } else {
            numbers(args)
        };
        let error = |e: RuntimeError| format!("error: {e}");
        match name {
            "kinds" => {
                let mut at = 1;
                let mut specs = Vec::new();
                for _ in 0..n[0] {
                    let (value, value_of, royal) = (n[at] as i64, n[at + 1] as i32, n[at + 2] != 0);
                    at += 3;
                    let mut code: [Vec<i32>; 2] = Default::default();
                    for c in &mut code {
                        let len = n[at] as usize;
                        *c = n[at + 1..at + 1 + len].iter().map(|&x| x as i32).collect();
                        at += 1 + len;
                    }
                    specs.push(KindSpec {
                        value,
                        value_of,
                        royal,
                        code,
                    });
                }
                self.kinds = leak_kinds(&specs, false);
                self.silent = leak_kinds(&specs, true);
                self.specs = specs;
                self.game = None;
                Ok("ok".into())
            }
            "new" => {
                let (w, h) = (n[0] as usize, n[1] as usize);
                let cells: Vec<i32> = n[2..].iter().map(|&c| c as i32).collect();
                let mut game = Game::new(self.kinds, w, h, &cells);
                game.read_from(Box::leak(Box::new(Feed {
                    shared: self.input.clone(),
                    buf: Vec::new(),
                })));
                game.write_to(Box::leak(Box::new(Shared(self.output.clone()))));
                self.game = Some(game);
                (self.width, self.height) = (w, h);
                (self.turn, self.colour) = (0, 0);
                Ok("ok".into())
            }
            "step" => {
                (self.turn, self.colour) = (n[0] as u64, n[1] as usize);
                let mv: Move = [n[2] as i32, n[3] as i32, n[4] as i32, n[5] as i32];
                let (turn, colour) = (self.turn, self.colour);
                let valid = self.game().step(turn, colour, mv).map_err(error)?;
                Ok(flag(valid).into())
            }
            "play" => {
                (self.turn, self.colour) = (n[1] as u64, n[2] as usize);
                let mv: Move = [n[3] as i32, n[4] as i32, n[5] as i32, n[6] as i32];
                let (turn, colour) = (self.turn, self.colour);
                let next = self
                    .game()
                    .play(n[0] as usize, turn, colour, mv)
                    .map_err(error)?;
                Ok(format!("next {next}"))
            }
            "place" => {
                self.game()
                    .place(n[0] as usize, n[1] as usize, n[2] as usize);
                Ok("ok".into())
            }
            "over" => Ok(flag(self.game().game_over().map_err(error)?).into()),
            "skip" => Ok(flag(self.game().skip()).into()),
            "moves" => {
                let (kind, colour, from) = (n[0] as i32, n[1] as usize, n[2] as i32);
                let mut found = self.legal(kind, colour, from, false)?;
                if self.drift == Drift::LastMoveLost {
                    found.pop();
                }
                let mut line = format!("piece {}:", board::piece(kind, colour as i32));
                for (to, promo) in found {
                    line.push_str(&format!(" {to}"));
                    if promo >= 0 {
                        line.push_str(&format!("={promo}"));
                    }
                }
                Ok(line)
            }
            "input" => {
                *self.input.borrow_mut() = Input {
                    bytes: unhex(args.trim()),
                    at: 0,
                };
                Ok("ok".into())
            }
            "read" => {
                let mut feed = Feed {
                    shared: self.input.clone(),
                    buf: Vec::new(),
                };
                match board::read_number(&mut feed) {
                    Ok(v) => Ok(v.to_string()),
                    Err(f) => Err(self.fault(f)),
                }
            }
            "flush" => {
                self.game().flush_output();
                Ok("ok".into())
            }
            "causes" => Ok(FAULTS.map(Fault::cause).join(" | ")),
            "fault" => {
                (self.turn, self.colour) = (n[0] as u64, n[1] as usize);
                Err(self.fault(FAULTS[n[2] as usize]))
            }
            _ => panic!("no operation {name}"),
        }
    }
}

/// The Rust half's lines for `script`, each with its line of the script.
fn run_rust(script: &str, drift: Drift) -> Vec<(usize, String)> {
    let mut twin = Twin::new(drift);
    let mut out = Vec::new();
    for (i, line) in script.lines().enumerate() {
        for printed in twin.op(line).lines() {
            out.push((i, printed.to_string()));
        }
    }
    out
}

// ----------------------------------------------------------- the C half

/// Builds `tests/c/fin_twins.c` found under `root` (the checkout, or a
/// copy laid out alike) into `dir` ([`twins::build_driver`]).
fn build_driver(root: &Path, dir: &Path) -> Result<PathBuf, String> {
    twins::build_driver(root, "tests/c/fin_twins.c", dir, &[])
}

/// How long the C driver may take on one script (milliseconds unless a
/// C change loops).
const C_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// Runs `script` through both halves: the first difference, if any. The C
/// driver is given the file it writes an `input` operation's bytes to (in
/// its own directory); its last line is a runtime error's, if any.
fn compare(exe: &Path, script: &str, drift: Drift) -> Option<String> {
    let input_file = exe.with_extension("input");
    let args = [input_file.as_os_str()];
    let c = twins::run_driver(exe, &args, script, Ending::RuntimeError, C_TIMEOUT);
    // An `input` operation is shown with its bytes decoded, a long
    // operation cut short.
    let shown = |ops: &[&str], at: usize| -> String {
        let op = twins::line_as_is(ops, at);
        let op = if op.len() > 300 {
            format!("{}…", &op[..300])
        } else {
            op
        };
        match op.strip_prefix("input ") {
            Some(h) => format!("{op} ({:?})", String::from_utf8_lossy(&unhex(h))),
            None => op,
        }
    };
    twins::first_difference(script, &run_rust(script, drift), &c, str::to_string, shown)
}

// ------------------------------------------------------- the generator

/// Notations that capture in every form (`x` once, twice, three times,
/// in a slide, then a landing on an enemy; `c(…)`; a capture then a hole)
/// or promote: each makes a kind's path program, beside progen's random
/// notations.
const NOTATIONS: &[&str] = &[
    "(1,0)x(1,0)",
    "(1,1)x(1,1)",
    "[(1,0)x]*(1,0)",
    "(1,0)x(1,0)x(1,0)",
    "{(1,0)x(1,0),(0,1)x(0,1)x(0,1)}",
    "[(1,0)x(1,0)]*",
    "(1,0)`x(0,1)",
    "c((1,0))x(0,0)",
    "{c((1,1)),m((1,0|^))}",
    "(1,0)*",
    "(1,1)*",
    "{(1,0),(1,1)}",
    "(1,2)",
    "(1,0|^)p",
    "r((1,0|^),[-2,-1])->[a,b]",
    "r!((1,1),1)(1,0)",
    "{(0,0),(1,0)x}",
    "(1,0|>)x(1,0|>)p",
    "(2,0)x(2,0)",
    "[(1,1)x]`",
    "[(1,0)*]`",
    "[(1,0|^)*(1,1)]*",
];

/// The symbols of a random header: the royal `k` first.
const SYMBOLS: &[char] = &['k', 'a', 'b', 'c', 'd', 'e', 'f'];

/// A value of a non-royal kind: numbers of every action (mod 6, negative
/// ones too), `x`, `y`, the 64-bit edges.
fn value(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 | 1 => "x".into(),
        2 | 3 => "y".into(),
        4 => rng.pick(progen::EDGES).to_string(),
        // Reads (3 mod 6) and subtractions (1) most: a subtraction of two
        // numbers read (or captured) is where a sign shows.
        5..=7 => rng.pick(&[3, 9, -3, 1, 7, -5]).to_string(),
        _ => rng.range(-7, 12).to_string(),
    }
}

/// A random header (kinds and board) in Finvara's syntax.
/// What a random header is made for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Any notation (progen's, [`NOTATIONS`]), any value, any board.
    General,
    /// Short leaps, values of the stack actions (reads most), a board a
    /// third holes: the stacks grow and every action meets two numbers
    /// (a subtraction of two numbers read is where a sign shows).
    Stack,
    /// Captures of several pieces in a line ([`MULTIPLE`]) on a crowded
    /// board: a double capture whose second square is not the target.
    Capture,
}

/// Notations that take two or three pieces in a line before landing.
const MULTIPLE: &[&str] = &[
    "[(1,0)x]*(1,0)",
    "[(1,1)x]*(1,1)",
    "(1,0)x(1,0)x(1,0)",
    "(1,1)x(1,1)x(1,1)",
    "[(1,0)x(1,0)]*",
    "{(1,0),[(1,0)x]*(1,0)}",
];

/// A random header (kinds and board) in Finvara's syntax, and its mode.
/// Boards of stack machines and captures have no royal piece (one
/// attacked would forbid every move of its colour).
fn random_header(rng: &mut Rng) -> (String, Mode) {
    let count = 3 + rng.below(SYMBOLS.len() - 2);
    let symbols = &SYMBOLS[..count];
    let mode = match rng.below(10) {
        0..=3 => Mode::Stack,
        4..=5 => Mode::Capture,
        _ => Mode::General,
    };
    let mut out = String::new();
    for (i, &s) in symbols.iter().enumerate() {
        let text = match mode {
            Mode::Stack => rng
                .word(&["(1,0)", "(1,1)", "{(1,0),(1,1)}", "(1,0)*", "(1,0)x(1,0)"])
                .to_string(),
            Mode::Capture => rng.word(MULTIPLE).to_string(),
            // Depth 1: a repetition inside a repetition inside a third
            // (depth 2) can cost the unoptimised Rust half a minute of
            // `moves`; `[(1,0)*]\`` and the test programs' tables keep
            // the nested forms (and RESET).
            Mode::General if i > 0 && rng.chance(35) => {
                progen::notation(rng, 1, &symbols[1..i], symbols)
            }
            Mode::General => rng.word(NOTATIONS).to_string(),
        };
        if i == 0 {
            // The royal kind: sometimes idle, sometimes a king, sometimes
            // a capturer.
            let royal = match rng.below(3) {
                0 => String::new(),
                1 => "{(1,0),(1,1)}".into(),
                _ => text,
            };
            out.push_str(&format!("(k): {royal}\n"));
        } else if mode == Mode::Stack {
            let v = rng.word(&["3", "3", "9", "-3", "1", "1", "0", "2", "4", "5", "x", "y"]);
            out.push_str(&format!("({s} {v}): {text}\n"));
        } else {
            out.push_str(&format!("({s} {}): {text}\n", value(rng)));
        }
    }
    out.push('\n');
    let (width, height) = if mode != Mode::General {
        (3 + rng.below(4), 3 + rng.below(4))
    } else if rng.chance(8) {
        (1 + rng.below(2), 9 + rng.below(4))
    } else {
        (1 + rng.below(6), 1 + rng.below(6))
    };
    // Out of 20: holes, pieces, the rest empty.
    let (holes, pieces) = match mode {
        Mode::General => (4, 8),
        Mode::Stack => (7, 10),
        Mode::Capture => (1, 11),
    };
    let rule = format!("+{}\n", "--+".repeat(width));
    out.push_str(&rule);
    for _ in 0..height {
        out.push('|');
        for _ in 0..width {
            let roll = rng.below(20);
            let cell = if roll < holes {
                "##".to_string()
            } else if roll < holes + pieces {
                let s = if mode == Mode::General && rng.chance(12) {
                    'k'
                } else {
                    *rng.pick(&symbols[1..])
                };
                format!("{s}{}", if rng.chance(50) { 'W' } else { 'B' })
            } else {
                "  ".to_string()
            };
            out.push_str(&cell);
            out.push('|');
        }
        out.push('\n');
        out.push_str(&rule);
    }
    (out, mode)
}

/// The largest kinds table (words of path code, both colours) a script
/// uses: `moves` runs a search per target and promotion, which the
/// unoptimised Rust half makes slow on the largest tables (the test
/// programs `deep_and_shared.fin` and `seed_pieces.fin` are left out;
/// their `"s"` chains are `tests/it/finvara.rs`'s).
const MAX_CODE: usize = 440;

fn code_words(program: &finvara::ir::Program) -> usize {
    program
        .kinds
        .iter()
        .map(|k| k.code[0].len() + k.code[1].len())
        .sum()
}

/// The headers of the project's Finvara programs that compile: fixed
/// kinds tables (the test programs' notations) and boards.
fn fixed_programs() -> &'static [finvara::ir::Program] {
    static PROGRAMS: std::sync::OnceLock<Vec<finvara::ir::Program>> = std::sync::OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let mut out = Vec::new();
        for dir in ["tests/programs/finvara", "examples"] {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(support::root().join(dir))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "fin"))
                .collect();
            paths.sort();
            for path in paths {
                let source = std::fs::read_to_string(&path).unwrap();
                if let Ok(checked) = finvara::check(&source)
                    && code_words(&checked.program) <= MAX_CODE
                {
                    out.push(checked.program);
                }
            }
        }
        assert!(out.len() > 10, "the test programs compile");
        out
    })
}

/// The kinds line of a compiled program.
fn kinds_line(program: &finvara::ir::Program) -> String {
    let mut line = format!("kinds {}", program.kinds.len());
    for k in runtime_kinds(program) {
        line.push_str(&format!(
            " {} {} {}",
            k.value,
            k.value_of,
            u8::from(k.royal)
        ));
        for code in k.code {
            line.push_str(&format!(" {}", code.len()));
            for w in code {
                line.push_str(&format!(" {w}"));
            }
        }
    }
    line
}

/// Text for the number reader: numbers with every blank, signs, leading
/// zeros, the 64-bit edges; with `bad`, also a word that is not a
/// number or is out of range (a fault).
fn input_text(rng: &mut Rng, bad: bool) -> Vec<u8> {
    const BLANKS: &[&str] = &[" ", "\t", "\n", "\r\n", "\x0b", "\x0c", "  \n\t"];
    const WORDS: &[&str] = &[
        "0",
        "-0",
        "+0",
        "+7",
        "-12",
        "007",
        "-00",
        "9223372036854775807",
        "-9223372036854775808",
        "+9223372036854775807",
        "0009223372036854775807",
        "-09223372036854775808",
    ];
    const BAD: &[&str] = &[
        "x",
        "-",
        "+",
        "--1",
        "+-1",
        "1-",
        "12a",
        "1.5",
        "0x10",
        "9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999",
        "184467440737095516150",
        "1\u{a0}2",
        "\u{85}",
    ];
    let mut text = String::new();
    if rng.chance(30) {
        text.push_str(rng.word(BLANKS));
    }
    for _ in 0..rng.below(6) {
        if rng.chance(40) {
            text.push_str(rng.word(WORDS));
        } else {
            text.push_str(&rng.range(-9, 40).to_string());
        }
        text.push_str(rng.word(BLANKS));
    }
    if bad {
        text.push_str(rng.word(BAD));
        if rng.chance(50) {
            text.push_str(rng.word(BLANKS));
        }
    } else if rng.chance(30) {
        // A number right at the end, with no blank after it.
        text.push_str(&rng.range(-3, 99).to_string());
    }
    text.into_bytes()
}

struct Gen {
    rng: Rng,
    out: String,
    twin: Twin,
    /// The script is to end in a fault (bad input read).
    faulty: bool,
    /// The colour whose pieces move most now.
    side: i32,
    /// What the table is made for (a test program's: general).
    mode: Mode,
}

impl Gen {
    /// Writes `line` and runs it on the generator's twin; false once a
    /// fault has ended the script.
    fn push(&mut self, line: String) -> bool {
        self.twin.op(&line);
        self.out.push_str(&line);
        self.out.push('\n');
        !self.twin.stopped
    }

    /// A new kinds table and a game on it: a random header or a test
    /// program's.
    fn table(&mut self) -> bool {
        self.mode = Mode::General;
        let program = if self.rng.chance(25) {
            let mut program = self.rng.pick(fixed_programs()).clone();
            // A board of more than 40 squares (the ranks and promotion
            // programs' 10 × 14): its first columns, every row kept (the
            // path code's ranks are the program's rows), so that `moves`
            // stays quick.
            let (w, h) = (program.width, program.height);
            if w * h > 40 {
                let kept = (40 / h).max(1);
                program.cells = (0..w * h)
                    .filter(|&s| s % w < kept)
                    .map(|s| program.cells[s])
                    .collect();
                program.width = kept;
            }
            program
        } else {
            loop {
                let (header, mode) = random_header(&mut self.rng);
                // Some random notations are invalid (a `*` of nothing):
                // another header then.
                if let Ok(checked) = finvara::check(&header)
                    && code_words(&checked.program) <= MAX_CODE
                {
                    self.mode = mode;
                    break checked.program;
                }
            }
        };
        self.push(kinds_line(&program))
            && self.push(format!(
                "new {} {} {}",
                program.width,
                program.height,
                join(&program.cells)
            ))
    }

    /// A new game on the same table and board size.
    fn new_game(&mut self) -> bool {
        let (w, h) = (self.twin.width, self.twin.height);
        let n = self.twin.specs.len();
        let cells: Vec<i32> = (0..w * h)
            .map(|_| match self.rng.below(20) {
                0..=3 => -1,
                4..=11 => board::piece(self.rng.below(n) as i32, self.rng.below(2) as i32),
                _ => 0,
            })
            .collect();
        self.push(format!("new {w} {h} {}", join(&cells)))
    }

    fn turn(&mut self) -> u64 {
        match self.rng.below(10) {
            0 => u64::MAX,
            1 => self.rng.next(),
            _ => 1 + self.rng.below(30) as u64,
        }
    }

    /// A square with a piece on it (or any square), its kind and colour.
    fn mover(&mut self) -> (i32, usize, i32) {
        let board = self.twin.game().board().to_vec();
        let n = self.twin.specs.len();
        // Runs of one colour's moves: its stack grows (reads, captures
        // of its pieces) and then meets its arithmetic holes.
        if self.rng.chance(15) {
            self.side = 1 - self.side;
        }
        let mut pieces: Vec<usize> = (0..board.len())
            .filter(|&s| board[s] > 0 && (board[s] - 1) % 2 == self.side)
            .collect();
        if pieces.is_empty() || self.rng.chance(20) {
            pieces = (0..board.len()).filter(|&s| board[s] > 0).collect();
        }
        if pieces.is_empty() || self.rng.chance(8) {
            let sq = self.rng.below(board.len());
            return (self.rng.below(n) as i32, self.rng.below(2), sq as i32);
        }
        let sq = *self.rng.pick(&pieces);
        let cell = board[sq];
        let (mut kind, mut colour) = ((cell - 1) / 2, ((cell - 1) % 2) as usize);
        if self.rng.chance(5) {
            kind = self.rng.below(n) as i32;
        }
        if self.rng.chance(5) {
            colour = 1 - colour;
        }
        (kind, colour, sq as i32)
    }

    /// One operation (a few for `input`); false once the script has
    /// ended in a fault.
    /// A stack machine's move: a piece of the side moving now into a
    /// hole (a new piece placed when none can).
    fn drop_into_hole(&mut self) -> bool {
        if self.rng.chance(10) {
            self.side = 1 - self.side;
        }
        let side = self.side;
        let board = self.twin.game().board().to_vec();
        let mut drops = Vec::new();
        for from in 0..board.len() {
            let cell = board[from];
            if cell > 0 && (cell - 1) % 2 == side {
                let kind = (cell - 1) / 2;
                for (to, promo) in self
                    .twin
                    .legal(kind, side as usize, from as i32, true)
                    .unwrap()
                {
                    if board[to as usize] == board::HOLE {
                        drops.push((kind, from, to, promo));
                    }
                }
            }
        }
        let turn = 1 + self.rng.below(30);
        match drops.is_empty() {
            true => {
                let empty: Vec<usize> = (0..board.len()).filter(|&s| board[s] == 0).collect();
                if empty.is_empty() {
                    return self.new_game();
                }
                let sq = *self.rng.pick(&empty);
                let kind = self.rng.below(self.twin.specs.len());
                self.push(format!("place {side} {kind} {sq}"))
            }
            false => {
                // Reads until the stack holds two numbers, then mostly
                // arithmetic (the action: the value, mod 6, at the hole).
                let width = self.twin.width as i32;
                let stack = self.twin.game().stack(side as usize).len();
                let specs = &self.twin.specs;
                let action = |kind: i32, promo: i32, hole: i32| {
                    let k = &specs[if promo >= 0 { promo } else { kind } as usize];
                    let v = match k.value_of {
                        board::VALUE_X => i64::from(hole % width + 1),
                        board::VALUE_Y => i64::from(hole / width + 1),
                        _ => k.value,
                    };
                    v.rem_euclid(6)
                };
                let want: &[i64] = if stack >= 2 { &[0, 1, 2] } else { &[3] };
                let wanted: Vec<_> = drops
                    .iter()
                    .copied()
                    .filter(|&(k, _, to, p)| want.contains(&action(k, p, to)))
                    .collect();
                if !wanted.is_empty() && self.rng.chance(80) {
                    drops = wanted;
                }
                let (kind, from, to, promo) = *self.rng.pick(&drops);
                let pc = self.rng.below(1000);
                self.push(format!(
                    "play {pc} {turn} {side} {kind} {from} {to} {promo}"
                ))
            }
        }
    }

    fn op(&mut self) -> bool {
        let n = self.twin.specs.len() as i32;
        let cells = self.twin.game().board().len();
        if self.mode == Mode::Stack && self.rng.chance(40) {
            return self.drop_into_hole();
        }
        match self.rng.below(100) {
            0..=44 => {
                // A move: mostly a valid one.
                let (kind, colour, from) = self.mover();
                let legal = self.twin.legal(kind, colour, from, true).unwrap();
                // Moves into holes half the time there is one: the stack
                // actions need several (two reads, then a subtraction).
                let board = self.twin.game().board();
                let into_holes: Vec<(i32, i32)> = legal
                    .iter()
                    .copied()
                    .filter(|&(to, _)| board[to as usize] == board::HOLE)
                    .collect();
                // Captures of two pieces or more away from the target
                // most of the time there is one: a double capture's
                // second square (the known mutant reads the first).
                // (Looked for on capture tables, and now and then on
                // others: each is a step more.)
                let look = self.mode == Mode::Capture || self.rng.chance(25);
                let multiple: Vec<(i32, i32)> = legal
                    .iter()
                    .copied()
                    .filter(|_| look)
                    .filter(|&(to, promo)| {
                        self.twin.captures_away(colour, [kind, from, to, promo]) >= 2
                    })
                    .collect();
                let legal = if !multiple.is_empty() && self.rng.chance(70) {
                    multiple
                } else if !into_holes.is_empty() && self.rng.chance(50) {
                    into_holes
                } else {
                    legal
                };
                let (kind, from, to, promo) = if !legal.is_empty() && self.rng.chance(85) {
                    let (to, promo) = *self.rng.pick(&legal);
                    (kind, from, to, promo)
                } else {
                    let to = self.rng.below(cells) as i32;
                    let promo = self.rng.range(-1, i64::from(n) - 1) as i32;
                    (kind, from, to, promo)
                };
                let turn = self.turn();
                if self.rng.chance(50) {
                    let pc = self.rng.below(1000);
                    self.push(format!(
                        "play {pc} {turn} {colour} {kind} {from} {to} {promo}"
                    ))
                } else {
                    self.push(format!("step {turn} {colour} {kind} {from} {to} {promo}"))
                }
            }
            45..=54 => {
                let (kind, colour, from) = self.mover();
                self.push(format!("moves {kind} {colour} {from}"))
            }
            55..=61 => {
                let colour = self.rng.below(2);
                let kind = self.rng.below(n as usize);
                let sq = self.rng.below(cells);
                self.push(format!("place {colour} {kind} {sq}"))
            }
            62..=67 => self.push("over".into()),
            68..=71 => self.push("skip".into()),
            72..=79 => {
                let text = input_text(&mut self.rng, false);
                self.push(format!("input {}", hex(&text)))
            }
            80..=86 => self.push("read".into()),
            87 => self.push("flush".into()),
            88 => self.push("causes".into()),
            89..=92 => self.new_game(),
            93..=95 => self.table(),
            _ => {
                // A move into a hole or a read may well fault now.
                if self.faulty && self.rng.chance(30) {
                    let text = input_text(&mut self.rng, true);
                    self.push(format!("input {}", hex(&text)))
                } else {
                    true
                }
            }
        }
    }
}

fn join(cells: &[i32]) -> String {
    cells
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The script of `seed`: a kinds table and a game, then `length`
/// operations (fewer when a fault ends it).
fn script(seed: u64, length: usize) -> String {
    let mut g = Gen {
        rng: Rng(seed),
        out: String::new(),
        twin: Twin::new(Drift::None),
        faulty: false,
        side: 0,
        mode: Mode::General,
    };
    g.faulty = g.rng.chance(30);
    if !g.table() {
        return g.out;
    }
    for _ in 0..length {
        if !g.op() {
            return g.out;
        }
    }
    if g.faulty {
        // The end: bad input read, or a fault of any cause.
        if g.rng.chance(70) {
            let text = input_text(&mut g.rng, true);
            g.push(format!("input {}", hex(&text)));
            for _ in 0..8 {
                if !g.push("read".into()) {
                    break;
                }
            }
        } else {
            let turn = g.turn();
            let colour = g.rng.below(3);
            let cause = g.rng.below(FAULTS.len());
            g.push(format!("fault {turn} {colour} {cause}"));
        }
    }
    g.out
}

// ---------------------------------------------------------------- tests

/// Scripts compared on each run: seeds `SEED..SEED + SCRIPTS`.
/// `ICP2C_FIN_TWINS=N` compares N scripts instead.
const SEED: u64 = 0xf1_2026;
const SCRIPTS: u64 = 32;
const LENGTH: usize = 60;

#[cfg_attr(
    icp2c_no_cc,
    ignore = "needs the C compiler $CC (default cc), missing when the tests were built"
)]
#[test]
fn finvara_c_and_rust_runtimes_agree_function_by_function() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build_driver(&support::root(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
    twins::agree(
        ("Finvara", "tests/it/fin_twins.rs", "ICP2C_FIN_TWINS"),
        (SEED, SCRIPTS),
        |seed| script(seed, LENGTH),
        |script| compare(&exe, script, Drift::None),
    );
}

/// A script with a double capture of pieces of different values (a
/// slider that takes twice, `x`-valued: the captured squares' columns)
/// and the moves it has.
fn known_script() -> String {
    let header = "(k):\n(a x): [(1,0)x]*(1,0)\n\n\
                  +--+--+--+--+--+\n|kB|  |  |  |  |\n+--+--+--+--+--+\n\
                  |aW|aB|aB|  |kW|\n+--+--+--+--+--+\n";
    let program = finvara::check(header).unwrap().program;
    let cells = join(&program.cells);
    format!(
        "{}\nnew 5 2 {cells}\nmoves 1 0 0\nstep 1 0 1 0 3 -1\nover\n",
        kinds_line(&program)
    )
}

#[cfg_attr(
    icp2c_no_cc,
    ignore = "needs the C compiler $CC (default cc), missing when the tests were built"
)]
#[test]
fn the_checker_sees_a_c_mutant_and_a_rust_drift() {
    let root = support::root();
    let dir = tempfile::tempdir().unwrap();
    let exe = build_driver(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let known = known_script();
    assert_eq!(compare(&exe, &known, Drift::None), None);
    // The Rust half drifting: a move lost.
    let drift = compare(&exe, &known, Drift::LastMoveLost).expect("a drift is seen");
    assert!(drift.contains("moves 1 0 0"), "{drift}");
    // The C runtime drifting: a double capture pushes the first
    // captured piece's value twice.
    let patched = patched_copy(
        &root,
        dir.path(),
        "int32_t c = g->best.data[2 + i];",
        "int32_t c = g->best.data[2];",
    );
    let mutant_dir = dir.path().join("mutant");
    std::fs::create_dir_all(&mutant_dir).unwrap();
    let mutant = build_driver(&patched, &mutant_dir).unwrap_or_else(|e| panic!("{e}"));
    let seen = compare(&mutant, &known, Drift::None).expect("the mutant is seen");
    assert!(seen.contains("step 1 0 1 0 3 -1"), "{seen}");
}

/// The C runtime, as the driver includes it.
const C_RUNTIME: &str = "src/lang/finvara/runtime/board.c";

/// A copy of the C driver, the C prelude and the C runtime under
/// `dir/copy`, laid out as in the checkout, with `from` replaced by `to`
/// (exactly once) in the runtime.
fn patched_copy(root: &Path, dir: &Path, from: &str, to: &str) -> PathBuf {
    let (runtime_dir, file) = C_RUNTIME.rsplit_once('/').unwrap();
    let driver = "tests/c/fin_twins.c";
    twins::patched_copy(root, dir, driver, runtime_dir, &[file], (file, from, to))
}

/// One-line mutants of `board.c` (text as it is, text mutated), spread
/// over the file, each of which the quick test's scripts must see.
const MUTANTS: &[(&str, &str)] = &[
    // A double capture reading the wrong cell: the first captured
    // piece's value pushed for each (once missed by `cargo test`).
    (
        "int32_t c = g->best.data[2 + i];",
        "int32_t c = g->best.data[2];",
    ),
    // Only the first captured square emptied.
    (
        "g->next_board[g->best.data[2 + i]] = ICP_EMPTY;",
        "g->next_board[g->best.data[2]] = ICP_EMPTY;",
    ),
    // A leap off the right edge kept.
    (
        "if (c < 0 || c >= g->width || r < 0 || r >= g->height) {",
        "if (c < 0 || c > g->width || r < 0 || r >= g->height) {",
    ),
    // A rank condition one row off.
    (
        "int32_t row = sq / g->width + 1;",
        "int32_t row = sq / g->width;",
    ),
    // `y` counted from 0.
    (
        "return (int64_t)(sq / g->width + 1);",
        "return (int64_t)(sq / g->width - 1);",
    ),
    // Subtraction turned round.
    (
        "icp_wrap((uint64_t)a - (uint64_t)b)",
        "icp_wrap((uint64_t)a + (uint64_t)b)",
    ),
    // The skip rule on one top only.
    (
        "return icp_top(g, 0) != 0 && icp_top(g, 1) != 0;",
        "return icp_top(g, 0) != 0 || icp_top(g, 1) != 0;",
    ),
    // The hole's captures counted one short.
    (
        "ns[ICP_S_HOLE_NCAP] = (int32_t)(g->cur.len - icp_caps_start(g->cur.data));",
        "ns[ICP_S_HOLE_NCAP] = (int32_t)(g->cur.len - icp_caps_start(g->cur.data) - 1);",
    ),
    // The end of the game when one royal piece is attacked, not all.
    ("if (royals == attacked) {", "if (attacked > 0) {"),
    // The most negative number refused.
    (
        "limit = negative ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1;",
        "limit = negative ? ((uint64_t)1 << 63) - 1 : ((uint64_t)1 << 63) - 1;",
    ),
];

/// Each of [`MUTANTS`] built into the driver and compared on the random
/// scripts of the quick test until a difference shows (one build each).
#[test]
#[ignore = "builds the C driver once per mutant (about 1 s each)"]
fn each_seeded_c_mutant_is_seen() {
    let root = support::root();
    let scripts: Vec<(u64, String)> = (SEED..SEED + SCRIPTS)
        .map(|seed| (seed, script(seed, LENGTH)))
        .collect();
    twins::mutants_seen(
        MUTANTS,
        |(_, to)| format!("{to:?}"),
        |at, (from, to)| {
            let copy = patched_copy(&root, at, from, to);
            build_driver(&copy, at).unwrap_or_else(|e| panic!("{e}"))
        },
        &scripts,
        |exe, script| compare(exe, script, Drift::None),
    );
}
