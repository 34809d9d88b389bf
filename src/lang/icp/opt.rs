//! The InfChessPro optimiser (issue 13): plain functions from IR to IR
//! that summarise loop idioms into operations the interpreter and both
//! runtimes execute in one go, leaving the program in exactly the state
//! stepping would (the same squares, captures, output, end of input, and
//! `--max-steps` count). `-O0` (`--no-opt`) skips it.
//!
//! Today: slide loops, `L. name;dr,dc?L` with literal offsets: a statement
//! that moves a named piece and jumps back to itself on success becomes
//! [`Command::Slide`] (its success target stays itself, unused; control
//! leaves by its failure target). The runtime's `slide` runs such a loop
//! in one ray query per piece met when one piece has the name, its colour
//! has no king, and the step is one square along a line; else step by
//! step, as before.

use super::ir::{Command, Program, Target, Value};

/// `program` with every slide loop summarised.
pub fn optimise(mut program: Program) -> Program {
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
    program
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
