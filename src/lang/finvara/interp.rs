//! The interpreter (`icp2c run`): runs the move list (§5) on the shared
//! runtime `crate::lang::finvara::runtime::board`, exactly as the generated programs do.

use super::ir::{Action, Program};
use super::runtime::board::{self as fin_board, Game};
use super::trace::Watch;
use crate::Outcome;
use std::io::{BufRead, Write};

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
    let outcome = execute(
        program,
        &mut game,
        input,
        output,
        max_steps,
        watch.as_deref_mut(),
    );
    if let Some(w) = watch {
        w.end(&game);
    }
    if output.flush().is_err() && outcome == Outcome::Halted {
        return Outcome::RuntimeError(fin_board::RuntimeError::WRITE_FAILED.to_string());
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

fn execute(
    program: &Program,
    game: &mut Game<'_>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    max_steps: Option<u64>,
    mut watch: Option<&mut Watch<'_>>,
) -> Outcome {
    let mut pc = 0usize;
    let mut steps = 0u64;
    // The colour of the last move executed, when it was a valid move: its
    // mover cannot have lost by it (§5.1), which the trace's last line uses.
    let mut last_valid_mover = None;
    loop {
        // §5.4: checked before every move, and before the first.
        match game.game_over() {
            Ok(true) => {
                if let Some(w) = watch.as_deref_mut() {
                    let _ = output.flush();
                    w.game_over(game, last_valid_mover);
                }
                return Outcome::Halted;
            }
            Ok(false) => {}
            Err(e) => return Outcome::RuntimeError(e.to_string()),
        }
        let Some(m) = program.moves.get(pc) else {
            if let Some(w) = watch.as_deref_mut() {
                let _ = output.flush();
                w.moves_ran_out();
            }
            return Outcome::Halted;
        };
        if max_steps.is_some_and(|max| steps >= max) {
            return Outcome::StepLimit(steps);
        }
        steps += 1;
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
                match game.step(m.turn, m.colour.index(), mv, input, output) {
                    // §5.1: an invalid move skips the next one when both
                    // stacks' tops are non-zero.
                    Ok(valid) => {
                        let skips = !valid && game.skip();
                        if let (Some(w), Some(before)) = (watch.as_deref_mut(), before) {
                            let _ = output.flush();
                            w.after(game, m, &before, valid, skips);
                        }
                        last_valid_mover = valid.then_some(m.colour.index());
                        pc += if skips { 2 } else { 1 };
                    }
                    Err(e) => return Outcome::RuntimeError(e.to_string()),
                }
            }
            Action::Place {
                kind,
                square,
                target,
            } => {
                game.place(m.colour.index(), kind, square);
                last_valid_mover = None;
                if let Some(w) = watch.as_deref_mut() {
                    w.after(game, m, &[], true, false);
                }
                pc = target;
            }
        }
    }
}
