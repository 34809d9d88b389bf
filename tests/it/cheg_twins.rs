//! CHEG's twin runtimes compared function by function: the Rust runtime
//! (`src/lang/cheg/runtime/{chess,engine,uci}.rs`, which the interpreter
//! and generated Rust run) and its C port (`chess.c`, `engine.c`,
//! `uci.c`, which generated C carries) answer the same operations with
//! the same lines.
//!
//! An operation script (one operation a line) goes to two interpreters of
//! it: [`Twin`] here, calling the Rust runtime in this process, and the C
//! driver `tests/c/cheg_twins.c`, which includes the C runtime whole and
//! reads the script on standard input. Each prints one line per operation
//! (`display` and `uci` print several and end with a line `.`); the lines
//! must be the same, and a difference is reported with the operation, its
//! line of the script and the script's seed.
//!
//! The operations, `OP ARGS` (the state: the game's start, the moves made
//! since and the position now; a table; a UCI session):
//!
//! | operation | runtime functions (Rust / C) | prints |
//! | --- | --- | --- |
//! | `fen FEN` | `Position::from_fen` / `icp_read_fen` | `ok` (a new game) or `error MESSAGE` |
//! | `fen?` | `to_fen` / `icp_position_to_fen` | the FEN |
//! | `moves`, `gen` | `legal_moves` (§7.2 order), `generate` | count and the moves |
//! | `count`, `perft N` | `count_legal`, `perft` | the count |
//! | `make TEXT` | `parse_move`, `play` | `ok MOVE` or `illegal` |
//! | `unmake` | (the position before) | `ok` or `empty` |
//! | `parse TEXT` | `parse_move` | the move or `none` |
//! | `raw F T P` | `play`, `is_legal`, `is_capture`, `gives_check`, `is_irreversible` on any squares 0–255 and promotion code 0–6 | the flags and the FEN after |
//! | `check` | `in_check`, `checkers` | the flag and the squares |
//! | `key` | `key`, `repetition_key`, `en_passant_capturable`, `side_to_move` | the keys and flags |
//! | `same` | `History::game`, `History::contains`, `same_game_position` | against each earlier position |
//! | `pieces` | `piece_at` (0–64), `count`, `piece_variable` | the board, the counts, the variables |
//! | `display` | `chess::display` / `icp_display` | the UCI `d` board |
//! | `search D FROM NODES ENDGAME` | `engine::search` / `icp_search_run` with the game's history | best move, score, nodes, depth, stopped, PV (or the runtime error) |
//! | `hash MB` | `Table::new`, `entries_for` | the table's entries |
//! | `eval` | `Node::static_eval` | the value |
//! | `val A B` | value text, §2 equality, `value_key` | both texts, `eq`, both keys |
//! | `bin OP A B`, `un OP V` | `engine::binary`, `unary` / `icp_do_binary`, `icp_do_unary` | the result or `fault MESSAGE` |
//! | `cmp CMP A B` | `compare` / `icp_do_jump` | whether the jump is taken, or the fault |
//! | `test TEST NEGATED KIND V SIDE` | `Node::test` / `icp_test` | whether the condition holds, or the fault |
//! | `order ORDERING SET` | `Node::order` / `icp_order_items` | the set ordered, or the fault |
//! | `edit setel\|insert\|unsert\|exchwe\|exchel A U I` | `set_element` … `exchange_elements` / `icp_do_setel` … | the two variables after, or the fault |
//! | `nodevars` | `Node::legal_moves`, `pawn_groups`, `piece_variable` / `icp_legal_moves_value` … | `LM`, `PG` and every piece variable |
//! | `convert W L C D` | `convert` | the value |
//! | `squares A B` | `king_distance`, `opposition` | both |
//! | `score V` | `uci_score` / `icp_score_text` | the UCI score |
//! | `utf8 HEX` | `String::from_utf8_lossy` / `icp_utf8_next` | the code points |
//! | `words HEX` | lossy UTF-8 and `split_whitespace` / `icp_words_split` | the words (control characters as `?`) |
//! | `uci HEX` | one line of a UCI session: `uci::main` / `icp_command` | its output (`info` lines without `time` and `nps`) |
//!
//! Values (`val`) are written `#`, `T`, `F`, integers, squares `e4`,
//! pieces `Ke1` (upper case White), moves `M` + piece + destination +
//! promotion letter (`MPe7e8q`), sets `(a,b,c)`. `OP`, `CMP`, `TEST`
//! and `ORDERING` are the C names of `runtime/api.rs` (`ICP_B_ADD`); the
//! instructions run at the position now (DEPTH 1, PLIES 2) with two user
//! variables, the first untouched by all but `unsert` and `exchwe`, and
//! their operands are mostly of the types they want. A search with
//! `ENDGAME` 1 consults `examples/kpk.cheg` (the interpreter here, its
//! generated C there: [`PROGRAM`]). The UCI session's engine is that
//! program too, and asks for input during a search and gets none (the C
//! driver is plain C99; the Rust session's reader answers `Nothing`); the
//! generator leaves out what waits for input or the clock (`go infinite`,
//! `go ponder`, valid times) and `quit`.
//!
//! The tests: the quick one compares [`SCRIPTS`] scripts of [`LENGTH`]
//! operations (`ICP2C_CHEG_TWINS=N`: N scripts); one checks the checker
//! on a drift injected into the Rust half and on a patched line of a copy
//! of `engine/values.c`; an ignored one (run by `.ci/run`) builds the driver on
//! each of [`MUTANTS`], one-line mutants of the C runtime, and requires
//! the quick test's scripts to see each.
//!
//! To add an operation: a line in the table above, an arm in
//! [`Twin::op`], an `op_` function and a branch in `main` of
//! `tests/c/cheg_twins.c`, and a case in [`Gen::op`].
//!
//! Why a C driver over standard input rather than calling C through FFI:
//! the C runtime is a set of `static` functions pasted into one file (there
//! is no library to link), a C fault (an out-of-bounds read, a `longjmp`,
//! an `exit`) must not take the test process down, and the driver is the
//! same C99 file that `cc -Wall -Wextra -Wpedantic -Werror` accepts, built
//! with one `cc` and no build script or `unsafe`.

use crate::support;
use crate::support::progen::Rng;
use crate::support::twins::{self, Ending, hex, unhex};
use icp2c::codegen::sections::Entry;
use icp2c::driver::{self, Language};
use icp2c::lang::cheg::Cheg;
use icp2c::lang::cheg::interp::Interpreter;
use icp2c::lang::cheg::runtime::api;
use icp2c::lang::cheg::runtime::chess::{self, Colour, Kind, Move, Piece, Position};
use icp2c::lang::cheg::runtime::engine::{
    self, Binary, Compare, History, Limits, MoveValue, Ordering, Table, Test, Unary, Value,
};
use icp2c::lang::cheg::runtime::uci;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::OnceLock;

// ------------------------------------------------------- the Rust half

/// The endgame program the searches with `ENDGAME` 1 consult and the
/// UCI session runs: `examples/kpk.cheg` (the walks start from some of
/// its positions), interpreted here, its generated C in the driver.
const PROGRAM: &str = "kpk";

fn program() -> &'static driver::Program {
    static PROGRAM_IR: OnceLock<driver::Program> = OnceLock::new();
    PROGRAM_IR.get_or_init(|| {
        let path = support::root().join(format!("examples/{PROGRAM}.cheg"));
        let source = std::fs::read_to_string(&path).unwrap();
        driver::check(Language::Cheg, &source)
            .unwrap_or_else(|_| panic!("{} does not compile", path.display()))
            .program
    })
}

fn interpreter() -> Interpreter<'static> {
    Interpreter::new(program().ir::<Cheg>().expect("a CHEG program"))
}

/// A drift injected into the Rust half, to see that the comparison
/// notices one (the test of the checker).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drift {
    None,
    /// `parse` reads only the squares of a move, as a runtime that lost
    /// the promotion letter would.
    PromotionIgnored,
}

/// The Rust half: the script's state, over the Rust runtime.
struct Twin {
    start: Position,
    now: Position,
    before: Vec<Position>,
    played: Vec<Move>,
    table: Table,
    /// The output of each `uci` operation, in order (one session run
    /// first over all of them: [`uci_outputs`]).
    uci: VecDeque<String>,
    drift: Drift,
}

const KINDS: [Kind; 6] = Kind::ALL;

/// Every instruction, comparison, condition and ordering, named in the
/// scripts by its C name in `runtime/api.rs` (the C driver's `t_codes`).
const BINARY: [Binary; 25] = [
    Binary::SetSq,
    Binary::SetMov,
    Binary::Pair,
    Binary::Member,
    Binary::MemNum,
    Binary::Inters,
    Binary::Union,
    Binary::Differ,
    Binary::Append,
    Binary::GetEl,
    Binary::MvDist,
    Binary::InSq,
    Binary::Opp,
    Binary::SqRank,
    Binary::Nor,
    Binary::And,
    Binary::Or,
    Binary::Add,
    Binary::Sub,
    Binary::Mul,
    Binary::Div,
    Binary::Mod,
    Binary::Dif,
    Binary::Min,
    Binary::Max,
];
const UNARY: [Unary; 10] = [
    Unary::SetV,
    Unary::Card,
    Unary::Piece,
    Unary::Square,
    Unary::Side,
    Unary::Rank,
    Unary::File,
    Unary::SColor,
    Unary::PColor,
    Unary::Abs,
];
const COMPARE: [Compare; 6] = [
    Compare::Lt,
    Compare::Eq,
    Compare::Gt,
    Compare::NotLt,
    Compare::Ne,
    Compare::NotGt,
];
/// `Test::Kind` stands for the six kinds (the script gives the kind).
const TESTS: [Test; 21] = [
    Test::Defd,
    Test::Zero,
    Test::Negative,
    Test::Positive,
    Test::Odd,
    Test::True,
    Test::Empty,
    Test::Far,
    Test::RookFile,
    Test::KnightFile,
    Test::Nnf,
    Test::LightSquare,
    Test::Kind(Kind::King),
    Test::MoverPiece,
    Test::Passed,
    Test::PawnDefended,
    Test::Capture,
    Test::Check,
    Test::Safe,
    Test::Opposition,
    Test::KeepsKingRank,
];
const ORDERINGS: [Ordering; 3] = [Ordering::AsGiven, Ordering::Deep, Ordering::Shallow];

fn named<T: Copy>(all: &[T], entry: fn(T) -> &'static Entry, name: &str) -> T {
    *all.iter()
        .find(|&&x| entry(x).c == name)
        .unwrap_or_else(|| panic!("no entry of runtime/api.rs is named {name}"))
}

/// The C runtime's kind code (`ICP_KING` 1 … `ICP_PAWN` 6).
fn kind_code(kind: Kind) -> u8 {
    KINDS.iter().position(|&k| k == kind).unwrap_or(0) as u8 + 1
}

fn kind_of_code(code: u8) -> Option<Kind> {
    KINDS.get(usize::from(code).checked_sub(1)?).copied()
}

fn kind_of_letter(c: u8) -> Option<Kind> {
    KINDS
        .iter()
        .copied()
        .find(|k| k.letter() == char::from(c.to_ascii_uppercase()))
}

fn square_of(text: &[u8]) -> u8 {
    match text {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => (r - b'1') * 8 + (f - b'a'),
        _ => 255,
    }
}

/// A value in the script's syntax (see the module's doc), from `text`
/// at `at`.
fn parse_value(text: &[u8], at: &mut usize) -> Value {
    let s = &text[*at..];
    match s.first() {
        Some(b'(') => {
            *at += 1;
            let mut items = Vec::new();
            while *at < text.len() && text[*at] != b')' {
                items.push(parse_value(text, at));
                if text.get(*at) == Some(&b',') {
                    *at += 1;
                }
            }
            if text.get(*at) == Some(&b')') {
                *at += 1;
            }
            Value::Set(items.into())
        }
        Some(b'#') => {
            *at += 1;
            Value::Undefined
        }
        Some(&c @ (b'T' | b'F')) => {
            *at += 1;
            Value::Logical(c == b'T')
        }
        Some(b'-' | b'0'..=b'9') => {
            let len = 1 + s[1..].iter().take_while(|b| b.is_ascii_digit()).count();
            *at += len;
            // Out of range: the nearest, as C's strtoll reads it.
            let n: i128 = std::str::from_utf8(&s[..len]).unwrap().parse().unwrap();
            Value::Integer(n.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
        }
        Some(b'M') => {
            let colour = if s[1].is_ascii_uppercase() {
                Colour::White
            } else {
                Colour::Black
            };
            let piece = Piece {
                colour,
                kind: kind_of_letter(s[1]).unwrap(),
                square: square_of(&s[2..]),
            };
            let to = square_of(&s[4..]);
            *at += 6;
            let promotion = match s.get(6) {
                Some(&c @ (b'q' | b'r' | b'b' | b'n')) => {
                    *at += 1;
                    kind_of_letter(c)
                }
                _ => None,
            };
            Value::Move(MoveValue {
                piece,
                to,
                promotion,
            })
        }
        Some(&c) if kind_of_letter(c).is_some() => {
            let colour = if c.is_ascii_uppercase() {
                Colour::White
            } else {
                Colour::Black
            };
            *at += 3;
            Value::Piece(Piece {
                colour,
                kind: kind_of_letter(c).unwrap(),
                square: square_of(&s[1..]),
            })
        }
        _ => {
            *at += 2;
            Value::Square(square_of(s))
        }
    }
}

/// `uci.rs`'s `printable`: control characters as `?`.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

fn move_list(moves: &[Move]) -> String {
    let mut line = moves.len().to_string();
    for m in moves {
        line.push(' ');
        line.push_str(&m.to_uci());
    }
    line
}

/// The lines of a UCI session, served one per `next(true)`; the output's
/// length is noted at each, so that each line's output can be cut out.
struct Session {
    lines: VecDeque<Vec<u8>>,
    output: Rc<RefCell<Vec<u8>>>,
    marks: Rc<RefCell<Vec<usize>>>,
}

impl uci::Commands for Session {
    fn next(&mut self, wait: bool) -> uci::Input {
        if !wait {
            // During a search: nothing has arrived (as in the C driver).
            return uci::Input::Nothing;
        }
        self.marks.borrow_mut().push(self.output.borrow().len());
        match self.lines.pop_front() {
            Some(line) => uci::Input::Line(line),
            None => uci::Input::End,
        }
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

/// The output of each `uci` operation of `script`: one session of
/// `uci::main` over all of them, cut at each line.
fn uci_outputs(script: &str) -> VecDeque<String> {
    let lines: VecDeque<Vec<u8>> = script
        .lines()
        .filter_map(|l| l.strip_prefix("uci "))
        .map(unhex)
        .collect();
    let count = lines.len();
    let output = Rc::new(RefCell::new(Vec::new()));
    let marks = Rc::new(RefCell::new(Vec::new()));
    let mut session = Session {
        lines,
        output: output.clone(),
        marks: marks.clone(),
    };
    let mut errors = Vec::new();
    uci::main(
        PROGRAM,
        &[],
        &interpreter(),
        &mut session,
        &uci::NoClock,
        &mut Shared(output.clone()),
        &mut errors,
    );
    let output = output.borrow();
    let mut marks = marks.borrow().clone();
    marks.push(output.len());
    (0..count)
        .map(|i| {
            let (from, to) = (marks[i], marks.get(i + 1).copied().unwrap_or(output.len()));
            String::from_utf8_lossy(&output[from..to.max(from)]).into_owned()
        })
        .collect()
}

impl Twin {
    fn new(script: &str, drift: Drift) -> Twin {
        Twin {
            start: Position::start(),
            now: Position::start(),
            before: Vec::new(),
            played: Vec::new(),
            table: Table::new(1),
            uci: uci_outputs(script),
            drift,
        }
    }

    /// The output of one operation (lines, each ending with `\n`).
    fn op(&mut self, line: &str) -> String {
        let (op, args) = line.split_once(' ').unwrap_or((line, ""));
        let nums: Vec<i64> = args.split(' ').filter_map(|w| w.parse().ok()).collect();
        let num = |i: usize| nums.get(i).copied().unwrap_or(0);
        let out = match op {
            "fen" => match Position::from_fen(args) {
                Ok(p) => {
                    self.start = p.clone();
                    self.now = p;
                    self.before.clear();
                    self.played.clear();
                    "ok".to_string()
                }
                Err(message) => format!("error {}", printable(&message)),
            },
            "fen?" => self.now.to_fen(),
            "moves" => move_list(&self.now.legal_moves()),
            "gen" => {
                let mut moves = Vec::new();
                self.now.generate(&mut moves);
                move_list(&moves)
            }
            "count" => self.now.count_legal().to_string(),
            "perft" => self.now.perft(num(0) as u32).to_string(),
            "make" => match self.now.parse_move(args) {
                Some(mv) => {
                    let next = self.now.play(mv);
                    self.before.push(std::mem::replace(&mut self.now, next));
                    self.played.push(mv);
                    format!("ok {}", mv.to_uci())
                }
                None => "illegal".to_string(),
            },
            "unmake" => match self.before.pop() {
                Some(p) => {
                    self.now = p;
                    self.played.pop();
                    "ok".to_string()
                }
                None => "empty".to_string(),
            },
            "parse" => {
                let text = match self.drift {
                    Drift::PromotionIgnored => args.get(..4).unwrap_or(args),
                    Drift::None => args,
                };
                self.now
                    .parse_move(text)
                    .map_or_else(|| "none".to_string(), |m| m.to_uci())
            }
            "raw" => {
                let mv = Move {
                    from: num(0) as u8,
                    to: num(1) as u8,
                    promotion: kind_of_code(num(2) as u8),
                };
                let p = &self.now;
                format!(
                    "legal {} capture {} gives {} irreversible {} fen {}",
                    u8::from(p.is_legal(mv)),
                    u8::from(p.is_capture(mv)),
                    u8::from(p.gives_check(mv)),
                    u8::from(p.is_irreversible(mv)),
                    p.play(mv).to_fen()
                )
            }
            "check" => {
                let mut line = format!("check {} checkers", u8::from(self.now.in_check()));
                for sq in self.now.checkers() {
                    line.push(' ');
                    line.push_str(&chess::square_name(sq));
                }
                line
            }
            "key" => format!(
                "key {:016x} rep {:016x} ep {} side {}",
                self.now.key(),
                self.now.repetition_key(),
                u8::from(self.now.en_passant_capturable()),
                u8::from(self.now.side_to_move() == Colour::Black)
            ),
            "same" => {
                let (root, history) = History::game(&self.start, &self.played);
                let same: String = self
                    .before
                    .iter()
                    .map(|p| {
                        if self.now.same_game_position(p) {
                            '1'
                        } else {
                            '0'
                        }
                    })
                    .collect();
                let held: String = self
                    .before
                    .iter()
                    .map(|p| if history.contains(p) { '1' } else { '0' })
                    .collect();
                format!(
                    "same {same} history {} {held} {} root {}",
                    history.len(),
                    u8::from(history.contains(&self.now)),
                    u8::from(root.to_fen() == self.now.to_fen())
                )
            }
            "pieces" => self.pieces(),
            "display" => format!("{}.", chess::display(&self.now)),
            "search" => self.search(num(0) as u32, num(1) as u32, num(2) as u64, num(3) != 0),
            "hash" => {
                let megabytes = num(0) as u32;
                self.table = Table::new(megabytes);
                format!("entries {}", Table::entries_for(megabytes))
            }
            "eval" => engine::Node {
                position: self.now.clone(),
                depth: 1,
                plies: 0,
            }
            .static_eval()
            .to_string(),
            "val" => {
                let bytes = args.as_bytes();
                let mut at = 0;
                let a = parse_value(bytes, &mut at);
                while bytes.get(at) == Some(&b' ') {
                    at += 1;
                }
                let b = parse_value(bytes, &mut at);
                format!(
                    "{a} {b} eq {} key {:016x} {:016x}",
                    u8::from(a == b),
                    engine::value_key(&a),
                    engine::value_key(&b)
                )
            }
            "convert" => engine::convert(num(0), num(1), num(2), num(3)).to_string(),
            "squares" => format!(
                "distance {} opposition {}",
                engine::king_distance(num(0) as u8, num(1) as u8),
                u8::from(engine::opposition(num(0) as u8, num(1) as u8))
            ),
            "score" => uci::uci_score(num(0)),
            "utf8" => {
                let bytes = unhex(args);
                let mut line = format!("{}:", bytes.len());
                for c in String::from_utf8_lossy(&bytes).chars() {
                    line.push_str(&format!(" {:X}", u32::from(c)));
                }
                line
            }
            "words" => {
                let bytes = unhex(args);
                let text = String::from_utf8_lossy(&bytes);
                let words: Vec<String> = text.split_whitespace().map(printable).collect();
                let mut line = words.len().to_string();
                for w in words {
                    line.push(' ');
                    line.push_str(&w);
                }
                line
            }
            "uci" => format!("{}.", self.uci.pop_front().unwrap_or_default()),
            "bin" | "un" | "cmp" | "test" | "order" | "edit" => match self.instruction(op, args) {
                Ok((a, b)) => format!("{a} {b}"),
                Err(fault) => format!("fault {fault}"),
            },
            "nodevars" => {
                let node = self.node();
                let mut line = format!("{} {}", node.legal_moves(), node.pawn_groups());
                for mover in [true, false] {
                    for kind in KINDS {
                        for index in 0..kind.variable_count() {
                            line.push_str(&format!(" {}", node.piece_variable(mover, kind, index)));
                        }
                    }
                }
                line
            }
            _ => format!("unknown operation {op}"),
        };
        out + "\n"
    }

    /// The node the instructions run at: the position now, DEPTH 1,
    /// PLIES 2 (the C driver's invocation).
    fn node(&self) -> engine::Node {
        engine::Node {
            position: self.now.clone(),
            depth: 1,
            plies: 2,
        }
    }

    /// An instruction's computation: the two user variables after it
    /// (the first untouched, `#`, by most).
    fn instruction(&self, op: &str, args: &str) -> Result<(Value, Value), engine::Fault> {
        let node = self.node();
        let (name, rest) = args.split_once(' ').unwrap_or((args, ""));
        let bytes = rest.as_bytes();
        let mut at = 0;
        let mut arg = || {
            let v = parse_value(bytes, &mut at);
            while bytes.get(at) == Some(&b' ') {
                at += 1;
            }
            v
        };
        let done = |v: Value| Ok((Value::Undefined, v));
        match op {
            "bin" => {
                let (a, b) = (arg(), arg());
                done(engine::binary(
                    &node,
                    named(&BINARY, api::binary, name),
                    &a,
                    &b,
                )?)
            }
            "un" => done(engine::unary(
                &node,
                named(&UNARY, api::unary, name),
                &arg(),
            )?),
            "cmp" => {
                let (a, b) = (arg(), arg());
                let taken = engine::compare(named(&COMPARE, api::compare, name), &a, &b)?;
                done(Value::Logical(taken))
            }
            "test" => {
                let mut words = rest.splitn(3, ' ');
                let negated = words.next() == Some("1");
                let kind = words.next().and_then(|k| k.parse().ok()).unwrap_or(0);
                let bytes = words.next().unwrap_or("").as_bytes();
                let mut at = 0;
                let value = parse_value(bytes, &mut at);
                while bytes.get(at) == Some(&b' ') {
                    at += 1;
                }
                let side = parse_value(bytes, &mut at);
                let test = match named(&TESTS, api::test, name) {
                    Test::Kind(_) => Test::Kind(kind_of_code(kind).unwrap_or(Kind::King)),
                    test => test,
                };
                done(Value::Logical(node.test(test, &value, &side)? != negated))
            }
            "order" => {
                let mut items: Vec<Value> = match arg() {
                    Value::Set(items) => items.to_vec(),
                    other => vec![other],
                };
                node.order(&mut items, named(&ORDERINGS, api::ordering, name))?;
                done(Value::Set(items.into()))
            }
            _ => {
                let (a, u, i) = (arg(), arg(), arg());
                match name {
                    "setel" => done(engine::set_element(a, u, &i)?),
                    "insert" => done(engine::insert_element(a, u, &i)?),
                    "unsert" => engine::remove_element(u, &i),
                    "exchwe" => engine::exchange_element(a, u, &i),
                    _ => done(engine::exchange_elements(u, &a, &i)?),
                }
            }
        }
    }

    fn pieces(&self) -> String {
        let p = &self.now;
        let mut line: String = (0..=64u8)
            .map(|sq| match p.piece_at(sq) {
                Some(piece) if piece.colour == Colour::White => piece.kind.letter(),
                Some(piece) => piece.kind.letter().to_ascii_lowercase(),
                None => '.',
            })
            .collect();
        for colour in [Colour::White, Colour::Black] {
            for kind in KINDS {
                line.push_str(&format!(" {}", p.count(colour, kind)));
            }
        }
        line.push_str(" vars");
        for colour in [Colour::White, Colour::Black] {
            for kind in KINDS {
                line.push(' ');
                for index in 0..=kind.variable_count() {
                    match p.piece_variable(colour, kind, index) {
                        Some(piece) => line.push_str(&chess::square_name(piece.square)),
                        None => line.push_str("--"),
                    }
                }
            }
        }
        line
    }

    fn search(&mut self, depth: u32, from: u32, nodes: u64, endgame: bool) -> String {
        let (_, history) = History::game(&self.start, &self.played);
        let limits = Limits {
            depth,
            from,
            nodes: (nodes != 0).then_some(nodes),
            exact: true,
        };
        let interpreter = interpreter();
        let program: Option<&dyn engine::Endgame> = if endgame { Some(&interpreter) } else { None };
        let result = engine::search(
            &self.now,
            limits,
            program,
            &mut self.table,
            &history,
            &mut engine::Unwatched,
            &mut std::io::sink(),
        );
        match result {
            Ok(r) => {
                let best = r.best.map_or_else(|| "0000".to_string(), |m| m.to_uci());
                let mut line = format!(
                    "best {best} score {} nodes {} depth {} stopped {} pv",
                    r.score,
                    r.nodes,
                    r.depth,
                    u8::from(r.stopped)
                );
                for m in &r.pv {
                    line.push(' ');
                    line.push_str(&m.to_uci());
                }
                line
            }
            Err(error) => error.to_string(),
        }
    }
}

/// The Rust half's lines for `script`, each with the number of the
/// script line that printed it.
fn run_rust(script: &str, drift: Drift) -> Vec<(usize, String)> {
    let mut twin = Twin::new(script, drift);
    let mut out = Vec::new();
    for (i, line) in script.lines().enumerate() {
        for printed in twin.op(line).lines() {
            out.push((i, printed.to_string()));
        }
    }
    out
}

// ----------------------------------------------------------- the C half

/// Builds `tests/c/cheg_twins.c` found under `root` (the checkout, or a
/// copy laid out alike) into `dir`: one `cc`, warnings as errors, and
/// every index of an array of known size checked (UBSan's `bounds`,
/// which ends the driver: a read past a table shows even where the value
/// read happens not to matter).
fn build_driver(root: &Path, dir: &Path) -> Result<PathBuf, String> {
    let generated = program().emit_c(&format!("{PROGRAM}.cheg"));
    let part = generated
        .split_once("/* ---- the endgame program ---- */")
        .and_then(|(_, rest)| rest.split_once("\nint main("))
        .map(|(part, _)| part)
        .expect("generated C has its program after its runtime, then main");
    let included = dir.join("program.inc");
    std::fs::write(&included, part).unwrap();
    let define = format!("-DTWINS_PROGRAM=\"{}\"", included.display());
    twins::build_driver(root, "tests/c/cheg_twins.c", dir, &[define])
}

/// How long the C driver may take on one script (a few milliseconds
/// unless a C change loops).
const C_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// An `info` line without its `time` and `nps` fields (the clock's).
fn masked(line: &str) -> String {
    if !line.starts_with("info ") {
        return line.to_string();
    }
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if (words[i] == "time" || words[i] == "nps") && i + 1 < words.len() {
            i += 2;
        } else {
            out.push(words[i]);
            i += 1;
        }
    }
    out.join(" ")
}

/// Runs `script` through both halves: the first difference, if any,
/// `info` lines compared without their clock fields, and shown after the
/// UCI lines of the session before it (a session's state is theirs).
fn compare(exe: &Path, script: &str, drift: Drift) -> Option<String> {
    let c = twins::run_driver(exe, &[], script, Ending::Clean, C_TIMEOUT);
    let shown = |ops: &[&str], at: usize| -> String {
        let session: Vec<String> = ops[..at]
            .iter()
            .filter_map(|op| op.strip_prefix("uci "))
            .map(|hex| format!("    {}", String::from_utf8_lossy(&unhex(hex))))
            .collect();
        let op = twins::line_as_is(ops, at);
        if session.is_empty() {
            op
        } else {
            format!("{op}\n  after the session's lines:\n{}", session.join("\n"))
        }
    };
    twins::first_difference(script, &run_rust(script, drift), &c, masked, shown)
}

// ------------------------------------------------------- the generator

/// Positions the walks start from: the start, Kiwipete and the other
/// perft positions (castling, en passant, pins, promotions), endgames
/// with promotions and en passant at hand.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "r3k3/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQq d6 0 30",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/8/4k3/8/8/3p4/5K2 b - - 3 60",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/8/8/3K4/8/4P3/6k1 w - - 0 1",
    "8/8/8/8/8/4k3/4P3/4K3 b - - 0 1",
    "8/p7/8/8/8/8/8/K1k5 w - - 0 1",
    // Mated, stalemated, mates in one and two.
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "r5k1/5ppp/8/8/8/8/5PPP/1R4K1 b - - 0 1",
    "7k/8/5KQ1/8/8/8/8/8 w - - 18446744073709551615 18446744073709551615",
];

/// Code points around the edges of UTF-8's forms and of the decoder's
/// tables (U+F000–U+FFFF included), and white space.
const CODE_POINTS: &[(u32, u32)] = &[
    (0x00, 0x7f),
    (0x80, 0x7ff),
    (0x800, 0xfff),
    (0x1000, 0xcfff),
    (0xd000, 0xd7ff),
    (0xe000, 0xefff),
    (0xf000, 0xffff),
    (0x10000, 0x3ffff),
    (0x40000, 0xfffff),
    (0x100000, 0x10ffff),
];

/// The first and last code points of each of UTF-8's forms and of the
/// decoder's tables.
const EDGES: &[u32] = &[
    0x00, 0x7f, 0x80, 0x7ff, 0x800, 0xcfff, 0xd7ff, 0xe000, 0xefff, 0xf000, 0xfffd, 0xfffe, 0xffff,
    0x10000, 0x3ffff, 0x40000, 0xfffff, 0x100000, 0x10ffff,
];

const SPACES: &[char] = &[
    ' ', '\t', '\u{b}', '\u{c}', '\r', '\u{85}', '\u{a0}', '\u{1680}', '\u{2000}', '\u{200a}',
    '\u{2028}', '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}',
];

struct Gen<'r> {
    rng: &'r mut Rng,
    /// The position the script is at (the generator's own copy, to pick
    /// legal moves), and the positions before.
    now: Position,
    before: Vec<Position>,
    out: String,
}

impl Gen<'_> {
    fn push(&mut self, line: &str) {
        self.out.push_str(line);
        self.out.push('\n');
    }

    /// Bytes that are mostly UTF-8 of the interesting ranges, with
    /// truncated, overlong, surrogate and stray bytes among them.
    fn bytes(&mut self, spaces: bool) -> Vec<u8> {
        let mut out = Vec::new();
        for _ in 0..self.rng.range(0, 8) {
            match self.rng.below(12) {
                0..=1 => {
                    // A code point at an edge of UTF-8's forms.
                    let c = char::from_u32(*self.rng.pick(EDGES)).unwrap();
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                2..=5 => {
                    let &(lo, hi) = self.rng.pick(CODE_POINTS);
                    let c = char::from_u32(self.rng.range(i64::from(lo), i64::from(hi)) as u32)
                        .unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                6 | 7 if spaces => {
                    let c = *self.rng.pick(SPACES);
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                7 | 9 => {
                    // A valid sequence cut short.
                    let &(lo, hi) = self.rng.pick(&CODE_POINTS[1..]);
                    let c = char::from_u32(self.rng.range(i64::from(lo), i64::from(hi)) as u32)
                        .unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    let bytes = c.encode_utf8(&mut buf).as_bytes();
                    let keep = self.rng.range(1, bytes.len() as i64 - 1) as usize;
                    out.extend_from_slice(&bytes[..keep.max(1)]);
                }
                8 => out.extend_from_slice(self.rng.pick::<&[u8]>(&[
                    &[0xc0, 0x80],
                    &[0xc1, 0xbf],
                    &[0xe0, 0x80, 0x80],
                    &[0xe0, 0x9f, 0xbf],
                    &[0xed, 0xa0, 0x80],
                    &[0xed, 0xbf, 0xbf],
                    &[0xf0, 0x80, 0x80, 0x80],
                    &[0xf0, 0x8f, 0xbf, 0xbf],
                    &[0xf4, 0x90, 0x80, 0x80],
                    &[0xf5, 0x80, 0x80, 0x80],
                    &[0xff],
                    &[0xfe],
                    &[0x80],
                    &[0xbf, 0xbf],
                    &[0xef, 0xbf],
                    &[0xef, 0xbf, 0xbf],
                    &[0xef, 0x80, 0x80],
                    &[0x00],
                    &[0x7f],
                    &[0xc2, 0x80],
                    &[0xc2, 0x85],
                    &[0xc2, 0x9f],
                    &[0xc2, 0xa0],
                ])),
                _ => out.push(self.rng.below(256) as u8),
            }
        }
        out
    }

    /// Text for `parse` and `make`: legal moves, their promotions in every
    /// spelling, squares that are not moves, garbage. Never white space:
    /// the runtimes' callers pass words (`Position::parse_move` trims, C's
    /// `icp_parse_move` does not: see docs/architecture.md).
    fn move_text(&mut self) -> String {
        let moves = self.now.legal_moves();
        let squares = |rng: &mut Rng| {
            let f = |rng: &mut Rng| char::from(b'a' + rng.below(8) as u8);
            let r = |rng: &mut Rng| char::from(b'1' + rng.below(8) as u8);
            format!("{}{}{}{}", f(rng), r(rng), f(rng), r(rng))
        };
        match self.rng.below(10) {
            0..=3 if !moves.is_empty() => {
                let mv = *self.rng.pick(&moves);
                let text = mv.to_uci();
                match (mv.promotion, self.rng.below(4)) {
                    (Some(_), 0) => text.to_ascii_uppercase()[..4].to_string() + &text[4..],
                    (Some(_), 1) => text[..4].to_string() + &text[4..].to_ascii_uppercase(),
                    (Some(_), 2) => text[..4].to_string(),
                    _ => text,
                }
            }
            4 => {
                // A pawn to the last rank, with any letter or none.
                let text = squares(self.rng);
                let letter = self.rng.word(&[
                    "", "q", "r", "b", "n", "Q", "R", "B", "N", "k", "p", "x", "qq",
                ]);
                text + letter
            }
            5 => squares(self.rng),
            6 => squares(self.rng) + self.rng.word(&["q", "N", "1", "é", "\u{1}"]),
            7 => self
                .rng
                .word(&[
                    "",
                    "e2",
                    "e2e",
                    "0000",
                    "i9j9",
                    "e2e4e",
                    "é2e4",
                    "e2é4",
                    "a1h8q",
                    "h7h8\u{ff}",
                ])
                .to_string(),
            _ => {
                let len = self.rng.below(7);
                (0..len)
                    .map(|_| char::from(self.rng.range(0x21, 0x7e) as u8))
                    .collect()
            }
        }
    }

    /// A value of the script's syntax, and its text in that syntax.
    fn value(&mut self, depth: u32) -> String {
        let square = |rng: &mut Rng| chess::square_name(rng.below(64) as u8);
        let piece = |rng: &mut Rng| {
            let letter = *rng.pick(&['K', 'Q', 'R', 'B', 'N', 'P']);
            let letter = if rng.chance(50) {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            format!("{letter}{}", square(rng))
        };
        match self.rng.below(if depth < 2 { 8 } else { 7 }) {
            0 => "#".into(),
            1 => self.rng.word(&["T", "F"]).into(),
            2 => self.rng.pick(support::progen::EDGES).to_string(),
            3 => self.rng.range(-3, 3).to_string(),
            4 => square(self.rng),
            5 => piece(self.rng),
            6 => {
                let promotion = self.rng.word(&["", "", "q", "r", "b", "n"]);
                format!("M{}{}{promotion}", piece(self.rng), square(self.rng))
            }
            _ => {
                let items: Vec<String> = (0..self.rng.below(4))
                    .map(|_| self.value(depth + 1))
                    .collect();
                format!("({})", items.join(","))
            }
        }
    }

    /// The value of legal move `m` here, in the script's syntax.
    fn move_value(&self, m: Move) -> String {
        let letter = self.now.piece_at(m.from).map_or('P', |p| match p.colour {
            Colour::White => p.kind.letter(),
            Colour::Black => p.kind.letter().to_ascii_lowercase(),
        });
        let promotion = m.promotion.map_or(String::new(), |k| {
            k.letter().to_ascii_lowercase().to_string()
        });
        format!(
            "M{letter}{}{}{promotion}",
            chess::square_name(m.from),
            chess::square_name(m.to)
        )
    }

    /// `a` changed in one place: a value equal to it but for one part
    /// (a rank or a digit, a piece's colour, a logical), still of the
    /// script's syntax. Also used on FENs.
    fn changed(&mut self, a: &str) -> String {
        let mut bytes = a.as_bytes().to_vec();
        let token_start = |i: usize| i == 0 || matches!(bytes[i - 1], b'M' | b',' | b'(' | b' ');
        let candidates: Vec<usize> = (0..bytes.len())
            .filter(|&i| {
                bytes[i].is_ascii_digit()
                    || (token_start(i) && b"KQRBNPkqrbnpTF".contains(&bytes[i]))
            })
            .collect();
        if let Some(&i) = candidates.get(self.rng.below(candidates.len().max(1))) {
            bytes[i] = match bytes[i] {
                b'0'..=b'7' => bytes[i] + 1,
                b'8' | b'9' => bytes[i] - 1,
                b'T' => b'F',
                b'F' => b'T',
                c if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
                c => c.to_ascii_uppercase(),
            };
        }
        String::from_utf8(bytes).unwrap()
    }

    /// A value as the instructions meet them at the position now: its
    /// pieces, squares and legal moves, small integers, sets of them, and
    /// values of every type.
    fn operand(&mut self, moves: &[Move]) -> String {
        match self.rng.below(10) {
            0 | 1 => self.value(0),
            2 => {
                let occupied: Vec<u8> = (0..64)
                    .filter(|&s| self.now.piece_at(s).is_some())
                    .collect();
                let sq = *self.rng.pick(&occupied);
                let p = self.now.piece_at(sq).unwrap();
                let letter = match p.colour {
                    Colour::White => p.kind.letter(),
                    Colour::Black => p.kind.letter().to_ascii_lowercase(),
                };
                format!("{letter}{}", chess::square_name(sq))
            }
            3 | 4 if !moves.is_empty() => {
                let m = *self.rng.pick(moves);
                self.move_value(m)
            }
            5 => chess::square_name(self.rng.below(64) as u8),
            6 => self.rng.range(-3, 9).to_string(),
            7 if !moves.is_empty() => {
                let items: Vec<String> = (0..self.rng.below(5))
                    .map(|_| {
                        let m = *self.rng.pick(moves);
                        self.move_value(m)
                    })
                    .collect();
                format!("({})", items.join(","))
            }
            8 => self.rng.word(&["T", "F", "#"]).into(),
            _ => {
                let items: Vec<String> = (0..self.rng.below(5))
                    .map(|_| self.rng.range(-2, 4).to_string())
                    .collect();
                format!("({})", items.join(","))
            }
        }
    }

    /// A piece of the position now, of `kind` when there is one.
    fn board_piece(&mut self, kind: Option<Kind>) -> String {
        let all: Vec<Piece> = (0..64).filter_map(|s| self.now.piece_at(s)).collect();
        let fitting: Vec<Piece> = all
            .iter()
            .copied()
            .filter(|p| Some(p.kind) == kind)
            .collect();
        let p = *self
            .rng
            .pick(if fitting.is_empty() { &all } else { &fitting });
        let letter = match p.colour {
            Colour::White => p.kind.letter(),
            Colour::Black => p.kind.letter().to_ascii_lowercase(),
        };
        format!("{letter}{}", chess::square_name(p.square))
    }

    /// An operand of the type `want` stands for (mostly; else any):
    /// `I` integer, `L` logical, `S` set, `Q` square (or what becomes one),
    /// `P` piece (or a square or move that names one), `K` king, `W` pawn,
    /// `M` move, `A` anything.
    fn typed(&mut self, want: char, moves: &[Move]) -> String {
        if self.rng.chance(8) {
            return self.operand(moves);
        }
        match want {
            'I' if self.rng.chance(20) => self.rng.pick(support::progen::EDGES).to_string(),
            'I' => self.rng.range(-3, 9).to_string(),
            'L' => self.rng.word(&["T", "F"]).into(),
            'S' => {
                let moves_set = !moves.is_empty() && self.rng.chance(50);
                let items: Vec<String> = (0..self.rng.below(5))
                    .map(|_| {
                        if moves_set {
                            let m = *self.rng.pick(moves);
                            self.move_value(m)
                        } else {
                            self.rng.range(0, 3).to_string()
                        }
                    })
                    .collect();
                format!("({})", items.join(","))
            }
            'Q' | 'P' | 'M' if self.rng.chance(30) && !moves.is_empty() => {
                let m = *self.rng.pick(moves);
                self.move_value(m)
            }
            'Q' if self.rng.chance(60) => chess::square_name(self.rng.below(64) as u8),
            'Q' | 'P' => self.board_piece(None),
            'K' => self.board_piece(Some(Kind::King)),
            'W' => self.board_piece(Some(Kind::Pawn)),
            _ => self.operand(moves),
        }
    }

    /// An instruction, a comparison, a condition or an ordering, on
    /// operands of the position now, mostly of the types it wants.
    fn instruction(&mut self, moves: &[Move]) {
        let line = match self.rng.below(7) {
            0 | 1 => {
                let op = *self.rng.pick(&BINARY);
                let want: Vec<char> = match op {
                    Binary::SetSq | Binary::GetEl if self.rng.chance(50) => vec!['I', 'I'],
                    Binary::SetSq => vec!['I', 'I'],
                    Binary::SetMov => vec!['P', 'Q'],
                    Binary::Pair => vec!['A', 'A'],
                    Binary::Member | Binary::MemNum => vec!['A', 'S'],
                    Binary::Inters | Binary::Differ | Binary::Union => vec!['S', 'S'],
                    Binary::Append => vec!['S', 'A'],
                    Binary::GetEl => vec!['S', 'I'],
                    Binary::MvDist | Binary::Opp => vec!['Q', 'Q'],
                    Binary::InSq => vec!['K', 'W'],
                    Binary::SqRank => vec!['Q', 'I'],
                    Binary::Nor | Binary::And | Binary::Or => vec!['L', 'L'],
                    _ => vec!['I', 'I'],
                };
                let (a, b) = (self.typed(want[0], moves), self.typed(want[1], moves));
                format!("bin {} {a} {b}", api::binary(op).c)
            }
            2 => {
                let op = *self.rng.pick(&UNARY);
                let want = match op {
                    Unary::SetV => 'A',
                    Unary::Card => 'S',
                    Unary::Piece | Unary::PColor => 'P',
                    Unary::Abs => 'I',
                    _ => 'Q',
                };
                format!("un {} {}", api::unary(op).c, self.typed(want, moves))
            }
            3 => {
                let op = *self.rng.pick(&COMPARE);
                let want = if matches!(op, Compare::Eq | Compare::Ne) {
                    'A'
                } else {
                    'I'
                };
                let a = self.typed(want, moves);
                let b = if self.rng.chance(30) {
                    a.clone()
                } else {
                    self.typed(want, moves)
                };
                format!("cmp {} {a} {b}", api::compare(op).c)
            }
            4 => {
                let test = *self.rng.pick(&TESTS);
                let want = match test {
                    Test::Defd => 'A',
                    Test::Zero | Test::Negative | Test::Positive | Test::Odd => 'I',
                    Test::True => 'L',
                    Test::Empty => 'S',
                    Test::Kind(_) | Test::MoverPiece => 'P',
                    Test::Passed | Test::PawnDefended => 'W',
                    Test::Capture | Test::Check | Test::Safe | Test::Opposition => 'M',
                    Test::KeepsKingRank => 'M',
                    _ => 'Q',
                };
                let test = api::test(test).c;
                let (negated, kind) = (self.rng.below(2), self.rng.range(1, 6));
                let value = self.typed(want, moves);
                let side = if self.rng.chance(70) {
                    self.rng.range(-1, 2).to_string()
                } else {
                    self.operand(moves)
                };
                format!("test {test} {negated} {kind} {value} {side}")
            }
            5 => {
                let ordering = api::ordering(*self.rng.pick(&ORDERINGS)).c;
                let items: Vec<String> = (0..self.rng.below(6))
                    .map(|_| match moves.get(self.rng.below(moves.len().max(1))) {
                        Some(&m) if self.rng.chance(90) => self.move_value(m),
                        _ => self.operand(moves),
                    })
                    .collect();
                format!("order {ordering} ({})", items.join(","))
            }
            _ => {
                let what = self
                    .rng
                    .word(&["setel", "insert", "unsert", "exchwe", "exchel"]);
                let a = if what == "exchel" && self.rng.chance(85) {
                    self.rng.range(-5, 6).to_string()
                } else {
                    self.operand(moves)
                };
                let u = if self.rng.chance(85) {
                    let items: Vec<String> = (0..self.rng.below(5))
                        .map(|_| self.operand(moves))
                        .collect();
                    format!("({})", items.join(","))
                } else {
                    self.operand(moves)
                };
                let i = if self.rng.chance(85) {
                    self.rng.range(-5, 6).to_string()
                } else {
                    self.operand(moves)
                };
                format!("edit {what} {a} {u} {i}")
            }
        };
        self.push(&line);
    }

    /// A number for a UCI command's `what`: small ones, and the edges of
    /// each range the engine checks (depth 1–20, perft 0–64, Hash 0–1024,
    /// u32, u64), less the valid ones that would search or count for long
    /// (a depth of 20, a perft of 20 to 64, tables of many megabytes, node
    /// limits that leave a search to depth 20).
    fn number(&mut self, what: &str) -> String {
        let mut edges = vec![
            "0",
            "1",
            "2",
            "01",
            "+1",
            "-1",
            "x",
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
        ];
        match what {
            // A count saturates: no node limit, a search to depth 20.
            "nodes" => edges.retain(|e| e.len() < 3),
            "depth" | "Depth" => edges.push("21"),
            "perft" => edges.push("65"),
            "Hash" => edges.push("1025"),
            _ => edges.extend(["20", "21", "64", "65", "1024", "1025"]),
        }
        self.rng.word(&edges).to_string()
    }

    fn uci_line(&mut self) -> Vec<u8> {
        let fen = self.now.to_fen();
        let moves: Vec<String> = self
            .now
            .legal_moves()
            .iter()
            .take(2)
            .map(|m| m.to_uci())
            .collect();
        let line = match self.rng.below(24) {
            0 => "uci".to_string(),
            1 => "isready".into(),
            2 => "d".into(),
            3 => "ucinewgame".into(),
            4 => "position startpos".into(),
            5 => "position startpos moves e2e4 e7e5 g1f3 b8c6".into(),
            6 => format!("position fen {fen}"),
            7 => format!(
                "position fen {fen} moves {}",
                moves.first().cloned().unwrap_or_default()
            ),
            8 => format!("position fen {} moves", self.changed(&fen)),
            9 => "position startpos moves e2e5".into(),
            10 => format!("go depth {}", self.rng.range(1, 2)),
            11 => format!("go perft {}", self.rng.range(0, 2)),
            12 => format!("go nodes {}", self.rng.range(0, 300)),
            13 => format!("go depth 3 nodes {}", self.rng.range(1, 400)),
            14 => self
                .rng
                .word(&[
                    "go depth 0",
                    "go depth 21",
                    "go perft 65",
                    "go perft -1",
                    "go nodes x",
                    "go wtime abc",
                    "go movetime",
                    "go mate 3 depth 1",
                    "go searchmoves e2e4 depth 1",
                ])
                .into(),
            15 => {
                let name = self.rng.word(&["Depth", "Hash", "Threads"]);
                format!("setoption name {name} value {}", self.number(name))
            }
            16 => format!("setoption name Hash value {}", self.rng.range(0, 2)),
            17 => format!(
                "setoption name {} value {}",
                self.rng
                    .word(&["Endgame", "endgame", "Ponder", "Threads", "Bogus"]),
                self.rng.word(&["true", "FALSE", "1", "maybe"])
            ),
            18 => self
                .rng
                .word(&[
                    "setoption name Depth",
                    "setoption",
                    "d extra",
                    "stop",
                    "debug on",
                    "ponderhit",
                ])
                .into(),
            19 => "go".into(),
            21 => {
                let what = self
                    .rng
                    .word(&["depth", "perft", "nodes", "movestogo", "mate"]);
                format!("go {what} {}", self.number(what))
            }
            20 => "position fen 4k3/8/8 w".into(),
            _ => return self.bytes(true),
        };
        // A depth above 20 searches depth 20 (§7.5), which takes minutes
        // here (nothing stops a search): such a `go` has a node limit too.
        let deep = line.starts_with("go ")
            && line
                .split_whitespace()
                .skip_while(|w| *w != "depth")
                .nth(1)
                .is_some_and(|d| {
                    d.parse::<u64>()
                        .map_or(d.len() > 2 && d.bytes().all(|b| b.is_ascii_digit()), |d| {
                            d > 4
                        })
                });
        // So does `go mate M` for M above 2 (depth 2M − 1, §7.5).
        let mate = line.starts_with("go ") && line.split_whitespace().any(|w| w == "mate");
        if (deep || mate) && !line.contains("nodes") {
            return format!("{line} nodes 300").into_bytes();
        }
        line.into_bytes()
    }

    /// One operation (several for the walks).
    fn op(&mut self, depth_limit: i64) {
        let moves = self.now.legal_moves();
        match self.rng.below(44) {
            0..=9 if !moves.is_empty() => {
                // A step of the walk, in any spelling.
                let mv = *self.rng.pick(&moves);
                let text = match (mv.promotion, self.rng.below(3)) {
                    (Some(_), 0) => mv.to_uci().to_ascii_uppercase(),
                    _ => mv.to_uci(),
                };
                self.push(&format!("make {text}"));
                let next = self.now.play(mv);
                self.before.push(std::mem::replace(&mut self.now, next));
            }
            10 | 11 => {
                self.push("unmake");
                if let Some(p) = self.before.pop() {
                    self.now = p;
                }
            }
            12 => {
                let text = self.move_text();
                self.push(&format!("make {text}"));
                if let Some(mv) = self.now.parse_move(&text) {
                    let next = self.now.play(mv);
                    self.before.push(std::mem::replace(&mut self.now, next));
                }
            }
            13 | 14 => {
                let text = self.move_text();
                self.push(&format!("parse {text}"));
            }
            15 => {
                let op = self.rng.word(&[
                    "fen?", "moves", "gen", "count", "check", "key", "same", "pieces", "eval",
                    "nodevars",
                ]);
                self.push(op);
            }
            16 => {
                let depth = self.rng.range(0, depth_limit);
                self.push(&format!("perft {depth}"));
            }
            17 | 18 => {
                let (from, to, promotion) = match moves.get(self.rng.below(moves.len().max(1))) {
                    Some(m) if self.rng.chance(60) => {
                        (m.from, m.to, m.promotion.map_or(0, kind_code) as i64)
                    }
                    _ => (
                        if self.rng.chance(90) {
                            self.rng.below(64) as u8
                        } else {
                            self.rng.range(64, 255) as u8
                        },
                        if self.rng.chance(90) {
                            self.rng.below(64) as u8
                        } else {
                            self.rng.below(256) as u8
                        },
                        *self.rng.pick(&[0, 0, 0, 1, 2, 3, 4, 5, 6]),
                    ),
                };
                self.push(&format!("raw {from} {to} {promotion}"));
            }
            19 => {
                let depth = self.rng.range(1, depth_limit.min(3));
                let from = if self.rng.chance(50) { 1 } else { depth };
                let nodes = if self.rng.chance(30) {
                    self.rng.range(1, 600)
                } else {
                    0
                };
                let endgame = self.rng.below(2);
                self.push(&format!("search {depth} {from} {nodes} {endgame}"));
            }
            20 | 35 => {
                // Values of every type, and moves of the side to move as a
                // program makes them (the piece as it stands).
                let make = |g: &mut Self| match moves.get(g.rng.below(moves.len().max(1))) {
                    Some(&m) if g.rng.chance(50) => g.move_value(m),
                    _ => g.value(0),
                };
                let a = make(self);
                let b = match self.rng.below(3) {
                    0 => a.clone(),
                    1 => self.changed(&a),
                    _ => make(self),
                };
                self.push(&format!("val {a} {b}"));
            }
            21 => {
                let n = |rng: &mut Rng| match rng.below(4) {
                    0 => *rng.pick(support::progen::EDGES),
                    1 => rng.range(-600, 600),
                    // The edges of the certainty and of the clamp.
                    2 => *rng.pick(&[499, 500, 501, -500, -501, 0]),
                    _ => rng.range(-2, 2),
                };
                let (w, l, c, d) = (n(self.rng), n(self.rng), n(self.rng), self.rng.range(0, 30));
                self.push(&format!("convert {w} {l} {c} {d}"));
            }
            22 => {
                let (a, b) = (self.rng.below(64), self.rng.below(64));
                self.push(&format!("squares {a} {b}"));
            }
            23 | 40 => {
                let v = match self.rng.below(3) {
                    0 => *self.rng.pick(support::progen::EDGES),
                    1 => {
                        // The edges of the mate scores.
                        let edge = *self.rng.pick(&[28415, 28416, 28417, 28671, 28672, 28673]);
                        edge * if self.rng.chance(50) { 1 } else { -1 }
                    }
                    _ => self.rng.range(-2000, 2000),
                };
                self.push(&format!("score {v}"));
            }
            24..=26 => {
                let bytes = self.bytes(false);
                self.push(&format!("utf8 {}", hex(&bytes)));
            }
            27 => {
                let bytes = self.bytes(true);
                self.push(&format!("words {}", hex(&bytes)));
            }
            28..=31 => {
                let line = self.uci_line();
                self.push(&format!("uci {}", hex(&line)));
            }
            32 if self.rng.chance(20) => self.push("display"),
            33 | 41 => {
                // A FEN changed in one place: usually refused, the game
                // goes on (a FEN that reads starts a new one).
                let fen = self.now.to_fen();
                let bad = match self.rng.below(5) {
                    0 => self.changed(&fen),
                    1 => {
                        let mut f = fen.clone();
                        let at = self.rng.below(f.len());
                        // Also white space and control characters of
                        // Unicode (a FEN's error shows these as `?`).
                        let c = if self.rng.chance(50) {
                            *self
                                .rng
                                .pick(&['\u{1}', '\t', '\u{7f}', '\u{80}', '\u{9f}'])
                        } else {
                            *self.rng.pick(&[
                                '9', '0', 'x', '/', ' ', 'é', '\u{3000}', '\u{85}', '\u{a0}', '-',
                                '+', 'K', 'k', '\u{ff}',
                            ])
                        };
                        if f.is_char_boundary(at) {
                            f.insert(at, c);
                        }
                        f
                    }
                    2 => fen
                        .split(' ')
                        .take(self.rng.range(1, 7) as usize)
                        .collect::<Vec<_>>()
                        .join(" "),
                    3 => {
                        // The counters at their edges.
                        let fields: Vec<&str> = fen.split(' ').take(4).collect();
                        let counters = [
                            "0",
                            "+7",
                            "007",
                            "18446744073709551615",
                            "18446744073709551614",
                            "18446744073709551616",
                            "99999999999999999999",
                            "-1",
                        ];
                        let (h, f) = (self.rng.word(&counters), self.rng.word(&counters));
                        format!("{} {h} {f}", fields.join(" "))
                    }
                    _ => format!(
                        "{fen} {}",
                        self.rng.word(&["1", "x", "18446744073709551616", "+3"])
                    ),
                };
                self.push(&format!("fen {bad}"));
                if let Ok(p) = Position::from_fen(&bad) {
                    self.now = p;
                    self.before.clear();
                }
            }
            34 => {
                let megabytes = self.rng.range(0, 2);
                self.push(&format!("hash {megabytes}"));
            }
            36..=39 => self.instruction(&moves),
            _ => {
                let op = self.rng.word(&["moves", "key", "check", "same", "count"]);
                self.push(op);
            }
        }
    }
}

/// The script of `seed`: a few walks from the positions above, each
/// with operations between its moves.
fn script(seed: u64, length: usize) -> String {
    let mut rng = Rng(seed);
    let fen = *rng.pick(FENS);
    let mut g = Gen {
        now: Position::from_fen(fen).unwrap(),
        before: Vec::new(),
        rng: &mut rng,
        out: String::new(),
    };
    g.push(&format!("fen {fen}"));
    // Perft of depth 3 only in the endgames: the Rust half runs
    // unoptimised.
    let depth_limit = if g.now.count_legal() > 12 || fen.starts_with("rn") {
        2
    } else {
        3
    };
    for _ in 0..length {
        g.op(depth_limit);
        if g.rng.chance(3) {
            let fen = *g.rng.pick(FENS);
            g.push(&format!("fen {fen}"));
            g.now = Position::from_fen(fen).unwrap();
            g.before.clear();
        }
    }
    g.out
}

// ---------------------------------------------------------------- tests

/// Scripts compared on each run: seeds `SEED..SEED + SCRIPTS`.
/// `ICP2C_CHEG_TWINS=N` compares N scripts instead.
const SEED: u64 = 0x7715_2024;
const SCRIPTS: u64 = 24;
const LENGTH: usize = 80;

#[test]
fn cheg_c_and_rust_runtimes_agree_function_by_function() {
    let dir = tempfile::tempdir().unwrap();
    let exe = build_driver(&support::root(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
    twins::agree(
        ("CHEG", "tests/it/cheg_twins.rs", "ICP2C_CHEG_TWINS"),
        (SEED, SCRIPTS),
        |seed| script(seed, LENGTH),
        |script| compare(&exe, script, Drift::None),
    );
}

/// A script that reaches promotions by every spelling, the equality of
/// move values and the decoder's U+F000–U+FFFF.
const KNOWN: &str = "fen 4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1
parse b7b8q
parse b7b8N
parse b7b8
make b7b8r
parse g2g1b
val MKe1e2 MKe1e2
val MPb7b8q MPb7b8q
val (MPb7b8q,1) (MPb7b8q,1)
utf8 efbfbf41ef8080
moves
";

#[test]
fn the_checker_sees_a_c_mutant_and_a_rust_drift() {
    let root = support::root();
    let dir = tempfile::tempdir().unwrap();
    let exe = build_driver(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(compare(&exe, KNOWN, Drift::None), None);
    // The Rust half drifting: a promotion letter ignored.
    let drift = compare(&exe, KNOWN, Drift::PromotionIgnored).expect("a drift is seen");
    assert!(drift.contains("parse b7b8"), "{drift}");
    // The C runtime drifting: two moves of one colour never equal.
    let patched = patched_copy(
        &root,
        dir.path(),
        "engine/values.c",
        "return a->as.move.piece.colour == b->as.move.piece.colour &&",
        "return a->as.move.piece.colour != b->as.move.piece.colour &&",
    );
    let mutant_dir = dir.path().join("mutant");
    std::fs::create_dir_all(&mutant_dir).unwrap();
    let mutant = build_driver(&patched, &mutant_dir).unwrap_or_else(|e| panic!("{e}"));
    let seen = compare(&mutant, KNOWN, Drift::None).expect("the mutant is seen");
    assert!(seen.contains("val MKe1e2"), "{seen}");
}

/// A copy of the C driver and the C runtime under `dir/copy`, laid out as
/// in the checkout, with `from` replaced by `to` (exactly once) in the
/// runtime file `file` (one of [`C_RUNTIME`]).
fn patched_copy(root: &Path, dir: &Path, file: &str, from: &str, to: &str) -> PathBuf {
    let driver = "tests/c/cheg_twins.c";
    twins::patched_copy(root, dir, driver, RUNTIME_DIR, C_RUNTIME, (file, from, to))
}

/// Where the C runtime's files are.
const RUNTIME_DIR: &str = "src/lang/cheg/runtime";

/// The C runtime's files under [`RUNTIME_DIR`], as the driver includes
/// them.
const C_RUNTIME: &[&str] = &[
    "chess.c",
    "chess/board.c",
    "chess/position.c",
    "engine.c",
    "engine/values.c",
    "engine/node.c",
    "engine/instructions.c",
    "engine/program.c",
    "engine/history.c",
    "engine/search.c",
    "uci.c",
];

/// One-line mutants of the C runtime, each of which the random scripts
/// must see, as (file, text as it is, text mutated): those that `cargo
/// test` once let through, then edges the generator must reach.
const MUTANTS: &[(&str, &str, &str)] = &[
    // A UCI promotion letter read from the terminating NUL: every UCI
    // promotion refused.
    (
        "chess/position.c",
        "switch (text[4]) {",
        "switch (text[5]) {",
    ),
    // Two moves of one colour never equal.
    (
        "engine/values.c",
        "return a->as.move.piece.colour == b->as.move.piece.colour &&",
        "return a->as.move.piece.colour != b->as.move.piece.colour &&",
    ),
    // U+FFFF encoded in four bytes (found by tests/mutants.py).
    (
        "uci.c",
        "} else if (c < 0x10000) {",
        "} else if (c < 0xffff) {",
    ),
    // U+F000–U+FFFF decoded as invalid UTF-8.
    (
        "uci.c",
        "} else if (b >= 0xE0 && b <= 0xEF) {",
        "} else if (b >= 0xE0 && b <= 0xEE) {",
    ),
    // Past the knight table: the attack tables, and the test of a
    // knight's check (`checkers`, the UCI `d`).
    (
        "chess/board.c",
        "icp_step_table(icp_knight_attacks, icp_knight_steps, 8);",
        "icp_step_table(icp_knight_attacks, icp_knight_steps, 9);",
    ),
    (
        "chess/position.c",
        "case ICP_KNIGHT:\n        for (i = 0; i < 8; i++)",
        "case ICP_KNIGHT:\n        for (i = 0; i <= 8; i++)",
    ),
    // Edges the generator must reach: the certainty of a value, a FEN
    // counter's overflow and saturation, a set index, a mate's value, the
    // root's window, a space of Unicode, a mate's score, control
    // characters shown as '?'.
    ("engine/node.c", "    if (c < 500) {", "    if (c <= 500) {"),
    (
        "chess/position.c",
        "        if (v > (UINT64_MAX - d) / 10)",
        "        if (v >= (UINT64_MAX - d) / 10)",
    ),
    (
        "chess/position.c",
        "p->halfmove == UINT64_MAX ? UINT64_MAX",
        "p->halfmove == UINT64_MAX ? 0",
    ),
    (
        "engine/node.c",
        "    if (i > 0 && i <= limit)",
        "    if (i > 0 && i < limit)",
    ),
    (
        "engine/program.c",
        "return icp_in_check(position) ? -(ICP_MATE - depth) : 0;",
        "return icp_in_check(position) ? -(ICP_MATE - depth - 1) : 0;",
    ),
    (
        "engine/search.c",
        "alpha = best_value == INT64_MIN ? INT64_MIN : best_value - 1;",
        "alpha = best_value == INT64_MIN ? INT64_MIN : best_value;",
    ),
    ("uci.c", "c == 0x20 || c == 0x85 ||", "c == 0x20 ||"),
    (
        "uci.c",
        "    if (magnitude > 28416 && magnitude <= 28672) {",
        "    if (magnitude > 28416 && magnitude < 28672) {",
    ),
    (
        "uci.c",
        "return c < 0x20 || (c >= 0x7F && c <= 0x9F);",
        "return c < 0x20 || (c > 0x7F && c <= 0x9F);",
    ),
];

/// Each of [`MUTANTS`] built into the driver and compared on the random
/// scripts of the quick test until a difference shows (one build each:
/// run by .ci/run).
#[test]
#[ignore = "builds the C driver once per mutant (about 3 s each)"]
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
