//! The interpreter (`icp2c run`): runs the move list (§5) on the shared
//! runtime `crate::lang::finvara::runtime::board`, exactly as the generated programs do.

use super::ir::{Action, Program};
use super::runtime::board::{self as fin_board, Game};
use super::trace::{Recorder, Watch};
use crate::Outcome;
use crate::common::debug;
use crate::common::watch::{self, Counted};
use std::cell::Cell;
use std::io::{BufRead, Write};
use std::rc::Rc;

/// Runs `program`. `max_steps` bounds the number of moves executed
/// (a skipped move is not executed). With a `watch` (`icp2c run --trace
/// --board`, [`super::trace`]) each move and the board are reported as it
/// goes, standard output flushed before each report.
pub fn run(
    program: &Program,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    max_steps: Option<u64>,
    mut watch: Option<&mut Watch<'_>>,
) -> Outcome {
    let kinds = runtime_kinds(program);
    let mut game = Game::new(&kinds, program.width, program.height, &program.cells);
    game.read_from(input);
    game.write_to(&mut *output);
    let mut progress = Progress::default();
    let outcome = execute(
        program,
        &mut game,
        max_steps,
        &mut progress,
        watch.as_deref_mut(),
    );
    if let Some(w) = watch {
        w.end(&game);
    }
    if output.flush().is_err() && outcome == Outcome::Halted {
        return Outcome::RuntimeError(format!("error: {}", fin_board::RuntimeError::WRITE_FAILED));
    }
    outcome
}

/// The runtime's view of the program's piece kinds, in symbol order:
/// value (§2, §5.2), royalty, and the path programs of both colours.
pub fn runtime_kinds(program: &Program) -> Vec<fin_board::Kind<'_>> {
    program
        .kinds
        .iter()
        .map(|k| {
            let (value, value_of) = k.runtime_value();
            fin_board::Kind {
                value,
                value_of,
                royal: k.royal(),
                code: [&k.code[0], &k.code[1]],
            }
        })
        .collect()
}

/// Where a run is between two moves: the move that runs next (an index
/// into [`Program::moves`]) and how many moves have run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    pc: usize,
    steps: u64,
}

/// A Finvara program run a move at a time, as `icp2c run --trace` runs it,
/// each move recorded as a [`watch::Step`] for a debugger
/// ([`crate::common::debug`]). Between moves it keeps the cells and the
/// stacks, and builds the runtime's game again for each move (a move costs
/// a step per cell of the board already, to record its changes).
pub struct Stepper<'a> {
    program: &'a Program,
    kinds: Vec<fin_board::Kind<'a>>,
    cells: Vec<i32>,
    stacks: [Vec<i64>; 2],
    input: Box<dyn BufRead + 'a>,
    output: Counted<Box<dyn Write + 'a>>,
    progress: Progress,
    recorder: Option<Recorder>,
}

impl<'a> Stepper<'a> {
    /// `program` before its first move, reading `input` and writing
    /// `output`.
    pub fn new(
        program: &'a Program,
        input: Box<dyn BufRead + 'a>,
        output: Box<dyn Write + 'a>,
    ) -> Stepper<'a> {
        let written = Rc::new(Cell::new(0));
        Stepper {
            program,
            kinds: runtime_kinds(program),
            cells: program.cells.clone(),
            stacks: [Vec::new(), Vec::new()],
            input,
            output: Counted {
                inner: output,
                written: written.clone(),
            },
            progress: Progress::default(),
            recorder: Some(Recorder::new(program, Vec::new(), written)),
        }
    }
}

impl debug::Stepper for Stepper<'_> {
    fn step(&mut self, recorded: &mut Vec<watch::Step>) -> Option<Outcome> {
        let program = self.program;
        let mut game = Game::new(&self.kinds, program.width, program.height, &self.cells);
        game.set_stacks(std::mem::take(&mut self.stacks));
        game.read_from(&mut self.input);
        game.write_to(&mut self.output);
        let mut lines = std::io::sink();
        let mut recorder = self.recorder.take()?;
        recorder.swap_steps(recorded);
        let mut watch = Watch::recording(program, &mut lines, recorder);
        let budget = self.progress.steps.saturating_add(1);
        let outcome = execute(
            program,
            &mut game,
            Some(budget),
            &mut self.progress,
            Some(&mut watch),
        );
        let mut recorder = watch.into_recorder()?;
        recorder.swap_steps(recorded);
        self.recorder = Some(recorder);
        self.cells.clear();
        self.cells.extend_from_slice(game.board());
        self.stacks = game.take_stacks();
        drop(game);
        match outcome {
            Outcome::StepLimit(_) => None,
            Outcome::Halted if self.output.flush().is_err() => Some(Outcome::RuntimeError(
                format!("error: {}", fin_board::RuntimeError::WRITE_FAILED),
            )),
            other => Some(other),
        }
    }

    fn next_line(&self) -> Option<usize> {
        self.program.moves.get(self.progress.pc).map(|m| m.line)
    }

    fn end_line(&self) -> Option<String> {
        self.recorder.as_ref().and_then(Recorder::end_line)
    }
}

/// Runs moves from where `progress` is until the game or the moves end, a
/// runtime error, or `max_steps` moves in all have run (counting those
/// run before); `progress` then says where the run is.
fn execute(
    program: &Program,
    game: &mut Game<'_>,
    max_steps: Option<u64>,
    progress: &mut Progress,
    mut watch: Option<&mut Watch<'_>>,
) -> Outcome {
    let Progress { pc, steps } = progress;
    loop {
        // §5.4: checked before every move, and before the first.
        match game.game_over() {
            Ok(true) => {
                if let Some(w) = watch.as_deref_mut() {
                    game.flush_output();
                    w.game_over(losers(program, game.board()));
                }
                return Outcome::Halted;
            }
            Ok(false) => {}
            Err(e) => return Outcome::RuntimeError(format!("error: {e}")),
        }
        let Some(m) = program.moves.get(*pc) else {
            if let Some(w) = watch.as_deref_mut() {
                game.flush_output();
                w.moves_ran_out();
            }
            return Outcome::Halted;
        };
        if max_steps.is_some_and(|max| *steps >= max) {
            return Outcome::StepLimit(*steps);
        }
        *steps += 1;
        match m.action {
            Action::Step {
                kind,
                from,
                to,
                promote,
            } => {
                let mv = [
                    kind as i32,
                    from as i32,
                    to as i32,
                    promote.map_or(-1, |p| p as i32),
                ];
                let before = watch.as_ref().map(|_| game.board().to_vec());
                match game.step(m.turn, m.colour.index(), mv) {
                    // §5.1: an invalid move skips the next one when both
                    // stacks' tops are non-zero.
                    Ok(valid) => {
                        let skips = !valid && game.skip();
                        if let (Some(w), Some(before)) = (watch.as_deref_mut(), before) {
                            game.flush_output();
                            w.after(game, m, &before, valid, skips);
                        }
                        *pc += if skips { 2 } else { 1 };
                    }
                    Err(e) => return Outcome::RuntimeError(format!("error: {e}")),
                }
            }
            Action::Place {
                kind,
                square,
                target,
            } => {
                let before = watch.as_ref().map(|_| game.board().to_vec());
                game.place(m.colour.index(), kind, square);
                if let (Some(w), Some(before)) = (watch.as_deref_mut(), before) {
                    w.after(game, m, &before, true, false);
                }
                *pc = target;
            }
        }
    }
}

/// Which players have lost on `board` (§5.4), White first, each with the
/// reason (`it has no royal piece`, `its royal pieces are all
/// attacked`); for the trace's last line.
///
/// The runtime answers only whether the game is over, so each colour is
/// asked about on its own: on a copy of the board where that colour's
/// pieces keep their squares and royalty but can attack nothing (an empty
/// notation, a kind of their own), the other colour cannot have lost but
/// by having no royal piece (seen on the board itself), so the game is
/// over exactly when that colour has lost. Attacks do not depend on the
/// attacked pieces' kinds (§5.4), so the answer is the real game's.
pub fn losers(program: &Program, board: &[i32]) -> [Option<&'static str>; 2] {
    let kinds = runtime_kinds(program);
    let n = kinds.len() as i32;
    let royal = |cell: i32| cell > 0 && kinds[((cell - 1) / 2) as usize].royal;
    let has_royal = |colour: i32| board.iter().any(|&c| royal(c) && (c - 1) % 2 == colour);
    let idle: Vec<i32> = vec![0, fin_board::OP_END];
    let mut all = kinds.clone();
    all.extend(kinds.iter().map(|k| fin_board::Kind {
        code: [&idle, &idle],
        ..*k
    }));
    let mut out = [None; 2];
    for colour in 0..2i32 {
        let other = 1 - colour;
        if !has_royal(colour) {
            out[colour as usize] = Some("it has no royal piece");
            continue;
        }
        if !has_royal(other) {
            // The other colour has lost; with no royal piece of its own to
            // keep the copied game going, this colour's attacked royals
            // cannot be asked about: it is not named.
            continue;
        }
        let cells: Vec<i32> = board
            .iter()
            .map(|&c| {
                if c > 0 && (c - 1) % 2 == colour {
                    fin_board::piece(n + (c - 1) / 2, colour)
                } else {
                    c
                }
            })
            .collect();
        let mut copy = Game::new(&all, program.width, program.height, &cells);
        if copy.game_over().unwrap_or(false) {
            out[colour as usize] = Some("its royal pieces are all attacked");
        }
    }
    out
}
