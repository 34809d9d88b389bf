//! The C back end: one C99 file needing only libc, with the board runtime
//! (`runtime/board.c`) embedded. Statements are the cases of a
//! `switch` on the current label inside a loop; a `*` jump target goes
//! through the same switch, whose `default` reports the missing label (§5,
//! §8).

use super::plan::{Jump, StepPlan, has_input_jumps, max_inputs, plan};
use crate::codegen::escape::{c_string_chunks, comment};
use crate::codegen::{self, Syntax, literal};
use crate::lang::Lang;
use crate::lang::icp::interp::{runtime_colour, runtime_kind};
use crate::lang::icp::ir::{Command, Program, Value};
use crate::lang::icp::runtime::board as rt;
use askama::Template;

const NAME: &str = <super::super::InfChessPro as Lang>::NAME;

/// The C runtime, pasted verbatim into every generated program: the shared
/// C prelude (`src/codegen/prelude.c`), then the board runtime.
pub const RUNTIME: &str = concat!(
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/codegen/prelude.c"
    )),
    include_str!("../runtime/board.c")
);

#[derive(Template)]
#[template(path = "icp/c/program.c", escape = "none")]
struct ProgramView {
    /// [`codegen::header`].
    header: String,
    runtime: &'static str,
    names: Vec<String>,
    name_count: usize,
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
}

/// Above this many statements, gcc compiles the statement dispatch (the
/// chunk functions) at `-O0` whatever the command line says: at `-O2` it
/// spends about a millisecond per statement on a loop-and-switch state
/// machine, whatever its shape (measured on chunk sizes 64 to 512, with
/// `goto`s, with conditional expressions), which is minutes for 10^5
/// statements. The board runtime, where a statement's work is done, stays
/// optimised; dispatch costs a few nanoseconds more per statement.
pub const LEAN: usize = 4096;

/// Statements per chunk function. A program of at most this many
/// statements is one `switch` in `main`; a larger one is cut into
/// functions of this many statements, so that `cc -O2` does not meet one
/// giant function (its time grows faster than linearly in the size of a
/// function) and a jump between statements of one chunk stays a jump
/// inside one `switch`.
pub const CHUNK: usize = 512;

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

/// One `case` of the switch.
struct CaseView {
    /// The label as a C constant.
    label: String,
    /// The source line, safe inside `/* */`.
    comment: String,
    /// Whether the statement can hit a runtime error (input or memory), so
    /// the runtime must know its label.
    sets_current: bool,
    /// `Some(n)`: read n integers first (§6).
    reads: Option<usize>,
    /// Statements run unconditionally (text and count output).
    writes: Vec<String>,
    /// The success test when branching (e.g. `icp_n == 2 && icp_place(…)`).
    test: String,
    /// The command as a statement when not branching (may be empty).
    effect: String,
    /// Whether to emit `if (test) { on_success } else { on_failure }`.
    branches: bool,
    on_success: String,
    on_failure: String,
}

/// Generates the C program for `program`; `source_name` is the file name
/// shown in the header comment (escaped here).
pub fn emit(program: &Program, source_name: &str) -> String {
    let view = ProgramView {
        header: codegen::header(NAME, source_name),
        runtime: RUNTIME,
        names: program.names.iter().map(|n| comment(n)).collect(),
        name_count: program.names.len(),
        first_label: program
            .statements
            .first()
            .map_or("0".into(), |s| int(s.label)),
        max_inputs: max_inputs(program),
        input_jumps: has_input_jumps(program),
        cases: Vec::new(),
        chunks: Vec::new(),
        lean: program.statements.len() > LEAN,
    };
    let plans = plan(program);
    let mut view = view;
    if plans.len() <= CHUNK {
        view.cases = plans.iter().map(|p| case(p, "goto icp_halt;")).collect();
    } else {
        let parts: Vec<&[super::plan::StepPlan<'_>]> = plans.chunks(CHUNK).collect();
        for (k, part) in parts.iter().enumerate() {
            let first = part.first().map_or(0, |p| p.statement.label);
            let last = part.last().map_or(0, |p| p.statement.label);
            let mut leaves = Vec::new();
            if k > 0 {
                leaves.push(format!("icp_label < {}", int(first)));
            }
            if let Some(next) = parts.get(k + 1).and_then(|n| n.first()) {
                leaves.push(format!("icp_label >= {}", int(next.statement.label)));
            }
            view.chunks.push(ChunkView {
                first: int(first),
                last: int(last),
                leaves: leaves.join(" || "),
                cases: part.iter().map(|p| case(p, "return 0;")).collect(),
            });
        }
    }
    codegen::render(&view, Syntax::C)
}

/// A C constant for an i64 (plain when it fits an int).
fn int(v: i64) -> String {
    literal::c_int(v)
}

fn value(v: Value) -> String {
    match v {
        Value::Lit(n) => int(n),
        Value::Input(k) => format!("icp_v[{k}]"),
    }
}

fn colour(c: crate::lang::icp::ir::Colour) -> &'static str {
    match runtime_colour(c) {
        rt::Colour::White => "ICP_WHITE",
        rt::Colour::Black => "ICP_BLACK",
    }
}

fn kind(k: crate::lang::icp::ir::PieceKind) -> &'static str {
    match runtime_kind(k) {
        rt::Kind::King => "ICP_KING",
        rt::Kind::Queen => "ICP_QUEEN",
        rt::Kind::Rook => "ICP_ROOK",
        rt::Kind::Bishop => "ICP_BISHOP",
        rt::Kind::Knight => "ICP_KNIGHT",
        rt::Kind::Pawn => "ICP_PAWN",
    }
}

/// The C statement for a jump; `halt` ends the program (`goto icp_halt;`
/// in `main`, `return 0;` in a chunk function).
fn jump(j: Jump, label: &str, halt: &str) -> String {
    match j {
        Jump::Label(l) => format!("icp_label = {}; break;", int(l)),
        Jump::Halt => halt.to_string(),
        Jump::Input { slot, check_eof } => {
            let check = if check_eof {
                // The message is the Rust runtime's, written once
                // (tests/runtimes_in_step.rs).
                format!(
                    "if (icp_n <= {slot}) {{ icp_die({label}, \"{}\"); }} ",
                    c_string_chunks(&rt::Fault::EndOfInputInTarget.cause())[0].0
                )
            } else {
                String::new()
            };
            format!("{check}icp_from = {label}; icp_label = icp_v[{slot}]; break;")
        }
    }
}

fn case(p: &StepPlan<'_>, halt: &str) -> CaseView {
    let s = p.statement;
    let label = int(s.label);
    let mut writes = Vec::new();
    let call = match &s.command {
        Command::Place {
            name,
            colour: c,
            kind: k,
            row,
            col,
        } => Some(format!(
            "icp_place({name}, {}, {}, {}, {})",
            colour(*c),
            kind(*k),
            value(*row),
            value(*col)
        )),
        Command::MoveSquares { r1, c1, r2, c2 } => Some(format!(
            "icp_move_squares({}, {}, {}, {})",
            value(*r1),
            value(*c1),
            value(*r2),
            value(*c2)
        )),
        Command::MoveNameTo { name, row, col } => Some(format!(
            "icp_move_name_to({name}, {}, {})",
            value(*row),
            value(*col)
        )),
        Command::MoveNameBy { name, drow, dcol } => Some(format!(
            "icp_move_name_by({name}, {}, {})",
            value(*drow),
            value(*dcol)
        )),
        Command::Nothing => None,
        Command::Text(text) => {
            for (body, len) in c_string_chunks(&format!("{text}\n")) {
                writes.push(format!("icp_write_text(\"{body}\", {len});"));
            }
            None
        }
        Command::Count(name) => {
            writes.push(format!("icp_write_count(icp_count({name}));"));
            None
        }
    };
    let all_read = (s.inputs > 0).then(|| format!("icp_n == {}", s.inputs));
    // §6: at end of input the command is not performed, so a count whose
    // `*` jump target found nothing prints nothing.
    if let Some(r) = &all_read {
        for w in &mut writes {
            *w = format!("if ({r}) {{ {w} }}");
        }
    }
    let test = match (&all_read, &call) {
        (Some(r), Some(c)) => format!("{r} && {c}"),
        (Some(r), None) => r.clone(),
        (None, Some(c)) => c.clone(),
        (None, None) => "1".to_string(),
    };
    let effect = match (&all_read, &call) {
        (Some(r), Some(c)) => format!("if ({r}) (void){c};"),
        (None, Some(c)) => format!("(void){c};"),
        _ => String::new(),
    };
    CaseView {
        sets_current: s.inputs > 0 || call.is_some(),
        reads: (s.inputs > 0).then_some(s.inputs),
        writes,
        test,
        effect,
        branches: p.branches,
        on_success: jump(p.on_success, &label, halt),
        on_failure: jump(p.on_failure, &label, halt),
        comment: comment(&s.text),
        label,
    }
}
