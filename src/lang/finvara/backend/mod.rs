//! C and Rust back ends. Each builds a view model of plain strings and
//! numbers here, and an askama template (templates/finvara/…) only lays
//! it out. The generated program is a loop around a `switch` (C) or a
//! `match` (Rust) with one case per move (§5): a valid or unskipped move
//! goes on at pc + 1, an invalid move whose stacks both have a non-zero
//! top skips to pc + 2 (§5.1; the runtimes' `play` works that out), `checks turn m` jumps (§5.3). Every kind's
//! notation is already a path program (static data); the runtime, pasted
//! in, walks it. Output is deterministic byte for byte.

use super::ir::{Action, Program, Value};
use super::runtime::api;
use crate::codegen::chunks::{Case, Dense, OperandArm, Operands};
use crate::codegen::escape::comment;
use crate::codegen::layout::{self, Expr};
use crate::codegen::rust::{RUN_DOC, RustProgram, Streams, run_signature};
use crate::codegen::sections::{Markers, Runtime, Uses};
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

/// The runtime sections `program` uses (`api`): moves and their skip
/// rule, `checks turn`, and the stack actions (§4) that a piece falling
/// into one of the board's holes can take: a kind's value mod 6, x and y
/// values at the holes' squares (a piece may be promoted, so every kind
/// counts). The streams those actions read and write come with them (the
/// runtimes' own needs).
pub fn uses(program: &Program) -> Uses {
    let mut uses = Uses::new();
    let steps = program
        .moves
        .iter()
        .any(|m| matches!(m.action, Action::Step { .. }));
    if program
        .moves
        .iter()
        .any(|m| matches!(m.action, Action::Place { .. }))
    {
        uses.add(&api::PLACE);
    }
    if !steps {
        return uses;
    }
    uses.add(&api::PLAY);
    let width = program.width.max(1);
    for (square, _) in program
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == fin_board::HOLE)
    {
        let (x, y) = ((square % width) as i64 + 1, (square / width) as i64 + 1);
        for kind in &program.kinds {
            let value = match kind.value {
                Some(Value::Int(v)) => v,
                Some(Value::X) => x,
                Some(Value::Y) => y,
                None => 0,
            };
            uses.add(&api::ACTIONS[value.rem_euclid(6) as usize]);
        }
    }
    uses
}

/// The C runtime `uses` reaches, markers dropped.
pub fn c_runtime(uses: &Uses) -> String {
    Runtime::parse(C_RUNTIME, Markers::C)
        .expect("the C runtime's section markers parse")
        .select(uses)
}

/// The Rust runtime, its unit tests dropped.
pub fn rust_sections() -> Runtime<'static> {
    Runtime::parse(codegen::without_tests(RUST_RUNTIME), Markers::Rust)
        .expect("the Rust runtime's section markers parse")
}

/// The Rust runtime `uses` reaches.
pub fn rust_runtime(uses: &Uses) -> String {
    rust_sections().select(uses)
}

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
    /// `icp_move`: the moves as a `switch` ([`chunks::Dense`]).
    moves: String,
}

/// The program's Rust items (data, the move loop, `run`), which
/// `codegen::rust` lays out as a file, a module or a crate.
#[derive(Template)]
#[template(path = "finvara/rust/program.rs", escape = "none")]
struct RustItems {
    arrays: Vec<DataArray>,
    kinds: Vec<String>,
    nkinds: usize,
    width: usize,
    height: usize,
    cells: String,
    /// `icp_move`: the moves as a `match` ([`chunks::Dense`]).
    moves: String,
    run_doc: &'static str,
    run_signature: String,
    /// `Game::read_from`, when an action reads.
    read_from: Option<&'static str>,
    /// `Game::write_to`, when an action prints or reads.
    write_to: Option<&'static str>,
}

/// The second line of the header (the first is [`codegen::header`]).
fn summary(program: &Program) -> String {
    format!(
        "A Finvara program (docs/finvara.md): {} kinds, a {}x{} board, {} moves.",
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
    /// §5.1: `play(pc, turn, colour, [kind, from, to, promote])`, which
    /// goes on at pc + 2 when the move is invalid and skipped, else at
    /// pc + 1.
    Step {
        turn: u64,
        colour: usize,
        args: [String; 4],
    },
    /// §5.3: `place(colour, kind, square)`, then go to `target`.
    Place {
        colour: usize,
        kind: usize,
        square: usize,
        target: usize,
    },
}

/// A move's arm as a back end spells it: its lines, and (Rust) its arm
/// in the operand form ([`Case::operands`]).
type Arm = (Vec<String>, Option<OperandArm>);

/// One case per move, its lines spelt by `arm`.
fn cases(program: &Program, mut arm: impl FnMut(usize, MoveOp) -> Arm) -> Vec<Case> {
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
            let (lines, operands) = arm(i, op);
            Case {
                operands,
                ..Case::new(i, move_comment(program, i), lines)
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
    let mut uses = uses(program);
    let cases = cases(program, |_, op| match op {
        MoveOp::Step { turn, colour, args } => {
            let [kind, from, to, promo] = &args;
            (
                vec![format!(
                    "return {}(g, icp_pc, {turn}, {colour}, {});",
                    uses.c(&api::PLAY),
                    args.join(", "),
                )],
                Some(OperandArm::Yields(vec![format!(
                    "icp_turn = {turn}; icp_colour = {colour}; icp_kind = {kind}; icp_from = {from}; \
                     icp_to = {to}; icp_promo = {promo};"
                )])),
            )
        }
        MoveOp::Place {
            colour,
            kind,
            square,
            target,
        } => {
            let lines = vec![
                format!("{}(g, {colour}, {kind}, {square});", uses.c(&api::PLACE)),
                format!("return {target};"),
            ];
            (lines.clone(), Some(OperandArm::Returns(lines)))
        }
    });
    let moves = Dense {
        name: "icp_move".into(),
        doc: vec![
            "Makes move icp_pc (section 5); returns the number of the move".into(),
            "to make next, or -1 past the last.".into(),
        ],
        returns: "long".into(),
        params: vec!["icp_game *g".into(), "long icp_pc".into()],
        args: "g, icp_pc".into(),
        pc: "icp_pc".into(),
        default: "return -1;".into(),
        wrap: String::new(),
        storage: "static".into(),
        idle: None,
        // A move is a call of `icp_play` with its constants: the
        // functions assign the constants and call `icp_play` once.
        operands: Some(Operands {
            pattern: "uint64_t icp_turn; int icp_colour; int32_t icp_kind, icp_from, icp_to, icp_promo;"
                .into(),
            call: format!(
                "return {}(g, icp_pc, icp_turn, icp_colour, icp_kind, icp_from, icp_to, icp_promo);",
                api::PLAY.c
            ),
        }),
        cases,
    }
    .c();
    let view = CProgram {
        header: codegen::header(NAME, file_name),
        summary: summary(program),
        runtime: c_runtime(&uses),
        nkinds: kinds.len(),
        arrays,
        kinds,
        width: program.width,
        height: program.height,
        cells: number_lines(&program.cells, "    "),
        ncells: program.cells.len(),
        moves,
    };
    codegen::render(&view, Syntax::C)
}

/// Generated Rust: the program's items and the runtime it uses, for
/// `codegen::rust` to lay out as a file, a module or a crate.
pub fn emit_rust(program: &Program, file_name: &str) -> RustProgram {
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
    let mut uses = uses(program);
    // The entries are recorded as used where a move calls them.
    let play = method(api::PLAY.rust);
    let place = method(api::PLACE.rust);
    let cases = cases(program, |pc, op| match op {
        MoveOp::Step { turn, colour, args } => {
            let operands: Vec<Expr> = [
                turn.to_string(),
                colour.to_string(),
                format!("[{}]", args.join(", ")),
            ]
            .into_iter()
            .map(Expr::atom)
            .collect();
            uses.rust(&api::PLAY);
            let call = Expr::call(
                format!("game.{play}"),
                [Expr::atom("pc")]
                    .into_iter()
                    .chain(operands.clone())
                    .collect(),
            );
            let tuple = Expr::call("", operands);
            (
                unindent(layout::expr_arm(ARM_LEVEL, &pc.to_string(), &call)),
                Some(OperandArm::Yields(unindent(layout::expr_arm(
                    ARM_LEVEL,
                    &pc.to_string(),
                    &tuple,
                )))),
            )
        }
        MoveOp::Place {
            colour,
            kind,
            square,
            target,
        } => {
            uses.rust(&api::PLACE);
            let block = |last: String| {
                vec![
                    format!("{pc} => {{"),
                    format!("    game.{place}({colour}, {kind}, {square});"),
                    format!("    {last}"),
                    "}".to_string(),
                ]
            };
            (
                block(format!("Ok({target})")),
                Some(OperandArm::Returns(block(format!("return Ok({target});")))),
            )
        }
    });
    let moves = Dense {
        name: "icp_move".into(),
        doc: vec![
            "Makes move `pc` (§5); returns the number of the move to make next,".into(),
            "or `usize::MAX` past the last.".into(),
        ],
        returns: "icp_rt::Next".into(),
        params: vec!["game: &mut icp_rt::Game<'_>".into(), "pc: usize".into()],
        args: "game, pc".into(),
        pc: "pc".into(),
        default: "Ok(usize::MAX)".into(),
        wrap: String::new(),
        storage: "static".into(),
        idle: None,
        // A move is a call of `play` with its constants: the functions
        // yield the constants and call `play` once.
        operands: Some(Operands {
            pattern: "(turn, colour, mv)".into(),
            call: format!("game.{play}(pc, turn, colour, mv)"),
        }),
        cases,
    }
    .rust();
    // The game is handed the streams its actions use.
    let reached = rust_sections().reach(&uses);
    let read_from = reached
        .contains(api::INPUT.section)
        .then(|| method(uses.rust(&api::INPUT)));
    let write_to = reached
        .contains(api::OUTPUT.section)
        .then(|| method(uses.rust(&api::OUTPUT)));
    let items = RustItems {
        nkinds: kinds.len(),
        arrays,
        kinds,
        width: program.width,
        height: program.height,
        cells,
        moves,
        run_doc: RUN_DOC,
        run_signature: run_signature(
            Streams::Plain,
            if read_from.is_some() {
                "mut input"
            } else {
                "_input"
            },
            "output",
        ),
        read_from,
        write_to,
    };
    RustProgram {
        language: NAME,
        source_name: file_name.to_string(),
        about: vec![
            summary(program),
            "The moves are the arms of the match in `icp_move`, each under its source line.".into(),
        ],
        runtime: rust_runtime(&uses),
        items: codegen::render(&items, Syntax::Rust),
        main: None,
        crate_main: None,
        crate_api: String::new(),
        crate_doc: Vec::new(),
    }
}

/// The indentation level of a move's arm in `icp_move` (fn, match).
const ARM_LEVEL: usize = 2;

/// Lines laid out at [`ARM_LEVEL`], without that indentation (the
/// template adds it).
fn unindent(lines: Vec<String>) -> Vec<String> {
    let pad = layout::pad(ARM_LEVEL);
    lines
        .into_iter()
        .map(|l| l.strip_prefix(&pad).map(str::to_string).unwrap_or(l))
        .collect()
}

/// The method name of a `Game::name` path of the table.
fn method(path: &'static str) -> &'static str {
    path.rsplit("::").next().unwrap_or(path)
}
