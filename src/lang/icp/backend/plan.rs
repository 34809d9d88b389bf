//! The InfChessPro back ends' shared step: IR → plan. (Then view model →
//! askama template → C or Rust text, in `c.rs` and `rust.rs`.)
//!
//! [`plan`] works out, once for both targets, what each statement does
//! after its command: where control goes on success and on failure (§5),
//! and whether a branch is needed at all. The target modules turn that plan
//! into view models of plain, already-escaped strings; the templates only
//! lay them out.

use crate::codegen::sections::{Entry, Uses};
use crate::lang::icp::interp::{runtime_colour, runtime_kind};
use crate::lang::icp::ir::{
    Action, Colour, Command, LoopMember, PieceKind, Program, Statement, Target, Value,
};
use crate::lang::icp::opt::{BISHOP, KING, KNIGHT, PAWN, Placed, QUEEN, ROOK};
use crate::lang::icp::runtime::api;

/// How a target spells the runtime's numbers and names: the one thing the
/// C and Rust view models write differently in a command's operands.
pub struct Spelling {
    /// An integer literal (`i64::MIN` included).
    pub int: fn(i64) -> String,
    /// A runtime entry point as the target names it (`ICP_WHITE`,
    /// `icp_rt::Colour::White`), recorded in the program's uses.
    pub entry: fn(&mut Uses, &Entry) -> String,
    /// The condition that always holds.
    pub truth: &'static str,
    /// `when(cond, statement)`: the statement, run only if cond holds.
    pub when: fn(&str, &str) -> String,
    /// `effect(cond, call)`: a board call run for its effect (its result
    /// ignored), only if cond holds when there is one.
    pub effect: fn(Option<&str>, &str) -> String,
    /// The largest u64 (a slide's "as many moves as succeed").
    pub most: &'static str,
}

/// One statement of the view model, in the `switch` (C) or the `match`
/// (Rust) of the generated program.
pub struct CaseView {
    /// The label, as a constant of the target.
    pub label: String,
    /// The source line, safe inside a comment.
    pub comment: String,
    /// Whether the statement can hit a runtime error (input or memory), so
    /// the runtime must know its label (C).
    pub sets_current: bool,
    /// The statement that reads its `*` integers first (§6), if any.
    pub read: Option<String>,
    /// Output statements (text and count), each guarded by the reads.
    pub writes: Vec<String>,
    /// The success test when branching (e.g. `icp_n == 2 && icp_place(…)`).
    pub test: String,
    /// The command as a statement when not branching (may be empty).
    pub effect: String,
    /// Whether to branch on `test` to `on_success` or `on_failure`.
    pub branches: bool,
    /// Where control goes when the command succeeded.
    pub on_success: String,
    /// Where control goes when it failed.
    pub on_failure: String,
    /// For a loop ([`Command::Loop`]): the lines that run it and send
    /// control on (they replace the branch); else empty.
    pub loop_lines: Vec<String>,
}

/// A statement's command, guarded by its reads (§6): what the view models
/// of both targets show.
pub struct Guarded {
    /// The output statements, each run only when every `*` was read.
    pub writes: Vec<String>,
    /// The success test when branching.
    pub test: String,
    /// The command as a statement when not branching (may be empty).
    pub effect: String,
}

impl Spelling {
    /// An integer literal.
    pub fn int(&self, v: i64) -> String {
        (self.int)(v)
    }

    /// An operand: a literal, or the input slot it was read into.
    pub fn value(&self, v: Value) -> String {
        match v {
            Value::Lit(n) => self.int(n),
            Value::Input(k) => format!("icp_v[{k}]"),
        }
    }

    /// A colour, as the runtime names it.
    pub fn colour(&self, uses: &mut Uses, c: Colour) -> String {
        (self.entry)(uses, &api::COLOURS[runtime_colour(c) as usize])
    }

    /// A piece kind, as the runtime names it.
    pub fn kind(&self, uses: &mut Uses, k: PieceKind) -> String {
        (self.entry)(uses, &api::KINDS[runtime_kind(k) as usize])
    }

    /// Guards a statement's board call and output statements with its
    /// reads: `inputs` numbers must all have been read (§6).
    pub fn guard(&self, inputs: usize, call: Option<&str>, mut writes: Vec<String>) -> Guarded {
        let all_read = (inputs > 0).then(|| format!("icp_n == {inputs}"));
        // §6: at end of input the command is not performed, so a count whose
        // `*` jump target found nothing prints nothing.
        if let Some(r) = &all_read {
            for w in &mut writes {
                *w = (self.when)(r, w);
            }
        }
        let test = match (&all_read, call) {
            (Some(r), Some(c)) => format!("{r} && {c}"),
            (Some(r), None) => r.clone(),
            (None, Some(c)) => c.to_string(),
            (None, None) => self.truth.to_string(),
        };
        let effect = call.map_or(String::new(), |c| (self.effect)(all_read.as_deref(), c));
        Guarded {
            writes,
            test,
            effect,
        }
    }

    /// The board operation a place or move command is, as the runtime's
    /// entry point ([`api::PLACE`], [`api::MOVE_SQUARES`], …) and its
    /// arguments spelt for the target; `None` for the commands that are not
    /// board operations (nothing, text, count, loop). A place is
    /// [`api::OCCUPY`] in a program that moves no piece ([`moves`]).
    pub fn board_call(
        &self,
        uses: &mut Uses,
        command: &Command,
        moves: bool,
    ) -> Option<(Entry, String)> {
        self.board_call_args(uses, command, moves)
            .map(|(entry, args)| (entry, args.join(", ")))
    }

    /// [`Spelling::board_call`] with the arguments one by one. Records the
    /// colours and kinds it spells, not the entry point itself.
    pub fn board_call_args(
        &self,
        uses: &mut Uses,
        command: &Command,
        moves: bool,
    ) -> Option<(Entry, Vec<String>)> {
        let (entry, args) = match command {
            Command::Place { name, row, col, .. } if !moves => (
                api::OCCUPY,
                vec![name.to_string(), self.value(*row), self.value(*col)],
            ),
            Command::Place {
                name,
                colour,
                kind,
                row,
                col,
            } => (
                api::PLACE,
                vec![
                    name.to_string(),
                    self.colour(uses, *colour),
                    self.kind(uses, *kind),
                    self.value(*row),
                    self.value(*col),
                ],
            ),
            Command::MoveSquares { r1, c1, r2, c2 } => (
                api::MOVE_SQUARES,
                [r1, c1, r2, c2].map(|v| self.value(*v)).to_vec(),
            ),
            Command::MoveNameTo { name, row, col } => (
                api::MOVE_NAME_TO,
                vec![name.to_string(), self.value(*row), self.value(*col)],
            ),
            Command::MoveNameBy { name, drow, dcol } => (
                api::MOVE_NAME_BY,
                vec![name.to_string(), self.value(*drow), self.value(*dcol)],
            ),
            Command::Slide { name, drow, dcol } => (
                api::SLIDE,
                vec![
                    name.to_string(),
                    self.int(*drow),
                    self.int(*dcol),
                    self.most.to_string(),
                ],
            ),
            Command::Loop { .. } | Command::Nothing | Command::Text(_) | Command::Count(_) => {
                return None;
            }
        };
        Some((entry, args))
    }
}

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
    /// For a loop ([`Command::Loop`]): where control goes when the move
    /// of a member leaves it, with the members (indices in the loop) that
    /// go there, in order of their first member; empty for any other
    /// statement.
    pub exits: Vec<(Vec<usize>, Jump)>,
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
            let on_failure = resolve(s.on_failure, true);
            // A slide loop leaves only when a move fails (issue 13).
            let on_success = match s.command {
                Command::Slide { .. } => on_failure,
                _ => resolve(s.on_success, false),
            };
            let can_fail = s.inputs > 0 || can_fail(&s.command);
            let exits = match &s.command {
                Command::Loop { members, .. } => members
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| matches!(m.action, Action::Move { .. }))
                    .map(|(k, m)| {
                        // The optimiser makes no loop with a `*` target.
                        let exit = program
                            .goes_to(m.statement, statements[m.statement].on_failure)
                            .and_then(|j| statements.get(j))
                            .map_or(Jump::Halt, |n| Jump::Label(n.label));
                        (k, exit)
                    })
                    .fold(
                        Vec::new(),
                        |mut groups: Vec<(Vec<usize>, Jump)>, (k, exit)| {
                            match groups.iter_mut().find(|(_, j)| *j == exit) {
                                Some((ks, _)) => ks.push(k),
                                None => groups.push((vec![k], exit)),
                            }
                            groups
                        },
                    ),
                _ => Vec::new(),
            };
            StepPlan {
                statement: s,
                on_success,
                on_failure,
                branches: can_fail && on_success != on_failure && exits.is_empty(),
                exits,
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

/// Whether the program moves pieces: any move, slide or loop. A program
/// that does not places them with [`api::OCCUPY`], which keeps no colour
/// or kind.
pub fn moves(program: &Program) -> bool {
    program.statements.iter().any(|s| {
        matches!(
            s.command,
            Command::MoveSquares { .. }
                | Command::MoveNameTo { .. }
                | Command::MoveNameBy { .. }
                | Command::Slide { .. }
                | Command::Loop { .. }
        )
    })
}

/// Records the sections of the move rules that `program`'s pieces can
/// need, by the kinds and colours its places put on the board
/// ([`Placed`]): the check test and its parts where a colour with kings
/// meets pieces of the other (§7 rule 4 protects kings only), and the
/// runs its slides can take. (A kind's own rules come with its entry
/// point, [`api::KINDS`].) Nothing for a program that moves no piece.
pub fn rules(program: &Program, uses: &mut Uses) {
    if !moves(program) {
        return;
    }
    let placed = Placed::of(program);
    let [white, black] = placed.all();
    for (kings, enemy) in [(white, black), (black, white)] {
        if kings & KING == 0 || enemy == 0 {
            continue;
        }
        uses.section(api::CHECK);
        for (kinds, section) in [
            (KING, api::CHECK_KING),
            (KNIGHT, api::CHECK_KNIGHT),
            (PAWN, api::CHECK_PAWN),
            (QUEEN | ROOK | BISHOP, api::CHECK_SLIDERS),
        ] {
            if enemy & kinds != 0 {
                uses.section(section);
            }
        }
    }
    let mut slide = |name, drow, dcol| {
        let (line, knight) = placed.slide_paths(name, drow, dcol);
        if line {
            uses.section(api::SLIDE_LINE);
        }
        if knight {
            uses.section(api::SLIDE_KNIGHT);
        }
    };
    for s in &program.statements {
        match &s.command {
            Command::Slide { name, drow, dcol } => slide(*name, *drow, *dcol),
            Command::Loop { members, start: 0 } => {
                for m in members {
                    if let Action::Slide { name, drow, dcol } = m.action {
                        slide(name, drow, dcol);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether the program has a board: any command but nothing and text.
pub fn has_board(program: &Program) -> bool {
    program
        .statements
        .iter()
        .any(|s| !matches!(s.command, Command::Nothing | Command::Text(_)))
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

/// A loop of statements ([`Command::Loop`]) as both back ends declare it
/// once: a table of its members, named after its first member's label.
pub struct LoopTable {
    /// The label of its first member (in file order): the table is
    /// `icp_loop_LABEL` (C) or `ICP_LOOP_LABEL` (Rust).
    pub first: i64,
    /// Its members' labels and actions, in the order control goes round.
    pub members: Vec<(i64, Action)>,
}

impl LoopTable {
    /// Its members as a target spells them: `spell(kind, operands)`
    /// with the member's kind as the target names it ([`api::STEP_MOVE`],
    /// [`api::STEP_SLIDE`], [`api::STEP_NOTHING`], recorded in `uses`) and
    /// its operands (name, row offset, column offset; `None` for a `^`).
    pub fn items(
        &self,
        uses: &mut Uses,
        spelling: &Spelling,
        spell: fn(&str, Option<&str>) -> String,
    ) -> Vec<String> {
        self.members
            .iter()
            .map(|(_, action)| {
                let (entry, operands) = match *action {
                    Action::Move { name, drow, dcol } => (
                        api::STEP_MOVE,
                        Some(format!(
                            "{name}, {}, {}",
                            spelling.int(drow),
                            spelling.int(dcol)
                        )),
                    ),
                    Action::Slide { name, drow, dcol } => (
                        api::STEP_SLIDE,
                        Some(format!(
                            "{name}, {}, {}",
                            spelling.int(drow),
                            spelling.int(dcol)
                        )),
                    ),
                    Action::Nothing => (api::STEP_NOTHING, None),
                };
                spell(&(spelling.entry)(uses, &entry), operands.as_deref())
            })
            .collect()
    }
}

/// Every loop of `program`, in file order of their first members.
pub fn loop_tables(program: &Program) -> Vec<LoopTable> {
    program
        .statements
        .iter()
        .filter_map(|s| match &s.command {
            Command::Loop { members, start: 0 } => Some(LoopTable {
                first: s.label,
                members: members
                    .iter()
                    .map(|m| (program.statements[m.statement].label, m.action))
                    .collect(),
            }),
            _ => None,
        })
        .collect()
}

/// The comment over a loop member's code: which statements run as one.
pub fn loop_note(program: &Program, members: &[LoopMember]) -> String {
    let labels: Vec<String> = members
        .iter()
        .map(|m| program.statements[m.statement].label.to_string())
        .collect();
    format!(
        "Statements {} loop: run as one operation (-O0 to step)",
        labels.join(", ")
    )
}
