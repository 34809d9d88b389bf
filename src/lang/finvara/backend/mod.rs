//! C and Rust back ends. Each builds a view model of plain strings and
//! numbers here, and an askama template (templates/finvara/…) only lays
//! it out. The generated program is a loop around a `switch` (C) or a
//! `match` (Rust) with one case per move (§5): a valid or unskipped move
//! goes on at pc + 1, an invalid move whose stacks both have a non-zero
//! top skips to pc + 2 (§5.1), `checks turn m` jumps (§5.3). Every kind's
//! notation is already a path program (static data); the runtime, pasted
//! in, walks it. Output is deterministic byte for byte.

use super::ir::{Action, Program, Value};
use crate::codegen::escape::comment;
use crate::codegen::layout;
use crate::codegen::{self, Syntax, literal};
use crate::lang::Lang;
use crate::lang::finvara::runtime::board as fin_board;
use askama::Template;

const NAME: &str = <super::Finvara as Lang>::NAME;

/// The C runtime, pasted into every generated C file (not parsed by askama):
/// the shared C prelude (`src/codegen/prelude.c`), then the board runtime.
pub const C_RUNTIME: &str = concat!(
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/codegen/prelude.c"
    )),
    include_str!("../runtime/board.c")
);
/// The Rust runtime: the very file the interpreter uses.
pub const RUST_RUNTIME: &str = include_str!("../runtime/board.rs");

/// Numbers as initialiser lines of at most 16 values.
fn number_lines(values: &[i32], indent: &str) -> String {
    values
        .chunks(16)
        .map(|chunk| {
            let items: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
            format!("{indent}{},", items.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One static array of path-program or cell data.
struct DataArray {
    name: String,
    comment: String,
    len: usize,
    body: String,
}

/// One case of the move loop.
struct Case {
    index: usize,
    comment: String,
    lines: Vec<String>,
}

#[derive(Template)]
#[template(path = "finvara/c/program.c", escape = "none")]
struct CProgram {
    header: String,
    summary: String,
    runtime: String,
    arrays: Vec<DataArray>,
    kinds: Vec<String>,
    nkinds: usize,
    width: usize,
    height: usize,
    cells: String,
    ncells: usize,
    cases: Vec<Case>,
}

#[derive(Template)]
#[template(path = "finvara/rust/program.rs", escape = "none")]
struct RustProgram {
    header: String,
    summary: String,
    runtime: String,
    inline_runtime: bool,
    arrays: Vec<DataArray>,
    kinds: Vec<String>,
    nkinds: usize,
    width: usize,
    height: usize,
    cells: String,
    cases: Vec<Case>,
    input: &'static str,
    output: &'static str,
}

/// The second line of the header (the first is [`codegen::header`]).
fn summary(program: &Program) -> String {
    format!(
        "A Finvara program (spec: finvara.md): {} kinds, a {}x{} board, {} moves.",
        program.kinds.len(),
        program.width,
        program.height,
        program.moves.len()
    )
}

fn kind_comment(program: &Program, k: usize, colour: &str) -> String {
    let kind = &program.kinds[k];
    let value = match kind.value {
        None => "royal".to_string(),
        Some(Value::Int(v)) => v.to_string(),
        Some(Value::X) => "x".to_string(),
        Some(Value::Y) => "y".to_string(),
    };
    comment(&format!(
        "({} {}): {} -- {}",
        kind.symbol, value, kind.notation, colour
    ))
}

fn move_comment(program: &Program, i: usize) -> String {
    let m = &program.moves[i];
    comment(&format!("line {}: {}", m.line, m.text))
}

/// The path programs, per kind and colour, named with `prefix`.
/// The path-program data of every kind, white then black, in the order of
/// [`code_arrays`].
fn code_values(program: &Program) -> impl Iterator<Item = &Vec<i32>> {
    program.kinds.iter().flat_map(|kind| kind.code.iter())
}

fn code_arrays(program: &Program, upper: bool) -> Vec<DataArray> {
    let mut arrays = Vec::new();
    for (k, kind) in program.kinds.iter().enumerate() {
        for (c, colour) in ["white", "black"].iter().enumerate() {
            let name = format!("icp_code_{}_{}", k, if c == 0 { "w" } else { "b" });
            arrays.push(DataArray {
                name: if upper { name.to_uppercase() } else { name },
                comment: kind_comment(program, k, colour),
                len: kind.code[c].len(),
                body: number_lines(&kind.code[c], "    "),
            });
        }
    }
    arrays
}

/// A move as the runtime's step and place take it, for the target to
/// spell.
enum MoveOp {
    /// §5.1: `step(turn, colour, [kind, from, to, promote])`; skip to
    /// `skip_to` when invalid and skipped, else go on at `next`.
    Step {
        turn: u64,
        colour: usize,
        args: [String; 4],
        skip_to: usize,
        next: usize,
    },
    /// §5.3: `place(colour, kind, square)`, then go to `target`.
    Place {
        colour: usize,
        kind: usize,
        square: usize,
        target: usize,
    },
}

/// One case per move, its lines spelt by `lines`.
fn cases(program: &Program, lines: impl Fn(MoveOp) -> Vec<String>) -> Vec<Case> {
    program
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let colour = m.colour.index();
            let op = match &m.action {
                Action::Step {
                    kind,
                    from,
                    to,
                    promote,
                } => MoveOp::Step {
                    turn: m.turn,
                    colour,
                    args: [
                        kind.to_string(),
                        from.to_string(),
                        to.to_string(),
                        promote.map_or(-1, |p| p as i64).to_string(),
                    ],
                    skip_to: i + 2,
                    next: i + 1,
                },
                Action::Place {
                    kind,
                    square,
                    target,
                } => MoveOp::Place {
                    colour,
                    kind: *kind,
                    square: *square,
                    target: *target,
                },
            };
            Case {
                index: i,
                comment: move_comment(program, i),
                lines: lines(op),
            }
        })
        .collect()
}

/// One standalone C99 file (needs only libc).
pub fn emit_c(program: &Program, file_name: &str) -> String {
    let mut arrays = code_arrays(program, false);
    let mut kinds = Vec::new();
    for (k, kind) in program.kinds.iter().enumerate() {
        let (value, value_of) = kind.runtime_value();
        let value = literal::c_i64(value);
        kinds.push(format!(
            "{{{}, {}, {}, {{icp_code_{k}_w, icp_code_{k}_b}}}}, /* {} */",
            value,
            value_of,
            i32::from(kind.royal()),
            kind.symbol
        ));
    }
    if kinds.is_empty() {
        // C has no empty arrays: one kind that no square holds.
        arrays.push(DataArray {
            name: "icp_code_none".to_string(),
            comment: "no kind is defined".to_string(),
            len: 2,
            body: format!("    0, {},", fin_board::OP_END),
        });
        kinds.push("{INT64_C(0), 0, 0, {icp_code_none, icp_code_none}}, /* unused */".to_string());
    }
    let cases = cases(program, |op| match op {
        MoveOp::Step {
            turn,
            colour,
            args,
            skip_to,
            next,
        } => vec![format!(
            "icp_pc = (!icp_step(g, {turn}, {colour}, {}) && icp_skip(g)) ? {skip_to} : {next};",
            args.join(", ")
        )],
        MoveOp::Place {
            colour,
            kind,
            square,
            target,
        } => vec![
            format!("icp_place(g, {colour}, {kind}, {square});"),
            format!("icp_pc = {target};"),
        ],
    });
    let view = CProgram {
        header: codegen::header(NAME, file_name),
        summary: summary(program),
        runtime: crate::codegen::sections::whole(C_RUNTIME, crate::codegen::sections::Markers::C)
            .expect("the C runtime's section markers parse"),
        nkinds: kinds.len(),
        arrays,
        kinds,
        width: program.width,
        height: program.height,
        cells: number_lines(&program.cells, "    "),
        ncells: program.cells.len(),
        cases,
    };
    codegen::render(&view, Syntax::C)
}

/// Generated Rust: one `main.rs` with the runtime inlined (`single_file`),
/// or the `src/main.rs` of a crate, which declares `mod icp_rt;`.
pub fn emit_rust(program: &Program, file_name: &str, single_file: bool) -> String {
    let mut arrays = code_arrays(program, true);
    for (a, values) in arrays.iter_mut().zip(code_values(program)) {
        let items: Vec<String> = values.iter().map(i32::to_string).collect();
        a.body = layout::static_array(&a.name, &format!("[i32; {}]", a.len), &items).join("\n");
    }
    let cell_items: Vec<String> = program.cells.iter().map(i32::to_string).collect();
    let cells = layout::static_array(
        "ICP_CELLS",
        &format!("[i32; {}]", program.cells.len()),
        &cell_items,
    )
    .join("\n");
    let kinds = program
        .kinds
        .iter()
        .enumerate()
        .map(|(k, kind)| {
            let (value, value_of) = kind.runtime_value();
            let value = literal::rust_i64(value);
            format!(
                "icp_rt::Kind {{\n        value: {value},\n        value_of: {value_of},\n        royal: {},\n        code: [&ICP_CODE_{k}_W, &ICP_CODE_{k}_B],\n    }}, // {}",
                kind.royal(),
                kind.symbol
            )
        })
        .collect::<Vec<_>>();
    let has_steps = program
        .moves
        .iter()
        .any(|m| matches!(m.action, Action::Step { .. }));
    let cases = cases(program, |op| match op {
        MoveOp::Step {
            turn,
            colour,
            args,
            skip_to,
            next,
        } => vec![
            format!(
                "if !game.step({turn}, {colour}, [{}], input, output)? && game.skip() {{",
                args.join(", ")
            ),
            format!("    {skip_to}"),
            "} else {".to_string(),
            format!("    {next}"),
            "}".to_string(),
        ],
        MoveOp::Place {
            colour,
            kind,
            square,
            target,
        } => vec![
            format!("game.place({colour}, {kind}, {square});"),
            format!("{target}"),
        ],
    });
    let view = RustProgram {
        header: codegen::header(NAME, file_name),
        summary: summary(program),
        runtime: codegen::inline_runtime(RUST_RUNTIME),
        inline_runtime: single_file,
        nkinds: kinds.len(),
        arrays,
        kinds,
        width: program.width,
        height: program.height,
        cells,
        cases,
        input: if has_steps { "input" } else { "_input" },
        output: if has_steps { "output" } else { "_output" },
    };
    codegen::render(&view, Syntax::Rust)
}
