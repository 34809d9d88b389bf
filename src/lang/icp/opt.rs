//! The InfChessPro optimiser (issue 13): plain functions from IR to IR
//! that summarise loop idioms into operations the interpreter and both
//! runtimes execute in one go, leaving the program in exactly the state
//! stepping would (the same squares, captures, output, end of input, and
//! `--max-steps` count). `-O0` (`--no-opt`) skips it.
//!
//! - Slide loops, `L. name;dr,dc?L` with literal offsets: a statement
//!   that moves a named piece and jumps back to itself on success becomes
//!   [`Command::Slide`] (its success target stays itself, unused; control
//!   leaves by its failure target). The runtime's `slide` runs such a loop
//!   in one ray query per piece met when one piece has the name, its
//!   colour has no king, and the step is one square along a line or a
//!   knight's jump; else step by step, as before.
//! - Loops of statements ([`Command::Loop`]), found by [`loops`]: up to
//!   [`MAX_LOOP`] statements, each a move by literal offsets whose success
//!   goes on round the loop and whose failure leaves it, a `^`, or a slide
//!   loop whose failure goes on round it; at least one move. Transfer
//!   loops (`A. a;0,-1!B` / `A+1. b;0,1?A`, or closed by a `^?A`) and
//!   counter's outer loop (`x;0,1?6` / `x;0,-1?7` / `m;0,-1?6`) are such
//!   loops. The runtime's `run_loop` runs a round step by step, then as
//!   many identical rounds as it can prove in one go (see
//!   `docs/infchesspro.md`, "The optimiser").

use super::ir::{Action, Command, LoopMember, MAX_LOOP, Program, Target, Value};

/// `program` with every slide loop and every loop of statements
/// summarised.
pub fn optimise(mut program: Program) -> Program {
    let found = loops(&program);
    for (i, s) in program.statements.iter_mut().enumerate() {
        if let Command::MoveNameBy {
            name,
            drow: Value::Lit(drow),
            dcol: Value::Lit(dcol),
        } = s.command
            && s.inputs == 0
            && s.on_success == Some(Target::Statement(i))
        {
            s.command = Command::Slide { name, drow, dcol };
        }
    }
    for members in found {
        for (start, m) in members.iter().enumerate() {
            if let Some(s) = program.statements.get_mut(m.statement) {
                s.command = Command::Loop {
                    members: members.clone(),
                    start,
                };
            }
        }
    }
    program
}

/// What statement `i` is as a loop member, and where control goes on
/// round the loop from it: `None` for a statement that cannot be one.
fn member(program: &Program, i: usize) -> Option<(Action, usize)> {
    let s = program.statements.get(i)?;
    if s.inputs != 0 {
        return None;
    }
    let to = |t: Option<Target>| program.goes_to(i, t);
    match s.command {
        Command::MoveNameBy {
            name,
            drow: Value::Lit(drow),
            dcol: Value::Lit(dcol),
        } => {
            if s.on_success == Some(Target::Statement(i)) {
                Some((Action::Slide { name, drow, dcol }, to(s.on_failure)?))
            } else {
                Some((Action::Move { name, drow, dcol }, to(s.on_success)?))
            }
        }
        Command::Nothing => Some((Action::Nothing, to(s.on_success)?)),
        _ => None,
    }
}

/// Every loop of statements in `program` (see the module doc), each with
/// its members in the order control goes round them, starting from the
/// first in file order. A statement is in at most one loop: the way on
/// round from each statement is unique.
pub fn loops(program: &Program) -> Vec<Vec<LoopMember>> {
    let statements = &program.statements;
    let mut found = Vec::new();
    for first in 0..statements.len() {
        let mut members: Vec<LoopMember> = Vec::new();
        let mut at = first;
        let closed = loop {
            let Some((action, next)) = member(program, at) else {
                break false;
            };
            members.push(LoopMember {
                statement: at,
                action,
            });
            if next == first {
                break true;
            }
            // Found from its first statement in file order only; a path
            // that meets a member again (not the first) is no loop of it.
            if next < first
                || members.len() == MAX_LOOP
                || members.iter().any(|m| m.statement == next)
            {
                break false;
            }
            at = next;
        };
        // One member alone is a slide loop (or `^?itself`), not a loop
        // of statements. A move's failure must leave the loop; one move
        // at least, or nothing ever leaves.
        let leaves = |m: &LoopMember| {
            program
                .goes_to(m.statement, statements[m.statement].on_failure)
                .is_some_and(|exit| !members.iter().any(|o| o.statement == exit))
        };
        let moves: Vec<&LoopMember> = members
            .iter()
            .filter(|m| matches!(m.action, Action::Move { .. }))
            .collect();
        if closed && members.len() > 1 && !moves.is_empty() && moves.iter().all(|m| leaves(m)) {
            found.push(members);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(source: &str) -> Vec<Command> {
        let program = crate::lang::icp::check(source).unwrap().program;
        optimise(program)
            .statements
            .into_iter()
            .map(|s| s.command)
            .collect()
    }

    #[test]
    fn slide_loops_and_nothing_else() {
        let c =
            commands("1. x=R0,0\n2. x;0,1?2\n3. x;0,-1?3\n4. x;*,1?4\n5. x;0,1?1\n6. x;0,1!6\n");
        assert_eq!(
            c[1],
            Command::Slide {
                name: 0,
                drow: 0,
                dcol: 1
            }
        );
        assert_eq!(
            c[2],
            Command::Slide {
                name: 0,
                drow: 0,
                dcol: -1
            }
        );
        // Read offsets, a jump elsewhere, a failure jump to itself: kept.
        assert!(matches!(c[3], Command::MoveNameBy { .. }));
        assert!(matches!(c[4], Command::MoveNameBy { .. }));
        assert!(matches!(c[5], Command::MoveNameBy { .. }));
    }
}
