//! The InfChessPro interpreter (`icp2c run`): drives the shared board
//! runtime ([`crate::lang::icp::runtime::board`], the same source the generated
//! Rust embeds) over the IR. It is the behavioural reference for every back
//! end (§4–§8).

use super::ir::{Action, Colour, Command, MAX_LOOP, PieceKind, Program, Target, Value};
use super::trace::Watch;
use crate::Outcome;
use crate::common::debug;
use crate::common::watch::{self, Counted};
use crate::lang::Glyphs;
use crate::lang::icp::runtime::board::{self as rt, Board, Fault, Input};
use std::cell::Cell;
use std::io::{BufRead, BufWriter, LineWriter, Write};
use std::rc::Rc;

/// The bytes of standard output the interpreter gathers before it writes
/// them (flushed too before a read, a trace line and at the end).
pub const OUTPUT_BUFFER: usize = 1 << 16;

/// Most `*` a statement can hold: four squares of a move plus two targets.
const MAX_INPUTS: usize = 6;

/// Runs `program` with `input` as standard input and `output` as standard
/// output until it runs off the end (§5), hits a runtime error (§8), or has
/// executed `max_steps` statements. Output written before an error stays
/// written (it is flushed before returning). With a `watch` (`icp2c run
/// --trace --board`, [`super::trace`]) each statement and the board are
/// reported as it goes, standard output flushed before each report so that
/// both appear in order on one terminal. Output is gathered in a buffer of
/// [`OUTPUT_BUFFER`] bytes, or, when `unbuffered`
/// ([`crate::lang::RunOptions::unbuffered`]), written a line at a time.
pub fn run(
    program: &Program,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    max_steps: Option<u64>,
    watch: Option<&mut Watch<'_>>,
    unbuffered: bool,
) -> Outcome {
    let mut buffered;
    let mut lines;
    let out: &mut dyn Write = if unbuffered {
        lines = LineWriter::new(output);
        &mut lines
    } else {
        buffered = BufWriter::with_capacity(OUTPUT_BUFFER, output);
        &mut buffered
    };
    let mut out = out;
    let result = execute(program, &mut Input::new(input), &mut out, max_steps, watch);
    let flushed = out.flush().is_ok();
    outcome(program, result, flushed)
}

/// The runtime's colour for an IR colour.
pub fn runtime_colour(colour: Colour) -> rt::Colour {
    match colour {
        Colour::White => rt::Colour::White,
        Colour::Black => rt::Colour::Black,
    }
}

/// The runtime's kind for an IR piece kind.
pub fn runtime_kind(kind: PieceKind) -> rt::Kind {
    match kind {
        PieceKind::King => rt::Kind::King,
        PieceKind::Queen => rt::Kind::Queen,
        PieceKind::Rook => rt::Kind::Rook,
        PieceKind::Bishop => rt::Kind::Bishop,
        PieceKind::Knight => rt::Kind::Knight,
        PieceKind::Pawn => rt::Kind::Pawn,
    }
}

/// The runtime's step for a loop member's action.
fn runtime_step(action: Action) -> rt::Step {
    match action {
        Action::Move { name, drow, dcol } => rt::Step::Move(name, drow, dcol),
        Action::Slide { name, drow, dcol } => rt::Step::Slide(name, drow, dcol),
        Action::Nothing => rt::Step::Nothing,
    }
}

/// Where a run is between two statements: the board, the statement that
/// runs next (an index into [`Program::statements`]) and how many
/// statements have run. A debugger keeps one and runs the program a
/// statement at a time ([`Stepper`]).
pub struct Machine {
    board: Board,
    pc: usize,
    steps: u64,
}

impl Machine {
    /// A run of `program` before its first statement: an empty board.
    pub fn new(program: &Program) -> Machine {
        Machine {
            board: Board::new(program.names.len()),
            pc: 0,
            steps: 0,
        }
    }
}

/// The outcome `icp2c run` reports for what [`steps`] returned, `flushed`
/// telling whether standard output took everything.
fn outcome(program: &Program, result: Result<Option<u64>, (i64, Fault)>, flushed: bool) -> Outcome {
    match result {
        Ok(None) if flushed => Outcome::Halted,
        Ok(None) => Outcome::RuntimeError(format!(
            "error: {}",
            rt::error_message(
                program.statements.last().map_or(0, |s| s.label),
                &Fault::WriteFailed,
            )
        )),
        Ok(Some(steps)) => Outcome::StepLimit(steps),
        Err((label, fault)) => {
            Outcome::RuntimeError(format!("error: {}", rt::error_message(label, &fault)))
        }
    }
}

/// An InfChessPro program run a statement at a time, as `icp2c run
/// --trace` runs it (not optimised), each statement recorded as a
/// [`watch::Step`] for a debugger ([`crate::common::debug`]).
pub struct Stepper<'a> {
    program: &'a Program,
    input: Input<Box<dyn BufRead + 'a>>,
    output: Counted<Box<dyn Write + 'a>>,
    machine: Machine,
    glyphs: Glyphs,
}

impl<'a> Stepper<'a> {
    /// `program` before its first statement, reading `input` and writing
    /// `output`; trace lines drawn with `glyphs`.
    pub fn new(
        program: &'a Program,
        input: Box<dyn BufRead + 'a>,
        output: Box<dyn Write + 'a>,
        glyphs: Glyphs,
    ) -> Stepper<'a> {
        Stepper {
            program,
            input: Input::new(input),
            output: Counted {
                inner: output,
                written: Rc::new(Cell::new(0)),
            },
            machine: Machine::new(program),
            glyphs,
        }
    }
}

impl debug::Stepper for Stepper<'_> {
    fn step(&mut self, recorded: &mut Vec<watch::Step>) -> Option<Outcome> {
        let mut lines = std::io::sink();
        let mut watch = Watch::recording(
            self.program,
            &mut lines,
            self.glyphs,
            std::mem::take(recorded),
            self.output.written.clone(),
        );
        let budget = self.machine.steps.saturating_add(1);
        let result = steps::<_, _, true>(
            self.program,
            &mut self.input,
            &mut self.output,
            Some(budget),
            &mut self.machine,
            Some(&mut watch),
        );
        *recorded = watch.into_steps();
        match result {
            Ok(Some(_)) => None,
            Ok(None) => {
                let flushed = self.output.flush().is_ok();
                Some(outcome(self.program, Ok(None), flushed))
            }
            Err(e) => Some(outcome(self.program, Err(e), true)),
        }
    }

    fn next_line(&self) -> Option<usize> {
        self.program.statements.get(self.machine.pc).map(|s| s.line)
    }
}

/// Returns `Ok(None)` when the program halts, `Ok(Some(steps))` when the
/// step budget ran out, or the label and fault of a runtime error.
fn execute<R: BufRead, W: Write>(
    program: &Program,
    input: &mut Input<R>,
    out: &mut W,
    max_steps: Option<u64>,
    mut watch: Option<&mut Watch<'_>>,
) -> Result<Option<u64>, (i64, Fault)> {
    let mut machine = Machine::new(program);
    // Two copies of the loop: the one without a watch has no trace code.
    let result = match watch.as_deref_mut() {
        None => steps::<R, W, false>(program, input, out, max_steps, &mut machine, None),
        Some(w) => steps::<R, W, true>(program, input, out, max_steps, &mut machine, Some(w)),
    };
    if let Some(w) = watch {
        w.end(&machine.board);
    }
    result
}

/// Runs statements from where `machine` is until the program ends, a
/// runtime error, or `max_steps` statements in all have run (counting
/// those run before); `machine` then says where the run is (after an
/// error: where this call began).
fn steps<R: BufRead, W: Write, const WATCH: bool>(
    program: &Program,
    input: &mut Input<R>,
    out: &mut W,
    max_steps: Option<u64>,
    machine: &mut Machine,
    mut watch: Option<&mut Watch<'_>>,
) -> Result<Option<u64>, (i64, Fault)> {
    let board = &mut machine.board;
    let statements = &program.statements;
    let mut values = [0i64; MAX_INPUTS];
    let mut pc = machine.pc;
    let mut steps = machine.steps;
    // Without --max-steps nothing stops the program: steps are counted
    // (saturating) but never spent, and summarised loops run unbounded.
    let budget = max_steps.unwrap_or(u64::MAX);
    let bounded = max_steps.is_some();
    let most = |steps: u64| {
        if bounded {
            budget - steps + 1
        } else {
            u64::MAX
        }
    };
    while let Some(s) = statements.get(pc) {
        if bounded && steps >= budget {
            machine.pc = pc;
            machine.steps = steps;
            return Ok(Some(steps));
        }
        steps = steps.saturating_add(1);
        let label = s.label;
        let fail = |f: Fault| (label, f);
        let read = if s.inputs > 0 {
            input.read_into(&mut values[..s.inputs]).map_err(fail)?
        } else {
            0
        };
        let v = |x: Value| match x {
            Value::Lit(n) => n,
            Value::Input(k) => values[k],
        };
        let before = if WATCH {
            watch.as_ref().map(|w| w.before(board, &s.command, &v))
        } else {
            None
        };
        if !WATCH && let Command::Loop { members, start } = &s.command {
            // This execution and as many as the budget allows after it,
            // round the loop until a move fails.
            let mut rt_steps = [rt::Step::Nothing; MAX_LOOP];
            for (step, m) in rt_steps.iter_mut().zip(members) {
                *step = runtime_step(m.action);
            }
            let end = board.run_loop(&rt_steps[..members.len()], *start, most(steps));
            steps = steps.saturating_add(end.executed.saturating_sub(1));
            let Some(at) = members.get(end.at).map(|m| m.statement) else {
                return Ok(None);
            };
            pc = if !end.left {
                // The budget is spent (the loop's top says so), or, with
                // none, 2^64 statements ran: go on from there.
                at
            } else {
                // The optimiser makes no loop with a `*` target.
                let failure = statements.get(at).and_then(|s| s.on_failure);
                program.goes_to(at, failure).unwrap_or(at + 1)
            };
            continue;
        }
        // §6: end of input in any `*` means the command is not performed and fails.
        let ok = read == s.inputs
            && match &s.command {
                Command::Place {
                    name,
                    colour,
                    kind,
                    row,
                    col,
                } => board
                    .place(
                        *name,
                        runtime_colour(*colour),
                        runtime_kind(*kind),
                        v(*row),
                        v(*col),
                    )
                    .map_err(fail)?,
                Command::MoveSquares { r1, c1, r2, c2 } => board
                    .move_squares(v(*r1), v(*c1), v(*r2), v(*c2))
                    .map_err(fail)?,
                Command::MoveNameTo { name, row, col } => {
                    board.move_name_to(*name, v(*row), v(*col)).map_err(fail)?
                }
                Command::MoveNameBy { name, drow, dcol } => board
                    .move_name_by(*name, v(*drow), v(*dcol))
                    .map_err(fail)?,
                // Traced, one statement at a time: its success target is
                // itself, so a step of it is the loop's statement.
                Command::Slide { name, drow, dcol } if WATCH => {
                    board.move_name_by(*name, *drow, *dcol).map_err(fail)?
                }
                Command::Slide { name, drow, dcol } => {
                    // This execution and every one the budget allows after
                    // it: n succeed, then (if n < most) one fails.
                    let most = most(steps);
                    let n = board.slide(*name, *drow, *dcol, most).map_err(fail)?;
                    steps = steps.saturating_add(n + u64::from(n < most) - 1);
                    n == most
                }
                // Traced, one statement at a time: the member's own
                // command, with its own targets.
                Command::Loop { members, start } => match members.get(*start).map(|m| m.action) {
                    Some(
                        Action::Move { name, drow, dcol } | Action::Slide { name, drow, dcol },
                    ) => board.move_name_by(name, drow, dcol).map_err(fail)?,
                    Some(Action::Nothing) | None => true,
                },
                Command::Nothing => true,
                Command::Text(text) => {
                    rt::write_text(out, text).map_err(fail)?;
                    rt::write_text(out, "\n").map_err(fail)?;
                    true
                }
                Command::Count(name) => {
                    rt::write_count(out, board.count(*name)).map_err(fail)?;
                    true
                }
            };
        let target = if ok { s.on_success } else { s.on_failure };
        if WATCH && let (Some(w), Some(before)) = (watch.as_deref_mut(), before) {
            let next = match target {
                None => statements.get(pc + 1).map(|n| n.label),
                Some(Target::Statement(i)) => Some(statements[i].label),
                Some(Target::Input(k)) => (k < read).then(|| values[k]),
            };
            // The program's output so far comes before this line.
            out.flush().map_err(|_| fail(Fault::WriteFailed))?;
            w.after(board, s, before, &v, &values, read, ok, next);
        }
        pc = match target {
            None => pc + 1,
            Some(Target::Statement(i)) => i,
            Some(Target::Input(k)) => {
                if k >= read {
                    return Err(fail(Fault::EndOfInputInTarget));
                }
                let wanted = values[k];
                program
                    .find_label(wanted)
                    .ok_or_else(|| fail(Fault::NoSuchLabel(wanted)))?
            }
        };
    }
    machine.pc = pc;
    machine.steps = steps;
    Ok(None)
}
