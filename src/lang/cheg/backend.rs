//! The Rust back end (issue 12): a standalone UCI engine, one file or a
//! crate. The runtime (`runtime/chess.rs` and `engine.rs` with their
//! parts in `chess/` and `engine/`, `uci.rs`: the very files icp2c's
//! interpreter runs) is embedded as `icp_rt`, cut down to the sections the
//! program uses (`runtime/api.rs`); the endgame program becomes
//! `Endgame::step`, a `match` on the statement number whose arms make the
//! same runtime calls as the interpreter's (`interp.rs`), each under its
//! source line. Every runtime name an arm writes is spelt through the
//! table of `runtime/api.rs`, which records its section.

pub mod c;

use super::ir::{Kind, Literal, Op, Operand, Program, Var};
use super::runtime::api;
use super::runtime::engine::{Compare, Cond};
use crate::codegen::chunks::{Case, Dense, Idle, rust_signature as chunks_signature};
use crate::codegen::escape::{comment, rust_string};
use crate::codegen::layout::{self, Expr};
use crate::codegen::rust::RustProgram;
use crate::codegen::sections::{Entry, Markers, Runtime, Uses};
use crate::codegen::{self, Syntax};
use askama::Template;
use std::collections::BTreeSet;

/// The runtime's source files, as the sibling modules of `icp_rt`.
const CHESS: &str = include_str!("runtime/chess.rs");
const ENGINE: &str = include_str!("runtime/engine.rs");
const UCI: &str = include_str!("runtime/uci.rs");

/// The files `chess.rs` and `engine.rs` `include!`s (`runtime/chess/`,
/// `runtime/engine/`), by concern, in their order (a unit test holds the
/// lists equal): one module each, its text cut in files under 1,500 lines
/// and carried whole ([`codegen::joined`]), as [`c::RUNTIME`] pastes
/// their C twins.
const CHESS_PARTS: [&str; 2] = [
    include_str!("runtime/chess/board.rs"),
    include_str!("runtime/chess/position.rs"),
];
const ENGINE_PARTS: [&str; 6] = [
    include_str!("runtime/engine/values.rs"),
    include_str!("runtime/engine/node.rs"),
    include_str!("runtime/engine/instructions.rs"),
    include_str!("runtime/engine/program.rs"),
    include_str!("runtime/engine/history.rs"),
    include_str!("runtime/engine/search.rs"),
];

/// The whole runtime, section markers and all, as one module body: `pub
/// mod chess { … } pub mod engine { … } pub mod uci { … }`. Its sections
/// are one namespace ([`api`]); a program carries [`select`] of it.
pub fn runtime() -> String {
    format!(
        "pub mod chess {{\n{}}}\n\npub mod engine {{\n{}}}\n\npub mod uci {{\n{}}}\n",
        codegen::indent(codegen::joined(CHESS, &CHESS_PARTS).trim_end(), 1),
        codegen::indent(codegen::joined(ENGINE, &ENGINE_PARTS).trim_end(), 1),
        codegen::indent(UCI.trim_end(), 1)
    )
}

pub use crate::codegen::sections::Selected;

/// The part of `text` (a runtime with `markers`) that `uses` reaches.
pub(crate) fn select_from(text: &'static str, markers: Markers, uses: &Uses) -> Selected {
    let runtime = Runtime::parse(text, markers).expect("the CHEG runtime's section markers parse");
    let selected = runtime.select(uses);
    Selected {
        text: match markers {
            Markers::Rust => empty_braces_closed(&selected),
            Markers::C => selected,
        },
        sections: runtime.reach(uses).into_iter().collect(),
    }
}

/// `text` with each `{` whose block lost all its lines to the selection
/// closed on its own line, `{}`, as rustfmt writes an empty block (the
/// enum of condition tests when a program writes only empty conditions).
fn empty_braces_closed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let indent = line.len() - line.trim_start().len();
        let closes_here = lines.peek().is_some_and(|next| {
            next.len() - next.trim_start().len() == indent && next.trim_start().starts_with('}')
        });
        if line.ends_with(" {") && closes_here {
            let close = lines.next().unwrap_or_default();
            out.push_str(line);
            out.push_str(close.trim_start());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The Rust runtime a program carries: the core and the sections its
/// statements reach.
pub fn select(program: &Program) -> Selected {
    let (_, uses, _) = rust_cases(program);
    select_from(rust_runtime(), Markers::Rust, &uses)
}

/// [`runtime`], made once.
fn rust_runtime() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(runtime)
}

/// One statement as the templates (C and Rust) lay it out: its number,
/// its source line as a comment, the target's code.
struct CaseView {
    pc: usize,
    comment: String,
    body: String,
}

/// Every statement of `program` as a case, its code written by `body`
/// (given the operation and the source line).
fn cases(program: &Program, mut body: impl FnMut(usize, &Op, u32) -> String) -> Vec<CaseView> {
    program
        .statements
        .iter()
        .enumerate()
        .map(|(pc, s)| CaseView {
            pc,
            comment: format!("{}: {}", s.line, comment(s.text.trim())),
            body: body(pc, &s.op, s.line),
        })
        .collect()
}

/// What of the call machinery a program needs (§5.2): a program without
/// a call has every `RETURN` outside a subroutine ([`api::STRAY`]); one
/// without `RETURN` has no call come back ([`api::ENTER`]); only one with
/// both carries the call stack of frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Calls {
    /// A `COND`, `CONDT`, `CONDF`, `SET`, `SELECT` or `MAP` somewhere.
    calls: bool,
    /// A `RETURN` somewhere.
    returns: bool,
}

impl Calls {
    fn of(program: &Program) -> Calls {
        let any = |f: fn(&Op) -> bool| program.statements.iter().any(|s| f(&s.op));
        Calls {
            calls: any(|op| matches!(op, Op::Cond { .. } | Op::CondTF { .. } | Op::Call { .. })),
            returns: any(|op| matches!(op, Op::Return(_))),
        }
    }

    /// Calls come back: the call stack.
    fn frames(self) -> bool {
        self.calls && self.returns
    }
}

/// The source line of each statement (for runtime errors and `BREAK`).
fn source_lines(program: &Program) -> Vec<String> {
    program
        .statements
        .iter()
        .map(|s| s.line.to_string())
        .collect()
}

/// The program's Rust items (the program, `icp_step`, the engine's main
/// and `run`), which `codegen::rust` lays out as a file, a module or a
/// crate.
#[derive(Template)]
#[template(path = "cheg/rust/program.rs", escape = "none")]
struct ProgramView {
    /// `const ICP_ENTRIES: … = […];`, laid out.
    entries: String,
    /// `const ICP_LINES: … = […];`, laid out.
    lines: String,
    /// How many user variables the program has, when it uses them (else
    /// `Endgame::user_vars` is not in the runtime).
    user_vars: Option<usize>,
    /// `icp_step`: the statements as a `match` ([`chunks::Dense`]).
    steps: String,
    /// The engine's name (`id name`), a string literal's body.
    name: String,
}

/// How generated Rust spells `entry` (recording it in `uses`): the
/// engine's items through `icp_e` (`use icp_rt::engine as icp_e;`), the
/// others through `icp_rt`.
fn rs(uses: &mut Uses, entry: &Entry) -> String {
    let path = uses.rust(entry);
    match path.strip_prefix("engine::") {
        Some(item) => format!("icp_e::{item}"),
        None => format!("icp_rt::{path}"),
    }
}

/// The arms of `program`'s `step` and what they use of the runtime,
/// the program's frame included (the template's names, the `ENTRY`
/// table).
fn rust_cases(program: &Program) -> (Vec<CaseView>, Uses, Vec<String>) {
    let frame = [
        &api::ENDGAME,
        &api::ENTRY_SPEC,
        &api::INVOCATION,
        &api::ERROR,
        &api::ENGINE_MAIN,
        &api::THREAD_READER,
        &api::SYSTEM_CLOCK,
        &api::FENCE,
    ];
    statement_cases(
        program,
        &frame,
        |u, pc, op| outlined_arm(u, pc, op).map(|(lines, h)| (lines.join("\n"), h)),
        |u, calls, pc, op, line| arm(u, calls, pc, op, line).join("\n"),
        helper,
    )
}

/// The cases of a program's statements in one target, what they use of
/// the runtime (`frame`, the entries the target's frame always uses,
/// included) and the functions that outlined statements call: above
/// [`OUTLINE`] statements a statement is `outlined` where it can be, else
/// `plain`; `helper` writes the function of each kind and shapes called.
fn statement_cases(
    program: &Program,
    frame: &[&Entry],
    mut outlined: impl FnMut(&mut Uses, usize, &Op) -> Option<(String, Helper)>,
    mut plain: impl FnMut(&mut Uses, Calls, usize, &Op, u32) -> String,
    mut helper: impl FnMut(&mut Uses, Outline, &[Shape]) -> String,
) -> (Vec<CaseView>, Uses, Vec<String>) {
    let mut uses = Uses::new();
    for entry in frame {
        uses.add(entry);
    }
    let calls = Calls::of(program);
    let outline = program.statements.len() > OUTLINE;
    let mut helpers = BTreeSet::new();
    let cases = cases(program, |pc, op, line| {
        match outline.then(|| outlined(&mut uses, pc, op)).flatten() {
            Some((text, h)) => {
                helpers.insert(h);
                text
            }
            None => plain(&mut uses, calls, pc, op, line),
        }
    });
    let helpers = helpers
        .into_iter()
        .map(|(kind, shapes)| helper(&mut uses, kind, &shapes))
        .collect();
    (cases, uses, helpers)
}

/// Above this many statements ([`OUTLINE`], in `codegen::chunks`), in
/// both back ends (C: `c::outlined_body`), a statement whose operands are
/// variables and integers (`OP w,a`, `OP w,a,b`, `JUMP… a,b,t`) calls one
/// small function of its kind and operands' shape, [`helper`], with plain
/// arguments: the arm then makes no value of its own, which rustc would
/// drop, and unwind through, in each arm. (With values made in the arms,
/// `rustc -O` took 2.5 times `cc -O2`'s time on 20,000 statements and
/// 7.5 GB on 200,000; `cc -O2` took twice as long as outlined on 50,000.)
use crate::codegen::chunks::OUTLINE;

/// An operand of an outlined statement: a variable's value, or an
/// integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Shape {
    Var,
    Int,
}

/// A function outlined statements call: their kind, their operands'
/// shapes.
type Helper = (Outline, Vec<Shape>);

/// The kinds of statement that are outlined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outline {
    Unary,
    Binary,
    Jump,
}

/// The shape of `o`, and how it is passed (a variable or an integer
/// literal); `None` for another literal.
fn shape(u: &mut Uses, o: &Operand) -> Option<(Shape, Expr)> {
    match o {
        Operand::Var(v) => Some((Shape::Var, var(u, *v))),
        Operand::Literal(Literal::Integer(i64::MIN)) => Some((Shape::Int, atom("i64::MIN"))),
        Operand::Literal(Literal::Integer(n)) => Some((Shape::Int, atom(n.to_string()))),
        Operand::Literal(_) => None,
    }
}

/// The name of the function of `kind` and `shapes` (`icp_binary_vi`).
fn helper_name(kind: Outline, shapes: &[Shape]) -> String {
    let kind = match kind {
        Outline::Unary => "unary",
        Outline::Binary => "binary",
        Outline::Jump => "jump",
    };
    let shapes: String = shapes
        .iter()
        .map(|s| match s {
            Shape::Var => 'v',
            Shape::Int => 'i',
        })
        .collect();
    format!("icp_{kind}_{shapes}")
}

/// The arm of statement `pc` as a call of its [`helper`], when it is one
/// of the outlined kinds and its operands are variables and integers.
fn outlined_arm(u: &mut Uses, pc: usize, op: &Op) -> Option<(Vec<String>, Helper)> {
    let (kind, head, dst, operands, tail) = match op {
        Op::Unary { op, dst, a } => (
            Outline::Unary,
            rs(u, api::unary(*op)),
            Some(*dst),
            vec![a],
            None,
        ),
        Op::Binary { op, dst, a, b } => (
            Outline::Binary,
            rs(u, api::binary(*op)),
            Some(*dst),
            vec![a, b],
            None,
        ),
        Op::Jump { cmp, a, b, target } => (
            Outline::Jump,
            rs(u, api::compare(*cmp)),
            None,
            vec![a, b],
            Some(*target),
        ),
        _ => return None,
    };
    let mut args = vec![atom(head)];
    if let Some(dst) = dst {
        args.push(var(u, dst));
    }
    let mut shapes = Vec::new();
    for o in operands {
        let (s, e) = shape(u, o)?;
        shapes.push(s);
        args.push(e);
    }
    if uses_invocation(kind, &shapes) {
        args.insert(0, atom("inv"));
    }
    if let Some(target) = tail {
        args.push(atom(target.to_string()));
    }
    let call = Expr::call(helper_name(kind, &shapes), args);
    Some((
        layout::expr_arm(ARM, &pc.to_string(), &call),
        (kind, shapes),
    ))
}

/// Whether the function of `kind` and `shapes` needs the invocation: every
/// one but a comparison of two integers.
fn uses_invocation(kind: Outline, shapes: &[Shape]) -> bool {
    kind != Outline::Jump || shapes.contains(&Shape::Var)
}

/// The function an outlined statement calls ([`OUTLINE`]): the statement
/// of `kind` on operands of `shapes`, its values made here.
fn helper(u: &mut Uses, kind: Outline, shapes: &[Shape]) -> String {
    let operand = |u: &mut Uses, s: Shape, name: &str| match s {
        Shape::Var => {
            u.add(&api::READ);
            Expr::call("inv.read", vec![atom(name)])
        }
        Shape::Int => Expr::call(rs(u, &api::INTEGER), vec![atom(name)]),
    };
    let ty = |s: Shape| match s {
        Shape::Var => "icp_e::Var",
        Shape::Int => "i64",
    };
    let names = ["a", "b"];
    let mut params = Vec::new();
    if uses_invocation(kind, shapes) {
        params.push("inv: &mut icp_e::Invocation<'_, '_>".to_string());
    }
    let body = match kind {
        Outline::Unary => {
            params.push("op: icp_e::Unary".into());
            params.push("dst: icp_e::Var".into());
            params.push(format!("a: {}", ty(shapes[0])));
            let f = rs(u, &api::UNARY).replace("icp_e::Invocation::", "inv.");
            let a = operand(u, shapes[0], "a").borrowed();
            u.add(&api::NEXT);
            Expr::call(
                NEXT_FN,
                vec![Expr::call(f, vec![atom("op"), atom("dst"), a])],
            )
        }
        Outline::Binary => {
            params.push("op: icp_e::Binary".into());
            params.push("dst: icp_e::Var".into());
            for (s, n) in shapes.iter().zip(names) {
                params.push(format!("{n}: {}", ty(*s)));
            }
            let f = rs(u, &api::BINARY).replace("icp_e::Invocation::", "inv.");
            let a = operand(u, shapes[0], "a");
            let b = operand(u, shapes[1], "b").borrowed();
            u.add(&api::NEXT);
            Expr::call(
                NEXT_FN,
                vec![Expr::call(f, vec![atom("op"), atom("dst"), a, b])],
            )
        }
        Outline::Jump => {
            params.push("cmp: icp_e::Compare".into());
            for (s, n) in shapes.iter().zip(names) {
                params.push(format!("{n}: {}", ty(*s)));
            }
            params.push("target: usize".into());
            let f = rs(u, &api::JUMP);
            let a = operand(u, shapes[0], "a").borrowed();
            let b = operand(u, shapes[1], "b").borrowed();
            u.add(&api::NEXT);
            let test = Expr::try_call(f, vec![atom("cmp"), a, b]);
            let taken = layout::statement(1, "let taken = ", &test, ";").join("\n");
            let branch = Expr::call(rs(u, &api::BRANCH), vec![atom("taken"), atom("target")]);
            let last = layout::statement(1, "", &Expr::call("Ok", vec![branch]), "").join("\n");
            let signature = chunks_signature(
                &helper_name(kind, shapes),
                &params,
                "Result<icp_e::Step, icp_e::Error>",
            );
            return format!("#[inline(never)]\n{signature}\n{taken}\n{last}\n}}");
        }
    };
    let signature = chunks_signature(
        &helper_name(kind, shapes),
        &params,
        "Result<icp_e::Step, icp_e::Error>",
    );
    let body = layout::statement(1, "", &body, "").join("\n");
    format!("#[inline(never)]\n{signature}\n{body}\n}}")
}

/// Generated Rust: the engine's items and the runtime sections they use,
/// for `codegen::rust` to lay out as a file, a module or a crate.
pub fn emit_rust(program: &Program, source_name: &str) -> RustProgram {
    let (cases, uses, helpers) = rust_cases(program);
    let selected = select_from(rust_runtime(), Markers::Rust, &uses);
    let steps = Dense {
        name: "icp_step".into(),
        doc: vec!["Runs statement `pc` of the program: what the engine does next.".into()],
        returns: "Result<icp_e::Step, icp_e::Error>".into(),
        params: vec![
            "pc: usize".into(),
            "inv: &mut icp_e::Invocation<'_, '_>".into(),
        ],
        args: "pc, inv".into(),
        pc: "pc".into(),
        default: "Ok(icp_e::Step::Fence)".into(),
        wrap: String::new(),
        storage: String::new(),
        idle: Some(Idle { name: "inv".into() }),
        operands: None,
        cases: cases
            .into_iter()
            .map(|c| {
                let lines = c
                    .body
                    .lines()
                    .map(|l| l.strip_prefix(&layout::pad(ARM)).unwrap_or(l).to_string())
                    .collect();
                Case::new(c.pc, c.comment, lines)
            })
            .collect(),
    }
    .rust();
    let steps = [steps]
        .into_iter()
        .chain(helpers)
        .collect::<Vec<_>>()
        .join("\n\n");
    let steps = if steps.contains(&format!("{NEXT_FN}(")) {
        format!(
            "{steps}\n\n/// The step after a statement: the next one, or the statement's error.\nfn {NEXT_FN}<E>(done: Result<(), E>) -> Result<icp_e::Step, icp_e::Error>\nwhere\n    icp_e::Error: From<E>,\n{{\n    done.map(|()| icp_e::Step::Next).map_err(icp_e::Error::from)\n}}"
        )
    } else {
        steps
    };
    let view = ProgramView {
        user_vars: selected
            .sections
            .contains(&"var_user")
            .then_some(program.user_vars.len()),
        entries: layout::expr_array(
            &format!(
                "const ICP_ENTRIES: [icp_e::EntrySpec; {}]",
                program.entries.len()
            ),
            &super::interp::entry_specs(program)
                .iter()
                .map(|e| {
                    let side = |s: (u8, u8, u8, u8, Option<u8>)| {
                        atom(format!("({}, {}, {}, {}, {:?})", s.0, s.1, s.2, s.3, s.4))
                    };
                    let pawn_diff = e.pawn_diff.map_or("None".into(), |(c, m)| {
                        format!("Some((std::cmp::Ordering::{c:?}, {m}))")
                    });
                    Expr::Struct(
                        "icp_e::EntrySpec".into(),
                        vec![
                            ("start".into(), atom(e.start.to_string())),
                            ("mover".into(), side(e.mover)),
                            ("other".into(), side(e.other)),
                            ("pawn_diff".into(), atom(pawn_diff)),
                        ],
                    )
                })
                .collect::<Vec<_>>(),
        )
        .join("\n"),
        lines: layout::array(
            &format!("const ICP_LINES: [u32; {}]", program.statements.len()),
            &source_lines(program),
        )
        .join("\n"),
        name: codegen::escape::rust_string(&super::engine_name(source_name)),
        steps,
    };
    RustProgram {
        language: "CHEG",
        source_name: source_name.to_string(),
        about: vec![
            "Run:   ./engine --fen FEN [--moves MOVES] [--depth N] [--no-endgame] [--perft N]"
                .into(),
            "       (no arguments: UCI). The endgame program is the match in `icp_step`:".into(),
            "one arm per statement, under its source line; the engine (chess, search,".into(),
            "UCI) is the runtime.".into(),
        ],
        runtime: selected.text,
        items: codegen::render(&view, Syntax::Rust),
        main: Some(MAIN.to_string()),
        crate_main: Some(CRATE_MAIN.to_string()),
        crate_api: CRATE_API.to_string(),
        crate_doc: CRATE_DOC.iter().map(|l| l.to_string()).collect(),
    }
}

/// The one-file engine's `main`: `run` on standard input and output
/// without arguments, else its arguments to `icp_engine`'s command line.
const MAIN: &str = "\
fn main() {
    // Arguments as text; bytes that are not UTF-8 become U+FFFD, as in the
    // C engine.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let input = std::io::BufReader::new(std::io::stdin());
    if args.is_empty() {
        // UCI. As the C engine, a session whose answers cannot be written
        // still ends with status 0.
        let _ = run(input, std::io::stdout());
        return;
    }
    let (status, _) = icp_engine(&args, Box::new(input), std::io::stdout().lock());
    std::process::exit(status);
}";

/// A crate's `src/main.rs` after its header: the library's
/// `command_line` on the binary's arguments.
const CRATE_MAIN: &str = "\
fn main() {
    // Arguments as text; bytes that are not UTF-8 become U+FFFD, as in the
    // C engine.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    std::process::exit({lib}::command_line(&args));
}";

/// What a crate's library says of its engine API.
const CRATE_DOC: &[&str] = &[
    "",
    "The engine's API besides [`run`]: [`best_move`] searches a position as",
    "the binary's `--fen FEN --depth N` does, [`perft`] counts the legal move",
    "tree, and [`command_line`] is the binary itself.",
];

/// A crate's engine API (after `run` and `Error` in `src/lib.rs`): the
/// binary's command line, and its queries as functions.
const CRATE_API: &str = r#"/// What the engine's binary does with `args` (its arguments, without the
/// program's name): one query (`--fen FEN [--moves MOVES] [--depth N]
/// [--no-endgame] [--perft N]`), `--help`, or the UCI loop on standard
/// input and output when there are none. Returns the exit status: 0; 1 a
/// runtime error of the program (CHEG §9); 2 a bad FEN, move or argument.
pub fn command_line(args: &[String]) -> i32 {
    let input = std::io::BufReader::new(std::io::stdin());
    icp_engine(args, Box::new(input), std::io::stdout().lock()).0
}

/// The best move of the position `fen` (FEN) searched `depth` plies (1 to
/// 20) with the program, and its score: what `--fen FEN --depth N` prints
/// (CHEG §7.3). The move is in UCI form (`e2e4`, `e7e8q`), `None` when the
/// side to move has none. Errors: a FEN that does not parse, a depth out
/// of range, a runtime error of the program.
pub fn best_move(fen: &str, depth: u32) -> Result<(Option<String>, i64), Error> {
    let answer = icp_query(&["--fen", fen, "--depth", &depth.to_string()])?;
    let mut words = answer.split_whitespace();
    match (words.next(), words.next(), words.next(), words.next()) {
        (Some("bestmove"), Some(best), Some("score"), Some(score)) => Ok((
            (best != "0000").then(|| best.to_string()),
            score.parse().map_err(|_| icp_unexpected(&answer))?,
        )),
        _ => Err(icp_unexpected(&answer)),
    }
}

/// The number of leaf nodes of the legal move tree of the position `fen`
/// to `depth` plies (perft; 0 to 20): what `--fen FEN --perft N` prints.
/// Errors: a FEN that does not parse, a depth out of range.
pub fn perft(fen: &str, depth: u32) -> Result<u64, Error> {
    let answer = icp_query(&["--fen", fen, "--perft", &depth.to_string()])?;
    answer.trim().parse().map_err(|_| icp_unexpected(&answer))
}

/// One query of the engine's command line: what it prints, or the first
/// line of its error report.
fn icp_query(args: &[&str]) -> Result<String, Error> {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut commands = icp_rt::uci::ThreadReader::spawn(Box::new(std::io::empty()));
    let (mut output, mut errors) = (Vec::new(), Vec::new());
    let status = icp_rt::uci::main(
        ICP_NAME,
        &args,
        &IcpProgram,
        &mut commands,
        &icp_rt::uci::SystemClock::new(),
        &mut output,
        &mut errors,
    );
    match status {
        0 => Ok(String::from_utf8_lossy(&output).into_owned()),
        _ => {
            let errors = String::from_utf8_lossy(&errors);
            let line = errors.lines().next().unwrap_or("the query failed");
            Err(Error {
                message: line.strip_prefix("error: ").unwrap_or(line).to_string(),
            })
        }
    }
}

/// An answer of the engine's command line that is not what it prints.
fn icp_unexpected(answer: &str) -> Error {
    Error {
        message: format!("unexpected answer {:?}", answer.trim()),
    }
}"#;

fn kind(u: &mut Uses, k: Kind) -> String {
    rs(u, api::kind(k))
}

fn atom(text: impl Into<String>) -> Expr {
    Expr::atom(text)
}

fn var(u: &mut Uses, v: Var) -> Expr {
    let path = rs(u, api::var(v));
    match v {
        Var::User(slot) => Expr::call(path, vec![atom(slot.to_string())]),
        Var::Piece {
            mover,
            kind: k,
            index,
        } => Expr::Struct(
            path,
            vec![
                ("mover".into(), atom(mover.to_string())),
                ("kind".into(), atom(kind(u, k))),
                ("index".into(), atom(index.to_string())),
            ],
        ),
        _ => atom(path),
    }
}

fn literal(u: &mut Uses, l: &Literal) -> Expr {
    match l {
        Literal::Undefined => atom(rs(u, &api::UNDEFINED)),
        Literal::Logical(b) => Expr::call(rs(u, &api::LOGICAL), vec![atom(b.to_string())]),
        Literal::Integer(i64::MIN) => Expr::call(rs(u, &api::INTEGER), vec![atom("i64::MIN")]),
        Literal::Integer(n) => Expr::call(rs(u, &api::INTEGER), vec![atom(n.to_string())]),
        Literal::Set(text) => Expr::call(
            rs(u, &api::SET_LITERAL),
            vec![atom(format!("\"{}\"", rust_string(text)))],
        ),
    }
}

fn read(u: &mut Uses, o: &Operand) -> Expr {
    match o {
        Operand::Var(v) => {
            u.add(&api::READ);
            Expr::call("inv.read", vec![var(u, *v)])
        }
        Operand::Literal(l) => literal(u, l),
    }
}

/// `&read(o)`.
fn read_ref(u: &mut Uses, o: &Operand) -> Expr {
    read(u, o).borrowed()
}

/// A condition argument: `None` (empty), or `Some((negated, test))`.
fn cond(u: &mut Uses, c: Cond) -> Expr {
    match c {
        None => {
            u.add(&api::ALWAYS);
            atom("None")
        }
        Some((negated, t)) => {
            u.add(&api::CONDITION);
            let path = rs(u, api::test(t));
            let test = match t {
                super::runtime::engine::Test::Kind(k) => Expr::call(path, vec![atom(kind(u, k))]),
                _ => atom(path),
            };
            Expr::call(
                "Some",
                vec![Expr::call("", vec![atom(negated.to_string()), test])],
            )
        }
    }
}

fn compare(u: &mut Uses, c: Compare) -> Expr {
    atom(rs(u, api::compare(c)))
}

fn ordering(u: &mut Uses, o: super::ir::Ordering) -> Expr {
    atom(rs(u, api::ordering(o)))
}

/// `icp_e::Step::Call { sub, arg, then }`.
fn call_step(u: &mut Uses, sub: usize, arg: Expr, then: Expr) -> Expr {
    Expr::Struct(
        rs(u, &api::CALL),
        vec![
            ("sub".into(), atom(sub.to_string())),
            ("arg".into(), arg),
            ("then".into(), then),
        ],
    )
}

/// `icp_e::Step::Enter { sub, arg }`: a call that never comes back.
fn enter_step(u: &mut Uses, sub: usize, arg: Expr) -> Expr {
    Expr::Struct(
        rs(u, &api::ENTER),
        vec![("sub".into(), atom(sub.to_string())), ("arg".into(), arg)],
    )
}

/// The level of the `match` arms in `icp_step` (fn, match).
const ARM: usize = 2;

/// The generated function that turns a statement's `Result<(), Error>`
/// into the step after it.
const NEXT_FN: &str = "icp_next";

/// The arm of statement `pc` (source line `line`), laid out as rustfmt
/// would: the runtime calls of `interp.rs`'s `step`. `calls`: what of the
/// call machinery the program needs ([`Calls`]).
fn arm(u: &mut Uses, calls: Calls, pc: usize, op: &Op, line: u32) -> Vec<String> {
    let pattern = pc.to_string();
    // An arm's value is the step's `Result`: one expression each, no `?`
    // of its own where it can be helped (rustc's time on a program of
    // thousands of statements grows with the error paths it compiles).
    let value = |e: Expr| layout::expr_arm(ARM, &pattern, &Expr::call("Ok", vec![e]));
    // A statement of the runtime, then the next statement: `icp_next` of
    // the statement's own `Result`.
    let next = |u: &mut Uses, e: Expr| match e {
        Expr::Call(head, args, "?") => {
            u.add(&api::NEXT);
            let e = Expr::Call(head, args, "");
            layout::expr_arm(ARM, &pattern, &Expr::call(NEXT_FN, vec![e]))
        }
        // A statement that cannot fail, then the next.
        e => {
            let body = layout::statement(ARM + 1, "", &e, ";");
            let next = Expr::call("Ok", vec![atom(rs(u, &api::NEXT))]);
            layout::block_arm(ARM, &pattern, body, &next)
        }
    };
    let outcome = |u: &mut Uses, e: Expr| value(Expr::call(rs(u, &api::OUTCOME), vec![e]));
    let branch = |u: &mut Uses, test: Expr, target: usize| {
        u.add(&api::NEXT);
        value(Expr::call(
            rs(u, &api::BRANCH),
            vec![test, atom(target.to_string())],
        ))
    };
    let method = |u: &mut Uses, entry: &Entry| {
        let path = u.rust(entry);
        let name = path.rsplit("::").next().unwrap_or(path);
        format!("inv.{name}")
    };
    match op {
        Op::Fence => value(atom(rs(u, &api::FENCE))),
        Op::Break(a, b, c) => {
            let mut body = Vec::new();
            for (name, operand) in [("a", a), ("b", b), ("c", c)] {
                let e = read(u, operand);
                body.extend(layout::statement(
                    ARM + 1,
                    &format!("let {name} = "),
                    &e,
                    ";",
                ));
            }
            body.push(format!(
                "{}{}({line}, &a, &b, &c);",
                layout::pad(ARM + 1),
                method(u, &api::BREAK)
            ));
            let next = Expr::call("Ok", vec![atom(rs(u, &api::NEXT))]);
            layout::block_arm(ARM, &pattern, body, &next)
        }
        Op::Return(_) if !calls.calls => value(atom(rs(u, &api::STRAY))),
        Op::Return(v) => {
            let path = rs(u, &api::RETURN);
            let e = read(u, v);
            value(Expr::call(path, vec![e]))
        }
        Op::Cond { sub, .. } if !calls.frames() => {
            let x = Expr::call("inv.read", vec![var(u, Var::X)]);
            u.add(&api::READ);
            value(enter_step(u, *sub, x))
        }
        Op::CondTF { sub, arg, .. }
        | Op::Call {
            kind: super::ir::CallKind::Set,
            sub,
            arg,
            ..
        } if !calls.frames() => {
            let arg = read(u, arg);
            value(enter_step(u, *sub, arg))
        }
        Op::Call { dst, sub, arg, .. } if !calls.frames() => {
            let each = rs(u, &api::ENTER_EACH);
            let dst = var(u, *dst);
            let set = read(u, arg);
            value(Expr::Struct(
                each,
                vec![
                    ("dst".into(), dst),
                    ("sub".into(), atom(sub.to_string())),
                    ("set".into(), set),
                ],
            ))
        }
        Op::Cond {
            cond: c,
            sub,
            target,
        } => {
            let f = method(u, &api::COND);
            u.add(&api::CALL);
            let args = vec![cond(u, *c), atom(sub.to_string()), atom(target.to_string())];
            value(Expr::call(f, args))
        }
        Op::CondV {
            cond: c,
            value: v,
            target,
        } => {
            let f = method(u, &api::CONDV);
            let args = vec![cond(u, *c), read_ref(u, v), atom(target.to_string())];
            value(Expr::try_call(f, args))
        }
        Op::CondTF {
            on_true,
            sub,
            arg,
            target,
        } => {
            let then = rs(u, &api::CONDTF);
            let then = Expr::call(
                then,
                vec![atom(on_true.to_string()), atom(target.to_string())],
            );
            let arg = read(u, arg);
            value(call_step(u, *sub, arg, then))
        }
        Op::Jump { cmp, a, b, target } => {
            let f = rs(u, &api::JUMP);
            let cmp = compare(u, *cmp);
            let (a, b) = (read_ref(u, a), read_ref(u, b));
            branch(u, Expr::try_call(f, vec![cmp, a, b]), *target)
        }
        Op::Call {
            kind: super::ir::CallKind::Set,
            dst,
            sub,
            arg,
        } => {
            let then = rs(u, &api::SET);
            let then = Expr::call(then, vec![var(u, *dst)]);
            let arg = read(u, arg);
            value(call_step(u, *sub, arg, then))
        }
        Op::Call {
            kind: k,
            dst,
            sub,
            arg,
        } => {
            let each = rs(u, &api::EACH);
            let kind = atom(rs(u, api::call_kind(*k)));
            let dst = var(u, *dst);
            let set = read(u, arg);
            value(Expr::Struct(
                each,
                vec![
                    ("kind".into(), kind),
                    ("dst".into(), dst),
                    ("sub".into(), atom(sub.to_string())),
                    ("set".into(), set),
                ],
            ))
        }
        Op::Unary { op, dst, a } => {
            let f = method(u, &api::UNARY);
            let args = vec![atom(rs(u, api::unary(*op))), var(u, *dst), read_ref(u, a)];
            next(u, Expr::try_call(f, args))
        }
        Op::Binary { op, dst, a, b } => {
            let f = method(u, &api::BINARY);
            let args = vec![
                atom(rs(u, api::binary(*op))),
                var(u, *dst),
                read(u, a),
                read_ref(u, b),
            ];
            next(u, Expr::try_call(f, args))
        }
        Op::Exch(a, b) => {
            let f = method(u, &api::EXCH);
            let args = vec![var(u, *a), var(u, *b)];
            next(u, Expr::call(f, args))
        }
        Op::Order(a, b, o) => {
            let f = method(u, &api::ORDER);
            let args = vec![var(u, *a), var(u, *b), ordering(u, *o)];
            next(u, Expr::try_call(f, args))
        }
        Op::Selecc { dst, cond: c, set } => {
            let f = method(u, &api::SELECC);
            let args = vec![var(u, *dst), cond(u, *c), read_ref(u, set)];
            next(u, Expr::try_call(f, args))
        }
        Op::SetEl {
            value: v,
            set,
            index,
        } => {
            let f = method(u, &api::SETEL);
            let args = vec![read(u, v), var(u, *set), read_ref(u, index)];
            next(u, Expr::try_call(f, args))
        }
        Op::Insert {
            value: v,
            set,
            index,
        } => {
            let f = method(u, &api::INSERT);
            let args = vec![read(u, v), var(u, *set), read_ref(u, index)];
            next(u, Expr::try_call(f, args))
        }
        Op::Unsert { dst, set, index } => {
            let f = method(u, &api::UNSERT);
            let args = vec![var(u, *dst), var(u, *set), read_ref(u, index)];
            next(u, Expr::try_call(f, args))
        }
        Op::ExchWe { a, set, index } => {
            let f = method(u, &api::EXCHWE);
            let args = vec![var(u, *a), var(u, *set), read_ref(u, index)];
            next(u, Expr::try_call(f, args))
        }
        Op::ExchEl { set, i, j } => {
            let f = method(u, &api::EXCHEL);
            let args = vec![var(u, *set), read_ref(u, i), read_ref(u, j)];
            next(u, Expr::try_call(f, args))
        }
        Op::Play {
            kind,
            set,
            cond: c,
            order,
        } => {
            let f = method(u, &api::PLAY);
            let args = vec![
                atom(rs(u, api::play(*kind))),
                read_ref(u, set),
                cond(u, *c),
                ordering(u, *order),
            ];
            let call = Expr::try_call(f, args);
            outcome(u, call)
        }
        Op::Plan { tag, set, value: v } => {
            let f = method(u, &api::PLAN);
            let args = vec![atom(tag.to_string()), read_ref(u, set), read(u, v)];
            next(u, Expr::try_call(f, args))
        }
        Op::Unplan => {
            let f = method(u, &api::UNPLAN);
            next(u, Expr::call(f, vec![]))
        }
        Op::Done => {
            let f = method(u, &api::DONE);
            let done = Expr::call("Some", vec![Expr::call(f, vec![])]);
            outcome(u, done)
        }
        Op::Leave => value(atom(rs(u, &api::LEAVE))),
        Op::Value { kind, w, l, c } => {
            let f = method(u, &api::VALUE);
            let args = vec![
                atom(rs(u, api::value(*kind))),
                read_ref(u, w),
                read_ref(u, l),
                read_ref(u, c),
            ];
            let call = Expr::try_call(f, args);
            outcome(u, call)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CHESS, CHESS_PARTS, ENGINE, ENGINE_PARTS};

    /// The `include!`s of `chess.rs` and `engine.rs`, in order, are
    /// [`CHESS_PARTS`] and [`ENGINE_PARTS`]; the C runtime pastes the twins
    /// of the same names in the same order; every file of `runtime/chess/`
    /// and `runtime/engine/` is one of them; and each file is whole lines
    /// with no blank line at either end, so that joining them with blank
    /// lines gives back the one text generated code has always had.
    #[test]
    fn the_runtime_parts_are_included_and_pasted_in_one_order() {
        let runtime = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lang/cheg/runtime");
        let read = |name: &str| std::fs::read_to_string(format!("{runtime}/{name}")).unwrap();
        for (module, file, parts) in [
            ("chess", CHESS, &CHESS_PARTS[..]),
            ("engine", ENGINE, &ENGINE_PARTS),
        ] {
            let prefix = format!("include!(\"{module}/");
            let included: Vec<&str> = file
                .lines()
                .filter_map(|l| l.strip_prefix(prefix.as_str())?.strip_suffix(".rs\");"))
                .collect();
            let texts: Vec<String> = included
                .iter()
                .map(|s| read(&format!("{module}/{s}.rs")))
                .collect();
            assert_eq!(texts, parts, "{module}.rs");
            let prefix = format!("include_str!(\"../runtime/{module}/");
            let pasted: Vec<&str> = include_str!("backend/c.rs")
                .lines()
                .filter_map(|l| {
                    l.trim()
                        .strip_prefix(prefix.as_str())?
                        .strip_suffix(".c\"),")
                })
                .collect();
            assert_eq!(pasted, included, "{module}.c");
            let mut files: Vec<String> = std::fs::read_dir(format!("{runtime}/{module}"))
                .unwrap()
                .map(|e| format!("{module}/{}", e.unwrap().file_name().into_string().unwrap()))
                .collect();
            files.sort();
            let mut want: Vec<String> = included
                .iter()
                .flat_map(|s| [format!("{module}/{s}.c"), format!("{module}/{s}.rs")])
                .collect();
            want.sort();
            assert_eq!(files, want);
            let own = file.split("\ninclude!(").next().unwrap();
            assert!(file[own.len()..].starts_with("\ninclude!("), "{module}.rs");
            let whole = files.iter().map(|f| (f.clone(), read(f)));
            let heads = [
                (format!("{module}.rs"), own.to_string()),
                (format!("{module}.c"), read(&format!("{module}.c"))),
            ];
            for (name, text) in whole.chain(heads) {
                assert!(
                    text.ends_with('\n') && !text.ends_with("\n\n"),
                    "{name}: its end"
                );
                assert!(!text.starts_with('\n'), "{name}: its start");
            }
        }
    }
}
