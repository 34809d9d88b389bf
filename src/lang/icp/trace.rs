//! What `icp2c run --trace` and `--board` show of an InfChessPro run
//! (issue 14), on the error stream:
//!
//! - `--trace`: one line per statement executed, its source line and what
//!   it did: `5. x;0,1  x R(0,3)->(0,4) ok -> 6` (the piece's name, its
//!   letter, where it came from and went, a capture as `takes y b`, then
//!   `ok` or `, fails` (after the reason) and the label executed next, or
//!   `end`);
//! - `--board`: the pieces, drawn in a window around them (row numbers on
//!   the left, the highest row on top) when they fit in
//!   [`WINDOW_ROWS`] × [`WINDOW_COLS`] squares, else listed by name.
//!
//! [`record`] runs the same watch with no stream, keeping each statement's
//! trace line and the squares it changed for a board view (the
//! playground's, `crate::common::watch`).
//!
//! Coordinates are (row, col) as in the program (§3); white moves towards
//! higher rows. Only the interpreter traces: generated programs run as
//! they always do.

use super::interp;
use super::ir::{Action, Command, NameId, Program, Statement, Value};
use crate::common::watch::{self, Content, Counted, Recording, Shape, Side};
use crate::lang::icp::runtime::board::{Board, Colour, Kind};
use crate::lang::{Glyphs, RunOptions};
use std::cell::Cell;
use std::io::{BufRead, Write};
use std::rc::Rc;

/// The most rows a board picture draws before it lists the pieces.
pub const WINDOW_ROWS: u64 = 24;
/// The most columns a board picture draws before it lists the pieces.
pub const WINDOW_COLS: u64 = 48;

/// Where and how to report.
pub struct Watch<'a> {
    /// The error stream.
    pub out: &'a mut dyn Write,
    /// The program's names, by [`NameId`].
    pub names: &'a [String],
    /// `--trace`.
    pub trace: bool,
    /// `--board`.
    pub board: bool,
    /// How pieces are drawn.
    pub glyphs: Glyphs,
    /// Where a recorded run ([`record`]) keeps its steps; `None` for
    /// `--trace` and `--board`.
    pub record: Option<Recorder>,
}

/// What [`record`] keeps while the program runs.
pub struct Recorder {
    /// The steps so far.
    steps: Vec<watch::Step>,
    /// How many bytes of standard output the program has written.
    written: Rc<Cell<usize>>,
}

/// Runs `program` as `icp2c run --trace` does with `options`
/// (`max_steps`, `glyphs` for the trace lines), every statement executed
/// recorded for a board view: its trace line, the squares it changed, the
/// output so far. Not optimised, as a traced run is not.
pub fn record(program: &Program, input: &mut dyn BufRead, options: &RunOptions) -> Recording {
    let mut output = Vec::new();
    let written = Rc::new(Cell::new(0));
    let mut lines = std::io::sink();
    let mut watch = Watch::recording(
        program,
        &mut lines,
        options.glyphs,
        Vec::new(),
        written.clone(),
    );
    let outcome = interp::run(
        program,
        input,
        &mut Counted {
            inner: &mut output,
            written,
        },
        options.max_steps,
        Some(&mut watch),
        false,
    );
    let steps = watch.into_steps();
    Recording {
        shape: Shape::Unbounded,
        start: Vec::new(),
        steps,
        end: None,
        output,
        outcome,
    }
}

/// What a board view draws for `piece`, named from `names`.
fn content(piece: Option<Piece>, names: &[String]) -> Content {
    match piece {
        None => Content::Empty,
        Some(p) => Content::Piece(watch::Piece {
            side: match p.colour {
                Colour::White => Side::White,
                Colour::Black => Side::Black,
            },
            symbol: letter(p.kind),
            name: names.get(p.name as usize).cloned().unwrap_or_default(),
        }),
    }
}

/// The squares `command` can change, with the operands `v`, and what
/// each holds now, in (row, col) order: a placement's square, a move's
/// start and target, and for a move by name every square of the name's
/// pieces and each one's target (§4). Costs one step per piece of the
/// name, never one per piece on the board.
fn touched(
    board: &Board,
    command: &Command,
    v: &dyn Fn(Value) -> i64,
) -> Vec<(i64, i64, Option<Piece>)> {
    let mut squares = Vec::new();
    let mut by = |name: NameId, drow: i64, dcol: i64| {
        for (r, c) in board.squares_of(name) {
            squares.push((r, c));
            if let (Some(tr), Some(tc)) = (r.checked_add(drow), c.checked_add(dcol)) {
                squares.push((tr, tc));
            }
        }
    };
    match command {
        Command::MoveNameBy { name, drow, dcol } => by(*name, v(*drow), v(*dcol)),
        Command::Slide { name, drow, dcol } => by(*name, *drow, *dcol),
        Command::Loop { members, start } => {
            if let Some(Action::Move { name, drow, dcol } | Action::Slide { name, drow, dcol }) =
                members.get(*start).map(|m| m.action)
            {
                by(name, drow, dcol);
            }
        }
        Command::MoveNameTo { name, row, col } => {
            squares = board.squares_of(*name);
            squares.push((v(*row), v(*col)));
        }
        Command::Place { row, col, .. } => squares.push((v(*row), v(*col))),
        Command::MoveSquares { r1, c1, r2, c2 } => {
            squares.extend([(v(*r1), v(*c1)), (v(*r2), v(*c2))]);
        }
        Command::Nothing | Command::Text(_) | Command::Count(_) => {}
    }
    squares.sort_unstable();
    squares.dedup();
    squares
        .into_iter()
        .map(|(r, c)| (r, c, piece_at(board, r, c)))
        .collect()
}

/// What a statement's line needs from the board before its command runs.
pub struct Before {
    /// Move by squares: the piece on the first square.
    mover: Option<Piece>,
    /// The squares of the name's pieces, newest first (moves by name).
    candidates: Vec<(i64, i64)>,
    /// The piece on each square a move could take (by squares, or by
    /// name: one per candidate).
    occupants: Vec<Option<Piece>>,
    /// When recording: the squares the command can change, and what each
    /// held ([`touched`]).
    touched: Vec<(i64, i64, Option<Piece>)>,
}

/// A piece as a picture shows it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Piece {
    colour: Colour,
    kind: Kind,
    name: NameId,
}

fn piece_at(board: &Board, row: i64, col: i64) -> Option<Piece> {
    board
        .piece_at(row, col)
        .map(|(colour, kind, name)| Piece { colour, kind, name })
}

fn letter(kind: Kind) -> char {
    match kind {
        Kind::King => 'k',
        Kind::Queen => 'q',
        Kind::Rook => 'r',
        Kind::Bishop => 'b',
        Kind::Knight => 'n',
        Kind::Pawn => 'p',
    }
}

impl<'a> Watch<'a> {
    /// The watch `options` ask for (`--trace`, `--board`), reporting to
    /// `out`; `None` when they ask for neither.
    pub fn new(program: &'a Program, out: &'a mut dyn Write, options: &RunOptions) -> Option<Self> {
        (options.trace || options.board).then_some(Watch {
            out,
            names: &program.names,
            trace: options.trace,
            board: options.board,
            glyphs: options.glyphs,
            record: None,
        })
    }

    /// A watch that writes its trace lines to `out` (with `glyphs`) and
    /// records each statement after `steps`, the program's output counted
    /// in `written` ([`watch::Counted`]): a debugger's, a statement at a
    /// time ([`interp::Stepper`]).
    pub fn recording(
        program: &'a Program,
        out: &'a mut dyn Write,
        glyphs: Glyphs,
        steps: Vec<watch::Step>,
        written: Rc<Cell<usize>>,
    ) -> Self {
        Watch {
            out,
            names: &program.names,
            trace: true,
            board: false,
            glyphs,
            record: Some(Recorder { steps, written }),
        }
    }

    /// The steps recorded ([`Watch::recording`]).
    pub fn into_steps(self) -> Vec<watch::Step> {
        self.record.map(|r| r.steps).unwrap_or_default()
    }

    fn glyph(&self, colour: Colour, kind: Kind) -> char {
        self.glyphs
            .chess(letter(kind), colour == Colour::White)
            .unwrap_or('?')
    }

    fn name(&self, name: NameId) -> &str {
        self.names.get(name as usize).map_or("?", String::as_str)
    }

    fn piece(&self, p: Piece) -> String {
        format!("{} {}", self.name(p.name), self.glyph(p.colour, p.kind))
    }

    /// Looks at the board before `statement`'s command runs with the
    /// operands `v` (only what its trace line needs).
    pub fn before(&self, board: &Board, command: &Command, v: &dyn Fn(Value) -> i64) -> Before {
        let mut before = Before {
            mover: None,
            candidates: Vec::new(),
            occupants: Vec::new(),
            touched: Vec::new(),
        };
        if self.record.is_some() {
            before.touched = touched(board, command, v);
        }
        if !self.trace {
            return before;
        }
        match command {
            Command::MoveSquares { r1, c1, r2, c2 } => {
                before.mover = piece_at(board, v(*r1), v(*c1));
                before.occupants.push(piece_at(board, v(*r2), v(*c2)));
            }
            Command::MoveNameTo { name, row, col } => {
                before.candidates = board.squares_of(*name);
                before.occupants.push(piece_at(board, v(*row), v(*col)));
            }
            Command::MoveNameBy { name, drow, dcol } => {
                before.candidates = board.squares_of(*name);
                before.occupants = before
                    .candidates
                    .iter()
                    .map(|&(r, c)| {
                        let target = r.checked_add(v(*drow)).zip(c.checked_add(v(*dcol)));
                        target.and_then(|(tr, tc)| piece_at(board, tr, tc))
                    })
                    .collect();
            }
            _ => {}
        }
        before
    }

    /// Reports one executed statement: its trace line (with `--trace`)
    /// and the board (with `--trace --board`). `read` numbers of the
    /// statement's `inputs` were read into `values`; `ok` is its outcome
    /// and `next` the label executed next (`None`: the program ends).
    #[allow(clippy::too_many_arguments)]
    pub fn after(
        &mut self,
        board: &Board,
        statement: &Statement,
        before: Before,
        v: &dyn Fn(Value) -> i64,
        values: &[i64],
        read: usize,
        ok: bool,
        next: Option<i64>,
    ) {
        if !self.trace {
            return;
        }
        let mut parts = Vec::new();
        if read > 0 {
            let numbers: Vec<String> = values[..read].iter().map(i64::to_string).collect();
            parts.push(format!("read {}", numbers.join(" ")));
        }
        if read < statement.inputs {
            parts.push("end of input: not performed (§6)".to_string());
        } else {
            parts.push(self.command(board, &statement.command, &before, v, ok));
        }
        let next = next.map_or("end".to_string(), |l| l.to_string());
        let outcome = if ok { " ok" } else { ", fails" };
        let line = format!(
            "{}  {}{outcome} -> {next}",
            statement.text.trim_end(),
            parts.join("; ")
        );
        let _ = writeln!(self.out, "{line}");
        if let Some(record) = self.record.as_mut() {
            let changes = before
                .touched
                .iter()
                .filter_map(|&(row, col, was)| {
                    let now = piece_at(board, row, col);
                    (now != was).then(|| watch::Change {
                        row,
                        col,
                        before: content(was, self.names),
                        after: content(now, self.names),
                    })
                })
                .collect();
            record.steps.push(watch::Step {
                line: statement.line,
                trace: line,
                changes,
                output: record.written.get(),
                stacks: None,
            });
        }
        if self.board {
            self.picture(board);
        }
    }

    /// What a performed command did, without its outcome word.
    fn command(
        &self,
        board: &Board,
        command: &Command,
        before: &Before,
        v: &dyn Fn(Value) -> i64,
        ok: bool,
    ) -> String {
        let square = |r: i64, c: i64| format!("({r},{c})");
        let takes =
            |p: Option<Piece>| p.map_or(String::new(), |p| format!(" takes {}", self.piece(p)));
        match command {
            Command::Place { name, row, col, .. } => {
                let (r, c) = (v(*row), v(*col));
                match piece_at(board, r, c).filter(|_| ok) {
                    Some(p) => format!("places {}{}", self.piece(p), square(r, c)),
                    None => format!(
                        "places {} on {}: square taken",
                        self.name(*name),
                        square(r, c)
                    ),
                }
            }
            Command::MoveSquares { r1, c1, r2, c2 } => {
                let path = format!("{}->{}", square(v(*r1), v(*c1)), square(v(*r2), v(*c2)));
                match before.mover {
                    None => format!("{path}: no piece there"),
                    Some(p) if ok => {
                        format!("{}{path}{}", self.piece(p), takes(before.occupants[0]))
                    }
                    Some(p) => format!("{}{path}: illegal", self.piece(p)),
                }
            }
            Command::MoveNameTo { name, row, col } => {
                let to = square(v(*row), v(*col));
                match ok
                    .then(|| moved(board, *name, &before.candidates))
                    .flatten()
                {
                    Some((_, r, c)) => {
                        let p = piece_at(board, v(*row), v(*col));
                        let glyph = p.map_or('?', |p| self.glyph(p.colour, p.kind));
                        format!(
                            "{} {glyph}{}->{to}{}",
                            self.name(*name),
                            square(r, c),
                            takes(before.occupants[0])
                        )
                    }
                    None if before.candidates.is_empty() => {
                        format!("{} ->{to}: no such piece", self.name(*name))
                    }
                    None => format!("{} ->{to}: no piece can move there", self.name(*name)),
                }
            }
            Command::MoveNameBy { name, drow, dcol } => {
                let by = format!("({},{})", v(*drow), v(*dcol));
                match ok
                    .then(|| moved(board, *name, &before.candidates))
                    .flatten()
                {
                    Some((i, r, c)) => {
                        let (tr, tc) = (r.wrapping_add(v(*drow)), c.wrapping_add(v(*dcol)));
                        let p = piece_at(board, tr, tc);
                        let glyph = p.map_or('?', |p| self.glyph(p.colour, p.kind));
                        let taken = before.occupants.get(i).copied().flatten();
                        format!(
                            "{} {glyph}{}->{}{}",
                            self.name(*name),
                            square(r, c),
                            square(tr, tc),
                            takes(taken)
                        )
                    }
                    None if before.candidates.is_empty() => {
                        format!("{} by {by}: no such piece", self.name(*name))
                    }
                    None => format!("{} by {by}: no piece can move", self.name(*name)),
                }
            }
            // A traced run is not optimised: a slide loop is its statement.
            Command::Slide { .. } => "slides".to_string(),
            Command::Loop { .. } => "loops".to_string(),
            Command::Nothing => "nothing".to_string(),
            Command::Text(text) => format!("prints {text:?}"),
            Command::Count(name) => format!("count {} = {}", self.name(*name), board.count(*name)),
        }
    }

    /// The board at the end of the run (`--board` without `--trace`).
    pub fn end(&mut self, board: &Board) {
        if self.board && !self.trace {
            self.picture(board);
        }
    }

    /// Draws the pieces: a window around them, or a list by name.
    fn picture(&mut self, board: &Board) {
        let mut pieces = board.pieces();
        pieces.sort_by_key(|&(r, c, _, _, name)| (name, r, c));
        let _ = write!(self.out, "{}", self.draw(&pieces));
    }

    fn draw(&self, pieces: &[(i64, i64, Colour, Kind, NameId)]) -> String {
        let n = pieces.len();
        let plural = if n == 1 { "" } else { "s" };
        if n == 0 {
            return "board: empty\n".to_string();
        }
        let Some((rmin, rmax, cmin, cmax)) = window(pieces) else {
            let mut out = format!("board: {n} piece{plural}, too far apart to draw:\n");
            out.push_str(&self.list(pieces));
            return out;
        };
        let inside = |&&(r, c, ..): &&(i64, i64, Colour, Kind, NameId)| {
            (rmin..=rmax).contains(&r) && (cmin..=cmax).contains(&c)
        };
        let outside: Vec<_> = pieces.iter().filter(|p| !inside(p)).copied().collect();
        let mut out = format!("board: {n} piece{plural}");
        if !outside.is_empty() {
            out.push_str(&format!(", {} drawn", n - outside.len()));
        }
        out.push_str(&format!(
            " (rows {rmin}..{rmax}, row {rmax} on top; cols {cmin}..{cmax}):\n"
        ));
        let rows = (rmax - rmin) as usize + 1;
        let cols = (cmax - cmin) as usize + 1;
        let label = rmin.to_string().len().max(rmax.to_string().len());
        let mut grid = vec![vec![self.glyphs.empty(); cols]; rows];
        for &(r, c, colour, kind, _) in pieces.iter().filter(inside) {
            grid[(rmax - r) as usize][(c - cmin) as usize] = self.glyph(colour, kind);
        }
        for (i, row) in grid.iter().enumerate() {
            let line: Vec<String> = row.iter().map(char::to_string).collect();
            out.push_str(&format!(
                "  {:>label$} | {}\n",
                rmax - i as i64,
                line.join(" ")
            ));
        }
        if !outside.is_empty() {
            out.push_str("  elsewhere:\n");
            out.push_str(&self.list(&outside));
        }
        out
    }

    /// The pieces one a line: name, glyph, square.
    fn list(&self, pieces: &[(i64, i64, Colour, Kind, NameId)]) -> String {
        let width = pieces
            .iter()
            .map(|p| self.name(p.4).chars().count())
            .max()
            .unwrap_or(0);
        pieces
            .iter()
            .map(|&(r, c, colour, kind, name)| {
                format!(
                    "  {:<width$} {} ({r},{c})\n",
                    self.name(name),
                    self.glyph(colour, kind)
                )
            })
            .collect()
    }
}

/// Most pieces a picture looks for the best window among; with more, a
/// window is drawn only when all of them fit.
const WINDOW_SEARCH: usize = 64;

/// The rows and columns to draw: the bounding box of the pieces when it
/// fits in [`WINDOW_ROWS`] × [`WINDOW_COLS`], else (for at most
/// [`WINDOW_SEARCH`] pieces) the bounding box of the most pieces that fit
/// in one window, if that is at least two; `None` to list them all.
fn window(pieces: &[(i64, i64, Colour, Kind, NameId)]) -> Option<(i64, i64, i64, i64)> {
    let fits = |rmin: i64, rmax: i64, cmin: i64, cmax: i64| {
        (rmax as i128 - rmin as i128) < i128::from(WINDOW_ROWS)
            && (cmax as i128 - cmin as i128) < i128::from(WINDOW_COLS)
    };
    let bounds = |chosen: &mut dyn Iterator<Item = &(i64, i64, Colour, Kind, NameId)>| {
        chosen.fold(None, |b: Option<(i64, i64, i64, i64)>, &(r, c, ..)| {
            Some(b.map_or((r, r, c, c), |(a, z, x, y)| {
                (a.min(r), z.max(r), x.min(c), y.max(c))
            }))
        })
    };
    let all = bounds(&mut pieces.iter())?;
    if fits(all.0, all.1, all.2, all.3) {
        return Some(all);
    }
    if pieces.len() > WINDOW_SEARCH {
        return None;
    }
    // Every window whose lowest row and leftmost column hold pieces.
    let mut best: Option<(usize, (i64, i64, i64, i64))> = None;
    for &(r0, ..) in pieces {
        for &(_, c0, ..) in pieces {
            let inside = |&&(r, c, ..): &&(i64, i64, Colour, Kind, NameId)| {
                r >= r0
                    && c >= c0
                    && (r as i128 - r0 as i128) < i128::from(WINDOW_ROWS)
                    && (c as i128 - c0 as i128) < i128::from(WINDOW_COLS)
            };
            let count = pieces.iter().filter(inside).count();
            if count >= 2 && best.is_none_or(|(n, _)| count > n) {
                let b = bounds(&mut pieces.iter().filter(inside));
                best = b.map(|b| (count, b));
            }
        }
    }
    best.map(|(_, b)| b)
}

/// The piece of `name` that moved, found by comparing its squares before
/// (`candidates`, newest first) with now: its index among the candidates
/// and the square it left.
fn moved(board: &Board, name: NameId, candidates: &[(i64, i64)]) -> Option<(usize, i64, i64)> {
    let now = board.squares_of(name);
    candidates
        .iter()
        .enumerate()
        .find(|(_, sq)| !now.contains(sq))
        .map(|(i, &(r, c))| (i, r, c))
}
