//! The engine's command line and the UCI protocol (`docs/cheg.md` §7.4,
//! §7.5).
//!
//! Std only, no unsafe, never panics. Embedded into generated Rust beside
//! `chess` and `engine`, cut down to the sections a program uses
//! (`api.rs`).
//!
//! The engine reads its commands through [`Commands`] and the time through
//! [`Clock`], so that each host gives what it has: a generated engine and
//! `icp2c run` read standard input on a thread of its own
//! ([`ThreadReader`]) and ask the system clock ([`SystemClock`]); a host
//! without threads or a clock (the WebAssembly playground) reads lines in
//! place ([`LineReader`]) and has [`NoClock`], and still searches by depth
//! or nodes. The search itself always runs on the calling thread.
//!
//! Decisions where §7.4 and §7.5 are silent:
//! - Command line: each option at most once; `--depth` and `--perft` take
//!   decimal integers (`--depth` 1–20, §11.28; `--perft` 0–64); `--moves`
//!   takes the moves in one argument, separated by blanks; an unknown or
//!   repeated option, a missing value, a query without `--fen` or an
//!   argument longer than [`MAX_LINE`] bytes is a usage error (message on
//!   standard error, exit 2). `--perft` ignores `--depth` and
//!   `--no-endgame`. `--help` (or `-h`) prints the usage and exits 0.
//! - UCI: an empty line is ignored; a line longer than [`MAX_LINE`] bytes
//!   is skipped to its end with one short error. `ucinewgame` resets the
//!   position to the start position and forgets the game (options are
//!   kept). During a search `isready`, `stop`, `quit` and `ponderhit` are
//!   handled at once (`quit` stops the search, prints its `bestmove`, and
//!   ends the engine); other commands wait, in order, for the search to
//!   end. The end of a live input stops any search as `stop` does (it
//!   prints its `bestmove`, then the engine ends) and abandons a `go
//!   perft`; the end of an input held in memory stops only a `go
//!   infinite` or `go ponder` ([`Commands::live`]). `go` with
//!   no limit searches to the `Depth` option's depth; `go` with any other
//!   limit searches up to depth 20 unless `depth` is given; `searchmoves`
//!   and `mate` are accepted and ignored. A runtime error of the endgame
//!   program during `go` (§9) prints `info string error: LINE: MESSAGE
//!   (fen FEN)`, writes the same §9 line to standard error, and answers
//!   `bestmove 0000`; the loop goes on.
//! - `go` with no legal move prints `info depth N score mate M nodes 1 nps
//!   … time …` (or `score cp 0` for stalemate) without `pv`, then
//!   `bestmove 0000`; N is the depth asked for (1 for a search limited
//!   otherwise).

// Generated Rust embeds this file and builds with edition 2021: no let
// chains, so nested `if let`s stay nested.
#![allow(clippy::collapsible_if)]

use super::chess::{Move, Position};
use super::engine::{self, Endgame, History, Limits, Report, Table, Watch};
use std::collections::VecDeque;
use std::io::{BufRead, Write};

/// The default search depth (§7.3).
pub const DEFAULT_DEPTH: u32 = 4;

/// The default size of the transposition table, MB (UCI option `Hash`).
pub const DEFAULT_HASH: u32 = 16;

/// The largest `Hash` accepted, MB.
pub const MAX_HASH: u32 = 1024;

/// The longest UCI command line or engine argument, in bytes (1 MB): a
/// longer line is skipped to its end with one short error, without ever
/// being held whole in memory; a longer argument is a usage error.
pub const MAX_LINE: usize = 1 << 20;

/// What `go` and `d` answer after a refused `position` line (§7.5).
const NO_POSITION: &str = "no position";

/// Deepest `--perft`/`go perft` accepted.
const MAX_PERFT: u32 = 64;

/// Commands read during a search that wait for it to end; beyond this
/// many, the rest of the input waits unread.
const MAX_PENDING: usize = 64;

/// Milliseconds kept back from every time limit for reading, printing
/// and the GUI: the default of the UCI option `Move Overhead` (§7.5).
const MOVE_OVERHEAD: u64 = 30;

/// The largest `Move Overhead` accepted, ms.
const MAX_MOVE_OVERHEAD: u32 = 5000;

/// What a malformed `setoption` line is told.
const SETOPTION_FORM: &str = "expected 'setoption name NAME [value VALUE]'";

/// The error for a perft depth out of range: `what` and the range.
fn perft_range(what: &str) -> String {
    format!("{what}: expected 0 to {MAX_PERFT}")
}

/// The usage line printed with command-line errors.
const USAGE: &str = "usage: ENGINE [--fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft N]]  (no arguments: UCI)";

/// What `--help` prints after the engine's name (no line of the literal
/// starts with a blank: generated Rust indents the runtime).
const HELP: &str = "usage: ENGINE [--fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft N]]\n  \
    --fen FEN      search the position FEN; prints 'bestmove MOVE score VALUE'\n  \
    --moves MOVES  first play these moves from FEN (UCI form, blank-separated,\n                 \
    one argument): their positions are the game's history\n  \
    --depth N      search depth in plies, 1 to 20 (default 4)\n  \
    --no-endgame   search without the endgame program\n  \
    --perft N      print the number of leaf nodes of the move tree to depth N\n  \
    --help         print this help\n\
    With no arguments the engine speaks UCI on standard input and output.\n";

// ------------------------------------------------------------ commands

/// What reading the command stream gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One line, without its end of line.
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`] bytes, skipped to its end.
    TooLong,
    /// No complete line has arrived yet (only when not waiting).
    Nothing,
    /// The end of the input.
    End,
}

/// Where an engine's commands come from.
pub trait Commands {
    /// The next line: when `wait`, waits for one; otherwise a reader that
    /// can tell returns [`Input::Nothing`] when none has arrived.
    fn next(&mut self, wait: bool) -> Input;

    /// True when the input is live (a pipe, a terminal): its end comes
    /// when the other side closes it, and stops a running search as
    /// `stop` does (§7.5). False for an input held whole in memory
    /// ([`LineReader`]), a session script whose end is there from the
    /// start: as with a driver that keeps its input open until each
    /// `bestmove`, its end stops only a `go infinite` or `go ponder`.
    fn live(&self) -> bool {
        true
    }
}

/// Reads one line of `input` (without its `\n`), holding at most
/// [`MAX_LINE`] bytes of it: a longer line is read to its end and
/// dropped ([`Input::TooLong`]). A last line without `\n` counts; a read
/// error ends the input.
pub fn read_line(input: &mut dyn BufRead) -> Input {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = chunk.get(..newline.unwrap_or(chunk.len())).unwrap_or(&[]);
        if !too_long {
            if line.len() + part.len() > MAX_LINE {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = newline.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if !any {
        Input::End
    } else if too_long {
        Input::TooLong
    } else {
        Input::Line(line)
    }
}

// @section interpreter
/// Commands read in place from a reader, one line per call: during a
/// search, a line is read whenever the search asks (an input held in
/// memory is all there at once; a terminal or pipe would make the search
/// wait for its next line, so hosts that have threads use
/// [`ThreadReader`]).
pub struct LineReader<'a> {
    input: &'a mut dyn BufRead,
    ended: bool,
}

impl<'a> LineReader<'a> {
    /// Reads `input`.
    pub fn new(input: &'a mut dyn BufRead) -> LineReader<'a> {
        LineReader {
            input,
            ended: false,
        }
    }
}

impl Commands for LineReader<'_> {
    fn next(&mut self, _wait: bool) -> Input {
        if self.ended {
            return Input::End;
        }
        let input = read_line(self.input);
        self.ended = input == Input::End;
        input
    }

    fn live(&self) -> bool {
        false
    }
}
// @end interpreter

/// Commands read by a thread of their own, so that a search learns of
/// `stop` and `isready` while it runs (§7.5). Only lines cross between
/// the threads. Where no thread can be started, the input is read in
/// place as by [`LineReader`].
pub struct ThreadReader {
    lines: Option<std::sync::mpsc::Receiver<Input>>,
    fallback: Option<Box<dyn BufRead + Send>>,
    ended: bool,
}

impl ThreadReader {
    /// Starts reading `input` on a new thread, a few lines ahead.
    pub fn spawn(input: Box<dyn BufRead + Send>) -> ThreadReader {
        let (sender, receiver) = std::sync::mpsc::sync_channel::<Input>(MAX_PENDING);
        let shared = std::sync::Arc::new(std::sync::Mutex::new(Some(input)));
        let theirs = std::sync::Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("uci-input".to_string())
            .spawn(move || {
                let taken = theirs.lock().ok().and_then(|mut held| held.take());
                if let Some(mut input) = taken {
                    loop {
                        let line = read_line(&mut *input);
                        let end = line == Input::End;
                        if sender.send(line).is_err() || end {
                            break;
                        }
                    }
                }
            });
        match spawned {
            Ok(_) => ThreadReader {
                lines: Some(receiver),
                fallback: None,
                ended: false,
            },
            Err(_) => ThreadReader {
                lines: None,
                fallback: shared.lock().ok().and_then(|mut held| held.take()),
                ended: false,
            },
        }
    }
}

impl Commands for ThreadReader {
    fn next(&mut self, wait: bool) -> Input {
        if self.ended {
            return Input::End;
        }
        let input = match (&self.lines, &mut self.fallback) {
            (Some(lines), _) if wait => lines.recv().unwrap_or(Input::End),
            (Some(lines), _) => match lines.try_recv() {
                Ok(input) => input,
                Err(std::sync::mpsc::TryRecvError::Empty) => Input::Nothing,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => Input::End,
            },
            (None, Some(input)) => read_line(&mut **input),
            (None, None) => Input::End,
        };
        self.ended = input == Input::End;
        input
    }
}

// --------------------------------------------------------------- clocks

/// The engine's clock: milliseconds from a fixed start, never going back.
pub trait Clock {
    /// Milliseconds since the clock's start.
    fn now_ms(&self) -> u64;
}

/// The system's monotonic clock.
pub struct SystemClock {
    start: std::time::Instant,
}

impl SystemClock {
    /// A clock starting now.
    pub fn new() -> SystemClock {
        SystemClock {
            start: std::time::Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

// @section interpreter
/// A clock that never moves, for hosts without one: time limits never
/// expire there (searches by depth or nodes are unaffected).
pub struct NoClock;

impl Clock for NoClock {
    fn now_ms(&self) -> u64 {
        0
    }
}
// @end interpreter

// ------------------------------------------------------- the command line

/// The engine's `main`: `name` is the program's (its file stem), `args`
/// the arguments without the program name. `--fen FEN [--moves MOVES]
/// [--depth N] [--no-endgame] [--perft N]` answers one query; no arguments
/// speaks UCI, reading `commands` and answering on `output`. Returns the
/// exit status: 0, 1 (runtime error §9), 2 (bad FEN, move or usage).
pub fn main(
    name: &str,
    args: &[String],
    program: &dyn Endgame,
    commands: &mut dyn Commands,
    clock: &dyn Clock,
    output: &mut dyn Write,
    errors: &mut dyn Write,
) -> i32 {
    if args.is_empty() {
        let mut engine = Engine::new(name, program, commands, clock, output, errors);
        engine.run();
        return 0;
    }
    let query = match parse_args(args) {
        Ok(Some(query)) => query,
        Ok(None) => {
            let _ = write!(output, "{} (icp2c CHEG engine)\n{HELP}", printable(name));
            let _ = output.flush();
            return 0;
        }
        Err(message) => {
            let _ = writeln!(errors, "error: {}", printable(&message));
            let _ = writeln!(errors, "{USAGE}");
            let _ = errors.flush();
            return 2;
        }
    };
    let game = Position::from_fen(&query.fen)
        .and_then(|start| play_moves(&start, query.moves.as_deref().unwrap_or("")));
    let (position, history) = match game {
        Ok(game) => game,
        Err(message) => {
            let _ = writeln!(errors, "error: {}", printable(&message));
            let _ = errors.flush();
            return 2;
        }
    };
    if let Some(depth) = query.perft {
        let _ = writeln!(output, "{}", position.perft(depth));
        let _ = output.flush();
        return 0;
    }
    let endgame = if query.endgame { Some(program) } else { None };
    let limits = Limits {
        depth: query.depth,
        from: query.depth,
        nodes: None,
        exact: true,
    };
    let mut table = Table::new(DEFAULT_HASH);
    let result = engine::search(
        &position,
        limits,
        endgame,
        &mut table,
        &history,
        &mut engine::Unwatched,
        // @section break
        errors,
        // @end break
    );
    match result {
        Ok(answer) => {
            let best = answer
                .best
                .map_or_else(|| "0000".to_string(), |m| m.to_uci());
            let _ = writeln!(output, "bestmove {best} score {}", answer.score);
            let _ = output.flush();
            0
        }
        Err(error) => {
            let _ = writeln!(errors, "{error}");
            let _ = errors.flush();
            1
        }
    }
}

/// Plays the blank-separated UCI moves `moves` from `start` (§7.5): the
/// position after them and the game's history. Error: the first move that
/// is not legal where it is played.
fn play_moves(start: &Position, moves: &str) -> Result<(Position, History), String> {
    let (position, history, bad) = play_until_bad(start, moves);
    match bad {
        Some(message) => Err(message),
        None => Ok((position, history)),
    }
}

/// Plays the moves of `moves` from `start` up to the first that is not
/// legal where it is played: the position and history after the moves
/// played, and the error naming the bad one (§7.5).
fn play_until_bad(start: &Position, moves: &str) -> (Position, History, Option<String>) {
    let mut played = Vec::new();
    let mut position = start.clone();
    let mut bad = None;
    for text in moves.split_whitespace() {
        let Some(mv) = position.parse_move(text) else {
            bad = Some(format!("illegal move '{text}' in {}", position.to_fen()));
            break;
        };
        position = position.play(mv);
        played.push(mv);
    }
    let (position, history) = History::game(start, &played);
    (position, history, bad)
}

/// One `--fen` query.
struct Query {
    fen: String,
    moves: Option<String>,
    depth: u32,
    endgame: bool,
    perft: Option<u32>,
}

/// The query, or `None` for `--help`.
fn parse_args(args: &[String]) -> Result<Option<Query>, String> {
    if let Some(i) = args.iter().position(|a| a.len() > MAX_LINE) {
        return Err(format!(
            "argument {} is longer than {MAX_LINE} bytes",
            i + 1
        ));
    }
    let mut fen: Option<String> = None;
    let mut moves: Option<String> = None;
    let mut depth: Option<u32> = None;
    let mut perft: Option<u32> = None;
    let mut no_endgame = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        i += 1;
        match arg.as_str() {
            "--help" | "-h" => return Ok(None),
            "--fen" | "--depth" | "--perft" | "--moves" => {
                let value = args.get(i).ok_or_else(|| format!("{arg} needs a value"))?;
                i += 1;
                match arg.as_str() {
                    "--fen" => {
                        if fen.replace(value.clone()).is_some() {
                            return Err("--fen given twice".to_string());
                        }
                    }
                    "--moves" => {
                        if moves.replace(value.clone()).is_some() {
                            return Err("--moves given twice".to_string());
                        }
                    }
                    "--depth" => {
                        let n = parse_number(value, 1, 20)
                            .ok_or_else(|| format!("--depth {value}: expected 1 to 20"))?;
                        if depth.replace(n).is_some() {
                            return Err("--depth given twice".to_string());
                        }
                    }
                    _ => {
                        let Some(n) = parse_number(value, 0, MAX_PERFT) else {
                            return Err(perft_range(&format!("--perft {value}")));
                        };
                        if perft.replace(n).is_some() {
                            return Err("--perft given twice".to_string());
                        }
                    }
                }
            }
            "--no-endgame" => {
                if no_endgame {
                    return Err("--no-endgame given twice".to_string());
                }
                no_endgame = true;
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    let fen = fen.ok_or_else(|| "--fen FEN is required".to_string())?;
    Ok(Some(Query {
        fen,
        moves,
        depth: depth.unwrap_or(DEFAULT_DEPTH),
        endgame: !no_endgame,
        perft,
    }))
}

/// A decimal integer in `min..=max`.
fn parse_number(text: &str, min: u32, max: u32) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = text.parse().ok()?;
    if (min..=max).contains(&n) {
        Some(n)
    } else {
        None
    }
}

/// A decimal count (digits only), saturating at `u64::MAX`.
fn parse_count(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    }))
}

/// Milliseconds: a decimal count, or a negative one (a GUI's clock that
/// ran out), which counts as 0.
fn parse_millis(text: &str) -> Option<u64> {
    match text.strip_prefix('-') {
        Some(rest) => parse_count(rest).map(|_| 0),
        None => parse_count(text),
    }
}

/// The UCI score of a value (§11.20): `cp C` with C = VALUE × 100 / 128
/// truncated, or `mate M` when |VALUE| > 28416, M = (28672 − |VALUE|) / 2
/// rounded up, negative when losing. Values beyond ±28672 are not mates
/// (only the uncertain branch of the `VALRET` conversion reaches them, §6.2,
/// §11.11); they are printed as `cp` so that M never comes out negative for
/// a winning value.
pub fn uci_score(value: i64) -> String {
    score_text(i128::from(value))
}

/// The depth that proves a mate in `moves` moves: 2 × moves − 1 plies,
/// at most the deepest search (`go mate M`, §7.5).
fn mate_depth(moves: u64) -> u32 {
    moves
        .saturating_mul(2)
        .saturating_sub(1)
        .clamp(1, u64::from(engine::MAX_DEPTH)) as u32
}

/// True when `value` is a mate for the side to move in at most `moves`
/// moves ([`uci_score`]'s `mate M` with 0 < M ≤ moves).
fn mates_within(value: i64, moves: u64) -> bool {
    value > 28416 && value <= 28672 && ((28672 - value + 1) / 2) as u64 <= moves
}

fn score_text(value: i128) -> String {
    let magnitude = value.abs();
    if magnitude > 28416 && magnitude <= 28672 {
        let plies = 28672 - magnitude;
        let moves = (plies + 1).div_euclid(2);
        let moves = if value < 0 { -moves } else { moves };
        format!("mate {moves}")
    } else {
        format!("cp {}", value * 100 / 128)
    }
}

/// `text` with control characters shown as `?`, so an error line stays one
/// line of text.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

// ----------------------------------------------------------------- UCI

/// A `go` command's parameters (§7.5).
#[derive(Default)]
struct Go {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: Option<u64>,
    binc: Option<u64>,
    movestogo: Option<u64>,
    infinite: bool,
    ponder: bool,
    /// `go mate M`: stop at a proven mate in at most M moves.
    mate: Option<u64>,
    perft: Option<u32>,
    /// `go depth N` with N above 20 (searched at 20).
    deeper: Option<u64>,
}

impl Go {
    /// Reads `go`'s words; Err: the first bad value.
    fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut i = 0;
        while let Some(&word) = words.get(i) {
            i += 1;
            let value = words.get(i).copied().unwrap_or("");
            match word {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "depth" => {
                    i += 1;
                    let bad = || format!("go depth '{value}': expected a depth from 1");
                    let n = parse_count(value).filter(|&n| n >= 1).ok_or_else(bad)?;
                    // Above 20: depth 20, said in an info string (§7.5).
                    go.deeper = (n > u64::from(engine::MAX_DEPTH)).then_some(n);
                    go.depth = Some(n.min(u64::from(engine::MAX_DEPTH)) as u32);
                }
                "perft" => {
                    i += 1;
                    let bad = || perft_range(&format!("go perft '{value}'"));
                    go.perft = Some(parse_number(value, 0, MAX_PERFT).ok_or_else(bad)?);
                }
                "nodes" | "movestogo" | "mate" => {
                    i += 1;
                    let n = parse_count(value)
                        .ok_or_else(|| format!("go {word} '{value}': expected a number"))?;
                    match word {
                        "nodes" => go.nodes = Some(n),
                        "movestogo" => go.movestogo = Some(n),
                        _ => go.mate = Some(n),
                    }
                }
                "movetime" | "wtime" | "btime" | "winc" | "binc" => {
                    i += 1;
                    let bad = || format!("go {word} '{value}': expected milliseconds");
                    let n = parse_millis(value).ok_or_else(bad)?;
                    let slot = match word {
                        "movetime" => &mut go.movetime,
                        "wtime" => &mut go.wtime,
                        "btime" => &mut go.btime,
                        "winc" => &mut go.winc,
                        _ => &mut go.binc,
                    };
                    *slot = Some(n);
                }
                _ => {} // searchmoves and its moves, and unknown words: ignored
            }
        }
        Ok(go)
    }

    /// True when the search has a limit besides its depth (a node count,
    /// a time, a mate, `infinite`, `ponder`).
    fn limited_otherwise(&self) -> bool {
        self.nodes.is_some()
            || self.mate.is_some()
            || self.movetime.is_some()
            || self.wtime.is_some()
            || self.btime.is_some()
            || self.infinite
            || self.ponder
    }

    /// The time the side to move may think (see [`TimePlan`]).
    fn time_plan(&self, white: bool, overhead: u64) -> Option<TimePlan> {
        let mut plan: Option<TimePlan> = None;
        if let Some(movetime) = self.movetime {
            let t = movetime.saturating_sub(overhead).max(1);
            plan = Some(TimePlan { soft: t, hard: t });
        }
        let (time, inc) = if white {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        if let Some(time) = time {
            let inc = inc.unwrap_or(0);
            let safety = overhead + 10 + time / 20;
            let usable = time.saturating_sub(safety);
            let moves = self.movestogo.unwrap_or(30).clamp(1, 50);
            let soft = (usable / moves)
                .saturating_add(inc / 4 * 3)
                .min(usable)
                .max(1);
            let hard = soft.saturating_mul(4).min(usable).max(soft);
            let clock = TimePlan { soft, hard };
            plan = Some(match plan {
                Some(p) => TimePlan {
                    soft: p.soft.min(clock.soft),
                    hard: p.hard.min(clock.hard),
                },
                None => clock,
            });
        }
        plan
    }
}

/// How long a timed search may take, in milliseconds from its start (§7.5;
/// the decision is documented in `docs/cheg.md`):
/// - `go movetime T`: T − O ms, both (O: the `Move Overhead` option);
/// - with the clock (T left, I increment, M = `movestogo` or 30, kept in
///   1–50): of T, O + 10 ms + T/20 are never used; of the rest R, a move aims
///   at R/M + 3I/4 (`soft`) and may take up to 4 times that, at most R
///   (`hard`).
///
/// A new depth starts only before half of `soft` has gone (the next depth
/// takes longer than all before it); at `hard` the search stops at once.
#[derive(Clone, Copy, Debug)]
struct TimePlan {
    soft: u64,
    hard: u64,
}

/// The UCI engine: the session's state and its streams.
struct Engine<'a> {
    name: &'a str,
    program: &'a dyn Endgame,
    commands: &'a mut dyn Commands,
    clock: &'a dyn Clock,
    output: &'a mut dyn Write,
    errors: &'a mut dyn Write,
    /// None after a refused `position` line (§7.5).
    position: Option<Position>,
    history: History,
    depth: u32,
    endgame: bool,
    hash: u32,
    /// `Move Overhead`, ms.
    move_overhead: u64,
    /// Made at the first `go` after `Hash` is set.
    table: Option<Table>,
    /// Commands read during a search, to run after it.
    pending: VecDeque<Input>,
    /// The end of the input was read.
    ended: bool,
}

impl<'a> Engine<'a> {
    fn new(
        name: &'a str,
        program: &'a dyn Endgame,
        commands: &'a mut dyn Commands,
        clock: &'a dyn Clock,
        output: &'a mut dyn Write,
        errors: &'a mut dyn Write,
    ) -> Engine<'a> {
        Engine {
            name,
            program,
            commands,
            clock,
            output,
            errors,
            position: Some(Position::start()),
            history: History::new(),
            depth: DEFAULT_DEPTH,
            endgame: true,
            hash: DEFAULT_HASH,
            move_overhead: MOVE_OVERHEAD,
            table: None,
            pending: VecDeque::new(),
            ended: false,
        }
    }

    /// The UCI loop: one command after the other until `quit` or the end
    /// of the input.
    fn run(&mut self) {
        loop {
            let input = match self.pending.pop_front() {
                Some(input) => input,
                None if self.ended => Input::End,
                None => self.commands.next(true),
            };
            let quit = match input {
                Input::End => true,
                Input::Nothing => false,
                Input::TooLong => {
                    self.error(&format!("command longer than {MAX_LINE} bytes, skipped"));
                    false
                }
                Input::Line(line) => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let words: Vec<&str> = text.split_whitespace().collect();
                    self.command(&words)
                }
            };
            let _ = self.output.flush();
            if quit {
                break;
            }
        }
        let _ = self.output.flush();
    }

    fn error(&mut self, message: &str) {
        let _ = writeln!(self.output, "info string error: {}", printable(message));
    }

    /// Handles one UCI line; returns true on `quit`.
    fn command(&mut self, words: &[&str]) -> bool {
        let Some((&name, rest)) = words.split_first() else {
            return false;
        };
        let reply = match name {
            "quit" => return true,
            "uci" => {
                let _ = write!(
                    self.output,
                    "id name {} (icp2c CHEG engine)\nid author icp2c\n\
                     option name Depth type spin default {DEFAULT_DEPTH} min 1 max 20\n\
                     option name Endgame type check default true\n\
                     option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}\n\
                     option name Clear Hash type button\n\
                     option name Threads type spin default 1 min 1 max 1\n\
                     option name Ponder type check default false\n\
                     option name Move Overhead type spin default {MOVE_OVERHEAD} min 0 \
                     max {MAX_MOVE_OVERHEAD}\nuciok\n",
                    printable(self.name)
                );
                Ok(())
            }
            "isready" => {
                let _ = writeln!(self.output, "readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.position = Some(Position::start());
                self.history = History::new();
                Ok(())
            }
            "stop" | "ponderhit" | "debug" => Ok(()),
            "setoption" => self.set_option(rest),
            "position" => self.set_position(rest),
            "d" if rest.is_empty() => match &self.position {
                Some(position) => {
                    let _ = write!(self.output, "{}", super::chess::display(position));
                    Ok(())
                }
                None => Err(NO_POSITION.to_string()),
            },
            "go" => return self.go(rest),
            _ => Err(format!("unknown command '{}'", words.join(" "))),
        };
        if let Err(message) = reply {
            self.error(&message);
        }
        false
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        // setoption name NAME [value VALUE]: NAME may contain blanks
        // (`Move Overhead`, `Clear Hash`), compared without case.
        let Some((&"name", rest)) = words.split_first() else {
            return Err(SETOPTION_FORM.to_string());
        };
        let value_at = rest.iter().position(|w| *w == "value");
        let name = rest.get(..value_at.unwrap_or(rest.len())).unwrap_or(&[]);
        let value = value_at.map(|i| rest.get(i + 1..).unwrap_or(&[]).join(" "));
        let name = name.join(" ");
        if name.is_empty() {
            return Err(SETOPTION_FORM.to_string());
        }
        if name.eq_ignore_ascii_case("clear hash") {
            // A button: the table is made anew at the next `go`.
            self.table = None;
            return Ok(());
        }
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return Err(SETOPTION_FORM.to_string());
        };
        let value = value.as_str();
        let check = |what: &str| {
            if value.eq_ignore_ascii_case("true") {
                Ok(true)
            } else if value.eq_ignore_ascii_case("false") {
                Ok(false)
            } else {
                Err(format!("{what} {value}: expected true or false"))
            }
        };
        if name.eq_ignore_ascii_case("depth") {
            let depth = parse_number(value, 1, 20);
            self.depth = depth.ok_or_else(|| format!("Depth {value}: expected 1 to 20"))?;
        } else if name.eq_ignore_ascii_case("endgame") {
            self.endgame = check("Endgame")?;
        } else if name.eq_ignore_ascii_case("hash") {
            let bad = || format!("Hash {value}: expected 1 to {MAX_HASH}");
            self.hash = parse_number(value, 1, MAX_HASH).ok_or_else(bad)?;
            self.table = None;
        } else if name.eq_ignore_ascii_case("move overhead") {
            let most = MAX_MOVE_OVERHEAD;
            let bad = || format!("Move Overhead {value}: expected 0 to {most}");
            let ms = parse_number(value, 0, most).ok_or_else(bad)?;
            self.move_overhead = u64::from(ms);
        } else if name.eq_ignore_ascii_case("threads") {
            if parse_number(value, 1, 1).is_none() {
                return Err(format!("Threads {value}: expected 1"));
            }
        } else if name.eq_ignore_ascii_case("ponder") {
            check("Ponder")?;
        } else {
            return Err(format!(
                "unknown option '{name}' (options: Depth, Endgame, Hash, Clear Hash, \
                 Threads, Ponder, Move Overhead)"
            ));
        }
        Ok(())
    }

    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (
                words.get(..i).unwrap_or(&[]),
                words.get(i + 1..).unwrap_or(&[]),
            ),
            None => (words, &[][..]),
        };
        // A refused line leaves no position (§7.5): a later `go` never
        // answers for an older one.
        self.position = None;
        self.history = History::new();
        let start = match head.split_first() {
            Some((&"startpos", [])) => Position::start(),
            Some((&"fen", fields)) => Position::from_fen(&fields.join(" "))?,
            _ => return Err("expected 'position startpos|fen FEN [moves …]'".to_string()),
        };
        // The moves before the first bad one are played (§7.5).
        let (position, history, bad) = play_until_bad(&start, &moves.join(" "));
        self.position = Some(position);
        self.history = history;
        bad.map_or(Ok(()), Err)
    }

    /// `go …` (§7.4, §7.5); returns true when `quit` came during the
    /// search.
    fn go(&mut self, words: &[&str]) -> bool {
        let mut go = match Go::parse(words) {
            Ok(go) => go,
            Err(message) => {
                self.error(&message);
                if !words.contains(&"perft") {
                    let _ = writeln!(self.output, "bestmove 0000");
                }
                return false;
            }
        };
        let Some(position) = self.position.clone() else {
            self.error(NO_POSITION);
            if go.perft.is_none() {
                let _ = writeln!(self.output, "bestmove 0000");
            }
            return false;
        };
        if let Some(n) = go.perft {
            return self.perft(&position, n);
        }
        // The other side's clock is no limit of this search: `go btime T`
        // with White to move searches as a bare `go` does (§7.5).
        if position.side_to_move() == super::chess::Colour::White {
            go.btime = None;
        } else {
            go.wtime = None;
        }
        if let Some(n) = go.deeper {
            let deepest = engine::MAX_DEPTH;
            let _ = writeln!(
                self.output,
                "info string go depth {n}: searching depth {deepest}, the deepest"
            );
        }
        let start = self.clock.now_ms();
        let depth = match go.depth {
            Some(depth) => depth,
            None if go.limited_otherwise() => engine::MAX_DEPTH,
            None => self.depth,
        };
        let limits = Limits {
            // `go mate M`: a mate in M moves is found at depth 2M − 1.
            depth: go.mate.map_or(depth, |m| depth.min(mate_depth(m))),
            from: 1,
            nodes: go.nodes,
            exact: !go.limited_otherwise(),
        };
        let white = position.side_to_move() == super::chess::Colour::White;
        let plan = go.time_plan(white, self.move_overhead);
        let hash = self.hash;
        let table = self.table.get_or_insert_with(|| Table::new(hash));
        let live = self.commands.live();
        // A `go` read before the end of a live input: stopped at once.
        let stop = live && self.ended;
        let mut watcher = Watcher {
            commands: &mut *self.commands,
            clock: self.clock,
            output: &mut *self.output,
            pending: &mut self.pending,
            ended: &mut self.ended,
            start,
            plan_start: start,
            plan: if go.ponder { None } else { plan },
            ponder_plan: if go.ponder { plan } else { None },
            pondering: go.ponder,
            infinite: go.infinite,
            mate: go.mate,
            live,
            stop,
            quit: false,
        };
        let program = if self.endgame {
            Some(self.program)
        } else {
            None
        };
        let result = engine::search(
            &position,
            limits,
            program,
            table,
            &self.history,
            &mut watcher,
            // @section break
            &mut *self.errors,
            // @end break
        );
        match result {
            Ok(answer) => {
                if answer.best.is_none() {
                    let depth = if go.depth.is_some() || !go.limited_otherwise() {
                        limits.depth
                    } else {
                        1
                    };
                    watcher.info(&Report {
                        depth,
                        score: answer.score,
                        nodes: answer.nodes,
                        pv: Vec::new(),
                    });
                }
                if watcher.infinite || watcher.pondering {
                    watcher.wait_for_stop();
                }
                let best = answer
                    .best
                    .map_or_else(|| "0000".to_string(), |m| m.to_uci());
                // The move the engine expects in reply (§7.5): the
                // principal variation's second, when it starts with the
                // best move.
                let ponder = match (answer.best, answer.pv.as_slice()) {
                    (Some(b), [first, reply, ..]) if *first == b => {
                        format!(" ponder {}", reply.to_uci())
                    }
                    _ => String::new(),
                };
                let _ = writeln!(watcher.output, "bestmove {best}{ponder}");
                watcher.quit
            }
            Err(error) => {
                let quit = watcher.quit;
                let _ = writeln!(self.errors, "{error}");
                let _ = self.errors.flush();
                let _ = writeln!(self.output, "info string {error}");
                let _ = writeln!(self.output, "bestmove 0000");
                quit
            }
        }
    }

    /// `go perft N`; `quit`, or the end of a live input, abandons it
    /// (§7.5: no `Nodes searched` line) and returns true when the engine
    /// is to end.
    fn perft(&mut self, position: &Position, n: u32) -> bool {
        let start = self.clock.now_ms();
        let live = self.commands.live();
        let mut watcher = Watcher {
            commands: &mut *self.commands,
            clock: self.clock,
            output: &mut *self.output,
            pending: &mut self.pending,
            ended: &mut self.ended,
            start,
            plan_start: start,
            plan: None,
            ponder_plan: None,
            pondering: false,
            infinite: false,
            mate: None,
            live,
            stop: false,
            quit: false,
        };
        let mut total = 0u64;
        if n > 0 {
            for mv in position.legal_moves() {
                let child = position.play(mv);
                let Some(count) = perft_watched(&child, n - 1, &mut watcher) else {
                    return true;
                };
                total = total.wrapping_add(count);
                let _ = writeln!(watcher.output, "{}: {count}", mv.to_uci());
            }
        } else {
            total = 1;
        }
        let _ = write!(watcher.output, "\nNodes searched: {total}\n");
        watcher.quit
    }
}

/// The perft of `position` to `depth`, reading the input before each
/// subtree of depth 3 or more: None when `quit` or the end of a live input
/// came (`stop` is not a perft's: it is read and ignored).
fn perft_watched(position: &Position, depth: u32, w: &mut Watcher<'_>) -> Option<u64> {
    if depth < 3 {
        return Some(position.perft(depth));
    }
    w.read();
    if w.quit || (w.live && *w.ended) {
        return None;
    }
    let mut total = 0u64;
    for mv in position.legal_moves() {
        let child = position.play(mv);
        total = total.wrapping_add(perft_watched(&child, depth - 1, w)?);
    }
    Some(total)
}

/// What a UCI search watches while it runs (§7.5): the commands (`stop`,
/// `isready`, `quit`, `ponderhit` at once; the others wait in `pending`)
/// and the clock.
struct Watcher<'w> {
    commands: &'w mut dyn Commands,
    clock: &'w dyn Clock,
    output: &'w mut dyn Write,
    pending: &'w mut VecDeque<Input>,
    ended: &'w mut bool,
    /// When `go` came (ms).
    start: u64,
    /// When the time plan started: `go`, or `ponderhit`.
    plan_start: u64,
    plan: Option<TimePlan>,
    /// The plan that `ponderhit` starts.
    ponder_plan: Option<TimePlan>,
    pondering: bool,
    infinite: bool,
    /// `go mate M`: M.
    mate: Option<u64>,
    /// The input is live: its end stops the search (§7.5).
    live: bool,
    stop: bool,
    quit: bool,
}

impl Watcher<'_> {
    /// Handles the commands that have arrived.
    fn read(&mut self) {
        while self.pending.len() < MAX_PENDING && !*self.ended {
            let input = self.commands.next(false);
            if !self.handle(input) {
                break;
            }
        }
    }

    /// Handles one input during a search; false when nothing had arrived.
    fn handle(&mut self, input: Input) -> bool {
        match input {
            Input::Nothing => return false,
            Input::End => {
                *self.ended = true;
                if self.live || self.infinite || self.pondering {
                    self.stop = true;
                }
            }
            Input::TooLong => self.pending.push_back(Input::TooLong),
            Input::Line(line) => {
                let first = String::from_utf8_lossy(&line)
                    .split_whitespace()
                    .next()
                    .map(str::to_string);
                match first.as_deref() {
                    Some("isready") => {
                        let _ = writeln!(self.output, "readyok");
                        let _ = self.output.flush();
                    }
                    Some("stop") => self.stop = true,
                    Some("quit") => {
                        self.quit = true;
                        self.stop = true;
                    }
                    Some("ponderhit") => {
                        if self.pondering {
                            self.pondering = false;
                            self.plan = self.ponder_plan.take();
                            self.plan_start = self.clock.now_ms();
                        }
                    }
                    _ => self.pending.push_back(Input::Line(line)),
                }
            }
        }
        true
    }

    /// Milliseconds since the time plan started.
    fn planned(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.plan_start)
    }

    /// After the search of a `go infinite` or `go ponder`: waits for
    /// `stop` (or `ponderhit`, or `quit`, or the end of the input).
    fn wait_for_stop(&mut self) {
        while !self.stop && (self.infinite || self.pondering) && !*self.ended {
            let input = self.commands.next(true);
            self.handle(input);
            if !self.pondering && !self.infinite {
                break;
            }
        }
    }

    /// Prints one `info` line (§7.5).
    fn info(&mut self, report: &Report) {
        let time = self.clock.now_ms().saturating_sub(self.start);
        let nps = u128::from(report.nodes) * 1000 / u128::from(time.max(1));
        let mut line = format!(
            "info depth {} score {} nodes {} nps {nps} time {time}",
            report.depth,
            uci_score(report.score),
            report.nodes
        );
        if !report.pv.is_empty() {
            line.push_str(" pv");
            for mv in &report.pv {
                line.push(' ');
                line.push_str(&Move::to_uci(*mv));
            }
        }
        let _ = writeln!(self.output, "{line}");
        let _ = self.output.flush();
    }
}

impl Watch for Watcher<'_> {
    fn poll(&mut self) -> bool {
        self.read();
        self.stop || self.plan.is_some_and(|p| self.planned() >= p.hard)
    }

    fn completed(&mut self, report: &Report) -> bool {
        self.info(report);
        self.read();
        if self.stop || self.mate.is_some_and(|m| mates_within(report.score, m)) {
            return false;
        }
        match self.plan {
            Some(p) => self.planned().saturating_mul(2) < p.soft,
            None => true,
        }
    }
}
