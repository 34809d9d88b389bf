//! The Rust back end: a single `rustc`-ready file, or a Cargo crate. The
//! board runtime is `runtime/board.rs`, the very file compiled into
//! icp2c for `icp2c run`, embedded verbatim. Statements are the arms of a
//! `match` on the current label inside a `loop`.

use super::plan::{Jump, StepPlan, has_input_jumps, max_inputs, plan};
use crate::GeneratedFile;
use crate::codegen::escape::{comment, rust_string};
use crate::codegen::{self, EmitRequest, Syntax, literal};
use crate::lang::Lang;
use crate::lang::icp::interp::{runtime_colour, runtime_kind};
use crate::lang::icp::ir::{Command, Program, Value};
use crate::lang::icp::runtime::board as rt;
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
    cases: Vec<CaseView>,
}

struct CaseView {
    label: String,
    comment: String,
    reads: Option<usize>,
    writes: Vec<String>,
    test: String,
    effect: String,
    branches: bool,
    on_success: String,
    on_failure: String,
}

/// Generates one self-contained Rust file (runtime inlined) that
/// `rustc --edition 2021 -O -D warnings FILE.rs` builds.
pub fn emit(program: &Program, source_name: &str) -> String {
    render(program, source_name, Some(RUNTIME))
}

/// Generates a Cargo crate: `Cargo.toml` (package named after `stem`, made
/// a valid crate name), `src/main.rs` and `src/icp_rt.rs` (the runtime).
pub fn emit_crate(program: &Program, request: &EmitRequest<'_>) -> Vec<GeneratedFile> {
    codegen::crate_files(
        request,
        render(program, request.source_name, None),
        codegen::runtime_module(NAME, RUNTIME),
    )
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
    let cases: Vec<CaseView> = plans.iter().map(case).collect();
    let view = ProgramView {
        header: codegen::header(NAME, source_name),
        inline_runtime,
        name_count: program.names.len(),
        first_label: program
            .statements
            .first()
            .map_or("0".into(), |s| int(s.label)),
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
    };
    codegen::render(&view, Syntax::Rust)
}

fn int(v: i64) -> String {
    literal::rust_i64(v)
}

fn value(v: Value) -> String {
    match v {
        Value::Lit(n) => int(n),
        Value::Input(k) => format!("icp_v[{k}]"),
    }
}

fn colour(c: crate::lang::icp::ir::Colour) -> &'static str {
    match runtime_colour(c) {
        rt::Colour::White => "icp_rt::Colour::White",
        rt::Colour::Black => "icp_rt::Colour::Black",
    }
}

fn kind(k: crate::lang::icp::ir::PieceKind) -> &'static str {
    match runtime_kind(k) {
        rt::Kind::King => "icp_rt::Kind::King",
        rt::Kind::Queen => "icp_rt::Kind::Queen",
        rt::Kind::Rook => "icp_rt::Kind::Rook",
        rt::Kind::Bishop => "icp_rt::Kind::Bishop",
        rt::Kind::Knight => "icp_rt::Kind::Knight",
        rt::Kind::Pawn => "icp_rt::Kind::Pawn",
    }
}

fn jump(j: Jump, label: &str) -> String {
    match j {
        Jump::Label(l) => format!("icp_label = {};", int(l)),
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
    let label = int(s.label);
    let fail = format!(".map_err(|f| ({label}, f))?");
    let mut writes = Vec::new();
    let call = match &s.command {
        Command::Place {
            name,
            colour: c,
            kind: k,
            row,
            col,
        } => Some(format!(
            "icp_board.place({name}, {}, {}, {}, {}){fail}",
            colour(*c),
            kind(*k),
            value(*row),
            value(*col)
        )),
        Command::MoveSquares { r1, c1, r2, c2 } => Some(format!(
            "icp_board.move_squares({}, {}, {}, {}){fail}",
            value(*r1),
            value(*c1),
            value(*r2),
            value(*c2)
        )),
        Command::MoveNameTo { name, row, col } => Some(format!(
            "icp_board.move_name_to({name}, {}, {}){fail}",
            value(*row),
            value(*col)
        )),
        Command::MoveNameBy { name, drow, dcol } => Some(format!(
            "icp_board.move_name_by({name}, {}, {}){fail}",
            value(*drow),
            value(*dcol)
        )),
        Command::Nothing => None,
        Command::Text(text) => {
            writes.push(format!(
                "icp_rt::write_text(icp_out, \"{}\"){fail};",
                rust_string(&format!("{text}\n"))
            ));
            None
        }
        Command::Count(name) => {
            writes.push(format!(
                "icp_rt::write_count(icp_out, icp_board.count({name})){fail};"
            ));
            None
        }
    };
    let all_read = (s.inputs > 0).then(|| format!("icp_n == {}", s.inputs));
    // §6: at end of input the command is not performed, so a count whose
    // `*` jump target found nothing prints nothing.
    if let Some(r) = &all_read {
        for w in &mut writes {
            *w = format!("if {r} {{ {w} }}");
        }
    }
    let test = match (&all_read, &call) {
        (Some(r), Some(c)) => format!("{r} && {c}"),
        (Some(r), None) => r.clone(),
        (None, Some(c)) => c.clone(),
        (None, None) => "true".to_string(),
    };
    let effect = match (&all_read, &call) {
        (Some(r), Some(c)) => format!("if {r} {{ {c}; }}"),
        (None, Some(c)) => format!("{c};"),
        _ => String::new(),
    };
    CaseView {
        reads: (s.inputs > 0).then_some(s.inputs),
        writes,
        test,
        effect,
        branches: p.branches,
        on_success: jump(p.on_success, &label),
        on_failure: jump(p.on_failure, &label),
        comment: comment(&s.text),
        label,
    }
}
