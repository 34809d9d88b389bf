//! The Rust back end: a single `rustc`-ready file, or a Cargo crate. The
//! board runtime is `runtime/board.rs`, the very file compiled into
//! icp2c for `icp2c run`, embedded verbatim. Statements are the arms of a
//! `match` on the current label inside a `loop`.

use super::plan::{CaseView, Jump, Spelling, StepPlan, has_input_jumps, max_inputs, plan};
use crate::codegen::escape::{comment, rust_string};
use crate::codegen::{self, Syntax, literal};
use crate::lang::Lang;
use crate::lang::icp::ir::{Command, Program};
use askama::Template;

const NAME: &str = <super::super::InfChessPro as Lang>::NAME;

/// The shared Rust board runtime source.
pub const RUNTIME: &str = include_str!("../runtime/board.rs");

#[derive(Template)]
#[template(path = "icp/rust/program.rs", escape = "none")]
struct ProgramView {
    /// [`codegen::header`].
    header: String,
    /// `Some(text)`: the runtime inlined as `mod icp_rt { … }` (single
    /// file); `None`: `mod icp_rt;` (crate).
    inline_runtime: Option<&'static str>,
    name_count: usize,
    first_label: String,
    max_inputs: usize,
    input_jumps: bool,
    label_changes: bool,
    /// Some statement places or moves pieces (the board must be `mut`).
    board_mut: bool,
    /// Some statement reads the board at all.
    board_used: bool,
    /// Some path runs off the end (else the loop never ends and nothing
    /// may follow it).
    halts: bool,
    /// Some statement prints (text or count).
    writes_output: bool,
    /// The statements, when the program has at most [`CHUNK`] of them;
    /// else empty.
    cases: Vec<CaseView>,
    /// The statements cut into functions of [`CHUNK`], for a larger
    /// program; else empty.
    chunks: Vec<ChunkView>,
    chunk_size: usize,
}

/// Statements per function in the generated Rust of a large program. One
/// `match` of 10,000 arms in one function made `rustc -O` superlinear
/// (286 s and 4.3 GB); functions of this many statements keep it linear.
/// A program of at most this many statements is one `match`, as before.
pub const CHUNK: usize = 256;

/// One function of a large program's statements.
struct ChunkView {
    index: usize,
    /// First and last labels of its statements (Rust literals).
    first: String,
    last: String,
    /// The first label of the next function, if any: the dispatcher sends
    /// every label below it (and not below this one's first) here.
    next: Option<String>,
    /// A Rust condition on `icp_label`: the label belongs to this function's
    /// range, so a missing one is the §5 "no such label" error here.
    owns: String,
    cases: Vec<CaseView>,
}

/// Generates one self-contained Rust file (runtime inlined) that
/// `rustc --edition 2021 -O -D warnings FILE.rs` builds.
pub fn emit(program: &Program, source_name: &str) -> String {
    render(program, source_name, Some(RUNTIME))
}

/// Generated Rust: one file with the runtime inlined (`single_file`), or
/// the `src/main.rs` of a crate, which declares `mod icp_rt;`.
pub fn emit_rust(program: &Program, source_name: &str, single_file: bool) -> String {
    render(program, source_name, single_file.then_some(RUNTIME))
}

fn render(program: &Program, source_name: &str, inline_runtime: Option<&'static str>) -> String {
    let plans = plan(program);
    let jumps = || plans.iter().flat_map(|p| [p.on_success, p.on_failure]);
    let label_changes = jumps().any(|j| j != Jump::Halt);
    let halts = jumps().any(|j| j == Jump::Halt);
    let board_mut = program
        .statements
        .iter()
        .any(|s| super::plan::can_fail(&s.command));
    let board_used = board_mut
        || program
            .statements
            .iter()
            .any(|s| matches!(s.command, Command::Count(_)));
    let all: Vec<CaseView> = plans.iter().map(case).collect();
    let (cases, chunks) = if all.len() <= CHUNK {
        (all, Vec::new())
    } else {
        let firsts: Vec<i64> = plans
            .chunks(CHUNK)
            .map(|part| part.first().map_or(0, |p| p.statement.label))
            .collect();
        let mut chunks = Vec::new();
        let mut rest = all.into_iter();
        for (index, part) in plans.chunks(CHUNK).enumerate() {
            let next = firsts.get(index + 1).copied();
            let low = if index == 0 {
                None
            } else {
                firsts.get(index).copied()
            };
            let owns = match (low, next) {
                (None, Some(n)) => format!("icp_label < {}", S.int(n)),
                (Some(l), Some(n)) => format!("({}..{}).contains(&icp_label)", S.int(l), S.int(n)),
                (Some(l), None) => format!("icp_label >= {}", S.int(l)),
                (None, None) => "true".to_string(),
            };
            chunks.push(ChunkView {
                index,
                first: S.int(part.first().map_or(0, |p| p.statement.label)),
                last: S.int(part.last().map_or(0, |p| p.statement.label)),
                next: next.map(|n| S.int(n)),
                owns,
                cases: rest.by_ref().take(part.len()).collect(),
            });
        }
        (Vec::new(), chunks)
    };
    let view = ProgramView {
        header: codegen::header(NAME, source_name),
        inline_runtime,
        name_count: program.names.len(),
        first_label: program
            .statements
            .first()
            .map_or("0".into(), |s| S.int(s.label)),
        max_inputs: max_inputs(program),
        input_jumps: has_input_jumps(program),
        label_changes,
        board_mut,
        board_used,
        halts,
        writes_output: program
            .statements
            .iter()
            .any(|s| matches!(s.command, Command::Text(_) | Command::Count(_))),
        cases,
        chunks,
        chunk_size: CHUNK,
    };
    codegen::render(&view, Syntax::Rust)
}

/// Operands as Rust spells them.
const S: Spelling = Spelling {
    int: literal::rust_i64,
    colours: ["icp_rt::Colour::White", "icp_rt::Colour::Black"],
    kinds: [
        "icp_rt::Kind::King",
        "icp_rt::Kind::Queen",
        "icp_rt::Kind::Rook",
        "icp_rt::Kind::Bishop",
        "icp_rt::Kind::Knight",
        "icp_rt::Kind::Pawn",
    ],
    truth: "true",
    when: |cond, statement| format!("if {cond} {{ {statement} }}"),
    effect: |cond, call| match cond {
        Some(cond) => format!("if {cond} {{ {call}; }}"),
        None => format!("{call};"),
    },
};

fn jump(j: Jump, label: &str) -> String {
    match j {
        Jump::Label(l) => format!("icp_label = {};", S.int(l)),
        Jump::Halt => "break;".to_string(),
        Jump::Input { slot, check_eof } => {
            let check = if check_eof {
                format!(
                    "if icp_n <= {slot} {{ return Err(({label}, icp_rt::Fault::EndOfInputInTarget)); }} "
                )
            } else {
                String::new()
            };
            format!("{check}icp_from = {label}; icp_label = icp_v[{slot}];")
        }
    }
}

fn case(p: &StepPlan<'_>) -> CaseView {
    let s = p.statement;
    let label = S.int(s.label);
    let fail = format!(".map_err(|f| ({label}, f))?");
    let mut writes = Vec::new();
    let call = S
        .board_call(&s.command)
        .map(|(function, args)| format!("icp_board.{function}({args}){fail}"));
    match &s.command {
        Command::Text(text) => {
            writes.push(format!(
                "icp_rt::write_text(icp_out, \"{}\"){fail};",
                rust_string(&format!("{text}\n"))
            ));
        }
        Command::Count(name) => {
            writes.push(format!(
                "icp_rt::write_count(icp_out, icp_board.count({name})){fail};"
            ));
        }
        _ => {}
    }
    let guarded = S.guard(s.inputs, call.as_deref(), writes);
    CaseView {
        sets_current: s.inputs > 0 || call.is_some(),
        reads: (s.inputs > 0).then_some(s.inputs),
        writes: guarded.writes,
        test: guarded.test,
        effect: guarded.effect,
        branches: p.branches,
        on_success: jump(p.on_success, &label),
        on_failure: jump(p.on_failure, &label),
        comment: comment(&s.text),
        label,
    }
}
