//! What `icp2c run --trace` and `--board` show of a Finvara run (issue
//! 14), on the error stream:
//!
//! - `--trace`: one line per move executed (a move skipped by §5.1 is not
//!   executed): its source text, then `valid` or `invalid` (with `, skips
//!   the next move` when both stacks' tops are non-zero), the pieces it
//!   took (`takes rB c3`), a promotion (`becomes qW`), a piece lost in a
//!   hole (`falls into a hole`),
//!   and both stacks' tops (`stacks W [3 4] B []`, bottom to top, the last
//!   [`STACK_SHOWN`] numbers); a `checks turn` says whether it put a piece
//!   down (`places pW on b2`, `b5 holds nW: places nothing`, `b3 is a
//!   hole: places nothing`); a last line says how the run ended (`end:
//!   Black has lost: its royal pieces are all attacked (§5.4)`, `end: the
//!   moves ran out (§5)`);
//! - `--board`: the grid as the program draws it (§3: `+--+` rules, `##`
//!   holes, a symbol and `W` or `B` for a piece; rows named by letters,
//!   the highest on top; columns numbered below), then both stacks.
//!
//! [`record`] runs the same watch with no stream, keeping each move's
//! trace line and the squares it changed for a board view (the
//! playground's, `crate::common::watch`).
//!
//! Pieces keep the program's own symbols whatever `--glyphs` says: a
//! Finvara kind is defined by the program (§2), and `r` may well not move
//! like a rook, so a chess symbol would mislead.

use super::interp;
use super::ir::{Action, Move, Program, row_letters, square_name};
use super::runtime::board::{EMPTY, Game, HOLE};
use crate::common::watch::{self, Content, Counted, Recording, Shape, Side};
use crate::lang::RunOptions;
use std::cell::Cell;
use std::io::{BufRead, Write};
use std::rc::Rc;

/// How many numbers of each stack a line shows (its top ones).
pub const STACK_SHOWN: usize = 8;

/// Where and how to report.
pub struct Watch<'a> {
    /// The error stream.
    pub out: &'a mut dyn Write,
    /// The program (kind symbols, board size).
    pub program: &'a Program,
    /// `--trace`.
    pub trace: bool,
    /// `--board`.
    pub board: bool,
    /// Where a recorded run ([`record`]) keeps its steps; `None` for
    /// `--trace` and `--board`.
    pub record: Option<Recorder>,
}

/// What [`record`] keeps while the program runs.
pub struct Recorder {
    /// The cells after the last step, as the runtime encodes them.
    cells: Vec<i32>,
    /// The steps so far.
    steps: Vec<watch::Step>,
    /// The trace's closing line, once written.
    end: Option<String>,
    /// How many bytes of standard output the program has written.
    written: Rc<Cell<usize>>,
}

/// What a board view draws for `value`, a cell as the runtime encodes it
/// (`HOLE`, `EMPTY`, `1 + 2 * kind + colour`).
fn content(program: &Program, value: i32) -> Content {
    match value {
        HOLE => Content::Hole,
        v if v <= EMPTY => Content::Empty,
        v => Content::Piece(watch::Piece {
            side: if (v - 1) % 2 == 0 {
                Side::White
            } else {
                Side::Black
            },
            symbol: program
                .kinds
                .get(((v - 1) / 2) as usize)
                .map_or('?', |k| k.symbol),
            name: String::new(),
        }),
    }
}

/// The non-empty cells of `cells` as (row, col, value), 1-based, in
/// (row, col) order.
fn occupied(cells: &[i32], width: usize) -> Vec<(i64, i64, i32)> {
    let width = width.max(1);
    cells
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != EMPTY)
        .map(|(sq, &v)| ((sq / width + 1) as i64, (sq % width + 1) as i64, v))
        .collect()
}

/// Runs `program` as `icp2c run --trace` does with `options.max_steps`,
/// every move executed recorded for a board view: its trace line, the
/// cells it changed, both stacks' tops, the output so far.
pub fn record(program: &Program, input: &mut dyn BufRead, options: &RunOptions) -> Recording {
    let mut output = Vec::new();
    let written = Rc::new(Cell::new(0));
    let mut lines = std::io::sink();
    let recorder = Recorder::new(program, Vec::new(), written.clone());
    let mut watch = Watch::recording(program, &mut lines, recorder);
    let outcome = interp::run(
        program,
        input,
        &mut Counted {
            inner: &mut output,
            written,
        },
        options.max_steps,
        Some(&mut watch),
    );
    let (steps, end) = watch
        .record
        .take()
        .map(|r| (r.steps, r.end))
        .unwrap_or_default();
    drop(watch);
    Recording {
        shape: shape(program),
        start: start(program),
        steps,
        end,
        output,
        outcome,
    }
}

/// The shape of `program`'s board.
pub fn shape(program: &Program) -> Shape {
    Shape::Grid {
        width: program.width,
        height: program.height,
    }
}

/// What `program`'s board holds at the start: its occupied squares, in
/// (row, col) order.
pub fn start(program: &Program) -> Vec<(i64, i64, Content)> {
    occupied(&program.cells, program.width)
        .into_iter()
        .map(|(r, c, v)| (r, c, content(program, v)))
        .collect()
}

impl Recorder {
    /// A recorder of `program`'s moves after `steps`, before any move of
    /// its own, the program's output counted in `written`
    /// ([`watch::Counted`]).
    pub fn new(program: &Program, steps: Vec<watch::Step>, written: Rc<Cell<usize>>) -> Recorder {
        Recorder {
            cells: program.cells.clone(),
            steps,
            end: None,
            written,
        }
    }

    /// Exchanges the steps recorded with `steps`.
    pub fn swap_steps(&mut self, steps: &mut Vec<watch::Step>) {
        std::mem::swap(&mut self.steps, steps);
    }

    /// The trace's closing line, once written.
    pub fn end_line(&self) -> Option<String> {
        self.end.clone()
    }

    /// Records a move: `line` ran, `trace` is its trace line, `game` the
    /// game after it. Costs one step per cell of the board.
    fn step(&mut self, program: &Program, game: &Game<'_>, line: usize, trace: String) {
        let width = program.width;
        let changes = watch::diff(
            &occupied(&self.cells, width),
            &occupied(game.board(), width),
            |&v| content(program, v),
        );
        self.cells.clear();
        self.cells.extend_from_slice(game.board());
        self.steps.push(watch::Step {
            line,
            trace,
            changes,
            output: self.written.get(),
            stacks: Some([
                watch::stack_top(game.stack(0)),
                watch::stack_top(game.stack(1)),
            ]),
        });
    }
}

impl<'a> Watch<'a> {
    /// The watch `options` ask for (`--trace`, `--board`), reporting to
    /// `out`; `None` when they ask for neither.
    pub fn new(program: &'a Program, out: &'a mut dyn Write, options: &RunOptions) -> Option<Self> {
        (options.trace || options.board).then_some(Watch {
            out,
            program,
            trace: options.trace,
            board: options.board,
            record: None,
        })
    }

    /// A watch that writes its trace lines to `out` and records each move
    /// with `recorder`: a debugger's, a move at a time
    /// ([`interp::Stepper`]).
    pub fn recording(program: &'a Program, out: &'a mut dyn Write, recorder: Recorder) -> Self {
        Watch {
            out,
            program,
            trace: true,
            board: false,
            record: Some(recorder),
        }
    }

    /// The recorder ([`Watch::recording`]).
    pub fn into_recorder(self) -> Option<Recorder> {
        self.record
    }

    /// A cell as two characters: `  `, `##`, or the piece.
    fn cell(&self, value: i32) -> String {
        match value {
            HOLE => "##".to_string(),
            EMPTY => "  ".to_string(),
            v => {
                let (kind, colour) = ((v - 1) / 2, (v - 1) % 2);
                let symbol = self
                    .program
                    .kinds
                    .get(kind as usize)
                    .map_or('?', |k| k.symbol);
                format!("{symbol}{}", if colour == 0 { 'W' } else { 'B' })
            }
        }
    }

    /// Reports a move executed: `before` is the board before it, `valid`
    /// its outcome, `skips` whether an invalid move skips the next one.
    pub fn after(&mut self, game: &Game<'_>, m: &Move, before: &[i32], valid: bool, skips: bool) {
        if !self.trace {
            return;
        }
        let mut parts = Vec::new();
        let width = self.program.width;
        match m.action {
            Action::Step { from, to, .. } => {
                parts.push(
                    match (valid, skips) {
                        (true, _) => "valid",
                        (false, true) => "invalid, skips the next move (§5.1)",
                        (false, false) => "invalid",
                    }
                    .to_string(),
                );
                let mover = before.get(from).copied().unwrap_or(EMPTY);
                let now = game.board();
                let taken: Vec<String> = before
                    .iter()
                    .zip(now)
                    .enumerate()
                    .filter(|&(sq, (&b, &a))| {
                        sq != from && b > 0 && mover > 0 && (b - 1) % 2 != (mover - 1) % 2 && a != b
                    })
                    .map(|(sq, (&b, _))| {
                        format!("{} {}", self.cell(b).trim_end(), square_name(sq, width))
                    })
                    .collect();
                if !taken.is_empty() {
                    parts.push(format!("takes {}", taken.join(", ")));
                }
                // A valid move leaves the mover (promoted or not) on its
                // destination, unless a hole swallowed it on the way.
                let landed = now
                    .get(to)
                    .is_some_and(|&c| c > 0 && mover > 0 && (c - 1) % 2 == (mover - 1) % 2);
                if valid && landed && now.get(to).is_some_and(|&c| c != mover) {
                    let promoted = now.get(to).copied().unwrap_or(EMPTY);
                    parts.push(format!("becomes {}", self.cell(promoted).trim_end()));
                }
                if valid && mover > 0 && !landed {
                    parts.push("falls into a hole (§4)".to_string());
                }
            }
            // §5.3: a piece is put only on an empty square; the jump is
            // made either way.
            Action::Place { square, .. } => {
                let name = square_name(square, width);
                match before.get(square).copied().unwrap_or(EMPTY) {
                    EMPTY => {
                        let placed = game.board().get(square).copied().unwrap_or(EMPTY);
                        parts.push(format!("places {} on {name}", self.cell(placed).trim_end()));
                    }
                    HOLE => parts.push(format!("{name} is a hole: places nothing")),
                    held => parts.push(format!(
                        "{name} holds {}: places nothing",
                        self.cell(held).trim_end()
                    )),
                }
            }
        }
        parts.push(format!("stacks {}", stacks(game)));
        let line = format!("{}  {}", m.text.trim(), parts.join("; "));
        let _ = writeln!(self.out, "{line}");
        if let Some(record) = self.record.as_mut() {
            record.step(self.program, game, m.line, line);
        }
        if self.board {
            self.picture(game);
        }
    }

    /// The trace's last line when the game is over (§5.4): who lost
    /// (`losers`, White first, from [`super::interp::losers`]) and why.
    pub fn game_over(&mut self, losers: [Option<&str>; 2]) {
        if !self.trace {
            return;
        }
        let text = match losers {
            [Some(w), Some(b)] if w == b => format!(
                "White and Black have lost: {}",
                w.replace("it has", "they have").replace("its", "their")
            ),
            [Some(w), Some(b)] => format!("White has lost: {w}; Black has lost: {b}"),
            [Some(w), None] => format!("White has lost: {w}"),
            [None, Some(b)] => format!("Black has lost: {b}"),
            [None, None] => "a player has lost".to_string(),
        };
        self.closing(format!("end: {text} (§5.4)"));
    }

    /// Writes the trace's closing line, and keeps it in a recording.
    fn closing(&mut self, line: String) {
        let _ = writeln!(self.out, "{line}");
        if let Some(record) = self.record.as_mut() {
            record.end = Some(line);
        }
    }

    /// The trace's last line when the program ran past its last move.
    pub fn moves_ran_out(&mut self) {
        if self.trace {
            self.closing("end: the moves ran out (§5)".to_string());
        }
    }

    /// The board at the end of the run (`--board` without `--trace`).
    pub fn end(&mut self, game: &Game<'_>) {
        if self.board && !self.trace {
            self.picture(game);
        }
    }

    fn picture(&mut self, game: &Game<'_>) {
        let (width, height) = (self.program.width, self.program.height);
        let cells = game.board();
        let label = row_letters(height).len();
        let rule = format!("{:label$} +{}", "", "--+".repeat(width));
        let mut out = format!("{rule}\n");
        for row in (0..height).rev() {
            let line: String = (0..width)
                .map(|col| {
                    let value = cells.get(row * width + col).copied().unwrap_or(EMPTY);
                    format!("{}|", self.cell(value))
                })
                .collect();
            out.push_str(&format!(
                "{:>label$} |{line}\n{rule}\n",
                row_letters(row + 1)
            ));
        }
        let numbers: String = (1..=width).map(|c| format!("{c:>3}")).collect();
        out.push_str(&format!("{:label$} {numbers}\n", ""));
        out.push_str(&format!("stacks {}\n", stacks(game)));
        let _ = write!(self.out, "{out}");
    }
}

/// Both stacks, bottom to top, their last [`STACK_SHOWN`] numbers.
fn stacks(game: &Game<'_>) -> String {
    let show = |colour: usize| {
        let stack = game.stack(colour);
        let skip = stack.len().saturating_sub(STACK_SHOWN);
        let numbers: Vec<String> = stack[skip..].iter().map(i64::to_string).collect();
        let more = if skip > 0 { "… " } else { "" };
        format!("[{more}{}]", numbers.join(" "))
    };
    format!("W {} B {}", show(0), show(1))
}
