//! The C back end: one C99 file needing only libc, with the sections of
//! the board runtime (`runtime/board.c` and its parts `runtime/board/*.c`)
//! that the program uses embedded.
//! Statements are the cases of a `switch` on the current label inside a
//! loop; a `*` jump target goes through the same switch, whose `default`
//! reports the missing label (§5, §8).

use super::plan::{
    CaseView, Jump, Spelling, StepPlan, has_board, has_input_jumps, loop_note, loop_tables,
    max_inputs, moves, plan, rules,
};
use crate::codegen::escape::{c_string_chunks, comment};
use crate::codegen::sections::{Markers, Runtime, Uses};
use crate::codegen::{self, Syntax, literal};
use crate::lang::Lang;
use crate::lang::icp::ir::{Command, Program};
use crate::lang::icp::runtime::api;
use askama::Template;
use std::collections::BTreeSet;
use std::sync::OnceLock;

const NAME: &str = <super::super::InfChessPro as Lang>::NAME;

/// The C runtime, cut into sections: the shared C prelude
/// (`src/codegen/prelude.c`), then the board runtime: `board.c` and its
/// parts by concern, `board/*.c`, a blank line between, in the order of
/// `board.rs`'s `include!`s (the twins have the same names). A program
/// carries the sections its calls reach ([`runtime`]).
pub const RUNTIME: &str = concat!(
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/codegen/prelude.c"
    )),
    include_str!("../runtime/board.c"),
    "\n",
    include_str!("../runtime/board/pieces.c"),
    "\n",
    include_str!("../runtime/board/table.c"),
    "\n",
    include_str!("../runtime/board/rays.c"),
    "\n",
    include_str!("../runtime/board/moves.c"),
    "\n",
    include_str!("../runtime/board/loops.c"),
    "\n",
    include_str!("../runtime/board/io.c")
);

/// [`RUNTIME`] parsed into its sections, once.
pub fn sections() -> &'static Runtime<'static> {
    static PARSED: OnceLock<Runtime<'static>> = OnceLock::new();
    PARSED.get_or_init(|| {
        Runtime::parse(RUNTIME, Markers::C).expect("the C runtime's section markers parse")
    })
}

/// The runtime `program`'s C carries, as pasted into it, and the sections
/// that text holds (in name order).
pub fn runtime(program: &Program) -> (String, BTreeSet<&'static str>) {
    let uses = view(program, "").1;
    (sections().select(&uses), sections().reach(&uses))
}

#[derive(Template)]
#[template(path = "icp/c/program.c", escape = "none")]
struct ProgramView {
    /// [`codegen::header`].
    header: String,
    runtime: String,
    /// The board's set-up, when the program has a board.
    board_init: Option<String>,
    /// The missing label's report (§5), when a `*` jump may meet one.
    no_label: Option<&'static str>,
    names: Vec<String>,
    first_label: String,
    max_inputs: usize,
    input_jumps: bool,
    /// The statements, when the program is small enough for one `switch`
    /// (at most [`CHUNK`] statements); else empty.
    cases: Vec<CaseView>,
    /// The statements cut into chunks of [`CHUNK`], one function each, for
    /// a larger program; else empty.
    chunks: Vec<ChunkView>,
    /// More than [`LEAN`] statements: gcc compiles the chunk functions
    /// without optimisation.
    lean: bool,
    /// The definition of `ICP_CHUNK` when `lean`
    /// ([`codegen::chunks::LOOPING_C_LEAN`]).
    c_lean: &'static str,
    /// The loops' member tables (issue 13), as C declarations.
    loop_tables: Vec<String>,
    /// A loop has several members whose moves can leave it: the member
    /// that left is kept in `icp_exit`.
    multi_exit: bool,
}

/// Above this many statements, gcc compiles the statement dispatch (the
/// chunk functions) at `-O0` ([`codegen::chunks::LEAN`]); statements per
/// chunk function ([`codegen::chunks::LOOPING_C_CHUNK`]). Both are
/// defined with every other language's, in `codegen::chunks`.
pub use crate::codegen::chunks::{LEAN, LOOPING_C_CHUNK as CHUNK};

/// One chunk function of a large program.
struct ChunkView {
    /// The first and last statement labels, as C constants.
    first: String,
    last: String,
    /// C condition: icp_label lies outside this chunk's label range (from
    /// its first label up to the next chunk's first label).
    leaves: String,
    cases: Vec<CaseView>,
}

/// Generates the C program for `program`; `source_name` is the file name
/// shown in the header comment (escaped here).
pub fn emit(program: &Program, source_name: &str) -> String {
    let (mut view, uses) = view(program, source_name);
    view.runtime = sections().select(&uses);
    codegen::render(&view, Syntax::C)
}

/// The view of `program` (its runtime left empty) and the runtime entry
/// points it uses.
fn view(program: &Program, source_name: &str) -> (ProgramView, Uses) {
    let mut uses = Uses::new();
    rules(program, &mut uses);
    let input_jumps = has_input_jumps(program);
    let view = ProgramView {
        header: codegen::header(NAME, source_name),
        runtime: String::new(),
        board_init: has_board(program)
            .then(|| format!("{}({});", uses.c(&api::BOARD), program.names.len())),
        no_label: input_jumps.then(|| uses.c(&api::NO_LABEL)),
        names: program.names.iter().map(|n| comment(n)).collect(),
        first_label: program
            .statements
            .first()
            .map_or("0".into(), |s| S.int(s.label)),
        max_inputs: max_inputs(program),
        input_jumps,
        cases: Vec::new(),
        chunks: Vec::new(),
        lean: program.statements.len() > LEAN,
        c_lean: codegen::chunks::LOOPING_C_LEAN,
        multi_exit: false,
        loop_tables: loop_tables(program)
            .iter()
            .map(|t| {
                let items = t.items(&mut uses, &S, |kind, args| {
                    format!("{{{kind}, {}}}", args.unwrap_or("0, 0, 0"))
                });
                format!(
                    "static const {} icp_loop_{}[{}] = {{{}}};",
                    uses.c(&api::LOOP_STEP),
                    t.first,
                    items.len(),
                    items.join(", ")
                )
            })
            .collect(),
    };
    let plans = plan(program);
    let moves = moves(program);
    let mut view = ProgramView {
        multi_exit: plans.iter().any(|p| p.exits.len() > 1),
        ..view
    };
    if plans.len() <= CHUNK {
        view.cases = plans
            .iter()
            .map(|p| case(program, p, "goto icp_halt;", moves, &mut uses))
            .collect();
    } else {
        let parts: Vec<&[super::plan::StepPlan<'_>]> = plans.chunks(CHUNK).collect();
        for (k, part) in parts.iter().enumerate() {
            let first = part.first().map_or(0, |p| p.statement.label);
            let last = part.last().map_or(0, |p| p.statement.label);
            let mut leaves = Vec::new();
            if k > 0 {
                leaves.push(format!("icp_label < {}", S.int(first)));
            }
            if let Some(next) = parts.get(k + 1).and_then(|n| n.first()) {
                leaves.push(format!("icp_label >= {}", S.int(next.statement.label)));
            }
            view.chunks.push(ChunkView {
                first: S.int(first),
                last: S.int(last),
                leaves: leaves.join(" || "),
                cases: part
                    .iter()
                    .map(|p| case(program, p, "return 0;", moves, &mut uses))
                    .collect(),
            });
        }
    }
    (view, uses)
}

/// Operands as C spells them (constants plain when they fit an `int`).
const S: Spelling = Spelling {
    int: literal::c_int,
    entry: |uses, entry| uses.c(entry).to_string(),
    truth: "1",
    when: |cond, statement| format!("if ({cond}) {{ {statement} }}"),
    effect: |cond, call| match cond {
        Some(cond) => format!("if ({cond}) (void){call};"),
        None => format!("(void){call};"),
    },
    most: "UINT64_MAX",
};

/// The C statement for a jump; `halt` ends the program (`goto icp_halt;`
/// in `main`, `return 0;` in a chunk function).
fn jump(j: Jump, label: &str, halt: &str, uses: &mut Uses) -> String {
    match j {
        Jump::Label(l) => format!("icp_label = {}; break;", S.int(l)),
        Jump::Halt => halt.to_string(),
        Jump::Input { slot, check_eof } => {
            let check = if check_eof {
                format!(
                    "if (icp_n <= {slot}) {{ {}({label}); }} ",
                    uses.c(&api::END_OF_INPUT)
                )
            } else {
                String::new()
            };
            format!("{check}icp_from = {label}; icp_label = icp_v[{slot}]; break;")
        }
    }
}

/// The case of one statement; `moves`: whether the program moves pieces
/// (else it places them with [`api::OCCUPY`]).
fn case(program: &Program, p: &StepPlan<'_>, halt: &str, moves: bool, uses: &mut Uses) -> CaseView {
    let s = p.statement;
    let label = S.int(s.label);
    let mut loop_lines = Vec::new();
    if let Command::Loop { members, start } = &s.command {
        let first = members
            .first()
            .map_or(0, |m| program.statements[m.statement].label);
        let call = format!(
            "{}(icp_loop_{first}, {}, {start})",
            uses.c(&api::LOOP_EXIT),
            members.len()
        );
        loop_lines.push(format!("/* {} */", comment(&loop_note(program, members))));
        match p.exits.as_slice() {
            [(_, only)] => {
                loop_lines.push(format!("(void){call};"));
                loop_lines.push(jump(*only, &label, halt, uses));
            }
            exits => {
                loop_lines.push(format!("icp_exit = {call};"));
                for (i, (ks, exit)) in exits.iter().enumerate() {
                    let test: Vec<String> = ks.iter().map(|k| format!("icp_exit == {k}")).collect();
                    let test = test.join(" || ");
                    let head = match i {
                        0 => format!("if ({test}) {{"),
                        _ if i + 1 == exits.len() => "} else {".to_string(),
                        _ => format!("}} else if ({test}) {{"),
                    };
                    loop_lines.push(head);
                    loop_lines.push(format!("    {}", jump(*exit, &label, halt, uses)));
                }
                loop_lines.push("}".to_string());
            }
        }
    }
    let mut writes = Vec::new();
    let call = S
        .board_call(uses, &s.command, moves)
        .map(|(entry, args)| format!("{}({args})", uses.c(&entry)));
    match &s.command {
        Command::Text(text) => {
            for (body, len) in c_string_chunks(&format!("{text}\n")) {
                writes.push(format!("{}(\"{body}\", {len});", uses.c(&api::TEXT)));
            }
        }
        Command::Count(name) => {
            writes.push(format!(
                "{}({}({name}));",
                uses.c(&api::WRITE_COUNT),
                uses.c(&api::COUNT)
            ));
        }
        _ => {}
    }
    let guarded = S.guard(s.inputs, call.as_deref(), writes);
    let sets_current = s.inputs > 0 || call.is_some();
    if sets_current {
        // `icp_current_label`, which the runtime's errors name (§8).
        uses.add(&api::ERROR_MESSAGE);
    }
    CaseView {
        sets_current,
        read: (s.inputs > 0)
            .then(|| format!("icp_n = {}(icp_v, {});", uses.c(&api::READ), s.inputs)),
        writes: guarded.writes,
        test: guarded.test,
        effect: guarded.effect,
        branches: p.branches,
        // A loop's own lines send control on; the failure target is taken
        // only by a statement that branches.
        on_success: if loop_lines.is_empty() {
            jump(p.on_success, &label, halt, uses)
        } else {
            String::new()
        },
        on_failure: if p.branches && loop_lines.is_empty() {
            jump(p.on_failure, &label, halt, uses)
        } else {
            String::new()
        },
        loop_lines,
        comment: comment(&s.text),
        label,
    }
}
