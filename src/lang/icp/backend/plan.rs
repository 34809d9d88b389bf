//! The InfChessPro back ends' shared step: IR → plan. (Then view model →
//! askama template → C or Rust text, in `c.rs` and `rust.rs`.)
//!
//! [`plan`] works out, once for both targets, what each statement does
//! after its command: where control goes on success and on failure (§5),
//! and whether a branch is needed at all. The target modules turn that plan
//! into view models of plain, already-escaped strings; the templates only
//! lay them out.

use crate::lang::icp::ir::{Command, Program, Statement, Target};

/// Where control goes after a statement (§5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    /// To the statement with this label.
    Label(i64),
    /// Off the end of the program: exit status 0.
    Halt,
    /// To the label read into input slot `slot`. When `check_eof` is set the
    /// slot may be unread (end of input), which is a runtime error (§6).
    Input {
        /// Which `*` of the statement.
        slot: usize,
        /// Whether end of input must be checked before the jump.
        check_eof: bool,
    },
}

/// What a back end needs to know about one statement beyond its command.
#[derive(Clone, Debug)]
pub struct StepPlan<'a> {
    /// The statement.
    pub statement: &'a Statement,
    /// Where to go when the command succeeded.
    pub on_success: Jump,
    /// Where to go when it failed (or end of input was met).
    pub on_failure: Jump,
    /// False when the command cannot fail (no input, and `^`, text or count)
    /// or both outcomes go to the same place: then no branch is emitted.
    pub branches: bool,
}

/// Plans every statement of `program`, in order.
pub fn plan(program: &Program) -> Vec<StepPlan<'_>> {
    let statements = &program.statements;
    statements
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let next = statements
                .get(i + 1)
                .map_or(Jump::Halt, |n| Jump::Label(n.label));
            let resolve = |t: Option<Target>, on_failure: bool| match t {
                None => next,
                Some(Target::Statement(j)) => Jump::Label(statements[j].label),
                Some(Target::Input(slot)) => Jump::Input {
                    slot,
                    check_eof: on_failure,
                },
            };
            let on_success = resolve(s.on_success, false);
            let on_failure = resolve(s.on_failure, true);
            let can_fail = s.inputs > 0 || can_fail(&s.command);
            StepPlan {
                statement: s,
                on_success,
                on_failure,
                branches: can_fail && on_success != on_failure,
            }
        })
        .collect()
}

/// Whether a command can fail by itself (§4): only places and moves can.
pub fn can_fail(command: &Command) -> bool {
    !matches!(
        command,
        Command::Nothing | Command::Text(_) | Command::Count(_)
    )
}

/// Whether any statement jumps to a label read from input.
pub fn has_input_jumps(program: &Program) -> bool {
    program.statements.iter().any(|s| {
        matches!(s.on_success, Some(Target::Input(_)))
            || matches!(s.on_failure, Some(Target::Input(_)))
    })
}

/// The largest number of `*` read by one statement.
pub fn max_inputs(program: &Program) -> usize {
    program
        .statements
        .iter()
        .map(|s| s.inputs)
        .max()
        .unwrap_or(0)
}
