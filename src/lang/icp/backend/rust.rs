//! The Rust back end: a single `rustc`-ready file, or a Cargo crate. The
//! board runtime is `runtime/board.rs` with its parts `runtime/board/*.rs`,
//! the very files compiled into icp2c for `icp2c run`, of which a program
//! carries the sections it uses.
//! Statements are the arms of a `match` on the current label inside a
//! `loop`.

use super::plan::{
    Jump, Spelling, StepPlan, has_board, has_input_jumps, loop_note, loop_tables, max_inputs,
    moves, plan, rules,
};
use crate::codegen::escape::{comment, rust_string};
use crate::codegen::layout::{ARRAY_WIDTH, CHAIN_WIDTH, MAX_WIDTH, arm, call, pad, width};
use crate::codegen::rust::{RUN_DOC, RustProgram, Streams, run_signature};
use crate::codegen::sections::{Markers, Runtime, Uses};
use crate::codegen::{self, Syntax, literal};
use crate::lang::Lang;
use crate::lang::icp::ir::{Command, Program};
use crate::lang::icp::runtime::api;
use askama::Template;
use std::collections::BTreeSet;
use std::sync::OnceLock;

const NAME: &str = <super::super::InfChessPro as Lang>::NAME;

/// `board.rs`: the module's own lines, the `include!`s of its parts, and
/// its unit tests.
const BOARD: &str = include_str!("../runtime/board.rs");

/// The files `board.rs` `include!`s (`runtime/board/`), by concern, in its
/// order (a unit test holds the lists equal): one module, its text cut in
/// files under 1,500 lines.
const BOARD_PARTS: [&str; 6] = [
    include_str!("../runtime/board/pieces.rs"),
    include_str!("../runtime/board/table.rs"),
    include_str!("../runtime/board/rays.rs"),
    include_str!("../runtime/board/moves.rs"),
    include_str!("../runtime/board/loops.rs"),
    include_str!("../runtime/board/io.rs"),
];

/// The shared Rust board runtime source as one text, cut into sections:
/// `board.rs`'s own lines, then its parts, a blank line between
/// ([`codegen::joined`]), as [`super::c::RUNTIME`] pastes their C twins.
/// Without the unit tests, which follow the `include!`s.
pub fn runtime_source() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| codegen::joined(BOARD, &BOARD_PARTS))
}

/// [`runtime_source`] parsed into its sections, once.
pub fn sections() -> &'static Runtime<'static> {
    static PARSED: OnceLock<Runtime<'static>> = OnceLock::new();
    PARSED.get_or_init(|| {
        Runtime::parse(runtime_source(), Markers::Rust)
            .expect("the Rust runtime's section markers parse")
    })
}

/// The runtime `program`'s Rust carries (the text of its sections, which
/// a one-file program indents into `mod icp_rt { … }` and a crate heads as
/// `src/icp_rt.rs`), and the sections that text holds (in name order).
pub fn runtime(program: &Program) -> (String, BTreeSet<&'static str>) {
    let uses = view(program).1;
    (sections().select(&uses), sections().reach(&uses))
}

#[derive(Template)]
#[template(path = "icp/rust/program.rs", escape = "none")]
struct ProgramView {
    /// [`RUN_DOC`].
    run_doc: &'static str,
    /// `pub fn run`'s signature ([`run_signature`]).
    api_signature: String,
    /// The input reader's constructor, when the program reads (§6).
    input: Option<&'static str>,
    /// `run`'s call of `icp_run`.
    run_call: String,
    /// `icp_run`'s signature, laid out.
    run_signature: Vec<String>,
    /// The error message of a fault that names its statement, when the
    /// program can meet one (§8); else its only fault is a failed write,
    /// whose message names no statement.
    error_message: Option<&'static str>,
    /// The board's constructor, when the program has a board.
    board: Option<&'static str>,
    name_count: usize,
    first_label: String,
    /// `run`'s fault when the final flush fails, laid out.
    flush_error: String,
    max_inputs: usize,
    /// The statements in functions of at most [`CHUNK`]; empty for a
    /// program with no statement.
    chunks: Vec<ChunkView>,
    /// `icp_run`'s choice of function by label, laid out (one call for a
    /// program of one function).
    dispatch: Vec<String>,
    chunk_size: usize,
    /// The outlined commands a program of several functions calls, and
    /// the comments over them: the blocks of text after `icp_run`.
    helpers: Vec<String>,
    /// The loops' member tables (issue 13), laid out.
    loop_tables: Vec<String>,
}

/// Statements per function of the generated Rust
/// ([`codegen::chunks::LOOPING_RUST_CHUNK`]: one `match` of 10,000 arms in
/// one function made `rustc -O` superlinear, 286 s and 4.3 GB).
pub use crate::codegen::chunks::LOOPING_RUST_CHUNK as CHUNK;

/// One function of the program's statements.
struct ChunkView {
    /// First and last labels of its statements (Rust literals).
    first: String,
    last: String,
    /// More than one function: this one is not inlined into `icp_run`,
    /// and its arms are values (the label to go to) where they can be.
    separate: bool,
    /// Whether control can go round its `loop` (else clippy's
    /// `never_loop` is allowed on it: the loop is the dispatch's shape).
    loops: bool,
    /// Its signature, laid out: the state its statements use.
    signature: Vec<String>,
    /// The binding of the labels it uses (`icp_from` only in a program
    /// with `*` jumps).
    labels: &'static str,
    cases: Vec<RustCase>,
    /// The arms after the statements' (a label not here), laid out.
    rest: Vec<String>,
}

/// One statement as a `match` arm.
struct RustCase {
    label: String,
    comment: String,
    /// The arm's body, laid out as rustfmt would (indented).
    body: Vec<String>,
}

/// Generates one self-contained Rust file (runtime inlined) that
/// `rustc --edition 2021 -O -D warnings FILE.rs` builds.
pub fn emit(program: &Program, source_name: &str) -> String {
    codegen::rust::file(&emit_rust(program, source_name))
}

/// Generated Rust: the program's items and the runtime sections they use,
/// for `codegen::rust` to lay out as a file, a module or a crate.
pub fn emit_rust(program: &Program, source_name: &str) -> RustProgram {
    let (view, uses) = view(program);
    RustProgram {
        language: NAME,
        source_name: source_name.to_string(),
        about: vec!["Each statement is an arm of a match below, under its source line.".into()],
        runtime: sections().select(&uses),
        items: codegen::render(&view, Syntax::Rust),
        main: None,
        crate_main: None,
        crate_api: String::new(),
        crate_doc: Vec::new(),
    }
}

/// The indentation level of an arm's body: fn, loop, match, arm.
const BODY: usize = 4;

/// What a back end keeps while it writes a program: the entry points and
/// the outlined commands its statements call.
struct Writer<'p> {
    program: &'p Program,
    /// Whether the program moves pieces (else it places them with
    /// [`api::OCCUPY`]).
    moves: bool,
    uses: Uses,
    /// The outlined commands called, by name ([`HELPERS`]).
    helpers: BTreeSet<&'static str>,
}

impl Writer<'_> {
    /// `icp_rt::PATH` of `entry`, recorded.
    fn path(&mut self, entry: &api::Entry) -> String {
        format!("icp_rt::{}", self.uses.rust(entry))
    }

    /// The method `entry` names (`place` for `Board::place`), recorded.
    fn method(&mut self, entry: &api::Entry) -> &'static str {
        api::method(self.uses.rust(entry))
    }

    /// The outlined command `name` ([`HELPERS`]), recorded with the
    /// entry it calls.
    fn helper(&mut self, name: &'static str, entry: &api::Entry) -> &'static str {
        self.uses.add(entry);
        self.helpers.insert(name);
        name
    }
}

/// `fn HEAD<GENERICS>(PARAMS) -> RET {` as rustfmt lays out a signature:
/// on one line when it fits in [`MAX_WIDTH`], else one parameter a line.
fn signature(head: &str, generics: &[&str], params: &[String], ret: &str) -> Vec<String> {
    let generics = if generics.is_empty() {
        String::new()
    } else {
        format!("<{}>", generics.join(", "))
    };
    let one = format!("{head}{generics}({}) -> {ret} {{", params.join(", "));
    if width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let mut lines = vec![format!("{head}{generics}(")];
    lines.extend(params.iter().map(|p| format!("    {p},")));
    lines.push(format!(") -> {ret} {{"));
    lines
}

/// The state a run of statements uses, as a function's parameters (and
/// its generics) and the arguments `icp_run` passes for them.
struct State {
    /// Whether they read input (§6) and write output (§4.6, §4.7).
    input: bool,
    out: bool,
    generics: Vec<&'static str>,
    params: Vec<String>,
    args: Vec<String>,
}

/// What the statements of `part` use: the board, the input (and the
/// values read), the output; `at`: the labels (every function of
/// statements takes them).
fn state(part: &[StepPlan<'_>], max_inputs: usize, at: bool) -> State {
    let commands = || part.iter().map(|p| &p.statement.command);
    let board = commands().any(|c| !matches!(c, Command::Nothing | Command::Text(_)));
    let input = part.iter().any(|p| p.statement.inputs > 0);
    let out = commands().any(|c| matches!(c, Command::Text(_) | Command::Count(_)));
    let mut state = State {
        input,
        out,
        generics: Vec::new(),
        params: Vec::new(),
        args: Vec::new(),
    };
    let mut add = |used: bool, param: String, arg: &str| {
        if used {
            state.params.push(param);
            state.args.push(arg.to_string());
        }
    };
    add(
        board,
        "icp_board: &mut icp_rt::Board".into(),
        "&mut icp_board",
    );
    add(input, "icp_in: &mut icp_rt::Input<R>".into(), "icp_in");
    add(out, "icp_out: &mut W".into(), "icp_out");
    let values = format!("icp_v: &mut [i64; {max_inputs}]");
    add(input && at, values, "&mut icp_v");
    add(at, "icp_at: &mut (i64, i64)".into(), "&mut icp_at");
    if input {
        state.generics.push("R: std::io::BufRead");
    }
    if out {
        state.generics.push("W: Write");
    }
    state
}

/// The view of `program` (its runtime not inlined yet) and the runtime
/// entry points it uses.
fn view(program: &Program) -> (ProgramView, Uses) {
    let mut w = Writer {
        program,
        moves: moves(program),
        uses: Uses::new(),
        helpers: BTreeSet::new(),
    };
    rules(program, &mut w.uses);
    let input_jumps = has_input_jumps(program);
    let max_inputs = max_inputs(program);
    let plans = plan(program);
    let parts: Vec<&[StepPlan<'_>]> = plans.chunks(CHUNK).collect();
    let firsts: Vec<i64> = parts
        .iter()
        .map(|part| part.first().map_or(0, |p| p.statement.label))
        .collect();
    let separate = parts.len() > 1;
    let mut chunks = Vec::new();
    let mut dispatch = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let next = firsts.get(index + 1).copied();
        let low = (index > 0).then(|| firsts[index]);
        // A label in this function's range but on no statement is the §5
        // "no such label" error, reported at the `*` jump that read it;
        // without `*` jumps every label is a statement's.
        let owns = match (low, next) {
            (None, Some(n)) => Some(format!("icp_l < {}", S.int(n))),
            (Some(l), Some(n)) => Some(format!("({}..{}).contains(&icp_l)", S.int(l), S.int(n))),
            (Some(l), None) => Some(format!("icp_l >= {}", S.int(l))),
            (None, None) => None,
        };
        let arm_pad = pad(BODY - 1);
        let mut rest = Vec::new();
        if input_jumps {
            let no_label = w.path(&api::NO_LABEL);
            rest.push(match &owns {
                Some(owns) => format!("{arm_pad}icp_l if {owns} => {{"),
                None => format!("{arm_pad}_ => {{"),
            });
            rest.push(format!(
                "{}let icp_wanted = std::mem::replace(icp_label, *icp_from);",
                pad(BODY)
            ));
            rest.push(format!("{}return Err({no_label}(icp_wanted));", pad(BODY)));
            rest.push(format!("{arm_pad}}}"));
        }
        if owns.is_some() {
            rest.push(format!("{arm_pad}_ => return Ok(false),"));
        } else if !input_jumps {
            rest.push(format!("{arm_pad}_ => return Ok(true),"));
        }
        let used = state(part, max_inputs, true);
        let head = format!("fn icp_chunk_{index}");
        let signature = signature(
            &head,
            &used.generics,
            &used.params,
            "Result<bool, icp_rt::Fault>",
        );
        let run = |head: &str, tail: &str| call(2, head, &used.args, tail);
        if separate {
            let call = format!("icp_chunk_{index}({})", used.args.join(", "));
            match next {
                Some(n) => {
                    dispatch.extend(arm(3, &format!("icp_l if icp_l < {}", S.int(n)), &call))
                }
                None => dispatch.extend(arm(3, "_", &call)),
            }
        } else {
            dispatch.extend(run(&format!("let icp_halted = icp_chunk_{index}"), ";"));
        }
        let loops = part.iter().any(|p| {
            let mut jumps = vec![p.on_success];
            if p.branches {
                jumps.push(p.on_failure);
            }
            jumps.extend(p.exits.iter().map(|(_, j)| *j));
            jumps.iter().any(|j| *j != Jump::Halt)
        });
        chunks.push(ChunkView {
            first: S.int(firsts[index]),
            last: S.int(part.last().map_or(0, |p| p.statement.label)),
            separate,
            loops,
            signature,
            labels: if input_jumps {
                "let (icp_label, icp_from) = (&mut icp_at.0, &mut icp_at.1);"
            } else {
                "let icp_label = &mut icp_at.0;"
            },
            cases: part.iter().map(|p| case(&mut w, p, separate)).collect(),
            rest,
        });
    }
    let first_label = program
        .statements
        .first()
        .map_or("0".into(), |s| S.int(s.label));
    let loop_tables = loop_tables(program)
        .iter()
        .flat_map(|t| {
            let items = t.items(&mut w.uses, &S, |kind, args| match args {
                Some(args) => format!("{kind}({args})"),
                None => kind.to_string(),
            });
            let labels: Vec<String> = t.members.iter().map(|(l, _)| l.to_string()).collect();
            let mut lines = vec![
                String::new(),
                format!(
                    "/// Statements {}: a loop the optimiser summarised.",
                    labels.join(", ")
                ),
            ];
            let declaration = format!(
                "const ICP_LOOP_{}: [{}; {}] =",
                t.first,
                w.path(&api::LOOP_STEP),
                items.len()
            );
            let joined = items.join(", ");
            let one = format!("{declaration} [{joined}];");
            if width(&joined) <= ARRAY_WIDTH && width(&one) <= MAX_WIDTH {
                lines.push(one);
            } else {
                lines.push(format!("{declaration} ["));
                lines.extend(items.iter().map(|i| format!("    {i},")));
                lines.push("];".to_string());
            }
            lines
        })
        .collect();
    // `icp_run` makes the board and takes the input and the output when
    // its statements use them.
    let all = state(&plans, max_inputs, false);
    let mut run_args = Vec::new();
    let mut run_params = Vec::new();
    if all.input {
        run_args.push("&mut icp_in");
        run_params.push("icp_in: &mut icp_rt::Input<R>".to_string());
    }
    if all.out {
        run_args.push("&mut icp_out");
        run_params.push("icp_out: &mut W".to_string());
    }
    let board = has_board(program).then(|| w.uses.rust(&api::BOARD));
    let input = all.input.then(|| w.uses.rust(&api::INPUT));
    let error_message = sections()
        .reach(&w.uses)
        .contains(api::ERROR_MESSAGE.section)
        .then(|| w.uses.rust(&api::ERROR_MESSAGE));
    let helpers = helpers(&w.helpers);
    let view = ProgramView {
        run_doc: RUN_DOC,
        api_signature: run_signature(
            Streams::Plain,
            if all.input { "input" } else { "_input" },
            "output",
        ),
        input,
        run_call: format!("icp_run({})", run_args.join(", ")),
        run_signature: signature(
            "fn icp_run",
            &all.generics,
            &run_params,
            "Result<(), (i64, icp_rt::Fault)>",
        ),
        error_message,
        board,
        name_count: program.names.len(),
        flush_error: flush_error(&first_label),
        first_label,
        max_inputs,
        chunks,
        dispatch,
        chunk_size: CHUNK,
        helpers,
        loop_tables,
    };
    (view, w.uses)
}

/// `flushed.err().map(|_| (LABEL, …))` as rustfmt lays out the arm's
/// expression in `icp_main`: on the arm's line when the chain takes at most
/// rustfmt's `chain_width` (60) columns, else one call a line.
fn flush_error(first_label: &str) -> String {
    let map = format!(".map(|_| ({first_label}, icp_rt::Fault::WriteFailed))");
    let chain = format!("flushed.err(){map}");
    if width(&chain) <= CHAIN_WIDTH {
        chain
    } else {
        let at = pad(3);
        format!("flushed\n{at}.err()\n{at}{map}")
    }
}

/// Operands as Rust spells them.
const S: Spelling = Spelling {
    int: literal::rust_i64,
    entry: |uses, entry| format!("icp_rt::{}", uses.rust(entry)),
    truth: "true",
    when: |cond, statement| format!("if {cond} {{ {statement} }}"),
    effect: |cond, call| match cond {
        Some(cond) => format!("if {cond} {{ {call}; }}"),
        None => format!("{call};"),
    },
    most: "u64::MAX",
};

/// The lines that send control on after a statement labelled `label`, at
/// `level` (§5): the next label, the end of the program, or a label read
/// by a `*` (an error if input ended before it, §6).
fn jump(w: &mut Writer<'_>, j: Jump, label: &str, level: usize) -> Vec<String> {
    let at = pad(level);
    match j {
        Jump::Label(l) => vec![format!("{at}*icp_label = {};", S.int(l))],
        Jump::Halt => vec![format!("{at}return Ok(true);")],
        Jump::Input { slot, check_eof } => {
            let mut lines = Vec::new();
            if check_eof {
                // `*` number `slot` was not read (`icp_n` counts from 0).
                let unread = match slot {
                    0 => "icp_n == 0".to_string(),
                    _ => format!("icp_n <= {slot}"),
                };
                lines.push(format!("{at}if {unread} {{"));
                lines.push(format!(
                    "{}return Err({});",
                    pad(level + 1),
                    w.path(&api::END_OF_INPUT)
                ));
                lines.push(format!("{at}}}"));
            }
            lines.push(format!("{at}*icp_from = {label};"));
            lines.push(format!("{at}*icp_label = icp_v[{slot}];"));
            lines
        }
    }
}

/// The board commands that a program of several functions calls through
/// outlined functions ([`HELPERS`]): the wrapper's name, its step's name,
/// the `Board` method, and the parameters after the board.
type BoardCommand = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const NAME_PARAM: (&str, &str) = ("icp_name", "icp_rt::Name");

const BOARD_COMMANDS: [BoardCommand; 5] = [
    (
        "icp_place",
        "icp_step_place",
        "place",
        &[
            NAME_PARAM,
            ("icp_colour", "icp_rt::Colour"),
            ("icp_kind", "icp_rt::Kind"),
            ("icp_row", "i64"),
            ("icp_col", "i64"),
        ],
    ),
    (
        "icp_occupy",
        "icp_step_occupy",
        "occupy",
        &[NAME_PARAM, ("icp_row", "i64"), ("icp_col", "i64")],
    ),
    (
        "icp_move_squares",
        "icp_step_move_squares",
        "move_squares",
        &[
            ("icp_r1", "i64"),
            ("icp_c1", "i64"),
            ("icp_r2", "i64"),
            ("icp_c2", "i64"),
        ],
    ),
    (
        "icp_move_name_to",
        "icp_step_move_name_to",
        "move_name_to",
        &[NAME_PARAM, ("icp_row", "i64"), ("icp_col", "i64")],
    ),
    (
        "icp_move_name_by",
        "icp_step_move_name_by",
        "move_name_by",
        &[NAME_PARAM, ("icp_drow", "i64"), ("icp_dcol", "i64")],
    ),
];

/// The text of a board command's outlined function: `step`, its step
/// (the command, then `icp_yes` or `icp_no`, the label to go to), else
/// its wrapper (the command's own result).
fn board_command((name, step_name, method, params): BoardCommand, step: bool) -> String {
    let mut list = vec!["icp_board: &mut icp_rt::Board".to_string()];
    list.extend(params.iter().map(|(p, ty)| format!("{p}: {ty}")));
    let args: Vec<&str> = params.iter().map(|(p, _)| *p).collect();
    let call = format!("icp_board.{method}({})", args.join(", "));
    let mut lines = vec!["#[inline(never)]".to_string()];
    let (head, ret, body) = if step {
        list.extend(["icp_yes: i64".to_string(), "icp_no: i64".to_string()]);
        let body = vec![
            format!("    let icp_done = {call}?;"),
            "    Ok(if icp_done { icp_yes } else { icp_no })".to_string(),
        ];
        (step_name, "Result<i64, icp_rt::Fault>", body)
    } else {
        (
            name,
            "Result<bool, icp_rt::Fault>",
            vec![format!("    {call}")],
        )
    };
    // Clippy's limit.
    if list.len() > 7 {
        lines.push("#[allow(clippy::too_many_arguments)]".to_string());
    }
    lines.extend(signature(&format!("fn {head}"), &[], &list, ret));
    lines.extend(body);
    lines.push("}".to_string());
    lines.join("\n")
}

/// The outlined commands of a program of several functions, in the order
/// they are written, each called rather than inlined into thousands of
/// arms (which made `rustc -O` several times slower). `icp_step_*`: a
/// statement that reads no `*` and goes to a label on either outcome is
/// one call of one of these: the command, then the label to go to.
static HELPERS: std::sync::LazyLock<Vec<(&'static str, String)>> = std::sync::LazyLock::new(|| {
    let mut helpers: Vec<(&'static str, String)> = BOARD_COMMANDS
        .iter()
        .map(|c| (c.0, board_command(*c, false)))
        .collect();
    helpers.push((
        "icp_slide",
        "#[inline(never)]
fn icp_slide(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_drow: i64,
    icp_dcol: i64,
    icp_most: u64,
) -> Result<u64, icp_rt::Fault> {
    icp_board.slide(icp_name, icp_drow, icp_dcol, icp_most)
}"
        .to_string(),
    ));
    helpers.push((
        "icp_write_text",
        "#[inline(never)]
fn icp_write_text<W: Write>(icp_out: &mut W, icp_text: &str) -> Result<(), icp_rt::Fault> {
    icp_rt::write_text(icp_out, icp_text)
}"
        .to_string(),
    ));
    helpers.push((
        "icp_write_count",
        "#[inline(never)]
fn icp_write_count<W: Write>(icp_out: &mut W, icp_n: u64) -> Result<(), icp_rt::Fault> {
    icp_rt::write_count(icp_out, icp_n)
}"
        .to_string(),
    ));
    helpers.extend(
        BOARD_COMMANDS
            .iter()
            .map(|c| (c.1, board_command(*c, true))),
    );
    helpers.push((
        "icp_step_slide",
        "#[inline(never)]
fn icp_step_slide(
    icp_board: &mut icp_rt::Board,
    icp_name: icp_rt::Name,
    icp_drow: i64,
    icp_dcol: i64,
    icp_next: i64,
) -> Result<i64, icp_rt::Fault> {
    icp_board.slide(icp_name, icp_drow, icp_dcol, u64::MAX)?;
    Ok(icp_next)
}"
        .to_string(),
    ));
    helpers.push((
        "icp_step_text",
        "#[inline(never)]
fn icp_step_text<W: Write>(
    icp_out: &mut W,
    icp_text: &str,
    icp_next: i64,
) -> Result<i64, icp_rt::Fault> {
    icp_rt::write_text(icp_out, icp_text)?;
    Ok(icp_next)
}"
        .to_string(),
    ));
    helpers.push((
        "icp_step_count",
        "#[inline(never)]
fn icp_step_count<W: Write>(
    icp_board: &icp_rt::Board,
    icp_out: &mut W,
    icp_name: icp_rt::Name,
    icp_next: i64,
) -> Result<i64, icp_rt::Fault> {
    icp_rt::write_count(icp_out, icp_board.count(icp_name))?;
    Ok(icp_next)
}"
        .to_string(),
    ));
    helpers.push((
        "icp_read_into",
        "#[inline(never)]
fn icp_read_into<R: std::io::BufRead>(
    icp_in: &mut icp_rt::Input<R>,
    icp_values: &mut [i64],
) -> Result<usize, icp_rt::Fault> {
    icp_in.read_into(icp_values)
}"
        .to_string(),
    ));
    helpers
});

/// The blocks of text of the outlined commands `used` ([`HELPERS`]), in
/// their order, under the comments that say why they are.
fn helpers(used: &BTreeSet<&'static str>) -> Vec<String> {
    let mut blocks = Vec::new();
    if !used.is_empty() {
        blocks.push(
            "// The runtime's commands for a program of many functions, called rather\n\
             // than inlined into each of its statements: inlining them into thousands\n\
             // of arms made `rustc -O` several times slower."
                .to_string(),
        );
    }
    let mut steps = false;
    for (name, text) in HELPERS.iter().filter(|(name, _)| used.contains(name)) {
        if name.starts_with("icp_step_") && !steps {
            steps = true;
            blocks.push(
                "// A statement that reads no `*` and goes to a label on either outcome is\n\
                 // one call of these: the command, then the label to go to."
                    .to_string(),
            );
        }
        blocks.push(text.clone());
    }
    blocks
}

/// The outlined command of a board entry point (`icp_place` for
/// [`api::PLACE`]), or of its step (`icp_step_place`).
fn outlined(entry: &api::Entry, step: bool) -> &'static str {
    let name = api::method(entry.rust);
    let full = if step {
        format!("icp_step_{name}")
    } else {
        format!("icp_{name}")
    };
    HELPERS
        .iter()
        .map(|(n, _)| *n)
        .find(|n| *n == full)
        .unwrap_or("icp_missing_helper")
}

/// A statement's arm in a program of several functions: when it reads no
/// `*` and both its outcomes go to labels (most statements), one call of a
/// `#[inline(never)]` step function ([`HELPERS`]) that performs the
/// command and returns the label to go to (`icp_step_place(icp_board, …,
/// on success, on failure)`), so that each arm is a call with constant
/// arguments; else `None`, and [`case`] writes it (followed by `continue`).
fn step(w: &mut Writer<'_>, p: &StepPlan<'_>) -> Option<Vec<String>> {
    let s = p.statement;
    let label = |j: Jump| match j {
        Jump::Label(l) => Some(S.int(l)),
        Jump::Halt | Jump::Input { .. } => None,
    };
    if s.inputs > 0 {
        return None;
    }
    let yes = label(p.on_success)?;
    let no = if p.branches {
        label(p.on_failure)?
    } else {
        yes.clone()
    };
    let (function, args) = match &s.command {
        Command::Nothing => return Some(vec![format!("{}Ok({yes})", pad(BODY))]),
        Command::Loop { .. } => return None,
        Command::Text(text) => (
            w.helper("icp_step_text", &api::TEXT),
            vec![
                "icp_out".to_string(),
                format!("\"{}\"", rust_string(&format!("{text}\n"))),
                yes,
            ],
        ),
        Command::Count(name) => {
            w.uses.add(&api::WRITE_COUNT);
            (
                w.helper("icp_step_count", &api::COUNT),
                vec![
                    "icp_board".to_string(),
                    "icp_out".to_string(),
                    name.to_string(),
                    yes,
                ],
            )
        }
        Command::Slide { name, drow, dcol } => (
            w.helper("icp_step_slide", &api::SLIDE),
            vec![
                "icp_board".to_string(),
                name.to_string(),
                S.int(*drow),
                S.int(*dcol),
                yes,
            ],
        ),
        command => {
            let (entry, args) = S.board_call_args(&mut w.uses, command, w.moves)?;
            let mut all = vec!["icp_board".to_string()];
            all.extend(args);
            all.push(yes);
            all.push(no);
            let function = w.helper(outlined(&entry, true), &entry);
            return Some(call(BODY, function, &all, ""));
        }
    };
    Some(call(BODY, function, &args, ""))
}

/// A statement's arm body (§4–§6): read its `*`s, print (when every `*`
/// was read), perform its command, jump on its outcome. `outlined`: the
/// program is several functions, whose arms call the runtime through the
/// `#[inline(never)]` wrappers of [`HELPERS`] (`icp_place(icp_board, …)`)
/// rather than its methods, which rustc would inline into every arm.
fn case(w: &mut Writer<'_>, p: &StepPlan<'_>, outlined_arms: bool) -> RustCase {
    let s = p.statement;
    let label = S.int(s.label);
    if outlined_arms && let Some(body) = step(w, p) {
        return RustCase {
            label,
            comment: comment(&s.text),
            body,
        };
    }
    let inputs = s.inputs;
    let mut body = Vec::new();
    let at = pad(BODY);
    if let Command::Loop { members, start } = &s.command {
        let first = members
            .first()
            .map_or(0, |m| w.program.statements[m.statement].label);
        let call = format!(
            "icp_board.{}(&ICP_LOOP_{first}, {start})",
            w.method(&api::LOOP_EXIT)
        );
        body.push(format!(
            "{at}// {}",
            comment(&loop_note(w.program, members))
        ));
        // A loop's exits go to literal labels or the end (no `*`). In a
        // program of several functions the arm's value is the next label.
        let go = |j: Jump| match j {
            Jump::Label(l) if outlined_arms => format!("Ok({})", S.int(l)),
            Jump::Label(l) => format!("*icp_label = {}", S.int(l)),
            _ => "return Ok(true)".to_string(),
        };
        match p.exits.as_slice() {
            [(_, only)] => {
                body.push(format!("{at}{call};"));
                let value = outlined_arms && matches!(only, Jump::Label(_));
                body.push(format!("{at}{}{}", go(*only), if value { "" } else { ";" }));
            }
            exits => {
                body.push(format!("{at}match {call} {{"));
                for (i, (ks, exit)) in exits.iter().enumerate() {
                    let pattern = if i + 1 == exits.len() {
                        "_".to_string()
                    } else {
                        let ks: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
                        ks.join(" | ")
                    };
                    body.extend(arm(BODY + 1, &pattern, &go(*exit)));
                }
                body.push(format!("{at}}}"));
            }
        }
        return RustCase {
            label,
            comment: comment(&s.text),
            body,
        };
    }
    if inputs > 0 {
        let read = if outlined_arms {
            let function = w.helper("icp_read_into", &api::READ);
            format!("{function}(icp_in, &mut icp_v[..{inputs}])")
        } else {
            format!("icp_in.{}(&mut icp_v[..{inputs}])", w.method(&api::READ))
        };
        body.push(format!("{at}let icp_n = {read}?;"));
    }
    // §6: at end of input the command is not performed, so a count whose
    // `*` jump target found nothing prints nothing.
    let write = match &s.command {
        Command::Text(text) => Some((
            if outlined_arms {
                w.helper("icp_write_text", &api::TEXT).to_string()
            } else {
                w.path(&api::TEXT)
            },
            vec![
                "icp_out".to_string(),
                format!("\"{}\"", rust_string(&format!("{text}\n"))),
            ],
        )),
        Command::Count(name) => {
            let count = format!("icp_board.{}({name})", w.method(&api::COUNT));
            Some((
                if outlined_arms {
                    w.helper("icp_write_count", &api::WRITE_COUNT).to_string()
                } else {
                    w.path(&api::WRITE_COUNT)
                },
                vec!["icp_out".to_string(), count],
            ))
        }
        _ => None,
    };
    if let Some((function, args)) = write {
        if inputs > 0 {
            body.push(format!("{at}if icp_n == {inputs} {{"));
            body.extend(call(BODY + 1, &function, &args, "?;"));
            body.push(format!("{at}}}"));
        } else {
            body.extend(call(BODY, &function, &args, "?;"));
        }
    }
    let board = S
        .board_call_args(&mut w.uses, &s.command, w.moves)
        .map(|(entry, mut args)| {
            if outlined_arms {
                args.insert(0, "icp_board".to_string());
                (w.helper(outlined(&entry, false), &entry).to_string(), args)
            } else {
                (format!("icp_board.{}", w.method(&entry)), args)
            }
        });
    let halts = |j: Jump| j == Jump::Halt;
    if p.branches
        && inputs == 0
        && let Some((function, args)) = &board
        && halts(p.on_success) != halts(p.on_failure)
    {
        // One outcome ends the program: `if` it, return; then the other.
        // (As `if … { … } else { return … }` the arm would be an `if`
        // that clippy folds into the match when the chunk's last arm
        // returns the same.)
        let (test, then, rest) = if halts(p.on_failure) {
            (format!("if !{function}"), p.on_failure, p.on_success)
        } else {
            (format!("if {function}"), p.on_success, p.on_failure)
        };
        body.extend(call(BODY, &test, args, "? {"));
        body.extend(jump(w, then, &label, BODY + 1));
        body.push(format!("{at}}}"));
        body.extend(jump(w, rest, &label, BODY));
    } else if p.branches {
        let success = jump(w, p.on_success, &label, BODY + 1);
        let failure = jump(w, p.on_failure, &label, BODY + 1);
        match (&board, inputs > 0) {
            (Some((function, args)), guarded) => {
                if guarded {
                    body.push(format!("{at}if icp_n < {inputs} {{"));
                    body.extend(failure.iter().cloned());
                    body.extend(call(BODY, &format!("}} else if {function}"), args, "? {"));
                } else {
                    body.extend(call(BODY, &format!("if {function}"), args, "? {"));
                }
            }
            (None, _) => body.push(format!("{at}if icp_n == {inputs} {{")),
        }
        body.extend(success);
        body.push(format!("{at}}} else {{"));
        body.extend(failure);
        body.push(format!("{at}}}"));
    } else {
        if let Some((function, args)) = &board {
            if inputs > 0 {
                body.push(format!("{at}if icp_n == {inputs} {{"));
                body.extend(call(BODY + 1, function, args, "?;"));
                body.push(format!("{at}}}"));
            } else {
                body.extend(call(BODY, function, args, "?;"));
            }
        }
        body.extend(jump(w, p.on_success, &label, BODY));
    }
    // The arm sets the label itself: on to the next turn of the loop
    // (unless it ended the program).
    if outlined_arms && (p.branches || p.on_success != Jump::Halt) {
        body.push(format!("{at}continue;"));
    }
    RustCase {
        label,
        comment: comment(&s.text),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_entry_point_has_its_outlined_commands() {
        let entries = [
            api::PLACE,
            api::OCCUPY,
            api::MOVE_SQUARES,
            api::MOVE_NAME_TO,
            api::MOVE_NAME_BY,
            api::SLIDE,
        ];
        for entry in entries {
            let name = outlined(&entry, false);
            let text = HELPERS.iter().find(|(n, _)| *n == name).map(|(_, t)| t);
            let call = format!("icp_board.{}(", api::method(entry.rust));
            assert!(text.is_some_and(|t| t.contains(&call)), "{}", entry.name);
        }
        // A slide's step is written apart: it takes no failure target.
        for entry in &entries[..5] {
            let name = outlined(entry, true);
            let text = HELPERS.iter().find(|(n, _)| *n == name).map(|(_, t)| t);
            let call = format!("icp_board.{}(", api::method(entry.rust));
            assert!(text.is_some_and(|t| t.contains(&call)), "{}", entry.name);
        }
    }

    #[test]
    fn signatures_are_laid_out_as_rustfmt_lays_them_out() {
        let ret = "Result<bool, icp_rt::Fault>";
        let short = signature("fn f", &[], &["a: i64".to_string()], ret);
        assert_eq!(short, ["fn f(a: i64) -> Result<bool, icp_rt::Fault> {"]);
        let params: Vec<String> = (0..6).map(|i| format!("icp_p{i}: &mut i64")).collect();
        let long = signature("fn icp_chunk_0", &["W: Write"], &params, ret);
        assert_eq!(long.first().unwrap(), "fn icp_chunk_0<W: Write>(");
        assert_eq!(long.last().unwrap(), ") -> Result<bool, icp_rt::Fault> {");
        assert_eq!(long.len(), params.len() + 2);
    }

    /// The `include!`s of `board.rs`, in order, are [`BOARD_PARTS`]; the C
    /// runtime pastes the twins of the same names in the same order; every
    /// file of `runtime/board/` is one of them; and each file is whole
    /// lines with no blank line at either end, so that joining them with
    /// blank lines gives back the one text generated code has always had.
    #[test]
    fn the_board_parts_are_included_and_pasted_in_one_order() {
        let runtime = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lang/icp/runtime");
        let read = |name: &str| std::fs::read_to_string(format!("{runtime}/{name}")).unwrap();
        let included: Vec<&str> = BOARD
            .lines()
            .filter_map(|l| l.strip_prefix("include!(\"board/")?.strip_suffix(".rs\");"))
            .collect();
        let texts: Vec<String> = included
            .iter()
            .map(|s| read(&format!("board/{s}.rs")))
            .collect();
        assert_eq!(texts, BOARD_PARTS, "board.rs");
        let pasted: Vec<&str> = include_str!("c.rs")
            .lines()
            .filter_map(|l| {
                l.trim()
                    .strip_prefix("include_str!(\"../runtime/board/")?
                    .strip_suffix(".c\"),")
                    .or_else(|| {
                        l.trim()
                            .strip_prefix("include_str!(\"../runtime/board/")?
                            .strip_suffix(".c\")")
                    })
            })
            .collect();
        assert_eq!(pasted, included, "board.c");
        let mut files: Vec<String> = std::fs::read_dir(format!("{runtime}/board"))
            .unwrap()
            .map(|e| format!("board/{}", e.unwrap().file_name().into_string().unwrap()))
            .collect();
        files.sort();
        let mut want: Vec<String> = included
            .iter()
            .flat_map(|s| [format!("board/{s}.c"), format!("board/{s}.rs")])
            .collect();
        want.sort();
        assert_eq!(files, want);
        let own = BOARD.split("\ninclude!(").next().unwrap();
        assert!(BOARD[own.len()..].starts_with("\ninclude!("), "board.rs");
        let whole = files.iter().map(|f| (f.clone(), read(f)));
        let heads = [
            ("board.rs".to_string(), own.to_string()),
            ("board.c".to_string(), read("board.c")),
        ];
        for (name, text) in whole.chain(heads) {
            assert!(
                text.ends_with('\n') && !text.ends_with("\n\n"),
                "{name}: its end"
            );
            assert!(!text.starts_with('\n'), "{name}: its start");
        }
        // Generated code carries the text of old, the tests aside.
        assert!(!runtime_source().contains("#[cfg(test)]"));
    }
}
